//! One animator, read once: its group from its key, its keyframes read,
//! checked and staged, then (once its object ends and its `type` is known)
//! written as one channel per target, sorted by time (stably), or only
//! reported.
//!
//! Warnings about keyframes wait for the end of the object, so that an
//! animator that turns out not to play (another element's, a replaced
//! array) does not report them; they come once per channel (once per
//! animator for an unknown channel), at the first keyframe that shows them,
//! in file order.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

use super::easing::plays_easing;
use super::keyframes::{Played, RawKeyframe, read_keyframe};
use super::lookup::Groups;
use super::state::{Claim, DEAD, Fill, SortKey, node_name};
use crate::bbmodel::document::formats::ModelFormat;
use crate::bbmodel::document::value::truthy;
use crate::bbmodel::document::value::{Cursor, Path, invalid, known_key, type_name};
use crate::bbmodel::layout::{index32, mismatch, offset};
use crate::error::{Error, FixedText, Quote, WarningCode};
use crate::json::{JsonStr, Token, TokenKind};
use crate::molang::MolangError;
use crate::scene::{ChannelFlags, ChannelRecord, ChannelTarget, KeyframeSource, NodeRecord};
use core::fmt::Write as _;

/// Keyframe warnings waiting for the end of the animator: the index of the
/// first keyframe showing each.
#[derive(Clone, Copy, Debug, Default)]
struct Deferred {
    unknown_channel: Option<usize>,
    /// Per target: Molang, an easing the plugin cannot play, unknown
    /// interpolation, negative scale, an easing argument it cannot use.
    per_target: [[Option<usize>; 5]; 3],
    /// Per target, what the syntax check found in the first bad Molang.
    molang: [Option<MolangError>; 3],
}

const MOLANG: usize = 0;
const UNPLAYABLE_EASING: usize = 1;
const UNKNOWN_INTERPOLATION: usize = 2;
const NEGATIVE_SCALE: usize = 3;
const BAD_EASING_ARG: usize = 4;

impl Deferred {
    fn note(&mut self, target: ChannelTarget, which: usize, index: usize) {
        if let Some(slot) = self
            .per_target
            .get_mut(target as usize)
            .and_then(|row| row.get_mut(which))
        {
            slot.get_or_insert(index);
        }
    }

    fn note_molang(&mut self, target: ChannelTarget, error: MolangError) {
        if let Some(slot) = self.molang.get_mut(target as usize) {
            slot.get_or_insert(error);
        }
    }
}

/// What reading an animator found.
#[derive(Clone, Copy, Debug, Default)]
struct Read {
    /// Keyframes in the array it plays (its last), Molang ones included.
    played: usize,
    /// Of them, staged (playable).
    staged: usize,
    /// The animator is that array (before 3.7).
    array: bool,
    other_element: bool,
    rotation_global: bool,
    quaternion: bool,
    /// A rotation keyframe was staged.
    rotation: bool,
    deferred: Deferred,
}

/// The bits of [`ChannelFlags`] a channel of `target` carries: rotation all,
/// scale [`ChannelFlags::HYTALE`] (the plugin's scale) but no quaternion.
const fn target_flags(target: u32) -> u32 {
    const EVERY: u32 = ChannelFlags::GLOBAL_ROTATION | ChannelFlags::LOOP_WRAP;
    if target == ChannelTarget::Rotation as u32 {
        EVERY | ChannelFlags::QUATERNION | ChannelFlags::HYTALE
    } else if target == ChannelTarget::Scale as u32 {
        EVERY | ChannelFlags::HYTALE
    } else {
        EVERY
    }
}

/// The [`ChannelFlags`] of an animator's channels in `format`.
///
/// Quaternions: Blockbench's `interpolate` uses them when
/// `Format.per_animator_rotation_interpolation` (the free format,
/// `js/formats/generic.ts`) and the animator's `quaternion_interpolation`
/// say so, or always when `Format.quaternion_interpolation` (the Hytale
/// plugin's `hytale_character` and `hytale_prop`, its `src/formats.ts`,
/// which also set `animation_loop_wrapping`). `rotation_global`: applied by
/// `displayRotation`, which the Hytale plugin replaces whenever the
/// animator has a rotation value, so there only an animator without one
/// keeps it.
fn channel_flags(read: &Read, format: ModelFormat) -> u32 {
    let hytale = matches!(
        format,
        ModelFormat::HytaleCharacter | ModelFormat::HytaleProp
    );
    let mut flags = 0;
    if read.rotation_global && !(hytale && read.rotation) {
        flags |= ChannelFlags::GLOBAL_ROTATION;
    }
    if hytale {
        flags |= ChannelFlags::QUATERNION | ChannelFlags::HYTALE | ChannelFlags::LOOP_WRAP;
    } else if read.quaternion && format == ModelFormat::Free {
        flags |= ChannelFlags::QUATERNION;
    }
    flags
}

