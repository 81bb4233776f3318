//! One test per rule of the Blockbench loader specification
//! (`shared/seeds/bbmodel-loader-spec.txt`), each named after the rule it
//! pins and checking the scene exactly: positions (model space at rest, the
//! element's own rotation baked in, the group's world matrix NOT applied),
//! normalised UVs, counter-clockwise triangles about the outward normal,
//! normals, group flags, render order, and nodes.
//!
//! The texture rules (render modes, the default texture and layer
//! composite, frame strips) are pinned in `bbmodel_texture_rules.rs`.
//! Out of scope today (not tested here): PNG pixel decoding, animations and
//! `listBbmodelReferences`.

mod support;

use scenedec::scene::{AlphaMode, Blending, GroupFlags, MeshFlags, NodeFlags, Scene, Wrap};
use scenedec::{ErrorCode, Loaded, Options, WarningCode};
use serde_json::json;
use support::bbmodel_builder::{
    Cube, FACES, Face, Group, Mesh, MeshFace, Model, Raw, Texture, Tree, el, png, png_data_uri,
    tree_4x, tree_5x,
};

const DOUBLE: u32 = GroupFlags::DOUBLE_SIDED;
const CAMERA: u32 = GroupFlags::CAMERA_ONLY;

// ---------------------------------------------------------------- helpers

fn load(bytes: &[u8]) -> Loaded<'_> {
    scenedec::load(bytes, Some("bbmodel"), &Options::default())
        .unwrap_or_else(|e| panic!("load failed: {e}\n{}", String::from_utf8_lossy(bytes)))
}

fn load_picked<'a>(
    bytes: &'a [u8],
    files: &[(&str, &[u8])],
) -> Result<Loaded<'a>, scenedec::Error> {
    let mut options = Options::default();
    options.bbmodel.texture_files = files;
    scenedec::load(bytes, Some("bbmodel"), &options)
}

fn error(bytes: &[u8]) -> scenedec::Error {
    match scenedec::load(bytes, Some("bbmodel"), &Options::default()) {
        Ok(_) => panic!(
            "loaded, but an error was expected:\n{}",
            String::from_utf8_lossy(bytes)
        ),
        Err(e) => e,
    }
}

fn code(model: &Model) -> ErrorCode {
    error(&model.bytes()).code()
}

fn warnings(loaded: &Loaded<'_>) -> Vec<(WarningCode, String)> {
    loaded
        .warnings()
        .as_slice()
        .iter()
        .map(|w| (w.code(), w.at().to_string()))
        .collect()
}

/// One triangle as the scene draws it.
#[derive(Clone, Debug, PartialEq)]
struct Tri {
    p: [[f32; 3]; 3],
    uv: [[f32; 2]; 3],
    n: [[f32; 3]; 3],
    material: i32,
    flags: u32,
    order: i32,
    rect: [f32; 4],
}

/// The triangles of mesh `mesh`, group by group.
fn tris(scene: &Scene<'_>, mesh: usize) -> Vec<Tri> {
    let m = scene.meshes()[mesh];
    assert_eq!(m.uv_sets, 1);
    assert_ne!(m.flags & MeshFlags::HAS_NORMALS, 0);
    assert_ne!(m.flags & MeshFlags::HAS_UV_RECTS, 0);
    let groups = &scene.groups()[m.first_group as usize..(m.first_group + m.group_count) as usize];
    let mut out = Vec::new();
    let mut covered = 0;
    for g in groups {
        assert_eq!(g.index_count % 3, 0);
        assert!(g.first_index >= m.first_index);
        assert!(g.first_index + g.index_count <= m.first_index + m.index_count);
        covered += g.index_count;
        for t in 0..g.index_count / 3 {
            let first = (g.first_index + 3 * t) as usize;
            let idx = &scene.indices()[first..first + 3];
            let v = |k: usize| {
                assert!(idx[k] < m.vertex_count, "index past the mesh");
                (m.first_vertex + idx[k]) as usize
            };
            let uv = |k: usize| scene.uvs()[(m.first_uv + idx[k] * m.uv_sets) as usize];
            out.push(Tri {
                p: [0, 1, 2].map(|k| scene.positions()[v(k)]),
                uv: [0, 1, 2].map(uv),
                n: [0, 1, 2].map(|k| scene.normals()[v(k)]),
                material: g.material,
                flags: g.flags,
                order: g.render_order,
                rect: scene.uv_rects()[first / 3],
            });
        }
    }
    assert_eq!(covered, m.index_count, "groups cover the mesh's indices");
    out
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn close3(a: [f32; 3], b: [f32; 3]) -> bool {
    (0..3).all(|i| (a[i] - b[i]).abs() < 1e-5)
}

/// Counter-clockwise about `normal`, seen from the side it points to.
fn assert_ccw(t: &Tri, normal: [f32; 3]) {
    let n = cross(sub(t.p[1], t.p[0]), sub(t.p[2], t.p[0]));
    assert!(
        dot(n, normal) > 0.0,
        "triangle {:?} is not counter-clockwise about {normal:?}",
        t.p
    );
}

/// Twice the area of a triangle.
fn area2(t: &Tri) -> f32 {
    let n = cross(sub(t.p[1], t.p[0]), sub(t.p[2], t.p[0]));
    dot(n, n).sqrt()
}

/// One cube face: four corners (position, uv) and what its group says.
#[derive(Clone, Debug)]
struct Quad {
    corners: Vec<([f32; 3], [f32; 2])>,
    normal: [f32; 3],
    material: i32,
    flags: u32,
    order: i32,
    rect: [f32; 4],
}

impl Quad {
    fn uv_at(&self, p: [f32; 3]) -> [f32; 2] {
        self.corners
            .iter()
            .find(|(q, _)| *q == p)
            .unwrap_or_else(|| panic!("no corner at {p:?} in {:?}", self.corners))
            .1
    }

    /// The four corners are exactly `want` (position → uv in texels over `size`).
    fn assert_corners(&self, want: [([f32; 3], [f32; 2]); 4], size: [f32; 2]) {
        for (p, uv) in want {
            assert_eq!(
                self.uv_at(p),
                [uv[0] / size[0], uv[1] / size[1]],
                "uv at {p:?} of face {:?}",
                self.normal
            );
        }
        assert_eq!(self.corners.len(), 4);
    }

    fn centre(&self) -> [f32; 3] {
        let mut c = [0.0; 3];
        for (p, _) in &self.corners {
            for i in 0..3 {
                c[i] += p[i] / 4.0;
            }
        }
        c
    }
}

/// The faces of a cube mesh: pairs of consecutive triangles, each pair one
/// face of four corners, both counter-clockwise about the face normal.
fn quads(scene: &Scene<'_>, mesh: usize) -> Vec<Quad> {
    let t = tris(scene, mesh);
    assert_eq!(t.len() % 2, 0, "a cube face is two triangles");
    let m = scene.meshes()[mesh];
    assert_eq!(m.vertex_count as usize, 2 * t.len(), "4 vertices a face");
    t.chunks(2)
        .map(|pair| {
            let mut corners: Vec<([f32; 3], [f32; 2])> = Vec::new();
            for tri in pair {
                for k in 0..3 {
                    if !corners.iter().any(|c| *c == (tri.p[k], tri.uv[k])) {
                        corners.push((tri.p[k], tri.uv[k]));
                    }
                }
            }
            assert_eq!(corners.len(), 4, "a face has 4 corners: {pair:?}");
            let normal = pair[0].n[0];
            for tri in pair {
                assert!(tri.n.iter().all(|n| *n == normal), "one normal a face");
                assert_eq!(
                    (tri.material, tri.flags, tri.order, tri.rect),
                    (pair[0].material, pair[0].flags, pair[0].order, pair[0].rect)
                );
                assert_ccw(tri, normal);
            }
            Quad {
                corners,
                normal,
                material: pair[0].material,
                flags: pair[0].flags,
                order: pair[0].order,
                rect: pair[0].rect,
            }
        })
        .collect()
}

/// The face whose normal is `normal`.
fn face_with_normal(quads: &[Quad], normal: [f32; 3]) -> Quad {
    let found: Vec<&Quad> = quads.iter().filter(|q| q.normal == normal).collect();
    assert_eq!(found.len(), 1, "one face with normal {normal:?}: {quads:?}");
    found[0].clone()
}

const NX: [f32; 3] = [-1.0, 0.0, 0.0];
const PX: [f32; 3] = [1.0, 0.0, 0.0];
const NY: [f32; 3] = [0.0, -1.0, 0.0];
const PY: [f32; 3] = [0.0, 1.0, 0.0];
const NZ: [f32; 3] = [0.0, 0.0, -1.0];
const PZ: [f32; 3] = [0.0, 0.0, 1.0];

/// uv [1, 2, 5, 8] on every face of the 2 × 3 × 4 cube at the origin.
const UV: [f64; 4] = [1.0, 2.0, 5.0, 8.0];
const TL: [f32; 2] = [1.0, 2.0];
const BL: [f32; 2] = [1.0, 8.0];
const BR: [f32; 2] = [5.0, 8.0];
const TR: [f32; 2] = [5.0, 2.0];
const RES: [f32; 2] = [16.0, 16.0];

fn cube_234() -> Cube {
    Cube::new([0.0, 0.0, 0.0], [2.0, 3.0, 4.0]).all_faces(Face::uv(UV))
}

fn one_cube(cube: Cube) -> Vec<u8> {
    Model::free().element(cube).bytes()
}

fn one_element(model: Model, element: impl support::bbmodel_builder::Json) -> Vec<u8> {
    model.element(element).bytes()
}

// ------------------------------------------------------- document rules

#[test]
fn not_json_comes_first_wherever_the_syntax_error_is() {
    // An invalid field early, a syntax error late (in the same array, in a
    // later part, in an earlier part): the file is not JSON (spec Errors:
    // NOT_JSON), whatever else is wrong with it.
    let bad_cube = r#"{"from": "bad", "to": [1, 1, 1]}"#;
    for json in [
        format!(
            r#"{{"meta": {{"format_version": "5.0"}}, "elements": [{bad_cube}, {{"a": 01}}]}}"#
        ),
        format!(
            r#"{{"meta": {{"format_version": "5.0"}}, "elements": [{bad_cube}], "animations": [{{"x": [1,]}}]}}"#
        ),
        format!(
            r#"{{"meta": {{"format_version": "5.0"}}, "outliner": [{{"children": [tru]}}], "elements": [{bad_cube}]}}"#
        ),
        r#"{"meta": {"format_version": "9.0"}, "groups": [{"name": "\q"}]}"#.to_string(),
    ] {
        let e = error(json.as_bytes());
        assert_eq!(e.code(), ErrorCode::NotJson, "{json}: {e}");
        let measured = scenedec::measure(json.as_bytes(), Some("bbmodel"), &Options::default());
        assert_eq!(measured.unwrap_err(), e, "measure and load agree");
    }
}

#[test]
fn not_json_empty_bad_utf8_syntax_nan_and_infinity() {
    let good = Model::free().text();
    let cases: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"{\"meta\": {\"format_version\": \"4.10\"}, \"name\": \"\xff\"}".to_vec(),
        b"{\"meta\": {\"format_version\": \"4.10\"},}".to_vec(),
        good.as_bytes()[..good.len() - 1].to_vec(),
        format!("{good} x").into_bytes(),
        Model::free()
            .element(Cube::new([0.0; 3], [1.0; 3]).set("inflate", Raw("NaN".into())))
            .bytes(),
        Model::free()
            .element(Cube::new([0.0; 3], [1.0; 3]).set("inflate", Raw("Infinity".into())))
            .bytes(),
        Model::free()
            .element(Cube::new([0.0; 3], [1.0; 3]).set("inflate", Raw("-Infinity".into())))
            .bytes(),
    ];
    for bytes in cases {
        assert_eq!(
            error(&bytes).code(),
            ErrorCode::NotJson,
            "{}",
            String::from_utf8_lossy(&bytes)
        );
    }
}

#[test]
fn not_bbmodel_without_an_object_meta_or_format_version() {
    for text in [
        "[]",
        "5",
        "\"meta\"",
        "null",
        "{}",
        r#"{"meta": 4}"#,
        r#"{"meta": null}"#,
        r#"{"meta": {}}"#,
        r#"{"meta": {"model_format": "free"}, "elements": []}"#,
    ] {
        assert_eq!(
            error(text.as_bytes()).code(),
            ErrorCode::NotBbmodel,
            "{text}"
        );
    }
}

#[test]
fn unsupported_version_outside_3_x_to_5_x() {
    for v in ["2.9", "6.0", "1", "abc", "", "10.0"] {
        assert_eq!(
            code(&Model::new(v)),
            ErrorCode::UnsupportedVersion,
            "version {v:?}"
        );
    }
    for v in ["3.0", "3.6", "4.0", "4.10", "5.0", "5.9"] {
        load(&Model::new(v).bytes());
    }
}

#[test]
fn model_format_absent_empty_null_false_or_0_is_java_block() {
    // Observable through convention 9: an untextured face is single-sided in
    // java_block only; bedrock_old (bone_rig) and free draw it double-sided.
    let sidedness = |model: Model| {
        let bytes = one_element(model, cube_234());
        let loaded = load(&bytes);
        let flags: Vec<u32> = loaded.scene().groups().iter().map(|g| g.flags).collect();
        assert_eq!(flags.len(), 1);
        flags[0]
    };
    let base = || Model::new("4.10");
    assert_eq!(sidedness(base()), 0, "absent");
    assert_eq!(sidedness(base().model_format("")), 0, "empty");
    assert_eq!(sidedness(base().meta("model_format", json!(null))), 0);
    assert_eq!(sidedness(base().meta("model_format", false)), 0);
    assert_eq!(sidedness(base().meta("model_format", json!(0))), 0);
    assert_eq!(sidedness(base().model_format("java_block")), 0);
    assert_eq!(sidedness(base().model_format("free")), DOUBLE);
    // A truthy bone_rig makes the fallback bedrock_old (auto: double-sided).
    assert_eq!(sidedness(base().bone_rig(true)), DOUBLE);
    assert_eq!(
        sidedness(base().bone_rig(json!(1)).meta("model_format", json!(null))),
        DOUBLE
    );
    assert_eq!(sidedness(base().bone_rig("yes").model_format("")), DOUBLE);
    // Falsy bone_rig keeps java_block; a named format ignores bone_rig.
    assert_eq!(sidedness(base().bone_rig(json!(0))), 0);
    assert_eq!(sidedness(base().bone_rig("")), 0);
    assert_eq!(sidedness(base().bone_rig(false)), 0);
    assert_eq!(
        sidedness(base().bone_rig(true).model_format("java_block")),
        0
    );
}

#[test]
fn model_format_of_another_type_is_invalid_field() {
    for v in [json!(true), json!(1), json!([]), json!({})] {
        assert_eq!(
            code(&Model::new("4.10").meta("model_format", v.clone())),
            ErrorCode::InvalidField,
            "{v}"
        );
    }
}

#[test]
fn repeated_keys_take_the_last_value_as_json_parse_does() {
    let text = Model::free().element(cube_234()).text();
    // `elements` twice: empty first, one cube last.
    let text = text.replacen('{', "{\"elements\": [], ", 1);
    let loaded = load(text.as_bytes());
    assert_eq!(loaded.scene().meshes().len(), 1);
}

#[test]
fn numbers_finite_and_within_ten_million_else_invalid_field() {
    let ok =
        Cube::new([-1e7, 0.0, 0.0], [1e7, 1.0, 1.0]).all_faces(Face::uv([0.0, 0.0, 1e7, -1e7]));
    load(&one_cube(ok));
    let bad: Vec<(Cube, &str)> = vec![
        (
            Cube::new([-10_000_000.5, 0.0, 0.0], [1.0; 3]),
            "from just past -1e7",
        ),
        (Cube::new([0.0; 3], [1.0, 2e7, 1.0]), "to 2e7"),
        (Cube::new([0.0; 3], [1.0; 3]).inflate(1e8), "inflate"),
        (
            Cube::new([0.0; 3], [1.0; 3]).origin([0.0, 0.0, 1e9]),
            "origin",
        ),
        (
            Cube::new([0.0; 3], [1.0; 3]).rotation([0.0, -1e8, 0.0]),
            "rotation",
        ),
        (
            Cube::new([0.0; 3], [1.0; 3]).stretch([1.0, 1.0, 1e8]),
            "stretch",
        ),
        (
            Cube::new([0.0; 3], [1.0; 3]).face("north", Face::uv([0.0, 0.0, 1.0, 1e8])),
            "uv",
        ),
        (
            Cube::new([0.0; 3], [1.0; 3]).set("from", json!(["0", 0, 0])),
            "string number",
        ),
        (
            Cube::new([0.0; 3], [1.0; 3]).set("from", json!([0, 0])),
            "two numbers",
        ),
        (
            Cube::new([0.0; 3], [1.0; 3]).set("to", json!([1, 1, 1, 1])),
            "four numbers",
        ),
        (
            Cube::new([0.0; 3], [1.0; 3]).set("from", json!(0)),
            "no array",
        ),
    ];
    for (cube, what) in bad {
        let bytes = one_cube(cube);
        assert_eq!(error(&bytes).code(), ErrorCode::InvalidField, "{what}");
    }
    // Groups and mesh vertices too.
    let g = Group::new("g", "g1").origin([0.0, 2e7, 0.0]);
    assert_eq!(
        code(&Model::free().outliner(vec![g.inline()])),
        ErrorCode::InvalidField
    );
    let m = Mesh::new()
        .vertex("a", [0.0, 0.0, 2e7])
        .vertex("b", [1.0, 0.0, 0.0])
        .vertex("c", [0.0, 1.0, 0.0])
        .face(
            "f",
            MeshFace::new(&[("a", [0.0, 0.0]), ("b", [1.0, 0.0]), ("c", [0.0, 1.0])]),
        );
    assert_eq!(code(&Model::free().element(m)), ErrorCode::InvalidField);
}

