//! `scenedec pose FILE --animation N|NAME --time T [--json]`: load a model,
//! sample one of its clips at one time and print every node's transform
//! there. `--animation` is an index when all digits (so scripts passing
//! indices keep working), else a clip's name; `name:2` names a clip called
//! `2`. An unknown one lists the file's clips.
//!
//! `--json` prints one object, `{"file", "animation", "name", "time",
//! "nodes": [{"name", "translation", "rotation", "scale", "world"}]}`, the
//! local pose (rotation a unit quaternion; for .bbmodel, rotation and scale
//! turn about the node's pivot) and the world matrix column-major, in the
//! scene's node order, plus for a J3D clip what `pose_j3d.rs` adds; without
//! it, a table. Exit status: 0 printed, 1 the
//! file did not load, 2 a bad N or T.

use std::path::Path;
use std::process::ExitCode;

use scenedec::Scene;
use scenedec::scene::{LoopMode, Mat4, NodePose, clip_loop_mode, clip_time, world_matrices};

use crate::input::{Input, LoadSettings};
use crate::json_out::{self, quoted};

/// What to sample, as given on the command line (checked by [`parse`]).
pub struct Request<'a> {
    /// The model file.
    pub file: &'a Path,
    /// `--animation`, unparsed.
    pub animation: &'a str,
    /// `--time`, unparsed.
    pub time: &'a str,
    /// `--frame`, unparsed (J3D clips; instead of `--time`).
    pub frame: Option<&'a str>,
    /// `--frame-rate`, unparsed (J3D clips: frames a second of `--time`).
    pub frame_rate: Option<&'a str>,
    /// `--json`.
    pub json: bool,
}

/// A usage error: printed, exit 2.
fn usage(message: &str) -> ExitCode {
    eprintln!("scenedec pose: {message}");
    ExitCode::from(2)
}

/// What `--animation` names: an index (all digits), or a clip's name
/// (anything else; `name:` before it makes it a name even when it is all
/// digits, for a clip called `2`).
#[derive(Debug, PartialEq, Eq)]
enum Wanted<'a> {
    Index(usize),
    Name(&'a str),
}

fn wanted(animation: &str) -> Result<Wanted<'_>, String> {
    if let Some(name) = animation.strip_prefix("name:") {
        return Ok(Wanted::Name(name));
    }
    let trimmed = animation.trim();
    if !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit()) {
        return trimmed
            .parse::<usize>()
            .map(Wanted::Index)
            .map_err(|_| format!("--animation {}: no such animation index", quoted(animation)));
    }
    if animation.is_empty() {
        return Err("--animation: expected an index or a name".to_string());
    }
    Ok(Wanted::Name(animation))
}

/// The clip `--animation` picks among `names` (the scene's clips, in
/// order), or the usage error, which lists the clips.
fn choose(animation: &str, names: &[&str], file: &str) -> Result<usize, String> {
    let listing = || {
        if names.is_empty() {
            format!("{file} has no animations")
        } else {
            let each: Vec<String> = names
                .iter()
                .enumerate()
                .map(|(i, n)| format!("{i} {}", quoted(n)))
                .collect();
            format!("{file} has {}", each.join(", "))
        }
    };
    match wanted(animation)? {
        Wanted::Index(i) if i < names.len() => Ok(i),
        Wanted::Index(i) => Err(format!("--animation {i}: {}", listing())),
        Wanted::Name(name) => {
            // The exact name first, then one that differs only in case.
            let exact = names.iter().position(|n| *n == name);
            let folded = || {
                let mut hits = names
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| n.eq_ignore_ascii_case(name));
                match (hits.next(), hits.next()) {
                    (Some((i, _)), None) => Some(i),
                    _ => None,
                }
            };
            exact.or_else(folded).ok_or_else(|| {
                format!(
                    "--animation {}: no animation of that name; {}",
                    quoted(name),
                    listing()
                )
            })
        }
    }
}

/// The time, or the usage error's message.
fn parse_time(time: &str) -> Result<f32, String> {
    let t = time
        .trim()
        .parse::<f32>()
        .map_err(|_| format!("--time {}: expected a number of seconds", quoted(time)))?;
    if !(t.is_finite() && t >= 0.0) {
        return Err(format!(
            "--time {}: expected a finite number of seconds, at least 0",
            quoted(time)
        ));
    }
    // -0 prints as 0.
    Ok(t + 0.0)
}

