//! Hostile J3D animation input: every truncation and every single-byte
//! corruption of one real file of each kind. Each must parse (the cut fell
//! in padding, or the byte changed a value) or give a typed error placed in
//! the file, and never panic; whatever parses must sample without panicking
//! at frames inside, outside and far past the clip.

mod support;

use scenedec::j3d::anim::{self, Animation};
use scenedec::{ErrorCode, J3dLimits, Location, Warnings};

/// One real file of each kind: small ones, so every offset is tried.
const FILES: [&str; 7] = [
    "smg2_skeletalfishbossheada/Wait.bck",
    "p2_bigfoot/wait.bca",
    "sms_04_tobikomi/04_tobikomi.btk",
    "p2_ufo/ufo.brk",
    "sms_04_tobikomi/04_tobikomi.bpk",
    "smg2_kuribomini/hit.btp",
    "smg2_skeletalfishbossheada/Crack.bva",
];

const FRAMES: [f32; 7] = [-5.0, 0.0, 0.5, 1.25, 17.0, 1e6, f32::NAN];

/// Samples everything `a` holds at a few frames; only not panicking counts.
fn sample_all(a: &Animation<'_>) -> usize {
    let mut n = 0;
    for f in FRAMES.iter().copied().chain([a.clip().frame_at(123.4)]) {
        for i in 0..64 {
            n += usize::from(anim::joint_pose(a, i, f).is_some());
            n += usize::from(anim::texture_matrix(a, i, f).is_some());
            n += usize::from(anim::color(a, i, f).is_some());
            n += usize::from(anim::texture_index(a, i, f).is_some());
            n += usize::from(anim::shape_visible(a, i, f).is_some());
        }
    }
    n
}

fn check(bytes: &[u8], what: &str) -> bool {
    match anim::parse(bytes, &J3dLimits::default(), &mut Warnings::new()) {
        Ok(a) => {
            sample_all(&a);
            true
        }
        Err(e) => {
            assert!(!e.message().is_empty(), "{what}: {e}");
            // A file error with a byte offset (where the read or the
            // pointed-to table starts), never a caller error.
            assert!(
                matches!(
                    e.code(),
                    ErrorCode::Truncated
                        | ErrorCode::BadOffset
                        | ErrorCode::BadValue
                        | ErrorCode::UnknownFormat
                        | ErrorCode::TooManyKeyframes
                ),
                "{what}: {e}"
            );
            assert!(matches!(e.at(), Location::Binary { .. }), "{what}: {e}");
            false
        }
    }
}

fn corpus(rel: &str) -> Option<Vec<u8>> {
    let dir = support::corpus_dir()?;
    Some(std::fs::read(dir.join("j3d-anim").join(rel)).unwrap())
}

#[test]
fn every_truncation_is_a_typed_error_or_a_read() {
    for rel in FILES {
        let Some(bytes) = corpus(rel) else { return };
        let whole = anim::parse(&bytes, &J3dLimits::default(), &mut Warnings::new()).unwrap();
        assert!(sample_all(&whole) > 0, "{rel}");
        let mut read = 0;
        for cut in 0..bytes.len() {
            read += usize::from(check(&bytes[..cut], &format!("{rel} cut at {cut}")));
        }
        // Cuts inside the header and the first tables cannot read.
        assert!(
            read < bytes.len() / 2,
            "{rel}: {read} of {} cuts read",
            bytes.len()
        );
    }
}

#[test]
fn every_single_byte_corruption_is_a_typed_error_or_a_read() {
    for rel in FILES {
        let Some(bytes) = corpus(rel) else { return };
        // Header and tables (the first 0x100 bytes) with three values each;
        // the rest (key data) with one.
        for at in 0..bytes.len() {
            let values: &[u8] = if at < 0x100 {
                &[0x00, 0x7F, 0xFF]
            } else {
                &[0xFF]
            };
            for &v in values {
                let mut b = bytes.clone();
                b[at] = v;
                check(&b, &format!("{rel} byte {at:#x} = {v:#x}"));
            }
        }
    }
}
