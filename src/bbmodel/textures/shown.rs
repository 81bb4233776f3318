//! Which texture a face shows, and with which material (Conversion,
//! "Default texture" and "Layer composite"; Blockbench conventions 15).
//!
//! Blockbench draws a face with `Face.getTexture()`, which in the
//! single-texture formats is the project's default texture rather than the
//! one the face stores, and gives every face one layered material when a
//! single-texture format has a layered texture. Both are decided here,
//! once per file ([`TextureRules::new`], from a [`TextureSummary`] gathered
//! as the textures are read, so no texture is held), and asked per face.
//!
//! Two formats give an element's faces the texture of its place in the
//! model ([`Placement`]): OptiFine's (`per_group_texture`) that of the
//! element's parent group, and the Hytale ones with collections that of the
//! first collection containing a cube ([`crate::bbmodel::textures::collections`]). The fill
//! pass knows each element's place; the counting passes do not, and count
//! an element's faces as if they showed one texture of its own (every face
//! of such an element shows the same one), which bounds its groups from
//! above.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use crate::bbmodel::document::Document;
use crate::bbmodel::document::formats::ModelFormat;
use crate::bbmodel::document::value::Path;
use crate::bbmodel::project::structure::GroupTexture;
use crate::bbmodel::textures::entries::{RenderMode, RenderSides, TextureMeta, Textures, UvSpace};
use crate::error::{Location, Quote, Warning, WarningCode, Warnings};

/// A mesh face's stored `texture: null` in [`MeshFace::material`]
/// (convention 8: the face is drawn, unlike a cube face).
///
/// [`MeshFace::material`]: crate::bbmodel::elements::mesh::faces::MeshFace::material
pub const NULL_FACE: i32 = -2;

/// How a format picks a face's texture (convention 15, Face.getTexture).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FaceRule {
    /// Each face shows the texture it stores.
    Own,
    /// Every face (except a removed cube face) shows the default texture
    /// (Format.single_texture).
    EveryFace,
    /// Blank faces show the default texture, the others their own
    /// (Format.single_texture_default).
    BlankFaces,
    /// The texture the element's place gives ([`Placement`]), else the
    /// default one; a null mesh face shows the placed texture or none
    /// (Format.per_group_texture; the Hytale plugin's CubeFace.getTexture
    /// with collections).
    ByPlacement,
}

/// The texture an element's place in the model gives its faces
/// (convention 15): its parent group's `texture` in the OptiFine formats,
/// the first collection containing a cube in the Hytale formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Not known: the counting passes, which do not place elements.
    Unknown,
    /// Nothing gives one (no group texture, no collection): the default
    /// texture shows.
    Nothing,
    /// This texture index, or −1 (a uuid naming no texture, a collection
    /// without one): untextured.
    Texture(i32),
}

/// The material an element of unknown placement counts with: no texture's,
/// so that it never merges with another group, and double-sided, the side
/// rule that splits coincident faces (an upper bound of the groups).
const UNPLACED: i32 = i32::MIN + 1;

/// What a face is drawn with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shown {
    /// The material: a texture's (same index), the layer composite's, or −1.
    pub material: i32,
    /// How the face is sided (the composite's faces: the format's default).
    pub sides: RenderSides,
    /// What the face's UVs are divided by.
    pub uv: UvSpace,
}

/// The per-file answers of convention 15.
#[derive(Clone, Copy, Debug)]
pub struct TextureRules {
    cube_rule: FaceRule,
    mesh_rule: FaceRule,
    /// Texture.getDefault(), or −1.
    default: i32,
    /// The layer composite's material index, or −1.
    composite: i32,
    /// Textures in the composite, bottom first (−1 past `layer_count`).
    layers: [i32; 3],
    layer_count: u8,
    resolution: [f32; 2],
}

