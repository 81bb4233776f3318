//! The five row filters (PNG's filter method 0), undone in place.
//!
//! A row is unfiltered where it lies (in the output for 8-bit RGBA, else in
//! a row buffer), against the row above it. Each filter is specialised for
//! the pixel width it runs on (1, 2, 3, 4, 6 or 8 bytes) through fixed-size
//! arrays, so the loops carry no bounds checks and no per-byte branch.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "sample arithmetic on u8/u16 values, and sizes from IHDR's sides (each below 2^31, checked on read) computed in u64"
)]

/// Filter type 0..=4 as stored before each row.
pub const MAX_FILTER: u8 = 4;

/// Undoes `filter` on `cur`, whose row above is `prev` (`None` for the
/// first row of an image or pass, which the filters read as zeros).
/// `bpp` is the filter's pixel width; `cur.len()` is a multiple of it.
pub fn unfilter(filter: u8, bpp: usize, cur: &mut [u8], prev: Option<&[u8]>) {
    match bpp {
        1 => by::<1>(filter, cur, prev),
        2 => by::<2>(filter, cur, prev),
        3 => by::<3>(filter, cur, prev),
        4 => by::<4>(filter, cur, prev),
        6 => by::<6>(filter, cur, prev),
        _ => by::<8>(filter, cur, prev),
    }
}

/// [`unfilter`] of the stored row `raw` into `cur` (of the same length).
/// The filters most rows use read `raw` and write `cur` in one pass (None,
/// Up, and Sub on 4-byte pixels); the others copy `raw` first.
pub fn unfilter_into(filter: u8, bpp: usize, raw: &[u8], cur: &mut [u8], prev: Option<&[u8]>) {
    match (filter, prev) {
        (0, _) | (2, None) => cur.copy_from_slice_checked(raw),
        (2, Some(prev)) => {
            for ((c, r), u) in cur.iter_mut().zip(raw).zip(prev) {
                *c = r.wrapping_add(*u);
            }
        }
        (1, _) | (4, None) if bpp == 4 => sub4_into(raw, cur),
        (3 | 4, Some(prev)) if bpp == 4 => chained::<4>(filter, raw, cur, prev),
        (3 | 4, Some(prev)) if bpp == 3 => chained::<3>(filter, raw, cur, prev),
        _ => {
            cur.copy_from_slice_checked(raw);
            unfilter(filter, bpp, cur, prev);
        }
    }
}

/// Average or Paeth on `N`-byte pixels from `raw` into `cur`.
fn chained<const N: usize>(filter: u8, raw: &[u8], cur: &mut [u8], prev: &[u8]) {
    let (out, _) = cur.as_chunks_mut::<N>();
    let (src, _) = raw.as_chunks::<N>();
    let (above, _) = prev.as_chunks::<N>();
    let pixels = src
        .iter()
        .zip(out)
        .zip(above)
        .map(|((r, c), u)| (*r, c, *u));
    pixels_chained(filter, pixels);
}

