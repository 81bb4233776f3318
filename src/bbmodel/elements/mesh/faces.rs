//! Mesh faces as stored: each face's vertex keys, its uv entries and its
//! texture, read once per pass (Supported, meshes; convention 8).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use crate::bbmodel::document::Document;
use crate::bbmodel::document::text_hash::text_hash;
use crate::bbmodel::document::value::{Cursor, Path, invalid, known_key, same_text, type_name};
use crate::bbmodel::elements::context::Pass;
use crate::bbmodel::elements::faces::{FaceTexture, face_texture};
use crate::bbmodel::elements::mesh::vertex_count::too_many_face_vertices;
use crate::bbmodel::textures::entries::Textures;
use crate::error::{Error, Quote};
use crate::json::{JsonStr, TokenKind};
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

/// One mesh face as stored: its vertex keys with their UVs, and its texture.
#[derive(Clone, Debug)]
pub struct MeshFace<'a> {
    /// Index of the face in `faces`, for paths.
    pub index: usize,
    /// The face's key.
    pub key: JsonStr<'a>,
    /// Vertex keys in stored order.
    pub vertices: heapless::Vec<JsonStr<'a>, HARD_MAX_FACE_VERTICES>,
    /// Their [`text_hash`]es, aligned with `vertices`: keys are compared
    /// by hash first, and looked up by it.
    pub hashes: heapless::Vec<u64, HARD_MAX_FACE_VERTICES>,
    /// UV per vertex, in texels, aligned with `vertices`.
    pub uvs: heapless::Vec<[f32; 2], HARD_MAX_FACE_VERTICES>,
    /// The stored texture: an index, −1 blank, or
    /// [`NULL_FACE`](crate::bbmodel::textures::shown::NULL_FACE) for `texture: null`,
    /// which a mesh still draws (convention 8);
    /// [`TextureRules::mesh_face`](crate::bbmodel::textures::shown::TextureRules::mesh_face)
    /// says what it shows.
    pub material: i32,
    /// How many vertex keys the face lists: `vertices.len()`, except in a
    /// decode's counting pass, which counts them without reading them
    /// (`vertices` and `hashes` stay empty).
    pub corners: usize,
}

impl MeshFace<'_> {
    /// The index of the vertex key that spells `key` (whose hash is `hash`).
    fn same_key_as(&self, hash: u64, key: &JsonStr<'_>) -> Option<usize> {
        self.hashes
            .iter()
            .zip(&self.vertices)
            .position(|(&h, v)| h == hash && same_text(v, key))
    }

    /// Gives the vertex `key` names its uv; the bit of that vertex, or 0
    /// for a key the face does not list. Blockbench lists uvs in vertex
    /// order, so vertex `expected` is tried first.
    fn set_uv(&mut self, expected: usize, key: &JsonStr<'_>, hash: u64, uv: [f32; 2]) -> u64 {
        let j = match (self.hashes.get(expected), self.vertices.get(expected)) {
            (Some(&h), Some(v)) if h == hash && same_text(v, key) => Some(expected),
            _ => self.same_key_as(hash, key),
        };
        match j.and_then(|j| Some((j, self.uvs.get_mut(j)?))) {
            Some((j, slot)) => {
                *slot = uv;
                1 << j
            }
            None => 0,
        }
    }
}

/// A face's uv entries, read where the `uv` object stands (Blockbench
/// writes it before the vertex list) and matched to the vertices after.
struct UvEntries<'a> {
    /// Key, its hash and its uv, in file order.
    entries: heapless::Vec<(JsonStr<'a>, u64, [f32; 2]), HARD_MAX_FACE_VERTICES>,
    /// The object, when it has more entries than `entries` holds: read
    /// again once the vertex list is known.
    reread: Option<Cursor<'a>>,
    /// The first error reading it, raised after the vertex list's.
    error: Option<Error>,
}

impl<'a> UvEntries<'a> {
    /// Reads the `uv` object at the cursor (whose copy before it is
    /// `start`) to its end, every entry checked.
    fn read(
        &mut self,
        c: &mut Cursor<'a>,
        path: &Path<'_>,
        start: Cursor<'a>,
    ) -> Result<(), Error> {
        c.object(path, "uv")?;
        while let Some(k) = c.next_key()? {
            let value = c.numbers::<2>(&path.with_raw_key(k))?;
            if self.entries.push((k, text_hash(&k), value)).is_err() && self.reread.is_none() {
                self.reread = Some(start.clone());
            }
        }
        Ok(())
    }
}

