//! `scenedec textures FILE -o DIR [--mips]`: load a model and write each of
//! its decoded textures as PNG (see `scenedec::export::png`).

use std::path::Path;
use std::process::ExitCode;

use crate::input::{Input, LoadSettings};

/// Writes the textures of `file` into `dir`; exit 0 on success, else 1.
pub fn run(file: &Path, dir: &Path, mips: bool, settings: &LoadSettings) -> ExitCode {
    let name = file.display();
    let input = match Input::read(file, settings) {
        Ok(input) => input,
        Err(e) => {
            eprintln!("{name}: FAILED to read: {e}");
            return ExitCode::FAILURE;
        }
    };
    let loaded = match crate::input::load(&name.to_string(), &input.bytes, &input.picked, settings)
    {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{name}: FAILED {e} (at {})", e.at());
            return ExitCode::FAILURE;
        }
    };
    let scene = loaded.scene();
    match scenedec::export::png::write_textures(&scene, dir, mips) {
        Ok(paths) => {
            for path in &paths {
                println!("{}", path.display());
            }
            let missing = scene.textures().iter().filter(|t| t.missing()).count();
            eprintln!(
                "{name}: {} textures, {} PNG files written to {}{}",
                scene.textures().len(),
                paths.len(),
                dir.display(),
                if missing > 0 {
                    format!(" ({missing} missing textures skipped)")
                } else {
                    String::new()
                }
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{name}: FAILED to write into {}: {e}", dir.display());
            ExitCode::FAILURE
        }
    }
}
