//! Every `BbmodelLimits` field at its value and one past it, with the error
//! code the loader specification's Limits table names; the override rule;
//! and hostile inputs (nesting bombs, huge counts, truncations), each of
//! which must end in a typed error, never a panic or a hang.
//!
//! `max_animations` and `max_keyframes` bound animations, which the reader
//! does not read yet (spec: TOO_MANY_KEYFRAMES); they are not tested here
//! beyond the override rule.

mod support;

use std::time::{Duration, Instant};

use scenedec::{BbmodelLimits, ErrorCode, Loaded, Options};
use serde_json::json;
use support::bbmodel_builder::{
    Cube, Face, Group, Mesh, MeshFace, Model, Obj, Raw, Texture, Tree, el, png, png_data_uri,
    tree_4x, tree_5x,
};

fn options(limits: BbmodelLimits) -> Options<'static> {
    let mut o = Options::default();
    o.bbmodel.limits = limits;
    o
}

fn try_load(bytes: &[u8], limits: BbmodelLimits) -> Result<Loaded<'_>, scenedec::Error> {
    scenedec::load(bytes, Some("bbmodel"), &options(limits))
}

fn limits(set: impl FnOnce(&mut BbmodelLimits)) -> BbmodelLimits {
    let mut l = BbmodelLimits::default();
    set(&mut l);
    l
}

/// `bytes` loads with the limit at `at` and fails with `code` at `at − 1`.
fn pin(bytes: &[u8], set: impl Fn(&mut BbmodelLimits, u64), at: u64, code: ErrorCode) {
    let ok = limits(|l| set(l, at));
    if let Err(e) = try_load(bytes, ok) {
        panic!("failed at the limit {at}: {e}");
    }
    // measure agrees with load.
    assert!(scenedec::measure(bytes, Some("bbmodel"), &options(ok)).is_ok());
    let past = limits(|l| set(l, at - 1));
    match try_load(bytes, past) {
        Ok(_) => panic!("loaded one past the limit {}", at - 1),
        Err(e) => assert_eq!(e.code(), code, "{e}"),
    }
    assert_eq!(
        scenedec::measure(bytes, Some("bbmodel"), &options(past))
            .unwrap_err()
            .code(),
        code
    );
}

fn code_with(bytes: &[u8], limits: BbmodelLimits) -> ErrorCode {
    match try_load(bytes, limits) {
        Ok(_) => panic!("loaded, but an error was expected"),
        Err(e) => e.code(),
    }
}

fn cube() -> Cube {
    Cube::new([0.0; 3], [2.0, 3.0, 4.0]).all_faces(Face::uv([0.0, 0.0, 2.0, 3.0]))
}

fn cubes(n: usize) -> Model {
    let mut m = Model::free();
    for i in 0..n {
        m = m.element(cube().uuid(&format!("c{i}")));
    }
    m
}

/// A mesh of one face over `n` vertex keys on a circle (all of them in the face).
fn ring_mesh(n: usize) -> Mesh {
    let mut m = Mesh::new();
    let keys: Vec<String> = (0..n).map(|i| format!("k{i}")).collect();
    for (i, k) in keys.iter().enumerate() {
        let a = i as f64 * std::f64::consts::TAU / n as f64;
        m = m.vertex(k, [a.cos() * 8.0, a.sin() * 8.0, 0.0]);
    }
    let verts: Vec<(&str, [f64; 2])> = keys.iter().map(|k| (k.as_str(), [0.0, 0.0])).collect();
    m.face("f", MeshFace::new(&verts))
}

// ------------------------------------------------------------- the table

#[test]
fn defaults_are_the_spec_table() {
    let l = BbmodelLimits::default();
    assert_eq!(
        (
            l.max_file_bytes,
            l.max_elements,
            l.max_groups,
            l.max_triangles,
            l.max_vertices,
            l.max_face_vertices,
            l.max_nesting,
        ),
        (64 << 20, 10_000, 10_000, 200_000, 400_000, 16, 64)
    );
    assert_eq!(
        (
            l.max_textures,
            l.max_texture_side,
            l.max_texture_pixels,
            l.max_data_uri_chars,
            l.max_string_chars,
            l.max_animations,
            l.max_keyframes,
        ),
        (64, 4096, 16_777_216, 24 << 20, 1024, 1024, 200_000)
    );
}

#[test]
fn max_file_bytes_is_file_too_large() {
    let bytes = cubes(1).bytes();
    pin(
        &bytes,
        |l, v| l.max_file_bytes = v,
        bytes.len() as u64,
        ErrorCode::FileTooLarge,
    );
    // Checked first: even bytes that are no JSON fail FILE_TOO_LARGE.
    let junk = vec![b'x'; 100];
    assert_eq!(
        code_with(&junk, limits(|l| l.max_file_bytes = 99)),
        ErrorCode::FileTooLarge
    );
}

#[test]
fn max_elements_is_too_many_elements() {
    let bytes = cubes(3)
        .element(json!({"type": "locator", "uuid": "l"}))
        .bytes();
    pin(
        &bytes,
        |l, v| l.max_elements = v,
        4,
        ErrorCode::TooManyElements,
    );
}

