//! Clips in the glTF export, read back with the `gltf` crate: every frame's
//! node chain evaluates to the world matrices `Scene::sample` and
//! `world_matrices` give at the frame's time, frames fall at `k / fps` and
//! at the clip's end, and the loop mode is kept in `extras`.

use scenedec::Scene;
use scenedec::export::gltf::{Options as ExportOptions, export};
use scenedec::scene::{
    AnimationRecord, ChannelRecord, ChannelTarget, Format, Interpolation, KeyframeRecord, LoopMode,
    Mat4, NodePose, NodeRecord, SceneArrays, SceneCounts, TextRef, TextSource, world_matrices,
};

/// A root `body` and under it `arm`, pivoted at (0, 8, 0); one hold clip of
/// 1.1 s turns `arm` (catmull-rom about z and x), moves `body` (linear) and
/// scales `arm` (step). Names come from `input`.
fn rig<'a>(words: &'a mut [u64], input: &'a str) -> Scene<'a> {
    let counts = SceneCounts {
        nodes: 2,
        animations: 1,
        channels: 3,
        keyframes: 8,
        ..SceneCounts::default()
    };
    let mut arena = scenedec::Arena::from_words(words);
    let a = SceneArrays::carve(&counts, &mut arena).unwrap();
    let span = |text: &str| {
        let start = input.find(text).unwrap();
        TextRef::new(TextSource::Input, start, text.len()).unwrap()
    };
    a.nodes[0] = NodeRecord {
        name: span("body"),
        parent: -1,
        translation: [1.0, 0.0, 0.0],
        scale: [1.0; 3],
        flags: 1,
        ..NodeRecord::default()
    };
    a.nodes[1] = NodeRecord {
        name: span("arm"),
        parent: 0,
        rotation: [0.0, 0.3, 0.0],
        scale: [1.0; 3],
        pivot: [0.0, 8.0, 0.0],
        flags: 1,
        ..NodeRecord::default()
    };
    a.animations[0] = AnimationRecord {
        name: span("wave"),
        length: 1.1,
        loop_mode: LoopMode::Hold as u32,
        first_channel: 0,
        channel_count: 3,
    };
    let key = |time: f32, interpolation: Interpolation, v: [f32; 3]| KeyframeRecord {
        time,
        interpolation: interpolation as u32,
        pre: v,
        post: v,
        data_points: 1,
    };
    let keys = [
        key(0.0, Interpolation::CatmullRom, [0.0; 3]),
        key(0.4, Interpolation::CatmullRom, [0.5, 0.0, 1.2]),
        key(1.1, Interpolation::CatmullRom, [0.0, 0.0, 3.0]),
        key(0.0, Interpolation::Linear, [0.0; 3]),
        key(1.0, Interpolation::Linear, [0.0, 4.0, -2.0]),
        key(0.0, Interpolation::Step, [1.0; 3]),
        key(0.5, Interpolation::Step, [2.0, 1.0, 0.5]),
        key(1.1, Interpolation::Step, [1.0; 3]),
    ];
    a.keyframes.copy_from_slice(&keys);
    let channel = |node: u32, target: ChannelTarget, first: u32, count: u32| ChannelRecord {
        node,
        target: target as u32,
        first_keyframe: first,
        keyframe_count: count,
    };
    a.channels[0] = channel(1, ChannelTarget::Rotation, 0, 3);
    a.channels[1] = channel(0, ChannelTarget::Translation, 3, 2);
    a.channels[2] = channel(1, ChannelTarget::Scale, 5, 3);
    Scene::new(Format::Bbmodel, input.as_bytes(), a)
}

/// A glTF node's translation, rotation (quaternion) and scale.
type Trs = ([f32; 3], [f32; 4], [f32; 3]);

const NAMES: &str = "body arm wave";

/// Column-major `T · R · S` of a glTF TRS.
fn trs(t: [f32; 3], q: [f32; 4], s: [f32; 3]) -> Mat4 {
    let [x, y, z, w] = q;
    let r = [
        1.0 - 2.0 * (y * y + z * z),
        2.0 * (x * y + z * w),
        2.0 * (x * z - y * w),
        2.0 * (x * y - z * w),
        1.0 - 2.0 * (x * x + z * z),
        2.0 * (y * z + x * w),
        2.0 * (x * z + y * w),
        2.0 * (y * z - x * w),
        1.0 - 2.0 * (x * x + y * y),
    ];
    Mat4([
        r[0] * s[0],
        r[1] * s[0],
        r[2] * s[0],
        0.0, //
        r[3] * s[1],
        r[4] * s[1],
        r[5] * s[1],
        0.0, //
        r[6] * s[2],
        r[7] * s[2],
        r[8] * s[2],
        0.0, //
        t[0],
        t[1],
        t[2],
        1.0,
    ])
}

