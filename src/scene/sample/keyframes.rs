//! One channel's value at one time: Blockbench's `BoneAnimator.interpolate`
//! (the keyframe pair, which data point shows, step, linear, catmull-rom,
//! bezier) with times compared exactly (spec convention 12), and the plugin
//! formats' easing of linear segments.
//!
//! The pair: `before` is the keyframe with the latest time below `t`,
//! `after` the one with the earliest time at or above `t`; among keyframes
//! sharing a time, the first in file order is taken for either role (the
//! channel's keyframes are sorted stably, so that is the first in the slice).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "matrix and channel indices are loop counters below 16, and keyframe positions below the point count"
)]

use super::super::{Easing, Interpolation, KeyframeRecord};
use super::{bezier, easing};

/// The value of a channel whose keyframes are `keys` (sorted by time) at
/// time `t` (seconds, clip time), or `None` when it has no keyframes.
/// `looping` is a clip in loop mode (catmull-rom neighbours wrap).
#[cfg(test)]
pub(super) fn value_at(keys: &[KeyframeRecord], t: f32, looping: bool) -> Option<[f32; 3]> {
    value_at_with(keys, t, looping, &|_, k| *k)
}

/// Gives a keyframe its values at this sample: `resolve(index, record)`
/// evaluates a Molang keyframe (`molang.rs`), as Blockbench evaluates every
/// keyframe value it reads (`Keyframe.calc`); others come back as they are.
pub(super) type Resolve<'r> = &'r dyn Fn(usize, &KeyframeRecord) -> KeyframeRecord;

/// [`value_at`] with each keyframe read taken through `resolve`.
pub(super) fn value_at_with(
    keys: &[KeyframeRecord],
    t: f32,
    looping: bool,
    resolve: Resolve<'_>,
) -> Option<[f32; 3]> {
    let (before, after) = pair(keys, t);
    let keyed = |i: Option<usize>| i.and_then(|i| Some((i, resolve(i, keys.get(i)?))));
    match (keyed(before), keyed(after)) {
        // Exactly at a keyframe: the first one at that time, arriving (pre).
        (_, Some((_, a))) if a.time == t => Some(a.pre),
        (Some((_, b)), _) if interpolation(&b) == Interpolation::Step => Some(b.post),
        (Some((_, b)), None) => Some(b.post),
        (None, Some((_, a))) => Some(a.pre),
        (None, None) => None,
        (Some((bi, b)), Some((ai, a))) => {
            // Blockbench's Math.getLerp; a.time > t > b.time, so the span is positive.
            let alpha = (t - b.time) / (a.time - b.time);
            between(keys, (bi, ai), alpha, (b.time, a.time), t, looping, resolve)
        }
    }
}

/// The value between keyframes `pair` (before, after) of `keys`, `alpha`
/// of the way, at clip time `t`; `times` are the two keyframes' times as
/// the segment has them (shifted by the clip's length when a loop wraps);
/// every keyframe read goes through `resolve`. `None` for a segment
/// Blockbench gives no value ([`Interpolation::Unknown`]).
pub(super) fn between(
    keys: &[KeyframeRecord],
    (bi, ai): (usize, usize),
    alpha: f32,
    times: (f32, f32),
    t: f32,
    looping: bool,
    resolve: Resolve<'_>,
) -> Option<[f32; 3]> {
    let (Some(b), Some(a)) = (keys.get(bi), keys.get(ai)) else {
        return Some([0.0; 3]);
    };
    let (b, a) = (resolve(bi, b), resolve(ai, a));
    match segment(&b, &a) {
        Interpolation::CatmullRom => Some(catmull_rom(keys, (bi, ai), alpha, looping, resolve)),
        Interpolation::Bezier => Some(bezier::value(&b, &a, times, t)),
        Interpolation::Unknown => None,
        // Keyframe.getLerp: from before's post to after's pre, at
        // the alpha after's easing gives (plugin formats).
        Interpolation::Linear | Interpolation::Step => Some(lerp(b.post, a.pre, eased(&a, alpha))),
    }
}

