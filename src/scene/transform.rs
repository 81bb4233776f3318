//! The little matrix math the scene needs: node local and world matrices, bounding boxes.
//!
//! Float math goes through `libm`, so results are the same with and without std.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "matrix and channel indices are loop counters below 16, and keyframe positions below the point count"
)]

use super::NodeRecord;

/// A 4×4 matrix, column-major (`m[column * 4 + row]`), acting on column vectors.
///
/// `#[repr(transparent)]`: the C API (capi/) writes world matrices straight
/// into a caller's array of 16-float matrices.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(transparent)]
pub struct Mat4(pub [f32; 16]);

impl Mat4 {
    /// The identity.
    pub const IDENTITY: Self = Self([
        1.0, 0.0, 0.0, 0.0, //
        0.0, 1.0, 0.0, 0.0, //
        0.0, 0.0, 1.0, 0.0, //
        0.0, 0.0, 0.0, 1.0,
    ]);

    /// A translation.
    pub fn translation(t: [f32; 3]) -> Self {
        let mut m = Self::IDENTITY;
        m.0[12] = t[0];
        m.0[13] = t[1];
        m.0[14] = t[2];
        m
    }

    /// `Rz · Ry · Rx`: X applied first, then Y, then Z; radians, right-handed.
    pub fn rotation_xyz(r: [f32; 3]) -> Self {
        let (sx, cx) = (libm::sinf(r[0]), libm::cosf(r[0]));
        let (sy, cy) = (libm::sinf(r[1]), libm::cosf(r[1]));
        let (sz, cz) = (libm::sinf(r[2]), libm::cosf(r[2]));
        Self([
            cy * cz,
            cy * sz,
            -sy,
            0.0,
            sx * sy * cz - cx * sz,
            sx * sy * sz + cx * cz,
            sx * cy,
            0.0,
            cx * sy * cz + sx * sz,
            cx * sy * sz - sx * cz,
            cx * cy,
            0.0,
            0.0,
            0.0,
            0.0,
            1.0,
        ])
    }

    /// A scale.
    pub fn scale(s: [f32; 3]) -> Self {
        let mut m = Self::IDENTITY;
        m.0[0] = s[0];
        m.0[5] = s[1];
        m.0[10] = s[2];
        m
    }

    /// A node's local matrix: `T(translation) · T(pivot) · R · S · T(−pivot)`.
    pub fn local(node: &NodeRecord) -> Self {
        let p = node.pivot;
        Self::translation([
            node.translation[0] + p[0],
            node.translation[1] + p[1],
            node.translation[2] + p[2],
        ])
        .mul(&Self::rotation_xyz(node.rotation))
        .mul(&Self::scale(node.scale))
        .mul(&Self::translation([-p[0], -p[1], -p[2]]))
    }

    /// A node's local matrix given its parent: as [`Mat4::local`], except that
    /// a node flagged [`NodeFlags::SEGMENT_SCALE_COMPENSATE`](super::NodeFlags)
    /// undoes its parent's scale: `T · S(parent)⁻¹ · R · S` (Maya's
    /// segment-scale compensation; a zero parent scale is left alone).
    pub fn local_under(node: &NodeRecord, parent: Option<&NodeRecord>) -> Self {
        let local = Self::local(node);
        let Some(parent) =
            parent.filter(|_| node.flags & super::NodeFlags::SEGMENT_SCALE_COMPENSATE != 0)
        else {
            return local;
        };
        let inverse = parent.scale.map(|s| if s == 0.0 { 1.0 } else { 1.0 / s });
        // T · S⁻¹ · (R · S): scale the rotation-scale rows, keep the translation.
        let mut m = local;
        for column in m.0.chunks_exact_mut(4).take(3) {
            for (value, factor) in column.iter_mut().zip(inverse) {
                *value *= factor;
            }
        }
        m
    }

