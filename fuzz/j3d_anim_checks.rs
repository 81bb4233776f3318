//! The `j3d_anim` target's property, shared with `tests/fuzz_regressions.rs`
//! (beside `checks.rs`, which holds the other targets').

/// J3D animations (BCK, BCA, BTK, BRK, BPK, BTP, BVA) on any bytes: parsing
/// is deterministic; a parsed file answers every sampler for each of its
/// entries and for nothing past them, at any frame (NaN, negative, huge
/// included); the loop mode keeps any time inside `[0, duration]`; a warning
/// comes only with a file shorter than its header declares.
pub fn j3d_anim(data: &[u8]) {
    use scenedec::j3d::anim::{self, Animation};
    use scenedec::{J3dLimits, Warnings};
    let limits = J3dLimits {
        max_file_bytes: 1 << 20,
        max_anim_tracks: 1 << 12,
        max_anim_keys: 1 << 16,
        ..J3dLimits::default()
    };
    let mut warnings = Warnings::new();
    let parsed = anim::parse(data, &limits, &mut warnings);
    let again = anim::parse(data, &limits, &mut Warnings::new());
    assert_eq!(
        parsed.as_ref().err(),
        again.as_ref().err(),
        "parse is deterministic"
    );
    let Ok(a) = parsed else {
        return;
    };
    if !warnings.as_slice().is_empty() {
        let declared = data
            .get(8..12)
            .map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
        assert!(declared as usize > data.len(), "a warning on a whole file");
    }
    let clip = a.clip();
    let extra = data
        .get(data.len().saturating_sub(4)..)
        .and_then(|b| b.try_into().ok())
        .map_or(0.5, f32::from_le_bytes);
    for t in [-1.0, 0.0, 0.5, 7.25, 1e9, f32::NAN, extra] {
        let f = clip.frame_at(t);
        assert!(
            (0.0..=f32::from(clip.duration)).contains(&f),
            "{:?} of {} at {t} gives {f}",
            clip.loop_mode,
            clip.duration
        );
    }
    let entries = match &a {
        Animation::Bck(x) => x.joints(),
        Animation::Bca(x) => x.joints(),
        Animation::Btk(x) => x.len(),
        Animation::Brk(x) | Animation::Bpk(x) => x.len(),
        Animation::Btp(x) => x.len(),
        Animation::Bva(x) => x.shapes(),
    };
    for i in 0..=entries.min(64) {
        for f in [-3.0, 0.0, 0.5, 2.0, extra, 1e9, f32::NAN] {
            let answers = [
                anim::joint_pose(&a, i, f).is_some(),
                anim::texture_matrix(&a, i, f).is_some(),
                anim::color(&a, i, f).is_some(),
                anim::texture_index(&a, i, f).is_some(),
                anim::shape_visible(&a, i, f).is_some(),
            ];
            // Empty BTP / BVA tracks answer nothing; every other entry answers once.
            let n = answers.iter().filter(|x| **x).count();
            let optional = matches!(a, Animation::Btp(_) | Animation::Bva(_));
            if i < entries {
                assert!(
                    n == 1 || (optional && n == 0),
                    "entry {i} at {f}: {answers:?}"
                );
            } else {
                assert_eq!(n, 0, "entry {i} past {entries} at {f}");
            }
        }
    }
}
