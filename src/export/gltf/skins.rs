//! Skins: the scene's joints and inverse bind matrices as they are, so the
//! rest pose is the bind pose exactly (each joint is the node whose world
//! matrix equals the scene joint's, [`NodeMap::attach`]); and per vertex,
//! JOINTS_n / WEIGHTS_n sets of four, as many sets as the vertex with the
//! most influences needs, weights normalised to sum to 1.

use std::collections::HashMap;
use std::string::String;
use std::vec::Vec;

use gltf_json as json;

use crate::scene::{MeshRecord, Scene};

use super::ExportError;
use super::buffers::{Layout, Writer};
use super::nodes::NodeMap;

/// The glTF skins written so far (a skin is written when a mesh uses it).
#[derive(Default)]
pub struct Skins {
    written: HashMap<usize, json::Index<json::Skin>>,
}

fn bad(what: String) -> ExportError {
    ExportError::Scene(what)
}

impl Skins {
    /// The glTF skin of scene skin `skin`, written on first use.
    pub fn get(
        &mut self,
        w: &mut Writer,
        scene: &Scene<'_>,
        nodes: &NodeMap,
        skin: usize,
        scale: f32,
    ) -> Result<json::Index<json::Skin>, ExportError> {
        if let Some(s) = self.written.get(&skin) {
            return Ok(*s);
        }
        let record = scene
            .skins()
            .get(skin)
            .ok_or_else(|| bad(std::format!("skin {skin} does not exist")))?;
        let range = joint_range(record.first_joint, record.joint_count);
        let joints = scene
            .skin_joints()
            .get(range.clone())
            .ok_or_else(|| bad(std::format!("skin {skin}: joints out of range")))?;
        let binds = scene
            .inverse_binds()
            .get(range)
            .ok_or_else(|| bad(std::format!("skin {skin}: inverse binds out of range")))?;
        let mut gltf_joints = Vec::with_capacity(joints.len());
        for &j in joints {
            let node = nodes
                .attach
                .get(j as usize)
                .ok_or_else(|| bad(std::format!("skin {skin}: joint node {j} does not exist")))?;
            gltf_joints.push(*node);
        }
        let scaled: Vec<[f32; 16]> = binds
            .iter()
            .map(|m| {
                let mut m = *m;
                for t in m.iter_mut().skip(12).take(3) {
                    *t *= scale;
                }
                m
            })
            .collect();
        let ibm = w.floats(&scaled, Layout::MAT4_F32, None, false)?;
        let index = w.root.push(json::Skin {
            extensions: None,
            extras: None,
            inverse_bind_matrices: Some(ibm),
            joints: gltf_joints,
            name: None,
            skeleton: None,
        });
        self.written.insert(skin, index);
        Ok(index)
    }
}

fn joint_range(first: u32, count: u32) -> core::ops::Range<usize> {
    let first = first as usize;
    first..first.saturating_add(count as usize)
}

/// Per vertex of a skinned mesh, its joints and weights in sets of four.
pub struct JointSets {
    /// `sets[k][v]`: the joints of set k of vertex v.
    pub joints: Vec<Vec<[u16; 4]>>,
    /// Parallel weights.
    pub weights: Vec<Vec<[f32; 4]>>,
}

/// The joint sets of `mesh`: each vertex's influences merged by joint,
/// heaviest first, normalised; a vertex without influences is bound wholly
/// to joint 0 (at rest that leaves it where it is).
pub fn joint_sets(
    scene: &Scene<'_>,
    mesh: &MeshRecord,
    joint_count: usize,
) -> Result<JointSets, ExportError> {
    let spans = scene
        .influence_spans()
        .get(joint_range(mesh.first_influence_span, mesh.vertex_count))
        .ok_or_else(|| bad(String::from("influence spans out of range")))?;
    let mut per_vertex: Vec<Vec<(u16, f64)>> = Vec::with_capacity(spans.len());
    let mut widest = 1;
    for span in spans {
        let influences = scene
            .influences()
            .get(joint_range(span.first, span.count))
            .ok_or_else(|| bad(String::from("influences out of range")))?;
        let mut merged: Vec<(u16, f64)> = Vec::with_capacity(influences.len());
        for inf in influences {
            let joint = u16::try_from(inf.joint)
                .ok()
                .filter(|&j| usize::from(j) < joint_count)
                .ok_or_else(|| {
                    bad(std::format!(
                        "influence of joint {} past the skin",
                        inf.joint
                    ))
                })?;
            let weight = f64::from(inf.weight);
            if !(weight > 0.0 && weight.is_finite()) {
                continue;
            }
            match merged.iter_mut().find(|(j, _)| *j == joint) {
                Some(m) => m.1 += weight,
                None => merged.push((joint, weight)),
            }
        }
        merged.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        if merged.is_empty() {
            merged.push((0, 1.0));
        }
        let total: f64 = merged.iter().map(|m| m.1).sum();
        for m in &mut merged {
            m.1 /= total;
        }
        widest = widest.max(merged.len().div_ceil(4));
        per_vertex.push(merged);
    }
    let mut joints = std::vec![Vec::with_capacity(per_vertex.len()); widest];
    let mut weights = std::vec![Vec::with_capacity(per_vertex.len()); widest];
    for merged in &per_vertex {
        for (set, (j_out, w_out)) in joints.iter_mut().zip(weights.iter_mut()).enumerate() {
            let mut j = [0u16; 4];
            let mut w = [0f32; 4];
            let slots = j.iter_mut().zip(w.iter_mut());
            for ((j_slot, w_slot), (jj, ww)) in slots.zip(merged.iter().skip(set * 4)) {
                *j_slot = *jj;
                #[allow(clippy::cast_possible_truncation)] // f64 to f32 rounds
                {
                    *w_slot = *ww as f32;
                }
            }
            j_out.push(j);
            w_out.push(w);
        }
    }
    Ok(JointSets { joints, weights })
}

