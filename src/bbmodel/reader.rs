//! The two passes over a .bbmodel: count (measure) and fill (decode_into).
//!
//! Both passes walk the same parts in the same order through
//! [`census`](super::structure::census), [`walk_outliner`] and the group
//! readers, so the arena layout `measure` plans is the one `decode_into`
//! carves.

use super::Options;
use super::document::Document;
use super::elements::{
    DrawnFace, Element, ElementBody, ElementContext, ElementHead, GroupKey, Pass, duplicate,
    group_key, read_element,
};
use super::mesh::{
    MAX_FACE_TRIANGLES, accumulate_face_normal, blockbench_face_normal, finish_smooth_normals,
    mesh_transform, triangle_count, triangulate,
};
use super::mesh_faces::{MeshFace, MeshHead, for_each_mesh_face};
use super::mesh_keys::{KeyEntry, find_key, key_slots, mesh_key_table, string_at, text_hash};
use super::scene_textures::{COMPOSITE_NAME, frame_step_count, write_textures};
use super::shown_texture::TextureRules;
use super::structure::{
    Census, GroupFields, OutlinerEvent, census_walk, for_each_value, walk_outliner,
};
use super::texture_pixels::{decode_images, plan_images, validate_images};
use super::textures::read_textures;
use super::value::{Cursor, GROUPS, Path, known_key, same_text};
use crate::arena::{Arena, Plan};
use crate::error::{Error, ErrorCode, Location, Quote, Warning, WarningCode, Warnings};
use crate::json::{JsonStr, TokenKind};
use crate::limits::BbmodelLimits;
use crate::scene::{
    Format, GroupFlags, MeshFlags, MeshGroupRecord, MeshRecord, NodeFlags, NodeRecord, Scene,
    SceneArrays, SceneCounts, TextRef, TextSource,
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
    // Animations are not in the scene yet, but their limits and types are
    // the spec's errors already.
    super::animations::check_animations(doc, limits)?;
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
        scratch.add::<u8>(images.scratch)
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
const MAX_GROUP_KEYS: usize = 2 * (super::textures::HARD_MAX_TEXTURES + 1);

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

/// A uuid's hash and where its entry starts, sortable for binary search.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
#[repr(C)]
pub(crate) struct UuidEntry {
    hash: u64,
    at: u64,
}

fn escaped_len(name: &Option<JsonStr<'_>>) -> usize {
    name.filter(|n| n.has_escapes())
        .map_or(0, |n| n.decoded_len())
}

/// The 5.x `groups` entries by uuid hash, sorted; duplicates are
/// DUPLICATE_REFERENCE (spec: "the same uuid twice: … two groups entries").
fn group_table(doc: &Document<'_>, table: &mut [UuidEntry], max_chars: u64) -> Result<(), Error> {
    super::structure::for_each_entry(doc, doc.groups, |i, at| {
        let uuid = entry_uuid(doc, at)?;
        if let Some(u) = &uuid {
            let entry = super::value::GROUPS.with_index(i);
            let path = entry.with_key("uuid");
            super::value::check_string_length(u, &path, max_chars)?;
        }
        let hash = uuid.map_or(0, |u| text_hash(&u));
        if let Some(slot) = table.get_mut(i) {
            *slot = UuidEntry {
                hash,
                at: at as u64,
            };
        }
        Ok(())
    })?;
    table.sort_unstable();
    for pair in table.windows(2) {
        if let [a, b] = pair
            && a.hash == b.hash
            && a.hash != 0
        {
            let (x, y) = (
                entry_uuid(doc, offset(a.at))?,
                entry_uuid(doc, offset(b.at))?,
            );
            if let (Some(x), Some(y)) = (x, y)
                && same_text(&x, &y)
            {
                return Err(super::value::error_at(
                    ErrorCode::DuplicateReference,
                    &Path::key("groups"),
                    "duplicate uuid",
                    format_args!(
                        "each group once, but {} appears twice",
                        crate::error::Quote(x.raw_str())
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// An element's uuid hash, where it starts and its index in `elements`.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
#[repr(C)]
pub(crate) struct ElementEntry {
    hash: u64,
    at: u64,
    index: u64,
}

/// Two elements with one uuid are DUPLICATE_REFERENCE. `table` holds every
/// element's entry (hash 0: no uuid, never equal); equal hashes are
/// confirmed by the uuid strings.
fn elements_unique(doc: &Document<'_>, table: &mut [ElementEntry]) -> Result<(), Error> {
    table.sort_unstable();
    for pair in table.windows(2) {
        if let [a, b] = pair
            && a.hash == b.hash
            && a.hash != 0
            && let (Some(x), Some(y)) = (
                entry_uuid(doc, offset(a.at))?,
                entry_uuid(doc, offset(b.at))?,
            )
            && same_text(&x, &y)
        {
            // The error names the later of the two.
            let later = offset(a.index.max(b.index));
            return Err(duplicate(&super::value::ELEMENTS.with_index(later), &y));
        }
    }
    Ok(())
}

/// One element uuid the outliner names: its hash, where its string starts,
/// the node it hangs from, its place in outliner order, and whether an
/// element took it.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
#[repr(C)]
pub(crate) struct OutlinerRef {
    hash: u64,
    seq: u64,
    at: u64,
    parent: i32,
    taken: u32,
}

/// Where the outliner places an element with this uuid: its parent node and
/// its place in outliner order, or `None` when the outliner does not name it.
/// An element named twice by the outliner, or a second element with a uuid
/// already placed, is DUPLICATE_REFERENCE.
fn place(
    doc: &Document<'_>,
    refs: &mut [OutlinerRef],
    uuid: &JsonStr<'_>,
    element: usize,
) -> Result<Option<(i32, u64)>, Error> {
    let hash = text_hash(uuid);
    let first = refs.partition_point(|r| r.hash < hash);
    let mut found: Option<usize> = None;
    for i in first..refs.len() {
        let Some(r) = refs.get(i) else { break };
        if r.hash != hash {
            break;
        }
        if string_at(doc, offset(r.at)).is_some_and(|s| same_text(&s, uuid)) {
            if found.is_some() {
                return Err(duplicate(&Path::key("outliner"), uuid));
            }
            found = Some(i);
        }
    }
    let Some(r) = found.and_then(|i| refs.get_mut(i)) else {
        return Ok(None);
    };
    if r.taken != 0 {
        return Err(duplicate(&super::value::ELEMENTS.with_index(element), uuid));
    }
    r.taken = 1;
    Ok(Some((r.parent, r.seq)))
}

/// Where a string token's body starts in the document.
fn body_offset(doc: &Document<'_>, s: &JsonStr<'_>) -> u64 {
    (s.raw_bytes().as_ptr() as usize).wrapping_sub(doc.bytes.as_ptr() as usize) as u64
}

/// Checks that no group is placed twice in the outliner (which also rejects
/// a group inside itself): DUPLICATE_REFERENCE. `table` holds the uuids of
/// the outliner's groups; equal neighbours are confirmed by their strings.
fn groups_placed_once(doc: &Document<'_>, table: &mut [UuidEntry]) -> Result<(), Error> {
    table.sort_unstable();
    for pair in table.windows(2) {
        if let [a, b] = pair
            && a.hash == b.hash
            && let (Some(x), Some(y)) = (string_at(doc, offset(a.at)), string_at(doc, offset(b.at)))
            && same_text(&x, &y)
        {
            return Err(super::value::error_at(
                ErrorCode::DuplicateReference,
                &Path::key("outliner"),
                "group placed twice",
                format_args!(
                    "each group once, but {} is placed twice (or inside itself)",
                    Quote(x.raw_str())
                ),
            ));
        }
    }
    Ok(())
}

/// Where a group's data is: its `groups` entry when the outliner object
/// names a uuid found there (5.x, looked up in the sorted table), else the
/// outliner object itself (convention 3).
fn group_data_at(
    doc: &Document<'_>,
    table: &[UuidEntry],
    outliner_at: usize,
    uuid: Option<JsonStr<'_>>,
) -> Result<usize, Error> {
    let Some(uuid) = uuid else {
        return Ok(outliner_at);
    };
    let hash = text_hash(&uuid);
    let first = table.partition_point(|e| e.hash < hash);
    for entry in table
        .get(first..)
        .unwrap_or_default()
        .iter()
        .take_while(|e| e.hash == hash)
    {
        if entry_uuid(doc, offset(entry.at))?.is_some_and(|u| same_text(&u, &uuid)) {
            return Ok(offset(entry.at));
        }
    }
    Ok(outliner_at)
}

/// The `uuid` string of the object at `at`, if it has one.
fn entry_uuid<'a>(doc: &Document<'a>, at: usize) -> Result<Option<JsonStr<'a>>, Error> {
    let mut c = doc.cursor(at);
    if c.next()?.kind != TokenKind::BeginObject {
        return Ok(None);
    }
    while let Some(key) = c.next_key()? {
        let v = c.next()?;
        if key.eq_str("uuid")
            && let TokenKind::String(s) = v.kind
        {
            return Ok(Some(s));
        }
        c.skip_rest(&v)?;
    }
    Ok(None)
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
        text_pool: pool.len,
        ..counts
    };
    let arrays = arrays.truncate(&used);
    Ok(Scene::new(Format::Bbmodel, doc.bytes, arrays))
}

/// One mesh's vertex keys, looked up by [`find_key`], and their positions.
struct KeyIndex<'k> {
    keys: &'k [KeyEntry],
    slots: &'k [u32],
    positions: &'k [[f32; 3]],
}

/// Per-mesh scratch: the vertex key table and the smooth-normal sums.
struct MeshScratch<'s> {
    keys: &'s mut [KeyEntry],
    /// The hash index over `keys`.
    slots: &'s mut [u32],
    /// Vertex positions by key index.
    positions: &'s mut [[f32; 3]],
    normals: &'s mut [[f32; 3]],
    corners: &'s mut [MeshCorner],
    faces: &'s mut [KeptFace],
}

/// Writes meshes, their groups and vertices into the scene's arrays.
struct MeshWriter<'w> {
    meshes: &'w mut [MeshRecord],
    groups: &'w mut [MeshGroupRecord],
    positions: &'w mut [[f32; 3]],
    normals: &'w mut [[f32; 3]],
    uvs: &'w mut [[f32; 2]],
    indices: &'w mut [u32],
    uv_rects: &'w mut [[f32; 4]],
    mesh: usize,
    group: usize,
    vertex: usize,
    index: usize,
}

impl MeshWriter<'_> {
    /// One cube: its faces grouped by material, single- before double-sided
    /// (Conversion: "cube faces likewise"), four vertices and two triangles each.
    fn cube(
        &mut self,
        name: TextRef,
        head: &super::elements::ElementHead<'_>,
        parent: i32,
        faces: &mut [DrawnFace],
    ) -> Result<(), Error> {
        // Stable, so faces of one group keep the cube's face order (a few
        // faces: insertion sort needs no allocation).
        for i in 1..faces.len() {
            let mut j = i;
            while j > 0 && faces.get(j - 1).map(|f| f.key) > faces.get(j).map(|f| f.key) {
                faces.swap(j - 1, j);
                j -= 1;
            }
        }
        let (first_vertex, first_index, first_group) = (self.vertex, self.index, self.group);
        let mut current: Option<GroupKey> = None;
        for face in faces.iter() {
            if current != Some(face.key) {
                current = Some(face.key);
                let group = self.groups.get_mut(self.group).ok_or_else(mismatch)?;
                *group = MeshGroupRecord {
                    material: face.key.material,
                    flags: if face.key.double_sided {
                        GroupFlags::DOUBLE_SIDED
                    } else {
                        0
                    } | if face.key.camera_only {
                        GroupFlags::CAMERA_ONLY
                    } else {
                        0
                    },
                    render_order: head.render_order,
                    first_index: index32(self.index)?,
                    index_count: 0,
                };
                self.group += 1;
            }
            let local = index32(self.vertex - first_vertex)?;
            for (k, (corner, uv)) in face.corners.iter().zip(face.uvs).enumerate() {
                let v = self.vertex + k;
                *self.positions.get_mut(v).ok_or_else(mismatch)? = *corner;
                *self.normals.get_mut(v).ok_or_else(mismatch)? = face.normal;
                *self.uvs.get_mut(v).ok_or_else(mismatch)? = uv;
            }
            let rect = uv_rect(&face.uvs);
            for tri in super::cube::FACE_TRIANGLES {
                for corner in tri {
                    *self.indices.get_mut(self.index).ok_or_else(mismatch)? = local + corner;
                    self.index += 1;
                }
                *self
                    .uv_rects
                    .get_mut((self.index - 3) / 3)
                    .ok_or_else(mismatch)? = rect;
            }
            self.vertex += 4;
            if let Some(group) = self
                .group
                .checked_sub(1)
                .and_then(|g| self.groups.get_mut(g))
            {
                group.index_count += 6;
            }
        }
        self.finish(name, head, parent, first_vertex, first_index, first_group)
    }
}

impl MeshWriter<'_> {
    /// One mesh element (Conversion, meshes): every face its own vertices at
    /// origin + R·v, triangulated in its plane, grouped by material then
    /// single- before double-sided; flat or smooth normals (convention 11).
    ///
    /// The faces are read once: the first loop resolves each face's keys,
    /// counts triangles per group and sums smooth normals, keeping what the
    /// second loop needs (material, key indices, UVs) in scratch; the second
    /// writes vertices and triangles from that scratch.
    #[allow(clippy::too_many_arguments)]
    fn mesh(
        &mut self,
        ctx: &ElementContext<'_, '_>,
        element: usize,
        mesh: &MeshHead,
        name: TextRef,
        head: &ElementHead<'_>,
        parent: i32,
        scratch: MeshScratch<'_>,
    ) -> Result<(), Error> {
        let (doc, limits, textures) = (ctx.doc, ctx.limits, ctx.textures);
        let n = mesh_key_table(
            doc,
            mesh,
            element,
            scratch.keys,
            scratch.slots,
            scratch.positions,
        )?
        .ok_or_else(mismatch)?;
        let keys = scratch.keys.get_mut(..n).ok_or_else(mismatch)?;
        let key_positions = scratch.positions.get_mut(..n).ok_or_else(mismatch)?;
        let slots = scratch.slots.get_mut(..key_slots(n)).ok_or_else(mismatch)?;
        let index = KeyIndex {
            keys,
            slots,
            positions: key_positions,
        };
        let sums = scratch.normals.get_mut(..n).ok_or_else(mismatch)?;
        sums.fill([0.0; 3]);
        let transform = mesh_transform(mesh.origin, mesh.rotation);

        // Read the faces: triangles per group, smooth-normal sums, and each
        // face that gets triangles kept for writing.
        let mut groups = heapless::Vec::<(GroupKey, usize), MAX_GROUP_KEYS>::new();
        let (mut kept, mut corners) = (0usize, 0usize);
        // Reused for every face: returning them would copy 1 KiB per face.
        let mut positions = heapless::Vec::new();
        let mut indices = heapless::Vec::new();
        for_each_mesh_face(doc, element, mesh, limits, textures, Pass::Fill, |face| {
            resolve(doc, &index, face, element, &mut positions, &mut indices)?;
            // The split itself waits for the second loop; the count is all
            // the groups need.
            let count = triangle_count(&positions).map_err(|_| mismatch())?;
            if mesh.smooth && positions.len() >= 3 {
                accumulate_face_normal(sums, &indices, blockbench_face_normal(&positions))
                    .map_err(|_| mismatch())?;
            }
            if count == 0 {
                return Ok(());
            }
            let key = group_key(doc, &ctx.rules.mesh_face(textures, face.material));
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, n)) => *n += count,
                None => {
                    let _ = groups.push((key, count));
                }
            }
            let end = corners + indices.len();
            let slots = scratch.corners.get_mut(corners..end).ok_or_else(mismatch)?;
            for ((slot, &key), uv) in slots.iter_mut().zip(&indices).zip(&face.uvs) {
                *slot = MeshCorner { key, uv: *uv };
            }
            *scratch.faces.get_mut(kept).ok_or_else(mismatch)? = KeptFace {
                material: face.material,
                corners: index32(indices.len())?,
            };
            (kept, corners) = (kept + 1, end);
            Ok(())
        })?;
        if mesh.smooth {
            finish_smooth_normals(sums, &transform);
        }
        let sums: &[[f32; 3]] = sums;
        groups.sort_unstable_by_key(|(k, _)| *k);

        // Group records and where each group's indices go.
        let (first_vertex, first_index, first_group) = (self.vertex, self.index, self.group);
        let mut cursors = heapless::Vec::<(GroupKey, usize), MAX_GROUP_KEYS>::new();
        let mut at = self.index;
        for (key, triangles) in &groups {
            *self.groups.get_mut(self.group).ok_or_else(mismatch)? = MeshGroupRecord {
                material: key.material,
                flags: if key.double_sided {
                    GroupFlags::DOUBLE_SIDED
                } else {
                    0
                },
                render_order: head.render_order,
                first_index: index32(at)?,
                index_count: index32(3 * triangles)?,
            };
            self.group += 1;
            let _ = cursors.push((*key, at));
            at += 3 * triangles;
        }
        let end_index = at;

        // Write: vertices in face order, triangles at their group's cursor.
        let mut first_corner = 0usize;
        for face in scratch.faces.get(..kept).ok_or_else(mismatch)? {
            let end = first_corner + face.corners as usize;
            let face_corners = scratch
                .corners
                .get(first_corner..end)
                .ok_or_else(mismatch)?;
            first_corner = end;
            let mut positions =
                heapless::Vec::<[f32; 3], { super::mesh::MAX_FACE_VERTICES }>::new();
            for corner in face_corners {
                let p = index
                    .positions
                    .get(corner.key as usize)
                    .ok_or_else(mismatch)?;
                positions.push(*p).map_err(|_| mismatch())?;
            }
            let mut tris = [[0u8; 3]; MAX_FACE_TRIANGLES];
            let triangulation = triangulate(&positions, &mut tris).map_err(|_| mismatch())?;
            // Kept faces were counted k − 2 triangles by `triangle_count`.
            if triangulation.count + 2 != positions.len() {
                return Err(mismatch());
            }
            let local = index32(self.vertex - first_vertex)?;
            let flat = transform.turn(triangulation.normal);
            let uv_space = ctx.rules.mesh_face(textures, face.material).uv;
            for (k, (p, corner)) in positions.iter().zip(face_corners).enumerate() {
                let v = self.vertex + k;
                *self.positions.get_mut(v).ok_or_else(mismatch)? = transform.place(*p);
                let smooth = sums.get(corner.key as usize).copied();
                *self.normals.get_mut(v).ok_or_else(mismatch)? = match smooth {
                    Some(n) if mesh.smooth && n != [0.0; 3] => n,
                    _ => flat,
                };
                let [u, v_] = corner.uv;
                *self.uvs.get_mut(v).ok_or_else(mismatch)? =
                    uv_space.normalise([f64::from(u), f64::from(v_)]);
            }
            let face_uvs = self
                .uvs
                .get(self.vertex..self.vertex + positions.len())
                .ok_or_else(mismatch)?;
            let rect = uv_rect(face_uvs);
            let key = group_key(doc, &ctx.rules.mesh_face(textures, face.material));
            let cursor = cursors
                .iter_mut()
                .find(|(k, _)| *k == key)
                .ok_or_else(mismatch)?;
            for tri in tris.iter().take(triangulation.count) {
                for &corner in tri {
                    *self.indices.get_mut(cursor.1).ok_or_else(mismatch)? =
                        local + u32::from(corner);
                    cursor.1 += 1;
                }
                *self
                    .uv_rects
                    .get_mut(cursor.1 / 3 - 1)
                    .ok_or_else(mismatch)? = rect;
            }
            self.vertex += positions.len();
        }
        self.index = end_index;
        self.finish(name, head, parent, first_vertex, first_index, first_group)
    }
}

