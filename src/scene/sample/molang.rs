//! Molang keyframe values at one sample, as Blockbench plays them.
//!
//! Blockbench reads every keyframe value through `Keyframe.calc`, which
//! parses the data point's text with molangjs at the time shown
//! (`BoneAnimator.interpolate` → `getLerp` / `getCatmullromLerp`): so a
//! Molang keyframe's value changes between keyframes. The decode compiled
//! each such text once into the scene (`molang_programs`, `molang_nodes`,
//! `molang_text`); here a keyframe whose [`KeyframeSource`] marks Molang
//! axes has those programs evaluated with:
//!
//! - `query.anim_time`: the clip time sampled (the animation's `time`);
//!   `query.life_time`: the time asked (the timeline's); `query.delta_time`
//!   0 (a sample has no previous frame); `this` 0 (Blockbench resets its
//!   last values per bone, `Animator.resetLastValues`, and one clip never
//!   reads another's);
//! - the sample's variable table (`molang_vars.rs`), shared by its values;
//! - the project's `animation_variable_placeholders`, compiled by the
//!   decode (`molang_placeholders`);
//! - randomness from a generator seeded by the keyframe, axis and time, so
//!   a sample gives the same value every time.
//!
//! The value then takes the constant's way: convention 13's sign migration
//! (rotation x, y and position x), degrees to radians, a negative scale to
//! 0.00001, and (for the glTF export) bounded to ±10⁶ like every constant.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "bit positions below 6 and point indices below 2"
)]

use super::super::{ChannelTarget, KeyframeRecord, KeyframeSource, Scene};
pub use super::molang_vars::MAX_PLAYED_VARIABLES;
use super::molang_vars::Table;
use crate::molang::{
    Context, EvalStack, MolangLimits, MolangNode, Placeholders, Program, ProgramRecord, Rng, Times,
};
use core::cell::RefCell;

/// Bound on an evaluated value, as the reader bounds constants (spec Limits).
const MAX_VALUE: f64 = 1_000_000.0;
/// The scale a negative scale plays as (the reader's `MIN_SCALE`).
const MIN_SCALE: f32 = 0.000_01;

/// What one sample gives every Molang value: the times, the scene's
/// programs and the variables the sample's values share.
#[derive(Clone, Copy)]
pub(super) struct Sampling<'a, 'p> {
    /// The scene's `molang_programs`, `molang_nodes` and `molang_text`.
    pub(super) programs: &'a [ProgramRecord],
    pub(super) nodes: &'a [MolangNode],
    pub(super) text: &'a [u8],
    pub(super) placeholders: &'p Placeholders<'a, 'a>,
    pub(super) target: ChannelTarget,
    /// Clip time (`query.anim_time`), seconds.
    pub(super) anim_time: f32,
    /// Time asked (`query.life_time`), seconds.
    pub(super) life_time: f32,
    /// The variables this sample's values have set so far
    /// (`molang_vars.rs`).
    pub(super) variables: &'p RefCell<Table<'p, 'a>>,
    /// The evaluator's open levels, one stack for the sample's values.
    pub(super) stack: &'p RefCell<EvalStack>,
    /// The decode's Molang limits (`--limit`, `with_override`).
    pub(super) limits: MolangLimits,
}

/// `key` with its Molang axes evaluated at this sample; `index` (the
/// keyframe's index in the scene) seeds the random functions.
pub(super) fn resolve(
    s: &Sampling<'_, '_>,
    source: Option<&KeyframeSource>,
    index: usize,
    key: &KeyframeRecord,
) -> KeyframeRecord {
    let Some(source) = source.filter(|src| src.molang & KeyframeSource::AXES != 0) else {
        return *key;
    };
    let mut out = *key;
    for bit in 0..6u32 {
        if source.molang & (1 << bit) == 0 {
            continue;
        }
        let (point, axis) = ((bit / 3) as usize, (bit % 3) as usize);
        let Some(program) = source.program(bit) else {
            // One data point: Blockbench's calc reads it once per axis for
            // either end; evaluating it again would run its assignments twice.
            if let (Some(post), Some(pre)) = (out.post.get_mut(axis), out.pre.get(axis)) {
                *post = *pre;
            }
            continue;
        };
        let seed = seed(index, bit as usize, s.anim_time);
        let value = evaluate(s, program, seed);
        let value = convert(s.target, source.molang, axis, value);
        let slot = if point == 0 {
            &mut out.pre
        } else {
            &mut out.post
        };
        if let Some(v) = slot.get_mut(axis) {
            *v = value;
        }
    }
    out
}

