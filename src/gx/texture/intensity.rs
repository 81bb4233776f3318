//! Intensity formats: I4, I8, IA4, IA8.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "texel arithmetic on u8/u16 channel values with constant factors, and coordinates below the texture's side, whose sizes were checked with checked_mul first"
)]

use super::color::ia8;
use super::tiles::{Tile, sse2_block_decoder};

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

sse2_block_decoder!(I4, 8 x 8, 32, i4, i4_block);

/// I4's scalar block: fixed trip counts and whole-texel arithmetic, so the
/// loop vectorises.
#[inline(always)]
fn i4_block(src: &[u8], tile: &mut Tile) {
    let (pairs, _) = tile.as_chunks_mut::<2>();
    for (pair, &b) in pairs.iter_mut().zip(&block::<32>(src)) {
        *pair = [grey(u32::from(b >> 4)), grey(u32::from(b & 0xF))].map(|g| g.to_le_bytes());
    }
}

/// I8: 8x4 texels, one byte each; alpha = intensity.
pub(super) struct I8;

sse2_block_decoder!(I8, 8 x 4, 32, i8, i8_block);

#[inline(always)]
fn i8_block(src: &[u8], tile: &mut Tile) {
    for (texel, &i) in tile.iter_mut().zip(&block::<32>(src)) {
        *texel = (u32::from(i) * 0x0101_0101).to_le_bytes();
    }
}

/// IA4: 8x4 texels, one byte each, alpha in the high nibble.
pub(super) struct Ia4;

sse2_block_decoder!(Ia4, 8 x 4, 32, ia4, ia4_block);

#[inline(always)]
fn ia4_block(src: &[u8], tile: &mut Tile) {
    for (texel, &b) in tile.iter_mut().zip(&block::<32>(src)) {
        let i = u32::from(b & 0xF) * 0x0011_1111;
        let a = u32::from(b >> 4) * 0x1100_0000;
        *texel = (i | a).to_le_bytes();
    }
}

/// IA8: 4x4 texels, two bytes each, alpha byte first.
pub(super) struct Ia8;

sse2_block_decoder!(Ia8, 4 x 4, 32, ia8, ia8_block, strips: ia8_rows, ia8_strip);

#[inline(always)]
fn ia8_block(src: &[u8], tile: &mut Tile) {
    for (texel, pair) in tile.iter_mut().zip(src.chunks_exact(2)) {
        if let &[a, i] = pair {
            *texel = ia8(u16::from_be_bytes([a, i]));
        }
    }
}
