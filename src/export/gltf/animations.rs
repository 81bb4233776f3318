//! Clips as glTF animations: every clip sampled with [`Scene::sample`] into
//! TRS channels on each animated node's main node (the chain node that holds
//! the scene node's own transform, nodes.rs).
//!
//! Sampling rather than copying keyframes: glTF has no pre/post data
//! points, no Blockbench catmull-rom and no additive Euler rotation, so the
//! rate decides how closely a player follows the clip. A clip's LINEAR
//! channels share one input: frames at `k / fps`, the clip's length, and
//! every keyframe's exact time (merged, deduplicated, sorted), so each
//! keyframe shows where it is. A channel whose keyframes all step (every
//! one but the last, whose interpolation reaches no later segment) holds
//! values between keyframes, so it is written STEP at its keyframe times,
//! 0 and the clip's end, each value the one `Scene::sample` shows after its
//! time. glTF has
//! no loop modes: the clip's loop mode goes into the animation's `extras`
//! (`{"loop": "once" | "hold" | "loop"}`).

use std::string::{String, ToString};
use std::vec::Vec;

use gltf_json as json;
use json::animation::{Channel, Interpolation as GltfInterpolation, Property, Sampler, Target};
use json::validation::Checked;
use serde_json::{Map, Value};

use crate::scene::{
    ChannelFlags, ChannelTarget, Interpolation, KeyframeRecord, KeyframeSource, LoopMode,
    NodeFlags, NodePose, Scene, clip_loop_mode, shape_node,
};

use super::ExportError;
use super::buffers::{Layout, Writer};
use super::extras;
use super::nodes::{NodeMap, quaternion_xyz};

/// The rate clips are sampled at unless the caller says otherwise.
pub const DEFAULT_FPS: f32 = 60.0;

/// Seconds a clip of length 0 whose Molang runs on is exported over (a
/// Bedrock continuous animation: Blockbench's preview plays it until
/// `Timeline.loop`'s `length || 1e3` s, its Bedrock export writes it
/// `loop: true`). 24 s holds a whole number of periods of every
/// `math.sin`/`math.cos` of `query.anim_time` whose rate is a multiple of
/// 15°/s (period 360/rate s divides 24), so such a clip loops without a
/// seam; `--continuous-length` sets another.
pub const DEFAULT_CONTINUOUS_LENGTH: f32 = 24.0;

/// Most frames written per clip; a longer clip is sampled at evenly spaced
/// times instead (a clip of 10⁶ s at 60 fps would be 6 · 10⁷ frames).
pub const MAX_FRAMES_PER_CLIP: usize = 1 << 16;

/// The times a clip of `length` seconds is sampled at, for `fps` frames a
/// second: `0, 1/fps, …` up to and including `length`.
pub fn frame_times(length: f32, fps: f32) -> Vec<f32> {
    if !(length > 0.0 && length.is_finite()) {
        return std::vec![0.0];
    }
    let steps = f64::from(length) * f64::from(fps);
    // Whole steps up to the length, then the length itself (below the cap).
    let whole = libm::ceil(steps).clamp(1.0, (MAX_FRAMES_PER_CLIP - 1) as f64);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let whole = whole as usize;
    let step = if libm::ceil(steps) > whole as f64 {
        f64::from(length) / whole as f64
    } else {
        1.0 / f64::from(fps)
    };
    #[allow(clippy::cast_possible_truncation)]
    let mut times: Vec<f32> = (0..whole)
        .map(|k| (k as f64 * step) as f32)
        .filter(|&t| t < length)
        .collect();
    times.push(length);
    times
}

/// The last time a clip of `length` can show: its length, or 0 for a clip
/// without one (sampled as one frame).
fn clip_end(length: f32) -> f32 {
    if length > 0.0 && length.is_finite() {
        length
    } else {
        0.0
    }
}

