//! A compiled expression: nodes in caller memory, children by index.

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
/// `eval.rs`; made by `program.rs`).
#[derive(Clone, Copy, Debug)]
pub struct Program<'a> {
    pub(crate) nodes: &'a [Node],
    pub(crate) text: &'a [u8],
    pub(crate) root: u32,
    pub(crate) randomness: bool,
    pub(crate) assignments: usize,
}

impl Program<'_> {
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
}
