//! Elements: reading one entry of `elements` into faces ready for the scene.
//!
//! Spec rules pinned here (Supported, Conversion, conventions 4, 9, 13):
//! element types (cube and mesh; anything else UNSUPPORTED_ELEMENT), face
//! texture as index, uuid, null (removed), absent or false (blank),
//! render_order (default 0, behind −1, in_front 1; a non-string is
//! INVALID_FIELD, an unknown string UNSUPPORTED_VALUE), visibility, face
//! rotation (a quarter turn, else INVALID_FIELD), sidedness by render_sides
//! and format, the outline hull's single-sided camera-only faces, flat cubes'
//! coincident faces, the pre-4.5 box-UV `shade: false` migration, and UVs
//! over the shown texture's UV size (the resolution when untextured).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use crate::bbmodel::document::Document;
use crate::bbmodel::document::value::{Cursor, Path, invalid, known_key, type_name};
use crate::bbmodel::elements::context::{ElementContext, Pass, deferred};
use crate::bbmodel::elements::cube::{CubeInput, CubeShape, FaceInput, FaceName, cube_faces};
use crate::bbmodel::elements::faces::{FaceTexture, FacesRead, read_faces};
use crate::bbmodel::elements::mesh::faces::MeshHead;
use crate::bbmodel::elements::mesh::vertex_count::{check_unread_vertices, count_vertex_keys};
use crate::bbmodel::textures::entries::{RenderSides, UvSpace};
use crate::bbmodel::textures::shown::Shown;
use crate::error::{Error, Location, Quote, Warning, WarningCode, Warnings};
use crate::json::{JsonStr, Token, TokenKind};

/// What an element is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementKind {
    /// `type: "cube"` (or no type: old files).
    Cube,
    /// `type: "mesh"`.
    Mesh,
    /// Any other type: skipped with UNSUPPORTED_ELEMENT.
    Unsupported,
}

/// The fields every element has.
#[derive(Clone, Copy, Debug)]
pub struct ElementHead<'a> {
    /// The kind.
    pub kind: ElementKind,
    /// `name`.
    pub name: Option<JsonStr<'a>>,
    /// `uuid`.
    pub uuid: Option<JsonStr<'a>>,
    /// `visibility` (default shown).
    pub visible: bool,
    /// `render_order`: −1 behind, 0 default, 1 in front.
    pub render_order: i32,
    /// `scope`, read where collections are (Hytale formats), else 0.
    pub scope: f64,
}

/// How a face is drawn: its material (texture index, or −1) and sidedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct GroupKey {
    /// Material index (−1 untextured).
    pub material: i32,
    /// Double-sided (after single-sided ones in a mesh's groups).
    pub double_sided: bool,
    /// Camera-only (the outline hull's single-sided faces).
    pub camera_only: bool,
}

/// One drawn cube face, ready for the scene.
#[derive(Clone, Copy, Debug)]
pub struct DrawnFace {
    /// Its group.
    pub key: GroupKey,
    /// Corners in model space (the cube's rotation baked in).
    pub corners: [[f32; 3]; 4],
    /// UVs normalised by the shown texture's UV size (V down).
    pub uvs: [[f32; 2]; 4],
    /// The geometric front.
    pub normal: [f32; 3],
}

/// An element read in one pass: its common fields, and by its type the
/// drawn faces of a cube or where a mesh's parts are.
#[derive(Clone, Debug)]
pub struct Element<'a> {
    /// The fields every element has.
    pub head: ElementHead<'a>,
    /// What its type makes of the rest.
    pub body: ElementBody,
}

impl Element<'_> {
    /// No element yet: what [`read_element`] writes over.
    pub const EMPTY: Self = Self {
        head: ElementHead {
            kind: ElementKind::Unsupported,
            name: None,
            uuid: None,
            visible: true,
            render_order: 0,
            scope: 0.0,
        },
        body: ElementBody::Unsupported,
    };
}