/// The joint that alone moves every vertex of a skinned `mesh` (one
/// influence each, all on one joint, wholly): its scene node and its inverse
/// bind matrix. Such a mesh is written rigid, on that joint's node, rather
/// than skinned: a J3D shape drawn by one joint (a static map's pieces, a
/// character's rigid parts) needs no skin. `None` when any vertex has
/// another joint, a second influence or a partial weight.
pub fn rigid_joint(scene: &Scene<'_>, mesh: &MeshRecord) -> Option<(usize, crate::scene::Mat4)> {
    let skin = scene.skins().get(usize::try_from(mesh.skin).ok()?)?;
    let sets = joint_sets(scene, mesh, skin.joint_count as usize).ok()?;
    let ([joints], [weights]) = (sets.joints.as_slice(), sets.weights.as_slice()) else {
        return None;
    };
    let first = *joints.first()?;
    let one = |j: &[u16; 4], w: &[f32; 4]| j[0] == first[0] && w[0] == 1.0 && w[1..] == [0.0; 3];
    if !joints.iter().zip(weights).all(|(j, w)| one(j, w)) {
        return None;
    }
    let at = (skin.first_joint as usize).checked_add(usize::from(first[0]))?;
    let node = *scene.skin_joints().get(at)?;
    let bind = *scene.inverse_binds().get(at)?;
    Some((node as usize, crate::scene::Mat4(bind)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::Arena;
    use crate::scene::{Format, Influence, InfluenceSpan, SceneArrays, SceneCounts};

    #[test]
    fn six_influences_make_two_sets_heaviest_first_summing_to_one() {
        let counts = SceneCounts {
            influence_spans: 2,
            influences: 8,
            ..SceneCounts::default()
        };
        let mut words = std::vec![0u64; 64];
        let mut arena = Arena::from_words(&mut words);
        let a = SceneArrays::carve(&counts, &mut arena).unwrap();
        a.influence_spans[0] = InfluenceSpan { first: 0, count: 6 };
        a.influence_spans[1] = InfluenceSpan { first: 6, count: 2 };
        let w = [0.1, 0.3, 0.05, 0.2, 0.15, 0.2];
        for (i, w) in w.iter().enumerate() {
            a.influences[i] = Influence {
                joint: i as u32,
                weight: *w,
            };
        }
        // the same joint twice is merged
        a.influences[6] = Influence {
            joint: 2,
            weight: 0.5,
        };
        a.influences[7] = Influence {
            joint: 2,
            weight: 0.5,
        };
        let scene = Scene::new(Format::J3d, &[], a);
        let mesh = MeshRecord {
            vertex_count: 2,
            ..MeshRecord::default()
        };
        let sets = joint_sets(&scene, &mesh, 6).unwrap();
        assert_eq!(sets.joints.len(), 2);
        assert_eq!(sets.joints[0][0], [1, 3, 5, 4]);
        assert_eq!(sets.joints[1][0], [0, 2, 0, 0]);
        assert_eq!(sets.weights[1][0][2..], [0.0, 0.0]);
        let sum: f32 = sets.weights.iter().flat_map(|s| s[0]).sum();
        assert!((sum - 1.0).abs() < 1e-6);
        assert_eq!(sets.joints[0][1], [2, 0, 0, 0]);
        assert_eq!(sets.weights[0][1], [1.0, 0.0, 0.0, 0.0]);
        assert!(joint_sets(&scene, &mesh, 3).is_err());
    }
}
