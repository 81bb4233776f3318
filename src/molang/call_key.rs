//! Placeholders keyed with arguments (Blockbench 5): `variableHandler`
//! also looks a call up as `name(arg,arg)`, each argument written as
//! JavaScript writes it, a string in quotes unless it reads as a number
//! (`js/animations/molang.js`, `isStringNumber` of `js/util/math_util.js`).
//! Keys are compared as text, so `query.f(1,'a')` answers `q.f(1, 'a')`.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "lengths and positions inside the slices compared"
)]

use core::fmt::Write;

use super::text::is_number;

/// An argument's value as the key spells it.
#[derive(Clone, Copy)]
pub(crate) enum Arg<'t> {
    Num(f64),
    Str(&'t [u8]),
}

/// Most arguments a keyed lookup compares; a call with more finds no key.
pub(crate) const MAX_KEY_ARGS: usize = 8;

/// `String(x)` for the numbers JavaScript writes without an exponent
/// (1e-6 ≤ |x| < 1e21, and 0); `None` for the rest.
fn js_number(x: f64, out: &mut Buf) -> Option<()> {
    if x == 0.0 {
        return out.write_str("0").ok();
    }
    if x.is_nan() {
        return out.write_str("NaN").ok();
    }
    if x.is_infinite() {
        return out
            .write_str(if x > 0.0 { "Infinity" } else { "-Infinity" })
            .ok();
    }
    let a = libm::fabs(x);
    if !(1e-6..1e21).contains(&a) {
        return None;
    }
    // Rust's shortest round-trip digits are JavaScript's in this range.
    write!(out, "{x}").ok()
}

struct Buf {
    bytes: [u8; 40],
    len: usize,
}

impl Write for Buf {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        let dest = self.bytes.get_mut(self.len..end).ok_or(core::fmt::Error)?;
        dest.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

fn piece_is(piece: &[u8], arg: Arg<'_>) -> bool {
    match arg {
        Arg::Num(x) => {
            let mut buf = Buf {
                bytes: [0; 40],
                len: 0,
            };
            js_number(x, &mut buf).is_some() && buf.bytes.get(..buf.len) == Some(piece)
        }
        Arg::Str(s) if is_number(s) => piece == s,
        Arg::Str(s) => {
            piece.len() == s.len() + 2
                && piece.first() == Some(&b'\'')
                && piece.last() == Some(&b'\'')
                && piece.get(1..piece.len() - 1) == Some(s)
        }
    }
}

/// Whether the key (expansion, rest) is `name(args)` for the call's name
/// (expansion, rest) and arguments.
pub(crate) fn matches(key: (&[u8], &[u8]), name: (&[u8], &[u8]), args: &[Arg<'_>]) -> bool {
    let n = name.0.len() + name.1.len();
    if args.is_empty() || n < key.0.len() {
        return false;
    }
    let key_all = key.0.iter().chain(key.1);
    if !key_all.take(n).eq(name.0.iter().chain(name.1)) {
        return false;
    }
    let Some(rest) = key.1.get(n - key.0.len()..) else {
        return false;
    };
    let Some(inner) = rest.strip_prefix(b"(").and_then(|r| r.strip_suffix(b")")) else {
        return false;
    };
    let mut pieces = inner.split(|&b| b == b',');
    args.iter()
        .all(|&a| pieces.next().is_some_and(|p| piece_is(p, a)))
        && pieces.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_spell_arguments_as_blockbench_joins_them() {
        let name = (&b"query"[..], &b".f"[..]);
        let key = (&b""[..], &b"query.f(1,'a',0.5)"[..]);
        assert!(matches(
            key,
            name,
            &[Arg::Num(1.0), Arg::Str(b"a"), Arg::Num(0.5)]
        ));
        assert!(!matches(key, name, &[Arg::Num(1.0), Arg::Str(b"a")]));
        assert!(!matches(
            key,
            name,
            &[Arg::Num(2.0), Arg::Str(b"a"), Arg::Num(0.5)]
        ));
        // A string that reads as a number is written bare.
        assert!(matches((b"", b"query.f(3)"), name, &[Arg::Str(b"3")]));
        assert!(matches((b"", b"query.f(0)"), name, &[Arg::Num(-0.0)]));
    }
}
