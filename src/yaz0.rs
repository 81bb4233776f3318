//! Yaz0, Nintendo's LZ77 wrapper around J3D (and many other) files.
//!
//! Layout: `Yaz0`, the decompressed size (u32 big-endian), 8 reserved bytes,
//! then groups of one flag byte and eight chunks, flags read from the top bit
//! down. A set bit copies one literal byte; a clear bit is a back-reference of
//! two bytes `NR RR` (distance `0xRRR + 1`, length `N + 2`) or, when `N` is 0,
//! three bytes `0R RR LL` (length `LL + 0x12`).
//!
//! The output size is known from the header before anything is written, so
//! the caller sizes the buffer (and checks it against its limit) first. Every
//! read and write is bounds-checked: a truncated stream, a reference before the
//! start of the output, or a stream that would write past the declared size is
//! a [`ErrorCode::BadYaz0`] error with the input offset.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "pos < src.len() and out < dst.len() before each step, a distance is at most 0x1000 and a copy's end is checked against dst; the encoder is a fixture"
)]

use crate::error::{Error, ErrorCode};

/// The four magic bytes.
pub const MAGIC: &[u8; 4] = b"Yaz0";
/// Bytes of the header before the first group.
pub const HEADER_LEN: usize = 16;

/// The declared size of the decompressed data, from the header.
pub fn decompressed_len(src: &[u8]) -> Result<usize, Error> {
    let header = src
        .get(..HEADER_LEN)
        .ok_or_else(|| bad(src.len(), "truncated header: 16 bytes expected"))?;
    if header.get(..4) != Some(MAGIC.as_slice()) {
        return Err(bad(0, "magic \"Yaz0\" expected"));
    }
    let size = header
        .get(4..8)
        .and_then(|b| b.try_into().ok())
        .map(u32::from_be_bytes)
        .ok_or_else(|| bad(src.len(), "truncated header: 16 bytes expected"))?;
    usize::try_from(size).map_err(|_| bad(4, "decompressed size does not fit this platform"))
}

/// Decompresses `src` into `dst`, which must be exactly
/// [`decompressed_len`] bytes long.
///
/// Trailing bytes after the last chunk are accepted only when they are zero
/// (encoders pad files to a multiple of 32 bytes).
pub fn decompress_into(src: &[u8], dst: &mut [u8]) -> Result<(), Error> {
    let expected = decompressed_len(src)?;
    if dst.len() != expected {
        return Err(Error::nowhere(
            ErrorCode::ArenaTooSmall,
            format_args!(
                "Yaz0 output buffer is {} bytes, the header declares {expected}",
                dst.len()
            ),
        ));
    }
    let mut pos = HEADER_LEN;
    let mut out = 0usize;
    let next = |pos: &mut usize| -> Result<u8, Error> {
        let byte = *src
            .get(*pos)
            .ok_or_else(|| bad(*pos, "stream ends before the declared size"))?;
        *pos += 1;
        Ok(byte)
    };
    while out < dst.len() {
        let flags = next(&mut pos)?;
        for bit in (0..8).rev() {
            let Some(slot) = dst.get_mut(out) else {
                break;
            };
            if flags & (1 << bit) != 0 {
                *slot = next(&mut pos)?;
                out += 1;
                continue;
            }
            let at = pos;
            let b1 = next(&mut pos)?;
            let b2 = next(&mut pos)?;
            let distance = ((usize::from(b1 & 0x0F) << 8) | usize::from(b2)) + 1;
            let length = match b1 >> 4 {
                0 => usize::from(next(&mut pos)?) + 0x12,
                n => usize::from(n) + 2,
            };
            let from = out
                .checked_sub(distance)
                .ok_or_else(|| bad(at, "back-reference before the start of the output"))?;
            let run = out
                .checked_add(length)
                .and_then(|end| dst.get_mut(from..end))
                .ok_or_else(|| bad(at, "back-reference runs past the declared size"))?;
            // The copy repeats the `distance` bytes before `out`: an
            // overlapping one (distance < length) repeats them again.
            let (earlier, copy) = run.split_at_mut(distance);
            for (d, s) in copy.iter_mut().zip(earlier.iter().cycle()) {
                *d = *s;
            }
            out += length;
        }
    }
    match src
        .get(pos..)
        .unwrap_or_default()
        .iter()
        .position(|&b| b != 0)
    {
        None => Ok(()),
        Some(i) => Err(bad(pos + i, "data after the end of the stream")),
    }
}

