//! One Blockbench cube element turned into faces: four corners, four UVs and a
//! geometric normal per face, as the loader specification
//! (`shared/seeds/bbmodel-loader-spec.txt`, "Conversion", cube box, faces and
//! sidedness) and its "Blockbench conventions assumed" 1, 2 and 5 say.
//!
//! Pure math on numbers the document reader has already parsed and validated:
//! no JSON, no allocation, no panics. Lengths are model units (Blockbench
//! pixels); angles are degrees as stored; UVs are texels of the face's UV space,
//! not yet divided by its UV size (the caller knows which texture a face shows).
//!
//! Each face is two triangles, [`FACE_TRIANGLES`], of its four corners, counter-
//! clockwise seen from its front (the scene format's winding), with the cube's
//! own rotation about its origin baked into the corners (scene format: cube
//! vertices are model-space coordinates at rest).
//!
//! What this module decides and what it leaves to the caller:
//!
//! - it reports geometric facts ([`CubeFaces::outline_hull`],
//!   [`CubeFace::coincides_with_opposite`]); sidedness from `render_sides`
//!   (convention 9) and the outline-hull rules are the caller's;
//! - it takes `mirror_uv` as given; the pre-4.5 `shade: false` migration
//!   (convention 13) is the caller's;
//! - faces removed by `texture: null` or missing from `faces` are passed as
//!   `None` and come back as `None`.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

/// The two triangles of every face, as indices into [`CubeFace::corners`]
/// (and [`CubeFace::uvs`]): counter-clockwise about [`CubeFace::normal`].
pub const FACE_TRIANGLES: [[u32; 3]; 2] = [[0, 1, 2], [0, 2, 3]];

/// The UV of a face that stores none in a cube without box UV: Blockbench's
/// `CubeFace` default `[0, 0, canvasGridSize(), canvasGridSize()]`, which is 1
/// with the default `edit_size` setting of 16 (a runtime setting, never saved).
pub const DEFAULT_FACE_UV: [f64; 4] = [0.0, 0.0, 1.0, 1.0];

/// What Blockbench adds to a box-UV size before flooring it
/// (`Cube.size(axis, 'box_uv')`), so that `2.9999999999999996` counts as 3.
pub const BOX_UV_EPSILON: f64 = 1e-7;

/// A face of a cube, by its key in the file's `faces` object.
///
/// Blockbench's directions: north is −Z, south +Z, east +X, west −X, up +Y,
/// down −Y (of the plain cube; a reversed axis moves a face to the other side,
/// see [`cube_faces`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaceName {
    /// `north`, the −Z face.
    North,
    /// `east`, the +X face.
    East,
    /// `south`, the +Z face.
    South,
    /// `west`, the −X face.
    West,
    /// `up`, the +Y face.
    Up,
    /// `down`, the −Y face.
    Down,
}

impl FaceName {
    /// Every face, in the order of the arrays this module takes and returns
    /// (index = [`FaceName::index`]).
    pub const ALL: [FaceName; 6] = [
        FaceName::North,
        FaceName::East,
        FaceName::South,
        FaceName::West,
        FaceName::Up,
        FaceName::Down,
    ];

    /// The key in the file (`"north"`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            FaceName::North => "north",
            FaceName::East => "east",
            FaceName::South => "south",
            FaceName::West => "west",
            FaceName::Up => "up",
            FaceName::Down => "down",
        }
    }

    /// The face a key of the file's `faces` object names, exactly as Blockbench
    /// spells it (lower case); `None` for any other key, which Blockbench ignores.
    pub fn from_key(key: &str) -> Option<Self> {
        match key {
            "north" => Some(FaceName::North),
            "east" => Some(FaceName::East),
            "south" => Some(FaceName::South),
            "west" => Some(FaceName::West),
            "up" => Some(FaceName::Up),
            "down" => Some(FaceName::Down),
            _ => None,
        }
    }

    /// This face's position in [`FaceName::ALL`] and in the six-face arrays.
    pub const fn index(self) -> usize {
        match self {
            FaceName::North => 0,
            FaceName::East => 1,
            FaceName::South => 2,
            FaceName::West => 3,
            FaceName::Up => 4,
            FaceName::Down => 5,
        }
    }

    /// The face on the other side of the same axis (Blockbench's
    /// `CubeFace.opposite`).
    pub const fn opposite(self) -> Self {
        match self {
            FaceName::North => FaceName::South,
            FaceName::East => FaceName::West,
            FaceName::South => FaceName::North,
            FaceName::West => FaceName::East,
            FaceName::Up => FaceName::Down,
            FaceName::Down => FaceName::Up,
        }
    }

    /// The axis the face is perpendicular to: 0 for x (east, west), 1 for y
    /// (up, down), 2 for z (north, south).
    pub const fn axis(self) -> usize {
        self.normal_axis().index()
    }

    const fn normal_axis(self) -> Axis {
        match self {
            FaceName::East | FaceName::West => Axis::X,
            FaceName::Up | FaceName::Down => Axis::Y,
            FaceName::North | FaceName::South => Axis::Z,
        }
    }

    /// The two axes the face spans.
    const fn plane_axes(self) -> (Axis, Axis) {
        match self.normal_axis() {
            Axis::X => (Axis::Y, Axis::Z),
            Axis::Y => (Axis::X, Axis::Z),
            Axis::Z => (Axis::X, Axis::Y),
        }
    }
}

/// A face's UV rotation: how far the image is turned clockwise on the face
/// (convention 2; Blockbench's face `rotation`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FaceRotation {
    /// 0°, the image upright.
    #[default]
    Deg0,
    /// 90° clockwise.
    Deg90,
    /// 180°.
    Deg180,
    /// 270° clockwise (90° counter-clockwise).
    Deg270,
}

impl FaceRotation {
    /// The rotation a stored `rotation` value names: exactly 0, 90, 180 or 270
    /// (the spec's quarter turns); `None` for anything else, which the spec
    /// rejects as INVALID_FIELD.
    pub fn from_degrees(degrees: f64) -> Option<Self> {
        if degrees == 0.0 {
            Some(FaceRotation::Deg0)
        } else if degrees == 90.0 {
            Some(FaceRotation::Deg90)
        } else if degrees == 180.0 {
            Some(FaceRotation::Deg180)
        } else if degrees == 270.0 {
            Some(FaceRotation::Deg270)
        } else {
            None
        }
    }

    /// The angle in degrees (0, 90, 180 or 270).
    pub const fn degrees(self) -> u16 {
        match self {
            FaceRotation::Deg0 => 0,
            FaceRotation::Deg90 => 90,
            FaceRotation::Deg180 => 180,
            FaceRotation::Deg270 => 270,
        }
    }
}

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

