//! A cube's box: inflate and stretch about its centre, which axes are
//! flat or reversed, each face's corners and winding normal, and the
//! cube's rotation about its origin ("Conversion, cube box"; conventions
//! 1 and 2).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use super::face::{Axis, FaceInput, FaceName};

/// One cube element's numbers, as stored in the file (after the caller's
/// migrations). `f64` because the JSON numbers are, and the box-UV size is
/// floored in `f64` as Blockbench (JavaScript) does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeInput {
    /// `from`: one corner, model units. Larger than `to` on an axis reverses it.
    pub from: [f64; 3],
    /// `to`: the other corner, model units.
    pub to: [f64; 3],
    /// `origin`: the pivot the cube's `rotation` turns about, model units.
    pub origin: [f64; 3],
    /// `rotation`: degrees about x, y, z; X applied first (convention 1).
    pub rotation: [f64; 3],
    /// `inflate`: model units added to every half side before stretching
    /// (negative shrinks). Geometry only.
    pub inflate: f64,
    /// `stretch`: per-axis factor on the inflated half sides, about the centre
    /// (negative reverses the axis). Geometry only.
    pub stretch: [f64; 3],
    /// Whether faces without a stored `uv` get the box-UV layout
    /// (`meta.box_uv`, or the cube's own `box_uv`).
    pub box_uv: bool,
    /// `uv_offset`: texels the whole box-UV layout is shifted by.
    pub uv_offset: [f64; 2],
    /// `mirror_uv`: the box-UV layout flipped horizontally, east and west
    /// swapped (after the caller's pre-4.5 `shade: false` migration).
    pub mirror_uv: bool,
    /// The format keeps fractional box-UV sizes (Blockbench
    /// `Format.box_uv_float_size`: modded_entity, hytale_character,
    /// hytale_prop); otherwise they are floored.
    pub box_uv_float_size: bool,
}

impl CubeInput {
    /// A cube from `from` to `to` with Blockbench's defaults for everything
    /// else: origin and rotation zero, no inflate, unit stretch, per-face UV.
    pub const fn new(from: [f64; 3], to: [f64; 3]) -> Self {
        CubeInput {
            from,
            to,
            origin: [0.0; 3],
            rotation: [0.0; 3],
            inflate: 0.0,
            stretch: [1.0; 3],
            box_uv: false,
            uv_offset: [0.0; 2],
            mirror_uv: false,
            box_uv_float_size: false,
        }
    }
}

/// The facts about a cube's box that decide which faces get triangles and
/// how they are sided, without the faces' geometry (what counting needs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeShape {
    /// See [`CubeFaces::flat`](super::CubeFaces::flat).
    pub flat: [bool; 3],
    /// See [`CubeFaces::reversed`](super::CubeFaces::reversed).
    pub reversed: [bool; 3],
    /// See [`CubeFaces::inverted`](super::CubeFaces::inverted).
    pub inverted: bool,
    /// See [`CubeFaces::outline_hull`](super::CubeFaces::outline_hull).
    pub outline_hull: bool,
}

impl CubeShape {
    /// The shape of `cube`, whose box [`cube_box`] gave as `lo`, `hi`.
    pub(super) fn of(cube: &CubeInput, lo: [f64; 3], hi: [f64; 3]) -> Self {
        let flat = [lo[0] == hi[0], lo[1] == hi[1], lo[2] == hi[2]];
        let reversed = [lo[0] > hi[0], lo[1] > hi[1], lo[2] > hi[2]];
        let inverted = reversed.iter().filter(|&&r| r).count() % 2 == 1;
        let authored_volume = cube.to[0] - cube.from[0] != 0.0
            && cube.to[1] - cube.from[1] != 0.0
            && cube.to[2] - cube.from[2] != 0.0;
        let outline_hull = inverted && authored_volume && !flat.iter().any(|&f| f);
        Self {
            flat,
            reversed,
            inverted,
            outline_hull,
        }
    }

    /// The shape of `cube`.
    pub fn new(cube: &CubeInput) -> Self {
        let (lo, hi) = cube_box(cube);
        Self::of(cube, lo, hi)
    }

    /// Whether face `name`, when the file draws it, gets triangles (it has
    /// area), and whether it then coincides with its drawn opposite.
    pub fn face(&self, name: FaceName, faces: &[Option<FaceInput>; 6]) -> Option<bool> {
        let (a, b) = name.plane_axes();
        if a.pick(self.flat) || b.pick(self.flat) {
            return None;
        }
        faces.get(name.index())?.as_ref()?;
        let opposite_drawn = faces
            .get(name.opposite().index())
            .is_some_and(Option::is_some);
        Some(name.normal_axis().pick(self.flat) && opposite_drawn)
    }
}

/// The cube's box after inflate and stretch, before rotation: per axis
/// `(lo, hi) = (centre − e, centre + e)` with the signed extent
/// `e = ((to − from) / 2 + inflate) · stretch` about the centre
/// `from + (to − from) / 2` (Blockbench `adjustFromAndToForInflateAndStretch`,
/// whose `from`/`to` are these `lo`/`hi`). `lo > hi` on a reversed axis. No
/// 0.001 is added to a flat axis ("Conversion, cube box").
pub fn cube_box(cube: &CubeInput) -> ([f64; 3], [f64; 3]) {
    let bounds = |from: f64, to: f64, stretch: f64| {
        let half = (to - from) / 2.0;
        let centre = from + half;
        let extent = (half + cube.inflate) * stretch;
        (centre - extent, centre + extent)
    };
    let x = bounds(cube.from[0], cube.to[0], cube.stretch[0]);
    let y = bounds(cube.from[1], cube.to[1], cube.stretch[1]);
    let z = bounds(cube.from[2], cube.to[2], cube.stretch[2]);
    ([x.0, y.0, z.0], [x.1, y.1, z.1])
}

