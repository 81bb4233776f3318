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
    /// The node carries its parent group's main cube alone, so that the
    /// Hytale plugin's scale, which stretches that cube about its centre
    /// (`displayScale`), can play as this node's scale: a .bbmodel adds
    /// one, pivot at the cube's centre and otherwise at rest, for each
    /// group a Hytale scale channel keys. Such nodes come after every
    /// group's node, in their parents' order ([`shape_node`]).
    pub const SHAPE: u32 = 4;
}

/// The [`NodeFlags::SHAPE`] node of `group`, if it has one: shape nodes
/// are the scene's last nodes, sorted by parent, so a binary search over
/// them finds it.
pub fn shape_node(nodes: &[NodeRecord], group: usize) -> Option<usize> {
    let first = nodes.partition_point(|n| n.flags & NodeFlags::SHAPE == 0);
    let shapes = nodes.get(first..)?;
    let parent = i32::try_from(group).ok()?;
    let at = shapes.binary_search_by_key(&parent, |n| n.parent).ok()?;
    first.checked_add(at)
}

impl NodeRecord {
    /// True when the node is flagged visible.
    pub const fn visible(&self) -> bool {
        self.flags & NodeFlags::VISIBLE != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(parent: i32, flags: u32) -> NodeRecord {
        NodeRecord {
            parent,
            flags,
            ..NodeRecord::default()
        }
    }

    #[test]
    fn a_groups_shape_node_is_found_among_the_last_nodes_by_parent() {
        // Groups 0..3, then the shape nodes of groups 0 and 2.
        let nodes = [
            node(-1, NodeFlags::VISIBLE),
            node(0, NodeFlags::VISIBLE),
            node(0, NodeFlags::VISIBLE),
            node(0, NodeFlags::VISIBLE | NodeFlags::SHAPE),
            node(2, NodeFlags::VISIBLE | NodeFlags::SHAPE),
        ];
        assert_eq!(shape_node(&nodes, 0), Some(3));
        assert_eq!(shape_node(&nodes, 2), Some(4));
        // A group without one, a node past the end, no shape nodes at all.
        assert_eq!(shape_node(&nodes, 1), None);
        assert_eq!(shape_node(&nodes, 9), None);
        assert_eq!(shape_node(&nodes[..3], 0), None);
        assert_eq!(shape_node(&[], 0), None);
    }
}
