//! Real files from `../shared/corpus`: what scenedec reads today must agree
//! with the independent reader's summaries (`j3d/expected/*.json`) and with
//! the versions the .bbmodel files declare. Skips, saying so, when the
//! corpus is absent.

mod support;

use scenedec::ErrorCode;
use scenedec::Options;
use scenedec::j3d::J3dFile;

fn expected(path: &std::path::Path) -> serde_json::Value {
    let name = path.file_name().unwrap().to_str().unwrap();
    let json = path
        .parent()
        .unwrap()
        .join("expected")
        .join(format!("{name}.json"));
    serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap()
}

#[test]
fn j3d_section_walk_matches_the_independent_reader() {
    let files = support::corpus_files("j3d", &[".bmd", ".bdl"]);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let want = expected(path);
        let file = J3dFile::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let magic = std::str::from_utf8(&bytes[..8]).unwrap();
        assert_eq!(magic, want["magic"].as_str().unwrap());
        let got: Vec<(String, u64, u64)> = file
            .sections()
            .map(|s| {
                (
                    s.id.as_str().to_owned(),
                    s.offset as u64,
                    s.bytes.len() as u64,
                )
            })
            .collect();
        let want: Vec<(String, u64, u64)> = want["chunks_raw"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["id"].as_str().unwrap().to_owned(),
                    c["offset"].as_u64().unwrap(),
                    c["size"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(got, want, "{}", path.display());
        let loaded = scenedec::load(&bytes, None, &Options::default()).unwrap();
        assert_eq!(loaded.scene().format(), scenedec::scene::Format::J3d);
    }
    eprintln!("checked {} J3D corpus files", files.len());
}

#[test]
fn j3d_corpus_loads_the_same_through_yaz0() {
    for path in support::corpus_files("j3d", &[".bmd", ".bdl"])
        .iter()
        .take(3)
    {
        let bytes = std::fs::read(path).unwrap();
        let packed = scenedec::yaz0::compress(&bytes);
        let loaded = scenedec::load(&packed, None, &Options::default()).unwrap();
        assert_eq!(loaded.scene().input(), &bytes[..], "{}", path.display());
    }
}

/// The version a corpus file name states, e.g. `..._v4_10_...` → (4, 10).
fn version_in_name(name: &str) -> Option<(u32, u32)> {
    let at = name.find("_v")?;
    let mut parts = name[at + 2..].split('_');
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

#[test]
fn every_bbmodel_reads_as_json_with_its_version() {
    let files = support::corpus_files("bbmodel", &[".bbmodel"]);
    let limits = scenedec::BbmodelLimits::default();
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        let bytes = std::fs::read(path).unwrap();
        let result = scenedec::bbmodel::read_meta(&bytes, &limits);
        if bytes.is_empty() {
            // Spec: an empty file fails NOT_JSON.
            assert_eq!(result.unwrap_err().code(), ErrorCode::NotJson, "{name}");
            continue;
        }
        let version = result.unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some((major, minor)) = version_in_name(name) {
            assert_eq!((version.major, version.minor), (major, minor), "{name}");
        }
        let loaded = scenedec::load(&bytes, Some("bbmodel"), &Options::default()).unwrap();
        assert_eq!(loaded.scene().format(), scenedec::scene::Format::Bbmodel);
    }
    eprintln!("checked {} .bbmodel corpus files", files.len());
}
