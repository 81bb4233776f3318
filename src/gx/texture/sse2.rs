//! SSE2 block decoders for the formats whose texels come in block order:
//! sixteen bytes of RGBA8 (four texels) per store, computed in 8- or 16-bit
//! lanes through `safe_arch`'s safe wrappers. Each function is the exact
//! equivalent of its format's scalar loop (the tests compare them on every
//! value a lane can hold); the scalar loops remain the path on other
//! targets. IA8, RGB565, RGB5A3 and RGBA8 also have a strip pass (a strip's
//! blocks straight into its four rows) and a row pass (one row, for the
//! image's last strip when it is shorter), CMPR a strip pass into its
//! eight rows, and C4/C8 a row of palette lookups; the tests compare those
//! with the block decoders.
//!
//! The scalar loops either move bytes (IA8, RGBA8), which SSE2 cannot
//! shuffle within a register but can interleave (`unpack`), or compute each
//! texel as a `u32`, which LLVM vectorises only in part.

use safe_arch::{
    add_i16_m128i, bitand_m128i, bitandnot_m128i, bitor_m128i, bitxor_m128i, cmp_eq_mask_i32_m128i,
    cmp_gt_mask_i32_m128i, load_unaligned_m128i, m128i, mul_i16_keep_low_m128i,
    mul_u16_keep_high_m128i, set_i32_m128i, set_i64_m128i, set_splat_i16_m128i,
    set_splat_i32_m128i, shl_imm_u16_m128i, shl_imm_u32_m128i, shr_imm_i16_m128i,
    shr_imm_u16_m128i, shr_imm_u32_m128i, shuffle_ai_f32_all_m128i, store_unaligned_m128i,
    unpack_high_i8_m128i, unpack_high_i16_m128i, unpack_low_i8_m128i, unpack_low_i16_m128i,
    unpack_low_i64_m128i,
};

/// A 16-bit lane mask.
#[inline(always)]
fn splat16(v: u16) -> m128i {
    set_splat_i16_m128i(i16::from_ne_bytes(v.to_ne_bytes()))
}

/// `(v & mask)`, per 16-bit lane.
#[inline(always)]
fn and16(v: m128i, mask: u16) -> m128i {
    bitand_m128i(v, splat16(mask))
}

/// The sixteen-byte pieces of a block's input.
#[inline(always)]
fn loads<const B: usize, const N: usize>(src: &[u8; B]) -> [m128i; N] {
    let (chunks, _) = src.as_chunks::<16>();
    core::array::from_fn(|k| chunks.get(k).map_or(splat16(0), load_unaligned_m128i))
}

/// Stores four-texel vectors in order.
#[inline(always)]
fn stores<const B: usize>(out: &mut [u8; B], texels: impl IntoIterator<Item = m128i>) {
    let (chunks, _) = out.as_chunks_mut::<16>();
    for (chunk, v) in chunks.iter_mut().zip(texels) {
        store_unaligned_m128i(chunk, v);
    }
}

/// Each byte of `bytes` repeated into the four bytes of its texel, then the
/// four texel vectors (low bytes first).
#[inline(always)]
fn spread_bytes(bytes: m128i) -> [m128i; 4] {
    let lo = unpack_low_i8_m128i(bytes, bytes);
    let hi = unpack_high_i8_m128i(bytes, bytes);
    [
        unpack_low_i16_m128i(lo, lo),
        unpack_high_i16_m128i(lo, lo),
        unpack_low_i16_m128i(hi, hi),
        unpack_high_i16_m128i(hi, hi),
    ]
}

/// Texels `[rg0, ba0]`, … from 16-bit lanes holding `r | g << 8` and
/// `b | a << 8`: eight texels as two vectors.
#[inline(always)]
fn interleave_rg_ba(rg: m128i, ba: m128i) -> [m128i; 2] {
    [unpack_low_i16_m128i(rg, ba), unpack_high_i16_m128i(rg, ba)]
}

/// A 4-bit value (per 16-bit lane, or per byte when masked to nibbles)
/// times 0x11.
#[inline(always)]
fn times_0x11(v: m128i) -> m128i {
    bitor_m128i(v, shl_imm_u16_m128i::<4>(v))
}

/// I8: each intensity into all four channels.
#[inline(always)]
pub(super) fn i8(src: &[u8; 32], out: &mut [u8; 128]) {
    let [a, b] = loads::<32, 2>(src);
    let [t0, t1, t2, t3] = spread_bytes(a);
    let [t4, t5, t6, t7] = spread_bytes(b);
    stores(out, [t0, t1, t2, t3, t4, t5, t6, t7]);
}

