//! The two-pass contract in C: sniff, unwrap Yaz0, measure, decode into
//! the caller's arena. None of these functions allocates.

use core::ffi::{CStr, c_char};

use decoder::arena::MAX_ALIGN as MAX_ALIGN_BYTES;
use decoder::{Arena, Warnings};

use crate::errors::{copy_warnings, report};
use crate::options::with_options;
use crate::scene::bytes;
use crate::{
    SCENEDEC_STATUS_INVALID_ARGUMENT, SCENEDEC_STATUS_NULL_ARGUMENT, SCENEDEC_STATUS_OK, guard,
    scenedec_error, scenedec_format, scenedec_options, scenedec_scene, scenedec_status,
    scenedec_warnings, scenedec_workspace,
};

/// What a decode needs, from `scenedec_measure`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_plan {
    /// Exact arena bytes from an `arena_align`-aligned start: one byte fewer
    /// fails with `SCENEDEC_ERROR_ARENA_TOO_SMALL`.
    pub arena_bytes: usize,
    /// The alignment `arena_bytes` assumes (8).
    pub arena_align: usize,
    /// Bytes that are enough whatever the arena's alignment
    /// (`arena_bytes + arena_align - 1`).
    pub arena_bytes_unaligned: usize,
}

/// The format hint: NULL is none; a hint that is not UTF-8 is an error.
///
/// # Safety
/// `hint` is NULL or NUL-terminated.
pub(crate) unsafe fn hint<'h>(hint: *const c_char) -> Result<Option<&'h str>, scenedec_status> {
    if hint.is_null() {
        return Ok(None);
    }
    // SAFETY: NUL-terminated (the contract).
    let c = unsafe { CStr::from_ptr(hint) };
    c.to_str()
        .map(Some)
        .map_err(|_| SCENEDEC_STATUS_INVALID_ARGUMENT)
}

/// `len` bytes at `ptr`, NULL allowed only when `len` is 0.
///
/// # Safety
/// A non-NULL `ptr` points to `len` readable bytes alive for `'a`.
pub(crate) unsafe fn input<'a>(ptr: *const u8, len: usize) -> Result<&'a [u8], scenedec_status> {
    if ptr.is_null() && len > 0 {
        return Err(SCENEDEC_STATUS_NULL_ARGUMENT);
    }
    // SAFETY: the contract.
    Ok(unsafe { bytes(ptr, len) })
}

/// Unwraps a `Result` of a status, returning the status on `Err`.
macro_rules! try_status {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(status) => return status,
        }
    };
}
pub(crate) use try_status;

/// The format of (unwrapped) `bytes`: J3D or .bbmodel. `hint` (NULL or the
/// file's extension without the dot, e.g. "bbmodel") is used only when the
/// bytes do not tell.
///
/// Returns `SCENEDEC_STATUS_OK` with `*format_out` set;
/// `SCENEDEC_STATUS_NULL_ARGUMENT` when `format_out` is NULL or `bytes` is
/// NULL with `len` > 0; `SCENEDEC_STATUS_INVALID_ARGUMENT` for a hint that is
/// not UTF-8; `SCENEDEC_STATUS_ERROR` with `error` (may be NULL) filled:
/// UNKNOWN_FORMAT, ARCHIVE_NOT_MODEL, COMPRESSED_BBMODEL, or BAD_VALUE for
/// Yaz0 data (unwrap it first).
///
/// # Safety
/// `bytes` points to `len` readable bytes; `hint` is NULL or NUL-terminated;
/// `format_out` and `error` are NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_format_of(
    bytes: *const u8,
    len: usize,
    hint: *const c_char,
    format_out: *mut scenedec_format,
    error: *mut scenedec_error,
) -> scenedec_status {
    guard(|| {
        // SAFETY: the function's contract.
        let model = try_status!(unsafe { input(bytes, len) });
        // SAFETY: the function's contract.
        let hint = try_status!(unsafe { self::hint(hint) });
        if format_out.is_null() {
            return SCENEDEC_STATUS_NULL_ARGUMENT;
        }
        match decoder::format_of(model, hint) {
            // SAFETY: writable (the contract).
            Ok(format) => unsafe { format_out.write(format.into()) },
            // SAFETY: NULL or writable (the contract).
            Err(e) => return unsafe { report(&e, error) },
        }
        SCENEDEC_STATUS_OK
    })
}