/// One drawn face's stored numbers. A face that is not drawn (missing from
/// `faces`, or `texture: null`) is passed as `None` instead.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FaceInput {
    /// The stored `uv` `[u1, v1, u2, v2]` in texels; `None` when the face has
    /// none: the box-UV layout on a box-UV cube, else [`DEFAULT_FACE_UV`].
    /// `u1 > u2` or `v1 > v2` mirrors the image (it falls out of the mapping).
    pub uv: Option<[f64; 4]>,
    /// The stored `rotation`.
    pub rotation: FaceRotation,
}

/// One face that gets triangles: [`FACE_TRIANGLES`] of its corners.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeFace {
    /// Which face of the file this is (its texture, UV and key).
    pub name: FaceName,
    /// Model-space corners (the cube's rotation about its origin baked in), in
    /// the order top-left, bottom-left, bottom-right, top-right of the face seen
    /// from its authored outside (convention 2). Counter-clockwise about
    /// [`CubeFace::normal`].
    pub corners: [[f32; 3]; 4],
    /// The texel UV of each corner (U right, V down), before dividing by the UV
    /// size; `f64` so the caller normalises (and divides by frames) first and
    /// rounds once.
    pub uvs: [[f64; 2]; 4],
    /// The face's UV rectangle `[u1, v1, u2, v2]` in texels as used: the stored
    /// one, the box-UV layout or [`DEFAULT_FACE_UV`]. Its bounding box is the
    /// face's `uv_rects` entry before normalising.
    pub uv: [f64; 4],
    /// Unit normal of the geometric front, from the winding (not the face
    /// key's fixed normal), turned with the cube.
    pub normal: [f32; 3],
    /// The face lies in the plane of a zero-thickness axis of the cube (a flat
    /// cube's large face).
    pub in_flat_plane: bool,
    /// [`CubeFace::in_flat_plane`] and the opposite face is drawn too: the two
    /// coincide facing opposite ways, so each must be single-sided ("Sidedness").
    /// A lone face there keeps its texture's sidedness.
    pub coincides_with_opposite: bool,
}

/// The facts about a cube's box that decide which faces get triangles and
/// how they are sided, without the faces' geometry (what counting needs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeShape {
    /// See [`CubeFaces::flat`].
    pub flat: [bool; 3],
    /// See [`CubeFaces::reversed`].
    pub reversed: [bool; 3],
    /// See [`CubeFaces::inverted`].
    pub inverted: bool,
    /// See [`CubeFaces::outline_hull`].
    pub outline_hull: bool,
}

impl CubeShape {
    /// The shape of `cube`, whose box [`cube_box`] gave as `lo`, `hi`.
    fn of(cube: &CubeInput, lo: [f64; 3], hi: [f64; 3]) -> Self {
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

/// The faces of one cube and the facts about its box the caller needs for
/// sidedness.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeFaces {
    /// Per [`FaceName::index`]: the face, or `None` when it was not drawn or
    /// has zero area (no triangles).
    pub faces: [Option<CubeFace>; 6],
    /// Per axis: the signed extent `e` is negative, the axis is mirrored.
    pub reversed: [bool; 3],
    /// Per axis: zero thickness (`e = 0`; faces across it have no area).
    pub flat: [bool; 3],
    /// An odd number of reversed axes: every face's front points inward.
    pub inverted: bool,
    /// [`CubeFaces::inverted`] and the cube has volume on every axis both as
    /// authored (`to ≠ from`) and after inflate and stretch: the outline hull
    /// of "Conversion, cube box" (auto-sided and untextured faces single-sided
    /// and camera-only). A pane mirrored in its plane is not one.
    pub outline_hull: bool,
}

impl CubeFaces {
    /// The face `name`, if it gets triangles.
    pub fn face(&self, name: FaceName) -> Option<&CubeFace> {
        self.faces.get(name.index()).and_then(Option::as_ref)
    }

    /// The faces that get triangles, in [`FaceName::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = &CubeFace> {
        self.faces.iter().flatten()
    }

    /// How many axes are reversed (0–3).
    pub fn reversed_count(&self) -> u8 {
        self.reversed.iter().map(|&r| u8::from(r)).sum()
    }

