//! RARC, the archives GameCube and Wii games (JSystem's `JKRArchive`) ship
//! models, animations and textures in: read in place, without a heap.
//!
//! An archive is a 0x20-byte header, a 0x20-byte info header (`header.rs`),
//! a table of directory nodes, a table of file entries and a string table
//! (`records.rs`), then the members' bytes from `0x20 + info size`. Node 0
//! is the root (type `ROOT`); every node owns a run of file entries, which
//! are its files, its subdirectories (an entry whose data offset is a node
//! index) and `.` / `..`. A member's bytes lie at `0x20 + info size + entry
//! offset`, stored as they are or compressed (Yaz0 or Yay0, by its flags).
//! Archives are often Yaz0-wrapped as a whole (`.szs`, and most `.arc`
//! files); [`unwrapped_len`] and [`unwrap_into`] undo that first.
//!
//! [`Archive::parse`] checks both headers, then walks the tree from the
//! root once (`walk.rs`): every name, every subdirectory index, every
//! member's extent and compressed header, the depth and the members' total
//! size are checked there, against [`RarcLimits`], before a caller reads a
//! byte of any member. After that the walk ([`Archive::walk`],
//! [`Archive::members`]) and [`Archive::find`] cannot fail on the archive.
//!
//! ```
//! # fn demo(bytes: &[u8]) -> Result<(), scenedec::Error> {
//! use scenedec::rarc::Archive;
//! let archive = Archive::parse(bytes, &scenedec::RarcLimits::DEFAULT)?;
//! for member in archive.members() {
//!     let size = member.size; // decompressed, checked against the limits
//!     let in_place: Option<&[u8]> = member.plain(); // None when compressed
//! #   let _ = (size, in_place);
//! }
//! let model = archive.find("bdl/model.bdl")?; // as games ask: from the root, any case
//! # let _ = model;
//! # Ok(())
//! # }
//! ```
#![allow(
    clippy::arithmetic_side_effects,
    reason = "entry indices are below first + count, which the node read checked against the table's length (below 2^32)"
)]

mod header;
mod records;
mod walk;

pub use header::{Endian, Header};
pub use records::{Compression, Entry, Flags, Node};
pub use walk::{DEPTH_CAP, Directory, Dirs, Item, Member, Walk};

use header::Reader;
use records::Tables;

use crate::error::{Error, ErrorCode, Location};
use crate::limits::{RarcLimits, check};

/// A RARC archive whose headers and whole directory tree were checked.
#[derive(Clone, Copy, Debug)]
pub struct Archive<'a> {
    bytes: &'a [u8],
    tables: Tables<'a>,
    depth_limit: usize,
    members: usize,
    directories: usize,
    total_bytes: u64,
}

impl<'a> Archive<'a> {
    /// Checks `bytes` (a whole archive, not Yaz0-wrapped) against `limits`:
    /// both headers, then the walk over every directory and member reached
    /// from the root. Nothing is decompressed; compressed members' sizes
    /// come from their stream headers.
    pub fn parse(bytes: &'a [u8], limits: &RarcLimits) -> Result<Self, Error> {
        let header = Header::read(bytes, limits)?;
        let bytes = bytes.get(..header.archive_len).unwrap_or(bytes);
        let mut archive = Self {
            bytes,
            tables: Tables {
                reader: Reader {
                    bytes,
                    endian: header.endian,
                },
                header,
                max_name: usize::try_from(limits.max_name_bytes).unwrap_or(usize::MAX),
            },
            depth_limit: usize::try_from(limits.max_depth)
                .unwrap_or(usize::MAX)
                .min(DEPTH_CAP),
            members: 0,
            directories: 0,
            total_bytes: 0,
        };
        let root = archive.tables.node(0)?;
        if root.kind != *b"ROOT" {
            return Err(Error::binary(
                ErrorCode::BadValue,
                root.at as u64,
                None,
                format_args!(
                    "node 0 has type {}: ROOT (52 4f 4f 54) expected",
                    crate::error::Hex(&root.kind, false)
                ),
            ));
        }
        let (mut members, mut directories, mut total) = (0usize, 0usize, 0u64);
        let mut walk = Walk::new(&archive);
        while let Some(item) = walk.step()? {
            match item {
                Item::Directory(_) => directories += 1,
                Item::File(m) => {
                    members += 1;
                    total = total.saturating_add(m.size);
                    check(
                        total,
                        limits.max_total_bytes,
                        ErrorCode::ArchiveTooLarge,
                        "members' bytes (decompressed) so far (maxArchiveTotalBytes)",
                        Location::Binary {
                            offset: (m.entry.at + 0x0C) as u64,
                            section: None,
                        },
                    )?;
                }
            }
        }
        archive.members = members;
        archive.directories = directories;
        archive.total_bytes = total;
        Ok(archive)
    }

    /// The archive's bytes (up to its declared size).
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Both headers.
    pub fn header(&self) -> &Header {
        &self.tables.header
    }

