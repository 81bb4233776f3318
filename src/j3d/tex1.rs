//! TEX1: textures. u16 count @0x08, u32 offset of the header table @0x0C,
//! u32 offset of the name table @0x10 (offsets from the section's start).
//!
//! Each texture is a 32-byte BTI header ([`BtiHeader`]) whose palette and
//! image data offsets count from that header's own first byte. Headers may
//! share image data (same data offset, format, size and palette): the scene
//! decodes such data once and points every sharing texture at it.
//!
//! A data offset of 0 means the header has no image (the texture loads as
//! missing, with a warning). A mip count of 0 reads as one level, as GX tools
//! read it (`smgo_capworldsky_matmode0.bmd` stores 0).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times record sizes below 256 (below 2^41, no overflow with a 64-bit usize), each checked by the section reader before any byte is read"
)]

use zerocopy::big_endian::{I16, U16, U32};
use zerocopy::{FromBytes, Immutable, KnownLayout};

use super::read::{NameTable, SectionReader};
use crate::error::{Error, ErrorCode, Location, SectionId};
use crate::gx::texture::{GxFormat, MipLevel, MipLevels, PaletteFormat, mip_chain_size};
use crate::scene::Filter;

/// Bytes of one BTI header.
pub const HEADER_SIZE: usize = 0x20;

/// One BTI header, read in place (big-endian).
#[derive(FromBytes, KnownLayout, Immutable, Debug)]
#[repr(C)]
pub struct BtiHeader {
    /// GX texture format code (`GX_TF_*`).
    pub format: u8,
    /// Alpha flag (0 none, 1 one-bit, 2 eight-bit); not read by scenedec.
    pub alpha: u8,
    /// Width of level 0, in texels.
    pub width: U16,
    /// Height of level 0, in texels.
    pub height: U16,
    /// Wrap on S: 0 clamp, 1 repeat, 2 mirror.
    pub wrap_s: u8,
    /// Wrap on T.
    pub wrap_t: u8,
    /// Palette flag; not read (the format says whether there is a palette).
    pub palette_flag: u8,
    /// Palette (TLUT) format: 0 IA8, 1 RGB565, 2 RGB5A3.
    pub palette_format: u8,
    /// Palette entries (u16 each).
    pub palette_entries: U16,
    /// Palette offset, from this header's first byte.
    pub palette_offset: U32,
    /// Mipmaps enabled flag; not read (the mip count says it).
    pub mipmaps: u8,
    /// Edge LOD flag.
    pub edge_lod: u8,
    /// Bias clamp flag.
    pub bias_clamp: u8,
    /// Maximum anisotropy (GX_ANISO_1/2/4).
    pub max_anisotropy: u8,
    /// Minification filter (GX_NEAR … GX_LIN_MIP_LIN).
    pub min_filter: u8,
    /// Magnification filter.
    pub mag_filter: u8,
    /// Minimum LOD, in eighths of a level (s8).
    pub min_lod: i8,
    /// Maximum LOD, in eighths of a level (s8).
    pub max_lod: i8,
    /// Mip levels stored (0 reads as 1).
    pub mip_count: u8,
    /// Padding.
    pub pad: u8,
    /// LOD bias, in hundredths of a level.
    pub lod_bias: I16,
    /// Image data offset, from this header's first byte; 0 for none.
    pub data_offset: U32,
}

/// How texture coordinates outside 0..1 read a GX texture (`GX_CLAMP`…).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GxWrap {
    /// 0: the edge texel.
    Clamp,
    /// 1: repeat.
    Repeat,
    /// 2: repeat, mirrored every other time.
    Mirror,
}

impl GxWrap {
    /// The wrap mode for a stored code, or `None` above 2.
    pub const fn from_code(code: u8) -> Option<Self> {
        match code {
            0 => Some(Self::Clamp),
            1 => Some(Self::Repeat),
            2 => Some(Self::Mirror),
            _ => None,
        }
    }

    /// The scene's wrap mode.
    pub const fn to_scene(self) -> crate::scene::Wrap {
        match self {
            Self::Clamp => crate::scene::Wrap::Clamp,
            Self::Repeat => crate::scene::Wrap::Repeat,
            Self::Mirror => crate::scene::Wrap::Mirror,
        }
    }
}

/// A GX texture filter (`GX_NEAR` … `GX_LIN_MIP_LIN`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GxFilter {
    /// 0: nearest texel.
    Near,
    /// 1: bilinear.
    Linear,
    /// 2: nearest texel of the nearest level.
    NearMipNear,
    /// 3: bilinear in the nearest level.
    LinMipNear,
    /// 4: nearest texel, blended between levels.
    NearMipLin,
    /// 5: trilinear.
    LinMipLin,
}

