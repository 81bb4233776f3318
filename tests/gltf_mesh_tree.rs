//! The glTF node and mesh tree (docs/export.md, Meshes): the scene meshes
//! on one node are one glTF mesh on that node, named after it, a Blockbench
//! group's elements one mesh on the group's node, a J3D joint's rigid
//! shapes one mesh on the joint. tests/gltf_readback.rs checks that every
//! triangle lands where the scene has it.

mod support;

use scenedec::Options;
use scenedec::export::gltf::{Options as ExportOptions, export};

/// Blockbench: at most one node per group plus one root node for the
/// elements at no group, and at most one mesh per node, on every corpus
/// model (Blockbench's own exporter writes a node per group); a Hytale
/// main cube whose group's scale stretches it has a node of its own.
#[test]
fn every_corpus_bbmodel_has_a_node_per_group_and_a_mesh_per_node() {
    let files = support::corpus_files("bbmodel", &[".bbmodel"]);
    let mut options = Options::default();
    options.bbmodel.limits = scenedec::BbmodelLimits::default()
        .with_override("maxFaceVertices", 32.0)
        .unwrap();
    let mut checked = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let Ok(loaded) = scenedec::load(&bytes, Some("bbmodel"), &options) else {
            assert!(bytes.is_empty(), "{} failed to load", path.display());
            continue;
        };
        let scene = loaded.scene();
        let out = export(&scene, "m", &ExportOptions::default()).unwrap();
        let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
        // Groups, and the Hytale main cubes that carry a scale of their
        // own (the documented exception, docs/export.md).
        let shapes = scene
            .nodes()
            .iter()
            .filter(|n| n.flags & scenedec::scene::NodeFlags::SHAPE != 0)
            .count();
        let groups = scene.nodes().len() - shapes;
        assert!(
            gltf.nodes().count() <= groups + shapes + 1,
            "{}: nodes",
            path.display()
        );
        assert!(
            gltf.meshes().count() <= groups + shapes + 1,
            "{}: meshes",
            path.display()
        );
        let mut on: Vec<usize> = gltf
            .nodes()
            .filter_map(|n| n.mesh().map(|m| m.index()))
            .collect();
        on.sort_unstable();
        on.dedup();
        assert_eq!(
            on.len(),
            gltf.meshes().count(),
            "{}: a node per mesh",
            path.display()
        );
        checked += 1;
    }
    if !files.is_empty() {
        assert_eq!(checked, files.len() - 1, "only the zero-byte file fails");
    }
}

/// Scene meshes on one node are one glTF mesh named after that node
/// (meshes.rs): Kuribo's rigid eye shape on its `Head` joint, its enveloped
/// body on the skin's root node.
#[test]
fn merged_meshes_are_named_after_their_node() {
    let Some(path) = support::corpus_files("j3d", &[".bdl"])
        .into_iter()
        .find(|p| p.ends_with("smgo_kuribomini.bdl"))
    else {
        return;
    };
    let bytes = std::fs::read(path).unwrap();
    let loaded = scenedec::load(&bytes, Some("bdl"), &Options::default()).unwrap();
    let scene = loaded.scene();
    let out = export(&scene, "k", &ExportOptions::default()).unwrap();
    let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
    let names: Vec<(String, String)> = gltf
        .nodes()
        .filter_map(|n| Some((n.name()?.to_owned(), n.mesh()?.name()?.to_owned())))
        .collect();
    assert_eq!(
        names,
        [
            // the attach node of Head's compensation chain (nodes.rs)
            (String::from("Head (rotation)"), String::from("Head")),
            (String::from("(skin 0)"), String::from("(skin 0)"))
        ]
    );
}

/// A J3D shape whose every vertex one joint moves wholly is a rigid mesh on
/// that joint's node, not skinned, and a model with no other shapes has no
/// skin: the corpus maps come out with no skin, every mesh under a joint
/// (the round trip above checks their vertices land where the scene has
/// them); the characters keep one skin for their enveloped shapes.
#[test]
fn j3d_shapes_moved_by_one_joint_are_rigid() {
    let files = support::corpus_files("j3d", &[".bmd", ".bdl"]);
    let mut maps = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let loaded = scenedec::load(&bytes, None, &Options::default()).unwrap();
        let scene = loaded.scene();
        let out = export(&scene, "m", &ExportOptions::default()).unwrap();
        let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
        let enveloped = scene.influences().len() > scene.influence_spans().len();
        if ["lavaworldlavaa", "capworldtower", "testmap_map"]
            .iter()
            .any(|m| name.contains(m))
        {
            maps += 1;
            assert_eq!(gltf.skins().count(), 0, "{name}: a map needs no skin");
            let parents: std::collections::HashSet<usize> = gltf
                .nodes()
                .flat_map(|n| n.children().map(|c| c.index()).collect::<Vec<_>>())
                .collect();
            // A map is one mesh, on its joint (a scene node, not a mesh-only
            // node), not skinned.
            let meshed: Vec<_> = gltf.nodes().filter(|n| n.mesh().is_some()).collect();
            assert_eq!(meshed.len(), 1, "{name}: one mesh");
            for node in meshed {
                assert!(
                    parents.contains(&node.index()) || !node.name().unwrap().starts_with('('),
                    "{name}: mesh on a joint"
                );
                assert!(node.skin().is_none());
            }
        }
        if enveloped {
            assert!(
                gltf.skins().count() > 0,
                "{name}: enveloped vertices need a skin"
            );
        }
    }
    if !files.is_empty() {
        assert_eq!(maps, 3);
    }
}

/// A merged mesh names what it holds (meshes.rs, `extras.parts`): on every
/// corpus J3D model each drawn shape is listed once, as `shape i (material)`
/// with its first triangle group's material, across all the glTF meshes.
#[test]
fn merged_j3d_meshes_list_their_shapes_by_index_and_material() {
    let files = support::corpus_files("j3d", &[".bmd", ".bdl"]);
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let loaded = scenedec::load(&bytes, None, &Options::default()).unwrap();
        let scene = loaded.scene();
        let out = export(&scene, "m", &ExportOptions::default()).unwrap();
        let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
        let mut listed: Vec<String> = Vec::new();
        for mesh in gltf.meshes() {
            let extras: serde_json::Value =
                serde_json::from_str(mesh.extras().as_ref().unwrap().get()).unwrap();
            for part in extras["parts"].as_array().unwrap() {
                listed.push(part.as_str().unwrap().to_owned());
            }
        }
        listed.sort();
        let mut want: Vec<String> = scene
            .meshes()
            .iter()
            .enumerate()
            .filter(|(_, m)| scene.mesh_drawn(m))
            .filter(|(_, m)| {
                let groups = &scene.groups()[m.first_group as usize..][..m.group_count as usize];
                groups.iter().any(|g| g.index_count > 0)
            })
            .map(|(i, m)| {
                let g = &scene.groups()[m.first_group as usize];
                let material = scene.text(scene.materials()[g.material as usize].name);
                format!("shape {i} ({material})")
            })
            .collect();
        want.sort();
        assert_eq!(listed, want, "{name}");
    }
}
