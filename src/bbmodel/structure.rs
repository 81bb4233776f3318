//! The model's structure: elements, the outliner and groups.
//!
//! Spec (Supported, Conversion, convention 3): groups live inline in the
//! outliner (format ≤ 4.x) or in the top-level `groups` array, referenced by
//! uuid from outliner objects `{ uuid, children }` (5.x; an outliner object
//! whose uuid is not in `groups` is read as an inline group). Both give the
//! same node tree. Nodes and meshes follow the outliner depth first; elements
//! the outliner does not place follow at the root in file order. The outliner
//! is walked with an explicit stack, so nesting is bounded by maxNesting, not
//! by the call stack.

use super::document::Document;
use super::value::{Cursor, Path, error_at, invalid, type_name};
use crate::error::{Error, ErrorCode};
use crate::json::{JsonStr, Token, TokenKind};
use crate::limits::BbmodelLimits;

/// Deepest group nesting the walk can hold (the JSON depth bound allows no more).
pub const HARD_MAX_NESTING: usize = 512;

/// How many of each thing the file has, counted before anything is built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// Entries of `elements`.
    pub elements: usize,
    /// Entries of the 5.x `groups` array.
    pub group_entries: usize,
    /// Groups placed by the outliner: the scene's nodes.
    pub nodes: usize,
    /// Entries of the outliner at every level (element uuids and groups).
    pub outliner_entries: usize,
    /// Entries of `textures`.
    pub textures: usize,
}

/// One event of the outliner walk, depth first.
#[derive(Clone, Copy, Debug)]
pub enum OutlinerEvent<'a> {
    /// A group: its node index, its parent's (−1 at the root), where its data
    /// object starts (the outliner object itself when inline) and its uuid.
    Group {
        /// Node index (outliner order, depth first).
        node: usize,
        /// Parent node, or −1.
        parent: i32,
        /// Offset of the outliner object.
        outliner_at: usize,
        /// The uuid the outliner object names, if any.
        uuid: Option<JsonStr<'a>>,
        /// Path of the outliner object, for errors.
        depth: usize,
    },
    /// An element uuid placed under `parent` (−1 at the root).
    Element {
        /// The uuid string.
        uuid: JsonStr<'a>,
        /// The node it hangs from.
        parent: i32,
    },
}

/// Counts elements, groups, outliner entries and textures, checking each
/// against its limit and the outliner's nesting against maxNesting.
pub fn census(doc: &Document<'_>, limits: &BbmodelLimits) -> Result<Census, Error> {
    let mut census = Census {
        textures: array_len(doc, doc.textures, doc.entries.textures, "textures")?,
        elements: array_len(doc, doc.elements, doc.entries.elements, "elements")?,
        group_entries: array_len(doc, doc.groups, doc.entries.groups, "groups")?,
        ..Census::default()
    };
    limit(
        census.textures,
        limits.max_textures,
        ErrorCode::TooManyTextures,
        "textures",
    )?;
    limit(
        census.elements,
        limits.max_elements,
        ErrorCode::TooManyElements,
        "elements",
    )?;
    limit(
        census.group_entries,
        limits.max_groups,
        ErrorCode::TooManyElements,
        "groups",
    )?;
    walk_outliner(doc, limits, |event| {
        match event {
            OutlinerEvent::Group { .. } => census.nodes += 1,
            OutlinerEvent::Element { .. } => {}
        }
        census.outliner_entries += 1;
        if census.nodes as u64 > limits.max_groups {
            return Err(error_at(
                ErrorCode::TooManyElements,
                &Path::key("outliner"),
                "too many groups",
                format_args!("at most maxGroups ({}) groups", limits.max_groups),
            ));
        }
        if census.outliner_entries as u64 > limits.max_groups.saturating_add(limits.max_elements) {
            return Err(error_at(
                ErrorCode::TooManyElements,
                &Path::key("outliner"),
                "too many outliner entries",
                format_args!(
                    "at most maxElements + maxGroups ({})",
                    limits.max_groups.saturating_add(limits.max_elements)
                ),
            ));
        }
        Ok(())
    })?;
    Ok(census)
}

fn limit(count: usize, max: u64, code: ErrorCode, what: &'static str) -> Result<(), Error> {
    if count as u64 <= max {
        Ok(())
    } else {
        Err(error_at(
            code,
            &Path::key(what),
            "too many entries",
            format_args!("at most {max} {what}, got {count}"),
        ))
    }
}

/// Entries of the array at `at` (0 when absent or null; the document counted
/// them as it read the array); anything else is INVALID_FIELD.
fn array_len(
    doc: &Document<'_>,
    at: Option<usize>,
    entries: usize,
    key: &'static str,
) -> Result<usize, Error> {
    let Some(at) = at else { return Ok(0) };
    let mut c = doc.cursor(at);
    let first = c.next()?;
    match first.kind {
        TokenKind::Null => Ok(0),
        TokenKind::BeginArray => Ok(entries),
        _ => Err(invalid(
            &Path::key(key),
            "wrong type",
            format_args!("an array expected, got {}", type_name(&first)),
        )),
    }
}

/// Calls `visit` for every entry of each element array at `at`, with the
/// element's index and a cursor positioned at its first token.
pub fn for_each_entry<'a>(
    doc: &Document<'a>,
    at: Option<usize>,
    mut visit: impl FnMut(usize, usize) -> Result<(), Error>,
) -> Result<(), Error> {
    let Some(at) = at else { return Ok(()) };
    let mut c = doc.cursor(at);
    if c.next()?.kind != TokenKind::BeginArray {
        return Ok(());
    }
    let mut i = 0;
    loop {
        let t = c.next()?;
        if t.kind == TokenKind::EndArray {
            return Ok(());
        }
        let start = at + usize::try_from(t.offset).unwrap_or(usize::MAX);
        visit(i, start)?;
        c.skip_rest(&t)?;
        i += 1;
    }
}

