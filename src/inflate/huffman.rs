//! Huffman decode tables built from code lengths: a primary table indexed
//! by the next few bits of input, subtables for longer codes, and entries
//! that already say what the symbol means (a literal, two literals, a
//! length with its base and extra bits, a distance, end of block).
//!
//! An entry is a `u32`: bits 0..5 the bits it consumes, 5..8 its kind,
//! 8..12 extra bits (length, distance), subtable index bits, or a pair's
//! first code length, 16..32 the
//! payload (literals, base, or subtable offset). A lookup is one load and
//! a branch on the kind; nothing else is consulted in the hot loop.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "code lengths are at most 15, symbols below 320 and tables at most 2^15 entries, so counts, canonical codes and slot offsets fit their types; the Kraft sum is checked as it is built"
)]

use super::InflateError;

/// Bits the literal/length primary table is indexed by.
pub const LITLEN_BITS: u32 = 11;
/// Bits the distance primary table is indexed by.
pub const DIST_BITS: u32 = 8;
/// Bits the code-length code's table is indexed by (its longest code).
pub const CODELEN_BITS: u32 = 7;

/// Entries of the literal/length table: the primary table, then room for
/// subtables. A subtable of depth k holds at least k + 1 codes of a
/// complete code (and there is one subtable at most when the code is
/// incomplete), so 286 symbols need at most 57 subtables of 16 entries:
/// 912 past the primary table.
pub const LITLEN_LEN: usize = (1 << LITLEN_BITS) + 912;
/// Entries of the distance table: by the same count, 30 symbols need at
/// most three subtables of 128 and one of 32 past the primary table.
pub const DIST_LEN: usize = (1 << DIST_BITS) + 3 * 128 + 32;

/// A literal byte.
pub const KIND_LITERAL: u32 = 0;
/// Two literal bytes.
pub const KIND_PAIR: u32 = 1;
/// A match length (litlen) or a distance (distance table).
pub const KIND_BASE: u32 = 2;
/// End of block.
pub const KIND_END: u32 = 3;
/// A pointer to a subtable.
pub const KIND_SUB: u32 = 4;
/// No code maps here (an incomplete code), or a symbol deflate reserves.
pub const KIND_INVALID: u32 = 5;

/// The bits an entry consumes.
#[inline(always)]
pub const fn width(entry: u32) -> u32 {
    entry & 31
}

/// An entry's kind.
#[inline(always)]
pub const fn kind(entry: u32) -> u32 {
    (entry >> 5) & 7
}

/// Extra bits of a length or distance; index bits of a subtable.
#[inline(always)]
pub const fn extra(entry: u32) -> u32 {
    (entry >> 8) & 15
}

/// The payload: literal(s), base, or subtable offset.
#[inline(always)]
pub const fn payload(entry: u32) -> u32 {
    entry >> 16
}

const fn entry(bits: u32, kind: u32, extra: u32, payload: u32) -> u32 {
    bits | (kind << 5) | (extra << 8) | (payload << 16)
}

/// Length bases and extra bits of symbols 257..=285.
const LENGTHS: [(u16, u8); 29] = [
    (3, 0),
    (4, 0),
    (5, 0),
    (6, 0),
    (7, 0),
    (8, 0),
    (9, 0),
    (10, 0),
    (11, 1),
    (13, 1),
    (15, 1),
    (17, 1),
    (19, 2),
    (23, 2),
    (27, 2),
    (31, 2),
    (35, 3),
    (43, 3),
    (51, 3),
    (59, 3),
    (67, 4),
    (83, 4),
    (99, 4),
    (115, 4),
    (131, 5),
    (163, 5),
    (195, 5),
    (227, 5),
    (258, 0),
];

/// Distance bases and extra bits of symbols 0..=29.
const DISTANCES: [(u16, u8); 30] = [
    (1, 0),
    (2, 0),
    (3, 0),
    (4, 0),
    (5, 1),
    (7, 1),
    (9, 2),
    (13, 2),
    (17, 3),
    (25, 3),
    (33, 4),
    (49, 4),
    (65, 5),
    (97, 5),
    (129, 6),
    (193, 6),
    (257, 7),
    (385, 7),
    (513, 8),
    (769, 8),
    (1025, 9),
    (1537, 9),
    (2049, 10),
    (3073, 10),
    (4097, 11),
    (6145, 11),
    (8193, 12),
    (12289, 12),
    (16385, 13),
    (24577, 13),
];

