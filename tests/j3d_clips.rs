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

/// Bytes that are no animation, or one cut short: a typed error naming the file.
#[test]
fn a_broken_animation_file_is_a_typed_error_naming_it() {
    let (Some(model), Some(bck)) = (
        corpus("sms_kinopio/kinopio_body.bmd"),
        corpus("sms_kinopio/kinopio_wait.bck"),
    ) else {
        return;
    };
    let junk = b"not an animation at all, but long enough for a header".to_vec();
    let cut = bck[..bck.len() / 2].to_vec();
    for (name, bytes, code) in [
        ("junk.bck", &junk, ErrorCode::UnknownFormat),
        ("cut.bck", &cut, ErrorCode::Truncated),
    ] {
        let files = [(name, &bytes[..])];
        let e = scenedec::measure(&model, None, &options(&files)).unwrap_err();
        assert_eq!(e.code(), code, "{name}: {e}");
        assert!(e.message().contains(name), "{e}");
        let mut words = vec![0u64; 1 << 16];
        let mut arena = Arena::from_words(&mut words);
        let e = scenedec::decode_into(
            &model,
            None,
            &options(&files),
            &mut arena,
            &mut Warnings::new(),
        )
        .unwrap_err();
        assert_eq!(e.code(), code, "{name}: {e}");
    }
}

/// The command line: `--with` read no further than maxFileBytes, a file
/// that cannot be read ends the command, `inspect` lists the clip and
/// `convert` writes its joints and names what it leaves out.
#[test]
fn the_command_line_reads_with_files_bounded_and_reports_clips() {
    let Some(root) = support::corpus_dir().map(|c| c.join("j3d-anim/sms_kinopio")) else {
        return;
    };
    let model = root.join("kinopio_body.bmd");
    let bck = root.join("kinopio_wait.bck");
    let (model, bck) = (model.to_str().unwrap(), bck.to_str().unwrap());
    let (code, out, err) = support::run_scenedec(&["inspect", model, "--with", bck]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("animation \"kinopio_wait.bck\": BCK, 64 frames, repeat, 20 tracks"),
        "{out}"
    );
    let size = std::fs::metadata(bck).unwrap().len();
    let model_size = std::fs::metadata(model).unwrap().len();
    assert!(size < model_size);
    // At the animation's size the file is read (the model is larger, so
    // inspect then refuses the model, not the animation); one byte below, refused.
    let at = format!("maxFileBytes={size}");
    let (_, _, err) = support::run_scenedec(&["inspect", model, "--with", bck, "--limit", &at]);
    assert!(!err.contains("kinopio_wait.bck: FAILED"), "{err}");
    let below = format!("maxFileBytes={}", size - 1);
    let (code, _, err) =
        support::run_scenedec(&["inspect", model, "--with", bck, "--limit", &below]);
    assert_eq!(code, 1);
    assert!(
        err.contains("kinopio_wait.bck: FAILED FILE_TOO_LARGE"),
        "{err}"
    );
    let (code, _, err) = support::run_scenedec(&["inspect", model, "--with", "no/such/file.bck"]);
    assert_eq!(code, 1);
    assert!(err.contains("no/such/file.bck: FAILED to read"), "{err}");
    let out_path =
        std::env::temp_dir().join(format!("scenedec-j3d-clips-{}.glb", std::process::id()));
    // A joint clip is played; texture-pattern (BTP) tracks have no glTF
    // target a viewer plays, and convert says so, naming them.
    let btp = root.join("kinopio_twait.btp");
    let btp = btp.to_str().unwrap();
    let (code, out, err) = support::run_scenedec(&[
        "convert",
        model,
        "--with",
        bck,
        "--with",
        btp,
        "--json",
        "-o",
        out_path.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_file(&out_path);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"animations\": 1"), "{out}");
    assert!(
        err.contains("2 tracks of J3D clips kept only as data in extras.j3d_tracks (no glTF viewer plays them): 2 texture swap (BTP)"),
        "{err}"
    );
}
