//! # scenedec
//!
//! Decodes J3D (`.bmd`/`.bdl`, GameCube and Wii) and Blockbench (`.bbmodel`)
//! 3D models straight from their bytes into one [scene model](scene), in
//! memory the caller provides.
//!
//! ## Promises, and what enforces each
//!
//! | promise | enforced by |
//! | --- | --- |
//! | no `unsafe` code | `#![forbid(unsafe_code)]` below; the JSON tokenizer's SSE2 scans go through `safe_arch`'s safe wrappers, like the byte casts through `bytemuck` and `zerocopy` |
//! | no panic on any input | `unwrap`, `expect`, `panic!` and `unreachable!` are linted out of library code (CI denies warnings); `clippy::indexing_slicing` and `clippy::arithmetic_side_effects` are denied, every remaining site allowed with the bound that keeps it in range (docs/security.md); fuzz targets in `fuzz/` for every entry point, their inputs replayed by `cargo test`; hostile-input tests (every truncation and byte corruption of J3D and .bbmodel files) |
//! | no heap on the core path | the crate is `#![no_std]` without `alloc` unless the `alloc` feature is on; `no_std_tests/` links it into a program with no allocator; a counting-allocator test proves `measure` + `decode_into` allocate nothing |
//! | every limit checked before work proportional to it | [`limits`] holds every bound; each is tested at its value and one past it |
//! | `measure` gives the exact arena size | `decode_into` carves through the same [`scene::SceneCounts`] list that `measure` sizes; tests decode into exactly the planned bytes and fail cleanly one byte short |
//! | every failure is a typed [`Error`] with a code, a place and a message | [`error`]; messages never allocate |
//!
//! ## Using it without a heap
//!
//! ```
//! use scenedec::{Arena, Options, Warnings};
//!
//! let bytes = br#"{"meta": {"format_version": "4.10"}, "elements": []}"#;
//! let options = Options::default();
//! let plan = scenedec::measure(bytes, Some("bbmodel"), &options)?;
//! let mut memory = [0u64; 4096]; // 32 KiB: the plan is about 26 KiB, mostly scratch
//! let words = memory.get_mut(..plan.arena_words()).unwrap();
//! let mut arena = Arena::from_words(words);
//! let mut warnings = Warnings::new();
//! let scene = scenedec::decode_into(bytes, Some("bbmodel"), &options, &mut arena, &mut warnings)?;
//! assert_eq!(scene.meshes().len(), 0);
//! # Ok::<(), scenedec::Error>(())
//! ```
//!
//! Yaz0-compressed files are unwrapped first with [`unwrap_into`] (into the
//! same arena), then measured and decoded.
//!
//! RARC archives (`.arc`, `.szs`), the containers games ship J3D files in,
//! are not models: the entry points above refuse them with
//! [`ErrorCode::ArchiveNotModel`], and [`rarc`] reads them in place (their
//! tree, each member's path and bytes, compressed members into caller
//! memory).
//!
//! ## Features
//!
//! - *(none)*: `#![no_std]`, no `alloc`; [`measure`] and [`decode_into`].
//! - `alloc`: [`load`], which allocates the planned arena ([`load_plan`]) exactly once.
//! - `std` (default): `std::error::Error` for [`Error`], [`export`] (PNG
//!   files of decoded textures), and the `scenedec` command.

#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(clippy::cast_possible_truncation)]
// No panicking shortcuts outside tests (CI denies warnings, so these fail it).
#![cfg_attr(
    not(test),
    warn(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::unreachable
    )
)]
#![cfg_attr(test, allow(clippy::cast_possible_truncation))]
// No panicking index outside tests: `get`, iterators and fixed-size array
// patterns, or a local allow whose reason says why the index is in bounds.
#![cfg_attr(not(test), deny(clippy::indexing_slicing))]
// Arithmetic that could overflow or divide by zero: checked, or allowed per
// module with the bound that keeps it in range (docs/security.md).
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects))]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;
// Unit tests include helpers from `tests/support/` that name the crate.
#[cfg(test)]
extern crate self as scenedec;

pub mod arena;
pub mod bbmodel;
// `Arena`, `Footprint`, `ArenaReader`: re-exported by `arena`, the path to use.
mod carve;
// `data:image/png;base64,` texture sources decoded as a browser decodes them.
pub mod data_url;
pub mod error;
#[cfg(feature = "std")]
pub mod export;
pub mod gx;
pub mod inflate;
pub mod j3d;
pub mod json;
pub mod limits;
pub mod lzutf8;
mod model;
pub mod molang;
// Streaming PNG decoding to RGBA8 in caller memory (no heap).
pub mod png;
// RARC archives: read in place, members listed, found and decompressed.
pub mod rarc;
pub mod scene;
pub mod sniff;
pub mod yay0;
pub mod yaz0;

#[cfg(test)]
mod test_corpus;
#[cfg(test)]
mod test_rng;

pub use arena::{Arena, Plan};
pub use error::{Error, ErrorCode, Location, Warning, WarningCode, Warnings};
pub use limits::{BbmodelLimits, J3dLimits, RarcLimits};
#[cfg(feature = "alloc")]
pub use model::{Loaded, load, load_plan};
pub use model::{
    MeasureScratch, Options, decode_into, decode_with_plan, format_of, measure, measure_with,
    unwrap_into, unwrapped_len,
};
pub use scene::Scene;
