//! `scenedec textures FILE... -o DIR [--mips] [--json]`: load each model
//! and write each of its decoded textures as PNG (see
//! `scenedec::export::png`).
//!
//! Inputs are read as `convert` reads them (`members::expand`): files,
//! folders (every model under them) and archives (their models). One
//! loose model writes into DIR itself; several write each into
//! DIR/<file name>/, or DIR/<path in the folder or archive>/.
//!
//! A frame strip is written whole, every frame, because that is the
//! file's image; the frame count is what tells a reader it is a strip
//! (`--json`'s `frames`, and the summary line), since the glTF export
//! writes the same texture as frame 0 alone.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use scenedec::export::png::Written;
use scenedec::scene::Scene;

use crate::input::{Input, LoadSettings};
use crate::json_out::{key, string};
use crate::out::outln;

/// What to write.
pub struct Request<'a> {
    /// The models, folders and archives.
    pub files: &'a [PathBuf],
    /// The folder to write into.
    pub dir: &'a Path,
    /// Every mip level, not only level 0.
    pub mips: bool,
    /// One JSON object per PNG on stdout instead of its path.
    pub json: bool,
}

/// Writes the textures of every model the request names; exit 0 when all
/// were written, 1 when any failed, 2 on a usage error.
pub fn run(request: &Request<'_>, settings: &LoadSettings) -> ExitCode {
    let jobs = match crate::members::expand(request.files, &settings.limits.rarc) {
        Ok(jobs) => jobs,
        Err(e) => {
            eprintln!("scenedec textures: {e}");
            return ExitCode::from(2);
        }
    };
    let one = jobs.len() == 1 && jobs.iter().all(|j| j.under.is_none());
    let settings = LoadSettings {
        batch: !one,
        ..settings.clone()
    };
    let mut all_ok = true;
    for job in &jobs {
        let dir = if one {
            request.dir.to_path_buf()
        } else {
            let name = match &job.under {
                Some(under) => under.clone(),
                None => PathBuf::from(job.input.file_name().unwrap_or_default()),
            };
            request.dir.join(name)
        };
        all_ok &= write_one(&job.input, &dir, job.walked, request, &settings);
    }
    crate::input::exit_code(all_ok)
}

/// Writes the textures of one model into `dir`; true when written (or,
/// for a walked file that is no model, skipped).
fn write_one(
    file: &Path,
    dir: &Path,
    walked: bool,
    request: &Request<'_>,
    settings: &LoadSettings,
) -> bool {
    let name = file.display();
    let input = match Input::read(file, settings) {
        Ok(input) => input,
        Err(e) => {
            let why = crate::failure::of_read(&name.to_string(), file, &e);
            if walked && why.not_model {
                return true;
            }
            eprintln!("{}", why.human(&name.to_string(), "unknown"));
            return false;
        }
    };
    input.print_notes(&name.to_string());
    let loaded = match crate::input::load(&name.to_string(), &input, settings) {
        Ok(l) => l,
        Err(e) => {
            let format = crate::inspect::claimed_format(&input.bytes, &name.to_string());
            let why =
                crate::failure::of_load(&name.to_string(), &input.bytes, &e, &settings.limits.rarc);
            if walked && why.not_model {
                return true;
            }
            eprintln!("{}", why.human(&name.to_string(), format));
            crate::check::explain_on_stderr(&name.to_string(), &input, settings, &e);
            return false;
        }
    };
    let scene = loaded.scene();
    match scenedec::export::png::write_texture_files(&scene, dir, request.mips) {
        Ok(written) => {
            for w in &written {
                if request.json {
                    outln!("{}", json_line(&scene, w));
                } else {
                    outln!("{}", w.path.display());
                }
            }
            let missing = scene.textures().iter().filter(|t| t.missing()).count();
            let strips = scene
                .textures()
                .iter()
                .filter(|t| t.frame_count > 1)
                .count();
            eprintln!(
                "{name}: {} textures, {} PNG files written to {}{}{}",
                scene.textures().len(),
                written.len(),
                dir.display(),
                if strips > 0 {
                    format!(" ({strips} frame strips, written whole)")
                } else {
                    String::new()
                },
                if missing > 0 {
                    format!(" ({missing} missing textures skipped)")
                } else {
                    String::new()
                }
            );
            true
        }
        Err(e) => {
            eprintln!("{name}: FAILED to write into {}: {e}", dir.display());
            false
        }
    }
}

/// `{"texture", "name", "level", "path", "width", "height", "frames"}` of
/// one PNG written; `frames` is the texture's frame count (1 for a still
/// image), the strip's frames all in the PNG.
fn json_line(scene: &Scene<'_>, w: &Written) -> String {
    let record = scene.textures().get(w.texture);
    let mut out = String::from("{");
    let mut first = true;
    key(&mut out, &mut first, "texture");
    out.push_str(&w.texture.to_string());
    key(&mut out, &mut first, "name");
    string(&mut out, record.map_or("", |t| scene.text(t.name)));
    key(&mut out, &mut first, "level");
    out.push_str(&w.level.to_string());
    key(&mut out, &mut first, "path");
    string(&mut out, &w.path.display().to_string());
    key(&mut out, &mut first, "width");
    out.push_str(&w.width.to_string());
    key(&mut out, &mut first, "height");
    out.push_str(&w.height.to_string());
    key(&mut out, &mut first, "frames");
    out.push_str(&record.map_or(1, |t| t.frame_count.max(1)).to_string());
    out.push('}');
    out
}
