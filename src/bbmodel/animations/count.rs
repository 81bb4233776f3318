//! The count pass over animations: limits and field types.
//!
//! Spec (Limits): "Every animation, animator (at most maxGroups +
//! maxElements + 1 per animation) and keyframe is counted before any
//! keyframe is read"; maxAnimations and maxKeyframes raise
//! TOO_MANY_KEYFRAMES, naming which. Keyframe values, keyframe times and
//! animation lengths must lie within ±10⁶ (MAX_ANIMATION_VALUE), times not
//! negative; a wrong JSON type, a negative time or a value beyond ±10⁶ is
//! INVALID_FIELD (Compatibility, MS-21). Data points are numbers or strings
//! (a string that is no decimal literal is Molang, played later as a
//! warning, never an error); only a keyframe's first two data points are
//! read (Limits).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use super::keyframes::{MAX_LITERAL, RawKeyframe, plain_decimal, read_keyframe, within};
use super::molang::MolangTally;
use crate::bbmodel::document::Document;
use crate::bbmodel::document::value::{Cursor, Path, error_at, invalid, known_key, type_name};
use crate::bbmodel::project::structure::for_each_value_to_end;
use crate::error::{Error, ErrorCode};
use crate::json::{Token, TokenKind};
use crate::limits::BbmodelLimits;
use crate::molang::{MolangLimits, Work};

/// Animations and keyframes of a file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnimationCounts {
    /// Entries of `animations`.
    pub animations: usize,
    /// Keyframes of all animations.
    pub keyframes: usize,
    /// Animators of all animations (each gives at most three channels).
    pub animators: usize,
    /// The most keyframes of any one animator (the fill pass sorts them).
    pub max_animator_keyframes: usize,
    /// Text-pool bytes of the animation names with escapes.
    pub text: usize,
    /// The Molang the fill compiles (counted when the keyframes are
    /// checked; else by `count_molang`).
    pub molang: MolangTally,
}

/// The Molang a walk over keyframes counts, when it counts it.
pub(in crate::bbmodel) struct MolangCount<'w> {
    pub(in crate::bbmodel) tally: MolangTally,
    pub(in crate::bbmodel) limits: MolangLimits,
    /// Whether to count (the fill's cold path checks without counting).
    pub(in crate::bbmodel) on: bool,
    /// The compiler's open levels: the plan's `WalkScratch`'s, or none
    /// (then a count compiles with one on its own frame).
    work: Option<&'w mut Work>,
}

impl<'w> MolangCount<'w> {
    /// A walk that counts nothing.
    pub(in crate::bbmodel) fn off() -> Self {
        Self {
            tally: MolangTally::default(),
            limits: MolangLimits::default(),
            on: false,
            work: None,
        }
    }

    fn of(limits: &BbmodelLimits, work: Option<&'w mut Work>) -> Self {
        Self {
            tally: MolangTally::default(),
            limits: MolangLimits::of(limits),
            on: true,
            work,
        }
    }

    /// Counts one text compiled into a program of its own.
    pub(in crate::bbmodel) fn add(&mut self, s: &crate::json::JsonStr<'_>) {
        self.tally.add(s, &self.limits, self.work.as_deref_mut());
    }
}

/// The `blend_weight` the fill compiles: the last string without escapes
/// (an empty one is none; a value of another type changes nothing).
pub(super) fn blend_text<'a>(v: &Token<'a>, last: &mut Option<crate::json::JsonStr<'a>>) {
    if let TokenKind::String(s) = v.kind
        && !s.has_escapes()
    {
        *last = (s.raw_len() > 0).then_some(s);
    }
}

/// The Molang of one animator (first token `animator`), as
/// [`check_animator`] counts it: its keyframe arrays.
fn animator_molang<'a>(
    doc: &Document<'a>,
    c: &mut Cursor<'a>,
    animator: &Token<'a>,
    path: &Path<'_>,
    count: &mut MolangCount<'_>,
) -> Result<(), Error> {
    match animator.kind {
        TokenKind::BeginArray => array_molang(doc, c, animator, path, count),
        TokenKind::BeginObject => {
            while let Some(key) = c.next_key()? {
                let v = c.next()?;
                if key.eq_str("keyframes") && v.kind == TokenKind::BeginArray {
                    array_molang(doc, c, &v, &path.with_key("keyframes"), count)?;
                } else {
                    c.skip_rest(&v)?;
                }
            }
            Ok(())
        }
        _ => Ok(c.skip_rest(animator)?),
    }
}

