//! TEX1 and MAT3 through the whole pipeline: every GX format, palettes,
//! shared image data, mip chains, the texture limits at their value and one
//! past it, the MAT3 → scene material mapping, the typed MAT3 accessors, and
//! hostile sections failing with typed errors. Fixtures are built with
//! `tests/support/j3d_writer.rs`.

mod support;

use scenedec::gx::texture::{self, GxFormat};
use scenedec::j3d::J3dFile;
use scenedec::j3d::mat3::{AlphaTest, Mat3};
use scenedec::j3d::tex1::Tex1;
use scenedec::scene::{AlphaMode, Blending, CullMode, Filter, GroupFlags, MaterialFlags, Wrap};
use scenedec::{ErrorCode, Options, WarningCode};
use support::j3d_writer::{
    MaterialDef, MaterialState, ModelBuilder, PutBe, TextureDef, be_u16, be_u32, draw, indices16,
    mat3_header, prim, section_offset,
};

/// One triangle, one material, and `textures` in TEX1.
fn model(textures: Vec<TextureDef>) -> ModelBuilder {
    let mut m = ModelBuilder::single_shape(
        &[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        draw(prim::TRIANGLES, &indices16(&[0, 1, 2])),
    );
    m.textures = textures;
    m
}

/// `encoded_size` bytes of `format` at `w` x `h`, repeating `pattern`.
fn filled(format: GxFormat, w: u32, h: u32, pattern: &[u8]) -> Vec<u8> {
    let n = texture::encoded_size(format, w, h).unwrap();
    pattern.iter().copied().cycle().take(n).collect()
}

fn load(bytes: &[u8]) -> scenedec::Loaded<'_> {
    scenedec::load(bytes, None, &Options::default()).unwrap_or_else(|e| panic!("{e} at {}", e.at()))
}

fn measure_err(bytes: &[u8]) -> scenedec::Error {
    scenedec::measure(bytes, None, &Options::default()).unwrap_err()
}

/// The RGBA8 bytes of mip `level` of texture `t`.
fn level(scene: &scenedec::Scene<'_>, t: usize, level: usize) -> Vec<u8> {
    let tex = scene.textures()[t];
    let mip = scene.mips()[tex.first_mip as usize + level];
    let start = mip.offset as usize;
    scene.pixels()[start..start + (mip.width * mip.height * 4) as usize].to_vec()
}

/// Pixel (x, y) of an RGBA8 level `w` texels wide.
fn px(pixels: &[u8], w: u32, x: u32, y: u32) -> [u8; 4] {
    let i = ((y * w + x) * 4) as usize;
    pixels[i..i + 4].try_into().unwrap()
}

// --- TEX1 -------------------------------------------------------------------

#[test]
fn every_direct_gx_format_decodes_through_tex1_to_its_known_colour() {
    let cases: [(GxFormat, &[u8], [u8; 4]); 8] = [
        (GxFormat::I4, &[0x77], [0x77; 4]),
        (GxFormat::I8, &[0x80], [0x80; 4]),
        (GxFormat::IA4, &[0x5A], [0xAA, 0xAA, 0xAA, 0x55]),
        (GxFormat::IA8, &[0x40, 0xC0], [0xC0, 0xC0, 0xC0, 0x40]),
        (GxFormat::RGB565, &[0xF8, 0x00], [255, 0, 0, 255]),
        (GxFormat::RGB5A3, &[0x80, 0x1F], [0, 0, 255, 255]),
        (
            GxFormat::RGBA8,
            &[
                0x11, 0x22, 0x11, 0x22, 0x11, 0x22, 0x11, 0x22, 0x11, 0x22, 0x11, 0x22, 0x11, 0x22,
                0x11, 0x22, 0x11, 0x22, 0x11, 0x22, 0x11, 0x22, 0x11, 0x22, 0x11, 0x22, 0x11, 0x22,
                0x11, 0x22, 0x11, 0x22, 0x33, 0x44, 0x33, 0x44, 0x33, 0x44, 0x33, 0x44, 0x33, 0x44,
                0x33, 0x44, 0x33, 0x44, 0x33, 0x44, 0x33, 0x44, 0x33, 0x44, 0x33, 0x44, 0x33, 0x44,
                0x33, 0x44, 0x33, 0x44, 0x33, 0x44, 0x33, 0x44,
            ],
            [0x22, 0x33, 0x44, 0x11],
        ),
        (
            GxFormat::CMPR,
            &[0xF8, 0, 0, 0, 0, 0, 0, 0],
            [255, 0, 0, 255],
        ),
    ];
    let (w, h) = (12u32, 8u32);
    let textures: Vec<TextureDef> = cases
        .iter()
        .map(|(f, pattern, _)| {
            TextureDef::new(
                f.name(),
                f.code(),
                w as u16,
                h as u16,
                filled(*f, w, h, pattern),
            )
        })
        .collect();
    let bytes = model(textures.clone()).build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(scene.textures().len(), cases.len());
    for (i, (format, _, colour)) in cases.iter().enumerate() {
        let t = scene.textures()[i];
        assert_eq!(scene.text(t.name), format.name());
        assert_eq!((t.width, t.height), (w, h), "{format}");
        assert_eq!(t.source_format, u32::from(format.code()), "{format}");
        assert_eq!((t.uv_width, t.uv_height), (w as f32, h as f32));
        assert_eq!((t.mip_count, t.frame_count), (1, 1), "{format}");
        assert!(!t.missing());
        let pixels = level(&scene, i, 0);
        assert!(
            pixels.chunks(4).all(|p| p == colour),
            "{format}: {:?}",
            &pixels[..8]
        );
        // The same bytes through the GX decoder directly.
        let mut direct = vec![0; (w * h * 4) as usize];
        texture::decode(*format, w, h, &textures[i].data, None, &mut direct).unwrap();
        assert_eq!(pixels, direct, "{format}");
    }
    assert_eq!(scene.pixels().len(), cases.len() * (w * h * 4) as usize);
}

