//! `scenedec_load`: measure, allocate through the caller's callbacks, decode.
//! The library never calls malloc on its own; every byte comes from the
//! callbacks and goes back through them in `scenedec_loaded_free`.

use core::ffi::{c_char, c_void};

use decoder::Arena;
use decoder::arena::MAX_ALIGN;

use crate::entry::{input, try_status};
use crate::errors::{copy_warnings, report};
use crate::options::with_options;
use crate::scene::slice_mut;
use crate::{
    SCENEDEC_STATUS_INVALID_ARGUMENT, SCENEDEC_STATUS_NULL_ARGUMENT, SCENEDEC_STATUS_OK,
    SCENEDEC_STATUS_OUT_OF_MEMORY, guard, scenedec_error, scenedec_options, scenedec_scene,
    scenedec_status, scenedec_warnings,
};

/// The caller's allocator. `alloc(user, size, align)` returns `size` bytes
/// aligned to `align` (a power of two, at most 16), or NULL; `free(user,
/// ptr, size, align)` takes back a block with the size and alignment it was
/// allocated with. `user` is passed through untouched.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scenedec_allocator {
    /// Allocates; NULL on failure.
    pub alloc:
        Option<unsafe extern "C" fn(user: *mut c_void, size: usize, align: usize) -> *mut c_void>,
    /// Frees a block from `alloc`.
    pub free: Option<
        unsafe extern "C" fn(user: *mut c_void, ptr: *mut c_void, size: usize, align: usize),
    >,
    /// Passed to both.
    pub user: *mut c_void,
}

/// A model loaded by `scenedec_load`: its scene and the blocks holding it.
/// Opaque; free it with `scenedec_loaded_free`.
pub struct scenedec_loaded {
    allocator: scenedec_allocator,
    /// The decompressed model (Yaz0 input), or NULL.
    unwrapped: Block,
    /// The arena.
    arena: Block,
    scene: scenedec_scene,
}

/// One block from the caller's allocator.
#[derive(Clone, Copy, Debug)]
struct Block {
    ptr: *mut u8,
    size: usize,
    align: usize,
}

impl Block {
    const NONE: Self = Self {
        ptr: core::ptr::null_mut(),
        size: 0,
        align: 1,
    };
}

/// Allocates `size` (at least 1) bytes aligned to `align`.
fn allocate(a: &scenedec_allocator, size: usize, align: usize) -> Option<Block> {
    let alloc = a.alloc?;
    let size = size.max(1);
    // SAFETY: the caller's allocator, called as its contract says.
    let ptr = unsafe { alloc(a.user, size, align) }.cast::<u8>();
    (!ptr.is_null()).then_some(Block { ptr, size, align })
}

fn release(a: &scenedec_allocator, block: Block) {
    if let (Some(free), false) = (a.free, block.ptr.is_null()) {
        // SAFETY: a block this allocator returned, with its size and alignment.
        unsafe { free(a.user, block.ptr.cast(), block.size, block.align) };
    }
}

