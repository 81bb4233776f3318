//! Limits set by name from C (`scenedec_options_set_limit`): every name of
//! both model tables reaches the table(s) that have it, in the library's
//! one namespace (`limits::override_model_limit`), an unknown name or a bad
//! value is a clear status, and a limit set through C holds at its value
//! and fails one past it on the bundled samples (where the scene gives the
//! count the limit bounds).

use core::ffi::CStr;
use core::mem::MaybeUninit;
use std::ffi::CString;
use std::vec;

use decoder::{BbmodelLimits, J3dLimits};

use crate::*;

const CUBE: &[u8] = include_bytes!("../../samples/cube.bbmodel");
const PYRAMID: &[u8] = include_bytes!("../../samples/pyramid.bmd");

fn options() -> scenedec_options {
    let mut o = MaybeUninit::uninit();
    // SAFETY: writable.
    unsafe { scenedec_options_init(o.as_mut_ptr()) };
    // SAFETY: just initialised.
    unsafe { o.assume_init() }
}

/// `scenedec_options_set_limit(o, name, value)`: its status and error code.
fn set(o: &mut scenedec_options, name: &CStr, value: f64) -> (scenedec_status, u32) {
    let mut e = MaybeUninit::<scenedec_error>::zeroed();
    // SAFETY: valid pointers.
    let status = unsafe { scenedec_options_set_limit(o, name.as_ptr(), value, e.as_mut_ptr()) };
    // SAFETY: zeroed or written; every field is valid as zero.
    (status, unsafe { e.assume_init() }.code as u32)
}

#[test]
fn every_name_of_both_tables_is_set_from_c() {
    for name in BbmodelLimits::names().chain(J3dLimits::names()) {
        let c = CString::new(name).unwrap();
        let mut o = options();
        assert_eq!(set(&mut o, &c, 7.0).0, SCENEDEC_STATUS_OK, "{name}");
        let (b, j) = (BbmodelLimits::from(o.bbmodel), J3dLimits::from(o.j3d));
        // Each table that has the name holds 7; a table without it is untouched.
        for (got, default) in [
            (b.get(name), BbmodelLimits::DEFAULT.get(name)),
            (j.get(name), J3dLimits::DEFAULT.get(name)),
        ] {
            assert_eq!(got, default.map(|_| 7), "{name}");
        }
        assert_eq!(
            b.get(name).is_none(),
            b == BbmodelLimits::DEFAULT,
            "{name}: the .bbmodel table changes exactly when it has the name"
        );
        assert_eq!(j.get(name).is_none(), j == J3dLimits::DEFAULT, "{name}");
        assert_eq!(set(&mut o, &c, f64::INFINITY).0, SCENEDEC_STATUS_OK);
        let (b, j) = (BbmodelLimits::from(o.bbmodel), J3dLimits::from(o.j3d));
        assert!(b.get(name).or(j.get(name)) == Some(decoder::limits::UNLIMITED));
        // Not a positive integer: the library's INVALID_LIMIT, nothing changed.
        let before = (o.bbmodel, o.j3d);
        for bad in [0.0, -1.0, 2.5, f64::NAN] {
            assert_eq!(
                set(&mut o, &c, bad),
                (SCENEDEC_STATUS_ERROR, SCENEDEC_ERROR_INVALID_LIMIT as u32),
                "{name} {bad}"
            );
            assert_eq!((o.bbmodel, o.j3d), before);
        }
    }
}

#[test]
fn an_unknown_name_is_a_clear_status() {
    let mut o = options();
    let before = (o.bbmodel, o.j3d);
    // Archive limits have no C functions yet; the rest are no limit's name.
    for name in [
        c"maxBananas",
        c"maxArchiveBytes",
        c"",
        c"maxtriangles",
        c"max_elements",
    ] {
        assert_eq!(
            set(&mut o, name, 5.0),
            (SCENEDEC_STATUS_ERROR, SCENEDEC_ERROR_INVALID_LIMIT as u32),
            "{name:?}"
        );
        assert_eq!((o.bbmodel, o.j3d), before);
    }
    let not_utf8 = [0xffu8, b'x', 0];
    // SAFETY: valid pointers; NUL-terminated.
    let status = unsafe {
        scenedec_options_set_limit(&mut o, not_utf8.as_ptr().cast(), 5.0, core::ptr::null_mut())
    };
    assert_eq!(status, SCENEDEC_STATUS_INVALID_ARGUMENT);
    // SAFETY: NULL name and options are refused before anything is read.
    unsafe {
        assert_eq!(
            scenedec_options_set_limit(&mut o, core::ptr::null(), 5.0, core::ptr::null_mut()),
            SCENEDEC_STATUS_NULL_ARGUMENT
        );
        assert_eq!(
            scenedec_options_set_limit(
                core::ptr::null_mut(),
                c"maxJoints".as_ptr(),
                5.0,
                core::ptr::null_mut()
            ),
            SCENEDEC_STATUS_NULL_ARGUMENT
        );
    }
}

