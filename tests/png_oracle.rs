//! Every PNG texture of the corpus — the files in the folders beside the
//! .bbmodel models and every embedded `data:image/png;base64,` string in the
//! models — decodes to the same RGBA8 here as with the png crate. Skips,
//! saying so, when the corpus is absent.

#[path = "support/png.rs"]
mod png_support;
mod support;

use base64::Engine;

/// (where it came from, PNG bytes) for every corpus texture.
pub fn corpus_textures() -> Vec<(String, Vec<u8>)> {
    let Some(dir) = support::corpus_dir() else {
        eprintln!("SKIPPED: ../shared/corpus is absent; no corpus texture tested");
        return Vec::new();
    };
    let dir = dir.join("bbmodel");
    let mut out = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            let mut files: Vec<_> = std::fs::read_dir(&path)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            files.sort();
            for f in files
                .into_iter()
                .filter(|f| f.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")))
            {
                out.push((f.display().to_string(), std::fs::read(&f).unwrap()));
            }
        } else if path.extension().is_some_and(|e| e == "bbmodel") {
            let json: serde_json::Value =
                match serde_json::from_slice(&std::fs::read(&path).unwrap()) {
                    Ok(v) => v,
                    Err(_) => continue, // the corpus holds a few files that are no JSON on purpose
                };
            let mut uris = Vec::new();
            collect_png_uris(&json, &mut uris);
            for (i, uri) in uris.into_iter().enumerate() {
                let body = &uri["data:image/png;base64,".len()..];
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(body.trim_end())
                    .unwrap_or_else(|e| panic!("{}: data URI {i}: {e}", path.display()));
                out.push((format!("{} data URI {i}", path.display()), bytes));
            }
        }
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

#[test]
fn corpus_textures_decode_to_the_png_crates_rgba8() {
    let textures = corpus_textures();
    let mut compared = 0;
    for (name, bytes) in &textures {
        let theirs = png_support::png_crate_rgba8(bytes);
        let ours = png_support::decode(bytes, 0);
        match (ours, theirs) {
            (Ok((h, pixels)), Ok((w, hh, expected))) => {
                assert_eq!((h.width, h.height), (w, hh), "{name}");
                assert!(
                    pixels == expected,
                    "{name}: RGBA8 differs from the png crate's"
                );
                compared += 1;
            }
            (ours, theirs) => panic!(
                "{name}: ours {:?}, png crate {:?}",
                ours.map(|(h, _)| h),
                theirs.map(|t| (t.0, t.1))
            ),
        }
        // Pieces as a data URL decoder hands them out give the same pixels.
        assert_eq!(
            png_support::decode(bytes, 4096),
            png_support::decode(bytes, 0),
            "{name} in pieces"
        );
    }
    eprintln!("{compared} corpus textures match the png crate");
    if support::corpus_dir().is_some() {
        assert!(compared > 50, "only {compared} corpus textures found");
    }
}
