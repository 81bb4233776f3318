//! SHP1: shapes, their vertex descriptors, matrix tables and display lists.
//!
//! u16 shape count @0x08; u32 offsets of: shape entries (0x28 bytes) @0x0C,
//! remap table (u16 per shape) @0x10, name table @0x14 (usually 0), vertex
//! descriptor lists @0x18, matrix table (u16 DRW1 indices) @0x1C, display-list
//! data @0x20, matrix groups (8 bytes: u16 matrix index, u16 count, u32 first
//! matrix table entry) @0x24, packets (8 bytes: u32 size, u32 offset from the
//! display-list data) @0x28.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times record sizes below 256 (below 2^41, no overflow with a 64-bit usize), each checked by the section reader before any byte is read"
)]

use zerocopy::big_endian::{F32, U16};
use zerocopy::{FromBytes, Immutable, KnownLayout};

use super::read::SectionReader;
use super::vtx1::Vtx1;
use crate::error::{Error, ErrorCode};
use crate::gx::vertex::{AttributeInput, VertexAttribute};

/// One shape entry, read in place.
#[derive(FromBytes, KnownLayout, Immutable, Debug)]
#[repr(C)]
pub struct ShapeEntry {
    /// 0 plain matrix, 1 billboard, 2 Y billboard, 3 multi-matrix.
    pub display_flags: u8,
    /// 0xFF.
    pub pad: u8,
    /// Packets (matrix groups).
    pub packet_count: U16,
    /// Offset of the vertex descriptor list in the descriptor table.
    pub descriptor: U16,
    /// First matrix group.
    pub first_matrix_group: U16,
    /// First packet.
    pub first_packet: U16,
    /// Padding.
    pub pad2: U16,
    /// Bounding sphere radius.
    pub radius: F32,
    /// Bounding box min and max.
    pub bbox: [F32; 6],
}

/// How a shape's matrices are used (SHP1 display flags).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixType {
    /// One matrix.
    Mtx,
    /// Faces the camera (drawn here with its plain draw matrix).
    Billboard,
    /// Faces the camera about Y (likewise).
    YBillboard,
    /// Several matrices, chosen per vertex by PNMTXIDX.
    Multi,
}

/// The attributes one vertex of a shape carries, in display-list order
/// (ascending attribute code), and its size in bytes.
#[derive(Clone, Debug, Default)]
pub struct VertexDescriptor {
    /// Each present attribute with its input kind and byte offset in a vertex.
    pub attributes: heapless::Vec<(VertexAttribute, AttributeInput, usize), 24>,
    /// Bytes of one vertex in the display list.
    pub vertex_size: usize,
}

impl VertexDescriptor {
    /// The input and offset of `attribute`, if present.
    pub fn get(&self, attribute: VertexAttribute) -> Option<(AttributeInput, usize)> {
        self.attributes
            .iter()
            .find(|(a, _, _)| *a == attribute)
            .map(|&(_, input, offset)| (input, offset))
    }
}

/// A parsed SHP1 header.
#[derive(Clone, Copy, Debug)]
pub struct Shp1<'a> {
    reader: SectionReader<'a>,
    count: usize,
    entries: usize,
    remap: usize,
    descriptors: usize,
    matrix_table: usize,
    display_lists: usize,
    matrix_groups: usize,
    packets: usize,
}

/// One shape.
#[derive(Clone, Copy, Debug)]
pub struct Shape<'a> {
    /// The entry.
    pub entry: &'a ShapeEntry,
    /// Offset of the entry in the section (for errors).
    pub entry_offset: usize,
}

impl Shape<'_> {
    /// The matrix type.
    pub fn matrix_type(&self) -> MatrixType {
        match self.entry.display_flags {
            1 => MatrixType::Billboard,
            2 => MatrixType::YBillboard,
            3 => MatrixType::Multi,
            _ => MatrixType::Mtx,
        }
    }

    /// Packets of the shape.
    pub fn packet_count(&self) -> usize {
        usize::from(self.entry.packet_count.get())
    }
}

/// One packet: the draw-matrix slots it sets and its display list.
#[derive(Clone, Copy, Debug)]
pub struct Packet<'a> {
    /// Big-endian u16 DRW1 indices for slots 0..n; 0xFFFF keeps the slot.
    pub matrix_table: &'a [u8],
    /// The display list.
    pub display_list: &'a [u8],
    /// Absolute file offset of the display list (for errors).
    pub display_list_offset: usize,
}

impl Packet<'_> {
    /// The DRW1 index for slot `k`, or `None` for 0xFFFF (keep).
    pub fn slots(&self) -> impl Iterator<Item = (usize, Option<u16>)> + '_ {
        self.matrix_table
            .chunks_exact(2)
            .filter_map(|b| b.try_into().ok().map(u16::from_be_bytes))
            .enumerate()
            .map(|(k, v)| (k, (v != 0xFFFF).then_some(v)))
    }
}

