//! J3D decode throughput on the real corpus beside `memcpy` of the same
//! bytes, in the same run. Figures go to docs/performance.md.
//!
//! `cargo bench --bench j3d_decode`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use scenedec::{Arena, Options, Warnings};

fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/j3d");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "SKIPPED: {} is absent; the J3D bench has no input",
            dir.display()
        );
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "bmd" || x == "bdl"))
        .collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            Some((
                p.file_name()?.to_string_lossy().into_owned(),
                std::fs::read(&p).ok()?,
            ))
        })
        .collect()
}

/// Loads every file; the triangles, so that nothing is optimised away.
fn load_all(files: &[(String, Vec<u8>)], options: &Options<'_>) -> usize {
    files
        .iter()
        .map(|(_, bytes)| {
            scenedec::load(black_box(bytes), None, options)
                .unwrap()
                .scene()
                .triangle_count()
        })
        .sum()
}

fn benches(c: &mut Criterion) {
    let files = corpus();
    let total: usize = files.iter().map(|(_, b)| b.len()).sum();
    if total == 0 {
        return;
    }
    let options = Options::default();
    // Arenas sized once, outside the timed loop, as an engine would.
    let mut arenas: Vec<Vec<u64>> = files
        .iter()
        .map(|(_, b)| vec![0u64; scenedec::measure(b, None, &options).unwrap().arena_words()])
        .collect();
    let vertices: usize = files
        .iter()
        .map(|(_, b)| {
            scenedec::load(b, None, &options)
                .unwrap()
                .scene()
                .positions()
                .len()
        })
        .sum();
    eprintln!(
        "J3D corpus: {} files, {total} bytes, {vertices} scene vertices",
        files.len()
    );

    let mut g = c.benchmark_group("j3d/corpus");
    g.sample_size(20);
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function(BenchmarkId::new("scenedec", "measure+decode_into"), |b| {
        b.iter(|| {
            let mut n = 0;
            for ((_, bytes), words) in files.iter().zip(arenas.iter_mut()) {
                let mut warnings = Warnings::new();
                scenedec::measure(black_box(bytes), None, &options).unwrap();
                let mut arena = Arena::from_words(words);
                let scene = scenedec::decode_into(bytes, None, &options, &mut arena, &mut warnings)
                    .unwrap();
                n += scene.triangle_count();
            }
            n
        })
    });
    g.bench_function(BenchmarkId::new("scenedec", "measure"), |b| {
        b.iter(|| {
            files
                .iter()
                .map(|(_, bytes)| {
                    scenedec::measure(black_box(bytes), None, &options)
                        .unwrap()
                        .arena_words()
                })
                .sum::<usize>()
        })
    });
    g.bench_function(BenchmarkId::new("scenedec", "load"), |b| {
        b.iter(|| load_all(&files, &options))
    });
    // Headers and metadata only: no texture level decoded (`skip_texels`).
    let mut headers_only = options;
    headers_only.j3d.skip_texels = true;
    g.bench_function(BenchmarkId::new("scenedec", "load, texels left out"), |b| {
        b.iter(|| load_all(&files, &headers_only))
    });
    let mut copies: Vec<Vec<u8>> = files.iter().map(|(_, b)| vec![0u8; b.len()]).collect();
    g.bench_function(BenchmarkId::new("memcpy", "same bytes"), |b| {
        b.iter(|| {
            for ((_, bytes), out) in files.iter().zip(copies.iter_mut()) {
                out.copy_from_slice(black_box(bytes));
            }
            copies.len()
        })
    });
    g.finish();

    // The same loads per scene vertex: criterion reports vertices/s.
    let mut g = c.benchmark_group("j3d/corpus-vertices");
    g.sample_size(20);
    g.throughput(Throughput::Elements(vertices as u64));
    g.bench_function(BenchmarkId::new("scenedec", "load"), |b| {
        b.iter(|| load_all(&files, &options))
    });
    g.bench_function(BenchmarkId::new("scenedec", "load, texels left out"), |b| {
        b.iter(|| load_all(&files, &headers_only))
    });
    g.finish();
}

criterion_group!(j3d, benches);
criterion_main!(j3d);
