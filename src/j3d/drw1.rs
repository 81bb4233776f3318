//! DRW1: draw matrices, each a joint (rigid) or an envelope (weighted).
//!
//! u16 count @0x08; u32 offset of kinds (u8: 0 joint, 1 envelope) @0x0C; u32
//! offset of indices (u16) @0x10.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times record sizes below 256 (below 2^41, no overflow with a 64-bit usize), each checked by the section reader before any byte is read"
)]

use super::read::SectionReader;
use crate::error::{Error, ErrorCode};

/// What a draw matrix is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawMatrix {
    /// A joint's world matrix.
    Joint(u16),
    /// An envelope: Σ weight · jointWorld · inverseBind.
    Envelope(u16),
}

/// A parsed DRW1 header.
#[derive(Clone, Copy, Debug)]
pub struct Drw1<'a> {
    reader: SectionReader<'a>,
    count: usize,
    kinds: usize,
    indices: usize,
}

impl<'a> Drw1<'a> {
    pub(crate) fn parse(reader: SectionReader<'a>) -> Result<Self, Error> {
        let count = usize::from(reader.u16(0x08)?);
        let kinds = reader.offset(0x0C)?;
        let indices = reader.offset(0x10)?;
        reader.table(kinds, count, 1)?;
        reader.table(indices, count, 2)?;
        Ok(Self {
            reader,
            count,
            kinds,
            indices,
        })
    }

    /// Draw matrices in the model.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Draw matrix `d`.
    pub fn matrix(&self, d: usize) -> Result<DrawMatrix, Error> {
        let index = self.reader.u16(self.indices + 2 * d)?;
        match self.reader.u8(self.kinds + d)? {
            0 => Ok(DrawMatrix::Joint(index)),
            1 => Ok(DrawMatrix::Envelope(index)),
            other => Err(self.reader.error(
                ErrorCode::BadValue,
                self.kinds + d,
                format_args!("draw matrix kind {other}: 0 (joint) or 1 (envelope) expected"),
            )),
        }
    }
}
