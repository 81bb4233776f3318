//! The block (tile) layout shared by every GX texture format.
//!
//! Blocks are stored row-major over the padded image. A format with a
//! strip pass writes a strip's whole blocks straight into its output rows
//! (all of them at once, or one row at a time); otherwise (and for the
//! right edge block) each block is decoded into a small RGBA8 [`Tile`], and
//! [`decode_tiled`] copies the visible part of that tile into the output
//! rows.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "texel arithmetic on u8/u16 channel values with constant factors, and coordinates below the texture's side, whose sizes were checked with checked_mul first"
)]

use super::TextureError;

/// One RGBA8 texel.
pub(super) type Texel = [u8; 4];

/// Texels in the largest block (8x8).
pub(super) const TILE_TEXELS: usize = 64;

/// Scratch space for one decoded block, row-major with a row stride of the
/// format's block width. Only the first `WIDTH * HEIGHT` texels are used.
pub(super) type Tile = [Texel; TILE_TEXELS];

/// One texture format's block decoder.
pub(super) trait BlockDecoder {
    /// Block width in texels.
    const WIDTH: usize;
    /// Block height in texels.
    const HEIGHT: usize;
    /// Encoded bytes per block.
    const BYTES: usize;

    /// Decodes one block. `src` is exactly [`Self::BYTES`] long. Texels
    /// outside `visible_w` x `visible_h` (block padding) are never copied to
    /// the output; a decoder may skip checks on them.
    fn decode_block(
        &self,
        src: &[u8],
        tile: &mut Tile,
        visible_w: usize,
        visible_h: usize,
    ) -> Result<(), TextureError>;

    /// Whether [`Self::decode_row`] may write the whole blocks of a strip,
    /// `src`: false for a format without a row pass, and for a strip whose
    /// indices its palette may lack (the block path then finds the first in
    /// block order, as it always has).
    #[inline(always)]
    fn rows_ready(&self, _src: &[u8]) -> bool {
        false
    }

    /// Output row `Y` of a strip's whole blocks: `src` holds the blocks,
    /// `out` is `WIDTH * 4` bytes per block. Only called when
    /// [`Self::rows_ready`] said so; each texel is stored once, straight
    /// into its row, with no tile between.
    #[inline(always)]
    fn decode_row<const Y: usize>(&self, _src: &[u8], _out: &mut [u8]) {}

    /// A strip's whole blocks (`src`) into its first `visible` rows, each
    /// `WIDTH * 4` bytes per block (the rest of `rows` is empty), when
    /// [`Self::rows_ready`] said so. The default writes a row at a time.
    #[inline(always)]
    fn decode_strip(&self, src: &[u8], rows: &mut StripRows<'_>, visible: usize)
    where
        Self: Sized,
    {
        by_rows(self, src, rows, visible);
    }
}

/// Runs an SSE2 block decoder of `B` input bytes and `O` output bytes when
/// the block has its full size (always, from [`decode_tiled`]);
/// `false` sends the caller to its scalar loop.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(super) fn sse2_block<const B: usize, const O: usize>(
    src: &[u8],
    tile: &mut Tile,
    decode: fn(&[u8; B], &mut [u8; O]),
) -> bool {
    match (
        src.first_chunk::<B>(),
        tile.as_flattened_mut().first_chunk_mut::<O>(),
    ) {
        (Some(src), Some(out)) => {
            decode(src, out);
            true
        }
        _ => false,
    }
}

/// Implements [`BlockDecoder`] for a format whose blocks decode alike
/// whatever part of them is visible: `sse2::$simd` on x86-64 with SSE2,
/// `$scalar(src, tile)` elsewhere; `strips:` adds the SSE2 strip methods
/// ([`sse2_strip_methods`]). One definition for I4, I8, IA4, IA8, RGB565,
/// RGB5A3, RGBA8 and CMPR; the palette formats check indices per texel and
/// write their own.
macro_rules! sse2_block_decoder {
    ($name:ty, $width:literal x $height:literal, $bytes:literal, $simd:ident, $scalar:path $(, strips: $($strips:tt)+)?) => {
        impl super::tiles::BlockDecoder for $name {
            const WIDTH: usize = $width;
            const HEIGHT: usize = $height;
            const BYTES: usize = $bytes;

            #[inline(always)]
            fn decode_block(
                &self,
                src: &[u8],
                tile: &mut super::tiles::Tile,
                _: usize,
                _: usize,
            ) -> Result<(), super::TextureError> {
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                if super::tiles::sse2_block(src, tile, super::sse2::$simd) {
                    return Ok(());
                }
                $scalar(src, tile);
                Ok(())
            }

            $(super::tiles::sse2_strip_methods!($($strips)+);)?
        }
    };
}
pub(super) use sse2_block_decoder;

