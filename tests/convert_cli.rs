//! Where `scenedec convert` writes (src/bin/scenedec/convert.rs, `plan`):
//! beside each input without `-o` (`x.bbmodel` -> `x.glb`), never over an
//! input nor over an existing file unless `--force`; `-o` creates missing
//! folders; a folder stands for every model under it, its tree mirrored
//! under `-o`, and a file there that is no model is skipped without a word
//! where one named on the command line is an error.

mod support;

#[path = "support/rarc_writer.rs"]
mod rarc_writer;

use std::path::{Path, PathBuf};

use support::run_scenedec as scenedec;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("scenedec-convert-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn without_o_the_glb_goes_beside_the_input_and_is_not_overwritten_without_force() {
    let dir = temp_dir("beside");
    let model = dir.join("x.bbmodel");
    std::fs::write(&model, support::samples::cube_bbmodel()).unwrap();
    let (code, stdout, stderr) = scenedec(&["convert", s(&model)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let glb = dir.join("x.glb");
    assert!(
        stdout.contains(&format!("-> {}", glb.display())),
        "{stdout}"
    );
    let written = std::fs::read(&glb).unwrap();
    assert!(written.starts_with(b"glTF"));
    // Again: refused, the file left as it was, the message says how.
    std::fs::write(&glb, b"mine").unwrap();
    let (code, stdout, _) = scenedec(&["convert", s(&model)]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("x.glb exists: not overwritten (--force overwrites it)"),
        "{stdout}"
    );
    assert_eq!(std::fs::read(&glb).unwrap(), b"mine");
    let (code, stdout, _) = scenedec(&["convert", "--force", s(&model)]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(std::fs::read(&glb).unwrap(), written);
    // The input is never the output.
    let (code, _, stderr) = scenedec(&["convert", s(&glb)]);
    assert_eq!(code, 2);
    assert!(stderr.contains("would overwrite the input"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn o_creates_the_folders_it_names() {
    let dir = temp_dir("mkdir");
    let out = dir.join("new/deeper/x.glb");
    let (code, stdout, stderr) = scenedec(&["convert", "samples/pyramid.bmd", "-o", s(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(out.is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_folder_converts_every_model_under_it_and_skips_what_is_no_model() {
    use rarc_writer::{dir as rdir, file, root, write};
    let dir = temp_dir("folder");
    let input = dir.join("in");
    std::fs::create_dir_all(input.join("a/b")).unwrap();
    std::fs::create_dir_all(input.join("c")).unwrap();
    std::fs::write(
        input.join("a/b/m.bbmodel"),
        support::samples::cube_bbmodel(),
    )
    .unwrap();
    std::fs::write(input.join("c/p.bmd"), support::samples::pyramid_bmd()).unwrap();
    let archive = write(
        &root(
            "stage",
            vec![rdir(
                "bmd",
                vec![file("q.bmd", &support::samples::pyramid_bmd())],
            )],
        ),
        false,
    );
    std::fs::write(input.join("c/stage.arc"), &archive.bytes).unwrap();
    let empty_archive = write(&root("none", vec![file("readme", b"hi")]), false);
    std::fs::write(input.join("none.arc"), &empty_archive.bytes).unwrap();
    // Not models: an empty model file, junk named like one, other files.
    std::fs::write(input.join("empty.bmd"), b"").unwrap();
    std::fs::write(input.join("a/junk.bdl"), b"\x00\x01\x02").unwrap();
    std::fs::write(input.join("notes.txt"), b"hello").unwrap();
    let out = dir.join("out");
    let (code, stdout, stderr) = scenedec(&["convert", s(&input), "-o", s(&out)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        stdout.lines().count(),
        3,
        "one line a model, none for the rest: {stdout}"
    );
    for written in [
        "a/b/m.bbmodel.glb",
        "c/p.bmd.glb",
        "c/stage.arc/stage/bmd/q.bmd.glb",
    ] {
        assert!(out.join(written).is_file(), "{written}: {stdout}");
    }
    assert!(
        !stdout.contains("empty.bmd") && !stdout.contains("junk.bdl"),
        "{stdout}"
    );
    // Named, each of them is an error.
    for named in ["empty.bmd", "a/junk.bdl", "none.arc"] {
        let path = input.join(named);
        let (code, stdout, _) = scenedec(&["convert", s(&path), "-o", s(&dir.join("one.glb"))]);
        assert_eq!(code, 1, "{named}: {stdout}");
        assert!(
            stdout.starts_with(&format!("not a model: {}", path.display())),
            "{stdout}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--jobs N` converts N models at once, yet the outputs are byte for byte
/// those of `--jobs 1` and the report lines come in input order.
#[test]
fn jobs_1_and_jobs_4_write_the_same_bytes_and_report_in_input_order() {
    let dir = temp_dir("jobs");
    let mut inputs: Vec<String> = [
        "samples/cube.bbmodel",
        "samples/pyramid.bmd",
        "samples/pyramid.bmd.szs",
    ]
    .map(String::from)
    .to_vec();
    if let Some(corpus) = support::corpus_dir() {
        inputs.push(corpus.join("bbmodel").to_string_lossy().into_owned());
    }
    let run = |jobs: &str| {
        let out = dir.join(format!("out{jobs}"));
        let mut args = vec![
            "convert",
            "--json",
            "--jobs",
            jobs,
            "--limit",
            "maxFaceVertices=32",
        ];
        args.extend(inputs.iter().map(String::as_str));
        let out_text = out.to_string_lossy().into_owned();
        args.extend(["-o", &out_text]);
        let (code, stdout, stderr) = scenedec(&args);
        assert_eq!(code, 0, "--jobs {jobs}: {stdout}{stderr}");
        // Each report without its timing and with the folder's name taken out.
        let reports: Vec<serde_json::Value> = stdout
            .lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                v.as_object_mut().unwrap().remove("ms");
                let output = v["output"].as_str().unwrap().replacen(&out_text, "", 1);
                v["output"] = output.into();
                v
            })
            .collect();
        (out, reports)
    };
    let (one, one_reports) = run("1");
    let (four, four_reports) = run("4");
    assert_eq!(one_reports, four_reports);
    assert!(one_reports.len() >= 3);
    let mut files = 0;
    for report in &one_reports {
        let relative = report["output"].as_str().unwrap().trim_start_matches('/');
        let a = std::fs::read(one.join(relative)).unwrap();
        let b = std::fs::read(four.join(relative)).unwrap();
        assert!(a == b, "{relative} differs between --jobs 1 and --jobs 4");
        files += 1;
    }
    assert_eq!(files, one_reports.len());
    // In input order: the inputs' order, each folder's models sorted.
    let names: Vec<&str> = one_reports
        .iter()
        .map(|r| r["file"].as_str().unwrap())
        .collect();
    assert_eq!(&names[..3], &inputs[..3]);
    let mut sorted = names[3..].to_vec();
    sorted.sort_unstable();
    assert_eq!(names[3..], sorted[..]);
    let (code, _, _) = scenedec(&["convert", "--jobs", "0", "samples/cube.bbmodel"]);
    assert_eq!(code, 2, "--jobs 0");
    std::fs::remove_dir_all(&dir).unwrap();
}
