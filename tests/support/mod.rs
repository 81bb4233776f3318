//! Fixture writers shared by the integration tests: files are built here, in
//! code, so each test shows its input.

#![allow(dead_code)]

pub mod bbmodel_builder;
pub mod j3d_writer;
pub mod samples;

/// The corpus beside the project, if present (`../shared/corpus`).
pub fn corpus_dir() -> Option<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    dir.is_dir().then_some(dir)
}

/// Every file in `corpus/<sub>` whose name ends in one of `extensions`,
/// sorted; prints and returns nothing when the corpus is absent.
pub fn corpus_files(sub: &str, extensions: &[&str]) -> Vec<std::path::PathBuf> {
    let Some(dir) = corpus_dir() else {
        eprintln!("SKIPPED: ../shared/corpus is absent; no corpus files under {sub} were tested");
        return Vec::new();
    };
    let mut files: Vec<_> = std::fs::read_dir(dir.join(sub))
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| {
        p.is_file()
            && p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| extensions.iter().any(|e| n.ends_with(e)))
    });
    files.sort();
    files
}
