//! Frame strips in the glTF export, read back with the `gltf` crate and
//! sampled by glTF's own wrap rules.
//!
//! The rule pinned (loader specification, Supported, "Texture wrap",
//! MS-52): "On a frame strip a face clamps or repeats within frame 0,
//! never into another frame." Frame 0 is V `0..1/n` of the strip
//! (Conversion, "Frame strips"), that is strip rows `0 .. H/n` in texels,
//! `H/n` maybe fractional (Blockbench's `Texture.frameCount` and cube
//! `updateUV`; src/export/gltf/frames.rs says which rows and why).
//!
//! Each check interpolates a triangle's UVs at points spread over it, on
//! both sides: the exported TEXCOORD, wrapped by the exported sampler over
//! the exported image, nearest texel; and the scene's UV, placed in the
//! strip, clamped or repeated within frame 0 as the rule says, nearest
//! texel of the strip. Every texel is unique, so equal texels are the same
//! texel.

mod support;

use gltf::texture::WrappingMode;
use scenedec::Options;
use scenedec::export::gltf::{Options as ExportOptions, export};
use scenedec::scene::Scene;
use support::bbmodel_builder::{Cube, FACES, Face, Model, Texture, base64};

/// A `width` × `height` RGBA8 image whose texel (x, y) is (x, y, 77, 255):
/// no two texels alike.
fn numbered(width: u32, height: u32) -> Vec<u8> {
    (0..height)
        .flat_map(|y| (0..width).flat_map(move |x| [x as u8, y as u8, 77, 255]))
        .collect()
}

fn png_bytes(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(rgba).unwrap();
    writer.finish().unwrap();
    out
}

fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// A free-format model (textures animate there) with one 16-wide strip
/// `height` rows tall over a 16 × 16 UV space, and a cube whose faces all
/// show it with `uvs` (one per face, in [`FACES`] order, cycled).
fn strip_model(height: u32, wrap: Option<&str>, uvs: &[[f64; 4]]) -> Vec<u8> {
    let png = png_bytes(16, height, &numbered(16, height));
    let uri = format!("data:image/png;base64,{}", base64(&png));
    let mut texture = Texture::png("strip", 16, height)
        .source(&uri)
        .uv_size(16.0, 16.0);
    if let Some(wrap) = wrap {
        texture = texture.set("wrap_mode", wrap);
    }
    let mut cube = Cube::new([0.0; 3], [8.0, 8.0, 8.0]);
    for (face, uv) in FACES.iter().zip(uvs.iter().cycle()) {
        cube = cube.face(face, Face::uv(*uv).texture(serde_json::json!(0)));
    }
    Model::free().texture(texture).element(cube).bytes()
}

/// A texel by glTF's sampling rules (glTF 2.0, "Samplers": REPEAT takes
/// the fractional part, CLAMP_TO_EDGE the edge texel; NEAREST picks the
/// texel the coordinate falls in).
fn gltf_texel(uv: [f64; 2], wrap: [WrappingMode; 2], size: [u32; 2]) -> [u32; 2] {
    let axis = |c: f64, wrap: WrappingMode, n: u32| {
        let c = match wrap {
            WrappingMode::Repeat => c - c.floor(),
            WrappingMode::ClampToEdge => c.clamp(0.0, 1.0),
            WrappingMode::MirroredRepeat => panic!("no mirror in .bbmodel"),
        };
        ((c * f64::from(n)).floor() as u32).min(n - 1)
    };
    [axis(uv[0], wrap[0], size[0]), axis(uv[1], wrap[1], size[1])]
}

/// How far (in texels) a coordinate `c` lies from the nearest texel edge,
/// or from frame 0's edge at `frame` texels: points closer than rounding
/// can move them are not compared.
fn edge_distance(c: f64, frame: f64) -> f64 {
    let within = c.rem_euclid(frame);
    let to_texel = (within - within.round()).abs();
    to_texel.min((frame - within).abs())
}

/// What a strip check saw.
#[derive(Debug, Default)]
struct Sampled {
    /// Points compared.
    compared: usize,
    /// Compared points whose UV lies past frame 0 (V below 0 or past
    /// `1/n` of the strip).
    past_frame_0: usize,
    /// Of those, points where the whole strip wrapped by the same mode
    /// shows another texel than frame 0: the old export would fail there.
    another_frame: usize,
}

