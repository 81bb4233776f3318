//! Animations (spec Features: Animations; Conventions 12 and 13; Limits;
//! Warnings): every animation becomes a clip, every bone animator that
//! names a group its rotation, translation and scale channels.
//!
//! - `count.rs`, the count pass: animations, animators and keyframes
//!   against maxAnimations, maxKeyframes and the animators-per-animation
//!   bound, every field type and range checked first;
//! - `keyframes.rs`, one keyframe: its checks, its values (numbers and
//!   decimal strings; Molang skipped), units and sign migration;
//! - `lookup.rs`, which group an animator key names (uuid, or name
//!   ignoring case), by binary search in sorted scratch tables;
//! - `read.rs`, the fill pass over clips: which `animators` object plays,
//!   loop, length, compaction of replaced channels;
//! - `animator.rs`, one animator read once: its group, its staged
//!   keyframes in stable time order, the claim that lets a later animator
//!   replace an earlier one, its warnings.
//! - `molang.rs`, Molang texts compiled once: the count pass's tally and
//!   the fill's writer;
//! - `state.rs`, what the clip and animator reads share: the scene arrays
//!   they write, the staging scratch and the node claims.
//!
//! Takes: the located document, the outliner's nodes and the uuid tables.
//! Gives: the scene's animation, channel and keyframe arrays.

mod animator;
mod bezier;
mod count;
mod easing;
mod keyframes;
mod lookup;
mod molang;
mod read;
mod state;

pub(in crate::bbmodel) use count::count_animations;
#[cfg(feature = "alloc")]
pub(in crate::bbmodel) use count::count_animations_at;
pub(in crate::bbmodel) use count::count_molang;
pub use count::{AnimationCounts, check_animations};
pub(in crate::bbmodel) use lookup::{NodeKey, uuid_key};
pub use molang::MolangTally;
pub(in crate::bbmodel) use molang::MolangWriter;
pub(in crate::bbmodel) use read::fill_animations;
pub(in crate::bbmodel) use state::{AnimationArrays, AnimationScratch, Context, Written};

use crate::arena::{Arena, Footprint};
use crate::error::Error;
use crate::scene::{KeyframeRecord, KeyframeSource};
use state::{Claim, SortKey};

/// The sizes the fill pass carves its scratch by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::bbmodel) struct ScratchSizes {
    /// Nodes the group tables hold (0 without animations).
    pub(in crate::bbmodel) nodes: usize,
    /// The most keyframes of one animator.
    pub(in crate::bbmodel) keyframes: usize,
}

impl ScratchSizes {
    /// What a file of `nodes` groups and these counts needs.
    pub(in crate::bbmodel) fn new(nodes: usize, counts: &AnimationCounts) -> Self {
        Self {
            nodes: if counts.animations == 0 { 0 } else { nodes },
            keyframes: counts.max_animator_keyframes,
        }
    }

    /// Adds the scratch to a plan, in the order [`ScratchSizes::carve`]
    /// carves it.
    pub(in crate::bbmodel) fn add_to(&self, scratch: &mut Footprint) -> Result<(), Error> {
        scratch.add::<NodeKey>(self.nodes)?;
        scratch.add::<NodeKey>(self.nodes)?;
        scratch.add::<Claim>(self.nodes)?;
        scratch.add::<KeyframeRecord>(self.keyframes)?;
        scratch.add::<KeyframeSource>(self.keyframes)?;
        scratch.add::<SortKey>(self.keyframes)
    }

    /// Carves the scratch [`ScratchSizes::add_to`] planned.
    pub(in crate::bbmodel) fn carve<'s>(
        &self,
        arena: &mut Arena<'s>,
    ) -> Result<AnimationScratch<'s>, Error> {
        Ok(AnimationScratch {
            uuids: arena.slice::<NodeKey>(self.nodes)?,
            names: arena.slice::<NodeKey>(self.nodes)?,
            claims: arena.slice::<Claim>(self.nodes)?,
            staged: arena.slice::<KeyframeRecord>(self.keyframes)?,
            sources: arena.slice::<KeyframeSource>(self.keyframes)?,
            order: arena.slice::<SortKey>(self.keyframes)?,
        })
    }
}
