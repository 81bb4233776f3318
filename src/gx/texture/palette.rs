//! Paletted formats: C4, C8, C14X2, with IA8, RGB565 or RGB5A3 palettes.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "texel arithmetic on u8/u16 channel values with constant factors, and coordinates below the texture's side, whose sizes were checked with checked_mul first"
)]

use core::fmt;

use super::TextureError;
use super::color::{ia8, rgb5a3, rgb5a3_lookup, rgb565};
use super::tiles::{BlockDecoder, Texel, Tile};

/// The encoding of palette (TLUT) entries, as stored in a BTI/TEX1 header's
/// palette-format byte. Every entry is a big-endian u16.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PaletteFormat {
    /// Alpha byte first, then intensity (written to R, G and B).
    IA8 = 0,
    /// RGB565, opaque.
    RGB565 = 1,
    /// RGB555 with alpha 255 when bit 15 is set, else A3RGB4.
    RGB5A3 = 2,
}

impl PaletteFormat {
    /// The palette format for a GX TLUT format code, or `None` for codes
    /// above 2.
    pub const fn from_code(code: u8) -> Option<Self> {
        match code {
            0 => Some(Self::IA8),
            1 => Some(Self::RGB565),
            2 => Some(Self::RGB5A3),
            _ => None,
        }
    }

    /// The GX TLUT format code, as stored in files.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The conventional upper-case name (`"IA8"`, `"RGB565"`, `"RGB5A3"`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::IA8 => "IA8",
            Self::RGB565 => "RGB565",
            Self::RGB5A3 => "RGB5A3",
        }
    }
}

impl fmt::Display for PaletteFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One palette entry (a big-endian u16) as RGBA8.
#[inline(always)]
fn entry(format: PaletteFormat, p: u16) -> Texel {
    match format {
        PaletteFormat::IA8 => ia8(p),
        PaletteFormat::RGB565 => rgb565(p),
        PaletteFormat::RGB5A3 => rgb5a3(p),
    }
}

/// A palette decoded up front into a lookup table of `N` entries (16 for C4,
/// 256 for C8: as many as the index can address).
struct Lut<const N: usize> {
    texels: [Texel; N],
    /// Entries the palette really has (its byte length / 2), maybe more or
    /// fewer than `N`.
    entries: usize,
}

impl<const N: usize> Lut<N> {
    fn new(format: PaletteFormat, raw: &[u8]) -> Self {
        let mut texels = [[0; 4]; N];
        for (texel, pair) in texels.iter_mut().zip(raw.chunks_exact(2)) {
            if let &[hi, lo] = pair {
                *texel = entry(format, u16::from_be_bytes([hi, lo]));
            }
        }
        Self {
            texels,
            entries: raw.len() / 2,
        }
    }

    #[inline(always)]
    fn get(&self, index: u16) -> Option<Texel> {
        let index = usize::from(index);
        if index < self.entries {
            self.texels.get(index).copied()
        } else {
            None
        }
    }
}

/// Fills a tile of row stride `width` from palette indices. An index the
/// palette lacks is an error on a visible texel and transparent black in the
/// padding (which is never copied out).
#[inline(always)]
fn fill(
    tile: &mut Tile,
    width: usize,
    indices: impl Iterator<Item = u16>,
    visible_w: usize,
    visible_h: usize,
    entries: usize,
    lookup: impl Fn(u16) -> Option<Texel>,
) -> Result<(), TextureError> {
    for (i, (texel, index)) in tile.iter_mut().zip(indices).enumerate() {
        *texel = match lookup(index) {
            Some(t) => t,
            None if i % width < visible_w && i / width < visible_h => {
                return Err(TextureError::PaletteIndexOutOfRange { index, entries });
            }
            None => [0; 4],
        };
    }
    Ok(())
}

/// Row `Y` of a run of C4 or C8 blocks (32 bytes, eight texels a row):
/// a block's row is its `P` index bytes from `P * Y`, looked up in the
/// table of `N` entries by `row` (eight texels, 32 bytes of output).
#[inline(always)]
fn table_rows<const Y: usize, const P: usize, const N: usize>(
    table: &[Texel; N],
    src: &[u8],
    out: &mut [u8],
    row: impl Fn(&[Texel; N], &[u8; P], &mut [u8; 32]),
) {
    let (blocks, _) = src.as_chunks::<32>();
    let (outs, _) = out.as_chunks_mut::<32>();
    for (block, o) in blocks.iter().zip(outs) {
        let (rows, _) = block.as_chunks::<P>();
        if let Some(indices) = rows.get(Y) {
            row(table, indices, o);
        }
    }
}

/// C4: 8x8 texels of 4-bit indices, high nibble first.
pub(super) struct C4(Lut<16>);

impl C4 {
    /// Decodes the palette (`raw`: big-endian u16 entries) once.
    pub(super) fn new(format: PaletteFormat, raw: &[u8]) -> Self {
        Self(Lut::new(format, raw))
    }
}

