//! A mesh's `vertices` object counted: how many keys it has, checked
//! against maxVertices before anything is built from it (spec: "a mesh's
//! vertices key count is checked before its lookup table is built").
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use crate::bbmodel::document::MAX_JSON_DEPTH;
use crate::bbmodel::document::value::{Cursor, Path, error_at, invalid, type_name};
use crate::bbmodel::elements::context::{
    CountedVertices, ElementContext, Pass, VertexCounts, deferred,
};
use crate::error::{Error, ErrorCode};
use crate::json::TokenKind;
use crate::limits::BbmodelLimits;

/// Reads a mesh's `vertices` object to its end: where it starts and how many
/// keys it has, checked against maxVertices (spec: "a mesh's vertices key
/// count is checked before its lookup table is built"). `measure` checks
/// every position; a decode's counting pass counts the keys by the object's
/// commas, and its fill pass leaves the object to [`mesh_key_table`], which
/// reads (and counts) them all strictly.
pub(in crate::bbmodel) fn count_vertex_keys(
    c: &mut Cursor<'_>,
    pass: Pass,
    at: &Path<'_>,
    limits: &BbmodelLimits,
    counted: &VertexCounts,
) -> Result<(usize, usize), Error> {
    let v = c.next()?;
    if v.kind != TokenKind::BeginObject {
        return Err(invalid(
            at,
            "wrong type",
            format_args!("an object expected, got {}", type_name(&v)),
        ));
    }
    let start = c.offset_of(&v);
    let mut n = 0usize;
    match pass {
        Pass::Measure => {
            // The count first, by commas, as the spec orders it: a mesh past
            // maxVertices is refused without reading its positions.
            let (keys, close) = match counted.get() {
                Some(known) if known.open == start => (known.keys, known.close),
                _ => c.clone().leave_unchecked_counted()?,
            };
            if keys as u64 > limits.max_vertices {
                c.leave_at(close)?;
                n = keys;
            } else {
                // Each position checked here, so that the fill pass cannot fail on one.
                while let Some(key) = c.next_key()? {
                    c.check_numbers::<3>(&at.with_raw_key(key))?;
                    n += 1;
                }
            }
        }
        Pass::Count => {
            let (keys, close) = c.leave_unchecked_counted()?;
            counted.set(Some(CountedVertices {
                open: start,
                close,
                keys,
            }));
            n = keys;
        }
        // The key table counts them as it reads them all.
        Pass::Fill => c.leave_unchecked()?,
    }
    if n as u64 > limits.max_vertices {
        return Err(error_at(
            ErrorCode::TooManyVertices,
            at,
            "too many vertex keys",
            format_args!(
                "at most maxVertices ({}) keys in one mesh, got {n}",
                limits.max_vertices
            ),
        ));
    }
    Ok((start, n))
}

/// TOO_MANY_VERTICES for a mesh face over maxFaceVertices (both the read
/// that counts a face's keys by commas and the one that reads them).
pub(in crate::bbmodel) fn too_many_face_vertices(face: &Path<'_>, max_vertices: usize) -> Error {
    error_at(
        ErrorCode::TooManyVertices,
        face,
        "mesh face has too many vertices",
        format_args!("at most maxFaceVertices ({max_vertices})"),
    )
}

/// In a decode's counting pass ([`Pass::Count`]), which counts a `vertices`
/// object by its commas: checks one at byte `at` that the fill pass will
/// not read (an element's that is no mesh, or one written again) as
/// `measure` does, from a cursor allowed the nesting left below the
/// element's `depth`, and keeps its error in `slot` as `measure` would.
#[inline(never)]
pub(in crate::bbmodel) fn check_unread_vertices(
    ctx: &ElementContext<'_, '_>,
    at: usize,
    depth: usize,
    path: &Path<'_>,
    slot: &mut Option<Error>,
) -> Result<(), Error> {
    let mut c = Cursor::at(ctx.doc.bytes, at, MAX_JSON_DEPTH.saturating_sub(depth));
    let check =
        |c: &mut Cursor<'_>| count_vertex_keys(c, Pass::Measure, path, ctx.limits, ctx.counted);
    deferred(&mut c, 0, &mut [slot], check).map(|_| ())
}

