//! A small RARC writer for tests: builds an archive from a tree of
//! directories and files the way Nintendo's tools lay one out (nodes in
//! breadth-first order, each node's entries its children then `.` and `..`,
//! member data 32-byte aligned), and says where each record landed so a
//! hostile test can change one field and show what it changed.

#![allow(dead_code)]

// Named in full so the library's unit tests (no_std, std linked) can include it.
use std::string::String;
use std::vec;
use std::vec::Vec;

/// A file of the tree: name, flags (0x11 for a plain file in main RAM) and
/// the bytes stored.
#[derive(Clone, Debug)]
pub struct File {
    pub name: String,
    pub flags: u8,
    pub data: Vec<u8>,
    /// The file ID; `None` numbers it by its entry index.
    pub id: Option<u16>,
}

/// A directory of the tree.
#[derive(Clone, Debug)]
pub struct Dir {
    pub name: String,
    pub kind: [u8; 4],
    pub children: Vec<Child>,
}

/// Something in a directory.
#[derive(Clone, Debug)]
pub enum Child {
    File(File),
    Dir(Dir),
}

/// A plain file.
pub fn file(name: &str, data: &[u8]) -> Child {
    Child::File(File {
        name: name.into(),
        flags: 0x11,
        data: data.to_vec(),
        id: None,
    })
}

/// A file stored compressed: `packed` is its Yaz0 (`yaz0` true) or Yay0 stream.
pub fn packed_file(name: &str, packed: Vec<u8>, yaz0: bool) -> Child {
    Child::File(File {
        name: name.into(),
        flags: 0x15 | if yaz0 { 0x80 } else { 0 },
        data: packed,
        id: None,
    })
}

/// A directory; its type is its name's first four letters, upper case and
/// space-padded, as the tools make it (`ROOT` for the root, see [`root`]).
pub fn dir(name: &str, children: Vec<Child>) -> Child {
    let mut kind = [b' '; 4];
    for (k, c) in kind.iter_mut().zip(name.bytes()) {
        *k = c.to_ascii_uppercase();
    }
    Child::Dir(Dir {
        name: name.into(),
        kind,
        children,
    })
}

/// The root directory.
pub fn root(name: &str, children: Vec<Child>) -> Dir {
    Dir {
        name: name.into(),
        kind: *b"ROOT",
        children,
    }
}

/// A written archive and where its parts are.
#[derive(Clone, Debug)]
pub struct Built {
    pub bytes: Vec<u8>,
    pub little_endian: bool,
    /// Absolute offsets of the node table, the entry table, the string table
    /// and the member data.
    pub nodes_at: usize,
    pub entries_at: usize,
    pub strings_at: usize,
    pub data_at: usize,
    /// Per entry in table order: its name (`.`/`..` included).
    pub entry_names: Vec<String>,
}

impl Built {
    /// Offset of node `i`'s record.
    pub fn node(&self, i: usize) -> usize {
        self.nodes_at + i * 0x10
    }

    /// Offset of file entry `i`'s record.
    pub fn entry(&self, i: usize) -> usize {
        self.entries_at + i * 0x14
    }

    /// The index of the first entry named `name`.
    pub fn entry_named(&self, name: &str) -> usize {
        self.entry_names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("no entry {name}"))
    }

    /// Writes `v` at `at` in the archive's byte order.
    pub fn put_u32(&mut self, at: usize, v: u32) {
        let b = if self.little_endian {
            v.to_le_bytes()
        } else {
            v.to_be_bytes()
        };
        self.bytes[at..at + 4].copy_from_slice(&b);
    }

    /// Writes `v` at `at` in the archive's byte order.
    pub fn put_u16(&mut self, at: usize, v: u16) {
        let b = if self.little_endian {
            v.to_le_bytes()
        } else {
            v.to_be_bytes()
        };
        self.bytes[at..at + 2].copy_from_slice(&b);
    }
}

/// The name hash the tools store (not checked by readers).
pub fn hash(name: &str) -> u16 {
    name.bytes()
        .fold(0u16, |h, c| h.wrapping_mul(3).wrapping_add(u16::from(c)))
}

struct Strings(Vec<u8>);

impl Strings {
    fn add(&mut self, s: &str) -> u32 {
        let at = self.0.len() as u32;
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(0);
        at
    }
}

