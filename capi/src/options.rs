//! How to read a model, as C sets it: every limit of both formats (by
//! name too), the texture files offered to a .bbmodel, J3D's skip-texels.

use core::ffi::{CStr, c_char};

use decoder::{BbmodelLimits, Error, J3dLimits, Options};

use crate::scene::bytes;
use crate::{
    SCENEDEC_STATUS_INVALID_ARGUMENT, SCENEDEC_STATUS_NULL_ARGUMENT, SCENEDEC_STATUS_OK, guard,
    scenedec_error, scenedec_status,
};

/// Most texture files one `scenedec_options` may offer (the library's list
/// of them is built on the stack, since nothing here allocates).
pub const SCENEDEC_MAX_TEXTURE_FILES: usize = 64;

/// Most J3D animation files one `scenedec_options` may offer (listed on the
/// stack like the texture files).
pub const SCENEDEC_MAX_ANIMATION_FILES: usize = 32;

/// The conversions both ways between a C limits struct and the library's,
/// field for field; a field the library adds fails this build.
macro_rules! limits_convert {
    ($c:ident = $rust:ident { $($field:ident),* $(,)? }) => {
        impl From<$rust> for $c {
            fn from(l: $rust) -> Self {
                let $rust { $($field),* } = l;
                Self { $($field),* }
            }
        }

        impl From<$c> for $rust {
            fn from(l: $c) -> Self {
                let $c { $($field),* } = l;
                Self { $($field),* }
            }
        }
    };
}

/// .bbmodel limits (the loader specification's table); UINT64_MAX is
/// unlimited. By name: `maxFileBytes`, `maxElements`, … (camelCase).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct scenedec_bbmodel_limits {
    /// maxFileBytes.
    pub max_file_bytes: u64,
    /// maxElements.
    pub max_elements: u64,
    /// maxGroups.
    pub max_groups: u64,
    /// maxTriangles.
    pub max_triangles: u64,
    /// maxVertices.
    pub max_vertices: u64,
    /// maxFaceVertices.
    pub max_face_vertices: u64,
    /// maxNesting.
    pub max_nesting: u64,
    /// maxTextures.
    pub max_textures: u64,
    /// maxTextureSide.
    pub max_texture_side: u64,
    /// maxTexturePixels.
    pub max_texture_pixels: u64,
    /// maxDataUriChars.
    pub max_data_uri_chars: u64,
    /// maxTextureBytes.
    pub max_texture_bytes: u64,
    /// maxStringChars.
    pub max_string_chars: u64,
    /// maxAnimations.
    pub max_animations: u64,
    /// maxKeyframes.
    pub max_keyframes: u64,
    /// maxDecompressedBytes (`<lz>` backups).
    pub max_decompressed_bytes: u64,
    /// maxMolangChars.
    pub max_molang_chars: u64,
    /// maxMolangDepth.
    pub max_molang_depth: u64,
    /// maxMolangStatements.
    pub max_molang_statements: u64,
    /// maxMolangSteps.
    pub max_molang_steps: u64,
}

limits_convert!(
    scenedec_bbmodel_limits = BbmodelLimits {
        max_file_bytes,
        max_elements,
        max_groups,
        max_triangles,
        max_vertices,
        max_face_vertices,
        max_nesting,
        max_textures,
        max_texture_side,
        max_texture_pixels,
        max_data_uri_chars,
        max_texture_bytes,
        max_string_chars,
        max_animations,
        max_keyframes,
        max_decompressed_bytes,
        max_molang_chars,
        max_molang_depth,
        max_molang_statements,
        max_molang_steps
    }
);

/// J3D limits (scenedec's own table); UINT64_MAX is unlimited. By name:
/// `maxFileBytes`, `maxJoints`, … (camelCase, as the command line), or the
/// field names, `max_joints`, … (snake_case).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct scenedec_j3d_limits {
    /// File bytes after Yaz0.
    pub max_file_bytes: u64,
    /// Scene vertices.
    pub max_vertices: u64,
    /// Triangles.
    pub max_triangles: u64,
    /// JNT1 joints.
    pub max_joints: u64,
    /// SHP1 shapes.
    pub max_shapes: u64,
    /// SHP1 packets.
    pub max_packets: u64,
    /// MAT3 materials.
    pub max_materials: u64,
    /// TEX1 textures.
    pub max_textures: u64,
    /// Texture width or height.
    pub max_texture_side: u64,
    /// Texels of one texture's levels.
    pub max_texture_pixels: u64,
    /// RGBA8 bytes of all decoded levels.
    pub max_texture_bytes: u64,
    /// Bytes of one shape's display lists.
    pub max_display_list_bytes: u64,
    /// INF1 depth.
    pub max_depth: u64,
    /// Tracks of one animation file (TOO_MANY_KEYFRAMES).
    pub max_anim_tracks: u64,
    /// Keys and per-frame values of one animation file (TOO_MANY_KEYFRAMES).
    pub max_anim_keys: u64,
    /// Duration of an animation, in frames (TOO_MANY_KEYFRAMES).
    pub max_anim_frames: u64,
}

