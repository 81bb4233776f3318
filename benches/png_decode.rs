//! PNG decoding to RGBA8, scenedec beside the png crate and zune-png in the
//! same run on the same bytes, as RGBA8 bytes out per second into buffers
//! allocated and touched beforehand: the corpus textures (files beside the
//! models and embedded data URIs), PngSuite's valid images, and generated
//! 4096×4096 RGBA8 images (noise and flat, IDAT in 8 KiB chunks as encoders
//! write them). miniz_oxide inflating the same zlib streams alone is the
//! floor on inflate it had, zlib-rs alone the candidate faster inflater
//! that was ruled out, and scenedec's own inflater alone the floor now.
//! Then base64: scenedec's `DataUrl` against the base64 crate on the corpus
//! data URIs and a generated 8 MiB one (unbroken, and in CR LF lines of
//! 76), as decoded bytes per second.
//!
//! The png crate decodes with EXPAND | STRIP_16 | ALPHA (grey stays grey +
//! alpha: it writes up to half the bytes for grey images); zune-png with
//! strip-to-8-bit and add-alpha.
//!
//! `cargo bench --bench png_decode`

#[path = "../tests/support/png_corpus.rs"]
mod png_corpus;

use std::hint::black_box;
use std::io::Cursor;

use base64::Engine;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use scenedec::data_url::DataUrl;
use scenedec::png::{HEADER_LEN, Header, decode_rgba8};

/// One input with every decoder's output buffer, allocated and touched.
struct Case {
    bytes: Vec<u8>,
    /// The IDAT data pieces, for the inflate-only line.
    idat: Vec<(usize, usize)>,
    raw_len: usize,
    rgba8_len: usize,
    pixels: Vec<u8>,
    scratch: Vec<u8>,
    png_out: Vec<u8>,
    zune_out: Vec<u8>,
    raw: Vec<u8>,
}

fn png_reader(bytes: &[u8]) -> png::Reader<Cursor<&[u8]>> {
    let mut d = png::Decoder::new(Cursor::new(bytes));
    d.set_transformations(
        png::Transformations::EXPAND | png::Transformations::STRIP_16 | png::Transformations::ALPHA,
    );
    d.read_info().unwrap()
}

fn zune(bytes: &[u8]) -> zune_png::PngDecoder<Cursor<&[u8]>> {
    let options = zune_png::zune_core::options::DecoderOptions::default()
        .png_set_strip_to_8bit(true)
        .png_set_add_alpha_channel(true)
        .set_max_width(1 << 16)
        .set_max_height(1 << 16);
    zune_png::PngDecoder::new_with_options(Cursor::new(bytes), options)
}

/// (offset, length) of each IDAT chunk's data.
fn idat_pieces(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut at = 8;
    let mut out = Vec::new();
    while at + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        if &bytes[at + 4..at + 8] == b"IDAT" {
            out.push((at + 8, len));
        }
        at += 12 + len;
    }
    out
}

/// Inflates the IDAT run with miniz_oxide alone into `raw`.
fn inflate_only(case: &mut Case) -> usize {
    let pieces = case.idat.iter().map(|&(at, len)| &case.bytes[at..at + len]);
    miniz_oxide::inflate::decompress_slice_iter_to_slice(&mut case.raw, pieces, true, false)
        .unwrap()
}

/// Inflates the IDAT run with scenedec's inflater alone into `raw` (one
/// flat buffer, as the other inflate-only lines).
fn scenedec_inflate_only(case: &mut Case) -> usize {
    let mut tables = scenedec::inflate::Tables::new();
    let mut inflater = scenedec::inflate::Inflater::new(&mut tables);
    let mut written = 0;
    for &(at, len) in &case.idat {
        let p = inflater.inflate(&case.bytes[at..at + len], &mut case.raw, written, false);
        written += p.written;
        if p.result.unwrap() == scenedec::inflate::Flow::Done {
            break;
        }
    }
    written
}

/// Inflates the IDAT run with zlib-rs (the candidate no_std inflater;
/// its state and window come from the heap) into `raw`.
fn zlib_rs_only(case: &mut Case) -> usize {
    let mut z = zlib_rs::Inflate::new(true, 15);
    let mut written = 0;
    for &(at, len) in &case.idat {
        let before = z.total_out();
        let status = z
            .decompress(
                &case.bytes[at..at + len],
                &mut case.raw[written..],
                zlib_rs::InflateFlush::NoFlush,
            )
            .unwrap();
        written += (z.total_out() - before) as usize;
        if status == zlib_rs::Status::StreamEnd {
            break;
        }
    }
    written
}

