//! The counting pass over `elements`: meshes, vertices, triangles and groups
//! for the plan, checked against maxTriangles and maxVertices as they grow.
//!
//! `measure` and `decode_into` count every element exactly. `load` plans a
//! cube by its upper bound instead ([`Cubes::Bounded`]): a cube draws at
//! most six faces of four vertices and two triangles, in at most six groups,
//! so the count needs only to know that an element is a cube, which its
//! keys tell without reading its faces; the fill pass then writes and checks
//! the exact cube. A plan of bounds over any limit is counted again exactly,
//! so a file within the limits never fails because of the bound.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 36 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use crate::bbmodel::document::text_pool::escaped_len;
use crate::bbmodel::document::value::{Cursor, Path};
use crate::bbmodel::elements::context::{ElementContext, Pass};
use crate::bbmodel::elements::mesh::faces::{FaceRecord, FaceScratch, for_each_mesh_face};
use crate::bbmodel::elements::read::{Element, ElementBody, GroupKey, group_key, read_element};
use crate::bbmodel::project::structure::for_each_value;
use crate::bbmodel::project::uuid_tables::{SeenSlots, SeenUuids};
use crate::error::{Error, ErrorCode};
use crate::json::{JsonStr, Token, TokenKind, Tokenizer};
use crate::limits::BbmodelLimits;
use crate::scene::SceneCounts;

/// How the counting pass counts cubes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cubes {
    /// Each cube's drawn faces and groups, as the fill pass writes them:
    /// the plan `measure` returns, which `decode_into` never exceeds.
    Exact,
    /// Each cube the most it can draw (`load`, which allocates the plan it
    /// makes and hands out only what the fill wrote).
    Bounded,
}

/// The most faces of 3 or more vertices, and their corners, of any one mesh.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::bbmodel) struct MeshFaces {
    pub faces: usize,
    pub corners: usize,
    /// Groups (an upper bound past [`COUNTED_GROUP_KEYS`]).
    pub groups: usize,
}

/// What counting the elements gives the plan besides the scene counts.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::bbmodel) struct ElementTally {
    /// Text-pool bytes of escaped element names.
    pub pool: usize,
    /// The most vertex keys of one mesh.
    pub max_keys: usize,
    /// The largest mesh's faces, corners and groups.
    pub largest: MeshFaces,
}

/// A cube's most vertices, triangles and groups: six faces of four
/// vertices and two triangles, each in a group of its own.
const CUBE_FACES: usize = 6;

/// Counts meshes, vertices, triangles and groups of every element into
/// `counts`, checking maxTriangles and maxVertices as they grow (spec:
/// "counted from the upper bounds first").
///
/// With [`Cubes::Bounded`], a plan whose bounds go past either limit is
/// counted again exactly: its error, if any, is the exact count's.
///
/// `tallied` is the tally of plain cubes `load`'s prescan made while the
/// document was located (`prescan.rs`); with [`Cubes::Bounded`] it stands
/// for the walk over `elements` when it was made of the array `elements`
/// now names.
pub(in crate::bbmodel) fn count_elements(
    ctx: &ElementContext<'_, '_>,
    pass: Pass,
    cubes: Cubes,
    tallied: Option<CubeTally>,
    counts: &mut SceneCounts,
    tables: &mut CountTables,
) -> Result<ElementTally, Error> {
    if cubes == Cubes::Bounded {
        let before = *counts;
        if let Some(tally) = tallied.filter(|t| Some(t.at) == ctx.doc.elements) {
            add_cubes(counts, tally.cubes, CUBE_FACES, CUBE_FACES);
            if check_geometry(counts, ctx.limits).is_ok() {
                counts.normals = counts.positions;
                counts.uvs = counts.positions;
                return Ok(ElementTally::default());
            }
            *counts = before;
        } else {
            let mut over = false;
            match count_with(ctx, pass, true, &mut over, counts, tables) {
                Err(_) if over => *counts = before,
                done => return done,
            }
        }
    }
    count_with(ctx, pass, false, &mut false, counts, tables)
}

