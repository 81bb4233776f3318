//! The walk over the directory tree from the root: depth first, each
//! directory's entries in table order, `.` and `..` skipped.
//!
//! Without a heap the walk keeps a fixed stack of [`DEPTH_CAP`] frames (one
//! per open directory, a few dozen bytes each) and the names of the open
//! directories, so each member can carry its path. A hostile tree cannot
//! make it loop or run long:
//!
//! - a subdirectory entry that names the root, the directory itself or any
//!   directory above it is a cycle: HIERARCHY_TOO_DEEP, found on the stack;
//! - nesting past `max_depth` (at most [`DEPTH_CAP`]) is HIERARCHY_TOO_DEEP;
//! - a directory reached through two entries is read twice at most until
//!   the walk has opened more directories than the archive has nodes, or
//!   read more entries than the table holds: TOO_MANY_NODES. Both bounds
//!   keep a walk to one pass over the tables in the worst case.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters are bounded by the node and entry counts the header checked (below 2^32), and entry indices by first + count <= entry count, checked per node"
)]

use super::Archive;
use super::records::{Compression, Entry, Node};
use crate::error::{Error, ErrorCode};

/// Most directories on one path, the root included: the walk's fixed stack.
/// `RarcLimits::max_depth` may lower it, never raise it.
pub const DEPTH_CAP: usize = 64;

/// The names of the directories from the root down (the root's name first).
pub type Dirs<'a> = heapless::Vec<&'a [u8], DEPTH_CAP>;

/// A directory the walk reached.
#[derive(Clone, Debug)]
pub struct Directory<'a> {
    /// Its node.
    pub node: Node<'a>,
    /// The names from the root to this directory, both included.
    pub path: Dirs<'a>,
}

/// A file the walk reached: where it is and how it is stored.
#[derive(Clone, Debug)]
pub struct Member<'a> {
    /// The names of the directories holding it, the root's first.
    pub dirs: Dirs<'a>,
    /// Its file entry.
    pub entry: Entry<'a>,
    /// Its bytes as stored in the archive.
    pub stored: &'a [u8],
    /// Absolute offset of the stored bytes in the archive.
    pub stored_at: usize,
    /// Its size once decompressed (the stored size when it is not
    /// compressed; from the Yaz0 or Yay0 header when it is).
    pub size: u64,
}

impl<'a> Member<'a> {
    /// The path's components: the root's name, the directories', the file's.
    pub fn path(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        self.dirs
            .iter()
            .copied()
            .chain(core::iter::once(self.entry.name))
    }

    /// The member's name.
    pub fn name(&self) -> &'a [u8] {
        self.entry.name
    }

    /// How its bytes are stored.
    pub fn compression(&self) -> Compression {
        self.entry.flags.compression()
    }

    /// Its bytes, when stored as they are (zero-copy); `None` when compressed.
    pub fn plain(&self) -> Option<&'a [u8]> {
        (self.compression() == Compression::None).then_some(self.stored)
    }

    /// Copies or decompresses the member into `out`, which must be exactly
    /// [`Member::size`] bytes (ARENA_TOO_SMALL otherwise); errors in a
    /// compressed stream name their offset in the archive.
    pub fn read_into(&self, out: &mut [u8]) -> Result<(), Error> {
        let shift = |e: Error| match e.at() {
            crate::error::Location::Binary { offset, .. } => Error::binary(
                e.code(),
                offset.saturating_add(self.stored_at as u64),
                None,
                format_args!("member {}: {}", self.entry.index, e.message()),
            ),
            _ => e,
        };
        match self.compression() {
            Compression::Yaz0 => crate::yaz0::decompress_into(self.stored, out).map_err(shift),
            Compression::Yay0 => crate::yay0::decompress_into(self.stored, out).map_err(shift),
            Compression::None => match out.len() == self.stored.len() {
                true => {
                    out.copy_from_slice(self.stored);
                    Ok(())
                }
                false => Err(Error::nowhere(
                    ErrorCode::ArenaTooSmall,
                    format_args!(
                        "output buffer is {} bytes, member {} holds {}",
                        out.len(),
                        self.entry.index,
                        self.stored.len()
                    ),
                )),
            },
        }
    }
}

