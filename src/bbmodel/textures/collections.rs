//! Hytale collections (Conversion, "Default texture"; Blockbench
//! conventions 15): which collection's texture a cube shows.
//!
//! In hytale_character and hytale_prop with a non-empty `collections`
//! array, a cube shows the texture of the first collection, in file order,
//! that contains it: its uuid or an ancestor group's uuid is among the
//! collection's `children`, or both have the same non-zero `scope` (read as
//! Blockbench's Merge.number reads it, so `"2"` is 2). A collection without
//! a texture, or naming none, leaves the cube untextured; a cube no
//! collection contains shows the default texture.
//!
//! Memory comes from the plan: the count pass counts every child string
//! and every scoped collection ([`count`]), and the fill pass keeps them in
//! sorted tables ([`Collections`]), so a lookup is a binary search. Each
//! group's first collection is settled once, as the outliner walk reaches
//! it (its parent's is known by then), so a cube needs at most two
//! lookups whatever its depth. The spec bounds neither collections nor
//! children; the scratch is bounded by the document instead: 16 bytes per
//! child string (at least four bytes of the file, `"x",`), 16 per scoped
//! collection (at least 12, `{"scope":1},`) and 4 per collection object
//! (at least 3, `{},`), so at most four times the file's size.
//!
//! Warnings (spec Warnings): an entry that is no object (null included) is
//! an empty collection with UNSUPPORTED_VALUE at `$.collections[i]`; a
//! `children` that is no array, a `scope` that is no number and no numeric
//! string (null skipped silently) and a `texture` that is no string warn
//! UNSUPPORTED_VALUE at their field; a texture naming no texture warns
//! UNKNOWN_REFERENCE there. A child that is no string, or empty, is skipped
//! silently. A non-array `collections` is not read at all.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use crate::arena::scratch_record;
use crate::bbmodel::document::Document;
use crate::bbmodel::document::text_hash::{string_at, text_hash};
use crate::bbmodel::document::value::{Path, same_text};
use crate::bbmodel::layout::offset;
use crate::bbmodel::project::uuid_tables::body_offset;
use crate::bbmodel::textures::entries::Textures;
use crate::bbmodel::textures::shown::Placement;
use crate::error::{Error, Location, Warning, WarningCode, Warnings};
use crate::json::{JsonStr, Token, TokenKind};

/// No collection.
const NONE: u32 = u32::MAX;

scratch_record! {
    sorted
    /// One child uuid of a collection: its hash (folded to 32 bits; equal
    /// hashes are confirmed by the strings), the collection, and where the
    /// string's body starts. Sorted by hash, then collection.
    pub(crate) struct ChildEntry {
        hash: u32,
        collection: u32,
        at: u64,
    }
}

scratch_record! {
    /// A collection's non-zero scope and its index, sorted by scope, then index.
    #[derive(PartialEq)]
    pub(crate) struct ScopeEntry {
        scope: f64,
        collection: u64,
    }
}

/// What the fill pass keeps of the collections, sized by [`count`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CollectionCounts {
    /// Child strings of every collection.
    pub children: usize,
    /// Collections with a non-zero scope.
    pub scoped: usize,
    /// Entries of `collections` that are objects (the others contain
    /// nothing, so the rule numbers only these, in file order).
    pub collections: usize,
}

/// Whether the file's collections decide what cubes show: a Hytale format
/// with a non-empty `collections` array.
pub fn apply(doc: &Document<'_>) -> bool {
    doc.format.reads_collections() && doc.has_collections()
}

/// Counts what [`Collections::read`] keeps (nothing where they do not
/// apply).
pub fn count(doc: &Document<'_>) -> Result<CollectionCounts, Error> {
    let mut counts = CollectionCounts::default();
    if !apply(doc) {
        return Ok(counts);
    }
    crate::bbmodel::project::structure::for_each_value(doc, doc.collections, |_, first, c| {
        let entry = read_entry(&first, c)?;
        counts.collections += usize::from(entry.object);
        if entry
            .scope
            .is_some_and(|v| scope_of(&v).is_some_and(|s| s != 0.0))
        {
            counts.scoped += 1;
        }
        for_each_child(doc, entry.children, |_| counts.children += 1)
    })?;
    Ok(counts)
}

