//! The node tree: each scene node becomes one glTF node with TRS only (never
//! `matrix`, so skins and clips can move it), two only where J3D's
//! segment-scale compensation needs it:
//!
//! - a pivot `p` (Blockbench group origin) is folded in: the node is
//!   `T(t + p − p_parent) · R · S`, where `p_parent` is the pivot of the
//!   node it hangs under, so the scene's `T(t) · T(p) · R · S · T(−p)` holds
//!   with the `T(−p)` carried by what hangs under it (children subtract it
//!   from their translation, a mesh's vertices take off `p`, a joint's
//!   inverse bind matrix is `T(−p) · IB`), as Blockbench's own exporter
//!   writes one node per group;
//! - segment-scale compensation (J3D Maya rule, `T · S(parent)⁻¹ · R · S`):
//!   `T · S(parent)⁻¹` first, then a child `R · S`;
//! - otherwise one node `T · R · S`.
//!
//! [`NodeMap::main`] is the node a clip exporter animates (its TRS holds the
//! scene node's own translation, plus its pivot less its parent's, rotation
//! and scale); [`NodeMap::attach`] is the node skins name as the joint and
//! meshes and children hang under: its world matrix times `T(−pivot)` is the
//! scene node's world matrix ([`NodeMap::pivot`]).

use std::string::String;
use std::vec::Vec;

use gltf_json as json;

use crate::scene::{NodeFlags, NodeRecord, Scene};

use super::buffers::Writer;
use super::extras;

/// Where each scene node went.
pub struct NodeMap {
    /// Per scene node, the glTF node holding its translation, rotation and scale.
    pub main: Vec<json::Index<json::Node>>,
    /// Per scene node, the first of its glTF nodes: `main` itself, or under
    /// segment-scale compensation the outer node holding `T · S(parent)⁻¹`.
    pub head: Vec<json::Index<json::Node>>,
    /// Per scene node, the node things hang under (world matrix = the
    /// scene node's times `T(pivot)`).
    pub attach: Vec<json::Index<json::Node>>,
    /// Per scene node, its pivot (lengths scaled): what anything hung under
    /// its attach node subtracts, so it lands where the scene puts it.
    pub pivot: Vec<[f32; 3]>,
    /// glTF nodes at the root of the scene, in order.
    pub roots: Vec<json::Index<json::Node>>,
}

impl NodeMap {
    /// Hangs `child` under scene node `node` (its attach node), or at the
    /// root when `node` is −1 or out of range.
    pub fn hang(&mut self, root: &mut json::Root, node: i32, child: json::Index<json::Node>) {
        let parent = usize::try_from(node)
            .ok()
            .and_then(|n| self.attach.get(n).copied());
        match parent {
            Some(parent) => add_child(root, parent, child),
            None => self.roots.push(child),
        }
    }
}

/// A glTF node with only a name and a TRS (identity parts left out).
pub fn trs_node(
    name: Option<String>,
    translation: [f32; 3],
    rotation: [f32; 4],
    scale: [f32; 3],
) -> json::Node {
    json::Node {
        name,
        translation: (translation != [0.0; 3]).then_some(translation),
        rotation: (rotation != [0.0, 0.0, 0.0, 1.0])
            .then_some(json::scene::UnitQuaternion(rotation)),
        scale: (scale != [1.0; 3]).then_some(scale),
        ..json::Node::default()
    }
}

fn add_child(
    root: &mut json::Root,
    parent: json::Index<json::Node>,
    child: json::Index<json::Node>,
) {
    if let Some(p) = root.nodes.get_mut(parent.value()) {
        p.children.get_or_insert_with(Vec::new).push(child);
    }
}

/// The name of a chain's helper node: the scene node's name and its role,
/// `"<name> (pivot)"` or `"<name> (rotation)"`, so a reader can tell helpers
/// from scene nodes.
pub fn helper_name(name: Option<&str>, role: &str) -> String {
    std::format!("{} ({role})", name.unwrap_or_default())
}

/// The unit quaternion `[x, y, z, w]` of `Rz · Ry · Rx` (X applied first).
pub fn quaternion_xyz(r: [f32; 3]) -> [f32; 4] {
    let half = |a: f32| f64::from(a) * 0.5;
    let (sx, cx) = (libm::sin(half(r[0])), libm::cos(half(r[0])));
    let (sy, cy) = (libm::sin(half(r[1])), libm::cos(half(r[1])));
    let (sz, cz) = (libm::sin(half(r[2])), libm::cos(half(r[2])));
    // qz · qy · qx
    let q = [
        sx * cy * cz - cx * sy * sz,
        cx * sy * cz + sx * cy * sz,
        cx * cy * sz - sx * sy * cz,
        cx * cy * cz + sx * sy * sz,
    ];
    let len = libm::sqrt(q.iter().map(|x| x * x).sum::<f64>());
    #[allow(clippy::cast_possible_truncation)] // f64 to f32 rounds, as intended
    q.map(|x| (x / len) as f32)
}

