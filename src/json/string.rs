//! String lexing (resumable, sixteen bytes at a time where it can) and the [`JsonStr`] token payload.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "bit tricks on u64 words (SWAR) and positions below the input's length; every shift and product is by constants that keep within the word"
)]

use super::classify::{self, is_string_special};
use super::error::{ErrorKind, JsonError};
use core::fmt;

/// Where the string lexer is inside a string body; lets a string continue in the next
/// chunk without re-scanning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sub {
    /// Plain characters.
    Normal,
    /// Just after `\`.
    Esc,
    /// Inside the 4 hex digits of `\u`: `n` read so far, value `v`; `low` when this is the
    /// second half of a surrogate pair.
    Hex { n: u8, v: u16, low: bool },
    /// After a high surrogate escape: `\` of its low partner expected.
    NeedBackslash,
    /// After a high surrogate escape and `\`: `u` expected.
    NeedU,
    /// Inside a multi-byte UTF-8 sequence: `rem` continuation bytes left, the next one
    /// must lie in `lo..=hi`.
    Utf8 { rem: u8, lo: u8, hi: u8 },
}

/// Resumable state of one string token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StrState {
    sub: Sub,
    /// Raw body length minus decoded length (bytes saved by decoding escapes).
    pub(crate) savings: usize,
    /// Absolute offset of the `\` starting the current (or high-surrogate) `\u` escape.
    esc_start: u64,
}

impl StrState {
    /// State just after the opening quote.
    pub(crate) const fn new() -> Self {
        Self {
            sub: Sub::Normal,
            savings: 0,
            esc_start: 0,
        }
    }
}

/// Index of the first byte at or after `i` that is `"`, `\`, < 0x20 or >= 0x80, or
/// `buf.len()` if none. Tries one block of sixteen (most strings in model files are
/// short), then scans 64 bytes per step (embedded images run to megabytes).
#[inline(always)]
pub(crate) fn find_special(buf: &[u8], i: usize) -> usize {
    let Some(rest) = buf.get(i..) else {
        return buf.len();
    };
    if let Some(b) = rest.first_chunk::<16>() {
        let m = classify::string_special(b);
        if m != 0 {
            return i + m.trailing_zeros() as usize;
        }
    }
    let mut off = 0usize;
    let (blocks, _) = rest.as_chunks::<64>();
    for block in blocks {
        let (quarters, _) = block.as_chunks::<16>();
        let m = quarters.iter().enumerate().fold(0u64, |m, (q, b)| {
            m | (u64::from(classify::string_special(b)) << (16 * q))
        });
        if m != 0 {
            return i + off + m.trailing_zeros() as usize;
        }
        off += 64;
    }
    let tail = rest.get(off..).unwrap_or(&[]);
    let (quarters, last) = tail.as_chunks::<16>();
    for b in quarters {
        let m = classify::string_special(b);
        if m != 0 {
            return i + off + m.trailing_zeros() as usize;
        }
        off += 16;
    }
    for &b in last {
        if is_string_special(b) {
            return i + off;
        }
        off += 1;
    }
    i + off
}

/// For a UTF-8 lead byte: number of continuation bytes and the allowed range of the first
/// one (this excludes overlongs, encoded surrogates and code points above U+10FFFF).
#[inline]
const fn utf8_lead(b: u8) -> Option<(u8, u8, u8)> {
    match b {
        0xC2..=0xDF => Some((1, 0x80, 0xBF)),
        0xE0 => Some((2, 0xA0, 0xBF)),
        0xE1..=0xEC | 0xEE | 0xEF => Some((2, 0x80, 0xBF)),
        0xED => Some((2, 0x80, 0x9F)),
        0xF0 => Some((3, 0x90, 0xBF)),
        0xF1..=0xF3 => Some((3, 0x80, 0xBF)),
        0xF4 => Some((3, 0x80, 0x8F)),
        _ => None,
    }
}

