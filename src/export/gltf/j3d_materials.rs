//! J3D material and shape tracks (BTK, BRK, BPK, BTP, BVA) in glTF
//! (docs/export.md, "J3D clips").
//!
//! glTF animates a material only through `KHR_animation_pointer`, whose
//! channels name a JSON pointer instead of a node; gltf-json's typed
//! channel requires a node, so these channels are kept as JSON here and
//! spliced into the document when it is serialised ([`splice`]).
//!
//! - A texture matrix that slot 0's coordinates go through
//!   ([`TrackRecord::BASE_TEXTURE`]) becomes the base colour texture's
//!   `KHR_texture_transform` offset, rotation and scale ([`uv_transform::exact`]),
//!   when every sampled matrix has that form.
//! - A colour the TEV fold made the base colour factor
//!   ([`TrackRecord::BASE_RGB`], [`TrackRecord::BASE_ALPHA`]) animates
//!   `baseColorFactor`, sRGB to linear and clamped as the static factor is.
//! - Everything else (TEV registers and konst colours the fold does not
//!   read, other texture matrices, texture swaps, shape visibility) has no
//!   glTF target a viewer plays: its sampled values go into the document's
//!   `extras.j3d_tracks` ([`Kept`]), accessors a reader of this exporter's
//!   output can play.

use std::string::{String, ToString};
use std::vec::Vec;

use gltf_json as json;
use json::animation::{Interpolation, Property, Sampler};
use json::validation::Checked;
use serde_json::{Map, Value, json as value};

use crate::scene::{
    ClipRecord, ColorSlot, CurveKind, MaterialSample, Scene, TrackRecord, TrackTarget,
    srgb_to_linear,
};

use super::ExportError;
use super::animations::push;
use super::buffers::{Layout, Writer};
use super::materials::Materials;
use super::uv_transform::{self, UvTransform};

/// One track glTF cannot play, as `extras.j3d_tracks` lists it.
pub struct Kept {
    fields: Map<String, Value>,
}

/// Tracks of J3D clips that no glTF viewer plays (kept in
/// `extras.j3d_tracks`), by what they animate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unplayed {
    /// BTP texture-index tracks: glTF cannot swap a texture index.
    pub texture_swaps: usize,
    /// BVA tracks of shapes that share their glTF node with other shapes
    /// or nodes, so scaling the node would hide those too.
    pub visibility: usize,
    /// BRK/BPK colours the base colour factor is not made of.
    pub colours: usize,
    /// BTK matrices that move no base colour texture, or that
    /// `KHR_texture_transform` cannot express.
    pub texture_matrices: usize,
    /// Base texture matrices and base colours kept as data by
    /// [`super::MaterialClips::Data`].
    pub as_data: usize,
}

impl Unplayed {
    /// All of them.
    pub fn total(&self) -> usize {
        self.texture_swaps + self.visibility + self.colours + self.texture_matrices + self.as_data
    }

    fn count(&mut self, target: TrackTarget) {
        match target {
            TrackTarget::TextureIndex => self.texture_swaps += 1,
            TrackTarget::Visibility => self.visibility += 1,
            TrackTarget::Color => self.colours += 1,
            TrackTarget::TexMatrix => self.texture_matrices += 1,
            TrackTarget::Joint => {}
        }
    }
}

/// What a clip's material and shape tracks became.
#[derive(Default)]
pub struct Written {
    /// `KHR_animation_pointer` channels (their samplers are in the animation).
    pub pointers: Vec<Value>,
    /// Tracks written only as data in `extras.j3d_tracks`.
    pub kept: Vec<Kept>,
    /// What the kept tracks animate.
    pub unplayed: Unplayed,
}

/// Frames a clip's material tracks are sampled at: Hermite tracks on
/// `grid` (LINEAR), tables at `steps` (STEP).
pub struct Frames<'f> {
    /// Frames of the keyed grid.
    pub grid: &'f [f32],
    /// Whole frames, then the end.
    pub steps: &'f [f32],
    /// Frames per second.
    pub rate: f32,
    /// Play what glTF can through `KHR_animation_pointer` (else keep it as data).
    pub pointers: bool,
}

