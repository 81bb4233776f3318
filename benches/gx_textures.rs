//! GX texture decoding: RGBA8 output bytes per second for each format at
//! 1024x1024, beside `copy_from_slice` of the same output size (memcpy, the
//! floor any decoder writing that many bytes pays) in the same run. Inputs
//! are deterministic pseudo-random bytes, so every texel path is taken
//! (palette indices are masked into a full palette).
//!
//! Small CMPR levels (32² and 64²) have a group of their own.
//!
//! `cargo bench --bench gx_textures`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use scenedec::gx::texture::{self, GxFormat, PaletteFormat};

const SIDE: u32 = 1024;

/// xorshift bytes: the same input every run.
fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let out_len = texture::decoded_size(SIDE, SIDE).unwrap();
    let mut g = c.benchmark_group("gx_textures_1024x1024_rgba8_out");
    g.sample_size(20);
    g.throughput(Throughput::Bytes(out_len as u64));
    let mut out = vec![0u8; out_len];

    let source = noise(out_len, 7);
    g.bench_function("memcpy", |b| {
        b.iter(|| {
            out.copy_from_slice(black_box(&source));
            black_box(out[out_len / 2])
        })
    });

    // A full C14X2 palette (16384 entries) serves every paletted format.
    let palette = noise(16_384 * 2, 11);
    for format in GxFormat::ALL {
        let mut data = noise(texture::encoded_size(format, SIDE, SIDE).unwrap(), 3);
        if format == GxFormat::C14X2 {
            // Indices are the low 14 bits: every one names an entry.
            for pair in data.chunks_exact_mut(2) {
                pair[0] &= 0x3F;
            }
        }
        let pal = format
            .is_paletted()
            .then_some((PaletteFormat::RGB5A3, palette.as_slice()));
        g.bench_with_input(
            BenchmarkId::new("decode", format.name()),
            &data,
            |b, data| {
                b.iter(|| {
                    texture::decode(format, SIDE, SIDE, black_box(data), pal, &mut out).unwrap();
                    black_box(out[out_len / 2])
                })
            },
        );
    }
    g.finish();

    // Small CMPR levels, as J3D models carry them: what a decode costs
    // beyond its texels (checks, setup, strips) shows here per byte.
    let mut small = c.benchmark_group("gx_textures_small_cmpr_rgba8_out");
    small.sample_size(20);
    for side in [32u32, 64] {
        let data = noise(
            texture::encoded_size(GxFormat::CMPR, side, side).unwrap(),
            3,
        );
        let mut out = vec![0u8; texture::decoded_size(side, side).unwrap()];
        small.throughput(Throughput::Bytes(out.len() as u64));
        small.bench_with_input(BenchmarkId::new("CMPR", side), &data, |b, data| {
            b.iter(|| {
                texture::decode(GxFormat::CMPR, side, side, black_box(data), None, &mut out)
                    .unwrap();
                black_box(out[0])
            })
        });
    }
    small.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
