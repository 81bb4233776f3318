//! The `molang` target's property, shared with `tests/fuzz_regressions.rs`
//! (beside `checks.rs`, which holds most targets').

use alloc::string::String;
use alloc::vec;

use scenedec::molang::{
    self, Context, MolangErrorCode, MolangLimits, MolangNode, Placeholder, Slot, Times, Variables,
};

/// Molang: any text (the part after the first NUL is the project's
/// placeholder text) prepares, measures, compiles and evaluates under the
/// default limits without a panic or hang; compile fills exactly the nodes
/// `measure` counted (one fewer is refused); evaluating twice from the
/// same fresh state gives the same value; every error offset lies on a
/// character boundary of the text it names.
pub fn molang(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (src, placeholders) = text.split_once('\0').unwrap_or((&text, ""));
    let limits = MolangLimits::default();
    // One stack of open levels for every call: each starts from whatever
    // the last one left, as `Work` allows.
    let mut work = molang::Work::new();
    let boundary = |s: &str, e: &molang::MolangError| {
        assert!(
            e.offset <= s.len() && s.is_char_boundary(e.offset),
            "{e} in {s:?}"
        );
    };
    if let Some(e) = molang::check(src) {
        boundary(src, &e);
    }

    let plan = molang::plan_placeholders(placeholders);
    let mut ptext = vec![0u8; plan.text];
    let places = match molang::prepare_placeholders(placeholders, &mut ptext, &limits) {
        Ok(p) => p,
        Err(e) => return boundary(placeholders, &e),
    };
    let pn = match molang::measure_placeholders(&places, &limits, &mut work) {
        Ok(n) => n,
        Err(e) => return assert_ne!(e.code, MolangErrorCode::WrongPlan),
    };
    let mut pnodes = vec![MolangNode::ZERO; pn];
    let mut entries = vec![Placeholder::EMPTY; plan.entries];
    let places =
        molang::compile_placeholders(&places, &mut entries, &mut pnodes, &limits, &mut work)
            .expect("placeholders compile as measured");

    let mut buf = vec![0u8; molang::text_len(src)];
    let source = match molang::prepare(src, &mut buf, &limits) {
        Ok(s) => s,
        Err(e) => return boundary(src, &e),
    };
    let n = match molang::measure(&source, &limits, &mut work) {
        Ok(n) => n,
        Err(e) => {
            boundary(src, &e);
            return;
        }
    };
    if n > 0 {
        let mut short = vec![MolangNode::ZERO; n - 1];
        let e = molang::compile(&source, &mut short, &limits, &mut work).unwrap_err();
        assert_eq!(e.code, MolangErrorCode::WrongPlan);
    }
    let mut nodes = vec![MolangNode::ZERO; n];
    let program =
        molang::compile(&source, &mut nodes, &limits, &mut work).expect("compiles as measured");

    // One evaluator stack for both: the second starts from what the first
    // left, as `EvalStack` allows.
    let mut stack = molang::EvalStack::new();
    let mut values = [None, None];
    for value in &mut values {
        let mut slots = vec![Slot::EMPTY; 8];
        let mut vars = Variables::new(&mut slots, 3);
        let mut ctx = Context {
            times: Times {
                anim_time: 0.75,
                life_time: 0.75,
                delta_time: 0.05,
                this: 1.0,
            },
            variables: &mut vars,
            placeholders: &places,
            limits,
        };
        let v = program.eval_with(&mut ctx, &mut stack);
        *value = Some(v.map(f64::to_bits));
    }
    assert_eq!(values[0], values[1], "same state, same value");
}
