//! How to read a .bbmodel file: the limits and the texture files a caller
//! offers (the spec's `options`).

use crate::limits::BbmodelLimits;

/// A texture file the caller picked next to the model: its file name and bytes
/// (the spec's `options.textureFiles`).
pub type TextureFile<'o> = (&'o str, &'o [u8]);

/// How to read a .bbmodel file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options<'o> {
    /// The bounds every count and size is checked against.
    pub limits: BbmodelLimits,
    /// Texture files matched by name against textures that are not embedded.
    pub texture_files: &'o [TextureFile<'o>],
}
