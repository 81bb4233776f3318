//! Real files from `../shared/corpus`: what scenedec reads today must agree
//! with the independent reader's summaries (`j3d/expected/*.json`) and with
//! the versions the .bbmodel files declare. Skips, saying so, when the
//! corpus is absent.

mod support;

use scenedec::ErrorCode;
use scenedec::Options;
use scenedec::j3d::J3dFile;
use scenedec::scene::NodeFlags;

fn expected(path: &std::path::Path) -> serde_json::Value {
    let name = path.file_name().unwrap().to_str().unwrap();
    let json = path
        .parent()
        .unwrap()
        .join("expected")
        .join(format!("{name}.json"));
    serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap()
}

#[test]
fn j3d_section_walk_matches_the_independent_reader() {
    let files = support::corpus_files("j3d", &[".bmd", ".bdl"]);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let want = expected(path);
        let file = J3dFile::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let magic = std::str::from_utf8(&bytes[..8]).unwrap();
        assert_eq!(magic, want["magic"].as_str().unwrap());
        let got: Vec<(String, u64, u64)> = file
            .sections()
            .map(|s| {
                (
                    s.id.as_str().to_owned(),
                    s.offset as u64,
                    s.bytes.len() as u64,
                )
            })
            .collect();
        let want: Vec<(String, u64, u64)> = want["chunks_raw"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["id"].as_str().unwrap().to_owned(),
                    c["offset"].as_u64().unwrap(),
                    c["size"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(got, want, "{}", path.display());
        let loaded = scenedec::load(&bytes, None, &Options::default()).unwrap();
        assert_eq!(loaded.scene().format(), scenedec::scene::Format::J3d);
    }
    eprintln!("checked {} J3D corpus files", files.len());
}

#[test]
fn j3d_corpus_loads_the_same_through_yaz0() {
    for path in support::corpus_files("j3d", &[".bmd", ".bdl"])
        .iter()
        .take(3)
    {
        let bytes = std::fs::read(path).unwrap();
        let packed = scenedec::yaz0::compress(&bytes);
        let loaded = scenedec::load(&packed, None, &Options::default()).unwrap();
        assert_eq!(loaded.scene().input(), &bytes[..], "{}", path.display());
    }
}

/// The version a corpus file name states, e.g. `..._v4_10_...` → (4, 10).
fn version_in_name(name: &str) -> Option<(u32, u32)> {
    let at = name.find("_v")?;
    let mut parts = name[at + 2..].split('_');
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// Spec, Limits: a file past a default limit fails with that limit's code,
/// and loads once its user raises the limit (the options `--limit` gives).
#[test]
fn corpus_files_past_a_default_limit_fail_as_the_spec_says_and_load_when_raised() {
    let mut checked = 0;
    for &(file, limit, _, code) in support::CORPUS_PAST_DEFAULT_LIMITS {
        let Some(dir) = support::corpus_dir() else {
            return;
        };
        let Ok(bytes) = std::fs::read(dir.join("bbmodel").join(file)) else {
            continue;
        };
        let e = scenedec::load(&bytes, Some("bbmodel"), &Options::default()).unwrap_err();
        assert_eq!(e.code(), code, "{file}: {e}");
        assert!(e.to_string().contains(limit), "{file}: {e}");
        scenedec::load(&bytes, Some("bbmodel"), &support::corpus_options(file))
            .unwrap_or_else(|e| panic!("{file} with {limit} raised: {e}"));
        checked += 1;
    }
    eprintln!("checked {checked} corpus files past a default limit");
}

#[test]
fn every_bbmodel_reads_as_json_with_its_version() {
    let files = support::corpus_files("bbmodel", &[".bbmodel"]);
    let limits = scenedec::BbmodelLimits::default();
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        let bytes = std::fs::read(path).unwrap();
        let result = scenedec::bbmodel::read_meta(&bytes, &limits);
        if bytes.is_empty() {
            // Spec: an empty file fails NOT_JSON.
            assert_eq!(result.unwrap_err().code(), ErrorCode::NotJson, "{name}");
            continue;
        }
        let version = result.unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some((major, minor)) = version_in_name(name) {
            assert_eq!((version.major, version.minor), (major, minor), "{name}");
        }
        let loaded = scenedec::load(&bytes, Some("bbmodel"), &support::corpus_options(name))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(loaded.scene().format(), scenedec::scene::Format::Bbmodel);
    }
    eprintln!("checked {} .bbmodel corpus files", files.len());
}

fn close(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= 1e-4 * scale.max(1.0)
}

fn vec3(v: &serde_json::Value) -> [f64; 3] {
    let a = v.as_array().unwrap();
    [
        a[0].as_f64().unwrap(),
        a[1].as_f64().unwrap(),
        a[2].as_f64().unwrap(),
    ]
}

/// Every J3D corpus file decodes to what the independent reader (noclip's
/// J3D loader) read from it: joints and parents, triangles, display-list
/// vertices and primitives, array bounds, the first shape's samples, and the
/// raw and bind-pose bounding boxes.
#[test]
fn j3d_geometry_matches_the_independent_reader() {
    let files = support::corpus_files("j3d", &[".bmd", ".bdl"]);
    let mut checked_normals = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let bytes = std::fs::read(path).unwrap();
        let want = expected(path);
        let loaded = scenedec::load(&bytes, None, &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let scene = loaded.scene();
        let summary = scenedec::j3d::summary(&bytes, &Default::default()).unwrap();

        // Joints: names and parents in JNT1 order.
        let joints = want["jnt1"]["joints"].as_array().unwrap();
        assert_eq!(scene.nodes().len(), joints.len(), "{name}: joints");
        for (node, joint) in scene.nodes().iter().zip(joints) {
            assert_eq!(
                scene.text(node.name),
                joint["name"].as_str().unwrap(),
                "{name}"
            );
            assert_eq!(
                i64::from(node.parent),
                joint["parent"].as_i64().unwrap(),
                "{name}: parent of {}",
                scene.text(node.name)
            );
        }

        // Triangles, display-list vertices, primitives, shapes, packets.
        let totals = &want["shp1"]["totals"];
        assert_eq!(
            scene.triangle_count() as u64,
            totals["triangles"].as_u64().unwrap(),
            "{name}: triangles"
        );
        assert_eq!(
            scene.positions().len() as u64,
            totals["displayListVertexCount"].as_u64().unwrap(),
            "{name}: vertices"
        );
        let prims = &totals["primitives"];
        let p = summary.primitives;
        for (key, got) in [
            ("TRIANGLES", p.triangles),
            ("TRIANGLE_STRIP", p.triangle_strip),
            ("TRIANGLE_FAN", p.triangle_fan),
            ("QUADS", p.quads),
            ("LINES", p.lines + p.line_strip),
            ("POINTS", p.points),
        ] {
            assert_eq!(
                got as u64,
                prims[key].as_u64().unwrap_or(0),
                "{name}: {key}"
            );
        }
        let shapes = want["shp1"]["shapes"].as_array().unwrap();
        assert_eq!(summary.shapes, shapes.len(), "{name}");
        let packets: u64 = shapes
            .iter()
            .map(|s| s["mtxGroupCount"].as_u64().unwrap())
            .sum();
        assert_eq!(summary.packets as u64, packets, "{name}: packets");
        assert_eq!(
            summary.envelopes as u64,
            want["evp1"]["envelopeCount"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(
            summary.draw_matrices as u64,
            want["drw1"]["count"].as_u64().unwrap(),
            "{name}"
        );
        let rule = want["inf1"]["scalingRule"]
            .as_str()
            .unwrap()
            .to_ascii_lowercase();
        assert_eq!(summary.scaling_rule.unwrap().as_str(), rule, "{name}");
        // Each shape's triangles and its material from the INF1 tree.
        for (s, shape) in shapes.iter().enumerate() {
            let mesh = scene.meshes()[s];
            assert_eq!(
                u64::from(mesh.index_count / 3),
                shape["triangleCount"].as_u64().unwrap(),
                "{name}: shape {s}"
            );
            let group = scene.groups()[mesh.first_group as usize];
            assert_eq!(
                i64::from(group.material),
                shape["materialIndex"].as_i64().unwrap(),
                "{name}: shape {s} material"
            );
        }

        // Vertex arrays: POS from INF1's count, the others their byte bounds.
        let slot = |attr: &str| match attr {
            "POS" => 0,
            "NRM" => 1,
            "NBT" => 2,
            "CLR0" => 3,
            "CLR1" => 4,
            t => 5 + t[3..].parse::<usize>().unwrap(),
        };
        for a in want["vtx1"]["attributes"].as_array().unwrap() {
            let attr = a["attr"].as_str().unwrap();
            let want_count = if attr == "POS" {
                want["inf1"]["vertexCountField"].as_u64().unwrap()
            } else {
                a["countUpperBound"].as_u64().unwrap()
            };
            assert_eq!(
                summary.vertex_arrays[slot(attr)] as u64,
                want_count,
                "{name}: {attr}"
            );
        }

        // Raw positions as stored: exact.
        let raw = &want["rawPositionBBox"];
        let got = summary.raw_position_bbox.unwrap();
        for axis in 0..3 {
            // The oracle prints float32 values as doubles; compare as float32.
            assert_eq!(got.min[axis], vec3(&raw[0])[axis] as f32, "{name}: raw min");
            assert_eq!(got.max[axis], vec3(&raw[1])[axis] as f32, "{name}: raw max");
        }

        // Bind pose: bbox and the first shape's first vertices.
        let bind = &want["bindPoseBBox"];
        let bbox = scene.bbox().unwrap();
        let extent = (0..3)
            .flat_map(|i| [vec3(&bind[0])[i].abs(), vec3(&bind[1])[i].abs()])
            .fold(0.0, f64::max);
        for axis in 0..3 {
            assert!(
                close(f64::from(bbox.min[axis]), vec3(&bind[0])[axis], extent),
                "{name}: bind min {:?} vs {}",
                bbox.min,
                bind[0]
            );
            assert!(
                close(f64::from(bbox.max[axis]), vec3(&bind[1])[axis], extent),
                "{name}: bind max {:?} vs {}",
                bbox.max,
                bind[1]
            );
        }
        for (i, p) in want["bindPoseSample"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            let got = scene.positions()[i];
            for axis in 0..3 {
                assert!(
                    close(f64::from(got[axis]), vec3(p)[axis], extent),
                    "{name}: bind sample {i}: {got:?} vs {p}"
                );
            }
        }
        let sample = &want["firstShapeSample"];
        if let Some(tex0) = sample["tex0"].as_array() {
            let mesh = scene.meshes()[0];
            for (i, uv) in tex0.iter().enumerate() {
                let got = scene.uvs()[(mesh.first_uv + i as u32 * mesh.uv_sets) as usize];
                let want_uv = [
                    uv[0].as_f64().unwrap() as f32,
                    uv[1].as_f64().unwrap() as f32,
                ];
                assert_eq!(got, want_uv, "{name}: tex0 {i}");
            }
        }
        if let Some(normals) = sample["normals"].as_array() {
            // Normals are stored unit length in bind-pose model space. Where
            // the only joint sits at the origin unturned, bind pose is the
            // identity and the direction must equal the file's.
            let identity = scene.nodes().len() == 1
                && scene.world_matrix(0) == scenedec::scene::Mat4::IDENTITY;
            for (i, n) in normals.iter().enumerate() {
                let got = scene.normals()[i];
                let len = got.iter().map(|x| x * x).sum::<f32>().sqrt();
                assert!(
                    (len - 1.0).abs() < 1e-5,
                    "{name}: normal {i} not unit: {got:?}"
                );
                if identity {
                    let raw = vec3(n);
                    let raw_len = raw.iter().map(|x| x * x).sum::<f64>().sqrt();
                    for axis in 0..3 {
                        let want = raw[axis] / raw_len;
                        assert!(
                            (f64::from(got[axis]) - want).abs() < 1e-5,
                            "{name}: normal {i}: {got:?} vs {n}"
                        );
                    }
                    checked_normals += 1;
                }
            }
        }
    }
    assert!(
        files.is_empty() || checked_normals > 0,
        "no normal was compared by direction"
    );
    eprintln!(
        "checked geometry of {} J3D corpus files ({checked_normals} normals by direction)",
        files.len()
    );
}

/// Groups of the outliner, depth first, read with serde_json as an
/// independent reader: (name, parent index). 5.x group data comes from the
/// `groups` array by uuid (convention 3).
fn outliner_groups(doc: &serde_json::Value) -> Vec<(String, i64)> {
    fn walk(
        v: &serde_json::Value,
        parent: i64,
        groups: &serde_json::Value,
        out: &mut Vec<(String, i64)>,
    ) {
        for child in v.as_array().into_iter().flatten() {
            if child.is_object() {
                let data = child["uuid"]
                    .as_str()
                    .and_then(|u| {
                        groups
                            .as_array()?
                            .iter()
                            .find(|g| g["uuid"].as_str() == Some(u))
                    })
                    .unwrap_or(child);
                let index = out.len() as i64;
                out.push((data["name"].as_str().unwrap_or("").to_owned(), parent));
                walk(&child["children"], index, groups, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(&doc["outliner"], -1, &doc["groups"], &mut out);
    out
}

#[test]
fn bbmodel_nodes_are_the_outliner_groups_depth_first() {
    let files = support::corpus_files("bbmodel", &[".bbmodel"]);
    let (mut checked, mut shapes) = (0, 0);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        if bytes.is_empty() {
            continue;
        }
        let name = path.file_name().unwrap().to_str().unwrap();
        // serde_json refuses NaN just as scenedec does; skip what it cannot read.
        let Ok(doc) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
            continue;
        };
        let loaded = scenedec::load(&bytes, Some("bbmodel"), &support::corpus_options(name))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let scene = loaded.scene();
        // The groups, then (Hytale scale) the main cubes' nodes.
        let shape = |n: &&scenedec::scene::NodeRecord| n.flags & NodeFlags::SHAPE != 0;
        let groups = scene.nodes().iter().take_while(|n| !shape(n)).count();
        let got: Vec<(String, i64)> = scene.nodes()[..groups]
            .iter()
            .map(|n| (scene.text(n.name).to_owned(), i64::from(n.parent)))
            .collect();
        assert_eq!(got, outliner_groups(&doc), "{name}");
        // Each shape node hangs under a group and carries one mesh.
        for (i, n) in scene.nodes().iter().enumerate().skip(groups) {
            assert!(
                shape(&n) && (0..groups as i32).contains(&n.parent),
                "{name}"
            );
            let on: Vec<_> = scene
                .meshes()
                .iter()
                .filter(|m| m.node == i as i32)
                .collect();
            assert_eq!(on.len(), 1, "{name}: shape node {i}");
            assert_eq!(scene.text(on[0].name), scene.text(n.name), "{name}");
        }
        shapes += scene.nodes().len() - groups;
        checked += 1;
    }
    eprintln!(
        "checked the node tree of {checked} .bbmodel corpus files ({shapes} main-cube nodes)"
    );
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every J3D corpus texture decodes to the independent reader's pixels
/// (SHA-256 of mip 0 as RGBA8), with its size, GX format, wrap modes and mip
/// count; every material's texture is the TEX1 index of its slot 0.
#[test]
fn j3d_textures_and_materials_match_the_independent_reader() {
    use scenedec::scene::Wrap;
    let files = support::corpus_files("j3d", &[".bmd", ".bdl"]);
    let (mut hashes, mut slots, mut shared) = (0, 0, 0);
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let bytes = std::fs::read(path).unwrap();
        let want = expected(path);
        let loaded = scenedec::load(&bytes, None, &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let scene = loaded.scene();

        let textures = want["tex1"]["textures"].as_array().unwrap();
        assert_eq!(scene.textures().len(), textures.len(), "{name}: textures");
        let mut first_of_data = std::collections::HashMap::new();
        for (i, (t, w)) in scene.textures().iter().zip(textures).enumerate() {
            let at = format!("{name}: texture {i}");
            assert_eq!(scene.text(t.name), w["name"].as_str().unwrap(), "{at}");
            assert_eq!(u64::from(t.width), w["width"].as_u64().unwrap(), "{at}");
            assert_eq!(u64::from(t.height), w["height"].as_u64().unwrap(), "{at}");
            assert_eq!(
                u64::from(t.source_format),
                w["format"].as_u64().unwrap(),
                "{at}"
            );
            let wrap = |s: &str| match s {
                "CLAMP" => Wrap::Clamp,
                "REPEAT" => Wrap::Repeat,
                "MIRROR" => Wrap::Mirror,
                other => panic!("{at}: wrap {other}"),
            };
            assert_eq!(t.wrap_u(), wrap(w["wrapS"].as_str().unwrap()), "{at}");
            assert_eq!(t.wrap_v(), wrap(w["wrapT"].as_str().unwrap()), "{at}");
            // A stored mip count of 0 is read as one level (README: "special case").
            let levels = w["mipCount"].as_u64().unwrap().max(1);
            assert_eq!(u64::from(t.mip_count), levels, "{at}: mip count");
            assert!(!t.missing(), "{at}");
            let mip = scene.mips()[t.first_mip as usize];
            assert_eq!((mip.width, mip.height), (t.width, t.height), "{at}");
            let start = mip.offset as usize;
            let len = (mip.width * mip.height * 4) as usize;
            assert_eq!(
                sha256_hex(&scene.pixels()[start..start + len]),
                w["mip0Rgba8Sha256"].as_str().unwrap(),
                "{at}: mip 0 pixels"
            );
            hashes += 1;
            // Headers that share image data share one pixel copy.
            let data = w["textureDataIndex"].as_u64().unwrap();
            match first_of_data.get(&data) {
                Some(&offset) => {
                    assert_eq!(mip.offset, offset, "{at}: shared data decoded twice");
                    shared += 1;
                }
                None => {
                    first_of_data.insert(data, mip.offset);
                }
            }
        }
        assert_eq!(
            first_of_data.len() as u64,
            want["tex1"]["uniqueTextureDataCount"].as_u64().unwrap(),
            "{name}: unique data"
        );

        let materials = want["mat3"]["materials"].as_array().unwrap();
        assert_eq!(scene.materials().len(), materials.len(), "{name}");
        for (i, (m, w)) in scene.materials().iter().zip(materials).enumerate() {
            assert_eq!(scene.text(m.name), w["name"].as_str().unwrap(), "{name}");
            assert_eq!(
                i64::from(m.texture),
                w["textureIndexes"][0].as_i64().unwrap(),
                "{name}: material {i} slot 0"
            );
            slots += 1;
            let cull = w["cullMode"].as_u64().unwrap();
            let want_cull = match cull {
                0 => scenedec::scene::CullMode::None,
                1 => scenedec::scene::CullMode::Front,
                2 => scenedec::scene::CullMode::Back,
                _ => scenedec::scene::CullMode::All,
            };
            assert_eq!(m.cull(), want_cull, "{name}: material {i} cull");
        }
    }
    eprintln!(
        "checked {hashes} J3D corpus textures ({shared} sharing data) and {slots} material slots in {} files",
        files.len()
    );
}

/// Every string the outliner lists as an element uuid, at any depth.
fn outliner_element_uuids(v: &serde_json::Value, out: &mut Vec<String>) {
    for child in v.as_array().into_iter().flatten() {
        match child {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Object(o) => {
                outliner_element_uuids(o.get("children").unwrap_or(&serde_json::Value::Null), out)
            }
            _ => {}
        }
    }
}

/// Triangles of one cube element as the spec draws them, read independently
/// with serde_json: two per face object whose `texture` is not null, unless
/// the face spans an axis of zero thickness (e = ((to − from) / 2 + inflate) ·
/// stretch about the centre, the two ends equal).
fn cube_triangles(e: &serde_json::Value) -> u64 {
    let v3 = |key: &str, default: f64| {
        e.get(key)
            .and_then(|v| v.as_array())
            .map(|a| [0, 1, 2].map(|i| a[i].as_f64().unwrap()))
            .unwrap_or([default; 3])
    };
    let (from, to, stretch) = (v3("from", 0.0), v3("to", 0.0), v3("stretch", 1.0));
    let inflate = e.get("inflate").and_then(|v| v.as_f64()).unwrap_or(0.0);
    // The box runs from centre − e to centre + e; a face across an axis
    // whose two ends coincide has no area.
    let flat: Vec<bool> = (0..3)
        .map(|i| {
            let half = (to[i] - from[i]) / 2.0;
            let centre = from[i] + half;
            let e = (half + inflate) * stretch[i];
            centre - e == centre + e
        })
        .collect();
    let mut n = 0;
    for (face, axes) in [
        ("north", [0, 1]),
        ("south", [0, 1]),
        ("east", [1, 2]),
        ("west", [1, 2]),
        ("up", [0, 2]),
        ("down", [0, 2]),
    ] {
        let Some(f) = e.get("faces").and_then(|f| f.get(face)) else {
            continue;
        };
        let removed = f.get("texture") == Some(&serde_json::Value::Null);
        if f.is_object() && !removed && !flat[axes[0]] && !flat[axes[1]] {
            n += 2;
        }
    }
    n
}

/// What an independent reader (serde_json) expects of every corpus file:
/// one mesh per cube or mesh element; cube triangles exactly, mesh
/// triangles within the spec's upper bound (k − 2 per face); and warnings
/// that are only the codes the spec explains for what the file holds:
/// UNSUPPORTED_ELEMENT per element of another type, SOURCE_NOT_FETCHED per
/// source that is no data URI, MISSING_TEXTURE per texture without an
/// embedded image (no files picked), UNKNOWN_REFERENCE per outliner uuid no
/// element has, UNSUPPORTED_VALUE at a field the spec names.
#[test]
fn bbmodel_meshes_triangles_and_warnings_match_an_independent_reading() {
    use scenedec::WarningCode;
    let files = support::corpus_files("bbmodel", &[".bbmodel"]);
    let mut checked = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        let bytes = std::fs::read(path).unwrap();
        let Ok(doc) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
            continue;
        };
        let loaded = scenedec::load(&bytes, Some("bbmodel"), &support::corpus_options(name))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let scene = loaded.scene();
        let elements = doc["elements"].as_array().cloned().unwrap_or_default();
        let kind = |e: &serde_json::Value| e["type"].as_str().unwrap_or("cube").to_owned();
        let (mut cubes, mut meshes, mut others) = (0, 0, 0);
        let (mut cube_tris, mut mesh_bound) = (0u64, 0u64);
        for e in &elements {
            match kind(e).as_str() {
                "cube" => {
                    cubes += 1;
                    cube_tris += cube_triangles(e);
                }
                "mesh" => {
                    meshes += 1;
                    for f in e["faces"].as_object().into_iter().flat_map(|f| f.values()) {
                        let k = f["vertices"].as_array().map_or(0, Vec::len) as u64;
                        mesh_bound += k.saturating_sub(2);
                    }
                }
                _ => others += 1,
            }
        }
        assert_eq!(scene.meshes().len(), cubes + meshes, "{name}: meshes");
        let triangles = scene.triangle_count() as u64;
        if meshes == 0 {
            assert_eq!(triangles, cube_tris, "{name}: triangles");
        } else {
            assert!(
                triangles >= cube_tris && triangles <= cube_tris + mesh_bound,
                "{name}: {triangles} triangles, cubes {cube_tris}, meshes at most {mesh_bound}"
            );
        }

        let textures = doc["textures"].as_array().cloned().unwrap_or_default();
        let source = |t: &serde_json::Value| t["source"].as_str().unwrap_or("").to_owned();
        let embedded = textures
            .iter()
            .filter(|t| source(t).starts_with("data:"))
            .count();
        let not_fetched = textures
            .iter()
            .filter(|t| !source(t).is_empty() && !source(t).starts_with("data:"))
            .count();
        let mut listed = Vec::new();
        outliner_element_uuids(&doc["outliner"], &mut listed);
        let uuids: Vec<&str> = elements.iter().filter_map(|e| e["uuid"].as_str()).collect();
        let unknown = listed
            .iter()
            .filter(|u| !uuids.contains(&u.as_str()))
            .count();

        let warnings = loaded.warnings().as_slice();
        assert_eq!(loaded.warnings().dropped(), 0, "{name}");
        // Animation warnings are pinned in tests/bbmodel_animations.rs.
        let in_animations = |w: &scenedec::Warning| w.at().to_string().starts_with("$.animations[");
        // Warnings are kept grouped: a group's count is how many were raised.
        let count = |code: WarningCode| {
            warnings
                .iter()
                .filter(|w| w.code() == code && !in_animations(w))
                .map(|w| w.count() as usize)
                .sum::<usize>()
        };
        assert_eq!(count(WarningCode::UnsupportedElement), others, "{name}");
        assert_eq!(count(WarningCode::SourceNotFetched), not_fetched, "{name}");
        assert_eq!(
            count(WarningCode::MissingTexture),
            textures.len() - embedded,
            "{name}"
        );
        assert_eq!(count(WarningCode::UnknownReference), unknown, "{name}");
        for w in warnings {
            let at = w.at().to_string();
            match w.code() {
                WarningCode::UnsupportedChannel
                | WarningCode::UnsupportedValue
                | WarningCode::UnknownReference
                    if in_animations(w) => {}
                WarningCode::UnsupportedValue => {
                    let field = at.rsplit('.').next().unwrap();
                    assert!(
                        [
                            "render_order",
                            "render_sides",
                            "render_mode",
                            "wrap_mode",
                            "shading",
                            "visible",
                            "use_as_default",
                            "uv_width",
                            "uv_height",
                        ]
                        .contains(&field),
                        "{name}: UNSUPPORTED_VALUE at {at}"
                    );
                }
                WarningCode::UnsupportedElement
                | WarningCode::SourceNotFetched
                | WarningCode::MissingTexture
                | WarningCode::UnknownReference => {}
                other => panic!("{name}: warning {other:?} at {at} the spec does not explain"),
            }
            assert!(at.starts_with("$."), "{name}: {at}");
        }
        checked += 1;
    }
    eprintln!("checked meshes, triangles and warnings of {checked} .bbmodel corpus files");
}

/// A picked texture file stands in for a linked texture, matched by name:
/// the wrench's brass_casing.png is found, its size read from the PNG.
#[test]
fn bbmodel_linked_texture_is_found_among_picked_files() {
    let Some(dir) = support::corpus_dir() else {
        return;
    };
    let dir = dir.join("bbmodel");
    let model = dir.join("create_wrench_java_block_v3_0_linked_textures.bbmodel");
    let png_path = dir.join("create_wrench_java_block_v3_0_linked_textures/brass_casing.png");
    let (Ok(bytes), Ok(png)) = (std::fs::read(model), std::fs::read(png_path)) else {
        eprintln!("SKIPPED: the wrench model or its texture is absent");
        return;
    };
    let info = png::Decoder::new(std::io::Cursor::new(&png[..]))
        .read_info()
        .unwrap()
        .info()
        .clone();
    let mut options = Options::default();
    let files: [(&str, &[u8]); 1] = [("BRASS_CASING.png", &png)];
    options.bbmodel.texture_files = &files;
    let loaded = scenedec::load(&bytes, Some("bbmodel"), &options).unwrap();
    let scene = loaded.scene();
    let found: Vec<_> = scene.textures().iter().filter(|t| !t.missing()).collect();
    assert_eq!(found.len(), 1);
    assert_eq!(scene.text(found[0].name), "brass_casing.png");
    assert_eq!((found[0].width, found[0].height), (info.width, info.height));
    let missing = loaded
        .warnings()
        .as_slice()
        .iter()
        .filter(|w| w.code() == scenedec::WarningCode::MissingTexture)
        .map(|w| w.count() as usize)
        .sum::<usize>();
    assert_eq!(missing, scene.textures().len() - 1);
}

#[test]
fn j3d_skip_texels_leaves_out_exactly_the_pixels_and_mip_records() {
    let files = support::corpus_files("j3d", &[".bmd", ".bdl"]);
    if files.is_empty() {
        eprintln!("SKIPPED: ../shared/corpus/j3d is absent");
        return;
    }
    let full = Options::default();
    let mut headers_only = Options::default();
    headers_only.j3d.skip_texels = true;
    let mut pixel_bytes = 0;
    for path in &files {
        let name = path.display();
        let bytes = std::fs::read(path).unwrap();
        let plan = scenedec::measure(&bytes, None, &full).unwrap();
        let lean = scenedec::measure(&bytes, None, &headers_only).unwrap();
        let (counts, lean_counts) = (plan.counts(), lean.counts());
        assert_eq!(lean_counts.pixels, 0, "{name}");
        assert_eq!(lean_counts.mips, 0, "{name}");
        assert_eq!(lean_counts.textures, counts.textures, "{name}");
        let left_out =
            counts.pixels + counts.mips * std::mem::size_of::<scenedec::scene::MipRecord>();
        assert_eq!(plan.arena_bytes() - lean.arena_bytes(), left_out, "{name}");
        pixel_bytes += counts.pixels;

        let a = scenedec::load(&bytes, None, &full).unwrap();
        let b = scenedec::load(&bytes, None, &headers_only).unwrap();
        let (a, b) = (a.scene(), b.scene());
        assert_eq!(b.pixels().len(), 0, "{name}");
        assert_eq!(b.mips().len(), 0, "{name}");
        // Geometry and materials are the same, bit for bit.
        assert_eq!(a.positions(), b.positions(), "{name}");
        assert_eq!(a.normals(), b.normals(), "{name}");
        assert_eq!(a.uvs(), b.uvs(), "{name}");
        assert_eq!(a.indices(), b.indices(), "{name}");
        assert_eq!(a.materials(), b.materials(), "{name}");
        assert_eq!(a.textures().len(), b.textures().len(), "{name}");
        for (t, u) in a.textures().iter().zip(b.textures()) {
            assert_eq!(a.text(t.name), b.text(u.name), "{name}");
            assert_eq!(
                (t.width, t.height, t.source_format, t.wrap_u, t.wrap_v),
                (u.width, u.height, u.source_format, u.wrap_u, u.wrap_v),
                "{name}"
            );
            assert_eq!(u.mip_count, 0, "{name}");
            if t.missing() {
                assert!(u.missing(), "{name}");
            } else {
                assert_eq!(
                    u.flags,
                    scenedec::scene::TextureFlags::TEXELS_LEFT_OUT,
                    "{name}"
                );
            }
        }
    }
    assert!(pixel_bytes > 0, "the corpus has textures to leave out");
    eprintln!(
        "checked {} J3D corpus files; {pixel_bytes} pixel bytes left out",
        files.len()
    );
}
