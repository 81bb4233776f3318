//! The push decoder: the file's bytes in pieces of any size, in order,
//! walked chunk by chunk (length, type, data, CRC) with every order rule
//! checked as the chunk starts and every checked CRC compared as it ends.

use super::crc;
use super::error::{PngError, PngErrorKind};
use super::expand::{Expander, Lut};
use super::header::{ColorType, HEADER_LEN, Header, MAX_U31, WINDOW_LEN};
use super::image::{ImageData, Sink};
use crate::inflate::Tables;

/// The inflate window a [`Output::Validate`] decode inflates through.
/// Eight-aligned, so that a J3D measure can mark its hierarchy's seen-sets
/// in the same bytes (`MeasureScratch` serves one format per call).
#[repr(C, align(8))]
pub struct Window(pub(crate) [u8; WINDOW_LEN]);

impl Window {
    /// A zeroed window (32 KiB; on the stack or in a static, as you like).
    pub const fn new() -> Self {
        Self([0; WINDOW_LEN])
    }
}

impl Default for Window {
    fn default() -> Self {
        Self::new()
    }
}

/// A decoder's large state, in memory the caller places (an arena, a
/// static) rather than the decoder's frame: the inflater's tables, the
/// palette's RGBA8 table, PLTE and tRNS ([`DecoderMemory::LEN`] bytes of
/// plain integers; one serves one decode at a time).
#[repr(C)]
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable)]
pub struct DecoderMemory {
    inflate: Tables,
    lut: Lut,
    palette: [u8; 768],
    transparency: [u8; 256],
}

impl DecoderMemory {
    /// Bytes of one [`DecoderMemory`].
    pub const LEN: usize = core::mem::size_of::<Self>();

    /// Zeroed memory (a `const`, for statics).
    pub const fn new() -> Self {
        Self {
            inflate: Tables::new(),
            lut: [[0; 4]; 256],
            palette: [0; 768],
            transparency: [0; 256],
        }
    }
}

impl Default for DecoderMemory {
    fn default() -> Self {
        Self::new()
    }
}

/// What a decode writes, the same for every piece of one file.
pub enum Output<'m> {
    /// Check everything a decode checks (chunks, CRCs, order rules, zlib
    /// stream, exact data length, filter bytes) without any output memory,
    /// inflating through the caller's 32 KiB window.
    Validate(&'m mut Window),
    /// Decode to RGBA8 rows top to bottom. `pixels.len()` must be
    /// `rgba8_len()` and `scratch.len()` at least `scratch_len()`; anything
    /// else is an error, not a panic.
    Rgba8 {
        /// The image, `Header::rgba8_len` bytes.
        pixels: &'m mut [u8],
        /// At least `Header::scratch_len` bytes.
        scratch: &'m mut [u8],
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Collecting the signature and IHDR.
    Header,
    /// Collecting a chunk's length and type.
    ChunkHead,
    /// Inside a chunk's data.
    ChunkBody,
    /// Collecting a chunk's CRC.
    ChunkCrc,
    /// After IEND: anything more is ignored.
    End,
}

/// A streaming push decoder: fed the file's bytes in pieces of any size
/// (1 byte to all of it), in order. Holds the chunk parser's state and
/// the inflater's small state (a few hundred bytes); the rest is in the
/// caller's [`DecoderMemory`].
pub struct Decoder<'m> {
    stage: Stage,
    /// Bytes of the file consumed so far.
    offset: u64,
    held: [u8; HEADER_LEN],
    held_len: usize,
    header: Option<Header>,
    chunk_type: [u8; 4],
    chunk_len: u32,
    remaining: u32,
    chunk_start: u64,
    /// Whether this chunk's CRC is computed and compared.
    checked: bool,
    crc: u32,
    palette: &'m mut [u8; 768],
    palette_len: Option<usize>,
    transparency: &'m mut [u8; 256],
    transparency_len: Option<usize>,
    in_idat: bool,
    idat_ended: bool,
    /// The palette's table, until the image starts and its expander takes it.
    lut: Option<&'m mut Lut>,
    expander: Option<Expander<'m>>,
    image: ImageData<'m>,
    validating: Option<bool>,
    failed: Option<PngError>,
}

