//! The hot loop of a Huffman block: while at least eight input bytes and
//! [`FAST_ROOM`] output bytes remain, each step refills the 64-bit bit
//! buffer with one 8-byte load (at least 56 bits, enough for the longest
//! length/distance pair) and decodes one entry: one or two literals, the
//! end of the block, or a match copied 16 or 8 bytes at a time. Near
//! either end the careful step in `mod.rs` takes over.
//!
//! A plain window lets copies write up to 15 bytes past a match (the next
//! symbols overwrite them). A ring (validation) does not: the bytes just
//! past the write position are the oldest history, still in reach of a
//! 32 KiB distance, so there every write is exact.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "the fast loop runs only while 8 input bytes and FAST_ROOM output bytes remain, so positions plus a length of at most 258 (or a 16-byte copy) stay within the window; distances are at most 32 768 and checked against `at - floor` before a copy; bit counts stay below 64"
)]

use super::InflateError;
use super::huffman::{
    DIST_BITS, DIST_LEN, KIND_BASE, KIND_END, KIND_LITERAL, KIND_PAIR, KIND_SUB, LITLEN_BITS,
    LITLEN_LEN, extra, kind, payload, width,
};

/// Output room the loop needs for one step: two literal pairs, the
/// longest match and the 16 bytes its last copy may write past it.
pub const FAST_ROOM: usize = 4 + 258 + 16;

/// The bit buffer: `count` valid bits at the bottom of `buf`. Bits above
/// `count` are either zero or the stream's next bits, so refills may OR
/// the same bytes in again.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bits {
    /// The bits, least significant first.
    pub buf: u64,
    /// How many are valid.
    pub count: u32,
}

impl Bits {
    /// Drops `n` bits (`n` ≤ `count`).
    #[inline(always)]
    pub fn consume(&mut self, n: u32) {
        self.buf >>= n;
        self.count -= n;
    }

    /// The next `n` bits as a number (`n` ≤ 32).
    #[inline(always)]
    pub fn peek(&self, n: u32) -> usize {
        low(self.buf, n)
    }
}

/// Why the loop stopped.
pub enum Exit {
    /// Input or output room ran short; the careful step continues.
    Ends,
    /// The block's end-of-block code was read.
    EndOfBlock,
}

/// Where the output is and how far back a match may reach.
pub struct Out<'o> {
    /// The window: history before `at`, room from `at`.
    pub buf: &'o mut [u8],
    /// The next byte to write.
    pub at: usize,
    /// The first byte written and not yet added to the checksum.
    pub counted: usize,
    /// The stream's first byte in `buf` while the history has not wrapped:
    /// a distance past it reaches before the stream's start.
    pub floor: usize,
    /// `buf` is a ring whose every byte is history: a distance past `at`
    /// reads from its end.
    pub wraps: bool,
}

/// The decode tables of the current block.
#[repr(C)]
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable)]
pub struct BlockTables {
    /// Literal/length table.
    pub litlen: [u32; LITLEN_LEN],
    /// Distance table.
    pub dist: [u32; DIST_LEN],
}

