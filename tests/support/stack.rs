//! The stack a call uses, measured by painting: the thread's stack is
//! filled with a known byte below the caller before the call, and the
//! deepest byte changed after it is the high-water mark. Run with
//! `--release` for figures (debug frames are several times larger).

/// Bytes painted below the painting call: more than any measured call
/// uses, so the deepest change is always inside the painted area.
const PAINT: usize = 1024 * 1024;
const BYTE: u8 = 0xa5;

/// Fills `PAINT` bytes of stack below the caller with [`BYTE`]; returns
/// the lowest painted address.
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

/// Runs `call` on a fresh thread whose stack was painted first: the bytes
/// of stack it used (its own frame included) and what it returned.
pub fn peak<R: Send>(call: impl FnOnce() -> R + Send) -> (usize, R) {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(PAINT + 256 * 1024)
            .spawn_scoped(s, || {
                let marker = 0u8;
                let top = std::hint::black_box(&marker) as *const u8 as usize;
                let lowest = paint();
                let result = call();
                (high_water(lowest, top), result)
            })
            .unwrap()
            .join()
            .unwrap()
    })
}
