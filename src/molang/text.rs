//! The text molangjs works on, and its bracket-aware splits.
//!
//! molangjs (the Molang library Blockbench 5 locks, 1.7.0) lowercases an
//! expression and deletes every JavaScript `\s` character before reading it
//! (`parse`: `input.toLowerCase().replace(/\s/g, '')`), then reads it by
//! splitting the text at operators outside brackets. This file holds that
//! normalized text and the splits; `compile.rs` decides what to split on.
//! Positions count UTF-16 units as JavaScript's `length` does: a non-ASCII
//! character becomes one [`OTHER`] byte per unit, which no rule matches.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "indices stay inside the slice they index: each loop runs below its length, and `i - 1` is taken only when i > 0"
)]

/// A byte standing for one UTF-16 unit of a non-ASCII character.
pub(crate) const OTHER: u8 = 0xFF;

/// JavaScript's `\s`: the characters molangjs deletes.
pub(crate) fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// Bytes of `src` normalized.
pub(crate) fn normalized_len(src: &str) -> usize {
    src.chars()
        .filter(|c| !is_js_space(*c))
        .map(|c| if c.is_ascii() { 1 } else { c.len_utf16() })
        .sum()
}

/// Writes `src` normalized into `out` (exactly `normalized_len(src)` bytes).
pub(crate) fn normalize(src: &str, out: &mut [u8]) {
    let mut bytes = out.iter_mut();
    for c in src.chars().filter(|c| !is_js_space(*c)) {
        let (byte, units) = if c.is_ascii() {
            (c.to_ascii_lowercase() as u8, 1)
        } else {
            (OTHER, c.len_utf16())
        };
        for _ in 0..units {
            if let Some(b) = bytes.next() {
                *b = byte;
            }
        }
    }
}

/// The byte offset in `src` of normalized position `at`.
pub(crate) fn original_offset(src: &str, at: usize) -> usize {
    let mut seen = 0;
    for (i, c) in src.char_indices() {
        if is_js_space(c) {
            continue;
        }
        if seen >= at {
            return i;
        }
        seen += if c.is_ascii() { 1 } else { c.len_utf16() };
    }
    src.len()
}

fn opens(b: u8) -> bool {
    b == b'(' || b == b'{'
}

fn closes(b: u8) -> bool {
    b == b')' || b == b'}'
}

fn starts_at(s: &[u8], i: usize, pat: &[u8]) -> bool {
    s.get(i..).is_some_and(|rest| rest.starts_with(pat))
}

/// First `pat` outside brackets, scanning forward (molangjs `splitString`):
/// the index where it starts.
pub(crate) fn find_first(s: &[u8], pat: &[u8]) -> Option<usize> {
    let mut level: i64 = 0;
    for (i, &b) in s.iter().enumerate() {
        if opens(b) {
            level += 1;
        } else if closes(b) {
            level -= 1;
        } else if level == 0 && starts_at(s, i, pat) {
            return Some(i);
        }
    }
    None
}

/// Last `pat` outside brackets, scanning backward (molangjs
/// `splitStringReverse`). A `-` right after another operator is a sign, not
/// a split.
pub(crate) fn find_last(s: &[u8], pat: &[u8]) -> Option<usize> {
    let mut level: i64 = 0;
    for i in (0..s.len()).rev() {
        let b = s.get(i).copied().unwrap_or(0);
        if opens(b) {
            level += 1;
        } else if closes(b) {
            level -= 1;
        } else if level == 0 && starts_at(s, i, pat) {
            let signed =
                pat == b"-" && i > 0 && s.get(i - 1).is_some_and(|p| b"+-*/<>=|&?:".contains(p));
            if !signed {
                return Some(i);
            }
        }
    }
    None
}

