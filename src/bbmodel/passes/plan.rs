//! The counting pass: what a .bbmodel scene needs, planned before anything
//! is written (`measure`, and `decode_into`'s first pass).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use super::{
    NOTE_ANIMATION_NODES, NOTE_COLLECTION_CHILDREN, NOTE_COLLECTION_NODES, NOTE_COLLECTION_SCOPES,
    NOTE_COLLECTIONS, NOTE_ELEMENT_REFS, NOTE_ELEMENTS, NOTE_GROUP_ENTRIES, NOTE_GROUP_TEXTURES,
    NOTE_MAX_ANIMATOR_KEYFRAMES, NOTE_MAX_CORNERS, NOTE_MAX_FACES, NOTE_MAX_KEYS,
    NOTE_MAX_MESH_GROUPS, NOTE_NODES, NOTE_PNG_SCRATCH, placeholder_text, read_group,
};
use crate::arena::Plan;
use crate::bbmodel::animations::{AnimationCounts, ScratchSizes, count_molang};
use crate::bbmodel::document::Document;
use crate::bbmodel::document::text_pool::escaped_len;
use crate::bbmodel::document::value::{GROUPS, Path};
use crate::bbmodel::elements::context::VertexCounts;
use crate::bbmodel::elements::context::{ElementContext, Pass};
use crate::bbmodel::elements::count::{Cubes, ElementTally, count_elements};
use crate::bbmodel::elements::mesh::keys::{KeyEntry, key_slots};
use crate::bbmodel::elements::writer::{GroupSlot, KeptFace, MeshCorner};
use crate::bbmodel::main_shape::{self, MainShape};
use crate::bbmodel::options::Options;
use crate::bbmodel::prescan::Prescan;
use crate::bbmodel::project::structure::{Census, OutlinerEvent, census_walk};
use crate::bbmodel::project::uuid_tables::{ElementEntry, OutlinerRef, UuidEntry};
use crate::bbmodel::textures::collections::{ChildEntry, CollectionCounts, ScopeEntry};
use crate::bbmodel::textures::entries::{TextureFacts, Textures, for_each_texture, uuid_entry};
use crate::bbmodel::textures::pixels::{ImagePlan, ImageTally, validate_image};
use crate::bbmodel::textures::records::COMPOSITE_NAME;
use crate::bbmodel::textures::shown::{Placement, TextureRules, TextureSummary};
use crate::bbmodel::textures::source::ImageScratch;
use crate::bbmodel::walk_scratch::WalkScratch;
use crate::error::Error;
use crate::limits::BbmodelLimits;
use crate::png::Window;
use crate::scene::{MeshRecord, SceneCounts};

/// Checks every texture's image as its decode will, inflating through
/// `window` with the decoder in `image` (`measure_with`'s caller-placed
/// scratch).
#[inline(never)]
fn validate_images(
    doc: &Document<'_>,
    options: &Options<'_>,
    window: &mut Window,
    image: &mut ImageScratch,
) -> Result<(), Error> {
    let files = options.texture_files;
    for_each_texture(doc, &options.limits, files, None, |i, meta| {
        validate_image(i, &meta, files, window, image)
    })
}

/// [`validate_images`] with its window and scratch on the stack (57 KiB),
/// in a frame of its own so that only a plain `measure` holds them.
#[inline(never)]
fn validate_images_on_stack(doc: &Document<'_>, options: &Options<'_>) -> Result<(), Error> {
    validate_images(doc, options, &mut Window::new(), &mut ImageScratch::new())
}

/// What a counting pass counts with.
#[derive(Clone, Copy)]
pub(crate) struct Counting<'c> {
    /// Every value checked ([`Pass::Measure`]), or what the fill pass
    /// checks itself left to it ([`Pass::Count`]).
    pub(crate) pass: Pass,
    /// Cubes counted, or bounded ([`Cubes::Bounded`], `load`'s count).
    pub(crate) cubes: Cubes,
    /// Mesh `vertices` counts: found by this pass, or taken from an earlier
    /// one so that a checking pass does not walk them again.
    pub(crate) counted: &'c VertexCounts,
    /// What `load`'s prescan found while the document was located.
    pub(crate) prescan: &'c Prescan,
}

