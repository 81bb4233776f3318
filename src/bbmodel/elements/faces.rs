//! A face's JSON: what its `texture` names (both element types, convention
//! 4) and a cube's `faces` object, read with each face's errors held until
//! its texture is known (Conversion, Faces).

use crate::bbmodel::document::value::{Cursor, Path, invalid, known_key, type_name};
use crate::bbmodel::elements::context::{Pass, deferred};
use crate::bbmodel::elements::cube::{FaceInput, FaceName, FaceRotation};
use crate::bbmodel::textures::entries::Textures;
use crate::error::{Error, Quote};
use crate::json::TokenKind;
use crate::limits::MAX_BBMODEL_NUMBER;

/// The keys of a cube's six faces.
const FACE_KEYS: [&str; 6] = ["north", "east", "south", "west", "up", "down"];

/// What a face's `texture` names (convention 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::bbmodel) enum FaceTexture {
    /// `null`: the face is removed.
    Removed,
    /// Absent or `false`: drawn untextured.
    Blank,
    /// A texture index.
    Index(usize),
}

/// Resolves a face's `texture` value: an index below the texture count, or
/// a texture uuid (unknown → INVALID_FIELD).
pub(in crate::bbmodel) fn face_texture(
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
            if let Some(i) = texture_index(n.value(), texture_count) {
                FaceTexture::Index(i)
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

/// A face's numeric `texture` as an index: a whole number from 0 to below
/// `texture_count` (convention 4), else `None`.
fn texture_index(x: f64, texture_count: usize) -> Option<usize> {
    #[allow(clippy::cast_possible_truncation)]
    (x >= 0.0 && libm::trunc(x) == x && x < texture_count as f64).then_some(x as usize)
}

/// How far [`read_faces`] read a `faces` object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::bbmodel) enum FacesRead {
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
///
/// The fill pass reads an object or face in the shape Blockbench writes,
/// compact or pretty-printed, from its bytes ([`compact_faces`],
/// [`compact_face`]), to the same values; anything else is read token by
/// token.
pub(in crate::bbmodel) fn read_faces(
    c: &mut Cursor<'_>,
    pass: Pass,
    speculative: bool,
    path: &Path<'_>,
    textures: &Textures<'_>,
    faces: &mut [Option<FaceInput>; 6],
    face_textures: &mut [FaceTexture; 6],
) -> Result<FacesRead, Error> {
    let raw = pass == Pass::Fill && !token_reads_only();
    if raw
        && let Some(read) =
            c.read_raw(|bytes, i| compact_faces(bytes, i, textures.count(), faces, face_textures))
    {
        (*faces, *face_textures) = read;
        return Ok(FacesRead::Cube);
    }
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
        let index = name.index();
        if raw
            && let Some((uv, texture)) =
                c.read_raw(|bytes, i| compact_face(bytes, i, textures.count()))
        {
            put_face(faces, face_textures, index, compact(uv), texture);
            continue;
        }
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
        put_face(faces, face_textures, index, face, texture);
    }
    Ok(FacesRead::Cube)
}

#[cfg(test)]
std::thread_local! {
    /// Tests set it to read faces with the token reads alone, to compare
    /// the two readings.
    static TOKEN_READS_ONLY: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// Whether [`read_faces`] must leave out the byte reads (tests only).
fn token_reads_only() -> bool {
    #[cfg(test)]
    return TOKEN_READS_ONLY.with(core::cell::Cell::get);
    #[cfg(not(test))]
    false
}

/// Puts the face read at `index`, drawn unless its texture removes it
/// (convention 4), over what an earlier member of the same name put there.
fn put_face(
    faces: &mut [Option<FaceInput>; 6],
    shown: &mut [FaceTexture; 6],
    index: usize,
    face: FaceInput,
    texture: FaceTexture,
) {
    if let (Some(f), Some(t)) = (faces.get_mut(index), shown.get_mut(index)) {
        *f = (texture != FaceTexture::Removed).then_some(face);
        *t = texture;
    }
}

/// The face a compact face object gives: its UV, not turned.
fn compact(uv: [f64; 4]) -> FaceInput {
    FaceInput {
        uv: Some(uv),
        rotation: FaceRotation::default(),
    }
}

/// A face object as Blockbench writes it, `{"uv":[u0,u1,u2,u3]}` with or
/// without `,"texture":T` (a texture index or `null`), compact or with JSON
/// whitespace between its tokens (Blockbench's pretty-printed files), read
/// from its bytes at `i` (after the `{`): its UV, its texture and the index
/// of its `}`. The values are the ones the token reads above give, and
/// every check is theirs: a UV of plain numbers within ±10⁷, an index below
/// `texture_count`. `None` for any other shape, another key, or a value
/// those reads would refuse: then they read it.
#[allow(
    clippy::arithmetic_side_effects,
    reason = "indices into `bytes`, each moved past bytes just matched there, so they stay below its length"
)]
fn compact_face(
    bytes: &[u8],
    i: usize,
    texture_count: usize,
) -> Option<(([f64; 4], FaceTexture), usize)> {
    let plain = |at: usize| {
        crate::json::plain_value(bytes, at).filter(|(v, _)| v.abs() <= MAX_BBMODEL_NUMBER)
    };
    let mut j = expect(bytes, i, br#""uv""#)?;
    j = expect(bytes, j, b":")?;
    j = expect(bytes, j, b"[")?;
    let mut uv = [0.0; 4];
    for (k, slot) in uv.iter_mut().enumerate() {
        let (value, end) = plain(space(bytes, j))?;
        *slot = value;
        j = expect(bytes, end, if k == 3 { b"]" } else { b"," })?;
    }
    j = space(bytes, j);
    if bytes.get(j) == Some(&b'}') {
        // A face object without a texture key is blank (convention 4).
        return Some(((uv, FaceTexture::Blank), j));
    }
    j = expect(bytes, j, b",")?;
    j = expect(bytes, j, br#""texture""#)?;
    j = space(bytes, expect(bytes, j, b":")?);
    let (texture, end) = if bytes.get(j..)?.starts_with(b"null") {
        (FaceTexture::Removed, j + 4)
    } else {
        let (x, end) = plain(j)?;
        (FaceTexture::Index(texture_index(x, texture_count)?), end)
    };
    let close = space(bytes, end);
    (bytes.get(close) == Some(&b'}')).then_some(((uv, texture), close))
}

/// The index after the JSON whitespace (space, tab, line feed, carriage
/// return: RFC 8259 section 2) at `i`.
fn space(bytes: &[u8], i: usize) -> usize {
    let rest = bytes.get(i..).unwrap_or_default();
    let blank = rest
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        .unwrap_or(rest.len());
    i.saturating_add(blank)
}

/// The index after `token`, found at `i` after whitespace; `None` when
/// anything else is there.
fn expect(bytes: &[u8], i: usize, token: &[u8]) -> Option<usize> {
    let at = space(bytes, i);
    bytes
        .get(at..)?
        .starts_with(token)
        .then_some(at.saturating_add(token.len()))
}

/// A whole `faces` object, read from its bytes at `i` (after its `{`), when
/// every member is one of the six faces in [`compact_face`]'s shape, with
/// or without whitespace: `faces` and `shown` (the caller's) with each face
/// read over them in file order, as the token reads would leave them, and
/// the index of the object's `}`. `None` for anything else.
#[allow(
    clippy::arithmetic_side_effects,
    reason = "indices into `bytes`, each moved past bytes just matched there, so they stay below its length"
)]
fn compact_faces(
    bytes: &[u8],
    mut i: usize,
    texture_count: usize,
    faces: &[Option<FaceInput>; 6],
    shown: &[FaceTexture; 6],
) -> Option<(SixFaces, usize)> {
    let (mut faces, mut shown) = (*faces, *shown);
    loop {
        // `"north":{`, or another of the six.
        let rest = bytes.get(expect(bytes, i, b"\"")?..)?;
        let (index, name) = FACE_KEYS.iter().enumerate().find(|(_, name)| {
            rest.strip_prefix(name.as_bytes())
                .is_some_and(|r| r.starts_with(b"\""))
        })?;
        i = space(bytes, i) + name.len() + 2;
        i = expect(bytes, expect(bytes, i, b":")?, b"{")?;
        let ((uv, texture), close) = compact_face(bytes, i, texture_count)?;
        put_face(&mut faces, &mut shown, index, compact(uv), texture);
        i = space(bytes, close + 1);
        match *bytes.get(i)? {
            b',' => i += 1,
            b'}' => return Some(((faces, shown), i)),
            _ => return None,
        }
    }
}

