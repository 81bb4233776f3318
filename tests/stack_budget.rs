//! The stack the README's no-heap sequence (`unwrap_into`, `measure`,
//! `decode_into`, `Warnings` kept off the stack as the docs say) needs, per
//! corpus model, painted and read back by `support::stack`. Run with
//! `--release` for the figures docs/c-api.md quotes; the budgets below hold
//! for release builds (debug frames are several times larger).

mod support;

use scenedec::{Arena, MeasureScratch, Options, Warnings};

/// The budget per file, in release, per format: issue 40's 16 KiB for
/// every corpus file, J3D alone (worst 14 015 bytes), J3D with its
/// animation files (14 327) and .bbmodel (15 127, a 2 400-cube file;
/// files with clips at most 14 999). Sampling a Molang clip holds
/// 14 KiB (worst 13 695): the evaluator's 4.2 KiB `EvalStack` and its
/// first eight levels read by recursion (`molang::NESTED_LEVELS`, for
/// speed) in place of a recursion that grew with the nesting.
/// docs/c-api.md lists the largest frames.
const J3D_BUDGET: usize = 16 * 1024;
const J3D_ANIMATIONS_BUDGET: usize = 16 * 1024;
const BBMODEL_BUDGET: usize = 16 * 1024;
const SAMPLE_BUDGET: usize = 14 * 1024;

#[inline(never)]
fn decode(
    bytes: &[u8],
    ext: Option<&str>,
    options: &Options<'_>,
    memory: &mut [u64],
    warnings: &mut Warnings,
) -> bool {
    static SCRATCH: std::sync::Mutex<MeasureScratch> = std::sync::Mutex::new(MeasureScratch::new());
    let mut scratch = SCRATCH.lock().unwrap();
    let mut arena = Arena::from_words(memory);
    let Ok(model) = scenedec::unwrap_into(bytes, options, &mut arena) else {
        return false;
    };
    let Ok(plan) = scenedec::measure_with(model, ext, options, &mut scratch) else {
        return false;
    };
    assert!(plan.arena_bytes() <= arena.remaining());
    scenedec::decode_into(model, ext, options, &mut arena, warnings).is_ok()
}

/// The stack `decode` used on `bytes`, measured on a fresh thread.
fn peak(
    bytes: &[u8],
    ext: Option<&str>,
    options: &Options<'_>,
    memory: &mut [u64],
    warnings: &mut Warnings,
) -> (usize, bool) {
    support::stack::peak(|| decode(bytes, ext, options, memory, warnings))
}

#[test]
fn every_corpus_model_decodes_within_the_stack_budget() {
    let mut memory = vec![0u64; 16 << 20];
    let mut warnings = Box::new(Warnings::new());
    // (worst bytes, its file) for J3D, then .bbmodel.
    let mut worst = [(0, String::new()), (0, String::new())];
    let mut decoded = 0;
    for path in support::corpus_files("j3d", &[".bmd", ".bdl"])
        .into_iter()
        .chain(support::corpus_files("bbmodel", &[".bbmodel"]))
    {
        let bytes = std::fs::read(&path).unwrap();
        let ext = path.extension().and_then(|e| e.to_str());
        warnings.clear();
        let (used, ok) = peak(&bytes, ext, &Options::default(), &mut memory, &mut warnings);
        println!("stack {used} {}", path.display());
        decoded += usize::from(ok);
        let w = &mut worst[usize::from(ext == Some("bbmodel"))];
        if used > w.0 {
            *w = (used, path.display().to_string());
        }
    }
    for ((used, file), (format, budget)) in worst
        .iter()
        .zip([("J3D", J3D_BUDGET), (".bbmodel", BBMODEL_BUDGET)])
    {
        println!("worst {format}: {used} bytes, {file}");
        if !cfg!(debug_assertions) {
            assert!(
                *used <= budget,
                "{file} used {used} bytes of stack, over the {format} budget of {budget}"
            );
        }
    }
    assert!(decoded > 0 || support::corpus_dir().is_none());
}

/// The J3D path with animation files offered (`Options::j3d.animations`):
/// each j3d-anim model with every animation the manifest pairs with it,
/// read and counted while measuring and filled into the scene.
#[test]
fn j3d_models_with_their_animations_decode_within_the_stack_budget() {
    let Some(corpus) = support::corpus_dir() else {
        return;
    };
    let root = corpus.join("j3d-anim");
    let mut by_model = std::collections::BTreeMap::<String, Vec<String>>::new();
    for (animation, model) in support::j3d_anim::pairs(&root) {
        by_model.entry(model).or_default().push(animation);
    }
    let mut memory = vec![0u64; 16 << 20];
    let mut warnings = Box::new(Warnings::new());
    let mut worst = (0, String::new());
    for (model, animations) in &by_model {
        let bytes = std::fs::read(root.join(model)).unwrap();
        let files: Vec<(String, Vec<u8>)> = animations
            .iter()
            .map(|a| (a.clone(), std::fs::read(root.join(a)).unwrap()))
            .collect();
        let offered: Vec<(&str, &[u8])> = files
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        warnings.clear();
        let ext = std::path::Path::new(model)
            .extension()
            .and_then(|e| e.to_str());
        let mut options = Options::default();
        options.j3d.animations = &offered;
        let (used, ok) = peak(&bytes, ext, &options, &mut memory, &mut warnings);
        assert!(
            ok,
            "{model} with {} animations does not decode",
            offered.len()
        );
        println!("stack {used} {model} with {} animations", offered.len());
        if used > worst.0 {
            worst = (used, model.clone());
        }
    }
    println!("worst with animations: {} bytes, {}", worst.0, worst.1);
    assert!(!by_model.is_empty());
    if !cfg!(debug_assertions) {
        assert!(
            worst.0 <= J3D_ANIMATIONS_BUDGET,
            "{} with its animations used {} bytes of stack",
            worst.1,
            worst.0
        );
    }
}

