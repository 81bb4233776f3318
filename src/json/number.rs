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
    /// The first up to 19 significant-or-not digits (integer then fraction) as an integer.
    mant: u64,
    /// Set when a digit did not fit into `mant`.
    lost: bool,
    /// Number of integer digits (saturating).
    int_digits: u32,
    /// Number of fraction digits accumulated into `mant`.
    frac_digits: u32,
    has_exp: bool,
    exp_neg: bool,
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

impl NumState {
    /// State after the number's first byte `first` (`-` or a digit).
    pub(crate) const fn start(first: u8) -> Self {
        let mut st = Self {
            stage: Stage::Minus,
            neg: false,
            mant: 0,
            lost: false,
            int_digits: 0,
            frac_digits: 0,
            has_exp: false,
            exp_neg: false,
            exp: 0,
        };
        match first {
            b'-' => st.neg = true,
            b'0' => {
                st.stage = Stage::Zero;
                st.int_digits = 1;
            }
            _ => {
                st.stage = Stage::Int;
                st.int_digits = 1;
                st.mant = first.wrapping_sub(b'0') as u64;
            }
        }
        st
    }

    #[inline(always)]
    fn push_digit(&mut self, d: u8) {
        if self.mant < 1_000_000_000_000_000_000 {
            self.mant = self.mant * 10 + (d.wrapping_sub(b'0') as u64);
        } else {
            self.lost = true;
        }
    }
}

#[inline]
fn err(kind: ErrorKind, base: u64, i: usize) -> JsonError {
    JsonError::new(kind, base.saturating_add(i as u64))
}

/// Continues lexing a number in `buf` from index `i`. `eof` says no input follows `buf`
/// (then running out of bytes ends the number, or is an error if a digit is still due).
#[inline]
pub(crate) fn lex_num(
    buf: &[u8],
    mut i: usize,
    st: &mut NumState,
    base: u64,
    eof: bool,
) -> Result<NumEnd, JsonError> {
    loop {
        let Some(&b) = buf.get(i) else {
            if !eof {
                return Ok(NumEnd::Partial);
            }
            return match st.stage {
                Stage::Zero | Stage::Int | Stage::Frac | Stage::ExpDigits => Ok(NumEnd::Done(i)),
                _ => Err(err(ErrorKind::UnexpectedEof, base, i)),
            };
        };
        match st.stage {
            Stage::Minus => match b {
                b'0' => {
                    st.stage = Stage::Zero;
                    st.int_digits = 1;
                }
                b'1'..=b'9' => {
                    st.stage = Stage::Int;
                    st.int_digits = 1;
                    st.push_digit(b);
                }
                b'I' => return Ok(NumEnd::NegInfinity(i)),
                _ => return Err(err(ErrorKind::InvalidNumber, base, i)),
            },
            Stage::Zero => match b {
                b'.' => st.stage = Stage::Dot,
                b'e' | b'E' => {
                    st.stage = Stage::Exp;
                    st.has_exp = true;
                }
                b'0'..=b'9' => return Err(err(ErrorKind::LeadingZero, base, i)),
                _ => return Ok(NumEnd::Done(i)),
            },
            Stage::Int => match b {
                b'0'..=b'9' => {
                    st.push_digit(b);
                    st.int_digits = st.int_digits.saturating_add(1);
                }
                b'.' => st.stage = Stage::Dot,
                b'e' | b'E' => {
                    st.stage = Stage::Exp;
                    st.has_exp = true;
                }
                _ => return Ok(NumEnd::Done(i)),
            },
            Stage::Dot => match b {
                b'0'..=b'9' => {
                    st.stage = Stage::Frac;
                    st.push_digit(b);
                    st.frac_digits = 1;
                }
                _ => return Err(err(ErrorKind::InvalidNumber, base, i)),
            },
            Stage::Frac => match b {
                b'0'..=b'9' => {
                    // Once digits are lost the fast path is off and the count is unused.
                    st.push_digit(b);
                    st.frac_digits = st.frac_digits.saturating_add(1);
                }
                b'e' | b'E' => {
                    st.stage = Stage::Exp;
                    st.has_exp = true;
                }
                _ => return Ok(NumEnd::Done(i)),
            },
            Stage::Exp => match b {
                b'+' => st.stage = Stage::ExpSign,
                b'-' => {
                    st.stage = Stage::ExpSign;
                    st.exp_neg = true;
                }
                b'0'..=b'9' => {
                    st.stage = Stage::ExpDigits;
                    st.exp = (b - b'0') as u32;
                }
                _ => return Err(err(ErrorKind::InvalidNumber, base, i)),
            },
            Stage::ExpSign => match b {
                b'0'..=b'9' => {
                    st.stage = Stage::ExpDigits;
                    st.exp = (b - b'0') as u32;
                }
                _ => return Err(err(ErrorKind::InvalidNumber, base, i)),
            },
            Stage::ExpDigits => match b {
                b'0'..=b'9' => {
                    st.exp = (st.exp * 10 + (b - b'0') as u32).min(EXP_CAP);
                }
                _ => return Ok(NumEnd::Done(i)),
            },
        }
        i += 1;
    }
}

