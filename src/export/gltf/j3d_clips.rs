//! J3D clips (animation files attached with `Options`) as glTF animations:
//! each joint track becomes translation, rotation and scale channels on the
//! joint's glTF node, sampled with [`Scene::sample_frame`], so the file
//! plays as the game plays it (docs/j3d.md, "Animations").
//!
//! Sampled, not copied: J3D rotations are Hermite curves of Euler angles,
//! which no glTF interpolation reproduces, and a compensated joint's
//! `S(parent)⁻¹` is a quotient of curves. Keyed tracks (BCK) are written
//! LINEAR on one grid per clip: frames at `k / fps`, every key's time and
//! the clip's end. Tracks read from per-frame tables (BCA) are written STEP
//! at each whole frame, since the game reads them at `floor(frame)`.
//! Mirrored loop modes are sampled over their whole period (forward, then
//! back), so a player that repeats the glTF clip shows what the game
//! shows; the mode goes into the animation's `extras`
//! (`{"loop": "repeat"}`, …, as [`FrameLoop::as_str`] names them).
//!
//! Material tracks (BTK, BRK, BPK, BTP) and shape visibility (BVA) go
//! through [`super::j3d_materials`], into the same animation as pointer
//! channels where glTF can play them (BVA as its shape's node's scale),
//! into `extras.j3d_tracks` where not; the export's summary counts the
//! latter ([`Unplayed`]) so the caller can say so.

use std::string::{String, ToString};
use std::vec::Vec;

use gltf_json as json;
use json::animation::{Interpolation, Property};
use serde_json::{Map, Value};

use crate::scene::{
    ClipRecord, CurveKind, FrameLoop, Mat4, NodeFlags, NodePose, NodeRecord, Scene, TrackTarget,
};

use super::ExportError;
use super::animations::{frame_times, merge_times, push};
use super::buffers::{Layout, Writer};
use super::extras;
use super::j3d_materials::{Frames, Kept, Unplayed};
use super::materials::Materials;
use super::nodes::{NodeMap, quaternion_xyz};

/// One joint's values per sampled time, and where they go.
struct JointTrack {
    node: usize,
    /// Every curve of the track is a per-frame table.
    table: bool,
    translation: Vec<[f32; 3]>,
    rotation: Vec<[f32; 4]>,
    scale: Vec<[f32; 3]>,
    /// Under segment-scale compensation: the outer node's `S(parent)⁻¹`.
    inverse_parent_scale: Vec<[f32; 3]>,
}

impl JointTrack {
    /// Appends the joint's values in `poses`, lengths times `scale`, as the
    /// glTF nodes of [`super::nodes::write_nodes`] hold them.
    fn record(&mut self, scene: &Scene<'_>, nodes: &NodeMap, poses: &[NodePose], scale: f32) {
        let (Some(pose), Some(record)) = (poses.get(self.node), scene.nodes().get(self.node))
        else {
            return;
        };
        let parent = usize::try_from(record.parent).ok();
        let above = parent
            .and_then(|p| nodes.pivot.get(p).copied())
            .unwrap_or([0.0; 3]);
        if compensated(record) {
            // T(t') · S(parent)⁻¹ on the outer node; t' as Mat4::local has it.
            let local = Mat4::local(&NodeRecord {
                translation: pose.translation.map(|x| x * scale),
                rotation: pose.rotation,
                scale: pose.scale,
                pivot: pose.pivot.map(|x| x * scale),
                ..*record
            });
            self.translation.push([
                local.0[12] - above[0],
                local.0[13] - above[1],
                local.0[14] - above[2],
            ]);
            let parent_scale = parent
                .and_then(|p| poses.get(p))
                .map_or([1.0; 3], |p| p.scale);
            self.inverse_parent_scale
                .push(parent_scale.map(|s| if s == 0.0 { 1.0 } else { 1.0 / s }));
        } else {
            let [x, y, z] = pose.translation;
            let [px, py, pz] = pose.pivot;
            let [ax, ay, az] = above;
            self.translation.push([
                (x + px) * scale - ax,
                (y + py) * scale - ay,
                (z + pz) * scale - az,
            ]);
        }
        let mut q = quaternion_xyz(pose.rotation);
        // Keep to one hemisphere so players turn the short way.
        if let Some(previous) = self.rotation.last() {
            let dot: f32 = q.iter().zip(previous).map(|(a, b)| a * b).sum();
            if dot < 0.0 {
                q = q.map(|x| -x);
            }
        }
        self.rotation.push(q);
        self.scale.push(pose.scale);
    }
}

