//! J3D clips through the C functions, on the animation corpus
//! (`../shared/corpus/j3d-anim/`, each folder's model with every animation
//! file beside it offered, as `scenedec inspect --with` offers them): the
//! C view's clip, track, curve, key and value arrays are the library's, and
//! `scenedec_sample_frame` / `_material` / `_visibility` give what
//! `Scene::sample_frame` / `sample_material` / `sample_visibility` give.

use core::mem::MaybeUninit;
use std::boxed::Box;
use std::path::{Path, PathBuf};
use std::string::String;
use std::vec;
use std::vec::Vec;

use decoder::scene::NodePose;

use crate::*;

/// The animation corpus, or `None` (a failure under CI) when it is absent.
fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/j3d-anim");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none_or(|v| v == "false" || v == "0"),
        "CI is set but {} is absent",
        dir.display()
    );
    std::eprintln!("corpus absent: the C clip checks were skipped");
    None
}

/// A model's bytes and its animation files (name, bytes), by name.
type Folder = (Vec<u8>, Vec<(String, Vec<u8>)>);

/// Each folder's model and its animation files.
fn folders(root: &Path) -> Vec<Folder> {
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() && p.file_name().is_some_and(|n| n != "expected"))
        .collect();
    dirs.sort();
    for dir in dirs {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let is_model = |p: &PathBuf| {
            p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("bmd") || e.eq_ignore_ascii_case("bdl"))
        };
        let Some(model) = files.iter().find(|p| is_model(p)) else {
            continue;
        };
        let animations = files
            .iter()
            .filter(|p| !is_model(p))
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(p).unwrap())
            })
            .collect();
        out.push((std::fs::read(model).unwrap(), animations));
    }
    out
}

/// A decoded scene and the memory it borrows.
struct Decoded {
    scene: scenedec_scene,
    _arena: Vec<u64>,
}

/// Decodes `model` with `animations` offered, through the C functions.
fn decode_c(model: &[u8], animations: &[(String, Vec<u8>)]) -> Decoded {
    let files: Vec<scenedec_animation_file> = animations
        .iter()
        .map(|(name, bytes)| scenedec_animation_file {
            name: name.as_ptr().cast(),
            name_len: name.len(),
            bytes: bytes.as_ptr(),
            len: bytes.len(),
        })
        .collect();
    let mut o = MaybeUninit::uninit();
    // SAFETY: writable.
    unsafe { scenedec_options_init(o.as_mut_ptr()) };
    // SAFETY: just initialised.
    let mut o = unsafe { o.assume_init() };
    o.animation_files = files.as_ptr();
    o.animation_file_count = files.len();
    let mut plan = scenedec_plan::default();
    // SAFETY: valid pointers for the call.
    let status = unsafe {
        scenedec_measure(
            model.as_ptr(),
            model.len(),
            core::ptr::null(),
            &o,
            &mut plan,
            core::ptr::null_mut(),
        )
    };
    assert_eq!(status, SCENEDEC_STATUS_OK);
    let mut arena = vec![0u64; plan.arena_bytes.div_ceil(8)];
    let mut scene = MaybeUninit::<scenedec_scene>::zeroed();
    // SAFETY: valid pointers; the arena holds `arena_bytes`.
    let status = unsafe {
        scenedec_decode_into(
            model.as_ptr(),
            model.len(),
            core::ptr::null(),
            &o,
            arena.as_mut_ptr().cast(),
            plan.arena_bytes,
            core::ptr::null_mut(),
            scene.as_mut_ptr(),
            core::ptr::null_mut(),
        )
    };
    assert_eq!(status, SCENEDEC_STATUS_OK);
    Decoded {
        // SAFETY: written by the successful decode.
        scene: unsafe { scene.assume_init() },
        _arena: arena,
    }
}

/// `count` records at `ptr` as bytes (the C view's array).
fn c_bytes<T>(ptr: *const T, count: usize) -> &'static [u8] {
    let len = count * core::mem::size_of::<T>();
    // SAFETY: the scene's array of `count` records, alive while the test
    // holds its `Decoded`; read as bytes only.
    unsafe { crate::scene::bytes(ptr.cast(), len) }
}