#[test]
fn palette_formats_c4_c8_c14x2_read_their_entries() {
    // C4 with RGB565 entries: bytes 0x01 make texels 0, 1, 0, 1, …
    let mut c4 = TextureDef::new("c4", 0x8, 8, 8, vec![0x01; 32]);
    c4.palette_format = 1;
    c4.palette = vec![0xF800, 0x07E0];
    // C8 with IA8 entries: texel t (row-major in its 8x4 block) is t % 3.
    let mut c8 = TextureDef::new("c8", 0x9, 8, 4, (0..32).map(|t| t % 3).collect());
    c8.palette_format = 0;
    c8.palette = vec![0xFF00, 0x80FF, 0x0040];
    // C14X2 with RGB5A3 entries: texel t names entry 20·t; the top two bits
    // of texel 0 are set and ignored.
    let mut data = Vec::new();
    for t in 0..16u16 {
        data.u16(if t == 0 { 0xC000 } else { 20 * t });
    }
    let mut c14 = TextureDef::new("c14x2", 0xA, 4, 4, data);
    c14.palette_format = 2;
    c14.palette = (0..=300u16).map(|k| 0x8000 | k).collect();
    let bytes = model(vec![c4, c8, c14]).build();
    let loaded = load(&bytes);
    let scene = loaded.scene();

    let p = level(&scene, 0, 0);
    assert_eq!(px(&p, 8, 0, 0), [255, 0, 0, 255]);
    assert_eq!(px(&p, 8, 1, 0), [0, 255, 0, 255]);
    assert_eq!(px(&p, 8, 7, 7), [0, 255, 0, 255]);

    let p = level(&scene, 1, 0);
    assert_eq!(px(&p, 8, 0, 0), [0, 0, 0, 255]);
    assert_eq!(px(&p, 8, 1, 0), [255, 255, 255, 0x80]);
    assert_eq!(px(&p, 8, 2, 0), [0x40, 0x40, 0x40, 0]);
    assert_eq!(px(&p, 8, 0, 1), px(&p, 8, 2, 0)); // t = 8, 8 % 3 = 2

    let p = level(&scene, 2, 0);
    let expand5 = |v: u16| ((v << 3) | (v >> 2)) as u8;
    let entry = |k: u16| {
        let v = 0x8000 | k;
        [
            expand5((v >> 10) & 31),
            expand5((v >> 5) & 31),
            expand5(v & 31),
            255,
        ]
    };
    assert_eq!(px(&p, 4, 0, 0), entry(0));
    assert_eq!(px(&p, 4, 1, 0), entry(20));
    assert_eq!(px(&p, 4, 3, 3), entry(300));
}

#[test]
fn palette_index_past_the_palette_fails_in_measure_as_bad_texture() {
    let mut c8 = TextureDef::new("c8", 0x9, 8, 4, vec![0; 32]);
    c8.palette = vec![0xFF00, 0x80FF];
    c8.data[5] = 2;
    let e = measure_err(&model(vec![c8]).build());
    assert_eq!(e.code(), ErrorCode::BadTexture);
    assert!(e.at().to_string().ends_with("TEX1"), "{}", e.at());
    assert!(e.message().contains("palette entry 2"), "{}", e.message());
}

#[test]
fn skip_texels_reads_headers_only_so_texel_data_is_not_checked() {
    // The same bad C8 texture: with texels left out its data is never read.
    let mut c8 = TextureDef::new("c8", 0x9, 8, 4, vec![0; 32]);
    c8.palette = vec![0xFF00, 0x80FF];
    c8.data[5] = 2;
    let bytes = model(vec![c8]).build();
    let mut options = Options::default();
    options.j3d.skip_texels = true;
    let plan = scenedec::measure(&bytes, None, &options).unwrap();
    assert_eq!((plan.counts().mips, plan.counts().pixels), (0, 0));
    let loaded = scenedec::load(&bytes, None, &options).unwrap();
    let scene = loaded.scene();
    let t = scene.textures()[0];
    assert_eq!(scene.text(t.name), "c8");
    assert_eq!((t.width, t.height, t.mip_count), (8, 4, 0));
    assert_eq!(t.source_format, 0x9);
    assert_eq!(t.flags, scenedec::scene::TextureFlags::TEXELS_LEFT_OUT);
    assert!(!t.missing());
    assert!(scene.pixels().is_empty() && scene.mips().is_empty());
}

#[test]
fn palette_indices_in_block_padding_are_never_read() {
    // A 4x4 C4 image in one 8x8 block: index 15 only outside the image.
    let mut data = vec![0u8; 32];
    for (t, byte) in data.iter_mut().enumerate() {
        let (x0, y) = ((2 * t) % 8, (2 * t) / 8);
        let nibble = |x: usize| if x >= 4 || y >= 4 { 15 } else { 1 };
        *byte = (nibble(x0) << 4) | nibble(x0 + 1);
    }
    let mut c4 = TextureDef::new("c4", 0x8, 4, 4, data);
    c4.palette = vec![0x0000, 0xFFFF];
    let bytes = model(vec![c4]).build();
    let loaded = load(&bytes);
    assert!(
        level(&loaded.scene(), 0, 0)
            .chunks(4)
            .all(|p| p == [255; 4])
    );
}

