//! Yay0 (SZP), the older of Nintendo's two LZ77 wrappers: RARC archives
//! store members in it when their flags say "compressed" without the Yaz0
//! bit (src/rarc/).
//!
//! Layout: `Yay0`, the decompressed size (u32 big-endian), the offset of the
//! link table and the offset of the byte table (u32 each, from the start of
//! the stream), then from 0x10 the mask words (u32 big-endian, read from the
//! top bit down). A set bit copies the next byte of the byte table; a clear
//! bit reads the next u16 of the link table, `NRRR`: a back-reference of
//! distance `0xRRR + 1` and length `N + 2`, or, when `N` is 0, of length
//! (the next byte of the byte table) `+ 0x12`.
//!
//! Unlike Yaz0 the three streams are apart, so each is read only inside its
//! own region: masks from 0x10 up to the first table, each table up to the
//! start of whatever follows it (or the end of the input). The size is known
//! from the header before anything is written, so the caller sizes the buffer
//! and checks it against its limit first. A stream that runs out of its
//! region, a reference before the start of the output, or a copy past the
//! declared size is a [`ErrorCode::BadYay0`] error with the input offset.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "cursors start inside the input and advance one read at a time after a bounds check; out < dst.len() before each step, a distance is at most 0x1000 and a copy's end is checked against dst; the encoder is a fixture"
)]

use crate::error::{Error, ErrorCode};

/// The four magic bytes.
pub const MAGIC: &[u8; 4] = b"Yay0";
/// Bytes of the header; the mask words start here.
pub const HEADER_LEN: usize = 16;

/// The declared size of the decompressed data, from the header.
pub fn decompressed_len(src: &[u8]) -> Result<usize, Error> {
    let header = header(src)?;
    usize::try_from(header.size).map_err(|_| bad(4, "decompressed size does not fit this platform"))
}

struct Header {
    size: u32,
    links: usize,
    bytes: usize,
}

fn header(src: &[u8]) -> Result<Header, Error> {
    let word = |at: usize| -> Result<u32, Error> {
        src.get(at..at + 4)
            .and_then(|b| b.try_into().ok())
            .map(u32::from_be_bytes)
            .ok_or_else(|| bad(src.len(), "truncated header: 16 bytes expected"))
    };
    if src.len() < HEADER_LEN {
        return Err(bad(src.len(), "truncated header: 16 bytes expected"));
    }
    if src.get(..4) != Some(MAGIC.as_slice()) {
        return Err(bad(0, "magic \"Yay0\" expected"));
    }
    let size = word(4)?;
    let table = |at: usize, what: &str| -> Result<usize, Error> {
        let offset = word(at)? as usize;
        if (HEADER_LEN..=src.len()).contains(&offset) {
            Ok(offset)
        } else {
            Err(Error::binary(
                ErrorCode::BadYay0,
                at as u64,
                None,
                format_args!(
                    "Yay0 {what} table offset {offset:#x} at byte {at} lies outside the stream (16..={} expected)",
                    src.len()
                ),
            ))
        }
    };
    Ok(Header {
        size,
        links: table(8, "link")?,
        bytes: table(12, "byte")?,
    })
}

/// One of the three streams: a cursor that stays inside its region.
struct Stream<'a> {
    src: &'a [u8],
    pos: usize,
    end: usize,
    what: &'static str,
}

impl Stream<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        let at = self.pos;
        let bytes = at
            .checked_add(N)
            .filter(|&e| e <= self.end)
            .and_then(|e| self.src.get(at..e))
            .and_then(|b| <[u8; N]>::try_from(b).ok())
            .ok_or_else(|| {
                Error::binary(
                    ErrorCode::BadYay0,
                    at as u64,
                    None,
                    format_args!(
                        "Yay0 {} run out at byte {at} before the declared size",
                        self.what
                    ),
                )
            })?;
        self.pos += N;
        Ok(bytes)
    }
}

