//! The scene as C sees it ([`scenedec_scene`]), and what C can ask of one:
//! text, world matrices, a pose at a time (J3D clips' own sampling: clips.rs).

use core::ffi::c_char;

use decoder::scene::{Format, Mat4, NodePose, Scene, SceneCounts, TextRef, world_matrices};

use crate::{
    SCENEDEC_STATUS_INVALID_ARGUMENT, SCENEDEC_STATUS_NULL_ARGUMENT, SCENEDEC_STATUS_OK, guard,
    scenedec_animation, scenedec_channel, scenedec_error, scenedec_group, scenedec_influence,
    scenedec_influence_span, scenedec_keyframe, scenedec_material, scenedec_mesh, scenedec_mip,
    scenedec_node, scenedec_skin, scenedec_status, scenedec_text_ref, scenedec_texture,
};
use crate::{scenedec_clip, scenedec_curve, scenedec_hermite_key, scenedec_track};

/// How many arrays a scene has (the length of `scenedec_scene.private_carved`).
pub const SCENEDEC_ARRAY_COUNT: usize = 35;

/// The source format: `scenedec_format_of`'s answer and `scenedec_scene.format`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum scenedec_format {
    /// J3D `.bmd` / `.bdl`.
    SCENEDEC_FORMAT_J3D = 1,
    /// Blockbench `.bbmodel`.
    SCENEDEC_FORMAT_BBMODEL = 2,
}

pub use scenedec_format::*;

impl From<Format> for scenedec_format {
    fn from(format: Format) -> Self {
        match format {
            Format::J3d => SCENEDEC_FORMAT_J3D,
            Format::Bbmodel => SCENEDEC_FORMAT_BBMODEL,
        }
    }
}

