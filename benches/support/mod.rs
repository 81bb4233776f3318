//! Inputs shared by the benches: the real corpus and generated large files.

#![allow(dead_code)]

use std::fmt::Write;

/// Every .bbmodel of `../shared/corpus/bbmodel`, or none (with a note) when absent.
pub fn corpus_bbmodels() -> Vec<(String, Vec<u8>)> {
    corpus("bbmodel", &["bbmodel"])
}

/// Every file of `../shared/corpus/<sub>` with one of `extensions`, sorted,
/// or none (with a note) when absent.
pub fn corpus(sub: &str, extensions: &[&str]) -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(sub);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "SKIPPED: {} is absent; corpus benches have no input",
            dir.display()
        );
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| extensions.contains(&x))
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            Some((p.file_name()?.to_string_lossy().into_owned(), bytes))
        })
        .collect()
}

/// A deterministic xorshift generator, so generated inputs are the same every run.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A number like Blockbench writes: integers, halves, and long decimals.
    pub fn coord(&mut self) -> String {
        match self.next() % 4 {
            0 => format!("{}", (self.next() % 64) as i64 - 32),
            1 => format!("{}.5", (self.next() % 64) as i64 - 32),
            2 => format!("{:.4}", (self.next() % 100_000) as f64 / 997.0 - 50.0),
            _ => format!("{}", (self.next() % 100_000) as f64 / 7.0 - 7000.0),
        }
    }
}

/// A .bbmodel of exactly `cubes` cubes (pretty-printed like Blockbench).
pub fn generated_bbmodel_cubes(cubes: usize) -> Vec<u8> {
    generate(usize::MAX, cubes)
}

/// A .bbmodel of about `target_bytes` made of cubes, the way Blockbench
/// writes large models (pretty-printed with tabs).
pub fn generated_bbmodel(target_bytes: usize) -> Vec<u8> {
    generate(target_bytes, usize::MAX)
}

fn generate(target_bytes: usize, max_cubes: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x5eed);
    let mut out = String::with_capacity(target_bytes.min(1 << 28) + 4096);
    out.push_str("{\n\t\"meta\": {\"format_version\": \"4.10\", \"model_format\": \"free\", \"box_uv\": false},\n\t\"name\": \"generated\",\n\t\"resolution\": {\"width\": 64, \"height\": 64},\n\t\"elements\": [\n");
    let mut i = 0u64;
    while out.len() < target_bytes && (i as usize) < max_cubes {
        if i > 0 {
            out.push_str(",\n");
        }
        let _ = write!(
            out,
            "\t\t{{\n\t\t\t\"name\": \"cube_{i}\",\n\t\t\t\"box_uv\": false,\n\t\t\t\"rescale\": false,\n\t\t\t\"from\": [{}, {}, {}],\n\t\t\t\"to\": [{}, {}, {}],\n\t\t\t\"autouv\": 0,\n\t\t\t\"color\": {},\n\t\t\t\"origin\": [{}, {}, {}],\n\t\t\t\"rotation\": [0, {}, 0],\n\t\t\t\"faces\": {{\n",
            rng.coord(),
            rng.coord(),
            rng.coord(),
            rng.coord(),
            rng.coord(),
            rng.coord(),
            rng.next() % 8,
            rng.coord(),
            rng.coord(),
            rng.coord(),
            (rng.next() % 4) * 22
        );
        for (f, face) in ["north", "east", "south", "west", "up", "down"]
            .iter()
            .enumerate()
        {
            let _ = writeln!(
                out,
                "\t\t\t\t\"{face}\": {{\"uv\": [{}, {}, {}, {}], \"texture\": 0}}{}",
                rng.next() % 64,
                rng.next() % 64,
                rng.next() % 64,
                rng.next() % 64,
                if f < 5 { "," } else { "" }
            );
        }
        let _ = write!(
            out,
            "\t\t\t}},\n\t\t\t\"type\": \"cube\",\n\t\t\t\"uuid\": \"{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}\"\n\t\t}}",
            rng.next() as u32,
            rng.next() as u16,
            rng.next() % 4096,
            rng.next() % 4096,
            rng.next() % (1 << 48)
        );
        i += 1;
    }
    out.push_str("\n\t],\n\t\"outliner\": [],\n\t\"textures\": [{\"name\": \"t\", \"uuid\": \"t0\", \"source\": \"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAYAAACqaXHeAAAAZUlEQVR42u3QQREAAAQAMHFEFFErcjh7rMCiK+ezECBAgAABAgQIECBAgAABAgQIECBAgAABAgQIECBAgAABAgQIECBAgAABAgQIECBAgAABAgQIECBAgAABAgQIECBAgAABAu5b9l1yOyG8Se8AAAAASUVORK5CYII=\"}]\n}\n");
    out.into_bytes()
}

