//! `list_references` (the spec's listBbmodelReferences): the texture files
//! a caller may have to supply.
//!
//! Spec (Local-first): per texture whose source is not a `data:` URI, its
//! `relative_path`, else its `name`, as written; each distinct spelling once;
//! at most maxReferences + 1; before format 4.10 a leading `../` or `..\` is
//! dropped once (a missing or malformed version counts as current); `path`
//! and `source` are never listed; a value over maxStringChars lists nothing
//! for its texture; a file whose JSON, root, meta or textures count the
//! loader refuses lists nothing.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use crate::bbmodel::document::Document;
use crate::bbmodel::project::structure::{census, for_each_entry};
use crate::error::Error;
use crate::json::{JsonStr, TokenKind};
use crate::limits::BbmodelLimits;

/// Most references kept for the "each spelling once" check; a
/// `max_references` above this reads as this.
pub const HARD_MAX_REFERENCES: usize = 256;

/// One texture file a model refers to, as [`list_named_references`] gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reference<'a> {
    /// What listBbmodelReferences lists: the `relative_path` (relative to
    /// the model's folder, one leading `../` dropped before 4.10), else the
    /// `name`.
    pub listed: &'a str,
    /// The texture's `name` when `listed` is its `relative_path`: the
    /// loader also matches a file by it, so a caller that cannot find the
    /// path may look for the name.
    pub name: Option<&'a str>,
}

/// Calls `visit` with each texture file name the model refers to, in
/// texture order, and returns how many it listed.
///
/// Refusals (see the module docs) list nothing and return the loader's error.
pub fn list_references(
    bytes: &[u8],
    limits: &BbmodelLimits,
    max_references: usize,
    visit: impl FnMut(&str),
) -> Result<usize, Error> {
    let doc = Document::read(bytes, limits)?;
    list_document_references(&doc, limits, max_references, visit)
}

/// [`list_references`] for a document read once with
/// [`read_document`](crate::bbmodel::read_document).
pub fn list_document_references(
    doc: &Document<'_>,
    limits: &BbmodelLimits,
    max_references: usize,
    mut visit: impl FnMut(&str),
) -> Result<usize, Error> {
    list_named_document_references(doc, limits, max_references, |r| visit(r.listed))
}