impl BlockDecoder for C4 {
    const WIDTH: usize = 8;
    const HEIGHT: usize = 8;
    const BYTES: usize = 32;

    #[inline(always)]
    fn decode_block(
        &self,
        src: &[u8],
        tile: &mut Tile,
        visible_w: usize,
        visible_h: usize,
    ) -> Result<(), TextureError> {
        if let Some(bytes) = src.first_chunk::<32>() {
            // Every index the block holds is in the palette: look up
            // unchecked (a nibble addresses all 16 table entries).
            let highest = bytes.iter().fold(0, |m, &b| m.max(b >> 4).max(b & 0xF));
            if usize::from(highest) < self.0.entries {
                let texels = &self.0.texels;
                let pick = |i: u8| {
                    texels
                        .get(usize::from(i & 0xF))
                        .copied()
                        .unwrap_or_default()
                };
                let (pairs, _) = tile.as_chunks_mut::<2>();
                for (pair, &b) in pairs.iter_mut().zip(bytes) {
                    *pair = [pick(b >> 4), pick(b)];
                }
                return Ok(());
            }
        }
        let indices = src
            .iter()
            .flat_map(|&b| [u16::from(b >> 4), u16::from(b & 0xF)]);
        fill(
            tile,
            Self::WIDTH,
            indices,
            visible_w,
            visible_h,
            self.0.entries,
            |i| self.0.get(i),
        )
    }

    #[inline(always)]
    fn rows_ready(&self, src: &[u8]) -> bool {
        // A nibble addresses only the table's 16 entries.
        self.0.entries >= 16
            || usize::from(src.iter().fold(0, |m, &b| m.max(b >> 4).max(b & 0xF))) < self.0.entries
    }

    #[inline(always)]
    fn decode_row<const Y: usize>(&self, src: &[u8], out: &mut [u8]) {
        table_rows::<Y, 4, 16>(&self.0.texels, src, out, c4_row);
    }
}

/// A C4 block row's four bytes of nibble indices (the high nibble first)
/// to eight texels.
#[inline(always)]
fn c4_row(table: &[Texel; 16], indices: &[u8; 4], out: &mut [u8; 32]) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    super::sse2::c4_row(table, indices, out);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    c4_row_scalar(table, indices, out);
}

/// [`c4_row`] without SSE2: two texels a byte.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
fn c4_row_scalar(table: &[Texel; 16], indices: &[u8; 4], out: &mut [u8; 32]) {
    let pick = |i: u8| table.get(usize::from(i & 0xF)).copied().unwrap_or_default();
    let (o, _) = out.as_chunks_mut::<4>();
    let (pairs, _) = o.as_chunks_mut::<2>();
    for (pair, &b) in pairs.iter_mut().zip(indices) {
        *pair = [pick(b >> 4), pick(b)];
    }
}

/// C8: 8x4 texels of 8-bit indices.
pub(super) struct C8(Lut<256>);

impl C8 {
    /// Decodes the palette (`raw`: big-endian u16 entries) once.
    pub(super) fn new(format: PaletteFormat, raw: &[u8]) -> Self {
        Self(Lut::new(format, raw))
    }
}

impl BlockDecoder for C8 {
    const WIDTH: usize = 8;
    const HEIGHT: usize = 4;
    const BYTES: usize = 32;

    #[inline(always)]
    fn decode_block(
        &self,
        src: &[u8],
        tile: &mut Tile,
        visible_w: usize,
        visible_h: usize,
    ) -> Result<(), TextureError> {
        if let Some(bytes) = src.first_chunk::<32>() {
            // Every index the block holds is in the palette: look up
            // unchecked (a byte addresses all 256 table entries).
            let highest = bytes.iter().fold(0, |m, &b| m.max(b));
            if usize::from(highest) < self.0.entries {
                let texels = &self.0.texels;
                for (texel, &b) in tile.iter_mut().zip(bytes) {
                    *texel = texels.get(usize::from(b)).copied().unwrap_or_default();
                }
                return Ok(());
            }
        }
        let indices = src.iter().map(|&b| u16::from(b));
        fill(
            tile,
            Self::WIDTH,
            indices,
            visible_w,
            visible_h,
            self.0.entries,
            |i| self.0.get(i),
        )
    }

    #[inline(always)]
    fn rows_ready(&self, src: &[u8]) -> bool {
        // A byte addresses only the table's 256 entries.
        self.0.entries >= 256 || usize::from(src.iter().fold(0, |m, &b| m.max(b))) < self.0.entries
    }

    #[inline(always)]
    fn decode_row<const Y: usize>(&self, src: &[u8], out: &mut [u8]) {
        table_rows::<Y, 8, 256>(&self.0.texels, src, out, c8_row);
    }
}

