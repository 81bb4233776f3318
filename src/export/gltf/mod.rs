//! glTF 2.0 export: a [`Scene`] as a binary `.glb` (images in buffer views)
//! or a `.gltf` with its `.bin` and PNG files beside it.
//!
//! The JSON is built with `gltf-json`; one concern per module:
//!
//! - [`buffers`]: the binary buffer, views and accessors (min/max);
//! - [`nodes`]: the node tree, pivots and segment-scale compensation as TRS chains;
//! - [`meshes`]: one mesh per node (scene meshes merged), a primitive per
//!   material, vertex attributes;
//! - [`materials`]: materials (what glTF cannot hold goes to `extras`);
//! - [`images`]: images, samplers and textures;
//! - [`frames`]: frame strips as frame 0 and undivided V;
//! - [`skins`]: skins, JOINTS_n and WEIGHTS_n;
//! - `glb`: the GLB container, streamed to the file.
//!
//! - [`animations`]: clips, sampled onto [`nodes::NodeMap::main`], whose TRS
//!   is exactly the scene node's translation, rotation and scale.
//!
//! docs/export.md says what maps to what and what is lost.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets and counts over a decoded scene, whose array lengths the decoder bounded by Limits"
)]

pub mod animations;
pub mod baked;
pub mod buffers;
mod extras;
pub mod frames;
mod glb;
pub mod hidden;
pub mod images;
pub mod j3d_clips;
pub mod j3d_materials;
pub mod materials;
pub mod meshes;
pub mod nodes;
pub mod pixels;
mod shared;
pub mod skins;
pub mod uv_transform;

use std::path::{Path, PathBuf};
use std::string::String;
use std::vec::Vec;

use gltf_json as json;

use crate::scene::Scene;

use shared::name;
pub use shared::{Container, ExportError, MaterialClips};

/// How to export.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The container.
    pub container: Container,
    /// Multiplies every length (positions, translations, pivots, inverse
    /// bind translations); 1 keeps model units (Blockbench's own exporter
    /// uses 1/16, one block per metre).
    pub scale: f32,
    /// Frames a second clips are sampled at (docs/export.md, Animations).
    pub fps: f32,
    /// What becomes of meshes the scene does not draw ([`Scene::mesh_drawn`]).
    pub hidden: Hidden,
    /// Which way the model faces in the file.
    pub axes: Axes,
    /// How J3D material tracks glTF can play are written.
    pub material_clips: MaterialClips,
    /// Seconds a clip of length 0 whose Molang runs on is exported over
    /// ([`animations::DEFAULT_CONTINUOUS_LENGTH`]).
    pub continuous_length: f32,
}

/// Which way the exported model faces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Axes {
    /// The source's own axes (+Y up in both formats; a Blockbench entity
    /// faces −Z, a J3D character +Z).
    #[default]
    Source,
    /// glTF's: +Y up, the model's front towards +Z ("the front of a glTF
    /// asset should face +Z"). A .bbmodel is turned half a turn about +Y
    /// by one root node, `"<stem> (axes)"` (its front is −Z: the corpus
    /// entities, rendered from +Z, show their backs); J3D is left as it is
    /// (its characters face +Z at rest: Mario, rendered from +Z, shows his
    /// face).
    Gltf,
}

/// The `--scale` that turns a format's units into metres, glTF's unit:
/// Blockbench's exporter puts 16 pixels to the metre (a block); a J3D unit
/// is a centimetre (the corpus Marios stand 150 units tall).
pub fn metres_per_unit(format: crate::scene::Format) -> f32 {
    match format {
        crate::scene::Format::Bbmodel => 1.0 / 16.0,
        crate::scene::Format::J3d => 1.0 / 100.0,
    }
}

