//! Clips in the glTF export, read back with the `gltf` crate and played by
//! the glTF rules (LINEAR: lerp and slerp between inputs; STEP: the last
//! input's value): every frame's node chain evaluates to the world matrices
//! `Scene::sample` and `world_matrices` give at its time (what `scenedec
//! pose` prints), frames fall at `k / fps`, at every keyframe time and at
//! the clip's end, a stepping channel is STEP and shows the sampled value
//! between its keyframes, and the loop mode is kept in `extras`. Checked on
//! a fixture and on one clip of every animated corpus model.

mod support;

use gltf::animation::util::ReadOutputs;
use gltf::animation::{Interpolation as GltfInterpolation, Property};
use scenedec::Scene;
use scenedec::export::gltf::{Options as ExportOptions, export};
use scenedec::scene::{
    AnimationRecord, ChannelFlags, ChannelRecord, ChannelTarget, Format, Interpolation,
    KeyframeRecord, LoopMode, Mat4, NodeFlags, NodePose, NodeRecord, SceneArrays, SceneCounts,
    TextRef, TextSource, world_matrices,
};

/// A root `body` and under it `arm`, pivoted at (0, 8, 0); one hold clip of
/// 1.1 s turns `arm` (catmull-rom about z and x, a keyframe at 0.45 s, off
/// a 10 fps grid), moves `body` (linear) and scales `arm` (step, at 0, 0.5
/// and 1.1 s). Names come from `input`.
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
        ..KeyframeRecord::default()
    };
    let keys = [
        key(0.0, Interpolation::CatmullRom, [0.0; 3]),
        key(0.45, Interpolation::CatmullRom, [0.5, 0.0, 1.2]),
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
        ..ChannelRecord::default()
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
fn trs_matrix(t: [f32; 3], q: [f32; 4], s: [f32; 3]) -> Mat4 {
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

/// One channel read back: its glTF node, property, interpolation, inputs
/// and outputs (vectors padded to four).
struct Played {
    node: usize,
    property: Property,
    step: bool,
    times: Vec<f32>,
    values: Vec<[f32; 4]>,
}

/// An exported document read back: each glTF node's rest TRS and parent,
/// and per scene node the chain's main and last glTF node.
struct Doc {
    rest: Vec<Trs>,
    parent: Vec<Option<usize>>,
    /// Per scene node: (main, attach).
    chains: Vec<(usize, usize)>,
    animations: Vec<(Option<String>, Vec<Played>)>,
}

impl Doc {
    fn read(glb: &[u8], scene_nodes: usize) -> Self {
        let gltf = gltf::Gltf::from_slice(glb).unwrap();
        let blob = gltf.blob.clone().unwrap_or_default();
        let nodes: Vec<_> = gltf.nodes().collect();
        let mut parent = vec![None; nodes.len()];
        for n in &nodes {
            for c in n.children() {
                parent[c.index()] = Some(n.index());
            }
        }
        // Scene nodes come first, in order, each followed by its helper
        // ("<name> (pivot)" / "<name> (rotation)") when it has one.
        let helper = |n: &gltf::Node<'_>| {
            n.name()
                .is_some_and(|s| s.ends_with(" (pivot)") || s.ends_with(" (rotation)"))
        };
        let mut chains: Vec<(usize, usize)> = Vec::new();
        for n in &nodes {
            if helper(n) {
                let last = chains.last_mut().unwrap();
                let name = n.name().unwrap();
                if name.ends_with(" (rotation)") {
                    last.0 = n.index();
                }
                last.1 = n.index();
            } else if chains.len() < scene_nodes {
                chains.push((n.index(), n.index()));
            }
        }
        assert_eq!(chains.len(), scene_nodes);
        let animations = gltf
            .animations()
            .map(|a| {
                let played = a
                    .channels()
                    .map(|channel| {
                        let reader = channel.reader(|_| Some(&blob[..]));
                        let times: Vec<f32> = reader.read_inputs().unwrap().collect();
                        let pad = |v: [f32; 3]| [v[0], v[1], v[2], 0.0];
                        let values: Vec<[f32; 4]> = match reader.read_outputs().unwrap() {
                            ReadOutputs::Translations(v) | ReadOutputs::Scales(v) => {
                                v.map(pad).collect()
                            }
                            ReadOutputs::Rotations(r) => r.into_f32().collect(),
                            ReadOutputs::MorphTargetWeights(_) => panic!("no morph targets"),
                        };
                        assert_eq!(times.len(), values.len());
                        assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
                        let step = match channel.sampler().interpolation() {
                            GltfInterpolation::Step => true,
                            GltfInterpolation::Linear => false,
                            GltfInterpolation::CubicSpline => panic!("no cubic splines"),
                        };
                        Played {
                            node: channel.target().node().index(),
                            property: channel.target().property(),
                            step,
                            times,
                            values,
                        }
                    })
                    .collect();
                (a.name().map(str::to_owned), played)
            })
            .collect();
        Self {
            rest: nodes.iter().map(|n| n.transform().decomposed()).collect(),
            parent,
            chains,
            animations,
        }
    }

    /// Every glTF node's TRS at time `t` of animation `a`, as a glTF player
    /// evaluates it.
    fn play(&self, a: usize, t: f32) -> Vec<Trs> {
        let mut trs = self.rest.clone();
        for c in &self.animations[a].1 {
            let v = c.value_at(t);
            let node = &mut trs[c.node];
            match c.property {
                Property::Translation => node.0 = [v[0], v[1], v[2]],
                Property::Rotation => node.1 = v,
                Property::Scale => node.2 = [v[0], v[1], v[2]],
                Property::MorphTargetWeights => panic!("no morph targets"),
            }
        }
        trs
    }

    /// The world matrix of glTF node `i` under `trs`.
    fn world(&self, trs: &[Trs], i: usize) -> Mat4 {
        let mut m = Mat4::IDENTITY;
        let mut current = Some(i);
        while let Some(c) = current {
            let (t, q, s) = trs[c];
            m = trs_matrix(t, q, s).mul(&m);
            current = self.parent[c];
        }
        m
    }
}

impl Played {
    /// The channel's value at `t` by the glTF rules (clamped at both ends).
    fn value_at(&self, t: f32) -> [f32; 4] {
        let after = self.times.partition_point(|&x| x <= t);
        let Some(i) = after.checked_sub(1) else {
            return self.values[0];
        };
        let (Some(&t1), false) = (self.times.get(i + 1), self.step) else {
            return self.values[i];
        };
        let alpha = (t - self.times[i]) / (t1 - self.times[i]);
        let (a, b) = (self.values[i], self.values[i + 1]);
        if self.property == Property::Rotation {
            slerp(a, b, alpha)
        } else {
            std::array::from_fn(|k| a[k] + (b[k] - a[k]) * alpha)
        }
    }
}

/// glTF's spherical interpolation of unit quaternions.
fn slerp(a: [f32; 4], b: [f32; 4], alpha: f32) -> [f32; 4] {
    let mut dot: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    let b = if dot < 0.0 {
        dot = -dot;
        b.map(|x| -x)
    } else {
        b
    };
    if dot > 0.9995 {
        let q: [f32; 4] = std::array::from_fn(|k| a[k] + (b[k] - a[k]) * alpha);
        let len = q.iter().map(|x| x * x).sum::<f32>().sqrt();
        return q.map(|x| x / len);
    }
    let theta = dot.acos();
    let (wa, wb) = (
        ((1.0 - alpha) * theta).sin() / theta.sin(),
        (alpha * theta).sin() / theta.sin(),
    );
    std::array::from_fn(|k| a[k] * wa + b[k] * wb)
}

/// Within `1e-3` relative to the expected value's size (corpus models are
/// tens to hundreds of units across).
fn close_matrix(a: &Mat4, b: &Mat4) -> bool {
    a.0.iter()
        .zip(b.0)
        .all(|(x, y)| (x - y).abs() <= 1e-3 * (1.0 + y.abs()))
}

/// The rotation matrix of Euler angles (X, then Y, then Z), the scene's way.
fn euler_matrix(rotation: [f32; 3]) -> Mat4 {
    Mat4::local(&NodeRecord {
        rotation,
        scale: [1.0; 3],
        ..NodeRecord::default()
    })
}

/// The scale the corpus checks export at (1/16: a Blockbench block a metre).
const CORPUS_SCALE: f32 = 0.0625;

/// `scene` exported at [`CORPUS_SCALE`] and read back: the scale and the document.
fn exported_at_corpus_scale(scene: &Scene<'_>) -> (f32, Doc) {
    let options = ExportOptions {
        scale: CORPUS_SCALE,
        ..ExportOptions::default()
    };
    let out = export(scene, "model", &options).unwrap();
    (CORPUS_SCALE, Doc::read(&out.main, scene.nodes().len()))
}

/// Checks animation `a` of `doc` against clip `clip` of `scene` exported at
/// `scale`: at every `stride`-th input time of its LINEAR channels (and
/// their last) every scene node's chain is the sampled world matrix; between
/// the inputs of each STEP channel its value is the sampled one. Times at a
/// STEP channel's own inputs are left out of the world check (there glTF
/// shows the leaving value, the scene the arriving one; docs/export.md).
/// Returns (world checks, STEP checks).
fn check_clip(
    scene: &Scene<'_>,
    doc: &Doc,
    a: usize,
    clip: usize,
    scale: f32,
    stride: usize,
    what: &str,
) -> (usize, usize) {
    let n = scene.nodes().len();
    let mut poses = vec![NodePose::default(); n];
    let mut expected = vec![Mat4::IDENTITY; n];
    let channels = &doc.animations[a].1;
    let step_times: Vec<f32> = channels
        .iter()
        .filter(|c| c.step)
        .flat_map(|c| c.times.iter().copied())
        .collect();
    let mut world_checks = 0;
    let mut step_checks = 0;
    // The LINEAR grid (every LINEAR channel shares it) without the STEP
    // channels' own inputs; a clip of STEP channels alone: between them.
    let mut world_times: Vec<f32> = match channels.iter().find(|c| !c.step) {
        Some(c) => {
            let last = c.times.len() - 1;
            c.times
                .iter()
                .enumerate()
                .filter(|&(k, t)| (k % stride == 0 || k == last) && !step_times.contains(t))
                .map(|(_, &t)| t)
                .collect()
        }
        None => channels
            .iter()
            .flat_map(|c| between_inputs(c, scene, clip))
            .collect(),
    };
    world_times.sort_by(f32::total_cmp);
    world_times.dedup();
    for t in world_times {
        scene.sample(clip, t, &mut poses).unwrap();
        world_matrices(scene, &poses, &mut expected);
        let trs = doc.play(a, t);
        for (i, &(_, attach)) in doc.chains.iter().enumerate() {
            let mut want = expected[i];
            for v in &mut want.0[12..15] {
                *v *= scale;
            }
            // A node carries its pivot (folded into its translation): the
            // scene's world is its world times T(−pivot).
            let pivot = scene.nodes()[i].pivot.map(|x| -x * scale);
            let got = doc.world(&trs, attach).mul(&Mat4::translation(pivot));
            assert!(
                close_matrix(&got, &want),
                "{what}: node {i} at {t} s: {got:?} vs {want:?}"
            );
            world_checks += 1;
        }
    }
    for c in channels.iter().filter(|c| c.step) {
        let node = doc
            .chains
            .iter()
            .position(|&(main, _)| main == c.node)
            .unwrap();
        for t in between_inputs(c, scene, clip) {
            scene.sample(clip, t, &mut poses).unwrap();
            let p = poses[node];
            let v = c.value_at(t);
            // The node's translation is t + p less its parent's pivot.
            let above =
                usize::try_from(scene.nodes()[node].parent).map_or([0.0; 3], |q| poses[q].pivot);
            let ok = match c.property {
                Property::Translation => (0..3).all(|k| {
                    (v[k] - (p.translation[k] + p.pivot[k] - above[k]) * scale).abs()
                        <= 1e-4 * (1.0 + v[k].abs())
                }),
                Property::Scale => {
                    (0..3).all(|k| (v[k] - p.scale[k]).abs() <= 1e-4 * (1.0 + v[k].abs()))
                }
                Property::Rotation => close_matrix(
                    &trs_matrix([0.0; 3], v, [1.0; 3]),
                    &euler_matrix(p.rotation),
                ),
                Property::MorphTargetWeights => false,
            };
            assert!(
                ok,
                "{what}: STEP {:?} of node {node} at {t} s: {v:?} vs {p:?}",
                c.property
            );
            step_checks += 1;
        }
    }
    (world_checks, step_checks)
}

/// Times between a STEP channel's inputs (none on a frame of a 60 fps
/// grid), and after its last input up to the clip's end, or at that input
/// when nothing follows it.
fn between_inputs(c: &Played, scene: &Scene<'_>, clip: usize) -> Vec<f32> {
    let mut between: Vec<f32> = c
        .times
        .windows(2)
        .map(|w| w[0] + (w[1] - w[0]) * 0.3)
        .collect();
    let length = scene.animations()[clip].length;
    if let Some(&last) = c.times.last() {
        if length > last {
            between.push(last + (length - last) * 0.5);
        } else {
            // Nothing follows the last input: it holds the value there.
            between.push(last);
        }
    }
    between
}

#[test]
fn convention_12_every_exported_frame_and_step_is_the_sampled_pose() {
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
    let animation = gltf.animations().next().unwrap();
    assert_eq!(animation.name(), Some("wave"));
    assert_eq!(
        animation.extras().as_ref().unwrap().get(),
        r#"{"loop":"hold"}"#
    );
    let doc = Doc::read(&out.main, 2);
    let channels = &doc.animations[0].1;
    // Rotation and translation: LINEAR on the 10 fps grid, the end (1.1 s)
    // and the rotation's keyframe at 0.45 s, which no frame falls on.
    let mut grid: Vec<f32> = (0..=10).map(|k| k as f32 / fps).collect();
    grid.insert(5, 0.45);
    grid.push(1.1);
    let linear: Vec<_> = channels.iter().filter(|c| !c.step).collect();
    assert_eq!(linear.len(), 2);
    for c in &linear {
        assert_eq!(c.times.len(), grid.len(), "{:?}", c.times);
        for (t, g) in c.times.iter().zip(&grid) {
            assert!((t - g).abs() < 1e-6, "{:?}", c.times);
        }
        assert!(c.times.contains(&0.45), "the keyframe's exact time");
    }
    // Scale steps: STEP at its keyframe times, the value after each.
    let step: Vec<_> = channels.iter().filter(|c| c.step).collect();
    assert_eq!(step.len(), 1);
    assert_eq!(step[0].property, Property::Scale);
    assert_eq!(step[0].times, [0.0, 0.5, 1.1]);
    assert_eq!(
        step[0].values,
        [
            [1.0, 1.0, 1.0, 0.0],
            [2.0, 1.0, 0.5, 0.0],
            [1.0, 1.0, 1.0, 0.0]
        ]
    );
    let (world, steps) = check_clip(&scene, &doc, 0, 0, 1.0, 1, "rig");
    // 13 grid times but 0, 0.5 and 1.1 (the STEP channel's own), 2 nodes;
    // the STEP channel between its inputs and at the end.
    assert_eq!(world, 10 * 2);
    assert_eq!(steps, 3);
    // Between frames (0.73 s): the stepped scale is exactly the sampled one.
    let mut poses = vec![NodePose::default(); 2];
    scene.sample(0, 0.73, &mut poses).unwrap();
    let v = step[0].value_at(0.73);
    assert_eq!([v[0], v[1], v[2]], poses[1].scale);
}

/// Corpus models whose clips steps or moves: one clip of each, read back.
#[test]
fn convention_12_one_clip_of_every_animated_corpus_model_plays_as_sampled() {
    let files = support::corpus_files("bbmodel", &[".bbmodel"]);
    let (mut models, mut world, mut steps) = (0, 0, 0);
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        let bytes = std::fs::read(path).unwrap();
        let Ok(loaded) = scenedec::load(&bytes, Some("bbmodel"), &support::corpus_options(name))
        else {
            continue;
        };
        let scene = loaded.scene();
        if scene.animations().is_empty() {
            continue;
        }
        let (scale, doc) = exported_at_corpus_scale(&scene);
        if doc.animations.is_empty() {
            continue;
        }
        // A clip with a STEP channel when there is one; its scene clip by
        // its name, when that name is the only one of its kind.
        let unique = |n: &Option<String>| {
            let named: Vec<usize> = scene
                .animations()
                .iter()
                .enumerate()
                .filter(|(_, r)| Some(scene.text(r.name)) == n.as_deref())
                .map(|(i, _)| i)
                .collect();
            (named.len() == 1).then(|| named[0])
        };
        let pick = (0..doc.animations.len())
            .filter(|&a| unique(&doc.animations[a].0).is_some())
            .max_by_key(|&a| {
                let channels = &doc.animations[a].1;
                let steps = channels.iter().any(|c| c.step && c.times.len() > 2);
                (steps, channels.iter().map(|c| c.times.len()).sum::<usize>())
            })
            .expect("a clip with a name of its own");
        let clip = unique(&doc.animations[pick].0).unwrap();
        let (w, s) = check_clip(&scene, &doc, pick, clip, scale, 5, name);
        assert!(w + s > 0, "{name}: nothing compared");
        eprintln!("{name}: clip {clip}: {w} world matrices, {s} STEP values");
        models += 1;
        world += w;
        steps += s;
    }
    eprintln!("{models} animated corpus models: {world} world matrices, {steps} STEP values");
    if !files.is_empty() {
        assert!(models >= 10, "only {models} animated corpus models checked");
        assert!(steps > 0, "no corpus clip has a STEP channel");
    }
}

