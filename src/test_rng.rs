//! The one pseudo-random generator the unit tests share (xorshift64), so
//! randomized tests are reproducible from their seed.

/// Xorshift64: fast, deterministic, good enough to spread test inputs.
pub(crate) struct XorShift(pub(crate) u64);

impl XorShift {
    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `m`.
    pub(crate) fn below(&mut self, m: u64) -> u64 {
        self.next() % m
    }
}
