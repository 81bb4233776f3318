//! What the reader keeps of bezier keyframes and plugin easing, each test
//! quoting the Blockbench (or plugin) code it follows. The curves
//! themselves are pinned by `src/scene/sample/keyframes.rs` and
//! `tests/bezier_diff.rs`.

mod support;

use scenedec::WarningCode;
use scenedec::scene::{Easing, Interpolation, KeyframeRecord};
use serde_json::{Value, json};
use support::bbmodel_builder::{Animation, Model, Obj, bone, tree_4x, tree_5x};
use support::clips::*;

const BEZIER: u32 = Interpolation::Bezier as u32;

/// A file of `format` and `version` with one clip animating the head.
fn file(version: &str, format: &str, keyframes: Vec<Obj>) -> Model {
    let model = Model::new(version).model_format(format);
    let model = if version.starts_with('5') {
        let (outliner, groups) = tree_5x(&tree());
        model.outliner(outliner).groups(groups)
    } else {
        model.outliner(tree_4x(&tree()))
    };
    model.set(
        "animations",
        vec![
            Animation::new("a")
                .set("length", 2.0)
                .animator("head", bone(keyframes)),
        ],
    )
}

fn rotation(time: f64, x: f64, y: f64, z: f64) -> Obj {
    support::bbmodel_builder::keyframe("rotation", time, vec![p(x, y, z)])
}

fn only_keys(model: &Model) -> (Vec<KeyframeRecord>, Vec<(WarningCode, String)>) {
    let (channel, w) = only_channel(model);
    (channel.keys, w)
}

fn rads(v: [f64; 3]) -> [f32; 3] {
    v.map(rad)
}

#[test]
fn bezier_plays_as_bezier_with_its_handles_in_scene_units_and_no_warning() {
    // Keyframe.getBezierLerp reads bezier_{left,right}_{time,value} per
    // axis; values are in the channel's units (degrees for rotation, which
    // displayRotation turns into radians), times in seconds.
    let model = file(
        "5.0",
        "free",
        vec![
            rotation(0.0, 10.0, 20.0, 30.0)
                .set("interpolation", "bezier")
                .set("bezier_linked", false)
                .set("bezier_left_time", json!([-0.2, -0.3, -0.4]))
                .set("bezier_left_value", json!([1.5, -2.0, 45.0]))
                .set("bezier_right_time", json!([0.25, 0.5, 0.75]))
                .set("bezier_right_value", json!([90.0, 0.0, -30.0])),
        ],
    );
    let (keys, w) = only_keys(&model);
    assert_eq!(w, []);
    let k = keys[0];
    assert_eq!(k.interpolation, BEZIER);
    assert_eq!(k.pre, rads([10.0, 20.0, 30.0]));
    assert_eq!(k.bezier_left_time, [-0.2, -0.3, -0.4]);
    assert_eq!(k.bezier_left_value, rads([1.5, -2.0, 45.0]));
    assert_eq!(k.bezier_right_time, [0.25, 0.5, 0.75]);
    assert_eq!(k.bezier_right_value, rads([90.0, 0.0, -30.0]));
}