/// How the segment from `b` to `a` plays, in the order
/// `BoneAnimator.interpolate` decides it (a step `b` was taken before):
/// linear when `b` is linear and `a` linear or step; else catmull-rom when
/// either is; else bezier when either is; else none of its branches
/// matches (an unknown end: [`Interpolation::Unknown`], no value).
fn segment(b: &KeyframeRecord, a: &KeyframeRecord) -> Interpolation {
    let (before, after) = (interpolation(b), interpolation(a));
    let either = |i: Interpolation| before == i || after == i;
    if before == Interpolation::Linear
        && matches!(after, Interpolation::Linear | Interpolation::Step)
    {
        Interpolation::Linear
    } else if either(Interpolation::CatmullRom) {
        Interpolation::CatmullRom
    } else if either(Interpolation::Bezier) {
        Interpolation::Bezier
    } else {
        Interpolation::Unknown
    }
}

/// The alpha of a linear segment arriving at `a`, through `a`'s easing:
/// the GeckoLib and Animation Utils plugins replace `Keyframe.getLerp` with
/// one that eases `amount` by the later keyframe's `easing` (`other.easing`).
/// Linear (the only easing outside those formats) leaves alpha as it is.
fn eased(a: &KeyframeRecord, alpha: f32) -> f32 {
    match Easing::from_u32(a.easing) {
        Easing::Linear => alpha,
        e => {
            #[allow(clippy::cast_possible_truncation)]
            let v = easing::ease(e, f64::from(a.easing_arg), f64::from(alpha)) as f32;
            v
        }
    }
}

/// Indices of `before` and `after` for time `t` (see the module doc).
///
/// Binary searches over the sorted keyframes give what Blockbench's linear
/// scan gives (`pair_matches_blockbench_scan` checks it), in log time.
pub(super) fn pair(keys: &[KeyframeRecord], t: f32) -> (Option<usize>, Option<usize>) {
    // First keyframe at or after t: the earliest time ≥ t, first of its time.
    let split = keys.partition_point(|k| k.time < t);
    let after = (split < keys.len()).then_some(split);
    let before = split.checked_sub(1).and_then(|last| {
        let latest = keys.get(last)?.time;
        Some(keys.partition_point(|k| k.time < latest))
    });
    (before, after)
}

/// The keyframe's interpolation; a value past the enum's (a record built
/// by hand) plays linear.
pub(super) fn interpolation(k: &KeyframeRecord) -> Interpolation {
    match k.interpolation {
        1 => Interpolation::CatmullRom,
        2 => Interpolation::Step,
        3 => Interpolation::Bezier,
        4 => Interpolation::Unknown,
        _ => Interpolation::Linear,
    }
}

/// `a + (b − a) · alpha` per axis (Keyframe.getLerp's arithmetic).
pub(super) fn lerp(a: [f32; 3], b: [f32; 3], alpha: f32) -> [f32; 3] {
    [
        a[0] + (b[0] - a[0]) * alpha,
        a[1] + (b[1] - a[1]) * alpha,
        a[2] + (b[2] - a[2]) * alpha,
    ]
}

/// True when the keyframe has a single data point
/// ([`KeyframeRecord::data_points`]; 0 is decided by `post == pre`).
fn single(k: &KeyframeRecord) -> bool {
    match k.data_points {
        0 => k.pre == k.post,
        n => n < 2,
    }
}

/// Blockbench's catmull-rom between `keys[before]` and `keys[after]`
/// (`getCatmullromLerp` on three.js's `SplineCurve`), at `alpha` in (0, 1).
///
/// Neighbours are taken by position in the sorted list, as Blockbench does:
/// `before − 1` and `before + 2` (so with two keyframes at `after`'s time
/// the second is the outer neighbour); in a looping clip of three or more
/// keyframes a missing one wraps to the second-to-last and the second. A
/// neighbour joins the curve only when the keyframe next to it has one data
/// point, but the curve position counts `before − 1` whenever it exists
/// (Blockbench's `(alpha + (before_plus ? 1 : 0)) / (points − 1)`).
pub(super) fn catmull_rom(
    keys: &[KeyframeRecord],
    (before, after): (usize, usize),
    alpha: f32,
    looping: bool,
    resolve: Resolve<'_>,
) -> [f32; 3] {
    let wrap = looping && keys.len() >= 3;
    let get = |i: usize| keys.get(i).map(|k| resolve(i, k));
    let outer_before = before
        .checked_sub(1)
        .or_else(|| wrap.then(|| keys.len().saturating_sub(2)))
        .and_then(get);
    let outer_after = get(before.saturating_add(2)).or_else(|| get(1).filter(|_| wrap));
    let (Some(b), Some(a)) = (get(before), get(after)) else {
        return [0.0; 3];
    };
    let mut points = [[0.0f32; 3]; 4];
    let mut n = 0;
    let mut push = |p: [f32; 3]| {
        if let Some(slot) = points.get_mut(n) {
            *slot = p;
            n += 1;
        }
    };
    if let Some(bp) = outer_before.filter(|_| single(&b)) {
        push(bp.post);
    }
    push(b.post);
    push(a.pre);
    if let Some(ap) = outer_after.filter(|_| single(&a)) {
        push(ap.pre);
    }
    let offset = if outer_before.is_some() { 1.0 } else { 0.0 };
    spline_point(points.get(..n).unwrap_or_default(), alpha + offset)
}