/// The Molang of the keyframe array whose `[` is `open`: walked by its
/// brackets, and read again only when its bytes may hold Molang.
fn array_molang<'a>(
    doc: &Document<'a>,
    c: &mut Cursor<'a>,
    open: &Token<'a>,
    path: &Path<'_>,
    count: &mut MolangCount<'_>,
) -> Result<(), Error> {
    let start = c.offset_of(open);
    let (_, close) = c.leave_unchecked_counted()?;
    if may_hold_molang(doc.bytes.get(start..close).unwrap_or_default()) {
        let mut again = doc.cursor(start);
        again.next()?;
        check_keyframe_array(&mut again, path, count)?;
    }
    Ok(())
}

/// Whether JSON `bytes` may hold a Molang keyframe value: a string value
/// of an `x`, `y` or `z` key (`"x"`, whitespace, `:`, whitespace, `"`)
/// that is neither empty nor a plain decimal of at most 64 characters
/// (both read as constants, `decimal_literal`), or any escape (a key or
/// value spelled with one). False only when no Molang can be there.
fn may_hold_molang(bytes: &[u8]) -> bool {
    let space = |b: &u8| matches!(b, b' ' | b'\n' | b'\r' | b'\t');
    if bytes.contains(&b'\\') {
        return true;
    }
    let mut from = 0;
    while let Some(k) = bytes
        .get(from..)
        .and_then(|rest| rest.iter().position(|b| *b == b':'))
        .map(|i| from + i)
    {
        from = k + 1;
        let before = bytes.get(..k).unwrap_or_default();
        let key_end = before.len() - before.iter().rev().take_while(|b| space(b)).count();
        let axis_key = matches!(
            before.get(key_end.saturating_sub(3)..key_end),
            Some([b'"', b'x' | b'y' | b'z', b'"'])
        );
        if !axis_key {
            continue;
        }
        let after = bytes.get(k + 1..).unwrap_or_default();
        let Some(open) = after.iter().position(|b| !space(b)) else {
            continue;
        };
        if after.get(open) != Some(&b'"') {
            continue;
        }
        // No escapes: the string ends at the next quote.
        let body = after.get(open + 1..).unwrap_or_default();
        let Some(len) = body.iter().position(|b| *b == b'"') else {
            return true;
        };
        let text = body.get(..len).unwrap_or_default();
        if !(text.is_empty() || (len <= MAX_LITERAL && plain_decimal(text))) {
            return true;
        }
        from = k + 1 + open + 1 + len + 1;
    }
    false
}

/// The Molang of every animation (keyframe values and `blend_weight`), as
/// the fill compiles it, for a count pass that counted keyframes by their
/// commas: a keyframe array whose bytes may hold a Molang value
/// ([`may_hold_molang`]) is read again, checked as `measure` checks it;
/// the others are only walked by their brackets.
pub(in crate::bbmodel) fn count_molang(
    doc: &Document<'_>,
    limits: &BbmodelLimits,
    work: Option<&mut Work>,
) -> Result<MolangTally, Error> {
    let Some(at) = doc.animations else {
        return Ok(MolangTally::default());
    };
    let mut count = MolangCount::of(limits, work);
    for_each_value_to_end::<Error>(doc, at, |i, first, c| {
        let path = crate::bbmodel::document::value::ANIMATIONS.with_index(i);
        if first.kind != TokenKind::BeginObject {
            return Ok(c.skip_rest(&first)?);
        }
        let mut blend = None;
        while let Some(key) = c.next_key()? {
            let v = c.next()?;
            match (
                known_key(&key, &["animators", "bones", "blend_weight"]),
                v.kind,
            ) {
                (Some(k @ ("animators" | "bones")), TokenKind::BeginObject) => {
                    let at = path.with_key(k);
                    while let Some(animator_key) = c.next_key()? {
                        let animator = c.next()?;
                        let animator_path = at.with_raw_key(animator_key);
                        animator_molang(doc, c, &animator, &animator_path, &mut count)?;
                    }
                    continue;
                }
                (Some("blend_weight"), _) => blend_text(&v, &mut blend),
                _ => {}
            }
            c.skip_rest(&v)?;
        }
        if let Some(s) = blend {
            count.add(&s);
        }
        Ok(())
    })?;
    Ok(count.tally)
}