/// Samples and prints; see the module doc for the exit status.
pub fn run(request: &Request<'_>, settings: &LoadSettings) -> ExitCode {
    let time = match parse_time(request.time).and_then(|t| wanted(request.animation).map(|_| t)) {
        Ok(time) => time,
        Err(message) => return usage(&message),
    };
    let frame = match request.frame.map(crate::pose_j3d::parse_frame).transpose() {
        Ok(frame) => frame,
        Err(message) => return usage(&message),
    };
    let rate = match request
        .frame_rate
        .map(crate::pose_j3d::parse_rate)
        .transpose()
    {
        Ok(rate) => rate,
        Err(message) => return usage(&message),
    };
    let name = request.file.display().to_string();
    let input = match Input::read(request.file, settings) {
        Ok(input) => input,
        Err(e) => {
            let why = crate::failure::of_read(&name.to_string(), request.file, &e);
            eprintln!("{}", why.human(&name.to_string(), "unknown"));
            return ExitCode::FAILURE;
        }
    };
    input.print_notes(&name);
    let loaded = match crate::input::load(&name, &input, settings) {
        Ok(l) => l,
        Err(e) => {
            let format = crate::inspect::claimed_format(&input.bytes, &name.to_string());
            let why =
                crate::failure::of_load(&name.to_string(), &input.bytes, &e, &settings.limits.rarc);
            eprintln!("{}", why.human(&name.to_string(), format));
            crate::check::explain_on_stderr(&name, &input, settings, &e);
            return crate::input::exit_code(false);
        }
    };
    let scene = loaded.scene();
    let names: Vec<&str> = scene
        .animations()
        .iter()
        .map(|a| scene.text(a.name))
        .collect();
    let clip = match choose(request.animation, &names, &name) {
        Ok(clip) => clip,
        Err(message) => return usage(&message),
    };
    // J3D clips count frames: --frame as given, --time at the clip's rate.
    let frames = match (scene.clip_record(clip), frame) {
        (Some(j3d), None) => Some(time * rate.unwrap_or(j3d.frame_rate)),
        (Some(_), Some(f)) => Some(f),
        (None, Some(_)) => {
            return usage(&format!(
                "--frame: animation {clip} of {name} is not a J3D clip; give --time"
            ));
        }
        (None, None) if rate.is_some() => {
            return usage(&format!(
                "--frame-rate: animation {clip} of {name} is not a J3D clip"
            ));
        }
        (None, None) => None,
    };
    // With --frame, "time" is that frame in seconds at the clip's rate.
    let time = match (frame, scene.clip_record(clip)) {
        (Some(f), Some(j3d)) if j3d.frame_rate > 0.0 => f / rate.unwrap_or(j3d.frame_rate),
        _ => time,
    };
    let mut poses = vec![NodePose::default(); scene.nodes().len()];
    let sampled = match (frame.or(rate), frames) {
        (Some(_), Some(f)) => scene.sample_frame(clip, f, &mut poses),
        _ => scene.sample(clip, time, &mut poses),
    };
    if let Err(e) = sampled {
        // Unreachable after the checks above; reported rather than assumed.
        return usage(&e.to_string());
    }
    let mut world = vec![Mat4::IDENTITY; poses.len()];
    world_matrices(&scene, &poses, &mut world);
    let out = if request.json {
        json(&scene, &name, clip, time, frames, &poses, &world)
    } else {
        table(&scene, &name, clip, time, &poses, &world)
    };
    crate::out::text(format_args!("{out}"));
    ExitCode::SUCCESS
}

