//! ANK1 (`.bck`): keyed joint transforms.
//!
//! Chunk: loop mode u8 @0x08, rotation fraction u8 @0x09, duration u16
//! @0x0A, joint entries u16 @0x0C, scale / rotation / translation value
//! counts u16 @0x0E/0x10/0x12, and u32 offsets of the joint table @0x14, the
//! f32 scale table @0x18, the s16 rotation table @0x1C and the f32
//! translation table @0x20. A joint entry (0x36 bytes) holds, for X, Y and
//! Z in turn, a scale, a rotation and a translation track header.
//!
//! Rotations are s16 · 2^fraction / 0x7FFF half-turns: the fraction lets a
//! track turn more than ±π. They are interpolated as Euler angles, component
//! by component, as the game does (no slerp).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times 0x36 (below 2^40, no overflow with a 64-bit usize), each checked by the chunk reader before any byte is read"
)]

use super::common::{
    Clip, JointPose, KeyBudget, KeyTrack, Srt, SrtTables, Table, Values, check_tracks, clip,
    rotation_fraction, rotation_scale,
};
use crate::error::Error;
use crate::j3d::read::SectionReader;
use crate::limits::J3dLimits;

/// Bytes of one joint entry: 3 axes × (scale, rotation, translation) × 6.
const ENTRY: usize = 0x36;

/// A checked ANK1 chunk.
#[derive(Clone, Copy, Debug)]
pub struct Ank1<'a> {
    reader: SectionReader<'a>,
    clip: Clip,
    rotation_fraction: u8,
    joints: usize,
    entries: usize,
    tables: SrtTables<'a>,
}

/// One joint's nine tracks, X/Y/Z per component.
pub type JointTracks = Srt<KeyTrack>;

impl<'a> Ank1<'a> {
    #[inline(never)] // its own frame under `parse_chunk`, a thin dispatch
    pub(crate) fn parse(reader: SectionReader<'a>, limits: &J3dLimits) -> Result<Self, Error> {
        let r = &reader;
        let clip = clip(r, 0x0A, limits)?;
        let rotation_fraction = rotation_fraction(r)?;
        let joints = usize::from(r.u16(0x0C)?);
        check_tracks(r, 0x0C, joints, 9, limits)?;
        let angle = Values::S16(rotation_scale(rotation_fraction));
        let tables = SrtTables::read(r, 0x18, angle)?;
        let entries = if joints == 0 { 0 } else { r.offset(0x14)? };
        r.table(entries, joints, ENTRY)?;
        let anim = Self {
            reader,
            clip,
            rotation_fraction,
            joints,
            entries,
            tables,
        };
        let mut budget = KeyBudget::new(limits);
        for j in 0..joints {
            let t = anim.read_tracks(j)?;
            let n = t.iter().map(|k| usize::from(k.count)).sum();
            budget.take(r, entries + j * ENTRY, n)?;
        }
        Ok(anim)
    }

    fn read_tracks(&self, joint: usize) -> Result<JointTracks, Error> {
        let at = self.entries + joint * ENTRY;
        // Axis-major in the file: X (S, R, T), Y (S, R, T), Z (S, R, T).
        Srt::axis_major(|axis, component| {
            let table = self.tables.component(component);
            KeyTrack::read(&self.reader, at + (axis * 3 + component) * 6, table)
        })
    }

    /// Loop mode and duration.
    pub fn clip(&self) -> Clip {
        self.clip
    }

    /// The rotation fraction (byte 0x09): rotations are s16 · 2^this / 0x7FFF half-turns.
    pub fn rotation_fraction(&self) -> u8 {
        self.rotation_fraction
    }

    /// The scale, rotation (half-turns) and translation value tables the
    /// tracks of [`Self::tracks`] index.
    pub fn tables(&self) -> [Table<'a>; 3] {
        self.tables.all()
    }

    /// Joint entries; must equal the model's joint count.
    pub fn joints(&self) -> usize {
        self.joints
    }

    /// Joint `joint`'s tracks (checked at parse), `None` past the last joint.
    pub fn tracks(&self, joint: usize) -> Option<JointTracks> {
        if joint >= self.joints {
            return None;
        }
        self.read_tracks(joint).ok()
    }

    /// Joint `joint`'s scale, Euler rotation (radians, X then Y then Z) and
    /// translation at `frame` (used as given: apply [`Clip::frame_at`] first
    /// for a playing clip). `None` past the last joint.
    pub fn joint_pose(&self, joint: usize, frame: f32) -> Option<JointPose> {
        let t = self.tracks(joint)?;
        let pi = core::f32::consts::PI;
        Some(JointPose {
            scale: t.scale.map(|k| k.sample(&self.tables.scale, frame, 1.0)),
            rotation: t
                .rotation
                .map(|k| k.sample(&self.tables.rotation, frame, 0.0) * pi),
            translation: t
                .translation
                .map(|k| k.sample(&self.tables.translation, frame, 0.0)),
        })
    }
}
