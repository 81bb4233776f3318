//! J3D material and shape clips in the glTF export (docs/export.md, "J3D
//! clips"), read back from the .glb's JSON and buffer and played by the
//! glTF rules (LINEAR: the value at an input time is its output; STEP: the
//! last input's value), against what the game shows (`Scene::sample_material`,
//! `Scene::sample_visibility`, docs/j3d.md, "Animations"):
//!
//! - `KHR_texture_transform` offset, rotation and scale, composed as the
//!   extension composes them (`T · R · S`, `u' = cos·sx·u + sin·sy·v + ox`,
//!   `v' = −sin·sx·u + cos·sy·v + oy`), equal the sampled J3D texture matrix
//!   of the base texture's coordinates;
//! - `baseColorFactor` is the sampled colour the TEV fold made the base
//!   colour, sRGB to linear, clamped to 0..=1;
//! - every track kept in `extras.j3d_tracks` holds the sampled values
//!   (texture swaps, visibility, colours, matrices).
//!
//! On every corpus pair of `j3d-anim/` with a BTK, BRK, BPK, BTP or BVA file.

mod support;

use std::collections::BTreeMap;

use scenedec::Scene;
use scenedec::export::gltf::{MaterialClips, Options as ExportOptions, export};
use scenedec::scene::{ClipKind, TrackRecord, TrackTarget, srgb_to_linear};
use serde_json::Value;

/// The JSON and BIN chunks of a .glb.
struct Glb {
    json: Value,
    bin: Vec<u8>,
}

impl Glb {
    fn read(bytes: &[u8]) -> Self {
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let json_len = word(12);
        let json = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
        let bin_at = 20 + json_len;
        let bin_len = word(bin_at);
        Self {
            json,
            bin: bytes[bin_at + 8..bin_at + 8 + bin_len].to_vec(),
        }
    }

    /// Accessor `i`'s floats, `n` per element (tightly packed float32).
    fn floats(&self, i: u64, n: usize) -> Vec<Vec<f32>> {
        let a = &self.json["accessors"][i as usize];
        assert_eq!(a["componentType"], 5126, "accessor {i} is float");
        let view = &self.json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
        let start = view["byteOffset"].as_u64().unwrap_or(0) as usize
            + a["byteOffset"].as_u64().unwrap_or(0) as usize;
        let count = a["count"].as_u64().unwrap() as usize;
        (0..count)
            .map(|k| {
                (0..n)
                    .map(|c| {
                        let at = start + (k * n + c) * 4;
                        f32::from_le_bytes(self.bin[at..at + 4].try_into().unwrap())
                    })
                    .collect()
            })
            .collect()
    }
}

/// The frames to compare at: every input (LINEAR), or half-way between
/// inputs (STEP), where the game still shows the frame before and a player
/// the last input's value; with the output index each plays.
fn compare_at(times: &[Vec<f32>], step: bool) -> Vec<(f32, usize)> {
    if step {
        times
            .windows(2)
            .enumerate()
            .map(|(k, w)| ((w[0][0] + w[1][0]) / 2.0, k))
            .collect()
    } else {
        times.iter().enumerate().map(|(k, t)| (t[0], k)).collect()
    }
}

fn close(a: f32, b: f32, what: &str) {
    assert!(
        (a - b).abs() <= 1e-4 * b.abs().max(1.0),
        "{what}: {a} against {b}"
    );
}

/// The clip of `name` and its frame rate.
fn clip_of(scene: &Scene<'_>, name: &str) -> (usize, f32) {
    let clip = scene
        .animations()
        .iter()
        .position(|r| scene.text(r.name) == name)
        .unwrap_or_else(|| panic!("no clip {name}"));
    (clip, scene.clip_record(clip).unwrap().frame_rate)
}

/// The slot of the first track of `clip` on `material` of `target` with `flag`.
fn flagged(
    scene: &Scene<'_>,
    clip: usize,
    material: usize,
    target: TrackTarget,
    flag: u32,
) -> Option<usize> {
    let record = scene.clip_record(clip)?;
    scene
        .clip_tracks(record)
        .find(|t| t.target == target as u32 && t.index as usize == material && t.flags & flag != 0)
        .map(|t| t.slot as usize)
}

/// A sampler's input and output accessors, and whether it steps.
type Io = (u64, u64, bool);

#[derive(Default)]
struct Counts {
    transforms: usize,
    colours: usize,
    shapes: usize,
    /// Frames compared where a played shape is hidden.
    hidden: usize,
    /// Tracks checked in `MaterialClips::Data` exports.
    as_data: usize,
    kept: BTreeMap<String, usize>,
}

