//! `PngError`: what was wrong with a PNG file and at which byte.
//!
//! Plain data (a kind and an offset) so that building one never allocates;
//! `Display` names the problem in words.

use core::fmt;

/// What was wrong with the file (or, for the last three, with the call).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PngErrorKind {
    /// The first eight bytes are not the PNG signature.
    Signature,
    /// The first chunk is not an IHDR of length 13.
    NoHeader,
    /// Width or height zero or over 2³¹ − 1.
    BadSize,
    /// A colour type PNG does not define.
    BadColorType,
    /// A bit depth the colour type does not allow.
    BadBitDepth,
    /// A compression, filter or interlace method PNG does not define.
    BadMethod,
    /// A chunk's CRC does not match its type and data.
    Crc,
    /// A chunk length over 2³¹ − 1.
    ChunkTooLong,
    /// A chunk type that is not four ASCII letters.
    BadChunkType,
    /// A critical chunk this decoder does not know (its meaning is required).
    UnknownCriticalChunk,
    /// A second IHDR, PLTE or tRNS.
    DuplicateChunk,
    /// PLTE or tRNS after the image data, tRNS before PLTE, or IDAT chunks
    /// that are not one contiguous run.
    ChunkOutOfOrder,
    /// A PLTE that is empty, over 256 entries, not a multiple of 3 bytes,
    /// or in a greyscale image.
    BadPalette,
    /// An indexed-colour image without PLTE before its image data.
    MissingPalette,
    /// A tRNS of the wrong length for the colour type, longer than the
    /// palette, or in an image that has an alpha channel.
    BadTransparency,
    /// IEND before any IDAT.
    MissingImageData,
    /// An IEND whose length is not 0.
    BadEnd,
    /// A row whose filter type is over 4.
    BadFilterType,
    /// The zlib header or the deflate data is invalid.
    BadZlib,
    /// The zlib stream's Adler-32 does not match the data.
    Adler32,
    /// The zlib stream ended before the image was complete.
    TooLittleImageData,
    /// The zlib stream holds more data than the image.
    TooMuchImageData,
    /// The IDAT run ended before the zlib stream did.
    ImageDataUnfinished,
    /// The file ended before IEND.
    Truncated,
    /// (Caller) `pixels` is not `rgba8_len()` bytes.
    PixelsLength,
    /// (Caller) `scratch` is shorter than `scratch_len()`.
    ScratchTooShort,
    /// (Caller) a piece was fed with another kind of output than the first.
    OutputChanged,
}

impl PngErrorKind {
    /// A short description in words.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Signature => "not a PNG signature",
            Self::NoHeader => "no IHDR of length 13 first",
            Self::BadSize => "width or height 0 or over 2^31-1",
            Self::BadColorType => "unknown colour type",
            Self::BadBitDepth => "bit depth not allowed for the colour type",
            Self::BadMethod => "unknown compression, filter or interlace method",
            Self::Crc => "chunk CRC mismatch",
            Self::ChunkTooLong => "chunk length over 2^31-1",
            Self::BadChunkType => "chunk type is not four ASCII letters",
            Self::UnknownCriticalChunk => "unknown critical chunk",
            Self::DuplicateChunk => "duplicate IHDR, PLTE or tRNS",
            Self::ChunkOutOfOrder => "chunk out of order",
            Self::BadPalette => "invalid PLTE",
            Self::MissingPalette => "indexed image without PLTE",
            Self::BadTransparency => "invalid tRNS",
            Self::MissingImageData => "no IDAT before IEND",
            Self::BadEnd => "IEND with data",
            Self::BadFilterType => "row filter type over 4",
            Self::BadZlib => "invalid zlib stream",
            Self::Adler32 => "zlib Adler-32 mismatch",
            Self::TooLittleImageData => "zlib stream ends before the image is complete",
            Self::TooMuchImageData => "more image data than the header declares",
            Self::ImageDataUnfinished => "IDAT run ends before the zlib stream",
            Self::Truncated => "file ends before IEND",
            Self::PixelsLength => "pixel buffer is not width*height*4 bytes",
            Self::ScratchTooShort => "scratch buffer shorter than scratch_len()",
            Self::OutputChanged => "output kind changed between pieces",
        }
    }
}

/// A refused PNG: what was wrong and the byte offset in the file where the
/// decoder saw it (the start of the chunk, field or data piece at fault).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PngError {
    kind: PngErrorKind,
    offset: u64,
}

impl PngError {
    /// An error of `kind` at byte `offset`.
    pub const fn new(kind: PngErrorKind, offset: u64) -> Self {
        Self { kind, offset }
    }

    /// What was wrong.
    pub const fn kind(&self) -> PngErrorKind {
        self.kind
    }

    /// Byte offset in the file.
    pub const fn offset(&self) -> u64 {
        self.offset
    }
}

impl fmt::Display for PngError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PNG: {} at byte {}", self.kind.as_str(), self.offset)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for PngError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_says_what_and_where() {
        let e = PngError::new(PngErrorKind::Crc, 41);
        assert_eq!(std::format!("{e}"), "PNG: chunk CRC mismatch at byte 41");
    }
}
