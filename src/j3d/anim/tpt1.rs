//! TPT1 (`.btp`): which texture a material's texture-map slot shows, per frame.
//!
//! Chunk: loop mode u8 @0x08, duration u16 @0x0A, entry count u16 @0x0C,
//! texture-index count u16 @0x0E, u32 offsets of the entry table @0x10, the
//! u16 texture-index table @0x14, a remap table @0x18 (not read) and the
//! material name table @0x1C. An entry (8 bytes): frames u16, first index
//! u16, texture-map slot u8, padding.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times 8 (below 2^40, no overflow with a 64-bit usize), each checked by the chunk reader before any byte is read"
)]

use super::common::{Clip, FrameTrack, KeyBudget, check_tracks, clip, names};
use crate::error::Error;
use crate::j3d::read::{NameTable, SectionReader};
use crate::limits::J3dLimits;

const ENTRY: usize = 8;

/// A checked TPT1 chunk.
#[derive(Clone, Copy, Debug)]
pub struct Tpt1<'a> {
    reader: SectionReader<'a>,
    clip: Clip,
    count: usize,
    entries: usize,
    indices: &'a [u8],
    names: NameTable<'a>,
}

/// One animated texture slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureEntry<'a> {
    /// The material's name.
    pub material: &'a [u8],
    /// The material's texture-map slot.
    pub slot: u8,
    /// Its texture indices, one per frame.
    pub frames: FrameTrack,
}

impl<'a> Tpt1<'a> {
    #[inline(never)] // its own frame under `parse_chunk`, a thin dispatch
    pub(crate) fn parse(reader: SectionReader<'a>, limits: &J3dLimits) -> Result<Self, Error> {
        let r = &reader;
        let clip = clip(r, 0x0A, limits)?;
        let count = usize::from(r.u16(0x0C)?);
        check_tracks(r, 0x0C, count, 1, limits)?;
        let index_count = usize::from(r.u16(0x0E)?);
        let indices = if index_count == 0 {
            &[]
        } else {
            r.table(r.offset(0x14)?, index_count, 2)?
        };
        let entries = if count == 0 { 0 } else { r.offset(0x10)? };
        r.table(entries, count, ENTRY)?;
        let anim = Self {
            reader,
            clip,
            count,
            entries,
            indices,
            names: names(reader, 0x1C, count)?,
        };
        let mut budget = KeyBudget::new(limits);
        for i in 0..count {
            let e = anim.read_entry(i)?;
            budget.take(r, entries + i * ENTRY, usize::from(e.frames.count))?;
        }
        Ok(anim)
    }

    fn read_entry(&self, i: usize) -> Result<TextureEntry<'a>, Error> {
        let at = self.entries + i * ENTRY;
        Ok(TextureEntry {
            material: self.names.get(i)?.0,
            slot: self.reader.u8(at + 4)?,
            frames: FrameTrack::read(&self.reader, at, self.indices.len() / 2)?,
        })
    }

    /// Loop mode and duration.
    pub fn clip(&self) -> Clip {
        self.clip
    }

    /// Animated texture slots.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when nothing is animated.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Entry `i` (checked at parse), `None` past the last.
    pub fn entry(&self, i: usize) -> Option<TextureEntry<'a>> {
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

    /// The texture index (into the model's TEX1) entry `i` shows at
    /// `frame`: its table at `floor(frame)`, the last value from the end of
    /// its table on (the game's rule; noclip shows nothing there). `None`
    /// for an empty table or past the last entry.
    pub fn texture_index(&self, i: usize, frame: f32) -> Option<u16> {
        let at = self.entry(i)?.frames.entry(frame)?;
        let b = self.indices.get(at.checked_mul(2)?..)?.first_chunk::<2>()?;
        Some(u16::from_be_bytes(*b))
    }
}
