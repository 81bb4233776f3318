//! `scenedec textures FILE -o DIR [--mips] [--json]`: load a model and
//! write each of its decoded textures as PNG (see `scenedec::export::png`).
//!
//! A frame strip is written whole, every frame, because that is the
//! file's image; the frame count is what tells a reader it is a strip
//! (`--json`'s `frames`, and the summary line), since the glTF export
//! writes the same texture as frame 0 alone.

use std::path::Path;
use std::process::ExitCode;

use scenedec::export::png::Written;
use scenedec::scene::Scene;

use crate::input::{Input, LoadSettings};
use crate::json_out::{key, string};
use crate::out::outln;

/// What to write.
pub struct Request<'a> {
    /// The model.
    pub file: &'a Path,
    /// The folder to write into.
    pub dir: &'a Path,
    /// Every mip level, not only level 0.
    pub mips: bool,
    /// One JSON object per PNG on stdout instead of its path.
    pub json: bool,
}

/// Writes the textures of the request's file into its folder; exit 0 on
/// success, else 1.
pub fn run(request: &Request<'_>, settings: &LoadSettings) -> ExitCode {
    let name = request.file.display();
    let input = match Input::read(request.file, settings) {
        Ok(input) => input,
        Err(e) => {
            let why = crate::failure::of_read(&name.to_string(), request.file, &e);
            eprintln!("{}", why.human(&name.to_string(), "unknown"));
            return ExitCode::FAILURE;
        }
    };
    input.print_notes(&name.to_string());
    let loaded = match crate::input::load(&name.to_string(), &input, settings) {
        Ok(l) => l,
        Err(e) => {
            let format = crate::inspect::claimed_format(&input.bytes, &name.to_string());
            let why = crate::failure::of_load(&name.to_string(), &input.bytes, &e);
            eprintln!("{}", why.human(&name.to_string(), format));
            crate::check::explain_on_stderr(&name.to_string(), &input, settings, &e);
            return crate::input::exit_code(false);
        }
    };
    let scene = loaded.scene();
    match scenedec::export::png::write_texture_files(&scene, request.dir, request.mips) {
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
                request.dir.display(),
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
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!(
                "{name}: FAILED to write into {}: {e}",
                request.dir.display()
            );
            ExitCode::FAILURE
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
