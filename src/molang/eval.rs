//! Evaluating a compiled expression as molangjs does (`iterateExp`),
//! with no allocation: variables live in a table the caller provides.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "f64 arithmetic does not panic; the step and depth counters are checked against limits far below u64::MAX"
)]

use super::call_key::{self, Arg, MAX_KEY_ARGS};
use super::error::{MolangError, MolangErrorCode};
use super::jsmath::{self as js, Rng, truthy};
use super::limits::MolangLimits;
use super::node::{Builtin, NONE, Name, Node, Op, Program};
use super::placeholders::{Placeholders, Value};

/// One assigned variable: its name (in the text of the program that
/// assigned it) and value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slot<'a> {
    name: Name,
    text: &'a [u8],
    value: f64,
}

impl<'a> Slot<'a> {
    /// An unused slot, to fill a table with.
    pub const EMPTY: Slot<'static> = Slot {
        name: Name {
            start: 0,
            end: 0,
            prefix: super::node::Prefix::None,
        },
        text: &[],
        value: 0.0,
    };

    /// A variable spelled out in full (`variable.x`, `temp.y`), for a
    /// caller that carries variables from one program to the next after
    /// the first program's text is gone.
    pub fn spelled(name: &'a [u8], value: f64) -> Self {
        Slot {
            name: Name {
                start: 0,
                end: u32::try_from(name.len()).unwrap_or(u32::MAX),
                prefix: super::node::Prefix::None,
            },
            text: name,
            value,
        }
    }

    /// The name as its expansion and its written rest (`variable.` and
    /// `x` for `v.x`), and the value.
    pub fn parts(&self) -> (&'static [u8], &'a [u8], f64) {
        let (head, rest) = self.name.parts(self.text);
        (head, rest, self.value)
    }
}

/// The variables `variable.*` and `temp.*` assignments set, in caller
/// memory. molangjs keeps them in one table (`Molang.variables`) that
/// every evaluation reads and writes until Blockbench resets it (on
/// entering the Animate tab); [`Variables::clear`] is that reset.
#[derive(Debug)]
pub struct Variables<'v, 'a> {
    slots: &'v mut [Slot<'a>],
    len: usize,
    /// The generator behind `math.random` and its family.
    pub rng: Rng,
}

impl<'v, 'a> Variables<'v, 'a> {
    /// A table over `slots` (its capacity), the generator seeded with `seed`.
    pub fn new(slots: &'v mut [Slot<'a>], seed: u64) -> Self {
        Self {
            slots,
            len: 0,
            rng: Rng(seed),
        }
    }

    /// A table over `slots` whose first `set` entries already hold
    /// variables (carried from earlier evaluations), the generator seeded
    /// with `seed`.
    pub fn preset(slots: &'v mut [Slot<'a>], set: usize, seed: u64) -> Self {
        let len = set.min(slots.len());
        Self {
            slots,
            len,
            rng: Rng(seed),
        }
    }

    /// The variables set, in the order they were first assigned.
    pub fn slots(&self) -> &[Slot<'a>] {
        self.set_slots()
    }

    /// Forgets every variable (molangjs `resetVariables`).
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// How many variables are set.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The value of the variable written `name` (e.g. `variable.x`).
    pub fn get_by_text(&self, name: &[u8]) -> Option<f64> {
        self.set_slots()
            .iter()
            .find(|s| s.name.is(s.text, name))
            .map(|s| s.value)
    }

    fn set_slots(&self) -> &[Slot<'a>] {
        self.slots.get(..self.len).unwrap_or(&[])
    }

    fn get(&self, name: &Name, text: &[u8]) -> Option<f64> {
        self.set_slots()
            .iter()
            .find(|s| s.name.same(s.text, name, text))
            .map(|s| s.value)
    }

    fn set(&mut self, name: Name, text: &'a [u8], value: f64) -> Result<(), MolangError> {
        let len = self.len;
        if let Some(slot) = self
            .slots
            .get_mut(..len)
            .and_then(|s| s.iter_mut().find(|s| s.name.same(s.text, &name, text)))
        {
            slot.value = value;
            return Ok(());
        }
        let slot = self.slots.get_mut(len).ok_or(MolangError::new(
            MolangErrorCode::TooManyVariables,
            0,
            "room in the variable table",
        ))?;
        *slot = Slot { name, text, value };
        self.len = len + 1;
        Ok(())
    }
}