fn rust_bytes<T: zerocopy::IntoBytes + zerocopy::Immutable>(records: &[T]) -> &[u8] {
    records.as_bytes()
}

use zerocopy::IntoBytes;

#[test]
fn clip_arrays_and_samples_are_the_librarys() {
    let Some(root) = corpus() else { return };
    let mut clips_seen = 0;
    let mut frames_compared = 0;
    for (model, animations) in folders(&root) {
        let decoded = decode_c(&model, &animations);
        let s = &decoded.scene;
        // SAFETY: a scene this library wrote, its arena and model alive.
        let view = unsafe { s.view() }.unwrap();
        assert_eq!(s.clip_count, animations.len());
        assert_eq!(c_bytes(s.clips, s.clip_count), rust_bytes(view.clips()));
        assert_eq!(c_bytes(s.tracks, s.track_count), rust_bytes(view.tracks()));
        assert_eq!(c_bytes(s.curves, s.curve_count), rust_bytes(view.curves()));
        assert_eq!(
            c_bytes(s.hermite_keys, s.hermite_key_count),
            rust_bytes(view.hermite_keys())
        );
        assert_eq!(
            c_bytes(s.curve_values, s.curve_value_count),
            rust_bytes(view.curve_values())
        );
        for c in 0..s.clip_count {
            // SAFETY: `c` < `clip_count`.
            let clip = unsafe { *s.clips.add(c) };
            let clip_index = clip.animation as usize;
            clips_seen += 1;
            for frames in [0.0, 0.5, clip.frames * 0.37, clip.frames + 3.25] {
                frames_compared += 1;
                let mut c_poses = vec![scenedec_pose::default(); s.node_count];
                let mut rust_poses = vec![NodePose::default(); s.node_count];
                // SAFETY: valid pointers, one pose per node.
                let status = unsafe {
                    scenedec_sample_frame(
                        s,
                        clip_index,
                        frames,
                        c_poses.as_mut_ptr(),
                        c_poses.len(),
                        core::ptr::null_mut(),
                    )
                };
                assert_eq!(status, SCENEDEC_STATUS_OK);
                view.sample_frame(clip_index, frames, &mut rust_poses)
                    .unwrap();
                for (c, r) in c_poses.iter().zip(&rust_poses) {
                    assert_eq!(
                        (c.translation, c.rotation, c.scale, c.pivot),
                        (r.translation, r.rotation, r.scale, r.pivot)
                    );
                }
                for m in 0..=s.material_count {
                    let want = view.sample_material(clip_index, frames, m).unwrap();
                    let mut got = MaybeUninit::<scenedec_material_sample>::uninit();
                    // SAFETY: valid pointers.
                    let status = unsafe {
                        scenedec_sample_material(
                            s,
                            clip_index,
                            frames,
                            m,
                            got.as_mut_ptr(),
                            core::ptr::null_mut(),
                        )
                    };
                    assert_eq!(status, SCENEDEC_STATUS_OK);
                    // SAFETY: written on success.
                    let got = unsafe { got.assume_init() };
                    for (i, t) in want.texture_matrices.iter().enumerate() {
                        assert_eq!(got.texture_matrix_mask >> i & 1 == 1, t.is_some());
                        if let Some(t) = t {
                            assert_eq!(got.texture_matrices[i].matrix, t.matrix);
                            assert_eq!(got.texture_matrices[i].scale, t.scale);
                            assert_eq!(got.texture_matrices[i].rotation, t.rotation);
                            assert_eq!(got.texture_matrices[i].translation, t.translation);
                        }
                    }
                    for (i, rgba) in want.colors.iter().enumerate() {
                        assert_eq!(got.color_mask >> i & 1 == 1, rgba.is_some());
                        assert_eq!(got.colors[i], rgba.unwrap_or_default());
                    }
                    for (i, index) in want.textures.iter().enumerate() {
                        assert_eq!(got.texture_mask >> i & 1 == 1, index.is_some());
                        assert_eq!(got.textures[i], index.unwrap_or_default());
                    }
                }
                for mesh in 0..=s.mesh_count {
                    let want = view.sample_visibility(clip_index, frames, mesh).unwrap();
                    let mut got = 7;
                    // SAFETY: valid pointers.
                    let status = unsafe {
                        scenedec_sample_visibility(
                            s,
                            clip_index,
                            frames,
                            mesh,
                            &mut got,
                            core::ptr::null_mut(),
                        )
                    };
                    assert_eq!(status, SCENEDEC_STATUS_OK);
                    assert_eq!(got, want.map_or(-1, i32::from));
                }
            }
        }
    }
    assert!(clips_seen > 30, "{clips_seen} clips");
    assert!(frames_compared > 0);
}