#[test]
fn missing_handles_take_blockbench_defaults_and_short_arrays_read_as_undefined() {
    // Property(Keyframe, 'vector', 'bezier_left_time', {default: [-0.1, …]}),
    // bezier_left_value default [0, 0, 0], right time [0.1, …]; merge copies
    // arrays only (Array.replace), so anything else keeps the default. An
    // entry past a short array is undefined: `time || 0` is 0, and
    // `val + undefined || 0` puts the control point at 0, an offset of −val;
    // null adds 0.
    let model = file(
        "5.0",
        "free",
        vec![
            position(0.0, 1.0, 2.0, 3.0).set("interpolation", "bezier"),
            position(1.0, 4.0, 5.0, 6.0)
                .set("interpolation", "bezier")
                .set("bezier_left_time", json!("0.5"))
                .set("bezier_left_value", json!([7.0]))
                .set("bezier_right_time", json!([0.3, null]))
                .set("bezier_right_value", json!([null, 2.0, 3.0, "ignored"])),
        ],
    );
    let (keys, w) = only_keys(&model);
    assert_eq!(w, []);
    assert_eq!(keys[0].bezier_left_time, [-0.1; 3]);
    assert_eq!(keys[0].bezier_left_value, [0.0; 3]);
    assert_eq!(keys[0].bezier_right_time, [0.1; 3]);
    assert_eq!(keys[0].bezier_right_value, [0.0; 3]);
    let k = keys[1];
    assert_eq!(k.bezier_left_time, [-0.1; 3], "a string is no array");
    assert_eq!(k.bezier_left_value, [7.0, -5.0, -6.0], "y, z at 0: −pre");
    assert_eq!(k.bezier_right_time, [0.3, 0.0, 0.0]);
    assert_eq!(k.bezier_right_value, [0.0, 2.0, 3.0]);
}

#[test]
fn convention_13_negates_a_bezier_keyframes_value_handles_as_blockbench_5_does() {
    // js/formats/bbmodel.js, before 5.0: for a keyframe whose interpolation
    // is bezier and which has bezier_left_value, left and right value [0]
    // are negated for position and rotation, [1] for rotation. Times are
    // not; other keyframes' handles are not.
    let handles = |k: Obj| {
        k.set("bezier_left_value", json!([1.0, 2.0, 3.0]))
            .set("bezier_right_value", json!([4.0, 5.0, 6.0]))
            .set("bezier_right_time", json!([0.2, 0.2, 0.2]))
    };
    let rot = file(
        "4.10",
        "free",
        vec![
            handles(rotation(0.0, 0.0, 0.0, 0.0).set("interpolation", "bezier")),
            handles(rotation(1.0, 0.0, 0.0, 0.0)),
        ],
    );
    let (keys, _) = only_keys(&rot);
    assert_eq!(keys[0].bezier_left_value, rads([-1.0, -2.0, 3.0]));
    assert_eq!(keys[0].bezier_right_value, rads([-4.0, -5.0, 6.0]));
    assert_eq!(keys[0].bezier_right_time, [0.2; 3]);
    assert_eq!(
        keys[1].bezier_left_value,
        rads([1.0, 2.0, 3.0]),
        "linear: kept"
    );
    let pos = file(
        "4.10",
        "free",
        vec![handles(
            position(0.0, 0.0, 0.0, 0.0).set("interpolation", "bezier"),
        )],
    );
    let (keys, _) = only_keys(&pos);
    assert_eq!(keys[0].bezier_left_value, [-1.0, 2.0, 3.0]);
    assert_eq!(keys[0].bezier_right_value, [-4.0, 5.0, 6.0]);
    // Without bezier_left_value, nothing is negated.
    let right_only = file(
        "4.10",
        "free",
        vec![
            position(0.0, 0.0, 0.0, 0.0)
                .set("interpolation", "bezier")
                .set("bezier_right_value", json!([4.0, 5.0, 6.0])),
        ],
    );
    let (keys, _) = only_keys(&right_only);
    assert_eq!(keys[0].bezier_right_value, [4.0, 5.0, 6.0]);
    // Format 5.0 files are not migrated.
    let five = file(
        "5.0",
        "free",
        vec![handles(
            position(0.0, 0.0, 0.0, 0.0).set("interpolation", "bezier"),
        )],
    );
    assert_eq!(only_keys(&five).0[0].bezier_left_value, [1.0, 2.0, 3.0]);
}

