//! Differential test of `scenedec::molang` against molangjs, the library
//! Blockbench evaluates keyframe Molang with (tools/molang-diff pins the
//! version Blockbench's package lock pins).
//!
//! Every non-numeric keyframe data point (`x`, `y`, `z` of
//! `data_points`) of every corpus .bbmodel (`../shared/corpus/bbmodel/`,
//! recursive), each with its file's `animation_variable_placeholders`,
//! a hand-written set covering every operator, function and
//! malformed shape, and 20 000 expressions generated from Molang's
//! pieces (fixed seed) are evaluated by both at several anim_time values.
//! Expressions that call the random family are skipped, counted and
//! named: molangjs draws from `Math.random`, scenedec from a seeded
//! generator.
//!
//! Tolerance: |scenedec − molangjs| ≤ 1e-9 · max(1, |molangjs|). Both do
//! the same IEEE operations in the same order; the math functions are
//! fdlibm ports on both sides (V8's `ieee754` and the libm crate) but
//! not guaranteed to round alike in the last bit, and expressions scale
//! such a difference by their constants (a few ulps of a value near 1
//! are ~1e-15; 1e-9 leaves room for factors up to 1e6, and still fails
//! on any rule difference, which moves values by far more).
//!
//! Needs Node and `npm ci` in tools/molang-diff (`.ci/run` does it).
//! Without them: fails under CI, says what it skipped otherwise.
//! `cargo test --test molang_diff -- --nocapture` prints the counts.

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use scenedec::molang::{
    self, Context, MolangLimits, MolangNode, Placeholder, Placeholders, Slot, Times, Variables,
    Work,
};
use serde_json::{Value, json};

/// How many generated expressions (see [`generated`]).
const GENERATED: usize = 20000;
const TIMES: [f64; 5] = [0.0, 0.25, 0.5, 1.0, 1.75];
const DELTA: f64 = 0.05;
const THIS: f64 = 0.0;

