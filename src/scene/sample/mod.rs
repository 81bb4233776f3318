//! Poses: every node's transform at one time of one clip, and the world
//! matrices of a pose. No allocation; the caller owns the output slices.
//!
//! The rules are Blockbench's, as docs/scene-format.md ("Sampling") states
//! them: a channel's value is added to the node's rest translation and
//! rotation or multiplies its rest scale; the pivot never moves; clip time
//! follows the clip's loop mode (spec convention 12).

mod keyframes;

use super::{AnimationRecord, ChannelTarget, LoopMode, Mat4, NodeRecord, Scene};
use crate::error::{Error, ErrorCode};

/// A node's transform at one instant: [`NodeRecord`]'s TRS with a clip's
/// channels applied. Same units and spaces as the record (model units,
/// radians applied X, then Y, then Z, scale factors, pivot in the node's
/// own space).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NodePose {
    /// Translation in the parent's space.
    pub translation: [f32; 3],
    /// Euler angles, radians, applied X first, then Y, then Z.
    pub rotation: [f32; 3],
    /// Scale factors per axis.
    pub scale: [f32; 3],
    /// The point rotation and scale turn about (the record's; never animated).
    pub pivot: [f32; 3],
}

impl NodePose {
    /// The node's rest pose, as its record stores it.
    pub const fn rest(node: &NodeRecord) -> Self {
        Self {
            translation: node.translation,
            rotation: node.rotation,
            scale: node.scale,
            pivot: node.pivot,
        }
    }

    /// `node` with this pose's transform, so the record's matrix functions apply.
    const fn on(&self, node: &NodeRecord) -> NodeRecord {
        NodeRecord {
            translation: self.translation,
            rotation: self.rotation,
            scale: self.scale,
            pivot: self.pivot,
            ..*node
        }
    }
}

/// Scale factor Blockbench uses for a sampled scale of 0 (or NaN):
/// `displayScale`'s `|| 0.00001`, which keeps the bone invertible.
const ZERO_SCALE: f32 = 0.00001;

/// The clip's loop mode; an unknown value plays once, as the reader plays
/// an unknown loop.
pub const fn clip_loop_mode(clip: &AnimationRecord) -> LoopMode {
    match clip.loop_mode {
        1 => LoopMode::Hold,
        2 => LoopMode::Loop,
        _ => LoopMode::Once,
    }
}

/// The time within the clip that `time` (seconds since the clip started)
/// shows, or `None` when the clip shows the rest pose (a once clip after
/// its end).
///
/// Blockbench's `Animation.time`, with a plain modulo for loop (spec
/// convention 12: at exactly `length` a loop shows time 0) and once
/// returning to rest after its end. A clip without a positive length is not
/// mapped (Blockbench: `!this.length` plays the timeline's time): loop and
/// hold sample `time` itself, once is at rest for any time past 0.
pub fn clip_time(clip: &AnimationRecord, time: f32) -> Option<f32> {
    let has_length = clip.length > 0.0 && clip.length.is_finite();
    let length = if has_length { clip.length } else { 0.0 };
    match clip_loop_mode(clip) {
        LoopMode::Once if time > length => None,
        LoopMode::Once => Some(time),
        LoopMode::Hold if has_length => Some(time.min(length)),
        LoopMode::Loop if has_length => Some(libm::fmodf(time, length)),
        LoopMode::Hold | LoopMode::Loop => Some(time),
    }
}

