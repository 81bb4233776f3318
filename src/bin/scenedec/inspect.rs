//! `scenedec inspect`: load each file and print a summary, human or JSON
//! (the `--json` schema of docs/cli.md, one object per line).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use scenedec::scene::{
    AlphaMode, AnimationRecord, Blending, Format, LoopMode, MaterialFlags, Wrap,
};
use scenedec::{Error, Scene, Warnings};

use crate::input::{Input, LoadSettings};
use crate::json_out::{counts, error_object, key, number32, report_head, string, vec3};
use crate::out::outln;
use crate::samples::SAMPLES;

/// Inspects `files` (the bundled samples when empty); exit 0 when all loaded,
/// 1 when any failed, 2 when a `--limit` did not apply to a file.
///
/// `check_limits` measures every limit of each file (see `check`); a file
/// that fails on a limit is measured that way without it.
pub fn run(files: &[PathBuf], json: bool, check_limits: bool, settings: &LoadSettings) -> ExitCode {
    let batch = LoadSettings {
        batch: files.len() > 1,
        ..settings.clone()
    };
    let settings = &batch;
    let mut all_ok = true;
    let mut report = |name: &str, input: Result<Input, crate::failure::Failure>| {
        let ok = match input {
            Ok(input) => {
                input.print_notes(name);
                inspect_bytes(name, &input, json, check_limits, settings)
            }
            Err(failure) => {
                print_io_error(name, &failure, json);
                false
            }
        };
        all_ok &= ok;
    };
    if files.is_empty() {
        for (name, bytes) in SAMPLES {
            report(name, Ok(Input::in_memory(bytes)));
        }
    } else {
        for path in files {
            let name = path.display().to_string();
            report(
                &name,
                Input::read(path, settings).map_err(|e| crate::failure::of_read(&name, path, &e)),
            );
        }
    }
    crate::input::exit_code(all_ok)
}

/// The format a file claims by content, else by extension, for the report.
pub fn claimed_format(bytes: &[u8], name: &str) -> &'static str {
    use scenedec::sniff::{Kind, sniff};
    match sniff(bytes) {
        Kind::J3dBmd | Kind::J3dBdl | Kind::Yaz0 => "j3d",
        Kind::Bbmodel | Kind::CompressedBbmodel => "bbmodel",
        Kind::Rarc | Kind::Yaz0Rarc => "rarc",
        Kind::Unknown => match crate::input::extension(Path::new(name))
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("bbmodel") => "bbmodel",
            Some("bmd" | "bdl" | "szs" | "arc") => "j3d",
            _ => "unknown",
        },
    }
}

fn inspect_bytes(
    name: &str,
    input: &Input,
    json: bool,
    check_limits: bool,
    settings: &LoadSettings,
) -> bool {
    let bytes = &input.bytes[..];
    // An archive is listed, not loaded (src/bin/scenedec/archive.rs).
    if crate::archive::is_archive(bytes) {
        return crate::archive::inspect(
            name,
            bytes,
            json,
            &settings.limits.rarc,
            |member, input| model_report(member, input, json, check_limits, settings),
        );
    }
    let (ok, text) = model_report(name, input, json, check_limits, settings);
    outln!("{text}");
    ok
}

/// The report of one model (a loose file or an archive's member): whether
/// it loaded, and its text, human or JSON. `check_limits` measures every
/// limit of the file (see `check`); a file that fails on a limit is
/// measured that way without it: the report follows the file's line
/// (human) or is its `"limits"` key (JSON).
pub fn model_report(
    name: &str,
    input: &Input,
    json: bool,
    check_limits: bool,
    settings: &LoadSettings,
) -> (bool, String) {
    let bytes = &input.bytes[..];
    let start = Instant::now();
    let loaded = crate::input::load(name, input, settings);
    let elapsed = start.elapsed();
    // Asked for, or explaining a limit error; never after a usage error.
    let measure = |e: Option<&Error>| {
        let wanted = match e {
            None => check_limits,
            Some(e) => {
                crate::check::is_limit_error(e) || (check_limits && !e.code().is_caller_error())
            }
        };
        wanted.then(|| crate::check::check(name, input, settings))
    };
    let (ok, mut text, limits) = match &loaded {
        Ok(l) => {
            let scene = l.scene();
            let text = if json {
                json_ok(name, &scene, l.warnings())
            } else {
                human_ok(name, bytes.len(), &scene, l.warnings(), elapsed)
            };
            (true, text, measure(None))
        }
        Err(e) => {
            let format = claimed_format(bytes, name);
            let failure = crate::failure::of_load(name, bytes, e, &settings.limits.rarc);
            let text = if json {
                json_error(name, format, &failure)
            } else {
                failure.human(name, format)
            };
            (false, text, measure(Some(e)))
        }
    };
    if let Some(report) = &limits {
        if json {
            with_limits(&mut text, report);
        } else {
            for line in report.human() {
                text.push_str(&format!("\n  {name}: {line}"));
            }
        }
    }
    (ok, text)
}

