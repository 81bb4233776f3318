//! TEX1: every header checked against the limits before anything is
//! decoded, then texture and mip records and (once per shared image) the
//! decoded RGBA8 levels.

use super::names::Pool;
use super::{Model, arena_mismatch, index32, sum};
use crate::error::{Error, ErrorCode, Warning, WarningCode, Warnings};
use crate::gx::texture;
use crate::j3d::tex1::{Tex1, Texture};
use crate::limits::{J3dLimits, check};
use crate::scene::{MipRecord, TextureFlags, TextureRecord};

impl<'a> Model<'a> {
    /// Checks TEX1 against the limits (count, side, texels per texture,
    /// RGBA8 bytes of all decoded data) and every palette index, before
    /// anything is decoded; returns the scene's texture, mip and pixel-byte
    /// counts. Data shared by several headers is counted once. With
    /// `skip_texels` only the headers are checked and no mip or pixel byte
    /// is counted.
    pub(super) fn count_textures(
        &self,
        limits: &J3dLimits,
        skip_texels: bool,
    ) -> Result<(usize, usize, usize), Error> {
        let Some(tex1) = &self.tex1 else {
            return Ok((0, 0, 0));
        };
        check(
            tex1.len() as u64,
            limits.max_textures,
            ErrorCode::TooManyTextures,
            "textures (maxTextures)",
            tex1.location(0),
        )?;
        let (mut mips, mut bytes) = (0usize, 0u64);
        for i in 0..tex1.len() {
            let t = tex1.texture(i)?;
            let at = || tex1.location(t.header_offset);
            check(
                u64::from(t.width.max(t.height)),
                limits.max_texture_side,
                ErrorCode::TextureTooLarge,
                "texture side in texels (maxTextureSide)",
                at(),
            )?;
            check(
                t.texels(),
                limits.max_texture_pixels,
                ErrorCode::TextureTooLarge,
                "texels of one texture's mip levels (maxTexturePixels)",
                at(),
            )?;
            let Some((_, data_at)) = t.data else {
                continue;
            };
            if skip_texels {
                // Headers only: no level is decoded, so no data is checked.
                continue;
            }
            mips = mips.saturating_add(usize::from(t.levels()));
            if shared_with_earlier(tex1, &t)?.is_some() {
                continue;
            }
            bytes = bytes.saturating_add(t.decoded_bytes());
            check(
                bytes,
                limits.max_texture_bytes,
                ErrorCode::TextureTooLarge,
                "RGBA8 bytes of all decoded textures (maxTextureBytes)",
                at(),
            )?;
            // Mip records hold u32 byte offsets into the pixel array.
            check(
                bytes,
                u64::from(u32::MAX),
                ErrorCode::TextureTooLarge,
                "RGBA8 bytes of all decoded textures (u32 offsets, maxTextureBytes)",
                at(),
            )?;
            t.check_palette_indices().map_err(|e| {
                tex1.error(
                    ErrorCode::BadTexture,
                    data_at,
                    format_args!("texture {i}: {e}"),
                )
            })?;
        }
        let pixels = usize::try_from(bytes).map_err(|_| {
            Error::nowhere(
                ErrorCode::TextureTooLarge,
                format_args!("{bytes} bytes of textures do not fit in memory"),
            )
        })?;
        Ok((tex1.len(), mips, pixels))
    }

    /// Writes every TEX1 texture: its record, its mip records, and (once per
    /// shared image) its decoded RGBA8 levels; with `skip_texels`, only the
    /// records, flagged [`TextureFlags::TEXELS_LEFT_OUT`].
    pub(super) fn fill_textures(
        &self,
        textures: &mut [TextureRecord],
        mips: &mut [MipRecord],
        pixels: &mut [u8],
        pool: &mut Pool<'_>,
        warnings: &mut Warnings,
        skip_texels: bool,
    ) -> Result<(), Error> {
        let Some(tex1) = &self.tex1 else {
            return Ok(());
        };
        let (mut mip, mut cursor) = (0usize, 0usize);
        for i in 0..textures.len() {
            let t = tex1.texture(i)?;
            let mut record = TextureRecord {
                name: pool.name(t.name)?,
                width: t.width,
                height: t.height,
                flags: 0,
                source_format: u32::from(t.format.code()),
                first_mip: index32(mip)?,
                mip_count: 0,
                wrap_u: t.wrap_s.to_scene() as u8,
                wrap_v: t.wrap_t.to_scene() as u8,
                min_filter: t.min_filter.base() as u8,
                mag_filter: t.mag_filter.base() as u8,
                uv_width: t.width as f32,
                uv_height: t.height as f32,
                frame_count: 1,
                ..TextureRecord::default()
            };
            match t.data {
                None => {
                    record.flags = TextureFlags::MISSING;
                    warnings.push(
                        Warning::new(
                            WarningCode::MissingTexture,
                            tex1.location(t.header_offset),
                            format_args!("texture {i} has no image data (data offset 0)"),
                        )
                        .on(format_args!("texture {i}")),
                    );
                }
                Some(_) if skip_texels => record.flags = TextureFlags::TEXELS_LEFT_OUT,
                Some((data, _)) => {
                    let levels = usize::from(t.levels());
                    if let Some(j) = shared_with_earlier(tex1, &t)? {
                        // Same pixels: point at the first texture's levels.
                        let first = textures.get(j).ok_or_else(arena_mismatch)?.first_mip as usize;
                        for k in 0..levels {
                            let level = *mips.get(sum(first, k)?).ok_or_else(arena_mismatch)?;
                            *mips.get_mut(sum(mip, k)?).ok_or_else(arena_mismatch)? = level;
                        }
                    } else {
                        let palette = t.palette.map(|p| (p.format, p.bytes));
                        for (k, level) in t.mip_levels().enumerate() {
                            let size = texture::decoded_size(level.width, level.height)
                                .ok_or_else(arena_mismatch)?;
                            let out = pixels
                                .get_mut(cursor..)
                                .and_then(|p| p.get_mut(..size))
                                .ok_or_else(arena_mismatch)?;
                            let encoded = data.get(level.offset..).unwrap_or_default();
                            texture::decode(
                                t.format,
                                level.width,
                                level.height,
                                encoded,
                                palette,
                                out,
                            )
                            .map_err(|e| {
                                tex1.error(
                                    ErrorCode::BadTexture,
                                    t.header_offset,
                                    format_args!("texture {i} level {k}: {e}"),
                                )
                            })?;
                            *mips.get_mut(sum(mip, k)?).ok_or_else(arena_mismatch)? = MipRecord {
                                offset: index32(cursor)?,
                                width: level.width,
                                height: level.height,
                            };
                            cursor = sum(cursor, size)?;
                        }
                    }
                    record.mip_count = index32(levels)?;
                    mip = sum(mip, levels)?;
                }
            }
            *textures.get_mut(i).ok_or_else(arena_mismatch)? = record;
        }
        if mip != mips.len() || cursor != pixels.len() {
            return Err(arena_mismatch());
        }
        Ok(())
    }
}

/// The first texture before `t` whose pixels are `t`'s (see
/// [`Texture::shares_data_with`]). Headers are compared only when their data
/// offsets match, so this stays cheap for up to `max_textures` headers.
fn shared_with_earlier(tex1: &Tex1<'_>, t: &Texture<'_>) -> Result<Option<usize>, Error> {
    let Some((_, at)) = t.data else {
        return Ok(None);
    };
    for j in 0..t.index {
        if tex1.data_offset(j)? == Some(at) && t.shares_data_with(&tex1.texture(j)?) {
            return Ok(Some(j));
        }
    }
    Ok(None)
}
