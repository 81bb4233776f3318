//! Units and axes of the glTF export (docs/export.md, Units and axes): glTF
//! counts metres with +Y up and the asset's front towards +Z. The command
//! line's defaults put Blockbench's 16 pixels to the metre and J3D's
//! centimetres in metres, and turn a .bbmodel (whose front is −Z) to face
//! +Z with one root node; `Axes::Source` and `--scale` keep the source's.

mod support;

use scenedec::Options;
use scenedec::export::gltf::{Axes, Options as ExportOptions, export, metres_per_unit};
use scenedec::scene::Format;

/// One cube whose north face (Blockbench's front, −Z) is drawn.
const MODEL: &str = r#"{"meta":{"format_version":"4.10","model_format":"free"},
 "resolution":{"width":16,"height":16},
 "elements":[{"name":"c","type":"cube","uuid":"e1","from":[0,0,-8],"to":[2,16,-6],"faces":{"north":{"uv":[0,0,1,1]}}}],
 "outliner":[{"name":"body","uuid":"g1","origin":[0,0,0],"children":["e1"]}]}"#;

/// Every vertex of every mesh in world space, as the file places it.
fn world_positions(glb: &[u8]) -> Vec<[f32; 3]> {
    let doc = gltf::Gltf::from_slice(glb).unwrap();
    let blob = doc.blob.clone().unwrap_or_default();
    let scene = doc.default_scene().unwrap();
    let mut out = Vec::new();
    fn visit(node: gltf::Node<'_>, parent: [[f32; 4]; 4], blob: &[u8], out: &mut Vec<[f32; 3]>) {
        let local = node.transform().matrix();
        let mut m = [[0.0f32; 4]; 4];
        for c in 0..4 {
            for r in 0..4 {
                m[c][r] = (0..4).map(|k| parent[k][r] * local[c][k]).sum();
            }
        }
        if let Some(mesh) = node.mesh() {
            for p in mesh.primitives() {
                let reader = p.reader(|_| Some(blob));
                for v in reader.read_positions().unwrap() {
                    out.push(
                        [0, 1, 2]
                            .map(|r| m[0][r] * v[0] + m[1][r] * v[1] + m[2][r] * v[2] + m[3][r]),
                    );
                }
            }
        }
        for child in node.children() {
            visit(child, m, blob, out);
        }
    }
    let identity = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    for node in scene.nodes() {
        visit(node, identity, &blob, &mut out);
    }
    out
}

#[test]
fn metres_are_a_sixteenth_of_a_pixel_and_a_hundredth_of_a_j3d_unit() {
    assert_eq!(metres_per_unit(Format::Bbmodel), 1.0 / 16.0);
    assert_eq!(metres_per_unit(Format::J3d), 1.0 / 100.0);
}

#[test]
fn gltf_axes_turn_a_bbmodel_to_face_plus_z() {
    let loaded = scenedec::load(MODEL.as_bytes(), Some("bbmodel"), &Options::default()).unwrap();
    let scene = loaded.scene();
    let source = export(&scene, "m", &ExportOptions::default()).unwrap();
    let turned = ExportOptions {
        axes: Axes::Gltf,
        scale: metres_per_unit(scene.format()),
        ..ExportOptions::default()
    };
    let turned = export(&scene, "m", &turned).unwrap();
    let a = world_positions(&source.main);
    let b = world_positions(&turned.main);
    assert_eq!(a.len(), 4);
    // The front face lies at z = −8 px in the source, so at +0.5 m turned;
    // every point is the source's turned half about +Y, in metres.
    for (p, q) in a.iter().zip(&b) {
        let want = [-p[0] / 16.0, p[1] / 16.0, -p[2] / 16.0];
        for k in 0..3 {
            assert!(
                (q[k] - want[k]).abs() < 1e-6,
                "{p:?} -> {q:?}, want {want:?}"
            );
        }
    }
    assert!(b.iter().all(|q| (q[2] - 0.5).abs() < 1e-6), "{b:?}");
    let gltf = gltf::Gltf::from_slice(&turned.main).unwrap();
    let roots: Vec<_> = gltf.default_scene().unwrap().nodes().collect();
    assert_eq!(roots.len(), 1);
    assert_eq!(roots[0].name(), Some("m (axes)"));
}

#[test]
fn gltf_axes_leave_a_j3d_model_as_it_faces() {
    let Some(dir) = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/j3d")
        .canonicalize()
        .ok()
    else {
        eprintln!(
            "corpus absent: the check at {}:{} was skipped",
            file!(),
            line!()
        );
        assert!(
            std::env::var("CI").is_err_and(|_| true)
                || std::env::var("CI").as_deref() == Ok("false"),
            "CI needs the corpus"
        );
        return;
    };
    let bytes = std::fs::read(dir.join("smgo_kuribomini.bdl")).unwrap();
    let loaded = scenedec::load(&bytes, Some("bdl"), &Options::default()).unwrap();
    let scene = loaded.scene();
    let source = export(&scene, "k", &ExportOptions::default()).unwrap();
    let gltf_axes = ExportOptions {
        axes: Axes::Gltf,
        ..ExportOptions::default()
    };
    let turned = export(&scene, "k", &gltf_axes).unwrap();
    assert_eq!(source.main, turned.main, "J3D characters face +Z already");
}

#[test]
fn convert_writes_metres_facing_plus_z_unless_told_otherwise() {
    let dir = std::env::temp_dir().join(format!("scenedec-axes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("m.bbmodel");
    std::fs::write(&model, MODEL).unwrap();
    let run = |extra: &[&str], out: &str| {
        let glb = dir.join(out);
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_scenedec"))
            .args([
                "convert",
                model.to_str().unwrap(),
                "-o",
                glb.to_str().unwrap(),
            ])
            .args(extra)
            .output()
            .unwrap();
        assert!(status.status.success(), "{status:?}");
        world_positions(&std::fs::read(glb).unwrap())
    };
    let default = run(&[], "a.glb");
    let source = run(&["--axes", "source", "--scale", "1"], "b.glb");
    for (p, q) in source.iter().zip(&default) {
        assert!((q[0] + p[0] / 16.0).abs() < 1e-6 && (q[2] + p[2] / 16.0).abs() < 1e-6);
        assert!((q[1] - p[1] / 16.0).abs() < 1e-6);
    }
    // 16 px tall: one metre.
    let top = default.iter().map(|p| p[1]).fold(f32::MIN, f32::max);
    assert!((top - 1.0).abs() < 1e-6, "{top}");
    let _ = std::fs::remove_dir_all(&dir);
}
