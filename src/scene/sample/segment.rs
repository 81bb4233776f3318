//! Which keyframe shows, or which two a value lies between, at one time:
//! the cases of Blockbench's `BoneAnimator.interpolate`
//! (`js/animations/timeline_animators.js`) in its order, with its loop
//! wrapping (`Format.animation_loop_wrapping`, set by the Hytale plugin's
//! formats). Times compare exactly (spec convention 12).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "keyframe indices below the slice length; float arithmetic"
)]

use super::super::{Interpolation, KeyframeRecord};
use super::keyframes::{Resolve, between, interpolation, pair};

/// What a channel shows at one time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Segment {
    /// One keyframe's data point: `post` (its last) or `pre` (its first).
    Key { index: usize, post: bool },
    /// Between `before` and `after`, `alpha` of the way; `times` are the
    /// two keyframes' times as the segment has them (a wrapped one's
    /// shifted by the clip's length).
    Between {
        before: usize,
        after: usize,
        alpha: f32,
        times: (f32, f32),
    },
    /// No keyframes.
    Empty,
}

/// The segment of `keys` (sorted by time, stably) at clip time `t`.
/// `wrap` is the clip's length when it loops and its format wraps loops.
///
/// Blockbench's `interpolate`: with wrapping and two or more keyframes, a
/// missing *before* is the latest keyframe at its time minus the length
/// and a missing *after* the earliest at its time plus the length. Then,
/// in order: *before* at `t` shows, *after* at `t` shows, a step *before*
/// shows, a lone one shows, else the two with `alpha`. A keyframe shows its
/// first data point when its own time is at or after `t`, else its last
/// (`dp_index`): so a wrapped *before* shows its `pre`.
pub(super) fn segment(keys: &[KeyframeRecord], t: f32, wrap: Option<f32>) -> Segment {
    let (mut before, mut after) = pair(keys, t);
    let time = |i: Option<usize>| i.and_then(|i| keys.get(i)).map(|k| k.time);
    let (mut before_time, mut after_time) = (time(before), time(after));
    if let Some(length) = wrap.filter(|l| *l > 0.0 && keys.len() >= 2) {
        if before.is_none()
            && let Some(last) = keys.last()
        {
            // `findHighest(kf => kf.time)`: the first keyframe of the latest time.
            before = Some(keys.partition_point(|k| k.time < last.time));
            before_time = Some(last.time - length);
        }
        if after.is_none()
            && let Some(first) = keys.first()
        {
            after = Some(0);
            after_time = Some(first.time + length);
        }
    }
    let show = |index: usize| Segment::Key {
        index,
        post: keys.get(index).is_some_and(|k| k.time < t),
    };
    let step = |i: usize| keys.get(i).map(interpolation) == Some(Interpolation::Step);
    match (before.zip(before_time), after.zip(after_time)) {
        (Some((b, bt)), _) if bt == t => show(b),
        (_, Some((a, at))) if at == t => show(a),
        (Some((b, _)), _) if step(b) => show(b),
        (Some((b, _)), None) => show(b),
        (None, Some((a, _))) => show(a),
        (None, None) => Segment::Empty,
        (Some((b, bt)), Some((a, at))) => Segment::Between {
            before: b,
            after: a,
            // Math.getLerp; t lies strictly between the two times.
            alpha: (t - bt) / (at - bt),
            times: (bt, at),
        },
    }
}

