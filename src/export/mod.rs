//! Writing decoded scenes out in standard formats (`std` only).
//!
//! - [`png`]: each texture level as a PNG file.
//! - [`gltf`]: the whole scene as glTF 2.0 (`.glb`, or `.gltf` + `.bin` + PNG).

pub mod gltf;
pub mod png;
