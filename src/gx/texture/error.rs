//! Why a texture level could not be decoded: apart from `mod.rs`, which
//! drives the format decoders, so that they and it import it from below.

use core::fmt;

/// Why a texture level could not be decoded. Small and `Copy`, so it can be
/// wrapped by a caller's own error type without allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextureError {
    /// `width * height * 4` (the output size) or the encoded size does not
    /// fit in `usize`.
    SizeOverflow,
    /// The encoded data is shorter than one level of this format and size
    /// (in bytes). Data longer than needed is fine (mip levels follow).
    DataTooShort {
        /// Bytes one level needs ([`encoded_size`](super::encoded_size)).
        needed: usize,
        /// Bytes given.
        got: usize,
    },
    /// The output slice is not exactly `width * height * 4` bytes long.
    OutputWrongSize {
        /// Bytes expected ([`decoded_size`](super::decoded_size)).
        expected: usize,
        /// Bytes given.
        got: usize,
    },
    /// A paletted format (C4, C8, C14X2) was given no palette.
    MissingPalette,
    /// A visible texel refers to a palette entry the palette does not have.
    /// Reported for the first such texel in block order; the output is then
    /// partly written.
    PaletteIndexOutOfRange {
        /// The texel's palette index.
        index: u16,
        /// Entries in the palette (its byte length / 2).
        entries: usize,
    },
}

impl fmt::Display for TextureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::SizeOverflow => f.write_str("texture size overflows usize"),
            Self::DataTooShort { needed, got } => write!(
                f,
                "texture data too short: {needed} bytes needed, {got} given"
            ),
            Self::OutputWrongSize { expected, got } => write!(
                f,
                "texture output buffer is {got} bytes, {expected} expected"
            ),
            Self::MissingPalette => f.write_str("paletted texture format without a palette"),
            Self::PaletteIndexOutOfRange { index, entries } => write!(
                f,
                "palette index {index} out of range for a palette of {entries} entries"
            ),
        }
    }
}

impl core::error::Error for TextureError {}
