//! Every animation file of `corpus/j3d-anim` parsed and sampled at every
//! frame of its `expected/` file, every field compared by the game's rules
//! (expected/README.md): Hermite per component for keyed tracks, tables at
//! `floor(frame)`, visibility at the nearest frame.
//!
//! Where noclip (which made `expected/`) departs from the game, the
//! difference is checked as such, not skipped: noclip gives `null` past a
//! BCA / BTP table, where the game holds the table's last value; a `null`
//! must appear exactly where the frame is past the table, and our value
//! there must be that last value. noclip's `rotation_quat` slerps between
//! whole frames (the game interpolates the Euler angles), so it is compared
//! at whole frames only, where no slerp happens; `world` needs the model's
//! hierarchy and is not compared here.
//!
//! Tolerance: `|a - b| <= 1e-5 * max(1, |a|, |b|)` (expected/README.md:
//! noclip's Hermite coefficients sit in a `Float32Array`, ours are f32
//! throughout), plus what rounding the sample frame to f32 moves the value:
//! the frames `frames / 7 * k` are doubles, the game's and our frames are
//! f32, and a steep key (repairarml.bck: tangents of 250 units a frame)
//! moves by its slope times that rounding (up to 2e-6 frames). The slope is
//! measured on our own sampler a sixty-fourth of a frame either side;
//! at whole and half frames the rounding, and so this term, is zero.

mod support;

use support::j3d_anim;

use scenedec::j3d::anim::{self, Animation};
use scenedec::{J3dLimits, Warnings};
use serde_json::Value;
use std::path::Path;

#[derive(Default, Debug)]
struct Tally {
    /// Numbers and booleans compared with the game's rule.
    values: usize,
    /// `null`s checked to lie past their table (the game holds the last value there).
    nulls: usize,
    files: usize,
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-5 * 1f64.max(a.abs()).max(b.abs())
}

fn num(v: &Value, what: &str) -> f64 {
    v.as_f64()
        .unwrap_or_else(|| panic!("{what}: number expected, got {v}"))
}

struct Check<'t> {
    tally: &'t mut Tally,
    file: String,
}

impl Check<'_> {
    fn value(&mut self, got: f64, want: &Value, what: &str) {
        let want = num(want, what);
        assert!(
            close(got, want),
            "{}: {what}: got {got}, expected {want}",
            self.file
        );
        self.tally.values += 1;
    }

    /// `sample` at `frame` (rounded to f32) against `want`, allowing for
    /// the rounding of the frame (see the file's doc).
    fn sampled(&mut self, sample: impl Fn(f32) -> f32, frame: f64, want: &Value, what: &str) {
        let want = num(want, what);
        let f = frame as f32;
        let got = f64::from(sample(f));
        let rounding = (frame - f64::from(f)).abs();
        let slope = j3d_anim::slope(|t| f64::from(sample(t)), f);
        let allowed = j3d_anim::allowed(got, want, slope, rounding);
        assert!(
            (got - want).abs() <= allowed,
            "{}: {what}: got {got}, expected {want} (allowed {allowed})",
            self.file
        );
        self.tally.values += 1;
    }
}

fn check_bck(a: &anim::ank1::Ank1<'_>, exp: &Value, c: &mut Check<'_>) {
    assert_eq!(
        a.joints(),
        exp["tracks"]["joints"].as_u64().unwrap() as usize
    );
    let mut keys = [0usize; 3];
    for j in 0..a.joints() {
        let t = a.tracks(j).unwrap();
        for (c, tracks) in [t.scale, t.rotation, t.translation].iter().enumerate() {
            keys[c] += tracks.iter().map(|k| usize::from(k.count)).sum::<usize>();
        }
    }
    let want = &exp["tracks"]["keys"];
    assert_eq!(
        keys.map(|k| k as u64),
        ["scale", "rotation", "translation"].map(|n| want[n].as_u64().unwrap()),
        "{}: keys as noclip stores them",
        c.file
    );
    for sample in exp["samples"].as_array().unwrap() {
        let frame = num(&sample["frame"], "frame");
        for joint in sample["joints"].as_array().unwrap() {
            let j = joint["index"].as_u64().unwrap() as usize;
            let mut euler = [0.0; 3];
            for (ci, name) in ["scale", "rotation_euler", "translation"]
                .into_iter()
                .enumerate()
            {
                for axis in 0..3 {
                    let at = |f: f32| {
                        let pose = a.joint_pose(j, f).unwrap();
                        [pose.scale, pose.rotation, pose.translation][ci][axis]
                    };
                    if ci == 1 {
                        euler[axis] = f64::from(at(frame as f32));
                    }
                    let what = format!("frame {frame} joint {j} {name}[{axis}]");
                    c.sampled(at, frame, &joint[name][axis], &what);
                }
            }
            // At whole frames noclip's quaternion is the Euler angles'
            // own (no slerp): it pins the axis order X, then Y, then Z.
            if frame.fract() == 0.0 {
                let q = j3d_anim::quat_from_euler(euler);
                for (i, v) in q.iter().enumerate() {
                    let what = format!("frame {frame} joint {j} rotation_quat[{i}]");
                    c.value(*v, &joint["rotation_quat"][i], &what);
                }
            }
        }
    }
}

