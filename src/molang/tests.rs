//! End-to-end rules: text in, the value molangjs gives out.

use super::*;
use std::vec;
use std::vec::Vec;

/// Compiles and evaluates `src` at anim_time `t` with fresh variables.
pub(super) fn value_at(src: &str, t: f64) -> f64 {
    value_with(src, t, "")
}

pub(super) fn value_with(src: &str, t: f64, placeholders: &str) -> f64 {
    let limits = MolangLimits::default();
    let mut text = vec![0u8; text_len(src)];
    let source = prepare(src, &mut text, &limits).unwrap();
    let mut nodes = vec![MolangNode::ZERO; measure(&source, &limits, &mut Work::new()).unwrap()];
    let program = compile(&source, &mut nodes, &limits, &mut Work::new()).unwrap();

    let plan = plan_placeholders(placeholders);
    let mut ptext = vec![0u8; plan.text];
    let prepared = prepare_placeholders(placeholders, &mut ptext, &limits).unwrap();
    let mut pnodes =
        vec![MolangNode::ZERO; measure_placeholders(&prepared, &limits, &mut Work::new()).unwrap()];
    let mut entries = vec![Placeholder::EMPTY; plan.entries];
    let places = compile_placeholders(
        &prepared,
        &mut entries,
        &mut pnodes,
        &limits,
        &mut Work::new(),
    )
    .unwrap();

    let mut slots: Vec<Slot<'_>> = vec![Slot::EMPTY; 16];
    let mut vars = Variables::new(&mut slots, 1);
    let mut ctx = Context {
        times: Times {
            anim_time: t,
            life_time: t,
            delta_time: 0.05,
            this: 0.0,
        },
        variables: &mut vars,
        placeholders: &places,
        limits,
    };
    program.eval(&mut ctx).unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[track_caller]
fn is(src: &str, want: f64) {
    let got = value_at(src, 0.5);
    assert!(close(got, want), "{src}: got {got}, want {want}");
}

#[test]
fn numbers_operators_and_precedence() {
    is("1 + 2 * 3", 7.0);
    is("(1 + 2) * 3", 9.0);
    is("10 - 4 - 3", 3.0);
    is("2 * -3", -6.0);
    is("-q.anim_time * 2", -1.0);
    is("8 / 4 / 2", 1.0);
    is("1.5f * 2", 3.0);
    // isStringNumber needs digits before a point: '.5' is a name, 0.
    is(".5 + 1", 1.0);
    is("1e3", 0.0);
    is("", 0.0);
}

#[test]
fn comparison_logic_and_conditionals() {
    is("1 < 2", 1.0);
    is("2 <= 2 && 3 > 4", 0.0);
    is("1 == 1", 1.0);
    is("1 != 1", 0.0);
    is("!0", 1.0);
    is("q.anim_time > 0.25 ? 10 : 20", 10.0);
    is("0 ? 1 : 0 ? 2 : 3", 3.0);
    is("1 ? 5", 5.0);
    // molangjs splits && before ||: (1 || 0) && 0.
    is("1 || 0 && 0", 0.0);
    is("v.unset ?? 7", 7.0);
    is("v.a = 2; v.a ?? 7", 2.0);
    is("'abc' == 'abc'", 1.0);
}

#[test]
fn math_functions_in_degrees() {
    is("math.sin(90)", 1.0);
    is("math.cos(180)", -1.0);
    is("Math.Sin(q.anim_time * 180)", 1.0);
    is("math.asin(1)", 90.0);
    is("math.atan2(1, 1)", 45.0);
    is("math.clamp(5, 0, 3)", 3.0);
    is("math.lerp(0, 10, 0.25)", 2.5);
    is("math.lerprotate(350, 10, 0.5)", 0.0);
    is(
        "math.abs(-2) + math.floor(1.7) + math.ceil(1.2) + math.round(2.5) + math.trunc(-1.5)",
        7.0,
    );
    is(
        "math.sqrt(16) + math.pow(2, 3) + math.exp(0) + math.ln(1)",
        13.0,
    );
    is("math.mod(7, 3) + math.min(1, 2) + math.max(1, 2)", 4.0);
    is("math.pi", core::f64::consts::PI);
    is("math.hermite_blend(0.5)", 0.5);
    is("math.sign(-3) + math.copy_sign(2, -1)", -3.0);
    is("math.inverse_lerp(0, 10, 5)", 0.5);
    is("math.min_angle(190)", -170.0);
    is("math.ease_in_quad(0, 10, 0.5)", 2.5);
    is("math.ease_out_bounce(0, 1, 1)", 1.0);
    // An unknown math function is a call no one defines: 0.
    is("math.nope(1) + 1", 1.0);
    // NaN plays 0 (molangjs parse: `|| 0`).
    is("math.sqrt(-1)", 0.0);
}

#[test]
fn statements_variables_loops_and_return() {
    is("v.x = 3; v.y = v.x * 2; return v.y + 1;", 7.0);
    is("t.a = 1; return t.a; 99", 1.0);
    is("v.n = 0; loop(5, { v.n = v.n + 1; }); return v.n;", 5.0);
    is(
        "v.n = 0; loop(10, { v.n = v.n + 1; v.n >= 3 ? break; }); return v.n;",
        3.0,
    );
    // Without return, a scope gives its last statement's value.
    is("v.x = 4; v.x * 2", 8.0);
}

#[test]
fn queries_and_blockbench_names() {
    is("query.anim_time + q.life_time + q.delta_time", 1.05);
    is("q.time_stamp", 0.5);
    is("query.model_scale", 1.0 / 16.0);
    is(
        "query.in_range(2, 1, 3) + query.all(1, 1, 1) + query.any(1, 2, 1) + query.approx_eq(1, 1.00000001)",
        4.0,
    );
    is("q.unknown_query + 1", 1.0);
}

#[test]
fn placeholders_apply_as_blockbench_applies_them() {
    let p = "v.speed = 2\nvariable.size=q.anim_time*10\n v.slide = slider('a')\nv.Caps = 5\nv.speed = 3";
    assert_eq!(value_with("v.speed", 0.5, p), 3.0);
    assert_eq!(value_with("v.size + 1", 0.5, p), 6.0);
    assert_eq!(value_with("v.slide + 1", 0.5, p), 1.0);
    // Keys keep their case; expressions are lowercased: no match.
    assert_eq!(value_with("v.caps", 0.5, p), 0.0);
    // Blockbench 5: a call looked up with its arguments.
    let keyed = "q.f(1, 'a') = 5\nquery.g(0.5) = 7";
    assert_eq!(value_with("q.f(1, 'a') + 1", 0.5, keyed), 6.0);
    assert_eq!(value_with("q.f(2, 'a') + 1", 0.5, keyed), 1.0);
    assert_eq!(value_with("q.g(q.anim_time)", 0.5, keyed), 7.0);
    // An assigned variable wins over a placeholder.
    assert_eq!(value_with("v.speed = 9; v.speed", 0.5, p), 9.0);
}

#[test]
fn randomness_is_seeded_and_flagged() {
    let limits = MolangLimits::default();
    let src = "math.random(1, 2) + math.die_roll(2, 0, 1)";
    let mut text = vec![0u8; text_len(src)];
    let source = prepare(src, &mut text, &limits).unwrap();
    let mut nodes = vec![MolangNode::ZERO; measure(&source, &limits, &mut Work::new()).unwrap()];
    let program = compile(&source, &mut nodes, &limits, &mut Work::new()).unwrap();
    assert!(program.uses_randomness());
    let v = value_at(src, 0.0);
    assert!((1.0..4.0).contains(&v));
    assert_eq!(v, value_at(src, 0.0), "same seed, same value");
}

fn limits_with(f: impl FnOnce(&mut crate::BbmodelLimits)) -> MolangLimits {
    let mut l = crate::BbmodelLimits::DEFAULT;
    f(&mut l);
    MolangLimits::of(&l)
}

/// Compiles `src` under `limits`; the first error of prepare, measure or compile.
fn compiled(src: &str, limits: &MolangLimits) -> Result<usize, MolangError> {
    let mut text = vec![0u8; text_len(src)];
    let source = prepare(src, &mut text, limits)?;
    let n = measure(&source, limits, &mut Work::new())?;
    let mut nodes = vec![MolangNode::ZERO; n];
    compile(&source, &mut nodes, limits, &mut Work::new()).map(|_| n)
}

fn run_under(
    src: &str,
    limits: MolangLimits,
    slots: usize,
    placeholders: &str,
) -> Result<f64, MolangError> {
    let mut text = vec![0u8; text_len(src)];
    let source = prepare(src, &mut text, &limits)?;
    let mut nodes = vec![MolangNode::ZERO; measure(&source, &limits, &mut Work::new())?];
    let program = compile(&source, &mut nodes, &limits, &mut Work::new())?;
    let plan = plan_placeholders(placeholders);
    let mut ptext = vec![0u8; plan.text];
    let prepared = prepare_placeholders(placeholders, &mut ptext, &limits)?;
    let mut pnodes =
        vec![MolangNode::ZERO; measure_placeholders(&prepared, &limits, &mut Work::new())?];
    let mut entries = vec![Placeholder::EMPTY; plan.entries];
    let places = compile_placeholders(
        &prepared,
        &mut entries,
        &mut pnodes,
        &limits,
        &mut Work::new(),
    )?;
    let mut table = vec![Slot::EMPTY; slots];
    let mut vars = Variables::new(&mut table, 1);
    let mut ctx = Context {
        times: Times::default(),
        variables: &mut vars,
        placeholders: &places,
        limits,
    };
    program.eval(&mut ctx)
}

#[test]
fn max_molang_chars_at_value_and_one_past() {
    // maxMolangChars: UTF-16 units of the text as written, spaces included.
    let limits = limits_with(|l| l.max_molang_chars = 10);
    assert!(compiled("1 + 2 + 34", &limits).is_ok());
    let e = compiled("1 + 2 + 345", &limits).unwrap_err();
    assert_eq!((e.code, e.offset), (MolangErrorCode::TooLong, 10));
    // 'é' is one unit, '😀' two.
    assert!(compiled("é😀1234567", &limits).is_ok());
    assert!(compiled("é😀12345678", &limits).is_err());
}

#[test]
fn max_molang_depth_at_value_and_one_past() {
    // molangjs splits `+` at the last one, so n terms nest n - 1 deep.
    let limits = limits_with(|l| l.max_molang_depth = 5);
    let terms = |n: usize| vec!["1"; n].join(" + ");
    assert!(compiled(&terms(6), &limits).is_ok());
    let e = compiled(&terms(7), &limits).unwrap_err();
    assert_eq!(e.code, MolangErrorCode::TooDeep);
    assert_eq!(e.offset, 0, "the innermost sum starts the text");
}

#[test]
fn max_molang_statements_at_value_and_one_past() {
    let limits = limits_with(|l| l.max_molang_statements = 4);
    assert!(compiled("v.a = 1; v.b = 2; v.c = 3; return 4;", &limits).is_ok());
    let e = compiled("v.a = 1; v.b = 2; v.c = 3; v.d = 4; 5", &limits).unwrap_err();
    assert_eq!(e.code, MolangErrorCode::TooManyStatements);
}

#[test]
fn max_molang_steps_at_value_and_one_past() {
    // loop(n, 1): the loop, its count and n bodies: n + 2 steps.
    let limits = limits_with(|l| l.max_molang_steps = 100);
    assert_eq!(run_under("loop(98, 1)", limits, 0, ""), Ok(1.0));
    let e = run_under("loop(99, 1)", limits, 0, "").unwrap_err();
    assert_eq!(e.code, MolangErrorCode::TooManySteps);
    // Nested loops run out of steps, not of time: 1024^3 passes asked.
    let e = run_under(
        "loop(1024, loop(1024, loop(1024, 1)))",
        MolangLimits::default(),
        0,
        "",
    )
    .unwrap_err();
    assert_eq!(e.code, MolangErrorCode::TooManySteps);
    let e = run_under(
        "math.die_roll(1000000000, 1, 2)",
        MolangLimits::default(),
        0,
        "",
    )
    .unwrap_err();
    assert_eq!(e.code, MolangErrorCode::TooManySteps);
}

#[test]
fn a_full_variable_table_and_circular_placeholders_are_errors_not_crashes() {
    let limits = MolangLimits::default();
    assert_eq!(
        run_under("v.a = 1; v.b = 2; v.a + v.b", limits, 2, ""),
        Ok(3.0)
    );
    let e = run_under("v.a = 1; v.b = 2; v.c = 3", limits, 2, "").unwrap_err();
    assert_eq!(e.code, MolangErrorCode::TooManyVariables);
    // Blockbench recurses until JavaScript's stack overflows; here the
    // evaluation depth bound stops it.
    let e = run_under("v.loop + 1", limits, 0, "v.loop = v.loop + 1").unwrap_err();
    assert_eq!(e.code, MolangErrorCode::TooDeep);
}

#[test]
fn compile_refuses_a_node_array_of_the_wrong_length() {
    let limits = MolangLimits::default();
    let src = "1 + 2";
    let mut text = vec![0u8; text_len(src)];
    let source = prepare(src, &mut text, &limits).unwrap();
    let n = measure(&source, &limits, &mut Work::new()).unwrap();
    assert_eq!(n, 3);
    for wrong in [n - 1, n + 1] {
        let mut nodes = vec![MolangNode::ZERO; wrong];
        let e = compile(&source, &mut nodes, &limits, &mut Work::new()).unwrap_err();
        assert_eq!(e.code, MolangErrorCode::WrongPlan);
    }
    let mut short = vec![0u8; text_len(src) - 1];
    assert_eq!(
        prepare(src, &mut short, &limits).unwrap_err().code,
        MolangErrorCode::WrongPlan
    );
}

#[test]
fn nesting_reads_the_same_past_the_recursion() {
    // The first NESTED_LEVELS levels are read by recursion, the rest on the
    // open levels (run/): molangjs gives one value whatever the depth.
    // `!` n times over 1; `1+(1+(…))` (a value held at every level);
    // math.clamp(0,2,…) over its last operand (two held; molangjs's
    // clamp of 0 between 2 and anything is 2); each up to 120 deep, near
    // the default maxMolangDepth.
    for n in 1..=120usize {
        let close = ")".repeat(n);
        is(
            &std::format!("{}1", "!".repeat(n)),
            if n % 2 == 0 { 1.0 } else { 0.0 },
        );
        is(&std::format!("{}1{close}", "1+(".repeat(n)), (n + 1) as f64);
        is(
            &std::format!("{}1{close}", "math.clamp(0,2,".repeat(n)),
            2.0,
        );
    }
}

#[test]
fn a_program_past_the_open_levels_values_stops_as_too_deep() {
    // A call holds its first MAX_KEY_ARGS numbers (and its flags) while
    // its last argument is read: a chain of eight-argument calls holds
    // nine values a level, and EVAL_VALUES runs out near 28 levels deep.
    let chain = |n: usize| std::format!("{}1{}", "q.f(1,2,3,4,5,6,7,".repeat(n), ")".repeat(n));
    let limits = MolangLimits::default();
    assert_eq!(run_under(&chain(20), limits, 4, ""), Ok(0.0));
    let e = run_under(&chain(60), limits, 4, "").unwrap_err();
    assert_eq!(e.code, MolangErrorCode::TooDeep);
}
