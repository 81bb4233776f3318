//! Bind pose and skin: nodes from JNT1 with their parents and world matrices
//! from INF1, DRW1's draw matrices, and the skin whose inverse binds undo
//! that pose (see the module docs of [`super`] for the rules).

use super::names::Pool;
use super::{Model, index32};
use crate::error::Error;
use crate::j3d::drw1::DrawMatrix;
use crate::j3d::inf1::{HierarchyEvent, ScalingRule, WalkMemory};
use crate::limits::J3dLimits;
use crate::scene::{Mat4, NodeFlags, NodeRecord, SkinRecord};

impl Model<'_> {
    /// Writes the nodes (JNT1 in index order, parents from INF1), their world
    /// matrices in hierarchy order (parents first, then any joint INF1 never
    /// named) and, from the same INF1 walk, each shape's material + 1 (0:
    /// none). The walk's memory is the fill's scratch.
    pub(super) fn fill_hierarchy(
        &self,
        nodes: &mut [NodeRecord],
        worlds: &mut [[f32; 16]],
        shape_materials: &mut [u32],
        pool: &mut Pool<'_>,
        limits: &J3dLimits,
        walk_memory: WalkMemory<'_>,
    ) -> Result<(), Error> {
        for (j, node) in nodes.iter_mut().enumerate() {
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
        for (node, world) in nodes.iter().zip(worlds.iter_mut()) {
            *world = Mat4::local(node).0;
        }
        self.inf1.walk_in(
            self.hierarchy_counts(),
            limits.max_depth,
            walk_memory,
            |event| {
                match event {
                    HierarchyEvent::Joint { joint, parent } => {
                        let j = usize::from(joint);
                        let parent_world = parent
                            .and_then(|p| worlds.get(usize::from(p)))
                            .map_or(Mat4::IDENTITY, |w| Mat4(*w));
                        let parent_node = parent.and_then(|p| nodes.get(usize::from(p))).copied();
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
            },
        )?;
        Ok(())
    }

    /// Writes where each envelope's influences start and every DRW1 draw
    /// matrix: a joint's world matrix, or an envelope's weighted sum of
    /// `jointWorld · inverseBind`.
    pub(super) fn fill_draw_matrices(
        &self,
        worlds: &[[f32; 16]],
        draws: &mut [[f32; 16]],
        envelope_firsts: &mut [u32],
    ) -> Result<(), Error> {
        let mut first = 0usize;
        for (e, slot) in envelope_firsts.iter_mut().enumerate() {
            *slot = u32::try_from(first).unwrap_or(u32::MAX);
            first = first.saturating_add(self.evp1.joint_count(e)?);
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
        Ok(())
    }

    /// Writes the skin: every joint, inverse binds from our own bind pose so
    /// that skinning the stored positions at rest gives them back exactly.
    /// `skins` is empty when the model has no joints.
    pub(super) fn fill_skin(
        &self,
        worlds: &[[f32; 16]],
        skins: &mut [SkinRecord],
        skin_joints: &mut [u32],
        inverse_binds: &mut [[f32; 16]],
    ) -> Result<(), Error> {
        if let Some(skin) = skins.first_mut() {
            *skin = SkinRecord {
                first_joint: 0,
                joint_count: index32(self.jnt1.len())?,
            };
            for (j, (joint, inverse)) in skin_joints
                .iter_mut()
                .zip(inverse_binds.iter_mut())
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
        Ok(())
    }
}