/// The case, or `None` when one of the decoders refuses it.
fn case(bytes: Vec<u8>) -> Option<Case> {
    let h = Header::read(&bytes[..HEADER_LEN]).ok()?;
    let rgba8_len = h.rgba8_len() as usize;
    let mut pixels = vec![1u8; rgba8_len];
    let mut scratch = vec![1u8; h.scratch_len() as usize];
    decode_rgba8(&bytes, &mut pixels, &mut scratch).ok()?;
    let mut png_out = vec![1u8; png_reader(&bytes).output_buffer_size()?];
    png_reader(&bytes).next_frame(&mut png_out).ok()?;
    let mut z = zune(&bytes);
    z.decode_headers().ok()?;
    let mut zune_out = vec![1u8; z.output_buffer_size()?];
    z.decode_into(&mut zune_out).ok()?;
    // Filter bytes and samples: at most 8 bytes a pixel plus one a row, twice for Adam7's slack.
    let raw = vec![1u8; (h.width as usize * 8 + 1) * h.height as usize * 2];
    let mut c = Case {
        idat: idat_pieces(&bytes),
        bytes,
        raw_len: 0,
        rgba8_len,
        pixels,
        scratch,
        png_out,
        zune_out,
        raw,
    };
    c.raw_len = inflate_only(&mut c);
    Some(c)
}

