//! The token type shared by both tokenizers.

use super::number::JsonNumber;
use super::string::JsonStr;

/// One JSON token with the byte offset where it starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Token<'a> {
    /// What the token is.
    pub kind: TokenKind<'a>,
    /// Absolute byte offset of the token's first byte in the whole input (the opening
    /// quote of a string or key, the bracket, the first character of a number/literal).
    pub offset: u64,
}

/// The kinds of token. Keys are distinguished from string values; `,` and `:` are
/// validated but produce no token.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TokenKind<'a> {
    /// `{`
    BeginObject,
    /// `}`
    EndObject,
    /// `[`
    BeginArray,
    /// `]`
    EndArray,
    /// An object member name (a string followed by `:`).
    Key(JsonStr<'a>),
    /// A string value.
    String(JsonStr<'a>),
    /// A number value.
    Number(JsonNumber<'a>),
    /// `true` or `false`.
    Bool(bool),
    /// `null`
    Null,
}
