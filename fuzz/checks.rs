//! The properties each fuzz target checks, shared with `tests/fuzz_regressions.rs`,
//! which replays every saved input under `fuzz/regressions/<target>/`.
//!
//! Each check panics when the property fails; the library itself must never
//! panic, so any panic (here or inside scenedec) is a finding.

#![allow(dead_code)]

extern crate alloc;

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use scenedec::json::{JsonError, Step, StreamTokenizer, Token, TokenKind, Tokenizer};

/// A token with its contents copied out, so tokens from different runs compare.
#[derive(Debug, PartialEq)]
pub enum Owned {
    BeginObject,
    EndObject,
    BeginArray,
    EndArray,
    Key(String),
    Str(String),
    Number(u64, String),
    Bool(bool),
    Null,
}

fn own(token: &Token<'_>) -> (Owned, u64) {
    let text = |s: &scenedec::json::JsonStr<'_>| {
        let mut buf = vec![0u8; s.raw_len()];
        String::from(
            s.decode(&mut buf)
                .expect("raw length bounds the decoded length"),
        )
    };
    let owned = match &token.kind {
        TokenKind::BeginObject => Owned::BeginObject,
        TokenKind::EndObject => Owned::EndObject,
        TokenKind::BeginArray => Owned::BeginArray,
        TokenKind::EndArray => Owned::EndArray,
        TokenKind::Key(s) => Owned::Key(text(s)),
        TokenKind::String(s) => Owned::Str(text(s)),
        TokenKind::Number(n) => Owned::Number(n.value().to_bits(), String::from(n.raw())),
        TokenKind::Bool(b) => Owned::Bool(*b),
        TokenKind::Null => Owned::Null,
    };
    (owned, token.offset)
}

/// Every token of `bytes` read whole, and the error that ended it, if any.
pub fn whole(bytes: &[u8], depth: usize) -> (Vec<(Owned, u64)>, Option<JsonError>) {
    let mut t = Tokenizer::new(bytes, depth);
    let mut out = Vec::new();
    loop {
        match t.next_token() {
            Ok(Some(tok)) => out.push(own(&tok)),
            Ok(None) => return (out, None),
            Err(e) => return (out, Some(e)),
        }
    }
}

/// The same, fed in chunks of `size` bytes.
pub fn chunked(bytes: &[u8], depth: usize, size: usize) -> (Vec<(Owned, u64)>, Option<JsonError>) {
    let mut scratch = vec![0u8; bytes.len() + 8];
    let mut t = StreamTokenizer::new(&mut scratch, depth);
    let mut chunks = bytes.chunks(size.max(1));
    let mut chunk: &[u8] = chunks.next().unwrap_or_default();
    let mut out = Vec::new();
    if bytes.is_empty() {
        t.finish();
    }
    loop {
        match t.next(&mut chunk) {
            Ok(Step::Token(tok)) => out.push(own(&tok)),
            Ok(Step::NeedMoreInput) => match chunks.next() {
                Some(c) => chunk = c,
                None => t.finish(),
            },
            Ok(Step::End) => return (out, None),
            Err(e) => return (out, Some(e)),
        }
    }
}

/// Whole and chunked tokenizing agree on every token and the first error,
/// for chunks of 1, 7, 4096 and a size taken from the input.
pub fn json_tokenizer(data: &[u8]) {
    let depth = 64;
    let expected = whole(data, depth);
    let from_input = usize::from(data.first().copied().unwrap_or(3) % 61) + 2;
    for size in [1, 7, 4096, from_input] {
        let got = chunked(data, depth, size);
        assert_eq!(
            got, expected,
            "chunks of {size} disagree with the whole input"
        );
    }
    // skip_value validates exactly as tokenizing does.
    let mut t = Tokenizer::new(data, depth);
    let skipped = t.skip_value().and_then(|_| t.next_token().map(|_| ()));
    assert_eq!(
        skipped.is_err(),
        expected.1.is_some(),
        "skip_value disagrees"
    );
}

