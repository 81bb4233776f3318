//! The `scenedec` command as a user runs it: the `inspect` contract of
//! design.md (one JSON object per file and line, every schema key present,
//! nothing invented) and its exit codes (0 all loaded, 1 any failed, 2 usage).

use std::process::Command;

fn scenedec(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_scenedec"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

const KEYS: [&str; 13] = [
    "file",
    "format",
    "ok",
    "error",
    "nodes",
    "meshes",
    "vertices",
    "triangles",
    "materials",
    "textures",
    "animations",
    "warnings",
    "bbox",
];

fn lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn inspect_without_files_reads_the_bundled_samples_and_exits_0() {
    let (code, out) = scenedec(&["inspect"]);
    assert_eq!(code, 0, "{out}");
    for sample in [
        "samples/cube.bbmodel",
        "samples/pyramid.bmd",
        "samples/pyramid.bmd.szs",
    ] {
        assert!(out.contains(sample), "{out}");
    }
}

#[test]
fn inspect_json_prints_one_object_per_file_with_every_schema_key() {
    let (code, out) = scenedec(&["inspect", "--json"]);
    assert_eq!(code, 0);
    let objects = lines(&out);
    assert_eq!(objects.len(), 3);
    for o in &objects {
        for key in KEYS {
            assert!(o.get(key).is_some(), "{key} missing in {o}");
        }
        assert_eq!(o["ok"], true);
        assert!(o["error"].is_null());
    }
    let pyramid = &objects[1];
    assert_eq!(pyramid["format"], "j3d");
    assert_eq!(pyramid["triangles"], 6);
    assert_eq!(pyramid["nodes"][1]["name"], "tip");
    assert_eq!(pyramid["nodes"][1]["parent"], 0);
    assert_eq!(pyramid["j3d"]["sections"][0], "INF1");
    assert_eq!(pyramid["j3d"]["primitives"]["triangle_fan"], 1);
    assert_eq!(pyramid["j3d"]["primitives"]["quads"], 1);
    // The Yaz0-wrapped sample reads the same as the raw one.
    assert_eq!(objects[2]["triangles"], pyramid["triangles"]);
    assert_eq!(objects[2]["bbox"], pyramid["bbox"]);
    let cube = &objects[0];
    assert_eq!(cube["format"], "bbmodel");
    assert_eq!(cube["meshes"], 1);
    assert_eq!(cube["triangles"], 12);
    assert_eq!(cube["nodes"][0]["name"], "body");
}

#[test]
fn a_file_that_fails_exits_1_with_its_error_and_empty_parts() {
    let dir = std::env::temp_dir().join(format!("scenedec-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.bbmodel");
    std::fs::write(&empty, b"").unwrap();
    let minecraft = dir.join("model.bmd");
    std::fs::write(&minecraft, b"\x01\x00\x00\x00minecraft:geometry").unwrap();
    let (code, out) = scenedec(&[
        "inspect",
        "--json",
        "samples/cube.bbmodel",
        empty.to_str().unwrap(),
        minecraft.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}");
    let objects = lines(&out);
    assert_eq!(objects.len(), 3, "every file reported, the good one too");
    assert_eq!(objects[0]["ok"], true);
    assert_eq!(objects[1]["ok"], false);
    assert_eq!(objects[1]["error"]["code"], "NOT_JSON");
    assert_eq!(objects[1]["format"], "bbmodel");
    assert_eq!(objects[2]["error"]["code"], "UNKNOWN_FORMAT");
    for o in &objects[1..] {
        for key in KEYS {
            assert!(o.get(key).is_some(), "{key} missing in {o}");
        }
        assert_eq!(o["triangles"], 0);
        assert!(o["nodes"].as_array().unwrap().is_empty());
    }
    let (code, _) = scenedec(&["inspect", dir.join("missing.bmd").to_str().unwrap()]);
    assert_eq!(code, 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(scenedec(&["inspect", "--no-such-flag"]).0, 2);
    assert_eq!(scenedec(&["no-such-command"]).0, 2);
    assert_eq!(scenedec(&[]).0, 2);
}
