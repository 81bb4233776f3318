//! One test per animation rule of the Blockbench loader specification
//! (`shared/seeds/bbmodel-loader-spec.txt`: Features "Animations",
//! Conventions 12 and 13, Limits, Warnings), each named after the rule and
//! checking the clips, channels and keyframes the scene holds exactly.
//!
//! The records: a clip per animation in file order; a channel per
//! (clip, node, target), keyframes sorted by time (stably); rotation in
//! radians, translation in model units, scale factors.

mod support;

use scenedec::scene::{ChannelTarget, Interpolation, KeyframeRecord, LoopMode, Scene};
use scenedec::{ErrorCode, Loaded, Options, WarningCode};
use serde_json::{Value, json};
use support::bbmodel_builder::{
    Animation, Group, Model, Obj, Raw, Tree, bone, keyframe, tree_4x, tree_5x,
};

const BODY: &str = "00000000-0000-4000-8000-000000000001";
const HEAD: &str = "00000000-0000-4000-8000-000000000002";
const ARM: &str = "00000000-0000-4000-8000-000000000003";
/// A uuid no group has.
const NOBODY: &str = "00000000-0000-4000-8000-0000000000ff";

/// Nodes in outliner order: body 0, Head 1 (inside body), arm 2.
const N_BODY: u32 = 0;
const N_HEAD: u32 = 1;
const N_ARM: u32 = 2;

fn tree() -> Vec<Tree> {
    vec![
        Tree::Group(
            Group::new("body", BODY),
            vec![Tree::Group(Group::new("Head", HEAD), vec![])],
        ),
        Tree::Group(Group::new("arm", ARM), vec![]),
    ]
}

/// A format `version` free-format file with the rig and these animations.
fn rig(version: &str, animations: Vec<Animation>) -> Model {
    let model = Model::new(version).model_format("free");
    let model = if version.starts_with('5') {
        let (outliner, groups) = tree_5x(&tree());
        model.outliner(outliner).groups(groups)
    } else {
        model.outliner(tree_4x(&tree()))
    };
    model.set("animations", animations)
}

/// A format 5.0 file (no sign migration) with these animations.
fn rig5(animations: Vec<Animation>) -> Model {
    rig("5.0", animations)
}

fn load(bytes: &[u8]) -> Loaded<'_> {
    scenedec::load(bytes, Some("bbmodel"), &Options::default())
        .unwrap_or_else(|e| panic!("load failed: {e}\n{}", String::from_utf8_lossy(bytes)))
}

fn error(model: &Model) -> scenedec::Error {
    match scenedec::load(&model.bytes(), Some("bbmodel"), &Options::default()) {
        Ok(_) => panic!("loaded, but an error was expected:\n{}", model.text()),
        Err(e) => e,
    }
}

fn warnings(loaded: &Loaded<'_>) -> Vec<(WarningCode, String)> {
    loaded
        .warnings()
        .as_slice()
        .iter()
        .map(|w| (w.code(), w.at().to_string()))
        .collect()
}

/// A clip as the scene holds it.
#[derive(Debug, PartialEq)]
struct Clip {
    name: String,
    length: f32,
    loop_mode: u32,
    channels: Vec<Channel>,
}

#[derive(Debug, PartialEq)]
struct Channel {
    node: u32,
    target: u32,
    keys: Vec<KeyframeRecord>,
}

fn clips(scene: &Scene<'_>) -> Vec<Clip> {
    scene
        .animations()
        .iter()
        .map(|a| {
            let first = a.first_channel as usize;
            let channels = &scene.channels()[first..first + a.channel_count as usize];
            Clip {
                name: scene.text(a.name).to_owned(),
                length: a.length,
                loop_mode: a.loop_mode,
                channels: channels
                    .iter()
                    .map(|c| {
                        let k = c.first_keyframe as usize;
                        Channel {
                            node: c.node,
                            target: c.target,
                            keys: scene.keyframes()[k..k + c.keyframe_count as usize].to_vec(),
                        }
                    })
                    .collect(),
            }
        })
        .collect()
}

fn only_clip(model: &Model) -> (Clip, Vec<(WarningCode, String)>) {
    let bytes = model.bytes();
    let loaded = load(&bytes);
    let mut all = clips(&loaded.scene());
    assert_eq!(all.len(), 1, "{}", model.text());
    (all.remove(0), warnings(&loaded))
}

