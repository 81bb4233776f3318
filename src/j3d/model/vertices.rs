//! The fill pass's hot path: each triangle primitive's vertices read by
//! index, positions and normals moved into bind-pose model space, UVs,
//! colours and skin influences written, and each primitive's triangles.
//!
//! Vertices are filled in blocks (of one primitive, or of several short
//! ones side by side: `batch.rs`), one attribute at a time: the loop over
//! one attribute is short, its branches the same for every vertex, and the
//! array reads of neighbouring vertices overlap instead of waiting on each
//! other behind the rest of a vertex's work.

use super::blocks::{ArrayReaders, BLOCK, Block, Lanes, block_len, gather_colors};
use super::normals::turn_all;
use super::walk::{IndexField, Slots, VertexLayout};
use super::{Model, arena_mismatch, index32, product, sum};
use crate::error::{Error, Location, SectionId, Warning, WarningCode, Warnings};
use crate::gx::display_list::Primitive;
use crate::j3d::drw1::DrawMatrix;
use crate::scene::{Influence, InfluenceSpan, Mat4, NormalMatrix};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};
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
    /// The draw matrix normals were last turned by, with its normal matrix.
    pub(super) normal_draw: Option<(u32, NormalMatrix)>,
    /// The draw matrix influences were last written for, and where they
    /// are (first, count): the next vertex of that matrix copies them.
    pub(super) skin_draw: Option<(u32, usize, usize)>,
    /// The numeric arrays, resolved for reading by index.
    pub(super) readers: ArrayReaders<'a>,
    /// The current shape's attributes: where each index is, what it reads.
    pub(super) lanes: Lanes<'a>,
    /// A block's runs, in the plan's arena scratch.
    pub(super) runs: &'f mut Runs,
}

/// A block's values read before they are placed: one attribute's elements
/// as stored, and up to two UV sets. 3 584 bytes, kept in the plan's
/// arena scratch ([`super::plan`]) rather than the stack; what a block
/// reads it writes first.
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub(super) struct Runs {
    raw: [[f32; 3]; BLOCK],
    uv: [[[f32; 2]; BLOCK]; 2],
}
impl Filler<'_, '_, '_> {
    /// A shape starts: its attributes resolved for the fill.
    pub(super) fn shape(&mut self, layout: &VertexLayout) {
        self.lanes = Lanes::new(layout, &self.readers);
    }

    /// The draw matrices of `block`'s vertices under `slots`.
    pub(super) fn draws(
        &self,
        layout: &VertexLayout,
        slots: &Slots,
        block: Block<'_>,
    ) -> Result<[u32; BLOCK], Error> {
        let mut draws = [0u32; BLOCK];
        self.draws_into(layout, slots, block, &mut draws)?;
        Ok(draws)
    }

    /// Writes the draw matrices of `block`'s vertices under `slots` into
    /// `out` (all of `out` with the one matrix of a shape without matrix
    /// indices).
    #[inline(always)]
    pub(super) fn draws_into(
        &self,
        layout: &VertexLayout,
        slots: &Slots,
        block: Block<'_>,
        out: &mut [u32],
    ) -> Result<(), Error> {
        if layout.matrix.is_none() {
            // Every vertex takes slot 0's matrix.
            let d = layout
                .draw(&[], slots)
                .map_err(|fault| self.model.vertex_error(block.at(0), fault))?;
            out.fill(d);
            return Ok(());
        }
        for (k, (d, vertex)) in out.iter_mut().zip(block.vertices()).enumerate() {
            *d = layout
                .draw(vertex, slots)
                .map_err(|fault| self.model.vertex_error(block.at(k), fault))?;
        }
        Ok(())
    }

    /// The triangles of a primitive of `count` vertices whose last vertex
    /// is the scene's vertex `end - 1` (written, or waiting in a batch).
    pub(super) fn primitive(
        &mut self,
        kind: Primitive,
        count: usize,
        end: usize,
    ) -> Result<(), Error> {
        let base = end
            .checked_sub(count)
            .and_then(|first| first.checked_sub(self.mesh_first_vertex))
            .ok_or_else(arena_mismatch)?;
        // Every index is below `base + count`: converted once, not per index.
        index32(sum(base, count)?)?;
        let base = index32(base)?;
        let end = sum(self.index, product(3, kind.triangle_count(count))?)?;
        let out = self
            .indices
            .get_mut(self.index..end)
            .ok_or_else(arena_mismatch)?;
        self.index = end;
        write_triangles(kind, out.as_chunks_mut::<3>().0, base);
        Ok(())
    }

    /// A primitive that makes no triangles, warned about.
    pub(super) fn skipped(&mut self, kind: Primitive, offset: usize) {
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

/// A block's draw matrices, taken a run of vertices of one matrix at a time
/// by the loops that transform and skin.
#[derive(Clone, Copy)]
struct DrawRuns<'d> {
    draws: &'d [u32],
    /// Every vertex takes the same matrix (each block of a shape without
    /// matrix indices, and most blocks of the others): one run, found
    /// without comparing neighbours one by one.
    uniform: bool,
}

