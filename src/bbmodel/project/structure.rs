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
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use crate::bbmodel::document::Document;
use crate::bbmodel::document::value::{
    Cursor, Path, SyntaxError, error_at, invalid, known_key, type_name,
};
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
        /// The group's own fields its object gives before `children`, when
        /// the walk reads them (else the defaults).
        fields: GroupFields<'a>,
    },
    /// The end of a group's outliner object, after [`OutlinerEvent::Group`]
    /// and everything under it. When keys follow its `children` (which
    /// Blockbench never writes), this is where to read the object again:
    /// `children_end` is where that array closes, so the read jumps over it
    /// instead of reading every descendant again.
    GroupEnd {
        /// Node index, as in its [`OutlinerEvent::Group`].
        node: usize,
        /// Parent node, or −1.
        parent: i32,
        /// Offset of the outliner object.
        outliner_at: usize,
        /// The uuid the outliner object names before its children, if any.
        uuid: Option<JsonStr<'a>>,
        /// Offset of the `]` closing the `children` array the walk followed.
        children_end: Option<usize>,
        /// Whether keys follow that array (Blockbench writes `children`
        /// last): then the fields of [`OutlinerEvent::Group`] may be stale.
        keys_after_children: bool,
    },
    /// An element uuid placed under `parent` (−1 at the root).
    Element {
        /// The uuid string.
        uuid: JsonStr<'a>,
        /// The node it hangs from.
        parent: i32,
    },
}

/// A group's own fields (its name, its origin as the pivot, its rotation in
/// degrees and its visibility), from its outliner object or `groups` entry.
#[derive(Clone, Copy, Debug)]
pub struct GroupFields<'a> {
    /// `name`, if given.
    pub name: Option<JsonStr<'a>>,
    /// `origin`.
    pub origin: [f32; 3],
    /// `rotation`, in degrees as stored.
    pub rotation: [f32; 3],
    /// `visibility`: anything but `false` shows the group.
    pub visible: bool,
    /// `texture` (read by the OptiFine formats, convention 15).
    pub texture: GroupTexture<'a>,
}

/// A group's `texture` field as stored (Format.per_group_texture).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupTexture<'a> {
    /// Absent.
    Absent,
    /// A string: a texture uuid, or empty for none.
    Uuid(JsonStr<'a>),
    /// Any other value (UNSUPPORTED_VALUE where it is read; ignored).
    NotString,
}

impl<'a> GroupFields<'a> {
    /// A group object without any of the fields.
    pub const DEFAULT: Self = Self {
        name: None,
        origin: [0.0; 3],
        rotation: [0.0; 3],
        visible: true,
        texture: GroupTexture::Absent,
    };