/// Adds `"limits": {...}` (see `check::Report::json`) before a JSON
/// object's closing brace.
fn with_limits(line: &mut String, report: &crate::check::Report) {
    line.pop();
    line.push_str(", \"limits\": ");
    line.push_str(&report.json());
    line.push('}');
}

/// Prints the report of a file that could not be read.
fn print_io_error(name: &str, failure: &crate::failure::Failure, json: bool) {
    if json {
        outln!("{}", json_error(name, "unknown", failure));
    } else {
        outln!("{}", failure.human(name, "unknown"));
    }
}

/// The report of a file that failed: every field present, empty or zero.
fn json_error(name: &str, format: &str, failure: &crate::failure::Failure) -> String {
    let mut out = String::from("{");
    let mut first = true;
    key(&mut out, &mut first, "file");
    string(&mut out, name);
    key(&mut out, &mut first, "format");
    string(&mut out, format);
    key(&mut out, &mut first, "ok");
    out.push_str("false");
    key(&mut out, &mut first, "error");
    error_object(&mut out, &failure.code, &failure.at, &failure.message);
    out.push_str(", \"nodes\": [], \"meshes\": 0, \"vertices\": 0, \"triangles\": 0, \"hidden_triangles\": 0, \"materials\": [], \"textures\": [], \"animations\": [], \"warnings\": [], \"warnings_not_kept\": 0, \"bbox\": null}");
    out
}

fn json_ok(name: &str, scene: &Scene<'_>, warnings: &Warnings) -> String {
    let mut out = report_head(name, scene.format().as_str(), None);
    let mut first = false;

    key(&mut out, &mut first, "nodes");
    list(&mut out, scene.nodes(), |out, n| {
        object(out, |out, f| {
            key(out, f, "name");
            string(out, scene.text(n.name));
            key(out, f, "parent");
            out.push_str(&n.parent.to_string());
        })
    });
    key(&mut out, &mut first, "meshes");
    out.push_str(&scene.meshes().len().to_string());
    key(&mut out, &mut first, "vertices");
    out.push_str(&scene.positions().len().to_string());
    key(&mut out, &mut first, "triangles");
    out.push_str(&scene.triangle_count().to_string());
    // Of them, in meshes the model does not draw (hidden, or under a
    // hidden group): what convert leaves out by default.
    key(&mut out, &mut first, "hidden_triangles");
    out.push_str(&scene.hidden_triangle_count().to_string());
    key(&mut out, &mut first, "materials");
    let triangles = triangles_per_material(scene);
    let materials = scene.materials().iter().zip(&triangles);
    list(
        &mut out,
        &materials.collect::<Vec<_>>(),
        |out, (m, tris)| {
            object(out, |out, f| {
                key(out, f, "name");
                string(out, scene.text(m.name));
                key(out, f, "texture");
                out.push_str(&m.texture.to_string());
                key(out, f, "alpha_mode");
                string(out, alpha_mode_name(m.alpha_mode()));
                key(out, f, "alpha_cutoff");
                number32(out, m.alpha_cutoff);
                key(out, f, "blending");
                string(out, blending_name(m.blending()));
                key(out, f, "alpha_emission");
                out.push_str(bool_str(m.flags & MaterialFlags::ALPHA_EMISSION != 0));
                key(out, f, "layers");
                let layers = m.layers.iter().take(usize::from(m.layer_count));
                list(out, &layers.collect::<Vec<_>>(), |out, l| {
                    out.push_str(&l.to_string())
                });
                key(out, f, "triangles");
                out.push_str(&tris.to_string());
            })
        },
    );
    key(&mut out, &mut first, "textures");
    list(&mut out, scene.textures(), |out, t| {
        object(out, |out, f| {
            key(out, f, "name");
            string(out, scene.text(t.name));
            key(out, f, "width");
            out.push_str(&t.width.to_string());
            key(out, f, "height");
            out.push_str(&t.height.to_string());
            key(out, f, "format");
            string(out, texture_format_name(t.source_format));
            key(out, f, "missing");
            out.push_str(bool_str(t.missing()));
            key(out, f, "frames");
            out.push_str(&t.frame_count.max(1).to_string());
            key(out, f, "wrap");
            string(out, wrap_name(t.wrap_u()));
            key(out, f, "uv_size");
            out.push('[');
            number32(out, t.uv_width);
            out.push_str(", ");
            number32(out, t.uv_height);
            out.push(']');
            key(out, f, "rgba_sha256");
            match mip0_sha256(scene, t) {
                Some(hash) => string(out, &hash),
                None => out.push_str("null"),
            }
        })
    });
    key(&mut out, &mut first, "animations");
    let mut clip = 0;
    list(&mut out, scene.animations(), |out, a| {
        object(out, |out, f| {
            crate::with::clip_json(out, f, scene, clip);
            clip += 1;
            key(out, f, "name");
            string(out, scene.text(a.name));
            key(out, f, "length");
            number32(out, a.length);
            key(out, f, "loop");
            string(out, loop_name(a.loop_mode));
            key(out, f, "channels");
            out.push_str(&a.channel_count.to_string());
            key(out, f, "keyframes");
            out.push_str(&clip_keyframes(scene, a).to_string());
        })
    });
    crate::warnings_out::json(&mut out, &mut first, "warnings", warnings);
    key(&mut out, &mut first, "bbox");
    bbox(&mut out, scene.bbox());
    if scene.format() == Format::J3d {
        key(&mut out, &mut first, "j3d");
        j3d_block(&mut out, scene);
    }
    out.push('}');
    out
}

