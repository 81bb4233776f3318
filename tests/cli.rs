//! The `scenedec` command as a user runs it: the `inspect` contract of
//! design.md (one JSON object per file and line, every schema key present,
//! nothing invented) and its exit codes (0 all loaded, 1 any failed, 2 usage).

mod support;

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

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("scenedec-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn convert_one_file_writes_a_glb_and_one_summary_line() {
    let dir = temp_dir("one");
    let out = dir.join("pyramid.glb");
    let (code, stdout) = scenedec(&[
        "convert",
        "samples/pyramid.bmd.szs",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(
        stdout.contains("pyramid.glb") && stdout.contains("triangles"),
        "{stdout}"
    );
    assert_eq!(&std::fs::read(&out).unwrap()[..4], b"glTF");
}

#[test]
fn convert_several_files_fills_a_folder_and_reports_json_lines() {
    let dir = temp_dir("batch");
    let (code, stdout) = scenedec(&[
        "convert",
        "--json",
        "--format",
        "gltf",
        "samples/cube.bbmodel",
        "samples/pyramid.bmd",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}");
    let objects = lines(&stdout);
    assert_eq!(objects.len(), 2);
    for o in &objects {
        assert_eq!(o["ok"], true, "{o}");
        assert!(o["triangles"].as_u64().unwrap() > 0, "{o}");
    }
    assert!(dir.join("cube.bbmodel.gltf").is_file());
    assert!(dir.join("pyramid.bmd.gltf").is_file());
    assert!(dir.join("pyramid.bmd.bin").is_file());
}

#[test]
fn convert_exits_1_when_a_file_fails_and_2_on_usage_errors() {
    let dir = temp_dir("fail");
    let missing = dir.join("missing.bmd");
    let (code, stdout) = scenedec(&[
        "convert",
        "samples/cube.bbmodel",
        missing.to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert!(stdout.contains("FAILED"), "{stdout}");
    let out = dir.join("x.obj");
    let (code, _) = scenedec(&[
        "convert",
        "samples/cube.bbmodel",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "an output that is neither .glb nor .gltf");
    // Without -o each goes beside its input: two bound for one file.
    let (code, _) = scenedec(&["convert", "samples/pyramid.bmd", "samples/pyramid.bmd"]);
    assert_eq!(code, 2, "two models bound for one output");
    let (code, _) = scenedec(&[
        "convert",
        "--limit",
        "maxBananas=3",
        "samples/cube.bbmodel",
        "-o",
        "x.glb",
    ]);
    assert_eq!(code, 2, "an unknown limit");
    let (code, _) = scenedec(&[
        "convert",
        "--scale",
        "0",
        "samples/cube.bbmodel",
        "-o",
        "x.glb",
    ]);
    assert_eq!(code, 2, "a zero scale");
}

#[test]
fn limit_overrides_apply_to_inspect_too() {
    let (code, stdout) = scenedec(&[
        "inspect",
        "--limit",
        "maxTriangles=1",
        "samples/cube.bbmodel",
    ]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("TOO_MANY_TRIANGLES"), "{stdout}");
    let (code, stdout) = scenedec(&[
        "inspect",
        "--limit",
        "maxTriangles=inf",
        "samples/cube.bbmodel",
    ]);
    assert_eq!(code, 0, "{stdout}");
}

#[test]
fn png_files_in_a_folder_named_after_the_model_are_offered_as_its_textures() {
    let model = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/bbmodel/create_wrench_java_block_v3_0_linked_textures.bbmodel");
    if !model.is_file() {
        eprintln!("SKIPPED: ../shared/corpus is absent; linked texture folder not tested");
        return;
    }
    let (code, stdout) = scenedec(&["inspect", "--json", model.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}");
    let objects = lines(&stdout);
    let found: Vec<&str> = objects[0]["textures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["missing"] == false)
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(found, ["brass_casing.png"]);
}

#[test]
fn inspect_lists_each_clip_with_name_length_loop_channels_and_keyframes() {
    let dir = temp_dir("inspect_clips");
    let model = dir.join("walk.bbmodel");
    let key = |t: f64| {
        format!(
            r#"{{"channel": "rotation", "time": {t}, "data_points": [{{"x": 10, "y": 0, "z": 0}}]}}"#
        )
    };
    let text = format!(
        r#"{{"meta": {{"format_version": "5.0", "model_format": "free"}}, "elements": [],
            "outliner": [{{"name": "leg", "uuid": "00000000-0000-4000-8000-000000000001", "children": []}}],
            "animations": [{{"name": "walk", "loop": "loop", "length": 1.5,
                "animators": {{"leg": {{"keyframes": [{}, {}]}}}}}}, {{"name": "idle"}}]}}"#,
        key(0.0),
        key(1.0)
    );
    std::fs::write(&model, text).unwrap();
    let path = model.to_str().unwrap();
    let (code, out) = scenedec(&["inspect", "--json", path]);
    assert_eq!(code, 0, "{out}");
    let o = &lines(&out)[0];
    assert_eq!(
        o["animations"],
        serde_json::json!([
            {"name": "walk", "length": 1.5, "loop": "loop", "channels": 1, "keyframes": 2},
            {"name": "idle", "length": 0, "loop": "once", "channels": 0, "keyframes": 0},
        ])
    );
    let (code, out) = scenedec(&["inspect", path]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("animation \"walk\": 1.500 s, loop"), "{out}");
    assert!(out.contains("animation \"idle\": 0.000 s, once"), "{out}");
}

/// A batch of three: every bundled sample.
const BATCH: [&str; 3] = [
    "samples/cube.bbmodel",
    "samples/pyramid.bmd",
    "samples/pyramid.bmd.szs",
];

/// Bytes only a progress bar draws: its glyphs or a terminal control sequence.
fn has_bar_bytes(text: &str) -> bool {
    text.contains('\u{2591}') || text.contains('\u{2588}') || text.contains('\x1b')
}

#[test]
fn convert_batch_piped_draws_no_bar_and_prints_one_line_per_file() {
    let dir = temp_dir("piped");
    let out = Command::new(env!("CARGO_BIN_EXE_scenedec"))
        .arg("convert")
        .args(BATCH)
        .args(["-o", dir.to_str().unwrap()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.is_empty(),
        "stderr is no terminal: no bar, got {stderr:?}"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), BATCH.len(), "{stdout}");
    for (line, file) in lines.iter().zip(BATCH) {
        assert!(line.starts_with(file) && line.contains(" ok, "), "{line}");
    }
}

#[test]
fn convert_batch_on_a_terminal_draws_the_bar_on_stderr_only() {
    // util-linux `script` gives the command a pseudo-terminal; stdout goes to
    // a file, so what `script` passes on is stderr alone.
    let has_script = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_script {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "`script` (util-linux) is absent: the progress bar on a terminal was not checked"
        );
        return;
    }
    let dir = temp_dir("tty");
    let stdout_file = dir.join("stdout.txt");
    let command = format!(
        "'{}' convert {} -o '{}' > '{}'",
        env!("CARGO_BIN_EXE_scenedec"),
        BATCH.join(" "),
        dir.display(),
        stdout_file.display()
    );
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let terminal = String::from_utf8_lossy(&out.stdout);
    assert!(
        has_bar_bytes(&terminal),
        "no bar on the terminal: {terminal:?}"
    );
    assert!(terminal.contains("0/3"), "{terminal:?}");
    // The summary lines went to stdout, one per file, without bar bytes.
    let stdout = std::fs::read_to_string(&stdout_file).unwrap();
    assert_eq!(stdout.lines().count(), BATCH.len(), "{stdout}");
    assert!(!has_bar_bytes(&stdout), "{stdout:?}");
}

/// `textures` writes a frame strip whole, every frame, as the file holds
/// it, and `--json` says how many frames it is (the glTF export writes
/// frame 0 alone, so this is where the other frames are).
#[test]
fn textures_json_writes_a_strip_whole_and_says_its_frame_count() {
    use support::bbmodel_builder::{Model, Texture};
    let dir = temp_dir("textures_json");
    let model = dir.join("strip.bbmodel");
    let bytes = Model::free()
        .texture(Texture::png("strip", 16, 64).uv_size(16.0, 16.0))
        .texture(Texture::png("still", 16, 16).uv_size(16.0, 16.0))
        .bytes();
    std::fs::write(&model, bytes).unwrap();
    let out = dir.join("png");
    let (code, stdout) = scenedec(&[
        "textures",
        "--json",
        model.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}");
    let objects = lines(&stdout);
    let seen: Vec<(&str, u64, u64, u64)> = objects
        .iter()
        .map(|o| {
            (
                o["name"].as_str().unwrap(),
                o["width"].as_u64().unwrap(),
                o["height"].as_u64().unwrap(),
                o["frames"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(seen, [("strip", 16, 64, 4), ("still", 16, 16, 1)]);
    for o in &objects {
        let png = std::fs::read(o["path"].as_str().unwrap()).unwrap();
        // The PNG's IHDR height: the whole strip.
        let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
        assert_eq!(u64::from(height), o["height"].as_u64().unwrap(), "{o}");
        assert_eq!(
            (o["level"].as_u64(), o["texture"].is_u64()),
            (Some(0), true)
        );
    }
    // Without --json: one path a line, as before.
    let (code, stdout) = scenedec(&[
        "textures",
        model.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(stdout.lines().all(|l| l.ends_with(".png")), "{stdout}");
    assert_eq!(stdout.lines().count(), 2);
}

/// `textures` takes many inputs as `convert` does: several models write
/// each into DIR/<file name>/, a folder's models into its tree mirrored.
#[test]
fn textures_takes_several_models_and_folders() {
    use support::bbmodel_builder::{Model, Texture};
    let dir = temp_dir("textures_many");
    let input = dir.join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    for (file, texture) in [("a.bbmodel", "red"), ("sub/b.bbmodel", "blue")] {
        let bytes = Model::free()
            .texture(Texture::png(texture, 16, 16).uv_size(16.0, 16.0))
            .bytes();
        std::fs::write(input.join(file), bytes).unwrap();
    }
    let out = dir.join("png");
    let a = input.join("a.bbmodel");
    let b = input.join("sub/b.bbmodel");
    let (code, stdout) = scenedec(&[
        "textures",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}");
    assert!(out.join("a.bbmodel/0_red.png").is_file(), "{stdout}");
    assert!(out.join("b.bbmodel/0_blue.png").is_file(), "{stdout}");
    let tree = dir.join("tree");
    let (code, stdout) = scenedec(&[
        "textures",
        input.to_str().unwrap(),
        "-o",
        tree.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}");
    assert!(tree.join("a.bbmodel/0_red.png").is_file(), "{stdout}");
    assert!(tree.join("sub/b.bbmodel/0_blue.png").is_file(), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}
