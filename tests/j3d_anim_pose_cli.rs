//! `scenedec pose MODEL --with ANIM --frame F --json` on every model and
//! animation pair of `corpus/j3d-anim`, at every sample frame of its
//! `expected/` file, compared by the game's rules (expected/README.md):
//! the CLI plays the clip's loop mode, so the frame it shows is the game's
//! (Once holds at `frames - 0.001`, Repeat wraps), and every value is
//! checked against noclip's at that frame where `expected/` has it, or
//! else against the library's own reader (`j3d::anim`) at that frame:
//! past a BCA or BTP table, where noclip gives `null` and the game holds
//! the last value, and at frames the loop moved to where noclip sampled
//! none. Rotations: the quaternion of the Euler angles (the game
//! interpolates the angles; noclip's slerped `rotation_quat` is not the
//! game's at fractional frames). World matrices: at whole frames, where
//! noclip does not slerp.
//!
//! Tolerance: `1e-5 * max(1, |a|, |b|)` (expected/README.md), and for
//! world matrices 1e-5 of the matrix's largest entry, as in
//! tests/j3d_anim_corpus.rs, plus, at frames that are not whole or half,
//! what rounding the frame to f32 moves a steep key (the slope measured on
//! the library's sampler a sixty-fourth of a frame either side).

mod support;

use support::j3d_anim::{self, slope};

use scenedec::j3d::anim::{self, Animation};
use scenedec::{J3dLimits, Warnings};
use serde_json::Value;
use std::path::Path;

#[derive(Default, Debug)]
struct Tally {
    runs: usize,
    /// Values compared with noclip's.
    expected: usize,
    /// Values compared with the library's reader (nulls, loop-moved frames).
    reader: usize,
}

/// The game's frame `time` frames after a clip of `frames` started
/// (J3DFrameCtrl; only Once and Repeat occur in the corpus).
fn game_frame(loop_value: u64, time: f32, frames: f32) -> f32 {
    match loop_value {
        0 if time >= frames => frames - 0.001,
        2 if time >= frames => time % frames,
        0 | 2 => time,
        other => panic!("loop {other} is not in the corpus"),
    }
}

struct Check<'t> {
    tally: &'t mut Tally,
    what: String,
    /// The frame was rounded to f32 by this much (0 at whole and half frames).
    rounding: f64,
}

impl Check<'_> {
    /// `got` (the CLI's) against `want` (noclip's, or the reader's when
    /// `from_expected` is false); `slope` is the reader's value a
    /// sixty-fourth of a frame either side, for the rounding term.
    fn value(&mut self, got: &Value, want: f64, from_expected: bool, slope: f64, what: &str) {
        let got = got
            .as_f64()
            .unwrap_or_else(|| panic!("{} {what}: number expected, got {got}", self.what));
        let allowed = j3d_anim::allowed(got, want, slope, self.rounding);
        assert!(
            (got - want).abs() <= allowed,
            "{} {what}: got {got}, expected {want} (allowed {allowed}, from {})",
            self.what,
            if from_expected {
                "expected/"
            } else {
                "the reader"
            }
        );
        if from_expected {
            self.tally.expected += 1;
        } else {
            self.tally.reader += 1;
        }
    }
}

/// The expected sample at `frame` (as the CLI's f32), if noclip sampled it.
fn sample_at(exp: &Value, frame: f32) -> Option<&Value> {
    exp["samples"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["frame"].as_f64().unwrap() as f32 == frame)
}

fn material_index(out: &Value, name: &str) -> usize {
    out["materials"]
        .as_array()
        .unwrap()
        .iter()
        .position(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("material {name} in the pose output"))
}