/// Exact powers of ten representable in an f64 (10^0 ..= 10^22).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Correctly rounded value by Clinger's fast path, when it applies: the mantissa is an
/// exact integer <= 2^53 and the power of ten is exact, so the single multiplication or
/// division rounds correctly; that is the same unique result `f64::from_str` (also
/// correctly rounded) gives for the text.
fn fast_value(st: &NumState) -> Option<f64> {
    if st.lost || st.mant > (1u64 << 53) {
        return None;
    }
    let e = i64::from(st.exp);
    let e10 = if st.exp_neg { -e } else { e } - i64::from(st.frac_digits);
    let m = st.mant as f64;
    let v = if e10 >= 0 {
        m * POW10.get(usize::try_from(e10).ok()?)?
    } else {
        m / POW10.get(usize::try_from(-e10).ok()?)?
    };
    Some(if st.neg { -v } else { v })
}

fn slow_value(raw: &[u8]) -> Option<f64> {
    core::str::from_utf8(raw).ok()?.parse::<f64>().ok()
}

/// Builds the number token payload from its validated raw text and lexer state.
///
/// Numbers that may overflow (an exponent, or 309+ integer digits) are converted now so
/// that overflow to infinity is reported as [`ErrorKind::NumberOutOfRange`] at `offset`.
#[inline]
pub(crate) fn finish_number<'a>(
    raw: &'a [u8],
    st: &NumState,
    offset: u64,
) -> Result<JsonNumber<'a>, JsonError> {
    if let Some(v) = fast_value(st) {
        return Ok(JsonNumber {
            raw,
            value: v,
            ready: true,
        });
    }
    if st.has_exp || st.int_digits >= 309 {
        let v = slow_value(raw).ok_or(JsonError::new(ErrorKind::InvalidNumber, offset))?;
        if v.is_infinite() {
            return Err(JsonError::new(ErrorKind::NumberOutOfRange, offset));
        }
        return Ok(JsonNumber {
            raw,
            value: v,
            ready: true,
        });
    }
    // Fewer than 309 integer digits and no exponent: finite for sure; the exact
    // conversion is deferred to `value()` so skipping such numbers stays cheap.
    Ok(JsonNumber {
        raw,
        value: 0.0,
        ready: false,
    })
}

/// A number token: its raw text (validated JSON number grammar) and its `f64` value.
///
/// The value is exactly what `<f64 as core::str::FromStr>::from_str` gives for the raw
/// text (correctly rounded; `-0` is negative zero). Numbers that round to infinity are
/// rejected by the tokenizer, so the value is always finite.
#[derive(Clone, Copy, PartialEq)]
pub struct JsonNumber<'a> {
    raw: &'a [u8],
    value: f64,
    /// `value` is computed; otherwise `value()` parses `raw` on demand.
    ready: bool,
}

impl<'a> JsonNumber<'a> {
    /// The value as `f64`. O(1) for the common short forms; otherwise one correctly
    /// rounded parse of the raw text (never infinite, never NaN).
    pub fn value(&self) -> f64 {
        if self.ready {
            self.value
        } else {
            slow_value(self.raw).unwrap_or(0.0)
        }
    }

    /// The raw text exactly as in the input (ASCII).
    pub fn raw(&self) -> &'a str {
        core::str::from_utf8(self.raw).unwrap_or_default()
    }

    /// The raw text as bytes.
    pub const fn raw_bytes(&self) -> &'a [u8] {
        self.raw
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
        let mut st = NumState::start(b[0]);
        match lex_num(b, 1, &mut st, 0, true)? {
            NumEnd::Done(end) => {
                assert_eq!(end, b.len(), "{text}");
                finish_number(b, &st, 0)
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