/// Our tokenizer against serde_json on the same bytes (RFC 8259 both):
/// the same accept/reject verdict, the same token sequence, the same
/// decoded strings and the same f64 for every number.
///
/// Where the two may differ, by what RFC 8259 leaves to implementations,
/// and nowhere else:
/// - nesting: serde_json stops at 128 levels (RFC 8259 §9 lets a parser
///   limit depth); inputs it refuses for depth alone are not compared;
/// - numbers: serde_json's default float parser may be one unit in the
///   last place off (its `float_roundtrip` feature is exact, and costs
///   speed, so the benches' baseline does not enable it); where the two
///   differ, ours must equal Rust's correctly rounded `str::parse::<f64>`.
///   Integers serde_json reads as u64/i64 compare exactly (as f64), and
///   `-0` is −0.0 for us (RFC 8259 §6 gives the value of the text);
/// - range: a number past the f64 range is valid JSON whose value is
///   ±infinity for us (as for Rust's parser and `JSON.parse`), where
///   serde_json refuses it ("number out of range"; RFC 8259 §6 lets an
///   implementation limit the range it accepts). Allowed only when we
///   read such a number, or f64::MAX itself, which serde_json's default
///   parser can round past the range (`1.7976931348623158e308`).
///
/// Duplicate keys (RFC 8259 §4: "SHOULD be unique") are no difference:
/// both report every member in order, since neither is built into a map.
pub fn json_differential(data: &[u8]) {
    let (ours, error) = whole(data, 512);
    let theirs = serde_tokens(data);
    match (&error, &theirs) {
        (None, Ok(tokens)) => {
            assert_eq!(ours.len(), tokens.len(), "token counts differ");
            for ((mine, offset), other) in ours.iter().zip(tokens) {
                assert!(
                    same_token(mine, other),
                    "token at {offset} differs: ours {mine:?}, serde_json {other:?}"
                );
            }
        }
        (Some(_), Err(e)) if e.is_eof() || e.is_syntax() || e.is_data() => {}
        (_, Err(e)) if e.to_string().starts_with("recursion limit exceeded") => {}
        (None, Err(e))
            if e.to_string().starts_with("number out of range")
                && ours.iter().any(|(t, _)| {
                    matches!(t, Owned::Number(bits, _) if f64::from_bits(*bits).abs() >= f64::MAX)
                }) => {}
        (None, Err(e)) => panic!("we accept what serde_json refuses: {e}"),
        (Some(e), Ok(_)) => panic!("we refuse what serde_json accepts: {e:?}"),
        (Some(_), Err(e)) => panic!("serde_json failed unexpectedly: {e}"),
    }
}

/// A token as serde_json reports it.
#[derive(Debug)]
pub enum SerdeToken {
    Begin(bool),
    End(bool),
    Key(String),
    Str(String),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Bool(bool),
    Null,
}

fn same_token(ours: &Owned, theirs: &SerdeToken) -> bool {
    let number = |bits: u64, raw: &str, value: f64| {
        bits == value.to_bits()
            // serde_json's float may be off by one ulp; ours must then be exact.
            || raw.parse::<f64>().is_ok_and(|exact| exact.to_bits() == bits)
    };
    match (ours, theirs) {
        (Owned::BeginObject, SerdeToken::Begin(true))
        | (Owned::BeginArray, SerdeToken::Begin(false))
        | (Owned::EndObject, SerdeToken::End(true))
        | (Owned::EndArray, SerdeToken::End(false))
        | (Owned::Null, SerdeToken::Null) => true,
        (Owned::Key(a), SerdeToken::Key(b)) | (Owned::Str(a), SerdeToken::Str(b)) => a == b,
        (Owned::Bool(a), SerdeToken::Bool(b)) => a == b,
        (Owned::Number(bits, raw), SerdeToken::Unsigned(u)) => number(*bits, raw, *u as f64),
        (Owned::Number(bits, raw), SerdeToken::Signed(i)) => number(*bits, raw, *i as f64),
        (Owned::Number(bits, raw), SerdeToken::Float(f)) => number(*bits, raw, *f),
        _ => false,
    }
}

/// Every token serde_json reads from `data` (one value, then only
/// whitespace), in document order.
pub fn serde_tokens(data: &[u8]) -> Result<Vec<SerdeToken>, serde_json::Error> {
    use serde::de::DeserializeSeed;
    let mut out = Vec::new();
    let mut de = serde_json::Deserializer::from_slice(data);
    Collect(&mut out).deserialize(&mut de)?;
    de.end()?;
    Ok(out)
}

/// Collects one value's tokens (serde's visitor interface, recursively).
struct Collect<'v>(&'v mut Vec<SerdeToken>);