impl<'d> DrawRuns<'d> {
    /// The runs of `draws`, each vertex's draw matrix.
    #[inline(always)]
    fn of(draws: &'d [u32]) -> Self {
        let first = draws.first().copied().unwrap_or_default();
        // A fold without an early exit: a few vector instructions.
        let uniform = draws.iter().fold(0, |differ, &d| differ | (d ^ first)) == 0;
        Self { draws, uniform }
    }

    fn len(self) -> usize {
        self.draws.len()
    }

    /// Runs of neighbouring vertices of one draw matrix.
    #[inline(always)]
    fn runs(self) -> impl Iterator<Item = &'d [u32]> {
        let (one, many) = if self.uniform {
            (Some(self.draws), None)
        } else {
            (None, Some(self.draws.chunk_by(|a, b| a == b)))
        };
        one.into_iter().chain(many.into_iter().flatten())
    }
}

/// Puts `run[k]` in place `set` of vertex `k`'s `S` UV sets in `out`. With
/// `S` fixed, whether `set` is in range is asked once, not per vertex.
#[inline(always)]
fn place_set<const S: usize>(out: &mut [[f32; 2]], set: usize, run: &[[f32; 2]]) {
    for (uvs, uv) in out.as_chunks_mut::<S>().0.iter_mut().zip(run) {
        if let Some(place) = uvs.get_mut(set) {
            *place = *uv;
        }
    }
}

/// Writes `kind`'s triangles into `out`, each vertex `base` plus its place
/// in the primitive. GX's front face is clockwise, the scene's
/// counter-clockwise: each [`Primitive::triangle`] (a, b, c) is written
/// (a, c, b). One loop per kind, so nothing is chosen per triangle.
#[allow(
    clippy::arithmetic_side_effects,
    reason = "out holds the triangles of one primitive, whose vertex count is a u16: t < 2^16, so 3t + 2 < 2^18"
)]
fn write_triangles(kind: Primitive, out: &mut [[u32; 3]], base: u32) {
    match kind {
        Primitive::TriangleStrip => put_triangles(out, base, |t| {
            if t % 2 == 0 {
                [t, t + 2, t + 1]
            } else {
                [t, t + 1, t + 2]
            }
        }),
        Primitive::TriangleFan => put_triangles(out, base, |t| [0, t + 2, t + 1]),
        Primitive::Quads | Primitive::Quads2 => put_triangles(out, base, |t| {
            let q = t / 2 * 4;
            if t % 2 == 0 {
                [q, q + 2, q + 1]
            } else {
                [q, q + 3, q + 2]
            }
        }),
        _ => put_triangles(out, base, |t| [3 * t, 3 * t + 2, 3 * t + 1]),
    }
}

/// Writes triangle `t` of `out` as `base` plus `triangle(t)`'s vertices.
#[inline(always)]
#[allow(
    clippy::arithmetic_side_effects,
    reason = "t < 2^16 (write_triangles); local is below the primitive's count and base + count fits u32 (Filler::primitive checks it)"
)]
fn put_triangles(out: &mut [[u32; 3]], base: u32, triangle: impl Fn(u32) -> [u32; 3]) {
    for (t, out) in (0u32..).zip(out) {
        *out = triangle(t).map(|local| base + local);
    }
}

