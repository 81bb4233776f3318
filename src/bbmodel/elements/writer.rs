//! The fill pass's geometry writer: cubes and meshes into the scene's mesh,
//! group, vertex and index arrays, with the per-mesh key tables in scratch.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use crate::arena::scratch_record;
use crate::bbmodel::document::Document;
use crate::bbmodel::elements::context::{ElementContext, Pass};
use crate::bbmodel::elements::mesh::faces::{
    FaceCorners, FaceScratch, MeshFace, MeshHead, for_each_mesh_face,
};
use crate::bbmodel::elements::mesh::keys::{KeyEntry, find_entry, key_slots, mesh_key_table};
use crate::bbmodel::elements::mesh::{
    MAX_FACE_TRIANGLES, MeshTransform, accumulate_face_normal, blockbench_face_normal,
    finish_smooth_normals, mesh_transform, triangle_count, triangulate,
};
use crate::bbmodel::elements::read::{DrawnFace, ElementHead, GroupKey, group_key};
use crate::bbmodel::layout::{index32, mismatch};
use crate::error::{Error, Quote};
use crate::scene::{GroupFlags, MeshFlags, MeshGroupRecord, MeshRecord, TextRef};

/// One mesh's vertex keys, looked up by [`find_entry`], and their positions.
pub(in crate::bbmodel) struct KeyIndex<'k> {
    pub(in crate::bbmodel) keys: &'k [KeyEntry],
    pub(in crate::bbmodel) slots: &'k [u32],
    pub(in crate::bbmodel) positions: &'k [[f32; 3]],
}

/// Per-mesh scratch: the vertex key table and the smooth-normal sums.
pub(in crate::bbmodel) struct MeshScratch<'s> {
    pub(in crate::bbmodel) keys: &'s mut [KeyEntry],
    /// The hash index over `keys`.
    pub(in crate::bbmodel) slots: &'s mut [u32],
    /// Vertex positions by key index.
    pub(in crate::bbmodel) positions: &'s mut [[f32; 3]],
    pub(in crate::bbmodel) normals: &'s mut [[f32; 3]],
    pub(in crate::bbmodel) corners: &'s mut [MeshCorner],
    pub(in crate::bbmodel) faces: &'s mut [KeptFace],
    /// The mesh's groups: triangles per group, then where its indices go.
    pub(in crate::bbmodel) groups: &'s mut [GroupSlot],
    /// The face being read, and its corners (`WalkScratch`'s).
    pub(in crate::bbmodel) face: &'s mut FaceScratch,
}

/// Writes meshes, their groups and vertices into the scene's arrays.
pub(in crate::bbmodel) struct MeshWriter<'w> {
    pub(in crate::bbmodel) meshes: &'w mut [MeshRecord],
    pub(in crate::bbmodel) groups: &'w mut [MeshGroupRecord],
    pub(in crate::bbmodel) positions: &'w mut [[f32; 3]],
    pub(in crate::bbmodel) normals: &'w mut [[f32; 3]],
    pub(in crate::bbmodel) uvs: &'w mut [[f32; 2]],
    pub(in crate::bbmodel) indices: &'w mut [u32],
    pub(in crate::bbmodel) uv_rects: &'w mut [[f32; 4]],
    pub(in crate::bbmodel) mesh: usize,
    pub(in crate::bbmodel) group: usize,
    pub(in crate::bbmodel) vertex: usize,
    pub(in crate::bbmodel) index: usize,
}

