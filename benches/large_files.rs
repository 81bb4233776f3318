//! 100 MB generated .bbmodel files (cube-, mesh- and texture-heavy) loaded
//! by scenedec beside serde_json `IgnoredAny` and a copy of the same bytes,
//! in the same run: the large-file throughput of docs/performance.md.
//!
//! `cargo bench --bench large_files`; with `SCENEDEC_LARGE_DIR=DIR` it only
//! writes the three files, and cube files of 1 and 10 MB, to DIR (for the
//! CLI's memory figures).

mod support;

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use scenedec::{Arena, BbmodelLimits, Options, Warnings};

const SIZE: usize = 100 * 1000 * 1000;

fn options() -> Options<'static> {
    // The files go past the default limits on purpose.
    let mut o = Options::default();
    o.bbmodel.limits = BbmodelLimits {
        max_file_bytes: 1 << 30,
        max_triangles: 8_000_000,
        max_vertices: 16_000_000,
        max_elements: 2_000_000,
        max_groups: 2_000_000,
        max_texture_bytes: 1 << 30,
        ..BbmodelLimits::default()
    };
    o
}

fn inputs() -> [(&'static str, Vec<u8>); 3] {
    // About 196 bytes a quad in `generated_mesh`.
    [
        ("cubes", support::generated_bbmodel(SIZE)),
        ("mesh", support::generated_mesh(SIZE / 196)),
        ("textures", support::generated_textures(SIZE)),
    ]
}

fn compare(c: &mut Criterion, name: &str, bytes: &[u8]) {
    let options = options();
    let loaded = scenedec::load(bytes, Some("bbmodel"), &options)
        .unwrap_or_else(|e| panic!("the generated {name} file does not load: {e}"));
    eprintln!(
        "large/{name}: {} bytes, {} triangles, arena {} bytes",
        bytes.len(),
        loaded.scene().triangle_count(),
        loaded.arena_bytes()
    );
    drop(loaded);
    let words = scenedec::measure(bytes, Some("bbmodel"), &options)
        .unwrap()
        .arena_words();
    let mut arena_words = vec![0u64; words];
    let mut copy = vec![0u8; bytes.len()];

    let mut g = c.benchmark_group(format!("large/{name}"));
    g.sample_size(10);
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function(BenchmarkId::new("scenedec", "measure+decode_into"), |b| {
        b.iter(|| {
            let mut warnings = Warnings::new();
            scenedec::measure(black_box(bytes), Some("bbmodel"), &options).unwrap();
            let mut arena = Arena::from_words(&mut arena_words);
            let scene =
                scenedec::decode_into(bytes, Some("bbmodel"), &options, &mut arena, &mut warnings)
                    .unwrap();
            scene.triangle_count()
        })
    });
    g.bench_function(BenchmarkId::new("scenedec", "load"), |b| {
        b.iter(|| {
            scenedec::load(black_box(bytes), Some("bbmodel"), &options)
                .unwrap()
                .scene()
                .triangle_count()
        })
    });
    g.bench_function(BenchmarkId::new("serde_json", "IgnoredAny"), |b| {
        b.iter(|| serde_json::from_slice::<serde::de::IgnoredAny>(black_box(bytes)).is_ok())
    });
    g.bench_function(BenchmarkId::new("memcpy", "copy"), |b| {
        b.iter(|| copy.copy_from_slice(black_box(bytes)))
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    if let Some(dir) = std::env::var_os("SCENEDEC_LARGE_DIR") {
        for (name, bytes) in inputs() {
            let path = std::path::Path::new(&dir).join(format!("{name}_100mb.bbmodel"));
            std::fs::write(&path, bytes).unwrap();
            eprintln!("wrote {}", path.display());
        }
        // Smaller cube files: convert's memory against size.
        for mb in [1, 10] {
            let path = std::path::Path::new(&dir).join(format!("cubes_{mb}mb.bbmodel"));
            std::fs::write(&path, support::generated_bbmodel(mb * 1000 * 1000)).unwrap();
            eprintln!("wrote {}", path.display());
        }
        return;
    }
    for (name, bytes) in inputs() {
        compare(c, name, &bytes);
    }
}

criterion_group!(large, benches);
criterion_main!(large);
