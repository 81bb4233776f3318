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
//!   normal of the face ModelShot draws. A face without area adds zero to the
//!   average, as in Blockbench.
//! - *Where the smooth average vanishes* (the faces listing a key cancel out),
//!   [`finish_smooth_normals`] leaves zero and the caller gives that vertex its
//!   face's flat normal, because scene normals are unit length.
//! - *No area* means a Newell normal no longer than 10⁻¹² of the square of the
//!   face's extent (its largest coordinate distance from the loop's first
//!   vertex): exact zero up to `f64` rounding of `f32` input.
//! - *Self-crossing* means two non-adjacent edges of the loop, projected onto
//!   the plane of the Newell normal, properly cross. A polygon that only
//!   touches itself is ear-clipped. The fan of a self-crossing polygon is
//!   (0, i, i + 1) with each triangle turned counter-clockwise about the face
//!   normal where it is not; a quad's fan is its 0–2 split.

use core::f64::consts::PI;
use core::fmt;

/// The most vertices one mesh face may have (the spec's `maxFaceVertices`).
pub const MAX_FACE_VERTICES: usize = 16;

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
    /// A polygon that crosses itself: a fan from its first vertex.
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
/// A simple face of k vertices gives k − 2 triangles, so `out` always has
/// room. Ear clipping is O(k³) at most.
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

    // The loop: the stored order, or Blockbench's order for a quad.
    let mut order = [0u8; MAX_FACE_VERTICES];
    for (slot, i) in order.iter_mut().zip(0u8..) {
        *slot = i;
    }
    if let Ok(quad) = <&[[f32; 3]; 4]>::try_from(positions) {
        for (slot, i) in order.iter_mut().zip(quad_loop(quad)) {
            *slot = i;
        }
    }
    let mut loop3 = [[0.0f64; 3]; MAX_FACE_VERTICES];
    for (point, &i) in loop3.iter_mut().zip(order.iter()).take(k) {
        *point = widen(positions.get(usize::from(i)).copied().unwrap_or_default());
    }
    let points = loop3.get(..k).unwrap_or_default();

    let Some(plane) = Plane::of(points) else {
        return Ok(Triangulation::DROPPED);
    };
    let mut flat = [[0.0f64; 2]; MAX_FACE_VERTICES];
    for (q, &p) in flat.iter_mut().zip(points) {
        *q = plane.project(p);
    }
    let tol = plane.tolerance;

    let mut tris = [[0u8; 3]; MAX_FACE_TRIANGLES];
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
    } else {
        (ear_clip(&flat, k, tol, &mut tris), Split::EarClipped)
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
/// ModelShot draws them with.
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
pub fn mesh_transform(origin: [f32; 3], rotation_deg: [f32; 3]) -> MeshTransform {
    MeshTransform::new(origin, rotation_deg)
}

impl MeshTransform {
    /// The placement of a mesh element from its `origin` and `rotation`
    /// (degrees), as stored in the file (convention 6).
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
    pub fn place(&self, v: [f32; 3]) -> [f32; 3] {
        narrow3(add(self.origin, self.turn_wide(widen(v))))
    }

    /// A direction turned with the mesh: `R · n` (no translation).
    pub fn turn(&self, n: [f32; 3]) -> [f32; 3] {
        narrow3(self.turn_wide(widen(n)))
    }

    /// The rotation matrix `R = Rz · Ry · Rx`, row by row.
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

/// Slot `i` of a face-sized array; every caller passes `i` below
/// [`MAX_FACE_VERTICES`], and the remainder keeps even a wrong one in bounds.
fn at<T: Copy>(array: &[T; MAX_FACE_VERTICES], i: usize) -> T {
    array[i % MAX_FACE_VERTICES]
}

fn next(i: usize, len: usize) -> usize {
    if i + 1 >= len { 0 } else { i + 1 }
}

/// Whether two non-adjacent edges of the loop of `len` points properly
/// cross (each strictly separates the other's ends).
fn crosses_itself(points: &[V2; MAX_FACE_VERTICES], len: usize, tol: f64) -> bool {
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
fn fan(
    points: &[V2; MAX_FACE_VERTICES],
    len: usize,
    tris: &mut [[u8; 3]; MAX_FACE_TRIANGLES],
) -> usize {
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
struct Ring {
    next: [u8; MAX_FACE_VERTICES],
    prev: [u8; MAX_FACE_VERTICES],
}

impl Ring {
    fn new(len: usize) -> Self {
        let mut ring = Self {
            next: [0; MAX_FACE_VERTICES],
            prev: [0; MAX_FACE_VERTICES],
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
/// the plane: k − 2 triangles, each counter-clockwise. A convex loop gives the
/// fan (0, i, i + 1).
fn ear_clip(
    points: &[V2; MAX_FACE_VERTICES],
    len: usize,
    tol: f64,
    tris: &mut [[u8; 3]; MAX_FACE_TRIANGLES],
) -> usize {
    let mut ring = Ring::new(len);
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
            find_ear(points, &ring, remaining, start, tol)
        };
        let (p, n) = (ring.prev(ear), ring.next(ear));
        *slot = [p, ear, n];
        count += 1;
        ring.remove(ear);
        remaining -= 1;
        start = n;
    }
    count
}

/// The vertex to clip next, searching from `start`: a convex vertex whose
/// triangle holds no other remaining vertex (inside or on its edges); else a
/// vertex without turn (a zero-area triangle); else any convex vertex; else
/// `start`. Each pass is O(k²).
fn find_ear(
    points: &[V2; MAX_FACE_VERTICES],
    ring: &Ring,
    remaining: usize,
    start: u8,
    tol: f64,
) -> u8 {
    let pt = |i: u8| at(points, usize::from(i));
    let turn = |i: u8| orient(pt(ring.prev(i)), pt(i), pt(ring.next(i)));
    let is_ear = |i: u8| {
        let (p, n) = (ring.prev(i), ring.next(i));
        let (a, b, c) = (pt(p), pt(i), pt(n));
        let mut other = ring.next(n);
        for _ in 3..remaining {
            let q = pt(other);
            let inside = orient(a, b, q) >= -tol && orient(b, c, q) >= -tol && orient(c, a, q) >= -tol;
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
    search(&|i| turn(i) > tol && is_ear(i))
        .or_else(|| search(&|i| libm::fabs(turn(i)) <= tol))
        .or_else(|| search(&|i| turn(i) > tol))
        .unwrap_or(start)
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
