//! The count pass: every count checked against the limits, the scene's
//! [`SceneCounts`], and the [`Summary`] `inspect` prints.

use super::summary::{PrimitiveCounts, Summary};
use super::walk::{SLOTS, ShapeSink, Slots, VertexRefs};
use super::{Model, color_sets, uv_sets};
use crate::error::{Error, ErrorCode, Location, SectionId};
use crate::gx::display_list::Primitive;
use crate::gx::vertex::VertexAttribute;
use crate::j3d::drw1::DrawMatrix;
use crate::limits::{J3dLimits, check};
use crate::scene::{Aabb, SceneCounts};

/// What the count pass reads of each display-list vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CountPass {
    /// Every attribute index, checked against its array: what `measure`
    /// promises, so that a decode of the same bytes cannot fail.
    Checked,
    /// As [`CountPass::Checked`], and every position for the raw bbox that
    /// the summary reports.
    Summary,
    /// Only the draw matrix (for the vertex's influences): for `load`, whose
    /// fill pass right after reads and checks every index anyway. An error
    /// from either pass is replaced by `measure`'s
    /// ([`super::measured_error`]), so `load` fails exactly as measuring
    /// first would.
    DrawOnly,
}

impl Model<'_> {
    /// Checks every count against the limits and counts the scene; `pass`
    /// says what it reads of each vertex, `seen` is the hierarchy check's
    /// seen-sets ([`crate::j3d::inf1::Inf1::check`]; too short: the stack's).
    pub(crate) fn count(
        &self,
        options: &crate::j3d::Options<'_>,
        pass: CountPass,
        seen: &mut [u32],
    ) -> Result<(SceneCounts, Summary), Error> {
        let limits = &options.limits;
        let at = |section: &[u8; 4]| Location::Binary {
            offset: self.file.section(section).map_or(0, |s| s.offset) as u64,
            section: Some(SectionId(*section)),
        };
        check(
            self.jnt1.len() as u64,
            limits.max_joints,
            ErrorCode::TooManyJoints,
            "joints (maxJoints)",
            at(b"JNT1"),
        )?;
        check(
            self.shp1.len() as u64,
            limits.max_shapes,
            ErrorCode::TooManyShapes,
            "shapes (maxShapes)",
            at(b"SHP1"),
        )?;
        let materials = self.mat3.map_or(0, |m| m.len());
        check(
            materials as u64,
            limits.max_materials,
            ErrorCode::TooManyMaterials,
            "materials (maxMaterials)",
            at(b"MAT3"),
        )?;
        let (textures, mips, pixels) = self.count_textures(limits, options.skip_texels)?;
        if let Some(mat3) = &self.mat3 {
            mat3.check(textures)?;
        }
        self.inf1
            .check(self.hierarchy_counts(), limits.max_depth, seen)?;
        self.check_envelopes()?;
        for d in 0..self.drw1.len() {
            self.influence_count(d)?;
        }

        let mut summary = Summary {
            sections: self.file.sections().map(|s| s.id).collect(),
            scaling_rule: Some(self.inf1.scaling_rule),
            shapes: self.shp1.len(),
            joints: self.jnt1.len(),
            envelopes: self.evp1.len(),
            draw_matrices: self.drw1.len(),
            ..Summary::default()
        };
        let slots = summary.vertex_arrays.iter_mut().zip(self.vtx1.arrays());
        for (slot, (count, array)) in slots.enumerate() {
            *count = match (slot, array) {
                (0, Some(_)) => self.inf1.vertex_count as usize,
                (_, Some(a)) => a.count(),
                (_, None) => 0,
            };
        }

        let mut counter = Counter {
            model: self,
            limits,
            vertices: 0,
            triangles: 0,
            influences: 0,
            uvs: 0,
            colors: 0,
            shape_uv_sets: 0,
            shape_color_sets: 0,
            primitives: PrimitiveCounts::default(),
            bbox: None,
            pass,
            last_draw: None,
        };
        for s in 0..self.shp1.len() {
            let shape = self.shp1.shape(s)?;
            let desc = self.shp1.descriptor(&shape, &self.vtx1)?;
            let before = counter.vertices;
            counter.shape_uv_sets = uv_sets(&desc);
            counter.shape_color_sets = color_sets(&desc);
            summary.packets = summary.packets.saturating_add(shape.packet_count());
            check(
                summary.packets as u64,
                limits.max_packets,
                ErrorCode::TooManyPackets,
                "packets (maxPackets)",
                at(b"SHP1"),
            )?;
            let mut dl_bytes = 0u64;
            for j in 0..shape.packet_count() {
                dl_bytes =
                    dl_bytes.saturating_add(self.shp1.packet(&shape, j)?.display_list.len() as u64);
            }
            check(
                dl_bytes,
                limits.max_display_list_bytes,
                ErrorCode::DisplayListTooLarge,
                "display-list bytes of one shape (maxDisplayListBytes)",
                at(b"SHP1"),
            )?;
            self.walk_shape(&shape, &desc, &mut counter)?;
            // Saturated, a count fails the plan's checked sizes.
            let shape_vertices = counter.vertices.saturating_sub(before);
            counter.uvs = counter
                .uvs
                .saturating_add(shape_vertices.saturating_mul(counter.shape_uv_sets));
            counter.colors = counter
                .colors
                .saturating_add(shape_vertices.saturating_mul(counter.shape_color_sets));
        }
        summary.primitives = counter.primitives;
        summary.raw_position_bbox = counter.bbox;

        let joints = self.jnt1.len();
        let skinned = joints > 0;
        let mut counts = SceneCounts {
            nodes: joints,
            meshes: self.shp1.len(),
            groups: self.shp1.len(),
            positions: counter.vertices,
            normals: counter.vertices,
            uvs: counter.uvs,
            colors: counter.colors,
            indices: counter.triangles.saturating_mul(3),
            materials,
            textures,
            mips,
            pixels,
            skins: usize::from(skinned),
            skin_joints: joints,
            inverse_binds: joints,
            influence_spans: if skinned { counter.vertices } else { 0 },
            influences: counter.influences,
            ..SceneCounts::default()
        };
        counts.text_pool = self.pool_bytes()?;
        self.count_clips(options, &mut counts)?;
        Ok((counts, summary))
    }

    /// Checks every envelope's joints and weights, in one pass.
    fn check_envelopes(&self) -> Result<(), Error> {
        let mut first = 0;
        for e in 0..self.evp1.len() {
            let n = self.evp1.joint_count(e)?;
            for k in 0..n {
                let (joint, weight) = self.evp1.influence(first, k)?;
                if usize::from(joint) >= self.jnt1.len() || !weight.is_finite() {
                    return Err(self.section_error(
                        b"EVP1",
                        ErrorCode::BadOffset,
                        format_args!(
                            "envelope {e} names joint {joint} of {} (weight {weight})",
                            self.jnt1.len()
                        ),
                    ));
                }
                // The decode reads this joint's inverse bind: it must exist.
                self.evp1.inverse_bind(usize::from(joint))?;
            }
            first = first.saturating_add(n);
        }
        Ok(())
    }

    /// Joints the draw matrix `d` names: 1 for rigid, the envelope's count
    /// for weighted. O(1), checking the indices.
    fn influence_count(&self, d: usize) -> Result<usize, Error> {
        match self.drw1.matrix(d)? {
            DrawMatrix::Joint(j) if usize::from(j) < self.jnt1.len() => Ok(1),
            DrawMatrix::Envelope(e) if usize::from(e) < self.evp1.len() => {
                self.evp1.joint_count(usize::from(e))
            }
            other => Err(self.section_error(
                b"DRW1",
                ErrorCode::BadOffset,
                format_args!(
                    "draw matrix {d} is {other:?}, but the model has {} joints and {} envelopes",
                    self.jnt1.len(),
                    self.evp1.len()
                ),
            )),
        }
    }
}

