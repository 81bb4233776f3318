//! The evaluator's walk (molangjs `iterateExp`) in bounded stack: the
//! first [`NESTED_LEVELS`] levels of nesting are read by recursion
//! (`nested.rs`, fast: most programs never go deeper); below that, where
//! molangjs calls itself for an operand, the walk opens a [`Level`] in
//! the caller's [`EvalStack`] and reads the operand, its value resuming
//! the level. So evaluating takes at most the same stack however deep a
//! program nests, and a program nested past [`EVAL_LEVELS`] open levels
//! (or holding more than [`EVAL_VALUES`] pending operands) stops as too
//! deep and plays 0, as one past `maxMolangDepth` does.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "f64 arithmetic does not panic; level and value counts stay below their tables' lengths, checked at each push; step and depth counters are checked against limits far below u64::MAX"
)]

mod apply;
mod call;
mod nested;
mod values;

use super::error::{MolangError, MolangErrorCode};
use super::eval::Context;
use super::jsmath::{self as js, truthy};
use super::node::{Builtin, NONE, Name, Node, Op, Program};
use super::placeholders::Value;
use values::{Operand, arity, static_operand};

/// Open levels the evaluator holds: one per operator, call, scope, loop,
/// assignment, `return` and placeholder being read (items and leaves take
/// none). Past the default `maxMolangDepth` of 128, with room for
/// placeholders read inside.
pub const EVAL_LEVELS: usize = 136;
/// Nesting read by recursion before the levels take over: eight native
/// frames of about 500 bytes (a call counts as three).
pub const NESTED_LEVELS: u32 = 8;
/// Operand values the open levels hold at once: one or two per operator
/// or loop, up to eight per call.
pub const EVAL_VALUES: usize = 256;

/// molangjs's `loop_status`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Normal,
    Returned,
    Broke,
    Continued,
}

/// An evaluation stopped at a limit; the error waits in [`Run::error`].
struct Stop;

type Step<T = f64> = Result<T, Stop>;

/// One open level: a node of a program (the program evaluated, or
/// placeholder line `prog - 1`) waiting on its operands, or (`node` ==
/// [`NONE`]) a placeholder line being read for a name.
#[derive(Clone, Copy, Debug)]
struct Level {
    prog: u32,
    node: u32,
    /// Operands read (a loop: 1 + iterations run).
    k: u32,
    /// Where its values start in [`EvalStack::values`].
    base: u16,
    /// molangjs's nesting depth of the node, counted as its recursive
    /// reader counts it: one per node, items included (at most two per
    /// level, so it fits).
    depth: u16,
}

impl Level {
    const ZERO: Self = Self {
        prog: 0,
        node: 0,
        k: 0,
        base: 0,
        depth: 0,
    };
}

/// The evaluator's open levels and pending operand values (4.2 KiB), in
/// memory the caller places ([`Program::eval_with`]) and may reuse from
/// one evaluation to the next: any contents, each evaluation starts empty.
#[derive(Clone, Debug)]
pub struct EvalStack {
    levels: [Level; EVAL_LEVELS],
    values: [f64; EVAL_VALUES],
}

impl EvalStack {
    /// An empty stack (a `const`, for statics).
    pub const fn new() -> Self {
        Self {
            levels: [Level::ZERO; EVAL_LEVELS],
            values: [0.0; EVAL_VALUES],
        }
    }
}

impl Default for EvalStack {
    fn default() -> Self {
        Self::new()
    }
}

/// A call's comparison flags and phase, held as its first value.
const ALL: u32 = 1;
const ANY: u32 = 2;
const APPROX: u32 = 4;
/// The call has read its arguments and waits on a placeholder line.
const AWAITING: u32 = 8;

/// What the walk does next.
enum Flow {
    /// A node's value is known: it goes to the level below.
    Value(f64),
    /// A level opened (this one, just written to the top of the stack):
    /// it starts reading its operands.
    Opened(Level),
}