/// The seconds clip `clip` is exported over: its length, or `continuous`
/// for a loop or hold clip of length 0 whose Molang runs on (such a clip
/// samples the time itself, `clip_time`). A once clip of length 0 stays
/// one frame: the specification returns it to rest after its end, 0
/// (Blockbench's `stackAnimations` would play it on).
fn played_length(scene: &Scene<'_>, clip: usize, continuous: f32) -> f32 {
    let Some(record) = scene.animations().get(clip) else {
        return 0.0;
    };
    if clip_end(record.length) > 0.0 || clip_loop_mode(record) == LoopMode::Once {
        return record.length;
    }
    if scene.clip_runs_molang(clip) {
        continuous
    } else {
        record.length
    }
}

/// `times` and every keyframe time within `[0, end]`, sorted, each once.
pub fn merge_times(mut times: Vec<f32>, keys: &[f32], end: f32) -> Vec<f32> {
    times.extend(keys.iter().copied().filter(|&t| (0.0..=end).contains(&t)));
    times.sort_by(f32::total_cmp);
    times.dedup();
    times
}

/// Where a STEP channel's value for each of `times` is sampled: between the
/// time and the next one (or the clip's end), where the value after the
/// keyframe shows; at the time itself when nothing follows it.
pub fn step_sample_times(times: &[f32], end: f32) -> Vec<f32> {
    times
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let next = times.get(i + 1).copied().unwrap_or(end);
            if next > t { t + (next - t) * 0.5 } else { t }
        })
        .collect()
}

/// One written channel: a scene node's target, the times of its keyframes
/// and its frames' values.
struct Track {
    node: usize,
    target: ChannelTarget,
    /// Every keyframe of the clip's channels on this node and target steps.
    step: bool,
    /// Their keyframe times.
    key_times: Vec<f32>,
    /// Translation or scale per frame.
    vectors: Vec<[f32; 3]>,
    /// Rotation quaternions per frame.
    quaternions: Vec<[f32; 4]>,
    /// The pivot the parent's glTF node carries (scaled), which this node's
    /// translation takes off ([`NodeMap::pivot`]).
    above: [f32; 3],
}

impl Track {
    /// Appends this track's value in `poses` (lengths times `scale`).
    fn record(&mut self, poses: &[NodePose], scale: f32) {
        let Some(pose) = poses.get(self.node) else {
            return;
        };
        match self.target {
            // The main node's translation is t + p − p_parent (nodes.rs).
            ChannelTarget::Translation => self.vectors.push(core::array::from_fn(|a| {
                let (t, p) = (pose.translation.get(a), pose.pivot.get(a));
                (t.unwrap_or(&0.0) + p.unwrap_or(&0.0)) * scale - self.above.get(a).unwrap_or(&0.0)
            })),
            ChannelTarget::Scale => self.vectors.push(pose.scale),
            ChannelTarget::Rotation => {
                let mut q = quaternion_xyz(pose.rotation);
                // Keep to one hemisphere so players turn the short way.
                if let Some(previous) = self.quaternions.last() {
                    let dot: f32 = q.iter().zip(previous).map(|(a, b)| a * b).sum();
                    if dot < 0.0 {
                        q = q.map(|x| -x);
                    }
                }
                self.quaternions.push(q);
            }
        }
    }
}

/// Samples clip `clip` at each of `times` into `tracks`.
fn sample_into(
    scene: &Scene<'_>,
    clip: usize,
    times: &[f32],
    poses: &mut [NodePose],
    tracks: &mut [&mut Track],
    scale: f32,
) -> Result<(), ExportError> {
    for &t in times {
        scene
            .sample(clip, t, poses)
            .map_err(|e| ExportError::Scene(e.to_string()))?;
        for track in tracks.iter_mut() {
            track.record(poses, scale);
        }
    }
    Ok(())
}

