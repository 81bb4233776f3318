//! INF1: model flags, counts, and the scene hierarchy that ties joints,
//! materials and shapes together.
//!
//! Layout: u16 load flags @0x08 (low 4 bits: the scaling rule), u32 packet
//! (matrix group) count @0x0C, u32 vertex count @0x10, u32 hierarchy offset
//! @0x14. The hierarchy is a stream of (u16 type, u16 index) nodes: 0x00 end,
//! 0x01 open (children of the previous node follow), 0x02 close, 0x10 joint,
//! 0x11 material, 0x12 shape.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times record sizes below 256 (below 2^41, no overflow with a 64-bit usize), each checked by the section reader before any byte is read"
)]

use super::read::SectionReader;
use crate::error::{Error, ErrorCode};

/// How joint scale propagates to children (INF1 load flags & 0xF).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalingRule {
    /// Plain `T · R · S` products.
    Basic,
    /// Softimage: read as Basic (identical for uniform scale, as every known file has).
    Xsi,
    /// Maya: joints flagged for segment-scale compensation undo their parent's scale.
    Maya,
}

impl ScalingRule {
    /// `"basic"`, `"xsi"` or `"maya"`, as `inspect --json` writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Basic => "basic",
            Self::Xsi => "xsi",
            Self::Maya => "maya",
        }
    }
}

/// Joints, shapes and materials may be numbered up to u16::MAX; one bit each.
const INDEX_BITS: usize = 1 << 16;

/// Joints and shapes a model may have for the walk's small seen-sets (the
/// default limits allow 1024 joints and 4096 shapes).
const SMALL_INDEX_BITS: usize = 1 << 12;
/// Deepest hierarchy walked, whatever the limit says (it sizes the walk's
/// stack of open levels).
pub const HARD_MAX_DEPTH: usize = 1024;

/// What the hierarchy says about one joint or shape, in stream order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HierarchyEvent {
    /// `joint`'s parent joint (None for a root). Parents come before children.
    Joint {
        /// The joint.
        joint: u16,
        /// Its parent.
        parent: Option<u16>,
    },
    /// `shape` is drawn with `material` and hangs from `joint`.
    Shape {
        /// The shape.
        shape: u16,
        /// The last material named before it, in stream order.
        material: Option<u16>,
        /// The joint it sits under.
        joint: Option<u16>,
    },
}

/// A parsed INF1 header.
#[derive(Clone, Copy, Debug)]
pub struct Inf1<'a> {
    reader: SectionReader<'a>,
    /// The scaling rule.
    pub scaling_rule: ScalingRule,
    /// The packet count the header states.
    pub packet_count: u32,
    /// The vertex (position) count the header states.
    pub vertex_count: u32,
    hierarchy: usize,
}

impl<'a> Inf1<'a> {
    pub(crate) fn parse(reader: SectionReader<'a>) -> Result<Self, Error> {
        let flags = reader.u16(0x08)?;
        let scaling_rule = match flags & 0xF {
            0 => ScalingRule::Basic,
            1 => ScalingRule::Xsi,
            2 => ScalingRule::Maya,
            other => {
                return Err(reader.error(
                    ErrorCode::BadValue,
                    0x08,
                    format_args!("scaling rule {other}: 0 (basic), 1 (XSI) or 2 (Maya) expected"),
                ));
            }
        };
        Ok(Self {
            reader,
            scaling_rule,
            packet_count: reader.u32(0x0C)?,
            vertex_count: reader.u32(0x10)?,
            hierarchy: reader.offset(0x14)?,
        })
    }

