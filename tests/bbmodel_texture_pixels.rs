//! The scene's pixels of every .bbmodel corpus texture, embedded or picked
//! from the folder beside its model, equal the png crate's RGBA8 of the
//! same PNG; and the default limits refuse a small file of 64 blank
//! 4096² textures in `measure`, before anything is inflated or allocated.

#[path = "support/png.rs"]
mod png_support;
mod support;

use base64::Engine;
use scenedec::{ErrorCode, Options};
use support::bbmodel_builder::{Model, Texture};

/// The files in the folder named like the model, if there is one.
fn files_beside(model: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let dir = model.with_extension("");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// The PNG bytes a texture entry names: its data URL decoded, or the
/// picked file matching the base name of relative_path, path or name.
fn expected_png(texture: &serde_json::Value, files: &[(String, Vec<u8>)]) -> Option<Vec<u8>> {
    if let Some(source) = texture["source"].as_str()
        && let Some(body) = source.strip_prefix("data:image/png;base64,")
    {
        return base64::engine::general_purpose::STANDARD.decode(body).ok();
    }
    ["relative_path", "path", "name"].iter().find_map(|key| {
        let path = texture[*key].as_str()?;
        let base = path.rsplit(['/', '\\']).next()?;
        files
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(base))
            .map(|(_, bytes)| bytes.clone())
    })
}

#[test]
fn every_corpus_texture_decodes_in_the_scene_to_the_png_crates_rgba8() {
    let (mut compared, mut picked) = (0, 0);
    for path in support::corpus_files("bbmodel", &[".bbmodel"]) {
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let bytes = std::fs::read(&path).unwrap();
        let Ok(json) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
            continue;
        };
        let files = files_beside(&path);
        let refs: Vec<(&str, &[u8])> = files
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        let mut options = support::corpus_options(&name);
        options.bbmodel.texture_files = &refs;
        let loaded = scenedec::load(&bytes, Some("bbmodel"), &options)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let scene = loaded.scene();
        let entries = json["textures"].as_array().cloned().unwrap_or_default();
        assert_eq!(entries.len(), scene.textures().len(), "{name}");
        for (i, (entry, texture)) in entries.iter().zip(scene.textures()).enumerate() {
            let Some(png) = expected_png(entry, &files) else {
                assert!(
                    texture.missing(),
                    "{name} texture {i}: no image, so missing"
                );
                assert_eq!(texture.mip_count, 0);
                continue;
            };
            let (w, h, want) = png_support::png_crate_rgba8(&png)
                .unwrap_or_else(|e| panic!("{name} texture {i}: the png crate: {e}"));
            assert_eq!(texture.mip_count, 1, "{name} texture {i}");
            let mip = scene.mips()[texture.first_mip as usize];
            assert_eq!((mip.width, mip.height), (w, h), "{name} texture {i}");
            assert_eq!((texture.width, texture.height), (w, h));
            let start = mip.offset as usize;
            let got = &scene.pixels()[start..start + want.len()];
            assert!(got == want.as_slice(), "{name} texture {i}: pixels differ");
            compared += 1;
            picked += usize::from(!entry["source"].as_str().unwrap_or("").starts_with("data:"));
        }
    }
    eprintln!("{compared} corpus textures match the png crate ({picked} picked files)");
    if support::corpus_dir().is_some() {
        // 77 embedded images and the one linked file the corpus carries.
        assert!(compared >= 78, "only {compared} textures compared");
        assert!(picked >= 1, "no picked file was compared");
    }
}

/// Issue: a total budget. 64 blank 4096² PNGs pass every per-texture limit
/// of the spec, yet ask for 4 GiB of RGBA8; maxTextureBytes (256 MiB)
/// refuses them from the headers.
#[test]
fn max_texture_bytes_refuses_64_full_size_textures_in_measure() {
    let mut model = Model::free();
    for i in 0..64 {
        model = model.texture(Texture::png(&format!("t{i}"), 4096, 4096));
    }
    let bytes = model.bytes();
    assert!(bytes.len() < 64 << 20, "within maxFileBytes");
    let e = scenedec::measure(&bytes, Some("bbmodel"), &Options::default()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::TextureTooLarge, "{e}");
    assert_eq!(e.at().to_string(), "$.textures");
    assert!(e.to_string().contains("maxTextureBytes (268435456)"), "{e}");
    assert!(e.to_string().contains("4294967296"), "{e}");
    // Raised, the same file measures (and would need its 4 GiB).
    let mut raised = Options::default();
    raised.bbmodel.limits = raised
        .bbmodel
        .limits
        .with_override("maxTextureBytes", f64::INFINITY)
        .unwrap();
    let e = scenedec::measure(&bytes, Some("bbmodel"), &raised).unwrap_err();
    // Past 2³² bytes the pixel offsets no longer fit: refused all the same.
    assert_eq!(e.code(), ErrorCode::TextureTooLarge, "{e}");
}