/// Bytes `scenedec_unwrap_into` needs for Yaz0-compressed `bytes` (the
/// header's size, checked against the J3D file limit) or a Blockbench `<lz>`
/// backup (its stream walked, checked against maxDecompressedBytes), or 0
/// for bytes that are not compressed: those are decoded in place.
///
/// Returns `SCENEDEC_STATUS_OK` with `*len_out` set;
/// `SCENEDEC_STATUS_NULL_ARGUMENT` when `len_out` is NULL or `bytes` is NULL
/// with `len` > 0; `SCENEDEC_STATUS_INVALID_ARGUMENT` for bad options;
/// `SCENEDEC_STATUS_ERROR` (BAD_YAZ0, COMPRESSED_BBMODEL for a broken `<lz>`
/// stream, FILE_TOO_LARGE) with `error` filled.
///
/// # Safety
/// As for `scenedec_format_of`; `options` is NULL (defaults) or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_unwrapped_len(
    bytes: *const u8,
    len: usize,
    options: *const scenedec_options,
    len_out: *mut usize,
    error: *mut scenedec_error,
) -> scenedec_status {
    guard(|| {
        // SAFETY: the function's contract.
        let model = try_status!(unsafe { input(bytes, len) });
        let run = |options: &decoder::Options<'_>| {
            if len_out.is_null() {
                return SCENEDEC_STATUS_NULL_ARGUMENT;
            }
            match decoder::unwrapped_len(model, options) {
                // SAFETY: writable (the contract).
                Ok(n) => unsafe { len_out.write(n) },
                // SAFETY: NULL or writable (the contract).
                Err(e) => return unsafe { report(&e, error) },
            }
            SCENEDEC_STATUS_OK
        };
        // SAFETY: the function's contract.
        try_status!(unsafe { with_options(options, run) })
    })
}

/// Decompresses Yaz0 or `<lz>` `bytes` into `out` (`out_len` bytes, at least
/// `scenedec_unwrapped_len`'s answer) and sets `*model_out` / `*model_len_out`
/// to the J3D model or .bbmodel JSON inside it. Other bytes are passed through:
/// `*model_out = bytes`, `out` untouched (may be NULL then). The model then
/// lives as long as `out` (or `bytes`); decode it with `scenedec_decode_into`.
///
/// Returns `SCENEDEC_STATUS_OK`; `SCENEDEC_STATUS_NULL_ARGUMENT` for a NULL
/// output pointer (or `out` NULL for compressed input); `SCENEDEC_STATUS_ERROR`
/// with `error` filled: BAD_YAZ0, COMPRESSED_BBMODEL, FILE_TOO_LARGE,
/// ARENA_TOO_SMALL when `out_len` is short, UNKNOWN_FORMAT when the data
/// inside Yaz0 is no J3D model, NOT_JSON when `<lz>` holds no JSON.
///
/// # Safety
/// As for `scenedec_unwrapped_len`; `out` is NULL or `out_len` writable
/// bytes; `model_out` / `model_len_out` are writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_unwrap_into(
    bytes: *const u8,
    len: usize,
    options: *const scenedec_options,
    out: *mut u8,
    out_len: usize,
    model_out: *mut *const u8,
    model_len_out: *mut usize,
    error: *mut scenedec_error,
) -> scenedec_status {
    guard(|| {
        // SAFETY: the function's contract.
        let model = try_status!(unsafe { input(bytes, len) });
        let run = |options: &decoder::Options<'_>| {
            if model_out.is_null() || model_len_out.is_null() {
                return SCENEDEC_STATUS_NULL_ARGUMENT;
            }
            let needed = match decoder::unwrapped_len(model, options) {
                Ok(n) => n,
                // SAFETY: NULL or writable (the contract).
                Err(e) => return unsafe { report(&e, error) },
            };
            // Only what the decompression writes is handed to Rust (zeroed
            // first: C memory may be uninitialised); a short buffer still
            // reaches `unwrap_into`, which reports ARENA_TOO_SMALL.
            let take = if needed == 0 { 0 } else { needed.min(out_len) };
            // SAFETY: `out` is NULL or `out_len` ≥ `take` writable bytes (the contract).
            let Some(buffer) = (unsafe { crate::scene::slice_mut(out, take) }) else {
                return SCENEDEC_STATUS_NULL_ARGUMENT;
            };
            let mut arena = Arena::new(buffer);
            match decoder::unwrap_into(model, options, &mut arena) {
                Ok(inner) => {
                    // SAFETY: both writable (the contract).
                    unsafe {
                        model_out.write(inner.as_ptr());
                        model_len_out.write(inner.len());
                    }
                    SCENEDEC_STATUS_OK
                }
                // SAFETY: NULL or writable (the contract).
                Err(e) => unsafe { report(&e, error) },
            }
        };
        // SAFETY: the function's contract.
        try_status!(unsafe { with_options(options, run) })
    })
}

