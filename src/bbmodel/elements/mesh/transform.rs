//! Where a mesh's local vertices land (convention 6): origin + R · v, with R
//! from the rotation in degrees, X first, then Y, then Z.

use super::*;

/// Where a mesh element's local space lands (convention 6): a vertex `v`
/// lands at `origin + R · v`, with `R = Rz · Ry · Rx` from `rotation` in
/// degrees, X applied first, then Y, then Z (convention 1; +90° about Y takes
/// +X to −Z).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshTransform {
    origin: V3,
    rotation: [V3; 3],
}

/// The placement of a mesh element from its `origin` and `rotation`
/// (degrees), as stored in the file (convention 6).
#[must_use]
pub fn mesh_transform(origin: [f32; 3], rotation_deg: [f32; 3]) -> MeshTransform {
    MeshTransform::new(origin, rotation_deg)
}

impl MeshTransform {
    /// The placement of a mesh element from its `origin` and `rotation`
    /// (degrees), as stored in the file (convention 6).
    #[must_use]
    pub fn new(origin: [f32; 3], rotation_deg: [f32; 3]) -> Self {
        let [x, y, z] = rotation_deg.map(|d| sin_cos_deg(f64::from(d)));
        let rx = [[1.0, 0.0, 0.0], [0.0, x.1, -x.0], [0.0, x.0, x.1]];
        let ry = [[y.1, 0.0, y.0], [0.0, 1.0, 0.0], [-y.0, 0.0, y.1]];
        let rz = [[z.1, -z.0, 0.0], [z.0, z.1, 0.0], [0.0, 0.0, 1.0]];
        Self {
            origin: widen(origin),
            rotation: mat_mul(&mat_mul(&rz, &ry), &rx),
        }
    }

    /// Where the local vertex `v` lands: `origin + R · v` ("a vertex lands at
    /// origin + R · v", convention 6).
    #[must_use]
    pub fn place(&self, v: [f32; 3]) -> [f32; 3] {
        narrow3(add(self.origin, self.turn_wide(widen(v))))
    }

    /// A direction turned with the mesh: `R · n` (no translation).
    #[must_use]
    pub fn turn(&self, n: [f32; 3]) -> [f32; 3] {
        narrow3(self.turn_wide(widen(n)))
    }

    /// The rotation matrix `R = Rz · Ry · Rx`, row by row.
    #[must_use]
    pub fn rotation_rows(&self) -> [[f32; 3]; 3] {
        self.rotation.map(narrow3)
    }

    pub(super) fn turn_wide(&self, n: V3) -> V3 {
        self.rotation.map(|row| dot(row, n))
    }
}

/// Sine and cosine of an angle in degrees, exact at multiples of 90°: the
/// angle is reduced to [−45°, 45°] plus whole quarter turns first.
pub(super) fn sin_cos_deg(deg: f64) -> (f64, f64) {
    let reduced = libm::remainder(deg, 360.0);
    let quarters = libm::round(reduced / 90.0);
    let rest = (reduced - 90.0 * quarters) * (PI / 180.0);
    let (s, c) = (libm::sin(rest), libm::cos(rest));
    if quarters == 1.0 {
        (c, -s)
    } else if quarters == -1.0 {
        (-c, s)
    } else if quarters == 2.0 || quarters == -2.0 {
        (-s, -c)
    } else {
        (s, c)
    }
}