/// Counts the scene and the scratch the fill pass needs as `counting`
/// says; the plan is the same for either pass, unless cubes are bounded
/// instead of counted.
///
/// The plan goes to `out`: returned by value, it was copied through every
/// caller's frame (`measure_in`, `plan_located`), above the counting
/// walks (issue 40).
///
/// Three stages, each a frame of its own, so the element walk at the
/// bottom of the deepest path runs under one small frame, not under the
/// locals of every walk before it (issue 40: 16 KiB of stack).
pub(crate) fn plan(
    doc: &Document<'_>,
    options: &Options<'_>,
    counting: &Counting<'_>,
    window: Option<(&mut Window, &mut ImageScratch)>,
    walk: &mut WalkScratch,
    out: &mut Plan,
) -> Result<(), Error> {
    let Counting {
        pass,
        cubes,
        counted,
        prescan,
    } = *counting;
    let mut parts = tally_parts(doc, options, pass, prescan, window, walk)?;
    let collections = count_collections(doc)?;
    parts.pool += group_pool(doc, &options.limits)?;
    let mut counts = SceneCounts::default();
    let elements = tally_elements(
        doc,
        options,
        pass,
        cubes,
        counted,
        prescan,
        &mut parts,
        walk,
        &mut counts,
    )?;
    finish_plan(
        doc,
        &options.limits,
        parts,
        elements,
        &collections,
        counts,
        out,
    )
}

/// What `plan`'s first stage found: the outliner's census, the animations'
/// counts, the textures' facts and images, and the text pool so far.
struct Parts {
    census: Census,
    animations: AnimationCounts,
    summary: TextureSummary,
    images: ImagePlan,
    frame_steps: usize,
    pool: usize,
    /// Texture uuids held (sorted) at the front of `WalkScratch::texture_uuids`.
    named: usize,
    /// The uuids held are those of every texture before this index.
    held_until: usize,
}

/// `plan`'s first stage: the outliner census, the animations, the textures
/// and their images (validated in a measure), each texture's uuid held for
/// the faces that name one.
#[inline(never)]
fn tally_parts(
    doc: &Document<'_>,
    options: &Options<'_>,
    pass: Pass,
    prescan: &Prescan,
    window: Option<(&mut Window, &mut ImageScratch)>,
    walk: &mut WalkScratch,
) -> Result<Parts, Error> {
    let limits = &options.limits;
    // Text pool: every escaped group name, inline or in `groups` (an upper
    // bound: a `groups` entry no outliner object names is counted too).
    let mut pool = 0usize;
    let (census, group_error) = census_walk(doc, limits, &mut walk.outliner, true, |event| {
        match *event {
            OutlinerEvent::Group { fields, .. } => pool += escaped_len(&fields.name),
            // Keys after `children`: `fill` reads the object again, whole.
            OutlinerEvent::GroupEnd {
                outliner_at,
                children_end,
                keys_after_children: true,
                ..
            } => {
                let outliner = Path::key("outliner");
                let data = read_group(doc, outliner_at, &outliner, children_end, limits)?;
                pool += escaped_len(&data.name);
            }
            OutlinerEvent::GroupEnd { .. } | OutlinerEvent::Element { .. } => {}
        }
        Ok(())
    })?;
    let mut animations = match prescan.animations(doc.animations) {
        Some(counted) if pass == Pass::Count => counted,
        _ => crate::bbmodel::animations::count_animations(
            doc,
            limits,
            pass == Pass::Measure,
            Some(&mut walk.molang),
        )?,
    };
    // Keyframes counted by their commas: their Molang is counted apart.
    if pass == Pass::Count && animations.animations > 0 {
        animations.molang = count_molang(doc, limits, Some(&mut walk.molang))?;
    }
    // Textures, each read in turn and none held: what the rules, the
    // images and the text pool need, and the first uuids for faces that
    // name their texture by uuid.
    let (mut summary, mut images, mut frame_steps) =
        (TextureSummary::default(), ImageTally::default(), 0);
    let (held, mut named) = (&mut walk.texture_uuids, 0usize);
    let mut held_until = census.textures;
    for_each_texture(doc, limits, options.texture_files, None, |i, meta| {
        summary.add(i, &meta);
        images.add(&meta);
        frame_steps += meta.strip.steps as usize;
        pool += escaped_len(&meta.name);
        if let Some(entry) = uuid_entry(doc, i, &meta)
            && held_until == census.textures
        {
            match held.get_mut(named) {
                Some(slot) => {
                    *slot = entry;
                    named += 1;
                }
                None => held_until = i,
            }
        }
        Ok(())
    })?;
    let images = images.finish(limits)?;
    if pass == Pass::Measure {
        match window {
            Some((window, image)) => validate_images(doc, options, window, image)?,
            None => validate_images_on_stack(doc, options)?,
        }
    }
    if let Some(e) = group_error {
        return Err(e);
    }
    held.get_mut(..named).unwrap_or_default().sort_unstable();
    Ok(Parts {
        census,
        animations,
        summary,
        images,
        frame_steps,
        pool,
        named,
        held_until,
    })
}