/// A track's curves are all tables (BTP, BVA: STEP) rather than Hermite.
fn is_table(scene: &Scene<'_>, track: &TrackRecord) -> bool {
    let curves = scene
        .curves()
        .get(track.first_curve as usize..)
        .unwrap_or_default();
    curves
        .iter()
        .take(track.curve_count as usize)
        .all(|c| c.kind != CurveKind::Hermite as u32)
}

/// A track read at the nearest frame (BVA).
fn is_nearest(scene: &Scene<'_>, track: &TrackRecord) -> bool {
    scene
        .curves()
        .get(track.first_curve as usize)
        .is_some_and(|c| c.kind == CurveKind::Nearest as u32)
}

/// One clip's writing state.
struct Clip<'x, 's> {
    w: &'x mut Writer,
    scene: &'x Scene<'s>,
    materials: &'x Materials,
    clip: &'x ClipRecord,
    out: &'x mut json::Animation,
    written: Written,
    /// Time accessors: keyed grid, whole frames, half frames.
    inputs: [Option<json::Index<json::Accessor>>; 3],
}

/// When a track is sampled.
#[derive(Clone, Copy)]
struct When<'f> {
    frames: &'f [f32],
    input: usize,
    rate: f32,
    interpolation: Interpolation,
}

impl Clip<'_, '_> {
    fn animation(&self) -> usize {
        self.clip.animation as usize
    }

    fn input(&mut self, when: When<'_>) -> Result<json::Index<json::Accessor>, ExportError> {
        if let Some(i) = self.inputs.get(when.input).copied().flatten() {
            return Ok(i);
        }
        let times: Vec<[f32; 1]> = when.frames.iter().map(|f| [f / when.rate]).collect();
        let i = self.w.floats(&times, Layout::SCALAR_F32, None, true)?;
        if let Some(slot) = self.inputs.get_mut(when.input) {
            *slot = Some(i);
        }
        Ok(i)
    }

    fn sample(&self, f: f32, material: usize) -> Result<MaterialSample, ExportError> {
        self.scene
            .sample_material(self.animation(), f, material)
            .map_err(|e| ExportError::Scene(e.to_string()))
    }

    fn pointer(
        &mut self,
        when: When<'_>,
        output: json::Index<json::Accessor>,
        pointer: &str,
    ) -> Result<(), ExportError> {
        let input = self.input(when)?;
        let c = channel(self.out, input, output, when.interpolation, pointer)?;
        self.written.pointers.push(c);
        Ok(())
    }

    /// A base texture's matrix as `KHR_texture_transform`; false when it
    /// cannot be (no textured glTF material, or a matrix it cannot express).
    fn transform(&mut self, track: &TrackRecord, when: When<'_>) -> Result<bool, ExportError> {
        let material = track.index as usize;
        let targets = self.materials.textured(&self.w.root, material);
        if targets.is_empty() {
            return Ok(false);
        }
        let mut transforms = Vec::with_capacity(when.frames.len());
        for &f in when.frames {
            let m = self
                .sample(f, material)?
                .texture_matrices
                .get(track.slot as usize)
                .copied()
                .flatten();
            match m.and_then(|m| uv_transform::exact(&m.matrix)) {
                Some(t) => transforms.push(t),
                None => return Ok(false),
            }
        }
        unwrap_turns(&mut transforms);
        let offset: Vec<[f32; 2]> = transforms.iter().map(|t| t.offset).collect();
        let rotation: Vec<[f32; 1]> = transforms.iter().map(|t| [t.rotation]).collect();
        let scale: Vec<[f32; 2]> = transforms.iter().map(|t| t.scale).collect();
        let outputs = [
            (
                "offset",
                self.w.floats(&offset, Layout::VEC2_F32, None, false)?,
            ),
            (
                "rotation",
                self.w.floats(&rotation, Layout::SCALAR_F32, None, false)?,
            ),
            (
                "scale",
                self.w.floats(&scale, Layout::VEC2_F32, None, false)?,
            ),
        ];
        for gltf in targets {
            add_transform(&mut self.w.root, gltf);
            for (name, output) in outputs {
                let pointer = std::format!(
                    "/materials/{gltf}/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/{name}"
                );
                self.pointer(when, output, &pointer)?;
            }
        }
        Ok(true)
    }

