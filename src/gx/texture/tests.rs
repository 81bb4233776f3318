//! Tests for the GX texture decoders: hand-built fixtures per format, the
//! J3D corpus hashes, error cases and a throughput print.

use super::*;
use std::format;
use std::string::String;
use std::vec;
use std::vec::Vec;

// ---------------------------------------------------------------------------
// Independent reference: per-texel decoding written from the conventions,
// without the module's helpers.

fn rep3(v: u32) -> u8 {
    u8::try_from((v << 5) | (v << 2) | (v >> 1)).unwrap()
}
fn rep4(v: u32) -> u8 {
    u8::try_from(v * 17).unwrap()
}
fn rep5(v: u32) -> u8 {
    u8::try_from((v << 3) | (v >> 2)).unwrap()
}
fn rep6(v: u32) -> u8 {
    u8::try_from((v << 2) | (v >> 4)).unwrap()
}

fn ref_565(p: u32) -> [u8; 4] {
    [rep5(p >> 11), rep6((p >> 5) & 63), rep5(p & 31), 255]
}
fn ref_5a3(p: u32) -> [u8; 4] {
    if p & 0x8000 != 0 {
        [rep5((p >> 10) & 31), rep5((p >> 5) & 31), rep5(p & 31), 255]
    } else {
        [
            rep4((p >> 8) & 15),
            rep4((p >> 4) & 15),
            rep4(p & 15),
            rep3((p >> 12) & 7),
        ]
    }
}
fn ref_ia8(p: u32) -> [u8; 4] {
    let i = u8::try_from(p & 0xFF).unwrap();
    [i, i, i, u8::try_from(p >> 8).unwrap()]
}
fn ref_pal(pf: PaletteFormat, p: u32) -> [u8; 4] {
    match pf {
        PaletteFormat::IA8 => ref_ia8(p),
        PaletteFormat::RGB565 => ref_565(p),
        PaletteFormat::RGB5A3 => ref_5a3(p),
    }
}

/// The texel for one encoded unit (nibble, byte, u16 or u32 ARGB for
/// RGBA8). `None` for a palette index the palette lacks.
fn ref_texel(format: GxFormat, unit: u32, pal: Option<(PaletteFormat, &[u8])>) -> Option<[u8; 4]> {
    let lookup = |i: u32| {
        let (pf, raw) = pal.unwrap();
        let i = usize::try_from(i).unwrap();
        raw.get(i * 2..i * 2 + 2)
            .map(|b| ref_pal(pf, u32::from(b[0]) << 8 | u32::from(b[1])))
    };
    Some(match format {
        GxFormat::I4 => [rep4(unit); 4],
        GxFormat::I8 => [u8::try_from(unit).unwrap(); 4],
        GxFormat::IA4 => {
            let i = rep4(unit & 15);
            [i, i, i, rep4(unit >> 4)]
        }
        GxFormat::IA8 => ref_ia8(unit),
        GxFormat::RGB565 => ref_565(unit),
        GxFormat::RGB5A3 => ref_5a3(unit),
        GxFormat::RGBA8 => {
            let [a, r, g, b] = unit.to_be_bytes();
            [r, g, b, a]
        }
        GxFormat::C4 | GxFormat::C8 => return lookup(unit),
        GxFormat::C14X2 => return lookup(unit & 0x3FFF),
        GxFormat::CMPR => unreachable!(),
    })
}

/// Bits per unit in the data.
fn unit_bits(format: GxFormat) -> u32 {
    match format {
        GxFormat::I4 | GxFormat::C4 => 4,
        GxFormat::I8 | GxFormat::IA4 | GxFormat::C8 => 8,
        GxFormat::RGBA8 => 32,
        _ => 16,
    }
}

/// Test encoder: lays `unit(x, y)` out in `format`'s blocks, padding
/// included (the padding gets `unit` of its out-of-image coordinates).
fn encode(format: GxFormat, w: u32, h: u32, unit: impl Fn(u32, u32) -> u32) -> Vec<u8> {
    let (bw, bh) = (format.block_width(), format.block_height());
    let mut out = Vec::new();
    for by in (0..h).step_by(bh as usize) {
        for bx in (0..w).step_by(bw as usize) {
            let texels: Vec<u32> = (0..bh)
                .flat_map(|y| (0..bw).map(move |x| (bx + x, by + y)))
                .map(|(x, y)| unit(x, y))
                .collect();
            match unit_bits(format) {
                4 => {
                    for p in texels.chunks(2) {
                        out.push(u8::try_from(p[0] << 4 | p[1]).unwrap());
                    }
                }
                8 => out.extend(texels.iter().map(|&u| u8::try_from(u).unwrap())),
                16 => {
                    for &u in &texels {
                        out.extend_from_slice(&u16::try_from(u).unwrap().to_be_bytes());
                    }
                }
                _ => {
                    for &u in &texels {
                        let [a, r, _, _] = u.to_be_bytes();
                        out.extend_from_slice(&[a, r]);
                    }
                    for &u in &texels {
                        let [_, _, g, b] = u.to_be_bytes();
                        out.extend_from_slice(&[g, b]);
                    }
                }
            }
        }
    }
    assert_eq!(Some(out.len()), encoded_size(format, w, h));
    out
}