#[test]
fn headers_sharing_image_data_decode_it_once() {
    let first = TextureDef::new("a", 0x1, 8, 4, (0..32).collect());
    let mut second = TextureDef::new("b", 0x1, 8, 4, Vec::new());
    second.share_data_of = Some(0);
    second.wrap_s = 1;
    second.wrap_t = 2;
    let bytes = model(vec![first, second]).build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(scene.textures().len(), 2, "each header is its own texture");
    assert_eq!(scene.pixels().len(), 8 * 4 * 4, "one pixel copy");
    let (a, b) = (scene.textures()[0], scene.textures()[1]);
    assert_eq!(
        scene.mips()[a.first_mip as usize],
        scene.mips()[b.first_mip as usize]
    );
    assert_ne!(
        a.first_mip, b.first_mip,
        "each texture has its own mip records"
    );
    assert_eq!(scene.text(b.name), "b");
    assert_eq!((a.wrap_u(), a.wrap_v()), (Wrap::Clamp, Wrap::Clamp));
    assert_eq!((b.wrap_u(), b.wrap_v()), (Wrap::Repeat, Wrap::Mirror));
}

#[test]
fn same_data_read_as_another_format_is_decoded_again() {
    let first = TextureDef::new("i8", 0x1, 8, 4, (0..64).collect());
    let mut second = TextureDef::new("ia4", 0x2, 8, 4, Vec::new());
    second.share_data_of = Some(0);
    let bytes = model(vec![first, second]).build();
    let loaded = load(&bytes);
    assert_eq!(loaded.scene().pixels().len(), 2 * 8 * 4 * 4);
}

#[test]
fn mip_chain_decodes_every_level_halving_down_to_one() {
    // I8 8x4 with 4 levels: 8x4, 4x2, 2x1, 1x1, each one block of 32 bytes.
    let mut data = Vec::new();
    for value in [10u8, 20, 30, 40] {
        data.extend(std::iter::repeat_n(value, 32));
    }
    let mut t = TextureDef::new("mips", 0x1, 8, 4, data);
    t.mip_count = 4;
    t.min_filter = 5;
    let bytes = model(vec![t]).build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let tex = scene.textures()[0];
    assert_eq!(tex.mip_count, 4);
    let sizes: Vec<(u32, u32)> = scene.mips().iter().map(|m| (m.width, m.height)).collect();
    assert_eq!(sizes, [(8, 4), (4, 2), (2, 1), (1, 1)]);
    for (k, value) in [10u8, 20, 30, 40].into_iter().enumerate() {
        assert!(level(&scene, 0, k).iter().all(|&b| b == value), "level {k}");
    }
    assert_eq!(scene.pixels().len(), (32 + 8 + 2 + 1) * 4);
}

#[test]
fn mip_count_zero_is_read_as_one_level() {
    let mut t = TextureDef::new("zero", 0x1, 8, 4, vec![7; 32]);
    t.mip_count = 0;
    let bytes = model(vec![t]).build();
    let loaded = load(&bytes);
    assert_eq!(loaded.scene().textures()[0].mip_count, 1);
    assert_eq!(loaded.scene().mips().len(), 1);
}

#[test]
fn wrap_codes_and_filters_map_to_the_scene_with_mip_filters_at_their_base() {
    let mut t = TextureDef::new("t", 0x1, 8, 4, vec![0; 32]);
    (t.wrap_s, t.wrap_t, t.min_filter, t.mag_filter) = (2, 1, 4, 0);
    let mut u = TextureDef::new("u", 0x1, 8, 4, vec![0; 32]);
    (u.min_filter, u.mag_filter) = (3, 1);
    let bytes = model(vec![t, u]).build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let (t, u) = (scene.textures()[0], scene.textures()[1]);
    assert_eq!((t.wrap_u(), t.wrap_v()), (Wrap::Mirror, Wrap::Repeat));
    assert_eq!(
        (t.min_filter, t.mag_filter),
        (Filter::Nearest as u8, Filter::Nearest as u8)
    );
    assert_eq!(
        (u.min_filter, u.mag_filter),
        (Filter::Linear as u8, Filter::Linear as u8)
    );
}

#[test]
fn tex1_header_fields_are_read_with_their_units() {
    let mut t = TextureDef::new("t", 0x1, 8, 4, vec![0; 32]);
    (t.min_lod, t.max_lod, t.lod_bias, t.max_anisotropy) = (-8, 20, -150, 2);
    let bytes = model(vec![t]).build();
    let file = J3dFile::parse(&bytes).unwrap();
    let tex1 = Tex1::new(file.section(b"TEX1").unwrap()).unwrap();
    let t = tex1.texture(0).unwrap();
    assert_eq!((t.min_lod, t.max_lod, t.lod_bias), (-1.0, 2.5, -1.5));
    assert_eq!(t.max_anisotropy, 2);
    assert_eq!(t.name.0, b"t");
}

#[test]
fn a_header_without_image_data_loads_as_missing_with_a_warning() {
    let mut t = TextureDef::new("gone", 0x1, 8, 4, Vec::new());
    t.no_data = true;
    let bytes = model(vec![t]).build();
    let loaded = load(&bytes);
    let tex = loaded.scene().textures()[0];
    assert!(tex.missing());
    assert_eq!(tex.mip_count, 0);
    assert!(
        loaded
            .warnings()
            .as_slice()
            .iter()
            .any(|w| w.code() == WarningCode::MissingTexture)
    );
}

// --- limits -----------------------------------------------------------------

fn with_limits(bytes: &[u8], set: impl Fn(&mut scenedec::J3dLimits)) -> Result<(), ErrorCode> {
    let mut options = Options::default();
    set(&mut options.j3d.limits);
    scenedec::measure(bytes, None, &options)
        .map(|_| ())
        .map_err(|e| e.code())
}

