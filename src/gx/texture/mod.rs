//! GX texture decoding: every GameCube/Wii texture format to RGBA8.
//!
//! The GX texture unit stores images as a row-major grid of fixed-size
//! *blocks* (tiles); inside a block texels are row-major too. A level whose
//! width or height is not a multiple of the block size is padded to whole
//! blocks in the data, and only the visible texels are written out. This
//! module turns one level into `width * height * 4` bytes of RGBA8, rows top
//! to bottom, without allocating and without panicking on any input.
//!
//! # Conventions (bit-exact; hashes of the output depend on them)
//!
//! | format | block (texels) | bytes/block | texel encoding |
//! | --- | --- | --- | --- |
//! | I4 | 8x8 | 32 | 4-bit intensity, high nibble is the left texel |
//! | I8 | 8x4 | 32 | 8-bit intensity |
//! | IA4 | 8x4 | 32 | alpha in the high nibble, intensity in the low nibble |
//! | IA8 | 4x4 | 32 | alpha byte first, then intensity |
//! | RGB565 | 4x4 | 32 | big-endian `rrrrrggggggbbbbb` |
//! | RGB5A3 | 4x4 | 32 | big-endian; bit 15 set: RGB555, alpha 255; clear: A3RGB4 |
//! | RGBA8 | 4x4 | 64 | 16 AR pairs, then 16 GB pairs |
//! | C4 | 8x8 | 32 | 4-bit palette index, high nibble first |
//! | C8 | 8x4 | 32 | 8-bit palette index |
//! | C14X2 | 4x4 | 32 | big-endian u16, palette index in the low 14 bits |
//! | CMPR | 8x8 | 32 | four DXT1-like 4x4 sub-blocks, see below |
//!
//! - Intensity formats write the intensity to R, G and B. I4 and I8 also
//!   write it to alpha (alpha = I).
//! - Channels narrower than 8 bits expand by bit replication: 3-bit `v` to
//!   `(v << 5) | (v << 2) | (v >> 1)`, 4-bit `v` to `v * 0x11`, 5-bit `v` to
//!   `(v << 3) | (v >> 2)`, 6-bit `v` to `(v << 2) | (v >> 4)`.
//! - Palettes ([`PaletteFormat`]) hold big-endian u16 entries in IA8 (alpha
//!   byte first), RGB565 or RGB5A3, decoded exactly like the direct formats.
//!   A palette of `n` bytes has `n / 2` entries. A visible texel whose index
//!   is `>=` that count fails with [`TextureError::PaletteIndexOutOfRange`];
//!   indices in block padding outside the image are ignored.
//! - CMPR: each 8x8 macroblock holds four 8-byte sub-blocks in the order
//!   top-left, top-right, bottom-left, bottom-right. A sub-block is two
//!   big-endian RGB565 colours `c0`, `c1`, then four bytes of 2-bit indices,
//!   one byte per row (top row first), most significant bits first (leftmost
//!   texel). With the colours expanded to 8 bits per channel: if `c0 > c1` (as
//!   u16), `c2 = (5*c0 + 3*c1) >> 3` and `c3 = (3*c0 + 5*c1) >> 3`, all opaque;
//!   otherwise `c2 = (c0 + c1) >> 1` (opaque) and `c3` is the same colour as
//!   `c2` with alpha 0 (not black: this is what GX and the reference decoder
//!   do, and the corpus hashes agree).
//!
//! # Sizes
//!
//! [`encoded_size`] gives the bytes of one level, [`mip_chain_size`] and
//! [`MipLevels`] the layout of a mip chain (each level halves width and
//! height, never below 1, and starts right after the previous one). All size
//! arithmetic is checked.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "texel arithmetic on u8/u16 channel values with constant factors, and coordinates below the texture's side, whose sizes were checked with checked_mul first"
)]

mod cmpr;
mod color;
mod error;
mod intensity;
mod palette;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2;
mod tiles;

#[cfg(test)]
mod tests;

