//! The classic attacks (tests/support/hostile.rs), each loaded the way the
//! command-line tool loads a file: every one must give its typed verdict,
//! and a counting allocator checks that `load` allocates only what the
//! limits allow — nothing for a refused input (the limits are checked
//! before the one allocation), the planned arena (plus, for Yaz0, the
//! declared file) for a loaded one. `benches/hostile.rs` times the same
//! cases; docs/security.md has the table.

mod support;

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::allocations;
use scenedec::{ErrorCode, Options};
use support::hostile::{Case, Verdict, cases};

/// The result of loading a case, and the sizes of what `load` allocated.
fn run(case: &Case) -> (Result<(), ErrorCode>, Vec<usize>) {
    let files: Vec<(&str, &[u8])> = case
        .texture_files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let mut options = Options::default();
    options.bbmodel.texture_files = &files;
    let (result, sizes) = allocations(|| {
        scenedec::load(&case.bytes, Some(case.ext), &options)
            .map(|_| ())
            .map_err(|e| e.code())
    });
    (result, sizes)
}

/// The arena `load` plans for `bytes` (as u64 words; `measure`'s, with a
/// .bbmodel's cubes at the most a cube draws, each count within the
/// limits), or nothing when it needs none.
fn planned(bytes: &[u8], ext: &str, texture_files: &[(String, Vec<u8>)]) -> Vec<usize> {
    let files: Vec<(&str, &[u8])> = texture_files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let mut options = Options::default();
    options.bbmodel.texture_files = &files;
    let plan = scenedec::load_plan(bytes, Some(ext), &options).expect("planned");
    if plan.arena_bytes() == 0 {
        return Vec::new();
    }
    vec![plan.arena_words() * 8]
}

/// What `load` may allocate for a case: a loaded one its planned arena; a
/// refused one nothing, except the arena of the valid file it imitates
/// when only the fill pass can see the damage, and a Yaz0 file the size
/// its header declares (checked against maxFileBytes before allocating).
fn allowed(case: &Case, result: Result<(), ErrorCode>) -> Vec<usize> {
    match (result, &case.imitates) {
        (Ok(()), _) => planned(&case.bytes, case.ext, &case.texture_files),
        (Err(_), Some((bytes, files))) => planned(bytes, case.ext, files),
        (Err(_), None) if case.bytes.starts_with(b"Yaz0") => {
            let declared = u32::from_be_bytes(case.bytes[4..8].try_into().unwrap());
            vec![declared as usize]
        }
        (Err(_), None) => Vec::new(),
    }
}

#[test]
fn every_attack_gets_its_verdict_and_allocates_only_what_the_limits_allow() {
    let all = cases();
    assert!(all.len() >= 25, "{} cases", all.len());
    let mut failures = Vec::new();
    for case in &all {
        let start = std::time::Instant::now();
        let (result, sizes) = run(case);
        // Shown with --nocapture; never asserted (benches/hostile.rs times them).
        println!(
            "{}: {result:?}, allocated {sizes:?}, {:?} (debug build)",
            case.name,
            start.elapsed()
        );
        let verdict_ok = match (case.verdict, result) {
            (Verdict::Refused(code), Err(got)) => code == got,
            (Verdict::RefusedAny, Err(_)) => true,
            (Verdict::Loads, Ok(())) => true,
            _ => false,
        };
        if !verdict_ok {
            failures.push(format!(
                "{}: expected {:?}, got {result:?}",
                case.name, case.verdict
            ));
        }
        let allowed = allowed(case, result);
        if sizes.len() > allowed.len() || sizes.iter().zip(&allowed).any(|(got, max)| got > max) {
            failures.push(format!(
                "{}: allocated {sizes:?}, the limits allow {allowed:?}",
                case.name
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
