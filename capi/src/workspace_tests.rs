//! `scenedec_workspace`: made only in memory that fits it, and a decode
//! through it gives what the decode without it gives; J3D animation files
//! offered through `scenedec_options`.

use core::ffi::c_void;
use core::mem::MaybeUninit;
use std::vec;

use crate::*;

const CUBE: &[u8] = include_bytes!("../../samples/cube.bbmodel");
const PYRAMID: &[u8] = include_bytes!("../../samples/pyramid.bmd");

#[test]
fn init_refuses_null_short_and_misaligned_memory() {
    let size = scenedec_workspace_size();
    assert!(
        size <= SCENEDEC_WORKSPACE_BYTES,
        "the header's constant is enough"
    );
    let mut memory = vec![0u64; SCENEDEC_WORKSPACE_BYTES / 8 + 1];
    let at = memory.as_mut_ptr().cast::<u8>();
    // SAFETY: `memory` has room for every call below.
    unsafe {
        assert!(scenedec_workspace_init(core::ptr::null_mut(), size).is_null());
        assert!(scenedec_workspace_init(at.cast(), size - 1).is_null());
        assert!(scenedec_workspace_init(at.add(1).cast::<c_void>(), size).is_null());
        let ws = scenedec_workspace_init(at.cast(), size);
        assert_eq!(
            ws.cast::<u8>(),
            at,
            "exactly the size, aligned: made in place"
        );
    }
}

fn plan(bytes: &[u8], ws: *mut scenedec_workspace) -> scenedec_plan {
    let mut o = MaybeUninit::uninit();
    let mut plan = scenedec_plan::default();
    // SAFETY: valid pointers for the calls.
    let status = unsafe {
        scenedec_options_init(o.as_mut_ptr());
        let hint = c"bbmodel".as_ptr();
        scenedec_measure_with(
            bytes.as_ptr(),
            bytes.len(),
            hint,
            o.as_ptr(),
            ws,
            &mut plan,
            core::ptr::null_mut(),
        )
    };
    assert_eq!(status, SCENEDEC_STATUS_OK);
    plan
}

/// (triangles, nodes, textures, pixel bytes, warnings) of a decode.
fn decode(bytes: &[u8], ws: *mut scenedec_workspace) -> [usize; 5] {
    let p = plan(bytes, ws);
    let mut arena = vec![0u64; p.arena_bytes.div_ceil(8)];
    let mut scene = MaybeUninit::<scenedec_scene>::zeroed();
    let mut warnings = std::boxed::Box::new(MaybeUninit::<scenedec_warnings>::zeroed());
    // SAFETY: valid pointers for the call, the arena of the plan's size.
    let status = unsafe {
        scenedec_decode_into_with(
            bytes.as_ptr(),
            bytes.len(),
            c"bbmodel".as_ptr(),
            core::ptr::null(),
            ws,
            arena.as_mut_ptr().cast(),
            p.arena_bytes,
            warnings.as_mut_ptr(),
            scene.as_mut_ptr(),
            core::ptr::null_mut(),
        )
    };
    assert_eq!(status, SCENEDEC_STATUS_OK);
    // SAFETY: written by the successful decode.
    let (s, w) = unsafe { (scene.assume_init(), warnings.assume_init_ref()) };
    [
        s.index_count / 3,
        s.node_count,
        s.texture_count,
        s.pixel_count,
        w.count,
    ]
}

#[test]
fn a_decode_through_a_workspace_equals_one_without() {
    let mut memory = vec![0u64; SCENEDEC_WORKSPACE_BYTES / 8];
    // SAFETY: the memory fits (checked by the other test) and outlives `ws`.
    let ws =
        unsafe { scenedec_workspace_init(memory.as_mut_ptr().cast(), SCENEDEC_WORKSPACE_BYTES) };
    assert!(!ws.is_null());
    for bytes in [CUBE, PYRAMID] {
        let without = decode(bytes, core::ptr::null_mut());
        assert_eq!(
            plan(bytes, ws).arena_bytes,
            plan(bytes, core::ptr::null_mut()).arena_bytes
        );
        assert_eq!(decode(bytes, ws), without);
        // Reused: the previous decode's warnings are not carried over.
        assert_eq!(decode(bytes, ws), without);
    }
    // A model with embedded PNGs, checked through the workspace's window
    // (the corpus, when present; capi/check.sh decodes all of it so too).
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/corpus/bbmodel/figura_pony_kirin_free_v4_5_emissive.bbmodel"
    );
    if let Ok(bytes) = std::fs::read(path) {
        let through = decode(&bytes, ws);
        assert!(through[3] > 0, "its textures were decoded, so checked");
        assert_eq!(through, decode(&bytes, core::ptr::null_mut()));
    }
}

/// The status of measuring and decoding the pyramid with `files` offered
/// as J3D animation files (`count` of them said).
fn with_animations(files: *const scenedec_animation_file, count: usize) -> [scenedec_status; 2] {
    let mut o = MaybeUninit::uninit();
    let mut plan = scenedec_plan::default();
    // SAFETY: writable options.
    unsafe { scenedec_options_init(o.as_mut_ptr()) };
    // SAFETY: just initialised.
    let mut o = unsafe { o.assume_init() };
    o.animation_files = files;
    o.animation_file_count = count;
    let mut arena = vec![0u64; 1 << 16];
    let mut scene = MaybeUninit::<scenedec_scene>::zeroed();
    // SAFETY: valid pointers; `files` as the options say.
    unsafe {
        [
            scenedec_measure(
                PYRAMID.as_ptr(),
                PYRAMID.len(),
                core::ptr::null(),
                &o,
                &mut plan,
                core::ptr::null_mut(),
            ),
            scenedec_decode_into(
                PYRAMID.as_ptr(),
                PYRAMID.len(),
                core::ptr::null(),
                &o,
                arena.as_mut_ptr().cast(),
                arena.len() * 8,
                core::ptr::null_mut(),
                scene.as_mut_ptr(),
                core::ptr::null_mut(),
            ),
        ]
    }
}

#[test]
fn animation_files_reach_the_j3d_reader() {
    // `Options::j3d.animations`, as C offers them: none decodes; a file
    // that is no animation is the reader's error; more than
    // SCENEDEC_MAX_ANIMATION_FILES, or NULL with a count, is the caller's.
    let ok = SCENEDEC_STATUS_OK;
    assert_eq!(with_animations(core::ptr::null(), 0), [ok, ok]);
    let junk = scenedec_animation_file {
        name: c"junk.bck".as_ptr(),
        name_len: 8,
        bytes: b"not an animation".as_ptr(),
        len: 16,
    };
    let err = SCENEDEC_STATUS_ERROR;
    assert_eq!(with_animations(&junk, 1), [err, err]);
    let many = [junk; SCENEDEC_MAX_ANIMATION_FILES + 1];
    assert_eq!(
        with_animations(many.as_ptr(), SCENEDEC_MAX_ANIMATION_FILES + 1),
        [SCENEDEC_STATUS_INVALID_ARGUMENT; 2]
    );
    assert_eq!(
        with_animations(many.as_ptr(), SCENEDEC_MAX_ANIMATION_FILES),
        [err, err]
    );
    assert_eq!(
        with_animations(core::ptr::null(), 1),
        [SCENEDEC_STATUS_NULL_ARGUMENT; 2]
    );
}
