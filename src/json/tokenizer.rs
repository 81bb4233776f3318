//! Whole-input tokenizer: the shared state machine run over one final window.

use super::error::JsonError;
use super::lexer::{Core, Window};
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
        // With `eof` set, `Ok(None)` always means the end of the document.
        self.core.advance(self.window(), &mut self.pos)
    }

    #[inline(always)]
    const fn window(&self) -> Window<'a> {
        Window {
            buf: self.input,
            base: 0,
            eof: true,
        }
    }

    /// Skips the next complete value (fully validated, including number range) and
    /// returns `Ok(true)`. If the next token is a key, skips that key and its value.
    /// Returns `Ok(false)` and consumes nothing when no value follows (the next token
    /// closes the current container, or the document is over).
    pub fn skip_value(&mut self) -> Result<bool, JsonError> {
        let saved = (self.core, self.pos);
        let mut depth = 0usize;
        let mut first = true;
        loop {
            let Some(tok) = self.core.advance(self.window(), &mut self.pos)? else {
                if first {
                    (self.core, self.pos) = saved;
                }
                return Ok(false);
            };
            match tok.kind {
                TokenKind::BeginArray | TokenKind::BeginObject => depth += 1,
                TokenKind::EndArray | TokenKind::EndObject if first => {
                    (self.core, self.pos) = saved;
                    return Ok(false);
                }
                TokenKind::EndArray | TokenKind::EndObject => depth = depth.saturating_sub(1),
                TokenKind::Key(_) if depth == 0 => {
                    // A member: its value follows.
                    first = false;
                    continue;
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