    /// The inverse of an affine matrix (bottom row 0, 0, 0, 1), or `None`
    /// when its 3×3 part is singular.
    #[allow(
        clippy::indexing_slicing,
        reason = "row, column and k are below 4, so every index is below 16, the matrix's length"
    )]
    pub fn inverse_affine(&self) -> Option<Self> {
        let m = &self.0;
        let c = self.cofactors();
        let det = m[0] * c[0] + m[4] * c[4] + m[8] * c[8];
        if det == 0.0 || !det.is_finite() {
            return None;
        }
        let inv = 1.0 / det;
        // The inverse's 3×3 is the adjugate (transposed cofactors) over det.
        let mut out = Self::IDENTITY;
        for row in 0..3 {
            for col in 0..3 {
                out.0[col * 4 + row] = c[row * 4 + col] * inv;
            }
        }
        let t = [m[12], m[13], m[14]];
        for row in 0..3 {
            out.0[12 + row] = -(out.0[row] * t[0] + out.0[4 + row] * t[1] + out.0[8 + row] * t[2]);
        }
        Some(out)
    }

    /// Cofactors of the 3×3 part, laid out like the matrix (column-major).
    #[allow(
        clippy::indexing_slicing,
        reason = "row, column and k are below 4, so every index is below 16, the matrix's length"
    )]
    fn cofactors(&self) -> [f32; 16] {
        let m = |r: usize, c: usize| self.0[c * 4 + r];
        let mut out = [0.0; 16];
        for r in 0..3 {
            for c in 0..3 {
                let (r1, r2) = ((r + 1) % 3, (r + 2) % 3);
                let (c1, c2) = ((c + 1) % 3, (c + 2) % 3);
                out[c * 4 + r] = m(r1, c1) * m(r2, c2) - m(r1, c2) * m(r2, c1);
            }
        }
        out
    }

    /// Turns a normal by this matrix: the inverse transpose of the 3×3 part
    /// (the cofactor matrix, signed by the determinant), then normalised.
    /// A zero result stays zero.
    pub fn transform_normal(&self, n: [f32; 3]) -> [f32; 3] {
        self.normal_matrix().apply(n)
    }

    /// The matrix [`Mat4::transform_normal`] applies, for reuse over many normals.
    pub fn normal_matrix(&self) -> NormalMatrix {
        // In f64: huge or tiny (but finite) normals and scales stay finite.
        let c = self.cofactors().map(f64::from);
        let m = self.0.map(f64::from);
        let det = m[0] * c[0] + m[4] * c[4] + m[8] * c[8];
        let sign = if det < 0.0 { -1.0 } else { 1.0 };
        NormalMatrix([
            sign * c[0],
            sign * c[1],
            sign * c[2],
            sign * c[4],
            sign * c[5],
            sign * c[6],
            sign * c[8],
            sign * c[9],
            sign * c[10],
        ])
    }

    /// `self · rhs`.
    #[allow(
        clippy::indexing_slicing,
        reason = "row, column and k are below 4, so every index is below 16, the matrix's length"
    )]
    pub fn mul(&self, rhs: &Self) -> Self {
        let mut out = [0.0f32; 16];
        for (c, column) in out.chunks_exact_mut(4).enumerate() {
            for (r, value) in column.iter_mut().enumerate() {
                *value = (0..4).map(|k| self.0[k * 4 + r] * rhs.0[c * 4 + k]).sum();
            }
        }
        Self(out)
    }

    /// `self · (p, 1)`, without the projective divide.
    pub fn transform_point(&self, p: [f32; 3]) -> [f32; 3] {
        let m = &self.0;
        [
            m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12],
            m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
            m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14],
        ]
    }
}

/// The inverse transpose of a matrix's 3×3 part, up to a positive factor
/// (normals are normalised after it), column-major, in f64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NormalMatrix([f64; 9]);

impl NormalMatrix {
    /// The coefficients, column-major: a decoder that turns many normals at
    /// once computes what [`NormalMatrix::apply`] computes from them.
    pub(crate) fn coefficients(&self) -> &[f64; 9] {
        &self.0
    }

    /// Turns `n` and normalises it; a zero or non-finite result is zero.
    pub fn apply(&self, n: [f32; 3]) -> [f32; 3] {
        let c = &self.0;
        let n = n.map(f64::from);
        let v = [
            c[0] * n[0] + c[3] * n[1] + c[6] * n[2],
            c[1] * n[0] + c[4] * n[1] + c[7] * n[2],
            c[2] * n[0] + c[5] * n[1] + c[8] * n[2],
        ];
        let len = libm::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if len > 0.0 && len.is_finite() {
            // A unit component always fits f32.
            #[allow(clippy::cast_possible_truncation)]
            let unit = [
                (v[0] / len) as f32,
                (v[1] / len) as f32,
                (v[2] / len) as f32,
            ];
            unit
        } else {
            [0.0; 3]
        }
    }
}

/// `v / |v|`, or `v` itself when its length is zero or not finite.
///
/// The length is taken in f64, so vectors whose squared length would
/// overflow or underflow f32 still come out unit length.
pub fn normalize(v: [f32; 3]) -> [f32; 3] {
    let [x, y, z] = v.map(f64::from);
    let len = libm::sqrt(x * x + y * y + z * z);
    if len > 0.0 && len.is_finite() {
        // A unit component always fits f32.
        #[allow(clippy::cast_possible_truncation)]
        let unit = [(x / len) as f32, (y / len) as f32, (z / len) as f32];
        unit
    } else {
        v
    }
}

