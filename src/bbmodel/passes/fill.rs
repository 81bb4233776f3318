//! The fill pass: the scene written into the arena the plan sized, each
//! part read once, in the order the counting pass counted it.
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
use crate::arena::{Arena, Plan};
use crate::bbmodel::animations::{
    AnimationArrays, AnimationScratch, Context as AnimationContext, MolangTally, MolangWriter,
    ScratchSizes, Written, fill_animations, uuid_key,
};
use crate::bbmodel::document::Document;
use crate::bbmodel::document::text_hash::{string_at, text_hash};
use crate::bbmodel::document::text_pool::Pool;
use crate::bbmodel::document::value::{GROUPS, Path};
use crate::bbmodel::elements::context::VertexCounts;
use crate::bbmodel::elements::context::{ElementContext, Pass};
use crate::bbmodel::elements::mesh::keys::{KeyEntry, key_slots};
use crate::bbmodel::elements::read::{Element, ElementBody, read_element};
use crate::bbmodel::elements::writer::{GroupSlot, KeptFace, MeshCorner, MeshScratch, MeshWriter};
use crate::bbmodel::layout::{mismatch, offset};
use crate::bbmodel::main_shape::{self, MainShape, ShapeArrays};
use crate::bbmodel::options::Options;
use crate::bbmodel::project::structure::{
    GroupFields, OutlinerEvent, for_each_value, walk_outliner_in,
};
use crate::bbmodel::project::uuid_tables::{
    ElementEntry, OutlinerRef, UuidEntry, body_offset, elements_unique, group_data_at, group_entry,
    group_table, groups_placed_once, place,
};
use crate::bbmodel::textures::collections::{ChildEntry, Collections, ScopeEntry};
use crate::bbmodel::textures::entries::{TextureFacts, Textures, for_each_texture, uuid_entry};
use crate::bbmodel::textures::pixels::{ImageWriter, TrailingData};
use crate::bbmodel::textures::records::{COMPOSITE_NAME, write_composite, write_texture};
use crate::bbmodel::textures::shown::{
    NO_GROUP_TEXTURE, Placement, TextureRules, TextureSummary, group_texture,
};
use crate::bbmodel::textures::source::ImageScratch;
use crate::bbmodel::walk_scratch::WalkScratch;
use crate::error::{Error, Location, Quote, Warning, WarningCode, Warnings};
use crate::limits::BbmodelLimits;
use crate::scene::{
    Format, MeshRecord, NodeFlags, NodeRecord, Scene, SceneArrays, SceneCounts, TextRef,
};

/// The fill's scratch, carved from the arena in the order `plan` sized it.
///
/// Carved in a frame of its own: each carve can fail with an [`Error`],
/// and two dozen of those results inlined into `fill` held its frame at
/// 6 KiB under every element and animation read.
struct FillScratch<'a> {
    group_entries: &'a mut [UuidEntry],
    elements_by_uuid: &'a mut [ElementEntry],
    refs: &'a mut [OutlinerRef],
    key_table: &'a mut [KeyEntry],
    key_index: &'a mut [u32],
    normal_sums: &'a mut [[f32; 3]],
    key_positions: &'a mut [[f32; 3]],
    mesh_corners: &'a mut [MeshCorner],
    kept_faces: &'a mut [KeptFace],
    placed_groups: &'a mut [UuidEntry],
    mesh_order: &'a mut [[u64; 2]],
    mesh_copy: &'a mut [MeshRecord],
    png_scratch: &'a mut [u8],
    collection_children: &'a mut [ChildEntry],
    collection_scopes: &'a mut [ScopeEntry],
    collection_textures: &'a mut [i32],
    collection_nodes: &'a mut [u32],
    group_textures: &'a mut [i32],
    facts: &'a mut [TextureFacts],
    texture_uuids: &'a mut [UuidEntry],
    trailing: &'a mut [u64],
    mesh_groups: &'a mut [GroupSlot],
    main_shapes: &'a mut [MainShape],
    image_scratch: &'a mut [ImageScratch],
    animation_scratch: AnimationScratch<'a>,
    walk: &'a mut WalkScratch,
}

