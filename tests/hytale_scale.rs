//! The Hytale plugin's scale, played as the plugin plays it.
//!
//! Its `BoneAnimator.prototype.displayScale` (hytale-blockbench-plugin
//! `src/animations.ts`), in the Hytale formats: `getMainShape(this.group)`
//! (`src/util.ts`: `group.children.find(qualifiesAsMainShape)`, a `Cube`
//! whose `rotation.allEqual(0)`); when there is one, its `stretch` becomes
//! `stretch[i] * (1 + (array[i] - 1) * multiplier)` while
//! `Cube.preview_controller.updateGeometry` rebuilds it, and is restored;
//! the bone is not scaled. Without one, nothing is scaled.
//!
//! Each test checks the scene against the plugin's own recipe: the same
//! file with the cube's `stretch` multiplied and no clip, whose rest
//! geometry is what the plugin draws.

mod support;

use scenedec::scene::{Mat4, MeshRecord, NodeFlags, NodePose, Scene, shape_node, world_matrices};
use scenedec::{Options, WarningCode};
use support::bbmodel_builder::{
    Animation, Cube, Face, Group, Model, Tree, bone, keyframe, tree_5x,
};
use support::clips::p;

const LID: &str = "00000000-0000-4000-8000-000000000010";
const INNER: &str = "00000000-0000-4000-8000-000000000011";
const TILTED: &str = "00000000-0000-4000-8000-000000000020";
const MAIN: &str = "00000000-0000-4000-8000-000000000021";
const SECOND: &str = "00000000-0000-4000-8000-000000000022";
const DEEP: &str = "00000000-0000-4000-8000-000000000023";

fn cube(uuid: &str, name: &str, from: [f64; 3], to: [f64; 3]) -> Cube {
    Cube::new(from, to)
        .uuid(uuid)
        .name(name)
        .all_faces(Face::uv([0.0, 0.0, 4.0, 4.0]))
}

/// A turned group `lid` holding a rotated cube, then an unrotated `main`
/// (stretched and inflated), another unrotated cube and a group `inner`
/// with a cube of its own. `main_stretch` is `main`'s stretch.
fn lid(main_stretch: [f64; 3], animations: Vec<Animation>) -> Model {
    let tree = vec![Tree::Group(
        Group::new("lid", LID)
            .origin([1.0, 2.0, 3.0])
            .rotation([0.0, 30.0, 10.0]),
        vec![
            Tree::Element(TILTED),
            Tree::Element(MAIN),
            Tree::Element(SECOND),
            Tree::Group(Group::new("inner", INNER), vec![Tree::Element(DEEP)]),
        ],
    )];
    let (outliner, groups) = tree_5x(&tree);
    Model::new("5.0")
        .model_format("hytale_character")
        // File order differs from the outliner's: the outliner decides.
        .element(cube(SECOND, "second", [5.0, 0.0, 0.0], [6.0, 1.0, 1.0]))
        .element(
            cube(MAIN, "main", [0.0, 1.0, -1.0], [4.0, 3.0, 2.0])
                .stretch(main_stretch)
                .inflate(0.5),
        )
        .element(
            cube(TILTED, "tilted", [0.0, 0.0, 0.0], [2.0, 2.0, 2.0]).rotation([0.0, 0.0, 10.0]),
        )
        .element(cube(DEEP, "deep", [-3.0, 0.0, 0.0], [-1.0, 2.0, 2.0]))
        .outliner(outliner)
        .groups(groups)
        .set("animations", animations)
}

fn scale_clip(weight: Option<&str>) -> Animation {
    let clip = Animation::new("grow")
        .set("loop", "loop")
        .set("length", 2.0)
        .animator(
            LID,
            bone(vec![
                keyframe("scale", 0.0, vec![p(1.0, 1.0, 1.0)]),
                keyframe("scale", 1.0, vec![p(3.0, 2.0, 0.5)]),
            ]),
        );
    match weight {
        Some(w) => clip.set("blend_weight", w),
        None => clip,
    }
}

fn load(model: &Model) -> Vec<u8> {
    model.bytes()
}

fn mesh<'s>(scene: &Scene<'s>, name: &str) -> (usize, &'s MeshRecord) {
    scene
        .meshes()
        .iter()
        .enumerate()
        .find(|(_, m)| scene.text(m.name) == name)
        .unwrap_or_else(|| panic!("no mesh {name}"))
}

/// Every vertex of mesh `name`, placed by its node's world matrix at `poses`.
fn placed(scene: &Scene<'_>, poses: &[NodePose], name: &str) -> Vec<[f32; 3]> {
    let mut world = vec![Mat4::IDENTITY; scene.nodes().len()];
    world_matrices(scene, poses, &mut world);
    let (_, m) = mesh(scene, name);
    let first = m.first_vertex as usize;
    scene.positions()[first..first + m.vertex_count as usize]
        .iter()
        .map(|&v| world[m.node as usize].transform_point(v))
        .collect()
}

fn rest(scene: &Scene<'_>) -> Vec<NodePose> {
    let mut poses = vec![NodePose::default(); scene.nodes().len()];
    scene.rest_pose(&mut poses);
    poses
}

