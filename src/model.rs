//! One entry point for every format: sniff, unwrap Yaz0 or `<lz>`, measure, decode.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "sizes come from a Plan whose counts were checked against Limits and summed with checked arithmetic; padding is below MAX_ALIGN"
)]

use crate::arena::{Arena, Plan};
use crate::error::{Error, ErrorCode, Warnings};
use crate::scene::Scene;
use crate::sniff::{Kind, sniff};
use crate::{bbmodel, j3d, lzutf8, yaz0};

/// How to read a model of any format.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options<'o> {
    /// Options for J3D files.
    pub j3d: j3d::Options<'o>,
    /// Options for .bbmodel files.
    pub bbmodel: bbmodel::Options<'o>,
}

/// The model format of unwrapped bytes, or the error that says why it is none.
///
/// `hint` is the file's extension (without the dot), used only when the bytes
/// do not tell: an empty `.bbmodel` goes to the .bbmodel reader, which reports
/// NOT_JSON as the loader specification asks.
pub fn format_of(bytes: &[u8], hint: Option<&str>) -> Result<crate::scene::Format, Error> {
    use crate::scene::Format;
    match sniff(bytes) {
        Kind::J3dBmd | Kind::J3dBdl => Ok(Format::J3d),
        Kind::Bbmodel => Ok(Format::Bbmodel),
        Kind::CompressedBbmodel => Err(Error::binary(
            ErrorCode::CompressedBbmodel,
            0,
            None,
            format_args!("<lz> data must be unwrapped first (see unwrap_into)"),
        )),
        // Archives hold models; they are not one (src/rarc/ reads them).
        Kind::Rarc | Kind::Yaz0Rarc => Err(crate::sniff::archive_not_model(bytes)),
        Kind::Yaz0 => Err(Error::binary(
            ErrorCode::BadValue,
            0,
            None,
            format_args!("Yaz0 data must be unwrapped first (see unwrap_into)"),
        )),
        Kind::Unknown => match hint {
            Some(ext) if ext.eq_ignore_ascii_case("bbmodel") => Ok(Format::Bbmodel),
            _ => Err(crate::sniff::unknown_format(bytes)),
        },
    }
}

/// Whether `bytes` are a compressed model that [`unwrap_into`] unwraps
/// (Yaz0, or a Blockbench `<lz>` backup) rather than a model used in place.
pub(crate) fn is_wrapped(bytes: &[u8]) -> bool {
    matches!(sniff(bytes), Kind::Yaz0 | Kind::CompressedBbmodel)
}

/// Bytes the unwrapped model takes: the Yaz0 header's size, or what an
/// `<lz>` backup's stream writes (counted by walking it, bounded by
/// `maxDecompressedBytes`); 0 for bytes that are not compressed (they are
/// used in place).
pub fn unwrapped_len(bytes: &[u8], options: &Options<'_>) -> Result<usize, Error> {
    match sniff(bytes) {
        Kind::Yaz0 => {}
        Kind::CompressedBbmodel => {
            let len =
                lzutf8::decompressed_len(bytes, options.bbmodel.limits.max_decompressed_bytes)?;
            if len == 0 {
                // Blockbench's JSON.parse("") fails too; and 0 means "in place".
                return Err(not_json_inside(bytes));
            }
            return Ok(len);
        }
        _ => return Ok(0),
    }
    let len = yaz0::decompressed_len(bytes)?;
    crate::limits::check(
        len as u64,
        options.j3d.limits.max_file_bytes,
        ErrorCode::FileTooLarge,
        "decompressed Yaz0 bytes (maxFileBytes)",
        crate::error::Location::Binary {
            offset: 4,
            section: None,
        },
    )?;
    Ok(len)
}

/// The error for an `<lz>` backup whose text is no JSON (Blockbench's
/// `autoParseJSON` parses what it decompressed).
fn not_json_inside(inner: &[u8]) -> Error {
    let head = inner.get(..8).unwrap_or(inner);
    Error::binary(
        ErrorCode::NotJson,
        lzutf8::MAGIC.len() as u64,
        None,
        format_args!(
            "<lz> data decompresses to {}, not .bbmodel JSON",
            crate::error::Hex(head, inner.len() > head.len())
        ),
    )
}

