//! Typed reads of JSON values with the spec's errors: every read knows the
//! JSON path it is at, and a wrong type or a number out of range is an
//! INVALID_FIELD there (spec: "a field has the wrong type, a non-finite
//! number …"; "Numbers must be finite and within ±10 000 000").
//!
//! The document was validated as JSON when it was indexed, so a syntax
//! error cannot happen here; one that somehow does is still NOT_JSON.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "positions and lengths index the input or a caller buffer (at most isize::MAX bytes) and advance by at most what was just read or checked, so they stay below usize::MAX"
)]

use core::fmt;

use crate::bbmodel::document::brackets::{
    closing_bracket, closing_bracket_uncounted, closing_bracket_visiting,
};
use crate::error::{Error, ErrorCode, JsonPath, Location, PathSegment, Quote};
use crate::json::{JsonStr, Token, TokenKind, Tokenizer};
use crate::limits::MAX_BBMODEL_NUMBER;

/// Segments a rendered path keeps from the leaf up (deeper paths are
/// shortened to their head and this many newest segments).
const RENDER_DEPTH: usize = 24;

/// Where a read is, for error messages: a chain of breadcrumbs, each
/// borrowing its parent, so entering a key or an index costs two words and
/// nothing is formatted unless an error is rendered.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Path<'p> {
    segment: Crumb<'p>,
    parent: Option<&'p Path<'p>>,
}

/// One breadcrumb: a key, a key as the file spells it (turned into text
/// only when rendered), or an index.
#[derive(Clone, Copy, Debug)]
enum Crumb<'p> {
    Key(&'p str),
    Raw(JsonStr<'p>),
    Index(usize),
}

impl<'p> Crumb<'p> {
    fn segment(self) -> PathSegment<'p> {
        match self {
            Crumb::Key(k) => PathSegment::Key(k),
            Crumb::Raw(k) => PathSegment::Key(k.raw_str()),
            Crumb::Index(i) => PathSegment::Index(i),
        }
    }
}

/// The name among `names` that `key` spells once decoded (JavaScript
/// compares decoded keys), without turning the key into text.
#[inline]
pub(crate) fn known_key(key: &JsonStr<'_>, names: &[&'static str]) -> Option<&'static str> {
    if key.has_escapes() {
        names.iter().copied().find(|n| key.eq_str(n))
    } else {
        let raw = key.raw_bytes();
        names.iter().copied().find(|n| n.as_bytes() == raw)
    }
}

/// Whether two JSON strings are equal once decoded.
pub(crate) fn same_text(a: &JsonStr<'_>, b: &JsonStr<'_>) -> bool {
    match (a.has_escapes(), b.has_escapes()) {
        // The first byte settles most unequal keys without a `memcmp` call.
        (false, false) => {
            let (x, y) = (a.raw_bytes(), b.raw_bytes());
            x.len() == y.len() && x.first() == y.first() && x == y
        }
        (false, true) => a.as_str().is_some_and(|x| b.eq_str(x)),
        (true, false) => b.as_str().is_some_and(|y| a.eq_str(y)),
        (true, true) => both_escaped_equal(a, b),
    }
}

/// Characters of a string with escapes, counted piece by piece as it
/// decodes (no buffer, so no length it cannot count).
#[cold]
#[inline(never)]
fn escaped_chars(s: &JsonStr<'_>) -> usize {
    let mut n = 0usize;
    s.for_each_decoded(|piece| {
        n = n.saturating_add(piece.chars().count());
        true
    });
    n
}

/// Two escaped strings compared as both decode, a byte at a time.
#[cold]
#[inline(never)]
fn both_escaped_equal(a: &JsonStr<'_>, b: &JsonStr<'_>) -> bool {
    a.eq_decoded(b)
}