fn error() -> Box<scenedec_error> {
    Box::new(scenedec_error::from_error(&decoder::Error::nowhere(
        decoder::ErrorCode::InvalidLimit,
        format_args!("not written"),
    )))
}

#[test]
fn sampling_a_clip_reports_each_failure() {
    let Some(root) = corpus() else { return };
    let (model, animations) = folders(&root).into_iter().next().unwrap();
    let decoded = decode_c(&model, &animations);
    let s = &decoded.scene;
    let nodes = s.node_count;
    let mut poses = vec![scenedec_pose::default(); nodes];
    let mut sample = MaybeUninit::<scenedec_material_sample>::uninit();
    let mut visible = 0;
    let code = |e: &scenedec_error| e.code;
    // (clip, frames, poses given) → the library's code.
    for (clip, frames, count, want) in [
        (s.animation_count, 0.0, nodes, SCENEDEC_ERROR_BAD_OFFSET),
        (0, -1.0, nodes, SCENEDEC_ERROR_BAD_VALUE),
        (0, f32::NAN, nodes, SCENEDEC_ERROR_BAD_VALUE),
        (0, 0.0, nodes - 1, SCENEDEC_ERROR_ARENA_TOO_SMALL),
    ] {
        let mut e = error();
        // SAFETY: valid pointers; `count` ≤ the poses.
        let status =
            unsafe { scenedec_sample_frame(s, clip, frames, poses.as_mut_ptr(), count, &mut *e) };
        assert_eq!(status, SCENEDEC_STATUS_ERROR);
        assert_eq!(code(&e), want, "{clip} {frames} {count}");
        if count < nodes {
            continue;
        }
        let mut e = error();
        // SAFETY: valid pointers.
        let status =
            unsafe { scenedec_sample_material(s, clip, frames, 0, sample.as_mut_ptr(), &mut *e) };
        assert_eq!((status, code(&e)), (SCENEDEC_STATUS_ERROR, want));
        let mut e = error();
        // SAFETY: valid pointers.
        let status =
            unsafe { scenedec_sample_visibility(s, clip, frames, 0, &mut visible, &mut *e) };
        assert_eq!((status, code(&e)), (SCENEDEC_STATUS_ERROR, want));
    }
    // SAFETY: NULL outputs and scenes are refused before anything is read.
    unsafe {
        let null = core::ptr::null_mut();
        assert_eq!(
            scenedec_sample_frame(core::ptr::null(), 0, 0.0, poses.as_mut_ptr(), nodes, null),
            SCENEDEC_STATUS_NULL_ARGUMENT
        );
        assert_eq!(
            scenedec_sample_frame(s, 0, 0.0, core::ptr::null_mut(), nodes, null),
            SCENEDEC_STATUS_NULL_ARGUMENT
        );
        assert_eq!(
            scenedec_sample_material(s, 0, 0.0, 0, core::ptr::null_mut(), null),
            SCENEDEC_STATUS_NULL_ARGUMENT
        );
        assert_eq!(
            scenedec_sample_visibility(s, 0, 0.0, 0, core::ptr::null_mut(), null),
            SCENEDEC_STATUS_NULL_ARGUMENT
        );
    }
}
