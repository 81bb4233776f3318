//! Warnings as the CLI prints them (issue 35): grouped, one line per group
//! in `inspect` and `convert --verbose`, a count of groups otherwise, and in
//! every `--json` object as `{code, subject, count, at, message}`.

mod support;

use std::process::Command;
use support::bbmodel_builder::{Model, Texture};

fn scenedec(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_scenedec"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

/// A model with two warning groups: a texture with no image, and one with
/// an unknown render_mode.
fn model(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "scenedec-cli-warnings-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = Model::free()
        .texture(Texture::named("linked"))
        .texture(Texture::png("odd", 16, 16).set("render_mode", "sparkle"))
        .bytes();
    let path = dir.join("m.bbmodel");
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn inspect_prints_groups_and_json_carries_them() {
    let path = model("inspect");
    let file = path.to_str().unwrap();
    let (code, out) = scenedec(&["inspect", file]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("warning MISSING_TEXTURE on texture \"linked\" (at $.textures[0]): no embedded image and no picked file \"linked\""),
        "{out}"
    );
    assert!(
        out.contains("unknown render_mode \"sparkle\": default used"),
        "{out}"
    );
    let (code, out) = scenedec(&["inspect", "--json", file]);
    assert_eq!(code, 0, "{out}");
    let o: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let groups = o["warnings"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "{o}");
    let first = &groups[0];
    assert_eq!(first["code"], "MISSING_TEXTURE");
    assert_eq!(first["subject"], "texture \"linked\"");
    assert_eq!(first["count"], 1);
    assert_eq!(first["at"], "$.textures[0]");
    assert_eq!(o["warnings_not_kept"], 0);
}

#[test]
fn convert_counts_groups_and_prints_them_with_verbose() {
    let path = model("convert");
    let dir = path.parent().unwrap();
    let glb = dir.join("m.glb");
    let (file, out) = (path.to_str().unwrap(), glb.to_str().unwrap());
    let (code, quiet) = scenedec(&["convert", file, "-o", out]);
    assert_eq!(code, 0, "{quiet}");
    assert!(
        quiet.contains("2 warning groups (--verbose prints them)"),
        "{quiet}"
    );
    assert!(!quiet.contains("warning MISSING_TEXTURE"), "{quiet}");
    let (code, verbose) = scenedec(&["convert", "--force", "--verbose", file, "-o", out]);
    assert_eq!(code, 0, "{verbose}");
    assert!(
        verbose.contains("\n  warning MISSING_TEXTURE on texture \"linked\""),
        "{verbose}"
    );
    let (code, json) = scenedec(&["convert", "--force", "--json", file, "-o", out]);
    assert_eq!(code, 0, "{json}");
    let o: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(o["warnings"], 2);
    assert_eq!(o["warning_groups"].as_array().unwrap().len(), 2, "{o}");
    assert_eq!(o["warning_groups"][1]["code"], "UNSUPPORTED_VALUE");
    assert_eq!(o["warning_groups_not_kept"], 0);
}