/// I4: two texels a byte, the high nibble first, `v * 0x11` in every
/// channel.
#[inline(always)]
pub(super) fn i4(src: &[u8; 32], out: &mut [u8; 256]) {
    let (halves, _) = out.as_chunks_mut::<128>();
    for (v, half) in loads::<32, 2>(src).into_iter().zip(halves) {
        let high = and16(shr_imm_u16_m128i::<4>(v), 0x0F0F);
        let low = and16(v, 0x0F0F);
        let first = times_0x11(unpack_low_i8_m128i(high, low));
        let second = times_0x11(unpack_high_i8_m128i(high, low));
        let [t0, t1, t2, t3] = spread_bytes(first);
        let [t4, t5, t6, t7] = spread_bytes(second);
        stores(half, [t0, t1, t2, t3, t4, t5, t6, t7]);
    }
}

/// IA4: alpha in the high nibble, intensity in the low one.
#[inline(always)]
pub(super) fn ia4(src: &[u8; 32], out: &mut [u8; 128]) {
    let (halves, _) = out.as_chunks_mut::<64>();
    for (v, half) in loads::<32, 2>(src).into_iter().zip(halves) {
        let i = times_0x11(and16(v, 0x0F0F));
        let a = times_0x11(and16(shr_imm_u16_m128i::<4>(v), 0x0F0F));
        let ii_low = unpack_low_i8_m128i(i, i);
        let ia_low = unpack_low_i8_m128i(i, a);
        let ii_high = unpack_high_i8_m128i(i, i);
        let ia_high = unpack_high_i8_m128i(i, a);
        let [t0, t1] = [
            unpack_low_i16_m128i(ii_low, ia_low),
            unpack_high_i16_m128i(ii_low, ia_low),
        ];
        let [t2, t3] = [
            unpack_low_i16_m128i(ii_high, ia_high),
            unpack_high_i16_m128i(ii_high, ia_high),
        ];
        stores(half, [t0, t1, t2, t3]);
    }
}

/// IA8: eight texels' `a | i << 8` lanes (as loaded) to `[i, i, i, a]`.
#[inline(always)]
fn ia8_texels(v: m128i) -> [m128i; 2] {
    let i = shr_imm_u16_m128i::<8>(v);
    let ii = bitor_m128i(i, shl_imm_u16_m128i::<8>(i));
    let ia = bitor_m128i(i, shl_imm_u16_m128i::<8>(v));
    interleave_rg_ba(ii, ia)
}

/// The block, strip and row functions of a 4x4 format of 16-bit texels,
/// from its eight-lane `texels`: written once here for IA8, RGB565 and
/// RGB5A3.
macro_rules! u16_format {
    ($name:literal, $block:ident, $strip:ident, $rows:ident, $texels:ident, $lines:literal) => {
        #[doc = concat!($name, ": one block ([`u16_block`], [`", stringify!($texels), "`]).")]
        #[inline(always)]
        pub(super) fn $block(src: &[u8; 32], out: &mut [u8; 64]) {
            u16_block(src, out, $texels);
        }

        #[doc = concat!("A strip of ", $name, " blocks into its four rows ([`u16_strip`]).")]
        #[inline(always)]
        pub(super) fn $strip(src: &[u8], rows: [&mut &mut [u8]; 4]) {
            u16_strip::<$lines>(src, rows, $texels);
        }

        #[doc = concat!("Row `Y` of a run of ", $name, " blocks ([`u16_rows`]).")]
        #[inline(always)]
        pub(super) fn $rows<const Y: usize>(src: &[u8], out: &mut [u8]) {
            u16_rows::<Y>(src, out, $texels);
        }
    };
}

u16_format!("IA8", ia8, ia8_strip, ia8_rows, ia8_texels, true);
u16_format!(
    "RGB565",
    rgb565,
    rgb565_strip,
    rgb565_rows,
    rgb565_texels,
    false
);
u16_format!(
    "RGB5A3",
    rgb5a3,
    rgb5a3_strip,
    rgb5a3_rows,
    rgb5a3_texels,
    false
);

