//! `data:image/png;base64,` texture sources, decoded as a browser decodes
//! them (Blockbench loads every texture source through the browser).
//!
//! The rules are the fetch standard's data: URL processor:
//! - the URL parser first drops every tab, line feed and carriage return
//!   and trims leading and trailing spaces and control characters; a `#`
//!   starts the fragment, which is not part of the body;
//! - the part before the first `,` must end in `;base64` (case-insensitive,
//!   spaces allowed before `base64`), and its MIME type must be `image/png`
//!   (case-insensitive, parameters allowed);
//! - the body is percent-decoded, then decoded by forgiving-base64: ASCII
//!   whitespace is removed; when the length is then a multiple of 4, one or
//!   two trailing `=` are stripped; a length ≡ 1 (mod 4) is refused; any
//!   other byte outside the standard alphabet is refused; missing padding
//!   is accepted, and the unused bits of the last symbol are not checked.
//!
//! One deviation: a head (the part before the comma) over 256 bytes is
//! refused rather than parsed, so that it can be checked on the stack.
//!
//! [`DataUrl::parse_png`] validates the whole body sixteen bytes at a time
//! (`base64.rs`): when it holds only symbols (every data URL Blockbench
//! writes) that is the whole check; otherwise a general path counts it,
//! blocks without `%` still sixteen bytes at once. Decoding then runs in
//! pieces through a buffer the caller places ([`PieceBuffer`]), sixteen
//! symbols a step, so a texture never needs its file in memory.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "positions and lengths index the input or a caller buffer (at most isize::MAX bytes) and advance by at most what was just read or checked, so they stay below usize::MAX"
)]

mod base64;

use core::fmt;
use core::ops::ControlFlow;

use base64::{Block, NOT_SYMBOL, class, decode_symbols};

/// Longest head (`data:` … `;base64`) read.
pub const MAX_HEAD_BYTES: usize = 256;
/// Base64 symbols decoded per piece by [`DataUrl::for_each_piece`].
const PIECE_SYMBOLS: usize = 4096;
/// Bytes those symbols decode to.
const PIECE_BYTES: usize = PIECE_SYMBOLS / 4 * 3;
/// Symbols a header read ([`DataUrl::decode_prefix`]) decodes per piece.
const PREFIX_SYMBOLS: usize = 64;

/// The buffers [`DataUrl::for_each_piece_in`] decodes through: a piece's
/// symbols, gathered when the body holds other bytes, and its bytes (7 KiB
/// of plain bytes, in memory the caller places rather than the stack).
#[repr(C)]
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable)]
pub struct PieceBuffer {
    symbols: [u8; PIECE_SYMBOLS],
    bytes: [u8; PIECE_BYTES],
}

impl PieceBuffer {
    /// A zeroed buffer (a `const`, for statics).
    pub const fn new() -> Self {
        Self {
            symbols: [0; PIECE_SYMBOLS],
            bytes: [0; PIECE_BYTES],
        }
    }
}

impl Default for PieceBuffer {
    fn default() -> Self {
        Self::new()
    }
}

/// What was wrong with a data URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DataUrlErrorKind {
    /// It does not start with `data:`.
    NotDataUrl,
    /// No `,` ends the head.
    NoComma,
    /// The head is over [`MAX_HEAD_BYTES`].
    HeadTooLong,
    /// The head does not end in `;base64`.
    NotBase64,
    /// The MIME type is not `image/png`.
    NotPng,
    /// After whitespace and padding are removed, the length is 1 mod 4.
    BadLength,
    /// A byte outside the base64 alphabet (or `=` not at the end).
    BadCharacter,
}

/// A refused data URL: what and at which byte of the URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DataUrlError {
    kind: DataUrlErrorKind,
    offset: usize,
}

impl DataUrlError {
    /// What was wrong.
    pub const fn kind(&self) -> DataUrlErrorKind {
        self.kind
    }

    /// Byte offset in the URL.
    pub const fn offset(&self) -> usize {
        self.offset
    }
}

impl fmt::Display for DataUrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            DataUrlErrorKind::NotDataUrl => "not a data: URL",
            DataUrlErrorKind::NoComma => "no comma after the data: URL's head",
            DataUrlErrorKind::HeadTooLong => "data: URL head over 256 bytes",
            DataUrlErrorKind::NotBase64 => "data: URL head does not end in ;base64",
            DataUrlErrorKind::NotPng => "data: URL MIME type is not image/png",
            DataUrlErrorKind::BadLength => "base64 length is 1 mod 4",
            DataUrlErrorKind::BadCharacter => "byte outside the base64 alphabet",
        };
        write!(f, "{what} at byte {}", self.offset)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DataUrlError {}

