//! `scenedec_workspace`: the decoder's working state in caller memory, so
//! that a decode needs little stack. It holds the measuring pass's scratch
//! (the 32 KiB inflate window images are checked through, the PNG
//! decoder's 25 KiB of state and the .bbmodel walks' 26 KiB of tables) and
//! the library's warning list (about 36 KiB); without it both sit on the stack
//! of `scenedec_measure` / `scenedec_decode_into`.

use core::ffi::c_void;

use decoder::{MeasureScratch, Warnings};

/// Bytes a `scenedec_workspace` needs: give `scenedec_workspace_init` at
/// least this many, 8-aligned (e.g. `static uint64_t
/// ws[SCENEDEC_WORKSPACE_BYTES / 8];`). `scenedec_workspace_size()` says the
/// exact figure of the linked library.
pub const SCENEDEC_WORKSPACE_BYTES: usize = 128 * 1024;

/// The alignment `scenedec_workspace_init` needs of its memory.
pub const SCENEDEC_WORKSPACE_ALIGN: usize = 8;

/// The decoder's working state, in memory the caller owns (see
/// `scenedec_workspace_init`). Opaque; reusable from call to call, one call
/// at a time.
pub struct scenedec_workspace {
    pub(crate) scratch: MeasureScratch,
    pub(crate) warnings: Warnings,
}

const _: () = assert!(core::mem::size_of::<scenedec_workspace>() <= SCENEDEC_WORKSPACE_BYTES);
const _: () = assert!(core::mem::align_of::<scenedec_workspace>() <= SCENEDEC_WORKSPACE_ALIGN);

/// A fresh workspace as a constant, so that writing it copies into the
/// caller's memory without building a 118 KiB value on the stack first.
const FRESH: scenedec_workspace = scenedec_workspace {
    scratch: MeasureScratch::new(),
    warnings: Warnings::new(),
};

/// Bytes of a `scenedec_workspace` in this library (at most
/// `SCENEDEC_WORKSPACE_BYTES`).
#[unsafe(no_mangle)]
pub extern "C" fn scenedec_workspace_size() -> usize {
    core::mem::size_of::<scenedec_workspace>()
}

/// Makes a workspace in `memory` (`len` bytes, 8-aligned) and returns it,
/// pointing into `memory`; NULL when `memory` is NULL, misaligned or
/// shorter than `scenedec_workspace_size()`. Nothing is allocated and
/// nothing needs freeing: the workspace lives as long as `memory`. Pass it
/// to `scenedec_measure_with` and `scenedec_decode_into_with`.
///
/// # Safety
/// `memory` is NULL or `len` writable bytes that nothing else uses while
/// the workspace does.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_workspace_init(
    memory: *mut c_void,
    len: usize,
) -> *mut scenedec_workspace {
    let at = memory.cast::<scenedec_workspace>();
    if at.is_null()
        || len < core::mem::size_of::<scenedec_workspace>()
        || at.align_offset(core::mem::align_of::<scenedec_workspace>()) != 0
    {
        return core::ptr::null_mut();
    }
    // SAFETY: `at` is aligned and has room (checked above) and is writable
    // (the contract); `write` reads nothing of the old bytes.
    unsafe { at.write(FRESH) };
    at
}

/// The workspace behind `ws`.
///
/// # Safety
/// `ws` is NULL or from `scenedec_workspace_init`, its memory alive and
/// used by no other call.
pub(crate) unsafe fn workspace<'w>(
    ws: *mut scenedec_workspace,
) -> Option<&'w mut scenedec_workspace> {
    // SAFETY: NULL or a live workspace of this call alone (the contract).
    unsafe { ws.as_mut() }
}