/// A C8 block row's eight byte indices to eight texels.
#[inline(always)]
fn c8_row(table: &[Texel; 256], indices: &[u8; 8], out: &mut [u8; 32]) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    super::sse2::c8_row(table, indices, out);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    c8_row_scalar(table, indices, out);
}

/// [`c8_row`] without SSE2: two texels per 8-byte store (half the stores
/// of one a texel).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
fn c8_row_scalar(table: &[Texel; 256], indices: &[u8; 8], out: &mut [u8; 32]) {
    let look = |i: u8| {
        u64::from(u32::from_le_bytes(
            table.get(usize::from(i)).copied().unwrap_or_default(),
        ))
    };
    let (o, _) = out.as_chunks_mut::<8>();
    let (pairs, _) = indices.as_chunks::<2>();
    for (two, &[a, b]) in o.iter_mut().zip(pairs) {
        *two = (look(a) | look(b) << 32).to_le_bytes();
    }
}

/// C14X2: 4x4 texels of big-endian u16 whose low 14 bits are the index. The
/// palette (up to 16384 entries) is read per texel rather than decoded into a
/// table, to keep the stack small.
pub(super) struct C14x2<'a> {
    format: PaletteFormat,
    raw: &'a [u8],
}

impl<'a> C14x2<'a> {
    /// Keeps the palette (`raw`: big-endian u16 entries) for lookups.
    pub(super) fn new(format: PaletteFormat, raw: &'a [u8]) -> Self {
        Self { format, raw }
    }

    /// Reads entry `index` and decodes it with `f` (one palette format).
    #[inline(always)]
    fn get(&self, index: u16, f: impl Fn(u16) -> Texel) -> Option<Texel> {
        let at = usize::from(index) * 2;
        match self.raw.get(at..at + 2) {
            Some(&[hi, lo]) => Some(f(u16::from_be_bytes([hi, lo]))),
            _ => None,
        }
    }
}

impl BlockDecoder for C14x2<'_> {
    const WIDTH: usize = 4;
    const HEIGHT: usize = 4;
    const BYTES: usize = 32;

    #[inline(always)]
    fn decode_block(
        &self,
        src: &[u8],
        tile: &mut Tile,
        visible_w: usize,
        visible_h: usize,
    ) -> Result<(), TextureError> {
        let indices = src.chunks_exact(2).map(|pair| match *pair {
            [hi, lo] => u16::from_be_bytes([hi, lo]) & 0x3FFF,
            _ => 0,
        });
        let entries = self.raw.len() / 2;
        // One loop per palette format, so the format is not re-tested per texel.
        match self.format {
            PaletteFormat::IA8 => fill(
                tile,
                Self::WIDTH,
                indices,
                visible_w,
                visible_h,
                entries,
                |i| self.get(i, ia8),
            ),
            PaletteFormat::RGB565 => fill(
                tile,
                Self::WIDTH,
                indices,
                visible_w,
                visible_h,
                entries,
                |i| self.get(i, rgb565),
            ),
            PaletteFormat::RGB5A3 => fill(
                tile,
                Self::WIDTH,
                indices,
                visible_w,
                visible_h,
                entries,
                |i| self.get(i, rgb5a3_lookup),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    //! The row lookups (SSE2 where the target has it, and the scalar ones
    //! other targets use) against the table, texel by texel.
    extern crate std;
    use std::vec::Vec;

    use super::Texel;

    fn bytes<const N: usize>(k: usize) -> [u8; N] {
        core::array::from_fn(|j| {
            ((k * N + j) as u32)
                .wrapping_mul(2_654_435_761)
                .to_le_bytes()[3]
        })
    }

    #[test]
    fn row_lookups_are_the_table_in_texel_order() {
        let table: [Texel; 256] = core::array::from_fn(|k| bytes::<4>(k + 1000));
        let small: [Texel; 16] = core::array::from_fn(|k| table[k]);
        for k in 0..512 {
            let indices = bytes::<8>(k);
            let want: Vec<u8> = indices
                .iter()
                .flat_map(|&i| table[usize::from(i)])
                .collect();
            let nibbles = bytes::<4>(k);
            let want4: Vec<u8> = nibbles
                .iter()
                .flat_map(|&b| [b >> 4, b & 0xF])
                .flat_map(|i| small[usize::from(i)])
                .collect();
            let mut out = [0; 32];
            super::c8_row(&table, &indices, &mut out);
            assert_eq!(out.as_slice(), want.as_slice());
            super::c8_row_scalar(&table, &indices, &mut out);
            assert_eq!(out.as_slice(), want.as_slice());
            super::c4_row(&small, &nibbles, &mut out);
            assert_eq!(out.as_slice(), want4.as_slice());
            super::c4_row_scalar(&small, &nibbles, &mut out);
            assert_eq!(out.as_slice(), want4.as_slice());
        }
    }
}
