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
use super::node::{MolangNode, Name, Program, ProgramRecord, prefix_code, prefix_of};
use super::program::{self, Source};
use super::text::{OTHER, is_js_space, normalized_len};
use super::work::Work;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

/// What a placeholder line gives.
#[derive(Clone, Copy, Debug)]
pub enum Value<'a> {
    /// A `slider(`, `toggle(` or `impulse(` button: 0.
    Control,
    /// Molang, evaluated where the name is read.
    Expression(Program<'a>),
}

/// One placeholder line, as an arena holds it: its key (a span of the
/// placeholders' text) and its value's program.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable,
)]
#[repr(C)]
pub struct Placeholder {
    /// Where the key starts in the text.
    pub key_start: u32,
    /// Where it ends.
    pub key_end: u32,
    /// The key's short prefix (a code) and [`Placeholder::CONTROL`].
    pub flags: u32,
    /// The value, compiled (empty for a control).
    pub program: ProgramRecord,
}

impl Placeholder {
    /// The value is a `slider(`, `toggle(` or `impulse(` button.
    pub const CONTROL: u32 = 1 << 8;

    /// An unused entry, to fill an array with.
    pub const EMPTY: Placeholder = Placeholder {
        key_start: 0,
        key_end: 0,
        flags: 0,
        program: ProgramRecord::EMPTY,
    };

    fn key(&self) -> Name {
        Name {
            start: self.key_start,
            end: self.key_end,
            prefix: prefix_of(self.flags & 0xFF),
        }
    }

    /// The same entry with its program's nodes and its text (key and
    /// value) moved on by the given counts.
    pub fn moved(self, nodes: usize, text: usize) -> Self {
        let by = u32::try_from(text).unwrap_or(u32::MAX);
        Self {
            key_start: self.key_start.saturating_add(by),
            key_end: self.key_end.saturating_add(by),
            program: self.program.moved(nodes, text),
            ..self
        }
    }
}

/// The compiled placeholder lines: the entries, and the nodes and text
/// their programs and keys lie in.
#[derive(Clone, Copy, Debug)]
pub struct Placeholders<'p, 'a> {
    entries: &'p [Placeholder],
    nodes: &'a [MolangNode],
    text: &'a [u8],
}

/// One line as the evaluator reads it.
#[derive(Clone, Copy)]
pub(crate) struct Entry<'a> {
    key: Name,
    text: &'a [u8],
    pub(crate) value: Value<'a>,
}

impl Entry<'_> {
    /// The key: its prefix's expansion and the written rest.
    pub(crate) fn key_parts(&self) -> (&'static [u8], &[u8]) {
        self.key.parts(self.text)
    }
}

impl<'p, 'a> Placeholders<'p, 'a> {
    /// No placeholders.
    pub const EMPTY: Placeholders<'static, 'static> = Placeholders {
        entries: &[],
        nodes: &[],
        text: &[],
    };

    /// The placeholders `entries` describe, their programs' nodes and
    /// their text in `nodes` and `text` (a scene's `molang_nodes` and
    /// `molang_text`).
    pub fn of_records(entries: &'p [Placeholder], nodes: &'a [MolangNode], text: &'a [u8]) -> Self {
        Self {
            entries,
            nodes,
            text,
        }
    }

    fn entry(&self, e: &Placeholder) -> Entry<'a> {
        let value = if e.flags & Placeholder::CONTROL != 0 {
            Value::Control
        } else {
            Value::Expression(Program::of_record(&e.program, self.nodes, self.text))
        };
        Entry {
            key: e.key(),
            text: self.text,
            value,
        }
    }

    /// The index of the line that defines `name` (the last one with its key).
    pub(crate) fn find_index(&self, name: &Name, text: &[u8]) -> Option<usize> {
        self.entries
            .iter()
            .rposition(|e| e.key().same(self.text, name, text))
    }

    /// Line `index`.
    pub(crate) fn entry_at(&self, index: usize) -> Option<Entry<'a>> {
        self.entries.get(index).map(|e| self.entry(e))
    }

    /// Every line with its index, last first (a later line wins).
    pub(crate) fn latest_first_indexed(&self) -> impl Iterator<Item = (usize, Entry<'a>)> + '_ {
        self.entries
            .iter()
            .enumerate()
            .rev()
            .map(|(i, e)| (i, self.entry(e)))
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
        mut f: impl FnMut(Name, Source<'_, 't>, bool, usize) -> Result<(), MolangError>,
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
            let value_at = at;
            at += n;
            let key_name = super::shape::name_of(self.text, key_start, key_start + k);
            f(key_name, source, is_control(value), value_at)?;
        }
        Ok(())
    }
}

/// Nodes [`compile_placeholders`] needs.
pub fn measure_placeholders(
    prepared: &PreparedPlaceholders<'_, '_>,
    limits: &MolangLimits,
    work: &mut Work,
) -> Result<usize, MolangError> {
    let mut nodes = 0usize;
    prepared.each(|_, source, control, _| {
        if !control {
            nodes += program::measure(&source, limits, work)?;
        }
        Ok(())
    })?;
    Ok(nodes)
}

/// Compiles every placeholder line into `entries` ([`PlaceholderPlan::entries`])
/// and `nodes` ([`measure_placeholders`]); the entries' spans count from
/// the start of `nodes` and of the prepared text.
pub fn compile_placeholders<'p, 'a>(
    prepared: &PreparedPlaceholders<'_, 'a>,
    entries: &'p mut [Placeholder],
    nodes: &'a mut [MolangNode],
    limits: &MolangLimits,
    work: &mut Work,
) -> Result<Placeholders<'p, 'a>, MolangError> {
    let mut count = 0;
    let mut used = 0usize;
    let key_text = prepared.text;
    prepared.each(|key, source, control, text_at| {
        let program = if control {
            ProgramRecord::EMPTY
        } else {
            let n = program::measure(&source, limits, work)?;
            let mine = nodes.get_mut(used..used + n).ok_or(MolangError::new(
                MolangErrorCode::WrongPlan,
                0,
                "the planned node count",
            ))?;
            let record = program::compile(&source, mine, limits, work)?.record(used, text_at);
            used += n;
            record
        };
        let slot = entries.get_mut(count).ok_or(MolangError::new(
            MolangErrorCode::WrongPlan,
            0,
            "the planned entry count",
        ))?;
        *slot = Placeholder {
            key_start: key.start,
            key_end: key.end,
            flags: prefix_code(key.prefix) | if control { Placeholder::CONTROL } else { 0 },
            program,
        };
        count += 1;
        Ok(())
    })?;
    let entries: &'p [Placeholder] = entries;
    let nodes: &'a [MolangNode] = nodes;
    Ok(Placeholders {
        entries: entries.get(..count).unwrap_or(&[]),
        nodes,
        text: key_text,
    })
}