/// A face corner kept between the two loops of [`MeshWriter::mesh`]: its
/// vertex key's index among the mesh's keys and its UV in texels.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
#[repr(C)]
pub(crate) struct MeshCorner {
    key: u32,
    uv: [f32; 2],
}

/// A face kept between the two loops of [`MeshWriter::mesh`]: its material
/// and how many corners it has.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
#[repr(C)]
pub(crate) struct KeptFace {
    material: i32,
    corners: u32,
}

/// A face's vertex positions and key indices into `positions` and
/// `indices`, each key looked up in the mesh (a key the mesh lacks is
/// INVALID_FIELD, spec Errors).
fn resolve(
    doc: &Document<'_>,
    index: &KeyIndex<'_>,
    face: &MeshFace<'_>,
    element: usize,
    positions: &mut heapless::Vec<[f32; 3], { super::mesh::MAX_FACE_VERTICES }>,
    indices: &mut heapless::Vec<u32, { super::mesh::MAX_FACE_VERTICES }>,
) -> Result<(), Error> {
    positions.clear();
    indices.clear();
    for (k, (key, &hash)) in face.vertices.iter().zip(&face.hashes).enumerate() {
        let found = find_key(doc, index.keys, index.slots, key, hash)
            .and_then(|i| Some((i, *index.positions.get(i)?)));
        let (index, position) = found.ok_or_else(|| {
            // $.elements[i].faces.<key>.vertices[k]
            let element = super::value::ELEMENTS.with_index(element);
            let faces = element.with_key("faces");
            let face = match face.key.as_str() {
                Some(name) => faces.with_key(name),
                None => faces.with_index(face.index),
            };
            let vertices = face.with_key("vertices");
            super::value::invalid(
                &vertices.with_index(k),
                "unknown vertex key",
                format_args!(
                    "a key of this mesh's vertices, got {}",
                    Quote(key.raw_str())
                ),
            )
        })?;
        let _ = positions.push(position);
        let _ = indices.push(u32::try_from(index).unwrap_or(u32::MAX));
    }
    Ok(())
}

