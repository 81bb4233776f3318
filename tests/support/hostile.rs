//! The classic attacks on a model reader, generated: each case is the bytes
//! an attacker would send and what scenedec must do with them. Shared by
//! `tests/hostile_inputs.rs` (the verdict and the allocations) and
//! `benches/hostile.rs` (the time each takes), so both read the same list.

use scenedec::ErrorCode;

use super::bbmodel_builder::{Cube, Face, Json, MeshFace, Model, Raw, Texture, base64, chunk};
use super::bbmodel_builder::{png_with_idat, zlib_zeros};
use super::j3d_writer::{ModelBuilder, draw, find_section, indices16, prim};

/// Picked texture files offered beside a model: (file name, bytes).
pub type TextureFiles = Vec<(String, Vec<u8>)>;

/// What a case must give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Refused with this code.
    Refused(ErrorCode),
    /// Refused with a typed error; several codes are right (which one
    /// depends on which check meets the damage first).
    RefusedAny,
    /// Loaded.
    Loads,
}

/// One attack.
pub struct Case {
    /// What it is, as the security table names it.
    pub name: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Its extension, as the CLI would pass it.
    pub ext: &'static str,
    /// Picked texture files offered beside it (name, bytes).
    pub texture_files: TextureFiles,
    /// What must happen.
    pub verdict: Verdict,
    /// For an input refused only by the fill pass (which `load` runs after
    /// its one allocation, see docs/architecture.md): the valid file it
    /// imitates, whose planned arena bounds what `load` may allocate first.
    pub imitates: Option<(Vec<u8>, TextureFiles)>,
}

impl Case {
    fn new(name: impl Into<String>, ext: &'static str, bytes: Vec<u8>, verdict: Verdict) -> Self {
        Self {
            name: name.into(),
            bytes,
            ext,
            texture_files: Vec::new(),
            verdict,
            imitates: None,
        }
    }

    fn imitating(mut self, bytes: Vec<u8>, texture_files: TextureFiles) -> Self {
        self.imitates = Some((bytes, texture_files));
        self
    }
}

/// Every case, in the order of the security table.
pub fn cases() -> Vec<Case> {
    let mut all = json_cases();
    all.extend(bbmodel_cases());
    all.extend(png_cases());
    all.extend(j3d_cases());
    all.extend(yaz0_cases());
    all.extend(lz_cases());
    all
}

fn json_cases() -> Vec<Case> {
    let mut nested = b"{\"meta\": ".to_vec();
    nested.resize(nested.len() + 1_000_000, b'[');
    // 64 MiB: the whole default maxFileBytes, almost all of it whitespace.
    let model = Model::free().element(Cube::new([0.0; 3], [1.0; 3]).uuid("c"));
    let text = model.bytes();
    let limit = scenedec::BbmodelLimits::DEFAULT.max_file_bytes as usize;
    let mut spaced = Vec::with_capacity(limit);
    spaced.push(b'{');
    spaced.resize(limit - (text.len() - 1), b' ');
    spaced.extend_from_slice(&text[1..]);
    vec![
        Case::new(
            "nesting 10⁶ deep",
            "bbmodel",
            nested,
            Verdict::Refused(ErrorCode::NotJson),
        ),
        Case::new(
            "64 MiB of whitespace (the whole maxFileBytes)",
            "bbmodel",
            spaced,
            Verdict::Loads,
        ),
    ]
}

fn bbmodel_cases() -> Vec<Case> {
    // A mesh of 400 001 vertex keys: one past maxVertices. Written as raw
    // text: the builder's ordered objects look keys up linearly.
    let vertices: Vec<String> = (0..400_001u32)
        .map(|i| format!("\"v{i}\": [{i}, 0, 0]"))
        .collect();
    let mesh = Raw(format!(
        "{{\"name\": \"mesh\", \"type\": \"mesh\", \"uuid\": \"m\", \"origin\": [0, 0, 0], \
         \"rotation\": [0, 0, 0], \"vertices\": {{{}}}, \"faces\": {{\"f\": {}}}}}",
        vertices.join(", "),
        MeshFace::new(&[("v0", [0.0, 0.0]), ("v1", [1.0, 0.0]), ("v2", [0.0, 1.0])]).json()
    ));
    let keys = Model::free().element(mesh).bytes();
    // 10 000 cubes (maxElements) sharing one uuid.
    let (mut dup, mut distinct) = (Model::free(), Model::free());
    for i in 0..10_000 {
        dup = dup.element(Cube::new([0.0; 3], [1.0; 3]).uuid("same"));
        distinct = distinct.element(Cube::new([0.0; 3], [1.0; 3]).uuid(&format!("c{i}")));
    }
    // A frame strip whose custom order of words would repeat for lcm(t, n)
    // steps: 4 095 word tokens on a 4 096-frame strip.
    let words: Vec<&str> = std::iter::repeat_n("x", 4_095).collect();
    let strip = Model::format("java_block")
        .texture(
            Texture::png("strip", 1, 4_096)
                .set("frame_order_type", "custom")
                .set("frame_order", words.join(" ").as_str()),
        )
        .element(
            Cube::new([0.0; 3], [1.0; 3]).all_faces(Face::uv([0.0, 0.0, 1.0, 1.0]).texture(0.0)),
        );
    vec![
        Case::new(
            "a mesh of 400 001 vertex keys",
            "bbmodel",
            keys,
            Verdict::Refused(ErrorCode::TooManyVertices),
        ),
        Case::new(
            "10 000 elements with one uuid",
            "bbmodel",
            dup.bytes(),
            Verdict::Refused(ErrorCode::DuplicateReference),
        )
        .imitating(distinct.bytes(), Vec::new()),
        Case::new(
            "a frame_order whose expansion would be 16 773 120 steps",
            "bbmodel",
            strip.bytes(),
            Verdict::Loads,
        ),
    ]
}

