//! A cube's faces: which are drawn, their corners, UVs (stored, box-UV
//! or default) and normals, as two triangles each.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use super::box_uv::{box_uv_layout, box_uv_size};
use super::face::{FaceInput, FaceName, FaceRotation};
use super::shape::{
    CubeInput, CubeShape, Rotation, cube_box, face_corners, to_f32_3, winding_normal,
};

/// The two triangles of every face, as indices into [`CubeFace::corners`]
/// (and [`CubeFace::uvs`]): counter-clockwise about [`CubeFace::normal`].
pub const FACE_TRIANGLES: [[u32; 3]; 2] = [[0, 1, 2], [0, 2, 3]];

/// The UV of a face that stores none in a cube without box UV: Blockbench's
/// `CubeFace` default `[0, 0, canvasGridSize(), canvasGridSize()]`, which is 1
/// with the default `edit_size` setting of 16 (a runtime setting, never saved).
pub const DEFAULT_FACE_UV: [f64; 4] = [0.0, 0.0, 1.0, 1.0];

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

/// The faces of one cube and the facts about its box the caller needs for
/// sidedness.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
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
    let mut out = CubeFaces::default();
    cube_faces_into(cube, faces, &mut out);
    out
}

/// [`cube_faces`] written into `out` (the caller's; a returned record, 968
/// bytes, would sit in this frame and the caller's at once).
#[inline(never)]
pub fn cube_faces_into(cube: &CubeInput, faces: &[Option<FaceInput>; 6], out: &mut CubeFaces) {
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

    *out = CubeFaces {
        faces: [None; 6],
        reversed,
        flat,
        inverted,
        outline_hull,
    };
    for ((name, input), slot) in FaceName::ALL.iter().zip(faces).zip(out.faces.iter_mut()) {
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
