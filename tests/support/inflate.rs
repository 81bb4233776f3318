//! Drives `scenedec::inflate` over a whole zlib stream the way the PNG
//! decoder does (input in pieces, a slid 64 KiB window or a 32 KiB ring),
//! and miniz_oxide over the same stream, with verdicts that compare. The
//! inflater's unit tests, `tests/inflate.rs` and the fuzz targets share it,
//! so every one of them drives the inflater the same way.

#![allow(dead_code)]

use scenedec::inflate::{Flow, InflateError, Inflater, MAX_DISTANCE, Tables};
use std::vec;
use std::vec::Vec;

/// How the output window is handed over.
#[derive(Clone, Copy, Debug)]
pub enum Window {
    /// 64 KiB slid back by 32 KiB when full (a PNG decode).
    Slid,
    /// A 32 KiB ring (a PNG validation).
    Ring,
    /// One 16 MiB buffer, never slid: a stream that fills it is cut.
    Flat,
}

/// What a stream came to (its output cut at `limit` bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The stream ended with a matching Adler-32.
    Ok(Vec<u8>),
    /// At least `limit` bytes came out before either end.
    Long(Vec<u8>),
    /// Refused; miniz_oxide says only whether for its Adler-32.
    Refused { adler32: bool },
    /// The input ended first.
    Truncated,
}

/// How a piecewise inflate ended, with the output so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The stream ended with a matching Adler-32.
    Done,
    /// At least `limit` bytes came out before either end.
    Long,
    /// The inflater refused the stream.
    Refused(InflateError),
    /// The input (or a flat window) ran out first.
    Truncated,
}

/// Inflates `stream` fed `piece` bytes at a time through `window`,
/// stopping once `limit` bytes are out, and checks the inflater's flow
/// promises on the way (full only when the window is, more input asked
/// for only when all of it was taken).
pub fn inflate_in_pieces(
    stream: &[u8],
    piece: usize,
    window: Window,
    limit: usize,
) -> (Vec<u8>, Ending) {
    let ring = matches!(window, Window::Ring);
    let mut buf = vec![
        0u8;
        match window {
            Window::Slid => 2 * MAX_DISTANCE,
            Window::Ring => MAX_DISTANCE,
            Window::Flat => 1 << 24,
        }
    ];
    let mut at = 0;
    let mut out = Vec::new();
    let mut tables = Tables::new();
    let mut inflater = Inflater::new(&mut tables);
    let mut pieces = stream.chunks(piece.max(1));
    let mut input: &[u8] = pieces.next().unwrap_or_default();
    loop {
        if at == buf.len() {
            match window {
                Window::Slid => {
                    buf.copy_within(MAX_DISTANCE.., 0);
                    at = MAX_DISTANCE;
                }
                Window::Ring => at = 0,
                Window::Flat => return (out, Ending::Truncated),
            }
        }
        let p = inflater.inflate(input, &mut buf, at, ring);
        out.extend_from_slice(&buf[at..at + p.written]);
        at += p.written;
        input = &input[p.used..];
        if out.len() >= limit {
            out.truncate(limit);
            return (out, Ending::Long);
        }
        match p.result {
            Err(e) => return (out, Ending::Refused(e)),
            Ok(Flow::Done) => return (out, Ending::Done),
            Ok(Flow::OutputFull) => assert_eq!(at, buf.len(), "output full before the end"),
            Ok(Flow::NeedsInput) => {
                assert!(input.is_empty(), "input left when asking for more");
                match pieces.next() {
                    Some(next) => input = next,
                    None => return (out, Ending::Truncated),
                }
            }
        }
    }
}

/// [`inflate_in_pieces`] in the terms miniz_oxide's verdict can be
/// compared in.
pub fn ours(stream: &[u8], piece: usize, window: Window, limit: usize) -> Verdict {
    match inflate_in_pieces(stream, piece, window, limit) {
        (out, Ending::Done) => Verdict::Ok(out),
        (out, Ending::Long) => Verdict::Long(out),
        (_, Ending::Refused(e)) => Verdict::Refused {
            adler32: e == InflateError::Adler32,
        },
        (_, Ending::Truncated) => Verdict::Truncated,
    }
}

/// miniz_oxide's verdict on `stream`, its output cut at `limit` bytes.
/// Built for fuzzing, miniz_oxide skips the Adler-32 comparison, so the
/// trailer is compared here (after the bytes it says it consumed).
pub fn miniz(stream: &[u8], limit: usize) -> Verdict {
    use miniz_oxide::inflate::TINFLStatus as S;
    use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags::*};
    let mut out = vec![0u8; limit.min(1 << 26)];
    let mut d = DecompressorOxide::new();
    let flags = TINFL_FLAG_PARSE_ZLIB_HEADER
        | TINFL_FLAG_COMPUTE_ADLER32
        | TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    let (status, used, written) = decompress(&mut d, stream, &mut out, 0, flags);
    out.truncate(written);
    match status {
        S::Done if written >= limit => Verdict::Long(out),
        S::Done => {
            let trailer = stream
                .get(used.saturating_sub(4)..used)
                .and_then(|t| t.try_into().ok())
                .map(u32::from_be_bytes);
            if trailer == Some(adler32(&out)) {
                Verdict::Ok(out)
            } else {
                Verdict::Refused { adler32: true }
            }
        }
        S::HasMoreOutput => Verdict::Long(out),
        S::Adler32Mismatch => Verdict::Refused { adler32: true },
        S::FailedCannotMakeProgress | S::NeedsMoreInput => Verdict::Truncated,
        _ => Verdict::Refused { adler32: false },
    }
}

/// Adler-32 (RFC 1950), the plain way.
fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(5552) {
        for &x in chunk {
            a += u32::from(x);
            b += a;
        }
        a %= 65521;
        b %= 65521;
    }
    b << 16 | a
}
