//! `--with FILE` (repeatable, on `inspect`, `pose` and `convert`): J3D
//! animation files attached to each J3D model loaded. Each file is read
//! once, no further than the J3D file limit (`maxFileBytes`), and its bytes
//! go to the library as `j3d::Options::animations`, the clip named after
//! the file's name.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Arg, ArgAction, ArgMatches, Command};

use crate::bounded::{ReadError, read_bounded};
use crate::input::LoadSettings;

/// Adds `--with FILE` to a subcommand.
pub fn with_arg(command: Command) -> Command {
    command.arg(
        Arg::new("with")
            .long("with")
            .value_name("FILE")
            .action(ArgAction::Append)
            .value_parser(clap::value_parser!(PathBuf))
            .help("Attach a J3D animation file (.bck .bca .btk .brk .bpk .btp .bva) to each J3D model as one clip named after the file (repeatable)"),
    )
}

/// Reads every `--with` file of `m` (a subcommand without the flag has
/// none) into `settings`. A file that cannot be read, or is larger than
/// `maxFileBytes`, ends the command: exit 1, the reason on standard error.
pub fn read_into(m: &ArgMatches, settings: &mut LoadSettings) -> Result<(), ExitCode> {
    let Ok(Some(paths)) = m.try_get_many::<PathBuf>("with") else {
        return Ok(());
    };
    let limit = settings.limits.j3d.max_file_bytes;
    for path in paths {
        let shown = path.display();
        let bytes = match read_bounded(path, limit) {
            Ok(bytes) => bytes,
            Err(ReadError::Io(e)) => {
                eprintln!("{shown}: FAILED to read: {e}");
                return Err(ExitCode::FAILURE);
            }
            Err(ReadError::TooLarge { len, limit }) => {
                eprintln!(
                    "{shown}: FAILED FILE_TOO_LARGE: the file is {len} bytes, over maxFileBytes ({limit}); not read"
                );
                return Err(ExitCode::FAILURE);
            }
        };
        let name = path
            .file_name()
            .map_or_else(|| shown.to_string(), |n| n.to_string_lossy().into_owned());
        settings.animations.push((name, bytes));
    }
    Ok(())
}

/// What `inspect` says of clip `index` when it is a J3D clip: kind,
/// frames, loop mode and tracks; `None` for any other clip.
pub fn clip_line(scene: &scenedec::Scene<'_>, index: usize) -> Option<String> {
    let (kind, frames, mode, tracks) = clip_facts(scene, index)?;
    let name = scene.animations().get(index).map(|a| scene.text(a.name))?;
    Some(format!(
        "\n  animation {name:?}: {kind}, {frames} frames, {mode}, {tracks} tracks"
    ))
}

/// `"j3d": {"kind", "frames", "loop", "tracks"}` in `inspect --json`'s
/// object for clip `index`, when it is a J3D clip.
pub fn clip_json(out: &mut String, first: &mut bool, scene: &scenedec::Scene<'_>, index: usize) {
    let Some((kind, frames, mode, tracks)) = clip_facts(scene, index) else {
        return;
    };
    crate::json_out::key(out, first, "j3d");
    out.push_str(&format!(
        "{{\"kind\": \"{kind}\", \"frames\": {frames}, \"loop\": \"{mode}\", \"tracks\": {tracks}}}"
    ));
}

fn clip_facts(
    scene: &scenedec::Scene<'_>,
    index: usize,
) -> Option<(&'static str, f32, &'static str, u32)> {
    use scenedec::scene::{ClipKind, FrameLoop};
    let c = scene.clip_record(index)?;
    Some((
        ClipKind::from_u32(c.kind).map_or("?", ClipKind::as_str),
        c.frames,
        FrameLoop::from_u32(c.loop_mode).as_str(),
        c.track_count,
    ))
}

/// `convert` plays J3D clips' joint tracks, base colour textures' matrices
/// and base colours; the other tracks go into the document's
/// `extras.j3d_tracks`, which no viewer plays: says so on standard error,
/// once per model that has any, naming what they are.
pub fn warn_not_exported(name: &str, n: &scenedec::export::gltf::j3d_materials::Unplayed) {
    if n.total() == 0 {
        return;
    }
    let mut parts = Vec::new();
    for (count, what) in [
        (n.texture_swaps, "texture swap (BTP)"),
        (n.visibility, "visibility of a shape sharing its node (BVA)"),
        (n.colours, "colour the base colour is not made of (BRK/BPK)"),
        (
            n.texture_matrices,
            "texture matrix moving no base colour texture or not expressible (BTK)",
        ),
        (
            n.as_data,
            "base texture matrix or base colour (--material-clips data)",
        ),
    ] {
        if count > 0 {
            parts.push(format!("{count} {what}"));
        }
    }
    eprintln!(
        "{name}: warning: {} track{} of J3D clips kept only as data in extras.j3d_tracks (no glTF viewer plays them): {}",
        n.total(),
        if n.total() == 1 { "" } else { "s" },
        parts.join(", ")
    );
}