/// What the export does with a mesh the scene does not draw (hidden
/// itself, or under a hidden node).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Hidden {
    /// Left out, as Blockbench's own exporter leaves hidden elements out:
    /// glTF has no visibility that Blender, three.js or assimp honour, so a
    /// hidden part written would be drawn.
    #[default]
    Drop,
    /// Written in a second scene only (scene 1, "drawn and hidden"), so a
    /// reader showing the default scene draws what the model draws; their
    /// primitives flagged `extras.visible: false` (hidden.rs).
    Keep,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            container: Container::Glb,
            scale: 1.0,
            fps: animations::DEFAULT_FPS,
            hidden: Hidden::Drop,
            axes: Axes::Source,
            material_clips: MaterialClips::Pointer,
            continuous_length: animations::DEFAULT_CONTINUOUS_LENGTH,
        }
    }
}

/// What an export wrote, for the command's summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// glTF nodes (scene nodes, compensation helpers, the `(root)` and
    /// `(skin k)` mesh nodes).
    pub nodes: usize,
    /// glTF meshes.
    pub meshes: usize,
    /// Primitives of all meshes.
    pub primitives: usize,
    /// Materials.
    pub materials: usize,
    /// Images.
    pub images: usize,
    /// Skins.
    pub skins: usize,
    /// Animations (clips that move at least one node).
    pub animations: usize,
    /// Normals without direction, written as +Y.
    pub replaced_normals: usize,
    /// Meshes the scene does not draw, and their triangles: left out
    /// ([`Hidden::Drop`]) or written flagged ([`Hidden::Keep`]).
    pub hidden_meshes: usize,
    /// Triangles of those meshes.
    pub hidden_triangles: usize,
    /// Nodes added for the second scene ([`Hidden::Keep`]): copies of the
    /// node chains above hidden meshes (hidden.rs).
    pub hidden_nodes: usize,
    /// Triangles written in drawn meshes: 0 is NOTHING_TO_DRAW for the
    /// command line (the file still has its scene).
    pub drawn_triangles: usize,
    /// Bytes of every file written.
    pub bytes: usize,
    /// Tracks of J3D clips written only as data (`extras.j3d_tracks`).
    pub unplayed: j3d_materials::Unplayed,
}

/// An exported scene: the main file's bytes and the files beside it.
pub struct Output {
    /// The `.glb` or `.gltf` bytes.
    pub main: Vec<u8>,
    /// Files beside a `.gltf` (the `.bin`, PNG images): name and bytes.
    pub beside: Vec<(String, Vec<u8>)>,
    /// What was written.
    pub summary: Summary,
}

