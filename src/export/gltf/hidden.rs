//! `--hidden keep`: the parts the scene does not draw go in a second scene
//! only, so a reader that shows the default scene (three.js's `gltf.scene`,
//! a viewer's first view) never draws them, and switching to scene 1 shows
//! everything.
//!
//! Scene 0 holds the node tree with the drawn meshes. A hidden mesh belongs
//! on a node of that tree (its group's or joint's), but a glTF node has one
//! parent and a scene holds whole subtrees, so the node cannot simply gain a
//! child that scene 0 would not draw. Scene 1 therefore lists scene 0's
//! roots and, beside them, a copy of each node chain that leads from a root
//! to a node holding hidden meshes: same names and TRS, the hidden mesh on
//! the copy of its node. Every clip channel on a copied node is repeated on
//! the copy with the same sampler, so clips move the hidden parts as they
//! move the drawn ones. Only the chains above hidden meshes are copied.

use std::collections::HashMap;
use std::vec::Vec;

use gltf_json as json;

use super::meshes::PlacedMesh;

/// Scene names, so a user switching scenes sees what each holds.
pub const DRAWN_SCENE: &str = "drawn";
/// The second scene's name.
pub const ALL_SCENE: &str = "drawn and hidden";

/// Builds scene 1's roots: `drawn_roots` (scene 0's) then the copied chains
/// holding `hidden`, whose meshes on no node hang under `model_root` (the
/// axes turn, when there is one) or at the root. Clip channels on copied
/// nodes are repeated on the copies. Returns the roots and how many nodes
/// were added.
pub fn second_scene(
    root: &mut json::Root,
    drawn_roots: &[json::Index<json::Node>],
    hidden: Vec<PlacedMesh>,
    model_root: Option<json::Index<json::Node>>,
) -> (Vec<json::Index<json::Node>>, usize) {
    let first_new = root.nodes.len();
    let mut parent: HashMap<usize, usize> = HashMap::new();
    for (i, n) in root.nodes.iter().enumerate() {
        for c in n.children.iter().flatten() {
            parent.insert(c.value(), i);
        }
    }
    let mut copies: HashMap<usize, usize> = HashMap::new();
    let mut roots: Vec<json::Index<json::Node>> = drawn_roots.to_vec();
    for placed in hidden {
        // A skin's mesh stays at the root (glTF ignores a skinned node's
        // placement); a model-space mesh goes where scene 0's (root) is.
        let under = match (placed.skin, placed.parent) {
            (Some(_), _) => None,
            (None, Some(p)) => Some(p),
            (None, None) => model_root,
        };
        let Some(under) = under else {
            let node = root.push(json::Node {
                mesh: Some(placed.mesh),
                name: placed.name,
                skin: placed.skin,
                ..json::Node::default()
            });
            roots.push(node);
            continue;
        };
        let copy = copy_chain(root, &parent, &mut copies, &mut roots, under.value());
        match (copy, placed.parent) {
            // The mesh belongs on the node itself (one mesh per place).
            (Some(copy), Some(_)) => {
                if let Some(n) = root.nodes.get_mut(copy) {
                    n.mesh = Some(placed.mesh);
                }
            }
            // A model-space mesh gets a node of its own under the turn.
            (Some(copy), None) => {
                let node = root.push(json::Node {
                    mesh: Some(placed.mesh),
                    name: placed.name,
                    ..json::Node::default()
                });
                if let Some(n) = root.nodes.get_mut(copy) {
                    n.children.get_or_insert_with(Vec::new).push(node);
                }
            }
            (None, _) => {}
        }
    }
    repeat_channels(root, &copies);
    let added = root.nodes.len() - first_new;
    (roots, added)
}

/// The copy of node `node` and of every node above it (made once each,
/// linked as the originals are); a copied root joins `roots`.
fn copy_chain(
    root: &mut json::Root,
    parent: &HashMap<usize, usize>,
    copies: &mut HashMap<usize, usize>,
    roots: &mut Vec<json::Index<json::Node>>,
    node: usize,
) -> Option<usize> {
    // The chain from `node` up to the first node already copied, or a root.
    let mut chain = Vec::new();
    let mut at = node;
    loop {
        if copies.contains_key(&at) || chain.len() > root.nodes.len() {
            break;
        }
        chain.push(at);
        match parent.get(&at) {
            Some(&p) => at = p,
            None => break,
        }
    }
    for &original in chain.iter().rev() {
        let n = root.nodes.get(original)?;
        let copy = json::Node {
            name: n.name.clone(),
            translation: n.translation,
            rotation: n.rotation,
            scale: n.scale,
            extras: n.extras.clone(),
            ..json::Node::default()
        };
        let index = root.push(copy);
        copies.insert(original, index.value());
        match parent.get(&original).and_then(|p| copies.get(p)) {
            Some(&above) => {
                if let Some(a) = root.nodes.get_mut(above) {
                    a.children.get_or_insert_with(Vec::new).push(index);
                }
            }
            None => roots.push(index),
        }
    }
    copies.get(&node).copied()
}

/// Every animation channel on a copied node, once more on its copy with the
/// same sampler (no sample is written twice).
fn repeat_channels(root: &mut json::Root, copies: &HashMap<usize, usize>) {
    for animation in &mut root.animations {
        let extra: Vec<json::animation::Channel> = animation
            .channels
            .iter()
            .filter_map(|c| {
                let copy = copies.get(&c.target.node.value())?;
                let mut c = c.clone();
                c.target.node = json::Index::new(u32::try_from(*copy).ok()?);
                Some(c)
            })
            .collect();
        animation.channels.extend(extra);
    }
}
