//! The open containers: one bit per nesting level (object or array), the
//! first 64 in a word and the rest in a fixed stack, and the state a close
//! returns to.

use super::*;

impl Core {
    /// Whether nesting level `d` is an object.
    #[inline(always)]
    pub(super) fn level_is_object(&self, d: usize) -> bool {
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
    pub(super) fn push(&mut self, obj: bool) {
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
    pub(super) fn push_low(&mut self, obj: bool) {
        let d = self.depth % 64;
        self.low = (self.low & !(1u64 << d)) | (u64::from(obj) << d);
        self.entered(obj);
    }

    #[inline(always)]
    pub(super) fn entered(&mut self, obj: bool) {
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
    pub(super) fn pop(&mut self) -> State {
        let d = self.depth.saturating_sub(1);
        self.depth = d;
        // The parent container (if any) is at level d - 1.
        Self::value_state(d.checked_sub(1).map(|p| self.level_is_object(p)))
    }

    /// [`pop`](Self::pop) for the fast path: only up to depth 64.
    #[inline(always)]
    pub(super) fn pop_low(&mut self) -> State {
        let d = self.depth.saturating_sub(1);
        self.depth = d;
        Self::value_state(d.checked_sub(1).map(|p| self.low & (1u64 << (p % 64)) != 0))
    }

    /// The state in which a value is read in a container (`Some(true)` for an object)
    /// or at the top level (`None`), as far as what follows the value goes.
    #[inline(always)]
    pub(super) const fn value_state(parent_obj: Option<bool>) -> State {
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
    pub(super) fn close<'b, const CHECK: bool>(
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
