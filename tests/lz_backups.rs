//! Blockbench `<lz>` backups of corpus files, made by the lzutf8 library
//! itself (tools/lz-backup: `"<lz>" + LZUTF8.compress(text, {outputEncoding:
//! "StorageBinaryString"})`, as Blockbench's `Codecs.project.compile` with
//! `compressed` writes them), load to the very scene their plain file does.

use std::path::{Path, PathBuf};
use std::process::Command;

use zerocopy::IntoBytes;

mod support;

/// Runs tools/lz-backup on `files`, writing into `out`; `None` (after
/// saying why, or failing under CI) when node or the tool's packages are
/// missing.
#[track_caller]
fn backups(out: &Path, files: &[PathBuf]) -> Option<Vec<PathBuf>> {
    let tool = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/lz-backup");
    let ready = tool.join("node_modules/lzutf8").is_dir()
        && Command::new("node").arg("--version").output().is_ok();
    if !ready {
        let ci = std::env::var("CI").is_ok_and(|v| !matches!(v.as_str(), "" | "0" | "false"));
        assert!(
            !ci,
            "CI is set but node or tools/lz-backup/node_modules is missing (npm ci there)"
        );
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "node or tools/lz-backup/node_modules absent (run `npm ci` in tools/lz-backup): the <lz> corpus check at {} was skipped",
            std::panic::Location::caller()
        );
        return None;
    }
    std::fs::create_dir_all(out).unwrap();
    let run = Command::new("node")
        .arg(tool.join("backup.mjs"))
        .arg(out)
        .args(files)
        .output()
        .expect("node runs");
    assert!(
        run.status.success(),
        "backup.mjs failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    Some(
        String::from_utf8(run.stdout)
            .unwrap()
            .lines()
            .map(PathBuf::from)
            .collect(),
    )
}

fn temp_dir(tag: &str) -> PathBuf {
    std::env::temp_dir().join(format!("scenedec-lz-{tag}-{}", std::process::id()))
}

/// Every array of the scene, as bytes, with its name.
fn arrays(scene: &scenedec::Scene<'_>) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("nodes", scene.nodes().as_bytes().to_vec()),
        ("meshes", scene.meshes().as_bytes().to_vec()),
        ("groups", scene.groups().as_bytes().to_vec()),
        ("positions", scene.positions().as_bytes().to_vec()),
        ("normals", scene.normals().as_bytes().to_vec()),
        ("uvs", scene.uvs().as_bytes().to_vec()),
        ("colors", scene.colors().as_bytes().to_vec()),
        ("indices", scene.indices().as_bytes().to_vec()),
        ("uv_rects", scene.uv_rects().as_bytes().to_vec()),
        ("materials", scene.materials().as_bytes().to_vec()),
        ("textures", scene.textures().as_bytes().to_vec()),
        ("mips", scene.mips().as_bytes().to_vec()),
        ("frame_steps", scene.frame_steps().as_bytes().to_vec()),
        ("animations", scene.animations().as_bytes().to_vec()),
        ("channels", scene.channels().as_bytes().to_vec()),
        ("keyframes", scene.keyframes().as_bytes().to_vec()),
        ("skins", scene.skins().as_bytes().to_vec()),
        ("skin_joints", scene.skin_joints().as_bytes().to_vec()),
        ("inverse_binds", scene.inverse_binds().as_bytes().to_vec()),
        (
            "influence_spans",
            scene.influence_spans().as_bytes().to_vec(),
        ),
        ("influences", scene.influences().as_bytes().to_vec()),
        ("pixels", scene.pixels().as_bytes().to_vec()),
        ("text_pool", scene.text_pool().as_bytes().to_vec()),
    ]
}

/// Loads `plain` and `backup` and asserts their scenes are equal, byte for
/// byte (names are spans of the JSON, which is the same text).
fn assert_same_scene(plain: &[u8], backup: &[u8], options: &scenedec::Options<'_>, what: &str) {
    let a = scenedec::load(plain, Some("bbmodel"), options)
        .unwrap_or_else(|e| panic!("{what}: plain file: {e}"));
    let b = scenedec::load(backup, Some("bbmodel"), options)
        .unwrap_or_else(|e| panic!("{what}: <lz> backup: {e}"));
    let (a, b) = (a.scene(), b.scene());
    assert_eq!(a.counts(), b.counts(), "{what}: counts");
    for ((name, x), (_, y)) in arrays(&a).into_iter().zip(arrays(&b)) {
        assert!(x == y, "{what}: the {name} arrays differ");
    }
    assert_eq!(a.input(), b.input(), "{what}: the JSON text");
}

