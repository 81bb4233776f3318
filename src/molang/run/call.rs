//! Calls, `name(args)`: their arguments read and compared, then the
//! query functions molangjs defines or a placeholder line.

use super::values::{Operand, static_operand};
use super::{ALL, ANY, APPROX, AWAITING, Level, Next, Run, Step};
use crate::molang::call_key::{self, Arg, MAX_KEY_ARGS};
use crate::molang::node::{Name, Program};

impl<'a> Run<'_, '_, '_, 'a> {
    /// `name(args)`: every argument is read first, as molangjs maps them;
    /// then the four query functions molangjs defines, a placeholder of
    /// the same name, or one keyed by the call (Blockbench 5:
    /// `name(1,'a')`), or 0 (Blockbench's camera and bone functions: no
    /// camera or bones here). The first [`MAX_KEY_ARGS`] numbers are held;
    /// strings are read again from their nodes.
    #[inline(never)]
    pub(super) fn call(
        &mut self,
        level: &mut Level,
        operand: Option<f64>,
        p: &Program<'a>,
        name: &Name,
        first: u32,
        count: u32,
    ) -> Step<Next> {
        let mut flags = match operand {
            None => {
                self.hold(0.0)?;
                ALL | APPROX
            }
            Some(_) => u32::try_from(self.held_at(level.base, 0).to_bits()).unwrap_or(0),
        };
        if flags & AWAITING != 0 {
            return Ok(Next::Close(operand.unwrap_or(0.0)));
        }
        let mut value = operand;
        let outcome = self.arguments(level, &mut value, p, first, count, &mut flags);
        if let Some(slot) = self.values.get_mut(usize::from(level.base)) {
            *slot = f64::from_bits(u64::from(flags));
        }
        if let Some(next) = outcome? {
            return Ok(next);
        }
        let text = p.text;
        let bool01 = |x: bool| if x { 1.0 } else { 0.0 };
        if name.is(text, b"query.in_range") {
            // undefined compares false.
            if count < 3 {
                return Ok(Next::Close(0.0));
            }
            let v = self.arg(p, level.base, first, 0).number();
            let lo = self.arg(p, level.base, first, 1).number();
            let hi = self.arg(p, level.base, first, 2).number();
            return Ok(Next::Close(bool01(v <= hi && v >= lo)));
        }
        if name.is(text, b"query.all") {
            return Ok(Next::Close(bool01(flags & ALL != 0)));
        }
        if name.is(text, b"query.any") {
            return Ok(Next::Close(bool01(flags & ANY != 0)));
        }
        if name.is(text, b"query.approx_eq") {
            return Ok(Next::Close(bool01(flags & APPROX != 0)));
        }
        let line = match self.ctx.placeholders.find_index(name, text) {
            Some(line) => Some(line),
            None => self.keyed(p, level.base, name, first, count),
        };
        Ok(match line {
            Some(line) => {
                if let Some(slot) = self.values.get_mut(usize::from(level.base)) {
                    *slot = f64::from_bits(u64::from(flags | AWAITING));
                }
                Next::Placeholder(line)
            }
            None => Next::Close(0.0),
        })
    }

    /// Reads a call's arguments from `level.k` on, `value` the one just
    /// read: holds the first [`MAX_KEY_ARGS`] numbers and folds each into
    /// the comparison `flags`; `Some` to read one that is no string.
    fn arguments(
        &mut self,
        level: &mut Level,
        value: &mut Option<f64>,
        p: &Program<'a>,
        first: u32,
        count: u32,
        flags: &mut u32,
    ) -> Step<Option<Next>> {
        while level.k < count {
            let i = first.saturating_add(level.k);
            let x = match value.take() {
                Some(v) => Operand::Num(v),
                None => match static_operand(p, i) {
                    Ok(s) => Operand::Str(s),
                    Err(target) => return Ok(Some(Next::Read(target))),
                },
            };
            if (level.k as usize) < MAX_KEY_ARGS {
                self.hold(x.number_or_zero())?;
            }
            if level.k > 0 {
                let first_arg = self.arg(p, level.base, first, 0);
                if !x.strict_eq(first_arg) {
                    *flags &= !ALL;
                }
                if x.loose_eq(first_arg) {
                    *flags |= ANY;
                }
                let d = libm::fabs(first_arg.number() - x.number());
                if !(d <= 0.000_000_1 || d.is_nan()) {
                    *flags &= !APPROX;
                }
            }
            level.k += 1;
        }
        Ok(None)
    }

    /// Argument `k` (below [`MAX_KEY_ARGS`]) of a call whose arguments
    /// start at item `first`: its text if a string, else its held number.
    fn arg(&self, p: &Program<'a>, base: u16, first: u32, k: u32) -> Operand<'a> {
        match static_operand(p, first.saturating_add(k)) {
            Ok(s) => Operand::Str(s),
            // After the flags.
            Err(_) => Operand::Num(self.held_at(base, k as usize + 1)),
        }
    }

    /// The placeholder line keyed by this call and its arguments (the
    /// latest), if any: a call of more than [`MAX_KEY_ARGS`] matches none.
    #[inline(never)]
    fn keyed(
        &self,
        p: &Program<'a>,
        base: u16,
        name: &Name,
        first: u32,
        count: u32,
    ) -> Option<usize> {
        let n = count as usize;
        if n > MAX_KEY_ARGS {
            return None;
        }
        let mut args = [Arg::Num(0.0); MAX_KEY_ARGS];
        for (k, slot) in (0u32..).zip(args.iter_mut().take(n)) {
            *slot = match self.arg(p, base, first, k) {
                Operand::Num(v) => Arg::Num(v),
                Operand::Str(s) => Arg::Str(s),
            };
        }
        let args = args.get(..n)?;
        let placeholders = self.ctx.placeholders;
        placeholders
            .latest_first_indexed()
            .find(|(_, e)| call_key::matches(e.key_parts(), name.parts(p.text), args))
            .map(|(line, _)| line)
    }
}
