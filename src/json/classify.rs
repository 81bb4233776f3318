//! Sixteen input bytes classified at once: one bit per byte, lowest address in bit 0.
//!
//! The lexer's fast path asks "where does this string body end?" once per string.
//! Answered byte by byte, that is a loop whose exit branch mispredicts whenever the
//! length differs from the last string's; answered for sixteen bytes at once, it is a
//! handful of instructions and one well-predicted branch (most keys and uuids end within
//! the first block). On x86-64 the masks come from SSE2, which every x86-64 CPU has,
//! through `safe_arch`'s safe wrappers, so this crate stays free of `unsafe`; elsewhere
//! a byte loop computes the same masks. Tests check both against the byte rules.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "bit tricks on u64 words (SWAR) and positions below the input's length; every shift and product is by constants that keep within the word"
)]

/// Sixteen consecutive input bytes.
pub(crate) type Block = [u8; 16];

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use sse2 as chosen;

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
use portable as chosen;

/// Bit `k` is set when byte `k` ends a plain run of a string body
/// ([`is_string_special`]).
#[inline(always)]
pub(crate) fn string_special(b: &Block) -> u32 {
    chosen::string_special(b)
}

/// The quotes of a block, and its [`string_special`] bytes (quotes included), from
/// one load: a string's end is found from the quotes alone, the short
/// dependency chain that the next token's position waits for, while the other
/// special bytes are only checked.
#[inline(always)]
pub(crate) fn quote_and_special(b: &Block) -> (u32, u32) {
    chosen::quote_and_special(b)
}

/// Bit `k` is set when byte `k` is not an ASCII digit; bits 16 to 31 are set too, so
/// that `trailing_zeros` counts a block's leading digits.
#[inline(always)]
pub(crate) fn non_digit(b: &Block) -> u32 {
    chosen::non_digit(b)
}

/// The bytes of a 64-byte block that matter to a walk by brackets, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Structure {
    /// `"`
    pub(crate) quote: u64,
    /// `\`
    pub(crate) backslash: u64,
    /// `[` or `{`
    pub(crate) open: u64,
    /// `]` or `}`
    pub(crate) close: u64,
    /// `,`
    pub(crate) comma: u64,
}

/// Classifies 64 bytes for a walk by brackets (four blocks of sixteen).
#[inline(always)]
pub(crate) fn structure(b: &[u8; 64]) -> Structure {
    let (blocks, _) = b.as_chunks::<16>();
    blocks
        .iter()
        .enumerate()
        .fold(Structure::default(), |s, (k, block)| {
            let q = chosen::structure16(block);
            let at = 16 * k;
            Structure {
                quote: s.quote | (u64::from(q.quote) << at),
                backslash: s.backslash | (u64::from(q.backslash) << at),
                open: s.open | (u64::from(q.open) << at),
                close: s.close | (u64::from(q.close) << at),
                comma: s.comma | (u64::from(q.comma) << at),
            }
        })
}

/// [`Structure`] of one block of sixteen bytes, in the low 16 bits of each mask.
#[derive(Clone, Copy)]
struct Structure16 {
    quote: u32,
    backslash: u32,
    open: u32,
    close: u32,
    comma: u32,
}

/// The bytes that end a plain run of a string body: `"`, `\`, a control character
/// (< 0x20), or a byte of a multi-byte UTF-8 sequence (≥ 0x80).
#[inline(always)]
pub(crate) const fn is_string_special(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20 || b >= 0x80
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use super::{Block, Structure16};
    use safe_arch::{
        bitand_m128i, bitor_m128i, cmp_eq_mask_i8_m128i, cmp_gt_mask_i8_m128i,
        cmp_lt_mask_i8_m128i, load_unaligned_m128i, m128i, move_mask_i8_m128i, set_splat_i8_m128i,
    };

    /// Every byte of the vector set to `b`.
    #[inline(always)]
    fn splat(b: u8) -> m128i {
        set_splat_i8_m128i(i8::from_ne_bytes([b]))
    }

    /// One bit per byte from the high bits of a compare result.
    #[inline(always)]
    fn bits(v: m128i) -> u32 {
        // `movemask` sets only the low 16 bits, so the value is never negative.
        move_mask_i8_m128i(v).cast_unsigned()
    }

    #[inline(always)]
    pub(super) fn quote_and_special(b: &Block) -> (u32, u32) {
        let v = load_unaligned_m128i(b);
        let quote = cmp_eq_mask_i8_m128i(v, splat(b'"'));
        let backslash = cmp_eq_mask_i8_m128i(v, splat(b'\\'));
        let low = cmp_lt_mask_i8_m128i(v, splat(0x20));
        (
            bits(quote),
            bits(bitor_m128i(bitor_m128i(quote, backslash), low)),
        )
    }

    #[inline(always)]
    pub(super) fn string_special(b: &Block) -> u32 {
        let v = load_unaligned_m128i(b);
        let quote = cmp_eq_mask_i8_m128i(v, splat(b'"'));
        let backslash = cmp_eq_mask_i8_m128i(v, splat(b'\\'));
        // A signed compare: controls and every byte >= 0x80 (negative) are below 0x20.
        let low = cmp_lt_mask_i8_m128i(v, splat(0x20));
        bits(bitor_m128i(bitor_m128i(quote, backslash), low))
    }

    #[inline(always)]
    pub(super) fn non_digit(b: &Block) -> u32 {
        let v = load_unaligned_m128i(b);
        // Signed compares: bytes >= 0x80 are negative, so never above `/`.
        let digit = bitand_m128i(
            cmp_gt_mask_i8_m128i(v, splat(b'/')),
            cmp_lt_mask_i8_m128i(v, splat(b':')),
        );
        !bits(digit)
    }

    #[inline(always)]
    pub(super) fn structure16(b: &Block) -> Structure16 {
        let v = load_unaligned_m128i(b);
        let eq = |c: u8| bits(cmp_eq_mask_i8_m128i(v, splat(c)));
        // `[` and `{` differ only in bit 0x20, as do `]` and `}`.
        let folded = bitor_m128i(v, splat(0x20));
        let folded_eq = |c: u8| bits(cmp_eq_mask_i8_m128i(folded, splat(c)));
        Structure16 {
            quote: eq(b'"'),
            backslash: eq(b'\\'),
            open: folded_eq(b'{'),
            close: folded_eq(b'}'),
            comma: eq(b','),
        }
    }
}

