//! The two passes over a .bbmodel: count (measure) and fill (decode_into).
//!
//! Both passes walk the same parts in the same order through
//! [`census`](super::structure::census), [`walk_outliner`] and the group
//! readers, so the arena layout `measure` plans is the one `decode_into`
//! carves.

use super::Options;
use super::animations::{
    AnimationArrays, AnimationScratch, Context as AnimationContext, ScratchSizes, fill_animations,
    uuid_key,
};
use super::document::Document;
use super::elements::{
    Element, ElementBody, ElementContext, GroupKey, Pass, group_key, read_element,
};
use super::mesh_faces::for_each_mesh_face;
use super::mesh_keys::{KeyEntry, key_slots, string_at, text_hash};
use super::mesh_writer::{KeptFace, MeshCorner, MeshScratch, MeshWriter};
use super::scene_textures::{COMPOSITE_NAME, frame_step_count, write_textures};
use super::shown_texture::TextureRules;
use super::structure::{
    Census, GroupFields, OutlinerEvent, census_walk, for_each_value, walk_outliner,
};
use super::text_pool::Pool;
use super::texture_pixels::{decode_images, plan_images, validate_images};
use super::textures::read_textures;
use super::uuid_tables::{
    ElementEntry, OutlinerRef, UuidEntry, body_offset, elements_unique, group_data_at, group_table,
    groups_placed_once, place,
};
use super::value::{Cursor, GROUPS, Path, known_key};
use crate::arena::{Arena, Plan};
use crate::error::{Error, ErrorCode, Location, Quote, Warning, WarningCode, Warnings};
use crate::json::{JsonStr, TokenKind};
use crate::limits::BbmodelLimits;
use crate::scene::{
    Format, MeshRecord, NodeFlags, NodeRecord, Scene, SceneArrays, SceneCounts, TextRef,
};

