//! Meshes: the scene meshes placed on one glTF node become one glTF mesh on
//! that node, named after it, with one primitive per glTF material (a
//! double-sided scene material is its own glTF material), so a Blockbench
//! group's cubes import as one object rather than one per cube. Placement:
//! under its scene node (the node's attach node, vertices less its pivot),
//! on its joint when one joint moves it wholly (skins.rs, `rigid_joint`),
//! or, skinned, on one root node per skin (glTF ignores a skinned mesh
//! node's transform and the validator wants it at the root). Meshes at no
//! node share one root node, `(root)`. The mesh's `extras.parts` names
//! the scene meshes it holds (a J3D shape as `shape 3 (m_body)`).
//!
//! Each primitive has its own vertices, the ones its triangles use:
//! POSITION (with min/max), NORMAL, TEXCOORD_n per UV set, COLOR_n per
//! colour set (linear, normalised u16), JOINTS_n / WEIGHTS_n when skinned;
//! the set a strip's frame 0 is bound to has V undivided
//! ([`super::frames`]). Scene meshes with different attribute sets, or
//! that the scene does not draw (kept by `--hidden keep`, flagged
//! `extras.visible: false`), never share a primitive; nor do two under a
//! BLEND material, so a reader can still sort them back to front.

use std::collections::HashMap;
use std::string::{String, ToString};
use std::vec::Vec;

use gltf_json as json;
use json::accessor::{ComponentType, Type};
use json::buffer::Target;
use json::mesh::{Mode, Semantic};
use json::validation::Checked;
use serde_json::{Map, Value};

use crate::scene::{GroupFlags, MaterialFlags, MeshFlags, MeshRecord, Scene};

use super::ExportError;
use super::buffers::{Layout, Writer};
use super::extras;
use super::images::{Images, srgb_to_linear};
use super::materials::{MaterialKey, Materials};
use super::nodes::NodeMap;
use super::skins::{self, Skins, joint_sets};

/// Everything a mesh writer shares across meshes.
pub struct Context<'s, 'a> {
    /// The scene.
    pub scene: &'s Scene<'a>,
    /// Length multiplier.
    pub scale: f32,
    /// Node chains.
    pub nodes: NodeMap,
    /// Materials written so far.
    pub materials: Materials,
    /// Images written so far.
    pub images: Images,
    /// Skins written so far.
    pub skins: Skins,
    /// Normals that were zero or not finite, written as +Y.
    pub replaced_normals: usize,
}

fn bad(what: String) -> ExportError {
    ExportError::Scene(what)
}

fn range(first: u32, count: u32, per: u32) -> Option<core::ops::Range<usize>> {
    let start = first as usize;
    let len = (count as usize).checked_mul(per as usize)?;
    Some(start..start.checked_add(len)?)
}

/// Where a scene mesh's glTF mesh goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// On scene node `n`'s attach node (−1: the shared root node).
    Node(i32),
    /// Skinned by scene skin `k`, on that skin's root node.
    Skin(usize),
}

/// How one scene mesh's vertices are taken into its place's frame:
/// worked out again whenever a primitive's vertices move on to another
/// scene mesh, so nothing per vertex is held besides the scene itself.
struct Placement {
    /// A skinned mesh one joint moves wholly, written rigid on that joint:
    /// its inverse bind matrix and the matrix that turns its normals.
    rigid: Option<(crate::scene::Mat4, crate::scene::NormalMatrix)>,
    /// The place node's pivot, taken off (nodes.rs).
    back: [f32; 3],
    scale: f32,
}

impl Placement {
    fn of(cx: &Context<'_, '_>, place: Place, mesh: &MeshRecord) -> Self {
        // A skinned mesh one joint moves wholly is written rigid on that
        // joint: its vertices taken from model space into the joint's by
        // the joint's inverse bind matrix (skins.rs, `rigid_joint`).
        let rigid = match place {
            Place::Skin(_) => None,
            Place::Node(_) => skins::rigid_joint(cx.scene, mesh),
        };
        // On a scene node's attach node the vertices take off the pivot that
        // node carries (nodes.rs), so they land where the scene puts them.
        let back = match place {
            Place::Node(n) => usize::try_from(n)
                .ok()
                .and_then(|n| cx.nodes.pivot.get(n))
                .copied()
                .unwrap_or([0.0; 3]),
            Place::Skin(_) => [0.0; 3],
        };
        Self {
            rigid: rigid.map(|(_, bind)| (bind, bind.normal_matrix())),
            back,
            scale: cx.scale,
        }
    }

