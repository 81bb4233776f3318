//! Hostile J3D input: every limit at its value and one past it, every
//! truncation and single-byte corruption of a small model, and each kind of
//! broken reference or structure. Each must give a typed `scenedec::Error`
//! (its code, and where it says where, the place) and never panic or hang.
//!
//! `J3dLimits::max_textures`, `max_texture_side` and `max_texture_pixels`
//! bound TEX1, which the scene did not read when this file was written: they
//! are not tested here (tests/j3d_textures.rs covers TEX1).

mod support;

use scenedec::error::SectionId;
use scenedec::{Error, ErrorCode, J3dLimits, Loaded, Location, Options};
use support::j3d_writer::{
    ArrayDef, JointDef, MaterialDef, ModelBuilder, PacketDef, PutBe, SECTION_ORDER, ShapeDef, attr,
    be_u32, display_list_offset, draw, find_section, input, padded, prim, section_offset,
    vertex_array_offset,
};

// ---------------------------------------------------------------------------
// Helpers

fn options(limits: J3dLimits) -> Options<'static> {
    Options {
        j3d: scenedec::j3d::Options {
            limits,
            ..Default::default()
        },
        ..Default::default()
    }
}

fn try_load(bytes: &[u8]) -> Result<Loaded<'_>, Error> {
    scenedec::load(bytes, None, &Options::default())
}

fn load(bytes: &[u8]) -> Loaded<'_> {
    try_load(bytes).unwrap_or_else(|e| panic!("load failed: {e} (at {})", e.at()))
}

/// Loads `bytes`, expecting `code` at a place inside `section`.
#[track_caller]
fn expect_err(bytes: &[u8], code: ErrorCode, section: &str) -> Error {
    expect_err_with(bytes, &Options::default(), code, section)
}

#[track_caller]
fn expect_err_with(bytes: &[u8], options: &Options<'_>, code: ErrorCode, section: &str) -> Error {
    let e = match scenedec::load(bytes, None, options) {
        Ok(_) => panic!("expected {code:?} in {section}, but the model loaded"),
        Err(e) => e,
    };
    assert_eq!(e.code(), code, "{e} (at {})", e.at());
    let at = e.at().to_string();
    assert!(
        at.ends_with(&format!(" {section}")),
        "{code:?} should be placed in {section}, is at {at:?}: {e}"
    );
    assert!(!e.message().is_empty());
    e
}

fn binary(offset: usize, section: &[u8; 4]) -> Location {
    Location::Binary {
        offset: offset as u64,
        section: Some(SectionId(*section)),
    }
}

fn u16be(v: u16) -> [u8; 2] {
    v.to_be_bytes()
}