/// A 4x4 block of 16-bit texels, eight at a time through `texels`.
#[inline(always)]
fn u16_block(src: &[u8; 32], out: &mut [u8; 64], texels: impl Fn(m128i) -> [m128i; 2]) {
    let (halves, _) = out.as_chunks_mut::<32>();
    for (v, half) in loads::<32, 2>(src).into_iter().zip(halves) {
        stores(half, texels(v));
    }
}

/// A strip of 4x4 blocks into its four rows, four blocks (a 64-byte
/// line of each row) a step. `half(block, h)` gives a block's rows `2h`
/// and `2h + 1`. With `BY_LINE`, the four blocks' top halves are computed
/// first and each row's line stored whole (row 0's 64 bytes, then row
/// 1's), then the bottom halves for rows 2 and 3: writing a line at once
/// measured faster for RGBA8, whose input is as large as its output.
/// Without, a block's four rows are stored before the next block's
/// (faster for the 16-bit formats, which keep more values live). Blocks
/// past the last whole line go one at a time.
#[inline(always)]
fn strip_by_lines<const B: usize, const LINE: usize, const BY_LINE: bool>(
    src: &[u8],
    rows: [&mut &mut [u8]; 4],
    half: impl Fn(&[u8; B], usize) -> [m128i; 2],
) {
    let [r0, r1, r2, r3] = rows;
    let (lines, rest) = src.as_chunks::<LINE>();
    let (l0, e0) = r0.as_chunks_mut::<64>();
    let (l1, e1) = r1.as_chunks_mut::<64>();
    let (l2, e2) = r2.as_chunks_mut::<64>();
    let (l3, e3) = r3.as_chunks_mut::<64>();
    for ((((line, l0), l1), l2), l3) in lines.iter().zip(l0).zip(l1).zip(l2).zip(l3) {
        let (blocks, _) = line.as_chunks::<B>();
        if BY_LINE {
            for (h, (upper, lower)) in [(l0, l1), (l2, l3)].into_iter().enumerate() {
                let mut pairs = [[splat16(0); 2]; 4];
                for (pair, block) in pairs.iter_mut().zip(blocks) {
                    *pair = half(block, h);
                }
                stores(upper, pairs.map(|[t, _]| t));
                stores(lower, pairs.map(|[_, t]| t));
            }
        } else {
            let [o0, o1, o2, o3] = [l0, l1, l2, l3].map(|l| l.as_chunks_mut::<16>().0);
            block_rows(blocks, [o0, o1, o2, o3], &half);
        }
    }
    let (blocks, _) = rest.as_chunks::<B>();
    let [o0, o1, o2, o3] = [e0, e1, e2, e3].map(|e| e.as_chunks_mut::<16>().0);
    block_rows(blocks, [o0, o1, o2, o3], &half);
}

/// Blocks one at a time, each into sixteen bytes of the four rows.
#[inline(always)]
fn block_rows<const B: usize>(
    blocks: &[[u8; B]],
    [o0, o1, o2, o3]: [&mut [[u8; 16]]; 4],
    half: &impl Fn(&[u8; B], usize) -> [m128i; 2],
) {
    for ((((block, o0), o1), o2), o3) in blocks.iter().zip(o0).zip(o1).zip(o2).zip(o3) {
        let [t0, t1] = half(block, 0);
        let [t2, t3] = half(block, 1);
        store_unaligned_m128i(o0, t0);
        store_unaligned_m128i(o1, t1);
        store_unaligned_m128i(o2, t2);
        store_unaligned_m128i(o3, t3);
    }
}

/// A strip of 4x4 blocks of 16-bit texels into its four rows: each
/// sixteen-byte half of a block is two of its rows. With `LINES`, four
/// blocks a step ([`strip_by_lines`], faster for IA8); without, one
/// ([`block_rows`]: RGB565 measured 2 % slower four at a time).
#[inline(always)]
fn u16_strip<const LINES: bool>(
    src: &[u8],
    rows: [&mut &mut [u8]; 4],
    texels: impl Fn(m128i) -> [m128i; 2],
) {
    let half = |block: &[u8; 32], h: usize| {
        let (halves, _) = block.as_chunks::<16>();
        texels(halves.get(h).map_or(splat16(0), load_unaligned_m128i))
    };
    if LINES {
        strip_by_lines::<32, 128, false>(src, rows, half);
    } else {
        let (blocks, _) = src.as_chunks::<32>();
        block_rows(blocks, rows.map(|r| r.as_chunks_mut::<16>().0), &half);
    }
}