/// Reads every face of a mesh in file order: vertex lists (at most
/// maxFaceVertices, no key twice), a uv entry for every vertex, the texture
/// (a decode's counting pass counts the vertex keys and passes over the
/// uv objects: only `MeshFace::corners` and `material` are set).
pub fn for_each_mesh_face<'a>(
    doc: &Document<'a>,
    element: usize,
    head: &MeshHead,
    limits: &BbmodelLimits,
    textures: &Textures<'_>,
    pass: Pass,
    mut visit: impl FnMut(&MeshFace<'a>) -> Result<(), Error>,
) -> Result<(), Error> {
    let Some(faces_at) = head.faces_at else {
        return Ok(());
    };
    let element_path = crate::bbmodel::document::value::ELEMENTS.with_index(element);
    let path = element_path.with_key("faces");
    let max_vertices = usize::try_from(limits.max_face_vertices)
        .unwrap_or(usize::MAX)
        .min(HARD_MAX_FACE_VERTICES);
    let mut c = doc.cursor(faces_at);
    c.object(&path, "faces")?;
    let mut index = 0usize;
    // One face record, emptied for each face: a fresh one would be zeroed
    // whole (2.5 KiB) each time.
    let mut face = MeshFace {
        index,
        key: JsonStr::plain(b""),
        vertices: heapless::Vec::new(),
        hashes: heapless::Vec::new(),
        uvs: heapless::Vec::new(),
        material: -1,
        corners: 0,
    };
    let mut uv = UvEntries {
        entries: heapless::Vec::new(),
        reread: None,
        error: None,
    };
    while let Some(key) = c.next_key()? {
        let face_path = if key.has_escapes() {
            path.with_index(index)
        } else {
            path.with_raw_key(key)
        };
        c.object(&face_path, "face")?;
        face.index = index;
        face.key = key;
        face.vertices.clear();
        face.hashes.clear();
        face.uvs.clear();
        face.material = -1;
        face.corners = 0;
        uv.entries.clear();
        (uv.reread, uv.error) = (None, None);
        while let Some(field) = c.next_key()? {
            let f = known_key(&field, &["vertices", "uv", "texture"]).unwrap_or("");
            let field_path = face_path.with_key(f);
            match f {
                "vertices" => {
                    // JSON keeps the last `vertices`: an earlier list goes.
                    face.vertices.clear();
                    face.hashes.clear();
                    let open = c.next()?;
                    if open.kind != TokenKind::BeginArray {
                        return Err(invalid(
                            &field_path,
                            "wrong type",
                            format_args!(
                                "an array of vertex keys expected, got {}",
                                type_name(&open)
                            ),
                        ));
                    }
                    if pass == Pass::Count {
                        // Counted by their commas; the fill pass reads and
                        // checks the keys.
                        face.corners = c.leave_unchecked_counting()?;
                        if face.corners > max_vertices {
                            return Err(too_many_face_vertices(&face_path, max_vertices));
                        }
                        continue;
                    }
                    loop {
                        let t = c.next()?;
                        if t.kind == TokenKind::EndArray {
                            break;
                        }
                        let item_path = field_path.with_index(face.vertices.len());
                        let s = c.string_of(&t, &item_path, limits.max_string_chars)?;
                        if face.vertices.len() >= max_vertices {
                            return Err(too_many_face_vertices(&face_path, max_vertices));
                        }
                        let hash = text_hash(&s);
                        if face.same_key_as(hash, &s).is_some() {
                            return Err(invalid(
                                &item_path,
                                "vertex key twice",
                                format_args!("each key once, but {} repeats", Quote(s.raw_str())),
                            ));
                        }
                        let _ = face.vertices.push(s);
                        let _ = face.hashes.push(hash);
                    }
                    face.corners = face.vertices.len();
                }
                // Read and checked by the fill pass; no uv changes a count.
                "uv" if pass == Pass::Count => c.pass_over()?,
                "uv" => {
                    // JSON keeps the last `uv`: what an earlier one held goes.
                    uv.entries.clear();
                    (uv.reread, uv.error) = (None, None);
                    let (start, depth) = (c.clone(), c.depth());
                    if let Err(e) = uv.read(&mut c, &field_path, start) {
                        // Its error counts after the vertex list's, as if
                        // the object were read after it.
                        uv.error = Some(e);
                        c.recover(depth)?;
                    }
                }
                "texture" => {
                    face.material = match face_texture(&mut c, &field_path, textures)? {
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
        let uv_path = face_path.with_key("uv");
        if let Some(e) = uv.error.take() {
            return Err(e);
        }
        for _ in 0..face.vertices.len() {
            let _ = face.uvs.push([0.0; 2]);
        }
        // Bit j: vertex j has its uv.
        let mut found = 0u64;
        if let Some(mut u) = uv.reread.take() {
            // More entries than a face has vertices: read them all again.
            u.object(&uv_path, "uv")?;
            let mut expected = 0usize;
            while let Some(k) = u.next_key()? {
                let value = u.numbers::<2>(&uv_path.with_raw_key(k))?;
                found |= face.set_uv(expected, &k, text_hash(&k), value);
                expected += 1;
            }
        } else {
            for (expected, (k, hash, value)) in uv.entries.iter().enumerate() {
                found |= face.set_uv(expected, k, *hash, *value);
            }
        }
        // Convention 8: every saved file has a uv per vertex, and it is required.
        let n = face.vertices.len();
        let all = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        let missing = if pass == Pass::Count { 0 } else { all & !found };
        if missing != 0 {
            let j = missing.trailing_zeros() as usize;
            let key = face.vertices.get(j).map_or("", |k| k.raw_str());
            return Err(invalid(
                &uv_path,
                "missing uv entry",
                format_args!("a uv for vertex {}", Quote(key)),
            ));
        }
        visit(&face)?;
        index += 1;
    }
    Ok(())
}
