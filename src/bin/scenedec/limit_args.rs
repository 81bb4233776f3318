//! `--limit NAME=VALUE`: one namespace over the library's three limit tables.
//!
//! A name is looked up in [`BbmodelLimits::names`], [`J3dLimits::names`]
//! and [`RarcLimits::names`] (so a limit the library adds is settable here
//! with no change); a name both model tables hold (`maxFileBytes`,
//! `maxTriangles`, ...) sets both. A name in none is a usage error, and so
//! is a name only the other model format has when a file is loaded
//! (`maxJoints` for a .bbmodel): a limit is never silently ignored. The
//! archive names (`maxArchive…`, no model table has them) bound every RARC
//! archive the command reads, whatever models it holds.

use scenedec::scene::Format;
use scenedec::{BbmodelLimits, J3dLimits, RarcLimits};

/// The largest integer VALUE: every integer up to 2^53 is exact as the f64
/// the library's override takes; past it, `inf` says what is meant.
const MAX_EXACT: u64 = 1 << 53;

/// Both tables after every `--limit`, and the names that were set.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// .bbmodel limits.
    pub bbmodel: BbmodelLimits,
    /// J3D limits.
    pub j3d: J3dLimits,
    /// RARC archive limits.
    pub rarc: RarcLimits,
    /// The names given, in order (each once).
    pub named: Vec<&'static str>,
}

impl Limits {
    /// Applies one `NAME=VALUE`; the error is the usage message.
    pub fn apply(&mut self, spec: &str) -> Result<(), String> {
        let (name, value) = parse_limit(spec)?;
        let Some(known) = known_name(name) else {
            return Err(format!(
                "--limit {spec}: unknown limit {}; the limits are {}",
                crate::json_out::quoted(name),
                all_names().collect::<Vec<_>>().join(", ")
            ));
        };
        if RarcLimits::default().get(known).is_some() {
            self.rarc = self
                .rarc
                .with_override(known, value)
                .map_err(|e| format!("--limit {spec}: {}", e.message()))?;
        } else {
            // The model tables' one namespace, shared with the C API.
            scenedec::limits::override_model_limit(&mut self.bbmodel, &mut self.j3d, known, value)
                .map_err(|e| format!("--limit {spec}: {}", e.message()))?;
        }
        if !self.named.contains(&known) {
            self.named.push(known);
        }
        Ok(())
    }

    /// The model limits set that `format` has no limit for (a usage error
    /// when such a file is loaded); archive limits are never among them.
    pub fn inapplicable(&self, format: Format) -> Vec<&'static str> {
        self.named
            .iter()
            .copied()
            .filter(|n| RarcLimits::default().get(n).is_none())
            .filter(|n| !names_of(format).any(|m| m == *n))
            .collect()
    }

    /// The limit `name` of `format`'s table.
    pub fn get(&self, format: Format, name: &str) -> Option<u64> {
        match format {
            Format::Bbmodel => self.bbmodel.get(name),
            Format::J3d => self.j3d.get(name),
        }
    }

    /// The largest file any format may have: the bound for reading a file
    /// before its format is known.
    pub fn max_file_bytes(&self) -> u64 {
        self.bbmodel.max_file_bytes.max(self.j3d.max_file_bytes)
    }
}

/// The limit names of `format`, in its table's order.
pub fn names_of(format: Format) -> Box<dyn Iterator<Item = &'static str>> {
    match format {
        Format::Bbmodel => Box::new(BbmodelLimits::names()),
        Format::J3d => Box::new(J3dLimits::names()),
    }
}

/// Every name `--limit` takes, each once: the .bbmodel table's, then the
/// J3D table's own, then the archive table's.
pub fn all_names() -> impl Iterator<Item = &'static str> {
    BbmodelLimits::names()
        .chain(J3dLimits::names().filter(|n| BbmodelLimits::default().get(n).is_none()))
        .chain(RarcLimits::names())
}

/// The static spelling of `name`, when some table has it.
fn known_name(name: &str) -> Option<&'static str> {
    all_names().find(|n| *n == name)
}

