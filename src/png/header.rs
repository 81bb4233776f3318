//! The PNG signature and IHDR: what the image is, checked field by field
//! before any image data is read, and the buffer sizes a decode needs.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "sample arithmetic on u8/u16 values, and sizes from IHDR's sides (each below 2^31, checked on read) computed in u64"
)]

use super::crc;
use super::error::{PngError, PngErrorKind};

/// The eight bytes every PNG file starts with.
pub const SIGNATURE: [u8; 8] = *b"\x89PNG\r\n\x1a\n";
/// Bytes of the signature plus the IHDR chunk with its CRC.
pub const HEADER_LEN: usize = 33;
/// Bytes of the inflate window (deflate's largest back-reference distance).
pub const WINDOW_LEN: usize = 32 * 1024;
/// The most bytes a decode to RGBA8 inflates through: the window's 32 KiB
/// of history and up to 96 KiB more, slid back when full, so that inflate
/// writes ahead into plain memory instead of wrapping a ring (see
/// `image.rs`). Each slide moves 32 KiB, once per 96 KiB out (with 32 KiB
/// more, once per 32 KiB: a tenth of a large image's decode). An image
/// whose data is shorter gets a window of its data's length (64 KiB at
/// least), which never slides: [`Header::decode_window_len`].
pub const DECODE_WINDOW_LEN: usize = 4 * WINDOW_LEN;
/// The least bytes a decode inflates through.
const MIN_DECODE_WINDOW_LEN: usize = 2 * WINDOW_LEN;
/// Largest width, height and chunk length PNG allows.
pub const MAX_U31: u32 = 0x7FFF_FFFF;

/// How a pixel's samples are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColorType {
    /// One grey sample (colour type 0).
    Grey,
    /// Red, green, blue (colour type 2).
    Rgb,
    /// A palette index (colour type 3).
    Indexed,
    /// Grey and alpha (colour type 4).
    GreyAlpha,
    /// Red, green, blue and alpha (colour type 6).
    Rgba,
}

impl ColorType {
    /// Samples per pixel.
    pub const fn channels(self) -> u8 {
        match self {
            Self::Grey | Self::Indexed => 1,
            Self::GreyAlpha => 2,
            Self::Rgb => 3,
            Self::Rgba => 4,
        }
    }

    /// The colour type and the bit depths PNG allows for it.
    fn from_code(code: u8) -> Option<(Self, &'static [u8])> {
        match code {
            0 => Some((Self::Grey, &[1, 2, 4, 8, 16])),
            2 => Some((Self::Rgb, &[8, 16])),
            3 => Some((Self::Indexed, &[1, 2, 4, 8])),
            4 => Some((Self::GreyAlpha, &[8, 16])),
            6 => Some((Self::Rgba, &[8, 16])),
            _ => None,
        }
    }
}

/// What IHDR says about the image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Header {
    /// Pixels per row, 1 to 2³¹ − 1.
    pub width: u32,
    /// Rows, 1 to 2³¹ − 1.
    pub height: u32,
    /// Bits per sample (per palette index for indexed images).
    pub bit_depth: u8,
    /// How samples are stored.
    pub color_type: ColorType,
    /// Adam7-interlaced.
    pub interlaced: bool,
}

/// The seven Adam7 passes: first column, first row, column step, row step.
pub(crate) const ADAM7: [[u32; 4]; 7] = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
];

impl Header {
    /// Reads and checks the signature and IHDR (length 13, every field
    /// valid, CRC) from the first [`HEADER_LEN`] bytes of a file.
    pub fn read(prefix: &[u8]) -> Result<Header, PngError> {
        let err = |kind, at| Err(PngError::new(kind, at));
        let Some(bytes) = prefix.first_chunk::<HEADER_LEN>() else {
            return match prefix.get(..8) {
                Some(s) if s != SIGNATURE => err(PngErrorKind::Signature, 0),
                None if !SIGNATURE.starts_with(prefix) => err(PngErrorKind::Signature, 0),
                _ => err(PngErrorKind::Truncated, prefix.len() as u64),
            };
        };
        let (signature, ihdr) = bytes.split_at(8);
        if signature != SIGNATURE {
            return err(PngErrorKind::Signature, 0);
        }
        let be = |at: usize| {
            ihdr.get(at..at + 4)
                .and_then(|s| s.try_into().ok())
                .map_or(0, u32::from_be_bytes)
        };
        if be(0) != 13 || ihdr.get(4..8) != Some(b"IHDR") {
            return err(PngErrorKind::NoHeader, 8);
        }
        let body = ihdr.get(4..21).unwrap_or_default();
        if crc::of(body) != be(21) {
            return err(PngErrorKind::Crc, 8);
        }
        let (width, height) = (be(8), be(12));
        let field = |at: usize| ihdr.get(at).copied().unwrap_or(0xFF);
        let (bit_depth, code) = (field(16), field(17));
        if width == 0 || height == 0 || width > MAX_U31 || height > MAX_U31 {
            return err(PngErrorKind::BadSize, 16);
        }
        let Some((color_type, depths)) = ColorType::from_code(code) else {
            return err(PngErrorKind::BadColorType, 25);
        };
        if !depths.contains(&bit_depth) {
            return err(PngErrorKind::BadBitDepth, 24);
        }
        if field(18) != 0 || field(19) != 0 || field(20) > 1 {
            return err(PngErrorKind::BadMethod, 26);
        }
        Ok(Header {
            width,
            height,
            bit_depth,
            color_type,
            interlaced: field(20) == 1,
        })
    }

