//! Mesh faces as stored: each face's vertex keys, its uv entries and its
//! texture, read once per pass (Supported, meshes; convention 8).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use crate::bbmodel::document::text_hash::text_hash;
use crate::bbmodel::document::value::{Cursor, Path, invalid, known_key, type_name};
use crate::bbmodel::document::{Document, MAX_JSON_DEPTH};
use crate::bbmodel::elements::context::Pass;
use crate::bbmodel::elements::faces::{FaceTexture, face_texture};
use crate::bbmodel::elements::mesh::keys::KeyEntry;
use crate::bbmodel::elements::mesh::vertex_count::too_many_face_vertices;
use crate::bbmodel::textures::entries::Textures;
use crate::error::{Error, Quote};
use crate::json::{JsonStr, Token, TokenKind};
use crate::limits::BbmodelLimits;

/// Where a mesh element's parts are, and how it is shaded.
#[derive(Clone, Copy, Debug)]
pub struct MeshHead {
    /// `origin`: where the mesh's local space sits (convention 6).
    pub origin: [f32; 3],
    /// `rotation` in degrees.
    pub rotation: [f32; 3],
    /// `shading: "smooth"` (else flat).
    pub smooth: bool,
    /// Where the `vertices` object starts.
    pub vertices_at: Option<usize>,
    /// Where the `faces` object starts.
    pub faces_at: Option<usize>,
    /// Vertex keys of the mesh (counted by the counting passes; 0 in the
    /// fill pass, whose key table counts them).
    pub keys: usize,
}

/// The most vertices a mesh face may have here (the triangulator's bound);
/// a maxFaceVertices override above it reads as this.
pub const HARD_MAX_FACE_VERTICES: usize = crate::bbmodel::elements::mesh::MAX_FACE_VERTICES;
// A face's found uvs are one bit per vertex in a u64.
const _: () = assert!(HARD_MAX_FACE_VERTICES <= 64);

/// One mesh face's record, in caller memory (`WalkScratch`, so that no
/// face walk holds it in its frame): its vertex keys (each where the
/// document spells it, and its hash) and their uvs, and the uv entries
/// read before the vertex list, matched to it once the face is read.
#[repr(C)]
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable)]
pub struct FaceRecord {
    vertices: [KeyEntry; HARD_MAX_FACE_VERTICES],
    uvs: [[f32; 2]; HARD_MAX_FACE_VERTICES],
    /// The `uv` object's keys and values, in file order.
    uv_keys: [KeyEntry; HARD_MAX_FACE_VERTICES],
    uv_values: [[f32; 2]; HARD_MAX_FACE_VERTICES],
}

impl FaceRecord {
    /// An empty record (a `const`, for statics).
    pub const fn new() -> Self {
        Self {
            vertices: [KeyEntry::ZERO; HARD_MAX_FACE_VERTICES],
            uvs: [[0.0; 2]; HARD_MAX_FACE_VERTICES],
            uv_keys: [KeyEntry::ZERO; HARD_MAX_FACE_VERTICES],
            uv_values: [[0.0; 2]; HARD_MAX_FACE_VERTICES],
        }
    }
}

/// A face's corners as the fill resolves them: each vertex's position and
/// its key's index among the mesh's keys.
#[repr(C)]
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable)]
pub struct FaceCorners {
    pub(in crate::bbmodel) positions: [[f32; 3]; HARD_MAX_FACE_VERTICES],
    pub(in crate::bbmodel) keys: [u32; HARD_MAX_FACE_VERTICES],
    /// The face's triangles (k − 2 of them), as the triangulator gives them.
    pub(in crate::bbmodel) triangles: [[u8; 3]; HARD_MAX_FACE_VERTICES],
}

/// The mesh face walks' scratch (4 288 bytes): the face being read, and
/// the fill's corners and triangles of it.
#[repr(C)]
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable)]
pub struct FaceScratch {
    pub(in crate::bbmodel) record: FaceRecord,
    pub(in crate::bbmodel) corners: FaceCorners,
}