impl<'a> FillScratch<'a> {
    #[inline(never)]
    fn carve(
        doc: &Document<'_>,
        plan: &Plan,
        counts: &SceneCounts,
        arena: &mut Arena<'a>,
    ) -> Result<Self, Error> {
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
        let trailing = arena.slice::<u64>(counts.textures)?;
        let mesh_groups = arena.slice::<GroupSlot>(plan.note(NOTE_MAX_MESH_GROUPS))?;
        let animation_scratch = ScratchSizes {
            nodes: plan.note(NOTE_ANIMATION_NODES),
            keyframes: plan.note(NOTE_MAX_ANIMATOR_KEYFRAMES),
        }
        .carve(arena)?;
        let group_count = plan.note(NOTE_NODES);
        let main_shapes =
            arena.slice::<MainShape>(main_shape::table_len(doc.format, group_count))?;
        let image_scratch = arena.slice::<ImageScratch>(usize::from(counts.mips > 0))?;
        let [walk] = arena.slice::<WalkScratch>(1)? else {
            return Err(mismatch());
        };
        Ok(Self {
            group_entries,
            elements_by_uuid,
            refs,
            key_table,
            key_index,
            normal_sums,
            key_positions,
            mesh_corners,
            kept_faces,
            placed_groups,
            mesh_order,
            mesh_copy,
            png_scratch,
            collection_children,
            collection_scopes,
            collection_textures,
            collection_nodes,
            group_textures,
            facts,
            texture_uuids,
            trailing,
            mesh_groups,
            main_shapes,
            image_scratch,
            animation_scratch,
            walk,
        })
    }
}

/// Fills the scene: nodes from the outliner, then every element in file
/// order, each read once, its meshes put in outliner order at the end.
///
/// `fill` carves and hands out; each stage is a frame of its own, so the
/// element and animation reads at the bottom of the deepest paths run
/// under a few hundred bytes of `fill`, not under every stage's locals
/// (issue 40: every corpus file in 16 KiB of stack).
pub(crate) fn fill<'a>(
    doc: &Document<'a>,
    options: &Options<'_>,
    plan: &Plan,
    arena: &mut Arena<'a>,
    warnings: &mut Warnings,
) -> Result<Scene<'a>, Error> {
    let limits = &options.limits;
    let counts = *plan.counts();
    let mut arrays = SceneArrays::default();
    arrays.carve_into(&counts, arena)?;
    let mut s = FillScratch::carve(doc, plan, &counts, arena)?;
    let mut pool = Pool {
        bytes: core::mem::take(&mut arrays.text_pool),
        len: 0,
    };
    let (group_count, placed, written) =
        fill_model(doc, options, plan, &mut arrays, &mut s, &mut pool, warnings)?;

    // Animations, once the nodes they move are known, and the shape nodes
    // their Hytale scale plays on.
    let (animations, molang, node_count) = fill_animation_stage(
        doc,
        limits,
        &mut arrays,
        &mut s,
        placed,
        group_count,
        written.meshes,
        &mut pool,
        warnings,
    )?;

    // Faces without area were planned for and not written: hand out only
    // what was written.
    let used = SceneCounts {
        nodes: node_count,
        meshes: written.meshes,
        groups: written.groups,
        positions: written.vertices,
        normals: written.vertices,
        uvs: written.vertices,
        indices: written.indices,
        uv_rects: written.indices / 3,
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
    arrays.text_pool = pool.bytes;
    hand_out(doc.bytes, &mut arrays, &used)
}

