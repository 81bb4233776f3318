//! EVP1: envelopes (weighted joint sets) and inverse bind matrices.
//!
//! u16 envelope count @0x08; u32 offsets of: per-envelope joint counts (u8)
//! @0x0C, joint indices (u16) @0x10, weights (f32) @0x14, inverse bind
//! matrices (3×4 f32, row-major, 0x30 bytes, one per joint index) @0x18.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times record sizes below 256 (below 2^41, no overflow with a 64-bit usize), each checked by the section reader before any byte is read"
)]

use super::read::SectionReader;
use crate::error::Error;
use crate::scene::Mat4;

/// A parsed EVP1 header.
#[derive(Clone, Copy, Debug)]
pub struct Evp1<'a> {
    reader: SectionReader<'a>,
    count: usize,
    counts: usize,
    indices: usize,
    weights: usize,
    inverse_binds: usize,
}

impl<'a> Evp1<'a> {
    pub(crate) fn parse(reader: SectionReader<'a>) -> Result<Self, Error> {
        let count = usize::from(reader.u16(0x08)?);
        let counts = reader.offset(0x0C)?;
        reader.table(counts, count, 1)?;
        Ok(Self {
            reader,
            count,
            counts,
            indices: reader.offset(0x10)?,
            weights: reader.offset(0x14)?,
            inverse_binds: reader.offset(0x18)?,
        })
    }

    /// Envelopes in the model.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when there are no envelopes.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Joints envelope `e` weighs.
    pub fn joint_count(&self, e: usize) -> Result<usize, Error> {
        Ok(usize::from(self.reader.u8(self.counts + e)?))
    }

    /// Influence `k` of the envelope whose influences start at `first`
    /// (the sum of the joint counts of the envelopes before it): joint, weight.
    pub fn influence(&self, first: usize, k: usize) -> Result<(u16, f32), Error> {
        let i = first + k;
        Ok((
            self.reader.u16(self.indices + 2 * i)?,
            self.reader.f32(self.weights + 4 * i)?,
        ))
    }

    /// The inverse bind matrix stored for `joint`, as a column-major 4×4.
    pub fn inverse_bind(&self, joint: usize) -> Result<Mat4, Error> {
        let at = self.inverse_binds + joint * 0x30;
        let mut m = Mat4::IDENTITY;
        for row in 0..3 {
            for col in 0..4 {
                if let Some(slot) = m.0.get_mut(col * 4 + row) {
                    *slot = self.reader.f32(at + (row * 4 + col) * 4)?;
                }
            }
        }
        Ok(m)
    }
}
