//! Poses: every node's transform at one time of one clip, and the world
//! matrices of a pose. No allocation; the caller owns the output slices.
//!
//! The rules are Blockbench's, as docs/scene-format.md ("Sampling") states
//! them: a channel's value is added to the node's rest translation and
//! rotation or multiplies its rest scale; the pivot never moves; clip time
//! follows the clip's loop mode (spec convention 12).

mod bezier;
mod clips;
mod easing;
mod keyframes;
mod molang;
mod molang_order;
mod molang_vars;
mod pose;
mod rotation;
mod segment;

pub use clips::{MaterialSample, TEX_MATRIX_SLOTS, TEXTURE_SLOTS, TexMatrixSample, texture_matrix};
pub use molang::MAX_PLAYED_VARIABLES;
pub use pose::NodePose;

use core::cell::{Cell, RefCell};
use keyframes::Resolve;
use molang_vars::Table;

use super::{
    AnimationRecord, ChannelFlags, ChannelRecord, ChannelTarget, KeyframeRecord, KeyframeSource,
    LoopMode, Mat4, NodeRecord, Scene,
};
use crate::error::{Error, ErrorCode};

/// Keyframes one channel's sample reads at most (catmull-rom's four), each
/// evaluated once.
const CACHED: usize = 4;

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

