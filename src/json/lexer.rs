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
/// block (measured in docs/performance.md). The same as `core::hint::cold_path`,
/// which is newer than the crate's minimum Rust.
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

/// Bytes ahead of the position that the window fast path ([`Core::step`]) needs: a
/// token may start up to [`TOKEN_START_LIMIT`] bytes in (after whitespace and a
/// separator), and its own [`Tw`] window lies within this one.
const WIN: usize = TOKEN_START_LIMIT + TW;
/// A token start found further into the window than this goes to the general path.
const TOKEN_START_LIMIT: usize = 32;
/// Bytes of the token window. A token that the fast path handles (a number of at
/// most 40 bytes, a string whose body's first special byte is among its first
/// [`STR_SCAN`] bytes, a literal) and the byte after it lie in the first 64 of them;
/// sixteen-byte blocks are read at offsets below 64.
const TW: usize = 72;
/// Body bytes of a string that the fast path scans, in three blocks of sixteen (a UUID
/// fits).
const STR_SCAN: usize = 48;

type Win = [u8; WIN];
type Tw = [u8; TW];

/// The token window at offset `k` (< [`TOKEN_START_LIMIT`]) of the window.
#[inline(always)]
fn token_window(win: &Win, k: usize) -> Option<&Tw> {
    // In bounds by construction: (k % 32) + 72 <= 104.
    win.split_at(k % TOKEN_START_LIMIT).1.first_chunk::<TW>()
}

/// The byte at offset `k` (< 64) of a token window.
#[inline(always)]
fn byte(t: &Tw, k: usize) -> u8 {
    t.get(k % 64).copied().unwrap_or(0)
}

/// The first `n` (< 64) bytes of a token window.
#[inline(always)]
fn head(t: &Tw, n: usize) -> &[u8] {
    t.split_at(n % 64).0
}

#[inline(always)]
fn offset(base: u64, k: usize) -> u64 {
    base.saturating_add(k as u64)
}

/// The first non-whitespace offset at or after `k` (< [`TOKEN_START_LIMIT`]) in the
/// window, or `None` if the run goes on past [`TOKEN_START_LIMIT`].
///
/// Byte by byte on purpose: indentation runs are short and regular, so the loop's
/// branches predict well and the next token's position is known speculatively, while
/// a word-at-a-time scan would put its whole latency on the critical path.
#[inline(always)]
fn win_ws(win: &Win, mut k: usize) -> Option<usize> {
    let at = |k: usize| win.get(k % 64).copied().unwrap_or(0);
    // Pretty-printed JSON: a single space after `,` or `:`.
    if at(k) == b' ' && at(k + 1) > b' ' {
        return Some(k + 1);
    }
    while k < TOKEN_START_LIMIT {
        if !is_ws(at(k)) {
            return Some(k);
        }
        k += 1;
    }
    None
}

/// [`scan_plain`] on a token window: the length of a plain number (no exponent, at
/// most 7 integer digits, at most 31 fraction digits) starting at `t[0]` (a `-` if
/// `NEG`, else a digit), or `None` for anything else.
///
/// Integer digits go byte by byte (short and regular in real files, so the branches
/// predict well and the number's end is known speculatively); fraction digits, whose
/// counts vary, sixteen at a time.
#[inline(always)]
fn tw_number<const NEG: bool>(t: &Tw) -> Option<usize> {
    // The first digit is at `e - 1`.
    let mut e = usize::from(NEG) + 1;
    let first = byte(t, e - 1);
    if NEG && !first.is_ascii_digit() {
        return None;
    }
    let mut next = byte(t, e);
    // Up to six more integer digits; every exit leaves a non-digit in `next`.
    let mut left = 6;
    while next.is_ascii_digit() {
        if left == 0 || first == b'0' {
            return None;
        }
        left -= 1;
        e += 1;
        next = byte(t, e);
    }
    if next == b'.' {
        e += 1;
        let block = |k: usize| {
            t.get(k..k + 16)
                .and_then(<[u8]>::first_chunk::<16>)
                .map_or(u32::MAX, classify::non_digit)
        };
        let n = block(e).trailing_zeros() as usize;
        if n == 0 {
            return None;
        }
        e += n;
        if n == 16 {
            let n = block(e).trailing_zeros() as usize;
            if n == 16 {
                return None;
            }
            e += n;
        }
        // Not a digit: the mask stopped before it.
        next = byte(t, e);
    }
    // An exponent.
    if next | 0x20 == b'e' {
        return None;
    }
    Some(e)
}

