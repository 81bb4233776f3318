//! .bbmodel decode throughput beside serde_json (`Value`, the DOM a serde
//! reader would build first) on the same bytes, in the same run: the real
//! corpus, 10 000 cubes, a 200 000-triangle mesh, 16-gon ear clipping, and a
//! 50 MB file. Ratios go to docs/performance.md.
//!
//! `cargo bench --bench bbmodel_decode`

mod support;

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use scenedec::{BbmodelLimits, Options};

fn options() -> Options<'static> {
    // Generated inputs go past the default limits on purpose.
    let mut o = Options::default();
    o.bbmodel.limits = BbmodelLimits {
        max_triangles: 4_000_000,
        max_vertices: 8_000_000,
        max_elements: 1_000_000,
        max_groups: 1_000_000,
        // The corpus's 32-vertex mesh face.
        max_face_vertices: 64,
        ..BbmodelLimits::default()
    };
    o
}

fn compare(c: &mut Criterion, group: &str, inputs: &[(String, Vec<u8>)]) {
    let total: usize = inputs.iter().map(|(_, b)| b.len()).sum();
    if total == 0 {
        return;
    }
    let options = options();
    // The corpus keeps files that are refused on purpose (an empty file,
    // bad JSON); a generated input must load, or the bench would time an
    // error path.
    let mut loaded = Vec::new();
    for (name, b) in inputs {
        match scenedec::load(b, Some("bbmodel"), &options) {
            Ok(l) => loaded.push(l),
            Err(e) if group == "bbmodel/corpus" => eprintln!("{group}: {name} is refused: {e}"),
            Err(e) => panic!("{group}: the generated input {name} does not load: {e}"),
        }
    }
    let triangles: usize = loaded.iter().map(|l| l.scene().triangle_count()).sum();
    // Memory: the one allocation `load` makes (the arena), beside the input.
    let arena: usize = loaded.iter().map(|l| l.arena_bytes()).sum();
    let loads = loaded.len();
    drop(loaded);
    eprintln!(
        "{group}: {} files ({} load), {total} bytes, {triangles} triangles, arena {arena} bytes",
        inputs.len(),
        loads
    );
    let mut g = c.benchmark_group(group);
    g.sample_size(10);
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function(BenchmarkId::new("scenedec", "load"), |b| {
        b.iter(|| {
            inputs
                .iter()
                .filter_map(|(_, x)| scenedec::load(black_box(x), Some("bbmodel"), &options).ok())
                .map(|l| l.scene().triangle_count())
                .sum::<usize>()
        })
    });
    g.bench_function(BenchmarkId::new("serde_json", "Value"), |b| {
        b.iter(|| {
            inputs
                .iter()
                .filter(|(_, x)| serde_json::from_slice::<serde_json::Value>(black_box(x)).is_ok())
                .count()
        })
    });
    g.bench_function(BenchmarkId::new("serde_json", "IgnoredAny"), |b| {
        b.iter(|| {
            inputs
                .iter()
                .filter(|(_, x)| {
                    serde_json::from_slice::<serde::de::IgnoredAny>(black_box(x)).is_ok()
                })
                .count()
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    let corpus = support::corpus_bbmodels();
    compare(c, "bbmodel/corpus", &corpus);
    compare(
        c,
        "bbmodel/10000_cubes",
        &[("cubes".into(), support::generated_bbmodel_cubes(10_000))],
    );
    compare(
        c,
        "bbmodel/mesh_200k_triangles",
        &[("mesh".into(), support::generated_mesh(100_000))],
    );
    compare(
        c,
        "bbmodel/ngons_ear_clipping",
        &[("ngons".into(), support::generated_ngons(14_285))],
    );
    compare(
        c,
        "bbmodel/generated_50mb",
        &[("50mb".into(), support::generated_bbmodel(50 * 1024 * 1024))],
    );
}

criterion_group!(bbmodel, benches);
criterion_main!(bbmodel);