/// Average (3) or Paeth (anything else) over pixels of 3 or 4 bytes given
/// as (stored, where the result goes, the pixel above). With SSE2 the left
/// pixel stays in a register from one pixel to the next (4 bytes, or
/// 16-bit lanes for Paeth), where the byte loops round-trip it through
/// memory; both filters are a chain from pixel to pixel, so that chain's
/// length is their speed.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn pixels_chained<'a, const N: usize>(
    filter: u8,
    pixels: impl Iterator<Item = ([u8; N], &'a mut [u8; N], [u8; N])>,
) {
    use safe_arch::{
        add_i8_m128i, add_i16_m128i, average_u8_m128i, bitand_m128i, bitandnot_m128i, bitor_m128i,
        bitxor_m128i, cmp_gt_mask_i16_m128i, get_i32_from_m128i_s, max_i16_m128i, min_i16_m128i,
        pack_i16_to_u8_m128i, set_i32_m128i_s, set_splat_i8_m128i, set_splat_i16_m128i,
        sub_i8_m128i, sub_i16_m128i, unpack_low_i8_m128i, zeroed_m128i,
    };
    let load = |px: [u8; N]| {
        let mut word = [0u8; 4];
        for (w, p) in word.iter_mut().zip(px) {
            *w = p;
        }
        set_i32_m128i_s(i32::from_le_bytes(word))
    };
    let store = |v, out: &mut [u8; N]| {
        let word: i32 = get_i32_from_m128i_s(v);
        for (o, w) in out.iter_mut().zip(word.to_le_bytes()) {
            *o = w;
        }
    };
    if filter == 3 {
        // floor((a + b) / 2) = the rounded-up mean minus the low bit of a ^ b.
        let one = set_splat_i8_m128i(1);
        let mut a = zeroed_m128i();
        for (raw, out, up) in pixels {
            let b = load(up);
            let low = bitand_m128i(bitxor_m128i(a, b), one);
            a = add_i8_m128i(load(raw), sub_i8_m128i(average_u8_m128i(a, b), low));
            store(a, out);
        }
        return;
    }
    // Paeth in 16-bit lanes, as `predict` computes it.
    let zero = zeroed_m128i();
    let byte = set_splat_i16_m128i(0xFF);
    let (mut a, mut c) = (zero, zero);
    for (raw, out, up) in pixels {
        let b = unpack_low_i8_m128i(load(up), zero);
        let x = unpack_low_i8_m128i(load(raw), zero);
        let threshold = sub_i16_m128i(add_i16_m128i(c, add_i16_m128i(c, c)), add_i16_m128i(a, b));
        let (lo, hi) = (min_i16_m128i(a, b), max_i16_m128i(a, b));
        let use_c = cmp_gt_mask_i16_m128i(hi, threshold);
        let middle = bitor_m128i(bitand_m128i(use_c, c), bitandnot_m128i(use_c, lo));
        let use_middle = cmp_gt_mask_i16_m128i(threshold, lo);
        let predicted = bitor_m128i(
            bitand_m128i(use_middle, middle),
            bitandnot_m128i(use_middle, hi),
        );
        a = bitand_m128i(add_i16_m128i(x, predicted), byte);
        c = b;
        store(pack_i16_to_u8_m128i(a, a), out);
    }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn pixels_chained<'a, const N: usize>(
    filter: u8,
    pixels: impl Iterator<Item = ([u8; N], &'a mut [u8; N], [u8; N])>,
) {
    pixels_chained_bytes(filter, pixels);
}

/// [`pixels_chained`] byte by byte (other targets; tested everywhere).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
fn pixels_chained_bytes<'a, const N: usize>(
    filter: u8,
    pixels: impl Iterator<Item = ([u8; N], &'a mut [u8; N], [u8; N])>,
) {
    let mut left = [0u8; N];
    let mut upper_left = [0u8; N];
    for (raw, out, up) in pixels {
        for ((((o, r), l), u), ul) in out.iter_mut().zip(raw).zip(left).zip(up).zip(upper_left) {
            let predicted = if filter == 3 {
                ((u16::from(l) + u16::from(u)) >> 1).to_le_bytes()[0]
            } else {
                predict(i16::from(l), i16::from(u), i16::from(ul)).to_le_bytes()[0]
            };
            *o = r.wrapping_add(predicted);
        }
        left = *out;
        upper_left = up;
    }
}

/// `copy_from_slice` of the common length, without its panic.
trait CopyChecked {
    fn copy_from_slice_checked(&mut self, src: &[u8]);
}

impl CopyChecked for [u8] {
    fn copy_from_slice_checked(&mut self, src: &[u8]) {
        let n = self.len().min(src.len());
        if let (Some(d), Some(s)) = (self.get_mut(..n), src.get(..n)) {
            d.copy_from_slice(s);
        }
    }
}

fn by<const N: usize>(filter: u8, cur: &mut [u8], prev: Option<&[u8]>) {
    if N == 4 {
        let (cur4, _) = cur.as_chunks_mut::<4>();
        match (filter, prev) {
            (1, _) | (4, None) => return sub4(cur4),
            _ => {}
        }
    }
    if N == 3 || N == 4 {
        // Average and Paeth chain each pixel to the one before it: one
        // pass with the chain kept in a register (see `pixels_chained`).
        if let (3 | 4, Some(prev)) = (filter, prev) {
            let (px, _) = cur.as_chunks_mut::<N>();
            let (above, _) = prev.as_chunks::<N>();
            let pixels = px.iter_mut().zip(above).map(|(c, u)| (*c, c, *u));
            return pixels_chained(filter, pixels);
        }
    }
    let (cur, _) = cur.as_chunks_mut::<N>();
    match (filter, prev) {
        (1, _) | (4, None) => sub(cur),
        (2, Some(prev)) => up(cur, prev),
        (3, None) => average_first(cur),
        (3, Some(prev)) => average(cur, prev.as_chunks::<N>().0),
        (4, Some(prev)) => paeth(cur, prev.as_chunks::<N>().0),
        // 0, Up on the first row, and (never passed) anything over 4.
        _ => {}
    }
}

fn sub<const N: usize>(cur: &mut [[u8; N]]) {
    sub_from(cur, [0; N]);
}

/// Sub on 4-byte pixels in place.
fn sub4(cur: &mut [[u8; 4]]) {
    let cur = cur.as_flattened_mut();
    let (blocks, rest) = cur.as_chunks_mut::<16>();
    let left = sub4_blocks(blocks.iter_mut().map(|b| (*b, b)));
    sub_from(rest.as_chunks_mut::<4>().0, left);
}

/// Sub on 4-byte pixels from `raw` into `cur`.
fn sub4_into(raw: &[u8], cur: &mut [u8]) {
    let (out, out_rest) = cur.as_chunks_mut::<16>();
    let (src, _) = raw.as_chunks::<16>();
    let left = sub4_blocks(src.iter().copied().zip(out.iter_mut()));
    // The pixels after the last whole block, from `raw` then in place.
    let done = out.len() * 16;
    out_rest.copy_from_slice_checked(raw.get(done..).unwrap_or_default());
    sub_from(out_rest.as_chunks_mut::<4>().0, left);
}

/// Sub on 16-byte blocks of 4-byte pixels (each block read, then its
/// result written); returns the last pixel done. With SSE2, four pixels a
/// step: a prefix sum inside the 16 bytes (shifted by one and two pixels),
/// plus the last pixel before them, so the chain from one step to the next
/// is one add and one shuffle, where pixel by pixel it is an add and two
/// register moves per pixel.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn sub4_blocks<'a>(blocks: impl Iterator<Item = ([u8; 16], &'a mut [u8; 16])>) -> [u8; 4] {
    use safe_arch::{
        add_i8_m128i, byte_shl_imm_u128_m128i, get_i32_from_m128i_s, load_unaligned_m128i,
        shuffle_ai_f32_all_m128i, store_unaligned_m128i, zeroed_m128i,
    };
    let mut left = zeroed_m128i();
    for (raw, out) in blocks {
        let mut v = load_unaligned_m128i(&raw);
        v = add_i8_m128i(v, byte_shl_imm_u128_m128i::<4>(v));
        v = add_i8_m128i(v, byte_shl_imm_u128_m128i::<8>(v));
        v = add_i8_m128i(v, left);
        store_unaligned_m128i(out, v);
        left = shuffle_ai_f32_all_m128i::<0xFF>(v);
    }
    // Every lane of `left` holds the last pixel done.
    get_i32_from_m128i_s(left).to_le_bytes()
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn sub4_blocks<'a>(blocks: impl Iterator<Item = ([u8; 16], &'a mut [u8; 16])>) -> [u8; 4] {
    let mut left = [0u8; 4];
    for (raw, out) in blocks {
        *out = raw;
        sub_from(out.as_chunks_mut::<4>().0, left);
        let [.., a, b, c, d] = *out;
        left = [a, b, c, d];
    }
    left
}

