//! `scenedec pose` as a user runs it: the `--json` schema (one object; file,
//! animation, name, time, and per node its name and column-major world
//! matrix in scene order) and the exit codes (0 printed, 1 the file did not
//! load, 2 a bad N or T).

mod support;

use std::path::PathBuf;
use std::process::Command;

use serde_json::json;
use support::bbmodel_builder::{Group, Model, Tree, tree_4x};

fn scenedec(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_scenedec"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A folder of its own for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("scenedec-pose-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Groups `body` (origin 0) and under it `arm` (origin 0, 8, 0); one clip,
/// "wave", looping over 2 s, turns `arm` from 0 to 90° about z by 1 s.
fn waving_arm() -> Vec<u8> {
    let tree = [Tree::Group(
        Group::new("body", "b0"),
        vec![Tree::Group(
            Group::new("arm", "a0").origin([0.0, 8.0, 0.0]),
            vec![],
        )],
    )];
    let keyframe = |time: f64, z: f64| {
        json!({
            "channel": "rotation",
            "data_points": [{"x": 0, "y": 0, "z": z}],
            "time": time,
            "interpolation": "linear",
            "uuid": format!("k{time}"),
        })
    };
    let animation = json!({
        "uuid": "w0",
        "name": "wave",
        "loop": "loop",
        "length": 2,
        "animators": {
            "a0": {
                "name": "arm",
                "type": "bone",
                "keyframes": [keyframe(0.0, 0.0), keyframe(1.0, 90.0)],
            }
        }
    });
    Model::new("4.10")
        .model_format("free")
        .outliner(tree_4x(&tree))
        .set("animations", json!([animation]))
        .bytes()
}

#[test]
fn a_bad_animation_index_is_a_usage_error() {
    let dir = scratch("bad-n");
    let file = dir.join("arm.bbmodel");
    std::fs::write(&file, waving_arm()).unwrap();
    let path = file.to_str().unwrap();
    for n in ["1", "-1", "one", "0.5", ""] {
        let (code, out, err) = scenedec(&["pose", path, "--animation", n, "--time", "0"]);
        assert_eq!(code, 2, "--animation {n:?}: {err}");
        assert!(out.is_empty());
        assert!(err.contains("--animation"), "{err}");
    }
    // The bundled cube has no animation at all.
    let (code, _, err) = scenedec(&["pose", "samples/cube.bbmodel", "--time", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("0 animations"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_time_is_a_usage_error() {
    for t in ["-1", "nan", "inf", "-inf", "1e40", "later", ""] {
        let (code, out, err) = scenedec(&["pose", "samples/cube.bbmodel", "--time", t]);
        assert_eq!(code, 2, "--time {t:?}: {err}");
        assert!(out.is_empty());
        assert!(err.contains("--time"), "{err}");
    }
    let (code, _, _) = scenedec(&["pose", "samples/cube.bbmodel"]);
    assert_eq!(code, 2, "--time is required");
}

#[test]
fn a_file_that_does_not_load_exits_1() {
    let dir = scratch("bad-file");
    let empty = dir.join("empty.bbmodel");
    std::fs::write(&empty, b"").unwrap();
    let (code, out, err) = scenedec(&["pose", empty.to_str().unwrap(), "--time", "0", "--json"]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("NOT_JSON"), "{err}");
    let missing = dir.join("missing.bmd");
    let (code, _, _) = scenedec(&["pose", missing.to_str().unwrap(), "--time", "0"]);
    assert_eq!(code, 1);
    std::fs::remove_dir_all(&dir).unwrap();
}
