//! Attaching animation files through `Options` (docs/j3d.md, "Attaching
//! animations"): each file one clip named after it, its kind recorded; the
//! plan exact; the animation limits applied on this path at their value
//! and one past it; a joint-count mismatch a typed error naming the file;
//! a material name MAT3 lacks warned about by name and skipped.

mod support;

use scenedec::scene::{ClipKind, FrameLoop, TrackTarget};
use scenedec::{Arena, ErrorCode, Options, WarningCode, Warnings};
use std::path::PathBuf;

fn corpus(rel: &str) -> Option<Vec<u8>> {
    let root: PathBuf = support::corpus_dir()?.join("j3d-anim");
    Some(std::fs::read(root.join(rel)).unwrap())
}

fn options<'o>(files: &'o [(&'o str, &'o [u8])]) -> Options<'o> {
    let mut o = Options::default();
    o.j3d.animations = files;
    o
}

#[test]
fn each_file_is_one_clip_named_after_it_and_the_plan_is_exact() {
    let (Some(model), Some(bck), Some(btp)) = (
        corpus("sms_kinopio/kinopio_body.bmd"),
        corpus("sms_kinopio/kinopio_wait.bck"),
        corpus("sms_kinopio/kinopio_twait.btp"),
    ) else {
        return;
    };
    let files = [
        ("kinopio_wait.bck", &bck[..]),
        ("kinopio_twait.btp", &btp[..]),
    ];
    let o = options(&files);
    let plan = scenedec::measure(&model, None, &o).unwrap();
    let mut words = vec![0u64; plan.arena_words()];
    let mut arena = Arena::from_words(&mut words);
    let mut warnings = Warnings::new();
    let scene = scenedec::decode_into(&model, None, &o, &mut arena, &mut warnings).unwrap();
    assert_eq!(
        arena.used(),
        plan.arena_bytes(),
        "decode fills exactly the plan"
    );
    assert_eq!(warnings.as_slice().len(), 0);
    let names: Vec<_> = scene
        .animations()
        .iter()
        .map(|a| scene.text(a.name))
        .collect();
    assert_eq!(names, ["kinopio_wait.bck", "kinopio_twait.btp"]);
    let kinds: Vec<_> = scene
        .clips()
        .iter()
        .map(|c| ClipKind::from_u32(c.kind))
        .collect();
    assert_eq!(kinds, [Some(ClipKind::Bck), Some(ClipKind::Btp)]);
    // One joint track per JNT1 joint, nine curves each.
    let bck = scene.clip_record(0).unwrap();
    assert_eq!(bck.track_count as usize, scene.nodes().len());
    let joint_tracks = &scene.tracks()[..scene.nodes().len()];
    assert!(
        joint_tracks
            .iter()
            .all(|t| t.target == TrackTarget::Joint as u32 && t.curve_count == 9)
    );
    assert_eq!(bck.frame_rate, 30.0);
    // Without animations the scene has no clip at all.
    let plain = scenedec::measure(&model, None, &Options::default()).unwrap();
    assert_eq!(plain.counts().clips, 0);
    assert!(plain.arena_bytes() < plan.arena_bytes());
}

/// J3dLimits' animation limits hold for attached files as for a parse:
/// each passes at the file's own figure and fails one below it.
#[test]
fn animation_limits_apply_at_their_value_and_one_past_it() {
    let (Some(model), Some(bck)) = (
        corpus("sms_kinopio/kinopio_body.bmd"),
        corpus("sms_kinopio/kinopio_wait.bck"),
    ) else {
        return;
    };
    let files = [("kinopio_wait.bck", &bck[..])];
    let base = options(&files);
    let plan = scenedec::measure(&model, None, &base).unwrap();
    let keys = plan.counts().hermite_keys as u64;
    let tracks = 9 * plan.counts().tracks as u64;
    let frames = scenedec::measure(&model, None, &base).map(|_| {
        let mut w = Warnings::new();
        scenedec::j3d::anim::parse(&bck, &Default::default(), &mut w)
            .unwrap()
            .clip()
            .duration
    });
    let frames = u64::from(frames.unwrap());
    type Set = fn(&mut scenedec::J3dLimits, u64);
    let cases: [(&str, u64, Set); 3] = [
        ("keys", keys, |l, v| l.max_anim_keys = v),
        ("tracks", tracks, |l, v| l.max_anim_tracks = v),
        ("frames", frames, |l, v| l.max_anim_frames = v),
    ];
    for (what, value, set) in cases {
        let mut o = base;
        set(&mut o.j3d.limits, value);
        scenedec::measure(&model, None, &o).unwrap_or_else(|e| panic!("{what} at {value}: {e}"));
        set(&mut o.j3d.limits, value - 1);
        let e = scenedec::measure(&model, None, &o).unwrap_err();
        assert_eq!(e.code(), ErrorCode::TooManyKeyframes, "{what}: {e}");
        assert!(e.message().contains("kinopio_wait.bck"), "{e}");
    }
}

#[test]
fn a_joint_count_mismatch_is_a_typed_error_naming_the_file() {
    let (Some(model), Some(bck)) = (
        corpus("smg2_kuribomini/kuribomini.bdl"),
        corpus("sms_kinopio/kinopio_wait.bck"),
    ) else {
        return;
    };
    let files = [("kinopio_wait.bck", &bck[..])];
    let e = scenedec::measure(&model, None, &options(&files)).unwrap_err();
    assert_eq!(e.code(), ErrorCode::AnimationMismatch);
    assert!(
        e.message().contains("kinopio_wait.bck") && e.message().contains("joints"),
        "{e}"
    );
}

#[test]
fn a_material_the_model_lacks_warns_by_name_and_is_skipped() {
    let (Some(model), Some(btk)) = (
        corpus("smg2_kuribomini/kuribomini.bdl"),
        corpus("smg_mario/ghostmario.btk"),
    ) else {
        return;
    };
    let files = [("ghostmario.btk", &btk[..])];
    let loaded = scenedec::load(&model, None, &options(&files)).unwrap();
    let scene = loaded.scene();
    let warnings = loaded.warnings().as_slice();
    assert!(!warnings.is_empty());
    for w in warnings {
        assert_eq!(w.code(), WarningCode::UnknownReference);
        assert!(
            w.message().contains("ghostmario.btk") && w.message().contains("material \""),
            "{}",
            w.message()
        );
    }
    // Every entry names a material kuribomini lacks: the clip has no track.
    assert_eq!(scene.clips().len(), 1);
    assert_eq!(scene.clips()[0].track_count, 0);
    let entries = match scenedec::j3d::anim::parse(&btk, &Default::default(), &mut Warnings::new())
    {
        Ok(scenedec::j3d::anim::Animation::Btk(a)) => a.len(),
        _ => panic!("ghostmario.btk is a BTK"),
    };
    assert_eq!(warnings.len(), entries, "one warning per skipped entry");
    assert_eq!(
        FrameLoop::from_u32(scene.clips()[0].loop_mode),
        FrameLoop::Repeat
    );
}
