//! Stored samples to RGBA8, under the conventions of PngSuite's
//! `expected.tsv`: 16-bit samples keep their high byte; 1-, 2- and 4-bit
//! grey scale as v · 255 / (2^d − 1); palettes expand through PLTE and
//! tRNS (entries past PLTE are opaque black, as the png crate reads them);
//! a grey or RGB tRNS key makes pixels whose full stored sample equals it
//! transparent, all others opaque.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "sample arithmetic on u8/u16 values, and sizes from IHDR's sides (each below 2^31, checked on read) computed in u64"
)]

use super::header::{ColorType, Header};

/// Grey (depth ≤ 8) and indexed images: each stored value's RGBA8.
pub type Lut = [[u8; 4]; 256];

/// What a row of stored samples turns into RGBA8 with.
#[derive(Clone, Debug)]
pub struct Expander<'m> {
    color_type: ColorType,
    bit_depth: u8,
    /// Each stored value's RGBA8 (in the decoder's memory, not its frame).
    lut: &'m Lut,
    /// The tRNS key of a grey or RGB image, as stored big-endian samples.
    key: Option<[u8; 6]>,
}

impl<'m> Expander<'m> {
    /// The expansion of an image with this header, PLTE (RGB triples) and
    /// tRNS (palette alphas, or a grey / RGB key of 2 or 6 bytes), its
    /// table written into `lut`.
    pub fn new(
        header: &Header,
        palette: &[u8],
        transparency: Option<&[u8]>,
        lut: &'m mut Lut,
    ) -> Self {
        lut.fill([0, 0, 0, 0xFF]);
        let mut key = None;
        match header.color_type {
            ColorType::Indexed => {
                for (entry, rgb) in lut.iter_mut().zip(palette.chunks_exact(3)) {
                    entry[..3].copy_from_slice(rgb);
                }
                for (entry, &alpha) in lut.iter_mut().zip(transparency.unwrap_or_default()) {
                    entry[3] = alpha;
                }
            }
            ColorType::Grey | ColorType::Rgb => {
                if let Some(t) = transparency {
                    let mut k = [0u8; 6];
                    for (dst, src) in k.iter_mut().zip(t) {
                        *dst = *src;
                    }
                    key = Some(k);
                }
                if header.color_type == ColorType::Grey && header.bit_depth <= 8 {
                    let max = (1u16 << header.bit_depth) - 1;
                    let grey_key = key.map(|k| u16::from_be_bytes([k[0], k[1]]));
                    for (v, entry) in (0..=max).zip(lut.iter_mut()) {
                        let s = (v * 255 / max).to_le_bytes()[0];
                        let a = if grey_key == Some(v) { 0 } else { 0xFF };
                        *entry = [s, s, s, a];
                    }
                }
            }
            ColorType::GreyAlpha | ColorType::Rgba => {}
        }
        Self {
            color_type: header.color_type,
            bit_depth: header.bit_depth,
            lut: &*lut,
            key,
        }
    }