/// `NAME=VALUE`, VALUE a plain integer (1 to 2^53) or `inf`.
pub fn parse_limit(spec: &str) -> Result<(&str, f64), String> {
    let (name, value) = spec
        .split_once('=')
        .ok_or_else(|| format!("--limit {spec}: expected NAME=VALUE"))?;
    let value = match value.trim() {
        "inf" => f64::INFINITY,
        v if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => match v.parse::<u64>() {
            #[allow(clippy::cast_precision_loss, reason = "at most 2^53, exact in f64")]
            Ok(n) if (1..=MAX_EXACT).contains(&n) => n as f64,
            _ => {
                return Err(format!(
                    "--limit {spec}: {v} is out of range: a limit is an integer from 1 to {MAX_EXACT}, or inf"
                ));
            }
        },
        v => {
            return Err(format!(
                "--limit {spec}: {} is not a limit value: write a plain integer (e.g. 64) or inf",
                crate::json_out::quoted(v)
            ));
        }
    };
    Ok((name.trim(), value))
}

/// The `--limit` summary for `-h`.
pub const SHORT_HELP: &str = "Override a limit by name, NAME=VALUE, VALUE a plain integer or inf, e.g. maxTriangles=inf (repeatable; --help lists the names)";

/// The `--limit` help for `--help`: every name, one a line, with its
/// default for each format (`-` where the format has no such limit).
pub fn help() -> String {
    let mut text = String::from(
        "Override a limit by name: NAME=VALUE, VALUE a plain integer (1 to 2^53) or inf. \
         Repeatable. A name no format has, or one the loaded file's format lacks, is a usage \
         error (exit 2); in a run of several models a name applies to the files whose \
         format has it. maxFileBytes also bounds every texture file read. \
         Names, with their defaults for .bbmodel / J3D:",
    );
    let show = |v: Option<u64>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
    for name in all_names().filter(|n| RarcLimits::default().get(n).is_none()) {
        text.push_str(&format!(
            "\n  {name:<20} {} / {}",
            show(BbmodelLimits::default().get(name)),
            show(J3dLimits::default().get(name))
        ));
    }
    text.push_str(
        "\nRARC archives (.arc, .szs): every archive the command reads, whatever \
         models it holds; names and defaults:",
    );
    for name in RarcLimits::names() {
        text.push_str(&format!(
            "\n  {name:<20} {}",
            show(RarcLimits::default().get(name))
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_plain_integers_or_inf() {
        assert_eq!(
            parse_limit("maxFaceVertices=64"),
            Ok(("maxFaceVertices", 64.0))
        );
        assert_eq!(
            parse_limit("maxTriangles=inf"),
            Ok(("maxTriangles", f64::INFINITY))
        );
        for bad in [
            "maxTriangles",
            "maxTriangles=lots",
            "maxTriangles=Infinity",
            "maxTriangles=1e5",
            "maxTriangles=1.5",
            "maxTriangles=-3",
            "maxTriangles=0",
            "maxTriangles=",
            "maxTriangles=99999999999999999999",
        ] {
            assert!(parse_limit(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn one_namespace_sets_each_table_that_has_the_name() {
        let mut l = Limits::default();
        l.apply("maxFileBytes=inf").unwrap();
        l.apply("maxJoints=5").unwrap();
        l.apply("maxElements=7").unwrap();
        assert_eq!(l.bbmodel.max_file_bytes, scenedec::limits::UNLIMITED);
        assert_eq!(l.j3d.max_file_bytes, scenedec::limits::UNLIMITED);
        assert_eq!(l.j3d.max_joints, 5);
        assert_eq!(l.bbmodel.max_elements, 7);
        assert_eq!(l.inapplicable(Format::Bbmodel), vec!["maxJoints"]);
        assert_eq!(l.inapplicable(Format::J3d), vec!["maxElements"]);
        assert!(
            l.apply("maxBananas=3")
                .unwrap_err()
                .contains("unknown limit")
        );
        let names: Vec<_> = all_names().collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
        assert!(help().contains("maxDisplayListBytes"));
    }

    #[test]
    fn the_molang_limits_are_set_by_name() {
        let mut l = Limits::default();
        for arg in [
            "maxMolangChars=10",
            "maxMolangDepth=11",
            "maxMolangStatements=12",
            "maxMolangSteps=inf",
        ] {
            l.apply(arg).unwrap();
        }
        assert_eq!(l.bbmodel.max_molang_chars, 10);
        assert_eq!(l.bbmodel.max_molang_depth, 11);
        assert_eq!(l.bbmodel.max_molang_statements, 12);
        assert_eq!(l.bbmodel.max_molang_steps, scenedec::limits::UNLIMITED);
        assert_eq!(
            l.inapplicable(Format::J3d),
            vec![
                "maxMolangChars",
                "maxMolangDepth",
                "maxMolangStatements",
                "maxMolangSteps"
            ]
        );
        assert!(help().contains("maxMolangSteps"));
    }
}