/// A cube's six faces as read: each drawn face's numbers, and what each
/// face's `texture` names.
type SixFaces = ([Option<FaceInput>; 6], [FaceTexture; 6]);

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use crate::bbmodel::document::Document;
    use crate::error::ErrorCode;
    use crate::limits::BbmodelLimits;
    use std::format;
    use std::string::String;

    type Read = Result<SixFaces, ErrorCode>;

    /// The faces object `faces` read by the fill pass, with `count` textures.
    fn read(faces: &str, count: usize) -> Read {
        let json = format!(r#"{{"meta":{{"format_version":"4.10"}},"f":[{faces}],"end":1}}"#);
        let doc = Document::read(json.as_bytes(), &BbmodelLimits::default()).unwrap();
        let mut c = doc.cursor(json.find(r#""f":"#).unwrap() + 4);
        assert_eq!(c.next().unwrap().kind, TokenKind::BeginArray);
        assert_eq!(c.next().unwrap().kind, TokenKind::BeginObject);
        let textures = Textures::new(&doc, count, &[], &[], 0);
        let (mut out, mut shown) = ([None; 6], [FaceTexture::Removed; 6]);
        read_faces(
            &mut c,
            Pass::Fill,
            false,
            &Path::key("f"),
            &textures,
            &mut out,
            &mut shown,
        )
        .map_err(|e| e.code())?;
        // The cursor stands after the faces object.
        assert_eq!(c.next().unwrap().kind, TokenKind::EndArray);
        Ok((out, shown))
    }

    /// `faces` read by the token reads alone.
    fn read_tokens(faces: &str, count: usize) -> Read {
        TOKEN_READS_ONLY.with(|t| t.set(true));
        let read = read(faces, count);
        TOKEN_READS_ONLY.with(|t| t.set(false));
        read
    }

    /// `faces` pretty-printed the way Blockbench does (a line a member,
    /// tabs, a space after each `:` and `,`).
    fn pretty(faces: &str) -> String {
        faces
            .replace(":{", ": {\n\t\t")
            .replace("\":", "\": ")
            .replace(",", ",\n\t")
            .replace("}", "\n}")
            .replace("[", "[ ")
    }

    /// The byte reads and the token reads give the same faces, to the bit
    /// (`Debug` tells -0.0 from 0.0), and the same errors, compact and
    /// pretty-printed.
    fn same(faces: &str, count: usize) -> Read {
        let (compact, tokens) = (read(faces, count), read_tokens(faces, count));
        assert_eq!(format!("{compact:?}"), format!("{tokens:?}"), "{faces}");
        let spread = pretty(faces);
        let (bytes, tokens) = (read(&spread, count), read_tokens(&spread, count));
        assert_eq!(format!("{bytes:?}"), format!("{tokens:?}"), "{spread}");
        assert_eq!(format!("{bytes:?}"), format!("{compact:?}"), "{spread}");
        compact
    }

    #[test]
    fn compact_faces_read_as_the_token_reads_read_them() {
        let faces = r#"{"north":{"uv":[0,1.5,-2.25,16],"texture":1},"east":{"uv":[0.1,2.6666666666666665,3,4]},"up":{"uv":[1,2,3,4],"texture":null},"down":{"uv":[-0,0,1.0,7],"texture":0.0}}"#;
        // The compact reading takes every face here but east, whose 17
        // significant digits the plain number reading declines (more bytes
        // follow a face in a file).
        let padded = format!("{faces}        ");
        let compact = padded
            .match_indices(":{")
            .filter(|(i, _)| compact_face(padded.as_bytes(), i + 2, 2).is_some());
        assert_eq!(compact.count(), 3);
        let (read, shown) = same(faces, 2).unwrap();
        assert_eq!(read[0].unwrap().uv, Some([0.0, 1.5, -2.25, 16.0]));
        assert_eq!(
            shown,
            [
                FaceTexture::Index(1),
                FaceTexture::Blank,
                FaceTexture::Removed,
                FaceTexture::Removed,
                FaceTexture::Removed,
                FaceTexture::Index(0),
            ]
        );
        assert_eq!(read[4], None, "texture: null removes the face");
        assert_eq!(
            read[5].unwrap().uv.unwrap()[0].to_bits(),
            (-0.0f64).to_bits()
        );
    }

    #[test]
    fn a_compact_faces_object_reads_as_the_token_reads_read_it() {
        // Six names, one twice (the later wins), blank, removed and textured.
        let faces = r#"{"north":{"uv":[0,0,1,1],"texture":0},"east":{"uv":[1,2,3,4]},"south":{"uv":[2,2,3,3],"texture":null},"west":{"uv":[4,4,5,5],"texture":1},"up":{"uv":[0,0,8,8],"texture":1},"down":{"uv":[8,8,0,0],"texture":0},"north":{"uv":[5,6,7,8],"texture":1}}"#;
        let padded = format!("{faces}        ");
        let (read, close) = compact_faces(
            padded.as_bytes(),
            1,
            2,
            &[None; 6],
            &[FaceTexture::Removed; 6],
        )
        .unwrap();
        assert_eq!(close, faces.len() - 1);
        // Pretty-printed, the same object is read the same way, whole.
        let spread = format!("{}        ", pretty(faces));
        let whole = compact_faces(
            spread.as_bytes(),
            1,
            2,
            &[None; 6],
            &[FaceTexture::Removed; 6],
        );
        assert_eq!(whole, Some((read, spread.trim_end().len() - 1)));
        let (faces_read, shown) = same(faces, 2).unwrap();
        assert_eq!((faces_read, shown), read);
        assert_eq!(faces_read[0].unwrap().uv, Some([5.0, 6.0, 7.0, 8.0]));
        assert_eq!(shown[2], FaceTexture::Removed);
        assert_eq!(faces_read[2], None);
        // One face of another shape, or another key: read face by face.
        for other in [
            faces.replace(
                r#""east":{"uv":[1,2,3,4]}"#,
                r#""east":{"uv":[1,2,3,4],"rotation":90}"#,
            ),
            faces.replace(r#""east":"#, r#""other":"#),
            faces.replace(r#""east":"#, r#""eastern":"#),
        ] {
            let padded = format!("{other}        ");
            assert!(
                compact_faces(
                    padded.as_bytes(),
                    1,
                    2,
                    &[None; 6],
                    &[FaceTexture::Removed; 6]
                )
                .is_none(),
                "{other}"
            );
            same(&other, 2).unwrap();
        }
    }

    #[test]
    fn other_shapes_and_refused_values_go_to_the_token_reads() {
        for (face, code) in [
            (
                r#"{"uv":[0,0,1,1],"texture":2}"#,
                Some(ErrorCode::InvalidField),
            ),
            (
                r#"{"uv":[0,0,1,1],"texture":-1}"#,
                Some(ErrorCode::InvalidField),
            ),
            (
                r#"{"uv":[0,0,1,1],"texture":0.5}"#,
                Some(ErrorCode::InvalidField),
            ),
            (r#"{"uv":[0,0,1,10000001]}"#, Some(ErrorCode::InvalidField)),
            (
                r#"{"uv":[0,0,1],"texture":0}"#,
                Some(ErrorCode::InvalidField),
            ),
            (r#"{"uv":[0,0,1,1,1]}"#, Some(ErrorCode::InvalidField)),
            (r#"{"uv":[0,0,1e1,1]}"#, None),
            (r#"{"uv":[0,0,1,1],"texture":0,"rotation":90}"#, None),
            (r#"{"uv":[0,0,1,1],"rotation":90,"texture":0}"#, None),
            (r#"{"texture":0,"uv":[0,0,1,1]}"#, None),
            (r#"{"uv":[0,0,1,1],"texture":false}"#, None),
            (
                r#"{"uv":[0,0,1,1],"texture":"x"}"#,
                Some(ErrorCode::InvalidField),
            ),
            (r#"{"uv":[0,0,1,1],"texture":null,"uv":[1,1,1,1]}"#, None),
            (r#"{"uv":[0, 0,1,1]}"#, None),
            (r#"{}"#, None),
        ] {
            let faces = format!(r#"{{"south":{face}}}"#);
            assert_eq!(same(&faces, 2).err(), code, "{face}");
        }
    }

    #[test]
    fn compact_face_matches_its_shape_only() {
        // In a file, more bytes follow a face (a number is read eight bytes
        // at a time, so none is read in the last seven bytes of the input).
        let at = |face: &str| compact_face(format!("{face}        ").as_bytes(), 1, 1);
        let face = r#"{"uv":[1,2,3,4],"texture":0}"#;
        let close = face.len() - 1;
        assert_eq!(
            at(face),
            Some((([1.0, 2.0, 3.0, 4.0], FaceTexture::Index(0)), close))
        );
        // "Insignificant whitespace is allowed before or after any of the
        // six structural characters" (RFC 8259 section 2): Blockbench's
        // pretty-printed faces take the same reading.
        for spread in [
            "{\n\t\"uv\" : [ 1 , 2,3,\r\n4 ] ,\t\"texture\":\n0\n}",
            "{ \"uv\": [1, 2, 3, 4], \"texture\": 0 }",
        ] {
            assert_eq!(
                at(spread),
                Some((
                    ([1.0, 2.0, 3.0, 4.0], FaceTexture::Index(0)),
                    spread.len() - 1
                )),
                "{spread}"
            );
        }
        assert_eq!(
            at("{\"uv\": [1, 2, 3, 4]\n\t}").map(|(face, _)| face),
            Some(([1.0, 2.0, 3.0, 4.0], FaceTexture::Blank))
        );
        for other in [
            r#"{"uv":[1,2,3,4],"texture":0,"x":1}"#,
            "{\"uv\":[1,2,3,4]\x0c}",
            r#"{"uv" [1,2,3,4]}"#,
            r#"{"uv":[1,2,3,4],"texture":1}"#,
            r#"{"uv":[1,2,3,4],"texture":nul}"#,
            r#"{"uv":[1,2,3,4],"texture""#,
            r#"{"uv":[1,2,3"#,
        ] {
            assert_eq!(at(other), None, "{other}");
        }
    }
}
