//! The window fast path: the common valid tokens read from a fixed-size
//! window of the input ([`WIN`] bytes ahead), built in registers, handing
//! anything else over to the general machine at the token's start.

use super::*;

/// Bytes ahead of the position that the window fast path ([`Core::step`]) needs: a
/// token may start up to [`TOKEN_START_LIMIT`] bytes in (after whitespace and a
/// separator), and its own [`Tw`] window lies within this one.
pub(super) const WIN: usize = TOKEN_START_LIMIT + TW;
/// A token start found further into the window than this goes to the general path.
pub(super) const TOKEN_START_LIMIT: usize = 32;
/// Bytes of the token window. A token that the fast path handles (a number of at
/// most 40 bytes, a string whose body's first special byte is among its first
/// [`STR_SCAN`] bytes, a literal) and the byte after it lie in the first 64 of them;
/// sixteen-byte blocks are read at offsets below 64.
pub(super) const TW: usize = 72;
/// Body bytes of a string that the fast path scans, in three blocks of sixteen (a UUID
/// fits).
pub(super) const STR_SCAN: usize = 48;

pub(super) type Win = [u8; WIN];
pub(super) type Tw = [u8; TW];

/// The token window at offset `k` (< [`TOKEN_START_LIMIT`]) of the window.
#[inline(always)]
pub(super) fn token_window(win: &Win, k: usize) -> Option<&Tw> {
    // In bounds by construction: (k % 32) + 72 <= 104.
    win.split_at(k % TOKEN_START_LIMIT).1.first_chunk::<TW>()
}

/// The byte at offset `k` (< 64) of a token window.
#[inline(always)]
pub(super) fn byte(t: &Tw, k: usize) -> u8 {
    t.get(k % 64).copied().unwrap_or(0)
}

/// The first `n` (< 64) bytes of a token window.
#[inline(always)]
pub(super) fn head(t: &Tw, n: usize) -> &[u8] {
    t.split_at(n % 64).0
}

#[inline(always)]
pub(super) fn offset(base: u64, k: usize) -> u64 {
    base.saturating_add(k as u64)
}

/// The first non-whitespace offset at or after `k` (< [`TOKEN_START_LIMIT`]) in the
/// window, or `None` if the run goes on past [`TOKEN_START_LIMIT`].
///
/// Byte by byte on purpose: indentation runs are short and regular, so the loop's
/// branches predict well and the next token's position is known speculatively, while
/// a word-at-a-time scan would put its whole latency on the critical path.
#[inline(always)]
pub(super) fn win_ws(win: &Win, mut k: usize) -> Option<usize> {
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
pub(super) fn tw_number<const NEG: bool>(t: &Tw) -> Option<usize> {
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
pub(super) fn tw_literal(t: &Tw) -> Option<(TokenKind<'static>, usize)> {
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
pub(super) fn tw_string(t: &Tw) -> Option<usize> {
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
pub(super) fn pair(t: &Tw, k: usize) -> u16 {
    u16::from_le_bytes([byte(t, k), byte(t, k + 1)])
}

impl Core {
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
    pub(super) fn step<'b, const SKIP: bool>(
        &mut self,
        w: Window<'b>,
        pos: &mut usize,
    ) -> Option<Next<'b>> {
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
    pub(super) fn win_value<'b, const SKIP: bool>(
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
    pub(super) fn decline<'b>(at: usize, pos: &mut usize) -> Option<Next<'b>> {
        cold_path();
        *pos = at;
        None
    }

    /// Closes the current container, whose state is `st`, with the bracket at window
    /// offset `k`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn win_close<'b, const SKIP: bool>(
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
    pub(super) fn tw_string<'b, const SKIP: bool>(
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
}