struct Run<'r, 'c, 'v, 'a> {
    ctx: &'r mut Context<'c, 'v, 'a>,
    main: Program<'a>,
    error: Option<MolangError>,
    status: Status,
    unassigned: bool,
    steps: u64,
    max_depth: u64,
    /// molangjs's depth of the node the recursive reader is on (`nested.rs`).
    depth: u64,
    /// Its native frames: past [`NESTED_LEVELS`] the levels take over.
    nested: u32,
    levels: &'r mut [Level; EVAL_LEVELS],
    open: usize,
    values: &'r mut [f64; EVAL_VALUES],
    held: usize,
}

impl<'a> Program<'a> {
    /// The value molangjs gives this expression in `ctx` (its `parse`
    /// after its cache: `calculate(...) || 0`, so NaN and 0 give 0). An
    /// error is a limit met while evaluating.
    ///
    /// Its open levels are an [`EvalStack`] (4.2 KiB) on this frame; a
    /// caller that evaluates often passes one of its own to
    /// [`Program::eval_with`].
    pub fn eval(&self, ctx: &mut Context<'_, '_, 'a>) -> Result<f64, MolangError> {
        self.eval_with(ctx, &mut EvalStack::new())
    }

    /// [`Program::eval`], its open levels in `stack`.
    pub fn eval_with(
        &self,
        ctx: &mut Context<'_, '_, 'a>,
        stack: &mut EvalStack,
    ) -> Result<f64, MolangError> {
        evaluate(self, ctx, stack)
    }
}

/// The value molangjs gives `program` in `ctx` (its `parse` after its
/// cache: `calculate(...) || 0`, so NaN and 0 give 0).
fn evaluate<'a>(
    program: &Program<'a>,
    ctx: &mut Context<'_, '_, 'a>,
    stack: &mut EvalStack,
) -> Result<f64, MolangError> {
    let max_depth = ctx.limits.max_depth.saturating_mul(2).saturating_add(4);
    let mut run = Run {
        ctx,
        main: *program,
        error: None,
        status: Status::Normal,
        unassigned: false,
        steps: 0,
        max_depth,
        depth: 0,
        nested: 0,
        levels: &mut stack.levels,
        open: 0,
        values: &mut stack.values,
        held: 0,
    };
    let main = *program;
    match run.node(&main, 0, program.root) {
        Ok(value) => Ok(if truthy(value) { value } else { 0.0 }),
        Err(Stop) => Err(run.error.unwrap_or(MolangError::new(
            MolangErrorCode::TooManySteps,
            0,
            "an evaluation that ends",
        ))),
    }
}

