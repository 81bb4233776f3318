//! Vertex colours in the glTF export, read back with the `gltf` crate: a
//! material whose colour set 0 multiplies colour but not alpha
//! (`VERTEX_ALPHA_UNUSED`, a J3D colour channel from the vertices beside an
//! alpha channel from its register) gets COLOR_0 with alpha 1, while a
//! material that takes the whole colour keeps the stored alpha, and one
//! without `VERTEX_COLORS` gets the set under `_COLOR_0` (docs/export.md).

use scenedec::Scene;
use scenedec::export::gltf::{Options, export};
use scenedec::scene::{
    Format, MaterialFlags, MaterialRecord, MeshFlags, MeshGroupRecord, MeshRecord, SceneArrays,
    SceneCounts,
};

/// One triangle drawn three times (one group per material): colour-only
/// vertex colours, whole vertex colours, no vertex colours.
fn scene(words: &mut [u64]) -> Scene<'_> {
    let counts = SceneCounts {
        meshes: 1,
        groups: 3,
        positions: 3,
        colors: 3,
        indices: 9,
        materials: 3,
        ..SceneCounts::default()
    };
    let mut arena = scenedec::Arena::from_words(words);
    let a = SceneArrays::carve(&counts, &mut arena).unwrap();
    a.positions
        .copy_from_slice(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
    // Alpha 128 on every vertex, so a kept alpha shows.
    a.colors
        .copy_from_slice(&[[255, 0, 0, 128], [0, 255, 0, 128], [0, 0, 255, 128]]);
    a.indices.copy_from_slice(&[0, 1, 2, 0, 1, 2, 0, 1, 2]);
    let flags = [
        MaterialFlags::VERTEX_COLORS | MaterialFlags::VERTEX_ALPHA_UNUSED,
        MaterialFlags::VERTEX_COLORS,
        0,
    ];
    for (i, f) in flags.into_iter().enumerate() {
        a.materials[i] = MaterialRecord {
            texture: -1,
            flags: f,
            cull: 1,
            base_color: [1.0; 4],
            ..MaterialRecord::default()
        };
        a.groups[i] = MeshGroupRecord {
            material: i as i32,
            first_index: 3 * i as u32,
            index_count: 3,
            ..MeshGroupRecord::default()
        };
    }
    a.meshes[0] = MeshRecord {
        node: -1,
        flags: MeshFlags::VISIBLE,
        vertex_count: 3,
        index_count: 9,
        group_count: 3,
        color_sets: 1,
        skin: -1,
        ..MeshRecord::default()
    };
    Scene::new(Format::J3d, &[], a)
}

#[test]
fn colour_only_vertex_colours_are_written_with_alpha_one() {
    let mut words = vec![0u64; 1024];
    let scene = scene(&mut words);
    let out = export(&scene, "colors", &Options::default()).unwrap();
    let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
    let blob = gltf.blob.clone().unwrap();
    let mesh = gltf.meshes().next().unwrap();
    let primitives: Vec<_> = mesh.primitives().collect();
    assert_eq!(primitives.len(), 3);
    let colors = |p: &gltf::Primitive<'_>| -> Vec<[f32; 4]> {
        p.reader(|_| Some(&blob[..]))
            .read_colors(0)
            .unwrap()
            .into_rgba_f32()
            .collect()
    };
    let colour_only = colors(&primitives[0]);
    let whole = colors(&primitives[1]);
    for (a, b) in colour_only.iter().zip(&whole) {
        assert_eq!(a[3], 1.0, "alpha 1 where vertex alpha does not multiply");
        assert!(
            (b[3] - 128.0 / 255.0).abs() < 1e-4,
            "stored alpha kept: {b:?}"
        );
        assert_eq!(a[..3], b[..3], "the same colours");
    }
    // Without VERTEX_COLORS glTF must not multiply: the set is kept apart.
    let third = &primitives[2];
    assert!(third.get(&gltf::Semantic::Colors(0)).is_none());
    assert!(
        third
            .attributes()
            .any(|(s, _)| s == gltf::Semantic::Extras(String::from("_COLOR_0"))),
        "{:?}",
        third.attributes().map(|(s, _)| s).collect::<Vec<_>>()
    );
}
