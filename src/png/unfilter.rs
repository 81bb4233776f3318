//! The five row filters (PNG's filter method 0), undone in place.
//!
//! A row is unfiltered where it lies (in the output for 8-bit RGBA, else in
//! a row buffer), against the row above it. Each filter is specialised for
//! the pixel width it runs on (1, 2, 3, 4, 6 or 8 bytes) through fixed-size
//! arrays, so the loops carry no bounds checks and no per-byte branch.

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

fn by<const N: usize>(filter: u8, cur: &mut [u8], prev: Option<&[u8]>) {
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
    let mut left = [0u8; N];
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

fn paeth<const N: usize>(cur: &mut [[u8; N]], prev: &[[u8; N]]) {
    let mut left = [0u8; N];
    let mut upper_left = [0u8; N];
    for (px, above) in cur.iter_mut().zip(prev) {
        for i in 0..N {
            px[i] = px[i].wrapping_add(predict(left[i], above[i], upper_left[i]));
        }
        left = *px;
        upper_left = *above;
    }
}

/// The Paeth predictor: whichever of left, above, upper-left is nearest
/// to left + above − upper-left (ties in that order).
#[inline(always)]
fn predict(a: u8, b: u8, c: u8) -> u8 {
    let (ia, ib, ic) = (i16::from(a), i16::from(b), i16::from(c));
    let pa = (ib - ic).abs();
    let pb = (ia - ic).abs();
    let pc = (ia + ib - 2 * ic).abs();
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
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

    #[test]
    fn all_five_filters_match_the_specification_at_every_pixel_width() {
        let mut rng = crate::test_rng::XorShift(7);
        for bpp in [1, 2, 3, 4, 6, 8] {
            for filter in 0..=MAX_FILTER {
                let raw: Vec<u8> = (0..bpp * 9).map(|_| rng.next() as u8).collect();
                let prev: Vec<u8> = (0..bpp * 9).map(|_| rng.next() as u8).collect();
                let mut cur = raw.clone();
                unfilter(filter, bpp, &mut cur, Some(&prev));
                assert_eq!(
                    cur,
                    reference(filter, bpp, &raw, &prev),
                    "filter {filter}, bpp {bpp}"
                );
                let zeros = std::vec![0u8; raw.len()];
                let mut first = raw.clone();
                unfilter(filter, bpp, &mut first, None);
                assert_eq!(
                    first,
                    reference(filter, bpp, &raw, &zeros),
                    "first row, filter {filter}"
                );
            }
        }
    }
}