    fn position(&self, p: [f32; 3]) -> [f32; 3] {
        let p = match &self.rigid {
            Some((bind, _)) => bind.transform_point(p),
            None => p,
        };
        let s = p.map(|x| x * self.scale);
        [
            s[0] - self.back[0],
            s[1] - self.back[1],
            s[2] - self.back[2],
        ]
    }

    /// The unit normal written, or none for one without direction (+Y).
    fn normal(&self, n: [f32; 3]) -> Option<[f32; 3]> {
        let n = self.rigid.as_ref().map_or(n, |(_, turn)| turn.apply(n));
        unit_normal(n)
    }
}

/// The scene meshes of one place, in the order they were gathered: a
/// primitive's vertices name them by their slot here.
struct Slots {
    meshes: Vec<MeshRecord>,
    /// Per slot, for a skin's place: each vertex's joint sets.
    joints: Vec<skins::JointSets>,
}

/// What primitives must share to be one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct PrimitiveKey {
    material: usize,
    drawn: bool,
    normals: bool,
    uv_sets: usize,
    color_sets: usize,
    joint_sets: usize,
    /// The group's `extras` (render order, camera only), as JSON text.
    lost: String,
    /// The scene mesh, for a blended material: each element its own
    /// primitive, so readers that sort translucent draws back to front
    /// (three.js sorts a primitive as one object) keep sorting elements.
    blended: Option<usize>,
}

/// A primitive being gathered: its vertices as (slot, vertex of that
/// scene mesh).
struct Gathered {
    key: PrimitiveKey,
    frames: u32,
    uv_set: u32,
    vertex_colors: bool,
    colour_only: bool,
    lost: json::Extras,
    vertices: Vec<(u32, u32)>,
    indices: Vec<u32>,
}

/// Writes the meshes `list` names (scene mesh index, drawn), one glTF mesh
/// per place, in the order places first appear.
pub fn write_meshes(
    w: &mut Writer,
    cx: &mut Context<'_, '_>,
    list: &[(usize, bool)],
) -> Result<(), ExportError> {
    for (place, meshes) in places(cx, list) {
        if let Some(written) = write_place(w, cx, place, &meshes)? {
            attach(w, cx, written);
        }
    }
    Ok(())
}

/// A glTF mesh written for one place, not yet on a node.
pub struct PlacedMesh {
    /// The node it belongs on: its scene node's attach node; none for the
    /// model-space `(root)` mesh and a skin's mesh, which sit on a root node.
    pub parent: Option<json::Index<json::Node>>,
    /// The mesh.
    pub mesh: json::Index<json::Mesh>,
    /// The node name a root node for it takes.
    pub name: Option<String>,
    /// The skin a skinned mesh's node names.
    pub skin: Option<json::Index<json::Skin>>,
}

/// Writes the meshes `list` names as [`write_meshes`] does, but hangs none
/// of them: the caller places them (`--hidden keep` puts the hidden ones in
/// the second scene only, hidden.rs). Each mesh is named `<place> (hidden)`.
pub fn write_unplaced_meshes(
    w: &mut Writer,
    cx: &mut Context<'_, '_>,
    list: &[(usize, bool)],
) -> Result<Vec<PlacedMesh>, ExportError> {
    let mut out = Vec::new();
    for (place, meshes) in places(cx, list) {
        if let Some(written) = write_place(w, cx, place, &meshes)? {
            if let Some(mesh) = w.root.meshes.get_mut(written.mesh.value()) {
                mesh.name = Some(std::format!(
                    "{} (hidden)",
                    mesh.name.as_deref().unwrap_or_default()
                ));
            }
            out.push(written);
        }
    }
    Ok(out)
}

