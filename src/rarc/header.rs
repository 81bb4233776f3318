//! The RARC header (0x20 bytes) and the info header after it (0x20 bytes),
//! read with bounds-checked reads in the archive's byte order.
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0x00 | 4 | magic: `RARC` (big-endian) or `CRAR` (little-endian) |
//! | 0x04 | 4 | archive size; must not exceed the bytes present |
//! | 0x08 | 4 | header size, always 0x20 |
//! | 0x0C | 4 | info size: member data starts at 0x20 + this |
//! | 0x10 | 4 | data size |
//! | 0x14 | 4 | data loaded to main RAM (MRAM) |
//! | 0x18 | 4 | data loaded to auxiliary RAM (ARAM) |
//! | 0x1C | 4 | data left on the disc (DVD) |
//! | 0x20 | 4 | node count (directories, the root included) |
//! | 0x24 | 4 | node table offset, from 0x20 |
//! | 0x28 | 4 | file-entry count (members, directories, `.` and `..`) |
//! | 0x2C | 4 | file-entry table offset, from 0x20 |
//! | 0x30 | 4 | string table size |
//! | 0x34 | 4 | string table offset, from 0x20 |
//! | 0x38 | 2 | the next free file ID |
//! | 0x3A | 1 | 1 when file IDs are kept equal to entry indices |
#![allow(
    clippy::arithmetic_side_effects,
    reason = "the remaining sums are offsets below 0x40 added to offsets of the archive's own slices; offsets read from the file are added in u64 and converted with a saturating try_from"
)]

use crate::error::{Error, ErrorCode};
use crate::limits::{RarcLimits, check};

/// Bytes of the RARC header; the info header follows it.
pub const HEADER_LEN: usize = 0x20;
/// Where every offset of the info header is counted from (its own start).
pub const INFO_START: usize = 0x20;
/// Bytes of the header and the info header together.
pub const HEADERS_LEN: usize = 0x40;
/// Bytes of one directory node.
pub const NODE_LEN: usize = 0x10;
/// Bytes of one file entry.
pub const ENTRY_LEN: usize = 0x14;

/// The byte order of an archive, from its magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endian {
    /// `RARC`: GameCube and Wii.
    Big,
    /// `CRAR`: the same layout little-endian, as Super Mario 3D All-Stars
    /// (Switch) ships Super Mario Galaxy's archives.
    Little,
}

/// Bounds-checked reads of the archive in its byte order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) endian: Endian,
}

impl<'a> Reader<'a> {
    /// `len` bytes at `at`, or TRUNCATED naming `what`.
    pub(crate) fn slice(&self, at: usize, len: usize, what: &str) -> Result<&'a [u8], Error> {
        at.checked_add(len)
            .and_then(|end| self.bytes.get(at..end))
            .ok_or_else(|| {
                Error::binary(
                    ErrorCode::Truncated,
                    at as u64,
                    None,
                    format_args!(
                        "{what} ({len} bytes at {at:#x}) runs past the end of the archive ({} bytes)",
                        self.bytes.len()
                    ),
                )
            })
    }

    fn array<const N: usize>(&self, at: usize, what: &str) -> Result<[u8; N], Error> {
        let b = self.slice(at, N, what)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    pub(crate) fn u8(&self, at: usize, what: &str) -> Result<u8, Error> {
        Ok(self.array::<1>(at, what)?[0])
    }

    pub(crate) fn u16(&self, at: usize, what: &str) -> Result<u16, Error> {
        let b = self.array(at, what)?;
        Ok(match self.endian {
            Endian::Big => u16::from_be_bytes(b),
            Endian::Little => u16::from_le_bytes(b),
        })
    }

    pub(crate) fn u32(&self, at: usize, what: &str) -> Result<u32, Error> {
        let b = self.array(at, what)?;
        Ok(match self.endian {
            Endian::Big => u32::from_be_bytes(b),
            Endian::Little => u32::from_le_bytes(b),
        })
    }
}

/// Both headers, checked: every table lies inside the archive and every
/// count is within its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The byte order.
    pub endian: Endian,
    /// The archive's declared size (the bytes read; anything after is ignored).
    pub archive_len: usize,
    /// Where member data starts: 0x20 + the info size.
    pub data_start: usize,
    /// The declared data size (not relied on: members are checked against the archive).
    pub data_len: u32,
    /// Bytes the header says load to main RAM, auxiliary RAM and stay on disc.
    pub mram_aram_dvd: [u32; 3],
    /// Directory nodes.
    pub node_count: usize,
    /// Absolute offset of the node table.
    pub nodes_at: usize,
    /// File entries (members, directories, `.` and `..`).
    pub entry_count: usize,
    /// Absolute offset of the file-entry table.
    pub entries_at: usize,
    /// Absolute offset of the string table.
    pub strings_at: usize,
    /// Bytes of the string table.
    pub strings_len: usize,
    /// The next free file ID.
    pub next_id: u16,
    /// True when the archive keeps file IDs equal to entry indices.
    pub ids_synced: bool,
}

