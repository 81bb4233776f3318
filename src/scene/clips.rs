//! J3D clips: what a clip of a J3D animation file adds to its
//! [`AnimationRecord`](super::AnimationRecord) — its kind, frame count,
//! frame rate and loop mode — and the tracks and curves it plays.
//!
//! J3D keys every scalar on its own (a joint's scale X has key times of its
//! own, apart from scale Y's), so a curve is one scalar component: a track
//! (one joint, texture matrix, colour, texture map or shape) owns a run of
//! curves in a fixed order. Merging components into vector keys would need
//! every component sampled at the union of their key times, which a Hermite
//! curve does not survive exactly; one curve per component keeps the file's
//! keys as they are.

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

/// Which J3D animation file a clip came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ClipKind {
    /// `.bck` (ANK1): keyed joint transforms.
    Bck = 0,
    /// `.bca` (ANF1): a joint-transform table, one value per frame.
    Bca = 1,
    /// `.btk` (TTK1): keyed texture matrices.
    Btk = 2,
    /// `.brk` (TRK1): keyed TEV register and konst colours.
    Brk = 3,
    /// `.bpk` (PAK1): keyed material colours.
    Bpk = 4,
    /// `.btp` (TPT1): a texture-index table.
    Btp = 5,
    /// `.bva` (VAF1): a shape-visibility table.
    Bva = 6,
}

impl ClipKind {
    /// The kind stored as `value`, if it is one.
    pub const fn from_u32(value: u32) -> Option<Self> {
        Some(match value {
            0 => Self::Bck,
            1 => Self::Bca,
            2 => Self::Btk,
            3 => Self::Brk,
            4 => Self::Bpk,
            5 => Self::Btp,
            6 => Self::Bva,
            _ => return None,
        })
    }

    /// The file extension's letters, upper case: `"BCK"`, `"BCA"`, …
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Bck => "BCK",
            Self::Bca => "BCA",
            Self::Btk => "BTK",
            Self::Brk => "BRK",
            Self::Bpk => "BPK",
            Self::Btp => "BTP",
            Self::Bva => "BVA",
        }
    }
}

/// How a J3D clip goes on past its last frame (the game's `J3DFrameCtrl`
/// modes, the file's byte 0x08).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum FrameLoop {
    /// Plays once and holds just before its end (`frames - 0.001`).
    Once = 0,
    /// Plays once, then shows frame 0.
    OnceAndReset = 1,
    /// Wraps around to frame 0.
    Repeat = 2,
    /// Forward, then backward, then holds frame 0.
    MirroredOnce = 3,
    /// Forward, backward, forward, … for ever.
    MirroredRepeat = 4,
}

impl FrameLoop {
    /// The mode stored as `value`; an unknown value plays once.
    pub const fn from_u32(value: u32) -> Self {
        match value {
            1 => Self::OnceAndReset,
            2 => Self::Repeat,
            3 => Self::MirroredOnce,
            4 => Self::MirroredRepeat,
            _ => Self::Once,
        }
    }

    /// The name `inspect` prints: `once`, `once-and-reset`, `repeat`,
    /// `mirrored-once`, `mirrored-repeat`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Once => "once",
            Self::OnceAndReset => "once-and-reset",
            Self::Repeat => "repeat",
            Self::MirroredOnce => "mirrored-once",
            Self::MirroredRepeat => "mirrored-repeat",
        }
    }

    /// The frame a clip of `frames` frames shows `time` frames after it
    /// started: Once stops at `frames - 0.001` (the game's epsilon, so a
    /// table read at `floor(frame)` never reads entry `frames`),
    /// OnceAndReset returns to 0, Repeat wraps, the mirrored modes run back
    /// from the end. A negative or non-finite `time`, or a clip without
    /// frames, shows frame 0.
    pub fn apply(self, time: f32, frames: f32) -> f32 {
        let d = frames;
        if !time.is_finite() || time <= 0.0 || d.is_nan() || d <= 0.0 {
            return 0.0;
        }
        match self {
            Self::Once if time >= d => d - 0.001,
            Self::OnceAndReset if time >= d => 0.0,
            Self::Once | Self::OnceAndReset => time,
            Self::Repeat => libm::fmodf(time, d),
            Self::MirroredOnce if time >= 2.0 * d => 0.0,
            Self::MirroredOnce | Self::MirroredRepeat => {
                let u = libm::fmodf(time, 2.0 * d);
                if u < d { u } else { 2.0 * d - u }
            }
        }
    }
}

/// A J3D clip: the [`AnimationRecord`](super::AnimationRecord) it extends
/// and what J3D adds. One per attached animation file.
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct ClipRecord {
    /// The clip's index in the scene's animations.
    pub animation: u32,
    /// [`ClipKind`] as its `u8` value (widened).
    pub kind: u32,
    /// [`FrameLoop`] as its `u8` value (widened).
    pub loop_mode: u32,
    /// Frames in the clip (the file's duration).
    pub frames: f32,
    /// Frames per second that `Scene::sample`'s seconds are turned into
    /// frames with (30: docs/j3d.md, "Frame rate").
    pub frame_rate: f32,
    /// First track in the scene's track array.
    pub first_track: u32,
    /// Tracks of the clip.
    pub track_count: u32,
}

