//! `scenedec`: inspect and convert J3D and .bbmodel models from the command line.
//!
//! `scenedec inspect [--json] [FILE...]` prints what each model holds; with no
//! FILE it inspects the bundled samples. `scenedec convert FILE... [-o OUT]
//! [--jobs N]` writes each model as glTF 2.0 (beside its input without -o). `scenedec textures FILE... -o DIR [--mips]
//! [--json]` writes each decoded texture as PNG. `scenedec pose FILE --animation N|NAME
//! --time T [--json]` samples a clip and prints every node's transform.
//! `scenedec extract ARCHIVE -o DIR [--only GLOB]` writes a RARC archive's
//! members; `inspect` lists an archive instead of loading it.
//! Exit status: 0 when every file loaded (and every output was written), 1
//! when any failed, 2 on usage errors (a `--limit` a file's format does not
//! have included), 141 when standard output was closed early (see `out`).

mod archive;
mod bounded;
mod check;
mod convert;
mod failure;
mod input;
mod inspect;
mod json_out;
mod limit_args;
mod members;
mod out;
mod picked;
mod pose;
mod pose_j3d;
mod samples;
mod textures;
mod warnings_out;
mod with;

use std::process::ExitCode;

use clap::{Arg, ArgAction, ArgMatches, Command};
use scenedec::export::gltf::Container;

use crate::input::{LoadSettings, load_args};

const CONVERT_ABOUT: &str = "Write each model as glTF 2.0 (.glb, or .gltf with .bin and PNG files)";

const CONVERT_LONG_ABOUT: &str = "\
Write each model as glTF 2.0: the node tree (Blockbench pivots as extra
nodes, so the rest pose is exact), one mesh per scene mesh, materials with
their textures as PNG, samplers, J3D skins, and animations sampled at --fps
frames a second. docs/export.md says what maps to what and what glTF cannot
hold.

Without -o, each model goes beside its input with the container's
extension in place of its own (x.bbmodel -> x.glb; an archive's model
a.arc:root/x.bdl -> a/root/x.glb). With one FILE, OUT is the file to
write; its extension (.glb or .gltf) chooses the container unless --format
does. With several, OUT is a folder and each model goes to
OUT/<file name>.glb (or .gltf). Missing folders are created. An output
that exists is not replaced unless --force; an input is never overwritten,
and two models bound for one file are a usage error. Yaz0-compressed J3D
(.szs) is read directly.