fn check_bca(a: &anim::anf1::Anf1<'_>, exp: &Value, c: &mut Check<'_>) {
    let tables = a.tables();
    let mut values = [0u64; 3];
    for j in 0..a.joints() {
        let t = a.tracks(j).unwrap();
        for (ci, tracks) in [t.scale, t.rotation, t.translation].iter().enumerate() {
            values[ci] += tracks.iter().map(|k| u64::from(k.count)).sum::<u64>();
        }
    }
    let want = &exp["tracks"]["values"];
    assert_eq!(
        values,
        ["scale", "rotation", "translation"].map(|n| want[n].as_u64().unwrap())
    );
    for sample in exp["samples"].as_array().unwrap() {
        let frame = num(&sample["frame"], "frame");
        for joint in sample["joints"].as_array().unwrap() {
            let j = joint["index"].as_u64().unwrap() as usize;
            let t = a.tracks(j).unwrap();
            let pose = a.joint_pose(j, frame as f32).unwrap();
            for (ci, (name, tracks, got)) in [
                ("scale", t.scale, pose.scale),
                ("rotation_euler", t.rotation, pose.rotation),
                ("translation", t.translation, pose.translation),
            ]
            .into_iter()
            .enumerate()
            {
                for axis in 0..3 {
                    let k = tracks[axis];
                    let want = &joint[name][axis];
                    // noclip: a one-value table is constant; past a longer one, null.
                    let past = k.count > 1 && frame.floor() >= f64::from(k.count);
                    if want.is_null() {
                        assert!(past, "{}: null inside the table at {frame}", c.file);
                        // The game holds the table's last value there.
                        let last = tables[ci].value(usize::from(k.index + k.count - 1));
                        assert_eq!(got[axis], last);
                        c.tally.nulls += 1;
                    } else {
                        assert!(!past, "{}: a value past the table at {frame}", c.file);
                        let what = format!("frame {frame} joint {j} {name}[{axis}]");
                        c.value(f64::from(got[axis]), want, &what);
                    }
                }
            }
            // As for BCK: at whole frames noclip's quaternion is the Euler
            // angles' own, when none of them is past its table.
            if frame.fract() == 0.0 && !joint["rotation_quat"][0].is_null() {
                let q = j3d_anim::quat_from_euler(pose.rotation.map(f64::from));
                for (i, v) in q.iter().enumerate() {
                    let what = format!("frame {frame} joint {j} rotation_quat[{i}]");
                    c.value(*v, &joint["rotation_quat"][i], &what);
                }
            }
        }
    }
}

