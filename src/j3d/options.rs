//! How to read a J3D file: apart from `mod.rs`, which drives the model
//! passes that read these options, so that both import it from below.

use crate::limits::J3dLimits;

/// An animation file to attach: its name (the clip's name) and its bytes.
pub type AnimationFile<'o> = (&'o str, &'o [u8]);

/// How to read a J3D file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options<'o> {
    /// The bounds every count and size is checked against.
    pub limits: J3dLimits,
    /// Leave texels out: every TEX1 header still becomes a texture record
    /// (name, size, format, wrap, filters), but no level is decoded, so the
    /// plan holds no mip records and no pixel bytes, and the texture data's
    /// size limit and palette indices are not checked. For geometry-only
    /// users; docs/scene-format.md says what such a record looks like.
    pub skip_texels: bool,
    /// Animation files (BCK, BCA, BTK, BRK, BPK, BTP, BVA) to attach, in
    /// order: each becomes one clip of the scene named after its file
    /// (docs/j3d.md, "Attaching animations"). The library reads no files:
    /// the caller passes the bytes.
    pub animations: &'o [AnimationFile<'o>],
}
