//! What makes bytes a .bbmodel: size, JSON, a root object, `meta.format_version`.
//!
//! Spec ("Errors"): FILE_TOO_LARGE over maxFileBytes; NOT_JSON for empty, not
//! UTF-8 or not JSON; NOT_BBMODEL for a root that is no object or lacks
//! `meta` / `meta.format_version`; UNSUPPORTED_VERSION outside 3.x–5.x.

use crate::error::{Error, ErrorCode, JsonPath, Location, PathSegment, Quote};
use crate::json::{JsonError, Token, TokenKind, Tokenizer};
use crate::limits::BbmodelLimits;

/// Deepest JSON nesting read. Groups nest two levels per outliner level
/// (`children` array, group object), so this leaves room for maxNesting (64)
/// and the fixed levels around it; deeper documents fail as NOT_JSON with
/// the tokenizer's depth error before any group is read.
pub const MAX_JSON_DEPTH: usize = 256;

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
}

/// Checks size, JSON syntax of the whole document and the version; returns
/// the version.
pub fn read_meta(bytes: &[u8], limits: &BbmodelLimits) -> Result<FormatVersion, Error> {
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
            path(&[]),
            "empty file",
            format_args!("a JSON object expected"),
        ));
    }
    let mut tokens = Tokenizer::new(bytes, MAX_JSON_DEPTH);
    let first = next(&mut tokens)?;
    if first.kind != TokenKind::BeginObject {
        // Still a JSON syntax error first, if the rest is not JSON.
        drain(&mut tokens)?;
        return Err(not_bbmodel("root", format_args!("an object expected")));
    }
    let mut version = None;
    let mut meta_seen = false;
    loop {
        let token = next(&mut tokens)?;
        match token.kind {
            TokenKind::EndObject => break,
            TokenKind::Key(k) if k.eq_str("meta") => {
                meta_seen = true;
                version = read_meta_object(&mut tokens)?;
            }
            TokenKind::Key(_) => skip(&mut tokens)?,
            _ => return Err(not_json_at(token.offset, "a key or '}' expected")),
        }
    }
    drain(&mut tokens)?;
    if !meta_seen {
        return Err(not_bbmodel("meta", format_args!("a meta object expected")));
    }
    match version {
        Some(Ok(v)) if (3..=5).contains(&v.major) => Ok(v),
        Some(Ok(v)) => Err(Error::json(
            ErrorCode::UnsupportedVersion,
            path(&[PathSegment::Key("meta"), PathSegment::Key("format_version")]),
            "unsupported format version",
            format_args!("3.x to 5.x expected, got {}.{}", v.major, v.minor),
        )),
        Some(Err(e)) => Err(e),
        None => Err(not_bbmodel(
            "meta.format_version",
            format_args!("a format version such as \"4.10\" expected"),
        )),
    }
}

/// Reads the `meta` value; returns the format version when there is one.
fn read_meta_object(
    tokens: &mut Tokenizer<'_>,
) -> Result<Option<Result<FormatVersion, Error>>, Error> {
    let open = next(tokens)?;
    if open.kind != TokenKind::BeginObject {
        // A meta that is no object has no format_version.
        if matches!(open.kind, TokenKind::BeginArray) {
            skip_rest_of_container(tokens)?;
        }
        return Ok(None);
    }
    let mut version = None;
    loop {
        let token = next(tokens)?;
        match token.kind {
            TokenKind::EndObject => return Ok(version),
            TokenKind::Key(k) if k.eq_str("format_version") => {
                let value = next(tokens)?;
                version = Some(version_of(value));
                if matches!(value.kind, TokenKind::BeginArray | TokenKind::BeginObject) {
                    skip_rest_of_container(tokens)?;
                }
            }
            TokenKind::Key(_) => skip(tokens)?,
            _ => return Err(not_json_at(token.offset, "a key or '}' expected")),
        }
    }
}

fn version_of(value: Token<'_>) -> Result<FormatVersion, Error> {
    let at = || path(&[PathSegment::Key("meta"), PathSegment::Key("format_version")]);
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
            at(),
            "unreadable format version",
            format_args!("a version such as \"4.10\" expected, got {}", Quote(shown)),
        )
    })
}

fn next<'a>(tokens: &mut Tokenizer<'a>) -> Result<Token<'a>, Error> {
    match tokens.next_token() {
        Ok(Some(t)) => Ok(t),
        Ok(None) => Err(not_json_at(tokens_len(tokens), "more JSON expected")),
        Err(e) => Err(not_json(e)),
    }
}