/// A scope as Blockbench's Merge.number reads it: a number, or a string
/// JavaScript's parseFloat reads; `None` for anything else.
pub fn scope_of(v: &Token<'_>) -> Option<f64> {
    match v.kind {
        TokenKind::Number(n) => Some(n.value()),
        TokenKind::String(s) => {
            let mut buffer = [0u8; 128];
            parse_float(s.decode_into(&mut buffer).ok()?)
        }
        _ => None,
    }
}

/// JavaScript's parseFloat: leading white space skipped, then the longest
/// prefix that is a decimal literal or `Infinity`, with an optional sign.
fn parse_float(text: &str) -> Option<f64> {
    let text = text.trim_start_matches(is_js_space);
    let bytes = text.as_bytes();
    let signed = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let negative = bytes.first() == Some(&b'-');
    let body = bytes.get(signed..)?;
    if body.starts_with(b"Infinity") {
        return Some(if negative {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    let digits = |from: usize| {
        body.get(from..)
            .map_or(0, |b| b.iter().take_while(|d| d.is_ascii_digit()).count())
    };
    let whole = digits(0);
    let mut end = whole;
    let mut fraction = 0;
    if body.get(end) == Some(&b'.') {
        fraction = digits(end + 1);
        if whole + fraction > 0 {
            end += 1 + fraction;
        }
    }
    if whole + fraction == 0 {
        return None;
    }
    if matches!(body.get(end), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(body.get(end + 1), Some(b'+' | b'-')));
        let exponent = digits(end + 1 + sign);
        if exponent > 0 {
            end += 1 + sign + exponent;
        }
    }
    let literal = text.get(..signed + end)?;
    // "1." and ".5" are literals here; Rust reads them the same.
    literal.parse::<f64>().ok()
}

/// JavaScript's StrWhiteSpaceChar: white space and line terminators.
fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\u{9}'..='\u{d}'
            | ' '
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
            | '\u{feff}'
    )
}

/// The fields of one entry the rule reads, each the last of its key (as
/// JavaScript keeps it).
struct Entry<'a> {
    object: bool,
    children: Option<usize>,
    scope: Option<Token<'a>>,
    texture: Option<Token<'a>>,
}

fn read_entry<'a>(
    first: &Token<'a>,
    c: &mut crate::bbmodel::document::value::Cursor<'a>,
) -> Result<Entry<'a>, Error> {
    let mut entry = Entry {
        object: first.kind == TokenKind::BeginObject,
        children: None,
        scope: None,
        texture: None,
    };
    if !entry.object {
        return Ok(entry);
    }
    while let Some(key) = c.next_key()? {
        let v = c.next()?;
        match key.as_str() {
            Some("children") => entry.children = Some(c.offset_of(&v)),
            Some("scope") => entry.scope = Some(v),
            Some("texture") => entry.texture = Some(v),
            _ => {}
        }
        c.skip_rest(&v)?;
    }
    Ok(entry)
}

/// Calls `visit` with every child string the rule keeps (non-empty) of
/// the `children` value at `at` (none unless it is an array).
fn for_each_child<'a>(
    doc: &Document<'a>,
    at: Option<usize>,
    mut visit: impl FnMut(JsonStr<'a>),
) -> Result<(), Error> {
    crate::bbmodel::project::structure::for_each_value(doc, at, |_, child, _| {
        if let TokenKind::String(s) = child.kind
            && s.decoded_len() > 0
        {
            visit(s);
        }
        Ok(())
    })
}

