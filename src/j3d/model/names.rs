//! Names: borrowed from the file when they are UTF-8, else copied lossily
//! (U+FFFD for bad bytes) into the scene's text pool.

use super::{Model, arena_mismatch, sum};
use crate::error::Error;
use crate::scene::{TextRef, TextSource};

impl Model<'_> {
    /// Text-pool bytes for names that are not UTF-8 (stored lossily).
    pub(super) fn pool_bytes(&self) -> Result<usize, Error> {
        let mut total = 0usize;
        for j in 0..self.jnt1.len() {
            total = total.saturating_add(lossy_len(self.jnt1.joint(j)?.name.0));
        }
        if let Some(mat3) = &self.mat3 {
            for m in 0..mat3.len() {
                total = total.saturating_add(lossy_len(mat3.material(m)?.name()?.0));
            }
        }
        if let Some(tex1) = &self.tex1 {
            for t in 0..tex1.len() {
                total = total.saturating_add(lossy_len(tex1.texture(t)?.name.0));
            }
        }
        Ok(total)
    }
}

/// Writes names that are not UTF-8 into the text pool, lossily.
pub(super) struct Pool<'p> {
    pub(super) bytes: &'p mut [u8],
    pub(super) len: usize,
}

impl Pool<'_> {
    /// A text span for name bytes at `file_offset`: the input itself when it
    /// is UTF-8, else a lossy copy (U+FFFD for bad bytes) in the pool.
    pub(super) fn name(&mut self, (bytes, file_offset): (&[u8], usize)) -> Result<TextRef, Error> {
        if core::str::from_utf8(bytes).is_ok() {
            return TextRef::new(TextSource::Input, file_offset, bytes.len())
                .ok_or_else(arena_mismatch);
        }
        let start = self.len;
        for chunk in bytes.utf8_chunks() {
            for piece in [
                chunk.valid(),
                if chunk.invalid().is_empty() {
                    ""
                } else {
                    "\u{FFFD}"
                },
            ] {
                let end = sum(self.len, piece.len())?;
                self.bytes
                    .get_mut(self.len..end)
                    .ok_or_else(arena_mismatch)?
                    .copy_from_slice(piece.as_bytes());
                self.len = end;
            }
        }
        TextRef::new(TextSource::Pool, start, self.len.saturating_sub(start))
            .ok_or_else(arena_mismatch)
    }
}

impl Pool<'_> {
    /// A copy of `text` in the pool (names that are not in the file, such
    /// as an attached animation's file name).
    pub(super) fn copy(&mut self, text: &str) -> Result<TextRef, Error> {
        let start = self.len;
        let end = sum(start, text.len())?;
        self.bytes
            .get_mut(start..end)
            .ok_or_else(arena_mismatch)?
            .copy_from_slice(text.as_bytes());
        self.len = end;
        TextRef::new(TextSource::Pool, start, text.len()).ok_or_else(arena_mismatch)
    }
}

/// Pool bytes a name needs: 0 when it is UTF-8, else its lossy length.
fn lossy_len(bytes: &[u8]) -> usize {
    if core::str::from_utf8(bytes).is_ok() {
        return 0;
    }
    bytes
        .utf8_chunks()
        .map(|c| {
            c.valid()
                .len()
                .saturating_add(if c.invalid().is_empty() { 0 } else { 3 })
        })
        .sum()
}