A RARC archive (.arc, .szs) stands for the models in it: each goes to
OUT/<path in the archive>.glb, the path from the root directory's name as
inspect lists it (the archive's animations are not attached yet). A folder
stands for every model and archive under it (.bmd, .bdl, .bbmodel, .arc,
.szs, recursively, links not followed), its tree mirrored under OUT (an
archive's models under OUT/<archive's path>/). A file found in a folder
that is no model (empty, unknown bytes, an archive without models) is
skipped without a word; one named on the command line is an error.
ARCHIVE:member/path names one member, for convert as for inspect and pose.

One line per file: where it went and what it holds, or why it failed
(--json: one JSON object per line). Exit status: 0 all written, 1 any
failed, 2 usage error.";

const POSE_ABOUT: &str = "Sample an animation at one time and print every node's transform";

const POSE_LONG_ABOUT: &str = "\
Sample animation N (an index, or a clip's name) of FILE at T seconds from the clip's start and print each
node's pose: translation, rotation (degrees) and scale, and where its origin
lands in model space. With --json: one object, {\"file\", \"animation\",
\"name\", \"time\", \"nodes\": [{\"name\", \"world\"}]}, each world matrix
16 numbers, column-major, nodes in the scene's order.

The clip's loop mode maps T: loop repeats (T modulo the length), hold keeps
the last frame, once returns to rest after its end (docs/scene-format.md,
Sampling). Exit status: 0 printed, 1 the file did not load, 2 usage error
(N no animation of the file, which lists the file's clips; T negative or
not a finite number).";

fn pose_command() -> Command {
    load_args(
        Command::new("pose")
            .about(POSE_ABOUT)
            .long_about(POSE_LONG_ABOUT)
            .arg(
                Arg::new("file")
                    .value_name("FILE")
                    .required(true)
                    .value_parser(clap::value_parser!(std::path::PathBuf)),
            )
            .arg(
                Arg::new("animation")
                    .long("animation")
                    .value_name("N|NAME")
                    .default_value("0")
                    .allow_negative_numbers(true)
                    .help("The animation: its index as inspect lists them (all digits), else its name (exact, or in any case when only one clip matches so); name:NAME for a name made of digits"),
            )
            .arg(
                Arg::new("time")
                    .long("time")
                    .value_name("T")
                    .required(true)
                    .allow_negative_numbers(true)
                    .help("Seconds from the clip's start (finite, at least 0)"),
            )
            .arg(
                Arg::new("json")
                    .long("json")
                    .action(ArgAction::SetTrue)
                    .help("One JSON object with every node's world matrix"),
            ),
    )
}

/// The command line: the commands, then `--with` on those that load
/// models with animations and `--frame` on `pose` (kept apart, in
/// `with.rs` and `pose_j3d.rs`).
fn cli() -> Command {
    ["inspect", "pose", "convert"]
        .into_iter()
        .fold(commands(), |c, name| c.mut_subcommand(name, with::with_arg))
        .mut_subcommand("pose", pose_j3d::frame_arg)
}

fn commands() -> Command {
    Command::new("scenedec")
        .about("Decode J3D (.bmd/.bdl) and Blockbench (.bbmodel) models")
        .version(env!("CARGO_PKG_VERSION"))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(load_args(
            Command::new("inspect")
                .about("Print what each model holds, or list each RARC archive (the bundled samples when no FILE is given)")
                .arg(
                    Arg::new("json")
                        .long("json")
                        .action(ArgAction::SetTrue)
                        .help("One JSON object per file, one per line"),
                )
                .arg(
                    Arg::new("check-limits")
                        .long("check-limits")
                        .action(ArgAction::SetTrue)
                        .help(
                            "Measure each file against every limit at once: one line per limit it passes, \
                             NAME: needs N, limit M, then the --limit arguments that load it (--json: a \
                             \"limits\" object). A file that fails on a limit is measured so without this flag",
                        ),
                )
                .arg(
                    Arg::new("files")
                        .value_name("FILE")
                        .num_args(0..)
                        .value_parser(clap::value_parser!(std::path::PathBuf)),
                ),
        ))
        .subcommand(convert_command())
        .subcommand(archive::extract_command())
        .subcommand(pose_command())
        .subcommand(load_args(
            Command::new("textures")
                .about("Write each decoded texture as PNG: DIR/<index>_<name>.png (several models: DIR/<file name>/<index>_<name>.png)")
                .arg(
                    Arg::new("files")
                        .value_name("FILE")
                        .required(true)
                        .num_args(1..)
                        .help("Models, as convert takes them: files, folders (every model under them, the tree mirrored under DIR) and RARC archives (their models); ARCHIVE:member/path names one")
                        .value_parser(clap::value_parser!(std::path::PathBuf)),
                )
                .arg(
                    Arg::new("output")
                        .short('o')
                        .long("output")
                        .value_name("DIR")
                        .required(true)
                        .value_parser(clap::value_parser!(std::path::PathBuf))
                        .help("Folder to write into (created if needed)"),
                )
                .arg(
                    Arg::new("mips")
                        .long("mips")
                        .action(ArgAction::SetTrue)
                        .help("Also write each further mip level k as <index>_<name>_mip<k>.png"),
                )
                .arg(
                    Arg::new("json")
                        .long("json")
                        .action(ArgAction::SetTrue)
                        .help(
                            "One JSON object per PNG written, one per line: texture, name, \
                             level, path, width, height, frames (a frame strip is written whole)",
                        ),
                ),
        ))
}

fn convert_command() -> Command {
    load_args(
        Command::new("convert")
            .about(CONVERT_ABOUT)
            .long_about(CONVERT_LONG_ABOUT)
            .arg(
                Arg::new("files")
                    .value_name("FILE")
                    .required(true)
                    .num_args(1..)
                    .help("Models to convert: .bmd, .bdl (plain or Yaz0), .bbmodel; RARC archives (.arc, .szs) and folders stand for the models in them; ARCHIVE:member/path names one")
                    .value_parser(clap::value_parser!(std::path::PathBuf)),
            )
            .arg(
                Arg::new("output")
                    .short('o')
                    .long("output")
                    .value_name("OUT")
                    .value_parser(clap::value_parser!(std::path::PathBuf))
                    .help("The file to write (one FILE) or the folder to write into (several, or a folder or archive), created with any missing folders; default: beside each input, its extension replaced (x.bbmodel -> x.glb)"),
            )
            .arg(
                Arg::new("jobs")
                    .short('j')
                    .long("jobs")
                    .value_name("N")
                    .value_parser(clap::value_parser!(u16).range(1..=MAX_JOBS))
                    .help("Convert N models at once (1 to 256; default: the machine's available parallelism); reports and outputs are the same, in input order, whatever N"),
            )
            .arg(
                Arg::new("force")
                    .long("force")
                    .action(ArgAction::SetTrue)
                    .help("Overwrite outputs that exist (without it, such a model fails and nothing is replaced)"),
            )
            .arg(
                Arg::new("format")
                    .long("format")
                    .value_name("FORMAT")
                    .value_parser(["glb", "gltf"])
                    .help("glb (one binary file) or gltf (JSON, .bin and PNG files); default: OUT's extension, else glb"),
            )
            .arg(
                Arg::new("scale")
                    .long("scale")
                    .value_name("FACTOR")
                    .value_parser(clap::value_parser!(f32))
                    .help("Multiply every length; default: metres, glTF's unit (0.0625 for .bbmodel, 16 pixels a metre as Blockbench's exporter has it; 0.01 for J3D, whose unit is a centimetre); 1 keeps the model's units"),
            )
            .arg(
                Arg::new("axes")
                    .long("axes")
                    .value_name("AXES")
                    .value_parser(["gltf", "source"])
                    .default_value("gltf")
                    .help("gltf: the model's front towards +Z, as glTF asks (a .bbmodel, which faces -Z, is turned by a root node); source: the file's own axes"),
            )
            .arg(
                Arg::new("fps")
                    .long("fps")
                    .value_name("F")
                    .default_value("60")
                    .value_parser(clap::value_parser!(f32))
                    .help("Sample every animation at F frames a second, at its end and at every keyframe time"),
            )
            .arg(
                Arg::new("continuous-length")
                    .long("continuous-length")
                    .value_name("SECONDS")
                    .default_value("24")
                    .value_parser(clap::value_parser!(f32))
                    .help("Export a loop or hold animation of length 0 whose Molang runs on (a Bedrock continuous animation) over SECONDS, in (0, 1000] (Blockbench's preview plays it for 1000); 24 loops seamlessly every sine of anim_time at a multiple of 15 degrees a second"),
            )
            .arg(
                Arg::new("material-clips")
                    .long("material-clips")
                    .value_name("HOW")
                    .value_parser(["pointer", "data"])
                    .default_value("pointer")
                    .help("J3D texture-matrix and colour tracks glTF can play: pointer (KHR_animation_pointer channels, KHR_texture_transform) or data (extras.j3d_tracks only, for readers that refuse pointer channels, such as assimp 5.2)"),
            )
            .arg(
                Arg::new("hidden")
                    .long("hidden")
                    .value_name("WHAT")
                    .value_parser(["drop", "keep"])
                    .default_value("drop")
                    .help("Parts the model hides (an element or group with visibility off): drop (left out, as Blockbench's exporter does) or keep (written in a second scene only, so the default scene stays what the model draws)"),
            )
            .arg(
                Arg::new("json")
                    .long("json")
                    .action(ArgAction::SetTrue)
                    .help("One JSON object per file, one per line"),
            )
            .arg(
                Arg::new("verbose")
                    .long("verbose")
                    .short('v')
                    .action(ArgAction::SetTrue)
                    .help("Print each file's warnings, one line per group"),
            ),
    )
}

/// Most `--jobs`: past the cores of any machine this runs on, more threads
/// only hold more models in memory at once.
const MAX_JOBS: i64 = 256;

/// `--jobs`' default: the parallelism the machine offers (1 when unknown).
fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// The load settings of a subcommand, or exit 2 with the reason.
fn settings(m: &ArgMatches) -> Result<LoadSettings, ExitCode> {
    let mut settings = LoadSettings::from_matches(m).map_err(|e| {
        eprintln!("scenedec: {e}");
        ExitCode::from(2)
    })?;
    with::read_into(m, &mut settings)?;
    Ok(settings)
}

fn main() -> ExitCode {
    let matches = match cli().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match matches.subcommand() {
        Some(("inspect", m)) => {
            let json = m.get_flag("json");
            let files: Vec<_> = m
                .get_many::<std::path::PathBuf>("files")
                .map(|f| f.cloned().collect())
                .unwrap_or_default();
            match settings(m) {
                Ok(s) => inspect::run(&files, json, m.get_flag("check-limits"), &s),
                Err(code) => code,
            }
        }
        Some(("convert", m)) => {
            let settings = match settings(m) {
                Ok(s) => s,
                Err(code) => return code,
            };
            let scale = m.get_one::<f32>("scale").copied();
            if scale.is_some_and(|scale| !(scale.is_finite() && scale > 0.0)) {
                eprintln!("scenedec convert: --scale must be finite and positive");
                return ExitCode::from(2);
            }
            let fps = m
                .get_one::<f32>("fps")
                .copied()
                .unwrap_or(scenedec::export::gltf::animations::DEFAULT_FPS);
            if !(fps.is_finite() && fps > 0.0 && fps <= 1000.0) {
                eprintln!(
                    "scenedec convert: --fps must be a number of frames a second in (0, 1000]"
                );
                return ExitCode::from(2);
            }
            let continuous_length = m
                .get_one::<f32>("continuous-length")
                .copied()
                .unwrap_or(scenedec::export::gltf::animations::DEFAULT_CONTINUOUS_LENGTH);
            if !(continuous_length.is_finite()
                && continuous_length > 0.0
                && continuous_length <= 1000.0)
            {
                eprintln!(
                    "scenedec convert: --continuous-length must be a number of seconds in (0, 1000]"
                );
                return ExitCode::from(2);
            }
            let Some(files) = m.get_many::<std::path::PathBuf>("files") else {
                return ExitCode::from(2);
            };
            let request = convert::Request {
                files: files.cloned().collect(),
                output: m.get_one::<std::path::PathBuf>("output").cloned(),
                force: m.get_flag("force"),
                jobs: m
                    .get_one::<u16>("jobs")
                    .map_or_else(default_jobs, |&n| usize::from(n)),
                format: m.get_one::<String>("format").map(|f| {
                    if f == "gltf" {
                        Container::Gltf
                    } else {
                        Container::Glb
                    }
                }),
                scale,
                fps,
                continuous_length,
                json: m.get_flag("json"),
                verbose: m.get_flag("verbose"),
                axes: if m.get_one::<String>("axes").is_some_and(|a| a == "source") {
                    scenedec::export::gltf::Axes::Source
                } else {
                    scenedec::export::gltf::Axes::Gltf
                },
                material_clips: if m
                    .get_one::<String>("material-clips")
                    .is_some_and(|h| h == "data")
                {
                    scenedec::export::gltf::MaterialClips::Data
                } else {
                    scenedec::export::gltf::MaterialClips::Pointer
                },
                hidden: if m.get_one::<String>("hidden").is_some_and(|h| h == "keep") {
                    scenedec::export::gltf::Hidden::Keep
                } else {
                    scenedec::export::gltf::Hidden::Drop
                },
            };
            convert::run(&request, &settings)
        }
        Some(("textures", m)) => {
            let (Some(files), Some(dir)) = (
                m.get_many::<std::path::PathBuf>("files"),
                m.get_one::<std::path::PathBuf>("output"),
            ) else {
                return ExitCode::from(2);
            };
            let files: Vec<std::path::PathBuf> = files.cloned().collect();
            match settings(m) {
                Ok(s) => {
                    let request = textures::Request {
                        files: &files,
                        dir,
                        mips: m.get_flag("mips"),
                        json: m.get_flag("json"),
                    };
                    textures::run(&request, &s)
                }
                Err(code) => code,
            }
        }
        Some(("pose", m)) => {
            let (Some(file), Some(animation)) = (
                m.get_one::<std::path::PathBuf>("file"),
                m.get_one::<String>("animation"),
            ) else {
                return ExitCode::from(2);
            };
            let frame = m.get_one::<String>("frame").map(String::as_str);
            let request = pose::Request {
                file,
                animation,
                time: m.get_one::<String>("time").map_or("0", String::as_str),
                frame,
                frame_rate: m.get_one::<String>("frame-rate").map(String::as_str),
                json: m.get_flag("json"),
            };
            match settings(m) {
                Ok(s) => pose::run(&request, &s),
                Err(code) => code,
            }
        }
        Some(("extract", m)) => archive::run_extract(m),
        _ => ExitCode::from(2),
    }
}