    /// Writes the RGBA8 pixels of `row` (stored samples, unfiltered) to
    /// `out`, which holds exactly the row's pixels.
    pub fn expand(&self, row: &[u8], out: &mut [u8]) {
        let (out, _) = out.as_chunks_mut::<4>();
        let opaque = |hit: bool| if hit { 0 } else { 0xFF };
        match (self.color_type, self.bit_depth) {
            (ColorType::Grey | ColorType::Indexed, d @ (1 | 2 | 4)) => {
                self.expand_packed(row, out, d);
            }
            (ColorType::Indexed, _) | (ColorType::Grey, 8) => {
                for (o, &v) in out.iter_mut().zip(row) {
                    #[allow(
                        clippy::indexing_slicing,
                        reason = "a u8 index is below 256, the table's length"
                    )]
                    let rgba = self.lut[usize::from(v)];
                    *o = rgba;
                }
            }
            (ColorType::Grey, _) => {
                let key = self.key.map(|k| [k[0], k[1]]);
                for (o, s) in out.iter_mut().zip(row.as_chunks::<2>().0) {
                    *o = [s[0], s[0], s[0], opaque(key == Some(*s))];
                }
            }
            (ColorType::Rgb, 8) => {
                let key = self.key.and_then(|k| {
                    (k[0] == 0 && k[2] == 0 && k[4] == 0).then_some([k[1], k[3], k[5]])
                });
                match key {
                    None => {
                        for (o, s) in out.iter_mut().zip(row.as_chunks::<3>().0) {
                            *o = [s[0], s[1], s[2], 0xFF];
                        }
                    }
                    Some(key) => {
                        for (o, s) in out.iter_mut().zip(row.as_chunks::<3>().0) {
                            *o = [s[0], s[1], s[2], opaque(*s == key)];
                        }
                    }
                }
            }
            (ColorType::Rgb, _) => {
                for (o, s) in out.iter_mut().zip(row.as_chunks::<6>().0) {
                    *o = [s[0], s[2], s[4], opaque(self.key == Some(*s))];
                }
            }
            (ColorType::GreyAlpha, 8) => {
                for (o, s) in out.iter_mut().zip(row.as_chunks::<2>().0) {
                    *o = [s[0], s[0], s[0], s[1]];
                }
            }
            (ColorType::GreyAlpha, _) => {
                for (o, s) in out.iter_mut().zip(row.as_chunks::<4>().0) {
                    *o = [s[0], s[0], s[0], s[2]];
                }
            }
            (ColorType::Rgba, 8) => {
                for (o, s) in out.iter_mut().zip(row.as_chunks::<4>().0) {
                    *o = *s;
                }
            }
            (ColorType::Rgba, _) => {
                for (o, s) in out.iter_mut().zip(row.as_chunks::<8>().0) {
                    *o = [s[0], s[2], s[4], s[6]];
                }
            }
        }
    }

    /// 1-, 2- and 4-bit samples, most significant first in each byte.
    fn expand_packed(&self, row: &[u8], out: &mut [[u8; 4]], depth: u8) {
        let per_byte = usize::from(8 / depth);
        let mask = (1u8 << depth) - 1;
        for (pixels, &byte) in out.chunks_mut(per_byte).zip(row) {
            let mut bits = byte;
            for o in pixels {
                bits = bits.rotate_left(u32::from(depth));
                #[allow(
                    clippy::indexing_slicing,
                    reason = "a u8 index is below 256, the table's length"
                )]
                let rgba = self.lut[usize::from(bits & mask)];
                *o = rgba;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::png::header::tests::header_bytes;

    fn header(depth: u8, color: u8) -> Header {
        Header::read(&header_bytes(4, 1, depth, color, 0)).unwrap()
    }

    fn expanded(e: &Expander<'_>, row: &[u8], pixels: usize) -> std::vec::Vec<u8> {
        let mut out = std::vec![0u8; pixels * 4];
        e.expand(row, &mut out);
        out
    }

    #[test]
    fn low_depth_grey_scales_to_full_range() {
        let mut lut = [[0; 4]; 256];
        let e = Expander::new(&header(2, 0), &[], None, &mut lut);
        assert_eq!(
            expanded(&e, &[0b00_01_10_11], 4),
            [
                0, 0, 0, 255, 85, 85, 85, 255, 170, 170, 170, 255, 255, 255, 255, 255
            ]
        );
        let mut lut = [[0; 4]; 256];
        let e = Expander::new(&header(1, 0), &[], None, &mut lut);
        assert_eq!(
            expanded(&e, &[0b1000_0000], 2),
            [255, 255, 255, 255, 0, 0, 0, 255]
        );
    }

    #[test]
    fn grey_key_compares_the_stored_sample() {
        let mut lut = [[0; 4]; 256];
        let e = Expander::new(&header(4, 0), &[], Some(&[0, 3]), &mut lut);
        assert_eq!(expanded(&e, &[0x34], 2), [51, 51, 51, 0, 68, 68, 68, 255]);
        // 16-bit: the full sample, not its high byte.
        let mut lut = [[0; 4]; 256];
        let e = Expander::new(&header(16, 0), &[], Some(&[1, 2]), &mut lut);
        assert_eq!(expanded(&e, &[1, 2, 1, 3], 2), [1, 1, 1, 0, 1, 1, 1, 255]);
    }

    #[test]
    fn rgb_key_makes_exact_matches_transparent() {
        let mut lut = [[0; 4]; 256];
        let e = Expander::new(&header(8, 2), &[], Some(&[0, 1, 0, 2, 0, 3]), &mut lut);
        assert_eq!(
            expanded(&e, &[1, 2, 3, 1, 2, 4], 2),
            [1, 2, 3, 0, 1, 2, 4, 255]
        );
        // A key over 255 in an 8-bit image matches nothing.
        let mut lut = [[0; 4]; 256];
        let e = Expander::new(&header(8, 2), &[], Some(&[1, 1, 0, 2, 0, 3]), &mut lut);
        assert_eq!(expanded(&e, &[1, 2, 3], 1), [1, 2, 3, 255]);
        let mut lut = [[0; 4]; 256];
        let e = Expander::new(&header(16, 2), &[], Some(&[0, 1, 0, 2, 0, 3]), &mut lut);
        assert_eq!(
            expanded(&e, &[0, 1, 0, 2, 0, 3, 9, 1, 0, 2, 0, 3], 2),
            [0, 0, 0, 0, 9, 0, 0, 255]
        );
    }

    #[test]
    fn palette_takes_trns_alpha_and_missing_entries_are_opaque_black() {
        let mut lut = [[0; 4]; 256];
        let e = Expander::new(
            &header(8, 3),
            &[10, 20, 30, 40, 50, 60],
            Some(&[7]),
            &mut lut,
        );
        assert_eq!(
            expanded(&e, &[0, 1, 2], 3),
            [10, 20, 30, 7, 40, 50, 60, 255, 0, 0, 0, 255]
        );
    }

    #[test]
    fn sixteen_bit_keeps_the_high_byte() {
        let mut lut = [[0; 4]; 256];
        let e = Expander::new(&header(16, 6), &[], None, &mut lut);
        assert_eq!(expanded(&e, &[1, 2, 3, 4, 5, 6, 7, 8], 1), [1, 3, 5, 7]);
        let mut lut = [[0; 4]; 256];
        let e = Expander::new(&header(16, 4), &[], None, &mut lut);
        assert_eq!(expanded(&e, &[9, 2, 7, 4], 1), [9, 9, 9, 7]);
    }
}
