//! Animation files attached to the model (`Options::animations`): each
//! becomes one clip of the scene, named after its file, with a
//! [`ClipRecord`] and its tracks, curves, Hermite keys and table values
//! (docs/scene-format.md, "J3D clips").
//!
//! One walk serves both passes: counting (no arrays) and filling, so they
//! cannot disagree. BCK, BCA and BVA must fit the model (joint and shape
//! counts: ANIMATION_MISMATCH from `anim::attach`); an entry naming a
//! material MAT3 does not have warns (UNKNOWN_REFERENCE, naming it) and is
//! skipped, and so is a slot past what a material has (UNSUPPORTED_VALUE).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "running totals are usize sums bounded by the per-file limits (max_anim_tracks, max_anim_keys) times the caller's file count, checked with checked_add where they index"
)]

use super::materials::{BaseSources, base_sources};
use super::names::Pool;
use super::{Model, arena_mismatch, index32};
use crate::error::{Error, ErrorCode, Location, Quote, Warning, WarningCode, Warnings};
use crate::j3d::anim::common::{FrameTrack, Key, KeyTrack, Table};
use crate::j3d::anim::trk1::ColourTarget;
use crate::j3d::anim::{self, Animation, Kind, LoopMode as FileLoop, attach};
use crate::limits::J3dLimits;
use crate::scene::{
    AnimationRecord, ClipKind, ClipRecord, ColorSlot, CurveKind, CurveRecord, HermiteKey, LoopMode,
    SceneCounts, TEX_MATRIX_SLOTS, TEXTURE_SLOTS, TextRef, TrackRecord, TrackTarget,
};

/// Frames per second of every J3D clip (docs/j3d.md, "Frame rate").
pub const FRAME_RATE: f32 = 30.0;

const PI: f32 = core::f32::consts::PI;

/// The arrays a fill writes; `None` while counting.
pub(super) struct ClipArrays<'s> {
    pub(super) animations: &'s mut [AnimationRecord],
    pub(super) clips: &'s mut [ClipRecord],
    pub(super) tracks: &'s mut [TrackRecord],
    pub(super) curves: &'s mut [CurveRecord],
    pub(super) keys: &'s mut [HermiteKey],
    pub(super) values: &'s mut [f32],
}

/// Running totals, and where they are written.
#[derive(Default)]
struct Totals {
    animations: usize,
    clips: usize,
    tracks: usize,
    curves: usize,
    keys: usize,
    values: usize,
    text: usize,
}

struct Sink<'s, 'w> {
    out: Option<ClipArrays<'s>>,
    n: Totals,
    /// `None` while measuring: the fill raises the same warnings again.
    warnings: Option<&'w mut Warnings>,
}

fn put<T>(slice: &mut [T], i: usize, value: T) -> Result<(), Error> {
    *slice.get_mut(i).ok_or_else(arena_mismatch)? = value;
    Ok(())
}

impl Sink<'_, '_> {
    /// Starts a track of `target`; its curves follow.
    fn track(
        &mut self,
        target: TrackTarget,
        index: usize,
        slot: u32,
        flags: u32,
        centre: [f32; 3],
    ) -> Result<(), Error> {
        if let Some(out) = &mut self.out {
            put(
                out.tracks,
                self.n.tracks,
                TrackRecord {
                    target: target as u32,
                    index: index32(index)?,
                    slot,
                    flags,
                    centre,
                    first_curve: index32(self.n.curves)?,
                    curve_count: index32(target.curves())?,
                },
            )?;
        }
        self.n.tracks += 1;
        Ok(())
    }

    /// A Hermite curve from a keyed track; values and tangents times `factor`.
    fn keyed(
        &mut self,
        track: &KeyTrack,
        table: &Table<'_>,
        rest: f32,
        factor: f32,
    ) -> Result<(), Error> {
        let count = usize::from(track.count);
        self.curve(CurveKind::Hermite, self.n.keys, count, rest)?;
        if let Some(out) = &mut self.out {
            for k in 0..count {
                let Key {
                    time,
                    value,
                    tangent_in,
                    tangent_out,
                } = track.key(table, k).ok_or_else(arena_mismatch)?;
                put(
                    out.keys,
                    self.n.keys + k,
                    HermiteKey {
                        time,
                        value: value * factor,
                        tangent_in: tangent_in * factor,
                        tangent_out: tangent_out * factor,
                    },
                )?;
            }
        }
        self.n.keys += count;
        Ok(())
    }

