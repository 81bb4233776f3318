//! Whole-input tokenizer: the shared state machine run over one final window.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "positions and lengths index the input or a caller buffer (at most isize::MAX bytes) and advance by at most what was just read or checked, so they stay below usize::MAX"
)]

use super::error::JsonError;
use super::lexer::{Core, Window};
use super::token::{Token, TokenKind};

/// Bytes of a UTF-8 byte order mark (EF BB BF).
pub const BYTE_ORDER_MARK_LEN: usize = 3;

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
    /// beyond it fails with [`ErrorKind::TooDeep`](super::ErrorKind::TooDeep). `0` allows only a scalar document.
    pub const fn new(input: &'a [u8], max_depth: usize) -> Self {
        Self {
            input,
            pos: 0,
            core: Core::new(max_depth),
        }
    }

    /// [`Tokenizer::new`] that steps over one leading UTF-8 byte order mark,
    /// for callers whose format allows it (Blockbench's `autoParseJSON` drops
    /// a leading U+FEFF before `JSON.parse`). Offsets stay those of `input`.
    pub const fn after_byte_order_mark(input: &'a [u8], max_depth: usize) -> Self {
        let mut tokenizer = Self::new(input, max_depth);
        if let [0xEF, 0xBB, 0xBF, ..] = input {
            tokenizer.pos = BYTE_ORDER_MARK_LEN;
        }
        tokenizer
    }

    /// The next token, `Ok(None)` once the top-level value and trailing whitespace are
    /// consumed (and again on every later call), or the first error.
    #[inline]
    pub fn next_token(&mut self) -> Result<Option<Token<'a>>, JsonError> {
        // With `eof` set, `Ok(None)` always means the end of the document.
        // The two paths' results are returned apart, so that the fast path's token
        // stays in registers (merged, it went through memory and stalled a caller
        // reading it).
        if let Some(next) = self.next_token_fast() {
            return next;
        }
        self.next_token_general()
    }

    /// [`next_token`](Self::next_token)'s fast path alone: `None` where it
    /// declines (nothing consumed but separators), for
    /// [`next_token_general`](Self::next_token_general) to finish. A reader
    /// that handles the two outcomes apart keeps the fast path's token in
    /// registers.
    #[inline(always)]
    pub(crate) fn next_token_fast(&mut self) -> Option<Result<Option<Token<'a>>, JsonError>> {
        self.core.advance_fast(self.window(), &mut self.pos)
    }

    /// The general path, after [`next_token_fast`](Self::next_token_fast)
    /// declined. Inlined so that only the core and the position go to the
    /// out-of-line general lexer: called with the whole tokenizer, the caller's
    /// loop kept the input and the position in memory and reloaded them for
    /// every token.
    #[inline(always)]
    pub(crate) fn next_token_general(&mut self) -> Result<Option<Token<'a>>, JsonError> {
        self.core.advance_general(self.window(), &mut self.pos)
    }

    #[inline(always)]
    const fn window(&self) -> Window<'a> {
        Window {
            buf: self.input,
            base: 0,
            eof: true,
        }
    }

    /// Skips the next complete value and returns `Ok(true)`; meant for unknown object
    /// members (call it right after their [`TokenKind::Key`]). If the next token is a key,
    /// skips that key and its value. Returns `Ok(false)` and consumes nothing when no
    /// value follows (the next token closes the current container, or the document is
    /// over).
    ///
    /// Validation is exactly that of [`next_token`](Self::next_token) (same errors at the
    /// same offsets, number range included); it is cheaper only because no tokens are
    /// built and numbers that cannot overflow are not converted.
    pub fn skip_value(&mut self) -> Result<bool, JsonError> {
        // Where a value must follow (the usual case: right after a key) there
        // is nothing to undo, and the state (a few hundred bytes) is not copied.
        let saved = (!self.core.value_must_follow()).then_some((self.core, self.pos));
        let level = self.core.depth();
        let Some(first) = self.core.advance::<true>(self.window(), &mut self.pos)? else {
            if let Some(saved) = saved {
                (self.core, self.pos) = saved;
            }
            return Ok(false);
        };
        match first.kind {
            TokenKind::EndArray | TokenKind::EndObject => {
                if let Some(saved) = saved {
                    (self.core, self.pos) = saved;
                }
                return Ok(false);
            }
            TokenKind::Key(_) => {
                // A member: its value's first token follows (a key is never last).
                self.core.advance::<true>(self.window(), &mut self.pos)?;
            }
            _ => {}
        }
        // The core tracks the nesting: the value is over once it is back at `level`.
        while self.core.depth() > level {
            if self
                .core
                .advance::<true>(self.window(), &mut self.pos)?
                .is_none()
            {
                break;
            }
        }
        Ok(true)
    }

    /// Byte offset of the next unconsumed byte: just past the last token, and past a `,`
    /// or `:` that directly follows it (separators are consumed eagerly).
    pub const fn position(&self) -> usize {
        self.pos
    }

    /// Leaves the innermost open container, whose closing bracket the caller
    /// found at byte `close`, without reading what lies before it: the next
    /// token is the one after that bracket.
    ///
    /// Nothing between here and `close` is checked, so this is only for JSON
    /// the caller checks some other way (the .bbmodel reader uses it for
    /// parts it reads whole in another pass). A `close` that is no closing
    /// bracket of this container gives wrong tokens or a syntax error later,
    /// never a panic.
    pub(crate) fn leave_container_at(&mut self, close: usize) {
        if close >= self.pos && close < self.input.len() {
            self.pos = self.core.close_at(self.input, close);
        }
    }

    /// Reads the rest of an array just opened (its `[` was the last token)
    /// when it is exactly `N` plain numbers: no exponent, at most 19 digits
    /// whose integer is at most 2^53, the shape short decimals take, each
    /// within ±`max_abs`. Then the array is consumed as if token by token
    /// and their values are returned, exactly as
    /// [`JsonNumber::value`](super::JsonNumber::value) gives them. Anything
    /// else (other lengths, other number shapes, larger values, errors)
    /// returns `None` and consumes nothing, so the caller reads the array
    /// token by token and gets what it always would.
    #[inline]
    pub(crate) fn plain_number_array<const N: usize>(&mut self, max_abs: f64) -> Option<[f64; N]> {
        self.plain_numbers::<N>(|bytes, i| {
            super::number::plain_value(bytes, i).filter(|(value, _)| value.abs() <= max_abs)
        })
    }

    /// [`Tokenizer::plain_number_array`] for a reader that only checks:
    /// consumes the array and returns `true` when it is exactly `N` plain
    /// numbers of at most seven integer digits (so within ±10^7), without
    /// computing their values; else consumes nothing.
    #[inline]
    pub(crate) fn plain_number_array_within_1e7<const N: usize>(&mut self) -> bool {
        self.plain_numbers::<N>(|bytes, i| Some((0.0, super::number::plain_small_end(bytes, i)?)))
            .is_some()
    }

    /// The walk of both: `read` gives a number's value and end at an index.
    #[inline(always)]
    fn plain_numbers<const N: usize>(
        &mut self,
        read: impl Fn(&[u8], usize) -> Option<(f64, usize)>,
    ) -> Option<[f64; N]> {
        let bytes = self.input;
        let mut i = self.pos;
        let mut out = [0.0f64; N];
        let last = N.checked_sub(1)?;
        for (k, slot) in out.iter_mut().enumerate() {
            i = skip_whitespace(bytes, i);
            let (value, end) = read(bytes, i)?;
            *slot = value;
            i = skip_whitespace(bytes, end);
            let separator = if k == last { b']' } else { b',' };
            if *bytes.get(i)? != separator {
                return None;
            }
            i += 1;
        }
        // `i` is just past the `]`.
        self.leave_container_at(i - 1);
        Some(out)
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

/// The index of the first byte at or after `i` that is not JSON whitespace:
/// compact JSON has none, so only a byte at or below the space calls the
/// lexer's word-at-a-time skip.
#[inline(always)]
fn skip_whitespace(bytes: &[u8], i: usize) -> usize {
    match bytes.get(i) {
        Some(&b) if b <= b' ' => super::lexer::skip_ws(bytes, i),
        _ => i,
    }
}