/// `n` cubes of `faces` drawn faces in `groups` groups each.
fn add_cubes(counts: &mut SceneCounts, n: usize, faces: usize, groups: usize) {
    counts.meshes += n;
    counts.positions += 4 * faces * n;
    counts.indices += 6 * faces * n;
    counts.uv_rects += 2 * faces * n;
    counts.groups += groups * n;
}

/// One cube of `faces` drawn faces in `groups` groups: four vertices, two
/// triangles and two UV rects a face (exact or bounded, the same shape).
fn add_cube(counts: &mut SceneCounts, faces: usize, groups: usize) {
    add_cubes(counts, 1, faces, groups);
}

/// [`count_elements`], bounding plain cubes when `bounded`; `over` is set
/// when a limit check fails (then the bound, not the file, may be at fault).
fn count_with(
    ctx: &ElementContext<'_, '_>,
    pass: Pass,
    bounded: bool,
    over: &mut bool,
    counts: &mut SceneCounts,
    tables: &mut CountTables,
) -> Result<ElementTally, Error> {
    let (doc, limits) = (ctx.doc, ctx.limits);
    let mut tally = ElementTally::default();
    let mut seen = SeenUuids::new(&mut tables.seen);
    let held_keys = &mut tables.group_keys;
    let record = &mut tables.face.record;
    let mut element = Element::EMPTY;
    for_each_value(doc, doc.elements, |i, first, c| {
        if bounded && count_plain_cube(ctx, i, &first, c, &mut seen, &mut tally, counts)? {
            return check_geometry(counts, limits).inspect_err(|_| *over = true);
        }
        read_element(ctx, pass, i, &first, c, None, &mut element)?;
        count_element(
            ctx, pass, i, &element, &mut seen, held_keys, record, over, counts, &mut tally,
        )?;
        check_geometry(counts, limits).inspect_err(|_| *over = true)
    })?;
    counts.normals = counts.positions;
    counts.uvs = counts.positions;
    Ok(tally)
}

/// Counts the element at the cursor as a plain cube's bound when it is one
/// ([`plain_cube`], read on a copy: anything else is read again whole from
/// its start); whether it was. In a frame of its own, off the element walk
/// every exact read runs under.
#[inline(never)]
fn count_plain_cube<'a>(
    ctx: &ElementContext<'_, 'a>,
    i: usize,
    first: &Token<'a>,
    c: &mut Cursor<'a>,
    seen: &mut SeenUuids<'_>,
    tally: &mut ElementTally,
    counts: &mut SceneCounts,
) -> Result<bool, Error> {
    let mut probe = c.clone();
    let Some(cube) = plain_cube(first, &mut probe, ctx.limits.max_string_chars) else {
        return Ok(false);
    };
    *c = probe;
    if let Some(uuid) = &cube.uuid {
        seen.check(ctx.doc, uuid, i)?;
    }
    tally.pool += escaped_len(&cube.name);
    add_cube(counts, CUBE_FACES, CUBE_FACES);
    Ok(true)
}