    /// A table curve of `count` values, value `i` given by `value(i)`.
    /// Out of line, as are `curve`, `warn` and `table_curve`: inlined,
    /// their `Result` slots join `walk_clips`'s frame, which the material
    /// lookups run under (docs/c-api.md, "Stack").
    #[inline(never)]
    fn table(
        &mut self,
        kind: CurveKind,
        count: usize,
        rest: f32,
        value: impl Fn(usize) -> Option<f32>,
    ) -> Result<(), Error> {
        self.curve(kind, self.n.values, count, rest)?;
        if let Some(out) = &mut self.out {
            for i in 0..count {
                put(
                    out.values,
                    self.n.values + i,
                    value(i).ok_or_else(arena_mismatch)?,
                )?;
            }
        }
        self.n.values += count;
        Ok(())
    }

    #[inline(never)]
    fn curve(
        &mut self,
        kind: CurveKind,
        first: usize,
        count: usize,
        rest: f32,
    ) -> Result<(), Error> {
        if let Some(out) = &mut self.out {
            put(
                out.curves,
                self.n.curves,
                CurveRecord {
                    kind: kind as u32,
                    first: index32(first)?,
                    count: index32(count)?,
                    rest,
                },
            )?;
        }
        self.n.curves += 1;
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn warn(&mut self, code: WarningCode, file: &str, args: core::fmt::Arguments<'_>) {
        let Some(warnings) = self.warnings.as_deref_mut() else {
            return;
        };
        warnings.push(Warning::new(
            code,
            Location::Nowhere,
            format_args!("animation {}: {args}", Quote(file)),
        ));
    }
}

/// The scene's clip kind and loop mode of a file's.
fn kind_of(kind: Kind) -> ClipKind {
    match kind {
        Kind::Bck => ClipKind::Bck,
        Kind::Bca => ClipKind::Bca,
        Kind::Btk => ClipKind::Btk,
        Kind::Brk => ClipKind::Brk,
        Kind::Bpk => ClipKind::Bpk,
        Kind::Btp => ClipKind::Btp,
        Kind::Bva => ClipKind::Bva,
    }
}

/// The nearest of the three loop modes every format's clip has, for
/// readers of `AnimationRecord` alone.
fn nearest_loop(mode: FileLoop) -> LoopMode {
    match mode {
        FileLoop::Once => LoopMode::Hold,
        FileLoop::Repeat | FileLoop::MirroredRepeat => LoopMode::Loop,
        FileLoop::OnceAndReset | FileLoop::MirroredOnce => LoopMode::Once,
    }
}

impl Model<'_> {
    /// Adds what the attached animation files put in the scene to `counts`,
    /// checking each against the model and the limits.
    pub(super) fn count_clips(
        &self,
        options: &crate::j3d::Options<'_>,
        counts: &mut SceneCounts,
    ) -> Result<(), Error> {
        if options.animations.is_empty() {
            return Ok(());
        }
        let mut sink = Sink {
            out: None,
            n: Totals::default(),
            warnings: None,
        };
        self.walk_clips(options, &mut sink, None, 0)?;
        let n = &sink.n;
        counts.animations = counts.animations.saturating_add(n.animations);
        counts.clips = counts.clips.saturating_add(n.clips);
        counts.tracks = counts.tracks.saturating_add(n.tracks);
        counts.curves = counts.curves.saturating_add(n.curves);
        counts.hermite_keys = counts.hermite_keys.saturating_add(n.keys);
        counts.curve_values = counts.curve_values.saturating_add(n.values);
        counts.text_pool = counts.text_pool.saturating_add(n.text);
        Ok(())
    }

