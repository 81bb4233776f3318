//! What molangjs makes of one range of text (`iterateString`'s order of
//! tries), without reading its operands: the compiler (`compile.rs`)
//! opens a level for each shape with operands and reads them one by one.
#![allow(
    clippy::cast_possible_truncation,
    reason = "positions fit u32: `prepare` refuses texts of 2^30 bytes or more"
)]
#![allow(
    clippy::arithmetic_side_effects,
    reason = "positions stay inside the expression's text: each split index comes from a scan below its length, and +1/+2 skip a separator found there"
)]

use super::node::{Builtin, Easing, Name, Node, Op, Prefix};
use super::text::{can_trim, find_first, find_last, is_name, is_number, number};

/// The functions `math.` names, with their operand counts.
const MATH: &[(&[u8], Op, usize)] = &[
    (b"abs", Op::Abs, 1),
    (b"sin", Op::Sin, 1),
    (b"cos", Op::Cos, 1),
    (b"exp", Op::Exp, 1),
    (b"ln", Op::Ln, 1),
    (b"pow", Op::Pow, 2),
    (b"sqrt", Op::Sqrt, 1),
    (b"random", Op::Random, 2),
    (b"ceil", Op::Ceil, 1),
    (b"round", Op::Round, 1),
    (b"trunc", Op::Trunc, 1),
    (b"floor", Op::Floor, 1),
    (b"mod", Op::Mod, 2),
    (b"min", Op::Min, 2),
    (b"max", Op::Max, 2),
    (b"clamp", Op::Clamp, 3),
    (b"lerp", Op::Lerp, 3),
    (b"lerprotate", Op::LerpRotate, 3),
    (b"asin", Op::Asin, 1),
    (b"acos", Op::Acos, 1),
    (b"atan", Op::Atan, 1),
    (b"atan2", Op::Atan2, 2),
    (b"die_roll", Op::DieRoll, 3),
    (b"die_roll_integer", Op::DieRollInteger, 3),
    (b"hermite_blend", Op::HermiteBlend, 1),
    (b"random_integer", Op::RandomInteger, 2),
    (b"min_angle", Op::MinAngle, 1),
    (b"sign", Op::Sign, 1),
    (b"copy_sign", Op::CopySign, 2),
    (b"inverse_lerp", Op::InverseLerp, 3),
    (b"ease_in_quad", Op::Ease(Easing::InQuad), 3),
    (b"ease_out_quad", Op::Ease(Easing::OutQuad), 3),
    (b"ease_in_out_quad", Op::Ease(Easing::InOutQuad), 3),
    (b"ease_in_cubic", Op::Ease(Easing::InCubic), 3),
    (b"ease_out_cubic", Op::Ease(Easing::OutCubic), 3),
    (b"ease_in_out_cubic", Op::Ease(Easing::InOutCubic), 3),
    (b"ease_in_quart", Op::Ease(Easing::InQuart), 3),
    (b"ease_out_quart", Op::Ease(Easing::OutQuart), 3),
    (b"ease_in_out_quart", Op::Ease(Easing::InOutQuart), 3),
    (b"ease_in_quint", Op::Ease(Easing::InQuint), 3),
    (b"ease_out_quint", Op::Ease(Easing::OutQuint), 3),
    (b"ease_in_out_quint", Op::Ease(Easing::InOutQuint), 3),
    (b"ease_in_sine", Op::Ease(Easing::InSine), 3),
    (b"ease_out_sine", Op::Ease(Easing::OutSine), 3),
    (b"ease_in_out_sine", Op::Ease(Easing::InOutSine), 3),
    (b"ease_in_expo", Op::Ease(Easing::InExpo), 3),
    (b"ease_out_expo", Op::Ease(Easing::OutExpo), 3),
    (b"ease_in_out_expo", Op::Ease(Easing::InOutExpo), 3),
    (b"ease_in_circ", Op::Ease(Easing::InCirc), 3),
    (b"ease_out_circ", Op::Ease(Easing::OutCirc), 3),
    (b"ease_in_out_circ", Op::Ease(Easing::InOutCirc), 3),
    // molangjs 1.7.0 plays ease_in_bounce with the in-out curve (its
    // operator 221 calls easeInOutBounce); Blockbench shows that.
    (b"ease_in_bounce", Op::Ease(Easing::InOutBounce), 3),
    (b"ease_out_bounce", Op::Ease(Easing::OutBounce), 3),
    (b"ease_in_out_bounce", Op::Ease(Easing::InOutBounce), 3),
    (b"ease_in_back", Op::Ease(Easing::InBack), 3),
    (b"ease_out_back", Op::Ease(Easing::OutBack), 3),
    (b"ease_in_out_back", Op::Ease(Easing::InOutBack), 3),
    (b"ease_in_elastic", Op::Ease(Easing::InElastic), 3),
    (b"ease_out_elastic", Op::Ease(Easing::OutElastic), 3),
    (b"ease_in_out_elastic", Op::Ease(Easing::InOutElastic), 3),
];

