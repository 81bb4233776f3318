//! J3D animations: `.bck`, `.bca`, `.btk`, `.brk`, `.bpk`, `.btp`, `.bva`.
//!
//! Each file is a J3D header (magic `J3D1` + kind, 32 bytes) and one chunk;
//! one module per chunk kind owns its layout, checks and sampling:
//! [`ank1`] (BCK), [`anf1`] (BCA), [`ttk1`] (BTK), [`trk1`] (BRK and BPK,
//! which share a colour layout), [`tpt1`] (BTP), [`vaf1`] (BVA). [`common`]
//! holds what they share (loop modes, keyed and per-frame tracks, Hermite).
//!
//! Nothing is copied: [`parse`] checks every count, offset and track against
//! the chunk and the limits, and the parsed values read their bytes in
//! place when sampled. Sampling follows the game (docs/j3d.md,
//! "Animations"): keyed tracks by Hermite at a fractional frame, rotations
//! as Euler angles; BCA and BTP tables at `floor(frame)`; BVA at the nearest
//! frame. The sample functions take the frame as given; [`Clip::frame_at`]
//! turns a time since the clip started into that frame by its loop mode.
//! [`attach`] checks that an animation fits a model (joint and shape counts,
//! material names).

pub mod anf1;
pub mod ank1;
pub mod attach;
pub mod common;
pub mod tpt1;
pub mod trk1;
pub mod ttk1;
pub mod vaf1;

pub use common::{Clip, JointPose, Kind, LoopMode};

use crate::error::{Error, Warning, Warnings};
use crate::limits::J3dLimits;

/// A parsed animation of any kind.
#[derive(Clone, Copy, Debug)]
pub enum Animation<'a> {
    /// BCK: keyed joint transforms.
    Bck(ank1::Ank1<'a>),
    /// BCA: per-frame joint transforms.
    Bca(anf1::Anf1<'a>),
    /// BTK: keyed texture matrices.
    Btk(ttk1::Ttk1<'a>),
    /// BRK: keyed TEV register and konst colours.
    Brk(trk1::ColourAnim<'a>),
    /// BPK: keyed material colours.
    Bpk(trk1::ColourAnim<'a>),
    /// BTP: texture index per frame.
    Btp(tpt1::Tpt1<'a>),
    /// BVA: shape visibility per frame.
    Bva(vaf1::Vaf1<'a>),
}

/// Reads an animation file of any of the seven kinds (by its magic),
/// checking it against `limits`. A file shorter than its header declares is
/// read with a warning when every table it uses lies in its bytes.
pub fn parse<'a>(
    bytes: &'a [u8],
    limits: &J3dLimits,
    warnings: &mut Warnings,
) -> Result<Animation<'a>, Error> {
    parse_reporting(bytes, limits, &mut |w| warnings.push(w))
}

/// [`parse`] handing each warning to `report`: the model's measuring pass
/// drops them without holding a [`Warnings`] (36 KiB) on the stack.
pub(crate) fn parse_reporting<'a>(
    bytes: &'a [u8],
    limits: &J3dLimits,
    report: &mut dyn FnMut(Warning),
) -> Result<Animation<'a>, Error> {
    let (kind, r) = common::chunk(bytes, limits, report)?;
    parse_chunk(kind, r, limits)
}

/// The chunk of a `kind` file, read by its kind's reader. A frame of its
/// own, each reader's result mapped straight into the one returned: read
/// under the clip walk, the readers' results side by side were 2 KiB.
#[inline(never)]
fn parse_chunk<'a>(
    kind: Kind,
    r: crate::j3d::read::SectionReader<'a>,
    limits: &J3dLimits,
) -> Result<Animation<'a>, Error> {
    match kind {
        Kind::Bck => ank1::Ank1::parse(r, limits).map(Animation::Bck),
        Kind::Bca => anf1::Anf1::parse(r, limits).map(Animation::Bca),
        Kind::Btk => ttk1::Ttk1::parse(r, limits).map(Animation::Btk),
        Kind::Brk => trk1::ColourAnim::parse_trk1(r, limits).map(Animation::Brk),
        Kind::Bpk => trk1::ColourAnim::parse_pak1(r, limits).map(Animation::Bpk),
        Kind::Btp => tpt1::Tpt1::parse(r, limits).map(Animation::Btp),
        Kind::Bva => vaf1::Vaf1::parse(r, limits).map(Animation::Bva),
    }
}

impl Animation<'_> {
    /// Which of the seven kinds this is.
    pub fn kind(&self) -> Kind {
        match self {
            Self::Bck(_) => Kind::Bck,
            Self::Bca(_) => Kind::Bca,
            Self::Btk(_) => Kind::Btk,
            Self::Brk(_) => Kind::Brk,
            Self::Bpk(_) => Kind::Bpk,
            Self::Btp(_) => Kind::Btp,
            Self::Bva(_) => Kind::Bva,
        }
    }

    /// Loop mode and duration.
    pub fn clip(&self) -> Clip {
        match self {
            Self::Bck(a) => a.clip(),
            Self::Bca(a) => a.clip(),
            Self::Btk(a) => a.clip(),
            Self::Brk(a) | Self::Bpk(a) => a.clip(),
            Self::Btp(a) => a.clip(),
            Self::Bva(a) => a.clip(),
        }
    }
}

/// Joint `joint`'s transform at `frame` from a BCK or BCA; `None` for other
/// kinds or past the last joint.
pub fn joint_pose(anim: &Animation<'_>, joint: usize, frame: f32) -> Option<JointPose> {
    match anim {
        Animation::Bck(a) => a.joint_pose(joint, frame),
        Animation::Bca(a) => a.joint_pose(joint, frame),
        _ => None,
    }
}

/// Entry `entry`'s texture matrix at `frame` from a BTK (column-major 4×4).
pub fn texture_matrix(anim: &Animation<'_>, entry: usize, frame: f32) -> Option<[f32; 16]> {
    match anim {
        Animation::Btk(a) => a.texture_matrix(entry, frame),
        _ => None,
    }
}

/// Entry `entry`'s colour at `frame` from a BRK or BPK: the file's s16 / 255, unclamped.
pub fn color(anim: &Animation<'_>, entry: usize, frame: f32) -> Option<[f32; 4]> {
    match anim {
        Animation::Brk(a) | Animation::Bpk(a) => a.colour(entry, frame),
        _ => None,
    }
}

/// Entry `entry`'s texture index at `frame` from a BTP.
pub fn texture_index(anim: &Animation<'_>, entry: usize, frame: f32) -> Option<u16> {
    match anim {
        Animation::Btp(a) => a.texture_index(entry, frame),
        _ => None,
    }
}

/// Whether shape `shape` is drawn at `frame`, from a BVA.
pub fn shape_visible(anim: &Animation<'_>, shape: usize, frame: f32) -> Option<bool> {
    match anim {
        Animation::Bva(a) => a.shape_visible(shape, frame),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
