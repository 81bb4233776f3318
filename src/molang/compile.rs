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
//!
//! Where molangjs recurses, the builder keeps a stack of open levels in
//! caller memory (`work.rs`): `shape.rs` says what a range is, an
//! expression with operands opens a level, and each operand read resumes
//! it, so the native stack stays the same however deep the text nests.
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
use super::node::{MolangNode, NONE, Name, Node, Op, Prefix, op_code, op_of};
use super::shape::{Shape, classify, is_return, name_of, next_line, next_operand, piece_end, trim};
use super::work::Open;

/// Writes (or, measuring, only counts) the nodes of one expression.
pub(crate) struct Builder<'n> {
    nodes: Option<&'n mut [MolangNode]>,
    /// The open levels (`work.rs`); `depth` of them are in use.
    open: &'n mut [Open],
    depth: usize,
    pub(crate) len: usize,
    statements: u64,
    pub(crate) randomness: bool,
    pub(crate) assignments: usize,
    limits: MolangLimits,
}

/// [`Open::kind`]: the shapes that have operands.
const RETURN: u8 = 0;
const ASSIGN: u8 = 1;
const OPERATOR: u8 = 2;
const LOOP: u8 = 3;
const CALL: u8 = 4;
const SCOPE: u8 = 5;

/// What an open level asks for next.
enum Step {
    /// Read this range as its next operand.
    Operand(usize, usize),
    /// It is complete: its node.
    Done(u32),
}

