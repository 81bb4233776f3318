//! The corpus beside the project (`../shared/corpus`) for the library's own
//! unit tests, with the integration tests' rule when it is absent: under
//! `CI` the check fails; elsewhere it says on the real stderr (past the
//! test harness's capture) that it was skipped.

extern crate std;

use std::io::Write;
use std::path::{Path, PathBuf};

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