fn decode_vec(
    format: GxFormat,
    w: u32,
    h: u32,
    data: &[u8],
    pal: Option<(PaletteFormat, &[u8])>,
) -> Result<Vec<u8>, TextureError> {
    let mut out = vec![0xCD; decoded_size(w, h).unwrap()];
    decode(format, w, h, data, pal, &mut out).map(|()| out)
}

fn texel_at(img: &[u8], w: u32, x: u32, y: u32) -> [u8; 4] {
    let i = usize::try_from((y * w + x) * 4).unwrap();
    img[i..i + 4].try_into().unwrap()
}

/// A small deterministic pseudo-random generator (xorshift32).
struct Rng(u32);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next().to_le_bytes()[0]).collect()
    }
}

const SIZES: [(u32, u32); 8] = [
    (1, 1),
    (5, 3),
    (4, 4),
    (8, 8),
    (13, 9),
    (16, 4),
    (3, 17),
    (24, 16),
];

// ---------------------------------------------------------------------------
// Fixtures with known pixels.

#[test]
fn known_pixels_direct_formats() {
    // (format, unit, expected texel), hand-computed.
    let cases: &[(GxFormat, u32, [u8; 4])] = &[
        (GxFormat::I4, 0x0, [0; 4]),
        (GxFormat::I4, 0xA, [0xAA; 4]),
        (GxFormat::I4, 0xF, [0xFF; 4]),
        (GxFormat::I8, 0x5C, [0x5C; 4]),
        (GxFormat::IA4, 0x3C, [0xCC, 0xCC, 0xCC, 0x33]),
        (GxFormat::IA8, 0x80FE, [0xFE, 0xFE, 0xFE, 0x80]),
        (GxFormat::RGB565, 0xF800, [255, 0, 0, 255]),
        (GxFormat::RGB565, 0x07E0, [0, 255, 0, 255]),
        (GxFormat::RGB565, 0x001F, [0, 0, 255, 255]),
        (GxFormat::RGB565, 0x8410, [0x84, 0x82, 0x84, 255]),
        (GxFormat::RGB5A3, 0xFC00, [255, 0, 0, 255]),
        (GxFormat::RGB5A3, 0x8421, [8, 8, 8, 255]),
        (GxFormat::RGB5A3, 0x7F00, [255, 0, 0, 255]),
        (GxFormat::RGB5A3, 0x3123, [0x11, 0x22, 0x33, 0x6D]),
        (GxFormat::RGB5A3, 0x0ABC, [0xAA, 0xBB, 0xCC, 0]),
        (GxFormat::RGBA8, 0x80112233, [0x11, 0x22, 0x33, 0x80]),
    ];
    for &(format, unit, want) in cases {
        assert_eq!(
            ref_texel(format, unit, None),
            Some(want),
            "reference {format} {unit:#x}"
        );
        for (w, h) in [(1, 1), (5, 3)] {
            let data = encode(format, w, h, |x, y| if x < w && y < h { unit } else { 0 });
            let img = decode_vec(format, w, h, &data, None).unwrap();
            for y in 0..h {
                for x in 0..w {
                    assert_eq!(
                        texel_at(&img, w, x, y),
                        want,
                        "{format} {unit:#x} at {x},{y}"
                    );
                }
            }
        }
    }
}

#[test]
fn i4_high_nibble_is_left_texel() {
    // One I4 block: the first byte 0x1E covers texels (0,0) and (1,0).
    let mut data = vec![0u8; 32];
    data[0] = 0x1E;
    data[4] = 0x70; // row 1, texels (0,1) and (1,1)
    let img = decode_vec(GxFormat::I4, 8, 8, &data, None).unwrap();
    assert_eq!(texel_at(&img, 8, 0, 0), [0x11; 4]);
    assert_eq!(texel_at(&img, 8, 1, 0), [0xEE; 4]);
    assert_eq!(texel_at(&img, 8, 0, 1), [0x77; 4]);
    assert_eq!(texel_at(&img, 8, 1, 1), [0; 4]);
}

#[test]
fn block_order_is_row_major() {
    // I8 8x4 blocks in a 16x8 image: block 1 is the top-right one.
    let mut data = vec![0u8; 4 * 32];
    data[32] = 0x42; // block 1, texel (0,0) -> image (8,0)
    data[64 + 31] = 0x99; // block 2, texel (7,3) -> image (7,7)
    let img = decode_vec(GxFormat::I8, 16, 8, &data, None).unwrap();
    assert_eq!(texel_at(&img, 16, 8, 0), [0x42; 4]);
    assert_eq!(texel_at(&img, 16, 7, 7), [0x99; 4]);
    assert_eq!(img.iter().filter(|&&b| b != 0).count(), 8);
}

