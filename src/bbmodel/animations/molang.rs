//! Molang compiled once, at decode: every keyframe value, `blend_weight`
//! and placeholder line the sampler plays is normalized and compiled into
//! the scene's `molang_programs`, `molang_nodes`, `molang_text` and
//! `molang_placeholders` (docs/scene-format.md, "Molang keyframes").
//!
//! The count pass tallies what the fill writes ([`MolangTally`]): a text's
//! normalized bytes are counted as it is decoded in pieces, its nodes by
//! compiling it in a [`MEASURED_TEXT`]-byte stack buffer. A longer text
//! (`maxMolangChars` allows up to 4096 characters, more with `--limit`) is
//! counted by [`node_bound`], so the plan is exact for every text up to
//! that size and an upper bound past it; the fill ([`MolangWriter`])
//! compiles every text in place in the arena, whatever its size. A text
//! past `maxMolangChars`, or one that meets a Molang limit while compiling,
//! takes no nodes and plays 0, as before.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "sizes of texts the input spells out, each below the file's length, and node counts below three per byte of them"
)]

use crate::bbmodel::layout::{index32, mismatch};
use crate::error::Error;
use crate::json::JsonStr;
use crate::molang::{
    self, MolangLimits, MolangNode, Placeholder, ProgramRecord, Source, Work, compile_placeholders,
    measure_placeholders, plan_placeholders, prepare_placeholders,
};

/// Normalized bytes of a text the count pass compiles to count its nodes
/// exactly (on the stack, with the compiler's [`Work`], in a frame of its
/// own).
pub(crate) const MEASURED_TEXT: usize = 1024;

/// Most nodes a text of `len` normalized bytes compiles to: fewer than
/// three per byte (`compile.rs`), checked by `node_bound_holds` below.
pub(crate) const fn node_bound(len: usize) -> usize {
    3 * len + 1
}

/// UTF-16 units past which `prepare` refuses a text (its own cap below
/// `maxMolangChars`).
fn max_units(limits: &MolangLimits) -> u64 {
    limits.max_chars.min(1 << 28)
}

/// A text's length as JavaScript counts it (UTF-16 units) and its
/// normalized length in bytes.
fn lengths(s: &JsonStr<'_>) -> (u64, usize) {
    let (mut units, mut len) = (0u64, 0usize);
    s.for_each_decoded(|piece| {
        units += piece.chars().map(|c| c.len_utf16() as u64).sum::<u64>();
        len += molang::text_len(piece);
        true
    });
    (units, len)
}

/// Writes `s` normalized into `out` (its normalized length).
fn normalize(s: &JsonStr<'_>, out: &mut [u8]) {
    let mut at = 0usize;
    s.for_each_decoded(|piece| {
        let n = molang::text_len(piece);
        if let Some(dest) = out.get_mut(at..at + n) {
            molang::normalize_into(piece, dest);
        }
        at += n;
        true
    });
}

/// What the Molang arrays of a scene need.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MolangTally {
    /// Program records: one per Molang value and `blend_weight`.
    pub programs: usize,
    /// Nodes of all programs, placeholders' included.
    pub nodes: usize,
    /// Normalized text bytes (programs, placeholder keys and values).
    pub text: usize,
    /// Placeholder lines.
    pub placeholders: usize,
}

impl MolangTally {
    /// Counts one text compiled into a program of its own, the compiler's
    /// open levels in `work` (or, with none, on a frame of its own).
    pub(in crate::bbmodel) fn add(
        &mut self,
        s: &JsonStr<'_>,
        limits: &MolangLimits,
        work: Option<&mut Work>,
    ) {
        self.programs += 1;
        let (units, len) = lengths(s);
        if units > max_units(limits) {
            return;
        }
        if len > MEASURED_TEXT {
            self.text += len;
            self.nodes += node_bound(len);
            return;
        }
        let nodes = match work {
            Some(work) => measured_nodes(s, len, limits, work),
            None => measured_nodes_on_stack(s, len, limits),
        };
        if let Some(n) = nodes {
            self.text += len;
            self.nodes += n;
        }
    }

