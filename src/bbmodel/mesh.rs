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

/// How a face was cut into triangles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Fewer than 3 vertices, or no area: no triangles.
    Dropped,
    /// Three vertices: one triangle.
    Triangle,
    /// A quad split along the 0–2 diagonal of Blockbench's order.
    Diagonal02,
    /// A concave quad split along the 1–3 diagonal of Blockbench's order,
    /// the one that stays inside.
    Diagonal13,
    /// A simple polygon of 5 or more vertices, ear-clipped.
    EarClipped,
    /// A polygon that crosses itself (or, touching itself, runs out of
    /// ears): a fan from its first vertex, each triangle turned
    /// counter-clockwise about the face normal.
    Fan,
}

/// What [`triangulate`] made of one face.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Triangulation {
    /// Triangles written to the front of the output array.
    pub count: usize,
    /// The unit Newell normal of the face's loop (the face normal, in the
    /// mesh's local space), or zero when the face is dropped.
    pub normal: [f32; 3],
    /// How the face was split.
    pub split: Split,
}

impl Triangulation {
    const DROPPED: Self = Self {
        count: 0,
        normal: [0.0; 3],
        split: Split::Dropped,
    };

    /// Whether the face gives no triangles (fewer than 3 vertices, or no
    /// area).
    #[must_use]
    pub fn is_dropped(&self) -> bool {
        self.split == Split::Dropped
    }
}

/// Triangulates one mesh face.
///
/// `positions` are the face's vertices in the order the file lists them (any
/// one space: the mesh's local space is the usual one). Triangles are written
/// to the front of `out` as indices into `positions`, each counter-clockwise
/// about the returned normal:
///
/// - "3 vertices give one triangle."
/// - "A quad is first put in Blockbench's vertex order" ([`quad_order`]) "and
///   split along its 0–2 diagonal, or 1–3 when that one stays inside a
///   concave quad."
/// - "5 to 16 vertices are ear-clipped" in the plane of the Newell normal,
///   "and a polygon that crosses itself falls back to a fan."
/// - "Faces with fewer than 3 vertices or no area are dropped."
///
/// Every face of k vertices that is not dropped gives exactly k − 2
/// triangles (some without area where vertices are collinear), so `out`
/// always has room. Ear clipping is O(k³) at most.
///
/// # Errors
///
/// [`MeshError::TooManyVertices`] for more than [`MAX_FACE_VERTICES`]
/// vertices; `out` is then untouched.
pub fn triangulate(
    positions: &[[f32; 3]],
    out: &mut [[u8; 3]; MAX_FACE_TRIANGLES],
) -> Result<Triangulation, MeshError> {
    let k = positions.len();
    if k > MAX_FACE_VERTICES {
        return Err(MeshError::TooManyVertices { count: k });
    }
    if k < 3 {
        return Ok(Triangulation::DROPPED);
    }
    // Most faces are triangles and quads: their scratch is four points, not
    // sixty-four (2.5 KiB to clear per face); n-gons rarely pass sixteen.
    if k <= 4 {
        split_loop::<4>(positions, out)
    } else if k <= 16 {
        split_loop::<16>(positions, out)
    } else {
        split_loop::<MAX_FACE_VERTICES>(positions, out)
    }
}

/// How many triangles [`triangulate`] gives for `positions` (k − 2, or 0 for
/// a dropped face), without splitting the face: only the loop and its plane
/// are computed, which is all that decides the count.
///
/// # Errors
///
/// [`MeshError::TooManyVertices`] as for [`triangulate`].
pub fn triangle_count(positions: &[[f32; 3]]) -> Result<usize, MeshError> {
    let k = positions.len();
    if k > MAX_FACE_VERTICES {
        return Err(MeshError::TooManyVertices { count: k });
    }
    if k < 3 {
        return Ok(0);
    }
    let plane = if k <= 4 {
        FaceLoop::<4>::of(positions).plane
    } else if k <= 16 {
        FaceLoop::<16>::of(positions).plane
    } else {
        FaceLoop::<MAX_FACE_VERTICES>::of(positions).plane
    };
    Ok(if plane.is_some() { k - 2 } else { 0 })
}

/// A face's loop, widened: its vertex order (the stored one, or
/// Blockbench's for a quad), its points in that order, and their plane
/// (`None`: the face has no area and is dropped).
struct FaceLoop<const N: usize> {
    order: [u8; N],
    points: [V3; N],
    plane: Option<Plane>,
}

impl<const N: usize> FaceLoop<N> {
    /// The loop of 3 to `N` positions.
    fn of(positions: &[[f32; 3]]) -> Self {
        let k = positions.len();
        let mut order = [0u8; N];
        for (slot, i) in order.iter_mut().zip(0u8..) {
            *slot = i;
        }
        if let Ok(quad) = <&[[f32; 3]; 4]>::try_from(positions) {
            for (slot, i) in order.iter_mut().zip(quad_loop(quad)) {
                *slot = i;
            }
        }
        let mut points = [[0.0f64; 3]; N];
        for (point, &i) in points.iter_mut().zip(order.iter()).take(k) {
            *point = widen(positions.get(usize::from(i)).copied().unwrap_or_default());
        }
        let plane = Plane::of(points.get(..k).unwrap_or_default());
        Self {
            order,
            points,
            plane,
        }
    }
}

/// [`triangulate`] of 3 to `N` positions, with scratch for `N`.
fn split_loop<const N: usize>(
    positions: &[[f32; 3]],
    out: &mut [[u8; 3]; MAX_FACE_TRIANGLES],
) -> Result<Triangulation, MeshError> {
    let k = positions.len();
    let FaceLoop {
        order,
        points,
        plane,
    } = FaceLoop::<N>::of(positions);
    let Some(plane) = plane else {
        return Ok(Triangulation::DROPPED);
    };
    let points = points.get(..k).unwrap_or_default();
    let mut flat = [[0.0f64; 2]; N];
    for (q, &p) in flat.iter_mut().zip(points) {
        *q = plane.project(p);
    }
    let tol = plane.tolerance;

    // k − 2 triangles at most, fewer than N.
    let mut tris = [[0u8; 3]; N];
    let (count, split) = if k == 3 {
        tris[0] = [0, 1, 2];
        (1, Split::Triangle)
    } else if crosses_itself(&flat, k, tol) {
        (fan(&flat, k, &mut tris), Split::Fan)
    } else if k == 4 {
        // Concave at loop vertex 1 or 3: the 0–2 diagonal runs outside.
        let reflex_1 = orient(at(&flat, 0), at(&flat, 1), at(&flat, 2)) < -tol;
        let reflex_3 = orient(at(&flat, 2), at(&flat, 3), at(&flat, 0)) < -tol;
        if reflex_1 || reflex_3 {
            tris[0] = [1, 2, 3];
            tris[1] = [1, 3, 0];
            (2, Split::Diagonal13)
        } else {
            tris[0] = [0, 1, 2];
            tris[1] = [0, 2, 3];
            (2, Split::Diagonal02)
        }
    } else if let Some(count) = ear_clip(&flat, k, tol, &mut tris) {
        (count, Split::EarClipped)
    } else {
        (fan(&flat, k, &mut tris), Split::Fan)
    };

    for (slot, tri) in out.iter_mut().zip(tris.iter()).take(count) {
        *slot = tri.map(|i| at(&order, usize::from(i)));
    }
    Ok(Triangulation {
        count,
        normal: narrow3(plane.normal),
        split,
    })
}