/// Loads a model: unwraps Yaz0 into a block of the caller's allocator,
/// allocates a `scenedec_workspace` (freed before returning), measures,
/// allocates the arena (one block of the plan's size) and the handle (a
/// small block), decodes. `*loaded_out` is the handle;
/// `scenedec_loaded_scene` gives its scene, valid until
/// `scenedec_loaded_free`. `bytes` must outlive the handle (names point into
/// it) unless it was Yaz0 (then the decompressed copy is the handle's).
///
/// Returns `SCENEDEC_STATUS_OK`; `SCENEDEC_STATUS_NULL_ARGUMENT` when
/// `allocator` or `loaded_out` is NULL (or `bytes` NULL with `len` > 0);
/// `SCENEDEC_STATUS_INVALID_ARGUMENT` for an allocator without both
/// functions, a hint that is not UTF-8 or bad options;
/// `SCENEDEC_STATUS_OUT_OF_MEMORY` when `alloc` returned NULL;
/// `SCENEDEC_STATUS_ERROR` with `error` filled by the decode's error. On
/// any failure every block allocated so far has been freed and
/// `*loaded_out` is NULL. `warnings_out` (may be NULL) is written on success.
///
/// # Safety
/// As for `scenedec_decode_into`; `allocator` is readable and its functions
/// behave as `scenedec_allocator` says; `loaded_out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_load(
    bytes: *const u8,
    len: usize,
    hint: *const c_char,
    options: *const scenedec_options,
    allocator: *const scenedec_allocator,
    warnings_out: *mut scenedec_warnings,
    loaded_out: *mut *mut scenedec_loaded,
    error: *mut scenedec_error,
) -> scenedec_status {
    guard(|| {
        if loaded_out.is_null() {
            return SCENEDEC_STATUS_NULL_ARGUMENT;
        }
        // SAFETY: writable (the contract).
        unsafe { loaded_out.write(core::ptr::null_mut()) };
        // SAFETY: NULL or readable (the contract).
        let Some(allocator) = (unsafe { allocator.as_ref() }).copied() else {
            return SCENEDEC_STATUS_NULL_ARGUMENT;
        };
        if allocator.alloc.is_none() || allocator.free.is_none() {
            return SCENEDEC_STATUS_INVALID_ARGUMENT;
        }
        // SAFETY: the function's contract.
        let model = try_status!(unsafe { input(bytes, len) });
        // SAFETY: the function's contract.
        let hint = try_status!(unsafe { crate::entry::hint(hint) });
        let run = |options: &decoder::Options<'_>| {
            // Every block goes back on every failure path.
            let mut blocks = [Block::NONE; 3];
            let fail = |blocks: &[Block; 3], status: scenedec_status| {
                for b in blocks {
                    release(&allocator, *b);
                }
                status
            };
            let unwrapped_len = match decoder::unwrapped_len(model, options) {
                Ok(n) => n,
                // SAFETY: NULL or writable (the contract).
                Err(e) => return unsafe { report(&e, error) },
            };
            let model: &[u8] = if unwrapped_len > 0 {
                let Some(block) = allocate(&allocator, unwrapped_len, 1) else {
                    return SCENEDEC_STATUS_OUT_OF_MEMORY;
                };
                blocks[0] = block;
                // SAFETY: a fresh block of at least `unwrapped_len` bytes, ours alone.
                let Some(out) = (unsafe { slice_mut(block.ptr, unwrapped_len) }) else {
                    return fail(&blocks, SCENEDEC_STATUS_OUT_OF_MEMORY);
                };
                match decoder::unwrap_into(model, options, &mut Arena::new(out)) {
                    Ok(inner) => inner,
                    // SAFETY: NULL or writable (the contract).
                    Err(e) => return fail(&blocks, unsafe { report(&e, error) }),
                }
            } else {
                model
            };
            // The working state (the measuring scratch and the warning list)
            // goes in a block of its own, off the stack, freed before returning.
            let ws_size = crate::scenedec_workspace_size();
            let Some(ws_block) = allocate(&allocator, ws_size, crate::SCENEDEC_WORKSPACE_ALIGN)
            else {
                return fail(&blocks, SCENEDEC_STATUS_OUT_OF_MEMORY);
            };
            blocks[2] = ws_block;
            // SAFETY: a fresh block of the workspace's size, ours alone.
            let ws = unsafe { crate::scenedec_workspace_init(ws_block.ptr.cast(), ws_size) };
            // SAFETY: NULL (a misaligned block) or the workspace just made.
            let Some(ws) = (unsafe { crate::workspace::workspace(ws) }) else {
                return fail(&blocks, SCENEDEC_STATUS_INVALID_ARGUMENT);
            };
            let plan = match crate::entry::measure(model, hint, options, Some(&mut ws.scratch)) {
                Ok(plan) => plan,
                // SAFETY: NULL or writable (the contract).
                Err(e) => return fail(&blocks, unsafe { report(&e, error) }),
            };
            let Some(block) = allocate(&allocator, plan.arena_bytes(), MAX_ALIGN) else {
                return fail(&blocks, SCENEDEC_STATUS_OUT_OF_MEMORY);
            };
            blocks[1] = block;
            if block.ptr.align_offset(MAX_ALIGN) != 0 {
                return fail(&blocks, SCENEDEC_STATUS_INVALID_ARGUMENT);
            }
            // SAFETY: a fresh block of `plan.arena_bytes()` bytes (at least 1), ours alone.
            let Some(memory) = (unsafe { slice_mut(block.ptr, plan.arena_bytes()) }) else {
                return fail(&blocks, SCENEDEC_STATUS_OUT_OF_MEMORY);
            };
            let mut carver = Arena::new(memory);
            let scene = match decoder::decode_with_plan(
                model,
                hint,
                options,
                &plan,
                &mut carver,
                &mut ws.warnings,
            ) {
                Ok(scene) => scene,
                // SAFETY: NULL or writable (the contract).
                Err(e) => return fail(&blocks, unsafe { report(&e, error) }),
            };
            let view = scenedec_scene::new(&scene, block.ptr, carver.used(), plan.counts());
            let size = core::mem::size_of::<scenedec_loaded>();
            let align = core::mem::align_of::<scenedec_loaded>();
            let Some(handle) = allocate(&allocator, size, align) else {
                return fail(&blocks, SCENEDEC_STATUS_OUT_OF_MEMORY);
            };
            let handle = handle.ptr.cast::<scenedec_loaded>();
            // SAFETY: a fresh block of the handle's size and alignment; `write`
            // reads nothing of it. `loaded_out` is writable (the contract).
            unsafe {
                handle.write(scenedec_loaded {
                    allocator,
                    unwrapped: blocks[0],
                    arena: blocks[1],
                    scene: view,
                });
                copy_warnings(&ws.warnings, warnings_out);
                loaded_out.write(handle);
            }
            release(&allocator, blocks[2]);
            SCENEDEC_STATUS_OK
        };
        // SAFETY: the function's contract.
        try_status!(unsafe { with_options(options, run) })
    })
}

/// The scene of a loaded model: owned by `loaded`, valid until
/// `scenedec_loaded_free(loaded)`. NULL for a NULL `loaded`.
///
/// # Safety
/// `loaded` is NULL or a live handle from `scenedec_load`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_loaded_scene(
    loaded: *const scenedec_loaded,
) -> *const scenedec_scene {
    // SAFETY: NULL or live (the contract).
    match unsafe { loaded.as_ref() } {
        Some(l) => &l.scene,
        None => core::ptr::null(),
    }
}

/// Frees a loaded model's blocks and the handle, through the allocator it
/// was loaded with. NULL is ignored. The handle and its scene are invalid
/// afterwards.
///
/// # Safety
/// `loaded` is NULL or a live handle from `scenedec_load`, freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_loaded_free(loaded: *mut scenedec_loaded) {
    if loaded.is_null() {
        return;
    }
    let _ = guard(|| {
        // SAFETY: a live handle (the contract), read once before freeing.
        let l = unsafe { loaded.read() };
        release(&l.allocator, l.unwrapped);
        release(&l.allocator, l.arena);
        release(
            &l.allocator,
            Block {
                ptr: loaded.cast(),
                size: core::mem::size_of::<scenedec_loaded>(),
                align: core::mem::align_of::<scenedec_loaded>(),
            },
        );
        SCENEDEC_STATUS_OK
    });
}