/// Counts element `i`, read whole: its uuid checked for a repeat, its
/// name for the text pool, what its type draws. In a frame of its own, off
/// the element walk every exact read runs under.
#[inline(never)]
#[allow(
    clippy::too_many_arguments,
    reason = "the counting pass's state, lent for one element"
)]
fn count_element(
    ctx: &ElementContext<'_, '_>,
    pass: Pass,
    i: usize,
    element: &Element<'_>,
    seen: &mut SeenUuids<'_>,
    held_keys: &mut [u64; COUNTED_GROUP_KEYS],
    record: &mut FaceRecord,
    over: &mut bool,
    counts: &mut SceneCounts,
    tally: &mut ElementTally,
) -> Result<(), Error> {
    if let Some(uuid) = &element.head.uuid {
        seen.check(ctx.doc, uuid, i)?;
    }
    tally.pool += escaped_len(&element.head.name);
    match &element.body {
        ElementBody::Cube(cube) => {
            let mut faces = cube.group_keys(ctx);
            faces.sort_unstable();
            let repeats = faces
                .windows(2)
                .filter(|w| matches!(w, [a, b] if a == b))
                .count();
            add_cube(counts, faces.len(), faces.len() - repeats);
        }
        ElementBody::Mesh(mesh) => {
            tally.max_keys = tally.max_keys.max(mesh.keys);
            count_mesh(
                ctx,
                pass,
                i,
                mesh,
                held_keys,
                record,
                over,
                counts,
                &mut tally.largest,
            )?;
        }
        ElementBody::Unsupported => {}
    }
    Ok(())
}

/// Counts one mesh's faces into `counts` and its largest-mesh figures into
/// `largest`, reading each face into `record`. Never inlined: the face
/// walk's frame stays off the element walk's, which every cube's read runs
/// under.
#[inline(never)]
#[allow(
    clippy::too_many_arguments,
    reason = "the counting pass's state, lent for one mesh"
)]
fn count_mesh(
    ctx: &ElementContext<'_, '_>,
    pass: Pass,
    i: usize,
    mesh: &crate::bbmodel::elements::mesh::faces::MeshHead,
    held_keys: &mut [u64; COUNTED_GROUP_KEYS],
    record: &mut FaceRecord,
    over: &mut bool,
    counts: &mut SceneCounts,
    largest: &mut MeshFaces,
) -> Result<(), Error> {
    let (doc, limits, textures) = (ctx.doc, ctx.limits, ctx.textures);
    let mut keys = GroupKeys {
        held: held_keys,
        len: 0,
    };
    // Faces whose group found no room among `keys`: each
    // counts as a group of its own (an upper bound).
    let mut unheld = 0usize;
    let mut this = MeshFaces::default();
    for_each_mesh_face(doc, i, mesh, limits, textures, pass, record, |face| {
        // Upper bounds (spec): k vertices and k − 2 triangles a face.
        let k = face.corners;
        if k >= 3 {
            counts.positions += k;
            counts.indices += 3 * (k - 2);
            counts.uv_rects += k - 2;
            this.faces += 1;
            this.corners += k;
        }
        let key = group_key(
            doc,
            &ctx.rules.mesh_face(textures, face.material, ctx.placed),
        );
        if !keys.insert(key) {
            unheld += 1;
        }
        check_geometry(counts, limits).inspect_err(|_| *over = true)
    })?;
    counts.meshes += 1;
    counts.groups += keys.len + unheld;
    largest.groups = largest.groups.max(keys.len + unheld);
    largest.faces = largest.faces.max(this.faces);
    largest.corners = largest.corners.max(this.corners);
    Ok(())
}

/// What a cube's bound needs of it: its name (for the text pool) and uuid
/// (for the early duplicate check).
pub(in crate::bbmodel) struct PlainCube<'a> {
    pub name: Option<JsonStr<'a>>,
    pub uuid: Option<JsonStr<'a>>,
}

