//! Every float of every `--json` output is the shortest decimal that reads
//! back to the same f32 (`0.8`, not `0.800000011920929`): the model's
//! numbers are f32, and widening one to f64 before printing shows the
//! widening's noise (src/bin/scenedec/json_out.rs, `number32`). The
//! outputs with floats are inspect's, pose's and convert's; textures',
//! an archive listing's and the limit report's hold integers only.

mod support;

use support::run_scenedec as scenedec;

/// A cube from (0.1, 0.2, 0.3) to (0.8, 1.7, 2.9) and a 0.8 s clip that
/// moves its group by (0.1, 0.7, 0) at 0.3 s: none of them an f32 exactly.
const FLOATS: &str = r#"{
  "meta": {"format_version": "4.10", "model_format": "free", "box_uv": false},
  "name": "floats",
  "resolution": {"width": 16, "height": 16},
  "elements": [
    {"name": "cube", "type": "cube", "uuid": "5f0c6a2e-0000-4000-8000-000000000001",
     "from": [0.1, 0.2, 0.3], "to": [0.8, 1.7, 2.9], "origin": [0, 0, 0],
     "faces": {
       "north": {"uv": [0, 0, 8, 8]}, "east": {"uv": [0, 0, 8, 8]},
       "south": {"uv": [0, 0, 8, 8]}, "west": {"uv": [0, 0, 8, 8]},
       "up": {"uv": [8, 8, 0, 0]}, "down": {"uv": [8, 0, 0, 8]}
     }}
  ],
  "outliner": [
    {"name": "body", "uuid": "5f0c6a2e-0000-4000-8000-000000000002", "origin": [0, 0, 0],
     "rotation": [0, 0, 0], "children": ["5f0c6a2e-0000-4000-8000-000000000001"]}
  ],
  "animations": [{"uuid": "a0", "name": "wave", "loop": "loop", "length": 0.8, "animators": {
     "5f0c6a2e-0000-4000-8000-000000000002": {"name": "body", "type": "bone", "keyframes": [
       {"channel": "position", "data_points": [{"x": 0.1, "y": 0.7, "z": 0}], "time": 0.3,
        "interpolation": "linear", "uuid": "k1"}]}}}],
  "textures": []
}"#;

/// The number tokens of a JSON text, as written (outside strings).
fn numbers(text: &str) -> Vec<&str> {
    let (mut out, mut in_string, mut escaped, mut start) = (Vec::new(), false, false, None);
    for (i, c) in text.char_indices() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        let part = c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E');
        match (start, part) {
            // A number starts with a digit or '-' (`true`, `false` hold an 'e').
            (None, true) if c.is_ascii_digit() || c == '-' => start = Some(i),
            (None, _) => {}
            (Some(s), false) => {
                out.push(&text[s..i]);
                start = None;
            }
            _ => {}
        }
        in_string = c == '"';
    }
    out
}

/// Each float token is what Rust's shortest f32 form prints for it.
fn assert_shortest_f32(what: &str, text: &str) {
    let mut floats = 0;
    for n in numbers(text) {
        if n.contains(['.', 'e', 'E']) {
            let x: f32 = n.parse().unwrap_or_else(|e| panic!("{what}: {n}: {e}"));
            assert_eq!(format!("{x}"), n, "{what}: not the shortest f32 form");
            floats += 1;
        }
    }
    assert!(floats > 0, "{what}: no float to check in {text}");
}

#[test]
fn inspect_pose_and_convert_print_f32_values_in_their_shortest_form() {
    let dir = std::env::temp_dir().join(format!("scenedec-floats-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("floats.bbmodel");
    std::fs::write(&model, FLOATS).unwrap();
    let path = model.to_str().unwrap();

    let (code, inspect, err) = scenedec(&["inspect", "--json", path]);
    assert_eq!(code, 0, "{err}");
    assert_shortest_f32("inspect", &inspect);
    let v: serde_json::Value = serde_json::from_str(&inspect).unwrap();
    assert!(
        inspect.contains("\"bbox\": [[0.1, 0.2, 0.3], [0.8, 1.7, 2.9]]"),
        "{inspect}"
    );
    assert_eq!(v["animations"][0]["length"].to_string(), "0.8");

    let (code, pose, err) = scenedec(&["pose", path, "--time", "0.3", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_shortest_f32("pose", &pose);
    assert!(pose.contains("\"time\": 0.3,"), "{pose}");
    assert!(pose.contains(", 0.7, 0, 1]"), "the translation's y: {pose}");

    let out = dir.join("floats.glb");
    let (code, convert, err) = scenedec(&["convert", "--json", path, "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // Its one float, "ms", is measured: only its form can be checked.
    assert_shortest_f32("convert", &convert);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_number_scanner_sees_numbers_outside_strings_only() {
    assert_eq!(
        numbers(r#"{"a1.5": [0.8, -1e-7, 3], "b": "2.0\"4.5", "c": true}"#),
        ["0.8", "-1e-7", "3"]
    );
}
