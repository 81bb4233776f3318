//! Fitting an animation to a model: BCK and BCA address joints by index and
//! must have one entry per JNT1 joint; BVA addresses shapes by index and must
//! have one track per SHP1 shape; BTK, BRK, BPK and BTP name materials, and
//! every name must be one of MAT3's. A mismatch is ANIMATION_MISMATCH,
//! naming what differs.
//!
//! No heap: [`check`] walks the pairing once; [`material_of`] finds an
//! entry's material again when it is needed (a scan of MAT3's names).

use super::Animation;
use super::common::Kind;
use crate::error::{Error, ErrorCode, Location};
use crate::j3d::J3dFile;
use crate::j3d::jnt1::Jnt1;
use crate::j3d::mat3::Mat3;
use crate::j3d::read::SectionReader;
use crate::j3d::shp1::Shp1;
use crate::limits::J3dLimits;

fn mismatch(args: core::fmt::Arguments<'_>) -> Error {
    Error::new(ErrorCode::AnimationMismatch, Location::Nowhere, args)
}

fn missing(id: &[u8; 4]) -> Error {
    mismatch(format_args!(
        "the model has no {} section for this animation",
        core::str::from_utf8(id).unwrap_or("?")
    ))
}

/// The name of entry `entry` of a material animation (BTK, BRK, BPK, BTP);
/// `None` for other kinds or past the entries.
pub fn entry_material<'a>(anim: &Animation<'a>, entry: usize) -> Option<&'a [u8]> {
    match anim {
        Animation::Btk(a) => a.material(entry),
        Animation::Brk(a) | Animation::Bpk(a) => a.material(entry),
        Animation::Btp(a) => a.material(entry),
        _ => None,
    }
}

fn entries(anim: &Animation<'_>) -> usize {
    match anim {
        Animation::Bck(a) => a.joints(),
        Animation::Bca(a) => a.joints(),
        Animation::Btk(a) => a.len(),
        Animation::Brk(a) | Animation::Bpk(a) => a.len(),
        Animation::Btp(a) => a.len(),
        Animation::Bva(a) => a.shapes(),
    }
}

/// The model's MAT3, its material count checked against `limits`.
fn materials<'a>(model: &J3dFile<'a>, limits: &J3dLimits) -> Result<Mat3<'a>, Error> {
    let section = model.section(b"MAT3").ok_or_else(|| missing(b"MAT3"))?;
    let mat3 = Mat3::new(section)?;
    crate::limits::check(
        mat3.len() as u64,
        limits.max_materials,
        ErrorCode::TooManyMaterials,
        "materials",
        Location::Binary {
            offset: section.offset.saturating_add(8) as u64,
            section: Some(section.id),
        },
    )?;
    Ok(mat3)
}

/// The MAT3 index of the material entry `entry` of `anim` animates: the
/// first material of that name, as the game's name lookup finds it.
pub fn material_of(
    model: &J3dFile<'_>,
    anim: &Animation<'_>,
    entry: usize,
    limits: &J3dLimits,
) -> Result<usize, Error> {
    // Read where `materials` returned it (moved out, MAT3's reader was in
    // this frame twice, under the clip walk).
    let mat3 = materials(model, limits);
    find(mat3.as_ref().map_err(Error::clone)?, anim, entry)
}

fn find(mat3: &Mat3<'_>, anim: &Animation<'_>, entry: usize) -> Result<usize, Error> {
    let name = entry_material(anim, entry).ok_or_else(|| {
        mismatch(format_args!(
            "entry {entry} names no material in this {:?}",
            anim.kind()
        ))
    })?;
    for i in 0..mat3.len() {
        if mat3.material(i)?.name()?.0 == name {
            return Ok(i);
        }
    }
    Err(mismatch(format_args!(
        "entry {entry} animates material {}, which the model does not have",
        crate::error::Quote(core::str::from_utf8(name).unwrap_or("(not UTF-8)"))
    )))
}

/// Checks that `anim` fits `model` (see the module doc). Work is bounded by
/// the animation's entries (`max_anim_tracks`, checked at its parse) times
/// the model's materials (`max_materials`, checked here).
pub fn check(model: &J3dFile<'_>, anim: &Animation<'_>, limits: &J3dLimits) -> Result<(), Error> {
    let kind = anim.kind();
    match kind {
        Kind::Bck | Kind::Bca => {
            let section = model.section(b"JNT1").ok_or_else(|| missing(b"JNT1"))?;
            let joints = Jnt1::parse(SectionReader::new(section))?.len();
            if joints != entries(anim) {
                return Err(mismatch(format_args!(
                    "the {kind:?} animates {} joints, the model has {joints}",
                    entries(anim)
                )));
            }
        }
        Kind::Bva => {
            let section = model.section(b"SHP1").ok_or_else(|| missing(b"SHP1"))?;
            let shapes = Shp1::parse(SectionReader::new(section))?.len();
            if shapes != entries(anim) {
                return Err(mismatch(format_args!(
                    "the BVA has {} shape tracks, the model has {shapes} shapes",
                    entries(anim)
                )));
            }
        }
        Kind::Btk | Kind::Brk | Kind::Bpk | Kind::Btp => {
            let mat3 = materials(model, limits)?;
            for entry in 0..entries(anim) {
                find(&mat3, anim, entry)?;
            }
        }
    }
    Ok(())
}
