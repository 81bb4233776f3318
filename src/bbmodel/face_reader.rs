//! A face's JSON: what its `texture` names (both element types, convention
//! 4) and a cube's `faces` object, read with each face's errors held until
//! its texture is known (Conversion, Faces).

use super::cube::{FaceInput, FaceName, FaceRotation};
use super::elements::{Pass, deferred};
use super::textures::Textures;
use super::value::{Cursor, Path, invalid, known_key, type_name};
use crate::error::{Error, Quote};
use crate::json::TokenKind;

/// The keys of a cube's six faces.
const FACE_KEYS: [&str; 6] = ["north", "east", "south", "west", "up", "down"];

/// What a face's `texture` names (convention 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FaceTexture {
    /// `null`: the face is removed.
    Removed,
    /// Absent or `false`: drawn untextured.
    Blank,
    /// A texture index.
    Index(usize),
}

/// Resolves a face's `texture` value: an index below the texture count, or
/// a texture uuid (unknown → INVALID_FIELD).
pub(super) fn face_texture(
    c: &mut Cursor<'_>,
    path: &Path<'_>,
    textures: &Textures<'_>,
) -> Result<FaceTexture, Error> {
    let texture_count = textures.count();
    let v = c.next()?;
    let result = match v.kind {
        TokenKind::Null => FaceTexture::Removed,
        TokenKind::Bool(false) => FaceTexture::Blank,
        TokenKind::Number(n) => {
            let x = n.value();
            if x >= 0.0 && libm::trunc(x) == x && x < texture_count as f64 {
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
        TokenKind::String(s) => match textures.by_uuid(&s) {
            Some(i) => FaceTexture::Index(i),
            None => {
                return Err(invalid(
                    path,
                    "unknown texture uuid",
                    format_args!("the uuid of a texture, got {}", Quote(s.raw_str())),
                ));
            }
        },
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

/// How far [`read_faces`] read a `faces` object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FacesRead {
    /// To its end, as a cube's.
    Cube,
    /// Up to a key that is no cube face (when reading speculatively): the
    /// rest was left unread.
    NotCube,
}

/// Reads a cube's `faces` object, whose `{` was just read, to its end; when
/// `speculative` (the element's type is not known yet), stops at the first
/// key that is none of the six names and leaves the object unread.
///
/// Conversion, Faces: `texture: null` removes the face and its other fields
/// are not read, wherever `texture` stands in the face object; so a face's
/// errors are held until its texture is known.
pub(super) fn read_faces(
    c: &mut Cursor<'_>,
    pass: Pass,
    speculative: bool,
    path: &Path<'_>,
    textures: &Textures<'_>,
    faces: &mut [Option<FaceInput>; 6],
    face_textures: &mut [FaceTexture; 6],
) -> Result<FacesRead, Error> {
    // Where a face's errors bring the cursor back to: inside its object
    // (nesting is bounded by the tokenizer's depth, far below usize::MAX).
    let face_depth = c.depth().saturating_add(1);
    while let Some(key) = c.next_key()? {
        let Some(name) = known_key(&key, &FACE_KEYS).and_then(FaceName::from_key) else {
            if speculative {
                // Blockbench writes only the six names on a cube: these are
                // most likely a mesh's faces, left for the mesh reader.
                c.leave_unchecked()?;
                return Ok(FacesRead::NotCube);
            }
            c.skip_value()?;
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
        let mut error = None;
        let slot = &mut [&mut error];
        while let Some(field) = c.next_key()? {
            let Some(f) = known_key(&field, &["texture", "uv", "rotation"]) else {
                c.skip_value()?;
                continue;
            };
            let field_at = at.with_key(f);
            match f {
                "texture" => {
                    if let Some(t) = deferred(c, face_depth, slot, |c| {
                        face_texture(c, &field_at, textures)
                    })? {
                        texture = t;
                    }
                }
                "uv" if pass == Pass::Count => {
                    // Read and checked by the fill pass.
                    c.pass_over()?;
                    face.uv = Some([0.0; 4]);
                }
                "uv" if pass == Pass::Measure => {
                    // Where a face's UVs lie never changes the count.
                    let checked =
                        deferred(c, face_depth, slot, |c| c.check_numbers::<4>(&field_at))?;
                    if checked.is_some() {
                        face.uv = Some([0.0; 4]);
                    }
                }
                "uv" => {
                    if let Some(uv) =
                        deferred(c, face_depth, slot, |c| c.numbers64::<4>(&field_at))?
                    {
                        face.uv = Some(uv);
                    }
                }
                "rotation" => {
                    let read = |c: &mut Cursor<'_>| {
                        let degrees = c.number(&field_at)?;
                        FaceRotation::from_degrees(degrees).ok_or_else(|| {
                            invalid(
                                &field_at,
                                "face rotation",
                                format_args!("0, 90, 180 or 270 expected, got {degrees}"),
                            )
                        })
                    };
                    if let Some(r) = deferred(c, face_depth, slot, read)? {
                        face.rotation = r;
                    }
                }
                _ => {
                    c.skip_value()?;
                }
            }
        }
        if texture != FaceTexture::Removed
            && let Some(e) = error
        {
            return Err(e);
        }
        let index = name.index();
        if let (Some(f), Some(t)) = (faces.get_mut(index), face_textures.get_mut(index)) {
            *f = (texture != FaceTexture::Removed).then_some(face);
            *t = texture;
        }
    }
    Ok(FacesRead::Cube)
}
