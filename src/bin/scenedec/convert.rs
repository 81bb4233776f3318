//! `scenedec convert FILE... -o OUT`: load each model and write it as glTF
//! 2.0 (see `scenedec::export::gltf`); one summary line per file, or one
//! JSON object per line with `--json`; a progress bar on batches when
//! stderr is a terminal.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use scenedec::export::gltf::{self, Container, Summary};

use crate::input::{Input, LoadSettings};
use crate::json_out::{counts, error_object, key, number, string};
use crate::members::Job;
use crate::out::outln;

/// What `convert` was asked to do.
pub struct Request {
    /// Input models.
    pub files: Vec<PathBuf>,
    /// `-o`: a file for one input, a folder for several.
    pub output: PathBuf,
    /// `--format`, when given.
    pub format: Option<Container>,
    /// `--scale`; `None`: metres (`gltf::metres_per_unit`).
    pub scale: Option<f32>,
    /// `--axes`.
    pub axes: gltf::Axes,
    /// `--fps`: the rate clips are sampled at.
    pub fps: f32,
    /// `--json`.
    pub json: bool,
    /// `--verbose`: print each file's warning groups.
    pub verbose: bool,
    /// `--hidden`: what becomes of meshes the model does not draw.
    pub hidden: gltf::Hidden,
}

/// Where each model goes and in which container; a usage error as text.
/// `jobs` are the models the inputs stand for (`members::expand`): a loose
/// file goes to `-o` itself when it is the only one, else to
/// `OUT/<file name>.glb`; a model found in an archive or a folder to
/// `OUT/<its path there>.glb`.
pub fn plan(request: &Request, jobs: &[Job]) -> Result<Vec<(PathBuf, PathBuf, Container)>, String> {
    let by_extension = Container::from_path(&request.output);
    let folder =
        jobs.len() > 1 || request.output.is_dir() || jobs.iter().any(|j| j.under.is_some());
    if folder {
        if by_extension.is_some() && !request.output.is_dir() {
            return Err(format!(
                "-o {}: several inputs need a folder, not a file",
                request.output.display()
            ));
        }
        let container = request.format.unwrap_or(Container::Glb);
        return Ok(jobs
            .iter()
            .map(|job| {
                let name = match &job.under {
                    Some(under) => under.to_string_lossy().into_owned(),
                    None => job.input.file_name().map_or_else(
                        || String::from("model"),
                        |n| n.to_string_lossy().into_owned(),
                    ),
                };
                let out = request
                    .output
                    .join(format!("{name}.{}", container.extension()));
                (job.input.clone(), out, container)
            })
            .collect());
    }
    let container = match (by_extension, request.format) {
        (Some(e), Some(f)) if e != f => {
            return Err(format!(
                "-o {} says .{} but --format says {}",
                request.output.display(),
                e.extension(),
                f.extension()
            ));
        }
        (Some(c), _) | (None, Some(c)) => c,
        (None, None) => {
            return Err(format!(
                "-o {}: name a .glb or .gltf file, or give --format",
                request.output.display()
            ));
        }
    };
    Ok(jobs
        .iter()
        .map(|job| (job.input.clone(), request.output.clone(), container))
        .collect())
}

/// Converts every file; exit 0 when all were written, 1 when any failed.
pub fn run(request: &Request, settings: &LoadSettings) -> ExitCode {
    let jobs = match crate::members::expand(&request.files).and_then(|j| plan(request, &j)) {
        Ok(jobs) => jobs,
        Err(e) => {
            eprintln!("scenedec convert: {e}");
            return ExitCode::from(2);
        }
    };
    let batch = LoadSettings {
        batch: jobs.len() > 1,
        ..settings.clone()
    };
    let settings = &batch;
    // Every folder an output goes into (archive and folder trees mirrored).
    let mut folders: Vec<&Path> = jobs.iter().filter_map(|(_, out, _)| out.parent()).collect();
    folders.dedup();
    for folder in folders {
        if let Err(e) = std::fs::create_dir_all(folder) {
            eprintln!("scenedec convert: cannot create {}: {e}", folder.display());
            return ExitCode::FAILURE;
        }
    }
    let bar = (jobs.len() > 1 && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(jobs.len() as u64);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} {msg}")
        {
            bar.set_style(style);
        }
        bar
    });
    let mut all_ok = true;
    for (input, output, container) in &jobs {
        if let Some(bar) = &bar {
            bar.set_message(input.display().to_string());
        }
        let line = convert_one(input, output, *container, request, settings);
        all_ok &= line.is_ok();
        let text = match &line {
            Ok(l) | Err(l) => l,
        };
        match &bar {
            Some(bar) => bar.suspend(|| outln!("{text}")),
            None => outln!("{text}"),
        }
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    crate::input::exit_code(all_ok)
}

