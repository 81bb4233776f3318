//! What `pose` prints beyond world matrices: `--frame F` (J3D clips count
//! frames), every node's local translation, rotation (a unit quaternion)
//! and scale, and for a J3D clip the material state it animates and each
//! shape's visibility (`"frame"`, `"materials"`, `"shapes"`).

use clap::{Arg, ArgGroup, Command};
use scenedec::Scene;
use scenedec::scene::{ColorSlot, NodePose};

use crate::json_out;

/// Adds `--frame F` to `pose`, which then takes `--time` or `--frame`.
pub fn frame_arg(command: Command) -> Command {
    command
        .mut_arg("time", |a| a.required(false))
        .arg(
            Arg::new("frame")
                .long("frame")
                .value_name("F")
                .allow_negative_numbers(true)
                .help("Frames from the clip's start, for a J3D clip (finite, at least 0); instead of --time"),
        )
        .arg(
            Arg::new("frame-rate")
                .long("frame-rate")
                .value_name("R")
                .conflicts_with("frame")
                .help("Frames a second --time counts for a J3D clip (default: the clip's, 30)"),
        )
        .group(
            ArgGroup::new("when")
                .args(["time", "frame"])
                .required(true),
        )
}

/// `--frame`'s value, or the usage error's message.
pub fn parse_frame(frame: &str) -> Result<f32, String> {
    let f = frame
        .trim()
        .parse::<f32>()
        .map_err(|_| format!("--frame {frame:?}: expected a number of frames"))?;
    if !(f.is_finite() && f >= 0.0) {
        return Err(format!(
            "--frame {frame:?}: expected a finite number of frames, at least 0"
        ));
    }
    Ok(f + 0.0)
}

/// `--frame-rate`'s value, or the usage error's message.
pub fn parse_rate(rate: &str) -> Result<f32, String> {
    match rate.trim().parse::<f32>() {
        Ok(r) if r.is_finite() && r > 0.0 => Ok(r),
        _ => Err(format!(
            "--frame-rate {rate:?}: expected a finite number of frames a second, above 0"
        )),
    }
}

/// The unit quaternion `[x, y, z, w]` of Euler angles applied X, then Y,
/// then Z (`Rz · Ry · Rx`), the scene's rotation order.
pub fn quaternion([x, y, z]: [f32; 3]) -> [f32; 4] {
    let (sx, cx) = (f64::from(x) * 0.5).sin_cos();
    let (sy, cy) = (f64::from(y) * 0.5).sin_cos();
    let (sz, cz) = (f64::from(z) * 0.5).sin_cos();
    #[allow(clippy::cast_possible_truncation)]
    [
        (sx * cy * cz - cx * sy * sz) as f32,
        (cx * sy * cz + sx * cy * sz) as f32,
        (cx * cy * sz - sx * sy * cz) as f32,
        (cx * cy * cz + sx * sy * sz) as f32,
    ]
}

fn numbers(out: &mut String, values: &[f32]) {
    out.push('[');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        json_out::number32(out, *v);
    }
    out.push(']');
}

/// `"translation"`, `"rotation"` (quaternion) and `"scale"` of a node's local pose.
pub fn local_keys(out: &mut String, first: &mut bool, pose: &NodePose) {
    json_out::key(out, first, "translation");
    numbers(out, &pose.translation);
    json_out::key(out, first, "rotation");
    numbers(out, &quaternion(pose.rotation));
    json_out::key(out, first, "scale");
    numbers(out, &pose.scale);
}

/// `"frame"`, `"materials"` and `"shapes"` of J3D clip `clip` at `frames`
/// frames since its start; nothing for a clip that is not a J3D clip.
pub fn clip_keys(out: &mut String, first: &mut bool, scene: &Scene<'_>, clip: usize, frames: f32) {
    let Ok((_, frame)) = scene.clip_frame(clip, frames) else {
        return;
    };
    json_out::key(out, first, "frame");
    json_out::number32(out, frame);
    json_out::key(out, first, "materials");
    out.push('[');
    for (m, material) in scene.materials().iter().enumerate() {
        if m > 0 {
            out.push_str(", ");
        }
        out.push('{');
        let mut first = true;
        json_out::key(out, &mut first, "name");
        json_out::string(out, scene.text(material.name));
        if let Ok(sample) = scene.sample_material(clip, frames, m) {
            material_keys(out, &mut first, &sample);
        }
        out.push('}');
    }
    out.push(']');
    json_out::key(out, first, "shapes");
    out.push('[');
    for (s, mesh) in scene.meshes().iter().enumerate() {
        if s > 0 {
            out.push_str(", ");
        }
        let shown = match scene.sample_visibility(clip, frames, s) {
            Ok(Some(v)) => v,
            _ => scene.mesh_drawn(mesh),
        };
        out.push_str(if shown { "true" } else { "false" });
    }
    out.push(']');
}

fn material_keys(out: &mut String, first: &mut bool, sample: &scenedec::scene::MaterialSample) {
    if sample.texture_matrices.iter().any(Option::is_some) {
        json_out::key(out, first, "texture_matrices");
        out.push('[');
        let mut any = false;
        for (slot, m) in sample.texture_matrices.iter().enumerate() {
            let Some(m) = m else { continue };
            if any {
                out.push_str(", ");
            }
            any = true;
            out.push('{');
            let mut f = true;
            json_out::key(out, &mut f, "slot");
            out.push_str(&slot.to_string());
            json_out::key(out, &mut f, "scale");
            numbers(out, &m.scale);
            json_out::key(out, &mut f, "rotation");
            json_out::number32(out, m.rotation);
            json_out::key(out, &mut f, "translation");
            numbers(out, &m.translation);
            json_out::key(out, &mut f, "matrix");
            numbers(out, &m.matrix);
            out.push('}');
        }
        out.push(']');
    }
    if sample.colors.iter().any(Option::is_some) {
        json_out::key(out, first, "colors");
        out.push('{');
        let mut f = true;
        for (slot, rgba) in sample.colors.iter().enumerate() {
            let (Some(rgba), Some(name)) = (rgba, ColorSlot::name(slot)) else {
                continue;
            };
            json_out::key(out, &mut f, name);
            numbers(out, rgba);
        }
        out.push('}');
    }
    if sample.textures.iter().any(Option::is_some) {
        json_out::key(out, first, "textures");
        out.push('[');
        let mut any = false;
        for (slot, t) in sample.textures.iter().enumerate() {
            let Some(t) = t else { continue };
            if any {
                out.push_str(", ");
            }
            any = true;
            out.push_str(&format!("{{\"slot\": {slot}, \"texture\": {t}}}"));
        }
        out.push(']');
    }
}