/// One operator, function or shape per line; malformed text included,
/// since molangjs gives it a value too.
const HAND_WRITTEN: &[&str] = &[
    "1 + 2 * 3 - 4 / 5",
    "(1 + 2) * (3 - 4) / 5",
    "10 - 4 - 3 + 2 - 1",
    "2 * 3 * 4 / 6 / 2",
    "8 / 2 * 4",
    "-q.anim_time * 3",
    "2 * -q.anim_time",
    "2 - -3",
    "--3",
    "1 +",
    "* 2",
    "1 + * 2",
    "()",
    "{1}",
    "((q.anim_time))",
    "(1 + 2",
    "1 + 2)",
    ".5 + 1",
    "1.5f * 2",
    "1e3",
    "5f",
    "1.",
    "q.anim_time < 0.5",
    "q.anim_time <= 0.5",
    "q.anim_time > 0.5",
    "q.anim_time >= 0.5",
    "q.anim_time == 0.5",
    "q.anim_time != 0.5",
    "1 < 2 == 1",
    "1 || 0 && 0",
    "0 && 1 || 1",
    "!q.anim_time",
    "!0 + 1",
    "!(q.anim_time > 0.3)",
    "q.anim_time > 0.3 ? 10 : -10",
    "q.anim_time > 0.3 ? 10",
    "q.anim_time < 0.3 ? 1 : q.anim_time < 1 ? 2 : 3",
    "q.anim_time ? q.anim_time ? 1 : 2 : 3",
    "v.unset ?? 4",
    "v.a = q.anim_time; v.a ?? 4",
    "(v.unset + 1) ?? 4",
    "'abc' == 'abc'",
    "'abc' == 'abd'",
    "'a' != 1",
    "math.sin(q.anim_time * 360)",
    "math.cos(q.anim_time * 360) * 5",
    "math.abs(math.sin(q.anim_time * 200)) * -7",
    "math.exp(q.anim_time) + math.ln(q.anim_time + 1)",
    "math.ln(q.anim_time)",
    "math.pow(q.anim_time, 3) + math.pow(2, 0.5)",
    "math.pow(1, 1/0)",
    "math.sqrt(q.anim_time * 7)",
    "math.ceil(q.anim_time * 3.3) + math.floor(q.anim_time * -3.3)",
    "math.round(q.anim_time * 5) + math.round(-2.5) + math.round(-0.4)",
    "math.trunc(q.anim_time * -3.7)",
    "math.mod(q.anim_time * 7, 2) + math.mod(-7, 3)",
    "math.min(q.anim_time, 0.3) + math.max(q.anim_time, 0.3)",
    "math.min(math.sqrt(-1), 1)",
    "math.clamp(q.anim_time * 4, 1, 3)",
    "math.clamp(math.sqrt(-1), 1, 3)",
    "math.lerp(-5, 5, q.anim_time)",
    "math.lerprotate(350, 10, q.anim_time)",
    "math.lerprotate(-170, 170, q.anim_time)",
    "math.lerprotate(10, 100, q.anim_time)",
    "math.asin(q.anim_time / 2) + math.acos(q.anim_time / 2)",
    "math.atan(q.anim_time) + math.atan2(q.anim_time, -1)",
    "math.hermite_blend(q.anim_time)",
    "math.min_angle(q.anim_time * 900 - 400)",
    "math.sign(q.anim_time - 0.5) + math.copy_sign(3, q.anim_time - 0.5)",
    "math.inverse_lerp(0.2, 1.2, q.anim_time)",
    "math.pi * q.anim_time",
    "math.pi",
    "math.PI",
    "Math.Sin(Q.Anim_Time * 90)",
    "math.sin",
    "math.sin()",
    "math.sin(30)x",
    "math.nope(1) + 2",
    "math.pow(2)",
    "math.clamp(5, 1)",
    "math.ease_in_quad(0, 10, q.anim_time)",
    "math.ease_out_quad(0, 10, q.anim_time)",
    "math.ease_in_out_quad(0, 10, q.anim_time)",
    "math.ease_in_cubic(0, 10, q.anim_time)",
    "math.ease_out_cubic(0, 10, q.anim_time)",
    "math.ease_in_out_cubic(0, 10, q.anim_time)",
    "math.ease_in_quart(0, 10, q.anim_time)",
    "math.ease_out_quart(0, 10, q.anim_time)",
    "math.ease_in_out_quart(0, 10, q.anim_time)",
    "math.ease_in_quint(0, 10, q.anim_time)",
    "math.ease_out_quint(0, 10, q.anim_time)",
    "math.ease_in_out_quint(0, 10, q.anim_time)",
    "math.ease_in_sine(0, 10, q.anim_time)",
    "math.ease_out_sine(0, 10, q.anim_time)",
    "math.ease_in_out_sine(0, 10, q.anim_time)",
    "math.ease_in_expo(0, 10, q.anim_time)",
    "math.ease_out_expo(0, 10, q.anim_time)",
    "math.ease_in_out_expo(0, 10, q.anim_time)",
    "math.ease_in_circ(0, 10, q.anim_time)",
    "math.ease_out_circ(0, 10, q.anim_time)",
    "math.ease_in_out_circ(0, 10, q.anim_time)",
    "math.ease_in_bounce(0, 10, q.anim_time)",
    "math.ease_out_bounce(0, 10, q.anim_time)",
    "math.ease_in_out_bounce(0, 10, q.anim_time)",
    "math.ease_in_back(0, 10, q.anim_time)",
    "math.ease_out_back(0, 10, q.anim_time)",
    "math.ease_in_out_back(0, 10, q.anim_time)",
    "math.ease_in_elastic(0, 10, q.anim_time)",
    "math.ease_out_elastic(0, 10, q.anim_time)",
    "math.ease_in_out_elastic(0, 10, q.anim_time)",
    "math.random(1, 2)",
    "math.random_integer(1, 6)",
    "math.die_roll(2, 1, 6)",
    "math.die_roll_integer(2, 1, 6)",
    "query.anim_time + query.life_time + query.delta_time",
    "q.time_stamp + time + q.state_time",
    "query.model_scale * 16",
    "q.all_animations_finished + q.any_animation_finished + q.is_first_person",
    "query.distance_from_camera",
    "this + 1",
    "q.unknown + 1",
    "query.in_range(q.anim_time, 0.2, 0.6)",
    "query.in_range(1, 2)",
    "query.all(1, 1, 1) + query.all(1, 1, 2)",
    "query.any(2, 1, 2) + query.any(3, 1, 2)",
    "query.approx_eq(0.1 + 0.2, 0.3)",
    "query.any('a', 'b', 'a')",
    "query.all()",
    "query.camera_rotation(0)",
    "q.some_function(1, 2) + 1",
    "v.x = 2; v.y = v.x * q.anim_time; return v.y + 1;",
    "v.x = 2; v.x * 3",
    "t.a = 5; return t.a; 99",
    "temp.a = 1; variable.b = temp.a + 1; v.b",
    "v.x == 1",
    "v.x = 3; v.x == 3",
    "return 5",
    "returnvalue",
    "return",
    "v.n = 0; loop(4, { v.n = v.n + q.anim_time; }); return v.n;",
    "v.n = 0; loop(10, { v.n = v.n + 1; v.n > 3 ? break; }); v.n",
    "v.n = 0; v.k = 0; loop(5, { v.k = v.k + 1; v.k < 3 ? continue; v.n = v.n + 1; }); v.n",
    "v.n = 0; loop(2000, { v.n = v.n + 1; }); v.n",
    "loop(3, 1)",
    "true + true",
    "false",
    "break",
    ";",
    ";;1",
    "1;2;3",
    "{ v.a = 1; }; v.a + 1",
    "v.a = 1 ? 2 : 3; v.a",
    "v.a == 1 ? 2 : 3",
    "1 / 0",
    "-1 / 0",
    "0 / 0",
    "q.anim_time * 1000000",
    "  1  +  2  ",
    "1\t+\n2",
    "é + 1",
    "v.é = 2; v.é",
    "#",
    "a b",
    "v.speed * 2",
    "v.size",
    "v.slide + 1",
    "v.Speed",
    "q.keyed(1, 'a') + 1",
    "q.keyed(2, 'a') + 1",
    "query.half(0.5) * 2",
    "q.half(q.anim_time)",
    "q.num('3')",
];

