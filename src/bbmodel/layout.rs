//! The fill pass's checks against the plan: every stage writes into arrays
//! carved by the count pass's plan, and a value that does not fit the
//! layout it was planned for is ARENA_TOO_SMALL ("measure it again"), never
//! a panic.

use crate::error::{Error, ErrorCode};

/// A stored u64 offset or index back as `usize` (they came from `usize`).
pub(in crate::bbmodel) fn offset(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

pub(in crate::bbmodel) fn index32(n: usize) -> Result<u32, Error> {
    u32::try_from(n).map_err(|_| mismatch())
}

pub(in crate::bbmodel) fn mismatch() -> Error {
    Error::nowhere(
        ErrorCode::ArenaTooSmall,
        format_args!("the arena's layout does not match this input: measure it again"),
    )
}