impl Header {
    /// Reads and checks both headers of `bytes`, a whole archive (not
    /// Yaz0-wrapped).
    pub fn read(bytes: &[u8], limits: &RarcLimits) -> Result<Self, Error> {
        let endian = match bytes.get(..4) {
            Some(b"RARC") => Endian::Big,
            Some(b"CRAR") => Endian::Little,
            _ => {
                return Err(Error::binary(
                    ErrorCode::UnknownFormat,
                    0,
                    None,
                    format_args!("not a RARC archive: magic RARC or CRAR expected"),
                ));
            }
        };
        let r = Reader { bytes, endian };
        r.slice(0, HEADERS_LEN, "the RARC header and info header")?;
        let archive_len = r.u32(0x04, "archive size")? as usize;
        if archive_len > bytes.len() {
            return Err(Error::binary(
                ErrorCode::Truncated,
                bytes.len() as u64,
                None,
                format_args!(
                    "archive ends at byte {}: its header declares {archive_len} bytes",
                    bytes.len()
                ),
            ));
        }
        if archive_len < HEADERS_LEN {
            return Err(Error::binary(
                ErrorCode::BadValue,
                4,
                None,
                format_args!("archive size {archive_len} is smaller than its 64 bytes of headers"),
            ));
        }
        check(
            archive_len as u64,
            limits.max_archive_bytes,
            ErrorCode::ArchiveTooLarge,
            "archive bytes (maxArchiveBytes)",
            at(4),
        )?;
        // From here on, reads stop at the declared size.
        let r = Reader {
            bytes: bytes.get(..archive_len).unwrap_or(bytes),
            endian,
        };
        let header_len = r.u32(0x08, "header size")?;
        if header_len as usize != HEADER_LEN {
            return Err(Error::binary(
                ErrorCode::BadValue,
                8,
                None,
                format_args!("header size {header_len:#x}: 0x20 expected"),
            ));
        }
        let info_len = r.u32(0x0C, "info size")?;
        let data_start =
            usize::try_from(u64::from(info_len) + HEADER_LEN as u64).unwrap_or(usize::MAX);
        if data_start > archive_len {
            return Err(Error::binary(
                ErrorCode::BadOffset,
                0x0C,
                None,
                format_args!(
                    "member data would start at {data_start:#x}, past the archive's end ({archive_len:#x})"
                ),
            ));
        }
        let node_count = r.u32(0x20, "node count")? as usize;
        if node_count == 0 {
            return Err(Error::binary(
                ErrorCode::BadValue,
                0x20,
                None,
                format_args!("no directory nodes: the root node 0 is required"),
            ));
        }
        check(
            node_count as u64,
            limits.max_nodes,
            ErrorCode::TooManyNodes,
            "directory nodes (maxArchiveNodes)",
            at(0x20),
        )?;
        let entry_count = r.u32(0x28, "file-entry count")? as usize;
        check(
            entry_count as u64,
            limits.max_members,
            ErrorCode::TooManyMembers,
            "file entries (maxArchiveMembers)",
            at(0x28),
        )?;
        // Sums and products in u64, so a 32-bit target cannot wrap them.
        let table = |field: usize, count: usize, size: usize, what: &str| {
            let start = u64::from(r.u32(field, what)?) + INFO_START as u64;
            let len = (count as u64).saturating_mul(size as u64);
            let fits = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
            r.slice(fits(start), fits(len), what).map(|_| fits(start))
        };
        let nodes_at = table(0x24, node_count, NODE_LEN, "node table")?;
        let entries_at = table(0x2C, entry_count, ENTRY_LEN, "file-entry table")?;
        let strings_len = r.u32(0x30, "string table size")? as usize;
        let strings_at = table(0x34, strings_len, 1, "string table")?;
        Ok(Self {
            endian,
            archive_len,
            data_start,
            data_len: r.u32(0x10, "data size")?,
            mram_aram_dvd: [
                r.u32(0x14, "MRAM size")?,
                r.u32(0x18, "ARAM size")?,
                r.u32(0x1C, "DVD size")?,
            ],
            node_count,
            nodes_at,
            entry_count,
            entries_at,
            strings_at,
            strings_len,
            next_id: r.u16(0x38, "next file ID")?,
            ids_synced: r.u8(0x3A, "ID sync flag")? != 0,
        })
    }
}

