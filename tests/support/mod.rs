//! Fixture writers shared by the integration tests: files are built here, in
//! code, so each test shows its input.

#![allow(dead_code)]

pub mod bbmodel_builder;
pub mod clips;
pub mod gltf_read;
pub mod hostile;
pub mod j3d_anim;
pub mod j3d_writer;
pub mod node;
pub mod rng;
pub mod samples;
pub mod stack;

/// Runs the `scenedec` command (built for the integration test that calls
/// this) from the crate root: its exit status, standard output and
/// standard error.
pub fn run_scenedec(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_scenedec"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the scenedec binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The corpus beside the project, if present (`../shared/corpus`).
///
/// Absent, a check that needs it cannot pass honestly, so:
/// - with `CI` set (to anything but empty, `0` or `false`) the check fails:
///   a CI run without the corpus must not pass on empty loops;
/// - otherwise it says so on the real stderr, past the test harness's
///   capture, so `cargo test` shows "corpus absent: … skipped" beside the
///   check's "ok" instead of a silent pass.
#[track_caller]
pub fn corpus_dir() -> Option<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if dir.is_dir() {
        return Some(dir);
    }
    corpus_absent(std::panic::Location::caller());
    None
}

/// Fails under CI, or reports the skipped check where cargo shows it.
fn corpus_absent(check: &std::panic::Location<'_>) {
    let ci = std::env::var("CI").is_ok_and(|v| !matches!(v.as_str(), "" | "0" | "false"));
    assert!(
        !ci,
        "CI is set but ../shared/corpus is absent: the corpus check at {check} cannot run"
    );
    use std::io::Write;
    // Written to the process's stderr, not through `eprintln!`, which the
    // harness captures for passing tests.
    let _ = writeln!(
        std::io::stderr().lock(),
        "corpus absent: the check at {check} was skipped"
    );
}

/// Every file in `corpus/<sub>` whose name ends in one of `extensions`,
/// sorted; nothing when the corpus is absent (see [`corpus_dir`]).
#[track_caller]
pub fn corpus_files(sub: &str, extensions: &[&str]) -> Vec<std::path::PathBuf> {
    let Some(dir) = corpus_dir() else {
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

/// Corpus files that the spec's default limits refuse, with the limit their
/// user raises to read them and the error the defaults give: (file name,
/// limit name, raised value, error code).
pub const CORPUS_PAST_DEFAULT_LIMITS: &[(&str, &str, f64, scenedec::ErrorCode)] = &[(
    // A 32-vertex face: "TOO_MANY_VERTICES … a mesh face over maxFaceVertices (16)".
    "figura_boat_car_free_v4_0_mesh_32gon.bbmodel",
    "maxFaceVertices",
    32.0,
    scenedec::ErrorCode::TooManyVertices,
)];

/// The options a corpus file loads with: the defaults, with any limit its
/// user must raise ([`CORPUS_PAST_DEFAULT_LIMITS`]) raised.
pub fn corpus_options(file_name: &str) -> scenedec::Options<'static> {
    let mut options = scenedec::Options::default();
    for &(name, limit, value, _) in CORPUS_PAST_DEFAULT_LIMITS {
        if name == file_name {
            options.bbmodel.limits = options
                .bbmodel
                .limits
                .with_override(limit, value)
                .expect("a valid override");
        }
    }
    options
}
