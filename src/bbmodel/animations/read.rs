//! The fill pass over animations: every animation becomes a clip, every
//! bone animator that names a group its channels (spec Features:
//! Animations; Conventions 12 and 13).
//!
//! Per animation, two steps over its animators:
//! 1. each animator is checked whole (as the count pass checks it) and
//!    its group found ([`Groups::find`]); a bone animator with keyframes
//!    claims its group, so a later one for the same group takes the claim
//!    (spec: "a later animator for the same group replaces an earlier
//!    one"; one without keyframes is skipped and claims nothing);
//! 2. each animator holding its claim has its keyframe array read again
//!    into scratch, sorted by channel and time (stably: equal times keep
//!    file order) and written as one channel per target. Every other
//!    animator only warns, as the spec's Warnings say.
//!
//! Warnings come once per animation, animator or channel: the first
//! keyframe that shows the problem names the path.

use super::count::{AnimatorScan, check_animator, truthy};
use super::keyframes::{Played, read_keyframe, within};
use super::lookup::{Groups, NodeKey, sort_tables};
use crate::bbmodel::document::Document;
use crate::bbmodel::formats::ModelFormat;
use crate::bbmodel::mesh_keys::string_at;
use crate::bbmodel::reader::{index32, mismatch, offset};
use crate::bbmodel::structure::for_each_value;
use crate::bbmodel::text_pool::Pool;
use crate::bbmodel::uuid_tables::body_offset;
use crate::bbmodel::value::{ANIMATIONS, Cursor, Path, expect_object, known_key};
use crate::error::{Error, Location, Quote, Warning, WarningCode, Warnings};
use crate::json::{JsonStr, Token, TokenKind};
use crate::limits::BbmodelLimits;
use crate::scene::{
    AnimationRecord, ChannelRecord, ChannelTarget, KeyframeRecord, LoopMode, NodeRecord, TextRef,
    TextSource,
};

/// The scene's animation arrays, as carved.
pub(in crate::bbmodel) struct AnimationArrays<'o> {
    pub(in crate::bbmodel) animations: &'o mut [AnimationRecord],
    pub(in crate::bbmodel) channels: &'o mut [ChannelRecord],
    pub(in crate::bbmodel) keyframes: &'o mut [KeyframeRecord],
}

/// What the fill wrote of each animation array.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::bbmodel) struct Written {
    pub(in crate::bbmodel) animations: usize,
    pub(in crate::bbmodel) channels: usize,
    pub(in crate::bbmodel) keyframes: usize,
}

/// The scratch the fill pass uses, in the order [`super::plan_scratch`]
/// sizes it.
pub(in crate::bbmodel) struct AnimationScratch<'s> {
    /// Group uuids by hash (filled by the outliner walk).
    pub(in crate::bbmodel) uuids: &'s mut [NodeKey],
    /// Group names by lowercased hash.
    pub(in crate::bbmodel) names: &'s mut [NodeKey],
    /// Per node, the animator holding its claim.
    pub(in crate::bbmodel) claims: &'s mut [Claim],
    /// Per animator of one animation, what step 1 found.
    pub(in crate::bbmodel) animators: &'s mut [AnimatorSlot],
    /// One animator's keyframes in file order, and their sort keys.
    pub(in crate::bbmodel) staged: &'s mut [KeyframeRecord],
    pub(in crate::bbmodel) order: &'s mut [SortKey],
}

/// Which animator claims a node: animation index + 1 (0: none yet; a
/// claim of an earlier animation is stale, so the table is never reset)
/// and the animator's place in its animation.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
#[repr(C)]
pub(in crate::bbmodel) struct Claim {
    animation: u32,
    animator: u32,
}

/// What step 1 found about one animator.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
#[repr(C)]
pub(in crate::bbmodel) struct AnimatorSlot {
    /// Where the key's string body starts.
    key_at: u64,
    /// Where the animator's value starts.
    value_at: u64,
    /// Where the keyframe array it plays starts.
    keyframes_at: u64,
    /// The node, for [`Kind::Bone`].
    node: u32,
    /// A [`Kind`].
    kind: u32,
    /// Keyframes in that array.
    played: u32,
    /// [`ROTATION_GLOBAL`], [`QUATERNION`], [`ARRAY`], [`HAS_KEYFRAMES`],
    /// [`MORE_ARRAYS`].
    flags: u32,
}

