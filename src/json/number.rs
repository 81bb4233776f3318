//! Number lexing (resumable, single pass) and the [`JsonNumber`] token payload.

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

/// Exponent magnitudes are saturated here; anything this large is far outside f64 range
/// either way (and then takes the exact `from_str` path).
const EXP_CAP: u32 = 1_000_000;

/// Resumable state of one number token, including what the fast conversion needs, so
/// the digits are never scanned twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NumState {
    stage: Stage,
    neg: bool,
    has_exp: bool,
    exp_neg: bool,
    /// All digits (integer then fraction, leading zero of `0.` excluded) as an integer,
    /// exact while `sig <= 19` (wraps beyond, then unused).
    mant: u64,
    /// Number of digits accumulated into `mant` (saturating).
    sig: u32,
    /// Number of integer digits (saturating).
    int_digits: u32,
    /// Number of fraction digits (saturating).
    frac_digits: u32,
    /// Exponent magnitude, saturated at `EXP_CAP`.
    exp: u32,
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

/// How to get a finished number's value (see [`finish_number`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum NumInfo {
    /// Exact value already known (fast path).
    Ready(f64),
    /// May overflow: parse the raw text now and range-check it.
    Check,
    /// Certainly finite: parse lazily in [`JsonNumber::value`].
    Lazy,
}

impl NumState {
    /// State after the number's first byte `first` (`-` or a digit), which is consumed
    /// for `-` and `0`; a nonzero digit is left for the integer-digit loop.
    #[inline(always)]
    pub(crate) const fn start(first: u8) -> (Self, usize) {
        let mut st = Self {
            stage: Stage::Minus,
            neg: false,
            has_exp: false,
            exp_neg: false,
            mant: 0,
            sig: 0,
            int_digits: 0,
            frac_digits: 0,
            exp: 0,
        };
        match first {
            b'-' => {
                st.neg = true;
                (st, 1)
            }
            b'0' => {
                st.stage = Stage::Zero;
                st.int_digits = 1;
                (st, 1)
            }
            _ => {
                st.stage = Stage::Int;
                (st, 0)
            }
        }
    }

    /// Value strategy for the finished number.
    #[inline]
    pub(crate) fn info(&self) -> NumInfo {
        if let Some(v) = self.fast_value() {
            NumInfo::Ready(v)
        } else if self.has_exp || self.int_digits >= 309 {
            NumInfo::Check
        } else {
            // Fewer than 309 integer digits and no exponent: finite for sure.
            NumInfo::Lazy
        }
    }

    /// Like [`info`](Self::info) for callers that only need the range check: numbers
    /// that cannot overflow are not converted at all.
    #[inline]
    pub(crate) fn range_info(&self) -> NumInfo {
        if self.has_exp || self.int_digits >= 309 {
            self.info()
        } else {
            NumInfo::Lazy
        }
    }

    /// Correctly rounded value by Clinger's fast path, when it applies: the mantissa is
    /// an exact integer <= 2^53 and the power of ten is exact, so the single
    /// multiplication or division rounds correctly; that is the same unique result
    /// `f64::from_str` (also correctly rounded) gives for the text.
    #[inline(always)]
    fn fast_value(&self) -> Option<f64> {
        if self.sig > 19 || self.mant > (1u64 << 53) {
            return None;
        }
        let e = i64::from(self.exp);
        let e10 = if self.exp_neg { -e } else { e } - i64::from(self.frac_digits);
        let m = self.mant as f64;
        let v = if e10 == 0 {
            m
        } else if e10 > 0 {
            m * POW10.get(usize::try_from(e10).ok()?)?
        } else {
            m / POW10.get(usize::try_from(-e10).ok()?)?
        };
        Some(if self.neg { -v } else { v })
    }
}