limits_convert!(
    scenedec_j3d_limits = J3dLimits {
        max_file_bytes,
        max_vertices,
        max_triangles,
        max_joints,
        max_shapes,
        max_packets,
        max_materials,
        max_textures,
        max_texture_side,
        max_texture_pixels,
        max_texture_bytes,
        max_display_list_bytes,
        max_depth,
        max_anim_tracks,
        max_anim_keys,
        max_anim_frames
    }
);

/// A texture file offered to a .bbmodel by name (the loader's
/// `textureFiles`): matched against textures that are not embedded.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scenedec_texture_file {
    /// The file's name (e.g. "skin.png"), UTF-8, `name_len` bytes, no NUL needed.
    pub name: *const c_char,
    /// Bytes of `name`.
    pub name_len: usize,
    /// The file's bytes (a PNG).
    pub bytes: *const u8,
    /// Bytes of `bytes`.
    pub len: usize,
}

/// A J3D animation file (BCK, BCA, BTK, BRK, BPK, BTP, BVA) offered to a
/// J3D model (the library's `Options::j3d.animations`): each becomes one
/// clip of the scene, named after `name`, in the order offered.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scenedec_animation_file {
    /// The file's name (e.g. "wait.bck"), UTF-8, `name_len` bytes, no NUL needed.
    pub name: *const c_char,
    /// Bytes of `name`.
    pub name_len: usize,
    /// The file's bytes (not Yaz0: unwrap them first).
    pub bytes: *const u8,
    /// Bytes of `bytes`.
    pub len: usize,
}

/// How to read a model. Fill it with `scenedec_options_init` first, then
/// change fields or call `scenedec_options_set_limit`. Plain data: the
/// library only reads it, during the call it is passed to (the texture
/// files must stay alive for that call only).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scenedec_options {
    /// .bbmodel limits.
    pub bbmodel: scenedec_bbmodel_limits,
    /// J3D limits.
    pub j3d: scenedec_j3d_limits,
    /// Texture files offered to a .bbmodel (NULL when `texture_file_count` is 0).
    pub texture_files: *const scenedec_texture_file,
    /// Entries of `texture_files`, at most `SCENEDEC_MAX_TEXTURE_FILES`.
    pub texture_file_count: usize,
    /// Nonzero: J3D texels are left out (texture records without pixels).
    pub skip_texels: u8,
    /// J3D animation files to attach (NULL when `animation_file_count` is 0).
    pub animation_files: *const scenedec_animation_file,
    /// Entries of `animation_files`, at most `SCENEDEC_MAX_ANIMATION_FILES`.
    pub animation_file_count: usize,
}

impl Default for scenedec_options {
    fn default() -> Self {
        Self {
            bbmodel: BbmodelLimits::DEFAULT.into(),
            j3d: J3dLimits::DEFAULT.into(),
            texture_files: core::ptr::null(),
            texture_file_count: 0,
            skip_texels: 0,
            animation_files: core::ptr::null(),
            animation_file_count: 0,
        }
    }
}

/// The library's lists of files (name, bytes) an options struct offers,
/// room for `T` texture and `A` animation files.
pub(crate) struct Files<'o, const T: usize, const A: usize> {
    textures: [(&'o str, &'o [u8]); T],
    animations: [(&'o str, &'o [u8]); A],
}

/// Files of each kind that [`with_options`] lists on a small frame (32
/// bytes each); more take the full lists' frame (3 KiB).
const FEW_FILES: usize = 8;

impl<const T: usize, const A: usize> Files<'_, T, A> {
    pub(crate) const fn new() -> Self {
        Self {
            textures: [("", &[]); T],
            animations: [("", &[]); A],
        }
    }
}