/// The one channel of the only clip.
fn only_channel(model: &Model) -> (Channel, Vec<(WarningCode, String)>) {
    let (mut clip, w) = only_clip(model);
    assert_eq!(clip.channels.len(), 1, "{clip:?}");
    (clip.channels.remove(0), w)
}

fn p(x: f64, y: f64, z: f64) -> Value {
    json!({"x": x, "y": y, "z": z})
}

fn key(time: f32, interpolation: Interpolation, pre: [f32; 3], post: [f32; 3]) -> KeyframeRecord {
    KeyframeRecord {
        time,
        interpolation: interpolation as u32,
        pre,
        post,
    }
}

fn rad(degrees: f64) -> f32 {
    degrees.to_radians() as f32
}

const LINEAR: Interpolation = Interpolation::Linear;
const T: u32 = ChannelTarget::Translation as u32;
const R: u32 = ChannelTarget::Rotation as u32;
const S: u32 = ChannelTarget::Scale as u32;

fn position(time: f64, x: f64, y: f64, z: f64) -> Obj {
    keyframe("position", time, vec![p(x, y, z)])
}

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
fn bezier_plays_linear_with_unsupported_channel_once_per_channel() {
    // Features: "bezier keyframes (played linear)"; Warnings:
    // UNSUPPORTED_CHANNEL "once per animation, animator and channel".
    let bezier = |t: f64| position(t, 0.0, 0.0, 0.0).set("interpolation", "bezier");
    let model = rig5(vec![Animation::new("a").animator(
        "head",
        bone(vec![
            bezier(0.0),
            bezier(1.0),
            keyframe("rotation", 0.0, vec![p(0.0, 0.0, 0.0)]).set("interpolation", "bezier"),
        ]),
    )]);
    let (clip, w) = only_clip(&model);
    assert!(
        clip.channels
            .iter()
            .flat_map(|c| &c.keys)
            .all(|k| k.interpolation == LINEAR as u32)
    );
    assert_eq!(
        w,
        [
            (
                WarningCode::UnsupportedChannel,
                "$.animations[0].animators.head.keyframes[0].interpolation".to_owned()
            ),
            (
                WarningCode::UnsupportedChannel,
                "$.animations[0].animators.head.keyframes[2].interpolation".to_owned()
            ),
        ]
    );
}