#[test]
fn rgba8_planes() {
    // One 4x4 tile: AR pairs for texels 0..16 then GB pairs.
    let mut data = [0u8; 64];
    data[0..2].copy_from_slice(&[0xA0, 0x10]); // texel 0: A, R
    data[32..34].copy_from_slice(&[0x20, 0x30]); // texel 0: G, B
    data[30..32].copy_from_slice(&[0xA5, 0x15]); // texel 15
    data[62..64].copy_from_slice(&[0x25, 0x35]);
    let img = decode_vec(GxFormat::RGBA8, 4, 4, &data, None).unwrap();
    assert_eq!(texel_at(&img, 4, 0, 0), [0x10, 0x20, 0x30, 0xA0]);
    assert_eq!(texel_at(&img, 4, 3, 3), [0x15, 0x25, 0x35, 0xA5]);
}

#[test]
fn every_direct_format_matches_reference_at_odd_sizes() {
    let mut rng = Rng(0x1234_5678);
    for format in GxFormat::ALL {
        if format.is_paletted() || format == GxFormat::CMPR {
            continue;
        }
        let mask = if unit_bits(format) == 32 {
            u32::MAX
        } else {
            (1 << unit_bits(format)) - 1
        };
        for (w, h) in SIZES {
            let units: Vec<u32> = (0..64 * 64).map(|_| rng.next() & mask).collect();
            let unit = |x: u32, y: u32| units[usize::try_from(y * 64 + x).unwrap()];
            let data = encode(format, w, h, unit);
            let img = decode_vec(format, w, h, &data, None).unwrap();
            for y in 0..h {
                for x in 0..w {
                    let want = ref_texel(format, unit(x, y), None).unwrap();
                    assert_eq!(texel_at(&img, w, x, y), want, "{format} {w}x{h} at {x},{y}");
                }
            }
        }
    }
}

/// A palette of `n` entries whose raw values cover the interesting bits.
fn palette_bytes(rng: &mut Rng, n: usize) -> Vec<u8> {
    rng.bytes(n * 2)
}

#[test]
fn known_pixels_palettes() {
    // Entry 1 of each palette format, hand-computed.
    let raw = [0x00, 0x00, 0x5F, 0x3C, 0, 0];
    let cases = [
        (PaletteFormat::IA8, [0x3C, 0x3C, 0x3C, 0x5F]),
        (PaletteFormat::RGB565, [0x5A, 0xE7, 0xE7, 0xFF]),
        (PaletteFormat::RGB5A3, [0xFF, 0x33, 0xCC, 0xB6]),
    ];
    for (pf, want) in cases {
        assert_eq!(ref_pal(pf, 0x5F3C), want, "reference {pf}");
        for format in [GxFormat::C4, GxFormat::C8, GxFormat::C14X2] {
            let (w, h) = (5, 3);
            let data = encode(format, w, h, |x, y| u32::from(x < w && y < h));
            let img = decode_vec(format, w, h, &data, Some((pf, &raw))).unwrap();
            for y in 0..h {
                for x in 0..w {
                    assert_eq!(texel_at(&img, w, x, y), want, "{format}/{pf} at {x},{y}");
                }
            }
        }
    }
}

#[test]
fn paletted_formats_match_reference() {
    let mut rng = Rng(0x0BAD_F00D);
    for pf in [
        PaletteFormat::IA8,
        PaletteFormat::RGB565,
        PaletteFormat::RGB5A3,
    ] {
        for (format, entries) in [
            (GxFormat::C4, 16),
            (GxFormat::C8, 256),
            (GxFormat::C14X2, 16384),
        ] {
            let raw = palette_bytes(&mut rng, entries);
            let mask = (1u32 << unit_bits(format)) - 1;
            for (w, h) in SIZES {
                // C14X2: set the two top bits too; they must be ignored.
                let units: Vec<u32> = (0..64 * 64).map(|_| rng.next() & mask).collect();
                let unit = |x: u32, y: u32| units[usize::try_from(y * 64 + x).unwrap()];
                let data = encode(format, w, h, unit);
                let img = decode_vec(format, w, h, &data, Some((pf, &raw))).unwrap();
                for y in 0..h {
                    for x in 0..w {
                        let want = ref_texel(format, unit(x, y), Some((pf, &raw))).unwrap();
                        assert_eq!(
                            texel_at(&img, w, x, y),
                            want,
                            "{format}/{pf} {w}x{h} at {x},{y}"
                        );
                    }
                }
            }
        }
    }
}