fn check_btk(a: &anim::ttk1::Ttk1<'_>, exp: &Value, c: &mut Check<'_>) {
    assert_eq!(a.is_maya(), exp["is_maya"].as_bool().unwrap());
    assert_eq!(a.len(), exp["entries"].as_array().unwrap().len());
    for (i, e) in exp["entries"].as_array().unwrap().iter().enumerate() {
        let got = a.entry(i).unwrap();
        assert_eq!(got.material, e["material"].as_str().unwrap().as_bytes());
        assert_eq!(u64::from(got.slot), e["texgen"].as_u64().unwrap());
        for (axis, v) in got.centre.iter().enumerate() {
            c.value(f64::from(*v), &e["center"][axis], "centre");
        }
    }
    for sample in exp["samples"].as_array().unwrap() {
        let frame = num(&sample["frame"], "frame");
        for e in sample["entries"].as_array().unwrap() {
            let i = e["index"].as_u64().unwrap() as usize;
            for (ci, name) in ["scale", "rotation", "translation"].into_iter().enumerate() {
                for axis in 0..3 {
                    let at = |f: f32| {
                        let srt = a.srt(i, f).unwrap();
                        [srt.scale, srt.rotation, srt.translation][ci][axis]
                    };
                    let what = format!("frame {frame} entry {i} stq.{name}[{axis}]");
                    c.sampled(at, frame, &e["stq"][name][axis], &what);
                    // The short fields repeat S, T (and Q for rotation).
                    match (name, axis) {
                        ("rotation", 2) => c.sampled(at, frame, &e["rotation"], &what),
                        ("scale" | "translation", 0 | 1) => {
                            c.sampled(at, frame, &e[name][axis], &what)
                        }
                        _ => {}
                    }
                }
            }
            for k in 0..16 {
                let at = |f: f32| a.texture_matrix(i, f).unwrap()[k];
                let what = format!("frame {frame} entry {i} texmtx[{k}]");
                c.sampled(at, frame, &e["texmtx"][k], &what);
            }
        }
    }
}

fn check_colour(a: &anim::trk1::ColourAnim<'_>, exp: &Value, c: &mut Check<'_>) {
    let entries = exp["entries"].as_array().unwrap();
    assert_eq!(a.len(), entries.len());
    for (i, e) in entries.iter().enumerate() {
        let got = a.entry(i).unwrap();
        assert_eq!(got.material, e["material"].as_str().unwrap().as_bytes());
        let id = e["color_id"].as_u64().unwrap() as u8;
        let target = match e["register"].as_str().unwrap() {
            "tev" => anim::trk1::ColourTarget::Register(id),
            "konst" => anim::trk1::ColourTarget::Konst(id),
            _ => anim::trk1::ColourTarget::Material,
        };
        assert_eq!(got.target, target, "{}", c.file);
    }
    for sample in exp["samples"].as_array().unwrap() {
        let frame = num(&sample["frame"], "frame");
        for e in sample["entries"].as_array().unwrap() {
            let i = e["index"].as_u64().unwrap() as usize;
            for ch in 0..4 {
                let at = |f: f32| a.colour(i, f).unwrap()[ch];
                let what = format!("frame {frame} entry {i} rgba[{ch}]");
                c.sampled(at, frame, &e["rgba"][ch], &what);
            }
        }
    }
}

fn check_btp(a: &anim::tpt1::Tpt1<'_>, exp: &Value, c: &mut Check<'_>) {
    for (i, e) in exp["entries"].as_array().unwrap().iter().enumerate() {
        let got = a.entry(i).unwrap();
        assert_eq!(got.material, e["material"].as_str().unwrap().as_bytes());
        assert_eq!(u64::from(got.slot), e["texmap"].as_u64().unwrap());
        assert_eq!(u64::from(got.frames.count), e["count"].as_u64().unwrap());
    }
    for sample in exp["samples"].as_array().unwrap() {
        let frame = num(&sample["frame"], "frame");
        for e in sample["entries"].as_array().unwrap() {
            let i = e["index"].as_u64().unwrap() as usize;
            let count = a.entry(i).unwrap().frames.count;
            let got = a.texture_index(i, frame as f32).unwrap();
            if e["texture"].is_null() {
                assert!(
                    frame.floor() >= f64::from(count),
                    "{}: null at {frame}",
                    c.file
                );
                // The game shows the table's last texture from its end on.
                let last = a.texture_index(i, f32::from(count) - 1.0).unwrap();
                assert_eq!(got, last);
                c.tally.nulls += 1;
            } else {
                let what = format!("frame {frame} entry {i} texture");
                c.value(f64::from(got), &e["texture"], &what);
            }
        }
    }
}

fn check_bva(a: &anim::vaf1::Vaf1<'_>, exp: &Value, c: &mut Check<'_>) {
    let entries = exp["entries"].as_array().unwrap();
    assert_eq!(a.shapes(), entries.len());
    for e in entries {
        let s = e["shape"].as_u64().unwrap() as usize;
        assert_eq!(
            u64::from(a.track(s).unwrap().count),
            e["count"].as_u64().unwrap()
        );
    }
    for sample in exp["samples"].as_array().unwrap() {
        let frame = num(&sample["frame"], "frame");
        for (s, want) in sample["shapes"].as_array().unwrap().iter().enumerate() {
            let got = a.shape_visible(s, frame as f32).unwrap();
            assert_eq!(
                Some(got),
                want.as_bool(),
                "{}: frame {frame} shape {s}",
                c.file
            );
            c.tally.values += 1;
        }
    }
}

