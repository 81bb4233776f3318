//! Decoding helpers the PNG tests share: one call per way of feeding the
//! decoder, each returning the header and RGBA8 pixels or the error.

#![allow(dead_code)]

use scenedec::png::{Decoder, DecoderMemory, HEADER_LEN, Header, Output, PngError, Window};

/// A decode's result, comparable across ways of feeding it.
pub type Decoded = Result<(Header, Vec<u8>), PngError>;

/// The buffers a decode of `bytes` needs (empty when the header is bad,
/// so the decoder itself reports why).
fn buffers(bytes: &[u8]) -> (Vec<u8>, Vec<u8>) {
    match Header::read(bytes.get(..HEADER_LEN).unwrap_or(bytes)) {
        Ok(h) => (
            vec![0; h.rgba8_len() as usize],
            vec![0; h.scratch_len() as usize],
        ),
        Err(_) => (Vec::new(), Vec::new()),
    }
}

/// Decodes to RGBA8, feeding pieces of `piece` bytes (0: all at once).
pub fn decode(bytes: &[u8], piece: usize) -> Decoded {
    let (mut pixels, mut scratch) = buffers(bytes);
    let mut memory = Box::new(DecoderMemory::new());
    let mut decoder = Decoder::new(&mut memory);
    let mut out = Output::Rgba8 {
        pixels: &mut pixels,
        scratch: &mut scratch,
    };
    for p in bytes.chunks(if piece == 0 {
        bytes.len().max(1)
    } else {
        piece
    }) {
        decoder.feed(p, &mut out)?;
    }
    let header = decoder.finish(&mut out)?;
    Ok((header, pixels))
}

/// Validates, feeding pieces of `piece` bytes (0: all at once).
pub fn validate(bytes: &[u8], piece: usize) -> Result<Header, PngError> {
    let mut window = Window::new();
    let mut memory = Box::new(DecoderMemory::new());
    let mut decoder = Decoder::new(&mut memory);
    let mut out = Output::Validate(&mut window);
    for p in bytes.chunks(if piece == 0 {
        bytes.len().max(1)
    } else {
        piece
    }) {
        decoder.feed(p, &mut out)?;
    }
    decoder.finish(&mut out)
}

/// The png crate's decode to RGBA8 under the same conventions (EXPAND and
/// STRIP_16, then grey, grey-alpha and RGB widened to RGBA here).
pub fn png_crate_rgba8(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let mut buf = vec![0; reader.output_buffer_size().ok_or("too large")?];
    let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    let (w, h) = (info.width, info.height);
    let data = &buf[..info.buffer_size()];
    let rgba = match info.color_type {
        png::ColorType::Rgba => data.to_vec(),
        png::ColorType::Rgb => data
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::GrayscaleAlpha => data
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        png::ColorType::Grayscale => data.iter().flat_map(|&v| [v, v, v, 255]).collect(),
        png::ColorType::Indexed => return Err("indexed after EXPAND".into()),
    };
    Ok((w, h, rgba))
}