impl TextureRules {
    /// The rules of `doc`'s format for its textures, as `summary` gathered
    /// them.
    pub fn new(doc: &Document<'_>, summary: &TextureSummary) -> Self {
        let format = doc.format;
        let collections = doc.has_collections();
        let (cube_rule, mesh_rule) = if format.single_texture(collections) {
            (FaceRule::EveryFace, FaceRule::EveryFace)
        } else if format.per_group_texture() {
            (FaceRule::ByPlacement, FaceRule::ByPlacement)
        } else if format.reads_collections() {
            // With collections: cubes their collection's texture or the
            // default one, meshes bedrock_block's rule.
            (FaceRule::ByPlacement, FaceRule::BlankFaces)
        } else if format.single_texture_default() {
            (FaceRule::BlankFaces, FaceRule::BlankFaces)
        } else {
            (FaceRule::Own, FaceRule::Own)
        };
        let mut rules = Self {
            cube_rule,
            mesh_rule,
            default: default_texture(format, summary),
            composite: -1,
            layers: [-1; 3],
            layer_count: 0,
            resolution: doc.resolution,
        };
        if let Some((layers, count)) = composite_layers(format, summary) {
            rules.composite = i32::try_from(summary.count).unwrap_or(-1);
            rules.layers = layers;
            rules.layer_count = count;
        }
        rules
    }

    /// Materials the scene gets: one per texture, and the composite's.
    pub fn material_count(&self, textures: usize) -> usize {
        textures + usize::from(self.composite >= 0)
    }

    /// The layer composite: its textures bottom first and how many, when
    /// the file has one.
    pub fn composite(&self) -> Option<([i32; 3], u8)> {
        (self.composite >= 0).then_some((self.layers, self.layer_count))
    }

    /// Whether faces depend on where their element is placed (the fill
    /// pass then asks with its [`Placement`]).
    pub fn by_placement(&self) -> bool {
        self.cube_rule == FaceRule::ByPlacement
    }

    /// A drawn cube face storing `stored` (a texture index, or −1 blank)
    /// of an element placed as `placed`.
    pub fn cube_face(&self, textures: &Textures<'_>, stored: i32, placed: Placement) -> Shown {
        let texture = self.pick(self.cube_rule, stored, placed);
        self.shown(textures, texture, texture)
    }

    /// A mesh face storing `stored` (a texture index, −1 blank, or
    /// [`NULL_FACE`]). A null face in the formats where every face shows
    /// the default texture gets that texture's material, its UVs still
    /// over the project resolution (convention 15: the mesh controller
    /// gives the whole mesh the default material; updateUV sizes null
    /// faces by getTexture(), which is none). In the OptiFine formats a
    /// null face shows its group's texture, material and UV size alike
    /// (Face.getTexture asks the group first), or none.
    pub fn mesh_face(&self, textures: &Textures<'_>, stored: i32, placed: Placement) -> Shown {
        if stored == NULL_FACE {
            return match (self.mesh_rule, placed) {
                (FaceRule::EveryFace, _) => self.shown(textures, self.default, -1),
                (FaceRule::ByPlacement, Placement::Texture(t)) => self.shown(textures, t, t),
                // Unknown counts as untextured: its other faces count as
                // UNPLACED, so the two never merge.
                (FaceRule::ByPlacement, Placement::Nothing | Placement::Unknown)
                | (FaceRule::BlankFaces | FaceRule::Own, _) => self.shown(textures, -1, -1),
            };
        }
        let texture = self.pick(self.mesh_rule, stored, placed);
        self.shown(textures, texture, texture)
    }

    fn pick(&self, rule: FaceRule, stored: i32, placed: Placement) -> i32 {
        match (rule, placed) {
            (FaceRule::Own, _) => stored,
            (FaceRule::EveryFace, _) | (FaceRule::ByPlacement, Placement::Nothing) => self.default,
            (FaceRule::ByPlacement, Placement::Texture(t)) => t,
            (FaceRule::ByPlacement, Placement::Unknown) => UNPLACED,
            (FaceRule::BlankFaces, _) if stored < 0 => self.default,
            (FaceRule::BlankFaces, _) => stored,
        }
    }

    /// A face drawn with texture `material`'s material and UVs over
    /// texture `uv_texture` (either −1 for none); the composite, when the
    /// file has one, replaces the material and sides as the format does.
    fn shown(&self, textures: &Textures<'_>, material: i32, uv_texture: i32) -> Shown {
        let uv = textures
            .facts(uv_texture)
            .map_or(UvSpace::resolution(self.resolution), |f| f.uv_space());
        if self.composite >= 0 {
            return Shown {
                material: self.composite,
                sides: RenderSides::Auto,
                uv,
            };
        }
        if material == UNPLACED {
            return Shown {
                material,
                sides: RenderSides::Double,
                uv,
            };
        }
        // The counting passes hold no facts: every texture counts as auto
        // sided, which groups faces alike, as the facts would (a face's
        // sidedness follows its texture within one element).
        Shown {
            material: if textures.contains(material) {
                material
            } else {
                -1
            },
            sides: textures
                .facts(material)
                .map_or(RenderSides::Auto, |f| f.render_sides()),
            uv,
        }
    }
}