/// A model whose only texture is the picked file `t.png`.
/// With `honest`: the valid image of the same header that the case imitates.
fn with_picked_png(name: &str, png: Vec<u8>, verdict: Verdict, honest: Option<Vec<u8>>) -> Case {
    let model = Model::free()
        .texture(Texture::named("t").set("relative_path", "t.png"))
        .element(
            Cube::new([0.0; 3], [1.0; 3]).all_faces(Face::uv([0.0, 0.0, 1.0, 1.0]).texture(0.0)),
        );
    let bytes = model.bytes();
    let mut case = Case::new(name, "bbmodel", bytes.clone(), verdict);
    case.texture_files.push(("t.png".into(), png));
    match honest {
        Some(image) => case.imitating(bytes, vec![("t.png".into(), image)]),
        None => case,
    }
}

fn png_cases() -> Vec<Case> {
    // 1 GiB of zeros behind a 16 × 16 header: inflate must stop at 1 040 bytes.
    let bomb = png_with_idat(16, 16, &zlib_zeros(1 << 30));
    // A header claiming 4096 × 4096 over the data of a 16 × 16 image.
    let lie = png_with_idat(4096, 4096, &zlib_zeros(16 * (1 + 4 * 16)));
    // A valid 500 × 500 image stored uncompressed (1 000 580 zlib bytes)
    // and sent in one-byte IDAT chunks: 10⁶ of them, 13 MB of chunk framing.
    let split = one_byte_idat_png(500, 500);
    let embedded = Model::free()
        .texture(Texture::named("t").source(&format!(
            "data:image/png;base64,{}",
            base64(&png_with_idat(16, 16, &zlib_zeros(1 << 24)))
        )))
        .bytes();
    let honest = Model::free().texture(Texture::png("t", 16, 16)).bytes();
    vec![
        with_picked_png(
            "inflate bomb: 1 GiB of zeros behind a 16 × 16 IHDR",
            bomb,
            Verdict::Refused(ErrorCode::BadTexture),
            Some(super::bbmodel_builder::png(16, 16)),
        ),
        Case::new(
            "inflate bomb in a data URL: 16 MiB of zeros behind 16 × 16",
            "bbmodel",
            embedded,
            Verdict::Refused(ErrorCode::BadTexture),
        )
        .imitating(honest, Vec::new()),
        with_picked_png(
            "IHDR lie: 4096 × 4096 declared, 16 × 16 of data",
            lie,
            Verdict::Refused(ErrorCode::BadTexture),
            Some(super::bbmodel_builder::png(4096, 4096)),
        ),
        with_picked_png("10⁶ one-byte IDAT chunks", split, Verdict::Loads, None),
    ]
}

