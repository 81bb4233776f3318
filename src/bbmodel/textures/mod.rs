//! Textures: what each entry of `textures` says (metadata), where its PNG
//! comes from and its pixels, frame strips, which texture a face shows
//! (default textures, layer composites, Hytale collections), and the
//! scene's texture and material records.
//!
//! Takes: the located document and the project's uuid tables. Gives: the
//! [`Textures`](entries::Textures) every element reads its faces with, and
//! the texture, mip, pixel and material arrays of the scene. Spec:
//! Supported ("Textures: PNG only", "Frame-strip (animated) textures",
//! "Texture wrap"), Conversion (the render-mode table, "Default texture",
//! "Layer composite"), Blockbench conventions 14–15, Limits (maxTextures,
//! maxDataUriChars, texture sizes).

pub(in crate::bbmodel) mod collections;
pub mod entries;
pub(in crate::bbmodel) mod frames;
pub(in crate::bbmodel) mod pixels;
pub(in crate::bbmodel) mod records;
pub(in crate::bbmodel) mod shown;
pub(in crate::bbmodel) mod source;