/// Copies `count` (name, bytes) pairs at `at`, read by `get`, into `out`.
///
/// # Safety
/// `at` is NULL only when `count` is 0, else points to `count` readable
/// entries whose names and bytes are readable for `'o`.
unsafe fn list<'o, T: Copy>(
    at: *const T,
    count: usize,
    out: &mut [(&'o str, &'o [u8])],
    get: impl Fn(T) -> (*const c_char, usize, *const u8, usize),
) -> Result<usize, scenedec_status> {
    if count > out.len() {
        return Err(SCENEDEC_STATUS_INVALID_ARGUMENT);
    }
    if count > 0 && at.is_null() {
        return Err(SCENEDEC_STATUS_NULL_ARGUMENT);
    }
    for (i, slot) in out.iter_mut().take(count).enumerate() {
        // SAFETY: `count` readable entries (the contract).
        let (name, name_len, data, len) = get(unsafe { *at.add(i) });
        // SAFETY: the file's name and bytes are readable for `'o` (the contract).
        let (name, data) = unsafe { (bytes(name.cast(), name_len), bytes(data, len)) };
        let name = core::str::from_utf8(name).map_err(|_| SCENEDEC_STATUS_INVALID_ARGUMENT)?;
        *slot = (name, data);
    }
    Ok(count)
}

/// The library's options for `options` (NULL: the defaults), with the
/// texture and animation files listed in `storage`.
///
/// # Safety
/// `options` is NULL or readable, and its files are readable for `'o`.
pub(crate) unsafe fn to_rust<'o, const T: usize, const A: usize>(
    options: *const scenedec_options,
    storage: &'o mut Files<'o, T, A>,
) -> Result<Options<'o>, scenedec_status> {
    // SAFETY: NULL or readable (the contract).
    let c = unsafe { options.as_ref() }.copied().unwrap_or_default();
    // SAFETY: the files are readable for `'o` (the contract).
    let textures = unsafe {
        list(
            c.texture_files,
            c.texture_file_count,
            &mut storage.textures,
            |f| (f.name, f.name_len, f.bytes, f.len),
        )?
    };
    // SAFETY: as above.
    let animations = unsafe {
        list(
            c.animation_files,
            c.animation_file_count,
            &mut storage.animations,
            |f| (f.name, f.name_len, f.bytes, f.len),
        )?
    };
    let mut out = Options::default();
    out.bbmodel.limits = c.bbmodel.into();
    out.bbmodel.texture_files = &storage.textures[..textures];
    out.j3d.limits = c.j3d.into();
    out.j3d.skip_texels = c.skip_texels != 0;
    out.j3d.animations = &storage.animations[..animations];
    Ok(out)
}

