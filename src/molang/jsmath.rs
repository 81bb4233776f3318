//! JavaScript's arithmetic where it differs from Rust's, and molangjs's
//! `math.js` and `easing.js` functions, each following its JavaScript
//! original so values match bit for bit where the operations are the same
//! (libm is the fdlibm family V8 also ports).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "f64 arithmetic, which does not panic"
)]

use super::node::Easing;
use core::f64::consts::PI;

/// JavaScript truthiness of a number: not 0 and not NaN.
pub(crate) fn truthy(x: f64) -> bool {
    x != 0.0 && !x.is_nan()
}

/// `Math.round`: halves round up (toward +∞), -0.5 ≤ x < 0 gives -0.
pub(crate) fn round(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let r = libm::floor(x);
    let up = if x - r >= 0.5 { r + 1.0 } else { r };
    if up == 0.0 && x < 0.0 { -0.0 } else { up }
}

/// `Math.min` of two: NaN wins, -0 is below +0.
pub(crate) fn min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a < b || (a == b && a.is_sign_negative()) {
        a
    } else {
        b
    }
}

/// `Math.max` of two: NaN wins, +0 is above -0.
pub(crate) fn max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a > b || (a == b && a.is_sign_positive()) {
        a
    } else {
        b
    }
}

/// `a ** b`: as C's pow except that 1 ** ±∞, (-1) ** ±∞ and x ** NaN are NaN.
pub(crate) fn pow(a: f64, b: f64) -> f64 {
    if b.is_nan() || (b.is_infinite() && libm::fabs(a) == 1.0) {
        return f64::NAN;
    }
    libm::pow(a, b)
}

/// `Math.sign`.
pub(crate) fn sign(x: f64) -> f64 {
    if x.is_nan() || x == 0.0 {
        x
    } else if x > 0.0 {
        1.0
    } else {
        -1.0
    }
}

/// molangjs `MathUtil.clamp`: above max gives max; below min or NaN gives min.
pub(crate) fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
    let x = if x > hi { hi } else { x };
    if x < lo || x.is_nan() { lo } else { x }
}

/// molangjs `MathUtil.lerp`.
pub(crate) fn lerp(a: f64, b: f64, t: f64) -> f64 {
    a + (b - a) * t
}

/// molangjs `radify`: an angle into [0, 360) by JavaScript `%`.
fn radify(n: f64) -> f64 {
    (((n + 180.0) % 360.0) + 180.0) % 360.0
}

/// molangjs `MathUtil.lerpRotate`: the shorter way round.
pub(crate) fn lerp_rotate(start: f64, end: f64, t: f64) -> f64 {
    let (mut a, mut b) = (radify(start), radify(end));
    if a > b {
        core::mem::swap(&mut a, &mut b);
    }
    let diff = b - a;
    if diff > 180.0 {
        radify(b + t * (360.0 - diff))
    } else {
        a + t * diff
    }
}

/// molangjs `MathUtil.minAngle`.
pub(crate) fn min_angle(value: f64) -> f64 {
    let floor = max(4.0, 4.0 + round(value / -360.0)) * 2.0 + 1.0;
    ((value + 180.0 * floor) % 360.0) - 180.0
}

/// `3t² − 2t³` as molangjs writes it (`3*(t**2) - 2*(t**3)`).
pub(crate) fn hermite_blend(t: f64) -> f64 {
    3.0 * pow(t, 2.0) - 2.0 * pow(t, 3.0)
}

fn out_bounce(t: f64) -> f64 {
    if t < 1.0 / 2.75 {
        7.5625 * t * t
    } else if t < 2.0 / 2.75 {
        let u = t - 1.5 / 2.75;
        7.5625 * u * u + 0.75
    } else if t < 2.5 / 2.75 {
        let u = t - 2.25 / 2.75;
        7.5625 * u * u + 0.9375
    } else {
        let u = t - 2.625 / 2.75;
        7.5625 * u * u + 0.984375
    }
}

fn in_bounce(t: f64) -> f64 {
    1.0 - out_bounce(1.0 - t)
}

/// The phase offset molangjs's elastic curves use: `p / (2π) · asin(1)`.
fn elastic_s(p: f64) -> f64 {
    p / (2.0 * PI) * libm::asin(1.0)
}