/// Writes every clip of `scene` that moves at least one node as a glTF
/// animation, lengths multiplied by `scale`; how many were written.
///
/// Nodes under segment-scale compensation (J3D) are left out: their
/// translation lives on a different chain node than their rotation, and no
/// J3D clip reaches the scene.
pub fn write_animations(
    w: &mut Writer,
    scene: &Scene<'_>,
    nodes: &NodeMap,
    scale: f32,
    (fps, continuous): (f32, f32),
) -> Result<usize, ExportError> {
    let mut poses = std::vec![NodePose::default(); scene.nodes().len()];
    let mut written = 0;
    for (clip, record) in scene.animations().iter().enumerate() {
        let mut tracks = tracks_of(scene, clip);
        if tracks.is_empty() {
            continue;
        }
        for track in &mut tracks {
            let parent = scene
                .nodes()
                .get(track.node)
                .and_then(|n| usize::try_from(n.parent).ok());
            track.above = parent
                .and_then(|p| nodes.pivot.get(p).copied())
                .unwrap_or([0.0; 3]);
        }
        let length = played_length(scene, clip, continuous);
        let end = clip_end(length);
        // LINEAR tracks: one shared grid with every keyframe time in it.
        let linear_keys: Vec<f32> = tracks
            .iter()
            .filter(|t| !t.step)
            .flat_map(|t| t.key_times.iter().copied())
            .collect();
        let grid = merge_times(frame_times(length, fps), &linear_keys, end);
        let mut linear: Vec<&mut Track> = tracks.iter_mut().filter(|t| !t.step).collect();
        sample_into(scene, clip, &grid, &mut poses, &mut linear, scale)?;
        let grid_input = if linear.is_empty() {
            None
        } else {
            Some(write_times(w, &grid)?)
        };
        let mut animation = json::Animation {
            extensions: None,
            extras: loop_extras(clip_loop_mode(record)),
            channels: Vec::new(),
            name: super::name(scene.text(record.name)),
            samplers: Vec::new(),
        };
        for track in &mut tracks {
            let Some(&node) = nodes.main.get(track.node) else {
                continue;
            };
            let (input, interpolation) = match (track.step, grid_input) {
                (false, Some(input)) => (input, GltfInterpolation::Linear),
                _ => {
                    // Time 0 too: before its first keyframe a channel shows
                    // that keyframe's arriving value; and the end: a loop
                    // shows time 0 there (convention 12).
                    let times = merge_times(std::vec![0.0, end], &track.key_times, end);
                    let at = step_sample_times(&times, end);
                    sample_into(scene, clip, &at, &mut poses, &mut [&mut *track], scale)?;
                    (write_times(w, &times)?, GltfInterpolation::Step)
                }
            };
            let (output, path) = match track.target {
                ChannelTarget::Translation => (
                    w.floats(&track.vectors, Layout::VEC3_F32, None, false)?,
                    Property::Translation,
                ),
                ChannelTarget::Scale => (
                    w.floats(&track.vectors, Layout::VEC3_F32, None, false)?,
                    Property::Scale,
                ),
                ChannelTarget::Rotation => (
                    w.floats(&track.quaternions, Layout::VEC4_F32, None, false)?,
                    Property::Rotation,
                ),
            };
            push(&mut animation, input, output, interpolation, node, path)?;
        }
        if !animation.channels.is_empty() {
            w.root.push(animation);
            written += 1;
        }
    }
    Ok(written)
}

/// Adds a sampler and the channel that plays it.
pub(super) fn push(
    animation: &mut json::Animation,
    input: json::Index<json::Accessor>,
    output: json::Index<json::Accessor>,
    interpolation: GltfInterpolation,
    node: json::Index<json::Node>,
    path: Property,
) -> Result<(), ExportError> {
    let sampler =
        json::Index::new(u32::try_from(animation.samplers.len()).map_err(|_| {
            ExportError::TooLarge(String::from("more than 2³² animation samplers"))
        })?);
    animation.samplers.push(Sampler {
        extensions: None,
        extras: None,
        input,
        interpolation: Checked::Valid(interpolation),
        output,
    });
    animation.channels.push(Channel {
        sampler,
        target: Target {
            extensions: None,
            extras: None,
            node,
            path: Checked::Valid(path),
        },
        extensions: None,
        extras: None,
    });
    Ok(())
}

