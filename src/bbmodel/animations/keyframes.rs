//! One keyframe: its checks, its values as the scene holds them, and the
//! stable time order of a channel.
//!
//! A keyframe is read once, by [`read_keyframe`], which both checks it
//! (spec Limits: time in 0..=10⁶, values within ±10⁶, only the first two
//! data points read) and returns what it holds; the count pass keeps only
//! the check. [`RawKeyframe::record`] then turns it into a
//! [`KeyframeRecord`]: defaults, convention 13's sign migration, degrees to
//! radians, and the spec's replacement for negative scale. Bezier handles
//! are read in `bezier.rs`, plugin easing in `easing.rs`.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use super::bezier::{RawHandles, read_handle};
use super::easing::{
    Eased, RawArg, RawEasing, eased, read_easing, read_easing_args, read_values_easing,
};
use crate::bbmodel::document::value::{Cursor, Path, invalid, known_key, type_name};
use crate::error::Error;
use crate::json::{JsonStr, Token, TokenKind, quick_value};
use crate::limits::MAX_ANIMATION_VALUE;
use crate::molang::MolangError;
use crate::scene::{ChannelTarget, Interpolation, KeyframeRecord, KeyframeSource};

/// How many of a keyframe's data points are read (two: the value arriving
/// and the value leaving a keyframe); the rest are passed over.
pub(super) const READ_DATA_POINTS: usize = 2;

/// A data point's value keys.
const AXES: &[&str] = &["x", "y", "z"];

/// The keyframe keys that are read.
const KEYFRAME_KEYS: &[&str] = &[
    "time",
    "channel",
    "interpolation",
    "data_points",
    "x",
    "y",
    "z",
    "bezier_left_time",
    "bezier_left_value",
    "bezier_right_time",
    "bezier_right_value",
    "easing",
    "easingArgs",
    "values",
];

/// The scale a negative scale value plays as: Blockbench's own floor for
/// a factor of 0 (`displayScale`), the smallest scale it ever shows.
pub(super) const MIN_SCALE: f32 = 0.000_01;

/// One axis of a data point as the file holds it.
#[derive(Clone, Copy, Default, PartialEq)]
pub(super) enum Axis<'a> {
    /// Not written: the channel's default (0, or 1 for scale).
    #[default]
    Missing,
    /// A number, a decimal literal or a blank string.
    Constant(f64),
    /// Any other string: a Molang expression, played at sample time.
    Molang(JsonStr<'a>),
}

