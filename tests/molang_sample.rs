//! Molang keyframes played through a whole sample as Blockbench plays a
//! frame (docs/bbmodel.md, "Molang keyframes"): the variables values share,
//! the order they are evaluated in, and the decode's Molang limits.

mod support;

use scenedec::scene::NodePose;
use serde_json::{Value, json};
use support::bbmodel_builder::{Animation, bone, keyframe};
use support::clips::*;

/// A one-point data point of Molang (or number) axes.
fn m(x: &str, y: &str, z: &str) -> Value {
    json!({"x": x, "y": y, "z": z})
}

/// Translations (minus rest) of body, Head and arm at `time` of clip 0.
fn moved(bytes: &[u8], time: f32) -> [[f32; 3]; 3] {
    let loaded = load(bytes);
    let scene = loaded.scene();
    let mut poses = vec![NodePose::default(); scene.nodes().len()];
    scene.sample(0, time, &mut poses).unwrap();
    let mut out = [[0.0; 3]; 3];
    for (i, o) in out.iter_mut().enumerate() {
        let rest = scene.nodes()[i].translation;
        *o = std::array::from_fn(|a| poses[i].translation[a] - rest[a]);
    }
    out
}

#[test]
fn a_variable_set_by_one_bone_is_read_by_the_bones_blockbench_plays_after_it() {
    // Blockbench Animator.stackAnimations: Group.all.forEach(node => …
    // animation.getBoneAnimator(node).displayFrame()), and displayFrame
    // interpolates 'rotation', then 'position', then 'scale'; molangjs's
    // parse keeps `variable.*` in `self.variables` between calls. The file
    // lists the arm's animator (a reader) before Head's (the writer):
    // Group.all puts Head (node 1) first, so the arm sees Head's value.
    let clip = Animation::new("a")
        .set("length", 1.0)
        .animator(
            ARM,
            bone(vec![keyframe(
                "position",
                0.0,
                vec![m("v.phase", "v.spin", "0")],
            )]),
        )
        .animator(
            HEAD,
            bone(vec![
                // Listed first, played second: position after rotation.
                keyframe(
                    "position",
                    0.0,
                    vec![m("v.phase = q.anim_time * 10; return v.phase", "v.spin", "0")],
                ),
                keyframe("rotation", 0.0, vec![m("v.spin = 3; return 0", "0", "0")]),
            ]),
        );
    let bytes = rig5(vec![clip]).bytes();
    let [body, head, arm] = moved(&bytes, 0.5);
    assert_eq!(body, [0.0; 3]);
    assert_eq!(head, [5.0, 3.0, 0.0]);
    assert_eq!(arm, [5.0, 3.0, 0.0]);
}

#[test]
fn a_sample_starts_from_an_empty_table_so_it_is_a_function_of_its_time() {
    // molangjs `??`: the right side when the left reads an unassigned
    // name. Blockbench would count on from the previous frame (its table
    // lives until resetVariables); here every sample starts empty, so the
    // same time gives the same pose whatever was sampled before.
    let clip = Animation::new("a").set("length", 1.0).animator(
        HEAD,
        bone(vec![keyframe(
            "position",
            0.0,
            vec![m("v.n = (v.n ?? 0) + 1; return v.n", "v.n", "0")],
        )]),
    );
    let bytes = rig5(vec![clip]).bytes();
    let first = moved(&bytes, 0.25);
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let mut poses = vec![NodePose::default(); scene.nodes().len()];
    for t in [0.0, 0.25, 0.5, 0.25] {
        scene.sample(0, t, &mut poses).unwrap();
        let rest = scene.nodes()[N_HEAD as usize].translation;
        assert_eq!(poses[N_HEAD as usize].translation[0] - rest[0], 1.0);
    }
    // x assigned 1, then y (the same keyframe, read after x) sees it.
    assert_eq!(first[N_HEAD as usize], [1.0, 1.0, 0.0]);
}

#[test]
fn blend_weight_is_evaluated_per_group_before_its_channels() {
    // stackAnimations: per node, `multiplier = … parse(animation.blend_weight)`
    // before ba.displayFrame(multiplier): a weight reading a variable that
    // an earlier group's channel set scales the later group.
    let clip = Animation::new("a")
        .set("length", 1.0)
        .set("blend_weight", "v.w ?? 1")
        .animator(
            HEAD,
            bone(vec![keyframe("position", 0.0, vec![m("v.w = 0.5; return 4", "0", "0")])]),
        )
        .animator(
            ARM,
            bone(vec![keyframe("position", 0.0, vec![m("4", "0", "0")])]),
        );
    let bytes = rig5(vec![clip]).bytes();
    let [_, head, arm] = moved(&bytes, 0.0);
    // Head's weight was read before its value set v.w: 1.
    assert_eq!(head[0], 4.0);
    assert_eq!(arm[0], 2.0);
}
