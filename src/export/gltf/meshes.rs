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

/// One scene mesh's vertex attributes, in its place's frame.
struct Prepared {
    positions: Vec<[f32; 3]>,
    normals: Option<Vec<[f32; 3]>>,
    /// Per UV set.
    uvs: Vec<Vec<[f32; 2]>>,
    /// Per colour set, linear.
    colors: Vec<Vec<[u16; 4]>>,
    joints: Vec<Vec<[u16; 4]>>,
    weights: Vec<Vec<[f32; 4]>>,
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

/// A primitive being gathered: its vertices as (prepared mesh, vertex).
struct Gathered {
    key: PrimitiveKey,
    frames: u32,
    uv_set: u32,
    vertex_colors: bool,
    colour_only: bool,
    lost: json::Extras,
    vertices: Vec<(usize, u32)>,
    seen: HashMap<(usize, u32), u32>,
    indices: Vec<u32>,
}

/// Writes the meshes `list` names (scene mesh index, drawn), one glTF mesh
/// per place, in the order places first appear.
pub fn write_meshes(
    w: &mut Writer,
    cx: &mut Context<'_, '_>,
    list: &[(usize, bool)],
) -> Result<(), ExportError> {
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
    for (place, meshes) in places {
        write_place(w, cx, place, &meshes)?;
    }
    Ok(())
}

/// The attributes of scene mesh `index`, taken into `place`'s frame.
fn prepare(cx: &mut Context<'_, '_>, place: Place, index: usize) -> Result<Prepared, ExportError> {
    let scene = cx.scene;
    let at = |what: &str| bad(std::format!("mesh {index}: {what} out of range"));
    let mesh = scene.meshes().get(index).ok_or_else(|| at("mesh"))?;
    let vertices = range(mesh.first_vertex, mesh.vertex_count, 1).ok_or_else(|| at("vertices"))?;
    let positions = scene
        .positions()
        .get(vertices.clone())
        .ok_or_else(|| at("positions"))?;
    // A skinned mesh one joint moves wholly is written rigid on that joint:
    // its vertices taken from model space into the joint's by the joint's
    // inverse bind matrix (skins.rs, `rigid_joint`).
    let rigid = match place {
        Place::Skin(_) => None,
        Place::Node(_) => skins::rigid_joint(scene, mesh),
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
    let into_place = |p: [f32; 3]| {
        let p = match &rigid {
            Some((_, bind)) => bind.transform_point(p),
            None => p,
        };
        let s = p.map(|x| x * cx.scale);
        [s[0] - back[0], s[1] - back[1], s[2] - back[2]]
    };
    let positions: Vec<[f32; 3]> = positions.iter().map(|p| into_place(*p)).collect();
    let normals = if mesh.flags & MeshFlags::HAS_NORMALS != 0 {
        let normals = scene.normals().get(vertices).ok_or_else(|| at("normals"))?;
        let turn = rigid.as_ref().map(|(_, bind)| bind.normal_matrix());
        let mut replaced = 0;
        let unit: Vec<[f32; 3]> = normals
            .iter()
            .map(|n| {
                let n = turn.as_ref().map_or(*n, |t| t.apply(*n));
                unit_normal(n).unwrap_or_else(|| {
                    replaced += 1;
                    [0.0, 1.0, 0.0]
                })
            })
            .collect();
        cx.replaced_normals += replaced;
        Some(unit)
    } else {
        None
    };
    let uvs = scene
        .uvs()
        .get(range(mesh.first_uv, mesh.vertex_count, mesh.uv_sets).ok_or_else(|| at("uvs"))?)
        .ok_or_else(|| at("uvs"))?;
    let uvs = (0..mesh.uv_sets as usize)
        .map(|set| {
            uvs.iter()
                .skip(set)
                .step_by(mesh.uv_sets as usize)
                .copied()
                .collect()
        })
        .collect();
    let colors = scene
        .colors()
        .get(
            range(mesh.first_color, mesh.vertex_count, mesh.color_sets)
                .ok_or_else(|| at("colours"))?,
        )
        .ok_or_else(|| at("colours"))?;
    let colors = (0..mesh.color_sets as usize)
        .map(|set| {
            colors
                .iter()
                .skip(set)
                .step_by(mesh.color_sets as usize)
                .map(|c| linear_color(*c))
                .collect()
        })
        .collect();
    let (joints, weights) = match place {
        Place::Skin(skin) => {
            let joint_count = scene
                .skins()
                .get(skin)
                .map_or(0, |s| s.joint_count as usize);
            let sets = joint_sets(scene, mesh, joint_count)?;
            (sets.joints, sets.weights)
        }
        Place::Node(_) => (Vec::new(), Vec::new()),
    };
    Ok(Prepared {
        positions,
        normals,
        uvs,
        colors,
        joints,
        weights,
    })
}

/// Writes the glTF mesh of the scene meshes at `place` and sets it on the
/// place's node.
fn write_place(
    w: &mut Writer,
    cx: &mut Context<'_, '_>,
    place: Place,
    meshes: &[(usize, bool)],
) -> Result<(), ExportError> {
    let scene = cx.scene;
    let mut prepared = Vec::with_capacity(meshes.len());
    let mut gathered: Vec<Gathered> = Vec::new();
    let mut by_key: HashMap<PrimitiveKey, usize> = HashMap::new();
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
        let p = prepare(cx, place, index)?;
        parts.push(Value::from(part_name(scene, index, &mesh)));
        let slot = prepared.len();
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
                normals: p.normals.is_some(),
                uv_sets: p.uvs.len(),
                color_sets: p.colors.len(),
                joint_sets: p.joints.len(),
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
            let g = match by_key.get(&key).and_then(|&i| gathered.get_mut(i)) {
                Some(g) => g,
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
                        seen: HashMap::new(),
                        indices: Vec::new(),
                    });
                    gathered.last_mut().ok_or_else(|| at("primitive"))?
                }
            };
            for &i in indices {
                let next = u32::try_from(g.vertices.len())
                    .map_err(|_| bad(String::from("a primitive over 4 G vertices")))?;
                let v = *g.seen.entry((slot, i)).or_insert(next);
                if v == next {
                    g.vertices.push((slot, i));
                }
                g.indices.push(v);
            }
        }
        prepared.push(p);
    }
    if gathered.is_empty() {
        return Ok(());
    }
    let skin = match place {
        Place::Skin(skin) => Some((skin, cx.skins.get(w, scene, &cx.nodes, skin, cx.scale)?)),
        Place::Node(_) => None,
    };
    let mut primitives = Vec::with_capacity(gathered.len());
    for g in &gathered {
        let joint_count = skin
            .and_then(|(k, _)| scene.skins().get(k))
            .map_or(0, |s| s.joint_count as usize);
        primitives.push(write_primitive(w, &prepared, g, joint_count)?);
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
    let attach = match place {
        Place::Node(n) => usize::try_from(n)
            .ok()
            .and_then(|n| cx.nodes.attach.get(n).copied()),
        Place::Skin(_) => None,
    };
    match attach.and_then(|a| w.root.nodes.get_mut(a.value())) {
        Some(node) => node.mesh = Some(gltf_mesh),
        None => {
            let node = w.root.push(json::Node {
                mesh: Some(gltf_mesh),
                name,
                skin: skin.map(|(_, s)| s),
                ..json::Node::default()
            });
            cx.nodes.roots.push(node);
        }
    }
    Ok(())
}