fn check_file(root: &Path, rel: &str, tally: &mut Tally) {
    let bytes = std::fs::read(root.join(rel)).unwrap();
    let exp = support::j3d_anim::expected(root, rel);
    let mut warnings = Warnings::new();
    let parsed = anim::parse(&bytes, &J3dLimits::default(), &mut warnings)
        .unwrap_or_else(|e| panic!("{rel}: {e}"));
    // A file shorter than its header says is read with one warning; others with none.
    let short = exp
        .get("notes")
        .is_some_and(|n| n.to_string().contains("shorter"));
    assert_eq!(warnings.as_slice().len(), usize::from(short), "{rel}");
    if short {
        let w = &warnings.as_slice()[0];
        assert_eq!(w.code(), scenedec::WarningCode::ShortAnimationFile);
    }
    let clip = parsed.clip();
    assert_eq!(
        u64::from(clip.duration),
        exp["frames"].as_u64().unwrap(),
        "{rel}"
    );
    let loop_value = [
        anim::LoopMode::Once,
        anim::LoopMode::OnceAndReset,
        anim::LoopMode::Repeat,
        anim::LoopMode::MirroredOnce,
        anim::LoopMode::MirroredRepeat,
    ]
    .iter()
    .position(|m| *m == clip.loop_mode);
    assert_eq!(
        loop_value as Option<usize>,
        exp["loop_value"].as_u64().map(|v| v as usize)
    );
    let kind = format!("{:?}", parsed.kind()).to_uppercase();
    assert_eq!(kind, exp["kind"].as_str().unwrap(), "{rel}");
    let mut c = Check {
        tally,
        file: rel.to_owned(),
    };
    match &parsed {
        Animation::Bck(a) => check_bck(a, &exp, &mut c),
        Animation::Bca(a) => check_bca(a, &exp, &mut c),
        Animation::Btk(a) => check_btk(a, &exp, &mut c),
        Animation::Brk(a) | Animation::Bpk(a) => check_colour(a, &exp, &mut c),
        Animation::Btp(a) => check_btp(a, &exp, &mut c),
        Animation::Bva(a) => check_bva(a, &exp, &mut c),
    }
    c.tally.files += 1;
}

#[test]
fn every_corpus_animation_samples_as_expected() {
    let Some(corpus) = support::corpus_dir() else {
        return;
    };
    let root = corpus.join("j3d-anim");
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv")).unwrap();
    let kinds = ["BCK", "BCA", "BTK", "BRK", "BPK", "BTP", "BVA"];
    let mut tally = Tally::default();
    let mut listed = 0;
    for line in manifest.lines().skip(1) {
        let cols: Vec<_> = line.split('\t').collect();
        if cols.len() > 5 && kinds.contains(&cols[5]) {
            listed += 1;
            check_file(&root, cols[0], &mut tally);
        }
    }
    assert_eq!(listed, 42, "the manifest lists 42 animation files");
    assert_eq!(tally.files, listed);
    println!("{tally:?}");
    // Enough compared that an empty loop cannot pass.
    assert!(tally.values > 10_000, "{tally:?}");
}