/// [`list_references`] with each texture's name beside its listed path:
/// the same references, in the same order, each a [`Reference`].
pub fn list_named_references(
    bytes: &[u8],
    limits: &BbmodelLimits,
    max_references: usize,
    visit: impl FnMut(Reference<'_>),
) -> Result<usize, Error> {
    let doc = Document::read(bytes, limits)?;
    list_named_document_references(&doc, limits, max_references, visit)
}

/// [`list_named_references`] for a caller that loads the same bytes next
/// (the command line, which reads the files listed before the load): the
/// arrays the loader reads whole (`elements`, `outliner` as far as the
/// census does not read it, `groups`, `animations`) are stepped over by
/// their brackets rather than checked token by token, which on a large
/// file is most of the listing's work. The same files are listed; a file
/// broken inside one of those arrays may list its textures, and its load
/// then refuses it with the error [`list_named_references`] would give.
pub fn list_named_references_before_load(
    bytes: &[u8],
    limits: &BbmodelLimits,
    max_references: usize,
    visit: impl FnMut(Reference<'_>),
) -> Result<usize, Error> {
    let doc = Document::locate(bytes, limits)?;
    list_named_document_references(&doc, limits, max_references, visit)
}

/// [`list_named_references`] for a document read once.
pub fn list_named_document_references(
    doc: &Document<'_>,
    limits: &BbmodelLimits,
    max_references: usize,
    mut visit: impl FnMut(Reference<'_>),
) -> Result<usize, Error> {
    let doc = *doc;
    // The loader's textures count check comes first: over it, nothing is listed.
    census(&doc, limits)?;
    let cap = max_references.saturating_add(1).min(HARD_MAX_REFERENCES);
    let strip_parent = doc.version.before(4, 10);
    let mut seen = heapless::Vec::<(u64, usize, usize), HARD_MAX_REFERENCES>::new();
    let mut listed = 0usize;
    for_each_entry(&doc, doc.textures, |_, at| {
        if listed >= cap {
            return Ok(());
        }
        let Some((value, name)) = reference_of(&doc, at, limits)? else {
            return Ok(());
        };
        let mut buffer = [0u8; 4096];
        let Some(text) = spelled(&value, strip_parent, &mut buffer) else {
            return Ok(());
        };
        let mut name_buffer = [0u8; 4096];
        let name = name.and_then(|n| n.decode_into(&mut name_buffer).ok());
        let hash = fnv(text.as_bytes());
        let repeated = seen.iter().any(|&(h, start, len)| {
            h == hash && {
                let mut other = [0u8; 4096];
                doc.bytes
                    .get(start..start + len)
                    .and_then(|raw| raw_spelled(raw, strip_parent, &mut other))
                    .is_some_and(|t| t == text)
            }
        });
        if !repeated {
            let start =
                (value.raw_bytes().as_ptr() as usize).wrapping_sub(doc.bytes.as_ptr() as usize);
            let _ = seen.push((hash, start, value.raw_bytes().len()));
            visit(Reference { listed: text, name });
            listed += 1;
        }
        Ok(())
    })?;
    Ok(listed)
}

/// The value a texture lists: `relative_path`, else `name`, when its source
/// is not a data URI and the value fits maxStringChars; with the `name`
/// beside a listed `relative_path` (when it fits maxStringChars too).
fn reference_of<'a>(
    doc: &Document<'a>,
    at: usize,
    limits: &BbmodelLimits,
) -> Result<Option<(JsonStr<'a>, Option<JsonStr<'a>>)>, Error> {
    let mut c = doc.cursor(at);
    if c.next()?.kind != TokenKind::BeginObject {
        return Ok(None);
    }
    let (mut relative, mut name, mut embedded) = (None, None, false);
    while let Some(key) = c.next_key()? {
        let v = c.next()?;
        if let TokenKind::String(s) = v.kind {
            match key.as_str() {
                Some("relative_path") => relative = Some(s),
                Some("name") => name = Some(s),
                Some("source") => embedded = s.raw_bytes().starts_with(b"data:"),
                _ => {}
            }
        }
        c.skip_rest(&v)?;
    }
    if embedded {
        return Ok(None);
    }
    let fits = |v: &JsonStr<'_>| {
        crate::bbmodel::document::value::check_string_length(
            v,
            &crate::bbmodel::document::value::Path::key("textures"),
            limits.max_string_chars,
        )
        .is_ok()
    };
    let relative = relative.filter(|r| r.decoded_len() > 0);
    let beside = relative
        .and(name)
        .filter(|n| n.decoded_len() > 0 && fits(n));
    let value = relative.or(name);
    Ok(value.filter(|v| fits(v)).map(|v| (v, beside)))
}

/// The listed spelling of a value: decoded, with one leading `../` or
/// `..\` dropped in files before 4.10.
fn spelled<'b>(value: &JsonStr<'_>, strip_parent: bool, buffer: &'b mut [u8]) -> Option<&'b str> {
    let text = value.decode_into(buffer).ok()?;
    Some(strip(text, strip_parent))
}

/// The same for a raw (still escaped) span of the document.
fn raw_spelled<'b>(raw: &[u8], strip_parent: bool, buffer: &'b mut [u8]) -> Option<&'b str> {
    // Re-tokenize the string from its opening quote's content.
    let mut quoted = heapless::Vec::<u8, 4100>::new();
    quoted.push(b'"').ok()?;
    quoted.extend_from_slice(raw).ok()?;
    quoted.push(b'"').ok()?;
    let mut t = crate::json::Tokenizer::new(&quoted, 1);
    let TokenKind::String(s) = t.next_token().ok()??.kind else {
        return None;
    };
    let text = s.decode_into(buffer).ok()?;
    Some(strip(text, strip_parent))
}

