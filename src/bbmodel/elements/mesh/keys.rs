//! A mesh's vertex keys: the open-addressing hash index over them, and the
//! hashing that compares keys as JavaScript compares decoded text.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use crate::arena::scratch_record;
use crate::bbmodel::document::Document;
use crate::bbmodel::document::text_hash::{string_at, text_hash};
use crate::error::Error;
use crate::json::JsonStr;

/// Reads a mesh's `vertices` object (at `vertices_at`) into `positions`, by key index, and
/// indexes its keys: `table` gets one [`KeyEntry`] per key in file order,
/// then the first [`key_slots`] of `slots` an open-addressing hash index
/// over them, for [`find_entry`]. Returns how many keys there were (the
/// fill pass counts them here, not beforehand); `None` when there were
/// more than `table` holds.
///
/// A key written twice keeps its first index and takes the last position,
/// as an object parsed by JSON.parse does.
pub fn mesh_key_table(
    doc: &Document<'_>,
    vertices_at: Option<usize>,
    element: usize,
    table: &mut [KeyEntry],
    slots: &mut [u32],
    positions: &mut [[f32; 3]],
) -> Result<Option<usize>, Error> {
    let Some(at) = vertices_at else {
        return Ok(Some(0));
    };
    let element_path = crate::bbmodel::document::value::ELEMENTS.with_index(element);
    let path = element_path.with_key("vertices");
    let mut c = doc.cursor(at);
    c.object(&path, "vertices")?;
    let mut n = 0usize;
    while let Some(key) = c.next_key()? {
        let position = c.numbers::<3>(&path.with_raw_key(key))?;
        let (Some(entry), Some(slot)) = (table.get_mut(n), positions.get_mut(n)) else {
            return Ok(None);
        };
        *entry = KeyEntry::of(doc, &key, text_hash(&key));
        *slot = position;
        n += 1;
    }
    let (Some(table), Some(slots)) = (table.get(..n), slots.get_mut(..key_slots(n))) else {
        return Ok(None);
    };
    slots.fill(EMPTY_SLOT);
    for (i, entry) in table.iter().enumerate() {
        match probe(table, slots, entry.hash, |held| held.same_key(doc, entry)) {
            Probe::Found(first) => {
                // The later spelling's position goes to the first's index
                // (its own slot keeps it too, never referenced).
                if let Some(&p) = positions.get(i)
                    && let Some(slot) = positions.get_mut(first)
                {
                    *slot = p;
                }
            }
            Probe::Free(free) => {
                if let Some(slot) = slots.get_mut(free) {
                    *slot = u32::try_from(i).unwrap_or(EMPTY_SLOT);
                }
            }
        }
    }
    Ok(Some(n))
}

/// Slots of the hash index over `keys` vertex keys: a power of two at
/// least twice as many, so probes stay short.
pub const fn key_slots(keys: usize) -> usize {
    if keys == 0 {
        0
    } else {
        keys.saturating_mul(2).next_power_of_two()
    }
}

/// An empty slot of the hash index.
const EMPTY_SLOT: u32 = u32::MAX;

/// Where a key's probe ended.
enum Probe {
    /// At the entry of the key, by its index.
    Found(usize),
    /// At a free slot, where it would go.
    Free(usize),
}

/// Probes the hash index for the key of hash `hash` that `is_key` tells
/// (given an entry of that hash), linearly from its home slot.
fn probe(
    table: &[KeyEntry],
    slots: &[u32],
    hash: u64,
    is_key: impl Fn(&KeyEntry) -> bool,
) -> Probe {
    let mask = slots.len().wrapping_sub(1);
    // The high bits mixed in (FNV's low bits alone cluster); truncating the
    // mix to the slot count is the point.
    #[allow(clippy::cast_possible_truncation)]
    let mut slot = ((hash ^ (hash >> 29)) as usize) & mask;
    for _ in 0..slots.len() {
        let Some(&held) = slots.get(slot) else { break };
        if held == EMPTY_SLOT {
            return Probe::Free(slot);
        }
        let index = held as usize;
        if table
            .get(index)
            .is_some_and(|e| e.hash == hash && is_key(e))
        {
            return Probe::Found(index);
        }
        slot = (slot + 1) & mask;
    }
    // A full index (never: it has twice the slots): nothing found.
    Probe::Free(usize::MAX)
}