impl<'a> Run<'_, '_, '_, 'a> {
    #[cold]
    #[inline(never)]
    fn stop(&mut self, code: MolangErrorCode, expected: &'static str) -> Stop {
        self.error = Some(MolangError::new(code, 0, expected));
        Stop
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&mut self) -> Stop {
        self.stop(
            MolangErrorCode::TooDeep,
            "less nesting, placeholders included (maxMolangDepth)",
        )
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

    /// Program `prog`: the one evaluated (0) or placeholder line `prog - 1`.
    fn program(&self, prog: u32) -> Program<'a> {
        match prog.checked_sub(1) {
            None => self.main,
            Some(line) => match self
                .ctx
                .placeholders
                .entry_at(line as usize)
                .map(|e| e.value)
            {
                Some(Value::Expression(p)) => p,
                _ => Program::EMPTY,
            },
        }
    }

    /// The value of node `i` of program `prog` at molangjs depth
    /// `parent + 1`, read on the open levels: the levels opened for it
    /// are closed when it returns.
    fn on_levels(&mut self, prog: u32, i: u32, parent: u32) -> Step {
        let base = self.open;
        match self.enter(prog, i, parent)? {
            Flow::Value(v) => Ok(v),
            Flow::Opened(level) => self.levels_loop(level, base),
        }
    }

    fn hold(&mut self, v: f64) -> Step<()> {
        let Some(slot) = self.values.get_mut(self.held) else {
            return Err(self.too_deep());
        };
        *slot = v;
        self.held += 1;
        Ok(())
    }

    fn held_at(&self, base: u16, k: usize) -> f64 {
        self.values.get(base as usize + k).copied().unwrap_or(0.0)
    }

    fn open(&mut self, prog: u32, node: u32, depth: u32) -> Step<Flow> {
        let (Ok(base), Ok(depth)) = (u16::try_from(self.held), u16::try_from(depth)) else {
            return Err(self.too_deep());
        };
        let Some(slot) = self.levels.get_mut(self.open) else {
            return Err(self.too_deep());
        };
        let level = Level {
            prog,
            node,
            k: 0,
            base,
            depth,
        };
        *slot = level;
        self.open += 1;
        // Handed on in registers: read back at once, the record just
        // written would stall the load.
        Ok(Flow::Opened(level))
    }

    /// Closes the top level, dropping the values it held.
    fn close(&mut self) {
        self.open -= 1;
        if let Some(level) = self.levels.get(self.open) {
            self.held = usize::from(level.base);
        }
    }

    /// Starts reading node `i` of program `prog` as an operand at molangjs
    /// depth `parent + 1` (molangjs `iterateExp`): a step and a depth
    /// each, items passed through as the reader passed them.
    fn enter(&mut self, prog: u32, i: u32, parent: u32) -> Step<Flow> {
        let p = self.program(prog);
        self.enter_in(&p, prog, i, parent)
    }

    /// [`Run::enter`] with program `prog` at hand as `p`.
    fn enter_in(&mut self, p: &Program<'a>, prog: u32, mut i: u32, mut parent: u32) -> Step<Flow> {
        loop {
            if i == NONE {
                return Ok(Flow::Value(0.0));
            }
            self.step()?;
            let depth = parent + 1;
            if u64::from(depth) > self.max_depth {
                return Err(self.too_deep());
            }
            let Some(node) = p.nodes.get(i as usize).map(|n| n.unpack()) else {
                return Ok(Flow::Value(0.0));
            };
            return Ok(Flow::Value(match node {
                Node::Num(x) => x,
                Node::Builtin(b) => self.builtin(b),
                Node::Str(_) => 0.0,
                Node::Item(x) => {
                    (i, parent) = (x, depth);
                    continue;
                }
                Node::Var(name) => return self.variable(&name, p.text, depth),
                Node::Break => {
                    self.status = Status::Broke;
                    0.0
                }
                Node::Continue => {
                    self.status = Status::Continued;
                    0.0
                }
                Node::Scope { .. } => {
                    self.status = Status::Normal;
                    return self.open(prog, i, depth);
                }
                Node::Return(_) => {
                    self.status = Status::Returned;
                    return self.open(prog, i, depth);
                }
                Node::Op {
                    op: Op::Coalesce, ..
                } => {
                    self.unassigned = false;
                    return self.open(prog, i, depth);
                }
                Node::Assign { .. } | Node::Loop { .. } | Node::Op { .. } | Node::Call { .. } => {
                    return self.open(prog, i, depth);
                }
            }));
        }
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
    fn variable(&mut self, name: &Name, text: &[u8], depth: u32) -> Step<Flow> {
        if let Some(v) = self.ctx.variables.get(name, text) {
            return Ok(Flow::Value(v));
        }
        if let Some(line) = self.ctx.placeholders.find_index(name, text) {
            return self.placeholder(line, depth);
        }
        if name.is(text, b"query.model_scale") {
            return Ok(Flow::Value(1.0 / 16.0));
        }
        self.unassigned = true;
        Ok(Flow::Value(0.0))
    }

    /// Placeholder line `line`, read for a name at `depth` as Blockbench's
    /// `variableHandler` reads it: sliders, toggles and impulses read 0 (no
    /// buttons here), anything else is parsed with the same context, `|| 0`.
    fn placeholder(&mut self, line: usize, depth: u32) -> Step<Flow> {
        match self.ctx.placeholders.entry_at(line).map(|e| e.value) {
            Some(Value::Expression(_)) => {
                match u32::try_from(line).ok().and_then(|l| l.checked_add(1)) {
                    Some(prog) => self.open(prog, NONE, depth),
                    None => Err(self.too_deep()),
                }
            }
            _ => Ok(Flow::Value(0.0)),
        }
    }

    /// Runs the open levels until the last one above `base` closes, its
    /// value the result: the top level takes the value of the operand it read
    /// (none when it has just opened) and reads its next operand (a leaf
    /// at once; one with operands of its own becomes the top level) or
    /// closes, its value going to the level below.
    fn levels_loop(&mut self, mut level: Level, base: usize) -> Step {
        let mut operand = None;
        loop {
            let top = self.open.saturating_sub(1);
            let p = self.program(level.prog);
            let node = match level.node {
                NONE => None,
                i => Some(p.nodes.get(i as usize).map(|n| n.unpack())),
            };
            let depth = u32::from(level.depth);
            loop {
                let next = match node {
                    // A placeholder line: its root, then the nested `parse`
                    // ends with `loop_status = 0`.
                    None => match operand {
                        None => Next::Read(p.root),
                        Some(v) => {
                            self.status = Status::Normal;
                            Next::Close(if truthy(v) { v } else { 0.0 })
                        }
                    },
                    Some(Some(Node::Scope { first, count })) => {
                        self.scope(&mut level, operand, first, count)?
                    }
                    Some(Some(Node::Assign { name, value })) => match operand {
                        None => Next::Read(value),
                        Some(v) => {
                            if let Err(e) = self.ctx.variables.set(name, p.text, v) {
                                self.error = Some(e);
                                return Err(Stop);
                            }
                            Next::Close(0.0)
                        }
                    },
                    Some(Some(Node::Return(value))) => match operand {
                        None => Next::Read(value),
                        Some(v) => Next::Close(v),
                    },
                    Some(Some(Node::Loop { count, body })) => {
                        self.repeat(&mut level, operand, count, body)?
                    }
                    Some(Some(Node::Op { op, args })) => {
                        self.op(&mut level, operand, &p, op, args)?
                    }
                    Some(Some(Node::Call { name, first, count })) => {
                        self.call(&mut level, operand, &p, &name, first, count)?
                    }
                    Some(_) => Next::Close(0.0),
                };
                let flow = match next {
                    Next::Read(i) => self.enter_in(&p, level.prog, i, depth)?,
                    Next::Placeholder(line) => self.placeholder(line, depth)?,
                    Next::Close(v) => {
                        self.close();
                        let below = self.open.checked_sub(1).filter(|t| *t >= base);
                        let Some(below) = below.and_then(|t| self.levels.get(t)) else {
                            return Ok(v);
                        };
                        (level, operand) = (*below, Some(v));
                        break;
                    }
                };
                match flow {
                    Flow::Value(v) => operand = Some(v),
                    Flow::Opened(opened) => {
                        if let Some(slot) = self.levels.get_mut(top) {
                            *slot = level;
                        }
                        (level, operand) = (opened, None);
                        break;
                    }
                }
            }
        }
    }

    /// `a;b;c` (molangjs reads the lines until one sets `loop_status`).
    #[inline(never)]
    fn scope(
        &mut self,
        level: &mut Level,
        operand: Option<f64>,
        first: u32,
        count: u32,
    ) -> Step<Next> {
        if let Some(v) = operand {
            // The value so far, replaced by each line's.
            if let Some(slot) = self.values.get_mut(usize::from(level.base)) {
                *slot = v;
            }
            if self.status != Status::Normal {
                return Ok(Next::Close(v));
            }
            level.k += 1;
        } else {
            self.hold(0.0)?;
        }
        if level.k < count {
            return Ok(Next::Read(first.saturating_add(level.k)));
        }
        Ok(Next::Close(self.held_at(level.base, 0)))
    }

    /// `loop(count, body)`: the count clamped to 0–1024, then the body
    /// that many times, `break` and `continue` obeyed.
    #[inline(never)]
    fn repeat(
        &mut self,
        level: &mut Level,
        operand: Option<f64>,
        count: u32,
        body: u32,
    ) -> Step<Next> {
        let Some(v) = operand else {
            return Ok(Next::Read(count));
        };
        if level.k == 0 {
            // The count: held with the loop's value (0 until a body gives one).
            self.hold(js::clamp(v, 0.0, 1024.0))?;
            self.hold(0.0)?;
        } else {
            match self.status {
                Status::Broke => {
                    self.status = Status::Normal;
                    return Ok(Next::Close(self.held_at(level.base, 1)));
                }
                Status::Continued => self.status = Status::Normal,
                _ => {
                    if let Some(slot) = self.values.get_mut(usize::from(level.base) + 1) {
                        *slot = v;
                    }
                    if self.status == Status::Returned {
                        return Ok(Next::Close(v));
                    }
                }
            }
        }
        // `k` is one more than the bodies run.
        let n = self.held_at(level.base, 0);
        if f64::from(level.k) < n {
            level.k += 1;
            return Ok(Next::Read(body));
        }
        Ok(Next::Close(self.held_at(level.base, 1)))
    }

    /// An operator or `math.*` function: its operands in order (`&&`,
    /// `||`, `?:` and `??` only those they need), then its value.
    fn op(
        &mut self,
        level: &mut Level,
        operand: Option<f64>,
        p: &Program<'a>,
        op: Op,
        [a, b, c]: [u32; 3],
    ) -> Step<Next> {
        let bool01 = |x: bool| if x { 1.0 } else { 0.0 };
        let k = level.k;
        let Some(v) = operand else {
            return Ok(match op {
                Op::Eq | Op::Ne => self.compare(level, None, p, op, a, b)?,
                _ => Next::Read(a),
            });
        };
        level.k += 1;
        Ok(match op {
            Op::Cond if k == 0 => Next::Read(if truthy(v) { b } else { c }),
            Op::And if k == 0 && !truthy(v) => Next::Close(0.0),
            Op::Or if k == 0 && truthy(v) => Next::Close(1.0),
            Op::And | Op::Or if k == 0 => Next::Read(b),
            Op::And | Op::Or => Next::Close(bool01(truthy(v))),
            Op::Coalesce if k == 0 && self.unassigned => Next::Read(b),
            Op::Cond | Op::Coalesce => Next::Close(v),
            Op::Eq | Op::Ne => {
                level.k = k;
                self.compare(level, Some(v), p, op, a, b)?
            }
            _ => {
                let arity = arity(op);
                if k + 1 < arity {
                    self.hold(v)?;
                    Next::Read(if k == 0 { b } else { c })
                } else {
                    let x = if arity > 1 {
                        self.held_at(level.base, 0)
                    } else {
                        v
                    };
                    let y = if arity > 2 {
                        self.held_at(level.base, 1)
                    } else {
                        v
                    };
                    Next::Close(self.apply(op, x, y, v)?)
                }
            }
        })
    }

    /// `==` and `!=`: strict equality of two operands, strings kept.
    /// `level.k` counts the operands read; a number is held, a string is
    /// read again from its node.
    #[inline(never)]
    fn compare(
        &mut self,
        level: &mut Level,
        operand: Option<f64>,
        p: &Program<'a>,
        op: Op,
        a: u32,
        b: u32,
    ) -> Step<Next> {
        let mut right = None;
        match (level.k, operand) {
            (0, None) => {
                if let Err(target) = static_operand(p, a) {
                    return Ok(Next::Read(target));
                }
                level.k = 1;
            }
            (0, Some(v)) => {
                self.hold(v)?;
                level.k = 1;
            }
            (_, Some(v)) => right = Some(Operand::Num(v)),
            (_, None) => {}
        }
        let right = match right {
            Some(r) => r,
            None => match static_operand(p, b) {
                Ok(s) => Operand::Str(s),
                Err(target) => return Ok(Next::Read(target)),
            },
        };
        let left = match static_operand(p, a) {
            Ok(s) => Operand::Str(s),
            Err(_) => Operand::Num(self.held_at(level.base, 0)),
        };
        let equal = left.strict_eq(right) == (op == Op::Eq);
        Ok(Next::Close(if equal { 1.0 } else { 0.0 }))
    }
}

/// What a level does next.
enum Next {
    /// Read node `i` of its program as its next operand.
    Read(u32),
    /// Read placeholder line `line` (a call's).
    Placeholder(usize),
    /// Close with this value.
    Close(f64),
}