/// Counts animations, animators and keyframes against their limits and
/// checks every keyframe's types and ranges, in one read of each animation.
///
/// The limits come first (spec: counted "before any keyframe is read"): a
/// keyframe's error is held while the rest is counted, and returned only
/// when no limit is passed.
pub fn check_animations(
    doc: &Document<'_>,
    limits: &BbmodelLimits,
) -> Result<AnimationCounts, Error> {
    count_animations(doc, limits, true, None)
}

/// [`check_animations`] when `check`; else only counts (the keyframe
/// arrays by their commas), for a decode whose fill pass reads and checks
/// every animation anyway (docs/bbmodel.md, "Each value checked once on a
/// decode"). The counts are the same.
pub(in crate::bbmodel) fn count_animations(
    doc: &Document<'_>,
    limits: &BbmodelLimits,
    check: bool,
    work: Option<&mut Work>,
) -> Result<AnimationCounts, Error> {
    match doc.animations {
        Some(at) => count_animations_at(doc, at, limits, check, work).map(|(counts, _)| counts),
        None => Ok(AnimationCounts::default()),
    }
}

/// [`count_animations`] of the value at `at`, and where it ends when it is
/// an array (the offset past its `]`): `load` counts the animations while
/// it locates the document's parts, so that the walk that finds where the
/// array ends is the count (docs/bbmodel.md, "One walk per part").
pub(in crate::bbmodel) fn count_animations_at(
    doc: &Document<'_>,
    at: usize,
    limits: &BbmodelLimits,
    check: bool,
    mut work: Option<&mut Work>,
) -> Result<(AnimationCounts, Option<usize>), Error> {
    let mut counts = AnimationCounts::default();
    let max_animators = limits
        .max_groups
        .saturating_add(limits.max_elements)
        .saturating_add(1);
    let mut held: Option<Error> = None;
    let end = for_each_value_to_end(doc, at, |i, first, c| {
        counts.animations += 1;
        if counts.animations as u64 > limits.max_animations {
            return Err(too_many(
                &Path::key("animations"),
                "animations",
                limits.max_animations,
            ));
        }
        let path = crate::bbmodel::document::value::ANIMATIONS.with_index(i);
        let (animators, keyframes) = if held.is_some() || !check {
            count_animation(c, &first, &path, &mut counts)?
        } else {
            match check_animation(c, &first, &path, limits, &mut counts, work.as_deref_mut()) {
                Ok(counted) => counted,
                Err(e) if e.code() == ErrorCode::NotJson => return Err(e),
                Err(e) => {
                    held = Some(e);
                    // Count this animation again from its start.
                    c.recover(1)?;
                    let mut again = doc.cursor(c.offset_of(&first));
                    let first = again.next()?;
                    count_animation(&mut again, &first, &path, &mut counts)?
                }
            }
        };
        if animators as u64 > max_animators {
            return Err(too_many(
                &path.with_key("animators"),
                "animators in one animation",
                max_animators,
            ));
        }
        counts.keyframes += keyframes;
        counts.animators += animators;
        if counts.keyframes as u64 > limits.max_keyframes {
            return Err(too_many(
                &Path::key("animations"),
                "keyframes",
                limits.max_keyframes,
            ));
        }
        Ok(())
    })?;
    match held {
        Some(e) => Err(e),
        None => Ok((counts, end)),
    }
}

fn too_many(path: &Path<'_>, what: &str, max: u64) -> Error {
    error_at(
        ErrorCode::TooManyKeyframes,
        path,
        "too many animation parts",
        format_args!("at most {max} {what}"),
    )
}