/// Sub on pixels whose left neighbour is `left`.
fn sub_from<const N: usize>(cur: &mut [[u8; N]], mut left: [u8; N]) {
    for px in cur {
        for (c, l) in px.iter_mut().zip(left) {
            *c = c.wrapping_add(l);
        }
        left = *px;
    }
}

fn up<const N: usize>(cur: &mut [[u8; N]], prev: &[u8]) {
    let (prev, _) = prev.as_chunks::<N>();
    for (px, above) in cur.iter_mut().zip(prev) {
        for (c, u) in px.iter_mut().zip(above) {
            *c = c.wrapping_add(*u);
        }
    }
}

fn average_first<const N: usize>(cur: &mut [[u8; N]]) {
    let mut left = [0u8; N];
    for px in cur {
        for (c, l) in px.iter_mut().zip(left) {
            *c = c.wrapping_add(l >> 1);
        }
        left = *px;
    }
}

fn average<const N: usize>(cur: &mut [[u8; N]], prev: &[[u8; N]]) {
    let mut left = [0u8; N];
    for (px, above) in cur.iter_mut().zip(prev) {
        for ((c, l), u) in px.iter_mut().zip(left).zip(above) {
            let mean = (u16::from(l) + u16::from(*u)) >> 1;
            *c = c.wrapping_add(mean.to_le_bytes()[0]);
        }
        left = *px;
    }
}

