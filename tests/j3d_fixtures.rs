//! The J3D reader, rule by rule: each test builds a small model with
//! `ModelBuilder` (so the input is in the test) and checks the decoded scene
//! exactly. Expected transforms come from an independent f64 reference below,
//! not from the library's own matrix code.

mod support;

use scenedec::scene::{CullMode, GroupFlags, MeshFlags, NodeFlags, Scene};
use scenedec::{ErrorCode, Loaded, Location, Options, WarningCode};
use support::j3d_writer::{
    ArrayDef, JointDef, MaterialDef, ModelBuilder, PacketDef, ShapeDef, attr, display_list_offset,
    draw, enveloped, input, padded, prim,
};

// ---------------------------------------------------------------------------
// Helpers

fn load(bytes: &[u8]) -> Loaded<'_> {
    scenedec::load(bytes, None, &Options::default())
        .unwrap_or_else(|e| panic!("load failed: {e} (at {})", e.at()))
}

fn load_err(bytes: &[u8]) -> scenedec::Error {
    scenedec::load(bytes, None, &Options::default()).expect_err("the model must not load")
}

/// Concatenates the fields of one display-list vertex.
fn vx(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

fn u16be(v: u16) -> [u8; 2] {
    v.to_be_bytes()
}

/// `values` as big-endian f32 bytes.
fn f32s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_be_bytes()).collect()
}

/// `values` as big-endian u16 bytes.
fn u16s(values: &[u16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_be_bytes()).collect()
}

/// One joint, one double-sided material, and one shape of one packet whose
/// vertices carry `attributes`; `arrays` replace the builder's positions.
fn model(arrays: Vec<ArrayDef>, attributes: Vec<(u32, u32)>, dl: Vec<u8>) -> ModelBuilder {
    let mut m = ModelBuilder::single_shape(&[], dl);
    m.arrays = arrays;
    m.shapes[0].attributes = attributes;
    m
}

/// A triangle list of vertices `0..n` that are a POS INDEX16 each.
fn tri_list(n: u16) -> Vec<u8> {
    let vs: Vec<Vec<u8>> = (0..n).map(|i| u16be(i).to_vec()).collect();
    draw(prim::TRIANGLES, &vs)
}

/// The triangles of mesh `m`, as mesh-relative index triples.
fn triangles(scene: &Scene<'_>, m: usize) -> Vec<[u32; 3]> {
    let mesh = scene.meshes()[m];
    let first = mesh.first_index as usize;
    scene.indices()[first..first + mesh.index_count as usize]
        .chunks_exact(3)
        .map(|t| [t[0], t[1], t[2]])
        .collect()
}

/// The positions of mesh `m`.
fn mesh_positions(scene: &Scene<'_>, m: usize) -> Vec<[f32; 3]> {
    let mesh = scene.meshes()[m];
    let first = mesh.first_vertex as usize;
    scene.positions()[first..first + mesh.vertex_count as usize].to_vec()
}

fn assert_close(got: [f32; 3], want: [f64; 3], tol: f64, what: &str) {
    let ok = got
        .iter()
        .zip(want)
        .all(|(g, w)| (f64::from(*g) - w).abs() <= tol);
    assert!(ok, "{what}: got {got:?}, want {want:?} (±{tol})");
}

fn unit(v: [f64; 3]) -> [f64; 3] {
    let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    [v[0] / l, v[1] / l, v[2] / l]
}

fn length(v: [f32; 3]) -> f64 {
    v.iter()
        .map(|c| f64::from(*c) * f64::from(*c))
        .sum::<f64>()
        .sqrt()
}

/// `(b − a) × (c − a)` of scene positions.
fn face_normal(a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> [f64; 3] {
    let d = |p: [f32; 3], q: [f32; 3]| {
        [
            f64::from(p[0] - q[0]),
            f64::from(p[1] - q[1]),
            f64::from(p[2] - q[2]),
        ]
    };
    let (u, v) = (d(b, a), d(c, a));
    [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ]
}

// --- An independent f64 reference for joint matrices (row-major m[row][col]).

type M = [[f64; 4]; 4];

const IDENTITY: M = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

fn mul(a: &M, b: &M) -> M {
    let mut out = [[0.0; 4]; 4];
    for (r, row) in out.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            *v = (0..4).map(|k| a[r][k] * b[k][c]).sum();
        }
    }
    out
}

fn apply(m: &M, p: [f64; 3]) -> [f64; 3] {
    let mut out = [0.0; 3];
    for (r, v) in out.iter_mut().enumerate() {
        *v = m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2] + m[r][3];
    }
    out
}

fn translate(t: [f32; 3]) -> M {
    let mut m = IDENTITY;
    for (r, row) in m.iter_mut().take(3).enumerate() {
        row[3] = f64::from(t[r]);
    }
    m
}

fn scale(s: [f64; 3]) -> M {
    let mut m = IDENTITY;
    for (r, row) in m.iter_mut().take(3).enumerate() {
        row[r] = s[r];
    }
    m
}

/// J3D's s16 angle unit: π / 0x7FFF radians.
fn angle(v: i16) -> f64 {
    f64::from(v) * std::f64::consts::PI / 32767.0
}