/// Runs `f` with the library's options for `options` (NULL: the defaults).
///
/// Without texture or animation files (the usual case) the options are
/// built here, with no file list; with files, in [`with_files`], whose
/// frame alone holds the list's few KiB, so the call without files never
/// reserves them.
///
/// # Safety
/// `options` is NULL or readable, and its files are readable during the call.
pub(crate) unsafe fn with_options<R>(
    options: *const scenedec_options,
    f: impl FnOnce(&Options<'_>) -> R,
) -> Result<R, scenedec_status> {
    // SAFETY: NULL or readable (the contract).
    let c = unsafe { options.as_ref() }.copied().unwrap_or_default();
    if c.texture_file_count == 0 && c.animation_file_count == 0 {
        let mut out = Options::default();
        out.bbmodel.limits = c.bbmodel.into();
        out.j3d.limits = c.j3d.into();
        out.j3d.skip_texels = c.skip_texels != 0;
        return Ok(f(&out));
    }
    if c.texture_file_count <= FEW_FILES && c.animation_file_count <= FEW_FILES {
        // SAFETY: the function's contract.
        unsafe { with_files::<FEW_FILES, FEW_FILES, R>(options, f) }
    } else {
        // SAFETY: the function's contract.
        unsafe {
            with_files::<SCENEDEC_MAX_TEXTURE_FILES, SCENEDEC_MAX_ANIMATION_FILES, R>(options, f)
        }
    }
}

/// [`with_options`] for options that offer files: lists them on this
/// frame (room for `T` texture and `A` animation files), kept out of the
/// callers' frames.
///
/// # Safety
/// As [`with_options`].
#[inline(never)]
unsafe fn with_files<const T: usize, const A: usize, R>(
    options: *const scenedec_options,
    f: impl FnOnce(&Options<'_>) -> R,
) -> Result<R, scenedec_status> {
    let mut files = Files::<T, A>::new();
    // SAFETY: the function's contract.
    let options = unsafe { to_rust(options, &mut files) }?;
    Ok(f(&options))
}

/// Fills `options` with the defaults: both formats' default limits, no
/// texture files, texels decoded. NULL is ignored.
///
/// # Safety
/// `options` is NULL or points to a writable `scenedec_options`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_options_init(options: *mut scenedec_options) {
    if !options.is_null() {
        // SAFETY: writable (the contract); `write` never reads the old value.
        unsafe { options.write(scenedec_options::default()) };
    }
}

/// Sets one limit by name, in the command line's one namespace: the
/// library's camelCase names (`"maxFaceVertices"`, `"maxJoints"`); a name
/// both formats have (`"maxFileBytes"`, `"maxTriangles"`, `"maxVertices"`,
/// `"maxTextures"`, `"maxTextureSide"`, `"maxTexturePixels"`,
/// `"maxTextureBytes"`) sets both. A J3D limit may also be named by its
/// field (`"max_joints"`, snake_case): that sets the J3D limit alone.
/// `value` must be a positive integer or `INFINITY` (unlimited), the
/// specification's rule for overrides.
///
/// Returns `SCENEDEC_STATUS_OK`; `SCENEDEC_STATUS_NULL_ARGUMENT` when
/// `options` or `name` is NULL; `SCENEDEC_STATUS_INVALID_ARGUMENT` when
/// `name` is not UTF-8; `SCENEDEC_STATUS_ERROR` with `error` (may be NULL)
/// holding `SCENEDEC_ERROR_INVALID_LIMIT` for an unknown name or a bad
/// value. `options` is unchanged on failure.
///
/// # Safety
/// `options` is NULL or writable and initialised (`scenedec_options_init`);
/// `name` is NULL or NUL-terminated; `error` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scenedec_options_set_limit(
    options: *mut scenedec_options,
    name: *const c_char,
    value: f64,
    error: *mut scenedec_error,
) -> scenedec_status {
    guard(|| {
        // SAFETY: NULL or writable and initialised (the contract).
        let Some(options) = (unsafe { options.as_mut() }) else {
            return SCENEDEC_STATUS_NULL_ARGUMENT;
        };
        if name.is_null() {
            return SCENEDEC_STATUS_NULL_ARGUMENT;
        }
        // SAFETY: NUL-terminated (the contract).
        let Ok(name) = unsafe { CStr::from_ptr(name) }.to_str() else {
            return SCENEDEC_STATUS_INVALID_ARGUMENT;
        };
        match set_limit(options, name, value) {
            Ok(()) => SCENEDEC_STATUS_OK,
            // SAFETY: NULL or writable (the contract).
            Err(e) => unsafe { crate::errors::report(&e, error) },
        }
    })
}

/// Longest snake_case J3D field name that [`camel_case`] turns around.
const FIELD_NAME_BYTES: usize = 64;

/// Sets `name` in whichever tables have it (both for a shared name), by
/// the library's one namespace (`limits::override_model_limit`, the
/// command line's); a snake_case J3D field name sets the J3D table alone.
/// Nothing changes on failure.
fn set_limit(options: &mut scenedec_options, name: &str, value: f64) -> Result<(), Error> {
    let mut bbmodel = BbmodelLimits::from(options.bbmodel);
    let mut j3d = J3dLimits::from(options.j3d);
    let mut buffer = [0u8; FIELD_NAME_BYTES];
    match camel_case(name, &mut buffer) {
        // A field name the J3D table does not have keeps its own spelling
        // in the error.
        Some(camel) if j3d.get(camel).is_some() => j3d = j3d.with_override(camel, value)?,
        Some(_) => j3d = j3d.with_override(name, value)?,
        None => decoder::limits::override_model_limit(&mut bbmodel, &mut j3d, name, value)?,
    }
    options.bbmodel = bbmodel.into();
    options.j3d = j3d.into();
    Ok(())
}

/// `max_joints` as `maxJoints`, in `buffer`; None for a name with no `_`
/// (or too long to be a field).
fn camel_case<'b>(name: &str, buffer: &'b mut [u8; FIELD_NAME_BYTES]) -> Option<&'b str> {
    if !name.contains('_') || name.len() > FIELD_NAME_BYTES {
        return None;
    }
    let mut len = 0;
    let mut upper = false;
    for b in name.bytes() {
        if b == b'_' {
            upper = true;
            continue;
        }
        *buffer.get_mut(len)? = if upper { b.to_ascii_uppercase() } else { b };
        upper = false;
        len += 1;
    }
    core::str::from_utf8(buffer.get(..len)?).ok()
}