impl<'de> serde::de::DeserializeSeed<'de> for Collect<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Collect<'_> {
    type Value = ();
    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<(), E> {
        self.0.push(SerdeToken::Bool(v));
        Ok(())
    }
    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        self.0.push(SerdeToken::Unsigned(v));
        Ok(())
    }
    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        self.0.push(SerdeToken::Signed(v));
        Ok(())
    }
    fn visit_f64<E>(self, v: f64) -> Result<(), E> {
        self.0.push(SerdeToken::Float(v));
        Ok(())
    }
    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        self.0.push(SerdeToken::Str(String::from(v)));
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        self.0.push(SerdeToken::Null);
        Ok(())
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.push(SerdeToken::Begin(false));
        while seq.next_element_seed(Collect(self.0))?.is_some() {}
        self.0.push(SerdeToken::End(false));
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.0.push(SerdeToken::Begin(true));
        while let Some(key) = map.next_key::<String>()? {
            self.0.push(SerdeToken::Key(key));
            map.next_value_seed(Collect(self.0))?;
        }
        self.0.push(SerdeToken::End(true));
        Ok(())
    }
}

/// Yaz0: decompression never panics; whatever decompresses re-compresses and
/// round-trips; the declared size is never exceeded.
pub fn yaz0(data: &[u8]) {
    use scenedec::yaz0;
    let Ok(len) = yaz0::decompressed_len(data) else {
        return;
    };
    if len > 1 << 20 {
        return; // the fuzzer's memory, not the library's bound
    }
    let mut out = vec![0u8; len];
    if yaz0::decompress_into(data, &mut out).is_ok() {
        let mut again = vec![0u8; len];
        let packed = compress(&out);
        yaz0::decompress_into(&packed, &mut again).expect("own output decompresses");
        assert_eq!(again, out);
    }
}

/// A literal-only Yaz0 encoder (the library's encoder is std-only).
fn compress(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"Yaz0");
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(&[0; 8]);
    for group in data.chunks(8) {
        out.push(0xFF);
        out.extend_from_slice(group);
    }
    out
}

/// Any bytes through the whole pipeline with small limits: a typed error or a
/// scene, never a panic; decode_into stays within the plan (and fails only
/// with the errors that need decode's memory to find).
pub fn load(data: &[u8]) {
    use scenedec::{Arena, Options, Warnings};
    let mut options = Options::default();
    options.j3d.limits.max_file_bytes = 1 << 20;
    options.bbmodel.limits.max_file_bytes = 1 << 20;
    // Decoded .bbmodel images: a few MiB at most per input.
    options.bbmodel.limits.max_texture_bytes = 4 << 20;
    let Ok(len) = scenedec::unwrapped_len(data, &options) else {
        return;
    };
    let mut unwrap_memory = vec![0u64; len.div_ceil(8) + 1];
    let mut unwrap_arena = Arena::from_words(&mut unwrap_memory);
    let Ok(model) = scenedec::unwrap_into(data, &options, &mut unwrap_arena) else {
        return;
    };
    for hint in [None, Some("bbmodel")] {
        let Ok(plan) = scenedec::measure(model, hint, &options) else {
            continue;
        };
        let mut memory = vec![0u64; plan.arena_words()];
        let mut arena = Arena::from_words(&mut memory);
        let mut warnings = Warnings::new();
        // A measured file decodes, or fails with an error measure cannot see
        // without memory (.bbmodel duplicate uuids, unknown mesh vertex
        // keys), never for want of arena.
        if let Err(e) = scenedec::decode_into(model, hint, &options, &mut arena, &mut warnings) {
            assert_ne!(
                e.code(),
                scenedec::ErrorCode::ArenaTooSmall,
                "decode outgrew its plan: {e}"
            );
            continue;
        }
        if plan.arena_bytes() > 0 {
            // One byte short fails cleanly.
            let mut short = vec![0u64; plan.arena_words()];
            let bytes = scenedec::arena::words_as_bytes(&mut short);
            let mut arena = Arena::new(&mut bytes[..plan.arena_bytes() - 1]);
            let e = scenedec::decode_into(model, hint, &options, &mut arena, &mut warnings)
                .expect_err("one byte short must fail");
            assert_eq!(e.code(), scenedec::ErrorCode::ArenaTooSmall);
        }
    }
}

