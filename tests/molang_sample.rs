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
                    vec![m(
                        "v.phase = q.anim_time * 10; return v.phase",
                        "v.spin",
                        "0",
                    )],
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
            bone(vec![keyframe(
                "position",
                0.0,
                vec![m("v.w = 0.5; return 4", "0", "0")],
            )]),
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

/// The steps molangjs's evaluation of `text` takes as scenedec counts them
/// (`maxMolangSteps`): the least limit under which it gives its value.
fn steps_of(text: &str) -> u64 {
    use scenedec::molang::{
        self, Context, MolangLimits, Placeholders, Slot, Times, Variables, Work,
    };
    let run = |max_steps: u64| {
        let limits = MolangLimits {
            max_steps,
            ..MolangLimits::default()
        };
        let mut buf = vec![0u8; molang::text_len(text)];
        let source = molang::prepare(text, &mut buf, &limits).unwrap();
        let mut nodes = vec![
            molang::MolangNode::ZERO;
            molang::measure(&source, &limits, &mut Work::new()).unwrap()
        ];
        let program = molang::compile(&source, &mut nodes, &limits, &mut Work::new()).unwrap();
        let mut slots = [Slot::EMPTY; 4];
        let mut variables = Variables::new(&mut slots, 1);
        let mut ctx = Context {
            times: Times::default(),
            variables: &mut variables,
            placeholders: &Placeholders::EMPTY,
            limits,
        };
        program.eval(&mut ctx).is_ok()
    };
    (1..1000).find(|n| run(*n)).unwrap()
}