/// A palette shorter than the index range: blocks whose indices are all in
/// it take the unchecked lookup, and must equal the reference.
#[test]
fn short_palettes_in_range_match_reference() {
    let mut rng = Rng(0x5EED_CAFE);
    for (format, entries) in [(GxFormat::C4, 7u32), (GxFormat::C8, 100)] {
        let raw = palette_bytes(&mut rng, entries as usize);
        for (w, h) in SIZES {
            let units: Vec<u32> = (0..64 * 64).map(|_| rng.next() % entries).collect();
            let unit = |x: u32, y: u32| units[usize::try_from(y * 64 + x).unwrap()];
            let data = encode(format, w, h, unit);
            let pal = Some((PaletteFormat::RGB5A3, raw.as_slice()));
            let img = decode_vec(format, w, h, &data, pal).unwrap();
            for y in 0..h {
                for x in 0..w {
                    let want = ref_texel(format, unit(x, y), pal).unwrap();
                    assert_eq!(texel_at(&img, w, x, y), want, "{format} {w}x{h} at {x},{y}");
                }
            }
        }
    }
}

/// A short palette and a strip holding an index it lacks: that strip
/// skips the row pass, so the first bad texel in block order (not row
/// order) is reported, after the strips above it were written.
#[test]
fn short_palette_errors_in_block_order_after_whole_strips() {
    let raw = palette_bytes(&mut Rng(0x0DD_BA11), 4);
    let pal = Some((PaletteFormat::RGB565, raw.as_slice()));
    for format in [GxFormat::C4, GxFormat::C8] {
        let (bw, bh) = (format.block_width(), format.block_height());
        let (w, h) = (2 * bw, 2 * bh);
        let unit = |x: u32, y: u32| match (x, y) {
            // Row order meets 9 first, block order 5.
            (x, y) if (x, y) == (bw, bh) => 9,
            (x, y) if (x, y) == (bw - 1, 2 * bh - 1) => 5,
            (x, y) => (x + y) % 4,
        };
        let data = encode(format, w, h, unit);
        let mut out = vec![0xCD; decoded_size(w, h).unwrap()];
        assert_eq!(
            decode(format, w, h, &data, pal, &mut out),
            Err(TextureError::PaletteIndexOutOfRange {
                index: 5,
                entries: 4
            }),
            "{format}"
        );
        for y in 0..bh {
            for x in 0..w {
                let want = ref_texel(format, unit(x, y), pal).unwrap();
                assert_eq!(texel_at(&out, w, x, y), want, "{format} at {x},{y}");
            }
        }
        // Nothing of the failing strip's second block was written.
        assert_eq!(texel_at(&out, w, bw, bh), [0xCD; 4], "{format}");
    }
}

#[test]
fn palette_index_out_of_range() {
    let raw = [0x12, 0x34, 0x56, 0x78, 0x9A]; // 2 entries; the odd byte is ignored
    for format in [GxFormat::C4, GxFormat::C8, GxFormat::C14X2] {
        // 5x3 image: visible texels use 0/1, padding uses 9 (out of range).
        let (w, h) = (5, 3);
        let data = encode(
            format,
            w,
            h,
            |x, y| if x < w && y < h { (x + y) & 1 } else { 9 },
        );
        let img = decode_vec(format, w, h, &data, Some((PaletteFormat::IA8, &raw))).unwrap();
        assert_eq!(texel_at(&img, w, 1, 0), [0x78, 0x78, 0x78, 0x56]);
        // Visible texels with indices 7 and 2: the first in block order, (3,2),
        // is reported (C14X2's 4x4 blocks put (4,2) in the second block).
        let data = encode(format, w, h, |x, y| match (x, y) {
            (4, 2) => 2,
            (3, 2) => 7,
            _ => 0,
        });
        assert_eq!(
            decode_vec(format, w, h, &data, Some((PaletteFormat::IA8, &raw))),
            Err(TextureError::PaletteIndexOutOfRange {
                index: 7,
                entries: 2
            }),
            "{format}"
        );
    }
    // C14X2: the top two bits are not part of the index.
    let data = encode(
        GxFormat::C14X2,
        5,
        3,
        |x, _| if x == 4 { 0xC000 | 3 } else { 0 },
    );
    assert_eq!(
        decode_vec(
            GxFormat::C14X2,
            5,
            3,
            &data,
            Some((PaletteFormat::IA8, &raw[..4]))
        ),
        Err(TextureError::PaletteIndexOutOfRange {
            index: 3,
            entries: 2
        })
    );
}

// ---------------------------------------------------------------------------
// CMPR.

/// Reference colours of a CMPR sub-block.
fn ref_cmpr_colours(c0: u16, c1: u16) -> [[u8; 4]; 4] {
    let a = ref_565(u32::from(c0));
    let b = ref_565(u32::from(c1));
    let mix = |wa: u32, wb: u32, alpha: u8| {
        let m = |i: usize| u8::try_from((u32::from(a[i]) * wa + u32::from(b[i]) * wb) / 8).unwrap();
        [m(0), m(1), m(2), alpha]
    };
    if c0 > c1 {
        [a, b, mix(5, 3, 255), mix(3, 5, 255)]
    } else {
        [a, b, mix(4, 4, 255), mix(4, 4, 0)]
    }
}

