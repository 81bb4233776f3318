//! The reader rules, one test each, on files built here so each shows its
//! input. The corpus comparison is tests/j3d_anim_corpus.rs.

use std::vec::Vec;

use super::common::{KeyTrack, LoopMode, Tangents, hermite};
use super::*;
use crate::error::{ErrorCode, Location, WarningCode};

/// A chunk's bytes, written at chunk offsets.
struct Chunk(Vec<u8>);

impl Chunk {
    fn new(len: usize) -> Self {
        Self(std::vec![0; len])
    }
    fn put(&mut self, at: usize, bytes: &[u8]) -> &mut Self {
        if self.0.len() < at + bytes.len() {
            self.0.resize(at + bytes.len(), 0);
        }
        self.0[at..at + bytes.len()].copy_from_slice(bytes);
        self
    }
    fn u8(&mut self, at: usize, v: u8) -> &mut Self {
        self.put(at, &[v])
    }
    fn u16(&mut self, at: usize, v: u16) -> &mut Self {
        self.put(at, &v.to_be_bytes())
    }
    fn u32(&mut self, at: usize, v: u32) -> &mut Self {
        self.put(at, &v.to_be_bytes())
    }
    fn f32s(&mut self, at: usize, v: &[f32]) -> &mut Self {
        for (i, x) in v.iter().enumerate() {
            self.put(at + 4 * i, &x.to_be_bytes());
        }
        self
    }
    fn i16s(&mut self, at: usize, v: &[i16]) -> &mut Self {
        for (i, x) in v.iter().enumerate() {
            self.put(at + 2 * i, &x.to_be_bytes());
        }
        self
    }
    /// The whole file: header (magic, size, one chunk) and the chunk.
    fn file(&mut self, magic: &[u8; 8], id: &[u8; 4]) -> Vec<u8> {
        self.0.resize(self.0.len().next_multiple_of(0x20), 0);
        let len = self.0.len() as u32;
        self.put(0, id).u32(4, len);
        let mut out = Vec::new();
        out.extend_from_slice(magic);
        out.extend_from_slice(&(len + 0x20).to_be_bytes());
        out.extend_from_slice(&1u32.to_be_bytes());
        out.extend_from_slice(&[0xFF; 16]);
        out.extend_from_slice(&self.0);
        out
    }
}

/// A one-joint BCK whose nine tracks are `tracks` (count, index, tangent
/// mode; file order X S/R/T, Y S/R/T, Z S/R/T) over the given tables.
fn bck(
    tracks: [(u16, u16, u16); 9],
    scale: &[f32],
    rot: &[i16],
    trans: &[f32],
    frac: u8,
) -> Vec<u8> {
    let mut c = Chunk::new(0x40);
    let (st, rt) = (0x80, 0x80 + 4 * scale.len());
    let tt = (rt + 2 * rot.len()).next_multiple_of(4);
    c.u8(0x08, 2).u8(0x09, frac).u16(0x0A, 30).u16(0x0C, 1);
    c.u16(0x0E, scale.len() as u16)
        .u16(0x10, rot.len() as u16)
        .u16(0x12, trans.len() as u16);
    c.u32(0x14, 0x40)
        .u32(0x18, st as u32)
        .u32(0x1C, rt as u32)
        .u32(0x20, tt as u32);
    for (i, (n, at, mode)) in tracks.iter().enumerate() {
        c.u16(0x40 + 6 * i, *n)
            .u16(0x42 + 6 * i, *at)
            .u16(0x44 + 6 * i, *mode);
    }
    c.f32s(st, scale).i16s(rt, rot).f32s(tt, trans);
    c.file(b"J3D1bck1", b"ANK1")
}

/// Constant tracks: scale 1 (value 0 of the scale table), rotation and
/// translation 0 (value 0 of theirs).
const REST: (u16, u16, u16) = (1, 0, 0);

fn parse_ok(bytes: &[u8]) -> Animation<'_> {
    parse(bytes, &J3dLimits::default(), &mut Warnings::new()).unwrap()
}

fn parse_err(bytes: &[u8], limits: &J3dLimits) -> crate::Error {
    parse(bytes, limits, &mut Warnings::new()).unwrap_err()
}

fn offset(e: &crate::Error) -> u64 {
    match e.at() {
        Location::Binary { offset, .. } => *offset,
        other => panic!("binary location expected, got {other:?}"),
    }
}

