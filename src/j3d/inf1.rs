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
/// Deepest hierarchy walked, whatever the limit says (the stack lives on the stack).
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
    pub fn walk(
        &self,
        counts: HierarchyCounts,
        max_depth: u64,
        visit: impl FnMut(HierarchyEvent) -> Result<(), Error>,
    ) -> Result<(), Error> {
        // The seen-sets sized for the counts (an index is checked against
        // its count before it is marked): zeroing two sets of 8 KiB was
        // most of a small model's walk.
        if counts.joints.max(counts.shapes) <= SMALL_INDEX_BITS {
            self.walk_marking::<{ SMALL_INDEX_BITS / 64 }>(counts, max_depth, visit)
        } else {
            self.walk_marking::<{ INDEX_BITS / 64 }>(counts, max_depth, visit)
        }
    }

    /// [`Inf1::walk`] with seen-sets of `W` words, which hold every index
    /// below `counts.joints` and `counts.shapes`. Never inlined: each size
    /// keeps its own frame, so a small model's walk does not reserve the
    /// large sets' 16 KiB of stack.
    #[inline(never)]
    fn walk_marking<const W: usize>(
        &self,
        counts: HierarchyCounts,
        max_depth: u64,
        mut visit: impl FnMut(HierarchyEvent) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let max_depth = usize::try_from(max_depth)
            .unwrap_or(usize::MAX)
            .min(HARD_MAX_DEPTH);
        let mut joints_seen = BitSet::<W>::new();
        let mut shapes_seen = BitSet::<W>::new();
        let mut stack = heapless::Vec::<Option<u16>, HARD_MAX_DEPTH>::new();
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
                    return if stack.is_empty() {
                        Ok(())
                    } else {
                        Err(self.reader.error(
                            ErrorCode::BadValue,
                            node_at,
                            format_args!("hierarchy ends with {} levels open", stack.len()),
                        ))
                    };
                }
                0x01 => {
                    if stack.len() >= max_depth || stack.push(context).is_err() {
                        return Err(self.reader.error(
                            ErrorCode::HierarchyTooDeep,
                            node_at,
                            format_args!("hierarchy deeper than {max_depth} levels (maxDepth)"),
                        ));
                    }
                    if let Some(j) = last_joint {
                        context = Some(j);
                    }
                    last_joint = None;
                }
                0x02 => {
                    context = stack.pop().ok_or_else(|| {
                        self.reader.error(
                            ErrorCode::BadValue,
                            node_at,
                            format_args!("hierarchy closes a level that was never opened"),
                        )
                    })?;
                    last_joint = None;
                }
                0x10 => {
                    check(counts.joints, "joint")?;
                    if !joints_seen.insert(index) {
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
                    if !shapes_seen.insert(index) {
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

/// One bit per index below `64 × W`: 8 KiB for every u16 index
/// ([`INDEX_BITS`]), 512 bytes for models of at most [`SMALL_INDEX_BITS`]
/// joints and shapes.
struct BitSet<const W: usize>([u64; W]);

impl<const W: usize> BitSet<W> {
    fn new() -> Self {
        Self([0; W])
    }

    /// Sets bit `i`; false when it was already set.
    fn insert(&mut self, i: u16) -> bool {
        let (word, bit) = (usize::from(i) / 64, i % 64);
        match self.0.get_mut(word) {
            Some(w) if *w & (1 << bit) == 0 => {
                *w |= 1 << bit;
                true
            }
            _ => false,
        }
    }
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
}
