//! Proof that scenedec's core needs neither std nor an allocator: this program
//! is `#![no_std]`, links no `alloc` crate and declares no global allocator,
//! so any allocation in the library would fail to link. It decodes the bundled
//! samples from `include_bytes!` into a buffer on the stack and checks what it
//! got. Exit status 0 means every check passed.
//!
//! The only `unsafe` here is the C entry point and the `write` call used to
//! report: the program talks to the C runtime directly because it has no std.

#![no_std]
#![no_main]

use core::fmt::Write;

use scenedec::error::ErrorCode;
use scenedec::scene::{
    AnimationRecord, ChannelRecord, ChannelTarget, Format, KeyframeRecord, LoopMode, Mat4,
    NodePose, NodeRecord, SceneArrays, SceneCounts, world_matrices,
};
use scenedec::{Arena, Options, Warnings};

const CUBE: &[u8] = include_bytes!("../../samples/cube.bbmodel");
const PYRAMID: &[u8] = include_bytes!("../../samples/pyramid.bmd");
const PYRAMID_SZS: &[u8] = include_bytes!("../../samples/pyramid.bmd.szs");

/// Arena memory for one model, on the stack.
const ARENA_WORDS: usize = 8 * 1024;

// The C library supplies the entry point, `memcpy` and friends, and `write`.
#[link(name = "c")]
unsafe extern "C" {
    fn write(fd: i32, buf: *const u8, count: usize) -> isize;
}

struct Stdout;

impl Write for Stdout {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        // SAFETY: `s` is a valid buffer of `s.len()` bytes for the whole call.
        let written = unsafe { write(1, s.as_ptr(), s.len()) };
        if written < 0 {
            Err(core::fmt::Error)
        } else {
            Ok(())
        }
    }
}

// The prebuilt `core` refers to the unwinding personality even when this
// program aborts on panic; nothing ever calls it.
#[unsafe(no_mangle)]
extern "C" fn rust_eh_personality() {}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    let _ = writeln!(Stdout, "no_std_tests: panic: {}", info.message());
    loop {}
}

/// Decodes `bytes` (unwrapping Yaz0 first) and returns the model's
/// unwrapped size and (nodes, triangles, whether node 1 is "tip" under node 0).
fn decode(
    name: &str,
    bytes: &[u8],
    hint: Option<&str>,
    expected: Format,
) -> Result<(usize, (usize, usize, bool)), &'static str> {
    let options = Options::default();
    let mut memory = [0u64; ARENA_WORDS];
    let mut arena = Arena::from_words(&mut memory);
    let model = scenedec::unwrap_into(bytes, &options, &mut arena).map_err(|_| "unwrap failed")?;
    let plan = scenedec::measure(model, hint, &options).map_err(|_| "measure failed")?;
    if plan.arena_bytes() > arena.remaining() {
        return Err("arena on the stack too small for the plan");
    }
    let mut warnings = Warnings::new();
    let before = arena.used();
    let scene = scenedec::decode_into(model, hint, &options, &mut arena, &mut warnings)
        .map_err(|_| "decode failed")?;
    if arena.used() - before > plan.arena_bytes() {
        return Err("decode used more arena than measure planned");
    }
    if scene.format() != expected {
        return Err("wrong format");
    }
    let _ = writeln!(
        Stdout,
        "no_std_tests: {name}: {} ok, {} input bytes, {} nodes, {} meshes, {} triangles, arena {} bytes",
        scene.format().as_str(),
        model.len(),
        scene.nodes().len(),
        scene.meshes().len(),
        scene.triangle_count(),
        plan.arena_bytes()
    );
    let tip = scene
        .nodes()
        .get(1)
        .is_some_and(|n| n.parent == 0 && scene.text(n.name) == "tip");
    Ok((
        model.len(),
        (scene.nodes().len(), scene.triangle_count(), tip),
    ))
}

/// Samples a one-node clip built by hand (translation 0 → 2 along x over
/// 1 s) at 0.5 s and checks the node's world origin is at x = 1.
fn pose() -> Result<(), &'static str> {
    let counts = SceneCounts {
        nodes: 1,
        animations: 1,
        channels: 1,
        keyframes: 2,
        ..SceneCounts::default()
    };
    let mut memory = [0u64; 64];
    let mut arena = Arena::from_words(&mut memory);
    let a = SceneArrays::carve(&counts, &mut arena).map_err(|_| "carving a pose scene failed")?;
    a.nodes[0] = NodeRecord {
        parent: -1,
        scale: [1.0; 3],
        ..NodeRecord::default()
    };
    a.animations[0] = AnimationRecord {
        length: 1.0,
        loop_mode: LoopMode::Once as u32,
        channel_count: 1,
        ..AnimationRecord::default()
    };
    a.channels[0] = ChannelRecord {
        target: ChannelTarget::Translation as u32,
        keyframe_count: 2,
        ..ChannelRecord::default()
    };
    a.keyframes[1] = KeyframeRecord {
        time: 1.0,
        pre: [2.0, 0.0, 0.0],
        post: [2.0, 0.0, 0.0],
        ..KeyframeRecord::default()
    };
    let scene = scenedec::Scene::new(Format::Bbmodel, &[], a);
    let mut poses = [NodePose::default(); 1];
    scene
        .sample(0, 0.5, &mut poses)
        .map_err(|_| "sampling failed")?;
    let mut world = [Mat4::IDENTITY; 1];
    world_matrices(&scene, &poses, &mut world);
    if world[0].transform_point([0.0; 3]) != [1.0, 0.0, 0.0] {
        return Err("the sampled pose is not halfway along its translation");
    }
    let _ = writeln!(Stdout, "no_std_tests: pose sampled without a heap");
    Ok(())
}

fn run() -> Result<(), &'static str> {
    pose()?;
    decode("cube.bbmodel", CUBE, Some("bbmodel"), Format::Bbmodel)?;
    let raw = decode("pyramid.bmd", PYRAMID, Some("bmd"), Format::J3d)?;
    // Two joints (the tip under the root), five faces' worth of triangles.
    if raw.1 != (2, 6, true) {
        return Err("pyramid.bmd did not decode to 2 joints, 6 triangles, tip under root");
    }
    let unwrapped = decode("pyramid.bmd.szs", PYRAMID_SZS, Some("szs"), Format::J3d)?;
    if raw.0 != PYRAMID.len() || unwrapped.0 != PYRAMID.len() {
        return Err("Yaz0 sample does not unwrap to the raw sample");
    }
    // Errors are typed without a heap too.
    let options = Options::default();
    match scenedec::measure(b"", Some("bbmodel"), &options) {
        Err(e) if e.code() == ErrorCode::NotJson => {}
        _ => return Err("empty .bbmodel did not fail NOT_JSON"),
    }
    let mut tiny = [0u64; 1];
    let mut arena = Arena::from_words(&mut tiny);
    match scenedec::unwrap_into(PYRAMID_SZS, &options, &mut arena) {
        Err(e) if e.code() == ErrorCode::ArenaTooSmall => {}
        _ => return Err("a too-small arena did not fail ARENA_TOO_SMALL"),
    }
    Ok(())
}

/// The C runtime's entry point.
#[unsafe(no_mangle)]
pub extern "C" fn main(_argc: i32, _argv: *const *const u8) -> i32 {
    match run() {
        Ok(()) => {
            let _ = writeln!(Stdout, "no_std_tests: all checks passed");
            0
        }
        Err(what) => {
            let _ = writeln!(Stdout, "no_std_tests: FAILED: {what}");
            1
        }
    }
}