    /// Triangles of the drawn faces: 2 each.
    pub fn triangle_count(&self) -> usize {
        self.iter().count() * 2
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

/// The box-UV size `(w, h, d)` of a cube: `to − from` of the plain cube
/// (signed, so negative on a reversed axis; inflate and stretch ignored),
/// floored as `floor(to − from + 1e-7)` unless `float_size` (the format's
/// `box_uv_float_size`) keeps fractions (Blockbench `Cube.size(_, 'box_uv')`).
pub fn box_uv_size(from: [f64; 3], to: [f64; 3], float_size: bool) -> [f64; 3] {
    let size = |from: f64, to: f64| {
        if float_size {
            to - from
        } else {
            libm::floor(to - from + BOX_UV_EPSILON)
        }
    };
    [
        size(from[0], to[0]),
        size(from[1], to[1]),
        size(from[2], to[2]),
    ]
}

/// Blockbench's box-UV layout (convention 5), per [`FaceName::index`], each
/// `[u1, v1, u2, v2]` in texels, for the box-UV `size` `(w, h, d)`:
///
/// | face | rectangle |
/// | --- | --- |
/// | east | `(0, d)`, d × h |
/// | north | `(d, d)`, w × h |
/// | west | `(d + w, d)`, d × h |
/// | south | `(2d + w, d)`, w × h |
/// | up | `[d + w, d, d, 0]` (turned 180°) |
/// | down | `[d + 2w, 0, d + w, d]` (mirrored horizontally) |
///
/// all shifted by `uv_offset`. `mirror` flips every face horizontally and
/// swaps east and west (Blockbench `updateUV`; computed in its order, so the
/// floats match).
pub fn box_uv_layout(size: [f64; 3], uv_offset: [f64; 2], mirror: bool) -> [[f64; 4]; 6] {
    let [w, h, d] = size;
    // Blockbench's (start, size) pairs.
    let mut north = ([d, d], [w, h]);
    let mut east = ([0.0, d], [d, h]);
    let mut south = ([d * 2.0 + w, d], [w, h]);
    let mut west = ([d + w, d], [d, h]);
    let mut up = ([d + w, d], [-w, -d]);
    let mut down = ([d + w * 2.0, 0.0], [-w, d]);
    if mirror {
        for (start, extent) in [
            &mut north, &mut east, &mut south, &mut west, &mut up, &mut down,
        ] {
            start[0] += extent[0];
            extent[0] = -extent[0];
        }
        core::mem::swap(&mut east, &mut west);
    }
    let rect = |(start, extent): ([f64; 2], [f64; 2])| {
        [
            start[0] + uv_offset[0],
            start[1] + uv_offset[1],
            start[0] + extent[0] + uv_offset[0],
            start[1] + extent[1] + uv_offset[1],
        ]
    };
    [
        rect(north),
        rect(east),
        rect(south),
        rect(west),
        rect(up),
        rect(down),
    ]
}

/// Turns one cube into its faces ("Conversion, cube box" and "faces").
///
/// - The box is [`cube_box`]. An axis with `lo > hi` (signed extent `e < 0`:
///   `from > to`, negative stretch, or a negative inflate larger than half a
///   side) is reversed; every face is laid out from `lo`/`hi` as on a plain
///   cube, so on a reversed axis it is mirrored about the centre and keeps its
///   UV (the east face of a cube reversed in x lies on the −X side). An odd
///   number of reversed axes turns every front inward; an even number leaves an
///   outward box. `lo == hi` is flat, not reversed.
/// - Corners follow convention 2: `(u1, v1)` at the face's top-left seen from
///   outside; side faces have +Y at the top, north's top-left is east, south's
///   west, east's south, west's north; up has north at the top (top-left
///   north-west), down south at the top (top-left south-west). The face
///   rotation turns the image clockwise.
/// - The cube's rotation (convention 1: degrees, `R = Rz·Ry·Rx`, +90° about Y
///   takes +X to −Z) turns every corner about `origin`.
/// - A face with zero area (across a flat axis) gets no triangles: a flat cube
///   keeps only its large faces.
/// - UVs come from the stored `uv`, else the box-UV layout of
///   [`box_uv_size`] on a box-UV cube, else [`DEFAULT_FACE_UV`]; inflate and
///   stretch never change them.
pub fn cube_faces(cube: &CubeInput, faces: &[Option<FaceInput>; 6]) -> CubeFaces {
    let (lo, hi) = cube_box(cube);
    let CubeShape {
        flat,
        reversed,
        inverted,
        outline_hull,
    } = CubeShape::of(cube, lo, hi);

    let layout = if cube.box_uv {
        let size = box_uv_size(cube.from, cube.to, cube.box_uv_float_size);
        Some(box_uv_layout(size, cube.uv_offset, cube.mirror_uv))
    } else {
        None
    };
    let rotation = Rotation::from_degrees(cube.rotation);

    let mut out = [None; 6];
    for ((name, input), slot) in FaceName::ALL.iter().zip(faces).zip(out.iter_mut()) {
        let Some(input) = input else { continue };
        let (a, b) = name.plane_axes();
        if a.pick(flat) || b.pick(flat) {
            continue;
        }
        let uv = match (input.uv, layout) {
            (Some(uv), _) => uv,
            (None, Some(layout)) => layout.get(name.index()).copied().unwrap_or(DEFAULT_FACE_UV),
            (None, None) => DEFAULT_FACE_UV,
        };
        let corners = face_corners(*name, lo, hi);
        let normal = winding_normal(*name, &corners);
        let in_flat_plane = name.normal_axis().pick(flat);
        let opposite_drawn = faces
            .get(name.opposite().index())
            .is_some_and(Option::is_some);
        *slot = Some(CubeFace {
            name: *name,
            corners: corners.map(|c| to_f32_3(rotation.about(cube.origin, c))),
            uvs: corner_uvs(uv, input.rotation),
            uv,
            normal: to_f32_3(rotation.apply(normal)),
            in_flat_plane,
            coincides_with_opposite: in_flat_plane && opposite_drawn,
        });
    }
    CubeFaces {
        faces: out,
        reversed,
        flat,
        inverted,
        outline_hull,
    }
}

/// A coordinate axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Axis {
    X,
    Y,
    Z,
}

impl Axis {
    const fn index(self) -> usize {
        match self {
            Axis::X => 0,
            Axis::Y => 1,
            Axis::Z => 2,
        }
    }