/// A decoded scene: counts and pointers into the caller's arena (and, for
/// names, into the model's bytes). Written by `scenedec_decode_into` or
/// `scenedec_load`; read-only to the caller. Every pointer stays valid as
/// long as the arena and the model's bytes do (for `scenedec_load`, until
/// `scenedec_loaded_free`). A count of 0 may come with any pointer.
/// docs/scene-format.md defines units, spaces and winding.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scenedec_scene {
    /// `SCENEDEC_FORMAT_J3D` or `SCENEDEC_FORMAT_BBMODEL`.
    pub format: scenedec_format,
    /// Nodes.
    pub nodes: *const scenedec_node,
    /// Entries of `nodes`.
    pub node_count: usize,
    /// Meshes.
    pub meshes: *const scenedec_mesh,
    /// Entries of `meshes`.
    pub mesh_count: usize,
    /// Triangle groups of all meshes.
    pub groups: *const scenedec_group,
    /// Entries of `groups`.
    pub group_count: usize,
    /// Vertex positions, 3 floats each, in the mesh node's space.
    pub positions: *const f32,
    /// Vertices (floats / 3).
    pub position_count: usize,
    /// Unit normals, 3 floats each, parallel to positions for meshes that have them.
    pub normals: *const f32,
    /// Normals (floats / 3).
    pub normal_count: usize,
    /// UVs, 2 floats each (U right, V down).
    pub uvs: *const f32,
    /// UVs (floats / 2).
    pub uv_count: usize,
    /// Vertex colours, 4 bytes (RGBA8) each.
    pub colors: *const u8,
    /// Colours (bytes / 4).
    pub color_count: usize,
    /// Triangle indices, relative to the mesh's first vertex.
    pub indices: *const u32,
    /// Entries of `indices` (3 per triangle).
    pub index_count: usize,
    /// Per triangle, `[u_min, v_min, u_max, v_max]` of its face.
    pub uv_rects: *const f32,
    /// Rectangles (floats / 4).
    pub uv_rect_count: usize,
    /// Materials.
    pub materials: *const scenedec_material,
    /// Entries of `materials`.
    pub material_count: usize,
    /// Textures.
    pub textures: *const scenedec_texture,
    /// Entries of `textures`.
    pub texture_count: usize,
    /// Mip levels of all textures.
    pub mips: *const scenedec_mip,
    /// Entries of `mips`.
    pub mip_count: usize,
    /// Custom frame orders: frame indices.
    pub frame_steps: *const u32,
    /// Entries of `frame_steps`.
    pub frame_step_count: usize,
    /// Animation clips.
    pub animations: *const scenedec_animation,
    /// Entries of `animations`.
    pub animation_count: usize,
    /// Channels of all clips.
    pub channels: *const scenedec_channel,
    /// Entries of `channels`.
    pub channel_count: usize,
    /// Keyframes of all channels.
    pub keyframes: *const scenedec_keyframe,
    /// Entries of `keyframes`.
    pub keyframe_count: usize,
    /// Skins.
    pub skins: *const scenedec_skin,
    /// Entries of `skins`.
    pub skin_count: usize,
    /// Joints of all skins, as node indices.
    pub skin_joints: *const u32,
    /// Entries of `skin_joints`.
    pub skin_joint_count: usize,
    /// Inverse bind matrices, 16 floats each (column-major), parallel to `skin_joints`.
    pub inverse_binds: *const f32,
    /// Matrices (floats / 16).
    pub inverse_bind_count: usize,
    /// Per skinned vertex, its influences.
    pub influence_spans: *const scenedec_influence_span,
    /// Entries of `influence_spans`.
    pub influence_span_count: usize,
    /// Joint influences of all skinned vertices.
    pub influences: *const scenedec_influence,
    /// Entries of `influences`.
    pub influence_count: usize,
    /// J3D clips (`scenedec_clip`): what each attached J3D animation file
    /// adds to its `animations` entry.
    pub clips: *const scenedec_clip,
    /// Entries of `clips`.
    pub clip_count: usize,
    /// Tracks of all J3D clips.
    pub tracks: *const scenedec_track,
    /// Entries of `tracks`.
    pub track_count: usize,
    /// Curves of all J3D tracks.
    pub curves: *const scenedec_curve,
    /// Entries of `curves`.
    pub curve_count: usize,
    /// Keys of the Hermite curves.
    pub hermite_keys: *const scenedec_hermite_key,
    /// Entries of `hermite_keys`.
    pub hermite_key_count: usize,
    /// Values of the table curves, one a frame.
    pub curve_values: *const f32,
    /// Entries of `curve_values`.
    pub curve_value_count: usize,
    /// RGBA8 pixels of every mip level (see `scenedec_mip`).
    pub pixels: *const u8,
    /// Bytes of `pixels`.
    pub pixel_count: usize,
    /// The model's bytes the names point into (after Yaz0 decompression).
    pub input: *const u8,
    /// Bytes of `input`.
    pub input_len: usize,
    /// Private: the arena the arrays were carved from.
    pub private_arena: *const u8,
    /// Private: bytes of `private_arena` in use.
    pub private_arena_len: usize,
    /// Private: how many values each array was carved with.
    pub private_carved: [usize; SCENEDEC_ARRAY_COUNT],
}

/// Runs `$m!` with every array of the scene, in carving order.
macro_rules! arrays {
    ($m:ident) => {
        $m!(
            molang_bounds,
            nodes,
            meshes,
            groups,
            positions,
            normals,
            uvs,
            colors,
            indices,
            uv_rects,
            materials,
            textures,
            mips,
            frame_steps,
            animations,
            channels,
            keyframes,
            keyframe_sources,
            molang_programs,
            molang_placeholders,
            clip_blend_weights,
            molang_nodes,
            skins,
            skin_joints,
            inverse_binds,
            influence_spans,
            influences,
            clips,
            tracks,
            curves,
            hermite_keys,
            curve_values,
            molang_text,
            pixels,
            text_pool
        )
    };
}

fn counts_to_array(c: &SceneCounts) -> [usize; SCENEDEC_ARRAY_COUNT] {
    macro_rules! list { ($($f:ident),*) => { [$(c.$f),*] }; }
    arrays!(list)
}

