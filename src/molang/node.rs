//! A compiled expression: nodes in caller memory, children by index.
//! Nodes are stored as [`MolangNode`], a plain-data record an arena can
//! hold; [`Node`] is the form the compiler writes and the evaluator reads.

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

/// No child: molangjs's `undefined` or empty operand, which reads as 0.
pub const NONE: u32 = u32::MAX;

/// The short prefixes molangjs expands (`toVariableName`): `q.` `v.` `t.` `c.`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prefix {
    /// Written in full.
    None,
    /// `q.` for `query.`.
    Query,
    /// `v.` for `variable.`.
    Variable,
    /// `t.` for `temp.`.
    Temp,
    /// `c.` for `context.`.
    Context,
}

impl Prefix {
    /// What the one-letter prefix stands for.
    pub const fn expansion(self) -> &'static [u8] {
        match self {
            Self::None => b"",
            Self::Query => b"query",
            Self::Variable => b"variable",
            Self::Temp => b"temp",
            Self::Context => b"context",
        }
    }
}

/// A name in the program's normalized text: `text[start..end]`, its first
/// letter replaced by the prefix's expansion when `prefix` is not `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name {
    /// Where the name starts in the program's text.
    pub start: u32,
    /// Where it ends.
    pub end: u32,
    /// The short prefix expanded, if any.
    pub prefix: Prefix,
}

impl Name {
    /// The name's two parts: the expansion and the written rest.
    pub fn parts<'t>(&self, text: &'t [u8]) -> (&'static [u8], &'t [u8]) {
        let start = self.start as usize;
        let skip = if self.prefix == Prefix::None { 0 } else { 1 };
        let rest = text
            .get(start.saturating_add(skip)..self.end as usize)
            .unwrap_or(&[]);
        (self.prefix.expansion(), rest)
    }

    /// Whether the expanded name is `other`.
    pub fn is(&self, text: &[u8], other: &[u8]) -> bool {
        let (head, rest) = self.parts(text);
        other.len() == head.len().saturating_add(rest.len())
            && other.starts_with(head)
            && other.get(head.len()..) == Some(rest)
    }

    /// Whether two names (each in its own program's text) are the same.
    pub fn same(&self, text: &[u8], other: &Name, other_text: &[u8]) -> bool {
        let (a, b) = self.parts(text);
        let (c, d) = other.parts(other_text);
        a.iter().chain(b).eq(c.iter().chain(d))
    }
}

/// What a name reads that Blockbench defines itself (`js/animations/molang.js`
/// `global_variables`, and what `Keyframe.calc` passes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Builtin {
    /// `this`: the channel's value on the previous frame.
    This,
    /// `query.anim_time`.
    AnimTime,
    /// `query.life_time`, `query.state_time`, `time`: the timeline's time.
    LifeTime,
    /// `query.delta_time`.
    DeltaTime,
    /// `query.time_stamp`: the timeline's time floored to 1/20 s.
    TimeStamp,
    /// A name Blockbench defines whose value depends on its editor (camera,
    /// controllers, first-person mode): read as this constant.
    Constant(f64),
}

/// The operators and functions molangjs's `Comp` nodes carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    missing_docs,
    reason = "each variant is the molangjs operator or math.* function of its name"
)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Not,
    Cond,
    And,
    Or,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    Coalesce,
    Abs,
    Sin,
    Cos,
    Exp,
    Ln,
    Pow,
    Sqrt,
    Random,
    Ceil,
    Round,
    Trunc,
    Floor,
    Mod,
    Min,
    Max,
    Clamp,
    Lerp,
    LerpRotate,
    Asin,
    Acos,
    Atan,
    Atan2,
    DieRoll,
    DieRollInteger,
    HermiteBlend,
    RandomInteger,
    MinAngle,
    Sign,
    CopySign,
    InverseLerp,
    /// `math.ease_*(start, end, t)`: lerp by the easing of t.
    Ease(Easing),
}

