//! Materials: the scene's shading and blending as glTF metallic-roughness
//! (metallic 0, roughness 1: the sources are unlit-style diffuse), with what
//! glTF cannot say kept in `extras` (docs/export.md lists each case).
//!
//! One glTF material is written per scene material, per whether the
//! primitive has a UV set to carry the texture, and per sidedness (glTF
//! holds sidedness on the material, the scene on the triangle group).

use std::collections::HashMap;
use std::string::String;
use std::vec::Vec;

use gltf_json as json;
use json::material::{
    AlphaCutoff, AlphaMode as GltfAlpha, EmissiveFactor, PbrBaseColorFactor, StrengthFactor,
};
use json::validation::Checked;
use serde_json::{Map, Value};

use crate::scene::{AlphaMode, Blending, CullMode, MaterialFlags, MaterialRecord, Scene};

use super::ExportError;
use super::buffers::Writer;
use super::extras;
use super::images::{ImageKey, Images, Part, Pixels};

/// Which glTF material a primitive needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MaterialKey {
    /// The scene material, or −1 for none.
    pub material: i32,
    /// The primitive has the UV set the material samples ([`uv_set`]), so
    /// a texture can be bound.
    pub textured: bool,
    /// The group draws both sides.
    pub double_sided: bool,
}

/// The textures a material binds.
#[derive(Clone, Copy, Debug, Default)]
pub struct Maps {
    /// Base colour.
    pub base: Option<json::Index<json::Texture>>,
    /// Emission (Blockbench emissive render mode).
    pub emissive: Option<json::Index<json::Texture>>,
    /// Every texel of the base texture is fully clear or fully opaque
    /// (alpha 0 or 255).
    pub binary_alpha: bool,
}

/// The glTF materials written so far, each with the frame count of the
/// strip its base texture shows frame 0 of (1 for none).
#[derive(Default)]
pub struct Materials {
    written: HashMap<MaterialKey, (json::Index<json::Material>, u32)>,
}

impl Materials {
    /// The glTF material for `key`, written on first use, and the frame
    /// count its primitives' UV set [`uv_set`] must be multiplied by: the
    /// bound image is frame 0 of a strip whose V the scene divided by that
    /// many frames ([`super::frames`]); 1 when no strip is bound.
    pub fn get(
        &mut self,
        w: &mut Writer,
        scene: &Scene<'_>,
        images: &mut Images,
        key: MaterialKey,
    ) -> Result<(json::Index<json::Material>, u32), ExportError> {
        if let Some(m) = self.written.get(&key) {
            return Ok(*m);
        }
        let mut frames = 1;
        let record = usize::try_from(key.material)
            .ok()
            .and_then(|m| scene.materials().get(m));
        let mut maps = Maps::default();
        let shown = record.is_some_and(|r| r.flags & MaterialFlags::TEXTURE_UNUSED == 0);
        // TEV stages that did not fold but bake into one image show it.
        let mut baked = None;
        if let (Some(_), true, Ok(m)) = (record, key.textured, usize::try_from(key.material))
            && let Some((pixels, from)) = super::baked::pixels(scene, m)
        {
            let whole = ImageKey {
                pixels,
                part: Part::Whole,
            };
            maps.base = images.texture(w, scene, whole)?;
            baked = maps.base.is_some().then_some(from);
        }
        if let (Some(record), true, true, None) = (record, key.textured, shown, &baked) {
            for pixels in pixel_sources(record, scene.textures().len()) {
                let (base, glow) = image_keys(record, pixels);
                maps.base = images.texture(w, scene, base)?;
                if maps.base.is_some() {
                    maps.binary_alpha = binary_alpha(scene, pixels);
                    frames = super::frames::frames(scene, pixels);
                    if let Some(glow) = glow {
                        maps.emissive = images.texture(w, scene, glow)?;
                    }
                    break;
                }
            }
        }
        let name = record.map_or_else(
            || Some(String::from("default")),
            |r| super::name(scene.text(r.name)),
        );
        let mut material = material_json(record, name, key, maps);
        if let (Some(from), Some(record)) = (baked, record) {
            super::baked::mark(&mut material, record, &from);
            if let Ok(m) = usize::try_from(key.material) {
                super::baked::mark_approximation(&mut material, scene, m);
            }
        }
        let index = w.root.push(material);
        self.written.insert(key, (index, frames));
        Ok((index, frames))
    }
}

