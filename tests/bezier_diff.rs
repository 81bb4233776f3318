//! Bezier segments against Blockbench's own curve: random pairs of
//! keyframes, written as a .bbmodel stores them (handles of three entries,
//! short arrays, `null` entries, absent handles; format 5.0 and 4.10 files,
//! position and rotation; the interpolation pairs that play bezier in
//! `BoneAnimator.interpolate`: bezier–bezier, linear–bezier, bezier–linear,
//! bezier–step), are loaded and sampled with `Scene::sample`, and compared
//! with `tools/bezier-diff/segment.mjs`, which plays the same keyframes as
//! Blockbench 5.1's `Keyframe.getBezierLerp` does, on three.js's
//! `CubicBezierCurve` at the version Blockbench locks (0.129.0).
//!
//! Needs Node and `npm ci` in tools/bezier-diff (`.ci/run` does it); outside
//! CI the test says what it skipped when they are missing.

mod support;

use scenedec::scene::{NodePose, Scene};
use serde_json::{Value, json};
use support::bbmodel_builder::{Animation, Obj, bone};
use support::clips::{HEAD, N_HEAD, load, rig};

use support::rng::Rng;

impl Rng {
    /// A multiple of `step` in [-range, range], exact in f32.
    fn grid(&mut self, range: f64, step: f64) -> f64 {
        let steps = (range / step) as u64;
        (self.below(2 * steps + 1) as f64 - steps as f64) * step
    }
}

/// One keyframe as the file stores it, and its JSON for segment.mjs.
fn keyframe(
    rng: &mut Rng,
    channel: &str,
    time: f64,
    interpolation: &str,
    points: usize,
) -> (Obj, Value) {
    let point = |rng: &mut Rng| [0; 3].map(|_| rng.grid(40.0, 0.125));
    let values: Vec<[f64; 3]> = (0..points).map(|_| point(rng)).collect();
    let mut obj = Obj::new()
        .set("channel", channel)
        .set("time", time)
        .set("interpolation", interpolation)
        .set(
            "data_points",
            Value::Array(
                values
                    .iter()
                    .map(|v| json!({"x": v[0], "y": v[1], "z": v[2]}))
                    .collect(),
            ),
        );
    let mut raw = json!({"time": time, "interpolation": interpolation, "points": values});
    for key in [
        "bezier_left_time",
        "bezier_left_value",
        "bezier_right_time",
        "bezier_right_value",
    ] {
        let is_time = key.ends_with("time");
        let len = match rng.below(20) {
            0..=2 => continue, // absent: the default
            3 | 4 => rng.below(3) as usize,
            _ => 3,
        };
        let entries: Vec<Value> = (0..len)
            .map(|_| match rng.below(10) {
                0 => Value::Null,
                _ if is_time => json!(rng.grid(0.75, 1.0 / 64.0)),
                _ => json!(rng.grid(30.0, 0.125)),
            })
            .collect();
        obj = obj.set(key, Value::Array(entries.clone()));
        raw[key] = Value::Array(entries);
    }
    (obj, raw)
}

/// segment.mjs's values (per case, per time, per axis), or `None` (having
/// said why) when Node or three.js is missing outside CI.
fn blockbench(cases: &[Value]) -> Option<Vec<Vec<[f64; 3]>>> {
    let out = support::node::run_tool(
        "bezier-diff",
        "three",
        "segment.mjs",
        &json!({ "cases": cases }),
    )?;
    assert_eq!(
        out["three"], "0.129.0",
        "the three.js version Blockbench locks"
    );
    let values = out["values"].as_array().unwrap();
    Some(
        values
            .iter()
            .map(|case| {
                case.as_array()
                    .unwrap()
                    .iter()
                    .map(|v| [0, 1, 2].map(|i| v[i].as_f64().unwrap()))
                    .collect()
            })
            .collect(),
    )
}

/// The channel's value on the head at `time`: the pose less the rest pose,
/// rotations back in degrees.
fn sampled(scene: &Scene<'_>, channel: &str, time: f32) -> [f64; 3] {
    let mut poses = vec![NodePose::default(); scene.nodes().len()];
    scene.sample(0, time, &mut poses).unwrap();
    let node = N_HEAD as usize;
    let rest = NodePose::rest(&scene.nodes()[node]);
    let pose = poses[node];
    let (now, then) = if channel == "rotation" {
        (pose.rotation, rest.rotation)
    } else {
        (pose.translation, rest.translation)
    };
    [0, 1, 2].map(|i| {
        let v = f64::from(now[i] - then[i]);
        if channel == "rotation" {
            v.to_degrees()
        } else {
            v
        }
    })
}

#[test]
fn bezier_segments_play_as_blockbench_plays_them() {
    const CASES: usize = 400;
    const TIMES: usize = 7;
    let mut rng = Rng(0x0b3e_21e5_eed5_0001);
    let pairs = [
        ("bezier", "bezier"),
        ("linear", "bezier"),
        ("bezier", "linear"),
        ("bezier", "step"),
    ];
    let mut cases = Vec::new();
    let mut ours = Vec::new();
    for _ in 0..CASES {
        let channel = ["position", "rotation"][rng.below(2) as usize];
        let version = ["5.0", "4.10"][rng.below(2) as usize];
        let (a, b) = pairs[rng.below(pairs.len() as u64) as usize];
        let t0 = rng.below(64) as f64 / 64.0;
        let t3 = t0 + (1 + rng.below(64)) as f64 / 64.0;
        let points = 1 + rng.below(2) as usize;
        let (before, raw_before) = keyframe(&mut rng, channel, t0, a, points);
        let (after, raw_after) = keyframe(&mut rng, channel, t3, b, 1);
        // Strictly inside the segment, at 64ths of it (exact in f32).
        let times: Vec<f64> = (0..TIMES)
            .map(|_| t0 + (t3 - t0) * (1 + rng.below(63)) as f64 / 64.0)
            .collect();
        let model = rig(
            version,
            vec![
                Animation::new("a")
                    .set("length", 4.0)
                    .animator(HEAD, bone(vec![before, after])),
            ],
        );
        let bytes = model.bytes();
        let loaded = load(&bytes);
        let scene = loaded.scene();
        ours.push(
            times
                .iter()
                .map(|&t| sampled(&scene, channel, t as f32))
                .collect::<Vec<_>>(),
        );
        cases.push(json!({
            "channel": channel,
            "before5": version != "5.0",
            "before": raw_before,
            "after": raw_after,
            "times": times,
        }));
    }
    let Some(theirs) = blockbench(&cases) else {
        return;
    };
    let (mut compared, mut worst) = (0usize, 0.0f64);
    for (i, (ours, theirs)) in ours.iter().zip(&theirs).enumerate() {
        for (ours, theirs) in ours.iter().zip(theirs) {
            for (a, b) in ours.iter().zip(theirs) {
                let scale = b.abs().max(1.0);
                let diff = (a - b).abs() / scale;
                worst = worst.max(diff);
                assert!(
                    diff <= 1e-5,
                    "case {i}: ours {ours:?}, Blockbench {theirs:?}\n{}",
                    cases[i]
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, CASES * TIMES * 3);
    eprintln!(
        "bezier_diff: {compared} values equal to Blockbench's within 1e-5 (largest relative difference {worst:.3e})"
    );
}
