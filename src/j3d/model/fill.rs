//! The fill pass: carves the scene and the decode's scratch from the arena,
//! then writes every part in order (bind pose, skin, materials, textures,
//! then one mesh per shape, its vertices written by [`Filler`]).

use super::batch::{Batch, Pending};
use super::blocks::{ArrayReaders, Lanes};
use super::names::Pool;
use super::vertices::{Filler, Runs};
use super::{Model, arena_mismatch, color_sets, index32, product, sum, uv_sets};
use crate::arena::{Arena, Footprint};
use crate::j3d::inf1::{self, WalkMemory};

use crate::error::{Error, Warnings};
use crate::gx::vertex::VertexAttribute;
use crate::scene::{
    Format, GroupFlags, MeshFlags, MeshGroupRecord, MeshRecord, Scene, SceneArrays, SceneCounts,
    TextRef,
};

impl<'a> Model<'a> {
    /// What [`Self::fill`] carves after the scene's arrays, in its order:
    /// world and draw matrices, envelope starts, shape materials, and the
    /// waiting block with its runs (off the stack).
    pub(super) fn fill_scratch(
        &self,
        scratch: &mut Footprint,
        max_depth: u64,
    ) -> Result<(), Error> {
        scratch.add::<[f32; 16]>(self.jnt1.len())?;
        scratch.add::<[f32; 16]>(self.drw1.len())?;
        scratch.add::<u32>(self.evp1.len())?;
        scratch.add::<u32>(self.shp1.len())?;
        scratch.add::<Pending>(1)?;
        scratch.add::<Runs>(1)?;
        scratch.add::<u32>(self.seen_words())?;
        scratch.add::<u16>(inf1::open_levels(max_depth))
    }

    /// Fills `arena` with the scene; `counts` and `scratch` come from [`Model::count`].
    pub(crate) fn fill(
        &self,
        counts: &SceneCounts,
        arena: &mut Arena<'a>,
        warnings: &mut Warnings,
        options: &crate::j3d::Options<'_>,
    ) -> Result<Scene<'a>, Error> {
        let limits = &options.limits;
        // Carved in place: returned in a `Result`, the arrays (560 bytes)
        // took a second slot in this frame, under every stage.
        let mut arrays = SceneArrays::default();
        arrays.carve_into(counts, arena)?;
        let joints = self.jnt1.len();
        let worlds = arena.slice::<[f32; 16]>(joints)?;
        let draws = arena.slice::<[f32; 16]>(self.drw1.len())?;
        let envelope_firsts = arena.slice::<u32>(self.evp1.len())?;
        // Shape -> material + 1 (0: none), from INF1.
        let shape_materials = arena.slice::<u32>(self.shp1.len())?;
        let pending = match arena.slice::<Pending>(1)? {
            [pending] => pending,
            _ => return Err(arena_mismatch()),
        };
        pending.reset();
        let runs = match arena.slice::<Runs>(1)? {
            [runs] => runs,
            _ => return Err(arena_mismatch()),
        };
        let (joints_seen, shapes_seen) = arena
            .slice::<u32>(self.seen_words())?
            .split_at_mut_checked(inf1::seen_words(self.jnt1.len()))
            .ok_or_else(arena_mismatch)?;
        let walk_memory = WalkMemory {
            joints_seen,
            shapes_seen,
            open: Some(arena.slice::<u16>(inf1::open_levels(limits.max_depth))?),
        };
        let mut pool = Pool {
            bytes: &mut *arrays.text_pool,
            len: 0,
        };

        self.fill_hierarchy(
            &mut *arrays.nodes,
            &mut *worlds,
            &mut *shape_materials,
            &mut pool,
            limits,
            walk_memory,
        )?;
        self.fill_draw_matrices(worlds, &mut *draws, &mut *envelope_firsts)?;
        self.fill_skin(
            worlds,
            &mut *arrays.skins,
            &mut *arrays.skin_joints,
            &mut *arrays.inverse_binds,
        )?;
        self.fill_materials(&mut *arrays.materials, &mut pool, warnings)?;
        self.fill_textures(
            &mut *arrays.textures,
            &mut *arrays.mips,
            &mut *arrays.pixels,
            &mut pool,
            warnings,
            options.skip_texels,
        )?;
        self.fill_clips(
            options,
            super::clips::ClipArrays {
                animations: &mut *arrays.animations,
                clips: &mut *arrays.clips,
                tracks: &mut *arrays.tracks,
                curves: &mut *arrays.curves,
                keys: &mut *arrays.hermite_keys,
                values: &mut *arrays.curve_values,
            },
            &mut pool,
            warnings,
        )?;

        self.fill_meshes(
            counts,
            &mut arrays,
            MeshInputs {
                draws,
                envelope_firsts,
                shape_materials,
                pending,
                runs,
            },
            warnings,
        )?;
        hand_out(self.file.bytes(), &mut arrays)
    }
}

/// What the mesh stage reads and writes besides the scene's arrays: the
/// draw matrices, the envelopes' first weights, each shape's material and
/// the vertex scratch, all carved by [`Model::fill`].
struct MeshInputs<'s> {
    draws: &'s mut [[f32; 16]],
    envelope_firsts: &'s mut [u32],
    shape_materials: &'s mut [u32],
    pending: &'s mut Pending,
    runs: &'s mut Runs,
}