/// Decompresses Yaz0 or `<lz>` input into `arena` and returns the model's
/// bytes; other input is returned as it is, without using the arena.
///
/// The size is checked against `options.j3d.limits.max_file_bytes` (Yaz0)
/// or `options.bbmodel.limits.max_decompressed_bytes` (`<lz>`) before
/// anything is written; the decompressed data must be a J3D model (Yaz0) or
/// JSON, a BOM allowed before it (`<lz>`).
pub fn unwrap_into<'a>(
    bytes: &'a [u8],
    options: &Options<'_>,
    arena: &mut Arena<'a>,
) -> Result<&'a [u8], Error> {
    if !is_wrapped(bytes) {
        return Ok(bytes);
    }
    let len = unwrapped_len(bytes, options)?;
    let out = arena.slice::<u8>(len)?;
    let inner: &'a [u8] = if sniff(bytes) == Kind::Yaz0 {
        yaz0::decompress_into(bytes, out)?;
        out
    } else {
        lzutf8::decompress_into(bytes, out)?;
        out
    };
    check_inner(bytes, inner)?;
    Ok(inner)
}

/// What decompressed data must be: J3D inside Yaz0, JSON inside `<lz>`.
fn check_inner(outer: &[u8], inner: &[u8]) -> Result<(), Error> {
    match (sniff(outer), sniff(inner)) {
        (Kind::Yaz0, Kind::J3dBmd | Kind::J3dBdl) | (Kind::CompressedBbmodel, Kind::Bbmodel) => {
            Ok(())
        }
        (Kind::CompressedBbmodel, _) => Err(not_json_inside(inner)),
        _ => Err(crate::sniff::unknown_format(inner)),
    }
}

/// Checks unwrapped `bytes` against the limits and returns the arena size
/// [`decode_into`] needs, without allocating. A .bbmodel's images are
/// checked through a 32 KiB window and 25 KiB of decoder state on the
/// stack; [`measure_with`] takes both from the caller.
pub fn measure(bytes: &[u8], hint: Option<&str>, options: &Options<'_>) -> Result<Plan, Error> {
    match format_of(bytes, hint)? {
        crate::scene::Format::J3d => j3d::measure(bytes, &options.j3d),
        crate::scene::Format::Bbmodel => bbmodel::measure(bytes, &options.bbmodel),
    }
}

/// What [`measure_with`] works in instead of the stack: the inflate window
/// a .bbmodel's images are checked through (32 KiB; a J3D model's
/// hierarchy check marks its seen-sets there), the PNG decoder's state
/// with the data URL's pieces (25 KiB) and the .bbmodel walks' tables (the
/// outliner's open groups, the counting pass's uuids and group keys, the
/// mesh face record: 26 KiB). Keep it in a `static` or the caller's own state; one serves
/// any number of calls.
pub struct MeasureScratch {
    window: crate::png::Window,
    image: bbmodel::ImageScratch,
    walk: bbmodel::WalkScratch,
}

impl MeasureScratch {
    /// A zeroed scratch.
    pub const fn new() -> Self {
        Self {
            window: crate::png::Window::new(),
            image: bbmodel::ImageScratch::new(),
            walk: bbmodel::WalkScratch::new(),
        }
    }

    /// The window's bytes as words, for a J3D measure's hierarchy
    /// seen-sets (32 KiB: more than [`j3d::inf1::MAX_SEEN_WORDS`] needs).
    /// Empty only if the window were not 4-aligned, which its type rules
    /// out; the check then uses the stack.
    fn words(&mut self) -> &mut [u32] {
        bytemuck::try_cast_slice_mut(&mut self.window.0).unwrap_or_default()
    }
}

impl Default for MeasureScratch {
    fn default() -> Self {
        Self::new()
    }
}