/// Reads the element whose first token is `first` by its keys alone: `Some`
/// when it is a cube (`type` "cube", or none: spec, Supported) that only
/// the fill pass needs to read strictly, the cursor then after it; `None`
/// for anything else, the cursor left anywhere.
///
/// One walk by brackets visits the strings right inside the element (keys
/// and string values, none escaped); a key is a string followed by `:`.
/// A plain cube has one `faces` object, no `vertices` (which only a
/// counting pass checks on a cube), and a name and uuid that are strings
/// within maxStringChars. Everything else goes to the exact read, which
/// counts it as before and fails where it did.
pub(in crate::bbmodel) fn plain_cube<'a>(
    first: &Token<'a>,
    c: &mut Cursor<'a>,
    max_chars: u64,
) -> Option<PlainCube<'a>> {
    if first.kind != TokenKind::BeginObject {
        return None;
    }
    let mut cube = PlainCube {
        name: None,
        uuid: None,
    };
    let mut faces = false;
    c.leave_visiting(|at| {
        // The raw bytes after the quote: a key this reads is unescaped.
        let Some(body) = at.get(1..) else {
            return false;
        };
        let Some((key, value)) = PROBED_KEYS
            .iter()
            .find_map(|&k| Some((k, key_value(body, k)?)))
        else {
            return true;
        };
        match key {
            "type" => value.starts_with(b"\"cube\""),
            "faces" if !faces && opens_as_cube_faces(value) => {
                faces = true;
                true
            }
            "name" | "uuid" => {
                let Ok(Some(Token {
                    kind: TokenKind::String(s),
                    ..
                })) = Tokenizer::new(value, 0).next_token()
                else {
                    return false;
                };
                let slot = if key == "name" {
                    &mut cube.name
                } else {
                    &mut cube.uuid
                };
                *slot = Some(s);
                s.decoded_len() as u64 <= max_chars
            }
            _ => false,
        }
    })?;
    Some(cube)
}

/// Whether `value` is an object that is empty or whose first key is one
/// of a cube's six faces: a mesh's faces (named by ids) end the walk
/// there, before the rest of the mesh is walked for nothing.
fn opens_as_cube_faces(value: &[u8]) -> bool {
    let Some(rest) = value.strip_prefix(b"{").map(<[u8]>::trim_ascii_start) else {
        return false;
    };
    rest.first() == Some(&b'}')
        || rest.strip_prefix(b"\"").is_some_and(|key| {
            ["north", "east", "south", "west", "up", "down"]
                .iter()
                .any(|n| {
                    key.strip_prefix(n.as_bytes())
                        .is_some_and(|r| r.first() == Some(&b'"'))
                })
        })
}

/// The element keys [`plain_cube`] looks at.
const PROBED_KEYS: [&str; 5] = ["type", "name", "uuid", "faces", "vertices"];

/// The value after `key` when `body` (a string's bytes after its opening
/// quote) is that key: the string is `key` and a `:` follows it.
fn key_value<'b>(body: &'b [u8], key: &str) -> Option<&'b [u8]> {
    let rest = body.strip_prefix(key.as_bytes())?.strip_prefix(b"\"")?;
    let rest = rest.trim_ascii_start().strip_prefix(b":")?;
    Some(rest.trim_ascii_start())
}

/// Distinct (material, sidedness) pairs of one mesh the counting pass
/// tells apart (4 KiB, in [`CountTables`]); a mesh with more counts the
/// faces past them as a group each.
const COUNTED_GROUP_KEYS: usize = 512;

/// The counting pass's tables (12 KiB of plain integers): the first element
/// uuids, one mesh's group keys, and the mesh face walks' record, which
/// the fill reads faces into too. Caller memory (`MeasureScratch`, the
/// plan's scratch), not the walk's frame.
#[repr(C)]
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable)]
pub struct CountTables {
    seen: SeenSlots,
    group_keys: [u64; COUNTED_GROUP_KEYS],
    /// The mesh face walks' record, in every pass that reads faces (the
    /// fill's too, which takes it from here).
    pub(in crate::bbmodel) face: FaceScratch,
}

impl CountTables {
    /// Empty tables (a `const`, for statics).
    pub const fn new() -> Self {
        Self {
            seen: SeenSlots::new(),
            group_keys: [0; COUNTED_GROUP_KEYS],
            face: FaceScratch::new(),
        }
    }
}

impl Default for CountTables {
    fn default() -> Self {
        Self::new()
    }
}

/// One mesh's distinct group keys, packed, in the first `len` of `held`.
struct GroupKeys<'s> {
    held: &'s mut [u64; COUNTED_GROUP_KEYS],
    len: usize,
}

