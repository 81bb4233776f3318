//! From sections to a scene: the two passes over a J3D model.
//!
//! `Model::count` walks every shape's display lists once, checking every
//! index, slot and limit, and returns the scene's [`SceneCounts`] plus the
//! [`Summary`] `inspect` prints. `Model::fill` walks them again into arena
//! arrays carved from those counts. Both walks go through `walk_shape`, so
//! they see the same vertices in the same order.
//!
//! Bind pose (docs/j3d.md): a joint's world matrix is its parent's times its
//! local `T · R · S` (Maya segment-scale compensation undoing the parent's
//! scale where flagged); a draw matrix is a joint's world matrix (rigid) or
//! `Σ weight · jointWorld · inverseBind` over an EVP1 envelope (weighted);
//! each vertex takes the draw matrix of its slot (`PNMTXIDX / 3`, else slot
//! 0), slots being set packet by packet from SHP1's matrix table (0xFFFF
//! keeps the slot). Positions and normals are stored in that bind-pose model
//! space; every vertex is skinned to the joints its draw matrix names.

use super::drw1::{DrawMatrix, Drw1};
use super::evp1::Evp1;
use super::header::J3dFile;
use super::inf1::{HierarchyCounts, HierarchyEvent, Inf1, ScalingRule};
use super::jnt1::Jnt1;
use super::mat3::{AlphaTest, GxCullMode, Mat3, Material};
use super::read::SectionReader;
use super::shp1::{Packet, Shape, Shp1, VertexDescriptor};
use super::tex1::{Tex1, Texture};
use super::vtx1::{ARRAY_SLOTS, Vtx1};
use crate::arena::{Arena, Plan};
use crate::error::{Error, ErrorCode, Location, SectionId, Warning, WarningCode, Warnings};
use crate::gx::display_list::{DisplayList, DisplayListError, Primitive};
use crate::gx::texture;
use crate::gx::vertex::{AttributeInput, NumericReader, VertexAttribute};
use crate::limits::{J3dLimits, check};
use crate::scene::{
    Aabb, AlphaMode, Blending, CullMode, Format, GroupFlags, Influence, InfluenceSpan,
    MAX_COLOR_SETS, MAX_UV_SETS, Mat4, MaterialFlags, MaterialRecord, MeshFlags, MeshGroupRecord,
    MeshRecord, MipRecord, NodeFlags, NodeRecord, NormalMatrix, Scene, SceneArrays, SceneCounts,
    SkinRecord, TextRef, TextSource, TextureFlags, TextureRecord,
};

/// Matrix slots a shape has (PNMTXIDX / 3 is 0..=9).
const SLOTS: usize = 10;

/// What `inspect` reports of a J3D file beyond the scene (design.md's `j3d` block).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Section ids in file order.
    pub sections: heapless::Vec<SectionId, 10>,
    /// The INF1 scaling rule.
    pub scaling_rule: Option<ScalingRule>,
    /// Elements per VTX1 array slot (POS from INF1's vertex count, the others
    /// the whole elements their bytes hold).
    pub vertex_arrays: [usize; ARRAY_SLOTS],
    /// SHP1 shapes.
    pub shapes: usize,
    /// JNT1 joints.
    pub joints: usize,
    /// EVP1 envelopes.
    pub envelopes: usize,
    /// DRW1 draw matrices.
    pub draw_matrices: usize,
    /// Packets (matrix groups) of all shapes.
    pub packets: usize,
    /// Primitives by kind: triangles, strips, fans, quads (both quad opcodes),
    /// lines, line strips, points.
    pub primitives: PrimitiveCounts,
    /// Bounding box of every position a display list references, as stored
    /// (after the fixed-point shift), or `None` with no vertices.
    pub raw_position_bbox: Option<Aabb>,
}

/// Primitive counts by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrimitiveCounts {
    /// 0x90.
    pub triangles: usize,
    /// 0x98.
    pub triangle_strip: usize,
    /// 0xA0.
    pub triangle_fan: usize,
    /// 0x80 and 0x88.
    pub quads: usize,
    /// 0xA8.
    pub lines: usize,
    /// 0xB0.
    pub line_strip: usize,
    /// 0xB8.
    pub points: usize,
}

impl PrimitiveCounts {
    fn add(&mut self, kind: Primitive) {
        let n = match kind {
            Primitive::Triangles => &mut self.triangles,
            Primitive::TriangleStrip => &mut self.triangle_strip,
            Primitive::TriangleFan => &mut self.triangle_fan,
            Primitive::Quads | Primitive::Quads2 => &mut self.quads,
            Primitive::Lines => &mut self.lines,
            Primitive::LineStrip => &mut self.line_strip,
            Primitive::Points => &mut self.points,
        };
        *n += 1;
    }
}