/// The document of `scene` and its buffer, not yet in a container.
fn build(scene: &Scene<'_>, stem: &str, options: &Options) -> Result<Parts, ExportError> {
    if !(options.scale.is_finite() && options.scale > 0.0) {
        return Err(ExportError::Options(std::format!(
            "scale must be finite and positive, got {}",
            options.scale
        )));
    }
    if !(options.fps.is_finite() && options.fps > 0.0) {
        return Err(ExportError::Options(std::format!(
            "fps must be finite and positive, got {}",
            options.fps
        )));
    }
    let mut w = buffers::Writer::new();
    let nodes = nodes::write_nodes(&mut w, scene, options.scale);
    let mut cx = meshes::Context {
        scene,
        scale: options.scale,
        nodes,
        materials: materials::Materials::default(),
        images: images::Images::new(options.container, stem),
        skins: skins::Skins::default(),
        replaced_normals: 0,
    };
    let (mut hidden_meshes, mut hidden_triangles, mut drawn_triangles) = (0, 0, 0);
    let mut list = Vec::with_capacity(scene.meshes().len());
    for (i, mesh) in scene.meshes().iter().enumerate() {
        let triangles = mesh.index_count as usize / 3;
        let drawn = scene.mesh_drawn(mesh);
        if drawn {
            drawn_triangles += triangles;
        } else {
            hidden_meshes += 1;
            hidden_triangles += triangles;
            if options.hidden == Hidden::Drop {
                continue;
            }
        }
        list.push((i, drawn));
    }
    let (drawn, hidden): (Vec<_>, Vec<_>) = list.iter().copied().partition(|(_, drawn)| *drawn);
    meshes::write_meshes(&mut w, &mut cx, &drawn)?;
    let hidden = meshes::write_unplaced_meshes(&mut w, &mut cx, &hidden)?;
    let j3d = j3d_clips::write_j3d_clips(
        &mut w,
        scene,
        &cx.nodes,
        &cx.materials,
        options.scale,
        options.fps,
        options.material_clips,
    )?;
    let animations = animations::write_animations(
        &mut w,
        scene,
        &cx.nodes,
        options.scale,
        (options.fps, options.continuous_length),
    )? + j3d.animations;
    j3d_materials::declare(&mut w.root, &j3d.pointers);
    let kept_tracks = j3d_materials::kept_extras(j3d.kept);
    // Always a default scene, even with nothing in it: readers such as
    // assimp and three.js refuse a file without one. glTF lets a scene leave
    // `nodes` out, but some readers (the `gltf` crate) require it and the
    // schema wants at least one when it is there: an empty model's scene
    // holds one empty node.
    if cx.nodes.roots.is_empty() {
        let empty = w.root.push(json::Node {
            name: Some(String::from("empty")),
            ..json::Node::default()
        });
        cx.nodes.roots.push(empty);
    }
    let turn = if options.axes == Axes::Gltf && scene.format() == crate::scene::Format::Bbmodel {
        turn_to_front(&mut w.root, &mut cx.nodes.roots, stem)
    } else {
        None
    };
    // Hidden parts kept: scene 0 is what the model draws, scene 1 adds
    // them (hidden.rs).
    let keep_hidden = !hidden.is_empty();
    let (all_roots, hidden_nodes) = if keep_hidden {
        hidden::second_scene(&mut w.root, &cx.nodes.roots, hidden, turn)
    } else {
        (Vec::new(), 0)
    };
    let scene_node = json::Scene {
        extensions: None,
        extras: None,
        name: keep_hidden.then(|| String::from(hidden::DRAWN_SCENE)),
        nodes: core::mem::take(&mut cx.nodes.roots),
    };
    let index = w.root.push(scene_node);
    w.root.scene = Some(index);
    if keep_hidden {
        w.root.push(json::Scene {
            extensions: None,
            extras: None,
            name: Some(String::from(hidden::ALL_SCENE)),
            nodes: all_roots,
        });
    }

    let bin_name = std::format!("{stem}.bin");
    w.finish_buffer(match options.container {
        Container::Glb => None,
        Container::Gltf => Some(bin_name.clone()),
    });
    let summary = Summary {
        nodes: w.root.nodes.len(),
        meshes: w.root.meshes.len(),
        primitives: w.root.meshes.iter().map(|m| m.primitives.len()).sum(),
        materials: w.root.materials.len(),
        images: w.root.images.len(),
        skins: w.root.skins.len(),
        animations,
        replaced_normals: cx.replaced_normals,
        hidden_meshes,
        hidden_triangles,
        hidden_nodes,
        drawn_triangles,
        bytes: 0,
        unplayed: j3d.unplayed,
    };
    let mut beside = Vec::new();
    if options.container == Container::Gltf {
        if !w.bin.is_empty() {
            beside.push((bin_name, core::mem::take(&mut w.bin)));
        }
        beside.append(&mut cx.images.files);
    }
    Ok(Parts {
        root: w.root,
        bin: w.bin,
        beside,
        summary,
        pointers: j3d.pointers,
        kept: kept_tracks,
    })
}

/// An export before it is serialised: a `.glb` is written from these
/// without a second copy of the buffer or the JSON held as text.
struct Parts {
    /// The JSON document.
    root: json::Root,
    /// The GLB's BIN chunk (empty for `.gltf`, whose buffer is in `beside`).
    bin: Vec<u8>,
    beside: Vec<(String, Vec<u8>)>,
    summary: Summary,
    /// `KHR_animation_pointer` channels by animation (j3d_materials).
    pointers: Vec<(usize, Vec<serde_json::Value>)>,
    /// J3D tracks kept as data, for the document's `extras`.
    kept: Option<serde_json::Value>,
}

