//! Images, samplers and textures: each texture the materials use, as a PNG
//! of its level 0 (in a buffer view for .glb, a file beside a .gltf), with a
//! sampler carrying its filters and per-axis wraps. Only what a material
//! references is written, each once.
//!
//! Two kinds of image are derived rather than copied, because glTF cannot
//! combine textures: a Blockbench layered material's layers composited with
//! the over operator (each sampled nearest at the largest layer's size), and an emissive
//! material's two halves (lit `c·a`, glowing `c·(1−a)`, in linear light).
//! A frame strip's image is its frame 0 alone ([`super::frames`]).

use std::collections::HashMap;
use std::string::String;
use std::vec::Vec;

use gltf_json as json;
use json::texture::{MagFilter, MinFilter, WrappingMode};
use json::validation::Checked;

use crate::scene::{Filter, Scene, TextureRecord, Wrap};

use super::buffers::Writer;
pub use super::pixels::Pixels;
use super::{Container, ExportError, frames};

/// Which part of the pixels an image shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// Every channel as it is.
    Whole,
    /// Emissive material, lit half: colour `c·a`, alpha kept.
    Lit,
    /// Emissive material, glowing half: colour `c·(1−a)`, opaque.
    Glow,
}

/// An image to write: its pixels and the part of them shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageKey {
    /// The pixels.
    pub pixels: Pixels,
    /// The part.
    pub part: Part,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct SamplerKey {
    mag: u8,
    min: u8,
    mipmapped: bool,
    wrap_s: u8,
    wrap_t: u8,
}

/// The images, samplers and textures written so far.
pub struct Images {
    container: Container,
    stem: String,
    images: HashMap<ImageKey, Option<json::Index<json::Image>>>,
    samplers: HashMap<SamplerKey, json::Index<json::texture::Sampler>>,
    textures: HashMap<ImageKey, Option<json::Index<json::Texture>>>,
    /// Files to write beside a .gltf: name and bytes.
    pub files: Vec<(String, Vec<u8>)>,
}

impl Images {
    /// No images yet; `stem` names the PNG files of a .gltf.
    pub fn new(container: Container, stem: &str) -> Self {
        Self {
            container,
            stem: String::from(stem),
            images: HashMap::new(),
            samplers: HashMap::new(),
            textures: HashMap::new(),
            files: Vec::new(),
        }
    }

    /// The glTF texture showing `key`, written on first use; none when its
    /// pixels are missing (the material keeps its factor only).
    pub fn texture(
        &mut self,
        w: &mut Writer,
        scene: &Scene<'_>,
        key: ImageKey,
    ) -> Result<Option<json::Index<json::Texture>>, ExportError> {
        if let Some(t) = self.textures.get(&key) {
            return Ok(*t);
        }
        let first = key.pixels.first();
        let texture = match (self.image(w, scene, key)?, scene.textures().get(first)) {
            (Some(image), Some(record)) => {
                let sampler = self.sampler(w, record);
                let name = super::name(scene.text(record.name));
                // The image is frame 0 only: what the strip was goes here.
                let mut fields = serde_json::Map::new();
                if let Some(strip) =
                    frames::divisor(key.pixels).and_then(|t| frames::strip_extras(scene, t))
                {
                    fields.insert(String::from("frame_strip"), strip);
                }
                Some(w.root.push(json::Texture {
                    name,
                    sampler: Some(sampler),
                    source: image,
                    extensions: None,
                    extras: super::extras::object(fields),
                }))
            }
            _ => None,
        };
        self.textures.insert(key, texture);
        Ok(texture)
    }