const ROTATION_GLOBAL: u32 = 1;
const QUATERNION: u32 = 2;
/// The animator is a keyframe array itself (before 3.7).
const ARRAY: u32 = 4;
/// It holds keyframes somewhere (counted as the limits count them).
const HAS_KEYFRAMES: u32 = 8;
/// It holds more than the array it plays (a repeated `keyframes` key, or
/// pre-3.7 channel objects): that is checked too.
const MORE_ARRAYS: u32 = 16;

/// `bit` when `on`, else 0.
const fn flag(on: bool, bit: u32) -> u32 {
    if on { bit } else { 0 }
}

/// What an animator is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
enum Kind {
    /// A bone animator without keyframes: skipped.
    Empty = 0,
    /// A bone animator naming a group.
    Bone = 1,
    /// A bone animator naming no group.
    Unknown = 2,
    /// The `effects` animator (sound, particle, timeline).
    Effect = 3,
    /// An animator of another element (null object, cube, mesh, …).
    Element = 4,
}

/// A staged keyframe's sort key: channel, time, then file order, so an
/// unstable sort gives the stable order (no two keys are equal).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
#[repr(C)]
pub(in crate::bbmodel) struct SortKey {
    target: u32,
    /// The time's f32 bits: times are never negative, so they order as
    /// the times do.
    time: u32,
    seq: u32,
}

/// Everything one animation's read needs besides its own bytes.
pub(in crate::bbmodel) struct Context<'c, 'a> {
    pub(in crate::bbmodel) doc: &'c Document<'a>,
    pub(in crate::bbmodel) limits: &'c BbmodelLimits,
    pub(in crate::bbmodel) nodes: &'c [NodeRecord],
}

/// Fills the animation arrays; `uuids_written` entries of
/// `scratch.uuids` were filled by the outliner walk.
pub(in crate::bbmodel) fn fill_animations<'a>(
    ctx: &Context<'_, 'a>,
    out: AnimationArrays<'_>,
    scratch: AnimationScratch<'_>,
    uuids_written: usize,
    pool: &mut Pool<'_>,
    warnings: &mut Warnings,
) -> Result<Written, Error> {
    let doc = ctx.doc;
    let AnimationScratch {
        uuids,
        names,
        claims,
        animators,
        staged,
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
    let mut written = Written::default();
    let mut fill = Fill {
        ctx,
        out,
        claims,
        animators,
        staged,
        order,
        written: &mut written,
        warnings,
    };
    for_each_value(doc, doc.animations, |i, first, c| {
        let path = ANIMATIONS.with_index(i);
        let groups = Groups {
            uuids: &*uuids,
            names: &*names,
        };
        fill.animation(i, &first, c, &path, &groups, &*pool.bytes)
            .and_then(|(record, name)| {
                let name = match name {
                    Some(n) => pool.text(doc.bytes, &n)?,
                    None => TextRef::EMPTY,
                };
                let slot = fill
                    .out
                    .animations
                    .get_mut(fill.written.animations)
                    .ok_or_else(mismatch)?;
                *slot = AnimationRecord { name, ..record };
                fill.written.animations += 1;
                Ok(())
            })
    })?;
    Ok(written)
}

/// A node's name as text.
fn node_name<'t>(doc: &Document<'t>, pool: &'t [u8], name: TextRef) -> &'t str {
    let bytes = match name.source() {
        TextSource::Input => doc.bytes,
        TextSource::Pool => pool,
    };
    bytes
        .get(name.range())
        .and_then(|b| core::str::from_utf8(b).ok())
        .unwrap_or_default()
}

/// The fill's state across animations.
struct Fill<'f, 'c, 'a> {
    ctx: &'f Context<'c, 'a>,
    out: AnimationArrays<'f>,
    claims: &'f mut [Claim],
    animators: &'f mut [AnimatorSlot],
    staged: &'f mut [KeyframeRecord],
    order: &'f mut [SortKey],
    written: &'f mut Written,
    warnings: &'f mut Warnings,
}