/// The strip methods of a format whose SSE2 code writes whole rows, ready
/// for every strip. `($rows, $strip)`, a 4x4 format (IA8, RGB565, RGB5A3,
/// RGBA8): row `Y` by `$rows`, a strip of all four rows in block order by
/// `$strip`, a shorter one row by row. `(eight_rows $strip)`, CMPR (no row
/// pass): a strip of all eight rows by `$strip`, the image's shorter last
/// strip block by block through the tile ([`by_tiles`]).
macro_rules! sse2_strip_methods {
    ($rows:ident, $strip:ident) => {
        super::tiles::sse2_strip_methods!(@ready);

        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        #[inline(always)]
        fn decode_row<const Y: usize>(&self, src: &[u8], out: &mut [u8]) {
            super::sse2::$rows::<Y>(src, out);
        }

        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        #[inline(always)]
        fn decode_strip(&self, src: &[u8], rows: &mut super::tiles::StripRows<'_>, visible: usize) {
            if let ([r0, r1, r2, r3, ..], 4) = (&mut *rows, visible) {
                super::sse2::$strip(src, [r0, r1, r2, r3]);
                return;
            }
            super::tiles::by_rows(self, src, rows, visible);
        }
    };
    (eight_rows $strip:ident) => {
        super::tiles::sse2_strip_methods!(@ready);

        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        #[inline(always)]
        fn decode_strip(&self, src: &[u8], rows: &mut super::tiles::StripRows<'_>, visible: usize) {
            if visible == 8 {
                let [r0, r1, r2, r3, r4, r5, r6, r7] = rows.each_mut();
                super::sse2::$strip(src, [r0, r1, r2, r3, r4, r5, r6, r7]);
                return;
            }
            super::tiles::by_tiles(self, src, rows, visible);
        }
    };
    (@ready) => {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        #[inline(always)]
        fn rows_ready(&self, _: &[u8]) -> bool {
            true
        }
    };
}
pub(super) use sse2_strip_methods;

/// A strip's output rows, one per texel row of its blocks (empty slices
/// below the image's last row).
pub(super) type StripRows<'a> = [&'a mut [u8]; MAX_BLOCK_HEIGHT];

/// [`BlockDecoder::decode_strip`] a row at a time.
#[inline(always)]
pub(super) fn by_rows<D: BlockDecoder>(
    decoder: &D,
    src: &[u8],
    rows: &mut StripRows<'_>,
    visible: usize,
) {
    for (y, row) in rows.iter_mut().enumerate().take(visible) {
        row_at(decoder, y, src, row);
    }
}

/// [`BlockDecoder::decode_strip`] a block at a time through a tile, for a
/// strip of `visible` rows (fewer than the block's height: the rows below
/// the image are not there to write).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(super) fn by_tiles<D: BlockDecoder>(
    decoder: &D,
    src: &[u8],
    rows: &mut StripRows<'_>,
    visible: usize,
) {
    let mut tile: Tile = [[0; 4]; TILE_TEXELS];
    for block in src.chunks_exact(D::BYTES) {
        if decoder
            .decode_block(block, &mut tile, D::WIDTH, visible)
            .is_ok()
        {
            copy_rows(rows, &tile, D::WIDTH, visible, D::WIDTH * 4);
        }
    }
}

/// [`BlockDecoder::decode_row`] for a row number known only at run time.
#[inline(always)]
fn row_at<D: BlockDecoder>(decoder: &D, y: usize, src: &[u8], out: &mut [u8]) {
    match y {
        0 => decoder.decode_row::<0>(src, out),
        1 => decoder.decode_row::<1>(src, out),
        2 => decoder.decode_row::<2>(src, out),
        3 => decoder.decode_row::<3>(src, out),
        4 => decoder.decode_row::<4>(src, out),
        5 => decoder.decode_row::<5>(src, out),
        6 => decoder.decode_row::<6>(src, out),
        7 => decoder.decode_row::<7>(src, out),
        _ => {}
    }
}

