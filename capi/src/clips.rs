//! J3D clips as C sees them: the scene's clip, track, curve and Hermite key
//! records viewed in place (laid out as the library's, checked here at
//! compile time), and a clip sampled at a frame: the pose
//! ([`scenedec_sample_frame`]), one material's values
//! ([`scenedec_sample_material`]) and one mesh's visibility
//! ([`scenedec_sample_visibility`]), each into caller memory.

use decoder::scene::{
    ClipKind, ClipRecord, ColorSlot, CurveKind, CurveRecord, HermiteKey, MaterialSample, NodePose,
    TEX_MATRIX_SLOTS, TEXTURE_SLOTS, TrackRecord, TrackTarget,
};

use crate::records::same_layout;
use crate::scene::slice_mut;
use crate::{
    SCENEDEC_STATUS_INVALID_ARGUMENT, SCENEDEC_STATUS_NULL_ARGUMENT, SCENEDEC_STATUS_OK, guard,
    scenedec_error, scenedec_pose, scenedec_scene, scenedec_status,
};

/// `scenedec_clip.kind`: a `.bck` (keyed joint transforms).
pub const SCENEDEC_CLIP_BCK: u32 = 0;
/// `scenedec_clip.kind`: a `.bca` (a joint-transform table, a value a frame).
pub const SCENEDEC_CLIP_BCA: u32 = 1;
/// `scenedec_clip.kind`: a `.btk` (keyed texture matrices).
pub const SCENEDEC_CLIP_BTK: u32 = 2;
/// `scenedec_clip.kind`: a `.brk` (keyed TEV register and konst colours).
pub const SCENEDEC_CLIP_BRK: u32 = 3;
/// `scenedec_clip.kind`: a `.bpk` (keyed material colours).
pub const SCENEDEC_CLIP_BPK: u32 = 4;
/// `scenedec_clip.kind`: a `.btp` (a texture-index table).
pub const SCENEDEC_CLIP_BTP: u32 = 5;
/// `scenedec_clip.kind`: a `.bva` (a shape-visibility table).
pub const SCENEDEC_CLIP_BVA: u32 = 6;

/// `scenedec_track.target`: joint `index` (a node), 9 curves: scale X Y Z,
/// rotation X Y Z (radians), translation X Y Z; they replace its rest transform.
pub const SCENEDEC_TRACK_JOINT: u32 = 0;
/// `scenedec_track.target`: texture matrix `slot` of material `index`, 9
/// curves: scale S T Q, rotation S T Q (radians; the matrix turns by Q),
/// translation S T Q.
pub const SCENEDEC_TRACK_TEX_MATRIX: u32 = 1;
/// `scenedec_track.target`: colour `slot` of material `index` (slots:
/// 0–3 TEV registers C0–C3, 4–7 konst K0–K3, 8–9 material MAT0–MAT1),
/// 4 curves R G B A as the file's s16 / 255, unclamped.
pub const SCENEDEC_TRACK_COLOR: u32 = 2;
/// `scenedec_track.target`: texture map `slot` of material `index`, 1 curve
/// of TEX1 texture indices.
pub const SCENEDEC_TRACK_TEXTURE_INDEX: u32 = 3;
/// `scenedec_track.target`: mesh (shape) `index`, 1 curve: 1 drawn, 0 hidden.
pub const SCENEDEC_TRACK_VISIBILITY: u32 = 4;

/// `scenedec_curve.kind`: cubic Hermite between the two keys around the
/// frame in `hermite_keys`; the first key's value before them, the last's after.
pub const SCENEDEC_CURVE_HERMITE: u32 = 0;
/// `scenedec_curve.kind`: one value a frame in `curve_values`, read at
/// `floor(frame)`, the last from the table's end on.
pub const SCENEDEC_CURVE_TABLE: u32 = 1;
/// `scenedec_curve.kind`: the same table read at `floor(frame + 0.5)`.
pub const SCENEDEC_CURVE_NEAREST: u32 = 2;

/// `scenedec_track.flags`: a texture matrix built the Maya way.
pub const SCENEDEC_TRACK_MAYA: u32 = 1;
/// `scenedec_track.flags`: a texture matrix that moves the material's base
/// colour texture.
pub const SCENEDEC_TRACK_BASE_TEXTURE: u32 = 2;
/// `scenedec_track.flags`: a colour whose RGB is the material's base colour's.
pub const SCENEDEC_TRACK_BASE_RGB: u32 = 4;
/// `scenedec_track.flags`: a colour whose alpha is the material's base colour's.
pub const SCENEDEC_TRACK_BASE_ALPHA: u32 = 8;