    fn image(
        &mut self,
        w: &mut Writer,
        scene: &Scene<'_>,
        key: ImageKey,
    ) -> Result<Option<json::Index<json::Image>>, ExportError> {
        if let Some(i) = self.images.get(&key) {
            return Ok(*i);
        }
        let image = match image_pixels(scene, key) {
            Some((width, height, rgba)) => {
                let mut png = Vec::new();
                crate::export::png::write_rgba8(&mut png, width, height, &rgba)?;
                let texture_name = scene
                    .textures()
                    .get(key.pixels.first())
                    .map(|t| scene.text(t.name))
                    .unwrap_or_default();
                let name = super::name(texture_name);
                let image = match self.container {
                    Container::Glb => json::Image {
                        buffer_view: Some(w.view(&png, None)?),
                        mime_type: Some(json::image::MimeType(String::from("image/png"))),
                        name,
                        uri: None,
                        extensions: None,
                        extras: None,
                    },
                    Container::Gltf => {
                        let file = std::format!(
                            "{}_{}_{}.png",
                            self.stem,
                            self.files.len(),
                            uri_safe(texture_name)
                        );
                        self.files.push((file.clone(), png));
                        json::Image {
                            buffer_view: None,
                            mime_type: Some(json::image::MimeType(String::from("image/png"))),
                            name,
                            uri: Some(file),
                            extensions: None,
                            extras: None,
                        }
                    }
                };
                Some(w.root.push(image))
            }
            None => None,
        };
        self.images.insert(key, image);
        Ok(image)
    }

    fn sampler(
        &mut self,
        w: &mut Writer,
        t: &TextureRecord,
    ) -> json::Index<json::texture::Sampler> {
        let key = SamplerKey {
            mag: t.mag_filter,
            min: t.min_filter,
            mipmapped: t.mip_count > 1,
            wrap_s: t.wrap_u,
            wrap_t: t.wrap_v,
        };
        *self
            .samplers
            .entry(key)
            .or_insert_with(|| w.root.push(sampler_of(t)))
    }
}

/// The sampler of a scene texture: filters (a texture that had mips in the
/// source minifies through mipmaps, which viewers generate) and wraps.
pub fn sampler_of(t: &TextureRecord) -> json::texture::Sampler {
    let linear = |f: u8| f == Filter::Linear as u8;
    let mag = if linear(t.mag_filter) {
        MagFilter::Linear
    } else {
        MagFilter::Nearest
    };
    let min = match (linear(t.min_filter), t.mip_count > 1) {
        (true, true) => MinFilter::LinearMipmapLinear,
        (true, false) => MinFilter::Linear,
        (false, true) => MinFilter::NearestMipmapNearest,
        (false, false) => MinFilter::Nearest,
    };
    json::texture::Sampler {
        mag_filter: Some(Checked::Valid(mag)),
        min_filter: Some(Checked::Valid(min)),
        name: None,
        wrap_s: Checked::Valid(wrapping(t.wrap_u())),
        wrap_t: Checked::Valid(wrapping(t.wrap_v())),
        extensions: None,
        extras: None,
    }
}

fn wrapping(w: Wrap) -> WrappingMode {
    match w {
        Wrap::Clamp => WrappingMode::ClampToEdge,
        Wrap::Repeat => WrappingMode::Repeat,
        Wrap::Mirror => WrappingMode::MirroredRepeat,
    }
}

/// A name reduced to what a URI may hold unescaped.
fn uri_safe(name: &str) -> String {
    let stem = name.strip_suffix(".png").unwrap_or(name);
    stem.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Level 0 of a scene texture: width, height, RGBA8.
fn level0<'a>(scene: &Scene<'a>, texture: usize) -> Option<(u32, u32, &'a [u8])> {
    let t = scene.textures().get(texture)?;
    if t.missing() {
        return None;
    }
    let (mip, pixels) = crate::export::png::level_pixels(scene, texture, 0)?;
    Some((mip.width, mip.height, pixels))
}

/// Frame 0 of level 0 of a scene texture, for faces whose V was divided
/// by `frames` (the whole level when 1): width, height, RGBA8.
fn frame_0(scene: &Scene<'_>, texture: usize, frames: u32) -> Option<(u32, u32, Vec<u8>)> {
    let (w, h, p) = level0(scene, texture)?;
    let (rows, rgba) = frames::frame_0(w, h, frames, p)?;
    Some((w, rows, rgba))
}

