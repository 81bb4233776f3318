//! Uuid tables: which `groups` entry, element or outliner place a uuid names.
//!
//! The count pass builds these sorted tables of uuid hashes in scratch;
//! lookups binary-search the hash and confirm it by comparing the strings,
//! so a hash collision can never join two different uuids. Two entries
//! with one uuid are DUPLICATE_REFERENCE (spec Errors).

use crate::arena::scratch_record;
use crate::bbmodel::document::Document;
use crate::bbmodel::document::text_hash::{string_at, text_hash};
use crate::bbmodel::document::value::{Path, error_at, same_text};
use crate::bbmodel::layout::offset;
use crate::error::{Error, ErrorCode, Quote};
use crate::json::{JsonStr, TokenKind};

scratch_record! {
    sorted
    /// A uuid's hash, where its entry starts and its index (in `groups`, or
    /// the node's), sortable for binary search.
    pub(crate) struct UuidEntry {
        pub(in crate::bbmodel) hash: u64,
        pub(in crate::bbmodel) at: u64,
        pub(in crate::bbmodel) index: u64,
    }
}

impl UuidEntry {
    /// An empty entry (a `const`, for scratch built in statics).
    pub(crate) const ZERO: Self = Self {
        hash: 0,
        at: 0,
        index: 0,
    };
}

