// Plays Blockbench bezier segments for tests/bezier_diff.rs: reads
// {"cases": [...]} on stdin, writes {"three": version, "values": [...]}.
//
// Each case is two keyframes as a .bbmodel stores them (time, data point
// values, the four bezier handle arrays exactly as written, which may be
// short or absent), the channel, whether the file predates format 5.0, and
// the clip times to read. The steps are those of Blockbench 5.1's
// Keyframe.getBezierLerp (js/animations/keyframe.js), its format 5.0 sign
// migration (js/formats/bbmodel.js) and its Property defaults, written
// out here; the curve itself is three.js's CubicBezierCurve at the version
// Blockbench locks (0.129.0).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CubicBezierCurve, Vector2 } from 'three';

const version = createRequire(import.meta.url)('three/package.json').version;

// Math.clamp of Blockbench's math_util.js.
function clamp(n, min, max) {
  if (n > max) n = max;
  if (n < min || isNaN(n)) n = min;
  return n;
}

// Property 'vector' merge: an array replaces the default whole.
function vector(value, fallback) {
  return Array.isArray(value) ? value.slice() : fallback.slice();
}

function keyframe(raw, channel, before5) {
  const kf = {
    time: raw.time,
    interpolation: raw.interpolation,
    points: raw.points.map((p) => p.slice()),
    left_time: vector(raw.bezier_left_time, [-0.1, -0.1, -0.1]),
    left_value: vector(raw.bezier_left_value, [0, 0, 0]),
    right_time: vector(raw.bezier_right_time, [0.1, 0.1, 0.1]),
    right_value: vector(raw.bezier_right_value, [0, 0, 0]),
  };
  if (before5) {
    // Data points: x of position and rotation, y of rotation, negated.
    for (const p of kf.points) {
      if (channel === 'position' || channel === 'rotation') p[0] = -p[0];
      if (channel === 'rotation') p[1] = -p[1];
    }
    // Handles of a bezier keyframe that has bezier_left_value, likewise.
    if (kf.interpolation === 'bezier' && Array.isArray(raw.bezier_left_value)) {
      const flip = (i) => {
        kf.left_value[i] *= -1;
        kf.right_value[i] *= -1;
      };
      if (channel === 'position' || channel === 'rotation') flip(0);
      if (channel === 'rotation') flip(1);
    }
  }
  return kf;
}

// calc(axis, data_point): the index clamped to the points there are.
function calc(kf, axis, point) {
  return kf.points[Math.min(point, kf.points.length - 1)][axis];
}

function bezierLerp(before, after, axis, alpha) {
  const valBefore = calc(before, axis, 1);
  const valAfter = calc(after, axis, 0);
  const gap = after.time - before.time;
  const handleBefore = clamp(before.right_time[axis] || 0, 0, gap);
  const handleAfter = clamp(after.left_time[axis] || 0, -gap, 0);
  const curve = new CubicBezierCurve(
    new Vector2(before.time, valBefore),
    new Vector2(before.time + handleBefore, valBefore + before.right_value[axis] || 0),
    new Vector2(after.time + handleAfter, valAfter + after.left_value[axis] || 0),
    new Vector2(after.time, valAfter),
  );
  const time = before.time + (after.time - before.time) * alpha;
  const points = curve.getPoints(200);
  let closest;
  let best = Infinity;
  for (const p of points) {
    const d = Math.abs(p.x - time);
    if (d < best) {
      best = d;
      closest = p;
    }
  }
  let second;
  best = Infinity;
  for (const p of points) {
    if (p === closest) continue;
    const d = Math.abs(p.x - time);
    if (d < best) {
      best = d;
      second = p;
    }
  }
  const t = clamp((time - closest.x) / (second.x - closest.x), 0, 1);
  return closest.y + (second.y - closest.y) * t;
}

const input = JSON.parse(readFileSync(0, 'utf8'));
const values = input.cases.map((c) => {
  const before = keyframe(c.before, c.channel, c.before5);
  const after = keyframe(c.after, c.channel, c.before5);
  return c.times.map((t) => {
    const alpha = (t - before.time) / (after.time - before.time);
    return [0, 1, 2].map((axis) => bezierLerp(before, after, axis, alpha));
  });
});
process.stdout.write(JSON.stringify({ three: version, values }));
