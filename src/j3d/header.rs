//! The J3D file header and the walk over its section headers.
//!
//! Header (0x20 bytes): magic `J3D2bmd3` / `J3D2bdl4`, file size (u32), section
//! count (u32), a 16-byte subversion stamp (`SVR3` and 0xFF padding). Sections
//! follow back to back from 0x20, each starting with its id (4 ASCII bytes) and
//! its size in bytes, header included.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times record sizes below 256 (below 2^41, no overflow with a 64-bit usize), each checked by the section reader before any byte is read"
)]

use nom::Parser;
use nom::bytes::complete::take;
use nom::number::complete::be_u32;

use crate::error::{Error, ErrorCode, SectionId};

/// Bytes of the file header.
pub const HEADER_LEN: usize = 0x20;
/// Bytes of a section header (id and size).
pub const SECTION_HEADER_LEN: usize = 8;

/// The model flavour, from the magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    /// `J3D2bmd3`: .bmd.
    Bmd3,
    /// `J3D2bdl4`: .bdl (a .bmd plus the MDL3 display-list section).
    Bdl4,
}

/// The section ids a model may hold.
pub const KNOWN_SECTIONS: [&[u8; 4]; 10] = [
    b"INF1", b"VTX1", b"EVP1", b"DRW1", b"JNT1", b"SHP1", b"MAT3", b"MAT2", b"MDL3", b"TEX1",
];

/// One section: its id, where it starts, and its bytes (header included).
#[derive(Clone, Copy, Debug)]
pub struct Section<'a> {
    /// The four-character id.
    pub id: SectionId,
    /// Offset of the section's first byte in the file.
    pub offset: usize,
    /// The section's bytes, from its id to its declared end.
    pub bytes: &'a [u8],
}

/// A J3D file whose header and section walk have been checked.
#[derive(Clone, Copy, Debug)]
pub struct J3dFile<'a> {
    bytes: &'a [u8],
    flavour: Flavour,
    section_count: usize,
}

type NomError<'a> = nom::error::Error<&'a [u8]>;

impl<'a> J3dFile<'a> {
    /// Checks the header and walks every section header: each must lie inside
    /// the file, be at least 8 bytes, have a known id and not repeat.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        let (_, (magic, declared, count, _stamp)) = (take(8usize), be_u32, be_u32, take(16usize))
            .parse(bytes)
            .map_err(|_: nom::Err<NomError<'a>>| {
                truncated(bytes.len(), None, "file header of 32 bytes")
            })?;
        let flavour = match magic {
            b"J3D2bmd3" => Flavour::Bmd3,
            b"J3D2bdl4" => Flavour::Bdl4,
            _ => return Err(crate::sniff::unknown_format(bytes)),
        };
        let declared = declared as usize;
        if declared > bytes.len() {
            return Err(Error::binary(
                ErrorCode::Truncated,
                bytes.len() as u64,
                None,
                format_args!(
                    "file ends at byte {}: the header declares {declared} bytes",
                    bytes.len()
                ),
            ));
        }
        let file = Self {
            bytes: bytes.get(..declared).unwrap_or(bytes),
            flavour,
            section_count: count as usize,
        };
        let mut seen = heapless::Vec::<SectionId, 10>::new();
        let mut offset = HEADER_LEN;
        for _ in 0..file.section_count {
            let section = file.section_at(offset)?;
            if seen.contains(&section.id) {
                return Err(Error::binary(
                    ErrorCode::BadValue,
                    offset as u64,
                    Some(section.id),
                    format_args!("section {} appears twice", section.id.as_str()),
                ));
            }
            // `seen` has room for every known id and unknown ids were refused.
            let _ = seen.push(section.id);
            offset += section.bytes.len();
        }
        Ok(file)
    }

    fn section_at(&self, offset: usize) -> Result<Section<'a>, Error> {
        let head = self
            .bytes
            .get(offset..)
            .and_then(|rest| rest.get(..SECTION_HEADER_LEN))
            .ok_or_else(|| truncated(offset, None, "a section header"))?;
        let (id, size) = head
            .split_first_chunk::<4>()
            .and_then(|(id, rest)| Some((*id, *rest.first_chunk::<4>()?)))
            .ok_or_else(|| truncated(offset, None, "a section header"))?;
        let id = SectionId(id);
        if !KNOWN_SECTIONS.contains(&&id.0) {
            return Err(Error::binary(
                ErrorCode::BadValue,
                offset as u64,
                None,
                format_args!(
                    "unknown section id {}: one of INF1 VTX1 EVP1 DRW1 JNT1 SHP1 MAT3 MAT2 MDL3 TEX1 expected",
                    crate::error::Quote(id.as_str())
                ),
            ));
        }
        let size = u32::from_be_bytes(size) as usize;
        if size < SECTION_HEADER_LEN {
            return Err(Error::binary(
                ErrorCode::BadValue,
                offset as u64 + 4,
                Some(id),
                format_args!("section size {size} is smaller than its 8-byte header"),
            ));
        }
        let bytes = offset
            .checked_add(size)
            .and_then(|end| self.bytes.get(offset..end))
            .ok_or_else(|| truncated(offset, Some(id), "the section's declared size"))?;
        Ok(Section { id, offset, bytes })
    }

    /// The model flavour.
    pub const fn flavour(&self) -> Flavour {
        self.flavour
    }

    /// The file's bytes up to its declared size.
    pub const fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The sections in file order.
    pub fn sections(&self) -> impl Iterator<Item = Section<'a>> + '_ {
        let mut offset = HEADER_LEN;
        (0..self.section_count).map_while(move |_| {
            // `parse` already walked these, so this cannot fail.
            let section = self.section_at(offset).ok()?;
            offset += section.bytes.len();
            Some(section)
        })
    }

    /// The section with `id`, if the file has one.
    pub fn section(&self, id: &[u8; 4]) -> Option<Section<'a>> {
        self.sections().find(|s| &s.id.0 == id)
    }
}

