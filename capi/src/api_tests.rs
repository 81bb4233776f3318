//! The C functions called as C calls them, on the bundled samples: each
//! contract the header states (statuses, NULLs, exact arenas, limits by
//! name, the allocator's blocks all returned) checked once.

use core::ffi::c_void;
use core::mem::MaybeUninit;
use std::boxed::Box;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::vec;
use std::vec::Vec;

use crate::*;

const CUBE: &[u8] = include_bytes!("../../samples/cube.bbmodel");
const PYRAMID: &[u8] = include_bytes!("../../samples/pyramid.bmd");
const PYRAMID_SZS: &[u8] = include_bytes!("../../samples/pyramid.bmd.szs");

fn options() -> scenedec_options {
    let mut o = MaybeUninit::uninit();
    // SAFETY: writable.
    unsafe { scenedec_options_init(o.as_mut_ptr()) };
    // SAFETY: just initialised.
    unsafe { o.assume_init() }
}

fn error() -> Box<scenedec_error> {
    Box::new(scenedec_error::from_error(&decoder::Error::nowhere(
        decoder::ErrorCode::BadValue,
        format_args!("not written"),
    )))
}

fn plan(bytes: &[u8], hint: Option<&core::ffi::CStr>, o: &scenedec_options) -> scenedec_plan {
    let mut plan = scenedec_plan::default();
    let mut e = error();
    let hint = hint.map_or(core::ptr::null(), |h| h.as_ptr());
    // SAFETY: valid pointers for the call.
    let status =
        unsafe { scenedec_measure(bytes.as_ptr(), bytes.len(), hint, o, &mut plan, &mut *e) };
    assert_eq!(status, SCENEDEC_STATUS_OK);
    plan
}

/// Decodes into exactly `arena_len` bytes of an 8-aligned arena.
fn decode(
    bytes: &[u8],
    o: &scenedec_options,
    arena: &mut [u64],
    arena_len: usize,
) -> (scenedec_status, scenedec_scene, Box<scenedec_error>) {
    let mut scene = MaybeUninit::<scenedec_scene>::zeroed();
    let mut e = error();
    // SAFETY: valid pointers for the call; `arena_len` ≤ the arena's bytes.
    let status = unsafe {
        assert!(arena_len <= arena.len() * 8);
        scenedec_decode_into(
            bytes.as_ptr(),
            bytes.len(),
            core::ptr::null(),
            o,
            arena.as_mut_ptr().cast(),
            arena_len,
            core::ptr::null_mut(),
            scene.as_mut_ptr(),
            &mut *e,
        )
    };
    // SAFETY: zeroed or written; every field is valid as zero.
    (status, unsafe { scene.assume_init() }, e)
}

#[test]
fn decode_needs_exactly_the_planned_arena() {
    let o = options();
    let p = plan(PYRAMID, None, &o);
    assert_eq!(p.arena_align, 8);
    let mut arena = vec![0u64; p.arena_bytes.div_ceil(8)];
    let (status, scene, _) = decode(PYRAMID, &o, &mut arena, p.arena_bytes);
    assert_eq!(status, SCENEDEC_STATUS_OK);
    assert_eq!((scene.node_count, scene.index_count / 3), (2, 6));
    let (status, _, e) = decode(PYRAMID, &o, &mut arena, p.arena_bytes - 1);
    assert_eq!(status, SCENEDEC_STATUS_ERROR);
    assert_eq!(e.code, SCENEDEC_ERROR_ARENA_TOO_SMALL);
}

#[test]
fn names_resolve_and_world_matrices_place_nodes() {
    let o = options();
    let p = plan(PYRAMID, None, &o);
    let mut arena = vec![0u64; p.arena_bytes.div_ceil(8)];
    let (status, scene, _) = decode(PYRAMID, &o, &mut arena, p.arena_bytes);
    assert_eq!(status, SCENEDEC_STATUS_OK);
    // SAFETY: the scene's arena and input are alive.
    let nodes = unsafe { core::slice::from_raw_parts(scene.nodes, scene.node_count) };
    let names: Vec<&str> = nodes
        .iter()
        .map(|n| {
            // SAFETY: as above.
            let s = unsafe { scenedec_text(&scene, n.name) };
            // SAFETY: `len` bytes of UTF-8 at `ptr`.
            core::str::from_utf8(unsafe { core::slice::from_raw_parts(s.ptr.cast(), s.len) })
                .unwrap()
        })
        .collect();
    assert_eq!(names, ["root", "tip"]);
    let mut m = [0f32; 32];
    // SAFETY: as above; 2 matrices of room.
    let status =
        unsafe { scenedec_world_matrices(&scene, core::ptr::null(), 0, m.as_mut_ptr(), 2) };
    assert_eq!(status, SCENEDEC_STATUS_OK);
    assert_eq!(&m[28..31], &[0.0, 2.0, 0.0], "the tip sits 2 up");
}