/// The time values Blockbench gives an expression.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Times {
    /// `query.anim_time`: the animation's time, seconds.
    pub anim_time: f64,
    /// `query.life_time`, `time`: the timeline's time, seconds.
    pub life_time: f64,
    /// `query.delta_time`: seconds since the last frame (Blockbench reads
    /// the wall clock, clamped to 0–0.1; a sampler gives its step).
    pub delta_time: f64,
    /// `this`: the channel's value on the previous frame.
    pub this: f64,
}

/// Everything one evaluation reads and writes.
pub struct Context<'c, 'v, 'a> {
    /// The time values.
    pub times: Times,
    /// The assigned variables.
    pub variables: &'c mut Variables<'v, 'a>,
    /// The project's `animation_variable_placeholders`.
    pub placeholders: &'c Placeholders<'c, 'a>,
    /// The step and depth bounds.
    pub limits: MolangLimits,
}

/// molangjs's `loop_status`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Normal,
    Returned,
    Broke,
    Continued,
}

/// A string or a number: what `==` and the query functions compare.
#[derive(Clone, Copy)]
enum Operand<'t> {
    Num(f64),
    Str(&'t [u8]),
}

impl Operand<'_> {
    fn number(self) -> f64 {
        match self {
            Self::Num(x) => x,
            Self::Str(s) => to_number(s),
        }
    }

    /// JavaScript `===`.
    fn strict_eq(self, other: Self) -> bool {
        match (self, other) {
            (Self::Num(a), Self::Num(b)) => a == b,
            (Self::Str(a), Self::Str(b)) => a == b,
            _ => false,
        }
    }

    /// JavaScript `==` between numbers and strings: a string compares as
    /// its number.
    fn loose_eq(self, other: Self) -> bool {
        match (self, other) {
            (Self::Str(a), Self::Str(b)) => a == b,
            _ => self.number() == other.number(),
        }
    }
}

/// JavaScript `Number(string)` for decimal text: blank is 0, anything
/// else that is no decimal number is NaN.
fn to_number(s: &[u8]) -> f64 {
    let t = core::str::from_utf8(s).unwrap_or("").trim();
    if t.is_empty() {
        return 0.0;
    }
    if t.bytes()
        .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
    {
        t.parse().unwrap_or(f64::NAN)
    } else {
        f64::NAN
    }
}

/// An evaluation stopped at a limit; the error waits in [`Run::error`].
/// Zero-sized, so every node's result stays an `f64` in registers.
struct Stop;

type Step<T = f64> = Result<T, Stop>;

struct Run<'r, 'c, 'v, 'a> {
    ctx: &'r mut Context<'c, 'v, 'a>,
    error: Option<MolangError>,
    status: Status,
    unassigned: bool,
    steps: u64,
    depth: u64,
    max_depth: u64,
}

impl<'a> Program<'a> {
    /// The value molangjs gives this expression in `ctx` (its `parse`
    /// after its cache: `calculate(...) || 0`, so NaN and 0 give 0). An
    /// error is a limit met while evaluating.
    pub fn eval(&self, ctx: &mut Context<'_, '_, 'a>) -> Result<f64, MolangError> {
        evaluate(self, ctx)
    }
}

fn evaluate<'a>(program: &Program<'a>, ctx: &mut Context<'_, '_, 'a>) -> Result<f64, MolangError> {
    let max_depth = ctx.limits.max_depth.saturating_mul(2).saturating_add(4);
    let mut run = Run {
        ctx,
        error: None,
        status: Status::Normal,
        unassigned: false,
        steps: 0,
        depth: 0,
        max_depth,
    };
    match run.node(program, program.root) {
        Ok(value) => Ok(if truthy(value) { value } else { 0.0 }),
        Err(Stop) => Err(run.error.unwrap_or(MolangError::new(
            MolangErrorCode::TooManySteps,
            0,
            "an evaluation that ends",
        ))),
    }
}