/// Decompresses `src` into `dst`, which must be exactly
/// [`decompressed_len`] bytes long.
pub fn decompress_into(src: &[u8], dst: &mut [u8]) -> Result<(), Error> {
    let h = header(src)?;
    if u64::from(h.size) != dst.len() as u64 {
        return Err(Error::nowhere(
            ErrorCode::ArenaTooSmall,
            format_args!(
                "Yay0 output buffer is {} bytes, the header declares {}",
                dst.len(),
                h.size
            ),
        ));
    }
    // Each stream ends where the next region starts (or at the input's end).
    let masks_end = h.links.min(h.bytes);
    let links_end = if h.bytes >= h.links {
        h.bytes
    } else {
        src.len()
    };
    let bytes_end = if h.links > h.bytes {
        h.links
    } else {
        src.len()
    };
    let mut masks = Stream {
        src,
        pos: HEADER_LEN,
        end: masks_end,
        what: "mask words",
    };
    let mut links = Stream {
        src,
        pos: h.links,
        end: links_end,
        what: "link table",
    };
    let mut bytes = Stream {
        src,
        pos: h.bytes,
        end: bytes_end,
        what: "byte table",
    };
    let mut out = 0usize;
    while out < dst.len() {
        let mask = u32::from_be_bytes(masks.take::<4>()?);
        for bit in (0..32).rev() {
            let Some(slot) = dst.get_mut(out) else {
                break;
            };
            if mask & (1 << bit) != 0 {
                let [byte] = bytes.take::<1>()?;
                *slot = byte;
                out += 1;
                continue;
            }
            let at = links.pos;
            let link = u16::from_be_bytes(links.take::<2>()?);
            let distance = usize::from(link & 0x0FFF) + 1;
            let length = match link >> 12 {
                0 => usize::from(bytes.take::<1>()?[0]) + 0x12,
                n => usize::from(n) + 2,
            };
            let from = out
                .checked_sub(distance)
                .ok_or_else(|| bad(at, "back-reference before the start of the output"))?;
            let run = out
                .checked_add(length)
                .and_then(|end| dst.get_mut(from..end))
                .ok_or_else(|| bad(at, "back-reference runs past the declared size"))?;
            // An overlapping copy (distance < length) repeats the bytes again.
            let (earlier, copy) = run.split_at_mut(distance);
            for (d, s) in copy.iter_mut().zip(earlier.iter().cycle()) {
                *d = *s;
            }
            out += length;
        }
    }
    Ok(())
}

fn bad(offset: usize, what: &str) -> Error {
    Error::binary(
        ErrorCode::BadYay0,
        offset as u64,
        None,
        format_args!("Yay0 {what} at byte {offset}"),
    )
}