    /// Writes the clips after `first_animation` clips already in `arrays`.
    /// Out of line: inlined, its sink (560 bytes) sat in `Model::fill`'s
    /// frame under the mesh stage too.
    #[inline(never)]
    pub(super) fn fill_clips(
        &self,
        options: &crate::j3d::Options<'_>,
        arrays: ClipArrays<'_>,
        pool: &mut Pool<'_>,
        warnings: &mut Warnings,
    ) -> Result<(), Error> {
        if options.animations.is_empty() {
            return Ok(());
        }
        let mut sink = Sink {
            out: Some(arrays),
            n: Totals::default(),
            warnings: Some(warnings),
        };
        self.walk_clips(options, &mut sink, Some(pool), 0)
    }

    fn walk_clips(
        &self,
        options: &crate::j3d::Options<'_>,
        sink: &mut Sink<'_, '_>,
        mut pool: Option<&mut Pool<'_>>,
        first_animation: usize,
    ) -> Result<(), Error> {
        let limits = &options.limits;
        for &(name, bytes) in options.animations {
            let warnings = &mut sink.warnings;
            // Read where `parse_reporting` returned it: moved out of the
            // result (and through `map_err`), the parsed file took three
            // slots of this frame, under the entry reads (issue 40).
            let result = anim::parse_reporting(bytes, limits, &mut |w| {
                if let Some(warnings) = warnings.as_deref_mut() {
                    warnings.push(w);
                }
            });
            let parsed = match &result {
                Ok(parsed) => parsed,
                Err(e) => return Err(in_file(name, e)),
            };
            if matches!(parsed.kind(), Kind::Bck | Kind::Bca | Kind::Bva) {
                attach::check(&self.file, parsed, limits).map_err(|e| in_file(name, &e))?;
            }
            let clip = parsed.clip();
            let first_track = sink.n.tracks;
            self.tracks_of(name, parsed, limits, sink)?;
            let (frame_loop, loop_mode) = (clip.loop_mode, nearest_loop(clip.loop_mode));
            let animation = first_animation + sink.n.animations;
            let text = match &mut pool {
                Some(pool) => pool.copy(name)?,
                None => TextRef::EMPTY,
            };
            if let Some(out) = &mut sink.out {
                let frames = f32::from(clip.duration);
                put(
                    out.animations,
                    animation,
                    AnimationRecord {
                        name: text,
                        length: frames / FRAME_RATE,
                        loop_mode: loop_mode as u32,
                        first_channel: 0,
                        channel_count: 0,
                    },
                )?;
                put(
                    out.clips,
                    sink.n.clips,
                    ClipRecord {
                        animation: index32(animation)?,
                        kind: kind_of(parsed.kind()) as u32,
                        loop_mode: frame_loop as u32,
                        frames,
                        frame_rate: FRAME_RATE,
                        first_track: index32(first_track)?,
                        track_count: index32(sink.n.tracks - first_track)?,
                    },
                )?;
            }
            sink.n.animations += 1;
            sink.n.clips += 1;
            sink.n.text += name.len();
        }
        Ok(())
    }

    /// The material entry `entry` animates, or `None` (warned) when MAT3
    /// has no material of its name. Out of line: inlined, its result sat
    /// in `walk_clips`'s frame, under the animation parsers.
    #[inline(never)]
    fn material(
        &self,
        name: &str,
        anim: &Animation<'_>,
        entry: usize,
        limits: &J3dLimits,
        sink: &mut Sink<'_, '_>,
    ) -> Result<Option<usize>, Error> {
        match attach::material_of(&self.file, anim, entry, limits) {
            Ok(m) => Ok(Some(m)),
            Err(e) => no_material(name, anim, entry, sink, &e),
        }
    }

