//! Directory nodes, file entries and their names in the string table.
//!
//! Node (0x10 bytes): type (4 characters, space-padded, e.g. `ROOT`,
//! `BMD `), u32 name offset into the string table, u16 name hash, u16 count
//! of file entries, u32 index of the first. The node's entries are that run
//! of the file-entry table; they include `.` (the node itself) and `..`
//! (its parent), which the reader skips by name as the games do.
//!
//! File entry (0x14 bytes): u16 file ID, u16 name hash, u32 whose top byte
//! is the flags and whose low 24 bits are the name's offset in the string
//! table, u32 data offset (a directory: the index of its node), u32 size,
//! u32 unused (a pointer the game fills in when loaded).
//!
//! Names are NUL-terminated bytes (ASCII in every archive seen; Japanese
//! games may use Shift-JIS), looked for at most `max_name_bytes` + 1 bytes
//! far, so a name without a NUL costs a bounded read. Name hashes are kept
//! but not checked: the games compare names after a hash match, and readers
//! such as noclip.website ignore them.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "indices are below counts whose tables the header found inside the archive, so index * record size + table start is an offset of the archive's slice; a name offset is below the string table's length, checked first"
)]

use super::header::{ENTRY_LEN, Endian, Header, NODE_LEN, Reader};
use crate::error::{Error, ErrorCode};

/// The flag bits of a file entry (the top byte of its flags/name word).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flags(pub u8);

impl Flags {
    /// A file.
    pub const FILE: u8 = 0x01;
    /// A directory: the data offset is a node index.
    pub const DIRECTORY: u8 = 0x02;
    /// Stored compressed (Yaz0 when [`Flags::YAZ0`] is set, else Yay0).
    pub const COMPRESSED: u8 = 0x04;
    /// Loaded to main RAM.
    pub const MRAM: u8 = 0x10;
    /// Loaded to auxiliary RAM.
    pub const ARAM: u8 = 0x20;
    /// Left on the disc until asked for.
    pub const DVD: u8 = 0x40;
    /// With [`Flags::COMPRESSED`]: Yaz0 rather than Yay0.
    pub const YAZ0: u8 = 0x80;

    /// True for a directory entry.
    pub const fn is_directory(self) -> bool {
        self.0 & Self::DIRECTORY != 0
    }

    /// How a member's bytes are stored.
    pub const fn compression(self) -> Compression {
        if self.0 & Self::COMPRESSED == 0 {
            Compression::None
        } else if self.0 & Self::YAZ0 != 0 {
            Compression::Yaz0
        } else {
            Compression::Yay0
        }
    }
}

/// How a member's bytes are stored in the archive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// As they are.
    None,
    /// A Yaz0 stream (src/yaz0.rs).
    Yaz0,
    /// A Yay0 stream (src/yay0.rs).
    Yay0,
}

impl Compression {
    /// `None`, `Yaz0` or `Yay0`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::None => "None",
            Self::Yaz0 => "Yaz0",
            Self::Yay0 => "Yay0",
        }
    }
}

/// One directory node, read and checked: its name is in the string table
/// and its run of entries inside the file-entry table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node<'a> {
    /// Index in the node table (0: the root).
    pub index: u32,
    /// The 4-character type as stored (read in text order for `CRAR` too).
    pub kind: [u8; 4],
    /// The name's bytes.
    pub name: &'a [u8],
    /// The stored name hash (not checked).
    pub name_hash: u16,
    /// Index of the node's first file entry.
    pub first_entry: u32,
    /// File entries of the node, `.` and `..` included.
    pub entry_count: u16,
    /// Absolute offset of the node record.
    pub at: usize,
}

/// One file entry, read and checked: its name is in the string table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<'a> {
    /// Index in the whole file-entry table.
    pub index: u32,
    /// The file ID (0xFFFF on most directory entries).
    pub id: u16,
    /// The stored name hash (not checked).
    pub name_hash: u16,
    /// The flag bits.
    pub flags: Flags,
    /// The name's bytes.
    pub name: &'a [u8],
    /// From the start of member data (a directory: its node index).
    pub data_offset: u32,
    /// Bytes stored (a directory: 0x10, not used).
    pub data_size: u32,
    /// Absolute offset of the entry record.
    pub at: usize,
}

impl Entry<'_> {
    /// True for `.` and `..`, which every reader skips.
    pub fn is_dot(&self) -> bool {
        matches!(self.name, b"." | b"..")
    }
}

/// Reads records and names of a checked header.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tables<'a> {
    pub(crate) reader: Reader<'a>,
    pub(crate) header: Header,
    pub(crate) max_name: usize,
}

