//! Intensity formats: I4, I8, IA4, IA8.

use super::TextureError;
use super::color::{expand4, ia8};
use super::tiles::{BlockDecoder, Tile};

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
        for (pair, &b) in tile.chunks_exact_mut(2).zip(src) {
            if let [left, right] = pair {
                let hi = expand4(u16::from(b >> 4));
                let lo = expand4(u16::from(b));
                *left = [hi; 4];
                *right = [lo; 4];
            }
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
        for (texel, &i) in tile.iter_mut().zip(src) {
            *texel = [i; 4];
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
        for (texel, &b) in tile.iter_mut().zip(src) {
            let a = expand4(u16::from(b >> 4));
            let i = expand4(u16::from(b));
            *texel = [i, i, i, a];
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
        for (texel, pair) in tile.iter_mut().zip(src.chunks_exact(2)) {
            if let &[a, i] = pair {
                *texel = ia8(u16::from_be_bytes([a, i]));
            }
        }
        Ok(())
    }
}