    /// Walks the hierarchy, checking every index against its count and the
    /// depth against `max_depth`, and reports each joint and shape once.
    ///
    /// A joint or shape named twice is an error (a joint twice could make a
    /// cycle), as is a close without an open or a stream without an end. The
    /// walk reads four bytes a step inside the section, so it always ends.
    ///
    /// Its memory lives on the stack: about 3 KiB for models of at most
    /// 4096 joints and shapes, 18 KiB past that (the seen-sets and 1024
    /// open levels). [`Inf1::walk_in`] takes the caller's instead.
    pub fn walk(
        &self,
        counts: HierarchyCounts,
        max_depth: u64,
        visit: impl FnMut(HierarchyEvent) -> Result<(), Error>,
    ) -> Result<(), Error> {
        // Sized for the counts: zeroing two sets of 8 KiB was most of a
        // small model's walk.
        if counts.joints.max(counts.shapes) <= SMALL_INDEX_BITS {
            self.walk_on_stack::<{ SMALL_INDEX_BITS / 32 }>(counts, max_depth, visit)
        } else {
            self.walk_on_stack::<{ INDEX_BITS / 32 }>(counts, max_depth, visit)
        }
    }

    /// [`Inf1::walk`] with seen-sets of `W` words. Never inlined: each size
    /// keeps its own frame, so a small model's walk does not reserve the
    /// large sets' 16 KiB.
    #[inline(never)]
    fn walk_on_stack<const W: usize>(
        &self,
        counts: HierarchyCounts,
        max_depth: u64,
        visit: impl FnMut(HierarchyEvent) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let mut joints_seen = [0u32; W];
        let mut shapes_seen = [0u32; W];
        let mut open = [0u16; HARD_MAX_DEPTH];
        let memory = WalkMemory {
            joints_seen: &mut joints_seen,
            shapes_seen: &mut shapes_seen,
            open: Some(&mut open),
        };
        self.walk_in(counts, max_depth, memory, visit)
    }

    /// Checks the hierarchy as [`Inf1::walk`] does, without reporting
    /// parents (so without a stack of open levels): the joints' seen-set
    /// then the shapes' are marked in `seen`, which needs
    /// [`seen_words`]`(joints) + seen_words(shapes)` words. A shorter `seen`
    /// (none to lend) checks with the stack's sets instead.
    pub fn check(
        &self,
        counts: HierarchyCounts,
        max_depth: u64,
        seen: &mut [u32],
    ) -> Result<(), Error> {
        let split = seen_words(counts.joints);
        match seen.split_at_mut_checked(split) {
            Some((joints_seen, rest)) if rest.len() >= seen_words(counts.shapes) => {
                let memory = WalkMemory {
                    joints_seen,
                    shapes_seen: rest,
                    open: None,
                };
                self.walk_in(counts, max_depth, memory, |_| Ok(()))
            }
            _ if counts.joints.max(counts.shapes) <= SMALL_INDEX_BITS => {
                self.check_on_stack::<{ SMALL_INDEX_BITS / 32 }>(counts, max_depth)
            }
            _ => self.check_on_stack::<{ INDEX_BITS / 32 }>(counts, max_depth),
        }
    }

    /// [`Inf1::check`] with seen-sets of `W` words on the stack, in a frame
    /// of their own as [`Inf1::walk_on_stack`]'s.
    #[inline(never)]
    fn check_on_stack<const W: usize>(
        &self,
        counts: HierarchyCounts,
        max_depth: u64,
    ) -> Result<(), Error> {
        let mut joints_seen = [0u32; W];
        let mut shapes_seen = [0u32; W];
        let memory = WalkMemory {
            joints_seen: &mut joints_seen,
            shapes_seen: &mut shapes_seen,
            open: None,
        };
        self.walk_in(counts, max_depth, memory, |_| Ok(()))
    }

