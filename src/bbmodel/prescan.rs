//! `load`'s counts of `elements` and `animations`, made while the document
//! is located: [`Document::locate`] must walk each of these arrays to find
//! where it ends, and a walk of the count pass finds that end too, so `load`
//! lets the count pass's walk be the one (docs/bbmodel.md, "One walk per
//! part").
//!
//! A count made here stands for the count pass's walk only when it is the
//! one that walk would make: the same array (JSON lets a key repeat; the
//! last one wins), with nothing the walk gave up on. Anything else leaves
//! the part to the count pass, which counts it as before and reports its
//! errors.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of entries the input spells out, each at least one byte, so they stay far below usize::MAX"
)]

use super::animations::AnimationCounts;
use crate::bbmodel::elements::count::CubeTally;
#[cfg(feature = "alloc")]
use {
    super::animations::count_animations_at,
    super::document::Document,
    crate::bbmodel::document::value::SyntaxError,
    crate::bbmodel::elements::count::plain_cube,
    crate::bbmodel::project::structure::for_each_value_to_end,
    crate::bbmodel::project::uuid_tables::{SeenSlots, SeenUuids},
    crate::limits::BbmodelLimits,
};

/// What the walks made while locating counted.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Prescan {
    /// The plain cubes of `elements`, when every entry is one.
    pub cubes: Option<CubeTally>,
    /// The animations array that starts at `.0`, counted.
    animations: Option<(usize, AnimationCounts)>,
}

impl Prescan {
    /// No counts: every part is counted by the count pass.
    pub const NONE: Self = Self {
        cubes: None,
        animations: None,
    };

    /// The `read_whole` of [`Document::locate_with`]: reads `elements` and
    /// `animations` as the count pass of `load` reads them, keeping the
    /// counts of the latest array of each, or steps over nothing (`None`).
    #[cfg(feature = "alloc")]
    pub fn read(
        &mut self,
        doc: &Document<'_>,
        part: &str,
        at: usize,
        limits: &BbmodelLimits,
    ) -> Option<(usize, usize)> {
        match part {
            "elements" => {
                self.cubes = None;
                let (tally, end) = tally_plain_cubes(doc, at, limits)?;
                self.cubes = Some(tally);
                Some((end, tally.cubes))
            }
            "animations" => {
                self.animations = None;
                let (counts, end) = count_animations_at(doc, at, limits, false, None).ok()?;
                let end = end?;
                self.animations = Some((at, counts));
                Some((end, counts.animations))
            }
            _ => None,
        }
    }

    /// The animation counts, when they were made of the array at `at`.
    pub fn animations(&self, at: Option<usize>) -> Option<AnimationCounts> {
        self.animations
            .filter(|(counted, _)| Some(*counted) == at)
            .map(|(_, counts)| counts)
    }
}

/// The tally of the `elements` array at `at` when every entry is a plain
/// cube and no uuid repeats among the first ones held, and where the array
/// ends (the offset past its `]`): what the counting pass would count
/// with `Cubes::Bounded`, by the same walk over each element. `None` for
/// anything else.
#[cfg(feature = "alloc")]
fn tally_plain_cubes(
    doc: &Document<'_>,
    at: usize,
    limits: &BbmodelLimits,
) -> Option<(CubeTally, usize)> {
    let mut tally = CubeTally { at, cubes: 0 };
    let mut slots = SeenSlots::new();
    let mut seen = SeenUuids::new(&mut slots);
    let end = for_each_value_to_end(doc, at, |i, first, c| {
        let cube = plain_cube(&first, c, limits.max_string_chars).ok_or(GaveUp)?;
        if let Some(uuid) = &cube.uuid {
            seen.check(doc, uuid, i).map_err(|_| GaveUp)?;
        }
        tally.cubes += 1;
        Ok::<(), GaveUp>(())
    })
    .ok()??;
    Some((tally, end))
}

/// Why [`tally_plain_cubes`] stopped: its caller only needs to know that
/// it did (the counting pass finds and reports the reason).
#[cfg(feature = "alloc")]
struct GaveUp;

