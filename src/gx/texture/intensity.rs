//! Intensity formats: I4, I8, IA4, IA8.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "texel arithmetic on u8/u16 channel values with constant factors, and coordinates below the texture's side, whose sizes were checked with checked_mul first"
)]

use super::TextureError;
use super::color::ia8;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use super::color::sse2_block;
use super::tiles::{BlockDecoder, Tile};

/// A block's encoded bytes as an array, so that its loop has a constant
/// trip count (the caller hands over exactly `B` bytes; anything else reads
/// as zeros).
#[inline(always)]
fn block<const B: usize>(src: &[u8]) -> [u8; B] {
    src.first_chunk::<B>().copied().unwrap_or([0; B])
}

/// A 4-bit intensity as an RGBA8 grey whose alpha is the intensity too
/// (`v * 0x11` in every channel).
#[inline(always)]
const fn grey(v: u32) -> u32 {
    (v & 0xF) * 0x1111_1111
}

/// I4: 8x8 texels, two per byte, high nibble first; alpha = intensity.
pub(super) struct I4;

impl BlockDecoder for I4 {
    const WIDTH: usize = 8;
    const HEIGHT: usize = 8;
    const BYTES: usize = 32;

    #[inline(always)]
    fn decode_block(
        &self,
        src: &[u8],
        tile: &mut Tile,
        _: usize,
        _: usize,
    ) -> Result<(), TextureError> {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        if sse2_block(src, tile, super::sse2::i4) {
            return Ok(());
        }
        // Fixed trip counts and whole-texel arithmetic: the loop vectorises.
        let (pairs, _) = tile.as_chunks_mut::<2>();
        for (pair, &b) in pairs.iter_mut().zip(&block::<32>(src)) {
            *pair = [grey(u32::from(b >> 4)), grey(u32::from(b & 0xF))].map(|g| g.to_le_bytes());
        }
        Ok(())
    }
}

/// I8: 8x4 texels, one byte each; alpha = intensity.
pub(super) struct I8;

impl BlockDecoder for I8 {
    const WIDTH: usize = 8;
    const HEIGHT: usize = 4;
    const BYTES: usize = 32;

    #[inline(always)]
    fn decode_block(
        &self,
        src: &[u8],
        tile: &mut Tile,
        _: usize,
        _: usize,
    ) -> Result<(), TextureError> {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        if sse2_block(src, tile, super::sse2::i8) {
            return Ok(());
        }
        for (texel, &i) in tile.iter_mut().zip(&block::<32>(src)) {
            *texel = (u32::from(i) * 0x0101_0101).to_le_bytes();
        }
        Ok(())
    }
}

/// IA4: 8x4 texels, one byte each, alpha in the high nibble.
pub(super) struct Ia4;

impl BlockDecoder for Ia4 {
    const WIDTH: usize = 8;
    const HEIGHT: usize = 4;
    const BYTES: usize = 32;

    #[inline(always)]
    fn decode_block(
        &self,
        src: &[u8],
        tile: &mut Tile,
        _: usize,
        _: usize,
    ) -> Result<(), TextureError> {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        if sse2_block(src, tile, super::sse2::ia4) {
            return Ok(());
        }
        for (texel, &b) in tile.iter_mut().zip(&block::<32>(src)) {
            let i = u32::from(b & 0xF) * 0x0011_1111;
            let a = u32::from(b >> 4) * 0x1100_0000;
            *texel = (i | a).to_le_bytes();
        }
        Ok(())
    }
}

/// IA8: 4x4 texels, two bytes each, alpha byte first.
pub(super) struct Ia8;

impl BlockDecoder for Ia8 {
    const WIDTH: usize = 4;
    const HEIGHT: usize = 4;
    const BYTES: usize = 32;

    #[inline(always)]
    fn decode_block(
        &self,
        src: &[u8],
        tile: &mut Tile,
        _: usize,
        _: usize,
    ) -> Result<(), TextureError> {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        if sse2_block(src, tile, super::sse2::ia8) {
            return Ok(());
        }
        for (texel, pair) in tile.iter_mut().zip(src.chunks_exact(2)) {
            if let &[a, i] = pair {
                *texel = ia8(u16::from_be_bytes([a, i]));
            }
        }
        Ok(())
    }

    super::tiles::sse2_strip_methods!(ia8_rows, ia8_strip);
}