impl<'a> Shp1<'a> {
    pub(crate) fn parse(reader: SectionReader<'a>) -> Result<Self, Error> {
        let count = usize::from(reader.u16(0x08)?);
        let shp1 = Self {
            reader,
            count,
            entries: reader.offset(0x0C)?,
            remap: reader.offset(0x10)?,
            descriptors: reader.offset(0x18)?,
            matrix_table: reader.offset(0x1C)?,
            display_lists: reader.offset(0x20)?,
            matrix_groups: reader.offset(0x24)?,
            packets: reader.offset(0x28)?,
        };
        reader.table(shp1.remap, count, 2)?;
        Ok(shp1)
    }

    /// Shapes in the model.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when there are no shapes.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Shape `i` (through the remap table).
    pub fn shape(&self, i: usize) -> Result<Shape<'a>, Error> {
        let entry = usize::from(self.reader.u16(self.remap + 2 * i)?);
        let entry_offset = self.entries + entry * 0x28;
        Ok(Shape {
            entry: self.reader.record(entry_offset)?,
            entry_offset,
        })
    }

    /// The vertex descriptor of `shape`, with the vertex size its arrays imply.
    pub fn descriptor(
        &self,
        shape: &Shape<'_>,
        vtx1: &Vtx1<'_>,
    ) -> Result<VertexDescriptor, Error> {
        let mut d = VertexDescriptor::default();
        let mut at = self.descriptors + usize::from(shape.entry.descriptor.get());
        loop {
            let code = self.reader.u32(at)?;
            if code == 0xFF {
                break;
            }
            let input_code = self.reader.u32(at + 4)?;
            let entry_at = at;
            let bad = |what: core::fmt::Arguments<'_>| {
                self.reader.error(ErrorCode::BadValue, entry_at, what)
            };
            let attribute = VertexAttribute::from_code(code).ok_or_else(|| {
                bad(format_args!(
                    "vertex attribute {code:#x} is not one a vertex carries"
                ))
            })?;
            let input = AttributeInput::from_code(input_code)
                .ok_or_else(|| bad(format_args!("attribute input {input_code}: 0-3 expected")))?;
            at += 8;
            if input == AttributeInput::None {
                continue;
            }
            if d.attributes.iter().any(|(a, _, _)| *a == attribute) {
                return Err(bad(format_args!("{attribute} listed twice")));
            }
            d.attributes
                .push((attribute, input, 0))
                .map_err(|_| bad(format_args!("more than 24 vertex attributes")))?;
        }
        // Display-list order is ascending attribute code, whatever the list order.
        // GX sends NBT data where a normal goes.
        d.attributes.sort_unstable_by_key(|(a, _, _)| match a {
            VertexAttribute::NormalBinormalTangent => VertexAttribute::Normal.code(),
            a => a.code(),
        });
        let mut offset = 0;
        for (attribute, input, at) in d.attributes.iter_mut() {
            *at = offset;
            offset += match (*attribute, *input) {
                (
                    VertexAttribute::PositionMatrixIndex | VertexAttribute::TexMatrixIndex(_),
                    AttributeInput::Direct,
                ) => 1,
                (VertexAttribute::PositionMatrixIndex | VertexAttribute::TexMatrixIndex(_), _) => {
                    return Err(self.reader.error(
                        ErrorCode::BadValue,
                        shape.entry_offset,
                        format_args!("{attribute} must be direct"),
                    ));
                }
                (_, AttributeInput::Index8) => 1,
                (_, AttributeInput::Index16) => 2,
                (_, AttributeInput::Direct) => vtx1
                    .array(*attribute)
                    .map(|a| a.format.stride())
                    .ok_or_else(|| {
                        self.reader.error(
                            ErrorCode::BadValue,
                            shape.entry_offset,
                            format_args!("direct {attribute} without a VTX1 format"),
                        )
                    })?,
                (_, AttributeInput::None) => 0,
            };
        }
        d.vertex_size = offset;
        Ok(d)
    }

    /// Packet `j` of `shape`.
    pub fn packet(&self, shape: &Shape<'_>, j: usize) -> Result<Packet<'a>, Error> {
        let group =
            self.matrix_groups + (usize::from(shape.entry.first_matrix_group.get()) + j) * 8;
        let slot_count = usize::from(self.reader.u16(group + 2)?);
        let first = self.reader.offset(group + 4)?;
        let matrix_table = self
            .reader
            .table(self.matrix_table + 2 * first, slot_count, 2)?;
        let packet = self.packets + (usize::from(shape.entry.first_packet.get()) + j) * 8;
        let size = self.reader.offset(packet)?;
        let offset = self
            .display_lists
            .checked_add(self.reader.offset(packet + 4)?)
            .ok_or_else(|| {
                self.reader.error(
                    ErrorCode::BadOffset,
                    packet + 4,
                    format_args!("display list offset overflows"),
                )
            })?;
        let display_list = self.reader.slice(offset, size).map_err(|_| {
            self.reader.error(
                ErrorCode::BadOffset,
                packet,
                format_args!("display list of {size} bytes at {offset:#x} lies outside SHP1"),
            )
        })?;
        Ok(Packet {
            matrix_table,
            display_list,
            display_list_offset: self.reader.file_offset(offset),
        })
    }
}