#[inline]
const fn hex_val(b: u8) -> Option<u16> {
    match b {
        b'0'..=b'9' => Some((b - b'0') as u16),
        b'a'..=b'f' => Some((b - b'a' + 10) as u16),
        b'A'..=b'F' => Some((b - b'A' + 10) as u16),
        _ => None,
    }
}

#[inline]
fn at(base: u64, i: usize) -> u64 {
    base.saturating_add(i as u64)
}

#[inline]
fn fail(kind: ErrorKind, offset: u64) -> Result<Option<usize>, JsonError> {
    Err(JsonError::new(kind, offset))
}

/// Continues lexing a string body in `buf` from index `i` (just after the opening quote
/// for a fresh string). `base` is the absolute offset of `buf[0]`.
///
/// Returns `Some(end)` with `end` just past the closing quote, or `None` when `buf` ran
/// out first (all of it was consumed and validated; `st` remembers where it stopped).
#[inline]
pub(crate) fn lex_str(
    buf: &[u8],
    mut i: usize,
    st: &mut StrState,
    base: u64,
) -> Result<Option<usize>, JsonError> {
    loop {
        match st.sub {
            Sub::Normal => {
                i = find_special(buf, i);
                let Some(&b) = buf.get(i) else {
                    return Ok(None);
                };
                match b {
                    b'"' => return Ok(Some(i + 1)),
                    b'\\' => {
                        st.esc_start = at(base, i);
                        st.sub = Sub::Esc;
                    }
                    0x00..=0x1F => return fail(ErrorKind::ControlCharacter, at(base, i)),
                    _ => match utf8_lead(b) {
                        Some((rem, lo, hi)) => st.sub = Sub::Utf8 { rem, lo, hi },
                        None => return fail(ErrorKind::InvalidUtf8, at(base, i)),
                    },
                }
                i += 1;
            }
            Sub::Utf8 {
                mut rem,
                mut lo,
                mut hi,
            } => {
                loop {
                    let Some(&b) = buf.get(i) else {
                        st.sub = Sub::Utf8 { rem, lo, hi };
                        return Ok(None);
                    };
                    if b < lo || b > hi {
                        return fail(ErrorKind::InvalidUtf8, at(base, i));
                    }
                    i += 1;
                    rem -= 1;
                    if rem == 0 {
                        break;
                    }
                    lo = 0x80;
                    hi = 0xBF;
                }
                st.sub = Sub::Normal;
            }
            Sub::Esc => {
                let Some(&b) = buf.get(i) else {
                    return Ok(None);
                };
                match b {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                        st.savings = st.savings.saturating_add(1);
                        st.sub = Sub::Normal;
                    }
                    b'u' => {
                        st.sub = Sub::Hex {
                            n: 0,
                            v: 0,
                            low: false,
                        }
                    }
                    _ => return fail(ErrorKind::InvalidEscape, at(base, i)),
                }
                i += 1;
            }
            Sub::Hex { mut n, mut v, low } => {
                while n < 4 {
                    let Some(&b) = buf.get(i) else {
                        st.sub = Sub::Hex { n, v, low };
                        return Ok(None);
                    };
                    let Some(d) = hex_val(b) else {
                        return fail(ErrorKind::InvalidUnicodeEscape, at(base, i));
                    };
                    v = (v << 4) | d;
                    n += 1;
                    i += 1;
                }
                let is_high = (0xD800..=0xDBFF).contains(&v);
                let is_low = (0xDC00..=0xDFFF).contains(&v);
                if low {
                    if !is_low {
                        return fail(ErrorKind::LoneSurrogate, st.esc_start);
                    }
                    // 12 raw bytes decode to one 4-byte UTF-8 sequence.
                    st.savings = st.savings.saturating_add(8);
                    st.sub = Sub::Normal;
                } else if is_high {
                    st.sub = Sub::NeedBackslash;
                } else if is_low {
                    return fail(ErrorKind::LoneSurrogate, st.esc_start);
                } else {
                    let enc = if v < 0x80 {
                        1
                    } else if v < 0x800 {
                        2
                    } else {
                        3
                    };
                    st.savings = st.savings.saturating_add(6 - enc);
                    st.sub = Sub::Normal;
                }
            }
            Sub::NeedBackslash => {
                let Some(&b) = buf.get(i) else {
                    return Ok(None);
                };
                if b != b'\\' {
                    return fail(ErrorKind::LoneSurrogate, st.esc_start);
                }
                st.sub = Sub::NeedU;
                i += 1;
            }
            Sub::NeedU => {
                let Some(&b) = buf.get(i) else {
                    return Ok(None);
                };
                if b != b'u' {
                    return fail(ErrorKind::LoneSurrogate, st.esc_start);
                }
                st.sub = Sub::Hex {
                    n: 0,
                    v: 0,
                    low: true,
                };
                i += 1;
            }
        }
    }
}

