//! A project's `animation_variable_placeholders`, as Blockbench applies
//! them: `processVariablePlaceholderText` (`js/animations/animation_mode.js`)
//! reads each line `key = value` (split at the first `=` followed by
//! text), deletes whitespace and `;` from the key and expands `v.` `q.`
//! `t.` `c.`; a later line with the same key wins. `variableHandler`
//! (`js/animations/molang.js`) answers a name no variable holds: a
//! `slider(`, `toggle(` or `impulse(` value reads its button (0 here:
//! there are no buttons), any other value is parsed as Molang in the
//! asking expression's context. Keys keep their case, so a key with a
//! capital letter never matches (expressions are lowercased).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets into the placeholder text and its buffer, each below a length computed from the same lines"
)]

use super::error::{MolangError, MolangErrorCode};
use super::limits::MolangLimits;
use super::node::{Name, Node, Program};
use super::program::{self, Source};
use super::text::{OTHER, is_js_space, normalized_len};

/// What a placeholder line gives.
#[derive(Clone, Copy, Debug)]
pub enum Value<'a> {
    /// A `slider(`, `toggle(` or `impulse(` button: 0.
    Control,
    /// Molang, evaluated where the name is read.
    Expression(Program<'a>),
}

/// One placeholder line.
#[derive(Clone, Copy, Debug)]
pub struct Placeholder<'a> {
    key: Name,
    key_text: &'a [u8],
    pub(crate) value: Value<'a>,
}

impl Placeholder<'_> {
    /// The key: its prefix's expansion and the written rest.
    pub(crate) fn key_parts(&self) -> (&'static [u8], &[u8]) {
        self.key.parts(self.key_text)
    }

    /// An unused entry, to fill an array with.
    pub const EMPTY: Placeholder<'static> = Placeholder {
        key: Name {
            start: 0,
            end: 0,
            prefix: super::node::Prefix::None,
        },
        key_text: &[],
        value: Value::Control,
    };
}

/// The compiled placeholder lines.
#[derive(Clone, Copy, Debug)]
pub struct Placeholders<'p, 'a> {
    entries: &'p [Placeholder<'a>],
}

impl<'p, 'a> Placeholders<'p, 'a> {
    /// No placeholders.
    pub const EMPTY: Placeholders<'static, 'static> = Placeholders { entries: &[] };

    /// The line that defines `name` (the last one with its key).
    pub(crate) fn find(&self, name: &Name, text: &[u8]) -> Option<&'p Placeholder<'a>> {
        self.entries
            .iter()
            .rev()
            .find(|e| e.key.same(e.key_text, name, text))
    }

    /// Every line, last first (a later line wins).
    pub(crate) fn latest_first(&self) -> impl Iterator<Item = &'p Placeholder<'a>> {
        self.entries.iter().rev()
    }

    /// How many lines define something.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether none does.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// One line's key and value text, when it defines something.
fn split_line(line: &str) -> Option<(&str, &str)> {
    let eq = line.find('=')?;
    let key = line.get(..eq)?;
    let after = line.get(eq + 1..)?;
    let terminator = |c: char| matches!(c, '\r' | '\u{2028}' | '\u{2029}');
    let stripped = after.trim_start_matches(is_js_space);
    let value = stripped.split(terminator).next().unwrap_or("");
    if !value.is_empty() {
        return Some((key, value.trim_matches(is_js_space)));
    }
    let lead = after.get(..after.len() - stripped.len()).unwrap_or("");
    lead.chars().any(|c| !terminator(c)).then_some((key, ""))
}

/// The key's bytes: whitespace and `;` deleted, case kept, a non-ASCII
/// character one [`OTHER`] byte per UTF-16 unit.
fn key_bytes(key: &str) -> impl Iterator<Item = u8> + '_ {
    key.chars()
        .filter(|c| !is_js_space(*c) && *c != ';')
        .flat_map(|c| {
            let (b, n) = if c.is_ascii() {
                (c as u8, 1)
            } else {
                (OTHER, c.len_utf16())
            };
            core::iter::repeat_n(b, n)
        })
}

fn lines(text: &str) -> impl Iterator<Item = (usize, &str, &str)> {
    text.split('\n')
        .scan(0usize, |at, line| {
            let start = *at;
            *at += line.len() + 1;
            Some((start, line))
        })
        .filter_map(|(start, line)| split_line(line).map(|(k, v)| (start, k, v)))
}

fn is_control(value: &str) -> bool {
    ["slider(", "toggle(", "impulse("]
        .iter()
        .any(|p| value.starts_with(p))
}

