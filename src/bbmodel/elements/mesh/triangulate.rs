//! A face's vertex loop to triangles: Blockbench's quad order and split,
//! ear clipping on the face's plane for 5 or more vertices, a fan for a loop
//! that crosses itself, and dropped faces without area.

use super::*;

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

/// A face's loop: its vertex order (the stored one, or Blockbench's for a
/// quad) and its plane (`None`: the face has no area and is dropped). Its
/// points are widened from the positions as they are needed, not held
/// (64 of them are 1.5 KiB of stack).
pub(super) struct FaceLoop<const N: usize> {
    order: [u8; N],
    plane: Option<Plane>,
}

impl<const N: usize> FaceLoop<N> {
    /// The loop of 3 to `N` positions.
    #[inline(never)]
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
        let plane = Plane::of(k.min(N), |j| loop_point(positions, &order, j));
        Self { order, plane }
    }
}

/// Point `j` of the loop `order` makes of `positions`, widened.
fn loop_point<const N: usize>(positions: &[[f32; 3]], order: &[u8; N], j: usize) -> V3 {
    let i = usize::from(at(order, j));
    widen(positions.get(i).copied().unwrap_or_default())
}

/// [`triangulate`] of 3 to `N` positions, with scratch for `N`. Never
/// inlined: only the size a face needs is on the stack.
#[inline(never)]
pub(super) fn split_loop<const N: usize>(
    positions: &[[f32; 3]],
    out: &mut [[u8; 3]; MAX_FACE_TRIANGLES],
) -> Result<Triangulation, MeshError> {
    let k = positions.len();
    let FaceLoop { order, plane } = FaceLoop::<N>::of(positions);
    let Some(plane) = plane else {
        return Ok(Triangulation::DROPPED);
    };
    let mut flat = [[0.0f64; 2]; N];
    for (j, q) in flat.iter_mut().enumerate().take(k) {
        *q = plane.project(loop_point(positions, &order, j));
    }
    let tol = plane.tolerance;

    // k − 2 triangles, as loop indices, straight into `out` (which holds
    // them: k ≤ MAX_FACE_VERTICES), then turned into position indices.
    let (count, split) = if k == 3 {
        out[0] = [0, 1, 2];
        (1, Split::Triangle)
    } else if crosses_itself(&flat, k, tol) {
        (fan(&flat, k, out), Split::Fan)
    } else if k == 4 {
        // Concave at loop vertex 1 or 3: the 0–2 diagonal runs outside.
        let reflex_1 = orient(at(&flat, 0), at(&flat, 1), at(&flat, 2)) < -tol;
        let reflex_3 = orient(at(&flat, 2), at(&flat, 3), at(&flat, 0)) < -tol;
        if reflex_1 || reflex_3 {
            out[0] = [1, 2, 3];
            out[1] = [1, 3, 0];
            (2, Split::Diagonal13)
        } else {
            out[0] = [0, 1, 2];
            out[1] = [0, 2, 3];
            (2, Split::Diagonal02)
        }
    } else if let Some(count) = ear_clip(&flat, k, tol, out) {
        (count, Split::EarClipped)
    } else {
        (fan(&flat, k, out), Split::Fan)
    };

    for slot in out.iter_mut().take(count) {
        *slot = slot.map(|i| at(&order, usize::from(i)));
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

pub(super) fn quad_loop(p: &[[f32; 3]; 4]) -> [u8; 4] {
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
pub(super) fn across(base1: V3, base2: V3, top: V3, check: V3) -> bool {
    let start_p = sub(top, base1);
    let start_end = sub(base2, base1);
    let t = dot(start_end, start_p) / dot(start_end, start_end);
    let foot = add(scale(start_end, t), base1);
    let normal = sub(foot, top);
    let constant = -dot(base2, normal);
    // NaN (a degenerate line) compares false, as in JavaScript.
    dot(normal, check) + constant > 0.0
}

/// The plane of a face's loop: its unit Newell normal, an in-plane basis with
/// `u × v = normal`, and the tolerance for "no area" and orientation tests.
pub(super) struct Plane {
    origin: V3,
    normal: V3,
    u: V3,
    v: V3,
    tolerance: f64,
}

impl Plane {
    /// `None` when the loop has no area (its Newell normal is zero up to the
    /// tolerance) or is not finite.
    /// The plane of the loop of `k` points, point `j` given by `point(j)`.
    fn of(k: usize, point: impl Fn(usize) -> V3) -> Option<Self> {
        if k == 0 {
            return None;
        }
        let origin = point(0);
        let mut newell = [0.0f64; 3];
        let mut extent = 0.0f64;
        for j in 0..k {
            let (a, b) = (point(j), point(next(j, k)));
            let (da, db) = (sub(a, origin), sub(b, origin));
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
pub(super) fn orient(a: V2, b: V2, c: V2) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// Slot `i` of a face-sized array; every caller passes `i` below `N`.
pub(super) fn at<T: Copy + Default, const N: usize>(array: &[T; N], i: usize) -> T {
    array.get(i).copied().unwrap_or_default()
}

pub(super) fn next(i: usize, len: usize) -> usize {
    if i + 1 >= len { 0 } else { i + 1 }
}

/// Whether two non-adjacent edges of the loop of `len` points properly
/// cross (each strictly separates the other's ends).
pub(super) fn crosses_itself<const N: usize>(points: &[V2; N], len: usize, tol: f64) -> bool {
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
pub(super) fn fan<const N: usize>(points: &[V2; N], len: usize, tris: &mut [[u8; 3]]) -> usize {
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
pub(super) struct Ring<const N: usize> {
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
pub(super) fn ear_clip<const N: usize>(
    points: &[V2; N],
    len: usize,
    tol: f64,
    tris: &mut [[u8; 3]],
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
pub(super) fn find_ear<const N: usize>(
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