/// `$.elements`, the root of every element path.
pub(crate) static ELEMENTS: Path<'static> = Path::key("elements");
/// `$.groups`.
pub(crate) static GROUPS: Path<'static> = Path::key("groups");
/// `$.textures`.
pub(crate) static TEXTURES: Path<'static> = Path::key("textures");
/// `$.animations`.
pub(crate) static ANIMATIONS: Path<'static> = Path::key("animations");

impl<'p> Path<'p> {
    /// `$.key`.
    pub(crate) const fn key(key: &'p str) -> Self {
        Self {
            segment: Crumb::Key(key),
            parent: None,
        }
    }

    /// This path plus `.key`.
    pub(crate) const fn with_key<'s>(&'s self, key: &'s str) -> Path<'s> {
        Path {
            segment: Crumb::Key(key),
            parent: Some(self),
        }
    }

    /// This path plus the key `key` as the file spells it.
    pub(crate) const fn with_raw_key<'s>(&'s self, key: JsonStr<'s>) -> Path<'s> {
        Path {
            segment: Crumb::Raw(key),
            parent: Some(self),
        }
    }

    /// This path plus `[index]`.
    pub(crate) const fn with_index(&self, index: usize) -> Path<'_> {
        Path {
            segment: Crumb::Index(index),
            parent: Some(self),
        }
    }

    /// The path rendered as `$.elements[3].faces.north`: the root-most
    /// segment and the newest ones when it is too deep to keep whole.
    pub(crate) fn render(&self) -> JsonPath {
        let mut newest = [PathSegment::Index(0); RENDER_DEPTH];
        let mut depth = 0usize;
        let mut root = self.segment.segment();
        let mut link = Some(self);
        while let Some(p) = link {
            if let Some(slot) = newest.get_mut(depth) {
                *slot = p.segment.segment();
            }
            root = p.segment.segment();
            depth += 1;
            link = p.parent;
        }
        let kept = depth.min(RENDER_DEPTH);
        let mut segments = heapless::Vec::<PathSegment<'_>, { RENDER_DEPTH + 1 }>::new();
        if depth > RENDER_DEPTH {
            let _ = segments.push(root);
        }
        for s in newest.iter().take(kept).rev() {
            let _ = segments.push(*s);
        }
        JsonPath::from_segments(&segments)
    }
}

/// An INVALID_FIELD error at `path`: `<what> at <path>: <expected>`.
pub(crate) fn invalid(path: &Path<'_>, what: &str, expected: fmt::Arguments<'_>) -> Error {
    Error::json(ErrorCode::InvalidField, path.render(), what, expected)
}

/// An error of `code` at `path`.
pub(crate) fn error_at(
    code: ErrorCode,
    path: &Path<'_>,
    what: &str,
    expected: fmt::Arguments<'_>,
) -> Error {
    Error::json(code, path.render(), what, expected)
}

/// INVALID_FIELD at `path` (`what` names the entry) unless `first` opens
/// an object.
pub(crate) fn expect_object(first: &Token<'_>, path: &Path<'_>, what: &str) -> Result<(), Error> {
    if first.kind == TokenKind::BeginObject {
        return Ok(());
    }
    Err(invalid(
        path,
        what,
        format_args!("an object expected, got {}", type_name(first)),
    ))
}