/// The `--json` object and its newline.
fn json(
    scene: &Scene<'_>,
    file: &str,
    clip: usize,
    time: f32,
    frames: Option<f32>,
    poses: &[NodePose],
    world: &[Mat4],
) -> String {
    let mut out = String::from("{");
    let mut first = true;
    json_out::key(&mut out, &mut first, "file");
    json_out::string(&mut out, file);
    json_out::key(&mut out, &mut first, "animation");
    out.push_str(&clip.to_string());
    json_out::key(&mut out, &mut first, "name");
    let clip_name = scene.animations().get(clip).map(|a| scene.text(a.name));
    json_out::string(&mut out, clip_name.unwrap_or_default());
    json_out::key(&mut out, &mut first, "time");
    json_out::number32(&mut out, time);
    json_out::key(&mut out, &mut first, "nodes");
    out.push('[');
    for (i, ((node, m), pose)) in scene.nodes().iter().zip(world).zip(poses).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push('{');
        let mut first = true;
        json_out::key(&mut out, &mut first, "name");
        json_out::string(&mut out, scene.text(node.name));
        crate::pose_j3d::local_keys(&mut out, &mut first, pose);
        json_out::key(&mut out, &mut first, "world");
        out.push('[');
        for (k, v) in m.0.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            json_out::number32(&mut out, *v);
        }
        out.push_str("]}");
    }
    out.push(']');
    if let Some(frames) = frames {
        crate::pose_j3d::clip_keys(&mut out, &mut first, scene, clip, frames);
    }
    out.push_str("}\n");
    out
}

/// The readable form: a heading, then one row per node with its pose
/// (rotation in degrees) and where its origin lands in model space.
fn table(
    scene: &Scene<'_>,
    file: &str,
    clip: usize,
    time: f32,
    poses: &[NodePose],
    world: &[Mat4],
) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    if let Some(a) = scene.animations().get(clip) {
        let mode = match clip_loop_mode(a) {
            LoopMode::Once => "once",
            LoopMode::Hold => "hold",
            LoopMode::Loop => "loop",
        };
        let shown =
            clip_time(a, time).map_or_else(|| "rest, after the end".into(), |t| format!("{t} s"));
        let _ = writeln!(
            out,
            "{file}: animation {clip} {} ({mode}, {} s) at {time} s: clip time {shown}",
            quoted(scene.text(a.name)),
            a.length
        );
    }
    let width = scene
        .nodes()
        .iter()
        .map(|n| scene.text(n.name).chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    let _ = writeln!(
        out,
        "{:width$}  {:>26}  {:>26}  {:>26}  {:>26}",
        "node", "translation", "rotation (deg)", "scale", "world origin"
    );
    for ((node, pose), m) in scene.nodes().iter().zip(poses).zip(world) {
        let _ = writeln!(
            out,
            "{:width$}  {}  {}  {}  {}",
            scene.text(node.name),
            vec3(pose.translation),
            vec3(pose.rotation.map(f32::to_degrees)),
            vec3(pose.scale),
            vec3(m.transform_point([0.0; 3])),
        );
    }
    out
}

/// Three numbers in 26 columns.
fn vec3(v: [f32; 3]) -> String {
    format!("{:>8.3} {:>8.3} {:>8.3}", v[0], v[1], v[2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_must_be_finite_seconds_at_least_0() {
        assert_eq!(parse_time("0.5"), Ok(0.5));
        assert_eq!(parse_time("-0"), Ok(0.0));
        for t in ["-0.1", "nan", "inf", "1e40", "soon"] {
            assert!(parse_time(t).is_err(), "{t}");
        }
    }

    #[test]
    fn animation_is_an_index_when_all_digits_else_a_name() {
        let names = ["walk", "Idle", "2", "run", "RUN"];
        assert_eq!(choose("1", &names, "f"), Ok(1));
        assert_eq!(choose("walk", &names, "f"), Ok(0));
        // Case is ignored only when one clip matches so.
        assert_eq!(choose("idle", &names, "f"), Ok(1));
        assert_eq!(choose("RUN", &names, "f"), Ok(4));
        assert!(choose("Run", &names, "f").is_err());
        // All digits is an index; `name:` makes it a name.
        assert_eq!(choose("2", &names, "f"), Ok(2));
        assert_eq!(choose("name:2", &names, "f"), Ok(2));
        assert_eq!(choose("name:walk", &names, "f"), Ok(0));
        let unknown = choose("jump", &names, "f").unwrap_err();
        assert!(unknown.contains("0 \"walk\", 1 \"Idle\""), "{unknown}");
        assert!(choose("5", &names, "f").unwrap_err().contains("4 \"RUN\""));
        for bad in ["", "-1", "1.5", "99999999999999999999999"] {
            assert!(choose(bad, &names, "f").is_err(), "{bad}");
        }
        assert!(
            choose("0", &[], "f")
                .unwrap_err()
                .contains("f has no animations")
        );
    }
}