impl GroupKeys<'_> {
    /// Whether `key` is held now: false when it is new and there is no room.
    fn insert(&mut self, key: GroupKey) -> bool {
        let packed = (u64::from(key.material.cast_unsigned()) << 2)
            | (u64::from(key.double_sided) << 1)
            | u64::from(key.camera_only);
        let held = self.held.get(..self.len).unwrap_or_default();
        if held.contains(&packed) {
            return true;
        }
        match self.held.get_mut(self.len) {
            Some(slot) => {
                *slot = packed;
                self.len += 1;
                true
            }
            None => false,
        }
    }
}

fn check_geometry(counts: &SceneCounts, limits: &BbmodelLimits) -> Result<(), Error> {
    let triangles = counts.indices / 3;
    if triangles as u64 > limits.max_triangles {
        return Err(crate::bbmodel::document::value::error_at(
            ErrorCode::TooManyTriangles,
            &Path::key("elements"),
            "too many triangles",
            format_args!("at most maxTriangles ({})", limits.max_triangles),
        ));
    }
    if counts.positions as u64 > limits.max_vertices {
        return Err(crate::bbmodel::document::value::error_at(
            ErrorCode::TooManyVertices,
            &Path::key("elements"),
            "too many vertices",
            format_args!("at most maxVertices ({})", limits.max_vertices),
        ));
    }
    Ok(())
}

/// The plain cubes of an `elements` array (a plain cube is one whose
/// bounded count needs its keys alone: `element_count::plain_cube`), for
/// the counting pass to bound without walking the array again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::bbmodel) struct CubeTally {
    /// Where the array starts (the tally stands only for that array).
    pub at: usize,
    /// Its entries, every one a plain cube (whose strings have no escapes,
    /// so its name needs no room in the text pool).
    pub cubes: usize,
}

#[cfg(test)]
mod tests {
    use crate::bbmodel::{Options, count_located, measure};
    use crate::error::ErrorCode;
    use crate::scene::SceneCounts;
    use std::format;
    use std::string::String;
    use std::vec::Vec;

