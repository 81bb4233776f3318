//! Normals turned by their draw matrix, two at a time. Turning one costs a
//! square root and three divisions in f64 ([`NormalMatrix::apply`]), each
//! waiting on the one before; on x86-64 two normals share every SSE2
//! instruction (`sqrtpd`, `divpd`: each lane computes what the scalar
//! instruction computes), in a loop without branches, so the normals are
//! bit for bit what `apply` gives and the chains of neighbouring vertices
//! overlap. Elsewhere `apply` turns them one by one.

use crate::scene::NormalMatrix;

/// Writes `matrix.apply(n)` for each normal `n` of `normals` into `out`
/// (as many as the shorter holds).
#[inline(always)]
pub(super) fn turn_all(matrix: &NormalMatrix, normals: &[[f32; 3]], out: &mut [[f32; 3]]) {
    chosen::turn_all(matrix, normals, out);
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use sse2 as chosen;

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
use portable as chosen;

#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
mod portable {
    use crate::scene::NormalMatrix;

    pub(super) fn turn_all(matrix: &NormalMatrix, normals: &[[f32; 3]], out: &mut [[f32; 3]]) {
        for (out, n) in out.iter_mut().zip(normals) {
            *out = matrix.apply(*n);
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use crate::scene::NormalMatrix;
    use safe_arch::{
        add_m128d, bitand_m128d, cmp_gt_mask_m128d, cmp_lt_mask_m128d, div_m128d, m128d, mul_m128d,
        set_splat_m128d, sqrt_m128d,
    };

    #[inline(always)]
    pub(super) fn turn_all(matrix: &NormalMatrix, normals: &[[f32; 3]], out: &mut [[f32; 3]]) {
        let c = matrix.coefficients().map(set_splat_m128d);
        let n = normals.len().min(out.len());
        let (Some(normals), Some(out)) = (normals.get(..n), out.get_mut(..n)) else {
            return;
        };
        let mut ins = normals.chunks_exact(2);
        let mut outs = out.chunks_exact_mut(2);
        for (n, o) in (&mut ins).zip(&mut outs) {
            if let ([a, b], [oa, ob]) = (n, o) {
                [*oa, *ob] = turn_pair(&c, *a, *b);
            }
        }
        if let (Some(&a), Some(o)) = (ins.remainder().first(), outs.into_remainder().first_mut()) {
            let [turned, _] = turn_pair(&c, a, a);
            *o = turned;
        }
    }

    /// [`NormalMatrix::apply`] of `a` and of `b`, one in each lane: the
    /// same operations in the same order, and the zero or non-finite
    /// length's zero as a mask.
    #[inline(always)]
    fn turn_pair(c: &[m128d; 9], a: [f32; 3], b: [f32; 3]) -> [[f32; 3]; 2] {
        let [c0, c1, c2, c3, c4, c5, c6, c7, c8] = *c;
        let lanes = |x: f32, y: f32| m128d::from_array([f64::from(x), f64::from(y)]);
        let (n0, n1, n2) = (lanes(a[0], b[0]), lanes(a[1], b[1]), lanes(a[2], b[2]));
        let row = |p: m128d, q: m128d, r: m128d| {
            add_m128d(
                add_m128d(mul_m128d(p, n0), mul_m128d(q, n1)),
                mul_m128d(r, n2),
            )
        };
        let (x, y, z) = (row(c0, c3, c6), row(c1, c4, c7), row(c2, c5, c8));
        let len = sqrt_m128d(add_m128d(
            add_m128d(mul_m128d(x, x), mul_m128d(y, y)),
            mul_m128d(z, z),
        ));
        // `len > 0.0 && len.is_finite()`: false for NaN in both compares.
        let keep = bitand_m128d(
            cmp_gt_mask_m128d(len, set_splat_m128d(0.0)),
            cmp_lt_mask_m128d(len, set_splat_m128d(f64::INFINITY)),
        );
        let unit = |v: m128d| bitand_m128d(keep, div_m128d(v, len)).to_array();
        let ([xa, xb], [ya, yb], [za, zb]) = (unit(x), unit(y), unit(z));
        // A unit component always fits f32.
        #[allow(clippy::cast_possible_truncation)]
        let turned = [
            [xa as f32, ya as f32, za as f32],
            [xb as f32, yb as f32, zb as f32],
        ];
        turned
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Mat4;

    /// The paired turn gives `NormalMatrix::apply`'s bits for every normal,
    /// zero and non-finite lengths included, in even and odd counts.
    #[test]
    fn normals_turned_in_pairs_match_apply_bit_for_bit() {
        let mut rng = crate::test_rng::XorShift(0x9E37_79B9_7F4A_7C15);
        let mut next = || rng.next();
        let special = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            1e-30,
            3e38,
            f32::INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE,
        ];
        let value = |next: &mut dyn FnMut() -> u64| {
            let r = next();
            if r.is_multiple_of(8) {
                special[(r >> 8) as usize % special.len()]
            } else {
                (r >> 11) as f32 / (1u64 << 52) as f32 * 4.0 - 2.0
            }
        };
        for round in 0..200 {
            let m: [f32; 16] = core::array::from_fn(|_| value(&mut next));
            let matrix = if round % 3 == 0 {
                Mat4::IDENTITY.normal_matrix()
            } else {
                Mat4(m).normal_matrix()
            };
            let normals: [[f32; 3]; 33] =
                core::array::from_fn(|_| core::array::from_fn(|_| value(&mut next)));
            for n in [0, 1, 2, 7, 32, 33] {
                let mut out = [[7.0f32; 3]; 33];
                turn_all(&matrix, &normals[..n], &mut out);
                let mut expected = [[7.0f32; 3]; 33];
                portable::turn_all(&matrix, &normals[..n], &mut expected);
                for (k, (got, want)) in out.iter().zip(&expected).enumerate() {
                    assert_eq!(
                        got.map(f32::to_bits),
                        want.map(f32::to_bits),
                        "round {round}, {n} normals, normal {k}"
                    );
                }
            }
        }
    }
}
