//! Conversion throughput: loading each corpus model and writing it as GLB
//! in memory, beside loading alone, in the same run (MB of input per
//! second; divide the time by the file count for the time per model).
//! Figures go to docs/performance.md.
//!
//! `cargo bench --bench gltf_convert`

mod support;

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use scenedec::export::gltf::{Options as ExportOptions, export};
use scenedec::{BbmodelLimits, Options};

/// The corpus files of `sub` with one of `extensions` that load.
fn corpus(sub: &str, extensions: &[&str], options: &Options<'_>) -> Vec<(String, Vec<u8>)> {
    let mut files = support::corpus(sub, extensions);
    files.retain(|(name, bytes)| {
        let ext = std::path::Path::new(name)
            .extension()
            .and_then(|e| e.to_str());
        scenedec::load(bytes, ext, options).is_ok()
    });
    files
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
