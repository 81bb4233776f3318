//! The texture half of the loader specification, one test per rule, named
//! after it: the render-mode material table, the default texture and the
//! layer composite (Conversion; Blockbench conventions 15), OptiFine
//! group textures and Hytale collections (Conversion, "Default texture";
//! Warnings) and frame strips (Supported; conventions 14).

mod support;

use scenedec::scene::{AlphaMode, Blending, FrameOrder, GroupFlags, MaterialFlags, Scene};
use scenedec::{Loaded, Options, WarningCode};
use serde_json::json;
use support::bbmodel_builder::{
    Cube, Face, Group, Mesh, MeshFace, Model, Texture, Tree, tree_4x, tree_5x,
};

fn load(bytes: &[u8]) -> Loaded<'_> {
    let options = Options::default();
    let loaded = scenedec::load(bytes, Some("bbmodel"), &options)
        .unwrap_or_else(|e| panic!("load failed: {e}\n{}", String::from_utf8_lossy(bytes)));
    // `measure`'s plan, which counts without placing elements (an upper
    // bound where a face's texture depends on its place), holds the same
    // scene: decoded into exactly its bytes.
    let plan = scenedec::measure(bytes, Some("bbmodel"), &options).unwrap();
    let mut memory = vec![0u64; plan.arena_bytes().div_ceil(8)];
    let mut arena = scenedec::Arena::from_words(&mut memory);
    let mut warnings = scenedec::Warnings::new();
    let scene = scenedec::decode_into(bytes, Some("bbmodel"), &options, &mut arena, &mut warnings)
        .unwrap_or_else(|e| panic!("decode_into failed: {e}"));
    assert_eq!(scene.groups(), loaded.scene().groups());
    assert_eq!(scene.meshes(), loaded.scene().meshes());
    loaded
}

fn warnings(loaded: &Loaded<'_>) -> Vec<(WarningCode, String)> {
    loaded
        .warnings()
        .as_slice()
        .iter()
        .map(|w| (w.code(), w.at().to_string()))
        .collect()
}

/// (material, double-sided) of each group of mesh `mesh`.
fn groups(scene: &Scene<'_>, mesh: usize) -> Vec<(i32, bool)> {
    let m = scene.meshes()[mesh];
    scene.groups()[m.first_group as usize..(m.first_group + m.group_count) as usize]
        .iter()
        .map(|g| (g.material, g.flags & GroupFlags::DOUBLE_SIDED != 0))
        .collect()
}

/// The groups of mesh 0 of the model `bytes`.
fn groups_in(bytes: &[u8]) -> Vec<(i32, bool)> {
    groups(&load(bytes).scene(), 0)
}

/// The UV rect of every triangle of mesh `mesh`, one per face (a cube face
/// or a mesh triangle), in index order.
fn rects(scene: &Scene<'_>, mesh: usize) -> Vec<[f32; 4]> {
    let m = scene.meshes()[mesh];
    let first = m.first_index as usize / 3;
    let mut out: Vec<[f32; 4]> =
        scene.uv_rects()[first..first + m.index_count as usize / 3].to_vec();
    out.dedup();
    out
}

/// A cube with its north face on `north` and its south face on `south`
/// (a texture index, `false` for blank); the other faces removed.
fn two_face_cube(north: serde_json::Value, south: serde_json::Value) -> Cube {
    let mut cube = Cube::new([0.0; 3], [4.0, 4.0, 4.0]);
    for face in ["east", "west", "up", "down"] {
        cube = cube.face(face, Face::uv([0.0, 0.0, 4.0, 4.0]).texture(json!(null)));
    }
    let with = |f: Face, t: serde_json::Value| if t == json!(false) { f } else { f.texture(t) };
    cube.face("north", with(Face::uv([0.0, 0.0, 8.0, 8.0]), north))
        .face("south", with(Face::uv([0.0, 0.0, 8.0, 8.0]), south))
}

/// The groups of a two-texture model in `format` whose cube has a face on
/// texture 1 and a blank face.
fn stored_1_and_blank(format: &str) -> Vec<(i32, bool)> {
    let bytes = Model::format(format)
        .texture(Texture::png("a", 16, 16))
        .texture(Texture::png("b", 16, 16))
        .element(two_face_cube(json!(1), json!(false)))
        .bytes();
    groups_in(&bytes)
}

const SINGLE_TEXTURE: [&str; 10] = [
    "bedrock",
    "bedrock_old",
    "modded_entity",
    "skin",
    "image",
    "geckolib_model",
    "animated_entity_model",
    "azure_model",
    "cosmic_reach_entity_model",
    "optifine_player_model",
];

const OWN_TEXTURE: [&str; 9] = [
    "free",
    "java_block",
    "figura",
    "bamo_model",
    "free_rotation",
    "java_block_sequence",
    "cosmic_reach_model",
    "eme_entity",
    "some_plugin",
];

// ------------------------------------------------------- render modes