impl FaceScratch {
    /// Empty (a `const`, for statics).
    pub const fn new() -> Self {
        Self {
            record: FaceRecord::new(),
            corners: FaceCorners {
                positions: [[0.0; 3]; HARD_MAX_FACE_VERTICES],
                keys: [0; HARD_MAX_FACE_VERTICES],
                triangles: [[0; 3]; HARD_MAX_FACE_VERTICES],
            },
        }
    }
}

/// One mesh face as stored: its vertex keys with their UVs, and its texture.
#[derive(Clone, Debug)]
pub struct MeshFace<'f, 'a> {
    /// Index of the face in `faces`, for paths.
    pub index: usize,
    /// The face's key.
    pub key: JsonStr<'a>,
    /// Vertex keys in stored order ([`KeyEntry::raw_text`] spells one).
    pub vertices: &'f [KeyEntry],
    /// UV per vertex, in texels, aligned with `vertices`.
    pub uvs: &'f [[f32; 2]],
    /// The stored texture: an index, −1 blank, or
    /// [`NULL_FACE`](crate::bbmodel::textures::shown::NULL_FACE) for `texture: null`,
    /// which a mesh still draws (convention 8);
    /// [`TextureRules::mesh_face`](crate::bbmodel::textures::shown::TextureRules::mesh_face)
    /// says what it shows.
    pub material: i32,
    /// How many vertex keys the face lists: `vertices.len()`, except in a
    /// decode's counting pass, which counts them without reading them
    /// (`vertices` then stays empty).
    pub corners: usize,
}

/// Gives the vertex that `is_key` picks its uv; the bit of that vertex, or
/// 0 for a key the face does not list. Blockbench lists uvs in vertex
/// order, so vertex `expected` is tried first.
fn set_uv(
    vertices: &[KeyEntry],
    uvs: &mut [[f32; 2]],
    expected: usize,
    is_key: impl Fn(&KeyEntry) -> bool,
    uv: [f32; 2],
) -> u64 {
    let j = match vertices.get(expected) {
        Some(v) if is_key(v) => Some(expected),
        _ => vertices.iter().position(&is_key),
    };
    match j.and_then(|j| Some((j, uvs.get_mut(j)?))) {
        Some((j, slot)) => {
            *slot = uv;
            1 << j
        }
        None => 0,
    }
}

/// How reading a face's `uv` object went.
#[derive(Clone, Copy, PartialEq, Eq)]
enum UvRead {
    /// Every entry read and held, this many.
    Held(usize),
    /// More entries than the record holds, or an error: the object is read
    /// again once the vertex list is known (its error then raised after the
    /// vertex list's, as if the object were read after it).
    Again,
}

/// Reads the `uv` object whose `{` the cursor just read to its end into
/// `record`'s uv entries, every entry checked. Never inlined: its reads' errors stay out
/// of the face walk's frame.
#[inline(never)]
fn read_uv_entries(
    doc: &Document<'_>,
    c: &mut Cursor<'_>,
    path: &Path<'_>,
    record: &mut FaceRecord,
) -> UvRead {
    // Any error ends the read: the object is read again for it.
    let mut held = 0usize;
    let mut all = true;
    loop {
        let Ok(next) = c.next_key() else {
            return UvRead::Again;
        };
        let Some(k) = next else {
            break;
        };
        let Ok(value) = c.numbers::<2>(&path.with_raw_key(k)) else {
            return UvRead::Again;
        };
        match (record.uv_keys.get_mut(held), record.uv_values.get_mut(held)) {
            (Some(key), Some(slot)) => {
                *key = KeyEntry::of(doc, &k, text_hash(&k));
                *slot = value;
                held += 1;
            }
            _ => all = false,
        }
    }
    if all {
        UvRead::Held(held)
    } else {
        UvRead::Again
    }
}