/// Consumes a run of ASCII digits starting at `*i`, accumulating them into `mant`
/// (wrapping; callers track the count). Returns the run length.
#[inline(always)]
fn digits(buf: &[u8], i: &mut usize, mant: &mut u64) -> u32 {
    let start = *i;
    let mut m = *mant;
    while let Some(&b) = buf.get(*i) {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        m = m.wrapping_mul(10).wrapping_add(u64::from(d));
        *i += 1;
    }
    *mant = m;
    u32::try_from(*i - start).unwrap_or(u32::MAX)
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
                st.int_digits = 1;
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
        let n = digits(buf, &mut i, &mut st.mant);
        st.sig = st.sig.saturating_add(n);
        st.int_digits = st.int_digits.saturating_add(n);
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
        let n = digits(buf, &mut i, &mut st.mant);
        st.sig = st.sig.saturating_add(n);
        st.frac_digits = st.frac_digits.saturating_add(n);
        match buf.get(i) {
            Some(b'e' | b'E') => stage = Stage::Exp,
            _ => end_here!(),
        }
        i += 1;
    }
    if stage == Stage::Exp {
        st.has_exp = true;
        match need!() {
            b'+' => {
                stage = Stage::ExpSign;
                i += 1;
            }
            b'-' => {
                stage = Stage::ExpSign;
                st.exp_neg = true;
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
    while let Some(&b) = buf.get(i) {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        st.exp = (st.exp * 10 + u32::from(d)).min(EXP_CAP);
        i += 1;
    }
    end_here!()
}

/// Exact powers of ten representable in an f64 (10^0 ..= 10^22).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

fn slow_value(raw: &[u8]) -> Option<f64> {
    core::str::from_utf8(raw).ok()?.parse::<f64>().ok()
}

/// The value to store in a [`JsonNumber`] for a finished number with raw text `raw`:
/// `Some(NaN)` for a lazily parsed one, `None` if it overflows to infinity.
#[inline(always)]
pub(crate) fn resolve(raw: &[u8], info: NumInfo) -> Option<f64> {
    match info {
        NumInfo::Ready(v) => Some(v),
        NumInfo::Lazy => Some(f64::NAN),
        NumInfo::Check => checked_value(raw),
    }
}

/// Parses a number that may overflow; `None` if it rounds to infinity.
#[cold]
#[inline(never)]
fn checked_value(raw: &[u8]) -> Option<f64> {
    slow_value(raw).filter(|v| v.is_finite())
}

/// A number token: its raw text (validated JSON number grammar) and its `f64` value.
///
/// The value is exactly what `<f64 as core::str::FromStr>::from_str` gives for the raw
/// text (correctly rounded; `-0` is negative zero). Numbers that round to infinity are
/// rejected by the tokenizer, so the value is always finite.
///
/// Equality compares the raw text.
#[derive(Clone, Copy)]
pub struct JsonNumber<'a> {
    raw: &'a [u8],
    /// The value, or NaN (never a JSON number's value) when `value()` must parse `raw`.
    value: f64,
}

impl<'a> JsonNumber<'a> {
    /// Payload for validated raw text and its [`resolve`]d value.
    #[inline(always)]
    pub(crate) const fn new(raw: &'a [u8], value: f64) -> Self {
        Self { raw, value }
    }

    /// The value as `f64`. O(1) for the common short forms; otherwise one correctly
    /// rounded parse of the raw text (never infinite, never NaN).
    #[inline]
    pub fn value(&self) -> f64 {
        if self.value.is_nan() {
            slow_value(self.raw).unwrap_or(0.0)
        } else {
            self.value
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
                match resolve(b, st.info()) {
                    Some(v) => Ok(JsonNumber::new(b, v)),
                    None => Err(JsonError::new(ErrorKind::NumberOutOfRange, 0)),
                }
            }
            NumEnd::Partial => panic!("partial at eof"),
            NumEnd::NegInfinity(_) => panic!("-I"),
        }
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
        assert_eq!(
            whole("1e999").unwrap_err(),
            JsonError::new(ErrorKind::NumberOutOfRange, 0)
        );
    }
}
