//! The animation fill's state: the scene arrays it writes, the scratch it
//! stages keyframes and node claims in, and what one animation's read
//! needs. The reads of clips (`read.rs`) and of animators (`animator.rs`)
//! both work on it.

use crate::arena::scratch_record;
use crate::bbmodel::animations::lookup::NodeKey;
use crate::bbmodel::animations::molang::MolangWriter;
use crate::bbmodel::document::Document;
use crate::error::{FixedText, SUBJECT_BYTES, Warnings};
use crate::json::JsonStr;
use crate::limits::BbmodelLimits;
use crate::scene::{
    AnimationRecord, ChannelRecord, KeyframeRecord, KeyframeSource, NodeRecord, TextRef, TextSource,
};

/// A dead channel's node: replaced by a later animator, dropped when the
/// clip is compacted.
pub(super) const DEAD: u32 = u32::MAX;

scratch_record! {
    /// The claim an animator holds on its node: the pass that wrote it (a
    /// claim of an earlier animation is stale, so the table is never reset)
    /// and the channels it wrote.
    #[derive(PartialEq, Eq)]
    pub(in crate::bbmodel) struct Claim {
        pub(super) generation: u32,
        pub(super) first_channel: u32,
        pub(super) channel_count: u32,
    }
}

scratch_record! {
    sorted
    /// A staged keyframe's sort key: channel, time, then file order, so an
    /// unstable sort gives the stable order (no two keys are equal).
    pub(in crate::bbmodel) struct SortKey {
        pub(super) target: u32,
        /// The time's f32 bits: times are never negative, so they order as
        /// the times do.
        pub(super) time: u32,
        pub(super) seq: u32,
    }
}

/// The claims table and one animator's staging area.
pub(super) struct Staging<'s> {
    pub(super) claims: &'s mut [Claim],
    pub(super) staged: &'s mut [KeyframeRecord],
    /// Where each staged keyframe's Molang is, parallel to `staged`.
    pub(super) sources: &'s mut [KeyframeSource],
    pub(super) order: &'s mut [SortKey],
    /// Counts the passes over `animators` objects (a claim of another
    /// pass is stale).
    pub(super) generation: u32,
}

/// The scene's animation arrays, as carved.
pub(in crate::bbmodel) struct AnimationArrays<'o> {
    pub(in crate::bbmodel) animations: &'o mut [AnimationRecord],
    pub(in crate::bbmodel) channels: &'o mut [ChannelRecord],
    pub(in crate::bbmodel) keyframes: &'o mut [KeyframeRecord],
    pub(in crate::bbmodel) keyframe_sources: &'o mut [KeyframeSource],
    /// Per clip, its `blend_weight` program.
    pub(in crate::bbmodel) clip_blend_weights: &'o mut [u32],
    /// The Molang programs keyframes and blend weights compile to.
    pub(in crate::bbmodel) molang: MolangWriter<'o>,
}

/// What the fill wrote of each animation array.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::bbmodel) struct Written {
    pub(in crate::bbmodel) animations: usize,
    pub(in crate::bbmodel) channels: usize,
    pub(in crate::bbmodel) keyframes: usize,
}

/// The scratch the fill pass uses, in the order [`super::ScratchSizes`]
/// sizes it.
pub(in crate::bbmodel) struct AnimationScratch<'s> {
    /// Group uuids by hash (filled by the outliner walk).
    pub(in crate::bbmodel) uuids: &'s mut [NodeKey],
    /// Group names by lowercased hash.
    pub(in crate::bbmodel) names: &'s mut [NodeKey],
    /// Per node, the animator holding its claim.
    pub(in crate::bbmodel) claims: &'s mut [Claim],
    /// One animator's keyframes in file order, and their sort keys.
    pub(in crate::bbmodel) staged: &'s mut [KeyframeRecord],
    pub(in crate::bbmodel) sources: &'s mut [KeyframeSource],
    pub(in crate::bbmodel) order: &'s mut [SortKey],
}

impl AnimationScratch<'_> {
    /// The same scratch, lent for a shorter while.
    pub(in crate::bbmodel) fn reborrow(&mut self) -> AnimationScratch<'_> {
        AnimationScratch {
            uuids: &mut *self.uuids,
            names: &mut *self.names,
            claims: &mut *self.claims,
            staged: &mut *self.staged,
            sources: &mut *self.sources,
            order: &mut *self.order,
        }
    }
}

/// Everything one animation's read needs besides its own bytes.
pub(in crate::bbmodel) struct Context<'c, 'a> {
    pub(in crate::bbmodel) doc: &'c Document<'a>,
    pub(in crate::bbmodel) limits: &'c BbmodelLimits,
    pub(in crate::bbmodel) nodes: &'c [NodeRecord],
}

/// A node's name as text.
pub(super) fn node_name<'t>(doc: &Document<'t>, pool: &'t [u8], name: TextRef) -> &'t str {
    let bytes = match name.source() {
        TextSource::Input => doc.bytes,
        TextSource::Pool => pool,
    };
    bytes
        .get(name.range())
        .and_then(|b| core::str::from_utf8(b).ok())
        .unwrap_or_default()
}

/// The fill's state across animations.
pub(super) struct Fill<'f, 'c, 'a> {
    pub(super) ctx: &'f Context<'c, 'a>,
    pub(super) out: AnimationArrays<'f>,
    pub(super) staging: Staging<'f>,
    pub(super) written: Written,
    pub(super) warnings: &'f mut Warnings,
    /// What the animator being read is about (`bone "tail"`), for its warnings.
    pub(super) subject: FixedText<SUBJECT_BYTES>,
    /// The clip being read's `blend_weight` text, when it plays it.
    pub(super) blend_weight: Option<JsonStr<'a>>,
}