/// The easing curves of molangjs's `easing.js`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    missing_docs,
    reason = "each variant is the math.ease_* function of its name"
)]
pub enum Easing {
    InQuad,
    OutQuad,
    InOutQuad,
    InCubic,
    OutCubic,
    InOutCubic,
    InQuart,
    OutQuart,
    InOutQuart,
    InQuint,
    OutQuint,
    InOutQuint,
    InSine,
    OutSine,
    InOutSine,
    InExpo,
    OutExpo,
    InOutExpo,
    InCirc,
    OutCirc,
    InOutCirc,
    InBounce,
    OutBounce,
    InOutBounce,
    InBack,
    OutBack,
    InOutBack,
    InElastic,
    OutElastic,
    InOutElastic,
}

/// One node of a compiled expression.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Node {
    /// A number.
    Num(f64),
    /// A name read from the variables, placeholders or Blockbench's fallbacks.
    Var(Name),
    /// A name Blockbench defines.
    Builtin(Builtin),
    /// A quoted argument of a query function.
    Str(Name),
    /// An operator or `math.*` function of up to three operands.
    Op {
        /// Which.
        op: Op,
        /// Operands, [`NONE`] when absent.
        args: [u32; 3],
    },
    /// A query or other function: its arguments are the `count` [`Node::Item`]s from `first`.
    Call {
        /// The function's name.
        name: Name,
        /// Index of its first argument's item.
        first: u32,
        /// How many arguments.
        count: u32,
    },
    /// One entry of a list (a scope's statements, a call's arguments).
    Item(u32),
    /// Statements separated by `;`: the `count` items from `first`.
    Scope {
        /// Index of the first statement's item.
        first: u32,
        /// How many statements.
        count: u32,
    },
    /// `variable.x = value` or `temp.x = value`.
    Assign {
        /// The variable.
        name: Name,
        /// The value's node.
        value: u32,
    },
    /// `return value`.
    Return(u32),
    /// `break`.
    Break,
    /// `continue`.
    Continue,
    /// `loop(count, body)`.
    Loop {
        /// The iteration count's node.
        count: u32,
        /// The body's node.
        body: u32,
    },
}

/// A compiled expression: evaluate it at each sample (`Program::eval`, in
/// `eval.rs`; made by `program.rs`, or viewed from a [`ProgramRecord`]).
#[derive(Clone, Copy, Debug)]
pub struct Program<'a> {
    pub(crate) nodes: &'a [MolangNode],
    pub(crate) text: &'a [u8],
    pub(crate) root: u32,
    pub(crate) randomness: bool,
    pub(crate) assignments: usize,
}

impl<'a> Program<'a> {
    /// Whether it calls `math.random`, `math.random_integer`,
    /// `math.die_roll` or `math.die_roll_integer`.
    pub fn uses_randomness(&self) -> bool {
        self.randomness
    }

    /// How many assignments it holds: an upper bound on the variables it adds.
    pub fn assignments(&self) -> usize {
        self.assignments
    }

    /// Whether it is empty (an empty string: 0).
    pub fn is_empty(&self) -> bool {
        self.root == NONE
    }

    /// The record of this program when its nodes start at `first_node`
    /// and its text at `first_text` of the arrays that hold them.
    pub fn record(&self, first_node: usize, first_text: usize) -> ProgramRecord {
        let at = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
        ProgramRecord {
            first_node: at(first_node),
            node_count: at(self.nodes.len()),
            first_text: at(first_text),
            text_len: at(self.text.len()),
            root: self.root,
            assignments: at(self.assignments),
            flags: u32::from(self.randomness),
        }
    }

    /// The program `record` describes, its nodes and text taken from the
    /// arrays that hold every program's (an arena's); a record that does
    /// not fit them is the empty program.
    pub fn of_record(record: &ProgramRecord, nodes: &'a [MolangNode], text: &'a [u8]) -> Self {
        let span = |first: u32, len: u32| {
            let first = first as usize;
            first..first.saturating_add(len as usize)
        };
        match (
            nodes.get(span(record.first_node, record.node_count)),
            text.get(span(record.first_text, record.text_len)),
        ) {
            (Some(nodes), Some(text)) => Self {
                nodes,
                text,
                root: record.root,
                randomness: record.flags & ProgramRecord::RANDOMNESS != 0,
                assignments: record.assignments as usize,
            },
            _ => Self::EMPTY,
        }
    }

