//! Animations: clips of keyframed channels that move nodes.

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

use super::TextRef;

/// What a clip does after its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum LoopMode {
    /// Plays once, then returns to rest.
    Once = 0,
    /// Plays once, then holds the last frame.
    Hold = 1,
    /// Repeats.
    Loop = 2,
}

/// Which property a channel moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ChannelTarget {
    /// Added to the node's translation, model units.
    Translation = 0,
    /// Added to the node's Euler rotation, radians, same order as nodes.
    Rotation = 1,
    /// Multiplies the node's scale.
    Scale = 2,
}

/// How values between a keyframe and the next are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Interpolation {
    /// Straight line.
    Linear = 0,
    /// Catmull-Rom through the neighbours.
    CatmullRom = 1,
    /// Holds the value until the next keyframe.
    Step = 2,
}

/// An animation clip, as stored in the arena.
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct AnimationRecord {
    /// The clip's name.
    pub name: TextRef,
    /// Length in seconds.
    pub length: f32,
    /// [`LoopMode`] as its `u8` value (widened).
    pub loop_mode: u32,
    /// First channel in the scene's channel array.
    pub first_channel: u32,
    /// Channels of the clip.
    pub channel_count: u32,
}

/// One animated property of one node.
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct ChannelRecord {
    /// The node it moves.
    pub node: u32,
    /// [`ChannelTarget`] as its `u8` value (widened).
    pub target: u32,
    /// First keyframe in the scene's keyframe array (sorted by time).
    pub first_keyframe: u32,
    /// Keyframes of the channel.
    pub keyframe_count: u32,
}

/// One keyframe: a time and the values on either side of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct KeyframeRecord {
    /// Time in seconds from the clip's start.
    pub time: f32,
    /// [`Interpolation`] towards the next keyframe, as its `u8` value (widened).
    pub interpolation: u32,
    /// Value arriving at this keyframe (Blockbench's pre data point).
    pub pre: [f32; 3],
    /// Value leaving it (post data point; equal to `pre` when there is one).
    pub post: [f32; 3],
    /// How many data points the keyframe has: 1, or 2 when `post` is one of
    /// its own (which may equal `pre`; Blockbench's catmull-rom treats such
    /// a keyframe apart). 0, as in a record built by hand from `Default`,
    /// reads as 1 when `post == pre` and 2 otherwise.
    pub data_points: u32,
}

/// Where a keyframe's Molang values are, parallel to the scene's
/// keyframes: the keyframe's JSON object in the input and which of its
/// six played axes are Molang text. The sampler reads and evaluates those
/// at each sample (docs/scene-format.md, "Molang keyframes"); the
/// [`KeyframeRecord`] holds the channel's default there.
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct KeyframeSource {
    /// The keyframe object `{…}` in the input; empty without Molang.
    pub text: TextRef,
    /// Bit `3·point + axis` (point 0 pre, 1 post; axis x, y, z) set for
    /// each Molang value the keyframe plays, plus [`KeyframeSource::BEFORE_5`].
    pub molang: u32,
}

impl KeyframeSource {
    /// The six axis bits.
    pub const AXES: u32 = 0b11_1111;
    /// The file predates format 5.0: rotation x, y and position x change
    /// sign after evaluation (convention 13).
    pub const BEFORE_5: u32 = 1 << 8;
    /// The keyframe's values are read from its data points (else from its
    /// own `x`, `y`, `z`, before 3.7).
    pub const DATA_POINTS: u32 = 1 << 9;
}

/// A skin: the joints a set of meshes is bound to.
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct SkinRecord {
    /// First joint in the scene's skin joint and inverse-bind arrays.
    pub first_joint: u32,
    /// Joints of the skin.
    pub joint_count: u32,
}
