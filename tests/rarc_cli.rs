//! `scenedec inspect` and `scenedec extract` on RARC archives: the `--json`
//! listing and the extracted bytes of every corpus archive agree with
//! `rarc/expected/`, and a hostile archive cannot write outside the folder
//! it is extracted into.

mod support;

#[path = "support/rarc_writer.rs"]
mod rarc_writer;

use std::path::{Path, PathBuf};
use std::process::Command;

use rarc_writer::{file, root, write};
use serde_json::Value;

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

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("scenedec-rarc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// (archive path, expected listing) for each corpus archive.
fn corpus() -> Vec<(PathBuf, Value)> {
    let Some(dir) = support::corpus_dir() else {
        return Vec::new();
    };
    let dir = dir.join("rarc");
    let mut out: Vec<(PathBuf, Value)> = std::fs::read_dir(dir.join("expected"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|json| {
            let v: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
            (dir.join(v["file"].as_str().unwrap()), v)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!out.is_empty(), "the corpus has no archives");
    out
}

#[test]
fn inspect_json_lists_every_file_as_the_reference_reader_does() {
    for (archive, expected) in corpus() {
        let name = archive.to_str().unwrap();
        let (code, out) = scenedec(&["inspect", "--json", name]);
        assert_eq!(code, 0, "{out}");
        let got: Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(got["file"], name);
        assert_eq!(got["format"], "rarc");
        assert_eq!(got["ok"], true);
        assert_eq!(got["error"], Value::Null);
        let want: Vec<Value> = expected["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| serde_json::json!({"path": f["path"], "size": f["size"], "sha256": f["sha256"]}))
            .collect();
        assert_eq!(got["files"], Value::Array(want), "{name}");
    }
}

#[test]
fn inspect_lists_the_tree_for_a_person() {
    for (archive, expected) in corpus() {
        let (code, out) = scenedec(&["inspect", archive.to_str().unwrap()]);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains(": rarc ("), "{out}");
        for f in expected["files"].as_array().unwrap() {
            let leaf = f["path"].as_str().unwrap().rsplit('/').next().unwrap();
            assert!(
                out.contains(&format!("{leaf}  {} bytes", f["size"])),
                "{leaf}: {out}"
            );
        }
    }
}

#[test]
fn extract_writes_every_member_at_its_path() {
    for (archive, expected) in corpus() {
        let stem = archive.file_name().unwrap().to_str().unwrap();
        let dir = temp_dir(stem);
        let (code, out) = scenedec(&[
            "extract",
            archive.to_str().unwrap(),
            "-o",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{out}");
        let files = expected["files"].as_array().unwrap();
        for f in files {
            let path = dir.join(f["path"].as_str().unwrap());
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(f["size"], bytes.len(), "{}", path.display());
            assert_eq!(f["sha256"], sha256_hex(&bytes), "{}", path.display());
        }
        assert_eq!(
            count_files(&dir),
            files.len(),
            "nothing else written: {out}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

fn count_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            if p.is_dir() { count_files(&p) } else { 1 }
        })
        .sum()
}

#[test]
fn extract_only_writes_the_members_a_glob_chooses() {
    let tree = root(
        "arc",
        vec![
            file("model.BDL", b"model"),
            file("walk.bck", b"walk"),
            rarc_writer::dir("sub", vec![file("other.bdl", b"other")]),
        ],
    );
    let built = write(&tree, false);
    let dir = temp_dir("only");
    let archive = dir.join("test.arc");
    std::fs::write(&archive, &built.bytes).unwrap();
    let out_dir = dir.join("out");
    let (code, out) = scenedec(&[
        "extract",
        archive.to_str().unwrap(),
        "-o",
        out_dir.to_str().unwrap(),
        "--only",
        "*.bdl",
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        std::fs::read(out_dir.join("arc/model.BDL")).unwrap(),
        b"model"
    );
    assert_eq!(
        std::fs::read(out_dir.join("arc/sub/other.bdl")).unwrap(),
        b"other"
    );
    assert!(!out_dir.join("arc/walk.bck").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_hostile_archive_cannot_write_outside_the_folder() {
    let dir = temp_dir("hostile");
    let out_dir = dir.join("out");
    // A root named "..", a file name with separators, an absolute root:
    // each would land outside DIR if joined as it is.
    let cases = [
        root("..", vec![file("escaped", b"x")]),
        root("arc", vec![file("../../escaped", b"x")]),
        root("/tmp", vec![file("escaped", b"x")]),
        root("arc", vec![file("a\\..\\escaped", b"x")]),
    ];
    for (i, tree) in cases.iter().enumerate() {
        let archive = dir.join(format!("hostile{i}.arc"));
        std::fs::write(&archive, write(tree, false).bytes).unwrap();
        let (code, out) = scenedec(&[
            "extract",
            archive.to_str().unwrap(),
            "-o",
            out_dir.to_str().unwrap(),
        ]);
        assert_eq!(code, 1, "case {i}: {out}");
        assert!(out.contains("refused"), "case {i}: {out}");
    }
    assert!(!out_dir.exists(), "nothing was written");
    assert!(!dir.join("escaped").exists());
    assert!(!std::path::Path::new("/tmp/escaped").exists());
    // The safe members of an archive are still written.
    let tree = root("arc", vec![file("..", b"dot"), file("ok", b"fine")]);
    let archive = dir.join("mixed.arc");
    std::fs::write(&archive, write(&tree, false).bytes).unwrap();
    let (code, out) = scenedec(&[
        "extract",
        archive.to_str().unwrap(),
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    // A file named ".." is skipped as every reader skips it; "ok" is written.
    assert_eq!(code, 0, "{out}");
    assert_eq!(std::fs::read(out_dir.join("arc/ok")).unwrap(), b"fine");
    assert_eq!(count_files(&out_dir), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn inspect_json_reports_a_broken_archive_with_its_error() {
    let mut built = write(&root("arc", vec![file("a", b"abc")]), false);
    let a = built.entry_named("a");
    built.put_u32(built.entry(a) + 8, 0x10_0000);
    let dir = temp_dir("broken");
    let archive = dir.join("broken.arc");
    std::fs::write(&archive, &built.bytes).unwrap();
    let (code, out) = scenedec(&["inspect", "--json", archive.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    let got: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(got["ok"], false);
    assert_eq!(got["format"], "rarc");
    assert_eq!(got["error"]["code"], "BAD_OFFSET");
    assert_eq!(got["error"]["at"], format!("{:#x}", built.entry(a) + 8));
    assert_eq!(got["files"], Value::Array(vec![]));
    std::fs::remove_dir_all(&dir).unwrap();
}