impl<'m> Decoder<'m> {
    /// A decoder before the first byte, working in `memory`.
    pub fn new(memory: &'m mut DecoderMemory) -> Self {
        let DecoderMemory {
            inflate,
            lut,
            palette,
            transparency,
        } = memory;
        palette.fill(0);
        transparency.fill(0);
        Self {
            stage: Stage::Header,
            offset: 0,
            held: [0; HEADER_LEN],
            held_len: 0,
            header: None,
            chunk_type: [0; 4],
            chunk_len: 0,
            remaining: 0,
            chunk_start: 0,
            checked: false,
            crc: crc::START,
            palette,
            palette_len: None,
            transparency,
            transparency_len: None,
            in_idat: false,
            idat_ended: false,
            lut: Some(lut),
            expander: None,
            image: ImageData::new(inflate),
            validating: None,
            failed: None,
        }
    }

    /// The header, once the first [`HEADER_LEN`] bytes are in.
    pub fn header(&self) -> Option<Header> {
        self.header
    }

    /// Bytes of the IDAT run after the zlib stream ended: ignored, as
    /// libpng and the png crate ignore them, and counted so a caller can
    /// warn (0 for a well-formed file).
    pub fn trailing_bytes(&self) -> u64 {
        self.image.trailing_bytes()
    }

    /// Takes the next piece of the file. After an error every later call
    /// returns that error again.
    pub fn feed(&mut self, input: &[u8], out: &mut Output<'_>) -> Result<(), PngError> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let result = self
            .check_output(out)
            .and_then(|()| self.feed_pieces(input, out));
        if let Err(e) = result {
            self.failed = Some(e);
        }
        result
    }

    /// After the last piece: checks the file is complete (IEND, all image
    /// data) and returns its header.
    pub fn finish(&mut self, out: &mut Output<'_>) -> Result<Header, PngError> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        self.check_output(out)?;
        match (self.stage, self.header) {
            (Stage::End, Some(h)) => Ok(h),
            _ => {
                let e = PngError::new(PngErrorKind::Truncated, self.offset);
                self.failed = Some(e);
                Err(e)
            }
        }
    }

    fn check_output(&mut self, out: &Output<'_>) -> Result<(), PngError> {
        let validating = matches!(out, Output::Validate(_));
        match self.validating.replace(validating) {
            Some(before) if before != validating => {
                Err(PngError::new(PngErrorKind::OutputChanged, self.offset))
            }
            _ => Ok(()),
        }
    }

    fn feed_pieces(&mut self, mut input: &[u8], out: &mut Output<'_>) -> Result<(), PngError> {
        while !input.is_empty() {
            let used = match self.stage {
                Stage::Header => self.hold(input, HEADER_LEN),
                Stage::ChunkHead => self.hold(input, 8),
                Stage::ChunkCrc => self.hold(input, 4),
                Stage::ChunkBody => {
                    let n = input
                        .len()
                        .min(usize::try_from(self.remaining).unwrap_or(usize::MAX));
                    let (piece, _) = input.split_at(n);
                    self.body(piece, out)?;
                    // n ≤ remaining, a u32.
                    self.remaining = self
                        .remaining
                        .saturating_sub(u32::try_from(n).unwrap_or(self.remaining));
                    n
                }
                Stage::End => input.len(),
            };
            self.offset = self.offset.saturating_add(used as u64);
            input = input.get(used..).unwrap_or_default();
            match self.stage {
                Stage::Header if self.held_len == HEADER_LEN => {
                    self.header = Some(Header::read(&self.held)?);
                    self.next_chunk();
                }
                Stage::ChunkHead if self.held_len == 8 => self.begin_chunk()?,
                Stage::ChunkBody if self.remaining == 0 => self.stage = Stage::ChunkCrc,
                Stage::ChunkCrc if self.held_len == 4 => self.end_chunk()?,
                _ => {}
            }
        }
        Ok(())
    }