/// Animators and keyframes of one animation (`animators`, or the pre-3.7
/// `bones`) whose first token, `first`, the cursor just read; the largest
/// animator and the escaped name's bytes go into `counts`.
fn count_animation<'a>(
    c: &mut Cursor<'a>,
    first: &Token<'a>,
    path: &Path<'_>,
    counts: &mut AnimationCounts,
) -> Result<(usize, usize), Error> {
    expect_object(c, first, path)?;
    let (mut animators, mut keyframes) = (0, 0);
    while let Some(key) = c.next_key()? {
        let v = c.next()?;
        match (known_key(&key, &["name", "animators", "bones"]), v.kind) {
            (Some("name"), TokenKind::String(name)) if name.has_escapes() => {
                counts.text += name.decoded_len();
            }
            (Some("animators" | "bones"), TokenKind::BeginObject) => {
                while c.next_key()?.is_some() {
                    animators += 1;
                    let animator = c.next()?;
                    let n = count_keyframes(c, &animator)?;
                    counts.max_animator_keyframes = counts.max_animator_keyframes.max(n);
                    keyframes += n;
                }
            }
            _ => c.skip_rest(&v)?,
        }
    }
    Ok((animators, keyframes))
}

/// An animation must be an object.
fn expect_object<'a>(c: &mut Cursor<'a>, first: &Token<'a>, path: &Path<'_>) -> Result<(), Error> {
    if first.kind == TokenKind::BeginObject {
        return Ok(());
    }
    c.skip_rest(first)?;
    crate::bbmodel::document::value::expect_object(first, path, "animation")
}

/// Keyframes of one animator: its `keyframes` array, an animator that is a
/// keyframe array (pre-3.7), or the channel objects of a pre-3.7 bone
/// (`{"rotation": {"0.0": …}}`, one keyframe per time key).
fn count_keyframes<'a>(c: &mut Cursor<'a>, animator: &Token<'a>) -> Result<usize, Error> {
    match animator.kind {
        TokenKind::BeginArray => count_items(c),
        TokenKind::BeginObject => {
            let mut n = 0;
            while let Some(key) = c.next_key()? {
                let v = c.next()?;
                match (known_key(&key, CHANNEL_KEYS), v.kind) {
                    (Some("keyframes"), TokenKind::BeginArray) => n += count_items(c)?,
                    (Some(_), TokenKind::BeginObject) => n += count_members(c, false)?,
                    _ => c.skip_rest(&v)?,
                }
            }
            Ok(n)
        }
        _ => {
            c.skip_rest(animator)?;
            Ok(0)
        }
    }
}

/// Items left in an array whose `[` was just read, counted by their
/// commas (the array is read strictly by another pass).
fn count_items(c: &mut Cursor<'_>) -> Result<usize, Error> {
    Ok(c.leave_unchecked_counting()?)
}

/// Checks an animation's name, length and every keyframe of its animators,
/// and counts them as [`count_animation`] does; the largest animator and
/// the escaped name's bytes go into `counts`.
fn check_animation<'a>(
    c: &mut Cursor<'a>,
    first: &Token<'a>,
    path: &Path<'_>,
    limits: &BbmodelLimits,
    counts: &mut AnimationCounts,
    work: Option<&mut Work>,
) -> Result<(usize, usize), Error> {
    expect_object(c, first, path)?;
    let max_chars = limits.max_string_chars;
    let mut molang = MolangCount::of(limits, work);
    molang.tally = counts.molang;
    let mut blend = None;
    let (mut animators, mut keyframes) = (0, 0);
    while let Some(key) = c.next_key()? {
        let k = known_key(
            &key,
            &["name", "length", "animators", "bones", "blend_weight"],
        );
        let v = c.next()?;
        match (k, v.kind) {
            (Some("name"), _) => {
                let name = c.string_of(&v, &path.with_key("name"), max_chars)?;
                if name.has_escapes() {
                    counts.text += name.decoded_len();
                }
            }
            (Some("length"), _) => {
                let at = path.with_key("length");
                within(c.number_of(&v, &at)?, &at)?;
            }
            (Some(k @ ("animators" | "bones")), TokenKind::BeginObject) => {
                let at = path.with_key(k);
                while let Some(animator_key) = c.next_key()? {
                    animators += 1;
                    let animator = c.next()?;
                    let animator_path = at.with_raw_key(animator_key);
                    let n = check_animator(c, &animator, &animator_path, &mut molang)?;
                    counts.max_animator_keyframes = counts.max_animator_keyframes.max(n);
                    keyframes += n;
                }
                continue;
            }
            (Some("blend_weight"), _) => blend_text(&v, &mut blend),
            _ => {}
        }
        c.skip_rest(&v)?;
    }
    if let Some(s) = blend {
        molang.add(&s);
    }
    counts.molang = molang.tally;
    Ok((animators, keyframes))
}