/// molangjs `Easings`, curve by curve.
pub(crate) fn ease(e: Easing, t: f64) -> f64 {
    use Easing as E;
    match e {
        E::InSine => -libm::cos(t * (PI / 2.0)) + 1.0,
        E::OutSine => libm::sin(t * (PI / 2.0)),
        E::InOutSine => -0.5 * (libm::cos(PI * t) - 1.0),
        E::InQuad => t * t,
        E::OutQuad => t * (2.0 - t),
        E::InOutQuad => {
            if t < 0.5 {
                2.0 * t * t
            } else {
                -1.0 + (4.0 - 2.0 * t) * t
            }
        }
        E::InCubic => t * t * t,
        E::OutCubic => {
            let u = t - 1.0;
            u * u * u + 1.0
        }
        E::InOutCubic => {
            if t < 0.5 {
                4.0 * t * t * t
            } else {
                (t - 1.0) * (2.0 * t - 2.0) * (2.0 * t - 2.0) + 1.0
            }
        }
        E::InQuart => t * t * t * t,
        E::OutQuart => {
            let u = t - 1.0;
            1.0 - u * u * u * u
        }
        E::InOutQuart => {
            let u = t - 1.0;
            if t < 0.5 {
                8.0 * t * t * t * t
            } else {
                1.0 - 8.0 * u * u * u * u
            }
        }
        E::InQuint => t * t * t * t * t,
        E::OutQuint => {
            let u = t - 1.0;
            1.0 + u * u * u * u * u
        }
        E::InOutQuint => {
            let u = t - 1.0;
            if t < 0.5 {
                16.0 * t * t * t * t * t
            } else {
                1.0 + 16.0 * u * u * u * u * u
            }
        }
        E::InExpo => {
            if t == 0.0 {
                0.0
            } else {
                libm::pow(2.0, 10.0 * (t - 1.0))
            }
        }
        E::OutExpo => {
            if t == 1.0 {
                1.0
            } else {
                -libm::pow(2.0, -10.0 * t) + 1.0
            }
        }
        E::InOutExpo => {
            if t == 0.0 || t == 1.0 {
                return t;
            }
            let s = t * 2.0;
            let s1 = s - 1.0;
            if s < 1.0 {
                0.5 * libm::pow(2.0, 10.0 * s1)
            } else {
                0.5 * (-libm::pow(2.0, -10.0 * s1) + 2.0)
            }
        }
        E::InCirc => -(libm::sqrt(1.0 - (t / 1.0) * t) - 1.0),
        E::OutCirc => {
            let u = t - 1.0;
            libm::sqrt(1.0 - u * u)
        }
        E::InOutCirc => {
            let s = t * 2.0;
            let s1 = s - 2.0;
            if s < 1.0 {
                -0.5 * (libm::sqrt(1.0 - s * s) - 1.0)
            } else {
                0.5 * (libm::sqrt(1.0 - s1 * s1) + 1.0)
            }
        }
        E::InBounce => in_bounce(t),
        E::OutBounce => out_bounce(t),
        E::InOutBounce => {
            if t < 0.5 {
                in_bounce(t * 2.0) * 0.5
            } else {
                out_bounce(t * 2.0 - 1.0) * 0.5 + 0.5
            }
        }
        E::InBack => {
            let m = 1.70158;
            t * t * ((m + 1.0) * t - m)
        }
        E::OutBack => {
            let m = 1.70158;
            let s = (t / 1.0) - 1.0;
            (s * s * ((m + 1.0) * s + m)) + 1.0
        }
        E::InOutBack => {
            let s = t * 2.0;
            let s2 = s - 2.0;
            let k = 1.70158 * 1.525;
            if s < 1.0 {
                0.5 * s * s * (((k + 1.0) * s) - k)
            } else {
                0.5 * (s2 * s2 * ((k + 1.0) * s2 + k) + 2.0)
            }
        }
        E::InElastic => {
            if t == 0.0 || t == 1.0 {
                return t;
            }
            let s1 = t / 1.0 - 1.0;
            let p = 1.0 - 0.7;
            let s = elastic_s(p);
            -(libm::pow(2.0, 10.0 * s1) * libm::sin((s1 - s) * (2.0 * PI) / p))
        }
        E::OutElastic => {
            if t == 0.0 || t == 1.0 {
                return t;
            }
            let p = 1.0 - 0.7;
            let st = t * 2.0;
            let s = elastic_s(p);
            (libm::pow(2.0, -10.0 * st) * libm::sin((st - s) * (2.0 * PI) / p)) + 1.0
        }
        E::InOutElastic => {
            if t == 0.0 || t == 1.0 {
                return t;
            }
            let p = 1.0 - 0.65;
            let st = t * 2.0;
            let s1 = st - 1.0;
            let s = elastic_s(p);
            if st < 1.0 {
                -0.5 * (libm::pow(2.0, 10.0 * s1) * libm::sin((s1 - s) * (2.0 * PI) / p))
            } else {
                (libm::pow(2.0, -10.0 * s1) * libm::sin((s1 - s) * (2.0 * PI) / p) * 0.5) + 1.0
            }
        }
    }
}

