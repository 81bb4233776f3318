//! The hostile inputs of tests/support/hostile.rs, timed: `scenedec::load`
//! on each attack beside a copy of its bytes (the cost of merely reading
//! them) and, for .bbmodel, serde_json skipping them (`IgnoredAny`: the
//! cost of reading them as JSON), in the same run. The goal (docs/security.md): each refused in
//! under 10 ms beyond reading its bytes.
//!
//! `cargo bench --bench hostile`

#[path = "../tests/support/mod.rs"]
mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use scenedec::Options;

fn hostile(c: &mut Criterion) {
    let mut group = c.benchmark_group("hostile");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(1));
    for case in support::hostile::cases() {
        let files: Vec<(&str, &[u8])> = case
            .texture_files
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        let mut options = Options::default();
        options.bbmodel.texture_files = &files;
        let total: usize = case.bytes.len() + files.iter().map(|(_, b)| b.len()).sum::<usize>();
        let mut copy = vec![0u8; total];
        group.bench_function(BenchmarkId::new("load", &case.name), |b| {
            b.iter(|| {
                black_box(scenedec::load(
                    black_box(&case.bytes),
                    Some(case.ext),
                    &options,
                ))
                .is_ok()
            })
        });
        group.bench_function(BenchmarkId::new("copy of its bytes", &case.name), |b| {
            b.iter(|| {
                copy[..case.bytes.len()].copy_from_slice(black_box(&case.bytes));
                let mut at = case.bytes.len();
                for (_, f) in &files {
                    copy[at..at + f.len()].copy_from_slice(black_box(f));
                    at += f.len();
                }
                black_box(&copy);
            })
        });
        if case.ext == "bbmodel" {
            group.bench_function(BenchmarkId::new("serde_json IgnoredAny", &case.name), |b| {
                b.iter(|| {
                    serde_json::from_slice::<serde::de::IgnoredAny>(black_box(&case.bytes)).is_ok()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, hostile);
criterion_main!(benches);
