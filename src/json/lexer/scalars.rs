//! The general machine's scalars: strings, numbers and literals lexed to
//! their end, or kept as lexer state when the window ends inside one.

use super::*;

impl Core {
    /// Enters [`State::Scalar`]: the window ended inside a string or number.
    #[inline(always)]
    pub(super) fn partial<'b>(
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
    pub(super) fn string<'b, const SKIP: bool>(
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
    pub(super) fn str_slow<'b, const SKIP: bool>(
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
    pub(super) fn run_str<'b, const SKIP: bool>(
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
    pub(super) fn num_slow<'b, const SKIP: bool>(
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
    pub(super) fn run_num<'b, const SKIP: bool>(
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
    pub(super) fn run_lit<'b>(
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
}