/// `true`, `false` or `null` at the start of a token window, with its length.
#[inline(always)]
fn tw_literal(t: &Tw) -> Option<(TokenKind<'static>, usize)> {
    let quad = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
    if quad == u32::from_le_bytes(*b"true") {
        Some((TokenKind::Bool(true), 4))
    } else if quad == u32::from_le_bytes(*b"fals") && t[4] == b'e' {
        Some((TokenKind::Bool(false), 5))
    } else if quad == u32::from_le_bytes(*b"null") {
        Some((TokenKind::Null, 4))
    } else {
        None
    }
}

/// For the string whose opening quote is `t[0]`: the offset `n` in its body of
/// the first special byte (looked for sixteen body bytes at a time among the
/// first [`STR_SCAN`]), or `None` when there is none. The body is plain and
/// `n` bytes long when `t[n + 1]` is a quote, which the caller checks together
/// with the byte after it. In the first block the end comes from the quotes
/// alone, the short dependency chain that the next token's position waits for.
#[inline(always)]
fn tw_string(t: &Tw) -> Option<usize> {
    // The first block: its first quote, with no other special byte before it.
    let first = t.get(1..17).and_then(<[u8]>::first_chunk::<16>);
    let (quote, special) = first.map_or((0, 1), classify::quote_and_special);
    if quote != 0 {
        let n = quote.trailing_zeros();
        return (special & ((1 << n) - 1) == 0).then_some(n as usize);
    }
    if special != 0 {
        return None;
    }
    const BLOCKS: [usize; STR_SCAN / 16 - 1] = [16, 32];
    for n in BLOCKS {
        let block = t.get(n + 1..n + 17).and_then(<[u8]>::first_chunk::<16>);
        let m = block.map_or(1, classify::string_special);
        if m != 0 {
            return Some(n + m.trailing_zeros() as usize);
        }
    }
    None
}

