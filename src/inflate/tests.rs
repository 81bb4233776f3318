//! The inflater against miniz_oxide on made streams, and each refusal on
//! a stream built to break its rule (the corpus and PngSuite streams are
//! in `tests/inflate.rs`).

use super::*;
use crate::test_rng::XorShift;
use miniz_oxide::deflate::core::{
    CompressorOxide, TDEFLFlush, TDEFLStatus, compress, create_comp_flags_from_zip_params,
    deflate_flags,
};
use std::vec;
use std::vec::Vec;

#[path = "../../tests/support/inflate.rs"]
mod piecewise;

pub(crate) use piecewise::Window;
use piecewise::{Ending, inflate_in_pieces};

/// What a stream came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    Ok(Vec<u8>),
    Refused(InflateError),
    Truncated,
}

/// Inflates `stream` fed `piece` bytes at a time through `window`.
pub(crate) fn drive(stream: &[u8], piece: usize, window: Window) -> Verdict {
    match inflate_in_pieces(stream, piece, window, usize::MAX) {
        (out, Ending::Done) => Verdict::Ok(out),
        (_, Ending::Refused(e)) => Verdict::Refused(e),
        (_, Ending::Truncated | Ending::Long) => Verdict::Truncated,
    }
}

/// miniz_oxide's verdict in the same terms.
pub(crate) fn oracle(stream: &[u8]) -> Verdict {
    use miniz_oxide::inflate::TINFLStatus as S;
    match miniz_oxide::inflate::decompress_to_vec_zlib(stream) {
        Ok(v) => Verdict::Ok(v),
        Err(e) => match e.status {
            S::Adler32Mismatch => Verdict::Refused(InflateError::Adler32),
            S::FailedCannotMakeProgress | S::NeedsMoreInput => Verdict::Truncated,
            _ => Verdict::Refused(InflateError::BadHeader),
        },
    }
}

/// Whether two verdicts agree: the same bytes, or refused for the same
/// class of reason (miniz_oxide does not say which rule).
fn agree(ours: &Verdict, theirs: &Verdict) -> bool {
    match (ours, theirs) {
        (Verdict::Refused(InflateError::Adler32), Verdict::Refused(t)) => {
            *t == InflateError::Adler32
        }
        (Verdict::Refused(_), Verdict::Refused(t)) => *t != InflateError::Adler32,
        _ => ours == theirs,
    }
}

fn check(stream: &[u8], what: &str) {
    let theirs = oracle(stream);
    for window in [Window::Flat, Window::Slid, Window::Ring] {
        for piece in [usize::MAX, 8192, 1000, 7, 1] {
            if piece == 1 && stream.len() > 50_000 {
                continue;
            }
            let ours = drive(stream, piece, window);
            assert!(
                agree(&ours, &theirs),
                "{what}, {window:?}, pieces of {piece}: ours {:?} theirs {:?}",
                brief(&ours),
                brief(&theirs)
            );
        }
    }
}

fn brief(v: &Verdict) -> std::string::String {
    match v {
        Verdict::Ok(b) => std::format!("ok, {} bytes", b.len()),
        other => std::format!("{other:?}"),
    }
}

/// miniz_oxide's compressor at `level` (0 stored, 10 its slowest) with
/// extra `flags`.
fn zlib(data: &[u8], level: u8, flags: u32) -> Vec<u8> {
    let mut c = CompressorOxide::new(create_comp_flags_from_zip_params(level.into(), 1, 0) | flags);
    let mut out = vec![0; data.len() + data.len() / 2 + 1024];
    let (status, _, written) = compress(&mut c, data, &mut out, TDEFLFlush::Finish);
    assert_eq!(status, TDEFLStatus::Done);
    out.truncate(written);
    out
}

fn random(rng: &mut XorShift, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.next() as u8).collect()
}

