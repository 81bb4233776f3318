//! The command line keeps the library's promises on large files and
//! hostile folders: files are read no further than `maxFileBytes`, only
//! the texture files a model names are read, every limit a file passes is
//! reported at once with the `--limit` arguments that load it, limits of
//! both formats are set by one name each, and a closed pipe ends quietly.
//!
//! Memory bounds are asserted with an address-space limit on the child
//! (`ulimit -v` in `sh -c`), never with timings.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use support::bbmodel_builder::png;

/// Address space the bounded runs get (KiB) beyond the executable's own
/// mapped segments ([`small_as_kib`]): the command needs a few MiB more, so
/// reading any large file (64 MiB and up here), or allocating for one, fails.
const SMALL_HEADROOM_KIB: u64 = 16 * 1024;

/// [`SMALL_HEADROOM_KIB`] plus what the scenedec executable maps (its
/// ELF `PT_LOAD` segments): a debug build's code alone is 13 MB and grows
/// with the program, which a fixed limit would mistake for the command's
/// memory.
fn small_as_kib() -> u64 {
    let elf = std::fs::read(env!("CARGO_BIN_EXE_scenedec")).unwrap();
    let u16_at = |at: usize| u64::from(u16::from_le_bytes([elf[at], elf[at + 1]]));
    let u64_at = |at: usize| u64::from_le_bytes(elf[at..at + 8].try_into().unwrap());
    assert_eq!(&elf[..5], b"\x7fELF\x02", "a 64-bit ELF executable");
    let (table, size, count) = (u64_at(0x20), u16_at(0x36), u16_at(0x38));
    let mapped: u64 = (0..count)
        .map(|i| (table + i * size) as usize)
        .filter(|&h| u32::from_le_bytes(elf[h..h + 4].try_into().unwrap()) == 1)
        .map(|h| u64_at(h + 0x28))
        .sum();
    SMALL_HEADROOM_KIB + mapped.div_ceil(1024)
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(command: &mut Command) -> Run {
    let out = command.output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn scenedec(args: &[&str]) -> Run {
    run(Command::new(env!("CARGO_BIN_EXE_scenedec"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR")))
}

/// `scenedec ARGS` in a child whose address space is `kib` KiB, and the
/// bytes it read through read(2): the shell prints its own `rchar` from
/// /proc after reaping the command, which Linux adds to the shell's count
/// (None where /proc has no such count).
fn scenedec_within(kib: u64, args: &[&str]) -> (Run, Option<u64>) {
    let mut r = run(Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {kib} && (\"$0\" \"$@\"); code=$?; \
             cat /proc/$$/io 2>/dev/null | sed -n 's/^rchar: /READ_BYTES /p' >&2; exit $code"
        ))
        .arg(env!("CARGO_BIN_EXE_scenedec"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR")));
    let read = r
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("READ_BYTES ")?.parse().ok());
    r.stderr = r
        .stderr
        .lines()
        .filter(|l| !l.starts_with("READ_BYTES "))
        .map(|l| format!("{l}\n"))
        .collect();
    (r, read)
}

/// Most bytes a bounded run may read: the small files it is given, never
/// one of the large ones.
const SMALL_READ: u64 = 1 << 20;

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("scenedec-cli-limits-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A file of `len` bytes that takes no disk space (all zeros).
fn sparse(path: &Path, len: u64) {
    std::fs::File::create(path).unwrap().set_len(len).unwrap();
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A .bbmodel of `cubes` cubes whose textures name `textures` (not embedded).
fn model(cubes: usize, textures: &[&str]) -> String {
    let elements: Vec<String> = (0..cubes)
        .map(|i| {
            format!(
                r#"{{"name": "c{i}", "type": "cube", "uuid": "00000000-0000-4000-8000-{i:012}",
                  "from": [0, 0, 0], "to": [1, 1, 1], "origin": [0, 0, 0],
                  "faces": {{"north": {{"uv": [0, 0, 1, 1]}}, "east": {{"uv": [0, 0, 1, 1]}},
                  "south": {{"uv": [0, 0, 1, 1]}}, "west": {{"uv": [0, 0, 1, 1]}},
                  "up": {{"uv": [0, 0, 1, 1]}}, "down": {{"uv": [0, 0, 1, 1]}}}}}}"#
            )
        })
        .collect();
    let textures: Vec<String> = textures
        .iter()
        .enumerate()
        .map(|(i, name)| {
            format!(
                r#"{{"name": "{name}", "uuid": "10000000-0000-4000-8000-{i:012}", "width": 16, "height": 16}}"#
            )
        })
        .collect();
    format!(
        r#"{{"meta": {{"format_version": "4.10", "model_format": "free", "box_uv": false}},
  "name": "m", "resolution": {{"width": 16, "height": 16}},
  "elements": [{}], "outliner": [], "textures": [{}]}}"#,
        elements.join(",\n"),
        textures.join(",\n")
    )
}

fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn a_3_gb_sparse_file_is_refused_in_16_mib_of_address_space() {
    let dir = temp_dir("huge");
    let mut args = vec!["inspect".to_string()];
    for name in ["x.bbmodel", "x.bdl"] {
        let path = dir.join(name);
        sparse(&path, 3 << 30);
        args.push(s(&path).to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (r, read) = scenedec_within(small_as_kib(), &args);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    if let Some(read) = read {
        assert!(read < SMALL_READ, "{read} bytes read");
    }
    assert_eq!(
        r.stdout.matches("FAILED FILE_TOO_LARGE").count(),
        2,
        "{}",
        r.stdout
    );
    let size = (3u64 << 30).to_string();
    assert!(
        r.stdout.contains(&format!("maxFileBytes: needs {size}")),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains(&format!("--limit maxFileBytes={size}")),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("(at )"), "{}", r.stdout);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unnamed_pngs_beside_a_model_are_never_read() {
    let dir = temp_dir("unnamed");
    let named = png(16, 16);
    std::fs::write(dir.join("SKIN.png"), &named).unwrap();
    // Each under the old 64 MiB bound, so all were read before; together
    // far past the child's address space.
    for i in 0..8 {
        sparse(&dir.join(format!("unrelated{i}.png")), 60 << 20);
    }
    let model_path = dir.join("m.bbmodel");
    std::fs::write(&model_path, model(1, &["skin.png"])).unwrap();
    // No address-space limit here: a reader that opened them would succeed
    // and show in the bytes read (480 MiB), not in a failed allocation.
    let (r, read) = scenedec_within(1 << 30, &["inspect", "--json", s(&model_path)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    if let Some(read) = read {
        assert!(read < SMALL_READ, "{read} bytes read");
    } else {
        eprintln!("no /proc/PID/io here: bytes read not checked");
    }
    let objects = json_lines(&r.stdout);
    let textures = objects[0]["textures"].as_array().unwrap();
    assert_eq!(textures.len(), 1);
    assert_eq!(textures[0]["missing"], false, "{}", r.stdout);
    assert!(!r.stderr.contains("unrelated"), "{}", r.stderr);
    assert!(!r.stdout.contains("unrelated"), "{}", r.stdout);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_named_texture_not_offered_warns_with_its_path_and_the_reason() {
    let dir = temp_dir("named");
    let over = dir.join("big.png");
    sparse(&over, (64 << 20) + 1);
    let junk = dir.join("junk.png");
    std::fs::write(&junk, b"GIF89a, not a PNG at all").unwrap();
    // A FIFO named like a texture would block an open forever.
    let fifo = dir.join("pipe.png");
    let have_fifo = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let model_path = dir.join("m.bbmodel");
    std::fs::write(
        &model_path,
        model(1, &["big.png", "junk.png", "absent.png", "pipe.png"]),
    )
    .unwrap();
    let (r, _) = scenedec_within(small_as_kib(), &["inspect", "--json", s(&model_path)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let warning = |needle: &str| {
        r.stderr
            .lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no warning names {needle}: {}", r.stderr))
            .to_string()
    };
    let big = warning(s(&over));
    assert!(
        big.contains("too large") && big.contains("maxFileBytes"),
        "{big}"
    );
    assert!(warning(s(&junk)).contains("not a PNG"));
    let absent = warning("absent.png");
    assert!(
        absent.contains("no such") && absent.contains(s(&dir)),
        "{absent}"
    );
    let objects = json_lines(&r.stdout);
    let missing: Vec<bool> = objects[0]["textures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["missing"].as_bool().unwrap())
        .collect();
    assert_eq!(missing, [true, true, true, true]);
    if have_fifo {
        assert!(warning(s(&fifo)).contains("not a regular file"));
    }
    // Raised by name, the same file is read: its zeros are then no PNG.
    let r = scenedec(&["inspect", "--limit", "maxFileBytes=inf", s(&model_path)]);
    let big = r
        .stderr
        .lines()
        .find(|l| l.contains(s(&over)))
        .unwrap_or_default();
    assert!(
        big.contains("not a PNG") && !big.contains("too large"),
        "{}",
        r.stderr
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--limit` arguments of a report line `... to load it: --limit a=1 --limit b=2`.
fn suggested(stdout: &str) -> Vec<String> {
    let line = stdout
        .lines()
        .find_map(|l| l.split_once("to load it: ").map(|(_, a)| a.to_string()))
        .unwrap_or_else(|| panic!("no suggestion: {stdout}"));
    line.split_whitespace().map(str::to_string).collect()
}

#[test]
fn every_limit_passed_is_reported_at_once_with_the_arguments_that_load_it() {
    let dir = temp_dir("check");
    let model_path = dir.join("many.bbmodel");
    let cubes = 30;
    std::fs::write(&model_path, model(cubes, &[])).unwrap();
    let path = s(&model_path);
    let tight = [
        "--limit",
        "maxElements=10",
        "--limit",
        "maxTriangles=100",
        "--limit",
        "maxVertices=50",
    ];
    let mut args = vec!["inspect", path];
    args.extend(tight);
    let r = scenedec(&args);
    assert_eq!(r.code, 1, "{}", r.stdout);
    for name in ["maxElements", "maxTriangles", "maxVertices"] {
        assert!(
            r.stdout.contains(&format!("{name}: needs ")),
            "{name}: {}",
            r.stdout
        );
    }
    assert!(
        r.stdout
            .contains(&format!("maxElements: needs {cubes}, limit 10")),
        "{}",
        r.stdout
    );
    let fix = suggested(&r.stdout);
    assert_eq!(fix.len(), 6, "{fix:?}");
    // The suggestion loads the file, and each value is the smallest that does.
    let mut args = vec!["inspect", path];
    args.extend(tight);
    args.extend(fix.iter().map(String::as_str));
    assert_eq!(scenedec(&args).code, 0, "{fix:?}");
    for pair in fix.chunks(2) {
        let (name, value) = pair[1].split_once('=').unwrap();
        let less = format!("{name}={}", value.parse::<u64>().unwrap() - 1);
        let mut args = vec!["inspect", path];
        args.extend(tight);
        args.extend(fix.iter().map(String::as_str));
        args.extend(["--limit", &less]);
        let r = scenedec(&args);
        assert_eq!(r.code, 1, "{less}: {}", r.stdout);
    }
    // --json carries the same report; --check-limits on a file that loads says so.
    let mut args = vec!["inspect", "--json", path];
    args.extend(tight);
    let r = scenedec(&args);
    let limits = &json_lines(&r.stdout)[0]["limits"];
    assert_eq!(limits["needs"].as_array().unwrap().len(), 3, "{limits}");
    assert_eq!(limits["arguments"], fix.join(" "));
    let r = scenedec(&["inspect", "--check-limits", path]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("every limit passes"), "{}", r.stdout);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn j3d_limits_are_set_by_name_and_errors_name_them() {
    let r = scenedec(&[
        "inspect",
        "samples/pyramid.bmd",
        "--limit",
        "maxFileBytes=1000",
    ]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("FILE_TOO_LARGE"), "{}", r.stdout);
    assert!(!r.stdout.contains("(at )"), "{}", r.stdout);
    let len = std::fs::metadata("samples/pyramid.bmd").unwrap().len();
    assert!(
        r.stdout
            .contains(&format!("maxFileBytes: needs {len}, limit 1000")),
        "{}",
        r.stdout
    );
    let r = scenedec(&[
        "inspect",
        "samples/pyramid.bmd.szs",
        "--limit",
        "maxTriangles=1",
    ]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("TOO_MANY_TRIANGLES"), "{}", r.stdout);
    let json = scenedec(&["inspect", "--json", "samples/pyramid.bmd"]);
    let triangles = json_lines(&json.stdout)[0]["triangles"].as_u64().unwrap();
    assert!(
        r.stdout
            .contains(&format!("maxTriangles: needs {triangles}, limit 1")),
        "{}",
        r.stdout
    );
    for raised in [
        "maxFileBytes=inf",
        "maxJoints=inf",
        "maxDisplayListBytes=100000",
    ] {
        let r = scenedec(&["inspect", "samples/pyramid.bmd.szs", "--limit", raised]);
        assert_eq!(r.code, 0, "{raised}: {}", r.stdout);
    }
}

#[test]
fn an_unknown_or_inapplicable_limit_or_a_bad_value_is_a_usage_error() {
    for (args, says) in [
        (vec!["--limit", "maxBananas=3"], "unknown limit"),
        (vec!["--limit", "maxTriangles=1e5"], "plain integer"),
        (vec!["--limit", "maxTriangles=Infinity"], "plain integer"),
        (vec!["--limit", "maxTriangles=0"], "out of range"),
        (vec!["--limit", "maxJoints=5"], "does not apply to bbmodel"),
    ] {
        let mut all = vec!["inspect", "samples/cube.bbmodel"];
        all.extend(args.iter().copied());
        let r = scenedec(&all);
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains(says) || r.stderr.contains(says),
            "{args:?}: {}{}",
            r.stdout,
            r.stderr
        );
    }
    let r = scenedec(&["inspect", "samples/pyramid.bmd", "--limit", "maxElements=5"]);
    assert_eq!(r.code, 2, "{}", r.stdout);
    let help = scenedec(&["inspect", "--help"]);
    for name in ["maxElements", "maxJoints", "maxDisplayListBytes", "inf"] {
        assert!(help.stdout.contains(name), "{name}: {}", help.stdout);
    }
}

#[test]
fn a_closed_pipe_ends_the_command_quietly_with_141() {
    use std::io::Read;
    // Enough files that the output outlasts the pipe's buffer.
    let files = vec!["samples/cube.bbmodel"; 4000];
    let mut child = Command::new(env!("CARGO_BIN_EXE_scenedec"))
        .args(["inspect", "--json"])
        .args(&files)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    assert_eq!(&first, b"{\"file\": \"");
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(141), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn bytes_after_a_pngs_zlib_stream_warn_inside_its_idat_and_in_a_later_one() {
    use support::bbmodel_builder::{chunk, png_with_idat, zlib_zeros};
    let dir = temp_dir("trailing");
    let (w, h) = (16u32, 16u32);
    let stream = zlib_zeros(u64::from(h) * (1 + 4 * u64::from(w)));
    let clean = png_with_idat(w, h, &stream);
    let mut junk_inside = stream.clone();
    junk_inside.extend_from_slice(b"pasted junk");
    let inside = png_with_idat(w, h, &junk_inside);
    // The clean file with one more IDAT chunk before its IEND (12 bytes).
    let mut later = clean[..clean.len() - 12].to_vec();
    chunk(&mut later, b"IDAT", b"more junk");
    chunk(&mut later, b"IEND", &[]);
    let codes = |png: &[u8]| {
        std::fs::write(dir.join("skin.png"), png).unwrap();
        let model_path = dir.join("m.bbmodel");
        std::fs::write(&model_path, model(1, &["skin.png"])).unwrap();
        let r = scenedec(&["inspect", "--json", s(&model_path)]);
        assert_eq!(r.code, 0, "{}", r.stdout);
        let o = &json_lines(&r.stdout)[0];
        assert_eq!(o["textures"][0]["missing"], false, "{o}");
        o["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|w| w["code"] == "TRAILING_IMAGE_DATA")
            .map(|w| {
                (
                    w["at"].as_str().unwrap().to_string(),
                    w["message"].as_str().unwrap().to_string(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert!(codes(&clean).is_empty());
    for (png, bytes) in [(&inside, "pasted junk".len()), (&later, "more junk".len())] {
        let found = codes(png);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "$.textures[0]");
        assert!(
            found[0].1.starts_with(&format!("{bytes} bytes after")),
            "{found:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_command_says_which_limits_to_raise_after_a_limit_error() {
    let dir = temp_dir("commands");
    let tight = ["--limit", "maxTriangles=1"];
    let out = dir.join("out.glb");
    let runs = [
        scenedec(
            &[
                &["convert", "samples/pyramid.bmd", "-o", s(&out)][..],
                &tight,
            ]
            .concat(),
        ),
        scenedec(
            &[
                &["textures", "samples/cube.bbmodel", "-o", s(&dir)][..],
                &tight,
            ]
            .concat(),
        ),
        scenedec(&[&["pose", "samples/cube.bbmodel", "--time", "0"][..], &tight].concat()),
    ];
    for r in runs {
        assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
        let all = format!("{}{}", r.stdout, r.stderr);
        assert!(all.contains("--limit maxTriangles="), "{all}");
        assert!(!all.contains("(at )"), "{all}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// In a run of several models a limit applies to the files whose format
/// has it: `--limit maxFaceVertices=32` over J3D and .bbmodel files raises
/// the .bbmodel limit and is no mistake for the J3D ones (the corpus check
/// converts such a batch); one model whose format lacks it is a usage
/// error (above).
#[test]
fn in_a_batch_a_limit_applies_to_the_files_whose_format_has_it() {
    let r = scenedec(&[
        "inspect",
        "samples/pyramid.bmd",
        "samples/cube.bbmodel",
        "--limit",
        "maxFaceVertices=32",
        "--limit",
        "maxJoints=5",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(!r.stdout.contains("does not apply"), "{}", r.stdout);
    let dir = std::env::temp_dir().join(format!("scenedec-batch-{}", std::process::id()));
    let r = scenedec(&[
        "convert",
        "samples/pyramid.bmd",
        "samples/cube.bbmodel",
        "-o",
        dir.to_str().unwrap(),
        "--limit",
        "maxFaceVertices=32",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(dir.join("pyramid.bmd.glb").is_file() && dir.join("cube.bbmodel.glb").is_file());
    let _ = std::fs::remove_dir_all(&dir);
    // A limit that a batch's files cannot take still fails where it is wrong.
    let r = scenedec(&["inspect", "samples/pyramid.bmd", "--limit", "maxJoints=1"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
}
