//! One expression from text to a [`Program`]: normalize into caller bytes,
//! count its nodes, compile into caller nodes.

use super::compile::Builder;
use super::error::{MolangError, MolangErrorCode};
use super::limits::MolangLimits;
use super::node::{MolangNode, Program};
use super::text;
use super::work::Work;

/// An expression's text as molangjs reads it, in caller memory.
#[derive(Clone, Copy, Debug)]
pub struct Source<'s, 't> {
    /// The expression as written.
    pub(crate) original: &'s str,
    /// Lowercased, JavaScript whitespace removed (`text.rs`).
    pub(crate) text: &'t [u8],
}

impl<'t> Source<'static, 't> {
    /// Text already normalized (lowercased, whitespace removed) and
    /// checked against `maxMolangChars`: errors then carry positions in it.
    pub fn normalized(text: &'t [u8]) -> Self {
        Source { original: "", text }
    }
}

/// Bytes [`prepare`] needs for `src`.
pub fn text_len(src: &str) -> usize {
    text::normalized_len(src)
}

/// Checks `src` against `maxMolangChars` and writes its normalized text
/// into `buf`, which must be [`text_len`] bytes.
pub fn prepare<'s, 't>(
    src: &'s str,
    buf: &'t mut [u8],
    limits: &MolangLimits,
) -> Result<Source<'s, 't>, MolangError> {
    // Characters as JavaScript counts them (UTF-16 units).
    let chars: usize = src.chars().map(char::len_utf16).sum();
    // Positions are u32 inside a program (compile.rs): 2^30 bytes is the
    // most any limit lets through.
    let max_chars = limits.max_chars.min(1 << 28);
    if chars as u64 > max_chars {
        let at = src
            .char_indices()
            .scan(0u64, |n, (i, c)| {
                *n = n.saturating_add(c.len_utf16() as u64);
                Some((i, *n))
            })
            .find(|(_, n)| *n > max_chars)
            .map_or(0, |(i, _)| i);
        return Err(MolangError::new(
            MolangErrorCode::TooLong,
            at,
            "a shorter expression (maxMolangChars)",
        ));
    }
    if buf.len() != text::normalized_len(src) {
        return Err(MolangError::new(
            MolangErrorCode::WrongPlan,
            0,
            "a text buffer of text_len bytes",
        ));
    }
    text::normalize(src, buf);
    Ok(Source {
        original: src,
        text: buf,
    })
}

/// Nodes [`compile`] needs for `source`: exactly as many as it writes.
/// `work` holds the open levels (any contents).
pub fn measure(
    source: &Source<'_, '_>,
    limits: &MolangLimits,
    work: &mut Work,
) -> Result<usize, MolangError> {
    let mut b = Builder::new(None, &mut work.open, *limits);
    b.expr(source.text, 0, source.text.len())
        .map_err(|e| at_original(source, e))?;
    Ok(b.len)
}

/// Compiles `source` into `nodes` ([`measure`] of them); `work` holds the
/// open levels (any contents).
pub fn compile<'a>(
    source: &Source<'_, 'a>,
    nodes: &'a mut [MolangNode],
    limits: &MolangLimits,
    work: &mut Work,
) -> Result<Program<'a>, MolangError> {
    let planned = nodes.len();
    let mut b = Builder::new(Some(&mut *nodes), &mut work.open, *limits);
    let root = b
        .expr(source.text, 0, source.text.len())
        .map_err(|e| at_original(source, e))?;
    let (len, randomness, assignments) = (b.len, b.randomness, b.assignments);
    if len != planned {
        return Err(MolangError::new(
            MolangErrorCode::WrongPlan,
            0,
            "a node array of the planned length",
        ));
    }
    Ok(Program {
        nodes,
        text: source.text,
        root,
        randomness,
        assignments,
    })
}

/// Moves an error's position from the normalized text to the text as written.
fn at_original(source: &Source<'_, '_>, mut e: MolangError) -> MolangError {
    if source.original.is_empty() {
        return e;
    }
    e.offset = text::original_offset(source.original, e.offset);
    e
}

/// Writes `piece` normalized into `out` (exactly [`text_len`] of it):
/// pieces of one text written one after the other normalize the whole.
pub fn normalize_into(piece: &str, out: &mut [u8]) {
    text::normalize(piece, out);
}