/// Texture-matrix slots of a material (GX: TEXMTX0–9).
pub const SCENEDEC_TEX_MATRIX_SLOTS: usize = 10;
/// Texture-map slots of a material (GX: TEXMAP0–7).
pub const SCENEDEC_TEXTURE_SLOTS: usize = 8;
/// Colour slots of a material (C0–C3, K0–K3, MAT0, MAT1).
pub const SCENEDEC_COLOR_SLOTS: usize = 10;

// The header's numbers are the library's (cbindgen writes literals only).
const _: () = {
    assert!(SCENEDEC_CLIP_BCK == ClipKind::Bck as u32 && SCENEDEC_CLIP_BCA == ClipKind::Bca as u32);
    assert!(SCENEDEC_CLIP_BTK == ClipKind::Btk as u32 && SCENEDEC_CLIP_BRK == ClipKind::Brk as u32);
    assert!(SCENEDEC_CLIP_BPK == ClipKind::Bpk as u32 && SCENEDEC_CLIP_BTP == ClipKind::Btp as u32);
    assert!(SCENEDEC_CLIP_BVA == ClipKind::Bva as u32);
    assert!(SCENEDEC_TRACK_JOINT == TrackTarget::Joint as u32);
    assert!(SCENEDEC_TRACK_TEX_MATRIX == TrackTarget::TexMatrix as u32);
    assert!(SCENEDEC_TRACK_COLOR == TrackTarget::Color as u32);
    assert!(SCENEDEC_TRACK_TEXTURE_INDEX == TrackTarget::TextureIndex as u32);
    assert!(SCENEDEC_TRACK_VISIBILITY == TrackTarget::Visibility as u32);
    assert!(SCENEDEC_CURVE_HERMITE == CurveKind::Hermite as u32);
    assert!(SCENEDEC_CURVE_TABLE == CurveKind::Table as u32);
    assert!(SCENEDEC_CURVE_NEAREST == CurveKind::Nearest as u32);
    assert!(SCENEDEC_TRACK_MAYA == TrackRecord::MAYA);
    assert!(SCENEDEC_TRACK_BASE_TEXTURE == TrackRecord::BASE_TEXTURE);
    assert!(SCENEDEC_TRACK_BASE_RGB == TrackRecord::BASE_RGB);
    assert!(SCENEDEC_TRACK_BASE_ALPHA == TrackRecord::BASE_ALPHA);
    assert!(SCENEDEC_TEX_MATRIX_SLOTS == TEX_MATRIX_SLOTS);
    assert!(SCENEDEC_TEXTURE_SLOTS == TEXTURE_SLOTS);
    assert!(SCENEDEC_COLOR_SLOTS == ColorSlot::COUNT);
    assert!(ColorSlot::REGISTER == 0 && ColorSlot::KONST == 4 && ColorSlot::MATERIAL == 8);
};

/// What a J3D animation file adds to its `scenedec_animation`: one per
/// attached file (`scenedec_options.animation_files`), in the scene's
/// `clips` array. A clip not from a J3D file (any .bbmodel animation) has none.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_clip {
    /// The clip's index in `animations`.
    pub animation: u32,
    /// `SCENEDEC_CLIP_BCK` … `SCENEDEC_CLIP_BVA`.
    pub kind: u32,
    /// How it goes on past its end: 0 once (holds just before the end), 1
    /// once and back to frame 0, 2 repeat, 3 mirrored once, 4 mirrored repeat.
    pub loop_mode: u32,
    /// Frames of the clip.
    pub frames: f32,
    /// Frames per second `scenedec_sample`'s seconds become frames at (30).
    pub frame_rate: f32,
    /// First track in `tracks`.
    pub first_track: u32,
    /// Tracks of the clip.
    pub track_count: u32,
}
same_layout!(
    scenedec_clip = ClipRecord {
        animation,
        kind,
        loop_mode,
        frames,
        frame_rate,
        first_track,
        track_count
    }
);

/// One animated thing of a J3D clip: a joint, texture matrix, colour,
/// texture map or mesh, and its run of curves in `curves`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_track {
    /// `SCENEDEC_TRACK_JOINT` … `SCENEDEC_TRACK_VISIBILITY`.
    pub target: u32,
    /// The node, material or mesh it animates.
    pub index: u32,
    /// Texture-matrix, colour or texture-map slot; 0 for joints and meshes.
    pub slot: u32,
    /// `SCENEDEC_TRACK_MAYA`, `_BASE_TEXTURE`, `_BASE_RGB`, `_BASE_ALPHA` bits.
    pub flags: u32,
    /// A texture matrix's centre of rotation and scale, S T Q (0 otherwise).
    pub centre: [f32; 3],
    /// First curve in `curves`.
    pub first_curve: u32,
    /// Curves of the track (9 joint or texture matrix, 4 colour, 1 otherwise).
    pub curve_count: u32,
}
same_layout!(
    scenedec_track = TrackRecord {
        target,
        index,
        slot,
        flags,
        centre,
        first_curve,
        curve_count
    }
);