#[test]
fn handle_entries_are_numbers_within_a_million_or_null() {
    // Spec Limits: animation values within ±10⁶ (INVALID_FIELD); a handle
    // entry that is no number (Blockbench would add a string as text) is
    // INVALID_FIELD too, named by its path.
    for (value, at) in [
        (json!([0.0, "1", 0.0]), "bezier_left_value[1]"),
        (json!([0.0, 0.0, 1_000_001.0]), "bezier_left_value[2]"),
        (json!([true]), "bezier_left_value[0]"),
    ] {
        let model = file(
            "5.0",
            "free",
            vec![position(0.0, 0.0, 0.0, 0.0).set("bezier_left_value", value.clone())],
        );
        let e = error(&model);
        assert_eq!(e.code(), scenedec::ErrorCode::InvalidField, "{value}");
        assert_eq!(
            e.at().to_string(),
            format!("$.animations[0].animators.head.keyframes[0].{at}")
        );
    }
    // At the bound it loads.
    let model = file(
        "5.0",
        "free",
        vec![position(0.0, 0.0, 0.0, 0.0).set(
            "bezier_left_value",
            json!([1_000_000.0, -1_000_000.0, null]),
        )],
    );
    assert_eq!(only_keys(&model).0[0].bezier_left_value, [1e6, -1e6, 0.0]);
}

/// Keyframes 0 → 10 over 1 s on position x, the later one with `easing`.
fn eased(format: &str, easing: Value, args: Option<Value>) -> Model {
    let mut later = position(1.0, 10.0, 0.0, 0.0).set("easing", easing);
    if let Some(args) = args {
        later = later.set("easingArgs", args);
    }
    file("4.5", format, vec![position(0.0, 0.0, 0.0, 0.0), later])
}

#[test]
fn plugin_easing_is_read_in_the_geckolib_and_animation_utils_formats_only() {
    // GeckoLib keyframe.ts / Animation Utils keyframe.ts: keyframeExtend
    // keeps `easing` and `easingArgs` only when Format.id is
    // geckolib_model / animated_entity_model, and keyframeGetLerp eases only
    // there; other formats play the segment linear.
    for format in ["geckolib_model", "animated_entity_model"] {
        let (keys, w) = only_keys(&eased(format, json!("easeInOutSine"), None));
        assert_eq!(w, [], "{format}");
        assert_eq!(keys[1].easing, Easing::InOutSine as u32, "{format}");
        assert_eq!(keys[1].easing_arg, 0.0);
        assert_eq!(keys[0].easing, Easing::Linear as u32);
    }
    for format in ["free", "bedrock", "azure_model"] {
        let (keys, w) = only_keys(&eased(format, json!("easeInOutSine"), Some(json!([2]))));
        assert_eq!(w, [], "{format}");
        assert_eq!((keys[1].easing, keys[1].easing_arg), (0, 0.0), "{format}");
    }
}

#[test]
fn easing_arguments_are_the_first_of_easing_args_else_the_plugins_default() {
    // `Array.isArray(other.easingArgs) && other.easingArgs.length > 0 ?
    // other.easingArgs[0] : getEasingArgDefault(other)`, bound only for
    // isArgsEasing (Back, Elastic, Bounce, step): defaults 1, 1, 0.5, 5.
    let arg = |easing: &str, args: Option<Value>| {
        let (keys, w) = only_keys(&eased("geckolib_model", json!(easing), args));
        (keys[1].easing, keys[1].easing_arg, w.len())
    };
    assert_eq!(
        arg("easeOutElastic", Some(json!([1]))),
        (Easing::OutElastic as u32, 1.0, 0)
    );
    assert_eq!(
        arg("easeInBack", Some(json!([2.5, 9]))),
        (Easing::InBack as u32, 2.5, 0)
    );
    assert_eq!(arg("easeInBack", None), (Easing::InBack as u32, 1.0, 0));
    assert_eq!(
        arg("easeInBack", Some(json!(3))),
        (Easing::InBack as u32, 1.0, 0),
        "no array"
    );
    assert_eq!(
        arg("easeInBack", Some(json!([]))),
        (Easing::InBack as u32, 1.0, 0)
    );
    assert_eq!(
        arg("easeOutBounce", None),
        (Easing::OutBounce as u32, 0.5, 0)
    );
    assert_eq!(arg("step", None), (Easing::Step as u32, 5.0, 0));
    assert_eq!(arg("step", Some(json!([2]))), (Easing::Step as u32, 2.0, 0));
    assert_eq!(
        arg("easeInQuad", Some(json!([4]))),
        (Easing::InQuad as u32, 0.0, 0),
        "takes none"
    );
}

