//! Models inside archives and folders, for the commands that load models.
//!
//! - `ARCHIVE:member/path` names one member of a RARC archive (the path as
//!   `inspect` lists it, from the root directory's name, matched without
//!   regard to case as the games match it); `inspect`, `pose`, `textures`
//!   and `convert` read it as they read a loose file.
//! - `convert` takes archives and folders: an archive stands for its model
//!   members, a folder for every model and archive under it (recursively),
//!   each written where its path says under `-o` (docs/export.md).

use std::path::{Path, PathBuf};

use scenedec::RarcLimits;
use scenedec::rarc::{self, Archive, Member};
use scenedec::sniff::{Kind, sniff};

/// Extensions a folder walk picks up: models, and archives (which may hold
/// models). `.szs` is Yaz0: a model or an archive, as its bytes say.
const PICKED_EXTENSIONS: [&str; 5] = ["bmd", "bdl", "bbmodel", "szs", "arc"];

/// Deepest folder a walk descends into (links are never followed).
const MAX_FOLDER_DEPTH: usize = 64;

/// The archive's own bytes: `bytes`, or its Yaz0 wrapper undone.
pub fn unwrapped(bytes: &[u8], limits: &RarcLimits) -> Result<Vec<u8>, scenedec::Error> {
    match rarc::unwrapped_len(bytes, limits)? {
        0 if !bytes.starts_with(scenedec::yaz0::MAGIC) => Ok(bytes.to_vec()),
        len => {
            let mut out = vec![0u8; len];
            rarc::unwrap_into(bytes, limits, &mut out)?;
            Ok(out)
        }
    }
}

/// A member's path from the root's name, `/`-separated.
pub fn member_path(m: &Member<'_>) -> String {
    m.path()
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// True for a member whose bytes are a J3D model (the only models the
/// games put in archives).
fn is_model(bytes: &[u8]) -> bool {
    matches!(sniff(bytes), Kind::J3dBmd | Kind::J3dBdl)
}

/// The paths of the model members of an archive file's bytes, in
/// file-entry-table order.
pub fn model_members(
    bytes: &[u8],
    limits: &RarcLimits,
) -> Result<Vec<(String, Vec<u8>)>, scenedec::Error> {
    let data = unwrapped(bytes, limits)?;
    let archive = Archive::parse(&data, limits)?;
    let mut members: Vec<Member<'_>> = archive.members().collect();
    members.sort_by_key(|m| m.entry.index);
    let mut out = Vec::new();
    for m in members {
        let mut contents = vec![0u8; usize::try_from(m.size).unwrap_or(usize::MAX)];
        m.read_into(&mut contents)?;
        if is_model(&contents) {
            out.push((member_path(&m), contents));
        }
    }
    Ok(out)
}

/// `spec` split as `ARCHIVE:member` when it names no file itself and some
/// prefix before a `:` is a file: the archive's path and the member's.
pub fn split_member_spec(spec: &Path) -> Option<(PathBuf, String)> {
    if spec.exists() {
        return None;
    }
    let text = spec.to_str()?;
    text.match_indices(':').find_map(|(at, _)| {
        let (archive, member) = (text.get(..at)?, text.get(at + 1..)?);
        let archive = PathBuf::from(archive);
        (archive.is_file() && !member.is_empty()).then(|| (archive, member.to_owned()))
    })
}

/// The bytes of member `member` of the archive at `archive` (decompressed
/// when stored compressed), or why there are none.
pub fn read_member(archive: &Path, member: &str, limits: &RarcLimits) -> Result<Vec<u8>, String> {
    let bytes = crate::bounded::read_archive(archive, limits)?;
    let fail =
        |e: scenedec::Error| format!("{}: {e}{}", archive.display(), crate::out::at_suffix(&e));
    let data = unwrapped(&bytes, limits).map_err(fail)?;
    let parsed = Archive::parse(&data, limits).map_err(fail)?;
    // Listings name members from the root's name (`root/dir/file`); the
    // games look them up below it (`dir/file`): either is taken.
    let root = parsed.root();
    let below_root = member
        .split_once('/')
        .filter(|(first, _)| first.as_bytes().eq_ignore_ascii_case(root.name))
        .map(|(_, rest)| rest);
    let mut found = None;
    for path in below_root.into_iter().chain([member]) {
        found = parsed.find(path).map_err(fail)?;
        if found.is_some() {
            break;
        }
    }
    let found = found.ok_or_else(|| {
        format!(
            "{}: no member {}",
            archive.display(),
            crate::json_out::quoted(member)
        )
    })?;
    let mut out = vec![0u8; usize::try_from(found.size).unwrap_or(usize::MAX)];
    found.read_into(&mut out).map_err(fail)?;
    Ok(out)
}

/// One model `convert` (or `textures`) writes: what to read (a file, or
/// `ARCHIVE:member`), where it goes under `-o`, and where without `-o`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// A path `Input::read` reads.
    pub input: PathBuf,
    /// The output path under `-o`, without the container's extension, for
    /// models found in archives and folders (`None`: by the input's file
    /// name, as for loose files).
    pub under: Option<PathBuf>,
    /// The output path without `-o`, its extension to be replaced by the
    /// container's: the file itself (`x.bbmodel` gives `x.glb`), or for an
    /// archive's member a folder named after the archive beside it
    /// (`a.arc:root/x.bdl` gives `a/root/x.glb`).
    pub beside: PathBuf,
    /// Found by walking a folder: a file there that is no model is skipped
    /// without a word, where one named on the command line is an error.
    pub walked: bool,
    /// An archive's member, or an archive that stands for itself because
    /// its members could not be listed: `-o` names a folder unless it ends
    /// in .glb or .gltf.
    pub archive: bool,
}