use core::fmt;

pub use error::TextureError;
pub use palette::PaletteFormat;

/// A GX texture format, as stored in a BTI/TEX1 header's format byte.
///
/// The discriminant is the GX code (`GX_TF_*`), so `format as u8` is the
/// value found in files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum GxFormat {
    /// 4-bit intensity, 8x8 texels per 32-byte block.
    I4 = 0x0,
    /// 8-bit intensity, 8x4 texels per 32-byte block.
    I8 = 0x1,
    /// 4-bit intensity and 4-bit alpha, 8x4 texels per 32-byte block.
    IA4 = 0x2,
    /// 8-bit intensity and 8-bit alpha, 4x4 texels per 32-byte block.
    IA8 = 0x3,
    /// 16-bit RGB565 colour, 4x4 texels per 32-byte block.
    RGB565 = 0x4,
    /// 16-bit RGB555 or A3RGB4 colour, 4x4 texels per 32-byte block.
    RGB5A3 = 0x5,
    /// 32-bit colour, 4x4 texels per 64-byte block (AR plane, then GB plane).
    RGBA8 = 0x6,
    /// 4-bit palette index, 8x8 texels per 32-byte block.
    C4 = 0x8,
    /// 8-bit palette index, 8x4 texels per 32-byte block.
    C8 = 0x9,
    /// 14-bit palette index in a u16, 4x4 texels per 32-byte block.
    C14X2 = 0xA,
    /// DXT1-like compression, 8x8 texels per 32-byte macroblock.
    CMPR = 0xE,
}

impl GxFormat {
    /// Every format, in code order; handy for tests and tables.
    pub const ALL: [GxFormat; 11] = [
        GxFormat::I4,
        GxFormat::I8,
        GxFormat::IA4,
        GxFormat::IA8,
        GxFormat::RGB565,
        GxFormat::RGB5A3,
        GxFormat::RGBA8,
        GxFormat::C4,
        GxFormat::C8,
        GxFormat::C14X2,
        GxFormat::CMPR,
    ];

    /// The format for a GX format code (the header byte), or `None` for codes
    /// GX does not define as texture formats (0x7, 0xB..=0xD, 0xF and up).
    pub const fn from_code(code: u8) -> Option<Self> {
        Some(match code {
            0x0 => Self::I4,
            0x1 => Self::I8,
            0x2 => Self::IA4,
            0x3 => Self::IA8,
            0x4 => Self::RGB565,
            0x5 => Self::RGB5A3,
            0x6 => Self::RGBA8,
            0x8 => Self::C4,
            0x9 => Self::C8,
            0xA => Self::C14X2,
            0xE => Self::CMPR,
            _ => return None,
        })
    }

    /// The GX format code, as stored in files.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The conventional upper-case name (`"I4"`, `"CMPR"`, ...), for messages
    /// and reports.
    pub const fn name(self) -> &'static str {
        match self {
            Self::I4 => "I4",
            Self::I8 => "I8",
            Self::IA4 => "IA4",
            Self::IA8 => "IA8",
            Self::RGB565 => "RGB565",
            Self::RGB5A3 => "RGB5A3",
            Self::RGBA8 => "RGBA8",
            Self::C4 => "C4",
            Self::C8 => "C8",
            Self::C14X2 => "C14X2",
            Self::CMPR => "CMPR",
        }
    }

    /// Block width in texels: the data is padded to a multiple of this.
    pub const fn block_width(self) -> u32 {
        match self {
            Self::I4 | Self::I8 | Self::IA4 | Self::C4 | Self::C8 | Self::CMPR => 8,
            Self::IA8 | Self::RGB565 | Self::RGB5A3 | Self::RGBA8 | Self::C14X2 => 4,
        }
    }

    /// Block height in texels: the data is padded to a multiple of this.
    pub const fn block_height(self) -> u32 {
        match self {
            Self::I4 | Self::C4 | Self::CMPR => 8,
            _ => 4,
        }
    }

    /// Bytes of encoded data per block (32 for every format but RGBA8's 64).
    pub const fn block_bytes(self) -> usize {
        match self {
            Self::RGBA8 => 64,
            _ => 32,
        }
    }

    /// Whether texels are palette indices, so decoding needs a palette.
    pub const fn is_paletted(self) -> bool {
        matches!(self, Self::C4 | Self::C8 | Self::C14X2)
    }
}