/// An animation's own fields (the last of a repeated key, as JSON.parse).
struct Fields<'a> {
    name: Option<JsonStr<'a>>,
    length: f64,
    loop_mode: LoopMode,
    /// Where the `animators` object starts, or the pre-3.7 `bones`.
    animators: Option<(usize, &'static str)>,
    /// `animators` and `bones` objects seen (those not played are checked
    /// apart).
    objects: usize,
}

impl<'a> Fill<'_, '_, 'a> {
    /// Reads animation `index` (first token `first`): its record, without
    /// the name placed, and the name.
    fn animation(
        &mut self,
        index: usize,
        first: &Token<'a>,
        c: &mut Cursor<'a>,
        path: &Path<'_>,
        groups: &Groups<'_>,
        pool: &[u8],
    ) -> Result<(AnimationRecord, Option<JsonStr<'a>>), Error> {
        let fields = self.fields(first, c, path)?;
        let first_channel = self.written.channels;
        let mut last_time = 0.0f32;
        if let Some((at, key)) = fields.animators {
            let animators_path = path.with_key(key);
            let count = self.claim(index, at, &animators_path, groups, pool)?;
            for seq in 0..count {
                let slot = *self.animators.get(seq).ok_or_else(mismatch)?;
                last_time = last_time.max(self.play(index, seq, &slot, &animators_path)?);
            }
        }
        let channel_count = self.written.channels - first_channel;
        // Spec: "length is the file's length when it is above 0, even with
        // keyframes past it …, else the time of the last keyframe".
        let length = if fields.length > 0.0 {
            #[allow(clippy::cast_possible_truncation)]
            let length = fields.length as f32;
            length
        } else {
            last_time
        };
        let record = AnimationRecord {
            name: TextRef::EMPTY,
            length,
            loop_mode: fields.loop_mode as u32,
            first_channel: index32(first_channel)?,
            channel_count: index32(channel_count)?,
        };
        Ok((record, fields.name))
    }