    /// The base colour factor of `track`'s material, RGB and alpha from
    /// whichever of the clip's tracks the fold made them.
    fn factor(&mut self, track: &TrackRecord, when: When<'_>) -> Result<bool, ExportError> {
        let material = track.index as usize;
        let Some(record) = self.scene.materials().get(material) else {
            return Ok(false);
        };
        let (rgb, alpha) = base_slots(self.scene, self.clip, material);
        // The first of the material's base tracks writes the channel.
        let first = self.scene.clip_tracks(self.clip).find(|t| {
            t.target == TrackTarget::Color as u32
                && t.index as usize == material
                && t.flags & (TrackRecord::BASE_RGB | TrackRecord::BASE_ALPHA) != 0
        });
        if first != Some(track) {
            return Ok(true);
        }
        let mut factors = Vec::with_capacity(when.frames.len());
        for &f in when.frames {
            let s = self.sample(f, material)?;
            factors.push(base_factor(record.base_color, &s, rgb, alpha));
        }
        let output = self.w.floats(&factors, Layout::VEC4_F32, None, false)?;
        for gltf in self.materials.of(material) {
            let pointer = std::format!("/materials/{gltf}/pbrMetallicRoughness/baseColorFactor");
            self.pointer(when, output, &pointer)?;
        }
        Ok(true)
    }

    /// A shape's visibility as its node's scale (the node's own, or 0),
    /// when the node holds that shape alone and no other node.
    fn visibility(&mut self, track: &TrackRecord, when: When<'_>) -> Result<bool, ExportError> {
        let shape = track.index as usize;
        let Some(node) = shape_node(self.scene, &self.w.root, shape) else {
            return Ok(false);
        };
        let rest = self
            .w
            .root
            .nodes
            .get(node)
            .and_then(|n| n.scale)
            .unwrap_or([1.0; 3]);
        let mut scales = Vec::with_capacity(when.frames.len());
        for &f in when.frames {
            let shown = self
                .scene
                .sample_visibility(self.animation(), f, shape)
                .map_err(|e| ExportError::Scene(e.to_string()))?;
            scales.push(if shown.unwrap_or(true) {
                rest
            } else {
                [0.0; 3]
            });
        }
        let input = self.input(when)?;
        let output = self.w.floats(&scales, Layout::VEC3_F32, None, false)?;
        let node = json::Index::new(u32::try_from(node).unwrap_or(u32::MAX));
        push(
            self.out,
            input,
            output,
            when.interpolation,
            node,
            Property::Scale,
        )?;
        Ok(true)
    }

