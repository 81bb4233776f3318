//! Which scene pixels a glTF image holds: one texture, or layers
//! composited. Both the image writer and the frame-strip cut read it.

/// Which pixels an image holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pixels {
    /// One scene texture, as stored.
    Texture(usize),
    /// Scene textures composited bottom first (up to three).
    Layers([usize; 3], usize),
    /// A J3D material's TEV stages baked over its textures
    /// ([`super::baked`]): the material, and the texture whose size, name
    /// and sampler the image takes.
    Baked(usize, usize),
}

impl Pixels {
    /// The texture whose name and sampler the image takes (the bottom layer).
    pub const fn first(&self) -> usize {
        match self {
            Self::Texture(t) => *t,
            Self::Layers(l, _) => l[0],
            Self::Baked(_, t) => *t,
        }
    }
}
