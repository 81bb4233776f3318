//! LZ-UTF8, as Blockbench's `<lz>` backups hold a .bbmodel.
//!
//! Blockbench's desktop app saves its backups as `<lz>` followed by the
//! project's JSON compressed by the lzutf8 library with the
//! `StorageBinaryString` output encoding (Blockbench: `Codecs.project.compile`
//! with `compressed`; read back by `autoParseJSON`). Two layers:
//!
//! - **Text** (lzutf8 `BinaryString`/`StorageBinaryString`): the compressed
//!   bytes as UTF-16 units of 15 bits each, most significant bit first, every
//!   16th unit starting a fresh group (16 units carry 15 two-byte words);
//!   U+8002 stands for the unit 0; the last unit is U+8000, or U+8001 when the
//!   compressed length is odd (the last word's second byte is padding). The
//!   file stores the units as UTF-8.
//! - **Stream** (lzutf8 `Decompressor.decompressBlock`): UTF-8 text where a
//!   lead byte `110lllll` or `111lllll` followed by a byte below 0x80 (never a
//!   UTF-8 continuation) is a back-reference of `l` bytes (0..=31): `110`
//!   takes that byte as the distance (1..=127), `111` that byte and the next,
//!   big-endian (up to 32 767). Every other byte is a literal.
//!
//! lzutf8 is lenient where its output is garbage (a distance of 0 or before
//! the start reads zeros, a unit at or above U+8000 mid-text restarts the
//! group, a truncated pointer at the end is dropped); these are errors here
//! ([`ErrorCode::CompressedBbmodel`], with the file offset of the unit that
//! carried the byte). Nothing is allocated: [`decompressed_len`] walks the
//! stream once, in work bounded by the input, and stops as soon as the output
//! would pass the caller's limit (a bomb expands at most 31 bytes per two
//! compressed bytes, so its size is known before work proportional to it);
//! [`decompress_into`] then writes exactly that many bytes.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "positions are below the input's or the output's length, checked before each step; a unit is 15 bits and a shift at most 15"
)]

use crate::error::{Error, ErrorCode};

/// The four characters before the compressed text.
pub const MAGIC: &[u8; 4] = b"<lz>";

/// Bytes a stream writes when lzutf8's decompressor reads it, walked
/// without writing; FILE_TOO_LARGE as soon as the count passes `max`.
pub fn decompressed_len(bytes: &[u8], max: u64) -> Result<usize, Error> {
    let mut len = 0usize;
    walk(bytes, |op| {
        match op {
            Op::Literal(..) => len += 1,
            Op::Copy {
                at,
                distance,
                length,
            } => {
                if distance == 0 || distance > len {
                    return Err(before_start(at, distance, len));
                }
                len += length;
            }
        }
        if len as u64 > max {
            return Err(Error::binary(
                ErrorCode::FileTooLarge,
                MAGIC.len() as u64,
                None,
                format_args!(
                    "<lz> data decompresses to more than {max} bytes (maxDecompressedBytes)"
                ),
            ));
        }
        Ok(())
    })?;
    Ok(len)
}

/// Decompresses `bytes` into `out`, which must be exactly
/// [`decompressed_len`] bytes, and returns it.
pub fn decompress_into<'o>(bytes: &[u8], out: &'o mut [u8]) -> Result<&'o [u8], Error> {
    let capacity = out.len();
    let full = |at: usize| {
        Error::binary(
            ErrorCode::ArenaTooSmall,
            at as u64,
            None,
            format_args!("<lz> output buffer of {capacity} bytes is full at byte {at}"),
        )
    };
    let mut pos = 0usize;
    walk(bytes, |op| {
        match op {
            Op::Literal(b, at) => {
                *out.get_mut(pos).ok_or_else(|| full(at))? = b;
                pos += 1;
            }
            Op::Copy {
                at,
                distance,
                length,
            } => {
                if distance == 0 || distance > pos {
                    return Err(before_start(at, distance, pos));
                }
                let run = out
                    .get_mut(pos - distance..pos + length)
                    .ok_or_else(|| full(at))?;
                if distance >= length {
                    run.copy_within(..length, distance);
                } else {
                    // lzutf8 copies one byte at a time: an overlapping
                    // reference repeats the `distance` bytes before it.
                    let (earlier, copy) = run.split_at_mut(distance);
                    for (d, s) in copy.iter_mut().zip(earlier.iter().cycle()) {
                        *d = *s;
                    }
                }
                pos += length;
            }
        }
        Ok(())
    })?;
    if pos != capacity {
        return Err(Error::nowhere(
            ErrorCode::ArenaTooSmall,
            format_args!("<lz> output buffer is {capacity} bytes, the stream writes {pos}"),
        ));
    }
    Ok(out)
}

