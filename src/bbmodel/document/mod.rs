//! What makes bytes a .bbmodel, and where its parts are: the bottom stage
//! of the reader, which every other stage reads the document through.
//!
//! Takes: the file's bytes and the limits. Gives: a [`Document`] (where
//! each top-level part starts, the format and its version), cursors that
//! read typed values with JSON paths for errors (`value.rs`), bracket walks
//! that step over a part without reading it (`brackets.rs`), the model
//! formats and their rules (`formats.rs`), text compared and hashed as
//! JavaScript compares it (`text_hash.rs`) and the scene's text pool
//! (`text_pool.rs`).
//!
//! One pass over the whole document (the only full tokenization): checks the
//! size, strict UTF-8 JSON, the root object, `meta.format_version`, and
//! records where each top-level part starts, so later passes read only the
//! parts they need.
//!
//! Spec ("Errors"): FILE_TOO_LARGE over maxFileBytes; NOT_JSON for empty, not
//! UTF-8 or not JSON; NOT_BBMODEL for a root that is no object or lacks
//! `meta` / `meta.format_version`; UNSUPPORTED_VERSION outside 3.x–5.x.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "positions and lengths index the input or a caller buffer (at most isize::MAX bytes) and advance by at most what was just read or checked, so they stay below usize::MAX"
)]

pub(in crate::bbmodel) mod brackets;
pub mod formats;
pub(in crate::bbmodel) mod text_hash;
pub(in crate::bbmodel) mod text_pool;
pub(in crate::bbmodel) mod value;

use crate::bbmodel::document::brackets::closing_bracket;
use crate::bbmodel::document::formats::ModelFormat;
use crate::bbmodel::document::value::{Cursor, Path, invalid, known_key, truthy};
use crate::error::{Error, ErrorCode, JsonPath, Location, PathSegment, Quote};
use crate::json::{BYTE_ORDER_MARK_LEN, JsonError, Token, TokenKind, Tokenizer};
use crate::limits::BbmodelLimits;

/// Deepest JSON nesting read (the tokenizer's own cap). Groups nest two
/// levels per outliner level (group object, `children` array), so this
/// leaves room for maxNesting up to about 500; a document deeper than this
/// fails NOT_JSON, a group tree deeper than maxNesting NESTING_TOO_DEEP.
pub const MAX_JSON_DEPTH: usize = 1024;

/// `meta.format_version` as major and minor numbers ("4.10" is 4, 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct FormatVersion {
    /// The major version, 3 to 5.
    pub major: u32,
    /// The minor version (0 when absent).
    pub minor: u32,
}

impl FormatVersion {
    /// Parses `"5"`, `"4.10"` or `"3.6.1"` (later parts ignored).
    fn parse(text: &str) -> Option<Self> {
        let mut parts = text.split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = match parts.next() {
            Some(m) => m.parse().ok()?,
            None => 0,
        };
        Some(Self { major, minor })
    }

    /// True when this version is older than `major.minor`.
    pub fn before(self, major: u32, minor: u32) -> bool {
        (self.major, self.minor) < (major, minor)
    }
}

/// The parts of a .bbmodel, located.
#[derive(Clone, Copy, Debug)]
pub struct Document<'a> {
    /// The whole file.
    pub bytes: &'a [u8],
    /// `meta.format_version`.
    pub version: FormatVersion,
    /// The format whose rules apply (after the spec's compatibility rule).
    pub format: ModelFormat,
    /// `meta.model_format` as written, when it was a non-empty string.
    pub source_format: Option<&'a str>,
    /// `meta.box_uv`: the project lays cubes out with box UV.
    pub box_uv: bool,
    /// `resolution` width and height (default 16 × 16).
    pub resolution: [f32; 2],
    /// Where the value of each top-level part starts.
    pub elements: Option<usize>,
    /// The outliner.
    pub outliner: Option<usize>,
    /// The 5.x groups array.
    pub groups: Option<usize>,
    /// The textures array.
    pub textures: Option<usize>,
    /// The animations array.
    pub animations: Option<usize>,
    /// The collections array (Hytale formats read it, convention 15).
    pub collections: Option<usize>,
    /// The project's `animation_variable_placeholders` (Molang keyframes
    /// read it at sample time).
    pub placeholders: Option<usize>,
    /// Entries of `elements`, `groups` and `textures` (0 unless arrays),
    /// counted while the document was read.
    pub entries: PartEntries,
}