#[test]
fn yaz0_unwraps_into_the_callers_buffer() {
    let o = options();
    let (mut len, mut e) = (0usize, error());
    // SAFETY: valid pointers.
    let status = unsafe {
        scenedec_unwrapped_len(
            PYRAMID_SZS.as_ptr(),
            PYRAMID_SZS.len(),
            &o,
            &mut len,
            &mut *e,
        )
    };
    assert_eq!((status, len), (SCENEDEC_STATUS_OK, PYRAMID.len()));
    let mut out = vec![0u8; len];
    let (mut model, mut model_len) = (core::ptr::null(), 0usize);
    // SAFETY: valid pointers, `out` of `len` bytes.
    let status = unsafe {
        scenedec_unwrap_into(
            PYRAMID_SZS.as_ptr(),
            PYRAMID_SZS.len(),
            &o,
            out.as_mut_ptr(),
            out.len(),
            &mut model,
            &mut model_len,
            &mut *e,
        )
    };
    assert_eq!(status, SCENEDEC_STATUS_OK);
    assert_eq!(model, out.as_ptr());
    assert_eq!(out, PYRAMID);
}

#[test]
fn limits_are_set_by_name_for_both_formats() {
    let mut o = options();
    let mut e = error();
    // SAFETY: valid pointers, NUL-terminated names.
    unsafe {
        assert_eq!(
            scenedec_options_set_limit(&mut o, c"maxTriangles".as_ptr(), 11.0, &mut *e),
            SCENEDEC_STATUS_OK
        );
        assert_eq!(
            scenedec_options_set_limit(&mut o, c"max_triangles".as_ptr(), 5.0, &mut *e),
            SCENEDEC_STATUS_OK
        );
        assert_eq!(
            scenedec_options_set_limit(&mut o, c"maxBananas".as_ptr(), 5.0, &mut *e),
            SCENEDEC_STATUS_ERROR
        );
        assert_eq!(e.code, SCENEDEC_ERROR_INVALID_LIMIT);
        assert_eq!(
            scenedec_options_set_limit(&mut o, c"max_joints".as_ptr(), 0.5, &mut *e),
            SCENEDEC_STATUS_ERROR
        );
        assert_eq!(
            scenedec_options_set_limit(&mut o, c"max_depth".as_ptr(), f64::INFINITY, &mut *e),
            SCENEDEC_STATUS_OK
        );
    }
    assert_eq!((o.bbmodel.max_triangles, o.j3d.max_triangles), (11, 5));
    assert_eq!(o.j3d.max_depth, u64::MAX);
    // One namespace, as the command line's: a J3D limit by its camelCase
    // name; a name both tables hold sets both; a bad value changes neither.
    // SAFETY: valid pointers, NUL-terminated names.
    unsafe {
        assert_eq!(
            scenedec_options_set_limit(&mut o, c"maxJoints".as_ptr(), 7.0, &mut *e),
            SCENEDEC_STATUS_OK
        );
        assert_eq!(
            scenedec_options_set_limit(&mut o, c"maxFileBytes".as_ptr(), 4096.0, &mut *e),
            SCENEDEC_STATUS_OK
        );
        assert_eq!(
            scenedec_options_set_limit(&mut o, c"maxVertices".as_ptr(), -1.0, &mut *e),
            SCENEDEC_STATUS_ERROR
        );
        assert_eq!(e.code, SCENEDEC_ERROR_INVALID_LIMIT);
        assert_eq!(
            scenedec_options_set_limit(&mut o, c"max_face_vertices".as_ptr(), 5.0, &mut *e),
            SCENEDEC_STATUS_ERROR,
            "a snake_case name is a J3D field, and J3D has no face-vertex limit"
        );
    }
    assert_eq!(o.j3d.max_joints, 7);
    assert_eq!(
        (o.bbmodel.max_file_bytes, o.j3d.max_file_bytes),
        (4096, 4096)
    );
    let defaults = options();
    assert_eq!(o.bbmodel.max_vertices, defaults.bbmodel.max_vertices);
    assert_eq!(o.j3d.max_vertices, defaults.j3d.max_vertices);
    o.bbmodel.max_file_bytes = defaults.bbmodel.max_file_bytes;
    o.j3d.max_file_bytes = defaults.j3d.max_file_bytes;
    for (bytes, hint) in [(CUBE, c"bbmodel"), (PYRAMID, c"bmd")] {
        let mut plan = scenedec_plan::default();
        // SAFETY: valid pointers.
        let status = unsafe {
            scenedec_measure(
                bytes.as_ptr(),
                bytes.len(),
                hint.as_ptr(),
                &o,
                &mut plan,
                &mut *e,
            )
        };
        assert_eq!(status, SCENEDEC_STATUS_ERROR);
        assert_eq!(e.code, SCENEDEC_ERROR_TOO_MANY_TRIANGLES);
        // SAFETY: a static NUL-terminated string.
        let name = unsafe { core::ffi::CStr::from_ptr(scenedec_error_code_name(e.code as u32)) };
        assert_eq!(name, c"TOO_MANY_TRIANGLES");
    }
}

