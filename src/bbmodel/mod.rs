//! Blockbench `.bbmodel` files (JSON), read as the loader specification in
//! `shared/seeds/bbmodel-loader-spec.txt` says.
//!
//! [`measure`] locates the document's parts and counts what the scene needs
//! (checking every limit and field on the way); [`decode_into`] fills a
//! caller's arena with the scene: nodes from the outliner, cubes and meshes
//! as triangles grouped by material, textures with their pixels, and
//! animations as clips of keyframed channels.
//!
//! The folders are the pipeline's stages, each importing only the stages
//! above it in this list and the crate's shared ground (`json`, `scene`,
//! `arena`, `limits`, `error`):
//!
//! - `options.rs`, `layout.rs`: what a caller passes; the fill's checks
//!   against the plan's layout;
//! - `document/`: bytes to parts (the one full tokenization, bracket walks,
//!   typed value reads, formats, text hashing and the text pool);
//! - `project/`: what the file says about itself (outliner and groups,
//!   uuid tables, references);
//! - `textures/`: entries, PNG sources and pixels, frame strips, the shown
//!   texture, collections, texture and material records;
//! - `elements/`: cubes and meshes, read, counted and written as geometry;
//! - `animations/`: clips, animators and keyframes;
//! - `prescan.rs`, `passes/` and this file: `load`'s counts made while
//!   locating, then the count and fill passes that drive the stages.
//!
//! docs/bbmodel.md maps the spec's rules to the modules below;
//! docs/architecture.md shows the data's path through them.

pub mod animations;
mod document;
mod elements;
mod layout;
mod main_shape;
mod options;
mod passes;
mod prescan;
mod project;
pub mod textures;
mod walk_scratch;

pub use document::formats;
pub use document::{Document, FormatVersion, read_meta};
pub use elements::{cube, mesh};
pub use formats::ModelFormat;
pub use options::{Options, TextureFile};
pub use project::references::{
    Reference, list_named_references, list_named_references_before_load, list_references,
};
pub use project::{references, structure};
pub use textures::source::ImageScratch;
pub use walk_scratch::WalkScratch;

use crate::arena::{Arena, Plan};
use crate::error::{Error, Warnings};
use crate::limits::BbmodelLimits;
use crate::png::Window;
use crate::scene::Scene;
use elements::context::Pass;
use elements::context::VertexCounts;
use elements::count::Cubes;
use prescan::Prescan;

/// Checks `bytes` against the limits and returns the arena size
/// [`decode_into`] needs, without allocating.
pub fn measure(bytes: &[u8], options: &Options<'_>) -> Result<Plan, Error> {
    measure_located(bytes, options).map(|(_, plan)| plan)
}

/// [`measure`] inflating images through the caller's `window` and
/// decoder scratch (`image`), and walking in the caller's `walk`, instead
/// of all three on the stack.
#[inline(never)]
pub fn measure_in(
    bytes: &[u8],
    options: &Options<'_>,
    window: &mut Window,
    image: &mut ImageScratch,
    walk: &mut WalkScratch,
) -> Result<Plan, Error> {
    let limits = &options.limits;
    // Built in place, as `locate_and_plan` does, without its document.
    let mut measured = Ok(Plan::default());
    match Document::locate(bytes, limits) {
        Ok(doc) => {
            if let Ok(plan) = &mut measured
                && let Err(e) = plan_located(
                    &doc,
                    options,
                    Pass::Measure,
                    Some((window, image)),
                    walk,
                    plan,
                )
            {
                measured = Err(e);
            }
        }
        Err(e) => measured = Err(e),
    }
    if let Err(e) = &mut measured {
        first_error_in_place(e, bytes, limits);
    }
    measured
}

/// [`measure`] inflating images through the caller's `window` and
/// decoder scratch (`image`) instead of both on the stack.
pub fn measure_with(
    bytes: &[u8],
    options: &Options<'_>,
    window: &mut Window,
    image: &mut ImageScratch,
) -> Result<Plan, Error> {
    walk_scratch::on_stack(|walk| measure_in(bytes, options, window, image, walk))
}

/// [`measure`], returning the document too, for a decode of the same bytes
/// to start from (`scenedec::load`).
///
/// The document pass steps over the arrays the counting pass reads whole
/// ([`Document::locate`]); an error from either goes through
/// [`Document::first_error`], so a syntax error anywhere still comes first.
pub(crate) fn measure_located<'a>(
    bytes: &'a [u8],
    options: &Options<'_>,
) -> Result<(Document<'a>, Plan), Error> {
    walk_scratch::on_stack(|walk| locate_and_plan(bytes, options, Pass::Measure, None, walk))
}