/// One scalar of a track over time.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_curve {
    /// `SCENEDEC_CURVE_HERMITE`, `_TABLE` or `_NEAREST`.
    pub kind: u32,
    /// First key in `hermite_keys` (Hermite) or value in `curve_values` (tables).
    pub first: u32,
    /// Keys or values; 0: the curve is `rest` throughout.
    pub count: u32,
    /// The value of a curve without keys (1 for scales, else 0).
    pub rest: f32,
}
same_layout!(
    scenedec_curve = CurveRecord {
        kind,
        first,
        count,
        rest
    }
);

/// One key of a Hermite curve.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_hermite_key {
    /// Frame of the key; a curve's keys ascend.
    pub time: f32,
    /// Value at the key.
    pub value: f32,
    /// Slope arriving at the key, per frame.
    pub tangent_in: f32,
    /// Slope leaving the key, per frame.
    pub tangent_out: f32,
}
same_layout!(
    scenedec_hermite_key = HermiteKey {
        time,
        value,
        tangent_in,
        tangent_out
    }
);

/// One texture matrix of a material at one frame.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_tex_matrix_sample {
    /// Scale S, T.
    pub scale: [f32; 2],
    /// Rotation (the Q curve), radians.
    pub rotation: f32,
    /// Translation S, T.
    pub translation: [f32; 2],
    /// The matrix J3D builds from them, column-major 4×4 (translation in 12, 13).
    pub matrix: [f32; 16],
}

/// What a J3D clip sets on one material at one frame. Bit `n` of a mask
/// says slot `n` is set; the values of the slots not set are 0.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scenedec_material_sample {
    /// Texture-matrix slots set (bits 0–9).
    pub texture_matrix_mask: u32,
    /// Colour slots set (bits 0–9: C0–C3, K0–K3, MAT0, MAT1).
    pub color_mask: u32,
    /// Texture-map slots set (bits 0–7).
    pub texture_mask: u32,
    /// Texture matrices by slot.
    pub texture_matrices: [scenedec_tex_matrix_sample; SCENEDEC_TEX_MATRIX_SLOTS],
    /// Colours by slot: R, G, B, A as the file's s16 / 255, unclamped.
    pub colors: [[f32; 4]; SCENEDEC_COLOR_SLOTS],
    /// TEX1 texture index by texture-map slot.
    pub textures: [u16; SCENEDEC_TEXTURE_SLOTS],
}

impl From<&MaterialSample> for scenedec_material_sample {
    fn from(m: &MaterialSample) -> Self {
        let mut out = Self {
            texture_matrix_mask: 0,
            color_mask: 0,
            texture_mask: 0,
            texture_matrices: [scenedec_tex_matrix_sample::default(); SCENEDEC_TEX_MATRIX_SLOTS],
            colors: [[0.0; 4]; SCENEDEC_COLOR_SLOTS],
            textures: [0; SCENEDEC_TEXTURE_SLOTS],
        };
        for (bit, (slot, at)) in m
            .texture_matrices
            .iter()
            .zip(&mut out.texture_matrices)
            .enumerate()
        {
            if let Some(t) = slot {
                out.texture_matrix_mask |= 1 << bit;
                *at = scenedec_tex_matrix_sample {
                    scale: t.scale,
                    rotation: t.rotation,
                    translation: t.translation,
                    matrix: t.matrix,
                };
            }
        }
        for (bit, (slot, at)) in m.colors.iter().zip(&mut out.colors).enumerate() {
            if let Some(rgba) = slot {
                out.color_mask |= 1 << bit;
                *at = *rgba;
            }
        }
        for (bit, (slot, at)) in m.textures.iter().zip(&mut out.textures).enumerate() {
            if let Some(index) = slot {
                out.texture_mask |= 1 << bit;
                *at = *index;
            }
        }
        out
    }
}