/// J3D: any bytes (plain, and wrapped in Yaz0) through measure and
/// decode_into with small limits; decode stays within the plan.
pub fn j3d(data: &[u8]) {
    use scenedec::{Arena, Options, Warnings};
    let mut options = Options::default();
    let limits = &mut options.j3d.limits;
    limits.max_file_bytes = 1 << 20;
    limits.max_vertices = 1 << 16;
    limits.max_triangles = 1 << 16;
    limits.max_display_list_bytes = 1 << 16;
    let measured = scenedec::j3d::measure(data, &options.j3d);
    // `load` counts without checking the attribute indices (its fill pass
    // does), yet must end exactly as measure and then decode would, where it
    // reads the bytes as J3D (it unwraps Yaz0 and sends JSON elsewhere).
    let as_j3d = matches!(
        scenedec::format_of(data, None),
        Ok(scenedec::scene::Format::J3d)
    );
    let loaded = if as_j3d {
        Some(scenedec::load(data, None, &options))
    } else {
        None
    };
    let Ok(plan) = measured else {
        if let (Err(e), Some(loaded)) = (&measured, &loaded) {
            assert_eq!(loaded.as_ref().err(), Some(e), "load fails as measure does");
        }
        return;
    };
    let mut memory = vec![0u64; plan.arena_words()];
    let mut arena = Arena::from_words(&mut memory);
    let mut warnings = Warnings::new();
    let scene = scenedec::j3d::decode_into(data, &options.j3d, &mut arena, &mut warnings)
        .expect("decode_into succeeds with the arena measure planned");
    if let Some(loaded) = &loaded {
        let loaded = loaded.as_ref().expect("load succeeds where measure does");
        assert_eq!(
            loaded.scene().counts(),
            scene.counts(),
            "load decodes what decode_into does"
        );
    }
    assert!(arena.used() <= plan.arena_bytes());
    // Every index points inside its mesh.
    for mesh in scene.meshes() {
        let start = mesh.first_index as usize;
        for &i in &scene.indices()[start..start + mesh.index_count as usize] {
            assert!(
                i < mesh.vertex_count,
                "index {i} past {} vertices",
                mesh.vertex_count
            );
        }
    }
}

/// The sample model whose MAT3 or TEX1 `j3d_textures` replaces.
const PYRAMID: &[u8] = include_bytes!("../samples/pyramid.bmd");

/// `model` with the body (bytes after id and size) of section `id` replaced
/// by `body`, section and file sizes patched; `None` if `model` has no such
/// section.
fn splice(model: &[u8], id: &[u8; 4], body: &[u8]) -> Option<Vec<u8>> {
    let be = |at: usize| -> Option<usize> {
        Some(u32::from_be_bytes(model.get(at..at + 4)?.try_into().ok()?) as usize)
    };
    let count = be(12)?;
    let mut at = 0x20;
    for _ in 0..count {
        let size = be(at + 4)?;
        if model.get(at..at + 4)? == id {
            let mut out = model.get(..at + 4)?.to_vec();
            out.extend_from_slice(&((8 + body.len()) as u32).to_be_bytes());
            out.extend_from_slice(body);
            out.extend_from_slice(model.get(at + size..)?);
            let total = out.len() as u32;
            out.get_mut(8..12)?.copy_from_slice(&total.to_be_bytes());
            return Some(out);
        }
        at += size;
    }
    None
}