impl GxFilter {
    /// The filter for a stored code, or `None` above 5.
    pub const fn from_code(code: u8) -> Option<Self> {
        Some(match code {
            0 => Self::Near,
            1 => Self::Linear,
            2 => Self::NearMipNear,
            3 => Self::LinMipNear,
            4 => Self::NearMipLin,
            5 => Self::LinMipLin,
            _ => return None,
        })
    }

    /// The filter inside one level (the scene keeps no mip filter): the
    /// mip modes map to their base filter.
    pub const fn base(self) -> Filter {
        match self {
            Self::Near | Self::NearMipNear | Self::NearMipLin => Filter::Nearest,
            Self::Linear | Self::LinMipNear | Self::LinMipLin => Filter::Linear,
        }
    }
}

/// A texture's palette (TLUT).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette<'a> {
    /// Entry encoding.
    pub format: PaletteFormat,
    /// Entries (each a big-endian u16).
    pub entries: u16,
    /// The entries' bytes (`entries * 2`).
    pub bytes: &'a [u8],
    /// Offset of the first entry from the section's start.
    pub offset: usize,
}

/// One texture of TEX1, its header checked and its data located.
#[derive(Clone, Copy, Debug)]
pub struct Texture<'a> {
    /// Index in TEX1.
    pub index: usize,
    /// The name's bytes and absolute file offset.
    pub name: (&'a [u8], usize),
    /// Offset of the header from the section's start.
    pub header_offset: usize,
    /// The pixel format.
    pub format: GxFormat,
    /// Width of level 0, in texels (1..=65535).
    pub width: u32,
    /// Height of level 0, in texels.
    pub height: u32,
    /// Wrap on S (U).
    pub wrap_s: GxWrap,
    /// Wrap on T (V).
    pub wrap_t: GxWrap,
    /// Minification filter.
    pub min_filter: GxFilter,
    /// Magnification filter.
    pub mag_filter: GxFilter,
    /// Maximum anisotropy code (0: 1x, 1: 2x, 2: 4x).
    pub max_anisotropy: u8,
    /// Minimum LOD, in levels.
    pub min_lod: f32,
    /// Maximum LOD, in levels.
    pub max_lod: f32,
    /// LOD bias, in levels.
    pub lod_bias: f32,
    /// The mip count as stored (0 is read as one level; see [`Texture::levels`]).
    pub stored_mip_count: u8,
    /// The palette, for C4, C8 and C14X2.
    pub palette: Option<Palette<'a>>,
    /// Every level's encoded bytes, back to back, and their offset from the
    /// section's start; `None` when the data offset is 0 (no image).
    pub data: Option<(&'a [u8], usize)>,
}

impl<'a> Texture<'a> {
    /// Levels decoded: the stored mip count, with 0 read as 1.
    pub fn levels(&self) -> u8 {
        self.stored_mip_count.max(1)
    }

    /// The level layout of the image data, level 0 first.
    pub fn mip_levels(&self) -> impl Iterator<Item = MipLevel> + use<> {
        // `Tex1::texture` checked the chain's size, so `new` succeeds; an
        // empty chain is the panic-free fallback.
        MipLevels::new(self.format, self.width, self.height, self.levels())
            .into_iter()
            .flatten()
    }

    /// Texels of all levels together.
    pub fn texels(&self) -> u64 {
        self.mip_levels()
            .map(|l| u64::from(l.width) * u64::from(l.height))
            .sum()
    }

    /// RGBA8 bytes of all levels together (4 per texel).
    pub fn decoded_bytes(&self) -> u64 {
        self.texels().saturating_mul(4)
    }

    /// True when `self` and `other` decode to the same pixels: the same
    /// image data, format, size, level count and palette.
    pub fn shares_data_with(&self, other: &Texture<'_>) -> bool {
        let data = |t: &Texture<'_>| t.data.map(|(_, at)| at);
        let palette = |t: &Texture<'_>| t.palette.map(|p| (p.format, p.entries, p.offset));
        data(self).is_some()
            && data(self) == data(other)
            && self.format == other.format
            && self.width == other.width
            && self.height == other.height
            && self.levels() == other.levels()
            && palette(self) == palette(other)
    }

    /// Checks that every visible texel of every level names an entry the
    /// palette has, so decoding cannot fail later (`measure` calls this).
    /// Nothing to do for direct formats, or when the palette holds every
    /// index the format can express.
    pub fn check_palette_indices(&self) -> Result<(), TextureCheckError> {
        let (Some(palette), Some((data, _))) = (self.palette, self.data) else {
            return Ok(());
        };
        let (bits, range) = match self.format {
            GxFormat::C4 => (4, 16),
            GxFormat::C8 => (8, 256),
            GxFormat::C14X2 => (16, 16_384),
            _ => return Ok(()),
        };
        let entries = usize::from(palette.entries);
        if entries >= range {
            return Ok(());
        }
        for level in self.mip_levels() {
            let bytes = data
                .get(level.offset..)
                .and_then(|d| d.get(..level.size))
                .ok_or(TextureCheckError::DataTooShort)?;
            scan_indices(self.format, bits, level.width, level.height, bytes, entries)?;
        }
        Ok(())
    }
}

/// Why a texture's data cannot be decoded as declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureCheckError {
    /// A level's bytes are not all there.
    DataTooShort,
    /// A visible texel names palette entry `index` of `entries`.
    PaletteIndex {
        /// The index found.
        index: usize,
        /// Entries the palette has.
        entries: usize,
    },
}