/// A uuid's hash folded to the 32 bits [`ChildEntry`] keeps.
fn hash32(s: &JsonStr<'_>) -> u32 {
    let h = text_hash(s);
    #[allow(clippy::cast_possible_truncation)]
    let folded = (h ^ (h >> 32)) as u32;
    folded
}

/// The collections, read into the tables the plan sized.
pub struct Collections<'s> {
    children: &'s mut [ChildEntry],
    scopes: &'s mut [ScopeEntry],
    /// Each collection's texture index, or −1.
    textures: &'s mut [i32],
    /// Each node's first collection (its own or an ancestor's), or NONE.
    nodes: &'s mut [u32],
}

impl<'s> Collections<'s> {
    /// Reads every entry into the tables (left empty where collections do
    /// not apply), warning as the spec's Warnings say.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub fn read(
        doc: &Document<'_>,
        metas: &Textures<'_>,
        children: &'s mut [ChildEntry],
        scopes: &'s mut [ScopeEntry],
        textures: &'s mut [i32],
        nodes: &'s mut [u32],
        warnings: &mut Warnings,
        mismatch: fn() -> Error,
    ) -> Result<Self, Error> {
        nodes.fill(NONE);
        let (mut child, mut scoped, mut objects) = (0usize, 0usize, 0usize);
        let collections = Path::key("collections");
        let mut warn = |code: WarningCode, at: &Path<'_>, args: core::fmt::Arguments<'_>| {
            warnings.push(Warning::new(code, Location::Json(at.render()), args));
        };
        if apply(doc) {
            crate::bbmodel::project::structure::for_each_value(
                doc,
                doc.collections,
                |i, first, c| {
                    let at = collections.with_index(i);
                    let entry = read_entry(&first, c)?;
                    if !entry.object {
                        warn(
                            WarningCode::UnsupportedValue,
                            &at,
                            format_args!("collection is no object: read as an empty collection"),
                        );
                        return Ok(());
                    }
                    // Numbered among the objects, which keeps file order.
                    let collection = u32::try_from(objects).map_err(|_| mismatch())?;
                    let texture = match entry.texture.map(|t| t.kind) {
                        None => -1,
                        Some(TokenKind::String(s)) if s.decoded_len() == 0 => -1,
                        Some(TokenKind::String(s)) => match metas.by_uuid(&s) {
                            Some(t) => i32::try_from(t).map_err(|_| mismatch())?,
                            None => {
                                warn(
                                    WarningCode::UnknownReference,
                                    &at.with_key("texture"),
                                    format_args!(
                                        "collection texture {} names no texture: its cubes are untextured",
                                        crate::error::Quote(s.raw_str())
                                    ),
                                );
                                -1
                            }
                        },
                        Some(_) => {
                            warn(
                                WarningCode::UnsupportedValue,
                                &at.with_key("texture"),
                                format_args!(
                                    "collection texture is no string: its cubes are untextured"
                                ),
                            );
                            -1
                        }
                    };
                    *textures.get_mut(objects).ok_or_else(mismatch)? = texture;
                    objects += 1;
                    if let Some(v) = entry.scope {
                        match scope_of(&v) {
                            Some(scope) if scope != 0.0 => {
                                *scopes.get_mut(scoped).ok_or_else(mismatch)? = ScopeEntry {
                                    scope,
                                    collection: u64::from(collection),
                                };
                                scoped += 1;
                            }
                            Some(_) => {}
                            None if v.kind == TokenKind::Null => {}
                            None => warn(
                                WarningCode::UnsupportedValue,
                                &at.with_key("scope"),
                                format_args!("scope is no number and no numeric string: ignored"),
                            ),
                        }
                    }
                    if let Some(children_at) = entry.children {
                        if doc.cursor(children_at).next()?.kind != TokenKind::BeginArray {
                            warn(
                                WarningCode::UnsupportedValue,
                                &at.with_key("children"),
                                format_args!("children is no array: ignored"),
                            );
                        }
                        let mut overflow = false;
                        for_each_child(doc, Some(children_at), |s| {
                            match children.get_mut(child) {
                                Some(slot) => {
                                    *slot = ChildEntry {
                                        hash: hash32(&s),
                                        collection,
                                        at: body_offset(doc, &s),
                                    }
                                }
                                None => overflow = true,
                            }
                            child += 1;
                        })?;
                        if overflow {
                            return Err(mismatch());
                        }
                    }
                    Ok(())
                },
            )?;
        }
        if child != children.len() || scoped != scopes.len() || objects != textures.len() {
            return Err(mismatch());
        }
        children.sort_unstable();
        scopes.sort_unstable_by(|a, b| {
            a.scope
                .total_cmp(&b.scope)
                .then(a.collection.cmp(&b.collection))
        });
        Ok(Self {
            children,
            scopes,
            textures,
            nodes,
        })
    }

    /// The first collection listing `uuid` among its children, or NONE.
    fn listing(&self, doc: &Document<'_>, uuid: &JsonStr<'_>) -> u32 {
        let hash = hash32(uuid);
        let first = self.children.partition_point(|e| e.hash < hash);
        self.children
            .get(first..)
            .unwrap_or_default()
            .iter()
            .take_while(|e| e.hash == hash)
            .find(|e| string_at(doc, offset(e.at)).is_some_and(|s| same_text(&s, uuid)))
            .map_or(NONE, |e| e.collection)
    }

    /// Settles group `node`'s first collection: its own listing or its
    /// parent's, whichever comes first (the walk reaches parents first).
    pub fn place_group(
        &mut self,
        doc: &Document<'_>,
        node: usize,
        parent: i32,
        uuid: Option<JsonStr<'_>>,
    ) {
        if self.nodes.is_empty() {
            return;
        }
        let own = uuid.map_or(NONE, |u| self.listing(doc, &u));
        let inherited = self.node(parent);
        if let Some(slot) = self.nodes.get_mut(node) {
            *slot = own.min(inherited);
        }
    }

    fn node(&self, node: i32) -> u32 {
        usize::try_from(node)
            .ok()
            .and_then(|n| self.nodes.get(n))
            .copied()
            .unwrap_or(NONE)
    }

    /// What a cube with `uuid` and `scope` under node `parent` shows: the
    /// texture of the first collection containing it, else nothing placed.
    pub fn cube(
        &self,
        doc: &Document<'_>,
        uuid: Option<&JsonStr<'_>>,
        scope: f64,
        parent: i32,
    ) -> Placement {
        let own = uuid.map_or(NONE, |u| self.listing(doc, u));
        let by_scope = if scope == 0.0 {
            NONE
        } else {
            let first = self
                .scopes
                .partition_point(|e| e.scope.total_cmp(&scope).is_lt());
            match self.scopes.get(first) {
                Some(e) if e.scope == scope => u32::try_from(e.collection).unwrap_or(NONE),
                _ => NONE,
            }
        };
        let first = own.min(self.node(parent)).min(by_scope);
        if first == NONE {
            return Placement::Nothing;
        }
        let texture = usize::try_from(first)
            .ok()
            .and_then(|c| self.textures.get(c))
            .copied()
            .unwrap_or(-1);
        Placement::Texture(texture)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_strings_read_as_parse_float_reads_them() {
        for (text, value) in [
            ("2", Some(2.0)),
            (" \n2.5x", Some(2.5)),
            ("-3e2", Some(-300.0)),
            ("1e", Some(1.0)),
            ("1.", Some(1.0)),
            (".5", Some(0.5)),
            ("+4", Some(4.0)),
            ("Infinity", Some(f64::INFINITY)),
            ("-Infinityx", Some(f64::NEG_INFINITY)),
            ("\u{feff}7", Some(7.0)),
            ("", None),
            ("x", None),
            (".", None),
            ("-", None),
            ("e5", None),
            ("inf", None),
        ] {
            assert_eq!(parse_float(text), value, "{text:?}");
        }
    }
}