/// An element's geometry, by type.
// A cube lives on the stack for one element at a time; boxing it would
// allocate.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum ElementBody {
    /// A cube's fields and faces.
    Cube(CubeRead),
    /// Where a mesh's vertices and faces are.
    Mesh(MeshHead),
    /// A type this reader skips (UNSUPPORTED_ELEMENT).
    Unsupported,
}

/// A cube element as read: its fields and faces, before any geometry.
#[derive(Clone, Debug)]
pub struct CubeRead {
    cube: CubeInput,
    faces: [Option<FaceInput>; 6],
    textures: [FaceTexture; 6],
}

impl CubeRead {
    /// The cube's `rotation` (degrees) and the centre of its box,
    /// `from + (to − from) / 2`, about which inflate and stretch grow it:
    /// what the Hytale plugin's main shape needs (`bbmodel/main_shape.rs`).
    pub fn rotation_and_centre(&self) -> ([f64; 3], [f64; 3]) {
        let (from, to) = (self.cube.from, self.cube.to);
        let centre = core::array::from_fn(|i| {
            let (f, t) = (from.get(i).copied(), to.get(i).copied());
            let (f, t) = (f.unwrap_or(0.0), t.unwrap_or(0.0));
            f + (t - f) / 2.0
        });
        (self.cube.rotation, centre)
    }

    /// The groups of the faces that get triangles, in face order: all that
    /// counting needs (no corner or UV is computed).
    pub fn group_keys(&self, ctx: &ElementContext<'_, '_>) -> heapless::Vec<GroupKey, 6> {
        let shape = CubeShape::new(&self.cube);
        let mut keys = heapless::Vec::new();
        for (name, &texture) in FaceName::ALL.iter().zip(&self.textures) {
            if let Some(coincides) = shape.face(*name, &self.faces) {
                let (key, _) = cube_face_group(ctx, texture, shape.outline_hull, coincides);
                let _ = keys.push(key);
            }
        }
        keys
    }

    /// The faces that get triangles, in face order, ready for the scene.
    pub fn drawn_faces(&self, ctx: &ElementContext<'_, '_>) -> heapless::Vec<DrawnFace, 6> {
        let geometry = cube_faces(&self.cube, &self.faces);
        let mut drawn = heapless::Vec::new();
        for face in geometry.iter() {
            let texture = self
                .textures
                .get(face.name.index())
                .copied()
                .unwrap_or(FaceTexture::Blank);
            let (key, uv_space) = cube_face_group(
                ctx,
                texture,
                geometry.outline_hull,
                face.coincides_with_opposite,
            );
            let uvs = face.uvs.map(|uv| uv_space.normalise(uv));
            let _ = drawn.push(DrawnFace {
                key,
                corners: face.corners,
                uvs,
                normal: face.normal,
            });
        }
        drawn
    }
}

/// The element keys this reader knows (others are skipped).
const ELEMENT_KEYS: &[&str] = &[
    "type",
    "name",
    "uuid",
    "visibility",
    "render_order",
    "from",
    "to",
    "origin",
    "rotation",
    "faces",
    "inflate",
    "stretch",
    "uv_offset",
    "box_uv",
    "mirror_uv",
    "shade",
    "shading",
    "vertices",
    "scope",
];

/// The first error of the fields only one element type reads. `type` comes
/// last in Blockbench's files, so the fields before it are read for both
/// types and an error counts only once the type turns out to read that field.
#[derive(Debug, Default)]
struct Deferred {
    cube: Option<Error>,
    mesh: Option<Error>,
}

impl Deferred {
    /// `faces` is no object: an error for either type (cold, so its two
    /// errors are built outside `read_element`'s frame).
    #[cold]
    #[inline(never)]
    fn faces_not_object(&mut self, at: &Path<'_>, v: &Token<'_>) {
        let got = type_name(v);
        self.cube.get_or_insert_with(|| {
            invalid(at, "faces", format_args!("an object expected, got {got}"))
        });
        self.mesh.get_or_insert_with(|| {
            invalid(
                at,
                "wrong type",
                format_args!("an object expected, got {got}"),
            )
        });
    }
}