impl<'a> Fill<'_, '_, 'a> {
    /// Reads the animator under `key` (first token `v`) of the object at
    /// `animators`; its warnings name the bone it animates.
    pub(super) fn animator(
        &mut self,
        c: &mut Cursor<'a>,
        key: &JsonStr<'a>,
        v: &Token<'a>,
        animators: &Path<'_>,
        groups: &Groups<'_>,
        pool: &[u8],
    ) -> Result<(), Error> {
        let read = self.animator_body(c, key, v, animators, groups, pool);
        self.subject = FixedText::new();
        read
    }

    fn animator_body(
        &mut self,
        c: &mut Cursor<'a>,
        key: &JsonStr<'a>,
        v: &Token<'a>,
        animators: &Path<'_>,
        groups: &Groups<'_>,
        pool: &[u8],
    ) -> Result<(), Error> {
        let doc = self.ctx.doc;
        let path = animators.with_raw_key(*key);
        let effects = key.eq_str("effects");
        let name_of = |n: &NodeRecord| node_name(doc, pool, n.name);
        let node = if effects {
            None
        } else {
            groups.find(doc, self.ctx.nodes, name_of, key)
        };
        // Issue 35: the bone's name (the group the uuid resolves to), not the uuid.
        self.subject = FixedText::new();
        let bone = node.and_then(|n| self.ctx.nodes.get(offset(u64::from(n))));
        let _ = match bone {
            Some(n) => write!(self.subject, "bone {}", Quote(name_of(n))),
            None if effects => write!(self.subject, "effects"),
            None => write!(self.subject, "animator {}", Quote(key.raw_str())),
        };
        let mut read = Read::default();
        self.read(c, v, &path, &mut read)?;
        if effects || read.other_element {
            if read.played > 0 {
                let what = if effects {
                    "effect animator (sound, particle, timeline) not played"
                } else {
                    "animator of an element that is no group: not played"
                };
                self.warn(
                    WarningCode::UnsupportedChannel,
                    &path,
                    format_args!("{what}"),
                );
            }
            return Ok(());
        }
        // Spec: "An animator without keyframes is skipped".
        if read.played == 0 {
            return Ok(());
        }
        let Some(node) = node else {
            self.warn(
                WarningCode::UnknownReference,
                &path,
                format_args!(
                    "animator names {}, which no group has",
                    Quote(key.raw_str())
                ),
            );
            return Ok(());
        };
        let flags = channel_flags(&read, doc.format);
        let keyframes = if read.array {
            path
        } else {
            path.with_key("keyframes")
        };
        self.report(&read.deferred, &keyframes);
        // Spec: "a later animator for the same group replaces an earlier one".
        let generation = self.staging.generation;
        let claim = self
            .staging
            .claims
            .get(offset(u64::from(node)))
            .copied()
            .ok_or_else(mismatch)?;
        if claim.generation == generation {
            let first = claim.first_channel as usize;
            let dead = first..first + claim.channel_count as usize;
            for channel in self.out.channels.get_mut(dead).ok_or_else(mismatch)? {
                channel.node = DEAD;
            }
        }
        let first_channel = self.written.channels;
        self.write_channels(node, read.staged, flags)?;
        let slot = self.staging.claims.get_mut(offset(u64::from(node)));
        *slot.ok_or_else(mismatch)? = Claim {
            generation,
            first_channel: index32(first_channel)?,
            channel_count: index32(self.written.channels - first_channel)?,
        };
        Ok(())
    }