    fn tracks_of(
        &self,
        name: &str,
        parsed: &Animation<'_>,
        limits: &J3dLimits,
        sink: &mut Sink<'_, '_>,
    ) -> Result<(), Error> {
        match parsed {
            Animation::Bck(a) => {
                let [s, r, t] = a.tables();
                for j in 0..a.joints() {
                    let k = a.tracks(j).ok_or_else(arena_mismatch)?;
                    sink.track(TrackTarget::Joint, j, 0, 0, [0.0; 3])?;
                    for c in &k.scale {
                        sink.keyed(c, &s, 1.0, 1.0)?;
                    }
                    // Half-turns to radians: the Hermite is linear in its values and tangents.
                    for c in &k.rotation {
                        sink.keyed(c, &r, 0.0, PI)?;
                    }
                    for c in &k.translation {
                        sink.keyed(c, &t, 0.0, 1.0)?;
                    }
                }
            }
            Animation::Bca(a) => {
                let tables = a.tables();
                for j in 0..a.joints() {
                    let k = a.tracks(j).ok_or_else(arena_mismatch)?;
                    sink.track(TrackTarget::Joint, j, 0, 0, [0.0; 3])?;
                    for (ci, (table, rest)) in tables.iter().zip([1.0, 0.0, 0.0]).enumerate() {
                        let per = [k.scale, k.rotation, k.translation];
                        for f in per.get(ci).ok_or_else(arena_mismatch)? {
                            table_curve(sink, CurveKind::Table, f, rest, |i| Some(table.value(i)))?;
                        }
                    }
                }
            }
            Animation::Btk(a) => {
                let [s, r, t] = a.tables();
                for i in 0..a.len() {
                    let e = a.entry(i).ok_or_else(arena_mismatch)?;
                    let Some(m) = self.material(name, parsed, i, limits, sink)? else {
                        continue;
                    };
                    if usize::from(e.slot) >= TEX_MATRIX_SLOTS {
                        sink.warn(WarningCode::UnsupportedValue, name, format_args!("entry {i}: texture-matrix slot {}, below {TEX_MATRIX_SLOTS} expected: skipped", e.slot));
                        continue;
                    }
                    let mut flags = if a.is_maya() { TrackRecord::MAYA } else { 0 };
                    if self.base_sources(m)?.tex_matrix == Some(e.slot) {
                        flags |= TrackRecord::BASE_TEXTURE;
                    }
                    sink.track(
                        TrackTarget::TexMatrix,
                        m,
                        u32::from(e.slot),
                        flags,
                        e.centre,
                    )?;
                    for c in &e.scale {
                        sink.keyed(c, &s, 1.0, 1.0)?;
                    }
                    for c in &e.rotation {
                        sink.keyed(c, &r, 0.0, PI)?;
                    }
                    for c in &e.translation {
                        sink.keyed(c, &t, 0.0, 1.0)?;
                    }
                }
            }
            Animation::Brk(a) | Animation::Bpk(a) => {
                for i in 0..a.len() {
                    let e = a.entry(i).ok_or_else(arena_mismatch)?;
                    let Some(m) = self.material(name, parsed, i, limits, sink)? else {
                        continue;
                    };
                    let slot = match e.target {
                        ColourTarget::Register(n) if n < 4 => ColorSlot::REGISTER + u32::from(n),
                        ColourTarget::Konst(n) if n < 4 => ColorSlot::KONST + u32::from(n),
                        ColourTarget::Material => ColorSlot::MATERIAL,
                        ColourTarget::Register(n) | ColourTarget::Konst(n) => {
                            sink.warn(
                                WarningCode::UnsupportedValue,
                                name,
                                format_args!(
                                    "entry {i}: colour index {n}, 0 to 3 expected: skipped"
                                ),
                            );
                            continue;
                        }
                    };
                    let tables = a.tables(i).ok_or_else(arena_mismatch)?;
                    let base = self.base_sources(m)?;
                    let mut flags = 0;
                    if base.rgb.map(u32::from) == Some(slot) {
                        flags |= TrackRecord::BASE_RGB;
                    }
                    if base.alpha.map(u32::from) == Some(slot) {
                        flags |= TrackRecord::BASE_ALPHA;
                    }
                    sink.track(TrackTarget::Color, m, slot, flags, [0.0; 3])?;
                    for (c, table) in e.tracks.iter().zip(&tables) {
                        sink.keyed(c, table, 0.0, 1.0)?;
                    }
                }
            }
            Animation::Btp(a) => {
                for i in 0..a.len() {
                    let e = a.entry(i).ok_or_else(arena_mismatch)?;
                    let Some(m) = self.material(name, parsed, i, limits, sink)? else {
                        continue;
                    };
                    if usize::from(e.slot) >= TEXTURE_SLOTS {
                        sink.warn(WarningCode::UnsupportedValue, name, format_args!("entry {i}: texture-map slot {}, below {TEXTURE_SLOTS} expected: skipped", e.slot));
                        continue;
                    }
                    if e.frames.count == 0 {
                        continue;
                    }
                    sink.track(TrackTarget::TextureIndex, m, u32::from(e.slot), 0, [0.0; 3])?;
                    // Value k is what the game shows at frame k (floor(k) = k).
                    #[allow(clippy::cast_precision_loss)]
                    sink.table(CurveKind::Table, usize::from(e.frames.count), 0.0, |k| {
                        a.texture_index(i, k as f32).map(f32::from)
                    })?;
                }
            }
            Animation::Bva(a) => {
                for shape in 0..a.shapes() {
                    let t = a.track(shape).ok_or_else(arena_mismatch)?;
                    // An empty track leaves the shape as it is: no track.
                    if t.count == 0 {
                        continue;
                    }
                    sink.track(TrackTarget::Visibility, shape, 0, 0, [0.0; 3])?;
                    // Frame k rounds to k (floor(k + 0.5)).
                    #[allow(clippy::cast_precision_loss)]
                    sink.table(CurveKind::Nearest, usize::from(t.count), 1.0, |k| {
                        a.shape_visible(shape, k as f32)
                            .map(|v| if v { 1.0 } else { 0.0 })
                    })?;
                }
            }
        }
        Ok(())
    }
}

