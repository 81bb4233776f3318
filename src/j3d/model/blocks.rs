//! Block reading: a block's vertices (one primitive's, in place, or
//! several short ones' gathered side by side) and one attribute of all of
//! them read at a time through the vertex arrays' readers, with the
//! element format chosen once per lane.

use super::walk::{IndexField, VertexFault, VertexLayout};
use super::{Model, small};
use crate::error::Error;
use crate::gx::vertex::{
    ArrayFormat, ColorFormat, ElementVisitor, FixedVisitor, NumericReader, VertexAttribute,
};
use crate::j3d::vtx1::{VertexArray, Vtx1};
use crate::scene::{MAX_COLOR_SETS, MAX_UV_SETS};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

/// Vertices filled together, one attribute at a time. Each attribute's
/// loop costs something per block whatever its length (its element format
/// chosen, its output range checked, its draw-matrix runs found), so a
/// larger block spreads that thinner: 32 → 64 → 128 vertices took a pass
/// over the J3D corpus from 67.1 to 63.9 to 62.6 M instructions. A block's
/// buffers, about 13 KiB of stack at 128, stay within L1.
pub(super) const BLOCK: usize = 128;

/// Values `sets` per vertex take for `n` vertices of a block.
#[inline(always)]
#[allow(
    clippy::arithmetic_side_effects,
    reason = "n <= BLOCK (128) and sets <= 8 UV sets"
)]
pub(super) fn block_len(n: usize, sets: usize) -> usize {
    n * sets
}

/// VTX1's numeric arrays resolved for reading by index ([`NumericReader`]),
/// and its colour arrays: once per decode, not once per vertex.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ArrayReaders<'a> {
    position: Option<NumericReader<'a>>,
    normal: Option<NumericReader<'a>>,
    normal_binormal_tangent: Option<NumericReader<'a>>,
    uvs: [Option<NumericReader<'a>>; MAX_UV_SETS],
    colors: [Option<VertexArray<'a>>; MAX_COLOR_SETS],
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
            colors: core::array::from_fn(|c| vtx1.array(VertexAttribute::Color(small(c))).copied()),
        }
    }
}