/// Blockbench's vertex order of a quad (convention 7, `MeshFace.getSortedVertices`):
/// "if vertex 3 lies across the line 1–2 from vertex 0 the loop is 2, 0, 1, 3;
/// else if it lies across the line 0–1 from vertex 2 it is 0, 2, 1, 3; else the
/// stored order." Blockbench draws (0, 1, 2) and (0, 2, 3) of that loop.
///
/// Returns indices into `p`. "Across" is decided in 3D exactly as Blockbench
/// does (see the module documentation): `check` is across the line
/// `base1`–`base2` from `top` when it lies strictly beyond the plane through
/// the line whose normal points from `top` to its foot on the line.
#[must_use]
pub fn quad_order(p: &[[f32; 3]; 4]) -> [usize; 4] {
    quad_loop(p).map(usize::from)
}

fn quad_loop(p: &[[f32; 3]; 4]) -> [u8; 4] {
    let [v0, v1, v2, v3] = p.map(widen);
    if across(v1, v2, v0, v3) {
        [2, 0, 1, 3]
    } else if across(v0, v1, v2, v3) {
        [0, 2, 1, 3]
    } else {
        [0, 1, 2, 3]
    }
}

/// Blockbench's `test(base1, base2, top, check)`, step by step: three.js
/// `Line3.closestPointToPoint(top, false)`, minus `top`, as the unnormalised
/// normal of `Plane.setFromNormalAndCoplanarPoint(normal, base2)`, then
/// `distanceToPoint(check) > 0`.
fn across(base1: V3, base2: V3, top: V3, check: V3) -> bool {
    let start_p = sub(top, base1);
    let start_end = sub(base2, base1);
    let t = dot(start_end, start_p) / dot(start_end, start_end);
    let foot = add(scale(start_end, t), base1);
    let normal = sub(foot, top);
    let constant = -dot(base2, normal);
    // NaN (a degenerate line) compares false, as in JavaScript.
    dot(normal, check) + constant > 0.0
}

/// `MeshFace.getNormal(true)` (convention 11): the unit
/// (s1 − s0) × (s2 − s0) of the face's Blockbench vertex order `s` (the stored
/// order for a triangle, [`quad_order`] for a quad), or zero where that has
/// no length, as Blockbench's `dir / length || 0` gives.
///
/// `positions` are in stored order. Fewer than 3 vertices give zero, as in
/// Blockbench. For 5 or more vertices, faces Blockbench does not draw
/// (convention 8), it is the unit Newell normal of the stored loop, the normal
/// [`triangulate`] gives them.
#[must_use]
pub fn blockbench_face_normal(positions: &[[f32; 3]]) -> [f32; 3] {
    let corners = match positions {
        [a, b, c] => [*a, *b, *c],
        [a, b, c, d] => {
            let quad = [*a, *b, *c, *d];
            let [s0, s1, s2, _] =
                quad_loop(&quad).map(|i| quad.get(usize::from(i)).copied().unwrap_or_default());
            [s0, s1, s2]
        }
        _ if positions.len() < 3 => return [0.0; 3],
        _ => {
            let mut sum = [0.0f64; 3];
            let first = positions.first().copied().map(widen).unwrap_or_default();
            for (a, b) in positions.iter().zip(positions.iter().cycle().skip(1)) {
                sum = add(sum, cross(sub(widen(*a), first), sub(widen(*b), first)));
            }
            return narrow3(unit(sum).unwrap_or_default());
        }
    };
    let [s0, s1, s2] = corners.map(widen);
    narrow3(unit(cross(sub(s1, s0), sub(s2, s0))).unwrap_or_default())
}

/// Adds one face's unit normal ([`blockbench_face_normal`]) to the running
/// sum of every vertex key it lists (convention 11: "per vertex key, the
/// average of MeshFace.getNormal(true) over faces with more than 2 vertices
/// that list the key; no area or angle weighting").
///
/// `acc` is the caller's table, one entry per vertex key of the mesh, zeroed
/// before the first face; `keys` are the face's vertex key indices into it.
/// Call it for every face of 3 or more vertices, dropped ones included (their
/// zero normal adds nothing, as in Blockbench), then
/// [`finish_smooth_normals`]. Dividing by the face count is left out: the
/// average is normalised, so only its direction counts.
///
/// # Errors
///
/// [`MeshError::KeyOutOfRange`] when a key is past the end of `acc`; `acc` is
/// then unchanged.
pub fn accumulate_face_normal(
    acc: &mut [[f32; 3]],
    keys: &[u32],
    normal: [f32; 3],
) -> Result<(), MeshError> {
    let len = acc.len();
    if let Some(&key) = keys
        .iter()
        .find(|&&key| usize::try_from(key).map_or(true, |i| i >= len))
    {
        return Err(MeshError::KeyOutOfRange { key });
    }
    for &key in keys {
        if let Some(sum) = usize::try_from(key).ok().and_then(|i| acc.get_mut(i)) {
            for (s, n) in sum.iter_mut().zip(normal) {
                *s += n;
            }
        }
    }
    Ok(())
}

/// Turns the sums of [`accumulate_face_normal`] into smooth vertex normals in
/// place: each is normalised, "then turned with the mesh" (convention 11), so
/// it is a unit vector in the space [`MeshTransform::place`] puts positions
/// in.
///
/// An entry whose sum has no length (no face lists the key, or the faces that
/// do cancel out) becomes zero; the caller gives such a vertex its face's flat
/// normal, `transform.turn(triangulation.normal)`.
pub fn finish_smooth_normals(acc: &mut [[f32; 3]], transform: &MeshTransform) {
    for entry in acc.iter_mut() {
        *entry = match unit(widen(*entry)) {
            Some(n) => narrow3(transform.turn_wide(n)),
            None => [0.0; 3],
        };
    }
}

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

    fn turn_wide(&self, n: V3) -> V3 {
        self.rotation.map(|row| dot(row, n))
    }
}