/// A checked `data:image/png;base64,` URL: its body, valid throughout.
#[derive(Clone, Copy, Debug)]
pub struct DataUrl<'a> {
    /// The body: after the comma, before any fragment, trimmed, and (when
    /// `plain`) without its padding.
    body: &'a [u8],
    /// The body holds only alphabet symbols (no `%`, no whitespace).
    plain: bool,
    /// Base64 symbols in the body once decoded of `%` and whitespace, less padding.
    symbols: usize,
}

fn err(kind: DataUrlErrorKind, offset: usize) -> DataUrlError {
    DataUrlError { kind, offset }
}

impl<'a> DataUrl<'a> {
    /// Checks the head and validates the whole body, computing the exact
    /// decoded length.
    pub fn parse_png(raw: &'a [u8]) -> Result<DataUrl<'a>, DataUrlError> {
        use DataUrlErrorKind as K;
        // The URL parser trims leading and trailing C0 controls and spaces.
        let lead = raw.iter().take_while(|&&b| b <= b' ').count();
        let raw = raw.get(lead..).unwrap_or_default();
        let comma = raw
            .iter()
            .position(|&b| b == b',')
            .ok_or(err(K::NoComma, lead))?;
        let (head, rest) = raw.split_at(comma);
        check_head(head).map_err(|k| err(k, lead))?;
        let body_start = lead + comma + 1;
        let body = trim_end(rest.get(1..).unwrap_or_default());
        // The fast path, one pass: the body is the symbols and its padding.
        let stripped = strip_padding(body, body.len());
        if all_symbols(stripped) {
            if stripped.len() % 4 == 1 {
                return Err(err(K::BadLength, body_start));
            }
            return Ok(DataUrl {
                body: stripped,
                plain: true,
                symbols: stripped.len(),
            });
        }
        // The general path: a fragment, percent-decoding and whitespace (a
        // body with none of them but a byte outside the alphabet takes it
        // too, and is refused where the fast path would refuse it).
        let body = trim_end(body.get(..fragment_start(body)).unwrap_or(body));
        let Census {
            total,
            last,
            before_last,
            outside,
        } = census(body);
        let padding = if total.is_multiple_of(4) {
            usize::from(last == b'=') + usize::from(last == b'=' && before_last == b'=')
        } else {
            0
        };
        let symbols = total - padding;
        // The padding bytes are outside the alphabet: any other byte that is
        // stands among the symbols.
        if outside > padding {
            let at = effective(body)
                .take(symbols)
                .find(|&(_, b)| class(b) & NOT_SYMBOL != 0)
                .map_or(0, |(at, _)| at);
            return Err(err(K::BadCharacter, body_start + at));
        }
        if symbols % 4 == 1 {
            return Err(err(K::BadLength, body_start));
        }
        Ok(DataUrl {
            body,
            plain: false,
            symbols,
        })
    }

    /// Bytes the body decodes to.
    pub fn decoded_len(&self) -> usize {
        self.symbols / 4 * 3 + (self.symbols % 4) * 3 / 4
    }

    /// Decodes the first `out.len()` bytes (for `png::Header::read`);
    /// returns how many were written.
    pub fn decode_prefix(&self, out: &mut [u8]) -> usize {
        let mut written = 0;
        let wanted = out.len().div_ceil(3) * 4;
        let (mut symbols, mut bytes) = ([0; PREFIX_SYMBOLS], [0; PREFIX_SYMBOLS / 4 * 3]);
        let _ = self.walk(wanted, &mut symbols, &mut bytes, |piece| {
            let room = out.get_mut(written..).unwrap_or_default();
            let n = room.len().min(piece.len());
            if let (Some(dst), Some(src)) = (room.get_mut(..n), piece.get(..n)) {
                dst.copy_from_slice(src);
            }
            written += n;
            if written == out.len() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        written
    }

    /// Decodes the whole body in pieces through a [`PieceBuffer`] on the
    /// stack (7 KiB; [`DataUrl::for_each_piece_in`] takes the caller's),
    /// handing each piece to `f` (to feed the PNG decoder without holding
    /// the file).
    pub fn for_each_piece<E>(&self, f: impl FnMut(&[u8]) -> Result<(), E>) -> Result<(), E> {
        self.for_each_piece_in(&mut PieceBuffer::new(), f)
    }

    /// [`DataUrl::for_each_piece`] through the caller's `buffer`.
    pub fn for_each_piece_in<E>(
        &self,
        buffer: &mut PieceBuffer,
        mut f: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let PieceBuffer { symbols, bytes } = buffer;
        match self.walk(self.symbols, symbols, bytes, |piece| match f(piece) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => ControlFlow::Break(e),
        }) {
            ControlFlow::Break(e) => Err(e),
            ControlFlow::Continue(()) => Ok(()),
        }
    }

    /// Decodes the first `limit` symbols (or all) piece by piece until
    /// `f` breaks: pieces of `symbols.len()` symbols (a multiple of 16),
    /// decoded into `out` (three quarters of that).
    fn walk<B>(
        &self,
        limit: usize,
        symbols: &mut [u8],
        out: &mut [u8],
        mut f: impl FnMut(&[u8]) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let piece = symbols.len().max(16);
        let limit = limit.min(self.symbols);
        if self.plain {
            let body = self.body.get(..limit).unwrap_or(self.body);
            for chunk in body.chunks(piece) {
                let n = decode_symbols(chunk, out);
                f(out.get(..n).unwrap_or_default())?;
            }
            return ControlFlow::Continue(());
        }
        let mut at = 0;
        let mut left = limit;
        while left > 0 {
            let room = symbols.get_mut(..left.min(piece)).unwrap_or_default();
            let held = compact(self.body, &mut at, room);
            if held == 0 {
                break;
            }
            left -= held;
            let n = decode_symbols(symbols.get(..held).unwrap_or_default(), out);
            f(out.get(..n).unwrap_or_default())?;
        }
        ControlFlow::Continue(())
    }
}

/// Checks `data:` … `;base64` and the MIME type image/png.
fn check_head(head: &[u8]) -> Result<(), DataUrlErrorKind> {
    use DataUrlErrorKind as K;
    if head.len() > MAX_HEAD_BYTES {
        return Err(K::HeadTooLong);
    }
    // The URL parser drops tabs and newlines anywhere.
    let mut buf = [0u8; MAX_HEAD_BYTES];
    let mut len = 0;
    for &b in head
        .iter()
        .filter(|&&b| !matches!(b, b'\t' | b'\n' | b'\r'))
    {
        if let Some(slot) = buf.get_mut(len) {
            *slot = b.to_ascii_lowercase();
            len += 1;
        }
    }
    let head = buf.get(..len).unwrap_or_default();
    let mime = head.strip_prefix(b"data:").ok_or(K::NotDataUrl)?;
    let mime = mime.trim_ascii();
    let mime = mime.strip_suffix(b"base64").ok_or(K::NotBase64)?;
    let mime = mime.trim_ascii_end();
    let mime = mime.strip_suffix(b";").ok_or(K::NotBase64)?;
    let essence = mime.split(|&b| b == b';').next().unwrap_or_default();
    if essence.trim_ascii() != b"image/png" {
        return Err(K::NotPng);
    }
    Ok(())
}

/// Without the trailing spaces and control characters the URL parser trims.
fn trim_end(body: &[u8]) -> &[u8] {
    let trail = body.iter().rev().take_while(|&&b| b <= b' ').count();
    body.get(..body.len() - trail).unwrap_or_default()
}

/// Forgiving-base64's padding rule: when `len` (the length without
/// whitespace) is a multiple of 4, one or two trailing `=` go.
fn strip_padding(body: &[u8], len: usize) -> &[u8] {
    if !len.is_multiple_of(4) {
        return body;
    }
    let body = body.strip_suffix(b"=").unwrap_or(body);
    if body.len() < len {
        body.strip_suffix(b"=").unwrap_or(body)
    } else {
        body
    }
}

/// True when every byte is a base64 symbol, sixteen at a time.
fn all_symbols(bytes: &[u8]) -> bool {
    let (blocks, tail) = bytes.as_chunks::<16>();
    blocks.iter().all(|b| base64::symbols(b) == 0xFFFF)
        && tail.iter().all(|&b| class(b) & NOT_SYMBOL == 0)
}

/// Where the fragment (`#`) starts, or the body's length.
fn fragment_start(body: &[u8]) -> usize {
    let (blocks, _) = body.as_chunks::<16>();
    let mut from = 0;
    for (k, b) in blocks.iter().enumerate() {
        if base64::equal(b, b'#') != 0 {
            from = 16 * k;
            break;
        }
        from = 16 * (k + 1);
    }
    body.get(from..)
        .and_then(|rest| rest.iter().position(|&b| b == b'#'))
        .map_or(body.len(), |i| from + i)
}

/// What the general path needs to know of a body before checking it.
struct Census {
    /// Bytes after percent-decoding and whitespace removal.
    total: usize,
    /// The last of them, and the one before (0 when absent).
    last: u8,
    before_last: u8,
    /// How many of them are outside the alphabet.
    outside: usize,
}

/// Counts the body's effective bytes (those [`effective`] yields): a block
/// without `%` sixteen bytes at once through its masks, from a `%` on byte
/// by byte until a block has none again.
fn census(body: &[u8]) -> Census {
    let mut c = Census {
        total: 0,
        last: 0,
        before_last: 0,
        outside: 0,
    };
    let mut at = 0;
    loop {
        let block: Option<&Block> = body.get(at..).and_then(|r| r.first_chunk());
        if let Some(block) = block {
            let symbols = base64::symbols(block);
            // The bytes that stay, unless a `%` may change them.
            let kept = if symbols == 0xFFFF {
                Some(0xFFFF)
            } else if base64::equal(block, b'%') == 0 {
                Some(0xFFFF & !base64::whitespace(block))
            } else {
                None
            };
            if let Some(kept) = kept {
                c.total += kept.count_ones() as usize;
                c.outside += (kept & !symbols).count_ones() as usize;
                let byte = |k: u32| block.get(k as usize).copied().unwrap_or(0);
                if let Some(k) = kept.checked_ilog2() {
                    c.before_last = match (kept & !(1 << k)).checked_ilog2() {
                        Some(j) => byte(j),
                        None => c.last,
                    };
                    c.last = byte(k);
                }
                at += 16;
                continue;
            }
        }
        let Some((used, b)) = effective_at(body, at) else {
            return c;
        };
        at += used;
        if let Some(b) = b {
            c.total += 1;
            c.outside += usize::from(class(b) & NOT_SYMBOL != 0);
            (c.before_last, c.last) = (c.last, b);
        }
    }
}

/// Copies the effective bytes of `body` from `*at` on (those [`effective`]
/// yields) into `out` until it is full or the body ends; returns how many
/// it wrote and moves `*at` past what it read. Runs of symbols are copied
/// sixteen bytes at a time; only a block holding another byte goes byte
/// by byte, from that byte on.
fn compact(body: &[u8], at: &mut usize, out: &mut [u8]) -> usize {
    let mut n = 0;
    while n < out.len() {
        let block: Option<&Block> = body.get(*at..).and_then(|r| r.first_chunk());
        if let (Some(block), Some(dst)) = (block, out.get_mut(n..n + 16)) {
            let run = base64::symbols(block).trailing_ones() as usize;
            // The whole block is copied (a fixed-size copy, not a call);
            // only its leading symbols count, the rest is overwritten.
            dst.copy_from_slice(block);
            n += run;
            *at += run;
            if run == 16 {
                continue;
            }
        }
        let Some((used, b)) = effective_at(body, *at) else {
            break;
        };
        *at += used;
        if let Some(b) = b {
            if let Some(slot) = out.get_mut(n) {
                *slot = b;
            }
            n += 1;
        }
    }
    n
}

/// The byte at `i` after percent-decoding: how many body bytes it takes,
/// and the byte, or `None` when it is ASCII whitespace (dropped).
fn effective_at(body: &[u8], i: usize) -> Option<(usize, Option<u8>)> {
    let b = *body.get(i)?;
    let (used, b) = if b == b'%' {
        let hex = |k: usize| body.get(k).and_then(|&h| char::from(h).to_digit(16));
        match (hex(i + 1), hex(i + 2)) {
            (Some(hi), Some(lo)) => (3, u8::try_from(hi * 16 + lo).unwrap_or(0)),
            _ => (1, b),
        }
    } else {
        (1, b)
    };
    let kept = !matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ');
    Some((used, kept.then_some(b)))
}

/// The body's bytes percent-decoded, ASCII whitespace dropped, each with
/// the offset (in the body) where it starts.
fn effective(body: &[u8]) -> impl Iterator<Item = (usize, u8)> + '_ {
    let mut i = 0;
    core::iter::from_fn(move || {
        loop {
            let at = i;
            let (used, b) = effective_at(body, i)?;
            i += used;
            if let Some(b) = b {
                return Some((at, b));
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    fn decoded(url: &str) -> Result<Vec<u8>, DataUrlErrorKind> {
        let d = DataUrl::parse_png(url.as_bytes()).map_err(|e| e.kind())?;
        let mut out = Vec::new();
        d.for_each_piece(|p| {
            out.extend_from_slice(p);
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(out.len(), d.decoded_len(), "{url}");
        Ok(out)
    }

    #[test]
    fn head_must_be_data_image_png_base64_in_any_case_with_parameters() {
        assert_eq!(decoded("data:image/png;base64,TWFu").unwrap(), b"Man");
        assert!(decoded("DATA:Image/PNG;BASE64,TWFu").is_ok());
        assert!(decoded("data:image/png;name=a.png;base64,TWFu").is_ok());
        assert!(decoded("data:image/png; base64,TWFu").is_ok());
        assert!(decoded(" \tdata:image/png;ba\nse64,TWFu").is_ok());
        assert_eq!(
            decoded("data:image/jpeg;base64,TWFu"),
            Err(DataUrlErrorKind::NotPng)
        );
        assert_eq!(
            decoded("data:image/png,TWFu"),
            Err(DataUrlErrorKind::NotBase64)
        );
        assert_eq!(
            decoded("blob:image/png;base64,TWFu"),
            Err(DataUrlErrorKind::NotDataUrl)
        );
        assert_eq!(
            decoded("data:image/png;base64"),
            Err(DataUrlErrorKind::NoComma)
        );
    }

    #[test]
    fn ascii_whitespace_is_removed_anywhere_in_the_body() {
        assert_eq!(
            decoded("data:image/png;base64,TW\nF u\r\n").unwrap(),
            b"Man"
        );
        assert_eq!(decoded("data:image/png;base64,T\tWE=").unwrap(), b"Ma");
    }

    #[test]
    fn the_body_is_percent_decoded_first() {
        assert_eq!(decoded("data:image/png;base64,TW%46u").unwrap(), b"Man");
        assert_eq!(decoded("data:image/png;base64,TWE%3D").unwrap(), b"Ma");
        assert_eq!(decoded("data:image/png;base64,TW%20Fu").unwrap(), b"Man");
        assert_eq!(
            decoded("data:image/png;base64,TW%4Fu%"),
            Err(DataUrlErrorKind::BadCharacter)
        );
    }

    #[test]
    fn one_or_two_trailing_equals_go_only_when_the_length_is_a_multiple_of_4() {
        assert_eq!(decoded("data:image/png;base64,TQ==").unwrap(), b"M");
        assert_eq!(decoded("data:image/png;base64,TWE=").unwrap(), b"Ma");
        assert_eq!(
            decoded("data:image/png;base64,TQ="),
            Err(DataUrlErrorKind::BadCharacter)
        );
        assert_eq!(
            decoded("data:image/png;base64,T==="),
            Err(DataUrlErrorKind::BadCharacter)
        );
        assert_eq!(
            decoded("data:image/png;base64,TW=u"),
            Err(DataUrlErrorKind::BadCharacter)
        );
    }

    #[test]
    fn missing_padding_is_accepted_and_length_1_mod_4_is_refused() {
        assert_eq!(decoded("data:image/png;base64,TQ").unwrap(), b"M");
        assert_eq!(decoded("data:image/png;base64,TWE").unwrap(), b"Ma");
        assert_eq!(
            decoded("data:image/png;base64,TWFuT"),
            Err(DataUrlErrorKind::BadLength)
        );
        assert_eq!(decoded("data:image/png;base64,").unwrap(), b"");
    }

    #[test]
    fn unused_bits_of_the_last_symbol_are_not_checked() {
        assert_eq!(decoded("data:image/png;base64,TR").unwrap(), b"M");
    }

    #[test]
    fn bytes_outside_the_alphabet_are_refused_at_their_offset() {
        let e = DataUrl::parse_png(b"data:image/png;base64,TW!u").unwrap_err();
        assert_eq!((e.kind(), e.offset()), (DataUrlErrorKind::BadCharacter, 24));
        assert_eq!(
            decoded("data:image/png;base64,TW-u"),
            Err(DataUrlErrorKind::BadCharacter)
        );
    }

    #[test]
    fn a_fragment_is_not_part_of_the_body() {
        assert_eq!(decoded("data:image/png;base64,TWFu#TWFu").unwrap(), b"Man");
    }

    #[test]
    fn prefix_decoding_stops_at_the_buffer() {
        let d = DataUrl::parse_png(b"data:image/png;base64,TWFuTWFu").unwrap();
        let mut out = [0u8; 4];
        assert_eq!(d.decode_prefix(&mut out), 4);
        assert_eq!(&out, b"ManM");
        let mut big = [0u8; 10];
        assert_eq!(d.decode_prefix(&mut big), 6);
    }

    /// Forgiving-base64 as the standard states it, byte by byte over
    /// [`effective`]: the rule the block paths must agree with.
    fn reference(url: &[u8]) -> Result<Vec<u8>, (DataUrlErrorKind, usize)> {
        let comma = url.iter().position(|&b| b == b',').unwrap() + 1;
        let body = trim_end(&url[comma..]);
        let body = trim_end(body.split(|&b| b == b'#').next().unwrap());
        let bytes: Vec<(usize, u8)> = effective(body).collect();
        let total = bytes.len();
        let mut symbols = total;
        if total.is_multiple_of(4) && bytes.last().is_some_and(|b| b.1 == b'=') {
            symbols -= 1;
            if bytes[symbols - 1].1 == b'=' {
                symbols -= 1;
            }
        }
        if let Some(&(at, _)) = bytes[..symbols]
            .iter()
            .find(|(_, b)| class(*b) & NOT_SYMBOL != 0)
        {
            return Err((DataUrlErrorKind::BadCharacter, comma + at));
        }
        if symbols % 4 == 1 {
            return Err((DataUrlErrorKind::BadLength, comma));
        }
        let (mut acc, mut bits, mut out) = (0u32, 0, Vec::new());
        for &(_, c) in &bytes[..symbols] {
            acc = (acc << 6) | u32::from(class(c));
            bits += 6;
            if bits >= 8 {
                bits -= 8;
                out.push((acc >> bits) as u8);
            }
        }
        Ok(out)
    }

    fn ours(url: &[u8]) -> Result<Vec<u8>, (DataUrlErrorKind, usize)> {
        let d = DataUrl::parse_png(url).map_err(|e| (e.kind(), e.offset()))?;
        let mut out = Vec::new();
        d.for_each_piece(|p| {
            out.extend_from_slice(p);
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(out.len(), d.decoded_len());
        let mut prefix = [0u8; 33];
        let n = d.decode_prefix(&mut prefix);
        assert_eq!(prefix[..n], out[..n.min(out.len())]);
        Ok(out)
    }

    fn random_url(rng: &mut crate::test_rng::XorShift, symbols: usize) -> Vec<u8> {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut url = b"data:image/png;base64,".to_vec();
        url.extend((0..symbols).map(|_| ALPHABET[rng.below(64) as usize]));
        url
    }

    /// The fast path (all symbols, sixteen a step) and the general path
    /// (percent-decoding, whitespace) give what the byte rule gives, with
    /// an odd byte at every position of a block and across piece ends.
    #[test]
    fn block_paths_agree_with_the_byte_rule_at_every_position() {
        let mut rng = crate::test_rng::XorShift(0x5EED);
        let odd: [&[u8]; 9] = [
            b" ", b"\n", b"\r\n", b"%41", b"%2", b"!", b"=", b"\x80", b"%20",
        ];
        for len in [
            0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 48, 4095, 4096, 4097, 9000,
        ] {
            let url = random_url(&mut rng, len);
            assert_eq!(ours(&url), reference(&url), "plain, {len} symbols");
            for padded in [&b"="[..], b"=="] {
                let mut p = url.clone();
                p.extend_from_slice(padded);
                assert_eq!(ours(&p), reference(&p), "{len} + padding");
            }
        }
        let head = b"data:image/png;base64,".len();
        for len in [40, 64, 4100] {
            let url = random_url(&mut rng, len);
            for at in (head..head + 40).chain(head + 4080..(head + 4100).min(url.len())) {
                for o in odd {
                    let mut u = url[..at].to_vec();
                    u.extend_from_slice(o);
                    u.extend_from_slice(&url[at..]);
                    assert_eq!(ours(&u), reference(&u), "{o:?} at {at} of {len}");
                }
            }
        }
    }

    #[test]
    fn line_broken_bodies_decode_as_unbroken_ones() {
        let mut rng = crate::test_rng::XorShift(77);
        for len in [76, 1000, 10_000] {
            let url = random_url(&mut rng, len * 4);
            let head = b"data:image/png;base64,".len();
            let mut broken = url[..head].to_vec();
            for line in url[head..].chunks(76) {
                broken.extend_from_slice(line);
                broken.extend_from_slice(b"\r\n");
            }
            assert_eq!(ours(&broken), ours(&url));
            assert_eq!(ours(&broken), reference(&url));
        }
    }
}
