//! The fill pass over animations: every animation becomes a clip, every
//! bone animator that names a group its channels (spec Features:
//! Animations; Conventions 12 and 13).
//!
//! Each animator is read once (`animator.rs`): its group is found from its
//! key, its keyframes are read, checked and staged as they come, and once
//! its object ends (Blockbench may write `type` after `keyframes`) it is
//! written as channels or only warns. A bone animator with keyframes
//! claims its group; a later one for the same group marks the earlier
//! one's channels dead (spec: "a later animator for the same group
//! replaces an earlier one"), and the clip is compacted at its end.
//!
//! Blockbench plays the last `animators` when it is truthy, else the last
//! `bones`. The common file has one of them and is read in one pass; a file
//! with more (or a falsy `animators` before `bones`) is read again on a cold
//! path that checks every object and plays the chosen one.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use super::count::{MolangCount, blend_text, check_animator};
use super::keyframes::within;
use super::lookup::{Groups, sort_tables};
use super::molang::MolangTally;
use super::state::{
    AnimationArrays, AnimationScratch, Context, DEAD, Fill, Staging, Written, node_name,
};
use crate::bbmodel::document::Document;
use crate::bbmodel::document::text_pool::Pool;
use crate::bbmodel::document::value::truthy;
use crate::bbmodel::document::value::{
    ANIMATIONS, Cursor, Path, expect_object, known_key, type_name,
};
use crate::bbmodel::layout::{index32, mismatch};
use crate::bbmodel::project::structure::for_each_value;
use crate::error::{Error, FixedText, Location, Quote, Warning, WarningCode, Warnings};
use crate::json::{JsonStr, Token, TokenKind};
use crate::scene::{AnimationRecord, ChannelRecord, LoopMode, NodeRecord, TextRef};

/// Fills the animation arrays; `uuids_written` entries of
/// `scratch.uuids` were filled by the outliner walk.
#[inline(never)]
pub(in crate::bbmodel) fn fill_animations<'a>(
    ctx: &Context<'_, 'a>,
    out: AnimationArrays<'_>,
    scratch: AnimationScratch<'_>,
    uuids_written: usize,
    pool: &mut Pool<'_>,
    warnings: &mut Warnings,
) -> Result<(Written, MolangTally), Error> {
    let doc = ctx.doc;
    let AnimationScratch {
        uuids,
        names,
        claims,
        staged,
        sources,
        order,
    } = scratch;
    let uuids = uuids.get_mut(..uuids_written).ok_or_else(mismatch)?;
    let nodes = ctx.nodes.len().min(names.len());
    let names = names.get_mut(..nodes).ok_or_else(mismatch)?;
    {
        let bytes: &[u8] = pool.bytes;
        let name_of = |n: &NodeRecord| node_name(doc, bytes, n.name);
        sort_tables(ctx.nodes, name_of, uuids, names);
    }
    let mut fill = Fill {
        ctx,
        out,
        staging: Staging {
            claims,
            staged,
            sources,
            order,
            generation: 0,
        },
        written: Written::default(),
        warnings,
        subject: FixedText::new(),
        blend_weight: None,
    };
    for_each_value(doc, doc.animations, |i, first, c| {
        let path = ANIMATIONS.with_index(i);
        let groups = Groups {
            uuids: &*uuids,
            names: &*names,
        };
        let (record, name) = fill.animation(&first, c, &path, &groups, &*pool.bytes)?;
        let name = match name {
            Some(n) => pool.text(doc.bytes, &n)?,
            None => TextRef::EMPTY,
        };
        let slot = fill.out.animations.get_mut(fill.written.animations);
        *slot.ok_or_else(mismatch)? = AnimationRecord { name, ..record };
        // Compiled once the clip's animators are, which a cold read may
        // compile again from the clip's start.
        let weight = match fill.blend_weight.take() {
            Some(text) => fill.out.molang.compile(&text)?,
            None => crate::molang::NONE,
        };
        let slot = fill.out.clip_blend_weights.get_mut(fill.written.animations);
        *slot.ok_or_else(mismatch)? = weight;
        fill.written.animations += 1;
        Ok(())
    })?;
    Ok((fill.written, fill.out.molang.written))
}