/// [`measure`] with its scratch in `scratch` rather than on the stack: the
/// same plan and the same errors, for callers with a small stack.
pub fn measure_with(
    bytes: &[u8],
    hint: Option<&str>,
    options: &Options<'_>,
    scratch: &mut MeasureScratch,
) -> Result<Plan, Error> {
    match format_of(bytes, hint)? {
        crate::scene::Format::J3d => j3d::measure_with(bytes, &options.j3d, scratch.words()),
        crate::scene::Format::Bbmodel => bbmodel::measure_in(
            bytes,
            &options.bbmodel,
            &mut scratch.window,
            &mut scratch.image,
            &mut scratch.walk,
        ),
    }
}

/// Decodes unwrapped `bytes` into `arena`, which needs at most
/// [`measure`]'s [`Plan::arena_bytes`] (from an 8-aligned start).
pub fn decode_into<'a>(
    bytes: &'a [u8],
    hint: Option<&str>,
    options: &Options<'_>,
    arena: &mut Arena<'a>,
    warnings: &mut Warnings,
) -> Result<Scene<'a>, Error> {
    match format_of(bytes, hint)? {
        crate::scene::Format::J3d => j3d::decode_into(bytes, &options.j3d, arena, warnings),
        crate::scene::Format::Bbmodel => {
            bbmodel::decode_into(bytes, &options.bbmodel, arena, warnings)
        }
    }
}

/// Decodes unwrapped `bytes` with the `plan` that [`measure`] returned for
/// the same bytes, skipping the second measurement [`decode_into`] makes.
/// A plan for other bytes fails with a typed error, never out of bounds.
pub fn decode_with_plan<'a>(
    bytes: &'a [u8],
    hint: Option<&str>,
    options: &Options<'_>,
    plan: &Plan,
    arena: &mut Arena<'a>,
    warnings: &mut Warnings,
) -> Result<Scene<'a>, Error> {
    match format_of(bytes, hint)? {
        crate::scene::Format::J3d => {
            j3d::decode_with_plan(bytes, &options.j3d, plan, arena, warnings)
        }
        crate::scene::Format::Bbmodel => {
            bbmodel::decode_with_plan(bytes, &options.bbmodel, plan, arena, warnings)
        }
    }
}

#[cfg(feature = "alloc")]
pub use owned::{Loaded, load, load_plan};

#[cfg(feature = "alloc")]
mod owned {
    use alloc::vec;
    use alloc::vec::Vec;

    use super::*;
    use crate::scene::{Format, SceneCounts};

    /// The model's bytes: borrowed, or decompressed from Yaz0 or `<lz>`.
    #[derive(Debug)]
    enum Input<'a> {
        Borrowed(&'a [u8]),
        Decompressed(Vec<u8>),
    }

    fn model_bytes<'s>(input: &'s Input<'_>) -> &'s [u8] {
        match input {
            Input::Borrowed(b) => b,
            Input::Decompressed(v) => v,
        }
    }

