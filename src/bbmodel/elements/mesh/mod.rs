//! One Blockbench mesh element, from already-parsed numbers: placing its
//! vertices, triangulating its faces and shading them (loader specification,
//! "Supported" meshes, "Conversion" mesh elements and mesh faces, "Blockbench
//! conventions assumed" 1, 6, 7, 8 and 11).
//!
//! Nothing here reads JSON or allocates: the caller hands in positions and
//! owns every buffer. Everything is total: no input makes it panic, and
//! non-finite input only ever gives dropped faces or non-finite output.
//!
//! # Rules
//!
//! - Convention 6: "mesh vertices are in the mesh's local space; a vertex
//!   lands at origin + R · v", R from `rotation` in degrees, X applied first,
//!   then Y, then Z (convention 1, `R = Rz · Ry · Rx`; +90° about Y takes +X
//!   to −Z). See [`MeshTransform`].
//! - "3 vertices give one triangle; a quad is first put in Blockbench's vertex
//!   order and split along its 0–2 diagonal, or 1–3 when that one stays inside
//!   a concave quad; 5 to 16 vertices are ear-clipped, and a polygon that
//!   crosses itself falls back to a fan. Triangles wind counter-clockwise
//!   about the face normal (Newell's method over the vertex loop). Faces with
//!   fewer than 3 vertices or no area are dropped." See [`triangulate`].
//! - Convention 7: Blockbench's quad order is `MeshFace.getSortedVertices`;
//!   see [`quad_order`]. The front is counter-clockwise; the normal is
//!   (v1 − v0) × (v2 − v0); the plane primitive faces +Y.
//! - Convention 11: a smooth vertex normal is the plain average of
//!   `MeshFace.getNormal(true)` over the faces of 3 or more vertices that list
//!   the vertex key, normalised, then turned with the mesh. See
//!   [`blockbench_face_normal`], [`accumulate_face_normal`] and
//!   [`finish_smooth_normals`].
//!
//! # Readings of the specification
//!
//! - *"Across the line" in 3D.* Blockbench's `getSortedVertices` asks
//!   `test(base1, base2, top, check)`: it takes the foot of the perpendicular
//!   from `top` onto the infinite line through `base1` and `base2`, uses
//!   `foot − top` (unnormalised) as the normal of a plane through `base2`, and
//!   answers whether `check` lies strictly on the positive side
//!   (`distance > 0`). So "across" means: beyond the plane that contains the
//!   line and is perpendicular to the direction from `top` to the line. That
//!   works for non-planar quads too. A degenerate line (`base1 == base2`)
//!   gives NaN there and so "not across"; `top` on the line gives a zero
//!   normal, distance 0, and "not across". [`quad_order`] repeats those
//!   steps operation for operation in `f64`, so for positions that `f32`
//!   holds exactly (Blockbench's usual integers and binary fractions) it
//!   decides as Blockbench does.
//! - *The face normal.* A face's normal, the one its triangles wind about and
//!   the one flat shading gives every vertex, is the unit Newell normal of its
//!   loop: the stored order, or Blockbench's order for a quad. For a planar
//!   convex face it equals Blockbench's `getNormal(true)`.
//! - *Smooth shading* averages [`blockbench_face_normal`], which is
//!   `getNormal(true)` for 3 and 4 vertices. Blockbench does not draw faces
//!   of 5 or more vertices (convention 8), so for those it is the unit Newell
//!   normal of the face as this module draws it. A face without area adds zero to the
//!   average, as in Blockbench.
//! - *Where the smooth average vanishes* (the faces listing a key cancel out),
//!   [`finish_smooth_normals`] leaves zero and the caller gives that vertex its
//!   face's flat normal, because scene normals are unit length.
//! - *No area* means a Newell normal no longer than 10⁻¹² of the square of the
//!   face's extent (its largest coordinate distance from the loop's first
//!   vertex): exact zero up to `f64` rounding of `f32` input.
//! - *Self-crossing* means two non-adjacent edges of the loop, projected onto
//!   the plane of the Newell normal, properly cross. A polygon that only
//!   touches itself is ear-clipped, and falls back to the fan too where it
//!   runs out of ears (an ear here holds no other vertex, even on its edges;
//!   a vertex without turn is clipped as a triangle without area). The fan
//!   is (0, i, i + 1), each triangle turned counter-clockwise about the face
//!   normal where it is clockwise, so every triangle of every face winds
//!   counter-clockwise or has no area; a quad's fan is its 0–2 split.
//! - *Triangle count*: every face that is not dropped gives exactly k − 2
//!   triangles, the spec's upper bound, some without area where vertices are
//!   collinear or the fan passes a crossing.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use core::f64::consts::PI;
use core::fmt;

