//! The PNG inputs of the corpus, for the PNG and data URL tests and the
//! bench: corpus textures, their data URIs, and PngSuite's valid images.

#![allow(dead_code)]

use base64::Engine;

/// The corpus's .bbmodel folder, or `None` (saying so) when absent.
fn bbmodel_dir() -> Option<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/bbmodel");
    if !dir.is_dir() {
        eprintln!("SKIPPED: ../shared/corpus is absent; no corpus texture tested");
        return None;
    }
    Some(dir)
}

fn sorted_entries(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    entries
}

/// (where it came from, the URL) for every `data:image/png;base64,` string
/// in the corpus's .bbmodel files.
pub fn corpus_data_uris() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for path in bbmodel_dir()
        .as_deref()
        .map(sorted_entries)
        .unwrap_or_default()
    {
        if path.is_file() && path.extension().is_some_and(|e| e == "bbmodel") {
            // The corpus holds a few files that are no JSON on purpose.
            let Ok(json) =
                serde_json::from_slice::<serde_json::Value>(&std::fs::read(&path).unwrap())
            else {
                continue;
            };
            let mut uris = Vec::new();
            collect_png_uris(&json, &mut uris);
            for (i, uri) in uris.into_iter().enumerate() {
                out.push((format!("{} data URI {i}", path.display()), uri));
            }
        }
    }
    out
}

/// (where it came from, PNG bytes) for every corpus texture: the PNG files
/// in the folders beside the models, then every embedded data URI.
pub fn corpus_textures() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for path in bbmodel_dir()
        .as_deref()
        .map(sorted_entries)
        .unwrap_or_default()
    {
        if path.is_dir() {
            for f in sorted_entries(&path) {
                if f.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) {
                    out.push((f.display().to_string(), std::fs::read(&f).unwrap()));
                }
            }
        }
    }
    for (name, uri) in corpus_data_uris() {
        let body = &uri["data:image/png;base64,".len()..];
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(body.trim_end())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push((name, bytes));
    }
    out
}

fn collect_png_uris(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) if s.starts_with("data:image/png;base64,") => {
            out.push(s.clone())
        }
        serde_json::Value::Array(a) => a.iter().for_each(|v| collect_png_uris(v, out)),
        serde_json::Value::Object(o) => o.values().for_each(|v| collect_png_uris(v, out)),
        _ => {}
    }
}

/// PngSuite's valid images (name, bytes), per `expected.tsv`.
pub fn pngsuite_valid() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/pngsuite");
    let Ok(table) = std::fs::read_to_string(dir.join("expected.tsv")) else {
        eprintln!("SKIPPED: ../shared/corpus/pngsuite is absent");
        return Vec::new();
    };
    table
        .lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            let name = f.next()?;
            (f.next()? == "ok").then(|| (name.to_string(), std::fs::read(dir.join(name)).unwrap()))
        })
        .collect()
}