fn truncated(offset: usize, section: Option<SectionId>, expected: &str) -> Error {
    Error::binary(
        ErrorCode::Truncated,
        offset as u64,
        section,
        format_args!("file ends at byte {offset}: {expected} expected"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    fn file(sections: &[(&[u8; 4], usize)]) -> Vec<u8> {
        let total = HEADER_LEN + sections.iter().map(|s| s.1).sum::<usize>();
        let mut out = Vec::new();
        out.extend_from_slice(b"J3D2bdl4");
        out.extend_from_slice(&(total as u32).to_be_bytes());
        out.extend_from_slice(&(sections.len() as u32).to_be_bytes());
        out.extend_from_slice(b"SVR3");
        out.extend_from_slice(&[0xFF; 12]);
        for (id, size) in sections {
            out.extend_from_slice(*id);
            out.extend_from_slice(&(*size as u32).to_be_bytes());
            out.resize(out.len() + size - 8, 0);
        }
        out
    }

    #[test]
    fn walks_sections_in_file_order() {
        let bytes = file(&[(b"INF1", 32), (b"VTX1", 64), (b"TEX1", 8)]);
        let f = J3dFile::parse(&bytes).unwrap();
        assert_eq!(f.flavour(), Flavour::Bdl4);
        let ids: Vec<_> = f
            .sections()
            .map(|s| (s.id.0, s.offset, s.bytes.len()))
            .collect();
        assert_eq!(
            ids,
            [(*b"INF1", 32, 32), (*b"VTX1", 64, 64), (*b"TEX1", 128, 8)]
        );
        assert_eq!(f.section(b"VTX1").unwrap().offset, 64);
    }

    #[test]
    fn every_truncation_is_a_typed_error() {
        let bytes = file(&[(b"INF1", 32), (b"VTX1", 64)]);
        for cut in 0..bytes.len() {
            let e = J3dFile::parse(&bytes[..cut]).unwrap_err();
            assert!(
                matches!(e.code(), ErrorCode::Truncated | ErrorCode::UnknownFormat),
                "cut {cut}: {e}"
            );
        }
    }

    #[test]
    fn a_section_past_the_end_names_its_section_and_offset() {
        let mut bytes = file(&[(b"INF1", 32)]);
        bytes[0x24..0x28].copy_from_slice(&1000u32.to_be_bytes());
        let e = J3dFile::parse(&bytes).unwrap_err();
        assert_eq!(e.code(), ErrorCode::Truncated);
        assert_eq!(std::string::ToString::to_string(e.at()), "0x20 INF1");
    }

    #[test]
    fn undersized_unknown_and_repeated_sections_are_rejected() {
        let mut bytes = file(&[(b"INF1", 32)]);
        bytes[0x24..0x28].copy_from_slice(&4u32.to_be_bytes());
        assert_eq!(
            J3dFile::parse(&bytes).unwrap_err().code(),
            ErrorCode::BadValue
        );
        let bytes = file(&[(b"ABCD", 16)]);
        assert_eq!(
            J3dFile::parse(&bytes).unwrap_err().code(),
            ErrorCode::BadValue
        );
        let bytes = file(&[(b"INF1", 16), (b"INF1", 16)]);
        assert_eq!(
            J3dFile::parse(&bytes).unwrap_err().code(),
            ErrorCode::BadValue
        );
    }

    #[test]
    fn a_huge_section_count_stops_at_the_end_of_the_file() {
        let mut bytes = file(&[(b"INF1", 16)]);
        bytes[12..16].copy_from_slice(&u32::MAX.to_be_bytes());
        assert_eq!(
            J3dFile::parse(&bytes).unwrap_err().code(),
            ErrorCode::Truncated
        );
    }
}