/// Clips played past the plain rules: every corpus clip whose channels
/// carry quaternion interpolation (the Hytale plugin's formats: slerp, its
/// easing, loop wrapping) or `rotation_global`, exported and read back, the
/// .glb at its sample times equal to `Scene::sample`'s world matrices. Also
/// counts the corpus clips using each flag (docs/bbmodel.md quotes them).
#[test]
fn quaternion_hytale_and_rotation_global_corpus_clips_play_as_sampled() {
    let files = support::corpus_files("bbmodel", &[".bbmodel"]);
    let flags = [
        ("rotation_global", ChannelFlags::GLOBAL_ROTATION),
        ("quaternion", ChannelFlags::QUATERNION),
        ("Hytale rules", ChannelFlags::HYTALE),
        ("loop wrapping", ChannelFlags::LOOP_WRAP),
    ];
    let (mut clips, mut using, mut checked, mut world) = (0, [0usize; 4], [0usize; 4], 0);
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        let bytes = std::fs::read(path).unwrap();
        let Ok(loaded) = scenedec::load(&bytes, Some("bbmodel"), &support::corpus_options(name))
        else {
            continue;
        };
        let scene = loaded.scene();
        let clip_flags: Vec<u32> = scene
            .animations()
            .iter()
            .map(|a| {
                let first = a.first_channel as usize;
                scene.channels()[first..first + a.channel_count as usize]
                    .iter()
                    .fold(0, |f, c| f | c.flags)
            })
            .collect();
        clips += clip_flags.len();
        for (k, (_, bit)) in flags.iter().enumerate() {
            using[k] += clip_flags.iter().filter(|f| *f & bit != 0).count();
        }
        if clip_flags.iter().all(|f| *f == 0) {
            continue;
        }
        let (scale, doc) = exported_at_corpus_scale(&scene);
        for (clip, f) in clip_flags.iter().enumerate() {
            let clip_name = scene.text(scene.animations()[clip].name);
            let same = |a: &&(Option<String>, Vec<Played>)| a.0.as_deref() == Some(clip_name);
            if *f == 0 || doc.animations.iter().filter(same).count() != 1 {
                continue;
            }
            let a = doc.animations.iter().position(|a| same(&a)).unwrap();
            let (w, _) = check_clip(&scene, &doc, a, clip, scale, 2, name);
            assert!(w > 0, "{name}: clip {clip_name}: nothing compared");
            world += w;
            for (k, (_, bit)) in flags.iter().enumerate() {
                checked[k] += usize::from(f & bit != 0);
            }
        }
    }
    eprintln!("{clips} corpus clips; {world} world matrices compared");
    for (k, (what, _)) in flags.iter().enumerate() {
        eprintln!(
            "  {what}: {} clips use it, {} exported and checked",
            using[k], checked[k]
        );
    }
    if !files.is_empty() {
        assert!(
            checked[0] > 0,
            "no corpus clip with rotation_global was checked"
        );
        assert!(checked[2] > 0, "no Hytale quaternion clip was checked");
    }
}