/// Expressions where scenedec and molangjs differ on purpose, each with
/// why. The test checks they still differ, so a list entry cannot hide a
/// match or go stale.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[(
    "constructor + 1",
    "molangjs looks names up in a plain JavaScript object, so `constructor` \
     finds Object.prototype.constructor, calls it and concatenates an \
     object with 1 into the string \"[object Object]1\"; scenedec reads an \
     unassigned name, 0",
)];

/// The hand-written set's placeholders (Blockbench's panel text).
const HAND_PLACEHOLDERS: &str = "v.speed = 2\nvariable.size=q.anim_time*10\n v.slide = slider('a')\nv.speed = 3\nv.Speed = 9\n\
     q.keyed(1, 'a') = 5\nquery.half(0.5) = 7 + q.anim_time\nq.num(3) = 4\n";

/// Expressions generated from Molang's pieces, well-formed or not, with a
/// fixed seed: operators, functions, names, numbers, brackets and stray
/// characters in random order, to reach splits no hand-written line does.
fn generated(count: usize) -> Vec<String> {
    const PIECES: &[&str] = &[
        "1",
        "2.5",
        "-3",
        "0",
        "10",
        ".5",
        "4f",
        "q.anim_time",
        "query.life_time",
        "v.a",
        "t.b",
        "v.c",
        "this",
        "math.pi",
        "math.sin(",
        "math.cos(",
        "math.clamp(",
        "math.lerp(",
        "math.abs(",
        "math.pow(",
        "math.mod(",
        "math.min(",
        "math.max(",
        "math.floor(",
        "math.round(",
        "math.sqrt(",
        "math.lerprotate(",
        "math.ease_in_out_sine(",
        "math.hermite_blend(",
        "query.in_range(",
        "query.any(",
        "loop(",
        "(",
        ")",
        "{",
        "}",
        ",",
        ";",
        "+",
        "-",
        "*",
        "/",
        "<",
        ">",
        "<=",
        ">=",
        "==",
        "!=",
        "&&",
        "||",
        "!",
        "?",
        ":",
        "??",
        "=",
        "return ",
        "break",
        "continue",
        " ",
        "'x'",
        "true",
        "false",
        "v.a=",
        "t.b=",
        "#",
        "Q.Anim_Time",
        "\t",
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    (0..count)
        .map(|_| {
            let len = 1 + next(12);
            (0..len)
                .map(|_| PIECES[next(PIECES.len())])
                .collect::<String>()
        })
        .collect()
}

struct Group {
    file: String,
    placeholders: String,
    expressions: Vec<String>,
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "bbmodel") {
            out.push(p);
        }
    }
}

