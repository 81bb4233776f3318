// Plays rotation cases with three.js 0.129 (the version Blockbench pins)
// by Blockbench's rules, for tests/rotation_ref.rs. Reads JSON on stdin:
//   {cases: [{format: "free"|"hytale", quaternion, length, loop, time,
//             bones: [{parent, rest: [deg x3], global,
//                      keys: [{time, interpolation, points: [[deg x3], ...]}]}]}]}
// Bones are listed parents first; every bone's animator plays in list order.
// Writes {version, rotations: [[[rad x3] per bone] per case]}: each bone's
// `rotation` (Euler, order ZYX) after the frame is displayed.
//
// The rules restated (Blockbench js/animations/timeline_animators.js,
// keyframe.js; the Hytale plugin's src/animations.ts and src/formats.ts):
// - use_quaternions: free format with the animator's flag (the case's
//   `quaternion`), Hytale always; without it only linear and step are played here.
// - pair: before = latest keyframe strictly earlier (first of equal times
//   in list order), after = earliest at or later; with loop wrapping
//   (Hytale, loop clips, two or more keyframes) a missing before is the
//   latest keyframe at time - length, a missing after the earliest at time
//   + length. Exact times (scenedec compares exactly).
// - a keyframe shown gives point 0 when its time >= t, else its last point.
// - getFixed: Hytale q(rest) * q(value); free q(rest + value).
// - between: slerp(before's last point, after's first), alpha eased by the
//   plugin's weighted cubic when Hytale and both keyframes are catmullrom.
// - result: Euler(q) - rest; displayed by adding to the rest Euler (free)
//   or q(rest) * q(result) (Hytale); rotation_global: premultiply by the
//   inverse of the parent's world quaternion.
import * as THREE from 'three';
import { readFileSync } from 'node:fs';

const input = JSON.parse(readFileSync(0, 'utf8'));
const deg = (v) => v * Math.PI / 180;

function weighted(t) {
  const P = [0, 0.05, 0.95, 1], W = [2, 1, 2, 1];
  const b = [(1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t ** 2, t ** 3];
  let num = 0, den = 0;
  for (let i = 0; i < 4; i++) { num += b[i] * W[i] * P[i]; den += b[i] * W[i]; }
  return num / den;
}

function fixed(point, rest, hytale) {
  const v = point.map(deg);
  if (hytale) {
    const q = new THREE.Quaternion().setFromEuler(rest);
    return q.multiply(new THREE.Quaternion().setFromEuler(new THREE.Euler(v[0], v[1], v[2], 'ZYX')));
  }
  return new THREE.Quaternion().setFromEuler(new THREE.Euler(rest.x + v[0], rest.y + v[1], rest.z + v[2], 'ZYX'));
}

// The Euler path (no quaternions), linear and step only.
function interpolateEuler(keys, t) {
  let before = null, after = null, bt = 0, at = 0;
  for (const k of keys) {
    if (k.time < t) { if (!before || k.time > bt) { before = k; bt = k.time; } }
    else if (!after || k.time < at) { after = k; at = k.time; }
  }
  const show = (k) => (k.time >= t ? k.points[0] : k.points[k.points.length - 1]).map(deg);
  if (after && at === t) return show(after);
  if (before && (before.interpolation === 'step' || !after)) return show(before);
  if (after && !before) return show(after);
  if (!before) return null;
  const alpha = (t - bt) / (at - bt);
  const a = before.points[before.points.length - 1].map(deg), b = after.points[0].map(deg);
  return a.map((v, i) => v + (b[i] - v) * alpha);
}

function interpolate(keys, t, c, rest, hytale) {
  let before = null, after = null, bt = 0, at = 0;
  for (const k of keys) {
    if (k.time < t) { if (!before || k.time > bt) { before = k; bt = k.time; } }
    else if (!after || k.time < at) { after = k; at = k.time; }
  }
  if (hytale && c.loop === 'loop' && keys.length >= 2 && c.length > 0) {
    if (!before) { before = keys.reduce((m, k) => (k.time > m.time ? k : m)); bt = before.time - c.length; }
    if (!after) { after = keys.reduce((m, k) => (k.time < m.time ? k : m)); at = after.time + c.length; }
  }
  let q;
  const show = (k) => fixed(k.time >= t ? k.points[0] : k.points[k.points.length - 1], rest, hytale);
  if (before && bt === t) q = show(before);
  else if (after && at === t) q = show(after);
  else if (before && before.interpolation === 'step') q = show(before);
  else if (before && !after) q = show(before);
  else if (after && !before) q = show(after);
  else if (!before && !after) return null;
  else {
    let alpha = (t - bt) / (at - bt);
    if (hytale && alpha && alpha !== 1 && before.interpolation === 'catmullrom' && after.interpolation === 'catmullrom') {
      alpha = weighted(alpha);
    }
    q = fixed(before.points[before.points.length - 1], rest, hytale)
      .slerp(fixed(after.points[0], rest, hytale), alpha);
  }
  const e = new THREE.Euler().setFromQuaternion(q, 'ZYX');
  return [e.x - rest.x, e.y - rest.y, e.z - rest.z];
}

const rotations = input.cases.map((c) => {
  const hytale = c.format === 'hytale';
  const root = new THREE.Object3D();
  const objects = c.bones.map((b) => {
    const o = new THREE.Object3D();
    o.rotation.order = 'ZYX';
    o.rotation.set(...b.rest.map(deg));
    return o;
  });
  c.bones.forEach((b, i) => (b.parent < 0 ? root : objects[b.parent]).add(objects[i]));
  c.bones.forEach((b, i) => {
    const bone = objects[i];
    const rest = bone.rotation.clone();
    const added = !b.keys.length ? null
      : (c.quaternion ? interpolate(b.keys, c.time, c, rest, hytale) : interpolateEuler(b.keys, c.time));
    if (added && hytale) {
      bone.quaternion.multiply(new THREE.Quaternion().setFromEuler(new THREE.Euler(...added, bone.rotation.order)));
    } else {
      if (added) { bone.rotation.x += added[0]; bone.rotation.y += added[1]; bone.rotation.z += added[2]; }
      if (b.global) {
        const q = bone.parent.getWorldQuaternion(new THREE.Quaternion());
        q.invert();
        bone.quaternion.premultiply(q);
      }
    }
  });
  return objects.map((o) => [o.rotation.x, o.rotation.y, o.rotation.z]);
});

process.stdout.write(JSON.stringify({ version: THREE.REVISION, rotations }));
