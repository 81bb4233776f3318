//! The texture half of the loader specification, one test per rule, named
//! after it: the render-mode material table, the default texture and the
//! layer composite (Conversion; Blockbench conventions 15) and frame
//! strips (Supported; conventions 14).

mod support;

use scenedec::scene::{AlphaMode, Blending, FrameOrder, GroupFlags, MaterialFlags, Scene};
use scenedec::{Loaded, Options, WarningCode};
use serde_json::json;
use support::bbmodel_builder::{Cube, Face, Mesh, MeshFace, Model, Texture};

fn load(bytes: &[u8]) -> Loaded<'_> {
    scenedec::load(bytes, Some("bbmodel"), &Options::default())
        .unwrap_or_else(|e| panic!("load failed: {e}\n{}", String::from_utf8_lossy(bytes)))
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

#[test]
fn convention_15_mesh_null_face_draws_with_the_default_material_on_resolution_uvs() {
    let mesh = || {
        Mesh::new()
            .vertex("a", [0.0, 0.0, 0.0])
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
                    .texture(json!(0)),
            )
    };
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