/// The fill's model stages under `fill`: textures, the outliner's nodes
/// and the elements' meshes. The node count, what the outliner placed and
/// what the element stage wrote.
///
/// A frame of its own: the textures, collections and mesh writer it holds
/// are done with before the animation stage, which now runs under `fill`'s
/// arrays and scratch alone (issue 40).
#[allow(
    clippy::too_many_arguments,
    reason = "the pass's inputs and the arrays and scratch it writes, each its own borrow"
)]
#[inline(never)]
fn fill_model<'a>(
    doc: &Document<'a>,
    options: &Options<'_>,
    plan: &Plan,
    arrays: &mut SceneArrays<'a>,
    s: &mut FillScratch<'a>,
    pool: &mut Pool<'_>,
    warnings: &mut Warnings,
) -> Result<(usize, Placed, MeshTotals), Error> {
    let limits = &options.limits;
    let (textures, rules) = fill_textures(doc, options, arrays, pool, s, warnings)?;
    let mut collections = Collections::read(
        doc,
        &textures,
        core::mem::take(&mut s.collection_children),
        core::mem::take(&mut s.collection_scopes),
        core::mem::take(&mut s.collection_textures),
        core::mem::take(&mut s.collection_nodes),
        warnings,
        mismatch,
    )?;
    group_table(doc, s.group_entries, limits.max_string_chars)?;
    let group_count = plan.note(NOTE_NODES);
    let nodes = arrays.nodes.get_mut(..group_count).ok_or_else(mismatch)?;
    let Placed { groups, elements } = fill_outliner(
        doc,
        limits,
        &textures,
        &mut collections,
        nodes,
        pool,
        s,
        warnings,
    )?;

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
    let read = fill_elements(
        &ctx,
        &mut meshes,
        pool,
        ElementSlots {
            by_uuid: &mut *s.elements_by_uuid,
            refs: s.refs.get_mut(..elements).ok_or_else(mismatch)?,
            named: elements,
            group_textures: &*s.group_textures,
            collections: &collections,
            main_shapes: &mut *s.main_shapes,
            mesh_order: &mut *s.mesh_order,
            mesh: MeshScratch {
                keys: &mut *s.key_table,
                slots: &mut *s.key_index,
                positions: &mut *s.key_positions,
                normals: &mut *s.normal_sums,
                corners: &mut *s.mesh_corners,
                faces: &mut *s.kept_faces,
                groups: &mut *s.mesh_groups,
                face: &mut s.walk.count.face,
            },
        },
        warnings,
    )?;
    if read != s.elements_by_uuid.len() {
        return Err(mismatch());
    }
    let written = MeshTotals {
        meshes: meshes.mesh,
        groups: meshes.group,
        vertices: meshes.vertex,
        indices: meshes.index,
    };
    finish_elements(
        doc,
        s,
        elements,
        &mut *arrays.meshes,
        written.meshes,
        warnings,
    )?;
    Ok((group_count, Placed { groups, elements }, written))
}

/// The scene of what was written (`used` of each array), in a frame of its
/// own, written straight into `fill`'s return place. The arrays are taken
/// by reference (and emptied): passed by value, `fill` held a 560-byte
/// copy of them in its frame, under every stage (issue 40).
#[inline(never)]
fn hand_out<'a>(
    bytes: &'a [u8],
    arrays: &mut SceneArrays<'a>,
    used: &SceneCounts,
) -> Result<Scene<'a>, Error> {
    let arrays = core::mem::take(arrays);
    Ok(Scene::new(Format::Bbmodel, bytes, arrays.truncate(used)))
}

/// What the element stage wrote into the mesh arrays.
#[derive(Clone, Copy)]
struct MeshTotals {
    meshes: usize,
    groups: usize,
    vertices: usize,
    indices: usize,
}

/// What the outliner walk placed: groups by uuid, and element uuids.
#[derive(Clone, Copy)]
struct Placed {
    groups: usize,
    elements: usize,
}

/// The fill's texture stage: each texture read once and written as it is
/// read (its record, material, frame steps and pixels, and what faces need
/// of it), then the composite material; the textures as faces see them.
#[inline(never)]
fn fill_textures<'a>(
    doc: &Document<'a>,
    options: &Options<'_>,
    arrays: &mut SceneArrays<'a>,
    pool: &mut Pool<'_>,
    s: &mut FillScratch<'a>,
    warnings: &mut Warnings,
) -> Result<(Textures<'a>, TextureRules), Error> {
    let (limits, files) = (&options.limits, options.texture_files);
    let count = arrays.textures.len();
    let (facts, texture_uuids) = (
        core::mem::take(&mut s.facts),
        core::mem::take(&mut s.texture_uuids),
    );
    let (png_scratch, image_scratch) = (&mut *s.png_scratch, &mut *s.image_scratch);
    let (mut summary, mut images, mut step, mut named) = (
        TextureSummary::default(),
        ImageWriter::default(),
        0usize,
        0usize,
    );
    let mut trailing = TrailingData::new(&mut *s.trailing);
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
    let textures = Textures::new(doc, count, facts, texture_uuids, count);
    let rules = TextureRules::new(doc, &summary);
    let composite_name = if rules.composite().is_some() {
        pool.literal(COMPOSITE_NAME)?
    } else {
        TextRef::EMPTY
    };
    write_composite(&rules, count, arrays.materials, composite_name, mismatch)?;
    Ok((textures, rules))
}

