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
//! [`DataUrl::parse_png`] validates the whole body in one branch-free pass
//! over its bytes when it holds no `%`, `#` or whitespace (every data URL
//! Blockbench writes), and byte by byte otherwise; decoding then runs in
//! pieces through a stack buffer, so a texture never needs its file in
//! memory.

use core::fmt;
use core::ops::ControlFlow;

/// Longest head (`data:` … `;base64`) read.
pub const MAX_HEAD_BYTES: usize = 256;
/// Base64 symbols decoded per piece by [`DataUrl::for_each_piece`].
const PIECE_SYMBOLS: usize = 4096;

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

/// [`CLASS`]'s marks beside a symbol's 6-bit value.
const NOT_SYMBOL: u8 = 0x80;
const SKIPPED: u8 = 0x40;

/// Each byte's base64 value, or NOT_SYMBOL, with SKIPPED added for the
/// bytes the slow path handles (`%`, `#` and ASCII whitespace).
const CLASS: [u8; 256] = {
    let mut t = [NOT_SYMBOL; 256];
    let mut i = 0u8;
    while i < 26 {
        t[(b'A' + i) as usize] = i;
        t[(b'a' + i) as usize] = i + 26;
        i += 1;
    }
    let mut d = 0u8;
    while d < 10 {
        t[(b'0' + d) as usize] = d + 52;
        d += 1;
    }
    t[b'+' as usize] = 62;
    t[b'/' as usize] = 63;
    let skipped = [b'%', b'#', b'\t', b'\n', 0x0C, b'\r', b' '];
    let mut k = 0;
    while k < skipped.len() {
        t[skipped[k] as usize] = NOT_SYMBOL | SKIPPED;
        k += 1;
    }
    t
};

fn class(b: u8) -> u8 {
    CLASS[usize::from(b)]
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
        let marks = stripped.iter().fold(0u8, |acc, &b| acc | class(b));
        if marks & SKIPPED == 0 {
            if marks & NOT_SYMBOL != 0 {
                let at = stripped
                    .iter()
                    .position(|&b| class(b) & NOT_SYMBOL != 0)
                    .unwrap_or(0);
                return Err(err(K::BadCharacter, body_start + at));
            }
            if stripped.len() % 4 == 1 {
                return Err(err(K::BadLength, body_start));
            }
            return Ok(DataUrl {
                body: stripped,
                plain: true,
                symbols: stripped.len(),
            });
        }
        // The slow path: a fragment, percent-decoding and whitespace, byte by byte.
        let body = trim_end(body.split(|&b| b == b'#').next().unwrap_or_default());
        let total = effective(body).count();
        let (mut last, mut before_last) = (0u8, 0u8);
        for (_, b) in effective(body) {
            before_last = last;
            last = b;
        }
        let padding = if total.is_multiple_of(4) {
            usize::from(last == b'=') + usize::from(last == b'=' && before_last == b'=')
        } else {
            0
        };
        let symbols = total - padding;
        if let Some((at, _)) = effective(body)
            .take(symbols)
            .find(|&(_, b)| class(b) & NOT_SYMBOL != 0)
        {
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
        let _ = self.walk(|piece| {
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

    /// Decodes the whole body in pieces through a stack buffer, handing
    /// each piece to `f` (to feed the PNG decoder without holding the file).
    pub fn for_each_piece<E>(&self, mut f: impl FnMut(&[u8]) -> Result<(), E>) -> Result<(), E> {
        match self.walk(|piece| match f(piece) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => ControlFlow::Break(e),
        }) {
            ControlFlow::Break(e) => Err(e),
            ControlFlow::Continue(()) => Ok(()),
        }
    }

    /// Decodes piece by piece until `f` breaks.
    fn walk<B>(&self, mut f: impl FnMut(&[u8]) -> ControlFlow<B>) -> ControlFlow<B> {
        let mut out = [0u8; PIECE_SYMBOLS / 4 * 3];
        if self.plain {
            for chunk in self.body.chunks(PIECE_SYMBOLS) {
                let n = decode_symbols(chunk, &mut out);
                f(out.get(..n).unwrap_or_default())?;
            }
            return ControlFlow::Continue(());
        }
        let mut symbols = [0u8; PIECE_SYMBOLS];
        let mut held = 0;
        for (_, b) in effective(self.body).take(self.symbols) {
            if let Some(slot) = symbols.get_mut(held) {
                *slot = b;
            }
            held += 1;
            if held == PIECE_SYMBOLS {
                let n = decode_symbols(&symbols, &mut out);
                f(out.get(..n).unwrap_or_default())?;
                held = 0;
            }
        }
        if held > 0 {
            let n = decode_symbols(symbols.get(..held).unwrap_or_default(), &mut out);
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

/// The body's bytes percent-decoded, ASCII whitespace dropped, each with
/// the offset (in the body) where it starts.
fn effective(body: &[u8]) -> impl Iterator<Item = (usize, u8)> + '_ {
    let mut i = 0;
    core::iter::from_fn(move || {
        loop {
            let at = i;
            let b = *body.get(i)?;
            i += 1;
            let b = if b == b'%' {
                let hex = |k: usize| body.get(k).and_then(|&h| char::from(h).to_digit(16));
                match (hex(i), hex(i + 1)) {
                    (Some(hi), Some(lo)) => {
                        i += 2;
                        u8::try_from(hi * 16 + lo).unwrap_or(0)
                    }
                    _ => b,
                }
            } else {
                b
            };
            if !matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ') {
                return Some((at, b));
            }
        }
    })
}

/// Decodes base64 symbols (all in the alphabet; the last group may hold 2
/// or 3) into `out`; returns the bytes written.
fn decode_symbols(symbols: &[u8], out: &mut [u8]) -> usize {
    let (groups, tail) = symbols.as_chunks::<8>();
    let (outs, _) = out.as_chunks_mut::<6>();
    let mut written = 0;
    for (g, o) in groups.iter().zip(outs) {
        let v = g
            .iter()
            .fold(0u64, |acc, &c| (acc << 6) | u64::from(class(c) & 0x3F));
        let [_, _, b0, b1, b2, b3, b4, b5] = v.to_be_bytes();
        *o = [b0, b1, b2, b3, b4, b5];
        written += 6;
    }
    let mut acc = 0u32;
    let mut bits = 0;
    for &c in tail {
        acc = (acc << 6) | u32::from(class(c) & 0x3F);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            if let Some(slot) = out.get_mut(written) {
                *slot = (acc >> bits).to_le_bytes()[0];
            }
            written += 1;
        }
    }
    written
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
}
