//! The plugin formats' per-keyframe easing: `easing` and `easingArgs`, as
//! the GeckoLib plugin (format `geckolib_model`) and the Animation Utils
//! plugin (`animated_entity_model`) read and play them. Both patch
//! `Keyframe.extend` to keep the two fields, and `Keyframe.getLerp` to ease
//! a linear segment by the later keyframe's easing, and both do so only in
//! their own format (`Format.id` checked; blockbench-plugins
//! `plugins/geckolib/src/ts/keyframe.ts`, `plugins/animation_utils/src/ts/keyframe.ts`).
//! Elsewhere the fields are not read.
//!
//! Reading never fails: what the plugins could not play is a warning and
//! plays without the easing (or with its default argument).

use crate::bbmodel::document::formats::ModelFormat;
use crate::bbmodel::document::value::{Cursor, Path, known_key};
use crate::error::Error;
use crate::json::{JsonStr, Token, TokenKind};
use crate::limits::MAX_ANIMATION_VALUE;
use crate::scene::Easing;

/// `easing` as the file gives it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) enum RawEasing<'a> {
    /// Absent, or a value `Merge.string` does not keep (`null`, `false`, 0):
    /// linear.
    #[default]
    Absent,
    /// A string (the empty one is linear, `other.easing || 'linear'`).
    Name(JsonStr<'a>),
    /// Any other value, which the plugin turns into a name no easing has.
    Other,
}

/// `easingArgs[0]` as the file gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) enum RawArg {
    /// No array, or an empty one: the plugin's default argument.
    #[default]
    Absent,
    /// A number.
    Number(f64),
    /// Anything else.
    Other,
}

/// Whether Blockbench, with the plugin that defines `format` installed,
/// plays per-keyframe easing.
pub(super) fn plays_easing(format: ModelFormat) -> bool {
    matches!(
        format,
        ModelFormat::GeckolibModel | ModelFormat::AnimatedEntityModel
    )
}

/// Reads `easing` (first token `v`).
pub(super) fn read_easing<'a>(c: &mut Cursor<'a>, v: &Token<'a>) -> Result<RawEasing<'a>, Error> {
    let read = match v.kind {
        TokenKind::String(s) => RawEasing::Name(s),
        TokenKind::Null | TokenKind::Bool(false) => RawEasing::Absent,
        // `Merge.string` keeps only truthy values and strings: 0 is none.
        TokenKind::Number(_) if c.number_of(v, &Path::key("easing")).ok() == Some(0.0) => {
            RawEasing::Absent
        }
        _ => RawEasing::Other,
    };
    c.skip_rest(v)?;
    Ok(read)
}

/// Reads a keyframe's `values` (first token `v`), GeckoLib's older form:
/// the plugins' `keyframeExtend` takes `easing` and `easingArgs` from it
/// whenever `typeof data.values === 'object'` and then ignores the
/// keyframe's own (`Merge.string(this, data.values, 'easing')` when
/// `values.easing !== undefined`; `easingArgs` when an array). It hands
/// Blockbench the unchanged keyframe, so `values.vector` is never read:
/// the value comes from the data points as always. `Some` for an object,
/// an array or `null` (typeof 'object'; on `null` the plugin throws, here
/// it plays without easing), `None` for anything else (the keyframe's own
/// fields apply).
pub(super) fn read_values_easing<'a>(
    c: &mut Cursor<'a>,
    v: &Token<'a>,
) -> Result<Option<(RawEasing<'a>, RawArg)>, Error> {
    let (mut easing, mut arg) = (RawEasing::Absent, RawArg::Absent);
    match v.kind {
        TokenKind::BeginObject => {
            while let Some(key) = c.next_key()? {
                let Some(k) = known_key(&key, &["easing", "easingArgs"]) else {
                    c.skip_value()?;
                    continue;
                };
                let value = c.next()?;
                if k == "easing" {
                    easing = read_easing(c, &value)?;
                } else {
                    arg = read_easing_args(c, &value)?;
                }
            }
            Ok(Some((easing, arg)))
        }
        TokenKind::BeginArray | TokenKind::Null => {
            c.skip_rest(v)?;
            Ok(Some((easing, arg)))
        }
        _ => {
            c.skip_rest(v)?;
            Ok(None)
        }
    }
}

/// Reads `easingArgs` (first token `v`): only its first entry matters.
pub(super) fn read_easing_args<'a>(c: &mut Cursor<'a>, v: &Token<'a>) -> Result<RawArg, Error> {
    if v.kind != TokenKind::BeginArray {
        c.skip_rest(v)?;
        return Ok(RawArg::Absent);
    }
    let first = c.next()?;
    let arg = match first.kind {
        TokenKind::EndArray => return Ok(RawArg::Absent),
        TokenKind::Number(_) => match c.number_of(&first, &Path::key("easingArgs")) {
            Ok(n) => RawArg::Number(n),
            Err(_) => RawArg::Other,
        },
        _ => RawArg::Other,
    };
    // The first entry, then the rest of the array (JSON-checked only).
    c.skip_rest(&first)?;
    c.skip_rest(v)?;
    Ok(arg)
}

/// The easing a keyframe plays and what it could not play as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Eased {
    pub(super) easing: Easing,
    pub(super) arg: f32,
    /// An easing no plugin function has (the plugin throws), or `step`
    /// with fewer than 2 steps (its `stepRange` throws): played linear.
    pub(super) unplayable: bool,
    /// A first argument that is no number within ±10⁶: the default plays.
    pub(super) bad_arg: bool,
}

/// The easing of a keyframe whose fields are `easing` and `arg`.
pub(super) fn eased(easing: &RawEasing<'_>, arg: RawArg) -> Eased {
    let linear = Eased::default();
    let name = match easing {
        RawEasing::Absent => return linear,
        RawEasing::Other => {
            return Eased {
                unplayable: true,
                ..linear
            };
        }
        RawEasing::Name(n) => n,
    };
    if name.decoded_len() == 0 {
        return linear;
    }
    let Some(&(kind, _)) = Easing::ALL.iter().find(|(_, n)| name.eq_str(n)) else {
        return Eased {
            unplayable: true,
            ..linear
        };
    };
    if !kind.takes_arg() {
        return Eased {
            easing: kind,
            ..linear
        };
    }
    let (value, bad_arg) = match arg {
        RawArg::Absent => (f64::from(kind.default_arg()), false),
        RawArg::Number(n) if n.is_finite() && n.abs() <= MAX_ANIMATION_VALUE => (n, false),
        _ => (f64::from(kind.default_arg()), true),
    };
    // stepRange throws below 2 steps.
    if kind == Easing::Step && value < 2.0 {
        return Eased {
            unplayable: true,
            bad_arg,
            ..linear
        };
    }
    #[allow(clippy::cast_possible_truncation)]
    let arg = value as f32;
    Eased {
        easing: kind,
        arg,
        unplayable: false,
        bad_arg,
    }
}

impl Default for Eased {
    /// No easing (the formats whose plugin plays none).
    fn default() -> Self {
        Self {
            easing: Easing::Linear,
            arg: 0.0,
            unplayable: false,
            bad_arg: false,
        }
    }
}
