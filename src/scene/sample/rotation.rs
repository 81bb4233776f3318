//! Rotation as Blockbench plays it past adding Euler angles: quaternion
//! interpolation (`BoneAnimator.interpolate` with `use_quaternions`,
//! `Keyframe.getFixed`), the Hytale plugin's rotation rules (its
//! `interpolate_keyframes` handler and `displayRotation`, plugin
//! `src/animations.ts`) and `rotation_global` (`displayRotation`).
//!
//! Blockbench computes in doubles with three.js (0.129) `Quaternion` and
//! `Euler` in a bone's order, `ZYX` (`Format.euler_order`'s default): the
//! matrix `Rz · Ry · Rx`, the order of [`super::NodePose::rotation`]. The
//! same formulas run here in f64.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "float arithmetic; node indices bounded by the node count"
)]

use super::super::{ChannelFlags, Interpolation, KeyframeRecord, NodeRecord};
use super::NodePose;
use super::keyframes::interpolation;
use super::segment::{Segment, segment};

/// A quaternion `[x, y, z, w]`.
pub(super) type Quat = [f64; 4];

/// three.js `Quaternion.setFromEuler` for order `ZYX`.
pub(super) fn quat_from_euler(r: [f64; 3]) -> Quat {
    let (s1, c1) = (libm::sin(r[0] / 2.0), libm::cos(r[0] / 2.0));
    let (s2, c2) = (libm::sin(r[1] / 2.0), libm::cos(r[1] / 2.0));
    let (s3, c3) = (libm::sin(r[2] / 2.0), libm::cos(r[2] / 2.0));
    [
        s1 * c2 * c3 - c1 * s2 * s3,
        c1 * s2 * c3 + s1 * c2 * s3,
        c1 * c2 * s3 - s1 * s2 * c3,
        c1 * c2 * c3 + s1 * s2 * s3,
    ]
}

/// three.js `Euler.setFromQuaternion` for order `ZYX`: the rotation matrix
/// of `q` (`makeRotationFromQuaternion`), then `setFromRotationMatrix`
/// (y = asin(−m31) clamped; x and z from atan2, or x = 0 near gimbal lock).
pub(super) fn euler_from_quat(q: Quat) -> [f64; 3] {
    let [x, y, z, w] = q;
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, xy, xz) = (x * x2, x * y2, x * z2);
    let (yy, yz, zz) = (y * y2, y * z2, z * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    let m11 = 1.0 - (yy + zz);
    let m12 = xy - wz;
    let m21 = xy + wz;
    let m22 = 1.0 - (xx + zz);
    let m31 = xz - wy;
    let m32 = yz + wx;
    let m33 = 1.0 - (xx + yy);
    let ry = libm::asin(-m31.clamp(-1.0, 1.0));
    if libm::fabs(m31) < 0.999_999_9 {
        [libm::atan2(m32, m33), ry, libm::atan2(m21, m11)]
    } else {
        [0.0, ry, libm::atan2(-m12, m22)]
    }
}

/// three.js `multiplyQuaternions(a, b)`: `a · b`.
pub(super) fn mul(a: Quat, b: Quat) -> Quat {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        ax * bw + aw * bx + ay * bz - az * by,
        ay * bw + aw * by + az * bx - ax * bz,
        az * bw + aw * bz + ax * by - ay * bx,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// three.js `Quaternion.slerp(qb, t)` from `a`: the shorter arc, a
/// normalised lerp when the two are within `Number.EPSILON` of each other.
pub(super) fn slerp(a: Quat, b: Quat, t: f64) -> Quat {
    if t == 0.0 {
        return a;
    }
    if t == 1.0 {
        return b;
    }
    let mut cos_half = a[3] * b[3] + a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let b = if cos_half < 0.0 {
        cos_half = -cos_half;
        b.map(|v| -v)
    } else {
        b
    };
    if cos_half >= 1.0 {
        return a;
    }
    let sqr_sin_half = 1.0 - cos_half * cos_half;
    if sqr_sin_half <= f64::EPSILON {
        let s = 1.0 - t;
        let q = [0, 1, 2, 3].map(|i| s * a[i] + t * b[i]);
        let len = libm::sqrt(q.iter().map(|v| v * v).sum());
        return if len == 0.0 {
            [0.0, 0.0, 0.0, 1.0]
        } else {
            q.map(|v| v / len)
        };
    }
    let sin_half = libm::sqrt(sqr_sin_half);
    let half = libm::atan2(sin_half, cos_half);
    let ratio_a = libm::sin((1.0 - t) * half) / sin_half;
    let ratio_b = libm::sin(t * half) / sin_half;
    [0, 1, 2, 3].map(|i| a[i] * ratio_a + b[i] * ratio_b)
}

/// The Hytale plugin's easing of a catmull-rom pair's `t`: a rational cubic
/// Bézier through 0, 0.05, 0.95, 1 with weights 2, 1, 2, 1 (its
/// `weightedCubicBezier`).
pub(super) fn hytale_ease(t: f64) -> f64 {
    let u = 1.0 - t;
    let b = [u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t];
    let w = [2.0 * b[0], b[1], 2.0 * b[2], b[3]];
    let numerator = w[1] * 0.05 + w[2] * 0.95 + w[3];
    numerator / (w[0] + w[1] + w[2] + w[3])
}

fn wide(v: [f32; 3]) -> [f64; 3] {
    v.map(f64::from)
}

#[allow(
    clippy::cast_possible_truncation,
    reason = "angles in radians, well inside f32 range"
)]
fn narrow(v: [f64; 3]) -> [f32; 3] {
    v.map(|x| x as f32)
}