/// A string token's text: the raw body between the quotes, already fully validated
/// (strict UTF-8, legal escapes, paired surrogates).
///
/// Zero-copy: when the string has no escapes, [`as_str`](Self::as_str) borrows it from
/// the input. Escaped strings are decoded on request into a caller buffer of at least
/// [`decoded_len`](Self::decoded_len) bytes; [`raw_len`](Self::raw_len) is an upper bound
/// known before decoding. Equality (`==`) compares the raw text, not the decoded text;
/// use [`eq_str`](Self::eq_str) to compare decoded contents.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct JsonStr<'a> {
    raw: &'a [u8],
    /// Every escape decodes shorter than its raw form, so `decoded_len < raw.len()`
    /// exactly when the body has escapes.
    decoded_len: usize,
}

/// The caller's buffer is shorter than the decoded string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferTooSmall {
    /// Bytes the decoded string needs (its [`JsonStr::decoded_len`]).
    pub needed: usize,
}

impl fmt::Display for BufferTooSmall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "decoded string needs a {}-byte buffer", self.needed)
    }
}

impl core::error::Error for BufferTooSmall {}

impl<'a> JsonStr<'a> {
    /// Builds the payload from a validated body (between the quotes) and its lexer state.
    #[inline(always)]
    pub(crate) fn from_lexed(raw: &'a [u8], st: &StrState) -> Self {
        Self {
            raw,
            decoded_len: raw.len().saturating_sub(st.savings),
        }
    }

    /// Payload of a validated body without escapes.
    #[inline(always)]
    pub(crate) const fn plain(raw: &'a [u8]) -> Self {
        Self {
            raw,
            decoded_len: raw.len(),
        }
    }

