//! Molang compiled once into the arena: `measure` counts what the fill
//! compiles (keyframe values, `blend_weight`, placeholder lines), so
//! `decode_into` fits exactly `measure`'s arena, `load` plans no less, and
//! the compiled programs play what the text says.

use scenedec::scene::{NodePose, SceneCounts};
use scenedec::{Arena, Options, Warnings};

/// A .bbmodel of one group `g` and the given animations and extra
/// top-level members.
fn model(version: &str, animations: &str, extra: &str) -> Vec<u8> {
    format!(
        r#"{{"meta":{{"format_version":"{version}","model_format":"free","box_uv":false}},
        "resolution":{{"width":16,"height":16}},"elements":[],
        "outliner":[{{"name":"g","uuid":"11111111-1111-1111-1111-111111111111","origin":[0,0,0],"children":[]}}],
        "textures":[],"animations":[{animations}]{extra}}}"#
    )
    .into_bytes()
}

fn keyframe(channel: &str, time: f64, points: &str) -> String {
    format!(
        r#"{{"channel":"{channel}","time":{time},"interpolation":"linear","data_points":[{points}]}}"#
    )
}

fn animation(body: &str) -> String {
    format!(r#"{{"name":"a","loop":"loop","length":2,{body}}}"#)
}

fn animators(keyframes: &[String]) -> String {
    format!(
        r#""animators":{{"11111111-1111-1111-1111-111111111111":{{"name":"g","type":"bone","keyframes":[{}]}}}}"#,
        keyframes.join(",")
    )
}

/// The Molang arrays of a plan or scene.
fn molang(c: &SceneCounts) -> [usize; 4] {
    [
        c.molang_programs,
        c.molang_nodes,
        c.molang_text,
        c.molang_placeholders,
    ]
}

/// Measures `bytes`, decodes into exactly the planned arena (and with the
/// plan), checks `load` plans no less; returns the plan's and the scene's
/// Molang counts and node 0's translation at `times`.
fn decode(bytes: &[u8], times: &[f32]) -> ([usize; 4], [usize; 4], Vec<[f32; 3]>) {
    let options = Options::default();
    let plan = scenedec::measure(bytes, Some("bbmodel"), &options).expect("measure");
    let mut words = vec![0u64; plan.arena_words()];
    let mut warnings = Box::new(Warnings::new());
    let mut arena = Arena::from_words(&mut words);
    let scene = scenedec::decode_into(bytes, Some("bbmodel"), &options, &mut arena, &mut warnings)
        .expect("decode_into with exactly measure's arena");
    let mut words2 = vec![0u64; plan.arena_words()];
    let mut arena2 = Arena::from_words(&mut words2);
    let again = scenedec::decode_with_plan(
        bytes,
        Some("bbmodel"),
        &options,
        &plan,
        &mut arena2,
        &mut warnings,
    )
    .expect("decode_with_plan");
    assert_eq!(molang(&again.counts()), molang(&scene.counts()));
    let load = scenedec::load_plan(bytes, Some("bbmodel"), &options).unwrap();
    assert!(load.arena_bytes() >= plan.arena_bytes());
    let loaded = scenedec::load(bytes, Some("bbmodel"), &options).unwrap();
    assert_eq!(molang(&loaded.scene().counts()), molang(&scene.counts()));
    let mut out = vec![NodePose::default(); scene.nodes().len()];
    let mut moved = Vec::new();
    for &t in times {
        scene.sample(0, t, &mut out).unwrap();
        moved.push(out[0].translation);
    }
    (molang(plan.counts()), molang(&scene.counts()), moved)
}

#[test]
fn keyframe_values_blend_weights_and_placeholders_are_planned_exactly() {
    // One data point (its program plays on both sides), two data points
    // (each its own), an escaped text, a blend weight and placeholders
    // whose lines are separated by escaped newlines.
    let keys = [
        keyframe(
            "position",
            0.0,
            r#"{"x":"q.anim_time * 4","y":"v.k","z":"1"}"#,
        ),
        keyframe(
            "position",
            1.0,
            r#"{"x":"math.sin(q.anim_time \u002a 90)","y":0,"z":0},{"x":"2","y":"q.anim_time","z":0}"#,
        ),
    ];
    let body = format!(r#"{},"blend_weight":"v.w""#, animators(&keys));
    let extra = r#","animation_variable_placeholders":"v.k = 3\nv.w = 0.5""#;
    let bytes = model("5.0", &animation(&body), extra);
    let (planned, written, moved) = decode(&bytes, &[0.0, 0.5, 1.0]);
    // Programs: 2 + 2 (pre x; post y) + the blend weight; placeholders 2.
    assert_eq!(planned[0], 5);
    assert_eq!(planned[3], 2);
    assert_eq!(
        planned, written,
        "measure counts exactly what the fill writes"
    );
    // Blockbench's Keyframe.calc at 0 s: x = 0, y = v.k = 3 (a
    // placeholder), both times the blend weight 0.5.
    assert_eq!(moved[0], [0.0, 1.5, 0.5]);
    // Halfway: x lerps from q.anim_time·4 = 2 to sin(45°), y from 3 to 0.
    let x = (2.0 + (45f64.to_radians().sin() as f32 - 2.0) * 0.5) * 0.5;
    assert!((moved[1][0] - x).abs() < 1e-5, "{:?}", moved[1]);
    assert!((moved[1][1] - 0.75).abs() < 1e-6, "{:?}", moved[1]);
}

#[test]
fn a_text_past_the_measured_size_plays_and_the_plan_bounds_it() {
    // `1.000…0` of 3000 bytes: molangjs reads the number 1. Past the
    // count pass's 1 KiB measuring buffer the plan bounds its nodes (3 a
    // byte); the fill writes the one node it needs, and it plays.
    let long = format!("1.{}", "0".repeat(2998));
    let keys = [keyframe(
        "position",
        0.0,
        &format!(r#"{{"x":"{long}","y":0,"z":0}}"#),
    )];
    let bytes = model("5.0", &animation(&animators(&keys)), "");
    let (planned, written, moved) = decode(&bytes, &[0.0]);
    assert_eq!(moved[0], [1.0, 0.0, 0.0]);
    assert_eq!(written, [1, 1, 3000, 0]);
    assert_eq!(planned, [1, 3 * 3000 + 1, 3000, 0]);
    // At 1 KiB it is counted exactly.
    let fits = format!("1.{}", "0".repeat(1022));
    let keys = [keyframe(
        "position",
        0.0,
        &format!(r#"{{"x":"{fits}","y":0,"z":0}}"#),
    )];
    let bytes = model("5.0", &animation(&animators(&keys)), "");
    let (planned, written, _) = decode(&bytes, &[0.0]);
    assert_eq!(planned, written);
    assert_eq!(written, [1, 1, 1024, 0]);
}

#[test]
fn texts_that_do_not_compile_take_no_nodes_and_play_0() {
    // Past maxMolangChars (4096): a program record and nothing else.
    let long = format!("1+{}", "1".repeat(4095));
    let keys = [keyframe(
        "position",
        0.0,
        &format!(r#"{{"x":"{long}","y":"2","z":0}}"#),
    )];
    let bytes = model("5.0", &animation(&animators(&keys)), "");
    let (planned, written, moved) = decode(&bytes, &[0.0]);
    assert_eq!(planned, written);
    assert_eq!(written, [1, 0, 0, 0]);
    assert_eq!(moved[0], [0.0, 2.0, 0.0]);
}

#[test]
fn a_cold_read_of_the_animators_compiles_once() {
    // `bones` then `animators`: the fill reads the first, then (the last
    // truthy `animators` plays) reads the chosen object again; its Molang
    // is compiled once, within measure's count of both objects.
    let keys = animators(&[keyframe(
        "position",
        0.0,
        r#"{"x":"q.anim_time + 5","y":0,"z":0}"#,
    )]);
    let bones = keys.replacen("\"animators\"", "\"bones\"", 1);
    let bytes = model("5.0", &animation(&format!("{bones},{keys}")), "");
    let (planned, written, moved) = decode(&bytes, &[0.5]);
    assert_eq!(moved[0], [5.5, 0.0, 0.0]);
    assert!(written[0] <= planned[0] && written[1] <= planned[1]);
    assert_eq!(written[0], 1);
}

#[test]
fn pre_3_7_keyframe_values_on_the_keyframe_compile_too() {
    // Before 3.7 a keyframe holds its values itself (Keyframe.extend).
    let key = r#"{"channel":"position","time":0,"x":"q.anim_time * 2","y":0,"z":0}"#;
    let bytes = model(
        "3.6",
        &animation(&format!(
            r#""animators":{{"11111111-1111-1111-1111-111111111111":[{key}]}}"#
        )),
        "",
    );
    let (planned, written, moved) = decode(&bytes, &[0.5]);
    assert_eq!(planned, written);
    assert_eq!(written[0], 1);
    // Convention 13: position x negated before 5.0.
    assert_eq!(moved[0], [-1.0, 0.0, 0.0]);
}

mod support;

/// Every corpus .bbmodel: `decode_into` fits exactly `measure`'s arena,
/// and the Molang arrays are planned exactly (no corpus text reaches the
/// 1 KiB measuring size). Prints each Molang file's arrays in bytes.
#[test]
fn corpus_molang_is_planned_exactly() {
    let options = Options::default();
    let mut files = 0;
    for path in support::corpus_files("bbmodel", &[".bbmodel"]) {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(plan) = scenedec::measure(&bytes, Some("bbmodel"), &options) else {
            continue;
        };
        let mut words = vec![0u64; plan.arena_words()];
        let mut warnings = Box::new(Warnings::new());
        let mut arena = Arena::from_words(&mut words);
        let scene =
            scenedec::decode_into(&bytes, Some("bbmodel"), &options, &mut arena, &mut warnings)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            molang(plan.counts()),
            molang(&scene.counts()),
            "{}",
            path.display()
        );
        let [programs, nodes, text, placeholders] = molang(plan.counts());
        if programs + placeholders > 0 {
            files += 1;
            let bytes = programs * size_of::<scenedec::scene::ProgramRecord>()
                + nodes * size_of::<scenedec::scene::MolangNode>()
                + text
                + placeholders * size_of::<scenedec::scene::MolangPlaceholder>();
            println!(
                "molang arrays {bytes} bytes of {} ({programs} programs, {nodes} nodes, {text} text bytes, {placeholders} placeholders): {}",
                plan.arena_bytes(),
                path.display()
            );
        }
    }
    assert!(files > 0 || support::corpus_dir().is_none());
}
