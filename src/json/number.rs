//! Number lexing (resumable, single pass) and the [`JsonNumber`] token payload.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "digit runs are capped at 19 digits (below 2^64) before values are combined, and positions stay below the input's length"
)]

use super::error::{ErrorKind, JsonError};
use core::fmt;

/// Position inside the number grammar `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// After `-`: a digit must follow.
    Minus,
    /// After a leading `0`: no further integer digit allowed.
    Zero,
    /// In integer digits `[1-9][0-9]*`.
    Int,
    /// After `.`: a digit must follow.
    Dot,
    /// In fraction digits.
    Frac,
    /// After `e`/`E`: sign or digit must follow.
    Exp,
    /// After the exponent sign: a digit must follow.
    ExpSign,
    /// In exponent digits.
    ExpDigits,
}

/// Numbers with fewer integer digits than this and no exponent are certainly finite
/// (`f64::MAX` < 10^309), so they need no parse to be range-checked.
const MAX_SAFE_INT_DIGITS: u32 = 309;

/// Resumable state of one number token: where it is in the grammar and what the range
/// check needs. The value itself is never computed while lexing (see
/// [`JsonNumber::value`]), except to range-check a number that might overflow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NumState {
    stage: Stage,
}

/// What [`lex_num`] found.
pub(crate) enum NumEnd {
    /// The number ends just before this index (the delimiter is not consumed).
    Done(usize),
    /// The buffer ran out; more input may continue the number.
    Partial,
    /// `-` followed by `I` at this index: continue as the literal `-Infinity`.
    NegInfinity(usize),
}

impl NumState {
    /// State after the number's first byte `first` (`-` or a digit), which is consumed
    /// for `-` and `0`; a nonzero digit is left for the integer-digit loop.
    #[inline(always)]
    pub(crate) const fn start(first: u8) -> (Self, usize) {
        let mut st = Self {
            stage: Stage::Minus,
        };
        match first {
            b'-' => (st, 1),
            b'0' => {
                st.stage = Stage::Zero;
                (st, 1)
            }
            _ => {
                st.stage = Stage::Int;
                (st, 0)
            }
        }
    }
}

/// Consumes a run of ASCII digits starting at `*i`.
#[inline(always)]
fn digits(buf: &[u8], i: &mut usize) {
    *i = digit_run(buf, *i);
}

#[inline]
fn err(kind: ErrorKind, base: u64, i: usize) -> JsonError {
    JsonError::new(kind, base.saturating_add(i as u64))
}