    /// Reads an animator whose first token is `v` into `read` (the
    /// caller's, fresh), checking it as the count pass does and staging its
    /// last keyframe array. (`Read` returned in a `Result` sat in this
    /// frame and the caller's at once, under every keyframe read.)
    fn read(
        &mut self,
        c: &mut Cursor<'a>,
        v: &Token<'a>,
        path: &Path<'_>,
        read: &mut Read,
    ) -> Result<(), Error> {
        match v.kind {
            TokenKind::BeginArray => {
                read.array = true;
                self.stage(c, path, read)?;
            }
            TokenKind::BeginObject => {
                while let Some(key) = c.next_key()? {
                    let v = c.next()?;
                    match (known_key(&key, ANIMATOR_KEYS), v.kind) {
                        (Some("keyframes"), TokenKind::BeginArray) => {
                            self.stage(c, &path.with_key("keyframes"), read)?;
                            continue;
                        }
                        (Some("keyframes"), _) => {
                            return Err(invalid(
                                &path.with_key("keyframes"),
                                "wrong type",
                                format_args!("an array expected, got {}", type_name(&v)),
                            ));
                        }
                        (Some("type"), _) => {
                            let bone = matches!(v.kind, TokenKind::String(s) if s.eq_str("bone"));
                            read.other_element = truthy(&v) && !bone;
                        }
                        (Some("rotation_global"), _) => read.rotation_global = truthy(&v),
                        (Some("quaternion_interpolation"), _) => read.quaternion = truthy(&v),
                        _ => {}
                    }
                    c.skip_rest(&v)?;
                }
            }
            _ => {
                return Err(invalid(
                    path,
                    "wrong type",
                    format_args!("an animator object expected, got {}", type_name(v)),
                ));
            }
        }
        Ok(())
    }

    /// Reads (and checks) the keyframes left in an array whose `[` was
    /// just read into the staging area, replacing an earlier array's.
    fn stage(&mut self, c: &mut Cursor<'a>, path: &Path<'_>, read: &mut Read) -> Result<(), Error> {
        let before_5 = self.ctx.doc.version.before(5, 0);
        let easing = plays_easing(self.ctx.doc.format);
        read.deferred = Deferred::default();
        read.rotation = false;
        let (mut i, mut n) = (0usize, 0usize);
        let mut raw = RawKeyframe::default();
        loop {
            let t = c.next()?;
            if t.kind == TokenKind::EndArray {
                break;
            }
            let at = path.with_index(i);
            if t.kind != TokenKind::BeginObject {
                return Err(invalid(
                    &at,
                    "wrong type",
                    format_args!("a keyframe object expected, got {}", type_name(&t)),
                ));
            }
            read_keyframe(c, &at, &mut raw)?;
            match raw.played(before_5) {
                Played::UnknownChannel => {
                    read.deferred.unknown_channel.get_or_insert(i);
                }
                Played::Keyframe {
                    target,
                    mut record,
                    molang,
                    bad_molang,
                    unknown_interpolation,
                    negative_scale,
                } => {
                    if let Some(e) = bad_molang {
                        read.deferred.note(target, MOLANG, i);
                        read.deferred.note_molang(target, e);
                    }
                    let program = self.compile_keyframe(&raw)?;
                    *self.staging.sources.get_mut(n).ok_or_else(mismatch)? =
                        KeyframeSource { program, molang };
                    let eased = if easing {
                        raw.easing()
                    } else {
                        super::easing::Eased::default()
                    };
                    record.easing = eased.easing as u32;
                    record.easing_arg = eased.arg;
                    for (on, which) in [
                        (eased.unplayable, UNPLAYABLE_EASING),
                        (unknown_interpolation, UNKNOWN_INTERPOLATION),
                        (negative_scale, NEGATIVE_SCALE),
                        (eased.bad_arg, BAD_EASING_ARG),
                    ] {
                        if on {
                            read.deferred.note(target, which, i);
                        }
                    }
                    read.rotation |= target == ChannelTarget::Rotation;
                    *self.staging.staged.get_mut(n).ok_or_else(mismatch)? = record;
                    *self.staging.order.get_mut(n).ok_or_else(mismatch)? = SortKey {
                        target: target as u32,
                        time: record.time.to_bits(),
                        seq: index32(n)?,
                    };
                    n += 1;
                }
            }
            i += 1;
        }
        read.played = i;
        read.staged = n;
        Ok(())
    }

    /// Compiles each Molang value of `raw` once, its programs in bit
    /// order: the index of its first program.
    ///
    /// Out of line: the compile's result stays out of the staging loop's
    /// frame, under every keyframe read (issue 40).
    #[inline(never)]
    fn compile_keyframe(&mut self, raw: &RawKeyframe<'a>) -> Result<u32, Error> {
        let program = index32(self.out.molang.written.programs)?;
        for s in raw.molang_texts() {
            self.out.molang.compile(s)?;
        }
        Ok(program)
    }