/// How many triangles of the scene each material draws (untextured ones,
/// material −1, are the scene's triangles minus their sum).
fn triangles_per_material(scene: &Scene<'_>) -> Vec<u64> {
    let mut out = vec![0u64; scene.materials().len()];
    for g in scene.groups() {
        if let Some(n) = usize::try_from(g.material)
            .ok()
            .and_then(|i| out.get_mut(i))
        {
            *n += u64::from(g.index_count / 3);
        }
    }
    out
}

fn bool_str(b: bool) -> &'static str {
    if b { "true" } else { "false" }
}

fn alpha_mode_name(mode: AlphaMode) -> &'static str {
    match mode {
        AlphaMode::Opaque => "opaque",
        AlphaMode::Mask => "mask",
        AlphaMode::Blend => "blend",
    }
}

fn blending_name(blending: Blending) -> &'static str {
    match blending {
        Blending::Normal => "normal",
        Blending::Additive => "additive",
    }
}

/// A texture's wrap on U ("repeat" or "clamp"; J3D also "mirror").
fn wrap_name(wrap: Wrap) -> &'static str {
    match wrap {
        Wrap::Clamp => "clamp",
        Wrap::Repeat => "repeat",
        Wrap::Mirror => "mirror",
    }
}

/// The `j3d` block of design.md, from [`scenedec::j3d::summary`].
fn j3d_block(out: &mut String, scene: &Scene<'_>) {
    let summary = scenedec::j3d::summary(scene.input(), &scenedec::j3d::Options::default())
        .unwrap_or_default();
    object(out, |out, f| {
        key(out, f, "sections");
        list(out, &summary.sections, |out, s| string(out, s.as_str()));
        key(out, f, "scaling_rule");
        match summary.scaling_rule {
            Some(rule) => string(out, rule.as_str()),
            None => out.push_str("null"),
        }
        key(out, f, "vertex_arrays");
        object(out, |out, g| {
            let names = [
                "position", "normal", "nbt", "color0", "color1", "tex0", "tex1", "tex2", "tex3",
                "tex4", "tex5", "tex6", "tex7",
            ];
            for (name, n) in names.iter().zip(summary.vertex_arrays) {
                key(out, g, name);
                out.push_str(&n.to_string());
            }
        });
        counts(
            out,
            f,
            &[
                ("shapes", summary.shapes),
                ("joints", summary.joints),
                ("envelopes", summary.envelopes),
                ("draw_matrices", summary.draw_matrices),
                ("packets", summary.packets),
            ],
        );
        key(out, f, "primitives");
        let p = summary.primitives;
        object(out, |out, g| {
            counts(
                out,
                g,
                &[
                    ("triangles", p.triangles),
                    ("triangle_strip", p.triangle_strip),
                    ("triangle_fan", p.triangle_fan),
                    ("quads", p.quads),
                    ("lines", p.lines),
                    ("line_strip", p.line_strip),
                    ("points", p.points),
                ],
            );
        });
        key(out, f, "raw_position_bbox");
        bbox(out, summary.raw_position_bbox);
    });
}

fn bbox(out: &mut String, b: Option<scenedec::scene::Aabb>) {
    match b {
        Some(b) => {
            out.push('[');
            vec3(out, b.min);
            out.push_str(", ");
            vec3(out, b.max);
            out.push(']');
        }
        None => out.push_str("null"),
    }
}

fn list<T>(out: &mut String, items: &[T], mut item: impl FnMut(&mut String, &T)) {
    out.push('[');
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        item(out, x);
    }
    out.push(']');
}

