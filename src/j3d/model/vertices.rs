//! The fill pass's hot path: each display-list vertex's attributes read by
//! index, positions and normals moved into bind-pose model space, UVs,
//! colours and skin influences written, and each primitive's triangles.

use super::normals::NormalTable;
use super::walk::{ShapeSink, VertexRefs};
use super::{Model, arena_mismatch, index32, small};
use crate::error::{Error, Location, SectionId, Warning, WarningCode, Warnings};
use crate::gx::display_list::Primitive;
use crate::gx::vertex::{NumericReader, VertexAttribute};
use crate::j3d::drw1::DrawMatrix;
use crate::j3d::vtx1::Vtx1;
use crate::scene::{Influence, InfluenceSpan, MAX_UV_SETS, Mat4, NormalMatrix};

/// Writes vertices, triangles and influences into the scene's arrays.
pub(super) struct Filler<'f, 'm, 'a> {
    pub(super) model: &'m Model<'a>,
    pub(super) draws: &'f [[f32; 16]],
    pub(super) envelope_firsts: &'f [u32],
    pub(super) positions: &'f mut [[f32; 3]],
    pub(super) normals: &'f mut [[f32; 3]],
    pub(super) uvs: &'f mut [[f32; 2]],
    pub(super) colors: &'f mut [[u8; 4]],
    pub(super) indices: &'f mut [u32],
    pub(super) spans: &'f mut [InfluenceSpan],
    pub(super) influences: &'f mut [Influence],
    pub(super) warnings: &'f mut Warnings,
    pub(super) vertex: usize,
    pub(super) index: usize,
    pub(super) influence: usize,
    pub(super) uv: usize,
    pub(super) color: usize,
    pub(super) mesh_first_vertex: usize,
    pub(super) uv_sets: usize,
    pub(super) color_sets: usize,
    /// Vertices of the current shape written so far.
    pub(super) mesh_vertices: usize,
    /// The last draw matrix used, with its normal matrix and (when the scene
    /// is skinned) what DRW1 says it is.
    pub(super) cached: Option<(u32, Mat4, NormalMatrix, Option<DrawMatrix>)>,
    /// The numeric arrays, resolved for reading by index.
    pub(super) readers: ArrayReaders<'a>,
    /// Normals turned by the cached draw matrix, by index.
    pub(super) turned: NormalTable,
}

/// VTX1's numeric arrays resolved for reading by index ([`NumericReader`]):
/// once per decode, not once per vertex.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ArrayReaders<'a> {
    position: Option<NumericReader<'a>>,
    normal: Option<NumericReader<'a>>,
    normal_binormal_tangent: Option<NumericReader<'a>>,
    uvs: [Option<NumericReader<'a>>; MAX_UV_SETS],
}

impl<'a> ArrayReaders<'a> {
    pub(super) fn new(vtx1: &Vtx1<'a>) -> Self {
        let reader = |attribute| {
            vtx1.array(attribute)
                .map(|a| a.format.numeric_reader(a.data))
        };
        Self {
            position: reader(VertexAttribute::Position),
            normal: reader(VertexAttribute::Normal),
            normal_binormal_tangent: reader(VertexAttribute::NormalBinormalTangent),
            uvs: core::array::from_fn(|t| reader(VertexAttribute::TexCoord(small(t)))),
        }
    }
}