/// Two things the exporter must see in the flags. `displayRotation`
/// applies `rotation_global` whether or not the animator keys rotation, so
/// an animator of positions alone still turns its bone against its
/// parent's motion: that needs a rotation track. And with loop wrapping
/// (`Format.animation_loop_wrapping`) a last linear keyframe leads across
/// the loop's end, so step keyframes before it are no STEP track.
#[test]
fn rotation_global_without_rotation_keys_and_wrapped_steps_export_as_sampled() {
    use support::bbmodel_builder::{Animation, Model, bone, keyframe, tree_5x};
    use support::clips::{BODY, HEAD, p, position, tree};
    let turn = |interpolation: &str| {
        bone(vec![
            keyframe("rotation", 0.25, vec![p(0.0, 0.0, 0.0)]).set("interpolation", interpolation),
            keyframe("rotation", 0.5, vec![p(0.0, 90.0, 0.0)]).set("interpolation", interpolation),
            keyframe("rotation", 0.75, vec![p(30.0, 0.0, 0.0)]),
        ])
    };
    let model = |format: &str, animation: Animation| {
        let (outliner, groups) = tree_5x(&tree());
        Model::new("5.0")
            .model_format(format)
            .outliner(outliner)
            .groups(groups)
            .set(
                "animations",
                vec![animation.set("loop", "loop").set("length", 1.0)],
            )
    };
    let global = model(
        "free",
        Animation::new("global")
            .animator(BODY, turn("linear"))
            .animator(
                HEAD,
                bone(vec![
                    position(0.0, 0.0, 1.0, 0.0),
                    position(1.0, 0.0, 2.0, 0.0),
                ])
                .set("rotation_global", true),
            ),
    );
    let wrapped = model(
        "hytale_character",
        Animation::new("wrapped").animator(BODY, turn("step")),
    );
    for (what, model) in [("global", global), ("wrapped", wrapped)] {
        let bytes = model.bytes();
        let loaded = support::clips::load(&bytes);
        let scene = loaded.scene();
        let out = export(&scene, "model", &ExportOptions::default()).unwrap();
        let doc = Doc::read(&out.main, scene.nodes().len());
        let (w, _) = check_clip(&scene, &doc, 0, 0, 1.0, 1, what);
        assert!(w > 0, "{what}");
        // Between 0 and the first keyframe the wrapped clip moves (from the
        // last keyframe, at −0.25 s, towards the first).
        let mut a = vec![NodePose::default(); scene.nodes().len()];
        let mut b = a.clone();
        scene.sample(0, 0.05, &mut a).unwrap();
        scene.sample(0, 0.2, &mut b).unwrap();
        assert_ne!(
            a, b,
            "{what}: the pose changes between the loop's end and the first keyframe"
        );
    }
}

