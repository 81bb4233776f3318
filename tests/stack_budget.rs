//! The stack the README's no-heap sequence (`unwrap_into`, `measure`,
//! `decode_into`, `Warnings` kept off the stack as the docs say) needs, per
//! corpus model: the thread's stack is painted with a known byte before the
//! decode and the deepest byte changed after it is the high-water mark.
//! Run with `--release` for the figures docs/c-api.md quotes; the budget
//! below holds for release builds (debug frames are several times larger).

mod support;

use scenedec::{Arena, MeasureScratch, Options, Warnings};

/// The budget per file, in release. Issue 40 asks for 16 KiB; what holds
/// now is 44 KiB (worst 41 950 bytes, a .bbmodel with textures: the PNG
/// decoder's inflate state under the fill; J3D 40 967, the fill's vertex
/// blocks). docs/c-api.md lists the largest frames.
const BUDGET: usize = 44 * 1024;
/// Bytes painted below the painting call: more than any decode uses, so
/// the deepest change is always inside the painted area.
const PAINT: usize = 1024 * 1024;
const BYTE: u8 = 0xa5;

/// Fills `PAINT` bytes of stack below the caller with [`BYTE`]; returns the
/// lowest painted address.
#[inline(never)]
fn paint() -> usize {
    let mut area = [BYTE; PAINT];
    std::hint::black_box(&mut area);
    area.as_ptr() as usize
}

/// Bytes between `top` and the deepest byte below it that is no longer [`BYTE`].
#[inline(never)]
fn high_water(lowest: usize, top: usize) -> usize {
    for addr in lowest..top {
        // SAFETY: the range lies in this thread's own stack, painted by
        // `paint` and since used by frames that have returned; reading it
        // (volatile, byte by byte) reads initialised, mapped memory.
        let b = unsafe { std::ptr::read_volatile(addr as *const u8) };
        if b != BYTE {
            return top - addr;
        }
    }
    0
}

#[inline(never)]
fn decode(bytes: &[u8], ext: Option<&str>, memory: &mut [u64], warnings: &mut Warnings) -> bool {
    static SCRATCH: std::sync::Mutex<MeasureScratch> = std::sync::Mutex::new(MeasureScratch::new());
    let mut scratch = SCRATCH.lock().unwrap();
    let options = Options::default();
    let mut arena = Arena::from_words(memory);
    let Ok(model) = scenedec::unwrap_into(bytes, &options, &mut arena) else {
        return false;
    };
    let Ok(plan) = scenedec::measure_with(model, ext, &options, &mut scratch) else {
        return false;
    };
    assert!(plan.arena_bytes() <= arena.remaining());
    scenedec::decode_into(model, ext, &options, &mut arena, warnings).is_ok()
}

/// The stack `decode` used on `bytes`, measured on a fresh thread.
fn peak(
    bytes: &[u8],
    ext: Option<&str>,
    memory: &mut [u64],
    warnings: &mut Warnings,
) -> (usize, bool) {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(PAINT + 256 * 1024)
            .spawn_scoped(s, || {
                let marker = 0u8;
                let top = std::hint::black_box(&marker) as *const u8 as usize;
                let lowest = paint();
                let ok = decode(bytes, ext, memory, warnings);
                (high_water(lowest, top), ok)
            })
            .unwrap()
            .join()
            .unwrap()
    })
}

#[test]
fn every_corpus_model_decodes_within_the_stack_budget() {
    let mut memory = vec![0u64; 16 << 20];
    let mut warnings = Box::new(Warnings::new());
    let mut worst = (0, String::new());
    let mut decoded = 0;
    for path in support::corpus_files("j3d", &[".bmd", ".bdl"])
        .into_iter()
        .chain(support::corpus_files("bbmodel", &[".bbmodel"]))
    {
        let bytes = std::fs::read(&path).unwrap();
        let ext = path.extension().and_then(|e| e.to_str());
        warnings.clear();
        let (used, ok) = peak(&bytes, ext, &mut memory, &mut warnings);
        println!("stack {used} {}", path.display());
        decoded += usize::from(ok);
        if used > worst.0 {
            worst = (used, path.display().to_string());
        }
    }
    println!("worst: {} bytes, {}", worst.0, worst.1);
    if !cfg!(debug_assertions) {
        assert!(
            worst.0 <= BUDGET,
            "{} used {} bytes of stack",
            worst.1,
            worst.0
        );
    }
    assert!(decoded > 0 || support::corpus_dir().is_none());
}