#[allow(
    clippy::indexing_slicing,
    reason = "i < N, the length of every array indexed"
)]
fn paeth<const N: usize>(cur: &mut [[u8; N]], prev: &[[u8; N]]) {
    let mut left = [0i16; N];
    let mut upper_left = [0i16; N];
    for (px, above) in cur.iter_mut().zip(prev) {
        let up = above.map(i16::from);
        for i in 0..N {
            let predicted = predict(left[i], up[i], upper_left[i]);
            px[i] = px[i].wrapping_add(predicted.to_le_bytes()[0]);
            left[i] = i16::from(px[i]);
        }
        upper_left = up;
    }
}

/// The Paeth predictor (whichever of left a, above b, upper-left c is
/// nearest to a + b − c, ties in that order) without a branch: with
/// t = 3c − (a + b), the answer is max(a, b) when t ≤ min(a, b), min(a, b)
/// when t ≥ max(a, b), else c (the formulation of the public-domain
/// stb_image, which compiles to selects).
#[inline(always)]
fn predict(a: i16, b: i16, c: i16) -> i16 {
    let threshold = 3 * c - (a + b);
    let (lo, hi) = (a.min(b), a.max(b));
    let middle = if hi <= threshold { lo } else { c };
    if threshold <= lo { hi } else { middle }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// The filters as the specification writes them, byte by byte.
    fn reference(filter: u8, bpp: usize, raw: &[u8], prev: &[u8]) -> Vec<u8> {
        let mut out: Vec<u8> = Vec::new();
        for (i, &x) in raw.iter().enumerate() {
            let a = if i >= bpp { out[i - bpp] } else { 0 };
            let b = prev[i];
            let c = if i >= bpp { prev[i - bpp] } else { 0 };
            let p = i16::from(a) + i16::from(b) - i16::from(c);
            let (pa, pb, pc) = (
                (p - i16::from(a)).abs(),
                (p - i16::from(b)).abs(),
                (p - i16::from(c)).abs(),
            );
            let paeth = if pa <= pb && pa <= pc {
                a
            } else if pb <= pc {
                b
            } else {
                c
            };
            let pred = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                _ => paeth,
            };
            out.push(x.wrapping_add(pred));
        }
        out
    }

    /// The byte loop other targets run for Average and Paeth.
    fn chained_bytes(bpp: usize, filter: u8, raw: &[u8], cur: &mut [u8], prev: &[u8]) {
        fn on<const N: usize>(filter: u8, raw: &[u8], cur: &mut [u8], prev: &[u8]) {
            let pixels = (raw.as_chunks::<N>().0.iter())
                .zip(cur.as_chunks_mut::<N>().0)
                .zip(prev.as_chunks::<N>().0)
                .map(|((r, c), u)| (*r, c, *u));
            pixels_chained_bytes(filter, pixels);
        }
        if bpp == 3 {
            on::<3>(filter, raw, cur, prev);
        } else {
            on::<4>(filter, raw, cur, prev);
        }
    }

    #[test]
    fn all_five_filters_match_the_specification_at_every_pixel_width_in_place_and_from_the_window()
    {
        let mut rng = crate::test_rng::XorShift(7);
        for bpp in [1, 2, 3, 4, 6, 8] {
            for (filter, pixels) in (0..=MAX_FILTER).flat_map(|f| [(f, 9), (f, 1), (f, 37)]) {
                let raw: Vec<u8> = (0..bpp * pixels).map(|_| rng.next() as u8).collect();
                let prev: Vec<u8> = (0..bpp * pixels).map(|_| rng.next() as u8).collect();
                let mut cur = raw.clone();
                unfilter(filter, bpp, &mut cur, Some(&prev));
                assert_eq!(
                    cur,
                    reference(filter, bpp, &raw, &prev),
                    "filter {filter}, bpp {bpp}"
                );
                let mut into = std::vec![0u8; raw.len()];
                unfilter_into(filter, bpp, &raw, &mut into, Some(&prev));
                assert_eq!(into, cur, "into, filter {filter}, bpp {bpp}");
                let zeros = std::vec![0u8; raw.len()];
                let mut first = raw.clone();
                unfilter(filter, bpp, &mut first, None);
                assert_eq!(
                    first,
                    reference(filter, bpp, &raw, &zeros),
                    "first row, filter {filter}"
                );
                unfilter_into(filter, bpp, &raw, &mut into, None);
                assert_eq!(into, first, "into, first row, filter {filter}");
                if (3..=4).contains(&filter) && (3..=4).contains(&bpp) {
                    let mut bytes = std::vec![0u8; raw.len()];
                    chained_bytes(bpp, filter, &raw, &mut bytes, &prev);
                    assert_eq!(bytes, cur, "byte loop, filter {filter}, bpp {bpp}");
                }
            }
        }
    }
}