    /// The body as a borrowed `&str` when it has no escapes (then it *is* the decoded
    /// text); `None` when it has escapes and must be decoded.
    ///
    /// Cost: one `core::str::from_utf8` pass over the body (fast for ASCII); the lexer
    /// already validated it, so it cannot fail.
    #[inline]
    pub fn as_str(&self) -> Option<&'a str> {
        if self.has_escapes() {
            None
        } else {
            core::str::from_utf8(self.raw).ok()
        }
    }

    /// The raw body bytes between the quotes, escapes not decoded (valid UTF-8).
    #[inline]
    pub const fn raw_bytes(&self) -> &'a [u8] {
        self.raw
    }

    /// The raw body between the quotes as text, escapes not decoded.
    #[inline]
    pub fn raw_str(&self) -> &'a str {
        core::str::from_utf8(self.raw).unwrap_or_default()
    }

    /// Whether the body contains any `\` escape (then [`as_str`](Self::as_str) is `None`).
    #[inline]
    pub const fn has_escapes(&self) -> bool {
        self.decoded_len < self.raw.len()
    }

    /// Exact length in bytes of the decoded (UTF-8) text.
    #[inline]
    pub const fn decoded_len(&self) -> usize {
        self.decoded_len
    }

    /// Length in bytes of the raw body; never less than [`decoded_len`](Self::decoded_len),
    /// so a buffer of this size always suffices for decoding.
    #[inline]
    pub const fn raw_len(&self) -> usize {
        self.raw.len()
    }

    /// Decodes the text into `out` (which needs [`decoded_len`](Self::decoded_len) bytes)
    /// and returns the decoded part of `out`.
    pub fn decode_into<'b>(&self, out: &'b mut [u8]) -> Result<&'b str, BufferTooSmall> {
        let too_small = BufferTooSmall {
            needed: self.decoded_len,
        };
        if out.len() < self.decoded_len {
            return Err(too_small);
        }
        let mut n = 0usize;
        let ok = for_each_piece(self.raw, |piece| {
            let end = n.saturating_add(piece.len());
            match out.get_mut(n..end) {
                Some(dst) => {
                    dst.copy_from_slice(piece);
                    n = end;
                    true
                }
                None => false,
            }
        });
        if !ok {
            return Err(too_small);
        }
        match out.get(..n) {
            Some(done) => core::str::from_utf8(done).map_err(|_| too_small),
            None => Err(too_small),
        }
    }

    /// The decoded text: borrowed from the input when unescaped, otherwise decoded into
    /// `scratch` (see [`decode_into`](Self::decode_into)).
    pub fn decode<'b>(&self, scratch: &'b mut [u8]) -> Result<&'b str, BufferTooSmall>
    where
        'a: 'b,
    {
        match self.as_str() {
            Some(s) => Ok(s),
            None => self.decode_into(scratch),
        }
    }

    /// Calls `f` with the decoded text in pieces (the runs between escapes,
    /// then each escape's character), without a buffer; stops early, and
    /// returns false, when `f` does. A piece never splits a character.
    pub fn for_each_decoded(&self, mut f: impl FnMut(&str) -> bool) -> bool {
        for_each_piece(self.raw, |piece| {
            core::str::from_utf8(piece).is_ok_and(&mut f)
        })
    }

    /// Whether the decoded text equals `s`, without needing a buffer (for matching keys).
    #[inline]
    pub fn eq_str(&self, s: &str) -> bool {
        if !self.has_escapes() {
            return self.raw == s.as_bytes();
        }
        if self.decoded_len != s.len() {
            return false;
        }
        let mut rest = s.as_bytes();
        let ok = for_each_piece(self.raw, |piece| match rest.strip_prefix(piece) {
            Some(r) => {
                rest = r;
                true
            }
            None => false,
        });
        ok && rest.is_empty()
    }
}

/// The decoded bytes of a validated raw body, one at a time: two strings
/// compare decoded with no buffer ([`JsonStr::eq_decoded`]).
#[derive(Clone, Debug)]
struct DecodedBytes<'a> {
    rest: &'a [u8],
    /// The last escape's character, encoded; `at..len` still to give.
    enc: [u8; 4],
    at: u8,
    len: u8,
}

impl<'a> DecodedBytes<'a> {
    const fn of(rest: &'a [u8]) -> Self {
        Self {
            rest,
            enc: [0; 4],
            at: 0,
            len: 0,
        }
    }
}

impl Iterator for DecodedBytes<'_> {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.at < self.len {
            let b = self.enc.get(usize::from(self.at)).copied();
            self.at = self.at.saturating_add(1);
            return b;
        }
        let (&b, tail) = self.rest.split_first()?;
        if b != b'\\' {
            self.rest = tail;
            return Some(b);
        }
        // A malformed escape (never in a lexed body) ends the bytes.
        let Some((ch, used)) = decode_escape(self.rest) else {
            self.rest = &[];
            return None;
        };
        self.rest = self.rest.get(used..).unwrap_or_default();
        let n = ch.encode_utf8(&mut self.enc).len();
        (self.at, self.len) = (1, u8::try_from(n).unwrap_or(0));
        self.enc.first().copied()
    }
}