#[test]
fn render_mode_table_sets_alpha_mode_cutoff_blending_and_emission() {
    let model = Model::free()
        .texture(Texture::png("plain", 16, 16))
        .texture(Texture::png("glow", 16, 16).set("render_mode", "emissive"))
        .texture(Texture::png("add", 16, 16).set("render_mode", "additive"))
        .texture(Texture::png("layer", 16, 16).set("render_mode", "layered"))
        .texture(Texture::png("odd", 16, 16).set("render_mode", "sparkle"))
        .texture(Texture::png("num", 16, 16).set("render_mode", 3.0))
        .bytes();
    let loaded = load(&model);
    let scene = loaded.scene();
    let m = scene.materials();
    assert_eq!(m.len(), 6, "one material per texture, no composite in free");
    for (i, material) in m.iter().enumerate() {
        assert_eq!(material.texture, i as i32);
        assert_eq!(material.alpha_cutoff, 0.01, "{i}");
        assert_eq!(material.layer_count, 0);
    }
    let mode = |i: usize| {
        (
            m[i].alpha_mode(),
            m[i].blending(),
            m[i].flags & MaterialFlags::ALPHA_EMISSION != 0,
        )
    };
    // default or absent: blend, 0.01.
    assert_eq!(mode(0), (AlphaMode::Blend, Blending::Normal, false));
    // emissive: mask, 0.01, alphaEmission.
    assert_eq!(mode(1), (AlphaMode::Mask, Blending::Normal, true));
    // additive: blend, 0.01, additive.
    assert_eq!(mode(2), (AlphaMode::Blend, Blending::Additive, false));
    // layered (outside a single-texture format) and anything else: as default.
    for i in 3..6 {
        assert_eq!(mode(i), (AlphaMode::Blend, Blending::Normal, false), "{i}");
    }
    assert_eq!(
        warnings(&loaded),
        [
            (
                WarningCode::UnsupportedValue,
                "$.textures[4].render_mode".into()
            ),
            (
                WarningCode::UnsupportedValue,
                "$.textures[5].render_mode".into()
            ),
        ]
    );
    // Issue 35: a value warning shows the value (a string quoted, else its type).
    let messages: Vec<&str> = loaded
        .warnings()
        .as_slice()
        .iter()
        .map(|w| w.message())
        .collect();
    assert_eq!(
        messages,
        [
            "unknown render_mode \"sparkle\": default used",
            "unknown render_mode (a number): default used",
        ]
    );
}

#[test]
fn missing_texture_names_the_file_it_looked_for() {
    // Issue 35: MISSING_TEXTURE names the path (or, without one, the name)
    // it looked for; the subject is that texture.
    let bytes = Model::free()
        .texture(Texture::named("linked"))
        .texture(Texture::named("skin").set("path", "/packs/skin.png"))
        .bytes();
    let loaded = load(&bytes);
    let got: Vec<(WarningCode, &str, &str)> = loaded
        .warnings()
        .as_slice()
        .iter()
        .map(|w| (w.code(), w.subject(), w.message()))
        .collect();
    assert_eq!(
        got,
        [
            (
                WarningCode::MissingTexture,
                "texture \"linked\"",
                "no embedded image and no picked file \"linked\""
            ),
            (
                WarningCode::MissingTexture,
                "texture \"/packs/skin.png\"",
                "no embedded image and no picked file \"/packs/skin.png\""
            ),
        ]
    );
}

// ------------------------------------------------ default texture (15)

#[test]
fn convention_15_single_texture_formats_show_the_default_texture_on_every_face() {
    for format in SINGLE_TEXTURE {
        // Both faces, the one storing texture 1 and the blank one, show texture 0.
        assert_eq!(stored_1_and_blank(format), [(0, true)], "{format}");
    }
}

#[test]
fn convention_15_other_formats_keep_each_faces_own_texture() {
    for format in OWN_TEXTURE {
        let sided = format != "java_block";
        let mut got = stored_1_and_blank(format);
        got.sort();
        assert_eq!(got, [(-1, sided), (1, sided)], "{format}");
    }
}

#[test]
fn convention_15_bedrock_block_blank_faces_show_the_default_texture() {
    let bytes = Model::format("bedrock_block")
        .texture(Texture::png("a", 16, 16))
        .texture(Texture::png("b", 16, 16))
        .element(two_face_cube(json!(1), json!(false)))
        .bytes();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(groups(&scene, 0), [(0, true), (1, true)]);
}

#[test]
fn convention_15_use_as_default_where_single_texture_default_reads_it() {
    let model = |format: &str| {
        Model::format(format)
            .texture(Texture::png("a", 16, 16))
            .texture(Texture::png("b", 16, 16).set("use_as_default", true))
            .element(two_face_cube(json!(false), json!(false)))
            .bytes()
    };
    // bedrock_block reads it (Format.single_texture_default) ...
    assert_eq!(groups_in(&model("bedrock_block")), [(1, true)]);
    assert_eq!(groups_in(&model("hytale_prop")), [(1, true)]);
    // ... bedrock does not: the first texture.
    assert_eq!(groups_in(&model("bedrock")), [(0, true)]);
}

