//! Resumable tokenizer fed in chunks: the shared state machine run window by window.

use super::error::{ErrorKind, JsonError};
use super::lexer::{Core, Save, Signal, Window};
use super::number::JsonNumber;
use super::string::JsonStr;
use super::token::{Token, TokenKind};

/// One result of [`StreamTokenizer::next`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step<'t> {
    /// A complete token. It borrows from the chunk or, if it spanned chunks, from the
    /// scratch buffer, so it lives until the next call.
    Token(Token<'t>),
    /// The chunk is used up (it is now empty); pass the next chunk, or call
    /// [`StreamTokenizer::finish`] if there is none.
    NeedMoreInput,
    /// The document ended properly (only after [`StreamTokenizer::finish`]).
    End,
}

/// Tokenizes JSON fed in chunks of any size, without allocating.
///
/// Produces exactly the tokens (kinds, offsets, decoded contents, number values) and the
/// first error of [`Tokenizer`](super::Tokenizer) on the concatenated input: both run the
/// same state machine. A string or number cut by a chunk boundary is collected in the
/// caller's `scratch` buffer; if it does not fit, the error is
/// [`ErrorKind::TokenTooLong`] (tokens inside one chunk never touch scratch).
///
/// ```ignore
/// let mut tok = StreamTokenizer::new(&mut scratch, 64);
/// loop {
///     let n = read(&mut buf)?;
///     if n == 0 { tok.finish(); }
///     let mut chunk = &buf[..n];
///     loop {
///         match tok.next(&mut chunk)? {
///             Step::Token(t) => handle(t),
///             Step::NeedMoreInput => break,
///             Step::End => return Ok(()),
///         }
///     }
/// }
/// ```
#[derive(Debug)]
pub struct StreamTokenizer<'s> {
    core: Core,
    scratch: &'s mut [u8],
    /// Bytes of a partial token held in `scratch`.
    held: usize,
    /// Absolute offset of the next byte to be passed in.
    base: u64,
    finished: bool,
}

impl<'s> StreamTokenizer<'s> {
    /// A tokenizer that assembles chunk-spanning tokens in `scratch` (its length bounds
    /// such a token's raw length, quotes included). `max_depth` as for
    /// [`Tokenizer::new`](super::Tokenizer::new).
    pub fn new(scratch: &'s mut [u8], max_depth: usize) -> Self {
        Self {
            core: Core::new(max_depth),
            scratch,
            held: 0,
            base: 0,
            finished: false,
        }
    }

    /// Declares the end of input: once the chunks passed from now on run out, the
    /// document ends (a pending number completes, an open value is an error).
    pub fn finish(&mut self) {
        self.finished = true;
    }

    /// Number of input bytes consumed so far (the absolute offset of the next byte to
    /// pass in). Bytes of a token cut off by a chunk end count as consumed: they are held
    /// in scratch.
    pub const fn offset(&self) -> u64 {
        self.base
    }

    /// Number of currently open arrays/objects.
    pub const fn depth(&self) -> usize {
        self.core.depth()
    }

    /// Advances through `chunk` (the current input chunk, shrunk past what is consumed)
    /// to the next token. Returns [`Step::NeedMoreInput`] once `chunk` is empty and more
    /// input is needed, [`Step::End`] after [`finish`](Self::finish) when the document is
    /// complete, or the first error (sticky, like [`Tokenizer`](super::Tokenizer)).
    #[inline]
    pub fn next<'t, 'c: 't>(&'t mut self, chunk: &mut &'c [u8]) -> Result<Step<'t>, JsonError> {
        let buf: &'c [u8] = chunk;
        let w = Window {
            buf,
            base: self.base,
            eof: self.finished,
        };
        let mut pos = 0usize;
        // The fast path's token goes back in registers; merged with the general
        // path's result first, it went through memory (stored in pieces and reloaded
        // whole, a store-forwarding stall on every token).
        if let Some(res) = self.core.advance_fast(w, &mut pos) {
            return self.step(chunk, buf, pos, res);
        }
        let res = self.core.advance_general(w, &mut pos);
        self.step(chunk, buf, pos, res)
    }

    /// Moves `chunk` (whose bytes are `buf`) past the `pos` bytes consumed and
    /// turns the lexer's result into a step. Inlined into each path's branch
    /// of [`next`](Self::next), so the two results are never merged.
    #[inline(always)]
    fn step<'t, 'c: 't>(
        &'t mut self,
        chunk: &mut &'c [u8],
        buf: &'c [u8],
        pos: usize,
        res: Result<Option<Token<'c>>, JsonError>,
    ) -> Result<Step<'t>, JsonError> {
        let used = pos.min(buf.len());
        *chunk = buf.get(used..).unwrap_or_default();
        self.base = self.base.saturating_add(used as u64);
        match res? {
            Some(t) => Ok(Step::Token(t)),
            None => self.after_none(buf),
        }
    }

    /// A step over `buf` gave no token: the document ended, the chunk ran out (a cut
    /// token is saved in scratch), or a cut token is complete (built from scratch).
    #[inline(never)]
    fn after_none<'t>(&'t mut self, buf: &[u8]) -> Result<Step<'t>, JsonError> {
        let Self {
            core,
            scratch,
            held,
            ..
        } = self;
        let too_long = |core: &mut Core| {
            let at = core.token_start();
            core.fail(JsonError::new(ErrorKind::TokenTooLong, at))
        };
        match core.signal() {
            Signal::End => Ok(Step::End),
            Signal::Partial(save) => {
                let ok = match save {
                    Save::Nothing => true,
                    Save::Fresh(s) => {
                        *held = 0;
                        append(scratch, held, buf.get(s..).unwrap_or_default())
                    }
                    Save::Append => append(scratch, held, buf),
                };
                if ok {
                    Ok(Step::NeedMoreInput)
                } else {
                    Err(too_long(core))
                }
            }
            Signal::StrTail {
                key,
                end,
                st,
                offset,
            } => {
                let Some(text) = complete(scratch, held, buf.get(..end)) else {
                    return Err(too_long(core));
                };
                let body = text
                    .get(1..text.len().saturating_sub(1))
                    .unwrap_or_default();
                let s = JsonStr::from_lexed(body, &st);
                let kind = if key {
                    TokenKind::Key(s)
                } else {
                    TokenKind::String(s)
                };
                Ok(Step::Token(Token { kind, offset }))
            }
            Signal::NumTail { end, offset } => {
                let Some(text) = complete(scratch, held, buf.get(..end)) else {
                    return Err(too_long(core));
                };
                Ok(Step::Token(Token {
                    kind: TokenKind::Number(JsonNumber::new(text)),
                    offset,
                }))
            }
        }
    }
}

/// Appends the last piece of a chunk-spanning token and returns the whole token text.
fn complete<'t>(scratch: &'t mut [u8], held: &mut usize, last: Option<&[u8]>) -> Option<&'t [u8]> {
    if !append(scratch, held, last.unwrap_or_default()) {
        return None;
    }
    scratch.get(..*held)
}

/// Appends `data` to the `held` bytes in `scratch`; `false` if it does not fit.
fn append(scratch: &mut [u8], held: &mut usize, data: &[u8]) -> bool {
    let Some(end) = held.checked_add(data.len()) else {
        return false;
    };
    match scratch.get_mut(*held..end) {
        Some(dst) => {
            dst.copy_from_slice(data);
            *held = end;
            true
        }
        None => false,
    }
}
