//! glTF export read back with an independent reader (the `gltf` crate):
//! the node tree, triangles, rest-pose bounding box, every texture's
//! pixels, and skins (joints and inverse binds) against the scene, on every
//! corpus model and on fixtures with a skin and with pivots and rotations.

mod support;

use scenedec::export::gltf::{Container, Options as ExportOptions, export};
use scenedec::scene::{
    CullMode, GroupFlags, MaterialFlags, MaterialRecord, MeshFlags, MeshRecord, Scene,
};
use scenedec::{BbmodelLimits, Options};
use support::bbmodel_builder::{Cube, Face, Group, Model};
use support::gltf_read::{
    IDENTITY, M, ReadBack, apply, assert_close_matrix, close, mul, of_f32, of_scene, turn_normal,
};

fn scene_path(scene: &Scene<'_>, mut i: usize) -> Vec<String> {
    let mut out = Vec::new();
    for _ in 0..=scene.nodes().len() {
        let n = scene.nodes()[i];
        out.push(scene.text(n.name).to_owned());
        match usize::try_from(n.parent) {
            Ok(p) => i = p,
            Err(_) => break,
        }
    }
    out.reverse();
    out
}

fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// What a `rows`-row image of frame 0 of a `width` × `height` strip of
/// `frames` frames shows, row by row: the strip row under each row's
/// centre, the image standing for V `0..1/frames` of the strip (Blockbench
/// cube `updateUV`; a still image is itself). tests/gltf_frame_strips.rs
/// checks clamp and repeat past frame 0.
fn frame_0(width: u32, height: u32, frames: u32, rows: u32, strip: &[u8]) -> Vec<u8> {
    let row_bytes = width as usize * 4;
    let frame = f64::from(height) / f64::from(frames.max(1));
    (0..rows)
        .flat_map(|r| {
            let y = ((f64::from(r) + 0.5) / f64::from(rows) * frame).floor() as usize;
            strip[y * row_bytes..][..row_bytes].iter().copied()
        })
        .collect()
}

/// What a read-back checked, for the caller's own assertions.
#[derive(Debug, Default)]
struct Checked {
    triangles: usize,
    images_compared: usize,
    joints: usize,
}

