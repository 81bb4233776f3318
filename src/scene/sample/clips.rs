//! J3D clips sampled as the game plays them (docs/j3d.md, "Animations"):
//! Hermite curves per component at the fractional frame (rotations as
//! Euler angles, not slerped), tables at `floor(frame)`, visibility at the
//! nearest frame, time by the clip's [`FrameLoop`]. Joint tracks replace
//! the joint's rest transform; the world matrices then follow the model's
//! scaling rule through [`super::world_matrices`] (Maya's segment-scale
//! compensation is the node flag `Mat4::local_under` reads). No allocation:
//! materials are sampled one at a time into a fixed [`MaterialSample`].
#![allow(
    clippy::arithmetic_side_effects,
    reason = "curve and key positions are u32 record fields widened to usize and bounded by slice lookups; float arithmetic only otherwise"
)]

use super::super::{
    ClipRecord, ColorSlot, CurveKind, CurveRecord, FrameLoop, HermiteKey, Scene, TrackRecord,
    TrackTarget,
};
use super::NodePose;
use crate::error::{Error, ErrorCode};

/// Texture-matrix slots a material has (GX: TEXMTX0..9).
pub const TEX_MATRIX_SLOTS: usize = 10;
/// Texture-map slots a material has (GX: TEXMAP0..7).
pub const TEXTURE_SLOTS: usize = 8;

/// One texture matrix at one frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TexMatrixSample {
    /// Scale S, T.
    pub scale: [f32; 2],
    /// Rotation (the Q track), radians.
    pub rotation: f32,
    /// Translation S, T.
    pub translation: [f32; 2],
    /// The matrix, column-major 4×4 (translation in 12, 13).
    pub matrix: [f32; 16],
}

/// What a clip sets on one material at one frame; `None` where it animates nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MaterialSample {
    /// Texture matrices by slot.
    pub texture_matrices: [Option<TexMatrixSample>; TEX_MATRIX_SLOTS],
    /// Colours by [`ColorSlot`]: R, G, B, A as the file's s16 / 255, unclamped.
    pub colors: [Option<[f32; 4]>; ColorSlot::COUNT],
    /// TEX1 texture index by texture-map slot.
    pub textures: [Option<u16>; TEXTURE_SLOTS],
}

impl MaterialSample {
    /// True when the clip animates nothing of the material.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// The 2D texture SRT as a column-major 4×4 matrix, as J3D builds it.
/// Basic: scale and turn about `centre`, then translate. Maya (TTK1's
/// flag): turn about (0.5, 0.5) with the translation inside the scale and
/// T flipped, as Maya's UV space is.
pub fn texture_matrix(
    maya: bool,
    scale: [f32; 2],
    radians: f32,
    translation: [f32; 2],
    centre: [f32; 2],
) -> [f32; 16] {
    let (sin, cos) = (libm::sinf(radians), libm::cosf(radians));
    let [ss, st] = scale;
    let [ts, tt] = translation;
    let [cs, ct] = centre;
    let (m0, m1, m4, m5, m12, m13);
    if maya {
        m0 = ss * cos;
        m4 = ss * sin;
        m12 = ss * ((-0.5 * cos) - (0.5 * sin - 0.5) - ts);
        m1 = st * -sin;
        m5 = st * cos;
        m13 = st * ((-0.5 * cos) + (0.5 * sin - 0.5) + tt) + 1.0;
    } else {
        m0 = ss * cos;
        m4 = ss * -sin;
        m12 = ts + cs - (m0 * cs + m4 * ct);
        m1 = st * sin;
        m5 = st * cos;
        m13 = tt + ct - (m1 * cs + m5 * ct);
    }
    [
        m0, m1, 0.0, 0.0, m4, m5, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, m12, m13, 0.0, 1.0,
    ]
}

/// A Hermite curve's value at `frame` (see [`CurveKind::Hermite`]).
pub(super) fn hermite_at(keys: &[HermiteKey], frame: f32) -> Option<f32> {
    let first = keys.first()?;
    let last = keys.last()?;
    if frame.is_nan() || frame < first.time {
        return Some(first.value);
    }
    if frame >= last.time {
        return Some(last.value);
    }
    // The first key later than `frame`; there is one, and one before it.
    let hi = keys.partition_point(|k| k.time <= frame);
    let (k0, k1) = (keys.get(hi.checked_sub(1)?)?, keys.get(hi)?);
    let length = k1.time - k0.time;
    if length <= 0.0 {
        return Some(k1.value);
    }
    let t = (frame - k0.time) / length;
    let (t2, t3) = (t * t, t * t * t);
    let m0 = k0.tangent_out * length;
    let m1 = k1.tangent_in * length;
    Some(
        k0.value * (2.0 * t3 - 3.0 * t2 + 1.0)
            + m0 * (t3 - 2.0 * t2 + t)
            + k1.value * (-2.0 * t3 + 3.0 * t2)
            + m1 * (t3 - t2),
    )
}

/// A table's entry at `frame`: `floor(frame)`, 0 before the start, the last
/// from the end on.
pub(super) fn table_at(values: &[f32], frame: f32) -> Option<f32> {
    let last = values.len().checked_sub(1)?;
    let i = if frame.is_nan() || frame <= 0.0 {
        0
    } else {
        // Saturating float-to-int conversion; a huge frame is past the end.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let i = libm::floorf(frame) as usize;
        i.min(last)
    };
    values.get(i).copied()
}

impl<'a> Scene<'a> {
    /// The J3D record of clip `clip` (an index into `animations()`), or
    /// `None` for a clip that did not come from a J3D animation file.
    pub fn clip_record(&self, clip: usize) -> Option<&'a ClipRecord> {
        self.clips()
            .iter()
            .find(|c| usize::try_from(c.animation).ok() == Some(clip))
    }