/// A node's entry in the group-texture table when its group gives no
/// texture (absent, empty, or no string): its elements show the default.
pub const NO_GROUP_TEXTURE: i32 = i32::MIN;

/// What a group's `texture` field (at `at`) gives its elements' faces in
/// the OptiFine formats (convention 15, Face.getTexture: the parent
/// group's texture when it has one): a texture index, −1 for a uuid
/// naming no texture (UNKNOWN_REFERENCE; Blockbench finds nothing and
/// draws the faces untextured), or [`NO_GROUP_TEXTURE`]. A value that is
/// no string warns UNSUPPORTED_VALUE and is ignored.
pub fn group_texture(
    textures: &Textures<'_>,
    field: &GroupTexture<'_>,
    at: &Path<'_>,
    warnings: Option<&mut Warnings>,
) -> i32 {
    let warn = |code, args: core::fmt::Arguments<'_>| {
        if let Some(w) = warnings {
            w.push(Warning::new(code, Location::Json(at.render()), args));
        }
    };
    match field {
        GroupTexture::Absent => NO_GROUP_TEXTURE,
        GroupTexture::Uuid(s) if s.decoded_len() == 0 => NO_GROUP_TEXTURE,
        GroupTexture::Uuid(s) => match textures.by_uuid(s).and_then(|i| i32::try_from(i).ok()) {
            Some(i) => i,
            None => {
                warn(
                    WarningCode::UnknownReference,
                    format_args!(
                        "group texture {} names no texture: its faces are untextured",
                        Quote(s.raw_str())
                    ),
                );
                -1
            }
        },
        GroupTexture::NotString => {
            warn(
                WarningCode::UnsupportedValue,
                format_args!("group texture is no string: ignored"),
            );
            NO_GROUP_TEXTURE
        }
    }
}

/// What the rules need of the textures, gathered as they are read in
/// file order (so no texture is held to decide them).
#[derive(Clone, Copy, Debug)]
pub struct TextureSummary {
    count: usize,
    /// The first `use_as_default` texture.
    first_default: Option<usize>,
    any_layered: bool,
    /// The last three visible textures, oldest first (−1 for none yet).
    last_visible: [i32; 3],
    visible: usize,
}

impl Default for TextureSummary {
    fn default() -> Self {
        Self {
            count: 0,
            first_default: None,
            any_layered: false,
            last_visible: [-1; 3],
            visible: 0,
        }
    }
}

impl TextureSummary {
    /// Adds texture `index`, the next in file order.
    pub fn add(&mut self, index: usize, meta: &TextureMeta<'_>) {
        self.count = index + 1;
        if meta.use_as_default && self.first_default.is_none() {
            self.first_default = Some(index);
        }
        self.any_layered |= meta.render_mode == RenderMode::Layered;
        if meta.visible {
            self.last_visible.rotate_left(1);
            self.last_visible[2] = i32::try_from(index).unwrap_or(-1);
            self.visible += 1;
        }
    }
}

/// Texture.getDefault() (convention 15): the first `use_as_default`
/// texture where the format reads the flag (Format.single_texture_default),
/// else the last visible texture when there are two or more and one is
/// layered, else the first; −1 without textures.
fn default_texture(format: ModelFormat, s: &TextureSummary) -> i32 {
    let index = |i: usize| i32::try_from(i).unwrap_or(-1);
    if format.single_texture_default()
        && let Some(i) = s.first_default
    {
        return index(i);
    }
    if s.count >= 2 && s.any_layered && s.visible > 0 {
        return s.last_visible[2];
    }
    if s.count == 0 { -1 } else { 0 }
}

/// The layer composite (Conversion, "Layer composite"): in a format that
/// composites, with two or more textures, one layered and one visible, the
/// last three visible textures in file order, bottom first.
fn composite_layers(format: ModelFormat, s: &TextureSummary) -> Option<([i32; 3], u8)> {
    if !format.composites_layers() || s.count < 2 || !s.any_layered || s.visible == 0 {
        return None;
    }
    let count = s.visible.min(3);
    let mut layers = [-1i32; 3];
    for (slot, &t) in layers.iter_mut().zip(s.last_visible.get(3 - count..)?) {
        *slot = t;
    }
    Some((layers, u8::try_from(count).ok()?))
}