/// Eight bytes of `block` from `8 * k` as the low half of a lane.
#[inline(always)]
fn piece<const B: usize>(block: &[u8; B], k: usize) -> i64 {
    let (pieces, _) = block.as_chunks::<8>();
    pieces.get(k).map_or(0, |p| i64::from_le_bytes(*p))
}

/// Row `Y` of a run of 4x4 blocks of 16-bit texels (a block's row is its
/// eight bytes from `8 * Y`), two blocks per vector: their rows lie side by
/// side in the output, so one vector of eight lanes becomes 32 contiguous
/// bytes. `texels` turns eight u16 lanes as loaded into two four-texel
/// vectors.
#[inline(always)]
fn u16_rows<const Y: usize>(src: &[u8], out: &mut [u8], texels: impl Fn(m128i) -> [m128i; 2]) {
    let (pairs, last) = src.as_chunks::<64>();
    let (outs, out_last) = out.as_chunks_mut::<32>();
    for (pair, o) in pairs.iter().zip(outs) {
        stores(o, texels(set_i64_m128i(piece(pair, 4 + Y), piece(pair, Y))));
    }
    if let (Some(block), Some(o)) = (last.first_chunk::<32>(), out_last.first_chunk_mut::<16>()) {
        let [t, _] = texels(set_i64_m128i(0, piece(block, Y)));
        store_unaligned_m128i(o, t);
    }
}

/// Big-endian u16 lanes as values.
#[inline(always)]
fn swap_bytes16(v: m128i) -> m128i {
    bitor_m128i(shl_imm_u16_m128i::<8>(v), shr_imm_u16_m128i::<8>(v))
}

/// A 5-bit value per lane to 8 bits: `(v << 3) | (v >> 2)`.
#[inline(always)]
fn expand5(v: m128i) -> m128i {
    bitor_m128i(shl_imm_u16_m128i::<3>(v), shr_imm_u16_m128i::<2>(v))
}

/// RGB565, big-endian: eight lanes as loaded to eight texels.
#[inline(always)]
fn rgb565_texels(v: m128i) -> [m128i; 2] {
    let p = swap_bytes16(v);
    // Bit replication as one multiply a channel: `(r << 11) * 264 >> 16`
    // is `33 * r >> 2` (5 bits to 8), and the high byte of `(g << 4) * 65`
    // is `65 * g >> 4` (6 bits to 8), already where the texel wants it.
    let r = mul_u16_keep_high_m128i(and16(p, 0xF800), splat16(264));
    let g = and16(
        mul_i16_keep_low_m128i(and16(shr_imm_u16_m128i::<1>(p), 0x03F0), splat16(65)),
        0xFF00,
    );
    let b = mul_u16_keep_high_m128i(shl_imm_u16_m128i::<11>(p), splat16(264));
    let rg = bitor_m128i(r, g);
    let ba = bitor_m128i(b, splat16(0xFF00));
    interleave_rg_ba(rg, ba)
}

/// RGB5A3, big-endian: bit 15 set is RGB555 with alpha 255, clear is
/// A3RGB4; both are computed and the mode bit selects per lane. Eight lanes
/// as loaded to eight texels.
#[inline(always)]
fn rgb5a3_texels(v: m128i) -> [m128i; 2] {
    let p = swap_bytes16(v);
    let opaque = shr_imm_i16_m128i::<15>(p);
    let pick = |when_opaque: m128i, otherwise: m128i| {
        bitor_m128i(
            bitand_m128i(opaque, when_opaque),
            bitandnot_m128i(opaque, otherwise),
        )
    };
    let r = pick(
        expand5(and16(shr_imm_u16_m128i::<10>(p), 0x1F)),
        times_0x11(and16(shr_imm_u16_m128i::<8>(p), 0xF)),
    );
    let g = pick(
        expand5(and16(shr_imm_u16_m128i::<5>(p), 0x1F)),
        times_0x11(and16(shr_imm_u16_m128i::<4>(p), 0xF)),
    );
    let b = pick(expand5(and16(p, 0x1F)), times_0x11(and16(p, 0xF)));
    let a3 = and16(shr_imm_u16_m128i::<12>(p), 0x7);
    let a = pick(
        splat16(0xFF),
        bitor_m128i(
            bitor_m128i(shl_imm_u16_m128i::<5>(a3), shl_imm_u16_m128i::<2>(a3)),
            shr_imm_u16_m128i::<1>(a3),
        ),
    );
    let rg = bitor_m128i(r, shl_imm_u16_m128i::<8>(g));
    let ba = bitor_m128i(b, shl_imm_u16_m128i::<8>(a));
    interleave_rg_ba(rg, ba)
}

