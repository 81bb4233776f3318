//! MAT3: materials. Read here for what the scene needs of them today: the
//! name and the cull mode. (The full material with its index pools is read by
//! later work; see docs/j3d.md.)
//!
//! u16 count @0x08; u32 offsets of: entries (0x14C bytes) @0x0C, remap table
//! (u16 per material) @0x10, name table @0x14, cull modes (u32) @0x1C.
//! An entry's byte 1 indexes the cull mode table.

use super::read::{NameTable, SectionReader};
use crate::error::{Error, ErrorCode};

/// Bytes of one material entry.
pub const ENTRY_SIZE: usize = 0x14C;

/// GX cull mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GxCullMode {
    /// GX_CULL_NONE: both sides drawn.
    None,
    /// GX_CULL_FRONT.
    Front,
    /// GX_CULL_BACK.
    Back,
    /// GX_CULL_ALL.
    All,
}

/// A parsed MAT3 header.
#[derive(Clone, Copy, Debug)]
pub struct Mat3<'a> {
    reader: SectionReader<'a>,
    count: usize,
    entries: usize,
    remap: usize,
    names: NameTable<'a>,
    cull_modes: usize,
}

/// What the scene reads of one material.
#[derive(Clone, Copy, Debug)]
pub struct MaterialBasics<'a> {
    /// The name's bytes and absolute file offset.
    pub name: (&'a [u8], usize),
    /// The cull mode.
    pub cull: GxCullMode,
}

impl<'a> Mat3<'a> {
    pub(crate) fn parse(reader: SectionReader<'a>) -> Result<Self, Error> {
        let count = usize::from(reader.u16(0x08)?);
        let remap = reader.offset(0x10)?;
        reader.table(remap, count, 2)?;
        let names = NameTable::new(reader, reader.offset(0x14)?)?;
        if names.len() < count {
            return Err(reader.error(
                ErrorCode::BadValue,
                0x14,
                format_args!("{count} materials but {} names", names.len()),
            ));
        }
        Ok(Self {
            reader,
            count,
            entries: reader.offset(0x0C)?,
            remap,
            names,
            cull_modes: reader.offset(0x1C)?,
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

    /// Material `i` (through the remap table).
    pub fn material(&self, i: usize) -> Result<MaterialBasics<'a>, Error> {
        let entry = self.entries + usize::from(self.reader.u16(self.remap + 2 * i)?) * ENTRY_SIZE;
        let cull_index = usize::from(self.reader.u8(entry + 1)?);
        let cull_at = self.cull_modes + 4 * cull_index;
        let cull = match self.reader.u32(cull_at)? {
            0 => GxCullMode::None,
            1 => GxCullMode::Front,
            2 => GxCullMode::Back,
            3 => GxCullMode::All,
            other => {
                return Err(self.reader.error(
                    ErrorCode::BadValue,
                    cull_at,
                    format_args!("cull mode {other}: 0-3 expected"),
                ));
            }
        };
        Ok(MaterialBasics {
            name: self.names.get(i)?,
            cull,
        })
    }
}