    /// Counts the project's `animation_variable_placeholders` text.
    pub(in crate::bbmodel) fn add_placeholders(&mut self, s: &JsonStr<'_>, limits: &MolangLimits) {
        if s.decoded_len() <= MEASURED_TEXT {
            if let Some((entries, text, nodes)) = measured_placeholders(s, limits) {
                self.placeholders += entries;
                self.text += text;
                self.nodes += nodes;
            }
            return;
        }
        // Longer: bounded. Lines are at most one more than the newlines,
        // keys and normalized values at most the text's UTF-16 units.
        let (mut lines, mut units) = (1usize, 0usize);
        s.for_each_decoded(|piece| {
            lines += piece.bytes().filter(|b| *b == b'\n').count();
            units += piece.chars().map(char::len_utf16).sum::<usize>();
            true
        });
        self.placeholders += lines;
        self.text += units;
        self.nodes += node_bound(units) + lines;
    }
}

/// Nodes of a text of `len` ≤ [`MEASURED_TEXT`] normalized bytes; `None`
/// when it meets a Molang limit. Its own frame: only a count of Molang
/// holds the buffer.
#[inline(never)]
fn measured_nodes(
    s: &JsonStr<'_>,
    len: usize,
    limits: &MolangLimits,
    work: &mut Work,
) -> Option<usize> {
    let mut buf = [0u8; MEASURED_TEXT];
    let text = buf.get_mut(..len)?;
    normalize(s, text);
    molang::measure(&Source::normalized(text), limits, work).ok()
}

/// [`measured_nodes`] with the open levels on this frame, for the counts
/// that have no scratch (`load`'s prescan, `check_animations`).
#[inline(never)]
fn measured_nodes_on_stack(s: &JsonStr<'_>, len: usize, limits: &MolangLimits) -> Option<usize> {
    measured_nodes(s, len, limits, &mut Work::new())
}

/// Entries, text bytes and nodes of placeholders of at most
/// [`MEASURED_TEXT`] decoded bytes; `None` when a line meets a limit.
#[inline(never)]
fn measured_placeholders(s: &JsonStr<'_>, limits: &MolangLimits) -> Option<(usize, usize, usize)> {
    let mut decoded = [0u8; MEASURED_TEXT];
    let text = s.decode_into(&mut decoded).ok()?;
    let plan = plan_placeholders(text);
    let mut buf = [0u8; MEASURED_TEXT];
    let prepared = prepare_placeholders(text, buf.get_mut(..plan.text)?, limits).ok()?;
    let nodes = measure_placeholders(&prepared, limits, &mut Work::new()).ok()?;
    Some((plan.entries, plan.text, nodes))
}

/// The fill's writer of the scene's Molang arrays.
pub(in crate::bbmodel) struct MolangWriter<'o> {
    pub(in crate::bbmodel) programs: &'o mut [ProgramRecord],
    pub(in crate::bbmodel) nodes: &'o mut [MolangNode],
    pub(in crate::bbmodel) text: &'o mut [u8],
    pub(in crate::bbmodel) placeholders: &'o mut [Placeholder],
    pub(in crate::bbmodel) written: MolangTally,
    pub(in crate::bbmodel) limits: MolangLimits,
    /// The compiler's open levels (the fill's `WalkScratch`).
    pub(in crate::bbmodel) work: &'o mut Work,
}

