//! The tokenizer's error type: a [`ErrorKind`] plus the byte offset where it was found.

use core::fmt;

/// Which non-finite JavaScript number literal was found where JSON allows none.
///
/// Blockbench (JavaScript) can write `NaN` / `Infinity` into files; RFC 8259 has no
/// such literals, so they are reported rather than silently accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NonFinite {
    /// The literal `NaN`.
    NaN,
    /// The literal `Infinity`.
    Infinity,
    /// The literal `-Infinity`.
    NegInfinity,
}

impl NonFinite {
    /// The literal exactly as it appears in the input.
    pub const fn literal(self) -> &'static str {
        match self {
            Self::NaN => "NaN",
            Self::Infinity => "Infinity",
            Self::NegInfinity => "-Infinity",
        }
    }
}

/// What went wrong. The byte offset each kind refers to is documented per variant; all
/// offsets count bytes from the start of the whole logical input (also when streaming).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input holds no value at all (zero bytes or whitespace only). Offset: end of input.
    EmptyInput,
    /// The input ended inside a value (open container, string, number, literal).
    /// Offset: end of input.
    UnexpectedEof,
    /// The input starts with a UTF-8 byte order mark, which RFC 8259 forbids. Offset: 0.
    ByteOrderMark,
    /// A value was expected (top level, after `:` or after `,` in an array). Offset: the
    /// offending byte.
    ExpectedValue,
    /// Right after `[`: a value or `]` was expected. Offset: the offending byte.
    ExpectedValueOrArrayEnd,
    /// After `,` in an object: a string key was expected. Offset: the offending byte.
    ExpectedKey,
    /// Right after `{`: a string key or `}` was expected. Offset: the offending byte.
    ExpectedKeyOrObjectEnd,
    /// After an object key: `:` was expected. Offset: the offending byte.
    ExpectedColon,
    /// After an object member: `,` or `}` was expected. Offset: the offending byte.
    ExpectedCommaOrObjectEnd,
    /// After an array element: `,` or `]` was expected. Offset: the offending byte.
    ExpectedCommaOrArrayEnd,
    /// A `,` directly followed by `]` or `}`. Offset: the closing bracket.
    TrailingComma,
    /// Something other than whitespace follows the top-level value. Offset: that byte.
    TrailingCharacters,
    /// A byte that cannot continue `true`, `false`, `null`, `NaN`, `Infinity` or
    /// `-Infinity`. Offset: the first mismatching byte.
    InvalidLiteral,
    /// `NaN`, `Infinity` or `-Infinity`, which JSON does not allow. Offset: its first byte.
    NonFiniteNumber(NonFinite),
    /// A number with a superfluous leading zero such as `01` or `-00`. Offset: the digit
    /// after the zero.
    LeadingZero,
    /// A malformed number: no digit after `-`, `.`, `e` or the exponent sign.
    /// Offset: the offending byte.
    InvalidNumber,
    /// A raw control character (U+0000..U+001F) inside a string. Offset: that byte.
    ControlCharacter,
    /// A `\` followed by a character that starts no JSON escape. Offset: that character.
    InvalidEscape,
    /// A `\u` escape with a non-hexadecimal digit. Offset: the offending byte.
    InvalidUnicodeEscape,
    /// A `\u` escape of a UTF-16 surrogate that is not part of a high+low pair.
    /// Offset: the `\` of the unpaired surrogate's escape.
    LoneSurrogate,
    /// Bytes that are not strict UTF-8 (overlong, encoded surrogate, above U+10FFFF,
    /// stray continuation byte, truncated sequence). Offset: the first byte that cannot
    /// be part of a valid sequence at its position.
    InvalidUtf8,
    /// Opening this `[` or `{` would exceed the configured maximum nesting depth.
    /// Offset: that bracket.
    TooDeep,
    /// Streaming only: a token that spans chunks does not fit in the caller's scratch
    /// buffer. Offset: the token's first byte.
    TokenTooLong,
}

impl ErrorKind {
    /// A short human description, without the offset.
    pub const fn message(self) -> &'static str {
        match self {
            Self::EmptyInput => "empty input (no JSON value)",
            Self::UnexpectedEof => "unexpected end of input",
            Self::ByteOrderMark => "byte order mark is not allowed",
            Self::ExpectedValue => "expected a value",
            Self::ExpectedValueOrArrayEnd => "expected a value or ']'",
            Self::ExpectedKey => "expected a string key",
            Self::ExpectedKeyOrObjectEnd => "expected a string key or '}'",
            Self::ExpectedColon => "expected ':'",
            Self::ExpectedCommaOrObjectEnd => "expected ',' or '}'",
            Self::ExpectedCommaOrArrayEnd => "expected ',' or ']'",
            Self::TrailingComma => "trailing comma",
            Self::TrailingCharacters => "trailing characters after the JSON value",
            Self::InvalidLiteral => "invalid literal",
            Self::NonFiniteNumber(NonFinite::NaN) => "NaN is not valid JSON",
            Self::NonFiniteNumber(NonFinite::Infinity) => "Infinity is not valid JSON",
            Self::NonFiniteNumber(NonFinite::NegInfinity) => "-Infinity is not valid JSON",
            Self::LeadingZero => "leading zero in number",
            Self::InvalidNumber => "invalid number",
            Self::ControlCharacter => "control character in string",
            Self::InvalidEscape => "invalid escape",
            Self::InvalidUnicodeEscape => "invalid \\u escape",
            Self::LoneSurrogate => "unpaired UTF-16 surrogate escape",
            Self::InvalidUtf8 => "invalid UTF-8",
            Self::TooDeep => "nesting too deep",
            Self::TokenTooLong => "token does not fit in the scratch buffer",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// A tokenizer error: what went wrong and at which byte offset of the whole input.
///
/// Small (16 bytes) and `Copy`; the tokenizers keep returning the same error once one
/// occurred.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JsonError {
    kind: ErrorKind,
    offset: u64,
}

impl JsonError {
    /// Builds an error of `kind` at byte `offset`.
    pub const fn new(kind: ErrorKind, offset: u64) -> Self {
        Self { kind, offset }
    }

    /// What went wrong.
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Byte offset into the whole logical input (see [`ErrorKind`] for what it points at).
    pub const fn offset(&self) -> u64 {
        self.offset
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind.message(), self.offset)
    }
}

impl core::error::Error for JsonError {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn display_and_size() {
        let e = JsonError::new(ErrorKind::ExpectedCommaOrObjectEnd, 1234);
        assert_eq!(e.to_string(), "expected ',' or '}' at byte 1234");
        let e = JsonError::new(ErrorKind::NonFiniteNumber(NonFinite::NegInfinity), 7);
        assert_eq!(e.to_string(), "-Infinity is not valid JSON at byte 7");
        assert_eq!(NonFinite::NaN.literal(), "NaN");
        assert!(core::mem::size_of::<JsonError>() <= 16);
        assert_eq!(e.kind(), ErrorKind::NonFiniteNumber(NonFinite::NegInfinity));
        assert_eq!(e.offset(), 7);
    }
}
