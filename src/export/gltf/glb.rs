//! The GLB container (glTF 2.0, "GLB File Format Specification"): a 12-byte
//! header, a JSON chunk padded with spaces and a BIN chunk padded with
//! zeros, each to 4 bytes. Written straight to any `Write`, so a file is
//! streamed from the document's parts without a second copy of the buffer.

use std::io::{self, Write};
use std::string::String;

use super::ExportError;

/// "Chunk type" of the JSON chunk, `JSON` little-endian.
const JSON: u32 = 0x4E4F_534A;
/// "Chunk type" of the BIN chunk, `BIN\0` little-endian.
const BIN: u32 = 0x004E_4942;

/// The padding that makes `len` a multiple of 4.
fn padding(len: usize) -> usize {
    (4 - len % 4) % 4
}

/// A GLB of `json` and `bin` (no BIN chunk when empty), by its size.
pub struct Glb<'a> {
    json: &'a [u8],
    bin: &'a [u8],
    length: u32,
}

impl<'a> Glb<'a> {
    /// The container of `json` and `bin`; refused past u32's 4 GiB, which
    /// the header's `length` cannot state.
    pub fn new(json: &'a [u8], bin: &'a [u8]) -> Result<Self, ExportError> {
        let chunk = |len: usize| len.checked_add(8 + padding(len));
        let bin_chunk = if bin.is_empty() {
            Some(0)
        } else {
            chunk(bin.len())
        };
        let length = chunk(json.len())
            .zip(bin_chunk)
            .and_then(|(j, b)| j.checked_add(b))
            .and_then(|n| n.checked_add(12))
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| ExportError::TooLarge(String::from("GLB over 4 GiB")))?;
        Ok(Self { json, bin, length })
    }

    /// Bytes of the whole file (never 0: the header and the JSON chunk).
    #[allow(clippy::len_without_is_empty, reason = "a GLB is never empty")]
    pub fn len(&self) -> usize {
        self.length as usize
    }

    /// Writes the file to `out`.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(b"glTF")?;
        out.write_all(&2u32.to_le_bytes())?;
        out.write_all(&self.length.to_le_bytes())?;
        chunk(out, JSON, self.json, b' ')?;
        if !self.bin.is_empty() {
            chunk(out, BIN, self.bin, 0)?;
        }
        Ok(())
    }
}

/// One chunk: length (padded), type, data, padding with `pad`.
fn chunk(out: &mut impl Write, kind: u32, data: &[u8], pad: u8) -> io::Result<()> {
    let fill = padding(data.len());
    // `Glb::new` checked that every length fits in u32.
    let len = u32::try_from(data.len() + fill).unwrap_or(u32::MAX);
    out.write_all(&len.to_le_bytes())?;
    out.write_all(&kind.to_le_bytes())?;
    out.write_all(data)?;
    out.write_all(&[pad; 3][..fill])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    fn bytes(json: &[u8], bin: &[u8]) -> Vec<u8> {
        let glb = Glb::new(json, bin).unwrap();
        let mut out = Vec::new();
        glb.write_to(&mut out).unwrap();
        assert_eq!(out.len(), glb.len(), "the header's length is the file's");
        out
    }

    #[test]
    fn chunks_are_padded_to_four_bytes_with_spaces_then_zeros() {
        // "The start and the end of each chunk must be aligned to a 4-byte
        // boundary ... padded with trailing Space chars (0x20)" for JSON and
        // "with trailing zeros (0x00)" for BIN.
        let out = bytes(b"{}", &[1, 2, 3, 4, 5]);
        assert_eq!(&out[..12], b"glTF\x02\0\0\0\x28\0\0\0");
        assert_eq!(&out[12..24], b"\x04\0\0\0JSON{}  ");
        assert_eq!(&out[24..], b"\x08\0\0\0BIN\0\x01\x02\x03\x04\x05\0\0\0");
    }

    #[test]
    fn an_empty_buffer_has_no_bin_chunk() {
        let out = bytes(b"{\"a\":1}", &[]);
        assert_eq!(out.len(), 12 + 8 + 8);
    }

    #[test]
    fn the_gltf_crate_reads_it_back() {
        let out = bytes(b"{\"asset\":{\"version\":\"2.0\"}}", &[9; 6]);
        let glb = gltf::binary::Glb::from_slice(&out).unwrap();
        // The reader keeps the chunk's padding.
        assert_eq!(glb.json.as_ref(), b"{\"asset\":{\"version\":\"2.0\"}} ");
        assert_eq!(glb.bin.as_deref(), Some(&[9u8, 9, 9, 9, 9, 9, 0, 0][..]));
    }
}