/// A keyframe as read, before the channel's defaults and units apply.
#[derive(Clone, Copy, Default)]
pub(super) struct RawKeyframe<'a> {
    pub(super) channel: Option<JsonStr<'a>>,
    pub(super) time: f64,
    pub(super) interpolation: Option<JsonStr<'a>>,
    /// The first two data points, then how many there were (at most two).
    pub(super) points: [[Axis<'a>; 3]; READ_DATA_POINTS],
    pub(super) point_count: usize,
    /// Values on the keyframe itself (before 3.7): used when it has no
    /// data point, as Blockbench's `Keyframe.extend` does.
    pub(super) direct: [Axis<'a>; 3],
    /// The bezier handles.
    pub(super) handles: RawHandles,
    /// The plugin formats' `easing` and `easingArgs[0]`.
    pub(super) easing: RawEasing<'a>,
    pub(super) easing_arg: RawArg,
    /// GeckoLib's `values` form's easing, which replaces the keyframe's own
    /// when `values` is an object (`easing.rs`, `read_values_easing`).
    pub(super) values_easing: Option<(RawEasing<'a>, RawArg)>,
}

/// What a keyframe plays, or why it does not as authored.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Played {
    /// A keyframe of `target`, with flags for what was changed on the way.
    Keyframe {
        target: ChannelTarget,
        record: KeyframeRecord,
        /// Which played axes are Molang ([`KeyframeSource`]'s bits; the
        /// record holds the channel default there).
        molang: u32,
        /// The first thing Blockbench's Molang syntax check flags in them.
        bad_molang: Option<MolangError>,
        /// An interpolation Blockbench does not know ([`Interpolation::Unknown`]).
        unknown_interpolation: bool,
        /// A negative scale, played as [`MIN_SCALE`].
        negative_scale: bool,
    },
    /// A channel a bone does not have (or none): skipped.
    UnknownChannel,
}

impl<'a> RawKeyframe<'a> {
    /// The keyframe as the scene plays it. `before_5` applies convention
    /// 13: files before format 5.0 store rotation x, y and position x
    /// with the opposite sign.
    ///
    /// Out of line: its values sit in a frame of their own, not in the
    /// staging loop's under every keyframe read (issue 40).
    #[inline(never)]
    pub(super) fn played(&self, before_5: bool) -> Played {
        let target = match self.channel {
            Some(c) if c.eq_str("rotation") => ChannelTarget::Rotation,
            Some(c) if c.eq_str("position") => ChannelTarget::Translation,
            Some(c) if c.eq_str("scale") => ChannelTarget::Scale,
            _ => return Played::UnknownChannel,
        };
        // Blockbench reads data points when there is at least one, else
        // the keyframe's own values.
        let (points, count) = if self.point_count > 0 {
            (&self.points[..], self.point_count)
        } else {
            (core::slice::from_ref(&self.direct), 1)
        };
        let default = if target == ChannelTarget::Scale {
            1.0
        } else {
            0.0
        };
        let mut values = [[0.0f64; 3]; READ_DATA_POINTS];
        let (mut molang, mut bad_molang) = (0u32, None);
        for (p, (out, point)) in values.iter_mut().zip(points.iter().take(count)).enumerate() {
            for (a, (v, axis)) in out.iter_mut().zip(point).enumerate() {
                *v = match *axis {
                    Axis::Missing => default,
                    Axis::Constant(c) => c,
                    Axis::Molang(text) => {
                        molang |= 1 << (3 * p + a);
                        // Escaped text is rare; its check is left out.
                        if bad_molang.is_none() {
                            bad_molang = text.as_str().and_then(crate::molang::check);
                        }
                        default
                    }
                };
            }
        }
        if count == 1 {
            // One data point: it both arrives and leaves.
            molang |= molang << 3;
        }
        if molang != 0 {
            if before_5 {
                molang |= KeyframeSource::BEFORE_5;
            }
            if self.point_count > 0 {
                molang |= KeyframeSource::DATA_POINTS;
            }
            if count > 1 {
                molang |= KeyframeSource::TWO_POINTS;
            }
        }
        let mut negative_scale = false;
        let mut convert = |v: [f64; 3]| -> [f32; 3] {
            let [mut x, mut y, z] = v;
            if before_5 {
                // Convention 13: rotation x, y and position x negated.
                match target {
                    ChannelTarget::Rotation => (x, y) = (-x, -y),
                    ChannelTarget::Translation => x = -x,
                    ChannelTarget::Scale => {}
                }
            }
            [x, y, z].map(|v| match target {
                ChannelTarget::Rotation => narrow(v.to_radians()),
                ChannelTarget::Translation => narrow(v),
                ChannelTarget::Scale if v < 0.0 => {
                    negative_scale = true;
                    MIN_SCALE
                }
                ChannelTarget::Scale => narrow(v),
            })
        };
        let pre = convert(values[0]);
        let post = if count > 1 { convert(values[1]) } else { pre };
        let (interpolation, unknown_interpolation) = match self.interpolation {
            None => (Interpolation::Linear, false),
            Some(i) if i.eq_str("linear") => (Interpolation::Linear, false),
            Some(i) if i.eq_str("catmullrom") => (Interpolation::CatmullRom, false),
            Some(i) if i.eq_str("step") => (Interpolation::Step, false),
            Some(i) if i.eq_str("bezier") => (Interpolation::Bezier, false),
            // Blockbench keeps any string (`Property` 'enum' without
            // values, `Merge.string`); its interpolate plays it as below.
            Some(_) => (Interpolation::Unknown, true),
        };
        let bezier = interpolation == Interpolation::Bezier;
        let handles = self.handles.played(target, before_5 && bezier, pre, post);
        Played::Keyframe {
            target,
            molang,
            bad_molang,
            record: KeyframeRecord {
                // + 0.0 turns a time of -0 into 0, which sorts as 0.
                time: narrow(self.time) + 0.0,
                interpolation: interpolation as u32,
                pre,
                post,
                data_points: if count > 1 { 2 } else { 1 },
                bezier_left_time: handles.left_time,
                bezier_left_value: handles.left_value,
                bezier_right_time: handles.right_time,
                bezier_right_value: handles.right_value,
                // Set by `easing` in the formats whose plugin plays it.
                easing: 0,
                easing_arg: 0.0,
            },
            unknown_interpolation,
            negative_scale,
        }
    }
}

impl<'a> RawKeyframe<'a> {
    /// Each Molang text the keyframe plays, in the order of its
    /// [`KeyframeSource`] bits (`3·point + axis`): what the fill compiles
    /// and the count pass counts. None for an unknown channel.
    pub(super) fn molang_texts(&self) -> impl Iterator<Item = &JsonStr<'a>> {
        let known = self
            .channel
            .is_some_and(|c| c.eq_str("rotation") || c.eq_str("position") || c.eq_str("scale"));
        let points = if !known {
            &[]
        } else if self.point_count > 0 {
            self.points.get(..self.point_count).unwrap_or_default()
        } else {
            core::slice::from_ref(&self.direct)
        };
        points.iter().flatten().filter_map(|axis| match axis {
            Axis::Molang(text) => Some(text),
            _ => None,
        })
    }
}

/// An f64 the checks bounded (±10⁶) as the scene's f32.
#[allow(clippy::cast_possible_truncation)]
fn narrow(v: f64) -> f32 {
    v as f32
}

/// Reads (and checks) a keyframe whose `{` was just read: time a number
/// in 0..=10⁶, channel and interpolation strings, data points objects
/// whose axes are numbers or strings (a decimal literal within ±10⁶, or
/// Molang), and so the pre-3.7 values on the keyframe itself. A repeated
/// key counts once, the last (as JSON.parse keeps it).
///
/// The keyframe goes to `raw` (the caller's, reused: a 640-byte record
/// returned in a `Result` sat in this frame and the caller's at once).
pub(super) fn read_keyframe<'a>(
    c: &mut Cursor<'a>,
    path: &Path<'_>,
    raw: &mut RawKeyframe<'a>,
) -> Result<(), Error> {
    *raw = RawKeyframe::default();
    while let Some(key) = c.next_key()? {
        let Some(k) = known_key(&key, KEYFRAME_KEYS) else {
            c.skip_value()?;
            continue;
        };
        let at = path.with_key(k);
        let v = c.next()?;
        match k {
            "time" => {
                let time = c.number_of(&v, &at)?;
                if time < 0.0 {
                    return Err(invalid(
                        &at,
                        "negative keyframe time",
                        format_args!("a time of 0 or more, got {time}"),
                    ));
                }
                within(time, &at)?;
                raw.time = time;
            }
            "x" | "y" | "z" => {
                let slot = usize::from(k != "x") + usize::from(k == "z");
                let value = read_value(c, &v, &at)?;
                if let Some(axis) = raw.direct.get_mut(slot) {
                    *axis = value;
                }
            }
            "channel" | "interpolation" => {
                let TokenKind::String(s) = v.kind else {
                    c.skip_rest(&v)?;
                    return Err(invalid(
                        &at,
                        "wrong type",
                        format_args!("a string expected, got {}", type_name(&v)),
                    ));
                };
                if k == "channel" {
                    raw.channel = Some(s);
                } else {
                    raw.interpolation = Some(s);
                }
            }
            "easing" => raw.easing = read_easing(c, &v)?,
            "easingArgs" => raw.easing_arg = read_easing_args(c, &v)?,
            "values" => raw.values_easing = read_values_easing(c, &v)?,
            "data_points" => read_data_points(c, &v, &at, raw)?,
            _ => read_handle(c, &v, &at, &mut raw.handles, k)?,
        }
    }
    Ok(())
}