/// The generator behind `math.random` and its family: splitmix64, seeded
/// by the caller, so a clip plays the same every time (molangjs uses
/// `Math.random`, which no two runs share).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rng(pub u64);

impl Rng {
    /// A number in [0, 1), as `Math.random` gives.
    pub fn next_unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        // 53 random bits over 2^53: exactly representable, below 1.
        #[allow(clippy::cast_precision_loss, reason = "53 bits fit an f64 exactly")]
        let unit = (z >> 11) as f64 / 9_007_199_254_740_992.0;
        unit
    }

    /// molangjs `MathUtil.random(a, b)`.
    pub(crate) fn random(&mut self, a: f64, b: f64) -> f64 {
        a + self.next_unit() * (b - a)
    }

    /// molangjs `MathUtil.randomInt(a, b)`: whole numbers from ⌈a⌉ to ⌊b⌋.
    pub(crate) fn random_integer(&mut self, a: f64, b: f64) -> f64 {
        let (a, b) = (libm::ceil(a), libm::floor(b));
        a + libm::floor(self.next_unit() * (b - a + 1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_is_javascripts_math_round() {
        // Math.round(2.5) = 3, Math.round(-2.5) = -2, Math.round(-0.4) = -0.
        assert_eq!(round(2.5), 3.0);
        assert_eq!(round(-2.5), -2.0);
        assert!(round(-0.4) == 0.0 && round(-0.4).is_sign_negative());
        assert_eq!(round(-3.7), -4.0);
    }

    #[test]
    fn min_max_pow_follow_javascript() {
        assert!(max(1.0, f64::NAN).is_nan());
        assert!(max(-0.0, 0.0).is_sign_positive());
        assert!(min(-0.0, 0.0).is_sign_negative());
        assert!(pow(1.0, f64::INFINITY).is_nan());
        assert_eq!(pow(f64::NAN, 0.0), 1.0);
        assert_eq!(sign(-3.0), -1.0);
    }

    #[test]
    fn molangjs_math_util() {
        // MathUtil.clamp: NaN gives min.
        assert_eq!(clamp(f64::NAN, 1.0, 2.0), 1.0);
        assert_eq!(clamp(5.0, 1.0, 2.0), 2.0);
        // lerpRotate(350, 10, 0.5): the short way, through 0 (radify(360) = 0).
        assert_eq!(lerp_rotate(350.0, 10.0, 0.5), 0.0);
        assert_eq!(lerp_rotate(10.0, 20.0, 0.5), 15.0);
        assert_eq!(hermite_blend(0.5), 0.5);
        assert_eq!(min_angle(190.0), -170.0);
    }

    #[test]
    fn random_stays_in_range_and_repeats_from_its_seed() {
        let mut a = Rng(7);
        let mut b = Rng(7);
        for _ in 0..1000 {
            let x = a.random_integer(1.2, 3.9);
            assert!((2.0..=3.0).contains(&x) && x == libm::floor(x));
            assert_eq!(x, b.random_integer(1.2, 3.9));
            let u = a.next_unit();
            assert!((0.0..1.0).contains(&u));
            b.next_unit();
        }
    }
}