fn counts_from_array(a: &[usize; SCENEDEC_ARRAY_COUNT]) -> SceneCounts {
    macro_rules! build {
        ($($f:ident),*) => {{
            let [$($f),*] = *a;
            SceneCounts { $($f),* }
        }};
    }
    arrays!(build)
}

impl scenedec_scene {
    /// The C view of `scene`, decoded into the caller's `arena` (`used`
    /// bytes of it) with the plan's `carved` counts. The arena is kept as
    /// the caller's pointer, which `view` turns into a slice again later.
    pub(crate) fn new(
        scene: &Scene<'_>,
        arena: *const u8,
        used: usize,
        carved: &SceneCounts,
    ) -> Self {
        Self {
            format: scene.format().into(),
            nodes: scene.nodes().as_ptr().cast(),
            node_count: scene.nodes().len(),
            meshes: scene.meshes().as_ptr().cast(),
            mesh_count: scene.meshes().len(),
            groups: scene.groups().as_ptr().cast(),
            group_count: scene.groups().len(),
            positions: scene.positions().as_ptr().cast(),
            position_count: scene.positions().len(),
            normals: scene.normals().as_ptr().cast(),
            normal_count: scene.normals().len(),
            uvs: scene.uvs().as_ptr().cast(),
            uv_count: scene.uvs().len(),
            colors: scene.colors().as_ptr().cast(),
            color_count: scene.colors().len(),
            indices: scene.indices().as_ptr(),
            index_count: scene.indices().len(),
            uv_rects: scene.uv_rects().as_ptr().cast(),
            uv_rect_count: scene.uv_rects().len(),
            materials: scene.materials().as_ptr().cast(),
            material_count: scene.materials().len(),
            textures: scene.textures().as_ptr().cast(),
            texture_count: scene.textures().len(),
            mips: scene.mips().as_ptr().cast(),
            mip_count: scene.mips().len(),
            frame_steps: scene.frame_steps().as_ptr(),
            frame_step_count: scene.frame_steps().len(),
            animations: scene.animations().as_ptr().cast(),
            animation_count: scene.animations().len(),
            channels: scene.channels().as_ptr().cast(),
            channel_count: scene.channels().len(),
            keyframes: scene.keyframes().as_ptr().cast(),
            keyframe_count: scene.keyframes().len(),
            skins: scene.skins().as_ptr().cast(),
            skin_count: scene.skins().len(),
            skin_joints: scene.skin_joints().as_ptr(),
            skin_joint_count: scene.skin_joints().len(),
            inverse_binds: scene.inverse_binds().as_ptr().cast(),
            inverse_bind_count: scene.inverse_binds().len(),
            influence_spans: scene.influence_spans().as_ptr().cast(),
            influence_span_count: scene.influence_spans().len(),
            influences: scene.influences().as_ptr().cast(),
            influence_count: scene.influences().len(),
            clips: scene.clips().as_ptr().cast(),
            clip_count: scene.clips().len(),
            tracks: scene.tracks().as_ptr().cast(),
            track_count: scene.tracks().len(),
            curves: scene.curves().as_ptr().cast(),
            curve_count: scene.curves().len(),
            hermite_keys: scene.hermite_keys().as_ptr().cast(),
            hermite_key_count: scene.hermite_keys().len(),
            curve_values: scene.curve_values().as_ptr(),
            curve_value_count: scene.curve_values().len(),
            pixels: scene.pixels().as_ptr(),
            pixel_count: scene.pixels().len(),
            input: scene.input().as_ptr(),
            input_len: scene.input().len(),
            private_arena: arena,
            private_arena_len: used,
            private_carved: counts_to_array(carved),
        }
    }