/// Checks one animator (every keyframe array strictly) and returns its
/// keyframes, counted as [`count_keyframes`] counts them.
pub(super) fn check_animator<'a>(
    c: &mut Cursor<'a>,
    animator: &Token<'a>,
    path: &Path<'_>,
    molang: &mut MolangCount<'_>,
) -> Result<usize, Error> {
    match animator.kind {
        TokenKind::BeginArray => check_keyframe_array(c, path, molang),
        TokenKind::BeginObject => {
            let mut n = 0;
            while let Some(key) = c.next_key()? {
                let v = c.next()?;
                match (known_key(&key, CHANNEL_KEYS), v.kind) {
                    (Some("keyframes"), TokenKind::BeginArray) => {
                        n += check_keyframe_array(c, &path.with_key("keyframes"), molang)?;
                    }
                    (Some("keyframes"), _) => {
                        return Err(invalid(
                            &path.with_key("keyframes"),
                            "wrong type",
                            format_args!("an array expected, got {}", type_name(&v)),
                        ));
                    }
                    (Some(_), TokenKind::BeginObject) => n += count_members(c, true)?,
                    _ => c.skip_rest(&v)?,
                }
            }
            Ok(n)
        }
        _ => Err(invalid(
            path,
            "wrong type",
            format_args!("an animator object expected, got {}", type_name(animator)),
        )),
    }
}

/// An animator's keys that hold keyframes: the array, or a pre-3.7 channel.
const CHANNEL_KEYS: &[&str] = &["keyframes", "rotation", "position", "scale"];

/// Members left in an object whose `{` was just read: skipped strictly
/// when `deep`, else counted by their commas.
fn count_members(c: &mut Cursor<'_>, deep: bool) -> Result<usize, Error> {
    if !deep {
        return Ok(c.leave_unchecked_counting()?);
    }
    let mut n = 0;
    while c.next_key()?.is_some() {
        c.skip_value()?;
        n += 1;
    }
    Ok(n)
}

