//! The one JSON grammar / state machine, shared by [`Tokenizer`](super::Tokenizer) and
//! [`StreamTokenizer`](super::StreamTokenizer).
//!
//! [`Core::advance`] works on a byte window (`buf`, whose first byte is at absolute offset
//! `base`). A token lying wholly inside the window is returned borrowing from it. When
//! the window ends in the middle of a string or number and more input may follow, the
//! scalar's lexer state is kept in [`Core`], lexing resumes exactly where it stopped in
//! the next window, and the caller (which saved the earlier bytes, see [`Save`]) builds
//! the token from the [`Signal`]. With `eof` set there is no next window, so the
//! whole-input tokenizer never sees partial tokens.
//!
//! Two paths, one grammar: [`Core::step`], inlined into both front ends, handles the
//! common valid tokens when at least [`WIN`] bytes of the window lie ahead; for anything
//! else it hands over, at the token start, to [`Core::general`], the complete resumable
//! machine (which has its own cheaper checks for the common cases). The fast path never
//! produces an error or a token the general path would not produce: the test suite
//! compares the two by tokenizing every document whole with trailing padding (fast
//! path) and in chunks of 1 and 7 bytes (general path only).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "positions and lengths index the input or a caller buffer (at most isize::MAX bytes) and advance by at most what was just read or checked, so they stay below usize::MAX"
)]

use super::MAX_DEPTH;
use super::classify;
use super::error::{ErrorKind, JsonError, NonFinite};
use super::number::{JsonNumber, NumEnd, NumState, lex_num, scan_plain};
use super::string::{JsonStr, StrState, find_special, lex_str};
use super::token::{Token, TokenKind};

mod fast;
mod nesting;
mod scalars;

/// Where we are in the grammar, between tokens. The state alone says which container
/// is open (a value after `:` is always an object's, one in `ArrFirst` or `ArrNext` an
/// array's), so reading a token needs no second field to know what may follow it. The
/// order matters: the value-expecting states come first, then the key-expecting ones,
/// then those expecting punctuation, and the two special states last (see
/// [`Core::step`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum State {
    /// Before the top-level value.
    Start,
    /// After `:`: a value.
    Value,
    /// After `[`: a value or `]`.
    ArrFirst,
    /// After `,` in an array: a value.
    ArrNext,
    /// After `{`: a key or `}`.
    ObjFirst,
    /// After `,` in an object: a key.
    ObjNext,
    /// After a key: `:`.
    Colon,
    /// After a value in an array: `,` or `]`.
    ArrComma,
    /// After a value in an object: `,` or `}`.
    ObjComma,
    /// After the top-level value: whitespace only.
    Done,
    /// Inside a string, number or literal cut off by the end of a window (`Core::pending`).
    Scalar,
    /// An error occurred (`Core::failed`); it is returned forever.
    Failed,
}

impl State {
    /// The state after a value read in `self` (a value-expecting state), `comma` when
    /// a `,` directly follows the value and is consumed with it (never at the top
    /// level).
    #[inline(always)]
    const fn after_value(self, comma: bool) -> Self {
        match (self, comma) {
            (Self::Start, _) => Self::Done,
            (Self::Value, true) => Self::ObjNext,
            (Self::Value, false) => Self::ObjComma,
            (_, true) => Self::ArrNext,
            (_, false) => Self::ArrComma,
        }
    }

    /// Whether the innermost open container is an object (`false` at the top level).
    #[inline(always)]
    const fn in_object(self) -> bool {
        matches!(
            self,
            Self::Value | Self::ObjFirst | Self::ObjNext | Self::Colon | Self::ObjComma
        )
    }

    /// Where a `,` after a value in a container (`ArrComma`, `ObjComma`) leads.
    #[inline(always)]
    const fn after_comma(self) -> Self {
        if self.in_object() {
            Self::ObjNext
        } else {
            Self::ArrNext
        }
    }