impl MeshWriter<'_> {
    /// Writes the record of the mesh whose vertices, indices and groups were
    /// just written from the given starts.
    fn finish(
        &mut self,
        name: TextRef,
        head: &ElementHead<'_>,
        parent: i32,
        first_vertex: usize,
        first_index: usize,
        first_group: usize,
    ) -> Result<(), Error> {
        *self.meshes.get_mut(self.mesh).ok_or_else(mismatch)? = MeshRecord {
            name,
            node: parent,
            flags: MeshFlags::HAS_NORMALS
                | MeshFlags::HAS_UV_RECTS
                | if head.visible { MeshFlags::VISIBLE } else { 0 },
            first_vertex: index32(first_vertex)?,
            vertex_count: index32(self.vertex - first_vertex)?,
            first_index: index32(first_index)?,
            index_count: index32(self.index - first_index)?,
            first_group: index32(first_group)?,
            group_count: index32(self.group - first_group)?,
            uv_sets: 1,
            first_uv: index32(first_vertex)?,
            color_sets: 0,
            first_color: 0,
            skin: -1,
            first_influence_span: 0,
        };
        self.mesh += 1;
        Ok(())
    }
}

/// The UV bounding box `[u_min, v_min, u_max, v_max]` of a face.
fn uv_rect(uvs: &[[f32; 2]]) -> [f32; 4] {
    uvs.iter().fold(
        [
            f32::INFINITY,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
        ],
        |r, [u, v]| [r[0].min(*u), r[1].min(*v), r[2].max(*u), r[3].max(*v)],
    )
}