/// Moves the first `n` bytes of each tile row to the front of its output
/// row and advances that row past them. `rows` holds the block row's output
/// rows (empty slices below the image's last row), each starting at the
/// block's first byte.
#[inline(always)]
fn copy_rows(rows: &mut StripRows<'_>, tile_rows: &[Texel], width: usize, height: usize, n: usize) {
    for (row_out, row_tile) in rows
        .iter_mut()
        .zip(tile_rows.chunks_exact(width))
        .take(height)
    {
        if let (Some(dst), Some(src)) =
            (row_out.split_off_mut(..n), row_tile.as_flattened().get(..n))
        {
            dst.copy_from_slice(src);
        }
    }
}

/// The tallest block (8 texels).
const MAX_BLOCK_HEIGHT: usize = 8;

/// One strip whose whole blocks go straight into its rows
/// ([`BlockDecoder::decode_strip`]); the edge block, if any, through the
/// tile.
#[inline(always)]
fn strip_in_rows<D: BlockDecoder>(
    decoder: &D,
    strip: &mut [u8],
    strip_src: &[u8],
    row_bytes: usize,
    full_blocks: usize,
    tile: &mut Tile,
) -> Result<(), TextureError> {
    let rows = strip.len() / row_bytes;
    let (full_src, edge_src) = strip_src
        .split_at_checked(full_blocks * D::BYTES)
        .unwrap_or_default();
    let full_bytes = full_blocks * D::WIDTH * 4;
    let mut full_rows = StripRows::default();
    let mut edge_rows = StripRows::default();
    for ((row, full), edge) in strip
        .chunks_exact_mut(row_bytes)
        .zip(&mut full_rows)
        .zip(&mut edge_rows)
    {
        (*full, *edge) = row.split_at_mut_checked(full_bytes).unwrap_or_default();
    }
    decoder.decode_strip(full_src, &mut full_rows, rows);
    if let Some(block) = edge_src.get(..D::BYTES) {
        let last_w = row_bytes / 4 - full_blocks * D::WIDTH;
        decoder.decode_block(block, tile, last_w, rows)?;
        copy_rows(&mut edge_rows, tile, D::WIDTH, D::HEIGHT, last_w * 4);
    }
    Ok(())
}

/// Decodes a `width` x `height` level laid out in `D`'s blocks. The caller
/// has checked that `out` is exactly `width * height * 4` bytes and `data`
/// at least the level's encoded size.
pub(super) fn decode_tiled<D: BlockDecoder>(
    decoder: &D,
    width: usize,
    height: usize,
    data: &[u8],
    out: &mut [u8],
) -> Result<(), TextureError> {
    if width == 0 || height == 0 {
        return Ok(());
    }
    let row_bytes = width.checked_mul(4).ok_or(TextureError::SizeOverflow)?;
    let strip_bytes = row_bytes
        .checked_mul(D::HEIGHT)
        .ok_or(TextureError::SizeOverflow)?;
    let strip_src_bytes = width
        .div_ceil(D::WIDTH)
        .checked_mul(D::BYTES)
        .ok_or(TextureError::SizeOverflow)?;
    let full_blocks = width / D::WIDTH;
    let last_w = width % D::WIDTH;
    let mut tile: Tile = [[0; 4]; TILE_TEXELS];

    for (strip, strip_src) in out
        .chunks_mut(strip_bytes)
        .zip(data.chunks_exact(strip_src_bytes))
    {
        let rows = strip.len() / row_bytes;
        if decoder.rows_ready(strip_src.get(..full_blocks * D::BYTES).unwrap_or_default()) {
            strip_in_rows(decoder, strip, strip_src, row_bytes, full_blocks, &mut tile)?;
            continue;
        }
        // The strip's output rows, each advanced past a block as it is
        // written: one split per row and block, no offsets recomputed.
        let mut out_rows = strip.chunks_exact_mut(row_bytes);
        let mut row_slices: [&mut [u8]; MAX_BLOCK_HEIGHT] =
            core::array::from_fn(|_| out_rows.next().unwrap_or_default());
        let mut blocks = strip_src.chunks_exact(D::BYTES);
        // Whole-width blocks: the copy length is a constant per format.
        for block in blocks.by_ref().take(full_blocks) {
            decoder.decode_block(block, &mut tile, D::WIDTH, rows)?;
            copy_rows(&mut row_slices, &tile, D::WIDTH, D::HEIGHT, D::WIDTH * 4);
        }
        // The right edge block: present only when the width is not a
        // multiple of the block width (then `last_w` is its visible width).
        if let Some(block) = blocks.next() {
            decoder.decode_block(block, &mut tile, last_w, rows)?;
            copy_rows(&mut row_slices, &tile, D::WIDTH, D::HEIGHT, last_w * 4);
        }
    }
    Ok(())
}
