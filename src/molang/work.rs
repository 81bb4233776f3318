//! The compiler's open levels, in caller memory: molangjs reads an
//! expression by recursion (`iterateString` calls itself for every
//! operand), so a text nested 128 deep would take 128 native frames. Here
//! each open level is one [`Open`] record in a [`Work`] the caller places
//! (the .bbmodel passes keep it in their scratch), and the compiler's own
//! stack use is the same for every text.

/// Deepest nesting the compiler opens, whatever `maxMolangDepth` says: it
/// sizes [`Work`]. It is the default `maxMolangDepth`; a larger limit acts
/// as this one.
pub const MAX_OPEN_LEVELS: usize = 128;

/// One expression whose node waits on its operands: what it is, its text
/// range and how far its operands have been read.
#[repr(C)]
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
pub struct Open {
    /// The expression's range in the normalized text, after trimming.
    /// (An operator's: from its first operand, where its node is placed.)
    pub(crate) start: u32,
    pub(crate) end: u32,
    /// An operator's: where its last operand read ends.
    pub(crate) cursor: u32,
    /// Which shape (compile.rs).
    pub(crate) kind: u8,
    /// An operator's code (`node.rs`).
    pub(crate) op: u8,
    /// Operands read so far.
    pub(crate) read: u16,
    /// Per shape: the operand nodes (an operator), or the first item node,
    /// the next operand's position and the items read (a call or scope).
    pub(crate) words: [u32; 3],
}

impl Open {
    /// An unused record.
    pub const ZERO: Self = Self {
        start: 0,
        end: 0,
        cursor: 0,
        kind: 0,
        op: 0,
        read: 0,
        words: [0; 3],
    };
}

/// The compiler's stack of open levels (3.5 KiB), for [`crate::molang::measure`]
/// and [`crate::molang::compile`]. Any contents: each call starts empty.
#[repr(C)]
#[derive(
    Clone,
    Debug,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
pub struct Work {
    pub(crate) open: [Open; MAX_OPEN_LEVELS + 1],
    /// Unused: keeps the size a multiple of 8, as the 8-aligned scratch
    /// blocks that hold it need.
    reserved: u32,
}

impl Work {
    /// An empty stack (a `const`, for statics).
    pub const fn new() -> Self {
        Self {
            open: [Open::ZERO; MAX_OPEN_LEVELS + 1],
            reserved: 0,
        }
    }
}

impl Default for Work {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_stay_small() {
        // The stack is a fixed part of every .bbmodel plan's scratch.
        assert_eq!(core::mem::size_of::<Open>(), 28);
        assert_eq!(core::mem::size_of::<Work>(), 28 * 129 + 4);
        assert_eq!(core::mem::size_of::<Work>() % 8, 0);
    }
}