/// One step of the stream.
enum Op {
    /// A byte copied as it is, and its offset.
    Literal(u8, usize),
    /// `length` bytes from `distance` back; `at` is the pointer's offset.
    Copy {
        at: usize,
        distance: usize,
        length: usize,
    },
}

/// Reads the stream of `bytes` (with its `<lz>`), handing each step to `op`.
fn walk(bytes: &[u8], mut op: impl FnMut(Op) -> Result<(), Error>) -> Result<(), Error> {
    let mut src = Units::new(bytes)?;
    let mut cur = src.next()?;
    while let Some((lead, at)) = cur {
        // decompressBlock: `inputValue >>> 6 != 3` is a literal.
        if lead >> 6 != 3 {
            op(Op::Literal(lead, at))?;
            cur = src.next()?;
            continue;
        }
        let Some((second, second_at)) = src.next()? else {
            return Err(bad(at, "stream ends after a lead byte"));
        };
        // A UTF-8 continuation after the lead: the lead is a literal.
        if second >> 7 == 1 {
            op(Op::Literal(lead, at))?;
            cur = Some((second, second_at));
            continue;
        }
        let length = usize::from(lead & 31);
        let distance = if lead >> 5 == 6 {
            usize::from(second)
        } else {
            let Some((third, _)) = src.next()? else {
                return Err(bad(at, "stream ends inside a 3-byte pointer"));
            };
            (usize::from(second) << 8) | usize::from(third)
        };
        op(Op::Copy {
            at,
            distance,
            length,
        })?;
        cur = src.next()?;
    }
    Ok(())
}

/// The compressed bytes of the `StorageBinaryString` text, each with the
/// file offset of the unit that completed it.
struct Units<'a> {
    text: &'a [u8],
    /// Offset of the next unit.
    pos: usize,
    /// Offset of the end marker.
    end: usize,
    /// The marker is U+8001: the last word's second byte is padding.
    odd: bool,
    /// Units read in the current group of 16 (`BinaryString.decode`'s state).
    state: u32,
    /// Bits of the last unit not yet in a word.
    remainder: u32,
    /// The next word and its offset, read one ahead to know which is last.
    ahead: Option<(u16, usize)>,
    /// The current word's bytes, how many of them it gives (1 for the
    /// padded last), how many were taken, its offset.
    word: [u8; 2],
    word_len: usize,
    taken: usize,
    word_at: usize,
}

impl<'a> Units<'a> {
    fn new(bytes: &'a [u8]) -> Result<Self, Error> {
        let text = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or_else(|| bad(0, "\"<lz>\" expected"))?;
        let (odd, len) = match text {
            [.., 0xE8, 0x80, 0x80] => (false, text.len() - 3),
            [.., 0xE8, 0x80, 0x81] => (true, text.len() - 3),
            _ => {
                return Err(bad(
                    bytes.len(),
                    "text must end with its end marker U+8000 or U+8001",
                ));
            }
        };
        let mut units = Self {
            text: bytes,
            pos: MAGIC.len(),
            end: MAGIC.len() + len,
            odd,
            state: 0,
            remainder: 0,
            ahead: None,
            word: [0; 2],
            word_len: 0,
            taken: 0,
            word_at: 0,
        };
        units.ahead = units.next_word()?;
        if odd && units.ahead.is_none() {
            return Err(bad(
                units.end,
                "end marker U+8001 (odd length) after no data",
            ));
        }
        Ok(units)
    }

    /// The next compressed byte, or `None` after the last.
    fn next(&mut self) -> Result<Option<(u8, usize)>, Error> {
        if self.taken >= self.word_len {
            let Some((word, at)) = self.ahead else {
                return Ok(None);
            };
            self.ahead = self.next_word()?;
            self.word = word.to_be_bytes();
            // BinaryString.decode: U+8001 takes the last byte back.
            self.word_len = if self.ahead.is_none() && self.odd {
                1
            } else {
                2
            };
            self.taken = 0;
            self.word_at = at;
        }
        let byte = self.word.get(self.taken).copied().unwrap_or(0);
        self.taken += 1;
        Ok(Some((byte, self.word_at)))
    }

