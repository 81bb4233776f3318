//! MAT3: materials, read whole.
//!
//! The header holds u16 count @0x08 and 30 u32 offsets (from the section's
//! start) @0x0C..=0x80: the material entries, the remap table (u16 per
//! material: which entry it uses), the name table, the indirect-texturing
//! table, then one *pool* per kind of GX state ([`Pool`]). A material entry
//! ([`ENTRY_SIZE`] bytes) holds, per piece of state, an index into its pool;
//! `0xFF` (u8 indices) and `0xFFFF` (u16 indices) mean unused.
//!
//! Rules scenedec applies (docs/j3d.md, "MAT3"):
//!
//! - A pool runs from its offset to the next larger non-zero offset of the
//!   header, or to the section's end. A pool whose offset is 0 is absent:
//!   any index into it reads as unused. Nintendo files do this for the post
//!   texture matrices (they keep indices 0..n with no pool).
//! - An index whose record lies past the section's end is an error
//!   ([`ErrorCode::BadOffset`], at the index's byte); a pool that starts at
//!   or past the section's end is [`ErrorCode::Truncated`] (at its header
//!   field) as soon as an index needs it. One whose record lies
//!   past its pool's end but inside the section is read from the bytes that
//!   are there, as GX tools read it, and reported ([`Mat3::check`]):
//!   `riistudio_sms_testmap_map.bmd` names colour channels 1..3 of a pool
//!   the header cuts after one, its ambient colour offset pointing inside
//!   the channels.
//! - The entry a material uses must lie inside the entry pool, and a texture
//!   slot must name a TEX1 texture; both are errors otherwise.
//! - The material mode (entry byte 0) is kept as stored: 1 (opaque), 2
//!   (alpha-tested), 4 (translucent) and 0 (`smgo_capworldsky_matmode0.bmd`)
//!   all occur.
//! - The indirect table (0x138 bytes per material, by material index) is
//!   absent when its offset is 0 or equals the name table's.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times record sizes below 256 (below 2^41, no overflow with a 64-bit usize), each checked by the section reader before any byte is read"
)]

use super::read::{NameTable, SectionReader};
use crate::error::{Error, ErrorCode};

/// Bytes of one material entry.
pub const ENTRY_SIZE: usize = 0x14C;
/// Bytes of one material's indirect-texturing record.
pub const INDIRECT_SIZE: usize = 0x138;
/// Bytes of the MAT3 header, up to and including the last offset (0x80).
pub const HEADER_SIZE: usize = 0x84;

/// A u16 index that names nothing.
const NONE16: u16 = 0xFFFF;
/// A u8 index that names nothing.
const NONE8: u8 = 0xFF;

mod layout;
mod material;
mod records;

pub use layout::{Field, KONST_ALPHA_SELECTORS, KONST_COLOR_SELECTORS, POOL_COUNT, Pool};
pub use records::*;

/// A parsed MAT3 header: where the entries, tables and pools lie.
#[derive(Clone, Copy, Debug)]
pub struct Mat3<'a> {
    reader: SectionReader<'a>,
    count: usize,
    entries: usize,
    entries_end: usize,
    remap: usize,
    names: NameTable<'a>,
    indirect: Option<(usize, usize)>,
    /// Start and end of each pool; start 0 = absent.
    pools: [(usize, usize); POOL_COUNT],
}

/// Where some indices reach past their pool's end (inside the section),
/// per pool: the absolute file offset of the first such index field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolOverruns {
    first: [Option<usize>; POOL_COUNT],
}

impl PoolOverruns {
    /// Each pool overrun, with the file offset of its first index field.
    pub fn iter(&self) -> impl Iterator<Item = (Pool, usize)> + '_ {
        Pool::ALL
            .iter()
            .zip(self.first.iter())
            .filter_map(|(&p, at)| Some((p, (*at)?)))
    }

    /// True when no index reaches past its pool.
    pub fn is_empty(&self) -> bool {
        self.first.iter().all(Option::is_none)
    }
}

/// One material: its entry, and typed accessors for every piece of state.
///
/// Each accessor returns `Ok(None)` for an unused index (0xFF / 0xFFFF), an
/// index into an absent pool, or a slot number past the field's slots; and
/// an error when the record lies past the section's end.
#[derive(Clone, Copy, Debug)]
pub struct Material<'a> {
    mat3: Mat3<'a>,
    index: usize,
    entry: usize,
}

impl<'a> Mat3<'a> {
    /// Reads a MAT3 section ([`J3dFile::section`](super::J3dFile::section)):
    /// its header, remap and name tables, and where each pool lies. Indices
    /// are checked on access and, all at once, by [`Mat3::check`].
    pub fn new(section: super::Section<'a>) -> Result<Self, Error> {
        Self::parse(SectionReader::new(section))
    }