fn sampled(scene: &Scene<'_>, time: f32) -> Vec<NodePose> {
    let mut poses = vec![NodePose::default(); scene.nodes().len()];
    scene.sample(0, time, &mut poses).unwrap();
    poses
}

fn assert_close(got: &[[f32; 3]], want: &[[f32; 3]], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (g, w) in got.iter().zip(want) {
        for k in 0..3 {
            assert!((g[k] - w[k]).abs() < 1e-4, "{what}: {g:?} vs {w:?}");
        }
    }
}

#[test]
fn the_main_cube_grows_about_its_centre_as_its_stretch_times_the_value() {
    // displayScale: stretch[i] * (1 + (array[i] - 1) * multiplier); at
    // 0.5 s the value is (2, 1.5, 0.75), so `main` looks like the file
    // with stretch (1·2, 0.5·1.5, 2·0.75) at rest.
    let animated = load(&lid([1.0, 0.5, 2.0], vec![scale_clip(None)]));
    let stretched = load(&lid([2.0, 0.75, 1.5], vec![]));
    let plain = load(&lid([1.0, 0.5, 2.0], vec![]));
    let animated = support::clips::load(&animated);
    let stretched = support::clips::load(&stretched);
    let plain = support::clips::load(&plain);
    let (a, s, r) = (animated.scene(), stretched.scene(), plain.scene());
    // One node more than the groups: the main cube's, under `lid`, its
    // pivot the cube's centre.
    assert_eq!((a.nodes().len(), s.nodes().len()), (3, 2));
    let shape = shape_node(a.nodes(), 0).expect("lid's main cube node");
    let node = a.nodes()[shape];
    assert_eq!(node.parent, 0);
    assert_eq!(node.flags, NodeFlags::VISIBLE | NodeFlags::SHAPE);
    assert_eq!(node.pivot, [2.0, 2.0, 0.5]);
    assert_eq!(a.text(node.name), "main");
    assert_eq!(mesh(&a, "main").1.node, shape as i32);
    // The others stay where the outliner put them.
    for (name, parent) in [("tilted", 0), ("second", 0), ("deep", 1)] {
        assert_eq!(mesh(&a, name).1.node, parent, "{name}");
    }
    let poses = sampled(&a, 0.5);
    assert_eq!(poses[shape].scale, [2.0, 1.5, 0.75]);
    // The bone and its other children are not scaled.
    assert_eq!((poses[0].scale, poses[1].scale), ([1.0; 3], [1.0; 3]));
    assert_close(
        &placed(&a, &poses, "main"),
        &placed(&s, &rest(&s), "main"),
        "main at 0.5 s",
    );
    for name in ["tilted", "second", "deep"] {
        assert_close(
            &placed(&a, &poses, name),
            &placed(&r, &rest(&r), name),
            name,
        );
    }
    // At rest (time 0, value 1) the cube is where the file puts it.
    assert_close(
        &placed(&a, &sampled(&a, 0.0), "main"),
        &placed(&r, &rest(&r), "main"),
        "main at 0 s",
    );
    // No warning: the channel is played.
    assert!(animated.warnings().as_slice().is_empty());
}

#[test]
fn the_clips_blend_weight_scales_the_stretch_factor() {
    // displayScale(array, multiplier): 1 + (array − 1) · multiplier, the
    // multiplier being the clip's blend_weight (stackAnimations). At 1 s
    // with weight 0.5: (1 + 2·0.5, 1 + 1·0.5, 1 − 0.5·0.5).
    let bytes = load(&lid([1.0; 3], vec![scale_clip(Some("0.5"))]));
    let loaded = support::clips::load(&bytes);
    let scene = loaded.scene();
    let shape = shape_node(scene.nodes(), 0).unwrap();
    assert_eq!(sampled(&scene, 1.0)[shape].scale, [2.0, 1.5, 0.75]);
    let want = load(&lid([2.0, 1.5, 0.75], vec![]));
    let want = support::clips::load(&want);
    assert_close(
        &placed(&scene, &sampled(&scene, 1.0), "main"),
        &placed(&want.scene(), &rest(&want.scene()), "main"),
        "weighted",
    );
}

#[test]
fn a_group_without_an_unrotated_child_cube_is_not_scaled_at_all() {
    // getMainShape finds no cube: displayScale returns without scaling
    // anything. `inner` holds only `deep`, a cube in a group below it is
    // no child of `lid`; here `inner` is keyed, and `deep` is turned.
    let tree = vec![Tree::Group(
        Group::new("lid", LID),
        vec![
            Tree::Element(TILTED),
            Tree::Group(Group::new("inner", INNER), vec![Tree::Element(MAIN)]),
        ],
    )];
    let (outliner, groups) = tree_5x(&tree);
    let model = Model::new("5.0")
        .model_format("hytale_prop")
        .element(cube(TILTED, "tilted", [0.0; 3], [2.0; 3]).rotation([0.0, 5.0, 0.0]))
        .element(cube(MAIN, "main", [0.0; 3], [2.0; 3]))
        .outliner(outliner)
        .groups(groups)
        .set(
            "animations",
            vec![Animation::new("a").animator(
                LID,
                bone(vec![keyframe("scale", 0.0, vec![p(3.0, 3.0, 3.0)])]),
            )],
        );
    let bytes = model.bytes();
    let loaded = support::clips::load(&bytes);
    let scene = loaded.scene();
    assert_eq!(scene.nodes().len(), 2, "no node added");
    assert_eq!(shape_node(scene.nodes(), 0), None);
    let poses = sampled(&scene, 0.0);
    assert!(poses.iter().all(|p| p.scale == [1.0; 3]));
    // The channel is kept (the clip still exports), and nothing warns.
    assert_eq!(scene.channels().len(), 1);
    assert!(
        !support::clips::warnings(&loaded)
            .iter()
            .any(|(c, _)| *c == WarningCode::UnsupportedChannel)
    );
}