/// Names Blockbench defines (`global_variables` in `js/animations/molang.js`,
/// and what `Keyframe.calc` passes: `this`, `query.anim_time`).
const BUILTINS: &[(&[u8], Builtin)] = &[
    (b"this", Builtin::This),
    (b"query.anim_time", Builtin::AnimTime),
    (b"query.life_time", Builtin::LifeTime),
    (b"query.state_time", Builtin::LifeTime),
    (b"time", Builtin::LifeTime),
    (b"query.delta_time", Builtin::DeltaTime),
    (b"query.time_stamp", Builtin::TimeStamp),
    (b"true", Builtin::Constant(1.0)),
    (b"false", Builtin::Constant(0.0)),
    // Animation-controller state: no controller plays here.
    (b"query.all_animations_finished", Builtin::Constant(0.0)),
    (b"query.any_animation_finished", Builtin::Constant(0.0)),
    // Bedrock attachable first-person mode: off.
    (b"query.is_first_person", Builtin::Constant(0.0)),
    (b"context.is_first_person", Builtin::Constant(0.0)),
    // The editor's camera: none here.
    (b"query.distance_from_camera", Builtin::Constant(0.0)),
];

/// The comparison and logical operators in molangjs's order, each split
/// at its first occurrence; the ones with `=` tried only when the text has
/// one.
const COMPARISONS: [(&[u8], Op, bool); 8] = [
    (b"&&", Op::And, false),
    (b"||", Op::Or, false),
    (b"==", Op::Eq, true),
    (b"!=", Op::Ne, true),
    (b"<=", Op::Le, true),
    (b"<", Op::Lt, false),
    (b">=", Op::Ge, true),
    (b">", Op::Gt, false),
];

/// `+`, `-`, `*`, `/`: the operator, its text, split at the last (else
/// the first) occurrence.
const ARITHMETIC: [(Op, &[u8], bool); 4] = [
    (Op::Add, b"+", true),
    (Op::Sub, b"-", true),
    (Op::Mul, b"*", false),
    (Op::Div, b"/", true),
];

/// The name molangjs gives `s` (`toVariableName`).
pub(crate) fn name_of(text: &[u8], start: usize, end: usize) -> Name {
    let prefix = match (text.get(start), text.get(start + 1)) {
        (Some(b'q'), Some(b'.')) => Prefix::Query,
        (Some(b'v'), Some(b'.')) => Prefix::Variable,
        (Some(b't'), Some(b'.')) => Prefix::Temp,
        (Some(b'c'), Some(b'.')) => Prefix::Context,
        _ => Prefix::None,
    };
    Name {
        start: start as u32,
        end: end as u32,
        prefix,
    }
}

/// `^(temp|variable|t|v)\.\w+=` not followed by another `=`: where the `=` is.
pub(super) fn assignment(s: &[u8]) -> Option<usize> {
    let after = [&b"temp."[..], b"variable.", b"t.", b"v."]
        .iter()
        .find(|p| s.starts_with(p))?
        .len();
    let word = s
        .get(after..)?
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let eq = after + word;
    (word > 0 && s.get(eq) == Some(&b'=') && s.get(eq + 1) != Some(&b'=')).then_some(eq)
}

/// The end of the piece that starts at `from`: the next `sep` outside
/// brackets, or the end.
pub(super) fn piece_end(s: &[u8], sep: u8, from: usize) -> usize {
    from + find_first(s.get(from..).unwrap_or(&[]), &[sep]).unwrap_or(s.len() - from)
}

/// Whether molangjs reads `s` as a `return` statement (a scope stops
/// reading its lines after one).
pub(super) fn is_return(mut s: &[u8]) -> bool {
    if let Some(t) = s.strip_suffix(b";") {
        s = t;
    }
    while can_trim(s) {
        s = s.get(1..s.len() - 1).unwrap_or(&[]);
    }
    !is_number(s) && find_first(s, b";").is_none() && s.starts_with(b"return")
}