/// Decodes while both ends have room. `RING`: the output is a ring, so
/// writes are exact (see the module docs). Inlined into its one caller,
/// `Inflater::inflate`, as the compiler chose before the error type moved
/// out of `mod.rs`: called out of line it cost 1 % more instructions on the
/// corpus textures.
#[inline(always)]
pub fn run<const RING: bool>(
    t: &BlockTables,
    bits: &mut Bits,
    input: &[u8],
    ip: &mut usize,
    out: &mut Out<'_>,
) -> Result<Exit, InflateError> {
    let mut b = *bits;
    let mut i = *ip;
    // The window and the write position live in locals for the loop: read
    // through `out` they were stored and loaded again around every byte
    // written (the compiler cannot tell the bytes from `out` itself).
    let buf: &mut [u8] = out.buf;
    let mut at = out.at;
    let (floor, wraps) = (out.floor, out.wraps);
    let result = loop {
        if at + FAST_ROOM > buf.len() {
            break Ok(Exit::Ends);
        }
        let Some(word) = input.get(i..).and_then(<[u8]>::first_chunk::<8>) else {
            break Ok(Exit::Ends);
        };
        b.buf |= u64::from_le_bytes(*word) << b.count;
        i += ((63 - b.count) >> 3) as usize;
        b.count |= 56;
        let mut e = lookup(&t.litlen, b.peek(LITLEN_BITS));
        let mut k = kind(e);
        if k <= KIND_PAIR {
            at = write_literals::<RING>(buf, at, e);
            b.consume(width(e));
            // At least 45 bits are left: another literal, or a length from
            // the primary table with its distance (44 at most), needs no
            // refill; anything else goes round again.
            e = lookup(&t.litlen, b.peek(LITLEN_BITS));
            k = kind(e);
            if k <= KIND_PAIR {
                at = write_literals::<RING>(buf, at, e);
                b.consume(width(e));
                continue;
            }
            if k != KIND_BASE {
                continue;
            }
        }
        if k == KIND_SUB {
            b.consume(LITLEN_BITS);
            e = sub_lookup(&t.litlen, e, b.buf);
            k = kind(e);
            if k == KIND_LITERAL {
                if let Some(dst) = buf.get_mut(at) {
                    *dst = payload(e).to_le_bytes()[0];
                }
                at += 1;
                b.consume(width(e));
                continue;
            }
        }
        if k == KIND_END {
            b.consume(width(e));
            break Ok(Exit::EndOfBlock);
        }
        if k != KIND_BASE {
            break Err(InflateError::InvalidSymbol);
        }
        b.consume(width(e));
        let len = payload(e) as usize + b.peek(extra(e));
        b.consume(extra(e));
        let mut d = lookup(&t.dist, b.peek(DIST_BITS));
        if kind(d) == KIND_SUB {
            b.consume(DIST_BITS);
            d = sub_lookup(&t.dist, d, b.buf);
        }
        if kind(d) != KIND_BASE {
            break Err(InflateError::InvalidSymbol);
        }
        b.consume(width(d));
        let dist = payload(d) as usize + b.peek(extra(d));
        b.consume(extra(d));
        let copied = if dist > at - floor {
            // Only a ring reaches back past its start (to its end).
            if RING {
                let mut ring = Out {
                    buf: &mut *buf,
                    at,
                    counted: at,
                    floor,
                    wraps,
                };
                copy_exact(&mut ring, dist, len)
            } else {
                None
            }
        } else if RING {
            // The 16 bytes a copy may write past the match are the oldest
            // history in a ring: kept aside and put back.
            let end = at + len;
            let kept = buf.get(end..).and_then(<[u8]>::first_chunk::<16>).copied();
            let copied = copy_ahead(buf, at, dist, len);
            if let (Some(kept), Some(dst)) = (
                kept,
                buf.get_mut(end..).and_then(<[u8]>::first_chunk_mut::<16>),
            ) {
                *dst = kept;
            }
            copied
        } else {
            copy_ahead(buf, at, dist, len)
        };
        if copied.is_none() {
            break Err(InflateError::DistanceTooFar);
        }
        at += len;
    };
    out.at = at;
    *bits = b;
    *ip = i;
    result
}

/// The low `n` bits of `buf` (`n` ≤ 32).
#[inline(always)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "masked to at most 32 bits, which the usize of every target this crate builds for holds"
)]
pub fn low(buf: u64, n: u32) -> usize {
    (buf & ((1u64 << (n & 63)) - 1)) as usize
}