#[test]
fn tangent_mode_0_uses_one_tangent_on_both_sides() {
    // Translation X: keys (0, 0, slope 2) and (10, 10, slope 2): `(time,
    // value, tangent)`, noclip's `TangentType.In`.
    let mut tracks = [REST; 9];
    tracks[2] = (2, 1, 0);
    let bytes = bck(
        tracks,
        &[1.0],
        &[0],
        &[0.0, 0.0, 0.0, 2.0, 10.0, 10.0, 2.0],
        0,
    );
    let a = parse_ok(&bytes);
    let want = hermite(
        &common::Key {
            time: 0.0,
            value: 0.0,
            tangent_in: 2.0,
            tangent_out: 2.0,
        },
        &common::Key {
            time: 10.0,
            value: 10.0,
            tangent_in: 2.0,
            tangent_out: 2.0,
        },
        2.5,
    );
    let got = joint_pose(&a, 0, 2.5).unwrap().translation[0];
    assert_eq!(got, want);
    // Hermite: the keys' own values at their frames, held outside them.
    assert_eq!(joint_pose(&a, 0, 0.0).unwrap().translation[0], 0.0);
    assert_eq!(joint_pose(&a, 0, 10.0).unwrap().translation[0], 10.0);
    assert_eq!(joint_pose(&a, 0, -3.0).unwrap().translation[0], 0.0);
    assert_eq!(joint_pose(&a, 0, 99.0).unwrap().translation[0], 10.0);
    // With slope 1 (the chord) the curve is the straight line.
    let line = hermite(
        &common::Key {
            time: 0.0,
            value: 0.0,
            tangent_in: 1.0,
            tangent_out: 1.0,
        },
        &common::Key {
            time: 10.0,
            value: 10.0,
            tangent_in: 1.0,
            tangent_out: 1.0,
        },
        2.5,
    );
    assert!((line - 2.5).abs() < 1e-6);
}

#[test]
fn tangent_mode_1_leaves_with_out_and_arrives_with_in() {
    // `(time, value, in, out)`: key 0 leaves with slope 0 (its in slope 5
    // unused), key 1 arrives with slope 0 (its out slope -5 unused).
    let mut tracks = [REST; 9];
    tracks[2] = (2, 1, 1);
    let t = [0.0, 0.0, 0.0, 5.0, 0.0, 10.0, 10.0, 0.0, -5.0];
    let bytes = bck(tracks, &[1.0], &[0], &t, 0);
    let a = parse_ok(&bytes);
    let flat = |f: f32| {
        hermite(
            &common::Key {
                time: 0.0,
                value: 0.0,
                tangent_in: 5.0,
                tangent_out: 0.0,
            },
            &common::Key {
                time: 10.0,
                value: 10.0,
                tangent_in: 0.0,
                tangent_out: -5.0,
            },
            f,
        )
    };
    for f in [1.0, 2.5, 5.0, 9.0] {
        assert_eq!(joint_pose(&a, 0, f).unwrap().translation[0], flat(f));
    }
    // Smoothstep: symmetric about the middle.
    assert!((joint_pose(&a, 0, 5.0).unwrap().translation[0] - 5.0).abs() < 1e-5);
}

#[test]
fn an_unknown_tangent_mode_is_refused_where_it_is() {
    let mut tracks = [REST; 9];
    tracks[2] = (2, 1, 7);
    let bytes = bck(tracks, &[1.0], &[0], &[0.0; 7], 0);
    let e = parse_err(&bytes, &J3dLimits::default());
    assert_eq!(e.code(), ErrorCode::BadValue);
    // Track 2's mode: chunk 0x20 + entry 0x40 + 2 * 6 + 4.
    assert_eq!(offset(&e), 0x20 + 0x40 + 12 + 4);
}

#[test]
fn the_rotation_fraction_scales_rotations_by_a_power_of_two() {
    // ANK1: s16 · 2^fraction / 0x7FFF half-turns.
    let mut tracks = [REST; 9];
    tracks[1] = (1, 1, 0);
    for frac in [0u8, 1, 3] {
        let bytes = bck(tracks, &[1.0], &[0, 0x1000], &[0.0], frac);
        let a = parse_ok(&bytes);
        let want = 4096.0 * f32::from(1u16 << frac) / 32767.0 * core::f32::consts::PI;
        let got = joint_pose(&a, 0, 0.0).unwrap().rotation[0];
        assert!(
            (got - want).abs() < 1e-6,
            "fraction {frac}: {got} vs {want}"
        );
    }
}

