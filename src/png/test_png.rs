//! Test-only PNG writer: chunks with their CRCs, so each rule's test shows
//! the file it feeds.

use super::crc;
use super::header::tests::header_bytes;
use std::vec::Vec;

/// A PNG file being written chunk by chunk.
pub(crate) struct PngWriter(pub(crate) Vec<u8>);

impl PngWriter {
    /// Signature and IHDR.
    pub(crate) fn new(w: u32, h: u32, depth: u8, color: u8) -> Self {
        Self(header_bytes(w, h, depth, color, 0))
    }

    /// Appends a chunk with a correct CRC.
    pub(crate) fn chunk(mut self, kind: &[u8; 4], data: &[u8]) -> Self {
        self.0.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let start = self.0.len();
        self.0.extend_from_slice(kind);
        self.0.extend_from_slice(data);
        let c = crc::of(&self.0[start..]);
        self.0.extend_from_slice(&c.to_be_bytes());
        self
    }

    /// Appends one IDAT of `raw` (filter bytes and samples) compressed.
    pub(crate) fn idat(self, raw: &[u8]) -> Self {
        self.chunk(b"IDAT", &zlib(raw))
    }

    /// Appends IEND and returns the file.
    pub(crate) fn end(self) -> Vec<u8> {
        self.chunk(b"IEND", &[]).0
    }
}

/// A zlib stream of `raw`.
pub(crate) fn zlib(raw: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(raw, 6)
}
