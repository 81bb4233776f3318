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
    /// Blockbench's bezier curve through the keyframes' handles
    /// (`Keyframe.getBezierLerp`).
    Bezier = 3,
    /// A name Blockbench does not know (its keyframe keeps any string):
    /// `BoneAnimator.interpolate` finds no curve for a segment with such an
    /// end unless the other end is catmull-rom or bezier, and returns no
    /// value, so the channel is at rest there.
    Unknown = 4,
}

/// A plugin format's per-keyframe easing of the linear segment arriving at
/// a keyframe (the GeckoLib and Animation Utils plugins' `easing`), named
/// as the plugins name them; [`Easing::Linear`] is no easing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
#[allow(
    missing_docs,
    reason = "each variant is the plugin's easing of that name"
)]
pub enum Easing {
    /// No easing (`linear`, or none given).
    Linear = 0,
    /// `step`: `easing_arg` steps (the plugin's default 5).
    Step = 1,
    InQuad = 2,
    OutQuad = 3,
    InOutQuad = 4,
    InCubic = 5,
    OutCubic = 6,
    InOutCubic = 7,
    InQuart = 8,
    OutQuart = 9,
    InOutQuart = 10,
    InQuint = 11,
    OutQuint = 12,
    InOutQuint = 13,
    InSine = 14,
    OutSine = 15,
    InOutSine = 16,
    InExpo = 17,
    OutExpo = 18,
    InOutExpo = 19,
    InCirc = 20,
    OutCirc = 21,
    InOutCirc = 22,
    /// `easeInBack`: overshoot 1.70158 × `easing_arg` (default 1).
    InBack = 23,
    OutBack = 24,
    InOutBack = 25,
    /// `easeInElastic`: `easing_arg` bounciness (default 1).
    InElastic = 26,
    OutElastic = 27,
    InOutElastic = 28,
    /// `easeInBounce`: `easing_arg` bounciness (default 0.5).
    InBounce = 29,
    OutBounce = 30,
    InOutBounce = 31,
}