#[test]
fn loop_modes_place_a_time_past_the_end_as_the_game_does() {
    // J3DFrameCtrl: Once stops just short of the end, OnceAndReset returns
    // to 0, Repeat wraps, the mirrored modes come back from the end.
    let d = 10.0;
    assert_eq!(LoopMode::Once.apply(4.0, d), 4.0);
    assert_eq!(LoopMode::Once.apply(12.0, d), 10.0 - 0.001);
    assert_eq!(LoopMode::OnceAndReset.apply(12.0, d), 0.0);
    assert_eq!(LoopMode::Repeat.apply(12.5, d), 2.5);
    assert_eq!(LoopMode::Repeat.apply(10.0, d), 0.0);
    assert_eq!(LoopMode::MirroredOnce.apply(12.0, d), 8.0);
    assert_eq!(LoopMode::MirroredOnce.apply(25.0, d), 0.0);
    assert_eq!(LoopMode::MirroredRepeat.apply(12.0, d), 8.0);
    assert_eq!(LoopMode::MirroredRepeat.apply(25.0, d), 5.0);
    for mode in [LoopMode::Once, LoopMode::Repeat, LoopMode::MirroredRepeat] {
        assert_eq!(mode.apply(-1.0, d), 0.0);
        assert_eq!(mode.apply(f32::NAN, d), 0.0);
        assert_eq!(mode.apply(5.0, 0.0), 0.0);
    }
}

#[test]
fn a_loop_mode_past_4_is_refused() {
    let mut bytes = bck([REST; 9], &[1.0], &[0], &[0.0], 0);
    bytes[0x28] = 5;
    let e = parse_err(&bytes, &J3dLimits::default());
    assert_eq!((e.code(), offset(&e)), (ErrorCode::BadValue, 0x28));
}

#[test]
fn a_track_past_its_table_is_a_bad_offset_naming_the_track() {
    let mut tracks = [REST; 9];
    tracks[5] = (3, 0, 0); // Y translation: 9 values of a 1-value table.
    let e = parse_err(&bck(tracks, &[1.0], &[0], &[0.0], 0), &J3dLimits::default());
    assert_eq!(
        (e.code(), offset(&e)),
        (ErrorCode::BadOffset, 0x20 + 0x40 + 5 * 6)
    );
}

#[test]
fn a_lying_count_or_offset_is_a_typed_error() {
    let good = bck([REST; 9], &[1.0], &[0], &[0.0], 0);
    // Joint table offset past the chunk.
    let mut bytes = good.clone();
    bytes[0x34..0x38].copy_from_slice(&0x7000u32.to_be_bytes());
    assert_eq!(
        parse_err(&bytes, &J3dLimits::default()).code(),
        ErrorCode::Truncated
    );
    // A scale table count of 60 000.
    let mut bytes = good.clone();
    bytes[0x2E..0x30].copy_from_slice(&60_000u16.to_be_bytes());
    assert_eq!(
        parse_err(&bytes, &J3dLimits::default()).code(),
        ErrorCode::Truncated
    );
    // A chunk size past the file.
    let mut bytes = good.clone();
    bytes[0x24..0x28].copy_from_slice(&0x10_0000u32.to_be_bytes());
    assert_eq!(
        parse_err(&bytes, &J3dLimits::default()).code(),
        ErrorCode::Truncated
    );
    // A model's magic, and an animation magic with the wrong chunk.
    let mut bytes = good.clone();
    bytes[0x20..0x24].copy_from_slice(b"ANF1");
    assert_eq!(
        parse_err(&bytes, &J3dLimits::default()).code(),
        ErrorCode::BadValue
    );
    let mut bytes = good;
    bytes[..8].copy_from_slice(b"J3D2bmd3");
    assert_eq!(
        parse_err(&bytes, &J3dLimits::default()).code(),
        ErrorCode::UnknownFormat
    );
}

/// A BCA of one joint whose X translation is `values`, one per frame; the
/// other tracks are one-value constants.
fn bca(values: &[f32]) -> Vec<u8> {
    let mut c = Chunk::new(0x40);
    let (st, rt, tt) = (0x80, 0xA0, 0xC0);
    c.u8(0x08, 0).u16(0x0A, values.len() as u16).u16(0x0C, 1);
    c.u16(0x0E, 1)
        .u16(0x10, 1)
        .u16(0x12, 1 + values.len() as u16);
    c.u32(0x14, 0x40).u32(0x18, st).u32(0x1C, rt).u32(0x20, tt);
    for i in 0..9 {
        c.u16(0x40 + 4 * i, 1);
    }
    c.u16(0x40 + 8, values.len() as u16).u16(0x40 + 10, 1);
    c.f32s(st as usize, &[1.0])
        .i16s(rt as usize, &[0])
        .f32s(tt as usize, &[0.0]);
    c.f32s(tt as usize + 4, values);
    c.file(b"J3D1bca1", b"ANF1")
}

