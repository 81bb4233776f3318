//! Pose sampling: `Scene::sample` alone and with `scene::world_matrices`,
//! beside two baselines in the same run: the rest pose's world matrices by
//! `Scene::world_matrix` (one parent walk per node) and a copy of the pose
//! slice. Inputs: the corpus's largest rig (every clip of
//! senkosan_main_free_v4_5_keyframe_heavy_1_9mb.bbmodel, when the scene has
//! its clips), its Molang-heaviest (every clip of
//! worldseed_bulbasaur_bedrock_v4_9_sound_molang.bbmodel) and a hand-built rig of the same shape (48 nodes, one clip of
//! 24 channels and 264 keyframes, near its vacuum_cleaning's 270).
//!
//! `cargo bench --bench pose`; figures go to docs/performance.md.

mod support;

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use scenedec::Scene;
use scenedec::scene::{
    AnimationRecord, ChannelRecord, ChannelTarget, Format, Interpolation, KeyframeRecord, LoopMode,
    Mat4, NodePose, NodeRecord, SceneArrays, SceneCounts, world_matrices,
};

/// Times each clip is sampled at, spread over its length.
const TIMES_PER_CLIP: usize = 16;

const RIG_NODES: usize = 48;
const RIG_CHANNELS: usize = 24;
const RIG_KEYS_PER_CHANNEL: usize = 11;

/// (clip, time) pairs: every clip at `TIMES_PER_CLIP` times in [0, length].
fn schedule(scene: &Scene<'_>) -> Vec<(usize, f32)> {
    scene
        .animations()
        .iter()
        .enumerate()
        .flat_map(|(clip, a)| {
            (0..TIMES_PER_CLIP)
                .map(move |k| (clip, a.length * k as f32 / (TIMES_PER_CLIP - 1) as f32))
        })
        .collect()
}

fn bench_scene(c: &mut Criterion, label: &str, scene: &Scene<'_>) {
    let schedule = schedule(scene);
    let nodes = scene.nodes().len();
    let channels: usize = scene
        .animations()
        .iter()
        .map(|a| a.channel_count as usize)
        .sum();
    eprintln!(
        "pose/{label}: {nodes} nodes, {} clips, {channels} channels, {} keyframes, {} poses per iteration",
        scene.animations().len(),
        scene.keyframes().len(),
        schedule.len()
    );
    if schedule.is_empty() {
        return;
    }
    let mut poses = vec![NodePose::default(); nodes];
    let mut copy = vec![NodePose::default(); nodes];
    let mut world = vec![Mat4::IDENTITY; nodes];
    let mut g = c.benchmark_group("pose");
    g.throughput(Throughput::Elements(schedule.len() as u64));
    g.bench_function(BenchmarkId::new("sample", label), |b| {
        b.iter(|| {
            for &(clip, t) in &schedule {
                scene.sample(clip, black_box(t), &mut poses).unwrap();
            }
            black_box(&poses);
        })
    });
    g.bench_function(BenchmarkId::new("sample_world_matrices", label), |b| {
        b.iter(|| {
            for &(clip, t) in &schedule {
                scene.sample(clip, black_box(t), &mut poses).unwrap();
                world_matrices(scene, &poses, &mut world);
            }
            black_box(&world);
        })
    });
    g.bench_function(
        BenchmarkId::new("baseline_rest_world_matrix_walk", label),
        |b| {
            b.iter(|| {
                for _ in &schedule {
                    for (i, m) in world.iter_mut().enumerate() {
                        *m = black_box(scene).world_matrix(i);
                    }
                }
                black_box(&world);
            })
        },
    );
    g.bench_function(BenchmarkId::new("baseline_copy_pose", label), |b| {
        b.iter(|| {
            for _ in &schedule {
                copy.copy_from_slice(black_box(&poses));
            }
            black_box(&copy);
        })
    });
    g.finish();
}