    /// The tracks of J3D clip `record`, in the scene's order.
    pub fn clip_tracks(
        &self,
        record: &ClipRecord,
    ) -> impl Iterator<Item = &'a TrackRecord> + use<'a> {
        let tracks = self.tracks();
        let first = (record.first_track as usize).min(tracks.len());
        tracks
            .get(first..)
            .unwrap_or_default()
            .iter()
            .take(record.track_count as usize)
    }

    fn curve(&self, track: &TrackRecord, i: usize) -> Option<&'a CurveRecord> {
        if i >= track.curve_count as usize {
            return None;
        }
        self.curves()
            .get((track.first_curve as usize).checked_add(i)?)
    }

    /// Curve `i` of `track` at `frame`; `None` past its curves.
    fn curve_at(&self, track: &TrackRecord, i: usize, frame: f32) -> Option<f32> {
        let curve = self.curve(track, i)?;
        if curve.count == 0 {
            return Some(curve.rest);
        }
        let range =
            curve.first as usize..(curve.first as usize).saturating_add(curve.count as usize);
        match curve.kind {
            k if k == CurveKind::Hermite as u32 => {
                hermite_at(self.hermite_keys().get(range)?, frame)
            }
            k if k == CurveKind::Table as u32 => table_at(self.curve_values().get(range)?, frame),
            k if k == CurveKind::Nearest as u32 => {
                table_at(self.curve_values().get(range)?, frame + 0.5)
            }
            _ => None,
        }
    }

    fn curves3(&self, track: &TrackRecord, from: usize, frame: f32) -> Option<[f32; 3]> {
        Some([
            self.curve_at(track, from, frame)?,
            self.curve_at(track, from + 1, frame)?,
            self.curve_at(track, from + 2, frame)?,
        ])
    }

    /// The J3D clip `clip` and the frame it shows `frames` frames after it
    /// started, by its loop mode. Errors: `BAD_OFFSET` for a clip that is
    /// not a J3D clip, `BAD_VALUE` for a negative or non-finite `frames`.
    pub fn clip_frame(&self, clip: usize, frames: f32) -> Result<(&'a ClipRecord, f32), Error> {
        let Some(record) = self.clip_record(clip) else {
            return Err(Error::nowhere(
                ErrorCode::BadOffset,
                format_args!("animation {clip}: expected a clip from a J3D animation file"),
            ));
        };
        if !(frames.is_finite() && frames >= 0.0) {
            return Err(Error::nowhere(
                ErrorCode::BadValue,
                format_args!("frame {frames}: expected a finite number of frames ≥ 0"),
            ));
        }
        let frame = FrameLoop::from_u32(record.loop_mode).apply(frames, record.frames);
        Ok((record, frame))
    }

    /// Writes the pose of J3D clip `clip`, `frames` frames after it started
    /// (its loop mode applied), into `out`, one entry per node: nodes the
    /// clip animates take its scale, rotation and translation, the others
    /// stay at rest. Errors as [`Self::clip_frame`], and `ARENA_TOO_SMALL`
    /// when `out` is shorter than `nodes()`.
    pub fn sample_frame(
        &self,
        clip: usize,
        frames: f32,
        out: &mut [NodePose],
    ) -> Result<(), Error> {
        let (record, frame) = self.clip_frame(clip, frames)?;
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
        self.rest_pose(out);
        self.pose_at(record, frame, out);
        Ok(())
    }

    /// Applies `record`'s joint tracks at `frame` (loop already applied).
    pub(super) fn pose_at(&self, record: &ClipRecord, frame: f32, out: &mut [NodePose]) {
        for track in self.clip_tracks(record) {
            if track.target != TrackTarget::Joint as u32 {
                continue;
            }
            let Some(pose) = out.get_mut(track.index as usize) else {
                continue;
            };
            if let (Some(s), Some(r), Some(t)) = (
                self.curves3(track, 0, frame),
                self.curves3(track, 3, frame),
                self.curves3(track, 6, frame),
            ) {
                pose.scale = s;
                pose.rotation = r;
                pose.translation = t;
            }
        }
    }

    /// What J3D clip `clip` sets on material `material`, `frames` frames
    /// after it started (its loop mode applied). Errors as [`Self::clip_frame`].
    pub fn sample_material(
        &self,
        clip: usize,
        frames: f32,
        material: usize,
    ) -> Result<MaterialSample, Error> {
        let (record, frame) = self.clip_frame(clip, frames)?;
        let mut out = MaterialSample::default();
        for track in self.clip_tracks(record) {
            if track.index as usize != material {
                continue;
            }
            let slot = track.slot as usize;
            match TrackTarget::from_u32(track.target) {
                Some(TrackTarget::TexMatrix) => {
                    let (Some(s), Some(r), Some(t)) = (
                        self.curves3(track, 0, frame),
                        self.curves3(track, 3, frame),
                        self.curves3(track, 6, frame),
                    ) else {
                        continue;
                    };
                    let [cs, ct, _] = track.centre;
                    let maya = track.flags & TrackRecord::MAYA != 0;
                    let sample = TexMatrixSample {
                        scale: [s[0], s[1]],
                        rotation: r[2],
                        translation: [t[0], t[1]],
                        matrix: texture_matrix(maya, [s[0], s[1]], r[2], [t[0], t[1]], [cs, ct]),
                    };
                    if let Some(at) = out.texture_matrices.get_mut(slot) {
                        *at = Some(sample);
                    }
                }
                Some(TrackTarget::Color) => {
                    let rgba = (|| {
                        Some([
                            self.curve_at(track, 0, frame)?,
                            self.curve_at(track, 1, frame)?,
                            self.curve_at(track, 2, frame)?,
                            self.curve_at(track, 3, frame)?,
                        ])
                    })();
                    if let (Some(at), Some(rgba)) = (out.colors.get_mut(slot), rgba) {
                        *at = Some(rgba);
                    }
                }
                Some(TrackTarget::TextureIndex) => {
                    let index = self.curve_at(track, 0, frame);
                    if let (Some(at), Some(index)) = (out.textures.get_mut(slot), index) {
                        // Table values are u16 texture indices, exact in f32.
                        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                        let index = index as u16;
                        *at = Some(index);
                    }
                }
                _ => {}
            }
        }
        Ok(out)
    }

    /// Whether J3D clip `clip` shows mesh (shape) `mesh`, `frames` frames
    /// after it started: `Some(drawn)` where the clip has a visibility track
    /// for it, `None` where it leaves the mesh as it is. Errors as
    /// [`Self::clip_frame`].
    pub fn sample_visibility(
        &self,
        clip: usize,
        frames: f32,
        mesh: usize,
    ) -> Result<Option<bool>, Error> {
        let (record, frame) = self.clip_frame(clip, frames)?;
        Ok(self
            .clip_tracks(record)
            .filter(|t| t.target == TrackTarget::Visibility as u32 && t.index as usize == mesh)
            .find_map(|t| self.curve_at(t, 0, frame))
            .map(|v| v != 0.0))
    }
}

#[cfg(test)]
#[path = "clips_tests.rs"]
mod tests;
