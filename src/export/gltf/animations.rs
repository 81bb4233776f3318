//! Clips as glTF animations: every clip sampled with [`Scene::sample`] at a
//! fixed rate into LINEAR TRS channels on each animated node's main node
//! (the chain node that holds the scene node's own transform, nodes.rs).
//!
//! Sampling rather than copying keyframes: glTF has no pre/post data
//! points, no Blockbench catmull-rom and no additive Euler rotation, so the
//! rate decides how closely a player follows the clip. Frames fall at
//! `k / fps` and at the clip's length, so its last frame is exact; a clip
//! of length 0 is one frame. glTF has no loop modes: the clip's loop mode
//! goes into the animation's `extras` (`{"loop": "once" | "hold" | "loop"}`).

use std::string::{String, ToString};
use std::vec::Vec;

use gltf_json as json;
use json::animation::{Channel, Interpolation, Property, Sampler, Target};
use json::validation::Checked;
use serde_json::{Map, Value};

use crate::scene::{ChannelTarget, LoopMode, NodeFlags, NodePose, Scene, clip_loop_mode};

use super::ExportError;
use super::buffers::{Layout, Writer};
use super::extras;
use super::nodes::{NodeMap, quaternion_xyz};

/// Most frames written per clip; a longer clip is sampled at evenly spaced
/// times instead (a clip of 10⁶ s at 30 fps would be 3 · 10⁷ frames).
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

/// One written channel: a scene node's target and its frames' values.
struct Track {
    node: usize,
    target: ChannelTarget,
    /// Translation or scale per frame.
    vectors: Vec<[f32; 3]>,
    /// Rotation quaternions per frame.
    quaternions: Vec<[f32; 4]>,
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
    fps: f32,
) -> Result<usize, ExportError> {
    let mut poses = std::vec![NodePose::default(); scene.nodes().len()];
    let mut written = 0;
    for (clip, record) in scene.animations().iter().enumerate() {
        let mut tracks = tracks_of(scene, clip);
        if tracks.is_empty() {
            continue;
        }
        let times = frame_times(record.length, fps);
        for &t in &times {
            scene
                .sample(clip, t, &mut poses)
                .map_err(|e| ExportError::Scene(e.to_string()))?;
            for track in &mut tracks {
                let Some(pose) = poses.get(track.node) else {
                    continue;
                };
                match track.target {
                    // The main node's translation is t + p (nodes.rs).
                    ChannelTarget::Translation => track
                        .vectors
                        .push([0, 1, 2].map(|a| (pose.translation[a] + pose.pivot[a]) * scale)),
                    ChannelTarget::Scale => track.vectors.push(pose.scale),
                    ChannelTarget::Rotation => {
                        let mut q = quaternion_xyz(pose.rotation);
                        // Keep to one hemisphere so players turn the short way.
                        if let Some(previous) = track.quaternions.last() {
                            let dot: f32 = q.iter().zip(previous).map(|(a, b)| a * b).sum();
                            if dot < 0.0 {
                                q = q.map(|x| -x);
                            }
                        }
                        track.quaternions.push(q);
                    }
                }
            }
        }
        let input = w.floats(
            &times.iter().map(|&t| [t]).collect::<Vec<_>>(),
            Layout::SCALAR_F32,
            None,
            true,
        )?;
        let mut animation = json::Animation {
            extensions: None,
            extras: loop_extras(clip_loop_mode(record)),
            channels: Vec::new(),
            name: super::name(scene.text(record.name)),
            samplers: Vec::new(),
        };
        for track in &tracks {
            let Some(&node) = nodes.main.get(track.node) else {
                continue;
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
            let sampler =
                json::Index::new(u32::try_from(animation.samplers.len()).map_err(|_| {
                    ExportError::TooLarge(String::from("more than 2³² animation samplers"))
                })?);
            animation.samplers.push(Sampler {
                extensions: None,
                extras: None,
                input,
                interpolation: Checked::Valid(Interpolation::Linear),
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
        }
        if !animation.channels.is_empty() {
            w.root.push(animation);
            written += 1;
        }
    }
    Ok(written)
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
    let mut tracks: Vec<Track> = Vec::new();
    for channel in channels {
        let node = channel.node as usize;
        let target = match channel.target {
            0 => ChannelTarget::Translation,
            1 => ChannelTarget::Rotation,
            2 => ChannelTarget::Scale,
            _ => continue,
        };
        let Some(record) = scene.nodes().get(node) else {
            continue;
        };
        let compensated = record.flags & NodeFlags::SEGMENT_SCALE_COMPENSATE != 0;
        let seen = tracks.iter().any(|t| t.node == node && t.target == target);
        if channel.keyframe_count == 0 || compensated || seen {
            continue;
        }
        tracks.push(Track {
            node,
            target,
            vectors: Vec::new(),
            quaternions: Vec::new(),
        });
    }
    tracks
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
}
