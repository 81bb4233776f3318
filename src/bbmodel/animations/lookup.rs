//! Which group an animator key names, as Blockbench's `Animation.extend`
//! finds it: a key that is a uuid names the group with that uuid; any
//! other key names the first group whose name equals it ignoring case.
//!
//! Both tables are sorted in scratch and binary-searched, so thousands of
//! animators cost O(log n) each; a hash match is confirmed on the text, so
//! a collision never joins two groups.

use crate::arena::scratch_record;
use crate::bbmodel::document::Document;
use crate::bbmodel::document::text_hash::{string_at, text_hash};
use crate::bbmodel::document::value::same_text;
use crate::bbmodel::layout::offset;
use crate::bbmodel::project::uuid_tables::body_offset;
use crate::json::JsonStr;
use crate::scene::NodeRecord;

scratch_record! {
    sorted
    /// A group's uuid or lowercased name hash and its node, sortable for
    /// binary search (by hash, then node: the first group comes first).
    pub(in crate::bbmodel) struct NodeKey {
        hash: u64,
        node: u32,
        _pad: u32,
        /// Where the uuid string's body starts (0 in the name table).
        at: u64,
    }
}

/// The uuid table's entry for the group at `node` (written by the fill
/// pass's outliner walk, which reads the uuid anyway).
pub(in crate::bbmodel) fn uuid_key(doc: &Document<'_>, uuid: &JsonStr<'_>, node: usize) -> NodeKey {
    NodeKey {
        hash: text_hash(uuid),
        node: u32::try_from(node).unwrap_or(u32::MAX),
        _pad: 0,
        at: body_offset(doc, uuid),
    }
}

/// The groups of a scene, by uuid and by lowercased name.
pub(super) struct Groups<'t> {
    pub(super) uuids: &'t [NodeKey],
    pub(super) names: &'t [NodeKey],
}

impl Groups<'_> {
    /// The node `key` names, or `None` when it names no group.
    pub(super) fn find<'n>(
        &self,
        doc: &Document<'_>,
        nodes: &[NodeRecord],
        name_of: impl Fn(&NodeRecord) -> &'n str,
        key: &JsonStr<'_>,
    ) -> Option<u32> {
        if is_uuid(key) {
            let hash = text_hash(key);
            return candidates(self.uuids, hash)
                .find(|e| string_at(doc, offset(e.at)).is_some_and(|u| same_text(&u, key)))
                .map(|e| e.node);
        }
        let hash = lowercase_hash_json(key);
        candidates(self.names, hash)
            .find(|e| {
                nodes
                    .get(offset(u64::from(e.node)))
                    .is_some_and(|n| same_ignoring_case(key, name_of(n)))
            })
            .map(|e| e.node)
    }
}

/// Entries of a sorted table with this hash, in node order.
fn candidates(table: &[NodeKey], hash: u64) -> impl Iterator<Item = &NodeKey> {
    let first = table.partition_point(|e| e.hash < hash);
    table
        .get(first..)
        .unwrap_or_default()
        .iter()
        .take_while(move |e| e.hash == hash)
}

/// Fills `table` with every node's lowercased name hash and sorts it (and
/// sorts the uuid table the outliner walk filled).
#[inline(never)]
pub(super) fn sort_tables<'n>(
    nodes: &[NodeRecord],
    name_of: impl Fn(&NodeRecord) -> &'n str,
    uuids: &mut [NodeKey],
    names: &mut [NodeKey],
) {
    uuids.sort_unstable();
    for (i, (slot, node)) in names.iter_mut().zip(nodes).enumerate() {
        *slot = NodeKey {
            hash: lowercase_hash(name_of(node)),
            node: u32::try_from(i).unwrap_or(u32::MAX),
            _pad: 0,
            at: 0,
        };
    }
    names.sort_unstable();
}

/// Blockbench's `isUUID`: 36 characters, lowercase hex in 8-4-4-4-12 groups.
fn is_uuid(key: &JsonStr<'_>) -> bool {
    let mut buffer = [0u8; 36];
    if key.decoded_len() != buffer.len() {
        return false;
    }
    let Ok(text) = key.decode(&mut buffer) else {
        return false;
    };
    text.bytes().enumerate().all(|(i, b)| match i {
        8 | 13 | 18 | 23 => b == b'-',
        _ => matches!(b, b'0'..=b'9' | b'a'..=b'f'),
    })
}

/// FNV-1a over the UTF-8 of the lowercased characters.
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    const START: Self = Self(0xcbf2_9ce4_8422_2325);

    fn chars(self, text: &str) -> Self {
        text.chars()
            .flat_map(char::to_lowercase)
            .fold(self, |h, c| {
                let mut utf8 = [0u8; 4];
                c.encode_utf8(&mut utf8).bytes().fold(h, |Self(h), b| {
                    Self((h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
                })
            })
    }
}

fn lowercase_hash(text: &str) -> u64 {
    Fnv::START.chars(text).0
}

fn lowercase_hash_json(key: &JsonStr<'_>) -> u64 {
    let mut h = Fnv::START;
    key.for_each_decoded(|piece| {
        h = h.chars(piece);
        true
    });
    h.0
}

/// Whether `key` and `name` are equal once both are lowercased, as
/// JavaScript's `toLowerCase` compares them (per character).
fn same_ignoring_case(key: &JsonStr<'_>, name: &str) -> bool {
    let mut rest = name.chars().flat_map(char::to_lowercase);
    let all = key.for_each_decoded(|piece| {
        piece
            .chars()
            .flat_map(char::to_lowercase)
            .all(|c| rest.next() == Some(c))
    });
    all && rest.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{TokenKind, Tokenizer};

    fn with_str<R>(json: &str, f: impl FnOnce(&JsonStr<'_>) -> R) -> R {
        let mut t = Tokenizer::new(json.as_bytes(), 4);
        match t.next_token().unwrap().unwrap().kind {
            TokenKind::String(s) => f(&s),
            _ => panic!("not a string"),
        }
    }

    #[test]
    fn is_uuid_is_blockbench_s_lowercase_pattern() {
        assert!(with_str(
            r#""0a1b2c3d-0000-4fff-8aaa-0123456789ab""#,
            is_uuid
        ));
        assert!(!with_str(
            r#""0A1B2C3D-0000-4fff-8aaa-0123456789ab""#,
            is_uuid
        ));
        assert!(!with_str(
            r#""0a1b2c3d_0000-4fff-8aaa-0123456789ab""#,
            is_uuid
        ));
        assert!(!with_str(r#""head""#, is_uuid));
    }

    #[test]
    fn names_compare_ignoring_case_escapes_decoded() {
        assert!(with_str(r#""HeAd""#, |k| same_ignoring_case(k, "head")));
        assert!(with_str(r#""\u0048ead""#, |k| same_ignoring_case(
            k, "hEAD"
        )));
        assert!(with_str(r#""ÄRM""#, |k| same_ignoring_case(k, "ärm")));
        assert!(!with_str(r#""head""#, |k| same_ignoring_case(k, "head2")));
        assert!(!with_str(r#""head2""#, |k| same_ignoring_case(k, "head")));
        assert_eq!(
            with_str(r#""\u0048EAD""#, lowercase_hash_json),
            lowercase_hash("head")
        );
    }
}
