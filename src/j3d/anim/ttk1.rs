//! TTK1 (`.btk`): keyed texture-matrix scale, rotation and translation.
//!
//! Chunk: loop mode u8 @0x08, rotation fraction u8 @0x09, duration u16
//! @0x0A, track-group count u16 @0x0C (three per entry: S, T, Q), scale /
//! rotation / translation value counts u16 @0x0E/0x10/0x12, then u32
//! offsets: entry table @0x14, remap table @0x18 (not read: entries are in
//! order), material name table @0x1C, texture-matrix slot table (u8 per
//! entry) @0x20, centre table (3 × f32 per entry) @0x24, f32 scale, s16
//! rotation and f32 translation tables @0x28/0x2C/0x30; the u32 @0x5C is 1
//! for a Maya texture matrix. An entry (0x36 bytes) holds, for S, T and Q in
//! turn, a scale, a rotation and a translation track header.
//!
//! Rotations are s16 · 2^fraction / 0x7FFF half-turns. The header's chunk
//! size is 4 more than the chunk in some files; nothing read depends on it.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times 0x36 (below 2^40, no overflow with a 64-bit usize), each checked by the chunk reader before any byte is read"
)]

use super::common::{
    Clip, KeyBudget, KeyTrack, Srt, SrtTables, Table, Values, check_tracks, clip, names,
    rotation_fraction, rotation_scale,
};
use crate::error::{Error, ErrorCode};
use crate::j3d::read::{NameTable, SectionReader};
use crate::limits::J3dLimits;

/// Bytes of one entry: 3 axes × (scale, rotation, translation) × 6.
const ENTRY: usize = 0x36;

/// A checked TTK1 chunk.
#[derive(Clone, Copy, Debug)]
pub struct Ttk1<'a> {
    reader: SectionReader<'a>,
    clip: Clip,
    rotation_fraction: u8,
    maya: bool,
    count: usize,
    entries: usize,
    slots: usize,
    centres: usize,
    names: NameTable<'a>,
    tables: SrtTables<'a>,
}

/// One animated texture matrix: which material and slot, its centre, and
/// its nine tracks (S, T, Q per component).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TexMtxEntry<'a> {
    /// The material's name (MAT3 names it the same way).
    pub material: &'a [u8],
    /// The material's texture-matrix slot.
    pub slot: u8,
    /// Rotation and scale centre S, T, Q.
    pub centre: [f32; 3],
    /// Scale S, T, Q.
    pub scale: [KeyTrack; 3],
    /// Rotation S, T, Q (half-turns; the matrix uses Q only).
    pub rotation: [KeyTrack; 3],
    /// Translation S, T, Q.
    pub translation: [KeyTrack; 3],
}

/// One texture matrix's sampled SRT: every track at one frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TexSrt {
    /// Scale S, T, Q.
    pub scale: [f32; 3],
    /// Rotation S, T, Q in half-turns.
    pub rotation: [f32; 3],
    /// Translation S, T, Q.
    pub translation: [f32; 3],
}

impl<'a> Ttk1<'a> {
    #[inline(never)] // its own frame under `parse_chunk`, a thin dispatch
    pub(crate) fn parse(reader: SectionReader<'a>, limits: &J3dLimits) -> Result<Self, Error> {
        let r = &reader;
        let clip = clip(r, 0x0A, limits)?;
        let rotation_fraction = rotation_fraction(r)?;
        let groups = usize::from(r.u16(0x0C)?);
        if groups % 3 != 0 {
            return Err(r.error(
                ErrorCode::BadValue,
                0x0C,
                format_args!("{groups} track groups: a multiple of 3 (S, T, Q) expected"),
            ));
        }
        let count = groups / 3;
        check_tracks(r, 0x0C, count, 9, limits)?;
        let maya = r.u32(0x5C)? == 1;
        let angle = Values::S16(rotation_scale(rotation_fraction));
        let tables = SrtTables::read(r, 0x28, angle)?;
        let (entries, slots, centres) = if count == 0 {
            (0, 0, 0)
        } else {
            (r.offset(0x14)?, r.offset(0x20)?, r.offset(0x24)?)
        };
        r.table(entries, count, ENTRY)?;
        r.table(slots, count, 1)?;
        r.table(centres, count, 12)?;
        let names = names(reader, 0x1C, count)?;
        let anim = Self {
            reader,
            clip,
            rotation_fraction,
            maya,
            count,
            entries,
            slots,
            centres,
            names,
            tables,
        };
        let mut budget = KeyBudget::new(limits);
        for i in 0..count {
            let e = anim.read_entry(i)?;
            let keys = e.scale.iter().chain(&e.rotation).chain(&e.translation);
            let n = keys.map(|k| usize::from(k.count)).sum();
            budget.take(r, entries + i * ENTRY, n)?;
        }
        Ok(anim)
    }

