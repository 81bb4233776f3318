//! The two passes over a .bbmodel: count (measure) and fill (decode_into).
//!
//! Both passes walk the same parts in the same order through
//! [`census`](crate::bbmodel::project::structure::census), [`walk_outliner`] and the group
//! readers, so the arena layout `measure` plans is the one `decode_into`
//! carves.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use crate::arena::{Arena, Plan};
use crate::bbmodel::animations::{
    AnimationArrays, AnimationScratch, Context as AnimationContext, MolangWriter, ScratchSizes,
    count_molang, fill_animations, uuid_key,
};
use crate::bbmodel::document::Document;
use crate::bbmodel::document::text_hash::{string_at, text_hash};
use crate::bbmodel::document::text_pool::Pool;
use crate::bbmodel::document::text_pool::escaped_len;
use crate::bbmodel::document::value::{Cursor, GROUPS, Path, known_key};
use crate::bbmodel::elements::context::VertexCounts;
use crate::bbmodel::elements::context::{ElementContext, Pass};
use crate::bbmodel::elements::count::{Cubes, ElementTally, count_elements};
use crate::bbmodel::elements::mesh::keys::{KeyEntry, key_slots};
use crate::bbmodel::elements::read::{Element, ElementBody, read_element};
use crate::bbmodel::elements::writer::{GroupSlot, KeptFace, MeshCorner, MeshScratch, MeshWriter};
use crate::bbmodel::layout::{mismatch, offset};
use crate::bbmodel::main_shape::{self, MainShape, ShapeArrays};
use crate::bbmodel::options::Options;
use crate::bbmodel::prescan::Prescan;
use crate::bbmodel::project::structure::{
    Census, GroupFields, OutlinerEvent, census_walk, for_each_value, walk_outliner_in,
};
use crate::bbmodel::project::uuid_tables::{
    ElementEntry, OutlinerRef, UuidEntry, body_offset, elements_unique, group_data_at, group_entry,
    group_table, groups_placed_once, place,
};
use crate::bbmodel::textures::collections::{ChildEntry, Collections, ScopeEntry};
use crate::bbmodel::textures::entries::{TextureFacts, Textures, for_each_texture, uuid_entry};
use crate::bbmodel::textures::pixels::{ImageTally, ImageWriter, TrailingData, validate_image};
use crate::bbmodel::textures::records::{COMPOSITE_NAME, write_composite, write_texture};
use crate::bbmodel::textures::shown::{
    NO_GROUP_TEXTURE, Placement, TextureRules, TextureSummary, group_texture,
};
use crate::bbmodel::textures::source::ImageScratch;
use crate::bbmodel::walk_scratch::WalkScratch;
use crate::error::{Error, Location, Quote, Warning, WarningCode, Warnings};
use crate::json::TokenKind;
use crate::limits::BbmodelLimits;
use crate::png::Window;
use crate::scene::{
    Format, MeshRecord, NodeFlags, NodeRecord, Scene, SceneArrays, SceneCounts, TextRef,
};

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

