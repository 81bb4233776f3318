//! One test per animation rule of the Blockbench loader specification
//! (`shared/seeds/bbmodel-loader-spec.txt`: Features "Animations",
//! Conventions 12 and 13, Warnings), each named after the rule and checking
//! the clips, channels and keyframes the scene holds exactly. Limits,
//! hostile sizes, checks and the corpus are in `bbmodel_animation_limits.rs`.
//!
//! The records: a clip per animation in file order; a channel per
//! (clip, node, target), keyframes sorted by time (stably); rotation in
//! radians, translation in model units, scale factors.

mod support;

use scenedec::WarningCode;
use scenedec::scene::{ChannelFlags, ChannelTarget, Interpolation, LoopMode};
use serde_json::json;
use support::bbmodel_builder::{
    Animation, Group, Model, Obj, Raw, Tree, bone, keyframe, tree_4x, tree_5x,
};
use support::clips::*;

// ------------------------------------------------------------ clips

#[test]
fn every_animation_becomes_a_clip_with_its_name_in_file_order() {
    // Features: "every animation becomes a SceneAnimation with its name".
    let model = rig5(vec![
        Animation::new("walk").animator(HEAD, bone(vec![position(0.0, 1.0, 2.0, 3.0)])),
        Animation::new("").set("name", Raw(r#""ru\u006e""#.into())),
        Animation::new("idle"),
    ]);
    let bytes = model.bytes();
    let loaded = load(&bytes);
    let names: Vec<String> = clips(&loaded.scene()).into_iter().map(|c| c.name).collect();
    assert_eq!(names, ["walk", "run", "idle"]);
}

#[test]
fn loop_once_hold_loop_and_unknown_plays_once_with_unsupported_value() {
    // Features: "loop (once, hold, loop)"; Warnings: "UNSUPPORTED_VALUE for
    // an unknown loop (played once)".
    let mut animations = Vec::new();
    for mode in [
        json!("once"),
        json!("hold"),
        json!("loop"),
        json!("bounce"),
        json!(3),
    ] {
        animations.push(Animation::new("a").set("loop", mode));
    }
    animations.push(Animation::new("absent"));
    let bytes = rig5(animations).bytes();
    let loaded = load(&bytes);
    let modes: Vec<u32> = clips(&loaded.scene()).iter().map(|c| c.loop_mode).collect();
    let (once, hold, looped) = (
        LoopMode::Once as u32,
        LoopMode::Hold as u32,
        LoopMode::Loop as u32,
    );
    assert_eq!(modes, [once, hold, looped, once, once, once]);
    assert_eq!(
        warnings(&loaded),
        [
            (
                WarningCode::UnsupportedValue,
                "$.animations[3].loop".to_owned()
            ),
            (
                WarningCode::UnsupportedValue,
                "$.animations[4].loop".to_owned()
            ),
        ]
    );
}

#[test]
fn length_above_0_is_kept_even_with_keyframes_past_it() {
    // Features: "length is the file's length when it is above 0, even with
    // keyframes past it".
    let model = rig5(vec![Animation::new("a").set("length", 1.5).animator(
        HEAD,
        bone(vec![
            position(0.0, 0.0, 0.0, 0.0),
            position(4.0, 1.0, 0.0, 0.0),
        ]),
    )]);
    assert_eq!(only_clip(&model).0.length, 1.5);
}

#[test]
fn length_0_or_absent_is_the_last_keyframes_time() {
    // Features: "… else the time of the last keyframe".
    for length in [Some(0.0), Some(-2.0), None] {
        let mut a = Animation::new("a").animator(
            HEAD,
            bone(vec![
                position(2.5, 0.0, 0.0, 0.0),
                position(0.5, 1.0, 0.0, 0.0),
            ]),
        );
        a = a.animator(ARM, bone(vec![position(1.0, 0.0, 0.0, 0.0)]));
        if let Some(l) = length {
            a = a.set("length", l);
        }
        assert_eq!(only_clip(&rig5(vec![a])).0.length, 2.5, "{length:?}");
    }
    // No keyframe at all: 0.
    assert_eq!(only_clip(&rig5(vec![Animation::new("a")])).0.length, 0.0);
}

#[test]
fn a_file_without_animations_has_no_clips() {
    // Features: "A file without animations (or with an empty list) gives a
    // document without animations."
    for model in [rig5(vec![]), Model::new("5.0")] {
        let bytes = model.bytes();
        let loaded = load(&bytes);
        assert!(loaded.scene().animations().is_empty());
        assert!(loaded.scene().channels().is_empty());
        assert!(loaded.scene().keyframes().is_empty());
    }
}

// ------------------------------------------------------------ animators

#[test]
fn animator_finds_its_group_by_uuid_in_4x_and_5x_files() {
    // Features: "Animators are found by group uuid".
    for version in ["4.10", "5.0"] {
        let model = rig(
            version,
            vec![
                Animation::new("a")
                    .animator(ARM, bone(vec![position(0.0, 1.0, 0.0, 0.0)]))
                    .animator(BODY, bone(vec![position(0.0, 2.0, 0.0, 0.0)])),
            ],
        );
        let (clip, w) = only_clip(&model);
        let nodes: Vec<u32> = clip.channels.iter().map(|c| c.node).collect();
        assert_eq!(nodes, [N_ARM, N_BODY], "{version}");
        assert!(w.is_empty(), "{w:?}");
    }
}

#[test]
fn key_that_is_no_uuid_finds_the_first_group_of_that_name_ignoring_case() {
    // Features: "or for a key that is no uuid by group name ignoring case,
    // as Blockbench does" (Group.all.find: the first group of that name).
    let model = rig5(vec![
        Animation::new("a")
            .animator("HEAD", bone(vec![position(0.0, 1.0, 0.0, 0.0)]))
            .animator("Arm", bone(vec![position(0.0, 2.0, 0.0, 0.0)])),
    ]);
    let (clip, w) = only_clip(&model);
    let nodes: Vec<u32> = clip.channels.iter().map(|c| c.node).collect();
    assert_eq!(nodes, [N_HEAD, N_ARM]);
    assert!(w.is_empty(), "{w:?}");

    // Two groups named alike: the first in outliner order.
    let twins = vec![
        Tree::Group(Group::new("Twin", BODY), vec![]),
        Tree::Group(Group::new("twin", HEAD), vec![]),
    ];
    let model = Model::new("4.10").outliner(tree_4x(&twins)).set(
        "animations",
        vec![Animation::new("a").animator("TWIN", bone(vec![position(0.0, 1.0, 0.0, 0.0)]))],
    );
    assert_eq!(only_channel(&model).0.node, 0);
}

#[test]
fn an_uppercase_uuid_is_no_uuid_and_is_looked_up_as_a_name() {
    // Blockbench's isUUID wants lowercase hex: an uppercase key is a name.
    let upper = "ABCDEF00-0000-4000-8000-000000000002";
    let named = vec![Tree::Group(Group::new(&upper.to_lowercase(), BODY), vec![])];
    let model = Model::new("4.10").outliner(tree_4x(&named)).set(
        "animations",
        vec![Animation::new("a").animator(upper, bone(vec![position(0.0, 1.0, 0.0, 0.0)]))],
    );
    assert_eq!(only_channel(&model).0.node, 0);
}

#[test]
fn a_later_animator_for_the_same_group_replaces_an_earlier_one() {
    // Features: "a later animator for the same group replaces an earlier
    // one": by uuid and by name, whole (the earlier one's rotation goes too).
    let model = rig5(vec![
        Animation::new("a")
            .animator(
                HEAD,
                bone(vec![
                    position(0.0, 1.0, 0.0, 0.0),
                    keyframe("rotation", 0.0, vec![p(10.0, 0.0, 0.0)]),
                ]),
            )
            .animator("head", bone(vec![position(0.0, 5.0, 0.0, 0.0)]))
            .animator(ARM, bone(vec![position(0.0, 7.0, 0.0, 0.0)]))
            .animator(ARM, bone(vec![position(0.0, 8.0, 0.0, 0.0)])),
    ]);
    let (clip, _) = only_clip(&model);
    let got: Vec<(u32, u32, f32)> = clip
        .channels
        .iter()
        .map(|c| (c.node, c.target, c.keys[0].pre[0]))
        .collect();
    assert_eq!(got, [(N_HEAD, T, 5.0), (N_ARM, T, 8.0)]);
}

#[test]
fn an_animator_without_keyframes_is_skipped() {
    // Features: "An animator without keyframes is skipped": it makes no
    // channel and replaces nothing.
    let model = rig5(vec![
        Animation::new("a")
            .animator(HEAD, bone(vec![position(0.0, 1.0, 0.0, 0.0)]))
            .animator(HEAD, bone(vec![]))
            .animator(ARM, Obj::new().set("type", "bone"))
            .animator(BODY, json!({"name": "body"})),
    ]);
    let (clip, w) = only_clip(&model);
    assert_eq!(clip.channels.len(), 1);
    assert_eq!(clip.channels[0].node, N_HEAD);
    assert!(w.is_empty(), "{w:?}");
}

#[test]
fn unknown_reference_for_an_animator_that_matches_no_group() {
    // Warnings: "UNKNOWN_REFERENCE for an animator whose uuid or name
    // matches no group".
    let model = rig5(vec![
        Animation::new("a")
            .animator(NOBODY, bone(vec![position(0.0, 1.0, 0.0, 0.0)]))
            .animator("tail", bone(vec![position(0.0, 1.0, 0.0, 0.0)]))
            .animator(HEAD, bone(vec![position(0.0, 1.0, 0.0, 0.0)])),
    ]);
    let (clip, w) = only_clip(&model);
    assert_eq!(clip.channels.len(), 1);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w.iter().all(|(c, _)| *c == WarningCode::UnknownReference));
    assert!(
        w[0].1.starts_with("$.animations[0].animators["),
        "{}",
        w[0].1
    );
    assert_eq!(w[1].1, "$.animations[0].animators.tail");
}

// ------------------------------------------------------------ keyframes

#[test]
fn channels_rotation_position_scale_in_scene_units() {
    // Features: "Bone animators play their rotation, position and scale
    // keyframes"; Conventions: "position becomes translation"; rotation in
    // radians (degrees × π/180 in f64, then f32), scale as factors.
    let model = rig5(vec![Animation::new("a").animator(
        HEAD,
        bone(vec![
            keyframe("scale", 0.0, vec![p(2.0, 0.5, 1.0)]),
            keyframe("rotation", 0.0, vec![p(90.0, -45.0, 33.3)]),
            position(0.0, 1.0, 2.0, 3.0),
        ]),
    )]);
    let (clip, _) = only_clip(&model);
    let by_target: Vec<(u32, [f32; 3])> = clip
        .channels
        .iter()
        .map(|c| (c.target, c.keys[0].pre))
        .collect();
    assert_eq!(
        by_target,
        [
            (T, [1.0, 2.0, 3.0]),
            (R, [rad(90.0), rad(-45.0), rad(33.3)]),
            (S, [2.0, 0.5, 1.0]),
        ]
    );
    assert!(clip.channels.iter().all(|c| c.node == N_HEAD));
}

#[test]
fn interpolations_linear_catmullrom_and_step() {
    // Features: "with linear, catmullrom and step interpolation".
    let mut keys = Vec::new();
    for (i, interpolation) in ["linear", "catmullrom", "step"].into_iter().enumerate() {
        keys.push(position(i as f64, 0.0, 0.0, 0.0).set("interpolation", interpolation));
    }
    keys.push(position(3.0, 0.0, 0.0, 0.0).remove("interpolation"));
    let (channel, w) = only_channel(&rig5(vec![Animation::new("a").animator(HEAD, bone(keys))]));
    let got: Vec<u32> = channel.keys.iter().map(|k| k.interpolation).collect();
    let expected = [
        LINEAR,
        Interpolation::CatmullRom,
        Interpolation::Step,
        LINEAR,
    ];
    assert_eq!(got, expected.map(|i| i as u32));
    assert!(w.is_empty());
}

#[test]
fn animator_warnings_name_the_bone_and_repeats_are_counted() {
    // Issue 35: animation warnings name the bone (the group the animator's
    // uuid resolves to), and one problem on one bone is one group with a
    // count: here the same malformed Molang position channel in two
    // animations (Blockbench's molang_syntax check flags `+*`).
    let molang = |a: &str| {
        Animation::new(a).animator(
            HEAD,
            bone(vec![
                keyframe(
                    "position",
                    0.0,
                    vec![json!({"x": "q.anim_time +* 2", "y": 0, "z": 0})],
                ),
                position(0.5, 1.0, 0.0, 0.0),
            ]),
        )
    };
    let bytes = rig5(vec![molang("a"), molang("b")]).bytes();
    let loaded = load(&bytes);
    let kept = loaded.warnings().as_slice();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(kept[0].code(), WarningCode::UnsupportedValue);
    assert_eq!(kept[0].subject(), "bone \"Head\"");
    assert_eq!(kept[0].count(), 2);
    assert!(
        kept[0]
            .message()
            .starts_with("Molang in position: MOLANG_SYNTAX at byte 13"),
        "{}",
        kept[0].message()
    );
    assert!(kept[0].message().ends_with("played as Blockbench reads it"));
}

#[test]
fn unknown_interpolation_is_kept_with_unsupported_value() {
    // Warnings: "UNSUPPORTED_VALUE for an unknown … interpolation"; it is
    // kept as Interpolation::Unknown and played as Blockbench plays it
    // (tests/unknown_interpolation.rs), not linear as the spec has it.
    let model = rig5(vec![Animation::new("a").animator(
        "head",
        bone(vec![
            position(0.0, 0.0, 0.0, 0.0).set("interpolation", "smooth"),
        ]),
    )]);
    let (channel, w) = only_channel(&model);
    assert_eq!(channel.keys[0].interpolation, Interpolation::Unknown as u32);
    assert_eq!(
        w,
        [(
            WarningCode::UnsupportedValue,
            "$.animations[0].animators.head.keyframes[0].interpolation".to_owned()
        )]
    );
}

#[test]
fn pre_and_post_data_points_and_only_the_first_two_read() {
    // Features: "pre/post data points"; Limits: "Only the first two data
    // points of a keyframe are read"; one data point: post equals pre.
    let model = rig5(vec![Animation::new("a").animator(
        HEAD,
        bone(vec![
            keyframe("position", 0.0, vec![p(1.0, 2.0, 3.0)]),
            keyframe(
                "position",
                1.0,
                vec![p(1.0, 2.0, 3.0), p(4.0, 5.0, 6.0), p(7.0, 8.0, 9.0)],
            ),
        ]),
    )]);
    let (channel, _) = only_channel(&model);
    assert_eq!(
        channel.keys,
        [
            key(0.0, LINEAR, [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]),
            key(1.0, LINEAR, [1.0, 2.0, 3.0], [4.0, 5.0, 6.0]),
        ]
    );
}

#[test]
fn numeric_strings_with_whitespace_are_constants_and_blank_is_0() {
    // Features: "numeric data points (a number, or a string holding a
    // decimal literal such as "-12.5"; blank is 0)"; real files store
    // "-1\n" and "30  ", which Blockbench plays.
    let point = json!({"x": "-1\n", "y": "30  ", "z": ""});
    let model = rig5(vec![Animation::new("a").animator(
        HEAD,
        bone(vec![
            keyframe("position", 0.0, vec![point.clone()]),
            keyframe("position", 1.0, vec![json!({"x": " -12.5 "})]),
        ]),
    )]);
    let (channel, w) = only_channel(&model);
    assert_eq!(channel.keys[0].pre, [-1.0, 30.0, 0.0]);
    // A missing axis is Blockbench's default: 0 ("1" for scale, below).
    assert_eq!(channel.keys[1].pre, [-12.5, 0.0, 0.0]);
    assert!(w.is_empty(), "{w:?}");
    let model = rig5(vec![Animation::new("a").animator(
        HEAD,
        bone(vec![keyframe(
            "scale",
            0.0,
            vec![json!({"x": "2", "z": ""})],
        )]),
    )]);
    assert_eq!(only_channel(&model).0.keys[0].pre, [2.0, 1.0, 0.0]);
}

#[test]
fn molang_keyframes_play_their_value_at_the_time_shown() {
    // Blockbench keyframe.js `Keyframe.calc` parses each data point with
    // molangjs when `BoneAnimator.interpolate` reads it, `query.anim_time`
    // the animation's time; `getLerp` then blends the two values. So a
    // Molang keyframe moves between keyframes.
    let molang = |t: f64| {
        keyframe(
            "position",
            t,
            vec![json!({"x": "math.sin(q.anim_time * 90)", "y": 0, "z": 0})],
        )
    };
    let model = rig5(vec![Animation::new("a").animator(
        "head",
        bone(vec![molang(0.0), position(0.5, 1.0, 0.0, 0.0), molang(1.0)]),
    )]);
    let (channel, w) = only_channel(&model);
    assert_eq!(channel.keys.len(), 3);
    assert!(w.is_empty(), "{w:?}");
    let bytes = model.bytes();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let head = scene
        .nodes()
        .iter()
        .position(|n| scene.text(n.name) == "Head")
        .unwrap();
    let x = |t: f32| {
        let mut poses = vec![scenedec::scene::NodePose::default(); scene.nodes().len()];
        scene.sample(0, t, &mut poses).unwrap();
        poses[head].translation[0] - scene.nodes()[head].translation[0]
    };
    // At t = 1: sin(90°) = 1; at t = 0.25: halfway between
    // sin(22.5°) (the Molang keyframe at anim_time 0.25) and 1.
    let sin = |deg: f64| deg.to_radians().sin();
    assert!((x(1.0) - 1.0).abs() < 1e-6, "{}", x(1.0));
    assert!(x(0.0).abs() < 1e-6);
    let want = (sin(22.5) + 1.0) / 2.0;
    assert!(
        (f64::from(x(0.25)) - want).abs() < 1e-6,
        "{} vs {want}",
        x(0.25)
    );
    // Molang in a second data point keeps the keyframe too.
    let model = rig5(vec![Animation::new("a").animator(
        HEAD,
        bone(vec![
            keyframe(
                "position",
                0.0,
                vec![p(0.0, 0.0, 0.0), json!({"x": "q.life_time"})],
            ),
            position(1.0, 0.0, 0.0, 0.0),
        ]),
    )]);
    assert_eq!(only_channel(&model).0.keys.len(), 2);
}

#[test]
fn a_channel_whose_keyframes_are_all_molang_is_played() {
    // Issue 39: no clip with a bone channel is left out.
    let model = rig5(vec![Animation::new("a").animator(
        HEAD,
        bone(vec![keyframe("rotation", 0.0, vec![json!({"x": "v.x"})])]),
    )]);
    let (clip, w) = only_clip(&model);
    assert_eq!(clip.channels.len(), 1);
    assert!(w.is_empty(), "{w:?}");
}

#[test]
fn keyframes_are_sorted_by_time_stably() {
    // Features: "Keyframes are sorted by time (stable)": equal times keep
    // file order.
    let model = rig5(vec![Animation::new("a").animator(
        HEAD,
        bone(vec![
            position(2.0, 1.0, 0.0, 0.0),
            position(0.0, 2.0, 0.0, 0.0),
            position(1.0, 3.0, 0.0, 0.0),
            position(0.0, 4.0, 0.0, 0.0),
            position(1.0, 5.0, 0.0, 0.0),
            keyframe("rotation", 0.0, vec![p(0.0, 0.0, 0.0)]),
            position(0.0, 6.0, 0.0, 0.0),
        ]),
    )]);
    let (clip, _) = only_clip(&model);
    let position = &clip.channels[0];
    assert_eq!(position.target, T);
    let got: Vec<(f32, f32)> = position.keys.iter().map(|k| (k.time, k.pre[0])).collect();
    assert_eq!(
        got,
        [
            (0.0, 2.0),
            (0.0, 4.0),
            (0.0, 6.0),
            (1.0, 3.0),
            (1.0, 5.0),
            (2.0, 1.0)
        ]
    );
    assert_eq!(clip.channels[1].target, R);
}

#[test]
fn convention_13_before_5_0_rotation_x_y_and_position_x_are_negated_scale_not() {
    // Convention 13: "before 5.0 every rotation keyframe's x and y and every
    // position keyframe's x are negated" (pre and post alike); scale is
    // unchanged; 5.0 files are taken as they are.
    let animation = || {
        Animation::new("a").animator(
            HEAD,
            bone(vec![
                keyframe("position", 0.0, vec![p(1.0, 2.0, 3.0), p(4.0, 5.0, 6.0)]),
                keyframe(
                    "rotation",
                    0.0,
                    vec![p(10.0, 20.0, 30.0), p(40.0, 50.0, 60.0)],
                ),
                keyframe("scale", 0.0, vec![p(2.0, 3.0, 4.0)]),
            ]),
        )
    };
    let old = only_clip(&rig("4.10", vec![animation()])).0;
    let new = only_clip(&rig5(vec![animation()])).0;
    let values = |clip: &Clip| -> Vec<([f32; 3], [f32; 3])> {
        clip.channels
            .iter()
            .map(|c| (c.keys[0].pre, c.keys[0].post))
            .collect()
    };
    assert_eq!(
        values(&old),
        [
            ([-1.0, 2.0, 3.0], [-4.0, 5.0, 6.0]),
            (
                [rad(-10.0), rad(-20.0), rad(30.0)],
                [rad(-40.0), rad(-50.0), rad(60.0)]
            ),
            ([2.0, 3.0, 4.0], [2.0, 3.0, 4.0]),
        ]
    );
    assert_eq!(
        values(&new),
        [
            ([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]),
            (
                [rad(10.0), rad(20.0), rad(30.0)],
                [rad(40.0), rad(50.0), rad(60.0)]
            ),
            ([2.0, 3.0, 4.0], [2.0, 3.0, 4.0]),
        ]
    );
}

#[test]
fn pre_3_7_bones_form_and_keyframe_array_animators_with_values_on_the_keyframe() {
    // Features: "Files before 3.7 (bones, an animator that is a keyframe
    // array, values on the keyframe itself) load too"; convention 13 negates
    // them too.
    let old_key = json!({"channel": "rotation", "time": 0.5, "x": "10", "y": "20", "z": "30"});
    let model = rig(
        "3.6",
        vec![
            Animation::new("a")
                .bones()
                .animator("head", Raw(format!("[{old_key}]"))),
        ],
    );
    let (channel, w) = only_channel(&model);
    assert_eq!(channel.node, N_HEAD);
    assert_eq!(channel.target, R);
    let v = [rad(-10.0), rad(-20.0), rad(30.0)];
    assert_eq!(channel.keys, [key(0.5, LINEAR, v, v)]);
    assert!(w.is_empty(), "{w:?}");
    // `animators` wins over `bones` when both are present.
    let both = rig5(vec![
        Animation::new("a")
            .set("bones", json!({"arm": [{"channel": "position", "x": 1}]}))
            .animator("head", Raw(format!("[{old_key}]"))),
    ]);
    assert_eq!(only_channel(&both).0.node, N_HEAD);
}

// ------------------------------------------------------------ not played as authored

#[test]
fn effect_animators_are_not_played_with_unsupported_channel() {
    // Features: "effect animators (sound, particle, timeline)".
    let effects = Obj::new().set("type", "effect").set(
        "keyframes",
        vec![Obj::new().set("channel", "sound").set("time", 0.0).set(
            "data_points",
            vec![json!({"effect": "step", "file": "a.ogg"})],
        )],
    );
    let model = rig5(vec![
        Animation::new("a")
            .animator("effects", effects)
            .animator(HEAD, bone(vec![position(0.0, 1.0, 0.0, 0.0)])),
    ]);
    let (clip, w) = only_clip(&model);
    assert_eq!(clip.channels.len(), 1);
    assert_eq!(
        w,
        [(
            WarningCode::UnsupportedChannel,
            "$.animations[0].animators.effects".to_owned()
        )]
    );
}

#[test]
fn animators_of_other_elements_are_not_played_with_unsupported_channel() {
    // Features: "animators of other elements (null objects, cubes, meshes,
    // …)": a type other than bone.
    let null_object = bone(vec![position(0.0, 1.0, 0.0, 0.0)]).set("type", "null_object");
    let model = rig5(vec![Animation::new("a").animator("target", null_object)]);
    let (clip, w) = only_clip(&model);
    assert!(clip.channels.is_empty());
    assert_eq!(
        w,
        [(
            WarningCode::UnsupportedChannel,
            "$.animations[0].animators.target".to_owned()
        )]
    );
}

#[test]
fn unknown_channels_are_skipped_with_unsupported_channel_once_per_animator() {
    // Features: "unknown channels".
    let model = rig5(vec![Animation::new("a").animator(
        "head",
        bone(vec![
            keyframe("wiggle", 0.0, vec![p(1.0, 0.0, 0.0)]),
            keyframe("sound", 0.0, vec![p(1.0, 0.0, 0.0)]),
            position(0.0, 1.0, 0.0, 0.0),
        ]),
    )]);
    let (channel, w) = only_channel(&model);
    assert_eq!(channel.target, T);
    assert_eq!(
        w,
        [(
            WarningCode::UnsupportedChannel,
            "$.animations[0].animators.head.keyframes[0].channel".to_owned()
        )]
    );
}

#[test]
fn rotation_global_is_a_flag_on_every_channel_of_its_animator() {
    // Blockbench's BoneAnimator.displayRotation applies `rotation_global`
    // after the animator's rotation, with or without a rotation value, so
    // every channel of the animator carries it; no warning, it is played.
    let animator = bone(vec![
        keyframe("rotation", 0.0, vec![p(10.0, 0.0, 0.0)]),
        position(0.0, 1.0, 0.0, 0.0),
    ])
    .set("rotation_global", true);
    let (clip, w) = only_clip(&rig5(vec![Animation::new("a").animator("head", animator)]));
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(clip.channels.len(), 2);
    for c in &clip.channels {
        assert_eq!(
            c.flags,
            ChannelFlags::GLOBAL_ROTATION,
            "target {}",
            c.target
        );
    }
    assert_eq!(clip.channels[1].keys[0].pre[0], rad(10.0));
    // Absent or false: no flag.
    let plain = bone(vec![keyframe("rotation", 0.0, vec![p(10.0, 0.0, 0.0)])])
        .set("rotation_global", false);
    let (channel, _) = only_channel(&rig5(vec![Animation::new("a").animator("head", plain)]));
    assert_eq!(channel.flags, 0);
}

fn hytale(animation: Animation) -> Model {
    let (outliner, groups) = tree_5x(&tree());
    Model::new("5.0")
        .model_format("hytale_character")
        .outliner(outliner)
        .groups(groups)
        .set("animations", vec![animation])
}

#[test]
fn quaternion_interpolation_follows_the_animator_in_free_and_is_always_on_in_hytale() {
    // interpolate: `use_quaternions = Format.per_animator_rotation_interpolation
    // ? this.quaternion_interpolation : Format.quaternion_interpolation`; only
    // the free format (generic.ts) sets the first, the Hytale plugin's
    // formats (src/formats.ts) the second, with animation_loop_wrapping.
    let animation = |flag: bool| {
        Animation::new("a").animator(
            "head",
            bone(vec![
                keyframe("rotation", 0.0, vec![p(10.0, 0.0, 0.0)]),
                position(0.0, 1.0, 0.0, 0.0),
            ])
            .set("quaternion_interpolation", flag),
        )
    };
    let in_format = |format, flag| {
        let (outliner, groups) = tree_5x(&tree());
        Model::new("5.0")
            .model_format(format)
            .outliner(outliner)
            .groups(groups)
            .set("animations", vec![animation(flag)])
    };
    let flags = |model: &Model| {
        let (clip, w) = only_clip(model);
        assert!(w.is_empty(), "{w:?}");
        clip.channels
            .iter()
            .map(|c| (c.target, c.flags))
            .collect::<Vec<_>>()
    };
    let (t, r) = (
        ChannelTarget::Translation as u32,
        ChannelTarget::Rotation as u32,
    );
    assert_eq!(
        flags(&in_format("free", true)),
        [(t, 0), (r, ChannelFlags::QUATERNION)]
    );
    assert_eq!(flags(&in_format("free", false)), [(t, 0), (r, 0)]);
    // Another format ignores the animator's flag.
    assert_eq!(flags(&in_format("bedrock", true)), [(t, 0), (r, 0)]);
    // Hytale: quaternions whatever the animator says, its rules, wrapping.
    let all = ChannelFlags::QUATERNION | ChannelFlags::HYTALE | ChannelFlags::LOOP_WRAP;
    for flag in [true, false] {
        assert_eq!(
            flags(&hytale(animation(flag))),
            [(t, ChannelFlags::LOOP_WRAP), (r, all)]
        );
    }
}

#[test]
fn hytale_rotation_global_holds_only_without_a_rotation_value_and_scale_is_kept() {
    // The plugin's displayRotation replaces Blockbench's whenever there is a
    // rotation value, and only Blockbench's applies rotation_global.
    let with_rotation = bone(vec![
        keyframe("rotation", 0.0, vec![p(10.0, 0.0, 0.0)]),
        position(0.0, 1.0, 0.0, 0.0),
    ])
    .set("rotation_global", true);
    let (clip, _) = only_clip(&hytale(Animation::new("a").animator("head", with_rotation)));
    assert!(
        clip.channels
            .iter()
            .all(|c| c.flags & ChannelFlags::GLOBAL_ROTATION == 0)
    );
    let without = bone(vec![position(0.0, 1.0, 0.0, 0.0)]).set("rotation_global", true);
    let (channel, _) = only_channel(&hytale(Animation::new("a").animator("head", without)));
    assert_eq!(
        channel.flags,
        ChannelFlags::GLOBAL_ROTATION | ChannelFlags::LOOP_WRAP
    );
    // The plugin's displayScale stretches the group's main cube, not the
    // bone: the channel is kept on the group, flagged, and played on the
    // cube's node (tests/hytale_scale.rs), so nothing is reported.
    let scale = bone(vec![keyframe("scale", 0.0, vec![p(2.0, 2.0, 2.0)])]);
    let (channel, w) = only_channel(&hytale(Animation::new("a").animator("head", scale)));
    assert_eq!(
        channel.flags,
        ChannelFlags::HYTALE | ChannelFlags::LOOP_WRAP
    );
    assert_eq!(w, []);
}

#[test]
fn anim_time_update_start_delay_loop_delay_blend_weight_warn_unsupported_value() {
    // Features: "anim_time_update, start_delay, loop_delay and blend_weight
    // (played at normal speed, without delay, at full weight)"; Warnings:
    // "other than their defaults" (the default is "").
    let model = rig5(vec![
        Animation::new("a")
            .set("anim_time_update", "q.anim_time + q.delta_time * 2")
            .set("start_delay", "0.5")
            .set("loop_delay", 1.0)
            .set("blend_weight", "0.5"),
        Animation::new("defaults")
            .set("anim_time_update", "")
            .set("start_delay", "")
            .set("loop_delay", Raw("null".into()))
            .set("blend_weight", ""),
    ]);
    let bytes = model.bytes();
    let loaded = load(&bytes);
    let w = warnings(&loaded);
    // blend_weight plays (below); the others warn.
    let expected: Vec<(WarningCode, String)> = ["anim_time_update", "start_delay", "loop_delay"]
        .iter()
        .map(|k| {
            (
                WarningCode::UnsupportedValue,
                format!("$.animations[0].{k}"),
            )
        })
        .collect();
    assert_eq!(w, expected);
}

#[test]
fn blend_weight_scales_the_clip_as_blockbench_stacks_it() {
    // Blockbench animation_mode.js `stackAnimations`: multiplier =
    // clamp(parse(blend_weight), 0, Infinity); `displayPosition` and
    // `displayRotation` add value × multiplier, `displayScale` multiplies
    // by (1 + (value − 1) × multiplier) || 0.00001.
    let clip = |weight: &str| {
        Animation::new("a")
            .set("length", 1.0)
            .set("blend_weight", weight)
            .animator(
                "head",
                bone(vec![
                    position(0.0, 4.0, 0.0, 0.0),
                    keyframe("scale", 0.0, vec![p(3.0, 1.0, 1.0)]),
                ]),
            )
    };
    let sample = |weight: &str, t: f32| {
        let bytes = rig5(vec![clip(weight)]).bytes();
        let loaded = load(&bytes);
        assert!(warnings(&loaded).is_empty(), "{:?}", warnings(&loaded));
        let scene = loaded.scene();
        let head = scene
            .nodes()
            .iter()
            .position(|n| scene.text(n.name) == "Head")
            .unwrap();
        let mut poses = vec![scenedec::scene::NodePose::default(); scene.nodes().len()];
        scene.sample(0, t, &mut poses).unwrap();
        let rest = scene.nodes()[head];
        (
            poses[head].translation[0] - rest.translation[0],
            poses[head].scale[0] / rest.scale[0],
        )
    };
    assert_eq!(sample("", 0.0), (4.0, 3.0));
    assert_eq!(sample("0.5", 0.0), (2.0, 2.0));
    // Molang at the clip time: 0.25 × 2 at t = 0.25.
    assert_eq!(sample("q.anim_time * 2", 0.25), (2.0, 2.0));
    // Clamped at 0: the clip shows rest.
    assert_eq!(sample("-1", 0.0), (0.0, 1.0));
    assert_eq!(sample("2", 0.0), (8.0, 5.0));
}

#[test]
fn negative_scale_plays_as_the_smallest_positive_scale_with_unsupported_value() {
    // Features: "negative scale (played as the smallest positive scale)":
    // Blockbench's floor for a factor of 0, 0.00001.
    let model = rig5(vec![Animation::new("a").animator(
        "head",
        bone(vec![
            keyframe("scale", 0.0, vec![p(-1.0, 2.0, 0.0)]),
            keyframe("scale", 1.0, vec![p(1.0, 1.0, 1.0), p(1.0, -3.0, 1.0)]),
        ]),
    )]);
    let (channel, w) = only_channel(&model);
    assert_eq!(channel.keys[0].pre, [0.00001, 2.0, 0.0]);
    assert_eq!(channel.keys[1].post, [1.0, 0.00001, 1.0]);
    assert_eq!(
        w,
        [(
            WarningCode::UnsupportedValue,
            "$.animations[0].animators.head.keyframes[0]".to_owned()
        )]
    );
}