#[test]
fn max_elements_default_is_10_000() {
    let text = |n: usize| {
        let items = vec!["{}"; n].join(",");
        format!(r#"{{"meta": {{"format_version": "4.10"}}, "elements": [{items}]}}"#)
    };
    let ok = text(10_000);
    let loaded = scenedec::load(ok.as_bytes(), Some("bbmodel"), &Options::default()).unwrap();
    assert_eq!(loaded.scene().meshes().len(), 10_000);
    let over = text(10_001);
    assert_eq!(
        code_with(over.as_bytes(), BbmodelLimits::default()),
        ErrorCode::TooManyElements
    );
}

#[test]
fn max_groups_counts_the_groups_array() {
    let groups: Vec<Obj> = (0..3)
        .map(|i| Group::new("g", &format!("g{i}")).data())
        .collect();
    // None of them is placed in the outliner: the array alone counts.
    let bytes = Model::new("5.0")
        .model_format("free")
        .groups(groups)
        .bytes();
    pin(
        &bytes,
        |l, v| l.max_groups = v,
        3,
        ErrorCode::TooManyElements,
    );
}

#[test]
fn max_groups_counts_outliner_groups() {
    let tree = vec![
        Tree::Group(
            Group::new("a", "a"),
            vec![Tree::Group(Group::new("b", "b"), vec![])],
        ),
        Tree::Group(Group::new("c", "c"), vec![]),
    ];
    let v4 = Model::free().outliner(tree_4x(&tree)).bytes();
    pin(&v4, |l, v| l.max_groups = v, 3, ErrorCode::TooManyElements);
    let (outliner, groups) = tree_5x(&tree);
    let v5 = Model::new("5.0")
        .model_format("free")
        .outliner(outliner)
        .groups(groups)
        .bytes();
    pin(&v5, |l, v| l.max_groups = v, 3, ErrorCode::TooManyElements);
}

#[test]
fn max_elements_plus_max_groups_caps_outliner_entries() {
    // Five entries: one group and four uuids no element has (each warns).
    let bytes = Model::free()
        .outliner(vec![
            el("x1"),
            el("x2"),
            Group::new("g", "g")
                .child(el("x3"))
                .child(el("x4"))
                .inline(),
        ])
        .bytes();
    // maxGroups 1: entries may be maxElements + 1.
    pin(
        &bytes,
        |l, v| {
            l.max_groups = 1;
            l.max_elements = v - 1;
        },
        5,
        ErrorCode::TooManyElements,
    );
}

#[test]
fn max_triangles_counts_two_per_drawn_cube_face() {
    let bytes = cubes(2).bytes();
    pin(
        &bytes,
        |l, v| l.max_triangles = v,
        24,
        ErrorCode::TooManyTriangles,
    );
    // A face with texture: null does not count.
    let bytes = Model::free()
        .element(cube().face("north", Face::empty().texture(json!(null))))
        .bytes();
    pin(
        &bytes,
        |l, v| l.max_triangles = v,
        10,
        ErrorCode::TooManyTriangles,
    );
}

#[test]
fn max_triangles_counts_k_minus_2_per_mesh_face_before_dropping() {
    // A pentagon (3) and a quad without area (2, though it draws none).
    let m = ring_mesh(5)
        .vertex("z0", [0.0, 0.0, 0.0])
        .vertex("z1", [1.0, 0.0, 0.0])
        .vertex("z2", [2.0, 0.0, 0.0])
        .vertex("z3", [3.0, 0.0, 0.0])
        .face(
            "flat",
            MeshFace::new(&[
                ("z0", [0.0, 0.0]),
                ("z1", [0.0, 0.0]),
                ("z2", [0.0, 0.0]),
                ("z3", [0.0, 0.0]),
            ]),
        );
    let bytes = Model::free().element(m).bytes();
    pin(
        &bytes,
        |l, v| l.max_triangles = v,
        5,
        ErrorCode::TooManyTriangles,
    );
    let loaded = try_load(&bytes, BbmodelLimits::default()).unwrap();
    assert_eq!(loaded.scene().triangle_count(), 3);
}

#[test]
fn max_vertices_counts_geometry_vertices() {
    // Cube: 4 per drawn face; mesh: k per face (each face its own vertices).
    let bytes = Model::free().element(cube()).element(ring_mesh(5)).bytes();
    pin(
        &bytes,
        |l, v| l.max_vertices = v,
        24 + 5,
        ErrorCode::TooManyVertices,
    );
}

#[test]
fn max_vertices_caps_the_keys_of_one_mesh() {
    // Seven keys, but one triangle: 3 geometry vertices.
    let mut m = Mesh::new();
    for i in 0..7 {
        m = m.vertex(&format!("k{i}"), [i as f64, (i * i) as f64, 0.0]);
    }
    let m = m.face(
        "f",
        MeshFace::new(&[("k0", [0.0, 0.0]), ("k1", [0.0, 0.0]), ("k2", [0.0, 0.0])]),
    );
    let bytes = Model::free().element(m).bytes();
    pin(
        &bytes,
        |l, v| l.max_vertices = v,
        7,
        ErrorCode::TooManyVertices,
    );
}

#[test]
fn max_face_vertices_is_too_many_vertices() {
    let bytes = Model::free().element(ring_mesh(16)).bytes();
    assert!(try_load(&bytes, BbmodelLimits::default()).is_ok());
    let bytes17 = Model::free().element(ring_mesh(17)).bytes();
    assert_eq!(
        code_with(&bytes17, BbmodelLimits::default()),
        ErrorCode::TooManyVertices
    );
    let bytes = Model::free().element(ring_mesh(5)).bytes();
    pin(
        &bytes,
        |l, v| l.max_face_vertices = v,
        5,
        ErrorCode::TooManyVertices,
    );
}

#[test]
fn max_face_vertices_override_above_16_is_honoured() {
    let bytes = Model::free().element(ring_mesh(17)).bytes();
    let loaded = try_load(&bytes, limits(|l| l.max_face_vertices = 20)).unwrap();
    assert_eq!(loaded.scene().triangle_count(), 15);
}

/// A chain of `depth` nested groups; the innermost has `children` only when `leaf_children`.
fn chain(depth: usize, leaf_children: bool) -> Vec<Tree> {
    let mut node: Option<Tree> = None;
    for i in (0..depth).rev() {
        let g = Group::new(&format!("g{i}"), &format!("g{i}"));
        node = Some(Tree::Group(g, node.into_iter().collect()));
    }
    let tree: Vec<Tree> = node.into_iter().collect();
    if leaf_children {
        tree
    } else {
        vec![strip_leaf_children(&tree[0])]
    }
}

fn strip_leaf_children(t: &Tree) -> Tree {
    match t {
        Tree::Group(g, children) if children.is_empty() => {
            Tree::Group(g.clone().set("leaf", true), vec![])
        }
        Tree::Group(g, children) => Tree::Group(
            g.clone(),
            children.iter().map(strip_leaf_children).collect(),
        ),
        e => e.clone(),
    }
}

/// The 4.x outliner text of `tree`, with `"children": []` removed from leaves marked `leaf`.
fn outliner_text(tree: &[Tree]) -> String {
    use support::bbmodel_builder::Json;
    tree_4x(tree)
        .json()
        .replace(r#""leaf": true, "children": []"#, r#""leaf": true"#)
}

#[test]
fn max_nesting_is_nesting_too_deep() {
    let v4 = Model::free().outliner(tree_4x(&chain(5, true))).bytes();
    pin(&v4, |l, v| l.max_nesting = v, 5, ErrorCode::NestingTooDeep);
    let (outliner, groups) = tree_5x(&chain(5, true));
    let v5 = Model::new("5.0")
        .model_format("free")
        .outliner(outliner)
        .groups(groups)
        .bytes();
    pin(&v5, |l, v| l.max_nesting = v, 5, ErrorCode::NestingTooDeep);
    // Default 64.
    let ok = Model::free().outliner(tree_4x(&chain(64, true))).bytes();
    assert!(try_load(&ok, BbmodelLimits::default()).is_ok());
    let deep = Model::free().outliner(tree_4x(&chain(65, true))).bytes();
    assert_eq!(
        code_with(&deep, BbmodelLimits::default()),
        ErrorCode::NestingTooDeep
    );
}

#[test]
fn max_nesting_counts_a_leaf_group_without_children() {
    let text = outliner_text(&chain(6, false));
    assert!(text.contains(r#""leaf": true}"#), "{text}");
    let bytes = Model::free().set("outliner", Raw(text)).bytes();
    assert_eq!(
        code_with(&bytes, limits(|l| l.max_nesting = 5)),
        ErrorCode::NestingTooDeep
    );
}

#[test]
fn max_textures_is_too_many_textures() {
    let mut m = Model::free();
    for i in 0..3 {
        m = m.texture(Texture::png(&format!("t{i}"), 1, 1));
    }
    let bytes = m.bytes();
    pin(
        &bytes,
        |l, v| l.max_textures = v,
        3,
        ErrorCode::TooManyTextures,
    );
    let many = |n: usize| {
        let mut m = Model::free();
        for i in 0..n {
            m = m.texture(Texture::png(&format!("t{i}"), 1, 1));
        }
        m.bytes()
    };
    assert!(try_load(&many(64), BbmodelLimits::default()).is_ok());
    assert_eq!(
        code_with(&many(65), BbmodelLimits::default()),
        ErrorCode::TooManyTextures
    );
}

/// `n` 1×1 textures named by uuid ("u0", "u1", …) and one cube whose
/// north face names the last by uuid and whose south face stores its index.
fn textures_named_by_uuid(n: usize) -> Vec<u8> {
    let mut m = Model::free();
    for i in 0..n {
        m = m.texture(Texture::png(&format!("t{i}"), 1, 1).uuid(&format!("u{i}")));
    }
    let last = n - 1;
    let cube = Cube::new([0.0; 3], [2.0, 3.0, 4.0])
        .face(
            "north",
            Face::uv([0.0, 0.0, 1.0, 1.0]).texture(format!("u{last}").as_str()),
        )
        .face("south", Face::uv([0.0, 0.0, 1.0, 1.0]).texture(last as f64));
    m.element(cube).bytes()
}

#[test]
fn max_textures_override_above_the_default_is_honoured_whatever_its_size() {
    // "TOO_MANY_TEXTURES textures over maxTextures": an override reads as
    // many textures as it allows (their metadata from the plan), here at
    // and one past the uuids the counting pass holds on the stack
    // (COUNTED_UUIDS, 64) and far past them: a face naming the last by uuid
    // still finds it.
    for n in [64, 65, 300, 1100] {
        let bytes = textures_named_by_uuid(n);
        let loaded = try_load(&bytes, limits(|l| l.max_textures = n as u64)).unwrap();
        let scene = loaded.scene();
        assert_eq!(scene.textures().len(), n);
        assert_eq!(scene.materials().len(), n);
        // Both faces, by uuid and by index, show the last texture.
        let last = (n - 1) as i32;
        assert!(scene.groups().iter().all(|g| g.material == last), "{n}");
        assert_eq!(
            code_with(&bytes, limits(|l| l.max_textures = n as u64 - 1)),
            ErrorCode::TooManyTextures,
            "{n}"
        );
        // measure agrees, and its plan decodes (its counting pass holds
        // no texture metadata).
        let mut o = options(limits(|l| l.max_textures = n as u64));
        o.bbmodel.texture_files = &[];
        let plan = scenedec::measure(&bytes, Some("bbmodel"), &o).unwrap();
        let mut memory = vec![0u64; plan.arena_words()];
        let mut arena = scenedec::Arena::from_words(&mut memory);
        let mut warnings = scenedec::Warnings::new();
        let scene =
            scenedec::decode_into(&bytes, Some("bbmodel"), &o, &mut arena, &mut warnings).unwrap();
        assert_eq!(scene.textures().len(), n);
    }
    // A uuid no texture has is still INVALID_FIELD past the held uuids.
    let bad = String::from_utf8(textures_named_by_uuid(1100))
        .unwrap()
        .replace(r#""texture": "u1099""#, r#""texture": "nope""#);
    assert_eq!(
        code_with(bad.as_bytes(), limits(|l| l.max_textures = 1100)),
        ErrorCode::InvalidField
    );
}

#[test]
fn a_mesh_with_a_group_per_texture_past_the_counted_keys_loads() {
    // Faces of one mesh are grouped by material (Conversion): 600 faces on
    // 600 textures are 600 groups, more than the counting pass tells apart
    // on the stack; it counts those past them as a group each, and the
    // fill writes the groups in memory from the plan.
    let n: usize = 600;
    let mut model = Model::free();
    for i in 0..n {
        model = model.texture(Texture::png(&format!("t{i}"), 1, 1));
    }
    let mut mesh = Mesh::new();
    for i in 0..n {
        let (a, b, c) = (format!("a{i}"), format!("b{i}"), format!("c{i}"));
        let x = i as f64;
        mesh = mesh
            .vertex(&a, [x, 0.0, 0.0])
            .vertex(&b, [x + 1.0, 0.0, 0.0])
            .vertex(&c, [x, 1.0, 0.0])
            .face(
                &format!("f{i}"),
                MeshFace::new(&[(&a, [0.0, 0.0]), (&b, [1.0, 0.0]), (&c, [0.0, 1.0])])
                    .texture(i as f64),
            );
    }
    let bytes = model.element(mesh).bytes();
    let o = options(limits(|l| l.max_textures = n as u64));
    let plan = scenedec::measure(&bytes, Some("bbmodel"), &o).unwrap();
    let mut memory = vec![0u64; plan.arena_words()];
    let mut arena = scenedec::Arena::from_words(&mut memory);
    let mut warnings = scenedec::Warnings::new();
    let scene =
        scenedec::decode_into(&bytes, Some("bbmodel"), &o, &mut arena, &mut warnings).unwrap();
    let materials: Vec<i32> = scene.groups().iter().map(|g| g.material).collect();
    assert_eq!(materials, (0..n as i32).collect::<Vec<_>>());
    let loaded = try_load(&bytes, limits(|l| l.max_textures = n as u64)).unwrap();
    assert_eq!(loaded.scene().groups(), scene.groups());
}

#[test]
fn max_texture_side_is_texture_too_large() {
    for (w, h) in [(8, 1), (1, 8), (8, 8)] {
        let bytes = Model::free().texture(Texture::png("t", w, h)).bytes();
        pin(
            &bytes,
            |l, v| l.max_texture_side = v,
            8,
            ErrorCode::TextureTooLarge,
        );
    }
    // Default 4096, from the PNG header.
    let ok = Model::free().texture(Texture::png("t", 4096, 1)).bytes();
    let loaded = try_load(&ok, BbmodelLimits::default()).unwrap();
    assert_eq!(loaded.scene().textures()[0].width, 4096);
    for (w, h) in [(4097, 1), (1, 4097), (u32::MAX, u32::MAX)] {
        let over = Model::free().texture(Texture::png("t", w, h)).bytes();
        assert_eq!(
            code_with(&over, BbmodelLimits::default()),
            ErrorCode::TextureTooLarge
        );
    }
    // A picked file too.
    let big = png(4097, 4);
    let bytes = Model::free().texture(Texture::named("skin.png")).bytes();
    let mut o = Options::default();
    let files: [(&str, &[u8]); 1] = [("skin.png", &big)];
    o.bbmodel.texture_files = &files;
    let e = scenedec::load(&bytes, Some("bbmodel"), &o).err().unwrap();
    assert_eq!(e.code(), ErrorCode::TextureTooLarge);
}

#[test]
fn max_texture_pixels_is_texture_too_large() {
    let bytes = Model::free().texture(Texture::png("t", 10, 10)).bytes();
    pin(
        &bytes,
        |l, v| l.max_texture_pixels = v,
        100,
        ErrorCode::TextureTooLarge,
    );
    let ok = Model::free().texture(Texture::png("t", 4096, 4096)).bytes();
    assert!(try_load(&ok, BbmodelLimits::default()).is_ok());
    let over = Model::free().texture(Texture::png("t", 4096, 4096)).bytes();
    assert_eq!(
        code_with(&over, limits(|l| l.max_texture_pixels = 16_777_215)),
        ErrorCode::TextureTooLarge
    );
}

#[test]
fn max_data_uri_chars_is_texture_too_large() {
    let uri = png_data_uri(1, 1);
    let bytes = Model::free().texture(Texture::png("t", 1, 1)).bytes();
    pin(
        &bytes,
        |l, v| l.max_data_uri_chars = v,
        uri.len() as u64,
        ErrorCode::TextureTooLarge,
    );
    // Any source counts, not only data URIs.
    let url = "https://example.com/textures/skin.png";
    let bytes = Model::free()
        .texture(Texture::named("t").source(url))
        .bytes();
    pin(
        &bytes,
        |l, v| l.max_data_uri_chars = v,
        url.len() as u64,
        ErrorCode::TextureTooLarge,
    );
}

/// scenedec's own limit beyond the spec's table: the RGBA8 bytes of all
/// textures together, from their headers, before anything is inflated.
#[test]
fn max_texture_bytes_is_texture_too_large_for_all_textures_together() {
    // 8 × 8 and 4 × 2 RGBA8: 256 + 32 bytes.
    let bytes = Model::free()
        .texture(Texture::png("a", 8, 8))
        .texture(Texture::png("b", 4, 2))
        .bytes();
    pin(
        &bytes,
        |l, v| l.max_texture_bytes = v,
        288,
        ErrorCode::TextureTooLarge,
    );
    // A texture without an image counts nothing.
    let bytes = Model::free()
        .texture(Texture::png("a", 8, 8))
        .texture(Texture::named("linked"))
        .bytes();
    pin(
        &bytes,
        |l, v| l.max_texture_bytes = v,
        256,
        ErrorCode::TextureTooLarge,
    );
    assert_eq!(BbmodelLimits::default().max_texture_bytes, 256 << 20);
    let raised = BbmodelLimits::default()
        .with_override("maxTextureBytes", 1024.0)
        .unwrap();
    assert_eq!(raised.max_texture_bytes, 1024);
    assert!(
        BbmodelLimits::default()
            .with_override("maxTextureBytes", 0.5)
            .is_err()
    );
}

#[test]
fn max_string_chars_is_invalid_field_for_names_uuids_and_paths() {
    let n = 16usize;
    let s = |len: usize| "x".repeat(len);
    type Build = Box<dyn Fn(&str) -> Model>;
    let cases: Vec<(&str, Build)> = vec![
        (
            "element name",
            Box::new(|v| Model::free().element(cube().name(v))),
        ),
        (
            "element uuid",
            Box::new(|v| Model::free().element(cube().uuid(v))),
        ),
        (
            "group name",
            Box::new(|v| Model::free().outliner(vec![Group::new(v, "g").inline()])),
        ),
        (
            "5.x group name",
            Box::new(|v| {
                let g = Group::new(v, "g");
                Model::new("5.0")
                    .groups(vec![g.data()])
                    .outliner(vec![g.reference()])
            }),
        ),
        (
            "texture name",
            Box::new(|v| Model::free().texture(Texture::png(v, 1, 1))),
        ),
        (
            "texture uuid",
            Box::new(|v| Model::free().texture(Texture::png("t", 1, 1).uuid(v))),
        ),
        (
            "relative_path",
            Box::new(|v| Model::free().texture(Texture::png("t", 1, 1).set("relative_path", v))),
        ),
        (
            "path",
            Box::new(|v| Model::free().texture(Texture::png("t", 1, 1).set("path", v))),
        ),
    ];
    for (what, build) in cases {
        let at = build(&s(n)).bytes();
        assert!(
            try_load(&at, limits(|l| l.max_string_chars = n as u64)).is_ok(),
            "{what} at the limit"
        );
        let past = build(&s(n + 1)).bytes();
        assert_eq!(
            code_with(&past, limits(|l| l.max_string_chars = n as u64)),
            ErrorCode::InvalidField,
            "{what} one past"
        );
    }
    // Characters, not bytes: 16 × "é" (32 bytes) passes, also escaped.
    let bytes = Model::free().element(cube().name(&"é".repeat(n))).bytes();
    assert!(try_load(&bytes, limits(|l| l.max_string_chars = n as u64)).is_ok());
    let escaped = format!("\"{}\"", "\\u00e9".repeat(n));
    let bytes = Model::free()
        .element(cube().set("name", Raw(escaped)))
        .bytes();
    assert!(try_load(&bytes, limits(|l| l.max_string_chars = n as u64)).is_ok());
    let bytes = Model::free()
        .element(cube().name(&"é".repeat(n + 1)))
        .bytes();
    assert_eq!(
        code_with(&bytes, limits(|l| l.max_string_chars = n as u64)),
        ErrorCode::InvalidField
    );
    // Default 1024.
    let bytes = Model::free().element(cube().name(&s(1024))).bytes();
    assert!(try_load(&bytes, BbmodelLimits::default()).is_ok());
    let bytes = Model::free().element(cube().name(&s(1025))).bytes();
    assert_eq!(
        code_with(&bytes, BbmodelLimits::default()),
        ErrorCode::InvalidField
    );
}

#[test]
fn max_string_chars_applies_to_group_uuids() {
    let long = "u".repeat(17);
    let l = limits(|l| l.max_string_chars = 16);
    let inline = Model::free()
        .outliner(vec![Group::new("g", &long).inline()])
        .bytes();
    assert_eq!(code_with(&inline, l), ErrorCode::InvalidField, "inline");
    let g = Group::new("g", &long);
    let v5 = Model::new("5.0")
        .groups(vec![g.data()])
        .outliner(vec![g.reference()])
        .bytes();
    assert_eq!(code_with(&v5, l), ErrorCode::InvalidField, "5.x");
    let reference = Model::free().outliner(vec![el(&long)]).bytes();
    assert_eq!(
        code_with(&reference, l),
        ErrorCode::InvalidField,
        "outliner uuid"
    );
}

// --------------------------------------------------------- the overrides

#[test]
fn override_accepts_positive_integers_and_infinity() {
    let l = BbmodelLimits::default()
        .with_override("maxTriangles", 11.0)
        .unwrap();
    assert_eq!(l.max_triangles, 11);
    let bytes = cubes(1).bytes();
    assert_eq!(code_with(&bytes, l), ErrorCode::TooManyTriangles);
    let l = l.with_override("maxTriangles", 12.0).unwrap();
    assert!(try_load(&bytes, l).is_ok());
    let l = BbmodelLimits::default()
        .with_override("maxTriangles", f64::INFINITY)
        .unwrap();
    assert!(l.max_triangles >= u64::from(u32::MAX));
    assert!(try_load(&bytes, l).is_ok());
    for name in [
        "maxFileBytes",
        "maxElements",
        "maxGroups",
        "maxTriangles",
        "maxVertices",
        "maxFaceVertices",
        "maxNesting",
        "maxTextures",
        "maxTextureSide",
        "maxTexturePixels",
        "maxDataUriChars",
        "maxStringChars",
        "maxAnimations",
        "maxKeyframes",
    ] {
        let one = BbmodelLimits::default().with_override(name, 1.0).unwrap();
        assert_ne!(one, BbmodelLimits::default(), "{name}");
        let inf = BbmodelLimits::default()
            .with_override(name, f64::INFINITY)
            .unwrap();
        assert_ne!(inf, BbmodelLimits::default(), "{name}");
        // Everything that loads under the defaults loads under Infinity.
        assert!(try_load(&bytes, inf).is_ok(), "{name} = Infinity");
    }
}

#[test]
fn override_that_is_no_positive_integer_is_invalid_limit() {
    for bad in [
        0.0,
        -0.0,
        -1.0,
        0.5,
        1.5,
        f64::NAN,
        f64::NEG_INFINITY,
        f64::MIN_POSITIVE,
    ] {
        let e = BbmodelLimits::default()
            .with_override("maxTriangles", bad)
            .unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidLimit, "{bad}");
        assert!(e.code().is_caller_error(), "{bad}");
    }
    for name in ["maxBananas", "max_triangles", "MaxTriangles", ""] {
        let e = BbmodelLimits::default()
            .with_override(name, 5.0)
            .unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidLimit, "{name:?}");
    }
    // File errors are never caller errors.
    assert!(!ErrorCode::TooManyTriangles.is_caller_error());
    assert!(!ErrorCode::NotJson.is_caller_error());
}

// -------------------------------------------------------- hostile inputs

/// Runs `f` (a load under test); in optimised builds it must end within 5 s.
/// Inputs are built before, outside the timing.
fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let out = f();
    if !cfg!(debug_assertions) {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{what} took {:?}",
            started.elapsed()
        );
    }
    out
}

#[test]
fn json_nesting_bombs_fail_typed_and_fast() {
    for depth in [2_000usize, 100_000, 1_000_000] {
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let bomb = format!(
                r#"{{"meta": {{"format_version": "4.10"}}, "outliner": {}0{}}}"#,
                open.repeat(depth),
                close.repeat(depth)
            );
            let e = timed("nesting bomb", || {
                try_load(bomb.as_bytes(), BbmodelLimits::default()).err()
            })
            .unwrap();
            assert_eq!(e.code(), ErrorCode::NotJson, "{depth} {open}");
        }
    }
}

