//! MAT3 TEV stages folded into the scene material (docs/j3d.md, "Materials
//! in the scene"): each one- and two-stage pattern the fold recognises, one
//! it does not, the texture coordinate generator slot 0 samples, and what
//! the glTF export makes of each. Fixtures are built with
//! `tests/support/j3d_writer.rs`.

mod support;

use scenedec::Options;
use scenedec::export::gltf::{Options as ExportOptions, export};
use scenedec::scene::{MaterialFlags, MaterialRecord};
use support::j3d_writer::{
    MaterialDef, MaterialState, ModelBuilder, TevDef, TextureDef, draw, indices16, prim,
};

// GX_CC_* colour and GX_CA_* alpha inputs.
const CPREV: u8 = 0;
const TEXC: u8 = 8;
const RASC: u8 = 10;
const KONST: u8 = 14;
const ZERO: u8 = 15;
const APREV: u8 = 0;
const TEXA: u8 = 4;
const RASA: u8 = 5;
const KONST_A: u8 = 6;
const ZERO_A: u8 = 7;
/// GX_TEV_KCSEL_K0 / GX_TEV_KASEL_K0_A.
const K0: [u8; 2] = [0x0C, 0x1C];

/// A stage of texture 0 (coordinate 0) and colour channel 0.
fn stage(color_in: [u8; 4], alpha_in: [u8; 4]) -> TevDef {
    TevDef {
        order: [0, 0, 4],
        color_in,
        alpha_in,
        konst: K0,
        scale: 0,
    }
}