#[test]
fn what_the_plugin_cannot_play_warns_and_plays_linear_or_with_the_default() {
    // An easing no function has (`easingFunctions[easing]` undefined) and
    // step below 2 steps (`stepRange` throws) make the plugin's getLerp
    // throw: played linear, UNSUPPORTED_VALUE at `easing`. A first argument
    // that is no number within ±10⁶: the default, UNSUPPORTED_VALUE at
    // `easingArgs`.
    let later = "$.animations[0].animators.head.keyframes[1]";
    for (easing, args, want, at) in [
        (json!("easeInWobble"), None, (0, 0.0), "easing"),
        (json!(5), None, (0, 0.0), "easing"),
        (json!("step"), Some(json!([1])), (0, 0.0), "easing"),
        (
            json!("easeInBack"),
            Some(json!(["2"])),
            (Easing::InBack as u32, 1.0),
            "easingArgs",
        ),
        (
            json!("easeInBack"),
            Some(json!([2e6])),
            (Easing::InBack as u32, 1.0),
            "easingArgs",
        ),
    ] {
        let (keys, w) = only_keys(&eased("animated_entity_model", easing.clone(), args));
        assert_eq!((keys[1].easing, keys[1].easing_arg), want, "{easing}");
        assert_eq!(
            w,
            [(WarningCode::UnsupportedValue, format!("{later}.{at}"))],
            "{easing}"
        );
    }
    // `other.easing || 'linear'`: "", null, false and 0 are linear, silently.
    for easing in [json!(""), json!(null), json!(false), json!(0)] {
        let (keys, w) = only_keys(&eased("geckolib_model", easing.clone(), None));
        assert_eq!((keys[1].easing, w.len()), (0, 0), "{easing}");
    }
}

#[test]
fn geckolibs_values_form_gives_the_easing_and_the_data_points_the_value() {
    // keyframeExtend (both plugins, in their format): `if (typeof
    // data.values === 'object') { if (data.values.easing !== undefined)
    // Merge.string(this, data.values, 'easing'); if
    // (Array.isArray(data.values.easingArgs)) this.easingArgs = … }` and
    // else the keyframe's own `easing` / `easingArgs`; Blockbench's extend
    // then gets the unchanged keyframe, so `values.vector` is not read.
    let with_values = |format: &str, values: Value, own: Option<&str>| {
        let mut later = position(1.0, 10.0, 0.0, 0.0).set("values", values);
        if let Some(own) = own {
            later = later.set("easing", own);
        }
        let model = file("4.5", format, vec![position(0.0, 0.0, 0.0, 0.0), later]);
        let (keys, w) = only_keys(&model);
        (keys[1].easing, keys[1].easing_arg, keys[1].pre, w.len())
    };
    let vector = json!([99, 99, 99]);
    for format in ["geckolib_model", "animated_entity_model"] {
        // The values' easing and argument win over the keyframe's own.
        assert_eq!(
            with_values(
                format,
                json!({"vector": vector, "easing": "easeInBack", "easingArgs": [3]}),
                Some("easeOutQuad")
            ),
            (Easing::InBack as u32, 3.0, [-10.0, 0.0, 0.0], 0),
            "{format}: position x negated before 5.0, the data point's"
        );
        // An object without easing, an array, null: no easing at all.
        for values in [json!({"vector": vector}), json!([1, 2, 3]), json!(null)] {
            assert_eq!(
                with_values(format, values.clone(), Some("easeOutQuad")).0,
                Easing::Linear as u32,
                "{format}: {values}"
            );
        }
        // Not an object: the keyframe's own easing.
        assert_eq!(
            with_values(format, json!("x"), Some("easeOutQuad")).0,
            Easing::OutQuad as u32
        );
    }
    // Other formats read no easing at all.
    assert_eq!(
        with_values("free", json!({"easing": "easeInBack"}), None).0,
        Easing::Linear as u32
    );
}

