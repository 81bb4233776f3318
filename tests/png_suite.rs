//! PngSuite (`../shared/corpus/pngsuite`): every valid image hashes to
//! `expected.tsv`, every `x*` file is refused; any split of the input gives
//! the same result; validation's verdict is the decode's, on every file and
//! on corrupted and truncated variants. Skips, saying so, when absent.

#[path = "support/png.rs"]
mod png_support;
mod support;

use png_support::{decode, validate};
use sha2::{Digest, Sha256};

struct Row {
    name: String,
    ok: bool,
    size: (u32, u32),
    sha256: String,
}

fn suite() -> Vec<(Row, Vec<u8>)> {
    let Some(dir) = support::corpus_dir() else {
        return Vec::new();
    };
    let dir = dir.join("pngsuite");
    let table = std::fs::read_to_string(dir.join("expected.tsv")).unwrap();
    table
        .lines()
        .filter(|l| !l.is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let row = Row {
                name: f[0].into(),
                ok: f[1] == "ok",
                size: (f[2].parse().unwrap_or(0), f[3].parse().unwrap_or(0)),
                sha256: f.get(4).copied().unwrap_or("").into(),
            };
            let bytes = std::fs::read(dir.join(&row.name)).unwrap();
            (row, bytes)
        })
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn pngsuite_valid_images_hash_to_expected_and_corrupt_ones_are_refused() {
    let (mut valid, mut refused) = (0, 0);
    for (row, bytes) in suite() {
        let got = decode(&bytes, 0);
        if row.ok {
            let (h, pixels) = got.unwrap_or_else(|e| panic!("{}: {e}", row.name));
            assert_eq!((h.width, h.height), row.size, "{}", row.name);
            assert_eq!(hex(&Sha256::digest(&pixels)), row.sha256, "{}", row.name);
            valid += 1;
        } else {
            assert!(got.is_err(), "{} decoded", row.name);
            assert!(validate(&bytes, 0).is_err(), "{} validated", row.name);
            refused += 1;
        }
    }
    if support::corpus_dir().is_some() {
        assert_eq!((valid, refused), (161, 14));
    }
}

#[test]
fn pngsuite_every_split_gives_the_same_result() {
    for (row, bytes) in suite() {
        let whole = decode(&bytes, 0);
        let verdict = validate(&bytes, 0);
        for piece in [1, 7, 4096] {
            assert_eq!(
                decode(&bytes, piece),
                whole,
                "{} in pieces of {piece}",
                row.name
            );
            assert_eq!(
                validate(&bytes, piece),
                verdict,
                "{} validated in pieces of {piece}",
                row.name
            );
        }
    }
}

#[test]
fn pngsuite_validation_verdict_equals_the_decode_on_corrupted_variants() {
    let mut variants = 0;
    for (row, bytes) in suite() {
        let step = (bytes.len() / 97).max(1);
        for at in (0..bytes.len()).step_by(step) {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x5A;
            let truncated = &bytes[..at];
            for (what, input) in [("flipped", &flipped[..]), ("truncated", truncated)] {
                let decoded = decode(input, 0).map(|(h, _)| h);
                assert_eq!(validate(input, 0), decoded, "{} {what} at {at}", row.name);
                variants += 1;
            }
        }
    }
    eprintln!("{variants} corrupted variants checked");
}