    /// The keyframe warnings of a played animator, in file order.
    ///
    /// Out of line: its list and warning (about 750 bytes) would sit in
    /// the animator's frame, under every keyframe read (issue 40).
    #[inline(never)]
    fn report(&mut self, deferred: &Deferred, keyframes: &Path<'_>) {
        // (keyframe, kind, channel) of each, kind 5 an unknown channel.
        let mut found = heapless::Vec::<(usize, usize, usize), 16>::new();
        if let Some(i) = deferred.unknown_channel {
            let _ = found.push((i, 5, 0));
        }
        for (target, row) in deferred.per_target.iter().enumerate() {
            for (which, first) in row.iter().enumerate() {
                if let Some(i) = *first {
                    let _ = found.push((i, which, target));
                }
            }
        }
        found.sort_unstable();
        // Spec: once per animation, animator and channel; the message names
        // the channel, so each stays a group of its own.
        for (i, which, target) in found {
            let at = keyframes.with_index(i);
            let channel = ["position", "rotation", "scale"]
                .get(target)
                .copied()
                .unwrap_or_default();
            match which {
                MOLANG => {
                    let e = deferred.molang.get(target).copied().flatten();
                    let (code, offset, expected) = e.map_or(("MOLANG_SYNTAX", 0, ""), |e| {
                        (e.code.as_str(), e.offset, e.expected)
                    });
                    self.warn(
                        WarningCode::UnsupportedValue,
                        &at,
                        format_args!(
                            "Molang in {channel}: {code} at byte {offset}, {expected} expected; played as Blockbench reads it"
                        ),
                    );
                }
                UNPLAYABLE_EASING => self.warn(
                    WarningCode::UnsupportedValue,
                    &at.with_key("easing"),
                    format_args!("an easing the plugin cannot play in {channel}: played linear"),
                ),
                BAD_EASING_ARG => self.warn(
                    WarningCode::UnsupportedValue,
                    &at.with_key("easingArgs"),
                    format_args!(
                        "easing argument in {channel} is no number within ±1000000: the plugin's default plays"
                    ),
                ),
                UNKNOWN_INTERPOLATION => self.warn(
                    WarningCode::UnsupportedValue,
                    &at.with_key("interpolation"),
                    format_args!(
                        "unknown interpolation in {channel}: played as Blockbench plays it, at rest next to a keyframe that is not catmull-rom or bezier"
                    ),
                ),
                NEGATIVE_SCALE => self.warn(
                    WarningCode::UnsupportedValue,
                    &at,
                    format_args!("negative scale: played as the smallest positive scale"),
                ),
                _ => self.warn(
                    WarningCode::UnsupportedChannel,
                    &at.with_key("channel"),
                    format_args!("a channel bones do not have: skipped"),
                ),
            }
        }
    }

    /// Writes the `n` staged keyframes as one channel per target, each
    /// sorted by time (stable), with `flags` for the channels'
    /// [`ChannelFlags`] (rotation-only bits kept on rotation alone).
    fn write_channels(&mut self, node: u32, n: usize, flags: u32) -> Result<(), Error> {
        let order = self.staging.order.get_mut(..n).ok_or_else(mismatch)?;
        // Already in order is common (one channel, times ascending).
        if !order.is_sorted() {
            order.sort_unstable();
        }
        let mut run = 0usize;
        while let Some(head) = order.get(run) {
            let target = head.target;
            let end = run
                + order
                    .get(run..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(|k| k.target == target)
                    .count();
            let first = self.written.keyframes;
            for key in order.get(run..end).unwrap_or_default() {
                let staged = self.staging.staged.get(offset(u64::from(key.seq)));
                let out = self.out.keyframes.get_mut(self.written.keyframes);
                *out.ok_or_else(mismatch)? = *staged.ok_or_else(mismatch)?;
                let source = self.staging.sources.get(offset(u64::from(key.seq)));
                let out = self.out.keyframe_sources.get_mut(self.written.keyframes);
                *out.ok_or_else(mismatch)? = *source.ok_or_else(mismatch)?;
                self.written.keyframes += 1;
            }
            let channel = self.out.channels.get_mut(self.written.channels);
            *channel.ok_or_else(mismatch)? = ChannelRecord {
                node,
                target,
                first_keyframe: index32(first)?,
                keyframe_count: index32(end - run)?,
                flags: flags & target_flags(target),
            };
            self.written.channels += 1;
            run = end;
        }
        Ok(())
    }
}

/// The animator keys the fill reads.
const ANIMATOR_KEYS: &[&str] = &[
    "keyframes",
    "type",
    "rotation_global",
    "quaternion_interpolation",
];