/// Counts the scene and the scratch the fill pass needs, checking every
/// value (`pass` [`Pass::Measure`]) or leaving to the fill pass what it
/// checks itself ([`Pass::Count`]); the plan is the same, unless `cubes`
/// bounds cubes instead of counting them ([`Cubes::Bounded`]).
#[allow(
    clippy::too_many_arguments,
    reason = "what to count with, and the caller's scratch: the window and images' and the walks'"
)]
pub(crate) fn plan(
    doc: &Document<'_>,
    options: &Options<'_>,
    pass: Pass,
    cubes: Cubes,
    counted: &VertexCounts,
    prescan: &Prescan,
    window: Option<(&mut Window, &mut ImageScratch)>,
    walk: &mut WalkScratch,
) -> Result<(Plan, Census), Error> {
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
        _ => crate::bbmodel::animations::count_animations(doc, limits, pass == Pass::Measure)?,
    };
    // Keyframes counted by their commas: their Molang is counted apart.
    if pass == Pass::Count && animations.animations > 0 {
        animations.molang = count_molang(doc, limits)?;
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
    let uuids = held.get_mut(..named).unwrap_or_default();
    uuids.sort_unstable();
    let textures = Textures::new(doc, census.textures, &[], uuids, held_until);
    let rules = TextureRules::new(doc, &summary);
    let collections = crate::bbmodel::textures::collections::count(doc)?;
    // Each node's first collection (Hytale), or its group texture (OptiFine).
    let collection_nodes =
        usize::from(crate::bbmodel::textures::collections::apply(doc)) * census.nodes;
    let group_textures = usize::from(doc.format.per_group_texture()) * census.nodes;
    // The Hytale plugin's scale plays on a node of the group's main cube.
    let shape_nodes = main_shape::planned_nodes(doc.format, animations.animators, census.nodes);
    let mut counts = SceneCounts {
        nodes: census.nodes + shape_nodes,
        textures: census.textures,
        materials: rules.material_count(census.textures),
        frame_steps,
        mips: images.images,
        pixels: images.pixels,
        ..SceneCounts::default()
    };
    if rules.composite().is_some() {
        pool += COMPOSITE_NAME.len();
    }
    crate::bbmodel::project::structure::for_each_entry(doc, doc.groups, |i, at| {
        let data = read_group(doc, at, &GROUPS.with_index(i), None, limits)?;
        pool += escaped_len(&data.name);
        Ok(())
    })?;
    let ctx = ElementContext {
        doc,
        limits,
        textures: &textures,
        rules: &rules,
        placed: Placement::Unknown,
        counted,
    };
    let ElementTally {
        pool: element_pool,
        max_keys,
        largest,
    } = count_elements(
        &ctx,
        pass,
        cubes,
        prescan.cubes,
        &mut counts,
        &mut walk.count,
    )?;
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
    Ok((plan.with_notes(notes), census))
}

/// Where `plan` notes the sizes `fill` carves its scratch by.
const NOTE_GROUP_ENTRIES: usize = 0;
const NOTE_ELEMENTS: usize = 1;
const NOTE_MAX_KEYS: usize = 2;
const NOTE_NODES: usize = 3;
const NOTE_ELEMENT_REFS: usize = 4;
const NOTE_MAX_CORNERS: usize = 5;
const NOTE_MAX_FACES: usize = 6;
const NOTE_PNG_SCRATCH: usize = 7;
const NOTE_ANIMATION_NODES: usize = 8;
const NOTE_MAX_ANIMATOR_KEYFRAMES: usize = 9;
const NOTE_COLLECTION_CHILDREN: usize = 10;
const NOTE_COLLECTION_SCOPES: usize = 11;
const NOTE_COLLECTIONS: usize = 12;
const NOTE_COLLECTION_NODES: usize = 13;
const NOTE_GROUP_TEXTURES: usize = 14;
const NOTE_MAX_MESH_GROUPS: usize = 15;

/// Reads a group object's own fields ([`GroupFields`]); `path` is the
/// object's, for errors (`$.outliner`, or `$.groups[i]`).
///
/// `children_end` is where the object's `children` array closes when the
/// outliner walk already read it: the read jumps there, so a group's own
/// keys cost the same however much lies under it.
fn read_group<'a>(
    doc: &Document<'a>,
    at: usize,
    path: &Path<'_>,
    mut children_end: Option<usize>,
    limits: &BbmodelLimits,
) -> Result<GroupFields<'a>, Error> {
    const KEYS: [&str; 6] = [
        "children",
        GroupFields::KEYS[0],
        GroupFields::KEYS[1],
        GroupFields::KEYS[2],
        GroupFields::KEYS[3],
        GroupFields::KEYS[4],
    ];
    let mut c: Cursor<'a> = doc.cursor(at);
    let mut data = GroupFields::DEFAULT;
    if c.next()?.kind != TokenKind::BeginObject {
        return Ok(data);
    }
    while let Some(key) = c.next_key()? {
        let value = c.next()?;
        match known_key(&key, &KEYS) {
            Some("children") => match children_end {
                // The walk followed the first `children` that is an array.
                Some(end) if value.kind == TokenKind::BeginArray => {
                    c.leave_at(end)?;
                    children_end = None;
                }
                _ => c.skip_rest(&value)?,
            },
            Some(field) => data.read(field, &value, &mut c, path, limits.max_string_chars)?,
            None => c.skip_rest(&value)?,
        }
    }
    Ok(data)
}

