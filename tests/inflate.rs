//! The inflater against miniz_oxide on every real zlib stream at hand:
//! each corpus texture's and each valid PngSuite image's IDAT run, through
//! the slid window a decode uses and the ring a validation uses, whole and
//! in pieces (the made and malformed streams are in `src/inflate/tests.rs`).

#[path = "support/inflate.rs"]
mod inflate_support;
#[path = "support/png_corpus.rs"]
mod png_corpus;

use inflate_support::{Verdict, Window, miniz, ours};

/// The IDAT chunks' data of a PNG file, joined: its zlib stream.
fn idat_stream(png: &[u8]) -> Vec<u8> {
    let mut at = 8;
    let mut out = Vec::new();
    while at + 8 <= png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
        if &png[at + 4..at + 8] == b"IDAT" {
            out.extend_from_slice(&png[at + 8..(at + 8 + len).min(png.len())]);
        }
        at += 12 + len;
    }
    out
}

/// Every stream inflates to miniz_oxide's bytes in every window and
/// piece size; returns how many were checked.
fn same_as_miniz(files: &[(String, Vec<u8>)]) -> usize {
    for (name, png) in files {
        let stream = idat_stream(png);
        let theirs = miniz(&stream, usize::MAX);
        assert!(
            matches!(theirs, Verdict::Ok(_)),
            "{name}: miniz_oxide refuses it"
        );
        for window in [Window::Slid, Window::Ring] {
            for piece in [usize::MAX, 8192, 61, 1] {
                if piece == 1 && stream.len() > 20_000 {
                    continue;
                }
                let mine = ours(&stream, piece, window, usize::MAX);
                assert!(mine == theirs, "{name}: {window:?}, pieces of {piece}");
            }
        }
    }
    files.len()
}

#[test]
fn every_corpus_texture_stream_inflates_as_miniz_oxide_does() {
    let n = same_as_miniz(&png_corpus::corpus_textures());
    eprintln!("{n} corpus texture streams");
}

#[test]
fn every_pngsuite_stream_inflates_as_miniz_oxide_does() {
    let files = png_corpus::pngsuite_valid();
    if files.is_empty() {
        eprintln!("SKIPPED: no PngSuite");
        return;
    }
    assert!(same_as_miniz(&files) >= 150);
}
