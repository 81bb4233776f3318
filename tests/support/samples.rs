//! The sample models bundled with the `scenedec` command and the no_std
//! program. `tests/samples.rs` regenerates them and checks the committed
//! files in `samples/` are current.

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

/// A J3D `.bmd` pyramid: two joints (the tip hangs from the second), a
/// colour per corner, a fan for the sides and a quad for the base.
pub fn pyramid_bmd() -> Vec<u8> {
    use super::j3d_writer::{ArrayDef, JointDef, ModelBuilder, attr, draw, input, prim};
    let positions = [
        [0.0, 10.0, 0.0],
        [-5.0, 0.0, -5.0],
        [5.0, 0.0, -5.0],
        [5.0, 0.0, 5.0],
        [-5.0, 0.0, 5.0],
    ];
    let mut colors = Vec::new();
    for c in [
        [255u8, 255, 255, 255],
        [255, 0, 0, 255],
        [0, 255, 0, 255],
        [0, 0, 255, 255],
        [255, 255, 0, 255],
    ] {
        colors.extend_from_slice(&c);
    }
    // Vertex: u16 POS index, u8 CLR0 index.
    let v = |i: u16| {
        let mut b = i.to_be_bytes().to_vec();
        b.push(i as u8);
        b
    };
    let mut dl = draw(prim::FAN, &[v(0), v(1), v(4), v(3), v(2), v(1)]);
    dl.extend(draw(prim::QUADS, &[v(1), v(2), v(3), v(4)]));
    let mut model = ModelBuilder::single_shape(&positions, dl);
    model.arrays.push(ArrayDef {
        attr: attr::CLR0,
        comp_count: 1,
        comp_type: 5,
        shift: 0,
        data: colors,
    });
    model.shapes[0].attributes.push((attr::CLR0, input::INDEX8));
    let mut tip = JointDef::new("tip", Some(0));
    tip.translation = [0.0, 2.0, 0.0];
    model.joints.push(tip);
    model.build()
}

/// `pyramid_bmd` wrapped in Yaz0, as games ship it (`.szs`).
pub fn pyramid_bmd_szs() -> Vec<u8> {
    scenedec::yaz0::compress(&pyramid_bmd())
}

/// Every sample: its path under the project root and its bytes.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("samples/cube.bbmodel", cube_bbmodel()),
        ("samples/pyramid.bmd", pyramid_bmd()),
        ("samples/pyramid.bmd.szs", pyramid_bmd_szs()),
    ]
}