/// Measures and decodes `bytes` through C with `o`: the status, the error
/// code and the scene.
fn decode(bytes: &[u8], o: &scenedec_options) -> (scenedec_status, u32, scenedec_scene) {
    let mut e = MaybeUninit::<scenedec_error>::zeroed();
    let mut plan = scenedec_plan::default();
    let mut scene = MaybeUninit::<scenedec_scene>::zeroed();
    // SAFETY: valid pointers for the calls; the arena holds the plan.
    let status = unsafe {
        let s = scenedec_measure(
            bytes.as_ptr(),
            bytes.len(),
            core::ptr::null(),
            o,
            &mut plan,
            e.as_mut_ptr(),
        );
        if s == SCENEDEC_STATUS_OK {
            let mut arena = vec![0u64; plan.arena_bytes.div_ceil(8)];
            let s = scenedec_decode_into(
                bytes.as_ptr(),
                bytes.len(),
                core::ptr::null(),
                o,
                arena.as_mut_ptr().cast(),
                plan.arena_bytes,
                core::ptr::null_mut(),
                scene.as_mut_ptr(),
                e.as_mut_ptr(),
            );
            // The scene's pointers are not followed past here.
            drop(arena);
            s
        } else {
            s
        }
    };
    // SAFETY: zeroed or written; every field is valid as zero.
    let (e, scene) = unsafe { (e.assume_init(), scene.assume_init()) };
    (status, e.code as u32, scene)
}

#[test]
fn limits_set_from_c_hold_at_their_value_and_fail_one_past() {
    type Count = fn(&scenedec_scene, usize) -> usize;
    let cases: [(&[u8], &CStr, Count, scenedec_error_code); 8] = [
        (
            CUBE,
            c"maxFileBytes",
            |_, len| len,
            SCENEDEC_ERROR_FILE_TOO_LARGE,
        ),
        (
            CUBE,
            c"maxTriangles",
            |s, _| s.index_count / 3,
            SCENEDEC_ERROR_TOO_MANY_TRIANGLES,
        ),
        (
            CUBE,
            c"maxVertices",
            |s, _| s.position_count,
            SCENEDEC_ERROR_TOO_MANY_VERTICES,
        ),
        (
            PYRAMID,
            c"maxFileBytes",
            |_, len| len,
            SCENEDEC_ERROR_FILE_TOO_LARGE,
        ),
        (
            PYRAMID,
            c"maxTriangles",
            |s, _| s.index_count / 3,
            SCENEDEC_ERROR_TOO_MANY_TRIANGLES,
        ),
        (
            PYRAMID,
            c"maxVertices",
            |s, _| s.position_count,
            SCENEDEC_ERROR_TOO_MANY_VERTICES,
        ),
        (
            PYRAMID,
            c"maxJoints",
            |s, _| s.node_count,
            SCENEDEC_ERROR_TOO_MANY_JOINTS,
        ),
        (
            PYRAMID,
            c"max_joints",
            |s, _| s.node_count,
            SCENEDEC_ERROR_TOO_MANY_JOINTS,
        ),
    ];
    for (bytes, name, count, code) in cases {
        let (status, _, scene) = decode(bytes, &options());
        assert_eq!(status, SCENEDEC_STATUS_OK);
        let n = count(&scene, bytes.len());
        assert!(n >= 2, "{name:?}: a count of {n} has no one-past value ≥ 1");
        let mut o = options();
        assert_eq!(set(&mut o, name, n as f64).0, SCENEDEC_STATUS_OK);
        assert_eq!(decode(bytes, &o).0, SCENEDEC_STATUS_OK, "{name:?} = {n}");
        assert_eq!(set(&mut o, name, (n - 1) as f64).0, SCENEDEC_STATUS_OK);
        let (status, got, _) = decode(bytes, &o);
        assert_eq!(
            (status, got),
            (SCENEDEC_STATUS_ERROR, code as u32),
            "{name:?} = {}",
            n - 1
        );
    }
}