/// A short description of a token's JSON type, for messages.
pub(crate) fn type_name(token: &Token<'_>) -> &'static str {
    match token.kind {
        TokenKind::BeginObject => "an object",
        TokenKind::BeginArray => "an array",
        TokenKind::String(_) => "a string",
        TokenKind::Number(_) => "a number",
        TokenKind::Bool(_) => "a boolean",
        TokenKind::Null => "null",
        TokenKind::Key(_) | TokenKind::EndObject | TokenKind::EndArray => "no value",
    }
}

/// A tokenizer positioned at one value of the document, with typed reads.
///
/// It tracks how deep it is, so a read that failed part-way through a value
/// can be abandoned with [`Cursor::recover`] and the object around it read on.
#[derive(Clone, Debug)]
pub(crate) struct Cursor<'a> {
    tokens: Tokenizer<'a>,
    /// Where the tokenizer's input starts in the document.
    base: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor whose next token is the value starting at byte `start`.
    pub(crate) fn at(document: &'a [u8], start: usize, max_depth: usize) -> Self {
        Self {
            tokens: Tokenizer::new(document.get(start..).unwrap_or_default(), max_depth),
            base: start,
        }
    }

    /// The next token.
    #[inline]
    pub(crate) fn next(&mut self) -> Result<Token<'a>, SyntaxError> {
        // The fast path's token is returned from where it was lexed; merged
        // with the general path's, it would go through memory (and a
        // store-forwarding stall) on every token.
        match self.tokens.next_token_fast() {
            Some(next) => token_of(next),
            None => token_of(self.tokens.next_token_general()),
        }
    }

    /// Where token `t` of this cursor starts in the document.
    pub(crate) fn offset_of(&self, t: &Token<'_>) -> usize {
        self.base
            .saturating_add(usize::try_from(t.offset).unwrap_or(usize::MAX))
    }

    /// Containers open now (0 before the first token and after its value).
    pub(crate) const fn depth(&self) -> usize {
        // The tokenizer's input starts at the cursor's first value.
        self.tokens.depth()
    }

    /// Reads on until `depth` containers are open: abandons what a failed
    /// read left half-read inside the object at that depth.
    pub(crate) fn recover(&mut self, depth: usize) -> Result<(), SyntaxError> {
        while self.depth() > depth {
            self.next()?;
        }
        Ok(())
    }

    /// Leaves the object or array the cursor is in without reading the rest
    /// of it: its closing bracket is found by [`closing_bracket`], nothing
    /// before it is checked. Only for JSON that is checked in another read.
    pub(crate) fn leave_unchecked(&mut self) -> Result<(), SyntaxError> {
        let input = self.tokens.input();
        let from = self.tokens.position();
        let close = closing_bracket_uncounted(input, from, 1).ok_or(SyntaxError(None))?;
        self.tokens.leave_container_at(close);
        Ok(())
    }

    /// [`Cursor::leave_unchecked`] that calls `visit` with each string
    /// opening right inside the container (its keys and string values:
    /// the input from its opening quote), found by
    /// [`closing_bracket_visiting`]; `None` when that walk gives up, the
    /// cursor then unmoved.
    pub(crate) fn leave_visiting(&mut self, mut visit: impl FnMut(&'a [u8]) -> bool) -> Option<()> {
        let input = self.tokens.input();
        let from = self.tokens.position();
        let close =
            closing_bracket_visiting(input, from, |k| visit(input.get(k..).unwrap_or_default()))?;
        self.tokens.leave_container_at(close);
        Some(())
    }

    /// Passes over the next value: a scalar is read as a token, a container
    /// left by [`Cursor::leave_unchecked`]. Only for a value another read
    /// checks.
    pub(crate) fn pass_over(&mut self) -> Result<(), SyntaxError> {
        let t = self.next()?;
        if matches!(t.kind, TokenKind::BeginArray | TokenKind::BeginObject) {
            self.leave_unchecked()?;
        }
        Ok(())
    }

    /// [`Cursor::leave_unchecked`], returning how many entries the rest of
    /// the container held (by its commas; none when only whitespace is left).
    pub(crate) fn leave_unchecked_counting(&mut self) -> Result<usize, SyntaxError> {
        self.leave_unchecked_counted().map(|(entries, _)| entries)
    }

    /// [`Cursor::leave_unchecked_counting`], returning also the document
    /// offset of the container's closing bracket (for [`Cursor::leave_at`]).
    pub(crate) fn leave_unchecked_counted(&mut self) -> Result<(usize, usize), SyntaxError> {
        let input = self.tokens.input();
        let from = self.tokens.position();
        let mut commas = 0;
        let close = closing_bracket(input, from, 1, &mut commas).ok_or(SyntaxError(None))?;
        let empty = input.get(from..close).is_some_and(|rest| {
            rest.iter()
                .all(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
        });
        self.tokens.leave_container_at(close);
        let entries = if empty { 0 } else { commas + 1 };
        Ok((entries, self.base + close))
    }

    /// Reads the rest of the object or array just entered straight from its
    /// bytes, for a shape writers always use: `read` gets the input and the
    /// position after the opening bracket, and gives a value and the index
    /// of the container's closing bracket when the bytes between are that
    /// shape (valid JSON it has read whole). Then the cursor is after the
    /// container; on `None` it has not moved, and the caller reads the
    /// container token by token.
    #[inline(always)]
    pub(crate) fn read_raw<T>(
        &mut self,
        read: impl FnOnce(&'a [u8], usize) -> Option<(T, usize)>,
    ) -> Option<T> {
        let (value, close) = read(self.tokens.input(), self.tokens.position())?;
        self.tokens.leave_container_at(close);
        Some(value)
    }

    /// Leaves the array or object just entered at its closing bracket,
    /// byte `close` of the document, found by an earlier read of the same
    /// bytes; nothing before it is read again.
    pub(crate) fn leave_at(&mut self, close: usize) -> Result<(), SyntaxError> {
        let close = close.checked_sub(self.base).ok_or(SyntaxError(None))?;
        self.tokens.leave_container_at(close);
        Ok(())
    }

    /// Skips the next value whole (the tokenizer checks it without
    /// producing its tokens).
    #[inline]
    pub(crate) fn skip_value(&mut self) -> Result<(), SyntaxError> {
        match self.tokens.skip_value() {
            Ok(true) => Ok(()),
            Ok(false) => Err(SyntaxError(None)),
            Err(e) => Err(SyntaxError(Some(e))),
        }
    }

    /// Skips the rest of the value whose first token is `first`.
    pub(crate) fn skip_rest(&mut self, first: &Token<'a>) -> Result<(), SyntaxError> {
        if matches!(first.kind, TokenKind::BeginArray | TokenKind::BeginObject) {
            self.recover(self.depth().saturating_sub(1))?;
        }
        Ok(())
    }

    /// The next key of the object being read, or `None` at its end.
    pub(crate) fn next_key(&mut self) -> Result<Option<JsonStr<'a>>, SyntaxError> {
        // The two paths apart, as in `next`.
        match self.tokens.next_token_fast() {
            Some(next) => key_of(next),
            None => key_of(self.tokens.next_token_general()),
        }
    }

    /// Reads the next value, which must be an object, and positions after `{`;
    /// anything else is INVALID_FIELD (and skipped).
    pub(crate) fn object(&mut self, path: &Path<'_>, what: &str) -> Result<bool, Error> {
        let t = self.next()?;
        match t.kind {
            TokenKind::BeginObject => Ok(true),
            _ => Err(invalid(
                path,
                what,
                format_args!("an object expected, got {}", type_name(&t)),
            )),
        }
    }

    /// Reads a number value whose first token is `t`: finite, within ±10⁷.
    pub(crate) fn number_of(&mut self, t: &Token<'a>, path: &Path<'_>) -> Result<f64, Error> {
        number::<true>(t, path)
    }

    /// Reads the next value as a number.
    pub(crate) fn number(&mut self, path: &Path<'_>) -> Result<f64, Error> {
        let t = self.next()?;
        number::<true>(&t, path)
    }

    /// Reads an array of exactly `N` numbers, first token `t`.
    pub(crate) fn numbers_of<const N: usize>(
        &mut self,
        t: &Token<'a>,
        path: &Path<'_>,
    ) -> Result<[f32; N], Error> {
        // f32 is the scene's precision; the range check was done in f64.
        #[allow(clippy::cast_possible_truncation)]
        self.number_array::<N, true>(t, path)
            .map(|v| v.map(|x| x as f32))
    }

    /// Reads the next value as an array of `N` numbers, as `f64`.
    pub(crate) fn numbers64<const N: usize>(&mut self, path: &Path<'_>) -> Result<[f64; N], Error> {
        let t = self.next()?;
        self.number_array::<N, true>(&t, path)
    }

    /// Reads the next value as an array of `N` numbers.
    pub(crate) fn numbers<const N: usize>(&mut self, path: &Path<'_>) -> Result<[f32; N], Error> {
        let t = self.next()?;
        self.numbers_of::<N>(&t, path)
    }

    /// Checks the next value as an array of `N` numbers, with the errors of
    /// [`Cursor::numbers64`], without converting numbers whose text shows
    /// they are in range (for a pass that only counts).
    pub(crate) fn check_numbers<const N: usize>(&mut self, path: &Path<'_>) -> Result<(), Error> {
        let t = self.next()?;
        self.number_array::<N, false>(&t, path).map(|_| ())
    }

    /// An array of exactly `N` numbers, first token `t`; their values when
    /// `VALUES`, else zeros (every number still checked).
    fn number_array<const N: usize, const VALUES: bool>(
        &mut self,
        t: &Token<'a>,
        path: &Path<'_>,
    ) -> Result<[f64; N], Error> {
        if t.kind != TokenKind::BeginArray {
            return Err(invalid(
                path,
                "wrong type",
                format_args!("an array of {N} numbers expected, got {}", type_name(t)),
            ));
        }
        // Fast path: short plain decimals in range, read straight from the
        // bytes (only scanned when no value is wanted).
        if VALUES {
            if let Some(values) = self.tokens.plain_number_array::<N>(MAX_BBMODEL_NUMBER) {
                return Ok(values);
            }
        } else if self.tokens.plain_number_array_within_1e7::<N>() {
            return Ok([0.0; N]);
        }
        let mut out = [0.0f64; N];
        let mut n = 0;
        loop {
            let item = self.next()?;
            if item.kind == TokenKind::EndArray {
                break;
            }
            let Some(slot) = out.get_mut(n) else {
                return Err(invalid(
                    &path.with_index(n),
                    "too many values",
                    format_args!("an array of {N} numbers expected"),
                ));
            };
            *slot = number::<VALUES>(&item, &path.with_index(n))?;
            n += 1;
        }
        if n == N {
            Ok(out)
        } else {
            Err(invalid(
                path,
                "too few values",
                format_args!("an array of {N} numbers expected, got {n}"),
            ))
        }
    }

    /// Reads a string value (first token `t`) of at most `max_chars` characters.
    pub(crate) fn string_of(
        &mut self,
        t: &Token<'a>,
        path: &Path<'_>,
        max_chars: u64,
    ) -> Result<JsonStr<'a>, Error> {
        match t.kind {
            TokenKind::String(s) => {
                check_string_length(&s, path, max_chars)?;
                Ok(s)
            }
            _ => Err(invalid(
                path,
                "wrong type",
                format_args!("a string expected, got {}", type_name(t)),
            )),
        }
    }
}