impl RawKeyframe<'_> {
    /// The keyframe's plugin easing (`easing.rs`; only in the formats whose
    /// plugin plays it).
    pub(super) fn easing(&self) -> Eased {
        match &self.values_easing {
            Some((easing, arg)) => eased(easing, *arg),
            None => eased(&self.easing, self.easing_arg),
        }
    }
}

/// A keyframe's `data_points` array, first token `v`: its first two data
/// points (spec Limits: "Only the first two data points of a keyframe are
/// read"), each an object whose `x`, `y`, `z` are values; other keys (an
/// effect's `file`, `script`, …) are not read.
fn read_data_points<'a>(
    c: &mut Cursor<'a>,
    v: &Token<'a>,
    at: &Path<'_>,
    raw: &mut RawKeyframe<'a>,
) -> Result<(), Error> {
    if v.kind != TokenKind::BeginArray {
        c.skip_rest(v)?;
        return Err(invalid(
            at,
            "wrong type",
            format_args!("an array expected, got {}", type_name(v)),
        ));
    }
    raw.points = Default::default();
    raw.point_count = 0;
    let mut i = 0;
    loop {
        let point = c.next()?;
        if point.kind == TokenKind::EndArray {
            return Ok(());
        }
        let Some(slot) = raw.points.get_mut(i) else {
            c.skip_rest(&point)?;
            continue;
        };
        let point_path = at.with_index(i);
        if point.kind != TokenKind::BeginObject {
            c.skip_rest(&point)?;
            return Err(invalid(
                &point_path,
                "wrong type",
                format_args!("a data point object expected, got {}", type_name(&point)),
            ));
        }
        while let Some(axis) = c.next_key()? {
            let Some(name) = known_key(&axis, AXES) else {
                c.skip_value()?;
                continue;
            };
            let value = c.next()?;
            let read = read_value(c, &value, &point_path.with_raw_key(axis))?;
            let index = usize::from(name != "x") + usize::from(name == "z");
            if let Some(a) = slot.get_mut(index) {
                *a = read;
            }
        }
        i += 1;
        raw.point_count = i;
    }
}