/// `Keyframe.getFixed(data_point, true)`: a rotation keyframe's value as a
/// quaternion. Hytale (`Format.quaternion_interpolation`): the rest
/// rotation's quaternion times the value's. The free format
/// (`per_animator_rotation_interpolation`): getFixed asks the keyframe for
/// `quaternion_interpolation`, which keyframes do not have, so it takes the
/// Euler branch: rest + value as one Euler, then its quaternion.
fn fixed(value: [f32; 3], rest: [f64; 3], hytale: bool) -> Quat {
    let v = wide(value);
    if hytale {
        mul(quat_from_euler(rest), quat_from_euler(v))
    } else {
        quat_from_euler([rest[0] + v[0], rest[1] + v[1], rest[2] + v[2]])
    }
}

/// Applies a quaternion-interpolated rotation channel (`flags` has
/// [`ChannelFlags::QUATERNION`]) at clip time `t` to `pose`, whose rotation
/// is the node's rest rotation. `wrap` as in [`segment`].
///
/// `interpolate`: the keyframe shown, or the slerp from before's last data
/// point to after's first (for linear, catmull-rom and bezier alike),
/// turned back into Euler angles minus the rest rotation. The Hytale
/// plugin eases `alpha` when both keyframes are catmull-rom (and alpha is
/// neither 0 nor 1), and its `displayRotation` multiplies the rest
/// quaternion by that Euler's quaternion; Blockbench's adds it to the rest
/// Euler angles.
pub(super) fn apply_quaternion(
    keys: &[KeyframeRecord],
    t: f32,
    wrap: Option<f32>,
    flags: u32,
    pose: &mut NodePose,
) {
    let hytale = flags & ChannelFlags::HYTALE != 0;
    let rest = wide(pose.rotation);
    let q = match segment(keys, t, wrap) {
        Segment::Empty => return,
        Segment::Key { index, post } => {
            let Some(k) = keys.get(index) else { return };
            fixed(if post { k.post } else { k.pre }, rest, hytale)
        }
        Segment::Between {
            before,
            after,
            alpha,
        } => {
            let (Some(b), Some(a)) = (keys.get(before), keys.get(after)) else {
                return;
            };
            let mut alpha = f64::from(alpha);
            let catmull = |k| interpolation(k) == Interpolation::CatmullRom;
            if hytale && catmull(b) && catmull(a) && alpha != 0.0 && alpha != 1.0 {
                alpha = hytale_ease(alpha);
            }
            slerp(
                fixed(b.post, rest, hytale),
                fixed(a.pre, rest, hytale),
                alpha,
            )
        }
    };
    let e = euler_from_quat(q);
    let added = [e[0] - rest[0], e[1] - rest[1], e[2] - rest[2]];
    pose.rotation = if hytale {
        narrow(euler_from_quat(mul(
            quat_from_euler(rest),
            quat_from_euler(added),
        )))
    } else {
        narrow([rest[0] + added[0], rest[1] + added[1], rest[2] + added[2]])
    };
}

/// `rotation_global` on node `node`: its rotation taken against its
/// parent's world rotation, `q ← inverse(parent world) · q`
/// (`displayRotation`: `bone.quaternion.premultiply(quat.invert())` with
/// the parent's `getWorldQuaternion`).
///
/// The parent's world rotation is the product of its ancestors' rotations
/// as `out` holds them now: those whose animators came earlier in the clip
/// are posed, later ones still at rest, as Blockbench has them when it
/// reaches this animator. Scale is left out (three.js decomposes the world
/// matrix, which gives the same rotation while scales are uniform or
/// aligned with the rotations). A chain longer than the nodes (a parent
/// cycle) stops there.
pub(super) fn apply_global(out: &mut [NodePose], nodes: &[NodeRecord], node: usize) {
    let parent = |i: usize| nodes.get(i).and_then(|n| usize::try_from(n.parent).ok());
    let mut world: Quat = [0.0, 0.0, 0.0, 1.0];
    let mut current = parent(node);
    for _ in 0..nodes.len() {
        let Some(i) = current else { break };
        let Some(p) = out.get(i) else { break };
        world = mul(quat_from_euler(wide(p.rotation)), world);
        current = parent(i);
    }
    let Some(pose) = out.get_mut(node) else {
        return;
    };
    let inverse = [-world[0], -world[1], -world[2], world[3]];
    let local = mul(inverse, quat_from_euler(wide(pose.rotation)));
    pose.rotation = narrow(euler_from_quat(local));
}