/// Exports `scene` (one cube, one texture), reads it back and compares the
/// texel glTF samples with frame 0's texel by the spec at points over every
/// triangle. `repeat` is the texture's wrap.
fn sample_against_frame_0(scene: &Scene<'_>, repeat: bool) -> Sampled {
    let t = scene.textures()[0];
    let (w, h, n) = (t.width, t.height, t.frame_count);
    assert!(n > 1, "the fixture is a strip");
    let strip = numbered(w, h);
    let frame = f64::from(h) / f64::from(n);

    let out = export(scene, "strip", &ExportOptions::default()).unwrap();
    let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
    let blob = gltf.blob.as_deref().unwrap();
    let mesh = gltf.document.meshes().next().unwrap();
    let scene_mesh = scene.meshes()[0];
    let scene_uvs =
        &scene.uvs()[scene_mesh.first_uv as usize..][..scene_mesh.vertex_count as usize];
    let mut seen = Sampled::default();
    for prim in mesh.primitives() {
        let info = prim
            .material()
            .pbr_metallic_roughness()
            .base_color_texture()
            .expect("the strip is bound");
        let sampler = info.texture().sampler();
        let wrap = [sampler.wrap_s(), sampler.wrap_t()];
        let expected_wrap = if repeat {
            WrappingMode::Repeat
        } else {
            WrappingMode::ClampToEdge
        };
        assert_eq!(wrap, [expected_wrap; 2]);
        let gltf::image::Source::View { view, .. } = info.texture().source().source() else {
            panic!("images are in the GLB");
        };
        let (iw, ih, image) = decode_png(&blob[view.offset()..][..view.length()]);
        let reader = prim.reader(|_| Some(blob));
        let uvs: Vec<[f32; 2]> = reader
            .read_tex_coords(info.tex_coord())
            .unwrap()
            .into_f32()
            .collect();
        let indices: Vec<u32> = reader.read_indices().unwrap().into_u32().collect();
        for tri in indices.chunks_exact(3) {
            let corner = |k: usize| tri[k] as usize;
            for (a, b) in (0..9).flat_map(|i| (0..9 - i).map(move |j| (i, j))) {
                // Barycentric weights off every texel edge a grid would hit.
                let wa = (f64::from(a) + 0.31) / 9.7;
                let wb = (f64::from(b) + 0.29) / 9.7;
                let wc = 1.0 - wa - wb;
                let mix = |p: [f32; 2], q: [f32; 2], r: [f32; 2], k: usize| {
                    wa * f64::from(p[k]) + wb * f64::from(q[k]) + wc * f64::from(r[k])
                };
                let (p, q, r) = (uvs[corner(0)], uvs[corner(1)], uvs[corner(2)]);
                let exported = [mix(p, q, r, 0), mix(p, q, r, 1)];
                let (p, q, r) = (
                    scene_uvs[corner(0)],
                    scene_uvs[corner(1)],
                    scene_uvs[corner(2)],
                );
                // The scene's UV in strip texels: U over the width, V over
                // the whole strip (frame 0 is 0 .. H/n).
                let x = mix(p, q, r, 0) * f64::from(w);
                let y = mix(p, q, r, 1) * f64::from(h);
                if edge_distance(x, f64::from(w)) < 1e-3 || edge_distance(y, frame) < 1e-3 {
                    continue;
                }
                // The spec: clamp or repeat within frame 0.
                let (fx, fy) = if repeat {
                    (x.rem_euclid(f64::from(w)), y.rem_euclid(frame))
                } else {
                    (
                        x.clamp(0.0, f64::from(w) - 1e-9),
                        y.clamp(0.0, frame - 1e-9),
                    )
                };
                let at = |img: &[u8], width: u32, tx: u32, ty: u32| {
                    let i = ((ty * width + tx) * 4) as usize;
                    [img[i], img[i + 1], img[i + 2], img[i + 3]]
                };
                let want = at(&strip, w, fx.floor() as u32, fy.floor() as u32);
                let [gx, gy] = gltf_texel(exported, wrap, [iw, ih]);
                assert_eq!(
                    at(&image, iw, gx, gy),
                    want,
                    "scene texel ({x:.3}, {y:.3}) of a {w}×{h} strip of {n} frames, glTF UV {exported:?}"
                );
                seen.compared += 1;
                if y < 0.0 || y > frame {
                    seen.past_frame_0 += 1;
                    // The whole strip under the same wrap, as the export
                    // bound it before.
                    let whole = if repeat {
                        y.rem_euclid(f64::from(h))
                    } else {
                        y.clamp(0.0, f64::from(h) - 1e-9)
                    };
                    if at(&strip, w, fx.floor() as u32, whole.floor() as u32) != want {
                        seen.another_frame += 1;
                    }
                }
            }
        }
    }
    seen
}

fn load(bytes: &[u8]) -> scenedec::Loaded<'_> {
    scenedec::load(bytes, Some("bbmodel"), &Options::default())
        .unwrap_or_else(|e| panic!("load failed: {e}"))
}