/// Continues lexing a number in `buf` from index `i`. `eof` says no input follows `buf`
/// (then running out of bytes ends the number, or is an error if a digit is still due).
///
/// The stages only ever advance in declaration order, so the machine is written as one
/// pass of guarded blocks: a fresh number runs straight through, a resumed one skips the
/// blocks of stages it has passed.
#[inline(always)]
pub(crate) fn lex_num(
    buf: &[u8],
    mut i: usize,
    st: &mut NumState,
    base: u64,
    eof: bool,
) -> Result<NumEnd, JsonError> {
    let mut stage = st.stage;
    // Where the number may legally end: a byte that cannot continue it, or end of input.
    macro_rules! end_here {
        () => {{
            st.stage = stage;
            return Ok(if i < buf.len() || eof {
                NumEnd::Done(i)
            } else {
                NumEnd::Partial
            });
        }};
    }
    // A byte is required here (a digit or sign).
    macro_rules! need {
        () => {
            match buf.get(i) {
                Some(&b) => b,
                None => {
                    st.stage = stage;
                    if eof {
                        return Err(err(ErrorKind::UnexpectedEof, base, i));
                    }
                    return Ok(NumEnd::Partial);
                }
            }
        };
    }
    if stage == Stage::Minus {
        match need!() {
            b'0' => {
                stage = Stage::Zero;
                i += 1;
            }
            b'1'..=b'9' => stage = Stage::Int,
            b'I' => return Ok(NumEnd::NegInfinity(i)),
            _ => return Err(err(ErrorKind::InvalidNumber, base, i)),
        }
    }
    if stage == Stage::Zero {
        match buf.get(i) {
            Some(b'.') => stage = Stage::Dot,
            Some(b'e' | b'E') => stage = Stage::Exp,
            Some(b'0'..=b'9') => return Err(err(ErrorKind::LeadingZero, base, i)),
            _ => end_here!(),
        }
        i += 1;
    }
    if stage == Stage::Int {
        digits(buf, &mut i);
        match buf.get(i) {
            Some(b'.') => stage = Stage::Dot,
            Some(b'e' | b'E') => stage = Stage::Exp,
            _ => end_here!(),
        }
        i += 1;
    }
    if stage == Stage::Dot {
        if !need!().is_ascii_digit() {
            return Err(err(ErrorKind::InvalidNumber, base, i));
        }
        stage = Stage::Frac;
    }
    if stage == Stage::Frac {
        digits(buf, &mut i);
        match buf.get(i) {
            Some(b'e' | b'E') => stage = Stage::Exp,
            _ => end_here!(),
        }
        i += 1;
    }
    if stage == Stage::Exp {
        match need!() {
            b'+' | b'-' => {
                stage = Stage::ExpSign;
                i += 1;
            }
            b'0'..=b'9' => stage = Stage::ExpDigits,
            _ => return Err(err(ErrorKind::InvalidNumber, base, i)),
        }
    }
    if stage == Stage::ExpSign {
        if !need!().is_ascii_digit() {
            return Err(err(ErrorKind::InvalidNumber, base, i));
        }
        stage = Stage::ExpDigits;
    }
    // Only `Stage::ExpDigits` is left.
    i = digit_run(buf, i);
    end_here!()
}

/// Exact powers of ten representable in an f64 (10^0 ..= 10^22).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;
const L7: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// The eight bytes at `i` as a little-endian word (byte `i` lowest), if all are in `buf`.
#[inline(always)]
fn load8(buf: &[u8], i: usize) -> Option<u64> {
    buf.get(i..)
        .and_then(<[u8]>::first_chunk::<8>)
        .map(|c| u64::from_le_bytes(*c))
}

/// Number of leading ASCII digits in the eight bytes of `w` (lowest byte first): 0..=8.
#[inline(always)]
pub(crate) const fn lead_digits(w: u64) -> usize {
    let t = w ^ (LO * 0x30);
    // High bit set exactly in the bytes that are not `0..=9` (no carry crosses bytes).
    let non_digit = (((t & L7) + LO * 0x76) | t) & HI;
    (non_digit.trailing_zeros() / 8) as usize
}

/// Byte `n` (< 8) of the little-endian word `w`.
#[inline(always)]
fn byte_of(w: u64, n: usize) -> u8 {
    w.to_le_bytes().get(n).copied().unwrap_or(0)
}

/// Index of the first byte at or after `i` that is not an ASCII digit (or `buf.len()`).
#[inline(always)]
fn digit_run(buf: &[u8], mut i: usize) -> usize {
    while let Some(w) = load8(buf, i) {
        let n = lead_digits(w);
        i += n;
        if n < 8 {
            return i;
        }
    }
    while let Some(b) = buf.get(i) {
        if !b.is_ascii_digit() {
            break;
        }
        i += 1;
    }
    i
}