#[test]
fn only_groups_a_scale_channel_keys_get_a_node_and_other_formats_scale_the_bone() {
    // A rotation clip adds no node; the free format's displayScale
    // (Blockbench's) scales the bone itself.
    let turn = Animation::new("turn").animator(
        LID,
        bone(vec![keyframe("rotation", 0.0, vec![p(0.0, 45.0, 0.0)])]),
    );
    let bytes = load(&lid([1.0; 3], vec![turn]));
    let loaded = support::clips::load(&bytes);
    assert_eq!(loaded.scene().nodes().len(), 2);
    let free = lid([1.0; 3], vec![scale_clip(None)]).model_format("free");
    let bytes = free.bytes();
    let loaded = support::clips::load(&bytes);
    let scene = loaded.scene();
    assert_eq!(scene.nodes().len(), 2);
    assert_eq!(sampled(&scene, 1.0)[0].scale, [3.0, 2.0, 0.5]);
    // measure plans the node (an upper bound) and the scene keeps what
    // the fill wrote, in every decode path.
    let bytes = load(&lid([1.0; 3], vec![scale_clip(None)]));
    let plan = scenedec::measure(&bytes, Some("bbmodel"), &Options::default()).unwrap();
    let mut words = vec![0u64; plan.arena_words()];
    let mut arena = scenedec::Arena::from_words(&mut words);
    let mut warnings = scenedec::Warnings::new();
    let scene = scenedec::decode_into(
        &bytes,
        Some("bbmodel"),
        &Options::default(),
        &mut arena,
        &mut warnings,
    )
    .unwrap();
    assert_eq!(scene.nodes().len(), 3);
    assert_eq!(
        scene.nodes()[2].flags,
        NodeFlags::VISIBLE | NodeFlags::SHAPE
    );
}

#[test]
fn corpus_eyelids_close_as_the_plugin_stretches_them() {
    // mermaidv2's Sleep and Sleep2 scale R-Eyelid and L-Eyelid by y 10;
    // each eyelid's cube is stretched y 0.1, so asleep it spans its full
    // from/to height (the plugin's updateGeometry with stretch 0.1 · 10).
    let name = "mermaids_mermaidv2_hytale_character_v5_0.bbmodel";
    let files = support::corpus_files("bbmodel", &[name]);
    let Some(path) = files.first() else {
        return;
    };
    let bytes = std::fs::read(path).unwrap();
    let loaded = scenedec::load(&bytes, Some("bbmodel"), &support::corpus_options(name)).unwrap();
    let scene = loaded.scene();
    let shapes: Vec<_> = scene
        .nodes()
        .iter()
        .filter(|n| n.flags & NodeFlags::SHAPE != 0)
        .map(|n| scene.text(scene.nodes()[n.parent as usize].name).to_owned())
        .collect();
    assert_eq!(shapes, ["L-Eyelid", "R-Eyelid"]);
    let sleep = scene
        .animations()
        .iter()
        .position(|a| scene.text(a.name) == "Sleep")
        .unwrap();
    let mut poses = vec![NodePose::default(); scene.nodes().len()];
    scene.sample(sleep, 0.0, &mut poses).unwrap();
    let mut world = vec![Mat4::IDENTITY; scene.nodes().len()];
    for lid in ["L-Eyelid", "R-Eyelid"] {
        let (_, m) = mesh(&scene, lid);
        let first = m.first_vertex as usize;
        let vertices = &scene.positions()[first..first + m.vertex_count as usize];
        // Measured in the eyelid group's own space (the clip turns the
        // head it sits on).
        let group = scene.nodes()[m.node as usize].parent as usize;
        let height = |world: &[Mat4]| {
            let to_group = world[group]
                .inverse_affine()
                .unwrap()
                .mul(&world[m.node as usize]);
            let ys: Vec<f32> = vertices
                .iter()
                .map(|&v| to_group.transform_point(v)[1])
                .collect();
            ys.iter().copied().fold(f32::MIN, f32::max)
                - ys.iter().copied().fold(f32::MAX, f32::min)
        };
        world_matrices(&scene, &rest(&scene), &mut world);
        assert!((height(&world) - 0.7).abs() < 1e-4, "{lid} open");
        world_matrices(&scene, &poses, &mut world);
        assert!((height(&world) - 7.0).abs() < 1e-3, "{lid} asleep");
    }
}
