//! RARC archives on the command line: `inspect` lists one (human or
//! `--json`), `extract` writes its members under a folder.
//!
//! `inspect --json` prints, per archive, `{"file", "format": "rarc", "ok",
//! "error", "files": [{"path", "size", "sha256"}]}`: paths start with the
//! root directory's name (`root/dir/name`), files are in file-entry-table
//! order, sizes and SHA-256 are of the bytes after any Yaz0/Yay0
//! compression of the member is undone.
//!
//! `extract` writes each member at `DIR/<path>`. Every component of the
//! path comes from the archive, so each is checked before anything is
//! created: empty, `.`, `..`, one holding `/`, `\`, `:` or NUL, or one that
//! is not UTF-8 is refused (that member is reported and skipped; the exit
//! status is 1), so a hostile archive cannot write outside DIR.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Arg, ArgAction, ArgMatches, Command};
use scenedec::rarc::{self, Archive, Member};
use scenedec::sniff::{Kind, sniff};
use scenedec::{Error, RarcLimits};

use crate::input::Input;
use crate::json_out::{key, quoted, report_head, string};
use crate::members::{member_path, model_members, unwrapped};
use crate::out::outln;

/// True for bytes `inspect` lists as an archive rather than loads.
pub fn is_archive(bytes: &[u8]) -> bool {
    matches!(sniff(bytes), Kind::Rarc | Kind::Yaz0Rarc)
}

/// A component of a member's path as text ('?' for bytes that are not UTF-8).
fn lossy(name: &[u8]) -> String {
    String::from_utf8_lossy(name).into_owned()
}