/// A number token's value (0 unless `VALUES`): finite and within ±10⁷, else
/// INVALID_FIELD (spec: "Numbers must be finite and within ±10 000 000").
#[inline]
fn number<const VALUES: bool>(t: &Token<'_>, path: &Path<'_>) -> Result<f64, Error> {
    let TokenKind::Number(n) = t.kind else {
        return Err(invalid(
            path,
            "wrong type",
            format_args!("a number expected, got {}", type_name(t)),
        ));
    };
    if !VALUES && plainly_in_range(n.raw_bytes()) {
        return Ok(0.0);
    }
    let v = n.value();
    if v.is_finite() && v.abs() <= MAX_BBMODEL_NUMBER {
        Ok(if VALUES { v } else { 0.0 })
    } else {
        Err(invalid(
            path,
            "number out of range",
            format_args!("a finite number within ±10000000, got {}", n.raw()),
        ))
    }
}

/// True when a JSON number's text alone shows it lies within ±10⁷: no
/// exponent and at most seven integer digits (JSON has no leading zeros).
fn plainly_in_range(raw: &[u8]) -> bool {
    let digits = raw.strip_prefix(b"-").unwrap_or(raw);
    let integer = digits
        .iter()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(digits.len());
    integer <= 7 && !digits.iter().any(|&b| b == b'e' || b == b'E')
}

