//! A minimal JSON writer for `inspect --json`: objects, arrays, escaped strings.

use std::fmt::Write;

/// Appends `s` as a JSON string literal.
pub fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `s` in double quotes, escaped as JSON escapes it: how messages quote
/// names from files and arguments (never Rust's `{:?}`, whose escapes are
/// not for users).
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    string(&mut out, s);
    out
}

/// Appends an `f32` as JSON in its shortest form (0.01, not 0.009999999776…),
/// non-finite values as `null`. Every float of every `--json` output goes
/// through here: Rust's `Display` of an `f32` is the shortest decimal that
/// reads back to the same `f32`, where widening to `f64` first (serde_json's
/// way) prints the widening's noise (0.800000011920929).
pub fn number32(out: &mut String, x: f32) {
    if x.is_finite() {
        let _ = write!(out, "{x}");
    } else {
        out.push_str("null");
    }
}

/// Appends `[x, y, z]`.
pub fn vec3(out: &mut String, v: [f32; 3]) {
    out.push('[');
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        number32(out, *x);
    }
    out.push(']');
}

/// Writes `"key": ` after a comma when `first` is false.
pub fn key(out: &mut String, first: &mut bool, k: &str) {
    if !*first {
        out.push_str(", ");
    }
    *first = false;
    string(out, k);
    out.push_str(": ");
}

/// Appends `{"code": …, "at": …, "message": …}`, the error of a report line.
pub fn error_object(out: &mut String, code: &str, at: &str, message: &str) {
    out.push('{');
    let mut first = true;
    key(out, &mut first, "code");
    string(out, code);
    key(out, &mut first, "at");
    string(out, at);
    key(out, &mut first, "message");
    string(out, message);
    out.push('}');
}

/// Appends `"name": n` for each pair.
pub fn counts(out: &mut String, first: &mut bool, pairs: &[(&str, usize)]) {
    for (name, n) in pairs {
        key(out, first, name);
        out.push_str(&n.to_string());
    }
}

/// Opens a report object with the fields every report line starts with:
/// `{"file", "format", "ok", "error"` (`null`, or `error_object` of `error`:
/// code, location, message). The caller appends its own fields (each
/// after a `key`, the object is not empty) and the closing brace.
pub fn report_head(name: &str, format: &str, error: Option<&scenedec::Error>) -> String {
    let mut out = String::from("{");
    let mut first = true;
    key(&mut out, &mut first, "file");
    string(&mut out, name);
    key(&mut out, &mut first, "format");
    string(&mut out, format);
    key(&mut out, &mut first, "ok");
    out.push_str(if error.is_some() { "false" } else { "true" });
    key(&mut out, &mut first, "error");
    match error {
        Some(e) => error_object(
            &mut out,
            e.code().as_str(),
            &e.at().to_string(),
            e.message(),
        ),
        None => out.push_str("null"),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        let mut s = String::new();
        string(&mut s, "a\"b\\c\n\u{1}é");
        assert_eq!(s, "\"a\\\"b\\\\c\\n\\u0001é\"");
    }
}