/// Writes a literal entry's one or two bytes at `at` and returns the next
/// position (a plain window takes two either way; the room is there and
/// the next write covers the second).
#[inline(always)]
fn write_literals<const RING: bool>(buf: &mut [u8], at: usize, e: u32) -> usize {
    let [first, second, ..] = payload(e).to_le_bytes();
    let n = 1 + usize::from(kind(e) == KIND_PAIR);
    if RING {
        if let Some(dst) = buf.get_mut(at..at + n) {
            for (d, s) in dst.iter_mut().zip([first, second]) {
                *d = s;
            }
        }
    } else if let Some(dst) = buf.get_mut(at..).and_then(<[u8]>::first_chunk_mut::<2>) {
        *dst = [first, second];
    }
    at + n
}

/// The primary entry for the next bits (`index` already masked to the
/// primary table, which is shorter than the table).
#[inline(always)]
pub fn lookup(table: &[u32], index: usize) -> u32 {
    table.get(index).copied().unwrap_or(0)
}

/// The subtable entry `sub` points to for the bits after the primary
/// index (`buf`, already past them). A missing entry reads as invalid.
#[inline(always)]
pub fn sub_lookup(table: &[u32], sub: u32, buf: u64) -> u32 {
    let at = payload(sub) as usize + low(buf, extra(sub));
    table
        .get(at)
        .copied()
        .unwrap_or(super::huffman::KIND_INVALID << 5)
}

/// Copies a match of `len` at `dist` back to `at`, writing up to 15 bytes
/// past it (the caller leaves [`FAST_ROOM`]). None if a slice is out of
/// reach, which the caller's distance check rules out.
#[inline(always)]
fn copy_ahead(buf: &mut [u8], at: usize, dist: usize, len: usize) -> Option<()> {
    let end = at + len;
    let mut s = at.checked_sub(dist)?;
    let mut d = at;
    if dist >= 16 {
        while d < end {
            let chunk = *buf.get(s..)?.first_chunk::<16>()?;
            *buf.get_mut(d..)?.first_chunk_mut::<16>()? = chunk;
            s += 16;
            d += 16;
        }
    } else if dist.is_power_of_two() {
        // 1, 2, 4 or 8 (a grey, grey-alpha, RGBA or 16-bit RGBA pixel
        // repeated): sixteen bytes of the pattern, stored again and again.
        // The unit's bytes times 0x01…01 (at its width) fill a word.
        const SPREAD: [u64; 9] = [
            0,
            0x0101_0101_0101_0101,
            0x0001_0001_0001_0001,
            0,
            1 << 32 | 1,
            0,
            0,
            0,
            1,
        ];
        // The unit is loaded at its own width: a wider load there mostly
        // straddles the stores that just wrote it (the match before, often
        // the same run), which the CPU cannot forward: a stall per match.
        let unit = match dist {
            1 => u64::from(*buf.get(s)?),
            2 => u64::from(u16::from_le_bytes(*buf.get(s..)?.first_chunk::<2>()?)),
            4 => u64::from(u32::from_le_bytes(*buf.get(s..)?.first_chunk::<4>()?)),
            _ => u64::from_le_bytes(*buf.get(s..)?.first_chunk::<8>()?),
        };
        let word = unit * SPREAD.get(dist)?;
        let pattern = (u128::from(word) << 64 | u128::from(word)).to_le_bytes();
        // Whole 16-byte stores over the match and past it, checked once.
        let dst = buf.get_mut(d..d + len.next_multiple_of(16))?;
        for chunk in dst.as_chunks_mut::<16>().0 {
            *chunk = pattern;
        }
    } else if dist >= 8 {
        while d < end {
            let chunk = *buf.get(s..)?.first_chunk::<8>()?;
            *buf.get_mut(d..)?.first_chunk_mut::<8>()? = chunk;
            s += 8;
            d += 8;
        }
    } else {
        // A period of 3, 5, 6 or 7: its first eight bytes one by one,
        // then 8-byte copies from a whole number of periods back (at
        // least 8).
        let src = buf.get(s..at)?;
        let mut first = [0u8; 8];
        for (j, f) in first.iter_mut().enumerate() {
            *f = *src.get(j % dist)?;
        }
        *buf.get_mut(d..)?.first_chunk_mut::<8>()? = first;
        let period = dist * 8usize.div_ceil(dist);
        d += 8;
        s = d - period;
        while d < end {
            let chunk = *buf.get(s..)?.first_chunk::<8>()?;
            *buf.get_mut(d..)?.first_chunk_mut::<8>()? = chunk;
            s += 8;
            d += 8;
        }
    }
    Some(())
}