/// Which `animators` or `bones` object a clip plays.
#[derive(Clone, Copy, Debug, Default)]
struct Choice {
    /// The last `animators` value was truthy (then it is played, if an
    /// object).
    animators_truthy: bool,
    /// Where the last `animators` and `bones` objects start.
    animators: Option<usize>,
    bones: Option<usize>,
    /// `animators` or `bones` keys seen.
    keys: usize,
    /// The object read on the way (the first, when it was one to play).
    read: Option<usize>,
}

impl Choice {
    /// The object Blockbench plays: `data.bones && !data.animators`.
    fn played(&self) -> Option<(usize, &'static str)> {
        if self.animators_truthy {
            self.animators.map(|at| (at, "animators"))
        } else {
            self.bones.map(|at| (at, "bones"))
        }
    }
}

impl<'a> Fill<'_, '_, 'a> {
    /// Reads one animation (first token `first`): its record, without the
    /// name placed, and the name.
    /// Checks every `animators`/`bones` object of the clip whose object
    /// starts at `start`, then plays the `played` one (cold: a clip with
    /// both, or whose played object is not its first key; its cursor and
    /// errors stay out of `animation`'s frame).
    #[cold]
    #[inline(never)]
    fn play_chosen(
        &mut self,
        start: usize,
        path: &Path<'_>,
        played: Option<(usize, &'static str)>,
        groups: &Groups<'_>,
        pool: &[u8],
    ) -> Result<(), Error> {
        check_all_animators(self.ctx.doc, start, path)?;
        if let Some((at, key)) = played {
            let mut again = self.ctx.doc.cursor(at);
            again.next()?;
            self.animators(&mut again, &path.with_key(key), groups, pool)?;
        }
        Ok(())
    }

    fn animation(
        &mut self,
        first: &Token<'a>,
        c: &mut Cursor<'a>,
        path: &Path<'_>,
        groups: &Groups<'_>,
        pool: &[u8],
    ) -> Result<(AnimationRecord, Option<JsonStr<'a>>), Error> {
        if first.kind != TokenKind::BeginObject {
            c.skip_rest(first)?;
            expect_object(first, path, "animation")?;
        }
        let first_channel = self.written.channels;
        let first_keyframe = self.written.keyframes;
        let first_molang = self.out.molang.written;
        self.staging.generation = self.staging.generation.wrapping_add(1);
        let (mut name, mut length, mut loop_mode) = (None, 0.0f64, LoopMode::Once);
        let mut choice = Choice::default();
        self.blend_weight = None;
        while let Some(key) = c.next_key()? {
            let k = known_key(&key, ANIMATION_KEYS);
            let v = c.next()?;
            let at = path.with_key(k.unwrap_or(""));
            match k {
                Some("name") => {
                    name = Some(c.string_of(&v, &at, self.ctx.limits.max_string_chars)?);
                }
                Some("length") => {
                    length = c.number_of(&v, &at)?;
                    within(length, &at)?;
                }
                Some("loop") => loop_mode = self.loop_mode(&v, &at),
                Some(k @ ("animators" | "bones")) => {
                    choice.keys += 1;
                    let object = (v.kind == TokenKind::BeginObject).then(|| c.offset_of(&v));
                    let animators = k == "animators";
                    if animators {
                        choice.animators_truthy = truthy(&v);
                        choice.animators = object;
                    } else {
                        choice.bones = object;
                    }
                    // The first key, an object: read it now (the common
                    // file has nothing else).
                    if let Some(start) = object
                        && choice.keys == 1
                    {
                        self.animators(c, &at, groups, pool)?;
                        choice.read = Some(start);
                        continue;
                    }
                }
                Some(field) => self.molang_field(field, &v, &at),
                None => {}
            }
            c.skip_rest(&v)?;
        }
        let played = choice.played();
        if choice.keys > 1 || played.map(|(at, _)| at) != choice.read {
            // Cold: drop what was read, check every object, play the chosen.
            self.written.channels = first_channel;
            self.written.keyframes = first_keyframe;
            self.out.molang.written = first_molang;
            self.staging.generation = self.staging.generation.wrapping_add(1);
            self.play_chosen(c.offset_of(first), path, played, groups, pool)?;
        }
        self.compact(first_channel, first_keyframe)?;
        let channel_count = self.written.channels - first_channel;
        // Spec: "length is the file's length when it is above 0, even with
        // keyframes past it …, else the time of the last keyframe".
        let length = if length > 0.0 {
            #[allow(clippy::cast_possible_truncation)]
            let length = length as f32;
            length
        } else {
            self.out
                .keyframes
                .get(first_keyframe..self.written.keyframes)
                .unwrap_or_default()
                .iter()
                .fold(0.0f32, |last, k| last.max(k.time))
        };
        let record = AnimationRecord {
            name: TextRef::EMPTY,
            length,
            loop_mode: loop_mode as u32,
            first_channel: index32(first_channel)?,
            channel_count: index32(channel_count)?,
        };
        Ok((record, name))
    }

    /// Reads every animator of an object whose `{` was just read.
    fn animators(
        &mut self,
        c: &mut Cursor<'a>,
        path: &Path<'_>,
        groups: &Groups<'_>,
        pool: &[u8],
    ) -> Result<(), Error> {
        while let Some(key) = c.next_key()? {
            let v = c.next()?;
            self.animator(c, &key, &v, path, groups, pool)?;
        }
        Ok(())
    }

    /// `loop`: once, hold or loop; anything else plays once and warns
    /// (spec Warnings: "an unknown loop (played once)").
    fn loop_mode(&mut self, v: &Token<'_>, at: &Path<'_>) -> LoopMode {
        match v.kind {
            TokenKind::String(s) if s.eq_str("once") => LoopMode::Once,
            TokenKind::String(s) if s.eq_str("hold") => LoopMode::Hold,
            TokenKind::String(s) if s.eq_str("loop") => LoopMode::Loop,
            TokenKind::Null => LoopMode::Once,
            TokenKind::String(s) => {
                self.warn(
                    WarningCode::UnsupportedValue,
                    at,
                    format_args!("unknown loop mode {}: played once", Quote(s.raw_str())),
                );
                LoopMode::Once
            }
            _ => {
                self.warn(
                    WarningCode::UnsupportedValue,
                    at,
                    format_args!("loop mode is {}: played once", type_name(v)),
                );
                LoopMode::Once
            }
        }
    }

    /// anim_time_update, start_delay, loop_delay, blend_weight: Molang
    /// fields whose default is ""; anything else is played as unset
    /// (spec Warnings: "other than their defaults").
    fn molang_field(&mut self, name: &str, v: &Token<'a>, at: &Path<'_>) {
        // blend_weight plays (Blockbench `stackAnimations`: the clip's
        // values times clamp(parse(blend_weight), 0, ∞)) when it is text
        // without escapes, compiled once the clip is read.
        if name == "blend_weight"
            && let TokenKind::String(s) = v.kind
            && !s.has_escapes()
        {
            blend_text(v, &mut self.blend_weight);
            return;
        }
        let set = match v.kind {
            TokenKind::String(s) => s.decoded_len() > 0,
            TokenKind::Number(_) => true,
            _ => false,
        };
        // Each says why it is not played (issue 39: the UNSUPPORTED_*
        // warnings that remain give their reason).
        let why = match name {
            "blend_weight" => "a number or escaped text is not read for it",
            // Timeline.loop reads it between real-time frames (with the
            // wall clock's delta_time); a playhead set to a time, as
            // Blockbench's glTF export sets it, shows the clip without it.
            "anim_time_update" => {
                "Blockbench's Timeline.loop applies it only while playing in real time; a time set on the playhead, as its glTF export sets it, plays without it"
            }
            // start_delay, loop_delay: only Bedrock exports carry them.
            _ => "Blockbench's preview does not play it",
        };
        if set {
            self.warn(
                WarningCode::UnsupportedValue,
                at,
                format_args!("{name} is not played ({why}): played as if unset"),
            );
        }
    }

    /// Drops the channels a later animator replaced (marked dead) from the
    /// clip whose channels and keyframes start here, moving the others
    /// (and their keyframes) down in order.
    fn compact(&mut self, first_channel: usize, first_keyframe: usize) -> Result<(), Error> {
        let end = self.written.channels;
        let channels = self
            .out
            .channels
            .get_mut(first_channel..end)
            .ok_or_else(mismatch)?;
        if channels.iter().all(|ch| ch.node != DEAD) {
            return Ok(());
        }
        let (mut to_channel, mut to_keyframe) = (first_channel, first_keyframe);
        for i in first_channel..end {
            let channel = *self.out.channels.get(i).ok_or_else(mismatch)?;
            if channel.node == DEAD {
                continue;
            }
            let from = channel.first_keyframe as usize;
            let count = channel.keyframe_count as usize;
            let keyframes = &mut *self.out.keyframes;
            if from + count > keyframes.len() {
                return Err(mismatch());
            }
            keyframes.copy_within(from..from + count, to_keyframe);
            let sources = &mut *self.out.keyframe_sources;
            if from + count > sources.len() {
                return Err(mismatch());
            }
            sources.copy_within(from..from + count, to_keyframe);
            *self.out.channels.get_mut(to_channel).ok_or_else(mismatch)? = ChannelRecord {
                first_keyframe: index32(to_keyframe)?,
                ..channel
            };
            to_channel += 1;
            to_keyframe += count;
        }
        self.written.channels = to_channel;
        self.written.keyframes = to_keyframe;
        Ok(())
    }

    /// Out of line and cold: inlined, its `Warning` (about 360 bytes) sat
    /// in the frame of every reader that may warn, under the keyframe reads
    /// (issue 40).
    #[cold]
    #[inline(never)]
    pub(super) fn warn(
        &mut self,
        code: WarningCode,
        at: &Path<'_>,
        args: core::fmt::Arguments<'_>,
    ) {
        let warning = Warning::new(code, Location::Json(at.render()), args);
        self.warnings
            .push(warning.on(format_args!("{}", self.subject)));
    }
}

/// Checks every `animators` and `bones` object of the animation at `at`,
/// as the count pass checks them (the cold path: more than one, so some
/// are not played, and every keyframe is checked, played or not).
#[cold]
fn check_all_animators(doc: &Document<'_>, at: usize, path: &Path<'_>) -> Result<(), Error> {
    let mut c = doc.cursor(at);
    c.next()?;
    while let Some(key) = c.next_key()? {
        let v = c.next()?;
        if let Some(k) = known_key(&key, &["animators", "bones"])
            && v.kind == TokenKind::BeginObject
        {
            let at = path.with_key(k);
            while let Some(animator_key) = c.next_key()? {
                let animator = c.next()?;
                let path = at.with_raw_key(animator_key);
                check_animator(&mut c, &animator, &path, &mut MolangCount::off())?;
            }
            continue;
        }
        c.skip_rest(&v)?;
    }
    Ok(())
}

/// The animation keys the fill reads.
const ANIMATION_KEYS: &[&str] = &[
    "name",
    "length",
    "loop",
    "animators",
    "bones",
    "anim_time_update",
    "start_delay",
    "loop_delay",
    "blend_weight",
];