/// What a track animates; its curves, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum TrackTarget {
    /// Joint `index` (a node): 9 curves, scale X Y Z, rotation X Y Z
    /// (radians, applied X, then Y, then Z), translation X Y Z. They replace
    /// the joint's rest transform.
    Joint = 0,
    /// Texture matrix `slot` of material `index`: 9 curves, scale S T Q,
    /// rotation S T Q (radians; the matrix turns by Q), translation S T Q.
    TexMatrix = 1,
    /// Colour `slot` of material `index` ([`ColorSlot`]): 4 curves, R G B A
    /// as the file's s16 / 255, unclamped.
    Color = 2,
    /// Texture map `slot` of material `index`: 1 curve of TEX1 indices.
    TextureIndex = 3,
    /// Shape `index` (the scene's mesh of that index): 1 curve, 1 drawn, 0 hidden.
    Visibility = 4,
}

impl TrackTarget {
    /// The target stored as `value`, if it is one.
    pub const fn from_u32(value: u32) -> Option<Self> {
        Some(match value {
            0 => Self::Joint,
            1 => Self::TexMatrix,
            2 => Self::Color,
            3 => Self::TextureIndex,
            4 => Self::Visibility,
            _ => return None,
        })
    }

    /// Curves a track of this target owns.
    pub const fn curves(self) -> usize {
        match self {
            Self::Joint | Self::TexMatrix => 9,
            Self::Color => 4,
            Self::TextureIndex | Self::Visibility => 1,
        }
    }
}

/// The colours a material's colour track can animate, as
/// [`TrackRecord::slot`] numbers them.
pub struct ColorSlot;

impl ColorSlot {
    /// TEV colour register `C0 + n` is slot `n` (n = 0..=3).
    pub const REGISTER: u32 = 0;
    /// Konst colour `K0 + n` is slot `4 + n` (n = 0..=3).
    pub const KONST: u32 = 4;
    /// Material colour `MAT0 + n` is slot `8 + n` (n = 0, 1).
    pub const MATERIAL: u32 = 8;
    /// Slots in all.
    pub const COUNT: usize = 10;

    /// `"C0"`…`"C3"`, `"K0"`…`"K3"`, `"MAT0"`, `"MAT1"`, or `None` past them.
    pub const fn name(slot: usize) -> Option<&'static str> {
        Some(match slot {
            0 => "C0",
            1 => "C1",
            2 => "C2",
            3 => "C3",
            4 => "K0",
            5 => "K1",
            6 => "K2",
            7 => "K3",
            8 => "MAT0",
            9 => "MAT1",
            _ => return None,
        })
    }
}

/// One animated thing of a J3D clip.
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct TrackRecord {
    /// [`TrackTarget`] as its `u8` value (widened).
    pub target: u32,
    /// The node (joint), material or mesh (shape) it animates.
    pub index: u32,
    /// Texture-matrix slot, [`ColorSlot`] or texture-map slot; 0 for joints and shapes.
    pub slot: u32,
    /// [`TrackRecord::MAYA`], [`TrackRecord::BASE_TEXTURE`],
    /// [`TrackRecord::BASE_RGB`], [`TrackRecord::BASE_ALPHA`] bits.
    pub flags: u32,
    /// A texture matrix's centre of rotation and scale, S T Q (0 otherwise).
    pub centre: [f32; 3],
    /// First curve in the scene's curve array.
    pub first_curve: u32,
    /// Curves of the track: [`TrackTarget::curves`].
    pub curve_count: u32,
}

impl TrackRecord {
    /// A texture matrix built the Maya way (TTK1's flag): turned about
    /// (0.5, 0.5), translation inside the scale, T flipped.
    pub const MAYA: u32 = 1;
    /// A texture matrix that slot 0's texture coordinates go through (from
    /// a UV set, the matrix's SRT alone): it moves the material's base
    /// colour texture.
    pub const BASE_TEXTURE: u32 = 2;
    /// A colour whose RGB is the material's base colour factor's RGB (the
    /// TEV stages fold to it: [`MaterialRecord::base_color`](super::MaterialRecord::base_color)).
    pub const BASE_RGB: u32 = 4;
    /// A colour whose alpha is the material's base colour factor's alpha.
    pub const BASE_ALPHA: u32 = 8;
}

/// How a curve's value at a frame is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum CurveKind {
    /// Keys in the scene's Hermite keys: cubic Hermite between the two keys
    /// around the frame; the first value before them, the last after.
    Hermite = 0,
    /// One value a frame in the scene's curve values, read at
    /// `floor(frame)`, the last from the table's end on.
    Table = 1,
    /// The same table read at the nearest frame, `floor(frame + 0.5)`
    /// (shape visibility).
    Nearest = 2,
}

/// One scalar of a track over time.
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct CurveRecord {
    /// [`CurveKind`] as its `u8` value (widened).
    pub kind: u32,
    /// First key (Hermite) or value (tables).
    pub first: u32,
    /// Keys or values; 0 means the curve is `rest` throughout.
    pub count: u32,
    /// The value of a curve without keys (1 for scales, else 0).
    pub rest: f32,
}

/// One key of a Hermite curve.
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct HermiteKey {
    /// Frame of the key; keys ascend.
    pub time: f32,
    /// Value at the key.
    pub value: f32,
    /// Slope arriving at the key, per frame.
    pub tangent_in: f32,
    /// Slope leaving the key, per frame.
    pub tangent_out: f32,
}