/// The RGBA8 pixels of an image key: width, height, bytes; none when a
/// texture has no pixels. A frame strip gives its frame 0
/// ([`frames::frame_0`]); a composite takes frame 0 of each layer at the V
/// its faces were divided by.
pub fn image_pixels(scene: &Scene<'_>, key: ImageKey) -> Option<(u32, u32, Vec<u8>)> {
    let frames = frames::frames(scene, key.pixels);
    let (width, height, mut rgba) = match key.pixels {
        Pixels::Texture(t) => frame_0(scene, t, frames)?,
        Pixels::Layers(layers, count) => {
            let mut images = Vec::with_capacity(count);
            for &t in layers.get(..count)? {
                images.push(frame_0(scene, t, frames)?);
            }
            // Layers share normalised UVs, so each is sampled (nearest) at
            // the size of the largest.
            let width = images.iter().map(|i| i.0).max()?;
            let height = images.iter().map(|i| i.1).max()?;
            let mut below = std::vec![0u8; rgba_len(width, height)?];
            for (w, h, p) in images {
                if (w, h) == (width, height) {
                    over(&mut below, &p);
                } else {
                    over(&mut below, &resized(w, h, &p, width, height)?);
                }
            }
            (width, height, below)
        }
        Pixels::Baked(material, _) => super::baked::image(scene, material)?,
    };
    match key.part {
        Part::Whole => {}
        Part::Lit => split_emission(&mut rgba, false),
        Part::Glow => split_emission(&mut rgba, true),
    }
    Some((width, height, rgba))
}

fn rgba_len(width: u32, height: u32) -> Option<usize> {
    (width as usize)
        .checked_mul(height as usize)?
        .checked_mul(4)
}

/// `rgba` (`w` × `h`) sampled nearest at `width` × `height`.
fn resized(w: u32, h: u32, rgba: &[u8], width: u32, height: u32) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(rgba_len(width, height)?);
    for y in 0..u64::from(height) {
        let sy = y * u64::from(h) / u64::from(height);
        for x in 0..u64::from(width) {
            let sx = x * u64::from(w) / u64::from(width);
            let at = usize::try_from((sy * u64::from(w) + sx) * 4).ok()?;
            out.extend_from_slice(rgba.get(at..at.checked_add(4)?)?);
        }
    }
    Some(out)
}

/// Composites `top` over `below` (straight alpha, in place).
pub fn over(below: &mut [u8], top: &[u8]) {
    for (b, t) in below.chunks_exact_mut(4).zip(top.chunks_exact(4)) {
        let ([b0, b1, b2, b_alpha], [t0, t1, t2, t_alpha]) = (b, t) else {
            continue;
        };
        let ta = f32::from(*t_alpha) / 255.0;
        let ba = f32::from(*b_alpha) / 255.0;
        let a = ta + ba * (1.0 - ta);
        for (bc, tc) in [b0, b1, b2].into_iter().zip([t0, t1, t2]) {
            let v = if a > 0.0 {
                (f32::from(*tc) * ta + f32::from(*bc) * ba * (1.0 - ta)) / a
            } else {
                0.0
            };
            *bc = to_u8(v);
        }
        *b_alpha = to_u8(a * 255.0);
    }
}

fn to_u8(v: f32) -> u8 {
    #[allow(clippy::cast_possible_truncation)] // clamped to 0..=255 first
    let byte = v.round().clamp(0.0, 255.0) as u8;
    byte
}

/// sRGB-encoded 0..=255 to linear 0..1.
pub fn srgb_to_linear(c: u8) -> f32 {
    crate::scene::srgb_to_linear(f32::from(c) / 255.0)
}

fn linear_to_srgb(v: f32) -> u8 {
    let v = v.clamp(0.0, 1.0);
    let s = if v <= 0.003_130_8 {
        v * 12.92
    } else {
        1.055 * libm::powf(v, 1.0 / 2.4) - 0.055
    };
    to_u8(s * 255.0)
}

