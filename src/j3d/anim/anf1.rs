//! ANF1 (`.bca`): joint transforms stored as one value per frame.
//!
//! Chunk: loop mode u8 @0x08, duration u16 @0x0A, joint entries u16 @0x0C,
//! scale / rotation / translation value counts u16 @0x0E/0x10/0x12, u32
//! offsets of the joint table @0x14 and of the f32 scale, s16 rotation and
//! f32 translation tables @0x18/0x1C/0x20. A joint entry (0x24 bytes) holds,
//! for X, Y and Z in turn, `(count, index)` of a scale, a rotation and a
//! translation track. Rotations are s16 · π / 0x7FFF radians: unlike ANK1
//! there is no fraction byte.
//!
//! Some shipped files end before the size their header declares (the
//! trailing padding was stripped); they are read with a warning as long as
//! every table lies in the bytes present.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times 0x24 (below 2^40, no overflow with a 64-bit usize), each checked by the chunk reader before any byte is read"
)]

use super::common::{
    Clip, FrameTrack, JointPose, KeyBudget, Srt, SrtTables, Table, Values, check_tracks, clip,
};
use crate::error::Error;
use crate::j3d::read::SectionReader;
use crate::limits::J3dLimits;

/// Bytes of one joint entry: 3 axes × (scale, rotation, translation) × 4.
const ENTRY: usize = 0x24;

/// A checked ANF1 chunk.
#[derive(Clone, Copy, Debug)]
pub struct Anf1<'a> {
    reader: SectionReader<'a>,
    clip: Clip,
    joints: usize,
    entries: usize,
    tables: SrtTables<'a>,
}

/// One joint's nine per-frame tracks, X/Y/Z per component.
pub type JointFrames = Srt<FrameTrack>;

impl<'a> Anf1<'a> {
    #[inline(never)] // its own frame under `parse_chunk`, a thin dispatch
    pub(crate) fn parse(reader: SectionReader<'a>, limits: &J3dLimits) -> Result<Self, Error> {
        let r = &reader;
        let clip = clip(r, 0x0A, limits)?;
        let joints = usize::from(r.u16(0x0C)?);
        check_tracks(r, 0x0C, joints, 9, limits)?;
        let angle = Values::S16(core::f32::consts::PI / 32767.0);
        let tables = SrtTables::read(r, 0x18, angle)?;
        let entries = if joints == 0 { 0 } else { r.offset(0x14)? };
        r.table(entries, joints, ENTRY)?;
        let anim = Self {
            reader,
            clip,
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

    fn read_tracks(&self, joint: usize) -> Result<JointFrames, Error> {
        let at = self.entries + joint * ENTRY;
        Srt::axis_major(|axis, component| {
            let len = self.tables.component(component).len();
            FrameTrack::read(&self.reader, at + (axis * 3 + component) * 4, len)
        })
    }

    /// Loop mode and duration.
    pub fn clip(&self) -> Clip {
        self.clip
    }

    /// The scale, rotation (radians) and translation value tables the
    /// tracks of [`Self::tracks`] index.
    pub fn tables(&self) -> [Table<'a>; 3] {
        self.tables.all()
    }

    /// Joint entries; must equal the model's joint count.
    pub fn joints(&self) -> usize {
        self.joints
    }

    /// Joint `joint`'s tracks (checked at parse), `None` past the last joint.
    pub fn tracks(&self, joint: usize) -> Option<JointFrames> {
        if joint >= self.joints {
            return None;
        }
        self.read_tracks(joint).ok()
    }

    /// Joint `joint`'s transform at `frame`: each table read at
    /// `floor(frame)`, holding its last value from its end on (the game's
    /// rule; noclip gives nothing there). No interpolation between frames.
    pub fn joint_pose(&self, joint: usize, frame: f32) -> Option<JointPose> {
        let t = self.tracks(joint)?;
        let at = |k: FrameTrack, table: &Table<'_>, rest: f32| {
            k.entry(frame).map_or(rest, |i| table.value(i))
        };
        Some(JointPose {
            scale: t.scale.map(|k| at(k, &self.tables.scale, 1.0)),
            rotation: t.rotation.map(|k| at(k, &self.tables.rotation, 0.0)),
            translation: t.translation.map(|k| at(k, &self.tables.translation, 0.0)),
        })
    }
}
