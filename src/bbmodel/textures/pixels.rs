//! A texture's image: its validation and its pixels (Supported, "Textures:
//! PNG only").
//!
//! `measure` reads each header and validates each image through a 32 KiB
//! window ([`crate::png::Output::Validate`]), so that a file `measure` accepts
//! never fails to decode; the fill pass decodes straight into the scene's
//! pixel array, feeding the decoder the data URL's base64 in pieces, so the
//! PNG file itself is never held.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "sample arithmetic on u8/u16 values, and sizes from IHDR's sides (each below 2^31, checked on read) computed in u64"
)]

use crate::bbmodel::document::value::{Path, TEXTURES, error_at};
use crate::bbmodel::options::TextureFile;
use crate::bbmodel::textures::entries::TextureMeta;
use crate::bbmodel::textures::source::{ImageScratch, ImageSource, bad_png};
use crate::error::{Error, ErrorCode, Location, MAX_WARNINGS, Warning, WarningCode, Warnings};
use crate::limits::BbmodelLimits;
use crate::png::{PngError, Window};
use crate::scene::{MipRecord, TextureRecord};

/// What the decoded images need: the scene's pixel bytes and mip records,
/// and the decoder's scratch (the largest any one image needs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImagePlan {
    /// RGBA8 bytes of every image together.
    pub pixels: usize,
    /// Images decoded (one mip level each).
    pub images: usize,
    /// Scratch bytes of the largest decode.
    pub scratch: usize,
}

/// The images' sizes, added up from their headers as the textures are read.
#[derive(Clone, Copy, Debug, Default)]
pub struct ImageTally {
    total: u64,
    plan: ImagePlan,
}

impl ImageTally {
    /// Adds texture `meta`'s image, if it has one.
    pub fn add(&mut self, meta: &TextureMeta<'_>) {
        if let Some(header) = meta.png {
            self.total = self.total.saturating_add(header.rgba8_len());
            self.plan.images += 1;
            let scratch = usize::try_from(header.scratch_len()).unwrap_or(usize::MAX);
            self.plan.scratch = self.plan.scratch.max(scratch);
        }
    }

    /// The plan, once every texture is added: checks maxTextureBytes.
    pub fn finish(self, limits: &BbmodelLimits) -> Result<ImagePlan, Error> {
        plan_images(self.total, self.plan, limits)
    }
}

/// Sizes the images from their headers, before anything is inflated, and
/// checks maxTextureBytes (scenedec's bound on all textures together; the
/// spec's limits are per texture).
fn plan_images(
    total: u64,
    mut plan: ImagePlan,
    limits: &BbmodelLimits,
) -> Result<ImagePlan, Error> {
    // Mip offsets are 32-bit, so no override reaches past 4 GiB.
    let bound = limits.max_texture_bytes.min(u64::from(u32::MAX));
    if total > bound {
        return Err(error_at(
            ErrorCode::TextureTooLarge,
            &Path::key("textures"),
            "textures too large",
            format_args!(
                "at most maxTextureBytes ({bound}) RGBA8 bytes of all textures together, got {total}"
            ),
        ));
    }
    plan.pixels = usize::try_from(total).map_err(|_| {
        error_at(
            ErrorCode::TextureTooLarge,
            &Path::key("textures"),
            "textures too large",
            format_args!("{total} RGBA8 bytes do not fit this machine's memory"),
        )
    })?;
    Ok(plan)
}

/// Where texture `meta`'s image is.
fn source<'a, 'p>(
    meta: &TextureMeta<'a>,
    picked: &[TextureFile<'p>],
) -> Option<ImageSource<'a, 'p>> {
    match (meta.data_url, meta.picked) {
        (Some(url), _) => Some(ImageSource::DataUrl(url)),
        (None, Some(i)) => Some(ImageSource::File(picked.get(i)?.1)),
        (None, None) => None,
    }
}

/// BAD_TEXTURE for texture `index`'s image: at its `source` when embedded,
/// at the texture when it is a picked file.
fn bad_image(index: usize, image: &ImageSource<'_, '_>, e: &PngError) -> Error {
    let texture = TEXTURES.with_index(index);
    match image {
        ImageSource::DataUrl(_) => bad_png(&texture.with_key("source"), e),
        ImageSource::File(_) => bad_png(&texture, e),
    }
}

/// Checks texture `index`'s image as its decode will (`measure`: no
/// memory but the caller's 32 KiB window and its decoder's `memory`).
pub fn validate_image(
    index: usize,
    meta: &TextureMeta<'_>,
    picked: &[TextureFile<'_>],
    window: &mut Window,
    memory: &mut ImageScratch,
) -> Result<(), Error> {
    if let Some(image) = source(meta, picked) {
        image
            .validate(window, memory)
            .map_err(|e| bad_image(index, &image, &e))?;
    }
    Ok(())
}

/// Decodes images into the scene's pixels, one mip record each, in
/// texture order.
#[derive(Clone, Copy, Debug, Default)]
pub struct ImageWriter {
    offset: usize,
    mip: usize,
}

impl ImageWriter {
    /// Decodes texture `index`'s image (if it has one) after the images
    /// before it, and points its `record` at its level.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub fn decode(
        &mut self,
        index: usize,
        meta: &TextureMeta<'_>,
        picked: &[TextureFile<'_>],
        record: &mut TextureRecord,
        mips: &mut [MipRecord],
        pixels: &mut [u8],
        scratch: &mut [u8],
        memory: &mut [ImageScratch],
        mismatch: fn() -> Error,
    ) -> Result<u64, Error> {
        let (offset, mip, i) = (self.offset, self.mip, index);
        let (Some(image), Some(header)) = (source(meta, picked), meta.png) else {
            return Ok(0);
        };
        let memory = memory.first_mut().ok_or_else(mismatch)?;
        let len = usize::try_from(header.rgba8_len()).map_err(|_| mismatch())?;
        let end = offset.checked_add(len).ok_or_else(mismatch)?;
        let out = pixels.get_mut(offset..end).ok_or_else(mismatch)?;
        let (_, trailing) = image
            .decode_rgba8(out, scratch, memory)
            .map_err(|e| bad_image(i, &image, &e))?;
        *mips.get_mut(mip).ok_or_else(mismatch)? = MipRecord {
            offset: u32::try_from(offset).map_err(|_| mismatch())?,
            width: header.width,
            height: header.height,
        };
        record.first_mip = u32::try_from(mip).map_err(|_| mismatch())?;
        record.mip_count = 1;
        (self.offset, self.mip) = (end, mip + 1);
        Ok(trailing)
    }
}

/// Textures whose PNG had bytes after its zlib stream, noted while the
/// fill pass holds the warnings list elsewhere and warned about after it.
#[derive(Debug, Default)]
pub struct TrailingData {
    found: heapless::Vec<(usize, u64), MAX_WARNINGS>,
}

impl TrailingData {
    /// Notes `bytes` after texture `index`'s zlib stream (none: nothing).
    pub fn note(&mut self, index: usize, bytes: u64) {
        if bytes > 0 {
            // Past MAX_WARNINGS notes, the list of warnings is full anyway.
            let _ = self.found.push((index, bytes));
        }
    }

    /// One TRAILING_IMAGE_DATA warning per texture noted, at its path
    /// (`source` for a data URL's image).
    pub fn warn(&self, warnings: &mut Warnings) {
        for &(index, bytes) in &self.found {
            warnings.push(Warning::new(
                WarningCode::TrailingImageData,
                Location::Json(TEXTURES.with_index(index).render()),
                format_args!("{bytes} bytes after the PNG's zlib stream: ignored"),
            ));
        }
    }
}
