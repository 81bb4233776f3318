//! What every J3D animation chunk shares: the file header and its one chunk,
//! the loop mode and duration, keyed tracks (Hermite) and value tables, and
//! the limit accounting. The per-kind modules (`ank1.rs`, `ttk1.rs`, …) build
//! on these and nothing here calls into them.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times strides of at most 54 bytes (below 2^40, no overflow with a 64-bit usize); every table is checked against the chunk before its first read"
)]

use crate::error::{Error, ErrorCode, Location, SectionId, Warning, WarningCode};
use crate::j3d::Section;
use crate::j3d::read::SectionReader;
use crate::limits::J3dLimits;

/// Bytes of the file header (as for models).
pub const HEADER_LEN: usize = 0x20;

/// The seven animation kinds: file magic, chunk id, and the extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `.bck`, `J3D1bck1` / ANK1: keyed joint transforms.
    Bck,
    /// `.bca`, `J3D1bca1` / ANF1: joint transforms, one value per frame.
    Bca,
    /// `.btk`, `J3D1btk1` / TTK1: keyed texture-matrix SRT.
    Btk,
    /// `.brk`, `J3D1brk1` / TRK1: keyed TEV register and konst colours.
    Brk,
    /// `.bpk`, `J3D1bpk1` / PAK1: keyed material colour.
    Bpk,
    /// `.btp`, `J3D1btp1` / TPT1: texture index per frame.
    Btp,
    /// `.bva`, `J3D1bva1` / VAF1: shape visibility per frame.
    Bva,
}

impl Kind {
    const ALL: [(Self, &'static [u8; 8], &'static [u8; 4]); 7] = [
        (Self::Bck, b"J3D1bck1", b"ANK1"),
        (Self::Bca, b"J3D1bca1", b"ANF1"),
        (Self::Btk, b"J3D1btk1", b"TTK1"),
        (Self::Brk, b"J3D1brk1", b"TRK1"),
        (Self::Bpk, b"J3D1bpk1", b"PAK1"),
        (Self::Btp, b"J3D1btp1", b"TPT1"),
        (Self::Bva, b"J3D1bva1", b"VAF1"),
    ];

    /// The kind a file's 8-byte magic names, if it is an animation.
    pub fn from_magic(magic: &[u8]) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(_, m, _)| m.as_slice() == magic)
            .map(|(k, _, _)| *k)
    }

    /// The id of the kind's one chunk.
    pub fn chunk_id(self) -> SectionId {
        let id = Self::ALL
            .iter()
            .find(|(k, _, _)| *k == self)
            .map_or(b"ANK1", |(_, _, c)| *c);
        SectionId(*id)
    }
}

/// How a clip continues past its last frame (byte 0x08 of every chunk):
/// the game's `J3DFrameCtrl` modes, which the scene keeps as they are, so
/// one type (and one [`FrameLoop::apply`](crate::scene::FrameLoop::apply))
/// serves the reader and the sampler.
pub use crate::scene::FrameLoop as LoopMode;

/// The mode byte 0x08 holds: 0 to 4, the scene's values.
fn loop_mode_of(byte: u8) -> Option<LoopMode> {
    (byte <= 4).then(|| LoopMode::from_u32(u32::from(byte)))
}

/// The loop mode and duration every chunk starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clip {
    /// What happens past the last frame.
    pub loop_mode: LoopMode,
    /// Frames in the clip (the chunk's u16 duration).
    pub duration: u16,
}

impl Clip {
    /// The frame shown `time` frames after the clip started: [`LoopMode::apply`].
    pub fn frame_at(&self, time: f32) -> f32 {
        self.loop_mode.apply(time, f32::from(self.duration))
    }
}