    pub(crate) fn parse(reader: SectionReader<'a>) -> Result<Self, Error> {
        reader.slice(0, HEADER_SIZE)?;
        let count = usize::from(reader.u16(0x08)?);
        let mut offsets = [0usize; 30];
        for (i, o) in offsets.iter_mut().enumerate() {
            *o = reader.offset(0x0C + 4 * i)?;
        }
        let len = reader.bytes().len();
        // A pool ends at the next larger non-zero offset, or the section's end.
        let end_of = |start: usize| {
            offsets
                .iter()
                .copied()
                .filter(|&o| o > start)
                .min()
                .unwrap_or(len)
                .min(len)
        };
        let [entries, remap, names_at, indirect, ..] = offsets;
        reader.table(remap, count, 2)?;
        let names = NameTable::new(reader, names_at)?;
        if names.len() < count {
            return Err(reader.error(
                ErrorCode::BadValue,
                0x14,
                format_args!("{count} materials but {} names", names.len()),
            ));
        }
        let mut pools = [(0, 0); POOL_COUNT];
        for (pool, slot) in Pool::ALL.iter().zip(pools.iter_mut()) {
            let start = offsets
                .get((pool.header_field() - 0x0C) / 4)
                .copied()
                .unwrap_or(0);
            *slot = (start, if start == 0 { 0 } else { end_of(start) });
        }
        let indirect =
            (indirect != 0 && indirect != names_at).then(|| (indirect, end_of(indirect)));
        Ok(Self {
            reader,
            count,
            entries,
            entries_end: end_of(entries),
            remap,
            names,
            indirect,
            pools,
        })
    }

    /// Materials in the model.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The start (from the section's start) and end of a pool; `None` when
    /// the header leaves it out (offset 0).
    pub fn pool(&self, pool: Pool) -> Option<(usize, usize)> {
        let (start, end) = self.pools.get(pool as usize).copied()?;
        (start != 0).then_some((start, end))
    }

    /// Material `i` (through the remap table). Its entry must lie inside the
    /// entry pool.
    pub fn material(&self, i: usize) -> Result<Material<'a>, Error> {
        if i >= self.count {
            return Err(self.reader.error(
                ErrorCode::BadOffset,
                0x08,
                format_args!("material {i} asked of {}", self.count),
            ));
        }
        let remap_at = self.remap + 2 * i;
        let slot = usize::from(self.reader.u16(remap_at)?);
        let entry = self.entries.saturating_add(slot * ENTRY_SIZE);
        // A table that starts past the section is cut short; an entry past
        // the table's end (the next table) is a wrong remap index.
        if self.entries >= self.reader.bytes().len() {
            return Err(self.reader.error(
                ErrorCode::Truncated,
                0x0C,
                format_args!(
                    "the material entries at {:#x} start past the end of MAT3 ({:#x})",
                    self.entries,
                    self.reader.bytes().len()
                ),
            ));
        }
        if entry.saturating_add(ENTRY_SIZE) > self.entries_end {
            return Err(self.reader.error(
                ErrorCode::BadOffset,
                remap_at,
                format_args!(
                    "material {i} uses entry {slot}, past the entry table's {} entries",
                    self.entries_end.saturating_sub(self.entries) / ENTRY_SIZE
                ),
            ));
        }
        Ok(Material {
            mat3: *self,
            index: i,
            entry,
        })
    }

    /// Checks every index of every material: each record inside the
    /// section, each texture slot naming one of `textures` TEX1 textures,
    /// each cull mode a GX value, each indirect record inside its table.
    /// Returns where indices reach past their pool's end (allowed, reported).
    pub fn check(&self, textures: usize) -> Result<PoolOverruns, Error> {
        let mut overruns = PoolOverruns::default();
        for i in 0..self.count {
            let m = self.material(i)?;
            for field in Field::ALL {
                for slot in 0..field.slots {
                    let resolved = match m.resolve_in_bounds(field, slot) {
                        Some(resolved) => resolved,
                        None => m.resolve(field, slot)?,
                    };
                    if let Some((_, past)) = resolved
                        && past
                        && let Some(first) = overruns.first.get_mut(field.pool as usize)
                    {
                        first.get_or_insert(self.reader.file_offset(m.field_at(field, slot)));
                    }
                }
            }
            for slot in 0..Field::TEXTURES.slots {
                if let Some(t) = m.texture(slot)?
                    && usize::from(t) >= textures
                {
                    let at = m.resolve(Field::TEXTURES, slot)?.map_or(0, |(at, _)| at);
                    return Err(self.reader.error(
                        ErrorCode::BadOffset,
                        at,
                        format_args!(
                            "material {i} texture slot {slot} names texture {t}, but TEX1 has {textures}"
                        ),
                    ));
                }
            }
            m.cull_mode()?;
            m.indirect()?;
        }
        Ok(overruns)
    }
}

#[cfg(test)]
mod tests;