fn text(rng: &mut XorShift, n: usize) -> Vec<u8> {
    const WORDS: [&str; 12] = [
        "the ",
        "cube ",
        "bone ",
        "uv ",
        "texture ",
        "pivot ",
        "of ",
        "a ",
        "face ",
        "\n",
        "origin ",
        "rotation ",
    ];
    let mut v = Vec::new();
    while v.len() < n {
        v.extend_from_slice(WORDS[rng.below(12) as usize].as_bytes());
    }
    v.truncate(n);
    v
}

/// Runs and short periods, as filtered image rows have.
fn repetitive(rng: &mut XorShift, n: usize) -> Vec<u8> {
    let mut v = Vec::new();
    while v.len() < n {
        let period = 1 + rng.below(9) as usize;
        let run = rng.below(600) as usize;
        let unit = random(rng, period);
        v.extend(unit.iter().cycle().take(run));
        let noise = rng.below(20) as usize;
        v.extend(random(rng, noise));
    }
    v.truncate(n);
    v
}

#[test]
fn streams_miniz_oxide_makes_at_every_level_inflate_to_the_same_bytes() {
    let mut rng = XorShift(0x1F2E_3D4C_5B6A_7988);
    for n in [0usize, 1, 2, 3, 100, 4095, 32_768, 32_769, 70_000, 200_000] {
        for (kind, data) in [
            ("random", random(&mut rng, n)),
            ("text", text(&mut rng, n)),
            ("repetitive", repetitive(&mut rng, n)),
        ] {
            for level in 0..=10 {
                let stream = zlib(&data, level, 0);
                assert_eq!(
                    drive(&stream, usize::MAX, Window::Slid),
                    Verdict::Ok(data.clone())
                );
                if n <= 70_000 || level % 5 == 0 {
                    check(&stream, &std::format!("{kind} {n} bytes, level {level}"));
                }
            }
        }
    }
}

#[test]
fn fixed_huffman_only_streams_inflate_to_the_same_bytes() {
    let mut rng = XorShift(77);
    for n in [0usize, 10, 5000, 100_000] {
        for data in [
            text(&mut rng, n),
            repetitive(&mut rng, n),
            random(&mut rng, n),
        ] {
            let stream = zlib(&data, 6, deflate_flags::TDEFL_FORCE_ALL_STATIC_BLOCKS);
            check(&stream, &std::format!("fixed, {n} bytes"));
            assert_eq!(drive(&stream, 3, Window::Ring), Verdict::Ok(data));
        }
    }
}

#[test]
fn stored_only_streams_inflate_to_the_same_bytes() {
    let mut rng = XorShift(5);
    for n in [0usize, 1, 65_535, 65_536, 150_000] {
        let data = random(&mut rng, n);
        let stream = zlib(&data, 0, 0);
        check(&stream, &std::format!("stored, {n} bytes"));
    }
}

/// Writes deflate bits least significant first, as the format packs them.
struct BitWriter {
    bytes: Vec<u8>,
    acc: u64,
    n: u32,
}

impl BitWriter {
    /// Starts with a zlib header.
    fn zlib() -> Self {
        Self {
            bytes: vec![0x78, 0x01],
            acc: 0,
            n: 0,
        }
    }