/// Entries and text bytes the placeholder text needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaceholderPlan {
    /// Lines that define something.
    pub entries: usize,
    /// Bytes of keys and normalized values.
    pub text: usize,
}

/// Counts what `text` (a project's `animation_variable_placeholders`) needs.
pub fn plan_placeholders(text: &str) -> PlaceholderPlan {
    let mut plan = PlaceholderPlan {
        entries: 0,
        text: 0,
    };
    for (_, key, value) in lines(text) {
        plan.entries += 1;
        plan.text += key_bytes(key).count() + normalized_len(value);
    }
    plan
}

/// The placeholder text with its keys and values laid out in caller bytes.
#[derive(Debug)]
pub struct PreparedPlaceholders<'s, 't> {
    original: &'s str,
    text: &'t [u8],
}

/// Writes keys and normalized values into `buf` ([`PlaceholderPlan::text`]
/// bytes), checking each value against `maxMolangChars`.
pub fn prepare_placeholders<'s, 't>(
    text: &'s str,
    buf: &'t mut [u8],
    limits: &MolangLimits,
) -> Result<PreparedPlaceholders<'s, 't>, MolangError> {
    if buf.len() != plan_placeholders(text).text {
        return Err(MolangError::new(
            MolangErrorCode::WrongPlan,
            0,
            "a text buffer of the planned length",
        ));
    }
    let mut at = 0;
    for (_, key, value) in lines(text) {
        for b in key_bytes(key) {
            if let Some(slot) = buf.get_mut(at) {
                *slot = b;
            }
            at += 1;
        }
        let n = normalized_len(value);
        let dest = buf.get_mut(at..at + n).unwrap_or(&mut []);
        // `value` lies inside `text`: its offset there is the pointers' difference.
        let value_at = (value.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
        program::prepare(value, dest, limits).map_err(|mut e| {
            e.offset = e.offset.saturating_add(value_at);
            e
        })?;
        at += n;
    }
    Ok(PreparedPlaceholders {
        original: text,
        text: buf,
    })
}

impl<'t> PreparedPlaceholders<'_, 't> {
    /// Each entry: key range, value source.
    fn each(
        &self,
        mut f: impl FnMut(Name, Source<'_, 't>, bool) -> Result<(), MolangError>,
    ) -> Result<(), MolangError> {
        let mut at = 0;
        for (_, key, value) in lines(self.original) {
            let k = key_bytes(key).count();
            let key_start = at;
            at += k;
            let n = normalized_len(value);
            let source = Source {
                original: value,
                text: self.text.get(at..at + n).unwrap_or(&[]),
            };
            at += n;
            let key_name = super::compile::name_of(self.text, key_start, key_start + k);
            f(key_name, source, is_control(value))?;
        }
        Ok(())
    }
}

/// Nodes [`compile_placeholders`] needs.
pub fn measure_placeholders(
    prepared: &PreparedPlaceholders<'_, '_>,
    limits: &MolangLimits,
) -> Result<usize, MolangError> {
    let mut nodes = 0usize;
    prepared.each(|_, source, control| {
        if !control {
            nodes += program::measure(&source, limits)?;
        }
        Ok(())
    })?;
    Ok(nodes)
}

/// Compiles every placeholder line into `entries` ([`PlaceholderPlan::entries`])
/// and `nodes` ([`measure_placeholders`]).
pub fn compile_placeholders<'p, 'a>(
    prepared: &PreparedPlaceholders<'_, 'a>,
    entries: &'p mut [Placeholder<'a>],
    nodes: &'a mut [Node],
    limits: &MolangLimits,
) -> Result<Placeholders<'p, 'a>, MolangError> {
    let mut rest = nodes;
    let mut count = 0;
    let key_text = prepared.text;
    prepared.each(|key, source, control| {
        let value = if control {
            Value::Control
        } else {
            let n = program::measure(&source, limits)?;
            let taken = core::mem::take(&mut rest);
            if taken.len() < n {
                return Err(MolangError::new(
                    MolangErrorCode::WrongPlan,
                    0,
                    "the planned node count",
                ));
            }
            let (mine, others) = taken.split_at_mut(n);
            rest = others;
            Value::Expression(program::compile(&source, mine, limits)?)
        };
        let slot = entries.get_mut(count).ok_or(MolangError::new(
            MolangErrorCode::WrongPlan,
            0,
            "the planned entry count",
        ))?;
        *slot = Placeholder {
            key,
            key_text,
            value,
        };
        count += 1;
        Ok(())
    })?;
    let entries: &'p [Placeholder<'a>] = entries;
    Ok(Placeholders {
        entries: entries.get(..count).unwrap_or(&[]),
    })
}
