//! What every command does before it has a scene: read the file, gather the
//! texture files a .bbmodel may link to, apply `--limit` overrides, load.
//!
//! Picked texture files are the PNG files of each `--textures DIR`, of the
//! model's own folder, and of a folder beside the model named after it
//! (`model.bbmodel` and `model/`), matched by name as the loader
//! specification says. Earlier sources win a name.

use std::path::{Path, PathBuf};

use clap::{Arg, ArgAction, ArgMatches, Command};
use scenedec::{BbmodelLimits, Error, Options};

/// Biggest texture file read from disk (a PNG past it is not offered).
const MAX_PICKED_FILE_BYTES: u64 = 64 << 20;

/// How to load: limit overrides and texture folders, from the command line.
#[derive(Clone, Debug, Default)]
pub struct LoadSettings {
    /// .bbmodel limits after every `--limit`.
    pub limits: BbmodelLimits,
    /// `--textures` folders, in order.
    pub texture_dirs: Vec<PathBuf>,
}

/// Adds `--textures DIR` and `--limit NAME=VALUE` to a subcommand.
pub fn load_args(command: Command) -> Command {
    command
        .arg(
            Arg::new("textures")
                .long("textures")
                .value_name("DIR")
                .action(ArgAction::Append)
                .value_parser(clap::value_parser!(PathBuf))
                .help("Also offer the PNG files of DIR as linked .bbmodel textures (repeatable); the model's folder and a folder named after the model are always offered"),
        )
        .arg(
            Arg::new("limit")
                .long("limit")
                .value_name("NAME=VALUE")
                .action(ArgAction::Append)
                .help("Override a .bbmodel limit by its specification name, e.g. maxFaceVertices=64 or maxTriangles=inf (repeatable)"),
        )
}

impl LoadSettings {
    /// The settings `load_args` parsed; a bad `--limit` is a usage error (text).
    pub fn from_matches(m: &ArgMatches) -> Result<Self, String> {
        let mut limits = BbmodelLimits::default();
        for spec in m.get_many::<String>("limit").into_iter().flatten() {
            let (name, value) = parse_limit(spec)?;
            limits = limits
                .with_override(name, value)
                .map_err(|e| format!("--limit {spec}: {}", e.message()))?;
        }
        let texture_dirs = m
            .get_many::<PathBuf>("textures")
            .map(|d| d.cloned().collect())
            .unwrap_or_default();
        Ok(Self {
            limits,
            texture_dirs,
        })
    }
}

/// `NAME=VALUE`, VALUE a number or `inf` / `Infinity`.
pub fn parse_limit(spec: &str) -> Result<(&str, f64), String> {
    let (name, value) = spec
        .split_once('=')
        .ok_or_else(|| format!("--limit {spec}: expected NAME=VALUE"))?;
    let value = match value.trim() {
        v if v.eq_ignore_ascii_case("inf") || v.eq_ignore_ascii_case("infinity") => f64::INFINITY,
        v => v
            .parse::<f64>()
            .map_err(|_| format!("--limit {spec}: {v:?} is not a number"))?,
    };
    Ok((name.trim(), value))
}

/// A model file read from disk with the texture files offered to it.
pub struct Input {
    /// The bytes of the file.
    pub bytes: Vec<u8>,
    /// Picked texture files: name and bytes.
    pub picked: Vec<(String, Vec<u8>)>,
}

impl Input {
    /// Reads `path` and, for a .bbmodel, the texture files offered to it.
    pub fn read(path: &Path, settings: &LoadSettings) -> std::io::Result<Self> {
        // `ARCHIVE:member/path`: one member of an archive (members.rs).
        if let Some((archive, member)) = crate::members::split_member_spec(path) {
            let bytes =
                crate::members::read_member(&archive, &member).map_err(std::io::Error::other)?;
            return Ok(Self {
                bytes,
                picked: Vec::new(),
            });
        }
        let bytes = std::fs::read(path)?;
        let picked = if scenedec::format_of(&bytes, extension(path)).ok()
            == Some(scenedec::scene::Format::Bbmodel)
        {
            picked_textures(path, &settings.texture_dirs)
        } else {
            Vec::new()
        };
        Ok(Self { bytes, picked })
    }
}

/// Loads `bytes` (named `name`, whose extension is the format hint) with
/// `picked` texture files and the settings' limits.
pub fn load<'a>(
    name: &str,
    bytes: &'a [u8],
    picked: &[(String, Vec<u8>)],
    settings: &LoadSettings,
) -> Result<scenedec::Loaded<'a>, Error> {
    let files: Vec<(&str, &[u8])> = picked
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let mut options = Options::default();
    options.bbmodel.limits = settings.limits;
    options.bbmodel.texture_files = &files;
    scenedec::load(bytes, extension(Path::new(name)), &options)
}

/// The extension of `path`, the loader's format hint.
pub fn extension(path: &Path) -> Option<&str> {
    path.extension().and_then(|e| e.to_str())
}

/// The PNG files offered to `model`: those of each of `dirs`, of the model's
/// folder, and of the folder named after the model beside it.
pub fn picked_textures(model: &Path, dirs: &[PathBuf]) -> Vec<(String, Vec<u8>)> {
    let folder = model.parent().map(Path::to_path_buf).unwrap_or_default();
    let named = model.file_stem().map(|s| folder.join(s));
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let sources = dirs.iter().cloned().chain([folder]).chain(named);
    for dir in sources {
        let Ok(entries) = std::fs::read_dir(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            &dir
        }) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for file in files {
            let is_png = extension(&file).is_some_and(|e| e.eq_ignore_ascii_case("png"));
            let Some(name) = file.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let small = std::fs::metadata(&file)
                .is_ok_and(|m| m.is_file() && m.len() <= MAX_PICKED_FILE_BYTES);
            if !is_png || !small || out.iter().any(|(n, _)| n == name) {
                continue;
            }
            if let Ok(bytes) = std::fs::read(&file) {
                out.push((name.to_string(), bytes));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_parse_numbers_and_infinity() {
        assert_eq!(
            parse_limit("maxFaceVertices=64"),
            Ok(("maxFaceVertices", 64.0))
        );
        assert_eq!(
            parse_limit("maxTriangles=inf"),
            Ok(("maxTriangles", f64::INFINITY))
        );
        assert_eq!(
            parse_limit("maxTriangles=Infinity"),
            Ok(("maxTriangles", f64::INFINITY))
        );
        assert!(parse_limit("maxTriangles").is_err());
        assert!(parse_limit("maxTriangles=lots").is_err());
    }
}