/// Builds CMPR data where sub-block `(sx, sy)` (in 4x4 units) has colours
/// `cols(sx, sy)` and texel `(x, y)` has index `idx(x, y)`.
fn encode_cmpr(
    w: u32,
    h: u32,
    cols: impl Fn(u32, u32) -> (u16, u16),
    idx: impl Fn(u32, u32) -> u8,
) -> Vec<u8> {
    let mut out = Vec::new();
    for my in (0..h).step_by(8) {
        for mx in (0..w).step_by(8) {
            for (dx, dy) in [(0, 0), (4, 0), (0, 4), (4, 4)] {
                let (x0, y0) = (mx + dx, my + dy);
                let (c0, c1) = cols(x0 / 4, y0 / 4);
                out.extend_from_slice(&c0.to_be_bytes());
                out.extend_from_slice(&c1.to_be_bytes());
                for y in y0..y0 + 4 {
                    let mut byte = 0u8;
                    for x in x0..x0 + 4 {
                        byte = byte << 2 | idx(x, y);
                    }
                    out.push(byte);
                }
            }
        }
    }
    assert_eq!(Some(out.len()), encoded_size(GxFormat::CMPR, w, h));
    out
}

#[test]
fn cmpr_known_pixels() {
    // c0 = red > c1 = blue: c2 = 5/8 red + 3/8 blue, c3 = 3/8 red + 5/8 blue.
    let data = encode_cmpr(
        4,
        1,
        |_, _| (0xF800, 0x001F),
        |x, _| u8::try_from(x).unwrap(),
    );
    let img = decode_vec(GxFormat::CMPR, 4, 1, &data, None).unwrap();
    assert_eq!(
        img,
        [
            255, 0, 0, 255, 0, 0, 255, 255, 159, 0, 95, 255, 95, 0, 159, 255
        ]
    );
    // c0 = blue <= c1 = red: c2 = half, c3 = the same colour with alpha 0.
    let data = encode_cmpr(
        4,
        1,
        |_, _| (0x001F, 0xF800),
        |x, _| u8::try_from(x).unwrap(),
    );
    let img = decode_vec(GxFormat::CMPR, 4, 1, &data, None).unwrap();
    assert_eq!(
        img,
        [
            0, 0, 255, 255, 255, 0, 0, 255, 127, 0, 127, 255, 127, 0, 127, 0
        ]
    );
    // Equal colours take the c0 <= c1 branch.
    let data = encode_cmpr(1, 1, |_, _| (0x8410, 0x8410), |_, _| 3);
    assert_eq!(
        decode_vec(GxFormat::CMPR, 1, 1, &data, None).unwrap(),
        [0x84, 0x82, 0x84, 0]
    );
}

