//! The display-list walk both passes share: each packet's matrix slots, and
//! each vertex's array indices read from its known offsets, checked against
//! their arrays, and resolved to its draw matrix.

use super::{Model, color_sets, uv_sets};
use crate::error::{Error, ErrorCode, SectionId};
use crate::gx::display_list::{DisplayList, DisplayListError, Primitive};
use crate::gx::vertex::{AttributeInput, VertexAttribute};
use crate::j3d::shp1::{Packet, Shape, VertexDescriptor};
use crate::scene::{MAX_COLOR_SETS, MAX_UV_SETS};

/// Matrix slots a shape has (PNMTXIDX / 3 is 0..=9).
pub(super) const SLOTS: usize = 10;

/// A packet's matrix slots: the DRW1 index each names, if set.
pub(super) type Slots = [Option<u16>; SLOTS];

/// The vertices of one triangle primitive, as the display list holds them.
#[derive(Clone, Copy, Debug)]
pub(super) struct PrimitiveVertices<'l> {
    /// `count` vertices of `size` bytes each (at least `count × size` bytes).
    pub(super) bytes: &'l [u8],
    pub(super) count: usize,
    /// At least 1 when `count` is not 0.
    pub(super) size: usize,
    /// The first vertex's file offset.
    pub(super) at: usize,
}

impl VertexLayout {
    /// The draw matrix (DRW1 index) of `vertex` under `slots`: its
    /// PNMTXIDX / 3, else slot 0.
    #[inline(always)]
    pub(super) fn draw(&self, vertex: &[u8], slots: &Slots) -> Result<u32, VertexFault> {
        let slot = self.matrix.map_or(0, |at| {
            usize::from(vertex.get(at).copied().unwrap_or(0)) / 3
        });
        slots
            .get(slot)
            .copied()
            .flatten()
            .map(u32::from)
            .ok_or(VertexFault::NoSlot(slot))
    }
}

/// Array indices one display-list vertex names, resolved to its draw matrix.
/// Every field is a whole four-byte word, written and read whole: built in
/// memory field by field and then read in wider pieces, the struct stalled
/// every vertex on store forwarding.
#[derive(Clone, Copy, Debug)]
pub(super) struct VertexRefs {
    pub(super) draw: u32,
    pub(super) position: ArrayIndex,
    /// The normal's index; `normal_array` says which array (NRM, or NBT).
    pub(super) normal: ArrayIndex,
    pub(super) normal_array: VertexAttribute,
    pub(super) colors: [ArrayIndex; MAX_COLOR_SETS],
    pub(super) uvs: [ArrayIndex; MAX_UV_SETS],
}

impl Default for VertexRefs {
    fn default() -> Self {
        Self {
            draw: 0,
            position: ArrayIndex::NONE,
            normal: ArrayIndex::NONE,
            normal_array: VertexAttribute::Normal,
            colors: [ArrayIndex::NONE; MAX_COLOR_SETS],
            uvs: [ArrayIndex::NONE; MAX_UV_SETS],
        }
    }
}

/// A display-list index into a VTX1 array (8 or 16 bits wide), or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ArrayIndex(u32);

impl ArrayIndex {
    /// The attribute is absent from the vertex.
    const NONE: Self = Self(u32::MAX);

    pub(super) fn get(self) -> Option<usize> {
        (self != Self::NONE).then_some(self.0 as usize)
    }
}

/// Why a display-list vertex cannot be read; made into an [`Error`] (with the
/// vertex's file offset) only when it happens, so that the per-vertex result
/// stays small.
#[derive(Clone, Copy, Debug)]
pub(super) enum VertexFault {
    /// Direct (not indexed) attribute data.
    Direct(VertexAttribute),
    /// An index past the end of its VTX1 array.
    OutOfRange {
        attribute: VertexAttribute,
        index: u16,
        limit: usize,
    },
    /// A matrix slot that no packet set.
    NoSlot(usize),
}

/// An indexed attribute of a shape's vertices, resolved for reading.
#[derive(Clone, Copy, Debug)]
pub(super) struct IndexField {
    pub(super) attribute: VertexAttribute,
    /// Byte offset of the index in a display-list vertex.
    pub(super) offset: usize,
    /// A 16-bit index (else 8-bit).
    pub(super) wide: bool,
    /// Elements the attribute's array holds (0 without one).
    pub(super) limit: usize,
}