impl core::fmt::Display for TextureCheckError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::DataTooShort => f.write_str("a mip level's data is cut short"),
            Self::PaletteIndex { index, entries } => write!(
                f,
                "a texel names palette entry {index}, but the palette has {entries}"
            ),
        }
    }
}

/// Scans one level's palette indices in GX block order.
fn scan_indices(
    format: GxFormat,
    bits: usize,
    width: u32,
    height: u32,
    data: &[u8],
    entries: usize,
) -> Result<(), TextureCheckError> {
    let (bw, bh) = (
        format.block_width() as usize,
        format.block_height() as usize,
    );
    let (w, h) = (width as usize, height as usize);
    let blocks_x = w.div_ceil(bw);
    for (b, block) in data.chunks_exact(format.block_bytes()).enumerate() {
        let (x0, y0) = ((b % blocks_x.max(1)) * bw, (b / blocks_x.max(1)) * bh);
        for t in 0..bw * bh {
            let (x, y) = (x0 + t % bw, y0 + t / bw);
            if x >= w || y >= h {
                continue; // block padding outside the image is never shown
            }
            let index = match bits {
                4 => {
                    let byte = block.get(t / 2).copied().unwrap_or(0);
                    usize::from(if t % 2 == 0 { byte >> 4 } else { byte & 0xF })
                }
                8 => usize::from(block.get(t).copied().unwrap_or(0)),
                _ => {
                    let hi = block.get(2 * t).copied().unwrap_or(0);
                    let lo = block.get(2 * t + 1).copied().unwrap_or(0);
                    usize::from(u16::from_be_bytes([hi, lo]) & 0x3FFF)
                }
            };
            if index >= entries {
                return Err(TextureCheckError::PaletteIndex { index, entries });
            }
        }
    }
    Ok(())
}

/// A parsed TEX1 header.
#[derive(Clone, Copy, Debug)]
pub struct Tex1<'a> {
    reader: SectionReader<'a>,
    count: usize,
    headers: usize,
    names: NameTable<'a>,
}

impl<'a> Tex1<'a> {
    /// Reads a TEX1 section ([`J3dFile::section`](super::J3dFile::section)):
    /// its header and name table. Each texture is checked by [`Tex1::texture`].
    pub fn new(section: super::Section<'a>) -> Result<Self, Error> {
        Self::parse(SectionReader::new(section))
    }

    pub(crate) fn parse(reader: SectionReader<'a>) -> Result<Self, Error> {
        let count = usize::from(reader.u16(0x08)?);
        let headers = reader.offset(0x0C)?;
        if count > 0 {
            reader.table(headers, count, HEADER_SIZE)?;
        }
        let names = if count == 0 {
            None
        } else {
            Some(NameTable::new(reader, reader.offset(0x10)?)?)
        };
        let names = match names {
            Some(n) if n.len() < count => {
                return Err(reader.error(
                    ErrorCode::BadValue,
                    0x10,
                    format_args!("{count} textures but {} names", n.len()),
                ));
            }
            Some(n) => n,
            // No texture asks for a name; an empty table reads as such.
            None => NameTable::empty(reader),
        };
        Ok(Self {
            reader,
            count,
            headers,
            names,
        })
    }

