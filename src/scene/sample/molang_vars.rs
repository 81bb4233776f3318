//! The Molang variables one sample shares between its values.
//!
//! molangjs keeps one `variables` table that every `parse` reads and
//! writes (`variable.*` and `temp.*` alike, `iterateExp`'s assignment
//! branch); Blockbench empties it only with `resetVariables` (entering the
//! Animate tab, selecting an animation). So within a frame a value sees
//! what the values evaluated before it assigned. Here the table lives for
//! one sample: emptied when the sample starts, so a sample stays a function
//! of its time, and carried from value to value in the order the sampler
//! evaluates them (`mod.rs`, `pose_clip`). Names stay where the decode
//! compiled them (the scene's `molang_text`), so the table holds spans of
//! the arena, never copies.

use crate::molang::{Rng, Slot, Variables};

/// Variables one sample may set, over all its values; the value that sets
/// one more stops and plays 0 (molangjs never stops, but no corpus value
/// assigns any).
pub const MAX_PLAYED_VARIABLES: usize = 32;

/// The variables set so far in this sample.
#[derive(Clone, Copy, Debug)]
pub(super) struct Table<'a> {
    slots: [Slot<'a>; MAX_PLAYED_VARIABLES],
    len: usize,
}

impl<'a> Table<'a> {
    /// No variable set: the table at the start of a sample.
    pub(super) const fn new() -> Self {
        Self {
            slots: [Slot::EMPTY; MAX_PLAYED_VARIABLES],
            len: 0,
        }
    }

    /// The table as one evaluation reads and writes it, its generator
    /// seeded with `rng`.
    pub(super) fn variables(&mut self, rng: Rng) -> Variables<'_, 'a> {
        let mut v = Variables::preset(&mut self.slots, self.len, 0);
        v.rng = rng;
        v
    }

    /// Keeps the first `len` slots: every variable an evaluation left set
    /// (those carried in and those it added, in order).
    pub(super) fn keep(&mut self, len: usize) {
        self.len = len.min(MAX_PLAYED_VARIABLES);
    }

    /// How many variables are carried.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }
}
