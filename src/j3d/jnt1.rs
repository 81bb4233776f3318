//! JNT1: joints. u16 count @0x08, u32 entry table @0x0C (0x40 bytes each),
//! u32 remap table @0x10 (u16 per joint: which entry it uses), u32 name table
//! @0x14.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times record sizes below 256 (below 2^41, no overflow with a 64-bit usize), each checked by the section reader before any byte is read"
)]

use zerocopy::big_endian::{F32, I16, U16};
use zerocopy::{FromBytes, Immutable, KnownLayout};

use super::read::{NameTable, SectionReader};
use crate::error::{Error, ErrorCode};

/// One JNT1 entry, read in place.
#[derive(FromBytes, KnownLayout, Immutable, Debug)]
#[repr(C)]
pub struct JointEntry {
    /// Matrix type flags (low byte).
    pub flags: U16,
    /// Bit 0: Maya segment-scale compensation.
    pub calc_flags: u8,
    /// Padding.
    pub pad: u8,
    /// Scale per axis.
    pub scale: [F32; 3],
    /// Rotation per axis, s16 units of π / 0x7FFF radians.
    pub rotation: [I16; 3],
    /// Padding.
    pub pad2: U16,
    /// Translation.
    pub translation: [F32; 3],
    /// Bounding sphere radius.
    pub radius: F32,
    /// Bounding box min and max.
    pub bbox: [F32; 6],
}

/// A parsed JNT1 header.
#[derive(Clone, Copy, Debug)]
pub struct Jnt1<'a> {
    reader: SectionReader<'a>,
    count: usize,
    entries: usize,
    remap: usize,
    names: NameTable<'a>,
}

/// One joint's bind transform and name.
#[derive(Clone, Copy, Debug)]
pub struct Joint<'a> {
    /// The name's bytes and absolute file offset.
    pub name: (&'a [u8], usize),
    /// Maya segment-scale compensation flag (calc flags bit 0).
    pub segment_scale_compensate: bool,
    /// Scale.
    pub scale: [f32; 3],
    /// Rotation in radians (s16 · π / 0x7FFF), applied X, then Y, then Z.
    pub rotation: [f32; 3],
    /// Translation.
    pub translation: [f32; 3],
}

impl<'a> Jnt1<'a> {
    pub(crate) fn parse(reader: SectionReader<'a>) -> Result<Self, Error> {
        let count = usize::from(reader.u16(0x08)?);
        let entries = reader.offset(0x0C)?;
        let remap = reader.offset(0x10)?;
        let names = NameTable::new(reader, reader.offset(0x14)?)?;
        reader.table(remap, count, 2)?;
        if names.len() < count {
            return Err(reader.error(
                ErrorCode::BadValue,
                0x14,
                format_args!("{count} joints but {} names", names.len()),
            ));
        }
        Ok(Self {
            reader,
            count,
            entries,
            remap,
            names,
        })
    }

    /// Joints in the model.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when the model has no joints.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Joint `i` (through the remap table).
    pub fn joint(&self, i: usize) -> Result<Joint<'a>, Error> {
        let entry = usize::from(self.reader.u16(self.remap + 2 * i)?);
        let e: &JointEntry = self.reader.record(self.entries + entry * 0x40)?;
        let angle = |v: I16| f32::from(v.get()) * core::f32::consts::PI / 32767.0;
        Ok(Joint {
            name: self.names.get(i)?,
            segment_scale_compensate: e.calc_flags & 1 != 0,
            scale: e.scale.map(F32::get),
            rotation: e.rotation.map(angle),
            translation: e.translation.map(F32::get),
        })
    }
}