#[test]
fn convention_15_no_texture_leaves_the_face_untextured() {
    let bytes = Model::format("bedrock")
        .element(two_face_cube(json!(false), json!(false)))
        .bytes();
    assert_eq!(groups_in(&bytes), [(-1, true)]);
}

#[test]
fn convention_15_uv_size_and_frames_follow_the_texture_shown() {
    // image has per-texture UV size and animates strips; the face stores
    // texture 1 but shows texture 0 (uv 32 × 32, a 2-frame strip).
    let bytes = Model::format("image")
        .texture(Texture::png("a", 32, 64).uv_size(32.0, 32.0))
        .texture(Texture::png("b", 16, 16).uv_size(8.0, 8.0))
        .element(two_face_cube(json!(1), json!(1)))
        .bytes();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(groups(&scene, 0), [(0, true)]);
    assert_eq!(scene.textures()[0].frame_count, 2);
    // uv [0, 0, 8, 8] over 32 × 32, v then halved by the 2 frames.
    assert_eq!(rects(&scene, 0), [[0.0, 0.0, 0.25, 0.125]]);
}

/// `mesh` with two triangles on four corners: face "null" (`texture: null`)
/// and face "on", on texture `on`; both with UVs in pixels of a 16² texture.
fn null_and_textured_face(mesh: Mesh, on: u32) -> Mesh {
    mesh.vertex("a", [0.0, 0.0, 0.0])
        .vertex("b", [8.0, 0.0, 0.0])
        .vertex("c", [0.0, 8.0, 0.0])
        .vertex("d", [0.0, 0.0, 8.0])
        .face(
            "null",
            MeshFace::new(&[("a", [0.0, 0.0]), ("b", [8.0, 0.0]), ("c", [0.0, 8.0])])
                .texture(json!(null)),
        )
        .face(
            "on",
            MeshFace::new(&[("a", [0.0, 0.0]), ("b", [8.0, 0.0]), ("d", [0.0, 8.0])])
                .texture(json!(on)),
        )
}

#[test]
fn convention_15_mesh_null_face_draws_with_the_default_material_on_resolution_uvs() {
    let mesh = || null_and_textured_face(Mesh::new(), 0);
    // A 2-frame strip in bedrock (animating, single-texture).
    let bytes = Model::format("bedrock")
        .texture(Texture::png("strip", 16, 32))
        .element(mesh())
        .bytes();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(groups(&scene, 0), [(0, true)]);
    let uvs = &scene.uvs()[..6];
    // The null face: over the resolution (16), no frame division.
    assert_eq!(uvs[..3], [[0.0, 0.0], [0.5, 0.0], [0.0, 0.5]]);
    // The textured face: over the texture, v divided by the 2 frames.
    assert_eq!(uvs[3..], [[0.0, 0.0], [0.5, 0.0], [0.0, 0.25]]);
    // Where faces keep their own texture the null face stays untextured.
    let bytes = Model::free()
        .texture(Texture::png("strip", 16, 32))
        .element(mesh())
        .bytes();
    let mut got = groups_in(&bytes);
    got.sort();
    assert_eq!(got, [(-1, true), (0, true)]);
}

// ------------------------------------------- OptiFine group textures

/// The material of every group of the mesh named `name`.
fn materials_of(scene: &Scene<'_>, name: &str) -> Vec<i32> {
    let mesh = (0..scene.meshes().len())
        .find(|&m| scene.text(scene.meshes()[m].name) == name)
        .unwrap_or_else(|| panic!("no mesh {name}"));
    groups(scene, mesh).into_iter().map(|(m, _)| m).collect()
}

/// A cube named `name` (uuid `name`) with a north face storing texture 1
/// and a blank south face.
fn named_cube(name: &str) -> Cube {
    two_face_cube(json!(1), json!(false)).name(name).uuid(name)
}

/// Three textures a, b, c (uuids "ta", "tb", "tc"), as 4.x (inline
/// outliner) or 5.x (`groups` array) files of `format` with `tree`.
fn three_textures(format: &str, v5: bool, tree: &[Tree]) -> Model {
    let model = if v5 {
        let (outliner, groups) = tree_5x(tree);
        Model::new("5.0")
            .model_format(format)
            .outliner(outliner)
            .groups(groups)
    } else {
        Model::format(format).outliner(tree_4x(tree))
    };
    ["a", "b", "c"].iter().fold(model, |m, t| {
        m.texture(Texture::png(t, 16, 16).uuid(&format!("t{t}")))
    })
}