/// RGBA8: eight texels from the lanes of AR pairs and the matching GB
/// pairs (as loaded).
#[inline(always)]
fn rgba8_texels(ar: m128i, gb: m128i) -> [m128i; 2] {
    // Bytes `r, b` and `g, a` in each 16-bit lane, then interleaved: two
    // shifts and two unpacks per eight texels, where a rotate of each
    // four-texel vector took two shifts and an unpack.
    let rb = bitor_m128i(shr_imm_u16_m128i::<8>(ar), and16(gb, 0xFF00));
    let ga = bitor_m128i(and16(gb, 0x00FF), shl_imm_u16_m128i::<8>(ar));
    [unpack_low_i8_m128i(rb, ga), unpack_high_i8_m128i(rb, ga)]
}

/// RGBA8: 16 AR byte pairs, then 16 GB pairs, to `[r, g, b, a]`.
#[inline(always)]
pub(super) fn rgba8(src: &[u8; 64], out: &mut [u8; 64]) {
    let [ar0, ar1, gb0, gb1] = loads::<64, 4>(src);
    let [t0, t1] = rgba8_texels(ar0, gb0);
    let [t2, t3] = rgba8_texels(ar1, gb1);
    stores(out, [t0, t1, t2, t3]);
}

/// Row `Y` of a run of RGBA8 blocks: a block's row is its AR pairs from
/// `8 * Y` and its GB pairs from `32 + 8 * Y`; two blocks per vector, as in
/// [`u16_rows`].
#[inline(always)]
pub(super) fn rgba8_rows<const Y: usize>(src: &[u8], out: &mut [u8]) {
    let (pairs, last) = src.as_chunks::<128>();
    let (outs, out_last) = out.as_chunks_mut::<32>();
    for (pair, o) in pairs.iter().zip(outs) {
        let ar = set_i64_m128i(piece(pair, 8 + Y), piece(pair, Y));
        let gb = set_i64_m128i(piece(pair, 12 + Y), piece(pair, 4 + Y));
        stores(o, rgba8_texels(ar, gb));
    }
    if let (Some(block), Some(o)) = (last.first_chunk::<64>(), out_last.first_chunk_mut::<16>()) {
        let ar = set_i64_m128i(0, piece(block, Y));
        let gb = set_i64_m128i(0, piece(block, 4 + Y));
        let [t, _] = rgba8_texels(ar, gb);
        store_unaligned_m128i(o, t);
    }
}

/// A strip of RGBA8 blocks into its four rows ([`strip_by_lines`], a
/// line at a time): a block's rows `2h` and `2h + 1` are its AR pairs
/// from `16 h` and its GB pairs from `32 + 16 h`.
#[inline(always)]
pub(super) fn rgba8_strip(src: &[u8], rows: [&mut &mut [u8]; 4]) {
    strip_by_lines::<64, 256, true>(src, rows, |block, h| {
        let (pieces, _) = block.as_chunks::<16>();
        let at = |k: usize| pieces.get(k).map_or(splat16(0), load_unaligned_m128i);
        rgba8_texels(at(h), at(2 + h))
    });
}

/// Four palette entries, as one vector (the first lowest).
#[inline(always)]
fn lookup4<const N: usize>(table: &[[u8; 4]; N], indices: [usize; 4]) -> m128i {
    let [a, b, c, d] =
        indices.map(|i| i32::from_le_bytes(table.get(i).copied().unwrap_or_default()));
    set_i32_m128i(d, c, b, a)
}

/// C8: a block row's eight byte indices, four texels per store.
#[inline(always)]
pub(super) fn c8_row(table: &[[u8; 4]; 256], indices: &[u8; 8], out: &mut [u8; 32]) {
    // The indices from one load, each shifted down: fewer loads than a
    // load per index, which measured slower.
    let v = u64::from_le_bytes(*indices);
    let t = |k: u32| {
        let i = usize::from((v >> (8 * k)).to_le_bytes()[0]);
        i32::from_le_bytes(table.get(i).copied().unwrap_or_default())
    };
    stores(
        out,
        [
            set_i32_m128i(t(3), t(2), t(1), t(0)),
            set_i32_m128i(t(7), t(6), t(5), t(4)),
        ],
    );
}