#[test]
fn max_textures_at_value_and_one_past() {
    let t = TextureDef::new("t", 0x1, 8, 4, vec![0; 32]);
    let bytes = model(vec![t.clone(), t.clone(), t]).build();
    assert_eq!(with_limits(&bytes, |l| l.max_textures = 3), Ok(()));
    assert_eq!(
        with_limits(&bytes, |l| l.max_textures = 2),
        Err(ErrorCode::TooManyTextures)
    );
}

#[test]
fn max_texture_side_at_value_and_one_past() {
    let t = TextureDef::new("t", 0x1, 16, 4, vec![0; 64]);
    let bytes = model(vec![t]).build();
    assert_eq!(with_limits(&bytes, |l| l.max_texture_side = 16), Ok(()));
    assert_eq!(
        with_limits(&bytes, |l| l.max_texture_side = 15),
        Err(ErrorCode::TextureTooLarge)
    );
}

#[test]
fn max_texture_pixels_counts_every_mip_level() {
    // 8x4 + 4x2 + 2x1 = 42 texels.
    let mut t = TextureDef::new("t", 0x1, 8, 4, vec![0; 96]);
    t.mip_count = 3;
    let bytes = model(vec![t]).build();
    assert_eq!(with_limits(&bytes, |l| l.max_texture_pixels = 42), Ok(()));
    assert_eq!(
        with_limits(&bytes, |l| l.max_texture_pixels = 41),
        Err(ErrorCode::TextureTooLarge)
    );
}

#[test]
fn max_texture_bytes_counts_shared_data_once() {
    let a = TextureDef::new("a", 0x1, 8, 4, vec![0; 32]);
    let mut b = TextureDef::new("b", 0x1, 8, 4, Vec::new());
    b.share_data_of = Some(0);
    let c = TextureDef::new("c", 0x1, 8, 4, vec![1; 32]);
    // a and b share 128 RGBA8 bytes; c adds 128 more.
    let bytes = model(vec![a.clone(), b.clone(), b.clone(), c]).build();
    assert_eq!(with_limits(&bytes, |l| l.max_texture_bytes = 256), Ok(()));
    assert_eq!(
        with_limits(&bytes, |l| l.max_texture_bytes = 255),
        Err(ErrorCode::TextureTooLarge)
    );
    let bytes = model(vec![a, b]).build();
    assert_eq!(with_limits(&bytes, |l| l.max_texture_bytes = 128), Ok(()));
    assert_eq!(
        with_limits(&bytes, |l| l.max_texture_bytes = 127),
        Err(ErrorCode::TextureTooLarge)
    );
}

#[test]
fn default_texture_byte_limit_is_256_mib() {
    assert_eq!(
        scenedec::J3dLimits::default().max_texture_bytes,
        256 * 1024 * 1024
    );
}

// --- hostile TEX1 -------------------------------------------------------------

/// A file with two textures and the offset of its TEX1 section.
fn two_textures() -> (Vec<u8>, usize) {
    let mut c8 = TextureDef::new("c8", 0x9, 8, 4, vec![0; 32]);
    c8.palette = vec![0xFFFF];
    let bytes = model(vec![TextureDef::new("i8", 0x1, 8, 4, vec![0; 32]), c8]).build();
    let tex1 = section_offset(&bytes, b"TEX1");
    (bytes, tex1)
}

/// The file offset of BTI header `i`.
fn header(bytes: &[u8], tex1: usize, i: usize) -> usize {
    tex1 + be_u32(bytes, tex1 + 0x0C) as usize + 0x20 * i
}

#[test]
fn bad_tex1_header_values_are_bad_value_at_their_byte() {
    let (bytes, tex1) = two_textures();
    let h = header(&bytes, tex1, 0);
    for (field, value) in [
        (0x00, 7u8),
        (0x00, 0x0F),
        (0x06, 3),
        (0x07, 9),
        (0x14, 6),
        (0x15, 0xFF),
    ] {
        let mut b = bytes.clone();
        b[h + field] = value;
        let e = measure_err(&b);
        assert_eq!(e.code(), ErrorCode::BadValue, "field {field:#x} = {value}");
        assert_eq!(
            e.at().to_string(),
            format!("{:#x} TEX1", h + field),
            "field {field:#x}"
        );
    }
    let mut b = bytes.clone();
    b[header(&bytes, tex1, 1) + 0x09] = 3; // palette format of the C8
    assert_eq!(measure_err(&b).code(), ErrorCode::BadValue);
    let mut b = bytes.clone();
    b[h + 2..h + 4].copy_from_slice(&0u16.to_be_bytes());
    assert_eq!(measure_err(&b).code(), ErrorCode::BadValue);
}

#[test]
fn tex1_data_or_palette_past_the_section_is_truncated() {
    let (bytes, tex1) = two_textures();
    let mut b = bytes.clone();
    let h = header(&bytes, tex1, 0);
    b[h + 0x1C..h + 0x20].copy_from_slice(&0x10_0000u32.to_be_bytes());
    assert_eq!(measure_err(&b).code(), ErrorCode::Truncated);
    let mut b = bytes.clone();
    let h = header(&bytes, tex1, 1);
    b[h + 0x0C..h + 0x10].copy_from_slice(&u32::MAX.to_be_bytes());
    let e = measure_err(&b);
    assert!(
        matches!(e.code(), ErrorCode::Truncated | ErrorCode::BadValue),
        "{e}"
    );
    // A mip count that runs the chain past the data.
    let mut b = bytes.clone();
    b[header(&bytes, tex1, 0) + 0x18] = 40;
    assert_eq!(measure_err(&b).code(), ErrorCode::Truncated);
}

