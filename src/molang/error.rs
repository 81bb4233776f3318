//! The typed result of Molang that scenedec cannot or will not play: a code,
//! the byte offset in the expression it concerns, and what was expected.
//! Below every other file of the module, which all report through it.

use core::fmt;

/// What went wrong with one expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MolangErrorCode {
    /// Longer than `max_molang_chars`.
    TooLong,
    /// Sub-expressions nested deeper than `max_molang_depth` (also counts
    /// placeholder expressions evaluated inside one another).
    TooDeep,
    /// More `;`-separated statements than `max_molang_statements`.
    TooManyStatements,
    /// One evaluation took more than `max_molang_steps` steps (loops,
    /// `math.die_roll`).
    TooManySteps,
    /// An assignment found the caller's variable table full.
    TooManyVariables,
    /// The node array or text buffer given to `compile` is not the size
    /// `measure` planned.
    WrongPlan,
    /// Text Blockbench's own Molang syntax check flags (`molang_syntax`);
    /// it still plays, as molangjs evaluates it.
    Syntax,
}

impl MolangErrorCode {
    /// The SCREAMING_CASE name used in warnings.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::TooLong => "MOLANG_TOO_LONG",
            Self::TooDeep => "MOLANG_TOO_DEEP",
            Self::TooManyStatements => "MOLANG_TOO_MANY_STATEMENTS",
            Self::TooManySteps => "MOLANG_TOO_MANY_STEPS",
            Self::TooManyVariables => "MOLANG_TOO_MANY_VARIABLES",
            Self::WrongPlan => "MOLANG_WRONG_PLAN",
            Self::Syntax => "MOLANG_SYNTAX",
        }
    }
}

/// One problem with one expression: what, where (a byte offset into the
/// expression as written), and what was expected there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MolangError {
    /// What went wrong.
    pub code: MolangErrorCode,
    /// Byte offset into the expression's text as written.
    pub offset: usize,
    /// What was expected there, in words.
    pub expected: &'static str,
}

impl MolangError {
    pub(crate) const fn new(code: MolangErrorCode, offset: usize, expected: &'static str) -> Self {
        Self {
            code,
            offset,
            expected,
        }
    }
}

impl fmt::Display for MolangError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at byte {}: expected {}",
            self.code.as_str(),
            self.offset,
            self.expected
        )
    }
}
