//! What every command does before it has a scene: read the file (bounded by
//! `maxFileBytes`, see `bounded`), read the texture files a .bbmodel names
//! (see `picked`), apply `--limit` overrides, load.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use clap::{Arg, ArgAction, ArgMatches, Command};
use scenedec::{Error, ErrorCode, Options};

use crate::bounded::{ReadError, read_bounded};
use crate::limit_args::Limits;

/// Set when a `--limit` named a limit a loaded file's format does not have:
/// the command then exits 2, as for any usage error.
static USAGE_ERROR: AtomicBool = AtomicBool::new(false);

/// How to load: limit overrides and texture folders, from the command line.
#[derive(Clone, Debug, Default)]
pub struct LoadSettings {
    /// Both limit tables after every `--limit`.
    pub limits: Limits,
    /// `--textures` folders, in order.
    pub texture_dirs: Vec<PathBuf>,
    /// The run loads several models: a `--limit` applies to the files
    /// whose format has it (a .bbmodel limit in a batch with J3D files is
    /// no mistake); with one model, a limit its format lacks is a usage
    /// error.
    pub batch: bool,
    /// `--with` animation files: name and bytes (`with.rs`).
    pub animations: Vec<(String, Vec<u8>)>,
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
                .help("Also look in DIR for the PNG files a .bbmodel names (repeatable; searched first); the model's folder and a folder named after the model are always searched, and only named files are read"),
        )
        .arg(limit_arg())
}

/// `--limit NAME=VALUE` alone (`extract` reads archives, not models).
pub fn limit_arg() -> Arg {
    Arg::new("limit")
        .long("limit")
        .value_name("NAME=VALUE")
        .action(ArgAction::Append)
        .help(crate::limit_args::SHORT_HELP)
        .long_help(crate::limit_args::help())
}

impl LoadSettings {
    /// The settings `load_args` parsed; a bad `--limit` is a usage error (text).
    pub fn from_matches(m: &ArgMatches) -> Result<Self, String> {
        let mut limits = Limits::default();
        for spec in m.get_many::<String>("limit").into_iter().flatten() {
            limits.apply(spec)?;
        }
        // `extract` has `--limit` without `--textures`.
        let texture_dirs = m
            .try_get_many::<PathBuf>("textures")
            .ok()
            .flatten()
            .map(|d| d.cloned().collect())
            .unwrap_or_default();
        Ok(Self {
            limits,
            texture_dirs,
            batch: false,
            animations: Vec::new(),
        })
    }
}

/// A model file read from disk with the texture files offered to it.
#[derive(Debug, Default)]
pub struct Input {
    /// The bytes of the file (empty when `refused`).
    pub bytes: Vec<u8>,
    /// Picked texture files: name and bytes.
    pub picked: Vec<(String, Vec<u8>)>,
    /// Why a named texture file was not offered, one line each.
    pub notes: Vec<String>,
    /// Sizes of named texture files skipped for size.
    pub too_large: Vec<u64>,
    /// Bytes the file has on disk.
    pub file_len: u64,
    /// The load's error when the file was too large to read.
    pub refused: Option<Error>,
}

impl Input {
    /// A model already in memory (the bundled samples), with no texture files.
    pub fn in_memory(bytes: &[u8]) -> Self {
        Self::from_bytes(bytes.to_vec())
    }

    /// A model whose bytes were read elsewhere (an archive's member), with
    /// no texture files.
    pub fn from_bytes(bytes: Vec<u8>) -> Self {
        Self {
            file_len: bytes.len() as u64,
            bytes,
            ..Self::default()
        }
    }

    /// Reads `path`, at most `maxFileBytes` of it, and, for a .bbmodel, the
    /// texture files it names. A file over the limit is not read: its
    /// load fails with FILE_TOO_LARGE, as the library's own check would.
    pub fn read(path: &Path, settings: &LoadSettings) -> std::io::Result<Self> {
        // `ARCHIVE:member/path`: one member of an archive (members.rs),
        // the archive read within the RARC limit on its size.
        if let Some((archive, member)) = crate::members::split_member_spec(path) {
            let bytes = crate::members::read_member(&archive, &member, &settings.limits.rarc)
                .map_err(std::io::Error::other)?;
            return Ok(Self::from_bytes(bytes));
        }
        let limit = read_limit(path, settings)?;
        let bytes = match read_bounded(path, limit) {
            Ok(bytes) => bytes,
            Err(ReadError::Io(e)) => return Err(e),
            Err(ReadError::TooLarge { len, limit }) => {
                return Ok(Self {
                    file_len: len,
                    refused: Some(Error::nowhere(
                        ErrorCode::FileTooLarge,
                        format_args!(
                            "the file is {len} bytes, over maxFileBytes ({limit}); not read"
                        ),
                    )),
                    ..Self::default()
                });
            }
        };
        let mut input = Self {
            file_len: bytes.len() as u64,
            ..Self::default()
        };
        if model_format(&bytes, extension(path)).ok() == Some(scenedec::scene::Format::Bbmodel) {
            // An `<lz>` backup names its textures in its decompressed JSON
            // (bounded by maxDecompressedBytes); if it does not decompress,
            // the load reports why.
            let json = unwrapped_bbmodel(&bytes, settings);
            let picked = crate::picked::picked_textures(
                path,
                json.as_deref().unwrap_or(&bytes),
                &settings.texture_dirs,
                &settings.limits.bbmodel,
            );
            input.picked = picked.files;
            input.notes = picked.notes;
            input.too_large = picked.too_large;
        }
        input.bytes = bytes;
        Ok(input)
    }

