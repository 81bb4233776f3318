//! What an evaluation reads and writes: the times, the variables (in a
//! table the caller provides, so evaluating allocates nothing) and the
//! placeholders; `run/` walks the program (`Program::eval`).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "the variable table's length stays below its capacity, checked before each add"
)]

use super::error::{MolangError, MolangErrorCode};
use super::jsmath::Rng;
use super::limits::MolangLimits;
use super::node::Name;
use super::placeholders::Placeholders;

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

    pub(super) fn get(&self, name: &Name, text: &[u8]) -> Option<f64> {
        self.set_slots()
            .iter()
            .find(|s| s.name.same(s.text, name, text))
            .map(|s| s.value)
    }

    /// Out of line: the evaluator's recursive frames stay small.
    #[inline(never)]
    pub(super) fn set(
        &mut self,
        name: Name,
        text: &'a [u8],
        value: f64,
    ) -> Result<(), MolangError> {
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