/// A model past the walk's small seen-sets (more than 4096 joints and
/// shapes) and 1000 levels deep, with the limits raised to let it through:
/// the hierarchy check marks in the caller's memory (`MeasureScratch`, the
/// arena), so the budget holds for it as for the corpus.
#[test]
fn a_model_past_4096_joints_and_shapes_decodes_within_the_j3d_budget() {
    use support::j3d_writer::{JointDef, ModelBuilder, draw, indices16};
    let mut model = ModelBuilder::single_shape(
        &[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        draw(0x90, &indices16(&[0, 1, 2])),
    );
    // A chain 1000 deep, then roots.
    model.joints = (0..5000)
        .map(|j| JointDef::new(&format!("j{j}"), (1..1000).contains(&j).then(|| j - 1)))
        .collect();
    let shape = model.shapes[0].clone();
    model.shapes = (0..4200)
        .map(|s| support::j3d_writer::ShapeDef {
            joint: s % 5000,
            ..shape.clone()
        })
        .collect();
    let bytes = model.build();
    let mut options = Options::default();
    options.j3d.limits.max_joints = 5000;
    options.j3d.limits.max_shapes = 4200;
    options.j3d.limits.max_depth = 1024;
    let mut memory = vec![0u64; 16 << 20];
    let mut warnings = Box::new(Warnings::new());
    let (used, ok) = peak(&bytes, Some("bmd"), &options, &mut memory, &mut warnings);
    assert!(ok, "the 5000-joint model does not decode");
    println!("stack {used} for 5000 joints, 4200 shapes, 1000 levels");
    if !cfg!(debug_assertions) {
        assert!(
            used <= J3D_BUDGET,
            "{used} bytes of stack, over the J3D budget"
        );
    }
}

/// `Scene::sample` of every clip of every corpus .bbmodel that plays
/// Molang (and every clip of senkosan, the keyframe-heavy file), at
/// eleven times over each clip: the sampler evaluates the programs the
/// decode compiled, with one variable table a sample, within
/// [`SAMPLE_BUDGET`].
#[test]
fn sampling_molang_clips_stack_peak() {
    use scenedec::scene::NodePose;
    let options = Options::default();
    let mut worst = (0, String::new());
    let mut clips = 0;
    for path in support::corpus_files("bbmodel", &[".bbmodel"]) {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(loaded) = scenedec::load(&bytes, Some("bbmodel"), &options) else {
            continue;
        };
        let scene = loaded.scene();
        let senkosan = path.to_string_lossy().contains("senkosan");
        for (clip, record) in scene.animations().iter().enumerate() {
            if !(senkosan || scene.clip_runs_molang(clip)) {
                continue;
            }
            let mut out = vec![NodePose::default(); scene.nodes().len()];
            let length = record.length.max(1.0);
            let (used, ()) = support::stack::peak(|| {
                for k in 0..=10 {
                    let t = length * k as f32 / 10.0;
                    scene.sample(clip, t, &mut out).unwrap();
                }
            });
            clips += 1;
            println!("sample stack {used} {} clip {clip}", path.display());
            if used > worst.0 {
                worst = (used, format!("{} clip {clip}", path.display()));
            }
        }
    }
    println!(
        "worst sample: {} bytes, {} ({clips} clips)",
        worst.0, worst.1
    );
    assert!(clips > 0 || support::corpus_dir().is_none());
    if !cfg!(debug_assertions) {
        assert!(
            worst.0 <= SAMPLE_BUDGET,
            "{} used {} bytes of stack sampling",
            worst.1,
            worst.0
        );
    }
}

/// A .bbmodel with one clip whose only keyframe value is `text`.
fn molang_file(text: &str) -> Vec<u8> {
    format!(
        r#"{{"meta":{{"format_version":"5.0","model_format":"free","box_uv":false}},"resolution":{{"width":16,"height":16}},"elements":[],"outliner":[{{"name":"g","uuid":"11111111-1111-1111-1111-111111111111","origin":[0,0,0],"children":[]}}],"textures":[],"animations":[{{"name":"a","loop":"loop","length":2,"animators":{{"11111111-1111-1111-1111-111111111111":{{"name":"g","type":"bone","keyframes":[{{"channel":"position","time":0,"data_points":[{{"x":"{text}","y":0,"z":0}}]}}]}}}}}}]}}"#
    )
    .into_bytes()
}

/// Molang texts nested `depth` levels (each level one node the compiler
/// and the evaluator open): `!` over `1`; `math.clamp` over its last
/// operand (two values held a level); a call over its eighth argument
/// (nine held); a scope over its last line (a name the line before).
fn nested_texts(depth: usize) -> [(&'static str, String); 4] {
    [
        ("not", format!("{}1", "!".repeat(depth))),
        (
            "clamp",
            format!("{}1{}", "math.clamp(0,2,".repeat(depth), ")".repeat(depth)),
        ),
        (
            "call",
            format!(
                "{}1{}",
                "q.f(1,2,3,4,5,6,7,".repeat(depth),
                ")".repeat(depth)
            ),
        ),
        (
            "scope",
            format!("{}1{}", "(v.a;".repeat(depth), ")".repeat(depth)),
        ),
    ]
}

/// Stack the nested texts may take past the shallowest of their shape:
/// the compiler and the evaluator keep their open levels in `Work` and
/// `EvalStack`, so nesting adds nothing but frame-layout noise.
const NESTING_SLACK: usize = 512;

/// The decode's stack for Molang texts nested to `maxMolangDepth`:
/// `measure` and the fill compile them with the open levels in caller
/// memory, so it stays within [`BBMODEL_BUDGET`] and does not grow with
/// the nesting.
#[test]
fn nested_molang_decodes_in_the_same_stack() {
    static SCRATCH: std::sync::Mutex<MeasureScratch> = std::sync::Mutex::new(MeasureScratch::new());
    let options = Options::default();
    for shape in 0..4 {
        let mut shallow = 0;
        for depth in [1usize, 64, 128] {
            let (name, text) = nested_texts(depth)[shape].clone();
            let bytes = molang_file(&text);
            let (used, nodes) = support::stack::peak(|| {
                let mut scratch = SCRATCH.lock().unwrap();
                let plan = scenedec::measure_with(&bytes, Some("bbmodel"), &options, &mut scratch)
                    .unwrap();
                let mut words = vec![0u64; plan.arena_words()];
                let mut arena = Arena::from_words(&mut words);
                let mut warnings = Box::new(Warnings::new());
                let scene = scenedec::decode_into(
                    &bytes,
                    Some("bbmodel"),
                    &options,
                    &mut arena,
                    &mut warnings,
                )
                .unwrap();
                scene.counts().molang_nodes
            });
            // Compiled, not refused: at least a node a level.
            assert!(nodes > depth, "{name} {depth}: {nodes} nodes");
            println!("nested Molang {name}, depth {depth}: decode stack {used} bytes");
            if depth == 1 {
                shallow = used;
            }
            if !cfg!(debug_assertions) {
                assert!(used <= BBMODEL_BUDGET, "{name} {depth}: {used} bytes");
                assert!(
                    used <= shallow + NESTING_SLACK,
                    "{name} {depth}: {used} bytes, {shallow} at depth 1"
                );
            }
        }
    }
}

/// The sampler's stack for the same texts: `Scene::sample` evaluates
/// the first `NESTED_LEVELS` levels by recursion and the rest with the
/// open levels in its `EvalStack`, so the stack stops growing there and
/// stays within [`SAMPLE_BUDGET`].
#[test]
fn nested_molang_samples_in_the_same_stack() {
    use scenedec::scene::NodePose;
    let options = Options::default();
    for shape in 0..4 {
        // The figure once the recursion has handed over (depth 16).
        let mut handed_over = 0;
        for depth in [1usize, 16, 64, 128] {
            let (name, text) = nested_texts(depth)[shape].clone();
            let bytes = molang_file(&text);
            let loaded = scenedec::load(&bytes, Some("bbmodel"), &options).unwrap();
            let scene = loaded.scene();
            assert!(scene.clip_runs_molang(0));
            let mut out = vec![NodePose::default(); scene.nodes().len()];
            let (used, ()) = support::stack::peak(|| scene.sample(0, 0.0, &mut out).unwrap());
            if name == "not" {
                // `!` applied `depth` times to 1: 1 for an even depth, else 0.
                let want = if depth % 2 == 0 { 1.0 } else { 0.0 };
                assert_eq!(out[0].translation[0].abs(), want, "depth {depth}");
            }
            println!("nested Molang {name}, depth {depth}: sample stack {used} bytes");
            if depth == 16 {
                handed_over = used;
            }
            if !cfg!(debug_assertions) {
                assert!(used <= SAMPLE_BUDGET, "{name} {depth}: {used} bytes");
                assert!(
                    depth < 16 || used <= handed_over + NESTING_SLACK,
                    "{name} {depth}: {used} bytes, {handed_over} at depth 16"
                );
            }
        }
    }
}
