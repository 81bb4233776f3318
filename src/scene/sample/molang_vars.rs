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

use crate::molang::{Slot, Variables};

/// Variables one sample may set, over all its values; the value that sets
/// one more stops and plays 0 (molangjs never stops, but no corpus value
/// assigns any).
pub const MAX_PLAYED_VARIABLES: usize = 32;

/// The variables set so far in this sample: a table over
/// [`MAX_PLAYED_VARIABLES`] slots the sample's frame holds, shared by
/// every value it evaluates (each seeds the generator its own way).
pub(super) type Table<'v, 'a> = Variables<'v, 'a>;

/// The slots of a sample's table, all free.
pub(super) const fn slots<'a>() -> [Slot<'a>; MAX_PLAYED_VARIABLES] {
    [Slot::EMPTY; MAX_PLAYED_VARIABLES]
}