/// Counts vertices and triangles, checks the limits as they grow, and
/// gathers the summary's primitive counts and raw position bbox.
struct Counter<'m, 'a> {
    model: &'m Model<'a>,
    limits: &'m J3dLimits,
    vertices: usize,
    triangles: usize,
    influences: usize,
    uvs: usize,
    colors: usize,
    shape_uv_sets: usize,
    shape_color_sets: usize,
    primitives: PrimitiveCounts,
    bbox: Option<Aabb>,
    /// What to read of each vertex; `bbox` is gathered only for the summary
    /// (it costs a position read per vertex).
    pass: CountPass,
    /// The last draw matrix seen, with its influence count (consecutive
    /// vertices mostly share one).
    last_draw: Option<(u32, usize)>,
}

impl ShapeSink for Counter<'_, '_> {
    fn reads_indices(&self) -> bool {
        self.pass != CountPass::DrawOnly
    }

    #[inline]
    fn vertex(&mut self, v: &VertexRefs) -> Result<(), Error> {
        self.add_vertices(1)?;
        self.influences = self
            .influences
            .saturating_add(self.draw_influences(v.draw)?);
        if let Some(p) = v
            .position
            .get()
            .filter(|_| self.pass == CountPass::Summary)
            .and_then(|i| self.model.position(i))
        {
            self.bbox = Some(self.bbox.map_or(Aabb::point(p), |b| b.with(p)));
        }
        Ok(())
    }

