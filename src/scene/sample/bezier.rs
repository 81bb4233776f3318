//! A bezier segment as Blockbench plays it (`Keyframe.getBezierLerp`,
//! js/animations/keyframe.js): per axis, a cubic bezier from before's
//! `post` to after's `pre` through the two handles, with the handle times
//! clamped into the segment, read at the clip time by sampling the curve at
//! 201 evenly spaced parameters (three.js `Curve.getPoints(200)`) and
//! interpolating between the two samples nearest in time.
//!
//! Computed in f64, as JavaScript computes it, and narrowed at the end.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "floating-point arithmetic only; the loop counter stays below 201"
)]

use super::super::KeyframeRecord;

/// Curve divisions Blockbench samples (`curve.getPoints(200)`: 201 points).
const DIVISIONS: u32 = 200;

/// The value between `before` and `after` at clip time `t`, strictly
/// between `times`: their times as the segment has them (a loop that
/// wraps shifts one by the clip's length, as `interpolate` does).
pub(super) fn value(
    before: &KeyframeRecord,
    after: &KeyframeRecord,
    times: (f32, f32),
    t: f32,
) -> [f32; 3] {
    let (t0, t3) = (f64::from(times.0), f64::from(times.1));
    let gap = t3 - t0;
    // The time Blockbench reads the curve at: before.time + gap · alpha.
    let time = t0 + gap * ((f64::from(t) - t0) / gap);
    let at = |v: &[f32; 3], axis: usize| f64::from(v.get(axis).copied().unwrap_or_default());
    let mut out = [0.0f32; 3];
    // Axes whose handle times agree (Blockbench's defaults, linked
    // handles) share one time curve, so its scan is made once for them.
    let mut scanned: [Option<([f64; 4], Nearest)>; 3] = [None; 3];
    for (axis, slot) in out.iter_mut().enumerate() {
        // Math.clamp(bezier_right_time, 0, gap) and (bezier_left_time, −gap, 0).
        let right = clamp(at(&before.bezier_right_time, axis), 0.0, gap);
        let left = clamp(at(&after.bezier_left_time, axis), -gap, 0.0);
        let xs = [t0, t0 + right, t3 + left, t3];
        let known = scanned
            .iter()
            .flatten()
            .find(|(x, _)| *x == xs)
            .map(|(_, n)| *n);
        let nearest = known.unwrap_or_else(|| nearest(xs, time));
        if let Some(free) = scanned.get_mut(axis) {
            *free = Some((xs, nearest));
        }
        let (v0, v3) = (at(&before.post, axis), at(&after.pre, axis));
        let ys = [
            v0,
            v0 + at(&before.bezier_right_value, axis),
            v3 + at(&after.bezier_left_value, axis),
            v3,
        ];
        *slot = narrow(match nearest {
            Some(((s1, x1), (s2, x2))) => {
                let (y1, y2) = (cubic(s1, ys), cubic(s2, ys));
                // Math.lerp(closest.y, second.y,
                //           Math.clamp(Math.getLerp(x1, x2, time), 0, 1)).
                let alpha = clamp((time - x1) / (x2 - x1), 0.0, 1.0);
                y1 + (y2 - y1) * alpha
            }
            None => v0,
        });
    }
    out
}

/// The curve parameter and time of the sample nearest `time`, and of the
/// nearest of the others.
type Nearest = Option<((f64, f64), (f64, f64))>;

/// Blockbench's two scans over `getPoints(200)`: the sample nearest in
/// time (the first of equals), then the nearest of the others (the first
/// of equals). Only the time curve decides them, so values are evaluated
/// at those two alone.
fn nearest(xs: [f64; 4], time: f64) -> Nearest {
    let mut closest: Option<(f64, f64, f64)> = None;
    let mut second: Option<(f64, f64, f64)> = None;
    for d in 0..=DIVISIONS {
        let s = f64::from(d) / f64::from(DIVISIONS);
        let x = cubic(s, xs);
        let diff = (x - time).abs();
        // Both scans start from Infinity, so a diff that is not finite is
        // never nearest (unreachable: times and handles are finite); the
        // finite diffs left compare totally.
        if !diff.is_finite() {
            continue;
        }
        match closest {
            Some((_, _, best)) if diff >= best => {
                if second.is_none_or(|(_, _, next)| diff < next) {
                    second = Some((s, x, diff));
                }
            }
            _ => {
                second = closest;
                closest = Some((s, x, diff));
            }
        }
    }
    Some(((closest?.0, closest?.1), (second?.0, second?.1)))
}

/// three.js `CubicBezier(t, p0, p1, p2, p3)`, its terms summed in its order.
fn cubic(t: f64, [p0, p1, p2, p3]: [f64; 4]) -> f64 {
    let k = 1.0 - t;
    k * k * k * p0 + 3.0 * k * k * t * p1 + 3.0 * (1.0 - t) * t * t * p2 + t * t * t * p3
}

/// Blockbench's `Math.clamp`: above `max` is `max`; below `min`, or NaN, `min`.
fn clamp(v: f64, min: f64, max: f64) -> f64 {
    let v = if v > max { max } else { v };
    if v < min || v.is_nan() { min } else { v }
}

/// The f64 result as the scene's f32.
#[allow(clippy::cast_possible_truncation)]
fn narrow(v: f64) -> f32 {
    v as f32
}