    /// A decoded model that owns its arena (see [`load`]).
    #[derive(Debug)]
    pub struct Loaded<'a> {
        format: Format,
        input: Input<'a>,
        arena: Vec<u64>,
        /// How the arena was carved (the plan's counts).
        carved: SceneCounts,
        /// How much of each array the decoder used.
        used: SceneCounts,
        warnings: Warnings,
    }

    impl Loaded<'_> {
        /// The scene, viewed in place in the owned arena.
        pub fn scene(&self) -> Scene<'_> {
            let input = model_bytes(&self.input);
            let arena: &[u8] = bytemuck::cast_slice(&self.arena);
            // `load` checked this view once; it cannot fail later.
            Scene::view(self.format, input, &self.carved, &self.used, arena)
                .unwrap_or_else(|_| Scene::empty(self.format, input))
        }

        /// The warnings the load raised.
        pub fn warnings(&self) -> &Warnings {
            &self.warnings
        }

        /// Bytes of the arena allocation.
        pub fn arena_bytes(&self) -> usize {
            self.arena.len() * 8
        }
    }

    /// The plan [`load`] allocates for unwrapped `bytes`: [`measure`]'s,
    /// except that a .bbmodel's cubes are planned by the most a cube can
    /// draw rather than counted (the fill pass reads each cube once, not
    /// twice). Every count of it is within the limits, and it is never
    /// smaller than [`measure`]'s; its error is [`measure`]'s.
    pub fn load_plan(
        bytes: &[u8],
        hint: Option<&str>,
        options: &Options<'_>,
    ) -> Result<Plan, Error> {
        match format_of(bytes, hint)? {
            Format::Bbmodel => {
                bbmodel::count_located(bytes, &options.bbmodel).map(|(_, plan)| plan)
            }
            Format::J3d => j3d::count_for_load(bytes, &options.j3d)
                .map_err(|e| j3d::measured_error(bytes, &options.j3d, e)),
        }
    }

    /// Measures, allocates the arena once (the plan's bytes as `u64` words,
    /// so rounded up to a multiple of 8) and decodes. Yaz0 or `<lz>` input
    /// costs one more allocation, of its decompressed size, for the
    /// decompressed file.
    pub fn load<'a>(
        bytes: &'a [u8],
        hint: Option<&str>,
        options: &Options<'_>,
    ) -> Result<Loaded<'a>, Error> {
        let input = if is_wrapped(bytes) {
            let mut out = vec![0u8; unwrapped_len(bytes, options)?];
            if sniff(bytes) == Kind::Yaz0 {
                yaz0::decompress_into(bytes, &mut out)?;
            } else {
                lzutf8::decompress_into(bytes, &mut out)?;
            }
            check_inner(bytes, &out)?;
            Input::Decompressed(out)
        } else {
            Input::Borrowed(bytes)
        };
        // Built first and filled in place: the warnings' fixed list (about
        // 30 KiB) was copied whole each time the value moved on its way out.
        let mut loaded = Loaded {
            format: Format::J3d,
            input,
            arena: Vec::new(),
            carved: SceneCounts::default(),
            used: SceneCounts::default(),
            warnings: Warnings::new(),
        };
        let model = model_bytes(&loaded.input);
        let format = format_of(model, hint)?;
        // A .bbmodel is read as a document once, for both passes, and its
        // values are checked once, by the fill pass; an error is still the
        // one `measure` reports (`bbmodel::measured_error`).
        // A J3D file's count pass reads only what the arena's size needs,
        // and its indices are checked by the fill pass; an error is still
        // the one `measure` reports (`j3d::measured_error`).
        let bbmodel_error = |e| bbmodel::measured_error(model, &options.bbmodel, e);
        let j3d_error = |e| j3d::measured_error(model, &options.j3d, e);
        let (document, plan) = match format {
            Format::Bbmodel => {
                // Its error is already `measure`'s.
                let (doc, plan) = bbmodel::count_located(model, &options.bbmodel)?;
                (Some(doc), plan)
            }
            Format::J3d => (
                None,
                j3d::count_for_load(model, &options.j3d).map_err(j3d_error)?,
            ),
        };
        // Zeroed once, by the allocation: the arena knows and does not zero
        // its slices again (src/arena.rs).
        loaded.arena = vec![0u64; plan.arena_words()];
        let warnings = &mut loaded.warnings;
        let mut carved = Arena::from_zeroed_words(&mut loaded.arena);
        let scene = match &document {
            Some(doc) => {
                bbmodel::decode_document(doc, &options.bbmodel, &plan, &mut carved, warnings)
                    .map_err(bbmodel_error)?
            }
            None => decode_with_plan(model, hint, options, &plan, &mut carved, warnings)
                .map_err(j3d_error)?,
        };
        loaded.used = scene.counts();
        loaded.format = format;
        loaded.carved = *plan.counts();
        let view: &[u8] = bytemuck::cast_slice(&loaded.arena);
        Scene::view(
            format,
            model_bytes(&loaded.input),
            &loaded.carved,
            &loaded.used,
            view,
        )?;
        Ok(loaded)
    }
}