#[test]
fn unknown_interpolation_plays_linear_with_unsupported_value() {
    // Warnings: "UNSUPPORTED_VALUE for an unknown … interpolation (played
    // linear)".
    let model = rig5(vec![Animation::new("a").animator(
        "head",
        bone(vec![
            position(0.0, 0.0, 0.0, 0.0).set("interpolation", "smooth"),
        ]),
    )]);
    let (channel, w) = only_channel(&model);
    assert_eq!(channel.keys[0].interpolation, LINEAR as u32);
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
fn molang_keyframes_are_skipped_with_unsupported_channel_once_per_channel() {
    // Features: "Molang expressions (the keyframe is skipped; constants
    // play)".
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
    assert_eq!(channel.keys.len(), 1);
    assert_eq!(channel.keys[0].time, 0.5);
    assert_eq!(
        w,
        [(
            WarningCode::UnsupportedChannel,
            "$.animations[0].animators.head.keyframes[0]".to_owned()
        )]
    );
    // Molang in a second data point skips the keyframe too.
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
    assert_eq!(only_channel(&model).0.keys.len(), 1);
}

#[test]
fn a_channel_whose_keyframes_are_all_molang_is_left_out() {
    let model = rig5(vec![Animation::new("a").animator(
        HEAD,
        bone(vec![keyframe("rotation", 0.0, vec![json!({"x": "v.x"})])]),
    )]);
    let (clip, w) = only_clip(&model);
    assert!(clip.channels.is_empty());
    assert_eq!(w.len(), 1);
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
fn rotation_global_plays_in_local_space_with_unsupported_channel() {
    // Features: "rotation_global (played in local space)".
    let animator =
        bone(vec![keyframe("rotation", 0.0, vec![p(10.0, 0.0, 0.0)])]).set("rotation_global", true);
    let (channel, w) = only_channel(&rig5(vec![Animation::new("a").animator("head", animator)]));
    assert_eq!(channel.keys[0].pre[0], rad(10.0));
    assert_eq!(
        w,
        [(
            WarningCode::UnsupportedChannel,
            "$.animations[0].animators.head.rotation_global".to_owned()
        )]
    );
}

#[test]
fn quaternion_interpolation_is_reported_in_the_free_format_only() {
    // Features: "quaternion_interpolation (played as Euler angles; reported
    // only in the free format …)".
    let animation = || {
        Animation::new("a").animator(
            "head",
            bone(vec![keyframe("rotation", 0.0, vec![p(10.0, 0.0, 0.0)])])
                .set("quaternion_interpolation", true),
        )
    };
    let (_, w) = only_clip(&rig5(vec![animation()]));
    assert_eq!(
        w,
        [(
            WarningCode::UnsupportedChannel,
            "$.animations[0].animators.head.quaternion_interpolation".to_owned()
        )]
    );
    let (outliner, groups) = tree_5x(&tree());
    let hytale = Model::new("5.0")
        .model_format("hytale_character")
        .outliner(outliner)
        .groups(groups)
        .set("animations", vec![animation()]);
    let (clip, w) = only_clip(&hytale);
    assert_eq!(clip.channels.len(), 1);
    assert!(w.is_empty(), "{w:?}");
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
    let expected: Vec<(WarningCode, String)> = [
        "anim_time_update",
        "start_delay",
        "loop_delay",
        "blend_weight",
    ]
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

// ------------------------------------------------------------ limits and hostile input

/// A file whose one animator holds `n` position keyframes, times descending.
fn reversed_keyframes(n: usize) -> Vec<u8> {
    let mut keys = String::from("[");
    for i in 0..n {
        if i > 0 {
            keys.push(',');
        }
        let t = (n - 1 - i) as f64 / 100.0;
        keys.push_str(&format!(
            r#"{{"channel":"position","time":{t},"data_points":[{{"x":{i},"y":0,"z":0}}]}}"#
        ));
    }
    keys.push(']');
    rig5(vec![
        Animation::new("a").animator(HEAD, Obj::new().set("keyframes", Raw(keys))),
    ])
    .bytes()
}

#[test]
fn max_keyframes_in_one_channel_in_reverse_order_load_sorted() {
    // Limits: maxKeyframes 200 000; the stable sort is O(n log n).
    let n = 200_000;
    let bytes = reversed_keyframes(n);
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(scene.channels().len(), 1);
    let keys = scene.keyframes();
    assert_eq!(keys.len(), n);
    assert!(keys.windows(2).all(|w| w[0].time <= w[1].time));
    assert_eq!(keys[0].pre[0], (n - 1) as f32);
    assert_eq!(scene.animations()[0].length, keys[n - 1].time);
}

#[test]
fn max_keyframes_at_the_limit_loads_and_one_past_fails() {
    // Limits: "maxKeyframes 200 000 TOO_MANY_KEYFRAMES (all animations
    // together, counted first)".
    let bytes = reversed_keyframes(5);
    let limits = |max: u64| {
        let mut options = Options::default();
        options.bbmodel.limits = options
            .bbmodel
            .limits
            .with_override("maxKeyframes", max as f64)
            .unwrap();
        options
    };
    let loaded = scenedec::load(&bytes, Some("bbmodel"), &limits(5)).unwrap();
    assert_eq!(loaded.scene().keyframes().len(), 5);
    let e = scenedec::load(&bytes, Some("bbmodel"), &limits(4)).unwrap_err();
    assert_eq!(e.code(), ErrorCode::TooManyKeyframes);
}

#[test]
fn thousands_of_animators_by_name_find_their_groups() {
    // Lookups are binary searches in sorted tables, not a scan per animator.
    let n = 5000;
    let groups: Vec<Tree> = (0..n)
        .map(|i| {
            Tree::Group(
                Group::new(
                    &format!("Bone{i}"),
                    &format!("00000000-0000-4000-8000-{i:012x}"),
                ),
                vec![],
            )
        })
        .collect();
    let mut animation = Animation::new("a");
    for i in (0..n).rev() {
        animation = animation.animator(
            &format!("bone{i}"),
            bone(vec![position(0.0, 0.0, i as f64, 0.0)]),
        );
    }
    let model = Model::new("4.10")
        .outliner(tree_4x(&groups))
        .set("animations", vec![animation]);
    let bytes = model.bytes();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(scene.channels().len(), n);
    for c in scene.channels() {
        let k = scene.keyframes()[c.first_keyframe as usize];
        assert_eq!(k.pre[1], c.node as f32);
    }
}

#[test]
fn malformed_keyframes_fail_with_invalid_field_at_their_path() {
    // Compatibility (MS-21): "a wrong JSON type, a negative time, a value
    // beyond ±10⁶" fail with INVALID_FIELD; a name must be a string.
    for (bad, at) in [
        (
            position(-1.0, 0.0, 0.0, 0.0),
            "$.animations[0].animators.head.keyframes[0].time",
        ),
        (
            keyframe("position", 0.0, vec![json!({"x": "2000000"})]),
            "$.animations[0].animators.head.keyframes[0].data_points[0].x",
        ),
        (
            Obj::new().set("channel", "rotation").set("x", true),
            "$.animations[0].animators.head.keyframes[0].x",
        ),
    ] {
        let model = rig5(vec![Animation::new("a").animator("head", bone(vec![bad]))]);
        let e = error(&model);
        assert_eq!(e.code(), ErrorCode::InvalidField, "{e}");
        assert_eq!(e.at().to_string(), at);
    }
    let model = rig5(vec![Animation::new("a").set("name", 5.0)]);
    assert_eq!(error(&model).at().to_string(), "$.animations[0].name");
}

#[test]
fn measure_then_decode_into_gives_the_scene_load_gives() {
    // The plan (channels ≤ 3 × animators, scratch for the sort) is enough,
    // and the decode writes what load writes.
    let model = rig(
        "4.10",
        vec![
            Animation::new("a")
                .animator(
                    "head",
                    bone(vec![
                        position(1.0, 1.0, 0.0, 0.0),
                        position(0.0, 2.0, 0.0, 0.0),
                    ]),
                )
                .animator(
                    ARM,
                    bone(vec![keyframe("scale", 0.0, vec![p(2.0, 2.0, 2.0)])]),
                ),
            Animation::new("")
                .set("name", Raw(r#""b\n""#.into()))
                .set("loop", "loop"),
        ],
    );
    let bytes = model.bytes();
    let options = Options::default();
    let loaded = load(&bytes);
    let plan = scenedec::measure(&bytes, Some("bbmodel"), &options).unwrap();
    let mut words = vec![0u64; plan.arena_words()];
    let mut arena = scenedec::Arena::from_words(&mut words);
    let mut w = scenedec::Warnings::new();
    let scene =
        scenedec::decode_into(&bytes, Some("bbmodel"), &options, &mut arena, &mut w).unwrap();
    assert_eq!(clips(&scene), clips(&loaded.scene()));
    assert_eq!(clips(&scene)[1].name, "b\n");
}

// ------------------------------------------------------------ corpus

#[test]
fn corpus_files_with_animations_list_every_clip_by_name() {
    let files = support::corpus_files("bbmodel", &["bbmodel"]);
    if files.is_empty() {
        eprintln!("SKIPPED: ../shared/corpus is absent");
        return;
    }
    let mut checked = 0;
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(json) = serde_json::from_slice::<Value>(&bytes) else {
            continue;
        };
        let Some(animations) = json.get("animations").and_then(Value::as_array) else {
            continue;
        };
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let options = support::corpus_options(&name);
        let loaded = scenedec::load(&bytes, Some("bbmodel"), &options)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let scene = loaded.scene();
        let got: Vec<&str> = scene
            .animations()
            .iter()
            .map(|a| scene.text(a.name))
            .collect();
        let expected: Vec<&str> = animations
            .iter()
            .map(|a| a["name"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(got, expected, "{name}");
        for a in scene.animations() {
            assert!(a.length >= 0.0 && a.length.is_finite(), "{name}");
        }
        for c in scene.channels() {
            assert!((c.node as usize) < scene.nodes().len(), "{name}");
            let k = c.first_keyframe as usize;
            let keys = &scene.keyframes()[k..k + c.keyframe_count as usize];
            assert!(!keys.is_empty(), "{name}");
            assert!(keys.windows(2).all(|w| w[0].time <= w[1].time), "{name}");
        }
        checked += 1;
    }
    assert!(checked > 0);
    eprintln!("checked the clips of {checked} animated .bbmodel corpus files");
}

#[test]
fn every_keyframe_is_checked_played_or_not_so_load_fails_as_measure_does() {
    // "A decode checks each value once" (docs/architecture.md): the fill
    // checks what it does not play as the count pass of `measure` does, so
    // `load` (which counts without checking) fails with measure's error.
    let bad = || bone(vec![position(-1.0, 0.0, 0.0, 0.0)]);
    let good = || bone(vec![position(0.0, 1.0, 0.0, 0.0)]);
    let cases = vec![
        // Replaced by a later animator for the same group.
        rig5(vec![
            Animation::new("a")
                .animator(HEAD, bad())
                .animator("head", good()),
        ]),
        rig5(vec![Animation::new("a").animator("effects", bad())]),
        rig5(vec![
            Animation::new("a").animator("x", bad().set("type", "cube")),
        ]),
        rig5(vec![Animation::new("a").animator(NOBODY, bad())]),
        // `bones` is not played when `animators` is there; nor is an
        // `animators` that is an array.
        rig5(vec![
            Animation::new("a")
                .animator(HEAD, good())
                .set("bones", Obj::new().set("head", bad())),
        ]),
        rig5(vec![
            Animation::new("a")
                .set("bones", Obj::new().set("head", bad()))
                .set("animators", Raw("[]".into())),
        ]),
        // A repeated `keyframes` key: the earlier array is not played.
        rig5(vec![Animation::new("a").animator(
            HEAD,
            Raw(format!(
                r#"{{"keyframes": {}, "keyframes": {}}}"#,
                bad().get("keyframes").unwrap(),
                good().get("keyframes").unwrap()
            )),
        )]),
        // JSON errors inside what is counted, not played.
        rig5(vec![Animation::new("a").animator(
            HEAD,
            Raw(format!(
                r#"{{"rotation": {{"0": [1,]}}, "keyframes": {}}}"#,
                good().get("keyframes").unwrap()
            )),
        )]),
        rig5(vec![Animation::new("a").animator(
            HEAD,
            Raw(r#"{"keyframes": [{"time": 0,}]}"#.into()),
        )]),
    ];
    for model in cases {
        let bytes = model.bytes();
        let options = Options::default();
        let Err(measured) = scenedec::measure(&bytes, Some("bbmodel"), &options) else {
            panic!("measured: {}", model.text());
        };
        let Err(loaded) = scenedec::load(&bytes, Some("bbmodel"), &options) else {
            panic!("loaded: {}", model.text());
        };
        assert_eq!(
            (loaded.code(), loaded.at().to_string()),
            (measured.code(), measured.at().to_string()),
            "{}",
            model.text()
        );
        let mut words = vec![0u64; 1 << 16];
        let mut arena = scenedec::Arena::from_words(&mut words);
        let mut w = scenedec::Warnings::new();
        let Err(decoded) =
            scenedec::decode_into(&bytes, Some("bbmodel"), &options, &mut arena, &mut w)
        else {
            panic!("decoded: {}", model.text());
        };
        assert_eq!(decoded.code(), measured.code(), "{}", model.text());
    }
}

#[test]
fn the_last_truthy_animators_is_played_else_the_last_bones() {
    // Blockbench's Animation.extend: `if (data.bones && !data.animators)
    // data.animators = data.bones`, over JSON.parse's last-of-each-key.
    let head = || Obj::new().set("head", bone(vec![position(0.0, 1.0, 0.0, 0.0)]));
    let arm = || Obj::new().set("arm", bone(vec![position(0.0, 2.0, 0.0, 0.0)]));
    let with = |fields: Vec<(&str, Raw)>| {
        let mut text = String::from("{\"name\": \"a\"");
        for (k, v) in fields {
            text.push_str(&format!(", \"{k}\": {}", v.0));
        }
        text.push('}');
        rig5(vec![]).set("animations", Raw(format!("[{text}]")))
    };
    let raw = |o: Obj| Raw(support::bbmodel_builder::Json::json(&o));
    for (fields, node) in [
        (
            vec![("animators", Raw("null".into())), ("bones", raw(arm()))],
            Some(N_ARM),
        ),
        (
            vec![("bones", raw(arm())), ("animators", raw(head()))],
            Some(N_HEAD),
        ),
        (
            vec![("animators", raw(head())), ("animators", raw(arm()))],
            Some(N_ARM),
        ),
        (
            vec![
                ("animators", raw(head())),
                ("animators", Raw("[]".into())),
                ("bones", raw(arm())),
            ],
            None,
        ),
    ] {
        let model = with(fields);
        let (clip, _) = only_clip(&model);
        let nodes: Vec<u32> = clip.channels.iter().map(|c| c.node).collect();
        assert_eq!(
            nodes,
            node.into_iter().collect::<Vec<_>>(),
            "{}",
            model.text()
        );
    }
}