    /// The library's scene again, viewed over the same arena and input.
    /// `None` when the private fields do not describe a scene (the view
    /// checks every array against the arena's length).
    ///
    /// # Safety
    /// `private_arena` / `input` must point to `private_arena_len` /
    /// `input_len` readable bytes that live for `'s` and are not written
    /// meanwhile: true of a scene this library wrote, while the caller
    /// keeps its arena and model bytes as the header says.
    pub(crate) unsafe fn view<'s>(&self) -> Option<Scene<'s>> {
        let format = match self.format {
            SCENEDEC_FORMAT_J3D => Format::J3d,
            SCENEDEC_FORMAT_BBMODEL => Format::Bbmodel,
        };
        // SAFETY: the function's contract.
        let arena = unsafe { bytes(self.private_arena, self.private_arena_len) };
        // SAFETY: the function's contract.
        let input = unsafe { bytes(self.input, self.input_len) };
        let carved = counts_from_array(&self.private_carved);
        let used = SceneCounts {
            nodes: self.node_count,
            meshes: self.mesh_count,
            groups: self.group_count,
            positions: self.position_count,
            normals: self.normal_count,
            uvs: self.uv_count,
            colors: self.color_count,
            indices: self.index_count,
            uv_rects: self.uv_rect_count,
            materials: self.material_count,
            textures: self.texture_count,
            mips: self.mip_count,
            frame_steps: self.frame_step_count,
            animations: self.animation_count,
            channels: self.channel_count,
            keyframes: self.keyframe_count,
            // Not in the C struct: a .bbmodel writes one source per
            // keyframe (J3D none), and its placeholders as carved.
            keyframe_sources: carved.keyframe_sources.min(self.keyframe_count),
            clip_blend_weights: carved.clip_blend_weights.min(self.animation_count),
            skins: self.skin_count,
            skin_joints: self.skin_joint_count,
            inverse_binds: self.inverse_bind_count,
            influence_spans: self.influence_span_count,
            influences: self.influence_count,
            clips: self.clip_count,
            tracks: self.track_count,
            curves: self.curve_count,
            hermite_keys: self.hermite_key_count,
            curve_values: self.curve_value_count,
            pixels: self.pixel_count,
            // The pool is reached only through `scenedec_text`.
            text_pool: carved.text_pool,
            // The compiled Molang sampling plays, as carved (the fill
            // leaves any part it did not need zeroed: no record names it).
            molang_programs: carved.molang_programs,
            molang_nodes: carved.molang_nodes,
            molang_text: carved.molang_text,
            molang_placeholders: carved.molang_placeholders,
            // The decode's Molang limits, which sampling plays by.
            molang_bounds: carved.molang_bounds,
        };
        Scene::view(format, input, &carved, &used, arena).ok()
    }
}

/// `len` bytes at `ptr` as a slice; empty for a NULL or empty span.
///
/// # Safety
/// A non-NULL `ptr` must point to `len` initialised bytes that live for
/// `'a` and are not written meanwhile.
pub(crate) unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if ptr.is_null() || len == 0 {
        // At an 8-aligned address, like the arena of an empty plan: carving
        // no records from it needs no padding.
        // SAFETY: a non-null, aligned pointer is valid for zero bytes.
        return unsafe { core::slice::from_raw_parts(aligned_dangling(), 0) };
    }
    // SAFETY: the function's contract.
    unsafe { core::slice::from_raw_parts(ptr, len) }
}

/// A non-null pointer aligned for every record (8), for empty slices.
fn aligned_dangling<T>() -> *mut T {
    const { assert!(core::mem::align_of::<T>() <= 8) };
    core::ptr::NonNull::<u64>::dangling().as_ptr().cast()
}

/// A string of the scene: pointer and length, UTF-8, not NUL-terminated.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scenedec_str {
    /// The bytes (never NULL; points at a static empty string when `len` is 0).
    pub ptr: *const c_char,
    /// Bytes of the string.
    pub len: usize,
}

