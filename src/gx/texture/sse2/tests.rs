//! Each SSE2 decoder against its format's scalar rule, on blocks that
//! together hold every byte value (and, for the 16-bit formats, every
//! u16) in every position class.
extern crate std;
use std::vec;
use std::vec::Vec;

use super::super::color::{ia8 as ia8_texel, rgb5a3 as rgb5a3_texel, rgb565 as rgb565_texel};

/// Block `k` of a sweep: bytes `k * B + j` (mod 256), then mixed.
fn block<const B: usize>(k: usize) -> [u8; B] {
    core::array::from_fn(|j| {
        ((k * B + j) as u32)
            .wrapping_mul(2_654_435_761)
            .to_le_bytes()[k % 4]
            ^ (k + j) as u8
    })
}

fn u16_blocks() -> impl Iterator<Item = [u8; 32]> {
    // Every u16 once, sixteen per block.
    (0..4096u32).map(|k| {
        let mut b = [0u8; 32];
        for (t, pair) in b.chunks_exact_mut(2).enumerate() {
            pair.copy_from_slice(&((k * 16 + t as u32) as u16).to_be_bytes());
        }
        b
    })
}

/// Each block through `decode` equals `rule`'s bytes for it.
fn matches_rule<const B: usize, const O: usize>(
    blocks: impl IntoIterator<Item = [u8; B]>,
    decode: fn(&[u8; B], &mut [u8; O]),
    rule: impl Fn(&[u8; B]) -> Vec<u8>,
) {
    for src in blocks {
        let mut out = [0; O];
        decode(&src, &mut out);
        assert_eq!(out.as_slice(), rule(&src).as_slice(), "{src:02x?}");
    }
}

#[test]
fn i8_repeats_the_intensity_into_every_channel() {
    matches_rule((0..64).map(block::<32>), super::i8, |src| {
        src.iter().flat_map(|&i| [i; 4]).collect()
    });
}

#[test]
fn i4_takes_the_high_nibble_first_times_0x11() {
    matches_rule((0..64).map(block::<32>), super::i4, |src| {
        src.iter()
            .flat_map(|&b| [b >> 4, b & 0xF])
            .flat_map(|n| [n * 0x11; 4])
            .collect()
    });
}

#[test]
fn ia4_is_intensity_low_alpha_high() {
    matches_rule((0..64).map(block::<32>), super::ia4, |src| {
        src.iter()
            .flat_map(|&b| {
                let i = (b & 0xF) * 0x11;
                [i, i, i, (b >> 4) * 0x11]
            })
            .collect()
    });
}

/// Every u16 through a 16-bit format's block decoder equals its texel rule.
fn same_as_scalar(simd: fn(&[u8; 32], &mut [u8; 64]), scalar: fn(u16) -> [u8; 4]) {
    matches_rule(u16_blocks(), simd, |src| {
        src.chunks_exact(2)
            .flat_map(|p| scalar(u16::from_be_bytes([p[0], p[1]])))
            .collect()
    });
}

#[test]
fn ia8_rgb565_and_rgb5a3_equal_their_scalar_rules_on_every_u16() {
    same_as_scalar(super::ia8, ia8_texel);
    same_as_scalar(super::rgb565, rgb565_texel);
    same_as_scalar(super::rgb5a3, rgb5a3_texel);
}

#[test]
fn cmpr_equals_the_texel_by_texel_decoder() {
    // Random blocks, then every ordering of c0 and c1 (equal, above,
    // below) with all index patterns.
    let mut blocks: Vec<[u8; 32]> = (0..20_000).map(block::<32>).collect();
    for (c0, c1) in [
        (0x1234u16, 0x1234u16),
        (0xFFFF, 0),
        (0, 0xFFFF),
        (0x8000, 0x7FFF),
    ] {
        for i in 0..=255u8 {
            let mut b = [0u8; 32];
            for sub in b.chunks_exact_mut(8) {
                sub[..2].copy_from_slice(&c0.to_be_bytes());
                sub[2..4].copy_from_slice(&c1.to_be_bytes());
                sub[4..].copy_from_slice(&[i, i.rotate_left(2), i.rotate_left(4), !i]);
            }
            blocks.push(b);
        }
    }
    for src in blocks {
        let mut out = [0; 256];
        super::cmpr(&src, &mut out);
        let mut tile = [[0u8; 4]; super::super::tiles::TILE_TEXELS];
        super::super::cmpr::macroblock(&src, &mut tile);
        assert_eq!(out.as_slice(), tile.as_flattened(), "{src:02x?}");
    }
}

