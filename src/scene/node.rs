//! Nodes: the transform hierarchy (Blockbench groups, J3D joints).

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

use super::TextRef;

/// A node of the hierarchy, as stored in the arena.
///
/// Local transform, applied to a point p of the node's space:
/// `p' = translation + pivot + R · (scale ⊙ (p − pivot))`, where
/// `R = Rz · Ry · Rx` (X applied first; right-handed; radians). A node's world
/// matrix is its parent's world matrix times its local matrix; roots have
/// parent −1. See docs/scene-format.md.
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct NodeRecord {
    /// The node's name.
    pub name: TextRef,
    /// Index of the parent node, or −1 for a root. Blockbench groups list
    /// parents first; J3D joints keep JNT1 order, so a parent may come later.
    pub parent: i32,
    /// [`NodeFlags`] bits.
    pub flags: u32,
    /// Translation in the parent's space, in model units.
    pub translation: [f32; 3],
    /// Euler angles in radians, applied X first, then Y, then Z.
    pub rotation: [f32; 3],
    /// Scale factors per axis (J3D; 1 for .bbmodel groups).
    pub scale: [f32; 3],
    /// Point that rotation and scale turn about, in the node's own space
    /// (Blockbench's group origin; 0 for J3D joints).
    pub pivot: [f32; 3],
}

/// Bits of [`NodeRecord::flags`].
pub struct NodeFlags;

impl NodeFlags {
    /// The node (and so everything under it) is shown.
    pub const VISIBLE: u32 = 1;
    /// J3D Maya segment-scale compensation: the parent's scale is not
    /// inherited by this node's children's translation (INF1 scaling rule).
    pub const SEGMENT_SCALE_COMPENSATE: u32 = 2;
}

impl NodeRecord {
    /// True when the node is flagged visible.
    pub const fn visible(&self) -> bool {
        self.flags & NodeFlags::VISIBLE != 0
    }
}