/// INVALID_FIELD for a vertex key a face lists twice.
#[cold]
#[inline(never)]
fn vertex_key_twice(item: &Path<'_>, key: &JsonStr<'_>) -> Error {
    invalid(
        item,
        "vertex key twice",
        format_args!("each key once, but {} repeats", Quote(key.raw_str())),
    )
}

/// INVALID_FIELD for a face's vertex without a uv entry.
#[cold]
#[inline(never)]
fn missing_uv(uv: &Path<'_>, key: &str) -> Error {
    invalid(
        uv,
        "missing uv entry",
        format_args!("a uv for vertex {}", Quote(key)),
    )
}

/// INVALID_FIELD for a `vertices` that is no array.
#[cold]
#[inline(never)]
fn not_a_vertex_list(field: &Path<'_>, open: &Token<'_>) -> Error {
    invalid(
        field,
        "wrong type",
        format_args!("an array of vertex keys expected, got {}", type_name(open)),
    )
}

/// What [`read_face`] found in one face object.
#[derive(Clone, Copy)]
struct FaceRead {
    /// Vertex keys read into the record.
    vertices: usize,
    /// The stored texture (see [`MeshFace::material`]).
    material: i32,
    /// Vertex keys listed (see [`MeshFace::corners`]).
    corners: usize,
    /// The uv entries held.
    uv: UvRead,
    /// Where the `uv` value starts and how deep it is, to read it again
    /// when `uv` is [`UvRead::Again`].
    uv_at: Option<(usize, usize)>,
    /// The vertices [`reread_uvs`] gave their uv, a bit each.
    found: u64,
}

/// Reads one face object (after its `{`, or after a `uv` value) on into
/// `record` and `face`, to its end or to its next `uv`:
/// its vertex keys, its uv entries and its texture. Never inlined: its
/// reads' errors and cursors stay off the frame the visitor runs in.
#[inline(never)]
#[allow(
    clippy::too_many_arguments,
    reason = "the face walk's inputs, and where the face goes"
)]
fn read_face<'a>(
    doc: &Document<'a>,
    c: &mut Cursor<'a>,
    face_path: &Path<'_>,
    pass: Pass,
    limits: &BbmodelLimits,
    textures: &Textures<'_>,
    record: &mut FaceRecord,
    face: &mut FaceRead,
) -> Result<FaceStep, Error> {
    let max_vertices = usize::try_from(limits.max_face_vertices)
        .unwrap_or(usize::MAX)
        .min(HARD_MAX_FACE_VERTICES);
    while let Some(field) = c.next_key()? {
        let f = known_key(&field, &["vertices", "uv", "texture"]).unwrap_or("");
        let field_path = face_path.with_key(f);
        match f {
            "vertices" => {
                // JSON keeps the last `vertices`: an earlier list goes.
                face.vertices = 0;
                let open = c.next()?;
                if open.kind != TokenKind::BeginArray {
                    return Err(not_a_vertex_list(&field_path, &open));
                }
                if pass == Pass::Count {
                    // Counted by their commas; the fill pass reads and
                    // checks the keys.
                    face.corners = c.leave_unchecked_counting()?;
                    if face.corners > max_vertices {
                        return Err(too_many_face_vertices(face_path, max_vertices));
                    }
                    continue;
                }
                let mut n = 0usize;
                loop {
                    let t = c.next()?;
                    if t.kind == TokenKind::EndArray {
                        break;
                    }
                    let item_path = field_path.with_index(n);
                    let s = c.string_of(&t, &item_path, limits.max_string_chars)?;
                    if n >= max_vertices {
                        return Err(too_many_face_vertices(face_path, max_vertices));
                    }
                    let hash = text_hash(&s);
                    let listed = record.vertices.get(..n).unwrap_or_default();
                    if listed.iter().any(|e| e.hash() == hash && e.spells(doc, &s)) {
                        return Err(vertex_key_twice(&item_path, &s));
                    }
                    if let Some(slot) = record.vertices.get_mut(n) {
                        *slot = KeyEntry::of(doc, &s, hash);
                    }
                    n += 1;
                }
                (face.vertices, face.corners) = (n, n);
            }
            // Read and checked by the fill pass; no uv changes a count.
            "uv" if pass == Pass::Count => c.pass_over()?,
            // Read by the caller, beside this frame rather than above it.
            "uv" => return Ok(FaceStep::Uv),
            "texture" => {
                face.material = match face_texture(c, &field_path, textures)? {
                    FaceTexture::Index(i) => i32::try_from(i).unwrap_or(-1),
                    FaceTexture::Blank => -1,
                    FaceTexture::Removed => crate::bbmodel::textures::shown::NULL_FACE,
                };
            }
            _ => {
                c.skip_value()?;
            }
        }
    }
    Ok(FaceStep::End)
}

