//! Text to nodes, as molangjs reads it (`iterateString` in its `molang.js`).
//!
//! molangjs has no grammar: it strips a trailing `;` and enclosing
//! brackets, then tries in order a number, `;` statements, `return`,
//! `true`/`false`/`break`/`continue`, an assignment, `??`, `?:`, the
//! comparison and logical operators (`&&` `||` `==` `!=` `<=` `<` `>=` `>`,
//! each split at its first occurrence outside brackets), `+` and `-` (split
//! at the last), `*` (first), `/` (last), `!`, `math.*`, `loop(`, a name,
//! and a function call; anything else is 0. The same order and the same
//! splits here give the same tree, so every expression, well-formed or
//! not, plays the value molangjs gives it. One pass counts (`measure`),
//! the same pass writes (`compile`).
#![allow(
    clippy::cast_possible_truncation,
    reason = "positions and node indices fit u32: `prepare` refuses texts of 2^30 bytes or more, and an expression makes fewer than three nodes per byte"
)]
#![allow(
    clippy::arithmetic_side_effects,
    reason = "positions stay inside the expression's text: each split index comes from a scan below its length, and +1/+2 skip a separator found there"
)]

use super::error::{MolangError, MolangErrorCode};
use super::limits::MolangLimits;
use super::node::{Builtin, Easing, MolangNode, NONE, Name, Node, Op, Prefix};
use super::text::{can_trim, find_first, find_last, is_name, is_number, number};