/// Exports `scene` as GLB, reads it back and checks it against the scene.
fn check_round_trip(scene: &Scene<'_>, what: &str) -> Checked {
    let out = export(scene, "model", &ExportOptions::default()).unwrap();
    let rb = ReadBack::new(&out.main);
    let mut checked = Checked::default();

    // The node tree: every scene node once, under the same ancestors.
    let mut expected: Vec<Vec<String>> = (0..scene.nodes().len())
        .map(|i| scene_path(scene, i))
        .collect();
    let mut got: Vec<Vec<String>> = rb
        .doc
        .nodes()
        .filter(|n| !rb.is_helper(n.index()) && !is_mesh_only(n))
        .map(|n| rb.path(n.index()))
        .collect();
    // A scene with no node and nothing drawn gets one empty node, so the
    // file has a scene.
    if expected.is_empty() && rb.doc.nodes().all(|n| n.mesh().is_none()) {
        expected.push(vec![String::from("empty")]);
    }
    expected.sort();
    got.sort();
    assert_eq!(got, expected, "{what}: node tree");

    // Every glTF triangle in world space at rest: rigid meshes by their
    // node, skinned ones by joints · inverse binds.
    let mut tris: Vec<Tri> = Vec::new();
    let mut skins_of: Vec<(usize, usize)> = Vec::new(); // (glTF node, first tri)
    let mut bbox: Option<([f64; 3], [f64; 3])> = None;
    let mut expected_bbox: Option<([f64; 3], [f64; 3])> = None;
    let grow = |b: &mut Option<([f64; 3], [f64; 3])>, p: [f64; 3]| {
        let (lo, hi) = b.get_or_insert((p, p));
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    };
    for node in rb.doc.nodes() {
        let Some(gm) = node.mesh() else { continue };
        if node.skin().is_some() {
            skins_of.push((node.index(), tris.len()));
        }
        let node_world = rb.world[node.index()];
        let joint_worlds: Vec<M> = node.skin().map_or_else(Vec::new, |s| {
            let binds: Vec<_> = s
                .reader(|_| Some(&rb.blob))
                .read_inverse_bind_matrices()
                .unwrap()
                .collect();
            s.joints()
                .zip(binds)
                .map(|(j, b)| mul(&rb.world[j.index()], &of_f32(b)))
                .collect()
        });
        for prim in gm.primitives() {
            let reader = prim.reader(|_| Some(&rb.blob));
            let positions: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
            let normals: Option<Vec<[f32; 3]>> = reader.read_normals().map(|n| n.collect());
            let uvs: Vec<Vec<[f32; 2]>> = (0..)
                .map_while(|k| reader.read_tex_coords(k).map(|t| t.into_f32().collect()))
                .collect();
            let joints: Vec<Vec<[u16; 4]>> = (0..)
                .map_while(|k| reader.read_joints(k).map(|j| j.into_u16().collect()))
                .collect();
            let weights: Vec<Vec<[f32; 4]>> = (0..)
                .map_while(|k| reader.read_weights(k).map(|w| w.into_f32().collect()))
                .collect();
            let placed: Vec<M> = (0..positions.len())
                .map(|v| {
                    if joint_worlds.is_empty() {
                        return node_world;
                    }
                    let mut sum = [[0.0; 4]; 4];
                    let mut total = 0.0;
                    for (js, ws) in joints.iter().zip(&weights) {
                        for (j, w) in js[v].iter().zip(ws[v]) {
                            let m = &joint_worlds[usize::from(*j)];
                            for c in 0..4 {
                                for r in 0..4 {
                                    sum[c][r] += f64::from(w) * m[c][r];
                                }
                            }
                            total += f64::from(w);
                        }
                    }
                    assert!((total - 1.0).abs() < 1e-5, "{what}: weights sum to {total}");
                    sum
                })
                .collect();
            let indices: Vec<u32> = reader.read_indices().unwrap().into_u32().collect();
            for t in indices.chunks_exact(3) {
                let v = [t[0], t[1], t[2]].map(|i| i as usize);
                let p = v.map(|i| apply(&placed[i], positions[i]));
                for q in p {
                    grow(&mut bbox, q);
                }
                tris.push(Tri {
                    p,
                    n: normals
                        .as_ref()
                        .map(|n| v.map(|i| turn_normal(&placed[i], n[i]))),
                    uv: uvs.iter().map(|s| v.map(|i| s[i])).collect(),
                    node: node.index(),
                    primitive: (gm.index(), prim.index()),
                    material: prim.material().index(),
                    owner: None,
                    used: false,
                });
            }
        }
    }
    // Spatial lookup by centroid cell.
    let extent = bbox.map_or(1.0, |(lo, hi)| {
        (0..3).map(|k| hi[k] - lo[k]).fold(1.0f64, f64::max)
    });
    let cell = extent * 1e-3;
    let key = |p: &[[f64; 3]; 3]| -> [i64; 3] {
        std::array::from_fn(|k| ((p[0][k] + p[1][k] + p[2][k]) / 3.0 / cell).floor() as i64)
    };
    let mut cells: std::collections::HashMap<[i64; 3], Vec<usize>> =
        std::collections::HashMap::new();
    for (i, t) in tris.iter().enumerate() {
        cells.entry(key(&t.p)).or_default().push(i);
    }
    let mut textures_checked: std::collections::HashSet<(usize, usize)> =
        std::collections::HashSet::new();
    let mut skin_of_node: std::collections::HashMap<usize, usize> =
        std::collections::HashMap::new();
    let materials: Vec<gltf::Material> = rb.doc.materials().collect();
    // Every drawn scene triangle is a triangle of some primitive: the same
    // corners, normals, UVs (V undivided on a strip's frame 0) and material.
    for (mesh_index, mesh) in scene.meshes().iter().enumerate() {
        let groups = &scene.groups()[mesh.first_group as usize..][..mesh.group_count as usize];
        // Hidden meshes (or under a hidden group) are left out by default
        // (docs/export.md, Visibility): the file holds the drawn ones.
        if groups.iter().all(|g| g.index_count == 0) || !scene.mesh_drawn(mesh) {
            continue;
        }
        let world =
            usize::try_from(mesh.node).map_or(IDENTITY, |n| of_scene(scene.world_matrix(n)));
        let first = mesh.first_vertex as usize;
        let positions = &scene.positions()[first..][..mesh.vertex_count as usize];
        for p in positions {
            grow(&mut expected_bbox, apply(&world, *p));
        }
        let has_normals = mesh.flags & MeshFlags::HAS_NORMALS != 0;
        for group in groups.iter().filter(|g| g.index_count > 0) {
            let material = usize::try_from(group.material)
                .ok()
                .map(|m| scene.materials()[m]);
            let material_name = material.map_or("default", |m| scene.text(m.name));
            // A double-sided group, or a material that culls nothing.
            let double_sided = group.flags & GroupFlags::DOUBLE_SIDED != 0
                || material.is_some_and(|m| m.cull() == CullMode::None);
            let scene_indices =
                &scene.indices()[group.first_index as usize..][..group.index_count as usize];
            let set = expected_uv_set(material.as_ref()) as usize;
            let frames = shown_texture(scene, mesh, material.as_ref())
                .map_or(1, |t| scene.textures()[t].frame_count.max(1));
            let mut first_prim = None;
            for t in scene_indices.chunks_exact(3) {
                let v = [t[0], t[1], t[2]].map(|i| first + i as usize);
                let p = v.map(|i| apply(&world, scene.positions()[i]));
                let n = has_normals.then(|| v.map(|i| turn_normal(&world, scene.normals()[i])));
                let uv: Vec<[[f32; 2]; 3]> = (0..mesh.uv_sets as usize)
                    .map(|s| {
                        v.map(|i| {
                            let uv = scene.uvs()
                                [mesh.first_uv as usize + (i - first) * mesh.uv_sets as usize + s];
                            if frames > 1 && s == set {
                                scenedec::export::gltf::meshes::undivide(uv, frames)
                            } else {
                                uv
                            }
                        })
                    })
                    .collect();
                let k = key(&p);
                let found = (-1..=1)
                    .flat_map(|dx| (-1..=1).flat_map(move |dy| (-1..=1).map(move |dz| [dx, dy, dz])))
                    .filter_map(|d| cells.get(&[k[0] + d[0], k[1] + d[1], k[2] + d[2]]))
                    .flatten()
                    .copied()
                    .find(|&i| {
                        let g = &tris[i];
                        !g.used
                            && (0..3).all(|c| (0..3).all(|x| close(g.p[c][x], p[c][x], extent)))
                            && same_normals(g.n.as_ref(), n.as_ref())
                            && g.uv.len() == uv.len()
                            && g.uv.iter().zip(&uv).all(|(a, b)| {
                                (0..3).all(|c| (0..2).all(|x| (a[c][x] - b[c][x]).abs() <= 1e-5))
                            })
                            && g.material.is_some_and(|m| {
                                materials[m].name() == Some(material_name)
                                    && materials[m].double_sided() == double_sided
                            })
                    })
                    .unwrap_or_else(|| {
                        let near = tris.iter().filter(|g| {
                            (0..3).all(|c| (0..3).all(|x| close(g.p[c][x], p[c][x], extent)))
                        });
                        let near: Vec<String> = near
                            .map(|g| {
                                let m = g.material.map(|m| (materials[m].name(), materials[m].double_sided()));
                                format!("used {} n {:?} uv {:?} material {m:?}", g.used, g.n, g.uv)
                            })
                            .collect();
                        panic!(
                            "{what}: no glTF triangle matches scene triangle {p:?} n {n:?} uv {uv:?} ({material_name}, double sided {double_sided}); at its corners: {near:?}"
                        )
                    });
                tris[found].used = true;
                tris[found].owner = Some(mesh_index);
                checked.triangles += 1;
                first_prim.get_or_insert(found);
                if let Ok(s) = usize::try_from(mesh.skin) {
                    skin_of_node.insert(tris[found].node, s);
                }
            }
            let Some(found) = first_prim else { continue };
            // The texture, once per primitive: bound when the material has
            // pixels and the mesh UVs; pixels equal to the scene's for a
            // plain texture (layered and emissive images are derived:
            // images.rs tests them; baked TEV images, `extras.baked_from`:
            // baked.rs does).
            if !textures_checked.insert(tris[found].primitive) {
                continue;
            }
            let (m, p) = tris[found].primitive;
            let prim = rb.doc.meshes().nth(m).unwrap().primitives().nth(p).unwrap();
            let shown = shown_texture(scene, mesh, material.as_ref());
            let baked = prim
                .material()
                .extras()
                .as_ref()
                .is_some_and(|e| e.get().contains("\"baked_from\""));
            let plain = !baked
                && material.is_some_and(|m| {
                    m.layers().len() <= 1 && m.flags & MaterialFlags::ALPHA_EMISSION == 0
                });
            let bound = prim
                .material()
                .pbr_metallic_roughness()
                .base_color_texture();
            assert_eq!(bound.is_some(), shown.is_some(), "{what}: texture bound");
            if let (Some(t), Some(info)) = (shown, bound) {
                // The UV set the material's generator reads, which the
                // primitive carries.
                let set = expected_uv_set(material.as_ref());
                assert_eq!(info.tex_coord(), set, "{what}: texCoord");
                assert!(
                    prim.get(&gltf::Semantic::TexCoords(set)).is_some(),
                    "{what}: TEXCOORD_{set} present"
                );
                let gltf::image::Source::View { view, mime_type } =
                    info.texture().source().source()
                else {
                    panic!("{what}: an image by URI inside a GLB");
                };
                assert_eq!(mime_type, "image/png");
                let bytes = &rb.blob[view.offset()..][..view.length()];
                let (w, h, pixels) = decode_png(bytes);
                let (mip, expected) = scenedec::export::png::level_pixels(scene, t, 0).unwrap();
                if plain {
                    let expected = frame_0(
                        mip.width,
                        mip.height,
                        scene.textures()[t].frame_count,
                        h,
                        expected,
                    );
                    assert_eq!(w, mip.width, "{what}: texture width");
                    assert!(pixels == expected, "{what}: texture {t} pixels differ");
                    checked.images_compared += 1;
                }
            }
            assert!(
                non_metallic_and_rough(&prim.material()),
                "{what}: metallic 0, roughness 1, no metal texture"
            );
        }
    }
    assert_eq!(
        checked.triangles,
        scene.triangle_count() - scene.hidden_triangle_count(),
        "{what}: triangles (the drawn ones)"
    );
    assert!(
        tris.iter().all(|t| t.used),
        "{what}: a triangle the scene does not draw was written"
    );
    // A primitive under a BLEND material holds one scene mesh's triangles,
    // so readers sorting translucent draws still sort elements (meshes.rs).
    let mut owners: std::collections::HashMap<(usize, usize), Option<usize>> =
        std::collections::HashMap::new();
    for t in &tris {
        let blended = t
            .material
            .is_some_and(|m| materials[m].alpha_mode() == gltf::material::AlphaMode::Blend);
        if blended {
            let first = *owners.entry(t.primitive).or_insert(t.owner);
            assert_eq!(
                first, t.owner,
                "{what}: two elements in one blended primitive"
            );
        }
    }
    // Skins: joints and inverse binds as the scene's.
    for (node, _) in skins_of {
        let skin = rb.doc.nodes().nth(node).unwrap().skin().unwrap();
        let s = skin_of_node[&node];
        let record = scene.skins()[s];
        let scene_joints =
            &scene.skin_joints()[record.first_joint as usize..][..record.joint_count as usize];
        let binds =
            &scene.inverse_binds()[record.first_joint as usize..][..record.joint_count as usize];
        let read: Vec<[[f32; 4]; 4]> = skin
            .reader(|_| Some(&rb.blob))
            .read_inverse_bind_matrices()
            .unwrap()
            .collect();
        assert_eq!(skin.joints().count(), scene_joints.len(), "{what}: joints");
        for ((joint, &scene_joint), (bind, scene_bind)) in
            skin.joints().zip(scene_joints).zip(read.iter().zip(binds))
        {
            let flat: Vec<f32> = bind.iter().flatten().copied().collect();
            assert_eq!(flat, scene_bind, "{what}: inverse bind");
            let scene_world = of_scene(scene.world_matrix(scene_joint as usize));
            assert_close_matrix(&rb.world[joint.index()], &scene_world, what);
            let name = scene.text(scene.nodes()[scene_joint as usize].name);
            let path = rb.path(joint.index());
            assert_eq!(
                path.last().map(String::as_str),
                Some(name),
                "{what}: joint name"
            );
            checked.joints += 1;
        }
    }
    match (bbox, expected_bbox) {
        (Some((lo, hi)), Some((elo, ehi))) => {
            let extent = (0..3).map(|k| ehi[k] - elo[k]).fold(1.0f64, f64::max);
            for k in 0..3 {
                assert!(
                    close(lo[k], elo[k], extent) && close(hi[k], ehi[k], extent),
                    "{what}: bbox {lo:?}..{hi:?} vs {elo:?}..{ehi:?}"
                );
            }
        }
        (None, None) => {}
        other => panic!("{what}: bbox {other:?}"),
    }
    checked
}