/// A JSON array of `count` strings of `len` base64 characters: the shape of
/// embedded PNG textures, where string scanning is all the work.
pub fn long_strings(count: usize, len: usize) -> Vec<u8> {
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut rng = Rng::new(42);
    let mut out = Vec::with_capacity(count * (len + 4) + 2);
    out.push(b'[');
    for i in 0..count {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"\"data:image/png;base64,");
        for _ in 0..len {
            out.push(B64[(rng.next() % 64) as usize]);
        }
        out.push(b'"');
    }
    out.push(b']');
    out
}

/// A .bbmodel with one mesh of `faces` quads in a grid (2 triangles each),
/// the shape of a large sculpted mesh.
pub fn generated_mesh(faces: usize) -> Vec<u8> {
    let side = (faces as f64).sqrt().ceil() as usize;
    let mut out = String::with_capacity(faces * 160);
    out.push_str("{\"meta\": {\"format_version\": \"4.10\", \"model_format\": \"free\"}, \"elements\": [{\"type\": \"mesh\", \"uuid\": \"m\", \"origin\": [0, 0, 0], \"vertices\": {");
    for y in 0..=side {
        for x in 0..=side {
            if x + y > 0 {
                out.push(',');
            }
            let _ = write!(out, "\"v{x}_{y}\": [{x}, {}, {y}]", (x * y) % 3);
        }
    }
    out.push_str("}, \"faces\": {");
    let mut n = 0;
    'outer: for y in 0..side {
        for x in 0..side {
            if n == faces {
                break 'outer;
            }
            if n > 0 {
                out.push(',');
            }
            let k = [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)];
            let _ = write!(out, "\"f{n}\": {{\"vertices\": [");
            for (i, (a, b)) in k.iter().enumerate() {
                let _ = write!(out, "{}\"v{a}_{b}\"", if i > 0 { "," } else { "" });
            }
            out.push_str("], \"uv\": {");
            for (i, (a, b)) in k.iter().enumerate() {
                let _ = write!(
                    out,
                    "{}\"v{a}_{b}\": [{}, {}]",
                    if i > 0 { "," } else { "" },
                    a % 16,
                    b % 16
                );
            }
            out.push_str("}, \"texture\": 0}");
            n += 1;
        }
    }
    out.push_str("}}], \"outliner\": [\"m\"], \"textures\": [{\"name\": \"t\", \"uuid\": \"t0\", \"source\": \"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAYAAACqaXHeAAAAZUlEQVR42u3QQREAAAQAMHFEFFErcjh7rMCiK+ezECBAgAABAgQIECBAgAABAgQIECBAgAABAgQIECBAgAABAgQIECBAgAABAgQIECBAgAABAgQIECBAgAABAgQIECBAgAABAu5b9l1yOyG8Se8AAAAASUVORK5CYII=\"}]}");
    out.into_bytes()
}

