//! An operator's value from its operands: molangjs's arithmetic,
//! comparisons and `math.*` functions.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "f64 arithmetic does not panic"
)]

use super::{Run, Step};
use crate::molang::jsmath as js;
use crate::molang::node::Op;

impl Run<'_, '_, '_, '_> {
    /// The value of an operator of one to three number operands.
    pub(super) fn apply(&mut self, op: Op, x: f64, y: f64, z: f64) -> Step {
        let bool01 = |x: bool| if x { 1.0 } else { 0.0 };
        let factor = core::f64::consts::PI / 180.0;
        // With fewer operands, the last is in `z` and the others repeat it.
        Ok(match op {
            Op::Add => x + z,
            Op::Sub => x - z,
            Op::Mul => x * z,
            Op::Div => x / z,
            Op::Lt => bool01(x < z),
            Op::Le => bool01(x <= z),
            Op::Gt => bool01(x > z),
            Op::Ge => bool01(x >= z),
            Op::Not => bool01(z == 0.0),
            Op::Abs => libm::fabs(z),
            Op::Sin => libm::sin(z * factor),
            Op::Cos => libm::cos(z * factor),
            Op::Exp => libm::exp(z),
            Op::Ln => libm::log(z),
            Op::Pow => js::pow(x, z),
            Op::Sqrt => libm::sqrt(z),
            Op::Random => self.ctx.variables.rng.random(x, z),
            Op::RandomInteger => self.ctx.variables.rng.random_integer(x, z),
            Op::DieRoll | Op::DieRollInteger => {
                let n = js::clamp(x, 0.0, 1e9);
                let mut sum = 0.0;
                let mut k = 0.0;
                while k < n {
                    k += 1.0;
                    self.step()?;
                    sum += if op == Op::DieRoll {
                        self.ctx.variables.rng.random(y, z)
                    } else {
                        self.ctx.variables.rng.random_integer(y, z)
                    };
                }
                sum
            }
            Op::Ceil => libm::ceil(z),
            Op::Round => js::round(z),
            Op::Trunc => libm::trunc(z),
            Op::Floor => libm::floor(z),
            Op::Mod => x % z,
            Op::Min => js::min(x, z),
            Op::Max => js::max(x, z),
            Op::Clamp => js::clamp(x, y, z),
            Op::Lerp => js::lerp(x, y, z),
            Op::LerpRotate => js::lerp_rotate(x, y, z),
            Op::Asin => libm::asin(z) / factor,
            Op::Acos => libm::acos(z) / factor,
            Op::Atan => libm::atan(z) / factor,
            Op::Atan2 => libm::atan2(x, z) / factor,
            Op::HermiteBlend => js::hermite_blend(z),
            Op::MinAngle => js::min_angle(z),
            Op::Sign => js::sign(z),
            Op::CopySign => libm::fabs(x) * js::sign(z),
            Op::InverseLerp => (z - x) / (y - x),
            Op::Ease(e) => js::lerp(x, y, js::ease(e, z)),
            Op::Cond | Op::And | Op::Or | Op::Eq | Op::Ne | Op::Coalesce => 0.0,
        })
    }
}