/// Sine and cosine of an angle in degrees, exact at multiples of 90°: the
/// angle is reduced to [−45°, 45°] plus whole quarter turns first.
fn sin_cos_deg(deg: f64) -> (f64, f64) {
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

/// The plane of a face's loop: its unit Newell normal, an in-plane basis with
/// `u × v = normal`, and the tolerance for "no area" and orientation tests.
struct Plane {
    origin: V3,
    normal: V3,
    u: V3,
    v: V3,
    tolerance: f64,
}

impl Plane {
    /// `None` when the loop has no area (its Newell normal is zero up to the
    /// tolerance) or is not finite.
    fn of(points: &[V3]) -> Option<Self> {
        let origin = points.first().copied()?;
        let mut newell = [0.0f64; 3];
        let mut extent = 0.0f64;
        for (a, b) in points.iter().zip(points.iter().cycle().skip(1)) {
            let (da, db) = (sub(*a, origin), sub(*b, origin));
            newell = add(newell, cross(da, db));
            for d in da {
                extent = extent.max(libm::fabs(d));
            }
        }
        let tolerance = AREA_TOLERANCE * extent * extent;
        let length = libm::sqrt(dot(newell, newell));
        let has_area = length > tolerance && length.is_finite();
        if !has_area {
            return None;
        }
        let normal = scale(newell, 1.0 / length);
        // Cross with the axis the normal leans on least.
        let [ax, ay, az] = normal.map(libm::fabs);
        let axis = if ax <= ay && ax <= az {
            [1.0, 0.0, 0.0]
        } else if ay <= az {
            [0.0, 1.0, 0.0]
        } else {
            [0.0, 0.0, 1.0]
        };
        let u = unit(cross(axis, normal))?;
        let v = cross(normal, u);
        Some(Self {
            origin,
            normal,
            u,
            v,
            tolerance,
        })
    }

    fn project(&self, p: V3) -> V2 {
        let d = sub(p, self.origin);
        [dot(d, self.u), dot(d, self.v)]
    }
}

/// Twice the signed area of triangle (a, b, c) in the plane: positive when
/// counter-clockwise about the face normal.
fn orient(a: V2, b: V2, c: V2) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// Slot `i` of a face-sized array; every caller passes `i` below `N`.
fn at<T: Copy + Default, const N: usize>(array: &[T; N], i: usize) -> T {
    array.get(i).copied().unwrap_or_default()
}

fn next(i: usize, len: usize) -> usize {
    if i + 1 >= len { 0 } else { i + 1 }
}

/// Whether two non-adjacent edges of the loop of `len` points properly
/// cross (each strictly separates the other's ends).
fn crosses_itself<const N: usize>(points: &[V2; N], len: usize, tol: f64) -> bool {
    let separates = |a: V2, b: V2, c: V2, d: V2| {
        let (oc, od) = (orient(a, b, c), orient(a, b, d));
        (oc > tol && od < -tol) || (oc < -tol && od > tol)
    };
    for i in 0..len {
        let (a, b) = (at(points, i), at(points, next(i, len)));
        // Edges i and j (j > i + 1) are adjacent only for i = 0, j = len − 1.
        for j in i + 2..len {
            if i == 0 && j + 1 == len {
                continue;
            }
            let (c, d) = (at(points, j), at(points, next(j, len)));
            if separates(a, b, c, d) && separates(c, d, a, b) {
                return true;
            }
        }
    }
    false
}

/// The fan (0, i, i + 1) of a loop that crosses itself, each triangle turned
/// counter-clockwise about the face normal where it is clockwise.
fn fan<const N: usize>(points: &[V2; N], len: usize, tris: &mut [[u8; 3]; N]) -> usize {
    let mut count = 0;
    for (slot, i) in tris.iter_mut().zip(1u8..).take(len.saturating_sub(2)) {
        let j = i + 1;
        let clockwise = orient(
            at(points, 0),
            at(points, usize::from(i)),
            at(points, usize::from(j)),
        ) < 0.0;
        *slot = if clockwise { [0, j, i] } else { [0, i, j] };
        count += 1;
    }
    count
}

/// The loop's remaining vertices as a doubly linked ring of loop indices.
struct Ring<const N: usize> {
    next: [u8; N],
    prev: [u8; N],
}

impl<const N: usize> Ring<N> {
    fn new(len: usize) -> Self {
        let mut ring = Self {
            next: [0; N],
            prev: [0; N],
        };
        let last = len.saturating_sub(1);
        for (i, (n, p)) in (0u8..)
            .zip(ring.next.iter_mut().zip(ring.prev.iter_mut()))
            .take(len)
        {
            let index = usize::from(i);
            *n = if index >= last { 0 } else { i + 1 };
            *p = if index == 0 {
                u8::try_from(last).unwrap_or(0)
            } else {
                i - 1
            };
        }
        ring
    }

    fn next(&self, i: u8) -> u8 {
        at(&self.next, usize::from(i))
    }

    fn prev(&self, i: u8) -> u8 {
        at(&self.prev, usize::from(i))
    }

    fn remove(&mut self, i: u8) {
        let (p, n) = (self.prev(i), self.next(i));
        if let Some(slot) = self.next.get_mut(usize::from(p)) {
            *slot = n;
        }
        if let Some(slot) = self.prev.get_mut(usize::from(n)) {
            *slot = p;
        }
    }
}

/// Ear clipping of a simple loop of `len` ≥ 4 points, counter-clockwise in
/// the plane: k − 2 triangles, each counter-clockwise or (at a vertex without
/// turn) without area. A convex loop gives the fan (0, i, i + 1). `None` when
/// the loop runs out of ears, which only a loop that touches or overlaps
/// itself does; the caller then takes the fan.
fn ear_clip<const N: usize>(
    points: &[V2; N],
    len: usize,
    tol: f64,
    tris: &mut [[u8; 3]; N],
) -> Option<usize> {
    let mut ring = Ring::<N>::new(len);
    let mut remaining = len;
    let mut start = 1u8;
    let mut count = 0;
    for slot in tris.iter_mut() {
        if remaining < 3 {
            break;
        }
        let ear = if remaining == 3 {
            start
        } else {
            find_ear(points, &ring, remaining, start, tol)?
        };
        let (p, n) = (ring.prev(ear), ring.next(ear));
        let pt = |i: u8| at(points, usize::from(i));
        if orient(pt(p), pt(ear), pt(n)) < -tol {
            // Only the last triangle of a loop that overlaps itself.
            return None;
        }
        *slot = [p, ear, n];
        count += 1;
        ring.remove(ear);
        remaining -= 1;
        start = n;
    }
    Some(count)
}

/// The vertex to clip next, searching from `start`: a convex vertex whose
/// triangle holds no other remaining vertex (inside or on its edges), else a
/// vertex without turn (its triangle has no area). O(k²).
fn find_ear<const N: usize>(
    points: &[V2; N],
    ring: &Ring<N>,
    remaining: usize,
    start: u8,
    tol: f64,
) -> Option<u8> {
    let pt = |i: u8| at(points, usize::from(i));
    let turn = |i: u8| orient(pt(ring.prev(i)), pt(i), pt(ring.next(i)));
    let is_ear = |i: u8| {
        let (p, n) = (ring.prev(i), ring.next(i));
        let (a, b, c) = (pt(p), pt(i), pt(n));
        let mut other = ring.next(n);
        for _ in 3..remaining {
            let q = pt(other);
            let inside =
                orient(a, b, q) >= -tol && orient(b, c, q) >= -tol && orient(c, a, q) >= -tol;
            if inside {
                return false;
            }
            other = ring.next(other);
        }
        true
    };
    let search = |accept: &dyn Fn(u8) -> bool| {
        let mut i = start;
        for _ in 0..remaining {
            if accept(i) {
                return Some(i);
            }
            i = ring.next(i);
        }
        None
    };
    search(&|i| turn(i) > tol && is_ear(i)).or_else(|| search(&|i| libm::fabs(turn(i)) <= tol))
}

fn widen(p: [f32; 3]) -> V3 {
    p.map(f64::from)
}

/// Rounds to the nearest `f32`: every value here is a coordinate or a unit
/// vector component, well inside `f32` range.
#[allow(clippy::cast_possible_truncation)]
fn narrow3(p: V3) -> [f32; 3] {
    p.map(|x| x as f32)
}

fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn scale(a: V3, s: f64) -> V3 {
    a.map(|x| x * s)
}

fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `a` divided by its length, as Blockbench's
/// `Math.sqrt(x * x + y * y + z * z)`; `None` when that is zero or not finite.
fn unit(a: V3) -> Option<V3> {
    let length = libm::sqrt(dot(a, a));
    let usable = length > 0.0 && length.is_finite();
    usable.then(|| a.map(|x| x / length))
}

fn mat_mul(a: &[V3; 3], b: &[V3; 3]) -> [V3; 3] {
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
mod tests {
    use super::*;
    use std::vec::Vec;

    type P = [f32; 3];

    fn w(p: P) -> V3 {
        widen(p)
    }

    /// Triangulates and returns the triangles as a vector.
    fn run(positions: &[P]) -> (Triangulation, Vec<[u8; 3]>) {
        let mut out = [[0u8; 3]; MAX_FACE_TRIANGLES];
        let t = triangulate(positions, &mut out).expect("at most 16 vertices");
        (t, out.iter().take(t.count).copied().collect())
    }

    /// The triangle's vector area times two, from the positions as given.
    fn tri_cross(positions: &[P], t: [u8; 3]) -> V3 {
        let [a, b, c] = t.map(|i| w(positions[usize::from(i)]));
        cross(sub(b, a), sub(c, a))
    }

    /// Newell's method over `loop_` (indices into `positions`), times two.
    fn newell_of(positions: &[P], loop_: &[usize]) -> V3 {
        let mut n = [0.0; 3];
        let o = w(positions[loop_[0]]);
        for (i, &a) in loop_.iter().enumerate() {
            let b = loop_[(i + 1) % loop_.len()];
            n = add(n, cross(sub(w(positions[a]), o), sub(w(positions[b]), o)));
        }
        n
    }

    /// The loop `triangulate` works on: Blockbench's order for a quad.
    fn loop_of(positions: &[P]) -> Vec<usize> {
        match <&[P; 4]>::try_from(positions) {
            Ok(quad) => quad_order(quad).to_vec(),
            Err(_) => (0..positions.len()).collect(),
        }
    }

    fn len(a: V3) -> f64 {
        libm::sqrt(dot(a, a))
    }

    fn close(a: [f32; 3], b: [f32; 3], eps: f32) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() <= eps)
    }

    /// Every triangle of the face winds counter-clockwise about the Newell
    /// normal of its loop, which is the returned normal, or has no area at
    /// all; returns the summed triangle areas (times two).
    fn check_ccw(positions: &[P]) -> f64 {
        let (t, tris) = run(positions);
        let newell = newell_of(positions, &loop_of(positions));
        let n = scale(newell, 1.0 / len(newell));
        assert!(close(t.normal, narrow3(n), 1e-5), "{t:?} vs {n:?}");
        let mut area = 0.0;
        for &tri in &tris {
            let c = tri_cross(positions, tri);
            assert!(
                dot(c, n) > 0.0 || c == [0.0; 3],
                "{positions:?}: {tri:?} winds {c:?} against {n:?}"
            );
            area += len(c);
        }
        area
    }

    /// Whether 2D point `p` lies inside polygon `poly` (even-odd rule).
    fn inside(poly: &[[f64; 2]], p: [f64; 2]) -> bool {
        let mut inside = false;
        for (i, a) in poly.iter().enumerate() {
            let b = poly[(i + 1) % poly.len()];
            if (a[1] > p[1]) != (b[1] > p[1]) {
                let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
                if p[0] < x {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// Whether the closed 2D loop has two non-adjacent edges that cross.
    fn loop_crosses(poly: &[[f64; 2]]) -> bool {
        let o = |a: [f64; 2], b: [f64; 2], c: [f64; 2]| orient(a, b, c);
        let m = poly.len();
        for i in 0..m {
            for j in i + 2..m {
                if i == 0 && j == m - 1 {
                    continue;
                }
                let (a, b, c, d) = (poly[i], poly[(i + 1) % m], poly[j], poly[(j + 1) % m]);
                if o(a, b, c) * o(a, b, d) < 0.0 && o(c, d, a) * o(c, d, b) < 0.0 {
                    return true;
                }
            }
        }
        false
    }

    fn xy(points: &[[f64; 2]]) -> Vec<P> {
        points
            .iter()
            .map(|p| [p[0] as f32, p[1] as f32, 0.0])
            .collect()
    }

    /// Blockbench's default mesh cube (`new Mesh({})`): its vertices and
    /// faces as its constructor adds them.
    fn default_cube() -> [[P; 4]; 6] {
        let v: [P; 8] = [
            [2., 4., 2.],
            [2., 4., -2.],
            [2., 0., 2.],
            [2., 0., -2.],
            [-2., 4., 2.],
            [-2., 4., -2.],
            [-2., 0., 2.],
            [-2., 0., -2.],
        ];
        [
            [v[0], v[2], v[1], v[3]], // east
            [v[4], v[5], v[6], v[7]], // west
            [v[0], v[1], v[4], v[5]], // up
            [v[2], v[6], v[3], v[7]], // down
            [v[0], v[4], v[2], v[6]], // south
            [v[1], v[3], v[5], v[7]], // north
        ]
    }

    /// `triangle_count` is what `triangulate` counts, on faces of every size
    /// and shape: random, collinear, repeated and crossing points.
    #[test]
    fn triangle_count_is_what_triangulate_counts() {
        let mut rng = crate::test_rng::XorShift(0x5851_F42D_4C95_7F2Du64);
        let mut next = |m: u64| rng.below(m);
        let mut dropped = 0;
        for round in 0..20_000 {
            let k = (next(20)) as usize;
            let positions: Vec<P> = (0..k)
                .map(|_| match round % 4 {
                    // On one line: no area.
                    0 => {
                        let t = next(9) as f32;
                        [t, 2.0 * t, 0.0]
                    }
                    // A small grid: repeats and collinear runs.
                    1 => [next(3) as f32, next(3) as f32, 0.0],
                    _ => [next(100) as f32, next(100) as f32, next(3) as f32],
                })
                .collect();
            let count = triangle_count(&positions);
            let mut out = [[0u8; 3]; MAX_FACE_TRIANGLES];
            match triangulate(&positions, &mut out) {
                Ok(t) => {
                    assert_eq!(count, Ok(t.count), "{positions:?}");
                    dropped += usize::from(t.count == 0 && k >= 3);
                }
                Err(e) => assert_eq!(count, Err(e)),
            }
        }
        assert!(dropped > 100, "degenerate faces were tried ({dropped})");
        let many = [[0.0f32; 3]; MAX_FACE_VERTICES + 1];
        assert!(triangle_count(&many).is_err());
    }

    #[test]
    fn convention_7_quad_stored_out_of_order_becomes_a_simple_loop() {
        // The default cube's east face is stored as a bow tie.
        let east = default_cube()[0];
        let order = quad_order(&east);
        assert_eq!(order, [2, 0, 1, 3]);
        let (t, tris) = run(&east);
        assert_eq!((t.count, t.split), (2, Split::Diagonal02));
        assert_eq!(tris, [[2, 0, 1], [2, 1, 3]]);
        assert_eq!(t.normal, [1.0, 0.0, 0.0]);
        assert_eq!(check_ccw(&east), 2.0 * 16.0);

        // Both bow ties of a square become the square; a simple loop stays.
        let [a, b, c, d]: [P; 4] = [[0., 0., 0.], [1., 0., 0.], [1., 1., 0.], [0., 1., 0.]];
        assert_eq!(quad_order(&[a, b, c, d]), [0, 1, 2, 3]);
        assert_eq!(quad_order(&[a, c, b, d]), [0, 2, 1, 3]);
        assert_eq!(quad_order(&[a, b, d, c]), [2, 0, 1, 3]);
        for quad in [[a, b, c, d], [a, c, b, d], [a, b, d, c]] {
            let order = quad_order(&quad);
            let flat: Vec<[f64; 2]> = order
                .iter()
                .map(|&i| [f64::from(quad[i][0]), f64::from(quad[i][1])])
                .collect();
            assert!(!loop_crosses(&flat), "{quad:?}");
            assert_eq!(check_ccw(&quad), 2.0);
            assert_eq!(run(&quad).0.normal, [0.0, 0.0, 1.0]);
        }
    }

    #[test]
    fn convention_7_default_cube_faces_face_outward() {
        let outward: [P; 6] = [
            [1., 0., 0.],
            [-1., 0., 0.],
            [0., 1., 0.],
            [0., -1., 0.],
            [0., 0., 1.],
            [0., 0., -1.],
        ];
        for (face, normal) in default_cube().iter().zip(outward) {
            let (t, _) = run(face);
            assert_eq!(t.normal, normal, "{face:?}");
            assert_eq!(blockbench_face_normal(face), normal, "{face:?}");
            assert_eq!(check_ccw(face), 2.0 * 16.0);
        }
    }

    #[test]
    fn convention_7_across_the_line_is_decided_in_3d() {
        // A quad bent out of its plane: vertex 3 is across the line 0–1 from
        // vertex 2 only within the plane through the line perpendicular to
        // the direction from vertex 2 to it, whatever its height.
        for lift in [0.0f32, 5.0, -5.0] {
            let quad: [P; 4] = [[0., 0., 0.], [1., 1., 0.], [1., 0., 0.], [0., 1., lift]];
            assert_eq!(quad_order(&quad), [0, 2, 1, 3], "lift {lift}");
        }
        // Degenerate lines are never crossed (NaN in Blockbench).
        let p: P = [1., 2., 3.];
        assert_eq!(quad_order(&[p, p, p, p]), [0, 1, 2, 3]);
        // Vertex 3 on the line counts as not across.
        let on_line: [P; 4] = [[0., 0., 0.], [1., 0., 0.], [1., 1., 0.], [1., 2., 0.]];
        assert_eq!(quad_order(&on_line), [0, 1, 2, 3]);
    }

    #[test]
    fn convention_7_concave_quad_splits_along_1_3() {
        // A dart, concave at vertex 3; Blockbench keeps its stored order.
        let dart: [P; 4] = [[2., -2., 0.], [0., 2., 0.], [-2., -2., 0.], [0., 0., 0.]];
        assert_eq!(quad_order(&dart), [0, 1, 2, 3]);
        let (t, tris) = run(&dart);
        assert_eq!((t.count, t.split), (2, Split::Diagonal13));
        assert_eq!(tris, [[1, 2, 3], [1, 3, 0]]);
        assert_eq!(t.normal, [0.0, 0.0, 1.0]);
        assert_eq!(check_ccw(&dart), 2.0 * 4.0);
        // The 1–3 diagonal's midpoint is inside the dart, the 0–2 one's not.
        let flat = [[2., -2.], [0., 2.], [-2., -2.], [0., 0.]];
        assert!(inside(&flat, [0.0, 1.0]));
        assert!(!inside(&flat, [0.0, -2.0 + 1e-9]));
        // A convex quad keeps the 0–2 split.
        let square: [P; 4] = [[0., 0., 0.], [1., 0., 0.], [1., 1., 0.], [0., 1., 0.]];
        assert_eq!(run(&square).0.split, Split::Diagonal02);
    }

    #[test]
    fn pentagon_is_ear_clipped_counter_clockwise() {
        // A regular pentagon counter-clockwise about +Y: +90° about Y takes
        // +X to −Z, so the angle runs from +X towards −Z.
        let pentagon: Vec<P> = (0..5)
            .map(|i| {
                let a = 2.0 * PI * f64::from(i) / 5.0;
                [libm::cos(a) as f32, 0.0, -libm::sin(a) as f32]
            })
            .collect();
        let (t, tris) = run(&pentagon);
        assert_eq!((t.count, t.split), (3, Split::EarClipped));
        assert!(close(t.normal, [0.0, 1.0, 0.0], 1e-6), "{t:?}");
        for &tri in &tris {
            assert!(tri_cross(&pentagon, tri)[1] > 0.0, "{tri:?}");
        }
        // A convex polygon comes out as the fan from vertex 0.
        assert_eq!(tris, [[0, 1, 2], [0, 2, 3], [0, 3, 4]]);
        let area = 2.5 * libm::sin(2.0 * PI / 5.0);
        assert!((check_ccw(&pentagon) / 2.0 - area).abs() < 1e-6);
    }

    #[test]
    fn concave_hexagon_ear_clipping_stays_inside() {
        // Notched from above at vertex 4: a fan from vertex 0 would run
        // outside (its triangle (0, 3, 4) is clockwise).
        let hexagon = [[0., 1.], [2., 0.], [4., 1.], [4., 3.], [2., 1.5], [0., 3.]];
        assert!(orient(hexagon[0], hexagon[3], hexagon[4]) < 0.0);
        let shoelace = |poly: &[[f64; 2]]| {
            (0..poly.len())
                .map(|i| {
                    let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
                    a[0] * b[1] - a[1] * b[0]
                })
                .sum::<f64>()
        };
        let area = shoelace(&hexagon);
        for reverse in [false, true] {
            for rotation in 0..6 {
                let mut poly = hexagon.to_vec();
                poly.rotate_left(rotation);
                if reverse {
                    poly.reverse();
                }
                let positions = xy(&poly);
                let (t, tris) = run(&positions);
                assert_eq!((t.count, t.split), (4, Split::EarClipped));
                let z = if reverse { -1.0 } else { 1.0 };
                assert_eq!(t.normal, [0.0, 0.0, z]);
                for tri in tris {
                    let [a, b, c] = tri.map(|i| poly[usize::from(i)]);
                    let centroid = [(a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0];
                    assert!(inside(&poly, centroid), "{poly:?}: {tri:?} outside");
                }
                assert!((check_ccw(&positions) - area).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn self_crossing_polygon_falls_back_to_a_fan() {
        // A pentagram: every second vertex of a regular pentagon.
        let star: Vec<[f64; 2]> = (0..5)
            .map(|i| {
                let a = PI / 2.0 + 4.0 * PI * f64::from(i) / 5.0;
                [libm::cos(a), libm::sin(a)]
            })
            .collect();
        let positions = xy(&star);
        let (t, tris) = run(&positions);
        assert_eq!((t.count, t.split), (3, Split::Fan));
        assert!(tris.iter().all(|tri| tri[0] == 0));
        assert!(close(t.normal, [0.0, 0.0, 1.0], 1e-6));
        check_ccw(&positions);

        // A bow tie with unequal lobes and extra vertices: the clockwise
        // triangles of the fan are turned to the face normal.
        let bow = [[0., 0.], [3., 3.], [3., 1.5], [3., 0.], [0., 2.], [0., 1.]];
        let positions = xy(&bow);
        let (t, tris) = run(&positions);
        assert_eq!((t.count, t.split), (4, Split::Fan));
        assert_eq!(tris[0], [0, 1, 2]);
        check_ccw(&positions);
    }

    #[test]
    fn faces_under_3_vertices_or_without_area_are_dropped() {
        let p: P = [1.0, 2.0, 3.0];
        let collinear: [P; 3] = [[0., 0., 0.], [1., 1., 1.], [3., 3., 3.]];
        let flat_quad: [P; 4] = [[0., 0., 0.], [1., 0., 0.], [2., 0., 0.], [3., 0., 0.]];
        let five_on_a_line: Vec<P> = (0..5).map(|i| [i as f32, 2.0 * i as f32, 0.5]).collect();
        let faces: [&[P]; 7] = [
            &[],
            &[p],
            &[p, p],
            &[p, p, p],
            &collinear,
            &flat_quad,
            &five_on_a_line,
        ];
        for face in faces {
            let mut out = [[9u8; 3]; MAX_FACE_TRIANGLES];
            let t = triangulate(face, &mut out).expect("small face");
            assert!(t.is_dropped(), "{face:?}");
            assert_eq!((t.count, t.normal), (0, [0.0; 3]));
            assert_eq!(out, [[9u8; 3]; MAX_FACE_TRIANGLES]);
        }
        // Blockbench's getNormal gives zero there too.
        assert_eq!(blockbench_face_normal(&[p, p]), [0.0; 3]);
        assert_eq!(blockbench_face_normal(&collinear), [0.0; 3]);
        // Non-finite positions are dropped, never a panic.
        let nan: [P; 5] = [
            [f32::NAN, 0., 0.],
            [1., 0., 0.],
            [1., 1., 0.],
            [0., 1., 0.],
            [0., 2., 0.],
        ];
        assert!(run(&nan).0.is_dropped());
        // More than MAX_FACE_VERTICES vertices is refused, and `out` left alone.
        let k = MAX_FACE_VERTICES + 1;
        let many: Vec<P> = (0..k).map(|i| [i as f32, (i * i) as f32, 0.0]).collect();
        let mut out = [[9u8; 3]; MAX_FACE_TRIANGLES];
        assert_eq!(
            triangulate(&many, &mut out),
            Err(MeshError::TooManyVertices { count: k })
        );
        assert_eq!(out, [[9u8; 3]; MAX_FACE_TRIANGLES]);
    }

    #[test]
    fn convention_11_smooth_normal_is_unweighted_average() {
        // Key 0 is shared by a big face facing +Y and a tiny one facing +X.
        let keys: [P; 5] = [
            [0., 0., 0.],
            [0., 0., 100.],
            [100., 0., 0.],
            [0., 0.1, 0.],
            [0., 0., 0.1],
        ];
        let big = [0u32, 1, 2];
        let tiny = [0u32, 3, 4];
        let face = |k: &[u32]| -> Vec<P> { k.iter().map(|&i| keys[i as usize]).collect() };
        assert_eq!(blockbench_face_normal(&face(&big)), [0.0, 1.0, 0.0]);
        assert_eq!(blockbench_face_normal(&face(&tiny)), [1.0, 0.0, 0.0]);

        let mut acc = [[0.0f32; 3]; 6]; // key 5 is listed by no face
        for k in [&big[..], &tiny[..]] {
            accumulate_face_normal(&mut acc, k, blockbench_face_normal(&face(k))).unwrap();
        }
        let mut smooth = acc;
        finish_smooth_normals(&mut smooth, &mesh_transform([0.0; 3], [0.0; 3]));
        let h = core::f32::consts::FRAC_1_SQRT_2;
        assert!(close(smooth[0], [h, h, 0.0], 1e-7), "{:?}", smooth[0]);
        assert_eq!(smooth[1], [0.0, 1.0, 0.0]);
        assert_eq!(smooth[3], [1.0, 0.0, 0.0]);
        assert_eq!(smooth[5], [0.0; 3]);

        // Two faces facing +Y and one facing +X: (2Y + X) / |2Y + X|.
        let mut acc2 = acc;
        accumulate_face_normal(&mut acc2, &[0], [0.0, 1.0, 0.0]).unwrap();
        finish_smooth_normals(&mut acc2, &mesh_transform([0.0; 3], [0.0; 3]));
        let r5 = 5.0f32.sqrt();
        assert!(close(acc2[0], [1.0 / r5, 2.0 / r5, 0.0], 1e-7));

        // Normalised, then turned with the mesh: +90° about Y takes +X to −Z.
        let mut turned = acc;
        finish_smooth_normals(&mut turned, &mesh_transform([5.0; 3], [0.0, 90.0, 0.0]));
        assert!(close(turned[0], [0.0, h, -h], 1e-7), "{:?}", turned[0]);

        // A quad's normal is taken in Blockbench's order: the default cube's
        // east face, stored as a bow tie, gives +X.
        assert_eq!(blockbench_face_normal(&default_cube()[0]), [1.0, 0.0, 0.0]);

        // A key past the table is refused and nothing is added.
        let before = acc;
        assert_eq!(
            accumulate_face_normal(&mut acc, &[0, 6], [0.0, 1.0, 0.0]),
            Err(MeshError::KeyOutOfRange { key: 6 })
        );
        assert_eq!(acc, before);
    }

    #[test]
    fn convention_6_vertex_lands_at_origin_plus_rotated_v() {
        let origin = [1.0, 2.0, 3.0];
        // +90° about Y takes +X to −Z, exactly.
        let t = mesh_transform(origin, [0.0, 90.0, 0.0]);
        assert_eq!(t.turn([1.0, 0.0, 0.0]), [0.0, 0.0, -1.0]);
        assert_eq!(t.place([1.0, 0.0, 0.0]), [1.0, 2.0, 2.0]);
        assert_eq!(
            t.rotation_rows(),
            [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]]
        );
        // +90° about Z takes +X to +Y; about X, +Y to +Z.
        assert_eq!(
            mesh_transform(origin, [0.0, 0.0, 90.0]).turn([1.0, 0.0, 0.0]),
            [0.0, 1.0, 0.0]
        );
        assert_eq!(
            mesh_transform(origin, [90.0, 0.0, 0.0]).turn([0.0, 1.0, 0.0]),
            [0.0, 0.0, 1.0]
        );
        // X is applied first: +Y → +Z (X), then +Z → +X (Y).
        let xy_turn = mesh_transform(origin, [90.0, 90.0, 0.0]);
        assert_eq!(xy_turn.place([0.0, 1.0, 0.0]), [2.0, 2.0, 3.0]);
        // Any angles: R = Rz · Ry · Rx, the three turns one after another.
        let (ax, ay, az) = (33.0, -71.5, 142.25);
        let v = [0.3, -1.7, 2.9];
        let stepwise = mesh_transform([0.0; 3], [0.0, 0.0, az]).turn(
            mesh_transform([0.0; 3], [0.0, ay, 0.0])
                .turn(mesh_transform([0.0; 3], [ax, 0.0, 0.0]).turn(v)),
        );
        let all = mesh_transform(origin, [ax, ay, az]);
        assert!(close(all.turn(v), stepwise, 1e-5));
        let placed = all.place(v);
        let expected = [
            origin[0] + stepwise[0],
            origin[1] + stepwise[1],
            origin[2] + stepwise[2],
        ];
        assert!(close(placed, expected, 1e-5));
        // Whole turns and their negatives are exact.
        for deg in [0.0f32, 360.0, -360.0, 720.0, -180.0, 180.0, 270.0, -90.0] {
            let (s, c) = sin_cos_deg(f64::from(deg));
            assert!(s == 0.0 || s.abs() == 1.0, "{deg}: {s}");
            assert!(c == 0.0 || c.abs() == 1.0, "{deg}: {c}");
        }
        let (s, c) = sin_cos_deg(30.0);
        assert!((s - 0.5).abs() < 1e-15 && (c - libm::sqrt(0.75)).abs() < 1e-15);
        assert_eq!(sin_cos_deg(-90.0), (-1.0, 0.0));
        assert_eq!(sin_cos_deg(180.0).1, -1.0);
    }

    #[test]
    fn plane_primitive_faces_plus_y() {
        // Blockbench's plane primitive (diameter 16): vertices
        // a = (r, 0, r), b = (r, 0, −r), c = (−r, 0, r), d = (−r, 0, −r) and the
        // face [a, b, d, c].
        let r = 8.0;
        let (a, b, c, d): (P, P, P, P) = ([r, 0., r], [r, 0., -r], [-r, 0., r], [-r, 0., -r]);
        let plane = [a, b, d, c];
        assert_eq!(quad_order(&plane), [0, 1, 2, 3]);
        // The normal is (v1 − v0) × (v2 − v0).
        let n = cross(sub(w(b), w(a)), sub(w(d), w(a)));
        assert!(n[1] > 0.0 && n[0] == 0.0 && n[2] == 0.0);
        assert_eq!(blockbench_face_normal(&plane), [0.0, 1.0, 0.0]);
        let (t, tris) = run(&plane);
        assert_eq!(
            (t.count, t.split, t.normal),
            (2, Split::Diagonal02, [0.0, 1.0, 0.0])
        );
        assert_eq!(tris, [[0, 1, 2], [0, 2, 3]]);
        for tri in tris {
            assert!(tri_cross(&plane, tri)[1] > 0.0);
        }
    }

    #[test]
    fn every_triangle_winds_ccw_about_the_newell_normal() {
        let faces: Vec<Vec<P>> = std::vec![
            std::vec![[0., 0., 0.], [0., 0., 1.], [1., 0., 0.]],
            std::vec![[0., 0., 0.], [1., 0., 0.], [1., 1., 0.], [0., 1., 0.]],
            std::vec![[0., 0., 0.], [1., 1., 0.], [1., 0., 0.], [0., 1., 0.]],
            // Non-planar quads.
            std::vec![[0., 0., 0.], [4., 0., 1.], [4., 4., 0.], [0., 4., 1.]],
            std::vec![[0., 0., 0.], [4., 0., 3.], [4., 4., -2.], [0., 4., 1.]],
            // Concave quads, in every rotation Blockbench may reorder.
            std::vec![[2., -2., 0.], [0., 2., 0.], [-2., -2., 0.], [0., 0., 0.]],
            std::vec![[0., 0., 0.], [2., -2., 0.], [0., 2., 0.], [-2., -2., 0.]],
            std::vec![[-2., -2., 0.], [0., 0., 0.], [2., -2., 0.], [0., 2., 0.]],
            std::vec![[0., 2., 0.], [-2., -2., 0.], [0., 0., 0.], [2., -2., 0.]],
            // A tilted hexagon and a tilted non-planar heptagon.
            std::vec![
                [0., 1., 0.],
                [2., 0., 1.],
                [4., 1., 2.],
                [4., 3., 2.],
                [2., 1.5, 1.],
                [0., 3., 0.]
            ],
            std::vec![
                [0., 0., 0.],
                [3., 0., 0.1],
                [3., 2., -0.1],
                [2., 2., 0.2],
                [2., 1., 0.],
                [1., 1., 0.1],
                [1., 2., 0.]
            ],
        ];
        for face in &faces {
            let (t, _) = run(face);
            assert_eq!(t.count, face.len() - 2, "{face:?}");
            check_ccw(face);
        }
        // The default cube, and the 16-vertex circle.
        for face in default_cube() {
            check_ccw(&face);
        }
        let circle: Vec<P> = (0..16)
            .map(|i| {
                let a = 2.0 * PI * f64::from(i) / 16.0;
                [libm::cos(a) as f32 * 8.0, 3.0, libm::sin(a) as f32 * 8.0]
            })
            .collect();
        assert_eq!(run(&circle).0.count, 14);
        check_ccw(&circle);
    }

    /// xorshift64*: a fixed-seed generator, so failures reproduce.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        /// Uniform in [lo, hi).
        fn range(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
        }
    }

    #[test]
    fn random_planar_polygons_give_k_minus_2_ccw_triangles_covering_their_area() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut seen = [0usize; 6]; // by split
        for case in 0..20_000 {
            let k = 3 + (rng.next() % 14) as usize;
            // A star-shaped polygon around the origin: angles rising by steps
            // of at most twice the smallest, so every gap is under half a turn
            // and the loop is simple.
            let convex = rng.next().is_multiple_of(4);
            let steps: Vec<f64> = (0..k).map(|_| rng.range(0.5, 1.0)).collect();
            let total: f64 = steps.iter().sum();
            let mut angle = rng.range(0.0, 2.0 * PI);
            let mut flat: Vec<[f64; 2]> = Vec::new();
            for step in &steps {
                let radius = if convex { 1.0 } else { rng.range(0.15, 1.0) };
                flat.push([radius * libm::cos(angle), radius * libm::sin(angle)]);
                angle += 2.0 * PI * step / total;
            }
            if rng.next().is_multiple_of(2) {
                flat.reverse();
            }
            // Into a random plane: an orthonormal basis around a random
            // normal, a scale and an offset, as Blockbench sizes go.
            let normal = loop {
                let n = [
                    rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                ];
                if let Some(n) = unit(n).filter(|_| len(n) > 0.1) {
                    break n;
                }
            };
            let u = unit(cross(normal, [0.3, 0.5, 0.7])).unwrap();
            let v = cross(normal, u);
            let size = rng.range(1.0, 16.0);
            let offset = [
                rng.range(-8.0, 8.0),
                rng.range(-8.0, 8.0),
                rng.range(-8.0, 8.0),
            ];
            let positions: Vec<P> = flat
                .iter()
                .map(|q| {
                    narrow3(add(
                        offset,
                        add(scale(u, size * q[0]), scale(v, size * q[1])),
                    ))
                })
                .collect();

            let (t, tris) = run(&positions);
            assert_eq!(t.count, k - 2, "case {case}: {positions:?}");
            seen[match t.split {
                Split::Dropped => 0,
                Split::Triangle => 1,
                Split::Diagonal02 => 2,
                Split::Diagonal13 => 3,
                Split::EarClipped => 4,
                Split::Fan => 5,
            }] += 1;
            // Every vertex is used; no triangle repeats a vertex.
            let mut used = [false; MAX_FACE_VERTICES];
            for tri in &tris {
                assert!(tri[0] != tri[1] && tri[1] != tri[2] && tri[0] != tri[2]);
                for i in tri {
                    used[usize::from(*i)] = true;
                }
            }
            assert!(used.iter().take(k).all(|&u| u), "case {case}: {tris:?}");

            // The loop triangulated: Blockbench's order for a quad.
            let loop_ = loop_of(&positions);
            let reordered: Vec<[f64; 2]> = loop_.iter().map(|&i| flat[i]).collect();
            let newell = newell_of(&positions, &loop_);
            let n = scale(newell, 1.0 / len(newell));
            assert!(close(t.normal, narrow3(n), 1e-5), "case {case}");
            let mut signed = 0.0;
            let mut unsigned = 0.0;
            for &tri in &tris {
                let c = tri_cross(&positions, tri);
                let along = dot(c, n);
                assert!(
                    along > 0.0,
                    "case {case}: {positions:?} {tri:?} against the normal"
                );
                signed += along;
                unsigned += len(c);
            }
            if !loop_crosses(&reordered) {
                // The triangles tile the polygon: their areas sum to its area.
                assert!(
                    (unsigned - len(newell)).abs() <= 1e-9 * len(newell),
                    "case {case}"
                );
                assert!(
                    (signed - len(newell)).abs() <= 1e-9 * len(newell),
                    "case {case}"
                );
                let shoelace: f64 = (0..k)
                    .map(|i| {
                        let (a, b) = (reordered[i], reordered[(i + 1) % k]);
                        a[0] * b[1] - a[1] * b[0]
                    })
                    .sum();
                let area = shoelace.abs() * size * size;
                assert!(
                    (unsigned - area).abs() <= 1e-4 * area,
                    "case {case}: {unsigned} vs {area}"
                );
            } else {
                assert_eq!(t.split, Split::Fan, "case {case}");
            }
        }
        // Every path was taken.
        assert!(
            seen[1] > 0 && seen[2] > 0 && seen[3] > 0 && seen[4] > 0,
            "{seen:?}"
        );
        std::println!("splits: {seen:?}");
    }

    #[test]
    fn random_polygons_of_any_shape_wind_ccw_or_are_dropped() {
        // Random loops on a small integer grid (crossing, touching, repeating
        // and collinear vertices, as hand-made Blockbench meshes have) and in
        // a box, some lifted out of their plane: never a panic, k − 2
        // triangles or none, every one counter-clockwise about the face
        // normal or without area.
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        let mut seen = [0usize; 6];
        for case in 0..20_000 {
            let k = 3 + (rng.next() % 14) as usize;
            let grid = rng.next().is_multiple_of(2);
            let lift = if rng.next().is_multiple_of(3) {
                0.3
            } else {
                0.0
            };
            let positions: Vec<P> = (0..k)
                .map(|_| {
                    if grid {
                        let mut c = || (rng.next() % 4) as f32;
                        [c(), c(), 0.0]
                    } else {
                        let x = rng.range(-4.0, 4.0);
                        let y = rng.range(-4.0, 4.0);
                        let z = rng.range(-lift, lift + 1e-300);
                        narrow3([x + 0.5 * y, z - y, 2.0 * x])
                    }
                })
                .collect();
            let (t, tris) = run(&positions);
            seen[match t.split {
                Split::Dropped => 0,
                Split::Triangle => 1,
                Split::Diagonal02 => 2,
                Split::Diagonal13 => 3,
                Split::EarClipped => 4,
                Split::Fan => 5,
            }] += 1;
            if t.is_dropped() {
                assert_eq!(t.count, 0);
                continue;
            }
            assert_eq!(t.count, k - 2, "case {case}");
            let n = widen(t.normal);
            assert!((len(n) - 1.0).abs() < 1e-6);
            for &tri in &tris {
                let c = tri_cross(&positions, tri);
                assert!(
                    dot(c, n) >= -1e-9,
                    "case {case}: {positions:?} {t:?} {tri:?} against the normal"
                );
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
        std::println!("splits: {seen:?}");
    }
}
