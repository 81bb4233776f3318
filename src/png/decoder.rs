//! The push decoder: the file's bytes in pieces of any size, in order,
//! walked chunk by chunk (length, type, data, CRC) with every order rule
//! checked as the chunk starts and every checked CRC compared as it ends.

use super::crc;
use super::error::{PngError, PngErrorKind};
use super::expand::Expander;
use super::header::{ColorType, HEADER_LEN, Header, MAX_U31, WINDOW_LEN};
use super::image::{ImageData, Sink};

/// The inflate window a [`Output::Validate`] decode inflates through.
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
/// (1 byte to all of it), in order. Holds the inflate state and the chunk
/// parser's state (about 17 KiB, no heap).
pub struct Decoder {
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
    palette: [u8; 768],
    palette_len: Option<usize>,
    transparency: [u8; 256],
    transparency_len: Option<usize>,
    in_idat: bool,
    idat_ended: bool,
    expander: Option<Expander>,
    image: ImageData,
    validating: Option<bool>,
    failed: Option<PngError>,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder {
    /// A decoder before the first byte.
    pub fn new() -> Self {
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
            palette: [0; 768],
            palette_len: None,
            transparency: [0; 256],
            transparency_len: None,
            in_idat: false,
            idat_ended: false,
            expander: None,
            image: ImageData::new(),
            validating: None,
            failed: None,
        }
    }

