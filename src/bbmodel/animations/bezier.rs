//! A keyframe's bezier handles (`bezier_left_time`, `bezier_left_value`,
//! `bezier_right_time`, `bezier_right_value`), read as Blockbench reads
//! them and stored in the scene's units.
//!
//! Blockbench keeps them on every keyframe (`Property(Keyframe, 'vector',
//! …)`, js/animations/keyframe.js) and plays them whenever a segment is
//! bezier, so a linear keyframe next to a bezier one lends its handle too.
//! A handle that is no array keeps the default (`Property.merge` copies
//! arrays only): times −0.1 / 0.1 s, values 0. An array is taken whole
//! (`Array.replace`): an entry past its end is `undefined`, which
//! `getBezierLerp` reads as a time of 0 (`|| 0`) and, for a value, as a
//! control point at 0 (`val + undefined || 0`), stored here as the offset
//! that reaches 0 from the keyframe's own value; `null` adds 0 either way.
//! `bezier_linked` only ties the handles together while editing, and is
//! not read.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "an entry index below 3, counted item by item"
)]

use crate::bbmodel::document::value::{Cursor, Path, invalid, type_name};
use crate::error::Error;
use crate::json::{Token, TokenKind};
use crate::limits::MAX_ANIMATION_VALUE;
use crate::scene::ChannelTarget;

/// The handle keys, in the order [`RawHandles`] holds them.
pub(super) const HANDLE_KEYS: [&str; 4] = [
    "bezier_left_time",
    "bezier_left_value",
    "bezier_right_time",
    "bezier_right_value",
];

const LEFT_TIME: usize = 0;
const LEFT_VALUE: usize = 1;
const RIGHT_TIME: usize = 2;
const RIGHT_VALUE: usize = 3;

/// Blockbench's defaults for the handle times (`bezier_left_time`
/// `[-0.1, -0.1, -0.1]`, `bezier_right_time` `[0.1, 0.1, 0.1]`).
const DEFAULT_TIME: f32 = 0.1;

/// One entry of a handle array.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) enum Entry {
    /// Past the array's end: JavaScript's `undefined`.
    #[default]
    Missing,
    /// A number (or `null`, which arithmetic reads as 0).
    Value(f64),
}

/// The four handles as the file gives them; `None` where it gives no array.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct RawHandles(pub(super) [Option<[Entry; 3]>; 4]);

/// The handles as a [`crate::scene::KeyframeRecord`] stores them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Handles {
    pub(super) left_time: [f32; 3],
    pub(super) left_value: [f32; 3],
    pub(super) right_time: [f32; 3],
    pub(super) right_value: [f32; 3],
}

/// Reads handle `key` (one of [`HANDLE_KEYS`]) whose first token is `v`:
/// an array's first three entries, each a number within ±10⁶ (the spec's
/// bound on animation values, as `keyframes::within` checks data points)
/// or `null`; later entries are JSON-checked
/// only. Anything but an array is passed over, as Blockbench ignores it.
pub(super) fn read_handle<'a>(
    c: &mut Cursor<'a>,
    v: &Token<'a>,
    at: &Path<'_>,
    raw: &mut RawHandles,
    key: &str,
) -> Result<(), Error> {
    let Some(slot) = HANDLE_KEYS.iter().position(|k| *k == key) else {
        return Ok(c.skip_rest(v)?);
    };
    if v.kind != TokenKind::BeginArray {
        c.skip_rest(v)?;
        if let Some(h) = raw.0.get_mut(slot) {
            // A later key replaces an earlier one, as JSON.parse keeps the last.
            *h = None;
        }
        return Ok(());
    }
    let mut entries = [Entry::Missing; 3];
    let mut i = 0usize;
    loop {
        let t = c.next()?;
        if t.kind == TokenKind::EndArray {
            break;
        }
        let Some(entry) = entries.get_mut(i) else {
            c.skip_rest(&t)?;
            i += 1;
            continue;
        };
        let path = at.with_index(i);
        *entry = match t.kind {
            TokenKind::Null => Entry::Value(0.0),
            TokenKind::Number(_) => {
                let n = c.number_of(&t, &path)?;
                if !n.is_finite() || n.abs() > MAX_ANIMATION_VALUE {
                    return Err(invalid(
                        &path,
                        "animation value out of range",
                        format_args!("within ±1000000, got {n}"),
                    ));
                }
                Entry::Value(n)
            }
            _ => {
                c.skip_rest(&t)?;
                return Err(invalid(
                    &path,
                    "wrong type",
                    format_args!("a number expected, got {}", type_name(&t)),
                ));
            }
        };
        i += 1;
    }
    if let Some(h) = raw.0.get_mut(slot) {
        *h = Some(entries);
    }
    Ok(())
}

impl RawHandles {
    /// The handles of a keyframe of `target` whose values are `pre` and
    /// `post` (the scene's units). `migrate` is a bezier keyframe of a file
    /// before format 5.0: Blockbench 5 negates its value handles as it
    /// negates the data points (x of rotation and position, y of rotation;
    /// js/formats/bbmodel.js, only when `bezier_left_value` is given).
    /// Rotation values go from degrees to radians; times are seconds.
    pub(super) fn played(
        &self,
        target: ChannelTarget,
        migrate: bool,
        pre: [f32; 3],
        post: [f32; 3],
    ) -> Handles {
        let given = |slot: usize| self.0.get(slot).copied().flatten();
        let migrate = migrate && given(LEFT_VALUE).is_some();
        let flipped = |axis: usize| {
            migrate
                && match target {
                    ChannelTarget::Rotation => axis < 2,
                    ChannelTarget::Translation => axis == 0,
                    ChannelTarget::Scale => false,
                }
        };
        let times = |slot: usize, default: f32| -> [f32; 3] {
            match given(slot) {
                None => [default; 3],
                Some(e) => e.map(|e| match e {
                    Entry::Missing => 0.0,
                    Entry::Value(v) => narrow(v),
                }),
            }
        };
        let values = |slot: usize, own: [f32; 3]| -> [f32; 3] {
            let Some(entries) = given(slot) else {
                return [0.0; 3];
            };
            let mut out = [0.0; 3];
            for (axis, (o, e)) in out.iter_mut().zip(entries).enumerate() {
                *o = match e {
                    // `val + undefined || 0`: the control point sits at 0.
                    Entry::Missing => -own.get(axis).copied().unwrap_or_default(),
                    Entry::Value(v) => {
                        let v = if flipped(axis) { -v } else { v };
                        match target {
                            ChannelTarget::Rotation => narrow(v.to_radians()),
                            _ => narrow(v),
                        }
                    }
                };
            }
            out
        };
        Handles {
            left_time: times(LEFT_TIME, -DEFAULT_TIME),
            left_value: values(LEFT_VALUE, pre),
            right_time: times(RIGHT_TIME, DEFAULT_TIME),
            right_value: values(RIGHT_VALUE, post),
        }
    }
}

/// An f64 the checks bounded (±10⁶) as the scene's f32.
#[allow(clippy::cast_possible_truncation)]
fn narrow(v: f64) -> f32 {
    v as f32
}