/// Where each attribute sits in a shape's display-list vertices, resolved
/// once per shape, so that a vertex is read field by known field rather
/// than by a loop over the descriptor.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct VertexLayout {
    /// Byte offset of the position/normal matrix index (a direct u8).
    pub(super) matrix: Option<usize>,
    /// An attribute other than a matrix index sent directly: not supported.
    pub(super) direct: Option<VertexAttribute>,
    pub(super) position: Option<IndexField>,
    pub(super) normal: Option<IndexField>,
    pub(super) colors: [Option<IndexField>; MAX_COLOR_SETS],
    pub(super) uvs: [Option<IndexField>; MAX_UV_SETS],
    /// Colour sets present ([`color_sets`]).
    color_sets: usize,
    /// UV sets present ([`uv_sets`]).
    uv_sets: usize,
}

impl IndexField {
    /// This field's index in `vertex`, checked against its array.
    #[inline(always)]
    pub(super) fn read(field: Option<Self>, vertex: &[u8]) -> Result<ArrayIndex, VertexFault> {
        let Some(f) = field else {
            return Ok(ArrayIndex::NONE);
        };
        let index = if f.wide {
            #[allow(
                clippy::arithmetic_side_effects,
                reason = "an attribute's offset in a vertex of at most 48 bytes"
            )]
            let end = f.offset + 2;
            vertex
                .get(f.offset..end)
                .and_then(|b| b.try_into().ok().map(u16::from_be_bytes))
        } else {
            vertex.get(f.offset).map(|&b| u16::from(b))
        };
        let Some(index) = index else {
            return Ok(ArrayIndex::NONE);
        };
        if usize::from(index) >= f.limit {
            return Err(VertexFault::OutOfRange {
                attribute: f.attribute,
                index,
                limit: f.limit,
            });
        }
        Ok(ArrayIndex(index.into()))
    }
}

/// The file offset of the first vertex of the draw at `offset` in `packet`'s
/// display list (after its opcode and u16 count).
#[inline(always)]
#[allow(
    clippy::arithmetic_side_effects,
    reason = "the draw's vertices lie in the display list, inside the file: the sum is below its length"
)]
fn first_vertex_at(packet: &Packet<'_>, offset: usize) -> usize {
    packet.display_list_offset + offset + 3
}

/// Receives the vertices and primitives of one shape, in display-list order.
pub(super) trait ShapeSink {
    /// Whether the walk reads and checks every attribute index of a vertex
    /// (else only its draw matrix, [`VertexRefs::draw`]).
    fn reads_indices(&self) -> bool {
        true
    }
    /// A shape starts; its vertices are read as `layout` says.
    fn shape(&mut self, _layout: &VertexLayout) {}
    /// Whether the sink takes each triangle primitive's vertices whole
    /// ([`ShapeSink::vertices`]) instead of one by one ([`ShapeSink::vertex`]).
    const WHOLE: bool = false;
    /// One vertex of a primitive that makes triangles.
    fn vertex(&mut self, v: &VertexRefs) -> Result<(), Error>;
    /// For a sink that reads no index: `count` vertices of a triangle
    /// primitive that all take draw matrix `draw` (the shape has no matrix
    /// index, so every vertex takes slot 0). True when the sink took them
    /// whole; else each is passed to [`ShapeSink::vertex`].
    fn uniform(&mut self, _draw: u32, _count: usize) -> Result<bool, Error> {
        Ok(false)
    }
    /// For a sink that reads no index: `count` vertices of `size` bytes in
    /// `bytes`, each taking the draw matrix of slot `PNMTXIDX / 3` (the
    /// byte at `at`) under `slots`. True when the sink took them whole; else
    /// each is passed to [`ShapeSink::vertex`] (which meets any fault).
    fn matrix_indexed(
        &mut self,
        _slots: &Slots,
        _bytes: &[u8],
        _size: usize,
        _at: usize,
        _count: usize,
    ) -> Result<bool, Error> {
        Ok(false)
    }
    /// The vertices of a triangle primitive, for a [`ShapeSink::WHOLE`] sink:
    /// read them as `layout` says, under the packet's matrix `slots`.
    fn vertices(
        &mut self,
        _layout: &VertexLayout,
        _slots: &Slots,
        _vertices: PrimitiveVertices<'_>,
    ) -> Result<(), Error> {
        Ok(())
    }
    /// A primitive whose `count` vertices were just passed.
    fn primitive(&mut self, kind: Primitive, count: usize) -> Result<(), Error>;
    /// A primitive that makes no triangles (lines, points), at a file offset.
    fn skipped(&mut self, kind: Primitive, offset: usize);
    /// The shape's last primitive has been passed.
    fn end_shape(&mut self) -> Result<(), Error> {
        Ok(())
    }
}