/// Checks the keyframes left in an array whose `[` was just read; returns
/// how many there were.
pub(super) fn check_keyframe_array(
    c: &mut Cursor<'_>,
    path: &Path<'_>,
    molang: &mut MolangCount<'_>,
) -> Result<usize, Error> {
    let mut i = 0;
    let mut raw = RawKeyframe::default();
    loop {
        let t = c.next()?;
        if t.kind == TokenKind::EndArray {
            return Ok(i);
        }
        let at = path.with_index(i);
        if t.kind != TokenKind::BeginObject {
            return Err(invalid(
                &at,
                "wrong type",
                format_args!("a keyframe object expected, got {}", type_name(&t)),
            ));
        }
        read_keyframe(c, &at, &mut raw)?;
        if molang.on {
            for s in raw.molang_texts() {
                molang.add(s);
            }
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;
    use std::string::ToString;

    fn check(json: &str, limits: BbmodelLimits) -> Result<AnimationCounts, Error> {
        let doc = Document::read(json.as_bytes(), &limits)?;
        check_animations(&doc, &limits)
    }

    fn file(animations: &str) -> std::string::String {
        format!(r#"{{"meta": {{"format_version": "4.10"}}, "animations": [{animations}]}}"#)
    }

    /// Asserts that `json` fails with INVALID_FIELD at a path under `prefix`.
    fn invalid_under(json: &str, prefix: &str) {
        let e = check(json, BbmodelLimits::default()).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidField, "{json}: {e}");
        assert!(e.at().to_string().starts_with(prefix), "{}", e.at());
    }

    const KEYFRAME: &str = r#"{"channel": "rotation", "time": 0.5, "data_points": [{"x": "1.5", "y": 0, "z": "math.sin(q.anim_time)"}]}"#;

    #[test]
    fn counts_animations_and_keyframes() {
        let json = file(&format!(
            r#"{{"name": "a", "length": 1, "animators": {{"g1": {{"keyframes": [{KEYFRAME}, {KEYFRAME}]}}}}}}"#
        ));
        let counts = check(&json, BbmodelLimits::default()).unwrap();
        assert_eq!(
            counts,
            AnimationCounts {
                animations: 1,
                keyframes: 2,
                animators: 1,
                max_animator_keyframes: 2,
                text: 0,
                molang: MolangTally {
                    programs: 2,
                    nodes: 4,
                    text: 42,
                    placeholders: 0,
                },
            }
        );
    }

    #[test]
    fn max_keyframes_at_value_and_one_past() {
        let json = file(&format!(
            r#"{{"animators": {{"g1": {{"keyframes": [{KEYFRAME}, {KEYFRAME}]}}}}}}"#
        ));
        let at = BbmodelLimits {
            max_keyframes: 2,
            ..BbmodelLimits::default()
        };
        assert!(check(&json, at).is_ok());
        let under = BbmodelLimits {
            max_keyframes: 1,
            ..BbmodelLimits::default()
        };
        let e = check(&json, under).unwrap_err();
        assert_eq!(e.code(), ErrorCode::TooManyKeyframes);
        assert!(e.message().contains("keyframes"), "{}", e.message());
    }

    #[test]
    fn max_animations_at_value_and_one_past() {
        let json = file(r#"{"name": "a"}, {"name": "b"}"#);
        assert!(
            check(
                &json,
                BbmodelLimits {
                    max_animations: 2,
                    ..BbmodelLimits::default()
                }
            )
            .is_ok()
        );
        let e = check(
            &json,
            BbmodelLimits {
                max_animations: 1,
                ..BbmodelLimits::default()
            },
        )
        .unwrap_err();
        assert_eq!(e.code(), ErrorCode::TooManyKeyframes);
        assert!(e.message().contains("animations"), "{}", e.message());
    }

    #[test]
    fn animators_per_animation_are_bounded_by_groups_plus_elements_plus_one() {
        let json = file(r#"{"animators": {"a": {}, "b": {}, "c": {}, "d": {}}}"#);
        let limits = BbmodelLimits {
            max_groups: 1,
            max_elements: 2,
            ..BbmodelLimits::default()
        };
        assert!(check(&json, limits).is_ok());
        let limits = BbmodelLimits {
            max_groups: 1,
            max_elements: 1,
            ..BbmodelLimits::default()
        };
        assert_eq!(
            check(&json, limits).unwrap_err().code(),
            ErrorCode::TooManyKeyframes
        );
    }

    #[test]
    fn negative_times_values_past_a_million_and_wrong_types_are_invalid_fields() {
        for bad in [
            r#"{"time": -0.1}"#,
            r#"{"time": 1000001}"#,
            r#"{"time": "0"}"#,
            r#"{"data_points": [{"x": 2000000}]}"#,
            r#"{"data_points": [{"x": "-2000000"}]}"#,
            r#"{"data_points": [{"x": true}]}"#,
            r#"{"channel": 5}"#,
        ] {
            let json = file(&format!(
                r#"{{"animators": {{"g": {{"keyframes": [{bad}]}}}}}}"#
            ));
            invalid_under(&json, "$.animations[0].animators.g.keyframes[0]");
        }
        let json = file(r#"{"length": -2000000}"#);
        assert_eq!(
            check(&json, BbmodelLimits::default()).unwrap_err().code(),
            ErrorCode::InvalidField
        );
    }

    #[test]
    fn only_the_first_two_data_points_of_a_keyframe_are_read() {
        // Spec (Limits): "Only the first two data points of a keyframe are
        // read": a third is not checked (only as JSON), the first two are.
        let point = |bad: &str, at: usize| {
            let mut points = [r#"{"x": 0}"#; 3];
            points[at] = bad;
            file(&format!(
                r#"{{"animators": {{"g": {{"keyframes": [{{"data_points": [{}]}}]}}}}}}"#,
                points.join(", ")
            ))
        };
        for bad in [r#"{"x": true}"#, r#"{"x": 2000000}"#, "7"] {
            assert!(
                check(&point(bad, 2), BbmodelLimits::default()).is_ok(),
                "{bad}"
            );
            invalid_under(
                &point(bad, 1),
                "$.animations[0].animators.g.keyframes[0].data_points[1]",
            );
        }
        let e = check(&point("[1,]", 2), BbmodelLimits::default()).unwrap_err();
        assert_eq!(e.code(), ErrorCode::NotJson);
    }

    #[test]
    fn limits_come_before_a_keyframe_error_anywhere() {
        // The bad keyframe comes first; the limit is passed only after it,
        // in its own animation and in a later one.
        let bad = r#"{"time": -1}"#;
        let same = file(&format!(
            r#"{{"animators": {{"g": {{"keyframes": [{bad}, {KEYFRAME}, {KEYFRAME}]}}}}}}"#
        ));
        let later = file(&format!(
            r#"{{"animators": {{"g": {{"keyframes": [{bad}]}}}}}}, {{"animators": {{"g": [{KEYFRAME}, {KEYFRAME}]}}}}"#
        ));
        let limits = BbmodelLimits {
            max_keyframes: 2,
            ..BbmodelLimits::default()
        };
        for json in [same, later] {
            let e = check(&json, limits).unwrap_err();
            assert_eq!(e.code(), ErrorCode::TooManyKeyframes, "{json}: {e}");
            // Within the limit, the keyframe's own error is what fails.
            let roomy = BbmodelLimits {
                max_keyframes: 3,
                ..BbmodelLimits::default()
            };
            let e = check(&json, roomy).unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidField, "{json}: {e}");
            assert_eq!(
                e.at().to_string(),
                "$.animations[0].animators.g.keyframes[0].time"
            );
        }
    }

    #[test]
    fn a_keyframe_array_may_hold_molang_only_in_a_string_axis_value() {
        // Every Molang value is a string under "x", "y" or "z"; a key
        // spelled with an escape is read too.
        for yes in [
            r#"[{"data_points":[{"x":"q.anim_time","y":0}]}]"#,
            r#"[{"y" :  "1 + 1"}]"#,
            "[{\"z\"\n:\t\"v.a\"}]",
            r#"[{"\u0078":"a"}]"#,
        ] {
            assert!(may_hold_molang(yes.as_bytes()), "{yes}");
        }
        // Whitespace around a number reads as a constant, but is read to see.
        assert!(may_hold_molang(br#"[{"x":"1","y":"2 "}]"#));
        assert!(may_hold_molang(br#"[{"x":"1.2.3"}]"#));
        for no in [
            r#"[{"data_points":[{"x":1,"y":"2"}]}]"#.to_string(),
            r#"[{"x":"-22.5","y":"","z":"007"}]"#.to_string(),
            r#"[{"channel":"rotation","xx":"a","x":5}]"#.to_string(),
            r#"[{"uuid":"x","time":0}]"#.to_string(),
        ] {
            assert!(!may_hold_molang(no.as_bytes()), "{no}");
        }
    }

    #[test]
    fn pre_3_7_bones_count_one_keyframe_per_time() {
        let json = file(
            r#"{"bones": {"head": {"rotation": {"0.0": [0, 0, 0], "0.5": [10, 0, 0]}, "position": {"0": [1, 2, 3]}}}}"#,
        );
        assert_eq!(check(&json, BbmodelLimits::default()).unwrap().keyframes, 3);
    }
}