    /// The header, once the first [`HEADER_LEN`] bytes are in.
    pub fn header(&self) -> Option<Header> {
        self.header
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
        self.expander = Some(Expander::new(header, palette, transparency));
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
mod tests {
    use super::super::test_png::{PngWriter, zlib};
    use super::super::{DECODE_WINDOW_LEN, decode_rgba8, validate};
    use super::*;
    use std::vec;
    use std::vec::Vec;

    /// A 2×2 8-bit grey image's image data: filter 0 rows.
    const GREY_2X2: [u8; 6] = [0, 10, 20, 0, 30, 40];

    fn grey() -> PngWriter {
        PngWriter::new(2, 2, 8, 0)
    }

    /// Decodes and validates; both verdicts must agree.
    fn run(bytes: &[u8]) -> Result<Vec<u8>, PngErrorKind> {
        let mut pixels = vec![0; 16];
        let mut scratch = vec![0; DECODE_WINDOW_LEN + 64];
        let decoded = decode_rgba8(bytes, &mut pixels, &mut scratch);
        assert_eq!(validate(bytes), decoded, "validate and decode disagree");
        decoded.map(|_| pixels).map_err(|e| e.kind())
    }

    fn kind(bytes: &[u8]) -> PngErrorKind {
        run(bytes).unwrap_err()
    }

    fn with_byte_flipped(mut bytes: Vec<u8>, at: usize) -> Vec<u8> {
        bytes[at] ^= 1;
        bytes
    }

    #[test]
    fn a_minimal_grey_image_decodes() {
        let pixels = run(&grey().idat(&GREY_2X2).end()).unwrap();
        assert_eq!(
            pixels,
            [
                10, 10, 10, 255, 20, 20, 20, 255, 30, 30, 30, 255, 40, 40, 40, 255
            ]
        );
    }

    #[test]
    fn critical_chunk_crcs_are_checked() {
        let file = grey().idat(&GREY_2X2).end();
        // The IDAT's CRC is the 4 bytes before IEND's 12.
        assert_eq!(
            kind(&with_byte_flipped(file.clone(), file.len() - 13)),
            PngErrorKind::Crc
        );
        assert_eq!(
            kind(&with_byte_flipped(file.clone(), file.len() - 1)),
            PngErrorKind::Crc
        );
        let palette = PngWriter::new(2, 2, 8, 3)
            .chunk(b"PLTE", &[1, 2, 3])
            .idat(&[0, 0, 0, 0, 0, 0])
            .end();
        assert_eq!(
            kind(&with_byte_flipped(palette, 33 + 8 + 3)),
            PngErrorKind::Crc
        );
    }

    #[test]
    fn ancillary_chunks_are_skipped_with_their_crc_unchecked() {
        let mut w = grey().chunk(b"tEXt", b"Comment\0hi");
        let len = w.0.len();
        w.0[len - 1] ^= 1;
        assert!(run(&w.idat(&GREY_2X2).end()).is_ok());
    }

    #[test]
    fn chunk_length_over_2_31_is_refused() {
        let mut file = grey().end();
        file[33..37].copy_from_slice(&0x8000_0000u32.to_be_bytes());
        assert_eq!(kind(&file), PngErrorKind::ChunkTooLong);
    }

    #[test]
    fn chunk_types_must_be_letters_and_unknown_critical_chunks_are_refused() {
        assert_eq!(
            kind(&grey().chunk(b"ab1d", &[]).idat(&GREY_2X2).end()),
            PngErrorKind::BadChunkType
        );
        assert_eq!(
            kind(&grey().chunk(b"ABCD", &[]).idat(&GREY_2X2).end()),
            PngErrorKind::UnknownCriticalChunk
        );
        assert!(run(&grey().chunk(b"aBCD", &[9; 5]).idat(&GREY_2X2).end()).is_ok());
    }

    #[test]
    fn second_ihdr_plte_or_trns_is_refused() {
        let ihdr = crate::png::header::tests::header_bytes(2, 2, 8, 0, 0);
        assert_eq!(
            kind(&grey().chunk(b"IHDR", &ihdr[16..29]).idat(&GREY_2X2).end()),
            PngErrorKind::DuplicateChunk
        );
        let p = || PngWriter::new(2, 2, 8, 3).chunk(b"PLTE", &[1, 2, 3]);
        assert_eq!(
            kind(&p().chunk(b"PLTE", &[1, 2, 3]).idat(&[0; 6]).end()),
            PngErrorKind::DuplicateChunk
        );
        assert_eq!(
            kind(
                &p().chunk(b"tRNS", &[1])
                    .chunk(b"tRNS", &[1])
                    .idat(&[0; 6])
                    .end()
            ),
            PngErrorKind::DuplicateChunk
        );
    }

    #[test]
    fn plte_and_trns_after_idat_and_trns_before_plte_are_out_of_order() {
        let idat = [0u8; 6];
        let indexed = || PngWriter::new(2, 2, 8, 3);
        assert_eq!(
            kind(
                &indexed()
                    .chunk(b"tRNS", &[1])
                    .chunk(b"PLTE", &[1, 2, 3])
                    .idat(&idat)
                    .end()
            ),
            PngErrorKind::ChunkOutOfOrder
        );
        let rgb = || PngWriter::new(2, 2, 8, 2);
        let rgb_raw = [0u8; 14];
        assert_eq!(
            kind(&rgb().idat(&rgb_raw).chunk(b"PLTE", &[1, 2, 3]).end()),
            PngErrorKind::ChunkOutOfOrder
        );
        assert_eq!(
            kind(&grey().idat(&GREY_2X2).chunk(b"tRNS", &[0, 1]).end()),
            PngErrorKind::ChunkOutOfOrder
        );
    }

    #[test]
    fn idat_chunks_must_be_one_run() {
        let stream = zlib(&GREY_2X2);
        let (a, b) = stream.split_at(3);
        let split = grey().chunk(b"IDAT", a).chunk(b"IDAT", b).end();
        assert!(run(&split).is_ok());
        let broken = grey()
            .chunk(b"IDAT", a)
            .chunk(b"tEXt", b"a\0b")
            .chunk(b"IDAT", b)
            .end();
        assert_eq!(kind(&broken), PngErrorKind::ImageDataUnfinished);
        let after = grey()
            .idat(&GREY_2X2)
            .chunk(b"tEXt", b"a\0b")
            .chunk(b"IDAT", &[])
            .end();
        assert_eq!(kind(&after), PngErrorKind::ChunkOutOfOrder);
    }

    #[test]
    fn palettes_must_be_valid_and_present_for_indexed_images() {
        assert_eq!(
            kind(&grey().chunk(b"PLTE", &[1, 2, 3]).idat(&GREY_2X2).end()),
            PngErrorKind::BadPalette
        );
        let indexed = || PngWriter::new(2, 2, 8, 3);
        for bad in [&[][..], &[1, 2], &[0; 771]] {
            assert_eq!(
                kind(&indexed().chunk(b"PLTE", bad).idat(&[0; 6]).end()),
                PngErrorKind::BadPalette
            );
        }
        assert_eq!(
            kind(&indexed().idat(&[0; 6]).end()),
            PngErrorKind::MissingPalette
        );
        // More entries than a 1-bit index can reach: accepted.
        let one_bit = PngWriter::new(2, 2, 1, 3)
            .chunk(b"PLTE", &[9; 12])
            .idat(&[0, 0x40, 0, 0x80])
            .end();
        assert!(run(&one_bit).is_ok());
        // An RGB image's suggested palette is ignored.
        let rgb = PngWriter::new(2, 2, 8, 2)
            .chunk(b"PLTE", &[1, 2, 3])
            .idat(&[0; 14])
            .end();
        assert!(run(&rgb).is_ok());
    }

    #[test]
    fn trns_must_fit_the_colour_type() {
        assert_eq!(
            kind(&grey().chunk(b"tRNS", &[0, 1, 2]).idat(&GREY_2X2).end()),
            PngErrorKind::BadTransparency
        );
        let rgba = PngWriter::new(2, 2, 8, 6)
            .chunk(b"tRNS", &[0; 6])
            .idat(&[0; 18])
            .end();
        assert_eq!(kind(&rgba), PngErrorKind::BadTransparency);
        let long = PngWriter::new(2, 2, 8, 3)
            .chunk(b"PLTE", &[1, 2, 3])
            .chunk(b"tRNS", &[1, 2])
            .idat(&[0; 6])
            .end();
        assert_eq!(kind(&long), PngErrorKind::BadTransparency);
        let keyed = grey().chunk(b"tRNS", &[0, 20]).idat(&GREY_2X2).end();
        assert_eq!(run(&keyed).unwrap()[4..8], [20, 20, 20, 0]);
    }

    #[test]
    fn iend_needs_image_data_before_it_and_no_data_in_it() {
        assert_eq!(kind(&grey().end()), PngErrorKind::MissingImageData);
        let w = grey().idat(&GREY_2X2).chunk(b"IEND", &[0]);
        assert_eq!(kind(&w.0), PngErrorKind::BadEnd);
    }

    #[test]
    fn filter_types_over_4_are_refused() {
        assert_eq!(
            kind(&grey().idat(&[0, 1, 2, 5, 3, 4]).end()),
            PngErrorKind::BadFilterType
        );
    }

    #[test]
    fn zlib_header_and_adler32_are_checked() {
        let mut stream = zlib(&GREY_2X2);
        stream[0] = 0x79;
        assert_eq!(
            kind(&grey().chunk(b"IDAT", &stream).end()),
            PngErrorKind::BadZlib
        );
        let mut stream = zlib(&GREY_2X2);
        let last = stream.len() - 1;
        stream[last] ^= 1;
        assert_eq!(
            kind(&grey().chunk(b"IDAT", &stream).end()),
            PngErrorKind::Adler32
        );
    }

    #[test]
    fn image_data_must_be_exactly_the_declared_size() {
        assert_eq!(
            kind(&grey().idat(&GREY_2X2[..5]).end()),
            PngErrorKind::TooLittleImageData
        );
        assert_eq!(
            kind(&grey().idat(&[0, 1, 2, 0, 3, 4, 0]).end()),
            PngErrorKind::TooMuchImageData
        );
        let stream = zlib(&GREY_2X2);
        let cut = grey().chunk(b"IDAT", &stream[..stream.len() - 2]).end();
        assert_eq!(kind(&cut), PngErrorKind::ImageDataUnfinished);
    }

    /// A zlib stream of one fixed-Huffman block: the literal 0 (a filter
    /// byte), then a match of length 3 at `distance`, then end of block.
    fn one_match(distance: u16) -> Vec<u8> {
        let mut bits: Vec<bool> = Vec::new();
        // Header fields go least significant bit first, codes most first.
        let field = |v: u32, n: u32, bits: &mut Vec<bool>| {
            bits.extend((0..n).map(|i| v >> i & 1 == 1));
        };
        let code = |v: u32, n: u32, bits: &mut Vec<bool>| {
            bits.extend((0..n).rev().map(|i| v >> i & 1 == 1));
        };
        field(1, 1, &mut bits); // BFINAL
        field(1, 2, &mut bits); // fixed Huffman
        code(0x30, 8, &mut bits); // literal 0
        code(1, 7, &mut bits); // length code 257: 3 bytes
        // Distances 1 to 4 are codes 0 to 3; 5 to 8 are code 4 and 2 extra bits.
        if distance <= 4 {
            code(u32::from(distance) - 1, 5, &mut bits);
        } else {
            code(4, 5, &mut bits);
            field(u32::from(distance) - 5, 1, &mut bits);
        }
        code(0, 7, &mut bits); // end of block
        let mut out = std::vec![0x78, 0x01];
        for byte in bits.chunks(8) {
            out.push(
                byte.iter()
                    .enumerate()
                    .map(|(i, &b)| u8::from(b) << i)
                    .sum(),
            );
        }
        let data = [0u8, 0, 0, 0];
        let (a, b) = data.iter().fold((1u32, 0u32), |(a, b), &x| {
            let a = (a + u32::from(x)) % 65521;
            (a, (b + a) % 65521)
        });
        out.extend_from_slice(&((b << 16) | a).to_be_bytes());
        out
    }

    #[test]
    fn a_distance_before_the_stream_start_is_bad_zlib_in_a_decode_and_a_validation() {
        // A 1×1 RGB image is a filter byte and 3 samples: literal 0, then
        // 3 bytes copied from 1 back (valid) or from 2 back (too far back).
        let verdict = |distance| {
            let file = PngWriter::new(1, 1, 8, 2)
                .chunk(b"IDAT", &one_match(distance))
                .end();
            let mut scratch = vec![0xAB; DECODE_WINDOW_LEN + 16];
            let decoded = decode_rgba8(&file, &mut [0; 4], &mut scratch).map_err(|e| e.kind());
            assert_eq!(validate(&file).map_err(|e| e.kind()), decoded);
            decoded
        };
        assert!(verdict(1).is_ok());
        assert_eq!(verdict(2), Err(PngErrorKind::BadZlib));
        assert_eq!(verdict(5), Err(PngErrorKind::BadZlib));
    }

    #[test]
    fn an_inflate_bomb_fails_after_one_window() {
        // 8 MiB of zeros compress to about 8 KiB; the image needs 6 bytes.
        let bomb = zlib(&vec![0u8; 8 << 20]);
        let file = grey().chunk(b"IDAT", &bomb).end();
        assert_eq!(kind(&file), PngErrorKind::TooMuchImageData);
    }

    #[test]
    fn bytes_after_the_zlib_stream_and_after_iend_are_ignored() {
        let mut stream = zlib(&GREY_2X2);
        stream.extend_from_slice(b"junk");
        let mut file = grey().chunk(b"IDAT", &stream).end();
        file.extend_from_slice(b"trailing bytes");
        assert!(run(&file).is_ok());
    }

    #[test]
    fn a_file_that_ends_before_iend_is_truncated() {
        let file = grey().idat(&GREY_2X2).end();
        for cut in [0, 8, 33, 40, file.len() - 1] {
            assert_eq!(kind(&file[..cut]), PngErrorKind::Truncated, "cut at {cut}");
        }
    }

    #[test]
    fn wrong_buffers_are_errors_not_panics() {
        let file = grey().idat(&GREY_2X2).end();
        let mut scratch = vec![0; DECODE_WINDOW_LEN + 4];
        let e = decode_rgba8(&file, &mut [0; 15], &mut scratch).unwrap_err();
        assert_eq!(e.kind(), PngErrorKind::PixelsLength);
        let short = Header::read(&file[..HEADER_LEN]).unwrap().scratch_len() as usize - 1;
        let e = decode_rgba8(&file, &mut [0; 16], &mut scratch[..short]).unwrap_err();
        assert_eq!(e.kind(), PngErrorKind::ScratchTooShort);
        let mut decoder = Decoder::new();
        let mut window = Window::new();
        decoder
            .feed(&file[..10], &mut Output::Validate(&mut window))
            .unwrap();
        let mut pixels = [0; 16];
        let e = decoder
            .feed(
                &file[10..],
                &mut Output::Rgba8 {
                    pixels: &mut pixels,
                    scratch: &mut scratch,
                },
            )
            .unwrap_err();
        assert_eq!(e.kind(), PngErrorKind::OutputChanged);
    }

    #[test]
    fn an_error_is_returned_again_on_every_later_call() {
        let mut decoder = Decoder::new();
        let mut window = Window::new();
        let mut out = Output::Validate(&mut window);
        let e = decoder.feed(&[0; 40], &mut out).unwrap_err();
        assert_eq!(decoder.feed(&[], &mut out), Err(e));
        assert_eq!(decoder.finish(&mut out), Err(e));
    }
}