/// Sets a written mesh on its node, or on a new root node.
fn attach(w: &mut Writer, cx: &mut Context<'_, '_>, written: PlacedMesh) {
    match written.parent.and_then(|a| w.root.nodes.get_mut(a.value())) {
        Some(node) => node.mesh = Some(written.mesh),
        None => {
            let node = w.root.push(json::Node {
                mesh: Some(written.mesh),
                name: written.name,
                skin: written.skin,
                ..json::Node::default()
            });
            cx.nodes.roots.push(node);
        }
    }
}

/// The scene meshes of `list` by place, places in the order they first appear.
fn places(cx: &Context<'_, '_>, list: &[(usize, bool)]) -> Vec<(Place, Vec<(usize, bool)>)> {
    let mut places: Vec<(Place, Vec<(usize, bool)>)> = Vec::new();
    for &(index, drawn) in list {
        let Some(mesh) = cx.scene.meshes().get(index) else {
            continue;
        };
        let place = match (
            usize::try_from(mesh.skin),
            skins::rigid_joint(cx.scene, mesh),
        ) {
            (Ok(_), Some((joint, _))) => Place::Node(i32::try_from(joint).unwrap_or(-1)),
            (Ok(skin), None) => Place::Skin(skin),
            (Err(_), _) => Place::Node(mesh.node),
        };
        let place = match place {
            Place::Node(n)
                if usize::try_from(n)
                    .ok()
                    .and_then(|n| cx.nodes.attach.get(n))
                    .is_none() =>
            {
                Place::Node(-1)
            }
            p => p,
        };
        match places.iter_mut().find(|(p, _)| *p == place) {
            Some((_, meshes)) => meshes.push((index, drawn)),
            None => places.push((place, std::vec![(index, drawn)])),
        }
    }
    places
}

/// Checks that scene mesh `index`'s attribute ranges lie in the scene's
/// arrays, counts its normals without direction (written as +Y), and
/// takes its joint sets when it is skinned at `place`.
fn check_mesh(
    cx: &mut Context<'_, '_>,
    place: Place,
    index: usize,
    mesh: &MeshRecord,
) -> Result<Option<skins::JointSets>, ExportError> {
    let scene = cx.scene;
    let at = |what: &str| bad(std::format!("mesh {index}: {what} out of range"));
    let vertices = range(mesh.first_vertex, mesh.vertex_count, 1).ok_or_else(|| at("vertices"))?;
    scene
        .positions()
        .get(vertices.clone())
        .ok_or_else(|| at("positions"))?;
    if mesh.flags & MeshFlags::HAS_NORMALS != 0 {
        let normals = scene.normals().get(vertices).ok_or_else(|| at("normals"))?;
        let placement = Placement::of(cx, place, mesh);
        cx.replaced_normals += normals
            .iter()
            .filter(|n| placement.normal(**n).is_none())
            .count();
    }
    scene
        .uvs()
        .get(range(mesh.first_uv, mesh.vertex_count, mesh.uv_sets).ok_or_else(|| at("uvs"))?)
        .ok_or_else(|| at("uvs"))?;
    scene
        .colors()
        .get(
            range(mesh.first_color, mesh.vertex_count, mesh.color_sets)
                .ok_or_else(|| at("colours"))?,
        )
        .ok_or_else(|| at("colours"))?;
    match place {
        Place::Skin(skin) => {
            let joint_count = scene
                .skins()
                .get(skin)
                .map_or(0, |s| s.joint_count as usize);
            Ok(Some(joint_sets(scene, mesh, joint_count)?))
        }
        Place::Node(_) => Ok(None),
    }
}