    /// The byte closing the innermost container (in a state that has one).
    #[inline(always)]
    const fn close_byte(self) -> u8 {
        if self.in_object() { b'}' } else { b']' }
    }
}

/// Marks the path that calls it as rare, so that the compiler lays the common
/// path out as straight-line code: the fast path runs about a dozen conditional
/// branches per token, and every one taken the wrong way round ends a fetch
/// block (measured in docs/performance.md as of 8a89e50, "JSON tokenizer").
/// The same as `core::hint::cold_path`, which is newer than the crate's
/// minimum Rust.
#[cold]
#[inline(never)]
const fn cold_path() {}

/// Literals matched byte by byte (resumably).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lit {
    True,
    False,
    Null,
    NaN,
    Inf,
    /// `Infinity` after a `-` that was lexed as the start of a number.
    NegInf,
    /// A UTF-8 byte order mark at offset 0.
    Bom,
}

impl Lit {
    const fn text(self) -> &'static [u8] {
        match self {
            Self::True => b"true",
            Self::False => b"false",
            Self::Null => b"null",
            Self::NaN => b"NaN",
            Self::Inf | Self::NegInf => b"Infinity",
            Self::Bom => b"\xEF\xBB\xBF",
        }
    }
}

/// A scalar token cut off by the end of the window (meaningful in [`State::Scalar`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    Str { key: bool, st: StrState },
    Num(NumState),
    Lit { lit: Lit, matched: u8 },
}

/// What the caller must keep of the window when [`Core::advance`] needs more input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Save {
    /// Nothing (whitespace, punctuation, or a literal, whose state lives in the core).
    Nothing,
    /// A string/number started at this index: keep `buf[i..]` as the start of a new token.
    Fresh(usize),
    /// A string/number continues through the whole window: append all of `buf`.
    Append,
}

/// What a step produces: a token lying inside the window, `None` (see [`Signal`]), or
/// an error. Exactly [`Tokenizer::next_token`](super::Tokenizer::next_token)'s type, so
/// the whole-input path returns it as is.
pub(crate) type Next<'b> = Result<Option<Token<'b>>, JsonError>;

/// Why a step returned `Ok(None)`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Signal {
    /// The document ended properly (top-level value and trailing whitespace consumed).
    End,
    /// The window is used up and end of input was not signalled.
    Partial(Save),
    /// A string (`key` for object keys) that began in an earlier window is complete: its
    /// bytes, both quotes included, are the caller's saved prefix followed by `buf[..end]`.
    StrTail {
        key: bool,
        end: usize,
        st: StrState,
        offset: u64,
    },
    /// A number that began in an earlier window is complete: saved prefix + `buf[..end]`.
    NumTail { end: usize, offset: u64 },
}

/// A byte window of the input.
#[derive(Clone, Copy)]
pub(crate) struct Window<'b> {
    /// The bytes.
    pub(crate) buf: &'b [u8],
    /// Absolute offset of `buf[0]`.
    pub(crate) base: u64,
    /// No input follows `buf`.
    pub(crate) eof: bool,
}

impl Window<'_> {
    #[inline(always)]
    fn at(&self, i: usize) -> u64 {
        self.base.saturating_add(i as u64)
    }
    #[inline(always)]
    fn err(&self, kind: ErrorKind, i: usize) -> JsonError {
        JsonError::new(kind, self.at(i))
    }
}

#[inline(always)]
const fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

/// High bit of each byte of `x` that is not JSON whitespace (exact in every byte).
#[inline(always)]
const fn non_ws_mask(x: u64) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    const L7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    // High bit set iff the byte is nonzero; no carry crosses bytes.
    const fn nonzero(y: u64) -> u64 {
        ((y & L7) + L7) | y
    }
    nonzero(x ^ (LO * 0x20))
        & nonzero(x ^ (LO * 0x0A))
        & nonzero(x ^ (LO * 0x0D))
        & nonzero(x ^ (LO * 0x09))
        & 0x8080_8080_8080_8080
}