    /// Prints each note on standard error, after the file's name.
    pub fn print_notes(&self, name: &str) {
        for note in &self.notes {
            eprintln!("{name}: warning: {note}");
        }
    }
}

/// How much of `path` to read: `maxFileBytes`, or for a RARC archive
/// (inspect lists archives) the archive limit. Only a regular file larger
/// than `maxFileBytes` has its first bytes looked at, so a pipe given as
/// FILE loses none of its bytes.
fn read_limit(path: &Path, settings: &LoadSettings) -> std::io::Result<u64> {
    let limit = settings.limits.max_file_bytes();
    let large_file = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() > limit);
    if large_file
        && matches!(
            scenedec::sniff::sniff(&crate::bounded::head(path, 64)?),
            scenedec::sniff::Kind::Rarc | scenedec::sniff::Kind::Yaz0Rarc
        )
    {
        return Ok(limit.max(crate::bounded::archive_limit(&settings.limits.rarc)));
    }
    Ok(limit)
}

/// The library options for `settings` and `files`.
pub fn options<'o>(settings: &LoadSettings, files: &'o [(&'o str, &'o [u8])]) -> Options<'o> {
    let mut options = Options::default();
    options.bbmodel.limits = settings.limits.bbmodel;
    options.bbmodel.texture_files = files;
    options.j3d.limits = settings.limits.j3d;
    options
}

/// The `--with` animation files of `settings`, as the library takes them.
pub fn animation_files(settings: &LoadSettings) -> Vec<(&str, &[u8])> {
    settings
        .animations
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect()
}

/// Loads `input` (named `name`, whose extension is the format hint) with
/// its picked texture files and the settings' limits.
///
/// A `--limit` the file's format does not have fails the load with
/// INVALID_LIMIT and makes the command exit 2 (see [`exit_code`]), unless
/// the run loads several models ([`LoadSettings::batch`]).
pub fn load<'a>(
    name: &str,
    input: &'a Input,
    settings: &LoadSettings,
) -> Result<scenedec::Loaded<'a>, Error> {
    if let Some(e) = &input.refused {
        return Err(e.clone());
    }
    let hint = extension(Path::new(name));
    if let Ok(format) = model_format(&input.bytes, hint) {
        let wrong = settings.limits.inapplicable(format);
        if !wrong.is_empty() && !settings.batch {
            USAGE_ERROR.store(true, Ordering::Relaxed);
            return Err(Error::nowhere(
                ErrorCode::InvalidLimit,
                format_args!(
                    "--limit {} does not apply to {} files",
                    wrong.join(", --limit "),
                    format.as_str()
                ),
            ));
        }
    }
    let files: Vec<(&str, &[u8])> = input
        .picked
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let animations = animation_files(settings);
    let mut options = options(settings, &files);
    options.j3d.animations = &animations;
    scenedec::load(&input.bytes, hint, &options)
}

/// The format of a file's bytes, looking through Yaz0 (a compressed model
/// is J3D) and `<lz>` (a Blockbench backup is a .bbmodel).
pub fn model_format(bytes: &[u8], hint: Option<&str>) -> Result<scenedec::scene::Format, Error> {
    match scenedec::sniff::sniff(bytes) {
        scenedec::sniff::Kind::Yaz0 => Ok(scenedec::scene::Format::J3d),
        scenedec::sniff::Kind::CompressedBbmodel => Ok(scenedec::scene::Format::Bbmodel),
        _ => scenedec::format_of(bytes, hint),
    }
}

/// The JSON inside an `<lz>` backup, decompressed within the settings'
/// maxDecompressedBytes; `None` for other bytes or a broken backup.
pub fn unwrapped_bbmodel(bytes: &[u8], settings: &LoadSettings) -> Option<Vec<u8>> {
    if scenedec::sniff::sniff(bytes) != scenedec::sniff::Kind::CompressedBbmodel {
        return None;
    }
    let max = settings.limits.bbmodel.max_decompressed_bytes;
    let len = scenedec::lzutf8::decompressed_len(bytes, max).ok()?;
    let mut out = vec![0u8; len];
    scenedec::lzutf8::decompress_into(bytes, &mut out).ok()?;
    Some(out)
}

/// The command's status: 2 when a `--limit` did not apply to a file, else
/// 0 when `all_ok`, else 1.
pub fn exit_code(all_ok: bool) -> std::process::ExitCode {
    if USAGE_ERROR.load(Ordering::Relaxed) {
        std::process::ExitCode::from(2)
    } else if all_ok {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}

/// The extension of `path`, the loader's format hint.
pub fn extension(path: &Path) -> Option<&str> {
    path.extension().and_then(|e| e.to_str())
}