/// Writes the glTF mesh of the scene meshes at `place` (none when they
/// have no triangles) and says where it belongs.
fn write_place(
    w: &mut Writer,
    cx: &mut Context<'_, '_>,
    place: Place,
    meshes: &[(usize, bool)],
) -> Result<Option<PlacedMesh>, ExportError> {
    let scene = cx.scene;
    let mut slots = Slots {
        meshes: Vec::with_capacity(meshes.len()),
        joints: Vec::new(),
    };
    let mut gathered: Vec<Gathered> = Vec::new();
    let mut by_key: HashMap<PrimitiveKey, usize> = HashMap::new();
    // A scene mesh's vertex numbers in the primitive being gathered (none:
    // `u32::MAX`), and which primitive each of its groups goes to: one
    // mesh's at a time, since no two meshes share a vertex.
    let mut number: Vec<u32> = Vec::new();
    let mut uses: Vec<(&[u32], usize)> = Vec::new();
    let mut parts: Vec<Value> = Vec::new();
    for &(index, drawn) in meshes {
        let mesh = scene.meshes().get(index).copied().unwrap_or_default();
        let at = |what: &str| bad(std::format!("mesh {index}: {what} out of range"));
        let groups = scene
            .groups()
            .get(range(mesh.first_group, mesh.group_count, 1).ok_or_else(|| at("groups"))?)
            .ok_or_else(|| at("groups"))?;
        if groups.iter().all(|g| g.index_count == 0) {
            continue;
        }
        let joints = check_mesh(cx, place, index, &mesh)?;
        let joint_sets = joints.as_ref().map_or(0, |j| j.joints.len());
        parts.push(Value::from(part_name(scene, index, &mesh)));
        let slot = u32::try_from(slots.meshes.len())
            .map_err(|_| bad(String::from("over 4 G meshes at one node")))?;
        uses.clear();
        for group in groups.iter().filter(|g| g.index_count > 0) {
            let indices = scene
                .indices()
                .get(range(group.first_index, group.index_count, 1).ok_or_else(|| at("indices"))?)
                .ok_or_else(|| at("indices"))?;
            if let Some(i) = indices.iter().find(|&&i| i >= mesh.vertex_count) {
                return Err(bad(std::format!(
                    "mesh {index}: index {i} past its vertices"
                )));
            }
            let record = usize::try_from(group.material)
                .ok()
                .and_then(|m| scene.materials().get(m));
            let key = MaterialKey {
                material: if record.is_some() { group.material } else { -1 },
                textured: mesh.uv_sets > super::materials::uv_set(record),
                double_sided: group.flags & GroupFlags::DOUBLE_SIDED != 0,
            };
            let (material, frames) = cx.materials.get(w, scene, &mut cx.images, key)?;
            let mut lost = Map::new();
            if group.flags & GroupFlags::CAMERA_ONLY != 0 {
                lost.insert(String::from("camera_only"), Value::Bool(true));
            }
            if group.render_order != 0 {
                lost.insert(
                    String::from("render_order"),
                    Value::from(group.render_order),
                );
            }
            if !drawn {
                lost.insert(String::from("visible"), Value::Bool(false));
            }
            let key = PrimitiveKey {
                material: material.value(),
                drawn,
                normals: mesh.flags & MeshFlags::HAS_NORMALS != 0,
                uv_sets: mesh.uv_sets as usize,
                color_sets: mesh.color_sets as usize,
                joint_sets,
                lost: Value::Object(lost.clone()).to_string(),
                blended: w
                    .root
                    .materials
                    .get(material.value())
                    .is_some_and(|m| {
                        m.alpha_mode == Checked::Valid(json::material::AlphaMode::Blend)
                    })
                    .then_some(index),
            };
            let primitive = match by_key.get(&key) {
                Some(&i) => i,
                None => {
                    by_key.insert(key.clone(), gathered.len());
                    gathered.push(Gathered {
                        key,
                        frames,
                        uv_set: super::materials::uv_set(record),
                        vertex_colors: record
                            .is_some_and(|r| r.flags & MaterialFlags::VERTEX_COLORS != 0),
                        colour_only: record
                            .is_some_and(|r| r.flags & MaterialFlags::VERTEX_ALPHA_UNUSED != 0),
                        lost: extras::object(lost),
                        vertices: Vec::new(),
                        indices: Vec::new(),
                    });
                    gathered.len() - 1
                }
            };
            uses.push((indices, primitive));
        }
        // Each primitive numbers the mesh's vertices it uses in the order
        // its groups first use them; the groups of one primitive are taken
        // together, the table cleared of what they set before the next.
        number.resize(number.len().max(mesh.vertex_count as usize), u32::MAX);
        for (u, &(_, primitive)) in uses.iter().enumerate() {
            if uses
                .get(..u)
                .unwrap_or_default()
                .iter()
                .any(|&(_, p)| p == primitive)
            {
                continue;
            }
            let g = gathered.get_mut(primitive).ok_or_else(|| at("primitive"))?;
            let start = g.vertices.len();
            for &(indices, _) in uses.iter().filter(|&&(_, p)| p == primitive) {
                for &i in indices {
                    let next = u32::try_from(g.vertices.len())
                        .map_err(|_| bad(String::from("a primitive over 4 G vertices")))?;
                    // Indices were checked below the mesh's vertex count.
                    let Some(n) = number.get_mut(i as usize) else {
                        continue;
                    };
                    if *n == u32::MAX {
                        *n = next;
                        g.vertices.push((slot, i));
                    }
                    g.indices.push(*n);
                }
            }
            for &(_, v) in g.vertices.get(start..).unwrap_or_default() {
                if let Some(n) = number.get_mut(v as usize) {
                    *n = u32::MAX;
                }
            }
        }
        slots.meshes.push(mesh);
        slots.joints.extend(joints);
    }
    if gathered.is_empty() {
        return Ok(None);
    }
    let skin = match place {
        Place::Skin(skin) => Some((skin, cx.skins.get(w, scene, &cx.nodes, skin, cx.scale)?)),
        Place::Node(_) => None,
    };
    let joint_count = skin
        .and_then(|(k, _)| scene.skins().get(k))
        .map_or(0, |s| s.joint_count as usize);
    // The buffer grows once, to what this mesh's primitives take.
    let bytes: usize = gathered
        .iter()
        .map(|g| primitive_bytes(g, joint_count))
        .sum();
    w.bin.reserve_exact(bytes);
    let mut primitives = Vec::with_capacity(gathered.len());
    for g in &gathered {
        primitives.push(write_primitive(w, cx, place, &slots, g, joint_count)?);
    }
    let name = place_name(scene, place);
    let mut fields = Map::new();
    fields.insert(String::from("parts"), Value::Array(parts));
    let gltf_mesh = w.root.push(json::Mesh {
        extensions: None,
        extras: extras::object(fields),
        name: name.clone(),
        primitives,
        weights: None,
    });
    let parent = match place {
        Place::Node(n) => usize::try_from(n)
            .ok()
            .and_then(|n| cx.nodes.attach.get(n).copied()),
        Place::Skin(_) => None,
    };
    Ok(Some(PlacedMesh {
        parent,
        mesh: gltf_mesh,
        name,
        skin: skin.map(|(_, s)| s),
    }))
}

