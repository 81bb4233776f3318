//! What Blockbench's `molang_syntax` check (`js/animations/molang.js`)
//! flags, found in the text as written so a warning can say where. The
//! expression still plays as molangjs reads it; this only names the
//! first problem. Quoted text (`'…'`, greedy as Blockbench's `/'.*'/`)
//! is skipped as Blockbench replaces it with `0`.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "indices below the text's length"
)]

use super::error::{MolangError, MolangErrorCode};
use super::text::is_js_space;

fn word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

fn allowed(b: u8) -> bool {
    word(b) || space(b) || b"+-*/().,;:[]!?=<>&|".contains(&b)
}

/// The first problem Blockbench's syntax check reports in `src`, if any.
pub fn check(src: &str) -> Option<MolangError> {
    let bytes = src.as_bytes();
    // Blockbench: string.replace(/'.*'/g, '0') — from the first quote to the last.
    let quoted = match (
        bytes.iter().position(|&b| b == b'\''),
        bytes.iter().rposition(|&b| b == b'\''),
    ) {
        (Some(a), Some(b)) if b > a => Some((a, b)),
        _ => None,
    };
    let visible = |i: usize| quoted.is_none_or(|(a, b)| i < a || i > b);
    let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
    let err = |offset, expected| Some(MolangError::new(MolangErrorCode::Syntax, offset, expected));
    let next_solid = |mut i: usize| {
        while i < bytes.len() && space(at(i)) {
            i += 1;
        }
        i
    };
    // Brackets do not match (counted over the whole text, quotes included).
    let open = bytes.iter().filter(|&&b| b == b'(').count();
    let close = bytes.iter().filter(|&&b| b == b')').count();
    for i in (0..bytes.len()).filter(|&i| visible(i)) {
        let b = at(i);
        if i == 0 && b"+*/.,?=&<>|".contains(&b) {
            return err(i, "an operand at the start");
        }
        if b"+-*/".contains(&b) {
            let j = next_solid(i + 1);
            let n = at(j);
            if visible(j) && (b"+*/".contains(&n) || (b == b'+' && n == b'-')) {
                return err(j, "an operand between two operators");
            }
        }
        if (word(b) || b == b'.') && i + 1 < bytes.len() && space(at(i + 1)) {
            let j = next_solid(i + 1);
            if j < bytes.len() && visible(j) && (word(at(j)) || at(j) == b'.') {
                return err(j, "an operator between two operands");
            }
        }
        if (b.is_ascii_digit() || b == b'.') && (i == 0 || !word(at(i - 1))) {
            let mut j = i;
            while j < bytes.len() && (at(j).is_ascii_digit() || at(j) == b'.') {
                j += 1;
            }
            if at(j).is_ascii_alphabetic() || at(j) == b'_' {
                return err(i, "a number or a name, not both run together");
            }
        }
        if b >= 0x80 {
            // A non-ASCII character is allowed only as JavaScript whitespace.
            let c = src.get(i..).and_then(|s| s.chars().next());
            if c.is_some_and(|c| !is_js_space(c)) {
                return err(i, "a Molang character");
            }
        } else if !allowed(b) {
            return err(i, "a Molang character");
        }
    }
    if open != close {
        let i = bytes
            .iter()
            .rposition(|&b| b == b'(' || b == b')')
            .unwrap_or(0);
        return err(i, "matching brackets");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_what_blockbenchs_syntax_check_flags() {
        // molang.js ValidatorCheck 'molang_syntax', one rule each.
        assert_eq!(check("1 + * 2").map(|e| e.offset), Some(4));
        assert_eq!(check("*2").map(|e| e.offset), Some(0));
        assert_eq!(check("a b").map(|e| e.offset), Some(2));
        assert_eq!(check("2x").map(|e| e.offset), Some(0));
        assert_eq!(check("1 # 2").map(|e| e.offset), Some(2));
        assert_eq!(check("math.sin(1").map(|e| e.offset), Some(8));
        assert_eq!(check("math.sin(q.anim_time * 90) * -2"), None);
        assert_eq!(check("v.x == 'a b # c'"), None);
    }
}
