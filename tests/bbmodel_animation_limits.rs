//! The animation limits and hostile sizes (spec Limits: maxKeyframes,
//! O(n log n) sorting, lookups by binary search), the checks a decode
//! makes once (load fails as measure does), which `animators` object is
//! played, and every animated corpus file.

mod support;

use scenedec::{ErrorCode, Options};
use serde_json::{Value, json};
use support::bbmodel_builder::{Animation, Group, Model, Obj, Raw, Tree, bone, keyframe, tree_4x};
use support::clips::*;

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
