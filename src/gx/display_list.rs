//! GX display lists: the command stream SHP1 packets hold.
//!
//! A list is a sequence of commands: a draw (opcode, u16 vertex count, then
//! that many vertices of a fixed size), a matrix load (0x20, 0x28, 0x30, 0x38,
//! four bytes each; skipped: J3D sets matrices from SHP1's tables instead), or
//! a NOP (0x00), which in J3D files only pads the list to 32 bytes and so ends
//! it. Anything else is an error at its offset.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "display-list offsets are below the list's length (checked before each read), vertex counts are u16 and triangle indices below them"
)]

/// A primitive kind (GXPrimitive, the opcode's top five bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Primitive {
    /// 0x80: quads, two triangles each.
    Quads,
    /// 0x88: quads (the second quad opcode).
    Quads2,
    /// 0x90: independent triangles.
    Triangles,
    /// 0x98: a triangle strip.
    TriangleStrip,
    /// 0xA0: a triangle fan.
    TriangleFan,
    /// 0xA8: lines (not drawn as triangles).
    Lines,
    /// 0xB0: a line strip (not drawn as triangles).
    LineStrip,
    /// 0xB8: points (not drawn as triangles).
    Points,
}

impl Primitive {
    /// The primitive for a draw opcode (any vertex format in the low 3 bits).
    pub fn from_opcode(op: u8) -> Option<Self> {
        Some(match op & 0xF8 {
            0x80 => Self::Quads,
            0x88 => Self::Quads2,
            0x90 => Self::Triangles,
            0x98 => Self::TriangleStrip,
            0xA0 => Self::TriangleFan,
            0xA8 => Self::Lines,
            0xB0 => Self::LineStrip,
            0xB8 => Self::Points,
            _ => return None,
        })
    }

    /// True for the kinds that produce triangles.
    pub fn is_triangles(self) -> bool {
        !matches!(self, Self::Lines | Self::LineStrip | Self::Points)
    }

    /// Triangles `n` vertices make: strips and fans n − 2, quads 2 per 4,
    /// lists n / 3; 0 for lines and points.
    pub fn triangle_count(self, n: usize) -> usize {
        match self {
            Self::Quads | Self::Quads2 => n / 4 * 2,
            Self::Triangles => n / 3,
            Self::TriangleStrip | Self::TriangleFan => n.saturating_sub(2),
            Self::Lines | Self::LineStrip | Self::Points => 0,
        }
    }

    /// The `t`-th triangle as vertex positions within the primitive, in the
    /// order GX draws it (GX's front face is clockwise).
    ///
    /// Strip: even triangles (t, t+1, t+2), odd ones (t, t+2, t+1), so every
    /// triangle keeps the first one's facing. Fan: (0, t+1, t+2). Quads:
    /// (0, 1, 2) and (0, 2, 3) of each quad.
    pub fn triangle(self, t: usize) -> [usize; 3] {
        match self {
            Self::TriangleStrip if t.is_multiple_of(2) => [t, t + 1, t + 2],
            Self::TriangleStrip => [t, t + 2, t + 1],
            Self::TriangleFan => [0, t + 1, t + 2],
            Self::Quads | Self::Quads2 => {
                let q = t / 2 * 4;
                if t.is_multiple_of(2) {
                    [q, q + 1, q + 2]
                } else {
                    [q, q + 2, q + 3]
                }
            }
            _ => [3 * t, 3 * t + 1, 3 * t + 2],
        }
    }
}

/// One draw command of a display list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DisplayListPrimitive<'a> {
    /// What it draws.
    pub kind: Primitive,
    /// Offset of the opcode within the list.
    pub offset: usize,
    /// Number of vertices.
    pub vertex_count: usize,
    /// The vertices, `vertex_count` × the vertex size.
    pub vertices: &'a [u8],
}

/// Why a display list could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DisplayListError {
    /// An opcode that is neither a draw, a matrix load nor a NOP.
    UnknownOpcode {
        /// Offset within the list.
        offset: usize,
        /// The opcode.
        opcode: u8,
    },
    /// A command runs past the end of the list.
    Truncated {
        /// Offset of the command within the list.
        offset: usize,
    },
}

/// Walks the draw commands of one display list.
#[derive(Clone, Debug)]
pub struct DisplayList<'a> {
    bytes: &'a [u8],
    vertex_size: usize,
    pos: usize,
    done: bool,
}

