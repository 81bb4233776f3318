//! Short primitives gathered into full blocks. The corpus's strips hold
//! about seven vertices on average, and a block's fixed cost (each
//! attribute's loop chosen, its output range checked) was paid once per
//! primitive: the vertices of consecutive primitives of a shape are copied
//! side by side until a block is full, so that a block holds [`BLOCK`]
//! vertices whatever the primitives' lengths. A primitive's whole blocks
//! are filled in place, without the copy.

use super::arena_mismatch;
use super::blocks::{BLOCK, Block, Pieces};
use super::vertices::Filler;
use super::walk::{PrimitiveVertices, ShapeSink, Slots, VertexFault, VertexLayout, VertexRefs};
use crate::error::Error;
use crate::gx::display_list::Primitive;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

/// Bytes of the largest display-list vertex batched: a descriptor holds at
/// most 24 attributes of at most two bytes each. A larger vertex (none can
/// be) would be filled one primitive at a time.
const MAX_VERTEX_BYTES: usize = 48;

/// Vertices waiting for a full block: their bytes side by side, each one's
/// draw matrix (found under its own packet's slots), and where in the file
/// each primitive's piece of them came from.
///
/// 8 204 bytes: the fill takes it from the plan's arena scratch
/// ([`super::plan`]), not the stack, so the decode fits a small stack.
#[derive(Clone, Debug, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub(super) struct Pending {
    bytes: [u8; BLOCK * MAX_VERTEX_BYTES],
    draws: [u32; BLOCK],
    pieces: Pieces,
    /// Vertices waiting (at most [`BLOCK`]).
    len: u32,
    /// Bytes of each (the shape's vertex size, at most
    /// [`MAX_VERTEX_BYTES`]).
    size: u32,
}

impl Pending {
    /// Nothing waiting, whatever the scratch held: only the first `len`
    /// vertices' bytes, draws and pieces are ever read.
    pub(super) fn reset(&mut self) {
        self.len = 0;
        self.size = 1;
        self.pieces.clear();
    }

    fn len(&self) -> usize {
        self.len as usize
    }

    fn set_len(&mut self, len: usize) {
        self.len = u32::try_from(len).unwrap_or(u32::MAX);
    }

    fn size(&self) -> usize {
        self.size as usize
    }

    fn set_size(&mut self, size: usize) {
        self.size = u32::try_from(size).unwrap_or(u32::MAX);
    }
}

/// The fill pass's sink for one shape: [`Filler`] fed full blocks.
pub(super) struct Batch<'p, 'f, 'm, 'a> {
    pub(super) filler: &'p mut Filler<'f, 'm, 'a>,
    pub(super) pending: &'p mut Pending,
}

impl Batch<'_, '_, '_, '_> {
    /// Copies `bytes` (whole vertices of `size` bytes, the first at file
    /// offset `at`, no more than the block has room for) into the waiting
    /// block, each with its draw matrix under `slots`.
    fn stage(
        &mut self,
        layout: &VertexLayout,
        slots: &Slots,
        bytes: &[u8],
        size: usize,
        at: usize,
    ) -> Result<(), Error> {
        let Self { filler, pending } = self;
        if pending.len() == 0 {
            pending.set_size(size);
            pending.pieces.clear();
        }
        let added = bytes.len().checked_div(size).unwrap_or_default();
        if added.checked_mul(size) != Some(bytes.len()) {
            return Err(arena_mismatch());
        }
        if added == 0 {
            return Ok(());
        }
        let waiting = pending.len();
        pending
            .bytes
            .get_mut(waiting.saturating_mul(size)..)
            .and_then(|rest| rest.get_mut(..bytes.len()))
            .ok_or_else(arena_mismatch)?
            .copy_from_slice(bytes);
        let draws = pending
            .draws
            .get_mut(waiting..)
            .and_then(|rest| rest.get_mut(..added))
            .ok_or_else(arena_mismatch)?;
        filler.draws_into(layout, slots, Block::in_place(bytes, size, at), draws)?;
        pending.pieces.push(pending.len(), at);
        pending.set_len(pending.len().saturating_add(added));
        Ok(())
    }

    /// Fills the waiting vertices, if any.
    fn flush(&mut self) -> Result<(), Error> {
        let Self { filler, pending } = self;
        if pending.len() == 0 {
            return Ok(());
        }
        let bytes = pending
            .bytes
            .get(..pending.len().saturating_mul(pending.size()))
            .ok_or_else(arena_mismatch)?;
        filler.block(
            Block::gathered(bytes, pending.size(), &pending.pieces),
            &pending.draws,
        )?;
        pending.set_len(0);
        Ok(())
    }
}

impl ShapeSink for Batch<'_, '_, '_, '_> {
    const WHOLE: bool = true;

    fn reads_indices(&self) -> bool {
        false
    }

    fn shape(&mut self, layout: &VertexLayout) {
        self.filler.shape(layout);
        self.pending.set_len(0);
    }

    fn vertex(&mut self, _v: &VertexRefs) -> Result<(), Error> {
        // A whole-primitive sink is handed primitives, not vertices.
        Err(arena_mismatch())
    }

    fn vertices(
        &mut self,
        layout: &VertexLayout,
        slots: &Slots,
        p: PrimitiveVertices<'_>,
    ) -> Result<(), Error> {
        if p.count == 0 {
            return Ok(());
        }
        if let Some(attribute) = layout.direct {
            return Err(self
                .filler
                .model
                .vertex_error(p.at, VertexFault::Direct(attribute)));
        }
        let size = p.size.max(1);
        let mut rest = p
            .count
            .checked_mul(size)
            .and_then(|n| p.bytes.get(..n))
            .ok_or_else(arena_mismatch)?;
        let mut at = p.at;
        let batched = size <= MAX_VERTEX_BYTES;
        // Waiting vertices go first, whatever this primitive's size.
        if self.pending.len() > 0 && (!batched || self.pending.size() != size) {
            self.flush()?;
        }
        if self.pending.len() > 0 {
            let room = BLOCK
                .saturating_sub(self.pending.len())
                .saturating_mul(size);
            let (now, later) = rest.split_at(room.min(rest.len()));
            self.stage(layout, slots, now, size, at)?;
            (rest, at) = (later, at.saturating_add(now.len()));
            if self.pending.len() == BLOCK {
                self.flush()?;
            }
        }
        // Whole blocks in place; what is left waits for the next primitive
        // (or, when a vertex is too large to wait, is a short block).
        let mut blocks = rest.chunks_exact(BLOCK.saturating_mul(size));
        for bytes in &mut blocks {
            let block = Block::in_place(bytes, size, at);
            let draws = self.filler.draws(layout, slots, block)?;
            self.filler.block(block, &draws)?;
            at = at.saturating_add(bytes.len());
        }
        let tail = blocks.remainder();
        if tail.is_empty() {
            Ok(())
        } else if batched {
            self.stage(layout, slots, tail, size, at)
        } else {
            let block = Block::in_place(tail, size, at);
            let draws = self.filler.draws(layout, slots, block)?;
            self.filler.block(block, &draws)
        }
    }

    fn primitive(&mut self, kind: Primitive, count: usize) -> Result<(), Error> {
        let end = self.filler.vertex.saturating_add(self.pending.len());
        self.filler.primitive(kind, count, end)
    }

    fn skipped(&mut self, kind: Primitive, offset: usize) {
        self.filler.skipped(kind, offset);
    }

    fn end_shape(&mut self) -> Result<(), Error> {
        self.flush()
    }
}
