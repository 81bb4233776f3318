//! The order a clip's channels are played in: Blockbench's.
//!
//! `Animator.stackAnimations` (`js/animations/animation_mode.js`) walks
//! `Group.all` (the outliner's order, which is the scene's node order) and,
//! per group, evaluates the clip's `blend_weight`, then `displayFrame`
//! (`js/animations/timeline_animators.js`) interpolates rotation, then
//! position, then scale. The order matters twice: Molang values share
//! their variables within a sample (`molang_vars.rs`), and
//! `rotation_global` reads the parent's pose, which the parent's channels
//! must have set first.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "channel indices below the slice length"
)]

use super::super::{ChannelRecord, ChannelTarget};

/// The targets of one node in the order `displayFrame` plays them.
const TARGETS: [ChannelTarget; 3] = [
    ChannelTarget::Rotation,
    ChannelTarget::Translation,
    ChannelTarget::Scale,
];

/// Calls `node(first)` once per node the clip animates, nodes ascending,
/// then `channel(i)` for each of that node's channels (indices into
/// `channels`) rotation, translation, scale; channels of an unknown target
/// are not visited. A node's channels are adjacent (the reader writes one
/// animator's together), so sorted runs cost one pass; otherwise nodes are
/// found by repeated scans.
pub(super) fn for_each(
    channels: &[ChannelRecord],
    mut node: impl FnMut(u32),
    mut channel: impl FnMut(usize),
) {
    let sorted = channels.windows(2).all(|w| match w {
        [a, b] => a.node <= b.node,
        _ => true,
    });
    let mut visit = |start: usize, end: usize, n: u32| {
        node(n);
        for target in TARGETS {
            for (i, c) in channels.iter().enumerate().take(end).skip(start) {
                if c.node == n && c.target == target as u32 {
                    channel(i);
                }
            }
        }
    };
    if sorted {
        let mut start = 0;
        while let Some(first) = channels.get(start) {
            let len = channels
                .get(start..)
                .unwrap_or_default()
                .iter()
                .take_while(|c| c.node == first.node)
                .count();
            visit(start, start + len, first.node);
            start += len;
        }
        return;
    }
    let mut last: Option<u32> = None;
    while let Some(n) = channels
        .iter()
        .map(|c| c.node)
        .filter(|n| last.is_none_or(|l| *n > l))
        .min()
    {
        visit(0, channels.len(), n);
        last = Some(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    fn channel(node: u32, target: ChannelTarget) -> ChannelRecord {
        ChannelRecord {
            node,
            target: target as u32,
            ..ChannelRecord::default()
        }
    }

    /// (nodes announced, (node, target) of the channels visited).
    fn order(channels: &[ChannelRecord]) -> (Vec<u32>, Vec<(u32, ChannelTarget)>) {
        let mut seen = Vec::new();
        let mut nodes = Vec::new();
        for_each(
            channels,
            |n| nodes.push(n),
            |i| {
                let c = channels[i];
                seen.push((c.node, super::super::target(c.target).unwrap()));
            },
        );
        (nodes, seen)
    }

    #[test]
    fn nodes_in_group_order_then_rotation_position_scale() {
        // stackAnimations: Group.all.forEach(node => … ba.displayFrame());
        // displayFrame: displayRotation(interpolate('rotation')), then
        // 'position', then 'scale'.
        use ChannelTarget::{Rotation as R, Scale as S, Translation as T};
        let sorted = [
            channel(0, S),
            channel(0, T),
            channel(0, R),
            channel(2, T),
            channel(2, R),
        ];
        let (nodes, seen) = order(&sorted);
        assert_eq!(nodes, [0, 2]);
        assert_eq!(seen, [(0, R), (0, T), (0, S), (2, R), (2, T)]);
        // Animators listed child first (file order) still play parent first.
        let unsorted = [channel(3, T), channel(1, S), channel(1, R), channel(2, R)];
        let (nodes, seen) = order(&unsorted);
        assert_eq!(nodes, [1, 2, 3]);
        assert_eq!(seen, [(1, R), (1, S), (2, R), (3, T)]);
        // An unknown target is not visited.
        let unknown = [ChannelRecord {
            node: 0,
            target: 9,
            ..ChannelRecord::default()
        }];
        assert!(order(&unknown).1.is_empty());
        assert_eq!(order(&[]), (Vec::new(), Vec::new()));
    }
}