/// Converts one file; its report line, `Ok` when written.
fn convert_one(
    input: &Path,
    output: &Path,
    container: Container,
    request: &Request,
    settings: &LoadSettings,
) -> Result<String, String> {
    let name = input.display().to_string();
    let start = Instant::now();
    let read = match Input::read(input, settings) {
        Ok(read) => read,
        Err(e) => {
            return Err(failure(
                &name,
                "unknown",
                "IO",
                "",
                &e.to_string(),
                request.json,
            ));
        }
    };
    read.print_notes(&name);
    let loaded = match crate::input::load(&name, &read, settings) {
        Ok(l) => l,
        Err(e) => {
            let format = crate::inspect::claimed_format(&read.bytes, &name);
            // A limit error says, on its one line, the --limit arguments
            // that load the file (inspect --check-limits gives each need).
            let mut message = e.message().to_string();
            if !request.json && crate::check::is_limit_error(&e) {
                let arguments = crate::check::check(&name, &read, settings).arguments();
                if !arguments.is_empty() {
                    message = format!("{message}; to load it: {arguments}");
                }
            }
            return Err(failure(
                &name,
                format,
                e.code().as_str(),
                &e.at().to_string(),
                &message,
                request.json,
            ));
        }
    };
    let scene = loaded.scene();
    let options = gltf::Options {
        container,
        scale: request
            .scale
            .unwrap_or_else(|| gltf::metres_per_unit(scene.format())),
        fps: request.fps,
        hidden: request.hidden,
        axes: request.axes,
    };
    match gltf::write(&scene, output, &options) {
        Ok((summary, _paths)) => {
            let report = Report {
                file: &name,
                output,
                format: scene.format().as_str(),
                summary: &summary,
                triangles: match request.hidden {
                    gltf::Hidden::Keep => scene.triangle_count(),
                    gltf::Hidden::Drop => summary.drawn_triangles,
                },
                hidden: request.hidden,
                warnings: loaded.warnings(),
                verbose: request.verbose,
                millis: start.elapsed().as_secs_f64() * 1e3,
            };
            Ok(if request.json {
                report.json()
            } else {
                report.human()
            })
        }
        Err(e) => Err(failure(
            &name,
            scene.format().as_str(),
            "EXPORT",
            &output.display().to_string(),
            &e.to_string(),
            request.json,
        )),
    }
}

struct Report<'r> {
    file: &'r str,
    output: &'r Path,
    format: &'r str,
    summary: &'r Summary,
    /// Triangles written: the drawn ones, and the hidden ones with `--hidden keep`.
    triangles: usize,
    hidden: gltf::Hidden,
    warnings: &'r scenedec::Warnings,
    verbose: bool,
    millis: f64,
}

impl Report<'_> {
    fn human(&self) -> String {
        let s = self.summary;
        let mut notes = String::new();
        if s.hidden_meshes > 0 {
            notes.push_str(&format!(
                ", {} hidden triangles {} ({} meshes)",
                s.hidden_triangles,
                if self.hidden == gltf::Hidden::Keep {
                    "kept, flagged"
                } else {
                    "left out"
                },
                s.hidden_meshes
            ));
        }
        if s.drawn_triangles == 0 {
            notes.push_str(", warning NOTHING_TO_DRAW: no visible triangles");
        }
        format!(
            "{} -> {}: {} ok, {} nodes, {} meshes, {} triangles, {} materials, {} images, {} skins, {} animations, {} bytes, {} warnings, {:.1} ms{notes}{}",
            self.file,
            self.output.display(),
            self.format,
            s.nodes,
            s.meshes,
            self.triangles,
            s.materials,
            s.images,
            s.skins,
            s.animations,
            s.bytes,
            self.warnings.total(),
            self.millis,
            if self.verbose {
                crate::warnings_out::human(self.warnings)
            } else {
                crate::warnings_out::summary(self.warnings)
            }
        )
    }

    fn json(&self) -> String {
        let s = self.summary;
        let mut out = String::from("{");
        let mut first = true;
        key(&mut out, &mut first, "file");
        string(&mut out, self.file);
        key(&mut out, &mut first, "output");
        string(&mut out, &self.output.display().to_string());
        key(&mut out, &mut first, "format");
        string(&mut out, self.format);
        key(&mut out, &mut first, "ok");
        out.push_str("true");
        key(&mut out, &mut first, "error");
        out.push_str("null");
        counts(
            &mut out,
            &mut first,
            &[
                ("nodes", s.nodes),
                ("meshes", s.meshes),
                ("primitives", s.primitives),
                ("triangles", self.triangles),
                ("materials", s.materials),
                ("images", s.images),
                ("skins", s.skins),
                ("animations", s.animations),
                ("replaced_normals", s.replaced_normals),
                ("hidden_meshes", s.hidden_meshes),
                ("hidden_triangles", s.hidden_triangles),
                ("bytes", s.bytes),
                ("warnings", self.warnings.total()),
            ],
        );
        crate::warnings_out::json(&mut out, &mut first, "warning_groups", self.warnings);
        key(&mut out, &mut first, "nothing_to_draw");
        out.push_str(if s.drawn_triangles == 0 {
            "true"
        } else {
            "false"
        });
        key(&mut out, &mut first, "ms");
        number(&mut out, self.millis);
        out.push('}');
        out
    }
}

