//! Molang, as Blockbench plays it: keyframe values such as
//! `math.sin(query.anim_time * 90) * 10`.
//!
//! Blockbench evaluates Molang with molangjs (1.7.0, the version its
//! package lock pins); this module gives the value molangjs gives, for
//! well-formed and malformed text alike (molangjs never fails: what it
//! cannot read is 0), without a heap:
//!
//! 1. [`text_len`] and [`prepare`]: the expression lowercased and its
//!    whitespace removed (molangjs reads that) into caller bytes;
//! 2. [`measure`] and [`compile`]: the nodes, exactly as many as `measure`
//!    says, into a caller `&mut [Node]`, the compiler's open levels in a
//!    caller [`Work`] (so its stack use does not grow with nesting);
//! 3. [`Program::eval`] at each sample, given the [`Times`], the
//!    [`Variables`] table and the project's [`Placeholders`].
//!
//! [`check`] reports what Blockbench's own syntax check flags, with its
//! byte offset, for a warning; the expression still plays. Limits
//! (`maxMolangChars`, `maxMolangDepth`, `maxMolangStatements`,
//! `maxMolangSteps` in [`crate::BbmodelLimits`]) are the only errors;
//! docs/bbmodel.md, "Molang", lists every rule and what differs.

mod call_key;
mod check;
mod compile;
mod error;
mod eval;
mod jsmath;
mod limits;
mod node;
mod placeholders;
mod program;
mod run;
mod shape;
mod text;
mod work;

#[cfg(test)]
mod tests;

pub use check::check;
pub use error::{MolangError, MolangErrorCode};
pub use eval::{Context, Slot, Times, Variables};
pub use jsmath::Rng;
pub use limits::MolangLimits;
pub use node::{Builtin, Easing, MolangNode, NONE, Name, Node, Op, Prefix, Program, ProgramRecord};
pub use placeholders::{
    Placeholder, PlaceholderPlan, Placeholders, PreparedPlaceholders, Value, compile_placeholders,
    measure_placeholders, plan_placeholders, prepare_placeholders,
};
pub use program::{Source, compile, measure, normalize_into, prepare, text_len};
pub use run::{EVAL_LEVELS, EVAL_VALUES, EvalStack, NESTED_LEVELS};
pub use work::{MAX_OPEN_LEVELS, Open, Work};
