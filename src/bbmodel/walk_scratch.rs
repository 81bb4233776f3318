//! The fixed tables the .bbmodel walks work in, as one block of caller
//! memory: the outliner walk's open groups, the first texture uuids and
//! the counting pass's tables, with the mesh face walks' record (which the
//! fill's face walk uses too) and the Molang compiler's open levels (which
//! the fill's compiles use).
//! `measure_with` takes it from `MeasureScratch`; `decode_into`'s counting
//! pass borrows it from the arena's free bytes, and the fill carves it
//! from the plan's scratch; so no walk holds it in its frame.

use crate::bbmodel::elements::count::CountTables;
use crate::bbmodel::project::structure::OutlinerStack;
use crate::bbmodel::project::uuid_tables::UuidEntry;
use crate::bbmodel::textures::entries::COUNTED_UUIDS;

/// The walks' tables and the Molang compiler's open levels (29 920 bytes
/// of plain integers).
#[repr(C)]
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable)]
pub struct WalkScratch {
    pub(in crate::bbmodel) outliner: OutlinerStack,
    /// The counting pass's first texture uuids (`COUNTED_UUIDS`).
    pub(in crate::bbmodel) texture_uuids: [UuidEntry; COUNTED_UUIDS],
    pub(in crate::bbmodel) count: CountTables,
    /// The Molang compiler's open levels, for the fill's programs.
    pub(in crate::bbmodel) molang: crate::molang::Work,
}

impl WalkScratch {
    /// Empty tables (a `const`, for statics).
    pub const fn new() -> Self {
        Self {
            outliner: OutlinerStack::new(),
            texture_uuids: [UuidEntry::ZERO; COUNTED_UUIDS],
            count: CountTables::new(),
            molang: crate::molang::Work::new(),
        }
    }
}

impl Default for WalkScratch {
    fn default() -> Self {
        Self::new()
    }
}

/// Runs `f` with a [`WalkScratch`] on the stack, in a frame of its own, for
/// the entry points that take no caller memory (`measure`, `load`'s
/// counting pass, the error paths): only their paths hold it.
#[inline(never)]
pub(in crate::bbmodel) fn on_stack<R>(f: impl FnOnce(&mut WalkScratch) -> R) -> R {
    f(&mut WalkScratch::new())
}

#[cfg(test)]
mod tests {
    #[test]
    fn size_is_the_documented_one() {
        // docs/architecture.md and docs/c-api.md quote it.
        assert_eq!(core::mem::size_of::<super::WalkScratch>(), 29_920);
    }
}