/// The hand-built rig in `words`: a tree of `RIG_NODES` groups three wide,
/// one hold clip of 10 s whose channels mix linear, catmull-rom and step
/// keyframes with pivots everywhere.
fn rig(words: &mut [u64]) -> Scene<'_> {
    let counts = SceneCounts {
        nodes: RIG_NODES,
        animations: 1,
        channels: RIG_CHANNELS,
        keyframes: RIG_CHANNELS * RIG_KEYS_PER_CHANNEL,
        ..SceneCounts::default()
    };
    let mut arena = scenedec::Arena::from_words(words);
    let a = SceneArrays::carve(&counts, &mut arena).expect("the rig fits its words");
    let mut rng = support::Rng::new(16);
    let mut unit = || (rng.next() % 2001) as f32 / 1000.0 - 1.0;
    for (i, n) in a.nodes.iter_mut().enumerate() {
        *n = NodeRecord {
            parent: if i == 0 { -1 } else { ((i - 1) / 3) as i32 },
            translation: [unit(), unit() * 4.0, unit()],
            rotation: [unit() * 0.3, unit() * 0.3, unit() * 0.3],
            scale: [1.0; 3],
            pivot: [unit() * 8.0, unit() * 8.0, unit() * 8.0],
            ..NodeRecord::default()
        };
    }
    a.animations[0] = AnimationRecord {
        length: 10.0,
        loop_mode: LoopMode::Hold as u32,
        channel_count: RIG_CHANNELS as u32,
        ..AnimationRecord::default()
    };
    let targets = [
        ChannelTarget::Rotation,
        ChannelTarget::Translation,
        ChannelTarget::Scale,
    ];
    let interpolations = [
        Interpolation::Linear,
        Interpolation::CatmullRom,
        Interpolation::Step,
    ];
    for (c, channel) in a.channels.iter_mut().enumerate() {
        *channel = ChannelRecord {
            node: (c * 2 % RIG_NODES) as u32,
            target: targets[c % 3] as u32,
            first_keyframe: (c * RIG_KEYS_PER_CHANNEL) as u32,
            keyframe_count: RIG_KEYS_PER_CHANNEL as u32,
            flags: 0,
        };
    }
    for (k, key) in a.keyframes.iter_mut().enumerate() {
        let v = [unit(), unit(), unit()];
        let v = if (k / RIG_KEYS_PER_CHANNEL) % 3 == 2 {
            v.map(|x| 1.0 + x * 0.2)
        } else {
            v
        };
        *key = KeyframeRecord {
            time: (k % RIG_KEYS_PER_CHANNEL) as f32,
            interpolation: interpolations[(k / RIG_KEYS_PER_CHANNEL + k) % 2] as u32,
            pre: v,
            post: v,
            data_points: 1,
            ..KeyframeRecord::default()
        };
    }
    // One step channel in every four.
    for (c, keys) in a.keyframes.chunks_mut(RIG_KEYS_PER_CHANNEL).enumerate() {
        if c % 4 == 3 {
            for key in keys {
                key.interpolation = interpolations[2] as u32;
            }
        }
    }
    Scene::new(Format::Bbmodel, &[], a)
}

fn poses(c: &mut Criterion) {
    // The largest rig, and the corpus file with the most Molang (44
    // values, clamped sines over query.anim_time).
    for (file, label) in [
        (
            "senkosan_main_free_v4_5_keyframe_heavy_1_9mb.bbmodel",
            "senkosan",
        ),
        (
            "worldseed_bulbasaur_bedrock_v4_9_sound_molang.bbmodel",
            "bulbasaur_molang",
        ),
    ] {
        let found = support::corpus_bbmodels()
            .into_iter()
            .find(|(name, _)| name == file);
        if let Some((name, bytes)) = &found {
            match scenedec::load(bytes, Some("bbmodel"), &scenedec::Options::default()) {
                Ok(loaded) => bench_scene(c, label, &loaded.scene()),
                Err(e) => eprintln!("SKIPPED: {name} did not load: {e}"),
            }
        }
    }
    let mut words = vec![0u64; 8192];
    let scene = rig(&mut words);
    bench_scene(c, "hand_built_48_nodes", &scene);
}

criterion_group!(benches, poses);
criterion_main!(benches);