    /// Copies up to `want` bytes into `held`; returns how many it took.
    fn hold(&mut self, input: &[u8], want: usize) -> usize {
        let n = want.saturating_sub(self.held_len).min(input.len());
        if let (Some(dst), Some(src)) = (
            self.held
                .get_mut(self.held_len..)
                .and_then(|held| held.get_mut(..n)),
            input.get(..n),
        ) {
            dst.copy_from_slice(src);
        }
        self.held_len = self.held_len.saturating_add(n);
        n
    }

    fn next_chunk(&mut self) {
        self.stage = Stage::ChunkHead;
        self.held_len = 0;
    }

    fn fail(&self, kind: PngErrorKind) -> PngError {
        PngError::new(kind, self.chunk_start)
    }

    /// The chunk's length and type are in: checks where it may stand.
    fn begin_chunk(&mut self) -> Result<(), PngError> {
        use PngErrorKind as K;
        let [l0, l1, l2, l3, t0, t1, t2, t3, ..] = self.held;
        // The length and type (8 bytes) were just held.
        self.chunk_start = self.offset.saturating_sub(8);
        self.chunk_len = u32::from_be_bytes([l0, l1, l2, l3]);
        self.chunk_type = [t0, t1, t2, t3];
        self.remaining = self.chunk_len;
        self.held_len = 0;
        self.stage = if self.chunk_len == 0 {
            Stage::ChunkCrc
        } else {
            Stage::ChunkBody
        };
        let header = self.header.ok_or(self.fail(K::NoHeader))?;
        if self.chunk_len > MAX_U31 {
            return Err(self.fail(K::ChunkTooLong));
        }
        if !self.chunk_type.iter().all(u8::is_ascii_alphabetic) {
            return Err(self.fail(K::BadChunkType));
        }
        let is_idat = &self.chunk_type == b"IDAT";
        if self.in_idat && !is_idat {
            self.in_idat = false;
            self.idat_ended = true;
            if !self.image.is_done() {
                return Err(self.fail(K::ImageDataUnfinished));
            }
        }
        let after_image = self.in_idat || self.idat_ended;
        let len = usize::try_from(self.chunk_len).unwrap_or(usize::MAX);
        self.checked = true;
        match &self.chunk_type {
            b"IHDR" => return Err(self.fail(K::DuplicateChunk)),
            b"PLTE" => {
                if self.palette_len.is_some() {
                    return Err(self.fail(K::DuplicateChunk));
                }
                if after_image || self.transparency_len.is_some() {
                    return Err(self.fail(K::ChunkOutOfOrder));
                }
                let grey = matches!(header.color_type, ColorType::Grey | ColorType::GreyAlpha);
                if grey || len == 0 || !len.is_multiple_of(3) || len > self.palette.len() {
                    return Err(self.fail(K::BadPalette));
                }
            }
            b"tRNS" => {
                if self.transparency_len.is_some() {
                    return Err(self.fail(K::DuplicateChunk));
                }
                if after_image {
                    return Err(self.fail(K::ChunkOutOfOrder));
                }
                let fits = match header.color_type {
                    ColorType::Grey => len == 2,
                    ColorType::Rgb => len == 6,
                    ColorType::Indexed => match self.palette_len {
                        None => return Err(self.fail(K::ChunkOutOfOrder)),
                        Some(p) => len <= p / 3,
                    },
                    ColorType::GreyAlpha | ColorType::Rgba => false,
                };
                if !fits {
                    return Err(self.fail(K::BadTransparency));
                }
            }
            b"IDAT" => {
                if self.idat_ended {
                    return Err(self.fail(K::ChunkOutOfOrder));
                }
                if !self.in_idat {
                    self.start_image(&header)?;
                }
            }
            b"IEND" => {
                if !self.idat_ended {
                    return Err(self.fail(K::MissingImageData));
                }
                if self.chunk_len != 0 {
                    return Err(self.fail(K::BadEnd));
                }
            }
            [first, ..] if first & 0x20 == 0 => return Err(self.fail(K::UnknownCriticalChunk)),
            // Ancillary chunks this decoder does not read are skipped
            // unchecked: libpng discards one whose CRC fails, which for a
            // chunk that changes nothing is the same as skipping it.
            _ => self.checked = false,
        }
        self.crc = crc::update(crc::START, &self.chunk_type);
        Ok(())
    }