impl MeshWriter<'_> {
    /// Writes `cube` as the faces it draws, computed here: never inlined,
    /// so the drawn faces (about 1 KiB) stay off the element walk's frame,
    /// which every element's read runs under.
    #[inline(never)]
    pub(in crate::bbmodel) fn drawn_cube(
        &mut self,
        ctx: &ElementContext<'_, '_>,
        cube: &crate::bbmodel::elements::read::CubeRead,
        name: TextRef,
        head: &ElementHead<'_>,
        parent: i32,
    ) -> Result<(), Error> {
        self.cube(name, head, parent, &mut cube.drawn_faces(ctx))
    }

    /// One cube: its faces grouped by material, single- before double-sided
    /// (Conversion: "cube faces likewise"), four vertices and two triangles each.
    pub(in crate::bbmodel) fn cube(
        &mut self,
        name: TextRef,
        head: &crate::bbmodel::elements::read::ElementHead<'_>,
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
            // A face's four vertices, six indices and two triangles' UV
            // rects, each written as one slice.
            let vertices = self.vertex..self.vertex + 4;
            let slots = |s| s..s + FACE_INDICES.len();
            let triangles = self.index / 3..self.index / 3 + 2;
            let positions = self.positions.get_mut(vertices.clone());
            positions
                .ok_or_else(mismatch)?
                .copy_from_slice(&face.corners);
            let normals = self.normals.get_mut(vertices.clone());
            normals.ok_or_else(mismatch)?.fill(face.normal);
            let uvs = self.uvs.get_mut(vertices);
            uvs.ok_or_else(mismatch)?.copy_from_slice(&face.uvs);
            let indices = self
                .indices
                .get_mut(slots(self.index))
                .ok_or_else(mismatch)?;
            for (slot, corner) in indices.iter_mut().zip(FACE_INDICES) {
                *slot = local + corner;
            }
            let rects = self.uv_rects.get_mut(triangles).ok_or_else(mismatch)?;
            rects.fill(uv_rect(&face.uvs));
            self.index += FACE_INDICES.len();
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
    pub(in crate::bbmodel) fn mesh(
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
            mesh.vertices_at,
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
        let FaceScratch {
            record,
            corners: resolved,
        } = scratch.face;
        let mut taken = FacesTaken {
            groups: &mut *scratch.groups,
            group_count: 0,
            corners: &mut *scratch.corners,
            corner_count: 0,
            faces: &mut *scratch.faces,
            kept: 0,
        };
        let pass = Pass::Fill;
        for_each_mesh_face(doc, element, mesh, limits, textures, pass, record, |face| {
            taken.take(ctx, &index, face, element, resolved, sums, mesh.smooth)
        })?;
        let (group_count, kept) = (taken.group_count, taken.kept);
        if mesh.smooth {
            finish_smooth_normals(sums, &transform);
        }
        let sums: &[[f32; 3]] = sums;
        let groups = scratch.groups.get_mut(..group_count).ok_or_else(mismatch)?;
        groups.sort_unstable_by_key(GroupSlot::key);

        // Group records, and where each group's indices go (its count
        // becomes its cursor).
        let (first_vertex, first_index, first_group) = (self.vertex, self.index, self.group);
        let mut at = self.index;
        for slot in groups.iter_mut() {
            let (key, triangles) = (slot.key(), crate::bbmodel::layout::offset(slot.count));
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
            slot.count = at as u64;
            at += 3 * triangles;
        }
        let end_index = at;

        // Write: vertices in face order, triangles at their group's cursor.
        let faces = scratch.faces.get(..kept).ok_or_else(mismatch)?;
        let written = KeptFaces {
            faces,
            corners: scratch.corners,
            positions: index.positions,
            sums,
        };
        self.write_kept_faces(
            ctx,
            mesh,
            &written,
            &transform,
            groups,
            resolved,
            first_vertex,
        )?;
        self.index = end_index;
        self.finish(name, head, parent, first_vertex, first_index, first_group)
    }
}