/// The models `inputs` stand for: a loose file itself, an archive its model
/// members (at `<member path>`), a folder every model and archive under it
/// (at `<path under the folder>`, an archive's members at
/// `<archive's path>/<member path>`). An archive named on the command line
/// whose members cannot be listed, or that holds no model, stands for
/// itself, so that loading it says why.
pub fn expand(inputs: &[PathBuf], limits: &RarcLimits) -> Result<Vec<Job>, String> {
    let mut jobs = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut files = Vec::new();
            walk(input, Path::new(""), 0, &mut files)?;
            for (path, relative) in files {
                add_file(&path, Some(&relative), limits, &mut jobs);
            }
        } else {
            add_file(input, None, limits, &mut jobs);
        }
    }
    Ok(jobs)
}

/// The jobs of one file: itself, or an archive's model members.
fn add_file(path: &Path, relative: Option<&Path>, limits: &RarcLimits, jobs: &mut Vec<Job>) {
    let itself = Job {
        input: path.to_path_buf(),
        under: relative.map(Path::to_path_buf),
        beside: path.to_path_buf(),
        walked: relative.is_some(),
        archive: false,
    };
    let is_archive = path.is_file()
        && std::fs::File::open(path)
            .and_then(|mut f| {
                use std::io::Read;
                let mut head = [0u8; 32];
                let n = f.read(&mut head)?;
                Ok(head.get(..n).is_some_and(|h| {
                    matches!(sniff(h), Kind::Rarc)
                        || (h.starts_with(scenedec::yaz0::MAGIC) && yaz0_holds_archive(path))
                }))
            })
            .unwrap_or(false);
    if !is_archive {
        jobs.push(itself);
        return;
    }
    let members = crate::bounded::read_archive(path, limits)
        .ok()
        .and_then(|bytes| model_members(&bytes, limits).ok())
        .unwrap_or_default();
    if members.is_empty() {
        jobs.push(Job {
            archive: true,
            ..itself
        });
        return;
    }
    let folder = path.with_extension("");
    for (member, _) in members {
        let under = match relative {
            Some(r) => r.join(&member),
            None => PathBuf::from(&member),
        };
        let mut spec = path.as_os_str().to_owned();
        spec.push(":");
        spec.push(&member);
        jobs.push(Job {
            input: PathBuf::from(spec),
            under: Some(under),
            beside: folder.join(&member),
            walked: relative.is_some(),
            archive: true,
        });
    }
}

/// Whether a Yaz0 file's payload is an archive: its first bytes tell
/// (`sniff` decodes only the first four bytes of the payload, which the
/// first 64 stored bytes always hold), so the file is not read whole.
fn yaz0_holds_archive(path: &Path) -> bool {
    crate::bounded::head(path, 64).is_ok_and(|b| sniff(&b) == Kind::Yaz0Rarc)
}

/// Every file with a picked extension under `dir`, sorted, with its path
/// relative to the walk's start; links are not followed.
fn walk(
    dir: &Path,
    relative: &Path,
    depth: usize,
    out: &mut Vec<(PathBuf, PathBuf)>,
) -> Result<(), String> {
    if depth > MAX_FOLDER_DEPTH {
        return Err(format!(
            "{}: folders nested deeper than {MAX_FOLDER_DEPTH}",
            dir.display()
        ));
    }
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        let rel = relative.join(entry.file_name());
        if kind.is_dir() {
            walk(&path, &rel, depth + 1, out)?;
        } else if kind.is_file()
            && path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| PICKED_EXTENSIONS.iter().any(|p| e.eq_ignore_ascii_case(p)))
        {
            out.push((path, rel));
        }
    }
    Ok(())
}
