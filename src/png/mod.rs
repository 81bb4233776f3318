//! A streaming PNG decoder to RGBA8, in caller memory (no heap, no std),
//! on the crate's own inflater ([`crate::inflate`]).
//!
//! [`Header::read`] checks the signature and IHDR from the first
//! [`HEADER_LEN`] bytes, so a caller can check the size against its limits
//! and provide [`Header::rgba8_len`] bytes of pixels and
//! [`Header::scratch_len`] bytes of scratch before anything is inflated. A
//! [`Decoder`], its large state in the caller's [`DecoderMemory`], is then
//! fed the file in pieces of any size. [`Output::Validate`] runs every check of a decode through a 32 KiB [`Window`] and no other
//! memory, so a validation that passes promises that the decode passes.
//!
//! Every colour type and bit depth, PLTE, tRNS, Adam7 and the five filters
//! are read; the output follows PngSuite's conventions (see [`expand`]:
//! 16-bit keeps the high byte, low-depth grey is scaled, tRNS keys compare
//! the full stored sample; gAMA, cHRM, sRGB, iCCP and sBIT change nothing).
//!
//! ## What is refused, and what is tolerated
//!
//! The png crate and libpng are the references; where they differ, the
//! stricter reading wins unless real files depend on the lenient one.
//!
//! | case | here | why |
//! | --- | --- | --- |
//! | bad signature, IHDR not first or not 13 bytes, any IHDR field invalid | error | both references |
//! | CRC of IHDR, PLTE, IDAT, IEND, tRNS | checked, error | critical chunks, and tRNS changes pixels |
//! | CRC of other ancillary chunks | not computed | they change nothing; libpng discards a bad one, which is the same |
//! | chunk length over 2³¹ − 1, type not four ASCII letters | error | the specification; libpng |
//! | unknown critical chunk (upper-case first letter) | error | its meaning is required to read the image |
//! | second IHDR, PLTE or tRNS | error | the specification |
//! | PLTE or tRNS after IDAT; tRNS before PLTE | error | the specification's order rules |
//! | PLTE in a grey image, empty, over 256 entries, not a multiple of 3 | error | libpng |
//! | PLTE with more entries than the bit depth can index | accepted | both references |
//! | PLTE in an RGB image (a suggested palette) | checked, otherwise ignored | the specification |
//! | tRNS of the wrong length, longer than the palette, or with an alpha channel | error | stricter than the png crate, which ignores such a tRNS |
//! | palette index past the end of PLTE | opaque black | what the png crate gives |
//! | IDAT chunks not contiguous; IEND before IDAT | error | both references |
//! | zlib header invalid, deflate data invalid, Adler-32 mismatch | error | libpng checks Adler-32 (the png crate skips it by default) |
//! | row filter type over 4 | error | both references |
//! | zlib stream ends before the image is complete; IDAT run ends before the stream | error | both references |
//! | more decompressed data than the image | error, after at most 32 KiB inflated | reading on to find the stream's end would make an inflate bomb cost |
//! | bytes after the zlib stream inside the IDAT run | ignored, counted ([`Decoder::trailing_bytes`]; a .bbmodel texture warns TRAILING_IMAGE_DATA) | both references ignore them (libpng's default, the png crate); counted because junk after a valid image is usually damage a user wants to hear of |
//! | anything after IEND | ignored | neither reference reads past IEND |
//! | file ends before IEND | error ([`Decoder::finish`]) | the file is incomplete |

mod crc;
mod decoder;
pub mod error;
pub mod expand;
mod header;
mod image;
#[cfg(test)]
mod test_png;
mod unfilter;

pub use decoder::{Decoder, DecoderMemory, Output, Window};
pub use error::{PngError, PngErrorKind};
pub use header::{ColorType, DECODE_WINDOW_LEN, HEADER_LEN, Header, WINDOW_LEN};

/// Decodes a whole file to RGBA8 in one feed (`pixels.len()` must be
/// `rgba8_len()`, `scratch.len()` at least `scratch_len()`), with a
/// [`DecoderMemory`] on the stack (18 KiB; [`Decoder`] takes it from the
/// caller).
pub fn decode_rgba8(
    bytes: &[u8],
    pixels: &mut [u8],
    scratch: &mut [u8],
) -> Result<Header, PngError> {
    let mut memory = DecoderMemory::new();
    let mut decoder = Decoder::new(&mut memory);
    let mut out = Output::Rgba8 { pixels, scratch };
    decoder.feed(bytes, &mut out)?;
    decoder.finish(&mut out)
}

/// Checks a whole file as a decode would, with no memory but a 32 KiB
/// window and a [`DecoderMemory`] on the stack (50 KiB together).
pub fn validate(bytes: &[u8]) -> Result<Header, PngError> {
    let mut window = Window::new();
    let mut memory = DecoderMemory::new();
    let mut decoder = Decoder::new(&mut memory);
    let mut out = Output::Validate(&mut window);
    decoder.feed(bytes, &mut out)?;
    decoder.finish(&mut out)
}