/// A glTF triangle at rest in world space.
struct Tri {
    p: [[f64; 3]; 3],
    n: Option<[[f64; 3]; 3]>,
    uv: Vec<[[f32; 2]; 3]>,
    node: usize,
    primitive: (usize, usize),
    material: Option<usize>,
    /// The scene mesh whose triangle this is, once matched.
    owner: Option<usize>,
    used: bool,
}

/// A node that only carries meshes: the meshes at no scene node, `(root)`,
/// or a skin's, `(skin k)` (meshes.rs).
fn is_mesh_only(n: &gltf::Node<'_>) -> bool {
    n.mesh().is_some()
        && n.name()
            .is_some_and(|s| s.starts_with('(') && s.ends_with(')'))
}

/// Normals agree where the scene's has a direction (one without is +Y).
fn same_normals(got: Option<&[[f64; 3]; 3]>, expected: Option<&[[f64; 3]; 3]>) -> bool {
    match (got, expected) {
        (None, None) => true,
        (Some(g), Some(e)) => {
            (0..3).all(|c| e[c] == [0.0; 3] || (0..3).all(|k| (g[c][k] - e[c][k]).abs() <= 1e-3))
        }
        _ => false,
    }
}

/// The texture a group of `mesh` with `material` shows, when it has pixels
/// and the mesh has the UV set it samples.
fn shown_texture(
    scene: &Scene<'_>,
    mesh: &MeshRecord,
    material: Option<&MaterialRecord>,
) -> Option<usize> {
    let with_pixels = |t: i32| {
        usize::try_from(t)
            .ok()
            .filter(|&t| !scene.textures()[t].missing() && scene.textures()[t].mip_count > 0)
    };
    material
        .and_then(|m| {
            let layered =
                m.layers().len() > 1 && m.layers().iter().all(|&l| with_pixels(l).is_some());
            if layered {
                usize::try_from(m.layers()[0]).ok()
            } else {
                with_pixels(m.texture)
            }
        })
        .filter(|_| {
            material.is_none_or(|m| m.flags & MaterialFlags::TEXTURE_UNUSED == 0)
                && mesh.uv_sets > expected_uv_set(material)
        })
}

