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
pub fn measure(bytes: &[u8], options: &Options<'_>) -> Result<Plan, Error> {
    let model = parse(bytes, options)?;
    Ok(model::plan(&model, options, model::CountPass::Checked)?.0)
}

/// [`measure`] for a decode that follows at once (`load`): the count pass
/// reads only each vertex's draw matrix, leaving the attribute indices to
/// the fill pass, which checks each of them anyway. Errors from this or from
/// the decode go through [`measured_error`], so that the caller sees exactly
/// what measuring first would have reported.
#[cfg(feature = "alloc")]
pub(crate) fn count_for_load(bytes: &[u8], options: &Options<'_>) -> Result<Plan, Error> {
    let model = parse(bytes, options)?;
    Ok(model::plan(&model, options, model::CountPass::DrawOnly)?.0)
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
    Ok(model::plan(&model, options, model::CountPass::Summary)?.1)
}

/// Decodes `bytes` into `arena`. Needs at most [`measure`]'s plan.
pub fn decode_into<'a>(
    bytes: &'a [u8],
    options: &Options<'_>,
    arena: &mut Arena<'a>,
    warnings: &mut Warnings,
) -> Result<Scene<'a>, Error> {
    let model = parse(bytes, options)?;
    let (plan, _) = model::plan(&model, options, model::CountPass::Checked)?;
    model.fill(plan.counts(), arena, warnings, options)
}

/// Decodes `bytes` with the `plan` that [`measure`] returned for the same
/// bytes, without measuring again. A plan for other bytes makes the decode
/// fail with a typed error, never read or write out of bounds.
pub fn decode_with_plan<'a>(
    bytes: &'a [u8],
    options: &Options<'_>,
    plan: &Plan,
    arena: &mut Arena<'a>,
    warnings: &mut Warnings,
) -> Result<Scene<'a>, Error> {
    let model = parse(bytes, options)?;
    model.fill(plan.counts(), arena, warnings, options)
}
