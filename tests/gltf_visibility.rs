//! What the export does with parts the model hides (docs/export.md,
//! Visibility): an element is drawn only when it and every group above it
//! are visible — Blockbench composes visibility through its three.js object
//! tree (`OutlinerElement.visibility` on the element's mesh, a group's on
//! its `THREE.Object3D`, which hides everything under it) — so by default
//! a hidden part is left out, as Blockbench's own glTF exporter leaves it
//! out; `Hidden::Keep` writes it in a second scene only. A file always has a default
//! scene, even when nothing is drawn.

mod support;

use scenedec::Options;
use scenedec::export::gltf::{Hidden, Options as ExportOptions, export};

/// One face (north) per cube: two triangles each. `shown` at the root,
/// `in_hidden_group` under a hidden group, `hidden` itself hidden.
const MODEL: &str = r#"{"meta":{"format_version":"4.10","model_format":"free"},
 "resolution":{"width":16,"height":16},
 "elements":[
  {"name":"shown","type":"cube","uuid":"e1","from":[0,0,0],"to":[1,1,1],"faces":{"north":{"uv":[0,0,1,1]}}},
  {"name":"in_hidden_group","type":"cube","uuid":"e2","from":[2,0,0],"to":[3,1,1],"faces":{"north":{"uv":[0,0,1,1]}}},
  {"name":"hidden","type":"cube","uuid":"e3","visibility":false,"from":[4,0,0],"to":[5,1,1],"faces":{"north":{"uv":[0,0,1,1]}}}
 ],
 "outliner":[
  {"name":"off","uuid":"g1","origin":[0,0,0],"visibility":false,"children":[
    {"name":"inner","uuid":"g2","origin":[0,0,0],"children":["e2"]}]},
  "e1","e3"]}"#;

/// A mesh's name and, per primitive, its triangles and whether `extras`
/// flags it `visible: false`.
type MeshPrimitives = (String, Vec<(usize, bool)>);

/// Triangles in all, and every mesh's primitives.
fn triangles(glb: &[u8]) -> (usize, Vec<MeshPrimitives>) {
    let gltf = gltf::Gltf::from_slice(glb).unwrap();
    assert!(gltf.default_scene().is_some(), "a default scene");
    let mut names = Vec::new();
    let mut count = 0;
    for mesh in gltf.meshes() {
        let prims: Vec<(usize, bool)> = mesh
            .primitives()
            .map(|p| {
                let flagged = p
                    .extras()
                    .as_ref()
                    .is_some_and(|e| e.get().contains("\"visible\":false"));
                (p.indices().map_or(0, |a| a.count() / 3), flagged)
            })
            .collect();
        count += prims.iter().map(|p| p.0).sum::<usize>();
        names.push((mesh.name().unwrap_or_default().to_owned(), prims));
    }
    (count, names)
}

#[test]
fn a_mesh_is_drawn_when_it_and_every_group_above_it_are_visible() {
    let loaded = scenedec::load(MODEL.as_bytes(), Some("bbmodel"), &Options::default()).unwrap();
    let scene = loaded.scene();
    let mut drawn: Vec<(&str, bool)> = scene
        .meshes()
        .iter()
        .map(|m| (scene.text(m.name), scene.mesh_drawn(m)))
        .collect();
    drawn.sort();
    assert_eq!(
        drawn,
        [
            ("hidden", false),
            ("in_hidden_group", false),
            ("shown", true)
        ]
    );
    assert_eq!(scene.triangle_count(), 6);
    assert_eq!(scene.hidden_triangle_count(), 4);
}

