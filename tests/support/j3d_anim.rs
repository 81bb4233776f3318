//! `../shared/corpus/j3d-anim/`: its manifest, noclip's expected values and
//! the comparison rules the reader and CLI tests share (expected/README.md).

use serde_json::Value;
use std::path::Path;

/// (animation, model) paths of the manifest's animations that have a model
/// (model rows and the one animation whose model is not public have `-`).
pub fn pairs(root: &Path) -> Vec<(String, String)> {
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv")).unwrap();
    manifest
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|c| c.len() > 6 && c[6] != "-" && !c[6].is_empty())
        .map(|c| (c[0].to_owned(), c[6].to_owned()))
        .collect()
}

/// noclip's values for the animation at `rel` (`expected/REL.json`).
pub fn expected(root: &Path, rel: &str) -> Value {
    let path = root.join("expected").join(format!("{rel}.json"));
    serde_json::from_slice(&std::fs::read(&path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Rz · Ry · Rx (J3D's Euler order) as a quaternion (x, y, z, w).
pub fn quat_from_euler([x, y, z]: [f64; 3]) -> [f64; 4] {
    let (sx, cx) = (x * 0.5).sin_cos();
    let (sy, cy) = (y * 0.5).sin_cos();
    let (sz, cz) = (z * 0.5).sin_cos();
    [
        sx * cy * cz - cx * sy * sz,
        cx * sy * cz + sx * cy * sz,
        cx * cy * sz - sx * sy * cz,
        cx * cy * cz + sx * sy * sz,
    ]
}

/// How far `got` may be from `want`: 1e-5 relative, plus what rounding the
/// sample frame to f32 (by `rounding` frames) moves a value whose slope is
/// `slope` per frame (expected/README.md, "Frames").
pub fn allowed(got: f64, want: f64, slope: f64, rounding: f64) -> f64 {
    1e-5 * 1f64.max(got.abs()).max(want.abs()) + slope * rounding
}

/// The slope of `f` at `frame`, per frame, from a sixty-fourth of a frame
/// either side.
pub fn slope(f: impl Fn(f32) -> f64, frame: f32) -> f64 {
    let h = 1.0 / 64.0;
    let at = f(frame);
    (f(frame + h) - at).abs().max((at - f(frame - h)).abs()) / f64::from(h)
}