/// Finds the one chunk of an animation file: checks the magic, the header and
/// the chunk's id and size. A file shorter than its header says is read when
/// the chunk's bytes it holds are enough (real BCA files ship with their
/// trailing padding stripped): a warning says so, and every table read later
/// is still checked against the bytes present.
pub(crate) fn chunk<'a>(
    bytes: &'a [u8],
    limits: &J3dLimits,
    report: &mut dyn FnMut(Warning),
) -> Result<(Kind, SectionReader<'a>), Error> {
    crate::limits::check(
        bytes.len() as u64,
        limits.max_file_bytes,
        ErrorCode::FileTooLarge,
        "file bytes",
        Location::Nowhere,
    )?;
    let truncated = |at: usize, what: &str| {
        Error::binary(
            ErrorCode::Truncated,
            at as u64,
            None,
            format_args!("file ends at byte {}: {what} expected", bytes.len()),
        )
    };
    let header = bytes
        .first_chunk::<HEADER_LEN>()
        .ok_or_else(|| truncated(bytes.len(), "an animation header of 32 bytes"))?;
    let kind = Kind::from_magic(header.get(..8).unwrap_or_default()).ok_or_else(|| {
        Error::binary(
            ErrorCode::UnknownFormat,
            0,
            None,
            format_args!(
                "not a J3D animation: J3D1 and bck1, bca1, btk1, brk1, bpk1, btp1 or bva1 expected"
            ),
        )
    })?;
    let word = |at: usize| {
        bytes
            .get(at..at + 4)
            .and_then(|b| b.first_chunk::<4>())
            .map_or(0, |b| u32::from_be_bytes(*b)) as usize
    };
    let declared = word(8);
    if word(12) == 0 {
        return Err(Error::binary(
            ErrorCode::BadValue,
            12,
            None,
            format_args!("the header declares no chunk"),
        ));
    }
    let id = kind.chunk_id();
    let head = bytes
        .get(HEADER_LEN..HEADER_LEN + 8)
        .ok_or_else(|| truncated(HEADER_LEN, "a chunk header"))?;
    if head.get(..4) != Some(id.0.as_slice()) {
        return Err(Error::binary(
            ErrorCode::BadValue,
            HEADER_LEN as u64,
            None,
            format_args!("chunk {} expected first in this file", id.as_str()),
        ));
    }
    let size = word(HEADER_LEN + 4);
    if size < 8 {
        return Err(Error::binary(
            ErrorCode::BadValue,
            (HEADER_LEN + 4) as u64,
            Some(id),
            format_args!("chunk size {size} is smaller than its 8-byte header"),
        ));
    }
    let end = HEADER_LEN.saturating_add(size);
    let chunk = match bytes.get(HEADER_LEN..end) {
        Some(b) => b,
        // Cut short, but no shorter than the header says the file is: the
        // padding was stripped. Read what is there.
        None if declared > bytes.len() && end <= declared => {
            report(Warning::new(
                WarningCode::ShortAnimationFile,
                Location::Binary {
                    offset: bytes.len() as u64,
                    section: Some(id),
                },
                format_args!(
                    "file is {} bytes, its header declares {declared}: read as far as it goes",
                    bytes.len()
                ),
            ));
            bytes.get(HEADER_LEN..).unwrap_or_default()
        }
        None => return Err(truncated(HEADER_LEN, "the chunk's declared size")),
    };
    let reader = SectionReader::new(Section {
        id,
        offset: HEADER_LEN,
        bytes: chunk,
    });
    Ok((kind, reader))
}

/// Reads the loop mode (u8 at 0x08) and the duration (u16 at `duration_at`:
/// 0x0A for every kind but PAK1, whose duration sits at 0x0C).
pub(crate) fn clip(
    r: &SectionReader<'_>,
    duration_at: usize,
    limits: &J3dLimits,
) -> Result<Clip, Error> {
    let byte = r.u8(0x08)?;
    let loop_mode = loop_mode_of(byte).ok_or_else(|| {
        r.error(
            ErrorCode::BadValue,
            0x08,
            format_args!("loop mode {byte}: 0 to 4 expected"),
        )
    })?;
    let duration = r.u16(duration_at)?;
    crate::limits::check(
        u64::from(duration),
        limits.max_anim_frames,
        ErrorCode::TooManyKeyframes,
        "animation frames",
        Location::Binary {
            offset: r.file_offset(duration_at) as u64,
            section: Some(r.id()),
        },
    )?;
    Ok(Clip {
        loop_mode,
        duration,
    })
}