    fn start_image(&mut self, header: &Header) -> Result<(), PngError> {
        if header.color_type == ColorType::Indexed && self.palette_len.is_none() {
            return Err(self.fail(PngErrorKind::MissingPalette));
        }
        let palette = self
            .palette
            .get(..self.palette_len.unwrap_or(0))
            .unwrap_or_default();
        let transparency = self
            .transparency_len
            .and_then(|n| self.transparency.get(..n));
        let lut = self
            .lut
            .take()
            .ok_or(self.fail(PngErrorKind::ChunkOutOfOrder))?;
        self.expander = Some(Expander::new(header, palette, transparency, lut));
        self.image.start(header);
        self.in_idat = true;
        Ok(())
    }

    /// One piece of the current chunk's data.
    fn body(&mut self, piece: &[u8], out: &mut Output<'_>) -> Result<(), PngError> {
        if self.checked {
            self.crc = crc::update(self.crc, piece);
        }
        let at =
            usize::try_from(self.chunk_len.saturating_sub(self.remaining)).unwrap_or(usize::MAX);
        let keep = match &self.chunk_type {
            b"PLTE" => self.palette.get_mut(at..),
            b"tRNS" => self.transparency.get_mut(at..),
            b"IDAT" => return self.inflate(piece, out),
            _ => None,
        };
        if let Some(dst) = keep.and_then(|d| d.get_mut(..piece.len())) {
            dst.copy_from_slice(piece);
        }
        Ok(())
    }

    fn inflate(&mut self, piece: &[u8], out: &mut Output<'_>) -> Result<(), PngError> {
        let (Some(header), Some(expander)) = (self.header, self.expander.as_ref()) else {
            return Err(self.fail(PngErrorKind::MissingImageData));
        };
        let (ring, mut sink) = match out {
            Output::Validate(window) => (&mut window.0[..], Sink::Validate),
            Output::Rgba8 { pixels, scratch } => {
                if pixels.len() as u64 != header.rgba8_len() {
                    return Err(self.fail(PngErrorKind::PixelsLength));
                }
                if (scratch.len() as u64) < header.scratch_len() {
                    return Err(self.fail(PngErrorKind::ScratchTooShort));
                }
                let (ring, rows) = scratch
                    .split_at_mut_checked(header.decode_window_len())
                    .ok_or(self.fail(PngErrorKind::ScratchTooShort))?;
                (
                    ring,
                    Sink::Rgba8 {
                        pixels,
                        rows,
                        expander,
                    },
                )
            }
        };
        let start = self.chunk_start;
        self.image
            .inflate(&header, piece, ring, &mut sink)
            .map_err(|kind| PngError::new(kind, start))
    }

    /// The chunk's CRC is in: compares it and records what the chunk was.
    fn end_chunk(&mut self) -> Result<(), PngError> {
        let [c0, c1, c2, c3, ..] = self.held;
        if self.checked && crc::finish(self.crc) != u32::from_be_bytes([c0, c1, c2, c3]) {
            return Err(self.fail(PngErrorKind::Crc));
        }
        let len = usize::try_from(self.chunk_len).ok();
        match &self.chunk_type {
            b"PLTE" => self.palette_len = len,
            b"tRNS" => self.transparency_len = len,
            b"IEND" => {
                self.stage = Stage::End;
                return Ok(());
            }
            _ => {}
        }
        self.next_chunk();
        Ok(())
    }
}

#[cfg(test)]
mod tests;