impl ShapeSink for Filler<'_, '_, '_> {
    #[inline]
    fn vertex(&mut self, v: &VertexRefs) -> Result<(), Error> {
        // Consecutive vertices mostly share a draw matrix: turn it into a
        // normal matrix once per run.
        if self.cached.map(|(d, ..)| d) != Some(v.draw) {
            let draw = Mat4(
                self.draws
                    .get(v.draw as usize)
                    .copied()
                    .ok_or_else(arena_mismatch)?,
            );
            let skin = if self.spans.is_empty() {
                None
            } else {
                Some(self.model.drw1.matrix(v.draw as usize)?)
            };
            self.cached = Some((v.draw, draw, draw.normal_matrix(), skin));
            self.turned.clear();
        }
        // Borrowed, not copied: the two matrices are about a hundred bytes.
        let (draw, normal_matrix, skin) = match &self.cached {
            Some((_, d, n, skin)) => (d, n, *skin),
            None => return Err(arena_mismatch()),
        };

        let readers = &self.readers;
        let position = match (v.position.get(), readers.position) {
            (Some(i), Some(array)) => array.read(i),
            _ => [0.0; 3],
        };
        *self
            .positions
            .get_mut(self.vertex)
            .ok_or_else(arena_mismatch)? = draw.transform_point(position);
        let nbt = v.normal_array == VertexAttribute::NormalBinormalTangent;
        let normal_array = if nbt {
            readers.normal_binormal_tangent
        } else {
            readers.normal
        };
        let normal = match v.normal.get().zip(normal_array) {
            Some((i, array)) => self.turned.get_or(NormalTable::key(i, nbt), || {
                normal_matrix.apply(array.read(i))
            }),
            None => [0.0; 3],
        };
        *self
            .normals
            .get_mut(self.vertex)
            .ok_or_else(arena_mismatch)? = normal;
        for (set, (index, array)) in v
            .uvs
            .iter()
            .zip(&readers.uvs)
            .enumerate()
            .take(self.uv_sets)
        {
            let uv = match (index.get(), array) {
                (Some(i), Some(array)) => array.read(i),
                _ => [0.0; 2],
            };
            let at = self.uv + self.mesh_vertices * self.uv_sets + set;
            *self.uvs.get_mut(at).ok_or_else(arena_mismatch)? = uv;
        }
        let vtx1 = &self.model.vtx1;
        for (set, index) in v.colors.iter().enumerate().take(self.color_sets) {
            let color = match (index.get(), vtx1.array(VertexAttribute::Color(small(set)))) {
                (Some(i), Some(array)) => array
                    .format
                    .read_color(array.element(i).unwrap_or_default()),
                _ => [255; 4],
            };
            let at = self.color + self.mesh_vertices * self.color_sets + set;
            *self.colors.get_mut(at).ok_or_else(arena_mismatch)? = color;
        }
        if let Some(skin) = skin {
            let first = self.influence;
            match skin {
                DrawMatrix::Joint(j) => self.push_influence(u32::from(j), 1.0)?,
                DrawMatrix::Envelope(e) => {
                    let e = usize::from(e);
                    let start = self.envelope_firsts.get(e).map_or(0, |&f| f as usize);
                    for k in 0..self.model.evp1.joint_count(e)? {
                        let (joint, weight) = self.model.evp1.influence(start, k)?;
                        self.push_influence(u32::from(joint), weight)?;
                    }
                }
            }
            *self.spans.get_mut(self.vertex).ok_or_else(arena_mismatch)? = InfluenceSpan {
                first: index32(first)?,
                count: index32(self.influence - first)?,
            };
        }
        self.vertex += 1;
        self.mesh_vertices += 1;
        Ok(())
    }

    fn primitive(&mut self, kind: Primitive, count: usize) -> Result<(), Error> {
        // The primitive's vertices are the last `count` written.
        let base = self.vertex - count - self.mesh_first_vertex;
        for t in 0..kind.triangle_count(count) {
            let [a, b, c] = kind.triangle(t);
            // GX's front face is clockwise; the scene's is counter-clockwise.
            for local in [a, c, b] {
                *self
                    .indices
                    .get_mut(self.index)
                    .ok_or_else(arena_mismatch)? = index32(base + local)?;
                self.index += 1;
            }
        }
        Ok(())
    }

    fn skipped(&mut self, kind: Primitive, offset: usize) {
        self.warnings.push(Warning::new(
            WarningCode::UnsupportedPrimitive,
            Location::Binary {
                offset: offset as u64,
                section: Some(SectionId(*b"SHP1")),
            },
            format_args!(
                "{kind:?} primitive skipped: only triangles, strips, fans and quads are drawn"
            ),
        ));
    }
}

impl Filler<'_, '_, '_> {
    fn push_influence(&mut self, joint: u32, weight: f32) -> Result<(), Error> {
        *self
            .influences
            .get_mut(self.influence)
            .ok_or_else(arena_mismatch)? = Influence { joint, weight };
        self.influence += 1;
        Ok(())
    }
}