    fn read_entry(&self, i: usize) -> Result<TexMtxEntry<'a>, Error> {
        let r = &self.reader;
        let at = self.entries + i * ENTRY;
        let tracks = Srt::axis_major(|axis, component| {
            let table = self.tables.component(component);
            KeyTrack::read(r, at + (axis * 3 + component) * 6, table)
        })?;
        let c = self.centres + i * 12;
        Ok(TexMtxEntry {
            material: self.names.get(i)?.0,
            slot: r.u8(self.slots + i)?,
            centre: [r.f32(c)?, r.f32(c + 4)?, r.f32(c + 8)?],
            scale: tracks.scale,
            rotation: tracks.rotation,
            translation: tracks.translation,
        })
    }

    /// Loop mode and duration.
    pub fn clip(&self) -> Clip {
        self.clip
    }

    /// The rotation fraction (byte 0x09).
    pub fn rotation_fraction(&self) -> u8 {
        self.rotation_fraction
    }

    /// The scale, rotation (half-turns) and translation value tables the
    /// tracks of [`Self::entry`] index.
    pub fn tables(&self) -> [Table<'a>; 3] {
        self.tables.all()
    }

    /// True when the u32 at 0x5C is 1: the matrix is built Maya's way.
    pub fn is_maya(&self) -> bool {
        self.maya
    }

    /// Animated texture matrices.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when nothing is animated.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Entry `i` (checked at parse), `None` past the last.
    pub fn entry(&self, i: usize) -> Option<TexMtxEntry<'a>> {
        if i >= self.count {
            return None;
        }
        self.read_entry(i).ok()
    }

    /// The material entry `i` animates (checked at parse), `None` past the
    /// last: its name alone, without reading the entry's tracks.
    pub fn material(&self, i: usize) -> Option<&'a [u8]> {
        if i >= self.count {
            return None;
        }
        Some(self.names.get(i).ok()?.0)
    }

    /// Every track of entry `i` at `frame` (Hermite between keys).
    pub fn srt(&self, i: usize, frame: f32) -> Option<TexSrt> {
        let e = self.entry(i)?;
        Some(TexSrt {
            scale: e.scale.map(|k| k.sample(&self.tables.scale, frame, 1.0)),
            rotation: e
                .rotation
                .map(|k| k.sample(&self.tables.rotation, frame, 0.0)),
            translation: e
                .translation
                .map(|k| k.sample(&self.tables.translation, frame, 0.0)),
        })
    }

    /// Entry `i`'s texture matrix at `frame`, column-major 4×4 (translation
    /// in 12, 13): scale S/T, rotation Q (half-turns, times π) and
    /// translation S/T about the entry's centre, or Maya's layout when
    /// [`Self::is_maya`].
    pub fn texture_matrix(&self, i: usize, frame: f32) -> Option<[f32; 16]> {
        let e = self.entry(i)?;
        let s = self.srt(i, frame)?;
        let [ss, st, _] = s.scale;
        let [ts, tt, _] = s.translation;
        let [_, _, q] = s.rotation;
        let [cs, ct, _] = e.centre;
        Some(tex_matrix(self.maya, [ss, st], q, [ts, tt], [cs, ct]))
    }
}

/// The 2D texture SRT as a 4×4 column-major matrix, the rotation in
/// half-turns: [`crate::scene::texture_matrix`] (the scene's sampler builds
/// it the same way).
pub fn tex_matrix(
    maya: bool,
    scale: [f32; 2],
    half_turns: f32,
    translation: [f32; 2],
    centre: [f32; 2],
) -> [f32; 16] {
    crate::scene::texture_matrix(
        maya,
        scale,
        half_turns * core::f32::consts::PI,
        translation,
        centre,
    )
}