/// A data point value, first token `value`: a number within ±10⁶, or a
/// string (a decimal literal within ±10⁶, blank, or Molang).
///
/// Out of line: its literal buffer and error stay out of `read_keyframe`'s
/// frame, which the bezier handles' number reads sit under (issue 40).
#[inline(never)]
pub(super) fn read_value<'a>(
    c: &mut Cursor<'a>,
    value: &Token<'a>,
    path: &Path<'_>,
) -> Result<Axis<'a>, Error> {
    match value.kind {
        TokenKind::Number(_) => {
            let v = c.number_of(value, path)?;
            within(v, path)?;
            Ok(Axis::Constant(v))
        }
        TokenKind::String(s) => match decimal_literal(&s) {
            Some(v) => {
                within(v, path)?;
                Ok(Axis::Constant(v))
            }
            None => Ok(Axis::Molang(s)),
        },
        _ => {
            c.skip_rest(value)?;
            Err(invalid(
                path,
                "wrong type",
                format_args!("a number or a string expected, got {}", type_name(value)),
            ))
        }
    }
}

/// INVALID_FIELD unless `v` lies within ±10⁶ (spec Limits, MAX_ANIMATION_VALUE).
#[inline]
pub(super) fn within(v: f64, path: &Path<'_>) -> Result<(), Error> {
    if v.is_finite() && v.abs() <= MAX_ANIMATION_VALUE {
        Ok(())
    } else {
        Err(out_of_range(v, path))
    }
}

/// [`within`]'s error, built in a cold frame of its own: inlined, its
/// formatting sat in `read_keyframe`'s frame under the handle reads.
#[cold]
#[inline(never)]
fn out_of_range(v: f64, path: &Path<'_>) -> Error {
    invalid(
        path,
        "animation value out of range",
        format_args!("within ±1000000, got {v}"),
    )
}

/// Longest decimal literal read as a constant (sign, digits and point;
/// surrounding whitespace is not counted). A longer one reads as Molang.
pub(super) const MAX_LITERAL: usize = 64;

/// The value of a string that is a decimal literal — an optional sign,
/// digits with an optional fraction (`12`, `-12.5`, `.5`, `5.`) — with any
/// whitespace around it (real files store `"-1\n"` and `"30  "`, and
/// Blockbench plays them); 0 for a blank string. `None` for anything else:
/// Molang.
pub(crate) fn decimal_literal(s: &JsonStr<'_>) -> Option<f64> {
    // The shape real files store (`"-22.5"`: no escape, space, `+` or bare
    // point) by the JSON number's exact fast path, without the character
    // walk below; its value is the one `parse` gives that walk's text.
    if !s.has_escapes()
        && plain_decimal(s.raw_bytes())
        && let Some(v) = quick_value(s.raw_bytes())
    {
        return Some(v);
    }
    #[derive(Clone, Copy, PartialEq)]
    enum At {
        Lead,
        Sign,
        Integer,
        Point,
        Fraction,
        Trail,
    }
    let mut core = [0u8; MAX_LITERAL];
    let mut len = 0usize;
    let mut at = At::Lead;
    let mut digits = false;
    let ok = s.for_each_decoded(|piece| {
        for ch in piece.chars() {
            let space = ch.is_whitespace() || ch == '\u{feff}';
            let next = match (at, ch) {
                (At::Lead | At::Trail, _) if space => at,
                (At::Integer | At::Point | At::Fraction, _) if space => At::Trail,
                (At::Lead, '-' | '+') => At::Sign,
                (At::Lead | At::Sign | At::Integer, '0'..='9') => At::Integer,
                (At::Lead | At::Sign | At::Integer, '.') => At::Point,
                (At::Point | At::Fraction, '0'..='9') => At::Fraction,
                _ => return false,
            };
            if !space {
                let Some(slot) = core.get_mut(len) else {
                    return false;
                };
                // The accepted characters are ASCII.
                *slot = u8::try_from(ch).unwrap_or(b'?');
                len += 1;
            }
            digits |= ch.is_ascii_digit();
            at = next;
        }
        true
    });
    if !ok {
        return None;
    }
    if at == At::Lead {
        return Some(0.0);
    }
    if !digits {
        return None;
    }
    core::str::from_utf8(core.get(..len)?).ok()?.parse().ok()
}