#[test]
fn cmpr_sub_block_order_and_indices() {
    // Each sub-block gets its own colour pair; indices vary per texel.
    let cols = |sx: u32, sy: u32| {
        let k = u16::try_from(sx * 7 + sy * 13).unwrap();
        (0x1234u16.wrapping_mul(k + 1), 0x4321u16.wrapping_mul(k + 3))
    };
    let idx = |x: u32, y: u32| u8::try_from((x * 3 + y * 5 + x * y) % 4).unwrap();
    for (w, h) in SIZES.into_iter().chain([(20, 12), (8, 16), (32, 32)]) {
        let data = encode_cmpr(w, h, cols, idx);
        let img = decode_vec(GxFormat::CMPR, w, h, &data, None).unwrap();
        for y in 0..h {
            for x in 0..w {
                let (c0, c1) = cols(x / 4, y / 4);
                let want = ref_cmpr_colours(c0, c1)[usize::from(idx(x, y))];
                assert_eq!(texel_at(&img, w, x, y), want, "CMPR {w}x{h} at {x},{y}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Formats, sizes, mips and errors.

#[test]
fn format_codes_and_metadata() {
    for code in 0..=255u8 {
        match GxFormat::from_code(code) {
            Some(f) => assert_eq!(f.code(), code),
            None => assert!(matches!(code, 7 | 0xB..=0xD | 0xF..)),
        }
    }
    let table: [(GxFormat, &str, u32, u32, usize, bool); 11] = [
        (GxFormat::I4, "I4", 8, 8, 32, false),
        (GxFormat::I8, "I8", 8, 4, 32, false),
        (GxFormat::IA4, "IA4", 8, 4, 32, false),
        (GxFormat::IA8, "IA8", 4, 4, 32, false),
        (GxFormat::RGB565, "RGB565", 4, 4, 32, false),
        (GxFormat::RGB5A3, "RGB5A3", 4, 4, 32, false),
        (GxFormat::RGBA8, "RGBA8", 4, 4, 64, false),
        (GxFormat::C4, "C4", 8, 8, 32, true),
        (GxFormat::C8, "C8", 8, 4, 32, true),
        (GxFormat::C14X2, "C14X2", 4, 4, 32, true),
        (GxFormat::CMPR, "CMPR", 8, 8, 32, false),
    ];
    for (f, name, bw, bh, bytes, pal) in table {
        assert_eq!(
            (f.name(), f.block_width(), f.block_height()),
            (name, bw, bh)
        );
        assert_eq!((f.block_bytes(), f.is_paletted()), (bytes, pal));
        assert_eq!(format!("{f}"), name);
    }
    assert_eq!(GxFormat::ALL.len(), table.len());
    for code in 0..=255u8 {
        let pf = PaletteFormat::from_code(code);
        assert_eq!(pf.map(PaletteFormat::code), (code <= 2).then_some(code));
    }
    // The decoders' block constants agree with the format table.
    use super::tiles::BlockDecoder;
    fn dims<D: BlockDecoder>(_: &D) -> (u32, u32, usize) {
        (
            u32::try_from(D::WIDTH).unwrap(),
            u32::try_from(D::HEIGHT).unwrap(),
            D::BYTES,
        )
    }
    let pal = (PaletteFormat::IA8, &[][..]);
    let decoders = [
        (GxFormat::I4, dims(&intensity::I4)),
        (GxFormat::I8, dims(&intensity::I8)),
        (GxFormat::IA4, dims(&intensity::Ia4)),
        (GxFormat::IA8, dims(&intensity::Ia8)),
        (GxFormat::RGB565, dims(&color::Rgb565)),
        (GxFormat::RGB5A3, dims(&color::Rgb5a3)),
        (GxFormat::RGBA8, dims(&color::Rgba8)),
        (GxFormat::C4, dims(&palette::C4::new(pal.0, pal.1))),
        (GxFormat::C8, dims(&palette::C8::new(pal.0, pal.1))),
        (GxFormat::C14X2, dims(&palette::C14x2::new(pal.0, pal.1))),
        (GxFormat::CMPR, dims(&cmpr::Cmpr)),
    ];
    for (f, d) in decoders {
        assert_eq!(
            d,
            (f.block_width(), f.block_height(), f.block_bytes()),
            "{f}"
        );
    }
}

#[test]
fn sizes_and_mips() {
    assert_eq!(encoded_size(GxFormat::CMPR, 5, 3), Some(32));
    assert_eq!(encoded_size(GxFormat::CMPR, 9, 3), Some(64));
    assert_eq!(encoded_size(GxFormat::RGBA8, 5, 5), Some(4 * 64));
    assert_eq!(encoded_size(GxFormat::I8, 8, 5), Some(64));
    assert_eq!(encoded_size(GxFormat::I4, 0, 5), Some(0));
    assert_eq!(encoded_size(GxFormat::RGBA8, 256, 128), Some(256 * 128 * 4));
    assert_eq!(encoded_size(GxFormat::CMPR, 256, 128), Some(256 * 128 / 2));
    // 256x128 CMPR, 5 levels: 16384 + 4096 + 1024 + 256 + 64.
    assert_eq!(mip_chain_size(GxFormat::CMPR, 256, 128, 5), Some(21824));
    assert_eq!(mip_chain_size(GxFormat::CMPR, 256, 128, 0), Some(0));
    let levels: Vec<MipLevel> = MipLevels::new(GxFormat::RGB565, 8, 2, 4).unwrap().collect();
    let want = [
        (0, 8, 2, 0, 64),
        (1, 4, 1, 64, 32),
        (2, 2, 1, 96, 32),
        (3, 1, 1, 128, 32),
    ];
    assert_eq!(levels.len(), want.len());
    for (l, (level, w, h, offset, size)) in levels.iter().zip(want) {
        assert_eq!(
            *l,
            MipLevel {
                level,
                width: w,
                height: h,
                offset,
                size
            }
        );
    }
    assert_eq!(MipLevels::new(GxFormat::I4, 1, 1, 255).unwrap().len(), 255);
    assert_eq!(
        mip_chain_size(GxFormat::I4, 1, 1, 255),
        Some(255 * 32),
        "levels below 1x1 stay 1x1"
    );
    // Overflow.
    assert_eq!(decoded_size(u32::MAX, u32::MAX), None);
    if usize::BITS <= 64 {
        assert_eq!(encoded_size(GxFormat::RGBA8, u32::MAX, u32::MAX), None);
        assert_eq!(mip_chain_size(GxFormat::RGBA8, u32::MAX, u32::MAX, 2), None);
        assert!(MipLevels::new(GxFormat::RGBA8, u32::MAX, u32::MAX, 1).is_none());
    }
}

#[test]
fn error_cases() {
    let pal_raw = [0u8; 512];
    for format in GxFormat::ALL {
        let pal = format
            .is_paletted()
            .then_some((PaletteFormat::RGB5A3, &pal_raw[..]));
        for (w, h) in [(5, 3), (8, 8), (16, 12)] {
            let needed = encoded_size(format, w, h).unwrap();
            let data = vec![0u8; needed];
            let mut out = vec![0u8; decoded_size(w, h).unwrap()];
            assert_eq!(decode(format, w, h, &data, pal, &mut out), Ok(()));
            // One byte short.
            assert_eq!(
                decode(format, w, h, &data[..needed - 1], pal, &mut out),
                Err(TextureError::DataTooShort {
                    needed,
                    got: needed - 1
                }),
                "{format}"
            );
            // Longer data is fine.
            let longer = vec![0u8; needed + 7];
            assert_eq!(decode(format, w, h, &longer, pal, &mut out), Ok(()));
            // Output one byte too short or too long; untouched.
            let expected = out.len();
            for len in [expected - 1, expected + 1] {
                let mut wrong = vec![0xAB; len];
                assert_eq!(
                    decode(format, w, h, &data, pal, &mut wrong),
                    Err(TextureError::OutputWrongSize { expected, got: len })
                );
                assert!(wrong.iter().all(|&b| b == 0xAB));
            }
            if format.is_paletted() {
                assert_eq!(
                    decode(format, w, h, &data, None, &mut out),
                    Err(TextureError::MissingPalette)
                );
                // An empty palette: index 0 is out of range.
                assert_eq!(
                    decode(
                        format,
                        w,
                        h,
                        &data,
                        Some((PaletteFormat::IA8, &[])),
                        &mut out
                    ),
                    Err(TextureError::PaletteIndexOutOfRange {
                        index: 0,
                        entries: 0
                    })
                );
            } else {
                // Non-paletted formats ignore a palette.
                assert_eq!(
                    decode(
                        format,
                        w,
                        h,
                        &data,
                        Some((PaletteFormat::IA8, &[])),
                        &mut out
                    ),
                    Ok(())
                );
            }
        }
        // Empty images decode to nothing.
        assert_eq!(decode(format, 0, 7, &[], pal, &mut []), Ok(()));
        assert_eq!(decode(format, 7, 0, &[], pal, &mut []), Ok(()));
        // Overflowing dimensions.
        assert_eq!(
            decode(format, u32::MAX, u32::MAX, &[], pal, &mut []),
            Err(TextureError::SizeOverflow)
        );
        // Large but representable: wrong output size, no allocation, no panic.
        assert_eq!(
            decode(format, 65536, 65536, &[], pal, &mut []),
            Err(TextureError::OutputWrongSize {
                expected: 1 << 34,
                got: 0
            })
        );
    }
    // Display texts.
    let msgs: Vec<String> = [
        TextureError::SizeOverflow,
        TextureError::DataTooShort {
            needed: 32,
            got: 31,
        },
        TextureError::OutputWrongSize {
            expected: 4,
            got: 3,
        },
        TextureError::MissingPalette,
        TextureError::PaletteIndexOutOfRange {
            index: 9,
            entries: 2,
        },
    ]
    .iter()
    .map(|e| format!("{e}"))
    .collect();
    assert_eq!(msgs[1], "texture data too short: 32 bytes needed, 31 given");
    assert_eq!(
        msgs[4],
        "palette index 9 out of range for a palette of 2 entries"
    );
    assert!(msgs.iter().all(|m| !m.is_empty()));
}

#[test]
fn random_data_never_panics() {
    let mut rng = Rng(0xDEAD_BEEF);
    for _ in 0..300 {
        let format = GxFormat::ALL[usize::try_from(rng.next() % 11).unwrap()];
        let (w, h) = (rng.next() % 40, rng.next() % 40);
        let (data_len, pal_len) = (rng.next() % 2000, rng.next() % 600);
        let data = rng.bytes(usize::try_from(data_len).unwrap());
        let pal = rng.bytes(usize::try_from(pal_len).unwrap());
        let pf = PaletteFormat::from_code(u8::try_from(rng.next() % 3).unwrap()).unwrap();
        let mut out = vec![0u8; decoded_size(w, h).unwrap()];
        let _ = decode(format, w, h, &data, Some((pf, &pal)), &mut out);
    }
}

// ---------------------------------------------------------------------------
// Corpus: every TEX1 texture's level 0 against the oracle's SHA-256.

/// Minimal SHA-256 (FIPS 180-4), so the test needs no hashing crate.
fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    let bit_len = u64::try_from(data.len()).unwrap() * 8;
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes(word.try_into().unwrap());
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

#[test]
fn sha256_vectors() {
    assert_eq!(
        sha256_hex(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        sha256_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
}

fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes(b[at..at + 2].try_into().unwrap())
}
fn be32(b: &[u8], at: usize) -> usize {
    usize::try_from(u32::from_be_bytes(b[at..at + 4].try_into().unwrap())).unwrap()
}

/// Finds TEX1 by walking the sections from 0x20.
fn find_tex1(file: &[u8]) -> Option<usize> {
    let mut at = 0x20;
    while at + 8 <= file.len() {
        let size = be32(file, at + 4);
        if &file[at..at + 4] == b"TEX1" {
            return Some(at);
        }
        if size < 8 {
            return None;
        }
        at += size;
    }
    None
}

#[test]
fn corpus_mip0_hashes() {
    let Some(files) = crate::test_corpus::files("j3d", &["bmd", "bdl"]) else {
        return;
    };
    let (mut matched, mut per_format) = (0usize, std::collections::BTreeMap::new());
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        let file = std::fs::read(path).unwrap();
        let json_path = path.with_file_name("expected").join(format!("{name}.json"));
        let expected: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
        let textures = expected["tex1"]["textures"].as_array().unwrap();
        let tex1 = find_tex1(&file).unwrap_or_else(|| panic!("{name}: no TEX1"));
        let count = usize::from(be16(&file, tex1 + 0x08));
        let headers = tex1 + be32(&file, tex1 + 0x0C);
        assert_eq!(count, textures.len(), "{name}: texture count");
        for (i, want) in textures.iter().enumerate() {
            let hdr = headers + i * 32;
            let format = GxFormat::from_code(file[hdr]).unwrap();
            let (w, h) = (
                u32::from(be16(&file, hdr + 2)),
                u32::from(be16(&file, hdr + 4)),
            );
            assert_eq!(u64::from(format.code()), want["format"].as_u64().unwrap());
            assert_eq!(u64::from(w), want["width"].as_u64().unwrap());
            assert_eq!(u64::from(h), want["height"].as_u64().unwrap());
            let palette_raw;
            let palette = if format.is_paletted() {
                let pf = PaletteFormat::from_code(file[hdr + 0x09]).unwrap();
                let entries = usize::from(be16(&file, hdr + 0x0A));
                let at = hdr + be32(&file, hdr + 0x0C);
                palette_raw = &file[at..at + entries * 2];
                Some((pf, palette_raw))
            } else {
                None
            };
            let data = &file[hdr + be32(&file, hdr + 0x1C)..];
            let img = decode_vec(format, w, h, data, palette)
                .unwrap_or_else(|e| panic!("{name} #{i} {format}: {e}"));
            assert_eq!(
                sha256_hex(&img),
                want["mip0Rgba8Sha256"].as_str().unwrap(),
                "{name} texture {i} ({format} {w}x{h})"
            );
            matched += 1;
            *per_format.entry(format.name()).or_insert(0usize) += 1;
        }
    }
    std::eprintln!(
        "corpus_mip0_hashes: {matched} textures in {} files matched: {per_format:?}",
        files.len()
    );
    assert!(matched > 0);
}

// ---------------------------------------------------------------------------
// Throughput (printed, not asserted).

#[test]
fn throughput() {
    let (w, h) = (1024u32, 1024u32);
    let reps = if cfg!(debug_assertions) { 1 } else { 40 };
    let mut rng = Rng(42);
    let data = rng.bytes(encoded_size(GxFormat::RGBA8, w, h).unwrap());
    let mut pal = rng.bytes(16384 * 2);
    // Keep C14X2 indices in range: the palette covers all 14-bit indices.
    pal.truncate(16384 * 2);
    let mut out = vec![0u8; decoded_size(w, h).unwrap()];
    let mut report = String::new();
    let palette_formats = [
        PaletteFormat::IA8,
        PaletteFormat::RGB565,
        PaletteFormat::RGB5A3,
    ];
    for format in GxFormat::ALL {
        let runs: &[Option<PaletteFormat>] = if format.is_paletted() {
            &[
                Some(palette_formats[0]),
                Some(palette_formats[1]),
                Some(palette_formats[2]),
            ]
        } else {
            &[None]
        };
        for &pf in runs {
            let palette = pf.map(|pf| (pf, &pal[..]));
            decode(format, w, h, &data, palette, &mut out).unwrap();
            let start = std::time::Instant::now();
            for _ in 0..reps {
                decode(format, w, h, &data, palette, &mut out).unwrap();
                std::hint::black_box(&mut out);
            }
            let secs = start.elapsed().as_secs_f64();
            let mb_s = (out.len() as f64 * f64::from(reps)) / secs / 1e6;
            match pf {
                Some(pf) => report.push_str(&format!(" {format}/{pf}={mb_s:.0}")),
                None => report.push_str(&format!(" {format}={mb_s:.0}")),
            }
        }
    }
    std::eprintln!("throughput (MB/s of RGBA8 out, {w}x{h}):{report}");
}

#[test]
fn rgb5a3_byte_tables_decode_every_16_bit_colour_as_the_formula_does() {
    for p in 0..=u16::MAX {
        assert_eq!(color::rgb5a3_lookup(p), color::rgb5a3(p), "{p:#06x}");
        assert_eq!(color::rgb5a3(p), ref_5a3(u32::from(p)), "{p:#06x}");
    }
}
