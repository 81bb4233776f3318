//! The little matrix math the scene needs: node local and world matrices, bounding boxes.
//!
//! Float math goes through `libm`, so results are the same with and without std.

use super::NodeRecord;

/// A 4×4 matrix, column-major (`m[column * 4 + row]`), acting on column vectors.
#[derive(Clone, Copy, Debug, PartialEq)]
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

    /// `self · rhs`.
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
