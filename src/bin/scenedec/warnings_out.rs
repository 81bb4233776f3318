//! How the CLI prints a load's warnings: grouped as the library keeps them
//! (one entry per code, subject and message, with a count).

use scenedec::Warnings;

use crate::json_out::{key, string};

/// One line per group, each `\n  warning CODE ×N on SUBJECT (first at …): message`,
/// then the count of warnings past the kept groups.
pub fn human(warnings: &Warnings) -> String {
    let mut s = String::new();
    for w in warnings.as_slice() {
        s.push_str(&format!("\n  warning {w}"));
    }
    if warnings.dropped() > 0 {
        s.push_str(&format!(
            "\n  ({} more warnings in groups past the first {} not kept)",
            warnings.dropped(),
            scenedec::error::MAX_WARNINGS
        ));
    }
    s
}

/// `, 2 warning groups (--verbose prints them)` for a one-line report;
/// empty when there are none.
pub fn summary(warnings: &Warnings) -> String {
    match warnings.as_slice().len() {
        0 => String::new(),
        1 => ", 1 warning group (--verbose prints it)".to_owned(),
        groups => format!(", {groups} warning groups (--verbose prints them)"),
    }
}

/// `"KEY": [{"code", "subject", "count", "at", "message"}…], "KEY_not_kept": N`
/// (docs/cli.md, warnings).
pub fn json(out: &mut String, first: &mut bool, name: &str, warnings: &Warnings) {
    key(out, first, name);
    out.push('[');
    for (i, w) in warnings.as_slice().iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let mut f = true;
        out.push('{');
        key(out, &mut f, "code");
        string(out, w.code().as_str());
        key(out, &mut f, "subject");
        string(out, w.subject());
        key(out, &mut f, "count");
        out.push_str(&w.count().to_string());
        key(out, &mut f, "at");
        string(out, &w.at().to_string());
        key(out, &mut f, "message");
        string(out, w.message());
        out.push('}');
    }
    out.push(']');
    key(out, first, &format!("{name}_not_kept"));
    out.push_str(&warnings.dropped().to_string());
}