/// Checks an entry count against the track limit (`entries * per_entry`
/// tracks), before any entry is read.
pub(crate) fn check_tracks(
    r: &SectionReader<'_>,
    count_at: usize,
    entries: usize,
    per_entry: usize,
    limits: &J3dLimits,
) -> Result<(), Error> {
    crate::limits::check(
        (entries * per_entry) as u64,
        limits.max_anim_tracks,
        ErrorCode::TooManyKeyframes,
        "animation tracks",
        Location::Binary {
            offset: r.file_offset(count_at) as u64,
            section: Some(r.id()),
        },
    )
}

/// Keys and table values counted over all tracks while they are checked,
/// against `max_anim_keys`.
pub(crate) struct KeyBudget {
    used: u64,
    limit: u64,
}

impl KeyBudget {
    pub(crate) fn new(limits: &J3dLimits) -> Self {
        Self {
            used: 0,
            limit: limits.max_anim_keys,
        }
    }

    pub(crate) fn take(&mut self, r: &SectionReader<'_>, at: usize, n: usize) -> Result<(), Error> {
        self.used = self.used.saturating_add(n as u64);
        crate::limits::check(
            self.used,
            self.limit,
            ErrorCode::TooManyKeyframes,
            "animation keys and values",
            Location::Binary {
                offset: r.file_offset(at) as u64,
                section: Some(r.id()),
            },
        )
    }
}

/// What a value table holds: big-endian f32, or s16 times a scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Values {
    /// f32 values (scale, translation, texture scale and translation).
    F32,
    /// s16 values times this factor (rotations, colours). Key times in an
    /// s16 table are whole frames, not scaled.
    S16(f32),
}

/// Scale, rotation and translation, three components each (X, Y, Z for a
/// joint; S, T, Q for a texture matrix): the tracks of one ANK1, ANF1 or
/// TTK1 entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Srt<T> {
    /// Scale, per component.
    pub scale: [T; 3],
    /// Rotation, per component.
    pub rotation: [T; 3],
    /// Translation, per component.
    pub translation: [T; 3],
}

impl<T> Srt<T> {
    /// The nine tracks of an entry that stores them axis-major (X: S R T,
    /// Y: S R T, Z: S R T), as ANK1, ANF1 and TTK1 entries do;
    /// `track(axis, component)` reads one, component 0 scale, 1 rotation,
    /// 2 translation.
    pub(crate) fn axis_major(
        track: impl Fn(usize, usize) -> Result<T, Error>,
    ) -> Result<Self, Error>
    where
        T: Copy,
    {
        // One track read at a time into its place: built as arrays of
        // results, each result (and its error) kept a slot of its own,
        // nine times 300 bytes of stack.
        let first = track(0, 0)?;
        let mut out = Self {
            scale: [first; 3],
            rotation: [first; 3],
            translation: [first; 3],
        };
        let components = [&mut out.scale, &mut out.rotation, &mut out.translation];
        for (component, tracks) in components.into_iter().enumerate() {
            for (axis, slot) in tracks.iter_mut().enumerate() {
                if (axis, component) != (0, 0) {
                    *slot = track(axis, component)?;
                }
            }
        }
        Ok(out)
    }

    /// Every track: scale, then rotation, then translation.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.scale
            .iter()
            .chain(&self.rotation)
            .chain(&self.translation)
    }
}

/// The scale, rotation and translation value tables of an ANK1, ANF1 or
/// TTK1 chunk.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SrtTables<'a> {
    pub scale: Table<'a>,
    pub rotation: Table<'a>,
    pub translation: Table<'a>,
}

