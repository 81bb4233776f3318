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

/// Uuids as Blockbench writes them (animators name their group by uuid).
const BODY: &str = "0b0d7a2e-5c1f-4e0a-9d3b-7f1e2a3b4c5d";
const ARM: &str = "9f0e2d4c-1a2b-4c3d-8e4f-5a6b7c8d9e0f";

/// Groups `body` (origin 0) and under it `arm` (origin 0, 8, 0); one clip,
/// "wave", looping over 2 s, turns `arm` from 0 to 90° about z by 1 s.
fn waving_arm() -> Vec<u8> {
    let tree = [Tree::Group(
        Group::new("body", BODY),
        vec![Tree::Group(
            Group::new("arm", ARM).origin([0.0, 8.0, 0.0]),
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
            ARM: {
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
fn pose_json_prints_one_object_with_every_node_world_matrix_in_scene_order() {
    let dir = scratch("json");
    let file = dir.join("arm.bbmodel");
    std::fs::write(&file, waving_arm()).unwrap();
    let (code, out, err) = scenedec(&[
        "pose",
        file.to_str().unwrap(),
        "--animation",
        "0",
        "--time",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    let o: serde_json::Value = serde_json::from_str(&out).unwrap();
    let keys: Vec<_> = o.as_object().unwrap().keys().cloned().collect();
    let mut expected = ["file", "animation", "name", "time", "nodes"].map(String::from);
    expected.sort();
    let mut keys_sorted = keys.clone();
    keys_sorted.sort();
    assert_eq!(keys_sorted, expected);
    assert_eq!(o["file"], file.to_str().unwrap());
    assert_eq!(o["animation"], 0);
    assert_eq!(o["name"], "wave");
    assert_eq!(o["time"], 1.0);
    let nodes = o["nodes"].as_array().unwrap();
    let names: Vec<_> = nodes.iter().map(|n| n["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["body", "arm"]);
    let world = |i: usize| -> Vec<f64> {
        let m = nodes[i]["world"].as_array().unwrap();
        assert_eq!(m.len(), 16);
        m.iter().map(|v| v.as_f64().unwrap()).collect()
    };
    let apply = |m: &[f64], p: [f64; 3]| -> [f64; 3] {
        [0, 1, 2].map(|r| m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r])
    };
    let close = |a: [f64; 3], b: [f64; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5);
    // body is not animated: the identity.
    assert!(close(apply(&world(0), [1.0, 2.0, 3.0]), [1.0, 2.0, 3.0]));
    // arm at 1 s: 90° about z through its origin (0, 8, 0). The origin stays;
    // (1, 8, 0), one along +x from it, goes one along +y: (0, 9, 0).
    let arm = world(1);
    assert!(
        close(apply(&arm, [0.0, 8.0, 0.0]), [0.0, 8.0, 0.0]),
        "{arm:?}"
    );
    assert!(
        close(apply(&arm, [1.0, 8.0, 0.0]), [0.0, 9.0, 0.0]),
        "{arm:?}"
    );
    // Column-major: the bottom row is 0, 0, 0, 1.
    assert_eq!([arm[3], arm[7], arm[11], arm[15]], [0.0, 0.0, 0.0, 1.0]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pose_without_json_prints_a_row_per_node() {
    let dir = scratch("table");
    let file = dir.join("arm.bbmodel");
    std::fs::write(&file, waving_arm()).unwrap();
    let (code, out, err) = scenedec(&["pose", file.to_str().unwrap(), "--time", "0.5"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"wave\""), "{out}");
    // Heading, column titles, then body and arm (45° about z at 0.5 s).
    let rows: Vec<_> = out.lines().skip(2).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(rows[0].starts_with("body"), "{out}");
    assert!(
        rows[1].starts_with("arm") && rows[1].contains("45.000"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
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
    assert!(err.contains("has no animations"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--animation` takes a clip's name as well as its index (all digits is
/// an index; `name:` makes anything a name); an unknown name lists the
/// clips (src/bin/scenedec/pose.rs, `choose`).
#[test]
fn an_animation_is_picked_by_name_and_an_unknown_name_lists_the_clips() {
    let dir = scratch("by-name");
    let file = dir.join("arm.bbmodel");
    std::fs::write(&file, waving_arm()).unwrap();
    let path = file.to_str().unwrap();
    let run = |a: &str| scenedec(&["pose", path, "--animation", a, "--time", "1", "--json"]);
    let (code, by_index, err) = run("0");
    assert_eq!(code, 0, "{err}");
    for name in ["wave", "WAVE", "name:wave"] {
        let (code, by_name, err) = run(name);
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(by_name, by_index, "{name}");
    }
    let (code, out, err) = run("wav");
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("--animation \"wav\": no animation of that name;")
            && err.contains("0 \"wave\""),
        "{err}"
    );
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
    // One wording for a file that is no model (tests/cli_messages.rs).
    assert!(
        err.contains("not a model:") && err.contains("(empty file)"),
        "{err}"
    );
    let missing = dir.join("missing.bmd");
    let (code, _, _) = scenedec(&["pose", missing.to_str().unwrap(), "--time", "0"]);
    assert_eq!(code, 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The local pose beside the world matrix (issue 38, item 4: the same
/// `translation`, `rotation` [x, y, z, w] and `scale` keys as J3D joints):
/// the arm at 1 s is turned 90° about z, a unit quaternion (0, 0, sin 45°,
/// cos 45°); its rest translation and scale are unchanged.
#[test]
fn pose_json_prints_each_nodes_local_translation_rotation_and_scale() {
    let dir = scratch("local");
    let file = dir.join("arm.bbmodel");
    std::fs::write(&file, waving_arm()).unwrap();
    let (code, out, err) = scenedec(&["pose", file.to_str().unwrap(), "--time", "1", "--json"]);
    assert_eq!(code, 0, "{err}");
    let o: serde_json::Value = serde_json::from_str(&out).unwrap();
    let arm = &o["nodes"][1];
    let numbers = |key: &str| -> Vec<f64> {
        arm[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    };
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let q = numbers("rotation");
    assert_eq!(q.len(), 4);
    for (got, want) in q.iter().zip([0.0, 0.0, h, h]) {
        assert!((got - want).abs() < 1e-6, "{q:?}");
    }
    assert_eq!(numbers("scale"), [1.0, 1.0, 1.0]);
    assert_eq!(numbers("translation").len(), 3);
    assert_eq!(o["nodes"][0]["rotation"], serde_json::json!([0, 0, 0, 1]));
    // A .bbmodel clip counts seconds: --frame is refused with a reason.
    let (code, _, err) = scenedec(&["pose", file.to_str().unwrap(), "--frame", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a J3D clip"), "{err}");
}