/// The sections of a model, parsed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Model<'a> {
    pub(crate) file: J3dFile<'a>,
    inf1: Inf1<'a>,
    vtx1: Vtx1<'a>,
    evp1: Evp1<'a>,
    drw1: Drw1<'a>,
    jnt1: Jnt1<'a>,
    shp1: Shp1<'a>,
    mat3: Option<Mat3<'a>>,
    tex1: Option<Tex1<'a>>,
}

/// Array indices one display-list vertex names, resolved to its draw matrix.
/// Every field is a whole four-byte word, written and read whole: built in
/// memory field by field and then read in wider pieces, the struct stalled
/// every vertex on store forwarding.
#[derive(Clone, Copy, Debug)]
struct VertexRefs {
    draw: u32,
    position: ArrayIndex,
    /// The normal's index; `normal_array` says which array (NRM, or NBT).
    normal: ArrayIndex,
    normal_array: VertexAttribute,
    colors: [ArrayIndex; MAX_COLOR_SETS],
    uvs: [ArrayIndex; MAX_UV_SETS],
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
struct ArrayIndex(u32);

impl ArrayIndex {
    /// The attribute is absent from the vertex.
    const NONE: Self = Self(u32::MAX);

    fn get(self) -> Option<usize> {
        (self != Self::NONE).then_some(self.0 as usize)
    }
}

/// Why a display-list vertex cannot be read; made into an [`Error`] (with the
/// vertex's file offset) only when it happens, so that the per-vertex result
/// stays small.
#[derive(Clone, Copy, Debug)]
enum VertexFault {
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
struct IndexField {
    attribute: VertexAttribute,
    /// Byte offset of the index in a display-list vertex.
    offset: usize,
    /// A 16-bit index (else 8-bit).
    wide: bool,
    /// Elements the attribute's array holds (0 without one).
    limit: usize,
}

/// Where each attribute sits in a shape's display-list vertices, resolved
/// once per shape, so that a vertex is read field by known field rather
/// than by a loop over the descriptor.
#[derive(Clone, Copy, Debug, Default)]
struct VertexLayout {
    /// Byte offset of the position/normal matrix index (a direct u8).
    matrix: Option<usize>,
    /// An attribute other than a matrix index sent directly: not supported.
    direct: Option<VertexAttribute>,
    position: Option<IndexField>,
    normal: Option<IndexField>,
    colors: [Option<IndexField>; MAX_COLOR_SETS],
    uvs: [Option<IndexField>; MAX_UV_SETS],
    /// Colour sets present ([`color_sets`]).
    color_sets: usize,
    /// UV sets present ([`uv_sets`]).
    uv_sets: usize,
}

impl IndexField {
    /// This field's index in `vertex`, checked against its array.
    #[inline(always)]
    fn read(field: Option<Self>, vertex: &[u8]) -> Result<ArrayIndex, VertexFault> {
        let Some(f) = field else {
            return Ok(ArrayIndex::NONE);
        };
        let index = if f.wide {
            vertex
                .get(f.offset..f.offset + 2)
                .map(|b| u16::from_be_bytes([b[0], b[1]]))
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

/// Receives the vertices and primitives of one shape, in display-list order.
trait ShapeSink {
    /// Whether the walk reads and checks every attribute index of a vertex
    /// (else only its draw matrix, [`VertexRefs::draw`]).
    fn reads_indices(&self) -> bool {
        true
    }
    /// One vertex of a primitive that makes triangles.
    fn vertex(&mut self, v: &VertexRefs) -> Result<(), Error>;
    /// A primitive whose `count` vertices were just passed.
    fn primitive(&mut self, kind: Primitive, count: usize) -> Result<(), Error>;
    /// A primitive that makes no triangles (lines, points), at a file offset.
    fn skipped(&mut self, kind: Primitive, offset: usize);
}

impl<'a> Model<'a> {
    /// Parses the section headers a model needs (MAT3 is optional).
    pub(crate) fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        let file = J3dFile::parse(bytes)?;
        let section = |id: &[u8; 4]| {
            file.section(id).map(SectionReader::new).ok_or_else(|| {
                Error::binary(
                    ErrorCode::BadValue,
                    0,
                    None,
                    format_args!(
                        "no {} section: a model needs INF1 VTX1 EVP1 DRW1 JNT1 SHP1",
                        SectionId(*id).as_str()
                    ),
                )
            })
        };
        Ok(Self {
            file,
            inf1: Inf1::parse(section(b"INF1")?)?,
            vtx1: Vtx1::parse(section(b"VTX1")?)?,
            evp1: Evp1::parse(section(b"EVP1")?)?,
            drw1: Drw1::parse(section(b"DRW1")?)?,
            jnt1: Jnt1::parse(section(b"JNT1")?)?,
            shp1: Shp1::parse(section(b"SHP1")?)?,
            mat3: file
                .section(b"MAT3")
                .map(SectionReader::new)
                .map(Mat3::parse)
                .transpose()?,
            tex1: file
                .section(b"TEX1")
                .map(SectionReader::new)
                .map(Tex1::parse)
                .transpose()?,
        })
    }

    fn hierarchy_counts(&self) -> HierarchyCounts {
        HierarchyCounts {
            joints: self.jnt1.len(),
            materials: self.mat3.map_or(0, |m| m.len()),
            shapes: self.shp1.len(),
        }
    }

    fn shp1_error(&self, offset: usize, args: core::fmt::Arguments<'_>) -> Error {
        Error::binary(
            ErrorCode::BadValue,
            offset as u64,
            Some(SectionId(*b"SHP1")),
            args,
        )
    }

    /// Checks every count against `limits` and counts the scene; `pass` says
    /// what it reads of each vertex.
    pub(crate) fn count(
        &self,
        limits: &J3dLimits,
        pass: CountPass,
    ) -> Result<(SceneCounts, Summary), Error> {
        let at = |section: &[u8; 4]| Location::Binary {
            offset: self.file.section(section).map_or(0, |s| s.offset) as u64,
            section: Some(SectionId(*section)),
        };
        check(
            self.jnt1.len() as u64,
            limits.max_joints,
            ErrorCode::TooManyJoints,
            "joints",
            at(b"JNT1"),
        )?;
        check(
            self.shp1.len() as u64,
            limits.max_shapes,
            ErrorCode::TooManyShapes,
            "shapes",
            at(b"SHP1"),
        )?;
        let materials = self.mat3.map_or(0, |m| m.len());
        check(
            materials as u64,
            limits.max_materials,
            ErrorCode::TooManyMaterials,
            "materials",
            at(b"MAT3"),
        )?;
        let (textures, mips, pixels) = self.count_textures(limits)?;
        if let Some(mat3) = &self.mat3 {
            mat3.check(textures)?;
        }
        self.inf1
            .walk(self.hierarchy_counts(), limits.max_depth, |_| Ok(()))?;
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
        for (slot, array) in self.vtx1.arrays().iter().enumerate() {
            summary.vertex_arrays[slot] = match (slot, array) {
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
            summary.packets += shape.packet_count();
            check(
                summary.packets as u64,
                limits.max_packets,
                ErrorCode::TooManyPackets,
                "packets",
                at(b"SHP1"),
            )?;
            let mut dl_bytes = 0u64;
            for j in 0..shape.packet_count() {
                dl_bytes += self.shp1.packet(&shape, j)?.display_list.len() as u64;
            }
            check(
                dl_bytes,
                limits.max_display_list_bytes,
                ErrorCode::DisplayListTooLarge,
                "display-list bytes of one shape",
                at(b"SHP1"),
            )?;
            self.walk_shape(&shape, &desc, &mut counter)?;
            let shape_vertices = counter.vertices - before;
            counter.uvs += shape_vertices * counter.shape_uv_sets;
            counter.colors += shape_vertices * counter.shape_color_sets;
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
            indices: counter.triangles * 3,
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
            first += n;
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

    fn section_error(
        &self,
        id: &[u8; 4],
        code: ErrorCode,
        args: core::fmt::Arguments<'_>,
    ) -> Error {
        let offset = self.file.section(id).map_or(0, |s| s.offset);
        Error::binary(code, offset as u64, Some(SectionId(*id)), args)
    }

    /// Text-pool bytes for names that are not UTF-8 (stored lossily).
    fn pool_bytes(&self) -> Result<usize, Error> {
        let mut total = 0;
        for j in 0..self.jnt1.len() {
            total += lossy_len(self.jnt1.joint(j)?.name.0);
        }
        if let Some(mat3) = &self.mat3 {
            for m in 0..mat3.len() {
                total += lossy_len(mat3.material(m)?.name()?.0);
            }
        }
        if let Some(tex1) = &self.tex1 {
            for t in 0..tex1.len() {
                total += lossy_len(tex1.texture(t)?.name.0);
            }
        }
        Ok(total)
    }

    /// Walks one shape's packets: updates the matrix slots, decodes every
    /// vertex's indices and checks them, and hands vertices and primitives to `sink`.
    fn walk_shape<S: ShapeSink>(
        &self,
        shape: &Shape<'_>,
        desc: &VertexDescriptor,
        sink: &mut S,
    ) -> Result<(), Error> {
        let mut slots: [Option<u16>; SLOTS] = [None; SLOTS];
        let layout = self.layout(desc);
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
                        packet.display_list_offset + primitive.offset,
                        format_args!("a draw of {} vertices, but the shape's vertex descriptor has no attributes", primitive.vertex_count),
                    ));
                }
                if !primitive.kind.is_triangles() {
                    sink.skipped(
                        primitive.kind,
                        packet.display_list_offset + primitive.offset,
                    );
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
                            let at = packet.display_list_offset
                                + primitive.offset
                                + 3
                                + i * desc.vertex_size;
                            self.vertex_error(at, fault)
                        },
                    )?;
                    sink.vertex(&refs)?;
                }
                sink.primitive(primitive.kind, primitive.vertex_count)?;
            }
        }
        Ok(())
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
        let at = packet.display_list_offset + offset;
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
        let slot = layout.matrix.map_or(0, |at| {
            usize::from(vertex.get(at).copied().unwrap_or(0)) / 3
        });
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
        refs.draw = slots
            .get(slot)
            .copied()
            .flatten()
            .ok_or(VertexFault::NoSlot(slot))?
            .into();
        Ok(())
    }