#[test]
fn tex1_with_more_textures_than_names_or_headers_fails() {
    let (bytes, tex1) = two_textures();
    let names = tex1 + be_u32(&bytes, tex1 + 0x10) as usize;
    let mut b = bytes.clone();
    b[names..names + 2].copy_from_slice(&1u16.to_be_bytes());
    assert_eq!(measure_err(&b).code(), ErrorCode::BadValue);
    let mut b = bytes.clone();
    b[tex1 + 8..tex1 + 10].copy_from_slice(&0x4000u16.to_be_bytes());
    assert_eq!(measure_err(&b).code(), ErrorCode::Truncated);
}

#[test]
fn every_cut_of_tex1_or_mat3_is_a_typed_error_never_a_panic() {
    let mut m = model(vec![TextureDef::new("i8", 0x1, 8, 4, vec![0; 32])]);
    m.material_states = vec![MaterialState {
        textures: vec![Some(0)],
        ..MaterialState::default()
    }];
    let bytes = m.build();
    for id in [b"MAT3", b"TEX1"] {
        let at = section_offset(&bytes, id);
        let size = be_u32(&bytes, at + 4) as usize;
        for cut in (8..size).step_by(3) {
            // Shrink the section (and the file) to `cut` bytes.
            let mut b = bytes[..at + cut].to_vec();
            b.extend_from_slice(&bytes[at + size..]);
            b[at + 4..at + 8].copy_from_slice(&(cut as u32).to_be_bytes());
            let total = b.len() as u32;
            b[8..12].copy_from_slice(&total.to_be_bytes());
            if let Err(e) = scenedec::measure(&b, None, &Options::default()) {
                assert!(
                    matches!(
                        e.code(),
                        ErrorCode::Truncated | ErrorCode::BadOffset | ErrorCode::BadValue
                    ),
                    "{} cut at {cut}: {e}",
                    String::from_utf8_lossy(id)
                );
            }
        }
    }
}

// --- MAT3 → scene -------------------------------------------------------------

/// `states` as the model's materials (names m0, m1, …), with one texture.
fn materials(states: Vec<MaterialState>) -> ModelBuilder {
    let mut m = model(vec![
        TextureDef::new("t0", 0x1, 8, 4, vec![0; 32]),
        TextureDef::new("t1", 0x1, 8, 4, vec![1; 32]),
    ]);
    m.materials = (0..states.len())
        .map(|i| MaterialDef {
            name: format!("m{i}"),
            cull: 2,
        })
        .collect();
    m.material_states = states;
    m
}

#[test]
fn material_takes_slot_0_texture_cull_vertex_colours_and_material_colour() {
    let mut m = materials(vec![
        MaterialState {
            textures: vec![Some(1), Some(0)],
            vertex_colors: true,
            material_color: [255, 0, 51, 255],
            ..MaterialState::default()
        },
        MaterialState::default(),
    ]);
    m.materials[1].cull = 0;
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let (a, b) = (scene.materials()[0], scene.materials()[1]);
    assert_eq!(scene.text(a.name), "m0");
    assert_eq!(a.texture, 1);
    assert_eq!(b.texture, -1);
    assert_eq!(a.cull(), CullMode::Back);
    assert_eq!(b.cull(), CullMode::None);
    assert_eq!(
        a.flags & MaterialFlags::VERTEX_COLORS,
        MaterialFlags::VERTEX_COLORS
    );
    assert_eq!(b.flags & MaterialFlags::VERTEX_COLORS, 0);
    // Channel 0 takes the vertices' colour, so material colour 0 is unused
    // (its alpha, from the alpha channel's register, stays).
    assert_eq!(a.base_color, [1.0; 4]);
    assert_eq!(b.base_color, [1.0; 4]);
    assert_eq!(a.alpha_mode(), AlphaMode::Opaque);
}

#[test]
fn vertex_colours_need_a_colour_channel_in_use() {
    let bytes = materials(vec![MaterialState {
        vertex_colors: true,
        channel_count: 0,
        ..MaterialState::default()
    }])
    .build();
    let flags = load(&bytes).scene().materials()[0].flags;
    assert_eq!(flags & MaterialFlags::VERTEX_COLORS, 0);
    // Without a channel the rasterised colour the TEV stage reads is unknown.
    assert_eq!(flags, MaterialFlags::TEV_UNFOLDED);
}

#[test]
fn group_is_double_sided_when_its_material_culls_nothing() {
    let mut m = materials(vec![MaterialState::default()]);
    m.materials[0].cull = 0;
    let bytes = m.build();
    let loaded = load(&bytes);
    assert_eq!(
        loaded.scene().groups()[0].flags & GroupFlags::DOUBLE_SIDED,
        GroupFlags::DOUBLE_SIDED
    );
    m.materials[0].cull = 2;
    let bytes = m.build();
    assert_eq!(
        load(&bytes).scene().groups()[0].flags & GroupFlags::DOUBLE_SIDED,
        0
    );
}