/// Whether `raw` is `-?[0-9]+(\.[0-9]+)?`: a JSON number without exponent
/// (leading zeros aside, which `parse` reads as the digits they are).
pub(super) fn plain_decimal(raw: &[u8]) -> bool {
    let digits = |p: &[u8]| !p.is_empty() && p.iter().all(u8::is_ascii_digit);
    let mut parts = raw.strip_prefix(b"-").unwrap_or(raw).split(|&b| b == b'.');
    parts.next().is_some_and(digits) && parts.next().is_none_or(digits) && parts.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Tokenizer;
    use std::format;
    use std::string::String;
    use std::vec::Vec;

    fn literal(json: &str) -> Option<f64> {
        let mut t = Tokenizer::new(json.as_bytes(), 4);
        match t.next_token().unwrap().unwrap().kind {
            TokenKind::String(s) => decimal_literal(&s),
            _ => panic!("not a string: {json}"),
        }
    }

    #[test]
    fn decimal_literals_with_whitespace_are_constants() {
        for (json, v) in [
            (r#""-12.5""#, -12.5),
            (r#""-1\n""#, -1.0),
            (r#""30  ""#, 30.0),
            (r#"" \t.5""#, 0.5),
            (r#""5.""#, 5.0),
            (r#""+2""#, 2.0),
            (r#""""#, 0.0),
            (r#""   ""#, 0.0),
            (r#""\u0031\u0032""#, 12.0),
        ] {
            assert_eq!(literal(json), Some(v), "{json}");
        }
    }

    #[test]
    fn plain_decimals_read_as_parse_reads_them() {
        // The fast path's shape, edge cases and a sweep of random values,
        // each against `parse` of the same text (bit for bit).
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "007",
            "-22.5",
            "0.1",
            "0.30000000000000004",
            "1.0000000000000002",
            "9007199254740992",
            "9007199254740993",
            "123456789012345678",
            "1234567890.123456789",
            "999999.9999999999999999",
        ]
        .map(String::from)
        .to_vec();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let int = x % 2_000_000;
            let frac_digits = (x >> 32) % 12;
            let frac = (x >> 20) % 10u64.pow(frac_digits as u32);
            let sign = if x & 1 == 0 { "-" } else { "" };
            texts.push(if frac_digits == 0 {
                format!("{sign}{int}")
            } else {
                format!("{sign}{int}.{frac:0w$}", w = frac_digits as usize)
            });
        }
        for text in texts {
            assert!(plain_decimal(text.as_bytes()), "{text}");
            let want: f64 = text.parse().unwrap();
            let got = literal(&format!("\"{text}\"")).unwrap();
            assert_eq!(got.to_bits(), want.to_bits(), "{text}");
        }
        for text in ["", "-", ".5", "5.", "+2", "1.2.3", "1e3", " 1", "1 ", "-.5"] {
            assert!(!plain_decimal(text.as_bytes()), "{text}");
        }
    }

    #[test]
    fn anything_else_is_molang() {
        for json in [
            r#""math.sin(q.anim_time)""#,
            r#""1 + 2""#,
            r#""1e3""#,
            r#""-""#,
            r#"".""#,
            r#""1.2.3""#,
            r#""NaN""#,
            r#""inf""#,
            r#""--1""#,
            r#""1 2""#,
        ] {
            assert_eq!(literal(json), None, "{json}");
        }
        let long = format!("\"{}\"", "1".repeat(MAX_LITERAL + 1));
        assert_eq!(literal(&long), None);
        let fits = format!("\"{}\"", "1".repeat(MAX_LITERAL));
        assert!(literal(&fits).is_some());
    }
}