/// Runs `f` on the library's view of `scene`; the status of a NULL or
/// foreign scene otherwise.
///
/// # Safety
/// `scene` as for `scenedec_text`.
unsafe fn with_scene(
    scene: *const scenedec_scene,
    f: impl FnOnce(&decoder::Scene<'_>) -> scenedec_status,
) -> scenedec_status {
    // SAFETY: NULL or a live scene of this library (the contract).
    let Some(scene) = (unsafe { scene.as_ref() }) else {
        return SCENEDEC_STATUS_NULL_ARGUMENT;
    };
    // SAFETY: the contract.
    match unsafe { scene.view() } {
        Some(view) => f(&view),
        None => SCENEDEC_STATUS_INVALID_ARGUMENT,
    }
}

/// Samples J3D clip `clip` (an index into `animations`) `frames` frames
/// after it started, its loop mode applied, into `poses` (`pose_count`
/// entries, at least `node_count`): the nodes its joint tracks animate
/// take their scale, rotation and translation, the others stay at rest.
/// `scenedec_sample` does the same at a time in seconds (times the clip's
/// `frame_rate`). Writes only `poses`.
///
/// Returns `SCENEDEC_STATUS_OK`; `SCENEDEC_STATUS_NULL_ARGUMENT` when
/// `scene` or (with nodes) `poses` is NULL; `SCENEDEC_STATUS_INVALID_ARGUMENT`
/// for a scene this library did not write; `SCENEDEC_STATUS_ERROR` with
/// `error` (may be NULL) filled: BAD_OFFSET for a clip that is not a J3D
/// clip, BAD_VALUE for a negative or non-finite `frames`, ARENA_TOO_SMALL
/// for too few poses.
///
/// # Safety
/// `scene` as for `scenedec_text`; `poses` points to `pose_count` writable
/// entries; `error` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_sample_frame(
    scene: *const scenedec_scene,
    clip: usize,
    frames: f32,
    poses: *mut scenedec_pose,
    pose_count: usize,
    error: *mut scenedec_error,
) -> scenedec_status {
    let run = |view: &decoder::Scene<'_>| {
        // SAFETY: `pose_count` writable entries (the contract), laid out as
        // `NodePose` (asserted in scene.rs); any bits are valid floats.
        let Some(out) = (unsafe { slice_mut(poses.cast::<NodePose>(), pose_count) }) else {
            return SCENEDEC_STATUS_NULL_ARGUMENT;
        };
        match view.sample_frame(clip, frames, out) {
            Ok(()) => SCENEDEC_STATUS_OK,
            // SAFETY: NULL or writable (the contract).
            Err(e) => unsafe { crate::errors::report(&e, error) },
        }
    };
    // SAFETY: the function's contract.
    guard(|| unsafe { with_scene(scene, run) })
}

/// What J3D clip `clip` sets on material `material`, `frames` frames after
/// it started (its loop mode applied), into `*out`: texture matrices,
/// colours and texture indices by slot, each mask saying which slots the
/// clip animates (all 0: it animates nothing of the material, or the
/// material is out of range). Writes only `*out`.
///
/// Returns as `scenedec_sample_frame` (NULL_ARGUMENT for a NULL `out`;
/// no ARENA_TOO_SMALL).
///
/// # Safety
/// `scene` as for `scenedec_text`; `out` is NULL or writable; `error` is
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_sample_material(
    scene: *const scenedec_scene,
    clip: usize,
    frames: f32,
    material: usize,
    out: *mut scenedec_material_sample,
    error: *mut scenedec_error,
) -> scenedec_status {
    if out.is_null() {
        return SCENEDEC_STATUS_NULL_ARGUMENT;
    }
    let run = |view: &decoder::Scene<'_>| match view.sample_material(clip, frames, material) {
        // SAFETY: `out` is writable (the contract); `write` reads nothing.
        Ok(sample) => unsafe {
            out.write((&sample).into());
            SCENEDEC_STATUS_OK
        },
        // SAFETY: NULL or writable (the contract).
        Err(e) => unsafe { crate::errors::report(&e, error) },
    };
    // SAFETY: the function's contract.
    guard(|| unsafe { with_scene(scene, run) })
}

/// Whether J3D clip `clip` shows mesh `mesh` `frames` frames after it
/// started, into `*visible_out`: 1 drawn, 0 hidden, −1 when the clip has
/// no visibility track for the mesh (it stays as it is). Writes only
/// `*visible_out`.
///
/// Returns as `scenedec_sample_frame` (NULL_ARGUMENT for a NULL
/// `visible_out`; no ARENA_TOO_SMALL).
///
/// # Safety
/// `scene` as for `scenedec_text`; `visible_out` is NULL or writable;
/// `error` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_sample_visibility(
    scene: *const scenedec_scene,
    clip: usize,
    frames: f32,
    mesh: usize,
    visible_out: *mut i32,
    error: *mut scenedec_error,
) -> scenedec_status {
    if visible_out.is_null() {
        return SCENEDEC_STATUS_NULL_ARGUMENT;
    }
    let run = |view: &decoder::Scene<'_>| match view.sample_visibility(clip, frames, mesh) {
        // SAFETY: `visible_out` is writable (the contract).
        Ok(shown) => unsafe {
            visible_out.write(shown.map_or(-1, i32::from));
            SCENEDEC_STATUS_OK
        },
        // SAFETY: NULL or writable (the contract).
        Err(e) => unsafe { crate::errors::report(&e, error) },
    };
    // SAFETY: the function's contract.
    guard(|| unsafe { with_scene(scene, run) })
}