/// Bytes a gathered primitive's views take in the buffer, each padded to 4.
fn primitive_bytes(g: &Gathered, joint_count: usize) -> usize {
    let n = g.vertices.len();
    let padded = |len: usize| len.next_multiple_of(4);
    let mut per_vertex = 12 + g.key.uv_sets * 8 + g.key.color_sets * 8;
    if g.key.normals {
        per_vertex += 12;
    }
    let joint_bytes = if joint_count <= 256 { 4 } else { 8 };
    let mut total = n * per_vertex + g.key.joint_sets * (padded(n * joint_bytes) + n * 16);
    let wide = g.vertices.len() > usize::from(u16::MAX);
    total += padded(g.indices.len() * if wide { 4 } else { 2 });
    total
}

/// A primitive's vertices one at a time: the scene mesh each comes from,
/// its slot, its vertex, and its placement (worked out per scene mesh).
fn each_vertex<'g, T>(
    cx: &'g Context<'_, '_>,
    place: Place,
    slots: &'g Slots,
    g: &'g Gathered,
    mut f: impl FnMut(&Placement, &MeshRecord, usize, usize) -> T + 'g,
) -> impl Iterator<Item = T> + 'g {
    let mut current: Option<(u32, Placement)> = None;
    g.vertices.iter().map(move |&(slot, v)| {
        let mesh = slots.meshes.get(slot as usize).copied().unwrap_or_default();
        let placement = match &current {
            Some((s, p)) if *s == slot => p,
            _ => &current.insert((slot, Placement::of(cx, place, &mesh))).1,
        };
        f(placement, &mesh, slot as usize, v as usize)
    })
}