    /// The error for the display-list vertex at file offset `at`.
    #[cold]
    #[inline(never)]
    fn vertex_error(&self, at: usize, fault: VertexFault) -> Error {
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

    /// Fills `arena` with the scene; `counts` and `scratch` come from [`Model::count`].
    pub(crate) fn fill(
        &self,
        counts: &SceneCounts,
        arena: &mut Arena<'a>,
        warnings: &mut Warnings,
        limits: &J3dLimits,
    ) -> Result<Scene<'a>, Error> {
        let arrays = SceneArrays::carve(counts, arena)?;
        let joints = self.jnt1.len();
        let worlds = arena.slice::<[f32; 16]>(joints)?;
        let draws = arena.slice::<[f32; 16]>(self.drw1.len())?;
        let envelope_firsts = arena.slice::<u32>(self.evp1.len())?;
        // Shape -> material + 1 (0: none), from INF1.
        let shape_materials = arena.slice::<u32>(self.shp1.len())?;
        let mut pool = Pool {
            bytes: &mut *arrays.text_pool,
            len: 0,
        };

        // Nodes: JNT1 in index order, parents from INF1; world matrices in
        // hierarchy order (parents first), then any joint INF1 never named.
        for (j, node) in arrays.nodes.iter_mut().enumerate() {
            let joint = self.jnt1.joint(j)?;
            let ssc = self.inf1.scaling_rule == ScalingRule::Maya && joint.segment_scale_compensate;
            *node = NodeRecord {
                name: pool.name(joint.name)?,
                parent: -1,
                flags: NodeFlags::VISIBLE
                    | if ssc {
                        NodeFlags::SEGMENT_SCALE_COMPENSATE
                    } else {
                        0
                    },
                translation: joint.translation,
                rotation: joint.rotation,
                scale: joint.scale,
                pivot: [0.0; 3],
            };
        }
        // Every joint starts as a root; the hierarchy walk (parents first)
        // replaces the world matrix of each joint it names.
        for (node, world) in arrays.nodes.iter().zip(worlds.iter_mut()) {
            *world = Mat4::local(node).0;
        }
        {
            let nodes = &mut *arrays.nodes;
            let worlds = &mut *worlds;
            let shape_materials = &mut *shape_materials;
            self.inf1
                .walk(self.hierarchy_counts(), limits.max_depth, |event| {
                    match event {
                        HierarchyEvent::Joint { joint, parent } => {
                            let j = usize::from(joint);
                            let parent_world = parent
                                .and_then(|p| worlds.get(usize::from(p)))
                                .map_or(Mat4::IDENTITY, |w| Mat4(*w));
                            let parent_node =
                                parent.and_then(|p| nodes.get(usize::from(p))).copied();
                            if let Some(node) = nodes.get_mut(j) {
                                node.parent = parent.map_or(-1, i32::from);
                                let local = Mat4::local_under(node, parent_node.as_ref());
                                if let Some(world) = worlds.get_mut(j) {
                                    *world = parent_world.mul(&local).0;
                                }
                            }
                        }
                        HierarchyEvent::Shape {
                            shape, material, ..
                        } => {
                            if let Some(slot) = shape_materials.get_mut(usize::from(shape)) {
                                *slot = material.map_or(0, |m| u32::from(m) + 1);
                            }
                        }
                    }
                    Ok(())
                })?;
        }

        // Draw matrices.
        let mut first = 0usize;
        for (e, slot) in envelope_firsts.iter_mut().enumerate() {
            *slot = u32::try_from(first).unwrap_or(u32::MAX);
            first += self.evp1.joint_count(e)?;
        }
        for (d, out) in draws.iter_mut().enumerate() {
            *out = match self.drw1.matrix(d)? {
                DrawMatrix::Joint(j) => worlds
                    .get(usize::from(j))
                    .copied()
                    .unwrap_or(Mat4::IDENTITY.0),
                DrawMatrix::Envelope(e) => {
                    let e = usize::from(e);
                    let first = envelope_firsts.get(e).map_or(0, |&f| f as usize);
                    let mut sum = [0.0f32; 16];
                    for k in 0..self.evp1.joint_count(e)? {
                        let (joint, weight) = self.evp1.influence(first, k)?;
                        let world = Mat4(
                            worlds
                                .get(usize::from(joint))
                                .copied()
                                .unwrap_or(Mat4::IDENTITY.0),
                        );
                        let m = world.mul(&self.evp1.inverse_bind(usize::from(joint))?);
                        for (s, v) in sum.iter_mut().zip(m.0) {
                            *s += weight * v;
                        }
                    }
                    // Affine by construction: the weights' sum times (0,0,0,1).
                    sum[15] = 1.0;
                    sum[3] = 0.0;
                    sum[7] = 0.0;
                    sum[11] = 0.0;
                    sum
                }
            };
        }

        // Skin: every joint, inverse binds from our own bind pose so that
        // skinning the stored positions at rest gives them back exactly.
        if let Some(skin) = arrays.skins.first_mut() {
            *skin = SkinRecord {
                first_joint: 0,
                joint_count: index32(joints)?,
            };
            for (j, (joint, inverse)) in arrays
                .skin_joints
                .iter_mut()
                .zip(arrays.inverse_binds.iter_mut())
                .enumerate()
            {
                *joint = index32(j)?;
                *inverse = worlds
                    .get(j)
                    .and_then(|w| Mat4(*w).inverse_affine())
                    .unwrap_or(Mat4::IDENTITY)
                    .0;
            }
        }

        // Materials (MAT3 order) and textures (TEX1 order).
        if let Some(mat3) = &self.mat3 {
            for (m, out) in arrays.materials.iter_mut().enumerate() {
                let material = mat3.material(m)?;
                *out = material_record(&material, pool.name(material.name()?)?)?;
            }
            let textures = self.tex1.map_or(0, |t| t.len());
            for (p, at) in mat3.check(textures)?.iter() {
                warnings.push(Warning::new(
                    WarningCode::UnsupportedValue,
                    Location::Binary {
                        offset: at as u64,
                        section: Some(SectionId(*b"MAT3")),
                    },
                    format_args!(
                        "{} indices reach past the end of their table (the next table's offset): read from the bytes there, as GX tools do",
                        p.name()
                    ),
                ));
            }
        }
        self.fill_textures(
            &mut *arrays.textures,
            &mut *arrays.mips,
            &mut *arrays.pixels,
            &mut pool,
            warnings,
        )?;

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
            cached: None,
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
            self.walk_shape(&shape, &desc, &mut filler)?;
            let shape_vertices = filler.vertex - first_vertex;
            filler.uv += filler.uv_sets * shape_vertices;
            filler.color += filler.color_sets * shape_vertices;
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
                index_count: index32(filler.index - first_index)?,
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
                vertex_count: index32(filler.vertex - first_vertex)?,
                first_index: index32(first_index)?,
                index_count: index32(filler.index - first_index)?,
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
        Ok(Scene::new(Format::J3d, self.file.bytes(), arrays))
    }
}