#[test]
fn bca_tables_are_read_at_the_floor_of_the_frame_and_hold_their_last_value() {
    let bytes = bca(&[10.0, 20.0, 30.0]);
    let a = parse_ok(&bytes);
    let x = |f: f32| joint_pose(&a, 0, f).unwrap().translation[0];
    assert_eq!([x(0.0), x(0.99), x(1.0), x(2.5)], [10.0, 10.0, 20.0, 30.0]);
    // Past the table the game holds the last value (noclip gives nothing).
    assert_eq!([x(3.0), x(400.0), x(-2.0)], [30.0, 30.0, 10.0]);
    assert_eq!(joint_pose(&a, 0, 1.0).unwrap().scale, [1.0; 3]);
}

#[test]
fn a_bca_cut_short_of_its_declared_size_is_read_with_a_warning() {
    let whole = bca(&[10.0, 20.0, 30.0]);
    let used = 0x20 + 0xC0 + 4 * 4; // the last value's end
    assert!(used < whole.len(), "the builder pads the file");
    let mut warnings = Warnings::new();
    let a = parse(&whole[..used], &J3dLimits::default(), &mut warnings).unwrap();
    assert_eq!(joint_pose(&a, 0, 2.0).unwrap().translation[0], 30.0);
    let [w] = warnings.as_slice() else {
        panic!("one warning expected: {:?}", warnings.as_slice())
    };
    assert_eq!(w.code(), WarningCode::ShortAnimationFile);
    // One byte less and the last table is cut: an error at the table.
    let e = parse_err(&whole[..used - 1], &J3dLimits::default());
    assert_eq!(e.code(), ErrorCode::Truncated);
    // A whole file has no warning.
    let mut warnings = Warnings::new();
    parse(&whole, &J3dLimits::default(), &mut warnings).unwrap();
    assert!(warnings.as_slice().is_empty());
}

/// A BTP of one entry (material "mat", slot 2) showing `indices`.
fn btp(indices: &[u16]) -> Vec<u8> {
    let mut c = Chunk::new(0x20);
    c.u8(0x08, 0)
        .u16(0x0A, indices.len() as u16)
        .u16(0x0C, 1)
        .u16(0x0E, indices.len() as u16);
    c.u32(0x10, 0x20)
        .u32(0x14, 0x40)
        .u32(0x18, 0x30)
        .u32(0x1C, 0x60);
    c.u16(0x20, indices.len() as u16).u16(0x22, 0).u8(0x24, 2);
    for (i, v) in indices.iter().enumerate() {
        c.u16(0x40 + 2 * i, *v);
    }
    // Name table: count 1, (hash, offset 8), "mat\0".
    c.u16(0x60, 1).u16(0x64, 0).u16(0x66, 8).put(0x68, b"mat\0");
    c.file(b"J3D1btp1", b"TPT1")
}

#[test]
fn a_btp_past_its_table_shows_the_last_texture() {
    let bytes = btp(&[4, 5, 6]);
    let a = parse_ok(&bytes);
    let Animation::Btp(t) = &a else {
        panic!("BTP expected")
    };
    let e = t.entry(0).unwrap();
    assert_eq!((e.material, e.slot, e.frames.count), (&b"mat"[..], 2, 3));
    let at = |f: f32| texture_index(&a, 0, f).unwrap();
    assert_eq!([at(0.0), at(1.7), at(2.0)], [4, 5, 6]);
    // J3DAnmTexPattern: from the end of the table on, its last index.
    assert_eq!([at(3.0), at(50.0)], [6, 6]);
    assert_eq!(texture_index(&a, 1, 0.0), None);
}

/// A BVA of one shape with `bits`.
fn bva(bits: &[u8]) -> Vec<u8> {
    let mut c = Chunk::new(0x20);
    c.u8(0x08, 2)
        .u16(0x0A, bits.len() as u16)
        .u16(0x0C, 1)
        .u16(0x0E, bits.len() as u16);
    c.u32(0x10, 0x20).u32(0x14, 0x24);
    c.u16(0x20, bits.len() as u16).u16(0x22, 0).put(0x24, bits);
    c.file(b"J3D1bva1", b"VAF1")
}