/// Decompresses only the first `out.len()` bytes of `src` (a Yaz0 stream),
/// for telling what it holds without its declared size's buffer, and returns
/// how many it could: fewer when the stream is shorter or broken.
pub fn peek(src: &[u8], out: &mut [u8]) -> usize {
    let Ok(declared) = decompressed_len(src) else {
        return 0;
    };
    let wanted = out.len().min(declared);
    let mut pos = HEADER_LEN;
    let mut n = 0usize;
    while n < wanted {
        let Some(&flags) = src.get(pos) else {
            return n;
        };
        pos += 1;
        for bit in (0..8).rev() {
            if n >= wanted {
                break;
            }
            if flags & (1 << bit) != 0 {
                match (src.get(pos), out.get_mut(n)) {
                    (Some(&b), Some(slot)) => *slot = b,
                    _ => return n,
                }
                pos += 1;
                n += 1;
                continue;
            }
            let (Some(&b1), Some(&b2)) = (src.get(pos), src.get(pos + 1)) else {
                return n;
            };
            let distance = ((usize::from(b1 & 0x0F) << 8) | usize::from(b2)) + 1;
            let Some(from) = n.checked_sub(distance) else {
                return n;
            };
            // Whatever the reference's length, only the bytes up to `wanted`
            // are needed; copied one at a time, as overlapping copies repeat.
            pos += if b1 >> 4 == 0 { 3 } else { 2 };
            let length = match b1 >> 4 {
                0 => match src.get(pos - 1) {
                    Some(&l) => usize::from(l) + 0x12,
                    None => return n,
                },
                k => usize::from(k) + 2,
            };
            for i in 0..length.min(wanted - n) {
                let Some(b) = out.get(from + i).copied() else {
                    return n;
                };
                match out.get_mut(n) {
                    Some(slot) => *slot = b,
                    None => return n,
                }
                n += 1;
            }
        }
    }
    n
}

fn bad(offset: usize, what: &str) -> Error {
    Error::binary(
        ErrorCode::BadYaz0,
        offset as u64,
        None,
        format_args!("Yaz0 {what} at byte {offset}"),
    )
}