/// What a symbol of each table means, before its code length is added.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Alphabet {
    /// Literals 0..=255, end of block 256, lengths 257..=285.
    LitLen,
    /// Distances 0..=29.
    Distance,
    /// Code lengths 0..=15 and the repeat codes 16..=18.
    CodeLength,
}

impl Alphabet {
    /// The entry for `symbol`, without its code length.
    fn meaning(self, symbol: usize) -> u32 {
        let small = u32::try_from(symbol).unwrap_or(u32::MAX);
        match self {
            Self::LitLen => match symbol {
                0..=255 => entry(0, KIND_LITERAL, 0, small),
                256 => entry(0, KIND_END, 0, 0),
                _ => match LENGTHS.get(symbol - 257) {
                    Some(&(base, extra)) => entry(0, KIND_BASE, u32::from(extra), u32::from(base)),
                    None => entry(0, KIND_INVALID, 0, 0),
                },
            },
            Self::Distance => match DISTANCES.get(symbol) {
                Some(&(base, extra)) => entry(0, KIND_BASE, u32::from(extra), u32::from(base)),
                None => entry(0, KIND_INVALID, 0, 0),
            },
            Self::CodeLength => entry(0, KIND_LITERAL, 0, small),
        }
    }
}

/// Builds the table for `lengths` (one per symbol, 0 = unused) into
/// `table`, with a primary table of `root` bits. Refuses an
/// over-subscribed code, and an incomplete one unless it has one code at
/// most and is not the code-length code (what miniz_oxide accepts: deflate
/// streams with a single distance code exist).
#[cfg(test)]
pub fn build(
    table: &mut [u32],
    lengths: &[u8],
    root: u32,
    alphabet: Alphabet,
) -> Result<(), InflateError> {
    build_in(table, lengths, root, alphabet, &mut [0; WORK_LEN])
}

/// Words of the work area [`build_in`] sorts symbols in and
/// [`pair_literals_in`] gathers literal codes in: the largest alphabet.
pub const WORK_LEN: usize = 288;

/// [`build`] with its sorted symbols in `work` (the caller's memory, not
/// this frame: it runs at the bottom of a texture decode's stack).
pub fn build_in(
    table: &mut [u32],
    lengths: &[u8],
    root: u32,
    alphabet: Alphabet,
    work: &mut [u32; WORK_LEN],
) -> Result<(), InflateError> {
    let mut count = [0u16; 16];
    for &len in lengths {
        let slot = count
            .get_mut(usize::from(len))
            .ok_or(InflateError::BadCodeLengths)?;
        *slot += 1;
    }
    // Unused symbols are not codes.
    if let Some(zero) = count.first_mut() {
        *zero = 0;
    }
    let mut left: i32 = 1;
    let mut used = 0u16;
    for &c in count.iter().skip(1) {
        left = (left << 1) - i32::from(c);
        used += c;
        if left < 0 {
            return Err(InflateError::BadCodeLengths);
        }
    }
    if left > 0 && (used > 1 || alphabet == Alphabet::CodeLength) {
        return Err(InflateError::BadCodeLengths);
    }
    let primary = 1usize << root;
    let (head, subtables) = table
        .split_at_mut_checked(primary)
        .ok_or(InflateError::BadCodeLengths)?;
    if left > 0 {
        // Incomplete: slots no code reaches must read as invalid. A
        // complete code covers every slot, so nothing is filled first.
        head.fill(entry(1, KIND_INVALID, 0, 0));
    }
    // First canonical code of each length.
    let mut next = [0u32; 16];
    let mut code = 0u32;
    for (first, &shorter) in next.iter_mut().skip(1).zip(&count) {
        code = (code + u32::from(shorter)) << 1;
        *first = code;
    }
    // Codes not yet placed, by length (what a new subtable's depth is
    // computed from).
    let mut remaining = count;
    // Subtable state: the root index it hangs from, its offset and depth.
    let mut sub_root = usize::MAX;
    let mut sub_at = 0usize;
    let mut sub_end = 0usize;
    // Canonical order: by length, then symbol (a counting sort); long
    // codes sharing a root prefix are then contiguous, the shortest first.
    let mut start = [0usize; 16];
    let mut before = 0;
    for (at, &c) in start.iter_mut().skip(2).zip(count.iter().skip(1)) {
        before += usize::from(c);
        *at = before;
    }
    let sorted = work;
    sorted.fill(0);
    for (symbol, &len) in lengths.iter().enumerate().take(WORK_LEN) {
        if len == 0 {
            continue;
        }
        if let Some(at) = start.get_mut(usize::from(len)) {
            if let Some(dst) = sorted.get_mut(*at) {
                *dst = u32::try_from(symbol).unwrap_or(0);
            }
            *at += 1;
        }
    }
    for &symbol in sorted.get(..usize::from(used)).unwrap_or_default() {
        let symbol = usize::try_from(symbol).unwrap_or(usize::MAX);
        let len = u32::from(lengths.get(symbol).copied().unwrap_or(0));
        let slot = next
            .get_mut(len as usize)
            .ok_or(InflateError::BadCodeLengths)?;
        let canonical = *slot;
        *slot += 1;
        let reversed = (canonical.reverse_bits() >> (32 - len)) as usize;
        let meaning = alphabet.meaning(symbol);
        if len <= root {
            let value = meaning | len;
            for e in head.iter_mut().skip(reversed).step_by(1 << len) {
                *e = value;
            }
            continue;
        }
        let low = reversed & (primary - 1);
        if low != sub_root {
            // A new subtable: as deep as the subtree under this prefix,
            // which the codes still to place fill in canonical order.
            sub_root = low;
            sub_at = sub_end;
            let sub_bits = subtable_bits(&remaining, len, root);
            sub_end = sub_at + (1usize << sub_bits);
            if sub_end > subtables.len() {
                return Err(InflateError::BadCodeLengths);
            }
            let offset = u32::try_from(primary + sub_at).unwrap_or(0);
            if let Some(e) = head.get_mut(low) {
                *e = entry(root, KIND_SUB, sub_bits, offset);
            }
            if let Some(sub) = subtables.get_mut(sub_at..sub_end) {
                sub.fill(entry(1, KIND_INVALID, 0, 0));
            }
        }
        if let Some(r) = remaining.get_mut(len as usize) {
            *r -= 1;
        }
        let value = meaning | (len - root);
        let high = reversed >> root;
        let sub = subtables
            .get_mut(sub_at..sub_end)
            .ok_or(InflateError::BadCodeLengths)?;
        for e in sub.iter_mut().skip(high).step_by(1 << (len - root)) {
            *e = value;
        }
    }
    Ok(())
}