impl MolangWriter<'_> {
    /// Compiles `s` into the next program record; returns its index.
    pub(in crate::bbmodel) fn compile(&mut self, s: &JsonStr<'_>) -> Result<u32, Error> {
        let index = self.written.programs;
        let record = self.program(s)?;
        *self.programs.get_mut(index).ok_or_else(mismatch)? = record;
        self.written.programs += 1;
        index32(index)
    }

    fn program(&mut self, s: &JsonStr<'_>) -> Result<ProgramRecord, Error> {
        let (units, len) = lengths(s);
        if units > max_units(&self.limits) {
            return Ok(ProgramRecord::EMPTY);
        }
        let (text_at, node_at) = (self.written.text, self.written.nodes);
        let text = self
            .text
            .get_mut(text_at..text_at + len)
            .ok_or_else(mismatch)?;
        normalize(s, text);
        let source = Source::normalized(text);
        let Ok(n) = molang::measure(&source, &self.limits, self.work) else {
            return Ok(ProgramRecord::EMPTY);
        };
        let nodes = self
            .nodes
            .get_mut(node_at..node_at + n)
            .ok_or_else(mismatch)?;
        let Ok(program) = molang::compile(&source, nodes, &self.limits, self.work) else {
            return Ok(ProgramRecord::EMPTY);
        };
        let record = program.record(node_at, text_at);
        self.written.text += len;
        self.written.nodes += n;
        Ok(record)
    }

    /// Compiles the project's placeholder lines (`text`, decoded); none
    /// when a line meets a Molang limit (Blockbench would read them).
    pub(in crate::bbmodel) fn compile_placeholders(&mut self, text: &str) -> Result<(), Error> {
        let plan = plan_placeholders(text);
        let (text_at, node_at) = (self.written.text, self.written.nodes);
        let buf = self
            .text
            .get_mut(text_at..text_at + plan.text)
            .ok_or_else(mismatch)?;
        let Ok(prepared) = prepare_placeholders(text, buf, &self.limits) else {
            return Ok(());
        };
        let Ok(n) = measure_placeholders(&prepared, &self.limits, self.work) else {
            return Ok(());
        };
        let at = self.written.placeholders;
        let entries = self
            .placeholders
            .get_mut(at..at + plan.entries)
            .ok_or_else(mismatch)?;
        let nodes = self
            .nodes
            .get_mut(node_at..node_at + n)
            .ok_or_else(mismatch)?;
        let Ok(compiled) = compile_placeholders(&prepared, entries, nodes, &self.limits, self.work)
        else {
            return Ok(());
        };
        let count = compiled.len();
        for entry in self
            .placeholders
            .get_mut(at..at + count)
            .unwrap_or_default()
        {
            *entry = entry.moved(node_at, text_at);
        }
        self.written.placeholders += count;
        self.written.text += plan.text;
        self.written.nodes += n;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::XorShift;
    use std::string::String;

    #[test]
    fn node_bound_holds() {
        // node_bound's claim, over random texts of the characters molangjs
        // splits on (where nodes are densest) and short names and numbers.
        let pieces = [
            ";",
            ",",
            "(",
            ")",
            "{",
            "}",
            "!",
            "-",
            "+",
            "*",
            "/",
            "?",
            ":",
            "??",
            "&&",
            "||",
            "==",
            "<",
            "=",
            "1",
            "a",
            "v.x",
            "f(",
            "math.sin(",
            "loop(",
            "return",
            "'s'",
            "q.all(",
            "break",
            "t.a=",
        ];
        let limits = MolangLimits {
            max_depth: 10_000,
            max_statements: 1_000_000,
            ..MolangLimits::default()
        };
        let mut rng = XorShift(0x3900_0001);
        let mut worst = 0.0f64;
        for _ in 0..20_000 {
            let mut s = String::new();
            for _ in 0..1 + rng.below(40) {
                s.push_str(pieces[rng.below(pieces.len() as u64) as usize]);
            }
            let mut buf = std::vec![0u8; molang::text_len(&s)];
            let Ok(source) = molang::prepare(&s, &mut buf, &limits) else {
                continue;
            };
            if let Ok(n) = molang::measure(&source, &limits, &mut Work::new()) {
                assert!(n <= node_bound(buf.len()), "{s:?}: {n} nodes");
                worst = worst.max(n as f64 / buf.len().max(1) as f64);
            }
        }
        assert!(worst > 1.0, "the texts reach past one node a byte");
    }
}