/// The TEXCOORD_n a material's texture is bound to: its UV set, or 0 when
/// its coordinates are generated from no UV set (docs/export.md).
fn expected_uv_set(material: Option<&scenedec::scene::MaterialRecord>) -> u32 {
    material.map_or(0, |m| {
        if m.flags & MaterialFlags::GENERATED_UVS != 0 {
            0
        } else {
            u32::from(m.uv_set)
        }
    })
}

fn non_metallic_and_rough(material: &gltf::Material<'_>) -> bool {
    let pbr = material.pbr_metallic_roughness();
    pbr.metallic_roughness_texture().is_none()
        && pbr.metallic_factor() == 0.0
        && pbr.roughness_factor() == 1.0
}

fn corpus_options() -> Options<'static> {
    let mut options = Options::default();
    // The Figura boat's 32-vertex face, read as its user would ask.
    options.bbmodel.limits = BbmodelLimits::default()
        .with_override("maxFaceVertices", 32.0)
        .unwrap();
    options
}

#[test]
fn every_corpus_model_reads_back_as_its_scene() {
    let mut files = support::corpus_files("j3d", &[".bmd", ".bdl"]);
    files.extend(support::corpus_files("bbmodel", &[".bbmodel"]));
    let options = corpus_options();
    let mut checked = 0;
    let mut primitives = 0;
    let mut joints = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let ext = path.extension().and_then(|e| e.to_str());
        let Ok(loaded) = scenedec::load(&bytes, ext, &options) else {
            assert!(bytes.is_empty(), "{} failed to load", path.display());
            eprintln!("skipped (load error, as expected): {}", path.display());
            continue;
        };
        let scene = loaded.scene();
        let c = check_round_trip(&scene, &path.display().to_string());
        primitives += c.images_compared;
        joints += c.joints;
        checked += 1;
    }
    eprintln!(
        "read back {checked} corpus models: {primitives} textured primitives compared, {joints} joints"
    );
    if !files.is_empty() {
        assert_eq!(checked, files.len() - 1, "only the zero-byte file fails");
        assert!(
            primitives > 50 && joints > 50,
            "{primitives} primitives, {joints} joints"
        );
    }
}

