//! What the export does with parts the model hides (docs/export.md,
//! Visibility): an element is drawn only when it and every group above it
//! are visible — Blockbench composes visibility through its three.js object
//! tree (`OutlinerElement.visibility` on the element's mesh, a group's on
//! its `THREE.Object3D`, which hides everything under it) — so by default
//! a hidden part is left out, as Blockbench's own glTF exporter leaves it
//! out; `Hidden::Keep` writes it, flagged. A file always has a default
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
    // Kept parts stay separable: primitives of their own, flagged, beside
    // the drawn one on the same node (meshes.rs).
    assert_eq!(
        meshes,
        [
            (String::from("(root)"), vec![(2, false), (2, true)]),
            (String::from("inner"), vec![(2, true)]),
        ],
        "a part not drawn, for its own flag or a group's, is a flagged primitive"
    );
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