/// Writes (or, measuring, only counts) the nodes of one expression.
pub(crate) struct Builder<'n> {
    nodes: Option<&'n mut [MolangNode]>,
    pub(crate) len: usize,
    statements: u64,
    pub(crate) randomness: bool,
    pub(crate) assignments: usize,
    limits: MolangLimits,
}

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
/// one. A table, not a local: `expr` recurses, and its frame stays small.
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
fn assignment(s: &[u8]) -> Option<usize> {
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
fn piece_end(s: &[u8], sep: u8, from: usize) -> usize {
    from + find_first(s.get(from..).unwrap_or(&[]), &[sep]).unwrap_or(s.len() - from)
}

/// Whether molangjs reads `s` as a `return` statement (a scope stops
/// reading its lines after one).
fn is_return(mut s: &[u8]) -> bool {
    if let Some(t) = s.strip_suffix(b";") {
        s = t;
    }
    while can_trim(s) {
        s = s.get(1..s.len() - 1).unwrap_or(&[]);
    }
    !is_number(s) && find_first(s, b";").is_none() && s.starts_with(b"return")
}

impl<'n> Builder<'n> {
    pub(crate) fn new(nodes: Option<&'n mut [MolangNode]>, limits: MolangLimits) -> Self {
        Self {
            nodes,
            len: 0,
            statements: 0,
            randomness: false,
            assignments: 0,
            limits,
        }
    }

    fn push(&mut self, node: Node, at: usize) -> Result<u32, MolangError> {
        let i = self.len;
        self.len += 1;
        if let Some(nodes) = self.nodes.as_deref_mut() {
            *nodes.get_mut(i).ok_or(MolangError::new(
                MolangErrorCode::WrongPlan,
                at,
                "a node array of the planned length",
            ))? = MolangNode::pack(node);
        }
        u32::try_from(i).map_err(|_| MolangError::new(MolangErrorCode::TooLong, at, "fewer nodes"))
    }

    fn set(&mut self, i: u32, node: Node) {
        if let Some(slot) = self
            .nodes
            .as_deref_mut()
            .and_then(|n| n.get_mut(i as usize))
        {
            *slot = MolangNode::pack(node);
        }
    }

    /// The node of `text[start..end]` (molangjs `iterateString`).
    /// Errors carry positions in the normalized text.
    pub(crate) fn expr(
        &mut self,
        text: &[u8],
        mut start: usize,
        mut end: usize,
        depth: u64,
    ) -> Result<u32, MolangError> {
        if start >= end {
            return Ok(NONE);
        }
        if depth > self.limits.max_depth {
            return Err(MolangError::new(
                MolangErrorCode::TooDeep,
                start,
                "less nesting (maxMolangDepth)",
            ));
        }
        let depth = depth + 1;
        if text.get(end - 1) == Some(&b';') {
            end -= 1;
        }
        while can_trim(text.get(start..end).unwrap_or(&[])) {
            start += 1;
            end -= 1;
        }
        let s = text.get(start..end).unwrap_or(&[]);
        if is_number(s) {
            return self.push(Node::Num(number(s)), start);
        }
        if find_first(s, b";").is_some() {
            return self.scope(text, start, end, depth);
        }
        if s.starts_with(b"return") {
            let value = self.expr(text, start + 6, end, depth)?;
            return self.push(Node::Return(value), start);
        }
        match s {
            b"true" => return self.push(Node::Num(1.0), start),
            b"false" => return self.push(Node::Num(0.0), start),
            b"break" => return self.push(Node::Break, start),
            b"continue" => return self.push(Node::Continue, start),
            _ => {}
        }
        let has_eq = s.contains(&b'=');
        if let Some(eq) = assignment(s).filter(|_| has_eq && s.len() > 4) {
            let value = self.expr(text, start + eq + 1, end, depth)?;
            self.assignments += 1;
            let name = name_of(text, start, start + eq);
            return self.push(Node::Assign { name, value }, start);
        }
        if s.contains(&b'?') {
            if let Some(i) = find_first(s, b"??") {
                return self.op(
                    text,
                    Op::Coalesce,
                    [(start, start + i), (start + i + 2, end), (0, 0)],
                    depth,
                );
            }
            if let Some(i) = find_first(s, b"?") {
                let rest = start + i + 1;
                let parts = match find_first(text.get(rest..end).unwrap_or(&[]), b":") {
                    Some(j) => [(start, start + i), (rest, rest + j), (rest + j + 1, end)],
                    None => [(start, start + i), (rest, end), (0, 0)],
                };
                return self.op(text, Op::Cond, parts, depth);
            }
        }
        if s.iter().any(|b| b"&|<>=".contains(b)) {
            for (pat, op, needs_eq) in COMPARISONS {
                if needs_eq && !has_eq {
                    continue;
                }
                if let Some(i) = find_first(s, pat) {
                    let parts = [(start, start + i), (start + i + pat.len(), end), (0, 0)];
                    return self.op(text, op, parts, depth);
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
                let parts = [(start, start + i), (start + i + 1, end), (0, 0)];
                return self.op(text, op, parts, depth);
            }
        }
        if s.len() > 1 && s.first() == Some(&b'!') {
            return self.op(text, Op::Not, [(start + 1, end), (0, 0), (0, 0)], depth);
        }
        if let Some(node) = self.math(text, start, end, depth)? {
            return Ok(node);
        }
        if s.starts_with(b"loop(") && s.len() > 5 {
            let (inner, inner_end) = (start + 5, end - 1);
            let body = text.get(inner..inner_end).unwrap_or(&[]);
            if find_first(body, b",").is_some() {
                let first = piece_end(text.get(..inner_end).unwrap_or(&[]), b',', inner);
                let second = piece_end(text.get(..inner_end).unwrap_or(&[]), b',', first + 1);
                let count = self.expr(text, inner, first, depth)?;
                let body = self.expr(text, first + 1, second, depth)?;
                return self.push(Node::Loop { count, body }, start);
            }
        }
        if is_name(s) {
            let name = name_of(text, start, end);
            let builtin = BUILTINS.iter().find(|(n, _)| name.is(text, n));
            return match builtin {
                Some((_, b)) => self.push(Node::Builtin(*b), start),
                None => self.push(Node::Var(name), start),
            };
        }
        if let Some(open) = s
            .iter()
            .position(|&b| b == b'(')
            .filter(|_| s.last() == Some(&b')'))
        {
            return self.call(text, start, start + open, end, depth);
        }
        Ok(NONE)
    }

    /// An operator node over up to three ranges ((0, 0) for none).
    fn op(
        &mut self,
        text: &[u8],
        op: Op,
        parts: [(usize, usize); 3],
        depth: u64,
    ) -> Result<u32, MolangError> {
        let at = parts[0].0;
        let mut args = [NONE; 3];
        for (arg, (a, b)) in args.iter_mut().zip(parts) {
            *arg = self.expr(text, a, b, depth)?;
        }
        if matches!(
            op,
            Op::Random | Op::RandomInteger | Op::DieRoll | Op::DieRollInteger
        ) {
            self.randomness = true;
        }
        self.push(Node::Op { op, args }, at)
    }

    /// `math.name(args)`, or `None` when molangjs does not know the name
    /// (then it is read as a name or call, as molangjs falls through).
    fn math(
        &mut self,
        text: &[u8],
        start: usize,
        end: usize,
        depth: u64,
    ) -> Result<Option<u32>, MolangError> {
        let s = text.get(start..end).unwrap_or(&[]);
        if !s.starts_with(b"math.") {
            return Ok(None);
        }
        if s == b"math.pi" {
            return self.push(Node::Num(core::f64::consts::PI), start).map(Some);
        }
        let Some(open) = s.iter().position(|&b| b == b'(') else {
            return Ok(None);
        };
        let Some((_, op, arity)) = MATH.iter().find(|(n, _, _)| s.get(5..open) == Some(*n)) else {
            return Ok(None);
        };
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
        self.op(text, *op, parts, depth).map(Some)
    }

    /// `name(args)`: a query function or one Blockbench or the placeholders define.
    fn call(
        &mut self,
        text: &[u8],
        start: usize,
        open: usize,
        end: usize,
        depth: u64,
    ) -> Result<u32, MolangError> {
        let name = name_of(text, start, open);
        let inner_end = end - 1;
        let within = text.get(..inner_end).unwrap_or(&[]);
        let mut count = 0u32;
        let mut from = open + 1;
        loop {
            let to = piece_end(within, b',', from.min(inner_end));
            count += 1;
            if to >= inner_end {
                break;
            }
            from = to + 1;
        }
        let first = self.len as u32;
        for _ in 0..count {
            self.push(Node::Item(NONE), start)?;
        }
        let mut from = open + 1;
        for k in 0..count {
            let to = piece_end(within, b',', from.min(inner_end));
            let arg = text.get(from..to).unwrap_or(&[]);
            // molangjs 1.7.0 keeps a quoted argument as text, quotes cut
            // with `substring(1, length-1)` (a lone `'` stays itself).
            let node = if arg.first() == Some(&b'\'') && arg.last() == Some(&b'\'') {
                let (a, b) = if arg.len() >= 2 {
                    (from + 1, to - 1)
                } else {
                    (from, to)
                };
                let name = Name {
                    start: a as u32,
                    end: b as u32,
                    prefix: Prefix::None,
                };
                self.push(Node::Str(name), from)?
            } else {
                self.expr(text, from, to, depth)?
            };
            self.set(first + k, Node::Item(node));
            from = to + 1;
        }
        self.push(Node::Call { name, first, count }, start)
    }

    /// `a;b;c`: the lines up to the first `return`, empty ones skipped.
    fn scope(
        &mut self,
        text: &[u8],
        start: usize,
        end: usize,
        depth: u64,
    ) -> Result<u32, MolangError> {
        let s = text.get(..end).unwrap_or(&[]);
        let mut count = 0u32;
        let mut from = start;
        loop {
            let to = piece_end(s, b';', from);
            if to > from {
                count += 1;
                if is_return(text.get(from..to).unwrap_or(&[])) {
                    break;
                }
            }
            if to >= end {
                break;
            }
            from = to + 1;
        }
        self.statements += u64::from(count);
        if self.statements > self.limits.max_statements {
            return Err(MolangError::new(
                MolangErrorCode::TooManyStatements,
                start,
                "fewer statements (maxMolangStatements)",
            ));
        }
        let first = self.len as u32;
        for _ in 0..count {
            self.push(Node::Item(NONE), start)?;
        }
        let mut from = start;
        let mut k = 0;
        while k < count {
            let to = piece_end(s, b';', from);
            if to > from {
                let line = self.expr(text, from, to, depth)?;
                self.set(first + k, Node::Item(line));
                k += 1;
            }
            from = to + 1;
        }
        self.push(Node::Scope { first, count }, start)
    }
}
