//! Where a texture's PNG bytes come from (an embedded data URL or a picked
//! file), and its header read with the size limits checked first.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "sizes from IHDR's sides (each below 2^31) multiplied in u64"
)]

use crate::bbmodel::document::value::{Path, error_at};
use crate::data_url::{DataUrl, PieceBuffer};
use crate::error::{Error, ErrorCode};
use crate::limits::BbmodelLimits;
use crate::png::{self, Decoder, DecoderMemory, Header, Output, PngError, Window};

/// What one image's validation or decode works in besides its window:
/// the PNG decoder's state and the data URL's piece buffers (25 KiB of
/// plain bytes). `measure_with` takes it from `MeasureScratch`, the fill
/// pass from the plan's scratch, so neither holds it on the stack.
#[repr(C)]
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable)]
pub struct ImageScratch {
    png: DecoderMemory,
    pieces: PieceBuffer,
}

impl ImageScratch {
    /// Zeroed scratch (a `const`, for statics).
    pub const fn new() -> Self {
        Self {
            png: DecoderMemory::new(),
            pieces: PieceBuffer::new(),
        }
    }
}

impl Default for ImageScratch {
    fn default() -> Self {
        Self::new()
    }
}

/// Where a texture's PNG bytes are.
#[derive(Clone, Copy, Debug)]
pub enum ImageSource<'a, 'p> {
    /// An embedded `data:image/png;base64,` source.
    DataUrl(DataUrl<'a>),
    /// A file the caller picked.
    File(&'p [u8]),
}

impl ImageSource<'_, '_> {
    /// The image's header, its size checked against the limits first.
    ///
    /// The spec's side and pixel limits are TEXTURE_TOO_LARGE "from the PNG
    /// header", so IHDR's width and height are compared as stored, before
    /// the rest of IHDR is validated (a side past 2³¹ − 1 is too large, not
    /// a bad PNG); then [`Header::read`] checks the signature, every field
    /// and the CRC (BAD_TEXTURE).
    pub fn header(&self, limits: &BbmodelLimits, path: &Path<'_>) -> Result<Header, Error> {
        let mut prefix = [0u8; png::HEADER_LEN];
        let n = match self {
            Self::DataUrl(url) => url.decode_prefix(&mut prefix),
            Self::File(bytes) => {
                let n = bytes.len().min(png::HEADER_LEN);
                if let (Some(dst), Some(src)) = (prefix.get_mut(..n), bytes.get(..n)) {
                    dst.copy_from_slice(src);
                }
                n
            }
        };
        let prefix = prefix.get(..n).unwrap_or_default();
        if let Some(size) = stored_size(prefix) {
            check_size(size, limits, path)?;
        }
        Header::read(prefix).map_err(|e| bad_png(path, &e))
    }

    /// Feeds the whole image to a decoder writing `out`, working in
    /// `memory`; the header and the bytes found after the zlib stream
    /// (see `Decoder::trailing_bytes`).
    fn decode(
        &self,
        out: &mut Output<'_>,
        memory: &mut ImageScratch,
    ) -> Result<(Header, u64), PngError> {
        let ImageScratch { png, pieces } = memory;
        let mut decoder = Decoder::new(png);
        match self {
            Self::DataUrl(url) => {
                url.for_each_piece_in(pieces, |piece| decoder.feed(piece, out))?;
            }
            Self::File(bytes) => decoder.feed(bytes, out)?,
        }
        let header = decoder.finish(out)?;
        Ok((header, decoder.trailing_bytes()))
    }

    /// Every check of a decode, without output memory but `window` and
    /// `memory`.
    pub fn validate(
        &self,
        window: &mut Window,
        memory: &mut ImageScratch,
    ) -> Result<Header, PngError> {
        self.decode(&mut Output::Validate(window), memory)
            .map(|(header, _)| header)
    }

    /// Decodes to RGBA8 rows, top first, into `pixels` (exactly
    /// [`Header::rgba8_len`] bytes) with `scratch` (at least
    /// [`Header::scratch_len`]); also returns the bytes after the zlib
    /// stream, which the fill pass warns about.
    pub fn decode_rgba8(
        &self,
        pixels: &mut [u8],
        scratch: &mut [u8],
        memory: &mut ImageScratch,
    ) -> Result<(Header, u64), PngError> {
        self.decode(&mut Output::Rgba8 { pixels, scratch }, memory)
    }
}

/// IHDR's width and height as stored, when `prefix` starts with a PNG
/// signature and an IHDR chunk.
fn stored_size(prefix: &[u8]) -> Option<[u32; 2]> {
    if prefix.get(..8)? != b"\x89PNG\r\n\x1a\n" || prefix.get(12..16)? != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(prefix.get(16..20)?.try_into().ok()?);
    let h = u32::from_be_bytes(prefix.get(20..24)?.try_into().ok()?);
    Some([w, h])
}

/// maxTextureSide and maxTexturePixels (TEXTURE_TOO_LARGE).
fn check_size(size: [u32; 2], limits: &BbmodelLimits, path: &Path<'_>) -> Result<(), Error> {
    let [w, h] = size;
    if u64::from(w.max(h)) > limits.max_texture_side
        || u64::from(w) * u64::from(h) > limits.max_texture_pixels
    {
        return Err(error_at(
            ErrorCode::TextureTooLarge,
            path,
            "texture too large",
            format_args!(
                "at most {} pixels a side and {} pixels, got {w}×{h}",
                limits.max_texture_side, limits.max_texture_pixels
            ),
        ));
    }
    Ok(())
}

/// BAD_TEXTURE for a PNG refused at `path`.
pub fn bad_png(path: &Path<'_>, e: &PngError) -> Error {
    error_at(
        ErrorCode::BadTexture,
        path,
        "bad texture",
        format_args!("a valid PNG expected ({e})"),
    )
}