    /// [`Inf1::walk`] in the caller's `memory`. Sets too short for the
    /// counts, or too few open levels for the depth limit, are refused
    /// before the walk (an arena that does not match its plan).
    pub fn walk_in(
        &self,
        counts: HierarchyCounts,
        max_depth: u64,
        memory: WalkMemory<'_>,
        mut visit: impl FnMut(HierarchyEvent) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let max_depth = open_levels(max_depth);
        let WalkMemory {
            joints_seen,
            shapes_seen,
            mut open,
        } = memory;
        let (Some(joints_seen), Some(shapes_seen)) = (
            joints_seen.get_mut(..seen_words(counts.joints)),
            shapes_seen.get_mut(..seen_words(counts.shapes)),
        ) else {
            return Err(memory_too_small());
        };
        if open.as_ref().is_some_and(|o| o.len() < max_depth) {
            return Err(memory_too_small());
        }
        joints_seen.fill(0);
        shapes_seen.fill(0);
        let mut depth = 0usize;
        let mut context: Option<u16> = None;
        let mut last_joint: Option<u16> = None;
        let mut material: Option<u16> = None;
        let mut at = self.hierarchy;
        loop {
            let kind = self.reader.u16(at)?;
            let index = self.reader.u16(at + 2)?;
            let node_at = at;
            at += 4;
            let check = |count: usize, what: &str| -> Result<(), Error> {
                if usize::from(index) < count {
                    Ok(())
                } else {
                    Err(self.reader.error(
                        ErrorCode::BadOffset,
                        node_at,
                        format_args!("{what} {index} in the hierarchy, but the model has {count}"),
                    ))
                }
            };
            match kind {
                0x00 => {
                    return if depth == 0 {
                        Ok(())
                    } else {
                        Err(self.reader.error(
                            ErrorCode::BadValue,
                            node_at,
                            format_args!("hierarchy ends with {depth} levels open"),
                        ))
                    };
                }
                0x01 => {
                    if depth >= max_depth {
                        return Err(self.reader.error(
                            ErrorCode::HierarchyTooDeep,
                            node_at,
                            format_args!("hierarchy deeper than {max_depth} levels (maxDepth)"),
                        ));
                    }
                    if let Some(slot) = open.as_deref_mut().and_then(|o| o.get_mut(depth)) {
                        *slot = context.unwrap_or(NO_CONTEXT);
                    }
                    depth += 1;
                    if let (Some(j), Some(_)) = (last_joint, &open) {
                        context = Some(j);
                    }
                    last_joint = None;
                }
                0x02 => {
                    depth = depth.checked_sub(1).ok_or_else(|| {
                        self.reader.error(
                            ErrorCode::BadValue,
                            node_at,
                            format_args!("hierarchy closes a level that was never opened"),
                        )
                    })?;
                    context = open
                        .as_deref()
                        .and_then(|o| o.get(depth))
                        .copied()
                        .filter(|&c| c != NO_CONTEXT);
                    last_joint = None;
                }
                0x10 => {
                    check(counts.joints, "joint")?;
                    if !insert(joints_seen, index) {
                        return Err(self.reader.error(
                            ErrorCode::BadValue,
                            node_at,
                            format_args!("joint {index} appears twice in the hierarchy"),
                        ));
                    }
                    visit(HierarchyEvent::Joint {
                        joint: index,
                        parent: context,
                    })?;
                    last_joint = Some(index);
                }
                0x11 => {
                    check(counts.materials, "material")?;
                    material = Some(index);
                    last_joint = None;
                }
                0x12 => {
                    check(counts.shapes, "shape")?;
                    if !insert(shapes_seen, index) {
                        return Err(self.reader.error(
                            ErrorCode::BadValue,
                            node_at,
                            format_args!("shape {index} appears twice in the hierarchy"),
                        ));
                    }
                    visit(HierarchyEvent::Shape {
                        shape: index,
                        material,
                        joint: context,
                    })?;
                    last_joint = None;
                }
                other => {
                    return Err(self.reader.error(
                        ErrorCode::BadValue,
                        node_at,
                        format_args!(
                            "hierarchy node type {other:#x}: 0x00-0x02 or 0x10-0x12 expected"
                        ),
                    ));
                }
            }
        }
    }
}

/// The memory a hierarchy walk marks and stacks in, lent by its caller
/// (the fill carves it from the arena's scratch: the stack holds none).
#[derive(Debug)]
pub struct WalkMemory<'m> {
    /// One bit per joint: at least [`seen_words`]`(joints)` words.
    pub joints_seen: &'m mut [u32],
    /// One bit per shape: at least [`seen_words`]`(shapes)` words.
    pub shapes_seen: &'m mut [u32],
    /// The joint each open level hangs from: at least
    /// [`open_levels`]`(max_depth)` entries. `None` when the caller does
    /// not read parents: every event then reports none.
    pub open: Option<&'m mut [u16]>,
}