/// Depth of the subtable whose first (shortest) code has `len` bits: the
/// smallest depth the codes still to place (`remaining`, by length) fill,
/// as they fill a complete subtree in canonical order; at most 15 − `root`
/// (an incomplete code's lone code never fills it).
fn subtable_bits(remaining: &[u16; 16], len: u32, root: u32) -> u32 {
    let mut depth = len - root;
    let mut left: i32 = 1 << depth;
    for l in len as usize..16 {
        left -= i32::from(remaining.get(l).copied().unwrap_or(0));
        if left <= 0 || depth == 15 - root {
            break;
        }
        depth += 1;
        left <<= 1;
    }
    depth
}

/// Packs two literals into one primary entry wherever both codes fit in
/// its `root` bits, so that the decode loop writes two bytes per lookup.
/// `lengths` are the code lengths `table` was built from. Walks the pairs
/// of literal codes that fit, shortest first, and writes each pair's
/// slots; a scan of every primary entry instead branched on each entry's
/// kind, as good as random, and mispredicted about once per entry.
#[cfg(test)]
pub fn pair_literals(table: &mut [u32], lengths: &[u8], root: u32) {
    pair_literals_in(table, lengths, root, &mut [0; WORK_LEN]);
}

/// [`pair_literals`] with its literal codes gathered in `work`.
pub fn pair_literals_in(table: &mut [u32], lengths: &[u8], root: u32, work: &mut [u32; WORK_LEN]) {
    let Some(head) = table.get_mut(..1usize << root) else {
        return;
    };
    // Codes of each length over the whole alphabet, and of literals.
    let (mut count, mut literals) = ([0u16; 16], [0usize; 16]);
    for (symbol, &len) in lengths.iter().enumerate() {
        if let Some(c) = count.get_mut(usize::from(len)) {
            *c += 1;
        }
        if let Some(l) = literals.get_mut(usize::from(len)).filter(|_| symbol < 256) {
            *l += 1;
        }
    }
    // First canonical code of each length.
    let mut next = [0u32; 16];
    let mut code = 0u32;
    for (len, first) in next.iter_mut().enumerate().skip(2) {
        code = (code + u32::from(count.get(len - 1).copied().unwrap_or(0))) << 1;
        *first = code;
    }
    // Literal codes short enough to pair, by length (a counting sort):
    // (reversed code, length, literal). Literals come first among the
    // symbols of their length, so they hold its first codes.
    let mut start = [0usize; 16];
    let mut before = 0;
    for (at, &n) in start.iter_mut().zip(&literals).take(root as usize).skip(1) {
        *at = before;
        before += n;
    }
    // Each as one word (reversed code in the low 16 bits, length in the
    // next 8, literal in the top 8), in the caller's work area.
    let codes = work;
    codes.fill(0);
    for (symbol, &len) in lengths.iter().enumerate().take(256) {
        let len = u32::from(len);
        if len == 0 || len >= root {
            continue;
        }
        let (Some(first), Some(at)) = (next.get_mut(len as usize), start.get_mut(len as usize))
        else {
            continue;
        };
        let reversed = first.reverse_bits() >> (32 - len);
        *first += 1;
        if let Some(slot) = codes.get_mut(*at) {
            *slot = reversed | len << 16 | u32::try_from(symbol).unwrap_or(0) << 24;
        }
        *at += 1;
    }
    let codes = codes.get(..before).unwrap_or_default();
    let unpack = |c: u32| (c & 0xFFFF, c >> 16 & 0xFF, c >> 24);
    for &c in codes {
        let (r1, l1, s1) = unpack(c);
        for (r2, l2, s2) in codes
            .iter()
            .map(|&c| unpack(c))
            .take_while(|c| c.1 + l1 <= root)
        {
            let width = l1 + l2;
            let value = entry(width, KIND_PAIR, l1, s1 | s2 << 8);
            let index = (r1 | r2 << l1) as usize;
            for e in head.iter_mut().skip(index).step_by(1 << width) {
                *e = value;
            }
        }
    }
}