/// A corpus clip of bezier keyframes (Blockbench's graph editor), one that
/// mixes bezier with linear and step neighbours, and one of GeckoLib
/// (Animation Utils) per-keyframe easing, each exported and read back at
/// every frame: the .glb there is `Scene::sample`'s pose, which plays them
/// as `Keyframe.getBezierLerp` and the plugin's `getLerp` do.
#[test]
fn corpus_bezier_and_eased_clips_play_as_sampled() {
    let Some(dir) = support::corpus_dir() else {
        return;
    };
    for (name, clip_name) in [
        (
            "bunny_gen6_free_v4_10_bezier_frame_strip.bbmodel",
            "kazotsky",
        ),
        (
            "figura_gn_free_v4_5_mesh_all_interpolations.bbmodel",
            "roblox",
        ),
        (
            "irons_citadel_keeper_animated_entity_model_v4_5.bbmodel",
            "sword_single_horizontal",
        ),
    ] {
        let bytes = std::fs::read(dir.join("bbmodel").join(name)).unwrap();
        let loaded =
            scenedec::load(&bytes, Some("bbmodel"), &support::corpus_options(name)).unwrap();
        let scene = loaded.scene();
        let clip = scene
            .animations()
            .iter()
            .position(|a| scene.text(a.name) == clip_name)
            .unwrap();
        let record = scene.animations()[clip];
        let first = record.first_channel as usize;
        let keys: Vec<&KeyframeRecord> = scene.channels()[first..][..record.channel_count as usize]
            .iter()
            .flat_map(|c| {
                &scene.keyframes()[c.first_keyframe as usize..][..c.keyframe_count as usize]
            })
            .collect();
        let bezier = keys
            .iter()
            .filter(|k| k.interpolation == Interpolation::Bezier as u32)
            .count();
        let eased = keys.iter().filter(|k| k.easing != 0).count();
        assert!(
            bezier + eased > 0,
            "{name}: {clip_name} has neither bezier nor easing"
        );
        let (scale, doc) = exported_at_corpus_scale(&scene);
        let a = doc
            .animations
            .iter()
            .position(|(n, _)| n.as_deref() == Some(clip_name))
            .unwrap();
        let (world, steps) = check_clip(&scene, &doc, a, clip, scale, 1, name);
        assert!(world > 0, "{name}: nothing compared");
        eprintln!(
            "{name}: {clip_name}: {bezier} bezier and {eased} eased keyframes, {world} world matrices, {steps} STEP values equal"
        );
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

/// docs/j3d.md, "Animations": the game reads BCK joints by Hermite at the
/// fractional frame and BCA tables at floor(frame). Every corpus BCK and BCA
/// file, attached to its model and exported, plays back by the glTF rules
/// as `Scene::sample` poses it: keyed (LINEAR) clips at every written
/// time, table (STEP) clips half-way between frames, where the game still
/// shows the frame before.
#[test]
fn j3d_joint_clips_play_as_the_game_poses_them() {
    let Some(root) = support::corpus_dir().map(|d| d.join("j3d-anim")) else {
        return;
    };
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv")).unwrap();
    let mut by_model: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for row in manifest.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        if matches!(cols.get(5), Some(&"BCK" | &"BCA")) && cols[6] != "-" {
            by_model
                .entry(cols[6].to_owned())
                .or_default()
                .push(cols[0].to_owned());
        }
    }
    let (mut clips, mut checks) = (0, 0);
    for (model, anims) in &by_model {
        let bytes = std::fs::read(root.join(model)).unwrap();
        let files: Vec<(String, Vec<u8>)> = anims
            .iter()
            .map(|a| {
                let name = a.rsplit('/').next().unwrap().to_owned();
                (name, std::fs::read(root.join(a)).unwrap())
            })
            .collect();
        let refs: Vec<(&str, &[u8])> = files
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        let mut options = scenedec::Options::default();
        options.j3d.animations = &refs;
        let loaded = scenedec::load(&bytes, None, &options).unwrap();
        let scene = loaded.scene();
        let scale = 0.01;
        let out = export(
            &scene,
            "model",
            &ExportOptions {
                scale,
                ..ExportOptions::default()
            },
        )
        .unwrap();
        let doc = Doc::read(&out.main, scene.nodes().len());
        assert_eq!(doc.animations.len(), files.len(), "{model}: one per file");
        let n = scene.nodes().len();
        let mut poses = vec![NodePose::default(); n];
        let mut expected = vec![Mat4::IDENTITY; n];
        for (a, (name, channels)) in doc.animations.iter().enumerate() {
            let clip = scene
                .animations()
                .iter()
                .position(|r| Some(scene.text(r.name)) == name.as_deref())
                .unwrap();
            let times: Vec<f32> = if channels.iter().all(|c| c.step) {
                channels[0]
                    .times
                    .windows(2)
                    .map(|w| (w[0] + w[1]) / 2.0)
                    .collect()
            } else {
                let grid = &channels.iter().find(|c| !c.step).unwrap().times;
                grid.iter().step_by(3).copied().collect()
            };
            assert!(!times.is_empty(), "{model} {name:?}");
            for t in times {
                scene.sample(clip, t, &mut poses).unwrap();
                world_matrices(&scene, &poses, &mut expected);
                let trs = doc.play(a, t);
                for (i, &(_, attach)) in doc.chains.iter().enumerate() {
                    let mut want = expected[i];
                    for v in &mut want.0[12..15] {
                        *v *= scale;
                    }
                    let got = doc.world(&trs, attach);
                    assert!(
                        close_matrix(&got, &want),
                        "{model} {name:?}: node {i} at {t} s: {got:?} vs {want:?}"
                    );
                    checks += 1;
                }
            }
            clips += 1;
        }
    }
    eprintln!("{clips} J3D joint clips: {checks} world matrices compared");
    if support::corpus_dir().is_some() {
        assert!(clips >= 10, "only {clips} J3D joint clips");
    }
}

/// Clips whose keyframes hold Molang reach the .glb, and every exported
/// frame of them is `Scene::sample`'s pose (the export samples through it:
/// Molang values move between keyframes, so such a channel is sampled on
/// the frame grid even when its keyframes are step).
#[test]
fn molang_clips_are_exported_as_sampled() {
    use scenedec::scene::KeyframeSource;
    let files = support::corpus_files("bbmodel", &[".bbmodel"]);
    let mut clips = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        let bytes = std::fs::read(path).unwrap();
        let Ok(loaded) = scenedec::load(&bytes, Some("bbmodel"), &support::corpus_options(name))
        else {
            continue;
        };
        let scene = loaded.scene();
        let molang_clip = |record: &scenedec::scene::AnimationRecord| {
            let first = record.first_channel as usize;
            scene.channels()[first..first + record.channel_count as usize]
                .iter()
                .any(|c| {
                    let k = c.first_keyframe as usize;
                    scene.keyframe_sources()[k..k + c.keyframe_count as usize]
                        .iter()
                        .any(|s| s.molang & KeyframeSource::AXES != 0)
                })
        };
        if !scene.animations().iter().any(molang_clip) {
            continue;
        }
        let (scale, doc) = exported_at_corpus_scale(&scene);
        for (clip, record) in scene.animations().iter().enumerate() {
            if !molang_clip(record) {
                continue;
            }
            let wanted = Some(scene.text(record.name).to_string());
            let a = doc
                .animations
                .iter()
                .position(|(n, _)| *n == wanted)
                .unwrap_or_else(|| panic!("{name}: Molang clip {clip} missing from the .glb"));
            let (w, s) = check_clip(&scene, &doc, a, clip, scale, 1, name);
            assert!(w + s > 0, "{name} clip {clip}: nothing compared");
            clips += 1;
        }
    }
    if !files.is_empty() {
        // 12 corpus clips hold Molang texts; one (senkosan "massage") only
        // on an animator whose group the model lacks (UNKNOWN_REFERENCE).
        assert!(clips >= 11, "only {clips} Molang clips exported");
        eprintln!("{clips} Molang clips exported and checked frame by frame");
    }
}

