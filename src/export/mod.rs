//! Writing decoded scenes out in standard formats (`std` only).
//!
//! - [`png`]: each texture level as a PNG file.

pub mod png;