fn object(out: &mut String, body: impl FnOnce(&mut String, &mut bool)) {
    out.push('{');
    let mut first = true;
    body(out, &mut first);
    out.push('}');
}

fn texture_format_name(code: u32) -> &'static str {
    use scenedec::scene::SourceFormat;
    match code {
        SourceFormat::PNG => "PNG",
        0x0 => "I4",
        0x1 => "I8",
        0x2 => "IA4",
        0x3 => "IA8",
        0x4 => "RGB565",
        0x5 => "RGB5A3",
        0x6 => "RGBA8",
        0x8 => "C4",
        0x9 => "C8",
        0xA => "C14X2",
        0xE => "CMPR",
        _ => "unknown",
    }
}

fn mip0_sha256(scene: &Scene<'_>, t: &scenedec::scene::TextureRecord) -> Option<String> {
    use sha2::{Digest, Sha256};
    if t.mip_count == 0 {
        return None;
    }
    let mip = scene.mips().get(t.first_mip as usize)?;
    let len = (mip.width as usize) * (mip.height as usize) * 4;
    let start = mip.offset as usize;
    let pixels = scene.pixels().get(start..start + len)?;
    let digest = Sha256::digest(pixels);
    Some(digest.iter().map(|b| format!("{b:02x}")).collect())
}

fn human_ok(
    name: &str,
    bytes: usize,
    scene: &Scene<'_>,
    warnings: &Warnings,
    elapsed: Duration,
) -> String {
    let secs = elapsed.as_secs_f64().max(1e-9);
    let mut s = format!(
        "{name}: {} ok\n  {} nodes, {} meshes, {} vertices, {} triangles, {} materials, {} textures, {} animations",
        scene.format().as_str(),
        scene.nodes().len(),
        scene.meshes().len(),
        scene.positions().len(),
        scene.triangle_count(),
        scene.materials().len(),
        scene.textures().len(),
        scene.animations().len(),
    );
    let hidden = scene.hidden_triangle_count();
    if hidden > 0 {
        s.push_str(&format!(" ({hidden} triangles hidden)"));
    }
    if scene.format() == Format::J3d
        && let Ok(summary) = scenedec::j3d::summary(scene.input(), &Default::default())
    {
        let ids: Vec<&str> = summary.sections.iter().map(|s| s.as_str()).collect();
        let p = summary.primitives;
        s.push_str(&format!(
                "\n  sections: {}; scaling rule {}; {} shapes, {} packets, {} joints, {} envelopes, {} draw matrices\n  primitives: {} triangle lists, {} strips, {} fans, {} quads, {} lines, {} line strips, {} points",
                ids.join(" "),
                summary.scaling_rule.map_or("?", |r| r.as_str()),
                summary.shapes,
                summary.packets,
                summary.joints,
                summary.envelopes,
                summary.draw_matrices,
                p.triangles, p.triangle_strip, p.triangle_fan, p.quads, p.lines, p.line_strip, p.points,
            ));
    }
    for (i, a) in scene.animations().iter().enumerate() {
        if let Some(line) = crate::with::clip_line(scene, i) {
            s.push_str(&line);
            continue;
        }
        s.push_str(&format!(
            "\n  animation {}: {:.3} s, {}, {} channels, {} keyframes",
            crate::json_out::quoted(scene.text(a.name)),
            a.length,
            loop_name(a.loop_mode),
            a.channel_count,
            clip_keyframes(scene, a),
        ));
    }
    if let Some(b) = scene.bbox() {
        s.push_str(&format!(
            "\n  bbox: ({:.3}, {:.3}, {:.3}) .. ({:.3}, {:.3}, {:.3})",
            b.min[0], b.min[1], b.min[2], b.max[0], b.max[1], b.max[2]
        ));
    }
    s.push_str(&crate::warnings_out::human(warnings));
    s.push_str(&format!(
        "\n  loaded {bytes} bytes in {:.3} ms ({:.1} MB/s)",
        secs * 1e3,
        bytes as f64 / secs / 1e6
    ));
    s
}

/// `"once"`, `"hold"` or `"loop"`, as `inspect --json` writes a clip's loop mode.
fn loop_name(mode: u32) -> &'static str {
    match mode {
        m if m == LoopMode::Hold as u32 => "hold",
        m if m == LoopMode::Loop as u32 => "loop",
        _ => "once",
    }
}

/// Keyframes of all of a clip's channels.
fn clip_keyframes(scene: &Scene<'_>, a: &AnimationRecord) -> u64 {
    let first = a.first_channel as usize;
    scene
        .channels()
        .get(first..first + a.channel_count as usize)
        .unwrap_or_default()
        .iter()
        .map(|c| u64::from(c.keyframe_count))
        .sum()
}
