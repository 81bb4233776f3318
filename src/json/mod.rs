//! Streaming, zero-copy, strict JSON tokenizer (RFC 8259), without allocation.
//!
//! # Contract
//!
//! * **Strict RFC 8259.** Exactly one value of any type at top level, surrounded only by
//!   space, tab, LF or CR. Rejected: trailing commas, comments, leading zeros (`01`),
//!   `+1`, `.5`, `1.`, `1e`, single quotes, raw control characters (< 0x20) in strings,
//!   escapes other than `\" \\ \/ \b \f \n \r \t \uXXXX`, unpaired `\u` surrogates,
//!   any invalid UTF-8 (overlongs, encoded surrogates, > U+10FFFF, truncated
//!   sequences) and a leading UTF-8 byte order mark ([`ErrorKind::ByteOrderMark`];
//!   [`Tokenizer::after_byte_order_mark`] steps over one for formats that allow it).
//!   `NaN`, `Infinity` and `-Infinity` get their own kind
//!   ([`ErrorKind::NonFiniteNumber`]); a number past the `f64` range (such as `1e999`) is
//!   valid JSON whose value is ±infinity, as Rust's parser gives it.
//! * **Tokens.** [`Token`] = a [`TokenKind`] (begin/end object/array, key, string,
//!   number, bool, null; keys are distinct from string values; `,` and `:` are checked
//!   but yield nothing) plus the absolute byte offset of its first byte.
//! * **Zero-copy.** String tokens ([`JsonStr`]) borrow their raw body from the input;
//!   an unescaped body is available as `&str` directly, an escaped one is decoded into
//!   a caller buffer. The exact decoded length is known from the token, and the raw
//!   length is an upper bound for sizing buffers in advance. Nothing here allocates.
//! * **Numbers.** [`JsonNumber`] keeps the raw text; its value is bit-for-bit what
//!   `<f64 as core::str::FromStr>::from_str` gives for that text.
//! * **Depth.** Container nesting is bounded by a caller-given maximum, itself capped at
//!   [`MAX_DEPTH`]; the container stack is a fixed bitset. Exceeding it is
//!   [`ErrorKind::TooDeep`].
//! * **Errors.** [`JsonError`] is a small `Copy` value: an [`ErrorKind`] and the byte
//!   offset into the whole input (also in streaming mode); `Display` reads like
//!   "expected ',' or '}' at byte 1234". Errors are sticky: once a tokenizer failed it
//!   returns the same error forever. No input makes this module panic.
//! * **Two front ends, one grammar.** [`Tokenizer`] reads a complete in-memory document
//!   (the fast path; [`Tokenizer::skip_value`] skips unknown values cheaply).
//!   [`StreamTokenizer`] is fed chunks of any size and assembles tokens that span chunk
//!   boundaries in a caller-provided scratch buffer. Both drive the same state machine,
//!   so for any chunking they produce the same tokens (kinds, offsets, decoded strings,
//!   number bits) and the same first error (kind and offset); the only extra failure of
//!   streaming is [`ErrorKind::TokenTooLong`] when a chunk-spanning token exceeds the
//!   scratch buffer.
//!
//! # Use
//!
//! ```ignore
//! let mut tokens = Tokenizer::new(bytes, 64);
//! while let Some(token) = tokens.next_token()? {
//!     match token.kind {
//!         TokenKind::Key(k) if k.eq_str("name") => { /* read the value */ }
//!         TokenKind::Key(_) => { tokens.skip_value()?; }
//!         _ => {}
//!     }
//! }
//! ```
//!
//! # Speed
//!
//! Whenever about a hundred bytes of input lie ahead (always in a whole document except
//! at its very end; in streaming, except near chunk ends), the next token is read from
//! a fixed-size array view of them, without bounds checks, by a fast path that only
//! *accepts* the common valid forms: plain strings and keys (up to 48 body bytes, in
//! blocks of sixteen), numbers without exponent (integer digits byte by byte, fraction
//! digits sixteen at a time), literals, brackets, `,` and `:`. Everything else
//! (escapes, non-ASCII, long strings, exponents, errors, chunk boundaries) goes to the
//! general, resumable lexers, which redo that token from its start, so errors and their
//! offsets have one source. Short, regular runs (indentation, integer digits) are
//! scanned byte by byte on purpose: predictable branches keep the next token's position
//! off the critical path, which a block scan would lengthen. Runs whose lengths vary
//! (string bodies, fraction digits) are classified sixteen bytes at once (SSE2 on
//! x86-64, see `classify`), and long string bodies 64 bytes per step. Number values are
//! not computed while tokenizing (only numbers with an exponent or more than 308
//! integer digits are parsed, to reject overflow);
//! [`JsonNumber::value`] computes them on request. Separators following a token are
//! consumed with it.

#![warn(missing_docs)]
#![warn(clippy::cast_possible_truncation)]
#![cfg_attr(test, allow(clippy::cast_possible_truncation))]

pub(crate) mod classify;
mod error;
mod lexer;
mod number;
mod stream;
mod string;
mod token;
mod tokenizer;

pub use error::{ErrorKind, JsonError, NonFinite};
pub use number::JsonNumber;
pub(crate) use number::{plain_value, quick_value};
pub use stream::{Step, StreamTokenizer};
pub use string::{BufferTooSmall, JsonStr};
pub use token::{Token, TokenKind};
pub use tokenizer::{BYTE_ORDER_MARK_LEN, Tokenizer};

/// Hard upper bound on the nesting depth any tokenizer accepts (the size of the fixed
/// container bitset); larger `max_depth` arguments are clamped to it.
pub const MAX_DEPTH: usize = 1024;

#[cfg(test)]
mod tests;
