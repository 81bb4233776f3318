//! From sections to a scene: the two passes over a J3D model.
//!
//! `Model::count` (`count.rs`) walks every shape's display lists once,
//! checking every index, slot and limit, and returns the scene's
//! [`SceneCounts`] plus the [`Summary`]
//! `inspect` prints. `Model::fill` (`fill.rs`) walks them again into arena
//! arrays carved from those counts. Both walks go through `walk_shape`
//! (`walk.rs`), so they see the same vertices in the same order.
//!
//! One concern per file:
//!
//! | file | concern |
//! | --- | --- |
//! | `mod.rs` | the parsed sections, `plan`, helpers both passes share |
//! | `summary.rs` | what `inspect` reports beyond the scene |
//! | `count.rs` | the count pass: limits, counts, the summary |
//! | `walk.rs` | the display-list walk: matrix slots, each vertex's indices |
//! | `fill.rs` | the fill pass: carving, then every part in order |
//! | `batch.rs` | short primitives' vertices gathered side by side into full blocks |
//! | `vertices.rs` | the hot path: blocks of vertices, one attribute at a time, read, transformed and written |
//! | `normals.rs` | normals turned by their draw matrix, two at a time |
//! | `pose.rs` | bind pose (world and draw matrices) and the skin |
//! | `materials.rs` | MAT3 materials as scene records |
//! | `textures.rs` | TEX1: limits, records, decoded levels |
//! | `names.rs` | names that are not UTF-8, copied lossily into the text pool |
//! | `clips.rs` | attached animation files as clips: tracks, curves, keys |
//!
//! Bind pose (docs/j3d.md): a joint's world matrix is its parent's times its
//! local `T · R · S` (Maya segment-scale compensation undoing the parent's
//! scale where flagged); a draw matrix is a joint's world matrix (rigid) or
//! `Σ weight · jointWorld · inverseBind` over an EVP1 envelope (weighted);
//! each vertex takes the draw matrix of its slot (`PNMTXIDX / 3`, else slot
//! 0), slots being set packet by packet from SHP1's matrix table (0xFFFF
//! keeps the slot). Positions and normals are stored in that bind-pose model
//! space; every vertex is skinned to the joints its draw matrix names.

mod batch;
mod blocks;
mod clips;
mod count;
mod fill;
mod materials;
mod names;
mod normals;
mod pose;
mod summary;
mod textures;
mod vertices;
mod walk;

pub use clips::FRAME_RATE;
pub(crate) use count::CountPass;
pub use summary::{PrimitiveCounts, Summary};

use super::drw1::Drw1;
use super::evp1::Evp1;
use super::header::J3dFile;
use super::inf1::{self, HierarchyCounts, Inf1};
use super::jnt1::Jnt1;
use super::mat3::Mat3;
use super::read::SectionReader;
use super::shp1::{Shp1, VertexDescriptor};
use super::tex1::Tex1;
use super::vtx1::Vtx1;
use crate::arena::Plan;
use crate::error::{Error, ErrorCode, SectionId};
use crate::gx::vertex::VertexAttribute;
use crate::scene::{MAX_COLOR_SETS, MAX_UV_SETS, SceneCounts};

/// The sections of a model, parsed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Model<'a> {
    pub(crate) file: J3dFile<'a>,
    inf1: Inf1<'a>,
    vtx1: Vtx1<'a>,
    evp1: Evp1<'a>,
    drw1: Drw1<'a>,
    jnt1: Jnt1<'a>,
    shp1: Shp1<'a>,
    mat3: Option<Mat3<'a>>,
    tex1: Option<Tex1<'a>>,
}