#[test]
fn alpha_compare_that_discards_makes_a_mask_cut_at_the_first_kept_alpha() {
    let bytes = materials(vec![
        // GREATER 127 AND ALWAYS: keeps 128 and up.
        MaterialState {
            alpha_compare: [4, 127, 0, 7, 0],
            ..MaterialState::default()
        },
        // GEQUAL 128 AND LEQUAL 255.
        MaterialState {
            alpha_compare: [6, 128, 0, 3, 255],
            ..MaterialState::default()
        },
        // GREATER 0 OR NEVER.
        MaterialState {
            alpha_compare: [4, 0, 1, 0, 0],
            ..MaterialState::default()
        },
        // ALWAYS OR ALWAYS: keeps everything.
        MaterialState::default(),
        // LESS 100: not a threshold a mask can express.
        MaterialState {
            alpha_compare: [1, 100, 0, 7, 0],
            ..MaterialState::default()
        },
    ])
    .build();
    let loaded = load(&bytes);
    let m = loaded.scene().materials();
    assert_eq!(
        (m[0].alpha_mode(), m[0].alpha_cutoff),
        (AlphaMode::Mask, 128.0 / 255.0)
    );
    assert_eq!(
        (m[1].alpha_mode(), m[1].alpha_cutoff),
        (AlphaMode::Mask, 128.0 / 255.0)
    );
    assert_eq!(
        (m[2].alpha_mode(), m[2].alpha_cutoff),
        (AlphaMode::Mask, 1.0 / 255.0)
    );
    assert_eq!(m[3].alpha_mode(), AlphaMode::Opaque);
    assert_eq!(m[4].alpha_mode(), AlphaMode::Opaque);
}

#[test]
fn blend_src_alpha_inv_src_alpha_is_blend_and_destination_one_is_additive() {
    let bytes = materials(vec![
        MaterialState {
            blend: [1, 4, 5, 3],
            ..MaterialState::default()
        },
        MaterialState {
            blend: [1, 4, 1, 3],
            ..MaterialState::default()
        },
        // Blend factors that do not use alpha: neither.
        MaterialState {
            blend: [0, 4, 5, 3],
            ..MaterialState::default()
        },
        // Blending and a cut-out together keep the cut-out's cutoff.
        MaterialState {
            blend: [1, 4, 5, 3],
            alpha_compare: [6, 10, 0, 7, 0],
            ..MaterialState::default()
        },
    ])
    .build();
    let loaded = load(&bytes);
    let m = loaded.scene().materials();
    assert_eq!(
        (m[0].alpha_mode(), m[0].blending()),
        (AlphaMode::Blend, Blending::Normal)
    );
    assert_eq!(
        (m[1].alpha_mode(), m[1].blending()),
        (AlphaMode::Blend, Blending::Additive)
    );
    assert_eq!(
        (m[2].alpha_mode(), m[2].blending()),
        (AlphaMode::Opaque, Blending::Normal)
    );
    assert_eq!(
        (m[3].alpha_mode(), m[3].alpha_cutoff),
        (AlphaMode::Blend, 10.0 / 255.0)
    );
}

#[test]
fn material_modes_0_1_and_4_are_all_accepted() {
    let bytes = materials(vec![
        MaterialState {
            mode: 0,
            ..MaterialState::default()
        },
        MaterialState::default(),
        MaterialState {
            mode: 4,
            ..MaterialState::default()
        },
    ])
    .build();
    assert_eq!(load(&bytes).scene().materials().len(), 3);
}

#[test]
fn the_minimal_mat3_reads_every_absent_pool_as_unused() {
    // The builder's default MAT3 keeps index 0 everywhere with no pools.
    let bytes = model(Vec::new()).build();
    let loaded = load(&bytes);
    let m = loaded.scene().materials()[0];
    assert_eq!(m.texture, -1);
    assert_eq!(m.cull(), CullMode::None);
    assert_eq!(m.base_color, [1.0; 4]);
    assert!(loaded.warnings().as_slice().is_empty());
}

// --- MAT3 typed accessors -------------------------------------------------------

#[test]
fn mat3_accessors_read_every_pool_of_the_full_layout() {
    let bytes = materials(vec![
        MaterialState {
            textures: vec![Some(1), None, Some(0)],
            konst_color: [1, 2, 3, 4],
            tev_color: [-5, 300, 7, 255],
            ambient_color: [9, 8, 7, 6],
            z_mode: [1, 7, 0],
            ..MaterialState::default()
        },
        MaterialState {
            mode: 4,
            ..MaterialState::default()
        },
    ])
    .build();
    let file = J3dFile::parse(&bytes).unwrap();
    let mat3 = Mat3::new(file.section(b"MAT3").unwrap()).unwrap();
    assert_eq!(mat3.len(), 2);
    assert!(mat3.check(2).unwrap().is_empty());
    let m = mat3.material(0).unwrap();
    assert_eq!(m.name().unwrap().0, b"m0");
    assert_eq!(m.mode(), 1);
    assert_eq!(mat3.material(1).unwrap().mode(), 4);
    assert_eq!(m.texture(0).unwrap(), Some(1));
    assert_eq!(m.texture(1).unwrap(), None);
    assert_eq!(m.texture(2).unwrap(), Some(0));
    assert_eq!(m.texture(8).unwrap(), None, "past the slots");
    assert_eq!(m.material_color(0).unwrap(), Some([255; 4]));
    assert_eq!(m.material_color(1).unwrap(), None);
    assert_eq!(m.ambient_color(0).unwrap(), Some([9, 8, 7, 6]));
    assert_eq!(m.channel_count().unwrap(), Some(1));
    let c = m.channel(0).unwrap().unwrap();
    assert!(!c.uses_vertex_color());
    assert_eq!(c.diffuse_function, 1);
    assert_eq!(m.light(0).unwrap(), None);
    assert_eq!(m.tex_gen_count().unwrap(), Some(1));
    let g = m.tex_gen(0).unwrap().unwrap();
    assert_eq!((g.kind, g.source, g.matrix), (1, 4, 60));
    assert_eq!(m.post_tex_gen(0).unwrap(), None, "absent pool");
    let tm = m.tex_matrix(0).unwrap().unwrap();
    assert_eq!(tm.scale[0].get(), 1.0);
    assert_eq!(tm.effect[5].get(), 1.0);
    assert_eq!(m.post_tex_matrix(0).unwrap(), None);
    assert_eq!(m.konst_color(0).unwrap(), Some([1, 2, 3, 4]));
    assert_eq!(m.konst_color_selector(0), Some(0x0C));
    assert_eq!(m.konst_alpha_selector(15), Some(0x1C));
    assert_eq!(m.konst_alpha_selector(16), None);
    assert_eq!(m.tev_color(0).unwrap(), Some([-5, 300, 7, 255]));
    assert_eq!(m.tev_stage_count().unwrap(), Some(1));
    let o = m.tev_order(0).unwrap().unwrap();
    assert_eq!((o.tex_coord, o.tex_map, o.channel), (0, 0, 4));
    let s = m.tev_stage(0).unwrap().unwrap();
    assert_eq!(s.color_in, [0xF, 8, 10, 0xF]);
    assert_eq!(m.tev_stage(1).unwrap(), None);
    assert_eq!(m.swap_mode(0).unwrap().unwrap().tex_table, 0);
    assert_eq!(m.swap_table(0).unwrap().unwrap().channels, [0, 1, 2, 3]);
    assert_eq!(m.fog().unwrap().unwrap().adjust_center.get(), 320);
    let a = m.alpha_compare().unwrap().unwrap();
    assert_eq!(a.test(), AlphaTest::KeepsAll);
    assert_eq!(m.blend_mode().unwrap().unwrap().mode, 0);
    let z = m.z_mode().unwrap().unwrap();
    assert_eq!((z.test, z.function, z.write), (1, 7, 0));
    assert_eq!(m.z_comp_loc().unwrap(), Some(true));
    assert_eq!(m.dither().unwrap(), Some(true));
    assert!(
        m.indirect().unwrap().is_none(),
        "indirect offset = name table's"
    );
}