/// What molangjs makes of one trimmed range, its operands not yet read.
pub(super) enum Shape {
    /// Nothing: text molangjs reads as 0. No node.
    Empty,
    /// A node with no operands.
    Leaf(Node),
    /// `return x`: `x` starts 6 bytes in.
    Return,
    /// `v.x=…`: the `=` is this many bytes in.
    Assign(usize),
    /// An operator over up to three ranges ((0, 0) for none).
    Op(Op, [(usize, usize); 3]),
    /// `loop(count, body)`: the two ranges.
    Loop([(usize, usize); 2]),
    /// `name(args)`: where the `(` is.
    Call(usize),
    /// `a;b;c`.
    Scope,
}

/// `text[start..end]` without a trailing `;` and enclosing brackets, as
/// `iterateString` strips them once before reading.
pub(super) fn trim(text: &[u8], mut start: usize, mut end: usize) -> (usize, usize) {
    if text.get(end - 1) == Some(&b';') {
        end -= 1;
    }
    while can_trim(text.get(start..end).unwrap_or(&[])) {
        start += 1;
        end -= 1;
    }
    (start, end)
}

/// The shape of the trimmed range `text[start..end]`, tried in molangjs's
/// order (`iterateString`).
pub(super) fn classify(text: &[u8], start: usize, end: usize) -> Shape {
    let s = text.get(start..end).unwrap_or(&[]);
    if is_number(s) {
        return Shape::Leaf(Node::Num(number(s)));
    }
    if find_first(s, b";").is_some() {
        return Shape::Scope;
    }
    if s.starts_with(b"return") {
        return Shape::Return;
    }
    match s {
        b"true" => return Shape::Leaf(Node::Num(1.0)),
        b"false" => return Shape::Leaf(Node::Num(0.0)),
        b"break" => return Shape::Leaf(Node::Break),
        b"continue" => return Shape::Leaf(Node::Continue),
        _ => {}
    }
    let has_eq = s.contains(&b'=');
    if let Some(eq) = assignment(s).filter(|_| has_eq && s.len() > 4) {
        return Shape::Assign(eq);
    }
    if s.contains(&b'?') {
        if let Some(i) = find_first(s, b"??") {
            let parts = [(start, start + i), (start + i + 2, end), (0, 0)];
            return Shape::Op(Op::Coalesce, parts);
        }
        if let Some(i) = find_first(s, b"?") {
            let rest = start + i + 1;
            let parts = match find_first(text.get(rest..end).unwrap_or(&[]), b":") {
                Some(j) => [(start, start + i), (rest, rest + j), (rest + j + 1, end)],
                None => [(start, start + i), (rest, end), (0, 0)],
            };
            return Shape::Op(Op::Cond, parts);
        }
    }
    if s.iter().any(|b| b"&|<>=".contains(b)) {
        for (pat, op, needs_eq) in COMPARISONS {
            if needs_eq && !has_eq {
                continue;
            }
            if let Some(i) = find_first(s, pat) {
                let parts = [(start, start + i), (start + i + pat.len(), end), (0, 0)];
                return Shape::Op(op, parts);
            }
        }
    }
    // `+` and `-` split at the last, `*` at the first, `/` at the last,
    // tried in that order (each scan only when the one before failed).
    for (op, pat, last) in ARITHMETIC {
        let at = if last {
            find_last(s, pat)
        } else {
            find_first(s, pat)
        };
        if let Some(i) = at {
            return Shape::Op(op, [(start, start + i), (start + i + 1, end), (0, 0)]);
        }
    }
    if s.len() > 1 && s.first() == Some(&b'!') {
        return Shape::Op(Op::Not, [(start + 1, end), (0, 0), (0, 0)]);
    }
    if let Some(shape) = math(text, start, end) {
        return shape;
    }
    if s.starts_with(b"loop(") && s.len() > 5 {
        let (inner, inner_end) = (start + 5, end - 1);
        let body = text.get(inner..inner_end).unwrap_or(&[]);
        if find_first(body, b",").is_some() {
            let first = piece_end(text.get(..inner_end).unwrap_or(&[]), b',', inner);
            let second = piece_end(text.get(..inner_end).unwrap_or(&[]), b',', first + 1);
            return Shape::Loop([(inner, first), (first + 1, second)]);
        }
    }
    if is_name(s) {
        let name = name_of(text, start, end);
        return Shape::Leaf(match BUILTINS.iter().find(|(n, _)| name.is(text, n)) {
            Some((_, b)) => Node::Builtin(*b),
            None => Node::Var(name),
        });
    }
    match s.iter().position(|&b| b == b'(') {
        Some(open) if s.last() == Some(&b')') => Shape::Call(start + open),
        _ => Shape::Empty,
    }
}