/// A mesh of `faces` 16-gons (14 triangles each) in a row: ear clipping's worst case.
pub fn generated_ngons(faces: usize) -> Vec<u8> {
    let mut out = String::with_capacity(faces * 900);
    out.push_str("{\"meta\": {\"format_version\": \"4.10\", \"model_format\": \"free\"}, \"elements\": [{\"type\": \"mesh\", \"uuid\": \"m\", \"vertices\": {");
    for f in 0..faces {
        for k in 0..16 {
            let a = std::f64::consts::TAU * k as f64 / 16.0;
            // A star-ish concave polygon so ears must be searched.
            let r = if k % 2 == 0 { 4.0 } else { 2.5 };
            let _ = write!(
                out,
                "{}\"p{f}_{k}\": [{:.4}, {:.4}, {f}]",
                if f + k > 0 { "," } else { "" },
                r * a.cos(),
                r * a.sin()
            );
        }
    }
    out.push_str("}, \"faces\": {");
    for f in 0..faces {
        let _ = write!(
            out,
            "{}\"f{f}\": {{\"vertices\": [",
            if f > 0 { "," } else { "" }
        );
        for k in 0..16 {
            let _ = write!(out, "{}\"p{f}_{k}\"", if k > 0 { "," } else { "" });
        }
        out.push_str("], \"uv\": {");
        for k in 0..16 {
            let _ = write!(out, "{}\"p{f}_{k}\": [0, 0]", if k > 0 { "," } else { "" });
        }
        out.push_str("}}");
    }
    out.push_str("}}], \"outliner\": [\"m\"], \"textures\": []}");
    out.into_bytes()
}

/// A .bbmodel of about `target_bytes` that is mostly embedded PNG textures
/// (2048×2048 RGBA of noise, zlib level 1, base64 data URIs): the shape of
/// a model whose size is its textures, where base64 and inflate are the work.
pub fn generated_textures(target_bytes: usize) -> Vec<u8> {
    use base64::Engine as _;
    const SIDE: usize = 2048;
    let mut rng = Rng::new(0x7e47);
    let mut raw = Vec::with_capacity(SIDE * (SIDE * 4 + 1));
    for _ in 0..SIDE {
        raw.extend_from_slice(&[0]); // filter byte: none
        for x in 0..SIDE {
            let n = rng.next();
            // Noise on a gradient: compressible enough to make inflate work.
            raw.extend_from_slice(&[(x / 8) as u8, (n & 0x3f) as u8, (n >> 8) as u8 & 0xf0, 255]);
        }
    }
    let mut png = Vec::new();
    png.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&(SIDE as u32).to_be_bytes());
    ihdr.extend_from_slice(&(SIDE as u32).to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    png_chunk(&mut png, b"IHDR", &ihdr);
    png_chunk(
        &mut png,
        b"IDAT",
        &miniz_oxide::deflate::compress_to_vec_zlib(&raw, 1),
    );
    png_chunk(&mut png, b"IEND", &[]);
    let uri = base64::engine::general_purpose::STANDARD.encode(&png);
    let mut out = String::with_capacity(target_bytes + uri.len() + 4096);
    out.push_str("{\n\t\"meta\": {\"format_version\": \"4.10\", \"model_format\": \"free\", \"box_uv\": false},\n\t\"name\": \"textures\",\n\t\"resolution\": {\"width\": 64, \"height\": 64},\n\t\"elements\": [\n");
    out.push_str("\t\t{\"name\": \"c\", \"from\": [0, 0, 0], \"to\": [16, 16, 16], \"origin\": [0, 0, 0], \"faces\": {\"north\": {\"uv\": [0, 0, 16, 16], \"texture\": 0}}, \"type\": \"cube\", \"uuid\": \"c0\"}\n\t],\n\t\"outliner\": [\"c0\"],\n\t\"textures\": [");
    let mut i = 0;
    while out.len() < target_bytes {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "\n\t\t{{\"name\": \"t{i}.png\", \"uuid\": \"t{i}\", \"width\": {SIDE}, \"height\": {SIDE}, \"source\": \"data:image/png;base64,{uri}\"}}"
        );
        i += 1;
    }
    out.push_str("\n\t]\n}\n");
    out.into_bytes()
}

fn png_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}
