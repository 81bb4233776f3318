//! The recursive reader: molangjs's `iterateExp` as it is written, one
//! native frame a nesting level, for the first [`NESTED_LEVELS`] levels
//! (most programs end there). A node deeper than that is read on the open
//! levels (`Run::on_levels`), whose stack does not grow; both count
//! steps and depth alike, so where the reader changes is not observable.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "f64 arithmetic does not panic; the depth and frame counters stay below their limits, checked at each increment"
)]

use super::values::{Operand, arity, static_operand};
use super::{NESTED_LEVELS, Run, Status, Step, Stop};
use crate::molang::call_key::{self, Arg, MAX_KEY_ARGS};
use crate::molang::error::MolangErrorCode;
use crate::molang::jsmath::{self as js, truthy};
use crate::molang::node::{NONE, Name, Node, Op, Program};
use crate::molang::placeholders::Value;

impl<'a> Run<'_, '_, '_, 'a> {
    /// The value of node `i` of `p` (program `prog`): a step and a depth
    /// level, then the node; past [`NESTED_LEVELS`] frames, on the levels.
    pub(super) fn node(&mut self, p: &Program<'a>, prog: u32, i: u32) -> Step {
        if i == NONE {
            return Ok(0.0);
        }
        if self.nested >= NESTED_LEVELS {
            let parent = u32::try_from(self.depth).unwrap_or(u32::MAX);
            return self.on_levels(prog, i, parent);
        }
        self.step()?;
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(self.stop(
                MolangErrorCode::TooDeep,
                "less nesting, placeholders included (maxMolangDepth)",
            ));
        }
        self.nested += 1;
        let value = self.node_inner(p, prog, i);
        self.nested -= 1;
        self.depth -= 1;
        value
    }

    fn node_inner(&mut self, p: &Program<'a>, prog: u32, i: u32) -> Step {
        let Some(node) = p.nodes.get(i as usize).map(|n| n.unpack()) else {
            return Ok(0.0);
        };
        Ok(match node {
            Node::Num(x) => x,
            Node::Builtin(b) => self.builtin(b),
            Node::Var(name) => self.name_value(&name, p.text)?,
            Node::Str(_) => 0.0,
            Node::Item(x) => self.node(p, prog, x)?,
            Node::Op { op, args } => self.operator(p, prog, op, args)?,
            Node::Call { name, first, count } => {
                // A call's frame is about three times an operator's: it
                // counts as three of the recursion's levels.
                self.nested += 2;
                let v = self.call_value(p, prog, &name, first, count);
                self.nested -= 2;
                v?
            }
            Node::Scope { .. } | Node::Assign { .. } | Node::Return(_) => {
                self.statement(p, prog, node)?
            }
            Node::Break => {
                self.status = Status::Broke;
                0.0
            }
            Node::Continue => {
                self.status = Status::Continued;
                0.0
            }
            Node::Loop { .. } => self.statement(p, prog, node)?,
        })
    }

    /// A scope, an assignment, `return` or `loop`: out of line, so the
    /// recursion through operators keeps a small frame.
    #[inline(never)]
    fn statement(&mut self, p: &Program<'a>, prog: u32, node: Node) -> Step {
        Ok(match node {
            Node::Scope { first, count } => {
                self.status = Status::Normal;
                let mut value = 0.0;
                for k in 0..count {
                    value = self.node(p, prog, first.saturating_add(k))?;
                    if self.status != Status::Normal {
                        break;
                    }
                }
                value
            }
            Node::Assign { name, value } => {
                let v = self.node(p, prog, value)?;
                if let Err(e) = self.ctx.variables.set(name, p.text, v) {
                    self.error = Some(e);
                    return Err(Stop);
                }
                0.0
            }
            Node::Return(value) => {
                self.status = Status::Returned;
                self.node(p, prog, value)?
            }
            Node::Loop { count, body } => {
                let n = js::clamp(self.node(p, prog, count)?, 0.0, 1024.0);
                let mut value = 0.0;
                let mut k = 0.0;
                while k < n {
                    k += 1.0;
                    let result = self.node(p, prog, body)?;
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
            _ => 0.0,
        })
    }

    /// A name, as `Run::variable` reads it.
    fn name_value(&mut self, name: &Name, text: &[u8]) -> Step {
        if let Some(v) = self.ctx.variables.get(name, text) {
            return Ok(v);
        }
        if let Some(line) = self.ctx.placeholders.find_index(name, text) {
            return self.line_value(line);
        }
        if name.is(text, b"query.model_scale") {
            return Ok(1.0 / 16.0);
        }
        self.unassigned = true;
        Ok(0.0)
    }

    /// Placeholder line `line`, as `Run::placeholder` reads it.
    fn line_value(&mut self, line: usize) -> Step {
        let program = match self.ctx.placeholders.entry_at(line).map(|e| e.value) {
            Some(Value::Expression(program)) => program,
            _ => return Ok(0.0),
        };
        let prog = u32::try_from(line).ok().and_then(|l| l.checked_add(1));
        let Some(prog) = prog else {
            return Err(self.too_deep());
        };
        let v = self.node(&program, prog, program.root)?;
        // The nested `parse` ends with `loop_status = 0`.
        self.status = Status::Normal;
        Ok(if truthy(v) { v } else { 0.0 })
    }

    /// Operand `i` of `==` or a call: a string as its text, anything else
    /// read (an item's target, the item not counted).
    fn operand_value(&mut self, p: &Program<'a>, prog: u32, i: u32) -> Step<Operand<'a>> {
        Ok(match static_operand(p, i) {
            Ok(s) => Operand::Str(s),
            Err(target) => Operand::Num(self.node(p, prog, target)?),
        })
    }

    fn operator(&mut self, p: &Program<'a>, prog: u32, op: Op, [a, b, c]: [u32; 3]) -> Step {
        let bool01 = |x: bool| if x { 1.0 } else { 0.0 };
        Ok(match op {
            Op::Cond => {
                if truthy(self.node(p, prog, a)?) {
                    self.node(p, prog, b)?
                } else {
                    self.node(p, prog, c)?
                }
            }
            Op::And => bool01(truthy(self.node(p, prog, a)?) && truthy(self.node(p, prog, b)?)),
            Op::Or => bool01(truthy(self.node(p, prog, a)?) || truthy(self.node(p, prog, b)?)),
            Op::Eq | Op::Ne => {
                let x = self.operand_value(p, prog, a)?;
                let y = self.operand_value(p, prog, b)?;
                bool01(x.strict_eq(y) == (op == Op::Eq))
            }
            Op::Coalesce => {
                self.unassigned = false;
                let v = self.node(p, prog, a)?;
                if self.unassigned {
                    self.node(p, prog, b)?
                } else {
                    v
                }
            }
            // The commonest, here; the rest through `apply`.
            Op::Add => self.node(p, prog, a)? + self.node(p, prog, b)?,
            Op::Sub => self.node(p, prog, a)? - self.node(p, prog, b)?,
            Op::Mul => self.node(p, prog, a)? * self.node(p, prog, b)?,
            Op::Div => self.node(p, prog, a)? / self.node(p, prog, b)?,
            Op::Lt => bool01(self.node(p, prog, a)? < self.node(p, prog, b)?),
            Op::Gt => bool01(self.node(p, prog, a)? > self.node(p, prog, b)?),
            _ => {
                // The operands in order, then the operator (`values.rs`:
                // with fewer than three, the last repeats).
                let x = self.node(p, prog, a)?;
                let (y, z) = match arity(op) {
                    1 => (x, x),
                    2 => {
                        let y = self.node(p, prog, b)?;
                        (y, y)
                    }
                    _ => {
                        let y = self.node(p, prog, b)?;
                        (y, self.node(p, prog, c)?)
                    }
                };
                self.apply(op, x, y, z)?
            }
        })
    }

    /// `name(args)`, as `Run::call` reads it. Out of line: its argument
    /// table stays off the recursion's frames.
    #[inline(never)]
    fn call_value(
        &mut self,
        p: &Program<'a>,
        prog: u32,
        name: &Name,
        first: u32,
        count: u32,
    ) -> Step {
        let text = p.text;
        let (mut v0, mut v1, mut v2) = (None, None, None);
        let mut kept = [Arg::Num(0.0); MAX_KEY_ARGS];
        let (mut all, mut any, mut approx) = (true, false, true);
        for k in 0..count {
            let x = self.operand_value(p, prog, first.saturating_add(k))?;
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
        if let Some(line) = self.ctx.placeholders.find_index(name, text) {
            return self.line_value(line);
        }
        // Blockbench 5: the call with its arguments, `name(1,'a')`.
        let Some(args) = kept.get(..count as usize) else {
            return Ok(0.0);
        };
        let placeholders = self.ctx.placeholders;
        let keyed = placeholders
            .latest_first_indexed()
            .find(|(_, e)| call_key::matches(e.key_parts(), name.parts(text), args));
        match keyed {
            Some((line, _)) => self.line_value(line),
            None => Ok(0.0),
        }
    }
}