/// The parent of `index`, when following parents from it reaches a root
/// within `nodes.len()` steps (a loop is cut: such a node becomes a root).
fn parent_of(nodes: &[NodeRecord], index: usize) -> Option<usize> {
    let parent = usize::try_from(nodes.get(index)?.parent).ok()?;
    nodes.get(parent)?;
    let mut current = parent;
    for _ in 0..nodes.len() {
        match usize::try_from(nodes.get(current)?.parent).ok() {
            None => return Some(parent),
            Some(next) if next == index => return None,
            Some(next) => current = next,
        }
    }
    None
}

/// Writes every scene node as its chain, linked into the tree, with lengths
/// multiplied by `scale`.
pub fn write_nodes(w: &mut Writer, scene: &Scene<'_>, scale: f32) -> NodeMap {
    let nodes = scene.nodes();
    let mut map = NodeMap {
        main: Vec::with_capacity(nodes.len()),
        head: Vec::new(),
        attach: Vec::with_capacity(nodes.len()),
        pivot: Vec::with_capacity(nodes.len()),
        roots: Vec::new(),
    };
    // The pivot each node's own glTF node carries: its scene pivot, folded
    // into its translation, except under compensation, whose chain holds
    // the whole local transform (pivot included) and ends where the scene
    // node is.
    let compensated = |i: usize, n: &NodeRecord| {
        n.flags & NodeFlags::SEGMENT_SCALE_COMPENSATE != 0 && parent_of(nodes, i).is_some()
    };
    map.pivot = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if compensated(i, n) {
                [0.0; 3]
            } else {
                n.pivot.map(|x| x * scale)
            }
        })
        .collect();
    let mut heads = Vec::with_capacity(nodes.len());
    for (i, n) in nodes.iter().enumerate() {
        let name = super::name(scene.text(n.name));
        let parent = parent_of(nodes, i).and_then(|p| nodes.get(p));
        let t = n.translation.map(|x| x * scale);
        let p = n.pivot.map(|x| x * scale);
        // The pivot the parent's node carries, which this one takes off.
        let above = parent_of(nodes, i)
            .and_then(|q| map.pivot.get(q).copied())
            .unwrap_or([0.0; 3]);
        let rotation = quaternion_xyz(n.rotation);
        let compensate = n.flags & NodeFlags::SEGMENT_SCALE_COMPENSATE != 0;
        let visible = n.visible();
        let (head, main, attach) = if let (true, Some(parent)) = (compensate, parent) {
            // T(t') · S(parent)⁻¹, then R · S; t' = t + p − R·S·p as Mat4::local has it.
            let local = crate::scene::Mat4::local(&NodeRecord {
                translation: t,
                pivot: p,
                ..*n
            });
            let t_prime = [
                local.0[12] - above[0],
                local.0[13] - above[1],
                local.0[14] - above[2],
            ];
            let inverse = parent.scale.map(|s| if s == 0.0 { 1.0 } else { 1.0 / s });
            let mut outer = trs_node(name.clone(), t_prime, [0.0, 0.0, 0.0, 1.0], inverse);
            outer.extras = extras::visibility(visible);
            let outer = w.root.push(outer);
            let inner = w.root.push(trs_node(
                Some(helper_name(name.as_deref(), "rotation")),
                [0.0; 3],
                rotation,
                n.scale,
            ));
            add_child(&mut w.root, outer, inner);
            (outer, inner, inner)
        } else {
            let mut moved = t;
            for ((m, p), above) in moved.iter_mut().zip(p).zip(above) {
                *m += p - above;
            }
            let mut main = trs_node(name.clone(), moved, rotation, n.scale);
            main.extras = extras::visibility(visible);
            let main = w.root.push(main);
            (main, main, main)
        };
        heads.push(head);
        map.main.push(main);
        map.attach.push(attach);
    }
    map.head.clone_from(&heads);
    for (i, head) in heads.iter().enumerate() {
        match parent_of(nodes, i) {
            Some(p) => {
                if let Some(&parent) = map.attach.get(p) {
                    add_child(&mut w.root, parent, *head);
                }
            }
            None => map.roots.push(*head),
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Mat4;

    fn trs_matrix(n: &json::Node) -> Mat4 {
        let t = n.translation.unwrap_or([0.0; 3]);
        let [x, y, z, w] = n.rotation.map_or([0.0, 0.0, 0.0, 1.0], |q| q.0);
        let s = n.scale.unwrap_or([1.0; 3]);
        let r = Mat4([
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y + z * w),
            2.0 * (x * z - y * w),
            0.0,
            2.0 * (x * y - z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z + x * w),
            0.0,
            2.0 * (x * z + y * w),
            2.0 * (y * z - x * w),
            1.0 - 2.0 * (x * x + y * y),
            0.0,
            0.0,
            0.0,
            0.0,
            1.0,
        ]);
        Mat4::translation(t).mul(&r).mul(&Mat4::scale(s))
    }

    /// The world matrix of glTF node `target`, from the roots down.
    fn world(root: &json::Root, roots: &[json::Index<json::Node>], target: usize) -> Option<Mat4> {
        fn walk(root: &json::Root, node: usize, above: Mat4, target: usize) -> Option<Mat4> {
            let n = &root.nodes[node];
            let m = above.mul(&trs_matrix(n));
            if node == target {
                return Some(m);
            }
            n.children
                .iter()
                .flatten()
                .find_map(|c| walk(root, c.value(), m, target))
        }
        roots
            .iter()
            .find_map(|r| walk(root, r.value(), Mat4::IDENTITY, target))
    }

    fn close(a: &Mat4, b: &Mat4) -> bool {
        a.0.iter().zip(b.0).all(|(x, y)| (x - y).abs() < 1e-4)
    }

    #[test]
    fn quaternion_matches_the_scene_rotation_order() {
        let r = [0.3, -1.1, 2.0];
        let q = quaternion_xyz(r);
        let n = trs_node(None, [0.0; 3], q, [1.0; 3]);
        assert!(close(&trs_matrix(&n), &Mat4::rotation_xyz(r)));
    }

    fn scene_with<'a>(words: &'a mut [u64], nodes: &[NodeRecord]) -> Scene<'a> {
        use crate::arena::Arena;
        use crate::scene::{Format, SceneArrays, SceneCounts};
        let counts = SceneCounts {
            nodes: nodes.len(),
            ..SceneCounts::default()
        };
        let mut arena = Arena::from_words(words);
        let a = SceneArrays::carve(&counts, &mut arena).unwrap();
        a.nodes.copy_from_slice(nodes);
        Scene::new(Format::Bbmodel, &[], a)
    }

    #[test]
    fn pivot_chains_give_the_scene_world_matrix() {
        let nodes = [
            NodeRecord {
                parent: -1,
                rotation: [0.4, 0.0, -0.7],
                scale: [1.0; 3],
                pivot: [8.0, 2.0, -3.0],
                flags: NodeFlags::VISIBLE,
                ..NodeRecord::default()
            },
            NodeRecord {
                parent: 0,
                translation: [1.0, 0.0, 0.0],
                rotation: [0.0, 1.2, 0.3],
                scale: [2.0, 1.0, 0.5],
                pivot: [-4.0, 6.0, 1.0],
                flags: NodeFlags::VISIBLE,
                ..NodeRecord::default()
            },
        ];
        let mut words = std::vec![0u64; 256];
        let scene = scene_with(&mut words, &nodes);
        let mut w = Writer::new();
        let map = write_nodes(&mut w, &scene, 1.0);
        for i in 0..nodes.len() {
            // A node carries its pivot: the scene's world is its world
            // times T(−pivot), and no helper node is written.
            let got = world(&w.root, &map.roots, map.attach[i].value())
                .unwrap()
                .mul(&Mat4::translation(map.pivot[i].map(|x| -x)));
            assert!(close(&got, &scene.world_matrix(i)), "node {i}");
            assert!(w.root.nodes.iter().all(|n| n.matrix.is_none()));
            assert_eq!(
                w.root.nodes.len(),
                nodes.len(),
                "one glTF node per scene node"
            );
        }
    }

    #[test]
    fn segment_scale_compensation_chains_give_the_scene_world_matrix() {
        let nodes = [
            NodeRecord {
                parent: -1,
                rotation: [0.2, 0.5, 0.0],
                scale: [2.0, 3.0, 0.5],
                ..NodeRecord::default()
            },
            NodeRecord {
                parent: 0,
                translation: [5.0, -1.0, 2.0],
                rotation: [1.0, 0.0, 0.4],
                scale: [1.5, 1.0, 1.0],
                flags: NodeFlags::SEGMENT_SCALE_COMPENSATE,
                ..NodeRecord::default()
            },
        ];
        let mut words = std::vec![0u64; 256];
        let scene = scene_with(&mut words, &nodes);
        let mut w = Writer::new();
        let map = write_nodes(&mut w, &scene, 1.0);
        let got = world(&w.root, &map.roots, map.attach[1].value()).unwrap();
        assert!(close(&got, &scene.world_matrix(1)));
    }

    #[test]
    fn a_parent_loop_is_cut_into_roots() {
        let nodes = [
            NodeRecord {
                parent: 1,
                scale: [1.0; 3],
                ..NodeRecord::default()
            },
            NodeRecord {
                parent: 0,
                scale: [1.0; 3],
                ..NodeRecord::default()
            },
        ];
        assert_eq!(parent_of(&nodes, 0), None);
        assert_eq!(parent_of(&nodes, 1), None);
    }
}