    /// The root directory's node (node 0, type `ROOT`).
    pub fn root(&self) -> Node<'a> {
        // `parse` read it; an empty name stands in for the impossible error.
        self.tables.node(0).unwrap_or(Node {
            index: 0,
            kind: *b"ROOT",
            name: &[],
            name_hash: 0,
            first_entry: 0,
            entry_count: 0,
            at: 0,
        })
    }

    /// Node `index` of the node table, checked (whether or not the walk
    /// reaches it).
    pub fn node(&self, index: u32) -> Result<Node<'a>, Error> {
        self.tables.node(index)
    }

    /// Entry `index` of the file-entry table, checked.
    pub fn entry(&self, index: u32) -> Result<Entry<'a>, Error> {
        self.tables.entry(index)
    }

    /// The entries of `node` in table order, `.` and `..` left out.
    pub fn contents(&self, node: &Node<'a>) -> impl Iterator<Item = Result<Entry<'a>, Error>> {
        let tables = self.tables;
        (node.first_entry..node.first_entry.saturating_add(u32::from(node.entry_count)))
            .map(move |i| tables.entry(i))
            .filter(|e| !e.as_ref().is_ok_and(Entry::is_dot))
    }

    /// Files reached from the root.
    pub fn member_count(&self) -> usize {
        self.members
    }

    /// Directories reached from the root, the root included.
    pub fn directory_count(&self) -> usize {
        self.directories
    }

    /// Bytes of every member, decompressed, together.
    pub fn total_bytes(&self) -> u64 {
        self.total_bytes
    }

    /// Every directory and file, depth first from the root, each directory
    /// before its contents and its entries in table order.
    pub fn walk(&self) -> Walk<'a, '_> {
        Walk::new(self)
    }

    /// Every file, in the walk's order (each carries its table index).
    pub fn members(&self) -> impl Iterator<Item = Member<'a>> + '_ {
        self.walk().filter_map(|item| match item {
            Item::File(m) => Some(m),
            Item::Directory(_) => None,
        })
    }

    /// Every directory, in the walk's order (the root first).
    pub fn directories(&self) -> impl Iterator<Item = Directory<'a>> + '_ {
        self.walk().filter_map(|item| match item {
            Item::Directory(d) => Some(d),
            Item::File(_) => None,
        })
    }

    /// The member at `path`, as games name them: `/`-separated names below
    /// the root (the root's own name is not part of it), matched without
    /// regard to ASCII case. Directories are matched by their entries'
    /// names in the parent, as the games look them up (the walk's paths use
    /// the nodes' names; every real archive gives both the same name).
    /// Empty components are ignored; `.` and `..` match nothing. `None`
    /// when nothing matches, or the path names a directory.
    pub fn find(&self, path: &str) -> Result<Option<Member<'a>>, Error> {
        let mut node = self.tables.node(0)?;
        let mut dirs = Dirs::new();
        let _ = dirs.push(node.name);
        let mut parts = path.split('/').filter(|p| !p.is_empty()).peekable();
        while let Some(part) = parts.next() {
            let last = parts.peek().is_none();
            let mut next = None;
            for entry in self.contents(&node) {
                let entry = entry?;
                if entry.name.eq_ignore_ascii_case(part.as_bytes())
                    && entry.flags.is_directory() != last
                {
                    next = Some(entry);
                    break;
                }
            }
            let Some(entry) = next else {
                return Ok(None);
            };
            if last {
                return self.member(dirs, entry).map(Some);
            }
            node = self.tables.node(entry.data_offset)?;
            if dirs.push(node.name).is_err() {
                return Ok(None);
            }
        }
        Ok(None)
    }

    /// The member of file entry `entry` in the directories `dirs`: its
    /// stored bytes inside the archive, its size from a compressed header.
    pub(crate) fn member(&self, dirs: Dirs<'a>, entry: Entry<'a>) -> Result<Member<'a>, Error> {
        let stored_at =
            usize::try_from(self.tables.header.data_start as u64 + u64::from(entry.data_offset))
                .unwrap_or(usize::MAX);
        let stored = stored_at
            .checked_add(entry.data_size as usize)
            .and_then(|end| self.bytes.get(stored_at..end))
            .ok_or_else(|| {
                Error::binary(
                    ErrorCode::BadOffset,
                    (entry.at + 8) as u64,
                    None,
                    format_args!(
                        "member {} ({} bytes at {stored_at:#x}) runs past the end of the archive ({} bytes)",
                        entry.index,
                        entry.data_size,
                        self.bytes.len()
                    ),
                )
            })?;
        let shift = |e: Error| {
            Error::binary(
                e.code(),
                stored_at as u64,
                None,
                format_args!("member {}: {}", entry.index, e.message()),
            )
        };
        let size = match entry.flags.compression() {
            Compression::None => stored.len(),
            Compression::Yaz0 => crate::yaz0::decompressed_len(stored).map_err(shift)?,
            Compression::Yay0 => crate::yay0::decompressed_len(stored).map_err(shift)?,
        };
        Ok(Member {
            dirs,
            entry,
            stored,
            stored_at,
            size: size as u64,
        })
    }
}

/// Bytes the archive takes once its Yaz0 wrapper is undone (the Yaz0
/// header's size, checked against `max_archive_bytes`), or 0 for bytes that
/// are not Yaz0 (they are read in place).
pub fn unwrapped_len(bytes: &[u8], limits: &RarcLimits) -> Result<usize, Error> {
    if !bytes.starts_with(crate::yaz0::MAGIC) {
        return Ok(0);
    }
    let len = crate::yaz0::decompressed_len(bytes)?;
    check(
        len as u64,
        limits.max_archive_bytes,
        ErrorCode::ArchiveTooLarge,
        "decompressed Yaz0 bytes (maxArchiveBytes)",
        Location::Binary {
            offset: 4,
            section: None,
        },
    )?;
    Ok(len)
}

/// Undoes a Yaz0 wrapper into `out` (exactly [`unwrapped_len`] bytes) and
/// returns the archive's bytes; bytes that are not Yaz0 are returned as they
/// are and `out` is not used.
pub fn unwrap_into<'a>(
    bytes: &'a [u8],
    limits: &RarcLimits,
    out: &'a mut [u8],
) -> Result<&'a [u8], Error> {
    if unwrapped_len(bytes, limits)? == 0 && !bytes.starts_with(crate::yaz0::MAGIC) {
        return Ok(bytes);
    }
    crate::yaz0::decompress_into(bytes, out)?;
    Ok(out)
}

#[cfg(test)]
mod tests;