impl Scene<'_> {
    /// Writes every node's rest pose into `out` (the first
    /// `min(out.len(), nodes().len())` entries).
    pub fn rest_pose(&self, out: &mut [NodePose]) {
        for (pose, node) in out.iter_mut().zip(self.nodes()) {
            *pose = NodePose::rest(node);
        }
    }

    /// Writes the pose of clip `clip` at `time` (seconds since the clip
    /// started, ≥ 0) into `out`, one entry per node.
    ///
    /// Nodes the clip does not animate stay at rest, and so does every node
    /// of a once clip after its end ([`clip_time`]). Translation channels
    /// add to the rest translation, rotation channels (radians) to the rest
    /// Euler angles, scale channels multiply the rest scale (a sampled 0
    /// becomes 0.00001, as in Blockbench).
    ///
    /// Errors: `BAD_OFFSET` when `clip` is not below `animations().len()`,
    /// `ARENA_TOO_SMALL` when `out` is shorter than `nodes()`, `BAD_VALUE`
    /// when `time` is negative or not finite. Channels whose node, target
    /// or keyframe range is out of range are skipped.
    pub fn sample(&self, clip: usize, time: f32, out: &mut [NodePose]) -> Result<(), Error> {
        let Some(record) = self.animations().get(clip) else {
            return Err(Error::nowhere(
                ErrorCode::BadOffset,
                format_args!(
                    "animation {clip}: expected an index below {}",
                    self.animations().len()
                ),
            ));
        };
        if out.len() < self.nodes().len() {
            return Err(Error::nowhere(
                ErrorCode::ArenaTooSmall,
                format_args!(
                    "pose of {} entries: expected one per node, {}",
                    out.len(),
                    self.nodes().len()
                ),
            ));
        }
        if !(time.is_finite() && time >= 0.0) {
            return Err(Error::nowhere(
                ErrorCode::BadValue,
                format_args!("sample time {time}: expected a finite number of seconds ≥ 0"),
            ));
        }
        self.rest_pose(out);
        let Some(t) = clip_time(record, time) else {
            return Ok(());
        };
        let looping = clip_loop_mode(record) == LoopMode::Loop;
        let channels = self
            .channels()
            .get(record.first_channel as usize..)
            .unwrap_or_default()
            .iter()
            .take(record.channel_count as usize);
        for channel in channels {
            let keys = self
                .keyframes()
                .get(channel.first_keyframe as usize..)
                .unwrap_or_default();
            let keys = keys
                .get(..channel.keyframe_count as usize)
                .unwrap_or(keys);
            let (Some(pose), Some(value)) = (
                out.get_mut(channel.node as usize),
                keyframes::value_at(keys, t, looping),
            ) else {
                continue;
            };
            match target(channel.target) {
                Some(ChannelTarget::Translation) => add(&mut pose.translation, value),
                Some(ChannelTarget::Rotation) => add(&mut pose.rotation, value),
                Some(ChannelTarget::Scale) => {
                    for (s, f) in pose.scale.iter_mut().zip(value) {
                        *s *= if f == 0.0 || f.is_nan() { ZERO_SCALE } else { f };
                    }
                }
                None => {}
            }
        }
        Ok(())
    }
}

fn target(value: u32) -> Option<ChannelTarget> {
    match value {
        0 => Some(ChannelTarget::Translation),
        1 => Some(ChannelTarget::Rotation),
        2 => Some(ChannelTarget::Scale),
        _ => None,
    }
}

fn add(to: &mut [f32; 3], value: [f32; 3]) {
    for (a, v) in to.iter_mut().zip(value) {
        *a += v;
    }
}

/// Writes the world matrix (column-major, `p' = M · p`, model space) of
/// every node at `poses` into `out` (the first `min(out.len(),
/// nodes().len())` nodes); a node without a pose (`poses` shorter than the
/// nodes) is at rest.
///
/// Any node order works: a node listed after its parent (every .bbmodel
/// node) takes its parent's matrix from `out`; any other (J3D may list a
/// parent later) walks its parent chain as [`Scene::world_matrix`] does, at
/// most `nodes().len()` steps, so a malformed parent cycle ends with a
/// finite, unspecified matrix.
pub fn world_matrices(scene: &Scene<'_>, poses: &[NodePose], out: &mut [Mat4]) {
    let nodes = scene.nodes();
    let posed = |i: usize| {
        let node = nodes.get(i)?;
        let pose = poses.get(i).copied().unwrap_or(NodePose::rest(node));
        Some(pose.on(node))
    };
    for i in 0..out.len().min(nodes.len()) {
        let Some(node) = posed(i) else { break };
        let parent_index = usize::try_from(node.parent).ok();
        let parent = parent_index.and_then(posed);
        let local = Mat4::local_under(&node, parent.as_ref());
        let world = match parent_index {
            Some(p) if p < i => out.get(p).map_or(local, |m| m.mul(&local)),
            Some(_) => walk(parent_index, &posed, nodes.len()).mul(&local),
            None => local,
        };
        if let Some(slot) = out.get_mut(i) {
            *slot = world;
        }
    }
}

/// The product of the local matrices from `start`'s root down to `start`,
/// at most `limit` of them.
fn walk(start: Option<usize>, posed: &impl Fn(usize) -> Option<NodeRecord>, limit: usize) -> Mat4 {
    let mut m = Mat4::IDENTITY;
    let mut current = start;
    for _ in 0..limit {
        let Some(node) = current.and_then(posed) else {
            break;
        };
        let parent = usize::try_from(node.parent).ok();
        m = Mat4::local_under(&node, parent.and_then(posed).as_ref()).mul(&m);
        current = parent;
    }
    m
}