    /// A free-format model of `elements` (JSON objects), untextured.
    fn model(elements: &[String]) -> String {
        format!(
            r#"{{"meta": {{"format_version": "4.10", "model_format": "free", "box_uv": false}},
            "elements": [{}], "outliner": [], "textures": []}}"#,
            elements.join(", ")
        )
    }

    /// A cube of `faces` drawn faces (the rest removed by `texture: null`),
    /// with `extra` members before its type, as Blockbench orders them.
    fn cube(faces: usize, extra: &str) -> String {
        let names = ["north", "east", "south", "west", "up", "down"];
        let faces: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let texture = if i < faces { "false" } else { "null" };
                format!(r#""{n}": {{"uv": [0, 0, 1, 1], "texture": {texture}}}"#)
            })
            .collect();
        format!(
            r#"{{"name": "c", "from": [0, 0, 0], "to": [1, 1, 1], {extra}"faces": {{{}}}, "type": "cube", "uuid": "u{}"}}"#,
            faces.join(", "),
            extra.len()
        )
    }

    fn triangle() -> String {
        r#"{"name": "m", "vertices": {"a": [0, 0, 0], "b": [1, 0, 0], "c": [0, 1, 0]},
        "faces": {"f": {"uv": {"a": [0, 0], "b": [1, 0], "c": [0, 1]}, "vertices": ["a", "b", "c"]}},
        "type": "mesh", "uuid": "m"}"#
            .into()
    }

    fn options(max_triangles: u64) -> Options<'static> {
        let mut o = Options::default();
        o.limits.max_triangles = max_triangles;
        o
    }

    /// The counts `load` plans by (cubes bounded) and those `measure` gives.
    fn plans(json: &str, o: &Options<'_>) -> (SceneCounts, SceneCounts) {
        let bounded = count_located(json.as_bytes(), o).expect("counted").1;
        let exact = measure(json.as_bytes(), o).expect("measured");
        (*bounded.counts(), *exact.counts())
    }

    /// Spec, Conversion (cube box: at most six quads) and "counted from the
    /// upper bounds first": `load` plans each cube at six faces of four
    /// vertices and two triangles in six groups, a mesh exactly.
    #[test]
    fn a_cube_is_planned_at_six_faces_and_a_mesh_exactly() {
        let json = model(&[cube(1, ""), triangle()]);
        let (bounded, exact) = plans(&json, &Options::default());
        assert_eq!(
            (exact.positions, exact.indices, exact.groups),
            (4 + 3, 6 + 3, 2)
        );
        assert_eq!(
            (
                bounded.positions,
                bounded.indices,
                bounded.uv_rects,
                bounded.groups
            ),
            (24 + 3, 36 + 3, 12 + 1, 6 + 1)
        );
        assert_eq!((bounded.meshes, bounded.normals, bounded.uvs), (2, 27, 27));
        // What a cube's count does not change stays as `measure` counts it.
        let same = SceneCounts {
            positions: exact.positions,
            normals: exact.normals,
            uvs: exact.uvs,
            indices: exact.indices,
            uv_rects: exact.uv_rects,
            groups: exact.groups,
            ..bounded
        };
        assert_eq!(same, exact);
    }

    /// Limits come first: a plan of bounds past maxTriangles is counted
    /// again exactly, so a file within the limits loads, and one past them
    /// fails as `measure` does, before anything is allocated.
    #[test]
    fn a_bound_past_the_limits_is_counted_again_exactly() {
        let cubes: Vec<String> = (0..10)
            .map(|i| cube(1, "").replace(r#""u0""#, &format!(r#""u{i}""#)))
            .collect();
        let json = model(&cubes);
        // Bounds: 120 triangles; exactly: 20.
        let (bounded, exact) = plans(&json, &options(30));
        assert_eq!(bounded, exact);
        assert_eq!(exact.indices, 60);
        let o = options(19);
        let refused = count_located(json.as_bytes(), &o).unwrap_err();
        assert_eq!(refused.code(), ErrorCode::TooManyTriangles);
        assert_eq!(refused, measure(json.as_bytes(), &o).unwrap_err());
        // Within the bound's limits, it is the bound.
        assert_eq!(plans(&json, &options(120)).0.indices, 360);
    }

    /// What only a counting pass checks on a cube (a `vertices` object, a
    /// `faces` written twice), a type that is no plain "cube", and a name
    /// past maxStringChars, go to the exact read: counted as `measure`
    /// counts them.
    #[test]
    fn cubes_the_bound_cannot_stand_for_are_counted_exactly() {
        let long = format!(r#""name": "{}", "#, "n".repeat(2000));
        for extra in [
            r#""vertices": {"a": [0, 0, 0]}, "#,
            r#""faces": {}, "#,
            r#""type": "mesh", "#,
            r#""type": 1, "#,
            &long,
        ] {
            let json = model(&[cube(1, extra)]);
            let mut o = Options::default();
            o.limits.max_string_chars = 1000;
            match (
                count_located(json.as_bytes(), &o),
                measure(json.as_bytes(), &o),
            ) {
                (Ok((_, bounded)), Ok(exact)) => assert_eq!(bounded, exact, "{extra}"),
                (Err(a), Err(b)) => assert_eq!(a, b, "{extra}"),
                (a, b) => panic!("{extra}: {:?} against {b:?}", a.map(|p| p.1)),
            }
        }
        // A mesh ends the walk at its faces, and is counted exactly.
        let (bounded, exact) = plans(&model(&[triangle()]), &Options::default());
        assert_eq!(bounded, exact);
        // A cube of no type is a cube (spec, Supported): bounded.
        let untyped = cube(1, "").replace(r#""type": "cube", "#, "");
        let (bounded, _) = plans(&model(&[untyped]), &Options::default());
        assert_eq!(bounded.positions, 24);
    }
}
