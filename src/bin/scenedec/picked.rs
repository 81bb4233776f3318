//! The texture files a .bbmodel names, found and read one by one.
//!
//! The library says which files a model refers to
//! ([`scenedec::bbmodel::list_named_references_before_load`], the spec's
//! listBbmodelReferences, with each texture's name beside its path, the
//! arrays the load reads whole stepped over by their brackets); only
//! those are read, so PNG files beside the model that it does not name cost
//! nothing, however many or large. Each is looked for first where its
//! `relative_path` says, relative to the model's folder (the spec: "relative_path
//! is relative to the model's directory"; an absolute one is not followed),
//! then by its base name ignoring case (the library's matching rule) among
//! the `.png` files of each `--textures` folder, of the model's folder, and
//! of the folder named after the model (`model.bbmodel` and `model/`), in
//! that order, then by the texture's `name` there: the first hit wins. Each
//! read is bounded by `maxFileBytes` (see `bounded`). A file found but not
//! offered (too large, unreadable, not a PNG) gets a note that says why and
//! where; a reference found nowhere gets a note saying where it looked.

use std::path::{Path, PathBuf};

use scenedec::BbmodelLimits;
use scenedec::bbmodel::references::HARD_MAX_REFERENCES;

use crate::bounded::{ReadError, read_bounded};
use crate::json_out::quoted;

/// The eight bytes every PNG file starts with.
const PNG_SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";

/// The files found for a model, and what could not be offered.
#[derive(Debug, Default)]
pub struct Picked {
    /// Offered files: name and bytes.
    pub files: Vec<(String, Vec<u8>)>,
    /// One line per file not offered, saying why and where.
    pub notes: Vec<String>,
    /// Sizes of files skipped for size, for the limit report.
    pub too_large: Vec<u64>,
}

/// The folders searched for `model`'s textures, in order.
pub fn sources(model: &Path, dirs: &[PathBuf]) -> Vec<PathBuf> {
    let folder = model.parent().map(Path::to_path_buf).unwrap_or_default();
    let named = model.file_stem().map(|s| folder.join(s));
    let folder = if folder.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        folder
    };
    dirs.iter().cloned().chain([folder]).chain(named).collect()
}

/// The `.png` file names of `dir`, sorted (an unreadable folder has none).
fn png_names(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| {
            Path::new(n)
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("png"))
        })
        .collect();
    names.sort();
    names
}

/// Where a reference's path puts its file: under the model's folder, `\`
/// read as `/` (Blockbench on Windows writes them); `None` for a bare file
/// name (the folder search finds it) or an absolute path (never followed).
fn relative_file(folder: &Path, listed: &str) -> Option<PathBuf> {
    let path = listed.replace('\\', "/");
    if !path.contains('/') || path.starts_with('/') || Path::new(&path).has_root() {
        return None;
    }
    let relative = Path::new(&path);
    if relative.components().any(|c| {
        matches!(
            c,
            std::path::Component::Prefix(_) | std::path::Component::RootDir
        )
    }) {
        return None;
    }
    Some(folder.join(relative))
}

/// The base name of a reference: after its last `/` or `\`.
fn base_name(reference: &str) -> &str {
    reference.rsplit(['/', '\\']).next().unwrap_or(reference)
}

/// Finds and reads the files `model_bytes` names (see the module docs).
pub fn picked_textures(
    model: &Path,
    model_bytes: &[u8],
    dirs: &[PathBuf],
    limits: &BbmodelLimits,
) -> Picked {
    let mut references: Vec<(String, Option<String>)> = Vec::new();
    let max = usize::try_from(limits.max_textures)
        .unwrap_or(usize::MAX)
        .min(HARD_MAX_REFERENCES);
    // A file the loader refuses lists nothing (or, broken inside an array
    // the load reads whole, its textures); its load says why.
    let _ = scenedec::bbmodel::list_named_references_before_load(model_bytes, limits, max, |r| {
        references.push((r.listed.to_string(), r.name.map(str::to_string)));
    });
    let mut picked = Picked::default();
    if references.is_empty() {
        return picked;
    }
    let sources: Vec<(PathBuf, Vec<String>)> = sources(model, dirs)
        .into_iter()
        .map(|d| {
            let names = png_names(&d);
            (d, names)
        })
        .collect();
    let folder = model.parent().map(Path::to_path_buf).unwrap_or_default();
    for (listed, texture_name) in references {
        let reference = base_name(&listed).to_string();
        if picked
            .files
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(&reference))
        {
            continue;
        }
        let in_sources = |wanted: &str| {
            sources.iter().find_map(|(dir, names)| {
                names
                    .iter()
                    .find(|n| n.eq_ignore_ascii_case(wanted))
                    .map(|n| (dir.join(n), n.clone()))
            })
        };
        let at_path = relative_file(&folder, &listed);
        let found = at_path
            .as_ref()
            .filter(|p| p.is_file())
            .map(|p| (p.clone(), reference.clone()))
            .or_else(|| in_sources(&reference))
            .or_else(|| texture_name.as_deref().and_then(in_sources));
        let Some((path, name)) = found else {
            let searched: Vec<String> = sources
                .iter()
                .map(|(d, _)| d.display().to_string())
                .collect();
            let mut places = Vec::new();
            if let Some(p) = &at_path {
                places.push(p.display().to_string());
            }
            places.push(format!("{} in {}", quoted(&reference), searched.join(", ")));
            if let Some(n) = texture_name
                .as_deref()
                .filter(|n| !n.eq_ignore_ascii_case(&reference))
            {
                places.push(format!("{} there", quoted(n)));
            }
            picked.notes.push(format!(
                "texture {}: no such .png file; looked for {}",
                quoted(&listed),
                places.join(", then ")
            ));
            continue;
        };
        // A FIFO or device named like a texture would block the open or
        // never end: only regular files are read.
        if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            picked.notes.push(format!(
                "texture {}: {} skipped: not a regular file",
                quoted(&reference),
                path.display()
            ));
            continue;
        }
        match read_bounded(&path, limits.max_file_bytes) {
            Ok(bytes) if bytes.starts_with(PNG_SIGNATURE) => picked.files.push((name, bytes)),
            Ok(_) => picked.notes.push(format!(
                "texture {}: {} skipped: not a PNG (no PNG signature)",
                quoted(&reference),
                path.display()
            )),
            Err(e) => {
                if let ReadError::TooLarge { len, .. } = e {
                    picked.too_large.push(len);
                }
                let hint = match e {
                    ReadError::TooLarge { .. } => {
                        " (maxFileBytes; --limit maxFileBytes=N raises it)"
                    }
                    ReadError::Io(_) => "",
                };
                picked.notes.push(format!(
                    "texture {}: {} skipped: {e}{hint}",
                    quoted(&reference),
                    path.display()
                ));
            }
        }
    }
    picked
}