impl<'a> Tables<'a> {
    /// The NUL-terminated name at `offset` in the string table.
    pub(crate) fn name(&self, offset: u32, owner: usize) -> Result<&'a [u8], Error> {
        let h = &self.header;
        let offset = offset as usize;
        let at = h.strings_at + offset;
        if offset >= h.strings_len {
            return Err(Error::binary(
                ErrorCode::BadOffset,
                owner as u64,
                None,
                format_args!(
                    "name offset {offset:#x} lies outside the {}-byte string table",
                    h.strings_len
                ),
            ));
        }
        // The header checked the table lies inside the archive.
        let rest = self
            .reader
            .slice(at, h.strings_len - offset, "string table")?;
        let window = rest.get(..self.max_name.saturating_add(1)).unwrap_or(rest);
        match window.iter().position(|&b| b == 0) {
            Some(len) => Ok(window.get(..len).unwrap_or_default()),
            None if window.len() < rest.len() || rest.len() > self.max_name => Err(Error::binary(
                ErrorCode::NameTooLong,
                at as u64,
                None,
                format_args!(
                    "name at {at:#x} is longer than the limit of {} bytes (maxArchiveNameBytes)",
                    self.max_name
                ),
            )),
            None => Err(Error::binary(
                ErrorCode::Truncated,
                at as u64,
                None,
                format_args!("name at {at:#x} has no NUL before the string table ends"),
            )),
        }
    }

    /// Node `index`, checked.
    pub(crate) fn node(&self, index: u32) -> Result<Node<'a>, Error> {
        let h = &self.header;
        if index as usize >= h.node_count {
            return Err(Error::binary(
                ErrorCode::BadOffset,
                h.nodes_at as u64,
                None,
                format_args!("node {index} is past the {} nodes", h.node_count),
            ));
        }
        let at = h.nodes_at + index as usize * NODE_LEN;
        let r = &self.reader;
        let mut kind = [0u8; 4];
        kind.copy_from_slice(r.slice(at, 4, "node type")?);
        if r.endian == Endian::Little {
            kind.reverse();
        }
        let name = self.name(r.u32(at + 4, "node name")?, at + 4)?;
        let entry_count = r.u16(at + 0x0A, "node entry count")?;
        let first_entry = r.u32(at + 0x0C, "node first entry")?;
        let end = u64::from(first_entry) + u64::from(entry_count);
        if end > h.entry_count as u64 {
            return Err(Error::binary(
                ErrorCode::BadOffset,
                (at + 0x0C) as u64,
                None,
                format_args!(
                    "node {index}'s entries {first_entry}..{end} run past the {} file entries",
                    h.entry_count
                ),
            ));
        }
        Ok(Node {
            index,
            kind,
            name,
            name_hash: r.u16(at + 8, "node name hash")?,
            first_entry,
            entry_count,
            at,
        })
    }

    /// File entry `index`, checked.
    pub(crate) fn entry(&self, index: u32) -> Result<Entry<'a>, Error> {
        let h = &self.header;
        if index as usize >= h.entry_count {
            return Err(Error::binary(
                ErrorCode::BadOffset,
                h.entries_at as u64,
                None,
                format_args!("file entry {index} is past the {} entries", h.entry_count),
            ));
        }
        let at = h.entries_at + index as usize * ENTRY_LEN;
        let r = &self.reader;
        let word = r.u32(at + 4, "entry flags and name")?;
        Ok(Entry {
            index,
            id: r.u16(at, "file ID")?,
            name_hash: r.u16(at + 2, "entry name hash")?,
            flags: Flags(word.to_be_bytes()[0]),
            name: self.name(word & 0x00FF_FFFF, at + 4)?,
            data_offset: r.u32(at + 8, "entry data offset")?,
            data_size: r.u32(at + 0x0C, "entry data size")?,
            at,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn flags_name_the_compression() {
        assert_eq!(Flags(0x11).compression(), Compression::None);
        assert_eq!(Flags(0x15).compression(), Compression::Yay0);
        assert_eq!(Flags(0x95).compression(), Compression::Yaz0);
        // The Yaz0 bit alone says nothing: the member is not compressed.
        assert_eq!(Flags(0x91).compression(), Compression::None);
        assert!(Flags(0x02).is_directory());
        assert!(!Flags(0x21).is_directory());
    }

    fn tables(strings: &[u8], max_name: usize) -> Tables<'_> {
        Tables {
            reader: Reader {
                bytes: strings,
                endian: Endian::Big,
            },
            header: Header {
                endian: Endian::Big,
                archive_len: strings.len(),
                data_start: strings.len(),
                data_len: 0,
                mram_aram_dvd: [0; 3],
                node_count: 0,
                nodes_at: 0,
                entry_count: 0,
                entries_at: 0,
                strings_at: 0,
                strings_len: strings.len(),
                next_id: 0,
                ids_synced: false,
            },
            max_name,
        }
    }

    #[test]
    fn names_end_at_their_nul() {
        let t = tables(b".\0..\0model.bdl\0", 255);
        assert_eq!(t.name(0, 0).unwrap(), b".");
        assert_eq!(t.name(2, 0).unwrap(), b"..");
        assert_eq!(t.name(5, 0).unwrap(), b"model.bdl");
        assert_eq!(t.name(7, 0).unwrap(), b"del.bdl");
    }

    #[test]
    fn a_name_outside_the_table_is_a_bad_offset() {
        let t = tables(b"a\0", 255);
        let e = t.name(2, 0x44).unwrap_err();
        assert_eq!(
            (e.code(), e.at().to_string()),
            (ErrorCode::BadOffset, "0x44".into())
        );
    }

    #[test]
    fn a_name_without_nul_is_truncated() {
        let t = tables(b"a\0abc", 255);
        assert_eq!(t.name(2, 0).unwrap_err().code(), ErrorCode::Truncated);
    }

    #[test]
    fn name_length_is_checked_at_the_limit_and_one_past() {
        let t = tables(b"abcd\0", 4);
        assert_eq!(t.name(0, 0).unwrap(), b"abcd");
        let t = tables(b"abcd\0", 3);
        let e = t.name(0, 0).unwrap_err();
        assert_eq!(e.code(), ErrorCode::NameTooLong);
        // A long name without NUL is too long, not truncated: the limit is
        // what stopped the search.
        let t = tables(b"abcdefgh", 3);
        assert_eq!(t.name(0, 0).unwrap_err().code(), ErrorCode::NameTooLong);
    }
}
