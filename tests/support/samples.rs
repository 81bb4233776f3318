//! The sample models bundled with the `scenedec` command and the no_std
//! program. `tests/samples.rs` regenerates them and checks the committed
//! files in `samples/` are current.

use super::j3d_writer::{J3dWriter, PutBe};

/// A Blockbench file with one group and one textured-less cube (format 4.10).
pub fn cube_bbmodel() -> Vec<u8> {
    r#"{
  "meta": {"format_version": "4.10", "model_format": "free", "box_uv": false},
  "name": "cube",
  "resolution": {"width": 16, "height": 16},
  "elements": [
    {"name": "cube", "type": "cube", "uuid": "5f0c6a2e-0000-4000-8000-000000000001",
     "from": [-4, 0, -4], "to": [4, 8, 4], "origin": [0, 0, 0], "rotation": [0, 45, 0],
     "faces": {
       "north": {"uv": [0, 0, 8, 8]}, "east": {"uv": [0, 0, 8, 8]},
       "south": {"uv": [0, 0, 8, 8]}, "west": {"uv": [0, 0, 8, 8]},
       "up": {"uv": [8, 8, 0, 0]}, "down": {"uv": [8, 0, 0, 8]}
     }}
  ],
  "outliner": [
    {"name": "body", "uuid": "5f0c6a2e-0000-4000-8000-000000000002", "origin": [0, 0, 0],
     "rotation": [0, 0, 0], "children": ["5f0c6a2e-0000-4000-8000-000000000001"]}
  ],
  "textures": []
}
"#
    .as_bytes()
    .to_vec()
}

/// A J3D `.bmd` with every model section present and (for now) empty tables:
/// zero joints, shapes, materials and textures.
pub fn triangle_bmd() -> Vec<u8> {
    let mut inf1 = Vec::new();
    inf1.u16(0).u16(0xFFFF).u32(1).u32(3).u32(0x18);
    // Hierarchy: joint 0, end.
    inf1.u16(0x10).u16(0).u16(0x00).u16(0);
    let mut counted = Vec::new();
    counted.u16(0).u16(0xFFFF);
    J3dWriter::bmd()
        .section(b"INF1", inf1)
        .section(b"VTX1", Vec::new())
        .section(b"EVP1", counted.clone())
        .section(b"DRW1", counted.clone())
        .section(b"JNT1", counted.clone())
        .section(b"SHP1", counted.clone())
        .section(b"MAT3", counted.clone())
        .section(b"TEX1", counted)
        .finish()
}

/// `triangle_bmd` wrapped in Yaz0, as games ship it (`.szs`).
pub fn triangle_bmd_szs() -> Vec<u8> {
    scenedec::yaz0::compress(&triangle_bmd())
}

/// Every sample: its path under the project root and its bytes.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("samples/cube.bbmodel", cube_bbmodel()),
        ("samples/triangle.bmd", triangle_bmd()),
        ("samples/triangle.bmd.szs", triangle_bmd_szs()),
    ]
}
