//! Base64 sixteen symbols at a time: which bytes of a block are alphabet
//! symbols (one mask), and a block of sixteen symbols decoded to twelve
//! bytes, with the byte loop of the last partial block beside them.
//!
//! Decoded one symbol after another, every symbol waits for the shift of
//! the one before it (two cycles each); a block is decoded in parallel
//! lanes instead. On x86-64 the masks and the decode come from SSE2
//! through `safe_arch`'s safe wrappers (as in `json/classify.rs`); other
//! targets compute the same results with table lookups, and tests check
//! both paths against the byte rules.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "positions and lengths index the input or a caller buffer (at most isize::MAX bytes) and advance by at most what was just read or checked, so they stay below usize::MAX"
)]

/// Sixteen consecutive bytes.
pub(super) type Block = [u8; 16];

/// [`CLASS`]'s mark for a byte outside the alphabet.
pub(super) const NOT_SYMBOL: u8 = 0x80;
/// Each byte's base64 value, or NOT_SYMBOL.
#[allow(
    clippy::indexing_slicing,
    reason = "const evaluation: every index is a byte value below 256, and an out-of-range one would fail the build"
)]
pub(super) const CLASS: [u8; 256] = {
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
    t
};

/// A byte's [`CLASS`].
#[inline(always)]
#[allow(
    clippy::indexing_slicing,
    reason = "a u8 index is below 256, CLASS's length"
)]
pub(super) fn class(b: u8) -> u8 {
    CLASS[usize::from(b)]
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use sse2 as chosen;

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
use portable as chosen;

/// Bit `k` is set when byte `k` of the block is a base64 symbol; bits 16
/// to 31 are clear, so `trailing_ones` counts the block's leading symbols.
#[inline(always)]
pub(super) fn symbols(b: &Block) -> u32 {
    chosen::symbols(b)
}

/// Bit `k` is set when byte `k` is ASCII whitespace (tab, line feed, form
/// feed, carriage return, space: what forgiving-base64 removes).
#[inline(always)]
pub(super) fn whitespace(b: &Block) -> u32 {
    chosen::whitespace(b)
}

/// Bit `k` is set when byte `k` is `x`.
#[inline(always)]
pub(super) fn equal(b: &Block, x: u8) -> u32 {
    chosen::equal(b, x)
}

/// Sixteen symbols (all in the alphabet) decoded to twelve bytes.
#[inline(always)]
fn decode16(b: &Block) -> [u8; 12] {
    chosen::decode16(b)
}

/// Decodes base64 symbols (all in the alphabet; the last group may hold 2
/// or 3) into `out`, which holds at least `symbols.len() * 3 / 4` bytes;
/// returns the bytes written.
pub(super) fn decode_symbols(symbols: &[u8], out: &mut [u8]) -> usize {
    let (blocks, tail) = symbols.as_chunks::<16>();
    let (outs, _) = out.as_chunks_mut::<12>();
    let mut written = 0;
    for (b, o) in blocks.iter().zip(outs) {
        *o = decode16(b);
        written += 12;
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

/// Four 24-bit groups, the first in the high bits of each, as twelve bytes.
#[inline(always)]
fn groups_to_bytes(g: [u32; 4]) -> [u8; 12] {
    let pair = |a: u32, b: u32| ((u64::from(a) << 40) | (u64::from(b) << 16)).to_be_bytes();
    let [a0, a1, a2, a3, a4, a5, ..] = pair(g[0], g[1]);
    let [b0, b1, b2, b3, b4, b5, ..] = pair(g[2], g[3]);
    [a0, a1, a2, a3, a4, a5, b0, b1, b2, b3, b4, b5]
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use super::{Block, groups_to_bytes};
    use safe_arch::{
        add_i8_m128i, bitand_m128i, bitandnot_m128i, bitor_m128i, cmp_eq_mask_i8_m128i,
        cmp_gt_mask_i8_m128i, cmp_lt_mask_i8_m128i, load_unaligned_m128i, m128i,
        move_mask_i8_m128i, mul_i16_horizontal_add_m128i, set_splat_i8_m128i, set_splat_i16_m128i,
        shl_imm_u16_m128i, shr_imm_u16_m128i, store_unaligned_m128i,
    };

    #[inline(always)]
    fn splat(b: u8) -> m128i {
        set_splat_i8_m128i(i8::from_ne_bytes([b]))
    }

    /// Bytes strictly between `lo` and `hi` (signed compares: bytes ≥ 0x80
    /// are negative, so never in a range of ASCII bounds).
    #[inline(always)]
    fn between(v: m128i, lo: u8, hi: u8) -> m128i {
        bitand_m128i(
            cmp_gt_mask_i8_m128i(v, splat(lo)),
            cmp_lt_mask_i8_m128i(v, splat(hi)),
        )
    }

    #[inline(always)]
    pub(super) fn symbols(b: &Block) -> u32 {
        let v = load_unaligned_m128i(b);
        let letters = bitor_m128i(
            between(v, b'A' - 1, b'Z' + 1),
            between(v, b'a' - 1, b'z' + 1),
        );
        let digits = between(v, b'0' - 1, b'9' + 1);
        let signs = bitor_m128i(
            cmp_eq_mask_i8_m128i(v, splat(b'+')),
            cmp_eq_mask_i8_m128i(v, splat(b'/')),
        );
        let all = bitor_m128i(bitor_m128i(letters, digits), signs);
        // `movemask` sets only the low 16 bits, so the value is never negative.
        move_mask_i8_m128i(all).cast_unsigned()
    }

    #[inline(always)]
    pub(super) fn whitespace(b: &Block) -> u32 {
        let v = load_unaligned_m128i(b);
        // Tab, line feed, form feed and carriage return are 0x09 to 0x0D
        // less vertical tab (0x0B).
        let controls =
            bitandnot_m128i(cmp_eq_mask_i8_m128i(v, splat(0x0B)), between(v, 0x08, 0x0E));
        let ws = bitor_m128i(controls, cmp_eq_mask_i8_m128i(v, splat(b' ')));
        move_mask_i8_m128i(ws).cast_unsigned()
    }

    #[inline(always)]
    pub(super) fn equal(b: &Block, x: u8) -> u32 {
        let v = load_unaligned_m128i(b);
        move_mask_i8_m128i(cmp_eq_mask_i8_m128i(v, splat(x))).cast_unsigned()
    }

    #[inline(always)]
    pub(super) fn decode16(b: &Block) -> [u8; 12] {
        let v = load_unaligned_m128i(b);
        // A symbol's value is the byte plus an offset that depends on its
        // range: upper case −65, lower case −71, digits +4, `+` +19, `/` +16
        // (the last two are below `:`, so they take the digits' +4 too).
        let lower = cmp_gt_mask_i8_m128i(v, splat(b'a' - 1));
        let below_colon = cmp_lt_mask_i8_m128i(v, splat(b':'));
        let plus = cmp_eq_mask_i8_m128i(v, splat(b'+'));
        let slash = cmp_eq_mask_i8_m128i(v, splat(b'/'));
        let offset = [
            bitand_m128i(lower, splat((-6i8).cast_unsigned())),
            bitand_m128i(below_colon, splat(69)),
            bitand_m128i(plus, splat(15)),
            bitand_m128i(slash, splat(12)),
        ]
        .into_iter()
        .fold(splat((-65i8).cast_unsigned()), add_i8_m128i);
        let values = add_i8_m128i(v, offset);
        // Pairs of 6-bit values into 12 bits (first symbol high), then pairs
        // of those into 24 bits.
        let high = bitand_m128i(shl_imm_u16_m128i::<6>(values), set_splat_i16_m128i(0x0FC0));
        let twelve = bitor_m128i(high, shr_imm_u16_m128i::<8>(values));
        let groups = mul_i16_horizontal_add_m128i(twelve, set_splat_i32_pair());
        let mut lanes = [0u8; 16];
        store_unaligned_m128i(&mut lanes, groups);
        let (words, _) = lanes.as_chunks::<4>();
        let g = |k: usize| words.get(k).copied().map_or(0, u32::from_le_bytes);
        groups_to_bytes([g(0), g(1), g(2), g(3)])
    }

    /// The multipliers per 32-bit lane: 4096 for its low 16 bits (the
    /// first 12-bit value), 1 for its high 16 bits.
    #[inline(always)]
    fn set_splat_i32_pair() -> m128i {
        safe_arch::set_splat_i32_m128i(4096 | (1 << 16))
    }
}

#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
mod portable {
    use super::{Block, NOT_SYMBOL, class, groups_to_bytes};

    #[inline(always)]
    pub(super) fn symbols(b: &Block) -> u32 {
        bytewise(b, |x| class(x) & NOT_SYMBOL == 0)
    }

    #[inline(always)]
    pub(super) fn whitespace(b: &Block) -> u32 {
        bytewise(b, |x| matches!(x, b'\t' | b'\n' | 0x0C | b'\r' | b' '))
    }

    #[inline(always)]
    pub(super) fn equal(b: &Block, x: u8) -> u32 {
        b.iter()
            .enumerate()
            .fold(0, |m, (k, &y)| m | (u32::from(y == x) << k))
    }

    /// The mask of the bytes of `b` for which `rule` holds.
    #[inline(always)]
    fn bytewise(b: &Block, rule: fn(u8) -> bool) -> u32 {
        b.iter()
            .enumerate()
            .fold(0, |m, (k, &x)| m | (u32::from(rule(x)) << k))
    }

    #[inline(always)]
    pub(super) fn decode16(b: &Block) -> [u8; 12] {
        let (quads, _) = b.as_chunks::<4>();
        let group = |k: usize| {
            quads.get(k).map_or(0, |q| {
                // Independent shifts, so the four lookups run side by side.
                let v = q.map(|c| u32::from(class(c) & 0x3F));
                (v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3]
            })
        };
        groups_to_bytes([group(0), group(1), group(2), group(3)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::XorShift;

    /// Bytes a test draws from: every symbol, and bytes that are not.
    fn random_block(rng: &mut XorShift, odd_ones: bool) -> Block {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        core::array::from_fn(|_| {
            if odd_ones && rng.below(4) == 0 {
                rng.next().to_le_bytes()[0]
            } else {
                ALPHABET[rng.below(64) as usize]
            }
        })
    }

    #[test]
    fn symbol_whitespace_and_byte_masks_match_the_rules_for_every_byte_at_every_position() {
        for at in 0..16 {
            for b in 0..=255u8 {
                let mut block = [b'A'; 16];
                block[at] = b;
                let want = if class(b) & NOT_SYMBOL == 0 {
                    0xFFFF
                } else {
                    0xFFFF & !(1 << at)
                };
                assert_eq!(symbols(&block), want, "byte {b:#x} at {at}");
                assert_eq!(portable::symbols(&block), want);
                let ws = matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ');
                assert_eq!(whitespace(&block), u32::from(ws) << at, "{b:#x}");
                assert_eq!(portable::whitespace(&block), u32::from(ws) << at);
                let percent = if b == b'%' { 1 << at } else { 0 };
                assert_eq!(equal(&block, b'%'), percent);
                assert_eq!(portable::equal(&block, b'%'), percent);
            }
        }
        let mut rng = XorShift(3);
        for _ in 0..2000 {
            let block = random_block(&mut rng, true);
            assert_eq!(symbols(&block), portable::symbols(&block), "{block:?}");
        }
    }

    #[test]
    fn block_decoding_matches_the_symbol_by_symbol_decoding() {
        let mut rng = XorShift(11);
        for _ in 0..2000 {
            let block = random_block(&mut rng, false);
            let mut want = [0u8; 12];
            let mut acc = 0u32;
            let mut bits = 0;
            let mut n = 0;
            for &c in &block {
                acc = (acc << 6) | u32::from(class(c));
                bits += 6;
                if bits >= 8 {
                    bits -= 8;
                    want[n] = (acc >> bits) as u8;
                    n += 1;
                }
            }
            assert_eq!(decode16(&block), want, "{block:?}");
            assert_eq!(portable::decode16(&block), want);
        }
    }
}