#[test]
fn limit_max_molang_steps_reaches_pose_and_the_gltf_export_at_n_and_n_plus_1() {
    // `--limit` sets the decode's Molang limits; the scene keeps them
    // (molang_bounds) so sampling plays by them: at the steps the text
    // takes it plays its value, one fewer stops it and it plays 0.
    let text = "math.sin(q.anim_time * 90) * 8 + 4";
    let n = steps_of(text);
    let clip = Animation::new("a").set("length", 1.0).animator(
        HEAD,
        bone(vec![keyframe("position", 0.0, vec![m(text, "0", "0")])]),
    );
    let dir = std::env::temp_dir().join(format!("scenedec-molang-limit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("m.bbmodel");
    std::fs::write(&file, rig5(vec![clip]).bytes()).unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_scenedec"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    // Head's world x at 1 s (rest 0): 8 · sin(90°) + 4 = 12, or 0.
    let head_x = |limit: u64| {
        let limit = format!("maxMolangSteps={limit}");
        let f = file.to_str().unwrap();
        let out = run(&["pose", f, "--time", "1", "--json", "--limit", &limit]);
        let o: Value = serde_json::from_str(&out).unwrap();
        o["nodes"][N_HEAD as usize]["world"][12].as_f64().unwrap()
    };
    assert!((head_x(n) - 12.0).abs() < 1e-5, "{}", head_x(n));
    assert_eq!(head_x(n - 1), 0.0);
    // The export samples through the same scene: its translation output
    // holds 12 at 1 s under N, in metres (1/16 for .bbmodel, docs/export.md),
    // and only 0 under N − 1.
    let exported_max = |limit: u64| {
        let out = dir.join(format!("m{limit}.glb"));
        let limit = format!("maxMolangSteps={limit}");
        let (f, o) = (file.to_str().unwrap(), out.to_str().unwrap());
        run(&["convert", f, "-o", o, "--limit", &limit]);
        let glb = std::fs::read(&out).unwrap();
        let read = support::gltf_read::ReadBack::new(&glb);
        let mut max = f32::MIN;
        for animation in read.doc.animations() {
            for channel in animation.channels() {
                let reader = channel.reader(|_| Some(&read.blob[..]));
                if let Some(gltf::animation::util::ReadOutputs::Translations(t)) =
                    reader.read_outputs()
                {
                    max = t.map(|v| v[0]).fold(max, f32::max);
                }
            }
        }
        max
    };
    let at_n = exported_max(n);
    assert!((at_n - 12.0 / 16.0).abs() < 1e-6, "{at_n}");
    assert!(exported_max(n - 1).abs() < 1e-6);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// (input times, x of the translation outputs) of every translation
/// channel of a written document.
fn translation_tracks(glb: &[u8]) -> Vec<(Vec<f32>, Vec<f32>)> {
    let read = support::gltf_read::ReadBack::new(glb);
    let mut found = Vec::new();
    for animation in read.doc.animations() {
        for channel in animation.channels() {
            let reader = channel.reader(|_| Some(&read.blob[..]));
            if let Some(gltf::animation::util::ReadOutputs::Translations(t)) = reader.read_outputs()
            {
                let times = reader.read_inputs().unwrap().collect();
                found.push((times, t.map(|v| v[0]).collect()));
            }
        }
    }
    found
}

/// A length-0 clip of `loop_mode` moving Head along x by `text`.
fn continuous(loop_mode: &str, text: &str) -> Vec<u8> {
    let clip = Animation::new("idle").set("loop", loop_mode).animator(
        HEAD,
        bone(vec![keyframe("position", 0.0, vec![m(text, "0", "0")])]),
    );
    rig5(vec![clip]).bytes()
}

#[test]
fn a_length_0_loop_clip_whose_molang_runs_on_exports_over_the_continuous_length() {
    // Blockbench's Timeline.loop plays a clip of length 0 up to
    // `Animation.selected.length || 1e3` s, and its Bedrock export writes
    // it `loop: true` (compileAnimation: `animation.getMaxLength() == 0`):
    // the Molang runs on. The export samples it over continuous_length
    // (24 s unless set), each frame the pose Scene::sample gives.
    use scenedec::export::gltf::{Options, animations::DEFAULT_CONTINUOUS_LENGTH, export};
    let bytes = continuous("loop", "math.sin(q.anim_time * 90) * 4");
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let options = Options {
        fps: 10.0,
        ..Options::default()
    };
    let out = export(&scene, "m", &options).unwrap();
    let tracks = translation_tracks(&out.main);
    assert_eq!(tracks.len(), 1);
    let (times, xs) = &tracks[0];
    assert_eq!(DEFAULT_CONTINUOUS_LENGTH, 24.0);
    assert_eq!(times.len(), 241);
    assert_eq!(*times.last().unwrap(), 24.0);
    let mut poses = vec![NodePose::default(); scene.nodes().len()];
    for (t, x) in times.iter().zip(xs) {
        scene.sample(0, *t, &mut poses).unwrap();
        let want =
            poses[N_HEAD as usize].translation[0] - scene.nodes()[N_HEAD as usize].translation[0];
        assert!((x - want).abs() < 1e-6, "{t}: {x} vs {want}");
    }
    // A whole number of the 4 s period: the loop closes without a seam.
    assert!((xs[0] - xs[240]).abs() < 1e-5);
    assert!(xs.iter().any(|x| (x - 4.0).abs() < 1e-5));
    // Set to 2 s: 21 frames, ending half way through the period.
    let short = Options {
        continuous_length: 2.0,
        ..options
    };
    let tracks = translation_tracks(&export(&scene, "m", &short).unwrap().main);
    assert_eq!(tracks[0].0.len(), 21);
    // Hold plays on too; once stays one frame (the specification returns it
    // to rest after its end, 0); without Molang a length-0 clip is one frame.
    for (mode, text, frames) in [
        ("hold", "q.anim_time", 241),
        ("once", "q.anim_time", 1),
        ("loop", "3", 1),
    ] {
        let bytes = continuous(mode, text);
        let loaded = load(&bytes);
        let tracks = translation_tracks(&export(&loaded.scene(), "m", &options).unwrap().main);
        assert_eq!(tracks[0].0.len(), frames, "{mode} {text}");
    }
}

#[test]
fn continuous_length_is_taken_up_to_1000_seconds_and_refused_past_it() {
    // 1000 s: Blockbench's preview length for a clip of length 0.
    let dir = std::env::temp_dir().join(format!("scenedec-continuous-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("c.bbmodel");
    std::fs::write(&file, continuous("loop", "q.anim_time")).unwrap();
    let code = |len: &str| {
        let out = dir.join(format!("c{len}.glb"));
        let args = [
            "convert",
            file.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ];
        std::process::Command::new(env!("CARGO_BIN_EXE_scenedec"))
            .args(args)
            .args(["--fps", "1", "--continuous-length", len])
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(code("1000"), Some(0));
    assert_eq!(code("1000.001"), Some(2));
    assert_eq!(code("0"), Some(2));
    let glb = std::fs::read(dir.join("c1000.glb")).unwrap();
    assert_eq!(translation_tracks(&glb)[0].0.last(), Some(&1000.0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn anim_time_update_warns_and_a_sample_plays_the_time_set_as_blockbench_does() {
    // Blockbench reads anim_time_update only in Timeline.loop (real-time
    // playback: `new_time = parse(anim_time_update)` when later than now,
    // with query.delta_time from the wall clock). Timeline.setTime and its
    // glTF exporter (`Timeline.time = time; animator.interpolate(...)`)
    // show the clip at the time set, without it. So the clip samples as
    // the same clip without the field, and the field warns with that reason.
    let clip = |update: Option<&str>| {
        let mut a = Animation::new("a").set("length", 2.0).set("loop", "loop");
        if let Some(u) = update {
            a = a.set("anim_time_update", u);
        }
        a.animator(
            HEAD,
            bone(vec![
                keyframe("position", 0.0, vec![m("q.anim_time * 3", "0", "0")]),
                keyframe("position", 2.0, vec![m("1", "0", "0")]),
            ]),
        )
    };
    let with = rig5(vec![clip(Some("q.anim_time + q.delta_time * 2"))]).bytes();
    let without = rig5(vec![clip(None)]).bytes();
    let loaded = load(&with);
    let w = loaded.warnings();
    let w: Vec<_> = w.as_slice().iter().collect();
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].code(), scenedec::WarningCode::UnsupportedValue);
    assert_eq!(w[0].at().to_string(), "$.animations[0].anim_time_update");
    assert!(w[0].to_string().contains("Timeline.loop"), "{}", w[0]);
    for t in [0.0, 0.3, 1.0, 1.7, 2.5] {
        let (a, b) = (moved(&with, t), moved(&without, t));
        assert_eq!(a, b, "{t}");
        assert!(t == 0.0 || a[N_HEAD as usize][0] != 0.0, "{t}");
    }
}

/// Chains of values that write and read variables, in the order
/// Blockbench evaluates them (body, Head, arm: Group.all).
const CHAINS: [[&str; 3]; 5] = [
    [
        "v.a = q.anim_time * 2; return v.a",
        "v.b = v.a + 1; return v.b * v.a",
        "v.a + v.b + (t.x ?? 5)",
    ],
    [
        "t.x = 3; return t.x",
        "v.c = (v.c ?? 0) + t.x; return v.c",
        "v.c * 2 + math.sin(v.c * 30)",
    ],
    [
        "v.i = 0; loop(4, {v.i = v.i + q.anim_time;}); return v.i",
        "v.i",
        "v.i ?? 9",
    ],
    [
        "v.s = q.anim_time > 0.5 ? 1 : -1; return 0",
        "v.s * 4",
        "variable.s == 1 ? v.s : v.missing ?? 7",
    ],
    [
        "v.x = v.x ?? 2; return v.x",
        "v.x = v.x * 3; return v.x",
        "v.x",
    ],
];

#[test]
fn chained_variables_match_molangjs_evaluating_the_values_in_blockbench_order() {
    // tools/molang-diff/eval.mjs, "chain": molangjs's variables reset once
    // per time, the expressions then parsed in order; here one sample of a
    // clip whose body, Head and arm positions hold them, the arm's
    // animator listed first in the file (Group.all decides the order).
    let times = [0.0f32, 0.2, 0.5, 0.75, 0.9];
    let groups: Vec<Value> = CHAINS
        .iter()
        .map(|c| json!({"placeholders": "", "expressions": c, "chain": true}))
        .collect();
    let input = json!({
        "times": times.iter().map(|&t| f64::from(t)).collect::<Vec<_>>(),
        "delta_time": 0.0,
        "this": 0.0,
        "groups": groups,
    });
    let Some(out) = support::node::run_tool("molang-diff", "molangjs", "eval.mjs", &input) else {
        return;
    };
    let mut compared = 0;
    for (g, chain) in CHAINS.iter().enumerate() {
        let position = |text: &str| bone(vec![keyframe("position", 0.0, vec![m(text, "0", "0")])]);
        let clip = Animation::new("a")
            .set("length", 1.0)
            .animator(ARM, position(chain[2]))
            .animator(BODY, position(chain[0]))
            .animator(HEAD, position(chain[1]));
        let bytes = rig5(vec![clip]).bytes();
        for (k, &t) in times.iter().enumerate() {
            let moved = moved(&bytes, t);
            // Head sits inside body: its translation is its own.
            for (node, expected) in [N_BODY, N_HEAD, N_ARM].iter().zip(0..3) {
                let want = out["values"][g][expected][k].as_f64().unwrap();
                let got = f64::from(moved[*node as usize][0]);
                assert!(
                    (got - want).abs() <= 1e-5 * want.abs().max(1.0),
                    "chain {g} value {expected} at {t}: {got} vs molangjs {want}"
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, CHAINS.len() * times.len() * 3);
}