fn vx(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

fn seq(n: u16) -> Vec<Vec<u8>> {
    (0..n).map(|i| u16be(i).to_vec()).collect()
}

/// The simplest model: one joint, one material, three F32 positions, one
/// triangle of POS INDEX16 vertices.
fn triangle() -> ModelBuilder {
    ModelBuilder::single_shape(
        &[[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        draw(prim::TRIANGLES, &seq(3)),
    )
}

/// A small model that uses every section and most features: two joints under
/// the Maya rule, an envelope, three draw matrices, two materials, POS NRM
/// CLR0 TEX0 arrays, a multi-matrix shape of two packets (a 0xFFFF slot, a
/// strip, a points primitive) and a second shape with a quad and a matrix load.
fn small_model() -> ModelBuilder {
    let mut root = JointDef::new("root", None);
    root.translation = [1.0, 2.0, 3.0];
    root.rotation = [0x1000, 0, -0x0800];
    root.scale = [2.0, 2.0, 2.0];
    let mut child = JointDef::new("child", Some(0));
    child.calc_flags = 1;
    child.translation = [0.0, 4.0, 0.0];
    let mut m = triangle();
    m.scaling_rule = 2;
    m.joints = vec![root, child];
    m.materials = vec![
        MaterialDef {
            name: "a".into(),
            cull: 0,
        },
        MaterialDef {
            name: "b".into(),
            cull: 2,
        },
    ];
    m.arrays = vec![
        ArrayDef::new(
            attr::POS,
            1,
            3,
            8,
            [
                0x0100u16, 0, 0, 0, 0x0100, 0, 0, 0, 0x0100, 0x0080, 0x0080, 0,
            ]
            .iter()
            .flat_map(|v| v.to_be_bytes())
            .collect(),
        ),
        ArrayDef::new(attr::NRM, 0, 1, 6, vec![0x40, 0, 0, 0, 0, 0x40]),
        ArrayDef::new(attr::CLR0, 1, 0, 0, vec![0xF8, 0x1F, 0x07, 0xE0]),
        ArrayDef::new(attr::tex(0), 1, 0, 7, vec![0x80, 0x40, 0x20, 0x10]),
    ];
    m.envelopes = vec![vec![(0, 0.5), (1, 0.5)]];
    m.inverse_binds = vec![
        [
            1.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0, -2.0, 0.0, 0.0, 1.0, -3.0,
        ],
        [0.5, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, -6.0, 0.0, 0.0, 0.5, 0.0],
    ];
    m.draw_matrices = vec![(0, 0), (0, 1), (1, 0)];
    let v = |mtx: u8, p: u16, i: u8| vx(&[&[mtx], &u16be(p), &[i], &[i], &[i]]);
    let mut second = draw(
        prim::STRIP,
        &[v(0, 0, 0), v(3, 1, 1), v(0, 2, 0), v(3, 3, 1)],
    );
    second.extend(draw(prim::POINTS, &[v(0, 0, 0)]));
    m.shapes[0] = ShapeDef {
        display_flags: 3,
        attributes: vec![
            (attr::PNMTXIDX, input::DIRECT),
            (attr::POS, input::INDEX16),
            (attr::NRM, input::INDEX8),
            (attr::CLR0, input::INDEX8),
            (attr::tex(0), input::INDEX8),
        ],
        packets: vec![
            PacketDef {
                slots: vec![0, 2],
                display_list: padded(draw(prim::TRIANGLES, &[v(0, 0, 0), v(3, 1, 1), v(0, 2, 0)])),
            },
            PacketDef {
                slots: vec![0xFFFF, 1],
                display_list: padded(second),
            },
        ],
        material: 0,
        joint: 0,
    };
    let mut quad = vec![0x20, 0, 0, 0, 0];
    quad.extend(draw(prim::QUADS, &[vec![0], vec![1], vec![2], vec![3]]));
    m.shapes.push(ShapeDef {
        display_flags: 0,
        attributes: vec![(attr::POS, input::INDEX8)],
        packets: vec![PacketDef {
            slots: vec![1],
            display_list: padded(quad),
        }],
        material: 1,
        joint: 1,
    });
    m
}

/// What every decoded scene must satisfy, whatever the input: every range
/// inside its array, every index inside its mesh, influences inside the skin.
/// (Unit normals are pinned by `huge_and_tiny_f32_normals_come_out_unit_length`.)
fn check_scene(loaded: &Loaded<'_>, what: &str) {
    let scene = loaded.scene();
    let n = scene.positions().len();
    assert_eq!(scene.normals().len(), n, "{what}");
    assert_eq!(scene.indices().len() % 3, 0, "{what}");
    let within = |first: u32, count: u32, len: usize| (first as usize + count as usize) <= len;
    for (m, mesh) in scene.meshes().iter().enumerate() {
        assert!(
            within(mesh.first_vertex, mesh.vertex_count, n),
            "{what}: mesh {m}"
        );
        assert!(
            within(mesh.first_index, mesh.index_count, scene.indices().len()),
            "{what}: mesh {m}"
        );
        let first = mesh.first_index as usize;
        for &i in &scene.indices()[first..first + mesh.index_count as usize] {
            assert!(i < mesh.vertex_count, "{what}: mesh {m} index {i}");
        }
        assert!(
            within(
                mesh.first_uv,
                mesh.vertex_count * mesh.uv_sets,
                scene.uvs().len()
            ),
            "{what}: mesh {m} uvs"
        );
        assert!(
            within(
                mesh.first_color,
                mesh.vertex_count * mesh.color_sets,
                scene.colors().len()
            ),
            "{what}: mesh {m} colours"
        );
        assert!(
            within(mesh.first_group, mesh.group_count, scene.groups().len()),
            "{what}: mesh {m} groups"
        );
        for g in &scene.groups()[mesh.first_group as usize..][..mesh.group_count as usize] {
            assert!(g.first_index >= mesh.first_index, "{what}: mesh {m}");
            assert!(
                g.first_index + g.index_count <= mesh.first_index + mesh.index_count,
                "{what}: mesh {m}"
            );
            assert!(
                g.material < scene.materials().len() as i32,
                "{what}: mesh {m}"
            );
        }
        if mesh.skin >= 0 {
            assert!(
                within(
                    mesh.first_influence_span,
                    mesh.vertex_count,
                    scene.influence_spans().len()
                ),
                "{what}: mesh {m} spans"
            );
        }
    }
    let joints = scene.skin_joints().len() as u32;
    for span in scene.influence_spans() {
        assert!(
            within(span.first, span.count, scene.influences().len()),
            "{what}: span {span:?}"
        );
    }
    for influence in scene.influences() {
        assert!(influence.joint < joints, "{what}: {influence:?}");
    }
    for node in scene.nodes() {
        assert!(node.parent < scene.nodes().len() as i32, "{what}");
    }
}

/// Any bytes: a load gives a sound scene or a file error (never a caller
/// error such as ARENA_TOO_SMALL, which would mean `measure` planned wrong),
/// and never panics.
fn survive(bytes: &[u8], what: &str) -> Result<(), Error> {
    match try_load(bytes) {
        Ok(loaded) => {
            check_scene(&loaded, what);
            Ok(())
        }
        Err(e) => {
            assert!(
                !e.code().is_caller_error(),
                "{what}: a file error reported as {:?}: {e}",
                e.code()
            );
            assert!(!e.message().is_empty(), "{what}");
            Err(e)
        }
    }
}

/// `measure` accepts exactly what `decode_into` and `load` accept (the plan
/// promises that decoding succeeds), and where it rejects, `load` (whose
/// count pass leaves the attribute indices to its fill pass) fails with the
/// same error.
fn agree(bytes: &[u8], what: &str) {
    let options = Options::default();
    let measured = scenedec::measure(bytes, None, &options);
    let loaded = try_load(bytes);
    if let (Ok(_), Err(e)) = (&measured, &loaded) {
        panic!(
            "{what}: measure accepts what load rejects: {e} (at {})",
            e.at()
        );
    }
    if let Ok(plan) = &measured {
        let mut memory = vec![0u64; plan.arena_words()];
        let mut arena = scenedec::Arena::from_words(&mut memory);
        let mut warnings = scenedec::Warnings::new();
        if let Err(e) = scenedec::decode_into(bytes, None, &options, &mut arena, &mut warnings) {
            panic!("{what}: measure accepts what decode_into rejects: {e}");
        }
    }
    match (&measured, &loaded) {
        (Err(e), Ok(_)) => panic!("{what}: load accepts what measure rejects: {e}"),
        (Err(m), Err(l)) => assert_eq!(m, l, "{what}: load fails otherwise than measure"),
        _ => {}
    }
}

/// Every single-byte corruption of `bytes` (xor 0xFF, set to 0x00, set to
/// 0xFF) whose offset `keep` accepts, with a description.
fn corruptions(bytes: &[u8], keep: impl Fn(usize) -> bool) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for at in (0..bytes.len()).filter(|&at| keep(at)) {
        let original = bytes[at];
        let mut values = vec![original ^ 0xFF, 0x00, 0xFF];
        values.sort_unstable();
        values.dedup(); // 0x00 and 0xFF xor to each other
        values.retain(|&v| v != original);
        for value in values {
            let mut corrupt = bytes.to_vec();
            corrupt[at] = value;
            out.push((
                format!("byte {at:#x} {original:#04x} -> {value:#04x}"),
                corrupt,
            ));
        }
    }
    out
}

/// Every section of `model` in turn put last and cut at every length from
/// its header to its end (its size and the file's patched to match), so each
/// section's own bounds checks meet the end of its bytes.
fn section_truncations(model: &ModelBuilder) -> Vec<([u8; 4], String, Vec<u8>)> {
    let mut out = Vec::new();
    for id in SECTION_ORDER {
        let mut order: Vec<&[u8; 4]> = SECTION_ORDER.iter().copied().filter(|s| *s != id).collect();
        order.push(id);
        let full = model.build_sections(&order);
        let (start, size) = find_section(&full, id).unwrap();
        for cut in 8..size {
            let mut bytes = full[..start + cut].to_vec();
            let len = bytes.len() as u32;
            bytes.set_u32(8, len);
            bytes.set_u32(start + 4, cut as u32);
            let what = format!("{} cut to {cut} bytes", String::from_utf8_lossy(id));
            out.push((*id, what, bytes));
        }
    }
    out
}

/// The bytes of SHP1's vertex descriptor lists in a built file.
fn descriptor_bytes(bytes: &[u8]) -> std::ops::Range<usize> {
    let shp1 = section_offset(bytes, b"SHP1");
    // The builder writes the matrix table right after the descriptors.
    shp1 + be_u32(bytes, shp1 + 0x18) as usize..shp1 + be_u32(bytes, shp1 + 0x1C) as usize
}

// ---------------------------------------------------------------------------
// Limits: each at its value and one past it.

/// A model with known counts: 3 joints, 2 materials, 2 shapes, 3 packets,
/// 11 scene vertices (the 2 of a lines primitive are not scene vertices),
/// 5 triangles, display lists of 27 bytes (shape 0) and 22 bytes (shape 1),
/// and a hierarchy 4 levels deep.
fn counted_model() -> ModelBuilder {
    let mut m = triangle();
    m.arrays = vec![ArrayDef::positions_f32(&[[0.0; 3]; 4])];
    m.joints = vec![
        JointDef::new("a", None),
        JointDef::new("b", Some(0)),
        JointDef::new("c", Some(1)),
    ];
    m.materials = vec![
        MaterialDef {
            name: "m0".into(),
            cull: 0,
        },
        MaterialDef {
            name: "m1".into(),
            cull: 1,
        },
    ];
    m.draw_matrices = vec![(0, 0), (0, 2)];
    let pv = |mtx: u8, p: u16| vx(&[&[mtx], &u16be(p)]);
    m.shapes[0] = ShapeDef {
        display_flags: 3,
        attributes: vec![(attr::PNMTXIDX, input::DIRECT), (attr::POS, input::INDEX16)],
        packets: vec![
            PacketDef {
                slots: vec![0],
                // 3 + 3·3 = 12 bytes: 3 vertices, 1 triangle.
                display_list: draw(prim::TRIANGLES, &[pv(0, 0), pv(0, 1), pv(0, 2)]),
            },
            PacketDef {
                slots: vec![1],
                // 3 + 4·3 = 15 bytes: 4 vertices, 2 triangles.
                display_list: draw(prim::STRIP, &[pv(0, 0), pv(0, 1), pv(0, 2), pv(0, 3)]),
            },
        ],
        material: 0,
        joint: 0,
    };
    // 3 + 4·2 = 11 bytes of quad (4 vertices, 2 triangles) + 3 + 2·2 = 7 of lines.
    let mut dl = draw(prim::QUADS, &seq(4));
    dl.extend(draw(prim::LINES, &seq(2)));
    m.shapes.push(ShapeDef {
        display_flags: 0,
        attributes: vec![(attr::POS, input::INDEX16)],
        packets: vec![PacketDef {
            slots: vec![0],
            display_list: dl,
        }],
        material: 1,
        joint: 2,
    });
    m
}

/// The deepest level an INF1 node stream opens.
fn depth(hierarchy: &[(u16, u16)]) -> u64 {
    let (mut d, mut max) = (0i64, 0i64);
    for (kind, _) in hierarchy {
        match kind {
            0x01 => d += 1,
            0x02 => d -= 1,
            _ => {}
        }
        max = max.max(d);
    }
    max as u64
}

/// `set(limits, value)` lets the model load; `set(limits, value − 1)` gives
/// `code`, placed in `section` when one is named.
#[track_caller]
fn limit_case(
    bytes: &[u8],
    set: fn(&mut J3dLimits, u64),
    value: u64,
    code: ErrorCode,
    section: Option<&str>,
) -> Error {
    let mut limits = J3dLimits::default();
    set(&mut limits, value);
    if let Err(e) = scenedec::load(bytes, None, &options(limits)) {
        panic!("at the limit {value}: {e}");
    }
    set(&mut limits, value - 1);
    let e = match scenedec::load(bytes, None, &options(limits)) {
        Ok(_) => panic!("one past the limit {}: loaded", value - 1),
        Err(e) => e,
    };
    assert_eq!(e.code(), code, "{e}");
    if let Some(section) = section {
        assert!(e.at().to_string().ends_with(section), "{e} at {}", e.at());
    }
    assert!(
        e.message().contains(&(value - 1).to_string()),
        "the message names the limit: {}",
        e.message()
    );
    e
}

#[test]
fn limit_max_file_bytes() {
    let bytes = counted_model().build();
    let e = limit_case(
        &bytes,
        |l, v| l.max_file_bytes = v,
        bytes.len() as u64,
        ErrorCode::FileTooLarge,
        None,
    );
    assert_eq!(*e.at(), Location::Nowhere);
    // After Yaz0: the decompressed size counts, and is checked from the header.
    let packed = scenedec::yaz0::compress(&bytes);
    limit_case(
        &packed,
        |l, v| l.max_file_bytes = v,
        bytes.len() as u64,
        ErrorCode::FileTooLarge,
        None,
    );
}

#[test]
fn limit_max_vertices() {
    let bytes = counted_model().build();
    assert_eq!(load(&bytes).scene().positions().len(), 11);
    limit_case(
        &bytes,
        |l, v| l.max_vertices = v,
        11,
        ErrorCode::TooManyVertices,
        None,
    );
}

#[test]
fn limit_max_triangles() {
    let bytes = counted_model().build();
    assert_eq!(load(&bytes).scene().triangle_count(), 5);
    limit_case(
        &bytes,
        |l, v| l.max_triangles = v,
        5,
        ErrorCode::TooManyTriangles,
        None,
    );
}

#[test]
fn limit_max_joints() {
    let bytes = counted_model().build();
    let e = limit_case(
        &bytes,
        |l, v| l.max_joints = v,
        3,
        ErrorCode::TooManyJoints,
        Some("JNT1"),
    );
    assert_eq!(*e.at(), binary(section_offset(&bytes, b"JNT1"), b"JNT1"));
}

#[test]
fn limit_max_shapes() {
    let bytes = counted_model().build();
    limit_case(
        &bytes,
        |l, v| l.max_shapes = v,
        2,
        ErrorCode::TooManyShapes,
        Some("SHP1"),
    );
}

#[test]
fn limit_max_packets() {
    let bytes = counted_model().build();
    limit_case(
        &bytes,
        |l, v| l.max_packets = v,
        3,
        ErrorCode::TooManyPackets,
        Some("SHP1"),
    );
}

#[test]
fn limit_max_materials() {
    let bytes = counted_model().build();
    limit_case(
        &bytes,
        |l, v| l.max_materials = v,
        2,
        ErrorCode::TooManyMaterials,
        Some("MAT3"),
    );
}

#[test]
fn limit_max_display_list_bytes() {
    // Per shape: shape 0 has 12 + 15 = 27 bytes, shape 1 has 18.
    let bytes = counted_model().build();
    limit_case(
        &bytes,
        |l, v| l.max_display_list_bytes = v,
        27,
        ErrorCode::DisplayListTooLarge,
        Some("SHP1"),
    );
}

#[test]
fn limit_max_depth() {
    let m = counted_model();
    let levels = depth(&m.default_hierarchy());
    assert_eq!(levels, 4);
    let bytes = m.build();
    limit_case(
        &bytes,
        |l, v| l.max_depth = v,
        levels,
        ErrorCode::HierarchyTooDeep,
        Some("INF1"),
    );
}

// ---------------------------------------------------------------------------
// Truncation and corruption

#[test]
fn every_prefix_is_an_error() {
    let bytes = small_model().build();
    assert!(survive(&bytes, "whole").is_ok());
    for cut in 0..bytes.len() {
        let e =
            survive(&bytes[..cut], &format!("prefix {cut}")).expect_err("a prefix must not load");
        let want = if cut < 8 {
            ErrorCode::UnknownFormat
        } else {
            ErrorCode::Truncated
        };
        assert_eq!(e.code(), want, "prefix {cut}: {e}");
    }
}

#[test]
fn every_truncation_of_each_section_is_a_scene_or_a_typed_error() {
    let mut failed = [0usize; SECTION_ORDER.len()];
    for (id, what, bytes) in section_truncations(&small_model()) {
        if let Err(e) = survive(&bytes, &what) {
            failed[SECTION_ORDER.iter().position(|s| **s == id).unwrap()] += 1;
            let at = e.at().to_string();
            // The cut section is named, or (VTX1's arrays shrinking) the
            // display-list index that now points past one.
            assert!(
                at.ends_with(std::str::from_utf8(&id).unwrap())
                    || (&id == b"VTX1" && e.code() == ErrorCode::BadOffset),
                "{what}: {e} at {at}"
            );
        }
    }
    for (id, n) in SECTION_ORDER.iter().zip(failed) {
        // TEX1 is not read yet; every other section has cuts that fail.
        assert!(n > 0 || *id == b"TEX1", "{id:?}: no cut failed");
    }
}

#[test]
fn every_single_byte_corruption_is_a_scene_or_a_typed_error() {
    let bytes = small_model().build();
    assert!(survive(&bytes, "whole").is_ok());
    let (mut ok, mut failed) = (0, 0);
    for (what, corrupt) in corruptions(&bytes, |_| true) {
        match survive(&corrupt, &what) {
            Ok(()) => ok += 1,
            Err(_) => failed += 1,
        }
    }
    assert!(ok > 0 && failed > 0, "{ok} loaded, {failed} failed");
}

/// The sweep above without the bytes of SHP1's vertex descriptors, so that
/// CI keeps the rest of it while that BUG stands.
#[test]
fn every_single_byte_corruption_outside_vertex_descriptors_is_a_scene_or_a_typed_error() {
    let bytes = small_model().build();
    let skip = descriptor_bytes(&bytes);
    assert!(skip.len() >= 8 * 8, "{skip:?}");
    let (mut ok, mut failed) = (0, 0);
    for (what, corrupt) in corruptions(&bytes, |at| !skip.contains(&at)) {
        match survive(&corrupt, &what) {
            Ok(()) => ok += 1,
            Err(_) => failed += 1,
        }
    }
    assert!(ok > 0 && failed > 0, "{ok} loaded, {failed} failed");
}

#[test]
fn measure_accepts_exactly_what_decode_accepts() {
    let model = small_model();
    let bytes = model.build();
    for (what, corrupt) in corruptions(&bytes, |_| true) {
        agree(&corrupt, &what);
    }
    for (_, what, cut) in section_truncations(&model) {
        agree(&cut, &what);
    }
}

// ---------------------------------------------------------------------------
// Offsets and counts out of range

/// Offset fields the reader follows, by section and header offset.
const OFFSET_FIELDS: [(&[u8; 4], usize); 21] = [
    (b"INF1", 0x14),
    (b"VTX1", 0x08),
    (b"VTX1", 0x0C),
    (b"VTX1", 0x10),
    (b"VTX1", 0x18),
    (b"EVP1", 0x0C),
    (b"EVP1", 0x10),
    (b"EVP1", 0x14),
    (b"DRW1", 0x0C),
    (b"DRW1", 0x10),
    (b"JNT1", 0x0C),
    (b"JNT1", 0x10),
    (b"JNT1", 0x14),
    (b"SHP1", 0x0C),
    (b"SHP1", 0x10),
    (b"SHP1", 0x18),
    (b"SHP1", 0x1C),
    (b"SHP1", 0x20),
    (b"SHP1", 0x24),
    (b"SHP1", 0x28),
    (b"MAT3", 0x10),
];

#[test]
fn offsets_past_the_section_are_errors_naming_it() {
    let bytes = small_model().build();
    for (id, field) in OFFSET_FIELDS {
        let (start, size) = find_section(&bytes, id).unwrap();
        for value in [u32::MAX, size as u32, 0x8000_0000] {
            let mut b = bytes.clone();
            b.set_u32(start + field, value);
            let what = format!("{} @{field:#x} = {value:#x}", String::from_utf8_lossy(id));
            let e = survive(&b, &what).expect_err(&what);
            assert!(
                matches!(e.code(), ErrorCode::Truncated | ErrorCode::BadOffset),
                "{what}: {e}"
            );
            assert!(
                e.at()
                    .to_string()
                    .ends_with(std::str::from_utf8(id).unwrap()),
                "{what}: {e} at {}",
                e.at()
            );
        }
    }
}

#[test]
fn mat3_offsets_past_the_section_are_errors_naming_it() {
    // Entries, names and cull modes: read for every material.
    let bytes = small_model().build();
    let (start, size) = find_section(&bytes, b"MAT3").unwrap();
    for field in [0x0C, 0x14, 0x1C] {
        for value in [u32::MAX, size as u32] {
            let mut b = bytes.clone();
            b.set_u32(start + field, value);
            let what = format!("MAT3 @{field:#x} = {value:#x}");
            let e = survive(&b, &what).expect_err(&what);
            assert!(
                matches!(e.code(), ErrorCode::Truncated | ErrorCode::BadOffset),
                "{what}: {e}"
            );
            assert!(e.at().to_string().ends_with(" MAT3"), "{what}: {}", e.at());
        }
    }
}

#[test]
fn counts_of_0xffff_are_errors_naming_their_section() {
    let bytes = small_model().build();
    for id in [b"EVP1", b"DRW1", b"JNT1", b"SHP1", b"MAT3"] {
        let mut b = bytes.clone();
        b.set_u16(section_offset(&bytes, id) + 8, 0xFFFF);
        expect_err(&b, ErrorCode::Truncated, std::str::from_utf8(id).unwrap());
    }
    // Name table counts.
    for id in [b"JNT1", b"MAT3"] {
        let start = section_offset(&bytes, id);
        let names = start + be_u32(&bytes, start + 0x14) as usize;
        let mut b = bytes.clone();
        b.set_u16(names, 0xFFFF);
        expect_err(&b, ErrorCode::Truncated, std::str::from_utf8(id).unwrap());
    }
}

#[test]
fn shape_packet_count_of_0xffff_is_an_error() {
    let bytes = small_model().build();
    let shp1 = section_offset(&bytes, b"SHP1");
    let entries = shp1 + be_u32(&bytes, shp1 + 0x0C) as usize;
    let mut b = bytes.clone();
    b.set_u16(entries + 2, 0xFFFF);
    expect_err(&b, ErrorCode::Truncated, "SHP1");
    // First matrix group / first packet far past the tables.
    for field in [6, 8] {
        let mut b = bytes.clone();
        b.set_u16(entries + field, 0xFFFF);
        expect_err(&b, ErrorCode::Truncated, "SHP1");
    }
}

#[test]
fn matrix_group_and_packet_fields_out_of_range_are_errors() {
    let bytes = small_model().build();
    let shp1 = section_offset(&bytes, b"SHP1");
    let groups = shp1 + be_u32(&bytes, shp1 + 0x24) as usize;
    let packets = shp1 + be_u32(&bytes, shp1 + 0x28) as usize;
    // Slot count 0xFFFF: the matrix table runs past SHP1.
    let mut b = bytes.clone();
    b.set_u16(groups + 2, 0xFFFF);
    expect_err(&b, ErrorCode::Truncated, "SHP1");
    // First matrix table entry 0xFFFFFFFF.
    let mut b = bytes.clone();
    b.set_u32(groups + 4, u32::MAX);
    expect_err(&b, ErrorCode::Truncated, "SHP1");
    // Display-list size and offset 0xFFFFFFFF.
    for field in [0, 4] {
        let mut b = bytes.clone();
        b.set_u32(packets + field, u32::MAX);
        let e = expect_err(&b, ErrorCode::BadOffset, "SHP1");
        assert_eq!(*e.at(), binary(packets, b"SHP1"), "{e}");
    }
}

#[test]
fn primitive_vertex_count_of_0xffff_is_truncated() {
    let bytes = triangle().build();
    let list = display_list_offset(&bytes, 0);
    let mut b = bytes.clone();
    b.set_u16(list + 1, 0xFFFF);
    let e = expect_err(&b, ErrorCode::Truncated, "SHP1");
    assert_eq!(*e.at(), binary(list, b"SHP1"));
}

#[test]
fn envelope_joint_count_of_0xff_is_an_error() {
    let bytes = small_model().build();
    let evp1 = section_offset(&bytes, b"EVP1");
    let counts = evp1 + be_u32(&bytes, evp1 + 0x0C) as usize;
    let mut b = bytes.clone();
    b[counts] = 0xFF;
    // The joint indices run on into the weights and matrices: whichever read
    // fails first (a joint past the count, or the end of EVP1) is reported.
    let e = survive(&b, "joint count 0xFF").unwrap_err();
    assert!(
        matches!(e.code(), ErrorCode::BadOffset | ErrorCode::Truncated),
        "{e}"
    );
    assert!(e.at().to_string().ends_with(" EVP1"), "{e} at {}", e.at());
}

#[test]
fn inf1_packet_and_vertex_counts_are_not_trusted() {
    let bytes = small_model().build();
    let inf1 = section_offset(&bytes, b"INF1");
    let mut b = bytes.clone();
    b.set_u32(inf1 + 0x0C, u32::MAX);
    b.set_u32(inf1 + 0x10, u32::MAX);
    let (a, c) = (load(&bytes), load(&b));
    assert_eq!(a.scene().positions(), c.scene().positions());
    assert_eq!(a.scene().indices(), c.scene().indices());
}

// ---------------------------------------------------------------------------
// Broken references

#[test]
fn vertex_index_past_the_end_of_its_array() {
    // Arrays have no stored length: POS, the only array, runs to the end of
    // VTX1 (its padding included).
    let bytes = triangle().build();
    let (vtx1, size) = find_section(&bytes, b"VTX1").unwrap();
    let elements = (vtx1 + size - vertex_array_offset(&bytes, 0)) / 12;
    let list = display_list_offset(&bytes, 0);
    let mut b = bytes.clone();
    b.set_u16(list + 3 + 2 * 2, elements as u16 - 1);
    load(&b);
    for index in [elements as u16, 0xFFFF] {
        let mut b = bytes.clone();
        b.set_u16(list + 3 + 2 * 2, index);
        let e = expect_err(&b, ErrorCode::BadOffset, "SHP1");
        assert_eq!(*e.at(), binary(list + 3 + 2 * 2, b"SHP1"), "{e}");
        assert!(e.message().contains("POS index"), "{}", e.message());
    }
}

/// `load` counts without checking attribute indices (its fill pass checks
/// them), so on its own it would meet a later limit first; it reports what
/// `measure` reports: the index error of the first vertex.
#[test]
fn load_reports_the_index_error_measure_finds_before_a_later_limit() {
    let bytes = counted_model().build();
    let list = display_list_offset(&bytes, 0);
    let mut b = bytes.clone();
    // The first vertex's POS index (after the primitive header and the
    // matrix index byte) points past the four positions.
    b.set_u16(list + 3 + 1, 0xFFFF);
    let options = options(J3dLimits {
        max_vertices: 10,
        ..J3dLimits::default()
    });
    let measured = scenedec::measure(&b, None, &options).expect_err("measure rejects");
    assert_eq!(measured.code(), ErrorCode::BadOffset, "{measured}");
    assert!(measured.message().contains("POS index"), "{measured}");
    let loaded = match scenedec::load(&b, None, &options) {
        Ok(_) => panic!("load accepts what measure rejects"),
        Err(e) => e,
    };
    assert_eq!(loaded, measured);
    // Without the bad index, the limit is what both report.
    let e = scenedec::measure(&bytes, None, &options).expect_err("11 vertices");
    assert_eq!(e.code(), ErrorCode::TooManyVertices);
    assert_eq!(scenedec::load(&bytes, None, &options).err(), Some(e));
}

#[test]
fn colour_and_uv_indices_past_their_arrays() {
    let m = small_model();
    let bytes = m.build();
    let list = display_list_offset(&bytes, 0);
    // Vertex: PNMTXIDX, POS16, NRM8, CLR0 8, TEX0 8 (6 bytes); the first
    // vertex's NRM, CLR0 and TEX0 indices sit at 3 + 3, + 4, + 5.
    for (field, name) in [(6, "NRM"), (7, "CLR0"), (8, "TEX0")] {
        let mut b = bytes.clone();
        b[list + field] = 0xFF;
        let e = expect_err(&b, ErrorCode::BadOffset, "SHP1");
        assert!(e.message().starts_with(name), "{}", e.message());
        assert_eq!(*e.at(), binary(list + 3, b"SHP1"), "{e}");
    }
}

#[test]
fn an_indexed_attribute_without_an_array_is_an_error() {
    let mut m = triangle();
    m.shapes[0].attributes.push((attr::CLR1, input::INDEX8));
    m.shapes[0].packets[0].display_list = padded(draw(
        prim::TRIANGLES,
        &[vec![0, 0, 0], vec![0, 1, 0], vec![0, 2, 0]],
    ));
    let e = expect_err(&m.build(), ErrorCode::BadOffset, "SHP1");
    assert!(e.message().contains("CLR1"), "{}", e.message());
}

#[test]
fn draw_matrix_naming_a_missing_joint() {
    let mut m = triangle();
    m.draw_matrices = vec![(0, 0), (0, 1)];
    let e = expect_err(&m.build(), ErrorCode::BadOffset, "DRW1");
    assert!(e.message().contains("draw matrix 1"), "{}", e.message());
}

#[test]
fn draw_matrix_naming_a_missing_envelope() {
    let mut m = small_model();
    m.draw_matrices.push((1, 1));
    expect_err(&m.build(), ErrorCode::BadOffset, "DRW1");
}

#[test]
fn draw_matrix_kind_other_than_joint_or_envelope() {
    let mut m = triangle();
    m.draw_matrices = vec![(2, 0)];
    expect_err(&m.build(), ErrorCode::BadValue, "DRW1");
}

#[test]
fn envelope_naming_a_missing_joint() {
    let mut m = small_model();
    m.envelopes[0][1].0 = 2;
    let e = expect_err(&m.build(), ErrorCode::BadOffset, "EVP1");
    assert!(e.message().contains("joint 2"), "{}", e.message());
    // Even one no draw matrix uses.
    let mut m = small_model();
    m.envelopes.push(vec![(9, 1.0)]);
    expect_err(&m.build(), ErrorCode::BadOffset, "EVP1");
}

#[test]
fn envelope_weight_that_is_not_finite() {
    for weight in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let mut m = small_model();
        m.envelopes[0][0].1 = weight;
        let e = expect_err(&m.build(), ErrorCode::BadOffset, "EVP1");
        assert!(e.message().contains("weight"), "{}", e.message());
    }
}

#[test]
fn envelope_joint_without_an_inverse_bind_fails_in_measure() {
    // EVP1 holds the inverse bind of joint 0 only; the envelope names joint 1.
    let mut m = small_model();
    m.inverse_binds.truncate(1);
    let bytes = m.build();
    expect_err(&bytes, ErrorCode::Truncated, "EVP1");
    // measure's plan promises that decode_into succeeds, so measure must refuse it.
    let e = scenedec::measure(&bytes, None, &Options::default())
        .expect_err("measure accepts a file decode_into rejects");
    assert_eq!(e.code(), ErrorCode::Truncated);
    // Likewise an inverse bind offset past the section.
    let bytes = small_model().build();
    let evp1 = section_offset(&bytes, b"EVP1");
    let mut b = bytes.clone();
    b.set_u32(evp1 + 0x18, u32::MAX);
    expect_err(&b, ErrorCode::Truncated, "EVP1");
    scenedec::measure(&b, None, &Options::default())
        .expect_err("measure accepts a file decode_into rejects");
}

#[test]
fn pnmtxidx_slot_no_packet_set() {
    // The first packet keeps slot 0 (0xFFFF) though nothing set it.
    let mut m = small_model();
    m.shapes[0].packets[0].slots = vec![0xFFFF, 2];
    let bytes = m.build();
    let e = expect_err(&bytes, ErrorCode::BadValue, "SHP1");
    assert_eq!(*e.at(), binary(display_list_offset(&bytes, 0) + 3, b"SHP1"));
    assert!(e.message().contains("slot 0"), "{}", e.message());
    // PNMTXIDX past the ten slots GX has.
    for pnmtx in [30u8, 255] {
        let mut m = small_model();
        m.shapes[0].packets[0].display_list[3] = pnmtx;
        let bytes = m.build();
        let e = expect_err(&bytes, ErrorCode::BadValue, "SHP1");
        assert_eq!(*e.at(), binary(display_list_offset(&bytes, 0) + 3, b"SHP1"));
    }
}

#[test]
fn matrix_table_of_more_than_ten_slots() {
    let mut m = small_model();
    m.shapes[0].packets[0].slots = vec![0; 11];
    expect_err(&m.build(), ErrorCode::BadValue, "SHP1");
}

#[test]
fn matrix_slot_naming_a_missing_draw_matrix() {
    let mut m = small_model();
    m.shapes[0].packets[1].slots = vec![0xFFFF, 3];
    let e = expect_err(&m.build(), ErrorCode::BadOffset, "SHP1");
    assert!(e.message().contains("draw matrix 3"), "{}", e.message());
}

#[test]
fn unknown_display_list_opcode() {
    for op in [
        0x01, 0x08, 0x10, 0x18, 0x21, 0x40, 0x48, 0x61, 0x78, 0xC0, 0xF8, 0xFF,
    ] {
        let mut dl = draw(prim::TRIANGLES, &seq(3)); // 9 bytes
        dl.extend([op, 0, 3, 0, 0, 0, 1, 0, 2]);
        let bytes = ModelBuilder::single_shape(&[[0.0; 3]; 3], dl).build();
        let e = expect_err(&bytes, ErrorCode::BadValue, "SHP1");
        assert_eq!(
            *e.at(),
            binary(display_list_offset(&bytes, 0) + 9, b"SHP1"),
            "opcode {op:#x}"
        );
        assert!(
            e.message().contains(&format!("{op:#04x}")),
            "{}",
            e.message()
        );
    }
}

#[test]
fn display_list_command_running_past_its_packet() {
    // Unpadded lists: the packet ends with the bytes shown.
    let cases: [(Vec<u8>, usize); 3] = [
        (
            [draw(prim::TRIANGLES, &seq(3)), vec![0x20, 1, 2]].concat(),
            9,
        ),
        ([draw(prim::TRIANGLES, &seq(3)), vec![0x98, 0]].concat(), 9),
        (draw(prim::TRIANGLES, &seq(3))[..8].to_vec(), 0),
    ];
    for (dl, at) in cases {
        let mut m = ModelBuilder::single_shape(&[[0.0; 3]; 3], Vec::new());
        m.shapes[0].packets[0].display_list = dl;
        let bytes = m.build();
        let e = expect_err(&bytes, ErrorCode::Truncated, "SHP1");
        assert_eq!(
            *e.at(),
            binary(display_list_offset(&bytes, 0) + at, b"SHP1")
        );
    }
}

#[test]
fn empty_vertex_descriptor_with_a_draw_is_a_file_error() {
    // A shape whose vertices carry nothing draws 3 of them: a typed file
    // error placed in SHP1, or a scene whose indices name real vertices.
    let mut m = triangle();
    m.shapes[0].attributes = vec![];
    m.shapes[0].packets[0].display_list = padded(draw(prim::TRIANGLES, &[vec![], vec![], vec![]]));
    let bytes = m.build();
    agree(&bytes, "empty descriptor");
    if let Err(e) = survive(&bytes, "empty descriptor") {
        assert!(e.at().to_string().ends_with(" SHP1"), "{e} at {}", e.at());
    }
    // The same through a descriptor whose only attribute is input NONE.
    let mut m = triangle();
    m.shapes[0].attributes = vec![(attr::POS, input::NONE)];
    let bytes = m.build();
    agree(&bytes, "descriptor of NONE inputs");
    let _ = survive(&bytes, "descriptor of NONE inputs");
}

// ---------------------------------------------------------------------------
// The INF1 hierarchy

fn with_hierarchy(nodes: Vec<(u16, u16)>) -> Vec<u8> {
    let mut m = triangle();
    m.hierarchy = Some(nodes);
    m.build()
}

/// File offset of hierarchy node `i` (the builder puts the stream at 0x18).
fn node_at(bytes: &[u8], i: usize) -> usize {
    section_offset(bytes, b"INF1") + 0x18 + 4 * i
}

#[test]
fn inf1_joint_listed_twice_is_a_cycle() {
    let bytes = with_hierarchy(vec![
        (0x10, 0),
        (0x01, 0),
        (0x10, 0),
        (0x02, 0),
        (0x02, 0),
        (0x00, 0),
    ]);
    let e = expect_err(&bytes, ErrorCode::BadValue, "INF1");
    assert_eq!(*e.at(), binary(node_at(&bytes, 2), b"INF1"));
    assert!(e.message().contains("twice"), "{}", e.message());
}

#[test]
fn inf1_shape_listed_twice() {
    let bytes = with_hierarchy(vec![
        (0x10, 0),
        (0x01, 0),
        (0x11, 0),
        (0x12, 0),
        (0x12, 0),
        (0x02, 0),
        (0x00, 0),
    ]);
    let e = expect_err(&bytes, ErrorCode::BadValue, "INF1");
    assert_eq!(*e.at(), binary(node_at(&bytes, 4), b"INF1"));
}

#[test]
fn inf1_close_without_open() {
    let bytes = with_hierarchy(vec![(0x10, 0), (0x02, 0), (0x00, 0)]);
    let e = expect_err(&bytes, ErrorCode::BadValue, "INF1");
    assert_eq!(*e.at(), binary(node_at(&bytes, 1), b"INF1"));
}

#[test]
fn inf1_missing_end() {
    // Ten balanced nodes fill INF1 exactly (0x18 + 40 = 0x40 bytes), so no
    // zero padding can act as the End: the walk runs off the section.
    let bytes = with_hierarchy(vec![
        (0x10, 0),
        (0x01, 0),
        (0x11, 0),
        (0x01, 0),
        (0x12, 0),
        (0x02, 0),
        (0x02, 0),
        (0x11, 0),
        (0x11, 0),
        (0x11, 0),
    ]);
    let (inf1, size) = find_section(&bytes, b"INF1").unwrap();
    assert_eq!(size, 0x40);
    let e = expect_err(&bytes, ErrorCode::Truncated, "INF1");
    assert_eq!(*e.at(), binary(inf1 + 0x40, b"INF1"));
}

#[test]
fn inf1_end_with_levels_open() {
    let bytes = with_hierarchy(vec![(0x10, 0), (0x01, 0), (0x11, 0), (0x12, 0), (0x00, 0)]);
    let e = expect_err(&bytes, ErrorCode::BadValue, "INF1");
    assert_eq!(*e.at(), binary(node_at(&bytes, 4), b"INF1"));
}

#[test]
fn inf1_depth_bomb_is_hierarchy_too_deep() {
    let mut nodes = vec![(0x10, 0)];
    nodes.extend(std::iter::repeat_n((0x01, 0), 5000));
    nodes.extend(std::iter::repeat_n((0x02, 0), 5000));
    nodes.push((0x00, 0));
    let bytes = with_hierarchy(nodes);
    // At the default limit (256): the 257th Open is refused.
    assert_eq!(J3dLimits::default().max_depth, 256);
    let e = expect_err(&bytes, ErrorCode::HierarchyTooDeep, "INF1");
    assert_eq!(*e.at(), binary(node_at(&bytes, 257), b"INF1"));
    // A limit above the hard cap (1024) is capped, not trusted.
    for max_depth in [5000, u64::MAX] {
        let limits = J3dLimits {
            max_depth,
            ..J3dLimits::default()
        };
        let e = expect_err_with(
            &bytes,
            &options(limits),
            ErrorCode::HierarchyTooDeep,
            "INF1",
        );
        assert_eq!(*e.at(), binary(node_at(&bytes, 1025), b"INF1"));
    }
}

#[test]
fn inf1_unknown_node_type() {
    for kind in [0x03, 0x0F, 0x13, 0x20, 0xFFFF] {
        let bytes = with_hierarchy(vec![(0x10, 0), (0x01, 0), (kind, 0), (0x02, 0), (0x00, 0)]);
        let e = expect_err(&bytes, ErrorCode::BadValue, "INF1");
        assert_eq!(*e.at(), binary(node_at(&bytes, 2), b"INF1"));
    }
}

#[test]
fn inf1_index_past_its_count() {
    for node in [(0x10, 1), (0x11, 1), (0x12, 1), (0x10, 0xFFFF)] {
        let bytes = with_hierarchy(vec![(0x10, 0), (0x01, 0), node, (0x02, 0), (0x00, 0)]);
        let e = expect_err(&bytes, ErrorCode::BadOffset, "INF1");
        assert_eq!(*e.at(), binary(node_at(&bytes, 2), b"INF1"));
    }
}

#[test]
fn scaling_rule_3_is_bad_value() {
    for rule in [3, 0xF] {
        let mut m = triangle();
        m.scaling_rule = rule;
        let bytes = m.build();
        let e = expect_err(&bytes, ErrorCode::BadValue, "INF1");
        assert_eq!(
            *e.at(),
            binary(section_offset(&bytes, b"INF1") + 8, b"INF1")
        );
    }
}

// ---------------------------------------------------------------------------
// Sections

#[test]
fn missing_required_section() {
    for id in [b"INF1", b"VTX1", b"EVP1", b"DRW1", b"JNT1", b"SHP1"] {
        let bytes = small_model().build_without(&[id]);
        let e = survive(&bytes, "missing section").expect_err("must not load");
        assert_eq!(e.code(), ErrorCode::BadValue, "{e}");
        let name = std::str::from_utf8(id).unwrap();
        assert!(
            e.message().contains(&format!("no {name} section")),
            "{}",
            e.message()
        );
    }
}

#[test]
fn mat3_is_optional_when_inf1_names_no_material() {
    let mut m = triangle();
    m.hierarchy = Some(vec![(0x10, 0), (0x01, 0), (0x12, 0), (0x02, 0), (0x00, 0)]);
    let bytes = m.build_without(&[b"MAT3"]);
    let loaded = load(&bytes);
    assert!(loaded.scene().materials().is_empty());
    assert_eq!(loaded.scene().groups()[0].material, -1);
    // A material node without MAT3 names a material that is not there.
    let bytes = triangle().build_without(&[b"MAT3"]);
    expect_err(&bytes, ErrorCode::BadOffset, "INF1");
}

#[test]
fn repeated_and_unknown_sections() {
    let m = triangle();
    let bytes = m.build_sections(&[
        b"INF1", b"VTX1", b"EVP1", b"DRW1", b"JNT1", b"SHP1", b"MAT3", b"VTX1",
    ]);
    expect_err(&bytes, ErrorCode::BadValue, "VTX1");
    let mut bytes = m.build();
    let tex1 = section_offset(&bytes, b"TEX1");
    bytes[tex1..tex1 + 4].copy_from_slice(b"TEX9");
    let e = survive(&bytes, "unknown id").expect_err("must not load");
    assert_eq!(e.code(), ErrorCode::BadValue);
    assert_eq!(
        *e.at(),
        Location::Binary {
            offset: tex1 as u64,
            section: None
        }
    );
    // A section count far past the sections there are.
    let mut bytes = m.build();
    bytes.set_u32(12, u32::MAX);
    assert_eq!(
        survive(&bytes, "section count").unwrap_err().code(),
        ErrorCode::Truncated
    );
}

// ---------------------------------------------------------------------------
// Formats and descriptors the reader refuses

#[test]
fn vtx1_formats_that_are_no_gx_format() {
    // (attribute, component count, component type, shift)
    for (a, count, ty, shift) in [
        (attr::POS, 1, 5, 0),
        (attr::POS, 2, 4, 0),
        (attr::POS, 1, 3, 32),
        (attr::NRM, 3, 3, 14),
        (attr::CLR0, 1, 6, 0),
        (attr::CLR0, 2, 5, 0),
        (attr::tex(0), 2, 4, 0),
        (attr::tex(3), 1, 0, 40),
    ] {
        let mut m = triangle();
        m.arrays
            .push(ArrayDef::new(a, count, ty, shift, vec![0; 8]));
        if a == attr::POS {
            m.arrays.remove(0);
        }
        let bytes = m.build();
        let e = expect_err(&bytes, ErrorCode::BadValue, "VTX1");
        let vtx1 = section_offset(&bytes, b"VTX1");
        let formats = vtx1 + be_u32(&bytes, vtx1 + 8) as usize;
        let entry = (0..)
            .map(|i| formats + 16 * i)
            .find(|&at| be_u32(&bytes, at) == a)
            .unwrap();
        assert_eq!(
            *e.at(),
            binary(entry, b"VTX1"),
            "{a:#x} {count} {ty} {shift}"
        );
    }
}

#[test]
fn shp1_descriptors_the_reader_refuses() {
    let cases: [(Vec<(u32, u32)>, &str); 6] = [
        (
            vec![(attr::POS, input::INDEX16), (0x15, input::INDEX8)],
            "0x15",
        ),
        (vec![(attr::POS, 4)], "input 4"),
        (
            vec![(attr::POS, input::INDEX16), (attr::POS, input::INDEX8)],
            "twice",
        ),
        (
            vec![(attr::PNMTXIDX, input::INDEX8), (attr::POS, input::INDEX16)],
            "direct",
        ),
        (
            vec![(attr::POS, input::INDEX16), (attr::CLR1, input::DIRECT)],
            "without a VTX1 format",
        ),
        (vec![(attr::POS, input::DIRECT)], "not supported"),
    ];
    for (attributes, words) in cases {
        let mut m = triangle();
        m.shapes[0].attributes = attributes;
        // Room for three 12-byte direct positions.
        m.shapes[0].packets[0].display_list = padded(draw(
            prim::TRIANGLES,
            &[vec![0; 12], vec![0; 12], vec![0; 12]],
        ));
        let e = expect_err(&m.build(), ErrorCode::BadValue, "SHP1");
        assert!(e.message().contains(words), "{}", e.message());
    }
}

#[test]
fn mat3_cull_mode_out_of_range() {
    let mut m = triangle();
    m.materials[0].cull = 4;
    expect_err(&m.build(), ErrorCode::BadValue, "MAT3");
}

#[test]
fn huge_and_tiny_f32_normals_come_out_unit_length() {
    // Finite normals whose squared length overflows (3e38) or underflows
    // (1e-30) f32; the single-byte corruption sweep meets the same through
    // extreme joint scales.
    let mut m = triangle();
    m.arrays.push(ArrayDef::new(
        attr::NRM,
        0,
        4,
        0,
        [3e38f32, 3e38, 0.0, 1e-30, 0.0, -1e-30]
            .iter()
            .flat_map(|v| v.to_be_bytes())
            .collect(),
    ));
    m.shapes[0].attributes.push((attr::NRM, input::INDEX8));
    m.shapes[0].packets[0].display_list = padded(draw(
        prim::TRIANGLES,
        &[vec![0, 0, 0], vec![0, 1, 1], vec![0, 2, 0]],
    ));
    let bytes = m.build();
    let loaded = load(&bytes);
    for n in loaded.scene().normals() {
        let len = n.iter().map(|c| f64::from(*c).powi(2)).sum::<f64>().sqrt();
        assert!((len - 1.0).abs() < 1e-5, "{n:?}");
    }
}

#[test]
fn error_places_print_as_offset_and_section() {
    // A sample of the errors above, checked for the place format
    // (`0x… SECTION`), which `inspect --json` prints.
    let bytes = triangle().build();
    let inf1 = section_offset(&bytes, b"INF1");
    let mut b = bytes.clone();
    b.set_u16(inf1 + 8, 3);
    let e = try_load(&b).unwrap_err();
    assert_eq!(e.at().to_string(), format!("{:#x} INF1", inf1 + 8));
    let shp1 = section_offset(&bytes, b"SHP1");
    let mut b = bytes.clone();
    b.set_u32(shp1 + 0x0C, u32::MAX);
    let e = try_load(&b).unwrap_err();
    assert!(e.at().to_string().ends_with(" SHP1"), "{}", e.at());
    assert!(e.message().contains("SHP1"), "{}", e.message());
}