/// Where [`read_face`] stopped.
enum FaceStep {
    /// At a `uv` value, for [`read_uv`]; the face's reading resumes after it.
    Uv,
    /// After the face's `}`.
    End,
}

/// Reads a face's `uv` value, its key just read: its entries into
/// `record`, or where it is, to read again (more entries than held, or an
/// error to raise after the vertex list's). JSON keeps the last `uv`:
/// what an earlier one held goes. Never inlined, as [`read_face`].
#[inline(never)]
fn read_uv<'a>(
    doc: &Document<'a>,
    c: &mut Cursor<'a>,
    uv_path: &Path<'_>,
    record: &mut FaceRecord,
    face: &mut FaceRead,
) -> Result<(), Error> {
    let depth = c.depth();
    let open = c.next()?;
    face.uv = if open.kind == TokenKind::BeginObject {
        read_uv_entries(doc, c, uv_path, record)
    } else {
        UvRead::Again
    };
    face.uv_at = if face.uv == UvRead::Again {
        c.recover(depth)?;
        Some((c.offset_of(&open), depth))
    } else {
        None
    };
    Ok(())
}

/// The uv entries of the `uv` object at byte `at` (`depth` deep), read
/// again: more entries than the record holds, or one in error, whose error
/// now comes, into the first `n` of `record`'s uvs. The bits of the
/// vertices given their uv. Never inlined: its cursor and reads stay
/// beside the face's reads, not above them.
#[inline(never)]
fn reread_uvs(
    doc: &Document<'_>,
    at: usize,
    depth: usize,
    uv_path: &Path<'_>,
    n: usize,
    record: &mut FaceRecord,
) -> Result<u64, Error> {
    let (Some(vertices), Some(uvs)) = (record.vertices.get(..n), record.uvs.get_mut(..n)) else {
        return Err(crate::bbmodel::layout::mismatch());
    };
    uvs.fill([0.0; 2]);
    // With the nesting the face walk's cursor had left there.
    let mut u = Cursor::at(doc.bytes, at, MAX_JSON_DEPTH.saturating_sub(depth));
    u.object(uv_path, "uv")?;
    let (mut found, mut expected) = (0u64, 0usize);
    while let Some(k) = u.next_key()? {
        let value = u.numbers::<2>(&uv_path.with_raw_key(k))?;
        let hash = text_hash(&k);
        let is_key = |v: &KeyEntry| v.hash() == hash && v.spells(doc, &k);
        found |= set_uv(vertices, uvs, expected, is_key, value);
        expected += 1;
    }
    Ok(found)
}