impl<'a> Scene<'a> {
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
    /// becomes 0.00001, as in Blockbench). A channel's
    /// [`ChannelFlags`] switch on Blockbench's
    /// quaternion, loop-wrapping and `rotation_global` rules and the Hytale
    /// plugin's (docs/scene-format.md, "Rotation as Blockbench plays it").
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
        if let Some(j3d) = self.clip_record(clip) {
            // J3D clips count frames: seconds times the clip's frame rate.
            let frames = frames_at(time, j3d.frame_rate);
            let frame = super::FrameLoop::from_u32(j3d.loop_mode).apply(frames, j3d.frames);
            self.pose_at(j3d, frame, out);
            return Ok(());
        }
        let Some(t) = clip_time(record, time) else {
            return Ok(());
        };
        let at = ClipTime {
            t,
            time,
            weight: 1.0,
        };
        self.pose_clip(clip, record, at, out);
        Ok(())
    }

    /// Applies the channels of bbmodel clip `record` (index `clip`) at `at`
    /// to `out`, in Blockbench's order (`molang_order.rs`) with one Molang
    /// variable table for the whole sample (`molang_vars.rs`). Its own
    /// frame, apart from `sample`'s errors.
    #[inline(never)]
    fn pose_clip(&self, clip: usize, record: &AnimationRecord, at: ClipTime, out: &mut [NodePose]) {
        let placeholders = crate::molang::Placeholders::of_records(
            self.molang_placeholders(),
            self.molang_nodes(),
            self.molang_text(),
        );
        let looping = clip_loop_mode(record) == LoopMode::Loop;
        let channels = self
            .channels()
            .get(record.first_channel as usize..)
            .unwrap_or_default();
        let channels = channels
            .get(..record.channel_count as usize)
            .unwrap_or(channels);
        // Emptied at the start of every sample (molangjs `resetVariables`
        // stands for it), so a sample is a function of its time.
        let mut slots = molang_vars::slots();
        let variables = RefCell::new(Table::new(&mut slots, 0));
        let stack = RefCell::new(crate::molang::EvalStack::new());
        let sampling = |target| molang::Sampling {
            programs: self.molang_programs(),
            nodes: self.molang_nodes(),
            text: self.molang_text(),
            target,
            anim_time: at.t,
            placeholders: &placeholders,
            life_time: at.time,
            variables: &variables,
            stack: &stack,
            limits: self.molang_limits(),
        };
        let blend = self.clip_blend_weights().get(clip).copied();
        let global = Cell::new(None::<u32>);
        let weight = Cell::new(at.weight);
        let finish_node = |out: &mut [NodePose]| {
            // rotation_global once the animator's channels are applied.
            if let Some(node) = global.take() {
                rotation::apply_global(out, self.nodes(), node as usize);
            }
        };
        let out = RefCell::new(out);
        molang_order::for_each(
            channels,
            |_| {
                finish_node(&mut out.borrow_mut());
                // stackAnimations parses blend_weight per group, before
                // its displayFrame.
                if let Some(text) = blend {
                    weight.set(molang::blend_weight(
                        &sampling(ChannelTarget::Translation),
                        text,
                    ));
                }
            },
            |i| {
                let Some(channel) = channels.get(i) else {
                    return;
                };
                let Some(channel_target) = target(channel.target) else {
                    return;
                };
                let first = channel.first_keyframe as usize;
                let keys = self.keyframes().get(first..).unwrap_or_default();
                let keys = keys.get(..channel.keyframe_count as usize).unwrap_or(keys);
                let s = sampling(channel_target);
                let sources = self.keyframe_sources();
                // Each keyframe evaluated once per sample, however often
                // the curve reads it (its assignments run once, as
                // Blockbench's calc runs once per keyframe and axis).
                // Filled on the first Molang keyframe only.
                let cache = RefCell::new(None::<[Option<(usize, KeyframeRecord)>; CACHED]>);
                let next = Cell::new(0usize);
                let resolve = |i: usize, k: &KeyframeRecord| {
                    let index = first.saturating_add(i);
                    let source = sources.get(index);
                    // A keyframe without Molang is read as it is.
                    if source.is_none_or(|s| s.molang & KeyframeSource::AXES == 0) {
                        return *k;
                    }
                    let hit = cache
                        .borrow()
                        .iter()
                        .flatten()
                        .flatten()
                        .find(|(j, _)| *j == i)
                        .map(|e| e.1);
                    if let Some(hit) = hit {
                        return hit;
                    }
                    let value = molang::resolve(&s, source, index, k);
                    let slot = next.get();
                    let mut cache = cache.borrow_mut();
                    let entries = cache.get_or_insert([None; CACHED]);
                    if let Some(entry) = entries.get_mut(slot % CACHED) {
                        *entry = Some((i, value));
                    }
                    next.set(slot.wrapping_add(1));
                    value
                };
                // Format.animation_loop_wrapping applies to loop clips only.
                let wrap = (looping && channel.flags & ChannelFlags::LOOP_WRAP != 0)
                    .then_some(record.length)
                    .filter(|l| *l > 0.0 && l.is_finite());
                let played = Played {
                    keys,
                    looping,
                    wrap,
                    resolve: &resolve,
                };
                let at = ClipTime {
                    weight: weight.get(),
                    ..at
                };
                // The Hytale plugin's displayScale stretches the group's
                // main cube about its centre, not the bone: played on the
                // cube's own node, or nowhere when the group has none.
                let node = if channel_target == ChannelTarget::Scale
                    && channel.flags & ChannelFlags::HYTALE != 0
                {
                    crate::scene::shape_node(self.nodes(), channel.node as usize)
                } else {
                    Some(channel.node as usize)
                };
                if let Some(node) = node {
                    let out = &mut out.borrow_mut();
                    apply_channel(channel, node, channel_target, &played, at, out);
                }
                if channel.flags & ChannelFlags::GLOBAL_ROTATION != 0 {
                    global.set(Some(channel.node));
                }
            },
        );
        finish_node(&mut out.borrow_mut());
    }
}

/// The times a bbmodel clip is sampled at: `t` the clip time (after its
/// loop mode), `time` the time asked, and the clip's blend weight.
#[derive(Clone, Copy)]
struct ClipTime {
    t: f32,
    time: f32,
    weight: f32,
}

/// One channel's keyframes and how they play.
struct Played<'k, 'r> {
    keys: &'k [KeyframeRecord],
    looping: bool,
    /// The clip's length when its loop wraps (`Format.animation_loop_wrapping`).
    wrap: Option<f32>,
    resolve: Resolve<'r>,
}