impl JsonStr<'_> {
    /// Whether two strings' decoded texts are equal, compared a byte at a
    /// time as both decode: no buffer, whatever their length.
    pub fn eq_decoded(&self, other: &JsonStr<'_>) -> bool {
        self.decoded_len == other.decoded_len
            && DecodedBytes::of(self.raw).eq(DecodedBytes::of(other.raw))
    }
}

impl fmt::Debug for JsonStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.raw_str(), f)
    }
}

/// Feeds the decoded text of a validated raw body to `f` piece by piece (plain runs and
/// single decoded escapes). Stops early and returns `false` when `f` does, or when the
/// body is malformed (cannot happen for lexer-validated bodies).
fn for_each_piece(raw: &[u8], mut f: impl FnMut(&[u8]) -> bool) -> bool {
    let mut rest = raw;
    loop {
        let Some(bs) = rest.iter().position(|&b| b == b'\\') else {
            return f(rest);
        };
        let Some((plain, esc)) = rest.split_at_checked(bs) else {
            return false;
        };
        if !plain.is_empty() && !f(plain) {
            return false;
        }
        let Some((ch, used)) = decode_escape(esc) else {
            return false;
        };
        let mut enc = [0u8; 4];
        if !f(ch.encode_utf8(&mut enc).as_bytes()) {
            return false;
        }
        rest = esc.get(used..).unwrap_or_default();
    }
}

fn hex4(b: &[u8]) -> Option<u32> {
    b.iter()
        .try_fold(0u32, |acc, &c| Some((acc << 4) | u32::from(hex_val(c)?)))
}