/// One gathered primitive's accessors and JSON.
fn write_primitive(
    w: &mut Writer,
    prepared: &[Prepared],
    g: &Gathered,
    joint_count: usize,
) -> Result<json::mesh::Primitive, ExportError> {
    let target = Some(Target::ArrayBuffer);
    let gather = |f: &dyn Fn(&Prepared, usize) -> Option<[f32; 3]>| -> Vec<[f32; 3]> {
        g.vertices
            .iter()
            .map(|&(s, v)| {
                prepared
                    .get(s)
                    .and_then(|p| f(p, v as usize))
                    .unwrap_or_default()
            })
            .collect()
    };
    let mut map: std::collections::BTreeMap<Checked<Semantic>, json::Index<json::Accessor>> =
        std::collections::BTreeMap::new();
    let positions = gather(&|p, v| p.positions.get(v).copied());
    map.insert(
        Checked::Valid(Semantic::Positions),
        w.floats(&positions, Layout::VEC3_F32, target, true)?,
    );
    if g.key.normals {
        let normals = gather(&|p, v| p.normals.as_ref().and_then(|n| n.get(v)).copied());
        map.insert(
            Checked::Valid(Semantic::Normals),
            w.floats(&normals, Layout::VEC3_F32, target, false)?,
        );
    }
    for set in 0..g.key.uv_sets {
        let values: Vec<[f32; 2]> = g
            .vertices
            .iter()
            .map(|&(s, v)| {
                let uv = prepared
                    .get(s)
                    .and_then(|p| p.uvs.get(set)?.get(v as usize))
                    .copied()
                    .unwrap_or_default();
                // The set a strip's frame 0 is bound to, V undivided.
                if g.frames > 1 && set == g.uv_set as usize {
                    undivide(uv, g.frames)
                } else {
                    uv
                }
            })
            .collect();
        let set = u32::try_from(set).unwrap_or(0);
        map.insert(
            Checked::Valid(Semantic::TexCoords(set)),
            w.floats(&values, Layout::VEC2_F32, target, false)?,
        );
    }
    let layout = Layout::new(ComponentType::U16, Type::Vec4).normalized();
    for set in 0..g.key.color_sets {
        let mut linear: Vec<[u16; 4]> = g
            .vertices
            .iter()
            .map(|&(s, v)| {
                prepared
                    .get(s)
                    .and_then(|p| p.colors.get(set)?.get(v as usize))
                    .copied()
                    .unwrap_or_default()
            })
            .collect();
        // Set 0 with alpha 1 for materials whose alpha it does not multiply.
        if set == 0 && g.vertex_colors && g.colour_only {
            for c in &mut linear {
                c[3] = u16::MAX;
            }
        }
        let accessor = w.accessor(
            bytemuck::cast_slice(&linear),
            linear.len(),
            layout,
            target,
            None,
        )?;
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
        let joints: Vec<[u16; 4]> = g
            .vertices
            .iter()
            .map(|&(s, v)| {
                prepared
                    .get(s)
                    .and_then(|p| p.joints.get(k)?.get(v as usize))
                    .copied()
                    .unwrap_or_default()
            })
            .collect();
        let weights: Vec<[f32; 4]> = g
            .vertices
            .iter()
            .map(|&(s, v)| {
                prepared
                    .get(s)
                    .and_then(|p| p.weights.get(k)?.get(v as usize))
                    .copied()
                    .unwrap_or_default()
            })
            .collect();
        let joints = if joint_count <= 256 {
            let narrow: Vec<[u8; 4]> = joints
                .iter()
                .map(|j| j.map(|x| u8::try_from(x).unwrap_or(0)))
                .collect();
            let layout = Layout::new(ComponentType::U8, Type::Vec4);
            w.accessor(
                bytemuck::cast_slice(&narrow),
                narrow.len(),
                layout,
                target,
                None,
            )?
        } else {
            let layout = Layout::new(ComponentType::U16, Type::Vec4);
            w.accessor(
                bytemuck::cast_slice(&joints),
                joints.len(),
                layout,
                target,
                None,
            )?
        };
        let k = u32::try_from(k).unwrap_or(0);
        map.insert(Checked::Valid(Semantic::Joints(k)), joints);
        map.insert(
            Checked::Valid(Semantic::Weights(k)),
            w.floats(&weights, Layout::VEC4_F32, target, false)?,
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