    /// The empty program (plays 0).
    pub const EMPTY: Program<'static> = Program {
        nodes: &[],
        text: &[],
        root: NONE,
        randomness: false,
        assignments: 0,
    };
}

/// Where a compiled program lies in the arrays that hold programs' nodes
/// and normalized text (a scene's `molang_nodes` and `molang_text`).
/// Plain data: an arena holds it. Node indices inside the program count
/// from `first_node`; names index its own text.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable,
)]
#[repr(C)]
pub struct ProgramRecord {
    /// Its first node.
    pub first_node: u32,
    /// How many nodes (0 for a text that did not compile: it plays 0).
    pub node_count: u32,
    /// Where its normalized text starts.
    pub first_text: u32,
    /// Bytes of normalized text.
    pub text_len: u32,
    /// The root node, relative to `first_node`; `u32::MAX` for none.
    pub root: u32,
    /// How many assignments it holds.
    pub assignments: u32,
    /// [`ProgramRecord::RANDOMNESS`].
    pub flags: u32,
}

impl ProgramRecord {
    /// The program calls one of the random functions.
    pub const RANDOMNESS: u32 = 1;
    /// A program that plays 0: no nodes, no text.
    pub const EMPTY: Self = Self {
        first_node: 0,
        node_count: 0,
        first_text: 0,
        text_len: 0,
        root: NONE,
        assignments: 0,
        flags: 0,
    };

    /// The same record with its nodes and text moved on by the given counts.
    pub fn moved(self, nodes: usize, text: usize) -> Self {
        let add = |x: u32, by: usize| {
            u32::try_from(by)
                .ok()
                .and_then(|b| x.checked_add(b))
                .unwrap_or(u32::MAX)
        };
        Self {
            first_node: add(self.first_node, nodes),
            first_text: add(self.first_text, text),
            ..self
        }
    }
}

/// One node as an arena holds it: a tag and four words ([`Node`] packed).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable,
)]
#[repr(C)]
pub struct MolangNode {
    tag: u8,
    sub: u8,
    prefix: u8,
    pad: u8,
    a: u32,
    b: u32,
    c: u32,
    d: u32,
}

/// The operators in the order their packed code counts them (easings follow).
const OPS: [Op; 45] = [
    Op::Add,
    Op::Sub,
    Op::Mul,
    Op::Div,
    Op::Not,
    Op::Cond,
    Op::And,
    Op::Or,
    Op::Lt,
    Op::Le,
    Op::Gt,
    Op::Ge,
    Op::Eq,
    Op::Ne,
    Op::Coalesce,
    Op::Abs,
    Op::Sin,
    Op::Cos,
    Op::Exp,
    Op::Ln,
    Op::Pow,
    Op::Sqrt,
    Op::Random,
    Op::Ceil,
    Op::Round,
    Op::Trunc,
    Op::Floor,
    Op::Mod,
    Op::Min,
    Op::Max,
    Op::Clamp,
    Op::Lerp,
    Op::LerpRotate,
    Op::Asin,
    Op::Acos,
    Op::Atan,
    Op::Atan2,
    Op::DieRoll,
    Op::DieRollInteger,
    Op::HermiteBlend,
    Op::RandomInteger,
    Op::MinAngle,
    Op::Sign,
    Op::CopySign,
    Op::InverseLerp,
];

const EASINGS: [Easing; 30] = [
    Easing::InQuad,
    Easing::OutQuad,
    Easing::InOutQuad,
    Easing::InCubic,
    Easing::OutCubic,
    Easing::InOutCubic,
    Easing::InQuart,
    Easing::OutQuart,
    Easing::InOutQuart,
    Easing::InQuint,
    Easing::OutQuint,
    Easing::InOutQuint,
    Easing::InSine,
    Easing::OutSine,
    Easing::InOutSine,
    Easing::InExpo,
    Easing::OutExpo,
    Easing::InOutExpo,
    Easing::InCirc,
    Easing::OutCirc,
    Easing::InOutCirc,
    Easing::InBounce,
    Easing::OutBounce,
    Easing::InOutBounce,
    Easing::InBack,
    Easing::OutBack,
    Easing::InOutBack,
    Easing::InElastic,
    Easing::OutElastic,
    Easing::InOutElastic,
];