/// The token a token read gave, or the syntax error (the end of the input
/// is one: a cursor reads inside a value).
#[inline(always)]
fn token_of<'a>(
    next: Result<Option<Token<'a>>, crate::json::JsonError>,
) -> Result<Token<'a>, SyntaxError> {
    match next {
        Ok(Some(t)) => Ok(t),
        Ok(None) => Err(SyntaxError(None)),
        Err(e) => Err(SyntaxError(Some(e))),
    }
}

/// The key a token read gave, `None` for anything else (the end of the
/// object), or the syntax error.
#[inline(always)]
fn key_of<'a>(
    next: Result<Option<Token<'a>>, crate::json::JsonError>,
) -> Result<Option<JsonStr<'a>>, SyntaxError> {
    match next {
        Ok(Some(Token {
            kind: TokenKind::Key(k),
            ..
        })) => Ok(Some(k)),
        Ok(Some(_)) => Ok(None),
        Ok(None) => Err(SyntaxError(None)),
        Err(e) => Err(SyntaxError(Some(e))),
    }
}

/// A syntax error a cursor met (`None`: the input ended inside a value),
/// made into NOT_JSON only where it is returned: a token read returns 40
/// bytes this way, not the size of an [`Error`] with its message.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SyntaxError(Option<crate::json::JsonError>);