impl Parts {
    /// Serialises the JSON into `out`: compact in a GLB, indented in a `.gltf`.
    fn json_to(&self, out: impl std::io::Write, container: Container) -> std::io::Result<()> {
        if !self.pointers.is_empty() || self.kept.is_some() {
            // gltf-json's channels need a node: the pointer channels are
            // spliced into the serialised document.
            let doc = j3d_materials::splice(&self.root, &self.pointers, self.kept.as_ref())?;
            return match container {
                Container::Glb => serde_json::to_writer(out, &doc),
                Container::Gltf => serde_json::to_writer_pretty(out, &doc),
            }
            .map_err(std::io::Error::from);
        }
        match container {
            Container::Glb => json::serialize::to_writer(out, &self.root),
            Container::Gltf => json::serialize::to_writer_pretty(out, &self.root),
        }
        .map_err(std::io::Error::from)
    }

    /// Writes the main file (`.glb` or `.gltf`) to `out`; its length.
    fn write_main(
        &self,
        out: &mut impl std::io::Write,
        container: Container,
    ) -> Result<usize, ExportError> {
        if container == Container::Gltf {
            let mut counted = glb::Counter::new(out);
            self.json_to(&mut counted, container)?;
            return Ok(counted.bytes);
        }
        // The JSON's length goes in the headers before it: serialised once
        // to count, once into the file.
        let mut length = glb::Counter::new(std::io::sink());
        self.json_to(&mut length, container)?;
        let glb = glb::Glb::new(length.bytes, &self.bin)?;
        glb.write_to(out, |o| self.json_to(o, container))?;
        Ok(glb.len())
    }
}

/// Builds the glTF document of `scene`; `stem` names the files beside a
/// `.gltf` (`stem.bin`, `stem_<n>_<texture>.png`).
pub fn export(scene: &Scene<'_>, stem: &str, options: &Options) -> Result<Output, ExportError> {
    let parts = build(scene, stem, options)?;
    let mut main = Vec::new();
    parts.write_main(&mut main, options.container)?;
    let mut summary = parts.summary;
    summary.bytes = main.len() + parts.beside.iter().map(|(_, b)| b.len()).sum::<usize>();
    Ok(Output {
        main,
        beside: parts.beside,
        summary,
    })
}

/// Hangs every root under one node turned half a turn about +Y, so a model
/// facing −Z faces +Z. Skinned mesh nodes stay at the root (glTF ignores
/// their own placement; their joints carry the turn). Returns the turn node.
fn turn_to_front(
    root: &mut json::Root,
    roots: &mut Vec<json::Index<json::Node>>,
    stem: &str,
) -> Option<json::Index<json::Node>> {
    let (skinned, children): (Vec<_>, Vec<_>) = core::mem::take(roots)
        .into_iter()
        .partition(|i| root.nodes.get(i.value()).is_some_and(|n| n.skin.is_some()));
    if children.is_empty() {
        *roots = skinned;
        return None;
    }
    let turn = root.push(json::Node {
        name: Some(std::format!("{stem} (axes)")),
        rotation: Some(json::scene::UnitQuaternion([0.0, 1.0, 0.0, 0.0])),
        children: Some(children),
        ..json::Node::default()
    });
    roots.push(turn);
    roots.extend(skinned);
    Some(turn)
}

/// Exports `scene` to `path` (the container from `options`) and the files
/// beside it; returns what was written and every path.
pub fn write(
    scene: &Scene<'_>,
    path: &Path,
    options: &Options,
) -> Result<(Summary, Vec<PathBuf>), ExportError> {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("model");
    let parts = build(scene, stem, options)?;
    let dir = path.parent().unwrap_or(Path::new(""));
    let mut paths = Vec::with_capacity(1 + parts.beside.len());
    let mut summary = parts.summary;
    // The main file is serialised into the file: neither the buffer nor
    // the JSON is copied into a whole file in memory first.
    let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
    summary.bytes = parts.write_main(&mut file, options.container)?;
    std::io::Write::flush(&mut file)?;
    drop(file);
    paths.push(path.to_path_buf());
    for (name, bytes) in &parts.beside {
        let p = dir.join(name);
        std::fs::write(&p, bytes)?;
        summary.bytes += bytes.len();
        paths.push(p);
    }
    Ok((summary, paths))
}
