//! How every command words a file it could not load, so that `inspect`,
//! `convert`, `textures` and `pose` say the same thing about the same file.
//!
//! A file that is no model at all gets one line in one style:
//! `not a model: FILE (empty file)`, `(unknown format; starts 52 41 …)`
//! (bytes as hex: a file may hold anything, so no Rust escapes), `(a
//! folder …)`, or for a RARC archive how to name a member
//! (`ARCHIVE:member/path`, see `members`). Any other failure keeps the
//! library's code, location and message, `FILE: FORMAT: FAILED CODE: …`;
//! a JSON syntax error also gets its line and column beside the byte
//! offset the library gives (the CLI has the bytes, the library no lines).

use std::fmt::Write as _;
use std::path::Path;

use scenedec::error::Location;
use scenedec::sniff::{Kind, sniff};
use scenedec::{Error, ErrorCode, RarcLimits};

/// Bytes of a file shown in an unknown-format message.
const SHOWN_BYTES: usize = 8;

/// A failed file as every command reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The error code (`IO` for a file that could not be read).
    pub code: String,
    /// Where in the file, empty when nowhere.
    pub at: String,
    /// What went wrong; for a file that is no model, the whole line.
    pub message: String,
    /// The message is a `not a model: …` line, printed as it is.
    pub not_model: bool,
}

impl Failure {
    /// The human line: `not a model: …`, or `FILE: FORMAT: FAILED CODE: MESSAGE (at AT)`.
    pub fn human(&self, name: &str, format: &str) -> String {
        if self.not_model {
            return self.message.clone();
        }
        let at = if self.at.is_empty() {
            String::new()
        } else {
            format!(" (at {})", self.at)
        };
        format!(
            "{name}: {format}: FAILED {}: {}{at}",
            self.code, self.message
        )
    }
}

/// `not a model: NAME (WHY)`.
fn not_model(code: &str, name: &str, why: &str) -> Failure {
    Failure {
        code: code.to_string(),
        at: String::new(),
        message: format!("not a model: {name} ({why})"),
        not_model: true,
    }
}

/// The report of a load of `bytes` (the file `name`) that failed with `e`.
pub fn of_load(name: &str, bytes: &[u8], e: &Error, limits: &RarcLimits) -> Failure {
    let code = e.code().as_str();
    // A file refused unread (over maxFileBytes) has no bytes either: only
    // the errors an empty file gets make it "empty".
    let format_error = matches!(
        e.code(),
        ErrorCode::NotJson | ErrorCode::UnknownFormat | ErrorCode::NotBbmodel
    );
    if bytes.is_empty() && format_error {
        return not_model(code, name, "empty file");
    }
    match (e.code(), sniff(bytes)) {
        (ErrorCode::UnknownFormat, Kind::Unknown) => {
            return not_model(code, name, &unknown_format(bytes));
        }
        (ErrorCode::ArchiveNotModel, _) | (_, Kind::Rarc | Kind::Yaz0Rarc) => {
            return not_model(code, name, &archive_hint(name, bytes, limits));
        }
        _ => {}
    }
    let mut message = e.message().to_string();
    if let Location::Binary { offset, .. } = e.at()
        && matches!(sniff(bytes), Kind::Bbmodel)
        && let Some((line, column)) = line_column(bytes, *offset)
    {
        let _ = write!(message, " (line {line}, column {column})");
    }
    Failure {
        code: code.to_string(),
        at: e.at().to_string(),
        message,
        not_model: false,
    }
}

/// The report of a file that could not be read at all.
pub fn of_read(name: &str, path: &Path, e: &std::io::Error) -> Failure {
    if path.is_dir() {
        return not_model(
            "IO",
            name,
            "a folder: convert and textures take folders; inspect and pose take files",
        );
    }
    Failure {
        code: "IO".to_string(),
        at: String::new(),
        message: format!("cannot read: {e}"),
        not_model: false,
    }
}

/// `unknown format; starts 52 41 52 43 00 …`: the first bytes as hex.
fn unknown_format(bytes: &[u8]) -> String {
    let head = bytes.get(..SHOWN_BYTES).unwrap_or(bytes);
    let mut text = String::from("unknown format; starts");
    for b in head {
        let _ = write!(text, " {b:02x}");
    }
    if bytes.len() > head.len() {
        text.push_str(" …");
    }
    text
}

/// What an archive given as a model says: which members are models and how
/// to name one.
fn archive_hint(name: &str, bytes: &[u8], limits: &RarcLimits) -> String {
    match crate::members::model_members(bytes, limits) {
        Ok(models) if !models.is_empty() => format!(
            "a RARC archive with {} model{}: name one as {name}:{}; `scenedec inspect {name}` lists them{}",
            models.len(),
            if models.len() == 1 { "" } else { "s" },
            models[0].0,
            ", and `scenedec convert` converts them all"
        ),
        Ok(_) => format!(
            "a RARC archive with no model in it; `scenedec inspect {name}` lists its members"
        ),
        Err(e) => format!(
            "a RARC archive, unreadable: {e}{}",
            crate::out::at_suffix(&e)
        ),
    }
}

/// The 1-based line and column (in characters) of byte `offset` of `text`;
/// `None` past its end.
pub fn line_column(text: &[u8], offset: u64) -> Option<(usize, usize)> {
    let offset = usize::try_from(offset).ok()?;
    let before = text.get(..offset)?;
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at + 1);
    let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
    Some((line, column))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_from_1_in_characters() {
        let text = "{\n  \"é\": [1,,2]\n}".as_bytes();
        assert_eq!(line_column(text, 0), Some((1, 1)));
        assert_eq!(line_column(text, 2), Some((2, 1)));
        // `,,`: the second comma is byte 13 (é is two bytes), column 11.
        assert_eq!(text[13], b',');
        assert_eq!(line_column(text, 13), Some((2, 11)));
        assert_eq!(line_column(text, text.len() as u64), Some((3, 2)));
        assert_eq!(line_column(text, text.len() as u64 + 1), None);
    }

    #[test]
    fn unknown_bytes_are_shown_as_hex_never_escaped() {
        assert_eq!(
            unknown_format(b"RARC\0\x01\x02\x03\x04"),
            "unknown format; starts 52 41 52 43 00 01 02 03 …"
        );
        assert_eq!(unknown_format(b"\n\""), "unknown format; starts 0a 22");
    }
}
