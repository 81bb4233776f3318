//! The models inside RARC archives through the commands that load models:
//! `convert ARCHIVE -o DIR` writes each model member at `DIR/<path>.glb`, a
//! folder of archives mirrors its tree, `inspect --json ARCHIVE` reports
//! each model member as a loose model, and `ARCHIVE:member/path` names one
//! member for `pose` and `inspect` (with or without the root's name, in
//! any case, as the games look members up).

mod support;

use std::path::{Path, PathBuf};

use serde_json::Value;

use support::run_scenedec as scenedec;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "scenedec-rarc-models-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The corpus archives with the model members `expected/` lists (paths
/// ending in .bmd or .bdl), or none when the corpus is absent.
fn archives_with_models() -> Vec<(PathBuf, Vec<String>)> {
    let Some(dir) = support::corpus_dir() else {
        return Vec::new();
    };
    let dir = dir.join("rarc");
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir.join("expected")).unwrap() {
        let json = e.unwrap().path();
        if json.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let v: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let models: Vec<String> = v["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["path"].as_str().unwrap().to_owned())
            .filter(|p| p.ends_with(".bdl") || p.ends_with(".bmd"))
            .collect();
        out.push((dir.join(v["file"].as_str().unwrap()), models));
    }
    out.sort();
    out
}

fn glb_triangles(path: &Path) -> usize {
    let gltf = gltf::Gltf::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    gltf.meshes()
        .flat_map(|m| m.primitives())
        .map(|p| p.indices().map_or(0, |a| a.count() / 3))
        .sum()
}

#[test]
fn convert_writes_each_model_member_where_its_path_says() {
    let archives = archives_with_models();
    let mut written = 0;
    for (archive, models) in &archives {
        let out = temp_dir(&format!(
            "one-{}",
            archive.file_stem().unwrap().to_string_lossy()
        ));
        let (code, stdout, stderr) = scenedec(&[
            "convert",
            archive.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--json",
        ]);
        let lines: Vec<Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        if models.is_empty() {
            // Named, an archive without models is no model: an error that
            // says so (tests/convert_cli.rs has the rule).
            assert_eq!(code, 1, "{}: {stdout}{stderr}", archive.display());
            assert_eq!(lines.len(), 1, "{stdout}");
            assert!(
                lines[0]["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("a RARC archive with no model in it"),
                "{stdout}"
            );
            let _ = std::fs::remove_dir_all(&out);
            continue;
        }
        assert_eq!(code, 0, "{}: {stdout}{stderr}", archive.display());
        assert_eq!(lines.len(), models.len(), "{}: {stdout}", archive.display());
        for (line, model) in lines.iter().zip(models) {
            let glb = out.join(format!("{model}.glb"));
            assert_eq!(line["output"].as_str().unwrap(), glb.to_str().unwrap());
            assert!(line["ok"].as_bool().unwrap());
            // The .glb reads back with the triangles the conversion reported.
            assert_eq!(
                glb_triangles(&glb),
                line["triangles"].as_u64().unwrap() as usize,
                "{}",
                glb.display()
            );
            written += 1;
        }
        let _ = std::fs::remove_dir_all(&out);
    }
    if !archives.is_empty() {
        assert!(written >= 4, "only {written} models in the corpus archives");
    }
}

#[test]
fn a_folder_of_archives_converts_with_its_tree_mirrored() {
    let archives = archives_with_models();
    let Some((first, _)) = archives.first() else {
        return;
    };
    let folder = first.parent().unwrap();
    let out = temp_dir("folder");
    let (code, stdout, stderr) = scenedec(&[
        "convert",
        folder.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    for (archive, models) in &archives {
        for model in models {
            let glb = out
                .join(archive.file_name().unwrap())
                .join(format!("{model}.glb"));
            assert!(glb.is_file(), "{} missing; {stdout}", glb.display());
        }
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn inspect_reports_each_model_member_as_a_loose_model() {
    for (archive, models) in archives_with_models() {
        let (code, stdout, _) = scenedec(&["inspect", "--json", archive.to_str().unwrap()]);
        assert_eq!(code, 0, "{stdout}");
        let listing: Value = serde_json::from_str(stdout.trim()).unwrap();
        let reports = listing["models"].as_array().unwrap();
        assert_eq!(reports.len(), models.len());
        for (report, model) in reports.iter().zip(&models) {
            let spec = format!("{}:{model}", archive.display());
            assert_eq!(report["file"].as_str().unwrap(), spec);
            // The member alone, named by ARCHIVE:member, reports the same.
            let (code, alone, _) = scenedec(&["inspect", "--json", &spec]);
            assert_eq!(code, 0, "{alone}");
            let alone: Value = serde_json::from_str(alone.trim()).unwrap();
            for key in [
                "format",
                "ok",
                "meshes",
                "vertices",
                "triangles",
                "nodes",
                "materials",
                "textures",
            ] {
                assert_eq!(report[key], alone[key], "{spec}: {key}");
            }
            assert!(report["triangles"].as_u64().unwrap() > 0, "{spec}");
        }
    }
}

#[test]
fn a_member_is_named_with_or_without_the_root_in_any_case() {
    for (archive, models) in archives_with_models() {
        let Some(model) = models.first() else {
            continue;
        };
        let (_, below_root) = model.split_once('/').unwrap();
        let expect = {
            let (code, out, _) = scenedec(&[
                "inspect",
                "--json",
                &format!("{}:{model}", archive.display()),
            ]);
            assert_eq!(code, 0);
            serde_json::from_str::<Value>(out.trim()).unwrap()["triangles"].clone()
        };
        for spelling in [
            below_root.to_owned(),
            model.to_ascii_uppercase(),
            below_root.to_ascii_lowercase(),
        ] {
            let spec = format!("{}:{spelling}", archive.display());
            let (code, out, _) = scenedec(&["inspect", "--json", &spec]);
            assert_eq!(code, 0, "{spec}: {out}");
            let v: Value = serde_json::from_str(out.trim()).unwrap();
            assert_eq!(v["triangles"], expect, "{spec}");
        }
        // pose reads the member too (no clip yet: J3D models load with none).
        let (code, _, stderr) = scenedec(&[
            "pose",
            &format!("{}:{below_root}", archive.display()),
            "--time",
            "0",
        ]);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("has no animations"), "{stderr}");
        // A member the archive does not hold is an error naming it.
        let spec = format!("{}:no/such.bdl", archive.display());
        let (code, out, _) = scenedec(&["inspect", "--json", &spec]);
        assert_eq!(code, 1);
        assert!(out.contains("no member"), "{out}");
    }
}
