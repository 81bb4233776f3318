//! Caller-provided memory: typed, aligned slices carved out of one `&mut [u8]`.
//!
//! The two-pass contract: a format's `measure` walks the input, checks every
//! limit and returns a [`Plan`] whose [`Plan::arena_bytes`] is exactly what
//! `decode_into` will carve from an 8-byte-aligned buffer. Carving goes through
//! [`Footprint`] in `measure` and through [`Arena`] in `decode_into`, and both
//! round in the same way, so the two agree to the byte; tests check it.
//!
//! Everything is safe code: alignment comes from `align_offset`, typed views
//! from zerocopy's `FromBytes::mut_from_bytes`, and each slice is split off the
//! front of the remaining buffer, so no two slices alias.
//!
//! **Every slice [`Arena::slice`] hands out is zeroed**, whatever the buffer
//! held, so a decoder may leave a value at zero by not writing it. The
//! buffer is zeroed once per decode: an arena over caller memory zeroes each
//! slice as it carves it; an arena that `load` builds over the allocation it
//! has just made zeroed (`vec![0u64; n]`) knows the bytes are zero already
//! and does not write them again (`Arena::from_zeroed_words`). Either way a
//! byte is handed out at most once, so it is still zero when handed out.
//!
//! [`Arena`], [`Footprint`], [`ArenaReader`] and [`MAX_ALIGN`] are defined in
//! `carve.rs`, which knows nothing of scenes, and re-exported here; this
//! module adds the [`Plan`], which is built from the scene's counts. So the
//! scene model imports the carving and the plan imports the scene model, one
//! way (docs/architecture.md).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "sizes come from a Plan whose counts were checked against Limits and summed with checked arithmetic; padding is below MAX_ALIGN"
)]

use crate::error::Error;
use crate::scene::SceneCounts;

pub use crate::carve::{Arena, ArenaReader, Footprint, MAX_ALIGN, words_as_bytes};

/// Declares a plain-data record that a pass keeps in arena scratch:
/// `#[repr(C)]`, zerocopy's byte views (so [`Arena::slice`] can carve typed
/// slices of it out of the caller's memory) and the value traits every such
/// record has. `scratch_record! { sorted ... }` adds the ordering traits of
/// an entry kept sorted for binary search (field order is sort order); a
/// record that is only compared adds its own `#[derive(PartialEq)]`.
macro_rules! scratch_record {
    (sorted $(#[$attr:meta])* $vis:vis struct $name:ident { $($fields:tt)* }) => {
        crate::arena::scratch_record! {
            $(#[$attr])*
            #[derive(PartialEq, Eq, PartialOrd, Ord)]
            $vis struct $name { $($fields)* }
        }
    };
    ($(#[$attr:meta])* $vis:vis struct $name:ident { $($fields:tt)* }) => {
        $(#[$attr])*
        #[derive(
            Clone,
            Copy,
            Debug,
            Default,
            zerocopy::FromBytes,
            zerocopy::IntoBytes,
            zerocopy::KnownLayout,
            zerocopy::Immutable,
        )]
        #[repr(C)]
        $vis struct $name { $($fields)* }
    };
}
pub(crate) use scratch_record;

/// Sizes a decoder notes in its [`Plan`] for the decode pass to carve by.
pub(crate) const NOTES: usize = 16;

/// The arena size a decode needs, computed by `measure` before anything is allocated.
///
/// Decoders carve the scene's arrays first, from the start of the arena, then
/// any scratch they need; the plan counts both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    bytes: usize,
    counts: SceneCounts,
    /// Sizes the decoder found while counting and needs again to carve its
    /// scratch (format-specific; saves a second walk).
    notes: [usize; NOTES],
}

impl Plan {
    /// A plan for a scene of `counts`, followed by the scratch slices that
    /// `scratch` adds (in the order the decoder carves them after the scene).
    pub(crate) fn new(
        counts: SceneCounts,
        scratch: impl FnOnce(&mut Footprint) -> Result<(), Error>,
    ) -> Result<Self, Error> {
        let mut footprint = Footprint::new();
        counts.add_to(&mut footprint)?;
        scratch(&mut footprint)?;
        Ok(Self {
            bytes: footprint.bytes(),
            counts,
            notes: [0; NOTES],
        })
    }

    /// The plan with the decoder's `notes` attached.
    pub(crate) const fn with_notes(mut self, notes: [usize; NOTES]) -> Self {
        self.notes = notes;
        self
    }

    /// A note the decoder attached while counting.
    pub(crate) fn note(&self, index: usize) -> usize {
        self.notes.get(index).copied().unwrap_or(0)
    }

    /// How many values each scene array will hold.
    pub const fn counts(&self) -> &SceneCounts {
        &self.counts
    }

    /// Exact bytes the decode needs in a buffer aligned to [`MAX_ALIGN`]:
    /// one byte fewer fails with [`ErrorCode::ArenaTooSmall`](crate::ErrorCode::ArenaTooSmall).
    pub const fn arena_bytes(&self) -> usize {
        self.bytes
    }

    /// Bytes that are always enough, whatever the buffer's alignment.
    pub const fn arena_bytes_unaligned(&self) -> usize {
        self.bytes + MAX_ALIGN - 1
    }

    /// `u64` words that hold [`Plan::arena_bytes`] (rounded up).
    pub const fn arena_words(&self) -> usize {
        self.bytes.div_ceil(MAX_ALIGN)
    }
}