/// A shape's attributes resolved for the fill, once per shape: each
/// attribute's index in the display-list vertex with the array it reads
/// (none: every index is out of range, the array's bound being 0).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Lanes<'a> {
    pub(super) position: Option<(IndexField, Option<NumericReader<'a>>)>,
    pub(super) normal: Option<(IndexField, Option<NumericReader<'a>>)>,
    pub(super) uvs: [Option<(IndexField, Option<NumericReader<'a>>)>; MAX_UV_SETS],
    pub(super) colors: [Option<(IndexField, Option<VertexArray<'a>>)>; MAX_COLOR_SETS],
}

impl<'a> Lanes<'a> {
    pub(super) fn new(layout: &VertexLayout, readers: &ArrayReaders<'a>) -> Self {
        let nbt = layout
            .normal
            .is_some_and(|f| f.attribute == VertexAttribute::NormalBinormalTangent);
        let normal_reader = if nbt {
            readers.normal_binormal_tangent
        } else {
            readers.normal
        };
        Self {
            position: layout.position.map(|f| (f, readers.position)),
            normal: layout.normal.map(|f| (f, normal_reader)),
            uvs: core::array::from_fn(|t| {
                let reader = readers.uvs.get(t).copied().flatten();
                layout.uvs.get(t).copied().flatten().map(|f| (f, reader))
            }),
            colors: core::array::from_fn(|c| {
                let array = readers.colors.get(c).copied().flatten();
                layout.colors.get(c).copied().flatten().map(|f| (f, array))
            }),
        }
    }
}

/// A block of vertices: `bytes` holds `size`-byte vertices, the first at
/// file offset `at` (one primitive's, in place), or pieces of several
/// primitives side by side, each from its own place in the file (`pieces`,
/// `batch.rs`).
#[derive(Clone, Copy)]
pub(super) struct Block<'l> {
    bytes: &'l [u8],
    size: usize,
    /// Whole vertices in `bytes`, divided out once.
    len: usize,
    at: usize,
    pieces: Option<&'l Pieces>,
}

/// Where a gathered block's vertices came from: piece `p` starts at the
/// block's vertex `firsts[p]`, read from file offset `ats[p]`, its vertices
/// one after another. Kept per piece, not per vertex: only an error asks.
/// Plain data, so that the fill keeps it in the arena's scratch.
#[derive(Clone, Debug, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub(super) struct Pieces {
    /// The block's vertex each piece starts at (below [`BLOCK`]).
    firsts: [u32; BLOCK],
    /// Its file offset, as a `u64`'s low and high halves: 4-byte aligned
    /// like the scratch before it, so the plan's padding does not change.
    ats: [[u32; 2]; BLOCK],
    len: u32,
}

impl Pieces {
    /// None yet.
    pub(super) fn clear(&mut self) {
        self.len = 0;
    }

    /// A piece starts at the block's vertex `first`, from file offset `at`.
    pub(super) fn push(&mut self, first: usize, at: usize) {
        let n = self.len as usize;
        if let (Some(f), Some(a)) = (self.firsts.get_mut(n), self.ats.get_mut(n)) {
            let at = at as u64;
            *f = u32::try_from(first).unwrap_or(u32::MAX);
            #[allow(clippy::cast_possible_truncation, reason = "the halves of a u64")]
            {
                *a = [at as u32, (at >> 32) as u32];
            }
            self.len = self.len.saturating_add(1);
        }
    }

    /// The file offset of the block's vertex `k`, its vertices `size` bytes.
    fn at(&self, k: usize, size: usize) -> usize {
        let firsts = self.firsts.get(..self.len as usize).unwrap_or_default();
        firsts
            .iter()
            .zip(&self.ats)
            .rfind(|&(&first, _)| first as usize <= k)
            .map_or(0, |(&first, &[lo, hi])| {
                let at =
                    usize::try_from(u64::from(lo) | (u64::from(hi) << 32)).unwrap_or(usize::MAX);
                at.saturating_add((k.saturating_sub(first as usize)).saturating_mul(size))
            })
    }
}

impl<'l> Block<'l> {
    /// Vertices in place in a display list, the first at file offset `at`;
    /// `size` is at least 1.
    pub(super) fn in_place(bytes: &'l [u8], size: usize, at: usize) -> Self {
        Self {
            bytes,
            size,
            len: vertex_count(bytes, size),
            at,
            pieces: None,
        }
    }

    /// Vertices copied side by side from the file's `pieces`.
    pub(super) fn gathered(bytes: &'l [u8], size: usize, pieces: &'l Pieces) -> Self {
        Self {
            bytes,
            size,
            len: vertex_count(bytes, size),
            at: 0,
            pieces: Some(pieces),
        }
    }

    /// Vertices in the block.
    pub(super) fn len(self) -> usize {
        self.len
    }

    pub(super) fn vertices(self) -> core::slice::ChunksExact<'l, u8> {
        self.bytes.chunks_exact(self.size)
    }

    /// The file offset of the block's `k`-th vertex (for errors).
    #[cold]
    pub(super) fn at(self, k: usize) -> usize {
        match self.pieces {
            Some(pieces) => pieces.at(k, self.size),
            None => self.at.saturating_add(k.saturating_mul(self.size)),
        }
    }
}

/// Whole `size`-byte vertices in `bytes`.
fn vertex_count(bytes: &[u8], size: usize) -> usize {
    bytes.len().checked_div(size).unwrap_or_default()
}

/// One attribute of a block's vertices: each vertex's index read and
/// checked, and its element read into `outs`. A
/// fault comes back with its vertex's place in the block, small: the
/// `Error` is built by the caller, only when there is one.
struct Lane<'l, I> {
    field: IndexField,
    block: Block<'l>,
    outs: I,
}

/// A fault of the block's `k`-th vertex.
type LaneFault = (usize, VertexFault);

impl<'o, const N: usize, I: Iterator<Item = &'o mut [f32; N]>> ElementVisitor<N> for Lane<'_, I> {
    type Output = Result<(), LaneFault>;

    #[inline(always)]
    fn run(self, read: impl Fn(usize) -> [f32; N]) -> Result<(), LaneFault> {
        let Self { field, block, outs } = self;
        for (k, (out, vertex)) in outs.zip(block.vertices()).enumerate() {
            let index = IndexField::read(Some(field), vertex).map_err(|fault| (k, fault))?;
            *out = index.get().map_or([0.0; N], &read);
        }
        Ok(())
    }
}