/// Blockbench plays a data point as Molang when `isNaN(value)`.
fn is_molang(s: &str) -> bool {
    let t = s.trim();
    !t.is_empty() && t.parse::<f64>().is_err()
}

fn corpus_groups() -> Vec<Group> {
    let Some(dir) = support::corpus_dir() else {
        return Vec::new();
    };
    let mut files = Vec::new();
    walk(&dir.join("bbmodel"), &mut files);
    files.sort();
    let mut groups = Vec::new();
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let Ok(doc) = serde_json::from_slice::<Value>(&bytes) else {
            continue;
        };
        let mut found = BTreeSet::new();
        for anim in doc["animations"].as_array().into_iter().flatten() {
            for animator in anim["animators"]
                .as_object()
                .into_iter()
                .flat_map(|o| o.values())
            {
                for kf in animator["keyframes"].as_array().into_iter().flatten() {
                    for dp in kf["data_points"].as_array().into_iter().flatten() {
                        for axis in ["x", "y", "z"] {
                            if let Some(s) = dp[axis].as_str().filter(|s| is_molang(s)) {
                                found.insert(s.to_string());
                            }
                        }
                    }
                }
            }
        }
        if !found.is_empty() {
            groups.push(Group {
                file: path
                    .strip_prefix(&dir)
                    .unwrap_or(&path)
                    .display()
                    .to_string(),
                placeholders: doc["animation_variable_placeholders"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
                expressions: found.into_iter().collect(),
            });
        }
    }
    groups
}

/// molangjs's values, or `None` (having said why) when Node or the
/// package is missing outside CI.
fn molangjs(groups: &[Group]) -> Option<Vec<Vec<Vec<f64>>>> {
    let input = json!({
        "times": TIMES,
        "delta_time": DELTA,
        "this": THIS,
        "groups": groups.iter().map(|g| json!({
            "placeholders": g.placeholders,
            "expressions": g.expressions,
        })).collect::<Vec<_>>(),
    });
    let out = support::node::run_tool("molang-diff", "molangjs", "eval.mjs", &input)?;
    assert_eq!(
        out["version"], "1.7.0",
        "the molangjs version Blockbench locks"
    );
    let num = |v: &Value| match v {
        Value::Number(n) => n.as_f64().unwrap(),
        Value::String(s) => match s.as_str() {
            "Infinity" => f64::INFINITY,
            "-Infinity" => f64::NEG_INFINITY,
            _ => f64::NAN,
        },
        _ => panic!("unexpected {v}"),
    };
    Some(
        out["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                g.as_array()
                    .unwrap()
                    .iter()
                    .map(|e| e.as_array().unwrap().iter().map(num).collect())
                    .collect()
            })
            .collect(),
    )
}

/// scenedec's values for one group, `None` for an expression that uses
/// randomness.
fn scenedec_values(group: &Group) -> Vec<Option<Vec<f64>>> {
    let limits = MolangLimits::default();
    let plan = molang::plan_placeholders(&group.placeholders);
    let mut ptext = vec![0u8; plan.text];
    let prepared = molang::prepare_placeholders(&group.placeholders, &mut ptext, &limits).unwrap();
    let mut pnodes = vec![
        MolangNode::ZERO;
        molang::measure_placeholders(&prepared, &limits, &mut Work::new())
            .unwrap()
    ];
    let mut entries = vec![Placeholder::EMPTY; plan.entries];
    let places: Placeholders<'_, '_> = molang::compile_placeholders(
        &prepared,
        &mut entries,
        &mut pnodes,
        &limits,
        &mut Work::new(),
    )
    .unwrap();
    group
        .expressions
        .iter()
        .map(|src| {
            let mut text = vec![0u8; molang::text_len(src)];
            let source = molang::prepare(src, &mut text, &limits)
                .unwrap_or_else(|e| panic!("{}: {src:?}: {e}", group.file));
            let n = molang::measure(&source, &limits, &mut Work::new()).unwrap();
            let mut nodes = vec![MolangNode::ZERO; n];
            let program = molang::compile(&source, &mut nodes, &limits, &mut Work::new()).unwrap();
            if program.uses_randomness() {
                return None;
            }
            let mut slots = vec![Slot::EMPTY; program.assignments()];
            Some(
                TIMES
                    .iter()
                    .map(|&t| {
                        let mut vars = Variables::new(&mut slots, 1);
                        let mut ctx = Context {
                            times: Times {
                                anim_time: t,
                                life_time: t,
                                delta_time: DELTA,
                                this: THIS,
                            },
                            variables: &mut vars,
                            placeholders: &places,
                            limits,
                        };
                        program.eval(&mut ctx).unwrap_or(0.0)
                    })
                    .collect(),
            )
        })
        .collect()
}