    /// An animation object's own fields, checked, with their warnings.
    fn fields(
        &mut self,
        first: &Token<'a>,
        c: &mut Cursor<'a>,
        path: &Path<'_>,
    ) -> Result<Fields<'a>, Error> {
        if first.kind != TokenKind::BeginObject {
            c.skip_rest(first)?;
            expect_object(first, path, "animation")?;
        }
        let mut fields = Fields {
            name: None,
            length: 0.0,
            loop_mode: LoopMode::Once,
            animators: None,
            objects: 0,
        };
        // `bones` is read only when `animators` is absent or falsy.
        let (mut animators, mut bones) = (None, None);
        let mut animators_truthy = false;
        while let Some(key) = c.next_key()? {
            let k = known_key(&key, ANIMATION_KEYS);
            let v = c.next()?;
            let at = path.with_key(k.unwrap_or(""));
            match k {
                Some("name") => {
                    fields.name = Some(c.string_of(&v, &at, self.ctx.limits.max_string_chars)?);
                }
                Some("length") => {
                    let length = c.number_of(&v, &at)?;
                    within(length, &at)?;
                    fields.length = length;
                }
                Some("loop") => fields.loop_mode = self.loop_mode(&v, &at),
                Some(k @ ("animators" | "bones")) => {
                    let object = (v.kind == TokenKind::BeginObject).then(|| c.offset_of(&v));
                    if k == "animators" {
                        animators_truthy = truthy(&v);
                        animators = object;
                    } else {
                        bones = object;
                    }
                    if object.is_some() {
                        fields.objects += 1;
                        // Read whole (and checked) by the steps below.
                        c.leave_unchecked()?;
                        continue;
                    }
                }
                Some(name) => {
                    // anim_time_update, start_delay, loop_delay, blend_weight:
                    // Molang fields whose default is "".
                    let set = match v.kind {
                        TokenKind::String(s) => s.decoded_len() > 0,
                        TokenKind::Number(_) => true,
                        _ => false,
                    };
                    if set {
                        self.warn(
                            WarningCode::UnsupportedValue,
                            &at,
                            format_args!("{name} is not supported: played as if unset"),
                        );
                    }
                }
                None => {}
            }
            c.skip_rest(&v)?;
        }
        fields.animators = if animators_truthy {
            animators.map(|at| (at, "animators"))
        } else {
            bones.map(|at| (at, "bones"))
        };
        if fields.objects > usize::from(fields.animators.is_some()) {
            check_unplayed(self.ctx.doc, c.offset_of(first), fields.animators, path)?;
        }
        Ok(fields)
    }

    /// `loop`: once, hold or loop; anything else plays once and warns
    /// (spec Warnings: "an unknown loop (played once)").
    fn loop_mode(&mut self, v: &Token<'_>, at: &Path<'_>) -> LoopMode {
        match v.kind {
            TokenKind::String(s) if s.eq_str("once") => LoopMode::Once,
            TokenKind::String(s) if s.eq_str("hold") => LoopMode::Hold,
            TokenKind::String(s) if s.eq_str("loop") => LoopMode::Loop,
            TokenKind::Null => LoopMode::Once,
            _ => {
                self.warn(
                    WarningCode::UnsupportedValue,
                    at,
                    format_args!("unknown loop mode: played once"),
                );
                LoopMode::Once
            }
        }
    }

    /// Step 1: checks every animator of the object at `at`, finds its
    /// group and records what it is; returns how many there were.
    fn claim(
        &mut self,
        index: usize,
        at: usize,
        path: &Path<'_>,
        groups: &Groups<'_>,
        pool: &[u8],
    ) -> Result<usize, Error> {
        let doc = self.ctx.doc;
        let nodes = self.ctx.nodes;
        let animation = index32(index + 1)?;
        let mut c = doc.cursor(at);
        c.next()?;
        let mut seq = 0usize;
        while let Some(key) = c.next_key()? {
            let v = c.next()?;
            let value_at = c.offset_of(&v);
            // Keyframe arrays are counted here and read once, below.
            let scan: AnimatorScan = check_animator(&mut c, &v, &path.with_raw_key(key), false)?;
            let mut slot = AnimatorSlot {
                key_at: body_offset(doc, &key),
                value_at: value_at as u64,
                keyframes_at: scan.keyframes_at.unwrap_or(0) as u64,
                played: index32(scan.played)?,
                flags: flag(scan.rotation_global, ROTATION_GLOBAL)
                    | flag(scan.quaternion, QUATERNION)
                    | flag(v.kind == TokenKind::BeginArray, ARRAY)
                    | flag(scan.keyframes > 0, HAS_KEYFRAMES)
                    | flag(scan.keyframes > scan.played, MORE_ARRAYS),
                ..AnimatorSlot::default()
            };
            let kind = if key.eq_str("effects") {
                Kind::Effect
            } else if scan.other_element {
                Kind::Element
            } else if scan.played == 0 {
                Kind::Empty
            } else {
                let name_of = |n: &NodeRecord| node_name(doc, pool, n.name);
                match groups.find(doc, nodes, name_of, &key) {
                    Some(node) => {
                        slot.node = node;
                        let claim = self.claims.get_mut(offset(u64::from(node)));
                        *claim.ok_or_else(mismatch)? = Claim {
                            animation,
                            animator: index32(seq)?,
                        };
                        Kind::Bone
                    }
                    None => Kind::Unknown,
                }
            };
            slot.kind = kind as u32;
            *self.animators.get_mut(seq).ok_or_else(mismatch)? = slot;
            seq += 1;
        }
        Ok(seq)
    }

    /// Step 2 for animator `seq`: its warnings, and its channels when it
    /// holds its group's claim. Returns its last keyframe's time.
    fn play(
        &mut self,
        index: usize,
        seq: usize,
        slot: &AnimatorSlot,
        animators: &Path<'_>,
    ) -> Result<f32, Error> {
        let doc = self.ctx.doc;
        let key = string_at(doc, offset(slot.key_at)).ok_or_else(mismatch)?;
        let path = animators.with_raw_key(key);
        let mine = Claim {
            animation: index32(index + 1)?,
            animator: index32(seq)?,
        };
        let kept = slot.kind == Kind::Bone as u32
            && self.claims.get(offset(u64::from(slot.node))).copied() == Some(mine);
        // Every keyframe is checked once: a kept animator's played array
        // as it is staged, everything else here.
        let unread = if kept { MORE_ARRAYS } else { HAS_KEYFRAMES };
        if slot.flags & unread != 0 {
            let mut c = doc.cursor(offset(slot.value_at));
            let first = c.next()?;
            check_animator(&mut c, &first, &path, true)?;
        }
        let has_keyframes = slot.played > 0;
        match slot.kind {
            k if k == Kind::Effect as u32 && has_keyframes => {
                self.warn(
                    WarningCode::UnsupportedChannel,
                    &path,
                    format_args!("effect animator (sound, particle, timeline) not played"),
                );
                return Ok(0.0);
            }
            k if k == Kind::Element as u32 && has_keyframes => {
                self.warn(
                    WarningCode::UnsupportedChannel,
                    &path,
                    format_args!("animator of an element that is no group: not played"),
                );
                return Ok(0.0);
            }
            k if k == Kind::Unknown as u32 => {
                self.warn(
                    WarningCode::UnknownReference,
                    &path,
                    format_args!(
                        "animator names {}, which no group has",
                        Quote(key.raw_str())
                    ),
                );
                return Ok(0.0);
            }
            _ if kept => {}
            // Skipped (no keyframes), or replaced by a later animator for
            // the same group.
            _ => return Ok(0.0),
        }
        if slot.flags & ROTATION_GLOBAL != 0 {
            self.warn(
                WarningCode::UnsupportedChannel,
                &path.with_key("rotation_global"),
                format_args!("rotation in global space: played in local space"),
            );
        }
        if slot.flags & QUATERNION != 0 && doc.format == ModelFormat::Free {
            self.warn(
                WarningCode::UnsupportedChannel,
                &path.with_key("quaternion_interpolation"),
                format_args!("quaternion interpolation: played as Euler angles"),
            );
        }
        let keyframes = if slot.flags & ARRAY != 0 {
            path
        } else {
            path.with_key("keyframes")
        };
        let staged = self.stage(slot, &keyframes)?;
        self.write_channels(slot.node, staged)
    }

    /// Reads the animator's keyframe array into `staged` and `order`,
    /// warning once per channel; returns how many were staged.
    fn stage(&mut self, slot: &AnimatorSlot, path: &Path<'_>) -> Result<usize, Error> {
        let before_5 = self.ctx.doc.version.before(5, 0);
        let mut c = self.ctx.doc.cursor(offset(slot.keyframes_at));
        if c.next()?.kind != TokenKind::BeginArray {
            return Err(mismatch());
        }
        // Per target: Molang, bezier, unknown interpolation, negative scale
        // already reported; and an unknown channel for the animator.
        let mut told = [[false; 4]; 3];
        let mut unknown_told = false;
        let mut n = 0usize;
        let mut i = 0usize;
        loop {
            let t = c.next()?;
            if t.kind == TokenKind::EndArray {
                break;
            }
            let at = path.with_index(i);
            i += 1;
            if t.kind != TokenKind::BeginObject {
                return Err(mismatch());
            }
            match read_keyframe(&mut c, &at)?.played(before_5) {
                Played::UnknownChannel => {
                    if !unknown_told {
                        unknown_told = true;
                        self.warn(
                            WarningCode::UnsupportedChannel,
                            &at.with_key("channel"),
                            format_args!("a channel bones do not have: skipped"),
                        );
                    }
                }
                Played::Molang(target) => {
                    if tell(&mut told, target, 0) {
                        self.warn(
                            WarningCode::UnsupportedChannel,
                            &at,
                            format_args!("Molang expression: keyframe skipped"),
                        );
                    }
                }
                Played::Keyframe {
                    target,
                    record,
                    bezier,
                    unknown_interpolation,
                    negative_scale,
                } => {
                    if bezier && tell(&mut told, target, 1) {
                        self.warn(
                            WarningCode::UnsupportedChannel,
                            &at.with_key("interpolation"),
                            format_args!("bezier interpolation: played linear"),
                        );
                    }
                    if unknown_interpolation && tell(&mut told, target, 2) {
                        self.warn(
                            WarningCode::UnsupportedValue,
                            &at.with_key("interpolation"),
                            format_args!("unknown interpolation: played linear"),
                        );
                    }
                    if negative_scale && tell(&mut told, target, 3) {
                        self.warn(
                            WarningCode::UnsupportedValue,
                            &at,
                            format_args!("negative scale: played as the smallest positive scale"),
                        );
                    }
                    *self.staged.get_mut(n).ok_or_else(mismatch)? = record;
                    *self.order.get_mut(n).ok_or_else(mismatch)? = SortKey {
                        target: target as u32,
                        time: record.time.to_bits(),
                        seq: index32(n)?,
                    };
                    n += 1;
                }
            }
        }
        Ok(n)
    }

    /// Writes the `n` staged keyframes as one channel per target, each
    /// sorted by time (stable); returns the last time.
    fn write_channels(&mut self, node: u32, n: usize) -> Result<f32, Error> {
        let order = self.order.get_mut(..n).ok_or_else(mismatch)?;
        // Already in order is common (one channel, times ascending).
        if !order.is_sorted() {
            order.sort_unstable();
        }
        let mut last = 0.0f32;
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
                let record = *self
                    .staged
                    .get(offset(u64::from(key.seq)))
                    .ok_or_else(mismatch)?;
                last = last.max(record.time);
                let out = self.out.keyframes.get_mut(self.written.keyframes);
                *out.ok_or_else(mismatch)? = record;
                self.written.keyframes += 1;
            }
            let channel = self.out.channels.get_mut(self.written.channels);
            *channel.ok_or_else(mismatch)? = ChannelRecord {
                node,
                target,
                first_keyframe: index32(first)?,
                keyframe_count: index32(end - run)?,
            };
            self.written.channels += 1;
            run = end;
        }
        Ok(last)
    }

    fn warn(&mut self, code: WarningCode, at: &Path<'_>, args: core::fmt::Arguments<'_>) {
        self.warnings
            .push(Warning::new(code, Location::Json(at.render()), args));
    }
}