/// C4: a block row's four bytes of nibble indices (the high nibble first),
/// four texels per store.
#[inline(always)]
pub(super) fn c4_row(table: &[[u8; 4]; 16], indices: &[u8; 4], out: &mut [u8; 32]) {
    let v = u32::from_le_bytes(*indices);
    let at = |shift: u32| usize::from((v >> shift).to_le_bytes()[0] & 0xF);
    stores(
        out,
        [
            lookup4(table, [at(4), at(0), at(12), at(8)]),
            lookup4(table, [at(20), at(16), at(28), at(24)]),
        ],
    );
}

/// The four colours of CMPR's four sub-blocks: lane `k` of each vector is
/// sub-block `k`'s colour as an RGBA8 `u32`. `colours` holds each
/// sub-block's `c0 | c1 << 16` (values, not bytes) in lane `k`.
#[inline(always)]
fn cmpr_palettes(colours: m128i) -> [m128i; 4] {
    let low = set_splat_i32_m128i(0xFFFF);
    let r = expand5(shr_imm_u16_m128i::<11>(colours));
    let g6 = and16(shr_imm_u16_m128i::<5>(colours), 0x3F);
    let g = bitor_m128i(shl_imm_u16_m128i::<2>(g6), shr_imm_u16_m128i::<4>(g6));
    let b = expand5(and16(colours, 0x1F));
    // c0 > c1 as u16: both fit an i32 lane without its sign.
    let four_colours =
        cmp_gt_mask_i32_m128i(bitand_m128i(colours, low), shr_imm_u32_m128i::<16>(colours));
    let pick = |when_four: m128i, otherwise: m128i| {
        bitor_m128i(
            bitand_m128i(four_colours, when_four),
            bitandnot_m128i(four_colours, otherwise),
        )
    };
    // Per channel: c0, c1, c2, c3 (each in the low 16 bits of its lane).
    let channel = |x: m128i| {
        let a = bitand_m128i(x, low);
        let b = shr_imm_u32_m128i::<16>(x);
        let weighted = |wa: u16, wb: u16| {
            shr_imm_u16_m128i::<3>(add_i16_m128i(
                mul_i16_keep_low_m128i(a, splat16(wa)),
                mul_i16_keep_low_m128i(b, splat16(wb)),
            ))
        };
        let mid = shr_imm_u16_m128i::<1>(add_i16_m128i(a, b));
        [a, b, pick(weighted(5, 3), mid), pick(weighted(3, 5), mid)]
    };
    let [r0, r1, r2, r3] = channel(r);
    let [g0, g1, g2, g3] = channel(g);
    let [b0, b1, b2, b3] = channel(b);
    let opaque = set_splat_i32_m128i(0xFF00_0000_u32.cast_signed());
    let pack = |r: m128i, g: m128i, b: m128i, a: m128i| {
        bitor_m128i(
            bitor_m128i(r, shl_imm_u32_m128i::<8>(g)),
            bitor_m128i(shl_imm_u32_m128i::<16>(b), a),
        )
    };
    [
        pack(r0, g0, b0, opaque),
        pack(r1, g1, b1, opaque),
        pack(r2, g2, b2, opaque),
        // c3 is transparent when the sub-block has three colours.
        pack(r3, g3, b3, bitand_m128i(four_colours, opaque)),
    ]
}

/// One CMPR sub-block's sixteen texels, row by row, into `rows` (the four
/// sixteen-byte pieces of the tile it covers). `p` holds its four colours
/// in every lane, `indices` its four index bytes (row 0 lowest) in every
/// lane.
#[inline(always)]
fn cmpr_sub_block(p: [m128i; 4], indices: m128i, rows: [&mut [u8; 16]; 4]) {
    let [p0, p1, p2, p3] = p;
    let (d01, d23) = (bitxor_m128i(p0, p1), bitxor_m128i(p2, p3));
    // Lane `x` tests the two bits of texel `x` (the leftmost in the top bits).
    let low_bits = set_i32_m128i(0x01, 0x04, 0x10, 0x40);
    let high_bits = set_i32_m128i(0x02, 0x08, 0x20, 0x80);
    let mut row_bits = indices;
    for row in rows {
        let low = cmp_eq_mask_i32_m128i(bitand_m128i(row_bits, low_bits), low_bits);
        let high = cmp_eq_mask_i32_m128i(bitand_m128i(row_bits, high_bits), high_bits);
        let first = bitxor_m128i(p0, bitand_m128i(low, d01));
        let second = bitxor_m128i(p2, bitand_m128i(low, d23));
        let texels = bitxor_m128i(first, bitand_m128i(high, bitxor_m128i(first, second)));
        store_unaligned_m128i(row, texels);
        row_bits = shr_imm_u32_m128i::<8>(row_bits);
    }
}

