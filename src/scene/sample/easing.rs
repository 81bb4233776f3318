//! The plugin formats' per-keyframe easing (GeckoLib plugin
//! `src/ts/easing.ts` `easingFunctions`; Animation Utils has the same
//! table): the curve applied to a linear segment's alpha. In f64, as
//! JavaScript computes it.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "floating-point arithmetic only; step indices are bounded by the step count, itself below 2^32"
)]

use super::super::Easing;
use core::f64::consts::PI;

/// `easingFunctions[easing]` (with `arg` bound for the easings that take
/// one) at `t`.
pub(super) fn ease(easing: Easing, arg: f64, t: f64) -> f64 {
    use Easing as E;
    let quart = |t: f64| libm::pow(t, 4.0);
    let quint = |t: f64| libm::pow(t, 5.0);
    match easing {
        E::Linear => t,
        E::Step => step(arg, t),
        E::InQuad => quad(t),
        E::OutQuad => out(quad, t),
        E::InOutQuad => in_out(quad, t),
        E::InCubic => cubic(t),
        E::OutCubic => out(cubic, t),
        E::InOutCubic => in_out(cubic, t),
        E::InQuart => quart(t),
        E::OutQuart => out(quart, t),
        E::InOutQuart => in_out(quart, t),
        E::InQuint => quint(t),
        E::OutQuint => out(quint, t),
        E::InOutQuint => in_out(quint, t),
        E::InSine => sin(t),
        E::OutSine => out(sin, t),
        E::InOutSine => in_out(sin, t),
        E::InExpo => exp(t),
        E::OutExpo => out(exp, t),
        E::InOutExpo => in_out(exp, t),
        E::InCirc => circle(t),
        E::OutCirc => out(circle, t),
        E::InOutCirc => in_out(circle, t),
        E::InBack => back(arg, t),
        E::OutBack => out(|t| back(arg, t), t),
        E::InOutBack => in_out(|t| back(arg, t), t),
        E::InElastic => elastic(arg, t),
        E::OutElastic => out(|t| elastic(arg, t), t),
        E::InOutElastic => in_out(|t| elastic(arg, t), t),
        E::InBounce => bounce(arg, t),
        E::OutBounce => out(|t| bounce(arg, t), t),
        E::InOutBounce => in_out(|t| bounce(arg, t), t),
    }
}

/// `Easing.out`: the curve run backwards, `1 − f(1 − t)`.
fn out(f: impl Fn(f64) -> f64, t: f64) -> f64 {
    1.0 - f(1.0 - t)
}

/// `Easing.inOut`: forwards for the first half, backwards for the second.
fn in_out(f: impl Fn(f64) -> f64, t: f64) -> f64 {
    if t < 0.5 {
        f(t * 2.0) / 2.0
    } else {
        1.0 - f((1.0 - t) * 2.0) / 2.0
    }
}

fn quad(t: f64) -> f64 {
    t * t
}

fn cubic(t: f64) -> f64 {
    t * t * t
}

/// `Easing.sin`: `1 − cos(tπ/2)`.
fn sin(t: f64) -> f64 {
    1.0 - libm::cos((t * PI) / 2.0)
}

/// `Easing.circle`: `1 − √(1 − t²)`.
fn circle(t: f64) -> f64 {
    1.0 - libm::sqrt(1.0 - t * t)
}

/// `Easing.exp`: `2^(10(t − 1))`.
fn exp(t: f64) -> f64 {
    libm::pow(2.0, 10.0 * (t - 1.0))
}

/// `Easing.back(1.70158 · scalar)`: `t²((s + 1)t − s)`.
fn back(scalar: f64, t: f64) -> f64 {
    let s = 1.701_58 * scalar;
    t * t * ((s + 1.0) * t - s)
}

/// `Easing.elastic(bounciness)`: `1 − cos(tπ/2)³ · cos(t · bounciness · π)`.
fn elastic(bounciness: f64, t: f64) -> f64 {
    let p = bounciness * PI;
    1.0 - libm::pow(libm::cos((t * PI) / 2.0), 3.0) * libm::cos(t * p)
}

/// `Easing.bounce(k)`: the least of four parabolas (`Math.min`, NaN if any is).
fn bounce(k: f64, x: f64) -> f64 {
    let q = (121.0 / 16.0) * x * x;
    let w = ((121.0 / 4.0) * k) * libm::pow(x - (6.0 / 11.0), 2.0) + 1.0 - k;
    let r = 121.0 * k * k * libm::pow(x - (9.0 / 11.0), 2.0) + 1.0 - k * k;
    let t = 484.0 * k * k * k * libm::pow(x - (10.5 / 11.0), 2.0) + 1.0 - k * k * k;
    [w, r, t].into_iter().fold(q, |least, v| {
        if least.is_nan() || v.is_nan() {
            f64::NAN
        } else {
            least.min(v)
        }
    })
}

