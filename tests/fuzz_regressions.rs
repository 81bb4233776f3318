//! Replays every input saved under `fuzz/regressions/<target>/` through the
//! same check the fuzz target runs, so a fixed finding stays fixed.

#[path = "../fuzz/checks.rs"]
mod checks;

fn replay(target: &str, check: fn(&[u8])) -> usize {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_file() {
            let bytes = std::fs::read(&path).unwrap();
            check(&bytes);
            n += 1;
        }
    }
    n
}

#[test]
fn json_tokenizer_regressions() {
    assert!(replay("json_tokenizer", checks::json_tokenizer) > 0);
}

#[test]
fn yaz0_regressions() {
    assert!(replay("yaz0", checks::yaz0) > 0);
}

#[test]
fn lzutf8_regressions() {
    assert!(replay("lzutf8", checks::lzutf8) > 0);
}

#[test]
fn load_regressions() {
    assert!(replay("load", checks::load) > 0);
}

#[test]
fn j3d_regressions() {
    assert!(replay("j3d", checks::j3d) > 0);
}

#[test]
fn j3d_textures_regressions() {
    assert!(replay("j3d_textures", checks::j3d_textures) > 0);
}

#[test]
fn j3d_anim_regressions() {
    assert!(replay("j3d_anim", j3d_anim_checks::j3d_anim) > 0);
}

#[test]
fn bbmodel_regressions() {
    assert!(replay("bbmodel", checks::bbmodel) > 0);
}

#[test]
fn png_regressions() {
    assert!(replay("png", checks::png) > 0);
}

#[test]
fn json_differential_regressions() {
    assert!(replay("json_differential", checks::json_differential) > 0);
}

#[test]
fn pose_regressions() {
    assert!(replay("pose", checks::pose) > 0);
}

#[test]
fn inflate_regressions() {
    assert!(replay("inflate", checks::inflate) > 0);
}

#[path = "../fuzz/rarc_checks.rs"]
mod rarc_checks;

#[path = "../fuzz/j3d_anim_checks.rs"]
mod j3d_anim_checks;
extern crate alloc;

#[test]
fn rarc_regressions() {
    assert!(replay("rarc", rarc_checks::rarc) > 0);
}

#[path = "../fuzz/molang_checks.rs"]
mod molang_checks;

#[test]
fn molang_regressions() {
    assert!(replay("molang", molang_checks::molang) > 0);
}