/// Warns once at `path`'s `key` that its value is not played (cold: the
/// warning is built outside `read_element`'s frame).
#[cold]
#[inline(never)]
fn warn_value(
    warnings: &mut Warnings,
    path: &Path<'_>,
    key: &'static str,
    args: core::fmt::Arguments<'_>,
) {
    warnings.push(Warning::new(
        WarningCode::UnsupportedValue,
        Location::Json(path.with_key(key).render()),
        args,
    ));
}

/// Reads the element whose first token, `first`, the cursor just read, to
/// its end, in one pass; warns UNSUPPORTED_ELEMENT for other types.
///
/// Errors of the common fields (type, name, uuid, render_order) come first,
/// wherever they stand; then the first error, in file order, of the fields
/// the element's type reads (spec Errors: INVALID_FIELD, TOO_MANY_VERTICES).
///
/// The element is written to `out` (the caller's, reused from one element
/// to the next) rather than returned in a `Result` the caller would copy.
pub fn read_element<'a>(
    ctx: &ElementContext<'_, 'a>,
    pass: Pass,
    index: usize,
    first: &Token<'a>,
    c: &mut Cursor<'a>,
    mut warnings: Option<&mut Warnings>,
    out: &mut Element<'a>,
) -> Result<(), Error> {
    let doc = ctx.doc;
    let path = crate::bbmodel::document::value::ELEMENTS.with_index(index);
    crate::bbmodel::document::value::expect_object(first, &path, "element")?;
    let inside = c.depth();
    let mut head = ElementHead {
        kind: ElementKind::Cube,
        name: None,
        uuid: None,
        visible: true,
        render_order: 0,
        scope: 0.0,
    };
    let reads_scope = pass == Pass::Fill && doc.format.reads_collections() && doc.has_collections();
    let mut bad_scope = false;
    let mut cube = CubeInput::new([0.0; 3], [0.0; 3]);
    cube.box_uv = doc.box_uv;
    cube.box_uv_float_size = doc.format.box_uv_float_size();
    let mut shade = true;
    let mut faces: [Option<FaceInput>; 6] = [None; 6];
    let mut face_textures = [FaceTexture::Removed; 6];
    let mut mesh = MeshHead {
        origin: [0.0; 3],
        rotation: [0.0; 3],
        smooth: false,
        vertices_at: None,
        faces_at: None,
        keys: 0,
    };
    let mut unknown_shading = None;
    let mut errors = Deferred::default();
    // Faces left unread as cube faces, and whether a cube error came first.
    let mut pending_faces: Option<bool> = None;
    let mut type_seen = false;
    while let Some(key) = c.next_key()? {
        let Some(k) = known_key(&key, ELEMENT_KEYS) else {
            c.skip_value()?;
            continue;
        };
        let at = path.with_key(k);
        match k {
            "type" | "name" | "uuid" | "visibility" | "render_order" => {
                type_seen |= k == "type";
                let v = c.next()?;
                read_common(&mut head, k, &v, c, &at, &path, ctx, &mut warnings)?;
                c.skip_rest(&v)?;
            }
            "scope" if reads_scope => {
                let v = c.next()?;
                match crate::bbmodel::textures::collections::scope_of(&v) {
                    Some(scope) => head.scope = scope,
                    None => bad_scope = v.kind != TokenKind::Null,
                }
                c.skip_rest(&v)?;
            }
            "origin" | "rotation" if pass == Pass::Measure => {
                // Neither moves a face in or out of the count.
                let both = &mut [&mut errors.cube, &mut errors.mesh];
                deferred(c, inside, both, |c| c.check_numbers::<3>(&at))?;
            }
            "origin" | "rotation" | "uv_offset" if pass == Pass::Count => c.pass_over()?,
            "origin" | "rotation" => {
                let both = &mut [&mut errors.cube, &mut errors.mesh];
                if let Some(v) = deferred(c, inside, both, |c| c.numbers64::<3>(&at))? {
                    // f32 is the scene's precision; the range was checked in f64.
                    #[allow(clippy::cast_possible_truncation)]
                    let single = v.map(|x| x as f32);
                    if k == "origin" {
                        (cube.origin, mesh.origin) = (v, single);
                    } else {
                        (cube.rotation, mesh.rotation) = (v, single);
                    }
                }
            }
            "from" | "to" | "stretch" => {
                let slot = &mut [&mut errors.cube];
                if let Some(v) = deferred(c, inside, slot, |c| c.numbers64::<3>(&at))? {
                    match k {
                        "from" => cube.from = v,
                        "to" => cube.to = v,
                        _ => cube.stretch = v,
                    }
                }
            }
            "uv_offset" => {
                let slot = &mut [&mut errors.cube];
                if pass == Pass::Measure {
                    deferred(c, inside, slot, |c| c.check_numbers::<2>(&at))?;
                } else if let Some(v) = deferred(c, inside, slot, |c| c.numbers64::<2>(&at))? {
                    cube.uv_offset = v;
                }
            }
            "inflate" => {
                let slot = &mut [&mut errors.cube];
                if let Some(v) = deferred(c, inside, slot, |c| c.number(&at))? {
                    cube.inflate = v;
                }
            }
            "box_uv" | "mirror_uv" | "shade" => {
                let slot = &mut [&mut errors.cube];
                if let Some(b) = deferred(c, inside, slot, |c| boolean(c, &at))? {
                    match k {
                        "box_uv" => cube.box_uv = b,
                        "mirror_uv" => cube.mirror_uv = b,
                        _ => shade = b,
                    }
                }
            }
            "shading" => {
                let slot = &mut [&mut errors.mesh];
                if let Some(s) = deferred(c, inside, slot, |c| string_value(c, &at))? {
                    mesh.smooth = match s.as_str() {
                        Some("smooth") => true,
                        Some("flat") => false,
                        _ => {
                            unknown_shading = Some(s);
                            false
                        }
                    };
                }
            }
            "vertices" => {
                if let (Pass::Count, Some(earlier)) = (pass, mesh.vertices_at) {
                    // Written twice: the fill pass reads only the last one.
                    check_unread_vertices(ctx, earlier, inside, &at, &mut errors.mesh)?;
                }
                let slot = &mut [&mut errors.mesh];
                let count =
                    |c: &mut Cursor<'a>| count_vertex_keys(c, pass, &at, ctx.limits, ctx.counted);
                if let Some((start, keys)) = deferred(c, inside, slot, count)? {
                    (mesh.vertices_at, mesh.keys) = (Some(start), keys);
                }
            }
            "faces" => {
                // JSON allows a key twice and the last one wins: faces an
                // earlier `faces` left unread are checked as JSON now, as no
                // other reader will see them.
                if let (Some(_), Some(earlier), true) =
                    (pending_faces, mesh.faces_at, pass.counts())
                {
                    skip_value_at(doc, earlier)?;
                }
                (pending_faces, mesh.faces_at) = (None, None);
                faces = [None; 6];
                face_textures = [FaceTexture::Removed; 6];
                let v = c.next()?;
                if v.kind != TokenKind::BeginObject {
                    errors.faces_not_object(&at, &v);
                    c.skip_rest(&v)?;
                    continue;
                }
                mesh.faces_at = Some(c.offset_of(&v));
                // Read as cube faces (most elements are cubes). A key that
                // is none of the six names is a mesh's face: the rest is
                // left unread here, and read whole where the type says.
                let before = errors.cube.is_some();
                let slot = &mut [&mut errors.cube];
                if type_seen && head.kind != ElementKind::Cube {
                    // Known to be no cube: left whole for its own reader.
                    c.leave_unchecked()?;
                    pending_faces = Some(before);
                    continue;
                }
                let speculative = !type_seen;
                let read = deferred(c, inside, slot, |c| {
                    let textures = ctx.textures;
                    read_faces(
                        c,
                        pass,
                        speculative,
                        &at,
                        textures,
                        &mut faces,
                        &mut face_textures,
                    )
                })?;
                if read == Some(FacesRead::NotCube) {
                    pending_faces = Some(before);
                }
            }
            _ => {
                c.skip_value()?;
            }
        }
    }
    if let (Pass::Count, Some(at)) = (pass, mesh.vertices_at)
        && head.kind != ElementKind::Mesh
    {
        let at_path = path.with_key("vertices");
        check_unread_vertices(ctx, at, inside, &at_path, &mut errors.mesh)?;
    }
    let body = match head.kind {
        ElementKind::Cube => {
            if let (Some(error_before), Some(at)) = (pending_faces, mesh.faces_at)
                && !error_before
            {
                // A cube after all: its faces are read now, and their error
                // comes before those of fields after them.
                faces = [None; 6];
                face_textures = [FaceTexture::Removed; 6];
                read_faces_at(ctx, pass, at, &path, &mut faces, &mut face_textures)?;
            }
            if let Some(e) = errors.cube {
                return Err(e);
            }
            if let (true, Some(w)) = (bad_scope, warnings) {
                warn_value(
                    w,
                    &path,
                    "scope",
                    format_args!("scope is no number and no numeric string: ignored"),
                );
            }
            // Convention 13: before 4.5, a box-UV project's cube with shade: false has mirrored UV.
            if doc.box_uv && !shade && doc.version.before(4, 5) {
                cube.mirror_uv = true;
            }
            ElementBody::Cube(CubeRead {
                cube,
                faces,
                textures: face_textures,
            })
        }
        ElementKind::Mesh => {
            if let Some(e) = errors.mesh {
                return Err(e);
            }
            if let (Some(s), Some(w)) = (unknown_shading, warnings) {
                warn_value(
                    w,
                    &path,
                    "shading",
                    format_args!("unknown shading {}: flat used", Quote(s.raw_str())),
                );
            }
            ElementBody::Mesh(mesh)
        }
        ElementKind::Unsupported => {
            // Faces left unread are still checked as JSON when counting.
            if let (Some(_), Some(at), true) = (pending_faces, mesh.faces_at, pass.counts()) {
                skip_value_at(doc, at)?;
            }
            ElementBody::Unsupported
        }
    };
    *out = Element { head, body };
    Ok(())
}