impl Scene<'_> {
    /// Whether clip `clip` plays Molang: a keyframe of one of its channels
    /// holds a Molang value, or it has a `blend_weight`. Such a clip of
    /// length 0 runs on (a Bedrock continuous animation).
    pub fn clip_runs_molang(&self, clip: usize) -> bool {
        let Some(record) = self.animations().get(clip) else {
            return false;
        };
        let weighted = self
            .clip_blend_weights()
            .get(clip)
            .is_some_and(|p| *p != crate::molang::NONE);
        let first = record.first_channel as usize;
        let channels = self.channels().get(first..).unwrap_or_default();
        let channels = channels
            .get(..record.channel_count as usize)
            .unwrap_or(channels);
        weighted
            || channels.iter().any(|c| {
                let first = c.first_keyframe as usize;
                let end = first.saturating_add(c.keyframe_count as usize);
                self.keyframe_sources()
                    .get(first..end)
                    .is_some_and(|s| s.iter().any(|s| s.molang & KeyframeSource::AXES != 0))
            })
    }
}

/// The clip's `blend_weight` at this sample: Blockbench's
/// `stackAnimations` multiplier, `clamp(parse(blend_weight), 0, ∞)`, or 1
/// for none (`program` [`crate::molang::NONE`]).
pub(super) fn blend_weight(s: &Sampling<'_, '_>, program: u32) -> f32 {
    if program == crate::molang::NONE {
        return 1.0;
    }
    #[allow(clippy::cast_possible_truncation)]
    let weight = evaluate(s, program as usize, seed(usize::MAX, 7, s.anim_time)).max(0.0) as f32;
    weight
}