#[test]
fn number_overflowing_f64_is_invalid_field_not_json() {
    let bytes = one_cube(Cube::new([0.0; 3], [1.0; 3]).set("from", Raw("[1e400, 0, 0]".into())));
    assert_eq!(error(&bytes).code(), ErrorCode::InvalidField);
    // JSON.parse reads it as Infinity; in a field the loader never reads it is harmless.
    let bytes = Model::free()
        .set("display", Raw("{\"scale\": 1e400}".into()))
        .bytes();
    load(&bytes);
}

#[test]
fn error_messages_name_the_json_path() {
    let bytes = one_cube(
        Cube::new([0.0; 3], [1.0; 3]).face("north", Face::uv([0.0, 0.0, 1.0, 1.0]).rotation(45.0)),
    );
    let e = error(&bytes);
    assert_eq!(e.code(), ErrorCode::InvalidField);
    assert_eq!(e.at().to_string(), "$.elements[0].faces.north.rotation");
    assert!(
        e.message().contains("$.elements[0].faces.north.rotation"),
        "{}",
        e.message()
    );
}

/// `decode_into` with room to spare: its triangles, or its error.
fn decode_into(bytes: &[u8]) -> Result<usize, scenedec::Error> {
    let mut memory = vec![0u64; 1 << 16];
    let mut arena = scenedec::Arena::from_words(&mut memory);
    let mut warnings = scenedec::Warnings::new();
    let options = Options::default();
    scenedec::decode_into(bytes, Some("bbmodel"), &options, &mut arena, &mut warnings)
        .map(|scene| scene.triangle_count())
}

/// A mesh triangle whose uv object is `uv`.
fn triangle_mesh_with_uv(uv: serde_json::Value) -> Mesh {
    Mesh::new()
        .vertex("a", [0.0, 0.0, 0.0])
        .vertex("b", [1.0, 0.0, 0.0])
        .vertex("c", [0.0, 1.0, 0.0])
        .face(
            "f",
            MeshFace::new(&[("a", [0.0, 0.0]), ("b", [1.0, 0.0]), ("c", [0.0, 1.0])]).set("uv", uv),
        )
}

#[test]
fn load_and_decode_into_check_each_value_once_yet_fail_as_measure_does() {
    use support::bbmodel_builder::Json;
    // `load` and `decode_into` count without checking the values their fill
    // pass reads and checks anyway (UVs, origins, rotations, uv_offset,
    // mesh positions). A file with an error in one of those still fails
    // with the error `measure` reports, even when a later element has an
    // error the counting pass does see.
    let good_uv = json!({"a": [0, 0], "b": [1, 0], "c": [0, 1]});
    let mut seventeen = Mesh::new();
    let mut corners = Vec::new();
    for i in 0..17 {
        let key = format!("v{i}");
        let turn = f64::from(i) / 17.0 * std::f64::consts::TAU;
        seventeen = seventeen.vertex(&key, [turn.cos(), turn.sin(), 0.0]);
        corners.push((key, [0.0, 0.0]));
    }
    let corners: Vec<(&str, [f64; 2])> = corners.iter().map(|(k, uv)| (k.as_str(), *uv)).collect();
    let seventeen = seventeen.face("big", MeshFace::new(&corners));
    let bad_from = Cube::new([0.0; 3], [1.0; 3]).set("from", json!("bad"));
    let twice = triangle_mesh_with_uv(good_uv.clone()).json().replacen(
        r#""vertices": {"#,
        r#""vertices": {"a": [0, 0, 1e9]}, "vertices": {"#,
        1,
    );
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "mesh uv out of range, then a face over maxFaceVertices",
            Model::free()
                .element(triangle_mesh_with_uv(
                    json!({"a": [0, 0], "b": [1, 0], "c": [0, 1e8]}),
                ))
                .element(seventeen.clone())
                .bytes(),
            "$.elements[0].faces.f.uv.c[1]",
        ),
        (
            "mesh uv entry missing, nothing else wrong",
            one_element(
                Model::free(),
                triangle_mesh_with_uv(json!({"a": [0, 0], "b": [1, 0]})),
            ),
            "$.elements[0].faces.f.uv",
        ),
        (
            "mesh vertices written twice, the first with a position out of range",
            Model::free().element(Raw(twice)).bytes(),
            "$.elements[0].vertices.a[2]",
        ),
        (
            "cube face uv of strings, then a bad from",
            Model::free()
                .element(
                    Cube::new([0.0; 3], [1.0; 3])
                        .face("up", Face::uv([0.0; 4]).set("uv", json!(["0", 0, 1, 1]))),
                )
                .element(bad_from.clone())
                .bytes(),
            "$.elements[0].faces.up.uv[0]",
        ),
        (
            "cube origin out of range, then a bad from",
            Model::free()
                .element(Cube::new([0.0; 3], [1.0; 3]).origin([0.0, 0.0, 1e9]))
                .element(bad_from.clone())
                .bytes(),
            "$.elements[0].origin[2]",
        ),
        (
            "cube uv_offset of three numbers, then a bad from",
            Model::free()
                .element(Cube::new([0.0; 3], [1.0; 3]).set("uv_offset", json!([0, 0, 0])))
                .element(bad_from)
                .bytes(),
            "$.elements[0].uv_offset[2]",
        ),
        (
            "a syntax error inside a cube face uv, then a face over maxFaceVertices",
            Model::free()
                .element(Cube::new([0.0; 3], [1.0; 3]).face(
                    "up",
                    Face::uv([0.0; 4]).set("uv", Raw("[0, 0, 1, tru]".into())),
                ))
                .element(seventeen)
                .bytes(),
            "",
        ),
    ];
    for (what, bytes, at) in cases {
        let measured =
            scenedec::measure(&bytes, Some("bbmodel"), &Options::default()).expect_err(what);
        if !at.is_empty() {
            assert_eq!(measured.at().to_string(), at, "{what}: {measured}");
        }
        assert_eq!(error(&bytes), measured, "load: {what}");
        assert_eq!(
            decode_into(&bytes).unwrap_err(),
            measured,
            "decode_into: {what}"
        );
    }

    // A mesh-only field on a cube is checked (its syntax) but its errors do
    // not count, in every pass: written once or twice, these load.
    let cube = Cube::new([0.0; 3], [1.0; 3]).all_faces(Face::uv([0.0, 0.0, 1.0, 1.0]));
    let once = cube
        .clone()
        .set("vertices", json!({"a": "x", "b": [1e9, 0, 0]}));
    let twice = once.json().replacen(
        r#""vertices": {"#,
        r#""vertices": {"z": [[]]}, "vertices": {"#,
        1,
    );
    for bytes in [one_cube(once), Model::free().element(Raw(twice)).bytes()] {
        scenedec::measure(&bytes, Some("bbmodel"), &Options::default()).expect("measure");
        assert_eq!(load(&bytes).scene().triangle_count(), 12);
        assert_eq!(decode_into(&bytes).expect("decode_into"), 12);
    }
    // ... and a syntax error in one is NOT_JSON everywhere.
    let broken = Model::free()
        .element(Raw(cube.json().replacen(
            '{',
            r#"{"vertices": {"z": [1,]}, "#,
            1,
        )))
        .bytes();
    let measured = scenedec::measure(&broken, Some("bbmodel"), &Options::default()).unwrap_err();
    assert_eq!(measured.code(), ErrorCode::NotJson);
    assert_eq!(error(&broken), measured);
    assert_eq!(decode_into(&broken).unwrap_err(), measured);
}

#[test]
fn at_most_100_warnings_are_kept() {
    let mut model = Model::free();
    for _ in 0..150 {
        model = model.element(json!({"type": "locator", "name": "l", "position": [0, 0, 0]}));
    }
    let bytes = model.bytes();
    let loaded = load(&bytes);
    assert_eq!(loaded.warnings().as_slice().len(), 100);
    assert!(
        loaded
            .warnings()
            .as_slice()
            .iter()
            .all(|w| w.code() == WarningCode::UnsupportedElement)
    );
}

// -------------------------------------------------- groups and structure

#[test]
fn groups_keep_name_pivot_rotation_in_radians_and_visibility() {
    let bytes = Model::free()
        .outliner(vec![
            Group::new("body", "g1")
                .origin([1.0, 2.0, 3.0])
                .rotation([10.0, -20.0, 30.0])
                .inline(),
            Group::new("hidden", "g2").visibility(false).inline(),
        ])
        .bytes();
    let loaded = load(&bytes);
    let s = loaded.scene();
    assert_eq!(s.nodes().len(), 2);
    let n = s.nodes()[0];
    assert_eq!(s.text(n.name), "body");
    assert_eq!(n.parent, -1);
    assert_eq!(n.pivot, [1.0, 2.0, 3.0]);
    assert_eq!(n.translation, [0.0; 3]);
    assert_eq!(n.scale, [1.0; 3]);
    assert_eq!(
        n.rotation,
        [
            10f32.to_radians(),
            (-20f32).to_radians(),
            30f32.to_radians()
        ]
    );
    assert!(n.visible());
    assert_eq!(s.text(s.nodes()[1].name), "hidden");
    assert_eq!(s.nodes()[1].flags & NodeFlags::VISIBLE, 0);
}