/// The Hytale collections' counts, in a frame of their own.
#[inline(never)]
fn count_collections(doc: &Document<'_>) -> Result<CollectionCounts, Error> {
    crate::bbmodel::textures::collections::count(doc)
}

/// The text pool's bytes for every escaped name in `groups`.
#[inline(never)]
fn group_pool(doc: &Document<'_>, limits: &BbmodelLimits) -> Result<usize, Error> {
    let mut pool = 0;
    crate::bbmodel::project::structure::for_each_entry(doc, doc.groups, |i, at| {
        let data = read_group(doc, at, &GROUPS.with_index(i), None, limits)?;
        pool += escaped_len(&data.name);
        Ok(())
    })?;
    Ok(pool)
}

/// `plan`'s second stage: the texture rules and the elements, counted into
/// `counts` (nodes, textures, materials and what the elements draw).
#[allow(
    clippy::too_many_arguments,
    reason = "plan's inputs, passed through to the element count"
)]
#[inline(never)]
fn tally_elements(
    doc: &Document<'_>,
    options: &Options<'_>,
    pass: Pass,
    cubes: Cubes,
    counted: &VertexCounts,
    prescan: &Prescan,
    parts: &mut Parts,
    walk: &mut WalkScratch,
    counts: &mut SceneCounts,
) -> Result<ElementTally, Error> {
    let census = &parts.census;
    let uuids = walk.texture_uuids.get(..parts.named).unwrap_or_default();
    let textures = Textures::new(doc, census.textures, &[], uuids, parts.held_until);
    let rules = TextureRules::new(doc, &parts.summary);
    // The Hytale plugin's scale plays on a node of the group's main cube.
    let shape_nodes =
        main_shape::planned_nodes(doc.format, parts.animations.animators, census.nodes);
    *counts = SceneCounts {
        nodes: census.nodes + shape_nodes,
        textures: census.textures,
        materials: rules.material_count(census.textures),
        frame_steps: parts.frame_steps,
        mips: parts.images.images,
        pixels: parts.images.pixels,
        ..SceneCounts::default()
    };
    if rules.composite().is_some() {
        parts.pool += COMPOSITE_NAME.len();
    }
    let ctx = ElementContext {
        doc,
        limits: &options.limits,
        textures: &textures,
        rules: &rules,
        placed: Placement::Unknown,
        counted,
    };
    count_elements(&ctx, pass, cubes, prescan.cubes, counts, &mut walk.count)
}