fn same(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn every_corpus_and_hand_written_expression_matches_molangjs() {
    let mut groups = corpus_groups();
    let corpus_groups = groups.len();
    groups.push(Group {
        file: "known differences".into(),
        placeholders: String::new(),
        expressions: KNOWN_DIFFERENCES
            .iter()
            .map(|(s, _)| s.to_string())
            .collect(),
    });
    groups.push(Group {
        file: "hand-written".into(),
        placeholders: HAND_PLACEHOLDERS.into(),
        expressions: HAND_WRITTEN.iter().map(|s| s.to_string()).collect(),
    });
    groups.push(Group {
        file: "generated".into(),
        placeholders: HAND_PLACEHOLDERS.into(),
        expressions: generated(GENERATED),
    });
    let Some(mut expected) = molangjs(&groups) else {
        return;
    };
    let mut corpus = (0, 0, 0); // expressions, matching, random
    let mut hand = (0, 0, 0);
    let mut made = (0, 0, 0);
    let mut made_nonzero = 0;
    let mut mismatches = Vec::new();
    let mut max_rel = 0f64;
    let (known, known_want) = (groups.remove(corpus_groups), expected.remove(corpus_groups));
    for ((src, got), want) in known
        .expressions
        .iter()
        .zip(scenedec_values(&known))
        .zip(&known_want)
    {
        let got = got.unwrap();
        assert!(
            !got.iter().zip(want).all(|(a, b)| same(*a, *b)),
            "{src:?} is listed as a known difference but now matches molangjs"
        );
    }
    for (g, (group, want)) in groups.iter().zip(&expected).enumerate() {
        let counts = if g < corpus_groups {
            &mut corpus
        } else if group.file == "hand-written" {
            &mut hand
        } else {
            &mut made
        };
        for ((src, got), want) in group
            .expressions
            .iter()
            .zip(scenedec_values(group))
            .zip(want)
        {
            counts.0 += 1;
            let Some(got) = got else {
                counts.2 += 1;
                if group.file != "generated" {
                    eprintln!("random, skipped: {}: {src:?}", group.file);
                }
                continue;
            };
            if got.iter().zip(want).all(|(a, b)| same(*a, *b)) {
                counts.1 += 1;
                if group.file == "generated" && want.iter().any(|v| *v != 0.0) {
                    made_nonzero += 1;
                }
                for (a, b) in got.iter().zip(want) {
                    if a.is_finite() && b.is_finite() && a != b {
                        max_rel = max_rel.max((a - b).abs() / b.abs().max(1.0));
                    }
                }
            } else {
                mismatches.push(format!(
                    "{}: {src:?}: scenedec {got:?}, molangjs {want:?}",
                    group.file
                ));
            }
        }
    }
    eprintln!(
        "corpus: {} files with Molang, {} expressions, {} match, {} random (skipped); hand-written: {} expressions, {} match, {} random (skipped); generated: {} expressions, {} match ({made_nonzero} of them not always 0), {} random (skipped); largest relative difference among matches {max_rel:e}",
        corpus_groups, corpus.0, corpus.1, corpus.2, hand.0, hand.1, hand.2, made.0, made.1, made.2
    );
    assert!(
        mismatches.is_empty(),
        "{} differ:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
