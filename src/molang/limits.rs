//! The Molang bounds, taken from [`BbmodelLimits`] so `--limit` and
//! `with_override` set them like every other .bbmodel limit.

use crate::limits::BbmodelLimits;

/// The four Molang limits of a [`BbmodelLimits`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MolangLimits {
    /// Characters of one expression (`maxMolangChars`).
    pub max_chars: u64,
    /// Nesting depth of sub-expressions (`maxMolangDepth`).
    pub max_depth: u64,
    /// `;`-separated statements of one expression (`maxMolangStatements`).
    pub max_statements: u64,
    /// Steps of one evaluation (`maxMolangSteps`).
    pub max_steps: u64,
}

impl MolangLimits {
    /// The Molang limits of `limits`.
    pub const fn of(limits: &BbmodelLimits) -> Self {
        Self {
            max_chars: limits.max_molang_chars,
            max_depth: limits.max_molang_depth,
            max_statements: limits.max_molang_statements,
            max_steps: limits.max_molang_steps,
        }
    }
}

impl MolangLimits {
    /// The four limits in field order, as a scene stores them.
    pub const fn to_words(self) -> [u64; 4] {
        [
            self.max_chars,
            self.max_depth,
            self.max_statements,
            self.max_steps,
        ]
    }

    /// The limits [`MolangLimits::to_words`] stored.
    pub const fn from_words(w: [u64; 4]) -> Self {
        Self {
            max_chars: w[0],
            max_depth: w[1],
            max_statements: w[2],
            max_steps: w[3],
        }
    }
}

impl Default for MolangLimits {
    fn default() -> Self {
        Self::of(&BbmodelLimits::DEFAULT)
    }
}