/// `plan`'s last stage: the animations' and Molang's counts, and the plan's
/// scratch and notes.
#[inline(never)]
fn finish_plan(
    doc: &Document<'_>,
    limits: &BbmodelLimits,
    parts: Parts,
    elements: ElementTally,
    collections: &CollectionCounts,
    mut counts: SceneCounts,
    out: &mut Plan,
) -> Result<(), Error> {
    let Parts {
        census,
        animations,
        images,
        mut pool,
        ..
    } = parts;
    let ElementTally {
        pool: element_pool,
        max_keys,
        largest,
    } = elements;
    // Each node's first collection (Hytale), or its group texture (OptiFine).
    let collection_nodes =
        usize::from(crate::bbmodel::textures::collections::apply(doc)) * census.nodes;
    let group_textures = usize::from(doc.format.per_group_texture()) * census.nodes;
    pool += element_pool;
    // Animations: at most three channels per animator (an upper bound).
    counts.animations = animations.animations;
    counts.channels = animations.animators.saturating_mul(3);
    counts.keyframes = animations.keyframes;
    counts.keyframe_sources = animations.keyframes;
    counts.clip_blend_weights = animations.animations;
    // The Molang limits travel with the scene so sampling honours them.
    counts.molang_bounds = usize::from(animations.keyframes > 0);
    pool += animations.text;
    // The project's Molang placeholders, which Molang keyframes read.
    let mut molang = animations.molang;
    if animations.keyframes > 0
        && let Some(text) = placeholder_text(doc)?
    {
        pool += escaped_len(&Some(text));
        molang.add_placeholders(&text, &crate::molang::MolangLimits::of(limits));
    }
    counts.molang_programs = molang.programs;
    counts.molang_nodes = molang.nodes;
    counts.molang_text = molang.text;
    counts.molang_placeholders = molang.placeholders;
    let animation_scratch = ScratchSizes::new(census.nodes, &animations);
    counts.text_pool = pool;
    let element_refs = census.outliner_entries - census.nodes;
    let plan = Plan::new(counts, |scratch| {
        // The 5.x groups by uuid hash, to find a group's data.
        scratch.add::<UuidEntry>(census.group_entries)?;
        // Elements by uuid hash, to find two with one uuid.
        scratch.add::<ElementEntry>(census.elements)?;
        // The outliner's element uuids, to place each element as it is read.
        scratch.add::<OutlinerRef>(element_refs)?;
        // The largest mesh's vertex keys, their smooth-normal sums and
        // positions, and its faces' corners and faces between two loops.
        scratch.add::<KeyEntry>(max_keys)?;
        scratch.add::<u32>(key_slots(max_keys))?;
        scratch.add::<[f32; 3]>(max_keys)?;
        scratch.add::<[f32; 3]>(max_keys)?;
        scratch.add::<MeshCorner>(largest.corners)?;
        scratch.add::<KeptFace>(largest.faces)?;
        // Outliner groups by uuid, to find one placed twice.
        scratch.add::<UuidEntry>(census.nodes)?;
        // Meshes are written in file order and then put in outliner order.
        scratch.add::<[u64; 2]>(counts.meshes)?;
        scratch.add::<MeshRecord>(counts.meshes)?;
        // The PNG decoder's window and rows, for the largest image.
        scratch.add::<u8>(images.scratch)?;
        // Hytale collections: children by uuid hash, scopes, textures, and
        // each node's first collection; OptiFine: each node's group texture.
        scratch.add::<ChildEntry>(collections.children)?;
        scratch.add::<ScopeEntry>(collections.scoped)?;
        scratch.add::<i32>(collections.collections)?;
        scratch.add::<u32>(collection_nodes)?;
        scratch.add::<i32>(group_textures)?;
        // What faces need of each texture, and the textures by uuid.
        scratch.add::<TextureFacts>(census.textures)?;
        scratch.add::<UuidEntry>(census.textures)?;
        // The bytes after each texture's zlib stream, warned about after.
        scratch.add::<u64>(census.textures)?;
        // The most groups one mesh can have.
        scratch.add::<GroupSlot>(largest.groups)?;
        // Group tables, claims and one animator's keyframes.
        animation_scratch.add_to(scratch)?;
        // Each group's main cube (Hytale scale).
        scratch.add::<MainShape>(main_shape::table_len(doc.format, census.nodes))?;
        // The PNG decoder's state and the data URL's pieces, when there
        // are images to decode.
        scratch.add::<ImageScratch>(usize::from(images.images > 0))?;
        // The walks' tables: the fill's outliner walk works in them, and
        // `decode_into`'s counting pass borrows as much of the arena.
        scratch.add::<WalkScratch>(1)
    })?;
    let mut notes = [0; crate::arena::NOTES];
    notes[NOTE_GROUP_ENTRIES] = census.group_entries;
    notes[NOTE_ELEMENTS] = census.elements;
    notes[NOTE_MAX_KEYS] = max_keys;
    notes[NOTE_NODES] = census.nodes;
    notes[NOTE_ELEMENT_REFS] = element_refs;
    notes[NOTE_MAX_CORNERS] = largest.corners;
    notes[NOTE_MAX_FACES] = largest.faces;
    notes[NOTE_PNG_SCRATCH] = images.scratch;
    notes[NOTE_COLLECTION_CHILDREN] = collections.children;
    notes[NOTE_COLLECTION_SCOPES] = collections.scoped;
    notes[NOTE_COLLECTIONS] = collections.collections;
    notes[NOTE_COLLECTION_NODES] = collection_nodes;
    notes[NOTE_GROUP_TEXTURES] = group_textures;
    notes[NOTE_MAX_MESH_GROUPS] = largest.groups;
    notes[NOTE_ANIMATION_NODES] = animation_scratch.nodes;
    notes[NOTE_MAX_ANIMATOR_KEYFRAMES] = animation_scratch.keyframes;
    *out = plan.with_notes(notes);
    Ok(())
}