#[test]
fn null_arguments_are_a_status_not_a_crash() {
    let mut plan = scenedec_plan::default();
    // SAFETY: NULLs where the header allows none: reported, never read.
    unsafe {
        assert_eq!(
            scenedec_measure(
                core::ptr::null(),
                5,
                core::ptr::null(),
                core::ptr::null(),
                &mut plan,
                core::ptr::null_mut()
            ),
            SCENEDEC_STATUS_NULL_ARGUMENT
        );
        assert_eq!(
            scenedec_measure(
                PYRAMID.as_ptr(),
                PYRAMID.len(),
                core::ptr::null(),
                core::ptr::null(),
                core::ptr::null_mut(),
                core::ptr::null_mut()
            ),
            SCENEDEC_STATUS_NULL_ARGUMENT
        );
        assert_eq!(
            scenedec_world_matrices(
                core::ptr::null(),
                core::ptr::null(),
                0,
                core::ptr::null_mut(),
                0
            ),
            SCENEDEC_STATUS_NULL_ARGUMENT
        );
    }
}

static LIVE_BLOCKS: AtomicIsize = AtomicIsize::new(0);

unsafe extern "C" fn counting_alloc(_: *mut c_void, size: usize, align: usize) -> *mut c_void {
    LIVE_BLOCKS.fetch_add(1, Ordering::SeqCst);
    let layout = std::alloc::Layout::from_size_align(size, align).unwrap();
    // SAFETY: a layout of nonzero size (the library asks for at least 1 byte).
    unsafe { std::alloc::alloc(layout) }.cast()
}

unsafe extern "C" fn counting_free(_: *mut c_void, ptr: *mut c_void, size: usize, align: usize) {
    LIVE_BLOCKS.fetch_sub(1, Ordering::SeqCst);
    let layout = std::alloc::Layout::from_size_align(size, align).unwrap();
    // SAFETY: allocated above with this layout.
    unsafe { std::alloc::dealloc(ptr.cast(), layout) };
}

#[test]
fn load_allocates_through_the_callers_allocator_and_returns_every_block() {
    let allocator = scenedec_allocator {
        alloc: Some(counting_alloc),
        free: Some(counting_free),
        user: core::ptr::null_mut(),
    };
    let o = options();
    for (bytes, triangles) in [(PYRAMID_SZS, 6), (CUBE, 12)] {
        let mut loaded = core::ptr::null_mut();
        let mut e = error();
        // SAFETY: valid pointers.
        let status = unsafe {
            scenedec_load(
                bytes.as_ptr(),
                bytes.len(),
                c"bbmodel".as_ptr(),
                &o,
                &allocator,
                core::ptr::null_mut(),
                &mut loaded,
                &mut *e,
            )
        };
        assert_eq!(status, SCENEDEC_STATUS_OK);
        assert!(LIVE_BLOCKS.load(Ordering::SeqCst) > 0);
        // SAFETY: a live handle.
        let scene = unsafe { &*scenedec_loaded_scene(loaded) };
        assert_eq!(scene.index_count / 3, triangles);
        // SAFETY: a live handle, freed once.
        unsafe { scenedec_loaded_free(loaded) };
        assert_eq!(LIVE_BLOCKS.load(Ordering::SeqCst), 0);
    }
    // A failing load frees what it took and leaves the handle NULL.
    let mut loaded = core::ptr::null_mut();
    let mut e = error();
    // SAFETY: valid pointers.
    let status = unsafe {
        scenedec_load(
            PYRAMID.as_ptr(),
            40,
            core::ptr::null(),
            &o,
            &allocator,
            core::ptr::null_mut(),
            &mut loaded,
            &mut *e,
        )
    };
    assert_eq!(status, SCENEDEC_STATUS_ERROR);
    assert!(loaded.is_null());
    assert_eq!(LIVE_BLOCKS.load(Ordering::SeqCst), 0);
}