    #[inline(always)]
    fn uniform(&mut self, draw: u32, count: usize) -> Result<bool, Error> {
        if self.pass != CountPass::DrawOnly {
            return Ok(false);
        }
        self.add_vertices(count)?;
        self.influences = self
            .influences
            .saturating_add(count.saturating_mul(self.draw_influences(draw)?));
        Ok(true)
    }

    fn matrix_indexed(
        &mut self,
        slots: &Slots,
        bytes: &[u8],
        size: usize,
        at: usize,
        count: usize,
    ) -> Result<bool, Error> {
        if self.pass != CountPass::DrawOnly || size == 0 {
            return Ok(false);
        }
        // Each slot's influence count, found when a vertex first names it
        // (`None`: not yet; a slot no packet set leaves the primitive to
        // the vertex-by-vertex path, which reports it).
        let mut per_slot: [Option<usize>; SLOTS] = [None; SLOTS];
        let mut influences = 0usize;
        let vertices = bytes.chunks_exact(size);
        if vertices.len() < count {
            return Ok(false);
        }
        for vertex in vertices.take(count) {
            let slot = usize::from(vertex.get(at).copied().unwrap_or(0)) / 3;
            let Some(known) = per_slot.get_mut(slot) else {
                return Ok(false);
            };
            let n = match *known {
                Some(n) => n,
                None => {
                    let Some(draw) = slots.get(slot).copied().flatten() else {
                        return Ok(false);
                    };
                    let n = self.model.influence_count(usize::from(draw))?;
                    *known = Some(n);
                    n
                }
            };
            #[allow(
                clippy::arithmetic_side_effects,
                reason = "at most 65 535 vertices (a u16 count) of at most 255 joints each: below 2^24"
            )]
            {
                influences += n;
            }
        }
        self.add_vertices(count)?;
        self.influences = self.influences.saturating_add(influences);
        Ok(true)
    }

    #[inline(always)]
    fn primitive(&mut self, kind: Primitive, count: usize) -> Result<(), Error> {
        self.primitives.add(kind);
        self.triangles = self.triangles.saturating_add(kind.triangle_count(count));
        check(
            self.triangles as u64,
            self.limits.max_triangles,
            ErrorCode::TooManyTriangles,
            "triangles (maxTriangles)",
            Location::Nowhere,
        )
    }

    fn skipped(&mut self, kind: Primitive, _offset: usize) {
        self.primitives.add(kind);
    }
}

impl Counter<'_, '_> {
    /// Counts `n` more vertices against maxVertices.
    #[inline(always)]
    fn add_vertices(&mut self, n: usize) -> Result<(), Error> {
        // Saturated, it fails the limit below.
        self.vertices = self.vertices.saturating_add(n);
        check(
            self.vertices as u64,
            self.limits.max_vertices,
            ErrorCode::TooManyVertices,
            "vertices (maxVertices)",
            Location::Nowhere,
        )
    }

    /// Joints draw matrix `draw` names, cached for the next vertices.
    #[inline(always)]
    fn draw_influences(&mut self, draw: u32) -> Result<usize, Error> {
        match self.last_draw {
            Some((last, n)) if last == draw => Ok(n),
            _ => {
                let n = self.model.influence_count(draw as usize)?;
                self.last_draw = Some((draw, n));
                Ok(n)
            }
        }
    }
}

impl Model<'_> {
    /// Position `i` as stored (fixed point divided out), or `None` out of range.
    #[inline(always)]
    fn position(&self, i: usize) -> Option<[f32; 3]> {
        let array = self.vtx1.array(VertexAttribute::Position)?;
        Some(array.format.read_numeric(array.element(i)?))
    }
}