/// Whether the whole of `s` is one bracket pair (molangjs `canTrimBrackets`).
pub(crate) fn can_trim(s: &[u8]) -> bool {
    let (Some(&first), Some(&last)) = (s.first(), s.last()) else {
        return false;
    };
    let round = first == b'(' && last == b')';
    if !(round || first == b'{' && last == b'}') {
        return false;
    }
    let close = if round { b')' } else { b'}' };
    if s.iter().position(|&b| b == close) == Some(s.len() - 1) {
        return true;
    }
    let mut level: i64 = 0;
    for &b in s.iter().take(s.len() - 1) {
        if opens(b) {
            level += 1;
        } else if closes(b) {
            level -= 1;
        }
        if level == 0 {
            return false;
        }
    }
    true
}

/// molangjs `isStringNumber`: `/^-?\d+(\.\d+f?)?$/`.
pub(crate) fn is_number(s: &[u8]) -> bool {
    let s = s.strip_prefix(b"-").unwrap_or(s);
    let int = s.iter().take_while(|b| b.is_ascii_digit()).count();
    if int == 0 {
        return false;
    }
    let Some(rest) = s.get(int..) else {
        return false;
    };
    if rest.is_empty() {
        return true;
    }
    let Some(frac) = rest.strip_prefix(b".") else {
        return false;
    };
    let digits = frac.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0 && matches!(frac.get(digits..), Some(b"" | b"f"))
}

/// `parseFloat` of text [`is_number`] accepted.
pub(crate) fn number(s: &[u8]) -> f64 {
    let s = s.strip_suffix(b"f").unwrap_or(s);
    core::str::from_utf8(s)
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0.0)
}

/// molangjs's test for a plain name: the matches of `/[a-z0-9._]{2,}/g` are
/// exactly one, and it is at most two shorter than the text.
pub(crate) fn is_name(s: &[u8]) -> bool {
    let word = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'.' || *b == b'_';
    let mut runs = 0;
    let mut longest = 0;
    for run in s.split(|b| !word(b)) {
        if run.len() >= 2 {
            runs += 1;
            longest = run.len();
        }
    }
    runs == 1 && longest + 2 >= s.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalization_lowercases_and_drops_js_whitespace() {
        // molangjs parse: input.toLowerCase().replace(/\s/g, '')
        let src = "Math.Sin( q.Anim_Time\u{a0}*\t90 )\u{feff}";
        let mut out = [0u8; 64];
        let n = normalized_len(src);
        normalize(src, &mut out[..n]);
        assert_eq!(&out[..n], b"math.sin(q.anim_time*90)");
        assert_eq!(original_offset(src, 9), 10);
    }

    #[test]
    fn non_ascii_counts_utf16_units() {
        // JavaScript lengths are UTF-16 units: 'é' is one, '😀' is two.
        assert_eq!(normalized_len("é😀"), 3);
    }

    #[test]
    fn splits_skip_brackets_and_signs() {
        // splitStringReverse: a '-' after an operator is a sign.
        assert_eq!(find_last(b"2*-3", b"-"), None);
        assert_eq!(find_last(b"2--3", b"-"), Some(1));
        assert_eq!(find_first(b"(a+b)+c", b"+"), Some(5));
        assert_eq!(find_last(b"a+(b+c)", b"+"), Some(1));
    }

    #[test]
    fn bracket_trim_follows_can_trim_brackets() {
        assert!(can_trim(b"(a+b)"));
        assert!(!can_trim(b"(a)+(b)"));
        assert!(can_trim(b"{a;b}"));
        assert!(can_trim(b"((a)"));
        assert!(!can_trim(b"(a}"));
    }

    #[test]
    fn numbers_and_names_follow_molangjs_regexes() {
        for yes in [&b"1"[..], b"-2", b"3.25", b"4.5f"] {
            assert!(is_number(yes), "{yes:?}");
        }
        for no in [&b".5"[..], b"1.", b"1e5", b"5f", b"--1", b""] {
            assert!(!is_number(no), "{no:?}");
        }
        assert_eq!(number(b"4.5f"), 4.5);
        assert!(is_name(b"query.anim_time"));
        assert!(is_name(b"v.x'"));
        assert!(!is_name(b"math.sin(30)"));
        assert!(!is_name(b"a"));
    }
}