/// three.js `SplineCurve.getPoint` at curve position `p` (in segments from
/// the first point), its uniform catmull-rom with the end points repeated.
fn spline_point(points: &[[f32; 3]], p: f32) -> [f32; 3] {
    let Some(last) = points.len().checked_sub(1) else {
        return [0.0; 3];
    };
    let floor = libm::floorf(p).max(0.0);
    // p < 4 here; clamped so a rounding alpha of 1 cannot index past the end.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let i = (floor as usize).min(last);
    #[allow(clippy::cast_precision_loss)]
    let weight = p - i as f32;
    let at = |k: usize| points.get(k.min(last)).copied().unwrap_or_default();
    let p0 = at(i.saturating_sub(1));
    let p1 = at(i);
    let p2 = at(i + 1);
    let p3 = at(i + 2);
    let mut out = [0.0; 3];
    let axes = p0.into_iter().zip(p1).zip(p2).zip(p3);
    for (value, (((a, b), c), d)) in out.iter_mut().zip(axes) {
        *value = catmull_rom_1d(weight, a, b, c, d);
    }
    out
}

/// three.js `CatmullRom`: the uniform segment from `p1` to `p2`.
fn catmull_rom_1d(t: f32, p0: f32, p1: f32, p2: f32, p3: f32) -> f32 {
    let v0 = (p2 - p0) * 0.5;
    let v1 = (p3 - p1) * 0.5;
    let t2 = t * t;
    let t3 = t * t2;
    (2.0 * p1 - 2.0 * p2 + v0 + v1) * t3 + (-3.0 * p1 + 3.0 * p2 - 2.0 * v0 - v1) * t2 + v0 * t + p1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::XorShift;

    const LINEAR: u32 = Interpolation::Linear as u32;
    const CATMULL: u32 = Interpolation::CatmullRom as u32;
    const STEP: u32 = Interpolation::Step as u32;

    /// A keyframe whose x is `pre` arriving and `post` leaving (y, z zero).
    fn kf(time: f32, interpolation: u32, pre: f32, post: f32) -> KeyframeRecord {
        KeyframeRecord {
            time,
            interpolation,
            pre: [pre, 0.0, 0.0],
            post: [post, 0.0, 0.0],
            data_points: 2,
            ..KeyframeRecord::default()
        }
    }

    /// One data point.
    fn one(time: f32, interpolation: u32, value: f32) -> KeyframeRecord {
        KeyframeRecord {
            data_points: 1,
            ..kf(time, interpolation, value, value)
        }
    }

    fn x(keys: &[KeyframeRecord], t: f32, looping: bool) -> f32 {
        value_at(keys, t, looping).unwrap()[0]
    }

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-5
    }

    #[test]
    fn convention_12_linear_midpoint() {
        // 0 at 0 s, 10 at 2 s: t = 0.5 is alpha 0.25, 0 + 10 · 0.25 = 2.5.
        let keys = [one(0.0, LINEAR, 0.0), one(2.0, LINEAR, 10.0)];
        assert!(close(x(&keys, 0.5, false), 2.5));
        // Every axis interpolates alike.
        let mut keys = keys;
        keys[1].pre = [10.0, -4.0, 2.0];
        assert_eq!(value_at(&keys, 1.0, false), Some([5.0, -2.0, 1.0]));
    }

    #[test]
    fn convention_12_linear_runs_from_before_post_to_after_pre() {
        // Before leaves at 4 (post), after arrives at 10 (pre): at alpha 0.5,
        // 4 + (10 − 4) · 0.5 = 7; neither 0 nor 20 takes part.
        let keys = [kf(0.0, LINEAR, 0.0, 4.0), kf(2.0, LINEAR, 10.0, 20.0)];
        assert!(close(x(&keys, 1.0, false), 7.0));
    }

    #[test]
    fn convention_12_step_holds_before_post_until_the_next_keyframe() {
        let keys = [kf(0.0, STEP, 1.0, 3.0), one(2.0, LINEAR, 10.0)];
        assert_eq!(x(&keys, 0.001, false), 3.0);
        assert_eq!(x(&keys, 1.999, false), 3.0);
        // At the next keyframe's time its own value shows.
        assert_eq!(x(&keys, 2.0, false), 10.0);
        // A step keyframe after a linear one does not step the segment before
        // it (Blockbench: linear when after is linear or step): 0 + 8 · 0.5.
        let keys = [one(0.0, LINEAR, 0.0), one(2.0, STEP, 8.0)];
        assert!(close(x(&keys, 1.0, false), 4.0));
    }

    #[test]
    fn convention_12_at_a_keyframe_time_its_pre_shows_and_post_leaves() {
        let keys = [
            one(0.0, LINEAR, 0.0),
            kf(1.0, LINEAR, 5.0, 7.0),
            one(2.0, LINEAR, 9.0),
        ];
        // Exactly at 1 s: the pre data point (5), not the post (7).
        assert_eq!(x(&keys, 1.0, false), 5.0);
        // Just past it the segment leaves from post: 7 + (9 − 7) · 0.5 = 8.
        assert!(close(x(&keys, 1.5, false), 8.0));
        // Just before it the segment arrives at pre: 0 + 5 · 0.5 = 2.5.
        assert!(close(x(&keys, 0.5, false), 2.5));
        // Times compare exactly: 1 s minus one ulp is not the keyframe.
        let below = f32::from_bits(1.0f32.to_bits() - 1);
        assert!(x(&keys, below, false) < 5.0);
    }

    #[test]
    fn convention_12_a_lone_before_shows_post_a_lone_after_shows_pre() {
        let keys = [kf(1.0, LINEAR, 2.0, 3.0)];
        assert_eq!(x(&keys, 0.5, false), 2.0, "only after: its pre");
        assert_eq!(x(&keys, 1.0, false), 2.0, "at it: its pre");
        assert_eq!(x(&keys, 5.0, false), 3.0, "only before: its post");
        assert_eq!(value_at(&[], 1.0, false), None, "no keyframes: rest");
    }

    #[test]
    fn convention_12_of_two_keyframes_at_one_time_the_first_in_file_order_wins() {
        // A and B at 1 s (file order A, B), C at 3 s. Blockbench's scan
        // replaces before/after only on a strictly later/earlier time, so A
        // takes either role and B never shows.
        let keys = [
            kf(1.0, LINEAR, 1.0, 1.5),
            kf(1.0, LINEAR, 2.0, 2.5),
            one(3.0, LINEAR, 5.0),
        ];
        assert_eq!(x(&keys, 0.5, false), 1.0, "lone after A: A.pre");
        assert_eq!(x(&keys, 1.0, false), 1.0, "at 1 s: A.pre");
        // Past 1 s: from A.post 1.5 to C.pre 5 at alpha 0.5: 1.5 + 3.5 · 0.5.
        assert!(close(x(&keys, 2.0, false), 3.25));
        // As after: 0 at 0 s, then B and C share 2 s: B (first) is after.
        let keys = [
            one(0.0, LINEAR, 0.0),
            one(2.0, LINEAR, 4.0),
            one(2.0, LINEAR, 8.0),
        ];
        // 0 + 4 · 0.5 = 2, towards B's 4, not C's 8.
        assert!(close(x(&keys, 1.0, false), 2.0));
        assert_eq!(x(&keys, 3.0, false), 4.0, "lone before B: B.post");
    }

    #[test]
    fn convention_12_of_three_keyframes_at_one_time_the_first_wins() {
        let keys = [
            one(1.0, LINEAR, 1.0),
            one(1.0, LINEAR, 2.0),
            one(1.0, LINEAR, 3.0),
        ];
        for t in [0.0, 1.0, 2.0] {
            assert_eq!(x(&keys, t, false), 1.0, "t = {t}");
        }
    }

    #[test]
    fn convention_12_catmull_rom_with_both_neighbours() {
        // 0, 1, 3, 9 at 0, 1, 2, 3 s; t = 1.5 is alpha 0.5 between 1 and 3.
        // three.js CatmullRom(0.5; p0 0, p1 1, p2 3, p3 9):
        // v0 = (3 − 0)/2 = 1.5, v1 = (9 − 1)/2 = 4;
        // (2 − 6 + 1.5 + 4)·0.125 + (−3 + 9 − 3 − 4)·0.25 + 1.5·0.5 + 1
        // = 0.1875 − 0.25 + 0.75 + 1 = 1.6875.
        let keys = [
            one(0.0, CATMULL, 0.0),
            one(1.0, CATMULL, 1.0),
            one(2.0, CATMULL, 3.0),
            one(3.0, CATMULL, 9.0),
        ];
        assert!(close(x(&keys, 1.5, false), 1.6875));
        // One catmull-rom end is enough: before linear, after catmull-rom.
        let mut mixed = keys;
        mixed[1].interpolation = LINEAR;
        assert!(close(x(&mixed, 1.5, false), 1.6875));
    }

    #[test]
    fn convention_12_catmull_rom_ends_repeat_the_end_point() {
        let keys = [
            one(0.0, CATMULL, 0.0),
            one(1.0, CATMULL, 2.0),
            one(2.0, CATMULL, 8.0),
        ];
        // First segment, no outer before: points 0, 2, 8 at curve position
        // 0.5: p0 = p1 = 0, p2 = 2, p3 = 8; v0 = 1, v1 = 4;
        // (0 − 4 + 1 + 4)·0.125 + (0 + 6 − 2 − 4)·0.25 + 1·0.5 + 0 = 0.625.
        assert!(close(x(&keys, 0.5, false), 0.625));
        // Last segment, no outer after: points 0, 2, 8 at position 1.5:
        // p0 0, p1 2, p2 = p3 = 8; v0 = 4, v1 = 3;
        // (4 − 16 + 4 + 3)·0.125 + (−6 + 24 − 8 − 3)·0.25 + 4·0.5 + 2
        // = −0.625 + 1.75 + 2 + 2 = 5.125.
        assert!(close(x(&keys, 1.5, false), 5.125));
    }

    #[test]
    fn convention_12_catmull_rom_neighbours_wrap_in_a_loop_of_three_or_more() {
        let keys = [
            one(0.0, CATMULL, 0.0),
            one(1.0, CATMULL, 2.0),
            one(2.0, CATMULL, 8.0),
        ];
        // Looping, first segment: the outer before wraps to the
        // second-to-last (2): points 2, 0, 2, 8 at position 1.5:
        // v0 = (2 − 2)/2 = 0, v1 = (8 − 0)/2 = 4;
        // (0 − 4 + 0 + 4)·0.125 + (0 + 6 − 0 − 4)·0.25 + 0 + 0 = 0.5.
        assert!(close(x(&keys, 0.5, true), 0.5));
        // Last segment: the outer after wraps to the second (2): points
        // 0, 2, 8, 2 at 1.5: v0 = 4, v1 = 0;
        // (4 − 16 + 4 + 0)·0.125 + (−6 + 24 − 8 − 0)·0.25 + 4·0.5 + 2 = 5.5.
        assert!(close(x(&keys, 1.5, true), 5.5));
        // Two keyframes do not wrap: the same as not looping.
        let two = [one(0.0, CATMULL, 0.0), one(1.0, CATMULL, 4.0)];
        assert_eq!(x(&two, 0.25, true), x(&two, 0.25, false));
    }

    #[test]
    fn convention_12_catmull_rom_counts_the_outer_before_even_when_a_two_point_keyframe_drops_it() {
        // Before (1 s) has two data points, so its outer neighbour is not a
        // curve point, yet the position still adds 1 (Blockbench's
        // getCatmullromLerp): points 4 (before.post), 8, 10 at position 1.5
        // evaluate the segment 8 → 10: p0 4, p1 8, p2 = p3 = 10;
        // v0 = 3, v1 = 1; (16 − 20 + 3 + 1)·0.125 + (−24 + 30 − 6 − 1)·0.25
        // + 3·0.5 + 8 = 0 − 0.25 + 1.5 + 8 = 9.25.
        let keys = [
            one(0.0, CATMULL, 0.0),
            kf(1.0, CATMULL, 2.0, 4.0),
            one(2.0, CATMULL, 8.0),
            one(3.0, CATMULL, 10.0),
        ];
        assert!(close(x(&keys, 1.5, false), 9.25));
    }

    #[test]
    fn convention_12_catmull_rom_outer_after_is_before_plus_two_even_at_a_shared_time() {
        // P 0 s, A and B 1 s, C 2 s. Between P and A the outer after is
        // sorted[before + 2] = B (5), not C: points 0, 1, 5 at position 0.5:
        // p0 = p1 = 0, p2 = 1, p3 = 5; v0 = 0.5, v1 = 2.5;
        // (0 − 2 + 0.5 + 2.5)·0.125 + (0 + 3 − 1 − 2.5)·0.25 + 0.5·0.5 = 0.25.
        let keys = [
            one(0.0, CATMULL, 0.0),
            one(1.0, CATMULL, 1.0),
            one(1.0, CATMULL, 5.0),
            one(2.0, CATMULL, 3.0),
        ];
        assert!(close(x(&keys, 0.5, false), 0.25));
    }

    const BEZIER: u32 = Interpolation::Bezier as u32;
    const UNKNOWN: u32 = Interpolation::Unknown as u32;

    #[test]
    fn an_unknown_end_gives_no_value_unless_the_other_end_is_catmull_rom_or_bezier() {
        // BoneAnimator.interpolate, between two keyframes: the linear
        // branch needs before linear and after linear or step; then
        // catmull-rom when either is, bezier when either is; no other
        // branch returns, so it returns `false` and displayRotation,
        // displayPosition and displayScale (`if (!arr)`) leave the bone.
        for (b, a) in [
            (UNKNOWN, LINEAR),
            (LINEAR, UNKNOWN),
            (UNKNOWN, STEP),
            (UNKNOWN, UNKNOWN),
        ] {
            let keys = [one(0.0, b, 2.0), one(1.0, a, 4.0)];
            assert_eq!(value_at(&keys, 0.5, false), None, "{b} → {a}");
            // A keyframe at the time, or alone, still shows (`result`).
            assert_eq!((x(&keys, 0.0, false), x(&keys, 1.0, false)), (2.0, 4.0));
            assert_eq!(x(&keys, 1.5, false), 4.0);
        }
        // A step before holds whatever comes after (checked first).
        let keys = [one(0.0, STEP, 2.0), one(1.0, UNKNOWN, 4.0)];
        assert_eq!(x(&keys, 0.5, false), 2.0);
        // Catmull-rom or bezier at the other end: that curve, the unknown
        // end playing as any other keyframe does in it.
        for other in [CATMULL, BEZIER] {
            for (b, a) in [(UNKNOWN, other), (other, UNKNOWN)] {
                let known = |i| if i == UNKNOWN { LINEAR } else { i };
                let keys = [one(0.0, b, 2.0), one(1.0, a, 4.0)];
                let same = [one(0.0, known(b), 2.0), one(1.0, known(a), 4.0)];
                let (got, want) = (x(&keys, 0.3, false), x(&same, 0.3, false));
                assert!(close(got, want), "{b} → {a}: {got} vs {want}");
                assert!(got > 2.0 && got < 4.0);
            }
        }
        // A loop that wraps across an unknown keyframe: no value there.
        let keys = [one(0.0, LINEAR, 2.0), one(1.0, UNKNOWN, 4.0)];
        let wrapped = super::super::segment::wrapped_value(&keys, 1.5, 2.0, &|_, k| *k);
        assert_eq!(wrapped, None);
    }

    /// One data point with bezier handles on x: `right` leaving (time,
    /// value) and `left` arriving.
    fn handled(
        time: f32,
        interpolation: u32,
        value: f32,
        left: (f32, f32),
        right: (f32, f32),
    ) -> KeyframeRecord {
        KeyframeRecord {
            bezier_left_time: [left.0; 3],
            bezier_left_value: [left.1, 0.0, 0.0],
            bezier_right_time: [right.0; 3],
            bezier_right_value: [right.1, 0.0, 0.0],
            ..one(time, interpolation, value)
        }
    }

    /// Keyframe.getBezierLerp: a curve whose handles sit a third of the way
    /// along the straight line is that line (the Bernstein polynomials
    /// reproduce it), so x(s) = 3s and y(s) = 9s at every sample and the
    /// interpolation between the nearest two stays on it: value = 3t.
    #[test]
    fn bezier_with_handles_on_the_line_is_the_line() {
        let keys = [
            handled(0.0, BEZIER, 0.0, (-1.0, -3.0), (1.0, 3.0)),
            handled(3.0, BEZIER, 9.0, (-1.0, -3.0), (1.0, 3.0)),
        ];
        for t in [0.5, 1.25, 2.2, 2.99] {
            assert!((x(&keys, t, false) - 3.0 * t).abs() < 1e-5, "t = {t}");
        }
    }

    /// getBezierLerp with Blockbench's default handles (±0.1 s, value 0)
    /// from 0 to 10 over 1 s: the curve is symmetric about its middle; the
    /// sample at s = 0.5 has x = 0.375·0.1 + 0.375·0.9 + 0.125·1 = 0.5 and
    /// y = 0.375·10 + 0.125·10 = 5, so t = 0.5 reads exactly 5. Near the
    /// ends the curve leaves flat (below linear after 0, above it before 1).
    #[test]
    fn bezier_default_handles_ease_in_and_out() {
        let keys = [
            handled(0.0, BEZIER, 0.0, (-0.1, 0.0), (0.1, 0.0)),
            handled(1.0, BEZIER, 10.0, (-0.1, 0.0), (0.1, 0.0)),
        ];
        assert_eq!(x(&keys, 0.5, false), 5.0);
        assert!(x(&keys, 0.1, false) < 1.0);
        assert!(x(&keys, 0.9, false) > 9.0);
        // Symmetric: v(t) + v(1 − t) = 10.
        assert!((x(&keys, 0.2, false) + x(&keys, 0.8, false) - 10.0).abs() < 1e-4);
    }

    /// getBezierLerp clamps the leaving handle's time into [0, gap] and the
    /// arriving one's into [−gap, 0] (`Math.clamp`).
    #[test]
    fn bezier_handle_times_are_clamped_into_the_segment() {
        let pair = |right: f32, left: f32| {
            [
                handled(0.0, BEZIER, 0.0, (0.0, 0.0), (right, 4.0)),
                handled(1.0, BEZIER, 10.0, (left, -2.0), (0.0, 0.0)),
            ]
        };
        for t in [0.1, 0.3, 0.5, 0.7, 0.95] {
            // Past the segment: the segment's end.
            assert_eq!(
                x(&pair(5.0, -0.2), t, false),
                x(&pair(1.0, -0.2), t, false),
                "{t}"
            );
            assert_eq!(
                x(&pair(0.3, -7.0), t, false),
                x(&pair(0.3, -1.0), t, false),
                "{t}"
            );
            // The wrong way: 0.
            assert_eq!(
                x(&pair(-0.3, -0.2), t, false),
                x(&pair(0.0, -0.2), t, false),
                "{t}"
            );
            assert_eq!(
                x(&pair(0.3, 0.4), t, false),
                x(&pair(0.3, 0.0), t, false),
                "{t}"
            );
        }
    }

    /// BoneAnimator.interpolate's order: step before holds; linear before
    /// with linear or step after is linear; else catmull-rom if either is;
    /// else bezier if either is. A linear keyframe next to a bezier one lends
    /// its own handle (getBezierLerp reads both keyframes' handles).
    #[test]
    fn mixed_neighbours_choose_the_segment_as_blockbench_does() {
        let h = |time, interpolation, value| {
            handled(time, interpolation, value, (-0.5, 3.0), (0.5, 3.0))
        };
        let bezier = [h(0.0, BEZIER, 0.0), h(1.0, BEZIER, 10.0)];
        let t = 0.3;
        let curve = x(&bezier, t, false);
        assert!(
            (curve - 3.0).abs() > 0.1,
            "the curve is not the line: {curve}"
        );
        // Linear before, bezier after; bezier before, linear or step after:
        // the same curve, handles from both.
        for (b, a) in [(LINEAR, BEZIER), (BEZIER, LINEAR), (BEZIER, STEP)] {
            let keys = [h(0.0, b, 0.0), h(1.0, a, 10.0)];
            assert_eq!(x(&keys, t, false), curve, "{b} → {a}");
        }
        // Linear before, linear or step after: the line.
        for a in [LINEAR, STEP] {
            assert!((x(&[h(0.0, LINEAR, 0.0), h(1.0, a, 10.0)], t, false) - 3.0).abs() < 1e-5);
        }
        // Step before: held.
        assert_eq!(x(&[h(0.0, STEP, 0.0), h(1.0, BEZIER, 10.0)], t, false), 0.0);
        // Catmull-rom on either side wins over bezier.
        let catmull = [one(0.0, CATMULL, 0.0), one(1.0, CATMULL, 10.0)];
        for (b, a) in [(BEZIER, CATMULL), (CATMULL, BEZIER)] {
            let keys = [h(0.0, b, 0.0), h(1.0, a, 10.0)];
            assert_eq!(x(&keys, t, false), x(&catmull, t, false), "{b} → {a}");
        }
    }

    /// The plugins' getLerp (GeckoLib, Animation Utils) eases the linear
    /// segment by the later keyframe's easing (`other.easing`): easeInQuad
    /// at alpha 0.5 is 0.25, so 0 → 10 reads 2.5. The earlier keyframe's
    /// easing, and easing on a segment that is not linear, do nothing.
    #[test]
    fn easing_of_the_later_keyframe_eases_a_linear_segment() {
        let eased = |k: KeyframeRecord, easing: Easing| KeyframeRecord {
            easing: easing as u32,
            ..k
        };
        let plain = [one(0.0, LINEAR, 0.0), one(2.0, LINEAR, 10.0)];
        let later = [plain[0], eased(plain[1], Easing::InQuad)];
        assert!((x(&later, 1.0, false) - 2.5).abs() < 1e-6);
        let earlier = [eased(plain[0], Easing::InQuad), plain[1]];
        assert_eq!(x(&earlier, 1.0, false), 5.0);
        // Into a step keyframe the segment is linear, so it eases too.
        let into_step = [plain[0], eased(one(2.0, STEP, 10.0), Easing::InQuad)];
        assert!((x(&into_step, 1.0, false) - 2.5).abs() < 1e-6);
        // A catmull-rom or bezier segment ignores it.
        for interpolation in [CATMULL, BEZIER] {
            let keys = [one(0.0, interpolation, 0.0), one(2.0, interpolation, 10.0)];
            let with = [keys[0], eased(keys[1], Easing::InQuad)];
            assert_eq!(x(&with, 0.7, false), x(&keys, 0.7, false));
        }
        // The argument is the record's: easeInBack with 2 at alpha 0.5 is
        // −0.300395 (see easing.rs), so 0 → 10 reads −3.00395.
        let back = [
            plain[0],
            KeyframeRecord {
                easing_arg: 2.0,
                ..eased(plain[1], Easing::InBack)
            },
        ];
        assert!((x(&back, 1.0, false) + 3.003_95).abs() < 1e-4);
    }

    /// Blockbench's own scan over the keyframes, for comparison.
    fn scan(keys: &[KeyframeRecord], t: f32) -> (Option<usize>, Option<usize>) {
        let (mut before, mut after): (Option<usize>, Option<usize>) = (None, None);
        for (i, k) in keys.iter().enumerate() {
            if k.time < t {
                if before.is_none_or(|b| k.time > keys[b].time) {
                    before = Some(i);
                }
            } else if after.is_none_or(|a| k.time < keys[a].time) {
                after = Some(i);
            }
        }
        (before, after)
    }

    #[test]
    fn pair_matches_blockbench_scan() {
        let mut rng = XorShift(0x5eed_0016);
        for _ in 0..2000 {
            let n = rng.below(7) as usize;
            // Times on a coarse grid so that several keyframes share one.
            let mut keys: std::vec::Vec<_> = (0..n)
                .map(|_| one(rng.below(5) as f32 * 0.5, LINEAR, 0.0))
                .collect();
            keys.sort_by(|a, b| a.time.total_cmp(&b.time));
            let t = rng.below(12) as f32 * 0.25;
            assert_eq!(pair(&keys, t), scan(&keys, t), "{keys:?} at {t}");
        }
    }

    /// Convention 12 (BoneAnimator.interpolate): Blockbench counts a
    /// keyframe's data points, not their values, so a keyframe of two equal
    /// data points keeps its outer neighbour off the curve like any
    /// two-point keyframe: the curve is the limit of post moving onto pre,
    /// not the one-point curve.
    #[test]
    fn convention_12_two_equal_data_points_are_two_in_catmull_rom() {
        let keys = |post: f32, data_points: u32| {
            [
                one(0.0, 1, 0.0),
                KeyframeRecord {
                    data_points,
                    ..kf(1.0, 1, 1.0, post)
                },
                one(2.0, 1, 3.0),
                one(3.0, 1, 2.0),
            ]
        };
        let two_equal = x(&keys(1.0, 2), 1.5, false);
        let nearly = x(&keys(1.0 + 1e-4, 2), 1.5, false);
        let one_point = x(&keys(1.0, 1), 1.5, false);
        assert!((two_equal - nearly).abs() < 1e-3, "{two_equal} {nearly}");
        assert!(
            (two_equal - one_point).abs() > 1e-2,
            "{two_equal} {one_point}"
        );
        // A record built by hand (0) is decided by its values.
        assert_eq!(x(&keys(1.0, 0), 1.5, false), one_point);
    }
}
