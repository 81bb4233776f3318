//! Molang keyframe values at one sample, as Blockbench plays them.
//!
//! Blockbench reads every keyframe value through `Keyframe.calc`, which
//! parses the data point's text with molangjs at the time shown
//! (`BoneAnimator.interpolate` → `getLerp` / `getCatmullromLerp`): so a
//! Molang keyframe's value changes between keyframes. Here a keyframe whose
//! [`KeyframeSource`] marks Molang axes has its JSON object read again from
//! the input, each marked text compiled into stack buffers and evaluated
//! with:
//!
//! - `query.anim_time`: the clip time sampled (the animation's `time`);
//!   `query.life_time`: the time asked (the timeline's); `query.delta_time`
//!   0 (a sample has no previous frame); `this` 0 (Blockbench resets its
//!   last values per bone, `Animator.resetLastValues`, and one clip never
//!   reads another's);
//! - a fresh variable table per value (Blockbench keeps `variable.*` from
//!   one evaluation to the next; a sample here is a function of its time);
//! - the project's `animation_variable_placeholders`, compiled once per
//!   sample (at most [`MAX_PLAYED_PLACEHOLDERS`] lines, their text and
//!   nodes within the `MAX_PLAYED_*` bounds; beyond them, none);
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

use super::super::{ChannelTarget, KeyframeRecord, KeyframeSource, TextSource};
use super::molang_vars::Carried;
pub use super::molang_vars::MAX_PLAYED_VARIABLES;
use crate::json::{JsonStr, TokenKind, Tokenizer};
use crate::molang::{
    self, Context, MolangLimits, Node, Placeholder, Placeholders, Slot, Times, Variables,
};
use core::cell::RefCell;

/// Bytes of one expression's normalized text the sampler compiles
/// (lowercased, whitespace removed); a longer one plays 0.
pub const MAX_PLAYED_TEXT: usize = 1024;
/// Nodes of one compiled expression the sampler holds; more plays 0.
pub const MAX_PLAYED_NODES: usize = 512;
/// Lines of `animation_variable_placeholders` the sampler compiles.
pub const MAX_PLAYED_PLACEHOLDERS: usize = 64;

/// Bound on an evaluated value, as the reader bounds constants (spec Limits).
const MAX_VALUE: f64 = 1_000_000.0;
/// The scale a negative scale plays as (the reader's `MIN_SCALE`).
const MIN_SCALE: f32 = 0.000_01;

