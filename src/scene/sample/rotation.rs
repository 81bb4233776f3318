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
use super::keyframes::{Resolve, interpolation};
use super::pose::NodePose;
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
        let q = combine(a, b, s, t);
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
    combine(a, b, ratio_a, ratio_b)
}

/// `wa · a + wb · b`, component by component.
fn combine(a: Quat, b: Quat, wa: f64, wb: f64) -> Quat {
    let mut out = [0.0; 4];
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        *o = wa * x + wb * y;
    }
    out
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
/// Euler angles. Both `displayRotation`s multiply that Euler by the clip's
/// blend weight first (`stackAnimations`' multiplier), so `weight` scales
/// the angles added, not the slerp.
pub(super) fn apply_quaternion(
    keys: &[KeyframeRecord],
    t: f32,
    wrap: Option<f32>,
    flags: u32,
    weight: f32,
    pose: &mut NodePose,
    resolve: Resolve<'_>,
) {
    let hytale = flags & ChannelFlags::HYTALE != 0;
    let rest = wide(pose.rotation);
    let q = match segment(keys, t, wrap) {
        Segment::Empty => return,
        Segment::Key { index, post } => {
            let Some(k) = keys.get(index) else { return };
            let k = resolve(index, k);
            fixed(if post { k.post } else { k.pre }, rest, hytale)
        }
        Segment::Between {
            before,
            after,
            alpha,
            ..
        } => {
            let (Some(b), Some(a)) = (keys.get(before), keys.get(after)) else {
                return;
            };
            let (b, a) = (&resolve(before, b), &resolve(after, a));
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
    let w = f64::from(weight);
    let added = [
        (e[0] - rest[0]) * w,
        (e[1] - rest[1]) * w,
        (e[2] - rest[2]) * w,
    ];
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

#[cfg(test)]
mod tests {
    use super::*;
    use core::f32::consts::FRAC_PI_2;

    const LINEAR: u32 = Interpolation::Linear as u32;
    const CATMULL: u32 = Interpolation::CatmullRom as u32;

    fn key(time: f32, interpolation: u32, value: [f32; 3]) -> KeyframeRecord {
        KeyframeRecord {
            time,
            interpolation,
            pre: value,
            post: value,
            data_points: 1,
            ..KeyframeRecord::default()
        }
    }

    fn posed(rotation: [f32; 3]) -> NodePose {
        NodePose {
            rotation,
            scale: [1.0; 3],
            ..NodePose::default()
        }
    }

    fn close(a: [f32; 3], b: [f32; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    #[test]
    fn interpolate_with_quaternions_slerps_the_short_way_where_euler_angles_go_the_long_way() {
        // interpolate, use_quaternions: slerp(getFixed(before), getFixed(after)).
        // 0° to 350° about x is the short arc to −10°, so half way is −5°;
        // adding Euler angles would give 175°.
        let keys = [
            key(0.0, LINEAR, [0.0; 3]),
            key(1.0, LINEAR, [350f32.to_radians(), 0.0, 0.0]),
        ];
        let mut pose = posed([0.0; 3]);
        apply_quaternion(
            &keys,
            0.5,
            None,
            ChannelFlags::QUATERNION,
            1.0,
            &mut pose,
            &|_, k| *k,
        );
        assert!(
            close(pose.rotation, [-5f32.to_radians(), 0.0, 0.0]),
            "{pose:?}"
        );
    }

    #[test]
    fn blend_weight_scales_the_euler_angles_interpolate_returns_not_the_slerp() {
        // interpolate (use_quaternions) returns the slerp's Euler minus the
        // rest, in degrees; displayRotation adds `degToRad(arr[i]) *
        // multiplier` (Blockbench) or builds its Euler from `degToRad(
        // array[i]) * multiplier` (the Hytale plugin), the multiplier being
        // stackAnimations' blend weight. The short arc 0° to 350° gives
        // −5° at alpha 1/2; weight 0.5 makes it −2.5°, weight 0 the rest.
        let keys = [
            key(0.0, LINEAR, [0.0; 3]),
            key(1.0, LINEAR, [350f32.to_radians(), 0.0, 0.0]),
        ];
        for flags in [
            ChannelFlags::QUATERNION,
            ChannelFlags::QUATERNION | ChannelFlags::HYTALE,
        ] {
            for (weight, want) in [(0.5f32, -2.5f32), (0.0, 0.0), (2.0, -10.0)] {
                let mut pose = posed([0.0; 3]);
                apply_quaternion(&keys, 0.5, None, flags, weight, &mut pose, &|_, k| *k);
                assert!(
                    close(pose.rotation, [want.to_radians(), 0.0, 0.0]),
                    "flags {flags} weight {weight}: {pose:?}"
                );
            }
        }
    }

    #[test]
    fn the_hytale_plugin_weights_the_angles_before_multiplying_by_the_rest() {
        // Hytale displayRotation: bone.quaternion.multiply(q(degToRad(
        // array) * multiplier)). Rest (0, 0, 90°), keyframes x 0 and x 90°
        // (q(rest)·q(value)) at alpha 1: the value's Euler is x 90°;
        // weight 0.5 gives q(rest)·Rx(45°), Euler (45°, 0, 90°).
        let keys = [
            key(0.0, LINEAR, [0.0; 3]),
            key(1.0, LINEAR, [FRAC_PI_2, 0.0, 0.0]),
        ];
        let mut pose = posed([0.0, 0.0, FRAC_PI_2]);
        let flags = ChannelFlags::QUATERNION | ChannelFlags::HYTALE;
        apply_quaternion(&keys, 1.0, None, flags, 0.5, &mut pose, &|_, k| *k);
        let want = [45f32.to_radians(), 0.0, FRAC_PI_2];
        assert!(close(pose.rotation, want), "{pose:?}");
    }

    #[test]
    fn free_quaternions_take_the_euler_branch_of_get_fixed_rest_plus_value() {
        // getFixed asks the keyframe for quaternion_interpolation, which it
        // lacks: q(rest + value). Rest (0, 0, 90°), keyframes x 0 and x 90°
        // at alpha 1/2: between Euler (0, 0, 90°) and (90°, 0, 90°) the
        // slerp is about the same axis, Rz(90°)·Rx(45°): Euler (45°, 0, 90°),
        // and that minus the rest, added to the rest, is (45°, 0, 90°).
        let rest = [0.0, 0.0, FRAC_PI_2];
        let keys = [
            key(0.0, LINEAR, [0.0; 3]),
            key(1.0, LINEAR, [FRAC_PI_2, 0.0, 0.0]),
        ];
        let mut pose = posed(rest);
        apply_quaternion(
            &keys,
            0.5,
            None,
            ChannelFlags::QUATERNION,
            1.0,
            &mut pose,
            &|_, k| *k,
        );
        assert!(
            close(pose.rotation, [FRAC_PI_2 / 2.0, 0.0, FRAC_PI_2]),
            "{pose:?}"
        );
    }

    #[test]
    fn the_hytale_plugin_eases_catmull_rom_pairs_with_its_weighted_cubic() {
        // weightedCubicBezier(0.25): u = 0.75, Bernstein (0.421875,
        // 0.421875, 0.140625, 0.015625), weighted (2, 1, 2, 1):
        // (0.84375, 0.421875, 0.28125, 0.015625), sum 1.5625; numerator
        // 0.421875·0.05 + 0.28125·0.95 + 0.015625 = 0.30390625;
        // 0.30390625 / 1.5625 = 0.1945.
        assert!((hytale_ease(0.25) - 0.1945).abs() < 1e-12);
        // 0.5: Bernstein (1, 3, 3, 1) / 8, weighted (0.25, 0.375, 0.75,
        // 0.125), sum 1.5; 0.375·0.05 + 0.75·0.95 + 0.125 = 0.85625, / 1.5.
        // The weights are not symmetric, so neither is the curve.
        assert!((hytale_ease(0.5) - 0.85625 / 1.5).abs() < 1e-12);
        assert_eq!((hytale_ease(0.0), hytale_ease(1.0)), (0.0, 1.0));
        // Through the channel: 0 → 90° about x at alpha 1/4 is 0.1945 · 90°
        // with both keyframes catmull-rom, 22.5° with one linear.
        let flags = ChannelFlags::QUATERNION | ChannelFlags::HYTALE;
        let x = |first: u32| {
            let keys = [
                key(0.0, first, [0.0; 3]),
                key(1.0, CATMULL, [FRAC_PI_2, 0.0, 0.0]),
            ];
            let mut pose = posed([0.0; 3]);
            apply_quaternion(&keys, 0.25, None, flags, 1.0, &mut pose, &|_, k| *k);
            pose.rotation[0]
        };
        assert!((x(CATMULL) - 0.1945 * FRAC_PI_2).abs() < 1e-6);
        assert!((x(LINEAR) - FRAC_PI_2 / 4.0).abs() < 1e-6);
    }

    #[test]
    fn the_hytale_plugin_multiplies_the_rest_quaternion_by_the_result() {
        // getFixed (Format.quaternion_interpolation): q(rest)·q(value);
        // the plugin's displayRotation: q(rest)·q(Euler(q) − rest). Rest
        // (0, 60°, 0), a lone keyframe x 90°: Euler(Ry(60°)·Rx(90°)) is
        // (90°, 60°, 0), minus the rest (90°, 0, 0), so Ry(60°)·Rx(90°):
        // x goes to (cos 60°, 0, −sin 60°), y to z and on to (sin 60°, 0, cos 60°).
        let keys = [key(0.0, LINEAR, [FRAC_PI_2, 0.0, 0.0])];
        let flags = ChannelFlags::QUATERNION | ChannelFlags::HYTALE;
        let matrix = |rest: [f32; 3]| {
            let mut pose = posed(rest);
            apply_quaternion(&keys, 0.5, None, flags, 1.0, &mut pose, &|_, k| *k);
            crate::scene::Mat4::rotation_xyz(pose.rotation)
        };
        let near = |v: [f32; 3], w: [f32; 3]| v.iter().zip(w).all(|(a, b)| (a - b).abs() < 1e-5);
        let (s60, c60) = (60f32.to_radians().sin(), 60f32.to_radians().cos());
        let m = matrix([0.0, 60f32.to_radians(), 0.0]);
        assert!(
            near(m.transform_point([1.0, 0.0, 0.0]), [c60, 0.0, -s60]),
            "{m:?}"
        );
        assert!(
            near(m.transform_point([0.0, 1.0, 0.0]), [s60, 0.0, c60]),
            "{m:?}"
        );
        // At a rest of y = 90° three.js's Euler is in gimbal lock (x set to
        // 0), so Euler(q) − rest loses the keyframe's x and the bone is not
        // Ry(90°)·Rx(90°) (which maps y to x): Blockbench shows it so too.
        let m = matrix([0.0, FRAC_PI_2, 0.0]);
        assert!(
            !near(m.transform_point([0.0, 1.0, 0.0]), [1.0, 0.0, 0.0]),
            "{m:?}"
        );
    }

    #[test]
    fn rotation_global_takes_the_rotation_against_the_parents_world_rotation() {
        // displayRotation: bone.quaternion.premultiply(inverse(parent's world
        // quaternion)). Parent 90° about z over a grandparent 90° about x; a
        // child with no rotation of its own then gets the inverse of
        // Rx(90°)·Rz(90°), so its world rotation is none at all.
        let nodes = [
            NodeRecord {
                parent: -1,
                ..NodeRecord::default()
            },
            NodeRecord {
                parent: 0,
                ..NodeRecord::default()
            },
            NodeRecord {
                parent: 1,
                ..NodeRecord::default()
            },
        ];
        let mut out = [
            posed([FRAC_PI_2, 0.0, 0.0]),
            posed([0.0, 0.0, FRAC_PI_2]),
            posed([0.0; 3]),
        ];
        apply_global(&mut out, &nodes, 2);
        let world = [0, 1, 2]
            .iter()
            .fold(crate::scene::Mat4::IDENTITY, |m, &i| {
                m.mul(&crate::scene::Mat4::rotation_xyz(out[i].rotation))
            });
        let diff = world.0.iter().zip(crate::scene::Mat4::IDENTITY.0);
        assert!(
            diff.map(|(a, b)| (a - b).abs()).fold(0.0, f32::max) < 1e-6,
            "{world:?}"
        );
        // A root node's parent is the scene: nothing changes.
        let before = out[0];
        apply_global(&mut out, &nodes, 0);
        assert!(close(out[0].rotation, before.rotation));
    }

    #[test]
    fn euler_and_quaternion_conversions_round_trip_in_the_zyx_order() {
        // three.js setFromEuler / setFromQuaternion in 'ZYX' invert each
        // other away from gimbal lock (|y| < 90°).
        for r in [[0.3, -0.7, 1.2], [-2.5, 1.4, 3.0], [0.0, 0.0, -3.1]] {
            let back = euler_from_quat(quat_from_euler(r));
            assert!(
                r.iter().zip(back).all(|(a, b)| (a - b).abs() < 1e-12),
                "{r:?} {back:?}"
            );
        }
    }
}