/// Index of the first non-whitespace byte at or after `i` (or `buf.len()`). Callers
/// check the first byte inline: every byte above the space is non-whitespace.
#[inline(always)]
pub(super) fn skip_ws(buf: &[u8], mut i: usize) -> usize {
    // Pretty-printed JSON: a single space after `,` or `:`.
    if let Some(&[a, b]) = buf.get(i..).and_then(<[u8]>::first_chunk::<2>)
        && a == b' '
        && b > b' '
    {
        return i + 1;
    }
    // Indentation runs: eight bytes at a time.
    while let Some(w) = buf.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let m = non_ws_mask(u64::from_le_bytes(*w));
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&b) = buf.get(i) {
        if !is_ws(b) {
            break;
        }
        i += 1;
    }
    i
}

const STACK_WORDS: usize = MAX_DEPTH / 64;

/// The grammar state machine: container stack (a fixed bitset, 1 = object), current
/// grammar state, a pending partial scalar, and a sticky error.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Core {
    state: State,
    /// The state a pending scalar began in (valid in [`State::Scalar`]), restored
    /// when it resumes.
    outer: State,
    /// Valid in [`State::Scalar`].
    pending: Pending,
    /// Valid in [`State::Failed`].
    failed: JsonError,
    depth: usize,
    max_depth: usize,
    /// Absolute offset of the current (possibly pending) scalar token.
    tok_start: u64,
    /// Why the last step returned `Ok(None)`.
    signal: Signal,
    /// The container stack as a bitset (1 = object): levels 0..64 here, the deeper ones
    /// in `deep`. The fast path only handles depths up to 64, so it works on this one
    /// word.
    low: u64,
    /// Container stack levels 64.. (1 = object).
    deep: [u64; STACK_WORDS - 1],
}

impl Core {
    /// A fresh machine; `max_depth` is clamped to [`MAX_DEPTH`].
    pub(crate) const fn new(max_depth: usize) -> Self {
        Self {
            state: State::Start,
            outer: State::Start,
            pending: Pending::Lit {
                lit: Lit::Null,
                matched: 0,
            },
            failed: JsonError::new(ErrorKind::UnexpectedEof, 0),
            depth: 0,
            max_depth: if max_depth < MAX_DEPTH {
                max_depth
            } else {
                MAX_DEPTH
            },
            tok_start: 0,
            signal: Signal::End,
            low: 0,
            deep: [0; STACK_WORDS - 1],
        }
    }

    /// Current nesting depth (open containers).
    pub(crate) const fn depth(&self) -> usize {
        self.depth
    }

    /// True when the grammar wants a value (or a member) next, so the next
    /// token is no closing bracket and not the end: at the start, after a
    /// key or its `:`, after a comma.
    pub(crate) const fn value_must_follow(&self) -> bool {
        matches!(
            self.state,
            State::Start | State::Value | State::ArrNext | State::ObjNext | State::Colon
        )
    }

    /// Records `e` as the sticky error and returns it.
    #[cold]
    pub(crate) fn fail(&mut self, e: JsonError) -> JsonError {
        self.state = State::Failed;
        self.failed = e;
        e
    }

    /// Records `e` as the sticky error and returns it as a step result.
    #[cold]
    #[inline(never)]
    fn error<'b>(&mut self, e: JsonError) -> Next<'b> {
        Err(self.fail(e))
    }

    /// Absolute offset of the current (possibly pending) scalar token.
    pub(crate) const fn token_start(&self) -> u64 {
        self.tok_start
    }

    /// Why the last [`advance`](Self::advance) returned `Ok(None)`.
    pub(crate) const fn signal(&self) -> Signal {
        self.signal
    }

    #[inline(always)]
    fn none<'b>(&mut self, why: Signal) -> Next<'b> {
        self.signal = why;
        Ok(None)
    }