impl fmt::Display for GxFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Bytes of one encoded level of `format` at `width` x `height` texels, with
/// both dimensions rounded up to whole blocks (the padding is stored). `None`
/// if that does not fit in `usize`.
pub const fn encoded_size(format: GxFormat, width: u32, height: u32) -> Option<usize> {
    let blocks_x = width.div_ceil(format.block_width()) as usize;
    let blocks_y = height.div_ceil(format.block_height()) as usize;
    match blocks_x.checked_mul(blocks_y) {
        Some(blocks) => blocks.checked_mul(format.block_bytes()),
        None => None,
    }
}

/// Bytes of RGBA8 output for `width` x `height` texels (`width * height * 4`),
/// i.e. the length [`decode`] wants for `out`. `None` on `usize` overflow.
pub const fn decoded_size(width: u32, height: u32) -> Option<usize> {
    match (width as usize).checked_mul(height as usize) {
        Some(texels) => texels.checked_mul(4),
        None => None,
    }
}

/// One level's dimension from the previous one: halved, but never below 1
/// (a 0 stays 0).
const fn next_mip_dim(dim: u32) -> u32 {
    if dim > 1 { dim >> 1 } else { dim }
}

/// Total bytes of a mip chain of `levels` levels starting at `width` x
/// `height`: the levels are stored back to back, each [`encoded_size`] long.
/// `levels == 0` gives 0 (J3D files with a mip count of 0 are usually read
/// as one level; that choice belongs to the caller). `None` on overflow.
pub const fn mip_chain_size(
    format: GxFormat,
    width: u32,
    height: u32,
    levels: u8,
) -> Option<usize> {
    let (mut w, mut h, mut total, mut i) = (width, height, 0usize, 0u8);
    while i < levels {
        let Some(size) = encoded_size(format, w, h) else {
            return None;
        };
        let Some(sum) = total.checked_add(size) else {
            return None;
        };
        total = sum;
        w = next_mip_dim(w);
        h = next_mip_dim(h);
        i += 1;
    }
    Some(total)
}

/// One level of a mip chain: where it lies in the chain's data and how big
/// it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MipLevel {
    /// Level number, 0 for the full-size image.
    pub level: u8,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// Byte offset of this level from the start of level 0's data.
    pub offset: usize,
    /// Encoded bytes of this level ([`encoded_size`]).
    pub size: usize,
}

/// Iterator over the levels of a mip chain, smallest offset first. Built by
/// [`MipLevels::new`], which checks the whole chain's size up front, so
/// iteration itself cannot overflow.
#[derive(Clone, Debug)]
pub struct MipLevels {
    format: GxFormat,
    width: u32,
    height: u32,
    offset: usize,
    level: u8,
    levels: u8,
}

impl MipLevels {
    /// The `levels` levels of a chain starting at `width` x `height` texels,
    /// or `None` if the chain's total size ([`mip_chain_size`]) overflows.
    pub const fn new(format: GxFormat, width: u32, height: u32, levels: u8) -> Option<Self> {
        match mip_chain_size(format, width, height, levels) {
            Some(_) => Some(Self {
                format,
                width,
                height,
                offset: 0,
                level: 0,
                levels,
            }),
            None => None,
        }
    }
}

impl Iterator for MipLevels {
    type Item = MipLevel;