/// Where the easings' codes start.
const EASE_BASE: usize = 64;

/// `op` as a small code, for records.
pub(crate) fn op_code(op: Op) -> u8 {
    let i = match op {
        Op::Ease(e) => EASINGS
            .iter()
            .position(|x| *x == e)
            .map_or(0, |i| EASE_BASE.saturating_add(i)),
        op => OPS.iter().position(|x| *x == op).unwrap_or(0),
    };
    u8::try_from(i).unwrap_or(0)
}

/// The operator [`op_code`] gave `code`.
pub(crate) fn op_of(code: u8) -> Option<Op> {
    let i = usize::from(code);
    match i.checked_sub(EASE_BASE) {
        Some(e) => EASINGS.get(e).map(|e| Op::Ease(*e)),
        None => OPS.get(i).copied(),
    }
}

const PREFIXES: [Prefix; 5] = [
    Prefix::None,
    Prefix::Query,
    Prefix::Variable,
    Prefix::Temp,
    Prefix::Context,
];

/// `prefix` as a small code, for records.
pub(crate) fn prefix_code(prefix: Prefix) -> u32 {
    PREFIXES
        .iter()
        .position(|p| *p == prefix)
        .and_then(|i| u32::try_from(i).ok())
        .unwrap_or(0)
}

/// The prefix [`prefix_code`] gave; an unknown code is none.
pub(crate) fn prefix_of(code: u32) -> Prefix {
    PREFIXES.get(code as usize).copied().unwrap_or(Prefix::None)
}

const NUM: u8 = 0;
const VAR: u8 = 1;
const BUILTIN: u8 = 2;
const STR: u8 = 3;
const OP: u8 = 4;
const CALL: u8 = 5;
const ITEM: u8 = 6;
const SCOPE: u8 = 7;
const ASSIGN: u8 = 8;
const RETURN: u8 = 9;
const BREAK: u8 = 10;
const CONTINUE: u8 = 11;
const LOOP: u8 = 12;

#[allow(
    clippy::cast_possible_truncation,
    reason = "the low and high words of an f64's bits"
)]
fn split(x: f64) -> (u32, u32) {
    let bits = x.to_bits();
    (bits as u32, (bits >> 32) as u32)
}

fn join(a: u32, b: u32) -> f64 {
    f64::from_bits(u64::from(a) | (u64::from(b) << 32))
}

impl MolangNode {
    /// `0` (a number node), to fill an array with.
    pub const ZERO: Self = Self {
        tag: NUM,
        sub: 0,
        prefix: 0,
        pad: 0,
        a: 0,
        b: 0,
        c: 0,
        d: 0,
    };

    fn with(tag: u8, a: u32, b: u32, c: u32, d: u32) -> Self {
        Self {
            tag,
            a,
            b,
            c,
            d,
            ..Self::ZERO
        }
    }

    fn named(tag: u8, name: Name, c: u32, d: u32) -> Self {
        let prefix = PREFIXES.iter().position(|p| *p == name.prefix).unwrap_or(0);
        Self {
            prefix: u8::try_from(prefix).unwrap_or(0),
            ..Self::with(tag, name.start, name.end, c, d)
        }
    }

    fn name(&self) -> Name {
        Name {
            start: self.a,
            end: self.b,
            prefix: PREFIXES
                .get(usize::from(self.prefix))
                .copied()
                .unwrap_or(Prefix::None),
        }
    }