/// The corpus bunny's throbber (11 × 88) as the 8-frame strip of 11 × 11
/// frames its author drew: the same file with the texture's UV height set
/// to 11, so Texture.frameCount finds 8 frames. Its image must read back
/// as frame 0.
#[test]
fn a_corpus_strip_reads_back_as_its_frame_0() {
    let files = support::corpus_files(
        "bbmodel",
        &["bunny_gen6_free_v4_10_bezier_frame_strip.bbmodel"],
    );
    let Some(path) = files.first() else {
        return;
    };
    let mut doc: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let throbber = doc["textures"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|t| t["name"] == "throbber.png")
        .unwrap();
    throbber["uv_height"] = serde_json::json!(11);
    let bytes = serde_json::to_vec(&doc).unwrap();
    let loaded = scenedec::load(&bytes, Some("bbmodel"), &Options::default()).unwrap();
    let scene = loaded.scene();
    let strips: Vec<_> = scene
        .textures()
        .iter()
        .filter(|t| t.frame_count > 1)
        .map(|t| (t.width, t.height, t.frame_count))
        .collect();
    assert_eq!(strips, [(11, 88, 8)]);
    let c = check_round_trip(&scene, "bunny with an 8-frame throbber");
    // One image compared per primitive: per node, material and sidedness.
    let primitives: std::collections::HashSet<(i32, i32, u32)> = scene
        .meshes()
        .iter()
        .filter(|m| scene.mesh_drawn(m))
        .flat_map(|m| {
            scene.groups()[m.first_group as usize..][..m.group_count as usize]
                .iter()
                .filter(|g| g.index_count > 0 && g.material >= 0)
                .map(|g| (m.node, g.material, g.flags & GroupFlags::DOUBLE_SIDED))
        })
        .collect();
    assert_eq!(c.images_compared, primitives.len());
}

