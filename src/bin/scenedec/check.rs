//! Every limit a file passes, at once (`inspect --check-limits`, and by
//! default after a limit error).
//!
//! The library stops at the first limit a file passes, so finding them one
//! run at a time took as many runs as there were limits. Here every limit
//! of the file's format is raised to infinity and the file measured
//! ([`scenedec::load_plan`]: no arena, no pixels); then each limit in turn
//! is put back at its real value with the others still infinite. One that
//! fails is searched for the smallest value that passes (doubling, then
//! halving the gap: about 2·log2(needed / limit) measures), so the value
//! printed is what the library itself accepts, whatever it counts (upper
//! bounds before geometry, texture bytes from PNG headers), not a guess
//! from the scene. `maxFileBytes` is the one limit read, not searched: the
//! larger of the file's size (decompressed too, for Yaz0) and of the
//! texture files it names.

use scenedec::limits::UNLIMITED;
use scenedec::scene::Format;
use scenedec::{BbmodelLimits, Error, J3dLimits, Options};

use crate::input::{Input, LoadSettings, extension};
use crate::limit_args::names_of;

/// Above this a limit value is reported as `inf` (the largest integer
/// `--limit` takes).
const MAX_SEARCH: u64 = 1 << 53;

/// One limit the file passes: what it needs and what it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Need {
    /// The name `--limit` takes.
    pub name: &'static str,
    /// The smallest value that lets the file through (`UNLIMITED`: none under 2^53).
    pub needs: u64,
    /// The limit in force.
    pub limit: u64,
}

/// What the check found.
#[derive(Debug, Default)]
pub struct Report {
    /// Every limit the file passes, in the table's order.
    pub needs: Vec<Need>,
    /// Why the check could not go further, when it stopped early: the file
    /// was too large to read, or it fails with every limit at infinity.
    pub stopped: Option<String>,
}

impl Report {
    /// The `--limit` arguments that would load the file.
    pub fn arguments(&self) -> String {
        self.needs
            .iter()
            .map(|n| format!("--limit {}={}", n.name, value(n.needs)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// One line per limit, `NAME: needs N, limit M`, then the arguments.
    pub fn human(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .needs
            .iter()
            .map(|n| {
                format!(
                    "{}: needs {}, limit {}",
                    n.name,
                    value(n.needs),
                    value(n.limit)
                )
            })
            .collect();
        if let Some(why) = &self.stopped {
            lines.push(why.clone());
        }
        if self.needs.is_empty() && self.stopped.is_none() {
            lines.push("every limit passes".to_string());
        } else if !self.needs.is_empty() {
            lines.push(format!("to load it: {}", self.arguments()));
        }
        lines
    }

    /// `{"needs": [{"limit", "needs", "value"}], "arguments", "stopped"}`
    /// (`needs` is `"inf"` when no integer is enough).
    pub fn json(&self) -> String {
        use crate::json_out::string;
        let mut out = String::from("{\"needs\": [");
        for (i, n) in self.needs.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str("{\"limit\": ");
            string(&mut out, n.name);
            out.push_str(&format!(
                ", \"needs\": {}, \"value\": {}}}",
                json_value(n.needs),
                json_value(n.limit)
            ));
        }
        out.push_str("], \"arguments\": ");
        string(&mut out, &self.arguments());
        out.push_str(", \"stopped\": ");
        match &self.stopped {
            Some(s) => string(&mut out, s),
            None => out.push_str("null"),
        }
        out.push('}');
        out
    }
}

fn value(v: u64) -> String {
    if v == UNLIMITED {
        "inf".to_string()
    } else {
        v.to_string()
    }
}

fn json_value(v: u64) -> String {
    if v == UNLIMITED {
        "\"inf\"".to_string()
    } else {
        v.to_string()
    }
}

/// True for the codes a limit raises (and so a limit check can explain).
pub fn is_limit_error(e: &Error) -> bool {
    use scenedec::ErrorCode as C;
    matches!(
        e.code(),
        C::FileTooLarge
            | C::TooManyElements
            | C::TooManyTriangles
            | C::TooManyVertices
            | C::TooManyTextures
            | C::TooManyKeyframes
            | C::NestingTooDeep
            | C::TextureTooLarge
            | C::TooManyJoints
            | C::TooManyShapes
            | C::TooManyPackets
            | C::TooManyMaterials
            | C::DisplayListTooLarge
            | C::HierarchyTooDeep
    )
}

/// After a failed load: the limit report on standard error, one line each,
/// when `e` is a limit error (what `pose` and `textures` print; `inspect`
/// prints its report with the file's own line).
pub fn explain_on_stderr(name: &str, input: &Input, settings: &LoadSettings, e: &Error) {
    if is_limit_error(e) {
        for line in check(name, input, settings).human() {
            eprintln!("  {name}: {line}");
        }
    }
}

/// Both tables with every limit of `format` at `value` except `name`, and `name` at `at`.
fn limits_with(format: Format, name: Option<&str>, at: u64) -> (BbmodelLimits, J3dLimits) {
    let mut bbmodel = BbmodelLimits::default();
    let mut j3d = J3dLimits::default();
    for n in names_of(format) {
        #[allow(
            clippy::cast_precision_loss,
            reason = "searched values stay at most 2^53"
        )]
        let v = if Some(n) == name && at != UNLIMITED {
            at as f64
        } else {
            f64::INFINITY
        };
        match format {
            Format::Bbmodel => bbmodel = bbmodel.with_override(n, v).unwrap_or(bbmodel),
            Format::J3d => j3d = j3d.with_override(n, v).unwrap_or(j3d),
        }
    }
    (bbmodel, j3d)
}