/// The two bytes at offset `k` (< 64) of a token window, the first in the low byte.
#[inline(always)]
fn pair(t: &Tw, k: usize) -> u16 {
    u16::from_le_bytes([byte(t, k), byte(t, k + 1)])
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

    /// The fast path between tokens: whenever at least [`WIN`] bytes of the window lie
    /// ahead, the next token (after whitespace and separators) is looked for in these
    /// bytes as a fixed-size array, which needs no bounds checks. Only the common,
    /// valid cases are handled here: plain strings and keys, plain numbers, literals,
    /// brackets, `,` and `:`. For anything else (including every error) the general
    /// path takes over at the token start, with the separators consumed so far
    /// committed, so results never depend on which path ran: `None` hands it
    /// over. That includes the strings and states the fast path could finish only
    /// with a call (escapes, bodies longer than [`STR_SCAN`], a key apart from its
    /// colon, a pending scalar), so that every token it returns is built in
    /// registers: a call's result comes back through memory, and merged with it
    /// the fast path's token would too (stored in pieces and reloaded whole, a
    /// store-forwarding stall on every token).
    #[inline(always)]
    fn step<'b, const SKIP: bool>(&mut self, w: Window<'b>, pos: &mut usize) -> Option<Next<'b>> {
        let i = *pos;
        let Some(win) = w.buf.get(i..).and_then(<[u8]>::first_chunk::<WIN>) else {
            return Self::decline(i, pos);
        };
        let mut k = 0usize;
        let mut b = win[0];
        if b <= b' ' {
            let Some(t) = win_ws(win, 0) else {
                return Self::decline(i, pos);
            };
            k = t;
            b = win.get(k % 64).copied().unwrap_or(0);
        }
        let mut st = self.state;
        if st >= State::Colon {
            // A separator, a closing bracket, or (after the top-level value) nothing;
            // or a pending token or error (`Scalar`, `Failed`).
            // Commas and colons directly after a token were consumed with it, so
            // after a value a closing bracket is the most frequent byte.
            let after_value = matches!(st, State::ArrComma | State::ObjComma);
            if after_value && b == st.close_byte() {
                return self.win_close::<SKIP>(st, win, w, i, k, pos);
            } else if after_value && b == b',' {
                st = st.after_comma();
            } else if st == State::Colon && b == b':' {
                st = State::Value;
            } else if st >= State::Scalar {
                return Self::decline(i, pos);
            } else {
                return Self::decline(i + k, pos);
            }
            self.state = st;
            k += 1;
            b = win.get(k % 64).copied().unwrap_or(0);
            if b <= b' ' {
                let Some(t) = win_ws(win, k) else {
                    return Self::decline(i + k, pos);
                };
                k = t;
                b = win.get(k % 64).copied().unwrap_or(0);
            }
        }
        let Some(t) = token_window(win, k).filter(|_| k < TOKEN_START_LIMIT) else {
            return Self::decline(i + k, pos);
        };
        if st < State::ObjFirst {
            return self.win_value::<SKIP>(st, b, win, w, t, i, k, pos);
        }
        // `ObjFirst` or `ObjNext`.
        if b == b'"' {
            return self.tw_string::<SKIP>(true, st, w, t, i + k, pos);
        }
        if b == b'}' && st == State::ObjFirst {
            return self.win_close::<SKIP>(st, win, w, i, k, pos);
        }
        Self::decline(i + k, pos)
    }

    /// A value (or the `]` of an empty array) whose first byte `b` is at window
    /// offset `k`, read in state `st`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn win_value<'b, const SKIP: bool>(
        &mut self,
        st: State,
        b: u8,
        win: &'b Win,
        w: Window<'b>,
        t: &'b Tw,
        i: usize,
        k: usize,
        pos: &mut usize,
    ) -> Option<Next<'b>> {
        let at = w.at(i + k);
        // Conditional branches ordered by frequency rather than one jump table: they
        // are predicted from the branch history, where one indirect jump on the value's
        // first byte mispredicted badly (numbers, strings, brackets and literals follow
        // each other irregularly).
        let number = |len: usize| {
            if SKIP {
                TokenKind::Null
            } else {
                TokenKind::Number(JsonNumber::new(head(t, len)))
            }
        };
        let (kind, len) = if b.wrapping_sub(b'0') < 10 {
            let Some(len) = tw_number::<false>(t) else {
                return Self::decline(i + k, pos);
            };
            (number(len), len)
        } else if b == b'"' {
            return self.tw_string::<SKIP>(false, st, w, t, i + k, pos);
        } else if b | 0x20 == b'{' {
            // `{` or `[` (0x7B, 0x5B).
            if self.depth >= self.max_depth || self.depth >= 64 {
                return Self::decline(i + k, pos);
            }
            let obj = b == b'{';
            self.push_low(obj);
            *pos = i + k + 1;
            let kind = if obj {
                TokenKind::BeginObject
            } else {
                TokenKind::BeginArray
            };
            return Some(Ok(Some(Token { kind, offset: at })));
        } else if b == b'-' {
            let Some(len) = tw_number::<true>(t) else {
                return Self::decline(i + k, pos);
            };
            (number(len), len)
        } else if let Some(lit) = tw_literal(t) {
            lit
        } else if b == b']' && st == State::ArrFirst {
            return self.win_close::<SKIP>(st, win, w, i, k, pos);
        } else {
            return Self::decline(i + k, pos);
        };
        *pos = i + k + self.end_value(st, byte(t, len) == b',', len);
        Some(Ok(Some(Token { kind, offset: at })))
    }

    /// The fast path declines at `at` (a token start, with what precedes it
    /// consumed): the general path redoes the token, or finds the error.
    #[inline(always)]
    fn decline<'b>(at: usize, pos: &mut usize) -> Option<Next<'b>> {
        cold_path();
        *pos = at;
        None
    }

    /// Closes the current container, whose state is `st`, with the bracket at window
    /// offset `k`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn win_close<'b, const SKIP: bool>(
        &mut self,
        st: State,
        win: &'b Win,
        w: Window<'b>,
        i: usize,
        k: usize,
        pos: &mut usize,
    ) -> Option<Next<'b>> {
        if self.depth > 64 {
            return Self::decline(i + k, pos);
        }
        let base = w.at(i);
        let kind = if st.in_object() {
            TokenKind::EndObject
        } else {
            TokenKind::EndArray
        };
        let from = self.pop_low();
        let end = k + 1;
        let next = win.get(end % 64).copied().unwrap_or(0);
        *pos = i + self.end_value(from, next == b',', end);
        Some(Ok(Some(Token {
            kind,
            offset: offset(base, k),
        })))
    }

    /// A string or key whose opening quote is `t[0]`, at `i` in the window, read in
    /// state `from`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn tw_string<'b, const SKIP: bool>(
        &mut self,
        key: bool,
        from: State,
        w: Window<'b>,
        t: &'b Tw,
        i: usize,
        pos: &mut usize,
    ) -> Option<Next<'b>> {
        let Some(n) = tw_string(t) else {
            return Self::decline(i, pos);
        };
        // The body is t[1..=n] when the special byte t[n + 1] is the closing quote.
        let end = n + 2;
        let len = if key {
            // The quote and a directly following colon, in one test: whitespace
            // before the colon (or an escape, or an error) is rare enough for the
            // general path, which keeps the next position off a data dependency on
            // these bytes.
            if pair(t, n + 1) != u16::from_le_bytes(*b"\":") {
                return Self::decline(i, pos);
            }
            self.state = State::Value;
            end + 1
        } else {
            if byte(t, n + 1) != b'"' {
                return Self::decline(i, pos);
            }
            self.end_value(from, byte(t, end) == b',', end)
        };
        *pos = i + len;
        let body = head(t, n + 1).split_first().map_or(&[][..], |(_, b)| b);
        Some(Ok(Some(string_token::<SKIP>(
            key,
            JsonStr::plain(body),
            w.at(i),
        ))))
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
        self.outer = self.state;
        self.state = State::Scalar;
        *pos = w.buf.len();
        self.none(Signal::Partial(match start {
            Some(s) => Save::Fresh(s),
            None => Save::Append,
        }))
    }

    /// A string (a key if `key`) whose opening quote is at `i`.
    #[inline(always)]
    fn string<'b, const SKIP: bool>(
        &mut self,
        key: bool,
        w: Window<'b>,
        i: usize,
        pos: &mut usize,
    ) -> Next<'b> {
        // Fast path: the first special byte is the closing quote.
        let j = find_special(w.buf, i + 1);
        if w.buf.get(j) != Some(&b'"') {
            return self.str_slow::<SKIP>(w.buf, w.base, w.eof, i, j, key, pos);
        }
        *pos = self.after_string(key, w.buf, j + 1);
        let body = w.buf.get(i + 1..j).unwrap_or_default();
        Ok(Some(string_token::<SKIP>(
            key,
            JsonStr::plain(body),
            w.at(i),
        )))
    }

    /// A string starting at `i` whose plain prefix ends at `j` with something other
    /// than the closing quote (or with the window).
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn str_slow<'b, const SKIP: bool>(
        &mut self,
        buf: &'b [u8],
        base: u64,
        eof: bool,
        i: usize,
        j: usize,
        key: bool,
        pos: &mut usize,
    ) -> Next<'b> {
        let w = Window { buf, base, eof };
        self.tok_start = w.at(i);
        self.run_str::<SKIP>(w, pos, j, Some(i), key, StrState::new())
    }

    /// General string path: escapes, non-ASCII, errors, window ends.
    #[inline(always)]
    fn run_str<'b, const SKIP: bool>(
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

    /// A number at `i` that the fast scanner declined.
    #[inline(never)]
    fn num_slow<'b, const SKIP: bool>(
        &mut self,
        buf: &'b [u8],
        base: u64,
        eof: bool,
        i: usize,
        pos: &mut usize,
    ) -> Next<'b> {
        let w = Window { buf, base, eof };
        self.tok_start = w.at(i);
        let first = buf.get(i).copied().unwrap_or(b'-');
        let (st, used) = NumState::start(first);
        self.run_num::<SKIP>(w, pos, i + used, Some(i), st)
    }

    /// General number path.
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
                let Some(s) = start else {
                    return self.none(Signal::NumTail { end, offset });
                };
                let text = w.buf.get(s..end).unwrap_or_default();
                let kind = if SKIP {
                    TokenKind::Null
                } else {
                    TokenKind::Number(JsonNumber::new(text))
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
                    self.outer = self.state;
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

    /// Whether nesting level `d` is an object.
    #[inline(always)]
    fn level_is_object(&self, d: usize) -> bool {
        if d < 64 {
            self.low & (1u64 << d) != 0
        } else {
            self.deep
                .get(d / 64 - 1)
                .is_some_and(|word| word & (1u64 << (d % 64)) != 0)
        }
    }

    /// Opens a container (the depth limit is already checked).
    #[inline(always)]
    fn push(&mut self, obj: bool) {
        let d = self.depth;
        let bit = 1u64 << (d % 64);
        let word = if d < 64 {
            &mut self.low
        } else {
            match self.deep.get_mut(d / 64 - 1) {
                Some(word) => word,
                None => &mut self.low,
            }
        };
        if obj {
            *word |= bit;
        } else {
            *word &= !bit;
        }
        self.entered(obj);
    }

    /// [`push`](Self::push) for the fast path: only below depth 64.
    #[inline(always)]
    fn push_low(&mut self, obj: bool) {
        let d = self.depth % 64;
        self.low = (self.low & !(1u64 << d)) | (u64::from(obj) << d);
        self.entered(obj);
    }

    #[inline(always)]
    fn entered(&mut self, obj: bool) {
        self.depth += 1;
        self.state = if obj {
            State::ObjFirst
        } else {
            State::ArrFirst
        };
    }

    /// Leaves the current container; returns the state its parent read it in (for
    /// [`after_value_in`](Self::after_value_in)).
    #[inline(always)]
    fn pop(&mut self) -> State {
        let d = self.depth.saturating_sub(1);
        self.depth = d;
        // The parent container (if any) is at level d - 1.
        Self::value_state(d.checked_sub(1).map(|p| self.level_is_object(p)))
    }

    /// [`pop`](Self::pop) for the fast path: only up to depth 64.
    #[inline(always)]
    fn pop_low(&mut self) -> State {
        let d = self.depth.saturating_sub(1);
        self.depth = d;
        Self::value_state(d.checked_sub(1).map(|p| self.low & (1u64 << (p % 64)) != 0))
    }

    /// The state in which a value is read in a container (`Some(true)` for an object)
    /// or at the top level (`None`), as far as what follows the value goes.
    #[inline(always)]
    const fn value_state(parent_obj: Option<bool>) -> State {
        match parent_obj {
            None => State::Start,
            Some(true) => State::Value,
            Some(false) => State::ArrNext,
        }
    }

    /// Closes the current container at `i`, where the caller has found its
    /// closing bracket, as if every token up to it had been read: the state is
    /// then the one after that bracket. Returns the new position.
    pub(crate) fn close_at(&mut self, buf: &[u8], i: usize) -> usize {
        if self.state == State::Failed || self.depth == 0 {
            return i;
        }
        let from = self.pop();
        self.after_value_in(from, buf, i + 1)
    }

    /// Closes the current container with `b` at `i`, or fails if `b` does not close it
    /// (`CHECK`: `b` was not yet checked; the caller is in [`State::Comma`]).
    #[inline(always)]
    fn close<'b, const CHECK: bool>(
        &mut self,
        b: u8,
        w: Window<'b>,
        i: usize,
        pos: &mut usize,
    ) -> Next<'b> {
        let obj = self.state.in_object();
        if CHECK && b != if obj { b'}' } else { b']' } {
            let kind = if obj {
                ErrorKind::ExpectedCommaOrObjectEnd
            } else {
                ErrorKind::ExpectedCommaOrArrayEnd
            };
            return self.error(w.err(kind, i));
        }
        let from = self.pop();
        *pos = self.after_value_in(from, w.buf, i + 1);
        let kind = if obj {
            TokenKind::EndObject
        } else {
            TokenKind::EndArray
        };
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
