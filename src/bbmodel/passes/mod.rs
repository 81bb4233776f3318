//! The two passes over a .bbmodel: count (measure, [`plan`]) and fill
//! (decode_into, [`fill`]), and what both read.
//!
//! Both passes walk the same parts in the same order through
//! [`census`](crate::bbmodel::project::structure::census), [`walk_outliner`] and the group
//! readers, so the arena layout `measure` plans is the one `decode_into`
//! carves.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

mod fill;
mod plan;

pub(crate) use fill::fill;
pub(crate) use plan::{Counting, plan};

use crate::bbmodel::document::Document;
use crate::bbmodel::document::value::{Cursor, Path, known_key};
use crate::bbmodel::project::structure::GroupFields;
use crate::error::Error;
use crate::json::TokenKind;
use crate::limits::BbmodelLimits;

/// Where `plan` notes the sizes `fill` carves its scratch by.
pub(super) const NOTE_GROUP_ENTRIES: usize = 0;
pub(super) const NOTE_ELEMENTS: usize = 1;
pub(super) const NOTE_MAX_KEYS: usize = 2;
pub(super) const NOTE_NODES: usize = 3;
pub(super) const NOTE_ELEMENT_REFS: usize = 4;
pub(super) const NOTE_MAX_CORNERS: usize = 5;
pub(super) const NOTE_MAX_FACES: usize = 6;
pub(super) const NOTE_PNG_SCRATCH: usize = 7;
pub(super) const NOTE_ANIMATION_NODES: usize = 8;
pub(super) const NOTE_MAX_ANIMATOR_KEYFRAMES: usize = 9;
pub(super) const NOTE_COLLECTION_CHILDREN: usize = 10;
pub(super) const NOTE_COLLECTION_SCOPES: usize = 11;
pub(super) const NOTE_COLLECTIONS: usize = 12;
pub(super) const NOTE_COLLECTION_NODES: usize = 13;
pub(super) const NOTE_GROUP_TEXTURES: usize = 14;
pub(super) const NOTE_MAX_MESH_GROUPS: usize = 15;

/// Reads a group object's own fields ([`GroupFields`]); `path` is the
/// object's, for errors (`$.outliner`, or `$.groups[i]`).
///
/// `children_end` is where the object's `children` array closes when the
/// outliner walk already read it: the read jumps there, so a group's own
/// keys cost the same however much lies under it.
pub(super) fn read_group<'a>(
    doc: &Document<'a>,
    at: usize,
    path: &Path<'_>,
    mut children_end: Option<usize>,
    limits: &BbmodelLimits,
) -> Result<GroupFields<'a>, Error> {
    const KEYS: [&str; 6] = [
        "children",
        GroupFields::KEYS[0],
        GroupFields::KEYS[1],
        GroupFields::KEYS[2],
        GroupFields::KEYS[3],
        GroupFields::KEYS[4],
    ];
    let mut c: Cursor<'a> = doc.cursor(at);
    let mut data = GroupFields::DEFAULT;
    if c.next()?.kind != TokenKind::BeginObject {
        return Ok(data);
    }
    while let Some(key) = c.next_key()? {
        let value = c.next()?;
        match known_key(&key, &KEYS) {
            Some("children") => match children_end {
                // The walk followed the first `children` that is an array.
                Some(end) if value.kind == TokenKind::BeginArray => {
                    c.leave_at(end)?;
                    children_end = None;
                }
                _ => c.skip_rest(&value)?,
            },
            Some(field) => data.read(field, &value, &mut c, path, limits.max_string_chars)?,
            None => c.skip_rest(&value)?,
        }
    }
    Ok(data)
}

/// The project's `animation_variable_placeholders` when it is a string
/// (Blockbench reads it as text; anything else is no placeholders).
pub(super) fn placeholder_text<'a>(
    doc: &crate::bbmodel::document::Document<'a>,
) -> Result<Option<crate::json::JsonStr<'a>>, Error> {
    let Some(at) = doc.placeholders else {
        return Ok(None);
    };
    let mut c = doc.cursor(at);
    let token = c.next()?;
    Ok(match token.kind {
        crate::json::TokenKind::String(s) => Some(s),
        _ => None,
    })
}
