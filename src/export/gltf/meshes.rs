//! Meshes: one glTF mesh per scene mesh, one primitive per triangle group,
//! sharing the mesh's vertex accessors: POSITION (with min/max), NORMAL,
//! TEXCOORD_n per UV set, COLOR_n per colour set (linear, normalised u16),
//! JOINTS_n / WEIGHTS_n when skinned; the set a strip's frame 0 is bound
//! to once more with V undivided ([`super::frames`]). A mesh hangs under
//! its scene node; a skinned one sits at the root with its skin (glTF
//! ignores a skinned mesh node's own transform, and the validator asks for
//! it at the root).

use std::collections::{BTreeMap, HashMap};
use std::string::String;
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

/// Writes mesh `index` and the node that places it.
pub fn write_mesh(
    w: &mut Writer,
    cx: &mut Context<'_, '_>,
    index: usize,
    mesh: &MeshRecord,
) -> Result<(), ExportError> {
    let scene = cx.scene;
    let at = |what: &str| bad(std::format!("mesh {index}: {what} out of range"));
    let groups = scene
        .groups()
        .get(range(mesh.first_group, mesh.group_count, 1).ok_or_else(|| at("groups"))?)
        .ok_or_else(|| at("groups"))?;
    if groups.iter().all(|g| g.index_count == 0) {
        return Ok(());
    }
    let vertices = range(mesh.first_vertex, mesh.vertex_count, 1).ok_or_else(|| at("vertices"))?;
    let positions = scene
        .positions()
        .get(vertices.clone())
        .ok_or_else(|| at("positions"))?;
    let mut attributes: Vec<(Semantic, json::Index<json::Accessor>)> = Vec::new();
    // A skinned mesh one joint moves wholly is written rigid on that joint:
    // its vertices taken from model space into the joint's by the joint's
    // inverse bind matrix (skins.rs, `rigid_joint`).
    let rigid = skins::rigid_joint(scene, mesh);
    let into_joint = |p: [f32; 3]| match &rigid {
        Some((_, bind)) => bind.transform_point(p),
        None => p,
    };
    let scaled: Vec<[f32; 3]> = positions
        .iter()
        .map(|p| into_joint(*p).map(|x| x * cx.scale))
        .collect();
    let target = Some(Target::ArrayBuffer);
    attributes.push((
        Semantic::Positions,
        w.floats(&scaled, Layout::VEC3_F32, target, true)?,
    ));
    if mesh.flags & MeshFlags::HAS_NORMALS != 0 {
        let normals = scene.normals().get(vertices).ok_or_else(|| at("normals"))?;
        let turn = rigid.as_ref().map(|(_, bind)| bind.normal_matrix());
        let unit: Vec<[f32; 3]> = normals
            .iter()
            .map(|n| {
                let n = turn.as_ref().map_or(*n, |t| t.apply(*n));
                unit_normal(n).unwrap_or_else(|| {
                    cx.replaced_normals += 1;
                    [0.0, 1.0, 0.0]
                })
            })
            .collect();
        attributes.push((
            Semantic::Normals,
            w.floats(&unit, Layout::VEC3_F32, target, false)?,
        ));
    }
    let uv_sets = mesh.uv_sets;
    let uvs = scene
        .uvs()
        .get(range(mesh.first_uv, mesh.vertex_count, mesh.uv_sets).ok_or_else(|| at("uvs"))?)
        .ok_or_else(|| at("uvs"))?;
    let set_uvs = |set: u32| -> Vec<[f32; 2]> {
        uvs.iter()
            .skip(set as usize)
            .step_by(mesh.uv_sets as usize)
            .copied()
            .collect()
    };
    for set in 0..uv_sets {
        attributes.push((
            Semantic::TexCoords(set),
            w.floats(&set_uvs(set), Layout::VEC2_F32, target, false)?,
        ));
    }
    // A set with V multiplied by a strip's frame count, for primitives
    // whose image is that strip's frame 0; written when first needed.
    let mut undivided: HashMap<(u32, u32), json::Index<json::Accessor>> = HashMap::new();
    let color_sets = mesh.color_sets;
    let colors = scene
        .colors()
        .get(
            range(mesh.first_color, mesh.vertex_count, mesh.color_sets)
                .ok_or_else(|| at("colours"))?,
        )
        .ok_or_else(|| at("colours"))?;
    let mut color_accessors = Vec::new();
    let layout = Layout::new(ComponentType::U16, Type::Vec4).normalized();
    let set_colors = |set: u32| -> Vec<[u16; 4]> {
        colors
            .iter()
            .skip(set as usize)
            .step_by(mesh.color_sets as usize)
            .map(|c| linear_color(*c))
            .collect()
    };
    for set in 0..color_sets {
        let linear = set_colors(set);
        color_accessors.push(w.accessor(
            bytemuck::cast_slice(&linear),
            linear.len(),
            layout,
            target,
            None,
        )?);
    }
    // Set 0 with alpha 1, for materials whose alpha it does not multiply;
    // written when a primitive first needs it.
    let mut opaque_color_0 = None;
    let skin = match usize::try_from(mesh.skin) {
        Ok(_) if rigid.is_some() => None,
        Ok(skin) => {
            let gltf_skin = cx.skins.get(w, scene, &cx.nodes, skin, cx.scale)?;
            let joint_count = scene
                .skins()
                .get(skin)
                .map_or(0, |s| s.joint_count as usize);
            let sets = joint_sets(scene, mesh, joint_count)?;
            for (k, (joints, weights)) in sets.joints.iter().zip(&sets.weights).enumerate() {
                let k = u32::try_from(k).map_err(|_| at("joint sets"))?;
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
                        bytemuck::cast_slice(joints),
                        joints.len(),
                        layout,
                        target,
                        None,
                    )?
                };
                attributes.push((Semantic::Joints(k), joints));
                attributes.push((
                    Semantic::Weights(k),
                    w.floats(weights, Layout::VEC4_F32, target, false)?,
                ));
            }
            Some(gltf_skin)
        }
        Err(_) => None,
    };

    let mut primitives = Vec::new();
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
            textured: uv_sets > super::materials::uv_set(record),
            double_sided: group.flags & GroupFlags::DOUBLE_SIDED != 0,
        };
        let (material, frames) = cx.materials.get(w, scene, &mut cx.images, key)?;
        let vertex_colors = record.is_some_and(|r| r.flags & MaterialFlags::VERTEX_COLORS != 0);
        let mut map: BTreeMap<Checked<Semantic>, json::Index<json::Accessor>> = attributes
            .iter()
            .map(|(s, a)| (Checked::Valid(s.clone()), *a))
            .collect();
        let set = super::materials::uv_set(record);
        if frames > 1 && set < uv_sets {
            let accessor = match undivided.get(&(set, frames)) {
                Some(a) => *a,
                None => {
                    let values: Vec<[f32; 2]> = set_uvs(set)
                        .into_iter()
                        .map(|uv| undivide(uv, frames))
                        .collect();
                    let a = w.floats(&values, Layout::VEC2_F32, target, false)?;
                    *undivided.entry((set, frames)).or_insert(a)
                }
            };
            map.insert(Checked::Valid(Semantic::TexCoords(set)), accessor);
        }
        let colour_only = record.is_some_and(|r| r.flags & MaterialFlags::VERTEX_ALPHA_UNUSED != 0);
        for (set, accessor) in color_accessors.iter().enumerate() {
            if set == 0 && vertex_colors && colour_only {
                let accessor = match opaque_color_0 {
                    Some(a) => a,
                    None => {
                        let mut linear = set_colors(0);
                        for c in &mut linear {
                            c[3] = u16::MAX;
                        }
                        let a = w.accessor(
                            bytemuck::cast_slice(&linear),
                            linear.len(),
                            layout,
                            target,
                            None,
                        )?;
                        *opaque_color_0.insert(a)
                    }
                };
                map.insert(Checked::Valid(Semantic::Colors(0)), accessor);
                continue;
            }
            // glTF multiplies by COLOR_0 always: a material that does not use
            // vertex colours gets them under an application name instead.
            let semantic = if set == 0 && !vertex_colors {
                Semantic::Extras(String::from("_COLOR_0"))
            } else {
                Semantic::Colors(u32::try_from(set).unwrap_or(0))
            };
            map.insert(Checked::Valid(semantic), *accessor);
        }
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
        primitives.push(json::mesh::Primitive {
            attributes: map,
            extensions: None,
            extras: extras::object(lost),
            indices: Some(w.indices(indices)?),
            material: Some(material),
            mode: Checked::Valid(Mode::Triangles),
            targets: None,
        });
    }
    let name = super::name(scene.text(mesh.name)).or_else(|| unnamed_mesh(scene, index, mesh));
    let gltf_mesh = w.root.push(json::Mesh {
        extensions: None,
        extras: extras::visibility(mesh.flags & MeshFlags::VISIBLE != 0),
        name: name.clone(),
        primitives,
        weights: None,
    });
    let node = w.root.push(json::Node {
        mesh: Some(gltf_mesh),
        name,
        skin,
        ..json::Node::default()
    });
    if skin.is_some() {
        cx.nodes.roots.push(node);
    } else if let Some((joint, _)) = rigid {
        cx.nodes
            .hang(&mut w.root, i32::try_from(joint).unwrap_or(-1), node);
    } else {
        cx.nodes.hang(&mut w.root, mesh.node, node);
    }
    Ok(())
}

/// A name for a mesh the file does not name (J3D shapes have none), so a
/// reader lists `shape 3 (m_body)` rather than `Mesh_3`: its place among
/// the scene's meshes and the material of its first triangle group.
fn unnamed_mesh(scene: &Scene<'_>, index: usize, mesh: &MeshRecord) -> Option<String> {
    let material = scene
        .groups()
        .get(mesh.first_group as usize)
        .and_then(|g| usize::try_from(g.material).ok())
        .and_then(|m| scene.materials().get(m))
        .map(|m| scene.text(m.name))
        .filter(|n| !n.is_empty());
    Some(match material {
        Some(material) => std::format!("shape {index} ({material})"),
        None => std::format!("shape {index}"),
    })
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
