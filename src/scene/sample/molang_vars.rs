//! The Molang variables one sample shares between its values.
//!
//! molangjs keeps one `variables` table that every `parse` reads and
//! writes (`variable.*` and `temp.*` alike, `iterateExp`'s assignment
//! branch); Blockbench empties it only with `resetVariables` (entering the
//! Animate tab, selecting an animation). So within a frame a value sees
//! what the values evaluated before it assigned. Here the table lives for
//! one sample: emptied when the sample starts, so a sample stays a function
//! of its time, and carried from value to value in the order the sampler
//! evaluates them (`mod.rs`, `pose_clip`). Names are copied out of each
//! program's text, which lives only while that value is evaluated.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "name lengths below MAX_CARRIED_NAME and a count below MAX_PLAYED_VARIABLES"
)]

use crate::molang::{Slot, Variables};

/// Variables one sample may set, over all its values; the value that sets
/// one more stops and plays 0 (molangjs never stops, but no corpus value
/// assigns any).
pub const MAX_PLAYED_VARIABLES: usize = 32;

/// Bytes of a variable's full name (`variable.` included) the sample
/// carries; a value assigned to a longer name is seen only by the value
/// that assigned it.
pub const MAX_CARRIED_NAME: usize = 64;

/// The variables set so far in this sample: none until a value sets one,
/// so a sample without Molang variables never fills the table.
#[derive(Clone, Copy, Debug)]
pub(super) struct Carried(Option<Table>);

impl Carried {
    /// No variable set: the table at the start of a sample.
    pub(super) const EMPTY: Self = Self(None);

    /// Writes the carried variables into `slots` (spelled out, borrowing
    /// `self`) and returns how many, for [`Variables::preset`].
    pub(super) fn fill<'a>(&'a self, slots: &mut [Slot<'a>]) -> usize {
        self.0.as_ref().map_or(0, |t| t.fill(slots))
    }

    /// Keeps every variable `variables` holds after an evaluation (those
    /// carried in and those it set), in order.
    pub(super) fn store(&mut self, variables: &Variables<'_, '_>) {
        if variables.is_empty() && self.0.is_none() {
            return;
        }
        self.0.get_or_insert(Table::EMPTY).store(variables);
    }

    /// How many variables are carried.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |t| t.len)
    }
}

/// The variables, names spelled out in full.
#[derive(Clone, Copy, Debug)]
struct Table {
    names: [[u8; MAX_CARRIED_NAME]; MAX_PLAYED_VARIABLES],
    lens: [u8; MAX_PLAYED_VARIABLES],
    values: [f64; MAX_PLAYED_VARIABLES],
    len: usize,
}

impl Table {
    const EMPTY: Self = Self {
        names: [[0; MAX_CARRIED_NAME]; MAX_PLAYED_VARIABLES],
        lens: [0; MAX_PLAYED_VARIABLES],
        values: [0.0; MAX_PLAYED_VARIABLES],
        len: 0,
    };

    fn fill<'a>(&'a self, slots: &mut [Slot<'a>]) -> usize {
        let mut n = 0;
        for ((name, len), value) in self.names.iter().zip(self.lens).zip(self.values) {
            if n >= self.len {
                break;
            }
            let (Some(slot), Some(name)) = (slots.get_mut(n), name.get(..usize::from(len))) else {
                break;
            };
            *slot = Slot::spelled(name, value);
            n += 1;
        }
        n
    }

    fn store(&mut self, variables: &Variables<'_, '_>) {
        self.len = 0;
        for slot in variables.slots() {
            let (head, rest, value) = slot.parts();
            let len = head.len() + rest.len();
            let (Some(name), Some(stored)) =
                (self.names.get_mut(self.len), self.lens.get_mut(self.len))
            else {
                return;
            };
            let Some(out) = name.get_mut(..len) else {
                continue;
            };
            let (h, r) = out.split_at_mut(head.len());
            h.copy_from_slice(head);
            r.copy_from_slice(rest);
            // len ≤ MAX_CARRIED_NAME < 256.
            *stored = u8::try_from(len).unwrap_or(0);
            if let Some(v) = self.values.get_mut(self.len) {
                *v = value;
            }
            self.len += 1;
        }
    }
}