/// The text a `scenedec_text_ref` of `scene` names: a pointer into the
/// model's bytes or the scene's arena (valid as long as they are), and its
/// length. Text that cannot be resolved (a NULL scene, a span out of range)
/// is the empty string. Never allocates, never fails.
///
/// # Safety
/// `scene` is NULL or a scene this library wrote whose arena and model
/// bytes are still alive and unchanged.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_text(
    scene: *const scenedec_scene,
    text: scenedec_text_ref,
) -> scenedec_str {
    let empty = scenedec_str {
        ptr: c"".as_ptr(),
        len: 0,
    };
    let mut out = empty;
    let _ = guard(|| {
        // SAFETY: `scene` is NULL or valid (the function's contract).
        let Some(scene) = (unsafe { scene.as_ref() }) else {
            return SCENEDEC_STATUS_NULL_ARGUMENT;
        };
        // SAFETY: the function's contract.
        let Some(view) = (unsafe { scene.view() }) else {
            return SCENEDEC_STATUS_INVALID_ARGUMENT;
        };
        let mut raw = [0u8; 8];
        raw[..4].copy_from_slice(&text.start.to_ne_bytes());
        raw[4..].copy_from_slice(&text.len.to_ne_bytes());
        let Some(text_ref) = text_ref_from(raw) else {
            return SCENEDEC_STATUS_INVALID_ARGUMENT;
        };
        let s = view.text(text_ref);
        if !s.is_empty() {
            out = scenedec_str {
                ptr: s.as_ptr().cast(),
                len: s.len(),
            };
        }
        SCENEDEC_STATUS_OK
    });
    out
}

/// The library's `TextRef` from the bytes of its C mirror (same layout,
/// checked in records.rs; every bit pattern is a `TextRef`).
fn text_ref_from(raw: [u8; 8]) -> Option<TextRef> {
    use zerocopy::FromBytes;
    TextRef::read_from_bytes(&raw).ok()
}

/// One node's pose: the node's transform with a clip's channels applied
/// (`translation`, Euler `rotation` in radians, `scale`, `pivot`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_pose {
    /// Translation in the parent's space.
    pub translation: [f32; 3],
    /// Euler angles, radians, X first.
    pub rotation: [f32; 3],
    /// Scale per axis.
    pub scale: [f32; 3],
    /// Pivot, never animated.
    pub pivot: [f32; 3],
}
const _: () = {
    assert!(core::mem::size_of::<scenedec_pose>() == core::mem::size_of::<NodePose>());
    assert!(core::mem::align_of::<scenedec_pose>() == core::mem::align_of::<NodePose>());
    assert!(
        core::mem::offset_of!(scenedec_pose, rotation) == core::mem::offset_of!(NodePose, rotation)
    );
    assert!(core::mem::offset_of!(scenedec_pose, scale) == core::mem::offset_of!(NodePose, scale));
    assert!(core::mem::offset_of!(scenedec_pose, pivot) == core::mem::offset_of!(NodePose, pivot));
    assert!(core::mem::size_of::<Mat4>() == 64 && core::mem::align_of::<Mat4>() == 4);
};

/// Samples clip `clip` at `time` seconds into `poses` (`pose_count` entries,
/// at least `node_count`): each node's rest transform with the clip's
/// channels applied, as the clip's loop mode plays it. Writes only `poses`.
///
/// Returns `SCENEDEC_STATUS_OK`; `SCENEDEC_STATUS_NULL_ARGUMENT` when `scene`
/// or (with nodes) `poses` is NULL; `SCENEDEC_STATUS_INVALID_ARGUMENT` for a
/// scene this library did not write; `SCENEDEC_STATUS_ERROR` with `error`
/// (may be NULL) filled: BAD_OFFSET for a clip out of range, ARENA_TOO_SMALL
/// for too few poses, BAD_VALUE for a negative or non-finite time.
///
/// # Safety
/// `scene` as for `scenedec_text`; `poses` points to `pose_count` writable
/// entries; `error` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_sample(
    scene: *const scenedec_scene,
    clip: usize,
    time: f32,
    poses: *mut scenedec_pose,
    pose_count: usize,
    error: *mut scenedec_error,
) -> scenedec_status {
    guard(|| {
        // SAFETY: the function's contract.
        let Some(scene) = (unsafe { scene.as_ref() }) else {
            return SCENEDEC_STATUS_NULL_ARGUMENT;
        };
        // SAFETY: the function's contract.
        let Some(view) = (unsafe { scene.view() }) else {
            return SCENEDEC_STATUS_INVALID_ARGUMENT;
        };
        // SAFETY: `poses` holds `pose_count` writable entries (the contract);
        // `NodePose` is `#[repr(C)]` twelve floats like `scenedec_pose`
        // (asserted above), and any bits are valid floats.
        let Some(out) = (unsafe { slice_mut(poses.cast::<NodePose>(), pose_count) }) else {
            return SCENEDEC_STATUS_NULL_ARGUMENT;
        };
        match view.sample(clip, time, out) {
            Ok(()) => SCENEDEC_STATUS_OK,
            // SAFETY: `error` is NULL or writable (the contract).
            Err(e) => unsafe { crate::errors::report(&e, error) },
        }
    })
}