impl Materials {
    /// The glTF materials written for scene material `material`, ascending.
    pub fn of(&self, material: usize) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .written
            .iter()
            .filter(|(k, _)| usize::try_from(k.material).ok() == Some(material))
            .map(|(_, (i, _))| i.value())
            .collect();
        out.sort_unstable();
        out
    }

    /// Those of [`Self::of`] that bind a base colour texture in `root`.
    pub fn textured(&self, root: &json::Root, material: usize) -> Vec<usize> {
        self.of(material)
            .into_iter()
            .filter(|&i| {
                root.materials
                    .get(i)
                    .is_some_and(|m| m.pbr_metallic_roughness.base_color_texture.is_some())
            })
            .collect()
    }
}

/// The TEXCOORD_n a material's texture is bound to: its UV set, or 0 when
/// its coordinates are generated from something no UV set holds.
pub fn uv_set(record: Option<&MaterialRecord>) -> u32 {
    match record {
        Some(r) if r.flags & MaterialFlags::GENERATED_UVS == 0 => u32::from(r.uv_set),
        _ => 0,
    }
}

/// GX texture coordinate generator sources that are no UV set, by value.
fn texgen_name(source: u8) -> &'static str {
    match source {
        0 => "position",
        1 => "normal",
        2 => "binormal",
        3 => "tangent",
        12..=18 => "texcoord_generated",
        19 => "color0",
        20 => "color1",
        _ => "unknown",
    }
}

/// The pixels a material can show, best first: its layers composited, then
/// its base texture alone.
fn pixel_sources(record: &MaterialRecord, textures: usize) -> impl Iterator<Item = Pixels> {
    let valid = |t: i32| usize::try_from(t).ok().filter(|&t| t < textures);
    let mut layers = [0usize; 3];
    let mut count = 0;
    for (slot, &t) in layers.iter_mut().zip(record.layers()) {
        if let Some(t) = valid(t) {
            *slot = t;
            count += 1;
        }
    }
    let layered = (record.layers().len() > 1 && count == record.layers().len())
        .then_some(Pixels::Layers(layers, count));
    layered
        .into_iter()
        .chain(valid(record.texture).map(Pixels::Texture))
}

/// The images of a material showing `pixels`: base colour and, for an
/// emissive material, the glow.
pub fn image_keys(record: &MaterialRecord, pixels: Pixels) -> (ImageKey, Option<ImageKey>) {
    if record.flags & MaterialFlags::ALPHA_EMISSION != 0 {
        (
            ImageKey {
                pixels,
                part: Part::Lit,
            },
            Some(ImageKey {
                pixels,
                part: Part::Glow,
            }),
        )
    } else {
        (
            ImageKey {
                pixels,
                part: Part::Whole,
            },
            None,
        )
    }
}

/// Whether every texel `pixels` stands for has alpha 0 or 255: a plain
/// texture's level 0 (layers composited are not looked at: false).
fn binary_alpha(scene: &Scene<'_>, pixels: Pixels) -> bool {
    match pixels {
        Pixels::Texture(t) => {
            crate::export::png::level_pixels(scene, t, 0).is_some_and(|(_, rgba)| {
                rgba.chunks_exact(4)
                    .all(|p| matches!(p.get(3), Some(0 | 255)))
            })
        }
        Pixels::Layers(..) | Pixels::Baked(..) => false,
    }
}