/// Checks unwrapped `bytes` against every limit and says how much arena
/// `scenedec_decode_into` needs, without decoding or allocating.
///
/// Returns `SCENEDEC_STATUS_OK` with `*plan_out` set;
/// `SCENEDEC_STATUS_NULL_ARGUMENT` / `SCENEDEC_STATUS_INVALID_ARGUMENT` as
/// for `scenedec_format_of` (and bad options); `SCENEDEC_STATUS_ERROR` with
/// `error` filled by any error code a decode can report but ARENA_TOO_SMALL.
///
/// # Safety
/// As for `scenedec_unwrapped_len`; `plan_out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_measure(
    bytes: *const u8,
    len: usize,
    hint: *const c_char,
    options: *const scenedec_options,
    plan_out: *mut scenedec_plan,
    error: *mut scenedec_error,
) -> scenedec_status {
    // SAFETY: the function's contract; no workspace.
    unsafe {
        scenedec_measure_with(
            bytes,
            len,
            hint,
            options,
            core::ptr::null_mut(),
            plan_out,
            error,
        )
    }
}

/// `scenedec_measure` with its scratch (the inflate window PNG textures are
/// checked through and the PNG decoder's state, 57 KiB) in `workspace`
/// rather than on the stack:
/// the same plan and the same statuses. `workspace` may be NULL (then it is
/// `scenedec_measure`).
///
/// # Safety
/// As for `scenedec_measure`; `workspace` is NULL or from
/// `scenedec_workspace_init`, used by no other call meanwhile.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_measure_with(
    bytes: *const u8,
    len: usize,
    hint: *const c_char,
    options: *const scenedec_options,
    workspace: *mut scenedec_workspace,
    plan_out: *mut scenedec_plan,
    error: *mut scenedec_error,
) -> scenedec_status {
    guard(|| {
        // SAFETY: the function's contract.
        let model = try_status!(unsafe { input(bytes, len) });
        // SAFETY: the function's contract.
        let hint = try_status!(unsafe { self::hint(hint) });
        let run = |options: &decoder::Options<'_>| {
            if plan_out.is_null() {
                return SCENEDEC_STATUS_NULL_ARGUMENT;
            }
            // SAFETY: NULL or a live workspace of this call alone (the contract).
            let ws = unsafe { crate::workspace::workspace(workspace) };
            match measure(model, hint, options, ws.map(|w| &mut w.scratch)) {
                // SAFETY: writable (the contract).
                Ok(plan) => unsafe {
                    plan_out.write(scenedec_plan {
                        arena_bytes: plan.arena_bytes(),
                        arena_align: MAX_ALIGN_BYTES,
                        arena_bytes_unaligned: plan.arena_bytes_unaligned(),
                    });
                },
                // SAFETY: NULL or writable (the contract).
                Err(e) => return unsafe { report(&e, error) },
            }
            SCENEDEC_STATUS_OK
        };
        // SAFETY: the function's contract.
        try_status!(unsafe { with_options(options, run) })
    })
}