#[test]
fn every_corpus_animation_fits_its_model_and_not_a_foreign_one() {
    use scenedec::ErrorCode;
    use scenedec::j3d::J3dFile;
    use scenedec::j3d::anim::attach;
    let Some(corpus) = support::corpus_dir() else {
        return;
    };
    let root = corpus.join("j3d-anim");
    let pairs = j3d_anim::pairs(&root);
    let limits = J3dLimits::default();
    let mut fits = 0;
    let mut refused = 0;
    for (rel, model) in &pairs {
        let bytes = std::fs::read(root.join(rel)).unwrap();
        let a = anim::parse(&bytes, &limits, &mut Warnings::new()).unwrap();
        let model_bytes = std::fs::read(root.join(model)).unwrap();
        let own = J3dFile::parse(&model_bytes).unwrap();
        attach::check(&own, &a, &limits).unwrap_or_else(|e| panic!("{rel} on {model}: {e}"));
        fits += 1;
        // A material entry finds a material of its own name.
        if let Some(name) = attach::entry_material(&a, 0) {
            let i = attach::material_of(&own, &a, 0, &limits).unwrap();
            let mat3 = scenedec::j3d::mat3::Mat3::new(own.section(b"MAT3").unwrap()).unwrap();
            assert_eq!(mat3.material(i).unwrap().name().unwrap().0, name);
        }
        // On every other model of the corpus: refused, naming what differs,
        // unless that model happens to fit too (same counts, or the names).
        for (_, other) in &pairs {
            if other == model {
                continue;
            }
            let other_bytes = std::fs::read(root.join(other)).unwrap();
            let foreign = J3dFile::parse(&other_bytes).unwrap();
            match attach::check(&foreign, &a, &limits) {
                Ok(()) => {}
                Err(e) => {
                    assert_eq!(
                        e.code(),
                        ErrorCode::AnimationMismatch,
                        "{rel} on {other}: {e}"
                    );
                    let m = e.message();
                    assert!(
                        m.contains("joints") || m.contains("shape") || m.contains("material"),
                        "{rel} on {other}: {m}"
                    );
                    refused += 1;
                }
            }
        }
    }
    assert_eq!(fits, 41, "every animation with a public model");
    assert!(refused > 41 * 5, "{refused} foreign pairings refused");
    println!("{fits} fit their models, {refused} foreign pairings refused");
}

/// The joints' world matrices at whole frames, through the scene's own
/// `world_matrices` with the model's nodes (JNT1 order, INF1 parents, Maya
/// segment-scale compensation) posed by our samples: what a later step
/// that puts clips in the scene will compute. Only at whole frames, where
/// noclip's quaternion is the Euler angles' own (README: no slerp there),
/// and for BCA only where no table of the joint or its parents has ended.
/// Tolerance: 1e-5 of the matrix's largest entry (at least 1), since f32
/// products down a chain of joints round relative to their largest term.
#[test]
fn world_matrices_at_whole_frames_match() {
    use scenedec::scene::{Mat4, NodePose, world_matrices};
    let Some(corpus) = support::corpus_dir() else {
        return;
    };
    let root = corpus.join("j3d-anim");
    let mut compared = 0usize;
    for (rel, model) in j3d_anim::pairs(&root) {
        if !(rel.ends_with(".bck") || rel.ends_with(".bca")) {
            continue;
        }
        let bytes = std::fs::read(root.join(&rel)).unwrap();
        let a = anim::parse(&bytes, &J3dLimits::default(), &mut Warnings::new()).unwrap();
        let model_bytes = std::fs::read(root.join(&model)).unwrap();
        let loaded = scenedec::load(&model_bytes, None, &scenedec::Options::default()).unwrap();
        let scene = loaded.scene();
        let nodes = scene.nodes();
        let exp: Value = serde_json::from_slice(
            &std::fs::read(root.join("expected").join(format!("{rel}.json"))).unwrap(),
        )
        .unwrap();
        for sample in exp["samples"].as_array().unwrap() {
            let frame = num(&sample["frame"], "frame");
            if frame.fract() != 0.0 {
                continue;
            }
            let poses: Vec<NodePose> = (0..nodes.len())
                .map(|j| {
                    let p = anim::joint_pose(&a, j, frame as f32).unwrap();
                    NodePose {
                        translation: p.translation,
                        rotation: p.rotation,
                        scale: p.scale,
                        pivot: nodes[j].pivot,
                    }
                })
                .collect();
            let mut world = vec![Mat4::IDENTITY; nodes.len()];
            world_matrices(&scene, &poses, &mut world);
            for joint in sample["joints"].as_array().unwrap() {
                let j = joint["index"].as_u64().unwrap() as usize;
                let want = joint["world"].as_array().unwrap();
                if want.iter().any(Value::is_null) {
                    continue; // past a BCA table (checked in the sample test)
                }
                let want: Vec<f64> = want.iter().map(|v| v.as_f64().unwrap()).collect();
                let scale = want.iter().fold(1f64, |m, v| m.max(v.abs()));
                for (k, w) in want.iter().enumerate() {
                    let got = f64::from(world[j].0[k]);
                    assert!(
                        (got - w).abs() <= 1e-5 * scale,
                        "{rel}: frame {frame} joint {j} world[{k}]: got {got}, expected {w}"
                    );
                    compared += 1;
                }
            }
        }
    }
    println!("{compared} world-matrix entries compared");
    assert!(compared > 10_000, "{compared}");
}