#[test]
fn hidden_parts_are_left_out_by_default_and_kept_flagged_on_request() {
    let loaded = scenedec::load(MODEL.as_bytes(), Some("bbmodel"), &Options::default()).unwrap();
    let scene = loaded.scene();
    let out = export(&scene, "m", &ExportOptions::default()).unwrap();
    assert_eq!(
        triangles(&out.main),
        (2, vec![(String::from("(root)"), vec![(2, false)])])
    );
    assert_eq!(
        (
            out.summary.hidden_meshes,
            out.summary.hidden_triangles,
            out.summary.drawn_triangles
        ),
        (2, 4, 2)
    );
    // The groups stay: clips may move them, and a hidden group is a node.
    let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
    let nodes: Vec<&str> = gltf.nodes().filter_map(|n| n.name()).collect();
    assert!(
        nodes.contains(&"off") && nodes.contains(&"inner"),
        "{nodes:?}"
    );

    let keep = ExportOptions {
        hidden: Hidden::Keep,
        ..ExportOptions::default()
    };
    let out = export(&scene, "m", &keep).unwrap();
    let (count, mut meshes) = triangles(&out.main);
    meshes.sort();
    assert_eq!(count, 6);
    // Kept parts stay separable: meshes of their own, flagged (hidden.rs).
    assert_eq!(
        meshes,
        [
            (String::from("(root)"), vec![(2, false)]),
            (String::from("(root) (hidden)"), vec![(2, true)]),
            (String::from("inner (hidden)"), vec![(2, true)]),
        ],
        "a part not drawn, for its own flag or a group's, is a flagged primitive"
    );
    // The default scene draws what Blockbench draws; scene 1 everything.
    let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
    assert_eq!(scene_triangles(&gltf, 0), (Some("drawn"), 2));
    assert_eq!(scene_triangles(&gltf, 1), (Some("drawn and hidden"), 6));
    assert_eq!(gltf.scenes().count(), 2);
    assert_eq!(
        out.summary.hidden_nodes, 3,
        "copies of off, inner and (root)'s place"
    );
    // Nothing hidden: one scene, as before.
    let shown = MODEL.replace(r#","visibility":false"#, "");
    let loaded = scenedec::load(shown.as_bytes(), Some("bbmodel"), &Options::default()).unwrap();
    let out = export(&loaded.scene(), "m", &keep).unwrap();
    let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
    assert_eq!(gltf.scenes().count(), 1);
    assert_eq!(scene_triangles(&gltf, 0), (None, 6));
}

/// The name of scene `index` and the triangles a reader showing it draws:
/// the meshes of every node reached from its roots.
fn scene_triangles(gltf: &gltf::Gltf, index: usize) -> (Option<&str>, usize) {
    let scene = gltf.scenes().nth(index).expect("the scene");
    let mut stack: Vec<gltf::Node> = scene.nodes().collect();
    let mut count = 0;
    while let Some(node) = stack.pop() {
        if let Some(mesh) = node.mesh() {
            count += mesh
                .primitives()
                .map(|p| p.indices().map_or(0, |a| a.count() / 3))
                .sum::<usize>();
        }
        stack.extend(node.children());
    }
    (scene.name(), count)
}

/// The world matrix of every node scene `index` reaches, by node index.
fn scene_worlds(gltf: &gltf::Gltf, index: usize) -> Vec<Option<support::gltf_read::M>> {
    use support::gltf_read::{IDENTITY, mul, of_f32};
    let mut out = vec![None; gltf.nodes().count()];
    let scene = gltf.scenes().nth(index).expect("the scene");
    let mut stack: Vec<_> = scene.nodes().map(|n| (n, IDENTITY)).collect();
    while let Some((node, above)) = stack.pop() {
        let m = mul(&above, &of_f32(node.transform().matrix()));
        out[node.index()] = Some(m);
        stack.extend(node.children().map(|c| (c, m)));
    }
    out
}

/// The names from a root down to node `i`.
fn name_path(gltf: &gltf::Gltf, i: usize) -> Vec<String> {
    let mut parent = vec![None; gltf.nodes().count()];
    for n in gltf.nodes() {
        for c in n.children() {
            parent[c.index()] = Some(n.index());
        }
    }
    let mut out = Vec::new();
    let mut at = Some(i);
    while let Some(n) = at {
        out.push(gltf.nodes().nth(n).unwrap().name().unwrap_or("").to_owned());
        at = parent[n];
    }
    out.reverse();
    out
}

/// `--hidden keep` on every corpus model that hides parts: the default
/// scene's triangles are the drawn ones (Blockbench draws an element only
/// when it and every group above it are visible), scene 1's all of them;
/// every node only scene 1 has sits where the scene-0 node of the same
/// name path sits, and carries that node's clip channels with the same
/// samplers, so clips move the hidden parts as they move the drawn ones.
#[test]
fn corpus_hidden_parts_are_in_the_second_scene_only_and_move_with_their_bones() {
    let keep = ExportOptions {
        hidden: Hidden::Keep,
        ..ExportOptions::default()
    };
    let mut checked = 0;
    for path in support::corpus_files("bbmodel", &[".bbmodel"]) {
        let name = path.file_name().unwrap().to_str().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let Ok(loaded) = scenedec::load(&bytes, Some("bbmodel"), &support::corpus_options(name))
        else {
            continue;
        };
        let scene = loaded.scene();
        let hidden = scene.hidden_triangle_count();
        if hidden == 0 {
            continue;
        }
        checked += 1;
        let out = export(&scene, "m", &keep).unwrap();
        let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
        let all = scene.triangle_count();
        assert_eq!(scene_triangles(&gltf, 0).1, all - hidden, "{name}: scene 0");
        assert_eq!(scene_triangles(&gltf, 1).1, all, "{name}: scene 1");
        let (drawn, every) = (scene_worlds(&gltf, 0), scene_worlds(&gltf, 1));
        let mut by_path: std::collections::HashMap<Vec<String>, Vec<usize>> =
            std::collections::HashMap::new();
        for (i, w) in drawn.iter().enumerate() {
            if w.is_some() {
                by_path.entry(name_path(&gltf, i)).or_default().push(i);
            }
        }
        let channels = |node: usize| -> Vec<Vec<(usize, String)>> {
            gltf.animations()
                .map(|a| {
                    let mut c: Vec<(usize, String)> = a
                        .channels()
                        .filter(|c| c.target().node().index() == node)
                        .map(|c| (c.sampler().index(), format!("{:?}", c.target().property())))
                        .collect();
                    c.sort();
                    c
                })
                .collect()
        };
        let mut copies = 0;
        for (i, w) in every.iter().enumerate() {
            let Some(w) = w else {
                panic!("{name}: node {i} in no scene 1 tree")
            };
            if drawn[i].is_some() {
                continue;
            }
            copies += 1;
            let p = name_path(&gltf, i);
            let twins = by_path.get(&p);
            let twin = twins.into_iter().flatten().find(|&&t| {
                let o = drawn[t].unwrap();
                (0..4).all(|r| (0..4).all(|c| (o[r][c] - w[r][c]).abs() < 1e-4))
                    && channels(t) == channels(i)
            });
            let is_model_space_mesh = p.last().is_some_and(|n| n == "(root)");
            assert!(
                twin.is_some() || is_model_space_mesh,
                "{name}: the copy {p:?} has no scene-0 twin at its place with its channels"
            );
        }
        assert_eq!(copies, out.summary.hidden_nodes, "{name}");
    }
    if support::corpus_dir().is_some() {
        assert_eq!(checked, 8, "the corpus models that hide parts");
    }
}

#[test]
fn a_model_with_nothing_to_draw_still_has_a_default_scene() {
    let empty =
        r#"{"meta":{"format_version":"4.10","model_format":"free"},"elements":[],"outliner":[]}"#;
    let loaded = scenedec::load(empty.as_bytes(), Some("bbmodel"), &Options::default()).unwrap();
    let out = export(&loaded.scene(), "m", &ExportOptions::default()).unwrap();
    assert_eq!(out.summary.drawn_triangles, 0);
    let gltf = gltf::Gltf::from_slice(&out.main).unwrap();
    let scene = gltf.default_scene().expect("a default scene");
    assert_eq!(
        scene.nodes().count(),
        1,
        "one empty node, so the scene lists one"
    );
    // Everything hidden: the same, a scene with the groups and no mesh.
    let all_hidden = MODEL.replace(r#""e1","e3""#, r#""e3""#).replace(
        r#"{"name":"shown","type":"cube","uuid":"e1","from":[0,0,0],"to":[1,1,1],"faces":{"north":{"uv":[0,0,1,1]}}},"#,
        "",
    );
    let loaded =
        scenedec::load(all_hidden.as_bytes(), Some("bbmodel"), &Options::default()).unwrap();
    let out = export(&loaded.scene(), "m", &ExportOptions::default()).unwrap();
    assert_eq!(triangles(&out.main).0, 0);
    assert_eq!(out.summary.drawn_triangles, 0);
}

fn scenedec(args: &[&str]) -> (i32, String) {
    let (code, out, _) = support::run_scenedec(args);
    (code, out)
}

#[test]
fn convert_says_what_it_left_out_and_warns_when_nothing_is_drawn() {
    let dir = std::env::temp_dir().join(format!("scenedec-visibility-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("m.bbmodel");
    std::fs::write(&model, MODEL).unwrap();
    let glb = dir.join("m.glb");
    let (m, g) = (model.to_str().unwrap(), glb.to_str().unwrap());

    let (code, out) = scenedec(&["convert", m, "-o", g, "--json"]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (
            &v["triangles"],
            &v["hidden_meshes"],
            &v["hidden_triangles"],
            &v["nothing_to_draw"]
        ),
        (&2.into(), &2.into(), &4.into(), &false.into())
    );
    // The same output again: --force replaces it (convert never does unasked).
    let (code, out) = scenedec(&[
        "convert", m, "-o", g, "--force", "--hidden", "keep", "--json",
    ]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["triangles"], 6);
    let (code, out) = scenedec(&["inspect", "--json", m]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (&v["triangles"], &v["hidden_triangles"]),
        (&6.into(), &4.into())
    );

    // Nothing to draw: written (with its scene), exit 0, and a warning.
    let empty = dir.join("e.bbmodel");
    std::fs::write(
        &empty,
        r#"{"meta":{"format_version":"4.10"},"elements":[],"outliner":[]}"#,
    )
    .unwrap();
    let e = empty.to_str().unwrap();
    let (code, out) = scenedec(&["convert", e, "-o", dir.join("e.glb").to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("NOTHING_TO_DRAW"), "{out}");
    let (_, out) = scenedec(&[
        "convert",
        e,
        "-o",
        dir.join("e.glb").to_str().unwrap(),
        "--force",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["nothing_to_draw"], true);
    let _ = std::fs::remove_dir_all(&dir);
}