/// The 5.x `groups` entries by uuid hash, sorted; duplicates are
/// DUPLICATE_REFERENCE (spec: "the same uuid twice: … two groups entries").
#[inline(never)]
pub(in crate::bbmodel) fn group_table(
    doc: &Document<'_>,
    table: &mut [UuidEntry],
    max_chars: u64,
) -> Result<(), Error> {
    crate::bbmodel::project::structure::for_each_entry(doc, doc.groups, |i, at| {
        let uuid = entry_uuid(doc, at)?;
        if let Some(u) = &uuid {
            let entry = crate::bbmodel::document::value::GROUPS.with_index(i);
            let path = entry.with_key("uuid");
            crate::bbmodel::document::value::check_string_length(u, &path, max_chars)?;
        }
        let hash = uuid.map_or(0, |u| text_hash(&u));
        if let Some(slot) = table.get_mut(i) {
            *slot = UuidEntry {
                hash,
                at: at as u64,
                index: i as u64,
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
                return Err(crate::bbmodel::document::value::error_at(
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

/// Slots of [`SeenUuids`]: twice what it holds, so probes stay short.
const SEEN_SLOTS: usize = 256;
/// Element uuids [`SeenUuids`] holds; repeats past these are found by
/// [`elements_unique`] after the fill pass.
const SEEN_HELD: usize = SEEN_SLOTS / 2;

/// [`SeenUuids`]' slots: (hash with its low bit set, where the uuid's
/// string starts); a hash of 0 is an empty slot. 4 KiB of plain integers,
/// which `MeasureScratch` and the plan's scratch hold for the counting
/// pass (`prescan`, for `load`, keeps its own on the stack).
#[repr(C)]
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable)]
pub struct SeenSlots([[u64; 2]; SEEN_SLOTS]);

impl SeenSlots {
    /// Empty slots (a `const`, for statics).
    pub const fn new() -> Self {
        Self([[0; 2]; SEEN_SLOTS])
    }
}

impl Default for SeenSlots {
    fn default() -> Self {
        Self::new()
    }
}

/// The first element uuids a counting pass reads (by hash, open
/// addressing, in [`SeenSlots`]), so that a uuid repeated among them is
/// refused where the repeat is read: a file of thousands of elements with
/// one uuid is refused at its second element, not after a fill pass.
pub(in crate::bbmodel) struct SeenUuids<'s> {
    slots: &'s mut [[u64; 2]; SEEN_SLOTS],
    held: usize,
}

impl<'s> SeenUuids<'s> {
    /// A table over `slots`, emptied.
    pub(in crate::bbmodel) fn new(slots: &'s mut SeenSlots) -> Self {
        slots.0.fill([0; 2]);
        Self {
            slots: &mut slots.0,
            held: 0,
        }
    }

    /// DUPLICATE_REFERENCE at `elements[element]` when an element read
    /// earlier and held has `uuid`; else holds it while there is room.
    pub(in crate::bbmodel) fn check(
        &mut self,
        doc: &Document<'_>,
        uuid: &JsonStr<'_>,
        element: usize,
    ) -> Result<(), Error> {
        let hash = text_hash(uuid) | 1;
        // The slot count is a power of two: the mask keeps the index in range.
        let mask = SEEN_SLOTS - 1;
        let mut slot = offset(hash) & mask;
        // At most SEEN_HELD slots are full, so an empty one ends every probe.
        for _ in 0..SEEN_SLOTS {
            let Some(entry) = self.slots.get_mut(slot) else {
                break;
            };
            match *entry {
                [0, _] => {
                    if self.held < SEEN_HELD {
                        *entry = [hash, body_offset(doc, uuid)];
                        self.held = self.held.saturating_add(1);
                    }
                    break;
                }
                [h, at]
                    if h == hash
                        && string_at(doc, offset(at)).is_some_and(|s| same_text(&s, uuid)) =>
                {
                    return Err(duplicate(
                        &crate::bbmodel::document::value::ELEMENTS.with_index(element),
                        uuid,
                    ));
                }
                _ => {}
            }
            slot = slot.wrapping_add(1) & mask;
        }
        Ok(())
    }
}

scratch_record! {
    sorted
    /// An element's uuid hash, where it starts and its index in `elements`.
    pub(crate) struct ElementEntry {
        pub(in crate::bbmodel) hash: u64,
        pub(in crate::bbmodel) at: u64,
        pub(in crate::bbmodel) index: u64,
    }
}

/// Two elements with one uuid are DUPLICATE_REFERENCE. `table` holds every
/// element's entry (hash 0: no uuid, never equal); equal hashes are
/// confirmed by the uuid strings.
#[inline(never)]
pub(in crate::bbmodel) fn elements_unique(
    doc: &Document<'_>,
    table: &mut [ElementEntry],
) -> Result<(), Error> {
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
            return Err(duplicate(
                &crate::bbmodel::document::value::ELEMENTS.with_index(later),
                &y,
            ));
        }
    }
    Ok(())
}

scratch_record! {
    sorted
    /// One element uuid the outliner names: its hash, where its string starts,
    /// the node it hangs from, its place in outliner order, and whether an
    /// element took it.
    pub(crate) struct OutlinerRef {
        pub(in crate::bbmodel) hash: u64,
        pub(in crate::bbmodel) seq: u64,
        pub(in crate::bbmodel) at: u64,
        pub(in crate::bbmodel) parent: i32,
        pub(in crate::bbmodel) taken: u32,
    }
}

/// Where the outliner places an element with this uuid: its parent node and
/// its place in outliner order, or `None` when the outliner does not name it.
/// An element named twice by the outliner, or a second element with a uuid
/// already placed, is DUPLICATE_REFERENCE.
pub(in crate::bbmodel) fn place(
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
        return Err(duplicate(
            &crate::bbmodel::document::value::ELEMENTS.with_index(element),
            uuid,
        ));
    }
    r.taken = 1;
    Ok(Some((r.parent, r.seq)))
}

/// Where a string token's body starts in the document.
pub(in crate::bbmodel) fn body_offset(doc: &Document<'_>, s: &JsonStr<'_>) -> u64 {
    (s.raw_bytes().as_ptr() as usize).wrapping_sub(doc.bytes.as_ptr() as usize) as u64
}

/// Checks that no group is placed twice in the outliner (which also rejects
/// a group inside itself): DUPLICATE_REFERENCE. `table` holds the uuids of
/// the outliner's groups; equal neighbours are confirmed by their strings.
#[inline(never)]
pub(in crate::bbmodel) fn groups_placed_once(
    doc: &Document<'_>,
    table: &mut [UuidEntry],
) -> Result<(), Error> {
    table.sort_unstable();
    for pair in table.windows(2) {
        if let [a, b] = pair
            && a.hash == b.hash
            && let (Some(x), Some(y)) = (string_at(doc, offset(a.at)), string_at(doc, offset(b.at)))
            && same_text(&x, &y)
        {
            return Err(crate::bbmodel::document::value::error_at(
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
pub(in crate::bbmodel) fn group_data_at(
    doc: &Document<'_>,
    table: &[UuidEntry],
    outliner_at: usize,
    uuid: Option<JsonStr<'_>>,
) -> Result<usize, Error> {
    Ok(group_entry(doc, table, uuid)?.map_or(outliner_at, |e| offset(e.at)))
}

/// The `groups` entry (5.x) whose uuid is `uuid`, looked up in the sorted
/// table.
pub(in crate::bbmodel) fn group_entry(
    doc: &Document<'_>,
    table: &[UuidEntry],
    uuid: Option<JsonStr<'_>>,
) -> Result<Option<UuidEntry>, Error> {
    let Some(uuid) = uuid else {
        return Ok(None);
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
            return Ok(Some(*entry));
        }
    }
    Ok(None)
}

/// The `uuid` string of the object at `at`, if it has one.
pub(in crate::bbmodel) fn entry_uuid<'a>(
    doc: &Document<'a>,
    at: usize,
) -> Result<Option<JsonStr<'a>>, Error> {
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

/// An error for elements placed twice or uuids repeated.
pub fn duplicate(path: &Path<'_>, uuid: &JsonStr<'_>) -> Error {
    error_at(
        ErrorCode::DuplicateReference,
        path,
        "duplicate uuid",
        format_args!(
            "each element once, but {} appears twice",
            Quote(uuid.raw_str())
        ),
    )
}

#[cfg(test)]
mod tests {
    use crate::bbmodel::{Options, measure};
    use crate::error::ErrorCode;
    use std::format;
    use std::string::{String, ToString};
    use std::vec::Vec;

    /// A free model whose cubes have these uuids, in this order.
    fn cubes(uuids: &[String]) -> String {
        let elements: Vec<String> = uuids
            .iter()
            .map(|u| {
                format!(
                    "{{\"type\": \"cube\", \"uuid\": \"{u}\", \"from\": [0, 0, 0], \"to\": [1, 1, 1], \"faces\": {{}}}}"
                )
            })
            .collect();
        format!(
            "{{\"meta\": {{\"format_version\": \"4.10\", \"model_format\": \"free\"}}, \"elements\": [{}]}}",
            elements.join(", ")
        )
    }

    fn uuids(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("u{i}")).collect()
    }

    /// The error's code and where it is.
    fn refusal(json: &str) -> (ErrorCode, String) {
        let e = measure(json.as_bytes(), &Options::default()).unwrap_err();
        (e.code(), e.at().to_string())
    }

    #[test]
    fn measure_refuses_a_repeat_among_the_held_uuids_at_the_repeat() {
        let mut ids = uuids(5);
        ids.push("u1".into());
        ids.push("u3".into());
        let json = cubes(&ids);
        assert_eq!(
            refusal(&json),
            (ErrorCode::DuplicateReference, "$.elements[5]".into())
        );
        #[cfg(feature = "alloc")]
        {
            let e = crate::load(json.as_bytes(), Some("bbmodel"), &crate::Options::default())
                .err()
                .map(|e| (e.code(), e.at().to_string()));
            assert_eq!(
                e,
                Some((ErrorCode::DuplicateReference, "$.elements[5]".into()))
            );
        }
    }

    #[test]
    fn a_repeat_past_the_held_uuids_is_still_refused() {
        // SEEN_HELD distinct uuids fill the table; the one repeated comes
        // after them, unheld, so only the fill pass's check sees it.
        let mut ids = uuids(super::SEEN_HELD + 10);
        ids.push(format!("u{}", super::SEEN_HELD + 5));
        let json = cubes(&ids);
        let m = measure(json.as_bytes(), &Options::default());
        assert!(m.is_ok(), "{m:?}");
        #[cfg(feature = "alloc")]
        {
            let e = crate::load(json.as_bytes(), Some("bbmodel"), &crate::Options::default())
                .err()
                .map(|e| (e.code(), e.at().to_string()));
            let later = format!("$.elements[{}]", super::SEEN_HELD + 10);
            assert_eq!(e, Some((ErrorCode::DuplicateReference, later)));
        }
    }

    #[test]
    fn distinct_uuids_with_one_hash_slot_pass() {
        // Many uuids probe past each other's slots without a false repeat.
        assert!(
            measure(
                cubes(&uuids(super::SEEN_SLOTS)).as_bytes(),
                &Options::default()
            )
            .is_ok()
        );
    }
}