    /// The next 16-bit word: each unit after a group's first completes one.
    fn next_word(&mut self) -> Result<Option<(u16, usize)>, Error> {
        while self.pos < self.end {
            let at = self.pos;
            let unit = self.unit()?;
            let state = self.state;
            self.state = (state + 1) % 16;
            if state == 0 {
                self.remainder = unit;
                continue;
            }
            let word = (self.remainder << state) | (unit >> (15 - state));
            self.remainder = unit & ((1 << (15 - state)) - 1);
            #[allow(
                clippy::cast_possible_truncation,
                reason = "a remainder of 16 - state bits shifted by state: 16 bits"
            )]
            return Ok(Some((word as u16, at)));
        }
        Ok(None)
    }

    /// The next unit's 15 bits, from its UTF-8 (U+8002 is 0).
    fn unit(&mut self) -> Result<u32, Error> {
        let at = self.pos;
        let byte = |i: usize| self.text.get(at + i).copied().filter(|_| at + i < self.end);
        let cont = |i: usize| {
            byte(i)
                .filter(|b| b & 0xC0 == 0x80)
                .map(|b| u32::from(b & 0x3F))
        };
        let lead = byte(0).map_or(0, u32::from);
        let (value, len) = match lead {
            0x00..=0x7F => (Some(lead), 1),
            0xC2..=0xDF => (cont(1).map(|c| (lead & 0x1F) << 6 | c), 2),
            0xE0..=0xEF => (
                cont(1)
                    .zip(cont(2))
                    .map(|(a, b)| (lead & 0x0F) << 12 | a << 6 | b)
                    .filter(|&v| v >= 0x800),
                3,
            ),
            _ => (None, 1),
        };
        let value = value.ok_or_else(|| bad(at, "not the UTF-8 of a unit below U+10000"))?;
        self.pos += len;
        match value {
            0..=0x7FFF => Ok(value),
            0x8002 => Ok(0),
            _ => Err(Error::binary(
                ErrorCode::CompressedBbmodel,
                at as u64,
                None,
                format_args!(
                    "<lz> text has U+{value:04X} at byte {at}: a unit below U+8000 or U+8002 expected (U+8000/U+8001 only last)"
                ),
            )),
        }
    }
}

/// Packs `compressed` as lzutf8's `StorageBinaryString` encoder does (after
/// `<lz>`): fixtures for the tests and the fuzz target.
#[cfg(any(test, feature = "std"))]
pub fn pack(compressed: &[u8]) -> std::vec::Vec<u8> {
    let mut units = std::vec::Vec::new();
    let mut bits = 0u32;
    let mut held = 0u32;
    // An odd length is encoded as if a zero byte followed, which the
    // U+8001 marker takes back.
    let pad: &[u8] = if compressed.len() % 2 == 1 { &[0] } else { &[] };
    for &b in compressed.iter().chain(pad) {
        bits = bits << 8 | u32::from(b);
        held += 8;
        if held >= 15 {
            held -= 15;
            units.push((bits >> held) & 0x7FFF);
        }
        bits &= (1 << held) - 1;
    }
    // The last bits, padded with zeros to a whole unit.
    if held > 0 {
        units.push((bits << (15 - held)) & 0x7FFF);
    }
    units.push(0x8000 | u32::from(compressed.len() % 2 == 1));
    let mut out = MAGIC.to_vec();
    for u in units {
        let u = if u == 0 { 0x8002 } else { u };
        let c = char::from_u32(u).unwrap_or('\u{FFFD}');
        let mut buf = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
    out
}

fn before_start(at: usize, distance: usize, written: usize) -> Error {
    Error::binary(
        ErrorCode::CompressedBbmodel,
        at as u64,
        None,
        format_args!(
            "<lz> pointer at byte {at} reaches {distance} bytes back, {written} written: 1..={written} expected"
        ),
    )
}

fn bad(at: usize, what: &str) -> Error {
    Error::binary(
        ErrorCode::CompressedBbmodel,
        at as u64,
        None,
        format_args!("<lz> {what} at byte {at}"),
    )
}

#[cfg(test)]
mod tests;
