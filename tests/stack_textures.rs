//! The stack the texture chain alone needs (a data URL decoded in pieces,
//! fed to the PNG decoder, inflated, unfiltered and expanded; or only
//! validated through a window), with every buffer in caller memory as
//! the .bbmodel decode places it: measured on every corpus texture by
//! painting the stack (`support::stack`) as `stack_budget.rs` does. The whole .bbmodel
//! sequence must fit 16 KiB with the JSON walks above this chain, so the
//! chain holds its own budget. Run with `--release` for the figures
//! docs/c-api.md quotes.

mod support;

use scenedec::data_url::{DataUrl, PieceBuffer};
use scenedec::png::{Decoder, DecoderMemory, Header, Output, Window};

/// The chain's budget in release builds: the decode below
/// `ImageSource::decode` (the fill's and `measure_with`'s frames above it
/// are counted by `stack_budget.rs`).
const BUDGET: usize = 3 * 1024;
/// Caller memory for one image, off the measured thread's stack.
struct Memory {
    png: Box<DecoderMemory>,
    pieces: Box<PieceBuffer>,
    window: Box<Window>,
    pixels: Vec<u8>,
    scratch: Vec<u8>,
}

#[inline(never)]
fn decode(url: &DataUrl<'_>, m: &mut Memory, validate: bool) -> bool {
    let mut decoder = Decoder::new(&mut m.png);
    let mut out = if validate {
        Output::Validate(&mut m.window)
    } else {
        Output::Rgba8 {
            pixels: &mut m.pixels,
            scratch: &mut m.scratch,
        }
    };
    url.for_each_piece_in(&mut m.pieces, |p| decoder.feed(p, &mut out))
        .and_then(|()| decoder.finish(&mut out))
        .is_ok()
}

fn peak(url: &DataUrl<'_>, m: &mut Memory, validate: bool) -> (usize, bool) {
    support::stack::peak(|| decode(url, m, validate))
}

#[test]
fn every_corpus_texture_decodes_within_the_chain_budget() {
    let mut worst = (0, String::new());
    let mut decoded = 0;
    for path in support::corpus_files("bbmodel", &[".bbmodel"]) {
        let text = std::fs::read(&path).unwrap();
        let Ok(json) = serde_json::from_slice::<serde_json::Value>(&text) else {
            continue;
        };
        let Some(textures) = json["textures"].as_array() else {
            continue;
        };
        for (i, t) in textures.iter().enumerate() {
            let Some(url) = t["source"]
                .as_str()
                .and_then(|s| DataUrl::parse_png(s.as_bytes()).ok())
            else {
                continue;
            };
            let mut head = [0; scenedec::png::HEADER_LEN];
            url.decode_prefix(&mut head);
            let Ok(header) = Header::read(&head) else {
                continue;
            };
            let mut m = Memory {
                png: Box::new(DecoderMemory::new()),
                pieces: Box::new(PieceBuffer::new()),
                window: Box::new(Window::new()),
                pixels: vec![0; header.rgba8_len() as usize],
                scratch: vec![0; header.scratch_len() as usize],
            };
            for validate in [true, false] {
                let (used, ok) = peak(&url, &mut m, validate);
                let name = format!(
                    "{}[{i}] {}",
                    path.display(),
                    ["decode", "validate"][usize::from(validate)]
                );
                println!("stack {used} {name}");
                decoded += usize::from(ok);
                if used > worst.0 {
                    worst = (used, name);
                }
            }
        }
    }
    println!("worst: {} bytes, {}", worst.0, worst.1);
    if !cfg!(debug_assertions) {
        assert!(
            worst.0 <= BUDGET,
            "{} used {} bytes of stack",
            worst.1,
            worst.0
        );
    }
    assert!(decoded > 0 || support::corpus_dir().is_none());
}