/// Fills the scene: nodes from the outliner, then every element in file
/// order, each read once, its meshes put in outliner order at the end.
pub(crate) fn fill<'a>(
    doc: &Document<'a>,
    options: &Options<'_>,
    plan: &Plan,
    arena: &mut Arena<'a>,
    warnings: &mut Warnings,
) -> Result<Scene<'a>, Error> {
    let limits = &options.limits;
    let counts = *plan.counts();
    let arrays = SceneArrays::carve(&counts, arena)?;
    let mut pool = Pool {
        bytes: &mut *arrays.text_pool,
        len: 0,
    };
    // Scratch, in the order `plan` sized it.
    let group_entries = arena.slice::<UuidEntry>(plan.note(NOTE_GROUP_ENTRIES))?;
    let elements_by_uuid = arena.slice::<ElementEntry>(plan.note(NOTE_ELEMENTS))?;
    let refs = arena.slice::<OutlinerRef>(plan.note(NOTE_ELEMENT_REFS))?;
    let key_table = arena.slice::<KeyEntry>(plan.note(NOTE_MAX_KEYS))?;
    let key_index = arena.slice::<u32>(key_slots(plan.note(NOTE_MAX_KEYS)))?;
    let normal_sums = arena.slice::<[f32; 3]>(plan.note(NOTE_MAX_KEYS))?;
    let key_positions = arena.slice::<[f32; 3]>(plan.note(NOTE_MAX_KEYS))?;
    let mesh_corners = arena.slice::<MeshCorner>(plan.note(NOTE_MAX_CORNERS))?;
    let kept_faces = arena.slice::<KeptFace>(plan.note(NOTE_MAX_FACES))?;
    let placed_groups = arena.slice::<UuidEntry>(plan.note(NOTE_NODES))?;
    let mesh_order = arena.slice::<[u64; 2]>(counts.meshes)?;
    let mesh_copy = arena.slice::<MeshRecord>(counts.meshes)?;
    let png_scratch = arena.slice::<u8>(plan.note(NOTE_PNG_SCRATCH))?;
    let collection_children = arena.slice::<ChildEntry>(plan.note(NOTE_COLLECTION_CHILDREN))?;
    let collection_scopes = arena.slice::<ScopeEntry>(plan.note(NOTE_COLLECTION_SCOPES))?;
    let collection_textures = arena.slice::<i32>(plan.note(NOTE_COLLECTIONS))?;
    let collection_nodes = arena.slice::<u32>(plan.note(NOTE_COLLECTION_NODES))?;
    let group_textures = arena.slice::<i32>(plan.note(NOTE_GROUP_TEXTURES))?;
    let facts = arena.slice::<TextureFacts>(counts.textures)?;
    let texture_uuids = arena.slice::<UuidEntry>(counts.textures)?;
    let mesh_groups = arena.slice::<GroupSlot>(plan.note(NOTE_MAX_MESH_GROUPS))?;
    let animation_scratch = ScratchSizes {
        nodes: plan.note(NOTE_ANIMATION_NODES),
        keyframes: plan.note(NOTE_MAX_ANIMATOR_KEYFRAMES),
    }
    .carve(arena)?;
    let group_uuids = animation_scratch.uuids;
    let group_count = plan.note(NOTE_NODES);
    let main_shapes = arena.slice::<MainShape>(main_shape::table_len(doc.format, group_count))?;
    let image_scratch = arena.slice::<ImageScratch>(usize::from(counts.mips > 0))?;
    let [walk] = arena.slice::<WalkScratch>(1)? else {
        return Err(mismatch());
    };

    // Textures, each read once and written as it is read: its record,
    // material, frame steps and pixels, and what faces need of it.
    let files = options.texture_files;
    let (mut summary, mut images, mut step, mut named) = (
        TextureSummary::default(),
        ImageWriter::default(),
        0usize,
        0usize,
    );
    let mut trailing = TrailingData::default();
    for_each_texture(doc, limits, files, Some(&mut *warnings), |i, meta| {
        summary.add(i, &meta);
        let name = match &meta.name {
            Some(n) => pool.text(doc.bytes, n)?,
            None => TextRef::EMPTY,
        };
        let (records, materials) = (&mut *arrays.textures, &mut *arrays.materials);
        write_texture(
            i,
            &meta,
            name,
            &mut step,
            records,
            materials,
            arrays.frame_steps,
            mismatch,
        )?;
        let record = records.get_mut(i).ok_or_else(mismatch)?;
        let after_stream = images.decode(
            i,
            &meta,
            files,
            record,
            arrays.mips,
            arrays.pixels,
            png_scratch,
            image_scratch,
            mismatch,
        )?;
        trailing.note(i, after_stream);
        *facts.get_mut(i).ok_or_else(mismatch)? = TextureFacts::of(&meta);
        if let Some(entry) = uuid_entry(doc, i, &meta) {
            *texture_uuids.get_mut(named).ok_or_else(mismatch)? = entry;
            named += 1;
        }
        Ok(())
    })?;
    trailing.warn(warnings);
    let texture_uuids = texture_uuids.get_mut(..named).ok_or_else(mismatch)?;
    texture_uuids.sort_unstable();
    let textures = Textures::new(doc, counts.textures, facts, texture_uuids, counts.textures);
    let rules = TextureRules::new(doc, &summary);
    let composite_name = if rules.composite().is_some() {
        pool.literal(COMPOSITE_NAME)?
    } else {
        TextRef::EMPTY
    };
    write_composite(
        &rules,
        counts.textures,
        arrays.materials,
        composite_name,
        mismatch,
    )?;
    let mut collections = Collections::read(
        doc,
        &textures,
        collection_children,
        collection_scopes,
        collection_textures,
        collection_nodes,
        warnings,
        mismatch,
    )?;
    group_table(doc, group_entries, limits.max_string_chars)?;

    // One walk of the outliner: where it places each element uuid, its
    // groups' uuids (checked for a group placed twice afterwards), and the
    // nodes, each written from its object's fields as the walk reads them.
    // Group nodes first; shape nodes (Hytale scale) after them, at the end.
    let nodes = arrays.nodes.get_mut(..group_count).ok_or_else(mismatch)?;
    let (mut placed, mut named) = (0usize, 0usize);
    // A group placed twice can write its name twice, past the text the
    // plan counted: that overflow waits until "placed twice" is ruled out.
    let mut overflow = None;
    let mut group_error = None;
    let mut write_node = |node: usize, parent: i32, data: &GroupFields<'a>| -> Result<(), Error> {
        let mut rotation = data.rotation.map(f32::to_radians);
        // Convention 13: files before 3.2 stored a group's z rotation negated.
        if doc.version.before(3, 2) {
            rotation[2] = -rotation[2];
        }
        let name = match data.name {
            Some(name) => pool.text(doc.bytes, &name).unwrap_or_else(|e| {
                overflow.get_or_insert(e);
                TextRef::EMPTY
            }),
            None => TextRef::EMPTY,
        };
        *nodes.get_mut(node).ok_or_else(mismatch)? = NodeRecord {
            name,
            parent,
            flags: if data.visible { NodeFlags::VISIBLE } else { 0 },
            translation: [0.0; 3],
            rotation,
            scale: [1.0; 3],
            pivot: data.origin,
        };
        Ok(())
    };
    walk_outliner_in(
        doc,
        limits,
        &mut walk.outliner,
        Some(&mut group_error),
        |event| {
            match event {
                OutlinerEvent::Group {
                    node,
                    parent,
                    uuid,
                    fields,
                    ..
                } => {
                    if let Some(uuid) = uuid {
                        *placed_groups.get_mut(placed).ok_or_else(mismatch)? = UuidEntry {
                            hash: text_hash(&uuid),
                            at: body_offset(doc, &uuid),
                            index: node as u64,
                        };
                        // Animators find their group by uuid.
                        if let Some(slot) = group_uuids.get_mut(placed) {
                            *slot = uuid_key(doc, &uuid, node);
                        }
                        placed += 1;
                    }
                    collections.place_group(doc, node, parent, uuid);
                    // A 5.x group's fields are its `groups` entry's.
                    let (data, entry) = match group_entry(doc, group_entries, uuid)? {
                        Some(e) => (
                            read_group(doc, offset(e.at), &GROUPS, None, limits)?,
                            Some(offset(e.index)),
                        ),
                        None => (fields, None),
                    };
                    write_node(node, parent, &data)?;
                    if let Some(slot) = group_textures.get_mut(node) {
                        let outliner = Path::key("outliner");
                        let group = entry.map(|i| GROUPS.with_index(i));
                        let at = group.as_ref().unwrap_or(&outliner).with_key("texture");
                        *slot = group_texture(&textures, &data.texture, &at, Some(&mut *warnings));
                    }
                }
                OutlinerEvent::GroupEnd {
                    node,
                    parent,
                    outliner_at,
                    uuid,
                    children_end,
                    keys_after_children: true,
                } => {
                    // Keys after `children` (never written by Blockbench): read
                    // the inline object again, whole, jumping over its children.
                    if group_data_at(doc, group_entries, outliner_at, uuid)? == outliner_at {
                        let outliner = Path::key("outliner");
                        let data = read_group(doc, outliner_at, &outliner, children_end, limits)?;
                        write_node(node, parent, &data)?;
                        if let Some(slot) = group_textures.get_mut(node) {
                            *slot = group_texture(&textures, &data.texture, &outliner, None);
                        }
                    }
                }
                OutlinerEvent::GroupEnd { .. } => {}
                OutlinerEvent::Element { uuid, parent } => {
                    *refs.get_mut(named).ok_or_else(mismatch)? = OutlinerRef {
                        hash: text_hash(&uuid),
                        seq: named as u64,
                        at: body_offset(doc, &uuid),
                        parent,
                        taken: 0,
                    };
                    named += 1;
                }
            }
            Ok(())
        },
    )?;
    if let Some(e) = group_error {
        return Err(e);
    }
    groups_placed_once(doc, placed_groups.get_mut(..placed).unwrap_or_default())?;
    if let Some(e) = overflow {
        return Err(e);
    }
    let refs = refs.get_mut(..named).ok_or_else(mismatch)?;
    refs.sort_unstable();

    // Elements in file order, each read once and written where the
    // outliner places it.
    let mut meshes = MeshWriter {
        meshes: &mut *arrays.meshes,
        groups: &mut *arrays.groups,
        positions: &mut *arrays.positions,
        normals: &mut *arrays.normals,
        uvs: &mut *arrays.uvs,
        indices: &mut *arrays.indices,
        uv_rects: &mut *arrays.uv_rects,
        mesh: 0,
        group: 0,
        vertex: 0,
        index: 0,
    };
    let ctx = ElementContext {
        doc,
        limits,
        textures: &textures,
        rules: &rules,
        placed: Placement::Nothing,
        // The fill pass walks each `vertices` object once, for its keys.
        counted: &VertexCounts::new(None),
    };
    let mut elements = 0usize;
    for_each_value(doc, doc.elements, |i, first, c| {
        let at = c.offset_of(&first);
        let Element { head, body } = read_element(&ctx, Pass::Fill, i, &first, c, Some(warnings))?;
        *elements_by_uuid.get_mut(i).ok_or_else(mismatch)? = ElementEntry {
            hash: head.uuid.as_ref().map_or(0, text_hash),
            at: at as u64,
            index: i as u64,
        };
        elements += 1;
        let (parent, order) = match &head.uuid {
            Some(uuid) => place(doc, refs, uuid, i)?,
            None => None,
        }
        // Elements the outliner does not place follow at the root, in file order.
        .unwrap_or((-1, named as u64 + i as u64));
        let name = match (&head.name, &body) {
            (_, ElementBody::Unsupported) | (None, _) => TextRef::EMPTY,
            (Some(n), _) => pool.text(doc.bytes, n)?,
        };
        let mesh = meshes.mesh;
        // Convention 15: the texture the element's place gives its faces.
        let placed = if !rules.by_placement() {
            Placement::Nothing
        } else if doc.format.per_group_texture() {
            let texture = usize::try_from(parent)
                .ok()
                .and_then(|p| group_textures.get(p).copied());
            match texture {
                None | Some(NO_GROUP_TEXTURE) => Placement::Nothing,
                Some(t) => Placement::Texture(t),
            }
        } else {
            collections.cube(doc, head.uuid.as_ref(), head.scope, parent)
        };
        let ctx = ElementContext { placed, ..ctx };
        match body {
            ElementBody::Cube(cube) => {
                meshes.drawn_cube(&ctx, &cube, name, &head, parent)?;
                let (rotation, centre) = cube.rotation_and_centre();
                main_shape::note_cube(main_shapes, parent, order, rotation, centre);
            }
            ElementBody::Mesh(mesh) => {
                let scratch = MeshScratch {
                    keys: &mut *key_table,
                    slots: &mut *key_index,
                    positions: &mut *key_positions,
                    normals: &mut *normal_sums,
                    corners: &mut *mesh_corners,
                    faces: &mut *kept_faces,
                    groups: &mut *mesh_groups,
                    face: &mut walk.count.face,
                };
                meshes.mesh(&ctx, i, &mesh, name, &head, parent, scratch)?;
            }
            ElementBody::Unsupported => return Ok(()),
        }
        *mesh_order.get_mut(mesh).ok_or_else(mismatch)? = [order, mesh as u64];
        Ok(())
    })?;
    if elements != elements_by_uuid.len() {
        return Err(mismatch());
    }
    elements_unique(doc, elements_by_uuid)?;

    // Uuids the outliner names that no element has, in outliner order.
    refs.sort_unstable_by_key(|r| r.seq);
    for r in refs.iter().filter(|r| r.taken == 0) {
        let uuid = string_at(doc, offset(r.at)).map_or("", |s| s.raw_str());
        warnings.push(Warning::new(
            WarningCode::UnknownReference,
            Location::Json(Path::key("outliner").render()),
            format_args!(
                "outliner names {}, which no element has: skipped",
                Quote(uuid)
            ),
        ));
    }

    // Meshes in outliner order (their vertices stay where they were written).
    let written = meshes.mesh;
    let order = mesh_order.get_mut(..written).ok_or_else(mismatch)?;
    if !order.is_sorted_by_key(|o| o[0]) {
        let records = meshes.meshes.get_mut(..written).ok_or_else(mismatch)?;
        let copy = mesh_copy.get_mut(..written).ok_or_else(mismatch)?;
        copy.copy_from_slice(records);
        order.sort_unstable_by_key(|o| o[0]);
        for (record, [_, from]) in records.iter_mut().zip(order.iter()) {
            *record = *copy.get(offset(*from)).ok_or_else(mismatch)?;
        }
    }

    // Animations, once the nodes they move are known.
    let animations = fill_animations(
        &AnimationContext { doc, limits, nodes },
        AnimationArrays {
            animations: &mut *arrays.animations,
            channels: &mut *arrays.channels,
            keyframes: &mut *arrays.keyframes,
            keyframe_sources: &mut *arrays.keyframe_sources,
            clip_blend_weights: &mut *arrays.clip_blend_weights,
            molang: MolangWriter {
                programs: &mut *arrays.molang_programs,
                nodes: &mut *arrays.molang_nodes,
                text: &mut *arrays.molang_text,
                placeholders: &mut *arrays.molang_placeholders,
                written: Default::default(),
                limits: crate::molang::MolangLimits::of(limits),
            },
        },
        AnimationScratch {
            uuids: group_uuids,
            ..animation_scratch
        },
        placed.min(plan.note(NOTE_ANIMATION_NODES)),
        &mut pool,
        warnings,
    )?;
    let (animations, mut molang) = animations;

    // Hytale scale: a node for each scaled group's main cube.
    let node_count = main_shape::add_shape_nodes(
        main_shapes,
        arrays
            .channels
            .get(..animations.channels)
            .unwrap_or_default(),
        ShapeArrays {
            nodes: &mut *arrays.nodes,
            groups: group_count,
            meshes: meshes.meshes.get_mut(..written).ok_or_else(mismatch)?,
            order,
        },
    )?;

    if let Some(slot) = arrays.molang_bounds.first_mut() {
        *slot = crate::molang::MolangLimits::of(limits).to_words();
    }
    // The placeholders, compiled when keyframes may read them (the plan
    // counted them then): decoded into the pool when escaped.
    if animations.keyframes > 0
        && let Some(text) = placeholder_text(doc)?
    {
        let span = pool.text(doc.bytes, &text)?;
        let bytes: &[u8] = match span.source() {
            crate::scene::TextSource::Input => doc.bytes,
            crate::scene::TextSource::Pool => pool.bytes,
        };
        let text = bytes
            .get(span.range())
            .and_then(|b| core::str::from_utf8(b).ok())
            .ok_or_else(mismatch)?;
        let mut writer = MolangWriter {
            programs: &mut *arrays.molang_programs,
            nodes: &mut *arrays.molang_nodes,
            text: &mut *arrays.molang_text,
            placeholders: &mut *arrays.molang_placeholders,
            written: molang,
            limits: crate::molang::MolangLimits::of(limits),
        };
        writer.compile_placeholders(text)?;
        molang = writer.written;
    }

    // Faces without area were planned for and not written: hand out only
    // what was written.
    let used = SceneCounts {
        nodes: node_count,
        meshes: meshes.mesh,
        groups: meshes.group,
        positions: meshes.vertex,
        normals: meshes.vertex,
        uvs: meshes.vertex,
        indices: meshes.index,
        uv_rects: meshes.index / 3,
        animations: animations.animations,
        channels: animations.channels,
        keyframes: animations.keyframes,
        keyframe_sources: animations.keyframes,
        clip_blend_weights: animations.animations,
        molang_programs: molang.programs,
        molang_nodes: molang.nodes,
        molang_text: molang.text,
        molang_placeholders: molang.placeholders,
        text_pool: pool.len,
        ..counts
    };
    let arrays = arrays.truncate(&used);
    Ok(Scene::new(Format::Bbmodel, doc.bytes, arrays))
}

/// The project's `animation_variable_placeholders` when it is a string
/// (Blockbench reads it as text; anything else is no placeholders).
fn placeholder_text<'a>(
    doc: &crate::bbmodel::document::Document<'a>,
) -> Result<Option<crate::json::JsonStr<'a>>, Error> {
    let Some(at) = doc.placeholders else {
        return Ok(None);
    };
    let mut c = doc.cursor(at);
    let token = c.next()?;
    Ok(match token.kind {
        crate::json::TokenKind::String(s) => Some(s),
        _ => None,
    })
}