/// What the walk yields, in order.
#[derive(Clone, Debug)]
pub enum Item<'a> {
    /// A directory, before everything in it (the root first).
    Directory(Directory<'a>),
    /// A file.
    File(Member<'a>),
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    next: u32,
    end: u32,
    node: u32,
}

/// The depth-first walk; see the module's documentation.
#[derive(Clone, Debug)]
pub struct Walk<'a, 'r> {
    archive: &'r Archive<'a>,
    frames: heapless::Vec<Frame, DEPTH_CAP>,
    names: Dirs<'a>,
    started: bool,
    opened: usize,
    scanned: usize,
}

impl<'a, 'r> Walk<'a, 'r> {
    pub(crate) fn new(archive: &'r Archive<'a>) -> Self {
        Self {
            archive,
            frames: heapless::Vec::new(),
            names: heapless::Vec::new(),
            started: false,
            opened: 0,
            scanned: 0,
        }
    }

    /// The next directory or file, or the error that stops the walk.
    pub(crate) fn step(&mut self) -> Result<Option<Item<'a>>, Error> {
        let tables = &self.archive.tables;
        if !self.started {
            self.started = true;
            let root = tables.node(0)?;
            return self.open(root).map(Some);
        }
        loop {
            let Some(top) = self.frames.last_mut() else {
                return Ok(None);
            };
            if top.next >= top.end {
                self.frames.pop();
                self.names.pop();
                continue;
            }
            let index = top.next;
            let parent = top.node;
            top.next += 1;
            let entry = tables.entry(index)?;
            if entry.is_dot() {
                continue;
            }
            if entry.flags.is_directory() {
                let child = entry.data_offset;
                if self.frames.iter().any(|f| f.node == child) {
                    return Err(Error::binary(
                        ErrorCode::HierarchyTooDeep,
                        (entry.at + 8) as u64,
                        None,
                        format_args!(
                            "directory entry {index} of node {parent} names node {child}, which holds it: a cycle"
                        ),
                    ));
                }
                let node = tables.node(child).map_err(|e| match e.code() {
                    // The entry, not the node table, is what is wrong.
                    ErrorCode::BadOffset if child as usize >= tables.header.node_count => {
                        Error::binary(
                            ErrorCode::BadOffset,
                            (entry.at + 8) as u64,
                            None,
                            format_args!(
                                "directory entry {index} names node {child}, past the {} nodes",
                                tables.header.node_count
                            ),
                        )
                    }
                    _ => e,
                })?;
                return self.open(node).map(Some);
            }
            return self
                .archive
                .member(self.names.clone(), entry)
                .map(|m| Some(Item::File(m)));
        }
    }

    fn open(&mut self, node: Node<'a>) -> Result<Item<'a>, Error> {
        let header = &self.archive.tables.header;
        let limit = self.archive.depth_limit;
        if self.frames.len() >= limit {
            return Err(Error::binary(
                ErrorCode::HierarchyTooDeep,
                node.at as u64,
                None,
                format_args!("directories nest deeper than the limit of {limit} (maxArchiveDepth)"),
            ));
        }
        self.opened += 1;
        self.scanned += usize::from(node.entry_count);
        if self.opened > header.node_count || self.scanned > header.entry_count {
            return Err(Error::binary(
                ErrorCode::TooManyNodes,
                node.at as u64,
                None,
                format_args!(
                    "node {} is reached a second time: the walk opened {} directories and read {} entries of {} nodes and {} entries",
                    node.index, self.opened, self.scanned, header.node_count, header.entry_count
                ),
            ));
        }
        let frame = Frame {
            next: node.first_entry,
            end: node.first_entry + u32::from(node.entry_count),
            node: node.index,
        };
        // Both stacks hold `limit` <= DEPTH_CAP entries, checked above.
        let _ = self.frames.push(frame);
        let _ = self.names.push(node.name);
        Ok(Item::Directory(Directory {
            node,
            path: self.names.clone(),
        }))
    }
}

impl<'a> Iterator for Walk<'a, '_> {
    type Item = Item<'a>;

    /// The next item. An archive from [`Archive::parse`] walked to the end
    /// once without an error, so this walk cannot meet one; were it to, it
    /// would end there.
    fn next(&mut self) -> Option<Item<'a>> {
        match self.step() {
            Ok(item) => item,
            Err(_) => {
                self.frames.clear();
                None
            }
        }
    }
}
