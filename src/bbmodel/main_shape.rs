//! The Hytale plugin's scale: the cube a group's scale stretches, and the
//! node that carries that cube so the scale can play as a node's.
//!
//! The plugin's `displayScale` (its `src/animations.ts`) does not scale the
//! bone: it multiplies the `stretch` of the group's main shape
//! (`getMainShape`, `src/util.ts`: the first of the group's children that
//! is a cube whose rotation is all 0) by `1 + (value − 1) · weight` per
//! axis and rebuilds that cube, whose box is centre ± (half size +
//! inflate) · stretch (`adjustFromAndToForInflateAndStretch`); a group
//! without one is not scaled at all. Since the box grows about its centre
//! along the group's axes, it is the cube's vertices scaled about that
//! centre: a child node of the group with its pivot there and no other
//! transform ([`NodeFlags::SHAPE`]) draws the cube, and the sampler plays
//! the scale on it (`crate::scene::shape_node`).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "node indices below the carved node count"
)]

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

use crate::bbmodel::document::formats::ModelFormat;
use crate::bbmodel::layout::mismatch;
use crate::error::Error;
use crate::scene::{ChannelFlags, ChannelRecord, ChannelTarget, MeshRecord, NodeFlags, NodeRecord};

/// A group's main cube as the fill finds it, one per group node (scratch).
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct MainShape {
    /// The cube's outliner position plus one; 0 while none was seen.
    order: u64,
    /// The cube's centre, `from + (to − from) / 2`, in its group's space.
    centre: [f32; 3],
    /// 1 once a Hytale scale channel keys the group.
    scaled: u32,
    _pad: [u32; 2],
}

/// Whether `format` plays scale the plugin's way.
pub fn applies(format: ModelFormat) -> bool {
    matches!(
        format,
        ModelFormat::HytaleCharacter | ModelFormat::HytaleProp
    )
}

/// Shape nodes a file may need: one per group an animator scales, at most
/// one per animator and per group (an upper bound: which groups have a
/// main cube and a scale channel is known only in the fill).
pub fn planned_nodes(format: ModelFormat, animators: usize, groups: usize) -> usize {
    if applies(format) {
        animators.min(groups)
    } else {
        0
    }
}

/// The scratch table's length: one entry per group node in the formats
/// that need it.
pub fn table_len(format: ModelFormat, groups: usize) -> usize {
    if applies(format) { groups } else { 0 }
}

/// Notes a cube placed at outliner position `order` under node `parent`
/// with `rotation` (degrees) and centre `centre`: the group's main cube
/// if it is unrotated and the first such child (`Array.find` over the
/// group's children, which follow the outliner).
pub fn note_cube(
    table: &mut [MainShape],
    parent: i32,
    order: u64,
    rotation: [f64; 3],
    centre: [f64; 3],
) {
    // `rotation.allEqual(0)`: −0 is 0 too.
    if rotation.iter().any(|r| *r != 0.0) {
        return;
    }
    let Some(slot) = usize::try_from(parent).ok().and_then(|p| table.get_mut(p)) else {
        return;
    };
    let order = order.saturating_add(1);
    if slot.order == 0 || order < slot.order {
        #[allow(
            clippy::cast_possible_truncation,
            reason = "a cube coordinate within ±10⁷, as the geometry rounds it"
        )]
        let centre = centre.map(|c| c as f32);
        *slot = MainShape {
            order,
            centre,
            ..*slot
        };
    }
}

/// The scene arrays the shape nodes are written into, with the count of
/// group nodes already written.
pub struct ShapeArrays<'s> {
    /// Every carved node: the groups' first, the shape nodes' after them.
    pub nodes: &'s mut [NodeRecord],
    /// The group nodes written.
    pub groups: usize,
    /// The meshes, in outliner order.
    pub meshes: &'s mut [MeshRecord],
    /// Each mesh's outliner position, sorted ([order, _] as the fill
    /// sorted them), to find a cube's mesh.
    pub order: &'s [[u64; 2]],
}