fn strip(text: &str, strip_parent: bool) -> &str {
    if strip_parent {
        text.strip_prefix("../")
            .or_else(|| text.strip_prefix("..\\"))
            .unwrap_or(text)
    } else {
        text
    }
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;
    use std::string::{String, ToString};
    use std::vec::Vec;

    fn list(json: &str, max: usize) -> Vec<String> {
        let mut out = Vec::new();
        list_references(json.as_bytes(), &BbmodelLimits::default(), max, |r| {
            out.push(r.to_string())
        })
        .unwrap();
        out
    }

    #[test]
    fn lists_relative_path_else_name_for_textures_that_are_not_embedded() {
        let json = r#"{"meta": {"format_version": "4.10"}, "textures": [
            {"name": "a.png", "relative_path": "tex/a.png", "path": "/home/x/tex/a.png", "source": "file:///x"},
            {"name": "b.png"},
            {"name": "c.png", "source": "data:image/png;base64,AAAA"}
        ]}"#;
        assert_eq!(list(json, 10), ["tex/a.png", "b.png"]);
    }

    #[test]
    fn the_name_comes_beside_a_listed_relative_path() {
        let json = r#"{"meta": {"format_version": "4.10"}, "textures": [
            {"name": "skin", "relative_path": "tex/skin.png"},
            {"name": "b.png"},
            {"relative_path": "c.png"}
        ]}"#;
        let mut out = Vec::new();
        list_named_references(json.as_bytes(), &BbmodelLimits::default(), 10, |r| {
            out.push((r.listed.to_string(), r.name.map(str::to_string)))
        })
        .unwrap();
        assert_eq!(
            out,
            [
                ("tex/skin.png".to_string(), Some("skin".to_string())),
                ("b.png".to_string(), None),
                ("c.png".to_string(), None),
            ]
        );
    }

    #[test]
    fn each_spelling_once_and_at_most_max_plus_one() {
        let json = r#"{"meta": {"format_version": "4.10"}, "textures": [
            {"name": "a.png"}, {"name": "a.png"}, {"name": "A.png"}, {"name": "b.png"}, {"name": "c.png"}
        ]}"#;
        assert_eq!(list(json, 10), ["a.png", "A.png", "b.png", "c.png"]);
        assert_eq!(list(json, 1), ["a.png", "A.png"]);
    }

    #[test]
    fn before_4_10_one_leading_parent_is_dropped() {
        let json = r#"{"meta": {"format_version": "4.9"}, "textures": [
            {"relative_path": "../../tex/a.png"}, {"relative_path": "..\\..\\tex\\b.png"}, {"relative_path": "c.png"}
        ]}"#;
        assert_eq!(list(json, 10), ["../tex/a.png", "..\\tex\\b.png", "c.png"]);
        let current =
            r#"{"meta": {"format_version": "4.10"}, "textures": [{"relative_path": "../a.png"}]}"#;
        assert_eq!(list(current, 10), ["../a.png"]);
    }

    #[test]
    fn over_long_values_list_nothing_and_refused_files_list_nothing() {
        let long = "x".repeat(2000);
        let json = format!(
            r#"{{"meta": {{"format_version": "4.10"}}, "textures": [{{"name": "{long}"}}, {{"name": "ok.png"}}]}}"#
        );
        assert_eq!(list(&json, 10), ["ok.png"]);
        let mut out = Vec::new();
        assert!(
            list_references(b"{}", &BbmodelLimits::default(), 10, |r| out
                .push(r.to_string()))
            .is_err()
        );
        assert!(out.is_empty());
    }

    fn named_before_load(json: &[u8]) -> Result<Vec<String>, Error> {
        let mut out = Vec::new();
        list_named_references_before_load(json, &BbmodelLimits::default(), 10, |r| {
            out.push(r.listed.to_string())
        })?;
        Ok(out)
    }

    #[test]
    fn before_a_load_the_loaders_arrays_are_stepped_over_not_checked() {
        // The same list as list_named_references on a sound file; a file
        // broken inside `elements` lists its textures (its load says why),
        // one broken inside `textures` or `meta` still lists nothing.
        let sound = br#"{"meta": {"format_version": "4.10"}, "elements": [{"type": "cube"}],
            "textures": [{"name": "a.png"}, {"name": "b.png", "relative_path": "t/b.png"}]}"#;
        assert_eq!(named_before_load(sound).unwrap(), ["a.png", "t/b.png"]);
        let broken_elements = br#"{"meta": {"format_version": "4.10"}, "elements": [{"type": tru}],
            "textures": [{"name": "a.png"}]}"#;
        assert!(list_references(broken_elements, &BbmodelLimits::default(), 10, |_| ()).is_err());
        assert_eq!(named_before_load(broken_elements).unwrap(), ["a.png"]);
        let broken_textures = br#"{"meta": {"format_version": "4.10"}, "elements": [],
            "textures": [{"name": "a.png", "x": tru}]}"#;
        assert!(named_before_load(broken_textures).is_err());
        let no_meta = br#"{"elements": [], "textures": [{"name": "a.png"}]}"#;
        assert!(named_before_load(no_meta).is_err());
    }

    #[test]
    fn before_a_load_the_corpus_lists_what_list_named_references_lists() {
        let Some(files) = crate::test_corpus::files("bbmodel", &["bbmodel"]) else {
            return;
        };
        let limits = BbmodelLimits::default();
        let mut listed = 0;
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            let mut checked = Vec::new();
            let a = list_named_references(&bytes, &limits, 64, |r| {
                checked.push((r.listed.to_string(), r.name.map(str::to_string)))
            });
            let mut located = Vec::new();
            let b = list_named_references_before_load(&bytes, &limits, 64, |r| {
                located.push((r.listed.to_string(), r.name.map(str::to_string)))
            });
            assert_eq!(a.is_ok(), b.is_ok(), "{}", path.display());
            assert_eq!(checked, located, "{}", path.display());
            listed += checked.len();
        }
        assert!(listed > 0, "the corpus names texture files");
    }
}