/// A `width` × `height` RGBA8 PNG of noise whose zlib stream is stored
/// blocks (no compression), one IDAT chunk per byte of it.
fn one_byte_idat_png(width: u32, height: u32) -> Vec<u8> {
    let row = 1 + 4 * width as usize;
    let mut raw = vec![0u8; row * height as usize];
    let mut state = 0x2545_f491_u32;
    for (i, byte) in raw.iter_mut().enumerate() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        // Filter type 0 at the start of each row, noise elsewhere.
        *byte = if i % row == 0 { 0 } else { state as u8 };
    }
    let mut stream = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = raw.chunks(65_535).collect();
    for (i, block) in blocks.iter().enumerate() {
        stream.push(u8::from(i + 1 == blocks.len()));
        let len = block.len() as u16;
        stream.extend_from_slice(&len.to_le_bytes());
        stream.extend_from_slice(&(!len).to_le_bytes());
        stream.extend_from_slice(block);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in &raw {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    stream.extend_from_slice(&((b << 16) | a).to_be_bytes());
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    chunk(&mut png, b"IHDR", &ihdr);
    for byte in stream.chunks(1) {
        chunk(&mut png, b"IDAT", byte);
    }
    chunk(&mut png, b"IEND", &[]);
    png
}

/// A small J3D model with every section the builder writes.
fn j3d_model() -> Vec<u8> {
    ModelBuilder::single_shape(
        &[[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        draw(prim::TRIANGLES, &indices16(&[0, 1, 2])),
    )
    .build()
}

fn j3d_cases() -> Vec<Case> {
    let model = j3d_model();
    let mut out = Vec::new();
    let ids: [&[u8; 4]; 8] = [
        b"INF1", b"VTX1", b"EVP1", b"DRW1", b"JNT1", b"SHP1", b"MAT3", b"TEX1",
    ];
    for id in ids {
        let Some((at, size)) = find_section(&model, id) else {
            continue;
        };
        let name = String::from_utf8_lossy(id).into_owned();
        // The section's size claims 2³¹ bytes.
        let mut big = model.clone();
        big[at + 4..at + 8].copy_from_slice(&0x8000_0000u32.to_be_bytes());
        out.push(Case::new(
            format!("{name} size 2³¹"),
            "bmd",
            big,
            Verdict::RefusedAny,
        ));
        // The section's count (the u16 after its header) at 65 535.
        let mut counted = model.clone();
        counted[at + 8..at + 10].copy_from_slice(&u16::MAX.to_be_bytes());
        out.push(Case::new(
            format!("{name} count 65 535"),
            "bmd",
            counted,
            Verdict::RefusedAny,
        ));
        // Every offset field of the section's header past the file's end
        // (a section with no entries has nothing they could point at).
        if u16::from_be_bytes([model[at + 8], model[at + 9]]) == 0 {
            continue;
        }
        let mut past = model.clone();
        let header_end = (at + 0x40).min(at + size);
        for field in (at + 12..header_end).step_by(4) {
            past[field..field + 4].copy_from_slice(&0xFFFF_FFF0u32.to_be_bytes());
        }
        out.push(Case::new(
            format!("{name} offsets past the end"),
            "bmd",
            past,
            Verdict::RefusedAny,
        ));
    }
    let mut cycle = ModelBuilder::single_shape(
        &[[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        draw(prim::TRIANGLES, &indices16(&[0, 1, 2])),
    );
    // Joint 0 under itself: open, joint, open, joint, close, close.
    cycle.hierarchy = Some(vec![(0x10, 0), (0x01, 0), (0x10, 0), (0x02, 0), (0x00, 0)]);
    out.push(Case::new(
        "INF1 cycle (a joint under itself)",
        "bmd",
        cycle.build(),
        Verdict::RefusedAny,
    ));
    let mut deep = ModelBuilder::single_shape(
        &[[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        draw(prim::TRIANGLES, &indices16(&[0, 1, 2])),
    );
    let mut bomb = Vec::new();
    bomb.push((0x10, 0));
    for _ in 0..100_000 {
        // Material nodes nest without naming a joint twice.
        bomb.push((0x01, 0));
        bomb.push((0x11, 0));
    }
    bomb.push((0x00, 0));
    deep.hierarchy = Some(bomb);
    out.push(Case::new(
        "INF1 depth bomb (100 000 levels)",
        "bmd",
        deep.build(),
        Verdict::Refused(ErrorCode::HierarchyTooDeep),
    ));
    out
}

/// Blockbench `<lz>` backups: a bomb that would write past
/// maxDecompressedBytes (64 MiB) is refused by the walk that counts its
/// output, before any of it is written.
fn lz_cases() -> Vec<Case> {
    // One literal, then 2-byte pointers of 31 bytes each from 1 back:
    // 2.2 M of them would write 68 MiB.
    let mut stream = vec![b'{'];
    for _ in 0..2_200_000 {
        stream.extend_from_slice(&[0xC0 | 31, 1]);
    }
    vec![Case::new(
        "<lz> bomb: 4.4 MB of pointers writing 68 MiB",
        "bbmodel",
        scenedec::lzutf8::pack(&stream),
        Verdict::Refused(ErrorCode::FileTooLarge),
    )]
}

fn yaz0_cases() -> Vec<Case> {
    let mut huge = b"Yaz0".to_vec();
    huge.extend_from_slice(&u32::MAX.to_be_bytes());
    huge.extend_from_slice(&[0; 8]);
    huge.extend_from_slice(&[0xFF; 64]);
    // Declares 16 bytes; the first group's first op is a copy from 4 096
    // bytes back, before the start.
    let mut back = b"Yaz0".to_vec();
    back.extend_from_slice(&16u32.to_be_bytes());
    back.extend_from_slice(&[0; 8]);
    back.extend_from_slice(&[0x00, 0x1F, 0xFF, 0x00]);
    vec![
        Case::new(
            "Yaz0 claiming 4 GiB",
            "szs",
            huge,
            Verdict::Refused(ErrorCode::FileTooLarge),
        ),
        Case::new(
            "Yaz0 back-reference before the start",
            "szs",
            back,
            Verdict::RefusedAny,
        ),
    ]
}