/// TEX1 and MAT3, from a whole J3D file (input starting `J3D2`) or from a
/// section body spliced into the sample pyramid (first byte even: MAT3, odd:
/// TEX1). `measure` and `decode_into` agree; a decoded scene's textures,
/// mips and materials point inside its arrays, and each level has the size
/// the halving rule gives; the typed MAT3 and TEX1 readers answer every
/// accessor without panicking.
pub fn j3d_textures(data: &[u8]) {
    use scenedec::j3d::J3dFile;
    use scenedec::j3d::mat3::{Field, Mat3};
    use scenedec::j3d::tex1::Tex1;
    use scenedec::{Arena, Options, Warnings};

    let spliced;
    let model = if data.starts_with(b"J3D2") {
        data
    } else {
        let Some((&mode, body)) = data.split_first() else {
            return;
        };
        let id = if mode % 2 == 0 { b"MAT3" } else { b"TEX1" };
        let Some(file) = splice(PYRAMID, id, body) else {
            return;
        };
        spliced = file;
        &spliced
    };
    let mut options = Options::default();
    options.j3d.limits.max_file_bytes = 1 << 20;
    options.j3d.limits.max_texture_bytes = 16 << 20;

    let measured = scenedec::measure(model, None, &options);
    let mut warnings = Warnings::new();
    match measured {
        Ok(plan) => {
            let mut memory = vec![0u64; plan.arena_words()];
            let mut arena = Arena::from_words(&mut memory);
            let scene = scenedec::decode_into(model, None, &options, &mut arena, &mut warnings)
                .expect("decode_into succeeds where measure did");
            let pixels = scene.pixels().len();
            for t in scene.textures() {
                let first = t.first_mip as usize;
                let mips = scene
                    .mips()
                    .get(first..first + t.mip_count as usize)
                    .expect("a texture's mips lie in the mip array");
                let (mut w, mut h) = (t.width, t.height);
                for m in mips {
                    assert_eq!((m.width, m.height), (w, h), "mip sizes halve");
                    let end = m.offset as usize + (m.width * m.height * 4) as usize;
                    assert!(end <= pixels, "a level lies in the pixel array");
                    (w, h) = ((w / 2).max(1), (h / 2).max(1));
                }
            }
            for m in scene.materials() {
                assert!(
                    m.texture >= -1 && (m.texture as i64) < scene.textures().len() as i64,
                    "a material's texture exists"
                );
            }
        }
        Err(_) => {
            let mut memory = vec![0u64; 1 << 12];
            let mut arena = Arena::from_words(&mut memory);
            let decoded = scenedec::decode_into(model, None, &options, &mut arena, &mut warnings);
            assert!(decoded.is_err(), "decode_into accepts what measure rejects");
        }
    }

    // The typed readers, on whatever the file holds.
    let Ok(file) = J3dFile::parse(model) else {
        return;
    };
    if let Some(Ok(mat3)) = file.section(b"MAT3").map(Mat3::new) {
        let _ = mat3.check(usize::MAX);
        for i in 0..mat3.len() {
            let Ok(m) = mat3.material(i) else { continue };
            for field in Field::ALL {
                for slot in 0..=field.slots {
                    let _ = m.resolve(field, slot);
                }
            }
            for slot in 0..17 {
                let _ = (m.channel(slot), m.tex_matrix(slot), m.tev_stage(slot));
                let _ = (
                    m.tev_color(slot),
                    m.texture(slot),
                    m.konst_alpha_selector(slot),
                );
                let _ = (m.light(slot), m.swap_mode(slot), m.swap_table(slot));
            }
            let _ = (m.fog(), m.alpha_compare(), m.blend_mode(), m.z_mode());
            let _ = (m.z_comp_loc(), m.dither(), m.indirect(), m.cull_mode());
        }
    }
    if let Some(Ok(tex1)) = file.section(b"TEX1").map(Tex1::new) {
        for i in 0..tex1.len().min(64) {
            if let Ok(t) = tex1.texture(i)
                && t.texels() <= 1 << 20
            {
                let _ = t.check_palette_indices();
            }
        }
    }
}