    /// Bytes of RGBA8 output: width · height · 4 (below 2⁶⁴ for any IHDR).
    pub fn rgba8_len(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height) * 4
    }

    /// Bytes per pixel as the filters see it (at least 1).
    pub(crate) fn filter_bpp(&self) -> usize {
        usize::from((self.color_type.channels() * self.bit_depth).div_ceil(8))
    }

    /// Bytes of one unfiltered row of `width` pixels (without the filter byte).
    pub(crate) fn row_bytes(&self, width: u32) -> u64 {
        let bits =
            u64::from(width) * u64::from(self.color_type.channels()) * u64::from(self.bit_depth);
        bits.div_ceil(8)
    }

    /// The passes' sizes in pixels (one pass when not interlaced; an empty
    /// Adam7 pass has a zero side).
    pub(crate) fn pass_size(&self, pass: usize) -> (u32, u32) {
        if !self.interlaced {
            return if pass == 0 {
                (self.width, self.height)
            } else {
                (0, 0)
            };
        }
        let Some(&[x0, y0, dx, dy]) = ADAM7.get(pass) else {
            return (0, 0);
        };
        let side = |len: u32, first: u32, step: u32| {
            len.checked_sub(first).map_or(0, |rest| rest.div_ceil(step))
        };
        (side(self.width, x0, dx), side(self.height, y0, dy))
    }

    /// True when rows unfilter straight into the output (8-bit RGBA, not
    /// interlaced): no row buffers are needed.
    pub(crate) fn rows_in_place(&self) -> bool {
        self.color_type == ColorType::Rgba && self.bit_depth == 8 && !self.interlaced
    }

    /// Bytes the image data inflates to: every pass's rows, each a filter
    /// byte and its samples.
    pub(crate) fn stored_len(&self) -> u64 {
        (0..ADAM7.len())
            .map(|pass| match self.pass_size(pass) {
                (0, _) | (_, 0) => 0,
                (w, h) => u64::from(h).saturating_mul(self.row_bytes(w).saturating_add(1)),
            })
            .fold(0u64, u64::saturating_add)
    }

    /// Bytes of the inflate window a decode uses: the image data's length
    /// within 64 KiB and [`DECODE_WINDOW_LEN`].
    pub fn decode_window_len(&self) -> usize {
        let stored = usize::try_from(self.stored_len()).unwrap_or(usize::MAX);
        stored.clamp(MIN_DECODE_WINDOW_LEN, DECODE_WINDOW_LEN)
    }

    /// Exact bytes of scratch a decode to RGBA8 needs beside the output:
    /// the inflate window ([`Header::decode_window_len`]); then, unless rows unfilter in place
    /// (8-bit RGBA, not interlaced), two rows of stored samples (the row
    /// being unfiltered and the one above it); then, when interlaced, one
    /// RGBA8 row that a pass row expands into before it is spread out.
    pub fn scratch_len(&self) -> u64 {
        let mut len = self.decode_window_len() as u64;
        if !self.rows_in_place() {
            len += 2 * self.row_bytes(self.width);
        }
        if self.interlaced {
            len += u64::from(self.width) * 4;
        }
        len
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::vec::Vec;

    /// The signature and an IHDR chunk with its CRC.
    pub(crate) fn header_bytes(w: u32, h: u32, depth: u8, color: u8, interlace: u8) -> Vec<u8> {
        let mut v = SIGNATURE.to_vec();
        v.extend_from_slice(&13u32.to_be_bytes());
        let start = v.len();
        v.extend_from_slice(b"IHDR");
        v.extend_from_slice(&w.to_be_bytes());
        v.extend_from_slice(&h.to_be_bytes());
        v.extend_from_slice(&[depth, color, 0, 0, interlace]);
        let c = crc::of(&v[start..]);
        v.extend_from_slice(&c.to_be_bytes());
        v
    }

    fn kind(bytes: &[u8]) -> PngErrorKind {
        Header::read(bytes).unwrap_err().kind()
    }

    #[test]
    fn header_reads_every_valid_colour_type_and_depth() {
        for (color, depths) in [
            (0u8, &[1u8, 2, 4, 8, 16][..]),
            (2, &[8, 16]),
            (3, &[1, 2, 4, 8]),
            (4, &[8, 16]),
            (6, &[8, 16]),
        ] {
            for &d in depths {
                let h = Header::read(&header_bytes(3, 5, d, color, 1)).unwrap();
                assert_eq!(
                    (h.width, h.height, h.bit_depth, h.interlaced),
                    (3, 5, d, true)
                );
            }
        }
    }

    #[test]
    fn header_refuses_every_bad_field() {
        assert_eq!(kind(&header_bytes(0, 5, 8, 6, 0)), PngErrorKind::BadSize);
        assert_eq!(
            kind(&header_bytes(1, 1 << 31, 8, 6, 0)),
            PngErrorKind::BadSize
        );
        assert_eq!(
            kind(&header_bytes(1, 1, 8, 1, 0)),
            PngErrorKind::BadColorType
        );
        assert_eq!(
            kind(&header_bytes(1, 1, 16, 3, 0)),
            PngErrorKind::BadBitDepth
        );
        assert_eq!(
            kind(&header_bytes(1, 1, 4, 2, 0)),
            PngErrorKind::BadBitDepth
        );
        assert_eq!(kind(&header_bytes(1, 1, 8, 6, 2)), PngErrorKind::BadMethod);
        let mut bad_crc = header_bytes(1, 1, 8, 6, 0);
        bad_crc[32] ^= 1;
        assert_eq!(kind(&bad_crc), PngErrorKind::Crc);
        let mut not_ihdr = header_bytes(1, 1, 8, 6, 0);
        not_ihdr[12] = b'i';
        assert_eq!(kind(&not_ihdr), PngErrorKind::NoHeader);
        assert_eq!(kind(b"GIF89a"), PngErrorKind::Signature);
        assert_eq!(kind(&SIGNATURE[..5]), PngErrorKind::Truncated);
    }

    #[test]
    fn scratch_is_the_window_plus_two_sample_rows_unless_rgba8_in_place() {
        let h = Header::read(&header_bytes(10, 2, 8, 6, 0)).unwrap();
        assert_eq!(h.scratch_len(), 65_536);
        assert_eq!(h.rgba8_len(), 80);
        let h = Header::read(&header_bytes(10, 2, 1, 0, 0)).unwrap();
        assert_eq!(h.scratch_len(), 65_536 + 2 * 2);
        let h = Header::read(&header_bytes(10, 2, 16, 2, 1)).unwrap();
        assert_eq!(h.scratch_len(), 65_536 + 2 * 60 + 40);
    }

    #[test]
    fn the_decode_window_is_the_image_data_within_64_and_128_kib() {
        // 100 rows of a filter byte and 400 samples; then 1 000 rows.
        let h = Header::read(&header_bytes(100, 100, 8, 6, 0)).unwrap();
        assert_eq!(h.stored_len(), 40_100);
        assert_eq!(h.decode_window_len(), 65_536);
        let h = Header::read(&header_bytes(100, 200, 8, 6, 0)).unwrap();
        assert_eq!(h.decode_window_len(), 80_200);
        let h = Header::read(&header_bytes(100, 1000, 8, 6, 0)).unwrap();
        assert_eq!(h.decode_window_len(), DECODE_WINDOW_LEN);
        // Adam7: every pass's rows, each with its filter byte.
        let h = Header::read(&header_bytes(8, 8, 8, 0, 1)).unwrap();
        assert_eq!(h.stored_len(), 64 + 15);
    }

    #[test]
    fn adam7_passes_cover_every_pixel_once() {
        for (w, h) in [(1, 1), (3, 9), (8, 8), (33, 17)] {
            let hd = Header::read(&header_bytes(w, h, 8, 0, 1)).unwrap();
            let total: u64 = (0..7)
                .map(|p| {
                    let (a, b) = hd.pass_size(p);
                    u64::from(a) * u64::from(b)
                })
                .sum();
            assert_eq!(total, u64::from(w) * u64::from(h));
        }
    }
}