// --- hostile MAT3 -------------------------------------------------------------

/// The built file, MAT3's file offset and the file offset of material 0's entry.
fn mat3_file(states: Vec<MaterialState>) -> (Vec<u8>, usize, usize) {
    let bytes = materials(states).build();
    let mat3 = section_offset(&bytes, b"MAT3");
    let entry = mat3 + be_u32(&bytes, mat3 + mat3_header::ENTRIES) as usize;
    (bytes, mat3, entry)
}

#[test]
fn an_index_whose_record_lies_past_mat3_is_bad_offset_at_the_index() {
    let (bytes, _, entry) = mat3_file(vec![MaterialState::default()]);
    for (field, wide) in [
        (0x01, false),
        (0x06, false),
        (0x08, true),
        (0xE4, true),
        (0x146, true),
    ] {
        let mut b = bytes.clone();
        if wide {
            b[entry + field..entry + field + 2].copy_from_slice(&0x7000u16.to_be_bytes());
        } else {
            b[entry + field] = 0xFE;
        }
        let e = measure_err(&b);
        assert_eq!(e.code(), ErrorCode::BadOffset, "field {field:#x}: {e}");
        assert_eq!(e.at().to_string(), format!("{:#x} MAT3", entry + field));
    }
}

#[test]
fn an_index_past_its_pool_but_inside_mat3_is_read_with_a_warning() {
    let (mut bytes, _, entry) = mat3_file(vec![MaterialState::default()]);
    // Material colour 1 of a one-colour pool: the next pool's bytes.
    bytes[entry + 0x0A..entry + 0x0C].copy_from_slice(&1u16.to_be_bytes());
    let loaded = load(&bytes);
    let w = loaded.warnings().as_slice();
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].code(), WarningCode::UnsupportedValue);
    assert_eq!(w[0].at().to_string(), format!("{:#x} MAT3", entry + 0x0A));
    assert!(
        w[0].message().starts_with("material colour"),
        "{}",
        w[0].message()
    );
}

#[test]
fn a_texture_slot_naming_no_tex1_texture_is_bad_offset() {
    let (bytes, mat3, _) = mat3_file(vec![MaterialState {
        textures: vec![Some(0)],
        ..MaterialState::default()
    }]);
    let table = mat3 + be_u32(&bytes, mat3 + mat3_header::TEXTURES) as usize;
    let mut b = bytes.clone();
    b[table..table + 2].copy_from_slice(&2u16.to_be_bytes());
    let e = measure_err(&b);
    assert_eq!(e.code(), ErrorCode::BadOffset);
    assert_eq!(e.at().to_string(), format!("{table:#x} MAT3"));
    assert!(e.message().contains("TEX1 has 2"), "{}", e.message());
}

#[test]
fn a_remap_entry_past_the_entry_table_is_bad_offset() {
    let (bytes, mat3, _) = mat3_file(vec![MaterialState::default()]);
    let remap = mat3 + be_u32(&bytes, mat3 + mat3_header::REMAP) as usize;
    let mut b = bytes.clone();
    b[remap..remap + 2].copy_from_slice(&1u16.to_be_bytes());
    let e = measure_err(&b);
    assert_eq!(e.code(), ErrorCode::BadOffset);
    assert_eq!(e.at().to_string(), format!("{remap:#x} MAT3"));
}

#[test]
fn a_cull_mode_outside_0_to_3_is_bad_value() {
    let (bytes, mat3, _) = mat3_file(vec![MaterialState::default()]);
    let cull = mat3 + be_u32(&bytes, mat3 + mat3_header::CULL) as usize;
    let mut b = bytes.clone();
    b[cull..cull + 4].copy_from_slice(&4u32.to_be_bytes());
    assert_eq!(measure_err(&b).code(), ErrorCode::BadValue);
}

