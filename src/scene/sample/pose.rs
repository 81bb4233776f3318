//! A node's sampled transform, below the sampler and its rules.

use super::super::NodeRecord;

/// A node's transform at one instant: [`NodeRecord`]'s TRS with a clip's
/// channels applied. Same units and spaces as the record (model units,
/// radians applied X, then Y, then Z, scale factors, pivot in the node's
/// own space).
///
/// `#[repr(C)]`, twelve `f32`s: the C API (capi/) lets callers' arrays of
/// poses be sampled into in place.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct NodePose {
    /// Translation in the parent's space.
    pub translation: [f32; 3],
    /// Euler angles, radians, applied X first, then Y, then Z.
    pub rotation: [f32; 3],
    /// Scale factors per axis.
    pub scale: [f32; 3],
    /// The point rotation and scale turn about (the record's; never animated).
    pub pivot: [f32; 3],
}

impl NodePose {
    /// The node's rest pose, as its record stores it.
    pub const fn rest(node: &NodeRecord) -> Self {
        Self {
            translation: node.translation,
            rotation: node.rotation,
            scale: node.scale,
            pivot: node.pivot,
        }
    }

    /// `node` with this pose's transform, so the record's matrix functions apply.
    pub(super) const fn on(&self, node: &NodeRecord) -> NodeRecord {
        NodeRecord {
            translation: self.translation,
            rotation: self.rotation,
            scale: self.scale,
            pivot: self.pivot,
            ..*node
        }
    }
}
