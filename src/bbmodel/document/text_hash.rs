//! Text as JavaScript compares it: a string's hash over its decoded text,
//! and the string that starts at a stored offset, so that tables of hashes
//! in scratch can be confirmed against the document's own strings.

use crate::bbmodel::document::Document;
use crate::json::{JsonStr, TokenKind};

/// The JSON string whose body starts at byte `start` (after its quote).
pub(crate) fn string_at<'a>(doc: &Document<'a>, start: usize) -> Option<JsonStr<'a>> {
    let from = start.checked_sub(1)?;
    let mut t = crate::json::Tokenizer::new(doc.bytes.get(from..)?, 1);
    match t.next_token().ok()??.kind {
        TokenKind::String(s) | TokenKind::Key(s) => Some(s),
        _ => None,
    }
}

/// FNV-1a over a string's decoded text (JavaScript compares decoded keys:
/// `"a\u0062"` is `"ab"`).
pub fn text_hash(s: &JsonStr<'_>) -> u64 {
    if s.has_escapes() {
        escaped_text_hash(s)
    } else {
        fnv(s.raw_bytes())
    }
}

/// FNV-1a's offset basis.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a over `bytes`.
fn fnv(bytes: &[u8]) -> u64 {
    fnv_from(FNV_OFFSET, bytes)
}

/// FNV-1a over `bytes`, continuing from `h`.
fn fnv_from(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// [`text_hash`] of a string with escapes, hashed piece by piece as it
/// decodes (no buffer: any length hashes its decoded text). Kept out of line.
#[cold]
#[inline(never)]
fn escaped_text_hash(s: &JsonStr<'_>) -> u64 {
    let mut h = FNV_OFFSET;
    s.for_each_decoded(|piece| {
        h = fnv_from(h, piece.as_bytes());
        true
    });
    h
}