// ---------------------------------------------------------------- fixtures

/// The J3D fixture with two joints and an envelope (tests/support).
fn skinned_j3d() -> Vec<u8> {
    support::j3d_writer::enveloped().0.build()
}

#[test]
fn skinned_j3d_fixture_reads_back_at_its_bind_pose() {
    let bytes = skinned_j3d();
    let loaded = scenedec::load(&bytes, Some("bmd"), &Options::default()).unwrap();
    let scene = loaded.scene();
    assert_eq!(scene.skins().len(), 1);
    let c = check_round_trip(&scene, "skinned fixture");
    assert_eq!((c.triangles, c.joints), (1, 2));
    // The weighted vertex carries both joints, heaviest first.
    let out = export(&scene, "model", &ExportOptions::default()).unwrap();
    let rb = ReadBack::new(&out.main);
    let prim = rb.doc.meshes().next().unwrap().primitives().next().unwrap();
    let reader = prim.reader(|_| Some(&rb.blob));
    let joints: Vec<[u16; 4]> = reader.read_joints(0).unwrap().into_u16().collect();
    let weights: Vec<[f32; 4]> = reader.read_weights(0).unwrap().into_f32().collect();
    let weighted = joints
        .iter()
        .zip(&weights)
        .find(|(_, w)| w[1] > 0.0)
        .expect("a weighted vertex");
    assert_eq!(weighted.0[..2], [1, 0]);
    assert_eq!(weighted.1[..2], [0.75, 0.25]);
    // Skinned meshes sit at the root, untransformed; joints are TRS.
    let mesh_node = rb.doc.nodes().find(|n| n.mesh().is_some()).unwrap();
    assert!(rb.parent[mesh_node.index()].is_none());
    assert_eq!(rb.world[mesh_node.index()], IDENTITY);
}