/// The library's `measure_with` when there is a scratch, else `measure`.
pub(crate) fn measure(
    model: &[u8],
    hint: Option<&str>,
    options: &decoder::Options<'_>,
    scratch: Option<&mut decoder::MeasureScratch>,
) -> Result<decoder::Plan, decoder::Error> {
    match scratch {
        Some(scratch) => decoder::measure_with(model, hint, options, scratch),
        None => decoder::measure(model, hint, options),
    }
}

/// Decodes unwrapped `bytes` into the caller's `arena` (`arena_len` bytes:
/// the plan's `arena_bytes` from an 8-aligned start, `arena_bytes_unaligned`
/// from any) and fills `*scene_out` with pointers into `arena` and `bytes`:
/// the scene lives as long as both do, unchanged. Writes only `arena` (at
/// most the plan's bytes plus alignment padding), `*warnings_out`,
/// `*scene_out` and `*error`; allocates nothing. Keeps its working state
/// (about 118 KiB) on the stack; `scenedec_decode_into_with` takes it in
/// caller memory (docs/c-api.md has the stack each needs).
///
/// Returns `SCENEDEC_STATUS_OK`; `SCENEDEC_STATUS_NULL_ARGUMENT` when
/// `scene_out` is NULL, `bytes` is NULL with `len` > 0 or `arena` is NULL
/// with `arena_len` > 0; `SCENEDEC_STATUS_INVALID_ARGUMENT` for a hint that
/// is not UTF-8 or bad options; `SCENEDEC_STATUS_ERROR` with `error` filled
/// by the failure's code (ARENA_TOO_SMALL when `arena_len` is short). On
/// failure `*scene_out` and the arena hold nothing to use. `warnings_out`
/// (may be NULL) is written on success.
///
/// # Safety
/// `bytes` / `arena` point to `len` readable / `arena_len` writable bytes
/// that do not overlap; `hint` as for `scenedec_format_of`; `options` NULL
/// or readable; `warnings_out`, `scene_out`, `error` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_decode_into(
    bytes: *const u8,
    len: usize,
    hint: *const c_char,
    options: *const scenedec_options,
    arena: *mut u8,
    arena_len: usize,
    warnings_out: *mut scenedec_warnings,
    scene_out: *mut scenedec_scene,
    error: *mut scenedec_error,
) -> scenedec_status {
    // SAFETY: the function's contract; no workspace.
    unsafe {
        scenedec_decode_into_with(
            bytes,
            len,
            hint,
            options,
            core::ptr::null_mut(),
            arena,
            arena_len,
            warnings_out,
            scene_out,
            error,
        )
    }
}