/// .bbmodel: any bytes through measure and decode_into with small limits.
/// Input that is not strict JSON fails measure as NOT_JSON (syntax first).
/// A measured file decodes, or fails with a typed error that measure cannot
/// see without memory (duplicate uuids, unknown mesh keys); never with
/// ARENA_TOO_SMALL: decode needs no more than the plan.
pub fn bbmodel(data: &[u8]) {
    use scenedec::{Arena, BbmodelLimits, ErrorCode, Warnings};
    let limits = BbmodelLimits {
        max_file_bytes: 1 << 20,
        max_elements: 256,
        max_groups: 256,
        max_triangles: 1 << 14,
        max_vertices: 1 << 15,
        max_textures: 16,
        max_keyframes: 1024,
        // Images are decoded now: keep each run's pixels small.
        max_texture_side: 256,
        max_texture_pixels: 1 << 16,
        max_texture_bytes: 1 << 20,
        ..BbmodelLimits::default()
    };
    let options = scenedec::bbmodel::Options {
        limits,
        texture_files: &[],
    };
    // Strict JSON first (after one byte order mark, which the reader skips
    // as Blockbench's `autoParseJSON` does): input the tokenizer rejects (at
    // the reader's depth bound, 1024) never measures, and fails as not JSON
    // (or as an outliner nested too deep), whatever else is wrong with it.
    let mut tokens = scenedec::json::Tokenizer::after_byte_order_mark(data, 1024);
    let json_ok = loop {
        match tokens.next_token() {
            Ok(Some(_)) => {}
            Ok(None) => break true,
            Err(_) => break false,
        }
    };
    let measured = scenedec::bbmodel::measure(data, &options);
    // `load` counts without checking what its fill pass checks, yet must
    // end exactly as measure and then decode would (where it reads the
    // bytes as a .bbmodel: it unwraps Yaz0 and sends J3D to its reader).
    let as_bbmodel = matches!(
        scenedec::format_of(data, Some("bbmodel")),
        Ok(scenedec::scene::Format::Bbmodel)
    );
    let loaded = scenedec::load(
        data,
        Some("bbmodel"),
        &scenedec::Options {
            bbmodel: options,
            ..scenedec::Options::default()
        },
    );
    if let (Err(e), true) = (&measured, as_bbmodel) {
        assert_eq!(loaded.as_ref().err(), Some(e), "load fails as measure does");
    }
    if !json_ok {
        let code = match &measured {
            Ok(_) => panic!("input that is no JSON measured"),
            Err(e) => e.code(),
        };
        assert!(
            matches!(code, ErrorCode::NotJson | ErrorCode::NestingTooDeep),
            "input that is no JSON failed with {code:?}"
        );
    }
    let Ok(plan) = measured else {
        return;
    };
    let mut memory = vec![0u64; plan.arena_words()];
    let mut arena = Arena::from_words(&mut memory);
    let mut warnings = Warnings::new();
    let decoded =
        scenedec::bbmodel::decode_with_plan(data, &options, &plan, &mut arena, &mut warnings);
    match (&decoded, &loaded, as_bbmodel) {
        (_, _, false) => {}
        (Ok(scene), Ok(l), _) => {
            assert_eq!(scene.counts(), l.scene().counts(), "load decodes alike");
            // `load` plans cubes by their bound: never under `measure`,
            // and within the limits like it.
            assert!(l.arena_bytes() >= plan.arena_bytes(), "load under measure");
            let whole = scenedec::Options {
                bbmodel: options,
                ..scenedec::Options::default()
            };
            let bound = scenedec::load_plan(data, Some("bbmodel"), &whole).expect("load_plan");
            let counts = bound.counts();
            assert!(counts.positions as u64 <= options.limits.max_vertices);
            assert!((counts.indices / 3) as u64 <= options.limits.max_triangles);
        }
        (Err(e), Err(l), _) => assert_eq!(e, l, "load fails as decode does"),
        _ => panic!("load and measure + decode disagree"),
    }
    match decoded {
        Ok(scene) => {
            for mesh in scene.meshes() {
                let start = mesh.first_index as usize;
                for &i in &scene.indices()[start..start + mesh.index_count as usize] {
                    assert!(
                        i < mesh.vertex_count,
                        "index {i} past {} vertices",
                        mesh.vertex_count
                    );
                }
            }
        }
        Err(e) => assert_ne!(
            e.code(),
            ErrorCode::ArenaTooSmall,
            "decode outgrew its plan: {e}"
        ),
    }
}

#[path = "../tests/support/png.rs"]
mod png_support;

/// Largest side the `png` target decodes (bigger headers are refused
/// before anything is fed, as a caller's limits would).
const PNG_FUZZ_SIDE: u32 = 512;

