//! What `inspect` reports of a J3D file beyond its scene.

use crate::error::SectionId;
use crate::gx::display_list::Primitive;
use crate::j3d::inf1::ScalingRule;
use crate::j3d::vtx1::ARRAY_SLOTS;
use crate::scene::Aabb;

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
    pub(super) fn add(&mut self, kind: Primitive) {
        let n = match kind {
            Primitive::Triangles => &mut self.triangles,
            Primitive::TriangleStrip => &mut self.triangle_strip,
            Primitive::TriangleFan => &mut self.triangle_fan,
            Primitive::Quads | Primitive::Quads2 => &mut self.quads,
            Primitive::Lines => &mut self.lines,
            Primitive::LineStrip => &mut self.line_strip,
            Primitive::Points => &mut self.points,
        };
        *n = n.saturating_add(1);
    }
}