impl Model<'_> {
    /// Walks one shape's packets: updates the matrix slots, decodes every
    /// vertex's indices and checks them, and hands vertices and primitives to `sink`.
    pub(super) fn walk_shape<S: ShapeSink>(
        &self,
        shape: &Shape<'_>,
        desc: &VertexDescriptor,
        sink: &mut S,
    ) -> Result<(), Error> {
        let mut slots: [Option<u16>; SLOTS] = [None; SLOTS];
        let layout = self.layout(desc);
        sink.shape(&layout);
        // Filled in place for each vertex: returned by value, it was copied
        // out of its Result in wider pieces than it was written in.
        let mut refs = VertexRefs::default();
        let reads_indices = sink.reads_indices();
        for j in 0..shape.packet_count() {
            let packet = self.shp1.packet(shape, j)?;
            self.set_slots(&mut slots, &packet)?;
            for primitive in DisplayList::new(packet.display_list, desc.vertex_size) {
                let primitive = primitive.map_err(|e| self.display_list_error(&packet, e))?;
                if desc.vertex_size == 0 && primitive.vertex_count > 0 {
                    return Err(self.shp1_error(
                        packet.display_list_offset.saturating_add(primitive.offset),
                        format_args!("a draw of {} vertices, but the shape's vertex descriptor has no attributes", primitive.vertex_count),
                    ));
                }
                if !primitive.kind.is_triangles() {
                    sink.skipped(
                        primitive.kind,
                        packet.display_list_offset.saturating_add(primitive.offset),
                    );
                    continue;
                }
                // Without indices to read, a shape without a matrix index has
                // nothing to read per vertex: its vertices share slot 0.
                if !reads_indices
                    && layout.matrix.is_none()
                    && layout.direct.is_none()
                    && let Some(draw) = slots.first().copied().flatten()
                    && sink.uniform(u32::from(draw), primitive.vertex_count)?
                {
                    sink.primitive(primitive.kind, primitive.vertex_count)?;
                    continue;
                }
                // Without indices, a shape with a matrix index reads only
                // that byte of each vertex.
                if !reads_indices
                    && layout.direct.is_none()
                    && let Some(at) = layout.matrix
                    && sink.matrix_indexed(
                        &slots,
                        primitive.vertices,
                        desc.vertex_size,
                        at,
                        primitive.vertex_count,
                    )?
                {
                    sink.primitive(primitive.kind, primitive.vertex_count)?;
                    continue;
                }
                if S::WHOLE {
                    let vertices = PrimitiveVertices {
                        bytes: primitive.vertices,
                        count: primitive.vertex_count,
                        size: desc.vertex_size,
                        at: first_vertex_at(&packet, primitive.offset),
                    };
                    sink.vertices(&layout, &slots, vertices)?;
                    sink.primitive(primitive.kind, primitive.vertex_count)?;
                    continue;
                }
                for (i, vertex) in primitive
                    .vertices
                    .chunks_exact(desc.vertex_size.max(1))
                    .take(primitive.vertex_count)
                    .enumerate()
                {
                    Self::vertex_refs(&layout, vertex, &slots, &mut refs, reads_indices).map_err(
                        |fault| {
                            let at = first_vertex_at(&packet, primitive.offset)
                                .saturating_add(i.saturating_mul(desc.vertex_size));
                            self.vertex_error(at, fault)
                        },
                    )?;
                    sink.vertex(&refs)?;
                }
                sink.primitive(primitive.kind, primitive.vertex_count)?;
            }
        }
        sink.end_shape()
    }

    fn set_slots(
        &self,
        slots: &mut [Option<u16>; SLOTS],
        packet: &Packet<'_>,
    ) -> Result<(), Error> {
        for (k, value) in packet.slots() {
            let Some(d) = value else { continue };
            let slot = slots.get_mut(k).ok_or_else(|| {
                self.shp1_error(
                    packet.display_list_offset,
                    format_args!(
                        "matrix table of {} slots: at most {SLOTS}",
                        packet.matrix_table.len() / 2
                    ),
                )
            })?;
            if usize::from(d) >= self.drw1.len() {
                return Err(Error::binary(
                    ErrorCode::BadOffset,
                    packet.display_list_offset as u64,
                    Some(SectionId(*b"SHP1")),
                    format_args!(
                        "matrix slot {k} names draw matrix {d} of {}",
                        self.drw1.len()
                    ),
                ));
            }
            *slot = Some(d);
        }
        Ok(())
    }

    fn display_list_error(&self, packet: &Packet<'_>, e: DisplayListError) -> Error {
        let (offset, code, what) = match e {
            DisplayListError::UnknownOpcode { offset, opcode } => {
                (offset, ErrorCode::BadValue, opcode)
            }
            DisplayListError::Truncated { offset } => (offset, ErrorCode::Truncated, 0),
        };
        let at = packet.display_list_offset.saturating_add(offset);
        match code {
            ErrorCode::BadValue => Error::binary(
                code,
                at as u64,
                Some(SectionId(*b"SHP1")),
                format_args!(
                    "display-list opcode {what:#04x}: a draw, a matrix load or padding expected"
                ),
            ),
            _ => Error::binary(
                code,
                at as u64,
                Some(SectionId(*b"SHP1")),
                format_args!("display-list command runs past the end of its packet"),
            ),
        }
    }

    /// How each attribute of `desc` is read from a display-list vertex,
    /// resolved once per shape: its byte offset, width and array bound.
    fn layout(&self, desc: &VertexDescriptor) -> VertexLayout {
        let mut layout = VertexLayout::default();
        for &(attribute, input, offset) in &desc.attributes {
            let wide = match input {
                AttributeInput::Index8 => false,
                AttributeInput::Index16 => true,
                AttributeInput::Direct => {
                    match attribute {
                        VertexAttribute::PositionMatrixIndex => layout.matrix = Some(offset),
                        VertexAttribute::TexMatrixIndex(_) => {}
                        _ => {
                            layout.direct.get_or_insert(attribute);
                        }
                    }
                    continue;
                }
                AttributeInput::None => continue,
            };
            let field = Some(IndexField {
                attribute,
                offset,
                wide,
                limit: self.vtx1.array(attribute).map_or(0, |a| a.count()),
            });
            match attribute {
                // Matrix indices are direct u8 in any descriptor.
                VertexAttribute::PositionMatrixIndex => layout.matrix = Some(offset),
                VertexAttribute::TexMatrixIndex(_) => {}
                VertexAttribute::Position => layout.position = field,
                VertexAttribute::Normal | VertexAttribute::NormalBinormalTangent => {
                    layout.normal = field;
                }
                VertexAttribute::Color(c) => {
                    if let Some(slot) = layout.colors.get_mut(usize::from(c)) {
                        *slot = field;
                    }
                }
                VertexAttribute::TexCoord(t) => {
                    if let Some(slot) = layout.uvs.get_mut(usize::from(t)) {
                        *slot = field;
                    }
                }
            }
        }
        layout.color_sets = color_sets(desc);
        layout.uv_sets = uv_sets(desc);
        layout
    }

    /// Reads one display-list vertex's draw matrix into `refs` and, with
    /// `indices`, its attribute indices, each checked against its array
    /// (without, for [`CountPass::DrawOnly`], the others are left as they
    /// are).
    #[inline(always)]
    fn vertex_refs(
        layout: &VertexLayout,
        vertex: &[u8],
        slots: &[Option<u16>; SLOTS],
        refs: &mut VertexRefs,
        indices: bool,
    ) -> Result<(), VertexFault> {
        if let Some(attribute) = layout.direct {
            return Err(VertexFault::Direct(attribute));
        }
        if indices {
            refs.position = IndexField::read(layout.position, vertex)?;
            refs.normal = IndexField::read(layout.normal, vertex)?;
            refs.normal_array = layout
                .normal
                .map_or(VertexAttribute::Normal, |f| f.attribute);
            for (out, &field) in refs
                .colors
                .iter_mut()
                .zip(&layout.colors)
                .take(layout.color_sets)
            {
                *out = IndexField::read(field, vertex)?;
            }
            for (out, &field) in refs.uvs.iter_mut().zip(&layout.uvs).take(layout.uv_sets) {
                *out = IndexField::read(field, vertex)?;
            }
        }
        refs.draw = layout.draw(vertex, slots)?;
        Ok(())
    }

    /// The error for the display-list vertex at file offset `at`.
    #[cold]
    #[inline(never)]
    pub(super) fn vertex_error(&self, at: usize, fault: VertexFault) -> Error {
        match fault {
            VertexFault::Direct(attribute) => self.shp1_error(
                at,
                format_args!(
                    "direct {attribute} data in a display list is not supported; indexed expected"
                ),
            ),
            VertexFault::OutOfRange {
                attribute,
                index,
                limit,
            } => Error::binary(
                ErrorCode::BadOffset,
                at as u64,
                Some(SectionId(*b"SHP1")),
                format_args!("{attribute} index {index} but VTX1 holds {limit}"),
            ),
            VertexFault::NoSlot(slot) => self.shp1_error(
                at,
                format_args!("vertex uses matrix slot {slot}, which no packet set"),
            ),
        }
    }
}