/// One channel's value at `at` applied to the pose of `node` (the
/// channel's, or for a Hytale scale its group's main cube's).
fn apply_channel(
    channel: &ChannelRecord,
    node: usize,
    target: ChannelTarget,
    played: &Played<'_, '_>,
    at: ClipTime,
    out: &mut [NodePose],
) {
    let Some(pose) = out.get_mut(node) else {
        return;
    };
    let (keys, t) = (played.keys, at.t);
    if target == ChannelTarget::Rotation && channel.flags & ChannelFlags::QUATERNION != 0 {
        let flags = channel.flags;
        rotation::apply_quaternion(keys, t, played.wrap, flags, at.weight, pose, played.resolve);
        return;
    }
    let value = match played.wrap {
        Some(length) => segment::wrapped_value(keys, t, length, played.resolve),
        None => keyframes::value_at_with(keys, t, played.looping, played.resolve),
    };
    let Some(mut value) = value else { return };
    // Blockbench `displayRotation` / `displayPosition` add the value times
    // the clip's blend weight; `displayScale` takes `1 + (value − 1) ·
    // weight` (weight 1 leaves it untouched).
    #[allow(clippy::float_cmp, reason = "1 exactly: no blend weight")]
    if at.weight != 1.0 {
        for v in &mut value {
            *v = match target {
                ChannelTarget::Scale => 1.0 + (*v - 1.0) * at.weight,
                _ => *v * at.weight,
            };
        }
    }
    match target {
        ChannelTarget::Translation => add(&mut pose.translation, value),
        ChannelTarget::Rotation => add(&mut pose.rotation, value),
        ChannelTarget::Scale => {
            for (s, f) in pose.scale.iter_mut().zip(value) {
                *s *= if f == 0.0 || f.is_nan() {
                    ZERO_SCALE
                } else {
                    f
                };
            }
        }
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

/// Seconds to frames. A product within a few f32 steps of a whole frame is
/// that frame: `k / rate` seconds, rounded to f32 by the caller, means frame
/// `k`, and a table read at `floor(frame)` must not fall to `k - 1`.
fn frames_at(time: f32, rate: f32) -> f32 {
    let frames = f64::from(time) * f64::from(rate);
    let whole = libm::round(frames);
    let tolerance = 4.0 * f64::from(f32::EPSILON) * libm::fabs(whole).max(1.0);
    #[allow(
        clippy::cast_possible_truncation,
        reason = "a frame count in f32 range: the product of two f32 values"
    )]
    if libm::fabs(frames - whole) <= tolerance {
        whole as f32
    } else {
        frames as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::Arena;
    use crate::scene::{
        ChannelRecord, Format, Interpolation, KeyframeRecord, SceneArrays, SceneCounts,
    };
    use crate::test_rng::XorShift;
    use std::vec;
    use std::vec::Vec;

    /// `Scene::sample` takes seconds; a J3D table is read at floor(frame).
    /// Frame `k` asked as the f32 nearest `k / 30` s reads entry `k`.
    #[test]
    fn whole_frames_asked_in_seconds_read_their_own_table_entry() {
        let mut naive_fell_short = 0;
        for k in 0..=3000u32 {
            let time = (f64::from(k) / 30.0) as f32;
            assert_eq!(frames_at(time, 30.0), k as f32, "frame {k}");
            if libm::floorf(time * 30.0) < k as f32 {
                naive_fell_short += 1;
            }
        }
        // The rule is needed: a plain f32 product falls short on some frames.
        assert!(naive_fell_short > 0);
        // Between frames the product is kept.
        assert_eq!(frames_at(0.5 / 30.0, 30.0), 0.5);
        assert!(frames_at(1.0 / 60.0 + 1e-4, 30.0) > 0.5);
    }

    /// A clip as the tests write it: length, loop mode and channels of
    /// (node, target, keyframes).
    struct Clip<'k> {
        length: f32,
        loop_mode: LoopMode,
        channels: &'k [(u32, ChannelTarget, &'k [KeyframeRecord])],
    }

    /// Runs `f` on a scene of `nodes` and `clips`, carved as a decoder would.
    fn with_scene(nodes: &[NodeRecord], clips: &[Clip<'_>], f: impl FnOnce(&Scene<'_>)) {
        let channels: Vec<_> = clips.iter().flat_map(|c| c.channels).collect();
        let keyframes: usize = channels.iter().map(|c| c.2.len()).sum();
        let counts = SceneCounts {
            nodes: nodes.len(),
            animations: clips.len(),
            channels: channels.len(),
            keyframes,
            ..SceneCounts::default()
        };
        let plan = crate::arena::Plan::new(counts, |_| Ok(())).unwrap();
        let mut words = vec![0u64; plan.arena_words()];
        let mut arena = Arena::from_words(&mut words);
        let a = SceneArrays::carve(&counts, &mut arena).unwrap();
        a.nodes.copy_from_slice(nodes);
        let (mut channel, mut key) = (0u32, 0u32);
        for (record, clip) in a.animations.iter_mut().zip(clips) {
            *record = AnimationRecord {
                length: clip.length,
                loop_mode: clip.loop_mode as u32,
                first_channel: channel,
                channel_count: clip.channels.len() as u32,
                ..AnimationRecord::default()
            };
            for (node, target, keys) in clip.channels {
                a.channels[channel as usize] = ChannelRecord {
                    node: *node,
                    target: *target as u32,
                    first_keyframe: key,
                    keyframe_count: keys.len() as u32,
                    ..ChannelRecord::default()
                };
                for k in *keys {
                    a.keyframes[key as usize] = *k;
                    key += 1;
                }
                channel += 1;
            }
        }
        f(&Scene::new(Format::Bbmodel, &[], a));
    }

    fn node(parent: i32, translation: [f32; 3]) -> NodeRecord {
        NodeRecord {
            parent,
            translation,
            scale: [1.0; 3],
            ..NodeRecord::default()
        }
    }

    fn linear(time: f32, value: [f32; 3]) -> KeyframeRecord {
        KeyframeRecord {
            time,
            interpolation: Interpolation::Linear as u32,
            pre: value,
            post: value,
            data_points: 1,
            ..KeyframeRecord::default()
        }
    }

    fn close(a: [f32; 3], b: [f32; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
    }

    /// The pose of `clip` at `time` in a fresh buffer.
    fn pose(scene: &Scene<'_>, clip: usize, time: f32) -> Vec<NodePose> {
        let mut out = vec![NodePose::default(); scene.nodes().len()];
        scene.sample(clip, time, &mut out).unwrap();
        out
    }

    /// One channel moving node 0's `target` through `keys`.
    fn ramp(
        keys: &[KeyframeRecord; 2],
        target: ChannelTarget,
    ) -> [(u32, ChannelTarget, &[KeyframeRecord]); 1] {
        [(0, target, keys.as_slice())]
    }

    #[test]
    fn rotation_channels_add_radians_to_the_rest_euler_angles() {
        let mut rest = node(-1, [0.0; 3]);
        rest.rotation = [0.1, -0.2, 0.3];
        let keys = [linear(0.0, [0.2, 0.4, 0.0]), linear(1.0, [0.4, 0.8, 1.0])];
        let channels = ramp(&keys, ChannelTarget::Rotation);
        let clip = Clip {
            length: 1.0,
            loop_mode: LoopMode::Once,
            channels: &channels,
        };
        with_scene(&[rest], &[clip], |scene| {
            // At 0.5 s the channel is (0.3, 0.6, 0.5); rest + channel =
            // (0.1 + 0.3, −0.2 + 0.6, 0.3 + 0.5).
            let p = pose(scene, 0, 0.5);
            assert!(close(p[0].rotation, [0.4, 0.4, 0.8]), "{:?}", p[0]);
            assert_eq!(p[0].translation, rest.translation);
            assert_eq!(p[0].scale, rest.scale);
        });
    }

    #[test]
    fn translation_channels_add_model_units_to_the_rest_translation() {
        let rest = node(-1, [1.0, 2.0, 3.0]);
        let keys = [linear(0.0, [0.0; 3]), linear(1.0, [4.0, -2.0, 0.0])];
        let channels = ramp(&keys, ChannelTarget::Translation);
        let clip = Clip {
            length: 1.0,
            loop_mode: LoopMode::Once,
            channels: &channels,
        };
        with_scene(&[rest], &[clip], |scene| {
            // 0.25 s: channel (1, −0.5, 0); (1 + 1, 2 − 0.5, 3 + 0).
            let p = pose(scene, 0, 0.25);
            assert!(close(p[0].translation, [2.0, 1.5, 3.0]), "{:?}", p[0]);
        });
    }

    #[test]
    fn scale_channels_multiply_the_rest_scale_and_a_zero_becomes_0_00001() {
        let mut rest = node(-1, [0.0; 3]);
        rest.scale = [2.0, 1.0, 0.5];
        let keys = [linear(0.0, [1.0; 3]), linear(1.0, [2.0, 0.0, 4.0])];
        let channels = ramp(&keys, ChannelTarget::Scale);
        let clip = Clip {
            length: 1.0,
            loop_mode: LoopMode::Once,
            channels: &channels,
        };
        with_scene(&[rest], &[clip], |scene| {
            // 0.5 s: factors (1.5, 0.5, 2.5); (2·1.5, 1·0.5, 0.5·2.5).
            let p = pose(scene, 0, 0.5);
            assert!(close(p[0].scale, [3.0, 0.5, 1.25]), "{:?}", p[0]);
            // 1 s: y's factor is 0, which Blockbench's displayScale turns
            // into 0.00001: 1 · 0.00001.
            let p = pose(scene, 0, 1.0);
            assert_eq!(p[0].scale, [4.0, 0.00001, 2.0]);
        });
    }

    #[test]
    fn nodes_the_clip_does_not_animate_stay_at_rest() {
        let mut other = node(0, [7.0, 8.0, 9.0]);
        other.rotation = [0.5, 0.0, 0.0];
        other.pivot = [1.0, 1.0, 1.0];
        let keys = [linear(0.0, [0.0; 3]), linear(1.0, [1.0; 3])];
        let channels = ramp(&keys, ChannelTarget::Translation);
        let clip = Clip {
            length: 1.0,
            loop_mode: LoopMode::Once,
            channels: &channels,
        };
        with_scene(&[node(-1, [0.0; 3]), other], &[clip], |scene| {
            let p = pose(scene, 0, 0.5);
            assert_eq!(p[1], NodePose::rest(&other));
            let mut rest = vec![NodePose::default(); 2];
            scene.rest_pose(&mut rest);
            assert_eq!(rest[1], p[1]);
            assert_eq!(rest[0], NodePose::rest(&scene.nodes()[0]));
        });
    }

    /// Node 0's translation x in a clip 0 → 1 s of 0 → 10, then 10 → 20 at 2 s,
    /// of length 2 s, in `mode`, at each of `times`.
    fn x_of(mode: LoopMode, length: f32, times: &[f32]) -> Vec<f32> {
        let keys = [
            linear(0.0, [0.0; 3]),
            linear(1.0, [10.0, 0.0, 0.0]),
            linear(2.0, [20.0, 0.0, 0.0]),
        ];
        let channels = [(0, ChannelTarget::Translation, keys.as_slice())];
        let clip = Clip {
            length,
            loop_mode: mode,
            channels: &channels,
        };
        let mut xs = Vec::new();
        with_scene(&[node(-1, [0.5, 0.0, 0.0])], &[clip], |scene| {
            for &t in times {
                xs.push(pose(scene, 0, t)[0].translation[0]);
            }
        });
        xs
    }

    #[test]
    fn convention_12_once_returns_to_rest_after_its_end() {
        // At 2 s (the end) the last frame, 0.5 + 20; after it the rest 0.5.
        assert_eq!(
            x_of(LoopMode::Once, 2.0, &[1.5, 2.0, 2.001, 9.0]),
            [15.5, 20.5, 0.5, 0.5]
        );
    }

    #[test]
    fn convention_12_hold_keeps_the_last_frame_after_the_end() {
        assert_eq!(
            x_of(LoopMode::Hold, 2.0, &[1.5, 2.0, 2.001, 9.0]),
            [15.5, 20.5, 20.5, 20.5]
        );
    }

    #[test]
    fn convention_12_loop_maps_time_by_plain_modulo() {
        // 2.5 s is 0.5 s (0.5 + 5); exactly 2 s is 0 s (rest + 0), not the
        // end frame; 5.25 s is 1.25 s (0.5 + 12.5).
        assert_eq!(
            x_of(LoopMode::Loop, 2.0, &[2.5, 2.0, 5.25]),
            [5.5, 0.5, 13.0]
        );
    }

    #[test]
    fn clip_time_of_a_clip_without_length_is_not_mapped_and_never_nan() {
        let clip = |loop_mode: LoopMode, length: f32| AnimationRecord {
            length,
            loop_mode: loop_mode as u32,
            ..AnimationRecord::default()
        };
        // Blockbench's Animation.time: `!this.length` plays the time as given.
        assert_eq!(clip_time(&clip(LoopMode::Loop, 0.0), 3.0), Some(3.0));
        assert_eq!(clip_time(&clip(LoopMode::Hold, 0.0), 3.0), Some(3.0));
        assert_eq!(clip_time(&clip(LoopMode::Loop, f32::NAN), 3.0), Some(3.0));
        // Once: its end is 0, so only time 0 is not at rest.
        assert_eq!(clip_time(&clip(LoopMode::Once, 0.0), 0.0), Some(0.0));
        assert_eq!(clip_time(&clip(LoopMode::Once, 0.0), 0.1), None);
        // Through the whole sampler: keyframes at 0..2 s in a clip of length
        // 0 play their own times in loop mode (lone before at 3 s: 20).
        assert_eq!(x_of(LoopMode::Loop, 0.0, &[0.5, 3.0]), [5.5, 20.5]);
        // An unknown loop value plays once.
        let unknown = AnimationRecord {
            length: 1.0,
            loop_mode: 9,
            ..AnimationRecord::default()
        };
        assert_eq!(clip_loop_mode(&unknown), LoopMode::Once);
    }

    #[test]
    fn sample_errors_name_the_clip_the_pose_buffer_and_the_time() {
        let keys = [linear(0.0, [0.0; 3]), linear(1.0, [1.0; 3])];
        let channels = ramp(&keys, ChannelTarget::Translation);
        let clip = Clip {
            length: 1.0,
            loop_mode: LoopMode::Once,
            channels: &channels,
        };
        with_scene(&[node(-1, [0.0; 3]), node(0, [0.0; 3])], &[clip], |scene| {
            let mut out = vec![NodePose::default(); 2];
            let e = scene.sample(1, 0.0, &mut out).unwrap_err();
            assert_eq!(e.code(), ErrorCode::BadOffset);
            assert!(e.message().contains("below 1"), "{e}");
            let e = scene.sample(0, 0.0, &mut out[..1]).unwrap_err();
            assert_eq!(e.code(), ErrorCode::ArenaTooSmall);
            for t in [f32::NAN, f32::INFINITY, -0.5] {
                let e = scene.sample(0, t, &mut out).unwrap_err();
                assert_eq!(e.code(), ErrorCode::BadValue, "{t}");
            }
            // A longer buffer is fine; entries past the nodes are left alone.
            let mut long = vec![NodePose::default(); 3];
            scene.sample(0, 0.5, &mut long).unwrap();
            assert_eq!(long[2], NodePose::default());
        });
    }

    #[test]
    fn the_world_matrix_turns_about_the_unanimated_pivot() {
        let mut rest = node(-1, [0.0; 3]);
        rest.pivot = [1.0, 0.0, 0.0];
        let half_turn = [0.0, 0.0, core::f32::consts::PI];
        let keys = [linear(0.0, [0.0; 3]), linear(1.0, half_turn)];
        let channels = ramp(&keys, ChannelTarget::Rotation);
        let clip = Clip {
            length: 1.0,
            loop_mode: LoopMode::Once,
            channels: &channels,
        };
        with_scene(&[rest], &[clip], |scene| {
            let p = pose(scene, 0, 1.0);
            assert_eq!(p[0].pivot, rest.pivot);
            let mut world = [Mat4::IDENTITY];
            world_matrices(scene, &p, &mut world);
            // π about z through (1, 0, 0): the pivot stays, (2, 0, 0) goes to
            // 1 − (2 − 1) = 0.
            assert!(close(
                world[0].transform_point([1.0, 0.0, 0.0]),
                [1.0, 0.0, 0.0]
            ));
            assert!(close(world[0].transform_point([2.0, 0.0, 0.0]), [0.0; 3]));
        });
    }

    #[test]
    fn world_matrices_take_a_parent_listed_after_its_child() {
        // Node 0's parent is node 1 (J3D keeps JNT1 order).
        let nodes = [node(1, [1.0, 0.0, 0.0]), node(-1, [5.0, 0.0, 0.0])];
        with_scene(&nodes, &[], |scene| {
            let mut poses = [NodePose::default(); 2];
            scene.rest_pose(&mut poses);
            let mut world = [Mat4::IDENTITY; 2];
            world_matrices(scene, &poses, &mut world);
            // 5 + 1 along x.
            assert_eq!(world[0].transform_point([0.0; 3]), [6.0, 0.0, 0.0]);
            assert_eq!(world[0], scene.world_matrix(0));
            assert_eq!(world[1], scene.world_matrix(1));
        });
    }

    #[test]
    fn world_matrices_end_on_a_parent_cycle() {
        let nodes = [
            node(1, [1.0, 0.0, 0.0]),
            node(0, [2.0, 0.0, 0.0]),
            node(2, [4.0, 0.0, 0.0]),
        ];
        with_scene(&nodes, &[], |scene| {
            let mut poses = [NodePose::default(); 3];
            scene.rest_pose(&mut poses);
            let mut world = [Mat4::IDENTITY; 3];
            world_matrices(scene, &poses, &mut world);
            // Bounded: every matrix is finite (its value is unspecified).
            assert!(world.iter().all(|m| m.0.iter().all(|v| v.is_finite())));
        });
    }

    /// A random tree in any node order, with pivots, rotations and scales.
    fn random_nodes(rng: &mut XorShift, n: usize) -> Vec<NodeRecord> {
        let unit = |rng: &mut XorShift| rng.below(2001) as f32 / 1000.0 - 1.0;
        // A random permutation decides the listing order; parents come
        // earlier in the permutation, which puts some after their children.
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        (0..n)
            .map(|slot| {
                let rank = order.iter().position(|&o| o == slot).unwrap();
                let parent = if rank == 0 {
                    -1
                } else {
                    order[rng.below(rank as u64) as usize] as i32
                };
                NodeRecord {
                    parent,
                    translation: [unit(rng) * 4.0, unit(rng) * 4.0, unit(rng) * 4.0],
                    rotation: [unit(rng), unit(rng), unit(rng)],
                    scale: [1.0 + unit(rng) * 0.5, 1.0, 1.0 + unit(rng) * 0.5],
                    pivot: [unit(rng), unit(rng), unit(rng)],
                    flags: (rng.below(2) as u32)
                        * crate::scene::NodeFlags::SEGMENT_SCALE_COMPENSATE,
                    ..NodeRecord::default()
                }
            })
            .collect()
    }

    #[test]
    fn world_matrices_at_rest_equal_scene_world_matrix_in_any_order() {
        let mut rng = XorShift(0x0016_0003);
        for _ in 0..50 {
            let n = 1 + rng.below(8) as usize;
            let nodes = random_nodes(&mut rng, n);
            with_scene(&nodes, &[], |scene| {
                let mut poses = vec![NodePose::default(); n];
                scene.rest_pose(&mut poses);
                let mut world = vec![Mat4::IDENTITY; n];
                world_matrices(scene, &poses, &mut world);
                for (i, m) in world.iter().enumerate() {
                    let walked = scene.world_matrix(i);
                    let diff = m.0.iter().zip(walked.0).map(|(a, b)| (a - b).abs());
                    assert!(diff.fold(0.0, f32::max) < 1e-4, "node {i} of {nodes:?}");
                }
            });
        }
    }

    #[test]
    fn a_clip_of_identity_keyframes_poses_exactly_the_rest_pose_at_time_0() {
        let mut rng = XorShift(0x0016_0004);
        let zero = [linear(0.0, [0.0; 3]), linear(0.5, [0.0; 3])];
        let one = [linear(0.0, [1.0; 3]), linear(0.5, [1.0; 3])];
        for _ in 0..20 {
            let n = 1 + rng.below(6) as usize;
            let nodes = random_nodes(&mut rng, n);
            let channels: Vec<_> = (0..n as u32)
                .flat_map(|i| {
                    [
                        (i, ChannelTarget::Translation, zero.as_slice()),
                        (i, ChannelTarget::Rotation, zero.as_slice()),
                        (i, ChannelTarget::Scale, one.as_slice()),
                    ]
                })
                .collect();
            let clip = Clip {
                length: 0.5,
                loop_mode: LoopMode::Loop,
                channels: &channels,
            };
            with_scene(&nodes, &[clip], |scene| {
                let mut rest = vec![NodePose::default(); n];
                scene.rest_pose(&mut rest);
                assert_eq!(pose(scene, 0, 0.0), rest);
                let (mut a, mut b) = (vec![Mat4::IDENTITY; n], vec![Mat4::IDENTITY; n]);
                world_matrices(scene, &rest, &mut a);
                world_matrices(scene, &pose(scene, 0, 0.0), &mut b);
                assert_eq!(a, b);
            });
        }
    }

    /// Keyframes of one data point at increasing times in (0, length), in
    /// `interpolation`, values within ±`range`.
    fn random_keys(
        rng: &mut XorShift,
        interpolation: Interpolation,
        range: f32,
    ) -> Vec<KeyframeRecord> {
        let n = 2 + rng.below(5) as usize;
        let mut time = 0.0;
        (0..n)
            .map(|_| {
                let value = [0; 3].map(|_| (rng.below(2001) as f32 / 1000.0 - 1.0) * range);
                let k = KeyframeRecord {
                    time,
                    interpolation: interpolation as u32,
                    pre: value,
                    post: value,
                    data_points: 1,
                    ..KeyframeRecord::default()
                };
                time += 0.1 + rng.below(100) as f32 / 100.0;
                k
            })
            .collect()
    }

    #[test]
    fn sampling_is_continuous_in_time_for_linear_and_catmull_rom() {
        let mut rng = XorShift(0x0016_0005);
        for interpolation in [Interpolation::Linear, Interpolation::CatmullRom] {
            for _ in 0..30 {
                let n = 1 + rng.below(5) as usize;
                let nodes = random_nodes(&mut rng, n);
                let keys: Vec<_> = (0..n)
                    .flat_map(|_| {
                        [
                            random_keys(&mut rng, interpolation, 2.0),
                            random_keys(&mut rng, interpolation, 1.0),
                            random_keys(&mut rng, interpolation, 0.5)
                                .into_iter()
                                .map(|mut k| {
                                    k.pre = k.pre.map(|v| v + 1.5);
                                    k.post = k.pre;
                                    k
                                })
                                .collect(),
                        ]
                    })
                    .collect();
                let targets = [
                    ChannelTarget::Translation,
                    ChannelTarget::Rotation,
                    ChannelTarget::Scale,
                ];
                let channels: Vec<_> = keys
                    .iter()
                    .enumerate()
                    .map(|(i, k)| ((i / 3) as u32, targets[i % 3], k.as_slice()))
                    .collect();
                let length = 6.0;
                let clip = Clip {
                    length,
                    loop_mode: LoopMode::Loop,
                    channels: &channels,
                };
                with_scene(&nodes, &[clip], |scene| {
                    let (mut a, mut b) = (vec![Mat4::IDENTITY; n], vec![Mat4::IDENTITY; n]);
                    for _ in 0..20 {
                        // Away from the loop seam at 0 and 6 s.
                        let t = 0.01 + rng.below(5980) as f32 / 1000.0;
                        world_matrices(scene, &pose(scene, 0, t), &mut a);
                        world_matrices(scene, &pose(scene, 0, t + 1e-4), &mut b);
                        for (m, k) in a.iter().zip(&b) {
                            let jump = m.0.iter().zip(k.0).map(|(x, y)| (x - y).abs());
                            // Slopes are below about 100 per second here, so
                            // 1e-4 s moves an entry by well under 0.05; a
                            // jump between keyframe values is of order 1.
                            assert!(jump.fold(0.0, f32::max) < 0.05, "{interpolation:?} at {t}");
                        }
                    }
                });
            }
        }
    }
}