impl Easing {
    /// Every easing, in `u8` order, with the name the plugins give it.
    pub const ALL: [(Self, &'static str); 32] = [
        (Self::Linear, "linear"),
        (Self::Step, "step"),
        (Self::InQuad, "easeInQuad"),
        (Self::OutQuad, "easeOutQuad"),
        (Self::InOutQuad, "easeInOutQuad"),
        (Self::InCubic, "easeInCubic"),
        (Self::OutCubic, "easeOutCubic"),
        (Self::InOutCubic, "easeInOutCubic"),
        (Self::InQuart, "easeInQuart"),
        (Self::OutQuart, "easeOutQuart"),
        (Self::InOutQuart, "easeInOutQuart"),
        (Self::InQuint, "easeInQuint"),
        (Self::OutQuint, "easeOutQuint"),
        (Self::InOutQuint, "easeInOutQuint"),
        (Self::InSine, "easeInSine"),
        (Self::OutSine, "easeOutSine"),
        (Self::InOutSine, "easeInOutSine"),
        (Self::InExpo, "easeInExpo"),
        (Self::OutExpo, "easeOutExpo"),
        (Self::InOutExpo, "easeInOutExpo"),
        (Self::InCirc, "easeInCirc"),
        (Self::OutCirc, "easeOutCirc"),
        (Self::InOutCirc, "easeInOutCirc"),
        (Self::InBack, "easeInBack"),
        (Self::OutBack, "easeOutBack"),
        (Self::InOutBack, "easeInOutBack"),
        (Self::InElastic, "easeInElastic"),
        (Self::OutElastic, "easeOutElastic"),
        (Self::InOutElastic, "easeInOutElastic"),
        (Self::InBounce, "easeInBounce"),
        (Self::OutBounce, "easeOutBounce"),
        (Self::InOutBounce, "easeInOutBounce"),
    ];

    /// The easing of a record's `easing` field; an unknown value is linear.
    pub fn from_u32(value: u32) -> Self {
        Self::ALL
            .iter()
            .find(|(e, _)| *e as u32 == value)
            .map_or(Self::Linear, |(e, _)| *e)
    }

    /// The argument the plugins use when `easingArgs` gives none
    /// (`getEasingArgDefault`): 1 for back and elastic, 0.5 for bounce, 5
    /// steps, and 0 for easings that take none.
    pub const fn default_arg(self) -> f32 {
        match self {
            Self::InBack
            | Self::OutBack
            | Self::InOutBack
            | Self::InElastic
            | Self::OutElastic
            | Self::InOutElastic => 1.0,
            Self::InBounce | Self::OutBounce | Self::InOutBounce => 0.5,
            Self::Step => 5.0,
            _ => 0.0,
        }
    }

    /// Whether it takes an argument (the plugins' `isArgsEasing`).
    pub const fn takes_arg(self) -> bool {
        self.default_arg() != 0.0
    }
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
    /// [`ChannelFlags`] bits: how Blockbench plays the channel beyond the
    /// plain rules (0 for J3D and for a record built from `Default`).
    pub flags: u32,
}

/// Bits of [`ChannelRecord::flags`]; each names the Blockbench function
/// whose rule the sampler then follows (docs/scene-format.md, "Sampling").
pub struct ChannelFlags;

impl ChannelFlags {
    /// The animator's `rotation_global`: after its channels apply, the
    /// node's rotation is taken against its parent's world rotation
    /// (`BoneAnimator.displayRotation`). Set on every channel of the
    /// animator, since Blockbench applies it with or without a rotation
    /// channel.
    pub const GLOBAL_ROTATION: u32 = 1;
    /// Rotation keyframes are turned into quaternions and slerped
    /// (`BoneAnimator.interpolate` with `use_quaternions`).
    pub const QUATERNION: u32 = 2;
    /// On a rotation channel, with [`Self::QUATERNION`]: the Hytale plugin's rotation rules
    /// (keyframe quaternions composed after the rest rotation, catmull-rom
    /// pairs eased by its weighted cubic, the result multiplied onto the
    /// rest quaternion). On a scale channel: the plugin's `displayScale`,
    /// which stretches the group's main cube about its centre and not the
    /// node, so the sampler scales the group's [`NodeFlags::SHAPE`] node
    /// instead (`scene::shape_node`), or nothing when it has none.
    ///
    /// [`NodeFlags::SHAPE`]: super::NodeFlags::SHAPE
    pub const HYTALE: u32 = 4;
    /// In a loop clip, a time before the first keyframe or after the last
    /// interpolates between the last and the first across the loop's end
    /// (`Format.animation_loop_wrapping`).
    pub const LOOP_WRAP: u32 = 8;
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
    /// Bezier handle arriving at the keyframe, per axis: time in seconds
    /// before it (Blockbench's `bezier_left_time`, default −0.1; clamped
    /// to the segment when played) ...
    pub bezier_left_time: [f32; 3],
    /// ... and value offset from `pre` (`bezier_left_value`, default 0),
    /// in the channel's units (radians for rotation).
    pub bezier_left_value: [f32; 3],
    /// Bezier handle leaving the keyframe: time after it
    /// (`bezier_right_time`, default 0.1) ...
    pub bezier_right_time: [f32; 3],
    /// ... and value offset from `post` (`bezier_right_value`, default 0).
    pub bezier_right_value: [f32; 3],
    /// [`Easing`] of the linear segment arriving at this keyframe, as its
    /// `u8` value (widened); 0 (linear) outside the plugin formats.
    pub easing: u32,
    /// The easing's argument (`easingArgs[0]`, else
    /// [`Easing::default_arg`]); 0 for an easing that takes none.
    pub easing_arg: f32,
}

/// Which of a keyframe's values are Molang and where their compiled
/// programs are, parallel to the scene's keyframes. The sampler evaluates
/// those programs at each sample (docs/scene-format.md, "Molang
/// keyframes"); the [`KeyframeRecord`] holds the channel's default there.
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct KeyframeSource {
    /// The first of the keyframe's programs in the scene's
    /// `molang_programs`: one per Molang value it holds, in bit order
    /// ([`KeyframeSource::program`]).
    pub program: u32,
    /// Bit `3·point + axis` (point 0 pre, 1 post; axis x, y, z) set for
    /// each Molang value the keyframe plays (a keyframe of one data point
    /// sets both points' bits), plus [`KeyframeSource::BEFORE_5`] and
    /// [`KeyframeSource::TWO_POINTS`].
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
    /// The keyframe has two data points, each with programs of its own
    /// (else its one point's programs play on both sides).
    pub const TWO_POINTS: u32 = 1 << 10;

    /// The index in `molang_programs` of the program of axis bit `bit`
    /// (`3·point + axis`), or `None` when that value is no Molang or
    /// plays its first point's program.
    pub fn program(&self, bit: u32) -> Option<usize> {
        let own = if self.molang & Self::TWO_POINTS != 0 {
            Self::AXES
        } else {
            0b111
        };
        let programs = self.molang & own;
        if bit >= 6 || programs & (1 << bit) == 0 {
            return None;
        }
        let before = (programs & !(u32::MAX << bit)).count_ones();
        Some((self.program as usize).saturating_add(before as usize))
    }
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