#[test]
fn group_nesting_bomb_with_unlimited_max_nesting_fails_typed() {
    let unlimited = limits(|l| l.max_nesting = u64::MAX);
    // Deep but within the JSON depth bound: loads.
    let bytes = Model::free().outliner(tree_4x(&chain(300, true))).bytes();
    let loaded = try_load(&bytes, unlimited).unwrap();
    assert_eq!(loaded.scene().nodes().len(), 300);
    assert_eq!(loaded.scene().nodes()[299].parent, 298);
    // Past it: a typed error, never a stack overflow.
    for depth in [600usize, 5_000, 50_000] {
        let mut text = String::new();
        for i in 0..depth {
            text.push_str(&format!(r#"{{"name": "g", "uuid": "g{i}", "children": ["#));
        }
        text.push_str(&"]}".repeat(depth));
        let bytes = Model::free()
            .set("outliner", Raw(format!("[{text}]")))
            .bytes();
        let code = timed("group nesting bomb", || code_with(&bytes, unlimited));
        assert!(
            matches!(code, ErrorCode::NestingTooDeep | ErrorCode::NotJson),
            "{depth}: {code:?}"
        );
        let code = code_with(&bytes, BbmodelLimits::default());
        assert!(
            matches!(code, ErrorCode::NestingTooDeep | ErrorCode::NotJson),
            "{depth}: {code:?}"
        );
    }
}

#[test]
fn group_nesting_past_the_json_depth_bound_is_nesting_too_deep() {
    let depth = 600;
    let mut text = String::new();
    for i in 0..depth {
        text.push_str(&format!(r#"{{"name": "g", "uuid": "g{i}", "children": ["#));
    }
    text.push_str(&"]}".repeat(depth));
    let bytes = Model::free()
        .set("outliner", Raw(format!("[{text}]")))
        .bytes();
    assert_eq!(
        code_with(&bytes, BbmodelLimits::default()),
        ErrorCode::NestingTooDeep
    );
}

#[test]
fn huge_counts_fail_before_work_proportional_to_them() {
    let items = vec!["{}"; 1_000_000].join(",");
    let text = format!(r#"{{"meta": {{"format_version": "4.10"}}, "elements": [{items}]}}"#);
    assert_eq!(
        timed("huge input", || code_with(
            text.as_bytes(),
            BbmodelLimits::default()
        )),
        ErrorCode::TooManyElements
    );
    let items = vec!["{}"; 100_000].join(",");
    let text = format!(r#"{{"meta": {{"format_version": "4.10"}}, "textures": [{items}]}}"#);
    assert_eq!(
        timed("huge input", || code_with(
            text.as_bytes(),
            BbmodelLimits::default()
        )),
        ErrorCode::TooManyTextures
    );
    let items = vec![r#"{"uuid": "x"}"#; 20_000].join(",");
    let text = format!(r#"{{"meta": {{"format_version": "5.0"}}, "groups": [{items}]}}"#);
    assert_eq!(
        timed("huge input", || code_with(
            text.as_bytes(),
            BbmodelLimits::default()
        )),
        ErrorCode::TooManyElements
    );
    let items = vec![r#""x""#; 20_001].join(",");
    let text = format!(r#"{{"meta": {{"format_version": "4.10"}}, "outliner": [{items}]}}"#);
    assert_eq!(
        timed("huge input", || code_with(
            text.as_bytes(),
            BbmodelLimits::default()
        )),
        ErrorCode::TooManyElements
    );
}

#[test]
fn a_mesh_over_max_vertices_keys_fails_too_many_vertices() {
    let keys: Vec<String> = (0..400_001)
        .map(|i| format!("\"{i}\": [0, 0, 0]"))
        .collect();
    let text = format!(
        r#"{{"meta": {{"format_version": "4.10"}}, "elements": [{{"type": "mesh", "vertices": {{{}}}, "faces": {{}}}}]}}"#,
        keys.join(",")
    );
    assert_eq!(
        timed("huge input", || code_with(
            text.as_bytes(),
            BbmodelLimits::default()
        )),
        ErrorCode::TooManyVertices
    );
}

#[test]
fn a_mesh_over_max_triangles_fails_before_triangulating() {
    // 40 001 faces of 7 vertices: 5 triangles each, 200 005 in all.
    let keys: Vec<String> = (0..7)
        .map(|i| format!("\"k{i}\": [{}, {}, 0]", i % 3, i / 3))
        .collect();
    let face = r#"{"vertices": ["k0","k1","k2","k3","k4","k5","k6"], "uv": {"k0": [0,0], "k1": [0,0], "k2": [0,0], "k3": [0,0], "k4": [0,0], "k5": [0,0], "k6": [0,0]}}"#;
    let faces: Vec<String> = (0..40_001).map(|i| format!("\"f{i}\": {face}")).collect();
    let text = format!(
        r#"{{"meta": {{"format_version": "4.10"}}, "elements": [{{"type": "mesh", "vertices": {{{}}}, "faces": {{{}}}}}]}}"#,
        keys.join(","),
        faces.join(",")
    );
    assert_eq!(
        timed("huge input", || code_with(
            text.as_bytes(),
            BbmodelLimits::default()
        )),
        ErrorCode::TooManyTriangles
    );
}

#[test]
fn max_triangles_of_16_vertex_faces_load_well_under_5_seconds() {
    // 14 285 concave 16-gons: 199 990 triangles, all ear-clipped.
    let mut keys = Vec::new();
    for i in 0..16 {
        let a = i as f64 * std::f64::consts::PI / 8.0;
        let r = if i % 2 == 0 { 8.0 } else { 3.0 };
        keys.push(format!("\"k{i}\": [{}, {}, 0]", r * a.cos(), r * a.sin()));
    }
    let names: Vec<String> = (0..16).map(|i| format!("\"k{i}\"")).collect();
    let uvs: Vec<String> = (0..16).map(|i| format!("\"k{i}\": [0, 0]")).collect();
    let face = format!(
        r#"{{"vertices": [{}], "uv": {{{}}}}}"#,
        names.join(","),
        uvs.join(",")
    );
    let faces: Vec<String> = (0..14_285).map(|i| format!("\"f{i}\": {face}")).collect();
    let text = format!(
        r#"{{"meta": {{"format_version": "4.10", "model_format": "free"}}, "elements": [{{"type": "mesh", "vertices": {{{}}}, "faces": {{{}}}}}]}}"#,
        keys.join(","),
        faces.join(",")
    );
    let loaded = timed("maxTriangles of 16-gons", || {
        try_load(text.as_bytes(), BbmodelLimits::default())
    })
    .unwrap();
    assert_eq!(loaded.scene().triangle_count(), 14_285 * 14);
}

#[test]
fn long_strings_and_huge_png_headers_fail_typed() {
    let bytes = Model::free()
        .element(cube().name(&"n".repeat(10 << 20)))
        .bytes();
    assert_eq!(
        timed("long name", || code_with(&bytes, BbmodelLimits::default())),
        ErrorCode::InvalidField
    );
    let big_uri = format!("data:image/png;base64,{}", "A".repeat((24 << 20) + 4));
    let bytes = Model::free()
        .texture(Texture::named("t").source(&big_uri))
        .bytes();
    assert_eq!(
        timed("long source", || code_with(
            &bytes,
            BbmodelLimits::default()
        )),
        ErrorCode::TextureTooLarge
    );
}

/// A small file that uses most of what the reader reads, 4.x (inline
/// groups) or 5.x (groups array).
fn rich_models() -> Vec<Vec<u8>> {
    vec![rich_model(false), rich_model(true)]
}

fn rich_model(v5: bool) -> Vec<u8> {
    let tree = vec![
        Tree::Element("c1"),
        Tree::Group(
            Group::new("body", "g1")
                .origin([1.0, 2.0, 3.0])
                .rotation([0.0, 45.0, 0.0]),
            vec![
                Tree::Element("m1"),
                Tree::Group(Group::new("arm", "g2"), vec![Tree::Element("c2")]),
            ],
        ),
    ];
    let model = Model::free()
        .box_uv(false)
        .resolution(32.0, 32.0)
        .texture(Texture::png("skin", 2, 2).uuid("t1").render_sides("double"))
        .texture(Texture::named("other.png").set("relative_path", "../other.png"))
        .element(
            cube()
                .uuid("c1")
                .rotation([0.0, 22.5, 0.0])
                .face(
                    "north",
                    Face::uv([0.0, 0.0, 4.0, 4.0])
                        .texture(json!(0))
                        .rotation(90.0),
                )
                .face("south", Face::empty().texture(json!(null))),
        )
        .element(
            Mesh::new()
                .uuid("m1")
                .shading("smooth")
                .vertex("a", [0.0, 0.0, 0.0])
                .vertex("b", [1.0, 0.0, 0.0])
                .vertex("c", [1.0, 1.0, 0.0])
                .vertex("d", [0.0, 1.0, 0.0])
                .face(
                    "q",
                    MeshFace::new(&[
                        ("a", [0.0, 0.0]),
                        ("b", [1.0, 0.0]),
                        ("c", [1.0, 1.0]),
                        ("d", [0.0, 1.0]),
                    ])
                    .texture("t1"),
                ),
        )
        .element(cube().uuid("c2").box_uv(true).inflate(0.5))
        .element(json!({"type": "locator", "uuid": "l1"}));
    if v5 {
        let (outliner, groups) = tree_5x(&tree);
        model
            .meta("format_version", "5.0")
            .outliner(outliner)
            .groups(groups)
            .bytes()
    } else {
        model.outliner(tree_4x(&tree)).bytes()
    }
}

#[test]
fn every_truncation_of_a_small_file_is_a_typed_error() {
    for bytes in rich_models() {
        let loaded = try_load(&bytes, BbmodelLimits::default()).unwrap();
        assert_eq!(loaded.scene().meshes().len(), 3);
        assert_eq!(loaded.scene().nodes().len(), 2);
        for end in 0..bytes.len() {
            let e = try_load(&bytes[..end], BbmodelLimits::default())
                .err()
                .unwrap_or_else(|| panic!("a prefix of {end} bytes loaded"));
            assert_eq!(e.code(), ErrorCode::NotJson, "prefix of {end} bytes: {e}");
        }
    }
}

#[test]
fn every_single_byte_change_of_a_small_file_loads_or_fails_typed() {
    let mut failures = 0usize;
    for bytes in rich_models() {
        for i in 0..bytes.len() {
            for b in [
                b'"', b'{', b'}', b'[', b']', b',', b':', b'0', b'-', b'e', b'\\', 0, 0xff,
            ] {
                let mut changed = bytes.clone();
                changed[i] = b;
                if let Err(e) = try_load(&changed, BbmodelLimits::default()) {
                    // `load` sizes its arena with `measure`: they never disagree.
                    assert_ne!(e.code(), ErrorCode::ArenaTooSmall, "byte {i} = {b}: {e}");
                    failures += 1;
                }
            }
        }
    }
    assert!(failures > 0);
}

#[test]
fn outliner_entries_that_are_neither_uuid_nor_group_are_invalid_field() {
    for bad in [
        json!([1]),
        json!([null]),
        json!([["x"]]),
        json!("x"),
        json!(5),
    ] {
        let bytes = Model::free().set("outliner", bad.clone()).bytes();
        assert_eq!(
            code_with(&bytes, BbmodelLimits::default()),
            ErrorCode::InvalidField,
            "{bad}"
        );
    }
}