#[test]
fn an_indirect_table_too_short_for_the_materials_is_bad_offset() {
    let (bytes, mat3, _) = mat3_file(vec![MaterialState::default()]);
    // Point the indirect table at the cull modes: a few bytes before the next pool.
    let cull = be_u32(&bytes, mat3 + mat3_header::CULL);
    let mut b = bytes.clone();
    let at = mat3 + mat3_header::INDIRECT;
    b[at..at + 4].copy_from_slice(&cull.to_be_bytes());
    assert_eq!(measure_err(&b).code(), ErrorCode::BadOffset);
}

#[test]
fn an_index_into_an_absent_pool_reads_as_unused() {
    let (mut bytes, mat3, entry) = mat3_file(vec![MaterialState::default()]);
    // Post tex matrices are absent; Nintendo files still keep indices 0..n.
    assert_eq!(be_u32(&bytes, mat3 + mat3_header::POST_TEX_MATRICES), 0);
    bytes[entry + 0x5C..entry + 0x5E].copy_from_slice(&3u16.to_be_bytes());
    let loaded = load(&bytes);
    assert!(loaded.warnings().as_slice().is_empty());
    assert_eq!(be_u16(&bytes, entry + 0x5C), 3);
}

/// `measure` and `load` agree on `bytes`: both succeed, or both fail with
/// the same file error (never a caller error such as ARENA_TOO_SMALL).
fn measure_and_load_agree(bytes: &[u8], what: &str) {
    let measured = scenedec::measure(bytes, None, &Options::default());
    match scenedec::load(bytes, None, &Options::default()) {
        Ok(_) => assert!(measured.is_ok(), "{what}: loads but does not measure"),
        Err(e) => {
            assert!(!e.code().is_caller_error(), "{what}: {e}");
            assert_eq!(measured.map(|_| ()), Err(e), "{what}");
        }
    }
}

#[test]
fn every_byte_of_mat3_and_tex1_corrupted_loads_or_fails_the_same_in_both_passes() {
    let mut c4 = TextureDef::new("c4", 0x8, 8, 8, vec![0x01; 32]);
    c4.palette = vec![0xF800, 0x07E0];
    let mut mips = TextureDef::new("mips", 0xE, 16, 16, vec![0xF8; 32 * 4 + 32]);
    mips.mip_count = 2;
    let mut shared = TextureDef::new("shared", 0x8, 8, 8, Vec::new());
    shared.share_data_of = Some(0);
    let mut m = materials(vec![
        MaterialState {
            textures: vec![Some(0), Some(1)],
            vertex_colors: true,
            ..MaterialState::default()
        },
        MaterialState {
            textures: vec![Some(2)],
            blend: [1, 4, 5, 3],
            ..MaterialState::default()
        },
    ]);
    m.textures = vec![c4, mips, shared];
    let bytes = m.build();
    for id in [b"MAT3", b"TEX1"] {
        let at = section_offset(&bytes, id);
        let size = be_u32(&bytes, at + 4) as usize;
        for i in at + 8..at + size {
            for value in [0x00, 0x01, 0x7F, 0xFF] {
                let mut b = bytes.clone();
                b[i] ^= value;
                measure_and_load_agree(&b, &format!("byte {i:#x} ^ {value:#x}"));
            }
        }
    }
}

// --- PNG export -----------------------------------------------------------------

/// A fresh folder under the system's temp dir for one test.
fn temp_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("scenedec-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn read_png(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut reader = png::Decoder::new(file).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn exported_model() -> Vec<u8> {
    let mut data = Vec::new();
    for value in [10u8, 20, 30] {
        data.extend(std::iter::repeat_n(value, 32));
    }
    let mut mips = TextureDef::new("with/mips", 0x1, 8, 4, data);
    mips.mip_count = 3;
    let mut gone = TextureDef::new("gone", 0x1, 8, 4, Vec::new());
    gone.no_data = true;
    let plain = TextureDef::new(
        "plain",
        0x4,
        4,
        4,
        filled(GxFormat::RGB565, 4, 4, &[0xF8, 0]),
    );
    model(vec![mips, gone, plain]).build()
}

#[test]
fn png_export_writes_level_0_as_index_name_and_mips_on_request() {
    let bytes = exported_model();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let dir = temp_dir("png-export");
    let written = scenedec::export::png::write_textures(&scene, &dir, false).unwrap();
    let names: Vec<String> = written
        .iter()
        .map(|p| p.file_name().unwrap().to_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        names,
        ["0_with_mips.png", "2_plain.png"],
        "missing textures are skipped"
    );
    let (w, h, pixels) = read_png(&written[1]);
    assert_eq!((w, h), (4, 4));
    assert_eq!(pixels, level(&scene, 2, 0));

    let written = scenedec::export::png::write_textures(&scene, &dir, true).unwrap();
    assert_eq!(written.len(), 4);
    let (w, h, pixels) = read_png(&dir.join("0_with_mips_mip2.png"));
    assert_eq!((w, h), (2, 1));
    assert_eq!(pixels, vec![30; 2 * 4]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn textures_command_writes_pngs_into_the_output_folder() {
    let dir = temp_dir("textures-command");
    let input = dir.with_extension("bmd");
    std::fs::write(&input, exported_model()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_scenedec"))
        .args([
            "textures",
            input.to_str().unwrap(),
            "-o",
            dir.to_str().unwrap(),
            "--mips",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "0_with_mips.png",
            "0_with_mips_mip1.png",
            "0_with_mips_mip2.png",
            "2_plain.png"
        ]
    );
    let (_, _, pixels) = read_png(&dir.join("0_with_mips_mip1.png"));
    assert_eq!(pixels, vec![20; 4 * 2 * 4]);
    // A file that does not load: exit status 1, nothing written.
    std::fs::write(&input, b"J3D2bmd3").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_scenedec"))
        .args([
            "textures",
            input.to_str().unwrap(),
            "-o",
            dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_file(&input).unwrap();
}
