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
use crate::json_out::{counts, error_object, key, number32, string};
use crate::members::Job;
use crate::out::outln;

/// What `convert` was asked to do.
pub struct Request {
    /// Input models.
    pub files: Vec<PathBuf>,
    /// `-o`: a file for one input, a folder for several; `None`: each
    /// output beside its input (`Job::beside`).
    pub output: Option<PathBuf>,
    /// `--force`: overwrite outputs that exist.
    pub force: bool,
    /// `--format`, when given.
    pub format: Option<Container>,
    /// `--scale`; `None`: metres (`gltf::metres_per_unit`).
    pub scale: Option<f32>,
    /// `--axes`.
    pub axes: gltf::Axes,
    /// `--fps`: the rate clips are sampled at.
    pub fps: f32,
    /// `--continuous-length`: seconds a length-0 Molang clip is exported over.
    pub continuous_length: f32,
    /// `--json`.
    pub json: bool,
    /// `--verbose`: print each file's warning groups.
    pub verbose: bool,
    /// `--hidden`: what becomes of meshes the model does not draw.
    pub hidden: gltf::Hidden,
    /// `--material-clips`: J3D material tracks as pointer channels or data.
    pub material_clips: gltf::MaterialClips,
    /// `--jobs`: models converted at once (at least 1).
    pub jobs: usize,
}

/// One model to convert: what to read, where to write, how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    /// What `Input::read` reads.
    pub input: PathBuf,
    /// The file to write.
    pub output: PathBuf,
    /// Its container.
    pub container: Container,
    /// Found by walking a folder: skipped without a word when no model.
    pub walked: bool,
}

/// Where each model goes and in which container; a usage error as text.
/// `jobs` are the models the inputs stand for (`members::expand`). Without
/// `-o` each goes beside its input (`Job::beside`, extension replaced);
/// with it, a loose file goes to `-o` itself when it is the only one, else
/// to `OUT/<file name>.glb`, and a model found in an archive or a folder to
/// `OUT/<its path there>.glb`. Two models bound for one file, or a model
/// bound for its own input, are usage errors.
pub fn plan(request: &Request, jobs: &[Job]) -> Result<Vec<Planned>, String> {
    let planned = match &request.output {
        None => {
            let container = request.format.unwrap_or(Container::Glb);
            jobs.iter()
                .map(|job| {
                    planned(
                        job,
                        job.beside.with_extension(container.extension()),
                        container,
                    )
                })
                .collect()
        }
        Some(output) => plan_under(request, output, jobs)?,
    };
    let mut seen: Vec<(&Path, &Path)> = Vec::with_capacity(planned.len());
    for p in &planned {
        if p.output == p.input {
            return Err(format!(
                "{}: the output would overwrite the input; give -o",
                p.input.display()
            ));
        }
        if let Some((other, _)) = seen.iter().find(|(_, out)| *out == p.output) {
            return Err(format!(
                "{} and {} would both be written to {}; give -o DIR",
                other.display(),
                p.input.display(),
                p.output.display()
            ));
        }
        seen.push((&p.input, &p.output));
    }
    Ok(planned)
}

fn planned(job: &Job, output: PathBuf, container: Container) -> Planned {
    Planned {
        input: job.input.clone(),
        output,
        container,
        walked: job.walked,
    }
}

/// [`plan`] with `-o OUT`.
fn plan_under(request: &Request, output: &Path, jobs: &[Job]) -> Result<Vec<Planned>, String> {
    let by_extension = Container::from_path(output);
    let folder = jobs.len() > 1
        || output.is_dir()
        || jobs.iter().any(|j| j.under.is_some())
        || request.files.iter().any(|f| f.is_dir())
        || (by_extension.is_none() && jobs.iter().any(|j| j.archive));
    if folder {
        if by_extension.is_some() && !output.is_dir() {
            return Err(format!(
                "-o {}: several inputs need a folder, not a file",
                output.display()
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
                let out = output.join(format!("{name}.{}", container.extension()));
                planned(job, out, container)
            })
            .collect());
    }
    let container = match (by_extension, request.format) {
        (Some(e), Some(f)) if e != f => {
            return Err(format!(
                "-o {} says .{} but --format says {}",
                output.display(),
                e.extension(),
                f.extension()
            ));
        }
        (Some(c), _) | (None, Some(c)) => c,
        (None, None) => {
            return Err(format!(
                "-o {}: name a .glb or .gltf file, or give --format",
                output.display()
            ));
        }
    };
    Ok(jobs
        .iter()
        .map(|job| planned(job, output.to_path_buf(), container))
        .collect())
}