/// A 4096×4096 RGBA8 image written by the png crate, its IDAT re-cut into
/// 8 KiB chunks.
fn generated(noise: bool) -> Vec<u8> {
    const SIDE: u32 = 4096;
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let pixels: Vec<u8> = (0..SIDE as usize * SIDE as usize * 4)
        .map(|i| {
            if noise {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            } else {
                [200, 120, 40, 255][i % 4]
            }
        })
        .collect();
    let mut file = Vec::new();
    let mut e = png::Encoder::new(&mut file, SIDE, SIDE);
    e.set_color(png::ColorType::Rgba);
    e.set_depth(png::BitDepth::Eight);
    let mut w = e.write_header().unwrap();
    w.write_image_data(&pixels).unwrap();
    w.finish().unwrap();
    let stream: Vec<u8> = idat_pieces(&file)
        .iter()
        .flat_map(|&(at, len)| file[at..at + len].to_vec())
        .collect();
    let mut out = file[..33].to_vec();
    for piece in stream.chunks(8192) {
        out.extend_from_slice(&(piece.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend_from_slice(b"IDAT");
        out.extend_from_slice(piece);
        let crc = crc32(&out[start..]);
        out.extend_from_slice(&crc.to_be_bytes());
    }
    out.extend_from_slice(&[0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xAE, 0x42, 0x60, 0x82]);
    out
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                0xEDB8_8320 ^ (crc >> 1)
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn bench_set(c: &mut Criterion, name: &str, files: Vec<Vec<u8>>) {
    let mut cases: Vec<Case> = files.into_iter().filter_map(case).collect();
    if cases.is_empty() {
        eprintln!("SKIPPED: no {name} inputs");
        return;
    }
    let out: usize = cases.iter().map(|c| c.rgba8_len).sum();
    let mut g = c.benchmark_group(format!("png_{name}_rgba8_out"));
    g.sample_size(10);
    g.throughput(Throughput::Bytes(out as u64));
    g.bench_function(BenchmarkId::new("scenedec", cases.len()), |b| {
        b.iter(|| {
            for c in cases.iter_mut() {
                decode_rgba8(black_box(&c.bytes), &mut c.pixels, &mut c.scratch).unwrap();
            }
        })
    });
    g.bench_function(BenchmarkId::new("png", cases.len()), |b| {
        b.iter(|| {
            for c in cases.iter_mut() {
                png_reader(black_box(&c.bytes))
                    .next_frame(&mut c.png_out)
                    .unwrap();
            }
        })
    });
    g.bench_function(BenchmarkId::new("zune-png", cases.len()), |b| {
        b.iter(|| {
            for c in cases.iter_mut() {
                let mut z = zune(black_box(&c.bytes));
                z.decode_into(&mut c.zune_out).unwrap();
            }
        })
    });
    g.bench_function(
        BenchmarkId::new("miniz_oxide_inflate_only", cases.len()),
        |b| {
            b.iter(|| {
                for c in cases.iter_mut() {
                    assert_eq!(inflate_only(c), c.raw_len);
                }
            })
        },
    );
    g.bench_function(
        BenchmarkId::new("scenedec_inflate_only", cases.len()),
        |b| {
            b.iter(|| {
                for c in cases.iter_mut() {
                    assert_eq!(scenedec_inflate_only(c), c.raw_len);
                }
            })
        },
    );
    g.bench_function(BenchmarkId::new("zlib-rs_inflate_only", cases.len()), |b| {
        b.iter(|| {
            for c in cases.iter_mut() {
                assert_eq!(zlib_rs_only(c), c.raw_len);
            }
        })
    });
    g.finish();
}

fn bench_png(c: &mut Criterion) {
    let corpus = png_corpus::corpus_textures()
        .into_iter()
        .map(|(_, b)| b)
        .collect();
    bench_set(c, "corpus", corpus);
    let suite = png_corpus::pngsuite_valid()
        .into_iter()
        .map(|(_, b)| b)
        .collect();
    bench_set(c, "pngsuite", suite);
    bench_set(c, "4096_noise", vec![generated(true)]);
    bench_set(c, "4096_flat", vec![generated(false)]);
}

/// A data URL of `decoded` pseudo-random bytes, its body broken into
/// 76-symbol lines by CR LF (as MIME encoders write it) when `lines`.
fn generated_url(decoded: usize, lines: bool) -> Vec<u8> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let data: Vec<u8> = (0..decoded)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    let body = base64::engine::general_purpose::STANDARD.encode(data);
    let mut url = b"data:image/png;base64,".to_vec();
    if lines {
        for line in body.as_bytes().chunks(76) {
            url.extend_from_slice(line);
            url.extend_from_slice(b"\r\n");
        }
    } else {
        url.extend_from_slice(body.as_bytes());
    }
    url
}

fn bench_base64(c: &mut Criterion) {
    let corpus: Vec<Vec<u8>> = png_corpus::corpus_data_uris()
        .into_iter()
        .map(|(_, u)| u.into_bytes())
        .collect();
    if corpus.is_empty() {
        eprintln!("SKIPPED: no corpus data URIs");
    } else {
        base64_set(c, "corpus_data_uris", &corpus);
    }
    base64_set(c, "generated_8mib", &[generated_url(8 << 20, false)]);
    base64_set(c, "generated_8mib_lines", &[generated_url(8 << 20, true)]);
}

/// scenedec's `DataUrl` (parse, then decode piece by piece into a buffer)
/// against the base64 crate's `decode_slice` on the same bodies. The base64
/// crate refuses whitespace, so for a body with line breaks it is timed
/// removing them into a buffer first, as a caller of it would have to.
fn base64_set(c: &mut Criterion, name: &str, uris: &[Vec<u8>]) {
    let decoded: usize = uris
        .iter()
        .map(|u| DataUrl::parse_png(u).unwrap().decoded_len())
        .sum();
    let longest = uris.iter().map(|u| u.len()).max().unwrap();
    let mut out = vec![1u8; longest];
    let mut joined = vec![1u8; longest];
    let mut g = c.benchmark_group(format!("base64_{name}_decoded"));
    g.sample_size(20);
    g.throughput(Throughput::Bytes(decoded as u64));
    g.bench_function("scenedec_data_url", |b| {
        b.iter(|| {
            for u in uris {
                let d = DataUrl::parse_png(black_box(u)).unwrap();
                let mut at = 0;
                d.for_each_piece(|p| {
                    out[at..at + p.len()].copy_from_slice(p);
                    at += p.len();
                    Ok::<(), ()>(())
                })
                .unwrap();
            }
        })
    });
    g.bench_function("base64_crate", |b| {
        b.iter(|| {
            for u in uris {
                let body = &u[u.iter().position(|&b| b == b',').unwrap() + 1..];
                let body = body.trim_ascii_end();
                let body = if body.contains(&b'\n') {
                    let mut n = 0;
                    for &b in body.iter().filter(|b| !b.is_ascii_whitespace()) {
                        joined[n] = b;
                        n += 1;
                    }
                    &joined[..n]
                } else {
                    body
                };
                base64::engine::general_purpose::STANDARD
                    .decode_slice(black_box(body), &mut out)
                    .unwrap();
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench_png, bench_base64);
criterion_main!(benches);