#[test]
fn visibility_is_read_at_the_nearest_frame() {
    let bytes = bva(&[1, 0, 1]);
    let a = parse_ok(&bytes);
    let v = |f: f32| shape_visible(&a, 0, f).unwrap();
    assert_eq!(
        [v(0.0), v(0.49), v(0.5), v(1.49), v(1.5)],
        [true, true, false, false, true]
    );
    assert_eq!([v(2.9), v(10.0), v(-4.0)], [true, true, true]);
}

#[test]
fn each_animation_limit_passes_at_its_value_and_fails_one_past() {
    let mut tracks = [REST; 9];
    tracks[2] = (2, 1, 0);
    let bytes = bck(
        tracks,
        &[1.0],
        &[0],
        &[0.0, 0.0, 0.0, 2.0, 10.0, 10.0, 2.0],
        0,
    );
    // Keys: eight one-key tracks and one of two.
    let keys = 10;
    let fits = |l: J3dLimits| parse(&bytes, &l, &mut Warnings::new()).map(|_| ());
    let d = J3dLimits::default();
    assert!(
        fits(J3dLimits {
            max_anim_keys: keys,
            ..d
        })
        .is_ok()
    );
    let e = fits(J3dLimits {
        max_anim_keys: keys - 1,
        ..d
    })
    .unwrap_err();
    assert_eq!(e.code(), ErrorCode::TooManyKeyframes);
    assert!(
        fits(J3dLimits {
            max_anim_tracks: 9,
            ..d
        })
        .is_ok()
    );
    let e = fits(J3dLimits {
        max_anim_tracks: 8,
        ..d
    })
    .unwrap_err();
    assert_eq!((e.code(), offset(&e)), (ErrorCode::TooManyKeyframes, 0x2C));
    assert!(
        fits(J3dLimits {
            max_anim_frames: 30,
            ..d
        })
        .is_ok()
    );
    let e = fits(J3dLimits {
        max_anim_frames: 29,
        ..d
    })
    .unwrap_err();
    assert_eq!((e.code(), offset(&e)), (ErrorCode::TooManyKeyframes, 0x2A));
    let len = bytes.len() as u64;
    assert!(
        fits(J3dLimits {
            max_file_bytes: len,
            ..d
        })
        .is_ok()
    );
    let e = fits(J3dLimits {
        max_file_bytes: len - 1,
        ..d
    })
    .unwrap_err();
    assert_eq!(e.code(), ErrorCode::FileTooLarge);
}

#[test]
fn every_truncation_of_a_built_file_is_an_error_or_a_read() {
    for bytes in [
        bck([REST; 9], &[1.0], &[0], &[0.0], 0),
        bca(&[1.0, 2.0]),
        btp(&[1, 2]),
        bva(&[1, 0]),
    ] {
        assert!(parse(&bytes, &J3dLimits::default(), &mut Warnings::new()).is_ok());
        let mut read = 0;
        for cut in 0..bytes.len() {
            // A read (only padding cut, with a warning) or a truncation
            // placed in the file; never a panic.
            let mut warnings = Warnings::new();
            match parse(&bytes[..cut], &J3dLimits::default(), &mut warnings) {
                Ok(_) => {
                    assert_eq!(warnings.as_slice().len(), 1, "cut {cut}");
                    read += 1;
                }
                Err(e) => {
                    assert_eq!(e.code(), ErrorCode::Truncated, "cut {cut}: {e}");
                    offset(&e);
                }
            }
        }
        // Only cuts inside the trailing padding read.
        assert!(read < 0x20, "{read} cuts read");
    }
}

#[test]
fn a_key_track_reports_its_keys() {
    let mut tracks = [REST; 9];
    tracks[2] = (2, 1, 1);
    let t = [0.0, 0.0, 0.0, 5.0, 1.0, 10.0, 10.0, 3.0, -5.0];
    let bytes = bck(tracks, &[1.0], &[0], &t, 0);
    let a = parse_ok(&bytes);
    let Animation::Bck(b) = &a else {
        panic!("BCK expected")
    };
    let track: KeyTrack = b.tracks(0).unwrap().translation[0];
    assert_eq!(track.tangents, Tangents::InOut);
    let table = b.tables()[2];
    let k1 = track.key(&table, 1).unwrap();
    assert_eq!(
        (k1.time, k1.value, k1.tangent_in, k1.tangent_out),
        (10.0, 10.0, 3.0, -5.0)
    );
    assert!(track.key(&table, 2).is_none());
}