impl<'o, const N: usize, I: Iterator<Item = &'o mut [f32; N]>> FixedVisitor<N> for Lane<'_, I> {
    type Output = Result<(), LaneFault>;

    #[inline(always)]
    fn run_fixed<const S: usize>(
        self,
        elements: &[[u8; S]],
        read: impl Fn(&[u8; S]) -> [f32; N],
    ) -> Result<(), LaneFault> {
        let Self { field, block, outs } = self;
        gather_field(field, block, elements, read, outs, Convert::AfterCopy)
    }
}

/// [`gather`] for `field`'s index width, its fault made a [`LaneFault`].
#[inline(always)]
fn gather_field<'o, const S: usize, T: 'o>(
    field: IndexField,
    block: Block<'_>,
    elements: &[[u8; S]],
    read: impl Fn(&[u8; S]) -> T,
    outs: impl Iterator<Item = &'o mut T>,
    convert: Convert,
) -> Result<(), LaneFault> {
    let gathered = if field.wide {
        gather::<2, S, _>(field.offset, block, elements, read, outs, convert)
    } else {
        gather::<1, S, _>(field.offset, block, elements, read, outs, convert)
    };
    gathered.map_err(|k| lane_fault(field, block, k))
}

/// The fault of the block's `k`-th vertex, whose index [`gather`] found past
/// the array: the checked read says how.
#[cold]
fn lane_fault(field: IndexField, block: Block<'_>, k: usize) -> LaneFault {
    let vertex = block.vertices().nth(k).unwrap_or_default();
    let fault = IndexField::read(Some(field), vertex).err();
    (
        k,
        fault.unwrap_or(VertexFault::OutOfRange {
            attribute: field.attribute,
            index: 0,
            limit: field.limit,
        }),
    )
}

/// Whether `field`'s index lies inside every `size`-byte vertex and its
/// bound is `elements` arrays' elements: then [`gather`] reads it.
fn gathers(field: IndexField, size: usize, elements: usize) -> bool {
    let width = if field.wide { 2 } else { 1 };
    field
        .offset
        .checked_add(width)
        .is_some_and(|end| end <= size)
        && field.limit == elements
}

/// Reads a block's colours of one set from `array` through [`gather`], the
/// element size fixed by the array's format.
#[inline(always)]
pub(super) fn gather_colors<'o>(
    field: IndexField,
    block: Block<'_>,
    array: VertexArray<'_>,
    outs: impl Iterator<Item = &'o mut [u8; 4]>,
) -> Option<Result<(), LaneFault>> {
    let ArrayFormat::Color(format) = array.format else {
        return None;
    };
    let stride = array.format.stride();
    if !gathers(field, block.size, array.count()) {
        return None;
    }
    let data = array.data;
    let read = |e: &[u8]| array.format.read_color(e);
    Some(match (format, stride) {
        (ColorFormat::Rgba8, _) => colors_in_loop(field, block, data, |e| *e, outs),
        (_, 2) => colors_in_loop::<2>(field, block, data, |e| read(e), outs),
        (_, 3) => colors_in_loop::<3>(field, block, data, |e| read(e), outs),
        (_, 4) => colors_in_loop::<4>(field, block, data, |e| read(e), outs),
        _ => return None,
    })
}