/// Adds a shape node for each group a Hytale scale channel keys and that
/// has a main cube, in group order (so [`crate::scene::shape_node`] finds
/// them by binary search), and moves the cube's mesh onto it; returns the
/// node count. A group without a main cube keeps its channel, which moves
/// nothing (the plugin's `displayScale` finds no shape and returns).
#[inline(never)]
pub fn add_shape_nodes(
    table: &mut [MainShape],
    channels: &[ChannelRecord],
    arrays: ShapeArrays<'_>,
) -> Result<usize, Error> {
    for c in channels {
        let hytale_scale =
            c.target == ChannelTarget::Scale as u32 && c.flags & ChannelFlags::HYTALE != 0;
        if let Some(slot) = table.get_mut(c.node as usize).filter(|_| hytale_scale) {
            slot.scaled = 1;
        }
    }
    let mut next = arrays.groups;
    for (group, shape) in table.iter().enumerate() {
        if shape.scaled == 0 || shape.order == 0 {
            continue;
        }
        let Ok(at) = arrays
            .order
            .binary_search_by_key(&(shape.order - 1), |o| o[0])
        else {
            return Err(mismatch());
        };
        let mesh = arrays.meshes.get_mut(at).ok_or_else(mismatch)?;
        let index = i32::try_from(next).map_err(|_| mismatch())?;
        let parent = i32::try_from(group).map_err(|_| mismatch())?;
        *arrays.nodes.get_mut(next).ok_or_else(mismatch)? = NodeRecord {
            name: mesh.name,
            parent,
            flags: NodeFlags::VISIBLE | NodeFlags::SHAPE,
            translation: [0.0; 3],
            rotation: [0.0; 3],
            scale: [1.0; 3],
            pivot: shape.centre,
        };
        mesh.node = index;
        next += 1;
    }
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_main_shape_is_the_first_unrotated_child_cube() {
        // util.ts getMainShape: group.children.find(qualifiesAsMainShape),
        // qualifiesAsMainShape: a Cube whose rotation.allEqual(0).
        let mut table = [MainShape::default(); 2];
        // Read in file order; outliner order decides.
        note_cube(&mut table, 0, 5, [0.0; 3], [1.0, 2.0, 3.0]);
        note_cube(&mut table, 0, 2, [0.0, 10.0, 0.0], [9.0; 3]); // rotated
        note_cube(&mut table, 0, 3, [-0.0, 0.0, 0.0], [4.0; 3]); // −0 is 0
        note_cube(&mut table, -1, 0, [0.0; 3], [7.0; 3]); // at the root
        assert_eq!((table[0].order, table[0].centre), (4, [4.0; 3]));
        assert_eq!(table[1].order, 0);
    }

    #[test]
    fn a_node_is_added_only_for_a_scaled_group_with_a_main_cube() {
        // displayScale: `if (target_shape) { … }`: no shape, no scale.
        let mut table = [MainShape::default(); 3];
        note_cube(&mut table, 0, 1, [0.0; 3], [0.5, 1.0, 0.0]);
        note_cube(&mut table, 1, 0, [0.0; 3], [2.0; 3]);
        let scale = |node, flags| ChannelRecord {
            node,
            target: ChannelTarget::Scale as u32,
            flags,
            ..ChannelRecord::default()
        };
        let channels = [
            scale(0, ChannelFlags::HYTALE),
            scale(1, 0),                    // not the plugin's scale
            scale(2, ChannelFlags::HYTALE), // no main cube
        ];
        let mut nodes = [NodeRecord::default(); 5];
        let mut meshes = [MeshRecord {
            node: 1,
            ..MeshRecord::default()
        }; 2];
        meshes[1].node = 0;
        let order = [[0, 0], [1, 1]];
        let arrays = ShapeArrays {
            nodes: &mut nodes,
            groups: 3,
            meshes: &mut meshes,
            order: &order,
        };
        assert_eq!(add_shape_nodes(&mut table, &channels, arrays).unwrap(), 4);
        assert_eq!(nodes[3].parent, 0);
        assert_eq!(nodes[3].flags, NodeFlags::VISIBLE | NodeFlags::SHAPE);
        assert_eq!(nodes[3].pivot, [0.5, 1.0, 0.0]);
        assert_eq!((meshes[0].node, meshes[1].node), (1, 3));
        assert_eq!(nodes[4], NodeRecord::default());
    }
}