#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
mod portable {
    use super::{Block, Structure16, is_string_special};

    /// The mask of the bytes of `b` for which `rule` holds, one byte at a time.
    #[inline(always)]
    fn bytewise(b: &Block, rule: fn(u8) -> bool) -> u32 {
        b.iter()
            .enumerate()
            .fold(0, |m, (k, &x)| m | (u32::from(rule(x)) << k))
    }

    #[inline(always)]
    pub(super) fn quote_and_special(b: &Block) -> (u32, u32) {
        (bytewise(b, |x| x == b'"'), string_special(b))
    }

    #[inline(always)]
    pub(super) fn string_special(b: &Block) -> u32 {
        bytewise(b, is_string_special)
    }

    #[inline(always)]
    pub(super) fn non_digit(b: &Block) -> u32 {
        bytewise(b, |x| !x.is_ascii_digit()) | 0xFFFF_0000
    }

    #[inline(always)]
    pub(super) fn structure16(b: &Block) -> Structure16 {
        Structure16 {
            quote: bytewise(b, |x| x == b'"'),
            backslash: bytewise(b, |x| x == b'\\'),
            open: bytewise(b, |x| x == b'[' || x == b'{'),
            close: bytewise(b, |x| x == b']' || x == b'}'),
            comma: bytewise(b, |x| x == b','),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value in every lane, among neighbours that are and are not marked:
    /// the mask `classify` gives is the one `rule` gives byte by byte, plus `high`.
    fn marks_exactly(classify: fn(&Block) -> u32, rule: fn(u8) -> bool, high: u32) {
        for fill in [b'a', b'0', b'"', 0x00, 0xFF] {
            for lane in 0..16 {
                for x in 0..=255u8 {
                    let mut b = [fill; 16];
                    b[lane] = x;
                    let want = b
                        .iter()
                        .enumerate()
                        .fold(high, |m, (k, &y)| m | (u32::from(rule(y)) << k));
                    assert_eq!(
                        classify(&b),
                        want,
                        "byte {x:#04x} in lane {lane} among {fill:#04x}"
                    );
                }
            }
        }
    }

    #[test]
    fn string_special_marks_quote_backslash_controls_and_non_ascii() {
        marks_exactly(string_special, is_string_special, 0);
        marks_exactly(portable::string_special, is_string_special, 0);
    }

    #[test]
    fn quote_and_special_marks_quotes_and_the_string_specials() {
        let quote = |b: u8| b == b'"';
        marks_exactly(|b| quote_and_special(b).0, quote, 0);
        marks_exactly(|b| portable::quote_and_special(b).0, quote, 0);
        marks_exactly(|b| quote_and_special(b).1, is_string_special, 0);
        marks_exactly(|b| portable::quote_and_special(b).1, is_string_special, 0);
    }

    #[test]
    fn non_digit_marks_all_but_0_to_9_and_sets_the_high_half() {
        let rule = |b: u8| !b.is_ascii_digit();
        marks_exactly(non_digit, rule, 0xFFFF_0000);
        marks_exactly(portable::non_digit, rule, 0xFFFF_0000);
    }

    #[test]
    fn structure_marks_quotes_backslashes_brackets_and_commas() {
        type Rule = (fn(&Structure) -> u64, fn(u8) -> bool);
        let rules: [Rule; 5] = [
            (|s| s.quote, |b| b == b'"'),
            (|s| s.backslash, |b| b == b'\\'),
            (|s| s.open, |b| b == b'[' || b == b'{'),
            (|s| s.close, |b| b == b']' || b == b'}'),
            (|s| s.comma, |b| b == b','),
        ];
        for fill in [b'a', b'"', b'{', b']', 0xFF] {
            for lane in 0..64 {
                for x in 0..=255u8 {
                    let mut b = [fill; 64];
                    b[lane] = x;
                    let s = structure(&b);
                    for (mask, rule) in rules {
                        let want = b
                            .iter()
                            .enumerate()
                            .fold(0u64, |m, (k, &y)| m | (u64::from(rule(y)) << k));
                        assert_eq!(
                            mask(&s),
                            want,
                            "byte {x:#04x} in lane {lane} among {fill:#04x}"
                        );
                    }
                    let p = portable::structure16(b.first_chunk::<16>().unwrap());
                    let low = |m: u64| u32::try_from(m & 0xFFFF).unwrap();
                    assert_eq!(
                        [p.quote, p.backslash, p.open, p.close, p.comma],
                        [
                            low(s.quote),
                            low(s.backslash),
                            low(s.open),
                            low(s.close),
                            low(s.comma)
                        ]
                    );
                }
            }
        }
    }

    #[test]
    fn bit_k_is_byte_k() {
        let mut b = *b"abcdefghijklmnop";
        b[5] = b'"';
        b[11] = b'\\';
        assert_eq!(string_special(&b), (1 << 5) | (1 << 11));
    }
}