/// One gathered primitive's accessors and JSON, its vertices read from the
/// scene straight into the buffer.
fn write_primitive(
    w: &mut Writer,
    cx: &Context<'_, '_>,
    place: Place,
    slots: &Slots,
    g: &Gathered,
    joint_count: usize,
) -> Result<json::mesh::Primitive, ExportError> {
    let scene = cx.scene;
    let target = Some(Target::ArrayBuffer);
    let count = g.vertices.len();
    let mut map: std::collections::BTreeMap<Checked<Semantic>, json::Index<json::Accessor>> =
        std::collections::BTreeMap::new();
    let positions = each_vertex(cx, place, slots, g, |p, mesh, _, v| {
        let at = mesh.first_vertex as usize + v;
        scene
            .positions()
            .get(at)
            .map_or([0.0; 3], |x| p.position(*x))
    });
    map.insert(
        Checked::Valid(Semantic::Positions),
        w.floats_from(count, positions, Layout::VEC3_F32, target, true)?,
    );
    if g.key.normals {
        let normals = each_vertex(cx, place, slots, g, |p, mesh, _, v| {
            let at = mesh.first_vertex as usize + v;
            scene
                .normals()
                .get(at)
                .map_or([0.0; 3], |n| p.normal(*n).unwrap_or([0.0, 1.0, 0.0]))
        });
        map.insert(
            Checked::Valid(Semantic::Normals),
            w.floats_from(count, normals, Layout::VEC3_F32, target, false)?,
        );
    }
    for set in 0..g.key.uv_sets {
        let values = each_vertex(cx, place, slots, g, |_, mesh, _, v| {
            let at = mesh.first_uv as usize + v * mesh.uv_sets as usize + set;
            let uv = scene.uvs().get(at).copied().unwrap_or_default();
            // The set a strip's frame 0 is bound to, V undivided.
            if g.frames > 1 && set == g.uv_set as usize {
                undivide(uv, g.frames)
            } else {
                uv
            }
        });
        let set = u32::try_from(set).unwrap_or(0);
        map.insert(
            Checked::Valid(Semantic::TexCoords(set)),
            w.floats_from(count, values, Layout::VEC2_F32, target, false)?,
        );
    }
    let layout = Layout::new(ComponentType::U16, Type::Vec4).normalized();
    for set in 0..g.key.color_sets {
        // Set 0 with alpha 1 for materials whose alpha it does not multiply.
        let opaque = set == 0 && g.vertex_colors && g.colour_only;
        let linear = each_vertex(cx, place, slots, g, |_, mesh, _, v| {
            let at = mesh.first_color as usize + v * mesh.color_sets as usize + set;
            let mut c = scene.colors().get(at).map_or([0; 4], |c| linear_color(*c));
            if opaque {
                c[3] = u16::MAX;
            }
            c
        });
        let accessor = w.elements_from(count, linear, layout, target)?;
        // glTF multiplies by COLOR_0 always: a material that does not use
        // vertex colours gets them under an application name instead.
        let semantic = if set == 0 && !g.vertex_colors {
            Semantic::Extras(String::from("_COLOR_0"))
        } else {
            Semantic::Colors(u32::try_from(set).unwrap_or(0))
        };
        map.insert(Checked::Valid(semantic), accessor);
    }
    for k in 0..g.key.joint_sets {
        let joint_of = |slot: usize, v: usize| -> [u16; 4] {
            slots
                .joints
                .get(slot)
                .and_then(|j| j.joints.get(k)?.get(v))
                .copied()
                .unwrap_or_default()
        };
        let joints = if joint_count <= 256 {
            let narrow = each_vertex(cx, place, slots, g, |_, _, slot, v| {
                joint_of(slot, v).map(|x| u8::try_from(x).unwrap_or(0))
            });
            let layout = Layout::new(ComponentType::U8, Type::Vec4);
            w.elements_from(count, narrow, layout, target)?
        } else {
            let wide = each_vertex(cx, place, slots, g, |_, _, slot, v| joint_of(slot, v));
            let layout = Layout::new(ComponentType::U16, Type::Vec4);
            w.elements_from(count, wide, layout, target)?
        };
        let weights = each_vertex(cx, place, slots, g, |_, _, slot, v| {
            slots
                .joints
                .get(slot)
                .and_then(|j| j.weights.get(k)?.get(v))
                .copied()
                .unwrap_or_default()
        });
        let k = u32::try_from(k).unwrap_or(0);
        map.insert(Checked::Valid(Semantic::Joints(k)), joints);
        map.insert(
            Checked::Valid(Semantic::Weights(k)),
            w.floats_from(count, weights, Layout::VEC4_F32, target, false)?,
        );
    }
    Ok(json::mesh::Primitive {
        attributes: map,
        extensions: None,
        extras: g.lost.clone(),
        indices: Some(w.indices(&g.indices)?),
        material: Some(json::Index::new(u32::try_from(g.key.material).unwrap_or(0))),
        mode: Checked::Valid(Mode::Triangles),
        targets: None,
    })
}