/// Reads the cube faces of the `faces` object at `at` (element `path`'s),
/// in a frame of its own.
#[inline(never)]
fn read_faces_at(
    ctx: &ElementContext<'_, '_>,
    pass: Pass,
    at: usize,
    path: &Path<'_>,
    faces: &mut [Option<FaceInput>; 6],
    textures: &mut [FaceTexture; 6],
) -> Result<(), Error> {
    let mut again = ctx.doc.cursor(at);
    again.next()?;
    let faces_path = path.with_key("faces");
    read_faces(
        &mut again,
        pass,
        false,
        &faces_path,
        ctx.textures,
        faces,
        textures,
    )
    .map(|_| ())
}

/// Checks the value at `at` as JSON, in a frame of its own (its cursor is
/// no part of `read_element`'s).
#[inline(never)]
fn skip_value_at(doc: &Document<'_>, at: usize) -> Result<(), Error> {
    doc.cursor(at).skip_value().map_err(Error::from)
}

/// Reads one of the fields every element has (`type`, `name`, `uuid`,
/// `visibility`, `render_order`), whose first token is `v`.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn read_common<'a>(
    head: &mut ElementHead<'a>,
    key: &str,
    v: &Token<'a>,
    c: &mut Cursor<'a>,
    at: &Path<'_>,
    element: &Path<'_>,
    ctx: &ElementContext<'_, 'a>,
    warnings: &mut Option<&mut Warnings>,
) -> Result<(), Error> {
    let max_chars = ctx.limits.max_string_chars;
    match key {
        "name" => head.name = Some(c.string_of(v, at, max_chars)?),
        "uuid" => head.uuid = Some(c.string_of(v, at, max_chars)?),
        "visibility" => head.visible = !matches!(v.kind, TokenKind::Bool(false)),
        "type" => {
            let s = string_token(v, at)?;
            head.kind = match s.as_str() {
                Some("cube") => ElementKind::Cube,
                Some("mesh") => ElementKind::Mesh,
                _ => {
                    if let Some(w) = warnings.as_deref_mut() {
                        w.push(Warning::new(
                            WarningCode::UnsupportedElement,
                            Location::Json(element.render()),
                            format_args!("element type {} skipped", Quote(s.raw_str())),
                        ));
                    }
                    ElementKind::Unsupported
                }
            };
        }
        _ => {
            let s = string_token(v, at)?;
            head.render_order = match s.as_str() {
                Some("default") => 0,
                Some("behind") => -1,
                Some("in_front") => 1,
                _ => {
                    if let Some(w) = warnings.as_deref_mut() {
                        w.push(Warning::new(
                            WarningCode::UnsupportedValue,
                            Location::Json(at.render()),
                            format_args!(
                                "unknown render_order {}: default used",
                                Quote(s.raw_str())
                            ),
                        ));
                    }
                    0
                }
            };
        }
    }
    Ok(())
}

