//! Uuid tables: which `groups` entry, element or outliner place a uuid names.
//!
//! The count pass builds these sorted tables of uuid hashes in scratch;
//! lookups binary-search the hash and confirm it by comparing the strings,
//! so a hash collision can never join two different uuids. Two entries
//! with one uuid are DUPLICATE_REFERENCE (spec Errors).

use super::document::Document;
use super::elements::duplicate;
use super::mesh_keys::{string_at, text_hash};
use super::reader::offset;
use super::value::{Path, same_text};
use crate::error::{Error, ErrorCode, Quote};
use crate::json::{JsonStr, TokenKind};

/// A uuid's hash and where its entry starts, sortable for binary search.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
#[repr(C)]
pub(crate) struct UuidEntry {
    pub(super) hash: u64,
    pub(super) at: u64,
}

/// The 5.x `groups` entries by uuid hash, sorted; duplicates are
/// DUPLICATE_REFERENCE (spec: "the same uuid twice: … two groups entries").
pub(super) fn group_table(
    doc: &Document<'_>,
    table: &mut [UuidEntry],
    max_chars: u64,
) -> Result<(), Error> {
    super::structure::for_each_entry(doc, doc.groups, |i, at| {
        let uuid = entry_uuid(doc, at)?;
        if let Some(u) = &uuid {
            let entry = super::value::GROUPS.with_index(i);
            let path = entry.with_key("uuid");
            super::value::check_string_length(u, &path, max_chars)?;
        }
        let hash = uuid.map_or(0, |u| text_hash(&u));
        if let Some(slot) = table.get_mut(i) {
            *slot = UuidEntry {
                hash,
                at: at as u64,
            };
        }
        Ok(())
    })?;
    table.sort_unstable();
    for pair in table.windows(2) {
        if let [a, b] = pair
            && a.hash == b.hash
            && a.hash != 0
        {
            let (x, y) = (
                entry_uuid(doc, offset(a.at))?,
                entry_uuid(doc, offset(b.at))?,
            );
            if let (Some(x), Some(y)) = (x, y)
                && same_text(&x, &y)
            {
                return Err(super::value::error_at(
                    ErrorCode::DuplicateReference,
                    &Path::key("groups"),
                    "duplicate uuid",
                    format_args!(
                        "each group once, but {} appears twice",
                        crate::error::Quote(x.raw_str())
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// An element's uuid hash, where it starts and its index in `elements`.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
#[repr(C)]
pub(crate) struct ElementEntry {
    pub(super) hash: u64,
    pub(super) at: u64,
    pub(super) index: u64,
}

/// Two elements with one uuid are DUPLICATE_REFERENCE. `table` holds every
/// element's entry (hash 0: no uuid, never equal); equal hashes are
/// confirmed by the uuid strings.
pub(super) fn elements_unique(doc: &Document<'_>, table: &mut [ElementEntry]) -> Result<(), Error> {
    table.sort_unstable();
    for pair in table.windows(2) {
        if let [a, b] = pair
            && a.hash == b.hash
            && a.hash != 0
            && let (Some(x), Some(y)) = (
                entry_uuid(doc, offset(a.at))?,
                entry_uuid(doc, offset(b.at))?,
            )
            && same_text(&x, &y)
        {
            // The error names the later of the two.
            let later = offset(a.index.max(b.index));
            return Err(duplicate(&super::value::ELEMENTS.with_index(later), &y));
        }
    }
    Ok(())
}

/// One element uuid the outliner names: its hash, where its string starts,
/// the node it hangs from, its place in outliner order, and whether an
/// element took it.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
#[repr(C)]
pub(crate) struct OutlinerRef {
    pub(super) hash: u64,
    pub(super) seq: u64,
    pub(super) at: u64,
    pub(super) parent: i32,
    pub(super) taken: u32,
}

/// Where the outliner places an element with this uuid: its parent node and
/// its place in outliner order, or `None` when the outliner does not name it.
/// An element named twice by the outliner, or a second element with a uuid
/// already placed, is DUPLICATE_REFERENCE.
pub(super) fn place(
    doc: &Document<'_>,
    refs: &mut [OutlinerRef],
    uuid: &JsonStr<'_>,
    element: usize,
) -> Result<Option<(i32, u64)>, Error> {
    let hash = text_hash(uuid);
    let first = refs.partition_point(|r| r.hash < hash);
    let mut found: Option<usize> = None;
    for i in first..refs.len() {
        let Some(r) = refs.get(i) else { break };
        if r.hash != hash {
            break;
        }
        if string_at(doc, offset(r.at)).is_some_and(|s| same_text(&s, uuid)) {
            if found.is_some() {
                return Err(duplicate(&Path::key("outliner"), uuid));
            }
            found = Some(i);
        }
    }
    let Some(r) = found.and_then(|i| refs.get_mut(i)) else {
        return Ok(None);
    };
    if r.taken != 0 {
        return Err(duplicate(&super::value::ELEMENTS.with_index(element), uuid));
    }
    r.taken = 1;
    Ok(Some((r.parent, r.seq)))
}

/// Where a string token's body starts in the document.
pub(super) fn body_offset(doc: &Document<'_>, s: &JsonStr<'_>) -> u64 {
    (s.raw_bytes().as_ptr() as usize).wrapping_sub(doc.bytes.as_ptr() as usize) as u64
}

/// Checks that no group is placed twice in the outliner (which also rejects
/// a group inside itself): DUPLICATE_REFERENCE. `table` holds the uuids of
/// the outliner's groups; equal neighbours are confirmed by their strings.
pub(super) fn groups_placed_once(doc: &Document<'_>, table: &mut [UuidEntry]) -> Result<(), Error> {
    table.sort_unstable();
    for pair in table.windows(2) {
        if let [a, b] = pair
            && a.hash == b.hash
            && let (Some(x), Some(y)) = (string_at(doc, offset(a.at)), string_at(doc, offset(b.at)))
            && same_text(&x, &y)
        {
            return Err(super::value::error_at(
                ErrorCode::DuplicateReference,
                &Path::key("outliner"),
                "group placed twice",
                format_args!(
                    "each group once, but {} is placed twice (or inside itself)",
                    Quote(x.raw_str())
                ),
            ));
        }
    }
    Ok(())
}

/// Where a group's data is: its `groups` entry when the outliner object
/// names a uuid found there (5.x, looked up in the sorted table), else the
/// outliner object itself (convention 3).
pub(super) fn group_data_at(
    doc: &Document<'_>,
    table: &[UuidEntry],
    outliner_at: usize,
    uuid: Option<JsonStr<'_>>,
) -> Result<usize, Error> {
    let Some(uuid) = uuid else {
        return Ok(outliner_at);
    };
    let hash = text_hash(&uuid);
    let first = table.partition_point(|e| e.hash < hash);
    for entry in table
        .get(first..)
        .unwrap_or_default()
        .iter()
        .take_while(|e| e.hash == hash)
    {
        if entry_uuid(doc, offset(entry.at))?.is_some_and(|u| same_text(&u, &uuid)) {
            return Ok(offset(entry.at));
        }
    }
    Ok(outliner_at)
}

/// The `uuid` string of the object at `at`, if it has one.
pub(super) fn entry_uuid<'a>(doc: &Document<'a>, at: usize) -> Result<Option<JsonStr<'a>>, Error> {
    let mut c = doc.cursor(at);
    if c.next()?.kind != TokenKind::BeginObject {
        return Ok(None);
    }
    while let Some(key) = c.next_key()? {
        let v = c.next()?;
        if key.eq_str("uuid")
            && let TokenKind::String(s) = v.kind
        {
            return Ok(Some(s));
        }
        c.skip_rest(&v)?;
    }
    Ok(None)
}