    /// This axis's component of `v`.
    fn pick<T: Copy>(self, v: [T; 3]) -> T {
        match self {
            Axis::X => v[0],
            Axis::Y => v[1],
            Axis::Z => v[2],
        }
    }
}

/// The unrotated corners of `name` on the box `lo`..`hi`: top-left,
/// bottom-left, bottom-right, top-right as convention 2 places them on a plain
/// cube (Blockbench `CubeFace.UVToLocal`, whose `from`/`to` are `lo`/`hi`).
/// Counter-clockwise seen from outside on a plain cube.
fn face_corners(name: FaceName, lo: [f64; 3], hi: [f64; 3]) -> [[f64; 3]; 4] {
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
fn winding_normal(name: FaceName, corners: &[[f64; 3]; 4]) -> [f64; 3] {
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

/// The texel UV of each corner (top-left, bottom-left, bottom-right,
/// top-right): the image corners of `[u1, v1, u2, v2]` in the same order,
/// turned clockwise by `rotation` (convention 2; Blockbench `updateUV`).
fn corner_uvs(uv: [f64; 4], rotation: FaceRotation) -> [[f64; 2]; 4] {
    let [u1, v1, u2, v2] = uv;
    let (tl, bl, br, tr) = ([u1, v1], [u1, v2], [u2, v2], [u2, v1]);
    match rotation {
        FaceRotation::Deg0 => [tl, bl, br, tr],
        // Turned clockwise: the image's bottom-left shows at the face's top-left.
        FaceRotation::Deg90 => [bl, br, tr, tl],
        FaceRotation::Deg180 => [br, tr, tl, bl],
        FaceRotation::Deg270 => [tr, tl, bl, br],
    }
}

/// A rotation matrix `R = Rz · Ry · Rx` (convention 1), rows.
#[derive(Clone, Copy, Debug)]
struct Rotation([[f64; 3]; 3]);

impl Rotation {
    /// From Euler angles in degrees, X applied first, right-handed.
    fn from_degrees(degrees: [f64; 3]) -> Self {
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
    fn apply(&self, v: [f64; 3]) -> [f64; 3] {
        let [r0, r1, r2] = self.0;
        [dot(r0, v), dot(r1, v), dot(r2, v)]
    }

    /// `origin + R · (p − origin)`: `p` turned about `origin`.
    fn about(&self, origin: [f64; 3], p: [f64; 3]) -> [f64; 3] {
        let [x, y, z] = self.apply(sub(p, origin));
        [origin[0] + x, origin[1] + y, origin[2] + z]
    }
}

/// `(sin, cos)` of an angle in degrees, reduced to a quarter turn first so
/// that multiples of 90° are exact (a cube turned 90° keeps integer corners).
fn sin_cos_degrees(degrees: f64) -> (f64, f64) {
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

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
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
fn to_f32_3(v: [f64; 3]) -> [f32; 3] {
    [v[0] as f32, v[1] as f32, v[2] as f32]
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL_FACES: [Option<FaceInput>; 6] = [Some(FaceInput {
        uv: None,
        rotation: FaceRotation::Deg0,
    }); 6];

    fn faces_with_uv(uv: [f64; 4], rotation: FaceRotation) -> [Option<FaceInput>; 6] {
        [Some(FaceInput {
            uv: Some(uv),
            rotation,
        }); 6]
    }

    fn face(result: &CubeFaces, name: FaceName) -> CubeFace {
        match result.face(name) {
            Some(face) => *face,
            None => panic!("{} face missing", name.as_str()),
        }
    }

    fn sub32(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
        [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
    }

    fn cross32(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    }

    fn dot32(a: [f32; 3], b: [f32; 3]) -> f32 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }

    fn centre32(corners: &[[f32; 3]; 4]) -> [f32; 3] {
        let mut c = [0.0; 3];
        for p in corners {
            for (ci, pi) in c.iter_mut().zip(p) {
                *ci += pi / 4.0;
            }
        }
        c
    }

    /// 2 × 3 × 4 cube at the origin, explicit uv [0, 0, 2, 3] on every face.
    fn plain_2x3x4() -> CubeFaces {
        let cube = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
        cube_faces(
            &cube,
            &faces_with_uv([0.0, 0.0, 2.0, 3.0], FaceRotation::Deg0),
        )
    }

    const UV_TL_BL_BR_TR: [[f64; 2]; 4] = [[0.0, 0.0], [0.0, 3.0], [2.0, 3.0], [2.0, 0.0]];

    #[test]
    fn face_name_keys_round_trip() {
        for (i, name) in FaceName::ALL.iter().enumerate() {
            assert_eq!(FaceName::from_key(name.as_str()), Some(*name));
            assert_eq!(name.index(), i);
            assert_eq!(name.opposite().opposite(), *name);
            assert_eq!(name.opposite().axis(), name.axis());
        }
        assert_eq!(FaceName::from_key("North"), None);
        assert_eq!(FaceName::from_key(""), None);
    }

    #[test]
    fn face_rotation_accepts_only_quarter_turns() {
        assert_eq!(FaceRotation::from_degrees(0.0), Some(FaceRotation::Deg0));
        assert_eq!(FaceRotation::from_degrees(90.0), Some(FaceRotation::Deg90));
        assert_eq!(
            FaceRotation::from_degrees(180.0),
            Some(FaceRotation::Deg180)
        );
        assert_eq!(
            FaceRotation::from_degrees(270.0),
            Some(FaceRotation::Deg270)
        );
        for bad in [45.0, -90.0, 360.0, 90.5, f64::NAN, f64::INFINITY] {
            assert_eq!(FaceRotation::from_degrees(bad), None, "{bad}");
        }
        assert_eq!(FaceRotation::Deg270.degrees(), 270);
    }

    #[test]
    fn convention_2_north_face_top_left_is_east() {
        let north = face(&plain_2x3x4(), FaceName::North);
        assert_eq!(
            north.corners,
            [
                [2.0, 3.0, 0.0],
                [2.0, 0.0, 0.0],
                [0.0, 0.0, 0.0],
                [0.0, 3.0, 0.0]
            ]
        );
        assert_eq!(north.uvs, UV_TL_BL_BR_TR);
        assert_eq!(north.normal, [0.0, 0.0, -1.0]);
    }

    #[test]
    fn convention_2_south_face_top_left_is_west() {
        let south = face(&plain_2x3x4(), FaceName::South);
        assert_eq!(
            south.corners,
            [
                [0.0, 3.0, 4.0],
                [0.0, 0.0, 4.0],
                [2.0, 0.0, 4.0],
                [2.0, 3.0, 4.0]
            ]
        );
        assert_eq!(south.uvs, UV_TL_BL_BR_TR);
        assert_eq!(south.normal, [0.0, 0.0, 1.0]);
    }

    #[test]
    fn convention_2_east_face_top_left_is_south() {
        let east = face(&plain_2x3x4(), FaceName::East);
        assert_eq!(
            east.corners,
            [
                [2.0, 3.0, 4.0],
                [2.0, 0.0, 4.0],
                [2.0, 0.0, 0.0],
                [2.0, 3.0, 0.0]
            ]
        );
        assert_eq!(east.uvs, UV_TL_BL_BR_TR);
        assert_eq!(east.normal, [1.0, 0.0, 0.0]);
    }

    #[test]
    fn convention_2_west_face_top_left_is_north() {
        let west = face(&plain_2x3x4(), FaceName::West);
        assert_eq!(
            west.corners,
            [
                [0.0, 3.0, 0.0],
                [0.0, 0.0, 0.0],
                [0.0, 0.0, 4.0],
                [0.0, 3.0, 4.0]
            ]
        );
        assert_eq!(west.uvs, UV_TL_BL_BR_TR);
        assert_eq!(west.normal, [-1.0, 0.0, 0.0]);
    }

    #[test]
    fn convention_2_up_face_top_left_is_north_west() {
        let up = face(&plain_2x3x4(), FaceName::Up);
        assert_eq!(
            up.corners,
            [
                [0.0, 3.0, 0.0],
                [0.0, 3.0, 4.0],
                [2.0, 3.0, 4.0],
                [2.0, 3.0, 0.0]
            ]
        );
        assert_eq!(up.uvs, UV_TL_BL_BR_TR);
        assert_eq!(up.normal, [0.0, 1.0, 0.0]);
    }

    #[test]
    fn convention_2_down_face_top_left_is_south_west() {
        let down = face(&plain_2x3x4(), FaceName::Down);
        assert_eq!(
            down.corners,
            [
                [0.0, 0.0, 4.0],
                [0.0, 0.0, 0.0],
                [2.0, 0.0, 0.0],
                [2.0, 0.0, 4.0]
            ]
        );
        assert_eq!(down.uvs, UV_TL_BL_BR_TR);
        assert_eq!(down.normal, [0.0, -1.0, 0.0]);
    }

    #[test]
    fn convention_2_mirroring_falls_out_of_the_corner_mapping() {
        // u1 > u2 flips horizontally, v1 > v2 vertically.
        let cube = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
        let result = cube_faces(
            &cube,
            &faces_with_uv([2.0, 0.0, 0.0, 3.0], FaceRotation::Deg0),
        );
        assert_eq!(
            face(&result, FaceName::North).uvs,
            [[2.0, 0.0], [2.0, 3.0], [0.0, 3.0], [0.0, 0.0]]
        );
        let result = cube_faces(
            &cube,
            &faces_with_uv([0.0, 3.0, 2.0, 0.0], FaceRotation::Deg0),
        );
        assert_eq!(
            face(&result, FaceName::North).uvs,
            [[0.0, 3.0], [0.0, 0.0], [2.0, 0.0], [2.0, 3.0]]
        );
    }

    #[test]
    fn face_rotation_90_turns_image_clockwise() {
        // Turned clockwise, the image's bottom-left lands on the face's
        // top-left, its top-left on the face's top-right (Blockbench updateUV).
        let cube = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
        let result = cube_faces(
            &cube,
            &faces_with_uv([0.0, 0.0, 2.0, 3.0], FaceRotation::Deg90),
        );
        let north = face(&result, FaceName::North);
        assert_eq!(north.uvs, [[0.0, 3.0], [2.0, 3.0], [2.0, 0.0], [0.0, 0.0]]);
        // Corners do not move.
        assert_eq!(north.corners, face(&plain_2x3x4(), FaceName::North).corners);
    }

    #[test]
    fn face_rotation_180_and_270_continue_clockwise() {
        let cube = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
        let uv = [0.0, 0.0, 2.0, 3.0];
        let r180 = cube_faces(&cube, &faces_with_uv(uv, FaceRotation::Deg180));
        assert_eq!(
            face(&r180, FaceName::Up).uvs,
            [[2.0, 3.0], [2.0, 0.0], [0.0, 0.0], [0.0, 3.0]]
        );
        let r270 = cube_faces(&cube, &faces_with_uv(uv, FaceRotation::Deg270));
        assert_eq!(
            face(&r270, FaceName::Up).uvs,
            [[2.0, 0.0], [0.0, 0.0], [0.0, 3.0], [2.0, 3.0]]
        );
    }

    #[test]
    fn convention_1_plus_90_about_y_takes_plus_x_to_minus_z() {
        let mut cube = CubeInput::new([0.0; 3], [1.0; 3]);
        cube.rotation = [0.0, 90.0, 0.0];
        let east = face(&cube_faces(&cube, &ALL_FACES), FaceName::East);
        assert_eq!(east.normal, [0.0, 0.0, -1.0]);
        assert_eq!(
            east.corners,
            [
                [1.0, 1.0, -1.0],
                [1.0, 0.0, -1.0],
                [0.0, 0.0, -1.0],
                [0.0, 1.0, -1.0]
            ]
        );
    }

    #[test]
    fn convention_1_applies_x_first() {
        // X first: +Y → +Z (90° about X) → +X (90° about Y). Y first would
        // give +Z.
        let mut cube = CubeInput::new([0.0; 3], [1.0; 3]);
        cube.rotation = [90.0, 90.0, 0.0];
        let up = face(&cube_faces(&cube, &ALL_FACES), FaceName::Up);
        assert_eq!(up.normal, [1.0, 0.0, 0.0]);
        // Then Z last: 90° about Z takes that +X to +Y.
        cube.rotation = [90.0, 90.0, 90.0];
        let up = face(&cube_faces(&cube, &ALL_FACES), FaceName::Up);
        assert_eq!(up.normal, [0.0, 1.0, 0.0]);
    }

    #[test]
    fn rotation_about_origin_is_baked_in() {
        let mut cube = CubeInput::new([8.0, 0.0, 8.0], [9.0, 1.0, 9.0]);
        cube.origin = [8.0, 0.0, 8.0];
        cube.rotation = [0.0, 90.0, 0.0];
        let east = face(&cube_faces(&cube, &ALL_FACES), FaceName::East);
        assert_eq!(
            east.corners,
            [
                [9.0, 1.0, 7.0],
                [9.0, 0.0, 7.0],
                [8.0, 0.0, 7.0],
                [8.0, 1.0, 7.0]
            ]
        );
        // 45° about Z around (0, 0, 0): (1, 1, z) goes to (0, √2, z).
        let mut cube = CubeInput::new([0.0; 3], [1.0; 3]);
        cube.rotation = [0.0, 0.0, 45.0];
        let east = face(&cube_faces(&cube, &ALL_FACES), FaceName::East);
        let top_left = east.corners[0];
        assert!(top_left[0].abs() < 1e-6, "{top_left:?}");
        assert!((top_left[1] - core::f32::consts::SQRT_2).abs() < 1e-6);
        assert_eq!(top_left[2], 1.0);
        let h = core::f32::consts::FRAC_1_SQRT_2;
        assert!((east.normal[0] - h).abs() < 1e-6 && (east.normal[1] - h).abs() < 1e-6);
    }

    #[test]
    fn multiples_of_90_degrees_are_exact() {
        for (deg, sin, cos) in [
            (0.0, 0.0, 1.0),
            (90.0, 1.0, 0.0),
            (180.0, 0.0, -1.0),
            (270.0, -1.0, 0.0),
            (-90.0, -1.0, 0.0),
            (450.0, 1.0, 0.0),
            (-360.0, 0.0, 1.0),
        ] {
            let (s, c) = sin_cos_degrees(deg);
            assert_eq!((s + 0.0, c + 0.0), (sin, cos), "{deg}");
        }
        let (s, c) = sin_cos_degrees(30.0);
        assert!((s - 0.5).abs() < 1e-15 && (c - libm::sqrt(3.0) / 2.0).abs() < 1e-15);
        let (s, _) = sin_cos_degrees(-1e-300);
        assert!(s.abs() < 1e-15);
    }

    #[test]
    fn cube_box_is_signed_extent_about_the_centre() {
        // e = ((to − from) / 2 + inflate) · stretch about (from + to) / 2.
        let mut cube = CubeInput::new([0.0, 0.0, 0.0], [2.0, 4.0, 6.0]);
        cube.inflate = 1.0;
        cube.stretch = [2.0, 1.0, 0.5];
        let (lo, hi) = cube_box(&cube);
        assert_eq!(lo, [-3.0, -1.0, 1.0]);
        assert_eq!(hi, [5.0, 5.0, 5.0]);
    }

    #[test]
    fn reversed_x_puts_east_face_on_minus_x() {
        let cube = CubeInput::new([2.0, 0.0, 0.0], [0.0, 1.0, 1.0]);
        let result = cube_faces(&cube, &ALL_FACES);
        assert_eq!(result.reversed, [true, false, false]);
        let east = face(&result, FaceName::East);
        // Mirrored about x = 1: on the −X side, UV kept.
        assert_eq!(
            east.corners,
            [
                [0.0, 1.0, 1.0],
                [0.0, 0.0, 1.0],
                [0.0, 0.0, 0.0],
                [0.0, 1.0, 0.0]
            ]
        );
        // Its front (from the winding) faces +X, into the box.
        assert_eq!(east.normal, [1.0, 0.0, 0.0]);
        let west = face(&result, FaceName::West);
        assert!(west.corners.iter().all(|c| c[0] == 2.0));
        assert_eq!(west.normal, [-1.0, 0.0, 0.0]);
    }

    #[test]
    fn normal_follows_winding_not_face_key() {
        // Reversed in x only: the north face (key normal −Z) is mirrored in x,
        // so its winding faces +Z, into the box.
        let cube = CubeInput::new([1.0, 0.0, 0.0], [0.0, 1.0, 1.0]);
        let north = face(&cube_faces(&cube, &ALL_FACES), FaceName::North);
        assert!(north.corners.iter().all(|c| c[2] == 0.0));
        assert_eq!(north.normal, [0.0, 0.0, 1.0]);
    }

    /// Every drawn face's front points away from (or, `inward`, towards) the
    /// box centre, the mean of the face centres (all six faces drawn).
    fn assert_all_fronts(result: &CubeFaces, inward: bool) {
        let mut centre = [0.0f32; 3];
        for f in result.iter() {
            for (s, c) in centre.iter_mut().zip(centre32(&f.corners)) {
                *s += c / 6.0;
            }
        }
        assert_eq!(result.iter().count(), 6);
        for f in result.iter() {
            let d = dot32(sub32(centre32(&f.corners), centre), f.normal);
            assert_eq!(d < 0.0, inward, "{} front", f.name.as_str());
            assert!(d != 0.0);
        }
    }

    #[test]
    fn odd_reversed_axes_make_an_inverted_hull() {
        // One axis by negative stretch, three by from > to.
        let mut stretched = CubeInput::new([0.0; 3], [2.0, 2.0, 2.0]);
        stretched.stretch = [-1.0, 1.0, 1.0];
        let all_three = CubeInput::new([2.0, 3.0, 4.0], [0.0; 3]);
        for cube in [stretched, all_three] {
            let result = cube_faces(&cube, &ALL_FACES);
            assert!(result.inverted && result.outline_hull);
            assert_eq!(result.reversed_count() % 2, 1);
            assert_eq!(result.iter().count(), 6);
            assert_all_fronts(&result, true);
        }
    }

    #[test]
    fn even_reversed_axes_leave_an_outward_box() {
        let cube = CubeInput::new([2.0, 3.0, 0.0], [0.0, 0.0, 4.0]);
        let result = cube_faces(&cube, &ALL_FACES);
        assert_eq!(result.reversed, [true, true, false]);
        assert!(!result.inverted && !result.outline_hull);
        assert_all_fronts(&result, false);
    }

    #[test]
    fn even_reversed_axes_turn_each_texture_180_degrees() {
        // Reversed in x and y: the north face stays at −Z, but its (u1, v1)
        // corner is now at −X (the viewer's right from −Z) and −Y: the image
        // shows turned 180° on the same side.
        let cube = CubeInput::new([2.0, 3.0, 0.0], [0.0, 0.0, 4.0]);
        let result = cube_faces(
            &cube,
            &faces_with_uv([0.0, 0.0, 2.0, 3.0], FaceRotation::Deg0),
        );
        let north = face(&result, FaceName::North);
        assert_eq!(north.corners[0], [0.0, 0.0, 0.0]);
        assert_eq!(north.uvs[0], [0.0, 0.0]);
        assert_eq!(north.corners[2], [2.0, 3.0, 0.0]);
        assert_eq!(north.normal, [0.0, 0.0, -1.0]);
        // Reversed in x and z: the north face lies on +Z facing +Z, its image
        // as a south face's would be (the whole box turned 180° about Y).
        let cube = CubeInput::new([2.0, 0.0, 4.0], [0.0, 3.0, 0.0]);
        let north = face(&cube_faces(&cube, &ALL_FACES), FaceName::North);
        assert!(north.corners.iter().all(|c| c[2] == 4.0));
        assert_eq!(north.corners[0], [0.0, 3.0, 4.0]);
        assert_eq!(north.normal, [0.0, 0.0, 1.0]);
    }

    #[test]
    fn negative_inflate_past_half_a_side_reverses() {
        // 2 × 4 × 6 with inflate −1.5: x (half 1) reverses, y and z shrink.
        let mut cube = CubeInput::new([0.0; 3], [2.0, 4.0, 6.0]);
        cube.inflate = -1.5;
        let result = cube_faces(&cube, &ALL_FACES);
        assert_eq!(result.reversed, [true, false, false]);
        assert_eq!(cube_box(&cube), ([1.5, 1.5, 1.5], [0.5, 2.5, 4.5]));
        assert!(result.inverted && result.outline_hull);
        let east = face(&result, FaceName::East);
        assert!(east.corners.iter().all(|c| c[0] == 0.5));
        assert_all_fronts(&result, true);
    }

    #[test]
    fn negative_inflate_of_exactly_half_a_side_is_flat_not_reversed() {
        let mut cube = CubeInput::new([0.0; 3], [2.0, 4.0, 6.0]);
        cube.inflate = -1.0;
        let result = cube_faces(&cube, &ALL_FACES);
        assert_eq!(result.reversed, [false; 3]);
        assert_eq!(result.flat, [true, false, false]);
        let kept: [bool; 6] = FaceName::ALL.map(|n| result.face(n).is_some());
        assert_eq!(kept, [false, true, false, true, false, false]);
        assert!(face(&result, FaceName::East).coincides_with_opposite);
    }

    #[test]
    fn positive_inflate_turns_a_reversed_axis_back() {
        let mut cube = CubeInput::new([2.0, 0.0, 0.0], [0.0, 2.0, 2.0]);
        // Shrinks the reversed axis: e = −1 + 0.5.
        cube.inflate = 0.5;
        let result = cube_faces(&cube, &ALL_FACES);
        assert_eq!(result.reversed, [true, false, false]);
        assert_eq!(cube_box(&cube).0[0], 1.5);
        // Past zero turns it back: e = −1 + 1.5.
        cube.inflate = 1.5;
        let result = cube_faces(&cube, &ALL_FACES);
        assert_eq!(result.reversed, [false; 3]);
        assert!(!result.inverted && !result.outline_hull);
        let east = face(&result, FaceName::East);
        assert!(east.corners.iter().all(|c| c[0] == 1.5));
        assert_all_fronts(&result, false);
        // At zero it is flat, not reversed.
        cube.inflate = 1.0;
        let result = cube_faces(&cube, &ALL_FACES);
        assert_eq!(
            (result.reversed, result.flat),
            ([false; 3], [true, false, false])
        );
    }

    #[test]
    fn flat_cube_keeps_only_large_faces() {
        let cube = CubeInput::new([0.0; 3], [2.0, 0.0, 3.0]);
        let result = cube_faces(&cube, &ALL_FACES);
        let kept: [bool; 6] = FaceName::ALL.map(|n| result.face(n).is_some());
        assert_eq!(kept, [false, false, false, false, true, true]);
        assert_eq!(result.triangle_count(), 4);
        let up = face(&result, FaceName::Up);
        let down = face(&result, FaceName::Down);
        // No 0.001 padding: both lie at y = 0.
        assert!(up.corners.iter().chain(&down.corners).all(|c| c[1] == 0.0));
        assert_eq!(
            (up.normal, down.normal),
            ([0.0, 1.0, 0.0], [0.0, -1.0, 0.0])
        );
        // Both drawn: coincident, each single-sided.
        assert!(up.in_flat_plane && up.coincides_with_opposite);
        assert!(down.in_flat_plane && down.coincides_with_opposite);
        assert!(!result.outline_hull);
    }

    #[test]
    fn lone_face_in_a_flat_plane_keeps_its_sidedness() {
        // A glass pane: the opposite face removed (texture: null) or absent.
        let cube = CubeInput::new([0.0; 3], [2.0, 3.0, 0.0]);
        let mut faces = ALL_FACES;
        faces[FaceName::South.index()] = None;
        let result = cube_faces(&cube, &faces);
        assert!(result.face(FaceName::South).is_none());
        let north = face(&result, FaceName::North);
        assert!(north.in_flat_plane && !north.coincides_with_opposite);
    }

    #[test]
    fn cube_flat_on_two_axes_has_no_faces() {
        let cube = CubeInput::new([0.0; 3], [2.0, 0.0, 0.0]);
        let result = cube_faces(&cube, &ALL_FACES);
        assert_eq!(result.iter().count(), 0);
        assert_eq!(result.triangle_count(), 0);
    }

    #[test]
    fn undrawn_faces_stay_none() {
        let cube = CubeInput::new([0.0; 3], [1.0; 3]);
        let mut faces = ALL_FACES;
        faces[FaceName::Up.index()] = None;
        let result = cube_faces(&cube, &faces);
        assert!(result.face(FaceName::Up).is_none());
        assert_eq!(result.triangle_count(), 10);
        // Up's opposite is not in a flat plane, so nothing coincides.
        assert!(!face(&result, FaceName::Down).coincides_with_opposite);
    }

    #[test]
    fn pane_mirrored_in_its_plane_is_no_hull() {
        // Flat as authored (inflate gives it volume), reversed in x.
        let mut cube = CubeInput::new([0.0; 3], [2.0, 0.0, 2.0]);
        cube.inflate = 0.5;
        cube.stretch = [-1.0, 1.0, 1.0];
        let result = cube_faces(&cube, &ALL_FACES);
        assert!(result.inverted && !result.outline_hull);
        assert_eq!(result.flat, [false; 3]);
        // Flat as authored and mirrored in its plane.
        let cube = CubeInput::new([2.0, 0.0, 0.0], [0.0, 0.0, 2.0]);
        let result = cube_faces(&cube, &ALL_FACES);
        assert!(result.inverted && !result.outline_hull);
        // Flattened by inflate.
        let mut cube = CubeInput::new([2.0, 0.0, 0.0], [0.0, 2.0, 2.0]);
        cube.inflate = -1.0;
        let result = cube_faces(&cube, &ALL_FACES);
        assert_eq!(result.flat, [false, true, true]);
        assert!(!result.outline_hull);
    }

    #[test]
    fn convention_5_box_uv_layout_of_a_2x3x4_cube() {
        let layout = box_uv_layout([2.0, 3.0, 4.0], [0.0, 0.0], false);
        assert_eq!(layout[FaceName::East.index()], [0.0, 4.0, 4.0, 7.0]);
        assert_eq!(layout[FaceName::North.index()], [4.0, 4.0, 6.0, 7.0]);
        assert_eq!(layout[FaceName::West.index()], [6.0, 4.0, 10.0, 7.0]);
        assert_eq!(layout[FaceName::South.index()], [10.0, 4.0, 12.0, 7.0]);
        // Up turned 180°: [d + w, d, d, 0].
        assert_eq!(layout[FaceName::Up.index()], [6.0, 4.0, 4.0, 0.0]);
        // Down mirrored horizontally: [d + 2w, 0, d + w, d].
        assert_eq!(layout[FaceName::Down.index()], [8.0, 0.0, 6.0, 4.0]);
    }

    #[test]
    fn convention_5_box_uv_layout_is_shifted_by_uv_offset() {
        let layout = box_uv_layout([2.0, 3.0, 4.0], [16.0, 32.0], false);
        assert_eq!(layout[FaceName::North.index()], [20.0, 36.0, 22.0, 39.0]);
        assert_eq!(layout[FaceName::Up.index()], [22.0, 36.0, 20.0, 32.0]);
    }

    #[test]
    fn mirror_uv_swaps_east_and_west() {
        let layout = box_uv_layout([2.0, 3.0, 4.0], [0.0, 0.0], true);
        // Every face flipped horizontally; east takes west's place and v.v.
        assert_eq!(layout[FaceName::East.index()], [10.0, 4.0, 6.0, 7.0]);
        assert_eq!(layout[FaceName::West.index()], [4.0, 4.0, 0.0, 7.0]);
        assert_eq!(layout[FaceName::North.index()], [6.0, 4.0, 4.0, 7.0]);
        assert_eq!(layout[FaceName::South.index()], [12.0, 4.0, 10.0, 7.0]);
        assert_eq!(layout[FaceName::Up.index()], [4.0, 4.0, 6.0, 0.0]);
        assert_eq!(layout[FaceName::Down.index()], [6.0, 0.0, 8.0, 4.0]);
    }

    #[test]
    fn box_uv_cube_maps_the_layout_onto_its_faces() {
        let mut cube = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
        cube.box_uv = true;
        cube.uv_offset = [1.0, 2.0];
        let result = cube_faces(&cube, &ALL_FACES);
        let north = face(&result, FaceName::North);
        assert_eq!(north.uv, [5.0, 6.0, 7.0, 9.0]);
        assert_eq!(north.uvs, [[5.0, 6.0], [5.0, 9.0], [7.0, 9.0], [7.0, 6.0]]);
        // Up, stored turned 180°: its top-left (north-west) corner reads
        // (d + w, d) + offset.
        let up = face(&result, FaceName::Up);
        assert_eq!(up.uvs[0], [7.0, 6.0]);
    }

    #[test]
    fn explicit_uv_wins_over_box_layout() {
        let mut cube = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
        cube.box_uv = true;
        let mut faces = ALL_FACES;
        faces[FaceName::North.index()] = Some(FaceInput {
            uv: Some([1.0, 1.0, 3.0, 4.0]),
            rotation: FaceRotation::Deg0,
        });
        let result = cube_faces(&cube, &faces);
        assert_eq!(face(&result, FaceName::North).uv, [1.0, 1.0, 3.0, 4.0]);
        assert_eq!(face(&result, FaceName::South).uv, [10.0, 4.0, 12.0, 7.0]);
    }

    #[test]
    fn face_without_uv_outside_box_uv_gets_blockbench_default() {
        let cube = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
        let result = cube_faces(&cube, &ALL_FACES);
        assert!(result.iter().all(|f| f.uv == DEFAULT_FACE_UV));
    }

    #[test]
    fn box_uv_size_floors_fractional_extent() {
        assert_eq!(
            box_uv_size([0.5, 0.0, 0.0], [3.2, 1.0, 1.0], false),
            [2.0, 1.0, 1.0]
        );
        // 4.35 − 1.35 = 2.9999999999999996: the 1e-7 makes it 3.
        assert_eq!(
            box_uv_size([1.35, 0.0, 0.0], [4.35, 0.0, 0.0], false)[0],
            3.0
        );
        // Signed: negative on a reversed axis, floored downwards.
        assert_eq!(
            box_uv_size([2.0, 2.5, 0.0], [0.0, 0.0, 0.0], false),
            [-2.0, -3.0, 0.0]
        );
    }

    #[test]
    fn box_uv_float_size_keeps_fractions() {
        let size = box_uv_size([0.5, 0.0, 1.35], [3.25, 1.5, 4.35], true);
        assert_eq!(size, [2.75, 1.5, 4.35 - 1.35]);
        let mut cube = CubeInput::new([0.0; 3], [2.5, 1.0, 1.0]);
        cube.box_uv = true;
        cube.box_uv_float_size = true;
        let result = cube_faces(&cube, &ALL_FACES);
        assert_eq!(face(&result, FaceName::North).uv, [1.0, 1.0, 3.5, 2.0]);
        cube.box_uv_float_size = false;
        let result = cube_faces(&cube, &ALL_FACES);
        assert_eq!(face(&result, FaceName::North).uv, [1.0, 1.0, 3.0, 2.0]);
    }

    #[test]
    fn box_uv_of_a_reversed_cube_uses_the_negative_size() {
        let mut cube = CubeInput::new([2.0, 0.0, 0.0], [0.0, 3.0, 4.0]);
        cube.box_uv = true;
        let result = cube_faces(&cube, &ALL_FACES);
        // w = −2: north at (d, d), −2 wide.
        assert_eq!(face(&result, FaceName::North).uv, [4.0, 4.0, 2.0, 7.0]);
    }

    #[test]
    fn stretch_and_inflate_never_change_uvs() {
        let mut plain = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
        plain.box_uv = true;
        let mut faces = ALL_FACES;
        faces[FaceName::North.index()] = Some(FaceInput {
            uv: Some([1.0, 1.0, 3.0, 4.0]),
            rotation: FaceRotation::Deg90,
        });
        let mut changed = plain;
        changed.inflate = 1.25;
        changed.stretch = [2.0, 0.5, 3.0];
        let (a, b) = (cube_faces(&plain, &faces), cube_faces(&changed, &faces));
        for name in FaceName::ALL {
            assert_eq!(face(&a, name).uvs, face(&b, name).uvs, "{}", name.as_str());
            assert_eq!(face(&a, name).uv, face(&b, name).uv);
            assert_ne!(face(&a, name).corners, face(&b, name).corners);
        }
    }

    #[test]
    fn every_face_winds_counter_clockwise_about_its_normal() {
        let mut rotated = CubeInput::new([-1.0, 2.0, 3.0], [4.0, 5.0, 9.0]);
        rotated.origin = [1.0, 1.0, 1.0];
        rotated.rotation = [22.5, -45.0, 10.0];
        let mut stretched = rotated;
        stretched.stretch = [-1.0, 2.0, 1.0];
        stretched.inflate = 0.25;
        let cubes = [
            CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]),
            CubeInput::new([2.0, 3.0, 4.0], [0.0; 3]),
            CubeInput::new([2.0, 0.0, 0.0], [0.0, 3.0, 4.0]),
            CubeInput::new([0.0; 3], [2.0, 0.0, 4.0]),
            rotated,
            stretched,
        ];
        for cube in cubes {
            let result = cube_faces(&cube, &ALL_FACES);
            assert!(result.iter().count() >= 2);
            for f in result.iter() {
                let n = f.normal;
                assert!((dot32(n, n) - 1.0).abs() < 1e-6, "unit normal");
                for [i, j, k] in FACE_TRIANGLES {
                    let [p0, p1, p2] =
                        [i, j, k].map(|c| f.corners.get(c as usize).copied().unwrap_or([0.0; 3]));
                    let t = cross32(sub32(p1, p0), sub32(p2, p0));
                    let len = libm::sqrtf(dot32(t, t));
                    assert!(len > 0.0);
                    // Parallel to the normal, same direction.
                    assert!(
                        (dot32(t, n) / len - 1.0).abs() < 1e-5,
                        "{}",
                        f.name.as_str()
                    );
                }
            }
            if !result.inverted && result.flat == [false; 3] {
                assert_all_fronts(&result, false);
            }
        }
    }

    #[test]
    fn hostile_numbers_never_panic() {
        let bad = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            -0.0,
            1e-300,
        ];
        for &v in &bad {
            let mut cube = CubeInput::new([v, 0.0, v], [1.0, v, 1.0]);
            cube.rotation = [v, v, v];
            cube.inflate = v;
            cube.stretch = [v, 1.0, v];
            cube.box_uv = true;
            cube.uv_offset = [v, v];
            cube.mirror_uv = true;
            let result = cube_faces(&cube, &ALL_FACES);
            let _ = result.triangle_count();
            let _ = result.reversed_count();
        }
    }
}