/// Checks every pointer channel of `glb` against `scene`.
fn check_pointers(scene: &Scene<'_>, glb: &Glb, what: &str, n: &mut Counts) {
    let Some(animations) = glb.json["animations"].as_array() else {
        return;
    };
    for a in animations {
        let name = a["name"].as_str().unwrap();
        let (clip, rate) = clip_of(scene, name);
        // By material: the texture transform's three outputs, or the factor.
        let mut transforms: BTreeMap<usize, [Option<Io>; 3]> = BTreeMap::new();
        for c in a["channels"].as_array().unwrap() {
            if c["target"]["path"] == "scale" && clip_kind(scene, clip) == Some(ClipKind::Bva) {
                n.hidden +=
                    check_shape_scale(scene, glb, clip, rate, a, c, &std::format!("{what} {name}"));
                n.shapes += 1;
                continue;
            }
            if c["target"]["path"] != "pointer" {
                continue;
            }
            assert!(
                c["target"].get("node").is_none(),
                "{what}: a pointer channel names no node"
            );
            let pointer = c["target"]["extensions"]["KHR_animation_pointer"]["pointer"]
                .as_str()
                .unwrap();
            let sampler = &a["samplers"][c["sampler"].as_u64().unwrap() as usize];
            let io = (
                sampler["input"].as_u64().unwrap(),
                sampler["output"].as_u64().unwrap(),
                sampler["interpolation"] == "STEP",
            );
            let parts: Vec<&str> = pointer.split('/').collect();
            assert_eq!(parts[1], "materials", "{what}: {pointer}");
            let gltf: usize = parts[2].parse().unwrap();
            if pointer.ends_with("/baseColorFactor") {
                let m = material_of(scene, glb, gltf);
                check_factor(
                    scene,
                    glb,
                    clip,
                    rate,
                    m,
                    io,
                    &std::format!("{what} {name} {pointer}"),
                );
                n.colours += 1;
            } else {
                let k = ["offset", "rotation", "scale"]
                    .iter()
                    .position(|p| pointer.ends_with(&std::format!("KHR_texture_transform/{p}")))
                    .unwrap_or_else(|| panic!("{what}: unexpected pointer {pointer}"));
                transforms.entry(gltf).or_default()[k] = Some(io);
            }
        }
        for (gltf, [offset, rotation, scale]) in transforms {
            let (Some(o), Some(r), Some(s)) = (offset, rotation, scale) else {
                panic!("{what} {name}: material {gltf} lacks one of offset, rotation, scale");
            };
            let info = &glb.json["materials"][gltf]["pbrMetallicRoughness"]["baseColorTexture"];
            assert!(
                info["extensions"]["KHR_texture_transform"].is_object(),
                "{what}: material {gltf}'s texture has the extension to animate"
            );
            let m = material_of(scene, glb, gltf);
            let slot = flagged(
                scene,
                clip,
                m,
                TrackTarget::TexMatrix,
                TrackRecord::BASE_TEXTURE,
            )
            .expect("a texture transform comes from a BASE_TEXTURE track");
            let times = glb.floats(o.0, 1);
            let (offsets, turns, scales) =
                (glb.floats(o.1, 2), glb.floats(r.1, 1), glb.floats(s.1, 2));
            for (t, k) in compare_at(&times, o.2) {
                let sample = scene.sample_material(clip, t * rate, m).unwrap();
                let want = sample.texture_matrices[slot].unwrap().matrix;
                let (sin, cos) = turns[k][0].sin_cos();
                let (sx, sy) = (scales[k][0], scales[k][1]);
                let got = [
                    cos * sx,
                    -sin * sx,
                    sin * sy,
                    cos * sy,
                    offsets[k][0],
                    offsets[k][1],
                ];
                let want = [want[0], want[1], want[4], want[5], want[12], want[13]];
                for (g, w) in got.iter().zip(want) {
                    close(
                        *g,
                        w,
                        &std::format!("{what} {name} material {gltf} at {t} s"),
                    );
                }
            }
            n.transforms += 1;
        }
    }
}

fn clip_kind(scene: &Scene<'_>, clip: usize) -> Option<ClipKind> {
    ClipKind::from_u32(scene.clip_record(clip)?.kind)
}

