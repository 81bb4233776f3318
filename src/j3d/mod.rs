//! J3D `.bmd` / `.bdl` models (GameCube, Wii).
//!
//! One module per section, each owning its records and checks: [`header`]
//! (nom: file header and section walk), [`inf1`], [`vtx1`], [`evp1`],
//! [`drw1`], [`jnt1`], [`shp1`], [`mat3`], [`tex1`]. [`model`] (a folder,
//! one file per concern) turns them into a scene in two passes (count, then
//! fill). [`anim`] reads the animation files (BCK, BCA, BTK, BRK, BPK,
//! BTP, BVA) that play on a model. See docs/j3d.md.

pub mod anim;
pub mod drw1;
pub mod evp1;
pub mod header;
pub mod inf1;
pub mod jnt1;
pub mod mat3;
pub mod model;
mod options;
mod read;
pub mod shp1;
pub mod tex1;
pub mod vtx1;

pub use header::{Flavour, J3dFile, Section};
pub use model::FRAME_RATE;
pub use model::{PrimitiveCounts, Summary};
pub use options::{AnimationFile, Options};

use crate::arena::{Arena, Plan};
use crate::error::{Error, ErrorCode, Location, Warnings};
use crate::scene::Scene;

fn parse<'a>(bytes: &'a [u8], options: &Options<'_>) -> Result<model::Model<'a>, Error> {
    crate::limits::check(
        bytes.len() as u64,
        options.limits.max_file_bytes,
        ErrorCode::FileTooLarge,
        "file bytes (maxFileBytes)",
        Location::Nowhere,
    )?;
    model::Model::parse(bytes)
}

/// Checks `bytes` (an unwrapped J3D file) against the limits and returns the
/// arena size [`decode_into`] needs, without allocating.
///
/// The hierarchy check marks two seen-sets on the stack (1 KiB for models
/// of at most 4096 joints and shapes, 16 KiB past that); [`measure_with`]
/// takes them from the caller.
pub fn measure(bytes: &[u8], options: &Options<'_>) -> Result<Plan, Error> {
    measure_with(bytes, options, &mut [])
}

/// [`measure`] with the hierarchy check's seen-sets in `seen`: at least
/// [`inf1::MAX_SEEN_WORDS`] words never uses the stack's (fewer do for
/// models whose counts need more). Never inlined: a caller that measures
/// either format (`scenedec::measure_with`) does not reserve the parsed
/// sections' 3 KiB for a .bbmodel.
#[inline(never)]
pub fn measure_with(bytes: &[u8], options: &Options<'_>, seen: &mut [u32]) -> Result<Plan, Error> {
    // Read in place, as in `decode_into`.
    let parsed = parse(bytes, options);
    let model = parsed.as_ref().map_err(Error::clone)?;
    let mut plan = Plan::default();
    model::plan(
        model,
        options,
        model::CountPass::Checked,
        seen,
        &mut plan,
        &mut Summary::default(),
    )?;
    Ok(plan)
}

/// [`measure`] for a decode that follows at once (`load`): the count pass
/// reads only each vertex's draw matrix, leaving the attribute indices to
/// the fill pass, which checks each of them anyway. Errors from this or from
/// the decode go through [`measured_error`], so that the caller sees exactly
/// what measuring first would have reported.
#[cfg(feature = "alloc")]
pub(crate) fn count_for_load(bytes: &[u8], options: &Options<'_>) -> Result<Plan, Error> {
    let model = parse(bytes, options)?;
    let mut plan = Plan::default();
    model::plan(
        &model,
        options,
        model::CountPass::DrawOnly,
        &mut [],
        &mut plan,
        &mut Summary::default(),
    )?;
    Ok(plan)
}

/// The error [`measure`] reports for `bytes`, or `e` when it reports none
/// (an error only a decode can meet). On the error path of `load` only.
#[cfg(feature = "alloc")]
#[cold]
pub(crate) fn measured_error(bytes: &[u8], options: &Options<'_>, e: Error) -> Error {
    measure(bytes, options).err().unwrap_or(e)
}

/// What `inspect` reports of a J3D file beyond its scene: sections, scaling
/// rule, array and primitive counts, the raw position bbox.
pub fn summary(bytes: &[u8], options: &Options<'_>) -> Result<Summary, Error> {
    let model = parse(bytes, options)?;
    let mut summary = Summary::default();
    model::plan(
        &model,
        options,
        model::CountPass::Summary,
        &mut [],
        &mut Plan::default(),
        &mut summary,
    )?;
    Ok(summary)
}

/// Decodes `bytes` into `arena`. Needs at most [`measure`]'s plan.
pub fn decode_into<'a>(
    bytes: &'a [u8],
    options: &Options<'_>,
    arena: &mut Arena<'a>,
    warnings: &mut Warnings,
) -> Result<Scene<'a>, Error> {
    // The parsed sections (1.5 KiB) are read where `parse` returned them:
    // moved out of the result, they would be on the stack twice.
    let parsed = parse(bytes, options);
    let model = parsed.as_ref().map_err(Error::clone)?;
    // The hierarchy check's seen-sets in the arena's free bytes, which the
    // fill's scratch (as large) takes over after it; an arena too small
    // for them checks on the stack, so the errors stay `measure`'s.
    let seen = arena.lend::<u32>(model.seen_words()).unwrap_or_default();
    let counts = checked_counts(model, options, seen)?;
    model.fill(&counts, arena, warnings, options)
}

/// The scene's counts from the checked count pass, in a frame of its own
/// that has returned (with the summary it also builds) before the fill.
#[inline(never)]
fn checked_counts(
    model: &model::Model<'_>,
    options: &Options<'_>,
    seen: &mut [u32],
) -> Result<crate::scene::SceneCounts, Error> {
    let mut plan = Plan::default();
    model::plan(
        model,
        options,
        model::CountPass::Checked,
        seen,
        &mut plan,
        &mut Summary::default(),
    )?;
    Ok(*plan.counts())
}

/// Decodes `bytes` with the `plan` that [`measure`] returned for the same
/// bytes, without measuring again. A plan for other bytes makes the decode
/// fail with a typed error, never read or write out of bounds. Out of
/// line: inlined into the format dispatch (`model::decode_with_plan`), the
/// parsed model's 1.5 KiB sat under every .bbmodel decode too.
#[inline(never)]
pub fn decode_with_plan<'a>(
    bytes: &'a [u8],
    options: &Options<'_>,
    plan: &Plan,
    arena: &mut Arena<'a>,
    warnings: &mut Warnings,
) -> Result<Scene<'a>, Error> {
    // Read where `parse` returned it, as `decode_into` does (moved out of
    // the result, the parsed sections would be on the stack twice).
    let parsed = parse(bytes, options);
    let model = parsed.as_ref().map_err(Error::clone)?;
    model.fill(plan.counts(), arena, warnings, options)
}