/// Fast path for the common number shape `-?(0|[1-9][0-9]*)(\.[0-9]+)?` (no exponent,
/// fewer than [`MAX_SAFE_INT_DIGITS`] integer digits, hence certainly finite) starting at
/// `i` and ending *inside* `buf` (the byte after it is present, so the number is complete
/// even when more input may follow). Returns the index just past it, or `None` for
/// anything else (other shapes, errors, too close to the end of `buf`): then
/// [`lex_num`] decides, so this never changes what is accepted or which error results.
#[inline(always)]
pub(crate) fn scan_plain(buf: &[u8], i: usize) -> Option<usize> {
    let j = i + usize::from(*buf.get(i)? == b'-');
    let w = load8(buf, j)?;
    let n = lead_digits(w);
    // At least one digit, and no leading zero.
    if n == 0 || (n > 1 && w & 0xFF == u64::from(b'0')) {
        return None;
    }
    let mut k = j + n;
    let mut next = if n < 8 {
        byte_of(w, n)
    } else {
        k = digit_run(buf, k);
        if k - j >= MAX_SAFE_INT_DIGITS as usize {
            return None;
        }
        *buf.get(k)?
    };
    if next == b'.' {
        let w = load8(buf, k + 1)?;
        let n = lead_digits(w);
        if n == 0 {
            return None;
        }
        k += 1 + n;
        next = if n < 8 {
            byte_of(w, n)
        } else {
            k = digit_run(buf, k);
            *buf.get(k)?
        };
    }
    if next | 0x20 == b'e' {
        return None;
    }
    Some(k)
}

/// The value of the `n` (1 to 8) leading digits of the little-endian word `w`, without
/// a loop: the digits move to the top of the word (the bytes below become leading
/// zeros), then pairs, quads and octets are combined by three multiplications.
#[inline(always)]
const fn digits_value(w: u64, n: usize) -> u64 {
    let v = (w & (LO * 0x0F)) << (8 * (8 - n));
    let v = v.wrapping_mul(10 << 8 | 1) >> 8;
    let v = (v & 0x00FF_00FF_00FF_00FF).wrapping_mul(100 << 16 | 1) >> 16;
    (v & 0x0000_FFFF_0000_FFFF).wrapping_mul(10_000 << 32 | 1) >> 32
}

/// Exact powers of ten as integers, 10^0 ..= 10^8.
const POW10_U64: [u64; 9] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// [`scan_plain`] and [`quick_value`] in one pass, without a loop, for the shape model
/// files are made of: `-?(0|[1-9][0-9]{0,7})(\.[0-9]{1,15})?` (±10^7 has eight integer
/// digits; at most 19 digits in all, their integer at most 2^53), followed by a byte
/// that is neither a digit nor an exponent (and lies in `buf`). Returns the value,
/// exactly what `f64::from_str` gives, and the index just past the number; `None` for
/// anything else (the caller then takes the general path).
#[inline(always)]
pub(crate) fn plain_value(buf: &[u8], i: usize) -> Option<(f64, usize)> {
    let neg = *buf.get(i)? == b'-';
    let j = i + usize::from(neg);
    let w = load8(buf, j)?;
    let n = lead_digits(w);
    // One to eight integer digits (±10^7 has eight), no leading zero.
    if n == 0 || (n > 1 && w & 0xFF == u64::from(b'0')) {
        return None;
    }
    let int = digits_value(w, n);
    let mut end = j + n;
    let mut next = if n < 8 { byte_of(w, n) } else { *buf.get(end)? };
    if next.is_ascii_digit() {
        return None;
    }
    let (mant, frac) = if next == b'.' {
        let f = load8(buf, end + 1)?;
        let m = lead_digits(f);
        if m == 0 {
            return None;
        }
        let head = int * *POW10_U64.get(m)? + digits_value(f, m);
        if m < 8 {
            end += 1 + m;
            next = byte_of(f, m);
            (head, m)
        } else {
            // Up to seven more fraction digits in the next word.
            let g = load8(buf, end + 9)?;
            let m2 = lead_digits(g);
            if m2 == 8 || n + 8 + m2 > 19 {
                return None;
            }
            let tail = if m2 == 0 { 0 } else { digits_value(g, m2) };
            end += 9 + m2;
            next = byte_of(g, m2);
            (head * *POW10_U64.get(m2)? + tail, 8 + m2)
        }
    } else {
        (int, 0)
    };
    // An exponent, or a mantissa past 2^53 (then the division would round twice).
    if next | 0x20 == b'e' || mant > (1u64 << 53) {
        return None;
    }
    let v = exact_ratio(mant, frac)?;
    Some((if neg { -v } else { v }, end))
}