/// The fixed code's literal/length lengths (RFC 1951, 3.2.6).
pub fn fixed_litlen_lengths() -> [u8; 288] {
    let mut l = [8u8; 288];
    for (i, v) in l.iter_mut().enumerate() {
        *v = match i {
            0..=143 => 8,
            144..=255 => 9,
            256..=279 => 7,
            _ => 8,
        };
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;

    fn lookup(table: &[u32], root: u32, code_bits: u64) -> u32 {
        let e = table[(code_bits & ((1 << root) - 1)) as usize];
        if kind(e) == KIND_SUB {
            let i = payload(e) as usize + ((code_bits >> root) & ((1 << extra(e)) - 1)) as usize;
            table[i]
        } else {
            e
        }
    }

    #[test]
    fn an_over_subscribed_code_is_refused() {
        let mut t = [0; LITLEN_LEN];
        let lengths = [1u8, 1, 1];
        assert_eq!(
            build(&mut t, &lengths, LITLEN_BITS, Alphabet::LitLen),
            Err(InflateError::BadCodeLengths)
        );
    }

    #[test]
    fn an_incomplete_code_is_refused_unless_it_has_one_code_at_most() {
        let mut t = [0; LITLEN_LEN];
        assert_eq!(
            build(&mut t, &[1, 2], LITLEN_BITS, Alphabet::LitLen),
            Err(InflateError::BadCodeLengths)
        );
        assert_eq!(
            build(&mut t, &[0, 3], DIST_BITS, Alphabet::Distance),
            Ok(())
        );
        assert_eq!(
            build(&mut t, &[0, 0], DIST_BITS, Alphabet::Distance),
            Ok(())
        );
        let mut c = [0; 1 << CODELEN_BITS];
        assert_eq!(
            build(&mut c, &[1], CODELEN_BITS, Alphabet::CodeLength),
            Err(InflateError::BadCodeLengths)
        );
    }

    #[test]
    fn a_lone_code_decodes_only_its_own_bits() {
        let mut t = [0; DIST_LEN];
        build(&mut t, &[0, 0, 0, 2], DIST_BITS, Alphabet::Distance).unwrap();
        assert_eq!(payload(lookup(&t, DIST_BITS, 0b00)), 4);
        assert_eq!(kind(lookup(&t, DIST_BITS, 0b01)), KIND_INVALID);
    }

    #[test]
    fn codes_longer_than_the_primary_table_decode_through_subtables() {
        // Lengths 1, 2, ..., 14, 15, 15: complete, and deep.
        let mut lengths = [0u8; 17];
        for (i, l) in lengths.iter_mut().enumerate().take(15) {
            *l = i as u8 + 1;
        }
        lengths[15] = 15;
        lengths[16] = 0;
        let mut lengths = lengths.to_vec();
        lengths.truncate(16);
        let mut t = [0; LITLEN_LEN];
        build(&mut t, &lengths, LITLEN_BITS, Alphabet::LitLen).unwrap();
        // Symbol s has canonical code of s ones then a zero (the last two
        // all ones and ones-then-zero); read LSB first.
        for s in 0..15u32 {
            let code: u64 = (1 << s) - 1; // s ones, then a zero bit
            let e = lookup(&t, LITLEN_BITS, code);
            assert_eq!(payload(e), s, "symbol {s}");
            let total = if s + 1 > LITLEN_BITS {
                LITLEN_BITS + width(e)
            } else {
                width(e)
            };
            assert_eq!(total, s + 1);
        }
        let e = lookup(&t, LITLEN_BITS, (1 << 15) - 1);
        assert_eq!(payload(e), 15);
    }

    /// The pairing as first written: every primary entry, top down,
    /// paired with the entry its remaining bits index.
    fn pairs_by_scan(table: &mut [u32], root: u32) {
        for i in (0..1usize << root).rev() {
            let (first, used) = (table[i], width(table[i]));
            let second = table[i >> used];
            if kind(first) == KIND_LITERAL
                && kind(second) == KIND_LITERAL
                && used + width(second) <= root
            {
                let both = payload(first) | (payload(second) << 8);
                table[i] = entry(used + width(second), KIND_PAIR, used, both);
            }
        }
    }

    #[test]
    fn pairs_from_the_literal_codes_equal_a_scan_of_every_entry() {
        let mut rng = crate::test_rng::XorShift(0xC0DE_5EED);
        for round in 0..300 {
            // A complete code: split a random leaf until there are n, then
            // give the lengths to random symbols of the alphabet.
            let n = 2 + rng.below(if round % 2 == 0 { 40 } else { 280 }) as usize;
            let mut leaves = vec![0u8];
            while leaves.len() < n {
                let i = rng.below(leaves.len() as u64) as usize;
                if leaves[i] < 15 {
                    leaves[i] += 1;
                    leaves.push(leaves[i]);
                }
            }
            let mut lengths = [0u8; 286];
            let mut symbols: std::vec::Vec<usize> = (0..286).collect();
            for len in leaves {
                let pick = rng.below(symbols.len() as u64) as usize;
                lengths[symbols.swap_remove(pick)] = len;
            }
            let mut ours = [0; LITLEN_LEN];
            build(&mut ours, &lengths, LITLEN_BITS, Alphabet::LitLen).unwrap();
            let mut scanned = ours;
            pair_literals(&mut ours, &lengths, LITLEN_BITS);
            pairs_by_scan(&mut scanned, LITLEN_BITS);
            assert!(ours == scanned, "round {round}");
        }
    }

    #[test]
    fn pairs_hold_two_literals_whose_codes_fit_the_primary_table() {
        let mut t = [0; LITLEN_LEN];
        let lengths = fixed_litlen_lengths();
        build(&mut t, &lengths, LITLEN_BITS, Alphabet::LitLen).unwrap();
        pair_literals(&mut t, &lengths, LITLEN_BITS);
        // Fixed codes: literals are 8 or 9 bits, so no pair fits 11 bits.
        assert!(t[..1 << LITLEN_BITS].iter().all(|&e| kind(e) != KIND_PAIR));
        // A code with 'a' at 1 bit, 'b' at 2, end at 2: "ab" is 3 bits.
        let mut lengths = [0u8; 257];
        lengths[b'a' as usize] = 1;
        lengths[b'b' as usize] = 2;
        lengths[256] = 2;
        build(&mut t, &lengths, LITLEN_BITS, Alphabet::LitLen).unwrap();
        pair_literals(&mut t, &lengths, LITLEN_BITS);
        // 'a' = 0, 'b' = 10 (LSB first: 0b01).
        let e = t[0b010];
        assert_eq!(kind(e), KIND_PAIR);
        assert_eq!(width(e), 3);
        assert_eq!(
            extra(e),
            1,
            "the first literal's bits, for one byte of room"
        );
        assert_eq!(payload(e), u32::from(b'a') | u32::from(b'b') << 8);
    }
}