/// Nested groups with pivots and rotations, a cube turned about its own
/// origin inside them, and a hidden group.
fn pivoted_bbmodel() -> Vec<u8> {
    let faces = |c: Cube| {
        ["north", "east", "south", "west", "up", "down"]
            .iter()
            .fold(c, |c, f| c.face(f, Face::uv([0.0, 0.0, 4.0, 4.0])))
    };
    Model::free()
        .element(faces(
            Cube::new([0.0, 0.0, 0.0], [4.0, 6.0, 2.0])
                .uuid("c1")
                .origin([2.0, 3.0, 1.0])
                .rotation([0.0, 22.5, 0.0]),
        ))
        .element(faces(
            Cube::new([-3.0, 8.0, -1.0], [1.0, 9.0, 5.0]).uuid("c2"),
        ))
        .outliner(vec![
            Group::new("body", "g1")
                .origin([1.0, 2.0, 3.0])
                .rotation([10.0, -20.0, 30.0])
                .child(
                    Group::new("arm", "g2")
                        .origin([-4.0, 6.0, 0.5])
                        .rotation([0.0, 45.0, -15.0])
                        .child(support::bbmodel_builder::el("c1"))
                        .inline(),
                )
                .child(support::bbmodel_builder::el("c2"))
                .inline(),
            Group::new("hidden", "g3").visibility(false).inline(),
        ])
        .bytes()
}