/// The unrotated corners of `name` on the box `lo`..`hi`: top-left,
/// bottom-left, bottom-right, top-right as convention 2 places them on a plain
/// cube (Blockbench `CubeFace.UVToLocal`, whose `from`/`to` are `lo`/`hi`).
/// Counter-clockwise seen from outside on a plain cube.
pub(super) fn face_corners(name: FaceName, lo: [f64; 3], hi: [f64; 3]) -> [[f64; 3]; 4] {
    let [x0, y0, z0] = lo;
    let [x1, y1, z1] = hi;
    match name {
        // Top-left is east (+X), +Y up.
        FaceName::North => [[x1, y1, z0], [x1, y0, z0], [x0, y0, z0], [x0, y1, z0]],
        // Top-left is west (−X).
        FaceName::South => [[x0, y1, z1], [x0, y0, z1], [x1, y0, z1], [x1, y1, z1]],
        // Top-left is south (+Z).
        FaceName::East => [[x1, y1, z1], [x1, y0, z1], [x1, y0, z0], [x1, y1, z0]],
        // Top-left is north (−Z).
        FaceName::West => [[x0, y1, z0], [x0, y0, z0], [x0, y0, z1], [x0, y1, z1]],
        // North at the top, top-left north-west.
        FaceName::Up => [[x0, y1, z0], [x0, y1, z1], [x1, y1, z1], [x1, y1, z0]],
        // South at the top, top-left south-west.
        FaceName::Down => [[x0, y0, z1], [x0, y0, z0], [x1, y0, z0], [x1, y0, z1]],
    }
}

/// The unit front normal of an axis-aligned face from its winding:
/// `(c1 − c0) × (c2 − c0)`, whose only non-zero component is on the face's
/// axis; its sign is kept, its length dropped (exact ±1).
pub(super) fn winding_normal(name: FaceName, corners: &[[f64; 3]; 4]) -> [f64; 3] {
    let [c0, c1, c2, _] = *corners;
    let n = cross(sub(c1, c0), sub(c2, c0));
    let axis = name.normal_axis();
    let sign = if axis.pick(n) < 0.0 { -1.0 } else { 1.0 };
    match axis {
        Axis::X => [sign, 0.0, 0.0],
        Axis::Y => [0.0, sign, 0.0],
        Axis::Z => [0.0, 0.0, sign],
    }
}

/// A rotation matrix `R = Rz · Ry · Rx` (convention 1), rows.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rotation([[f64; 3]; 3]);

impl Rotation {
    /// From Euler angles in degrees, X applied first, right-handed.
    pub(super) fn from_degrees(degrees: [f64; 3]) -> Self {
        let (sx, cx) = sin_cos_degrees(degrees[0]);
        let (sy, cy) = sin_cos_degrees(degrees[1]);
        let (sz, cz) = sin_cos_degrees(degrees[2]);
        Rotation([
            [cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx],
            [sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx],
            [-sy, cy * sx, cy * cx],
        ])
    }

    /// `R · v`.
    pub(super) fn apply(&self, v: [f64; 3]) -> [f64; 3] {
        let [r0, r1, r2] = self.0;
        [dot(r0, v), dot(r1, v), dot(r2, v)]
    }

    /// `origin + R · (p − origin)`: `p` turned about `origin`.
    pub(super) fn about(&self, origin: [f64; 3], p: [f64; 3]) -> [f64; 3] {
        let [x, y, z] = self.apply(sub(p, origin));
        [origin[0] + x, origin[1] + y, origin[2] + z]
    }
}

/// `(sin, cos)` of an angle in degrees, reduced to a quarter turn first so
/// that multiples of 90° are exact (a cube turned 90° keeps integer corners).
pub(super) fn sin_cos_degrees(degrees: f64) -> (f64, f64) {
    let mut turn = degrees % 360.0;
    if turn < 0.0 {
        turn += 360.0;
    }
    let (quadrant, rest) = if turn < 90.0 {
        (0, turn)
    } else if turn < 180.0 {
        (1, turn - 90.0)
    } else if turn < 270.0 {
        (2, turn - 180.0)
    } else if turn < 360.0 {
        (3, turn - 270.0)
    } else {
        // −tiny % 360 + 360 rounds to 360; also NaN and ±∞ (never valid input)
        // land here and stay NaN.
        (0, turn - 360.0)
    };
    let radians = rest * (core::f64::consts::PI / 180.0);
    let (s, c) = (libm::sin(radians), libm::cos(radians));
    match quadrant {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

pub(super) fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(super) fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(super) fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Rounds to the scene's `f32`. Valid input is within ±10 000 000 (times a
/// stretch within the same bound), far inside `f32`'s range; `as` saturates
/// anything beyond and never panics.
#[allow(clippy::cast_possible_truncation)]
pub(super) fn to_f32_3(v: [f64; 3]) -> [f32; 3] {
    [v[0] as f32, v[1] as f32, v[2] as f32]
}