    /// Textures (BTI headers) in the section.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The place in the file of a section-relative offset of TEX1.
    pub(crate) fn location(&self, offset: usize) -> Location {
        Location::Binary {
            offset: self.reader.file_offset(offset) as u64,
            section: Some(SectionId(*b"TEX1")),
        }
    }

    /// Where texture `i`'s image data starts (from the section's start), or
    /// `None` for a data offset of 0; read without checking the rest of the
    /// header, to compare headers cheaply.
    pub(crate) fn data_offset(&self, i: usize) -> Result<Option<usize>, Error> {
        let at = self.headers + i * HEADER_SIZE;
        let offset = self.reader.offset(at + 0x1C)?;
        Ok((offset != 0).then(|| at.saturating_add(offset)))
    }

    /// An error at a section-relative offset of TEX1.
    pub(crate) fn error(
        &self,
        code: ErrorCode,
        offset: usize,
        args: core::fmt::Arguments<'_>,
    ) -> Error {
        self.reader.error(code, offset, args)
    }

    /// Texture `i`: its header's values checked (format, wrap, filter and
    /// palette codes; non-zero size) and its palette and every level's data
    /// located inside the section. Nothing is decoded.
    pub fn texture(&self, i: usize) -> Result<Texture<'a>, Error> {
        if i >= self.count {
            return Err(self.reader.error(
                ErrorCode::BadOffset,
                0x08,
                format_args!("texture {i} asked of {}", self.count),
            ));
        }
        let at = self.headers + i * HEADER_SIZE;
        let h: &BtiHeader = self.reader.record(at)?;
        let bad = |field: usize, what: &str, value: u32| {
            self.reader.error(
                ErrorCode::BadValue,
                at + field,
                format_args!("texture {i}: {what} {value} is not a GX value"),
            )
        };
        let format =
            GxFormat::from_code(h.format).ok_or_else(|| bad(0x00, "format", h.format.into()))?;
        let (width, height) = (u32::from(h.width.get()), u32::from(h.height.get()));
        if width == 0 || height == 0 {
            return Err(self.reader.error(
                ErrorCode::BadValue,
                at + 0x02,
                format_args!("texture {i} is {width}x{height}: a side of 0 texels"),
            ));
        }
        let wrap_s =
            GxWrap::from_code(h.wrap_s).ok_or_else(|| bad(0x06, "wrap S", h.wrap_s.into()))?;
        let wrap_t =
            GxWrap::from_code(h.wrap_t).ok_or_else(|| bad(0x07, "wrap T", h.wrap_t.into()))?;
        let min_filter = GxFilter::from_code(h.min_filter)
            .ok_or_else(|| bad(0x14, "min filter", h.min_filter.into()))?;
        let mag_filter = GxFilter::from_code(h.mag_filter)
            .ok_or_else(|| bad(0x15, "mag filter", h.mag_filter.into()))?;
        let palette = if format.is_paletted() {
            let pf = PaletteFormat::from_code(h.palette_format)
                .ok_or_else(|| bad(0x09, "palette format", h.palette_format.into()))?;
            let entries = h.palette_entries.get();
            let offset = at
                .checked_add(h.palette_offset.get() as usize)
                .ok_or_else(|| bad(0x0C, "palette offset", h.palette_offset.get()))?;
            let bytes = self.reader.slice(offset, usize::from(entries) * 2)?;
            Some(Palette {
                format: pf,
                entries,
                bytes,
                offset,
            })
        } else {
            None
        };
        let mut texture = Texture {
            index: i,
            name: self.names.get(i)?,
            header_offset: at,
            format,
            width,
            height,
            wrap_s,
            wrap_t,
            min_filter,
            mag_filter,
            max_anisotropy: h.max_anisotropy,
            min_lod: f32::from(h.min_lod) / 8.0,
            max_lod: f32::from(h.max_lod) / 8.0,
            lod_bias: f32::from(h.lod_bias.get()) / 100.0,
            stored_mip_count: h.mip_count,
            palette,
            data: None,
        };
        let data_offset = h.data_offset.get() as usize;
        if data_offset != 0 {
            let offset = at
                .checked_add(data_offset)
                .ok_or_else(|| bad(0x1C, "data offset", h.data_offset.get()))?;
            let size =
                mip_chain_size(format, width, height, texture.levels()).ok_or_else(|| {
                    self.reader.error(
                        ErrorCode::TextureTooLarge,
                        at,
                        format_args!("texture {i}: its mip chain's size overflows"),
                    )
                })?;
            texture.data = Some((self.reader.slice(offset, size)?, offset));
        }
        Ok(texture)
    }
}