/// Words of a seen-set for `count` joints or shapes (one bit each).
pub const fn seen_words(count: usize) -> usize {
    count.div_ceil(32)
}

/// Open levels a walk under `max_depth` may stack: the limit, at most
/// [`HARD_MAX_DEPTH`].
pub fn open_levels(max_depth: u64) -> usize {
    usize::try_from(max_depth)
        .unwrap_or(usize::MAX)
        .min(HARD_MAX_DEPTH)
}

/// Words of seen-sets a check of any model needs (both sets, every u16
/// index): what [`Inf1::check`] is lent to never fall back to the stack.
pub const MAX_SEEN_WORDS: usize = 2 * seen_words(INDEX_BITS);

/// An open level with no joint above it.
const NO_CONTEXT: u16 = u16::MAX;

/// Sets bit `i` of `set`; false when it was already set (or lies past it:
/// indices are checked against their count first).
fn insert(set: &mut [u32], i: u16) -> bool {
    let (word, bit) = (usize::from(i) / 32, i % 32);
    match set.get_mut(word) {
        Some(w) if *w & (1 << bit) == 0 => {
            *w |= 1 << bit;
            true
        }
        _ => false,
    }
}

#[cold]
fn memory_too_small() -> Error {
    Error::nowhere(
        ErrorCode::ArenaTooSmall,
        format_args!("hierarchy walk: scratch smaller than the model's counts need"),
    )
}

/// How many joints, materials and shapes hierarchy indices may name.
#[derive(Clone, Copy, Debug, Default)]
pub struct HierarchyCounts {
    /// JNT1 joints.
    pub joints: usize,
    /// MAT3 materials.
    pub materials: usize,
    /// SHP1 shapes.
    pub shapes: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::SectionId;
    use crate::j3d::header::Section;
    use std::string::ToString;

    /// An INF1 section whose hierarchy is `nodes` (type, index), then the end.
    fn section(nodes: &[(u16, u16)]) -> std::vec::Vec<u8> {
        let mut bytes = std::vec![0u8; 0x18];
        bytes[..4].copy_from_slice(b"INF1");
        bytes[0x14..0x18].copy_from_slice(&0x18u32.to_be_bytes());
        for &(kind, index) in nodes.iter().chain(&[(0, 0)]) {
            bytes.extend(kind.to_be_bytes());
            bytes.extend(index.to_be_bytes());
        }
        bytes
    }

    /// The shapes `nodes` names, walked with `counts`; or the error's message.
    fn shapes(nodes: &[(u16, u16)], counts: HierarchyCounts) -> Result<usize, std::string::String> {
        let bytes = section(nodes);
        let inf1 = Inf1::parse(SectionReader::new(Section {
            id: SectionId(*b"INF1"),
            offset: 0,
            bytes: &bytes,
        }))
        .map_err(|e| e.to_string())?;
        let mut seen = 0;
        inf1.walk(counts, 256, |event| {
            seen += usize::from(matches!(event, HierarchyEvent::Shape { .. }));
            Ok(())
        })
        .map_err(|e| e.to_string())?;
        Ok(seen)
    }

    /// Both sizes of seen-set: every index below the count is taken once
    /// and refused the second time, and an index past the count is refused
    /// before it is marked.
    #[test]
    fn shapes_named_twice_are_refused_with_small_and_full_seen_sets() {
        for count in [1, SMALL_INDEX_BITS, SMALL_INDEX_BITS + 1, INDEX_BITS - 1] {
            let counts = HierarchyCounts {
                shapes: count,
                ..HierarchyCounts::default()
            };
            let last = u16::try_from(count - 1).unwrap();
            assert_eq!(shapes(&[(0x12, last)], counts), Ok(1));
            if count > 1 {
                assert_eq!(shapes(&[(0x12, 0), (0x12, last)], counts), Ok(2));
            }
            let twice = shapes(&[(0x12, last), (0x12, last)], counts).unwrap_err();
            assert!(twice.contains("appears twice"), "{count}: {twice}");
            let past = u16::try_from(count).unwrap_or(u16::MAX);
            if usize::from(past) >= count {
                let error = shapes(&[(0x12, past)], counts).unwrap_err();
                assert!(error.contains("but the model has"), "{count}: {error}");
            }
        }
    }