fn check_joints(a: &Animation<'_>, out: &Value, at: Option<&Value>, g: f32, c: &mut Check<'_>) {
    let nodes = out["nodes"].as_array().unwrap();
    for (j, node) in nodes.iter().enumerate() {
        let want = at
            .and_then(|s| s["joints"].as_array())
            .and_then(|js| js.get(j));
        let pose = anim::joint_pose(a, j, g).unwrap();
        let ours = [pose.scale, pose.rotation, pose.translation];
        let mut euler = [0.0; 3];
        let mut euler_from_expected = true;
        for (ci, name) in ["scale", "rotation_euler", "translation"]
            .into_iter()
            .enumerate()
        {
            for axis in 0..3 {
                let w = want.map(|w| &w[name][axis]).filter(|v| !v.is_null());
                let from_expected = w.is_some();
                let value = w.map_or(f64::from(ours[ci][axis]), |v| v.as_f64().unwrap());
                let s = slope(
                    |f| {
                        let p = anim::joint_pose(a, j, f).unwrap();
                        f64::from([p.scale, p.rotation, p.translation][ci][axis])
                    },
                    g,
                );
                if ci == 1 {
                    euler[axis] = value;
                    euler_from_expected &= from_expected;
                    continue;
                }
                let key = if ci == 0 { "scale" } else { "translation" };
                let what = format!("joint {j} {key}[{axis}]");
                c.value(&node[key][axis], value, from_expected, s, &what);
            }
        }
        let q = j3d_anim::quat_from_euler(euler);
        for (i, v) in q.iter().enumerate() {
            // A quaternion's slope is at most half the angles' (unit length).
            let s = (0..3)
                .map(|axis| {
                    slope(
                        |f| f64::from(anim::joint_pose(a, j, f).unwrap().rotation[axis]),
                        g,
                    )
                })
                .sum::<f64>();
            let what = format!("joint {j} rotation[{i}]");
            c.value(&node["rotation"][i], *v, euler_from_expected, s, &what);
        }
        // World matrices at whole frames, where noclip does not slerp.
        let world = want
            .filter(|_| g.fract() == 0.0)
            .and_then(|w| w["world"].as_array())
            .filter(|w| !w.iter().any(Value::is_null));
        if let Some(world) = world {
            let want: Vec<f64> = world.iter().map(|v| v.as_f64().unwrap()).collect();
            let scale = want.iter().fold(1f64, |m, v| m.max(v.abs()));
            for (k, w) in want.iter().enumerate() {
                let got = node["world"][k].as_f64().unwrap();
                assert!(
                    (got - w).abs() <= 1e-5 * scale,
                    "{} joint {j} world[{k}]: got {got}, expected {w}",
                    c.what
                );
                c.tally.expected += 1;
            }
        }
    }
}

/// A BTK field: output key, expected key, axis (`usize::MAX`: a scalar),
/// factor, and the reader's value at a frame.
type Field<'r> = (
    &'static str,
    &'static str,
    usize,
    f64,
    Box<dyn Fn(f32) -> f64 + 'r>,
);

fn check_btk(
    a: &anim::ttk1::Ttk1<'_>,
    exp: &Value,
    out: &Value,
    at: Option<&Value>,
    g: f32,
    c: &mut Check<'_>,
) {
    let pi = std::f64::consts::PI;
    for (i, e) in exp["entries"].as_array().unwrap().iter().enumerate() {
        let m = material_index(out, e["material"].as_str().unwrap());
        let slot = e["texgen"].as_u64().unwrap();
        let tm = out["materials"][m]["texture_matrices"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["slot"] == slot)
            .unwrap_or_else(|| panic!("{} entry {i}: slot {slot} in the output", c.what))
            .clone();
        let want = at.map(|s| &s["entries"][i]);
        let srt = |f: f32| a.srt(i, f).unwrap();
        let fields: [Field<'_>; 5] = [
            (
                "scale",
                "scale",
                0,
                1.0,
                Box::new(|f| f64::from(srt(f).scale[0])),
            ),
            (
                "scale",
                "scale",
                1,
                1.0,
                Box::new(|f| f64::from(srt(f).scale[1])),
            ),
            (
                "translation",
                "translation",
                0,
                1.0,
                Box::new(|f| f64::from(srt(f).translation[0])),
            ),
            (
                "translation",
                "translation",
                1,
                1.0,
                Box::new(|f| f64::from(srt(f).translation[1])),
            ),
            (
                "rotation",
                "rotation",
                usize::MAX,
                pi,
                Box::new(|f| f64::from(srt(f).rotation[2])),
            ),
        ];
        for (ours, theirs, axis, factor, reader) in &fields {
            let (got, w) = if *axis == usize::MAX {
                (&tm[*ours], want.map(|w| &w[*theirs]))
            } else {
                (&tm[*ours][*axis], want.map(|w| &w[*theirs][*axis]))
            };
            let value = w.map_or(reader(g), |v| v.as_f64().unwrap()) * factor;
            let s = slope(reader, g) * factor;
            c.value(
                got,
                value,
                w.is_some(),
                s,
                &format!("entry {i} {ours}[{axis}]"),
            );
        }
        for k in 0..16 {
            let reader = |f: f32| f64::from(a.texture_matrix(i, f).unwrap()[k]);
            let w = want.map(|w| &w["texmtx"][k]);
            let value = w.map_or(reader(g), |v| v.as_f64().unwrap());
            let s = slope(reader, g);
            c.value(
                &tm["matrix"][k],
                value,
                w.is_some(),
                s,
                &format!("entry {i} matrix[{k}]"),
            );
        }
    }
}

fn check_colour(
    a: &anim::trk1::ColourAnim<'_>,
    exp: &Value,
    out: &Value,
    at: Option<&Value>,
    g: f32,
    c: &mut Check<'_>,
) {
    for (i, e) in exp["entries"].as_array().unwrap().iter().enumerate() {
        let m = material_index(out, e["material"].as_str().unwrap());
        let name = e["color"].as_str().unwrap();
        let got = &out["materials"][m]["colors"][name];
        for ch in 0..4 {
            let reader = |f: f32| f64::from(a.colour(i, f).unwrap()[ch]);
            let w = at.map(|s| &s["entries"][i]["rgba"][ch]);
            let value = w.map_or(reader(g), |v| v.as_f64().unwrap());
            c.value(
                &got[ch],
                value,
                w.is_some(),
                slope(reader, g),
                &format!("entry {i} {name}[{ch}]"),
            );
        }
    }
}

