//! Why a stream was refused: apart from `mod.rs` so that the careful step
//! there, and `fast.rs` and `huffman.rs` which it drives, all import it
//! from below them.

use core::fmt;

/// Why a stream was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum InflateError {
    /// The two zlib header bytes: not deflate, a window over 32 KiB, a
    /// preset dictionary, or check bits that do not divide by 31.
    BadHeader,
    /// Block type 3.
    BadBlockType,
    /// A stored block whose LEN is not the complement of NLEN.
    StoredLength,
    /// More than 286 literal/length or 30 distance codes.
    BadTableSizes,
    /// Code lengths that over-subscribe or leave a code incomplete, or a
    /// repeat with nothing to repeat or past the table sizes.
    BadCodeLengths,
    /// A code no symbol has, or a symbol deflate reserves.
    InvalidSymbol,
    /// A distance before the stream's start (or past the window).
    DistanceTooFar,
    /// The Adler-32 after the data does not match it.
    Adler32,
    /// The window given is not one this stream can continue in (`at` past
    /// its end, or a ring shorter than 32 KiB).
    BadWindow,
}

impl InflateError {
    /// A short description in words.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::BadHeader => "invalid zlib header",
            Self::BadBlockType => "invalid block type",
            Self::StoredLength => "stored block length does not match its complement",
            Self::BadTableSizes => "too many length or distance codes",
            Self::BadCodeLengths => "invalid code lengths",
            Self::InvalidSymbol => "invalid code",
            Self::DistanceTooFar => "distance too far back",
            Self::Adler32 => "Adler-32 mismatch",
            Self::BadWindow => "window does not fit the stream",
        }
    }
}

impl fmt::Display for InflateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