    /// The track's sampled values as data, for `extras.j3d_tracks`.
    fn keep(
        &mut self,
        track: &TrackRecord,
        target: TrackTarget,
        when: When<'_>,
    ) -> Result<(), ExportError> {
        let (scene, animation) = (self.scene, self.animation());
        let material = track.index as usize;
        let slot = track.slot as usize;
        let mut fields = Map::new();
        let clip_name = scene
            .animations()
            .get(animation)
            .map_or("", |a| scene.text(a.name));
        fields.insert(String::from("clip"), Value::from(clip_name));
        let output = match target {
            TrackTarget::Visibility => {
                fields.insert(String::from("target"), Value::from("shape_visible"));
                fields.insert(String::from("shape"), Value::from(material));
                let mut values = Vec::with_capacity(when.frames.len());
                for &f in when.frames {
                    let v = scene
                        .sample_visibility(animation, f, material)
                        .map_err(|e| ExportError::Scene(e.to_string()))?;
                    values.push([if v.unwrap_or(true) { 1.0 } else { 0.0 }]);
                }
                self.w.floats(&values, Layout::SCALAR_F32, None, false)?
            }
            TrackTarget::TextureIndex => {
                fields.insert(String::from("target"), Value::from("texture"));
                let mut values = Vec::with_capacity(when.frames.len());
                for &f in when.frames {
                    let t = self
                        .sample(f, material)?
                        .textures
                        .get(slot)
                        .copied()
                        .flatten();
                    values.push([t.map_or(-1.0, f32::from)]);
                }
                self.w.floats(&values, Layout::SCALAR_F32, None, false)?
            }
            TrackTarget::TexMatrix => {
                fields.insert(String::from("target"), Value::from("texture_matrix"));
                let mut values = Vec::with_capacity(when.frames.len());
                for &f in when.frames {
                    let m = self
                        .sample(f, material)?
                        .texture_matrices
                        .get(slot)
                        .copied()
                        .flatten();
                    values.push(m.map_or([0.0; 16], |m| m.matrix));
                }
                self.w.floats(&values, Layout::MAT4_F32, None, false)?
            }
            TrackTarget::Color | TrackTarget::Joint => {
                fields.insert(
                    String::from("target"),
                    Value::from(ColorSlot::name(slot).unwrap_or("?")),
                );
                let mut values = Vec::with_capacity(when.frames.len());
                for &f in when.frames {
                    let c = self
                        .sample(f, material)?
                        .colors
                        .get(slot)
                        .copied()
                        .flatten();
                    values.push(c.unwrap_or([0.0; 4]));
                }
                self.w.floats(&values, Layout::VEC4_F32, None, false)?
            }
        };
        if target != TrackTarget::Visibility {
            let name = scene
                .materials()
                .get(material)
                .map_or("", |r| scene.text(r.name));
            fields.insert(String::from("material"), Value::from(name));
            fields.insert(String::from("slot"), Value::from(slot));
        }
        let input = self.input(when)?;
        fields.insert(String::from("input"), Value::from(input.value()));
        fields.insert(String::from("output"), Value::from(output.value()));
        let step = when.interpolation == Interpolation::Step;
        fields.insert(
            String::from("interpolation"),
            Value::from(if step { "STEP" } else { "LINEAR" }),
        );
        self.written.kept.push(Kept { fields });
        Ok(())
    }
}

/// The glTF node that holds scene mesh `shape` alone: its mesh merges no
/// other scene mesh (`extras.parts`, [`super::meshes::part_name`]) and it
/// has no children, so scaling it hides that shape and nothing else.
fn shape_node(scene: &Scene<'_>, root: &json::Root, shape: usize) -> Option<usize> {
    let record = scene.meshes().get(shape)?;
    let part = Value::from(super::meshes::part_name(scene, shape, record));
    let mesh = root.meshes.iter().position(|m| {
        let parts = m
            .extras
            .as_deref()
            .and_then(|e| serde_json::from_str::<Value>(e.get()).ok())
            .and_then(|v| v.get("parts").cloned());
        parts
            .as_ref()
            .and_then(Value::as_array)
            .is_some_and(|p| p.len() == 1 && p.first() == Some(&part))
    })?;
    let mut holders = root
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.mesh.map(|m| m.value()) == Some(mesh));
    let (index, node) = holders.next()?;
    let alone = holders.next().is_none()
        && node.children.as_ref().is_none_or(Vec::is_empty)
        && node.skin.is_none();
    alone.then_some(index)
}

/// Writes clip `clip`'s material and shape tracks: samplers and node
/// channels into `out`, the pointer channels and kept tracks returned.
pub fn write_tracks(
    w: &mut Writer,
    scene: &Scene<'_>,
    materials: &Materials,
    clip: &ClipRecord,
    frames: &Frames<'_>,
    out: &mut json::Animation,
) -> Result<Written, ExportError> {
    // A table read at the nearest frame shows frame k from k − 0.5 on.
    let end = frames.steps.last().copied().unwrap_or(0.0);
    let half: Vec<f32> = frames
        .steps
        .iter()
        .map(|&f| if f > 0.0 && f < end { f - 0.5 } else { f })
        .collect();
    let mut cx = Clip {
        w,
        scene,
        materials,
        clip,
        out,
        written: Written::default(),
        inputs: [None; 3],
    };
    for track in scene.clip_tracks(clip) {
        let Some(target) = TrackTarget::from_u32(track.target) else {
            continue;
        };
        if target == TrackTarget::Joint {
            continue;
        }
        let table = is_table(scene, track);
        let (frames_at, input) = if table && is_nearest(scene, track) {
            (half.as_slice(), 2)
        } else if table {
            (frames.steps, 1)
        } else {
            (frames.grid, 0)
        };
        let when = When {
            frames: frames_at,
            input,
            rate: frames.rate,
            interpolation: if table {
                Interpolation::Step
            } else {
                Interpolation::Linear
            },
        };
        let base = match target {
            TrackTarget::TexMatrix => track.flags & TrackRecord::BASE_TEXTURE != 0,
            TrackTarget::Color => {
                track.flags & (TrackRecord::BASE_RGB | TrackRecord::BASE_ALPHA) != 0
            }
            _ => false,
        };
        if base && !frames.pointers {
            cx.keep(track, target, when)?;
            cx.written.unplayed.as_data += 1;
            continue;
        }
        let played = match target {
            TrackTarget::TexMatrix if base => cx.transform(track, when)?,
            TrackTarget::Color if base => cx.factor(track, when)?,
            TrackTarget::Visibility => cx.visibility(track, when)?,
            _ => false,
        };
        if !played {
            cx.keep(track, target, when)?;
            cx.written.unplayed.count(target);
        }
    }
    Ok(cx.written)
}

