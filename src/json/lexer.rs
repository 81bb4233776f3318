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

use super::MAX_DEPTH;
use super::error::{ErrorKind, JsonError, NonFinite};
use super::number::{JsonNumber, NumEnd, NumInfo, NumState, lex_num, resolve};
use super::string::{JsonStr, StrState, find_special, lex_str};
use super::token::{Token, TokenKind};

/// Where we are in the grammar, between tokens. The order matters: the value-expecting
/// states come first, then the key-expecting ones, and the two special states last (see
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
    /// After a value inside a container: `,` or the closing bracket.
    Comma,
    /// After the top-level value: whitespace only.
    Done,
    /// Inside a string, number or literal cut off by the end of a window (`Core::pending`).
    Scalar,
    /// An error occurred (`Core::failed`); it is returned forever.
    Failed,
}

/// The innermost open container.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    Top,
    Array,
    Object,
}

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
    NumTail {
        end: usize,
        info: NumInfo,
        offset: u64,
    },
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

/// Index of the first non-whitespace byte at or after `i` (or `buf.len()`).
#[inline(always)]
fn skip_ws(buf: &[u8], mut i: usize) -> usize {
    // Compact JSON: usually no whitespace at all.
    match buf.get(i) {
        Some(&b) if !is_ws(b) => return i,
        None => return i,
        Some(_) => i += 1,
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
    /// The innermost open container (cached top of `stack`).
    ctx: Ctx,
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
    stack: [u64; STACK_WORDS],
}

impl Core {
    /// A fresh machine; `max_depth` is clamped to [`MAX_DEPTH`].
    pub(crate) const fn new(max_depth: usize) -> Self {
        Self {
            state: State::Start,
            ctx: Ctx::Top,
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
            stack: [0; STACK_WORDS],
        }
    }

    /// Current nesting depth (open containers).
    pub(crate) const fn depth(&self) -> usize {
        self.depth
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
    #[inline(always)]
    pub(crate) fn advance<'b, const SKIP: bool>(
        &mut self,
        w: Window<'b>,
        pos: &mut usize,
    ) -> Next<'b> {
        if self.state >= State::Scalar {
            return self.resume::<SKIP>(w, pos);
        }
        self.step::<SKIP>(w, pos)
    }

    #[inline(always)]
    fn step<'b, const SKIP: bool>(&mut self, w: Window<'b>, pos: &mut usize) -> Next<'b> {
        let buf = w.buf;
        let mut i = *pos;
        loop {
            i = skip_ws(buf, i);
            let Some(&b) = buf.get(i) else {
                *pos = i;
                return self.window_end(w, i);
            };
            // Ordered tests instead of one jump table: values and keys are by far the
            // most frequent expectations.
            if self.state <= State::ArrNext {
                return self.value::<SKIP>(b, w, i, pos);
            }
            if self.state <= State::ObjNext {
                if b == b'"' {
                    self.tok_start = w.at(i);
                    return self.run_str::<SKIP>(w, pos, i + 1, Some(i), true, StrState::new());
                }
                if b == b'}' && self.state == State::ObjFirst {
                    return self.close(TokenKind::EndObject, w, i, pos);
                }
                let kind = if self.state == State::ObjFirst {
                    ErrorKind::ExpectedKeyOrObjectEnd
                } else if b == b'}' {
                    ErrorKind::TrailingComma
                } else {
                    ErrorKind::ExpectedKey
                };
                return self.error(w.err(kind, i));
            }
            match self.state {
                State::Comma => {
                    match (b, self.ctx) {
                        (b',', Ctx::Object) => self.state = State::ObjNext,
                        (b',', _) => self.state = State::ArrNext,
                        (b'}', Ctx::Object) => return self.close(TokenKind::EndObject, w, i, pos),
                        (b']', Ctx::Array) => return self.close(TokenKind::EndArray, w, i, pos),
                        (_, Ctx::Object) => {
                            return self.error(w.err(ErrorKind::ExpectedCommaOrObjectEnd, i));
                        }
                        (_, _) => {
                            return self.error(w.err(ErrorKind::ExpectedCommaOrArrayEnd, i));
                        }
                    }
                    i += 1;
                }
                State::Colon => {
                    if b != b':' {
                        return self.error(w.err(ErrorKind::ExpectedColon, i));
                    }
                    self.state = State::Value;
                    i += 1;
                }
                _ => return self.error(w.err(ErrorKind::TrailingCharacters, i)),
            }
        }
    }

    /// The window is exhausted between tokens.
    #[inline(never)]
    fn window_end<'b>(&mut self, w: Window<'b>, i: usize) -> Next<'b> {
        if !w.eof {
            return self.none(Signal::Partial(Save::Nothing));
        }
        match self.state {
            State::Start => self.error(w.err(ErrorKind::EmptyInput, i)),
            State::Done => self.none(Signal::End),
            _ => self.error(w.err(ErrorKind::UnexpectedEof, i)),
        }
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
        let lit = match b {
            b'"' => {
                self.tok_start = w.at(i);
                return self.run_str::<SKIP>(w, pos, i + 1, Some(i), false, StrState::new());
            }
            b'-' | b'0'..=b'9' => {
                self.tok_start = w.at(i);
                let (st, used) = NumState::start(b);
                return self.run_num::<SKIP>(w, pos, i + used, Some(i), st);
            }
            b'{' | b'[' => {
                let obj = b == b'{';
                if let Err(e) = self.push(obj, w, i) {
                    return self.error(e);
                }
                *pos = i + 1;
                let kind = if obj {
                    self.state = State::ObjFirst;
                    TokenKind::BeginObject
                } else {
                    self.state = State::ArrFirst;
                    TokenKind::BeginArray
                };
                return Ok(Some(Token {
                    kind,
                    offset: w.at(i),
                }));
            }
            // Fast path: the whole literal is in the window (compared as one word).
            b't' | b'f' | b'n' => {
                let word = |at: usize| {
                    w.buf
                        .get(at..)
                        .and_then(<[u8]>::first_chunk::<4>)
                        .map(|c| u32::from_le_bytes(*c))
                };
                let (lit, kind, len, hit) = match b {
                    b't' => (
                        Lit::True,
                        TokenKind::Bool(true),
                        4,
                        word(i) == Some(u32::from_le_bytes(*b"true")),
                    ),
                    b'f' => (
                        Lit::False,
                        TokenKind::Bool(false),
                        5,
                        word(i + 1) == Some(u32::from_le_bytes(*b"alse")),
                    ),
                    _ => (
                        Lit::Null,
                        TokenKind::Null,
                        4,
                        word(i) == Some(u32::from_le_bytes(*b"null")),
                    ),
                };
                if hit {
                    *pos = self.after_value(w.buf, i + len);
                    return Ok(Some(Token {
                        kind,
                        offset: w.at(i),
                    }));
                }
                lit
            }
            b'N' => Lit::NaN,
            b'I' => Lit::Inf,
            0xEF if self.state == State::Start && w.at(i) == 0 => Lit::Bom,
            b']' if self.state == State::ArrFirst => {
                return self.close(TokenKind::EndArray, w, i, pos);
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
    #[inline(never)]
    fn resume<'b, const SKIP: bool>(&mut self, w: Window<'b>, pos: &mut usize) -> Next<'b> {
        if self.state == State::Failed {
            return Err(self.failed);
        }
        let i = *pos;
        match self.pending {
            Pending::Str { key, st } => self.run_str_slow::<SKIP>(w, pos, i, None, key, st),
            Pending::Num(st) => self.run_num::<SKIP>(w, pos, i, None, st),
            Pending::Lit { lit, matched } => self.run_lit(w, pos, i, lit, matched),
        }
    }

    /// Grammar transition after a value ending just before `end`; returns the new
    /// position. A `,` directly following is consumed right away (the same transition
    /// [`State::Comma`] makes, without another round through [`Core::step`]).
    #[inline(always)]
    fn after_value(&mut self, buf: &[u8], end: usize) -> usize {
        let next = match self.ctx {
            Ctx::Top => {
                self.state = State::Done;
                return end;
            }
            Ctx::Array => State::ArrNext,
            Ctx::Object => State::ObjNext,
        };
        if buf.get(end) == Some(&b',') {
            self.state = next;
            return end + 1;
        }
        self.state = State::Comma;
        end
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

    /// Enters [`State::Scalar`]: the window ended inside a string or number.
    #[inline(always)]
    fn partial<'b>(
        &mut self,
        pending: Pending,
        w: Window<'b>,
        pos: &mut usize,
        start: Option<usize>,
    ) -> Next<'b> {
        self.pending = pending;
        self.state = State::Scalar;
        *pos = w.buf.len();
        self.none(Signal::Partial(match start {
            Some(s) => Save::Fresh(s),
            None => Save::Append,
        }))
    }

    #[inline(always)]
    fn run_str<'b, const SKIP: bool>(
        &mut self,
        w: Window<'b>,
        pos: &mut usize,
        from: usize,
        start: Option<usize>,
        key: bool,
        st: StrState,
    ) -> Next<'b> {
        // Fast path: a fresh string whose first special byte is its closing quote.
        if let Some(s) = start {
            let j = find_special(w.buf, from);
            if w.buf.get(j) == Some(&b'"') {
                *pos = self.after_string(key, w.buf, j + 1);
                let body = w.buf.get(s + 1..j).unwrap_or_default();
                return Ok(Some(string_token::<SKIP>(
                    key,
                    JsonStr::plain(body),
                    self.tok_start,
                )));
            }
            return self.run_str_slow::<SKIP>(w, pos, j, start, key, st);
        }
        self.run_str_slow::<SKIP>(w, pos, from, start, key, st)
    }

    /// General string path: escapes, non-ASCII, errors, window ends.
    #[inline(never)]
    fn run_str_slow<'b, const SKIP: bool>(
        &mut self,
        w: Window<'b>,
        pos: &mut usize,
        from: usize,
        start: Option<usize>,
        key: bool,
        mut st: StrState,
    ) -> Next<'b> {
        let lexed = match lex_str(w.buf, from, &mut st, w.base) {
            Ok(l) => l,
            Err(e) => return self.error(e),
        };
        match lexed {
            Some(end) => {
                *pos = self.after_string(key, w.buf, end);
                let offset = self.tok_start;
                let Some(s) = start else {
                    return self.none(Signal::StrTail {
                        key,
                        end,
                        st,
                        offset,
                    });
                };
                let body = w.buf.get(s + 1..end - 1).unwrap_or_default();
                Ok(Some(string_token::<SKIP>(
                    key,
                    JsonStr::from_lexed(body, &st),
                    offset,
                )))
            }
            None if w.eof => self.error(w.err(ErrorKind::UnexpectedEof, w.buf.len())),
            None => self.partial(Pending::Str { key, st }, w, pos, start),
        }
    }

    #[inline(always)]
    fn run_num<'b, const SKIP: bool>(
        &mut self,
        w: Window<'b>,
        pos: &mut usize,
        from: usize,
        start: Option<usize>,
        mut st: NumState,
    ) -> Next<'b> {
        let lexed = match lex_num(w.buf, from, &mut st, w.base, w.eof) {
            Ok(l) => l,
            Err(e) => return self.error(e),
        };
        match lexed {
            NumEnd::Done(end) => {
                *pos = self.after_value(w.buf, end);
                let offset = self.tok_start;
                let info = if SKIP { st.range_info() } else { st.info() };
                let Some(s) = start else {
                    return self.none(Signal::NumTail { end, info, offset });
                };
                let text = w.buf.get(s..end).unwrap_or_default();
                let Some(value) = resolve(text, info) else {
                    return self.error(JsonError::new(ErrorKind::NumberOutOfRange, offset));
                };
                let kind = if SKIP {
                    TokenKind::Null
                } else {
                    TokenKind::Number(JsonNumber::new(text, value))
                };
                Ok(Some(Token { kind, offset }))
            }
            NumEnd::Partial => self.partial(Pending::Num(st), w, pos, start),
            NumEnd::NegInfinity(i) => self.run_lit(w, pos, i, Lit::NegInf, 0),
        }
    }

    #[inline(never)]
    fn run_lit<'b>(
        &mut self,
        w: Window<'b>,
        pos: &mut usize,
        from: usize,
        lit: Lit,
        matched: u8,
    ) -> Next<'b> {
        let text = lit.text();
        let mut m = matched as usize;
        let mut i = from;
        while let Some(&want) = text.get(m) {
            match w.buf.get(i) {
                Some(&b) if b == want => {
                    m += 1;
                    i += 1;
                }
                Some(_) if lit == Lit::Bom => {
                    return self.error(JsonError::new(ErrorKind::ExpectedValue, self.tok_start));
                }
                Some(_) => return self.error(w.err(ErrorKind::InvalidLiteral, i)),
                None if !w.eof => {
                    // Literals keep their progress in the core; the caller saves nothing.
                    self.pending = Pending::Lit {
                        lit,
                        matched: u8::try_from(m).unwrap_or(u8::MAX),
                    };
                    self.state = State::Scalar;
                    *pos = w.buf.len();
                    return self.none(Signal::Partial(Save::Nothing));
                }
                None if lit == Lit::Bom => {
                    return self.error(JsonError::new(ErrorKind::ExpectedValue, self.tok_start));
                }
                None => return self.error(w.err(ErrorKind::UnexpectedEof, i)),
            }
        }
        let offset = self.tok_start;
        let bad = match lit {
            Lit::True | Lit::False | Lit::Null => None,
            Lit::NaN => Some(ErrorKind::NonFiniteNumber(NonFinite::NaN)),
            Lit::Inf => Some(ErrorKind::NonFiniteNumber(NonFinite::Infinity)),
            Lit::NegInf => Some(ErrorKind::NonFiniteNumber(NonFinite::NegInfinity)),
            Lit::Bom => Some(ErrorKind::ByteOrderMark),
        };
        if let Some(kind) = bad {
            return self.error(JsonError::new(kind, offset));
        }
        let kind = match lit {
            Lit::True => TokenKind::Bool(true),
            Lit::False => TokenKind::Bool(false),
            _ => TokenKind::Null,
        };
        *pos = self.after_value(w.buf, i);
        Ok(Some(Token { kind, offset }))
    }

    #[inline(always)]
    fn push(&mut self, obj: bool, w: Window<'_>, i: usize) -> Result<(), JsonError> {
        let d = self.depth;
        if d >= self.max_depth {
            return Err(w.err(ErrorKind::TooDeep, i));
        }
        if let Some(word) = self.stack.get_mut(d / 64) {
            let bit = 1u64 << (d % 64);
            if obj {
                *word |= bit;
            } else {
                *word &= !bit;
            }
        }
        self.depth = d + 1;
        self.ctx = if obj { Ctx::Object } else { Ctx::Array };
        Ok(())
    }

    #[inline(always)]
    fn close<'b>(
        &mut self,
        kind: TokenKind<'static>,
        w: Window<'b>,
        i: usize,
        pos: &mut usize,
    ) -> Next<'b> {
        let d = self.depth.saturating_sub(1);
        self.depth = d;
        // The parent container (if any) is at index d - 1.
        self.ctx = match d.checked_sub(1) {
            None => Ctx::Top,
            Some(p) => {
                let obj = self
                    .stack
                    .get(p / 64)
                    .is_some_and(|word| word & (1u64 << (p % 64)) != 0);
                if obj { Ctx::Object } else { Ctx::Array }
            }
        };
        *pos = self.after_value(w.buf, i + 1);
        Ok(Some(Token {
            kind,
            offset: w.at(i),
        }))
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
mod tests {
    use super::*;

    #[test]
    fn skip_ws_matches_bytewise() {
        let alphabet = [
            b' ',
            b'\n',
            b'\r',
            b'\t',
            b'x',
            0x0B,
            0x0C,
            0x00,
            0xA0,
            0x20 | 0x80,
        ];
        let mut seed = 1u64;
        for len in 0..40usize {
            for _ in 0..200 {
                let v: std::vec::Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        let r = (seed >> 33) as usize;
                        // Mostly whitespace, so runs get long.
                        if r.is_multiple_of(5) {
                            alphabet[r / 5 % alphabet.len()]
                        } else {
                            alphabet[r % 4]
                        }
                    })
                    .collect();
                for i in 0..=len {
                    let want = (i..len).find(|&k| !is_ws(v[k])).unwrap_or(len);
                    assert_eq!(skip_ws(&v, i), want, "{v:?} {i}");
                }
            }
        }
        for b in 0..=255u8 {
            for lane in 0..8 {
                let mut v = [b' '; 12];
                v[1 + lane] = b;
                let want = if is_ws(b) { 12 } else { 1 + lane };
                assert_eq!(skip_ws(&v, 0), want, "{b} {lane}");
            }
        }
    }
}