/// The glTF material of a scene material (or of none: white, opaque) for a
/// primitive of `key`, binding `maps`.
pub fn material_json(
    record: Option<&MaterialRecord>,
    name: Option<String>,
    key: MaterialKey,
    maps: Maps,
) -> json::Material {
    let default = MaterialRecord {
        base_color: [1.0; 4],
        cull: CullMode::Back as u8,
        ..MaterialRecord::default()
    };
    let r = record.unwrap_or(&default);
    let mut lost = Map::new();
    let (alpha_mode, alpha_cutoff) = match r.alpha_mode() {
        AlphaMode::Opaque => (GltfAlpha::Opaque, None),
        AlphaMode::Mask => (
            GltfAlpha::Mask,
            Some(AlphaCutoff(r.alpha_cutoff.clamp(0.0, 1.0))),
        ),
        // Blending with an alpha test (Blockbench's 0.01) over a texture
        // whose texels are clear or opaque, with nothing else bringing
        // alpha in, draws exactly what a mask at that cutoff draws: clear
        // texels fail the test, opaque ones blend as `src·1 + dst·0`. A
        // mask is what glTF readers depth-sort right (a BLEND mesh is drawn
        // without depth writes, in whatever triangle order it has).
        AlphaMode::Blend
            if r.alpha_cutoff > 0.0
                && r.blending() == Blending::Normal
                && maps.base.is_some()
                && maps.binary_alpha
                && r.base_color[3] >= 1.0
                && r.flags & MaterialFlags::VERTEX_COLORS == 0 =>
        {
            (
                GltfAlpha::Mask,
                Some(AlphaCutoff(r.alpha_cutoff.clamp(0.0, 1.0))),
            )
        }
        AlphaMode::Blend => {
            if r.alpha_cutoff > 0.0 {
                lost.insert(String::from("alpha_cutoff"), Value::from(r.alpha_cutoff));
            }
            (GltfAlpha::Blend, None)
        }
    };
    if r.blending() == Blending::Additive {
        lost.insert(String::from("blending"), Value::from("additive"));
    }
    match r.cull() {
        CullMode::Front => {
            lost.insert(String::from("cull"), Value::from("front"));
        }
        CullMode::All => {
            lost.insert(String::from("cull"), Value::from("all"));
        }
        CullMode::None | CullMode::Back => {}
    }
    let emissive = r.flags & MaterialFlags::ALPHA_EMISSION != 0;
    if emissive && maps.emissive.is_none() {
        lost.insert(String::from("alpha_emission"), Value::Bool(true));
    }
    if r.flags & MaterialFlags::TEV_UNFOLDED != 0 {
        lost.insert(String::from("tev_stages"), Value::from(r.tev_stages));
        lost.insert(String::from("tev_folded"), Value::Bool(false));
    }
    // Reflections GX adds from an environment map: left out (glTF has no
    // view-dependent texture lookup), said here.
    if r.flags & MaterialFlags::ENVIRONMENT_LEFT_OUT != 0 {
        lost.insert(String::from("environment_map_left_out"), Value::Bool(true));
    }
    if r.flags & MaterialFlags::GENERATED_UVS != 0 {
        lost.insert(
            String::from("texgen"),
            Value::from(texgen_name(r.texgen_source)),
        );
    }
    let unused = r.flags & MaterialFlags::TEXTURE_UNUSED != 0;
    if r.texture >= 0 && unused {
        lost.insert(String::from("texture_unused"), Value::from(r.texture));
    }
    if r.texture >= 0 && key.textured && !unused && maps.base.is_none() {
        lost.insert(
            String::from("texture_without_pixels"),
            Value::from(r.texture),
        );
    }
    if r.texture >= 0 && !key.textured && !unused {
        lost.insert(String::from("texture_without_uvs"), Value::from(r.texture));
    }
    let tex_coord = uv_set(record);
    let info = |index| json::texture::Info {
        index,
        tex_coord,
        extensions: None,
        extras: None,
    };
    json::Material {
        alpha_cutoff,
        alpha_mode: Checked::Valid(alpha_mode),
        double_sided: key.double_sided || r.cull() == CullMode::None,
        name,
        pbr_metallic_roughness: json::material::PbrMetallicRoughness {
            base_color_factor: PbrBaseColorFactor(r.base_color.map(|c| {
                if c.is_finite() {
                    c.clamp(0.0, 1.0)
                } else {
                    1.0
                }
            })),
            base_color_texture: maps.base.map(info),
            metallic_factor: StrengthFactor(0.0),
            roughness_factor: StrengthFactor(1.0),
            metallic_roughness_texture: None,
            extensions: None,
            extras: None,
        },
        normal_texture: None,
        occlusion_texture: None,
        emissive_texture: maps.emissive.map(info),
        emissive_factor: EmissiveFactor(if maps.emissive.is_some() {
            [1.0; 3]
        } else {
            [0.0; 3]
        }),
        extensions: None,
        extras: extras::object(lost),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: MaterialKey = MaterialKey {
        material: 0,
        textured: true,
        double_sided: false,
    };

    fn record() -> MaterialRecord {
        MaterialRecord {
            texture: 0,
            base_color: [1.0; 4],
            cull: CullMode::Back as u8,
            ..MaterialRecord::default()
        }
    }

    fn with_base() -> Maps {
        Maps {
            base: Some(json::Index::new(0)),
            emissive: None,
            binary_alpha: false,
        }
    }

    #[test]
    fn every_material_is_non_metallic_and_fully_rough() {
        let m = material_json(Some(&record()), None, KEY, with_base());
        assert_eq!(m.pbr_metallic_roughness.metallic_factor.0, 0.0);
        assert_eq!(m.pbr_metallic_roughness.roughness_factor.0, 1.0);
        let m = material_json(None, None, KEY, Maps::default());
        assert_eq!(m.pbr_metallic_roughness.metallic_factor.0, 0.0);
        assert_eq!(m.pbr_metallic_roughness.base_color_factor.0, [1.0; 4]);
    }

    #[test]
    fn base_colour_factor_and_texture_carry_over() {
        let r = MaterialRecord {
            base_color: [0.5, 0.25, 1.0, 0.75],
            ..record()
        };
        let m = material_json(Some(&r), None, KEY, with_base());
        let pbr = &m.pbr_metallic_roughness;
        assert_eq!(pbr.base_color_factor.0, [0.5, 0.25, 1.0, 0.75]);
        let info = pbr.base_color_texture.as_ref().unwrap();
        assert_eq!((info.index.value(), info.tex_coord), (0, 0));
    }

    /// Blockbench draws a texture at alpha test 0.01, blended: over texels
    /// of alpha 0 or 255 that is a mask at 0.01, exactly; any texel between,
    /// a translucent base colour, vertex colours, additive blending or no
    /// alpha test keep it BLEND.
    #[test]
    fn blend_over_clear_or_opaque_texels_with_a_test_is_a_mask() {
        let blend = MaterialRecord {
            alpha_mode: AlphaMode::Blend as u8,
            alpha_cutoff: 0.01,
            ..record()
        };
        let binary = Maps {
            binary_alpha: true,
            ..with_base()
        };
        let mode = |r: &MaterialRecord, maps: Maps| {
            let m = material_json(Some(r), None, KEY, maps);
            (m.alpha_mode, m.alpha_cutoff.map(|c| c.0))
        };
        assert!(matches!(
            mode(&blend, binary),
            (Checked::Valid(GltfAlpha::Mask), Some(c)) if c == 0.01
        ));
        assert!(matches!(
            mode(&blend, with_base()).0,
            Checked::Valid(GltfAlpha::Blend)
        ));
        let translucent = MaterialRecord {
            base_color: [1.0, 1.0, 1.0, 0.5],
            ..blend
        };
        let vertex = MaterialRecord {
            flags: MaterialFlags::VERTEX_COLORS,
            ..blend
        };
        let additive = MaterialRecord {
            blending: Blending::Additive as u8,
            ..blend
        };
        let untested = MaterialRecord {
            alpha_cutoff: 0.0,
            ..blend
        };
        for r in [translucent, vertex, additive, untested] {
            assert!(matches!(
                mode(&r, binary).0,
                Checked::Valid(GltfAlpha::Blend)
            ));
        }
        let untextured = Maps {
            base: None,
            ..binary
        };
        assert!(matches!(
            mode(&blend, untextured).0,
            Checked::Valid(GltfAlpha::Blend)
        ));
    }

    #[test]
    fn mask_keeps_its_cutoff_and_blend_keeps_it_in_extras() {
        let r = MaterialRecord {
            alpha_mode: AlphaMode::Mask as u8,
            alpha_cutoff: 0.5,
            ..record()
        };
        let m = material_json(Some(&r), None, KEY, with_base());
        assert!(matches!(m.alpha_mode, Checked::Valid(GltfAlpha::Mask)));
        assert_eq!(m.alpha_cutoff.map(|c| c.0), Some(0.5));
        let r = MaterialRecord {
            alpha_mode: AlphaMode::Blend as u8,
            alpha_cutoff: 0.1,
            ..record()
        };
        let m = material_json(Some(&r), None, KEY, with_base());
        assert!(matches!(m.alpha_mode, Checked::Valid(GltfAlpha::Blend)));
        assert!(m.alpha_cutoff.is_none());
        assert!(extras::text(&m.extras).contains("\"alpha_cutoff\":0.1"));
        let m = material_json(Some(&record()), None, KEY, with_base());
        assert!(matches!(m.alpha_mode, Checked::Valid(GltfAlpha::Opaque)));
        assert!(m.extras.is_none());
    }

    #[test]
    fn additive_blending_and_front_culling_are_kept_in_extras() {
        let r = MaterialRecord {
            alpha_mode: AlphaMode::Blend as u8,
            blending: Blending::Additive as u8,
            cull: CullMode::Front as u8,
            ..record()
        };
        let m = material_json(Some(&r), None, KEY, with_base());
        let text = extras::text(&m.extras);
        assert!(text.contains("\"blending\":\"additive\""), "{text}");
        assert!(text.contains("\"cull\":\"front\""), "{text}");
        assert!(!m.double_sided);
    }

    #[test]
    fn cull_none_or_a_double_sided_group_is_double_sided() {
        let r = MaterialRecord {
            cull: CullMode::None as u8,
            ..record()
        };
        assert!(material_json(Some(&r), None, KEY, with_base()).double_sided);
        let key = MaterialKey {
            double_sided: true,
            ..KEY
        };
        assert!(material_json(Some(&record()), None, key, with_base()).double_sided);
        assert!(!material_json(Some(&record()), None, KEY, with_base()).double_sided);
    }

    #[test]
    fn emissive_material_binds_the_glow_with_factor_one() {
        let r = MaterialRecord {
            flags: MaterialFlags::ALPHA_EMISSION,
            ..record()
        };
        let maps = Maps {
            base: Some(json::Index::new(0)),
            emissive: Some(json::Index::new(1)),
            binary_alpha: false,
        };
        let m = material_json(Some(&r), None, KEY, maps);
        assert_eq!(m.emissive_factor.0, [1.0; 3]);
        assert_eq!(m.emissive_texture.as_ref().unwrap().index.value(), 1);
        let (base, glow) = image_keys(&r, Pixels::Texture(0));
        assert_eq!(base.part, Part::Lit);
        assert_eq!(glow.unwrap().part, Part::Glow);
        // without pixels, the mode is kept in extras
        let m = material_json(Some(&r), None, KEY, Maps::default());
        assert!(extras::text(&m.extras).contains("alpha_emission"));
        assert_eq!(m.emissive_factor.0, [0.0; 3]);
    }

    #[test]
    fn the_texture_is_bound_to_its_uv_set_and_a_generated_one_to_set_0() {
        let r = MaterialRecord {
            uv_set: 2,
            ..record()
        };
        let m = material_json(Some(&r), None, KEY, with_base());
        let info = m.pbr_metallic_roughness.base_color_texture.unwrap();
        assert_eq!(info.tex_coord, 2);
        let r = MaterialRecord {
            uv_set: 2,
            flags: MaterialFlags::GENERATED_UVS,
            texgen_source: 1,
            ..record()
        };
        let m = material_json(Some(&r), None, KEY, with_base());
        assert_eq!(
            m.pbr_metallic_roughness
                .base_color_texture
                .unwrap()
                .tex_coord,
            0
        );
        assert!(extras::text(&m.extras).contains(r#""texgen":"normal""#));
    }

    #[test]
    fn unfolded_tev_stages_and_an_unused_texture_are_kept_in_extras() {
        let r = MaterialRecord {
            flags: MaterialFlags::TEV_UNFOLDED,
            tev_stages: 3,
            ..record()
        };
        let m = material_json(Some(&r), None, KEY, with_base());
        let text = extras::text(&m.extras);
        assert!(text.contains(r#""tev_folded":false"#), "{text}");
        assert!(text.contains(r#""tev_stages":3"#), "{text}");
        let r = MaterialRecord {
            flags: MaterialFlags::TEXTURE_UNUSED,
            ..record()
        };
        let m = material_json(Some(&r), None, KEY, Maps::default());
        let text = extras::text(&m.extras);
        assert!(text.contains(r#""texture_unused":0"#), "{text}");
        assert!(!text.contains("texture_without_pixels"), "{text}");
    }

    #[test]
    fn a_texture_without_pixels_leaves_the_factor_alone() {
        let m = material_json(Some(&record()), None, KEY, Maps::default());
        assert!(m.pbr_metallic_roughness.base_color_texture.is_none());
        assert!(extras::text(&m.extras).contains("texture_without_pixels"));
    }

    #[test]
    fn layers_composite_before_the_base_texture_alone() {
        let r = MaterialRecord {
            layers: [2, 0, 1],
            layer_count: 3,
            texture: 2,
            ..record()
        };
        let sources: std::vec::Vec<_> = pixel_sources(&r, 3).collect();
        assert_eq!(sources, [Pixels::Layers([2, 0, 1], 3), Pixels::Texture(2)]);
        let r = MaterialRecord {
            layers: [2, 7, 1],
            layer_count: 3,
            ..r
        };
        let sources: std::vec::Vec<_> = pixel_sources(&r, 3).collect();
        assert_eq!(sources, [Pixels::Texture(2)]);
    }
}