impl<'a> Model<'a> {
    /// The mesh stage: one mesh per shape, vertices in display-list order.
    ///
    /// A frame of its own: its vertex filler (about 1.6 KiB) is done with
    /// before the clips are read, which [`Model::fill`] calls with only the
    /// arrays in its frame (issue 40).
    #[inline(never)]
    fn fill_meshes(
        &self,
        counts: &SceneCounts,
        arrays: &mut SceneArrays<'a>,
        inputs: MeshInputs<'_>,
        warnings: &mut Warnings,
    ) -> Result<(), Error> {
        let MeshInputs {
            draws,
            envelope_firsts,
            shape_materials,
            pending,
            runs,
        } = inputs;
        let joints = self.jnt1.len();
        // Meshes: one per shape, vertices in display-list order.
        let mut filler = Filler {
            model: self,
            draws,
            envelope_firsts,
            positions: &mut *arrays.positions,
            normals: &mut *arrays.normals,
            uvs: &mut *arrays.uvs,
            colors: &mut *arrays.colors,
            indices: &mut *arrays.indices,
            spans: &mut *arrays.influence_spans,
            influences: &mut *arrays.influences,
            warnings,
            vertex: 0,
            index: 0,
            influence: 0,
            uv: 0,
            color: 0,
            mesh_first_vertex: 0,
            uv_sets: 0,
            color_sets: 0,
            mesh_vertices: 0,
            normal_draw: None,
            skin_draw: None,
            lanes: Lanes::default(),
            runs,
            readers: ArrayReaders::new(&self.vtx1),
        };
        for s in 0..self.shp1.len() {
            let shape = self.shp1.shape(s)?;
            let desc = self.shp1.descriptor(&shape, &self.vtx1)?;
            let (first_vertex, first_index) = (filler.vertex, filler.index);
            let (first_uv, first_color) = (filler.uv, filler.color);
            filler.mesh_first_vertex = first_vertex;
            filler.uv_sets = uv_sets(&desc);
            filler.color_sets = color_sets(&desc);
            filler.mesh_vertices = 0;
            let mut batch = Batch {
                filler: &mut filler,
                pending: &mut *pending,
            };
            self.walk_shape(&shape, &desc, &mut batch)?;
            let shape_vertices = filler.vertex.saturating_sub(first_vertex);
            filler.uv = sum(filler.uv, product(filler.uv_sets, shape_vertices)?)?;
            filler.color = sum(filler.color, product(filler.color_sets, shape_vertices)?)?;
            let material = shape_materials
                .get(s)
                .and_then(|&m| m.checked_sub(1))
                .map(|m| m as usize);
            let double_sided = material
                .and_then(|m| arrays.materials.get(m))
                .is_some_and(|m| m.cull == 0);
            let group = arrays.groups.get_mut(s).ok_or_else(arena_mismatch)?;
            *group = MeshGroupRecord {
                material: material
                    .map_or(Ok(-1), |m| i32::try_from(m).map_err(|_| arena_mismatch()))?,
                flags: if double_sided {
                    GroupFlags::DOUBLE_SIDED
                } else {
                    0
                },
                render_order: 0,
                first_index: index32(first_index)?,
                index_count: index32(filler.index.saturating_sub(first_index))?,
            };
            let mesh = arrays.meshes.get_mut(s).ok_or_else(arena_mismatch)?;
            *mesh = MeshRecord {
                name: TextRef::EMPTY,
                node: -1,
                flags: MeshFlags::VISIBLE
                    | if desc.get(VertexAttribute::Normal).is_some()
                        || desc.get(VertexAttribute::NormalBinormalTangent).is_some()
                    {
                        MeshFlags::HAS_NORMALS
                    } else {
                        0
                    },
                first_vertex: index32(first_vertex)?,
                vertex_count: index32(filler.vertex.saturating_sub(first_vertex))?,
                first_index: index32(first_index)?,
                index_count: index32(filler.index.saturating_sub(first_index))?,
                first_group: index32(s)?,
                group_count: 1,
                uv_sets: index32(filler.uv_sets)?,
                first_uv: index32(first_uv)?,
                color_sets: index32(filler.color_sets)?,
                first_color: index32(first_color)?,
                skin: if joints > 0 { 0 } else { -1 },
                first_influence_span: index32(first_vertex)?,
            };
        }
        if filler.vertex != counts.positions
            || filler.index != counts.indices
            || filler.influence != counts.influences
        {
            return Err(arena_mismatch());
        }
        Ok(())
    }
}

/// The scene of the filled arrays, written straight into `Model::fill`'s
/// return place: the arrays are taken by reference (and emptied), as
/// passed by value they were copied into a second slot of `fill`'s frame.
#[inline(never)]
fn hand_out<'a>(bytes: &'a [u8], arrays: &mut SceneArrays<'a>) -> Result<Scene<'a>, Error> {
    Ok(Scene::new(Format::J3d, bytes, core::mem::take(arrays)))
}
