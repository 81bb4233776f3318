//! Issue 36: the RARC limits are settable through `--limit NAME=V` like the
//! model limits (one namespace, src/bin/scenedec/limit_args.rs; the names
//! are `RarcLimits::names`), for every command that reads an archive, each
//! pinned here at the value the archive needs (loads) and one below it
//! (refused, the error naming the limit by the name `--limit` takes).

mod support;

#[path = "support/rarc_writer.rs"]
mod rarc_writer;

use rarc_writer::{dir, file, root, write};
use support::run_scenedec as scenedec;

#[test]
fn every_archive_limit_is_set_by_name_and_pinned_at_its_value() {
    let tmp = std::env::temp_dir().join(format!("scenedec-rarc-limits-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let model = support::samples::pyramid_bmd();
    let built = write(
        &root("stage", vec![dir("bmd", vec![file("pyramid.bmd", &model)])]),
        false,
    );
    let path = tmp.join("stage.arc");
    std::fs::write(&path, &built.bytes).unwrap();
    let archive = path.to_str().unwrap();
    let member = format!("{archive}:stage/bmd/pyramid.bmd");
    // What this archive needs of each limit, from how it was built.
    let needs = [
        ("maxArchiveBytes", built.bytes.len()),
        // Entries: `.`, `..` and `bmd` in the root; `.`, `..` and the model in bmd.
        ("maxArchiveMembers", 6),
        ("maxArchiveNodes", 2),
        ("maxArchiveDepth", 2),
        ("maxArchiveNameBytes", "pyramid.bmd".len()),
        ("maxArchiveTotalBytes", model.len()),
    ];
    let out = tmp.join("out");
    let out = out.to_str().unwrap();
    for (name, n) in needs {
        let at = format!("{name}={n}");
        let below = format!("{name}={}", n - 1);
        for command in ["inspect", "convert", "extract", "pose"] {
            let args = |limit: &str| -> Vec<String> {
                let mut a: Vec<String> = match command {
                    "inspect" => vec!["inspect".into(), archive.into()],
                    "convert" => vec![
                        "convert".into(),
                        "--force".into(),
                        archive.into(),
                        "-o".into(),
                        out.into(),
                    ],
                    "extract" => vec!["extract".into(), archive.into(), "-o".into(), out.into()],
                    _ => vec!["pose".into(), member.clone(), "--time".into(), "0".into()],
                };
                a.extend(["--limit".into(), limit.into()]);
                a
            };
            let run = |limit: &str| {
                let a = args(limit);
                scenedec(&a.iter().map(String::as_str).collect::<Vec<_>>())
            };
            let (code, stdout, stderr) = run(&at);
            // pose exits 2: the pyramid has no animation, past the archive.
            let loaded = if command == "pose" { 2 } else { 0 };
            assert_eq!(code, loaded, "{command} --limit {at}: {stdout}{stderr}");
            let (code, stdout, stderr) = run(&below);
            assert_eq!(code, 1, "{command} --limit {below}: {stdout}{stderr}");
            assert!(
                format!("{stdout}{stderr}").contains(name),
                "{command} --limit {below} names the limit: {stdout}{stderr}"
            );
        }
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn archive_limits_are_listed_in_help_and_bad_values_are_usage_errors() {
    let (code, help, _) = scenedec(&["inspect", "--help"]);
    assert_eq!(code, 0);
    for name in scenedec::RarcLimits::names() {
        assert!(help.contains(name), "{name} missing from --help");
    }
    let (code, _, stderr) = scenedec(&[
        "inspect",
        "--limit",
        "maxArchiveMembers=0",
        "samples/pyramid.bmd",
    ]);
    assert_eq!(code, 2, "{stderr}");
    // An archive limit given for a loose model has nothing to bound, but is
    // no model limit the format lacks either: the model loads.
    let (code, _, stderr) = scenedec(&[
        "inspect",
        "--limit",
        "maxArchiveMembers=1",
        "samples/pyramid.bmd",
    ]);
    assert_eq!(code, 0, "{stderr}");
}