/// Compresses `data` with literals and simple back-references: enough to
/// build Yaz0 fixtures in tests and samples, not a size-optimal encoder.
#[cfg(any(test, feature = "std"))]
#[allow(
    clippy::indexing_slicing,
    reason = "h is masked to last_seen's 0x1000 entries, pos < data.len() and start < pos in the loop, flag_at was pushed"
)]
pub fn compress(data: &[u8]) -> std::vec::Vec<u8> {
    use std::vec::Vec;
    let mut out: Vec<u8> = Vec::with_capacity(HEADER_LEN + data.len() * 9 / 8 + 16);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&u32::try_from(data.len()).unwrap_or(u32::MAX).to_be_bytes());
    out.extend_from_slice(&[0; 8]);
    // Last position + 1 where each 3-byte hash was seen (0: never).
    let mut last_seen = std::vec![0usize; 0x1000];
    let mut pos = 0;
    while pos < data.len() {
        let flag_at = out.len();
        out.push(0);
        for bit in (0..8).rev() {
            if pos >= data.len() {
                break;
            }
            // One candidate per 3-byte hash: fast and good enough for fixtures.
            let (mut best_len, mut best_dist) = (0, 0);
            if let Some(key) = data.get(pos..pos + 3) {
                let h = (usize::from(key[0]) << 8 ^ usize::from(key[1]) << 4 ^ usize::from(key[2]))
                    & 0xFFF;
                let candidate = last_seen[h];
                last_seen[h] = pos + 1;
                if candidate > 0 && pos - (candidate - 1) <= 0x1000 {
                    let start = candidate - 1;
                    best_len = data[pos..]
                        .iter()
                        .zip(&data[start..])
                        .take(0x111)
                        .take_while(|(a, b)| a == b)
                        .count();
                    best_dist = pos - start;
                }
            }
            if best_len >= 3 {
                let d = best_dist - 1;
                // d < 0x1000 and best_len <= 0x111, so every byte below fits.
                let byte = |v: usize| v.to_le_bytes()[0];
                if best_len >= 0x12 {
                    out.extend_from_slice(&[byte(d >> 8), byte(d), byte(best_len - 0x12)]);
                } else {
                    out.extend_from_slice(&[byte(((best_len - 2) << 4) | (d >> 8)), byte(d)]);
                }
                pos += best_len;
            } else {
                out[flag_at] |= 1 << bit;
                out.push(data[pos]);
                pos += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    fn roundtrip(data: &[u8]) {
        let packed = compress(data);
        assert_eq!(decompressed_len(&packed).unwrap(), data.len());
        let mut out = vec![0u8; data.len()];
        decompress_into(&packed, &mut out).unwrap();
        assert_eq!(out, data);
    }

    #[test]
    fn roundtrips_literals_short_and_long_references() {
        roundtrip(b"");
        roundtrip(b"abc");
        roundtrip(b"abcabcabcabcabcabcabcabcabcabcabcabc");
        roundtrip(&[7u8; 1000]);
        let mixed: Vec<u8> = (0..5000u32)
            .map(|i| (i * 7 % 251) as u8 ^ (i / 300) as u8)
            .collect();
        roundtrip(&mixed);
    }

    #[test]
    fn decodes_a_hand_written_stream() {
        // Flags 0b1110_0000: 'a', 'b', 'c' literal, then a 3-byte reference
        // (length 0 + 0x12 = 18, distance 3).
        let src = [
            b'Y',
            b'a',
            b'z',
            b'0',
            0,
            0,
            0,
            21,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0b1110_0000,
            b'a',
            b'b',
            b'c',
            0x00,
            0x02,
            0x00,
        ];
        let mut out = [0u8; 21];
        decompress_into(&src, &mut out).unwrap();
        assert_eq!(&out, b"abcabcabcabcabcabcabc");
    }

    #[test]
    fn truncated_streams_are_rejected_at_every_length() {
        let data: Vec<u8> = (0..300u32).map(|i| (i % 17) as u8).collect();
        let packed = compress(&data);
        let mut out = vec![0u8; data.len()];
        for cut in 0..packed.len() {
            let e = decompress_into(&packed[..cut], &mut out).unwrap_err();
            assert_eq!(e.code(), ErrorCode::BadYaz0, "cut at {cut}");
        }
    }

    #[test]
    fn reference_before_start_is_rejected() {
        let src = [
            b'Y', b'a', b'z', b'0', 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x20, 0x00,
        ];
        let mut out = [0u8; 4];
        let e = decompress_into(&src, &mut out).unwrap_err();
        assert_eq!(e.code(), ErrorCode::BadYaz0);
        assert!(e.message().contains("before the start"), "{}", e.message());
    }

    #[test]
    fn overlong_reference_is_rejected() {
        // 'a' then a reference of 4 bytes into an output of 3.
        let src = [
            b'Y', b'a', b'z', b'0', 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, b'a', 0x20, 0x00,
        ];
        let mut out = [0u8; 3];
        let e = decompress_into(&src, &mut out).unwrap_err();
        assert!(
            e.message().contains("past the declared size"),
            "{}",
            e.message()
        );
    }

    #[test]
    fn trailing_zero_padding_is_accepted_and_junk_is_not() {
        let mut packed = compress(b"hello hello hello");
        packed.extend_from_slice(&[0; 15]);
        let mut out = [0u8; 17];
        decompress_into(&packed, &mut out).unwrap();
        packed.push(1);
        assert_eq!(
            decompress_into(&packed, &mut out).unwrap_err().code(),
            ErrorCode::BadYaz0
        );
    }

    #[test]
    fn wrong_magic_and_short_header_are_rejected() {
        assert_eq!(
            decompressed_len(b"Yaz").unwrap_err().code(),
            ErrorCode::BadYaz0
        );
        assert_eq!(
            decompressed_len(b"Yaz1\0\0\0\0\0\0\0\0\0\0\0\0")
                .unwrap_err()
                .code(),
            ErrorCode::BadYaz0
        );
    }

    #[test]
    fn peek_gives_the_first_bytes_without_the_whole_buffer() {
        let data = b"RARCRARCRARC and more bytes after the magic";
        let packed = compress(data);
        for n in 0..=data.len() {
            let mut out = vec![0u8; n];
            assert_eq!(peek(&packed, &mut out), n);
            assert_eq!(&out[..], &data[..n]);
        }
        let mut out = [0u8; 8];
        assert_eq!(peek(&packed[..17], &mut out), 0, "flags only: nothing yet");
        assert_eq!(peek(b"Yaz", &mut out), 0);
        // No more than the declared size, whatever the buffer.
        let mut big = [0u8; 64];
        assert_eq!(peek(&packed, &mut big), data.len());
    }

    #[test]
    fn output_buffer_must_match_the_header() {
        let packed = compress(b"abcd");
        let mut out = [0u8; 3];
        assert_eq!(
            decompress_into(&packed, &mut out).unwrap_err().code(),
            ErrorCode::ArenaTooSmall
        );
    }
}
