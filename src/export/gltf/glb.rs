//! The GLB container (glTF 2.0, "GLB File Format Specification"): a 12-byte
//! header, a JSON chunk padded with spaces and a BIN chunk padded with
//! zeros, each to 4 bytes. Written straight to any `Write`, so a file is
//! streamed from the document's parts: the buffer is not copied, and the
//! JSON can be serialised into the file rather than held as text.

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

/// A GLB of `json_len` bytes of JSON and `bin` (no BIN chunk when empty).
pub struct Glb<'a> {
    json_len: usize,
    bin: &'a [u8],
    length: u32,
}

impl<'a> Glb<'a> {
    /// The container of `json_len` bytes of JSON and `bin`; refused past
    /// u32's 4 GiB, which the header's `length` cannot state.
    pub fn new(json_len: usize, bin: &'a [u8]) -> Result<Self, ExportError> {
        let chunk = |len: usize| len.checked_add(8 + padding(len));
        let bin_chunk = if bin.is_empty() {
            Some(0)
        } else {
            chunk(bin.len())
        };
        let length = chunk(json_len)
            .zip(bin_chunk)
            .and_then(|(j, b)| j.checked_add(b))
            .and_then(|n| n.checked_add(12))
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| ExportError::TooLarge(String::from("GLB over 4 GiB")))?;
        Ok(Self {
            json_len,
            bin,
            length,
        })
    }

    /// Bytes of the whole file (never 0: the header and the JSON chunk).
    #[allow(clippy::len_without_is_empty, reason = "a GLB is never empty")]
    pub fn len(&self) -> usize {
        self.length as usize
    }

    /// Writes the file to `out`, the JSON chunk's data by `json`, which
    /// must write exactly the `json_len` bytes given to [`Glb::new`].
    pub fn write_to<W: Write>(
        &self,
        out: &mut W,
        json: impl FnOnce(&mut Counter<&mut W>) -> io::Result<()>,
    ) -> io::Result<()> {
        out.write_all(b"glTF")?;
        out.write_all(&2u32.to_le_bytes())?;
        out.write_all(&self.length.to_le_bytes())?;
        chunk_head(out, JSON, self.json_len)?;
        let mut counted = Counter::new(&mut *out);
        json(&mut counted)?;
        if counted.bytes != self.json_len {
            return Err(io::Error::other(
                "the JSON chunk is not the length measured",
            ));
        }
        pad(out, b' ', self.json_len)?;
        if !self.bin.is_empty() {
            chunk_head(out, BIN, self.bin.len())?;
            out.write_all(self.bin)?;
            pad(out, 0, self.bin.len())?;
        }
        Ok(())
    }
}

/// The bytes `byte` that pad `len` bytes of data to 4.
fn pad(out: &mut impl Write, byte: u8, len: usize) -> io::Result<()> {
    out.write_all([byte; 3].get(..padding(len)).unwrap_or_default())
}

/// A chunk's length (padded) and type.
fn chunk_head(out: &mut impl Write, kind: u32, len: usize) -> io::Result<()> {
    // `Glb::new` checked that every length fits in u32.
    let padded = u32::try_from(len + padding(len)).unwrap_or(u32::MAX);
    out.write_all(&padded.to_le_bytes())?;
    out.write_all(&kind.to_le_bytes())
}

/// A `Write` that counts the bytes it passes on: the JSON's length is
/// measured by serialising into `Counter::new(io::sink())`.
pub struct Counter<W> {
    inner: W,
    /// Bytes written so far.
    pub bytes: usize,
}

impl<W> Counter<W> {
    /// Counts what goes to `inner`.
    pub fn new(inner: W) -> Self {
        Self { inner, bytes: 0 }
    }
}

impl<W: Write> Write for Counter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    fn bytes(json: &[u8], bin: &[u8]) -> Vec<u8> {
        let glb = Glb::new(json.len(), bin).unwrap();
        let mut out = Vec::new();
        glb.write_to(&mut out, |o| o.write_all(json)).unwrap();
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
    fn json_of_another_length_than_measured_is_an_error() {
        let glb = Glb::new(4, &[]).unwrap();
        let mut out = Vec::new();
        assert!(glb.write_to(&mut out, |o| o.write_all(b"{}")).is_err());
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
