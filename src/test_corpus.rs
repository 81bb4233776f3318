//! The corpus beside the project (`../shared/corpus`) for the library's own
//! unit tests, with the integration tests' rule when it is absent: under
//! `CI` the check fails; elsewhere it says on the real stderr (past the
//! test harness's capture) that it was skipped.

extern crate std;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::vec::Vec;

/// `../shared/corpus/<sub>`, or `None` (after failing under CI, or saying
/// so) when it is not there.
#[track_caller]
pub fn dir(sub: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    let check = core::panic::Location::caller();
    let ci = std::env::var("CI").is_ok_and(|v| !matches!(v.as_str(), "" | "0" | "false"));
    assert!(
        !ci,
        "CI is set but {} is absent: the corpus check at {check} cannot run",
        dir.display()
    );
    let _ = writeln!(
        std::io::stderr().lock(),
        "corpus absent: the check at {check} was skipped"
    );
    None
}

/// The files of `../shared/corpus/<sub>` whose extension is one of
/// `extensions`, sorted by path, or `None` as [`dir`] gives it.
#[track_caller]
pub fn files(sub: &str, extensions: &[&str]) -> Option<Vec<PathBuf>> {
    let dir = dir(sub)?;
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| extensions.contains(&x))
        })
        .collect();
    files.sort();
    Some(files)
}