/// A splitmix64 seed per keyframe, axis and time.
fn seed(index: usize, bit: usize, time: f32) -> u64 {
    (index as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add((bit as u64) << 32)
        .wrapping_add(u64::from(time.to_bits()))
}

/// An evaluated value (degrees for rotation) as the scene holds values.
#[allow(clippy::cast_possible_truncation)]
fn convert(target: ChannelTarget, flags: u32, axis: usize, value: f64) -> f32 {
    let mut v = value.clamp(-MAX_VALUE, MAX_VALUE);
    if flags & KeyframeSource::BEFORE_5 != 0 {
        let flip = match target {
            ChannelTarget::Rotation => axis < 2,
            ChannelTarget::Translation => axis == 0,
            ChannelTarget::Scale => false,
        };
        if flip {
            v = -v;
        }
    }
    match target {
        ChannelTarget::Rotation => v.to_radians() as f32,
        ChannelTarget::Translation => v as f32,
        ChannelTarget::Scale if v < 0.0 => MIN_SCALE,
        ChannelTarget::Scale => v as f32,
    }
}

/// The value molangjs gives program `program` (an index into the scene's
/// `molang_programs`) at this sample, with the variables the sample
/// carries; what it assigns is carried on to the next value. 0 for a
/// text the decode could not compile, or a limit met.
fn evaluate(s: &Sampling<'_, '_>, program: usize, seed: u64) -> f64 {
    let record = s
        .programs
        .get(program)
        .copied()
        .unwrap_or(ProgramRecord::EMPTY);
    let program = Program::of_record(&record, s.nodes, s.text);
    evaluate_program(&program, s, seed)
}

/// [`evaluate`] of a program already viewed.
fn evaluate_program<'a>(program: &Program<'a>, s: &Sampling<'a, '_>, seed: u64) -> f64 {
    if program.is_empty() {
        return 0.0;
    }
    let mut variables = s.variables.borrow_mut();
    variables.rng = Rng(seed);
    let mut ctx = Context {
        times: Times {
            anim_time: f64::from(s.anim_time),
            life_time: f64::from(s.life_time),
            delta_time: 0.0,
            this: 0.0,
        },
        variables: &mut variables,
        placeholders: s.placeholders,
        limits: s.limits,
    };
    program
        .eval_with(&mut ctx, &mut s.stack.borrow_mut())
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::molang::{Placeholder, Work, compile_placeholders, measure_placeholders};
    use std::string::String;
    use std::vec;

    /// `text` compiled as the decode compiles it, kept for the test's
    /// length; the empty program when it meets a limit.
    fn compiled(text: &str) -> Program<'static> {
        let limits = MolangLimits::default();
        let buf: &'static mut [u8] = vec![0u8; crate::molang::text_len(text)].leak();
        let Ok(source) = crate::molang::prepare(text, buf, &limits) else {
            return Program::EMPTY;
        };
        let Ok(n) = crate::molang::measure(&source, &limits, &mut Work::new()) else {
            return Program::EMPTY;
        };
        let nodes = vec![MolangNode::ZERO; n].leak();
        crate::molang::compile(&source, nodes, &limits, &mut Work::new()).unwrap_or(Program::EMPTY)
    }

    /// The placeholders `text` defines, compiled as the decode compiles them.
    fn placeholders(text: &str) -> Placeholders<'static, 'static> {
        let limits = MolangLimits::default();
        let plan = crate::molang::plan_placeholders(text);
        let buf = vec![0u8; plan.text].leak();
        let prepared = crate::molang::prepare_placeholders(text, buf, &limits).unwrap();
        let n = measure_placeholders(&prepared, &limits, &mut Work::new()).unwrap();
        let entries = vec![Placeholder::EMPTY; plan.entries].leak();
        let nodes = vec![MolangNode::ZERO; n].leak();
        compile_placeholders(&prepared, entries, nodes, &limits, &mut Work::new()).unwrap()
    }

    fn sampling<'p>(
        placeholders: &'p Placeholders<'static, 'static>,
        variables: &'p RefCell<Table<'p, 'static>>,
    ) -> Sampling<'static, 'p> {
        Sampling {
            programs: &[],
            nodes: &[],
            text: &[],
            placeholders,
            target: ChannelTarget::Translation,
            anim_time: 0.5,
            life_time: 0.5,
            variables,
            stack: std::boxed::Box::leak(std::boxed::Box::default()),
            limits: MolangLimits::default(),
        }
    }

    /// The value of `text` in `s`.
    fn value_in(text: &str, s: &Sampling<'static, '_>) -> f64 {
        evaluate_program(&compiled(text), s, 1)
    }

    /// The value of `text` at anim_time 0.5, no variable carried in.
    fn value(text: &str) -> f64 {
        let mut slots = super::super::molang_vars::slots();
        let variables = RefCell::new(Table::new(&mut slots, 0));
        value_in(text, &sampling(&Placeholders::EMPTY, &variables))
    }

    #[test]
    fn variables_carry_from_one_value_to_the_next_within_a_sample() {
        // molangjs iterateExp: `context[T.name] = self.variables[T.name] =
        // …`, and `calculate` starts every parse from self.variables, so a
        // later value reads what an earlier one assigned (variable.* and
        // temp.* alike, until resetVariables).
        let mut slots = super::super::molang_vars::slots();
        let variables = RefCell::new(Table::new(&mut slots, 0));
        let s = sampling(&Placeholders::EMPTY, &variables);
        assert_eq!(value_in("v.phase = q.anim_time * 4; return 1", &s), 1.0);
        assert_eq!(value_in("t.k = 3; return v.phase", &s), 2.0);
        assert_eq!(value_in("variable.phase + temp.k", &s), 5.0);
        assert_eq!(variables.borrow().len(), 2);
        // An update keeps one entry.
        assert_eq!(value_in("v.phase = 7; return v.phase", &s), 7.0);
        assert_eq!(variables.borrow().len(), 2);
        // A fresh table (a new sample) has none.
        assert_eq!(value("v.phase"), 0.0);
    }

    #[test]
    fn a_long_name_is_carried_as_it_is_compiled() {
        // Names stay in the scene's compiled text: a value assigned to a
        // name of any length is seen by the values after it.
        let n = std::format!("variable.{}", "a".repeat(200));
        let mut slots = super::super::molang_vars::slots();
        let variables = RefCell::new(Table::new(&mut slots, 0));
        let s = sampling(&Placeholders::EMPTY, &variables);
        assert_eq!(value_in(&std::format!("{n} = 4; return {n}"), &s), 4.0);
        assert_eq!(value_in(&n, &s), 4.0);
    }

    #[test]
    fn the_variables_of_a_sample_share_max_played_variables() {
        // One table for the sample: MAX_PLAYED_VARIABLES names in all,
        // over every value; the value that assigns one more plays 0.
        let mut slots = super::super::molang_vars::slots();
        let variables = RefCell::new(Table::new(&mut slots, 0));
        let s = sampling(&Placeholders::EMPTY, &variables);
        for i in 0..MAX_PLAYED_VARIABLES {
            assert_eq!(value_in(&std::format!("v.a{i} = 1; return 2"), &s), 2.0);
        }
        assert_eq!(value_in("v.a0 = 3; return 2", &s), 2.0, "an update fits");
        assert_eq!(value_in("v.more = 1; return 2", &s), 0.0);
    }

    #[test]
    fn the_sampling_limits_are_the_decodes() {
        // maxMolangSteps from the scene: at its value the text plays, one
        // step fewer allowed stops it (an evaluation that meets a limit
        // plays 0).
        let mut slots = super::super::molang_vars::slots();
        let variables = RefCell::new(Table::new(&mut slots, 0));
        let text = "1+2";
        let steps = |max_steps: u64| {
            let s = Sampling {
                limits: MolangLimits {
                    max_steps,
                    ..MolangLimits::default()
                },
                ..sampling(&Placeholders::EMPTY, &variables)
            };
            value_in(text, &s)
        };
        let needed = (1..100).find(|n| steps(*n) == 3.0).unwrap();
        assert_eq!(steps(needed - 1), 0.0);
        assert_eq!(steps(needed), 3.0);
    }

    #[test]
    fn keyframe_calc_reads_anim_time() {
        // Blockbench Keyframe.calc: parse(text) with query.anim_time the
        // animation's time.
        assert_eq!(value("q.anim_time * 4"), 2.0);
        assert_eq!(value("math.sin(query.anim_time * 180)"), 1.0);
    }

    #[test]
    fn max_played_variables_is_played_at_its_value_and_zero_past_it() {
        let assigning = |n: usize| {
            let mut s = String::new();
            for i in 0..n {
                s.push_str(&std::format!("v.a{i}=1;"));
            }
            s.push_str("return 5");
            s
        };
        assert_eq!(value(&assigning(MAX_PLAYED_VARIABLES)), 5.0);
        assert_eq!(value(&assigning(MAX_PLAYED_VARIABLES + 1)), 0.0);
    }

    #[test]
    fn placeholders_are_read_however_many_lines_they_have() {
        // Blockbench variableHandler: a name no variable holds reads the
        // project's placeholder line with that key; the last line of a key
        // wins, 200 lines or 2.
        for n in [2usize, 200] {
            let mut text = String::new();
            for i in 0..n {
                text.push_str(&std::format!("v.p{i} = {}\n", i + 1));
            }
            text.push_str("v.p0 = 9\n");
            let places = placeholders(&text);
            let mut slots = super::super::molang_vars::slots();
            let variables = RefCell::new(Table::new(&mut slots, 0));
            let s = sampling(&places, &variables);
            assert_eq!(value_in("v.p0 + 1", &s), 10.0, "{n} lines");
            assert_eq!(value_in(&std::format!("v.p{}", n - 1), &s), n as f64);
        }
    }

    #[test]
    fn sign_migration_and_units_follow_the_constant_path() {
        // Convention 13 before 5.0: rotation x, y and position x negated;
        // degrees to radians; a negative scale is 0.00001.
        let before = KeyframeSource::BEFORE_5;
        assert_eq!(
            convert(ChannelTarget::Rotation, before, 0, 90.0),
            -core::f32::consts::FRAC_PI_2
        );
        assert_eq!(
            convert(ChannelTarget::Rotation, before, 2, 90.0),
            core::f32::consts::FRAC_PI_2
        );
        assert_eq!(convert(ChannelTarget::Translation, before, 0, 2.0), -2.0);
        assert_eq!(convert(ChannelTarget::Translation, 0, 0, 2.0), 2.0);
        assert_eq!(convert(ChannelTarget::Scale, 0, 1, -3.0), MIN_SCALE);
        assert_eq!(
            convert(ChannelTarget::Translation, 0, 1, f64::INFINITY),
            1.0e6
        );
    }

    #[test]
    fn a_keyframes_programs_follow_its_bits() {
        // One program per Molang value in bit order; a keyframe of one
        // data point plays its pre programs on both sides.
        let one = KeyframeSource {
            program: 10,
            molang: 0b101_101,
        };
        assert_eq!(one.program(0), Some(10));
        assert_eq!(one.program(2), Some(11));
        assert_eq!(one.program(3), None);
        assert_eq!(one.program(1), None);
        let two = KeyframeSource {
            program: 4,
            molang: 0b110_001 | KeyframeSource::TWO_POINTS,
        };
        assert_eq!(two.program(0), Some(4));
        assert_eq!(two.program(4), Some(5));
        assert_eq!(two.program(5), Some(6));
        assert_eq!(two.program(6), None);
    }
}