/// UVs inside frame 0, past its bottom edge, before its top and left
/// edges, and far past the UV size (up to five frames down).
const PAST_THE_UV_SIZE: [[f64; 4]; 3] = [
    [0.0, 0.0, 16.0, 40.0],
    [-5.0, -7.0, 29.0, 35.0],
    [2.0, 3.0, 12.0, 80.0],
];

#[test]
fn ms_52_a_repeat_strip_repeats_frame_0_never_the_next_frame() {
    let bytes = strip_model(64, Some("repeat"), &PAST_THE_UV_SIZE);
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(scene.textures()[0].frame_count, 4);
    let seen = sample_against_frame_0(&scene, true);
    assert!(
        seen.compared > 500 && seen.past_frame_0 > 200 && seen.another_frame > 200,
        "{seen:?}"
    );
}

#[test]
fn ms_52_uvs_past_the_uv_size_clamp_to_frame_0s_edge() {
    // No wrap_mode: free's texture_wrap_default, limited, draws clamped.
    let bytes = strip_model(64, None, &PAST_THE_UV_SIZE);
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(scene.textures()[0].frame_count, 4);
    let seen = sample_against_frame_0(&scene, false);
    assert!(
        seen.compared > 500 && seen.past_frame_0 > 200 && seen.another_frame > 200,
        "{seen:?}"
    );
}

#[test]
fn ms_52_fractional_frames_clamp_and_repeat_within_their_h_over_n_rows() {
    // Texture.frameCount (conventions 14): 16 × 50 over 16 × 16 is
    // ceil(3.125 − 0.05) = 4 frames of 12.5 rows. Frame 0 ends half-way
    // down row 12: repeating starts again there, clamping stops at row 12.
    for (wrap, repeat) in [(Some("repeat"), true), (Some("clamp"), false)] {
        let bytes = strip_model(50, wrap, &PAST_THE_UV_SIZE);
        let loaded = load(&bytes);
        let scene = loaded.scene();
        assert_eq!(scene.textures()[0].frame_count, 4);
        let seen = sample_against_frame_0(&scene, repeat);
        assert!(
            seen.compared > 500 && seen.past_frame_0 > 200 && seen.another_frame > 200,
            "{wrap:?}: {seen:?}"
        );
    }
}

#[test]
fn a_strip_is_written_as_frame_0_with_its_frame_data_in_extras() {
    let bytes = strip_model(50, Some("repeat"), &PAST_THE_UV_SIZE[..1]);
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let t = scene.textures()[0];
    let out = export(&scene, "strip", &ExportOptions::default()).unwrap();
    let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
    let texture = gltf.document.textures().next().unwrap();
    let gltf::image::Source::View { view, .. } = texture.source().source() else {
        panic!("images are in the GLB");
    };
    let blob = gltf.blob.as_deref().unwrap();
    let (iw, ih, _) = decode_png(&blob[view.offset()..][..view.length()]);
    // 12.5 rows written at two image rows per strip row.
    assert_eq!((iw, ih), (16, 25));
    let extras: serde_json::Value =
        serde_json::from_str(texture.extras().as_ref().unwrap().get()).unwrap();
    let strip = &extras["frame_strip"];
    assert_eq!(strip["frame_count"], t.frame_count);
    // The f32 seconds, written as their shortest decimal.
    assert_eq!(
        strip["frame_time"].as_f64().map(|s| s as f32),
        Some(t.frame_time)
    );
    assert_eq!(strip["frame_time"].to_string(), t.frame_time.to_string());
    assert_eq!(strip["frame_order"], "loop");
    assert_eq!(strip["frame_interpolate"], false);
    assert_eq!(strip["strip_height"], 50);
    assert_eq!(strip["frame_height"], 12.5);
    // The TEXCOORD the texture reads is the scene's times the frame count.
    let prim = gltf.document.meshes().next().unwrap().primitives().next();
    let reader = prim.as_ref().unwrap().reader(|_| Some(blob));
    let uvs: Vec<[f32; 2]> = reader.read_tex_coords(0).unwrap().into_f32().collect();
    let m = scene.meshes()[0];
    let scene_uvs = &scene.uvs()[m.first_uv as usize..][..m.vertex_count as usize];
    for (got, s) in uvs.iter().zip(scene_uvs) {
        assert_eq!(got[0], s[0]);
        assert!((f64::from(got[1]) - f64::from(s[1]) * 4.0).abs() < 1e-6);
    }
}