/// A merged mesh's name: its node's (`root` at no node, `skin k` for a
/// skin's mesh), so a reader lists the mesh where it lists the node.
fn place_name(scene: &Scene<'_>, place: Place) -> Option<String> {
    match place {
        Place::Node(n) => match usize::try_from(n).ok().and_then(|n| scene.nodes().get(n)) {
            Some(node) => {
                super::name(scene.text(node.name)).or_else(|| Some(std::format!("node {n}")))
            }
            None => Some(String::from("(root)")),
        },
        Place::Skin(k) => Some(std::format!("(skin {k})")),
    }
}

/// What a merged mesh holds, for `extras.parts`: each scene mesh's name,
/// or for one the file does not name (J3D shapes have none) its place among
/// the scene's meshes and the material of its first triangle group, so a
/// reader sees `shape 3 (m_body)`.
pub(super) fn part_name(scene: &Scene<'_>, index: usize, mesh: &MeshRecord) -> String {
    let own = scene.text(mesh.name);
    if !own.is_empty() {
        return String::from(own);
    }
    let material = scene
        .groups()
        .get(mesh.first_group as usize)
        .and_then(|g| usize::try_from(g.material).ok())
        .and_then(|m| scene.materials().get(m))
        .map(|m| scene.text(m.name))
        .filter(|n| !n.is_empty());
    match material {
        Some(material) => std::format!("shape {index} ({material})"),
        None => std::format!("shape {index}"),
    }
}

/// A scene UV on a strip of `frames` frames (V divided so that frame 0
/// spans `0..1/frames`) as a UV over frame 0's image: V times the frame
/// count, multiplied in f64 so the only rounding is back to f32.
pub fn undivide(uv: [f32; 2], frames: u32) -> [f32; 2] {
    #[allow(clippy::cast_possible_truncation)] // back to the accessor's f32
    let v = (f64::from(uv[1]) * f64::from(frames)) as f32;
    [uv[0], v]
}

/// `n` normalised, or none when it has no direction.
fn unit_normal(n: [f32; 3]) -> Option<[f32; 3]> {
    let len = libm::sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    (len.is_finite() && len > 1e-12).then(|| n.map(|x| x / len))
}

/// An sRGB-encoded RGBA8 colour as linear normalised u16 (glTF COLOR_n is
/// linear; u16 keeps the dark values u8 would merge).
pub fn linear_color(c: [u8; 4]) -> [u16; 4] {
    let q = |v: f32| {
        #[allow(clippy::cast_possible_truncation)] // clamped to 0..=65535 first
        let x = (v * 65535.0).round().clamp(0.0, 65535.0) as u16;
        x
    };
    [
        q(srgb_to_linear(c[0])),
        q(srgb_to_linear(c[1])),
        q(srgb_to_linear(c[2])),
        q(f32::from(c[3]) / 255.0),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_become_linear_keeping_alpha_and_the_ends() {
        assert_eq!(linear_color([0, 255, 0, 255]), [0, 65535, 0, 65535]);
        let mid = linear_color([128, 128, 128, 128]);
        assert!((14_100..=14_200).contains(&mid[0]), "{mid:?}");
        assert_eq!(mid[3], 32896);
    }

    #[test]
    fn zero_normals_have_no_direction() {
        assert_eq!(unit_normal([0.0; 3]), None);
        assert_eq!(unit_normal([0.0, 2.0, 0.0]), Some([0.0, 1.0, 0.0]));
        assert_eq!(unit_normal([f32::NAN, 0.0, 0.0]), None);
    }
}