#[test]
fn convention_15_optifine_faces_show_their_parent_groups_texture_else_the_default() {
    // "in optifine_entity and optifine_part every face shows its parent
    // group's texture (a texture uuid ...) or else the default texture".
    // The parent is the nearest group: Blockbench's Face.getTexture asks
    // `element.parent.texture` only, so a group without one shows the
    // default texture even inside a group with one.
    let tree = [
        Tree::Group(
            Group::new("textured", "g1").set("texture", "tc"),
            vec![
                Tree::Element("in_c"),
                Tree::Group(Group::new("plain", "g2"), vec![Tree::Element("nested")]),
            ],
        ),
        Tree::Group(
            Group::new("empty", "g3").set("texture", ""),
            vec![Tree::Element("in_empty")],
        ),
        Tree::Element("at_root"),
    ];
    for format in ["optifine_entity", "optifine_part"] {
        for v5 in [false, true] {
            let mut model = three_textures(format, v5, &tree);
            for name in ["in_c", "nested", "in_empty", "at_root"] {
                model = model.element(named_cube(name));
            }
            let bytes = model.bytes();
            let loaded = load(&bytes);
            let scene = loaded.scene();
            let what = format!("{format} 5.x {v5}");
            // Both faces (texture 1 and blank) show the group's texture c.
            assert_eq!(materials_of(&scene, "in_c"), [2], "{what}");
            // Default texture: the first (no use_as_default).
            for name in ["nested", "in_empty", "at_root"] {
                assert_eq!(materials_of(&scene, name), [0], "{what} {name}");
            }
            assert!(warnings(&loaded).is_empty(), "{what}");
        }
    }
}

#[test]
fn convention_15_optifine_group_texture_naming_no_texture_warns_and_leaves_faces_untextured() {
    // Warnings: "in optifine_entity and optifine_part a group texture that
    // is no string warns UNSUPPORTED_VALUE (ignored) and one naming no
    // texture UNKNOWN_REFERENCE (the group's faces are untextured)".
    let tree = [
        Tree::Group(
            Group::new("lost", "g1").set("texture", "nope"),
            vec![Tree::Element("lost")],
        ),
        Tree::Group(
            Group::new("number", "g2").set("texture", 2.0),
            vec![Tree::Element("number")],
        ),
    ];
    for (v5, paths) in [
        (false, ["$.outliner.texture", "$.outliner.texture"]),
        (true, ["$.groups[0].texture", "$.groups[1].texture"]),
    ] {
        let mut model = three_textures("optifine_entity", v5, &tree);
        for name in ["lost", "number"] {
            model = model.element(named_cube(name));
        }
        let bytes = model.bytes();
        let loaded = load(&bytes);
        let scene = loaded.scene();
        assert_eq!(materials_of(&scene, "lost"), [-1], "5.x {v5}");
        assert_eq!(materials_of(&scene, "number"), [0], "5.x {v5}");
        assert_eq!(
            warnings(&loaded),
            [
                (WarningCode::UnknownReference, paths[0].to_owned()),
                (WarningCode::UnsupportedValue, paths[1].to_owned()),
            ],
            "5.x {v5}"
        );
    }
}

#[test]
fn convention_15_optifine_mesh_null_faces_follow_the_group_texture() {
    // "A mesh face with texture: null draws ... with its group's texture in
    // the optifine formats; elsewhere it stays untextured": Face.getTexture
    // asks the group before it looks at the face, so the null face takes
    // the group texture's material and UV size; without a group texture it
    // stays untextured while the other faces show the default texture.
    let mesh = |uuid: &str| null_and_textured_face(Mesh::new().uuid(uuid).set("name", uuid), 1);
    let tree = [
        Tree::Group(
            Group::new("textured", "g1").set("texture", "tc"),
            vec![Tree::Element("in_c")],
        ),
        Tree::Element("at_root"),
    ];
    let bytes = Model::format("optifine_entity")
        .outliner(tree_4x(&tree))
        .texture(Texture::png("a", 16, 16).uuid("ta"))
        .texture(Texture::png("b", 16, 16).uuid("tb"))
        .texture(Texture::png("c", 32, 32).uuid("tc").uv_size(32.0, 32.0))
        .element(mesh("in_c"))
        .element(mesh("at_root"))
        .bytes();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(materials_of(&scene, "in_c"), [2]);
    // The null face's UVs over texture c's 32 × 32: (8, 0) is u 0.25.
    let m = scene.meshes()[0];
    assert_eq!(scene.text(m.name), "in_c");
    let first = m.first_vertex as usize;
    assert_eq!(scene.uvs()[first + 1], [0.25, 0.0]);
    let mut root = materials_of(&scene, "at_root");
    root.sort();
    assert_eq!(root, [-1, 0]);
}