/// The member's bytes, decompressed when stored compressed.
fn contents(m: &Member<'_>) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; usize::try_from(m.size).unwrap_or(usize::MAX)];
    m.read_into(&mut out)?;
    Ok(out)
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let mut s = String::with_capacity(64);
    for b in Sha256::digest(bytes) {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Members in file-entry-table order (the walk's order is depth first).
fn members_in_table_order<'a>(archive: &Archive<'a>) -> Vec<Member<'a>> {
    let mut members: Vec<_> = archive.members().collect();
    members.sort_by_key(|m| m.entry.index);
    members
}

/// Prints the listing of one archive and the report `report` gives of each
/// model in it (under `"models"` with `--json`; `inspect` reports each as
/// a loose model named `ARCHIVE:member/path`); true when it read and every
/// model loaded.
pub fn inspect(
    name: &str,
    bytes: &[u8],
    json: bool,
    limits: &RarcLimits,
    report: impl Fn(&str, &Input) -> (bool, String),
) -> bool {
    let result = unwrapped(bytes, limits).and_then(|data| {
        let archive = Archive::parse(&data, limits)?;
        let mut models_ok = true;
        let mut models = Vec::new();
        for (path, contents) in model_members(bytes, limits)? {
            let input = Input::from_bytes(contents);
            let (ok, text) = report(&format!("{name}:{path}"), &input);
            models_ok &= ok;
            models.push(text);
        }
        if !json {
            let mut text = human_listing(name, bytes, &archive);
            for report in &models {
                text.push_str("\n  model ");
                text.push_str(report);
            }
            return Ok((models_ok, text));
        }
        let mut files = Vec::new();
        for m in members_in_table_order(&archive) {
            let hash = sha256_hex(&contents(&m)?);
            files.push((m, hash));
        }
        let mut text = json_listing(name, &files);
        // json_listing closes its object: the models go before that brace.
        text.pop();
        text.push_str(", \"models\": [");
        text.push_str(&models.join(", "));
        text.push_str("]}");
        Ok((models_ok, text))
    });
    match result {
        Ok((ok, text)) => {
            outln!("{text}");
            ok
        }
        Err(e) if json => {
            let mut out = report_head(name, "rarc", Some(&e));
            out.push_str(", \"files\": []}");
            outln!("{out}");
            false
        }
        Err(e) => {
            outln!("{name}: rarc: FAILED {e}{}", crate::out::at_suffix(&e));
            false
        }
    }
}

fn json_listing(name: &str, files: &[(Member<'_>, String)]) -> String {
    let mut out = report_head(name, "rarc", None);
    let mut first = false;
    key(&mut out, &mut first, "files");
    out.push('[');
    for (i, (m, hash)) in files.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push('{');
        let mut f = true;
        key(&mut out, &mut f, "path");
        string(&mut out, &member_path(m));
        key(&mut out, &mut f, "size");
        out.push_str(&m.size.to_string());
        key(&mut out, &mut f, "sha256");
        string(&mut out, hash);
        out.push('}');
    }
    out.push_str("]}");
    out
}

fn human_listing(name: &str, stored: &[u8], archive: &Archive<'_>) -> String {
    let h = archive.header();
    let wrapper = if stored.starts_with(scenedec::yaz0::MAGIC) {
        ", Yaz0-wrapped"
    } else {
        ""
    };
    let order = match h.endian {
        rarc::Endian::Big => "RARC",
        rarc::Endian::Little => "CRAR, little-endian",
    };
    let mut out = format!(
        "{name}: rarc ({order}{wrapper}): {} directories, {} files, {} bytes",
        archive.directory_count(),
        archive.member_count(),
        archive.total_bytes()
    );
    // The tree in walk order; each file with its size, ID and flags.
    for item in archive.walk() {
        match item {
            rarc::Item::Directory(d) => {
                let depth = d.path.len();
                let _ = write!(
                    out,
                    "\n{:indent$}{}/  [{}]",
                    "",
                    lossy(d.node.name),
                    lossy(&d.node.kind),
                    indent = 2 * depth
                );
            }
            rarc::Item::File(m) => {
                let depth = m.dirs.len() + 1;
                let stored = match m.compression() {
                    rarc::Compression::None => String::new(),
                    c => format!(", {} {} bytes stored", c.as_str(), m.stored.len()),
                };
                let _ = write!(
                    out,
                    "\n{:indent$}{}  {} bytes  (id {}, flags {:#04x}{stored})",
                    "",
                    lossy(m.name()),
                    m.size,
                    m.entry.id,
                    m.entry.flags.0,
                    indent = 2 * depth
                );
            }
        }
    }
    out
}

/// The `extract` subcommand's arguments.
pub fn extract_command() -> Command {
    Command::new("extract")
        .about("Write every member of a RARC archive (.arc, .szs) at DIR/<path>")
        .arg(crate::input::limit_arg())
        .arg(
            Arg::new("archive")
                .value_name("ARCHIVE")
                .required(true)
                .value_parser(clap::value_parser!(PathBuf)),
        )
        .arg(
            Arg::new("output")
                .short('o')
                .long("output")
                .value_name("DIR")
                .required(true)
                .value_parser(clap::value_parser!(PathBuf))
                .help("Folder to write into (created if needed); paths start with the root directory's name"),
        )
        .arg(
            Arg::new("only")
                .long("only")
                .value_name("GLOB")
                .action(ArgAction::Append)
                .help("Only members matching GLOB (repeatable; any case): without a '/', matched against the file name (e.g. '*.bdl'), else against the whole path ('*/bdl/*'); '*' and '?' stay within a name, '**' crosses '/'"),
        )
}

/// Runs `extract`: 0 when every chosen member was written, 1 otherwise.
pub fn run_extract(m: &ArgMatches) -> ExitCode {
    let (Some(archive), Some(dir)) = (
        m.get_one::<PathBuf>("archive"),
        m.get_one::<PathBuf>("output"),
    ) else {
        return ExitCode::from(2);
    };
    let globs: Vec<String> = m
        .get_many::<String>("only")
        .map(|g| g.cloned().collect())
        .unwrap_or_default();
    let limits = match crate::input::LoadSettings::from_matches(m) {
        Ok(settings) => settings.limits.rarc,
        Err(e) => {
            eprintln!("scenedec extract: {e}");
            return ExitCode::from(2);
        }
    };
    match extract(archive, dir, &globs, &limits) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            outln!("{}: FAILED {e}", archive.display());
            ExitCode::FAILURE
        }
    }
}