/// A joint whose glTF form is two nodes (nodes.rs): segment-scale
/// compensation under a parent.
fn compensated(record: &NodeRecord) -> bool {
    record.flags & NodeFlags::SEGMENT_SCALE_COMPENSATE != 0 && record.parent >= 0
}

/// The frames a clip's glTF form spans: its length, twice that when it
/// mirrors (forward and back).
fn period(clip: &ClipRecord) -> f32 {
    match FrameLoop::from_u32(clip.loop_mode) {
        FrameLoop::MirroredOnce | FrameLoop::MirroredRepeat => 2.0 * clip.frames,
        _ => clip.frames,
    }
}

/// What [`write_j3d_clips`] wrote.
#[derive(Default)]
pub struct J3dClips {
    /// glTF animations written.
    pub animations: usize,
    /// Pointer channels by glTF animation index, for [`super::j3d_materials::splice`].
    pub pointers: Vec<(usize, Vec<Value>)>,
    /// Tracks kept as data only.
    pub kept: Vec<Kept>,
    /// What the kept tracks animate.
    pub unplayed: Unplayed,
}

/// Writes every J3D clip with a joint track as a glTF animation, lengths
/// multiplied by `scale`, keyed tracks sampled at `fps`; how many were
/// written.
pub fn write_j3d_clips(
    w: &mut Writer,
    scene: &Scene<'_>,
    nodes: &NodeMap,
    materials: &Materials,
    scale: f32,
    fps: f32,
    material_clips: super::MaterialClips,
) -> Result<J3dClips, ExportError> {
    let mut poses = std::vec![NodePose::default(); scene.nodes().len()];
    let mut written = J3dClips::default();
    for clip in scene.clips() {
        let animation = clip.animation as usize;
        let rate = if clip.frame_rate > 0.0 {
            clip.frame_rate
        } else {
            30.0
        };
        let mut tracks: Vec<JointTrack> = Vec::new();
        let mut key_frames: Vec<f32> = Vec::new();
        for track in scene.clip_tracks(clip) {
            let curves = scene
                .curves()
                .get(track.first_curve as usize..)
                .unwrap_or_default();
            let curves = curves.get(..track.curve_count as usize).unwrap_or(curves);
            let table = curves.iter().all(|c| c.kind != CurveKind::Hermite as u32);
            for c in curves
                .iter()
                .filter(|c| c.kind == CurveKind::Hermite as u32)
            {
                let keys = scene
                    .hermite_keys()
                    .get(c.first as usize..)
                    .unwrap_or_default();
                let keys = keys.get(..c.count as usize).unwrap_or(keys);
                key_frames.extend(keys.iter().map(|k| k.time));
            }
            if track.target != TrackTarget::Joint as u32
                || scene.nodes().get(track.index as usize).is_none()
            {
                continue;
            }
            tracks.push(JointTrack {
                node: track.index as usize,
                table,
                translation: Vec::new(),
                rotation: Vec::new(),
                scale: Vec::new(),
                inverse_parent_scale: Vec::new(),
            });
        }
        if clip.track_count == 0 {
            continue;
        }
        let frames = period(clip);
        let end = frames / rate;
        let mut out = json::Animation {
            extensions: None,
            extras: loop_extras(FrameLoop::from_u32(clip.loop_mode)),
            channels: Vec::new(),
            name: super::name(
                scene.text(
                    scene
                        .animations()
                        .get(animation)
                        .map(|a| a.name)
                        .unwrap_or_default(),
                ),
            ),
            samplers: Vec::new(),
        };
        // Keyed tracks: one grid of seconds, sampled at grid · rate frames.
        // A mirrored clip meets each key again on its way back.
        if frames > clip.frames {
            let back: Vec<f32> = key_frames.iter().map(|f| frames - f).collect();
            key_frames.extend(back);
        }
        let keys: Vec<f32> = key_frames.iter().map(|f| f / rate).collect();
        let grid = merge_times(frame_times(end, fps), &keys, end);
        // Table tracks: each whole frame, then the end.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let whole =
            libm::ceilf(frames).clamp(0.0, super::animations::MAX_FRAMES_PER_CLIP as f32) as usize;
        let mut steps: Vec<f32> = (0..whole).map(|k| k as f32).collect();
        if steps.last().is_none_or(|&last| last < frames) {
            steps.push(frames);
        }
        for (table, frames_at) in [
            (false, grid.iter().map(|t| t * rate).collect::<Vec<f32>>()),
            (true, steps.clone()),
        ] {
            let mut group: Vec<&mut JointTrack> =
                tracks.iter_mut().filter(|t| t.table == table).collect();
            if group.is_empty() {
                continue;
            }
            for &f in &frames_at {
                scene
                    .sample_frame(animation, f, &mut poses)
                    .map_err(|e| ExportError::Scene(e.to_string()))?;
                for track in group.iter_mut() {
                    track.record(scene, nodes, &poses, scale);
                }
            }
            let (times, interpolation) = if table {
                let seconds: Vec<f32> = steps.iter().map(|f| f / rate).collect();
                (seconds, Interpolation::Step)
            } else {
                (grid.clone(), Interpolation::Linear)
            };
            let input = w.floats(
                &times.iter().map(|&t| [t]).collect::<Vec<_>>(),
                Layout::SCALAR_F32,
                None,
                true,
            )?;
            for track in group {
                let record = scene.nodes().get(track.node).copied().unwrap_or_default();
                let Some(&main) = nodes.main.get(track.node) else {
                    continue;
                };
                let head = nodes.head.get(track.node).copied().unwrap_or(main);
                let (t_node, s_node) = (head, main);
                let t = w.floats(&track.translation, Layout::VEC3_F32, None, false)?;
                push(
                    &mut out,
                    input,
                    t,
                    interpolation,
                    t_node,
                    Property::Translation,
                )?;
                let r = w.floats(&track.rotation, Layout::VEC4_F32, None, false)?;
                push(&mut out, input, r, interpolation, main, Property::Rotation)?;
                let s = w.floats(&track.scale, Layout::VEC3_F32, None, false)?;
                push(&mut out, input, s, interpolation, s_node, Property::Scale)?;
                if compensated(&record) && head != main {
                    let inverse =
                        w.floats(&track.inverse_parent_scale, Layout::VEC3_F32, None, false)?;
                    push(
                        &mut out,
                        input,
                        inverse,
                        interpolation,
                        head,
                        Property::Scale,
                    )?;
                }
            }
        }
        let grid_frames: Vec<f32> = grid.iter().map(|t| t * rate).collect();
        let mut more = super::j3d_materials::write_tracks(
            w,
            scene,
            materials,
            clip,
            &Frames {
                grid: &grid_frames,
                steps: &steps,
                rate,
                pointers: material_clips == super::MaterialClips::Pointer,
            },
            &mut out,
        )?;
        written.kept.append(&mut more.kept);
        let u = more.unplayed;
        written.unplayed.texture_swaps += u.texture_swaps;
        written.unplayed.visibility += u.visibility;
        written.unplayed.colours += u.colours;
        written.unplayed.texture_matrices += u.texture_matrices;
        written.unplayed.as_data += u.as_data;
        if out.channels.is_empty() && more.pointers.is_empty() {
            continue;
        }
        let index = w.root.push(out);
        if !more.pointers.is_empty() {
            written.pointers.push((index.value(), more.pointers));
        }
        written.animations += 1;
    }
    Ok(written)
}

/// `{"loop": …}`: the game's loop mode, which glTF cannot say.
fn loop_extras(mode: FrameLoop) -> json::Extras {
    let mut fields = Map::new();
    fields.insert(String::from("loop"), Value::from(mode.as_str()));
    extras::object(fields)
}
