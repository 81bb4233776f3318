//! J3D `.bmd` / `.bdl` models (GameCube, Wii).
//!
//! Today this reads the header and walks every section header (with nom),
//! checking that each lies inside the file; the sections' contents (INF1,
//! VTX1, EVP1, DRW1, JNT1, SHP1, MAT3, TEX1) are decoded by later work and
//! leave the scene empty until then. See docs/j3d.md.

pub mod header;

pub use header::{Flavour, J3dFile, Section};

use crate::arena::{Arena, Plan};
use crate::error::{Error, ErrorCode, Warnings};
use crate::limits::J3dLimits;
use crate::scene::{Format, Scene, SceneArrays, SceneCounts};

/// How to read a J3D file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The bounds every count and size is checked against.
    pub limits: J3dLimits,
}

/// Checks `bytes` (an unwrapped J3D file) against the limits and returns the
/// arena size [`decode_into`] needs, without allocating.
pub fn measure(bytes: &[u8], options: &Options) -> Result<Plan, Error> {
    let (_, counts) = plan(bytes, options)?;
    Plan::scene(counts)
}

/// Decodes `bytes` into `arena`. Needs at most [`measure`]'s plan.
pub fn decode_into<'a>(
    bytes: &'a [u8],
    options: &Options,
    arena: &mut Arena<'a>,
    _warnings: &mut Warnings,
) -> Result<Scene<'a>, Error> {
    let (file, counts) = plan(bytes, options)?;
    let arrays = SceneArrays::carve(&counts, arena)?;
    Ok(Scene::new(Format::J3d, file.bytes(), arrays))
}

fn plan<'a>(bytes: &'a [u8], options: &Options) -> Result<(J3dFile<'a>, SceneCounts), Error> {
    crate::limits::check(
        bytes.len() as u64,
        options.limits.max_file_bytes,
        ErrorCode::FileTooLarge,
        "file bytes",
        crate::error::Location::Nowhere,
    )?;
    let file = J3dFile::parse(bytes)?;
    Ok((file, SceneCounts::default()))
}