/// A sampler input: the times, with the min/max glTF requires.
fn write_times(w: &mut Writer, times: &[f32]) -> Result<json::Index<json::Accessor>, ExportError> {
    w.floats(
        &times.iter().map(|&t| [t]).collect::<Vec<_>>(),
        Layout::SCALAR_F32,
        None,
        true,
    )
}

/// True when a channel of `keys` holds each value until the next keyframe:
/// every keyframe but the last steps (the last one's interpolation reaches
/// no later keyframe).
fn steps(keys: &[KeyframeRecord]) -> bool {
    let Some((_, leading)) = keys.split_last() else {
        return true;
    };
    leading
        .iter()
        .all(|k| k.interpolation == Interpolation::Step as u32)
}

/// The distinct (node, target) pairs clip `clip` moves, with keyframes, on
/// nodes a chain's main node can carry.
fn tracks_of(scene: &Scene<'_>, clip: usize) -> Vec<Track> {
    let Some(record) = scene.animations().get(clip) else {
        return Vec::new();
    };
    let channels = scene
        .channels()
        .get(record.first_channel as usize..)
        .unwrap_or_default()
        .iter()
        .take(record.channel_count as usize);
    let looping = clip_loop_mode(record) == LoopMode::Loop;
    let mut tracks: Vec<Track> = Vec::new();
    for channel in channels {
        let target = match channel.target {
            0 => ChannelTarget::Translation,
            1 => ChannelTarget::Rotation,
            2 => ChannelTarget::Scale,
            _ => continue,
        };
        // The Hytale plugin's scale plays on the group's main cube node, as
        // `Scene::sample` plays it; without one it moves nothing, and the
        // group's track shows its rest scale (the clip is still written).
        let hytale_scale =
            target == ChannelTarget::Scale && channel.flags & ChannelFlags::HYTALE != 0;
        let node = hytale_scale
            .then(|| shape_node(scene.nodes(), channel.node as usize))
            .flatten()
            .unwrap_or(channel.node as usize);
        let Some(record) = scene.nodes().get(node) else {
            continue;
        };
        let compensated = record.flags & NodeFlags::SEGMENT_SCALE_COMPENSATE != 0;
        // The keyframes as Scene::sample reads them.
        let keys = scene
            .keyframes()
            .get(channel.first_keyframe as usize..)
            .unwrap_or_default();
        let keys = keys.get(..channel.keyframe_count as usize).unwrap_or(keys);
        if keys.is_empty() || compensated {
            continue;
        }
        // A Molang value moves between keyframes even in a step channel
        // (Blockbench evaluates the held keyframe at each frame): sampled
        // on the grid like a linear one.
        let first = channel.first_keyframe as usize;
        let molang = scene
            .keyframe_sources()
            .get(first..first.saturating_add(keys.len()))
            .is_some_and(|s| s.iter().any(|s| s.molang & KeyframeSource::AXES != 0));
        let step = steps_played(keys, channel.flags, looping) && !molang;
        add_track(&mut tracks, node, target, step, keys);
        // rotation_global turns the node with its parent's motion, whatever
        // the animator keys: a rotation track, never STEP.
        if channel.flags & ChannelFlags::GLOBAL_ROTATION != 0 {
            add_track(&mut tracks, node, ChannelTarget::Rotation, false, keys);
        }
    }
    tracks
}

/// Whether a channel holds each value until its next keyframe as the
/// sampler plays it: [`steps`], but never under `rotation_global` (the
/// parent's motion shows through), and in a loop that wraps
/// ([`ChannelFlags::LOOP_WRAP`]) the last keyframe leads across the loop's
/// end to the first, so it must step too.
fn steps_played(keys: &[KeyframeRecord], flags: u32, looping: bool) -> bool {
    if flags & ChannelFlags::GLOBAL_ROTATION != 0 {
        return false;
    }
    if looping && flags & ChannelFlags::LOOP_WRAP != 0 {
        return keys
            .iter()
            .all(|k| k.interpolation == Interpolation::Step as u32);
    }
    steps(keys)
}