/// The fill's outliner stage: one walk of the outliner, writing each group
/// node from its object's fields as the walk reads them, noting where it
/// places each element uuid and the groups' uuids (checked for a group
/// placed twice afterwards).
#[allow(
    clippy::too_many_arguments,
    reason = "the stage's inputs and the arrays it writes, each its own borrow"
)]
#[inline(never)]
fn fill_outliner<'a>(
    doc: &Document<'a>,
    limits: &BbmodelLimits,
    textures: &Textures<'_>,
    collections: &mut Collections<'_>,
    nodes: &mut [NodeRecord],
    pool: &mut Pool<'_>,
    s: &mut FillScratch<'_>,
    warnings: &mut Warnings,
) -> Result<Placed, Error> {
    let (group_entries, group_textures) = (&*s.group_entries, &mut *s.group_textures);
    let (placed_groups, group_uuids) = (&mut *s.placed_groups, &mut *s.animation_scratch.uuids);
    let refs = &mut *s.refs;
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
        &mut s.walk.outliner,
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
                        *slot = group_texture(textures, &data.texture, &at, Some(&mut *warnings));
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
                            *slot = group_texture(textures, &data.texture, &outliner, None);
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
    Ok(Placed {
        groups: placed,
        elements: named,
    })
}

/// After the elements: no two with one uuid, a warning for each uuid the
/// outliner names that no element has (in outliner order), and the
/// `written` meshes put in outliner order (their vertices stay where they
/// were written).
#[inline(never)]
fn finish_elements(
    doc: &Document<'_>,
    s: &mut FillScratch<'_>,
    named: usize,
    records: &mut [MeshRecord],
    written: usize,
    warnings: &mut Warnings,
) -> Result<(), Error> {
    elements_unique(doc, s.elements_by_uuid)?;
    let refs = s.refs.get_mut(..named).ok_or_else(mismatch)?;
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
    let order = s.mesh_order.get_mut(..written).ok_or_else(mismatch)?;
    if !order.is_sorted_by_key(|o| o[0]) {
        let records = records.get_mut(..written).ok_or_else(mismatch)?;
        let copy = s.mesh_copy.get_mut(..written).ok_or_else(mismatch)?;
        copy.copy_from_slice(records);
        order.sort_unstable_by_key(|o| o[0]);
        for (record, [_, from]) in records.iter_mut().zip(order.iter()) {
            *record = *copy.get(offset(*from)).ok_or_else(mismatch)?;
        }
    }
    Ok(())
}

/// The fill's animation stage: the clips, once the nodes they move are
/// known; a node for each Hytale-scaled group's main cube; the Molang
/// bounds and placeholders. What was written, and the node count.
#[allow(
    clippy::too_many_arguments,
    reason = "the stage's inputs and the arrays it writes, each its own borrow"
)]
#[inline(never)]
fn fill_animation_stage<'a>(
    doc: &Document<'a>,
    limits: &BbmodelLimits,
    arrays: &mut SceneArrays<'a>,
    s: &mut FillScratch<'_>,
    placed: Placed,
    group_count: usize,
    written_meshes: usize,
    pool: &mut Pool<'_>,
    warnings: &mut Warnings,
) -> Result<(Written, MolangTally, usize), Error> {
    let uuids_written = placed.groups.min(s.animation_scratch.uuids.len());
    let scratch = s.animation_scratch.reborrow();
    let nodes = arrays.nodes.get(..group_count).ok_or_else(mismatch)?;
    let (animations, mut molang) = fill_animations(
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
                work: &mut s.walk.molang,
            },
        },
        scratch,
        uuids_written,
        pool,
        warnings,
    )?;

    // Hytale scale: a node for each scaled group's main cube.
    let node_count = main_shape::add_shape_nodes(
        s.main_shapes,
        arrays
            .channels
            .get(..animations.channels)
            .unwrap_or_default(),
        ShapeArrays {
            nodes: &mut *arrays.nodes,
            groups: group_count,
            meshes: arrays
                .meshes
                .get_mut(..written_meshes)
                .ok_or_else(mismatch)?,
            order: s.mesh_order.get(..written_meshes).ok_or_else(mismatch)?,
        },
    )?;

    if let Some(slot) = arrays.molang_bounds.first_mut() {
        *slot = crate::molang::MolangLimits::of(limits).to_words();
    }
    // The placeholders, compiled when keyframes may read them (the plan
    // counted them then): decoded into the pool when escaped.
    if animations.keyframes > 0 {
        molang = fill_placeholders(doc, limits, arrays, &mut s.walk.molang, pool, molang)?;
    }
    Ok((animations, molang, node_count))
}

/// The placeholders, compiled when keyframes may read them (the plan
/// counted them then), decoded into the pool when escaped: what the
/// Molang arrays hold after them.
///
/// A frame of its own, so its writer and result are not in the animation
/// stage's frame while the clips are read under it (issue 40).
#[inline(never)]
fn fill_placeholders(
    doc: &Document<'_>,
    limits: &BbmodelLimits,
    arrays: &mut SceneArrays<'_>,
    work: &mut crate::molang::Work,
    pool: &mut Pool<'_>,
    molang: MolangTally,
) -> Result<MolangTally, Error> {
    let Some(text) = placeholder_text(doc)? else {
        return Ok(molang);
    };
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
        work,
    };
    writer.compile_placeholders(text)?;
    Ok(writer.written)
}

