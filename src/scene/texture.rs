//! Textures: RGBA8 pixels of every mip level, sampling state, frame strips.

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

use super::TextRef;

/// How UVs outside 0..1 read the texture, per axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Wrap {
    /// The edge texel (GX CLAMP; Blockbench limited and clamp).
    Clamp = 0,
    /// The texture repeats (GX REPEAT; Blockbench repeat).
    Repeat = 1,
    /// The texture repeats mirrored every other time (GX MIRROR).
    Mirror = 2,
}

/// How a texture is magnified or minified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Filter {
    /// Nearest texel (Blockbench always).
    Nearest = 0,
    /// Bilinear.
    Linear = 1,
}

/// How a frame strip plays (Blockbench frame_order_type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum FrameOrder {
    /// 0, 1, …, n − 1, 0, …
    Loop = 0,
    /// n − 1, …, 0, n − 1, …
    Backwards = 1,
    /// 0 … n − 1 … 1, over 2n − 2 steps.
    BackAndForth = 2,
    /// An explicit list of frames (`TextureRecord::first_frame_step`).
    Custom = 3,
}

/// A texture, as stored in the arena. Pixels are RGBA8, row-major, top row
/// first, straight (not premultiplied) alpha, colour values as stored (sRGB).
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct TextureRecord {
    /// The texture's name.
    pub name: TextRef,
    /// Width of mip level 0, in texels (the whole image for a strip).
    pub width: u32,
    /// Height of mip level 0, in texels.
    pub height: u32,
    /// [`TextureFlags`] bits.
    pub flags: u32,
    /// The source pixel format (PNG, or a GX format code).
    pub source_format: u32,
    /// First mip level in the scene's mip array.
    pub first_mip: u32,
    /// Mip levels decoded (0 when the texture is missing or not decoded).
    pub mip_count: u32,
    /// [`Wrap`] on U (S).
    pub wrap_u: u8,
    /// [`Wrap`] on V (T).
    pub wrap_v: u8,
    /// [`Filter`] when minifying.
    pub min_filter: u8,
    /// [`Filter`] when magnifying.
    pub mag_filter: u8,
    /// Width of the texture's UV space, in UV units (Blockbench uv_width; else the width).
    pub uv_width: f32,
    /// Height of the texture's UV space.
    pub uv_height: f32,
    /// Frames in a vertical strip (1 for a still image).
    pub frame_count: u32,
    /// Seconds each frame shows.
    pub frame_time: f32,
    /// [`FrameOrder`] as its `u8` value.
    pub frame_order: u8,
    /// 1 when frames blend into the next (frame_interpolate).
    pub frame_interpolate: u8,
    /// Padding; always 0.
    pub reserved: [u8; 2],
    /// First step of a custom order in the scene's frame step array.
    pub first_frame_step: u32,
    /// Steps of a custom order.
    pub frame_step_count: u32,
}

/// Bits of [`TextureRecord::flags`].
pub struct TextureFlags;

impl TextureFlags {
    /// No pixels could be had (no embedded image, no matching picked file).
    pub const MISSING: u32 = 1;
    /// The file has the pixels, but the decode was asked to leave texels
    /// out (J3D `Options::skip_texels`): `mip_count` is 0.
    pub const TEXELS_LEFT_OUT: u32 = 2;
}

/// Source pixel formats recorded in [`TextureRecord::source_format`].
pub struct SourceFormat;

impl SourceFormat {
    /// A PNG image (Blockbench).
    pub const PNG: u32 = 0x100;
    /// GX formats keep their hardware code (I4 = 0x0 … CMPR = 0xE).
    pub const GX_BASE: u32 = 0;
}

/// One decoded mip level.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable,
)]
#[repr(C)]
pub struct MipRecord {
    /// Byte offset of the level in the scene's pixel array.
    pub offset: u32,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
}

impl TextureRecord {
    /// The wrap on U.
    pub fn wrap_u(&self) -> Wrap {
        wrap(self.wrap_u)
    }

    /// The wrap on V.
    pub fn wrap_v(&self) -> Wrap {
        wrap(self.wrap_v)
    }

    /// True when the texture's pixels are missing.
    pub const fn missing(&self) -> bool {
        self.flags & TextureFlags::MISSING != 0
    }
}

fn wrap(v: u8) -> Wrap {
    match v {
        1 => Wrap::Repeat,
        2 => Wrap::Mirror,
        _ => Wrap::Clamp,
    }
}