/// Counts the scene and the scratch the fill pass needs, checking every
/// value (`pass` [`Pass::Measure`]) or leaving to the fill pass what it
/// checks itself ([`Pass::Count`]); the plan is the same.
pub(crate) fn plan(
    doc: &Document<'_>,
    options: &Options<'_>,
    pass: Pass,
) -> Result<(Plan, Census), Error> {
    let limits = &options.limits;
    // Text pool: every escaped group name, inline or in `groups` (an upper
    // bound: a `groups` entry no outliner object names is counted too).
    let mut pool = 0usize;
    let (census, group_error) = census_walk(doc, limits, true, |event| {
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
    let animations = super::animations::count_animations(doc, limits, pass == Pass::Measure)?;
    let mut textures = heapless::Vec::new();
    read_textures(doc, limits, options.texture_files, None, &mut textures)?;
    let images = plan_images(&textures, limits)?;
    if pass == Pass::Measure {
        validate_images(&textures, options.texture_files)?;
    }
    if let Some(e) = group_error {
        return Err(e);
    }
    let rules = TextureRules::new(doc, &textures);
    let mut counts = SceneCounts {
        nodes: census.nodes,
        textures: census.textures,
        materials: rules.material_count(census.textures),
        frame_steps: frame_step_count(&textures),
        mips: images.images,
        pixels: images.pixels,
        ..SceneCounts::default()
    };
    if rules.composite().is_some() {
        pool += COMPOSITE_NAME.len();
    }
    super::structure::for_each_entry(doc, doc.groups, |i, at| {
        let data = read_group(doc, at, &GROUPS.with_index(i), None, limits)?;
        pool += escaped_len(&data.name);
        Ok(())
    })?;
    pool += textures.iter().map(|t| escaped_len(&t.name)).sum::<usize>();
    let ctx = ElementContext {
        doc,
        limits,
        textures: &textures,
        rules: &rules,
    };
    let mut max_keys = 0usize;
    let mut largest = MeshFaces::default();
    pool += count_elements(&ctx, pass, &mut counts, &mut max_keys, &mut largest)?;
    // Animations: at most three channels per animator (an upper bound).
    counts.animations = animations.animations;
    counts.channels = animations.animators.saturating_mul(3);
    counts.keyframes = animations.keyframes;
    pool += animations.text;
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
        // Group tables, claims and one animator's keyframes.
        animation_scratch.add_to(scratch)
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

/// The most faces of 3 or more vertices, and their corners, of any one mesh.
#[derive(Clone, Copy, Debug, Default)]
struct MeshFaces {
    faces: usize,
    corners: usize,
}

/// Counts meshes, vertices, triangles and groups of every element, checking
/// maxTriangles and maxVertices as they grow (spec: "counted from the upper
/// bounds first"); returns the text-pool bytes of escaped element names.
fn count_elements(
    ctx: &ElementContext<'_, '_>,
    pass: Pass,
    counts: &mut SceneCounts,
    max_keys: &mut usize,
    largest: &mut MeshFaces,
) -> Result<usize, Error> {
    let (doc, limits, textures) = (ctx.doc, ctx.limits, ctx.textures);
    let mut pool = 0;
    for_each_value(doc, doc.elements, |i, first, c| {
        let element = read_element(ctx, pass, i, &first, c, None)?;
        pool += escaped_len(&element.head.name);
        match element.body {
            ElementBody::Cube(cube) => {
                let mut faces = cube.group_keys(ctx);
                counts.meshes += 1;
                counts.positions += 4 * faces.len();
                counts.indices += 6 * faces.len();
                counts.uv_rects += 2 * faces.len();
                faces.sort_unstable();
                let repeats = faces
                    .windows(2)
                    .filter(|w| matches!(w, [a, b] if a == b))
                    .count();
                counts.groups += faces.len() - repeats;
            }
            ElementBody::Mesh(mesh) => {
                *max_keys = (*max_keys).max(mesh.keys);
                let mut keys = heapless::Vec::<GroupKey, MAX_GROUP_KEYS>::new();
                let mut this = MeshFaces::default();
                for_each_mesh_face(doc, i, &mesh, limits, textures, pass, |face| {
                    // Upper bounds (spec): k vertices and k − 2 triangles a face.
                    let k = face.corners;
                    if k >= 3 {
                        counts.positions += k;
                        counts.indices += 3 * (k - 2);
                        counts.uv_rects += k - 2;
                        this.faces += 1;
                        this.corners += k;
                    }
                    let key = group_key(doc, &ctx.rules.mesh_face(textures, face.material));
                    if !keys.contains(&key) {
                        let _ = keys.push(key);
                    }
                    check_geometry(counts, limits)
                })?;
                counts.meshes += 1;
                counts.groups += keys.len();
                largest.faces = largest.faces.max(this.faces);
                largest.corners = largest.corners.max(this.corners);
            }
            ElementBody::Unsupported => {}
        }
        check_geometry(counts, limits)
    })?;
    counts.normals = counts.positions;
    counts.uvs = counts.positions;
    Ok(pool)
}

/// Distinct (material, sidedness) pairs a mesh can have: untextured and
/// every texture, each single- or double-sided.
pub(super) const MAX_GROUP_KEYS: usize = 2 * (super::textures::HARD_MAX_TEXTURES + 1);

fn check_geometry(counts: &SceneCounts, limits: &BbmodelLimits) -> Result<(), Error> {
    let triangles = counts.indices / 3;
    if triangles as u64 > limits.max_triangles {
        return Err(super::value::error_at(
            ErrorCode::TooManyTriangles,
            &Path::key("elements"),
            "too many triangles",
            format_args!("at most maxTriangles ({})", limits.max_triangles),
        ));
    }
    if counts.positions as u64 > limits.max_vertices {
        return Err(super::value::error_at(
            ErrorCode::TooManyVertices,
            &Path::key("elements"),
            "too many vertices",
            format_args!("at most maxVertices ({})", limits.max_vertices),
        ));
    }
    Ok(())
}

fn escaped_len(name: &Option<JsonStr<'_>>) -> usize {
    name.filter(|n| n.has_escapes())
        .map_or(0, |n| n.decoded_len())
}

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
    const KEYS: [&str; 5] = [
        "children",
        GroupFields::KEYS[0],
        GroupFields::KEYS[1],
        GroupFields::KEYS[2],
        GroupFields::KEYS[3],
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
    let mut textures = heapless::Vec::new();
    read_textures(
        doc,
        limits,
        options.texture_files,
        Some(warnings),
        &mut textures,
    )?;
    let rules = TextureRules::new(doc, &textures);
    let composite_name = if rules.composite().is_some() {
        pool.literal(COMPOSITE_NAME)?
    } else {
        TextRef::EMPTY
    };
    write_textures(
        &textures,
        &rules,
        arrays.textures,
        arrays.materials,
        arrays.frame_steps,
        |meta| match &meta.name {
            Some(n) => pool.text(doc.bytes, n),
            None => Ok(TextRef::EMPTY),
        },
        composite_name,
        mismatch,
    )?;
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
    let animation_scratch = ScratchSizes {
        nodes: plan.note(NOTE_ANIMATION_NODES),
        keyframes: plan.note(NOTE_MAX_ANIMATOR_KEYFRAMES),
    }
    .carve(arena)?;
    let group_uuids = animation_scratch.uuids;
    decode_images(
        &textures,
        options.texture_files,
        arrays.textures,
        arrays.mips,
        arrays.pixels,
        png_scratch,
        mismatch,
    )?;
    group_table(doc, group_entries, limits.max_string_chars)?;

    // One walk of the outliner: where it places each element uuid, its
    // groups' uuids (checked for a group placed twice afterwards), and the
    // nodes, each written from its object's fields as the walk reads them.
    let nodes = &mut *arrays.nodes;
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
    walk_outliner(doc, limits, Some(&mut group_error), |event| {
        match event {
            OutlinerEvent::Group {
                node,
                parent,
                outliner_at,
                uuid,
                fields,
                ..
            } => {
                if let Some(uuid) = uuid {
                    *placed_groups.get_mut(placed).ok_or_else(mismatch)? = UuidEntry {
                        hash: text_hash(&uuid),
                        at: body_offset(doc, &uuid),
                    };
                    // Animators find their group by uuid.
                    if let Some(slot) = group_uuids.get_mut(placed) {
                        *slot = uuid_key(doc, &uuid, node);
                    }
                    placed += 1;
                }
                // A 5.x group's fields are its `groups` entry's.
                let at = group_data_at(doc, group_entries, outliner_at, uuid)?;
                if at == outliner_at {
                    write_node(node, parent, &fields)?;
                } else {
                    write_node(node, parent, &read_group(doc, at, &GROUPS, None, limits)?)?;
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
    })?;
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
        match body {
            ElementBody::Cube(cube) => {
                meshes.cube(name, &head, parent, &mut cube.drawn_faces(&ctx))?;
            }
            ElementBody::Mesh(mesh) => {
                let scratch = MeshScratch {
                    keys: &mut *key_table,
                    slots: &mut *key_index,
                    positions: &mut *key_positions,
                    normals: &mut *normal_sums,
                    corners: &mut *mesh_corners,
                    faces: &mut *kept_faces,
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
        },
        AnimationScratch {
            uuids: group_uuids,
            ..animation_scratch
        },
        placed.min(plan.note(NOTE_ANIMATION_NODES)),
        &mut pool,
        warnings,
    )?;

    // Faces without area were planned for and not written: hand out only
    // what was written.
    let used = SceneCounts {
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
        text_pool: pool.len,
        ..counts
    };
    let arrays = arrays.truncate(&used);
    Ok(Scene::new(Format::Bbmodel, doc.bytes, arrays))
}

/// A stored u64 offset or index back as `usize` (they came from `usize`).
pub(super) fn offset(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

pub(super) fn index32(n: usize) -> Result<u32, Error> {
    u32::try_from(n).map_err(|_| mismatch())
}

pub(super) fn mismatch() -> Error {
    Error::nowhere(
        ErrorCode::ArenaTooSmall,
        format_args!("the arena's layout does not match this input: measure it again"),
    )
}
