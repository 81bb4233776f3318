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

use super::cube::{CubeFaces, CubeInput, FaceInput, FaceName, FaceRotation, cube_faces};
use super::document::Document;
use super::textures::{RenderSides, TextureMeta};
use super::value::{Cursor, Path, error_at, invalid, type_name};
use crate::error::{Error, ErrorCode, Location, Quote, Warning, WarningCode, Warnings};
use crate::json::{JsonStr, TokenKind};
use crate::limits::BbmodelLimits;

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

/// Reads an element's common fields; warns UNSUPPORTED_ELEMENT for other types.
pub fn read_head<'a>(
    doc: &Document<'a>,
    index: usize,
    at: usize,
    limits: &BbmodelLimits,
    mut warnings: Option<&mut Warnings>,
) -> Result<ElementHead<'a>, Error> {
    let path = Path::key("elements").with_index(index);
    let mut c = doc.cursor(at);
    c.object(&path, "element")?;
    let mut head = ElementHead {
        kind: ElementKind::Cube,
        name: None,
        uuid: None,
        visible: true,
        render_order: 0,
    };
    while let Some(key) = c.next_key()? {
        let Some(k) = key.as_str() else {
            let v = c.next()?;
            c.skip_rest(&v)?;
            continue;
        };
        let at = path.with_key(k);
        let v = c.next()?;
        match k {
            "type" => {
                let TokenKind::String(s) = v.kind else {
                    return Err(invalid(
                        &at,
                        "wrong type",
                        format_args!("a string expected, got {}", type_name(&v)),
                    ));
                };
                head.kind = match s.as_str() {
                    Some("cube") => ElementKind::Cube,
                    Some("mesh") => ElementKind::Mesh,
                    _ => {
                        if let Some(w) = warnings.as_deref_mut() {
                            w.push(Warning::new(
                                WarningCode::UnsupportedElement,
                                Location::Json(path.render()),
                                format_args!("element type {} skipped", Quote(s.raw_str())),
                            ));
                        }
                        ElementKind::Unsupported
                    }
                };
            }
            "name" => head.name = Some(c.string_of(&v, &at, limits.max_string_chars)?),
            "uuid" => head.uuid = Some(c.string_of(&v, &at, limits.max_string_chars)?),
            "visibility" => head.visible = !matches!(v.kind, TokenKind::Bool(false)),
            "render_order" => {
                let TokenKind::String(s) = v.kind else {
                    return Err(invalid(
                        &at,
                        "wrong type",
                        format_args!("a string expected, got {}", type_name(&v)),
                    ));
                };
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
            _ => {}
        }
        c.skip_rest(&v)?;
    }
    Ok(head)
}

/// What a face's `texture` names (convention 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FaceTexture {
    /// `null`: the face is removed.
    Removed,
    /// Absent or `false`: drawn untextured.
    Blank,
    /// A texture index.
    Index(usize),
}