#[test]
fn an_eased_clip_samples_the_eased_value() {
    // keyframeGetLerp: lerp(start, stop, easingFunc(amount)); easeInQuad at
    // t = 0.5 of 0 → 10 is 2.5 (linear would be 5).
    let model = eased("geckolib_model", json!("easeInQuad"), None);
    let bytes = model.bytes();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let mut poses = vec![scenedec::scene::NodePose::default(); scene.nodes().len()];
    scene.sample(0, 0.5, &mut poses).unwrap();
    let rest = scene.nodes()[N_HEAD as usize].translation[0];
    // Before 5.0, position x is negated (convention 13): −2.5.
    assert!((poses[N_HEAD as usize].translation[0] - rest + 2.5).abs() < 1e-6);
}

/// Per clip of the corpus: (bezier keyframes, keyframes with an easing other
/// than linear) in the scene, against the same counted from the raw JSON
/// (bone animators' keyframes whose interpolation is "bezier"; in the two
/// plugin formats, keyframes whose `easing` names an easing but linear).
/// `cargo test --test bbmodel_bezier_easing -- --nocapture` prints the
/// counts docs/bbmodel.md gives.
#[test]
fn corpus_clips_with_bezier_and_easing_are_counted_alike_in_the_scene_and_the_json() {
    let files = support::corpus_files("bbmodel", &[".bbmodel"]);
    let (mut clips, mut bezier_clips, mut eased_clips, mut bezier_keys, mut eased_keys) =
        (0, 0, 0, 0, 0);
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        let bytes = std::fs::read(path).unwrap();
        let Ok(loaded) = scenedec::load(&bytes, Some("bbmodel"), &support::corpus_options(name))
        else {
            continue;
        };
        let scene = loaded.scene();
        let json: Value = serde_json::from_slice(&bytes).unwrap();
        let plugin = matches!(
            json["meta"]["model_format"].as_str(),
            Some("geckolib_model" | "animated_entity_model")
        );
        let raw = json["animations"].as_array().cloned().unwrap_or_default();
        assert_eq!(raw.len(), scene.animations().len(), "{name}");
        for (a, record) in raw.iter().zip(scene.animations()) {
            let mut want = (0, 0);
            let animators = a["animators"].as_object().cloned().unwrap_or_default();
            for animator in animators.values() {
                if animator["type"].as_str().is_some_and(|t| t != "bone") {
                    continue;
                }
                for k in animator["keyframes"].as_array().into_iter().flatten() {
                    let channel = k["channel"].as_str().unwrap_or("");
                    if !["rotation", "position", "scale"].contains(&channel) {
                        continue;
                    }
                    want.0 += usize::from(k["interpolation"] == "bezier");
                    let easing = k["easing"].as_str().unwrap_or("linear");
                    want.1 += usize::from(plugin && !["linear", ""].contains(&easing));
                }
            }
            let first = record.first_channel as usize;
            let keys = scene.channels()[first..][..record.channel_count as usize]
                .iter()
                .flat_map(|c| {
                    &scene.keyframes()[c.first_keyframe as usize..][..c.keyframe_count as usize]
                });
            let mut got = (0, 0);
            for k in keys {
                got.0 += usize::from(k.interpolation == Interpolation::Bezier as u32);
                got.1 += usize::from(k.easing != Easing::Linear as u32);
            }
            assert_eq!(got, want, "{name}: {}", scene.text(record.name));
            clips += 1;
            bezier_clips += usize::from(got.0 > 0);
            eased_clips += usize::from(got.1 > 0);
            bezier_keys += got.0;
            eased_keys += got.1;
        }
    }
    eprintln!(
        "corpus: {clips} clips; {bezier_clips} with bezier keyframes ({bezier_keys} keyframes), {eased_clips} with plugin easing ({eased_keys} keyframes)"
    );
    if !files.is_empty() {
        assert!(bezier_clips > 0 && eased_clips > 0);
    }
}