impl<'a> SrtTables<'a> {
    /// Counts are the u16s at 0x0E, 0x10 and 0x12, offsets three u32s from
    /// `offsets_at` on; rotations read as `angle`.
    pub(crate) fn read(
        r: &SectionReader<'a>,
        offsets_at: usize,
        angle: Values,
    ) -> Result<Self, Error> {
        Ok(Self {
            scale: Table::read(r, offsets_at, r.u16(0x0E)?, Values::F32)?,
            rotation: Table::read(r, offsets_at + 4, r.u16(0x10)?, angle)?,
            translation: Table::read(r, offsets_at + 8, r.u16(0x12)?, Values::F32)?,
        })
    }

    /// Component 0's table (scale), 1's (rotation) or 2's (translation).
    pub(crate) fn component(&self, component: usize) -> &Table<'a> {
        match component {
            1 => &self.rotation,
            2 => &self.translation,
            _ => &self.scale,
        }
    }

    /// Scale, rotation and translation tables.
    pub(crate) fn all(&self) -> [Table<'a>; 3] {
        [self.scale, self.rotation, self.translation]
    }
}

/// The rotation fraction at byte 0x09 of ANK1 and TTK1: rotations are
/// s16 · 2^fraction / 0x7FFF half-turns, the fraction at most 15.
pub(crate) fn rotation_fraction(r: &SectionReader<'_>) -> Result<u8, Error> {
    let fraction = r.u8(0x09)?;
    if fraction > 15 {
        return Err(r.error(
            ErrorCode::BadValue,
            0x09,
            format_args!("rotation fraction {fraction}: at most 15 expected"),
        ));
    }
    Ok(fraction)
}

/// A table of values the tracks point into, checked to lie in the chunk.
#[derive(Clone, Copy, Debug)]
pub struct Table<'a> {
    bytes: &'a [u8],
    values: Values,
}

impl<'a> Table<'a> {
    /// The table of `count` values at the u32 offset stored at `offset_at`.
    pub(crate) fn read(
        r: &SectionReader<'a>,
        offset_at: usize,
        count: u16,
        values: Values,
    ) -> Result<Self, Error> {
        let size = match values {
            Values::F32 => 4,
            Values::S16(_) => 2,
        };
        let count = usize::from(count);
        // An empty table may point anywhere: nothing is read from it.
        let bytes = if count == 0 {
            &[]
        } else {
            r.table(r.offset(offset_at)?, count, size)?
        };
        Ok(Self { bytes, values })
    }

    /// Values in the table.
    pub fn len(&self) -> usize {
        match self.values {
            Values::F32 => self.bytes.len() / 4,
            Values::S16(_) => self.bytes.len() / 2,
        }
    }

    /// True for a table with no values.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Value `i` as stored (an s16 unscaled), 0 past the end (never met
    /// once the tracks were checked).
    fn raw(&self, i: usize) -> f32 {
        match self.values {
            Values::F32 => self
                .bytes
                .get(i * 4..i * 4 + 4)
                .and_then(|b| b.first_chunk::<4>())
                .map_or(0.0, |b| f32::from_be_bytes(*b)),
            Values::S16(_) => self
                .bytes
                .get(i * 2..i * 2 + 2)
                .and_then(|b| b.first_chunk::<2>())
                .map_or(0.0, |b| f32::from(i16::from_be_bytes(*b))),
        }
    }

    /// Value `i` in its unit (an s16 times the table's factor).
    pub fn value(&self, i: usize) -> f32 {
        match self.values {
            Values::F32 => self.raw(i),
            Values::S16(scale) => self.raw(i) * scale,
        }
    }
}

/// How a keyed track stores its tangents (u16 in its track header).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tangents {
    /// 0: `(time, value, tangent)`, one tangent for both sides.
    In,
    /// 1: `(time, value, in, out)`.
    InOut,
}

impl Tangents {
    const fn stride(self) -> usize {
        match self {
            Self::In => 3,
            Self::InOut => 4,
        }
    }
}