#[test]
fn every_exported_frame_is_the_sampled_pose() {
    let mut words = vec![0u64; 1024];
    let scene = rig(&mut words, NAMES);
    let fps = 10.0;
    let options = ExportOptions {
        fps,
        ..ExportOptions::default()
    };
    let out = export(&scene, "rig", &options).unwrap();
    assert_eq!(out.summary.animations, 1);
    let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
    let blob = gltf.blob.clone().unwrap();
    let animation = gltf.animations().next().unwrap();
    assert_eq!(animation.name(), Some("wave"));
    assert_eq!(
        animation.extras().as_ref().unwrap().get(),
        r#"{"loop":"hold"}"#
    );

    // Per glTF node: its rest TRS, its parent.
    let nodes: Vec<_> = gltf.nodes().collect();
    let mut parent = vec![None; nodes.len()];
    for n in &nodes {
        for c in n.children() {
            parent[c.index()] = Some(n.index());
        }
    }
    let rest: Vec<_> = nodes.iter().map(|n| n.transform().decomposed()).collect();
    let mut times: Vec<f32> = Vec::new();
    // (node, frames) per animated property.
    let mut animated: Vec<(usize, gltf::animation::util::ReadOutputs<'_>)> = Vec::new();
    for channel in animation.channels() {
        let reader = channel.reader(|_| Some(&blob[..]));
        times = reader.read_inputs().unwrap().collect();
        animated.push((
            channel.target().node().index(),
            reader.read_outputs().unwrap(),
        ));
    }
    // Frames at 0, 0.1, …, 1.0 and the end, 1.1 s.
    assert_eq!(times.len(), 12, "{times:?}");
    assert_eq!(*times.last().unwrap(), 1.1);
    let mut frames: Vec<Vec<Trs>> = vec![rest.clone(); times.len()];
    for (node, outputs) in animated {
        use gltf::animation::util::ReadOutputs;
        match outputs {
            ReadOutputs::Translations(v) => v.enumerate().for_each(|(k, t)| frames[k][node].0 = t),
            ReadOutputs::Rotations(r) => r
                .into_f32()
                .enumerate()
                .for_each(|(k, q)| frames[k][node].1 = q),
            ReadOutputs::Scales(v) => v.enumerate().for_each(|(k, s)| frames[k][node].2 = s),
            ReadOutputs::MorphTargetWeights(_) => panic!("no morph targets"),
        }
    }
    // The chain's last node of each scene node: "<name> (pivot)", or itself.
    let attach = |name: &str| {
        nodes
            .iter()
            .position(|n| n.name() == Some(&format!("{name} (pivot)")))
            .or_else(|| nodes.iter().position(|n| n.name() == Some(name)))
            .unwrap()
    };
    let mut poses = vec![NodePose::default(); 2];
    let mut expected = vec![Mat4::IDENTITY; 2];
    for (k, &t) in times.iter().enumerate() {
        assert!(
            (t - (k as f32 / fps).min(1.1)).abs() < 1e-6,
            "frame {k} at {t}"
        );
        scene.sample(0, t, &mut poses).unwrap();
        world_matrices(&scene, &poses, &mut expected);
        for (i, name) in ["body", "arm"].into_iter().enumerate() {
            let mut m = Mat4::IDENTITY;
            let mut current = Some(attach(name));
            while let Some(c) = current {
                let (t, q, s) = frames[k][c];
                m = trs(t, q, s).mul(&m);
                current = parent[c];
            }
            for (a, b) in m.0.iter().zip(expected[i].0) {
                assert!(
                    (a - b).abs() < 1e-4,
                    "{name} at frame {k}: {m:?} vs {:?}",
                    expected[i]
                );
            }
        }
    }
}

#[test]
fn a_scene_without_clips_writes_no_animation_and_fps_must_be_positive() {
    let mut words = vec![0u64; 1024];
    let scene = rig(&mut words, NAMES);
    for fps in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        let options = ExportOptions {
            fps,
            ..ExportOptions::default()
        };
        assert!(export(&scene, "rig", &options).is_err(), "{fps}");
    }
    let still = Scene::empty(Format::Bbmodel, &[]);
    let out = export(&still, "still", &ExportOptions::default()).unwrap();
    assert_eq!(out.summary.animations, 0);
}