    /// The keys [`GroupFields::read`] reads.
    pub(crate) const KEYS: [&'static str; 5] =
        ["name", "origin", "rotation", "visibility", "texture"];

    /// Reads field `key` (one of [`GroupFields::KEYS`]) of the object at
    /// `path`, whose value starts with `value`, to its end.
    pub(crate) fn read(
        &mut self,
        key: &str,
        value: &Token<'a>,
        c: &mut Cursor<'a>,
        path: &Path<'_>,
        max_chars: u64,
    ) -> Result<(), Error> {
        match key {
            "name" => self.name = Some(c.string_of(value, &path.with_key("name"), max_chars)?),
            "origin" => self.origin = c.numbers_of::<3>(value, &path.with_key("origin"))?,
            "rotation" => self.rotation = c.numbers_of::<3>(value, &path.with_key("rotation"))?,
            "texture" => {
                self.texture = match value.kind {
                    TokenKind::String(s) => GroupTexture::Uuid(s),
                    _ => GroupTexture::NotString,
                };
                c.skip_rest(value)?;
            }
            _ => {
                // A visibility that is no boolean reads as shown.
                self.visible = !matches!(value.kind, TokenKind::Bool(false));
                c.skip_rest(value)?;
            }
        }
        Ok(())
    }
}

/// Counts elements, groups, outliner entries and textures, checking each
/// against its limit and the outliner's nesting against maxNesting.
pub fn census(doc: &Document<'_>, limits: &BbmodelLimits) -> Result<Census, Error> {
    census_walk(doc, limits, &mut OutlinerStack::new(), false, |_| Ok(())).map(|(census, _)| census)
}

/// [`census`], and in the same walk of the outliner, with `read_fields`,
/// each group's fields: `visit` sees every event of the walk. The census's
/// own errors end it; the first error of a group's fields (else the first
/// of `visit`) is kept and returned beside the census, so that a caller
/// raises it after the errors that come before it.
pub(crate) fn census_walk<'a>(
    doc: &Document<'a>,
    limits: &BbmodelLimits,
    stack: &mut OutlinerStack,
    read_fields: bool,
    mut visit: impl FnMut(&OutlinerEvent<'a>) -> Result<(), Error>,
) -> Result<(Census, Option<Error>), Error> {
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
    let mut held = None;
    let mut field_error = None;
    let fields = read_fields.then_some(&mut field_error);
    walk_outliner_in(doc, limits, stack, fields, |event| {
        if let Err(e) = visit(&event) {
            held.get_or_insert(e);
        }
        match event {
            OutlinerEvent::Group { .. } => census.nodes += 1,
            OutlinerEvent::GroupEnd { .. } => return Ok(()),
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
    // Fields the walk read come before what `visit` read after them.
    Ok((census, field_error.or(held)))
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

/// Calls `visit` for every entry of the array at `at`, with its index and
/// the offset where it starts (the value walk, for readers that open
/// their own cursor there).
pub fn for_each_entry<'a>(
    doc: &Document<'a>,
    at: Option<usize>,
    mut visit: impl FnMut(usize, usize) -> Result<(), Error>,
) -> Result<(), Error> {
    for_each_value(doc, at, |i, first, c| visit(i, c.offset_of(&first)))
}

/// Reads every value of the array at `at` (none when absent or no array):
/// `visit` gets its index, its first token and the cursor right after it,
/// and reads the value to its end (what it leaves unread is skipped).
pub(crate) fn for_each_value<'a>(
    doc: &Document<'a>,
    at: Option<usize>,
    visit: impl FnMut(usize, Token<'a>, &mut Cursor<'a>) -> Result<(), Error>,
) -> Result<(), Error> {
    let Some(at) = at else { return Ok(()) };
    for_each_value_to_end(doc, at, visit).map(|_| ())
}

/// [`for_each_value`] over the value at `at`, with any error type a syntax
/// error converts into: where the array ends (the offset just past its
/// `]`), or `None` when the value is no array.
pub(crate) fn for_each_value_to_end<'a, E: From<SyntaxError>>(
    doc: &Document<'a>,
    at: usize,
    mut visit: impl FnMut(usize, Token<'a>, &mut Cursor<'a>) -> Result<(), E>,
) -> Result<Option<usize>, E> {
    let mut c = doc.cursor(at);
    if c.next()?.kind != TokenKind::BeginArray {
        return Ok(None);
    }
    let mut i = 0;
    loop {
        let t = c.next()?;
        if t.kind == TokenKind::EndArray {
            return Ok(Some(c.offset_of(&t) + 1));
        }
        visit(i, t, &mut c)?;
        c.recover(1)?;
        i += 1;
    }
}

/// Walks the outliner depth first with an explicit stack, reporting each
/// group (numbered in order) when its object starts and again when it ends,
/// and each element uuid with its parent node. Given `fields_error`, each
/// group's own fields before its children are read on the way and reported
/// with it; the first of their errors goes into `fields_error` and the walk
/// reads on.
///
/// Entries that are neither a uuid string nor an object are INVALID_FIELD;
/// groups deeper than maxNesting are NESTING_TOO_DEEP.
///
/// Its stack of open groups (12 KiB) is in a frame of its own, never
/// inlined; the passes walk with `walk_outliner_in` and the stack in
/// caller memory instead.
#[inline(never)]
pub fn walk_outliner<'a>(
    doc: &Document<'a>,
    limits: &BbmodelLimits,
    fields_error: Option<&mut Option<Error>>,
    visit: impl FnMut(OutlinerEvent<'a>) -> Result<(), Error>,
) -> Result<(), Error> {
    walk_outliner_in(doc, limits, &mut OutlinerStack::new(), fields_error, visit)
}

/// [`walk_outliner`] keeping its open groups in `stack` (caller memory:
/// `MeasureScratch` when measuring, the plan's scratch when decoding), so
/// the walk's frame stays small however deep the limit lets groups nest.
#[inline(never)]
pub(crate) fn walk_outliner_in<'a>(
    doc: &Document<'a>,
    limits: &BbmodelLimits,
    stack: &mut OutlinerStack,
    mut fields_error: Option<&mut Option<Error>>,
    mut visit: impl FnMut(OutlinerEvent<'a>) -> Result<(), Error>,
) -> Result<(), Error> {
    const STRUCTURE: &[&str] = &["uuid", "children"];
    const WITH_FIELDS: &[&str] = &[
        "uuid",
        "children",
        GroupFields::KEYS[0],
        GroupFields::KEYS[1],
        GroupFields::KEYS[2],
        GroupFields::KEYS[3],
        GroupFields::KEYS[4],
    ];
    let keys = if fields_error.is_some() {
        WITH_FIELDS
    } else {
        STRUCTURE
    };
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
    let mut stack = Open {
        groups: &mut stack.groups,
        len: 0,
    };
    let mut nodes = 0usize;
    loop {
        let t = c.next()?;
        let parent = stack.last().map_or(-1, OpenGroup::node);
        match t.kind {
            TokenKind::EndArray => {
                // End of a children array (then of its group object) or of the outliner.
                let Some(group) = stack.pop() else {
                    return Ok(());
                };
                let children_end = c.offset_of(&t);
                // Finish the group object: skip its remaining keys.
                let keys_after_children = skip_object_rest(&mut c)?;
                visit(OutlinerEvent::GroupEnd {
                    node: usize::try_from(group.node).unwrap_or(usize::MAX),
                    parent: stack.last().map_or(-1, OpenGroup::node),
                    outliner_at: usize::try_from(group.outliner_at).unwrap_or(usize::MAX),
                    uuid: group.uuid(doc)?,
                    children_end: Some(children_end),
                    keys_after_children,
                })?;
            }
            TokenKind::String(uuid) => {
                crate::bbmodel::document::value::check_string_length(
                    &uuid,
                    &Path::key("outliner"),
                    limits.max_string_chars,
                )?;
                visit(OutlinerEvent::Element { uuid, parent })?;
            }
            TokenKind::BeginObject => {
                let node = nodes;
                nodes += 1;
                let outliner_at = c.offset_of(&t);
                // Read keys up to `children` (which may come first or last).
                // Spec: groups nested deeper than maxNesting fail, leaf or not.
                if stack.len() >= max_nesting {
                    return Err(too_deep(max_nesting));
                }
                let mut uuid = None;
                let mut uuid_at = OpenGroup::NO_UUID;
                let mut children = false;
                let mut fields = GroupFields::DEFAULT;
                while let Some(key) = c.next_key()? {
                    let object_depth = c.depth();
                    let value = c.next()?;
                    match known_key(&key, keys) {
                        Some("uuid") => {
                            if let TokenKind::String(s) = value.kind {
                                crate::bbmodel::document::value::check_string_length(
                                    &s,
                                    &Path::key("outliner").with_key("uuid"),
                                    limits.max_string_chars,
                                )?;
                                uuid = Some(s);
                                uuid_at = c.offset_of(&value) as u64;
                            }
                        }
                        Some("children") if value.kind == TokenKind::BeginArray => {
                            children = true;
                            break;
                        }
                        Some("children") | None => {}
                        Some(field) => {
                            let path = Path::key("outliner");
                            let read =
                                fields.read(field, &value, &mut c, &path, limits.max_string_chars);
                            if let (Err(e), Some(slot)) = (read, fields_error.as_deref_mut()) {
                                // Kept for the caller; the walk reads on.
                                slot.get_or_insert(e);
                                c.recover(object_depth)?;
                            }
                            continue;
                        }
                    }
                    c.skip_rest(&value)?;
                }
                visit(OutlinerEvent::Group {
                    node,
                    parent,
                    outliner_at,
                    uuid,
                    depth: stack.len() + 1,
                    fields,
                })?;
                let node = i32::try_from(node).unwrap_or(i32::MAX);
                if !children {
                    visit(OutlinerEvent::GroupEnd {
                        node: usize::try_from(node).unwrap_or(usize::MAX),
                        parent,
                        outliner_at,
                        uuid,
                        children_end: None,
                        keys_after_children: false,
                    })?;
                    continue;
                }
                if stack.len() >= max_nesting {
                    return Err(too_deep(max_nesting));
                }
                let open = OpenGroup {
                    node: u64::from(node.unsigned_abs()),
                    outliner_at: outliner_at as u64,
                    uuid_at,
                };
                if stack.push(open).is_err() {
                    return Err(too_deep(HARD_MAX_NESTING));
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

/// A group whose `children` array the walk is inside (24 bytes: the stack
/// holds up to [`HARD_MAX_NESTING`] of them). Plain integers, so that the
/// stack can live in caller memory.
#[repr(C)]
#[derive(
    Clone,
    Copy,
    Debug,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
pub struct OpenGroup {
    /// Its node (never −1: a group's own index).
    node: u64,
    outliner_at: u64,
    /// Offset of its uuid string, or [`OpenGroup::NO_UUID`].
    uuid_at: u64,
}

impl OpenGroup {
    const NO_UUID: u64 = u64::MAX;

    /// Its node, as events carry it.
    fn node(&self) -> i32 {
        i32::try_from(self.node).unwrap_or(i32::MAX)
    }

    /// The uuid string read again where the walk saw it.
    fn uuid<'a>(&self, doc: &Document<'a>) -> Result<Option<JsonStr<'a>>, Error> {
        if self.uuid_at == Self::NO_UUID {
            return Ok(None);
        }
        let at = usize::try_from(self.uuid_at).unwrap_or(usize::MAX);
        Ok(match doc.cursor(at).next()?.kind {
            TokenKind::String(s) => Some(s),
            _ => None,
        })
    }
}

/// The outliner walk's open groups, [`HARD_MAX_NESTING`] of them (12 KiB
/// of plain integers): `MeasureScratch` and the plan's scratch hold one.
#[repr(C)]
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable)]
pub struct OutlinerStack {
    groups: [OpenGroup; HARD_MAX_NESTING],
}

impl OutlinerStack {
    /// An empty stack (a `const`, for statics).
    pub const fn new() -> Self {
        Self {
            groups: [OpenGroup {
                node: 0,
                outliner_at: 0,
                uuid_at: 0,
            }; HARD_MAX_NESTING],
        }
    }
}

impl Default for OutlinerStack {
    fn default() -> Self {
        Self::new()
    }
}

/// The open groups of one walk: the first `len` of `groups`.
struct Open<'s> {
    groups: &'s mut [OpenGroup; HARD_MAX_NESTING],
    len: usize,
}

impl Open<'_> {
    fn len(&self) -> usize {
        self.len
    }

    fn last(&self) -> Option<&OpenGroup> {
        self.groups.get(self.len.checked_sub(1)?)
    }

    fn pop(&mut self) -> Option<OpenGroup> {
        let group = *self.last()?;
        self.len -= 1;
        Some(group)
    }

    /// Fails, holding nothing more, when the stack is full.
    fn push(&mut self, group: OpenGroup) -> Result<(), ()> {
        let slot = self.groups.get_mut(self.len).ok_or(())?;
        *slot = group;
        self.len += 1;
        Ok(())
    }
}

/// NESTING_TOO_DEEP for the outliner.
fn too_deep(max: usize) -> Error {
    error_at(
        ErrorCode::NestingTooDeep,
        &Path::key("outliner"),
        "groups nested too deep",
        format_args!("at most maxNesting ({max}) levels"),
    )
}

/// Skips the remaining keys of an object whose `children` array just
/// closed; whether there were any.
fn skip_object_rest(c: &mut Cursor<'_>) -> Result<bool, Error> {
    let mut any = false;
    while c.next_key()?.is_some() {
        c.skip_value()?;
        any = true;
    }
    Ok(any)
}
