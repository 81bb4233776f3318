//! Quaternion interpolation, the Hytale plugin's rotation rules and
//! `rotation_global`, loaded from .bbmodel files and sampled, against
//! three.js 0.129 (the version Blockbench pins) playing the same clips by
//! Blockbench's rules (`tools/rotation-ref/play.mjs`, which restates them:
//! `BoneAnimator.interpolate`, `Keyframe.getFixed`, `displayRotation`, and
//! the Hytale plugin's `interpolate_keyframes` handler and
//! `displayRotation`).
//!
//! Needs Node and `npm ci` in tools/rotation-ref (`.ci/run` does it);
//! without them the test says what it skipped, and fails under CI.

mod support;

use std::io::Write;

use scenedec::scene::{Mat4, NodePose};
use serde_json::json;
use support::bbmodel_builder::{Animation, Group, Model, Obj, Tree, bone, keyframe, tree_5x};

use support::rng::Rng;

impl Rng {
    /// Whole degrees in ±`range`.
    fn degrees(&mut self, range: u64) -> f64 {
        self.below(2 * range + 1) as f64 - range as f64
    }
}

#[derive(Clone)]
struct Bone {
    parent: i32,
    rest: [f64; 3],
    global: bool,
    /// (time, interpolation, data points in degrees)
    keys: Vec<(f64, &'static str, Vec<[f64; 3]>)>,
}

#[derive(Clone)]
struct Case {
    hytale: bool,
    quaternion: bool,
    looping: bool,
    bones: Vec<Bone>,
    times: Vec<f64>,
}

const LENGTH: f64 = 1.0;

fn uuid(i: usize) -> String {
    format!("00000000-0000-4000-8000-{i:012x}")
}

/// Bones in preorder: each one's parent is none or on the previous bone's
/// ancestor chain (itself included), so list order is outliner order.
fn random_case(rng: &mut Rng) -> Case {
    let hytale = rng.below(2) == 0;
    let quaternion = hytale || rng.below(3) != 0;
    let n = 1 + rng.below(4) as usize;
    let mut bones: Vec<Bone> = Vec::new();
    for i in 0..n {
        let mut chain = vec![-1i32];
        let mut at = i.checked_sub(1).map(|p| p as i32);
        while let Some(p) = at.filter(|p| *p >= 0) {
            chain.push(p);
            at = Some(bones[p as usize].parent);
        }
        let parent = chain[rng.below(chain.len() as u64) as usize];
        let kinds: &[&str] = if quaternion {
            &["linear", "catmullrom", "step"]
        } else {
            &["linear", "step"]
        };
        let count = rng.below(5) as usize;
        let keys = (0..count)
            .map(|_| {
                let time = rng.below(5) as f64 * 0.25;
                let kind = kinds[rng.below(kinds.len() as u64) as usize];
                let points = (0..1 + rng.below(2))
                    .map(|_| [rng.degrees(170), rng.degrees(80), rng.degrees(170)])
                    .collect();
                (time, kind, points)
            })
            .collect::<Vec<_>>();
        let global = !keys.is_empty() && rng.below(3) == 0;
        bones.push(Bone {
            parent,
            rest: [rng.degrees(90), rng.degrees(60), rng.degrees(90)],
            global,
            keys,
        });
    }
    let looping = rng.below(3) != 0;
    let times = vec![0.0, 0.1, 0.25, 0.4, 0.5, 0.8, 0.95];
    Case {
        hytale,
        quaternion,
        looping,
        bones,
        times,
    }
}

fn model(case: &Case) -> Model {
    fn subtree(case: &Case, i: usize) -> Tree {
        let b = &case.bones[i];
        let name = format!("b{i}");
        let group = Group::new(&name, &uuid(i)).rotation(b.rest);
        let children = (0..case.bones.len())
            .filter(|&c| case.bones[c].parent == i as i32)
            .map(|c| subtree(case, c))
            .collect();
        Tree::Group(group, children)
    }
    let roots: Vec<Tree> = (0..case.bones.len())
        .filter(|&i| case.bones[i].parent < 0)
        .map(|i| subtree(case, i))
        .collect();
    let (outliner, groups) = tree_5x(&roots);
    let mut animation = Animation::new("a")
        .set("loop", if case.looping { "loop" } else { "hold" })
        .set("length", LENGTH);
    for (i, b) in case.bones.iter().enumerate() {
        if b.keys.is_empty() {
            continue;
        }
        let keys: Vec<Obj> = b
            .keys
            .iter()
            .map(|(time, kind, points)| {
                let points = points
                    .iter()
                    .map(|p| json!({"x": p[0], "y": p[1], "z": p[2]}));
                keyframe("rotation", *time, points.collect()).set("interpolation", *kind)
            })
            .collect();
        let animator = bone(keys)
            .set("rotation_global", b.global)
            .set("quaternion_interpolation", case.quaternion);
        animation = animation.animator(&uuid(i), animator);
    }
    let format = if case.hytale {
        "hytale_character"
    } else {
        "free"
    };
    Model::new("5.0")
        .model_format(format)
        .outliner(outliner)
        .groups(groups)
        .set("animations", vec![animation])
}

/// three.js's rotations per case and time, or `None` (said why) without Node.
fn reference(cases: &[(Case, f64)]) -> Option<Vec<Vec<[f64; 3]>>> {
    let input = json!({
        "cases": cases.iter().map(|(c, time)| json!({
            "format": if c.hytale { "hytale" } else { "free" },
            "quaternion": c.quaternion,
            "length": LENGTH,
            "loop": if c.looping { "loop" } else { "hold" },
            "time": time,
            "bones": c.bones.iter().map(|b| json!({
                "parent": b.parent,
                "rest": b.rest,
                "global": b.global,
                "keys": b.keys.iter().map(|(t, kind, points)| json!({
                    "time": t, "interpolation": kind, "points": points,
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    let out = support::node::run_tool("rotation-ref", "three", "play.mjs", &input)?;
    assert_eq!(out["version"], "129", "three.js version");
    Some(
        out["rotations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|bones| {
                bones
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| [0, 1, 2].map(|i| r[i].as_f64().unwrap()))
                    .collect()
            })
            .collect(),
    )
}

fn largest_difference(a: [f32; 3], b: [f64; 3]) -> f32 {
    let (ma, mb) = (
        Mat4::rotation_xyz(a),
        Mat4::rotation_xyz(b.map(|v| v as f32)),
    );
    ma.0.iter()
        .zip(mb.0)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[test]
fn quaternion_hytale_and_global_rotations_match_three_js_playing_blockbench_rules() {
    let mut rng = Rng(0x5eed_0039_0002);
    let cases: Vec<Case> = (0..300).map(|_| random_case(&mut rng)).collect();
    let runs: Vec<(Case, f64)> = cases
        .iter()
        .flat_map(|c| c.times.iter().map(|t| (c.clone(), *t)))
        .collect();
    let Some(expected) = reference(&runs) else {
        return;
    };
    let (mut compared, mut worst) = (0usize, 0.0f32);
    let mut kinds = [0usize; 4];
    for ((case, time), rotations) in runs.iter().zip(&expected) {
        let bytes = model(case).bytes();
        let loaded = support::clips::load(&bytes);
        let scene = loaded.scene();
        let mut poses = vec![NodePose::default(); scene.nodes().len()];
        scene.sample(0, *time as f32, &mut poses).unwrap();
        for (i, (pose, want)) in poses.iter().zip(rotations).enumerate() {
            let d = largest_difference(pose.rotation, *want);
            worst = worst.max(d);
            compared += 1;
            assert!(
                d < 2e-5,
                "bone {i} at {time} s: scenedec {:?}, three.js {want:?}\n{}",
                pose.rotation,
                model(case).text()
            );
        }
        kinds[usize::from(case.hytale) * 2 + usize::from(case.quaternion)] += 1;
    }
    let _ = writeln!(
        std::io::stderr().lock(),
        "rotation_ref: {} samples ({compared} bone rotations; Euler-free {}, quaternion-free {}, Hytale {}), largest matrix difference {worst:e}",
        runs.len(),
        kinds[0],
        kinds[1],
        kinds[3]
    );
}
