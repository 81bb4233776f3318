//! VTX1: the vertex arrays.
//!
//! u32 offset of the format list @0x08: 16-byte entries (u32 attribute, u32
//! component count, u32 component type, u8 fraction bits, 3 bytes padding)
//! ending with attribute 0xFF. Thirteen u32 data offsets follow @0x0C, one per
//! array slot (POS, NRM, NBT, CLR0, CLR1, TEX0–7); 0 means no data. Arrays do
//! not store their length: one runs to the next non-zero offset, or to the
//! end of the section (so it includes alignment padding).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times record sizes below 256 (below 2^41, no overflow with a 64-bit usize), each checked by the section reader before any byte is read"
)]

use super::read::SectionReader;
use crate::error::{Error, ErrorCode};
use crate::gx::vertex::{ArrayFormat, VertexAttribute};

/// Array slots in VTX1's data offset table.
pub const ARRAY_SLOTS: usize = 13;
/// The attribute stored in each slot.
pub const SLOT_ATTRIBUTES: [VertexAttribute; ARRAY_SLOTS] = [
    VertexAttribute::Position,
    VertexAttribute::Normal,
    VertexAttribute::NormalBinormalTangent,
    VertexAttribute::Color(0),
    VertexAttribute::Color(1),
    VertexAttribute::TexCoord(0),
    VertexAttribute::TexCoord(1),
    VertexAttribute::TexCoord(2),
    VertexAttribute::TexCoord(3),
    VertexAttribute::TexCoord(4),
    VertexAttribute::TexCoord(5),
    VertexAttribute::TexCoord(6),
    VertexAttribute::TexCoord(7),
];

/// One vertex array: its format and bytes.
#[derive(Clone, Copy, Debug)]
pub struct VertexArray<'a> {
    /// What the array holds.
    pub attribute: VertexAttribute,
    /// How elements are stored.
    pub format: ArrayFormat,
    /// The bytes from the array's start to the next array (or the section end).
    pub data: &'a [u8],
    /// Absolute file offset of the first element.
    pub file_offset: usize,
}

impl<'a> VertexArray<'a> {
    /// Whole elements the bytes hold (an upper bound of the real count).
    pub fn count(&self) -> usize {
        self.data.len() / self.format.stride().max(1)
    }

    /// The bytes of element `i`, if the array holds it.
    pub fn element(&self, i: usize) -> Option<&'a [u8]> {
        crate::gx::vertex::element(self.data, self.format.stride(), i)
    }
}

/// A parsed VTX1 section.
#[derive(Clone, Copy, Debug)]
pub struct Vtx1<'a> {
    arrays: [Option<VertexArray<'a>>; ARRAY_SLOTS],
}

impl<'a> Vtx1<'a> {
    pub(crate) fn parse(reader: SectionReader<'a>) -> Result<Self, Error> {
        let mut offsets = [0usize; ARRAY_SLOTS];
        for (i, o) in offsets.iter_mut().enumerate() {
            *o = reader.offset(0x0C + 4 * i)?;
        }
        let mut arrays = [None; ARRAY_SLOTS];
        let mut at = reader.offset(0x08)?;
        loop {
            let code = reader.u32(at)?;
            if code == 0xFF {
                break;
            }
            let comp_count = reader.u32(at + 4)?;
            let comp_type = reader.u32(at + 8)?;
            let shift = reader.u8(at + 12)?;
            let entry = at;
            at += 16;
            // Matrix arrays and unknown attributes have no data table slot.
            let Some(attribute) = VertexAttribute::from_code(code) else {
                continue;
            };
            let Some(slot) = attribute.array_slot() else {
                continue;
            };
            let format = ArrayFormat::from_vtx1(attribute, comp_count, comp_type, shift)
                .ok_or_else(|| {
                    reader.error(
                        ErrorCode::BadValue,
                        entry,
                        format_args!(
                            "{attribute} array of {comp_count} components of type {comp_type} is no GX format"
                        ),
                    )
                })?;
            let (Some(&start), Some(out)) = (offsets.get(slot), arrays.get_mut(slot)) else {
                continue;
            };
            if start == 0 {
                continue;
            }
            let end = offsets
                .get(slot + 1..)
                .unwrap_or_default()
                .iter()
                .copied()
                .find(|&o| o != 0)
                .unwrap_or(reader.bytes().len());
            let data = reader.bytes().get(start..end).ok_or_else(|| {
                reader.error(
                    ErrorCode::BadOffset,
                    0x0C + 4 * slot,
                    format_args!("{attribute} array {start:#x}..{end:#x} lies outside VTX1"),
                )
            })?;
            *out = Some(VertexArray {
                attribute,
                format,
                data,
                file_offset: reader.file_offset(start),
            });
        }
        Ok(Self { arrays })
    }

    /// The array of `attribute`, if the model has one.
    pub fn array(&self, attribute: VertexAttribute) -> Option<&VertexArray<'a>> {
        self.arrays.get(attribute.array_slot()?)?.as_ref()
    }

    /// The arrays by slot (POS, NRM, NBT, CLR0, CLR1, TEX0–7).
    pub fn arrays(&self) -> &[Option<VertexArray<'a>>; ARRAY_SLOTS] {
        &self.arrays
    }
}
