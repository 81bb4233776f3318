//! Molang: compiling (prepare + measure + compile into reused buffers) and
//! evaluating three expressions shaped like the corpus's (a Bedrock rig's
//! clamped sines, a keyframe with a placeholder-free sine, a two-statement
//! script with a variable), beside a baseline in the same run: the same
//! arithmetic written as Rust closures over libm, which is the floor an
//! evaluator can approach. molangjs under Node is timed separately by
//! `node tools/molang-diff/bench.mjs` (same expressions).
//!
//! `cargo bench --bench molang`; figures go to docs/performance.md.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use scenedec::molang::{
    self, Context, EvalStack, MolangLimits, MolangNode, Placeholders, Program, Slot, Times,
    Variables, Work,
};

const DEG: f64 = core::f64::consts::PI / 180.0;

/// (name, expression, the same arithmetic in Rust).
type Case = (&'static str, &'static str, fn(f64) -> f64);

const CASES: &[Case] = &[
    (
        "clamped_sines",
        "-9.3734+math.clamp(math.sin(q.anim_time*90*4+45)*0.6,-0.3,0.3)+math.clamp(math.sin(q.anim_time*90*4+45)*1.2,-1.2,1.2)",
        |t| {
            -9.3734
                + (libm::sin((t * 90.0 * 4.0 + 45.0) * DEG) * 0.6).clamp(-0.3, 0.3)
                + (libm::sin((t * 90.0 * 4.0 + 45.0) * DEG) * 1.2).clamp(-1.2, 1.2)
        },
    ),
    ("sine", "math.sin(query.anim_time * 90) * 10", |t| {
        libm::sin(t * 90.0 * DEG) * 10.0
    }),
    (
        "script",
        "v.x = q.anim_time * 2; return math.cos(v.x * 180) * v.x + 1;",
        |t| {
            let x = t * 2.0;
            libm::cos(x * 180.0 * DEG) * x + 1.0
        },
    ),
];

/// Times sampled per iteration: one second at 24 fps.
const SAMPLES: usize = 24;

/// The samples of one second, one evaluator stack for all of them (as a
/// `Scene::sample` keeps one for its values).
fn eval_all<'a>(program: &Program<'a>, slots: &mut [Slot<'a>], stack: &mut EvalStack) -> f64 {
    let mut sum = 0.0;
    for k in 0..SAMPLES {
        let mut vars = Variables::new(slots, 1);
        let mut ctx = Context {
            times: Times {
                anim_time: k as f64 / 24.0,
                life_time: k as f64 / 24.0,
                delta_time: 1.0 / 24.0,
                this: 0.0,
            },
            variables: &mut vars,
            placeholders: &Placeholders::EMPTY,
            limits: MolangLimits::default(),
        };
        sum += program.eval_with(&mut ctx, stack).unwrap_or(0.0);
    }
    sum
}

fn bench(c: &mut Criterion) {
    let limits = MolangLimits::default();
    let mut compile_group = c.benchmark_group("molang/compile");
    for (name, src, _) in CASES {
        compile_group.throughput(Throughput::Bytes(src.len() as u64));
        let mut text = vec![0u8; molang::text_len(src)];
        let n = {
            let source = molang::prepare(src, &mut text, &limits).unwrap();
            molang::measure(&source, &limits, &mut Work::new()).unwrap()
        };
        let mut nodes = vec![MolangNode::ZERO; n];
        let mut work = Work::new();
        compile_group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| {
                let source = molang::prepare(black_box(src), &mut text, &limits).unwrap();
                let n = molang::measure(&source, &limits, &mut work).unwrap();
                let program =
                    molang::compile(&source, &mut nodes[..n], &limits, &mut work).unwrap();
                black_box(program.is_empty())
            })
        });
    }
    compile_group.finish();

    let mut eval_group = c.benchmark_group("molang/eval");
    eval_group.throughput(Throughput::Elements(SAMPLES as u64));
    for (name, src, closure) in CASES {
        let mut text = vec![0u8; molang::text_len(src)];
        let source = molang::prepare(src, &mut text, &limits).unwrap();
        let mut nodes =
            vec![MolangNode::ZERO; molang::measure(&source, &limits, &mut Work::new()).unwrap()];
        let program = molang::compile(&source, &mut nodes, &limits, &mut Work::new()).unwrap();
        let mut slots = vec![Slot::EMPTY; program.assignments()];
        // The baseline computes the same values (checked here, not timed).
        let mut stack = EvalStack::new();
        let check = eval_all(&program, &mut slots, &mut stack);
        let want: f64 = (0..SAMPLES).map(|k| closure(k as f64 / 24.0)).sum();
        assert!((check - want).abs() < 1e-9, "{name}: {check} vs {want}");
        eval_group.bench_function(BenchmarkId::new("scenedec", name), |b| {
            b.iter(|| black_box(eval_all(black_box(&program), &mut slots, &mut stack)))
        });
        eval_group.bench_function(BenchmarkId::new("rust_closure", name), |b| {
            b.iter(|| {
                let f = black_box(*closure);
                (0..SAMPLES)
                    .map(|k| f(black_box(k as f64 / 24.0)))
                    .sum::<f64>()
            })
        });
    }
    eval_group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