/// The Hytale plugin's scale (`displayScale` stretches the group's main
/// cube about its centre, not the bone): every corpus clip that keys it is
/// exported with a scale channel on the cube's own node, and the .glb at
/// its sample times equals `Scene::sample`'s world matrices, the cube's
/// node among them, scaled where the clip scales it.
#[test]
fn hytale_scale_clips_play_on_the_main_cube_node_as_sampled() {
    let files = support::corpus_files("bbmodel", &[".bbmodel"]);
    let (mut clips, mut shape_nodes, mut world) = (0, 0, 0);
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        let bytes = std::fs::read(path).unwrap();
        let Ok(loaded) = scenedec::load(&bytes, Some("bbmodel"), &support::corpus_options(name))
        else {
            continue;
        };
        let scene = loaded.scene();
        let shapes: Vec<usize> = (0..scene.nodes().len())
            .filter(|&i| scene.nodes()[i].flags & NodeFlags::SHAPE != 0)
            .collect();
        if shapes.is_empty() {
            continue;
        }
        shape_nodes += shapes.len();
        let (scale, doc) = exported_at_corpus_scale(&scene);
        for (clip, record) in scene.animations().iter().enumerate() {
            let first = record.first_channel as usize;
            let channels = &scene.channels()[first..first + record.channel_count as usize];
            let scaled: Vec<usize> = channels
                .iter()
                .filter(|c| {
                    c.target == ChannelTarget::Scale as u32 && c.flags & ChannelFlags::HYTALE != 0
                })
                .filter_map(|c| scenedec::scene::shape_node(scene.nodes(), c.node as usize))
                .collect();
            if scaled.is_empty() {
                continue;
            }
            let clip_name = scene.text(record.name);
            let a = doc
                .animations
                .iter()
                .position(|a| a.0.as_deref() == Some(clip_name))
                .unwrap();
            // The scale channel targets the cube node's glTF node.
            for &s in &scaled {
                let main = doc.chains[s].0;
                assert!(
                    doc.animations[a]
                        .1
                        .iter()
                        .any(|c| c.node == main && c.property == Property::Scale),
                    "{name}: {clip_name}: no scale channel on node {s}"
                );
                // And it moves: sampled at the clip's start the cube's
                // scale is the clip's, not 1.
                let mut poses = vec![NodePose::default(); scene.nodes().len()];
                scene.sample(clip, 0.0, &mut poses).unwrap();
                assert_ne!(poses[s].scale, [1.0; 3], "{name}: {clip_name}");
            }
            let (w, _) = check_clip(&scene, &doc, a, clip, scale, 1, name);
            assert!(w > 0);
            world += w;
            clips += 1;
        }
    }
    eprintln!(
        "{clips} Hytale scale clips, {shape_nodes} main-cube nodes, {world} world matrices compared"
    );
    if !files.is_empty() {
        assert!(clips > 0, "no Hytale scale clip was checked");
    }
}