/// `easingFunctions.step(steps, x)`: the start of the step interval `x`
/// falls in, found as the plugin finds it. Its intervals are `i / steps`
/// for `i` below `floor(steps)` (`stepRange`); the bisection
/// (`findIntervalBorderIndex`) returns 0 below the first, the last above
/// the last, and otherwise the left border of a search that never tests
/// the last border itself, so `x` equal to the last interval start gives
/// the one before it. `steps` below 2 makes the plugin throw; the reader
/// never stores such a step count.
fn step(steps: f64, x: f64) -> f64 {
    let step_length = 1.0 / steps;
    // Array.from({length: steps}): ToLength, so the floor.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let count = libm::floor(steps).max(0.0) as u64;
    let interval = |i: u64| {
        #[allow(clippy::cast_precision_loss)]
        let i = i as f64;
        i * step_length
    };
    let Some(last) = count.checked_sub(1) else {
        return f64::NAN;
    };
    if x < interval(0) {
        return interval(0);
    }
    if x > interval(last) {
        return interval(last);
    }
    let (mut left, mut right) = (0u64, last);
    while right.saturating_sub(left) > 1 {
        let middle = left + (right - left) / 2;
        if x >= interval(middle) {
            left = middle;
        } else {
            right = middle;
        }
    }
    interval(left)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// Values worked by hand from the plugin's formulas (GeckoLib
    /// `easing.ts`), at t = 0.25 and 0.75 unless said.
    #[test]
    fn plugin_easing_functions_by_hand() {
        // easeInQuad: t²; easeOutQuad: 1 − (1 − t)²; easeInOutQuad at 0.25:
        // quad(0.5)/2 = 0.125, at 0.75: 1 − quad(0.5)/2 = 0.875.
        assert!(close(ease(Easing::InQuad, 0.0, 0.25), 0.0625));
        assert!(close(ease(Easing::OutQuad, 0.0, 0.25), 1.0 - 0.5625));
        assert!(close(ease(Easing::InOutQuad, 0.0, 0.25), 0.125));
        assert!(close(ease(Easing::InOutQuad, 0.0, 0.75), 0.875));
        // easeInCubic 0.25³ = 0.015625; easeInQuart 0.25⁴ = 0.00390625;
        // easeInQuint 0.25⁵ = 0.0009765625.
        assert!(close(ease(Easing::InCubic, 0.0, 0.25), 0.015_625));
        assert!(close(ease(Easing::InQuart, 0.0, 0.25), 0.003_906_25));
        assert!(close(ease(Easing::InQuint, 0.0, 0.25), 0.000_976_562_5));
        // easeInSine at 0.5: 1 − cos(π/4) = 1 − √2/2.
        assert!(close(
            ease(Easing::InSine, 0.0, 0.5),
            1.0 - core::f64::consts::FRAC_1_SQRT_2
        ));
        // easeInOutSine at 0.25: sin(0.5)/2 = (1 − cos(π/4))/2.
        assert!(close(
            ease(Easing::InOutSine, 0.0, 0.25),
            (1.0 - core::f64::consts::FRAC_1_SQRT_2) / 2.0
        ));
        // easeInExpo at 0.5: 2^(−5) = 0.03125; at 0: 2^(−10), not 0.
        assert!(close(ease(Easing::InExpo, 0.0, 0.5), 0.031_25));
        assert!(close(ease(Easing::InExpo, 0.0, 0.0), 1.0 / 1024.0));
        // easeInCirc at 0.6: 1 − √(1 − 0.36) = 1 − 0.8 = 0.2.
        assert!(close(ease(Easing::InCirc, 0.0, 0.6), 0.2));
        // easeInBack, arg 1, at 0.5: s = 1.70158; 0.25·(2.70158·0.5 − 1.70158)
        // = 0.25 · (−0.35079) = −0.0876975.
        assert!(close(ease(Easing::InBack, 1.0, 0.5), -0.087_697_5));
        // arg 2 doubles s: 0.25 · (4.40316 · 0.5 − 3.40316) = −0.3003950.
        assert!(close(ease(Easing::InBack, 2.0, 0.5), -0.300_395));
        // easeInElastic, bounciness 1, at 0.5: 1 − cos(π/4)³ · cos(π/2) = 1
        // (cos(π/2) is 6.1e-17 in floating point, so within 1e-12).
        assert!(close(ease(Easing::InElastic, 1.0, 0.5), 1.0));
        // bounciness 2 at 0.5: 1 − (√2/2)³ · cos(π) = 1 + 0.3535534 = 1.3535534.
        assert!(close(
            ease(Easing::InElastic, 2.0, 0.5),
            1.0 + libm::pow(core::f64::consts::FRAC_1_SQRT_2, 3.0)
        ));
        // easeInBounce, k 0.5, at 0.5: q = 121/16 · 0.25 = 1.890625;
        // w = 15.125 · (0.5 − 6/11)² + 0.5 = 15.125 · 0.0020661 + 0.5 =
        // 0.53125; r = 30.25 · (0.5 − 9/11)² + 0.75 = 30.25 · 0.1012397 +
        // 0.75 = 3.8125; t = 60.5 · (0.5 − 10.5/11)² + 0.875 = 60.5 ·
        // 0.2066116 + 0.875 = 13.375: the least is w, 0.53125.
        assert!(close(ease(Easing::InBounce, 0.5, 0.5), 0.531_25));
        // Linear is the identity.
        assert_eq!(ease(Easing::Linear, 0.0, 0.3), 0.3);
    }

    /// GeckoLib `easingFunctions.step` (`stepRange`, `findIntervalBorderIndex`).
    #[test]
    fn step_easing_takes_the_interval_start_and_never_reaches_the_last_at_its_border() {
        // 5 steps: intervals 0, 0.2, 0.4, 0.6, 0.8.
        assert_eq!(step(5.0, 0.1), 0.0);
        assert_eq!(step(5.0, 0.3), 0.2);
        assert_eq!(step(5.0, 0.4), 0.4, "at a border: that interval");
        // Exactly the last border: the bisection never tests it, so 0.6.
        assert_eq!(step(5.0, 0.8), 0.6000000000000001);
        assert_eq!(step(5.0, 0.9), 0.8, "past the last: the last");
        // 2 steps: intervals 0, 0.5; 2.5 steps: floor 2 intervals of 0.4.
        assert_eq!(step(2.0, 0.7), 0.5);
        assert_eq!(step(2.5, 0.7), 0.4);
        assert_eq!(step(2.5, 0.3), 0.0);
    }
}