/// Entries of the top-level arrays, counted in the document's one full pass
/// so that nothing re-reads an array just to size it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartEntries {
    /// Entries of `elements`.
    pub elements: usize,
    /// Entries of the 5.x `groups` array.
    pub groups: usize,
    /// Entries of `textures`.
    pub textures: usize,
    /// Entries of `collections`.
    pub collections: usize,
}

impl<'a> Document<'a> {
    /// Whether the file has a non-empty `collections` array, which turns
    /// the Hytale formats' single_texture off (convention 15).
    pub fn has_collections(&self) -> bool {
        self.entries.collections > 0
    }

    /// A cursor at the value that starts at `start`.
    pub(crate) fn cursor(&self, start: usize) -> Cursor<'a> {
        Cursor::at(self.bytes, start, MAX_JSON_DEPTH)
    }

    /// Reads and checks `bytes` (see the module docs).
    #[inline(never)]
    pub fn read(bytes: &'a [u8], limits: &BbmodelLimits) -> Result<Self, Error> {
        if bytes.len() as u64 > limits.max_file_bytes {
            return Err(Error::nowhere(
                ErrorCode::FileTooLarge,
                format_args!(
                    "file of {} bytes is over maxFileBytes ({})",
                    bytes.len(),
                    limits.max_file_bytes
                ),
            ));
        }
        if bytes.is_empty() {
            return Err(Error::json(
                ErrorCode::NotJson,
                JsonPath::root(),
                "empty file",
                format_args!("a JSON object expected"),
            ));
        }
        // Blockbench's autoParseJSON drops a leading U+FEFF before JSON.parse.
        let mut tokens = Tokenizer::after_byte_order_mark(bytes, MAX_JSON_DEPTH);
        let first = next(&mut tokens)?;
        if first.kind != TokenKind::BeginObject {
            // A JSON syntax error anywhere still comes first.
            drain(&mut tokens)?;
            return Err(not_bbmodel("root", format_args!("an object expected")));
        }
        let mut doc = Self::empty(bytes);
        let mut meta_at = None;
        let mut resolution_at = None;
        loop {
            let token = next(&mut tokens)?;
            let TokenKind::Key(key) = token.kind else {
                break;
            };
            let value_at = match skip(&mut tokens, bytes) {
                Ok((at, entries)) => {
                    let counted = match key.as_str() {
                        Some("elements") => &mut doc.entries.elements,
                        Some("groups") => &mut doc.entries.groups,
                        Some("textures") => &mut doc.entries.textures,
                        Some("collections") => &mut doc.entries.collections,
                        _ => &mut 0,
                    };
                    *counted = entries;
                    usize::try_from(at).unwrap_or(usize::MAX)
                }
                // The outliner is JSON too deep to read: its groups are nested
                // past any maxNesting this reader can honour.
                // (Tokenizer errors are sticky: asking again gives the kind.)
                Err(_)
                    if key.eq_str("outliner")
                        && groups_follow(bytes, token.offset)
                        && matches!(tokens.next_token(), Err(j) if j.kind() == crate::json::ErrorKind::TooDeep) =>
                {
                    return Err(Error::json(
                        ErrorCode::NestingTooDeep,
                        JsonPath::from_segments(&[PathSegment::Key("outliner")]),
                        "groups nested too deep",
                        format_args!("at most {} levels of JSON", MAX_JSON_DEPTH),
                    ));
                }
                Err(e) => return Err(e),
            };
            let slot = match key.as_str() {
                Some("meta") => &mut meta_at,
                Some("resolution") => &mut resolution_at,
                Some("elements") => &mut doc.elements,
                Some("outliner") => &mut doc.outliner,
                Some("groups") => &mut doc.groups,
                Some("textures") => &mut doc.textures,
                Some("animations") => &mut doc.animations,
                Some("collections") => &mut doc.collections,
                Some("animation_variable_placeholders") => &mut doc.placeholders,
                _ => continue,
            };
            // JSON allows repeated keys; the last one wins, as in JavaScript.
            *slot = Some(value_at);
        }
        drain(&mut tokens)?;
        doc.finish(meta_at, resolution_at)
    }

    /// A document of `bytes` with no part found yet.
    fn empty(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            version: FormatVersion { major: 0, minor: 0 },
            format: ModelFormat::JavaBlock,
            source_format: None,
            box_uv: false,
            resolution: [16.0, 16.0],
            elements: None,
            outliner: None,
            groups: None,
            textures: None,
            animations: None,
            collections: None,
            placeholders: None,
            entries: PartEntries::default(),
        }
    }

    /// Reads `meta` (required) and `resolution` once the parts are found.
    fn finish(
        mut self,
        meta_at: Option<usize>,
        resolution_at: Option<usize>,
    ) -> Result<Self, Error> {
        let Some(meta_at) = meta_at else {
            return Err(not_bbmodel("meta", format_args!("a meta object expected")));
        };
        self.read_meta(meta_at)?;
        if let Some(at) = resolution_at {
            self.read_resolution(at)?;
        }
        Ok(self)
    }

    /// Finds the parts as [`Document::read`] does, but steps over the arrays
    /// the counting pass reads whole with the strict tokenizer (`elements`,
    /// `outliner`, `groups`, `animations`) by their brackets alone, without
    /// checking them. Everything else is checked here.
    ///
    /// The caller must read those arrays whole, and pass every error it
    /// meets through [`Document::first_error`], which puts a syntax error
    /// anywhere first, as `read` would. Input this does not recognise at
    /// a glance goes to `read`.
    #[inline(never)]
    pub(crate) fn locate(bytes: &'a [u8], limits: &BbmodelLimits) -> Result<Self, Error> {
        Self::locate_with(bytes, limits, |_, _, _| None)
    }

    /// [`Document::locate`] that first offers each array it would step
    /// over to `read_whole`, with the part's name and where the array
    /// starts: `Some((end, entries))` when it read the array to its end
    /// (the offset past its `]`) counting its entries, `None` to have it
    /// stepped over as usual. The read sees the document found so far
    /// (its bytes; no meta yet). It lets `load` count a part with the walk
    /// that finds where it ends.
    pub(crate) fn locate_with(
        bytes: &'a [u8],
        limits: &BbmodelLimits,
        read_whole: impl FnMut(&Self, &'static str, usize) -> Option<(usize, usize)>,
    ) -> Result<Self, Error> {
        if bytes.len() as u64 > limits.max_file_bytes || bytes.is_empty() {
            return Self::read(bytes, limits);
        }
        match Self::locate_parts(bytes, read_whole) {
            Some((doc, meta_at, resolution_at)) => doc.finish(meta_at, resolution_at),
            None => Self::read(bytes, limits),
        }
    }

    /// The error to report for `bytes` when reading them failed with `e`
    /// after [`Document::locate`]: the first error [`Document::read`] finds
    /// (a syntax error anywhere, a bad meta), else `e`.
    #[cold]
    pub(crate) fn first_error(bytes: &[u8], limits: &BbmodelLimits, e: Error) -> Error {
        match Document::read(bytes, limits) {
            Err(first) => first,
            Ok(_) => e,
        }
    }

    /// The top level of [`Document::locate`]: `None` for anything but a
    /// well-formed object whose members it can step over.
    fn locate_parts(
        bytes: &'a [u8],
        mut read_whole: impl FnMut(&Self, &'static str, usize) -> Option<(usize, usize)>,
    ) -> Option<(Self, Option<usize>, Option<usize>)> {
        let mut doc = Self::empty(bytes);
        let (mut meta_at, mut resolution_at) = (None, None);
        // The last span stepped over per key, checked whole when the key
        // comes again (the last one wins, so nobody else would read it).
        let mut stepped: [Option<(usize, usize)>; 4] = [None; 4];
        let mut pos = skip_space(bytes, byte_order_mark_len(bytes));
        if bytes.get(pos) != Some(&b'{') {
            return None;
        }
        pos = skip_space(bytes, pos + 1);
        if bytes.get(pos) == Some(&b'}') {
            pos += 1;
        } else {
            loop {
                let mut key_tokens = Tokenizer::new(bytes.get(pos..)?, 1);
                let Ok(Some(Token {
                    kind: TokenKind::String(key),
                    ..
                })) = key_tokens.next_token()
                else {
                    return None;
                };
                pos = skip_space(bytes, pos + key_tokens.position());
                if bytes.get(pos) != Some(&b':') {
                    return None;
                }
                let value_at = skip_space(bytes, pos + 1);
                let name = known_key(&key, TOP_LEVEL_KEYS);
                let whole_later = STEPPED_OVER.iter().position(|k| Some(*k) == name);
                let (end, entries) = match whole_later {
                    Some(slot) if bytes.get(value_at) == Some(&b'[') => {
                        let read = name.and_then(|part| read_whole(&doc, part, value_at));
                        let (end, entries) = match read {
                            Some(read) => read,
                            None => step_over_array(bytes, value_at)?,
                        };
                        let previous = stepped.get_mut(slot)?.replace((value_at, end));
                        if let Some((start, end)) = previous {
                            check_span(bytes, start, end)?;
                        }
                        (end, entries)
                    }
                    _ => {
                        if let Some(previous) = whole_later.and_then(|s| stepped.get_mut(s)?.take())
                        {
                            check_span(bytes, previous.0, previous.1)?;
                        }
                        let rest = bytes.get(value_at..)?;
                        let mut tokens = Tokenizer::new(rest, MAX_JSON_DEPTH);
                        let (_, entries) = skip(&mut tokens, rest).ok()?;
                        (value_at + tokens.position(), entries)
                    }
                };
                match name {
                    Some("meta") => meta_at = Some(value_at),
                    Some("resolution") => resolution_at = Some(value_at),
                    Some("elements") => {
                        (doc.elements, doc.entries.elements) = (Some(value_at), entries)
                    }
                    Some("outliner") => doc.outliner = Some(value_at),
                    Some("groups") => (doc.groups, doc.entries.groups) = (Some(value_at), entries),
                    Some("textures") => {
                        (doc.textures, doc.entries.textures) = (Some(value_at), entries)
                    }
                    Some("animations") => doc.animations = Some(value_at),
                    Some("collections") => {
                        (doc.collections, doc.entries.collections) = (Some(value_at), entries)
                    }
                    Some("animation_variable_placeholders") => doc.placeholders = Some(value_at),
                    _ => {}
                }
                pos = skip_space(bytes, end);
                match bytes.get(pos) {
                    Some(b',') => pos = skip_space(bytes, pos + 1),
                    Some(b'}') => {
                        pos += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        (skip_space(bytes, pos) == bytes.len()).then_some((doc, meta_at, resolution_at))
    }

    fn read_meta(&mut self, at: usize) -> Result<(), Error> {
        let mut c = self.cursor(at);
        let open = c.next()?;
        if open.kind != TokenKind::BeginObject {
            return Err(not_bbmodel("meta", format_args!("a meta object expected")));
        }
        let mut version = None;
        let mut model_format: Option<Token<'a>> = None;
        let mut bone_rig = false;
        while let Some(key) = c.next_key()? {
            let value = c.next()?;
            match key.as_str() {
                Some("format_version") => version = Some(version_of(&value)),
                Some("model_format") => model_format = Some(value),
                Some("bone_rig") => bone_rig = truthy(&value),
                Some("box_uv") => self.box_uv = matches!(value.kind, TokenKind::Bool(true)),
                _ => {}
            }
            c.skip_rest(&value)?;
        }
        self.version = match version {
            Some(Ok(v)) if (3..=5).contains(&v.major) => v,
            Some(Ok(v)) => {
                return Err(Error::json(
                    ErrorCode::UnsupportedVersion,
                    version_path(),
                    "unsupported format version",
                    format_args!("3.x to 5.x expected, got {}.{}", v.major, v.minor),
                ));
            }
            Some(Err(e)) => return Err(e),
            None => {
                return Err(not_bbmodel(
                    "meta.format_version",
                    format_args!("a format version such as \"4.10\" expected"),
                ));
            }
        };
        // Spec (Supported): a model_format that is absent, empty, null, false
        // or 0 reads as java_block, or bedrock_old when meta.bone_rig is truthy;
        // the source format stays unknown.
        let fallback = if bone_rig {
            ModelFormat::BedrockOld
        } else {
            ModelFormat::JavaBlock
        };
        self.format = fallback;
        if let Some(value) = model_format {
            match value.kind {
                TokenKind::String(s) => match s.as_str() {
                    Some("") => {}
                    Some(id) => {
                        self.source_format = Some(id);
                        self.format = ModelFormat::from_id(id);
                    }
                    None => self.format = ModelFormat::Other,
                },
                TokenKind::Null | TokenKind::Bool(false) => {}
                TokenKind::Number(n) if n.value() == 0.0 => {}
                _ => {
                    return Err(invalid(
                        &Path::key("meta").with_key("model_format"),
                        "wrong type",
                        format_args!("a format id string expected"),
                    ));
                }
            }
        }
        Ok(())
    }

    fn read_resolution(&mut self, at: usize) -> Result<(), Error> {
        let path = Path::key("resolution");
        let mut c = self.cursor(at);
        c.object(&path, "resolution")?;
        while let Some(key) = c.next_key()? {
            match key.as_str() {
                Some("width") => self.resolution[0] = positive(&mut c, &path.with_key("width"))?,
                Some("height") => self.resolution[1] = positive(&mut c, &path.with_key("height"))?,
                _ => {
                    c.skip_value()?;
                }
            }
        }
        Ok(())
    }
}

/// The top-level keys a document has parts at.
const TOP_LEVEL_KEYS: &[&str] = &[
    "meta",
    "resolution",
    "elements",
    "outliner",
    "groups",
    "textures",
    "animations",
    "collections",
    "animation_variable_placeholders",
];

/// The arrays [`Document::locate`] steps over (textures are mostly long
/// strings, which the tokenizer scans faster than the stepper).
const STEPPED_OVER: [&str; 4] = ["elements", "outliner", "groups", "animations"];

/// How many bytes a leading UTF-8 byte order mark takes (0 or 3): Blockbench
/// reads a file through `autoParseJSON`, which drops a leading U+FEFF.
fn byte_order_mark_len(bytes: &[u8]) -> usize {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        BYTE_ORDER_MARK_LEN
    } else {
        0
    }
}

/// The first byte at or after `i` that is no JSON whitespace.
fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    while matches!(bytes.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// Checks `bytes[start..end]` as one JSON value (`None` when it is none).
fn check_span(bytes: &[u8], start: usize, end: usize) -> Option<()> {
    let mut tokens = Tokenizer::new(bytes.get(start..end)?, MAX_JSON_DEPTH);
    drain(&mut tokens).ok()
}

/// Steps over the array that starts at `start` (a `[`) by its brackets,
/// minding strings and escapes but checking nothing else: returns where it
/// ends and how many entries it has (its top-level commas plus one, unless
/// empty). `None` when it does not close.
fn step_over_array(bytes: &[u8], start: usize) -> Option<(usize, usize)> {
    if bytes.get(start) != Some(&b'[') {
        return None;
    }
    let mut commas = 0;
    let close = closing_bracket(bytes, start + 1, 1, &mut commas)?;
    let inside = bytes.get(start + 1..close)?;
    let empty = commas == 0
        && inside
            .iter()
            .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
    Some((close + 1, if empty { 0 } else { commas + 1 }))
}

/// True when the outliner whose key starts at `key_at` opens with a group
/// object (`[ {`): depth there is group nesting, not just deep JSON.
fn groups_follow(bytes: &[u8], key_at: u64) -> bool {
    let rest = bytes
        .get(usize::try_from(key_at).unwrap_or(usize::MAX)..)
        .unwrap_or_default();
    let mut significant = rest
        .iter()
        .skip_while(|&&b| b != b':')
        .skip(1)
        .filter(|b| !b.is_ascii_whitespace());
    significant.next() == Some(&b'[') && significant.next() == Some(&b'{')
}

/// A positive number (a UV size).
fn positive(c: &mut Cursor<'_>, path: &Path<'_>) -> Result<f32, Error> {
    let v = c.number(path)?;
    if v > 0.0 {
        // Range-checked in f64; f32 is the scene's precision.
        #[allow(clippy::cast_possible_truncation)]
        Ok(v as f32)
    } else {
        Err(invalid(
            path,
            "not positive",
            format_args!("a positive number expected, got {v}"),
        ))
    }
}

/// Checks size, JSON syntax of the whole document and the version; returns
/// the version.
pub fn read_meta(bytes: &[u8], limits: &BbmodelLimits) -> Result<FormatVersion, Error> {
    Document::read(bytes, limits).map(|d| d.version)
}

fn version_path() -> JsonPath {
    JsonPath::from_segments(&[PathSegment::Key("meta"), PathSegment::Key("format_version")])
}

fn version_of(value: &Token<'_>) -> Result<FormatVersion, Error> {
    let parsed = match value.kind {
        TokenKind::String(s) => s.as_str().and_then(FormatVersion::parse),
        // Blockbench writes a string; a number such as 4.5 reads the same.
        TokenKind::Number(n) => FormatVersion::parse(n.raw()),
        _ => None,
    };
    parsed.ok_or_else(|| {
        let shown = match value.kind {
            TokenKind::String(s) => s.raw_str(),
            TokenKind::Number(n) => n.raw(),
            _ => "(not a string)",
        };
        Error::json(
            ErrorCode::UnsupportedVersion,
            version_path(),
            "unreadable format version",
            format_args!("a version such as \"4.10\" expected, got {}", Quote(shown)),
        )
    })
}

fn next<'a>(tokens: &mut Tokenizer<'a>) -> Result<Token<'a>, Error> {
    match tokens.next_token() {
        Ok(Some(t)) => Ok(t),
        Ok(None) => Err(not_json_at(tokens.position() as u64, "more JSON expected")),
        Err(e) => Err(not_json(e)),
    }
}

/// Skips the value after a key (or the first value of `input`, the
/// tokenizer's input); returns the byte offset where it starts and, for an
/// array, how many entries it has. [`Tokenizer::skip_value`] checks each
/// value as `next_token` would, without building its tokens.
fn skip(tokens: &mut Tokenizer<'_>, input: &[u8]) -> Result<(u64, usize), Error> {
    let mut at = skip_space(input, tokens.position());
    if input.get(at) == Some(&b':') {
        at = skip_space(input, at + 1);
    }
    if input.get(at) != Some(&b'[') {
        if !tokens.skip_value().map_err(not_json)? {
            // A key is followed by a value, so this is a token out of place.
            next(tokens)?;
            return Err(not_json_at(tokens.position() as u64, "a value expected"));
        }
        return Ok((at as u64, 0));
    }
    next(tokens)?;
    let mut entries = 0usize;
    while tokens.skip_value().map_err(not_json)? {
        entries += 1;
    }
    next(tokens)?;
    Ok((at as u64, entries))
}

/// Reads to the end of the document, so a syntax error anywhere is NOT_JSON.
fn drain(tokens: &mut Tokenizer<'_>) -> Result<(), Error> {
    loop {
        match tokens.next_token() {
            Ok(Some(_)) => {}
            Ok(None) => return Ok(()),
            Err(e) => return Err(not_json(e)),
        }
    }
}

fn not_json(e: JsonError) -> Error {
    Error::new(
        ErrorCode::NotJson,
        Location::Binary {
            offset: e.offset(),
            section: None,
        },
        format_args!("not JSON: {e}"),
    )
}

fn not_json_at(offset: u64, what: &str) -> Error {
    Error::new(
        ErrorCode::NotJson,
        Location::Binary {
            offset,
            section: None,
        },
        format_args!("not JSON at byte {offset}: {what}"),
    )
}

fn not_bbmodel(what: &str, expected: core::fmt::Arguments<'_>) -> Error {
    let at = match what {
        "root" => JsonPath::root(),
        "meta" => JsonPath::from_segments(&[PathSegment::Key("meta")]),
        _ => version_path(),
    };
    Error::json(ErrorCode::NotBbmodel, at, "not a .bbmodel", expected)
}

#[cfg(test)]
mod tests;
