//! The committed sample models are exactly what the generators in
//! `tests/support/samples.rs` make. Run with `UPDATE_SAMPLES=1` to rewrite them.

mod support;

#[test]
fn committed_samples_are_current() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let update = std::env::var_os("UPDATE_SAMPLES").is_some();
    for (path, bytes) in support::samples::all() {
        let file = root.join(path);
        if update {
            std::fs::write(&file, &bytes).unwrap();
        }
        let committed = std::fs::read(&file).unwrap_or_default();
        assert!(
            committed == bytes,
            "{path} is stale: run UPDATE_SAMPLES=1 cargo test --test samples"
        );
    }
}

#[test]
fn every_sample_loads() {
    for (path, bytes) in support::samples::all() {
        let ext = std::path::Path::new(path)
            .extension()
            .and_then(|e| e.to_str());
        let loaded = scenedec::load(&bytes, ext, &scenedec::Options::default())
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        let expected = if path.ends_with(".bbmodel") {
            scenedec::scene::Format::Bbmodel
        } else {
            scenedec::scene::Format::J3d
        };
        assert_eq!(loaded.scene().format(), expected, "{path}");
    }
}