    /// Runs the machine over `w.buf` from `*pos` up to the next token, the end of the
    /// window, or an error. On return `*pos` is just past what was consumed.
    ///
    /// With `SKIP`, string, number and literal tokens come back as [`TokenKind::Null`]
    /// (keys as empty keys) after full validation: for callers that only need the
    /// structure.
    ///
    /// Structure: the inlined part handles complete tokens lying inside the window (all
    /// of them in whole-input mode, nearly all when streaming) with the fast scanners;
    /// everything else (escapes, non-ASCII, long strings, unusual numbers, literals cut
    /// by the window, resuming a cut token, every error) goes to out-of-line functions
    /// that implement the complete resumable grammar. The fast scanners only ever
    /// *accept* (a prefix of what the general lexers accept, with the same result);
    /// when they decline, the general lexer redoes the token from its start, so errors
    /// and their offsets come from one place.
    ///
    /// A reader that uses the tokens calls the two halves apart
    /// ([`advance_fast`](Self::advance_fast), then
    /// [`advance_general`](Self::advance_general) where it declines) and returns
    /// each outcome on its own, which keeps the fast path's token in registers.
    #[inline(always)]
    pub(crate) fn advance<'b, const SKIP: bool>(
        &mut self,
        w: Window<'b>,
        pos: &mut usize,
    ) -> Next<'b> {
        match self.step::<SKIP>(w, pos) {
            Some(next) => next,
            None => self.general::<SKIP>(w.buf, w.base, w.eof, pos),
        }
    }

    /// [`advance`](Self::advance)'s fast path alone: `None` where it declines
    /// (with `pos` at the token start), for [`Core::advance_general`] to
    /// finish.
    #[inline(always)]
    pub(crate) fn advance_fast<'b>(&mut self, w: Window<'b>, pos: &mut usize) -> Option<Next<'b>> {
        self.step::<false>(w, pos)
    }

    /// The general path, after [`Core::advance_fast`] declined.
    pub(crate) fn advance_general<'b>(&mut self, w: Window<'b>, pos: &mut usize) -> Next<'b> {
        self.general::<false>(w.buf, w.base, w.eof, pos)
    }

    /// The general path between tokens: any position, any state, any window.
    #[cold]
    #[inline(never)]
    fn general<'b, const SKIP: bool>(
        &mut self,
        buf: &'b [u8],
        base: u64,
        eof: bool,
        pos: &mut usize,
    ) -> Next<'b> {
        if self.state >= State::Scalar {
            return self.resume::<SKIP>(buf, base, eof, pos);
        }
        let w = Window { buf, base, eof };
        let mut i = *pos;
        loop {
            let b = match buf.get(i) {
                Some(&b) if b > b' ' => b,
                _ => {
                    i = skip_ws(buf, i);
                    match buf.get(i) {
                        Some(&b) => b,
                        None => return self.window_end(w.base, w.eof, i, pos),
                    }
                }
            };
            // Ordered tests instead of one jump table: values and keys are by far the
            // most frequent expectations.
            if self.state <= State::ArrNext {
                return self.value::<SKIP>(b, w, i, pos);
            }
            if self.state <= State::ObjNext {
                if b == b'"' {
                    return self.string::<SKIP>(true, w, i, pos);
                }
                return self.not_key(b, w.buf, w.base, i, pos);
            }
            match self.state {
                State::ArrComma | State::ObjComma => {
                    if b != b',' {
                        return self.close::<true>(b, w, i, pos);
                    }
                    self.state = self.state.after_comma();
                }
                State::Colon => {
                    if b != b':' {
                        return self.error(w.err(ErrorKind::ExpectedColon, i));
                    }
                    self.state = State::Value;
                }
                _ => return self.error(w.err(ErrorKind::TrailingCharacters, i)),
            }
            i += 1;
        }
    }

    /// The window is exhausted between tokens.
    #[inline(never)]
    fn window_end<'b>(&mut self, base: u64, eof: bool, i: usize, pos: &mut usize) -> Next<'b> {
        *pos = i;
        if !eof {
            return self.none(Signal::Partial(Save::Nothing));
        }
        let at = base.saturating_add(i as u64);
        match self.state {
            State::Start => self.error(JsonError::new(ErrorKind::EmptyInput, at)),
            State::Done => self.none(Signal::End),
            _ => self.error(JsonError::new(ErrorKind::UnexpectedEof, at)),
        }
    }

    /// In an object where a key is expected, something else came: `}` right after `{`,
    /// or an error.
    #[inline(never)]
    fn not_key<'b>(
        &mut self,
        b: u8,
        buf: &'b [u8],
        base: u64,
        i: usize,
        pos: &mut usize,
    ) -> Next<'b> {
        let w = Window {
            buf,
            base,
            eof: true,
        };
        if b == b'}' && self.state == State::ObjFirst {
            return self.close::<false>(b, w, i, pos);
        }
        let kind = if self.state == State::ObjFirst {
            ErrorKind::ExpectedKeyOrObjectEnd
        } else if b == b'}' {
            ErrorKind::TrailingComma
        } else {
            ErrorKind::ExpectedKey
        };
        self.error(w.err(kind, i))
    }

    /// Starts the value whose first byte `b` is at `i` (or closes an empty array).
    #[inline(always)]
    fn value<'b, const SKIP: bool>(
        &mut self,
        b: u8,
        w: Window<'b>,
        i: usize,
        pos: &mut usize,
    ) -> Next<'b> {
        match b {
            b'"' => self.string::<SKIP>(false, w, i, pos),
            b'-' | b'0'..=b'9' => {
                // Fast path: a plain complete number (certainly finite, nothing to
                // compute); anything else goes through the general lexer.
                let Some(end) = scan_plain(w.buf, i) else {
                    return self.num_slow::<SKIP>(w.buf, w.base, w.eof, i, pos);
                };
                *pos = self.after_value(w.buf, end);
                let kind = if SKIP {
                    TokenKind::Null
                } else {
                    let text = w.buf.get(i..end).unwrap_or_default();
                    TokenKind::Number(JsonNumber::new(text))
                };
                Ok(Some(Token {
                    kind,
                    offset: w.at(i),
                }))
            }
            b'{' | b'[' => {
                let obj = b == b'{';
                if self.depth >= self.max_depth {
                    return self.error(w.err(ErrorKind::TooDeep, i));
                }
                self.push(obj);
                *pos = i + 1;
                let kind = if obj {
                    TokenKind::BeginObject
                } else {
                    TokenKind::BeginArray
                };
                Ok(Some(Token {
                    kind,
                    offset: w.at(i),
                }))
            }
            // Fast path: the whole literal is in the window (compared as one word).
            b't' | b'f' | b'n' => {
                let word = |at: usize| {
                    w.buf
                        .get(at..)
                        .and_then(<[u8]>::first_chunk::<4>)
                        .map(|c| u32::from_le_bytes(*c))
                };
                let (kind, len, hit) = match b {
                    b't' => (
                        TokenKind::Bool(true),
                        4,
                        word(i) == Some(u32::from_le_bytes(*b"true")),
                    ),
                    b'f' => (
                        TokenKind::Bool(false),
                        5,
                        word(i + 1) == Some(u32::from_le_bytes(*b"alse")),
                    ),
                    _ => (
                        TokenKind::Null,
                        4,
                        word(i) == Some(u32::from_le_bytes(*b"null")),
                    ),
                };
                if !hit {
                    return self.not_value(b, w.buf, w.base, w.eof, i, pos);
                }
                *pos = self.after_value(w.buf, i + len);
                Ok(Some(Token {
                    kind,
                    offset: w.at(i),
                }))
            }
            _ => self.not_value(b, w.buf, w.base, w.eof, i, pos),
        }
    }

    /// Where a value is expected, anything but a string, a number, a bracket or a
    /// complete `true`/`false`/`null`: `]` closing an empty array, literals cut by the
    /// window end or misspelt, `NaN`, `Infinity`, a byte order mark, or an error.
    #[inline(never)]
    fn not_value<'b>(
        &mut self,
        b: u8,
        buf: &'b [u8],
        base: u64,
        eof: bool,
        i: usize,
        pos: &mut usize,
    ) -> Next<'b> {
        let w = Window { buf, base, eof };
        let lit = match b {
            b't' => Lit::True,
            b'f' => Lit::False,
            b'n' => Lit::Null,
            b'N' => Lit::NaN,
            b'I' => Lit::Inf,
            0xEF if self.state == State::Start && w.at(i) == 0 => Lit::Bom,
            b']' if self.state == State::ArrFirst => {
                return self.close::<false>(b, w, i, pos);
            }
            _ => {
                let kind = match self.state {
                    State::ArrFirst => ErrorKind::ExpectedValueOrArrayEnd,
                    State::ArrNext if b == b']' => ErrorKind::TrailingComma,
                    _ => ErrorKind::ExpectedValue,
                };
                return self.error(w.err(kind, i));
            }
        };
        self.tok_start = w.at(i);
        self.run_lit(w, pos, i, lit, 0)
    }

    /// Continues the pending scalar at the start of the window, or repeats the error.
    #[cold]
    #[inline(never)]
    fn resume<'b, const SKIP: bool>(
        &mut self,
        buf: &'b [u8],
        base: u64,
        eof: bool,
        pos: &mut usize,
    ) -> Next<'b> {
        if self.state == State::Failed {
            return Err(self.failed);
        }
        let w = Window { buf, base, eof };
        let i = *pos;
        self.state = self.outer;
        match self.pending {
            Pending::Str { key, st } => self.run_str::<SKIP>(w, pos, i, None, key, st),
            Pending::Num(st) => self.run_num::<SKIP>(w, pos, i, None, st),
            Pending::Lit { lit, matched } => self.run_lit(w, pos, i, lit, matched),
        }
    }

    /// Grammar transition after a value ending just before `end`, read in the
    /// current state; returns the new position.
    #[inline(always)]
    fn after_value(&mut self, buf: &[u8], end: usize) -> usize {
        self.after_value_in(self.state, buf, end)
    }

    /// [`end_value`](Self::end_value) with the byte at `end` read from `buf`.
    #[inline(always)]
    fn after_value_in(&mut self, from: State, buf: &[u8], end: usize) -> usize {
        self.end_value(from, buf.get(end) == Some(&b','), end)
    }

    /// Grammar transition after a value read in state `from` (for a container just
    /// closed, the state its parent read it in) and ending just before `end`, where
    /// `comma` says the byte at `end` is a `,`; returns the new position. The comma
    /// is consumed right away (the transition [`State::ArrComma`] and
    /// [`State::ObjComma`] make, without another round through [`Core::step`]),
    /// except at the top level, where it is an error for the next step to find.
    #[inline(always)]
    fn end_value(&mut self, from: State, comma: bool, end: usize) -> usize {
        if from == State::Start {
            cold_path();
            self.state = State::Done;
            return end;
        }
        self.state = from.after_value(comma);
        if comma { end + 1 } else { end }
    }

    /// Transition after a string ending just before `end`; a key's directly following
    /// `:` is consumed right away. Returns the new position.
    #[inline(always)]
    fn after_string(&mut self, key: bool, buf: &[u8], end: usize) -> usize {
        if !key {
            return self.after_value(buf, end);
        }
        if buf.get(end) == Some(&b':') {
            self.state = State::Value;
            return end + 1;
        }
        self.state = State::Colon;
        end
    }
}

#[inline(always)]
fn string_token<const SKIP: bool>(key: bool, s: JsonStr<'_>, offset: u64) -> Token<'_> {
    let kind = match (key, SKIP) {
        (true, false) => TokenKind::Key(s),
        (false, false) => TokenKind::String(s),
        (true, true) => TokenKind::Key(JsonStr::plain(&[])),
        (false, true) => TokenKind::Null,
    };
    Token { kind, offset }
}

#[cfg(test)]
mod tests;