/// Writes `root` as a big-endian (`RARC`) or little-endian (`CRAR`) archive.
pub fn write(root: &Dir, little_endian: bool) -> Built {
    // Nodes breadth first: (dir, parent node index).
    let mut nodes: Vec<(&Dir, Option<usize>)> = vec![(root, None)];
    let mut i = 0;
    while i < nodes.len() {
        let (d, _) = nodes[i];
        for c in &d.children {
            if let Child::Dir(sub) = c {
                nodes.push((sub, Some(i)));
            }
        }
        i += 1;
    }
    let node_of = |d: &Dir| nodes.iter().position(|(n, _)| std::ptr::eq(*n, d)).unwrap();
    let mut strings = Strings(Vec::new());
    let dot = strings.add(".");
    let dotdot = strings.add("..");
    // Entries: (id, name, flags, name offset, data offset or node, size).
    struct E {
        id: u16,
        name: String,
        flags: u8,
        name_at: u32,
        offset: u32,
        size: u32,
    }
    let mut entries: Vec<E> = Vec::new();
    let mut data: Vec<u8> = Vec::new();
    let mut node_records = Vec::new();
    for (n, (d, parent)) in nodes.iter().enumerate() {
        let first = entries.len() as u32;
        for c in &d.children {
            match c {
                Child::File(f) => {
                    let offset = data.len() as u32;
                    data.extend_from_slice(&f.data);
                    data.resize(data.len().next_multiple_of(32), 0);
                    let index = entries.len() as u16;
                    entries.push(E {
                        id: f.id.unwrap_or(index),
                        name: f.name.clone(),
                        flags: f.flags,
                        name_at: strings.add(&f.name),
                        offset,
                        size: f.data.len() as u32,
                    });
                }
                Child::Dir(sub) => entries.push(E {
                    id: 0xFFFF,
                    name: sub.name.clone(),
                    flags: 0x02,
                    name_at: strings.add(&sub.name),
                    offset: node_of(sub) as u32,
                    size: 0x10,
                }),
            }
        }
        for (name, at, to) in [
            (".", dot, n as u32),
            ("..", dotdot, parent.map_or(u32::MAX, |p| p as u32)),
        ] {
            entries.push(E {
                id: 0xFFFF,
                name: name.into(),
                flags: 0x02,
                name_at: at,
                offset: to,
                size: 0x10,
            });
        }
        let count = entries.len() as u32 - first;
        node_records.push((d.kind, strings.add(&d.name), hash(&d.name), count, first));
    }
    strings.0.resize(strings.0.len().next_multiple_of(32), 0);
    let w32 = |v: u32| {
        if little_endian {
            v.to_le_bytes()
        } else {
            v.to_be_bytes()
        }
    };
    let w16 = |v: u16| {
        if little_endian {
            v.to_le_bytes()
        } else {
            v.to_be_bytes()
        }
    };
    let nodes_at = 0x40;
    let entries_at = (nodes_at + node_records.len() * 0x10).next_multiple_of(32);
    let strings_at = (entries_at + entries.len() * 0x14).next_multiple_of(32);
    let data_at = strings_at + strings.0.len();
    let total = data_at + data.len();
    let mut b = Vec::with_capacity(total);
    b.extend_from_slice(if little_endian { b"CRAR" } else { b"RARC" });
    for v in [total, 0x20, data_at - 0x20, data.len(), data.len(), 0, 0] {
        b.extend_from_slice(&w32(v as u32));
    }
    for v in [
        node_records.len(),
        nodes_at - 0x20,
        entries.len(),
        entries_at - 0x20,
        strings.0.len(),
        strings_at - 0x20,
    ] {
        b.extend_from_slice(&w32(v as u32));
    }
    b.extend_from_slice(&w16(entries.len() as u16));
    b.extend_from_slice(&[1, 0, 0, 0, 0, 0]);
    for (kind, name_at, h, count, first) in &node_records {
        let mut k = *kind;
        if little_endian {
            k.reverse();
        }
        b.extend_from_slice(&k);
        b.extend_from_slice(&w32(*name_at));
        b.extend_from_slice(&w16(*h));
        b.extend_from_slice(&w16(*count as u16));
        b.extend_from_slice(&w32(*first));
    }
    b.resize(entries_at, 0);
    for e in &entries {
        b.extend_from_slice(&w16(e.id));
        b.extend_from_slice(&w16(hash(&e.name)));
        b.extend_from_slice(&w32(u32::from(e.flags) << 24 | e.name_at));
        b.extend_from_slice(&w32(e.offset));
        b.extend_from_slice(&w32(e.size));
        b.extend_from_slice(&[0; 4]);
    }
    b.resize(strings_at, 0);
    b.extend_from_slice(&strings.0);
    b.extend_from_slice(&data);
    Built {
        bytes: b,
        little_endian,
        nodes_at,
        entries_at,
        strings_at,
        data_at,
        entry_names: entries.into_iter().map(|e| e.name).collect(),
    }
}