fn at(offset: u64) -> crate::error::Location {
    crate::error::Location::Binary {
        offset,
        section: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;
    use std::vec::Vec;

    /// Headers of an archive with one node, three entries and a 16-byte
    /// string table, the tables back to back after the info header.
    fn headers(magic: &[u8; 4], le: bool) -> Vec<u8> {
        let w = |v: u32| if le { v.to_le_bytes() } else { v.to_be_bytes() };
        let mut b = Vec::new();
        b.extend_from_slice(magic);
        for v in [
            0x40 + 0x10 + 60 + 16,
            0x20,
            0x20 + 0x10 + 60 + 16,
            0,
            0,
            0,
            0,
        ] {
            b.extend_from_slice(&w(v));
        }
        for v in [1, 0x20, 3, 0x30, 16, 0x30 + 60] {
            b.extend_from_slice(&w(v));
        }
        b.extend_from_slice(&if le {
            3u16.to_le_bytes()
        } else {
            3u16.to_be_bytes()
        });
        b.extend_from_slice(&[1, 0, 0, 0, 0, 0]);
        b.resize(0x40 + 0x10 + 60 + 16, 0);
        b
    }

    #[test]
    fn reads_both_byte_orders_alike() {
        let big = Header::read(&headers(b"RARC", false), &RarcLimits::DEFAULT).unwrap();
        let little = Header::read(&headers(b"CRAR", true), &RarcLimits::DEFAULT).unwrap();
        assert_eq!(big.endian, Endian::Big);
        assert_eq!(little.endian, Endian::Little);
        assert_eq!(
            Header {
                endian: Endian::Big,
                ..little
            },
            big
        );
        assert_eq!(big.nodes_at, 0x40);
        assert_eq!(big.entries_at, 0x50);
        assert_eq!(big.strings_at, 0x50 + 60);
        assert_eq!(big.data_start, big.archive_len);
        assert_eq!((big.next_id, big.ids_synced), (3, true));
    }

    #[test]
    fn every_header_prefix_is_truncated() {
        let b = headers(b"RARC", false);
        for cut in 4..b.len() {
            let e = Header::read(&b[..cut], &RarcLimits::DEFAULT).unwrap_err();
            assert_eq!(e.code(), ErrorCode::Truncated, "cut {cut}: {e}");
        }
        assert_eq!(
            Header::read(b"RAR", &RarcLimits::DEFAULT)
                .unwrap_err()
                .code(),
            ErrorCode::UnknownFormat
        );
    }

    #[test]
    fn header_size_must_be_0x20() {
        let mut b = headers(b"RARC", false);
        b[0x0B] = 0x40;
        let e = Header::read(&b, &RarcLimits::DEFAULT).unwrap_err();
        assert_eq!(
            (e.code(), e.at().to_string()),
            (ErrorCode::BadValue, "0x8".into())
        );
    }

    #[test]
    fn data_may_not_start_past_the_end() {
        let mut b = headers(b"RARC", false);
        b[0x0C..0x10].copy_from_slice(&0xFFFF_0000u32.to_be_bytes());
        let e = Header::read(&b, &RarcLimits::DEFAULT).unwrap_err();
        assert_eq!(
            (e.code(), e.at().to_string()),
            (ErrorCode::BadOffset, "0xc".into())
        );
    }

    #[test]
    fn a_table_past_the_end_is_truncated_with_its_offset() {
        let mut b = headers(b"RARC", false);
        b[0x2C..0x30].copy_from_slice(&0x1000u32.to_be_bytes());
        let e = Header::read(&b, &RarcLimits::DEFAULT).unwrap_err();
        assert_eq!(e.code(), ErrorCode::Truncated);
        assert_eq!(e.at().to_string(), "0x1020");
        assert!(e.message().contains("file-entry table"), "{e}");
    }

    #[test]
    fn a_root_node_is_required() {
        let mut b = headers(b"RARC", false);
        b[0x20..0x24].fill(0);
        assert_eq!(
            Header::read(&b, &RarcLimits::DEFAULT).unwrap_err().code(),
            ErrorCode::BadValue
        );
    }

    #[test]
    fn counts_are_checked_at_their_limit_and_one_past() {
        let b = headers(b"RARC", false);
        let limits = |nodes, members, bytes| RarcLimits {
            max_nodes: nodes,
            max_members: members,
            max_archive_bytes: bytes,
            ..RarcLimits::DEFAULT
        };
        let len = b.len() as u64;
        assert!(Header::read(&b, &limits(1, 3, len)).is_ok());
        let code = |l| Header::read(&b, &l).unwrap_err().code();
        assert_eq!(code(limits(0, 3, len)), ErrorCode::TooManyNodes);
        assert_eq!(code(limits(1, 2, len)), ErrorCode::TooManyMembers);
        assert_eq!(code(limits(1, 3, len - 1)), ErrorCode::ArchiveTooLarge);
    }

    #[test]
    fn a_huge_declared_count_is_refused_before_any_table_is_read() {
        let mut b = headers(b"RARC", false);
        b[0x28..0x2C].copy_from_slice(&100_000u32.to_be_bytes());
        let e = Header::read(&b, &RarcLimits::DEFAULT).unwrap_err();
        assert_eq!(
            (e.code(), e.at().to_string()),
            (ErrorCode::TooManyMembers, "0x28".into())
        );
    }
}