/// [`gather_field`] over a colour array `data` of `S`-byte elements, each
/// converted as it is read (RGBA8 is a copy; the others expand in a few
/// integer operations, nothing a separate loop would vectorise).
#[inline(always)]
fn colors_in_loop<'o, const S: usize>(
    field: IndexField,
    block: Block<'_>,
    data: &[u8],
    read: impl Fn(&[u8; S]) -> [u8; 4],
    outs: impl Iterator<Item = &'o mut [u8; 4]>,
) -> Result<(), LaneFault> {
    gather_field(
        field,
        block,
        data.as_chunks().0,
        read,
        outs,
        Convert::InLoop,
    )
}

/// How [`gather`] converts the elements it reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Convert {
    /// Each element as it is read, in the loop that reads indices.
    InLoop,
    /// Elements of at most four bytes copied side by side first, then
    /// converted in a loop of their own: a two-component UV's conversion
    /// is then a few vector instructions for several vertices, where in
    /// the index loop it is scalar and its pair is packed through a
    /// general register. Larger elements (F32, three S16 components)
    /// convert as fast in the index loop and skip the copy.
    AfterCopy,
}

/// Reads the `W`-byte index at `offset` of each vertex of `block` and its
/// element, one of `elements`, into `outs`, converted by `read` as
/// `convert` says.
/// An index past the elements stops the loop: `Err` holds the vertex.
/// The caller has checked that the index lies inside every vertex and that
/// `elements` is the array's whole bound, so one check does for both.
#[inline(always)]
fn gather<'o, const W: usize, const S: usize, T: 'o>(
    offset: usize,
    block: Block<'_>,
    elements: &[[u8; S]],
    read: impl Fn(&[u8; S]) -> T,
    outs: impl Iterator<Item = &'o mut T>,
    convert: Convert,
) -> Result<(), usize> {
    let index = |vertex: &[u8]| {
        vertex
            .get(offset..)
            .and_then(<[u8]>::first_chunk::<W>)
            .map_or(0, |b| b.iter().fold(0u32, |i, &b| (i << 8) | u32::from(b)))
    };
    if convert == Convert::InLoop || S > 4 {
        for (k, (out, vertex)) in outs.zip(block.vertices()).enumerate() {
            let element = elements.get(index(vertex) as usize).ok_or(k)?;
            *out = read(element);
        }
        return Ok(());
    }
    let mut copied = [[0u8; S]; BLOCK];
    for (k, (copy, vertex)) in copied.iter_mut().zip(block.vertices()).enumerate() {
        *copy = *elements.get(index(vertex) as usize).ok_or(k)?;
    }
    let copied = copied.get(..block.len()).unwrap_or_default();
    for (out, element) in outs.zip(copied) {
        *out = read(element);
    }
    Ok(())
}