/// An emissive texel `c` of alpha `a` shows `c·a·L + c·(1−a)`: the lit half
/// keeps `c·a` (alpha kept for masking), the glow half is `c·(1−a)`, opaque;
/// products in linear light.
fn split_emission(rgba: &mut [u8], glow: bool) {
    for px in rgba.chunks_exact_mut(4) {
        let [r, g, b, alpha] = px else {
            continue;
        };
        let a = f32::from(*alpha) / 255.0;
        let k = if glow { 1.0 - a } else { a };
        for c in [r, g, b] {
            *c = linear_to_srgb(srgb_to_linear(*c) * k);
        }
        if glow {
            *alpha = 255;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn over_puts_an_opaque_top_texel_on_top_and_keeps_a_clear_one_below() {
        let mut below = std::vec![10, 20, 30, 255, 10, 20, 30, 255];
        over(&mut below, &[200, 100, 50, 255, 1, 2, 3, 0]);
        assert_eq!(below, [200, 100, 50, 255, 10, 20, 30, 255]);
    }

    #[test]
    fn a_smaller_layer_is_sampled_nearest_at_the_larger_size() {
        let small = [1, 2, 3, 4, 5, 6, 7, 8];
        let big = resized(2, 1, &small, 4, 2).unwrap();
        assert_eq!(
            big,
            [
                1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8, 5, 6, 7, 8, //
                1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8, 5, 6, 7, 8
            ]
        );
        assert!(resized(2, 1, &small[..4], 4, 2).is_none());
    }

    #[test]
    fn over_of_half_alpha_on_clear_keeps_the_top_colour() {
        let mut below = std::vec![0, 0, 0, 0];
        over(&mut below, &[100, 150, 200, 128]);
        assert_eq!(below, [100, 150, 200, 128]);
    }

    #[test]
    fn emission_halves_add_up_to_the_texel_in_linear_light() {
        let texel = [180u8, 90, 40, 100];
        let mut lit = texel.to_vec();
        let mut glow = texel.to_vec();
        split_emission(&mut lit, false);
        split_emission(&mut glow, true);
        assert_eq!(lit[3], 100);
        assert_eq!(glow[3], 255);
        for c in 0..3 {
            let sum = srgb_to_linear(lit[c]) + srgb_to_linear(glow[c]);
            assert!((sum - srgb_to_linear(texel[c])).abs() < 0.01, "{c}");
        }
        // a fully opaque texel does not glow; a clear one glows whole
        let mut opaque = std::vec![200, 200, 200, 255];
        split_emission(&mut opaque, true);
        assert_eq!(&opaque[..3], &[0, 0, 0]);
        let mut clear = std::vec![200, 100, 0, 0];
        split_emission(&mut clear, true);
        assert_eq!(clear, [200, 100, 0, 255]);
    }

    #[test]
    fn samplers_map_filters_and_wraps_per_axis() {
        let t = TextureRecord {
            wrap_u: Wrap::Mirror as u8,
            wrap_v: Wrap::Clamp as u8,
            min_filter: Filter::Linear as u8,
            mag_filter: Filter::Nearest as u8,
            mip_count: 3,
            ..TextureRecord::default()
        };
        let s = sampler_of(&t);
        assert!(matches!(
            s.wrap_s,
            Checked::Valid(WrappingMode::MirroredRepeat)
        ));
        assert!(matches!(
            s.wrap_t,
            Checked::Valid(WrappingMode::ClampToEdge)
        ));
        assert!(matches!(
            s.mag_filter,
            Some(Checked::Valid(MagFilter::Nearest))
        ));
        assert!(matches!(
            s.min_filter,
            Some(Checked::Valid(MinFilter::LinearMipmapLinear))
        ));
        let pixel_art = TextureRecord {
            wrap_u: Wrap::Repeat as u8,
            mip_count: 1,
            ..TextureRecord::default()
        };
        let s = sampler_of(&pixel_art);
        assert!(matches!(s.wrap_s, Checked::Valid(WrappingMode::Repeat)));
        assert!(matches!(
            s.min_filter,
            Some(Checked::Valid(MinFilter::Nearest))
        ));
    }
}
