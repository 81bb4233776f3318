//! CMPR: GX's DXT1 variant. An 8x8 macroblock holds four 4x4 sub-blocks
//! (top-left, top-right, bottom-left, bottom-right) of 8 bytes each: two
//! big-endian RGB565 colours, then one byte of 2-bit indices per row, most
//! significant bits first.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "texel arithmetic on u8/u16 channel values with constant factors, and coordinates below the texture's side, whose sizes were checked with checked_mul first"
)]

use super::color::rgb565;
use super::tiles::{Texel, Tile, sse2_block_decoder};

/// `(a * wa + b * wb) >> 3` for weights summing to 8, per 8-bit channel.
#[inline(always)]
fn blend(a: u8, b: u8, wa: u16, wb: u16) -> u8 {
    ((u16::from(a) * wa + u16::from(b) * wb) >> 3).to_le_bytes()[0]
}

/// The four colours of one sub-block.
#[inline(always)]
fn colours(c0: u16, c1: u16) -> [Texel; 4] {
    let a = rgb565(c0);
    let b = rgb565(c1);
    let [ar, ag, ab, _] = a;
    let [br, bg, bb, _] = b;
    if c0 > c1 {
        [
            a,
            b,
            [
                blend(ar, br, 5, 3),
                blend(ag, bg, 5, 3),
                blend(ab, bb, 5, 3),
                0xFF,
            ],
            [
                blend(ar, br, 3, 5),
                blend(ag, bg, 3, 5),
                blend(ab, bb, 3, 5),
                0xFF,
            ],
        ]
    } else {
        let mid = [
            blend(ar, br, 4, 4),
            blend(ag, bg, 4, 4),
            blend(ab, bb, 4, 4),
        ];
        let [mr, mg, mb] = mid;
        [a, b, [mr, mg, mb, 0xFF], [mr, mg, mb, 0]]
    }
}

/// Decodes one 8-byte sub-block into four rows of four texels.
#[inline(always)]
fn sub_block(src: &[u8; 8]) -> [[Texel; 4]; 4] {
    let [c0h, c0l, c1h, c1l, i0, i1, i2, i3] = *src;
    let pal = colours(
        u16::from_be_bytes([c0h, c0l]),
        u16::from_be_bytes([c1h, c1l]),
    );
    // A 2-bit index into 4 entries: the fallback is dead code, and the
    // lookup compiles to a branch-free load.
    let pick = |i: u8| pal.get(usize::from(i & 3)).copied().unwrap_or_default();
    [i0, i1, i2, i3].map(|bits| {
        [
            pick(bits >> 6),
            pick(bits >> 4),
            pick(bits >> 2),
            pick(bits),
        ]
    })
}

/// Two 4-texel half rows side by side.
#[inline(always)]
fn join(left: [Texel; 4], right: [Texel; 4]) -> [Texel; 8] {
    let [a, b, c, d] = left;
    let [e, f, g, h] = right;
    [a, b, c, d, e, f, g, h]
}

/// One macroblock into a tile of row stride 8, texel by texel.
#[inline(always)]
pub(super) fn macroblock(src: &[u8], tile: &mut Tile) {
    let (subs, _) = src.as_chunks::<8>();
    let (rows, _) = tile.as_chunks_mut::<8>();
    if let ([tl, tr, bl, br], [r0, r1, r2, r3, r4, r5, r6, r7]) = (subs, rows) {
        let [t0, t1, t2, t3] = sub_block(tl);
        let [u0, u1, u2, u3] = sub_block(tr);
        let [b0, b1, b2, b3] = sub_block(bl);
        let [v0, v1, v2, v3] = sub_block(br);
        *r0 = join(t0, u0);
        *r1 = join(t1, u1);
        *r2 = join(t2, u2);
        *r3 = join(t3, u3);
        *r4 = join(b0, v0);
        *r5 = join(b1, v1);
        *r6 = join(b2, v2);
        *r7 = join(b3, v3);
    }
}

/// CMPR macroblocks: 8x8 texels in 32 bytes.
pub(super) struct Cmpr;

sse2_block_decoder!(Cmpr, 8 x 8, 32, cmpr, macroblock, strips: eight_rows cmpr_strip);