impl<'a> Run<'_, '_, '_, 'a> {
    fn stop(&mut self, code: MolangErrorCode, expected: &'static str) -> Stop {
        self.error = Some(MolangError::new(code, 0, expected));
        Stop
    }

    fn step(&mut self) -> Step<()> {
        self.steps += 1;
        if self.steps > self.ctx.limits.max_steps {
            return Err(self.stop(
                MolangErrorCode::TooManySteps,
                "fewer evaluation steps (maxMolangSteps)",
            ));
        }
        Ok(())
    }

    fn node(&mut self, p: &Program<'a>, i: u32) -> Step {
        if i == NONE {
            return Ok(0.0);
        }
        self.step()?;
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(self.stop(
                MolangErrorCode::TooDeep,
                "less nesting, placeholders included (maxMolangDepth)",
            ));
        }
        let value = self.node_inner(p, i);
        self.depth -= 1;
        value
    }

    fn node_inner(&mut self, p: &Program<'a>, i: u32) -> Step {
        let Some(node) = p.nodes.get(i as usize).map(|n| n.unpack()) else {
            return Ok(0.0);
        };
        Ok(match node {
            Node::Num(x) => x,
            Node::Builtin(b) => self.builtin(b),
            Node::Var(name) => self.variable(&name, p.text)?,
            Node::Str(_) => 0.0,
            Node::Item(x) => self.node(p, x)?,
            Node::Op { op, args } => self.op(p, op, args)?,
            Node::Call { name, first, count } => self.call(p, &name, first, count)?,
            Node::Scope { first, count } => {
                self.status = Status::Normal;
                let mut value = 0.0;
                for k in 0..count {
                    value = self.node(p, first.saturating_add(k))?;
                    if self.status != Status::Normal {
                        break;
                    }
                }
                value
            }
            Node::Assign { name, value } => {
                let v = self.node(p, value)?;
                if let Err(e) = self.ctx.variables.set(name, p.text, v) {
                    self.error = Some(e);
                    return Err(Stop);
                }
                0.0
            }
            Node::Return(value) => {
                self.status = Status::Returned;
                self.node(p, value)?
            }
            Node::Break => {
                self.status = Status::Broke;
                0.0
            }
            Node::Continue => {
                self.status = Status::Continued;
                0.0
            }
            Node::Loop { count, body } => {
                let n = js::clamp(self.node(p, count)?, 0.0, 1024.0);
                let mut value = 0.0;
                let mut k = 0.0;
                while k < n {
                    k += 1.0;
                    let result = self.node(p, body)?;
                    match self.status {
                        Status::Broke => {
                            self.status = Status::Normal;
                            break;
                        }
                        Status::Continued => {
                            self.status = Status::Normal;
                            continue;
                        }
                        _ => {}
                    }
                    value = result;
                    if self.status == Status::Returned {
                        break;
                    }
                }
                value
            }
        })
    }

    fn builtin(&self, b: Builtin) -> f64 {
        let t = &self.ctx.times;
        match b {
            Builtin::This => t.this,
            Builtin::AnimTime => t.anim_time,
            Builtin::LifeTime => t.life_time,
            Builtin::DeltaTime => t.delta_time,
            Builtin::TimeStamp => libm::floor(t.life_time * 20.0) / 20.0,
            Builtin::Constant(x) => x,
        }
    }

    /// A name: an assigned variable, else a placeholder, else Blockbench's
    /// fallback (`query.model_scale` 1/16), else unassigned: 0, and `??`
    /// takes its right side.
    fn variable(&mut self, name: &Name, text: &[u8]) -> Step {
        if let Some(v) = self.ctx.variables.get(name, text) {
            return Ok(v);
        }
        if let Some(v) = self.placeholder(name, text)? {
            return Ok(v);
        }
        if name.is(text, b"query.model_scale") {
            return Ok(1.0 / 16.0);
        }
        self.unassigned = true;
        Ok(0.0)
    }

    /// The placeholder line that defines `name` (the last one), evaluated
    /// as Blockbench's `variableHandler` does: sliders, toggles and
    /// impulses read 0 (no buttons here), anything else is parsed with
    /// the same context, `|| 0`.
    fn placeholder(&mut self, name: &Name, text: &[u8]) -> Step<Option<f64>> {
        let Some(entry) = self.ctx.placeholders.find(name, text) else {
            return Ok(None);
        };
        self.placeholder_value(entry.value).map(Some)
    }

    fn placeholder_value(&mut self, value: Value<'a>) -> Step {
        Ok(match value {
            Value::Control => 0.0,
            Value::Expression(program) => {
                let v = self.node(&program, program.root)?;
                // The nested `parse` ends with `loop_status = 0`.
                self.status = Status::Normal;
                if truthy(v) { v } else { 0.0 }
            }
        })
    }

    fn operand(&mut self, p: &Program<'a>, i: u32) -> Step<Operand<'a>> {
        match p.nodes.get(i as usize).map(|n| n.unpack()) {
            Some(Node::Var(name)) if p.text.get(name.start as usize) == Some(&b'\'') => {
                // compareValues: a name starting with a quote is a string.
                Ok(Operand::Str(
                    p.text
                        .get(name.start as usize..name.end as usize)
                        .unwrap_or(&[]),
                ))
            }
            Some(Node::Item(x)) => self.operand(p, x),
            Some(Node::Str(name)) => Ok(Operand::Str(
                p.text
                    .get(name.start as usize..name.end as usize)
                    .unwrap_or(&[]),
            )),
            _ => Ok(Operand::Num(self.node(p, i)?)),
        }
    }

    fn op(&mut self, p: &Program<'a>, op: Op, [a, b, c]: [u32; 3]) -> Step {
        let bool01 = |x: bool| if x { 1.0 } else { 0.0 };
        let factor = core::f64::consts::PI / 180.0;
        Ok(match op {
            Op::Add => self.node(p, a)? + self.node(p, b)?,
            Op::Sub => self.node(p, a)? - self.node(p, b)?,
            Op::Mul => self.node(p, a)? * self.node(p, b)?,
            Op::Div => self.node(p, a)? / self.node(p, b)?,
            Op::Not => bool01(self.node(p, a)? == 0.0),
            Op::Cond => {
                if truthy(self.node(p, a)?) {
                    self.node(p, b)?
                } else {
                    self.node(p, c)?
                }
            }
            Op::And => bool01(truthy(self.node(p, a)?) && truthy(self.node(p, b)?)),
            Op::Or => bool01(truthy(self.node(p, a)?) || truthy(self.node(p, b)?)),
            Op::Lt => bool01(self.node(p, a)? < self.node(p, b)?),
            Op::Le => bool01(self.node(p, a)? <= self.node(p, b)?),
            Op::Gt => bool01(self.node(p, a)? > self.node(p, b)?),
            Op::Ge => bool01(self.node(p, a)? >= self.node(p, b)?),
            Op::Eq | Op::Ne => {
                let x = self.operand(p, a)?;
                let y = self.operand(p, b)?;
                bool01(x.strict_eq(y) == (op == Op::Eq))
            }
            Op::Coalesce => {
                self.unassigned = false;
                let v = self.node(p, a)?;
                if self.unassigned { self.node(p, b)? } else { v }
            }
            Op::Abs => libm::fabs(self.node(p, a)?),
            Op::Sin => libm::sin(self.node(p, a)? * factor),
            Op::Cos => libm::cos(self.node(p, a)? * factor),
            Op::Exp => libm::exp(self.node(p, a)?),
            Op::Ln => libm::log(self.node(p, a)?),
            Op::Pow => {
                let x = self.node(p, a)?;
                js::pow(x, self.node(p, b)?)
            }
            Op::Sqrt => libm::sqrt(self.node(p, a)?),
            Op::Random => {
                let lo = self.node(p, a)?;
                let hi = self.node(p, b)?;
                self.ctx.variables.rng.random(lo, hi)
            }
            Op::RandomInteger => {
                let lo = self.node(p, a)?;
                let hi = self.node(p, b)?;
                self.ctx.variables.rng.random_integer(lo, hi)
            }
            Op::DieRoll | Op::DieRollInteger => {
                let n = js::clamp(self.node(p, a)?, 0.0, 1e9);
                let lo = self.node(p, b)?;
                let hi = self.node(p, c)?;
                let mut sum = 0.0;
                let mut k = 0.0;
                while k < n {
                    k += 1.0;
                    self.step()?;
                    sum += if op == Op::DieRoll {
                        self.ctx.variables.rng.random(lo, hi)
                    } else {
                        self.ctx.variables.rng.random_integer(lo, hi)
                    };
                }
                sum
            }
            Op::Ceil => libm::ceil(self.node(p, a)?),
            Op::Round => js::round(self.node(p, a)?),
            Op::Trunc => libm::trunc(self.node(p, a)?),
            Op::Floor => libm::floor(self.node(p, a)?),
            Op::Mod => self.node(p, a)? % self.node(p, b)?,
            Op::Min => {
                let x = self.node(p, a)?;
                js::min(x, self.node(p, b)?)
            }
            Op::Max => {
                let x = self.node(p, a)?;
                js::max(x, self.node(p, b)?)
            }
            Op::Clamp => {
                let x = self.node(p, a)?;
                let lo = self.node(p, b)?;
                js::clamp(x, lo, self.node(p, c)?)
            }
            Op::Lerp => {
                let x = self.node(p, a)?;
                let y = self.node(p, b)?;
                js::lerp(x, y, self.node(p, c)?)
            }
            Op::LerpRotate => {
                let x = self.node(p, a)?;
                let y = self.node(p, b)?;
                js::lerp_rotate(x, y, self.node(p, c)?)
            }
            Op::Asin => libm::asin(self.node(p, a)?) / factor,
            Op::Acos => libm::acos(self.node(p, a)?) / factor,
            Op::Atan => libm::atan(self.node(p, a)?) / factor,
            Op::Atan2 => {
                let y = self.node(p, a)?;
                libm::atan2(y, self.node(p, b)?) / factor
            }
            Op::HermiteBlend => js::hermite_blend(self.node(p, a)?),
            Op::MinAngle => js::min_angle(self.node(p, a)?),
            Op::Sign => js::sign(self.node(p, a)?),
            Op::CopySign => {
                let x = libm::fabs(self.node(p, a)?);
                x * js::sign(self.node(p, b)?)
            }
            Op::InverseLerp => {
                let s = self.node(p, a)?;
                let e = self.node(p, b)?;
                (self.node(p, c)? - s) / (e - s)
            }
            Op::Ease(e) => {
                let s = self.node(p, a)?;
                let t = self.node(p, b)?;
                let v = self.node(p, c)?;
                js::lerp(s, t, js::ease(e, v))
            }
        })
    }

    /// `name(args)`: every argument is evaluated first, as molangjs maps
    /// them; then the four query functions molangjs defines, the camera
    /// and bone functions Blockbench defines (0: no camera or bones here),
    /// a placeholder of the same name, or 0.
    fn call(&mut self, p: &Program<'a>, name: &Name, first: u32, count: u32) -> Step {
        let text = p.text;
        let arg = |k: u32| first.saturating_add(k);
        let (mut v0, mut v1, mut v2) = (None, None, None);
        let mut kept = [Arg::Num(0.0); MAX_KEY_ARGS];
        let mut all = true;
        let mut any = false;
        let mut approx = true;
        for k in 0..count {
            let x = self.operand(p, arg(k))?;
            if let Some(slot) = kept.get_mut(k as usize) {
                *slot = match x {
                    Operand::Num(v) => Arg::Num(v),
                    Operand::Str(s) => Arg::Str(s),
                };
            }
            match k {
                0 => v0 = Some(x),
                1 => v1 = Some(x),
                2 => v2 = Some(x),
                _ => {}
            }
            if let (Some(first), true) = (v0, k > 0) {
                all &= x.strict_eq(first);
                any |= x.loose_eq(first);
                let d = libm::fabs(first.number() - x.number());
                approx &= d <= 0.000_000_1 || d.is_nan();
            }
        }
        let bool01 = |x: bool| if x { 1.0 } else { 0.0 };
        if name.is(text, b"query.in_range") {
            // undefined compares false.
            let (Some(v), Some(lo), Some(hi)) = (v0, v1, v2) else {
                return Ok(0.0);
            };
            let v = v.number();
            return Ok(bool01(v <= hi.number() && v >= lo.number()));
        }
        if name.is(text, b"query.all") {
            return Ok(bool01(all));
        }
        if name.is(text, b"query.any") {
            return Ok(bool01(any));
        }
        if name.is(text, b"query.approx_eq") {
            return Ok(bool01(approx));
        }
        if let Some(v) = self.placeholder(name, text)? {
            return Ok(v);
        }
        // Blockbench 5: the call with its arguments, `name(1,'a')`.
        let Some(args) = kept.get(..count as usize) else {
            return Ok(0.0);
        };
        let placeholders = self.ctx.placeholders;
        let keyed = placeholders
            .latest_first()
            .find(|e| call_key::matches(e.key_parts(), name.parts(text), args));
        Ok(match keyed {
            Some(entry) => self.placeholder_value(entry.value)?,
            None => 0.0,
        })
    }
}
