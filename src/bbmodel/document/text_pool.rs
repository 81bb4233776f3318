//! Names in the scene: spans of the input when a string has no escapes,
//! decoded copies in the scene's text pool otherwise.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "lengths of text held in fixed buffers or spans of the input, each end checked against its buffer before use"
)]

use crate::bbmodel::layout::mismatch;
use crate::error::Error;
use crate::json::JsonStr;
use crate::scene::{TextRef, TextSource};

/// Places strings in the scene: spans of the input when unescaped, decoded
/// copies in the text pool otherwise.
pub(in crate::bbmodel) struct Pool<'p> {
    pub(in crate::bbmodel) bytes: &'p mut [u8],
    pub(in crate::bbmodel) len: usize,
}

impl Pool<'_> {
    /// `text` copied into the pool (names the file does not spell).
    pub(in crate::bbmodel) fn literal(&mut self, text: &str) -> Result<TextRef, Error> {
        let end = self.len + text.len();
        let out = self.bytes.get_mut(self.len..end).ok_or_else(mismatch)?;
        out.copy_from_slice(text.as_bytes());
        let start = self.len;
        self.len = end;
        TextRef::new(TextSource::Pool, start, text.len()).ok_or_else(mismatch)
    }

    pub(in crate::bbmodel) fn text(
        &mut self,
        document: &[u8],
        s: &JsonStr<'_>,
    ) -> Result<TextRef, Error> {
        if !s.has_escapes() {
            let start = (s.raw_bytes().as_ptr() as usize).wrapping_sub(document.as_ptr() as usize);
            return TextRef::new(TextSource::Input, start, s.raw_bytes().len())
                .ok_or_else(mismatch);
        }
        let end = self.len + s.decoded_len();
        let out = self.bytes.get_mut(self.len..end).ok_or_else(mismatch)?;
        s.decode_into(out).map_err(|_| mismatch())?;
        let start = self.len;
        self.len = end;
        TextRef::new(TextSource::Pool, start, end - start).ok_or_else(mismatch)
    }
}

/// Bytes a name needs in the text pool: its decoded length when it has
/// escapes (a plain name is a span of the input and needs none).
pub(in crate::bbmodel) fn escaped_len(name: &Option<JsonStr<'_>>) -> usize {
    name.filter(|n| n.has_escapes())
        .map_or(0, |n| n.decoded_len())
}