#[cfg(test)]
mod tests {
    use crate::bbmodel::{Options, measure};
    use crate::error::ErrorCode;
    use crate::limits::BbmodelLimits;
    use std::format;
    use std::string::{String, ToString};
    use std::vec::Vec;

    /// A mesh element with `n` vertex keys, the first at `first`.
    fn mesh_element(n: usize, first: &str, uuid: &str) -> String {
        let keys: Vec<String> = (0..n)
            .map(|i| match i {
                0 => format!("\"v0\": {first}"),
                _ => format!("\"v{i}\": [{i}, 0, 0]"),
            })
            .collect();
        format!(
            "{{\"type\": \"mesh\", \"uuid\": \"{uuid}\", \"vertices\": {{{}}}, \"faces\": {{}}}}",
            keys.join(", ")
        )
    }

    /// A free model of `elements`.
    fn model(elements: &[String]) -> String {
        format!(
            "{{\"meta\": {{\"format_version\": \"4.10\", \"model_format\": \"free\"}}, \
             \"elements\": [{}]}}",
            elements.join(", ")
        )
    }

    /// A free model of one mesh with `n` vertex keys, the first at `first`.
    fn mesh(n: usize, first: &str) -> String {
        model(&[mesh_element(n, first, "m")])
    }

    fn options(max_vertices: u64) -> Options<'static> {
        Options {
            limits: BbmodelLimits {
                max_vertices,
                ..BbmodelLimits::DEFAULT
            },
            ..Options::default()
        }
    }

    /// The spec checks a mesh's key count before its table is built: past
    /// maxVertices, a bad position is never read.
    #[test]
    fn the_key_count_comes_before_the_positions() {
        let over = mesh(9, "\"x\"");
        let e = measure(over.as_bytes(), &options(8)).unwrap_err();
        assert_eq!(
            (e.code(), e.at().to_string()),
            (ErrorCode::TooManyVertices, "$.elements[0].vertices".into())
        );
        #[cfg(feature = "alloc")]
        {
            let options = crate::Options {
                bbmodel: options(8),
                ..crate::Options::default()
            };
            let e = crate::load(over.as_bytes(), Some("bbmodel"), &options).err();
            assert_eq!(e.map(|e| e.code()), Some(ErrorCode::TooManyVertices));
        }
        // At the limit, the positions are read and the bad one refused.
        let e = measure(mesh(8, "\"x\"").as_bytes(), &options(8)).unwrap_err();
        assert_ne!(e.code(), ErrorCode::TooManyVertices);
        assert!(measure(mesh(8, "[0, 0, 0]").as_bytes(), &options(8)).is_ok());
    }

    /// A decode whose counting pass fails reports `measure`'s error, and its
    /// checking pass takes the count of the last `vertices` object the
    /// counting pass walked ([`super::CountedVertices`]) only for that
    /// object: an earlier mesh, under the limit with a bad position, is
    /// still read and its error comes first.
    #[cfg(feature = "alloc")]
    #[test]
    fn a_refusal_reports_measures_error_with_the_counted_vertices() {
        let load_options = crate::Options {
            bbmodel: options(8),
            ..crate::Options::default()
        };
        let cases = [
            // One mesh past the limit: the count, taken from the counting pass.
            (
                model(&[mesh_element(9, "[0, 0, 0]", "a")]),
                "$.elements[0].vertices",
            ),
            // A mesh at the limit with a bad position, then one past it: the
            // first one's position comes first.
            (
                model(&[
                    mesh_element(8, "\"x\"", "a"),
                    mesh_element(9, "[0, 0, 0]", "b"),
                ]),
                "$.elements[0].vertices.v0",
            ),
            // Past the limit twice: the first.
            (
                model(&[
                    mesh_element(9, "[0, 0, 0]", "a"),
                    mesh_element(10, "[0, 0, 0]", "b"),
                ]),
                "$.elements[0].vertices",
            ),
        ];
        for (json, at) in &cases {
            let measured = measure(json.as_bytes(), &options(8)).unwrap_err();
            let loaded = crate::load(json.as_bytes(), Some("bbmodel"), &load_options)
                .err()
                .unwrap();
            assert_eq!(measured.at().to_string(), *at, "{json}");
            assert_eq!(
                (loaded.code(), loaded.at().to_string(), loaded.to_string()),
                (
                    measured.code(),
                    measured.at().to_string(),
                    measured.to_string()
                ),
                "{json}"
            );
        }
    }
}