fn check_btp(
    a: &anim::tpt1::Tpt1<'_>,
    exp: &Value,
    out: &Value,
    at: Option<&Value>,
    g: f32,
    c: &mut Check<'_>,
) {
    for (i, e) in exp["entries"].as_array().unwrap().iter().enumerate() {
        let m = material_index(out, e["material"].as_str().unwrap());
        let slot = e["texmap"].as_u64().unwrap();
        let got = out["materials"][m]["textures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["slot"] == slot)
            .unwrap_or_else(|| panic!("{} entry {i}: texture slot {slot}", c.what))["texture"]
            .clone();
        let w = at
            .map(|s| &s["entries"][i]["texture"])
            .filter(|v| !v.is_null());
        let value = w.map_or_else(
            || f64::from(a.texture_index(i, g).unwrap()),
            |v| v.as_f64().unwrap(),
        );
        c.value(&got, value, w.is_some(), 0.0, &format!("entry {i} texture"));
    }
}

fn check_bva(a: &anim::vaf1::Vaf1<'_>, out: &Value, at: Option<&Value>, g: f32, c: &mut Check<'_>) {
    let shapes = out["shapes"].as_array().unwrap();
    assert_eq!(shapes.len(), a.shapes(), "{}", c.what);
    for (s, got) in shapes.iter().enumerate() {
        let w = at.and_then(|x| x["shapes"][s].as_bool());
        let want = w.or_else(|| a.shape_visible(s, g)).unwrap_or(true);
        assert_eq!(got.as_bool(), Some(want), "{} shape {s}", c.what);
        if w.is_some() {
            c.tally.expected += 1;
        } else {
            c.tally.reader += 1;
        }
    }
}

fn check_pair(root: &Path, rel: &str, model: &str, tally: &mut Tally) {
    let bytes = std::fs::read(root.join(rel)).unwrap();
    let exp = j3d_anim::expected(root, rel);
    let a = anim::parse(&bytes, &J3dLimits::default(), &mut Warnings::new()).unwrap();
    let frames = exp["frames"].as_f64().unwrap() as f32;
    let loop_value = exp["loop_value"].as_u64().unwrap();
    let model_path = root.join(model);
    let anim_path = root.join(rel);
    for sample in exp["samples"].as_array().unwrap() {
        let frame64 = sample["frame"].as_f64().unwrap();
        let frame = frame64 as f32;
        let (code, stdout, stderr) = support::run_scenedec(&[
            "pose",
            model_path.to_str().unwrap(),
            "--with",
            anim_path.to_str().unwrap(),
            "--animation",
            "0",
            "--frame",
            &format!("{frame}"),
            "--json",
        ]);
        assert_eq!(code, 0, "{rel} at {frame}: {stderr}");
        tally.runs += 1;
        let out: Value = serde_json::from_str(&stdout).unwrap();
        let g = game_frame(loop_value, frame, frames);
        assert_eq!(out["frame"].as_f64().unwrap() as f32, g, "{rel} at {frame}");
        assert_eq!(
            out["name"],
            Path::new(rel).file_name().unwrap().to_str().unwrap()
        );
        let at = sample_at(&exp, g);
        let mut c = Check {
            tally,
            what: format!("{rel} at frame {frame} (game frame {g})"),
            rounding: if g == frame {
                (frame64 - f64::from(frame)).abs()
            } else {
                0.0
            },
        };
        match &a {
            Animation::Bck(_) | Animation::Bca(_) => check_joints(&a, &out, at, g, &mut c),
            Animation::Btk(t) => check_btk(t, &exp, &out, at, g, &mut c),
            Animation::Brk(t) | Animation::Bpk(t) => check_colour(t, &exp, &out, at, g, &mut c),
            Animation::Btp(t) => check_btp(t, &exp, &out, at, g, &mut c),
            Animation::Bva(t) => check_bva(t, &out, at, g, &mut c),
        }
    }
}

#[test]
fn pose_json_of_every_corpus_pair_matches_expected_by_the_game_rules() {
    let Some(corpus) = support::corpus_dir() else {
        return;
    };
    let root = corpus.join("j3d-anim");
    let mut tally = Tally::default();
    let mut pairs = 0;
    for (rel, model) in j3d_anim::pairs(&root) {
        check_pair(&root, &rel, &model, &mut tally);
        pairs += 1;
    }
    println!("{pairs} pairs: {tally:?}");
    // Every animation with a public model (41 of the 42; the BPK's model is not public).
    assert_eq!(pairs, 41);
    assert!(tally.expected > 10_000, "{tally:?}");
}
