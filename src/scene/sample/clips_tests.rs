//! The J3D clip rules of `clips.rs`, each on a scene built by hand: Hermite
//! curves, stepped tables, nearest-frame visibility, every loop mode, joint
//! tracks replacing the rest pose, Maya segment-scale compensation through
//! the sampler, and the texture matrix.

use crate::arena::Arena;
use crate::scene::{
    AnimationRecord, ClipRecord, CurveKind, CurveRecord, Format, FrameLoop, HermiteKey, Mat4,
    NodeFlags, NodeRecord, Scene, SceneArrays, SceneCounts, TrackRecord, TrackTarget,
};
use crate::scene::{NodePose, texture_matrix, world_matrices};
use std::vec;
use std::vec::Vec;

/// One curve as a test writes it.
enum Curve<'c> {
    Rest(f32),
    Hermite(&'c [HermiteKey]),
    Table(CurveKind, &'c [f32]),
}

/// A one-clip scene of `nodes`, with `tracks` of (target, index, slot,
/// curves), `frames` long, in loop mode `mode`, at 30 frames a second.
fn with_clip(
    nodes: &[NodeRecord],
    meshes: usize,
    frames: f32,
    mode: FrameLoop,
    tracks: &[(TrackTarget, u32, u32, Vec<Curve<'_>>)],
    f: impl FnOnce(&Scene<'_>),
) {
    let curves: usize = tracks.iter().map(|t| t.3.len()).sum();
    let mut keys = 0;
    let mut values = 0;
    for c in tracks.iter().flat_map(|t| &t.3) {
        match c {
            Curve::Rest(_) => {}
            Curve::Hermite(k) => keys += k.len(),
            Curve::Table(_, v) => values += v.len(),
        }
    }
    let counts = SceneCounts {
        nodes: nodes.len(),
        meshes,
        animations: 1,
        clips: 1,
        tracks: tracks.len(),
        curves,
        hermite_keys: keys,
        curve_values: values,
        ..SceneCounts::default()
    };
    let plan = crate::arena::Plan::new(counts, |_| Ok(())).unwrap();
    let mut words = vec![0u64; plan.arena_words()];
    let mut arena = Arena::from_words(&mut words);
    let a = SceneArrays::carve(&counts, &mut arena).unwrap();
    a.nodes.copy_from_slice(nodes);
    a.animations[0] = AnimationRecord {
        length: frames / 30.0,
        ..AnimationRecord::default()
    };
    a.clips[0] = ClipRecord {
        animation: 0,
        kind: 0,
        loop_mode: mode as u32,
        frames,
        frame_rate: 30.0,
        first_track: 0,
        track_count: tracks.len() as u32,
    };
    let (mut curve, mut key, mut value) = (0usize, 0usize, 0usize);
    for (t, (target, index, slot, cs)) in tracks.iter().enumerate() {
        a.tracks[t] = TrackRecord {
            target: *target as u32,
            index: *index,
            slot: *slot,
            first_curve: curve as u32,
            curve_count: cs.len() as u32,
            ..TrackRecord::default()
        };
        for c in cs {
            a.curves[curve] = match c {
                Curve::Rest(rest) => CurveRecord {
                    kind: CurveKind::Hermite as u32,
                    rest: *rest,
                    ..CurveRecord::default()
                },
                Curve::Hermite(k) => {
                    a.hermite_keys[key..key + k.len()].copy_from_slice(k);
                    key += k.len();
                    CurveRecord {
                        kind: CurveKind::Hermite as u32,
                        first: (key - k.len()) as u32,
                        count: k.len() as u32,
                        rest: 0.0,
                    }
                }
                Curve::Table(kind, v) => {
                    a.curve_values[value..value + v.len()].copy_from_slice(v);
                    value += v.len();
                    CurveRecord {
                        kind: *kind as u32,
                        first: (value - v.len()) as u32,
                        count: v.len() as u32,
                        rest: 0.0,
                    }
                }
            };
            curve += 1;
        }
    }
    f(&Scene::new(Format::J3d, &[], a));
}

fn joint(parent: i32) -> NodeRecord {
    NodeRecord {
        parent,
        flags: NodeFlags::VISIBLE,
        scale: [1.0; 3],
        ..NodeRecord::default()
    }
}

/// A joint track: scale 1, no rotation, translation X from `x`, the rest flat.
fn joint_track<'c>(index: u32, x: Curve<'c>) -> (TrackTarget, u32, u32, Vec<Curve<'c>>) {
    let mut curves = vec![Curve::Rest(1.0), Curve::Rest(1.0), Curve::Rest(1.0)];
    curves.extend([Curve::Rest(0.0), Curve::Rest(0.0), Curve::Rest(0.0)]);
    curves.extend([x, Curve::Rest(0.0), Curve::Rest(0.0)]);
    (TrackTarget::Joint, index, 0, curves)
}

fn pose_x(scene: &Scene<'_>, frames: f32) -> f32 {
    let mut out = vec![NodePose::default(); scene.nodes().len()];
    scene.sample_frame(0, frames, &mut out).unwrap();
    out[0].translation[0]
}

/// Hermite (expected/README.md): between keys k0, k1 at frame F, L = t1 -
/// t0, t = (F - t0) / L, the cubic Hermite of v0, v1 with m0 =
/// tangentOut0 · L and m1 = tangentIn1 · L; the first value before the
/// first key, the last from the last key on.
#[test]
fn hermite_curves_use_the_out_tangent_leaving_and_the_in_tangent_arriving() {
    let keys = [
        HermiteKey {
            time: 2.0,
            value: 1.0,
            tangent_in: 9.0,
            tangent_out: 0.5,
        },
        HermiteKey {
            time: 6.0,
            value: 3.0,
            tangent_in: -1.0,
            tangent_out: 9.0,
        },
    ];
    with_clip(
        &[joint(-1)],
        0,
        10.0,
        FrameLoop::Once,
        &[joint_track(0, Curve::Hermite(&keys))],
        |s| {
            let (l, t) = (4.0f32, 0.25f32);
            let want = 1.0 * (2.0 * t * t * t - 3.0 * t * t + 1.0)
                + 0.5 * l * (t * t * t - 2.0 * t * t + t)
                + 3.0 * (-2.0 * t * t * t + 3.0 * t * t)
                - l * (t * t * t - t * t);
            assert!((pose_x(s, 3.0) - want).abs() < 1e-6);
            assert_eq!(pose_x(s, 0.0), 1.0, "before the first key: its value");
            assert_eq!(pose_x(s, 2.0), 1.0);
            assert_eq!(pose_x(s, 6.0), 3.0);
            assert_eq!(pose_x(s, 8.5), 3.0, "from the last key on: its value");
        },
    );
}

/// BCA and BTP tables are read at floor(frame), the last value from the
/// table's end on (the game's rule); BVA visibility at floor(frame + 0.5).
#[test]
fn tables_read_the_floor_frame_and_visibility_the_nearest() {
    let table = [10.0, 20.0, 30.0];
    let shown = [1.0, 0.0, 1.0];
    let tracks = [
        joint_track(0, Curve::Table(CurveKind::Table, &table)),
        (
            TrackTarget::Visibility,
            0,
            0,
            vec![Curve::Table(CurveKind::Nearest, &shown)],
        ),
    ];
    with_clip(&[joint(-1)], 2, 8.0, FrameLoop::Once, &tracks, |s| {
        assert_eq!(pose_x(s, 0.0), 10.0);
        assert_eq!(pose_x(s, 0.99), 10.0);
        assert_eq!(pose_x(s, 1.0), 20.0);
        assert_eq!(pose_x(s, 2.5), 30.0);
        assert_eq!(pose_x(s, 5.0), 30.0, "past the table: its last value");
        let vis = |f: f32| s.sample_visibility(0, f, 0).unwrap();
        assert_eq!(vis(0.49), Some(true));
        assert_eq!(vis(0.5), Some(false), "0.5 rounds to frame 1");
        assert_eq!(vis(1.49), Some(false));
        assert_eq!(vis(1.5), Some(true));
        assert_eq!(vis(7.0), Some(true), "past the table: its last value");
        assert_eq!(
            s.sample_visibility(0, 1.0, 1).unwrap(),
            None,
            "no track: as it is"
        );
    });
}

/// J3DFrameCtrl's modes: Once holds at frames - 0.001, OnceAndReset
/// returns to 0, Repeat wraps, MirroredOnce runs back then holds 0,
/// MirroredRepeat runs back and forth.
#[test]
fn every_loop_mode_maps_time_to_the_frame_the_game_shows() {
    let table: Vec<f32> = (0..10).map(|i| i as f32).collect();
    let cases: [(FrameLoop, [(f32, f32); 4]); 5] = [
        (
            FrameLoop::Once,
            [(3.5, 3.0), (10.0, 9.0), (25.0, 9.0), (9.5, 9.0)],
        ),
        (
            FrameLoop::OnceAndReset,
            [(3.5, 3.0), (10.0, 0.0), (25.0, 0.0), (9.5, 9.0)],
        ),
        (
            FrameLoop::Repeat,
            [(3.5, 3.0), (10.0, 0.0), (25.0, 5.0), (13.0, 3.0)],
        ),
        (
            FrameLoop::MirroredOnce,
            [(3.5, 3.0), (13.0, 7.0), (25.0, 0.0), (19.5, 0.0)],
        ),
        (
            FrameLoop::MirroredRepeat,
            [(3.5, 3.0), (13.0, 7.0), (25.0, 5.0), (33.0, 7.0)],
        ),
    ];
    for (mode, samples) in cases {
        with_clip(
            &[joint(-1)],
            0,
            10.0,
            mode,
            &[joint_track(0, Curve::Table(CurveKind::Table, &table))],
            |s| {
                for (time, want) in samples {
                    assert_eq!(pose_x(s, time), want, "{mode:?} at {time}");
                }
                // Seconds at the clip's 30 frames a second give the same pose.
                let mut out = vec![NodePose::default(); 1];
                s.sample(0, samples[1].0 / 30.0, &mut out).unwrap();
                assert_eq!(
                    out[0].translation[0], samples[1].1,
                    "{mode:?} through sample"
                );
            },
        );
    }
    assert_eq!(FrameLoop::Once.apply(12.0, 10.0), 10.0 - 0.001);
}

/// Maya's scaling rule (docs/j3d.md): a joint flagged for segment-scale
/// compensation undoes its parent's scale, the parent's *animated* scale
/// when a clip scales it.
#[test]
fn maya_segment_scale_compensation_uses_the_parents_sampled_scale() {
    let mut child = joint(0);
    child.flags |= NodeFlags::SEGMENT_SCALE_COMPENSATE;
    let two = [2.0];
    let parent_scale = (
        TrackTarget::Joint,
        0,
        0,
        vec![
            Curve::Table(CurveKind::Table, &two),
            Curve::Table(CurveKind::Table, &two),
            Curve::Table(CurveKind::Table, &two),
            Curve::Rest(0.0),
            Curve::Rest(0.0),
            Curve::Rest(0.0),
            Curve::Rest(0.0),
            Curve::Rest(0.0),
            Curve::Rest(0.0),
        ],
    );
    let child_x = joint_track(1, Curve::Table(CurveKind::Table, &[5.0]));
    with_clip(
        &[joint(-1), child],
        0,
        4.0,
        FrameLoop::Once,
        &[parent_scale, child_x],
        |s| {
            let mut poses = vec![NodePose::default(); 2];
            s.sample_frame(0, 1.0, &mut poses).unwrap();
            let mut world = vec![Mat4::IDENTITY; 2];
            world_matrices(s, &poses, &mut world);
            // The child's origin sits at the parent's scale times its translation,
            // but its own axes are not scaled by the parent.
            assert_eq!(world[1].transform_point([0.0; 3]), [10.0, 0.0, 0.0]);
            assert_eq!(world[1].0[0], 1.0);
            assert_eq!(world[0].0[0], 2.0);
        },
    );
}

/// Texture matrices: Basic scales and turns about the centre, then
/// translates; a quarter turn maps S to T.
#[test]
fn texture_matrix_turns_about_its_centre() {
    let m = texture_matrix(
        false,
        [1.0, 1.0],
        core::f32::consts::FRAC_PI_2,
        [0.0, 0.0],
        [0.5, 0.5],
    );
    let apply = |s: f32, t: f32| [m[0] * s + m[4] * t + m[12], m[1] * s + m[5] * t + m[13]];
    let centre = apply(0.5, 0.5);
    assert!((centre[0] - 0.5).abs() < 1e-6 && (centre[1] - 0.5).abs() < 1e-6);
    let corner = apply(1.0, 0.5);
    assert!((corner[0] - 0.5).abs() < 1e-6 && (corner[1] - 1.0).abs() < 1e-6);
    let shifted = texture_matrix(false, [2.0, 1.0], 0.0, [0.25, 0.0], [0.0, 0.0]);
    assert_eq!((shifted[0], shifted[12]), (2.0, 0.25));
}

/// A clip that is not a J3D clip has no frames to sample.
#[test]
fn frames_of_a_clip_without_a_j3d_record_are_a_typed_error() {
    with_clip(&[joint(-1)], 0, 4.0, FrameLoop::Once, &[], |s| {
        let mut out = vec![NodePose::default(); 1];
        let e = s.sample_frame(1, 0.0, &mut out).unwrap_err();
        assert_eq!(e.code(), crate::error::ErrorCode::BadOffset);
        let e = s.sample_frame(0, -1.0, &mut out).unwrap_err();
        assert_eq!(e.code(), crate::error::ErrorCode::BadValue);
    });
}

/// Maya's layout (TTK1's flag, noclip's `calcTexMtx_Maya`): the identity
/// SRT is the identity, and a turn keeps (0.5, 0.5) in place, whatever
/// the entry's centre. `sample_material` builds a track's matrix with its
/// rotation curve, for its material and slot only.
#[test]
fn maya_texture_matrices_turn_about_the_middle_of_the_texture() {
    let identity = texture_matrix(true, [1.0, 1.0], 0.0, [0.0, 0.0], [0.0, 0.0]);
    let mut want = [0.0; 16];
    for i in [0, 5, 10, 15] {
        want[i] = 1.0;
    }
    assert_eq!(identity.map(|v| v + 0.0), want);
    let m = texture_matrix(true, [1.0, 1.0], 0.7, [0.0, 0.0], [0.0, 0.0]);
    let middle = [
        m[0] * 0.5 + m[4] * 0.5 + m[12],
        m[1] * 0.5 + m[5] * 0.5 + m[13],
    ];
    assert!((middle[0] - 0.5).abs() < 1e-6 && (middle[1] - 0.5).abs() < 1e-6);

    let turn = [0.7];
    let mut curves = vec![Curve::Rest(1.0), Curve::Rest(1.0), Curve::Rest(1.0)];
    curves.extend([Curve::Rest(0.0), Curve::Rest(0.0)]);
    curves.push(Curve::Table(CurveKind::Table, &turn));
    curves.extend([Curve::Rest(0.0), Curve::Rest(0.0), Curve::Rest(0.0)]);
    let track = (TrackTarget::TexMatrix, 0, 3, curves);
    with_clip(&[joint(-1)], 0, 4.0, FrameLoop::Once, &[track], |s| {
        // with_clip writes no flags: a Basic matrix about centre (0, 0).
        let basic = s.sample_material(0, 1.0, 0).unwrap();
        let got = basic.texture_matrices[3].unwrap();
        assert_eq!(got.rotation, 0.7);
        assert_eq!(
            got.matrix,
            texture_matrix(false, [1.0, 1.0], 0.7, [0.0, 0.0], [0.0, 0.0])
        );
        assert!(basic.texture_matrices[0].is_none() && basic.colors.iter().all(Option::is_none));
        assert!(
            s.sample_material(0, 1.0, 1).unwrap().is_empty(),
            "another material"
        );
    });
}
