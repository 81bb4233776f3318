//! TRK1 (`.brk`) and PAK1 (`.bpk`): keyed colours of materials.
//!
//! TRK1 animates TEV colour registers and konst colours: loop mode u8
//! @0x08, duration u16 @0x0A, register and konst entry counts u16
//! @0x0C/0x0E, value counts of the register R, G, B, A tables u16
//! @0x10..0x16 and of the konst tables @0x18..0x1E, then u32 offsets of the
//! register and konst entry tables @0x20/0x24, their remap tables
//! @0x28/0x2C (not read), their name tables @0x30/0x34, and of the eight s16
//! value tables (register R, G, B, A @0x38..0x44, konst @0x48..0x54). An
//! entry (0x1C bytes) is four track headers (R, G, B, A), the register or
//! konst index (u8) and padding.
//!
//! PAK1 animates the material colour: loop mode u8 @0x08, duration u16
//! @0x0C (not 0x0A), entry count u16 @0x0E, R, G, B, A value counts u16
//! @0x10..0x16, u32 offsets of the entry table @0x18, remap @0x1C (not
//! read), names @0x20 and the four s16 tables @0x24..0x30. An entry (0x18
//! bytes) is the four track headers.
//!
//! Values are s16 / 255: register colours are signed and may leave 0..1;
//! nothing here clamps them.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times at most 0x1C (below 2^40, no overflow with a 64-bit usize), each checked by the chunk reader before any byte is read"
)]

use super::common::{Clip, KeyBudget, KeyTrack, Table, Values, check_tracks, clip, names};
use crate::error::Error;
use crate::j3d::read::{NameTable, SectionReader};
use crate::limits::J3dLimits;

/// Which colour of a material an entry animates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourTarget {
    /// TEV colour register `C0 + n` (BRK; n is the file's byte, 0..=3).
    Register(u8),
    /// Konst colour `K0 + n` (BRK).
    Konst(u8),
    /// The material colour, channel 0 (BPK).
    Material,
}

/// One animated colour: material, target and R, G, B, A tracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColourEntry<'a> {
    /// The material's name.
    pub material: &'a [u8],
    /// The colour it animates.
    pub target: ColourTarget,
    /// R, G, B, A tracks.
    pub tracks: [KeyTrack; 4],
}

/// One group of entries sharing four value tables (BRK has two).
#[derive(Clone, Copy, Debug)]
struct Group<'a> {
    count: usize,
    entries: usize,
    stride: usize,
    names: NameTable<'a>,
    tables: [Table<'a>; 4],
    konst: Option<bool>,
}

/// A checked TRK1 or PAK1 chunk.
#[derive(Clone, Copy, Debug)]
pub struct ColourAnim<'a> {
    reader: SectionReader<'a>,
    clip: Clip,
    groups: [Group<'a>; 2],
}

/// The layout of one group in its chunk.
struct Layout {
    count_at: usize,
    value_counts_at: usize,
    entries_at: usize,
    names_at: usize,
    tables_at: usize,
    stride: usize,
    konst: Option<bool>,
}

const REGISTER: Layout = Layout {
    count_at: 0x0C,
    value_counts_at: 0x10,
    entries_at: 0x20,
    names_at: 0x30,
    tables_at: 0x38,
    stride: 0x1C,
    konst: Some(false),
};
const KONST: Layout = Layout {
    count_at: 0x0E,
    value_counts_at: 0x18,
    entries_at: 0x24,
    names_at: 0x34,
    tables_at: 0x48,
    stride: 0x1C,
    konst: Some(true),
};
const MATERIAL: Layout = Layout {
    count_at: 0x0E,
    value_counts_at: 0x10,
    entries_at: 0x18,
    names_at: 0x20,
    tables_at: 0x24,
    stride: 0x18,
    konst: None,
};

impl<'a> ColourAnim<'a> {
    /// A TRK1 chunk: register entries, then konst entries.
    #[inline(never)] // its own frame under `parse_chunk`, a thin dispatch
    pub(crate) fn parse_trk1(reader: SectionReader<'a>, limits: &J3dLimits) -> Result<Self, Error> {
        let clip = clip(&reader, 0x0A, limits)?;
        let registers = usize::from(reader.u16(REGISTER.count_at)?);
        let konsts = usize::from(reader.u16(KONST.count_at)?);
        check_tracks(&reader, 0x0C, registers + konsts, 4, limits)?;
        let registers = Group::read(reader, &REGISTER)?;
        let groups = [registers, Group::read(reader, &KONST)?];
        Self::checked(reader, clip, groups, limits)
    }