/// An axis-aligned bounding box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Smallest x, y, z.
    pub min: [f32; 3],
    /// Largest x, y, z.
    pub max: [f32; 3],
}

impl Aabb {
    /// The box around one point.
    pub const fn point(p: [f32; 3]) -> Self {
        Self { min: p, max: p }
    }

    /// The box grown to include `p`.
    pub fn with(self, p: [f32; 3]) -> Self {
        Self {
            min: [
                self.min[0].min(p[0]),
                self.min[1].min(p[1]),
                self.min[2].min(p[2]),
            ],
            max: [
                self.max[0].max(p[0]),
                self.max[1].max(p[1]),
                self.max[2].max(p[2]),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f32; 3], b: [f32; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    #[test]
    fn convention_1_plus_90_about_y_takes_plus_x_to_minus_z() {
        let m = Mat4::rotation_xyz([0.0, core::f32::consts::FRAC_PI_2, 0.0]);
        assert!(close(m.transform_point([1.0, 0.0, 0.0]), [0.0, 0.0, -1.0]));
    }

    #[test]
    fn x_is_applied_before_z() {
        // X then Z: +Y --X90--> +Z --Z90--> +Z (Z leaves the z axis alone).
        let h = core::f32::consts::FRAC_PI_2;
        let m = Mat4::rotation_xyz([h, 0.0, h]);
        assert!(close(m.transform_point([0.0, 1.0, 0.0]), [0.0, 0.0, 1.0]));
        // +X --X90--> +X --Z90--> +Y.
        assert!(close(m.transform_point([1.0, 0.0, 0.0]), [0.0, 1.0, 0.0]));
    }

    #[test]
    fn inverse_affine_undoes_the_matrix() {
        let node = NodeRecord {
            translation: [1.0, -2.0, 3.0],
            rotation: [0.3, -1.1, 2.0],
            scale: [2.0, 0.5, 1.5],
            ..NodeRecord::default()
        };
        let m = Mat4::local(&node);
        let p = [0.7, -0.2, 5.0];
        let back = m
            .inverse_affine()
            .unwrap()
            .transform_point(m.transform_point(p));
        assert!(close(back, p), "{back:?}");
        assert!(Mat4::scale([1.0, 0.0, 1.0]).inverse_affine().is_none());
    }

    #[test]
    fn normals_use_the_inverse_transpose() {
        // Squash y by 2: a 45° surface normal tilts towards y.
        let m = Mat4::scale([1.0, 0.5, 1.0]);
        let n = m.transform_normal([1.0, 1.0, 0.0]);
        let s = 1.0 / libm::sqrtf(5.0);
        assert!(close(n, [s, 2.0 * s, 0.0]), "{n:?}");
        // A mirror keeps normals pointing out of the mirrored surface.
        let n = Mat4::scale([-1.0, 1.0, 1.0]).transform_normal([1.0, 0.0, 0.0]);
        assert!(close(n, [-1.0, 0.0, 0.0]), "{n:?}");
    }

    #[test]
    fn segment_scale_compensation_undoes_the_parent_scale() {
        let parent = NodeRecord {
            scale: [2.0, 2.0, 2.0],
            ..NodeRecord::default()
        };
        let child = NodeRecord {
            translation: [1.0, 0.0, 0.0],
            scale: [1.0; 3],
            flags: crate::scene::NodeFlags::SEGMENT_SCALE_COMPENSATE,
            ..NodeRecord::default()
        };
        let world = Mat4::local(&parent).mul(&Mat4::local_under(&child, Some(&parent)));
        // The translation is scaled by the parent, the child's own axes are not.
        assert!(close(world.transform_point([0.0; 3]), [2.0, 0.0, 0.0]));
        assert!(close(
            world.transform_point([1.0, 0.0, 0.0]),
            [3.0, 0.0, 0.0]
        ));
    }

    #[test]
    fn local_turns_about_the_pivot() {
        let node = NodeRecord {
            rotation: [0.0, 0.0, core::f32::consts::PI],
            scale: [1.0; 3],
            pivot: [1.0, 0.0, 0.0],
            ..NodeRecord::default()
        };
        let m = Mat4::local(&node);
        assert!(close(m.transform_point([1.0, 0.0, 0.0]), [1.0, 0.0, 0.0]));
        assert!(close(m.transform_point([2.0, 0.0, 0.0]), [0.0, 0.0, 0.0]));
    }
}