/// What one sample gives every Molang value: the times and the input the
/// keyframe texts are in.
#[derive(Clone, Copy)]
pub(super) struct Sampling<'a, 'p> {
    pub(super) placeholders: &'p Placeholders<'p, 'p>,
    pub(super) input: &'a [u8],
    pub(super) target: ChannelTarget,
    /// Clip time (`query.anim_time`), seconds.
    pub(super) anim_time: f32,
    /// Time asked (`query.life_time`), seconds.
    pub(super) life_time: f32,
    /// The variables this sample's values have set so far
    /// (`molang_vars.rs`).
    pub(super) carried: &'p RefCell<Carried>,
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
    if source.text.source() != TextSource::Input {
        return *key;
    }
    let Some(object) = s.input.get(source.text.range()) else {
        return *key;
    };
    let texts = KeyframeTexts::read(object);
    let mut out = *key;
    for bit in 0..6 {
        if source.molang & (1 << bit) == 0 {
            continue;
        }
        let (point, axis) = (bit / 3, bit % 3);
        // One data point: Blockbench's calc reads it once per axis for
        // either end; evaluating it again would run its assignments twice.
        let one_point = source.molang & KeyframeSource::DATA_POINTS == 0 || texts.point_count <= 1;
        if point == 1 && one_point && source.molang & (1 << axis) != 0 {
            if let (Some(post), Some(pre)) = (out.post.get_mut(axis), out.pre.get(axis)) {
                *post = *pre;
            }
            continue;
        }
        let text = if source.molang & KeyframeSource::DATA_POINTS != 0 {
            let p = if texts.point_count > 1 { point } else { 0 };
            texts.points.get(p).and_then(|row| row.get(axis))
        } else {
            texts.direct.get(axis)
        };
        let seed = seed(index, bit, s.anim_time);
        let value = text
            .copied()
            .flatten()
            .map_or(0.0, |t| evaluate(&t, s, seed));
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

impl super::super::Scene<'_> {
    /// Whether clip `clip` plays Molang: a keyframe of one of its channels
    /// holds a Molang value, or it has a `blend_weight` text. Such a clip
    /// of length 0 runs on (a Bedrock continuous animation).
    pub fn clip_runs_molang(&self, clip: usize) -> bool {
        let Some(record) = self.animations().get(clip) else {
            return false;
        };
        let weighted = self
            .clip_blend_weights()
            .get(clip)
            .is_some_and(|t| !t.range().is_empty());
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
/// for none (an empty `text`).
pub(super) fn blend_weight(s: &Sampling<'_, '_>, text: super::super::TextRef) -> f32 {
    if text.range().is_empty() || text.source() != TextSource::Input {
        return 1.0;
    }
    let Some(src) = s
        .input
        .get(text.range())
        .and_then(|b| core::str::from_utf8(b).ok())
    else {
        return 1.0;
    };
    #[allow(clippy::cast_possible_truncation)]
    let weight = evaluate_str(src, s, seed(usize::MAX, 7, s.anim_time)).max(0.0) as f32;
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

/// The value molangjs gives `text` at this sample; 0 for what the
/// sampler cannot hold (the `MAX_PLAYED_*` bounds) or a limit met. Its
/// own frame: a sample without Molang does not reserve its buffers.
#[inline(never)]
fn evaluate(text: &JsonStr<'_>, s: &Sampling<'_, '_>, seed: u64) -> f64 {
    let mut decoded = [0u8; MAX_PLAYED_TEXT];
    let src = match text.as_str() {
        Some(src) => src,
        None => match text.decode_into(&mut decoded) {
            Ok(src) => src,
            Err(_) => return 0.0,
        },
    };
    evaluate_str(src, s, seed)
}

/// [`evaluate`] of text already decoded, with the variables the sample
/// carries; what it assigns is carried on to the next value.
fn evaluate_str(src: &str, s: &Sampling<'_, '_>, seed: u64) -> f64 {
    let limits = s.limits;
    let len = molang::text_len(src);
    let mut buf = [0u8; MAX_PLAYED_TEXT];
    let Some(buf) = buf.get_mut(..len) else {
        return 0.0;
    };
    let Ok(source) = molang::prepare(src, buf, &limits) else {
        return 0.0;
    };
    let Ok(n) = molang::measure(&source, &limits) else {
        return 0.0;
    };
    let mut nodes = [Node::Num(0.0); MAX_PLAYED_NODES];
    let Some(nodes) = nodes.get_mut(..n) else {
        return 0.0;
    };
    let Ok(program) = molang::compile(&source, nodes, &limits) else {
        return 0.0;
    };
    // A copy: the slots borrow its names while the table is written back.
    let carried = *s.carried.borrow();
    let mut slots = [Slot::EMPTY; MAX_PLAYED_VARIABLES];
    let set = carried.fill(&mut slots);
    let mut variables = Variables::preset(&mut slots, set, seed);
    let mut ctx = Context {
        times: Times {
            anim_time: f64::from(s.anim_time),
            life_time: f64::from(s.life_time),
            delta_time: 0.0,
            this: 0.0,
        },
        variables: &mut variables,
        placeholders: s.placeholders,
        limits,
    };
    let value = program.eval(&mut ctx).unwrap_or(0.0);
    s.carried.borrow_mut().store(&variables);
    value
}

/// Calls `f` with the project's placeholders (`text`) compiled into stack
/// buffers; with none when they do not fit the `MAX_PLAYED_*` bounds or
/// meet a Molang limit (Blockbench would read them: the values differ).
pub(super) fn with_placeholders<R>(
    text: &str,
    limits: MolangLimits,
    f: impl FnOnce(&Placeholders<'_, '_>) -> R,
) -> R {
    let plan = molang::plan_placeholders(text);
    if plan.entries == 0 || plan.entries > MAX_PLAYED_PLACEHOLDERS || plan.text > MAX_PLAYED_TEXT {
        return f(&Placeholders::EMPTY);
    }
    compiled_placeholders(text, plan, limits, f)
}

/// [`with_placeholders`] once they are known to fit: its own frame, so
/// a sample without placeholders does not reserve their buffers.
#[inline(never)]
fn compiled_placeholders<R>(
    text: &str,
    plan: molang::PlaceholderPlan,
    limits: MolangLimits,
    f: impl FnOnce(&Placeholders<'_, '_>) -> R,
) -> R {
    let mut buf = [0u8; MAX_PLAYED_TEXT];
    let mut nodes = [Node::Num(0.0); MAX_PLAYED_NODES];
    let mut entries = [Placeholder::EMPTY; MAX_PLAYED_PLACEHOLDERS];
    let Some(buf) = buf.get_mut(..plan.text) else {
        return f(&Placeholders::EMPTY);
    };
    let Ok(prepared) = molang::prepare_placeholders(text, buf, &limits) else {
        return f(&Placeholders::EMPTY);
    };
    let Ok(n) = molang::measure_placeholders(&prepared, &limits) else {
        return f(&Placeholders::EMPTY);
    };
    let Some(nodes) = nodes.get_mut(..n) else {
        return f(&Placeholders::EMPTY);
    };
    let entries = entries.get_mut(..plan.entries).unwrap_or_default();
    match molang::compile_placeholders(&prepared, entries, nodes, &limits) {
        Ok(placeholders) => f(&placeholders),
        Err(_) => f(&Placeholders::EMPTY),
    }
}

/// The texts of a keyframe object's axes, read as the reader reads them
/// (`bbmodel/animations/keyframes.rs`): the first two data points' `x`,
/// `y`, `z` and the keyframe's own; a repeated key counts once, the last.
#[derive(Default)]
struct KeyframeTexts<'a> {
    points: [[Option<JsonStr<'a>>; 3]; 2],
    point_count: usize,
    direct: [Option<JsonStr<'a>>; 3],
}

impl<'a> KeyframeTexts<'a> {
    /// Reads `object` (`{…}` and what follows it, which is not read).
    /// The decode checked its types, so anything else ends the read.
    fn read(object: &'a [u8]) -> Self {
        let mut texts = Self::default();
        let mut t = Tokenizer::new(object, 8);
        let _ = texts.object(&mut t);
        texts
    }

    fn object(&mut self, t: &mut Tokenizer<'a>) -> Option<()> {
        if t.next_token().ok()??.kind != TokenKind::BeginObject {
            return None;
        }
        loop {
            let TokenKind::Key(key) = t.next_token().ok()??.kind else {
                return Some(());
            };
            if key.eq_str("data_points") {
                self.data_points(t)?;
            } else if let Some(axis) = axis_of(&key) {
                let text = string(t)?;
                if let Some(slot) = self.direct.get_mut(axis) {
                    *slot = text;
                }
            } else {
                t.skip_value().ok()?;
            }
        }
    }

    fn data_points(&mut self, t: &mut Tokenizer<'a>) -> Option<()> {
        if t.next_token().ok()??.kind != TokenKind::BeginArray {
            return None;
        }
        self.points = Default::default();
        self.point_count = 0;
        loop {
            if self.point_count >= 2 {
                if !t.skip_value().ok()? {
                    t.next_token().ok()??;
                    return Some(());
                }
                continue;
            }
            match t.next_token().ok()??.kind {
                TokenKind::EndArray => return Some(()),
                TokenKind::BeginObject => {}
                _ => return None,
            }
            let row = self.points.get_mut(self.point_count)?;
            while let TokenKind::Key(key) = t.next_token().ok()??.kind {
                match axis_of(&key) {
                    Some(axis) => {
                        let text = string(t)?;
                        if let Some(slot) = row.get_mut(axis) {
                            *slot = text;
                        }
                    }
                    None => {
                        t.skip_value().ok()?;
                    }
                }
            }
            self.point_count += 1;
        }
    }
}

/// `x`, `y`, `z` as 0, 1, 2.
fn axis_of(key: &JsonStr<'_>) -> Option<usize> {
    ["x", "y", "z"].iter().position(|a| key.eq_str(a))
}

/// The value after a key: its text when it is a string.
fn string<'a>(t: &mut Tokenizer<'a>) -> Option<Option<JsonStr<'a>>> {
    match t.next_token().ok()??.kind {
        TokenKind::String(s) => Some(Some(s)),
        TokenKind::Number(_) | TokenKind::Null | TokenKind::Bool(_) => Some(None),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::molang_vars::MAX_CARRIED_NAME;
    use super::*;
    use std::string::String;

    fn sampling<'p>(
        placeholders: &'p Placeholders<'p, 'p>,
        carried: &'p RefCell<Carried>,
    ) -> Sampling<'static, 'p> {
        Sampling {
            placeholders,
            input: &[],
            target: ChannelTarget::Translation,
            anim_time: 0.5,
            life_time: 0.5,
            carried,
            limits: MolangLimits::default(),
        }
    }

    /// The value of `text` (written as a JSON string) in `s`.
    fn value_in(text: &str, s: &Sampling<'_, '_>) -> f64 {
        let json = serde_json::to_string(text).unwrap();
        let mut t = Tokenizer::new(json.as_bytes(), 1);
        let TokenKind::String(js) = t.next_token().unwrap().unwrap().kind else {
            panic!("not a string");
        };
        evaluate(&js, s, 1)
    }

    /// The value of `text` at anim_time 0.5, no variable carried in.
    fn value(text: &str) -> f64 {
        let carried = RefCell::new(Carried::EMPTY);
        value_in(text, &sampling(&Placeholders::EMPTY, &carried))
    }

    #[test]
    fn variables_carry_from_one_value_to_the_next_within_a_sample() {
        // molangjs iterateExp: `context[T.name] = self.variables[T.name] =
        // …`, and `calculate` starts every parse from self.variables, so a
        // later value reads what an earlier one assigned (variable.* and
        // temp.* alike, until resetVariables).
        let carried = RefCell::new(Carried::EMPTY);
        let s = sampling(&Placeholders::EMPTY, &carried);
        assert_eq!(value_in("v.phase = q.anim_time * 4; return 1", &s), 1.0);
        assert_eq!(value_in("t.k = 3; return v.phase", &s), 2.0);
        assert_eq!(value_in("variable.phase + temp.k", &s), 5.0);
        assert_eq!(carried.borrow().len(), 2);
        // An update keeps one entry.
        assert_eq!(value_in("v.phase = 7; return v.phase", &s), 7.0);
        assert_eq!(carried.borrow().len(), 2);
        // A fresh table (a new sample) has none.
        assert_eq!(value("v.phase"), 0.0);
    }

    #[test]
    fn max_carried_name_is_carried_at_its_value_and_not_past_it() {
        // `variable.` + letters, MAX_CARRIED_NAME bytes in all and one more.
        let name = |len: usize| std::format!("variable.{}", "a".repeat(len - 9));
        for (len, carried_on) in [(MAX_CARRIED_NAME, 4.0), (MAX_CARRIED_NAME + 1, 0.0)] {
            let carried = RefCell::new(Carried::EMPTY);
            let s = sampling(&Placeholders::EMPTY, &carried);
            let n = name(len);
            // The assigning value still reads its own variable.
            assert_eq!(value_in(&std::format!("{n} = 4; return {n}"), &s), 4.0);
            assert_eq!(value_in(&n, &s), carried_on, "{len} bytes");
        }
    }

    #[test]
    fn the_variables_of_a_sample_share_max_played_variables() {
        // One table for the sample: MAX_PLAYED_VARIABLES names in all,
        // over every value; the value that assigns one more plays 0.
        let carried = RefCell::new(Carried::EMPTY);
        let s = sampling(&Placeholders::EMPTY, &carried);
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
        let carried = RefCell::new(Carried::EMPTY);
        let text = "1+2";
        let steps = |max_steps: u64| {
            let s = Sampling {
                limits: MolangLimits {
                    max_steps,
                    ..MolangLimits::default()
                },
                ..sampling(&Placeholders::EMPTY, &carried)
            };
            value_in(text, &s)
        };
        let needed = (1..100).find(|n| steps(*n) == 3.0).unwrap();
        assert_eq!(steps(needed - 1), 0.0);
        assert_eq!(steps(needed), 3.0);
    }

    /// `1+1+…+1` with `n` ones.
    fn ones(n: usize) -> String {
        let mut s = String::from("1");
        for _ in 1..n {
            s.push_str("+1");
        }
        s
    }

    #[test]
    fn keyframe_calc_reads_anim_time() {
        // Blockbench Keyframe.calc: parse(text) with query.anim_time the
        // animation's time.
        assert_eq!(value("q.anim_time * 4"), 2.0);
        assert_eq!(value("math.sin(query.anim_time * 180)"), 1.0);
    }

    #[test]
    fn max_played_text_is_played_at_its_value_and_zero_past_it() {
        // molangjs reads `1.000…0` as the number 1.
        let number = |bytes: usize| std::format!("1.{}", "0".repeat(bytes - 2));
        let at = number(MAX_PLAYED_TEXT);
        assert_eq!(molang::text_len(&at), MAX_PLAYED_TEXT);
        assert_eq!(value(&at), 1.0);
        assert_eq!(value(&number(MAX_PLAYED_TEXT + 1)), 0.0);
    }

    #[test]
    fn max_played_nodes_is_played_at_its_value_and_zero_past_it() {
        // Statements of short sums, then `return 3`, of exactly the
        // bound's node count and one more (flat, so within maxMolangDepth;
        // a negated name makes an odd count).
        let limits = MolangLimits::default();
        let nodes = |text: &str| {
            let mut buf = std::vec![0u8; molang::text_len(text)];
            let source = molang::prepare(text, &mut buf, &limits).unwrap();
            molang::measure(&source, &limits).unwrap()
        };
        let text = |k: usize, m: usize, call: bool| {
            let mut s = String::from(if call { "-q.anim_time;" } else { "" });
            for _ in 0..k {
                s.push_str(&ones(m));
                s.push(';');
            }
            s.push_str(if call { "return 1+2" } else { "return 3" });
            s
        };
        let find = |want: usize| {
            (1..200)
                .flat_map(|k| (1..9).flat_map(move |m| [(k, m, false), (k, m, true)]))
                .map(|(k, m, call)| text(k, m, call))
                .find(|t| nodes(t) == want)
                .expect("statements of that many nodes")
        };
        assert_eq!(value(&find(MAX_PLAYED_NODES)), 3.0);
        assert_eq!(value(&find(MAX_PLAYED_NODES + 1)), 0.0);
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
    fn max_played_placeholders_are_read_at_their_value_and_not_past_it() {
        // Blockbench variableHandler: a name no variable holds reads the
        // project's placeholder line with that key.
        let lines = |n: usize| {
            let mut s = String::new();
            for i in 0..n {
                s.push_str(&std::format!("v.p{i} = {}\n", i + 1));
            }
            s
        };
        let read = |text: &str| {
            let json = serde_json::to_string("v.p0 + 1").unwrap();
            let mut t = Tokenizer::new(json.as_bytes(), 1);
            let TokenKind::String(s) = t.next_token().unwrap().unwrap().kind else {
                panic!("not a string");
            };
            let carried = RefCell::new(Carried::EMPTY);
            with_placeholders(text, MolangLimits::default(), |p| {
                let sampling = sampling(p, &carried);
                evaluate(&s, &sampling, 1)
            })
        };
        assert_eq!(read(&lines(MAX_PLAYED_PLACEHOLDERS)), 2.0);
        assert_eq!(read(&lines(MAX_PLAYED_PLACEHOLDERS + 1)), 1.0);
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
}