/// `scenedec_decode_into` with its working state (the measuring scratch and
/// the library's warning list, about 118 KiB) in `workspace` rather than on
/// the stack: the same scene, warnings and statuses. `workspace` may be
/// NULL (then it is `scenedec_decode_into`). docs/c-api.md has the stack
/// either way needs.
///
/// # Safety
/// As for `scenedec_decode_into`; `workspace` is NULL or from
/// `scenedec_workspace_init`, used by no other call meanwhile.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_decode_into_with(
    bytes: *const u8,
    len: usize,
    hint: *const c_char,
    options: *const scenedec_options,
    workspace: *mut scenedec_workspace,
    arena: *mut u8,
    arena_len: usize,
    warnings_out: *mut scenedec_warnings,
    scene_out: *mut scenedec_scene,
    error: *mut scenedec_error,
) -> scenedec_status {
    guard(|| {
        // SAFETY: the function's contract.
        let model = try_status!(unsafe { input(bytes, len) });
        // SAFETY: the function's contract.
        let hint = try_status!(unsafe { self::hint(hint) });
        let run = |options: &decoder::Options<'_>| {
            if scene_out.is_null() {
                return SCENEDEC_STATUS_NULL_ARGUMENT;
            }
            // SAFETY: NULL or a live workspace of this call alone (the contract).
            match unsafe { crate::workspace::workspace(workspace) } {
                Some(ws) => {
                    ws.warnings.clear();
                    // SAFETY: the function's contract.
                    unsafe {
                        decode(
                            model,
                            hint,
                            options,
                            Some(&mut ws.scratch),
                            &mut ws.warnings,
                            (arena, arena_len),
                            warnings_out,
                            scene_out,
                            error,
                        )
                    }
                }
                // SAFETY: the function's contract.
                None => unsafe {
                    decode_own_warnings(
                        model,
                        hint,
                        options,
                        (arena, arena_len),
                        warnings_out,
                        scene_out,
                        error,
                    )
                },
            }
        };
        // SAFETY: the function's contract.
        try_status!(unsafe { with_options(options, run) })
    })
}

/// Measures and decodes `model` into `arena`, writing the outputs.
///
/// # Safety
/// As for `scenedec_decode_into` (`scene_out` not NULL).
/// [`decode`] with the library's warning list on this frame: kept out of
/// the entry point's frame, which a call with a workspace would otherwise
/// reserve it in (about 30 KiB) without using it.
///
/// # Safety
/// As [`decode`].
#[inline(never)]
unsafe fn decode_own_warnings(
    model: &[u8],
    hint: Option<&str>,
    options: &decoder::Options<'_>,
    arena: (*mut u8, usize),
    warnings_out: *mut scenedec_warnings,
    scene_out: *mut scenedec_scene,
    error: *mut scenedec_error,
) -> scenedec_status {
    let mut warnings = Warnings::new();
    // SAFETY: the function's contract.
    unsafe {
        decode(
            model,
            hint,
            options,
            None,
            &mut warnings,
            arena,
            warnings_out,
            scene_out,
            error,
        )
    }
}

#[allow(
    clippy::too_many_arguments,
    reason = "the C function's arguments, passed on"
)]
unsafe fn decode(
    model: &[u8],
    hint: Option<&str>,
    options: &decoder::Options<'_>,
    scratch: Option<&mut decoder::MeasureScratch>,
    warnings: &mut Warnings,
    (arena, arena_len): (*mut u8, usize),
    warnings_out: *mut scenedec_warnings,
    scene_out: *mut scenedec_scene,
    error: *mut scenedec_error,
) -> scenedec_status {
    let plan = match measure(model, hint, options, scratch) {
        Ok(plan) => plan,
        // SAFETY: NULL or writable (the contract).
        Err(e) => return unsafe { report(&e, error) },
    };
    // Hand Rust only what the plan carves (zeroed first: C memory may
    // be uninitialised); a short arena fails with ARENA_TOO_SMALL.
    let pad = arena.align_offset(MAX_ALIGN_BYTES);
    let take = plan.arena_bytes().saturating_add(pad).min(arena_len);
    // SAFETY: `arena` is NULL or `arena_len` ≥ `take` writable bytes (the contract).
    let Some(memory) = (unsafe { crate::scene::slice_mut(arena, take) }) else {
        return SCENEDEC_STATUS_NULL_ARGUMENT;
    };
    let mut carver = Arena::new(memory);
    let scene = match decoder::decode_with_plan(model, hint, options, &plan, &mut carver, warnings)
    {
        Ok(scene) => scene,
        // SAFETY: NULL or writable (the contract).
        Err(e) => return unsafe { report(&e, error) },
    };
    let used = carver.used();
    // SAFETY: NULL or writable (the contract).
    unsafe {
        copy_warnings(warnings, warnings_out);
        scene_out.write(scenedec_scene::new(&scene, arena, used, plan.counts()));
    }
    SCENEDEC_STATUS_OK
}