/// Measures `input` against every limit (see the module docs).
pub fn check(name: &str, input: &Input, settings: &LoadSettings) -> Report {
    let mut report = Report::default();
    let hint = extension(std::path::Path::new(name));
    let limit_of = |format: Format, n: &str| settings.limits.get(format, n).unwrap_or(UNLIMITED);
    let mut file_need = input
        .too_large
        .iter()
        .chain(&[input.file_len])
        .copied()
        .chain(input.picked.iter().map(|(_, b)| b.len() as u64))
        .max()
        .unwrap_or(0);
    let file_limit = settings.limits.max_file_bytes();
    if input.refused.is_some() {
        report.needs.push(Need {
            name: "maxFileBytes",
            needs: file_need,
            limit: file_limit,
        });
        report.stopped = Some(
            "the file was not read, so its other limits are not measured: run again with the --limit maxFileBytes above"
                .to_string(),
        );
        return report;
    }
    // A Yaz0 file is measured decompressed, and its decompressed size is
    // what maxFileBytes bounds; it is decompressed only within that bound.
    let decompressed;
    let mut model: &[u8] = &input.bytes;
    if scenedec::sniff::sniff(model) == scenedec::sniff::Kind::Yaz0 {
        match scenedec::yaz0::decompressed_len(model) {
            Ok(len) => {
                file_need = file_need.max(len as u64);
                if len as u64 > settings.limits.j3d.max_file_bytes {
                    report.needs.push(Need {
                        name: "maxFileBytes",
                        needs: file_need,
                        limit: settings.limits.j3d.max_file_bytes,
                    });
                    report.stopped = Some("the Yaz0 data was not decompressed, so its other limits are not measured: run again with the --limit maxFileBytes above".to_string());
                    return report;
                }
                let mut out = vec![0u8; len];
                if let Err(e) = scenedec::yaz0::decompress_into(model, &mut out) {
                    report.stopped = Some(stopped(&e));
                    return report;
                }
                decompressed = out;
                model = &decompressed;
            }
            Err(e) => {
                report.stopped = Some(stopped(&e));
                return report;
            }
        }
    }
    // An `<lz>` backup: its stream walked (work bounded by the file) for
    // maxDecompressedBytes, and decompressed only within it; the JSON is
    // then measured as any .bbmodel (maxFileBytes bounds it too).
    let unpacked;
    if scenedec::sniff::sniff(model) == scenedec::sniff::Kind::CompressedBbmodel {
        let limit = settings.limits.bbmodel.max_decompressed_bytes;
        match scenedec::lzutf8::decompressed_len(model, UNLIMITED) {
            Ok(len) if len as u64 > limit => {
                report.needs.push(Need {
                    name: "maxDecompressedBytes",
                    needs: len as u64,
                    limit,
                });
                report.stopped = Some("the <lz> data was not decompressed, so its other limits are not measured: run again with the --limit maxDecompressedBytes above".to_string());
                return report;
            }
            Ok(len) => {
                file_need = file_need.max(len as u64);
                let mut out = vec![0u8; len];
                if let Err(e) = scenedec::lzutf8::decompress_into(model, &mut out) {
                    report.stopped = Some(stopped(&e));
                    return report;
                }
                unpacked = out;
                model = &unpacked;
            }
            Err(e) => {
                report.stopped = Some(stopped(&e));
                return report;
            }
        }
    }
    let format = match scenedec::format_of(model, hint) {
        Ok(f) => f,
        Err(e) => {
            report.stopped = Some(stopped(&e));
            return report;
        }
    };
    if file_need > limit_of(format, "maxFileBytes") {
        report.needs.push(Need {
            name: "maxFileBytes",
            needs: file_need,
            limit: limit_of(format, "maxFileBytes"),
        });
    }
    let files: Vec<(&str, &[u8])> = input
        .picked
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let passes = |name: Option<&str>, at: u64| {
        let (bbmodel, j3d) = limits_with(format, name, at);
        let mut options = Options::default();
        options.bbmodel.limits = bbmodel;
        options.bbmodel.texture_files = &files;
        options.j3d.limits = j3d;
        scenedec::load_plan(model, hint, &options)
    };
    if let Err(e) = passes(None, UNLIMITED) {
        report.stopped = Some(stopped(&e));
        return report;
    }
    for n in names_of(format).filter(|n| *n != "maxFileBytes") {
        let limit = limit_of(format, n);
        if limit == UNLIMITED || passes(Some(n), limit).is_ok() {
            continue;
        }
        let ok = |v: u64| passes(Some(n), v).is_ok();
        report.needs.push(Need {
            name: n,
            needs: smallest_passing(limit, ok),
            limit,
        });
    }
    report
}

fn stopped(e: &Error) -> String {
    format!(
        "with every limit at inf it still fails, {e}{}: no limit explains that",
        crate::out::at_suffix(e)
    )
}

/// The smallest value above `failing` for which `ok` holds, assuming `ok`
/// is monotonic; [`UNLIMITED`] when none up to [`MAX_SEARCH`] does.
fn smallest_passing(failing: u64, ok: impl Fn(u64) -> bool) -> u64 {
    let (mut lo, mut hi) = (failing, failing.max(1).saturating_mul(2));
    while !ok(hi) {
        if hi >= MAX_SEARCH {
            return UNLIMITED;
        }
        lo = hi;
        hi = hi.saturating_mul(2).min(MAX_SEARCH);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_finds_the_smallest_passing_value() {
        for needed in [11, 12, 20, 21_064, 1 << 40] {
            assert_eq!(smallest_passing(10, |v| v >= needed), needed);
        }
        assert_eq!(smallest_passing(10, |_| false), UNLIMITED);
    }
}