/// Checks the `animators` and `bones` objects of the animation at `at`
/// that are not `played` (a repeated key, or both keys), as the count pass
/// checks them: every keyframe is checked, played or not.
#[cold]
fn check_unplayed(
    doc: &Document<'_>,
    at: usize,
    played: Option<(usize, &'static str)>,
    path: &Path<'_>,
) -> Result<(), Error> {
    let mut c = doc.cursor(at);
    c.next()?;
    while let Some(key) = c.next_key()? {
        let v = c.next()?;
        let k = known_key(&key, &["animators", "bones"]);
        if let Some(k) = k
            && v.kind == TokenKind::BeginObject
            && played.is_none_or(|(p, _)| p != c.offset_of(&v))
        {
            let at = path.with_key(k);
            while let Some(animator_key) = c.next_key()? {
                let animator = c.next()?;
                check_animator(&mut c, &animator, &at.with_raw_key(animator_key), true)?;
            }
            continue;
        }
        c.skip_rest(&v)?;
    }
    Ok(())
}

/// Whether warning `which` for `target` is new (and marks it told).
fn tell(told: &mut [[bool; 4]; 3], target: ChannelTarget, which: usize) -> bool {
    let Some(flag) = told
        .get_mut(target as usize)
        .and_then(|row| row.get_mut(which))
    else {
        return false;
    };
    !core::mem::replace(flag, true)
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