/// `Rz · Ry · Rx` (X applied first).
fn rotation(r: [i16; 3]) -> M {
    let (sx, cx) = angle(r[0]).sin_cos();
    let (sy, cy) = angle(r[1]).sin_cos();
    let (sz, cz) = angle(r[2]).sin_cos();
    let rx = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, cx, -sx, 0.0],
        [0.0, sx, cx, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let ry = [
        [cy, 0.0, sy, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [-sy, 0.0, cy, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let rz = [
        [cz, -sz, 0.0, 0.0],
        [sz, cz, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    mul(&rz, &mul(&ry, &rx))
}

fn joint_local(j: &JointDef) -> M {
    let s = j.scale.map(f64::from);
    mul(
        &translate(j.translation),
        &mul(&rotation(j.rotation), &scale(s)),
    )
}

/// A joint's bind world matrix: parent world · local, where under the Maya
/// rule a joint with calc flag 1 is `T · S(parent)⁻¹ · R · S`.
fn joint_world(joints: &[JointDef], j: usize, maya: bool) -> M {
    let joint = &joints[j];
    let Some(p) = joint.parent else {
        return joint_local(joint);
    };
    let local = if maya && joint.calc_flags & 1 != 0 {
        let inv = joints[p].scale.map(|s| 1.0 / f64::from(s));
        let s = joint.scale.map(f64::from);
        mul(
            &translate(joint.translation),
            &mul(&scale(inv), &mul(&rotation(joint.rotation), &scale(s))),
        )
    } else {
        joint_local(joint)
    };
    mul(&joint_world(joints, p, maya), &local)
}

/// The inverse of an affine matrix.
fn inverse(m: &M) -> M {
    let a = |r: usize, c: usize| m[r][c];
    let cof = |r: usize, c: usize| {
        let (r1, r2) = ((r + 1) % 3, (r + 2) % 3);
        let (c1, c2) = ((c + 1) % 3, (c + 2) % 3);
        a(r1, c1) * a(r2, c2) - a(r1, c2) * a(r2, c1)
    };
    let det = a(0, 0) * cof(0, 0) + a(0, 1) * cof(0, 1) + a(0, 2) * cof(0, 2);
    let mut out = IDENTITY;
    for (r, row) in out.iter_mut().take(3).enumerate() {
        for (c, v) in row.iter_mut().take(3).enumerate() {
            *v = cof(c, r) / det;
        }
    }
    let t = [m[0][3], m[1][3], m[2][3]];
    for row in out.iter_mut().take(3) {
        row[3] = -(row[0] * t[0] + row[1] * t[1] + row[2] * t[2]);
    }
    out
}

/// A normal turned by the inverse transpose of `m`, unit length.
fn turn_normal(m: &M, n: [f64; 3]) -> [f64; 3] {
    let inv = inverse(m);
    let mut out = [0.0; 3];
    for (r, v) in out.iter_mut().enumerate() {
        *v = inv[0][r] * n[0] + inv[1][r] * n[1] + inv[2][r] * n[2];
    }
    unit(out)
}

/// A row-major 3×4 matrix (EVP1's layout) as an `M`.
fn from_3x4(m: [f32; 12]) -> M {
    let mut out = IDENTITY;
    for r in 0..3 {
        for c in 0..4 {
            out[r][c] = f64::from(m[r * 4 + c]);
        }
    }
    out
}

/// A scene matrix (column-major f32) as an `M`.
fn from_scene(m: &[f32; 16]) -> M {
    let mut out = [[0.0; 4]; 4];
    for (r, row) in out.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            *v = f64::from(m[c * 4 + r]);
        }
    }
    out
}

fn assert_matrix_close(got: &M, want: &M, tol: f64, what: &str) {
    for r in 0..4 {
        for c in 0..4 {
            assert!(
                (got[r][c] - want[r][c]).abs() <= tol,
                "{what}: [{r}][{c}] got {got:?}, want {want:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// VTX1: positions

/// Positions a triangle of three POS INDEX16 vertices decodes to, with the
/// position array stored as given.
fn positions_of(comp_count: u32, comp_type: u32, shift: u8, data: Vec<u8>) -> Vec<[f32; 3]> {
    let m = model(
        vec![ArrayDef::new(attr::POS, comp_count, comp_type, shift, data)],
        vec![(attr::POS, input::INDEX16)],
        tri_list(3),
    );
    let bytes = m.build();
    let loaded = load(&bytes);
    mesh_positions(&loaded.scene(), 0)
}

#[test]
fn vtx1_pos_xyz_f32_ignores_stored_shift() {
    let data = f32s(&[1.5, -2.25, 3.0, 0.125, 0.0, -7.0, 1000.0, 2.5, -0.75]);
    assert_eq!(
        positions_of(1, 4, 7, data),
        [[1.5, -2.25, 3.0], [0.125, 0.0, -7.0], [1000.0, 2.5, -0.75]]
    );
}

#[test]
fn vtx1_pos_xy_leaves_z_zero() {
    // S16, 4 fraction bits, two components per position.
    let data = u16s(&[0x0010, 0xFFF0, 0x0008, 0x0020, 0x7FFF, 0x8000]);
    assert_eq!(
        positions_of(0, 3, 4, data),
        [[1.0, -1.0, 0.0], [0.5, 2.0, 0.0], [2047.9375, -2048.0, 0.0]]
    );
    let data = f32s(&[1.0, 2.0, -3.0, 4.0, 5.0, 6.0]);
    assert_eq!(
        positions_of(0, 4, 0, data),
        [[1.0, 2.0, 0.0], [-3.0, 4.0, 0.0], [5.0, 6.0, 0.0]]
    );
}

#[test]
fn vtx1_pos_u8_divides_by_two_to_the_shift() {
    let data = vec![8, 12, 255, 0, 1, 128, 16, 32, 64];
    assert_eq!(
        positions_of(1, 0, 3, data),
        [[1.0, 1.5, 31.875], [0.0, 0.125, 16.0], [2.0, 4.0, 8.0]]
    );
}

#[test]
fn vtx1_pos_s8_is_signed_fixed_point() {
    let data = vec![0xFC, 0x7F, 0x80, 0x04, 0xFF, 0x00, 0x01, 0x02, 0x03];
    assert_eq!(
        positions_of(1, 1, 2, data),
        [[-1.0, 31.75, -32.0], [1.0, -0.25, 0.0], [0.25, 0.5, 0.75]]
    );
}

#[test]
fn vtx1_pos_u16_divides_by_two_to_the_shift() {
    let data = u16s(&[0x0180, 0xFFFF, 0x0000, 0x0100, 0x8000, 0x0001, 1, 2, 3]);
    assert_eq!(
        positions_of(1, 2, 8, data),
        [
            [1.5, 65535.0 / 256.0, 0.0],
            [1.0, 128.0, 0.003_906_25],
            [0.003_906_25, 0.007_812_5, 0.011_718_75]
        ]
    );
}

#[test]
fn vtx1_pos_s16_is_signed_fixed_point() {
    let data = u16s(&[0x4000, 0xC000, 0x7FFF, 0x8000, 0xFFFF, 0x0001, 0, 0, 0]);
    assert_eq!(
        positions_of(1, 3, 15, data),
        [
            [0.5, -0.5, 0.999_969_5],
            [-1.0, -0.000_030_517_578, 0.000_030_517_578],
            [0.0, 0.0, 0.0]
        ]
    );
    // Shift 0: plain integers.
    let data = u16s(&[1, 0xFFFE, 300, 0, 0, 0, 0, 0, 0]);
    assert_eq!(positions_of(1, 3, 0, data)[0], [1.0, -2.0, 300.0]);
}

// ---------------------------------------------------------------------------
// VTX1: normals

/// Normals of a triangle whose vertices are POS INDEX16 and NRM INDEX8
/// `0, 1, 2`, under the identity joint.
fn normals_of(nrm: ArrayDef) -> Vec<[f32; 3]> {
    let positions = ArrayDef::positions_f32(&[[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
    let vs: Vec<Vec<u8>> = (0..3u8).map(|i| vx(&[&u16be(i.into()), &[i]])).collect();
    let m = model(
        vec![positions, nrm],
        vec![(attr::POS, input::INDEX16), (attr::NRM, input::INDEX8)],
        draw(prim::TRIANGLES, &vs),
    );
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_ne!(scene.meshes()[0].flags & MeshFlags::HAS_NORMALS, 0);
    scene.normals().to_vec()
}

#[test]
fn vtx1_normal_shift_ignores_stored_15() {
    use scenedec::gx::vertex::{ArrayFormat, ComponentType, VertexAttribute};
    // The shift itself: GX reads 14 fraction bits for 16-bit normals and 6
    // for 8-bit ones, whatever VTX1 stores (real files store 15).
    for (ty, code, want) in [
        (ComponentType::S16, 3, 14),
        (ComponentType::U16, 2, 14),
        (ComponentType::S8, 1, 6),
        (ComponentType::U8, 0, 6),
    ] {
        for stored in [0, 6, 14, 15, 31, 200] {
            assert_eq!(
                ArrayFormat::from_vtx1(VertexAttribute::Normal, 0, code, stored),
                Some(ArrayFormat::Numeric {
                    count: 3,
                    ty,
                    shift: want
                }),
                "type {code}, stored shift {stored}"
            );
        }
    }
    // Through the whole reader. Scene normals are unit length, so the scale
    // cannot show; the direction and the stored 15 (and an absurd 200, which
    // any other attribute refuses) loading prove the stored value is unused.
    for stored in [15, 200] {
        let data = u16s(&[0x4000, 0, 0, 0, 0x3000, 0x4000, 0xC000, 0xC000, 0]);
        let n = normals_of(ArrayDef::new(attr::NRM, 0, 3, stored, data));
        assert_close(n[0], [1.0, 0.0, 0.0], 1e-6, "S16 x");
        assert_close(n[1], [0.0, 0.6, 0.8], 1e-6, "S16 3:4");
        assert_close(n[2], unit([-1.0, -1.0, 0.0]), 1e-6, "S16 negative");
        let data = vec![0x40, 0, 0, 0, 0xD0, 0x40, 0, 0, 0xC0];
        let n = normals_of(ArrayDef::new(attr::NRM, 0, 1, stored, data));
        assert_close(n[0], [1.0, 0.0, 0.0], 1e-6, "S8 x");
        assert_close(n[1], [0.0, -0.6, 0.8], 1e-6, "S8 3:4");
        assert_close(n[2], [0.0, 0.0, -1.0], 1e-6, "S8 -z");
    }
    // A position array with shift 200 is no GX format.
    let m = model(
        vec![ArrayDef::new(attr::POS, 1, 3, 200, vec![0; 6])],
        vec![(attr::POS, input::INDEX16)],
        tri_list(0),
    );
    assert_eq!(load_err(&m.build()).code(), ErrorCode::BadValue);
}

#[test]
fn vtx1_nbt_normal_reads_the_first_three_of_nine() {
    // NRM with component count 1 (NBT) and 2 (NBT3): nine S16 components per
    // element (normal, binormal, tangent); the normal is the first three.
    let e0 = [0x4000, 0, 0, 0, 0, 0x4000, 0, 0x4000, 0];
    let e1 = [0, 0x4000, 0, 0x4000, 0, 0, 0, 0, 0x4000];
    let e2 = [0, 0, 0xC000, 0, 0x4000, 0, 0x4000, 0, 0];
    let data = u16s(&[e0, e1, e2].concat());
    for count in [1, 2] {
        let n = normals_of(ArrayDef::new(attr::NRM, count, 3, 14, data.clone()));
        // Read three components apart, element 1 would be e0's binormal (0, 0, 1).
        assert_close(n[0], [1.0, 0.0, 0.0], 1e-6, "element 0");
        assert_close(n[1], [0.0, 1.0, 0.0], 1e-6, "element 1");
        assert_close(n[2], [0.0, 0.0, -1.0], 1e-6, "element 2");
    }
}

// ---------------------------------------------------------------------------
// VTX1: colours

/// Colour sets of a triangle whose vertices are POS INDEX16 and, for each
/// given colour array, an INDEX8 `0, 1, 2`.
fn colors_of(arrays: Vec<ArrayDef>) -> (u32, Vec<[u8; 4]>) {
    let mut all = vec![ArrayDef::positions_f32(&[[0.0; 3]; 3])];
    let mut attributes = vec![(attr::POS, input::INDEX16)];
    for a in &arrays {
        attributes.push((a.attr, input::INDEX8));
    }
    let sets = arrays.len();
    all.extend(arrays);
    let vs: Vec<Vec<u8>> = (0..3u8)
        .map(|i| {
            let mut v = u16be(i.into()).to_vec();
            v.extend(std::iter::repeat_n(i, sets));
            v
        })
        .collect();
    let m = model(all, attributes, draw(prim::TRIANGLES, &vs));
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let mesh = scene.meshes()[0];
    let first = mesh.first_color as usize;
    let n = mesh.vertex_count as usize * mesh.color_sets as usize;
    (mesh.color_sets, scene.colors()[first..first + n].to_vec())
}

fn clr0(comp_type: u32, data: Vec<u8>) -> Vec<[u8; 4]> {
    let (sets, colors) = colors_of(vec![ArrayDef::new(attr::CLR0, 1, comp_type, 0, data)]);
    assert_eq!(sets, 1);
    colors
}

#[test]
fn clr_rgb565_replicates_bits() {
    assert_eq!(
        clr0(0, vec![0xF8, 0x1F, 0x84, 0x10, 0x07, 0xE0]),
        [[255, 0, 255, 255], [132, 130, 132, 255], [0, 255, 0, 255]]
    );
}

#[test]
fn clr_rgb8_is_opaque() {
    assert_eq!(
        clr0(1, vec![1, 2, 3, 250, 128, 0, 9, 8, 7]),
        [[1, 2, 3, 255], [250, 128, 0, 255], [9, 8, 7, 255]]
    );
}

#[test]
fn clr_rgbx8_ignores_the_fourth_byte() {
    assert_eq!(
        clr0(2, vec![1, 2, 3, 9, 4, 5, 6, 0, 7, 8, 9, 0xFF]),
        [[1, 2, 3, 255], [4, 5, 6, 255], [7, 8, 9, 255]]
    );
}

#[test]
fn clr_rgba4_replicates_nibbles() {
    assert_eq!(
        clr0(3, vec![0x12, 0x3F, 0xF0, 0x0A, 0x00, 0x00]),
        [[0x11, 0x22, 0x33, 0xFF], [0xFF, 0, 0, 0xAA], [0, 0, 0, 0]]
    );
}

#[test]
fn clr_rgba6_replicates_six_bits() {
    // r 63, g 0, b 21 (010101 -> 01010101), a 42 (101010 -> 10101010).
    // Then 32 (100000 -> 10000010) in every channel, then 1 (-> 4).
    assert_eq!(
        clr0(
            4,
            vec![0xFC, 0x05, 0x6A, 0x82, 0x08, 0x20, 0x04, 0x10, 0x41]
        ),
        [[255, 0, 85, 170], [130, 130, 130, 130], [4, 4, 4, 4]]
    );
}

#[test]
fn clr_rgba8_is_as_stored() {
    assert_eq!(
        clr0(5, vec![1, 2, 3, 4, 255, 0, 128, 7, 9, 9, 9, 0]),
        [[1, 2, 3, 4], [255, 0, 128, 7], [9, 9, 9, 0]]
    );
}

#[test]
fn clr0_and_clr1_interleave_per_vertex() {
    let (sets, colors) = colors_of(vec![
        ArrayDef::new(
            attr::CLR0,
            1,
            5,
            0,
            vec![1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3],
        ),
        // CLR1 in RGBA4.
        ArrayDef::new(
            attr::CLR1,
            1,
            3,
            0,
            vec![0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC],
        ),
    ]);
    assert_eq!(sets, 2);
    assert_eq!(
        colors,
        [
            [1, 1, 1, 1],
            [0x11, 0x22, 0x33, 0x44],
            [2, 2, 2, 2],
            [0x55, 0x66, 0x77, 0x88],
            [3, 3, 3, 3],
            [0x99, 0xAA, 0xBB, 0xCC]
        ]
    );
}

#[test]
fn clr1_only_leaves_clr0_white() {
    let (sets, colors) = colors_of(vec![ArrayDef::new(
        attr::CLR1,
        1,
        1,
        0,
        vec![10, 20, 30, 40, 50, 60, 70, 80, 90],
    )]);
    assert_eq!(sets, 2);
    assert_eq!(
        colors,
        [
            [255; 4],
            [10, 20, 30, 255],
            [255; 4],
            [40, 50, 60, 255],
            [255; 4],
            [70, 80, 90, 255]
        ]
    );
}

// ---------------------------------------------------------------------------
// VTX1: texture coordinates

/// UVs (and the mesh's UV set count) of a triangle whose vertices are POS
/// INDEX16 and, per given TEXn array, an INDEX8 `0, 1, 2`.
fn uvs_of(arrays: Vec<ArrayDef>) -> (u32, Vec<[f32; 2]>) {
    let mut all = vec![ArrayDef::positions_f32(&[[0.0; 3]; 3])];
    let mut attributes = vec![(attr::POS, input::INDEX16)];
    for a in &arrays {
        attributes.push((a.attr, input::INDEX8));
    }
    let sets = arrays.len();
    all.extend(arrays);
    let vs: Vec<Vec<u8>> = (0..3u8)
        .map(|i| {
            let mut v = u16be(i.into()).to_vec();
            v.extend(std::iter::repeat_n(i, sets));
            v
        })
        .collect();
    let m = model(all, attributes, draw(prim::TRIANGLES, &vs));
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let mesh = scene.meshes()[0];
    let first = mesh.first_uv as usize;
    let n = mesh.vertex_count as usize * mesh.uv_sets as usize;
    (mesh.uv_sets, scene.uvs()[first..first + n].to_vec())
}

#[test]
fn tex_s_only_leaves_t_zero() {
    // U8 with 4 fraction bits, one component.
    let (sets, uvs) = uvs_of(vec![ArrayDef::new(
        attr::tex(0),
        0,
        0,
        4,
        vec![0x18, 0x01, 0xFF],
    )]);
    assert_eq!(sets, 1);
    assert_eq!(uvs, [[1.5, 0.0], [0.0625, 0.0], [15.9375, 0.0]]);
}

#[test]
fn tex_st_fixed_point_and_float() {
    let (_, uvs) = uvs_of(vec![ArrayDef::new(
        attr::tex(0),
        1,
        3,
        8,
        u16s(&[0x0180, 0xFF80, 0x0100, 0x0000, 0x8000, 0x7FFF]),
    )]);
    assert_eq!(
        uvs,
        [[1.5, -0.5], [1.0, 0.0], [-128.0, 127.996_09]],
        "S16, shift 8"
    );
    let (_, uvs) = uvs_of(vec![ArrayDef::new(
        attr::tex(0),
        1,
        1,
        7,
        vec![0x40, 0xC0, 0x7F, 0x80, 0, 1],
    )]);
    assert_eq!(
        uvs,
        [[0.5, -0.5], [0.992_187_5, -1.0], [0.0, 0.007_812_5]],
        "S8, shift 7"
    );
    let (_, uvs) = uvs_of(vec![ArrayDef::new(
        attr::tex(0),
        1,
        2,
        15,
        u16s(&[0x8000, 0x4000, 0xFFFF, 0, 0, 1]),
    )]);
    assert_eq!(
        uvs,
        [[1.0, 0.5], [1.999_969_5, 0.0], [0.0, 0.000_030_517_578]],
        "U16, shift 15"
    );
    let (_, uvs) = uvs_of(vec![ArrayDef::new(
        attr::tex(0),
        1,
        4,
        9,
        f32s(&[0.25, 0.75, -1.0, 2.0, 0.0, 1.0]),
    )]);
    assert_eq!(
        uvs,
        [[0.25, 0.75], [-1.0, 2.0], [0.0, 1.0]],
        "F32 ignores the shift"
    );
}

#[test]
fn tex0_to_tex7_interleave_per_vertex() {
    // Set s of element i is (s + i/4, 10s + i), stored F32.
    let arrays: Vec<ArrayDef> = (0..8u32)
        .map(|s| {
            let values: Vec<f32> = (0..3)
                .flat_map(|i| [s as f32 + i as f32 / 4.0, 10.0 * s as f32 + i as f32])
                .collect();
            ArrayDef::new(attr::tex(s), 1, 4, 0, f32s(&values))
        })
        .collect();
    let (sets, uvs) = uvs_of(arrays);
    assert_eq!(sets, 8);
    assert_eq!(uvs.len(), 24);
    for i in 0..3 {
        for s in 0..8 {
            assert_eq!(
                uvs[i * 8 + s],
                [s as f32 + i as f32 / 4.0, 10.0 * s as f32 + i as f32],
                "vertex {i}, set {s}"
            );
        }
    }
}

#[test]
fn missing_lower_uv_sets_are_zero() {
    let (sets, uvs) = uvs_of(vec![ArrayDef::new(
        attr::tex(2),
        1,
        4,
        0,
        f32s(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
    )]);
    assert_eq!(sets, 3);
    assert_eq!(
        uvs,
        [
            [0.0, 0.0],
            [0.0, 0.0],
            [1.0, 2.0],
            [0.0, 0.0],
            [0.0, 0.0],
            [3.0, 4.0],
            [0.0, 0.0],
            [0.0, 0.0],
            [5.0, 6.0]
        ]
    );
}

// ---------------------------------------------------------------------------
// SHP1: vertex descriptors and inputs

#[test]
fn index8_and_index16_inputs_pick_their_elements() {
    let positions: Vec<[f32; 3]> = (0..300).map(|i| [i as f32, 0.0, -(i as f32)]).collect();
    let mut m = ModelBuilder::single_shape(
        &positions,
        draw(prim::TRIANGLES, &[vec![1], vec![2], vec![255]]),
    );
    m.shapes[0].attributes = vec![(attr::POS, input::INDEX8)];
    let mut wide = m.shapes[0].clone();
    wide.attributes = vec![(attr::POS, input::INDEX16)];
    wide.packets[0].display_list = padded(draw(
        prim::TRIANGLES,
        &[vec![0x01, 0x00], vec![0x01, 0x2B], vec![0x00, 0x02]],
    ));
    m.shapes.push(wide);
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(
        mesh_positions(&scene, 0),
        [[1.0, 0.0, -1.0], [2.0, 0.0, -2.0], [255.0, 0.0, -255.0]]
    );
    assert_eq!(
        mesh_positions(&scene, 1),
        [[256.0, 0.0, -256.0], [299.0, 0.0, -299.0], [2.0, 0.0, -2.0]]
    );
}

#[test]
fn vertex_layout_follows_attribute_code_order() {
    // Listed TEX0, CLR0, POS; a display-list vertex is POS, CLR0, TEX0 (GX order).
    let m = model(
        vec![
            ArrayDef::positions_f32(&[[1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [3.0, 0.0, 0.0]]),
            ArrayDef::new(attr::CLR0, 1, 5, 0, vec![10, 0, 0, 255, 20, 0, 0, 255]),
            ArrayDef::new(attr::tex(0), 1, 4, 0, f32s(&[0.5, 0.5, 0.25, 0.75])),
        ],
        vec![
            (attr::tex(0), input::INDEX8),
            (attr::CLR0, input::INDEX8),
            (attr::POS, input::INDEX16),
        ],
        draw(
            prim::TRIANGLES,
            &[
                vx(&[&u16be(2), &[1], &[0]]),
                vx(&[&u16be(0), &[0], &[1]]),
                vx(&[&u16be(1), &[1], &[1]]),
            ],
        ),
    );
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(
        mesh_positions(&scene, 0),
        [[3.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]
    );
    assert_eq!(
        scene.colors(),
        [[20, 0, 0, 255], [10, 0, 0, 255], [20, 0, 0, 255]]
    );
    assert_eq!(scene.uvs(), [[0.5, 0.5], [0.25, 0.75], [0.25, 0.75]]);
}

#[test]
fn tex_matrix_index_bytes_are_skipped() {
    // PNMTXIDX, TEX0MTXIDX, TEX1MTXIDX (direct u8 each), then POS INDEX16.
    let m = model(
        vec![ArrayDef::positions_f32(&[
            [1.0, 2.0, 3.0],
            [4.0, 5.0, 6.0],
            [7.0, 8.0, 9.0],
        ])],
        vec![
            (attr::POS, input::INDEX16),
            (attr::TEX0MTXIDX + 1, input::DIRECT),
            (attr::TEX0MTXIDX, input::DIRECT),
            (attr::PNMTXIDX, input::DIRECT),
        ],
        draw(
            prim::TRIANGLES,
            &[
                vx(&[&[0], &[30], &[33], &u16be(0)]),
                vx(&[&[0], &[0x1E], &[0x21], &u16be(1)]),
                vx(&[&[0], &[57], &[60], &u16be(2)]),
            ],
        ),
    );
    let bytes = m.build();
    let loaded = load(&bytes);
    assert_eq!(
        mesh_positions(&loaded.scene(), 0),
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]
    );
}

// ---------------------------------------------------------------------------
// Display lists: primitives and winding

/// Eight positions on the z = 0 plane.
fn plane_points() -> Vec<[f32; 3]> {
    (0..8).map(|i| [i as f32, (i * i) as f32, 0.0]).collect()
}

/// Mesh 0's triangles and vertex count for a display list of POS INDEX16
/// vertices over [`plane_points`].
fn decode_list(dl: Vec<u8>) -> (Vec<[u32; 3]>, u32) {
    let bytes = ModelBuilder::single_shape(&plane_points(), dl).build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(scene.triangle_count() * 3, scene.indices().len());
    (triangles(&scene, 0), scene.meshes()[0].vertex_count)
}

fn seq(n: u16) -> Vec<Vec<u8>> {
    (0..n).map(|i| u16be(i).to_vec()).collect()
}

#[test]
fn quads_0x80_make_two_triangles_per_four() {
    // GX draws (0,1,2) (0,2,3) per quad; the scene swaps the last two.
    assert_eq!(
        decode_list(draw(prim::QUADS, &seq(8))),
        (vec![[0, 2, 1], [0, 3, 2], [4, 6, 5], [4, 7, 6]], 8)
    );
    // A partial quad makes no triangle (its vertices are still decoded).
    assert_eq!(
        decode_list(draw(prim::QUADS, &seq(7))),
        (vec![[0, 2, 1], [0, 3, 2]], 7)
    );
}

#[test]
fn quads_0x88_are_quads_too() {
    assert_eq!(
        decode_list(draw(prim::QUADS2, &seq(4))),
        (vec![[0, 2, 1], [0, 3, 2]], 4)
    );
}

#[test]
fn triangles_0x90_make_n_over_3() {
    assert_eq!(
        decode_list(draw(prim::TRIANGLES, &seq(7))),
        (vec![[0, 2, 1], [3, 5, 4]], 7)
    );
}

#[test]
fn strip_makes_n_minus_2() {
    assert_eq!(
        decode_list(draw(prim::STRIP, &seq(6))),
        (vec![[0, 2, 1], [1, 2, 3], [2, 4, 3], [3, 4, 5]], 6)
    );
    assert_eq!(decode_list(draw(prim::STRIP, &seq(2))), (vec![], 2));
}

#[test]
fn fan_makes_n_minus_2() {
    assert_eq!(
        decode_list(draw(prim::FAN, &seq(5))),
        (vec![[0, 2, 1], [0, 3, 2], [0, 4, 3]], 5)
    );
    assert_eq!(decode_list(draw(prim::FAN, &seq(1))), (vec![], 1));
}

#[test]
fn strip_odd_triangles_keep_facing() {
    // A zigzag strip on z = 0 whose GX triangles are all clockwise seen from
    // +z: every scene triangle must be counter-clockwise seen from +z.
    let points = [
        [0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [2.0, 0.0, 0.0],
        [2.0, 1.0, 0.0],
        [3.0, 0.0, 0.0],
    ];
    let bytes = ModelBuilder::single_shape(&points, draw(prim::STRIP, &seq(7))).build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let p = scene.positions();
    let tris = triangles(&scene, 0);
    assert_eq!(tris.len(), 5);
    for (t, [a, b, c]) in tris.iter().enumerate() {
        let n = face_normal(p[*a as usize], p[*b as usize], p[*c as usize]);
        assert!(
            n[2] > 0.0 && n[0] == 0.0 && n[1] == 0.0,
            "triangle {t}: {n:?}"
        );
    }
}

#[test]
fn fan_triangles_keep_facing() {
    // Centre, then points going clockwise seen from +z.
    let points = [
        [0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, -1.0, 0.0],
    ];
    let bytes = ModelBuilder::single_shape(&points, draw(prim::FAN, &seq(5))).build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let p = scene.positions();
    for [a, b, c] in triangles(&scene, 0) {
        let n = face_normal(p[a as usize], p[b as usize], p[c as usize]);
        assert!(n[2] > 0.0, "{n:?}");
    }
}

#[test]
fn gx_clockwise_front_becomes_counter_clockwise() {
    // GX triangle (a, b, c) = (origin, +y, +x) is clockwise seen from +z, so
    // GX's front faces +z; its vertex normals say so. The scene's front is
    // counter-clockwise: (b − a) × (c − a) of its triangle must agree with
    // the normals.
    let positions = ArrayDef::positions_f32(&[[0.0; 3], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]);
    let normals = ArrayDef::new(attr::NRM, 0, 1, 6, vec![0, 0, 0x40]);
    let vs: Vec<Vec<u8>> = (0..3).map(|i| vx(&[&u16be(i), &[0]])).collect();
    for op in [prim::TRIANGLES, prim::STRIP, prim::FAN] {
        let m = model(
            vec![positions.clone(), normals.clone()],
            vec![(attr::POS, input::INDEX16), (attr::NRM, input::INDEX8)],
            draw(op, &vs),
        );
        let bytes = m.build();
        let loaded = load(&bytes);
        let scene = loaded.scene();
        assert_eq!(triangles(&scene, 0), [[0, 2, 1]], "opcode {op:#x}");
        let p = scene.positions();
        let face = face_normal(p[0], p[2], p[1]);
        let n = scene.normals()[0];
        let dot = face[0] * f64::from(n[0]) + face[1] * f64::from(n[1]) + face[2] * f64::from(n[2]);
        assert!(dot > 0.0, "opcode {op:#x}: face {face:?}, normal {n:?}");
    }
}

#[test]
fn draw_opcode_low_bits_are_the_vertex_format() {
    // 0x93: triangles with VAT 3; 0x87: quads with VAT 7; 0xA5: fan with VAT 5.
    assert_eq!(decode_list(draw(0x93, &seq(3))), (vec![[0, 2, 1]], 3));
    assert_eq!(
        decode_list(draw(0x87, &seq(4))),
        (vec![[0, 2, 1], [0, 3, 2]], 4)
    );
    assert_eq!(
        decode_list(draw(0xA5, &seq(4))),
        (vec![[0, 2, 1], [0, 3, 2]], 4)
    );
}

#[test]
fn lines_line_strips_and_points_warn_and_draw_nothing() {
    let mut dl = draw(prim::LINES, &seq(2)); // at 0, 7 bytes
    dl.extend(draw(prim::LINE_STRIP, &seq(3))); // at 7, 9 bytes
    dl.extend(draw(prim::POINTS, &seq(1))); // at 16, 5 bytes
    dl.extend(draw(prim::TRIANGLES, &seq(3))); // at 21
    let bytes = ModelBuilder::single_shape(&plane_points(), dl).build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(triangles(&scene, 0), [[0, 2, 1]]);
    assert_eq!(scene.meshes()[0].vertex_count, 3, "skipped vertices");
    let list = display_list_offset(&bytes, 0);
    let warnings = loaded.warnings().as_slice();
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    for (w, at) in warnings.iter().zip([0, 7, 16]) {
        assert_eq!(w.code(), WarningCode::UnsupportedPrimitive);
        assert_eq!(
            *w.at(),
            Location::Binary {
                offset: (list + at) as u64,
                section: Some(scenedec::error::SectionId(*b"SHP1")),
            },
            "{}",
            w.message()
        );
    }
    let summary = scenedec::j3d::summary(&bytes, &Default::default()).unwrap();
    assert_eq!(
        summary.primitives,
        scenedec::j3d::PrimitiveCounts {
            triangles: 1,
            lines: 1,
            line_strip: 1,
            points: 1,
            ..Default::default()
        }
    );
}

#[test]
fn matrix_load_commands_are_skipped() {
    let mut dl = vec![0x20, 0xAA, 0xBB, 0xCC, 0xDD];
    dl.extend(draw(prim::TRIANGLES, &seq(3)));
    dl.extend([0x28, 0x90, 0x00, 0x03, 0x00]);
    dl.extend([0x30, 0x98, 0xFF, 0xFF, 0xFF]);
    dl.extend([0x38, 0x00, 0x00, 0x00, 0x00]);
    dl.extend(draw(prim::STRIP, &seq(4)));
    assert_eq!(decode_list(dl), (vec![[0, 2, 1], [3, 5, 4], [4, 5, 6]], 7));
}

#[test]
fn zero_byte_ends_the_display_list() {
    let mut dl = draw(prim::TRIANGLES, &seq(3));
    dl.push(0x00);
    dl.extend([0x61, 0xFF, 0xFF]); // an unknown opcode: never read
    dl.extend(draw(prim::TRIANGLES, &seq(3)));
    assert_eq!(decode_list(dl), (vec![[0, 2, 1]], 3));
}

// ---------------------------------------------------------------------------
// Matrices: joints, slots, envelopes

/// A model whose one shape's vertices are PNMTXIDX (direct) and POS INDEX16,
/// with the given joints, draw matrices and packets.
fn skinned(
    joints: Vec<JointDef>,
    positions: &[[f32; 3]],
    draw_matrices: Vec<(u8, u16)>,
    packets: Vec<PacketDef>,
) -> ModelBuilder {
    let mut m = ModelBuilder::single_shape(positions, Vec::new());
    m.joints = joints;
    m.draw_matrices = draw_matrices;
    m.shapes[0].attributes = vec![(attr::PNMTXIDX, input::DIRECT), (attr::POS, input::INDEX16)];
    m.shapes[0].display_flags = 3;
    m.shapes[0].packets = packets;
    m
}

/// A PNMTXIDX + POS INDEX16 vertex.
fn pv(pnmtx: u8, pos: u16) -> Vec<u8> {
    vx(&[&[pnmtx], &u16be(pos)])
}

fn packet(slots: &[u16], vertices: &[Vec<u8>]) -> PacketDef {
    PacketDef {
        slots: slots.to_vec(),
        display_list: padded(draw(prim::TRIANGLES, vertices)),
    }
}

#[test]
fn rigid_vertex_moves_by_joint_translation_rotation_scale() {
    let mut root = JointDef::new("root", None);
    root.translation = [1.0, 2.0, 3.0];
    root.rotation = [0x2000, 0x1000, -0x3000];
    root.scale = [2.0, 0.5, 1.5];
    let joints = vec![root];
    let points = [[1.0, 1.0, 1.0], [-2.0, 0.5, 4.0], [0.0, 0.0, 0.0]];
    let mut m = ModelBuilder::single_shape(&points, draw(prim::TRIANGLES, &seq(3)));
    m.joints = joints.clone();
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let world = joint_world(&joints, 0, false);
    for (i, p) in points.iter().enumerate() {
        assert_close(
            scene.positions()[i],
            apply(&world, p.map(f64::from)),
            1e-4,
            &format!("vertex {i}"),
        );
    }
    // The node records the joint as stored.
    let node = scene.nodes()[0];
    assert_eq!(node.translation, [1.0, 2.0, 3.0]);
    assert_eq!(node.scale, [2.0, 0.5, 1.5]);
    for (got, raw) in node.rotation.iter().zip([0x2000i16, 0x1000, -0x3000]) {
        assert!((f64::from(*got) - angle(raw)).abs() < 1e-6);
    }
}

#[test]
fn joint_rotation_applies_x_then_y_then_z() {
    let quarter = 0x4000; // 16384 · π / 32767 ≈ π/2
    let case = |rotation: [i16; 3], p: [f32; 3]| {
        let mut root = JointDef::new("root", None);
        root.rotation = rotation;
        let mut m =
            ModelBuilder::single_shape(&[p, [0.0; 3], [0.0; 3]], draw(prim::TRIANGLES, &seq(3)));
        m.joints = vec![root];
        let bytes = m.build();
        load(&bytes).scene().positions()[0]
    };
    // +90° about Y takes +X to −Z.
    assert_close(
        case([0, quarter, 0], [1.0, 0.0, 0.0]),
        [0.0, 0.0, -1.0],
        1e-3,
        "Y",
    );
    // X then Z: +Y → +Z → +Z (Z then X would give −X).
    assert_close(
        case([quarter, 0, quarter], [0.0, 1.0, 0.0]),
        [0.0, 0.0, 1.0],
        1e-3,
        "X then Z",
    );
    // X then Y: +Y → +Z → +X (Y then X would give +Z).
    assert_close(
        case([quarter, quarter, 0], [0.0, 1.0, 0.0]),
        [1.0, 0.0, 0.0],
        1e-3,
        "X then Y",
    );
    // Y then Z: +X → −Z → −Z (Z then Y would give +Y).
    assert_close(
        case([0, quarter, quarter], [1.0, 0.0, 0.0]),
        [0.0, 0.0, -1.0],
        1e-3,
        "Y then Z",
    );
}

#[test]
fn joint_world_matrices_follow_inf1_parent_chain() {
    let mut a = JointDef::new("a", None);
    a.translation = [10.0, 0.0, 0.0];
    a.scale = [2.0, 2.0, 2.0];
    let mut b = JointDef::new("b", Some(0));
    b.translation = [0.0, 5.0, 0.0];
    b.rotation = [0, 0, 0x4000];
    let mut c = JointDef::new("c", Some(1));
    c.translation = [1.0, 0.0, 0.0];
    c.rotation = [0x1234, -0x0800, 0];
    c.scale = [1.0, 3.0, 0.5];
    let joints = vec![a, b, c];
    let points = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, -0.5, 2.0]];
    let mut m = ModelBuilder::single_shape(&points, draw(prim::TRIANGLES, &seq(3)));
    m.joints = joints.clone();
    m.draw_matrices = vec![(0, 2)];
    m.shapes[0].joint = 2;
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let parents: Vec<i32> = scene.nodes().iter().map(|n| n.parent).collect();
    assert_eq!(parents, [-1, 0, 1]);
    let world = joint_world(&joints, 2, false);
    for (i, p) in points.iter().enumerate() {
        assert_close(
            scene.positions()[i],
            apply(&world, p.map(f64::from)),
            1e-4,
            &format!("vertex {i}"),
        );
    }
    // The scene's own world matrix of the node agrees.
    assert_matrix_close(
        &from_scene(&scene.world_matrix(2).0),
        &world,
        1e-4,
        "world_matrix(2)",
    );
}

/// Three joints: the root at the origin, one 100 along X, one 100 along Y.
fn three_joints() -> Vec<JointDef> {
    let mut x = JointDef::new("x", Some(0));
    x.translation = [100.0, 0.0, 0.0];
    let mut y = JointDef::new("y", Some(0));
    y.translation = [0.0, 100.0, 0.0];
    vec![JointDef::new("root", None), x, y]
}

#[test]
fn pnmtxidx_over_3_picks_the_slot() {
    // Slot k holds DRW1 index table[k]: slots 0, 1, 2 → draws 2, 0, 1 →
    // joints y, root, x. PNMTXIDX is 3 × slot (4 and 5 also pick slot 1).
    let m = skinned(
        three_joints(),
        &[[1.0, 2.0, 3.0]],
        vec![(0, 0), (0, 1), (0, 2)],
        vec![packet(
            &[2, 0, 1],
            &[pv(0, 0), pv(3, 0), pv(6, 0), pv(4, 0), pv(5, 0), pv(2, 0)],
        )],
    );
    let bytes = m.build();
    let loaded = load(&bytes);
    assert_eq!(
        mesh_positions(&loaded.scene(), 0),
        [
            [1.0, 102.0, 3.0],
            [1.0, 2.0, 3.0],
            [101.0, 2.0, 3.0],
            [1.0, 2.0, 3.0],
            [1.0, 2.0, 3.0],
            [1.0, 102.0, 3.0]
        ]
    );
}

#[test]
fn packet_slot_ffff_keeps_previous_packet_slot() {
    let m = skinned(
        three_joints(),
        &[[1.0, 2.0, 3.0]],
        vec![(0, 0), (0, 1), (0, 2)],
        vec![
            // Slot 0 → root, slot 1 → x.
            packet(&[0, 1], &[pv(0, 0), pv(3, 0), pv(0, 0)]),
            // Slot 0 kept (root), slot 1 → y.
            packet(&[0xFFFF, 2], &[pv(0, 0), pv(3, 0), pv(3, 0)]),
            // Slot 0 → x, slot 1 kept (y).
            packet(&[1], &[pv(0, 0), pv(3, 0), pv(0, 0)]),
        ],
    );
    let bytes = m.build();
    let loaded = load(&bytes);
    let (root, x, y) = ([1.0, 2.0, 3.0], [101.0, 2.0, 3.0], [1.0, 102.0, 3.0]);
    assert_eq!(
        mesh_positions(&loaded.scene(), 0),
        [root, x, root, root, y, y, x, y, x]
    );
}

#[test]
fn matrix_slots_reset_per_shape() {
    let joints = three_joints();
    let draws = vec![(0, 0), (0, 1), (0, 2)];
    let mut m = skinned(
        joints,
        &[[1.0, 2.0, 3.0]],
        draws,
        vec![packet(&[0, 1], &[pv(0, 0), pv(3, 0), pv(3, 0)])],
    );
    // Shape 1 sets only slot 0; its vertex uses slot 1, which shape 0 set.
    let mut second = m.shapes[0].clone();
    second.packets = vec![packet(&[2], &[pv(0, 0), pv(0, 0), pv(3, 0)])];
    m.shapes.push(second);
    let bytes = m.build();
    let e = load_err(&bytes);
    assert_eq!(e.code(), ErrorCode::BadValue, "{e}");
    assert!(e.at().to_string().ends_with("SHP1"), "{}", e.at());
    assert!(e.message().contains("slot 1"), "{}", e.message());
    // Setting it in shape 1 itself loads.
    m.shapes[1].packets = vec![packet(&[2, 0], &[pv(0, 0), pv(0, 0), pv(3, 0)])];
    let bytes = m.build();
    let loaded = load(&bytes);
    assert_eq!(
        mesh_positions(&loaded.scene(), 1),
        [[1.0, 102.0, 3.0], [1.0, 102.0, 3.0], [1.0, 2.0, 3.0]]
    );
}

#[test]
fn vertex_without_pnmtxidx_uses_slot_0() {
    let mut m = ModelBuilder::single_shape(&[[1.0, 2.0, 3.0]], Vec::new());
    m.joints = three_joints();
    m.draw_matrices = vec![(0, 0), (0, 1), (0, 2)];
    m.shapes[0].packets = vec![PacketDef {
        slots: vec![1, 2],
        display_list: padded(draw(prim::TRIANGLES, &[vec![0, 0], vec![0, 0], vec![0, 0]])),
    }];
    let bytes = m.build();
    let loaded = load(&bytes);
    assert_eq!(mesh_positions(&loaded.scene(), 0), [[101.0, 2.0, 3.0]; 3]);
}

#[test]
fn weighted_vertex_is_sum_of_weighted_joint_matrices() {
    let (m, joints, binds) = enveloped();
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    // Σ w · jointWorld · inverseBind (EVP1's matrices).
    let mut blend = [[0.0; 4]; 4];
    for (j, w) in [(0usize, 0.25), (1, 0.75)] {
        let m = mul(&joint_world(&joints, j, false), &from_3x4(binds[j]));
        for r in 0..4 {
            for c in 0..4 {
                blend[r][c] += w * m[r][c];
            }
        }
    }
    assert_close(
        scene.positions()[0],
        apply(&blend, [1.0, 2.0, 3.0]),
        1e-4,
        "weighted position",
    );
    assert_close(
        scene.normals()[0],
        turn_normal(&blend, [0.6, 0.8, 0.0]),
        1e-5,
        "weighted normal",
    );
    // The rigid ones use their joint's world matrix alone.
    let w0 = joint_world(&joints, 0, false);
    let w1 = joint_world(&joints, 1, false);
    assert_close(
        scene.positions()[1],
        apply(&w0, [-1.0, 0.5, 0.0]),
        1e-4,
        "rigid on joint 0",
    );
    assert_close(
        scene.positions()[2],
        apply(&w1, [1.0, 2.0, 3.0]),
        1e-4,
        "rigid on joint 1",
    );
    assert_close(
        scene.normals()[2],
        turn_normal(&w1, [0.6, 0.8, 0.0]),
        1e-5,
        "rigid normal",
    );
    // Influences: every joint and weight of the envelope; rigid ones weight 1.
    let spans = scene.influence_spans();
    assert_eq!(spans.len(), 3);
    let of = |v: usize| {
        let s = spans[v];
        scene.influences()[s.first as usize..(s.first + s.count) as usize]
            .iter()
            .map(|i| (i.joint, i.weight))
            .collect::<Vec<_>>()
    };
    assert_eq!(of(0), [(0, 0.25), (1, 0.75)]);
    assert_eq!(of(1), [(0, 1.0)]);
    assert_eq!(of(2), [(1, 1.0)]);
    assert_eq!(scene.influences().len(), 4);
}

#[test]
fn rigid_vertices_get_one_influence_of_weight_1() {
    let m = skinned(
        three_joints(),
        &[[0.0; 3]],
        vec![(0, 0), (0, 1), (0, 2)],
        vec![packet(&[2, 1, 0], &[pv(0, 0), pv(3, 0), pv(6, 0)])],
    );
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let got: Vec<(u32, u32, u32, f32)> = scene
        .influence_spans()
        .iter()
        .map(|s| {
            let i = scene.influences()[s.first as usize];
            (s.first, s.count, i.joint, i.weight)
        })
        .collect();
    assert_eq!(got, [(0, 1, 2, 1.0), (1, 1, 1, 1.0), (2, 1, 0, 1.0)]);
    assert_eq!(scene.meshes()[0].skin, 0);
    assert_eq!(scene.meshes()[0].first_influence_span, 0);
}

#[test]
fn skin_inverse_binds_invert_bind_world_matrices() {
    let (m, joints, _) = enveloped();
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(scene.skins().len(), 1);
    assert_eq!(scene.skins()[0].first_joint, 0);
    assert_eq!(scene.skins()[0].joint_count, 2);
    assert_eq!(scene.skin_joints(), [0, 1]);
    for j in 0..2 {
        let world = joint_world(&joints, j, false);
        let got = from_scene(&scene.inverse_binds()[j]);
        assert_matrix_close(&got, &inverse(&world), 1e-5, &format!("joint {j}"));
        assert_matrix_close(
            &mul(&got, &world),
            &IDENTITY,
            1e-5,
            &format!("joint {j} · world"),
        );
    }
    assert_eq!(scene.meshes()[0].node, -1, "bind-pose model space");
}

#[test]
fn normals_use_inverse_transpose_and_are_unit() {
    let mut root = JointDef::new("root", None);
    root.scale = [2.0, 1.0, 1.0];
    let mut turned = JointDef::new("turned", Some(0));
    turned.rotation = [0x0700, 0x1100, -0x2200];
    turned.scale = [0.5, 3.0, 1.0];
    let joints = vec![root, turned];
    let mut m = ModelBuilder::single_shape(&[[0.0; 3]], Vec::new());
    m.joints = joints.clone();
    m.draw_matrices = vec![(0, 0), (0, 1)];
    // S16 normals, 14 fraction bits: (1, 1, 0)/√2-ish and (0, 0.6, 0.8).
    m.arrays.push(ArrayDef::new(
        attr::NRM,
        0,
        3,
        14,
        u16s(&[0x2D41, 0x2D41, 0, 0, 0x2666, 0x3333]),
    ));
    m.shapes[0].attributes = vec![
        (attr::PNMTXIDX, input::DIRECT),
        (attr::POS, input::INDEX16),
        (attr::NRM, input::INDEX8),
    ];
    let v = |slot: u8, n: u8| vx(&[&[3 * slot], &u16be(0), &[n]]);
    m.shapes[0].packets = vec![PacketDef {
        slots: vec![0, 1],
        display_list: padded(draw(prim::TRIANGLES, &[v(0, 0), v(1, 0), v(1, 1)])),
    }];
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let n0 = [0x2D41 as f64, 0x2D41 as f64, 0.0];
    let n1 = [0.0, 0x2666 as f64, 0x3333 as f64];
    // Scale (2, 1, 1) tilts (1, 1, 0) towards y: (0.5, 1, 0) normalised.
    assert_close(scene.normals()[0], unit([0.5, 1.0, 0.0]), 1e-5, "scaled");
    let w1 = joint_world(&joints, 1, false);
    assert_close(scene.normals()[1], turn_normal(&w1, n0), 1e-5, "turned 0");
    assert_close(scene.normals()[2], turn_normal(&w1, n1), 1e-5, "turned 1");
    for n in scene.normals() {
        assert!((length(*n) - 1.0).abs() < 1e-5, "{n:?}");
    }
}

/// A scaled root and a turned, scaled child flagged for segment-scale
/// compensation, with a grandchild; vertices on the child and grandchild.
fn ssc_model(rule: u16) -> (Vec<u8>, Vec<JointDef>) {
    let mut root = JointDef::new("root", None);
    root.scale = [2.0, 4.0, 0.5];
    root.translation = [1.0, 0.0, 0.0];
    let mut child = JointDef::new("child", Some(0));
    child.calc_flags = 1;
    child.translation = [1.0, 1.0, 1.0];
    child.rotation = [0, 0, 0x2000];
    child.scale = [1.0, 1.5, 1.0];
    let mut grandchild = JointDef::new("grandchild", Some(1));
    grandchild.translation = [0.0, 2.0, 0.0];
    let joints = vec![root, child, grandchild];
    let mut m = skinned(
        joints.clone(),
        &[[0.0, 1.0, 0.0], [1.0, 1.0, 1.0]],
        vec![(0, 1), (0, 2)],
        vec![packet(&[0, 1], &[pv(0, 0), pv(0, 1), pv(3, 0)])],
    );
    m.scaling_rule = rule;
    (m.build(), joints)
}

#[test]
fn maya_segment_scale_compensation_undoes_parent_scale() {
    let (bytes, joints) = ssc_model(2);
    let loaded = load(&bytes);
    let scene = loaded.scene();
    // child = root · T · S(root)⁻¹ · R · S: the translation keeps the parent's
    // scale, the child's own axes do not.
    let child = joint_world(&joints, 1, true);
    let grandchild = joint_world(&joints, 2, true);
    assert_close(
        scene.positions()[0],
        apply(&child, [0.0, 1.0, 0.0]),
        1e-4,
        "on child",
    );
    assert_close(
        scene.positions()[1],
        apply(&child, [1.0, 1.0, 1.0]),
        1e-4,
        "on child",
    );
    assert_close(
        scene.positions()[2],
        apply(&grandchild, [0.0, 1.0, 0.0]),
        1e-4,
        "on grandchild",
    );
    // A plain product would differ.
    let plain = apply(&joint_world(&joints, 1, false), [0.0, 1.0, 0.0]);
    assert!((f64::from(scene.positions()[0][1]) - plain[1]).abs() > 0.1);
    // The node says so, and its world matrix agrees.
    assert_ne!(
        scene.nodes()[1].flags & NodeFlags::SEGMENT_SCALE_COMPENSATE,
        0
    );
    assert_eq!(
        scene.nodes()[0].flags & NodeFlags::SEGMENT_SCALE_COMPENSATE,
        0
    );
    assert_matrix_close(
        &from_scene(&scene.world_matrix(1).0),
        &child,
        1e-4,
        "world_matrix(1)",
    );
    assert_matrix_close(
        &from_scene(&scene.inverse_binds()[2]),
        &inverse(&grandchild),
        1e-4,
        "inverse bind of the grandchild",
    );
}

#[test]
fn ssc_flag_is_ignored_under_basic_and_xsi_rules() {
    for rule in [0, 1] {
        let (bytes, joints) = ssc_model(rule);
        let loaded = load(&bytes);
        let scene = loaded.scene();
        assert_close(
            scene.positions()[0],
            apply(&joint_world(&joints, 1, false), [0.0, 1.0, 0.0]),
            1e-4,
            &format!("rule {rule}"),
        );
        assert_close(
            scene.positions()[2],
            apply(&joint_world(&joints, 2, false), [0.0, 1.0, 0.0]),
            1e-4,
            &format!("rule {rule}"),
        );
        assert_eq!(
            scene.nodes()[1].flags & NodeFlags::SEGMENT_SCALE_COMPENSATE,
            0,
            "rule {rule}"
        );
    }
}

#[test]
fn joint_names_and_parents_in_jnt1_order() {
    // JNT1 order: hip (under root), knee (under hip), root. INF1 names them
    // root, hip, knee: parents come first in the stream, not in JNT1.
    let mut hip = JointDef::new("hip", Some(2));
    hip.translation = [0.0, 3.0, 0.0];
    hip.rotation = [0, 0, 0x1000];
    let mut knee = JointDef::new("knee", Some(0));
    knee.translation = [0.0, -2.0, 0.0];
    let mut root = JointDef::new("root", None);
    root.translation = [5.0, 0.0, 0.0];
    let joints = vec![hip, knee, root];
    let mut m = ModelBuilder::single_shape(&[[1.0, 0.0, 0.0]], Vec::new());
    m.joints = joints.clone();
    m.draw_matrices = vec![(0, 1)];
    m.shapes[0].joint = 2;
    m.shapes[0].packets[0].display_list =
        padded(draw(prim::TRIANGLES, &[vec![0, 0], vec![0, 0], vec![0, 0]]));
    assert_eq!(
        m.default_hierarchy()
            .iter()
            .filter(|n| n.0 == 0x10)
            .map(|n| n.1)
            .collect::<Vec<_>>(),
        [2, 0, 1]
    );
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let nodes: Vec<(&str, i32)> = scene
        .nodes()
        .iter()
        .map(|n| (scene.text(n.name), n.parent))
        .collect();
    assert_eq!(nodes, [("hip", 2), ("knee", 0), ("root", -1)]);
    assert_close(
        scene.positions()[0],
        apply(&joint_world(&joints, 1, false), [1.0, 0.0, 0.0]),
        1e-4,
        "knee",
    );
}

#[test]
fn joint_names_that_are_not_utf8_are_replaced() {
    let mut m = ModelBuilder::single_shape(&[[0.0; 3]], tri_list(0));
    m.joints = vec![JointDef::new("bQd", None)];
    let mut bytes = m.build();
    let at = bytes
        .windows(4)
        .position(|w| w == b"bQd\0")
        .expect("the name is in the file");
    bytes[at + 1] = 0xFF;
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(scene.text(scene.nodes()[0].name), "b\u{FFFD}d");
}

#[test]
fn shape_group_material_is_the_inf1_material_before_it() {
    let mut m = ModelBuilder::single_shape(&[[0.0; 3]], draw(prim::TRIANGLES, &seq(0)));
    m.materials = vec![
        MaterialDef {
            name: "zero".into(),
            cull: 2,
        },
        MaterialDef {
            name: "one".into(),
            cull: 2,
        },
    ];
    let shape = m.shapes[0].clone();
    m.shapes = vec![shape.clone(), shape.clone(), shape.clone(), shape];
    // J0 { M1 { S0 } M0 { S1 S2 } } S3 — the last material named before S3 is M0.
    m.hierarchy = Some(vec![
        (0x10, 0),
        (0x01, 0),
        (0x11, 1),
        (0x01, 0),
        (0x12, 0),
        (0x02, 0),
        (0x11, 0),
        (0x01, 0),
        (0x12, 1),
        (0x12, 2),
        (0x02, 0),
        (0x02, 0),
        (0x12, 3),
        (0x00, 0),
    ]);
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let groups: Vec<i32> = scene.groups().iter().map(|g| g.material).collect();
    assert_eq!(groups, [1, 0, 0, 0]);
    let names: Vec<&str> = scene
        .materials()
        .iter()
        .map(|m| scene.text(m.name))
        .collect();
    assert_eq!(names, ["zero", "one"]);
    // A shape with no material before it has none.
    m.hierarchy = Some(vec![
        (0x10, 0),
        (0x01, 0),
        (0x12, 0),
        (0x11, 1),
        (0x12, 1),
        (0x12, 2),
        (0x12, 3),
        (0x02, 0),
        (0x00, 0),
    ]);
    let bytes = m.build();
    let loaded = load(&bytes);
    let groups: Vec<(i32, u32)> = loaded
        .scene()
        .groups()
        .iter()
        .map(|g| (g.material, g.flags))
        .collect();
    assert_eq!(groups, [(-1, 0), (1, 0), (1, 0), (1, 0)]);
}

#[test]
fn mat3_cull_none_makes_group_double_sided() {
    let mut m = ModelBuilder::single_shape(&[[0.0; 3]; 3], draw(prim::TRIANGLES, &seq(3)));
    m.materials = (0..4)
        .map(|cull| MaterialDef {
            name: format!("cull{cull}"),
            cull,
        })
        .collect();
    let shape = m.shapes[0].clone();
    m.shapes = (0..4)
        .map(|i| ShapeDef {
            material: i,
            ..shape.clone()
        })
        .collect();
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let culls: Vec<CullMode> = scene.materials().iter().map(|m| m.cull()).collect();
    // GX: 0 none, 1 front, 2 back, 3 all.
    assert_eq!(
        culls,
        [
            CullMode::None,
            CullMode::Front,
            CullMode::Back,
            CullMode::All
        ]
    );
    let groups: Vec<(i32, u32)> = scene
        .groups()
        .iter()
        .map(|g| (g.material, g.flags))
        .collect();
    assert_eq!(
        groups,
        [(0, GroupFlags::DOUBLE_SIDED), (1, 0), (2, 0), (3, 0)]
    );
    for material in scene.materials() {
        assert_eq!(material.texture, -1);
    }
}

#[test]
fn mesh_records_index_the_shared_arrays() {
    let mut m = ModelBuilder::single_shape(
        &[[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]],
        Vec::new(),
    );
    m.arrays
        .push(ArrayDef::new(attr::NRM, 0, 1, 6, vec![0, 0, 0x40]));
    m.arrays
        .push(ArrayDef::new(attr::CLR0, 1, 5, 0, vec![9; 4]));
    m.arrays
        .push(ArrayDef::new(attr::tex(0), 1, 4, 0, f32s(&[0.5, 0.25])));
    m.arrays
        .push(ArrayDef::new(attr::tex(1), 1, 4, 0, f32s(&[0.75, 1.0])));
    let first = m.shapes[0].clone();
    // Shape 0: POS, CLR0, TEX0; a triangle.
    m.shapes[0].attributes = vec![
        (attr::POS, input::INDEX16),
        (attr::CLR0, input::INDEX8),
        (attr::tex(0), input::INDEX8),
    ];
    m.shapes[0].packets[0].display_list = padded(draw(
        prim::TRIANGLES,
        &(0..3)
            .map(|i| vx(&[&u16be(i), &[0], &[0]]))
            .collect::<Vec<_>>(),
    ));
    // Shape 1: POS, NRM, TEX1; a quad.
    let mut second = first;
    second.attributes = vec![
        (attr::POS, input::INDEX16),
        (attr::NRM, input::INDEX8),
        (attr::tex(1), input::INDEX8),
    ];
    second.packets[0].display_list = padded(draw(
        prim::QUADS,
        &(0..4)
            .map(|i| vx(&[&u16be(i), &[0], &[0]]))
            .collect::<Vec<_>>(),
    ));
    m.shapes.push(second);
    let bytes = m.build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    let m0 = scene.meshes()[0];
    let m1 = scene.meshes()[1];
    let fields = |m: scenedec::scene::MeshRecord| {
        [
            m.first_vertex,
            m.vertex_count,
            m.first_index,
            m.index_count,
            m.first_group,
            m.group_count,
            m.uv_sets,
            m.first_uv,
            m.color_sets,
            m.first_color,
            m.first_influence_span,
        ]
    };
    assert_eq!(fields(m0), [0, 3, 0, 3, 0, 1, 1, 0, 1, 0, 0]);
    assert_eq!(fields(m1), [3, 4, 3, 6, 1, 1, 2, 3, 0, 3, 3]);
    assert_eq!((m0.node, m0.skin, m1.node, m1.skin), (-1, 0, -1, 0));
    assert_eq!(m0.flags, MeshFlags::VISIBLE);
    assert_eq!(m1.flags, MeshFlags::VISIBLE | MeshFlags::HAS_NORMALS);
    let groups: Vec<(u32, u32)> = scene
        .groups()
        .iter()
        .map(|g| (g.first_index, g.index_count))
        .collect();
    assert_eq!(groups, [(0, 3), (3, 6)]);
    // Indices are relative to each mesh's first vertex.
    assert_eq!(scene.indices(), [0, 2, 1, 0, 2, 1, 0, 3, 2]);
    assert_eq!(scene.uvs().len(), 3 + 4 * 2);
    assert_eq!(scene.uvs()[3..5], [[0.0, 0.0], [0.75, 1.0]]);
    assert_eq!(scene.colors().len(), 3);
    assert_eq!(scene.influence_spans().len(), 7);
    assert_eq!(scene.normals()[3], [0.0, 0.0, 1.0]);
}

#[test]
fn yaz0_wrapped_model_decodes_identically() {
    let (m, _, _) = enveloped();
    let mut m = m;
    m.arrays.push(ArrayDef::new(
        attr::CLR0,
        1,
        4,
        0,
        vec![0xFC, 0x05, 0x6A, 1, 2, 3],
    ));
    m.arrays.push(ArrayDef::new(
        attr::tex(0),
        1,
        3,
        8,
        u16s(&[0x0180, 0xFF80]),
    ));
    m.shapes[0]
        .attributes
        .extend([(attr::CLR0, input::INDEX8), (attr::tex(0), input::INDEX8)]);
    let v = |slot: u8, p: u16, n: u8| vx(&[&[3 * slot], &u16be(p), &[n], &[n], &[0]]);
    let mut dl = draw(
        prim::STRIP,
        &[v(0, 0, 1), v(1, 1, 0), v(2, 0, 1), v(1, 1, 1)],
    );
    dl.extend(draw(prim::POINTS, &[v(0, 0, 0)]));
    m.shapes[0].packets[0].display_list = padded(dl);
    let raw = m.build();
    let packed = scenedec::yaz0::compress(&raw);
    assert_ne!(packed, raw);
    let a = load(&raw);
    let b = load(&packed);
    let (sa, sb) = (a.scene(), b.scene());
    assert_eq!(sa.input(), sb.input());
    assert_eq!(sa.nodes(), sb.nodes());
    assert_eq!(sa.meshes(), sb.meshes());
    assert_eq!(sa.groups(), sb.groups());
    assert_eq!(sa.positions(), sb.positions());
    assert_eq!(sa.normals(), sb.normals());
    assert_eq!(sa.uvs(), sb.uvs());
    assert_eq!(sa.colors(), sb.colors());
    assert_eq!(sa.indices(), sb.indices());
    assert_eq!(sa.materials(), sb.materials());
    assert_eq!(sa.skins(), sb.skins());
    assert_eq!(sa.skin_joints(), sb.skin_joints());
    assert_eq!(sa.inverse_binds(), sb.inverse_binds());
    assert_eq!(sa.influence_spans(), sb.influence_spans());
    assert_eq!(sa.influences(), sb.influences());
    assert_eq!(sa.text_pool(), sb.text_pool());
    assert_eq!(a.warnings().as_slice(), b.warnings().as_slice());
    assert_eq!(a.warnings().as_slice().len(), 1);
    assert_eq!(sa.triangle_count(), 2);
    let names: Vec<&str> = sb.nodes().iter().map(|n| sb.text(n.name)).collect();
    assert_eq!(names, ["a", "b"]);
}

/// Short strips are filled in blocks gathered across primitives and
/// packets (each vertex keeps the draw matrix of its own packet's slots),
/// and a long strip in whole blocks in place plus a tail: positions and
/// triangles come out in display-list order whatever the block bounds.
#[test]
fn short_strips_across_blocks_and_packets_keep_their_order_and_matrices() {
    let points: Vec<[f32; 3]> = (0..60).map(|i| [i as f32, 0.0, 0.0]).collect();
    let offsets = [[0.0, 0.0, 0.0], [100.0, 0.0, 0.0], [0.0, 100.0, 0.0]];
    // (slots, strip lengths) per packet; the last is one long strip.
    let plan: [(&[u16], &[usize]); 3] = [
        (&[0, 1], &[3, 5, 4, 7, 3, 6, 5, 4]),
        (&[2, 0xFFFF], &[4, 3, 9, 5, 3, 8]),
        (&[1, 2], &[71]),
    ];
    let mut packets = Vec::new();
    let mut expected_positions = Vec::new();
    let mut expected_triangles = Vec::new();
    let mut n = 0u32;
    for (p, (slots, strips)) in plan.iter().enumerate() {
        let mut dl = Vec::new();
        for &len in strips.iter() {
            let vertices: Vec<Vec<u8>> = (0..len)
                .map(|k| {
                    let slot = (k + p) % 2;
                    let pos = (n as usize + k * 7) % points.len();
                    // Packet 1's slot 1 keeps packet 0's draw matrix 1.
                    let draw = if p == 1 && slot == 1 { 1 } else { slots[slot] };
                    let [x, y, z] = points[pos];
                    let o = offsets[usize::from(draw)];
                    expected_positions.push([x + o[0], y + o[1], z + o[2]]);
                    pv(3 * slot as u8, pos as u16)
                })
                .collect();
            for t in 0..len as u32 - 2 {
                expected_triangles.push(if t % 2 == 0 {
                    [n + t, n + t + 2, n + t + 1]
                } else {
                    [n + t, n + t + 1, n + t + 2]
                });
            }
            n += len as u32;
            dl.extend(draw(prim::STRIP, &vertices));
        }
        packets.push(PacketDef {
            slots: slots.to_vec(),
            display_list: padded(dl),
        });
    }
    let bytes = skinned(
        three_joints(),
        &points,
        vec![(0, 0), (0, 1), (0, 2)],
        packets,
    )
    .build();
    let loaded = load(&bytes);
    let scene = loaded.scene();
    assert_eq!(mesh_positions(&scene, 0), expected_positions);
    assert_eq!(triangles(&scene, 0), expected_triangles);
}