/// Copies a match of `len` at `dist` back to `out.at`, writing exactly
/// `len` bytes, from the ring's end when the distance reaches past its
/// start. None for a distance before the stream's start or past the
/// window, or no room for `len` bytes.
pub fn copy_exact(out: &mut Out<'_>, dist: usize, len: usize) -> Option<()> {
    let at = out.at;
    let end = at.checked_add(len)?;
    if end > out.buf.len() {
        return None;
    }
    if dist <= at - out.floor.min(at) && out.floor <= at {
        let src = at - dist;
        if dist >= len {
            out.buf.copy_within(src..src + len, at);
            return Some(());
        }
        // Overlapping: one period, then the written part doubled.
        out.buf.copy_within(src..at, at);
        let mut done = dist;
        while done < len {
            let n = done.min(len - done);
            out.buf.copy_within(at..at + n, at + done);
            done += n;
        }
        return Some(());
    }
    if !out.wraps || dist > out.buf.len() {
        return None;
    }
    let n = out.buf.len();
    let mut src = at + n - dist;
    for d in at..end {
        if src == n {
            src = 0;
        }
        let byte = *out.buf.get(src)?;
        *out.buf.get_mut(d)? = byte;
        src += 1;
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference: one byte at a time.
    fn bytewise(buf: &mut [u8], at: usize, dist: usize, len: usize) {
        for d in at..at + len {
            buf[d] = buf[d - dist];
        }
    }

    #[test]
    fn copies_ahead_equal_a_byte_by_byte_copy_for_every_distance_and_length() {
        for dist in 1..40 {
            for len in 3..=70 {
                let mut a: std::vec::Vec<u8> = (0..200u8).chain(0..200).collect();
                let mut b = a.clone();
                copy_ahead(&mut a, 60, dist, len).unwrap();
                bytewise(&mut b, 60, dist, len);
                assert_eq!(a[..60 + len], b[..60 + len], "dist {dist} len {len}");
            }
        }
    }

    #[test]
    fn exact_copies_write_only_the_match_and_wrap_the_ring() {
        for dist in 1..40 {
            for len in [3, 7, 16, 35, 258] {
                let mut a: std::vec::Vec<u8> = (0..=255u8).cycle().take(600).collect();
                let mut b = a.clone();
                let mut out = Out {
                    buf: &mut a,
                    at: 100,
                    counted: 100,
                    floor: 0,
                    wraps: false,
                };
                copy_exact(&mut out, dist, len).unwrap();
                bytewise(&mut b, 100, dist, len);
                assert_eq!(a, b, "dist {dist} len {len}");
            }
        }
        let mut ring: std::vec::Vec<u8> = (0..64u8).collect();
        let mut out = Out {
            buf: &mut ring,
            at: 2,
            counted: 2,
            floor: 0,
            wraps: true,
        };
        copy_exact(&mut out, 4, 5).unwrap();
        assert_eq!(&ring[..8], &[0, 1, 62, 63, 0, 1, 62, 7]);
    }

    #[test]
    fn a_distance_before_the_floor_is_refused() {
        let mut buf = [0u8; 64];
        let mut out = Out {
            buf: &mut buf,
            at: 10,
            counted: 10,
            floor: 4,
            wraps: false,
        };
        assert_eq!(copy_exact(&mut out, 7, 3), None);
        assert_eq!(copy_exact(&mut out, 6, 3), Some(()));
    }
}