/// The end of a plain number (no exponent) of at most seven integer digits,
/// so within ±10^7, starting at `i` and followed by a byte in `buf`: what a
/// reader that only checks a number needs, without its value. `None` for
/// anything else.
#[inline(always)]
pub(crate) fn plain_small_end(buf: &[u8], i: usize) -> Option<usize> {
    let j = i + usize::from(*buf.get(i)? == b'-');
    let w = load8(buf, j)?;
    let n = lead_digits(w);
    if n == 0 || n > 7 || (n > 1 && w & 0xFF == u64::from(b'0')) {
        return None;
    }
    let mut end = j + n;
    let mut next = byte_of(w, n);
    if next == b'.' {
        let fraction = digit_run(buf, end + 1);
        if fraction == end + 1 {
            return None;
        }
        end = fraction;
        next = *buf.get(end)?;
    }
    (next | 0x20 != b'e').then_some(end)
}

/// `mant / 10^frac`, correctly rounded, for `mant <= 2^53` and `frac <= 22`
/// (both exact as `f64`, so the one division rounds once). An integer needs
/// no division: a dozen cycles of latency before a caller can check its
/// range.
#[inline(always)]
fn exact_ratio(mant: u64, frac: usize) -> Option<f64> {
    // Exact: the callers have checked mant <= 2^53.
    let m = mant as f64;
    if frac == 0 {
        Some(m)
    } else {
        Some(m / *POW10.get(frac)?)
    }
}

fn slow_value(raw: &[u8]) -> Option<f64> {
    core::str::from_utf8(raw).ok()?.parse::<f64>().ok()
}

/// The value of validated number text without exponent, by Clinger's fast path, when it
/// applies: at most 19 digits forming an integer `m <= 2^53` (so `m` is exact) and at
/// most 22 fraction digits (so `10^k` is exact), so `m / 10^k` is one correctly rounded
/// division of exact operands: the same unique result `f64::from_str` (also correctly
/// rounded) gives for the text.
#[inline]
pub(crate) fn quick_value(raw: &[u8]) -> Option<f64> {
    let (neg, body) = match raw.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, raw),
    };
    // At most 19 digits and a `.`: the mantissa cannot overflow.
    if body.len() > 20 {
        return None;
    }
    let mut mant = 0u64;
    let mut frac = 0usize;
    let mut dot = false;
    for &b in body {
        let d = b.wrapping_sub(b'0');
        if d < 10 {
            mant = mant.wrapping_mul(10).wrapping_add(u64::from(d));
            frac += usize::from(dot);
        } else if b == b'.' {
            dot = true;
        } else {
            // An exponent.
            return None;
        }
    }
    if body.len() - usize::from(dot) > 19 || mant > (1u64 << 53) {
        return None;
    }
    let v = exact_ratio(mant, frac)?;
    Some(if neg { -v } else { v })
}

/// A number token: its raw text (validated JSON number grammar), from which
/// [`value`](Self::value) computes the `f64` on request.
///
/// The value is exactly what `<f64 as core::str::FromStr>::from_str` gives for the raw
/// text (correctly rounded; `-0` is negative zero; a number past the f64 range is
/// ±infinity, as Rust's parser and JavaScript's `JSON.parse` give it).
///
/// Equality compares the raw text.
#[derive(Clone, Copy)]
pub struct JsonNumber<'a> {
    raw: &'a [u8],
}

impl<'a> JsonNumber<'a> {
    /// Payload for validated raw text that is in range.
    #[inline(always)]
    pub(crate) const fn new(raw: &'a [u8]) -> Self {
        Self { raw }
    }

    /// The value as `f64` (±infinity past the f64 range, never NaN). Computed on each call, from the
    /// raw text: short decimals by an exact fast path, others by one correctly rounded
    /// parse. (The tokenizer itself only parses numbers that might overflow, to reject
    /// them.)
    #[inline]
    pub fn value(&self) -> f64 {
        match quick_value(self.raw) {
            Some(v) => v,
            None => slow_value(self.raw).unwrap_or(0.0),
        }
    }