/// A count or index as the scene's u32; counts were checked against limits
/// that keep them far below 2^32, so failing means the arena does not match.
fn index32(n: usize) -> Result<u32, Error> {
    u32::try_from(n).map_err(|_| arena_mismatch())
}

/// A UV or colour set number (always below 8) as the attribute's u8.
fn small(set: usize) -> u8 {
    u8::try_from(set).unwrap_or(u8::MAX)
}

fn arena_mismatch() -> Error {
    Error::nowhere(
        ErrorCode::ArenaTooSmall,
        format_args!("the arena's layout does not match this input: measure it again"),
    )
}

/// UV sets a shape's vertices carry: up to the highest TEXn present.
fn uv_sets(desc: &VertexDescriptor) -> usize {
    (0..small(MAX_UV_SETS))
        .rev()
        .find(|&t| desc.get(VertexAttribute::TexCoord(t)).is_some())
        .map_or(0, |t| usize::from(t) + 1)
}

/// Colour sets a shape's vertices carry: up to the highest CLRn present.
fn color_sets(desc: &VertexDescriptor) -> usize {
    (0..small(MAX_COLOR_SETS))
        .rev()
        .find(|&c| desc.get(VertexAttribute::Color(c)).is_some())
        .map_or(0, |c| usize::from(c) + 1)
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
        self.vertices += 1;
        check(
            self.vertices as u64,
            self.limits.max_vertices,
            ErrorCode::TooManyVertices,
            "vertices",
            Location::Nowhere,
        )?;
        let influences = match self.last_draw {
            Some((draw, n)) if draw == v.draw => n,
            _ => {
                let n = self.model.influence_count(v.draw as usize)?;
                self.last_draw = Some((v.draw, n));
                n
            }
        };
        self.influences += influences;
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

    fn primitive(&mut self, kind: Primitive, count: usize) -> Result<(), Error> {
        self.primitives.add(kind);
        self.triangles += kind.triangle_count(count);
        check(
            self.triangles as u64,
            self.limits.max_triangles,
            ErrorCode::TooManyTriangles,
            "triangles",
            Location::Nowhere,
        )
    }

    fn skipped(&mut self, kind: Primitive, _offset: usize) {
        self.primitives.add(kind);
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

/// Writes vertices, triangles and influences into the scene's arrays.
struct Filler<'f, 'm, 'a> {
    model: &'m Model<'a>,
    draws: &'f [[f32; 16]],
    envelope_firsts: &'f [u32],
    positions: &'f mut [[f32; 3]],
    normals: &'f mut [[f32; 3]],
    uvs: &'f mut [[f32; 2]],
    colors: &'f mut [[u8; 4]],
    indices: &'f mut [u32],
    spans: &'f mut [InfluenceSpan],
    influences: &'f mut [Influence],
    warnings: &'f mut Warnings,
    vertex: usize,
    index: usize,
    influence: usize,
    uv: usize,
    color: usize,
    mesh_first_vertex: usize,
    uv_sets: usize,
    color_sets: usize,
    /// Vertices of the current shape written so far.
    mesh_vertices: usize,
    /// The last draw matrix used, with its normal matrix and (when the scene
    /// is skinned) what DRW1 says it is.
    cached: Option<(u32, Mat4, NormalMatrix, Option<DrawMatrix>)>,
    /// The numeric arrays, resolved for reading by index.
    readers: ArrayReaders<'a>,
}

/// VTX1's numeric arrays resolved for reading by index ([`NumericReader`]):
/// once per decode, not once per vertex.
#[derive(Clone, Copy, Debug, Default)]
struct ArrayReaders<'a> {
    position: Option<NumericReader<'a>>,
    normal: Option<NumericReader<'a>>,
    normal_binormal_tangent: Option<NumericReader<'a>>,
    uvs: [Option<NumericReader<'a>>; MAX_UV_SETS],
}

impl<'a> ArrayReaders<'a> {
    fn new(vtx1: &Vtx1<'a>) -> Self {
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
        let normal_array = match v.normal_array {
            VertexAttribute::NormalBinormalTangent => readers.normal_binormal_tangent,
            _ => readers.normal,
        };
        let normal = match v.normal.get().zip(normal_array) {
            Some((i, array)) => normal_matrix.apply(array.read(i)),
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

/// Writes names that are not UTF-8 into the text pool, lossily.
struct Pool<'p> {
    bytes: &'p mut [u8],
    len: usize,
}

impl Pool<'_> {
    /// A text span for name bytes at `file_offset`: the input itself when it
    /// is UTF-8, else a lossy copy (U+FFFD for bad bytes) in the pool.
    fn name(&mut self, (bytes, file_offset): (&[u8], usize)) -> Result<TextRef, Error> {
        if core::str::from_utf8(bytes).is_ok() {
            return TextRef::new(TextSource::Input, file_offset, bytes.len())
                .ok_or_else(arena_mismatch);
        }
        let start = self.len;
        for chunk in bytes.utf8_chunks() {
            for piece in [
                chunk.valid(),
                if chunk.invalid().is_empty() {
                    ""
                } else {
                    "\u{FFFD}"
                },
            ] {
                let end = self.len + piece.len();
                self.bytes
                    .get_mut(self.len..end)
                    .ok_or_else(arena_mismatch)?
                    .copy_from_slice(piece.as_bytes());
                self.len = end;
            }
        }
        TextRef::new(TextSource::Pool, start, self.len - start).ok_or_else(arena_mismatch)
    }
}

/// Pool bytes a name needs: 0 when it is UTF-8, else its lossy length.
fn lossy_len(bytes: &[u8]) -> usize {
    if core::str::from_utf8(bytes).is_ok() {
        return 0;
    }
    bytes
        .utf8_chunks()
        .map(|c| c.valid().len() + if c.invalid().is_empty() { 0 } else { 3 })
        .sum()
}

impl<'a> Model<'a> {
    /// Checks TEX1 against the limits (count, side, texels per texture,
    /// RGBA8 bytes of all decoded data) and every palette index, before
    /// anything is decoded; returns the scene's texture, mip and pixel-byte
    /// counts. Data shared by several headers is counted once.
    fn count_textures(&self, limits: &J3dLimits) -> Result<(usize, usize, usize), Error> {
        let Some(tex1) = &self.tex1 else {
            return Ok((0, 0, 0));
        };
        check(
            tex1.len() as u64,
            limits.max_textures,
            ErrorCode::TooManyTextures,
            "textures",
            tex1.location(0),
        )?;
        let (mut mips, mut bytes) = (0usize, 0u64);
        for i in 0..tex1.len() {
            let t = tex1.texture(i)?;
            let at = || tex1.location(t.header_offset);
            check(
                u64::from(t.width.max(t.height)),
                limits.max_texture_side,
                ErrorCode::TextureTooLarge,
                "texture side in texels",
                at(),
            )?;
            check(
                t.texels(),
                limits.max_texture_pixels,
                ErrorCode::TextureTooLarge,
                "texels of one texture's mip levels",
                at(),
            )?;
            let Some((_, data_at)) = t.data else {
                continue;
            };
            mips += usize::from(t.levels());
            if shared_with_earlier(tex1, &t)?.is_some() {
                continue;
            }
            bytes = bytes.saturating_add(t.decoded_bytes());
            check(
                bytes,
                limits.max_texture_bytes,
                ErrorCode::TextureTooLarge,
                "RGBA8 bytes of all decoded textures",
                at(),
            )?;
            // Mip records hold u32 byte offsets into the pixel array.
            check(
                bytes,
                u64::from(u32::MAX),
                ErrorCode::TextureTooLarge,
                "RGBA8 bytes of all decoded textures (u32 offsets)",
                at(),
            )?;
            t.check_palette_indices().map_err(|e| {
                tex1.error(
                    ErrorCode::BadTexture,
                    data_at,
                    format_args!("texture {i}: {e}"),
                )
            })?;
        }
        let pixels = usize::try_from(bytes).map_err(|_| {
            Error::nowhere(
                ErrorCode::TextureTooLarge,
                format_args!("{bytes} bytes of textures do not fit in memory"),
            )
        })?;
        Ok((tex1.len(), mips, pixels))
    }

    /// Writes every TEX1 texture: its record, its mip records, and (once per
    /// shared image) its decoded RGBA8 levels.
    fn fill_textures(
        &self,
        textures: &mut [TextureRecord],
        mips: &mut [MipRecord],
        pixels: &mut [u8],
        pool: &mut Pool<'_>,
        warnings: &mut Warnings,
    ) -> Result<(), Error> {
        let Some(tex1) = &self.tex1 else {
            return Ok(());
        };
        let (mut mip, mut cursor) = (0usize, 0usize);
        for i in 0..textures.len() {
            let t = tex1.texture(i)?;
            let mut record = TextureRecord {
                name: pool.name(t.name)?,
                width: t.width,
                height: t.height,
                flags: 0,
                source_format: u32::from(t.format.code()),
                first_mip: index32(mip)?,
                mip_count: 0,
                wrap_u: t.wrap_s.to_scene() as u8,
                wrap_v: t.wrap_t.to_scene() as u8,
                min_filter: t.min_filter.base() as u8,
                mag_filter: t.mag_filter.base() as u8,
                uv_width: t.width as f32,
                uv_height: t.height as f32,
                frame_count: 1,
                ..TextureRecord::default()
            };
            match t.data {
                None => {
                    record.flags = TextureFlags::MISSING;
                    warnings.push(Warning::new(
                        WarningCode::MissingTexture,
                        tex1.location(t.header_offset),
                        format_args!("texture {i} has no image data (data offset 0)"),
                    ));
                }
                Some((data, _)) => {
                    let levels = usize::from(t.levels());
                    if let Some(j) = shared_with_earlier(tex1, &t)? {
                        // Same pixels: point at the first texture's levels.
                        let first = textures.get(j).ok_or_else(arena_mismatch)?.first_mip as usize;
                        for k in 0..levels {
                            let level = *mips.get(first + k).ok_or_else(arena_mismatch)?;
                            *mips.get_mut(mip + k).ok_or_else(arena_mismatch)? = level;
                        }
                    } else {
                        let palette = t.palette.map(|p| (p.format, p.bytes));
                        for (k, level) in t.mip_levels().enumerate() {
                            let size = texture::decoded_size(level.width, level.height)
                                .ok_or_else(arena_mismatch)?;
                            let out = pixels
                                .get_mut(cursor..)
                                .and_then(|p| p.get_mut(..size))
                                .ok_or_else(arena_mismatch)?;
                            let encoded = data.get(level.offset..).unwrap_or_default();
                            texture::decode(
                                t.format,
                                level.width,
                                level.height,
                                encoded,
                                palette,
                                out,
                            )
                            .map_err(|e| {
                                tex1.error(
                                    ErrorCode::BadTexture,
                                    t.header_offset,
                                    format_args!("texture {i} level {k}: {e}"),
                                )
                            })?;
                            *mips.get_mut(mip + k).ok_or_else(arena_mismatch)? = MipRecord {
                                offset: index32(cursor)?,
                                width: level.width,
                                height: level.height,
                            };
                            cursor += size;
                        }
                    }
                    record.mip_count = index32(levels)?;
                    mip += levels;
                }
            }
            *textures.get_mut(i).ok_or_else(arena_mismatch)? = record;
        }
        if mip != mips.len() || cursor != pixels.len() {
            return Err(arena_mismatch());
        }
        Ok(())
    }
}

/// The first texture before `t` whose pixels are `t`'s (see
/// [`Texture::shares_data_with`]). Headers are compared only when their data
/// offsets match, so this stays cheap for up to `max_textures` headers.
fn shared_with_earlier(tex1: &Tex1<'_>, t: &Texture<'_>) -> Result<Option<usize>, Error> {
    let Some((_, at)) = t.data else {
        return Ok(None);
    };
    for j in 0..t.index {
        if tex1.data_offset(j)? == Some(at) && t.shares_data_with(&tex1.texture(j)?) {
            return Ok(Some(j));
        }
    }
    Ok(None)
}

/// A J3D material as the scene keeps it (docs/j3d.md, "Materials in the
/// scene"): slot 0's texture, cull mode, vertex colours when colour channel
/// 0 takes its material colour from the vertices, alpha from the alpha
/// compare and blend mode, and material colour 0 as the base colour. TEV
/// stages are not emulated.
fn material_record(m: &Material<'_>, name: TextRef) -> Result<MaterialRecord, Error> {
    let cull = match m.cull_mode()? {
        Some(GxCullMode::None) => CullMode::None,
        Some(GxCullMode::Front) => CullMode::Front,
        Some(GxCullMode::All) => CullMode::All,
        // GX's default when the material names none.
        Some(GxCullMode::Back) | None => CullMode::Back,
    };
    let channels_used = m.channel_count()?.is_none_or(|n| n > 0);
    let vertex_colors = channels_used && m.channel(0)?.is_some_and(|c| c.uses_vertex_color());
    let cutoff = match m.alpha_compare()?.map(|a| a.test()) {
        Some(AlphaTest::KeepsFrom(t)) => Some(f32::from(t) / 255.0),
        _ => None,
    };
    let blend = m.blend_mode()?;
    let additive = blend.is_some_and(|b| b.is_additive());
    let blended = additive || blend.is_some_and(|b| b.is_alpha_blend());
    let alpha_mode = match (blended, cutoff) {
        (true, _) => AlphaMode::Blend,
        (false, Some(_)) => AlphaMode::Mask,
        (false, None) => AlphaMode::Opaque,
    };
    Ok(MaterialRecord {
        name,
        texture: m.texture(0)?.map_or(-1, i32::from),
        flags: if vertex_colors {
            MaterialFlags::VERTEX_COLORS
        } else {
            0
        },
        alpha_mode: alpha_mode as u8,
        blending: if additive {
            Blending::Additive
        } else {
            Blending::Normal
        } as u8,
        cull: cull as u8,
        alpha_cutoff: cutoff.unwrap_or(0.0),
        base_color: m
            .material_color(0)?
            .map_or([1.0; 4], |c| c.map(|v| f32::from(v) / 255.0)),
        ..MaterialRecord::default()
    })
}

/// Plans a model: the scene's counts, then the scratch [`Model::fill`]
/// carves after the scene: joint world matrices, draw matrices, where each
/// envelope's influences start, and each shape's material.
pub(crate) fn plan(
    model: &Model<'_>,
    limits: &J3dLimits,
    pass: CountPass,
) -> Result<(Plan, Summary), Error> {
    let (counts, summary) = model.count(limits, pass)?;
    let plan = Plan::new(counts, |scratch| {
        scratch.add::<[f32; 16]>(model.jnt1.len())?;
        scratch.add::<[f32; 16]>(model.drw1.len())?;
        scratch.add::<u32>(model.evp1.len())?;
        scratch.add::<u32>(model.shp1.len())
    })?;
    Ok((plan, summary))
}