#[test]
fn corpus_backups_load_to_the_plain_files_scene() {
    let mut files = support::corpus_files("bbmodel", &[".bbmodel"]);
    if files.is_empty() {
        return;
    }
    files.sort_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0));
    // A range by size: the smallest, every fourth, the largest, and every
    // file with non-ASCII text (multi-byte UTF-8 is where literals and
    // pointers are told apart by the byte after a lead byte).
    let mut picked: Vec<PathBuf> = files.iter().step_by(4).cloned().collect();
    picked.push(files.last().unwrap().clone());
    for f in &files {
        let text = std::fs::read(f).unwrap();
        if !text.is_ascii() && !picked.contains(f) {
            picked.push(f.clone());
        }
    }
    let out = temp_dir("corpus");
    let Some(made) = backups(&out, &picked) else {
        return;
    };
    assert_eq!(made.len(), picked.len());
    let mut non_ascii = 0;
    for (plain_path, backup_path) in picked.iter().zip(&made) {
        let name = plain_path.file_name().unwrap().to_str().unwrap();
        let plain = std::fs::read(plain_path).unwrap();
        let backup = std::fs::read(backup_path).unwrap();
        assert!(backup.starts_with(b"<lz>"), "{name}");
        non_ascii += usize::from(!plain.is_ascii());
        let options = support::corpus_options(name);
        if plain.is_empty() {
            // lzutf8 packs no text as no units at all (no end marker);
            // Blockbench then fails to parse "", and scenedec refuses it.
            assert!(
                scenedec::unwrapped_len(&backup, &options).is_err(),
                "{name}"
            );
            continue;
        }
        // The walk counts exactly the plain file's bytes.
        assert_eq!(
            scenedec::unwrapped_len(&backup, &options).unwrap(),
            plain.len(),
            "{name}"
        );
        assert_same_scene(&plain, &backup, &options, name);
    }
    assert!(
        non_ascii > 0,
        "no corpus file with non-ASCII text was compressed"
    );
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn a_bom_is_skipped_in_a_plain_file_and_inside_a_backup() {
    // autoParseJSON: "if (data.charCodeAt(0) === 0xFEFF) data = data.substr(1)",
    // after decompressing `<lz>` data, so in both kinds of file.
    let files = support::corpus_files("bbmodel", &[".bbmodel"]);
    // The smallest corpus file that loads (the corpus keeps broken ones too).
    let options = scenedec::Options::default();
    let Some(small) = files
        .iter()
        .filter(|p| {
            let bytes = std::fs::read(p).unwrap();
            scenedec::load(&bytes, Some("bbmodel"), &options).is_ok()
        })
        .min_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
    else {
        return;
    };
    let plain = std::fs::read(small).unwrap();
    let mut with_bom = b"\xEF\xBB\xBF".to_vec();
    with_bom.extend_from_slice(&plain);
    let out = temp_dir("bom");
    std::fs::create_dir_all(&out).unwrap();
    let bom_file = out.join("bom.bbmodel");
    std::fs::write(&bom_file, &with_bom).unwrap();
    let a = scenedec::load(&plain, Some("bbmodel"), &options).unwrap();
    let b = scenedec::load(&with_bom, Some("bbmodel"), &options).unwrap();
    assert_eq!(a.scene().counts(), b.scene().counts());
    let Some(made) = backups(&out.join("lz"), &[bom_file]) else {
        return;
    };
    let backup = std::fs::read(&made[0]).unwrap();
    // The BOM was compressed with the text: it comes back first.
    let len = scenedec::unwrapped_len(&backup, &options).unwrap();
    let mut json = vec![0u8; len];
    scenedec::lzutf8::decompress_into(&backup, &mut json).unwrap();
    assert!(json.starts_with(b"\xEF\xBB\xBF{"));
    let c = scenedec::load(&backup, None, &options).unwrap();
    assert_eq!(a.scene().counts(), c.scene().counts());
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn max_decompressed_bytes_holds_at_its_value_and_fails_one_past() {
    let json =
        br#"{"meta":{"format_version":"4.5","model_format":"free"},"elements":[],"outliner":[]}"#;
    // A stream of literals only (bytes below 0xC0 are literals).
    let backup = scenedec::lzutf8::pack(json);
    let mut options = scenedec::Options::default();
    options.bbmodel.limits = options
        .bbmodel
        .limits
        .with_override("maxDecompressedBytes", json.len() as f64)
        .unwrap();
    let loaded = scenedec::load(&backup, None, &options).unwrap();
    assert_eq!(loaded.scene().input(), json);
    options.bbmodel.limits.max_decompressed_bytes = json.len() as u64 - 1;
    let e = scenedec::load(&backup, None, &options).unwrap_err();
    assert_eq!(e.code(), scenedec::ErrorCode::FileTooLarge);
    assert!(
        e.message().contains("maxDecompressedBytes"),
        "{}",
        e.message()
    );
}

#[test]
fn a_backup_of_no_json_is_not_json() {
    let options = scenedec::Options::default();
    for inner in [&b""[..], b"hello", b"<lz>\xE8\x80\x80"] {
        let backup = scenedec::lzutf8::pack(inner);
        let e = scenedec::load(&backup, None, &options).unwrap_err();
        assert_eq!(e.code(), scenedec::ErrorCode::NotJson, "{inner:?}");
    }
}

#[test]
fn unwrap_into_puts_the_json_in_caller_memory() {
    let json = br#"{"meta":{"format_version":"4.5","model_format":"free"},"elements":[]}"#;
    let backup = scenedec::lzutf8::pack(json);
    let options = scenedec::Options::default();
    let len = scenedec::unwrapped_len(&backup, &options).unwrap();
    assert_eq!(len, json.len());
    let mut memory = vec![0u8; len];
    let mut arena = scenedec::Arena::new(&mut memory);
    let model = scenedec::unwrap_into(&backup, &options, &mut arena).unwrap();
    assert_eq!(model, json);
    assert!(scenedec::measure(model, None, &options).is_ok());
}