/// Compresses `data` with literals and simple back-references: enough to
/// build Yay0 fixtures in tests, not a size-optimal encoder.
#[cfg(any(test, feature = "std"))]
#[allow(
    clippy::indexing_slicing,
    reason = "h is masked to last_seen's 0x1000 entries, pos < data.len() and start < pos in the loop, each mask was pushed before its bits are set"
)]
pub fn compress(data: &[u8]) -> std::vec::Vec<u8> {
    use std::vec::Vec;
    let mut masks: Vec<u32> = Vec::new();
    let mut links: Vec<u8> = Vec::new();
    let mut bytes: Vec<u8> = Vec::new();
    let mut last_seen = std::vec![0usize; 0x1000];
    let mut pos = 0;
    while pos < data.len() {
        masks.push(0);
        let mask = masks.len() - 1;
        for bit in (0..32).rev() {
            if pos >= data.len() {
                break;
            }
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
                // d < 0x1000 and best_len <= 0x111: every value below fits.
                let d = best_dist - 1;
                let u16_of = |v: usize| u16::try_from(v).unwrap_or(u16::MAX);
                if best_len >= 0x12 {
                    links.extend_from_slice(&u16_of(d).to_be_bytes());
                    bytes.push(u8::try_from(best_len - 0x12).unwrap_or(u8::MAX));
                } else {
                    links.extend_from_slice(&u16_of(((best_len - 2) << 12) | d).to_be_bytes());
                }
                pos += best_len;
            } else {
                masks[mask] |= 1 << bit;
                bytes.push(data[pos]);
                pos += 1;
            }
        }
    }
    let links_at = HEADER_LEN + masks.len() * 4;
    let bytes_at = links_at + links.len();
    let mut out = Vec::with_capacity(bytes_at + bytes.len());
    out.extend_from_slice(MAGIC);
    for word in [data.len(), links_at, bytes_at] {
        out.extend_from_slice(&u32::try_from(word).unwrap_or(u32::MAX).to_be_bytes());
    }
    for m in masks {
        out.extend_from_slice(&m.to_be_bytes());
    }
    out.extend_from_slice(&links);
    out.extend_from_slice(&bytes);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;
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

    /// Header, one mask word, then the link and byte tables.
    fn stream(size: u32, mask: u32, links: &[u8], bytes: &[u8]) -> Vec<u8> {
        let mut s = Vec::new();
        s.extend_from_slice(b"Yay0");
        s.extend_from_slice(&size.to_be_bytes());
        s.extend_from_slice(&20u32.to_be_bytes());
        s.extend_from_slice(&(20 + links.len() as u32).to_be_bytes());
        s.extend_from_slice(&mask.to_be_bytes());
        s.extend_from_slice(links);
        s.extend_from_slice(bytes);
        s
    }

    #[test]
    fn decodes_a_hand_written_stream() {
        // Bits 1 1 1 0 0: 'a' 'b' 'c', then a long reference (N = 0, length
        // 0x12 + 0 = 18, distance 3), then a short one (N = 1: length 3,
        // distance 1) repeating the last 'c'.
        let src = stream(24, 0b111 << 29, &[0x00, 0x02, 0x10, 0x00], b"abc\x00");
        let mut out = [0u8; 24];
        decompress_into(&src, &mut out).unwrap();
        assert_eq!(&out, b"abcabcabcabcabcabcabcccc");
    }

    #[test]
    fn truncated_streams_are_rejected_at_every_length() {
        let data: Vec<u8> = (0..300u32).map(|i| (i % 17) as u8).collect();
        let packed = compress(&data);
        let mut out = vec![0u8; data.len()];
        for cut in 0..packed.len() {
            let e = decompress_into(&packed[..cut], &mut out).unwrap_err();
            assert_eq!(e.code(), ErrorCode::BadYay0, "cut at {cut}");
        }
    }

    #[test]
    fn reference_before_start_is_rejected() {
        let src = stream(4, 0, &[0x10, 0x00], b"");
        let e = decompress_into(&src, &mut [0u8; 4]).unwrap_err();
        assert_eq!(e.code(), ErrorCode::BadYay0);
        assert!(e.message().contains("before the start"), "{}", e.message());
    }

    #[test]
    fn overlong_reference_is_rejected() {
        // 'a', then a reference of 3 bytes into an output of 3.
        let src = stream(3, 1 << 31, &[0x10, 0x00], b"a");
        let e = decompress_into(&src, &mut [0u8; 3]).unwrap_err();
        assert!(
            e.message().contains("past the declared size"),
            "{}",
            e.message()
        );
    }

    #[test]
    fn a_stream_cannot_read_into_the_next_region() {
        // Every bit a literal, but the byte table holds 2 of the 5 bytes the
        // size asks for; the mask words may not be read as table bytes either.
        let src = stream(5, u32::MAX, b"", b"ab");
        let e = decompress_into(&src, &mut [0u8; 5]).unwrap_err();
        assert!(e.message().contains("byte table"), "{}", e.message());
        // Mask words past the first table's start.
        let src = stream(40, u32::MAX, b"", &[b'x'; 40]);
        let e = decompress_into(&src, &mut [0u8; 40]).unwrap_err();
        assert!(e.message().contains("mask words"), "{}", e.message());
    }

    #[test]
    fn table_offsets_outside_the_stream_are_rejected() {
        let mut src = stream(1, 1 << 31, b"", b"a");
        src[8..12].copy_from_slice(&0xFFFF_FFF0u32.to_be_bytes());
        let e = decompressed_len(&src).unwrap_err();
        assert_eq!(e.code(), ErrorCode::BadYay0);
        assert_eq!(e.at().to_string(), "0x8");
        let mut src = stream(1, 1 << 31, b"", b"a");
        src[12..16].copy_from_slice(&4u32.to_be_bytes());
        assert_eq!(
            decompressed_len(&src).unwrap_err().code(),
            ErrorCode::BadYay0
        );
    }

    #[test]
    fn wrong_magic_and_short_header_are_rejected() {
        assert_eq!(
            decompressed_len(b"Yay").unwrap_err().code(),
            ErrorCode::BadYay0
        );
        let mut src = stream(1, 1 << 31, b"", b"a");
        src[3] = b'1';
        assert_eq!(
            decompressed_len(&src).unwrap_err().code(),
            ErrorCode::BadYay0
        );
    }

    #[test]
    fn output_buffer_must_match_the_header() {
        let packed = compress(b"abcd");
        assert_eq!(
            decompress_into(&packed, &mut [0u8; 3]).unwrap_err().code(),
            ErrorCode::ArenaTooSmall
        );
    }
}
