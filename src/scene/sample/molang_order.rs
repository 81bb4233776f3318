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

/// Calls `node(n)` once per node the clip animates, nodes ascending,
/// then `channel(i)` for each of that node's channels (indices into
/// `channels`) rotation, translation, scale; channels of an unknown target
/// are not visited. A node's channels are adjacent (the reader writes one
/// animator's together): runs of one node are visited in node order, by a
/// scan over the runs for the next node (one pass when they are sorted).
pub(super) fn for_each(
    channels: &[ChannelRecord],
    mut node: impl FnMut(u32),
    mut channel: impl FnMut(usize),
) {
    // Runs of one node: (node, start, end).
    let runs = || {
        let mut start = 0;
        core::iter::from_fn(move || {
            let first = channels.get(start)?;
            let len = channels
                .get(start..)
                .unwrap_or_default()
                .iter()
                .take_while(|c| c.node == first.node)
                .count();
            // A clip's channel count is a u32 (`AnimationRecord`).
            let at = |i: usize| u32::try_from(i).unwrap_or(u32::MAX);
            let run = (first.node, at(start), at(start + len));
            start += len;
            Some(run)
        })
    };
    let sorted = channels.windows(2).all(|w| match w {
        [a, b] => a.node <= b.node,
        _ => true,
    });
    // The runs of one node, by where each starts.
    let mut visit = |starts: &[u32]| {
        let Some(n) = starts.first().and_then(|s| channels.get(*s as usize)) else {
            return;
        };
        let n = n.node;
        node(n);
        for target in TARGETS {
            for &start in starts {
                let run = channels.get(start as usize..).unwrap_or_default();
                for (k, c) in run.iter().take_while(|c| c.node == n).enumerate() {
                    if c.target == target as u32 {
                        channel(start as usize + k);
                    }
                }
            }
        }
    };
    if sorted {
        for run in runs() {
            visit(&[run.1]);
        }
        return;
    }
    sorted_order(channels, runs, visit);
}

/// [`for_each`]'s order for runs not in node order: their starts sorted
/// on the stack (node, then file order), each node's runs visited
/// together. Its own frame, so the common sorted clip does not reserve it.
#[cold]
#[inline(never)]
fn sorted_order<I: Iterator<Item = Run>>(
    channels: &[ChannelRecord],
    runs: impl Fn() -> I,
    mut visit: impl FnMut(&[u32]),
) {
    let mut starts = [0u32; MAX_SORTED_RUNS];
    let mut count = 0;
    for run in runs() {
        let Some(slot) = starts.get_mut(count) else {
            return scan(runs, visit);
        };
        *slot = run.1;
        count += 1;
    }
    let node = |start: &u32| channels.get(*start as usize).map_or(u32::MAX, |c| c.node);
    let list = starts.get_mut(..count).unwrap_or_default();
    list.sort_unstable_by_key(|s| (node(s), *s));
    for group in list.chunk_by(|a, b| node(a) == node(b)) {
        visit(group);
    }
}

/// A node's adjacent channels: (node, first channel, end).
type Run = (u32, u32, u32);

/// Runs of one node a clip may have for [`for_each`] to sort them on the
/// stack (4 bytes each); past that, nodes are found by repeated scans.
const MAX_SORTED_RUNS: usize = 256;

/// [`for_each`]'s order for more than [`MAX_SORTED_RUNS`] runs: the next
/// node found by a scan over the runs.
#[cold]
fn scan<I: Iterator<Item = Run>>(runs: impl Fn() -> I, mut visit: impl FnMut(&[u32])) {
    let mut last: Option<u32> = None;
    while let Some(n) = runs()
        .map(|r| r.0)
        .filter(|n| last.is_none_or(|l| *n > l))
        .min()
    {
        for run in runs().filter(|r| r.0 == n) {
            visit(&[run.1]);
        }
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
        // MAX_SORTED_RUNS runs sort on the stack, one more takes the scan:
        // both in node order, descending in the file.
        for runs in [MAX_SORTED_RUNS, MAX_SORTED_RUNS + 1] {
            let runs = u32::try_from(runs).unwrap();
            let file: Vec<_> = (0..runs)
                .rev()
                .flat_map(|n| [channel(n, T), channel(n, R)])
                .collect();
            let (nodes, seen) = order(&file);
            assert_eq!(nodes, (0..runs).collect::<Vec<_>>());
            let want: Vec<_> = (0..runs).flat_map(|n| [(n, R), (n, T)]).collect();
            assert_eq!(seen, want, "{runs} runs");
        }
        assert_eq!(order(&[]), (Vec::new(), Vec::new()));
    }
}