    /// The walk in the caller's memory: exactly the words the counts need
    /// are enough, one word fewer (or fewer open levels than the depth
    /// limit) is refused before the walk, and without open levels every
    /// parent reads as none.
    #[test]
    fn a_walk_in_lent_memory_needs_exactly_the_counts_words() {
        let counts = HierarchyCounts {
            joints: 33,
            materials: 0,
            shapes: 1,
        };
        let nodes = [
            (0x10, 0),
            (0x01, 0),
            (0x10, 32),
            (0x01, 0),
            (0x12, 0),
            (0x02, 0),
            (0x02, 0),
        ];
        let bytes = section(&nodes);
        let inf1 = Inf1::parse(SectionReader::new(Section {
            id: SectionId(*b"INF1"),
            offset: 0,
            bytes: &bytes,
        }))
        .unwrap();
        assert_eq!((seen_words(32), seen_words(33)), (1, 2));
        let (mut joints, mut shapes, mut open) = ([u32::MAX; 2], [u32::MAX; 1], [0u16; 4]);
        let mut parents = std::vec::Vec::new();
        let memory = WalkMemory {
            joints_seen: &mut joints,
            shapes_seen: &mut shapes,
            open: Some(&mut open),
        };
        inf1.walk_in(counts, 4, memory, |event| {
            if let HierarchyEvent::Joint { parent, .. } = event {
                parents.push(parent);
            }
            Ok(())
        })
        .unwrap();
        // Marks start cleared, whatever the memory held.
        assert_eq!(parents, [None, Some(0)]);
        let too_few = |joints: &mut [u32], open: usize| {
            let mut shapes = [0u32; 1];
            let mut levels = [0u16; 4];
            let memory = WalkMemory {
                joints_seen: joints,
                shapes_seen: &mut shapes,
                open: Some(&mut levels[..open]),
            };
            inf1.walk_in(counts, 4, memory, |_| Ok(()))
                .map_err(|e| e.code())
        };
        assert_eq!(too_few(&mut [0; 1], 4), Err(ErrorCode::ArenaTooSmall));
        assert_eq!(too_few(&mut [0; 2], 3), Err(ErrorCode::ArenaTooSmall));
        assert_eq!(too_few(&mut [0; 2], 4), Ok(()));
        // Without open levels: no parents, the same checks.
        let mut parents = std::vec::Vec::new();
        let memory = WalkMemory {
            joints_seen: &mut [0; 2],
            shapes_seen: &mut [0; 1],
            open: None,
        };
        inf1.walk_in(counts, 4, memory, |event| {
            if let HierarchyEvent::Joint { parent, .. } = event {
                parents.push(parent);
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(parents, [None, None]);
        // `check` in lent words, in too few (the stack's sets) and none.
        for words in [3, 2, 0] {
            let mut seen = std::vec![0u32; words];
            assert_eq!(
                inf1.check(counts, 4, &mut seen).map_err(|e| e.code()),
                Ok(())
            );
        }
        let twice = section(&[(0x10, 0), (0x01, 0), (0x10, 0), (0x02, 0)]);
        let inf1 = Inf1::parse(SectionReader::new(Section {
            id: SectionId(*b"INF1"),
            offset: 0,
            bytes: &twice,
        }))
        .unwrap();
        for words in [3, 0] {
            let error = inf1
                .check(counts, 4, &mut std::vec![0u32; words])
                .unwrap_err();
            assert!(error.message().contains("appears twice"), "{error}");
        }
    }
}