impl<'a> DisplayList<'a> {
    /// A list whose vertices are `vertex_size` bytes each.
    pub fn new(bytes: &'a [u8], vertex_size: usize) -> Self {
        Self {
            bytes,
            vertex_size,
            pos: 0,
            done: false,
        }
    }

    fn step(&mut self) -> Result<Option<DisplayListPrimitive<'a>>, DisplayListError> {
        loop {
            let offset = self.pos;
            let Some(&op) = self.bytes.get(offset) else {
                return Ok(None);
            };
            match op {
                0x00 => return Ok(None),
                0x20 | 0x28 | 0x30 | 0x38 => {
                    if self.bytes.len() < offset + 5 {
                        return Err(DisplayListError::Truncated { offset });
                    }
                    self.pos = offset + 5;
                }
                _ => {
                    let kind = Primitive::from_opcode(op)
                        .ok_or(DisplayListError::UnknownOpcode { offset, opcode: op })?;
                    let count = self
                        .bytes
                        .get(offset + 1..offset + 3)
                        .and_then(|b| <[u8; 2]>::try_from(b).ok())
                        .map(|b| usize::from(u16::from_be_bytes(b)))
                        .ok_or(DisplayListError::Truncated { offset })?;
                    let start = offset + 3;
                    let end = count
                        .checked_mul(self.vertex_size)
                        .and_then(|n| n.checked_add(start))
                        .ok_or(DisplayListError::Truncated { offset })?;
                    let vertices = self
                        .bytes
                        .get(start..end)
                        .ok_or(DisplayListError::Truncated { offset })?;
                    self.pos = end;
                    return Ok(Some(DisplayListPrimitive {
                        kind,
                        offset,
                        vertex_count: count,
                        vertices,
                    }));
                }
            }
        }
    }
}

impl<'a> Iterator for DisplayList<'a> {
    type Item = Result<DisplayListPrimitive<'a>, DisplayListError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let r = self.step().transpose();
        if !matches!(r, Some(Ok(_))) {
            self.done = true;
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    #[test]
    fn strip_alternates_to_keep_facing() {
        let tris: Vec<_> = (0..4)
            .map(|t| Primitive::TriangleStrip.triangle(t))
            .collect();
        assert_eq!(tris, [[0, 1, 2], [1, 3, 2], [2, 3, 4], [3, 5, 4]]);
        assert_eq!(Primitive::TriangleStrip.triangle_count(6), 4);
    }

    #[test]
    fn fan_quads_and_lists() {
        assert_eq!(Primitive::TriangleFan.triangle(2), [0, 3, 4]);
        assert_eq!(Primitive::Quads.triangle(3), [4, 6, 7]);
        assert_eq!(Primitive::Quads2.triangle_count(9), 4);
        assert_eq!(Primitive::Triangles.triangle(1), [3, 4, 5]);
        assert_eq!(Primitive::Triangles.triangle_count(7), 2);
        assert_eq!(Primitive::Lines.triangle_count(10), 0);
        assert_eq!(Primitive::TriangleFan.triangle_count(1), 0);
    }

    #[test]
    fn walks_draws_skips_matrix_loads_and_stops_at_padding() {
        let mut dl = Vec::new();
        dl.extend_from_slice(&[0x20, 1, 2, 3, 4]);
        dl.extend_from_slice(&[0x98, 0, 3, 1, 2, 3]);
        dl.extend_from_slice(&[0xB8, 0, 1, 9]);
        dl.extend_from_slice(&[0x00, 0x00, 0x99]);
        let prims: Vec<_> = DisplayList::new(&dl, 1).map(|p| p.unwrap()).collect();
        assert_eq!(prims.len(), 2);
        assert_eq!(prims[0].kind, Primitive::TriangleStrip);
        assert_eq!(prims[0].vertices, &[1, 2, 3]);
        assert_eq!(prims[0].offset, 5);
        assert_eq!(prims[1].kind, Primitive::Points);
    }

    #[test]
    fn truncated_and_unknown_commands_are_errors() {
        let r: Vec<_> = DisplayList::new(&[0x90, 0, 3, 1, 2], 1).collect();
        assert_eq!(r, [Err(DisplayListError::Truncated { offset: 0 })]);
        let r: Vec<_> = DisplayList::new(&[0x61, 0, 0], 1).collect();
        assert_eq!(
            r,
            [Err(DisplayListError::UnknownOpcode {
                offset: 0,
                opcode: 0x61
            })]
        );
        let r: Vec<_> = DisplayList::new(&[0x28, 0, 0], 1).collect();
        assert_eq!(r, [Err(DisplayListError::Truncated { offset: 0 })]);
    }
}