impl<'a> Model<'a> {
    /// Reads attribute `lane` of every vertex of `block` into `outs` (zeros
    /// without it).
    #[inline(always)]
    pub(super) fn read_lane<'o, const N: usize>(
        &self,
        lane: Option<(IndexField, Option<NumericReader<'a>>)>,
        block: Block<'_>,
        outs: impl Iterator<Item = &'o mut [f32; N]>,
    ) -> Result<(), Error> {
        let read = match lane {
            Some((field, Some(reader))) => {
                let lane = Lane { field, block, outs };
                // The fixed-size loop when every index lies inside the
                // vertex and the array's length is its bound.
                if gathers(field, block.size, reader.len()) {
                    reader.visit_fixed(lane)
                } else {
                    reader.visit(lane)
                }
            }
            Some((field, None)) => {
                // No array: any index is out of range.
                outs.for_each(|out| *out = [0.0; N]);
                block.vertices().enumerate().try_for_each(|(k, vertex)| {
                    IndexField::read(Some(field), vertex)
                        .map(drop)
                        .map_err(|fault| (k, fault))
                })
            }
            None => {
                outs.for_each(|out| *out = [0.0; N]);
                Ok(())
            }
        };
        read.map_err(|(k, fault)| self.vertex_error(block.at(k), fault))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// Both ways of converting in [`gather`] write the same values, and stop
    /// at the same vertex when an index is past the array, for 8- and 16-bit
    /// indices, element sizes on both sides of the copy's four-byte bound,
    /// and every block length.
    #[test]
    fn gather_converts_the_same_after_a_copy_as_in_the_loop() {
        fn check<const S: usize>(wide: bool, rng: &mut crate::test_rng::XorShift) {
            let width = if wide { 2 } else { 1 };
            // Three-byte vertices: a pad byte, the index, pad to three.
            let size = 3;
            let elements: [[u8; S]; 40] =
                core::array::from_fn(|_| core::array::from_fn(|_| rng.next() as u8));
            let read = |e: &[u8; S]| {
                e.iter()
                    .fold(0u64, |a, &b| a.wrapping_mul(31) ^ u64::from(b))
            };
            for n in 0..=BLOCK {
                let mut bytes = [0u8; BLOCK * 3];
                let bad = rng
                    .next()
                    .is_multiple_of(4)
                    .then(|| (rng.next() as usize) % n.max(1));
                for k in 0..n {
                    let i = if bad == Some(k) {
                        40 + (rng.next() % 200) as u16
                    } else {
                        (rng.next() % 40) as u16
                    };
                    let at = k * size + 1;
                    if wide {
                        bytes[at..at + 2].copy_from_slice(&i.to_be_bytes());
                    } else {
                        bytes[at] = i as u8;
                    }
                }
                let block = Block::in_place(&bytes[..n * size], size, 0);
                let (mut a, mut b) = ([0u64; BLOCK], [0u64; BLOCK]);
                let run = |convert, out: &mut [u64; BLOCK]| {
                    if wide {
                        gather::<2, S, _>(1, block, &elements, read, out.iter_mut(), convert)
                    } else {
                        gather::<1, S, _>(1, block, &elements, read, out.iter_mut(), convert)
                    }
                };
                let (ra, rb) = (
                    run(Convert::InLoop, &mut a),
                    run(Convert::AfterCopy, &mut b),
                );
                let bad = bad.filter(|_| n > 0);
                assert_eq!(ra, bad.map_or(Ok(()), Err), "S {S}, width {width}, n {n}");
                assert_eq!(ra, rb, "S {S}, width {width}, n {n}");
                if ra.is_ok() {
                    assert_eq!(a[..n], b[..n], "S {S}, width {width}, n {n}");
                    assert!(b[n..].iter().all(|&v| v == 0), "past the block: untouched");
                }
            }
        }
        let mut rng = crate::test_rng::XorShift(0x5EED_0FB1_0C00);
        for wide in [false, true] {
            check::<2>(wide, &mut rng);
            check::<4>(wide, &mut rng);
            check::<6>(wide, &mut rng);
            check::<12>(wide, &mut rng);
        }
    }

    /// A gathered block's vertex `k` is reported at its own file offset:
    /// its piece's start plus its place in the piece.
    #[test]
    fn a_gathered_vertex_is_found_in_its_piece() {
        let mut pieces = <Pieces as zerocopy::FromZeros>::new_zeroed();
        pieces.push(0, 1000);
        pieces.push(3, 5000);
        pieces.push(4, 200);
        let bytes = [0u8; 7 * 6];
        let block = Block::gathered(&bytes, 6, &pieces);
        let ats: Vec<usize> = (0..7).map(|k| block.at(k)).collect();
        assert_eq!(ats, [1000, 1006, 1012, 5000, 200, 206, 212]);
        // A block in place counts from its first vertex.
        let block = Block::in_place(&bytes, 6, 40);
        assert_eq!(block.at(3), 58);
        // Cleared, a block's pieces start again.
        pieces.clear();
        pieces.push(0, 9);
        assert_eq!(Block::gathered(&bytes, 6, &pieces).at(2), 21);
    }
}