    fn put(&mut self, value: u32, bits: u32) -> &mut Self {
        self.acc |= u64::from(value) << self.n;
        self.n += bits;
        while self.n >= 8 {
            self.bytes.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
        self
    }

    /// A Huffman code, most significant bit first.
    fn code(&mut self, code: u32, len: u32) -> &mut Self {
        self.put(code.reverse_bits() >> (32 - len), len)
    }

    /// A fixed-code literal/length symbol.
    fn fixed(&mut self, symbol: u32) -> &mut Self {
        match symbol {
            0..=143 => self.code(0x30 + symbol, 8),
            144..=255 => self.code(0x190 + symbol - 144, 9),
            256..=279 => self.code(symbol - 256, 7),
            _ => self.code(0xC0 + symbol - 280, 8),
        }
    }

    fn align(&mut self) -> &mut Self {
        let pad = (8 - self.n % 8) % 8;
        self.put(0, pad)
    }

    /// Pads, then the Adler-32 of `data`.
    fn finish(&mut self, data: &[u8]) -> Vec<u8> {
        self.align();
        let mut a = simd_adler32::Adler32::new();
        a.write(data);
        self.bytes.extend_from_slice(&a.finish().to_be_bytes());
        self.bytes.clone()
    }

    /// A stored block of `data`.
    fn stored(&mut self, last: bool, data: &[u8]) -> &mut Self {
        self.put(u32::from(last), 3).align();
        let len = data.len() as u16;
        self.put(len.into(), 16).put((!len).into(), 16);
        self.bytes.extend_from_slice(data);
        self
    }
}

#[test]
fn a_match_of_258_at_distance_32768_reaches_the_window_edge() {
    let mut rng = XorShift(9);
    let history = random(&mut rng, 32_768);
    let mut data = history.clone();
    for _ in 0..3 {
        // Length 258 is symbol 285; distance 32768 is 29 with 13 extra bits
        // of 8191.
        let start = data.len() - 32_768;
        let copied: Vec<u8> = data[start..start + 258].to_vec();
        data.extend_from_slice(&copied);
    }
    let mut w = BitWriter::zlib();
    w.stored(false, &history);
    w.put(1 | (1 << 1), 3);
    for _ in 0..3 {
        w.fixed(285).code(29, 5).put(8191, 13);
    }
    w.fixed(256);
    let stream = w.finish(&data);
    assert_eq!(oracle(&stream), Verdict::Ok(data.clone()));
    check(&stream, "distance 32768");
}

#[test]
fn matches_crossing_the_slide_point_copy_from_before_it() {
    // Output past 64 KiB made of long matches, so some start before the
    // slide point and end after it.
    let mut rng = XorShift(3);
    let unit = random(&mut rng, 1000);
    let data: Vec<u8> = unit.iter().cycle().take(300_000).copied().collect();
    for level in [1, 6, 9] {
        check(&zlib(&data, level, 0), "long matches");
    }
}

#[test]
fn an_empty_stream_inflates_to_nothing() {
    let stream = BitWriter::zlib().put(0b011, 3).fixed(256).finish(&[]);
    assert_eq!(drive(&stream, 1, Window::Ring), Verdict::Ok(Vec::new()));
    check(&stream, "empty fixed block");
    check(&zlib(&[], 6, 0), "empty");
}

/// Our refusal, checked in every window and piece size, with miniz_oxide
/// refusing too.
fn refused(stream: &[u8], expected: InflateError) {
    for window in [Window::Flat, Window::Slid, Window::Ring] {
        for piece in [usize::MAX, 1, 5] {
            assert_eq!(
                drive(stream, piece, window),
                Verdict::Refused(expected),
                "{window:?} pieces of {piece}"
            );
        }
    }
    assert!(agree(&Verdict::Refused(expected), &oracle(stream)));
}

#[test]
fn a_bad_zlib_header_is_refused() {
    for header in [
        [0x78, 0x02],
        [0x79, 0x01],
        [0x88, 0x01 ^ 0x1D],
        [0x78, 0x20 | 0x1D],
    ] {
        let mut s = header.to_vec();
        s.extend_from_slice(&[3, 0, 0, 0, 0, 1]);
        refused(&s, InflateError::BadHeader);
    }
}

#[test]
fn block_type_3_is_refused() {
    refused(
        &BitWriter::zlib().put(0b111, 3).finish(&[]),
        InflateError::BadBlockType,
    );
}

#[test]
fn a_stored_block_whose_nlen_is_not_the_complement_is_refused() {
    let mut w = BitWriter::zlib();
    w.put(1, 3).align().put(5, 16).put(0xFFFF, 16);
    refused(&w.finish(&[]), InflateError::StoredLength);
}

#[test]
fn more_than_286_litlen_or_30_distance_codes_are_refused() {
    refused(
        &BitWriter::zlib()
            .put(0b101, 3)
            .put(30, 5)
            .put(0, 5)
            .put(0, 4)
            .finish(&[]),
        InflateError::BadTableSizes,
    );
    refused(
        &BitWriter::zlib()
            .put(0b101, 3)
            .put(0, 5)
            .put(30, 5)
            .put(0, 4)
            .finish(&[]),
        InflateError::BadTableSizes,
    );
}

/// A dynamic block header whose code-length code gives symbols 0..=18 the
/// lengths `cl` (in symbol order), followed by `body` written by the caller.
fn dynamic(hlit: u32, hdist: u32, cl: [u32; 19]) -> BitWriter {
    let mut w = BitWriter::zlib();
    w.put(0b101, 3)
        .put(hlit - 257, 5)
        .put(hdist - 1, 5)
        .put(19 - 4, 4);
    for &s in &CODELEN_ORDER {
        w.put(cl[s], 3);
    }
    w
}

/// A complete code-length code over all 19 symbols.
fn full_codelen() -> [u32; 19] {
    // 13 codes of 4 bits and 6 of 5 bits: 13/16 + 6/32 = 1.
    let mut cl = [4; 19];
    for l in cl.iter_mut().skip(13) {
        *l = 5;
    }
    cl
}

/// The canonical code of symbol `s` under `full_codelen`.
fn cl_code(s: u32) -> (u32, u32) {
    if s < 13 { (s, 4) } else { (26 + (s - 13), 5) }
}

#[test]
fn over_subscribed_and_incomplete_codes_are_refused() {
    // The code-length code itself over-subscribed: 19 codes of 1 bit.
    refused(
        &dynamic(257, 1, [1; 19]).finish(&[]),
        InflateError::BadCodeLengths,
    );
    // Incomplete code-length code: one code of 1 bit.
    let mut cl = [0; 19];
    cl[8] = 1;
    refused(
        &dynamic(257, 1, cl).finish(&[]),
        InflateError::BadCodeLengths,
    );
    // Literal/length code over-subscribed: 257 lengths of 1.
    let mut w = dynamic(257, 1, full_codelen());
    for _ in 0..258 {
        let (c, l) = cl_code(1);
        w.code(c, l);
    }
    refused(&w.finish(&[]), InflateError::BadCodeLengths);
    // Literal/length code incomplete with two codes: lengths 2 and 2.
    let mut w = dynamic(257, 1, full_codelen());
    for i in 0..258 {
        let (c, l) = cl_code(if i == 0 || i == 256 { 2 } else { 0 });
        w.code(c, l);
    }
    refused(&w.finish(&[]), InflateError::BadCodeLengths);
}

#[test]
fn a_repeat_with_nothing_before_it_or_past_the_table_sizes_is_refused() {
    let mut w = dynamic(257, 1, full_codelen());
    let (c, l) = cl_code(16);
    w.code(c, l).put(0, 2);
    refused(&w.finish(&[]), InflateError::BadCodeLengths);
    let mut w = dynamic(257, 1, full_codelen());
    for _ in 0..3 {
        let (c, l) = cl_code(18);
        w.code(c, l).put(127, 7);
    }
    refused(&w.finish(&[]), InflateError::BadCodeLengths);
}

/// A stream cut after a first repeat code but before its two extra bits
/// (found by fuzzing): refused then, as miniz_oxide does, not reported as
/// needing input.
#[test]
fn a_first_repeat_is_refused_before_its_extra_bits_arrive() {
    refused(
        &[
            0x78, 0x9c, 0xad, 0x96, 0xcd, 0x8e, 0x1b, 0x45, 0x14, 0x85, 0xff,
        ],
        InflateError::BadCodeLengths,
    );
}

#[test]
fn reserved_symbols_are_refused() {
    // Fixed literal/length 286, and fixed distance 30.
    refused(
        &BitWriter::zlib().put(0b011, 3).fixed(286).finish(&[]),
        InflateError::InvalidSymbol,
    );
    let s = BitWriter::zlib()
        .put(0b011, 3)
        .fixed(b'a'.into())
        .fixed(257)
        .code(30, 5)
        .finish(&[]);
    refused(&s, InflateError::InvalidSymbol);
}

#[test]
fn a_distance_before_the_stream_start_is_refused() {
    let s = BitWriter::zlib()
        .put(0b011, 3)
        .fixed(b'a'.into())
        .fixed(257)
        .code(1, 5)
        .fixed(256)
        .finish(b"aaa");
    refused(&s, InflateError::DistanceTooFar);
}

#[test]
fn a_wrong_adler32_is_refused() {
    let mut s = zlib(b"hello, hello, hello", 6, 0);
    *s.last_mut().unwrap() ^= 1;
    refused(&s, InflateError::Adler32);
}

#[test]
fn a_stream_cut_anywhere_needs_more_input() {
    let mut rng = XorShift(11);
    let data = text(&mut rng, 3000);
    let stream = zlib(&data, 6, 0);
    for cut in 0..stream.len() {
        assert_eq!(
            drive(&stream[..cut], 1, Window::Slid),
            Verdict::Truncated,
            "cut {cut}"
        );
        assert_eq!(
            drive(&stream[..cut], usize::MAX, Window::Ring),
            Verdict::Truncated
        );
    }
}

#[test]
fn bytes_after_the_stream_are_not_read_as_part_of_it() {
    let mut s = zlib(b"abcabcabc", 6, 0);
    s.extend_from_slice(b"trailing");
    assert_eq!(
        drive(&s, usize::MAX, Window::Slid),
        Verdict::Ok(b"abcabcabc".to_vec())
    );
}

#[test]
fn an_error_is_returned_again_on_every_later_call() {
    let mut tables = Tables::new();
    let mut inflater = Inflater::new(&mut tables);
    let mut buf = [0u8; 64];
    let p = inflater.inflate(&[0x78, 0x02], &mut buf, 0, false);
    assert_eq!(p.result, Err(InflateError::BadHeader));
    let again = inflater.inflate(&zlib(b"x", 1, 0), &mut buf, 0, false);
    assert_eq!(again.result, Err(InflateError::BadHeader));
}

#[test]
fn a_ring_shorter_than_32_kib_is_refused() {
    let mut tables = Tables::new();
    let mut inflater = Inflater::new(&mut tables);
    let mut buf = [0u8; 64];
    let p = inflater.inflate(&zlib(b"x", 1, 0), &mut buf, 0, true);
    assert_eq!(p.result, Err(InflateError::BadWindow));
}

#[test]
fn literal_pairs_are_built_only_when_the_expected_output_repays_them() {
    let mut rng = XorShift(0x5EED_0F9A);
    let data = text(&mut rng, 20_000);
    let stream = zlib(&data, 6, 0);
    let paired = |inflater: &Inflater| {
        inflater.tables.block.litlen[..1 << LITLEN_BITS]
            .iter()
            .any(|&e| kind(e) == KIND_PAIR)
    };
    for (expected, pairs) in [(None, true), (Some(0), false), (Some(20_000), true)] {
        let mut tables = Tables::new();
        let mut inflater = Inflater::new(&mut tables);
        if let Some(len) = expected {
            inflater.expect_output(len);
        }
        let mut out = vec![0u8; data.len() + 1024];
        let p = inflater.inflate(&stream, &mut out, 0, false);
        assert_eq!(p.result, Ok(Flow::Done));
        assert_eq!(out[..p.written], data[..], "expected {expected:?}");
        assert_eq!(paired(&inflater), pairs, "expected {expected:?}");
    }
}