#[test]
fn a_still_texture_keeps_its_image_and_uvs_and_has_no_strip_extras() {
    // 16 × 16 over 16 × 16: one frame.
    let bytes = strip_model(16, Some("repeat"), &PAST_THE_UV_SIZE[..1]);
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(scene.textures()[0].frame_count, 1);
    let out = export(&scene, "still", &ExportOptions::default()).unwrap();
    let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
    let texture = gltf.document.textures().next().unwrap();
    assert!(texture.extras().is_none());
    let gltf::image::Source::View { view, .. } = texture.source().source() else {
        panic!("images are in the GLB");
    };
    let blob = gltf.blob.as_deref().unwrap();
    let (iw, ih, pixels) = decode_png(&blob[view.offset()..][..view.length()]);
    assert_eq!((iw, ih, pixels), (16, 16, numbered(16, 16)));
}

/// A layer composite whose top layer is a strip (bedrock: single texture,
/// animated textures). Blockbench sizes the composite's faces by the
/// default texture, the last visible one (the top layer, a 4-frame strip,
/// so V is divided by 4), and its layered shader samples every layer at
/// that same UV (`Canvas.getLayeredMaterial`, one `vUv` for `t0`–`t2`):
/// the bottom layer, a still 16 × 16, shows only its top quarter, each row
/// four times. The composite image is frame 0 of both, at V undivided.
#[test]
fn a_composite_over_a_strip_is_frame_0_of_every_layer_at_the_top_layers_count() {
    // Top layer texel (x, y): opaque on every third diagonal, clear
    // elsewhere, so the composite is either texel exactly.
    let top: Vec<u8> = (0..64u32)
        .flat_map(|y| {
            (0..16u32).flat_map(move |x| {
                let alpha = if (x + y) % 3 == 0 { 255 } else { 0 };
                [x as u8, y as u8, 200, alpha]
            })
        })
        .collect();
    let bottom = numbered(16, 16);
    let uri =
        |w, h, rgba: &[u8]| format!("data:image/png;base64,{}", base64(&png_bytes(w, h, rgba)));
    let mut cube = Cube::new([0.0; 3], [8.0, 8.0, 8.0]);
    for face in FACES {
        cube = cube.face(face, Face::uv([0.0, 0.0, 16.0, 16.0]));
    }
    let bytes = Model::format("bedrock")
        .texture(Texture::png("bottom", 16, 16).source(&uri(16, 16, &bottom)))
        .texture(
            Texture::png("top", 16, 64)
                .source(&uri(16, 64, &top))
                .set("render_mode", "layered"),
        )
        .element(cube)
        .bytes();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(scene.textures()[1].frame_count, 4);
    let composite = scene
        .materials()
        .iter()
        .find(|m| m.layers().len() == 2)
        .unwrap();
    assert_eq!(composite.layers(), [0, 1]);

    let out = export(&scene, "layered", &ExportOptions::default()).unwrap();
    let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
    let blob = gltf.blob.as_deref().unwrap();
    let prim = gltf
        .document
        .meshes()
        .next()
        .unwrap()
        .primitives()
        .next()
        .unwrap();
    let info = prim
        .material()
        .pbr_metallic_roughness()
        .base_color_texture()
        .unwrap();
    let gltf::image::Source::View { view, .. } = info.texture().source().source() else {
        panic!("images are in the GLB");
    };
    let (w, h, image) = decode_png(&blob[view.offset()..][..view.length()]);
    assert_eq!((w, h), (16, 16));
    for y in 0..16usize {
        for x in 0..16usize {
            // Image row y is V (y + 0.5) / 16, V / 4 of each layer.
            let v = (y as f64 + 0.5) / 16.0 / 4.0;
            let t = ((v * 64.0) as usize * 16 + x) * 4;
            let b = ((v * 16.0) as usize * 16 + x) * 4;
            let want = if top[t + 3] == 255 {
                &top[t..t + 4]
            } else {
                &bottom[b..b + 4]
            };
            let got = &image[(y * 16 + x) * 4..][..4];
            assert_eq!(got, want, "texel ({x}, {y})");
        }
    }
    // The faces' V, divided by the top layer's 4 frames, is written whole.
    let reader = prim.reader(|_| Some(blob));
    let uvs: Vec<[f32; 2]> = reader.read_tex_coords(0).unwrap().into_f32().collect();
    let m = scene.meshes()[0];
    let scene_uvs = &scene.uvs()[m.first_uv as usize..][..m.vertex_count as usize];
    assert!(scene_uvs.iter().any(|s| s[1] == 0.25));
    for (got, s) in uvs.iter().zip(scene_uvs) {
        assert_eq!(*got, [s[0], s[1] * 4.0]);
    }
}