#[test]
fn bbmodel_fixture_with_pivots_and_rotations_reads_back_exactly() {
    let bytes = pivoted_bbmodel();
    let loaded = scenedec::load(&bytes, Some("bbmodel"), &Options::default()).unwrap();
    let scene = loaded.scene();
    assert_eq!(scene.nodes().len(), 3);
    assert!(
        scene
            .nodes()
            .iter()
            .any(|n| n.pivot != [0.0; 3] && n.rotation != [0.0; 3])
    );
    let c = check_round_trip(&scene, "pivot fixture");
    assert_eq!(c.triangles, 24);
    let out = export(&scene, "model", &ExportOptions::default()).unwrap();
    let rb = ReadBack::new(&out.main);
    // One mesh per scene node that has elements, on that node, whose world
    // matrix is the scene node's times its pivot (nodes.rs).
    assert_eq!(rb.doc.meshes().len(), 2);
    for node in rb.doc.nodes().filter(|n| n.mesh().is_some()) {
        let name = node.name().unwrap();
        assert_eq!(
            node.mesh().unwrap().name(),
            Some(name),
            "named after its node"
        );
        let i = scene
            .nodes()
            .iter()
            .position(|n| scene.text(n.name) == name)
            .unwrap();
        let p = scene.nodes()[i].pivot.map(f64::from);
        let mut pivot = IDENTITY;
        pivot[3] = [p[0], p[1], p[2], 1.0];
        let scene_world = mul(&of_scene(scene.world_matrix(i)), &pivot);
        assert_close_matrix(&rb.world[node.index()], &scene_world, "mesh node");
    }
    // The hidden group says so in extras.
    let hidden = rb.doc.nodes().find(|n| n.name() == Some("hidden")).unwrap();
    assert!(
        hidden
            .extras()
            .as_ref()
            .unwrap()
            .get()
            .contains("\"visible\":false")
    );
}

#[test]
fn gltf_container_writes_its_buffer_and_images_beside_it() {
    let files = support::corpus_files("j3d", &["smgo_kuribomini.bdl"]);
    let bytes = match files.first() {
        Some(p) => std::fs::read(p).unwrap(),
        None => skinned_j3d(),
    };
    let loaded = scenedec::load(&bytes, Some("bdl"), &Options::default()).unwrap();
    let scene = loaded.scene();
    let options = ExportOptions {
        container: Container::Gltf,
        scale: 1.0,
        ..ExportOptions::default()
    };
    let out = export(&scene, "kuribo", &options).unwrap();
    let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
    let names: Vec<&str> = out.beside.iter().map(|(n, _)| n.as_str()).collect();
    let buffer = gltf.buffers().next().unwrap();
    let gltf::buffer::Source::Uri(uri) = buffer.source() else {
        panic!("the buffer has a URI")
    };
    assert_eq!(uri, "kuribo.bin");
    assert_eq!(out.beside[0].1.len(), buffer.length());
    for image in gltf.images() {
        let gltf::image::Source::Uri { uri, .. } = image.source() else {
            panic!("images by URI")
        };
        assert!(names.contains(&uri), "{uri} written");
    }
    assert_eq!(names.len(), 1 + gltf.images().count());
}

#[test]
fn scale_multiplies_positions_and_translations() {
    let bytes = pivoted_bbmodel();
    let loaded = scenedec::load(&bytes, Some("bbmodel"), &Options::default()).unwrap();
    let scene = loaded.scene();
    let one = ReadBack::new(&export(&scene, "m", &ExportOptions::default()).unwrap().main);
    let sixteenth = ExportOptions {
        container: Container::Glb,
        scale: 1.0 / 16.0,
        ..ExportOptions::default()
    };
    let small = ReadBack::new(&export(&scene, "m", &sixteenth).unwrap().main);
    for (a, b) in one.world.iter().zip(&small.world) {
        for k in 0..3 {
            assert!((a[3][k] / 16.0 - b[3][k]).abs() < 1e-5);
        }
    }
}