/// Resolves a face's `texture` value: an index below the texture count, or
/// a texture uuid (unknown → INVALID_FIELD).
fn face_texture(
    c: &mut Cursor<'_>,
    path: &Path<'_>,
    textures: &[TextureMeta<'_>],
    texture_count: usize,
) -> Result<FaceTexture, Error> {
    let v = c.next()?;
    let result = match v.kind {
        TokenKind::Null => FaceTexture::Removed,
        TokenKind::Bool(false) => FaceTexture::Blank,
        TokenKind::Number(n) => {
            let x = n.value();
            if x >= 0.0 && x.fract() == 0.0 && x < texture_count as f64 {
                #[allow(clippy::cast_possible_truncation)]
                FaceTexture::Index(x as usize)
            } else {
                return Err(invalid(
                    path,
                    "texture index out of range",
                    format_args!(
                        "0 to {} expected, got {}",
                        texture_count.saturating_sub(1),
                        n.raw()
                    ),
                ));
            }
        }
        TokenKind::String(s) => {
            let found = textures
                .iter()
                .position(|t| t.uuid.is_some_and(|u| same_text(&u, &s)));
            match found {
                Some(i) => FaceTexture::Index(i),
                None => {
                    return Err(invalid(
                        path,
                        "unknown texture uuid",
                        format_args!("the uuid of a texture, got {}", Quote(s.raw_str())),
                    ));
                }
            }
        }
        _ => {
            return Err(invalid(
                path,
                "wrong type",
                format_args!(
                    "a texture index, uuid, null or false expected, got {}",
                    type_name(&v)
                ),
            ));
        }
    };
    c.skip_rest(&v)?;
    Ok(result)
}

fn same_text(a: &JsonStr<'_>, b: &JsonStr<'_>) -> bool {
    match (a.as_str(), b.as_str()) {
        (Some(x), Some(y)) => x == y,
        (Some(x), None) => b.eq_str(x),
        (None, Some(y)) => a.eq_str(y),
        (None, None) => a.raw_bytes() == b.raw_bytes(),
    }
}

/// Reads a cube element and calls `emit` for each drawn face.
#[allow(clippy::too_many_arguments)]
pub fn read_cube(
    doc: &Document<'_>,
    index: usize,
    at: usize,
    textures: &[TextureMeta<'_>],
    texture_count: usize,
    mut emit: impl FnMut(&DrawnFace) -> Result<(), Error>,
) -> Result<(), Error> {
    let path = Path::key("elements").with_index(index);
    let mut c = doc.cursor(at);
    c.object(&path, "element")?;
    let mut cube = CubeInput::new([0.0; 3], [0.0; 3]);
    cube.box_uv = doc.box_uv;
    cube.box_uv_float_size = doc.format.box_uv_float_size();
    let mut shade = true;
    let mut faces: [Option<FaceInput>; 6] = [None; 6];
    let mut face_textures = [FaceTexture::Removed; 6];
    while let Some(key) = c.next_key()? {
        let Some(k) = key.as_str() else {
            let v = c.next()?;
            c.skip_rest(&v)?;
            continue;
        };
        let at = path.with_key(k);
        match k {
            "from" => cube.from = c.numbers64::<3>(&at)?,
            "to" => cube.to = c.numbers64::<3>(&at)?,
            "origin" => cube.origin = c.numbers64::<3>(&at)?,
            "rotation" => cube.rotation = c.numbers64::<3>(&at)?,
            "stretch" => cube.stretch = c.numbers64::<3>(&at)?,
            "uv_offset" => cube.uv_offset = c.numbers64::<2>(&at)?,
            "inflate" => cube.inflate = c.number(&at)?,
            "box_uv" | "mirror_uv" | "shade" => {
                let v = c.next()?;
                let TokenKind::Bool(b) = v.kind else {
                    return Err(invalid(
                        &at,
                        "wrong type",
                        format_args!("true or false expected, got {}", type_name(&v)),
                    ));
                };
                match k {
                    "box_uv" => cube.box_uv = b,
                    "mirror_uv" => cube.mirror_uv = b,
                    _ => shade = b,
                }
            }
            "faces" => read_faces(
                &mut c,
                &at,
                textures,
                texture_count,
                &mut faces,
                &mut face_textures,
            )?,
            _ => {
                let v = c.next()?;
                c.skip_rest(&v)?;
            }
        }
    }
    // Convention 13: before 4.5, a box-UV project's cube with shade: false has mirrored UV.
    if doc.box_uv && !shade && doc.version.before(4, 5) {
        cube.mirror_uv = true;
    }
    let geometry = cube_faces(&cube, &faces);
    emit_cube_faces(doc, &geometry, &face_textures, textures, &mut emit)
}

fn read_faces(
    c: &mut Cursor<'_>,
    path: &Path<'_>,
    textures: &[TextureMeta<'_>],
    texture_count: usize,
    faces: &mut [Option<FaceInput>; 6],
    face_textures: &mut [FaceTexture; 6],
) -> Result<(), Error> {
    c.object(path, "faces")?;
    while let Some(key) = c.next_key()? {
        let name = key.as_str().and_then(FaceName::from_key);
        let Some(name) = name else {
            let v = c.next()?;
            c.skip_rest(&v)?;
            continue;
        };
        let at = path.with_key(name.as_str());
        c.object(&at, "face")?;
        let mut face = FaceInput {
            uv: None,
            rotation: FaceRotation::default(),
        };
        // A face object without a texture key is blank (convention 4).
        let mut texture = FaceTexture::Blank;
        let mut removed = false;
        while let Some(field) = c.next_key()? {
            let Some(f) = field.as_str() else {
                let v = c.next()?;
                c.skip_rest(&v)?;
                continue;
            };
            let field_at = at.with_key(f);
            match f {
                "texture" => {
                    texture = face_texture(c, &field_at, textures, texture_count)?;
                    removed = texture == FaceTexture::Removed;
                }
                // A removed face's other fields are not read (Conversion, Faces).
                _ if removed => {
                    let v = c.next()?;
                    c.skip_rest(&v)?;
                }
                "uv" => face.uv = Some(c.numbers64::<4>(&field_at)?),
                "rotation" => {
                    let degrees = c.number(&field_at)?;
                    face.rotation = FaceRotation::from_degrees(degrees).ok_or_else(|| {
                        invalid(
                            &field_at,
                            "face rotation",
                            format_args!("0, 90, 180 or 270 expected, got {degrees}"),
                        )
                    })?;
                }
                _ => {
                    let v = c.next()?;
                    c.skip_rest(&v)?;
                }
            }
        }
        let slot = name.index();
        if let (Some(f), Some(t)) = (faces.get_mut(slot), face_textures.get_mut(slot)) {
            *f = if texture == FaceTexture::Removed {
                None
            } else {
                Some(face)
            };
            *t = texture;
        }
    }
    Ok(())
}

fn emit_cube_faces(
    doc: &Document<'_>,
    geometry: &CubeFaces,
    face_textures: &[FaceTexture; 6],
    textures: &[TextureMeta<'_>],
    emit: &mut impl FnMut(&DrawnFace) -> Result<(), Error>,
) -> Result<(), Error> {
    let auto_single = doc.format.auto_is_single_sided();
    for face in geometry.iter() {
        let texture = face_textures
            .get(face.name.index())
            .copied()
            .unwrap_or(FaceTexture::Blank);
        let (material, meta) = match texture {
            FaceTexture::Index(i) => (i32::try_from(i).unwrap_or(-1), textures.get(i)),
            _ => (-1, None),
        };
        let sides = meta.map_or(RenderSides::Auto, |m| m.render_sides);
        // Convention 9: front and double win; auto (and untextured) is
        // single-sided in java_block only.
        let mut double_sided = match sides {
            RenderSides::Double => true,
            RenderSides::Front => false,
            RenderSides::Auto => !auto_single,
        };
        // Cube box: an outline hull's auto-sided and untextured faces are
        // single-sided in every format, and camera-only.
        let camera_only = geometry.outline_hull && sides == RenderSides::Auto;
        if camera_only {
            double_sided = false;
        }
        // Sidedness: a flat cube's face whose opposite is drawn too is single-sided.
        if face.coincides_with_opposite {
            double_sided = false;
        }
        let uv_size = meta.map_or(doc.resolution, |m| m.uv_size);
        let uvs = face.uvs.map(|[u, v]| {
            #[allow(clippy::cast_possible_truncation)]
            [
                (u / f64::from(uv_size[0])) as f32,
                (v / f64::from(uv_size[1])) as f32,
            ]
        });
        emit(&DrawnFace {
            key: GroupKey {
                material,
                double_sided,
                camera_only,
            },
            corners: face.corners,
            uvs,
            normal: face.normal,
        })?;
    }
    Ok(())
}

/// An error for elements placed twice or uuids repeated.
pub fn duplicate(path: &Path<'_>, uuid: &JsonStr<'_>) -> Error {
    error_at(
        ErrorCode::DuplicateReference,
        path,
        "duplicate uuid",
        format_args!(
            "each element once, but {} appears twice",
            Quote(uuid.raw_str())
        ),
    )
}