/// The most vertices one mesh face may have: room for `maxFaceVertices`
/// overrides up to 64 (the spec's default is 16).
pub const MAX_FACE_VERTICES: usize = 64;

/// The most triangles one face gives: k − 2 for k = [`MAX_FACE_VERTICES`].
pub const MAX_FACE_TRIANGLES: usize = MAX_FACE_VERTICES - 2;

/// A face is without area when its Newell normal is at most this times the
/// square of its extent.
const AREA_TOLERANCE: f64 = 1e-12;

type V3 = [f64; 3];
type V2 = [f64; 2];

/// Why a call was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeshError {
    /// A face has more than [`MAX_FACE_VERTICES`] vertices.
    TooManyVertices {
        /// The face's vertex count.
        count: usize,
    },
    /// A vertex key index is past the end of the caller's accumulator.
    KeyOutOfRange {
        /// The offending key index.
        key: u32,
    },
}

impl fmt::Display for MeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::TooManyVertices { count } => write!(
                f,
                "mesh face has {count} vertices, more than {MAX_FACE_VERTICES}"
            ),
            Self::KeyOutOfRange { key } => {
                write!(f, "vertex key index {key} is outside the normal table")
            }
        }
    }
}

pub(in crate::bbmodel) mod faces;
pub(in crate::bbmodel) mod keys;
mod normals;
mod transform;
mod triangulate;
pub(in crate::bbmodel) mod vertex_count;

pub use normals::{accumulate_face_normal, blockbench_face_normal, finish_smooth_normals};
pub use transform::{MeshTransform, mesh_transform};
pub use triangulate::{Split, Triangulation, quad_order, triangle_count, triangulate};

pub(in crate::bbmodel) fn widen(p: [f32; 3]) -> V3 {
    p.map(f64::from)
}

/// Rounds to the nearest `f32`: every value here is a coordinate or a unit
/// vector component, well inside `f32` range.
#[allow(clippy::cast_possible_truncation)]
pub(in crate::bbmodel) fn narrow3(p: V3) -> [f32; 3] {
    p.map(|x| x as f32)
}

pub(in crate::bbmodel) fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub(in crate::bbmodel) fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(in crate::bbmodel) fn scale(a: V3, s: f64) -> V3 {
    a.map(|x| x * s)
}

pub(in crate::bbmodel) fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(in crate::bbmodel) fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `a` divided by its length, as Blockbench's
/// `Math.sqrt(x * x + y * y + z * z)`; `None` when that is zero or not finite.
pub(in crate::bbmodel) fn unit(a: V3) -> Option<V3> {
    let length = libm::sqrt(dot(a, a));
    let usable = length > 0.0 && length.is_finite();
    usable.then(|| a.map(|x| x / length))
}

pub(in crate::bbmodel) fn mat_mul(a: &[V3; 3], b: &[V3; 3]) -> [V3; 3] {
    a.map(|row| {
        [
            row[0] * b[0][0] + row[1] * b[1][0] + row[2] * b[2][0],
            row[0] * b[0][1] + row[1] * b[1][1] + row[2] * b[2][1],
            row[0] * b[0][2] + row[1] * b[1][2] + row[2] * b[2][2],
        ]
    })
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation)]
mod tests;