/// Reads every value of the array at `at` (none when absent or no array):
/// `visit` gets its index, its first token and the cursor right after it,
/// and reads the value to its end (what it leaves unread is skipped).
pub(crate) fn for_each_value<'a>(
    doc: &Document<'a>,
    at: Option<usize>,
    mut visit: impl FnMut(usize, Token<'a>, &mut Cursor<'a>) -> Result<(), Error>,
) -> Result<(), Error> {
    let Some(at) = at else { return Ok(()) };
    let mut c = doc.cursor(at);
    if c.next()?.kind != TokenKind::BeginArray {
        return Ok(());
    }
    let mut i = 0;
    loop {
        let t = c.next()?;
        if t.kind == TokenKind::EndArray {
            return Ok(());
        }
        visit(i, t, &mut c)?;
        c.recover(1)?;
        i += 1;
    }
}

/// Walks the outliner depth first with an explicit stack, reporting each
/// group (numbered in order) and each element uuid with its parent node.
///
/// Entries that are neither a uuid string nor an object are INVALID_FIELD;
/// groups deeper than maxNesting are NESTING_TOO_DEEP.
pub fn walk_outliner<'a>(
    doc: &Document<'a>,
    limits: &BbmodelLimits,
    mut visit: impl FnMut(OutlinerEvent<'a>) -> Result<(), Error>,
) -> Result<(), Error> {
    let Some(at) = doc.outliner else {
        return Ok(());
    };
    let mut c = doc.cursor(at);
    let first = c.next()?;
    if first.kind == TokenKind::Null {
        return Ok(());
    }
    if first.kind != TokenKind::BeginArray {
        return Err(invalid(
            &Path::key("outliner"),
            "wrong type",
            format_args!("an array expected, got {}", type_name(&first)),
        ));
    }
    let max_nesting = usize::try_from(limits.max_nesting)
        .unwrap_or(usize::MAX)
        .min(HARD_MAX_NESTING);
    // Per open group: its node index and how many entries its children array had so far.
    let mut stack = heapless::Vec::<(i32, usize), HARD_MAX_NESTING>::new();
    let mut index_in_array = 0usize;
    let mut nodes = 0usize;
    loop {
        let t = c.next()?;
        let parent = stack.last().map_or(-1, |&(node, _)| node);
        match t.kind {
            TokenKind::EndArray => {
                // End of a children array (then of its group object) or of the outliner.
                let Some((_, index)) = stack.pop() else {
                    return Ok(());
                };
                // Finish the group object: skip its remaining keys.
                skip_object_rest(&mut c)?;
                index_in_array = index + 1;
            }
            TokenKind::String(uuid) => {
                super::value::check_string_length(
                    &uuid,
                    &Path::key("outliner"),
                    limits.max_string_chars,
                )?;
                visit(OutlinerEvent::Element { uuid, parent })?;
                index_in_array += 1;
            }
            TokenKind::BeginObject => {
                let node = nodes;
                nodes += 1;
                let outliner_at = at + usize::try_from(t.offset).unwrap_or(usize::MAX);
                // Read keys up to `children` (which may come first or last).
                // Spec: groups nested deeper than maxNesting fail, leaf or not.
                if stack.len() >= max_nesting {
                    return Err(error_at(
                        ErrorCode::NestingTooDeep,
                        &Path::key("outliner"),
                        "groups nested too deep",
                        format_args!("at most maxNesting ({max_nesting}) levels"),
                    ));
                }
                let mut uuid = None;
                let mut children = false;
                while let Some(key) = c.next_key()? {
                    let value = c.next()?;
                    match key.as_str() {
                        Some("uuid") => {
                            if let TokenKind::String(s) = value.kind {
                                super::value::check_string_length(
                                    &s,
                                    &Path::key("outliner").with_key("uuid"),
                                    limits.max_string_chars,
                                )?;
                                uuid = Some(s);
                            }
                        }
                        Some("children") if value.kind == TokenKind::BeginArray => {
                            children = true;
                            break;
                        }
                        _ => {}
                    }
                    c.skip_rest(&value)?;
                }
                visit(OutlinerEvent::Group {
                    node,
                    parent,
                    outliner_at,
                    uuid,
                    depth: stack.len() + 1,
                })?;
                if children {
                    if stack.len() >= max_nesting {
                        return Err(error_at(
                            ErrorCode::NestingTooDeep,
                            &Path::key("outliner"),
                            "groups nested too deep",
                            format_args!("at most maxNesting ({max_nesting}) levels"),
                        ));
                    }
                    let node = i32::try_from(node).unwrap_or(i32::MAX);
                    if stack.push((node, index_in_array)).is_err() {
                        return Err(error_at(
                            ErrorCode::NestingTooDeep,
                            &Path::key("outliner"),
                            "groups nested too deep",
                            format_args!("at most {HARD_MAX_NESTING} levels"),
                        ));
                    }
                    index_in_array = 0;
                } else {
                    index_in_array += 1;
                }
            }
            _ => {
                return Err(invalid(
                    &Path::key("outliner"),
                    "bad outliner entry",
                    format_args!(
                        "a uuid string or a group object expected, got {}",
                        type_name(&t)
                    ),
                ));
            }
        }
    }
}

/// Skips the remaining keys of an object whose `children` array just closed.
fn skip_object_rest(c: &mut Cursor<'_>) -> Result<(), Error> {
    while c.next_key()?.is_some() {
        c.skip_value()?;
    }
    Ok(())
}