impl<'n> Builder<'n> {
    pub(crate) fn new(
        nodes: Option<&'n mut [MolangNode]>,
        open: &'n mut [Open],
        limits: MolangLimits,
    ) -> Self {
        Self {
            nodes,
            open,
            depth: 0,
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

    /// The node of `text[start..end]` (molangjs `iterateString`), read
    /// without recursion: each operand enters, each completed level
    /// resumes the one below it. Errors carry positions in the
    /// normalized text.
    pub(crate) fn expr(
        &mut self,
        text: &[u8],
        start: usize,
        end: usize,
    ) -> Result<u32, MolangError> {
        let mut done = self.enter(text, start, end)?;
        loop {
            if self.depth == 0 {
                return Ok(done.unwrap_or(NONE));
            }
            match self.resume(text, done)? {
                Step::Operand(a, b) => done = self.enter(text, a, b)?,
                Step::Done(node) => {
                    self.depth -= 1;
                    done = Some(node);
                }
            }
        }
    }

    /// Starts reading `text[start..end]` as an operand of the open levels:
    /// its node when it has no operands, else `None` and a new open level.
    fn enter(&mut self, text: &[u8], at: usize, end: usize) -> Result<Option<u32>, MolangError> {
        if at >= end {
            return Ok(Some(NONE));
        }
        if self.depth as u64 > self.limits.max_depth {
            return Err(too_deep(at));
        }
        let (start, end) = trim(text, at, end);
        let mut level = Open {
            start: start as u32,
            end: end as u32,
            ..Open::ZERO
        };
        match classify(text, start, end) {
            Shape::Empty => return Ok(Some(NONE)),
            Shape::Leaf(node) => return self.push(node, start).map(Some),
            Shape::Return => level.kind = RETURN,
            Shape::Assign(eq) => (level.kind, level.words[0]) = (ASSIGN, eq as u32),
            Shape::Op(op, [(a, b), ..]) => {
                // Its node goes where its first operand starts.
                (level.start, level.cursor) = (a as u32, b as u32);
                (level.kind, level.op, level.words) = (OPERATOR, op_code(op), [NONE; 3]);
            }
            Shape::Loop([(_, b), _]) => {
                (level.kind, level.cursor, level.words) = (LOOP, b as u32, [NONE; 3]);
            }
            Shape::Call(open) => {
                let first = self.items(text, start, open + 1, end - 1)?;
                (level.kind, level.words) = (CALL, [first, open as u32 + 1, 0]);
            }
            Shape::Scope => {
                let first = self.lines(text, start, end)?;
                (level.kind, level.words) = (SCOPE, [first, start as u32, 0]);
            }
        }
        *self.open.get_mut(self.depth).ok_or(too_deep(at))? = level;
        self.depth += 1;
        Ok(None)
    }

    /// A call's arguments: pushes an item node for each and returns the
    /// first's index.
    fn items(
        &mut self,
        text: &[u8],
        at: usize,
        mut from: usize,
        inner_end: usize,
    ) -> Result<u32, MolangError> {
        let within = text.get(..inner_end).unwrap_or(&[]);
        let first = self.len as u32;
        loop {
            let to = piece_end(within, b',', from.min(inner_end));
            self.push(Node::Item(NONE), at)?;
            if to >= inner_end {
                return Ok(first);
            }
            from = to + 1;
        }
    }

    /// A scope's lines up to the first `return`, empty ones skipped,
    /// counted against `maxMolangStatements`: pushes an item node for each
    /// and returns the first's index.
    fn lines(&mut self, text: &[u8], start: usize, end: usize) -> Result<u32, MolangError> {
        let mut count = 0u32;
        let mut line = next_line(text, start, end);
        while let Some((from, to)) = line {
            count += 1;
            if is_return(text.get(from..to).unwrap_or(&[])) || to >= end {
                break;
            }
            line = next_line(text, to + 1, end);
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
        Ok(first)
    }

    /// The top open level takes `operand` (the node of its last operand
    /// read; `None` when it has just opened) and says what comes next.
    fn resume(&mut self, text: &[u8], operand: Option<u32>) -> Result<Step, MolangError> {
        let top = self.depth - 1;
        let mut f = *self.open.get(top).ok_or(too_deep(0))?;
        let (start, end) = (f.start as usize, f.end as usize);
        let step = match (f.kind, operand) {
            (RETURN, None) => Step::Operand(start + 6, end),
            (RETURN, Some(value)) => Step::Done(self.push(Node::Return(value), start)?),
            (ASSIGN, None) => Step::Operand(start + f.words[0] as usize + 1, end),
            (ASSIGN, Some(value)) => {
                self.assignments += 1;
                let name = name_of(text, start, start + f.words[0] as usize);
                Step::Done(self.push(Node::Assign { name, value }, start)?)
            }
            (OPERATOR | LOOP, _) => {
                if let (Some(v), Some(arg)) = (operand, f.words.get_mut(usize::from(f.read))) {
                    *arg = v;
                    f.read += 1;
                }
                self.operator(text, &mut f)?
            }
            (CALL, _) => self.call(text, &mut f, operand)?,
            _ => self.scope(text, &mut f, operand)?,
        };
        if let Some(slot) = self.open.get_mut(top) {
            *slot = f;
        }
        Ok(step)
    }

    /// An operator or `loop(…)`: its next operand, or its node once all
    /// are read. Each operand's range follows from where the one before
    /// ended ([`next_operand`]), so the level keeps only that position.
    fn operator(&mut self, text: &[u8], f: &mut Open) -> Result<Step, MolangError> {
        let op = if f.kind == OPERATOR {
            Some(op_of(f.op).ok_or(MolangError::new(
                MolangErrorCode::WrongPlan,
                f.start as usize,
                "an operator code",
            ))?)
        } else {
            None
        };
        let operands = if op.is_some() { 3 } else { 2 };
        if f.read == 0 {
            let first = if op.is_some() { f.start } else { f.start + 5 };
            return Ok(Step::Operand(first as usize, f.cursor as usize));
        }
        if f.read < operands {
            let (a, b) = next_operand(
                text,
                (f.start as usize, f.end as usize),
                f.cursor as usize,
                usize::from(f.read),
                op,
            );
            if (a, b) != (0, 0) {
                f.cursor = b as u32;
            }
            return Ok(Step::Operand(a, b));
        }
        let [a, b, c] = f.words;
        let at = f.start as usize;
        let node = match op {
            Some(op) => {
                if matches!(
                    op,
                    Op::Random | Op::RandomInteger | Op::DieRoll | Op::DieRollInteger
                ) {
                    self.randomness = true;
                }
                self.push(
                    Node::Op {
                        op,
                        args: [a, b, c],
                    },
                    at,
                )?
            }
            None => self.push(Node::Loop { count: a, body: b }, at)?,
        };
        Ok(Step::Done(node))
    }

    /// `name(args)`: its next argument, or its node once all are read. A
    /// quoted argument stays text: molangjs 1.7.0 cuts its quotes with
    /// `substring(1, length-1)` (a lone `'` stays itself).
    fn call(
        &mut self,
        text: &[u8],
        f: &mut Open,
        operand: Option<u32>,
    ) -> Result<Step, MolangError> {
        let inner_end = f.end as usize - 1;
        let within = text.get(..inner_end).unwrap_or(&[]);
        let [first, mut from, mut read] = f.words;
        if let Some(node) = operand {
            self.set(first + read, Node::Item(node));
            let to = piece_end(within, b',', (from as usize).min(inner_end));
            read += 1;
            if to >= inner_end {
                return self.call_done(text, f, read);
            }
            from = to as u32 + 1;
        }
        loop {
            let at = from as usize;
            let to = piece_end(within, b',', at.min(inner_end));
            let arg = text.get(at..to).unwrap_or(&[]);
            if !(arg.first() == Some(&b'\'') && arg.last() == Some(&b'\'')) {
                f.words = [first, from, read];
                return Ok(Step::Operand(at, to));
            }
            let (a, b) = if arg.len() >= 2 {
                (at + 1, to - 1)
            } else {
                (at, to)
            };
            let name = Name {
                start: a as u32,
                end: b as u32,
                prefix: Prefix::None,
            };
            let node = self.push(Node::Str(name), at)?;
            self.set(first + read, Node::Item(node));
            read += 1;
            if to >= inner_end {
                return self.call_done(text, f, read);
            }
            from = to as u32 + 1;
        }
    }

    fn call_done(&mut self, text: &[u8], f: &Open, count: u32) -> Result<Step, MolangError> {
        let start = f.start as usize;
        let open = start
            + text
                .get(start..f.end as usize)
                .unwrap_or(&[])
                .iter()
                .position(|&b| b == b'(')
                .unwrap_or(0);
        let name = name_of(text, start, open);
        let first = f.words[0];
        Ok(Step::Done(
            self.push(Node::Call { name, first, count }, start)?,
        ))
    }

    /// `a;b;c`: its next line, or its node once the lines `lines` counted
    /// are read.
    fn scope(
        &mut self,
        text: &[u8],
        f: &mut Open,
        operand: Option<u32>,
    ) -> Result<Step, MolangError> {
        let (start, end) = (f.start as usize, f.end as usize);
        let [first, from, mut read] = f.words;
        let line = match operand {
            None => next_line(text, from as usize, end),
            Some(node) => {
                self.set(first + read, Node::Item(node));
                read += 1;
                let to = piece_end(text.get(..end).unwrap_or(&[]), b';', from as usize);
                if is_return(text.get(from as usize..to).unwrap_or(&[])) || to >= end {
                    None
                } else {
                    next_line(text, to + 1, end)
                }
            }
        };
        match line {
            Some((a, b)) => {
                f.words = [first, a as u32, read];
                Ok(Step::Operand(a, b))
            }
            None => Ok(Step::Done(
                self.push(Node::Scope { first, count: read }, start)?,
            )),
        }
    }
}

/// Nesting past `maxMolangDepth`, or past the open levels [`Open`]
/// records hold.
fn too_deep(at: usize) -> MolangError {
    MolangError::new(
        MolangErrorCode::TooDeep,
        at,
        "less nesting (maxMolangDepth)",
    )
}