/// What the element stage writes besides the scene's arrays: each
/// element's uuid entry, the outliner places it takes, and the scratch a
/// mesh is built in.
struct ElementSlots<'s, 'c> {
    by_uuid: &'s mut [ElementEntry],
    /// The outliner's element uuids, sorted; `named` of them.
    refs: &'s mut [OutlinerRef],
    named: usize,
    group_textures: &'s [i32],
    collections: &'s Collections<'c>,
    main_shapes: &'s mut [MainShape],
    /// Each written mesh's outliner order.
    mesh_order: &'s mut [[u64; 2]],
    mesh: MeshScratch<'s>,
}

/// The fill's element stage: every element in file order, read once and
/// written where the outliner places it; the number read.
///
/// A frame of its own under `fill`, so the element reads (the deepest
/// path of most files) run under no more than this stage's locals.
#[inline(never)]
fn fill_elements<'a>(
    ctx: &ElementContext<'_, 'a>,
    meshes: &mut MeshWriter<'_>,
    pool: &mut Pool<'_>,
    mut slots: ElementSlots<'_, '_>,
    warnings: &mut Warnings,
) -> Result<usize, Error> {
    let doc = ctx.doc;
    let mut elements = 0usize;
    let mut element = Element::EMPTY;
    for_each_value(doc, doc.elements, |i, first, c| {
        let at = c.offset_of(&first);
        let out = &mut element;
        read_element(ctx, Pass::Fill, i, &first, c, Some(&mut *warnings), out)?;
        elements += 1;
        fill_element(ctx, meshes, pool, &mut slots, i, at, &element)
    })?;
    Ok(elements)
}

/// Writes element `i` (read whole; its object starts at byte `at`): its
/// uuid entry, its place in the outliner, its name, and what its type
/// draws. In a frame of its own, off the element walk each read runs under.
#[allow(
    clippy::too_many_arguments,
    reason = "the element stage's state, lent for one element"
)]
#[inline(never)]
fn fill_element(
    ctx: &ElementContext<'_, '_>,
    meshes: &mut MeshWriter<'_>,
    pool: &mut Pool<'_>,
    slots: &mut ElementSlots<'_, '_>,
    i: usize,
    at: usize,
    element: &Element<'_>,
) -> Result<(), Error> {
    let (doc, rules) = (ctx.doc, ctx.rules);
    let Element { head, body } = element;
    *slots.by_uuid.get_mut(i).ok_or_else(mismatch)? = ElementEntry {
        hash: head.uuid.as_ref().map_or(0, text_hash),
        at: at as u64,
        index: i as u64,
    };
    let (parent, order) = match &head.uuid {
        Some(uuid) => place(doc, slots.refs, uuid, i)?,
        None => None,
    }
    // Elements the outliner does not place follow at the root, in file order.
    .unwrap_or((-1, slots.named as u64 + i as u64));
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
            .and_then(|p| slots.group_textures.get(p).copied());
        match texture {
            None | Some(NO_GROUP_TEXTURE) => Placement::Nothing,
            Some(t) => Placement::Texture(t),
        }
    } else {
        slots
            .collections
            .cube(doc, head.uuid.as_ref(), head.scope, parent)
    };
    let ctx = ElementContext { placed, ..*ctx };
    match body {
        ElementBody::Cube(cube) => {
            meshes.drawn_cube(&ctx, cube, name, head, parent)?;
            let (rotation, centre) = cube.rotation_and_centre();
            main_shape::note_cube(slots.main_shapes, parent, order, rotation, centre);
        }
        ElementBody::Mesh(mesh) => {
            let m = &mut slots.mesh;
            let scratch = MeshScratch {
                keys: &mut *m.keys,
                slots: &mut *m.slots,
                positions: &mut *m.positions,
                normals: &mut *m.normals,
                corners: &mut *m.corners,
                faces: &mut *m.faces,
                groups: &mut *m.groups,
                face: &mut *m.face,
            };
            meshes.mesh(&ctx, i, mesh, name, head, parent, scratch)?;
        }
        ElementBody::Unsupported => return Ok(()),
    }
    *slots.mesh_order.get_mut(mesh).ok_or_else(mismatch)? = [order, mesh as u64];
    Ok(())
}