    fn next(&mut self) -> Option<MipLevel> {
        if self.level >= self.levels {
            return None;
        }
        // `new` checked the whole chain, so neither of these fails; ending
        // the iteration is the panic-free fallback.
        let size = encoded_size(self.format, self.width, self.height)?;
        let item = MipLevel {
            level: self.level,
            width: self.width,
            height: self.height,
            offset: self.offset,
            size,
        };
        self.offset = self.offset.checked_add(size)?;
        self.width = next_mip_dim(self.width);
        self.height = next_mip_dim(self.height);
        self.level += 1;
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::from(self.levels.saturating_sub(self.level));
        (left, Some(left))
    }
}

impl ExactSizeIterator for MipLevels {}

impl core::iter::FusedIterator for MipLevels {}

/// Decodes one level of `format` at `width` x `height` texels from `data`
/// into `out` as RGBA8: exactly `width * height * 4` bytes, row-major, top
/// row first.
///
/// `data` starts at the level's first block and may be longer than the level
/// ([`encoded_size`]). `palette` is the TLUT for C4/C8/C14X2: its format and
/// its raw big-endian u16 entries (`entries * 2` bytes; a trailing odd byte
/// is ignored); other formats ignore it.
///
/// # Errors
///
/// Checked in this order: [`TextureError::SizeOverflow`] when the output or
/// encoded size does not fit in `usize`; [`TextureError::OutputWrongSize`];
/// [`TextureError::MissingPalette`] for a paletted format without one;
/// [`TextureError::DataTooShort`]. These leave `out` untouched.
/// [`TextureError::PaletteIndexOutOfRange`] is found while decoding; `out`
/// is then partly written (deterministically).
pub fn decode(
    format: GxFormat,
    width: u32,
    height: u32,
    data: &[u8],
    palette: Option<(PaletteFormat, &[u8])>,
    out: &mut [u8],
) -> Result<(), TextureError> {
    let expected = decoded_size(width, height).ok_or(TextureError::SizeOverflow)?;
    let needed = encoded_size(format, width, height).ok_or(TextureError::SizeOverflow)?;
    if out.len() != expected {
        return Err(TextureError::OutputWrongSize {
            expected,
            got: out.len(),
        });
    }
    if format.is_paletted() && palette.is_none() {
        return Err(TextureError::MissingPalette);
    }
    let data = data.get(..needed).ok_or(TextureError::DataTooShort {
        needed,
        got: data.len(),
    })?;
    // `decoded_size` fitting in usize means both dimensions do too.
    let (w, h) = (width as usize, height as usize);
    match (format, palette) {
        (GxFormat::I4, _) => tiles::decode_tiled(&intensity::I4, w, h, data, out),
        (GxFormat::I8, _) => tiles::decode_tiled(&intensity::I8, w, h, data, out),
        (GxFormat::IA4, _) => tiles::decode_tiled(&intensity::Ia4, w, h, data, out),
        (GxFormat::IA8, _) => tiles::decode_tiled(&intensity::Ia8, w, h, data, out),
        (GxFormat::RGB565, _) => tiles::decode_tiled(&color::Rgb565, w, h, data, out),
        (GxFormat::RGB5A3, _) => tiles::decode_tiled(&color::Rgb5a3, w, h, data, out),
        (GxFormat::RGBA8, _) => tiles::decode_tiled(&color::Rgba8, w, h, data, out),
        (GxFormat::CMPR, _) => tiles::decode_tiled(&cmpr::Cmpr, w, h, data, out),
        (GxFormat::C4, Some((pf, pal))) => {
            tiles::decode_tiled(&palette::C4::new(pf, pal), w, h, data, out)
        }
        (GxFormat::C8, Some((pf, pal))) => {
            tiles::decode_tiled(&palette::C8::new(pf, pal), w, h, data, out)
        }
        (GxFormat::C14X2, Some((pf, pal))) => {
            tiles::decode_tiled(&palette::C14x2::new(pf, pal), w, h, data, out)
        }
        (GxFormat::C4 | GxFormat::C8 | GxFormat::C14X2, None) => Err(TextureError::MissingPalette),
    }
}