#[test]
fn names_with_json_escapes_are_decoded() {
    let bytes = Model::free()
        .texture(Texture::png("x", 1, 1).set("name", Raw(r#""sk\u00efn \"1\"""#.into())))
        .element(cube_234().uuid("c").set("name", Raw(r#""cu\tbe""#.into())))
        .outliner(vec![
            Group::new("x", "g")
                .set("name", Raw(r#""b\u00f6dy\\2""#.into()))
                .child(el("c"))
                .inline(),
        ])
        .bytes();
    let loaded = load(&bytes);
    let s = loaded.scene();
    assert_eq!(s.text(s.nodes()[0].name), "b\u{f6}dy\\2");
    assert_eq!(s.text(s.meshes()[0].name), "cu\tbe");
    assert_eq!(s.text(s.textures()[0].name), "sk\u{ef}n \"1\"");
    assert_eq!(s.text(s.materials()[0].name), "sk\u{ef}n \"1\"");
}

#[test]
fn nodes_follow_the_outliner_depth_first() {
    let tree = vec![
        Tree::Group(
            Group::new("a", "ga"),
            vec![
                Tree::Group(
                    Group::new("a1", "ga1"),
                    vec![Tree::Group(Group::new("a1x", "ga1x"), vec![])],
                ),
                Tree::Group(Group::new("a2", "ga2"), vec![]),
            ],
        ),
        Tree::Group(
            Group::new("b", "gb"),
            vec![Tree::Group(Group::new("b1", "gb1"), vec![])],
        ),
    ];
    let bytes = Model::free().outliner(tree_4x(&tree)).bytes();
    let loaded = load(&bytes);
    let s = loaded.scene();
    let got: Vec<(&str, i32)> = s
        .nodes()
        .iter()
        .map(|n| (s.text(n.name), n.parent))
        .collect();
    assert_eq!(
        got,
        vec![
            ("a", -1),
            ("a1", 0),
            ("a1x", 1),
            ("a2", 0),
            ("b", -1),
            ("b1", 4)
        ]
    );
}

#[test]
fn group_keys_written_after_children_are_read() {
    // Blockbench reads a group object whole, so its name, pivot and
    // visibility count wherever they stand; the reader jumps over the
    // children it has already walked to reach them.
    let bytes = br#"{"meta": {"format_version": "4.5", "model_format": "free"},
        "elements": [],
        "outliner": [
            {"uuid": "ga", "children": [
                {"children": [], "name": "inner", "uuid": "gb", "origin": [1, 2, 3]}
            ], "name": "outer", "visibility": false, "origin": [4, 5, 6]},
            {"name": "first", "chil\u0064ren": [{"name": "escaped key", "uuid": "gc"}],
             "uuid": "gd", "name": "last wins"}
        ]}"#;
    let loaded = load(bytes);
    let s = loaded.scene();
    let got: Vec<(&str, i32, bool, [f32; 3])> = s
        .nodes()
        .iter()
        .map(|n| (s.text(n.name), n.parent, n.visible(), n.pivot))
        .collect();
    assert_eq!(
        got,
        vec![
            ("outer", -1, false, [4.0, 5.0, 6.0]),
            ("inner", 0, true, [1.0, 2.0, 3.0]),
            ("last wins", -1, true, [0.0; 3]),
            ("escaped key", 2, true, [0.0; 3]),
        ]
    );
}

#[test]
fn group_field_errors_come_after_outliner_animation_and_texture_errors() {
    // One walk of the outliner counts it and reads its groups' fields; a
    // field's error still comes after the outliner's own errors and after
    // those of the animations and textures, as when they were two walks.
    let bad_group = r#"{"name": 5, "uuid": "g", "children": []}"#;
    let error_at = |rest: &str| {
        let json = format!(
            r#"{{"meta": {{"format_version": "4.5", "model_format": "free"}}, "elements": [], {rest}}}"#
        );
        let e = error(json.as_bytes());
        (e.code(), e.at().to_string())
    };
    assert_eq!(
        error_at(&format!(r#""outliner": [{bad_group}]"#)),
        (ErrorCode::InvalidField, "$.outliner.name".to_owned())
    );
    assert_eq!(
        error_at(&format!(r#""outliner": [{bad_group}, 7]"#)),
        (ErrorCode::InvalidField, "$.outliner".to_owned()),
        "a bad outliner entry after it"
    );
    assert_eq!(
        error_at(&format!(r#""outliner": [{bad_group}], "animations": [5]"#)),
        (ErrorCode::InvalidField, "$.animations[0]".to_owned())
    );
    assert_eq!(
        error_at(&format!(
            r#""outliner": [{bad_group}], "textures": [{{"name": 1}}]"#
        ))
        .1,
        "$.textures[0].name"
    );
}

#[test]
fn a_groups_entry_field_error_names_the_entry() {
    // 5.x: the fields come from `groups`, and so does the path.
    let bytes = br#"{"meta": {"format_version": "5.0", "model_format": "free"},
        "elements": [],
        "groups": [{"name": "ok", "uuid": "g1"}, {"name": "b", "uuid": "g2", "origin": [0, "x", 0]}],
        "outliner": [{"uuid": "g1", "children": []}, {"uuid": "g2", "children": []}]}"#;
    let e = error(bytes);
    assert_eq!(e.code(), ErrorCode::InvalidField);
    assert_eq!(e.at().to_string(), "$.groups[1].origin[1]");
}

/// A tree with nested groups, pivots, rotations and cubes at every level.
fn sample_tree() -> (Vec<Tree>, Model) {
    let tree = vec![
        Tree::Element("e-root"),
        Tree::Group(
            Group::new("body", "g-body")
                .origin([0.0, 8.0, 0.0])
                .rotation([0.0, 45.0, 0.0]),
            vec![
                Tree::Element("e-body"),
                Tree::Group(
                    Group::new("arm", "g-arm")
                        .origin([4.0, 12.0, 0.0])
                        .rotation([-30.0, 0.0, 10.0])
                        .visibility(false),
                    vec![Tree::Element("e-arm")],
                ),
            ],
        ),
        Tree::Group(
            Group::new("empty", "g-empty").origin([1.0, 1.0, 1.0]),
            vec![],
        ),
    ];
    let model = Model::new("4.10")
        .model_format("free")
        .element(cube_234().name("root").uuid("e-root"))
        .element(
            Cube::new([-2.0, 6.0, -2.0], [2.0, 10.0, 2.0])
                .all_faces(Face::uv(UV))
                .name("body")
                .uuid("e-body"),
        )
        .element(
            Cube::new([3.0, 8.0, -1.0], [5.0, 12.0, 1.0])
                .origin([4.0, 12.0, 0.0])
                .rotation([0.0, 0.0, 22.5])
                .all_faces(Face::uv(UV))
                .name("arm")
                .uuid("e-arm"),
        );
    (tree, model)
}

type NodeView = (String, i32, u32, [f32; 3], [f32; 3], [f32; 3], [f32; 3]);

fn node_views(s: &Scene<'_>) -> Vec<NodeView> {
    s.nodes()
        .iter()
        .map(|n| {
            (
                s.text(n.name).to_owned(),
                n.parent,
                n.flags,
                n.translation,
                n.rotation,
                n.scale,
                n.pivot,
            )
        })
        .collect()
}

#[test]
fn format_5_groups_array_gives_the_same_tree_as_4x_inline() {
    let (tree, model) = sample_tree();
    let v4 = model.clone().outliner(tree_4x(&tree)).bytes();
    let (outliner, groups) = tree_5x(&tree);
    let v5 = model
        .meta("format_version", "5.0")
        .outliner(outliner)
        .groups(groups)
        .bytes();
    let (a, b) = (load(&v4), load(&v5));
    let (a, b) = (a.scene(), b.scene());
    assert_eq!(node_views(&a), node_views(&b));
    assert_eq!(a.nodes().len(), 3);
    assert_eq!(a.meshes().len(), 3);
    for (x, y) in a.meshes().iter().zip(b.meshes()) {
        assert_eq!(a.text(x.name), b.text(y.name));
        assert_eq!(x.node, y.node);
    }
    assert_eq!(a.positions(), b.positions());
    assert_eq!(a.uvs(), b.uvs());
    assert_eq!(a.indices(), b.indices());
    // The meshes hang from their groups.
    let nodes: Vec<i32> = a.meshes().iter().map(|m| m.node).collect();
    assert_eq!(nodes, vec![-1, 0, 1]);
}

#[test]
fn convention_3_outliner_object_whose_uuid_is_not_in_groups_is_an_inline_group() {
    let bytes = Model::new("5.0")
        .model_format("free")
        .groups(vec![
            Group::new("listed", "g1").origin([1.0, 0.0, 0.0]).data(),
        ])
        .outliner(vec![
            Group::new("ignored-name", "g1")
                .origin([9.0, 9.0, 9.0])
                .reference(),
            Group::new("inline", "g-not-listed")
                .origin([1.0, 2.0, 3.0])
                .rotation([0.0, 90.0, 0.0])
                .inline(),
        ])
        .bytes();
    let loaded = load(&bytes);
    let s = loaded.scene();
    let views = node_views(&s);
    assert_eq!(views[0].0, "listed");
    assert_eq!(views[0].6, [1.0, 0.0, 0.0]);
    assert_eq!(views[1].0, "inline");
    assert_eq!(views[1].6, [1.0, 2.0, 3.0]);
    assert_eq!(views[1].4, [0.0, 90f32.to_radians(), 0.0]);
}

#[test]
fn pre_3_2_group_z_rotation_is_negated() {
    let model = |version: &str| {
        Model::new(version)
            .model_format("free")
            .outliner(vec![
                Group::new("g", "g").rotation([10.0, 20.0, 30.0]).inline(),
            ])
            .bytes()
    };
    for (version, z) in [
        ("3.0", -30f32),
        ("3.1", -30.0),
        ("3.2", 30.0),
        ("4.0", 30.0),
        ("5.0", 30.0),
    ] {
        let bytes = model(version);
        let loaded = load(&bytes);
        assert_eq!(
            loaded.scene().nodes()[0].rotation,
            [10f32.to_radians(), 20f32.to_radians(), z.to_radians()],
            "{version}"
        );
    }
}

#[test]
fn group_world_matrix_places_positions_that_are_stored_at_rest() {
    let bytes = Model::free()
        .element(
            Cube::new([8.0, 0.0, 0.0], [10.0, 1.0, 1.0])
                .all_faces(Face::uv(UV))
                .uuid("c"),
        )
        .outliner(vec![
            Group::new("g", "g")
                .origin([8.0, 0.0, 0.0])
                .rotation([0.0, 90.0, 0.0])
                .child(el("c"))
                .inline(),
        ])
        .bytes();
    let loaded = load(&bytes);
    let s = loaded.scene();
    assert_eq!(s.meshes()[0].node, 0);
    // Stored: model space at rest; the group's rotation is not baked in.
    let east = face_with_normal(&quads(&s, 0), PX);
    assert!(east.corners.iter().all(|(p, _)| p[0] == 10.0));
    // The world matrix turns +X about the pivot to −Z: (10, 0, 0) → (8, 0, −2).
    let w = s.world_matrix(0);
    assert!(close3(
        w.transform_point([10.0, 0.0, 0.0]),
        [8.0, 0.0, -2.0]
    ));
    assert!(close3(w.transform_point([8.0, 5.0, 0.0]), [8.0, 5.0, 0.0]));
    let bbox = s.bbox().unwrap();
    assert!(close3(bbox.min, [8.0, 0.0, -2.0]) && close3(bbox.max, [9.0, 1.0, 0.0]));
}

#[test]
fn elements_the_outliner_does_not_place_follow_at_the_root_in_file_order() {
    let named = |n: &str| cube_234().name(n).uuid(n);
    let bytes = Model::free()
        .element(named("a"))
        .element(named("b"))
        .element(named("c"))
        .element(named("d"))
        .element(named("e"))
        .outliner(vec![
            el("d"),
            Group::new("g", "g").child(el("c")).child(el("a")).inline(),
        ])
        .bytes();
    let loaded = load(&bytes);
    let s = loaded.scene();
    let got: Vec<(&str, i32)> = s
        .meshes()
        .iter()
        .map(|m| (s.text(m.name), m.node))
        .collect();
    assert_eq!(
        got,
        vec![("d", -1), ("c", 0), ("a", 0), ("b", -1), ("e", -1)]
    );
    // Without an outliner every element is at the root, in file order.
    let bytes = Model::free()
        .element(named("x"))
        .element(named("y"))
        .bytes();
    let loaded = load(&bytes);
    let s = loaded.scene();
    let got: Vec<(&str, i32)> = s
        .meshes()
        .iter()
        .map(|m| (s.text(m.name), m.node))
        .collect();
    assert_eq!(got, vec![("x", -1), ("y", -1)]);
}

#[test]
fn outliner_uuid_no_element_has_is_unknown_reference_and_skipped() {
    let bytes = Model::free()
        .element(cube_234().uuid("real"))
        .outliner(vec![
            el("ghost"),
            Group::new("g", "g")
                .child(el("real"))
                .child(el("ghost-2"))
                .inline(),
        ])
        .bytes();
    let loaded = load(&bytes);
    assert_eq!(
        warnings(&loaded),
        vec![
            (WarningCode::UnknownReference, "$.outliner".to_owned()),
            (WarningCode::UnknownReference, "$.outliner".to_owned()),
        ]
    );
    assert_eq!(loaded.scene().meshes().len(), 1);
    assert_eq!(loaded.scene().meshes()[0].node, 0);
}

#[test]
fn duplicate_reference_two_elements_with_one_uuid() {
    let model = Model::free()
        .element(cube_234().uuid("same"))
        .element(cube_234().uuid("other"))
        .element(cube_234().uuid("same"));
    assert_eq!(code(&model), ErrorCode::DuplicateReference);
}

#[test]
fn duplicate_reference_two_groups_entries_with_one_uuid() {
    let g = Group::new("g", "same");
    let model = Model::new("5.0")
        .model_format("free")
        .groups(vec![g.data(), Group::new("h", "other").data(), g.data()])
        .outliner(vec![g.reference()]);
    assert_eq!(code(&model), ErrorCode::DuplicateReference);
}

#[test]
fn duplicate_reference_element_placed_twice() {
    let model = Model::free()
        .element(cube_234().uuid("c"))
        .outliner(vec![el("c"), Group::new("g", "g").child(el("c")).inline()]);
    assert_eq!(code(&model), ErrorCode::DuplicateReference);
}

#[test]
fn duplicate_reference_group_placed_twice_or_inside_itself() {
    // 5.x: the outliner references one groups entry twice.
    let g = Group::new("g", "g1");
    let twice = Model::new("5.0")
        .model_format("free")
        .groups(vec![g.data()])
        .outliner(vec![g.reference(), g.reference()]);
    assert_eq!(code(&twice), ErrorCode::DuplicateReference, "placed twice");
    // 5.x: a group inside itself.
    let inner = g.reference();
    let itself = Model::new("5.0")
        .model_format("free")
        .groups(vec![g.data()])
        .outliner(vec![g.clone().child(inner).reference()]);
    assert_eq!(
        code(&itself),
        ErrorCode::DuplicateReference,
        "inside itself"
    );
    // 4.x: two inline groups with one uuid.
    let inline = Model::free().outliner(vec![g.inline(), g.inline()]);
    assert_eq!(code(&inline), ErrorCode::DuplicateReference, "inline twice");
    // Today an escaped name placed twice even fails ARENA_TOO_SMALL
    // (measure plans the decoded name once, decode writes it twice).
    let escaped = Group::new("x", "g1").set("name", Raw("\"\\u00e9\"".into()));
    let twice = Model::new("5.0")
        .model_format("free")
        .groups(vec![escaped.data()])
        .outliner(vec![escaped.reference(), escaped.reference()]);
    assert_eq!(
        code(&twice),
        ErrorCode::DuplicateReference,
        "escaped name twice"
    );
}

#[test]
fn unsupported_element_types_are_skipped_with_a_warning() {
    let mut model = Model::free();
    let types = [
        "locator",
        "null_object",
        "texture_mesh",
        "billboard",
        "spline_mesh",
        "armature",
        "something_new",
    ];
    for t in types {
        model = model.element(json!({"type": t, "name": t, "uuid": t, "from": "not read"}));
    }
    let model = model
        .element(cube_234().uuid("cube"))
        .outliner(vec![el("locator"), el("cube")]);
    let bytes = model.bytes();
    let loaded = load(&bytes);
    let w = warnings(&loaded);
    let want: Vec<(WarningCode, String)> = (0..types.len())
        .map(|i| (WarningCode::UnsupportedElement, format!("$.elements[{i}]")))
        .collect();
    let mut got = w.clone();
    got.sort_by(|a, b| a.1.cmp(&b.1));
    assert_eq!(got, want);
    assert_eq!(loaded.scene().meshes().len(), 1);
}

// Blockbench writes `type` after `faces`, so an element is read before its
// type is known: each field counts only for the type that reads it.

#[test]
fn element_type_written_last_fields_of_other_types_are_not_checked() {
    let mesh = r#"{"name": "m", "from": "bad", "to": [1], "inflate": "x", "box_uv": 3,
        "faces": {"north": {"uv": {}, "vertices": []}}, "vertices": {}, "type": "mesh"}"#;
    let locator = r#"{"from": "bad", "origin": "bad", "faces": 4, "type": "locator"}"#;
    let cube = r#"{"from": [0, 0, 0], "to": [1, 1, 1], "shading": 5, "vertices": 3,
        "faces": {"up": {"uv": [0, 0, 1, 1], "texture": false}}, "type": "cube"}"#;
    let bytes = Model::free()
        .element(Raw(mesh.into()))
        .element(Raw(locator.into()))
        .element(Raw(cube.into()))
        .bytes();
    let loaded = load(&bytes);
    assert_eq!(
        warnings(&loaded),
        vec![(WarningCode::UnsupportedElement, "$.elements[1]".to_owned())]
    );
    let s = loaded.scene();
    assert_eq!(s.meshes().len(), 2, "the mesh and the cube");
    assert_eq!(s.triangle_count(), 2, "the cube's one face");
}

#[test]
fn element_type_written_last_the_first_error_of_its_fields_counts() {
    // A cube's fields in file order: `to` fails before `from`.
    let bytes = one_element(
        Model::free(),
        Raw(r#"{"to": "bad", "from": [0, 0], "type": "cube"}"#.into()),
    );
    assert_eq!(error(&bytes).at().to_string(), "$.elements[0].to");
    // Untyped elements are cubes: a bad face uv fails.
    let bytes = one_element(
        Model::free(),
        Raw(r#"{"from": [0, 0, 0], "to": [1, 1, 1], "faces": {"west": {"uv": [1]}}}"#.into()),
    );
    assert_eq!(
        error(&bytes).at().to_string(),
        "$.elements[0].faces.west.uv"
    );
    // A mesh's: a vertices object that is none.
    let bytes = one_element(
        Model::free(),
        Raw(r#"{"origin": [0, 0, 0], "vertices": [], "faces": {}, "type": "mesh"}"#.into()),
    );
    assert_eq!(error(&bytes).at().to_string(), "$.elements[0].vertices");
    // Fields every element has fail first, wherever they stand.
    let bytes = one_element(
        Model::free(),
        Raw(r#"{"from": "bad", "render_order": 5, "type": "cube"}"#.into()),
    );
    assert_eq!(error(&bytes).at().to_string(), "$.elements[0].render_order");
}

#[test]
fn element_type_written_last_faces_with_other_keys_are_still_read_right() {
    // A key that is no cube face makes the reader leave `faces` for later;
    // a cube is then read again, in file order with its other fields.
    let cube = |faces: &str, after: &str| {
        let json = format!(r#"{{"from": [0, 0, 0], "to": [1, 1, 1], "faces": {faces}{after}}}"#);
        one_element(Model::free(), Raw(json))
    };
    let extra_first = r#"{"extra": {"a": [1, "}"]}, "north": {"uv": [0, 0, 1, 1]}}"#;
    let loaded = cube(extra_first, "");
    assert_eq!(load(&loaded).scene().triangle_count(), 2, "north drawn");
    let bad_uv = r#"{"extra": 1, "north": {"uv": [1]}}"#;
    let e = error(&cube(bad_uv, r#", "inflate": "bad""#));
    assert_eq!(
        e.at().to_string(),
        "$.elements[0].faces.north.uv",
        "faces first"
    );
    let e = error(&one_element(
        Model::free(),
        Raw(format!(
            r#"{{"from": "bad", "to": [1, 1, 1], "faces": {bad_uv}}}"#
        )),
    ));
    assert_eq!(e.at().to_string(), "$.elements[0].from", "from first");
    // Faces left unread are still checked as JSON, whatever the type.
    for t in ["locator", "mesh", "cube"] {
        let last = format!(r#"{{"faces": {{"x": 1, "y": [1,,2]}}, "type": "{t}"}}"#);
        let first = format!(r#"{{"type": "{t}", "faces": {{"x": 1, "y": [1,,2]}}}}"#);
        for json in [last, first] {
            let e = error(&one_element(Model::free(), Raw(json.clone())));
            assert_eq!(e.code(), ErrorCode::NotJson, "{json}");
        }
    }
}

#[test]
fn faces_written_twice_the_last_wins_and_the_first_is_still_json() {
    // JSON.parse keeps the last of two equal keys.
    let cube = r#"{"from": [0, 0, 0], "to": [1, 1, 1],
        "faces": {"north": {"uv": [0, 0, 1, 1]}, "south": {"uv": [0, 0, 1, 1]}},
        "faces": {"up": {"uv": [0, 0, 1, 1]}}}"#;
    let bytes = one_element(Model::free(), Raw(cube.into()));
    assert_eq!(load(&bytes).scene().triangle_count(), 2, "only up");
    // An earlier faces object that is no cube's, with a raw control
    // character in a string, is still not JSON (a fuzz regression).
    for t in ["mesh", "locator"] {
        let json =
            format!("{{\"type\": \"{t}\", \"faces\": {{\"x\": \"a\u{1}b\"}}, \"faces\": {{}}}}");
        let e = error(&one_element(Model::free(), Raw(json)));
        assert_eq!(e.code(), ErrorCode::NotJson, "{t}");
    }
}

#[test]
fn mesh_face_uv_written_twice_the_last_wins_and_the_first_is_still_json() {
    let mesh = |first_uv: &str| {
        format!(
            r#"{{"type": "mesh", "vertices": {{"a": [0, 0, 0], "b": [1, 0, 0], "c": [0, 1, 0]}},
            "faces": {{"f": {{"vertices": ["a", "b", "c"], "uv": {first_uv},
                "uv": {{"a": [1, 1], "b": [2, 1], "c": [1, 2]}}}}}}}}"#
        )
    };
    let bytes = one_element(Model::free(), Raw(mesh(r#"{"a": [9, 9]}"#)));
    let loaded = load(&bytes);
    let s = loaded.scene();
    assert!(s.uvs().iter().all(|uv| uv[0] < 0.2), "{:?}", s.uvs());
    // The first, passed over by its brackets, is still checked as JSON
    // (a fuzz regression).
    let e = error(&one_element(Model::free(), Raw(mesh("{]"))));
    assert_eq!(e.code(), ErrorCode::NotJson);
}

#[test]
fn mesh_face_vertices_written_twice_the_last_list_wins() {
    // JSON.parse keeps the last `vertices`: a triangle, not the six keys
    // of both lists, and a key in both lists is not written twice.
    let bytes = br#"{"meta": {"format_version": "4.5", "model_format": "free"},
        "elements": [{"type": "mesh", "uuid": "m",
            "vertices": {"a": [0, 0, 0], "b": [1, 0, 0], "c": [0, 1, 0], "d": [0, 0, 1]},
            "faces": {"f": {"vertices": ["a", "b", "d"], "vertices": ["a", "b", "c"],
                "uv": {"a": [0, 0], "b": [1, 0], "c": [0, 1]}}}}]}"#;
    let loaded = load(bytes);
    let s = loaded.scene();
    assert_eq!(s.triangle_count(), 1);
    let used: Vec<[f32; 3]> = s
        .indices()
        .iter()
        .map(|&i| s.positions()[i as usize])
        .collect();
    assert!(used.contains(&[0.0, 1.0, 0.0]), "{used:?}");
    assert!(!used.contains(&[0.0, 0.0, 1.0]), "{used:?}");
}

#[test]
fn meshes_in_outliner_order_keep_their_own_vertices() {
    // Written in file order, listed in outliner order: each mesh's vertex
    // range must still be its own cube's.
    let at = |x: f64, id: &str| {
        Cube::new([x, 0.0, 0.0], [x + 1.0, 1.0, 1.0])
            .all_faces(Face::uv(UV))
            .name(id)
            .uuid(id)
    };
    let bytes = Model::free()
        .element(at(0.0, "a"))
        .element(at(10.0, "b"))
        .element(at(20.0, "c"))
        .outliner(vec![el("c"), el("a")])
        .bytes();
    let loaded = load(&bytes);
    let s = loaded.scene();
    let got: Vec<(&str, f32)> = s
        .meshes()
        .iter()
        .map(|m| {
            let range = m.first_vertex as usize..(m.first_vertex + m.vertex_count) as usize;
            let min_x = s.positions()[range]
                .iter()
                .map(|p| p[0])
                .fold(f32::INFINITY, f32::min);
            (s.text(m.name), min_x)
        })
        .collect();
    assert_eq!(got, vec![("c", 20.0), ("a", 0.0), ("b", 10.0)]);
}
#[test]
fn mesh_vertex_key_written_twice_takes_its_last_position() {
    // JSON.parse keeps the last value of a key written twice.
    let bytes = br#"{"meta": {"format_version": "4.5", "model_format": "free"},
        "elements": [{"type": "mesh", "uuid": "m", "origin": [0, 0, 0],
            "vertices": {"a": [0, 0, 0], "b": [1, 0, 0], "c": [0, 1, 0], "a": [0, 0, 5]},
            "faces": {"f": {"vertices": ["a", "b", "c"], "uv": {"a": [0, 0], "b": [1, 0], "c": [0, 1]}}}}],
        "outliner": ["m"]}"#;
    let loaded = load(bytes);
    let s = loaded.scene();
    let used: Vec<[f32; 3]> = s
        .indices()
        .iter()
        .map(|&i| s.positions()[i as usize])
        .collect();
    assert_eq!(used.len(), 3);
    assert!(used.contains(&[0.0, 0.0, 5.0]), "{used:?}");
    assert!(!used.contains(&[0.0, 0.0, 0.0]), "{used:?}");
}

#[test]
fn mesh_vertex_positions_are_checked_by_measure() {
    // Spec: numbers finite and within ±10⁷; measure finds what decode would.
    let bytes = br#"{"meta": {"format_version": "4.5", "model_format": "free"},
        "elements": [{"type": "mesh", "uuid": "m",
            "vertices": {"a": [0, 0, 0], "b": [1, 0, "x"], "c": [0, 1, 0]},
            "faces": {"f": {"vertices": ["a", "b", "c"], "uv": {"a": [0, 0], "b": [1, 0], "c": [0, 1]}}}}]}"#;
    let e = scenedec::bbmodel::measure(bytes, &scenedec::bbmodel::Options::default()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidField);
    assert_eq!(e.at().to_string(), "$.elements[0].vertices.b[2]");
    assert_eq!(error(bytes).at().to_string(), "$.elements[0].vertices.b[2]");
}

// ----------------------------------------------------------------- cubes

fn plain_quads() -> Vec<Quad> {
    let bytes = one_cube(cube_234());
    let loaded = load(&bytes);
    let q = quads(&loaded.scene(), 0);
    assert_eq!(q.len(), 6);
    q
}

#[test]
fn convention_2_north_face_top_left_is_east() {
    let north = face_with_normal(&plain_quads(), NZ);
    north.assert_corners(
        [
            ([2.0, 3.0, 0.0], TL),
            ([2.0, 0.0, 0.0], BL),
            ([0.0, 0.0, 0.0], BR),
            ([0.0, 3.0, 0.0], TR),
        ],
        RES,
    );
}

#[test]
fn convention_2_south_face_top_left_is_west() {
    let south = face_with_normal(&plain_quads(), PZ);
    south.assert_corners(
        [
            ([0.0, 3.0, 4.0], TL),
            ([0.0, 0.0, 4.0], BL),
            ([2.0, 0.0, 4.0], BR),
            ([2.0, 3.0, 4.0], TR),
        ],
        RES,
    );
}

#[test]
fn convention_2_east_face_top_left_is_south() {
    let east = face_with_normal(&plain_quads(), PX);
    east.assert_corners(
        [
            ([2.0, 3.0, 4.0], TL),
            ([2.0, 0.0, 4.0], BL),
            ([2.0, 0.0, 0.0], BR),
            ([2.0, 3.0, 0.0], TR),
        ],
        RES,
    );
}

#[test]
fn convention_2_west_face_top_left_is_north() {
    let west = face_with_normal(&plain_quads(), NX);
    west.assert_corners(
        [
            ([0.0, 3.0, 0.0], TL),
            ([0.0, 0.0, 0.0], BL),
            ([0.0, 0.0, 4.0], BR),
            ([0.0, 3.0, 4.0], TR),
        ],
        RES,
    );
}

#[test]
fn convention_2_up_face_has_north_at_the_top() {
    let up = face_with_normal(&plain_quads(), PY);
    up.assert_corners(
        [
            ([0.0, 3.0, 0.0], TL),
            ([0.0, 3.0, 4.0], BL),
            ([2.0, 3.0, 4.0], BR),
            ([2.0, 3.0, 0.0], TR),
        ],
        RES,
    );
}

#[test]
fn convention_2_down_face_has_south_at_the_top() {
    let down = face_with_normal(&plain_quads(), NY);
    down.assert_corners(
        [
            ([0.0, 0.0, 4.0], TL),
            ([0.0, 0.0, 0.0], BL),
            ([2.0, 0.0, 0.0], BR),
            ([2.0, 0.0, 4.0], TR),
        ],
        RES,
    );
}

#[test]
fn cube_face_uv_rect_is_the_bounding_box_of_its_uv() {
    let bytes = one_cube(
        Cube::new([0.0; 3], [2.0, 3.0, 4.0]).face("north", Face::uv([5.0, 8.0, 1.0, 2.0])),
    );
    let loaded = load(&bytes);
    let q = quads(&loaded.scene(), 0);
    assert_eq!(q[0].rect, [1.0 / 16.0, 2.0 / 16.0, 5.0 / 16.0, 0.5]);
}

#[test]
fn convention_2_face_rotation_turns_the_image_clockwise() {
    // North face corners: top-left, bottom-left, bottom-right, top-right.
    let corners = [
        [2.0, 3.0, 0.0],
        [2.0, 0.0, 0.0],
        [0.0, 0.0, 0.0],
        [0.0, 3.0, 0.0],
    ];
    for (degrees, image) in [
        (0.0, [TL, BL, BR, TR]),
        // 90° clockwise: the image's bottom-left shows at the face's top-left.
        (90.0, [BL, BR, TR, TL]),
        (180.0, [BR, TR, TL, BL]),
        (270.0, [TR, TL, BL, BR]),
    ] {
        let bytes = one_cube(
            Cube::new([0.0; 3], [2.0, 3.0, 4.0]).face("north", Face::uv(UV).rotation(degrees)),
        );
        let loaded = load(&bytes);
        let q = quads(&loaded.scene(), 0);
        q[0].assert_corners(
            [
                (corners[0], image[0]),
                (corners[1], image[1]),
                (corners[2], image[2]),
                (corners[3], image[3]),
            ],
            RES,
        );
    }
}

#[test]
fn face_rotation_that_is_no_quarter_turn_is_invalid_field() {
    for bad in [
        json!(45),
        json!(-90),
        json!(360),
        json!(90.5),
        json!("90"),
        json!(null),
    ] {
        let bytes = one_cube(Cube::new([0.0; 3], [1.0; 3]).face(
            "north",
            Face::uv([0.0, 0.0, 1.0, 1.0]).set("rotation", bad.clone()),
        ));
        assert_eq!(error(&bytes).code(), ErrorCode::InvalidField, "{bad}");
    }
}

#[test]
fn face_uv_u1_greater_than_u2_mirrors() {
    let bytes = one_cube(
        Cube::new([0.0; 3], [2.0, 3.0, 4.0]).face("north", Face::uv([5.0, 2.0, 1.0, 8.0])),
    );
    let loaded = load(&bytes);
    let q = quads(&loaded.scene(), 0);
    // Top-left (east) gets u1 = 5: the image is flipped horizontally.
    q[0].assert_corners(
        [
            ([2.0, 3.0, 0.0], TR),
            ([2.0, 0.0, 0.0], BR),
            ([0.0, 0.0, 0.0], BL),
            ([0.0, 3.0, 0.0], TL),
        ],
        RES,
    );
    // v1 > v2 flips it vertically.
    let bytes = one_cube(
        Cube::new([0.0; 3], [2.0, 3.0, 4.0]).face("north", Face::uv([1.0, 8.0, 5.0, 2.0])),
    );
    let loaded = load(&bytes);
    let q = quads(&loaded.scene(), 0);
    q[0].assert_corners(
        [
            ([2.0, 3.0, 0.0], BL),
            ([2.0, 0.0, 0.0], TL),
            ([0.0, 0.0, 0.0], TR),
            ([0.0, 3.0, 0.0], BR),
        ],
        RES,
    );
}

#[test]
fn convention_1_plus_90_about_y_takes_plus_x_to_minus_z() {
    let bytes = one_cube(
        Cube::new([1.0, 0.0, 0.0], [2.0, 1.0, 1.0])
            .rotation([0.0, 90.0, 0.0])
            .all_faces(Face::uv(UV)),
    );
    let loaded = load(&bytes);
    let q = quads(&loaded.scene(), 0);
    // The east (+X) face now faces −Z and lies at z = −2.
    let east = face_with_normal(&q, NZ);
    assert!(east.corners.iter().all(|(p, _)| p[2] == -2.0), "{east:?}");
    // Its top-left (south-top, (2, 1, 1) before turning) is at (1, 1, −2).
    assert_eq!(east.uv_at([1.0, 1.0, -2.0]), [TL[0] / 16.0, TL[1] / 16.0]);
    let bbox = loaded.scene().bbox().unwrap();
    assert_eq!((bbox.min, bbox.max), ([0.0, 0.0, -2.0], [1.0, 1.0, -1.0]));
}

#[test]
fn convention_1_rotation_order_applies_x_first() {
    // R = Ry(90) · Rx(90): (x, y, z) → (y, −z, −x). Y first would give (z, x, y)-like results.
    let bytes = one_cube(
        Cube::new([0.0; 3], [1.0, 2.0, 3.0])
            .rotation([90.0, 90.0, 0.0])
            .all_faces(Face::uv(UV)),
    );
    let loaded = load(&bytes);
    let s = loaded.scene();
    let bbox = s.bbox().unwrap();
    assert_eq!((bbox.min, bbox.max), ([0.0, -3.0, -1.0], [2.0, 0.0, 0.0]));
    // The up (+Y) face now faces +X and lies at x = 2.
    let q = quads(&s, 0);
    let up = face_with_normal(&q, PX);
    assert!(up.corners.iter().all(|(p, _)| p[0] == 2.0));
    // Z last: Rz(90) · Ry(90) · Rx(90) takes (x, y, z) to (z, y, −x).
    let bytes = one_cube(
        Cube::new([0.0; 3], [1.0, 2.0, 3.0])
            .rotation([90.0, 90.0, 90.0])
            .all_faces(Face::uv(UV)),
    );
    let loaded = load(&bytes);
    let bbox = loaded.scene().bbox().unwrap();
    assert_eq!((bbox.min, bbox.max), ([0.0, 0.0, -1.0], [3.0, 2.0, 0.0]));
}

#[test]
fn cube_rotation_turns_about_its_origin() {
    let bytes = one_cube(
        Cube::new([0.0; 3], [2.0, 3.0, 4.0])
            .origin([2.0, 0.0, 0.0])
            .rotation([0.0, 0.0, 90.0])
            .all_faces(Face::uv(UV)),
    );
    let loaded = load(&bytes);
    // Rz(90) about (2, 0, 0): (x, y) → (2 − y, x − 2).
    let bbox = loaded.scene().bbox().unwrap();
    assert_eq!((bbox.min, bbox.max), ([-1.0, -2.0, 0.0], [2.0, 0.0, 4.0]));
    let q = quads(&loaded.scene(), 0);
    // East (+X) now faces +Y; up (+Y) faces −X.
    face_with_normal(&q, PY).assert_corners(
        [
            ([-1.0, 0.0, 4.0], TL),
            ([2.0, 0.0, 4.0], BL),
            ([2.0, 0.0, 0.0], BR),
            ([-1.0, 0.0, 0.0], TR),
        ],
        RES,
    );
}

#[test]
fn inflate_and_stretch_change_geometry_never_uvs() {
    let bytes = one_cube(
        Cube::new([0.0; 3], [2.0, 2.0, 2.0])
            .inflate(1.0)
            .stretch([2.0, 1.0, 0.5])
            .all_faces(Face::uv(UV)),
    );
    let loaded = load(&bytes);
    // e = (1 + 1) · stretch about the centre (1, 1, 1).
    let bbox = loaded.scene().bbox().unwrap();
    assert_eq!((bbox.min, bbox.max), ([-3.0, -1.0, 0.0], [5.0, 3.0, 2.0]));
    let north = face_with_normal(&quads(&loaded.scene(), 0), NZ);
    north.assert_corners(
        [
            ([5.0, 3.0, 0.0], TL),
            ([5.0, -1.0, 0.0], BL),
            ([-3.0, -1.0, 0.0], BR),
            ([-3.0, 3.0, 0.0], TR),
        ],
        RES,
    );
}

#[test]
fn reversed_cube_faces_mirror_and_keep_their_uv() {
    // from > to on x: the east face lies on the −X side with east's uv.
    let bytes = one_cube(Cube::new([2.0, 0.0, 0.0], [0.0, 3.0, 4.0]).all_faces(Face::uv(UV)));
    let loaded = load(&bytes);
    let q = quads(&loaded.scene(), 0);
    assert_eq!(q.len(), 6);
    // One axis reversed: an inverted hull, every front inward.
    let east = face_with_normal(&q, PX);
    east.assert_corners(
        [
            ([0.0, 3.0, 4.0], TL),
            ([0.0, 0.0, 4.0], BL),
            ([0.0, 0.0, 0.0], BR),
            ([0.0, 3.0, 0.0], TR),
        ],
        RES,
    );
    // North stays at z = 0, mirrored in x, facing inward (+Z).
    let north = face_with_normal(&q, PZ);
    north.assert_corners(
        [
            ([0.0, 3.0, 0.0], TL),
            ([0.0, 0.0, 0.0], BL),
            ([2.0, 0.0, 0.0], BR),
            ([2.0, 3.0, 0.0], TR),
        ],
        RES,
    );
}

#[test]
fn negative_stretch_reverses_an_axis_like_from_past_to() {
    let a = one_cube(Cube::new([2.0, 0.0, 0.0], [0.0, 3.0, 4.0]).all_faces(Face::uv(UV)));
    let b = one_cube(
        Cube::new([0.0; 3], [2.0, 3.0, 4.0])
            .stretch([-1.0, 1.0, 1.0])
            .all_faces(Face::uv(UV)),
    );
    let (a, b) = (load(&a), load(&b));
    let (a, b) = (a.scene(), b.scene());
    assert_eq!(tris(&a, 0), tris(&b, 0));
}

#[test]
fn negative_inflate_past_half_a_side_reverses_and_exactly_half_is_flat() {
    // 2 × 2 × 2 cube, inflate −1.5: e = −0.5 on every axis, three reversed axes.
    let bytes = one_cube(
        Cube::new([0.0; 3], [2.0; 3])
            .inflate(-1.5)
            .all_faces(Face::uv(UV)),
    );
    let loaded = load(&bytes);
    let q = quads(&loaded.scene(), 0);
    assert_eq!(q.len(), 6);
    for face in &q {
        let c = face.centre();
        assert!(dot(face.normal, sub(c, [1.0; 3])) < 0.0, "inward: {face:?}");
        assert_eq!(face.flags, CAMERA, "an outline hull");
    }
    // inflate −1: e = 0 on every axis: flat, not reversed, no faces at all.
    let bytes = one_cube(
        Cube::new([0.0; 3], [2.0; 3])
            .inflate(-1.0)
            .all_faces(Face::uv(UV)),
    );
    let loaded = load(&bytes);
    assert_eq!(loaded.scene().triangle_count(), 0);
}

#[test]
fn positive_inflate_turns_a_reversed_axis_back() {
    let bytes = one_cube(
        Cube::new([2.0, 0.0, 0.0], [0.0, 2.0, 2.0])
            .inflate(2.0)
            .all_faces(Face::uv(UV)),
    );
    let loaded = load(&bytes);
    let q = quads(&loaded.scene(), 0);
    for face in &q {
        assert!(
            dot(face.normal, sub(face.centre(), [1.0; 3])) > 0.0,
            "outward"
        );
        assert_eq!(face.flags, DOUBLE, "not a hull");
    }
    let bbox = loaded.scene().bbox().unwrap();
    assert_eq!((bbox.min, bbox.max), ([0.0, -2.0, -2.0], [2.0, 4.0, 4.0]));
}

#[test]
fn outline_hull_faces_are_single_sided_and_camera_only() {
    for format in ["free", "java_block", "bedrock_block", "figura"] {
        let bytes = Model::format(format)
            .texture(Texture::png("auto", 16, 16))
            .texture(Texture::png("double", 16, 16).render_sides("double"))
            .element(
                // Reversed on every axis: odd, volume on every axis.
                Cube::new([2.0, 3.0, 4.0], [0.0, 0.0, 0.0])
                    .face("north", Face::uv(UV))
                    .face("south", Face::uv(UV).texture(json!(0)))
                    .face("east", Face::uv(UV).texture(json!(1)))
                    .face("west", Face::uv(UV).texture(false)),
            )
            .bytes();
        let loaded = load(&bytes);
        let q = quads(&loaded.scene(), 0);
        assert_eq!(q.len(), 4);
        for face in &q {
            assert!(
                dot(face.normal, sub(face.centre(), [1.0, 1.5, 2.0])) < 0.0,
                "{format}: inward"
            );
            let want = match face.material {
                1 => DOUBLE,
                _ => CAMERA,
            };
            assert_eq!(face.flags, want, "{format}: material {}", face.material);
        }
    }
}

#[test]
fn outline_hull_front_sided_faces_are_camera_only_too() {
    let bytes = Model::free()
        .texture(Texture::png("front", 16, 16).render_sides("front"))
        .element(Cube::new([2.0, 3.0, 4.0], [0.0; 3]).all_faces(Face::uv(UV).texture(json!(0))))
        .bytes();
    let loaded = load(&bytes);
    for face in quads(&loaded.scene(), 0) {
        assert_eq!(face.flags, CAMERA);
    }
}

#[test]
fn even_reversed_axes_leave_an_outward_box_turned_180() {
    // x and y reversed: outward box, no hull, untextured double-sided in free.
    let bytes = one_cube(Cube::new([2.0, 3.0, 0.0], [0.0, 0.0, 4.0]).all_faces(Face::uv(UV)));
    let loaded = load(&bytes);
    let q = quads(&loaded.scene(), 0);
    for face in &q {
        assert!(dot(face.normal, sub(face.centre(), [1.0, 1.5, 2.0])) > 0.0);
        assert_eq!(face.flags, DOUBLE);
    }
    // North's image turned 180°: its top-left is at the bottom-west corner.
    face_with_normal(&q, NZ).assert_corners(
        [
            ([0.0, 0.0, 0.0], TL),
            ([0.0, 3.0, 0.0], BL),
            ([2.0, 3.0, 0.0], BR),
            ([2.0, 0.0, 0.0], TR),
        ],
        RES,
    );
}

#[test]
fn pane_mirrored_in_its_plane_is_no_hull() {
    // Flat on z, reversed on x: one reversed axis, but no volume.
    let bytes = Model::free()
        .texture(Texture::png("glass", 16, 16))
        .element(
            Cube::new([16.0, 0.0, 8.0], [0.0, 16.0, 8.0])
                .face("north", Face::uv(UV).texture(json!(0))),
        )
        .bytes();
    let loaded = load(&bytes);
    let q = quads(&loaded.scene(), 0);
    assert_eq!(q.len(), 1);
    // A lone face keeps its texture's sidedness (auto in free: double), not camera-only.
    assert_eq!(q[0].flags, DOUBLE);
    // Flattened by inflate (z: 1 − 1 = 0) and reversed on x: no hull either.
    let bytes = Model::free()
        .texture(Texture::png("glass", 16, 16))
        .element(
            Cube::new([16.0, 0.0, 7.0], [0.0, 16.0, 9.0])
                .inflate(-1.0)
                .face("north", Face::uv(UV).texture(json!(0))),
        )
        .bytes();
    let loaded = load(&bytes);
    let q = quads(&loaded.scene(), 0);
    assert_eq!(q.len(), 1);
    assert_eq!(q[0].flags, DOUBLE);
    assert!(q[0].corners.iter().all(|(p, _)| p[2] == 8.0));
}

#[test]
fn flat_cube_keeps_only_its_large_faces_single_sided() {
    for sides in ["auto", "double", "front"] {
        let bytes = Model::free()
            .texture(Texture::png("t", 16, 16).render_sides(sides))
            .element(
                Cube::new([0.0, 0.0, 8.0], [16.0, 16.0, 8.0])
                    .all_faces(Face::uv([0.0, 0.0, 16.0, 16.0]).texture(json!(0))),
            )
            .bytes();
        let loaded = load(&bytes);
        let s = loaded.scene();
        let q = quads(&s, 0);
        assert_eq!(q.len(), 2, "{sides}: only north and south");
        assert_eq!(s.triangle_count(), 4);
        assert_eq!(s.positions().len(), 8);
        let normals: Vec<[f32; 3]> = q.iter().map(|f| f.normal).collect();
        assert!(normals.contains(&NZ) && normals.contains(&PZ));
        for face in &q {
            assert_eq!(face.flags, 0, "{sides}: coincident faces are single-sided");
            assert!(face.corners.iter().all(|(p, _)| p[2] == 8.0));
        }
    }
}

#[test]
fn lone_face_of_a_flat_cube_keeps_its_texture_sidedness() {
    for (format, sides, want) in [
        ("free", "double", DOUBLE),
        ("free", "auto", DOUBLE),
        ("free", "front", 0),
        ("java_block", "auto", 0),
        ("java_block", "double", DOUBLE),
    ] {
        let bytes = Model::format(format)
            .texture(Texture::png("glass", 16, 16).render_sides(sides))
            .element(
                Cube::new([0.0, 0.0, 8.0], [16.0, 16.0, 8.0])
                    .face("north", Face::uv([0.0, 0.0, 16.0, 16.0]).texture(json!(0)))
                    .face(
                        "south",
                        Face::uv([0.0, 0.0, 16.0, 16.0]).texture(json!(null)),
                    ),
            )
            .bytes();
        let loaded = load(&bytes);
        let q = quads(&loaded.scene(), 0);
        assert_eq!(q.len(), 1);
        assert_eq!(q[0].flags, want, "{format} {sides}");
    }
}

#[test]
fn face_texture_null_removes_the_face() {
    let bytes = one_cube(
        cube_234()
            // Its other fields are not read: a bad rotation and uv pass.
            .face(
                "north",
                Face::empty()
                    .texture(json!(null))
                    .rotation(45.0)
                    .set("uv", json!("not an array")),
            ),
    );
    let loaded = load(&bytes);
    let s = loaded.scene();
    let q = quads(&s, 0);
    assert_eq!(q.len(), 5);
    assert!(q.iter().all(|f| f.normal != NZ));
    assert_eq!(s.triangle_count(), 10);
    assert_eq!(s.positions().len(), 20);
}

#[test]
fn face_texture_null_ignores_fields_written_before_it() {
    let bytes =
        one_cube(cube_234().face("north", Face::empty().rotation(45.0).texture(json!(null))));
    let loaded = load(&bytes);
    assert_eq!(loaded.scene().triangle_count(), 10);
}

#[test]
fn face_texture_absent_or_false_is_blank_and_untextured() {
    let bytes = Model::free()
        .resolution(32.0, 64.0)
        .texture(Texture::png("t", 16, 16).uv_size(128.0, 128.0))
        .element(
            Cube::new([0.0; 3], [2.0, 3.0, 4.0])
                .face("north", Face::uv([0.0, 0.0, 16.0, 16.0]))
                .face("south", Face::uv([0.0, 0.0, 16.0, 16.0]).texture(false)),
        )
        .bytes();
    let loaded = load(&bytes);
    let q = quads(&loaded.scene(), 0);
    assert_eq!(q.len(), 2);
    for face in &q {
        assert_eq!(face.material, -1);
        // UVs over the project resolution, not the texture's UV size.
        assert_eq!(face.rect, [0.0, 0.0, 0.5, 0.25]);
    }
}

#[test]
fn face_missing_from_faces_produces_no_triangles() {
    let bytes = one_cube(
        Cube::new([0.0; 3], [2.0, 3.0, 4.0])
            .face("up", Face::uv(UV))
            .face("unknown_face", Face::uv(UV)),
    );
    let loaded = load(&bytes);
    let q = quads(&loaded.scene(), 0);
    assert_eq!(q.len(), 1);
    assert_eq!(q[0].normal, PY);
    // No faces object at all: a mesh without triangles.
    let bytes = Model::free()
        .element(json!({"type": "cube", "from": [0, 0, 0], "to": [1, 1, 1]}))
        .bytes();
    let loaded = load(&bytes);
    assert_eq!(loaded.scene().meshes().len(), 1);
    assert_eq!(loaded.scene().triangle_count(), 0);
}

#[test]
fn texture_index_on_a_face_resolves() {
    let bytes = Model::free()
        .texture(Texture::png("a", 16, 16))
        .texture(Texture::png("b", 16, 16))
        .element(
            Cube::new([0.0; 3], [2.0, 3.0, 4.0])
                .face("north", Face::uv(UV).texture(json!(1)))
                .face("south", Face::uv(UV).texture(json!(0)))
                .face("east", Face::uv(UV).texture(json!(1.0))),
        )
        .bytes();
    let loaded = load(&bytes);
    let q = quads(&loaded.scene(), 0);
    assert_eq!(face_with_normal(&q, NZ).material, 1);
    assert_eq!(face_with_normal(&q, PZ).material, 0);
    assert_eq!(face_with_normal(&q, PX).material, 1);
}

#[test]
fn texture_index_out_of_range_is_invalid_field() {
    for bad in [
        json!(2),
        json!(-1),
        json!(0.5),
        json!(1e6),
        json!(true),
        json!([0]),
        json!({}),
    ] {
        let bytes = Model::free()
            .texture(Texture::png("a", 16, 16))
            .texture(Texture::png("b", 16, 16))
            .element(cube_234().face("north", Face::uv(UV).texture(bad.clone())))
            .bytes();
        let e = error(&bytes);
        assert_eq!(e.code(), ErrorCode::InvalidField, "{bad}");
        assert_eq!(e.at().to_string(), "$.elements[0].faces.north.texture");
    }
}

#[test]
fn texture_uuid_on_a_face_resolves() {
    let bytes = Model::free()
        .texture(Texture::png("a", 16, 16).uuid("uuid-a"))
        .texture(Texture::png("b", 16, 16).uuid("uuid-b").uv_size(32.0, 32.0))
        .element(Cube::new([0.0; 3], [2.0, 3.0, 4.0]).face("north", Face::uv(UV).texture("uuid-b")))
        .bytes();
    let loaded = load(&bytes);
    let q = quads(&loaded.scene(), 0);
    assert_eq!(q[0].material, 1);
    // UVs over texture b's UV size.
    assert_eq!(q[0].rect, [1.0 / 32.0, 2.0 / 32.0, 5.0 / 32.0, 8.0 / 32.0]);
}

#[test]
fn unknown_texture_uuid_is_invalid_field() {
    let bytes = Model::free()
        .texture(Texture::png("a", 16, 16).uuid("uuid-a"))
        .element(cube_234().face("north", Face::uv(UV).texture("uuid-zzz")))
        .bytes();
    let e = error(&bytes);
    assert_eq!(e.code(), ErrorCode::InvalidField);
    assert_eq!(e.at().to_string(), "$.elements[0].faces.north.texture");
    // A texture's name is no uuid.
    let bytes = Model::free()
        .texture(Texture::png("a", 16, 16))
        .element(cube_234().face("north", Face::uv(UV).texture("a")))
        .bytes();
    assert_eq!(error(&bytes).code(), ErrorCode::InvalidField);
}

#[test]
fn render_order_behind_and_in_front() {
    for (order, want) in [
        (Some(json!("default")), 0),
        (None, 0),
        (Some(json!("behind")), -1),
        (Some(json!("in_front")), 1),
    ] {
        let mut cube = cube_234();
        let mut mesh = triangle_mesh();
        if let Some(o) = &order {
            cube = cube.render_order(o.clone());
            mesh = mesh.set("render_order", o.clone());
        }
        let bytes = Model::free().element(cube).element(mesh).bytes();
        let loaded = load(&bytes);
        assert!(warnings(&loaded).is_empty());
        let s = loaded.scene();
        assert_eq!(s.groups().len(), 2);
        for g in s.groups() {
            assert_eq!(g.render_order, want, "{order:?}");
        }
        assert!(quads(&s, 0).iter().all(|q| q.order == want));
    }
}

#[test]
fn render_order_unknown_string_warns_and_non_string_is_invalid_field() {
    let bytes = one_cube(cube_234().render_order("sideways"));
    let loaded = load(&bytes);
    assert_eq!(
        warnings(&loaded),
        vec![(
            WarningCode::UnsupportedValue,
            "$.elements[0].render_order".to_owned()
        )]
    );
    assert_eq!(loaded.scene().groups()[0].render_order, 0);
    for bad in [json!(1), json!(null), json!(true)] {
        let bytes = one_cube(cube_234().render_order(bad.clone()));
        assert_eq!(error(&bytes).code(), ErrorCode::InvalidField, "{bad}");
    }
}

#[test]
fn visibility_false_keeps_the_triangles_flagged_hidden() {
    let bytes = Model::free()
        .element(cube_234().visibility(false))
        .element(cube_234())
        .bytes();
    let loaded = load(&bytes);
    let s = loaded.scene();
    assert_eq!(s.meshes()[0].flags & MeshFlags::VISIBLE, 0);
    assert_ne!(s.meshes()[1].flags & MeshFlags::VISIBLE, 0);
    assert_eq!(s.meshes()[0].index_count, 36);
}

#[test]
fn cube_faces_are_grouped_by_material() {
    let bytes = Model::free()
        .texture(Texture::png("a", 16, 16))
        .texture(Texture::png("b", 16, 16).render_sides("front"))
        .element(
            Cube::new([0.0; 3], [2.0, 3.0, 4.0])
                .face("north", Face::uv(UV).texture(json!(1)))
                .face("east", Face::uv(UV).texture(json!(0)))
                .face("south", Face::uv(UV))
                .face("west", Face::uv(UV).texture(json!(1)))
                .face("up", Face::uv(UV).texture(json!(0)))
                .face("down", Face::uv(UV).texture(json!(1))),
        )
        .bytes();
    let loaded = load(&bytes);
    let s = loaded.scene();
    let mut groups: Vec<(i32, u32, u32)> = s
        .groups()
        .iter()
        .map(|g| (g.material, g.flags, g.index_count / 6))
        .collect();
    groups.sort();
    assert_eq!(groups, vec![(-1, DOUBLE, 1), (0, DOUBLE, 2), (1, 0, 3)]);
}

// ---------------------------------------------------------------- box UV

/// 2 × 3 × 4 box-UV cube: w = 2, h = 3, d = 4.
fn box_quads(model: Model, cube: Cube, size: [f32; 2]) -> Vec<(Quad, [f32; 4])> {
    let bytes = model.element(cube).bytes();
    let loaded = load(&bytes);
    quads(&loaded.scene(), 0)
        .into_iter()
        .map(|q| {
            let r = q.rect;
            (
                q,
                [
                    r[0] * size[0],
                    r[1] * size[1],
                    r[2] * size[0],
                    r[3] * size[1],
                ],
            )
        })
        .collect()
}

fn rect_of(faces: &[(Quad, [f32; 4])], normal: [f32; 3]) -> [f32; 4] {
    faces.iter().find(|(q, _)| q.normal == normal).unwrap().1
}

#[test]
fn convention_5_box_uv_layout() {
    let faces = box_quads(
        Model::free().box_uv(true).resolution(64.0, 64.0),
        Cube::new([0.0; 3], [2.0, 3.0, 4.0]).all_faces(Face::empty()),
        [64.0, 64.0],
    );
    assert_eq!(faces.len(), 6);
    // east (0, d) d×h; north (d, d) w×h; west (d + w, d) d×h; south (2d + w, d) w×h;
    // up [d + w, d, d, 0]; down [d + 2w, 0, d + w, d] (as bounding boxes).
    assert_eq!(rect_of(&faces, PX), [0.0, 4.0, 4.0, 7.0]);
    assert_eq!(rect_of(&faces, NZ), [4.0, 4.0, 6.0, 7.0]);
    assert_eq!(rect_of(&faces, NX), [6.0, 4.0, 10.0, 7.0]);
    assert_eq!(rect_of(&faces, PZ), [10.0, 4.0, 12.0, 7.0]);
    assert_eq!(rect_of(&faces, PY), [4.0, 0.0, 6.0, 4.0]);
    assert_eq!(rect_of(&faces, NY), [6.0, 0.0, 8.0, 4.0]);
    let s = [64.0, 64.0];
    let find = |n| faces.iter().find(|(q, _)| q.normal == n).unwrap().0.clone();
    // North as a plain [4, 4, 6, 7] face.
    find(NZ).assert_corners(
        [
            ([2.0, 3.0, 0.0], [4.0, 4.0]),
            ([2.0, 0.0, 0.0], [4.0, 7.0]),
            ([0.0, 0.0, 0.0], [6.0, 7.0]),
            ([0.0, 3.0, 0.0], [6.0, 4.0]),
        ],
        s,
    );
    // Up stored turned 180°: [6, 4, 4, 0].
    find(PY).assert_corners(
        [
            ([0.0, 3.0, 0.0], [6.0, 4.0]),
            ([0.0, 3.0, 4.0], [6.0, 0.0]),
            ([2.0, 3.0, 4.0], [4.0, 0.0]),
            ([2.0, 3.0, 0.0], [4.0, 4.0]),
        ],
        s,
    );
    // Down stored mirrored horizontally: [8, 0, 6, 4].
    find(NY).assert_corners(
        [
            ([0.0, 0.0, 4.0], [8.0, 0.0]),
            ([0.0, 0.0, 0.0], [8.0, 4.0]),
            ([2.0, 0.0, 0.0], [6.0, 4.0]),
            ([2.0, 0.0, 4.0], [6.0, 0.0]),
        ],
        s,
    );
}

#[test]
fn convention_5_box_uv_offset_and_mirror_uv() {
    let faces = box_quads(
        Model::free().box_uv(true).resolution(64.0, 64.0),
        Cube::new([0.0; 3], [2.0, 3.0, 4.0])
            .uv_offset([10.0, 20.0])
            .all_faces(Face::empty()),
        [64.0, 64.0],
    );
    assert_eq!(rect_of(&faces, PX), [10.0, 24.0, 14.0, 27.0]);
    assert_eq!(rect_of(&faces, NY), [16.0, 20.0, 18.0, 24.0]);
    // mirror_uv: every face flipped horizontally, east and west swapped.
    let faces = box_quads(
        Model::free().box_uv(true).resolution(64.0, 64.0),
        Cube::new([0.0; 3], [2.0, 3.0, 4.0])
            .mirror_uv(true)
            .all_faces(Face::empty()),
        [64.0, 64.0],
    );
    assert_eq!(rect_of(&faces, PX), [6.0, 4.0, 10.0, 7.0]);
    assert_eq!(rect_of(&faces, NX), [0.0, 4.0, 4.0, 7.0]);
    assert_eq!(rect_of(&faces, NZ), [4.0, 4.0, 6.0, 7.0]);
    let north = faces
        .iter()
        .find(|(q, _)| q.normal == NZ)
        .unwrap()
        .0
        .clone();
    // Flipped: the top-left corner (east) now reads u = 6.
    assert_eq!(north.uv_at([2.0, 3.0, 0.0]), [6.0 / 64.0, 4.0 / 64.0]);
    let east = faces
        .iter()
        .find(|(q, _)| q.normal == PX)
        .unwrap()
        .0
        .clone();
    // East takes west's place flipped: [10, 4, 6, 7].
    assert_eq!(east.uv_at([2.0, 3.0, 4.0]), [10.0 / 64.0, 4.0 / 64.0]);
}

#[test]
fn box_uv_from_the_cubes_own_box_uv_and_explicit_uv_wins() {
    let faces = box_quads(
        Model::free().resolution(64.0, 64.0),
        Cube::new([0.0; 3], [2.0, 3.0, 4.0])
            .box_uv(true)
            .all_faces(Face::empty())
            .face("north", Face::uv([0.0, 0.0, 1.0, 1.0])),
        [64.0, 64.0],
    );
    assert_eq!(rect_of(&faces, PX), [0.0, 4.0, 4.0, 7.0]);
    assert_eq!(rect_of(&faces, NZ), [0.0, 0.0, 1.0, 1.0]);
    // The cube's box_uv: false wins over meta.box_uv.
    let faces = box_quads(
        Model::free().box_uv(true).resolution(64.0, 64.0),
        Cube::new([0.0; 3], [2.0, 3.0, 4.0])
            .box_uv(false)
            .all_faces(Face::uv([0.0, 0.0, 1.0, 1.0])),
        [64.0, 64.0],
    );
    assert_eq!(rect_of(&faces, PX), [0.0, 0.0, 1.0, 1.0]);
}

#[test]
fn box_uv_size_is_floored_except_in_modded_entity() {
    let cube = || Cube::new([0.0; 3], [1.5, 2.5, 3.5]).all_faces(Face::empty());
    // floor: w, h, d = 1, 2, 3: north at (3, 3), 1 × 2.
    let faces = box_quads(
        Model::free().box_uv(true).resolution(64.0, 64.0),
        cube(),
        [64.0, 64.0],
    );
    assert_eq!(rect_of(&faces, NZ), [3.0, 3.0, 4.0, 5.0]);
    // modded_entity keeps 1.5, 2.5, 3.5.
    let faces = box_quads(
        Model::format("modded_entity")
            .box_uv(true)
            .resolution(64.0, 64.0),
        cube(),
        [64.0, 64.0],
    );
    assert_eq!(rect_of(&faces, NZ), [3.5, 3.5, 5.0, 6.0]);
    // floor(to − from + 1e-7): 2.9999999999999996 counts as 3.
    let faces = box_quads(
        Model::free().box_uv(true).resolution(64.0, 64.0),
        Cube::new([0.1, 0.0, 0.0], [3.0999999999999996, 1.0, 1.0]).all_faces(Face::empty()),
        [64.0, 64.0],
    );
    assert_eq!(rect_of(&faces, NZ), [1.0, 1.0, 4.0, 2.0]);
}

#[test]
fn box_uv_size_is_signed_on_a_reversed_axis_and_ignores_inflate_and_stretch() {
    // x reversed: w = −2, north at (d, d) with width −2: [4, 4, 2, 7].
    let faces = box_quads(
        Model::free().box_uv(true).resolution(64.0, 64.0),
        Cube::new([2.0, 0.0, 0.0], [0.0, 3.0, 4.0]).all_faces(Face::empty()),
        [64.0, 64.0],
    );
    let north = faces
        .iter()
        .find(|(q, _)| q.corners.iter().all(|(p, _)| p[2] == 0.0))
        .unwrap();
    assert_eq!(north.1, [2.0, 4.0, 4.0, 7.0]);
    // Inflate and stretch leave the layout alone.
    let plain = box_quads(
        Model::free().box_uv(true).resolution(64.0, 64.0),
        Cube::new([0.0; 3], [2.0, 3.0, 4.0]).all_faces(Face::empty()),
        [64.0, 64.0],
    );
    let inflated = box_quads(
        Model::free().box_uv(true).resolution(64.0, 64.0),
        Cube::new([0.0; 3], [2.0, 3.0, 4.0])
            .inflate(1.0)
            .stretch([2.0, 2.0, 3.0])
            .all_faces(Face::empty()),
        [64.0, 64.0],
    );
    for n in [PX, NX, PY, NY, PZ, NZ] {
        assert_eq!(rect_of(&plain, n), rect_of(&inflated, n));
    }
}

#[test]
fn pre_4_5_box_uv_shade_false_mirrors() {
    let rects = |model: Model, cube: Cube| {
        let faces = box_quads(model.resolution(64.0, 64.0), cube, [64.0, 64.0]);
        [PX, NX, NZ].map(|n| rect_of(&faces, n))
    };
    let cube = || Cube::new([0.0; 3], [2.0, 3.0, 4.0]).all_faces(Face::empty());
    let mirrored = rects(
        Model::new("4.5").model_format("free").box_uv(true),
        cube().mirror_uv(true),
    );
    let plain = rects(Model::new("4.5").model_format("free").box_uv(true), cube());
    assert_ne!(mirrored, plain);
    for v in ["3.6", "4.0", "4.4"] {
        let m = Model::new(v).model_format("free").box_uv(true);
        assert_eq!(rects(m, cube().shade(false)), mirrored, "{v}");
    }
    for v in ["4.5", "4.10", "5.0"] {
        let m = Model::new(v).model_format("free").box_uv(true);
        assert_eq!(rects(m, cube().shade(false)), plain, "{v}");
    }
    // Only in a box-UV project (meta.box_uv): a cube's own box_uv does not count.
    let m = Model::new("4.0").model_format("free");
    assert_eq!(rects(m, cube().box_uv(true).shade(false)), plain);
}

// ------------------------------------------------------------ UV spaces

#[test]
fn per_texture_uv_size_in_free_but_not_in_bedrock() {
    let uvs = |format: &str| {
        let bytes = Model::format(format)
            // A square image, so that no UV space makes it a frame strip.
            .texture(Texture::png("t", 32, 32).uv_size(32.0, 64.0))
            .element(
                Cube::new([0.0; 3], [2.0, 3.0, 4.0])
                    .face("north", Face::uv([0.0, 0.0, 16.0, 16.0]).texture(json!(0))),
            )
            .bytes();
        let loaded = load(&bytes);
        let s = loaded.scene();
        let t = s.textures()[0];
        assert_eq!(t.frame_count, 1, "{format}");
        (quads(&s, 0)[0].rect, [t.uv_width, t.uv_height])
    };
    for format in ["free", "figura", "hytale_prop"] {
        assert_eq!(
            uvs(format),
            ([0.0, 0.0, 0.5, 0.25], [32.0, 64.0]),
            "{format}"
        );
    }
    for format in [
        "bedrock",
        "java_block",
        "modded_entity",
        "geckolib_model",
        "some_plugin",
    ] {
        assert_eq!(
            uvs(format),
            ([0.0, 0.0, 1.0, 1.0], [16.0, 16.0]),
            "{format}"
        );
    }
}

#[test]
fn uv_size_defaults_to_the_project_resolution() {
    let bytes = Model::free()
        .resolution(64.0, 32.0)
        .texture(Texture::png("t", 64, 32))
        .element(
            Cube::new([0.0; 3], [2.0, 3.0, 4.0])
                .face("north", Face::uv([0.0, 0.0, 16.0, 16.0]).texture(json!(0))),
        )
        .bytes();
    let loaded = load(&bytes);
    assert_eq!(quads(&loaded.scene(), 0)[0].rect, [0.0, 0.0, 0.25, 0.5]);
    let t = loaded.scene().textures()[0];
    assert_eq!([t.uv_width, t.uv_height], [64.0, 32.0]);
}

#[test]
fn bad_uv_size_fails_free_and_warns_in_the_other_per_texture_formats() {
    for bad in [json!(0), json!(-16), json!("32"), json!(null)] {
        let model = Model::free()
            .texture(Texture::png("t", 16, 16).set("uv_width", bad.clone()))
            .element(cube_234());
        let e = error(&model.bytes());
        assert_eq!(e.code(), ErrorCode::InvalidField, "{bad}");
        assert_eq!(e.at().to_string(), "$.textures[0].uv_width");
    }
    for format in ["figura", "image", "optifine_entity", "hytale_character"] {
        let bytes = Model::format(format)
            .resolution(16.0, 16.0)
            .texture(Texture::png("t", 16, 16).set("uv_height", json!("x")))
            .bytes();
        let loaded = load(&bytes);
        assert_eq!(
            warnings(&loaded),
            vec![(
                WarningCode::UnsupportedValue,
                "$.textures[0].uv_height".to_owned()
            )],
            "{format}"
        );
        assert_eq!(loaded.scene().textures()[0].uv_height, 16.0);
    }
    // Formats without per-texture UV size do not read the fields.
    let bytes = Model::format("bedrock")
        .texture(Texture::png("t", 16, 16).set("uv_width", json!("x")))
        .bytes();
    load(&bytes);
}

// ------------------------------------------------------------ sidedness

#[test]
fn convention_9_auto_is_single_sided_only_in_java_block() {
    for (format, auto) in [
        ("java_block", 0),
        ("free", DOUBLE),
        ("figura", DOUBLE),
        ("bamo_model", DOUBLE),
        ("unknown_plugin_format", DOUBLE),
    ] {
        let bytes = Model::format(format)
            .texture(Texture::png("auto", 16, 16).render_sides("auto"))
            .texture(Texture::png("front", 16, 16).render_sides("front"))
            .texture(Texture::png("double", 16, 16).render_sides("double"))
            .texture(Texture::png("unset", 16, 16))
            .element(
                Cube::new([0.0; 3], [2.0, 3.0, 4.0])
                    .face("north", Face::uv(UV).texture(json!(0)))
                    .face("east", Face::uv(UV).texture(json!(1)))
                    .face("south", Face::uv(UV).texture(json!(2)))
                    .face("west", Face::uv(UV).texture(json!(3)))
                    .face("up", Face::uv(UV)),
            )
            .element(
                triangle_mesh()
                    .face("f1", tri_face().texture(json!(0)))
                    .face("f2", tri_face().texture(json!(1)))
                    .face("f3", tri_face().texture(json!(2)))
                    .face("f4", tri_face().texture(json!(3))),
            )
            .bytes();
        let loaded = load(&bytes);
        let s = loaded.scene();
        for mesh in 0..2 {
            for t in tris(&s, mesh) {
                let want = match t.material {
                    -1 | 0 | 3 => auto,
                    1 => 0,
                    2 => DOUBLE,
                    m => panic!("material {m}"),
                };
                assert_eq!(
                    t.flags, want,
                    "{format}: mesh {mesh} material {}",
                    t.material
                );
            }
        }
    }
}

#[test]
fn render_sides_unknown_warns_as_auto_and_non_string_is_invalid_field() {
    let bytes = Model::format("java_block")
        .texture(Texture::png("t", 16, 16).render_sides("both"))
        .element(cube_234().all_faces(Face::uv(UV).texture(json!(0))))
        .bytes();
    let loaded = load(&bytes);
    assert_eq!(
        warnings(&loaded),
        vec![(
            WarningCode::UnsupportedValue,
            "$.textures[0].render_sides".to_owned()
        )]
    );
    assert!(loaded.scene().groups().iter().all(|g| g.flags == 0));
    for bad in [json!(1), json!(true), json!(null)] {
        let model = Model::free().texture(Texture::png("t", 16, 16).render_sides(bad.clone()));
        assert_eq!(code(&model), ErrorCode::InvalidField, "{bad}");
    }
}

// ----------------------------------------------------------------- meshes

fn tri_face() -> MeshFace {
    MeshFace::new(&[("a", [0.0, 0.0]), ("b", [16.0, 0.0]), ("c", [0.0, 16.0])])
}

/// Vertices a = (0, 0, 0), b = (1, 0, 0), c = (0, 1, 0); one face (a, b, c).
fn triangle_mesh() -> Mesh {
    Mesh::new()
        .vertex("a", [0.0, 0.0, 0.0])
        .vertex("b", [1.0, 0.0, 0.0])
        .vertex("c", [0.0, 1.0, 0.0])
        .face("f0", tri_face())
}

fn mesh_tris(mesh: Mesh) -> Vec<Tri> {
    mesh_tris_in(Model::free(), mesh)
}

fn mesh_tris_in(model: Model, mesh: Mesh) -> Vec<Tri> {
    let bytes = model.element(mesh).bytes();
    let loaded = load(&bytes);
    tris(&loaded.scene(), 0)
}

/// Triangles as position triples, each rotated to start at its smallest
/// vertex (winding kept), sorted.
fn sorted(triangles: Vec<[[f32; 3]; 3]>) -> Vec<[[f32; 3]; 3]> {
    let mut out: Vec<[[f32; 3]; 3]> = triangles
        .into_iter()
        .map(|p| {
            let k = (0..3)
                .min_by(|&i, &j| p[i].partial_cmp(&p[j]).unwrap())
                .unwrap();
            [p[k], p[(k + 1) % 3], p[(k + 2) % 3]]
        })
        .collect();
    out.sort_by(|a, b| a.partial_cmp(b).unwrap());
    out
}

/// The scene's triangles of a mesh, as [`sorted`] gives them.
fn shapes(t: &[Tri]) -> Vec<[[f32; 3]; 3]> {
    sorted(t.iter().map(|t| t.p).collect())
}

#[test]
fn convention_6_mesh_vertex_lands_at_origin_plus_r_v() {
    let t = mesh_tris(
        Mesh::new()
            .origin([10.0, 0.0, 0.0])
            .rotation([0.0, 90.0, 0.0])
            .vertex("a", [1.0, 0.0, 0.0])
            .vertex("b", [0.0, 1.0, 0.0])
            .vertex("c", [0.0, 0.0, 1.0])
            .face("f", tri_face()),
    );
    assert_eq!(t.len(), 1);
    // R (+90° about Y): (x, y, z) → (z, y, −x).
    assert_eq!(
        t[0].p,
        [[10.0, 0.0, -1.0], [10.0, 1.0, 0.0], [11.0, 0.0, 0.0]]
    );
    assert_eq!(t[0].uv, [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]);
    // Flat normal: (b − a) × (c − a) = (1, 1, 1)/√3, turned: (1, 1, −1)/√3.
    let k = 1.0 / 3f32.sqrt();
    for n in t[0].n {
        assert!(close3(n, [k, k, -k]), "{n:?}");
    }
    assert_ccw(&t[0], [k, k, -k]);
}

#[test]
fn convention_7_triangle_normal_is_v1_minus_v0_cross_v2_minus_v0() {
    let t = mesh_tris(triangle_mesh());
    assert_eq!(t[0].n, [PZ; 3]);
    let t = mesh_tris(triangle_mesh().face(
        "f0",
        MeshFace::new(&[("a", [0.0, 0.0]), ("c", [0.0, 16.0]), ("b", [16.0, 0.0])]),
    ));
    assert_eq!(t[0].n, [NZ; 3]);
    assert_ccw(&t[0], NZ);
}

/// p0 = (0, 0, 0), p1 = (0, 0, 1), p2 = (1, 0, 1), p3 = (1, 0, 0): a loop facing +Y.
fn quad_mesh(order: [usize; 4]) -> Mesh {
    let p = [
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 1.0],
        [1.0, 0.0, 1.0],
        [1.0, 0.0, 0.0],
    ];
    let keys = ["p0", "p1", "p2", "p3"];
    let mut m = Mesh::new();
    for (k, v) in keys.iter().zip(p) {
        m = m.vertex(k, v);
    }
    let verts: Vec<(&str, [f64; 2])> = order
        .iter()
        .map(|&i| (keys[i], [p[i][0] * 16.0, p[i][2] * 16.0]))
        .collect();
    m.face("q", MeshFace::new(&verts))
}

#[test]
fn convention_7_quad_order() {
    let p0 = [0.0, 0.0, 0.0];
    let p1 = [0.0, 0.0, 1.0];
    let p2 = [1.0, 0.0, 1.0];
    let p3 = [1.0, 0.0, 0.0];
    // The loop p0 p1 p2 p3, split along its 0–2 diagonal.
    let want = sorted(vec![[p0, p1, p2], [p0, p2, p3]]);
    for stored in [
        // In order.
        [0, 1, 2, 3],
        // Vertex 3 across the line 1–2 from vertex 0: the loop is 2, 0, 1, 3.
        [1, 2, 0, 3],
        // Vertex 3 across the line 0–1 from vertex 2: the loop is 0, 2, 1, 3.
        [0, 2, 1, 3],
    ] {
        let t = mesh_tris(quad_mesh(stored));
        assert_eq!(t.len(), 2, "{stored:?}");
        assert_eq!(shapes(&t), want, "{stored:?}");
        for tri in &t {
            assert_eq!(tri.n, [PY; 3], "{stored:?}");
            assert_ccw(tri, PY);
        }
    }
    // The reverse loop faces −Y.
    let t = mesh_tris(quad_mesh([3, 2, 1, 0]));
    for tri in &t {
        assert_eq!(tri.n, [NY; 3]);
        assert_ccw(tri, NY);
    }
}

#[test]
fn convention_7_plane_primitive_faces_plus_y() {
    // Blockbench's plane: a = (8, 0, 8), b = (8, 0, −8), c = (−8, 0, 8),
    // d = (−8, 0, −8), face [a, b, d, c].
    let m = Mesh::new()
        .vertex("a", [8.0, 0.0, 8.0])
        .vertex("b", [8.0, 0.0, -8.0])
        .vertex("c", [-8.0, 0.0, 8.0])
        .vertex("d", [-8.0, 0.0, -8.0])
        .face(
            "f",
            MeshFace::new(&[
                ("a", [16.0, 16.0]),
                ("b", [16.0, 0.0]),
                ("d", [0.0, 0.0]),
                ("c", [0.0, 16.0]),
            ]),
        );
    let t = mesh_tris(m);
    assert_eq!(t.len(), 2);
    for tri in &t {
        assert_eq!(tri.n, [PY; 3]);
        assert_ccw(tri, PY);
    }
}

#[test]
fn concave_quad_splits_along_its_1_3_diagonal() {
    // A dart in z = 0, concave at vertex 3: the 0–2 diagonal runs outside.
    let m = Mesh::new()
        .vertex("p0", [0.0, 0.0, 0.0])
        .vertex("p1", [4.0, 0.0, 0.0])
        .vertex("p2", [2.0, 4.0, 0.0])
        .vertex("p3", [2.0, 1.0, 0.0])
        .face(
            "f",
            MeshFace::new(&[
                ("p0", [0.0, 0.0]),
                ("p1", [4.0, 0.0]),
                ("p2", [2.0, 4.0]),
                ("p3", [2.0, 1.0]),
            ]),
        );
    let t = mesh_tris(m);
    let want = sorted(vec![
        [[4.0, 0.0, 0.0], [2.0, 4.0, 0.0], [2.0, 1.0, 0.0]],
        [[4.0, 0.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 0.0]],
    ]);
    assert_eq!(shapes(&t), want);
    for tri in &t {
        assert_ccw(tri, PZ);
        assert_eq!(tri.n, [PZ; 3]);
    }
}

#[test]
fn polygon_of_5_to_16_vertices_is_ear_clipped() {
    // An L-shaped hexagon in z = 0 (area 12) and a 16-gon (a regular-ish
    // concave star of integer points).
    let l = [
        [0.0, 0.0],
        [4.0, 0.0],
        [4.0, 2.0],
        [2.0, 2.0],
        [2.0, 4.0],
        [0.0, 4.0],
    ];
    let mut star = Vec::new();
    for i in 0..16 {
        let a = i as f64 * std::f64::consts::PI / 8.0;
        let r = if i % 2 == 0 { 8.0 } else { 3.0 };
        star.push([(r * a.cos()).round(), (r * a.sin()).round()]);
    }
    for polygon in [l.to_vec(), star] {
        let keys: Vec<String> = (0..polygon.len()).map(|i| format!("v{i:02}")).collect();
        let mut m = Mesh::new();
        for (k, p) in keys.iter().zip(&polygon) {
            m = m.vertex(k, [p[0], p[1], 0.0]);
        }
        let verts: Vec<(&str, [f64; 2])> = keys
            .iter()
            .zip(&polygon)
            .map(|(k, p)| (k.as_str(), *p))
            .collect();
        let t = mesh_tris(m.face("f", MeshFace::new(&verts)));
        let k = polygon.len();
        assert_eq!(t.len(), k - 2);
        // Shoelace area = sum of the triangles' areas, each counter-clockwise.
        let area: f64 = (0..k)
            .map(|i| {
                let (a, b) = (polygon[i], polygon[(i + 1) % k]);
                a[0] * b[1] - b[0] * a[1]
            })
            .sum::<f64>();
        let sum: f32 = t.iter().map(area2).sum();
        assert!((f64::from(sum) - area).abs() < 1e-3, "{sum} vs {area}");
        for tri in &t {
            assert_ccw(tri, PZ);
            assert_eq!(tri.n, [PZ; 3]);
        }
    }
}

#[test]
fn self_crossing_polygon_falls_back_to_a_fan() {
    // A pentagram traversed counter-clockwise overall (Newell normal +Z).
    let pts = [
        [0.0, 10.0],
        [-6.0, -8.0],
        [10.0, 3.0],
        [-10.0, 3.0],
        [6.0, -8.0],
    ];
    let keys = ["v0", "v1", "v2", "v3", "v4"];
    let mut m = Mesh::new();
    for (k, p) in keys.iter().zip(pts) {
        m = m.vertex(k, [p[0], p[1], 0.0]);
    }
    let verts: Vec<(&str, [f64; 2])> = keys.iter().zip(pts).map(|(k, p)| (*k, p)).collect();
    let t = mesh_tris(m.face("f", MeshFace::new(&verts)));
    let p = |i: usize| [pts[i][0] as f32, pts[i][1] as f32, 0.0];
    // The fan (0, i, i + 1), each triangle turned counter-clockwise about +Z.
    let mut want = Vec::new();
    for i in 1..4 {
        let tri = [p(0), p(i), p(i + 1)];
        let n = cross(sub(tri[1], tri[0]), sub(tri[2], tri[0]));
        want.push(if n[2] > 0.0 {
            tri
        } else {
            [tri[0], tri[2], tri[1]]
        });
    }
    assert_eq!(shapes(&t), sorted(want));
    for tri in &t {
        assert_ccw(tri, PZ);
    }
}

#[test]
fn faces_with_fewer_than_3_vertices_or_no_area_are_dropped() {
    let m = triangle_mesh()
        .vertex("d", [2.0, 0.0, 0.0])
        .face("f1", MeshFace::new(&[("a", [0.0, 0.0]), ("b", [1.0, 1.0])]))
        .face("f2", MeshFace::new(&[("a", [0.0, 0.0])]))
        .face("f3", MeshFace::new(&[]))
        // Collinear: a, b, d on the x axis.
        .face(
            "f4",
            MeshFace::new(&[("a", [0.0, 0.0]), ("b", [1.0, 1.0]), ("d", [2.0, 2.0])]),
        )
        .face(
            "f5",
            MeshFace::new(&[
                ("a", [0.0, 0.0]),
                ("b", [1.0, 1.0]),
                ("d", [2.0, 2.0]),
                ("c", [2.0, 2.0]),
            ])
            .texture(json!(null)),
        );
    let bytes = Model::free().element(m).bytes();
    let loaded = load(&bytes);
    let s = loaded.scene();
    // f0 (a triangle) and f5 (a quad with area) draw; the rest are dropped.
    assert_eq!(s.triangle_count(), 3);
    assert_eq!(s.positions().len(), 7);
    assert_eq!(s.uv_rects().len(), 3);
}

#[test]
fn convention_11_smooth_normals() {
    // F1 = (a, b, c) faces +Z (area 8); F2 = (a, e, b) faces +Y (area 2).
    // a and b average the two unit normals unweighted: (0, 1, 1)/√2.
    let mesh = |rotation: [f64; 3]| {
        Mesh::new()
            .shading("smooth")
            .rotation(rotation)
            .vertex("a", [0.0, 0.0, 0.0])
            .vertex("b", [4.0, 0.0, 0.0])
            .vertex("c", [0.0, 4.0, 0.0])
            .vertex("e", [0.0, 0.0, 1.0])
            .face(
                "f1",
                MeshFace::new(&[("a", [0.0, 0.0]), ("b", [1.0, 0.0]), ("c", [0.0, 1.0])]),
            )
            .face(
                "f2",
                MeshFace::new(&[("a", [0.0, 0.0]), ("e", [1.0, 0.0]), ("b", [0.0, 1.0])]),
            )
    };
    let k = std::f32::consts::FRAC_1_SQRT_2;
    type Expected = [([f32; 3], [f32; 3]); 4];
    let cases: [([f64; 3], Expected); 2] = [
        (
            [0.0; 3],
            [
                ([0.0, 0.0, 0.0], [0.0, k, k]),
                ([4.0, 0.0, 0.0], [0.0, k, k]),
                ([0.0, 4.0, 0.0], PZ),
                ([0.0, 0.0, 1.0], PY),
            ],
        ),
        // Rx(90): (x, y, z) → (x, −z, y); the normals turn with the mesh.
        (
            [90.0, 0.0, 0.0],
            [
                ([0.0, 0.0, 0.0], [0.0, -k, k]),
                ([4.0, 0.0, 0.0], [0.0, -k, k]),
                ([0.0, 0.0, 4.0], NY),
                ([0.0, -1.0, 0.0], PZ),
            ],
        ),
    ];
    for (rotation, want) in cases {
        let t = mesh_tris(mesh(rotation));
        assert_eq!(t.len(), 2);
        let mut seen = 0;
        for tri in &t {
            for (p, n) in tri.p.iter().zip(tri.n) {
                let (_, expected) = want
                    .iter()
                    .find(|(q, _)| close3(*q, *p))
                    .unwrap_or_else(|| panic!("{rotation:?}: unexpected vertex {p:?}"));
                assert!(
                    close3(n, *expected),
                    "{rotation:?}: normal at {p:?} is {n:?}, want {expected:?}"
                );
                seen += 1;
            }
        }
        assert_eq!(seen, 6);
    }
}

#[test]
fn flat_shading_is_the_default_and_unknown_shading_warns() {
    let mesh = || {
        Mesh::new()
            .vertex("a", [0.0, 0.0, 0.0])
            .vertex("b", [4.0, 0.0, 0.0])
            .vertex("c", [0.0, 4.0, 0.0])
            .vertex("e", [0.0, 0.0, 1.0])
            .face(
                "f1",
                MeshFace::new(&[("a", [0.0, 0.0]), ("b", [1.0, 0.0]), ("c", [0.0, 1.0])]),
            )
            .face(
                "f2",
                MeshFace::new(&[("a", [0.0, 0.0]), ("e", [1.0, 0.0]), ("b", [0.0, 1.0])]),
            )
    };
    for (shading, warned) in [
        (None, false),
        (Some("flat"), false),
        (Some("gouraud"), true),
    ] {
        let m = match shading {
            Some(s) => mesh().shading(s),
            None => mesh(),
        };
        let bytes = Model::free().element(m).bytes();
        let loaded = load(&bytes);
        let t = tris(&loaded.scene(), 0);
        let normals: Vec<[[f32; 3]; 3]> = t.iter().map(|t| t.n).collect();
        assert!(
            normals.contains(&[PZ; 3]) && normals.contains(&[PY; 3]),
            "{shading:?}"
        );
        let w = warnings(&loaded);
        if warned {
            assert_eq!(
                w,
                vec![(
                    WarningCode::UnsupportedValue,
                    "$.elements[0].shading".to_owned()
                )]
            );
        } else {
            assert!(w.is_empty());
        }
    }
    let bytes = Model::free().element(mesh().shading(json!(1))).bytes();
    assert_eq!(error(&bytes).code(), ErrorCode::InvalidField);
}

#[test]
fn mesh_face_naming_an_unknown_vertex_key_is_invalid_field() {
    let m = triangle_mesh().face(
        "f0",
        MeshFace::new(&[("a", [0.0, 0.0]), ("b", [1.0, 0.0]), ("zz", [0.0, 1.0])]),
    );
    let e = error(&Model::free().element(m).bytes());
    assert_eq!(e.code(), ErrorCode::InvalidField);
    assert_eq!(e.at().to_string(), "$.elements[0].faces.f0.vertices[2]");
}

#[test]
fn mesh_face_naming_a_vertex_key_twice_is_invalid_field() {
    let m = triangle_mesh().face(
        "f0",
        MeshFace::new(&[
            ("a", [0.0, 0.0]),
            ("b", [1.0, 0.0]),
            ("c", [0.0, 1.0]),
            ("a", [0.0, 0.0]),
        ]),
    );
    assert_eq!(code(&Model::free().element(m)), ErrorCode::InvalidField);
}

#[test]
fn mesh_face_missing_a_uv_entry_is_invalid_field() {
    let m = triangle_mesh().face(
        "f0",
        MeshFace::new(&[("a", [0.0, 0.0]), ("b", [1.0, 0.0])])
            .set("vertices", json!(["a", "b", "c"])),
    );
    let e = error(&Model::free().element(m).bytes());
    assert_eq!(e.code(), ErrorCode::InvalidField);
    assert!(e.at().to_string().starts_with("$.elements[0].faces.f0.uv"));
}

#[test]
fn mesh_face_uv_entries_beyond_its_vertices_are_ignored() {
    // More entries than a face can have vertices (64), its own last: the
    // reader keeps what it can and reads the object again for the rest.
    let mut uv = support::bbmodel_builder::Obj::new();
    for i in 0..100 {
        uv.put(&format!("other{i}"), [0.0, 0.0]);
    }
    for (k, v) in [("a", [0.0, 0.0]), ("b", [16.0, 0.0]), ("c", [0.0, 16.0])] {
        uv.put(k, v);
    }
    let m = triangle_mesh().face("f0", tri_face().set("uv", uv));
    let t = mesh_tris(m);
    assert_eq!(t[0].uv, [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]);
}

#[test]
fn mesh_face_uv_errors_count_after_its_vertex_list() {
    // The uv object (written first, as Blockbench does) is read where it
    // stands, but its errors count as if it were read after the vertices.
    let face = |vertices: &str| {
        format!(
            r#"{{"type": "mesh", "vertices": {{"a": [0, 0, 0], "b": [1, 0, 0], "c": [0, 1, 0]}},
            "faces": {{"f": {{"uv": {{"a": [0, "x"], "b": [1, 0], "c": [0, 1]}}, "vertices": {vertices}}}}}}}"#
        )
    };
    let at = |vertices: &str| {
        error(&one_element(Model::free(), Raw(face(vertices))))
            .at()
            .to_string()
    };
    assert_eq!(
        at(r#"["a", "a", "c"]"#),
        "$.elements[0].faces.f.vertices[1]"
    );
    assert_eq!(at(r#"["a", "b", "c"]"#), "$.elements[0].faces.f.uv.a[1]");
    // A uv that is no object likewise.
    let not_an_object = |vertices: &str| {
        let json = face(vertices).replace(
            r#"{"a": [0, "x"], "b": [1, 0], "c": [0, 1]}"#,
            r#"[[0, 0], [1, 0], [0, 1]]"#,
        );
        let e = error(&one_element(Model::free(), Raw(json)));
        (
            e.at().to_string(),
            e.to_string().contains("an object expected"),
        )
    };
    assert_eq!(
        not_an_object(r#"["a", "a", "c"]"#),
        ("$.elements[0].faces.f.vertices[1]".into(), false)
    );
    assert_eq!(
        not_an_object(r#"["a", "b", "c"]"#),
        ("$.elements[0].faces.f.uv".into(), true)
    );
}

#[test]
fn mesh_uv_keys_match_vertex_keys_as_decoded_text() {
    // JavaScript looks a uv up by the decoded key: `"a\u0062"` is `"ab"`,
    // whichever of the two spells it with an escape.
    let m = Mesh::new()
        .vertex("ab", [0.0, 0.0, 0.0])
        .vertex("b", [1.0, 0.0, 0.0])
        .vertex("c", [0.0, 1.0, 0.0])
        .face(
            "f",
            MeshFace::new(&[("b", [16.0, 0.0]), ("c", [0.0, 16.0])])
                .set(
                    "uv",
                    Raw(r#"{"a\u0062": [0, 0], "b": [16, 0], "c": [0, 16]}"#.into()),
                )
                .set("vertices", json!(["ab", "b", "c"])),
        );
    let t = mesh_tris(m);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].uv, [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]);
}

#[test]
fn mesh_vertex_keys_compare_as_decoded_text() {
    let m = Mesh::new()
        .vertex("ab", [0.0, 0.0, 0.0])
        .vertex("b", [1.0, 0.0, 0.0])
        .vertex("c", [0.0, 1.0, 0.0])
        .face(
            "f",
            MeshFace::new(&[("ab", [0.0, 0.0]), ("b", [16.0, 0.0]), ("c", [0.0, 16.0])])
                .set("vertices", Raw(r#"["a\u0062", "b", "c"]"#.into())),
        );
    assert_eq!(mesh_tris(m).len(), 1);
}

#[test]
fn mesh_face_over_max_face_vertices_is_too_many_vertices() {
    let ring = |n: usize| {
        let mut m = Mesh::new();
        let mut verts = Vec::new();
        let keys: Vec<String> = (0..n).map(|i| format!("k{i}")).collect();
        for (i, k) in keys.iter().enumerate() {
            let a = i as f64 * std::f64::consts::TAU / n as f64;
            m = m.vertex(k, [a.cos() * 8.0, a.sin() * 8.0, 0.0]);
        }
        for k in &keys {
            verts.push((k.as_str(), [0.0, 0.0]));
        }
        Model::free()
            .element(m.face("f", MeshFace::new(&verts)))
            .bytes()
    };
    let loaded_bytes = ring(16);
    let loaded = load(&loaded_bytes);
    assert_eq!(loaded.scene().triangle_count(), 14);
    let e = error(&ring(17));
    assert_eq!(e.code(), ErrorCode::TooManyVertices);
}

#[test]
fn mesh_uvs_are_divided_by_the_texture_uv_size_and_uv_rects_bound_them() {
    let m = quad_mesh([0, 1, 2, 3]).face(
        "q",
        MeshFace::new(&[
            ("p0", [8.0, 16.0]),
            ("p1", [8.0, 48.0]),
            ("p2", [24.0, 48.0]),
            ("p3", [24.0, 16.0]),
        ])
        .texture(json!(0)),
    );
    let t = mesh_tris_in(
        Model::free().texture(Texture::png("t", 32, 64).uv_size(32.0, 64.0)),
        m,
    );
    assert_eq!(t.len(), 2);
    for tri in &t {
        assert_eq!(tri.material, 0);
        assert_eq!(tri.rect, [0.25, 0.25, 0.75, 0.75]);
        for (p, uv) in tri.p.iter().zip(tri.uv) {
            let want = match p {
                [0.0, 0.0, 0.0] => [0.25, 0.25],
                [0.0, 0.0, 1.0] => [0.25, 0.75],
                [1.0, 0.0, 1.0] => [0.75, 0.75],
                _ => [0.75, 0.25],
            };
            assert_eq!(uv, want, "at {p:?}");
        }
    }
}

#[test]
fn convention_8_mesh_face_texture_null_is_drawn_untextured() {
    let t = mesh_tris_in(
        Model::free()
            .resolution(32.0, 32.0)
            .texture(Texture::png("t", 16, 16).uv_size(64.0, 64.0)),
        triangle_mesh().face("f0", tri_face().texture(json!(null))),
    );
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].material, -1);
    // Over the project resolution.
    assert_eq!(t[0].uv, [[0.0, 0.0], [0.5, 0.0], [0.0, 0.5]]);
}

#[test]
fn mesh_faces_are_grouped_by_material() {
    let m = triangle_mesh()
        .face("f0", tri_face().texture(json!(0)))
        .face("f1", tri_face())
        .face("f2", tri_face().texture(json!(1)))
        .face("f3", tri_face().texture(json!(0)))
        .face("f4", tri_face().texture(json!(false)));
    let bytes = Model::free()
        .texture(Texture::png("a", 16, 16))
        .texture(Texture::png("b", 16, 16).render_sides("front"))
        .element(m)
        .bytes();
    let loaded = load(&bytes);
    let s = loaded.scene();
    let mut groups: Vec<(i32, u32, u32)> = s
        .groups()
        .iter()
        .map(|g| (g.material, g.flags, g.index_count / 3))
        .collect();
    groups.sort();
    assert_eq!(groups, vec![(-1, DOUBLE, 2), (0, DOUBLE, 2), (1, 0, 1)]);
    assert_eq!(s.positions().len(), 15);
}

// --------------------------------------------------------------- textures

#[test]
fn texture_materials_are_blend_with_cutoff_0_01_one_per_texture() {
    let bytes = Model::free()
        .texture(Texture::png("first", 16, 16))
        .texture(Texture::png("second", 8, 4).set("render_mode", "default"))
        .bytes();
    let loaded = load(&bytes);
    let s = loaded.scene();
    assert_eq!(s.materials().len(), 2);
    assert_eq!(s.textures().len(), 2);
    for (i, m) in s.materials().iter().enumerate() {
        assert_eq!(m.texture, i as i32);
        assert_eq!(m.alpha_mode(), AlphaMode::Blend);
        assert_eq!(m.alpha_cutoff, 0.01);
        assert_eq!(m.blending(), Blending::Normal);
        assert!(m.layers().is_empty());
    }
    assert_eq!(s.text(s.textures()[1].name), "second");
    assert_eq!((s.textures()[1].width, s.textures()[1].height), (8, 4));
    assert!(!s.textures()[1].missing());
    assert!(warnings(&loaded).is_empty());
}

#[test]
fn the_builders_png_is_a_real_png() {
    let bytes = png(3, 5);
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (3, 5));
}

#[test]
fn data_uri_that_is_not_base64_png_is_bad_texture() {
    let gif = support::bbmodel_builder::base64(b"GIF89a\x01\x00\x01\x00\x00\x00\x00;xxxxxxxxxxxx");
    let png_b64 = support::bbmodel_builder::base64(&png(1, 1));
    let sig_only = support::bbmodel_builder::base64(b"\x89PNG\r\n\x1a\n");
    let cases = [
        format!("data:image/jpeg;base64,{png_b64}"),
        format!("data:image/png,{png_b64}"),
        format!("data:image/png;base64,{}!", &png_b64[..png_b64.len() - 4]),
        format!("data:image/png;base64,{}", &png_b64[..png_b64.len() - 1]),
        "data:image/png;base64,".to_owned(),
        "data:".to_owned(),
        format!("data:image/png;base64,{gif}"),
        format!("data:image/png;base64,{sig_only}"),
        png_data_uri(0, 16),
        png_data_uri(16, 0),
    ];
    for source in cases {
        let model = Model::free().texture(Texture::named("t").source(&source));
        let e = error(&model.bytes());
        assert_eq!(e.code(), ErrorCode::BadTexture, "{source}");
        assert_eq!(e.at().to_string(), "$.textures[0].source");
    }
    // A source that is no string is a wrong type.
    let model = Model::free().texture(Texture::named("t").set("source", json!(5)));
    assert_eq!(code(&model), ErrorCode::InvalidField);
}

#[test]
fn non_data_uri_source_warns_source_not_fetched() {
    for source in [
        "https://example.com/skin.png",
        "C:\\models\\skin.png",
        "skin.png",
    ] {
        let bytes = Model::free()
            .texture(Texture::named("t").source(source))
            .bytes();
        let loaded = load(&bytes);
        assert_eq!(
            warnings(&loaded),
            vec![
                (
                    WarningCode::SourceNotFetched,
                    "$.textures[0].source".to_owned()
                ),
                (WarningCode::MissingTexture, "$.textures[0]".to_owned()),
            ],
            "{source}"
        );
        assert!(loaded.scene().textures()[0].missing());
    }
}

#[test]
fn no_image_and_no_picked_file_is_missing_texture() {
    let bytes = Model::free()
        .texture(Texture::named("skin.png").set("relative_path", "../skin.png"))
        .bytes();
    let loaded = load(&bytes);
    assert_eq!(
        warnings(&loaded),
        vec![(WarningCode::MissingTexture, "$.textures[0]".to_owned())]
    );
    let t = loaded.scene().textures()[0];
    assert!(t.missing());
    assert_eq!(t.mip_count, 0);
}

#[test]
fn picked_file_matches_relative_path_then_path_then_name_ignoring_case() {
    let (a, b, c) = (png(1, 2), png(3, 4), png(5, 6));
    let bytes = Model::free()
        .texture(
            Texture::named("C.png")
                .set("relative_path", "../textures/A.PNG")
                .set("path", "/home/me/models/b.png"),
        )
        .bytes();
    let size = |files: &[(&str, &[u8])]| {
        let loaded = load_picked(&bytes, files).unwrap();
        assert!(warnings(&loaded).is_empty());
        let t = loaded.scene().textures()[0];
        assert!(!t.missing());
        (t.width, t.height)
    };
    assert_eq!(
        size(&[("c.png", &c[..]), ("b.png", &b[..]), ("a.png", &a[..])]),
        (1, 2)
    );
    assert_eq!(size(&[("c.png", &c[..]), ("B.png", &b[..])]), (3, 4));
    assert_eq!(size(&[("dir/c.PNG", &c[..])]), (5, 6));
    // No match: missing.
    let loaded = load_picked(&bytes, &[("d.png", &a[..])]).unwrap();
    assert!(loaded.scene().textures()[0].missing());
    // A picked file that is no PNG.
    let e = load_picked(
        &bytes,
        &[("a.png", &b"not a png at all, no, not at all"[..])],
    )
    .err()
    .unwrap();
    assert_eq!(e.code(), ErrorCode::BadTexture);
}

#[test]
fn picked_file_matches_the_base_name_of_a_windows_path() {
    let b = png(3, 4);
    for texture in [
        Texture::named("x.png").set("path", "C:\\Users\\me\\b.png"),
        Texture::named("x.png").set("relative_path", "..\\textures\\b.png"),
    ] {
        let bytes = Model::free().texture(texture).bytes();
        let loaded = load_picked(&bytes, &[("b.png", &b[..])]).unwrap();
        let t = loaded.scene().textures()[0];
        assert!(!t.missing());
        assert_eq!((t.width, t.height), (3, 4));
    }
}

#[test]
fn render_mode_and_wrap_mode_unknown_warn_unsupported_value() {
    let bytes = Model::free()
        .texture(Texture::png("a", 16, 16).set("render_mode", "glow"))
        .texture(Texture::png("b", 16, 16).set("render_mode", json!(3)))
        .texture(Texture::png("c", 16, 16).set("render_mode", json!(null)))
        .texture(Texture::png("d", 16, 16).set("wrap_mode", "mirror"))
        .texture(Texture::png("e", 16, 16).set("wrap_mode", json!(1)))
        .texture(
            Texture::png("f", 16, 16)
                .set("render_mode", "emissive")
                .set("wrap_mode", "repeat"),
        )
        .texture(
            Texture::png("g", 16, 16)
                .set("render_mode", "additive")
                .set("wrap_mode", "clamp"),
        )
        .texture(
            Texture::png("h", 16, 16)
                .set("render_mode", "layered")
                .set("wrap_mode", "limited"),
        )
        .bytes();
    let loaded = load(&bytes);
    assert_eq!(
        warnings(&loaded),
        vec![
            (
                WarningCode::UnsupportedValue,
                "$.textures[0].render_mode".to_owned()
            ),
            (
                WarningCode::UnsupportedValue,
                "$.textures[1].render_mode".to_owned()
            ),
            (
                WarningCode::UnsupportedValue,
                "$.textures[2].render_mode".to_owned()
            ),
            (
                WarningCode::UnsupportedValue,
                "$.textures[3].wrap_mode".to_owned()
            ),
            (
                WarningCode::UnsupportedValue,
                "$.textures[4].wrap_mode".to_owned()
            ),
        ]
    );
    let s = loaded.scene();
    let wraps: Vec<(Wrap, Wrap)> = s
        .textures()
        .iter()
        .map(|t| (t.wrap_u(), t.wrap_v()))
        .collect();
    let clamp = (Wrap::Clamp, Wrap::Clamp);
    assert_eq!(
        wraps,
        vec![
            clamp,
            clamp,
            clamp,
            clamp,
            clamp,
            (Wrap::Repeat, Wrap::Repeat),
            clamp,
            clamp
        ]
    );
    // An unknown render mode loads as default.
    assert_eq!(s.materials()[0].alpha_mode(), AlphaMode::Blend);
    assert_eq!(s.materials()[0].alpha_cutoff, 0.01);
}

#[test]
fn visible_and_use_as_default_that_are_no_boolean_warn() {
    let bytes = Model::free()
        .texture(Texture::png("a", 16, 16).set("visible", "yes"))
        .texture(Texture::png("b", 16, 16).set("use_as_default", json!(1)))
        .texture(
            Texture::png("c", 16, 16)
                .set("visible", false)
                .set("use_as_default", true),
        )
        .bytes();
    let loaded = load(&bytes);
    assert_eq!(
        warnings(&loaded),
        vec![
            (
                WarningCode::UnsupportedValue,
                "$.textures[0].visible".to_owned()
            ),
            (
                WarningCode::UnsupportedValue,
                "$.textures[1].use_as_default".to_owned()
            ),
        ]
    );
}

#[test]
fn texture_fields_of_the_wrong_type_are_invalid_field() {
    for (key, value) in [
        ("name", json!(5)),
        ("uuid", json!(false)),
        ("relative_path", json!([])),
        ("path", json!({})),
    ] {
        let model = Model::free().texture(Texture::png("t", 16, 16).set(key, value.clone()));
        let e = error(&model.bytes());
        assert_eq!(e.code(), ErrorCode::InvalidField, "{key}");
        assert_eq!(e.at().to_string(), format!("$.textures[0].{key}"));
    }
    let model = Model::free().set("textures", json!([5]));
    assert_eq!(code(&model), ErrorCode::InvalidField);
}

#[test]
fn face_keys_are_blockbench_lower_case_names() {
    // Other keys are ignored, as Blockbench ignores them.
    let bytes = one_cube(
        Cube::new([0.0; 3], [2.0, 3.0, 4.0])
            .face("North", Face::uv(UV))
            .face("UP", Face::uv(UV)),
    );
    let loaded = load(&bytes);
    assert_eq!(loaded.scene().triangle_count(), 0);
    let mut cube = Cube::new([0.0; 3], [2.0, 3.0, 4.0]);
    for name in FACES {
        cube = cube.face(name, Face::uv(UV));
    }
    let bytes = one_cube(cube);
    assert_eq!(load(&bytes).scene().triangle_count(), 12);
}

/// Spec (Local-first): readBbmodelJson reads a file once; listing its
/// references and loading it reuse that reading, and the load checks the
/// size against its own maxFileBytes.
#[test]
fn read_bbmodel_json_once_then_list_and_load() {
    use scenedec::bbmodel;
    let bytes = br#"{"meta": {"format_version": "4.10", "model_format": "free"},
        "elements": [{"type": "cube", "uuid": "c", "from": [0, 0, 0], "to": [1, 1, 1],
                      "faces": {"north": {"uv": [0, 0, 1, 1], "texture": 0}}}],
        "outliner": ["c"], "textures": [{"name": "skin.png", "relative_path": "tex/skin.png"}]}"#;
    let doc = bbmodel::read_document(bytes, 1 << 20).unwrap();
    let mut refs = Vec::new();
    bbmodel::references::list_document_references(
        &doc,
        &scenedec::BbmodelLimits::default(),
        10,
        |r| refs.push(r.to_owned()),
    )
    .unwrap();
    assert_eq!(refs, ["tex/skin.png"]);
    let options = bbmodel::Options::default();
    let plan = bbmodel::measure_document(&doc, &options).unwrap();
    let mut memory = vec![0u64; plan.arena_words()];
    let mut arena = scenedec::Arena::from_words(&mut memory);
    let mut warnings = scenedec::Warnings::new();
    let scene = bbmodel::decode_document(&doc, &options, &plan, &mut arena, &mut warnings).unwrap();
    assert_eq!(scene.triangle_count(), 2);
    // The load's own maxFileBytes applies to a document read with a larger one.
    let small = bbmodel::Options {
        limits: scenedec::BbmodelLimits {
            max_file_bytes: 10,
            ..Default::default()
        },
        ..Default::default()
    };
    assert_eq!(
        bbmodel::measure_document(&doc, &small).unwrap_err().code(),
        scenedec::ErrorCode::FileTooLarge
    );
}