/// The colour slots whose RGB and alpha make material `material`'s base
/// colour in `clip`, as its tracks are flagged.
fn base_slots(scene: &Scene<'_>, clip: &ClipRecord, material: usize) -> (Option<u32>, Option<u32>) {
    let (mut rgb, mut alpha) = (None, None);
    for t in scene.clip_tracks(clip) {
        if t.target != TrackTarget::Color as u32 || t.index as usize != material {
            continue;
        }
        if t.flags & TrackRecord::BASE_RGB != 0 {
            rgb = Some(t.slot);
        }
        if t.flags & TrackRecord::BASE_ALPHA != 0 {
            alpha = Some(t.slot);
        }
    }
    (rgb, alpha)
}

/// The glTF base colour factor at one frame: the static factor with the
/// animated colour's RGB (sRGB, to linear) and alpha put in, clamped to
/// 0..=1 as the static factor is (GX holds these colours as bytes).
pub fn base_factor(
    rest: [f32; 4],
    sample: &MaterialSample,
    rgb: Option<u32>,
    alpha: Option<u32>,
) -> [f32; 4] {
    let unit = |c: f32| {
        if c.is_finite() {
            c.clamp(0.0, 1.0)
        } else {
            1.0
        }
    };
    let mut out = rest.map(unit);
    let colour =
        |slot: Option<u32>| slot.and_then(|s| sample.colors.get(s as usize).copied().flatten());
    if let Some([r, g, b, _]) = colour(rgb) {
        out[0] = srgb_to_linear(unit(r));
        out[1] = srgb_to_linear(unit(g));
        out[2] = srgb_to_linear(unit(b));
    }
    if let Some([_, _, _, a]) = colour(alpha) {
        out[3] = unit(a);
    }
    out
}

/// Keeps consecutive rotations within half a turn, so a LINEAR player turns
/// the short way across atan2's ±π seam.
fn unwrap_turns(transforms: &mut [UvTransform]) {
    let turn = core::f32::consts::TAU;
    let mut previous: Option<f32> = None;
    for t in transforms {
        if let Some(p) = previous {
            let k = libm::roundf((p - t.rotation) / turn);
            t.rotation += k * turn;
        }
        previous = Some(t.rotation);
    }
}

/// Puts an identity `KHR_texture_transform` on glTF material `gltf`'s base
/// colour texture (what the static export shows), for the pointer to animate.
fn add_transform(root: &mut json::Root, gltf: usize) {
    let Some(info) = root
        .materials
        .get_mut(gltf)
        .and_then(|m| m.pbr_metallic_roughness.base_color_texture.as_mut())
    else {
        return;
    };
    let ext = info.extensions.get_or_insert_with(Default::default);
    ext.others
        .entry(String::from("KHR_texture_transform"))
        .or_insert_with(|| value!({"offset": [0.0, 0.0], "rotation": 0.0, "scale": [1.0, 1.0]}));
}

