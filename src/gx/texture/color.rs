//! Direct colour formats (RGB565, RGB5A3, RGBA8) and the bit-replication
//! helpers every format uses.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "texel arithmetic on u8/u16 channel values with constant factors, and coordinates below the texture's side, whose sizes were checked with checked_mul first"
)]

use super::tiles::{Texel, Tile, sse2_block_decoder};

/// Low byte of `v` (callers pass values below 256).
#[inline(always)]
const fn low_byte(v: u16) -> u8 {
    v.to_le_bytes()[0]
}

/// Expands a 3-bit channel (low 3 bits of `v`) to 8 bits by bit replication.
#[inline(always)]
pub(super) const fn expand3(v: u16) -> u8 {
    let v = v & 0x7;
    low_byte((v << 5) | (v << 2) | (v >> 1))
}

/// Expands a 4-bit channel (low 4 bits of `v`) to 8 bits: `v * 0x11`.
#[inline(always)]
pub(super) const fn expand4(v: u16) -> u8 {
    low_byte((v & 0xF) * 0x11)
}

/// Expands a 5-bit channel (low 5 bits of `v`) to 8 bits by bit replication.
#[inline(always)]
pub(super) const fn expand5(v: u16) -> u8 {
    let v = v & 0x1F;
    low_byte((v << 3) | (v >> 2))
}

/// Expands a 6-bit channel (low 6 bits of `v`) to 8 bits by bit replication.
#[inline(always)]
pub(super) const fn expand6(v: u16) -> u8 {
    let v = v & 0x3F;
    low_byte((v << 2) | (v >> 4))
}

/// An opaque RGB565 colour as RGBA8.
#[inline(always)]
pub(super) const fn rgb565(p: u16) -> Texel {
    [expand5(p >> 11), expand6(p >> 5), expand5(p), 0xFF]
}

/// An RGB5A3 colour as RGBA8: RGB555 with alpha 255 when bit 15 is set,
/// otherwise A3RGB4. Branch-free (both decodings, then a mask select), since
/// the mode bit varies per texel and mispredicts would dominate.
#[inline(always)]
pub(super) const fn rgb5a3(p: u16) -> Texel {
    let opaque = u32::from_le_bytes([expand5(p >> 10), expand5(p >> 5), expand5(p), 0xFF]);
    let translucent = u32::from_le_bytes([
        expand4(p >> 8),
        expand4(p >> 4),
        expand4(p),
        expand3(p >> 12),
    ]);
    let mask = 0u32.wrapping_sub((p >> 15) as u32);
    ((opaque & mask) | (translucent & !mask)).to_le_bytes()
}

/// The colour of every high byte (`b << 8`) or low byte (`b`, with `with`'s
/// bits set: RGB5A3's mode bit) of an RGB5A3 colour, packed little-endian.
#[allow(
    clippy::indexing_slicing,
    reason = "const evaluation: b < 256 is the table's length, and an out-of-range index would fail the build"
)]
const fn rgb5a3_byte_table(shift: u32, with: u16) -> [u32; 256] {
    let mut table = [0; 256];
    let mut b = 0u16;
    while b < 256 {
        table[b as usize] = u32::from_le_bytes(rgb5a3((b << shift) | with));
        b += 1;
    }
    table
}

// Every RGB5A3 channel takes its bits from one byte, or (the green that
// straddles the bytes in RGB555) expands to disjoint bits from each, so a
// colour is the OR of a value for its high byte and one for its low byte,
// the mode bit (in the high byte) choosing the low byte's table. A test
// checks the identity on every 16-bit value.
static RGB5A3_HIGH: [u32; 256] = rgb5a3_byte_table(8, 0);
static RGB5A3_LOW: [[u32; 256]; 2] = [rgb5a3_byte_table(0, 0), rgb5a3_byte_table(0, 0x8000)];

/// [`rgb5a3`] by two table reads instead of about thirty operations.
#[inline(always)]
pub(super) fn rgb5a3_lookup(p: u16) -> Texel {
    let [high, low] = p.to_be_bytes();
    let h = RGB5A3_HIGH.get(usize::from(high)).copied().unwrap_or(0);
    let l = RGB5A3_LOW
        .get(usize::from(high >> 7))
        .and_then(|t| t.get(usize::from(low)))
        .copied()
        .unwrap_or(0);
    (h | l).to_le_bytes()
}

/// An IA8 value (alpha in the high byte) as RGBA8 grey.
#[inline(always)]
pub(super) const fn ia8(p: u16) -> Texel {
    let [a, i] = p.to_be_bytes();
    [i, i, i, a]
}

/// The 16-bit colour formats' scalar loop: 4x4 texels of one big-endian
/// u16 each, turned into RGBA8 by the format's function (`rgb565`,
/// `rgb5a3_lookup`), inlined per format.
#[inline(always)]
fn u16_texels(src: &[u8], tile: &mut Tile, texel: impl Fn(u16) -> Texel) {
    for (out, pair) in tile.iter_mut().zip(src.chunks_exact(2)) {
        if let &[hi, lo] = pair {
            *out = texel(u16::from_be_bytes([hi, lo]));
        }
    }
}

/// Defines a 4x4 block format of 32 bytes decoded by `sse2::$simd` (a
/// block), `sse2::$strip` (a strip's four rows) and `sse2::$rows` (one row
/// of a shorter strip) on x86-64, and by `u16_texels` with `$scalar`
/// elsewhere.
macro_rules! u16_format {
    ($(#[$doc:meta])* $name:ident, $scalar:path, $simd:ident, $rows:ident, $strip:ident) => {
        $(#[$doc])*
        pub(super) struct $name;

        impl $name {
            #[inline(always)]
            fn scalar_block(src: &[u8], tile: &mut Tile) {
                u16_texels(src, tile, $scalar);
            }
        }

        sse2_block_decoder!($name, 4 x 4, 32, $simd, $name::scalar_block, strips: $rows, $strip);
    };
}

u16_format!(
    /// RGB565: 4x4 texels, big-endian `rrrrrggggggbbbbb`.
    Rgb565,
    rgb565,
    rgb565,
    rgb565_rows,
    rgb565_strip
);
u16_format!(
    /// RGB5A3: 4x4 texels, big-endian, RGB555 or A3RGB4 by bit 15.
    Rgb5a3,
    rgb5a3_lookup,
    rgb5a3,
    rgb5a3_rows,
    rgb5a3_strip
);

/// RGBA8: 4x4 texels as 16 AR byte pairs, then 16 GB byte pairs.
pub(super) struct Rgba8;

sse2_block_decoder!(Rgba8, 4 x 4, 64, rgba8, rgba8_block, strips: rgba8_rows, rgba8_strip);

#[inline(always)]
fn rgba8_block(src: &[u8], tile: &mut Tile) {
    let (ar, gb) = src.split_at(src.len() / 2);
    for ((texel, ar), gb) in tile
        .iter_mut()
        .zip(ar.chunks_exact(2))
        .zip(gb.chunks_exact(2))
    {
        if let (&[a, r], &[g, b]) = (ar, gb) {
            *texel = [r, g, b, a];
        }
    }
}
