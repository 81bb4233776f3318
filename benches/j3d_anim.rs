//! J3D animations beside the model load, in the same run, on the j3d-anim
//! corpus (every model with the animation files MANIFEST.tsv gives it):
//!
//! - `load model`: `scenedec::load` of the models alone (the baseline);
//! - `load model+clips`: the same with every animation file attached
//!   (`Options::j3d.animations`), so the difference is what attaching costs;
//! - `parse`: `j3d::anim::parse` of every animation file (bytes/s);
//! - `sample`: every clip at 16 frames over its length, each frame the
//!   joints (`Scene::sample_frame`), every material (`sample_material`) and
//!   every shape (`sample_visibility`), as `pose --json` reads them
//!   (elements: frames sampled).
//!
//! `cargo bench --bench j3d_anim`; figures go to docs/performance.md.

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use scenedec::scene::NodePose;
use scenedec::{Options, Warnings};

/// Frames each clip is sampled at, spread over its length.
const FRAMES_PER_CLIP: usize = 16;

/// A model's bytes and its animation files' names and bytes.
type Pair = (Vec<u8>, Vec<(String, Vec<u8>)>);

fn pairs() -> Vec<Pair> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/j3d-anim");
    let Ok(manifest) = std::fs::read_to_string(root.join("MANIFEST.tsv")) else {
        eprintln!(
            "SKIPPED: {} is absent; the J3D animation bench has no input",
            root.display()
        );
        return Vec::new();
    };
    let mut by_model: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for row in manifest.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        if let Some(&model) = cols.get(6)
            && model != "-"
        {
            by_model
                .entry(model.to_owned())
                .or_default()
                .push(cols[0].to_owned());
        }
    }
    by_model
        .into_iter()
        .map(|(model, anims)| {
            let files = anims
                .iter()
                .map(|a| {
                    let name = a.rsplit('/').next().unwrap_or(a).to_owned();
                    (name, std::fs::read(root.join(a)).unwrap())
                })
                .collect();
            (std::fs::read(root.join(&model)).unwrap(), files)
        })
        .collect()
}

/// Samples every clip of `scene` at `FRAMES_PER_CLIP` frames: joints,
/// materials, shapes; a sum so nothing is optimised away.
fn sample_all(scene: &scenedec::Scene<'_>, poses: &mut [NodePose]) -> f32 {
    let mut sum = 0.0;
    for clip in scene.clips() {
        let a = clip.animation as usize;
        for k in 0..FRAMES_PER_CLIP {
            let f = clip.frames * k as f32 / (FRAMES_PER_CLIP - 1) as f32;
            scene.sample_frame(a, f, poses).unwrap();
            sum += poses.first().map_or(0.0, |p| p.translation[0]);
            for m in 0..scene.materials().len() {
                let s = scene.sample_material(a, f, m).unwrap();
                sum += s.colors[0].map_or(0.0, |c| c[0]);
            }
            for shape in 0..scene.meshes().len() {
                sum += f32::from(u8::from(
                    scene.sample_visibility(a, f, shape).unwrap() == Some(true),
                ));
            }
        }
    }
    sum
}

fn benches(c: &mut Criterion) {
    let pairs = pairs();
    if pairs.is_empty() {
        return;
    }
    let model_bytes: usize = pairs.iter().map(|(m, _)| m.len()).sum();
    let anim_bytes: usize = pairs
        .iter()
        .flat_map(|(_, a)| a.iter().map(|(_, b)| b.len()))
        .sum();
    let anim_files: usize = pairs.iter().map(|(_, a)| a.len()).sum();
    let refs: Vec<Vec<(&str, &[u8])>> = pairs
        .iter()
        .map(|(_, a)| a.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect())
        .collect();
    let with: Vec<Options<'_>> = refs
        .iter()
        .map(|r| {
            let mut o = Options::default();
            o.j3d.animations = r;
            o
        })
        .collect();
    let plain = Options::default();
    let loaded: Vec<_> = pairs
        .iter()
        .zip(&with)
        .map(|((m, _), o)| scenedec::load(m, None, o).unwrap())
        .collect();
    let frames: usize = loaded
        .iter()
        .map(|l| l.scene().clips().len() * FRAMES_PER_CLIP)
        .sum();
    eprintln!(
        "j3d-anim corpus: {} models ({model_bytes} bytes), {anim_files} animation files ({anim_bytes} bytes), {frames} frames sampled per iteration",
        pairs.len()
    );

    let mut g = c.benchmark_group("j3d_anim/load");
    g.sample_size(20);
    g.throughput(Throughput::Bytes(model_bytes as u64));
    g.bench_function(BenchmarkId::new("load", "model"), |b| {
        b.iter(|| {
            pairs
                .iter()
                .map(|(m, _)| {
                    scenedec::load(black_box(m), None, &plain)
                        .unwrap()
                        .scene()
                        .triangle_count()
                })
                .sum::<usize>()
        })
    });
    g.bench_function(BenchmarkId::new("load", "model+clips"), |b| {
        b.iter(|| {
            pairs
                .iter()
                .zip(&with)
                .map(|((m, _), o)| {
                    scenedec::load(black_box(m), None, o)
                        .unwrap()
                        .scene()
                        .tracks()
                        .len()
                })
                .sum::<usize>()
        })
    });
    g.finish();

    let mut g = c.benchmark_group("j3d_anim/parse");
    g.sample_size(50);
    g.throughput(Throughput::Bytes(anim_bytes as u64));
    let limits = plain.j3d.limits;
    let mut warnings = Warnings::new();
    g.bench_function(BenchmarkId::new("parse", "every file"), |b| {
        b.iter(|| {
            let mut n = 0;
            for (_, files) in &pairs {
                for (_, bytes) in files {
                    warnings.clear();
                    let a = scenedec::j3d::anim::parse(black_box(bytes), &limits, &mut warnings)
                        .unwrap();
                    n += a.clip().duration as usize;
                }
            }
            n
        })
    });
    g.finish();

    let mut g = c.benchmark_group("j3d_anim/sample");
    g.sample_size(20);
    g.throughput(Throughput::Elements(frames as u64));
    let mut poses: Vec<Vec<NodePose>> = loaded
        .iter()
        .map(|l| vec![NodePose::default(); l.scene().nodes().len()])
        .collect();
    g.bench_function(BenchmarkId::new("sample", "joints+materials+shapes"), |b| {
        b.iter(|| {
            loaded
                .iter()
                .zip(poses.iter_mut())
                .map(|(l, p)| sample_all(&l.scene(), p))
                .sum::<f32>()
        })
    });
    g.finish();
}

criterion_group!(group, benches);
criterion_main!(group);