impl MeshWriter<'_> {
    /// The second loop of [`MeshWriter::mesh`]: each kept face's vertices,
    /// triangulated, and its triangles at its group's cursor. Never inlined:
    /// the triangulation stays off the frame the face walk runs under.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn write_kept_faces(
        &mut self,
        ctx: &ElementContext<'_, '_>,
        mesh: &MeshHead,
        written: &KeptFaces<'_>,
        transform: &MeshTransform,
        groups: &mut [GroupSlot],
        resolved: &mut FaceCorners,
        first_vertex: usize,
    ) -> Result<(), Error> {
        let (doc, textures) = (ctx.doc, ctx.textures);
        let mut first_corner = 0usize;
        for face in written.faces {
            let end = first_corner + face.corners as usize;
            let face_corners = written
                .corners
                .get(first_corner..end)
                .ok_or_else(mismatch)?;
            first_corner = end;
            let positions = resolved
                .positions
                .get_mut(..face_corners.len())
                .ok_or_else(mismatch)?;
            for (p, corner) in positions.iter_mut().zip(face_corners) {
                *p = *written
                    .positions
                    .get(corner.key as usize)
                    .ok_or_else(mismatch)?;
            }
            let positions: &[[f32; 3]] = positions;
            let tris = <&mut [[u8; 3]; MAX_FACE_TRIANGLES]>::try_from(
                resolved
                    .triangles
                    .get_mut(..MAX_FACE_TRIANGLES)
                    .unwrap_or_default(),
            )
            .map_err(|_| mismatch())?;
            let triangulation = triangulate(positions, tris).map_err(|_| mismatch())?;
            // Kept faces were counted k − 2 triangles by `triangle_count`.
            if triangulation.count + 2 != positions.len() {
                return Err(mismatch());
            }
            let local = index32(self.vertex - first_vertex)?;
            let flat = transform.turn(triangulation.normal);
            let uv_space = ctx.rules.mesh_face(textures, face.material, ctx.placed).uv;
            for (k, (p, corner)) in positions.iter().zip(face_corners).enumerate() {
                let v = self.vertex + k;
                *self.positions.get_mut(v).ok_or_else(mismatch)? = transform.place(*p);
                let smooth = written.sums.get(corner.key as usize).copied();
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
            let key = group_key(
                doc,
                &ctx.rules.mesh_face(textures, face.material, ctx.placed),
            );
            let cursor = groups
                .iter_mut()
                .find(|g| g.key() == key)
                .ok_or_else(mismatch)?;
            for tri in tris.iter().take(triangulation.count) {
                for &corner in tri {
                    let i = crate::bbmodel::layout::offset(cursor.count);
                    *self.indices.get_mut(i).ok_or_else(mismatch)? = local + u32::from(corner);
                    cursor.count += 1;
                }
                let i = crate::bbmodel::layout::offset(cursor.count);
                *self.uv_rects.get_mut(i / 3 - 1).ok_or_else(mismatch)? = rect;
            }
            self.vertex += positions.len();
        }
        Ok(())
    }
}

/// What the first loop of [`MeshWriter::mesh`] keeps, as it reads the
/// faces: the groups and their triangles, and the faces that get
/// triangles, with their corners.
struct FacesTaken<'s> {
    groups: &'s mut [GroupSlot],
    group_count: usize,
    corners: &'s mut [MeshCorner],
    corner_count: usize,
    faces: &'s mut [KeptFace],
    kept: usize,
}

impl FacesTaken<'_> {
    /// Takes one face: resolves its keys, counts its triangles into its
    /// group, adds its normal to the smooth sums and keeps it for writing
    /// when it gets triangles. Never inlined: its locals stay off the face
    /// walk's frame, under which the face reads run.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn take(
        &mut self,
        ctx: &ElementContext<'_, '_>,
        index: &KeyIndex<'_>,
        face: &MeshFace<'_, '_>,
        element: usize,
        resolved: &mut FaceCorners,
        sums: &mut [[f32; 3]],
        smooth: bool,
    ) -> Result<(), Error> {
        let (doc, textures) = (ctx.doc, ctx.textures);
        let k = resolve(doc, index, face, element, resolved)?;
        let positions = resolved.positions.get(..k).ok_or_else(mismatch)?;
        let indices = resolved.keys.get(..k).ok_or_else(mismatch)?;
        // The split itself waits for the second loop; the count is all
        // the groups need.
        let count = triangle_count(positions).map_err(|_| mismatch())?;
        if smooth && positions.len() >= 3 {
            accumulate_face_normal(sums, indices, blockbench_face_normal(positions))
                .map_err(|_| mismatch())?;
        }
        if count == 0 {
            return Ok(());
        }
        let key = group_key(
            doc,
            &ctx.rules.mesh_face(textures, face.material, ctx.placed),
        );
        let held = self.groups.get_mut(..self.group_count).unwrap_or_default();
        match held.iter_mut().find(|g| g.key() == key) {
            Some(g) => g.count += count as u64,
            None => {
                *self.groups.get_mut(self.group_count).ok_or_else(mismatch)? = GroupSlot {
                    material: key.material,
                    double_sided: u32::from(key.double_sided),
                    count: count as u64,
                };
                self.group_count += 1;
            }
        }
        let end = self.corner_count + indices.len();
        let slots = self
            .corners
            .get_mut(self.corner_count..end)
            .ok_or_else(mismatch)?;
        for ((slot, &key), uv) in slots.iter_mut().zip(indices).zip(face.uvs) {
            *slot = MeshCorner { key, uv: *uv };
        }
        *self.faces.get_mut(self.kept).ok_or_else(mismatch)? = KeptFace {
            material: face.material,
            corners: index32(indices.len())?,
        };
        (self.kept, self.corner_count) = (self.kept + 1, end);
        Ok(())
    }
}