impl Filler<'_, '_, '_> {
    /// Fills one block of vertices, attribute by attribute; `draws` are
    /// their draw matrices ([`Filler::draws`]).
    pub(super) fn block(&mut self, block: Block<'_>, draws: &[u32; BLOCK]) -> Result<(), Error> {
        let n = block.len();
        let draws = DrawRuns::of(draws.get(..n).ok_or_else(arena_mismatch)?);
        self.block_positions(draws, block)?;
        self.block_normals(draws, block)?;
        self.block_uvs(block)?;
        self.block_colors(block)?;
        if !self.spans.is_empty() {
            self.block_influences(draws)?;
        }
        self.vertex = sum(self.vertex, n)?;
        self.mesh_vertices = sum(self.mesh_vertices, n)?;
        Ok(())
    }

    /// Positions, each moved by its draw matrix: a run of vertices of one
    /// draw matrix at a time.
    #[inline(always)]
    fn block_positions(&mut self, draws: DrawRuns<'_>, block: Block<'_>) -> Result<(), Error> {
        self.model
            .read_lane(self.lanes.position, block, self.runs.raw.iter_mut())?;
        let first = self.vertex;
        let out = self
            .positions
            .get_mut(first..)
            .and_then(|out| out.get_mut(..draws.len()))
            .ok_or_else(arena_mismatch)?;
        let (mut raw, mut out) = (self.runs.raw.as_slice(), out);
        for run in draws.runs() {
            let &[d, ..] = run else { continue };
            let matrix = Mat4(
                self.draws
                    .get(d as usize)
                    .copied()
                    .ok_or_else(arena_mismatch)?,
            );
            let (raw_run, raw_rest) = raw.split_at_checked(run.len()).ok_or_else(arena_mismatch)?;
            let (out_run, out_rest) = out
                .split_at_mut_checked(run.len())
                .ok_or_else(arena_mismatch)?;
            for (out, position) in out_run.iter_mut().zip(raw_run) {
                *out = matrix.transform_point(*position);
            }
            (raw, out) = (raw_rest, out_rest);
        }
        Ok(())
    }

    /// Normals, each turned by its draw matrix's normal matrix: a run of
    /// vertices of one draw matrix at a time, two normals at once
    /// (`normals.rs`).
    #[inline(always)]
    fn block_normals(&mut self, draws: DrawRuns<'_>, block: Block<'_>) -> Result<(), Error> {
        self.model
            .read_lane(self.lanes.normal, block, self.runs.raw.iter_mut())?;
        let first = self.vertex;
        let out = self
            .normals
            .get_mut(first..)
            .and_then(|out| out.get_mut(..draws.len()))
            .ok_or_else(arena_mismatch)?;
        if !matches!(self.lanes.normal, Some((_, Some(_)))) {
            out.fill([0.0; 3]);
            return Ok(());
        }
        // A vertex without a normal index read as zero, which turns to zero.
        let (mut raw, mut out) = (self.runs.raw.as_slice(), out);
        for run in draws.runs() {
            let &[d, ..] = run else { continue };
            if self.normal_draw.as_ref().map(|(nd, _)| *nd) != Some(d) {
                let draw = Mat4(
                    self.draws
                        .get(d as usize)
                        .copied()
                        .ok_or_else(arena_mismatch)?,
                );
                self.normal_draw = Some((d, draw.normal_matrix()));
            }
            let Some((_, normal_matrix)) = &self.normal_draw else {
                return Err(arena_mismatch());
            };
            let (raw_run, raw_rest) = raw.split_at_checked(run.len()).ok_or_else(arena_mismatch)?;
            let (out_run, out_rest) = out
                .split_at_mut_checked(run.len())
                .ok_or_else(arena_mismatch)?;
            turn_all(normal_matrix, raw_run, out_run);
            (raw, out) = (raw_rest, out_rest);
        }
        Ok(())
    }

    /// Every UV set of the block's vertices, one set at a time.
    #[inline(always)]
    fn block_uvs(&mut self, block: Block<'_>) -> Result<(), Error> {
        let (model, sets) = (self.model, self.uv_sets);
        if sets == 0 {
            return Ok(());
        }
        let n = block.len();
        let at = sum(self.uv, product(self.mesh_vertices, sets)?)?;
        let out = self
            .uvs
            .get_mut(at..)
            .and_then(|out| out.get_mut(..block_len(n, sets)))
            .ok_or_else(arena_mismatch)?;
        if sets == 1 {
            // One set (most shapes): its UVs are the block's whole run.
            let lane = self.lanes.uvs.first().copied().flatten();
            return model.read_lane(lane, block, out.iter_mut());
        }
        // Two sets (the corpus's maps): both read as runs, then one pass of
        // whole pairs (the interleaved writes kept out of the reads).
        let [run, other] = &mut self.runs.uv;
        if let [first, second, ..] = self.lanes.uvs
            && sets == 2
        {
            model.read_lane(first, block, run.iter_mut().take(n))?;
            model.read_lane(second, block, other.iter_mut().take(n))?;
            for (uvs, (a, b)) in out
                .as_chunks_mut::<2>()
                .0
                .iter_mut()
                .zip(run.iter().zip(other.iter()))
            {
                *uvs = [*a, *b];
            }
            return Ok(());
        }
        // More sets (up to eight): each read as a run, as above, then put
        // in its place of every vertex.
        for (set, &lane) in self.lanes.uvs.iter().enumerate().take(sets) {
            model.read_lane(lane, block, run.iter_mut().take(n))?;
            match sets {
                3 => place_set::<3>(out, set, run),
                4 => place_set::<4>(out, set, run),
                5 => place_set::<5>(out, set, run),
                6 => place_set::<6>(out, set, run),
                7 => place_set::<7>(out, set, run),
                8 => place_set::<8>(out, set, run),
                // A shape has at most `MAX_UV_SETS` (8).
                _ => return Err(arena_mismatch()),
            }
        }
        Ok(())
    }

    /// Every colour set of the block's vertices, one set at a time.
    #[inline(always)]
    fn block_colors(&mut self, block: Block<'_>) -> Result<(), Error> {
        let (model, sets) = (self.model, self.color_sets);
        if sets == 0 {
            return Ok(());
        }
        let n = block.len();
        let at = sum(self.color, product(self.mesh_vertices, sets)?)?;
        let out = self
            .colors
            .get_mut(at..)
            .and_then(|out| out.get_mut(..block_len(n, sets)))
            .ok_or_else(arena_mismatch)?;
        for (set, lane) in self.lanes.colors.iter().enumerate().take(sets) {
            let Some((field, array)) = *lane else {
                out.iter_mut()
                    .skip(set)
                    .step_by(sets)
                    .for_each(|out| *out = [255; 4]);
                continue;
            };
            if let Some(array) = array {
                let gathered = if sets == 1 {
                    gather_colors(field, block, array, out.iter_mut())
                } else {
                    let outs = out.iter_mut().skip(set).step_by(sets);
                    gather_colors(field, block, array, outs)
                };
                if let Some(gathered) = gathered {
                    gathered.map_err(|(k, fault)| model.vertex_error(block.at(k), fault))?;
                    continue;
                }
            }
            let outs = out.iter_mut().skip(set).step_by(sets);
            for (k, (out, vertex)) in outs.zip(block.vertices()).enumerate() {
                let index = IndexField::read(Some(field), vertex)
                    .map_err(|fault| model.vertex_error(block.at(k), fault))?;
                *out = match (index.get(), array) {
                    (Some(i), Some(array)) => array
                        .format
                        .read_color(array.element(i).unwrap_or_default()),
                    _ => [255; 4],
                };
            }
        }
        Ok(())
    }

    /// Writes the influences and spans of the block's vertices, whose draw
    /// matrices are `draws`. A vertex of the same matrix as the one before
    /// copies its influences (the values EVP1 would give again).
    #[inline(always)]
    fn block_influences(&mut self, draws: DrawRuns<'_>) -> Result<(), Error> {
        // The spans are taken out while the influences are written, and put
        // back whatever happens.
        let all = core::mem::take(&mut self.spans);
        let first = self.vertex;
        let written = match all.get_mut(first..).and_then(|s| s.get_mut(..draws.len())) {
            Some(spans) => self.influences_into(spans, draws),
            None => Err(arena_mismatch()),
        };
        self.spans = all;
        written
    }

    /// A run of vertices of one draw matrix at a time: its first vertex's
    /// influences written from EVP1 (or copied from the matrix's last
    /// vertex before), the others copies of the first's.
    #[inline(always)]
    fn influences_into(
        &mut self,
        spans: &mut [InfluenceSpan],
        draws: DrawRuns<'_>,
    ) -> Result<(), Error> {
        let mut spans = spans;
        for run in draws.runs() {
            let &[d, ..] = run else { continue };
            let (run_spans, rest) = core::mem::take(&mut spans)
                .split_at_mut_checked(run.len())
                .ok_or_else(arena_mismatch)?;
            spans = rest;
            let start = self.influence;
            let count = match self.skin_draw {
                Some((sd, from, count)) if sd == d => {
                    let (before, after) = self
                        .influences
                        .split_at_mut_checked(start)
                        .ok_or_else(arena_mismatch)?;
                    let source = before.get(from..sum(from, count)?);
                    match (source, after.get_mut(..count)) {
                        (Some(source), Some(target)) => target.copy_from_slice(source),
                        _ => return Err(arena_mismatch()),
                    }
                    count
                }
                _ => {
                    self.write_influences(d)?;
                    self.influence.saturating_sub(start)
                }
            };
            // The run's other vertices: copies of its first's influences.
            let first_end = sum(start, count)?;
            let end = sum(start, product(count, run.len())?)?;
            let (before, after) = self
                .influences
                .split_at_mut_checked(first_end)
                .ok_or_else(arena_mismatch)?;
            let source = before.get(start..).ok_or_else(arena_mismatch)?;
            let copies = after
                .get_mut(..end.saturating_sub(first_end))
                .ok_or_else(arena_mismatch)?;
            match source {
                // A rigid matrix's one influence: a fill.
                [one] => copies.fill(*one),
                [] => {}
                _ => copies
                    .chunks_exact_mut(count)
                    .for_each(|copy| copy.copy_from_slice(source)),
            }
            // Every span's first is below `end`, which fits u32.
            index32(end)?;
            let (mut first, count32) = (index32(start)?, index32(count)?);
            for span in run_spans {
                *span = InfluenceSpan {
                    first,
                    count: count32,
                };
                first = first.saturating_add(count32);
            }
            self.influence = end;
            self.skin_draw = Some((d, start, count));
        }
        Ok(())
    }

    /// Writes the influences of draw matrix `d` from DRW1 and EVP1.
    fn write_influences(&mut self, d: u32) -> Result<(), Error> {
        match self.model.drw1.matrix(d as usize)? {
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
        Ok(())
    }

    fn push_influence(&mut self, joint: u32, weight: f32) -> Result<(), Error> {
        *self
            .influences
            .get_mut(self.influence)
            .ok_or_else(arena_mismatch)? = Influence { joint, weight };
        self.influence = sum(self.influence, 1)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::{vec, vec::Vec};

    /// The runs of one draw matrix are those of `chunk_by`, whether the
    /// block is uniform or not.
    #[test]
    fn draw_runs_are_the_runs_of_equal_neighbours() {
        let cases: [&[u32]; 6] = [
            &[],
            &[4],
            &[4, 4, 4],
            &[1, 1, 2, 2, 2, 1],
            &[0, 1, 2],
            &[7, 7, 8],
        ];
        for draws in cases {
            let runs = DrawRuns::of(draws);
            assert_eq!(
                runs.uniform,
                draws.windows(2).all(|w| w[0] == w[1]),
                "{draws:?}"
            );
            let got: Vec<&[u32]> = runs.runs().collect();
            let want: Vec<&[u32]> = if draws.is_empty() {
                vec![draws]
            } else {
                draws.chunk_by(|a, b| a == b).collect()
            };
            assert_eq!(got, want, "{draws:?}");
        }
    }

    /// Each set's run lands in its own place of every vertex, for every
    /// count of sets the fill places this way.
    #[test]
    fn uv_sets_are_placed_in_their_own_slot() {
        fn check<const S: usize>() {
            let n = 5;
            let mut out = vec![[0.0f32; 2]; n * S];
            for set in 0..S {
                let run: Vec<[f32; 2]> = (0..n).map(|k| [k as f32, set as f32]).collect();
                place_set::<S>(&mut out, set, &run);
            }
            for (k, uvs) in out.chunks_exact(S).enumerate() {
                for (set, uv) in uvs.iter().enumerate() {
                    assert_eq!(*uv, [k as f32, set as f32], "{S} sets, vertex {k}");
                }
            }
        }
        check::<3>();
        check::<4>();
        check::<5>();
        check::<6>();
        check::<7>();
        check::<8>();
    }

    /// The per-kind loops write what `Primitive::triangle` says, turned to
    /// the scene's winding, for every kind and vertex count.
    #[test]
    fn triangles_follow_primitive_triangle_reversed() {
        let kinds = [
            Primitive::Triangles,
            Primitive::TriangleStrip,
            Primitive::TriangleFan,
            Primitive::Quads,
            Primitive::Quads2,
            Primitive::Lines,
            Primitive::LineStrip,
            Primitive::Points,
        ];
        for kind in kinds {
            for count in 0..14 {
                let n = kind.triangle_count(count);
                let mut out = [[0u32; 3]; 14];
                write_triangles(kind, &mut out[..n], 7);
                for (t, &written) in out[..n].iter().enumerate() {
                    let [a, b, c] = kind.triangle(t);
                    let expected = [a, c, b].map(|v| 7 + v as u32);
                    assert_eq!(written, expected, "{kind:?} of {count}, triangle {t}");
                }
            }
        }
    }
}