/// One keyed track: `count` keys from entry `index` of its table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyTrack {
    /// Keys; 0 holds the component's rest value, 1 is a constant.
    pub count: u16,
    /// First table entry of the track.
    pub index: u16,
    /// How the keys store their tangents.
    pub tangents: Tangents,
}

impl KeyTrack {
    /// No keys: a placeholder for an array filled by [`KeyTrack::read`].
    pub(crate) const EMPTY: Self = Self {
        count: 0,
        index: 0,
        tangents: Tangents::In,
    };

    /// Reads the 6-byte track header `(count, index, tangent mode)` at `at`
    /// and checks its keys lie inside `table`.
    pub(crate) fn read(r: &SectionReader<'_>, at: usize, table: &Table<'_>) -> Result<Self, Error> {
        let count = r.u16(at)?;
        let index = r.u16(at + 2)?;
        let mode = r.u16(at + 4)?;
        let tangents = match mode {
            0 => Tangents::In,
            1 => Tangents::InOut,
            // A one-key track never reads its tangent mode.
            _ if count <= 1 => Tangents::In,
            _ => {
                return Err(r.error(
                    ErrorCode::BadValue,
                    at + 4,
                    format_args!("tangent mode {mode}: 0 (in) or 1 (in/out) expected"),
                ));
            }
        };
        let used = match count {
            0 => 0,
            1 => 1,
            n => usize::from(n) * tangents.stride(),
        };
        let end = usize::from(index) + used;
        if used > 0 && end > table.len() {
            return Err(r.error(
                ErrorCode::BadOffset,
                at,
                format_args!(
                    "track of {count} keys from value {index} runs past its table of {}",
                    table.len()
                ),
            ));
        }
        Ok(Self {
            count,
            index,
            tangents,
        })
    }

    /// Key `k` of the track (of a track with one key: that value at frame
    /// 0, flat), `None` past its keys. `table` is the one it was read with.
    pub fn key(&self, table: &Table<'_>, k: usize) -> Option<Key> {
        match self.count {
            0 => None,
            1 => (k == 0).then(|| Key {
                time: 0.0,
                value: table.value(usize::from(self.index)),
                tangent_in: 0.0,
                tangent_out: 0.0,
            }),
            n => (k < usize::from(n)).then(|| self.key_at(table, k)),
        }
    }

    fn key_at(&self, table: &Table<'_>, k: usize) -> Key {
        let at = usize::from(self.index) + k * self.tangents.stride();
        let tangent_out = match self.tangents {
            Tangents::In => table.value(at + 2),
            Tangents::InOut => table.value(at + 3),
        };
        Key {
            time: table.raw(at),
            value: table.value(at + 1),
            tangent_in: table.value(at + 2),
            tangent_out,
        }
    }

    /// The track's value at `frame`, as the game's key interpolation gives
    /// it: before the first key the first value, from the last key on the
    /// last value, between keys a cubic Hermite of the two keys' values with
    /// the first key's out tangent and the second's in tangent, both times
    /// the keys' distance. `rest` is the value of a track with no keys.
    pub fn sample(&self, table: &Table<'_>, frame: f32, rest: f32) -> f32 {
        let first = usize::from(self.index);
        match self.count {
            0 => return rest,
            1 => return table.value(first),
            _ => {}
        }
        let key = |k: usize| self.key_at(table, k);
        let count = usize::from(self.count);
        let k0 = key(0);
        if frame.is_nan() || frame < k0.time {
            return k0.value;
        }
        let last = key(count - 1);
        if frame >= last.time {
            return last.value;
        }
        // The first key later than `frame` (there is one: frame < last.time).
        let mut lo = 0;
        let mut hi = count - 1;
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if frame < key(mid).time {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hermite(&key(lo), &key(hi), frame)
    }
}

/// One key, in its track's units (an s16 time is a whole frame, unscaled).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key {
    /// Frame of the key.
    pub time: f32,
    /// Value at the key.
    pub value: f32,
    /// Slope arriving at the key, per frame.
    pub tangent_in: f32,
    /// Slope leaving the key, per frame (the in slope in tangent mode 0).
    pub tangent_out: f32,
}