/// A string value (of any length), else INVALID_FIELD.
fn string_token<'a>(v: &Token<'a>, at: &Path<'_>) -> Result<JsonStr<'a>, Error> {
    match v.kind {
        TokenKind::String(s) => Ok(s),
        _ => Err(invalid(
            at,
            "wrong type",
            format_args!("a string expected, got {}", type_name(v)),
        )),
    }
}

/// The next value as a string (of any length), else INVALID_FIELD.
fn string_value<'a>(c: &mut Cursor<'a>, at: &Path<'_>) -> Result<JsonStr<'a>, Error> {
    let v = c.next()?;
    string_token(&v, at)
}

/// The next value as `true` or `false`, else INVALID_FIELD.
fn boolean(c: &mut Cursor<'_>, at: &Path<'_>) -> Result<bool, Error> {
    let v = c.next()?;
    match v.kind {
        TokenKind::Bool(b) => Ok(b),
        _ => Err(invalid(
            at,
            "wrong type",
            format_args!("true or false expected, got {}", type_name(&v)),
        )),
    }
}

/// The group a cube face of `texture` joins (convention 9 and "Conversion,
/// cube box"), and the UV space its UVs are divided by: those of the
/// texture it shows (convention 15).
fn cube_face_group(
    ctx: &ElementContext<'_, '_>,
    texture: FaceTexture,
    outline_hull: bool,
    coincides_with_opposite: bool,
) -> (GroupKey, UvSpace) {
    let stored = match texture {
        FaceTexture::Index(i) => i32::try_from(i).unwrap_or(-1),
        _ => -1,
    };
    let shown = ctx.rules.cube_face(ctx.textures, stored, ctx.placed);
    let mut key = group_key(ctx.doc, &shown);
    // Cube box: an outline hull's auto-sided and untextured faces are
    // single-sided in every format, and camera-only.
    if outline_hull && shown.sides == RenderSides::Auto {
        key.double_sided = false;
    }
    // MS-50: "its single-sided faces cameraOnly" (front-sided ones too).
    key.camera_only = outline_hull && !key.double_sided;
    // Sidedness: a flat cube's face whose opposite is drawn too is single-sided.
    if coincides_with_opposite {
        key.double_sided = false;
    }
    (key, shown.uv)
}

/// The group of a face drawn as `shown` (convention 9: front and double
/// win; auto, and untextured, is single-sided in java_block only).
pub fn group_key(doc: &Document<'_>, shown: &Shown) -> GroupKey {
    let double_sided = match shown.sides {
        RenderSides::Double => true,
        RenderSides::Front => false,
        RenderSides::Auto => !doc.format.auto_is_single_sided(),
    };
    GroupKey {
        material: shown.material,
        double_sided,
        camera_only: false,
    }
}
