//! The values the walk computes with: molangjs's operands (numbers and
//! strings, as `compareValues` reads them) and how many an operator
//! reads.

use crate::molang::node::{Name, Node, Op, Program};

/// A string or a number: what `==` and the query functions compare.
#[derive(Clone, Copy)]
pub(super) enum Operand<'t> {
    Num(f64),
    Str(&'t [u8]),
}

impl Operand<'_> {
    pub(super) fn number(self) -> f64 {
        match self {
            Self::Num(x) => x,
            Self::Str(s) => to_number(s),
        }
    }

    /// JavaScript `===`.
    pub(super) fn strict_eq(self, other: Self) -> bool {
        match (self, other) {
            (Self::Num(a), Self::Num(b)) => a == b,
            (Self::Str(a), Self::Str(b)) => a == b,
            _ => false,
        }
    }

    /// JavaScript `==` between numbers and strings: a string compares as
    /// its number.
    pub(super) fn loose_eq(self, other: Self) -> bool {
        match (self, other) {
            (Self::Str(a), Self::Str(b)) => a == b,
            _ => self.number() == other.number(),
        }
    }
}

/// JavaScript `Number(string)` for decimal text: blank is 0, anything
/// else that is no decimal number is NaN.
fn to_number(s: &[u8]) -> f64 {
    let t = core::str::from_utf8(s).unwrap_or("").trim();
    if t.is_empty() {
        return 0.0;
    }
    if t.bytes()
        .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
    {
        t.parse().unwrap_or(f64::NAN)
    } else {
        f64::NAN
    }
}

impl Operand<'_> {
    /// The number held for it: a string's is read again, so 0.
    pub(super) fn number_or_zero(self) -> f64 {
        match self {
            Self::Num(x) => x,
            Self::Str(_) => 0.0,
        }
    }
}

/// Operands of an operator read in order (the rest are read as needed).
pub(super) fn arity(op: Op) -> u32 {
    match op {
        Op::Not
        | Op::Abs
        | Op::Sin
        | Op::Cos
        | Op::Exp
        | Op::Ln
        | Op::Sqrt
        | Op::Ceil
        | Op::Round
        | Op::Trunc
        | Op::Floor
        | Op::Asin
        | Op::Acos
        | Op::Atan
        | Op::HermiteBlend
        | Op::MinAngle
        | Op::Sign => 1,
        Op::DieRoll
        | Op::DieRollInteger
        | Op::Clamp
        | Op::Lerp
        | Op::LerpRotate
        | Op::InverseLerp
        | Op::Ease(_) => 3,
        _ => 2,
    }
}

/// Operand `i` of `==` or a call as molangjs's `compareValues` reads it: a
/// quoted name or a string argument is its text (`Ok`); anything else is
/// read as the node an item points to (`Err`).
pub(super) fn static_operand<'a>(p: &Program<'a>, mut i: u32) -> Result<&'a [u8], u32> {
    loop {
        let text = |name: Name| {
            p.text
                .get(name.start as usize..name.end as usize)
                .unwrap_or(&[])
        };
        match p.nodes.get(i as usize).map(|n| n.unpack()) {
            Some(Node::Var(name)) if p.text.get(name.start as usize) == Some(&b'\'') => {
                return Ok(text(name));
            }
            Some(Node::Item(x)) => i = x,
            Some(Node::Str(name)) => return Ok(text(name)),
            _ => return Err(i),
        }
    }
}
