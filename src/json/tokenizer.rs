//! Whole-input tokenizer: the shared state machine run over one final window.

use super::error::{ErrorKind, JsonError};
use super::lexer::{Core, Raw, Window};
use super::number::finish_number;
use super::string::JsonStr;
use super::token::{Token, TokenKind};

/// Tokenizes a complete JSON document held in memory, without copying or allocating:
/// string and number tokens borrow from `input`.
///
/// Yields the tokens of exactly one top-level value, then `None`; errors are sticky
/// (after an error every call returns the same error).
#[derive(Clone, Debug)]
pub struct Tokenizer<'a> {
    input: &'a [u8],
    pos: usize,
    core: Core,
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer over the whole document `input`. `max_depth` bounds the nesting of
    /// arrays/objects (clamped to [`MAX_DEPTH`](super::MAX_DEPTH)); opening a container
    /// beyond it fails with [`ErrorKind::TooDeep`]. `0` allows only a scalar document.
    pub const fn new(input: &'a [u8], max_depth: usize) -> Self {
        Self {
            input,
            pos: 0,
            core: Core::new(max_depth),
        }
    }

    /// The next token, `Ok(None)` once the top-level value and trailing whitespace are
    /// consumed (and again on every later call), or the first error.
    #[inline]
    pub fn next_token(&mut self) -> Result<Option<Token<'a>>, JsonError> {
        let w = Window {
            buf: self.input,
            base: 0,
            eof: true,
        };
        let raw = self.core.advance(w, &mut self.pos)?;
        self.build(raw)
    }

    #[inline(always)]
    fn build(&mut self, raw: Raw) -> Result<Option<Token<'a>>, JsonError> {
        let input = self.input;
        match raw {
            Raw::Simple(kind, offset) => Ok(Some(Token { kind, offset })),
            Raw::Str {
                key,
                start,
                end,
                st,
                offset,
            } => {
                // Body between the quotes.
                let body = start
                    .and_then(|s| input.get(s + 1..end.saturating_sub(1)))
                    .unwrap_or_default();
                let s = JsonStr::from_lexed(body, &st);
                let kind = if key {
                    TokenKind::Key(s)
                } else {
                    TokenKind::String(s)
                };
                Ok(Some(Token { kind, offset }))
            }
            Raw::Num {
                start,
                end,
                st,
                offset,
            } => {
                let text = start.and_then(|s| input.get(s..end)).unwrap_or_default();
                match finish_number(text, &st, offset) {
                    Ok(n) => Ok(Some(Token {
                        kind: TokenKind::Number(n),
                        offset,
                    })),
                    Err(e) => Err(self.core.fail(e)),
                }
            }
            Raw::End => Ok(None),
            // Cannot happen with `eof` set; report it as the end of input it would be.
            Raw::Partial(_) => Err(self
                .core
                .fail(JsonError::new(ErrorKind::UnexpectedEof, input.len() as u64))),
        }
    }

    /// Skips the next complete value (fully validated, number values checked for range but
    /// not converted) and returns `Ok(true)`. If the next token is a key, skips that key
    /// and its value. Returns `Ok(false)` and consumes nothing when no value follows (the
    /// next token closes the current container, or the document is over).
    pub fn skip_value(&mut self) -> Result<bool, JsonError> {
        let w = Window {
            buf: self.input,
            base: 0,
            eof: true,
        };
        let saved = (self.core, self.pos);
        let mut depth = 0usize;
        let mut first = true;
        loop {
            let raw = self.core.advance(w, &mut self.pos)?;
            match raw {
                Raw::Simple(TokenKind::BeginArray | TokenKind::BeginObject, _) => depth += 1,
                Raw::Simple(TokenKind::EndArray | TokenKind::EndObject, _) | Raw::End if first => {
                    (self.core, self.pos) = saved;
                    return Ok(false);
                }
                Raw::Simple(TokenKind::EndArray | TokenKind::EndObject, _) => {
                    depth = depth.saturating_sub(1);
                }
                Raw::Str { key: true, .. } if depth == 0 => {
                    // A member: its value follows.
                    first = false;
                    continue;
                }
                Raw::Num { .. } => {
                    // Range check only (the exact conversion is lazy for short forms).
                    self.build(raw)?;
                }
                Raw::Partial(_) | Raw::End => {
                    self.build(raw)?;
                    return Ok(false);
                }
                _ => {}
            }
            first = false;
            if depth == 0 {
                return Ok(true);
            }
        }
    }

    /// Byte offset of the next unconsumed byte.
    pub const fn position(&self) -> usize {
        self.pos
    }

    /// Number of currently open arrays/objects.
    pub const fn depth(&self) -> usize {
        self.core.depth()
    }

    /// The whole input this tokenizer reads.
    pub const fn input(&self) -> &'a [u8] {
        self.input
    }
}
