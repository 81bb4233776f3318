//! Names and other text in the scene, stored as spans so records stay plain data.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "lengths of text held in fixed buffers or spans of the input, each end checked against its buffer before use"
)]

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

/// Where a piece of text lives: a span of the input (zero-copy, the common
/// case) or of the scene's text pool in the arena (for JSON strings with
/// escapes, which must be decoded).
///
/// The top bit of `start` selects the pool; a span is resolved by
/// [`Scene::text`](super::Scene::text).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable,
)]
#[repr(C)]
pub struct TextRef {
    start: u32,
    len: u32,
}

const POOL_BIT: u32 = 1 << 31;

/// Which buffer a [`TextRef`] points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextSource {
    /// The bytes the scene was decoded from (after Yaz0, for J3D).
    Input,
    /// The scene's text pool in the arena.
    Pool,
}

impl TextRef {
    /// The empty text.
    pub const EMPTY: Self = Self { start: 0, len: 0 };

    /// A span of `len` bytes at `start` in `source`; `None` when `start` or
    /// `len` does not fit the 31-bit span fields.
    pub fn new(source: TextSource, start: usize, len: usize) -> Option<Self> {
        let start = u32::try_from(start).ok().filter(|s| s & POOL_BIT == 0)?;
        let len = u32::try_from(len).ok()?;
        Some(Self {
            start: match source {
                TextSource::Input => start,
                TextSource::Pool => start | POOL_BIT,
            },
            len,
        })
    }

    /// The buffer the span points into.
    pub const fn source(self) -> TextSource {
        if self.start & POOL_BIT == 0 {
            TextSource::Input
        } else {
            TextSource::Pool
        }
    }

    /// The byte range of the span in its buffer.
    pub fn range(self) -> core::ops::Range<usize> {
        let start = (self.start & !POOL_BIT) as usize;
        start..start + self.len as usize
    }
}