/// World matrices (16 floats each, column-major) of the scene's nodes into
/// `matrices` (`matrix_count` of them; nodes past it are not written):
/// with `poses` NULL the rest pose, else `poses[i]` for node `i` (as
/// `scenedec_sample` writes them; `pose_count` of them, nodes past it at
/// rest). Writes only `matrices`.
///
/// Returns `SCENEDEC_STATUS_OK`; `SCENEDEC_STATUS_NULL_ARGUMENT` when `scene`
/// is NULL or `matrices` is NULL with `matrix_count` > 0;
/// `SCENEDEC_STATUS_INVALID_ARGUMENT` for a scene this library did not write.
///
/// # Safety
/// `scene` as for `scenedec_text`; `poses` NULL or `pose_count` readable
/// entries; `matrices` `matrix_count` writable 16-float matrices.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_world_matrices(
    scene: *const scenedec_scene,
    poses: *const scenedec_pose,
    pose_count: usize,
    matrices: *mut f32,
    matrix_count: usize,
) -> scenedec_status {
    guard(|| {
        // SAFETY: the function's contract.
        let Some(scene) = (unsafe { scene.as_ref() }) else {
            return SCENEDEC_STATUS_NULL_ARGUMENT;
        };
        // SAFETY: the function's contract.
        let Some(view) = (unsafe { scene.view() }) else {
            return SCENEDEC_STATUS_INVALID_ARGUMENT;
        };
        let poses: &[NodePose] = if poses.is_null() || pose_count == 0 {
            &[]
        } else {
            // SAFETY: `pose_count` readable entries (the contract), laid out
            // as `NodePose` (asserted above).
            unsafe { core::slice::from_raw_parts(poses.cast::<NodePose>(), pose_count) }
        };
        // SAFETY: `matrix_count` writable matrices of 16 floats (the
        // contract); `Mat4` is `#[repr(transparent)]` over `[f32; 16]`.
        let Some(out) = (unsafe { slice_mut(matrices.cast::<Mat4>(), matrix_count) }) else {
            return SCENEDEC_STATUS_NULL_ARGUMENT;
        };
        world_matrices(&view, poses, out);
        SCENEDEC_STATUS_OK
    })
}

/// `len` values at `ptr`, zeroed first (C memory may be uninitialised,
/// which a Rust slice must not be), as a mutable slice: `None` for a NULL
/// `ptr` with `len` > 0; for a NULL `ptr` and `len` 0, an empty slice at an
/// 8-aligned address.
///
/// # Safety
/// A non-NULL `ptr` points to `len` writable, aligned values of `T`, not
/// aliased for `'a`; `T` is valid as all-zero bytes (floats, integers).
pub(crate) unsafe fn slice_mut<'a, T>(ptr: *mut T, len: usize) -> Option<&'a mut [T]> {
    if ptr.is_null() {
        if len > 0 {
            return None;
        }
        // SAFETY: a non-null, aligned pointer is valid for zero values.
        return Some(unsafe { core::slice::from_raw_parts_mut(aligned_dangling(), 0) });
    }
    // SAFETY: `len` writable values at `ptr` (the contract).
    unsafe { core::ptr::write_bytes(ptr, 0, len) };
    // SAFETY: the contract, and the values are now initialised (zero).
    Some(unsafe { core::slice::from_raw_parts_mut(ptr, len) })
}
