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
fn bytes_after_the_zlib_stream_are_counted_in_its_idat_and_in_later_ones() {
    let trailing = |file: &[u8], piece: usize| {
        let mut pixels = vec![0; 16];
        let mut scratch = vec![0; DECODE_WINDOW_LEN + 64];
        let mut out = Output::Rgba8 {
            pixels: &mut pixels,
            scratch: &mut scratch,
        };
        let mut memory = DecoderMemory::new();
        let mut decoder = Decoder::new(&mut memory);
        for chunk in file.chunks(piece.max(1)) {
            decoder.feed(chunk, &mut out).unwrap();
        }
        decoder.finish(&mut out).unwrap();
        decoder.trailing_bytes()
    };
    let clean = grey().chunk(b"IDAT", &zlib(&GREY_2X2)).end();
    let mut stream = zlib(&GREY_2X2);
    stream.extend_from_slice(b"junk");
    let inside = grey().chunk(b"IDAT", &stream).end();
    let later = grey()
        .chunk(b"IDAT", &zlib(&GREY_2X2))
        .chunk(b"IDAT", b"more junk")
        .end();
    for piece in [0, 1, 7] {
        assert_eq!(trailing(&clean, piece), 0, "{piece}");
        assert_eq!(trailing(&inside, piece), 4, "{piece}");
        assert_eq!(trailing(&later, piece), 9, "{piece}");
    }
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
    let mut memory = DecoderMemory::new();
    let mut decoder = Decoder::new(&mut memory);
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
    let mut memory = DecoderMemory::new();
    let mut decoder = Decoder::new(&mut memory);
    let mut window = Window::new();
    let mut out = Output::Validate(&mut window);
    let e = decoder.feed(&[0; 40], &mut out).unwrap_err();
    assert_eq!(decoder.feed(&[], &mut out), Err(e));
    assert_eq!(decoder.finish(&mut out), Err(e));
}

/// `DecoderMemory` is reused from image to image (the fill pass decodes
/// every texture in one, `MeasureScratch` serves every `measure_with`), so
/// nothing an earlier decode left in it may change a later one: a palette
/// with tRNS, then a failed stream, then a grey image and a shorter
/// palette decode as they do in fresh memory.
#[test]
fn memory_reused_after_other_images_decodes_as_fresh_memory() {
    let palette = PngWriter::new(2, 2, 8, 3)
        .chunk(b"PLTE", &[1, 2, 3, 4, 5, 6, 7, 8, 9])
        .chunk(b"tRNS", &[10, 20, 30])
        .idat(&[0, 0, 1, 0, 2, 0])
        .end();
    let short_palette = PngWriter::new(2, 2, 8, 3)
        .chunk(b"PLTE", &[90, 91, 92])
        .idat(&[0, 0, 1, 0, 0, 1])
        .end();
    let broken = with_byte_flipped(grey().idat(&GREY_2X2).end(), 33 + 8 + 4);
    let files = [palette, broken, grey().idat(&GREY_2X2).end(), short_palette];
    let decode = |memory: &mut DecoderMemory, file: &[u8]| {
        let mut pixels = vec![0; 16];
        let mut scratch = vec![0; DECODE_WINDOW_LEN + 64];
        let mut out = Output::Rgba8 {
            pixels: &mut pixels,
            scratch: &mut scratch,
        };
        let mut decoder = Decoder::new(memory);
        let result = decoder
            .feed(file, &mut out)
            .and_then(|()| decoder.finish(&mut out));
        result.map(|_| pixels).map_err(|e| e.kind())
    };
    let mut reused = DecoderMemory::new();
    for file in &files {
        let fresh = decode(&mut DecoderMemory::new(), file);
        assert_eq!(decode(&mut reused, file), fresh);
    }
    // The last image's index 1 is past its one-entry palette: opaque black,
    // not the earlier palette's entry left in the memory.
    assert_eq!(
        decode(&mut reused, &files[3]).unwrap(),
        [90, 91, 92, 255, 0, 0, 0, 255, 90, 91, 92, 255, 0, 0, 0, 255]
    );
}