#[cfg(feature = "alloc")]
impl From<SyntaxError> for GaveUp {
    fn from(_: SyntaxError) -> Self {
        Self
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    extern crate std;

    use super::*;
    use crate::arena::Plan;
    use crate::bbmodel::elements::context::Pass;
    use crate::bbmodel::elements::context::VertexCounts;
    use crate::bbmodel::elements::count::Cubes;
    use crate::bbmodel::{Options, count_located, passes};
    use crate::error::{Error, ErrorCode};
    use std::format;
    use std::string::String;

    /// `load`'s count pass as it was before the prescan: every part
    /// located by its brackets, then counted.
    fn unscanned(bytes: &[u8], options: &Options<'_>) -> Result<Plan, Error> {
        let limits = &options.limits;
        let doc = Document::locate(bytes, limits)?;
        let counted = VertexCounts::new(None);
        let none = Prescan::NONE;
        let mut plan = Plan::default();
        passes::plan(
            &doc,
            options,
            &passes::Counting {
                pass: Pass::Count,
                cubes: Cubes::Bounded,
                counted: &counted,
                prescan: &none,
            },
            None,
            &mut std::boxed::Box::default(),
            &mut plan,
        )
        .map(|()| plan)
    }

    /// What the prescan of `json` kept, and the document it located.
    fn prescan(json: &str) -> (Prescan, Document<'_>) {
        let limits = BbmodelLimits::default();
        let mut scan = Prescan::NONE;
        let doc = Document::locate_with(json.as_bytes(), &limits, |doc, part, at| {
            scan.read(doc, part, at, &limits)
        })
        .unwrap();
        (scan, doc)
    }

    /// The plan `load` makes, checked against the plan made without the
    /// prescan.
    fn plan(json: &str) -> Result<Plan, ErrorCode> {
        let options = Options::default();
        let scanned = count_located(json.as_bytes(), &options).map(|(_, plan)| plan);
        match (&scanned, unscanned(json.as_bytes(), &options)) {
            (Ok(a), Ok(b)) => assert_eq!(*a, b, "{json}"),
            (Err(_), Err(_)) => {}
            (a, b) => panic!("{json}: {a:?} with the prescan, {b:?} without"),
        }
        scanned.map_err(|e| e.code())
    }

    fn cube(name: &str, uuid: &str) -> String {
        format!(
            r#"{{"name":"{name}","from":[0,0,0],"to":[1,1,1],"faces":{{"north":{{"uv":[0,0,1,1],"texture":null}}}},"uuid":"{uuid}"}}"#
        )
    }

    fn model(parts: &str) -> String {
        format!(r#"{{"meta":{{"format_version":"4.10"}},{parts}}}"#)
    }

    const UUID_A: &str = "00000000-0000-0000-0000-00000000000a";
    const UUID_B: &str = "00000000-0000-0000-0000-00000000000b";

    #[test]
    fn plain_cubes_are_tallied_where_the_array_is_found() {
        let elements = [cube("a", UUID_A), cube("b", UUID_B)].join(",");
        let json = model(&format!(r#""elements":[{elements}],"outliner":[]"#));
        let (scan, doc) = prescan(&json);
        let tally = scan.cubes.unwrap();
        assert_eq!((Some(tally.at), tally.cubes), (doc.elements, 2));
        assert_eq!(doc.entries.elements, 2);
        assert!(doc.outliner.is_some(), "located past the tallied array");
        plan(&json).unwrap();
        // An escaped name needs the text pool: the count pass counts it.
        let elements = [cube("a", UUID_A), cube("b\\u0041", UUID_B)].join(",");
        let json = model(&format!(r#""elements":[{elements}],"outliner":[]"#));
        assert_eq!(prescan(&json).0.cubes, None);
        plan(&json).unwrap();
    }

    #[test]
    fn an_element_that_is_no_plain_cube_leaves_elements_to_the_count_pass() {
        let mesh = r#"{"type":"mesh","vertices":{"a":[0,0,0],"b":[1,0,0],"c":[0,1,0]},"faces":{"f":{"vertices":["a","b","c"]}},"uuid":"00000000-0000-0000-0000-00000000000c"}"#;
        let json = model(&format!(
            r#""elements":[{},{mesh}],"outliner":[]"#,
            cube("a", UUID_A)
        ));
        let (scan, doc) = prescan(&json);
        assert_eq!(scan.cubes, None);
        assert_eq!(doc.entries.elements, 2);
        assert!(doc.outliner.is_some());
        plan(&json).unwrap();
    }

    #[test]
    fn a_repeated_uuid_is_left_to_the_count_pass_and_its_error() {
        let elements = [cube("a", UUID_A), cube("b", UUID_A)].join(",");
        let json = model(&format!(r#""elements":[{elements}]"#));
        assert_eq!(prescan(&json).0.cubes, None);
        assert_eq!(plan(&json), Err(ErrorCode::DuplicateReference));
    }

    #[test]
    fn a_tally_stands_only_for_the_array_that_elements_names() {
        // JSON keys may repeat, and the last one wins: the tally of the first
        // array must not stand for a later value that is no array.
        let json = model(&format!(
            r#""elements":[{}],"elements":5"#,
            cube("a", UUID_A)
        ));
        let (scan, doc) = prescan(&json);
        assert!(scan.cubes.is_some_and(|t| Some(t.at) != doc.elements));
        assert_eq!(plan(&json), Err(ErrorCode::InvalidField));
        // A later array is tallied afresh.
        let json = model(&format!(
            r#""elements":[{}],"elements":[]"#,
            cube("a", UUID_A)
        ));
        let (scan, doc) = prescan(&json);
        assert_eq!(
            scan.cubes.map(|t| (Some(t.at), t.cubes)),
            Some((doc.elements, 0))
        );
        plan(&json).unwrap();
    }

    #[test]
    fn bounds_over_a_limit_are_counted_again_exactly() {
        // A bounded cube is 12 triangles; these two draw one face of two
        // triangles each.
        let drawn = |name: &str, uuid: &str| cube(name, uuid).replace(r#","texture":null"#, "");
        let elements = [drawn("a", UUID_A), drawn("b", UUID_B)].join(",");
        let json = model(&format!(r#""elements":[{elements}]"#));
        assert!(prescan(&json).0.cubes.is_some());
        let mut options = Options::default();
        let code = |r: Result<_, Error>| r.map(|_| ()).map_err(|e| e.code());
        for (max, expected) in [
            (24, Ok(())),
            (23, Ok(())),
            (4, Ok(())),
            (3, Err(ErrorCode::TooManyTriangles)),
        ] {
            options.limits.max_triangles = max;
            let scanned = count_located(json.as_bytes(), &options);
            assert_eq!(code(scanned.clone()), expected, "maxTriangles {max}");
            if let Ok((_, plan)) = scanned {
                assert_eq!(plan, unscanned(json.as_bytes(), &options).unwrap());
            }
        }
    }

    #[test]
    fn animations_are_counted_where_the_array_is_found() {
        let animation =
            r#"{"name":"idle","animators":{"g":{"keyframes":[{"time":0},{"time":1}]}}}"#;
        let json = model(&format!(
            r#""animations":[{animation},{animation}],"outliner":[]"#
        ));
        let (scan, doc) = prescan(&json);
        let counted = scan.animations(doc.animations).unwrap();
        assert_eq!(
            (counted.animations, counted.animators, counted.keyframes),
            (2, 2, 4)
        );
        assert!(doc.outliner.is_some(), "located past the counted array");
        assert_eq!(scan.animations(None), None);
        plan(&json).unwrap();
        // Past a limit, the count pass counts and reports it.
        let limits = BbmodelLimits {
            max_keyframes: 3,
            ..BbmodelLimits::default()
        };
        let mut none = Prescan::NONE;
        let doc = Document::locate_with(json.as_bytes(), &limits, |doc, part, at| {
            none.read(doc, part, at, &limits)
        })
        .unwrap();
        assert_eq!(none.animations(doc.animations), None);
    }

    /// Every corpus file plans as it did before the prescan, and the
    /// prescan stands for the count pass's walk on most of them.
    #[test]
    fn corpus_plans_are_unchanged() {
        let Some(files) = crate::test_corpus::files("bbmodel", &["bbmodel"]) else {
            return;
        };
        let options = Options::default();
        let (mut tallied, mut counted, mut planned) = (0, 0, 0);
        for path in &files {
            let bytes = std::fs::read(path).unwrap();
            let name = path.display();
            let scanned = count_located(&bytes, &options);
            let before = unscanned(&bytes, &options);
            match (&scanned, &before) {
                (Ok((_, a)), Ok(b)) => assert_eq!(a, b, "{name}"),
                (Err(_), Err(_)) => continue,
                (a, b) => panic!("{name}: {a:?} with the prescan, {b:?} without"),
            }
            planned += 1;
            let (scan, doc) = match std::str::from_utf8(&bytes) {
                Ok(json) => prescan(json),
                Err(_) => continue,
            };
            tallied += usize::from(scan.cubes.is_some_and(|t| Some(t.at) == doc.elements));
            counted += usize::from(scan.animations(doc.animations).is_some());
        }
        assert!(planned >= 40, "{planned} files planned");
        assert!(tallied >= 30, "{tallied} element arrays tallied");
        assert!(counted >= 15, "{counted} animation arrays counted");
    }
}
