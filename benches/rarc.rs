//! RARC archives: listing (parse, then walk every member's path) and full
//! extraction (every member's bytes read into one buffer) of the corpus
//! archives, in archive bytes per second, beside `copy_from_slice` of the
//! same bytes (memcpy: the floor of any reader that touches each byte) in
//! the same run. Yaz0-wrapped archives are unwrapped once, before timing:
//! Yaz0 has a bench of its own in the J3D group, and the question here is
//! the archive reader's own cost.
//!
//! `cargo bench --bench rarc`

mod support;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use scenedec::RarcLimits;
use scenedec::rarc::{self, Archive};

/// The corpus archives, each as its RARC bytes (a Yaz0 wrapper undone).
fn archives() -> Vec<(String, Vec<u8>)> {
    let limits = RarcLimits::DEFAULT;
    support::corpus("rarc", &["arc", "szs"])
        .into_iter()
        .map(
            |(name, bytes)| match rarc::unwrapped_len(&bytes, &limits).unwrap() {
                0 => (name, bytes),
                len => {
                    let mut out = vec![0u8; len];
                    rarc::unwrap_into(&bytes, &limits, &mut out).unwrap();
                    (name, out)
                }
            },
        )
        .collect()
}

fn bench(c: &mut Criterion) {
    let archives = archives();
    if archives.is_empty() {
        return;
    }
    let limits = RarcLimits::DEFAULT;
    let total: usize = archives.iter().map(|(_, b)| b.len()).sum();
    let largest = archives
        .iter()
        .map(|(_, b)| {
            let archive = Archive::parse(b, &limits).unwrap();
            archive
                .members()
                .map(|m| m.size as usize)
                .max()
                .unwrap_or(0)
        })
        .max()
        .unwrap_or(0);
    let mut g = c.benchmark_group("rarc_corpus");
    g.throughput(Throughput::Bytes(total as u64));

    let mut copy = vec![0u8; archives.iter().map(|(_, b)| b.len()).max().unwrap()];
    g.bench_function("memcpy", |b| {
        b.iter(|| {
            for (_, bytes) in &archives {
                copy[..bytes.len()].copy_from_slice(black_box(bytes));
            }
            black_box(copy[0])
        })
    });
    g.bench_function("list", |b| {
        b.iter(|| {
            let mut names = 0usize;
            for (_, bytes) in &archives {
                let archive = Archive::parse(black_box(bytes), &limits).unwrap();
                for m in archive.members() {
                    names += m.path().map(<[u8]>::len).sum::<usize>();
                }
            }
            black_box(names)
        })
    });
    let mut out = vec![0u8; largest];
    g.bench_function("extract", |b| {
        b.iter(|| {
            let mut read = 0usize;
            for (_, bytes) in &archives {
                let archive = Archive::parse(black_box(bytes), &limits).unwrap();
                for m in archive.members() {
                    let size = m.size as usize;
                    m.read_into(&mut out[..size]).unwrap();
                    read += size;
                }
            }
            black_box(read)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