scratch_record! {
    /// A mesh vertex key in the hash index: its hash and where its string is
    /// in the file (its index among the mesh's keys is its place in the table).
    #[derive(PartialEq)]
    pub struct KeyEntry {
        hash: u64,
        at: u32,
        /// The key's raw length in the file, [`ESCAPED`] set when it has escapes.
        len: u32,
    }
}

impl KeyEntry {
    /// No key (a `const`, for tables).
    pub(in crate::bbmodel) const ZERO: Self = Self {
        hash: 0,
        at: 0,
        len: 0,
    };

    /// The entry of `key`, a string of `doc`, whose [`text_hash`] is `hash`.
    pub(in crate::bbmodel) fn of(doc: &Document<'_>, key: &JsonStr<'_>, hash: u64) -> Self {
        Self {
            hash,
            at: u32::try_from(key.raw_bytes().as_ptr() as usize - doc.bytes.as_ptr() as usize)
                .unwrap_or(u32::MAX),
            len: raw_len(key),
        }
    }

    /// The key's [`text_hash`].
    pub(in crate::bbmodel) const fn hash(&self) -> u64 {
        self.hash
    }

    /// The key as the file spells it (escapes not decoded), for messages.
    pub(in crate::bbmodel) fn raw_text<'a>(&self, doc: &Document<'a>) -> &'a str {
        let start = self.at as usize;
        let end = start.saturating_add((self.len & !ESCAPED) as usize);
        doc.bytes
            .get(start..end)
            .and_then(|b| core::str::from_utf8(b).ok())
            .unwrap_or_default()
    }

    /// Whether this entry's key is `key`, once both are decoded.
    pub(in crate::bbmodel) fn spells(&self, doc: &Document<'_>, key: &JsonStr<'_>) -> bool {
        let start = self.at as usize;
        if self.len & ESCAPED == 0 && !key.has_escapes() {
            // Both plain: the bytes in the file are the text.
            let end = start.saturating_add(self.len as usize);
            return doc.bytes.get(start..end) == Some(key.raw_bytes());
        }
        string_at(doc, start)
            .is_some_and(|stored| crate::bbmodel::document::value::same_text(&stored, key))
    }

    /// Whether this entry's key is `other`'s, once both are decoded.
    pub(in crate::bbmodel) fn same_key(&self, doc: &Document<'_>, other: &KeyEntry) -> bool {
        if (self.len | other.len) & ESCAPED == 0 {
            // Both plain: the bytes in the file are the text.
            let span = |e: &KeyEntry| {
                let start = e.at as usize;
                doc.bytes.get(start..start.saturating_add(e.len as usize))
            };
            return span(self) == span(other);
        }
        string_at(doc, other.at as usize).is_some_and(|key| self.spells(doc, &key))
    }
}

/// The index of the vertex key `entry` holds (a key of the same
/// document) among its mesh's keys, by the index [`mesh_key_table`] built.
pub fn find_entry(
    doc: &Document<'_>,
    table: &[KeyEntry],
    slots: &[u32],
    entry: &KeyEntry,
) -> Option<usize> {
    match probe(table, slots, entry.hash, |e| e.same_key(doc, entry)) {
        Probe::Found(index) => Some(index),
        Probe::Free(_) => None,
    }
}

/// [`KeyEntry::len`]'s flag for a key with escapes.
const ESCAPED: u32 = 1 << 31;

/// A key's raw length for [`KeyEntry::len`].
fn raw_len(key: &JsonStr<'_>) -> u32 {
    let len = u32::try_from(key.raw_bytes().len()).unwrap_or(ESCAPED - 1) & !ESCAPED;
    if key.has_escapes() {
        len | ESCAPED
    } else {
        len
    }
}