impl From<SyntaxError> for Error {
    #[cold]
    fn from(e: SyntaxError) -> Self {
        not_json(e.0)
    }
}

/// NOT_JSON for a syntax error met while reading a part of the document
/// (the whole document was checked before, so this means other bytes).
#[cold]
fn not_json(e: Option<crate::json::JsonError>) -> Error {
    match e {
        None => Error::new(
            ErrorCode::NotJson,
            Location::Nowhere,
            format_args!("not JSON: the document ends inside a value"),
        ),
        Some(e) => Error::new(
            ErrorCode::NotJson,
            Location::Nowhere,
            format_args!("not JSON: {e}"),
        ),
    }
}

/// Checks a string against `max_chars` (characters of the decoded text).
pub(crate) fn check_string_length(
    s: &JsonStr<'_>,
    path: &Path<'_>,
    max_chars: u64,
) -> Result<(), Error> {
    // A character is 1 to 4 bytes: decoded bytes bound the count both ways.
    let bytes = s.decoded_len() as u64;
    if bytes <= max_chars {
        return Ok(());
    }
    let chars = if bytes > max_chars.saturating_mul(4) {
        None
    } else if let Some(text) = s.as_str() {
        Some(text.chars().count())
    } else {
        Some(escaped_chars(s))
    };
    match chars {
        Some(n) if n as u64 <= max_chars => Ok(()),
        _ => Err(invalid(
            path,
            "string too long",
            format_args!("at most {max_chars} characters: {}", Quote(s.raw_str())),
        )),
    }
}

/// Whether JavaScript reads a value as true: not false, null, 0, NaN or
/// "" (`meta.bone_rig`, an animator's flags, a clip's `animators`).
pub(in crate::bbmodel) fn truthy(t: &Token<'_>) -> bool {
    match t.kind {
        TokenKind::Bool(b) => b,
        TokenKind::Null => false,
        TokenKind::Number(n) => n.value() != 0.0 && !n.value().is_nan(),
        TokenKind::String(s) => s.decoded_len() > 0,
        _ => true,
    }
}