/// Gives each of the face's vertices (the first `face.vertices` of
/// `record`) the uv its entry holds, and checks that each has one
/// (convention 8). Never inlined, as [`read_face`].
#[inline(never)]
fn match_uvs(
    doc: &Document<'_>,
    face: &mut FaceRead,
    face_path: &Path<'_>,
    record: &mut FaceRecord,
) -> Result<(), Error> {
    let uv_path = face_path.with_key("uv");
    let n = face.vertices;
    let FaceRecord {
        vertices,
        uvs,
        uv_keys,
        uv_values,
    } = record;
    let (Some(vertices), Some(uvs)) = (vertices.get(..n), uvs.get_mut(..n)) else {
        return Err(crate::bbmodel::layout::mismatch());
    };
    // Bit j: vertex j has its uv.
    let mut found = 0u64;
    match (face.uv_at, face.uv) {
        // Read again by the caller.
        (Some(_), _) => found = face.found,
        (None, UvRead::Held(held)) => {
            uvs.fill([0.0; 2]);
            let entries = uv_keys.iter().zip(uv_values.iter()).take(held);
            for (expected, (k, value)) in entries.enumerate() {
                let is_key = |v: &KeyEntry| v.hash() == k.hash() && v.same_key(doc, k);
                found |= set_uv(vertices, uvs, expected, is_key, *value);
            }
        }
        (None, UvRead::Again) => return Err(crate::bbmodel::layout::mismatch()),
    }
    // Convention 8: every saved file has a uv per vertex, and it is required.
    let all = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let missing = all & !found;
    if missing != 0 {
        let j = missing.trailing_zeros() as usize;
        let key = vertices.get(j).map_or("", |k| k.raw_text(doc));
        return Err(missing_uv(&uv_path, key));
    }
    Ok(())
}

/// Reads every face of a mesh in file order, each into `record`: vertex
/// lists (at most maxFaceVertices, no key twice), a uv entry for every
/// vertex, the texture (a decode's counting pass counts the vertex keys and
/// passes over the uv objects: only `MeshFace::corners` and `material` are
/// set).
#[allow(
    clippy::too_many_arguments,
    reason = "the face walk's inputs, and the caller's record to read into"
)]
pub fn for_each_mesh_face<'a>(
    doc: &Document<'a>,
    element: usize,
    head: &MeshHead,
    limits: &BbmodelLimits,
    textures: &Textures<'_>,
    pass: Pass,
    record: &mut FaceRecord,
    mut visit: impl FnMut(&MeshFace<'_, 'a>) -> Result<(), Error>,
) -> Result<(), Error> {
    let Some(faces_at) = head.faces_at else {
        return Ok(());
    };
    let element_path = crate::bbmodel::document::value::ELEMENTS.with_index(element);
    let path = element_path.with_key("faces");
    let mut c = doc.cursor(faces_at);
    c.object(&path, "faces")?;
    let mut index = 0usize;
    let fresh = FaceRead {
        vertices: 0,
        material: -1,
        corners: 0,
        uv: UvRead::Held(0),
        uv_at: None,
        found: 0,
    };
    while let Some(key) = c.next_key()? {
        let face_path = if key.has_escapes() {
            path.with_index(index)
        } else {
            path.with_raw_key(key)
        };
        c.object(&face_path, "face")?;
        let mut face = fresh;
        loop {
            let step = read_face(
                doc, &mut c, &face_path, pass, limits, textures, record, &mut face,
            )?;
            match step {
                FaceStep::End => break,
                FaceStep::Uv => {
                    let uv_path = face_path.with_key("uv");
                    read_uv(doc, &mut c, &uv_path, record, &mut face)?;
                }
            }
        }
        if let Some((at, depth)) = face.uv_at {
            let uv_path = face_path.with_key("uv");
            face.found = reread_uvs(doc, at, depth, &uv_path, face.vertices, record)?;
        }
        if pass != Pass::Count {
            // The counting pass reads no vertex list and no uv.
            match_uvs(doc, &mut face, &face_path, record)?;
        }
        let n = face.vertices;
        visit(&MeshFace {
            index,
            key,
            vertices: record.vertices.get(..n).unwrap_or_default(),
            uvs: record.uvs.get(..n).unwrap_or_default(),
            material: face.material,
            corners: face.corners,
        })?;
        index += 1;
    }
    Ok(())
}
