//! The one JSON grammar / state machine, shared by [`Tokenizer`](super::Tokenizer) and
//! [`StreamTokenizer`](super::StreamTokenizer).
//!
//! [`Core::advance`] works on a byte window (`buf`, whose first byte is at absolute offset
//! `base`) and reports positions, never borrowed data; the caller builds tokens from the
//! window or, for a scalar that spans windows, from its own scratch copy. When the window
//! ends in the middle of a scalar and more input may follow, the scalar's lexer state is
//! kept in [`Core`] and lexing resumes exactly where it stopped.

use super::MAX_DEPTH;
use super::error::{ErrorKind, JsonError, NonFinite};
use super::number::{NumEnd, NumInfo, NumState, finish_number, lex_num};
use super::string::{JsonStr, StrState, find_special, lex_str};
use super::token::{Token, TokenKind};

/// Where we are in the grammar, between tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// A scalar token cut off by the end of the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    None,
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
fn skip_ws(buf: &[u8], mut i: usize) -> usize {
    while let Some(&b) = buf.get(i) {
        if b > b' ' || !matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
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
    /// The innermost open container is an object (cached top of `stack`).
    in_object: bool,
    pending: Pending,
    failed: Option<JsonError>,
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
            in_object: false,
            pending: Pending::None,
            failed: None,
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
        self.failed = Some(e);
        e
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
    #[inline(always)]
    pub(crate) fn advance<'b>(&mut self, w: Window<'b>, pos: &mut usize) -> Next<'b> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let r = if matches!(self.pending, Pending::None) {
            self.step(w, pos)
        } else {
            self.resume(w, pos)
        };
        if let Err(e) = r {
            self.failed = Some(e);
        }
        r
    }

    #[inline(always)]
    fn step<'b>(&mut self, w: Window<'b>, pos: &mut usize) -> Next<'b> {
        let buf = w.buf;
        let mut i = *pos;
        loop {
            i = skip_ws(buf, i);
            let Some(&b) = buf.get(i) else {
                *pos = i;
                return self.window_end(w, i);
            };
            match self.state {
                State::Comma => {
                    match (b, self.in_object) {
                        (b',', true) => self.state = State::ObjNext,
                        (b',', false) => self.state = State::ArrNext,
                        (b'}', true) => return self.close(TokenKind::EndObject, w, i, pos),
                        (b']', false) => return self.close(TokenKind::EndArray, w, i, pos),
                        (_, true) => return Err(w.err(ErrorKind::ExpectedCommaOrObjectEnd, i)),
                        (_, false) => return Err(w.err(ErrorKind::ExpectedCommaOrArrayEnd, i)),
                    }
                    i += 1;
                }
                State::Colon => {
                    if b != b':' {
                        return Err(w.err(ErrorKind::ExpectedColon, i));
                    }
                    self.state = State::Value;
                    i += 1;
                }
                State::ObjFirst | State::ObjNext => {
                    if b == b'"' {
                        self.tok_start = w.at(i);
                        return self.run_str(w, pos, i + 1, Some(i), true, StrState::new());
                    }
                    if b == b'}' {
                        if self.state == State::ObjNext {
                            return Err(w.err(ErrorKind::TrailingComma, i));
                        }
                        return self.close(TokenKind::EndObject, w, i, pos);
                    }
                    let kind = if self.state == State::ObjFirst {
                        ErrorKind::ExpectedKeyOrObjectEnd
                    } else {
                        ErrorKind::ExpectedKey
                    };
                    return Err(w.err(kind, i));
                }
                State::ArrFirst => {
                    if b == b']' {
                        return self.close(TokenKind::EndArray, w, i, pos);
                    }
                    return self.value(b, w, i, pos, ErrorKind::ExpectedValueOrArrayEnd);
                }
                State::ArrNext => {
                    if b == b']' {
                        return Err(w.err(ErrorKind::TrailingComma, i));
                    }
                    return self.value(b, w, i, pos, ErrorKind::ExpectedValue);
                }
                State::Value | State::Start => {
                    return self.value(b, w, i, pos, ErrorKind::ExpectedValue);
                }
                State::Done => return Err(w.err(ErrorKind::TrailingCharacters, i)),
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
            State::Start => Err(w.err(ErrorKind::EmptyInput, i)),
            State::Done => self.none(Signal::End),
            _ => Err(w.err(ErrorKind::UnexpectedEof, i)),
        }
    }

    /// Starts the value whose first byte `b` is at `i`; `bad` is the error for a byte that
    /// starts no value.
    #[inline(always)]
    fn value<'b>(
        &mut self,
        b: u8,
        w: Window<'b>,
        i: usize,
        pos: &mut usize,
        bad: ErrorKind,
    ) -> Next<'b> {
        let lit = match b {
            b'"' => {
                self.tok_start = w.at(i);
                return self.run_str(w, pos, i + 1, Some(i), false, StrState::new());
            }
            b'-' | b'0'..=b'9' => {
                self.tok_start = w.at(i);
                let (st, used) = NumState::start(b);
                return self.run_num(w, pos, i + used, Some(i), st);
            }
            b'{' | b'[' => {
                let obj = b == b'{';
                self.push(obj, w, i)?;
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
            b't' => Lit::True,
            b'f' => Lit::False,
            b'n' => Lit::Null,
            b'N' => Lit::NaN,
            b'I' => Lit::Inf,
            0xEF if self.state == State::Start && w.at(i) == 0 => Lit::Bom,
            _ => return Err(w.err(bad, i)),
        };
        self.tok_start = w.at(i);
        self.run_lit(w, pos, i, lit, 0)
    }

    /// Continues the pending scalar at the start of the window.
    #[inline(never)]
    fn resume<'b>(&mut self, w: Window<'b>, pos: &mut usize) -> Next<'b> {
        let i = *pos;
        match self.pending {
            Pending::None => self.step(w, pos),
            Pending::Str { key, st } => self.run_str(w, pos, i, None, key, st),
            Pending::Num(st) => self.run_num(w, pos, i, None, st),
            Pending::Lit { lit, matched } => self.run_lit(w, pos, i, lit, matched),
        }
    }

    #[inline(always)]
    fn after_value(&mut self) {
        self.state = if self.depth == 0 {
            State::Done
        } else {
            State::Comma
        };
    }

    #[inline(always)]
    fn partial<'b>(&mut self, w: Window<'b>, pos: &mut usize, start: Option<usize>) -> Next<'b> {
        *pos = w.buf.len();
        self.none(Signal::Partial(match start {
            Some(s) => Save::Fresh(s),
            None => Save::Append,
        }))
    }

    #[inline(always)]
    fn run_str<'b>(
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
                *pos = j + 1;
                self.after_string(key);
                let body = w.buf.get(s + 1..j).unwrap_or_default();
                return Ok(Some(string_token(
                    key,
                    JsonStr::plain(body),
                    self.tok_start,
                )));
            }
            return self.run_str_slow(w, pos, j, start, key, st);
        }
        self.run_str_slow(w, pos, from, start, key, st)
    }

    #[inline(always)]
    fn after_string(&mut self, key: bool) {
        self.pending = Pending::None;
        if key {
            self.state = State::Colon;
        } else {
            self.after_value();
        }
    }

    /// General string path: escapes, non-ASCII, errors, window ends.
    #[inline(never)]
    fn run_str_slow<'b>(
        &mut self,
        w: Window<'b>,
        pos: &mut usize,
        from: usize,
        start: Option<usize>,
        key: bool,
        mut st: StrState,
    ) -> Next<'b> {
        match lex_str(w.buf, from, &mut st, w.base)? {
            Some(end) => {
                *pos = end;
                self.after_string(key);
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
                Ok(Some(string_token(
                    key,
                    JsonStr::from_lexed(body, &st),
                    offset,
                )))
            }
            None if w.eof => Err(w.err(ErrorKind::UnexpectedEof, w.buf.len())),
            None => {
                self.pending = Pending::Str { key, st };
                self.partial(w, pos, start)
            }
        }
    }

    #[inline(always)]
    fn run_num<'b>(
        &mut self,
        w: Window<'b>,
        pos: &mut usize,
        from: usize,
        start: Option<usize>,
        mut st: NumState,
    ) -> Next<'b> {
        match lex_num(w.buf, from, &mut st, w.base, w.eof)? {
            NumEnd::Done(end) => {
                *pos = end;
                self.pending = Pending::None;
                self.after_value();
                let offset = self.tok_start;
                let info = st.info();
                let Some(s) = start else {
                    return self.none(Signal::NumTail { end, info, offset });
                };
                let text = w.buf.get(s..end).unwrap_or_default();
                let n = finish_number(text, info, offset)?;
                Ok(Some(Token {
                    kind: TokenKind::Number(n),
                    offset,
                }))
            }
            NumEnd::Partial => {
                self.pending = Pending::Num(st);
                self.partial(w, pos, start)
            }
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
                    return Err(JsonError::new(ErrorKind::ExpectedValue, self.tok_start));
                }
                Some(_) => return Err(w.err(ErrorKind::InvalidLiteral, i)),
                None if !w.eof => {
                    self.pending = Pending::Lit {
                        lit,
                        matched: m as u8,
                    };
                    *pos = w.buf.len();
                    return self.none(Signal::Partial(Save::Nothing));
                }
                None if lit == Lit::Bom => {
                    return Err(JsonError::new(ErrorKind::ExpectedValue, self.tok_start));
                }
                None => return Err(w.err(ErrorKind::UnexpectedEof, i)),
            }
        }
        *pos = i;
        self.pending = Pending::None;
        let offset = self.tok_start;
        let non_finite = |which| Err(JsonError::new(ErrorKind::NonFiniteNumber(which), offset));
        let kind = match lit {
            Lit::True => TokenKind::Bool(true),
            Lit::False => TokenKind::Bool(false),
            Lit::Null => TokenKind::Null,
            Lit::NaN => return non_finite(NonFinite::NaN),
            Lit::Inf => return non_finite(NonFinite::Infinity),
            Lit::NegInf => return non_finite(NonFinite::NegInfinity),
            Lit::Bom => return Err(JsonError::new(ErrorKind::ByteOrderMark, offset)),
        };
        self.after_value();
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
        self.in_object = obj;
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
        self.in_object = d.checked_sub(1).is_some_and(|p| {
            self.stack
                .get(p / 64)
                .is_some_and(|word| word & (1u64 << (p % 64)) != 0)
        });
        self.after_value();
        *pos = i + 1;
        Ok(Some(Token {
            kind,
            offset: w.at(i),
        }))
    }
}

#[inline(always)]
fn string_token(key: bool, s: JsonStr<'_>, offset: u64) -> Token<'_> {
    let kind = if key {
        TokenKind::Key(s)
    } else {
        TokenKind::String(s)
    };
    Token { kind, offset }
}