/// Writes the chosen members; `Ok(false)` when any was refused or failed.
fn extract(
    archive: &Path,
    dir: &Path,
    globs: &[String],
    limits: &RarcLimits,
) -> Result<bool, String> {
    let stored = crate::bounded::read_bounded(archive, crate::bounded::archive_limit(limits))
        .map_err(|e| format!("cannot read: {}", crate::bounded::archive_unread(&e)))?;
    if !is_archive(&stored) {
        return Err("not a RARC archive (RARC or CRAR, plain or Yaz0-wrapped)".into());
    }
    let data =
        unwrapped(&stored, limits).map_err(|e| format!("{e}{}", crate::out::at_suffix(&e)))?;
    let archive =
        Archive::parse(&data, limits).map_err(|e| format!("{e}{}", crate::out::at_suffix(&e)))?;
    let mut all_ok = true;
    for m in members_in_table_order(&archive) {
        let shown = member_path(&m);
        if !globs.is_empty() && !globs.iter().any(|g| glob_matches(g, &shown)) {
            continue;
        }
        match write_member(dir, &m) {
            Ok(path) => outln!("{shown}: {} bytes -> {}", m.size, path.display()),
            Err(why) => {
                outln!("{shown}: FAILED {why}");
                all_ok = false;
            }
        }
    }
    Ok(all_ok)
}

fn write_member(dir: &Path, m: &Member<'_>) -> Result<PathBuf, String> {
    let mut path = dir.to_path_buf();
    for component in m.path() {
        path.push(safe_component(component)?);
    }
    let bytes = contents(m).map_err(|e| format!("{e}{}", crate::out::at_suffix(&e)))?;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// A name from the archive that is safe as one path component, or why not.
pub fn safe_component(name: &[u8]) -> Result<&str, String> {
    let text = std::str::from_utf8(name)
        .map_err(|_| format!("name {} is not UTF-8: refused", quoted(&lossy(name))))?;
    let bad = text.is_empty()
        || text == "."
        || text == ".."
        || text.contains(['/', '\\', ':', '\0'])
        || Path::new(text).is_absolute();
    if bad {
        return Err(format!(
            "name {} is not a plain file or folder name: refused, nothing written",
            quoted(text)
        ));
    }
    Ok(text)
}

/// `*` and `?` within one name, `**` across `/`, ASCII case ignored; a
/// pattern without `/` is matched against the last component only.
pub fn glob_matches(pattern: &str, path: &str) -> bool {
    let subject = if pattern.contains('/') {
        path
    } else {
        path.rsplit('/').next().unwrap_or(path)
    };
    let p: Vec<char> = pattern.to_ascii_lowercase().chars().collect();
    let s: Vec<char> = subject.to_ascii_lowercase().chars().collect();
    glob_at(&p, &s)
}

fn glob_at(p: &[char], s: &[char]) -> bool {
    match p {
        [] => s.is_empty(),
        ['*', '*', rest @ ..] => (0..=s.len()).any(|i| glob_at(rest, &s[i..])),
        ['*', rest @ ..] => (0..=s.len())
            .take_while(|&i| i == 0 || s[i - 1] != '/')
            .any(|i| glob_at(rest, &s[i..])),
        ['?', rest @ ..] => matches!(s, [c, tail @ ..] if *c != '/' && glob_at(rest, tail)),
        [c, rest @ ..] => matches!(s, [d, tail @ ..] if d == c && glob_at(rest, tail)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_components_are_refused() {
        for bad in [
            &b""[..],
            b".",
            b"..",
            b"a/b",
            b"/etc",
            b"a\\b",
            b"c:",
            b"a\0b",
            b"\xff",
        ] {
            assert!(safe_component(bad).is_err(), "{bad:?}");
        }
        for good in ["model.bdl", "..hidden", "a b", "日本"] {
            assert_eq!(safe_component(good.as_bytes()), Ok(good));
        }
    }

    #[test]
    fn globs_match_names_or_whole_paths() {
        assert!(glob_matches("*.bdl", "root/bdl/model.BDL"));
        assert!(!glob_matches("*.bdl", "root/bdl/model.bck"));
        assert!(glob_matches("root/*/model.?dl", "root/bdl/model.bdl"));
        assert!(!glob_matches("root/*.bdl", "root/bdl/model.bdl"));
        assert!(glob_matches("root/**.bdl", "root/bdl/model.bdl"));
        assert!(glob_matches("**", "a/b/c"));
        assert!(!glob_matches("a?b", "a/b"));
    }
}