fn tokens_len(tokens: &Tokenizer<'_>) -> u64 {
    tokens.position() as u64
}

fn skip(tokens: &mut Tokenizer<'_>) -> Result<(), Error> {
    tokens.skip_value().map(|_| ()).map_err(not_json)
}

/// Skips to the end of the container whose opening token was just read.
fn skip_rest_of_container(tokens: &mut Tokenizer<'_>) -> Result<(), Error> {
    let mut depth = 1usize;
    while depth > 0 {
        match next(tokens)?.kind {
            TokenKind::BeginArray | TokenKind::BeginObject => depth += 1,
            TokenKind::EndArray | TokenKind::EndObject => depth -= 1,
            _ => {}
        }
    }
    Ok(())
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

fn path(segments: &[PathSegment<'_>]) -> JsonPath {
    JsonPath::from_segments(segments)
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
        "root" => path(&[]),
        "meta" => path(&[PathSegment::Key("meta")]),
        _ => path(&[PathSegment::Key("meta"), PathSegment::Key("format_version")]),
    };
    Error::json(ErrorCode::NotBbmodel, at, "not a .bbmodel", expected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;

    fn code(json: &str) -> ErrorCode {
        read_meta(json.as_bytes(), &BbmodelLimits::default())
            .unwrap_err()
            .code()
    }

    #[test]
    fn reads_versions_3_to_5() {
        for (text, major, minor) in [("3.0", 3, 0), ("4.10", 4, 10), ("5.0", 5, 0), ("4.9", 4, 9)] {
            let json = format!(r#"{{"meta": {{"format_version": "{text}"}}}}"#);
            let v = read_meta(json.as_bytes(), &BbmodelLimits::default()).unwrap();
            assert_eq!((v.major, v.minor), (major, minor));
        }
    }

    #[test]
    fn unsupported_version_outside_3_to_5() {
        assert_eq!(
            code(r#"{"meta": {"format_version": "2.9"}}"#),
            ErrorCode::UnsupportedVersion
        );
        assert_eq!(
            code(r#"{"meta": {"format_version": "6.0"}}"#),
            ErrorCode::UnsupportedVersion
        );
        assert_eq!(
            code(r#"{"meta": {"format_version": "abc"}}"#),
            ErrorCode::UnsupportedVersion
        );
    }

    #[test]
    fn not_bbmodel_without_object_meta_or_version() {
        assert_eq!(code("[1, 2]"), ErrorCode::NotBbmodel);
        assert_eq!(code("{}"), ErrorCode::NotBbmodel);
        assert_eq!(code(r#"{"meta": {}}"#), ErrorCode::NotBbmodel);
        assert_eq!(code(r#"{"meta": 5}"#), ErrorCode::NotBbmodel);
    }

    #[test]
    fn not_json_for_empty_invalid_utf8_and_syntax_errors() {
        assert_eq!(code(""), ErrorCode::NotJson);
        assert_eq!(
            read_meta(b"{\"meta\": \xFF}", &BbmodelLimits::default())
                .unwrap_err()
                .code(),
            ErrorCode::NotJson
        );
        assert_eq!(
            code(r#"{"meta": {"format_version": "4.0"},}"#),
            ErrorCode::NotJson
        );
        // A syntax error after a valid meta is still NOT_JSON.
        assert_eq!(
            code(r#"{"meta": {"format_version": "4.0"}, "x": [1,]}"#),
            ErrorCode::NotJson
        );
    }

    #[test]
    fn nan_and_infinity_are_not_json_and_named() {
        let e = read_meta(
            br#"{"meta": {"format_version": "4.0"}, "x": NaN}"#,
            &BbmodelLimits::default(),
        )
        .unwrap_err();
        assert_eq!(e.code(), ErrorCode::NotJson);
        assert!(e.message().contains("NaN"), "{}", e.message());
        let e = read_meta(br#"{"a": -Infinity}"#, &BbmodelLimits::default()).unwrap_err();
        assert!(e.message().contains("Infinity"), "{}", e.message());
    }

    #[test]
    fn file_too_large_at_limit_plus_one() {
        let json = br#"{"meta": {"format_version": "4.0"}}"#;
        let at = BbmodelLimits {
            max_file_bytes: json.len() as u64,
            ..BbmodelLimits::default()
        };
        assert!(read_meta(json, &at).is_ok());
        let under = BbmodelLimits {
            max_file_bytes: json.len() as u64 - 1,
            ..BbmodelLimits::default()
        };
        assert_eq!(
            read_meta(json, &under).unwrap_err().code(),
            ErrorCode::FileTooLarge
        );
    }
}