/// The report line of a file that failed.
fn failure(name: &str, format: &str, code: &str, at: &str, message: &str, json: bool) -> String {
    if !json {
        let at = if at.is_empty() {
            String::new()
        } else {
            format!(" (at {at})")
        };
        return format!("{name}: {format}: FAILED {code}: {message}{at}");
    }
    let mut out = String::from("{");
    let mut first = true;
    key(&mut out, &mut first, "file");
    string(&mut out, name);
    key(&mut out, &mut first, "output");
    out.push_str("null");
    key(&mut out, &mut first, "format");
    string(&mut out, format);
    key(&mut out, &mut first, "ok");
    out.push_str("false");
    key(&mut out, &mut first, "error");
    error_object(&mut out, code, at, message);
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(files: &[&str], output: &str, format: Option<Container>) -> Request {
        Request {
            files: files.iter().map(PathBuf::from).collect(),
            output: PathBuf::from(output),
            format,
            scale: None,
            axes: gltf::Axes::Gltf,
            fps: scenedec::export::gltf::animations::DEFAULT_FPS,
            json: false,
            verbose: false,
            hidden: gltf::Hidden::Drop,
        }
    }

    /// The jobs of loose files (no archive, no folder).
    fn loose(r: &Request) -> Vec<Job> {
        r.files
            .iter()
            .map(|f| Job {
                input: f.clone(),
                under: None,
            })
            .collect()
    }

    #[test]
    fn models_in_archives_and_folders_go_where_their_path_says() {
        let r = request(&["x.arc"], "out", None);
        let jobs = [Job {
            input: PathBuf::from("x.arc:root/bdl/a.bdl"),
            under: Some(PathBuf::from("root/bdl/a.bdl")),
        }];
        let planned = plan(&r, &jobs).unwrap();
        assert_eq!(planned[0].1, PathBuf::from("out/root/bdl/a.bdl.glb"));
        // One model of an archive still needs a folder, not a file name.
        assert!(plan(&request(&["x.arc"], "out.glb", None), &jobs).is_err());
    }

    #[test]
    fn one_input_takes_the_container_from_the_output_name() {
        let plan = |r: &Request| plan(r, &loose(r));
        let jobs = plan(&request(&["a.bmd"], "out/a.gltf", None)).unwrap();
        assert_eq!(jobs[0].2, Container::Gltf);
        let jobs = plan(&request(&["a.bmd"], "out/a", Some(Container::Glb))).unwrap();
        assert_eq!(jobs[0].2, Container::Glb);
        assert!(plan(&request(&["a.bmd"], "out/a", None)).is_err());
        assert!(plan(&request(&["a.bmd"], "a.glb", Some(Container::Gltf))).is_err());
    }

    #[test]
    fn several_inputs_go_into_a_folder_by_file_name() {
        let plan = |r: &Request| plan(r, &loose(r));
        let jobs = plan(&request(&["x/a.bmd", "y/a.bdl"], "out", None)).unwrap();
        assert_eq!(jobs[0].1, PathBuf::from("out/a.bmd.glb"));
        assert_eq!(jobs[1].1, PathBuf::from("out/a.bdl.glb"));
        assert!(plan(&request(&["a.bmd", "b.bmd"], "out.glb", None)).is_err());
    }
}