/// A translation, scale or Euler rotation channel's value in a clip that
/// wraps its loop: [`segment`] with `length`, then the value as
/// `keyframes::value_at` gives it between two keyframes (`between`: the
/// segment kind, catmull-rom neighbours by position as Blockbench's sorted
/// copy has them, so a wrapped pair of the last and the first keyframe
/// takes the second-to-last and the second; bezier on the shifted times).
pub(super) fn wrapped_value(
    keys: &[KeyframeRecord],
    t: f32,
    length: f32,
    resolve: Resolve<'_>,
) -> Option<[f32; 3]> {
    match segment(keys, t, Some(length)) {
        Segment::Empty => None,
        Segment::Key { index, post } => {
            let k = resolve(index, keys.get(index)?);
            Some(if post { k.post } else { k.pre })
        }
        Segment::Between {
            before,
            after,
            alpha,
            times,
        } => between(keys, (before, after), alpha, times, t, true, resolve),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINEAR: u32 = Interpolation::Linear as u32;
    const STEP: u32 = Interpolation::Step as u32;

    fn kf(time: f32, interpolation: u32, pre: f32, post: f32) -> KeyframeRecord {
        KeyframeRecord {
            time,
            interpolation,
            pre: [pre, 0.0, 0.0],
            post: [post, 0.0, 0.0],
            data_points: if pre == post { 1 } else { 2 },
            ..KeyframeRecord::default()
        }
    }

    fn x(keys: &[KeyframeRecord], t: f32) -> f32 {
        wrapped_value(keys, t, 1.0, &|_, k| *k).unwrap()[0]
    }

    #[test]
    fn loop_wrapping_interpolates_across_the_loops_end() {
        // interpolate with Format.animation_loop_wrapping: 0 at 0.25 s, 10 at
        // 0.75 s, length 1. At 0.1 s before is the 0.75 s keyframe at −0.25:
        // alpha (0.1 + 0.25) / 0.5 = 0.7, 10 + (0 − 10)·0.7 = 3. At 0.9 s after
        // is the 0.25 s keyframe at 1.25: alpha 0.15 / 0.5 = 0.3, 10 − 3 = 7.
        let keys = [kf(0.25, LINEAR, 0.0, 0.0), kf(0.75, LINEAR, 10.0, 10.0)];
        assert!((x(&keys, 0.1) - 3.0).abs() < 1e-5);
        assert!((x(&keys, 0.9) - 7.0).abs() < 1e-5);
        // Inside the keyframes nothing changes: 0.5 s is 5.
        assert!((x(&keys, 0.5) - 5.0).abs() < 1e-5);
        // Without wrapping the ends hold: segment gives the lone keyframes.
        assert_eq!(
            segment(&keys, 0.1, None),
            Segment::Key {
                index: 0,
                post: false
            }
        );
        // One keyframe, or no length, does not wrap (`length >= 2`).
        assert_eq!(x(&keys[..1], 0.9), 0.0);
        assert_eq!(
            segment(&keys, 0.1, Some(0.0)),
            Segment::Key {
                index: 0,
                post: false
            }
        );
    }

    /// `interpolate` picks the segment kind for a wrapped pair as for any
    /// other (`getBezierLerp` on the shifted times, the plugin's easing on
    /// a linear one), so a bezier or eased keyframe across the loop's end
    /// plays as it would inside the clip.
    #[test]
    fn a_wrapped_segment_plays_bezier_and_easing_like_an_inner_one() {
        let bezier = Interpolation::Bezier as u32;
        // Handles a third of the way along the line: the curve is the line.
        let handled = |time: f32, value: f32| KeyframeRecord {
            bezier_left_time: [-0.5 / 3.0; 3],
            bezier_left_value: [-10.0 / 3.0, 0.0, 0.0],
            bezier_right_time: [0.5 / 3.0; 3],
            bezier_right_value: [10.0 / 3.0, 0.0, 0.0],
            ..kf(time, bezier, value, value)
        };
        // 10 at 0.75 s to 20 at 1.25 s (0.25 s + the length): at 0.1 s,
        // 0.35 s into the 0.5 s segment, the line gives 10 + 10·0.7 = 17.
        let keys = [handled(0.25, 20.0), handled(0.75, 10.0)];
        assert!((x(&keys, 0.1) - 17.0).abs() < 1e-3, "{}", x(&keys, 0.1));
        // Default handles (±0.1 s, value 0) ease in and out: not the line.
        let soft = [kf(0.25, bezier, 20.0, 20.0), kf(0.75, bezier, 10.0, 10.0)];
        let soft = soft.map(|k| KeyframeRecord {
            bezier_left_time: [-0.1; 3],
            bezier_right_time: [0.1; 3],
            ..k
        });
        assert!((x(&soft, 0.1) - 17.0).abs() > 0.1);
        // easeInQuad on the later keyframe: alpha 0.7 eases to 0.49.
        let eased = KeyframeRecord {
            easing: crate::scene::Easing::InQuad as u32,
            ..kf(0.25, LINEAR, 20.0, 20.0)
        };
        let keys = [eased, kf(0.75, LINEAR, 10.0, 10.0)];
        assert!((x(&keys, 0.1) - 14.9).abs() < 1e-4, "{}", x(&keys, 0.1));
    }

    #[test]
    fn a_wrapped_before_shows_its_first_data_point() {
        // dp_index is 0 when the keyframe's own time is at or after t: a step
        // keyframe at 0.75 s (pre 4, post 6) wrapped in as before at 0.1 s
        // shows 4, where at 0.9 s, its ordinary before, it shows 6.
        let keys = [kf(0.25, LINEAR, 0.0, 0.0), kf(0.75, STEP, 4.0, 6.0)];
        assert_eq!(x(&keys, 0.1), 4.0);
        assert_eq!(x(&keys, 0.9), 6.0);
        // At 0 s with a keyframe at the length: before (the last, at
        // 1 − 1 = 0) is checked first and shows, even over one at 0 s.
        let keys = [kf(0.0, LINEAR, 1.0, 1.0), kf(1.0, LINEAR, 2.0, 3.0)];
        assert_eq!(x(&keys, 0.0), 2.0);
    }
}
