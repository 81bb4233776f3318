//! J3D texture matrices as `KHR_texture_transform` values: exactly, for
//! material clips (`j3d_materials`), or the nearest one, for the baked
//! approximation (`baked`). One decomposition, so both agree on what is
//! exact.
#![allow(clippy::indexing_slicing, reason = "fixed indices into a [f32; 16]")]

/// `KHR_texture_transform`'s offset, rotation and scale.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UvTransform {
    /// UV offset.
    pub offset: [f32; 2],
    /// Radians, as the extension turns: `u' = cos·u + sin·v`, `v' = −sin·u + cos·v`.
    pub rotation: f32,
    /// UV scale.
    pub scale: [f32; 2],
}

impl UvTransform {
    /// The 2×3 matrix the extension applies, `T · R · S`, column-major
    /// `[a, c, b, d, tx, ty]` for `u' = a·u + b·v + tx`, `v' = c·u + d·v + ty`.
    pub fn matrix(&self) -> [f32; 6] {
        let (sin, cos) = (libm::sinf(self.rotation), libm::cosf(self.rotation));
        let [sx, sy] = self.scale;
        [
            cos * sx,
            -sin * sx,
            sin * sy,
            cos * sy,
            self.offset[0],
            self.offset[1],
        ]
    }
}

/// The J3D texture matrix `m` (column-major 4×4, as
/// [`crate::scene::texture_matrix`] builds it) as `KHR_texture_transform`
/// values, or `None` when the extension cannot express it: its 2×2 part
/// must be a rotation times a scale along U and V (columns at right
/// angles), which a J3D matrix is when its S and T scales are equal or its
/// rotation is a multiple of 90°. Both use UVs with V down from the
/// image's top (GX's T, glTF's V), so no flip comes between.
pub fn exact(m: &[f32; 16]) -> Option<UvTransform> {
    nearest(m).and_then(|(t, exact)| exact.then_some(t))
}

/// The `KHR_texture_transform` (scale, then turn, then offset) nearest a
/// texture matrix (column-major 4×4): column 0's length and angle, column
/// 1's length along the turned V axis; exact (true) when column 1 is that
/// axis times its length, else the shear between the columns is dropped.
/// None when a value is not finite.
pub fn nearest(m: &[f32; 16]) -> Option<(UvTransform, bool)> {
    let [a, c, _, _, b, d, ..] = *m;
    // Column 0 = sx·(cos r, −sin r), column 1 = sy·(sin r, cos r).
    let sx = libm::hypotf(a, c);
    let rotation = if sx > 0.0 { libm::atan2f(-c, a) } else { 0.0 };
    let (sin, cos) = (libm::sinf(rotation), libm::cosf(rotation));
    let sy = b * sin + d * cos;
    let size = a.abs().max(b.abs()).max(c.abs()).max(d.abs()).max(1.0);
    let close = |x: f32, y: f32| (x - y).abs() <= 1e-5 * size;
    let t = UvTransform {
        offset: [m[12], m[13]],
        rotation,
        scale: [sx, sy],
    };
    [a, b, c, d, sx, sy, rotation, m[12], m[13]]
        .iter()
        .all(|v| v.is_finite())
        .then_some((t, close(b, sin * sy) && close(d, cos * sy)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::texture_matrix;

    fn same(a: [f32; 6], m: &[f32; 16]) {
        let want = [m[0], m[1], m[4], m[5], m[12], m[13]];
        for (x, y) in a.iter().zip(want) {
            assert!((x - y).abs() < 1e-5, "{a:?} against {want:?}");
        }
    }

    /// A J3D SRT with equal S and T scales, or a right-angle turn, is a
    /// KHR_texture_transform: recomposed, the same matrix (Basic and Maya).
    #[test]
    fn uniform_or_right_angle_srt_is_exact() {
        for maya in [false, true] {
            for (scale, turn) in [
                ([1.0, 1.0], 0.0),
                ([2.0, 2.0], 0.7),
                ([0.5, 0.5], -2.9),
                ([2.0, 3.0], 0.0),
                ([2.0, 3.0], core::f32::consts::FRAC_PI_2),
                ([-1.0, 1.0], 0.3),
            ] {
                let m = texture_matrix(maya, scale, turn, [0.25, -0.5], [0.5, 0.5]);
                let t = exact(&m).unwrap_or_else(|| panic!("{maya} {scale:?} {turn}"));
                same(t.matrix(), &m);
            }
        }
    }

    /// Unequal scales turned by other than a right angle shear the UVs,
    /// which offset, rotation and scale cannot say.
    #[test]
    fn unequal_scales_turned_are_not_expressible() {
        let m = texture_matrix(false, [2.0, 3.0], 0.5, [0.0, 0.0], [0.5, 0.5]);
        assert!(exact(&m).is_none());
        let mut m = texture_matrix(false, [1.0, 1.0], 0.0, [0.0, 0.0], [0.0, 0.0]);
        m[12] = f32::NAN;
        assert!(exact(&m).is_none());
    }

    /// A matrix with a shear is not exact; its nearest keeps
    /// column 0 (length 1, angle 0) and column 1's length along V (2).
    #[test]
    fn the_nearest_transform_drops_a_shear() {
        let mut m = [0.0f32; 16];
        (m[0], m[4], m[5], m[12], m[13], m[10], m[15]) = (1.0, 0.2, 2.0, 0.5, 0.25, 1.0, 1.0);
        let (t, exact) = nearest(&m).unwrap();
        assert!(!exact);
        assert_eq!(
            (t.offset, t.rotation, t.scale),
            ([0.5, 0.25], 0.0, [1.0, 2.0])
        );
        // Without the shear it is exact.
        m[4] = 0.0;
        assert!(nearest(&m).unwrap().1);
        m[0] = f32::NAN;
        assert!(nearest(&m).is_none());
    }
}