/// Decodes the escape at the start of `esc` (which begins with `\`): the character and
/// the number of raw bytes it used.
fn decode_escape(esc: &[u8]) -> Option<(char, usize)> {
    let c = match esc.get(1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let hi = hex4(esc.get(2..6)?)?;
            if (0xD800..0xDC00).contains(&hi) {
                if esc.get(6..8)? != b"\\u" {
                    return None;
                }
                let lo = hex4(esc.get(8..12)?)?;
                if !(0xDC00..0xE000).contains(&lo) {
                    return None;
                }
                let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                return Some((char::from_u32(cp)?, 12));
            }
            return Some((char::from_u32(hi)?, 6));
        }
        _ => return None,
    };
    Some((c, 2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    fn naive_special(buf: &[u8], i: usize) -> usize {
        buf.iter()
            .enumerate()
            .skip(i)
            .find(|(_, b)| is_string_special(**b))
            .map_or(buf.len(), |(k, _)| k)
    }

    #[test]
    fn find_special_matches_naive() {
        let mut rng = crate::test_rng::XorShift(0x1234_5678_9abc_def0);
        for len in 0..200usize {
            for _ in 0..20 {
                let mut v = Vec::with_capacity(len);
                for _ in 0..len {
                    // Mostly plain ASCII with occasional specials.
                    let r = (rng.next() >> 32) as u32;
                    let b = if r.is_multiple_of(61) {
                        [b'"', b'\\', 0x1F, 0x00, 0x80, 0xFF, 0x20, 0x7F][(r as usize / 61) % 8]
                    } else {
                        b'a' + (r % 26) as u8
                    };
                    v.push(b);
                }
                for i in 0..=len.min(40) {
                    assert_eq!(find_special(&v, i), naive_special(&v, i), "{v:?} {i}");
                }
            }
        }
        // Every byte value at every lane.
        for b in 0..=255u8 {
            for lane in 0..40 {
                let mut v = std::vec![b'x'; 40];
                v[lane] = b;
                assert_eq!(find_special(&v, 0), naive_special(&v, 0));
            }
        }
    }

    fn lex_all(body: &[u8]) -> Result<(usize, StrState), JsonError> {
        let mut st = StrState::new();
        match lex_str(body, 0, &mut st, 0)? {
            Some(e) => Ok((e, st)),
            None => Err(JsonError::new(ErrorKind::UnexpectedEof, body.len() as u64)),
        }
    }

    #[test]
    fn escapes_decode() {
        let cases: &[(&[u8], &str)] = &[
            (br#"\""#, "\""),
            (br"\\", "\\"),
            (br"\/", "/"),
            (br"\b", "\u{8}"),
            (br"\f", "\u{c}"),
            (br"\n", "\n"),
            (br"\r", "\r"),
            (br"\t", "\t"),
            (br"\u0041", "A"),
            (br"\u00e9", "\u{e9}"),
            (br"\u00E9", "\u{e9}"),
            (br"\u07FF", "\u{7ff}"),
            (br"\u0800", "\u{800}"),
            (br"\uFFFF", "\u{ffff}"),
            (br"\u0000", "\u{0}"),
            (br"\ud83d\ude00", "\u{1f600}"),
            (br"\uD800\uDC00", "\u{10000}"),
            (br"\uDBFF\uDFFF", "\u{10ffff}"),
            (br"a\nb\u00e9c\ud83d\ude00d", "a\nb\u{e9}c\u{1f600}d"),
        ];
        for (body, want) in cases {
            let mut doc = body.to_vec();
            doc.push(b'"');
            let (end, st) = lex_all(&doc).unwrap();
            assert_eq!(end, doc.len());
            let s = JsonStr::from_lexed(&doc[..doc.len() - 1], &st);
            assert!(s.has_escapes());
            assert_eq!(s.decoded_len(), want.len(), "{body:?}");
            assert!(s.raw_len() >= s.decoded_len());
            let mut out = std::vec![0u8; s.decoded_len()];
            assert_eq!(s.decode_into(&mut out).unwrap(), *want);
            assert!(s.eq_str(want));
            assert!(!s.eq_str("zz"));
            if !want.is_empty() {
                let mut short = std::vec![0u8; s.decoded_len() - 1];
                assert_eq!(
                    s.decode_into(&mut short),
                    Err(BufferTooSmall { needed: want.len() })
                );
            }
            assert_eq!(s.as_str(), None);
            let mut big = [0u8; 64];
            assert_eq!(s.decode(&mut big).unwrap(), *want);
        }
        let s = JsonStr::from_lexed(b"plain", &StrState::new());
        assert_eq!(s.as_str(), Some("plain"));
        assert_eq!(s.decode(&mut []).unwrap(), "plain");
        assert!(s.eq_str("plain"));
        assert_eq!(std::format!("{s:?}"), "\"plain\"");
    }

    /// `eq_decoded` compares what two bodies decode to, however long and
    /// however each spells it (JavaScript compares decoded strings).
    #[test]
    fn eq_decoded_compares_decoded_text_of_any_length() {
        let lexed = |body: &[u8]| {
            let mut doc = body.to_vec();
            doc.push(b'"');
            let (_, st) = lex_all(&doc).unwrap();
            (doc, st)
        };
        let long_a: std::vec::Vec<u8> = b"\\u0041".repeat(3000);
        let long_b: std::vec::Vec<u8> = [b"A\\u0041".as_slice(), &b"A".repeat(2998)].concat();
        let cases: [(&[u8], &[u8], bool); 7] = [
            (br"a\u0062c", br"\u0061bc", true),
            (br"a\u0062c", br"\u0061bd", false),
            (br"\ud83d\ude00", br"\uD83D\uDE00", true),
            (br"\n", br"\u000a", true),
            (br"\n", br"\u000b", false),
            (&long_a, &long_b, true),
            (&long_a, br"\u0041", false),
        ];
        for (x, y, equal) in cases {
            let ((dx, sx), (dy, sy)) = (lexed(x), lexed(y));
            let a = JsonStr::from_lexed(&dx[..dx.len() - 1], &sx);
            let b = JsonStr::from_lexed(&dy[..dy.len() - 1], &sy);
            assert_eq!(a.eq_decoded(&b), equal, "{x:?} {y:?}");
            assert_eq!(b.eq_decoded(&a), equal, "{y:?} {x:?}");
        }
    }
}
