//! VAF1 (`.bva`): whether each shape is drawn, per frame.
//!
//! Chunk: loop mode u8 @0x08, duration u16 @0x0A, shape count u16 @0x0C,
//! visibility-byte count u16 @0x0E, u32 offsets of the entry table @0x10
//! and of the byte table @0x14. Entry `i` (4 bytes: frames u16, first byte
//! u16) belongs to shape `i`; a byte is nonzero where the shape shows.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times 4 (below 2^40, no overflow with a 64-bit usize), each checked by the chunk reader before any byte is read"
)]

use super::common::{Clip, FrameTrack, KeyBudget, check_tracks, clip};
use crate::error::Error;
use crate::j3d::read::SectionReader;
use crate::limits::J3dLimits;

const ENTRY: usize = 4;

/// A checked VAF1 chunk.
#[derive(Clone, Copy, Debug)]
pub struct Vaf1<'a> {
    reader: SectionReader<'a>,
    clip: Clip,
    count: usize,
    entries: usize,
    bits: &'a [u8],
}

impl<'a> Vaf1<'a> {
    #[inline(never)] // its own frame under `parse_chunk`, a thin dispatch
    pub(crate) fn parse(reader: SectionReader<'a>, limits: &J3dLimits) -> Result<Self, Error> {
        let r = &reader;
        let clip = clip(r, 0x0A, limits)?;
        let count = usize::from(r.u16(0x0C)?);
        check_tracks(r, 0x0C, count, 1, limits)?;
        let bit_count = usize::from(r.u16(0x0E)?);
        let bits = if bit_count == 0 {
            &[]
        } else {
            r.table(r.offset(0x14)?, bit_count, 1)?
        };
        let entries = if count == 0 { 0 } else { r.offset(0x10)? };
        r.table(entries, count, ENTRY)?;
        let anim = Self {
            reader,
            clip,
            count,
            entries,
            bits,
        };
        let mut budget = KeyBudget::new(limits);
        for i in 0..count {
            let t = anim.read_track(i)?;
            budget.take(r, entries + i * ENTRY, usize::from(t.count))?;
        }
        Ok(anim)
    }

    fn read_track(&self, shape: usize) -> Result<FrameTrack, Error> {
        FrameTrack::read(&self.reader, self.entries + shape * ENTRY, self.bits.len())
    }

    /// Loop mode and duration.
    pub fn clip(&self) -> Clip {
        self.clip
    }

    /// Shape tracks; must equal the model's shape count.
    pub fn shapes(&self) -> usize {
        self.count
    }

    /// Shape `shape`'s track (checked at parse), `None` past the last.
    pub fn track(&self, shape: usize) -> Option<FrameTrack> {
        if shape >= self.count {
            return None;
        }
        self.read_track(shape).ok()
    }

    /// Whether shape `shape` is drawn at `frame`: the frame rounded to the
    /// nearest whole frame (`floor(frame + 0.5)`), clamped to its table.
    /// `None` for an empty track (the shape keeps its own visibility) or
    /// past the last shape.
    pub fn shape_visible(&self, shape: usize, frame: f32) -> Option<bool> {
        let t = self.track(shape)?;
        let at = t.entry(frame + 0.5)?;
        self.bits.get(at).map(|&b| b != 0)
    }
}