/// `states` on one triangle each (names m0, m1, …), texture 0 in slot 0.
fn records(states: Vec<MaterialState>) -> (Vec<MaterialRecord>, Vec<u8>) {
    let mut m = ModelBuilder::single_shape(
        &[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        draw(prim::TRIANGLES, &indices16(&[0, 1, 2])),
    );
    m.textures = vec![TextureDef::new("t0", 0x1, 8, 4, vec![0x80; 32])];
    m.materials = (0..states.len())
        .map(|i| MaterialDef {
            name: format!("m{i}"),
            cull: 2,
        })
        .collect();
    m.material_states = states
        .into_iter()
        .map(|s| MaterialState {
            textures: vec![Some(0)],
            ..s
        })
        .collect();
    let bytes = m.build();
    let loaded = scenedec::load(&bytes, None, &Options::default()).unwrap();
    (loaded.scene().materials().to_vec(), bytes)
}

fn one(state: MaterialState) -> MaterialRecord {
    records(vec![state]).0[0]
}

/// sRGB-encoded 8-bit to linear, the glTF factor's space.
fn linear(v: u8) -> f32 {
    let c = f32::from(v) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn close(a: [f32; 4], b: [f32; 4]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
}

const FOLD_FLAGS: u32 = MaterialFlags::VERTEX_COLORS
    | MaterialFlags::TEXTURE_UNUSED
    | MaterialFlags::TEV_UNFOLDED
    | MaterialFlags::VERTEX_ALPHA_UNUSED;

#[test]
fn tev_texture_times_rasterised_vertex_colour_folds_to_texture_and_color_0() {
    let r = one(MaterialState {
        vertex_colors: true,
        tev: vec![stage(
            [ZERO, TEXC, RASC, ZERO],
            [ZERO_A, TEXA, RASA, ZERO_A],
        )],
        ..MaterialState::default()
    });
    assert_eq!(r.flags & FOLD_FLAGS, MaterialFlags::VERTEX_COLORS);
    assert_eq!(r.base_color, [1.0; 4]);
    assert_eq!(r.tev_stages, 1);
}

#[test]
fn tev_texture_times_rasterised_register_colour_folds_to_a_linear_factor() {
    let r = one(MaterialState {
        material_color: [255, 0, 51, 128],
        tev: vec![stage(
            [ZERO, TEXC, RASC, ZERO],
            [ZERO_A, TEXA, RASA, ZERO_A],
        )],
        ..MaterialState::default()
    });
    assert_eq!(r.flags & FOLD_FLAGS, 0);
    // Colour converted to linear light; alpha is linear already.
    assert!(close(r.base_color, [1.0, 0.0, linear(51), 128.0 / 255.0]));
}

#[test]
fn tev_texture_times_konst_folds_konst_into_the_factor() {
    let r = one(MaterialState {
        konst_color: [255, 128, 0, 200],
        tev: vec![stage(
            [ZERO, TEXC, KONST, ZERO],
            [ZERO_A, TEXA, KONST_A, ZERO_A],
        )],
        ..MaterialState::default()
    });
    assert_eq!(r.flags & FOLD_FLAGS, 0);
    assert!(close(r.base_color, [1.0, linear(128), 0.0, 200.0 / 255.0]));
}

#[test]
fn tev_konst_alone_leaves_the_texture_unused() {
    let r = one(MaterialState {
        konst_color: [0, 255, 255, 255],
        tev: vec![stage(
            [ZERO, ZERO, ZERO, KONST],
            [ZERO_A, ZERO_A, ZERO_A, KONST_A],
        )],
        ..MaterialState::default()
    });
    assert_eq!(r.flags & FOLD_FLAGS, MaterialFlags::TEXTURE_UNUSED);
    assert_eq!(r.texture, 0, "the scene still names slot 0's texture");
    assert_eq!(r.base_color, [0.0, 1.0, 1.0, 1.0]);
}

#[test]
fn tev_rasterised_alone_is_the_channel_colour_without_texture() {
    // Unlit channel, material colour from the register: a constant factor.
    let r = one(MaterialState {
        material_color: [51, 102, 255, 255],
        tev: vec![stage(
            [ZERO, ZERO, ZERO, RASC],
            [ZERO_A, ZERO_A, ZERO_A, RASA],
        )],
        ..MaterialState::default()
    });
    assert_eq!(r.flags & FOLD_FLAGS, MaterialFlags::TEXTURE_UNUSED);
    assert!(close(r.base_color, [linear(51), linear(102), 1.0, 1.0]));
    // From the vertices: COLOR_0 alone.
    let r = one(MaterialState {
        vertex_colors: true,
        tev: vec![stage(
            [ZERO, ZERO, ZERO, RASC],
            [ZERO_A, ZERO_A, ZERO_A, RASA],
        )],
        ..MaterialState::default()
    });
    assert_eq!(
        r.flags & FOLD_FLAGS,
        MaterialFlags::TEXTURE_UNUSED | MaterialFlags::VERTEX_COLORS
    );
}

#[test]
fn tev_texture_alone_ignores_the_material_colour() {
    // (1 − c)·a with c zero: the texture as it is.
    let r = one(MaterialState {
        material_color: [10, 20, 30, 40],
        tev: vec![stage(
            [TEXC, ZERO, ZERO, ZERO],
            [TEXA, ZERO_A, ZERO_A, ZERO_A],
        )],
        ..MaterialState::default()
    });
    assert_eq!(r.flags & FOLD_FLAGS, 0);
    assert_eq!(r.base_color, [1.0; 4]);
}

#[test]
fn tev_two_stages_texture_times_rasterised_then_times_konst_fold() {
    let r = one(MaterialState {
        vertex_colors: true,
        konst_color: [255, 255, 0, 255],
        tev: vec![
            stage([ZERO, TEXC, RASC, ZERO], [ZERO_A, TEXA, RASA, ZERO_A]),
            stage([ZERO, CPREV, KONST, ZERO], [ZERO_A, APREV, KONST_A, ZERO_A]),
        ],
        ..MaterialState::default()
    });
    assert_eq!(r.flags & FOLD_FLAGS, MaterialFlags::VERTEX_COLORS);
    assert_eq!(r.base_color, [1.0, 1.0, 0.0, 1.0]);
    assert_eq!(r.tev_stages, 2);
}

#[test]
fn tev_blended_vertex_colour_without_vertex_alpha_writes_color_0_opaque() {
    // Blend mode 1, SRCALPHA / INVSRCALPHA: alpha is shown. Colour channel
    // 0 reads the vertices, the alpha channel its register.
    let state = MaterialState {
        vertex_colors: true,
        blend: [1, 4, 5, 0],
        tev: vec![stage(
            [ZERO, TEXC, RASC, ZERO],
            [ZERO_A, TEXA, RASA, ZERO_A],
        )],
        ..MaterialState::default()
    };
    let r = one(state);
    assert_eq!(
        r.flags & FOLD_FLAGS,
        MaterialFlags::VERTEX_COLORS | MaterialFlags::VERTEX_ALPHA_UNUSED
    );
}

#[test]
fn tev_a_sum_of_products_does_not_fold_and_says_so_in_extras() {
    // konst · texture + rasterised: glTF has no sum.
    let (r, bytes) = records(vec![MaterialState {
        material_color: [255, 0, 0, 255],
        tev: vec![stage(
            [ZERO, KONST, TEXC, RASC],
            [ZERO_A, TEXA, RASA, ZERO_A],
        )],
        ..MaterialState::default()
    }]);
    let r = r[0];
    assert_eq!(r.flags & FOLD_FLAGS, MaterialFlags::TEV_UNFOLDED);
    // What is left: material colour 0 × slot 0's texture.
    assert_eq!(r.base_color, [1.0, 0.0, 0.0, 1.0]);
    let loaded = scenedec::load(&bytes, None, &Options::default()).unwrap();
    let out = export(&loaded.scene(), "m", &ExportOptions::default()).unwrap();
    let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
    let material = gltf.materials().next().unwrap();
    let extras = material.extras().as_ref().unwrap().get();
    assert!(extras.contains(r#""tev_folded":false"#), "{extras}");
    assert!(extras.contains(r#""tev_stages":1"#), "{extras}");
}

#[test]
fn texgen_source_tex1_binds_uv_set_1_and_a_normal_generator_is_no_uv_set() {
    let (r, _) = records(vec![
        MaterialState {
            tex_gen_source: 5, // GX_TG_TEX1
            ..MaterialState::default()
        },
        MaterialState {
            tex_gen_source: 1, // GX_TG_NRM
            ..MaterialState::default()
        },
    ]);
    assert_eq!(
        (r[0].uv_set, r[0].flags & MaterialFlags::GENERATED_UVS),
        (1, 0)
    );
    assert_eq!(
        r[1].flags & MaterialFlags::GENERATED_UVS,
        MaterialFlags::GENERATED_UVS
    );
    assert_eq!((r[1].uv_set, r[1].texgen_source), (0, 1));
}

// GX_CC_C0 and GX_CA_A0: TEV register C0 (J3D's TEV colour slot 0).
const C0: u8 = 2;
const A0: u8 = 1;

#[test]
fn tev_register_c0_is_a_constant_like_konst() {
    // noclip's J3D material loads TEV colour slots 0..2 into C0..C2 (slot
    // 3 is PREV's start), so C0 × texture is the register's colour × texture.
    let r = one(MaterialState {
        tev_color: [255, 128, 0, 200],
        tev: vec![stage([ZERO, TEXC, C0, ZERO], [ZERO_A, TEXA, A0, ZERO_A])],
        ..MaterialState::default()
    });
    assert_eq!(r.flags & FOLD_FLAGS, 0);
    assert!(close(r.base_color, [1.0, linear(128), 0.0, 200.0 / 255.0]));
}

#[test]
fn tev_register_outside_0_to_255_does_not_fold() {
    // GX registers are signed 11-bit; 0..=255 is a colour, 256 or −1 none.
    let with = |c: [i16; 4]| {
        one(MaterialState {
            tev_color: c,
            tev: vec![stage([ZERO, TEXC, C0, ZERO], [ZERO_A, TEXA, A0, ZERO_A])],
            ..MaterialState::default()
        })
        .flags
            & MaterialFlags::TEV_UNFOLDED
    };
    assert_eq!(with([255, 0, 0, 255]), 0);
    assert_eq!(with([0, 0, 0, 0]), 0);
    assert_ne!(with([256, 0, 0, 255]), 0);
    assert_ne!(with([0, -1, 0, 255]), 0);
}

#[test]
fn tev_a_mix_from_a_black_register_is_a_product() {
    // The Wind Waker room's chain: (1 − ras)·C0 + ras·K0, then texture ×
    // PREV. With C0 black the mix is K0 × ras, so texture × K0 × ras.
    let state = |c0: [i16; 4]| MaterialState {
        vertex_colors: true,
        konst_color: [255, 128, 0, 255],
        tev_color: c0,
        tev: vec![
            stage([C0, KONST, RASC, ZERO], [ZERO_A, TEXA, RASA, ZERO_A]),
            stage([ZERO, TEXC, CPREV, ZERO], [ZERO_A, ZERO_A, ZERO_A, APREV]),
        ],
        ..MaterialState::default()
    };
    let r = one(state([0, 0, 0, 255]));
    assert_eq!(r.flags & FOLD_FLAGS, MaterialFlags::VERTEX_COLORS);
    assert!(close(r.base_color, [1.0, linear(128), 0.0, 1.0]));
    // A register with colour makes it a mix of two colours: no product.
    let r = one(state([1, 0, 0, 255]));
    assert_ne!(r.flags & MaterialFlags::TEV_UNFOLDED, 0);
}

#[test]
fn tev_stage_scale_folds_while_the_factor_stays_at_most_one() {
    // GX_CS_SCALE_2 doubles the stage's result, clamped to 1: exact while
    // the doubled constant is at most 1 (texture and ras are at most 1).
    let doubled = |k: u8| {
        one(MaterialState {
            konst_color: [k, k, k, 255],
            tev: vec![TevDef {
                scale: 1,
                ..stage([ZERO, TEXC, KONST, ZERO], [ZERO_A, TEXA, ZERO_A, ZERO_A])
            }],
            ..MaterialState::default()
        })
    };
    let r = doubled(127);
    assert_eq!(r.flags & FOLD_FLAGS, 0);
    let c = 254.0 / 255.0;
    let expect = if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055f32).powf(2.4)
    };
    assert!(
        (r.base_color[0] - expect).abs() < 1e-5,
        "{:?}",
        r.base_color
    );
    assert_ne!(doubled(128).flags & MaterialFlags::TEV_UNFOLDED, 0);
    // GX_CS_DIVIDE_2 halves.
    let r = one(MaterialState {
        konst_color: [255, 255, 255, 255],
        tev: vec![TevDef {
            scale: 3,
            ..stage([ZERO, TEXC, KONST, ZERO], [ZERO_A, TEXA, ZERO_A, ZERO_A])
        }],
        ..MaterialState::default()
    });
    assert_eq!(r.flags & FOLD_FLAGS, 0);
    assert!((r.base_color[0] - linear(128)).abs() < 3e-3);
}

/// The Shine Sprite body's first stage: `K0 · texture + ras`, the texture
/// read through coordinates from normals (`GX_TG_NRM`), an environment map
/// GX adds after lighting.
fn environment_stage(source: u8, color_in: [u8; 4]) -> MaterialState {
    MaterialState {
        material_color: [225, 120, 30, 255],
        tex_gen_source: source,
        tev: vec![stage(color_in, [ZERO_A, ZERO_A, ZERO_A, RASA])],
        ..MaterialState::default()
    }
}

#[test]
fn tev_an_added_environment_map_is_left_out_and_the_lit_colour_folds() {
    // GX_TG_NRM (1): the reflection is left out, flagged; material colour
    // 0 through channel 0 is what remains.
    let (r, bytes) = records(vec![environment_stage(1, [ZERO, KONST, TEXC, RASC])]);
    let r = r[0];
    assert_eq!(
        r.flags & (FOLD_FLAGS | MaterialFlags::ENVIRONMENT_LEFT_OUT),
        MaterialFlags::TEXTURE_UNUSED | MaterialFlags::ENVIRONMENT_LEFT_OUT
    );
    assert!(close(
        r.base_color,
        [linear(225), linear(120), linear(30), 1.0]
    ));
    let loaded = scenedec::load(&bytes, None, &Options::default()).unwrap();
    let out = export(&loaded.scene(), "m", &ExportOptions::default()).unwrap();
    let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
    let material = gltf.materials().next().unwrap();
    assert!(
        material
            .pbr_metallic_roughness()
            .base_color_texture()
            .is_none()
    );
    let extras = material.extras().as_ref().unwrap().get();
    assert!(
        extras.contains(r#""environment_map_left_out":true"#),
        "{extras}"
    );
    // GX_TG_BINRM (2) and GX_TG_TANGENT (3) are view-dependent too.
    for source in [2, 3] {
        let r = one(environment_stage(source, [ZERO, KONST, TEXC, RASC]));
        assert_ne!(r.flags & MaterialFlags::ENVIRONMENT_LEFT_OUT, 0);
    }
}

#[test]
fn tev_an_added_uv_texture_or_a_multiplied_environment_map_does_not_fold() {
    // GX_TG_TEX0 (4): the same sum over a UV-mapped texture is no product.
    let r = one(environment_stage(4, [ZERO, KONST, TEXC, RASC]));
    assert_ne!(r.flags & MaterialFlags::TEV_UNFOLDED, 0);
    assert_eq!(r.flags & MaterialFlags::ENVIRONMENT_LEFT_OUT, 0);
    // An environment map multiplied in cannot be left out.
    let r = one(environment_stage(1, [ZERO, TEXC, RASC, ZERO]));
    assert_ne!(r.flags & MaterialFlags::TEV_UNFOLDED, 0);
    // Position-generated coordinates (GX_TG_POS, 0) are no environment map.
    let r = one(environment_stage(0, [ZERO, KONST, TEXC, RASC]));
    assert_ne!(r.flags & MaterialFlags::TEV_UNFOLDED, 0);
}