impl Model<'_> {
    /// What a clip can animate of material `m`'s glTF form (none without MAT3).
    fn base_sources(&self, m: usize) -> Result<BaseSources, Error> {
        match &self.mat3 {
            Some(mat3) => base_sources(&mat3.material(m)?),
            None => Ok(BaseSources::default()),
        }
    }
}

/// A per-frame track as a table curve: its `count` values from `index`.
#[inline(never)]
fn table_curve(
    sink: &mut Sink<'_, '_>,
    kind: CurveKind,
    track: &FrameTrack,
    rest: f32,
    value: impl Fn(usize) -> Option<f32>,
) -> Result<(), Error> {
    let first = usize::from(track.index);
    sink.table(kind, usize::from(track.count), rest, |i| value(first + i))
}

/// [`Model::material`] when MAT3 has no material for `entry` (error `e`):
/// `None`, warned, when the model lacks the name the entry gives, else
/// `e` in the animation file. Cold and out of line, so `material`'s frame,
/// under which MAT3 is read, holds one result (issue 40).
#[cold]
#[inline(never)]
fn no_material(
    name: &str,
    anim: &Animation<'_>,
    entry: usize,
    sink: &mut Sink<'_, '_>,
    e: &Error,
) -> Result<Option<usize>, Error> {
    match attach::entry_material(anim, entry) {
        Some(material) if e.code() == ErrorCode::AnimationMismatch => {
            let material = core::str::from_utf8(material).unwrap_or("(not UTF-8)");
            sink.warn(
                WarningCode::UnknownReference,
                name,
                format_args!(
                    "entry {entry} animates material {}, which the model does not have: skipped",
                    Quote(material)
                ),
            );
            Ok(None)
        }
        _ => Err(in_file(name, e)),
    }
}

/// `e` with the animation file's name in front of its message (cold, out
/// of line: its copy of the location stays out of the clip readers'
/// frames).
#[cold]
#[inline(never)]
fn in_file(name: &str, e: &Error) -> Error {
    Error::new(
        e.code(),
        e.at().clone(),
        format_args!("animation {}: {}", Quote(name), e.message()),
    )
}