/// Adds `keys`' times to the track of (node, target), made when missing.
/// Channels on one node and target add up: one track for all of them.
fn add_track(
    tracks: &mut Vec<Track>,
    node: usize,
    target: ChannelTarget,
    step: bool,
    keys: &[KeyframeRecord],
) {
    let times = keys.iter().map(|k| k.time);
    if let Some(track) = tracks
        .iter_mut()
        .find(|t| t.node == node && t.target == target)
    {
        track.step &= step;
        track.key_times.extend(times);
        return;
    }
    tracks.push(Track {
        node,
        target,
        step,
        key_times: times.collect(),
        vectors: Vec::new(),
        quaternions: Vec::new(),
        above: [0.0; 3],
    });
}

/// `{"loop": …}`: what glTF cannot say about a clip.
fn loop_extras(mode: LoopMode) -> json::Extras {
    let name = match mode {
        LoopMode::Once => "once",
        LoopMode::Hold => "hold",
        LoopMode::Loop => "loop",
    };
    let mut fields = Map::new();
    fields.insert(String::from("loop"), Value::from(name));
    extras::object(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_fall_at_whole_steps_and_at_the_exact_end() {
        assert_eq!(frame_times(1.0, 4.0), [0.0, 0.25, 0.5, 0.75, 1.0]);
        // 0.3 s at 10 fps: 0, 0.1, 0.2, then the end itself (not 0.3 twice).
        assert_eq!(frame_times(0.3, 10.0), [0.0, 0.1, 0.2, 0.3]);
        // 0.25 s at 10 fps: the end is no whole step.
        assert_eq!(frame_times(0.25, 10.0), [0.0, 0.1, 0.2, 0.25]);
        // Length 0 (or none): one frame.
        assert_eq!(frame_times(0.0, 30.0), [0.0]);
        assert_eq!(frame_times(f32::NAN, 30.0), [0.0]);
    }

    #[test]
    fn a_long_clip_is_capped_at_max_frames_per_clip_and_keeps_its_end() {
        let times = frame_times(1.0e6, 30.0);
        assert_eq!(times.len(), MAX_FRAMES_PER_CLIP);
        assert_eq!(times.last(), Some(&1.0e6));
        assert!(times.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn convention_12_keyframe_times_join_the_frame_grid_exactly_once() {
        // 0.25 s at 10 fps, keyframes at 0.1 (on the grid), 0.125 (between
        // frames), 0.25 (the end), 0.3 and −1 (outside the clip).
        let grid = merge_times(
            frame_times(0.25, 10.0),
            &[0.125, 0.1, 0.25, 0.3, -1.0],
            0.25,
        );
        assert_eq!(grid, [0.0, 0.1, 0.125, 0.2, 0.25]);
        // A clip without length keeps its one frame.
        assert_eq!(merge_times(frame_times(0.0, 60.0), &[0.0, 0.5], 0.0), [0.0]);
    }

    #[test]
    fn convention_12_a_step_value_is_sampled_after_its_keyframe() {
        // Keyframes at 0, 0.5 and the end 1: the values of (0, 0.5), (0.5, 1)
        // and, at the end, the end itself (nothing follows it).
        assert_eq!(step_sample_times(&[0.0, 0.5, 1.0], 1.0), [0.25, 0.75, 1.0]);
        // A last keyframe before the end: its value shows up to the end.
        assert_eq!(step_sample_times(&[0.0, 0.5], 1.0), [0.25, 0.75]);
    }

    #[test]
    fn a_channel_steps_when_every_keyframe_but_the_last_steps() {
        let key = |interpolation: Interpolation| KeyframeRecord {
            interpolation: interpolation as u32,
            ..KeyframeRecord::default()
        };
        let step = key(Interpolation::Step);
        let linear = key(Interpolation::Linear);
        assert!(steps(&[step, step]));
        assert!(
            steps(&[step, linear]),
            "the last keyframe's own interpolation is unused"
        );
        assert!(steps(&[linear]), "one keyframe holds its value");
        assert!(!steps(&[linear, step]));
        assert!(!steps(&[step, key(Interpolation::CatmullRom), step]));
    }
}