/// `math.name(args)`, or `None` when molangjs does not know the name
/// (then it is read as a name or call, as molangjs falls through).
pub(super) fn math(text: &[u8], start: usize, end: usize) -> Option<Shape> {
    let s = text.get(start..end).unwrap_or(&[]);
    if !s.starts_with(b"math.") {
        return None;
    }
    if s == b"math.pi" {
        return Some(Shape::Leaf(Node::Num(core::f64::consts::PI)));
    }
    let open = s.iter().position(|&b| b == b'(')?;
    let (_, op, arity) = MATH.iter().find(|(n, _, _)| s.get(5..open) == Some(*n))?;
    // `inner = s.substr(begin+1, s.length-begin-2)`: the last character
    // is dropped whatever it is.
    let inner = (start + open + 1, (end - 1).max(start + open + 1));
    let mut parts = [(0, 0); 3];
    let within = text.get(..inner.1).unwrap_or(&[]);
    let mut from = inner.0;
    for part in parts.iter_mut().take(*arity) {
        if from > inner.1 {
            break;
        }
        let to = piece_end(within, b',', from);
        *part = (from, to);
        from = to + 1;
    }
    Some(Shape::Op(*op, parts))
}

/// The next non-empty `;` line of `text[from..end]`, as a scope reads its
/// lines, or `None` past the last.
pub(super) fn next_line(text: &[u8], mut from: usize, end: usize) -> Option<(usize, usize)> {
    let s = text.get(..end).unwrap_or(&[]);
    loop {
        let to = piece_end(s, b';', from);
        if to > from {
            return Some((from, to));
        }
        if to >= end {
            return None;
        }
        from = to + 1;
    }
}

/// The range of operand `read` (1 or 2) of an open operator (`op`) over
/// `start..end`, or of `loop(…)` (`None`), the operand before it ending
/// at `e`: the same
/// split [`classify`] made, found from there. (0, 0) for none.
pub(super) fn next_operand(
    text: &[u8],
    (start, end): (usize, usize),
    e: usize,
    read: usize,
    op: Option<Op>,
) -> (usize, usize) {
    let second = read == 1;
    let Some(op) = op else {
        // `loop(count,body…)`: the body runs to the next comma.
        let inner_end = end - 1;
        return (
            e + 1,
            piece_end(text.get(..inner_end).unwrap_or(&[]), b',', e + 1),
        );
    };
    match op {
        Op::Coalesce | Op::And | Op::Or | Op::Eq | Op::Ne | Op::Le | Op::Ge if second => {
            (e + 2, end)
        }
        Op::Lt | Op::Gt | Op::Add | Op::Sub | Op::Mul | Op::Div if second => (e + 1, end),
        Op::Cond if second => {
            let rest = e + 1;
            match find_first(text.get(rest..end).unwrap_or(&[]), b":") {
                Some(j) => (rest, rest + j),
                None => (rest, end),
            }
        }
        Op::Cond if e < end => (e + 1, end),
        Op::Coalesce
        | Op::And
        | Op::Or
        | Op::Eq
        | Op::Ne
        | Op::Le
        | Op::Ge
        | Op::Lt
        | Op::Gt
        | Op::Add
        | Op::Sub
        | Op::Mul
        | Op::Div
        | Op::Cond
        | Op::Not => (0, 0),
        math => {
            // `math.name(a,b,c)`: the next comma piece of the inner text,
            // while the function takes one and the text has one.
            let arity = MATH.iter().find(|(_, o, _)| *o == math).map_or(0, |m| m.2);
            let inner_end = (end - 1).max(start);
            if read >= arity || e >= inner_end {
                return (0, 0);
            }
            (
                e + 1,
                piece_end(text.get(..inner_end).unwrap_or(&[]), b',', e + 1),
            )
        }
    }
}