#[test]
fn optifine_corpus_files_show_the_group_texture_and_warn_for_an_unknown_one() {
    // oafs8x8 camel (optifine_entity 4.10): one texture, camel.png (uuid
    // 171959c9-…), use_as_default; every group stores texture "" except
    // "mirror", nested in "bridle", which stores camel.png's uuid. So every
    // face shows texture 0: mirror's cube by its group, the others by the
    // default texture. beemancer armor (5.0): one texture, every `groups`
    // entry's texture "": all default, texture 0.
    let Some(dir) = support::corpus_dir() else {
        eprintln!("SKIPPED: ../shared/corpus is absent");
        return;
    };
    let dir = dir.join("bbmodel");
    let camel =
        std::fs::read(dir.join("oafs8x8_camel_optifine_entity_v4_10_group_texture.bbmodel"))
            .unwrap();
    for (bytes, meshes) in [
        (camel.clone(), 22),
        (
            std::fs::read(dir.join("beemancer_armor_optifine_entity_v5_0.bbmodel")).unwrap(),
            7,
        ),
    ] {
        let loaded = load(&bytes);
        let scene = loaded.scene();
        assert_eq!(scene.meshes().len(), meshes);
        for m in 0..meshes {
            assert_eq!(
                groups(&scene, m).iter().map(|g| g.0).collect::<Vec<_>>(),
                [0]
            );
        }
    }
    // The same camel with mirror's texture naming no texture: its one cube
    // (the 21st element, "mirror") turns untextured with UNKNOWN_REFERENCE
    // at the group's field; nothing else changes.
    let text = String::from_utf8(camel).unwrap();
    let marker = r#""texture":"171959c9-bee2-3530-c251-a4a97dff98e4""#;
    assert_eq!(
        text.matches(marker).count(),
        1,
        "only mirror names the texture"
    );
    let lost = text.replace(marker, r#""texture":"not-a-texture""#);
    let loaded = load(lost.as_bytes());
    let scene = loaded.scene();
    assert_eq!(materials_of(&scene, "mirror"), [-1]);
    let untextured = (0..22).filter(|&m| groups(&scene, m)[0].0 == -1).count();
    assert_eq!(untextured, 1);
    assert_eq!(
        warnings(&loaded),
        [(
            WarningCode::UnknownReference,
            "$.outliner.texture".to_owned()
        )]
    );
}

// ------------------------------------------------- Hytale collections

#[test]
fn convention_15_hytale_cubes_show_the_first_collection_containing_them() {
    // "a cube that a collection contains (the cube's uuid or an ancestor
    // group's uuid in its children, or an equal non-zero scope on both; the
    // first such collection in file order) shows that collection's texture
    // ... on every face except texture: null, untextured when it has none
    // or names no texture (UNKNOWN_REFERENCE); any other cube shows the
    // default texture on those faces".
    let tree = [
        Tree::Group(
            Group::new("outer", "g1"),
            vec![Tree::Group(
                Group::new("inner", "g2"),
                vec![Tree::Element("deep")],
            )],
        ),
        Tree::Element("listed"),
        Tree::Element("scoped"),
        Tree::Element("bare"),
        Tree::Element("none"),
        Tree::Element("lost"),
    ];
    for format in ["hytale_character", "hytale_prop"] {
        for v5 in [false, true] {
            let collections = json!([
                // "deep" is in this one by its grandparent g1 ...
                {"children": ["g1"], "texture": "tb"},
                // ... and in this one by its own uuid: the first wins.
                {"children": ["listed", "deep"], "texture": "tc"},
                {"scope": 3, "texture": "tb"},
                {"children": ["none"]},
                {"children": ["lost"], "texture": "missing"},
            ]);
            let mut model = three_textures(format, v5, &tree).set("collections", collections);
            for name in ["deep", "listed", "bare", "none", "lost"] {
                model = model.element(named_cube(name));
            }
            model = model.element(named_cube("scoped").set("scope", "3"));
            let bytes = model.bytes();
            let loaded = load(&bytes);
            let scene = loaded.scene();
            let what = format!("{format} 5.x {v5}");
            assert_eq!(materials_of(&scene, "deep"), [1], "{what}");
            assert_eq!(materials_of(&scene, "listed"), [2], "{what}");
            assert_eq!(materials_of(&scene, "scoped"), [1], "{what}");
            // No collection: the default texture (the first) on both faces.
            assert_eq!(materials_of(&scene, "bare"), [0], "{what}");
            assert_eq!(materials_of(&scene, "none"), [-1], "{what}");
            assert_eq!(materials_of(&scene, "lost"), [-1], "{what}");
            assert_eq!(
                warnings(&loaded),
                [(
                    WarningCode::UnknownReference,
                    "$.collections[4].texture".to_owned()
                )],
                "{what}"
            );
        }
    }
}

#[test]
fn convention_15_hytale_scope_reads_as_merge_number_and_zero_never_matches() {
    // Convention 15: scopes are "both read by Merge.number, ... so a
    // numeric string such as "2" counts as 2"; Warnings: a scope that is no
    // number and no string parseFloat reads, or any array or object, warns
    // at $.collections[i].scope or $.elements[i].scope (ignored; null is
    // skipped silently).
    let collections = json!([
        {"scope": 0, "texture": "tc"},
        {"scope": "2.0", "texture": "tb"},
        {"scope": [5], "texture": "tc"},
        {"scope": null, "texture": "tc"},
    ]);
    let mut model = three_textures("hytale_character", false, &[]).set("collections", collections);
    for (name, scope) in [
        ("two", json!(2)),
        ("zero", json!(0)),
        ("five", json!(5)),
        ("word", json!("x")),
        ("null", json!(null)),
    ] {
        model = model.element(named_cube(name).set("scope", scope));
    }
    let bytes = model.bytes();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(materials_of(&scene, "two"), [1]);
    for name in ["zero", "five", "word", "null"] {
        assert_eq!(materials_of(&scene, name), [0], "{name}");
    }
    assert_eq!(
        warnings(&loaded),
        [
            (
                WarningCode::UnsupportedValue,
                "$.collections[2].scope".to_owned()
            ),
            (
                WarningCode::UnsupportedValue,
                "$.elements[3].scope".to_owned()
            ),
        ]
    );
}

#[test]
fn convention_15_hytale_collection_entries_that_are_no_object_count_as_empty() {
    // Convention 15: "ModelShot ignores a non-array without a warning and
    // counts every entry that is no object, null included, as an empty
    // collection with an UNSUPPORTED_VALUE warning" -- which still turns
    // single_texture off: a mesh face storing texture 1 then shows it
    // (bedrock_block's rule), where without collections it shows the
    // default texture.
    let mesh = Mesh::new()
        .vertex("a", [0.0, 0.0, 0.0])
        .vertex("b", [8.0, 0.0, 0.0])
        .vertex("c", [0.0, 8.0, 0.0])
        .face(
            "on",
            MeshFace::new(&[("a", [0.0, 0.0]), ("b", [8.0, 0.0]), ("c", [0.0, 8.0])])
                .texture(json!(1)),
        );
    let model = |collections: serde_json::Value| {
        three_textures("hytale_prop", false, &[])
            .set("collections", collections)
            .element(mesh.clone())
            .bytes()
    };
    let bytes = model(json!([null, 7, {"children": {}, "texture": 1}]));
    let loaded = load(&bytes);
    assert_eq!(groups(&loaded.scene(), 0), [(1, true)]);
    let at = |p: &str| (WarningCode::UnsupportedValue, p.to_owned());
    assert_eq!(
        warnings(&loaded),
        [
            at("$.collections[0]"),
            at("$.collections[1]"),
            at("$.collections[2].texture"),
            at("$.collections[2].children"),
        ]
    );
    for ignored in [json!({"0": {}}), json!([]), json!("x")] {
        let bytes = model(ignored.clone());
        let loaded = load(&bytes);
        assert_eq!(groups(&loaded.scene(), 0), [(0, true)], "{ignored}");
        assert!(warnings(&loaded).is_empty(), "{ignored}");
    }
    // Other formats do not read collections.
    let bytes = three_textures("free", false, &[])
        .set("collections", json!([null]))
        .element(mesh.clone())
        .bytes();
    let loaded = load(&bytes);
    assert_eq!(groups(&loaded.scene(), 0), [(1, true)]);
    assert!(warnings(&loaded).is_empty());
}

#[test]
fn convention_15_hytale_meshes_with_collections_show_the_default_on_blank_faces_only() {
    // "mesh faces follow bedrock_block's rule (blank faces show the default
    // texture)", even inside a collection; a null face stays untextured.
    let mesh = Mesh::new()
        .uuid("m")
        .vertex("a", [0.0, 0.0, 0.0])
        .vertex("b", [8.0, 0.0, 0.0])
        .vertex("c", [0.0, 8.0, 0.0])
        .vertex("d", [0.0, 0.0, 8.0])
        .vertex("e", [8.0, 8.0, 8.0])
        .face(
            "blank",
            MeshFace::new(&[("a", [0.0, 0.0]), ("b", [8.0, 0.0]), ("c", [0.0, 8.0])]),
        )
        .face(
            "null",
            MeshFace::new(&[("a", [0.0, 0.0]), ("b", [8.0, 0.0]), ("d", [0.0, 8.0])])
                .texture(json!(null)),
        )
        .face(
            "two",
            MeshFace::new(&[("a", [0.0, 0.0]), ("c", [8.0, 0.0]), ("e", [0.0, 8.0])])
                .texture(json!(2)),
        );
    let bytes = three_textures("hytale_character", false, &[])
        .set("outliner", json!(["m"]))
        .set("collections", json!([{"children": ["m"], "texture": "tb"}]))
        .element(mesh)
        .bytes();
    let mut got = groups_in(&bytes);
    got.sort();
    assert_eq!(got, [(-1, true), (0, true), (2, true)]);
}

#[test]
fn hytale_collections_corpus_file_shows_each_collections_texture() {
    // reahytale feran clay (hytale_character 5.0): textures Texture.png (0,
    // use_as_default), Eyebrows.png (1, uuid ea46a697-…), Eyes.png (2,
    // uuid 925088c7-…); collections "Eyebrows" (children: the groups
    // Eyebrows:R-/L-Eyebrow-Attachment, texture Eyebrows.png) and "Eyes"
    // (the groups Eyes:R-/L-Eye-Attachment, texture Eyes.png), both scope
    // 0, as is every cube. The eyebrow cubes sit two levels under their
    // collection's groups (attachment > R-Eyebrow > cube), the eye cubes
    // two or three (attachment > R-Eye-Background [> R-Eye] > cube); every
    // other cube is in no collection and shows the default texture, where
    // the rule without collections drew every cube with texture 0.
    let Some(dir) = support::corpus_dir() else {
        eprintln!("SKIPPED: ../shared/corpus is absent");
        return;
    };
    let path = dir.join("bbmodel/reahytale_feran_clay_hytale_character_v5_0_collections.bbmodel");
    let bytes = std::fs::read(path).unwrap();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(scene.meshes().len(), 32);
    for name in ["R-Eyebrow", "L-Eyebrow"] {
        assert_eq!(materials_of(&scene, name), [1], "{name}");
    }
    for name in ["R-Eye-Background", "R-Eye", "L-Eye-Background", "L-Eye"] {
        assert_eq!(materials_of(&scene, name), [2], "{name}");
    }
    let default = (0..32)
        .filter(|&m| groups(&scene, m).iter().all(|g| g.0 == 0))
        .count();
    assert_eq!(default, 26);
    // Its collections and cubes are well formed (its animations may warn).
    let texture_warnings = warnings(&loaded)
        .into_iter()
        .filter(|(_, at)| at.starts_with("$.collections") || at.starts_with("$.elements"))
        .count();
    assert_eq!(texture_warnings, 0);
}

// ------------------------------------------------- layer composite

#[test]
fn layer_composite_is_one_more_material_of_the_last_three_visible_textures() {
    let bytes = Model::format("bedrock")
        .texture(Texture::png("base", 16, 16))
        .texture(Texture::png("skin", 16, 16).set("render_mode", "layered"))
        .texture(Texture::png("hidden", 16, 16).set("visible", false))
        .texture(Texture::png("cloth", 16, 16).set("render_sides", "front"))
        .texture(Texture::png("hat", 16, 16).set("render_mode", "emissive"))
        .element(two_face_cube(json!(3), json!(false)))
        .bytes();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let m = scene.materials();
    assert_eq!(m.len(), 6);
    let c = m[5];
    assert_eq!(scene.text(c.name), "layered");
    assert_eq!((c.alpha_mode(), c.alpha_cutoff), (AlphaMode::Blend, 0.05));
    // The last three visible, bottom first; the bottom one is its texture.
    assert_eq!((c.layer_count, c.layers, c.texture), (3, [1, 3, 4], 1));
    // Every face uses it, sided as the format's default (double in bedrock),
    // whatever the textures' own render_sides and modes say.
    assert_eq!(groups(&scene, 0), [(5, true)]);
    // The textures keep their own materials.
    assert_eq!(m[4].alpha_mode(), AlphaMode::Mask);
}

#[test]
fn layer_composite_keeps_a_missing_textures_slot_and_needs_a_visible_one() {
    let bytes = Model::format("bedrock")
        .texture(Texture::named("linked").set("render_mode", "layered"))
        .texture(Texture::png("top", 16, 16))
        .element(two_face_cube(json!(0), json!(0)))
        .bytes();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert!(scene.textures()[0].missing());
    assert_eq!(scene.materials()[2].layers, [0, 1, -1]);
    assert_eq!(scene.materials()[2].layer_count, 2);
    // None visible: no composite.
    let bytes = Model::format("bedrock")
        .texture(
            Texture::png("a", 16, 16)
                .set("render_mode", "layered")
                .set("visible", false),
        )
        .texture(Texture::png("b", 16, 16).set("visible", false))
        .element(two_face_cube(json!(0), json!(0)))
        .bytes();
    assert_eq!(load(&bytes).scene().materials().len(), 2);
}

#[test]
fn layer_composite_needs_two_textures_and_a_single_texture_format() {
    let one = Model::format("bedrock")
        .texture(Texture::png("a", 16, 16).set("render_mode", "layered"))
        .element(two_face_cube(json!(0), json!(0)))
        .bytes();
    assert_eq!(load(&one).scene().materials().len(), 1);
    for format in OWN_TEXTURE {
        let bytes = Model::format(format)
            .texture(Texture::png("a", 16, 16).set("render_mode", "layered"))
            .texture(Texture::png("b", 16, 16))
            .element(two_face_cube(json!(1), json!(1)))
            .bytes();
        let loaded = load(&bytes);
        let scene = loaded.scene();
        assert_eq!(scene.materials().len(), 2, "{format}: layered is default");
        assert_eq!(groups(&scene, 0)[0].0, 1, "{format}");
    }
    for format in [
        "bedrock_block",
        "optifine_entity",
        "optifine_part",
        "hytale_character",
    ] {
        let bytes = Model::format(format)
            .texture(Texture::png("a", 16, 16).set("render_mode", "layered"))
            .texture(Texture::png("b", 16, 16))
            .element(two_face_cube(json!(1), json!(1)))
            .bytes();
        let loaded = load(&bytes);
        let scene = loaded.scene();
        assert_eq!(scene.materials().len(), 3, "{format}");
        assert_eq!(groups(&scene, 0), [(2, true)], "{format}");
    }
}

// ----------------------------------------------------- frame strips (14)

#[test]
fn convention_14_faces_on_a_strip_show_frame_0() {
    let model = |format: &str| {
        Model::format(format)
            .texture(Texture::png("strip", 16, 64))
            .element(two_face_cube(json!(0), json!(0)))
            .bytes()
    };
    let scene_bytes = model("free");
    let loaded = load(&scene_bytes);
    let scene = loaded.scene();
    let t = scene.textures()[0];
    assert_eq!((t.width, t.height, t.frame_count), (16, 64, 4));
    assert_eq!(t.frame_time, 1.0 / 7.0);
    assert_eq!(t.frame_order, FrameOrder::Loop as u8);
    // uv [0, 0, 8, 8] over 16 × 16, v divided by 4.
    assert_eq!(rects(&scene, 0), [[0.0, 0.0, 0.5, 0.125]]);
    // modded_entity does not animate: one image, squeezed onto the face.
    let still_bytes = model("modded_entity");
    let still_loaded = load(&still_bytes);
    let still = still_loaded.scene();
    assert_eq!(still.textures()[0].frame_count, 1);
    assert_eq!(rects(&still, 0), [[0.0, 0.0, 0.5, 0.5]]);
}

#[test]
fn convention_14_frame_time_play_order_and_interpolation_are_kept() {
    let bytes = Model::format("java_block")
        .texture(
            Texture::png("a", 16, 32)
                .set("frame_time", 4.0)
                .set("frame_order_type", "back_and_forth")
                .set("frame_interpolate", true),
        )
        .texture(
            Texture::png("b", 16, 48)
                .set("fps", 10.0)
                .set("frame_order_type", "backwards"),
        )
        .bytes();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let [a, b] = [scene.textures()[0], scene.textures()[1]];
    // java_block has texture_mcmeta: frame_time ticks, 50 ms each.
    assert_eq!((a.frame_count, a.frame_time), (2, 0.2));
    assert_eq!(
        (a.frame_order, a.frame_interpolate),
        (FrameOrder::BackAndForth as u8, 1)
    );
    // fps is not read there: the default frame_time 1 gives 50 ms.
    assert_eq!((b.frame_count, b.frame_time), (3, 0.05));
    assert_eq!(b.frame_order, FrameOrder::Backwards as u8);
}

#[test]
fn convention_14_custom_orders_go_into_frame_steps() {
    let bytes = Model::free()
        .texture(
            Texture::png("a", 16, 64)
                .set("frame_order_type", "custom")
                .set("frame_order", "0 x"),
        )
        .texture(
            Texture::png("still", 16, 16)
                .set("frame_order_type", "custom")
                .set("frame_order", "1 2"),
        )
        .texture(
            Texture::png("b", 16, 48)
                .set("frame_order_type", "custom")
                .set("frame_order", "2:5 1:5 7"),
        )
        .texture(
            Texture::png("plain", 16, 32)
                .set("frame_order_type", "custom")
                .set("frame_order", "0 1 0 1"),
        )
        .bytes();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let t = scene.textures();
    let steps = |i: usize| {
        let first = t[i].first_frame_step as usize;
        scene.frame_steps()[first..first + t[i].frame_step_count as usize].to_vec()
    };
    assert_eq!(t[0].frame_order, FrameOrder::Custom as u8);
    assert_eq!(steps(0), [0, 1, 0, 3]);
    // A still image has no order.
    assert_eq!((t[1].frame_count, t[1].frame_step_count), (1, 0));
    assert_eq!(steps(2), [2, 1, 1]);
    // A list equal to plain looping is left out as loop.
    assert_eq!(
        (t[3].frame_order, t[3].frame_step_count),
        (FrameOrder::Loop as u8, 0)
    );
    assert_eq!(scene.frame_steps().len(), 7);
}

#[test]
fn warnings_for_frame_strips_under_one_pixel_and_bad_custom_tokens() {
    let bytes = Model::free()
        .resolution(64.0, 1.0)
        .texture(Texture::png("thin", 2, 2))
        .texture(
            Texture::png("strip", 16, 64)
                .set("frame_order_type", "custom")
                .set("frame_order", "-1 2"),
        )
        .bytes();
    // A 64 × 1 UV space makes both 64 and 256 frames, more than their rows:
    // each is drawn as one image, with a warning at the texture.
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(scene.textures()[0].frame_count, 1);
    assert_eq!(scene.textures()[1].frame_count, 1);
    assert_eq!(
        warnings(&loaded),
        [
            (WarningCode::UnsupportedValue, "$.textures[0]".into()),
            (WarningCode::UnsupportedValue, "$.textures[1]".into()),
        ]
    );
    let bytes = Model::free()
        .texture(
            Texture::png("strip", 16, 64)
                .set("frame_order_type", "custom")
                .set("frame_order", "-1 2"),
        )
        .bytes();
    let loaded = load(&bytes);
    let first = loaded.scene().textures()[0].first_frame_step as usize;
    assert_eq!(loaded.scene().frame_steps()[first..first + 2], [0, 2]);
    assert_eq!(
        warnings(&loaded),
        [(
            WarningCode::UnsupportedValue,
            "$.textures[0].frame_order".into()
        )]
    );
}