    /// A PAK1 chunk: material-colour entries.
    #[inline(never)] // its own frame under `parse_chunk`, a thin dispatch
    pub(crate) fn parse_pak1(reader: SectionReader<'a>, limits: &J3dLimits) -> Result<Self, Error> {
        let clip = clip(&reader, 0x0C, limits)?;
        let count = usize::from(reader.u16(MATERIAL.count_at)?);
        check_tracks(&reader, MATERIAL.count_at, count, 4, limits)?;
        let empty = Group {
            count: 0,
            entries: 0,
            stride: MATERIAL.stride,
            names: NameTable::empty(reader),
            tables: [Table::read(&reader, 0, 0, Values::F32)?; 4],
            konst: None,
        };
        Self::checked(
            reader,
            clip,
            [Group::read(reader, &MATERIAL)?, empty],
            limits,
        )
    }

    fn checked(
        reader: SectionReader<'a>,
        clip: Clip,
        groups: [Group<'a>; 2],
        limits: &J3dLimits,
    ) -> Result<Self, Error> {
        let anim = Self {
            reader,
            clip,
            groups,
        };
        let mut budget = KeyBudget::new(limits);
        for g in &anim.groups {
            for j in 0..g.count {
                let e = anim.read_entry(g, j)?;
                let n = e.tracks.iter().map(|k| usize::from(k.count)).sum();
                budget.take(&anim.reader, g.entries + j * g.stride, n)?;
            }
        }
        Ok(anim)
    }

    fn locate(&self, i: usize) -> Option<(&Group<'a>, usize)> {
        let [first, second] = &self.groups;
        if i < first.count {
            Some((first, i))
        } else {
            let j = i - first.count;
            (j < second.count).then_some((second, j))
        }
    }

    fn read_entry(&self, g: &Group<'a>, j: usize) -> Result<ColourEntry<'a>, Error> {
        let r = &self.reader;
        let at = g.entries + j * g.stride;
        let target = match g.konst {
            None => ColourTarget::Material,
            Some(false) => ColourTarget::Register(r.u8(at + 24)?),
            Some(true) => ColourTarget::Konst(r.u8(at + 24)?),
        };
        // R, G, B, A read in a loop: written as four calls, each kept its
        // own result (about 280 bytes) in this frame, at the bottom of the
        // deepest J3D path (issue 40).
        let mut tracks = [KeyTrack::EMPTY; 4];
        for (c, (track, table)) in tracks.iter_mut().zip(&g.tables).enumerate() {
            *track = KeyTrack::read(r, at + 6 * c, table)?;
        }
        Ok(ColourEntry {
            material: g.names.get(j)?.0,
            target,
            tracks,
        })
    }

    /// Loop mode and duration.
    pub fn clip(&self) -> Clip {
        self.clip
    }

    /// Entries: BRK's register entries first, then its konst entries.
    pub fn len(&self) -> usize {
        let [a, b] = &self.groups;
        a.count + b.count
    }

    /// True when nothing is animated.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entry `i` (checked at parse), `None` past the last.
    pub fn entry(&self, i: usize) -> Option<ColourEntry<'a>> {
        let (g, j) = self.locate(i)?;
        self.read_entry(g, j).ok()
    }

    /// The material entry `i` animates (checked at parse), `None` past the
    /// last: its name alone, without reading the entry's tracks.
    pub fn material(&self, i: usize) -> Option<&'a [u8]> {
        let (g, j) = self.locate(i)?;
        Some(g.names.get(j).ok()?.0)
    }

    /// The R, G, B, A value tables entry `i`'s tracks index.
    pub fn tables(&self, i: usize) -> Option<[Table<'a>; 4]> {
        Some(self.locate(i)?.0.tables)
    }

    /// Entry `i`'s colour at `frame`: R, G, B, A as the file's s16 / 255,
    /// Hermite between keys, unclamped.
    pub fn colour(&self, i: usize, frame: f32) -> Option<[f32; 4]> {
        let (g, j) = self.locate(i)?;
        let e = self.read_entry(g, j).ok()?;
        let [kr, kg, kb, ka] = e.tracks;
        let [tr, tg, tb, ta] = &g.tables;
        Some([
            kr.sample(tr, frame, 0.0),
            kg.sample(tg, frame, 0.0),
            kb.sample(tb, frame, 0.0),
            ka.sample(ta, frame, 0.0),
        ])
    }
}

impl<'a> Group<'a> {
    fn read(r: SectionReader<'a>, l: &Layout) -> Result<Self, Error> {
        let count = usize::from(r.u16(l.count_at)?);
        let colour = Values::S16(1.0 / 255.0);
        let table = |c: usize| -> Result<Table<'a>, Error> {
            Table::read(
                &r,
                l.tables_at + 4 * c,
                r.u16(l.value_counts_at + 2 * c)?,
                colour,
            )
        };
        // One table read at a time into its place (an array of results
        // kept each result and its error in a slot of its own).
        let mut tables = [table(0)?; 4];
        for (c, slot) in tables.iter_mut().enumerate().skip(1) {
            *slot = table(c)?;
        }
        let entries = if count == 0 {
            0
        } else {
            r.offset(l.entries_at)?
        };
        r.table(entries, count, l.stride)?;
        Ok(Self {
            count,
            entries,
            stride: l.stride,
            names: names(r, l.names_at, count)?,
            tables,
            konst: l.konst,
        })
    }
}
