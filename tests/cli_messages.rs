//! How the commands word a file they cannot load (src/bin/scenedec/failure.rs):
//! one style for inputs that are no model, `not a model: FILE (WHY)`, the
//! same from every command; file bytes shown as hex, never Rust escapes;
//! an archive names a member the way `ARCHIVE:member/path` takes it; a
//! JSON syntax error gives its line and column beside the byte offset.

mod support;

#[path = "support/rarc_writer.rs"]
mod rarc_writer;

use std::path::PathBuf;

use support::run_scenedec as scenedec;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("scenedec-msg-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What a command says about a file that fails: stdout for inspect and
/// convert, stderr for textures and pose.
fn said(command: &str, file: &str, dir: &std::path::Path) -> String {
    let out = dir.join("out").to_string_lossy().into_owned();
    let glb = dir.join("out.glb").to_string_lossy().into_owned();
    let args: Vec<&str> = match command {
        "inspect" => vec!["inspect", file],
        "convert" => vec!["convert", file, "-o", &glb],
        "textures" => vec!["textures", file, "-o", &out],
        _ => vec!["pose", file, "--time", "0"],
    };
    let (code, stdout, stderr) = scenedec(&args);
    assert_eq!(code, 1, "{command} {file}: {stdout}{stderr}");
    format!("{stdout}{stderr}")
}

#[test]
fn empty_unknown_and_folder_inputs_say_not_a_model_the_same_way_everywhere() {
    let dir = temp_dir("style");
    let empty_bmd = dir.join("empty.bmd");
    std::fs::write(&empty_bmd, b"").unwrap();
    let empty_bbmodel = dir.join("empty.bbmodel");
    std::fs::write(&empty_bbmodel, b"").unwrap();
    let unknown = dir.join("junk.bmd");
    std::fs::write(&unknown, b"\x00\"\n\\abcdefgh").unwrap();
    let folder = dir.join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let cases = [
        (&empty_bmd, "(empty file)"),
        (&empty_bbmodel, "(empty file)"),
        (
            &unknown,
            "(unknown format; starts 00 22 0a 5c 61 62 63 64 …)",
        ),
        (&folder, "(a folder"),
    ];
    for command in ["inspect", "convert", "textures", "pose"] {
        for (file, why) in &cases {
            if matches!(command, "convert" | "textures") && file == &&folder {
                continue; // they take folders (tests/convert_cli.rs, tests/cli.rs)
            }
            let name = file.to_str().unwrap();
            let text = said(command, name, &dir);
            assert!(
                text.contains(&format!("not a model: {name} {why}")),
                "{command} {name}: {text}"
            );
            assert!(!text.contains("\\u{"), "a Rust escape: {text}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_archive_given_as_a_model_says_how_to_name_a_member() {
    use rarc_writer::{dir as rdir, file, root, write};
    let dir = temp_dir("archive");
    let model = support::samples::pyramid_bmd();
    let archive = write(
        &root(
            "stage",
            vec![rdir("bmd", vec![file("pyramid.bmd", &model)])],
        ),
        false,
    );
    let path = dir.join("stage.arc");
    std::fs::write(&path, &archive.bytes).unwrap();
    let name = path.to_str().unwrap();
    // (convert and textures take archives: they stand for their models.)
    let text = said("pose", name, &dir);
    assert!(
        text.contains(&format!(
            "not a model: {name} (a RARC archive with 1 model: name one as {name}:stage/bmd/pyramid.bmd"
        )),
        "{text}"
    );
    // ... and the name it suggests is one the commands take.
    let (code, stdout, stderr) = scenedec(&["inspect", &format!("{name}:stage/bmd/pyramid.bmd")]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_json_syntax_error_gives_line_and_column_beside_the_byte_offset() {
    let dir = temp_dir("json");
    let file = dir.join("bad.bbmodel");
    // The second comma of `[1,,2]` is byte 0x39 = 57: line 3, column 18.
    std::fs::write(
        &file,
        "{\n  \"meta\": {\"format_version\": \"4.10\"},\n  \"elements\": [1,,2]\n}",
    )
    .unwrap();
    let name = file.to_str().unwrap();
    let (code, stdout, _) = scenedec(&["inspect", name]);
    assert_eq!(code, 1);
    assert!(stdout.contains("(line 3, column 18)"), "{stdout}");
    assert!(stdout.contains("(at 0x39)"), "{stdout}");
    let (_, stdout, _) = scenedec(&["inspect", "--json", name]);
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(v["error"]["code"], "NOT_JSON");
    assert_eq!(v["error"]["at"], "0x39");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .ends_with("(line 3, column 18)"),
        "{v}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn names_in_messages_are_quoted_as_json_quotes_them_not_as_rust_debug() {
    // Rust's `{:?}` would print the tab as \t too, but é inside a
    // combining sequence and controls as \u{1}: JSON quoting keeps é as is.
    let (code, _, stderr) = scenedec(&["inspect", "--limit", "maxBé\u{1}=3"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("unknown limit \"maxBé\\u0001\""),
        "{stderr}"
    );
}

/// Spec (Local-first, listBbmodelReferences): "relative_path is relative
/// to the model's directory". The command line looks there first, then for
/// the base name in the folders it searches, then for the texture's name
/// (the loader matches a file by relative_path, path or name).
#[test]
fn a_textures_relative_path_is_followed_before_its_name_is_searched() {
    use support::bbmodel_builder::{Model, Texture, png};
    let dir = temp_dir("relative");
    std::fs::create_dir_all(dir.join("tex")).unwrap();
    // The file the path names, and a decoy of the same name beside the model.
    std::fs::write(dir.join("tex/skin.png"), png(32, 16)).unwrap();
    std::fs::write(dir.join("skin.png"), png(8, 8)).unwrap();
    // A path that leads nowhere, for a texture whose name is beside the model.
    std::fs::write(dir.join("cape.png"), png(4, 2)).unwrap();
    let model = dir.join("m.bbmodel");
    let bytes = Model::free()
        .texture(Texture::named("skin").set("relative_path", "tex/skin.png"))
        .texture(Texture::named("cape.png").set("relative_path", "gone/other.png"))
        .bytes();
    std::fs::write(&model, bytes).unwrap();
    let (code, stdout, stderr) = scenedec(&["inspect", "--json", model.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    let textures = v["textures"].as_array().unwrap();
    let sizes: Vec<(u64, u64)> = textures
        .iter()
        .map(|t| (t["width"].as_u64().unwrap(), t["height"].as_u64().unwrap()))
        .collect();
    assert_eq!(sizes, [(32, 16), (4, 2)], "{stdout}");
    assert!(stderr.is_empty(), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