/// Converts every file; exit 0 when all were written, 1 when any failed.
pub fn run(request: &Request, settings: &LoadSettings) -> ExitCode {
    let jobs = match crate::members::expand(&request.files, &settings.limits.rarc)
        .and_then(|j| plan(request, &j))
    {
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
    let bar = (jobs.len() > 1 && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(jobs.len() as u64);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} {msg}")
        {
            bar.set_style(style);
        }
        // Drawn at once (0/N), not first when a model is done.
        bar.tick();
        bar
    });
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(request.jobs.min(jobs.len()).max(1))
        .build()
    {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!(
                "scenedec convert: cannot start {} threads: {e}",
                request.jobs
            );
            return ExitCode::FAILURE;
        }
    };
    // The pool's N threads take one model each at a time, so at most N
    // are in memory; each sends its report line here, and this thread
    // prints them in input order (a finished model waits for those before
    // it) and drives the bar, so its lines and the bar never interleave.
    let (sender, receiver) = std::sync::mpsc::channel::<(usize, Outcome)>();
    let mut all_ok = true;
    std::thread::scope(|scope| {
        let jobs = &jobs;
        scope.spawn(move || {
            use rayon::prelude::*;
            pool.install(|| {
                jobs.par_iter().enumerate().with_max_len(1).for_each_with(
                    sender,
                    |sender, (i, job)| {
                        // A closed receiver means the printer is gone (exited).
                        let _ = sender.send((i, convert_one(job, request, settings)));
                    },
                );
            });
        });
        let mut waiting: Vec<Option<Outcome>> = (0..jobs.len()).map(|_| None).collect();
        let mut next = 0;
        for (i, outcome) in receiver {
            if let Some(bar) = &bar {
                bar.inc(1);
            }
            if let Some(slot) = waiting.get_mut(i) {
                *slot = Some(outcome);
            }
            while let Some(outcome) = waiting.get_mut(next).and_then(Option::take) {
                if let (Some(bar), Some(job)) = (&bar, jobs.get(next)) {
                    bar.set_message(job.input.display().to_string());
                }
                next += 1;
                all_ok &= !matches!(outcome, Outcome::Failed(_));
                let text = match &outcome {
                    Outcome::Written(l) | Outcome::Failed(l) => l,
                    Outcome::Skipped => continue,
                };
                match &bar {
                    Some(bar) => bar.suspend(|| outln!("{text}")),
                    None => outln!("{text}"),
                }
            }
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    crate::input::exit_code(all_ok)
}

/// What became of one model.
enum Outcome {
    /// Written: its report line.
    Written(String),
    /// Not written: its report line.
    Failed(String),
    /// Found by walking a folder and no model: nothing to say.
    Skipped,
}

/// Converts one model.
fn convert_one(job: &Planned, request: &Request, settings: &LoadSettings) -> Outcome {
    match convert_or_skip(job, request, settings) {
        Ok(line) => Outcome::Written(line),
        Err(None) => Outcome::Skipped,
        Err(Some(line)) => Outcome::Failed(line),
    }
}

/// Converts one model: its report line when written, else the failure's
/// (`None` for a walked file that is no model).
fn convert_or_skip(
    job: &Planned,
    request: &Request,
    settings: &LoadSettings,
) -> Result<String, Option<String>> {
    let (input, output, container) = (job.input.as_path(), job.output.as_path(), job.container);
    let name = input.display().to_string();
    let start = Instant::now();
    let read = match Input::read(input, settings) {
        Ok(read) => read,
        Err(e) => {
            let why = crate::failure::of_read(&name, input, &e);
            return Err(failure(&name, "unknown", &why, request.json, job.walked));
        }
    };
    read.print_notes(&name);
    let loaded = match crate::input::load(&name, &read, settings) {
        Ok(l) => l,
        Err(e) => {
            let format = crate::inspect::claimed_format(&read.bytes, &name);
            let mut why = crate::failure::of_load(&name, &read.bytes, &e, &settings.limits.rarc);
            // A limit error says, on its one line, the --limit arguments
            // that load the file (inspect --check-limits gives each need).
            if !request.json && crate::check::is_limit_error(&e) {
                let arguments = crate::check::check(&name, &read, settings).arguments();
                if !arguments.is_empty() {
                    why.message = format!("{}; to load it: {arguments}", why.message);
                }
            }
            return Err(failure(&name, format, &why, request.json, job.walked));
        }
    };
    let scene = loaded.scene();
    if let Err(why) = prepare_output(output, request.force) {
        return Err(failure(
            &name,
            scene.format().as_str(),
            &why,
            request.json,
            false,
        ));
    }
    let options = gltf::Options {
        container,
        scale: request
            .scale
            .unwrap_or_else(|| gltf::metres_per_unit(scene.format())),
        fps: request.fps,
        continuous_length: request.continuous_length,
        hidden: request.hidden,
        axes: request.axes,
        material_clips: request.material_clips,
    };
    match gltf::write(&scene, output, &options) {
        Ok((summary, _paths)) => {
            crate::with::warn_not_exported(&name, &summary.unplayed);
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
        Err(e) => {
            let why = crate::failure::Failure {
                code: "EXPORT".to_string(),
                at: output.display().to_string(),
                message: e.to_string(),
                not_model: false,
            };
            Err(failure(
                &name,
                scene.format().as_str(),
                &why,
                request.json,
                false,
            ))
        }
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
                    "kept in scene 1"
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
                ("hidden_nodes", s.hidden_nodes),
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
        // A duration, to the precision an f32 keeps (far below a microsecond).
        #[allow(
            clippy::cast_possible_truncation,
            reason = "milliseconds of one conversion"
        )]
        number32(&mut out, self.millis as f32);
        out.push('}');
        out
    }
}

/// Makes the folder `output` goes into; refuses an existing `output`
/// unless `force` (a conversion never replaces a file unasked).
fn prepare_output(output: &Path, force: bool) -> Result<(), crate::failure::Failure> {
    let refuse = |code: &str, message: String| crate::failure::Failure {
        code: code.to_string(),
        at: output.display().to_string(),
        message,
        not_model: false,
    };
    if !force && std::fs::symlink_metadata(output).is_ok() {
        return Err(refuse(
            "OUTPUT_EXISTS",
            format!(
                "{} exists: not overwritten (--force overwrites it)",
                output.display()
            ),
        ));
    }
    if let Some(folder) = output.parent().filter(|f| !f.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(|e| {
            refuse(
                "IO",
                format!("cannot create the folder {}: {e}", folder.display()),
            )
        })?;
    }
    Ok(())
}

/// The report line of a file that failed; `None` for a file found by
/// walking a folder that is no model (skipped without a word).
fn failure(
    name: &str,
    format: &str,
    why: &crate::failure::Failure,
    json: bool,
    walked: bool,
) -> Option<String> {
    if walked && why.not_model {
        return None;
    }
    if !json {
        return Some(why.human(name, format));
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
    error_object(&mut out, &why.code, &why.at, &why.message);
    out.push('}');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(files: &[&str], output: Option<&str>, format: Option<Container>) -> Request {
        Request {
            files: files.iter().map(PathBuf::from).collect(),
            output: output.map(PathBuf::from),
            force: false,
            format,
            scale: None,
            axes: gltf::Axes::Gltf,
            fps: scenedec::export::gltf::animations::DEFAULT_FPS,
            continuous_length: scenedec::export::gltf::animations::DEFAULT_CONTINUOUS_LENGTH,
            json: false,
            verbose: false,
            hidden: gltf::Hidden::Drop,
            material_clips: gltf::MaterialClips::Pointer,
            jobs: 1,
        }
    }

    /// The jobs of loose files (no archive, no folder).
    fn loose(r: &Request) -> Vec<Job> {
        r.files
            .iter()
            .map(|f| Job {
                input: f.clone(),
                under: None,
                beside: f.clone(),
                walked: false,
                archive: false,
            })
            .collect()
    }

    fn member() -> Job {
        Job {
            input: PathBuf::from("x.arc:root/bdl/a.bdl"),
            under: Some(PathBuf::from("root/bdl/a.bdl")),
            beside: PathBuf::from("x/root/bdl/a.bdl"),
            walked: false,
            archive: true,
        }
    }

    #[test]
    fn models_in_archives_and_folders_go_where_their_path_says() {
        let r = request(&["x.arc"], Some("out"), None);
        let planned = plan(&r, &[member()]).unwrap();
        assert_eq!(planned[0].output, PathBuf::from("out/root/bdl/a.bdl.glb"));
        // One model of an archive still needs a folder, not a file name.
        assert!(plan(&request(&["x.arc"], Some("out.glb"), None), &[member()]).is_err());
    }

    #[test]
    fn without_o_each_output_goes_beside_its_input_extension_replaced() {
        let r = request(&["m/x.bbmodel", "y.bmd.szs"], None, None);
        let planned = plan(&r, &loose(&r)).unwrap();
        assert_eq!(planned[0].output, PathBuf::from("m/x.glb"));
        assert_eq!(planned[1].output, PathBuf::from("y.bmd.glb"));
        let r = request(&["x.arc"], None, Some(Container::Gltf));
        let planned = plan(&r, &[member()]).unwrap();
        assert_eq!(planned[0].output, PathBuf::from("x/root/bdl/a.gltf"));
    }

    #[test]
    fn an_input_is_never_an_output_and_two_models_never_share_one() {
        let r = request(&["x.glb"], None, None);
        assert!(
            plan(&r, &loose(&r))
                .unwrap_err()
                .contains("overwrite the input")
        );
        let r = request(&["x.bmd", "x.bdl"], None, None);
        assert!(
            plan(&r, &loose(&r))
                .unwrap_err()
                .contains("both be written to x.glb")
        );
        let r = request(&["a/x.bmd", "b/x.bmd"], Some("out"), None);
        assert!(plan(&r, &loose(&r)).is_err());
    }

    #[test]
    fn one_input_takes_the_container_from_the_output_name() {
        let plan = |r: &Request| plan(r, &loose(r));
        let jobs = plan(&request(&["a.bmd"], Some("out/a.gltf"), None)).unwrap();
        assert_eq!(jobs[0].container, Container::Gltf);
        let jobs = plan(&request(&["a.bmd"], Some("out/a"), Some(Container::Glb))).unwrap();
        assert_eq!(jobs[0].container, Container::Glb);
        assert!(plan(&request(&["a.bmd"], Some("out/a"), None)).is_err());
        assert!(plan(&request(&["a.bmd"], Some("a.glb"), Some(Container::Gltf))).is_err());
    }

    #[test]
    fn several_inputs_go_into_a_folder_by_file_name() {
        let plan = |r: &Request| plan(r, &loose(r));
        let jobs = plan(&request(&["x/a.bmd", "y/a.bdl"], Some("out"), None)).unwrap();
        assert_eq!(jobs[0].output, PathBuf::from("out/a.bmd.glb"));
        assert_eq!(jobs[1].output, PathBuf::from("out/a.bdl.glb"));
        assert!(plan(&request(&["a.bmd", "b.bmd"], Some("out.glb"), None)).is_err());
    }
}