impl<'a> Model<'a> {
    /// Parses the section headers a model needs (MAT3 is optional).
    pub(crate) fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        let file = J3dFile::parse(bytes)?;
        let section = |id: &[u8; 4]| {
            file.section(id).map(SectionReader::new).ok_or_else(|| {
                Error::binary(
                    ErrorCode::BadValue,
                    0,
                    None,
                    format_args!(
                        "no {} section: a model needs INF1 VTX1 EVP1 DRW1 JNT1 SHP1",
                        SectionId(*id).as_str()
                    ),
                )
            })
        };
        Ok(Self {
            file,
            inf1: Inf1::parse(section(b"INF1")?)?,
            vtx1: Vtx1::parse(section(b"VTX1")?)?,
            evp1: Evp1::parse(section(b"EVP1")?)?,
            drw1: Drw1::parse(section(b"DRW1")?)?,
            jnt1: Jnt1::parse(section(b"JNT1")?)?,
            shp1: Shp1::parse(section(b"SHP1")?)?,
            mat3: file
                .section(b"MAT3")
                .map(SectionReader::new)
                .map(Mat3::parse)
                .transpose()?,
            tex1: file
                .section(b"TEX1")
                .map(SectionReader::new)
                .map(Tex1::parse)
                .transpose()?,
        })
    }

    /// Words of the hierarchy walk's two seen-sets (joints, then shapes;
    /// both counts are u16 fields, so the sum is below 4096).
    pub(crate) fn seen_words(&self) -> usize {
        inf1::seen_words(self.jnt1.len()).saturating_add(inf1::seen_words(self.shp1.len()))
    }

    fn hierarchy_counts(&self) -> HierarchyCounts {
        HierarchyCounts {
            joints: self.jnt1.len(),
            materials: self.mat3.map_or(0, |m| m.len()),
            shapes: self.shp1.len(),
        }
    }

    fn shp1_error(&self, offset: usize, args: core::fmt::Arguments<'_>) -> Error {
        Error::binary(
            ErrorCode::BadValue,
            offset as u64,
            Some(SectionId(*b"SHP1")),
            args,
        )
    }

    fn section_error(
        &self,
        id: &[u8; 4],
        code: ErrorCode,
        args: core::fmt::Arguments<'_>,
    ) -> Error {
        let offset = self.file.section(id).map_or(0, |s| s.offset);
        Error::binary(code, offset as u64, Some(SectionId(*id)), args)
    }
}

/// A count or index as the scene's u32; counts were checked against limits
/// that keep them far below 2^32, so failing means the arena does not match.
fn index32(n: usize) -> Result<u32, Error> {
    u32::try_from(n).map_err(|_| arena_mismatch())
}

/// `a + b` for a place in the fill's arena arrays, whose lengths keep it
/// far below `usize::MAX`: past it the arena cannot match.
#[inline(always)]
fn sum(a: usize, b: usize) -> Result<usize, Error> {
    a.checked_add(b).ok_or_else(arena_mismatch)
}

/// `a × b` for a size in the fill's arena arrays (see [`sum`]).
#[inline(always)]
fn product(a: usize, b: usize) -> Result<usize, Error> {
    a.checked_mul(b).ok_or_else(arena_mismatch)
}

/// A UV or colour set number (always below 8) as the attribute's u8.
fn small(set: usize) -> u8 {
    u8::try_from(set).unwrap_or(u8::MAX)
}

/// Off every hot path: the fill checks each slice against the plan.
#[cold]
#[inline(never)]
fn arena_mismatch() -> Error {
    Error::nowhere(
        ErrorCode::ArenaTooSmall,
        format_args!("the arena's layout does not match this input: measure it again"),
    )
}

/// UV sets a shape's vertices carry: up to the highest TEXn present.
fn uv_sets(desc: &VertexDescriptor) -> usize {
    (0..small(MAX_UV_SETS))
        .rev()
        .find(|&t| desc.get(VertexAttribute::TexCoord(t)).is_some())
        .map_or(0, |t| usize::from(t) + 1)
}

/// Colour sets a shape's vertices carry: up to the highest CLRn present.
fn color_sets(desc: &VertexDescriptor) -> usize {
    (0..small(MAX_COLOR_SETS))
        .rev()
        .find(|&c| desc.get(VertexAttribute::Color(c)).is_some())
        .map_or(0, |c| usize::from(c) + 1)
}

/// Plans a model: the scene's counts, then the scratch [`Model::fill`]
/// carves after the scene: joint world matrices, draw matrices, where each
/// envelope's influences start, each shape's material, the vertex block
/// and its runs, and the hierarchy walk's seen-sets and open levels.
///
/// The plan goes to `out` and the summary to `summary`: returned by value
/// (1 KiB together), they were copied through the callers' frames, above
/// the clip count (issue 40).
pub(crate) fn plan(
    model: &Model<'_>,
    options: &super::Options<'_>,
    pass: CountPass,
    seen: &mut [u32],
    out: &mut Plan,
    summary: &mut Summary,
) -> Result<(), Error> {
    let mut counts = SceneCounts::default();
    count_into(model, options, pass, seen, &mut counts, summary)?;
    model.count_clips(options, &mut counts)?;
    *out = Plan::new(counts, |scratch| {
        model.fill_scratch(scratch, options.limits.max_depth)
    })?;
    Ok(())
}

/// [`Model::count`] into `counts` and `summary`, in a frame of its own:
/// its result (560 bytes) is gone before the clips are counted under
/// [`plan`] (issue 40).
#[inline(never)]
fn count_into(
    model: &Model<'_>,
    options: &super::Options<'_>,
    pass: CountPass,
    seen: &mut [u32],
    counts: &mut SceneCounts,
    summary: &mut Summary,
) -> Result<(), Error> {
    (*counts, *summary) = model.count(options, pass, seen)?;
    Ok(())
}