    /// `node` as an arena holds it.
    pub fn pack(node: Node) -> Self {
        match node {
            Node::Num(x) => {
                let (a, b) = split(x);
                Self::with(NUM, a, b, 0, 0)
            }
            Node::Var(name) => Self::named(VAR, name, 0, 0),
            Node::Builtin(b) => {
                let (sub, x) = match b {
                    Builtin::This => (0, 0.0),
                    Builtin::AnimTime => (1, 0.0),
                    Builtin::LifeTime => (2, 0.0),
                    Builtin::DeltaTime => (3, 0.0),
                    Builtin::TimeStamp => (4, 0.0),
                    Builtin::Constant(x) => (5, x),
                };
                let (a, b) = split(x);
                Self {
                    sub,
                    ..Self::with(BUILTIN, a, b, 0, 0)
                }
            }
            Node::Str(name) => Self::named(STR, name, 0, 0),
            Node::Op { op, args } => Self {
                sub: op_code(op),
                ..Self::with(OP, args[0], args[1], args[2], 0)
            },
            Node::Call { name, first, count } => Self::named(CALL, name, first, count),
            Node::Item(x) => Self::with(ITEM, x, 0, 0, 0),
            Node::Scope { first, count } => Self::with(SCOPE, 0, 0, first, count),
            Node::Assign { name, value } => Self::named(ASSIGN, name, value, 0),
            Node::Return(x) => Self::with(RETURN, x, 0, 0, 0),
            Node::Break => Self::with(BREAK, 0, 0, 0, 0),
            Node::Continue => Self::with(CONTINUE, 0, 0, 0, 0),
            Node::Loop { count, body } => Self::with(LOOP, count, body, 0, 0),
        }
    }

    /// The node packed; a record no `pack` wrote reads as the number 0.
    #[inline(always)]
    pub fn unpack(self) -> Node {
        match self.tag {
            NUM => Node::Num(join(self.a, self.b)),
            VAR => Node::Var(self.name()),
            BUILTIN => Node::Builtin(match self.sub {
                0 => Builtin::This,
                1 => Builtin::AnimTime,
                2 => Builtin::LifeTime,
                3 => Builtin::DeltaTime,
                4 => Builtin::TimeStamp,
                _ => Builtin::Constant(join(self.a, self.b)),
            }),
            STR => Node::Str(self.name()),
            OP => match op_of(self.sub) {
                Some(op) => Node::Op {
                    op,
                    args: [self.a, self.b, self.c],
                },
                None => Node::Num(0.0),
            },
            CALL => Node::Call {
                name: self.name(),
                first: self.c,
                count: self.d,
            },
            ITEM => Node::Item(self.a),
            SCOPE => Node::Scope {
                first: self.c,
                count: self.d,
            },
            ASSIGN => Node::Assign {
                name: self.name(),
                value: self.c,
            },
            RETURN => Node::Return(self.a),
            BREAK => Node::Break,
            CONTINUE => Node::Continue,
            LOOP => Node::Loop {
                count: self.a,
                body: self.b,
            },
            _ => Node::Num(0.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_node_packs_and_unpacks_to_itself() {
        let name = Name {
            start: 3,
            end: 9,
            prefix: Prefix::Temp,
        };
        let mut nodes = std::vec![
            Node::Num(-0.25),
            Node::Num(f64::MAX),
            Node::Var(name),
            Node::Str(name),
            Node::Call {
                name,
                first: 4,
                count: 7,
            },
            Node::Item(NONE),
            Node::Scope { first: 1, count: 2 },
            Node::Assign { name, value: 5 },
            Node::Return(6),
            Node::Break,
            Node::Continue,
            Node::Loop { count: 1, body: 2 },
            Node::Builtin(Builtin::Constant(0.5)),
        ];
        for b in [
            Builtin::This,
            Builtin::AnimTime,
            Builtin::LifeTime,
            Builtin::DeltaTime,
            Builtin::TimeStamp,
        ] {
            nodes.push(Node::Builtin(b));
        }
        for op in OPS
            .iter()
            .copied()
            .chain(EASINGS.iter().map(|e| Op::Ease(*e)))
        {
            nodes.push(Node::Op {
                op,
                args: [1, NONE, 3],
            });
        }
        for node in nodes {
            assert_eq!(MolangNode::pack(node).unpack(), node);
        }
        // A record no pack wrote is the number 0, never a panic.
        let junk = MolangNode {
            tag: 99,
            ..MolangNode::ZERO
        };
        assert_eq!(junk.unpack(), Node::Num(0.0));
        let bad_op = MolangNode {
            tag: OP,
            sub: 200,
            ..MolangNode::ZERO
        };
        assert_eq!(bad_op.unpack(), Node::Num(0.0));
        assert_eq!(core::mem::size_of::<MolangNode>(), 20);
    }
}