/// A stored u64 offset or index back as `usize` (they came from `usize`).
fn offset(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

fn index32(n: usize) -> Result<u32, Error> {
    u32::try_from(n).map_err(|_| mismatch())
}

fn mismatch() -> Error {
    Error::nowhere(
        ErrorCode::ArenaTooSmall,
        format_args!("the arena's layout does not match this input: measure it again"),
    )
}

/// Places strings in the scene: spans of the input when unescaped, decoded
/// copies in the text pool otherwise.
struct Pool<'p> {
    bytes: &'p mut [u8],
    len: usize,
}

impl Pool<'_> {
    /// `text` copied into the pool (names the file does not spell).
    fn literal(&mut self, text: &str) -> Result<TextRef, Error> {
        let end = self.len + text.len();
        let out = self.bytes.get_mut(self.len..end).ok_or_else(mismatch)?;
        out.copy_from_slice(text.as_bytes());
        let start = self.len;
        self.len = end;
        TextRef::new(TextSource::Pool, start, text.len()).ok_or_else(mismatch)
    }

    fn text(&mut self, document: &[u8], s: &JsonStr<'_>) -> Result<TextRef, Error> {
        if !s.has_escapes() {
            let start = (s.raw_bytes().as_ptr() as usize).wrapping_sub(document.as_ptr() as usize);
            return TextRef::new(TextSource::Input, start, s.raw_bytes().len())
                .ok_or_else(mismatch);
        }
        let end = self.len + s.decoded_len();
        let out = self.bytes.get_mut(self.len..end).ok_or_else(mismatch)?;
        s.decode_into(out).map_err(|_| mismatch())?;
        let start = self.len;
        self.len = end;
        TextRef::new(TextSource::Pool, start, end - start).ok_or_else(mismatch)
    }
}