/// A BVA track played as its shape's node's scale: 0 exactly where the
/// game hides the shape, the node's own scale where it shows it; the node
/// holds that shape alone (its mesh's `extras.parts` names one shape) and
/// no child.
fn check_shape_scale(
    scene: &Scene<'_>,
    glb: &Glb,
    clip: usize,
    rate: f32,
    a: &Value,
    c: &Value,
    what: &str,
) -> usize {
    let node = &glb.json["nodes"][c["target"]["node"].as_u64().unwrap() as usize];
    assert!(
        node.get("children").is_none(),
        "{what}: a shape's node has no child"
    );
    let mesh = &glb.json["meshes"][node["mesh"].as_u64().unwrap() as usize];
    let parts = mesh["extras"]["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 1, "{what}: the node holds one shape");
    let part = parts[0].as_str().unwrap();
    let shape: usize = part
        .strip_prefix("shape ")
        .and_then(|p| p.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{what}: part {part}"));
    let sampler = &a["samplers"][c["sampler"].as_u64().unwrap() as usize];
    assert_eq!(sampler["interpolation"], "STEP", "{what}");
    let times = glb.floats(sampler["input"].as_u64().unwrap(), 1);
    let scales = glb.floats(sampler["output"].as_u64().unwrap(), 3);
    let rest: Vec<f32> = node["scale"].as_array().map_or(vec![1.0; 3], |s| {
        s.iter().map(|v| v.as_f64().unwrap() as f32).collect()
    });
    let mut hidden = 0;
    for (t, k) in compare_at(&times, true) {
        let shown = scene.sample_visibility(clip, t * rate, shape).unwrap();
        let want = if shown.unwrap_or(true) {
            rest.clone()
        } else {
            vec![0.0; 3]
        };
        assert_eq!(scales[k], want, "{what}: shape {shape} at {t} s");
        hidden += usize::from(shown == Some(false));
    }
    hidden
}

/// The scene material glTF material `gltf` was written for (by name).
fn material_of(scene: &Scene<'_>, glb: &Glb, gltf: usize) -> usize {
    let name = glb.json["materials"][gltf]["name"].as_str().unwrap();
    scene
        .materials()
        .iter()
        .position(|m| scene.text(m.name) == name)
        .unwrap()
}

fn check_factor(
    scene: &Scene<'_>,
    glb: &Glb,
    clip: usize,
    rate: f32,
    m: usize,
    (input, output, step): Io,
    what: &str,
) {
    let rgb = flagged(scene, clip, m, TrackTarget::Color, TrackRecord::BASE_RGB);
    let alpha = flagged(scene, clip, m, TrackTarget::Color, TrackRecord::BASE_ALPHA);
    assert!(
        rgb.is_some() || alpha.is_some(),
        "{what}: no base colour track"
    );
    let rest = scene.materials()[m].base_color;
    let times = glb.floats(input, 1);
    let values = glb.floats(output, 4);
    for (t, k) in compare_at(&times, step) {
        let sample = scene.sample_material(clip, t * rate, m).unwrap();
        let unit = |c: f32| c.clamp(0.0, 1.0);
        let mut want = rest.map(unit);
        if let Some(c) = rgb.and_then(|s| sample.colors[s]) {
            for i in 0..3 {
                want[i] = srgb_to_linear(unit(c[i]));
            }
        }
        if let Some(c) = alpha.and_then(|s| sample.colors[s]) {
            want[3] = unit(c[3]);
        }
        for i in 0..4 {
            close(
                values[k][i],
                want[i],
                &std::format!("{what} at {t} s, component {i}"),
            );
        }
    }
}

/// Checks every track of `extras.j3d_tracks` against `scene`.
fn check_kept(scene: &Scene<'_>, glb: &Glb, what: &str, n: &mut Counts) {
    let Some(kept) = glb.json["extras"]["j3d_tracks"].as_array() else {
        return;
    };
    for k in kept {
        let (clip, rate) = clip_of(scene, k["clip"].as_str().unwrap());
        let target = k["target"].as_str().unwrap();
        let step = k["interpolation"] == "STEP";
        let times = glb.floats(k["input"].as_u64().unwrap(), 1);
        let width = match target {
            "texture" | "shape_visible" => 1,
            "texture_matrix" => 16,
            _ => 4,
        };
        let values = glb.floats(k["output"].as_u64().unwrap(), width);
        let slot = k["slot"].as_u64().unwrap_or(0) as usize;
        let material = k["material"].as_str().map(|name| {
            scene
                .materials()
                .iter()
                .position(|m| scene.text(m.name) == name)
                .unwrap()
        });
        for (t, i) in compare_at(&times, step) {
            let f = t * rate;
            let here = std::format!("{what} {k} at {t} s");
            match target {
                "shape_visible" => {
                    let shape = k["shape"].as_u64().unwrap() as usize;
                    let v = scene.sample_visibility(clip, f, shape).unwrap();
                    assert_eq!(
                        values[i][0],
                        if v.unwrap_or(true) { 1.0 } else { 0.0 },
                        "{here}"
                    );
                }
                "texture" => {
                    let s = scene.sample_material(clip, f, material.unwrap()).unwrap();
                    assert_eq!(values[i][0], f32::from(s.textures[slot].unwrap()), "{here}");
                }
                "texture_matrix" => {
                    let s = scene.sample_material(clip, f, material.unwrap()).unwrap();
                    let want = s.texture_matrices[slot].unwrap().matrix;
                    for (g, w) in values[i].iter().zip(want) {
                        close(*g, w, &here);
                    }
                }
                _ => {
                    let s = scene.sample_material(clip, f, material.unwrap()).unwrap();
                    let want = s.colors[slot].unwrap();
                    for (g, w) in values[i].iter().zip(want) {
                        close(*g, w, &here);
                    }
                }
            }
        }
        *n.kept.entry(target.to_owned()).or_default() += 1;
    }
}

/// docs/export.md, "J3D clips": each corpus model with material or shape
/// clips, exported with them, plays back what the game shows.
#[test]
fn j3d_material_and_shape_clips_play_as_the_game_samples_them() {
    let Some(root) = support::corpus_dir().map(|d| d.join("j3d-anim")) else {
        return;
    };
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv")).unwrap();
    let mut by_model: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for row in manifest.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        if matches!(
            cols.get(5),
            Some(&"BTK" | &"BRK" | &"BPK" | &"BTP" | &"BVA")
        ) && cols[6] != "-"
        {
            by_model
                .entry(cols[6].to_owned())
                .or_default()
                .push(cols[0].to_owned());
        }
    }
    let mut n = Counts::default();
    for (model, anims) in &by_model {
        let bytes = std::fs::read(root.join(model)).unwrap();
        let files: Vec<(String, Vec<u8>)> = anims
            .iter()
            .map(|a| {
                let name = a.rsplit('/').next().unwrap().to_owned();
                (name, std::fs::read(root.join(a)).unwrap())
            })
            .collect();
        let refs: Vec<(&str, &[u8])> = files
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        let mut options = scenedec::Options::default();
        options.j3d.animations = &refs;
        let loaded = scenedec::load(&bytes, None, &options).unwrap();
        let scene = loaded.scene();
        let out = export(&scene, "model", &ExportOptions::default()).unwrap();
        let glb = Glb::read(&out.main);
        let used: Vec<&str> = glb.json["extensionsUsed"]
            .as_array()
            .map(|u| u.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let pointers = glb.json["animations"].as_array().is_some_and(|a| {
            a.iter().any(|a| {
                a["channels"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|c| c["target"]["path"] == "pointer")
            })
        });
        assert_eq!(
            used.contains(&"KHR_animation_pointer"),
            pointers,
            "{model}: {used:?}"
        );
        assert!(
            glb.json.get("extensionsRequired").is_none(),
            "{model}: a viewer without the extensions still shows the model"
        );
        check_pointers(&scene, &glb, model, &mut n);
        check_kept(&scene, &glb, model, &mut n);
        // As data only: no pointer channel, every track in extras, right.
        let data = ExportOptions {
            material_clips: MaterialClips::Data,
            ..ExportOptions::default()
        };
        let glb = Glb::read(&export(&scene, "model", &data).unwrap().main);
        assert!(glb.json.get("extensionsUsed").is_none(), "{model}");
        let text = glb.json.to_string();
        assert!(
            !text.contains("\"pointer\""),
            "{model}: a pointer channel in data mode"
        );
        let mut m = Counts::default();
        check_kept(&scene, &glb, model, &mut m);
        n.as_data += m.kept.values().sum::<usize>();
    }
    eprintln!(
        "{} models: {} texture transforms, {} base colours, {} shape scales played; kept as data: {:?}",
        by_model.len(),
        n.transforms,
        n.colours,
        n.shapes,
        n.kept
    );
    assert!(n.transforms >= 2, "texture transforms: {}", n.transforms);
    assert!(n.colours >= 2, "base colours: {}", n.colours);
    assert!(n.shapes >= 2, "shape scales: {}", n.shapes);
    assert!(n.hidden > 0, "no played shape is ever hidden");
    let kept: usize = n.kept.values().sum();
    assert!(
        n.as_data > kept,
        "data mode keeps what pointer mode plays too: {} against {kept}",
        n.as_data
    );
    for kind in ["texture", "shape_visible", "texture_matrix"] {
        assert!(
            n.kept.get(kind).is_some_and(|&c| c > 0),
            "no kept {kind} track checked"
        );
    }
}
