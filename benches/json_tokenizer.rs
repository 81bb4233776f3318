//! The JSON tokenizer beside serde_json and memchr on the same bytes, in the
//! same run. Ratios go to docs/performance.md.
//!
//! `cargo bench --bench json_tokenizer`

mod support;

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use scenedec::json::{Step, StreamTokenizer, Tokenizer};

/// Tokenizes a whole document; returns the token count so nothing is optimised away.
fn tokenize(bytes: &[u8]) -> usize {
    let mut t = Tokenizer::new(bytes, 256);
    let mut n = 0;
    while let Ok(Some(_)) = t.next_token() {
        n += 1;
    }
    n
}

/// Tokenizes a document fed in 4096-byte chunks.
fn tokenize_chunked(bytes: &[u8], scratch: &mut [u8]) -> usize {
    let mut t = StreamTokenizer::new(scratch, 256);
    let mut n = 0;
    let mut chunks = bytes.chunks(4096);
    let mut chunk: &[u8] = chunks.next().unwrap_or_default();
    loop {
        match t.next(&mut chunk) {
            Ok(Step::Token(_)) => n += 1,
            Ok(Step::NeedMoreInput) => match chunks.next() {
                Some(c) => chunk = c,
                None => t.finish(),
            },
            Ok(Step::End) | Err(_) => return n,
        }
    }
}

fn serde_ignored(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
}

fn serde_value(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(bytes).is_ok()
}

fn memchr_quotes(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'"', bytes).count()
}

fn compare(c: &mut Criterion, group: &str, inputs: &[(String, Vec<u8>)]) {
    let total: usize = inputs.iter().map(|(_, b)| b.len()).sum();
    if total == 0 {
        return;
    }
    let mut g = c.benchmark_group(group);
    g.sample_size(10);
    g.throughput(Throughput::Bytes(total as u64));
    let mut scratch = vec![0u8; 64 * 1024 * 1024];
    g.bench_function(BenchmarkId::new("scenedec", "whole"), |b| {
        b.iter(|| {
            inputs
                .iter()
                .map(|(_, x)| tokenize(black_box(x)))
                .sum::<usize>()
        })
    });
    g.bench_function(BenchmarkId::new("scenedec", "chunked_4096"), |b| {
        b.iter(|| {
            inputs
                .iter()
                .map(|(_, x)| tokenize_chunked(black_box(x), &mut scratch))
                .sum::<usize>()
        })
    });
    g.bench_function(BenchmarkId::new("serde_json", "IgnoredAny"), |b| {
        b.iter(|| {
            inputs
                .iter()
                .filter(|(_, x)| serde_ignored(black_box(x)))
                .count()
        })
    });
    g.bench_function(BenchmarkId::new("serde_json", "Value"), |b| {
        b.iter(|| {
            inputs
                .iter()
                .filter(|(_, x)| serde_value(black_box(x)))
                .count()
        })
    });
    g.bench_function(BenchmarkId::new("memchr", "quotes"), |b| {
        b.iter(|| {
            inputs
                .iter()
                .map(|(_, x)| memchr_quotes(black_box(x)))
                .sum::<usize>()
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    let corpus = support::corpus_bbmodels();
    compare(c, "tokenizer/corpus", &corpus);
    let large = vec![(
        "generated_50mb".to_owned(),
        support::generated_bbmodel(50 * 1024 * 1024),
    )];
    compare(c, "tokenizer/generated_50mb", &large);
    let strings = vec![(
        "long_strings".to_owned(),
        support::long_strings(64, 256 * 1024),
    )];
    compare(c, "tokenizer/long_strings", &strings);
}

criterion_group!(tokenizer, benches);
criterion_main!(tokenizer);