/// [`measure_located`] for a decode that fills right after: the plan is the
/// same, but values the fill pass reads and checks anyway (UVs, origins,
/// rotations, mesh positions) are passed over by their brackets instead of
/// checked twice ([`Pass::Count`]). Its error is the one [`measure`]
/// reports; an error from the fill pass goes through [`measured_error`].
#[cfg(feature = "alloc")]
pub(crate) fn count_located<'a>(
    bytes: &'a [u8],
    options: &Options<'_>,
) -> Result<(Document<'a>, Plan), Error> {
    let limits = &options.limits;
    let mut prescan = Prescan::NONE;
    let doc = Document::locate_with(bytes, limits, |doc, part, at| {
        prescan.read(doc, part, at, limits)
    })
    .map_err(|e| Document::first_error(bytes, limits, e))?;
    let counted = VertexCounts::new(None);
    let mut plan = Plan::default();
    let planned = walk_scratch::on_stack(|walk| {
        passes::plan(
            &doc,
            options,
            &passes::Counting {
                pass: Pass::Count,
                cubes: Cubes::Bounded,
                counted: &counted,
                prescan: &prescan,
            },
            None,
            walk,
            &mut plan,
        )
    });
    match planned {
        Ok(()) => Ok((doc, plan)),
        Err(e) => Err(count_refusal(&doc, options, e, &counted)),
    }
}

/// What [`measure`] reports for a located document whose counting pass
/// failed with `e`: a syntax error anywhere (one read of the whole
/// document), else the checking pass's error, else `e`. Each of
/// [`measure`]'s steps runs once: the document is not located again, nor
/// read twice, and the checking pass takes the mesh `vertices` count the
/// counting pass found (`counted`) instead of walking it again, so a
/// refusal costs about one more pass over the file.
#[cfg(feature = "alloc")]
#[cold]
fn count_refusal(
    doc: &Document<'_>,
    options: &Options<'_>,
    e: Error,
    counted: &VertexCounts,
) -> Error {
    if let Err(first) = Document::read(doc.bytes, &options.limits) {
        return first;
    }
    let planned = walk_scratch::on_stack(|walk| {
        passes::plan(
            doc,
            options,
            &passes::Counting {
                pass: Pass::Measure,
                cubes: Cubes::Exact,
                counted,
                prescan: &Prescan::NONE,
            },
            None,
            walk,
            &mut Plan::default(),
        )
    });
    match planned {
        Err(m) => m,
        Ok(_) => e,
    }
}

fn locate_and_plan<'a>(
    bytes: &'a [u8],
    options: &Options<'_>,
    pass: Pass,
    window: Option<(&mut Window, &mut ImageScratch)>,
    walk: &mut WalkScratch,
) -> Result<(Document<'a>, Plan), Error> {
    let limits = &options.limits;
    // Built in place: the document, the plan and the error go to the
    // caller without a copy in this frame, which every measure runs under.
    let mut located = Document::locate(bytes, limits).map(|doc| (doc, Plan::default()));
    if let Ok((doc, plan)) = &mut located
        && let Err(e) = plan_located(doc, options, pass, window, walk, plan)
    {
        located = Err(e);
    }
    if let Err(e) = &mut located {
        first_error_in_place(e, bytes, limits);
    }
    located
}

/// [`passes::plan`] of a located document, counting every cube; the plan
/// goes to `out`.
#[inline(never)]
fn plan_located(
    doc: &Document<'_>,
    options: &Options<'_>,
    pass: Pass,
    window: Option<(&mut Window, &mut ImageScratch)>,
    walk: &mut WalkScratch,
    out: &mut Plan,
) -> Result<(), Error> {
    passes::plan(
        doc,
        options,
        &passes::Counting {
            pass,
            cubes: Cubes::Exact,
            counted: &VertexCounts::new(None),
            prescan: &Prescan::NONE,
        },
        window,
        walk,
        out,
    )
}

/// Replaces `e` by [`Document::first_error`]'s (in place, in a cold frame).
#[cold]
#[inline(never)]
fn first_error_in_place(e: &mut Error, bytes: &[u8], limits: &BbmodelLimits) {
    *e = Document::first_error(bytes, limits, e.clone());
}

/// The error [`measure`] reports for `bytes`, else `e`: what a decode
/// whose passes failed with `e` after counting with [`Pass::Count`]
/// reports, so that it fails exactly as measuring first would have. (The
/// checks [`Pass::Count`] leaves out are all in the fill pass, so a file
/// `measure` rejects never decodes; the error is found again on this cold
/// path, at most one more counting pass.)
#[cold]
pub(crate) fn measured_error(bytes: &[u8], options: &Options<'_>, e: Error) -> Error {
    match measure(bytes, options) {
        Err(first) => first,
        Ok(_) => e,
    }
}