/// Cubic Hermite between two keys at `frame` (`k0.time <= frame < k1.time`).
pub(crate) fn hermite(k0: &Key, k1: &Key, frame: f32) -> f32 {
    let length = k1.time - k0.time;
    if length <= 0.0 {
        return k1.value;
    }
    let t = (frame - k0.time) / length;
    let t2 = t * t;
    let t3 = t2 * t;
    let m0 = k0.tangent_out * length;
    let m1 = k1.tangent_in * length;
    k0.value * (2.0 * t3 - 3.0 * t2 + 1.0)
        + m0 * (t3 - 2.0 * t2 + t)
        + k1.value * (-2.0 * t3 + 3.0 * t2)
        + m1 * (t3 - t2)
}

/// Index of a per-frame table at `frame`, as the game reads BCA and BTP
/// tables: `floor(frame)`, frame 0 before the start, the last entry from the
/// end on. `None` for an empty table.
pub fn table_index(frame: f32, count: usize) -> Option<usize> {
    let last = count.checked_sub(1)?;
    if frame.is_nan() || frame <= 0.0 {
        return Some(0);
    }
    let floor = libm::floorf(frame);
    // Saturating float-to-int conversion; a huge frame is past the end.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let i = floor as usize;
    Some(i.min(last))
}

/// The material (or other) names of a chunk, checked: `count` names, each
/// NUL-terminated inside the chunk.
pub(crate) fn names<'a>(
    r: SectionReader<'a>,
    offset_at: usize,
    count: usize,
) -> Result<crate::j3d::read::NameTable<'a>, Error> {
    if count == 0 {
        return Ok(crate::j3d::read::NameTable::empty(r));
    }
    let table = crate::j3d::read::NameTable::new(r, r.offset(offset_at)?)?;
    if table.len() < count {
        return Err(r.error(
            ErrorCode::BadValue,
            offset_at,
            format_args!("{count} entries but {} names", table.len()),
        ));
    }
    for i in 0..count {
        table.get(i)?;
    }
    Ok(table)
}

/// One joint's transform at a frame: what BCK and BCA give alike.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointPose {
    /// Scale X, Y, Z.
    pub scale: [f32; 3],
    /// Euler angles in radians, applied X first, then Y, then Z (`Rz·Ry·Rx`).
    pub rotation: [f32; 3],
    /// Translation X, Y, Z.
    pub translation: [f32; 3],
}

/// One per-frame track (BCA, BTP, BVA): `count` values from entry `index`
/// of its table, one per frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameTrack {
    /// Values (frames) in the track.
    pub count: u16,
    /// First table entry of the track.
    pub index: u16,
}

impl FrameTrack {
    /// Reads `(count, index)` at `at` and checks the values lie in a table
    /// of `table_len`.
    pub(crate) fn read(r: &SectionReader<'_>, at: usize, table_len: usize) -> Result<Self, Error> {
        let count = r.u16(at)?;
        let index = r.u16(at + 2)?;
        if count > 0 && usize::from(index) + usize::from(count) > table_len {
            return Err(r.error(
                ErrorCode::BadOffset,
                at,
                format_args!(
                    "track of {count} values from value {index} runs past its table of {table_len}"
                ),
            ));
        }
        Ok(Self { count, index })
    }

    /// The table entry the game reads at `frame` ([`table_index`]).
    pub fn entry(&self, frame: f32) -> Option<usize> {
        table_index(frame, usize::from(self.count)).map(|i| usize::from(self.index) + i)
    }
}

/// Half-turns per s16 unit of a rotation with this fraction: 2^fraction / 0x7FFF.
pub(crate) fn rotation_scale(fraction: u8) -> f32 {
    let steps = 1u32.checked_shl(u32::from(fraction)).unwrap_or(1);
    // Exact: at most 2^15.
    #[allow(clippy::cast_precision_loss)]
    let steps = steps as f32;
    steps / 32767.0
}