/// CMPR: one 8x8 macroblock of four 4x4 sub-blocks (top-left, top-right,
/// bottom-left, bottom-right) into its sixteen output pieces: row `y`'s
/// left and right four texels are `pieces[2y]` and `pieces[2y + 1]`.
/// Where the pieces live (a tile, or the image's rows) is the caller's.
#[inline(always)]
fn cmpr_pieces(src: &[u8; 32], pieces: [&mut [u8; 16]; 16]) {
    let [v0, v1] = loads::<32, 2>(src);
    // 32-bit lanes of each half: colours, indices, colours, indices.
    let colours = unpack_low_i64_m128i(
        shuffle_ai_f32_all_m128i::<0b11_01_10_00>(v0),
        shuffle_ai_f32_all_m128i::<0b11_01_10_00>(v1),
    );
    let indices = unpack_low_i64_m128i(
        shuffle_ai_f32_all_m128i::<0b10_00_11_01>(v0),
        shuffle_ai_f32_all_m128i::<0b10_00_11_01>(v1),
    );
    let palettes = cmpr_palettes(swap_bytes16(colours));
    let [
        a0,
        b0,
        a1,
        b1,
        a2,
        b2,
        a3,
        b3,
        c0,
        d0,
        c1,
        d1,
        c2,
        d2,
        c3,
        d3,
    ] = pieces;
    macro_rules! sub_block {
        ($lane:literal, $rows:expr) => {
            cmpr_sub_block(
                palettes.map(shuffle_ai_f32_all_m128i::<$lane>),
                shuffle_ai_f32_all_m128i::<$lane>(indices),
                $rows,
            )
        };
    }
    sub_block!(0x00, [a0, a1, a2, a3]);
    sub_block!(0x55, [b0, b1, b2, b3]);
    sub_block!(0xAA, [c0, c1, c2, c3]);
    sub_block!(0xFF, [d0, d1, d2, d3]);
}

/// CMPR: one macroblock into a tile of row stride 8 (the edge block of a
/// strip, and a strip shorter than eight rows).
#[inline(always)]
pub(super) fn cmpr(src: &[u8; 32], out: &mut [u8; 256]) {
    let (pieces, _) = out.as_chunks_mut::<16>();
    if let Ok(pieces) = <&mut [[u8; 16]; 16]>::try_from(pieces) {
        cmpr_pieces(src, pieces.each_mut());
    }
}

/// A 32-byte row piece's left and right four texels (equal sizes: the
/// cast cannot fail).
#[inline(always)]
fn halves(row: &mut [u8; 32]) -> [&mut [u8; 16]; 2] {
    bytemuck::cast_mut::<[u8; 32], [[u8; 16]; 2]>(row).each_mut()
}

/// CMPR: a strip of whole macroblocks straight into its eight rows, each
/// 32 bytes per block, with no tile between (the tile and its copy cost
/// a third of the decode).
#[inline(always)]
pub(super) fn cmpr_strip(src: &[u8], rows: [&mut &mut [u8]; 8]) {
    let (blocks, _) = src.as_chunks::<32>();
    let mut outs = rows.map(|row| row.as_chunks_mut::<32>().0.iter_mut());
    for block in blocks {
        let [
            Some(r0),
            Some(r1),
            Some(r2),
            Some(r3),
            Some(r4),
            Some(r5),
            Some(r6),
            Some(r7),
        ] = outs.each_mut().map(Iterator::next)
        else {
            return;
        };
        let [a0, b0] = halves(r0);
        let [a1, b1] = halves(r1);
        let [a2, b2] = halves(r2);
        let [a3, b3] = halves(r3);
        let [c0, d0] = halves(r4);
        let [c1, d1] = halves(r5);
        let [c2, d2] = halves(r6);
        let [c3, d3] = halves(r7);
        cmpr_pieces(
            block,
            [
                a0, b0, a1, b1, a2, b2, a3, b3, c0, d0, c1, d1, c2, d2, c3, d3,
            ],
        );
    }
}

#[cfg(test)]
mod tests;