/// Decodes `bytes` into `arena`. Needs at most [`measure`]'s plan.
pub fn decode_into<'a>(
    bytes: &'a [u8],
    options: &Options<'_>,
    arena: &mut Arena<'a>,
    warnings: &mut Warnings,
) -> Result<Scene<'a>, Error> {
    let doc = Document::read(bytes, &options.limits)?;
    let mut plan = Plan::default();
    if let Err(mut e) = count_plan(&doc, options, arena, &mut plan) {
        remeasured(&mut e, bytes, options);
        return Err(e);
    }
    // The scene or the error goes to the caller as the fill wrote it, not
    // copied through this frame, which every decode runs under.
    let mut decoded = passes::fill(&doc, options, &plan, arena, warnings);
    if let Err(e) = &mut decoded {
        remeasured(e, bytes, options);
    }
    decoded
}

/// Replaces `e` by [`measured_error`]'s (in place, in a cold frame).
#[cold]
#[inline(never)]
fn remeasured(e: &mut Error, bytes: &[u8], options: &Options<'_>) {
    *e = measured_error(bytes, options, e.clone());
}

/// `decode_into`'s counting pass, in a frame of its own (the fill runs
/// under `decode_into`'s, not this one's). It walks in the arena's free
/// bytes, which the plan counts (its scratch holds a `WalkScratch`) and
/// the fill carves again. The plan goes to `out`.
#[inline(never)]
fn count_plan(
    doc: &Document<'_>,
    options: &Options<'_>,
    arena: &mut Arena<'_>,
    out: &mut Plan,
) -> Result<(), Error> {
    let walk = arena.lend_one::<WalkScratch>()?;
    passes::plan(
        doc,
        options,
        &passes::Counting {
            pass: Pass::Count,
            cubes: Cubes::Exact,
            counted: &VertexCounts::new(None),
            prescan: &Prescan::NONE,
        },
        None,
        walk,
        out,
    )
}

/// Reads a file once (size check, strict UTF-8 JSON, meta) for
/// [`measure_document`], [`decode_document`] and
/// [`references::list_document_references`] to share, as the spec's
/// readBbmodelJson does.
pub fn read_document(bytes: &[u8], max_file_bytes: u64) -> Result<Document<'_>, Error> {
    Document::read(
        bytes,
        &BbmodelLimits {
            max_file_bytes,
            ..BbmodelLimits::DEFAULT
        },
    )
}

/// [`measure`] for a document [`read_document`] read (its size is checked
/// against these options' maxFileBytes again, as loadBbmodel does).
pub fn measure_document(doc: &Document<'_>, options: &Options<'_>) -> Result<Plan, Error> {
    check_size(doc, &options.limits)?;
    let mut plan = Plan::default();
    walk_scratch::on_stack(|walk| {
        passes::plan(
            doc,
            options,
            &passes::Counting {
                pass: Pass::Measure,
                cubes: Cubes::Exact,
                counted: &VertexCounts::new(None),
                prescan: &Prescan::NONE,
            },
            None,
            walk,
            &mut plan,
        )
    })?;
    Ok(plan)
}

/// [`decode_with_plan`] for a document [`read_document`] read.
pub fn decode_document<'a>(
    doc: &Document<'a>,
    options: &Options<'_>,
    plan: &Plan,
    arena: &mut Arena<'a>,
    warnings: &mut Warnings,
) -> Result<Scene<'a>, Error> {
    check_size(doc, &options.limits)?;
    passes::fill(doc, options, plan, arena, warnings)
}

fn check_size(doc: &Document<'_>, limits: &BbmodelLimits) -> Result<(), Error> {
    if doc.bytes.len() as u64 > limits.max_file_bytes {
        return Err(Error::nowhere(
            crate::error::ErrorCode::FileTooLarge,
            format_args!(
                "file of {} bytes is over maxFileBytes ({})",
                doc.bytes.len(),
                limits.max_file_bytes
            ),
        ));
    }
    Ok(())
}

/// Decodes `bytes` with the `plan` that [`measure`] returned for the same
/// bytes, without measuring again. A plan for other bytes makes the decode
/// fail with a typed error, never read or write out of bounds.
#[inline(never)]
pub fn decode_with_plan<'a>(
    bytes: &'a [u8],
    options: &Options<'_>,
    plan: &Plan,
    arena: &mut Arena<'a>,
    warnings: &mut Warnings,
) -> Result<Scene<'a>, Error> {
    let doc = Document::read(bytes, &options.limits)?;
    passes::fill(&doc, options, plan, arena, warnings)
}