/// Adds a sampler to `out` and returns the pointer channel that plays it.
fn channel(
    out: &mut json::Animation,
    input: json::Index<json::Accessor>,
    output: json::Index<json::Accessor>,
    interpolation: Interpolation,
    pointer: &str,
) -> Result<Value, ExportError> {
    let sampler = out.samplers.len();
    if u32::try_from(sampler).is_err() {
        return Err(ExportError::TooLarge(String::from(
            "more than 2³² animation samplers",
        )));
    }
    out.samplers.push(Sampler {
        extensions: None,
        extras: None,
        input,
        interpolation: Checked::Valid(interpolation),
        output,
    });
    Ok(value!({
        "sampler": sampler,
        "target": {
            "path": "pointer",
            "extensions": {"KHR_animation_pointer": {"pointer": pointer}}
        }
    }))
}

/// The extensions the pointer channels need, for `extensionsUsed`.
pub const EXTENSIONS: [&str; 2] = ["KHR_animation_pointer", "KHR_texture_transform"];

/// Declares the extensions `pointers` use in `root`.
pub fn declare(root: &mut json::Root, pointers: &[(usize, Vec<Value>)]) {
    let transforms = root.materials.iter().any(|m| {
        m.pbr_metallic_roughness
            .base_color_texture
            .as_ref()
            .and_then(|i| i.extensions.as_ref())
            .is_some_and(|e| e.others.contains_key("KHR_texture_transform"))
    });
    let used = [!pointers.is_empty(), transforms];
    for (name, used) in EXTENSIONS.iter().zip(used) {
        if used && !root.extensions_used.iter().any(|e| e == name) {
            root.extensions_used.push(String::from(*name));
        }
    }
}

/// Kept tracks as `extras.j3d_tracks` of the document.
pub fn kept_extras(kept: Vec<Kept>) -> Option<Value> {
    if kept.is_empty() {
        return None;
    }
    let list: Vec<Value> = kept.into_iter().map(|k| Value::Object(k.fields)).collect();
    Some(value!({ "j3d_tracks": list }))
}

/// The document as JSON with each animation's pointer channels appended
/// and the kept tracks in `extras` (serialised by gltf-json first).
pub fn splice(
    root: &json::Root,
    pointers: &[(usize, Vec<Value>)],
    kept: Option<&Value>,
) -> serde_json::Result<Value> {
    let mut doc = serde_json::to_value(root)?;
    if let Some(animations) = doc.get_mut("animations").and_then(Value::as_array_mut) {
        for (index, channels) in pointers {
            let Some(a) = animations.get_mut(*index).and_then(Value::as_object_mut) else {
                continue;
            };
            let list = a
                .entry("channels")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Some(list) = list.as_array_mut() {
                list.extend(channels.iter().cloned());
            }
        }
    }
    if let (Some(kept), Some(obj)) = (kept, doc.as_object_mut()) {
        let extras = obj
            .entry("extras")
            .or_insert_with(|| Value::Object(Map::new()));
        if let (Some(extras), Some(fields)) = (extras.as_object_mut(), kept.as_object()) {
            for (k, v) in fields {
                extras.insert(k.clone(), v.clone());
            }
        }
    }
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_are_unwrapped_across_the_seam() {
        let mut t = [3.1, -3.1, -3.0].map(|r| UvTransform {
            rotation: r,
            ..UvTransform::default()
        });
        unwrap_turns(&mut t);
        assert!((t[1].rotation - (-3.1 + core::f32::consts::TAU)).abs() < 1e-5);
        assert!((t[2].rotation - (-3.0 + core::f32::consts::TAU)).abs() < 1e-5);
    }

    #[test]
    fn base_factor_puts_the_animated_colour_in_linear_and_clamps() {
        let mut s = MaterialSample::default();
        s.colors[4] = Some([1.5, 0.5, 0.0, 0.25]);
        let f = base_factor([0.1, 0.2, 0.3, 0.4], &s, Some(4), None);
        assert_eq!(f[0], 1.0);
        assert!((f[1] - srgb_to_linear(0.5)).abs() < 1e-7);
        assert_eq!(f[2], 0.0);
        assert_eq!(f[3], 0.4);
        let f = base_factor([0.1, 0.2, 0.3, 0.4], &s, None, Some(4));
        assert_eq!(f, [0.1, 0.2, 0.3, 0.25]);
    }
}
