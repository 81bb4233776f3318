//! Corpus clips whose keyframes hold Molang play what molangjs and
//! Blockbench's keyframe rules give (docs/bbmodel.md, "Molang keyframes").
//!
//! Blockbench reads each keyframe value through `Keyframe.calc`
//! (`js/animations/keyframe.js`): molangjs parses the data point's text,
//! with `query.anim_time` the animation's time, at every frame, and
//! `BoneAnimator.interpolate` (`js/animations/timeline_animators.js`)
//! interpolates those values as it interpolates numbers. So at time `t`
//! a Molang clip plays as the same clip whose Molang texts are replaced by
//! molangjs's values at `t`. This test builds that file for each sample
//! time — every Molang text of the clip replaced by the number
//! `tools/molang-diff/eval.mjs` gives (molangjs 1.7.0 with Blockbench's
//! variables and the file's `animation_variable_placeholders`) — and
//! requires `Scene::sample` of the original to equal `Scene::sample` of
//! the replaced file, whose numbers take the reader's constant path
//! (sign migration, degrees to radians) and the interpolation tested on
//! its own.
//!
//! Needs Node and `npm ci` in tools/molang-diff (as tests/molang_diff.rs).

mod support;

use scenedec::scene::NodePose;
use serde_json::{Value, json};

/// Sample times, as fractions of the clip's length (below 1, so the
/// clip time is the time asked and a loop does not wrap).
const FRACTIONS: [f32; 7] = [0.0, 0.1, 0.25, 0.4, 0.55, 0.7, 0.9];

/// Whether the reader reads `s` as a number: a decimal literal with
/// whitespace around it, or blank (docs/bbmodel.md, "decimal literal").
fn is_constant(s: &str) -> bool {
    let t = s.trim();
    if t.is_empty() {
        return true;
    }
    let body = t.strip_prefix(['+', '-']).unwrap_or(t);
    let mut parts = body.splitn(2, '.');
    let int = parts.next().unwrap_or("");
    let frac = parts.next();
    let digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    digits(int)
        && frac.is_none_or(digits)
        && !(int.is_empty() && frac.is_none_or(str::is_empty))
        && t.len() <= 64
}

/// The Molang texts a clip's bone keyframes play: (animator key, keyframe
/// index, data point, axis).
fn molang_texts(clip: &Value) -> Vec<(String, usize, usize, &'static str, String)> {
    let mut found = Vec::new();
    let Some(animators) = clip["animators"].as_object() else {
        return found;
    };
    for (key, animator) in animators {
        let Some(keyframes) = animator["keyframes"].as_array() else {
            continue;
        };
        for (k, keyframe) in keyframes.iter().enumerate() {
            if !matches!(
                keyframe["channel"].as_str(),
                Some("rotation" | "position" | "scale")
            ) {
                continue;
            }
            let points = keyframe["data_points"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            for (p, point) in points.iter().take(2).enumerate() {
                for axis in ["x", "y", "z"] {
                    if let Some(text) = point[axis].as_str()
                        && !is_constant(text)
                    {
                        found.push((key.clone(), k, p, axis, text.to_string()));
                    }
                }
            }
        }
    }
    found
}

/// molangjs's value of each expression at each time, or `None` (having
/// said why) when Node or the package is missing outside CI.
fn molangjs(placeholders: &str, expressions: &[String], times: &[f32]) -> Option<Vec<Vec<f64>>> {
    // Times as the sampler holds them (f32), widened exactly.
    let times: Vec<f64> = times.iter().map(|&t| f64::from(t)).collect();
    let input = json!({
        "times": times,
        // A sample has no previous frame (src/scene/sample/molang.rs).
        "delta_time": 0.0,
        // Blockbench resets its last values per bone (resetLastValues).
        "this": 0.0,
        "groups": [{"placeholders": placeholders, "expressions": expressions}],
    });
    let out = support::node::run_tool("molang-diff", "molangjs", "eval.mjs", &input)?;
    assert_eq!(out["version"], "1.7.0");
    Some(
        out["values"][0]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                e.as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_f64().expect("a finite value"))
                    .collect()
            })
            .collect(),
    )
}

fn pose(bytes: &[u8], name: &str, clip: usize, t: f32) -> Vec<NodePose> {
    let options = support::corpus_options(name);
    let loaded = scenedec::load(bytes, Some("bbmodel"), &options).expect("loads");
    let scene = loaded.scene();
    let mut poses = vec![NodePose::default(); scene.nodes().len()];
    scene.sample(clip, t, &mut poses).expect("samples");
    poses
}

#[test]
fn corpus_molang_clips_sample_as_molangjs_and_blockbench_give() {
    let files = support::corpus_files("bbmodel", &[".bbmodel"]);
    let (mut clips, mut samples, mut texts) = (0usize, 0usize, 0usize);
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        let bytes = std::fs::read(path).unwrap();
        let Ok(doc) = serde_json::from_slice::<Value>(&bytes) else {
            continue;
        };
        let placeholders = doc["animation_variable_placeholders"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let Some(animations) = doc["animations"].as_array() else {
            continue;
        };
        for (clip, animation) in animations.iter().enumerate() {
            let found = molang_texts(animation);
            if found.is_empty() {
                continue;
            }
            let length = animation["length"].as_f64().unwrap_or(0.0) as f32;
            let times: Vec<f32> = FRACTIONS.iter().map(|f| f * length).collect();
            let expressions: Vec<String> = found.iter().map(|f| f.4.clone()).collect();
            let Some(values) = molangjs(&placeholders, &expressions, &times) else {
                return;
            };
            clips += 1;
            texts += found.len();
            for (ti, &t) in times.iter().enumerate() {
                // In the file's own text (re-serialized JSON would reorder
                // keys): each Molang string, as the file writes it, becomes
                // its number. A text that occurs elsewhere too gets the
                // same value there, as it would at this time.
                let mut replaced = String::from_utf8(bytes.clone()).unwrap();
                let mut done = std::collections::BTreeSet::new();
                for ((_, _, _, _, text), value) in found.iter().zip(&values) {
                    if !done.insert(text) {
                        continue;
                    }
                    let quoted = serde_json::to_string(text).unwrap();
                    assert!(replaced.contains(&quoted), "{name}: {quoted} as written");
                    replaced = replaced.replace(&quoted, &json!(value[ti]).to_string());
                }
                let expected = pose(replaced.as_bytes(), name, clip, t);
                let got = pose(&bytes, name, clip, t);
                for (node, (g, e)) in got.iter().zip(&expected).enumerate() {
                    let pairs = [
                        (g.translation, e.translation),
                        (g.rotation, e.rotation),
                        (g.scale, e.scale),
                    ];
                    for (a, b) in pairs {
                        for (x, y) in a.iter().zip(b) {
                            assert!(
                                (x - y).abs() <= 1e-5 * y.abs().max(1.0),
                                "{name} clip {clip} at {t} s, node {node}: {g:?} vs molangjs {e:?}"
                            );
                        }
                    }
                }
                samples += 1;
            }
        }
    }
    if !files.is_empty() {
        // 12 clips of 4 files hold Molang keyframes (docs/bbmodel.md).
        assert!(clips >= 12, "only {clips} Molang clips were compared");
        eprintln!("{clips} Molang clips, {texts} Molang texts, {samples} samples compared");
    }
}