/// What the first loop of [`MeshWriter::mesh`] kept for the second.
struct KeptFaces<'k> {
    faces: &'k [KeptFace],
    /// The kept faces' corners, in face order.
    corners: &'k [MeshCorner],
    /// Vertex positions by key index.
    positions: &'k [[f32; 3]],
    /// Smooth normals by key index.
    sums: &'k [[f32; 3]],
}

scratch_record! {
    /// One group of the mesh [`MeshWriter::mesh`] writes: its key, and its
    /// triangles (first loop), then where its next index goes (second loop).
    pub(crate) struct GroupSlot {
        material: i32,
        double_sided: u32,
        count: u64,
    }
}

impl GroupSlot {
    /// Its group (mesh faces are never camera-only).
    fn key(&self) -> GroupKey {
        GroupKey {
            material: self.material,
            double_sided: self.double_sided != 0,
            camera_only: false,
        }
    }
}

scratch_record! {
    /// A face corner kept between the two loops of [`MeshWriter::mesh`]: its
    /// vertex key's index among the mesh's keys and its UV in texels.
    pub(crate) struct MeshCorner {
        pub(in crate::bbmodel) key: u32,
        pub(in crate::bbmodel) uv: [f32; 2],
    }
}

scratch_record! {
    /// A face kept between the two loops of [`MeshWriter::mesh`]: its material
    /// and how many corners it has.
    pub(crate) struct KeptFace {
        pub(in crate::bbmodel) material: i32,
        pub(in crate::bbmodel) corners: u32,
    }
}

/// A face's vertex positions and key indices into `out`, each key looked
/// up in the mesh (a key the mesh lacks is INVALID_FIELD, spec Errors);
/// how many there are.
pub(in crate::bbmodel) fn resolve(
    doc: &Document<'_>,
    index: &KeyIndex<'_>,
    face: &MeshFace<'_, '_>,
    element: usize,
    out: &mut FaceCorners,
) -> Result<usize, Error> {
    let slots = out.positions.iter_mut().zip(out.keys.iter_mut());
    for (k, (key, (position, slot))) in face.vertices.iter().zip(slots).enumerate() {
        let found = find_entry(doc, index.keys, index.slots, key)
            .and_then(|i| Some((i, *index.positions.get(i)?)));
        let Some((i, p)) = found else {
            return Err(unknown_vertex_key(doc, face, element, k));
        };
        *position = p;
        *slot = u32::try_from(i).unwrap_or(u32::MAX);
    }
    Ok(face.vertices.len().min(out.keys.len()))
}

/// INVALID_FIELD for vertex `k` of `face`, a key its mesh lacks, at
/// `$.elements[i].faces.<key>.vertices[k]`.
#[cold]
#[inline(never)]
fn unknown_vertex_key(
    doc: &Document<'_>,
    face: &MeshFace<'_, '_>,
    element: usize,
    k: usize,
) -> Error {
    let element = crate::bbmodel::document::value::ELEMENTS.with_index(element);
    let faces = element.with_key("faces");
    let at = match face.key.as_str() {
        Some(name) => faces.with_key(name),
        None => faces.with_index(face.index),
    };
    let vertices = at.with_key("vertices");
    let key = face.vertices.get(k).map_or("", |e| e.raw_text(doc));
    crate::bbmodel::document::value::invalid(
        &vertices.with_index(k),
        "unknown vertex key",
        format_args!("a key of this mesh's vertices, got {}", Quote(key)),
    )
}

impl MeshWriter<'_> {
    /// Writes the record of the mesh whose vertices, indices and groups were
    /// just written from the given starts.
    pub(in crate::bbmodel) fn finish(
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

/// [`FACE_TRIANGLES`](crate::bbmodel::elements::cube::FACE_TRIANGLES) as one index list.
const FACE_INDICES: [u32; 6] = {
    let [[a, b, c], [d, e, f]] = crate::bbmodel::elements::cube::FACE_TRIANGLES;
    [a, b, c, d, e, f]
};

/// The UV bounding box `[u_min, v_min, u_max, v_max]` of a face.
pub(in crate::bbmodel) fn uv_rect(uvs: &[[f32; 2]]) -> [f32; 4] {
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
