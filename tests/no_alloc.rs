//! Zero heap allocations on the core path, proved with a counting global
//! allocator: `unwrap_into` + `measure` + `decode_into` allocate nothing, and
//! `load` allocates the planned arena once, as `u64` words (plus, for Yaz0, the
//! decompressed file, of the size its header declares).

mod support;

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::allocations;
use scenedec::{Arena, Options, Warnings};

fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = support::samples::all()
        .into_iter()
        .map(|(p, b)| (p.to_owned(), b))
        .collect();
    for path in support::corpus_files("j3d", &[".bmd", ".bdl"])
        .into_iter()
        .chain(support::corpus_files("bbmodel", &[".bbmodel"]))
    {
        all.push((path.display().to_string(), std::fs::read(&path).unwrap()));
    }
    all
}

fn ext(name: &str) -> Option<&str> {
    std::path::Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
}

#[test]
fn the_counter_sees_allocations() {
    let (v, sizes) = allocations(|| vec![7u8; 10]);
    assert_eq!(v.len(), 10);
    assert_eq!(sizes, [10]);
}

#[test]
fn measure_and_decode_into_make_no_heap_allocation() {
    let options = Options::default();
    let mut memory = vec![0u64; 1 << 20];
    let mut warnings = Box::new(Warnings::new());
    let mut checked = 0;
    for (name, bytes) in inputs() {
        let (ok, sizes) = allocations(|| {
            let mut arena = Arena::from_words(&mut memory);
            let Ok(model) = scenedec::unwrap_into(&bytes, &options, &mut arena) else {
                return false;
            };
            let Ok(_plan) = scenedec::measure(model, ext(&name), &options) else {
                return false;
            };
            scenedec::decode_into(model, ext(&name), &options, &mut arena, &mut warnings).is_ok()
        });
        assert_eq!(sizes, Vec::<usize>::new(), "{name} allocated");
        if ok {
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} files decoded");
}

#[test]
fn errors_make_no_heap_allocation() {
    let options = Options::default();
    for bad in [
        &b""[..],
        b"{\"meta\": 1}",
        b"J3D2bmd3\0\0",
        b"Yaz0\0\0\0\x10",
        b"\x01minecraft",
    ] {
        let (r, sizes) = allocations(|| scenedec::measure(bad, Some("bbmodel"), &options).is_err());
        assert!(r);
        assert!(sizes.is_empty(), "{bad:?} allocated {sizes:?}");
    }
}

#[test]
fn load_allocates_the_planned_arena_once() {
    let options = Options::default();
    for (name, bytes) in inputs() {
        let yaz0 = scenedec::unwrapped_len(&bytes, &options).unwrap_or(0);
        let Ok(unwrapped) = (if yaz0 > 0 {
            let mut out = vec![0u8; yaz0];
            scenedec::yaz0::decompress_into(&bytes, &mut out).map(|_| out)
        } else {
            Ok(bytes.clone())
        }) else {
            continue;
        };
        let Ok(measured) = scenedec::measure(&unwrapped, ext(&name), &options) else {
            continue;
        };
        // `load` plans a .bbmodel's cubes by the most a cube draws: never
        // less than `measure` counts, and within the limits like it.
        let plan = scenedec::load_plan(&unwrapped, ext(&name), &options).expect("load_plan");
        let (bound, exact) = (plan.counts(), measured.counts());
        let limits = &options.bbmodel.limits;
        for (array, b, e) in [
            ("meshes", bound.meshes, exact.meshes),
            ("groups", bound.groups, exact.groups),
            ("positions", bound.positions, exact.positions),
            ("indices", bound.indices, exact.indices),
            ("uv_rects", bound.uv_rects, exact.uv_rects),
        ] {
            assert!(b >= e, "{name}: {array} bound {b} under the count {e}");
        }
        if name.ends_with(".bbmodel") {
            assert!(bound.positions as u64 <= limits.max_vertices, "{name}");
            assert!((bound.indices / 3) as u64 <= limits.max_triangles, "{name}");
        } else {
            assert_eq!(plan, measured, "{name}: J3D plans are exact");
        }
        let (loaded, sizes) = allocations(|| scenedec::load(&bytes, ext(&name), &options));
        let loaded = loaded.unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut expected = Vec::new();
        if yaz0 > 0 {
            expected.push(yaz0);
        }
        // The arena is u64 words for alignment: the plan's bytes rounded up to 8.
        assert!(plan.arena_bytes() >= measured.arena_bytes(), "{name}");
        if plan.arena_bytes() > 0 {
            expected.push(plan.arena_words() * 8);
        }
        assert_eq!(sizes, expected, "{name}");
        assert_eq!(loaded.arena_bytes(), plan.arena_words() * 8, "{name}");
    }
}

/// A 64-texture file whose pixels would need 4 GiB is refused by
/// maxTextureBytes in `load`'s measuring, before its one allocation.
#[test]
fn load_refuses_too_many_texture_bytes_without_allocating() {
    use support::bbmodel_builder::{Model, Texture};
    let mut model = Model::free();
    for i in 0..64 {
        model = model.texture(Texture::png(&format!("t{i}"), 4096, 4096));
    }
    let bytes = model.bytes();
    let options = Options::default();
    let (result, sizes) = allocations(|| {
        scenedec::load(&bytes, Some("bbmodel"), &options)
            .err()
            .map(|e| e.code())
    });
    assert_eq!(result, Some(scenedec::ErrorCode::TextureTooLarge));
    assert_eq!(sizes, Vec::<usize>::new(), "nothing allocated");
}

/// A file of more textures than the counting pass holds uuids for on the
/// stack measures and decodes without a heap allocation: its texture
/// metadata comes from the plan.
#[test]
fn many_textures_measure_and_decode_without_allocating() {
    use support::bbmodel_builder::{Cube, Face, Model, Texture};
    let n = 1100;
    let mut model = Model::free();
    for i in 0..n {
        model = model.texture(Texture::png(&format!("t{i}"), 1, 1).uuid(&format!("u{i}")));
    }
    let last = format!("u{}", n - 1);
    let cube = Cube::new([0.0; 3], [1.0; 3]).face(
        "north",
        Face::uv([0.0, 0.0, 1.0, 1.0]).texture(last.as_str()),
    );
    let bytes = model.element(cube).bytes();
    let mut options = Options::default();
    options.bbmodel.limits.max_textures = n as u64;
    let mut memory = vec![0u64; 1 << 20];
    let mut warnings = Box::new(Warnings::new());
    let (textures, sizes) = allocations(|| {
        let plan = scenedec::measure(&bytes, Some("bbmodel"), &options).unwrap();
        let mut arena = Arena::from_words(&mut memory);
        assert!(plan.arena_bytes() <= arena.remaining());
        let scene =
            scenedec::decode_into(&bytes, Some("bbmodel"), &options, &mut arena, &mut warnings)
                .unwrap();
        scene.textures().len()
    });
    assert_eq!(textures, n);
    assert_eq!(sizes, Vec::<usize>::new(), "allocated");
}

/// Samples every clip of `scene` at its start, middle and end and takes
/// the world matrices of each pose, into the given buffers; how many poses.
fn sample_every_clip(
    scene: &scenedec::Scene<'_>,
    poses: &mut [scenedec::scene::NodePose],
    world: &mut [scenedec::scene::Mat4],
) -> usize {
    let mut sampled = 0;
    scene.rest_pose(poses);
    scenedec::scene::world_matrices(scene, poses, world);
    for (clip, record) in scene.animations().iter().enumerate() {
        for t in [0.0, record.length / 2.0, record.length] {
            if scene.sample(clip, t, poses).is_ok() {
                scenedec::scene::world_matrices(scene, poses, world);
                sampled += 1;
            }
        }
    }
    // The error paths build their messages in place too.
    let _ = scene.sample(scene.animations().len(), 0.0, poses);
    let _ = scene.sample(0, f32::NAN, poses);
    sampled
}

#[test]
fn sampling_a_pose_makes_no_heap_allocation() {
    use scenedec::scene::{
        AnimationRecord, ChannelRecord, ChannelTarget, Format, Interpolation, KeyframeRecord,
        LoopMode, Mat4, NodePose, NodeRecord, SceneArrays, SceneCounts,
    };
    // A hand-built clip: two nodes, a catmull-rom rotation and a linear
    // translation, so sampling is exercised whatever the corpus holds.
    let counts = SceneCounts {
        nodes: 2,
        animations: 1,
        channels: 2,
        keyframes: 5,
        ..SceneCounts::default()
    };
    let mut words = vec![0u64; 1024];
    let mut arena = Arena::from_words(&mut words);
    let a = SceneArrays::carve(&counts, &mut arena).unwrap();
    a.nodes[0] = NodeRecord {
        parent: -1,
        scale: [1.0; 3],
        ..NodeRecord::default()
    };
    a.nodes[1] = NodeRecord {
        parent: 0,
        scale: [1.0; 3],
        pivot: [0.0, 8.0, 0.0],
        ..NodeRecord::default()
    };
    a.animations[0] = AnimationRecord {
        length: 2.0,
        loop_mode: LoopMode::Loop as u32,
        first_channel: 0,
        channel_count: 2,
        ..AnimationRecord::default()
    };
    a.channels[0] = ChannelRecord {
        node: 1,
        target: ChannelTarget::Rotation as u32,
        first_keyframe: 0,
        keyframe_count: 3,
        flags: 0,
    };
    a.channels[1] = ChannelRecord {
        node: 0,
        target: ChannelTarget::Translation as u32,
        first_keyframe: 3,
        keyframe_count: 2,
        flags: 0,
    };
    for (i, k) in a.keyframes.iter_mut().enumerate() {
        let (time, interpolation) = match i {
            0..3 => (i as f32, Interpolation::CatmullRom),
            _ => ((i - 3) as f32 * 2.0, Interpolation::Linear),
        };
        *k = KeyframeRecord {
            time,
            interpolation: interpolation as u32,
            pre: [0.5 * i as f32; 3],
            post: [0.5 * i as f32; 3],
            data_points: 1,
            ..KeyframeRecord::default()
        };
    }
    let built = scenedec::Scene::new(Format::Bbmodel, &[], a);
    let mut poses = vec![NodePose::default(); 2];
    let mut world = vec![Mat4::IDENTITY; 2];
    let (sampled, sizes) = allocations(|| sample_every_clip(&built, &mut poses, &mut world));
    assert_eq!(sampled, 3);
    assert_eq!(sizes, Vec::<usize>::new(), "the hand-built clip allocated");

    // Every loaded scene, with whatever clips it has; the corpus's Molang
    // clips evaluate the programs the decode compiled into the arena.
    let options = Options::default();
    let mut molang_scenes = 0;
    for (name, bytes) in inputs() {
        let Ok(loaded) = scenedec::load(&bytes, ext(&name), &options) else {
            continue;
        };
        let scene = loaded.scene();
        molang_scenes += usize::from(
            scene
                .keyframe_sources()
                .iter()
                .any(|s| s.molang & scenedec::scene::KeyframeSource::AXES != 0),
        );
        let mut poses = vec![NodePose::default(); scene.nodes().len()];
        let mut world = vec![Mat4::IDENTITY; scene.nodes().len()];
        let (_, sizes) = allocations(|| sample_every_clip(&scene, &mut poses, &mut world));
        assert_eq!(
            sizes,
            Vec::<usize>::new(),
            "{name} allocated while sampling"
        );
    }
    // Values sharing variables (one table a sample, carried from value to
    // value in Blockbench's order) and a blend weight reading them.
    {
        use support::bbmodel_builder::{Animation, bone, keyframe};
        use support::clips::{ARM, HEAD, rig5};
        let point = |x: &str| serde_json::json!({"x": x, "y": "v.a", "z": 0});
        let clip = Animation::new("chained")
            .set("length", 1.0)
            .set("blend_weight", "v.w ?? 1")
            .animator(
                ARM,
                bone(vec![keyframe("position", 0.0, vec![point("v.a * 2")])]),
            )
            .animator(
                HEAD,
                bone(vec![
                    keyframe(
                        "rotation",
                        0.0,
                        vec![point("v.a = q.anim_time; v.w = 0.5; return 0")],
                    ),
                    keyframe("position", 1.0, vec![point("v.a + 1")]),
                ]),
            );
        let bytes = rig5(vec![clip]).bytes();
        let loaded = scenedec::load(&bytes, Some("bbmodel"), &options).unwrap();
        let scene = loaded.scene();
        let mut poses = vec![NodePose::default(); scene.nodes().len()];
        let mut world = vec![Mat4::IDENTITY; scene.nodes().len()];
        let (sampled, sizes) = allocations(|| sample_every_clip(&scene, &mut poses, &mut world));
        assert_eq!(sampled, 3);
        assert_eq!(sizes, Vec::<usize>::new(), "the chained clip allocated");
    }
    if support::corpus_dir().is_some() {
        assert!(
            // 4 corpus files hold Molang keyframes; senkosan's are on an
            // animator whose group the model lacks, so 3 scenes keep them.
            molang_scenes >= 3,
            "{molang_scenes} scenes with Molang keyframes"
        );
    }
}

/// Every model of `corpus/j3d-anim` with all of its animation files
/// attached: `measure`, `decode_into` and sampling each clip (its pose,
/// every material's state, every shape's visibility) allocate nothing.
#[test]
fn decoding_and_sampling_j3d_clips_make_no_heap_allocation() {
    use scenedec::scene::{Mat4, NodePose, world_matrices};
    let Some(corpus) = support::corpus_dir() else {
        return;
    };
    let root = corpus.join("j3d-anim");
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv")).unwrap();
    let rows: Vec<Vec<String>> = manifest
        .lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect();
    let mut clips = 0;
    for model in rows.iter().filter(|c| c[5] == "BMD" || c[5] == "BDL") {
        let files: Vec<(String, Vec<u8>)> = rows
            .iter()
            .filter(|c| c.len() > 6 && c[6] == model[0])
            .map(|c| (c[0].clone(), std::fs::read(root.join(&c[0])).unwrap()))
            .collect();
        if files.is_empty() {
            continue;
        }
        let animations: Vec<(&str, &[u8])> = files
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        let bytes = std::fs::read(root.join(&model[0])).unwrap();
        let mut options = Options::default();
        options.j3d.animations = &animations;
        let plan = scenedec::measure(&bytes, None, &options).unwrap();
        let mut memory = vec![0u64; plan.arena_words()];
        let mut warnings = Box::new(Warnings::new());
        let mut poses = vec![NodePose::default(); 1024];
        let mut world = vec![Mat4::IDENTITY; 1024];
        let (sampled, sizes) = allocations(|| {
            let _plan = scenedec::measure(&bytes, None, &options).unwrap();
            let mut arena = Arena::from_words(&mut memory);
            let scene =
                scenedec::decode_into(&bytes, None, &options, &mut arena, &mut warnings).unwrap();
            let mut sampled = 0;
            for clip in 0..scene.animations().len() {
                for frame in [0.0, 1.5, 7.25, 1000.0] {
                    scene.sample_frame(clip, frame, &mut poses).unwrap();
                    world_matrices(&scene, &poses, &mut world);
                    for m in 0..scene.materials().len() {
                        scene.sample_material(clip, frame, m).unwrap();
                    }
                    for s in 0..scene.meshes().len() {
                        scene.sample_visibility(clip, frame, s).unwrap();
                    }
                }
                sampled += 1;
            }
            sampled
        });
        assert_eq!(sizes, Vec::<usize>::new(), "{} allocated", model[0]);
        assert_eq!(sampled, files.len(), "{}", model[0]);
        clips += sampled;
    }
    // Every animation with a public model: 41 clips on 12 models.
    assert_eq!(clips, 41);
}