#[test]
fn cmpr_strip_equals_the_tile_decoder() {
    // Runs of one to nine macroblocks, each row of the strip the tiles'
    // rows side by side; bytes past the run stay untouched.
    for n in 1..=9 {
        let blocks: Vec<[u8; 32]> = (0..n).map(|k| block::<32>(k * 5 + n)).collect();
        let mut want: [Vec<u8>; 8] = Default::default();
        for src in &blocks {
            let mut tile = [0u8; 256];
            super::cmpr(src, &mut tile);
            for (row, piece) in want.iter_mut().zip(tile.chunks_exact(32)) {
                row.extend_from_slice(piece);
            }
        }
        for row in &mut want {
            row.extend_from_slice(&[0xEE; 7]);
        }
        let mut got: [Vec<u8>; 8] = core::array::from_fn(|_| vec![0xEE; n * 32 + 7]);
        {
            let mut slices = got.each_mut().map(Vec::as_mut_slice);
            let [a, b, c, d, e, f, g, h] = slices.each_mut();
            super::cmpr_strip(blocks.as_flattened(), [a, b, c, d, e, f, g, h]);
        }
        assert_eq!(got, want, "strip of {n}");
    }
}

/// Rows `0..4` of `n` 4x4 blocks as the block decoder writes them.
fn block_rows<const B: usize>(
    blocks: &[[u8; B]],
    decode: fn(&[u8; B], &mut [u8; 64]),
) -> [Vec<u8>; 4] {
    let mut rows: [Vec<u8>; 4] = Default::default();
    for src in blocks {
        let mut out = [0; 64];
        decode(src, &mut out);
        for (row, piece) in rows.iter_mut().zip(out.chunks_exact(16)) {
            row.extend_from_slice(piece);
        }
    }
    rows
}

/// One row function of a strip pass.
type RowFn = fn(&[u8], &mut [u8]);

/// The strip and row passes of one 4x4 format against its block
/// decoder, over runs of one to nine blocks: none, one and two whole
/// 64-byte lines of each row, each with every tail of one to three
/// blocks.
fn strip_and_rows_match<const B: usize>(
    decode: fn(&[u8; B], &mut [u8; 64]),
    strip: fn(&[u8], [&mut &mut [u8]; 4]),
    rows: [RowFn; 4],
) {
    for n in 1..=9 {
        let blocks: Vec<[u8; B]> = (0..n).map(|k| block::<B>(k * 7 + n)).collect();
        let src = blocks.as_flattened();
        let want = block_rows(&blocks, decode);
        let mut got: [Vec<u8>; 4] = core::array::from_fn(|_| vec![0xEE; n * 16]);
        {
            let [a, b, c, d] = &mut got;
            let (mut a, mut b, mut c, mut d) = (
                a.as_mut_slice(),
                b.as_mut_slice(),
                c.as_mut_slice(),
                d.as_mut_slice(),
            );
            strip(src, [&mut a, &mut b, &mut c, &mut d]);
        }
        assert_eq!(got, want, "strip of {n}");
        for (y, row) in rows.iter().enumerate() {
            let mut out = vec![0xEE; n * 16];
            row(src, &mut out);
            assert_eq!(out, want[y], "row {y} of {n}");
        }
    }
}

/// A format's four row functions, rows 0 to 3.
macro_rules! rows_of {
    ($f:ident) => {
        [
            super::$f::<0>,
            super::$f::<1>,
            super::$f::<2>,
            super::$f::<3>,
        ]
    };
}

#[test]
fn strips_and_rows_equal_the_block_decoders() {
    strip_and_rows_match::<32>(super::ia8, super::ia8_strip, rows_of!(ia8_rows));
    strip_and_rows_match::<32>(super::rgb565, super::rgb565_strip, rows_of!(rgb565_rows));
    strip_and_rows_match::<32>(super::rgb5a3, super::rgb5a3_strip, rows_of!(rgb5a3_rows));
    strip_and_rows_match::<64>(super::rgba8, super::rgba8_strip, rows_of!(rgba8_rows));
}

#[test]
fn rgba8_takes_ar_pairs_then_gb_pairs() {
    matches_rule((0..256).map(block::<64>), super::rgba8, |src| {
        (0..16)
            .flat_map(|t| {
                [
                    src[2 * t + 1],
                    src[32 + 2 * t],
                    src[32 + 2 * t + 1],
                    src[2 * t],
                ]
            })
            .collect()
    });
}