    /// The raw text exactly as in the input (ASCII).
    #[inline]
    pub fn raw(&self) -> &'a str {
        core::str::from_utf8(self.raw).unwrap_or_default()
    }

    /// The raw text as bytes.
    #[inline]
    pub const fn raw_bytes(&self) -> &'a [u8] {
        self.raw
    }
}

impl PartialEq for JsonNumber<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw
    }
}

impl fmt::Debug for JsonNumber<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.raw())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(text: &str) -> Result<JsonNumber<'_>, JsonError> {
        let b = text.as_bytes();
        let (mut st, used) = NumState::start(b[0]);
        match lex_num(b, used, &mut st, 0, true)? {
            NumEnd::Done(end) => {
                assert_eq!(end, b.len(), "{text}");
                Ok(JsonNumber::new(b))
            }
            NumEnd::Partial => panic!("partial at eof"),
            NumEnd::NegInfinity(_) => panic!("-I"),
        }
    }

    /// `plain_value` gives exactly what `f64::from_str` gives, ends where the number
    /// ends, and reads every number of its shape whose mantissa is exact.
    #[test]
    fn plain_value_is_from_str_on_its_shape() {
        let mut rng = crate::test_rng::XorShift(0x2545_F491_4F6C_DD1Du64);
        let mut next = |m: u64| rng.below(m);
        for _ in 0..200_000 {
            let mut text = std::string::String::new();
            if next(2) == 0 {
                text.push('-');
            }
            let int = 1 + next(9) as usize;
            for k in 0..int {
                let d = if k == 0 && int > 1 {
                    1 + next(9)
                } else {
                    next(10)
                };
                text.push(char::from(b'0' + d as u8));
            }
            let frac = next(18) as usize;
            if frac > 0 {
                text.push('.');
                for _ in 0..frac {
                    text.push(char::from(b'0' + next(10) as u8));
                }
            }
            let digits = int + frac;
            for tail in [",", "]", " ", "e5", "E-1", "x"] {
                let padded = std::format!("{text}{tail}        ");
                let got = plain_value(padded.as_bytes(), 0);
                let want: f64 = text.parse().unwrap();
                let mantissa: u64 = text.replace(['-', '.'], "").parse().unwrap_or(u64::MAX);
                let readable = int <= 8
                    && frac <= 15
                    && digits <= 19
                    && mantissa <= 1 << 53
                    && !tail.starts_with(['e', 'E']);
                match got {
                    Some((v, end)) => {
                        assert!(readable, "{padded:?} read");
                        assert_eq!(end, text.len(), "{padded:?}");
                        assert_eq!(v.to_bits(), want.to_bits(), "{padded:?}");
                    }
                    None => assert!(!readable, "{padded:?} not read"),
                }
            }
        }
        for bad in ["01", "-", "-.5", "1.", "1.e", "--1", ".5"] {
            let padded = std::format!("{bad},        ");
            assert_eq!(plain_value(padded.as_bytes(), 0), None, "{bad}");
        }
        // Too close to the end of the input to load a word: the general path.
        assert_eq!(plain_value(b"1.5,", 0), None);
    }

    #[test]
    fn fast_path_cases() {
        for t in [
            "0",
            "-0",
            "1",
            "-1",
            "0.5",
            "-0.0",
            "123.456",
            "9007199254740992",
            "9007199254740993",
            "1e22",
            "1e-22",
            "1.5e3",
            "12345678901234567890",
            "0.1",
            "0.000001",
            "1E+2",
        ] {
            let n = whole(t).unwrap();
            let want: f64 = t.parse().unwrap();
            assert_eq!(n.value().to_bits(), want.to_bits(), "{t}");
            assert_eq!(n.raw(), t);
        }
        assert!(whole("-0").unwrap().value().is_sign_negative());
        assert_eq!(whole("1e999").unwrap().value(), f64::INFINITY);
        assert_eq!(whole("-1e400").unwrap().value(), f64::NEG_INFINITY);
    }
}
