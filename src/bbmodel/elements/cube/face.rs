//! A cube face's name, the axes it lies across, its stored rotation and
//! the numbers a face stores (Blockbench's `CubeFace`).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

/// A face of a cube, by its key in the file's `faces` object.
///
/// Blockbench's directions: north is −Z, south +Z, east +X, west −X, up +Y,
/// down −Y (of the plain cube; a reversed axis moves a face to the other side,
/// see [`cube_faces`](super::cube_faces)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaceName {
    /// `north`, the −Z face.
    North,
    /// `east`, the +X face.
    East,
    /// `south`, the +Z face.
    South,
    /// `west`, the −X face.
    West,
    /// `up`, the +Y face.
    Up,
    /// `down`, the −Y face.
    Down,
}

impl FaceName {
    /// Every face, in the order of the arrays this module takes and returns
    /// (index = [`FaceName::index`]).
    pub const ALL: [FaceName; 6] = [
        FaceName::North,
        FaceName::East,
        FaceName::South,
        FaceName::West,
        FaceName::Up,
        FaceName::Down,
    ];

    /// The key in the file (`"north"`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            FaceName::North => "north",
            FaceName::East => "east",
            FaceName::South => "south",
            FaceName::West => "west",
            FaceName::Up => "up",
            FaceName::Down => "down",
        }
    }

    /// The face a key of the file's `faces` object names, exactly as Blockbench
    /// spells it (lower case); `None` for any other key, which Blockbench ignores.
    pub fn from_key(key: &str) -> Option<Self> {
        match key {
            "north" => Some(FaceName::North),
            "east" => Some(FaceName::East),
            "south" => Some(FaceName::South),
            "west" => Some(FaceName::West),
            "up" => Some(FaceName::Up),
            "down" => Some(FaceName::Down),
            _ => None,
        }
    }

    /// This face's position in [`FaceName::ALL`] and in the six-face arrays.
    pub const fn index(self) -> usize {
        match self {
            FaceName::North => 0,
            FaceName::East => 1,
            FaceName::South => 2,
            FaceName::West => 3,
            FaceName::Up => 4,
            FaceName::Down => 5,
        }
    }

    /// The face on the other side of the same axis (Blockbench's
    /// `CubeFace.opposite`).
    pub const fn opposite(self) -> Self {
        match self {
            FaceName::North => FaceName::South,
            FaceName::East => FaceName::West,
            FaceName::South => FaceName::North,
            FaceName::West => FaceName::East,
            FaceName::Up => FaceName::Down,
            FaceName::Down => FaceName::Up,
        }
    }

    /// The axis the face is perpendicular to: 0 for x (east, west), 1 for y
    /// (up, down), 2 for z (north, south).
    pub const fn axis(self) -> usize {
        self.normal_axis().index()
    }

    pub(super) const fn normal_axis(self) -> Axis {
        match self {
            FaceName::East | FaceName::West => Axis::X,
            FaceName::Up | FaceName::Down => Axis::Y,
            FaceName::North | FaceName::South => Axis::Z,
        }
    }

    /// The two axes the face spans.
    pub(super) const fn plane_axes(self) -> (Axis, Axis) {
        match self.normal_axis() {
            Axis::X => (Axis::Y, Axis::Z),
            Axis::Y => (Axis::X, Axis::Z),
            Axis::Z => (Axis::X, Axis::Y),
        }
    }
}

/// A face's UV rotation: how far the image is turned clockwise on the face
/// (convention 2; Blockbench's face `rotation`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FaceRotation {
    /// 0°, the image upright.
    #[default]
    Deg0,
    /// 90° clockwise.
    Deg90,
    /// 180°.
    Deg180,
    /// 270° clockwise (90° counter-clockwise).
    Deg270,
}

impl FaceRotation {
    /// The rotation a stored `rotation` value names: exactly 0, 90, 180 or 270
    /// (the spec's quarter turns); `None` for anything else, which the spec
    /// rejects as INVALID_FIELD.
    pub fn from_degrees(degrees: f64) -> Option<Self> {
        if degrees == 0.0 {
            Some(FaceRotation::Deg0)
        } else if degrees == 90.0 {
            Some(FaceRotation::Deg90)
        } else if degrees == 180.0 {
            Some(FaceRotation::Deg180)
        } else if degrees == 270.0 {
            Some(FaceRotation::Deg270)
        } else {
            None
        }
    }

    /// The angle in degrees (0, 90, 180 or 270).
    pub const fn degrees(self) -> u16 {
        match self {
            FaceRotation::Deg0 => 0,
            FaceRotation::Deg90 => 90,
            FaceRotation::Deg180 => 180,
            FaceRotation::Deg270 => 270,
        }
    }
}

/// One drawn face's stored numbers. A face that is not drawn (missing from
/// `faces`, or `texture: null`) is passed as `None` instead.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FaceInput {
    /// The stored `uv` `[u1, v1, u2, v2]` in texels; `None` when the face has
    /// none: the box-UV layout on a box-UV cube, else [`DEFAULT_FACE_UV`](super::DEFAULT_FACE_UV).
    /// `u1 > u2` or `v1 > v2` mirrors the image (it falls out of the mapping).
    pub uv: Option<[f64; 4]>,
    /// The stored `rotation`.
    pub rotation: FaceRotation,
}

/// A coordinate axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Axis {
    X,
    Y,
    Z,
}

impl Axis {
    pub(super) const fn index(self) -> usize {
        match self {
            Axis::X => 0,
            Axis::Y => 1,
            Axis::Z => 2,
        }
    }

    /// This axis's component of `v`.
    pub(super) fn pick<T: Copy>(self, v: [T; 3]) -> T {
        match self {
            Axis::X => v[0],
            Axis::Y => v[1],
            Axis::Z => v[2],
        }
    }
}
