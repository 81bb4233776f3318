//! Conversion throughput: loading each corpus model and writing it as GLB
//! in memory, beside loading alone, in the same run (MB of input per
//! second; divide the time by the file count for the time per model).
//! Figures go to docs/performance.md.
//!
//! `cargo bench --bench gltf_convert`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use scenedec::export::gltf::{Options as ExportOptions, export};
use scenedec::{BbmodelLimits, Options};

/// The corpus files of `sub` with one of `extensions` that load.
fn corpus(sub: &str, extensions: &[&str], options: &Options<'_>) -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(sub);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("SKIPPED: {} is absent; no input for it", dir.display());
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| extensions.contains(&x))
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            let ext = p.extension().and_then(|e| e.to_str());
            scenedec::load(&bytes, ext, options).ok()?;
            Some((p.file_name()?.to_string_lossy().into_owned(), bytes))
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let mut options = Options::default();
    options.bbmodel.limits = BbmodelLimits::default()
        .with_override("maxFaceVertices", 32.0)
        .unwrap();
    let export_options = ExportOptions::default();
    for (name, sub, extensions, hint) in [
        ("j3d", "j3d", &["bmd", "bdl"][..], "bmd"),
        ("bbmodel", "bbmodel", &["bbmodel"][..], "bbmodel"),
    ] {
        let files = corpus(sub, extensions, &options);
        let total: usize = files.iter().map(|(_, b)| b.len()).sum();
        if total == 0 {
            continue;
        }
        eprintln!("{name} corpus: {} files, {total} bytes", files.len());
        let mut g = c.benchmark_group(format!("gltf/{name}"));
        g.sample_size(10);
        g.throughput(Throughput::Bytes(total as u64));
        g.bench_function(BenchmarkId::new("load", files.len()), |b| {
            b.iter(|| {
                files
                    .iter()
                    .map(|(_, bytes)| {
                        scenedec::load(black_box(bytes), Some(hint), &options)
                            .unwrap()
                            .scene()
                            .triangle_count()
                    })
                    .sum::<usize>()
            })
        });
        g.bench_function(BenchmarkId::new("load+glb", files.len()), |b| {
            b.iter(|| {
                files
                    .iter()
                    .map(|(_, bytes)| {
                        let loaded =
                            scenedec::load(black_box(bytes), Some(hint), &options).unwrap();
                        export(&loaded.scene(), "model", &export_options)
                            .unwrap()
                            .main
                            .len()
                    })
                    .sum::<usize>()
            })
        });
        g.finish();
    }
}

criterion_group!(gltf, benches);
criterion_main!(gltf);