/// The PNG decoder: no panic; validation's verdict is the decode's; pieces
/// of a size taken from the input give the same result as one feed; where
/// the png crate also decodes, the same RGBA8.
pub fn png(data: &[u8]) {
    // The IHDR's size fields as stored, CRC or not, so the png crate
    // never allocates for a header only it would read.
    let side = |at: usize| {
        data.get(at..at + 4)
            .map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    if side(16) > PNG_FUZZ_SIDE || side(20) > PNG_FUZZ_SIDE {
        return;
    }
    let whole = png_support::decode(data, 0);
    let verdict = whole.as_ref().map(|(h, _)| *h).map_err(|e| *e);
    assert_eq!(
        png_support::validate(data, 0),
        verdict,
        "validate disagrees with decode"
    );
    let piece = data.iter().fold(0usize, |a, &b| {
        a.wrapping_mul(31).wrapping_add(usize::from(b))
    }) % 97
        + 1;
    assert_eq!(
        png_support::decode(data, piece),
        whole,
        "pieces of {piece} disagree"
    );
    // The oracle runs only on files scenedec accepts: the png crate itself
    // panics on some malformed palettes that scenedec refuses.
    if let Ok((_, ours)) = &whole
        && let Ok((_, _, theirs)) = png_support::png_crate_rgba8(data)
    {
        assert!(*ours == theirs, "RGBA8 differs from the png crate's");
    }
}

/// Sampling a loaded .bbmodel: every clip at its start, middle and end and
/// at a time taken from the input's first four bytes never panics; a finite
/// time ≥ 0 always samples, any other fails BAD_VALUE; world matrices are
/// taken of every pose (finite or not: keyframe values may overflow f32
/// through deep nesting, which is no error).
pub fn pose(data: &[u8]) {
    use scenedec::ErrorCode;
    use scenedec::scene::{Mat4, NodePose, world_matrices};
    let limits = scenedec::BbmodelLimits {
        max_file_bytes: 1 << 20,
        max_elements: 256,
        max_groups: 256,
        max_triangles: 1 << 14,
        max_vertices: 1 << 15,
        max_textures: 4,
        max_keyframes: 4096,
        max_texture_side: 64,
        max_texture_pixels: 1 << 12,
        max_texture_bytes: 1 << 16,
        ..scenedec::BbmodelLimits::default()
    };
    let mut options = scenedec::Options::default();
    options.bbmodel.limits = limits;
    let Ok(loaded) = scenedec::load(data, Some("bbmodel"), &options) else {
        return;
    };
    let scene = loaded.scene();
    let extra = data
        .get(..4)
        .map_or(0.5, |b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let mut poses = vec![NodePose::default(); scene.nodes().len()];
    let mut world = vec![Mat4::IDENTITY; scene.nodes().len()];
    for (clip, record) in scene.animations().iter().enumerate() {
        for t in [0.0, record.length / 2.0, record.length, extra] {
            match scene.sample(clip, t, &mut poses) {
                Ok(()) => {
                    assert!(t.is_finite() && t >= 0.0, "sampled at {t}");
                    // Keyframe values are within ±10⁶ and rest transforms
                    // finite, so every local pose is finite (world matrices
                    // may overflow through deep scales and are not checked).
                    assert!(
                        poses.iter().all(|p| {
                            [p.translation, p.rotation, p.scale, p.pivot]
                                .iter()
                                .flatten()
                                .all(|v| v.is_finite())
                        }),
                        "clip {clip} at {t}: a pose that is not finite"
                    );
                }
                Err(e) => assert!(
                    e.code() == ErrorCode::BadValue && !(t.is_finite() && t >= 0.0),
                    "clip {clip} at {t}: {e}"
                ),
            }
            world_matrices(&scene, &poses, &mut world);
        }
    }
    let past = scene.animations().len();
    assert!(scene.sample(past, 0.0, &mut poses).is_err());
}

#[path = "../tests/support/inflate.rs"]
mod inflate_support;

/// Output past which the `inflate` target compares prefixes only.
const INFLATE_FUZZ_LIMIT: usize = 1 << 20;

/// The inflater against miniz_oxide on any bytes as a zlib stream: the
/// same verdict and the same bytes, through a slid window and a ring,
/// whole and in pieces.
pub fn inflate(data: &[u8]) {
    use inflate_support::{Window, miniz, ours};
    let theirs = miniz(data, INFLATE_FUZZ_LIMIT);
    let piece = data.iter().fold(0usize, |a, &b| {
        a.wrapping_mul(31).wrapping_add(usize::from(b))
    }) % 97
        + 1;
    // Where miniz_oxide and zlib differ on a malformed stream (miniz_oxide
    // refuses a cut stream early in places, and reads past a code that
    // zlib refuses), zlib decides: computed only when needed.
    let mut zlib = None;
    for (window, piece) in [
        (Window::Slid, usize::MAX),
        (Window::Ring, usize::MAX),
        (Window::Slid, piece),
        (Window::Ring, piece),
    ] {
        let mine = ours(data, piece, window, INFLATE_FUZZ_LIMIT);
        if mine == theirs {
            continue;
        }
        let zlib = zlib.get_or_insert_with(|| zlib_verdict(data, INFLATE_FUZZ_LIMIT));
        assert!(
            same_outcome(&mine, zlib),
            "{window:?}, pieces of {piece}: ours {} miniz_oxide {} zlib {}",
            inflate_brief(&mine),
            inflate_brief(&theirs),
            inflate_brief(zlib)
        );
    }
}

/// zlib's verdict on `data` (through zlib-rs), up to `limit` bytes out. zlib
/// says only that a stream is refused, not whether for its Adler-32.
fn zlib_verdict(data: &[u8], limit: usize) -> inflate_support::Verdict {
    use inflate_support::Verdict;
    let mut z = zlib_rs::Inflate::new(true, 15);
    let mut out = alloc::vec![0u8; limit];
    let result = z.decompress(data, &mut out, zlib_rs::InflateFlush::Finish);
    let written = usize::try_from(z.total_out()).unwrap_or(limit).min(limit);
    out.truncate(written);
    match result {
        Ok(zlib_rs::Status::StreamEnd) if written < limit => Verdict::Ok(out),
        _ if written >= limit => Verdict::Long(out),
        Ok(_) => Verdict::Truncated,
        Err(_) => Verdict::Refused { adler32: false },
    }
}

/// The same outcome, a refusal for any reason matching any other.
fn same_outcome(a: &inflate_support::Verdict, b: &inflate_support::Verdict) -> bool {
    use inflate_support::Verdict;
    match (a, b) {
        (Verdict::Refused { .. }, Verdict::Refused { .. }) => true,
        _ => a == b,
    }
}

fn inflate_brief(v: &inflate_support::Verdict) -> String {
    use inflate_support::Verdict;
    match v {
        Verdict::Ok(b) => alloc::format!("ok ({} bytes)", b.len()),
        Verdict::Long(b) => alloc::format!("long ({} bytes)", b.len()),
        other => alloc::format!("{other:?}"),
    }
}

/// `<lz>` (LZ-UTF8): any bytes, as a whole file when they start with `<lz>`,
/// else as the compressed stream packed into lzutf8's StorageBinaryString
/// text. The walk and the decompression agree (a measured stream
/// decompresses into exactly its size and fails the size limit one below
/// it), and the output is what a plain reading of lzutf8's decompressor
/// gives.
pub fn lzutf8(data: &[u8]) {
    use scenedec::lzutf8::{decompress_into, decompressed_len};
    let (file, stream) = if data.starts_with(b"<lz>") {
        (data.to_vec(), None)
    } else {
        (storage_binary_string(data), Some(data))
    };
    let measured = decompressed_len(&file, 1 << 22);
    if let Some(stream) = stream {
        // A packed stream's text is always well formed: only the stream can fail.
        assert_eq!(
            measured.as_ref().ok(),
            lzutf8_reference(stream).as_ref().map(Vec::len).as_ref(),
            "walk vs reference"
        );
    }
    let Ok(len) = measured else {
        return;
    };
    let mut out = vec![0u8; len];
    let got = decompress_into(&file, &mut out).expect("a measured stream decompresses");
    if let Some(stream) = stream {
        assert_eq!(Some(got), lzutf8_reference(stream).as_deref());
    }
    if len > 0 {
        let e = decompressed_len(&file, len as u64 - 1).unwrap_err();
        assert_eq!(e.code(), scenedec::ErrorCode::FileTooLarge);
    }
}

/// lzutf8's `decompressBlock` read plainly, into a growing vector; `None`
/// where lzutf8 would read before the output or stop inside a sequence.
fn lzutf8_reference(input: &[u8]) -> Option<Vec<u8>> {
    let mut out: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < input.len() {
        let b = input[i];
        if b >> 6 != 3 {
            out.push(b);
            i += 1;
            continue;
        }
        let next = *input.get(i + 1)?;
        if next >> 7 == 1 {
            out.push(b);
            i += 1;
            continue;
        }
        let (distance, step) = if b >> 5 == 6 {
            (next as usize, 2)
        } else {
            (((next as usize) << 8) | *input.get(i + 2)? as usize, 3)
        };
        if distance == 0 || distance > out.len() {
            return None;
        }
        for _ in 0..(b & 31) {
            out.push(out[out.len() - distance]);
        }
        i += step;
    }
    if out.len() > 1 << 22 {
        return None;
    }
    Some(out)
}

/// lzutf8's `StorageBinaryString.encode`: 15 bits a unit, U+8002 for 0, and
/// U+8000 | (length odd) last; an odd length padded with a zero byte.
fn storage_binary_string(bytes: &[u8]) -> Vec<u8> {
    let mut padded = bytes.to_vec();
    if bytes.len() % 2 == 1 {
        padded.push(0);
    }
    let mut units = Vec::new();
    let bits = padded.len() * 8;
    let mut at = 0;
    while at < bits {
        let mut unit = 0u32;
        for k in 0..15 {
            let bit = padded
                .get((at + k) / 8)
                .map_or(0, |b| (b >> (7 - (at + k) % 8)) & 1);
            unit = unit << 1 | u32::from(bit);
        }
        units.push(unit);
        at += 15;
    }
    units.push(0x8000 | (bytes.len() % 2) as u32);
    let mut out = b"<lz>".to_vec();
    for unit in units {
        let unit = if unit == 0 { 0x8002 } else { unit };
        let mut buf = [0u8; 4];
        out.extend_from_slice(
            char::from_u32(unit)
                .unwrap()
                .encode_utf8(&mut buf)
                .as_bytes(),
        );
    }
    out
}
