//! An interpolation Blockbench does not know, played as Blockbench plays it.
//!
//! Blockbench keeps any string as a keyframe's `interpolation` (the
//! `Property(Keyframe, 'enum', 'interpolation')` has no value list, so
//! `Merge.string` takes it). `BoneAnimator.interpolate`
//! (`js/animations/timeline_animators.js`), between two keyframes, plays
//! linear when before is linear and after linear or step, else catmull-rom
//! when either is, else bezier when either is; for anything else no branch
//! returns, `interpolate` returns `false`, and `displayPosition`,
//! `displayRotation` and `displayScale` (`if (arr)` / `if (!arr)`) leave
//! the bone as it is: at rest for that channel. With quaternion
//! interpolation (the Hytale formats) the slerp comes first and plays any
//! interpolation but step.

mod support;

use scenedec::WarningCode;
use scenedec::scene::{Interpolation, NodePose, Scene};
use support::bbmodel_builder::{Animation, Model, bone};
use support::clips::*;

fn clip(interpolations: [&str; 3]) -> Model {
    let kf = |time: f64, x: f64, interpolation: &str| {
        position(time, x, 1.0, 0.0).set("interpolation", interpolation)
    };
    rig5(vec![Animation::new("a").set("length", 2.0).animator(
        HEAD,
        bone(vec![
            kf(0.0, 2.0, interpolations[0]),
            kf(1.0, 4.0, interpolations[1]),
            kf(2.0, 8.0, interpolations[2]),
        ]),
    )])
}

/// The head's translation at `time`, `None` when it is the rest one.
fn head_at(scene: &Scene<'_>, time: f32) -> Option<[f32; 3]> {
    let mut poses = vec![NodePose::default(); scene.nodes().len()];
    scene.sample(0, time, &mut poses).unwrap();
    let rest = scene.nodes()[N_HEAD as usize].translation;
    let t = poses[N_HEAD as usize].translation;
    (t != rest).then_some(t)
}

#[test]
fn a_segment_with_an_unknown_end_leaves_the_channel_at_rest() {
    for name in ["smooth", ""] {
        let model = clip(["linear", name, "linear"]);
        let bytes = model.bytes();
        let loaded = load(&bytes);
        let scene = loaded.scene();
        let keys = &clips(&scene)[0].channels[0].keys;
        assert_eq!(keys[1].interpolation, Interpolation::Unknown as u32);
        // Into it (before linear, after unknown) and out of it (before
        // unknown, after linear): no branch, at rest.
        assert_eq!(head_at(&scene, 0.5), None, "{name:?} into");
        assert_eq!(head_at(&scene, 1.5), None, "{name:?} out of");
        // At its time and at the others, the keyframes show.
        assert_eq!(head_at(&scene, 1.0), Some([4.0, 1.0, 0.0]));
        assert_eq!(head_at(&scene, 0.0), Some([2.0, 1.0, 0.0]));
        assert_eq!(head_at(&scene, 2.0), Some([8.0, 1.0, 0.0]));
        // Reported once for the channel, at the keyframe.
        let w = warnings(&loaded);
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(w[0].0, WarningCode::UnsupportedValue);
        assert!(w[0].1.ends_with("].keyframes[1].interpolation"), "{w:?}");
    }
}

#[test]
fn next_to_catmull_rom_or_bezier_the_segment_plays_that_curve() {
    // linear → unknown → catmullrom: the second segment is catmull-rom,
    // the first still has no branch.
    let bytes = clip(["linear", "smooth", "catmullrom"]).bytes();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(head_at(&scene, 0.5), None);
    let same = clip(["linear", "linear", "catmullrom"]).bytes();
    let same = load(&same);
    let got = head_at(&scene, 1.5).unwrap();
    assert_eq!(Some(got), head_at(&same.scene(), 1.5));
    assert!(got[0] > 4.0 && got[0] < 8.0);
    // A bezier neighbour: Blockbench's bezier segment.
    let bytes = clip(["bezier", "smooth", "step"]).bytes();
    let loaded = load(&bytes);
    let same = clip(["bezier", "linear", "step"]).bytes();
    let same = load(&same);
    let got = head_at(&loaded.scene(), 0.5).unwrap();
    assert_eq!(Some(got), head_at(&same.scene(), 0.5));
    // Unknown → step: no branch (step only holds as *before*).
    assert_eq!(head_at(&loaded.scene(), 1.5), None);
}

#[test]
fn a_step_before_holds_and_the_export_keeps_the_clip() {
    let bytes = clip(["step", "smooth", "linear"]).bytes();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(head_at(&scene, 0.5), Some([2.0, 1.0, 0.0]));
    assert_eq!(head_at(&scene, 1.5), None);
    // Exported: the clip is written and its frames are the sampled ones
    // (a frame at rest reads back as the rest translation).
    let out = scenedec::export::gltf::export(
        &scene,
        "model",
        &scenedec::export::gltf::Options::default(),
    )
    .unwrap();
    let doc = gltf::Gltf::from_slice(&out.main).unwrap();
    let blob = doc.blob.clone().unwrap_or_default();
    let animation = doc.animations().next().expect("the clip is exported");
    let channel = animation.channels().next().unwrap();
    let reader = channel.reader(|_| Some(&blob[..]));
    let times: Vec<f32> = reader.read_inputs().unwrap().collect();
    let Some(gltf::animation::util::ReadOutputs::Translations(values)) = reader.read_outputs()
    else {
        panic!("a translation channel");
    };
    let rest = scene.nodes()[N_HEAD as usize];
    let scale = scenedec::export::gltf::Options::default().scale;
    for (t, v) in times.iter().zip(values) {
        let want = head_at(&scene, *t).unwrap_or(rest.translation);
        for k in 0..3 {
            // The node carries its pivot less its parent's (nodes.rs).
            let got = v[k] / scale - (rest.pivot[k] - scene.nodes()[0].pivot[k]);
            assert!((got - want[k]).abs() < 1e-3, "at {t}: {v:?} vs {want:?}");
        }
    }
}
