//! The C API of scenedec: decode J3D (`.bmd`/`.bdl`) and Blockbench
//! (`.bbmodel`) models into memory the caller owns.
//!
//! A thin wrapper: every function here converts C arguments, calls the
//! library's entry point of the same name and converts the result back.
//! The scene reaches C as plain `#[repr(C)]` views (counts and pointers to
//! record arrays laid out exactly as the library stores them, checked at
//! compile time in `records.rs`), failures as a status plus a caller-owned
//! [`scenedec_error`]. Nothing here allocates: [`scenedec_decode_into`]
//! writes only into the caller's arena and structs, and [`scenedec_load`]
//! allocates through the caller's callbacks.
//!
//! This is the one crate of the workspace with `unsafe` code: turning C
//! pointers into slices. Each block says why it is sound, given the
//! contract the header states for the function.
//!
//! Panics: every entry point runs inside `guard`, which catches an
//! unwinding panic and returns [`scenedec_status::SCENEDEC_STATUS_PANIC`],
//! so no unwind ever crosses into C (the library promises no panics on any
//! input; this is the belt to those braces). A build with `panic = "abort"`
//! aborts instead, which is also never an unwind across the boundary.
//!
//! `capi/include/scenedec.h` is generated from this crate by cbindgen
//! (`capi/gen-header.sh`); the doc comments below are the header's.

#![allow(non_camel_case_types, reason = "C names, as the header spells them")]
// Every public item's doc comment becomes the header's documentation.
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod clips;
mod entry;
mod errors;
mod load;
mod options;
mod records;
mod scene;
mod workspace;

#[cfg(test)]
mod api_tests;
#[cfg(test)]
mod clips_tests;
#[cfg(test)]
mod layout_tests;
#[cfg(test)]
mod limits_tests;
#[cfg(test)]
mod workspace_tests;

pub use clips::*;
pub use entry::*;
pub use errors::*;
pub use load::*;
pub use options::*;
pub use records::*;
pub use scene::*;
pub use workspace::*;

use core::ffi::c_char;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The version of this header's ABI: struct layouts, function signatures
/// and enum values. Compare it with `scenedec_abi_version()` at run time to
/// catch a header and a library from different builds.
pub const SCENEDEC_ABI_VERSION: u32 = 3;

/// What a call did. Every function that can fail returns one.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum scenedec_status {
    /// Success.
    SCENEDEC_STATUS_OK = 0,
    /// The model could not be read: the `scenedec_error` passed in (when not
    /// NULL) holds the code, the place and the message.
    SCENEDEC_STATUS_ERROR = 1,
    /// A pointer the function needs was NULL.
    SCENEDEC_STATUS_NULL_ARGUMENT = 2,
    /// An argument is out of range: a name that is not UTF-8, more texture
    /// files than `SCENEDEC_MAX_TEXTURE_FILES`, a scene not written by this
    /// library, an allocator without both functions.
    SCENEDEC_STATUS_INVALID_ARGUMENT = 3,
    /// The caller's allocator returned NULL (`scenedec_load` only).
    SCENEDEC_STATUS_OUT_OF_MEMORY = 4,
    /// A bug: the library panicked. Caught before it could unwind into C.
    SCENEDEC_STATUS_PANIC = 5,
}

pub use scenedec_status::*;

/// The library's version, e.g. "0.1.0": a static NUL-terminated string,
/// never NULL, never to be freed.
#[unsafe(no_mangle)]
pub extern "C" fn scenedec_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// The `SCENEDEC_ABI_VERSION` this library was built with.
#[unsafe(no_mangle)]
pub extern "C" fn scenedec_abi_version() -> u32 {
    SCENEDEC_ABI_VERSION
}

/// Runs `f`, turning a panic into [`SCENEDEC_STATUS_PANIC`] so that it
/// never unwinds across the C boundary.
fn guard(f: impl FnOnce() -> scenedec_status) -> scenedec_status {
    // AssertUnwindSafe: after a panic nothing of `f`'s state is used again;
    // the caller gets a status and the half-written outputs are documented
    // as unspecified on failure.
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(SCENEDEC_STATUS_PANIC)
}
