//! The cube rules, pinned.

use super::shape::sin_cos_degrees;
use super::*;

const ALL_FACES: [Option<FaceInput>; 6] = [Some(FaceInput {
    uv: None,
    rotation: FaceRotation::Deg0,
}); 6];

fn faces_with_uv(uv: [f64; 4], rotation: FaceRotation) -> [Option<FaceInput>; 6] {
    [Some(FaceInput {
        uv: Some(uv),
        rotation,
    }); 6]
}

fn face(result: &CubeFaces, name: FaceName) -> CubeFace {
    match result.face(name) {
        Some(face) => *face,
        None => panic!("{} face missing", name.as_str()),
    }
}

fn sub32(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross32(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot32(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn centre32(corners: &[[f32; 3]; 4]) -> [f32; 3] {
    let mut c = [0.0; 3];
    for p in corners {
        for (ci, pi) in c.iter_mut().zip(p) {
            *ci += pi / 4.0;
        }
    }
    c
}

/// 2 × 3 × 4 cube at the origin, explicit uv [0, 0, 2, 3] on every face.
fn plain_2x3x4() -> CubeFaces {
    let cube = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
    cube_faces(
        &cube,
        &faces_with_uv([0.0, 0.0, 2.0, 3.0], FaceRotation::Deg0),
    )
}

const UV_TL_BL_BR_TR: [[f64; 2]; 4] = [[0.0, 0.0], [0.0, 3.0], [2.0, 3.0], [2.0, 0.0]];

#[test]
fn face_name_keys_round_trip() {
    for (i, name) in FaceName::ALL.iter().enumerate() {
        assert_eq!(FaceName::from_key(name.as_str()), Some(*name));
        assert_eq!(name.index(), i);
        assert_eq!(name.opposite().opposite(), *name);
        assert_eq!(name.opposite().axis(), name.axis());
    }
    assert_eq!(FaceName::from_key("North"), None);
    assert_eq!(FaceName::from_key(""), None);
}

#[test]
fn face_rotation_accepts_only_quarter_turns() {
    assert_eq!(FaceRotation::from_degrees(0.0), Some(FaceRotation::Deg0));
    assert_eq!(FaceRotation::from_degrees(90.0), Some(FaceRotation::Deg90));
    assert_eq!(
        FaceRotation::from_degrees(180.0),
        Some(FaceRotation::Deg180)
    );
    assert_eq!(
        FaceRotation::from_degrees(270.0),
        Some(FaceRotation::Deg270)
    );
    for bad in [45.0, -90.0, 360.0, 90.5, f64::NAN, f64::INFINITY] {
        assert_eq!(FaceRotation::from_degrees(bad), None, "{bad}");
    }
    assert_eq!(FaceRotation::Deg270.degrees(), 270);
}

#[test]
fn convention_2_north_face_top_left_is_east() {
    let north = face(&plain_2x3x4(), FaceName::North);
    assert_eq!(
        north.corners,
        [
            [2.0, 3.0, 0.0],
            [2.0, 0.0, 0.0],
            [0.0, 0.0, 0.0],
            [0.0, 3.0, 0.0]
        ]
    );
    assert_eq!(north.uvs, UV_TL_BL_BR_TR);
    assert_eq!(north.normal, [0.0, 0.0, -1.0]);
}

#[test]
fn convention_2_south_face_top_left_is_west() {
    let south = face(&plain_2x3x4(), FaceName::South);
    assert_eq!(
        south.corners,
        [
            [0.0, 3.0, 4.0],
            [0.0, 0.0, 4.0],
            [2.0, 0.0, 4.0],
            [2.0, 3.0, 4.0]
        ]
    );
    assert_eq!(south.uvs, UV_TL_BL_BR_TR);
    assert_eq!(south.normal, [0.0, 0.0, 1.0]);
}

#[test]
fn convention_2_east_face_top_left_is_south() {
    let east = face(&plain_2x3x4(), FaceName::East);
    assert_eq!(
        east.corners,
        [
            [2.0, 3.0, 4.0],
            [2.0, 0.0, 4.0],
            [2.0, 0.0, 0.0],
            [2.0, 3.0, 0.0]
        ]
    );
    assert_eq!(east.uvs, UV_TL_BL_BR_TR);
    assert_eq!(east.normal, [1.0, 0.0, 0.0]);
}

#[test]
fn convention_2_west_face_top_left_is_north() {
    let west = face(&plain_2x3x4(), FaceName::West);
    assert_eq!(
        west.corners,
        [
            [0.0, 3.0, 0.0],
            [0.0, 0.0, 0.0],
            [0.0, 0.0, 4.0],
            [0.0, 3.0, 4.0]
        ]
    );
    assert_eq!(west.uvs, UV_TL_BL_BR_TR);
    assert_eq!(west.normal, [-1.0, 0.0, 0.0]);
}

#[test]
fn convention_2_up_face_top_left_is_north_west() {
    let up = face(&plain_2x3x4(), FaceName::Up);
    assert_eq!(
        up.corners,
        [
            [0.0, 3.0, 0.0],
            [0.0, 3.0, 4.0],
            [2.0, 3.0, 4.0],
            [2.0, 3.0, 0.0]
        ]
    );
    assert_eq!(up.uvs, UV_TL_BL_BR_TR);
    assert_eq!(up.normal, [0.0, 1.0, 0.0]);
}

#[test]
fn convention_2_down_face_top_left_is_south_west() {
    let down = face(&plain_2x3x4(), FaceName::Down);
    assert_eq!(
        down.corners,
        [
            [0.0, 0.0, 4.0],
            [0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.0, 0.0, 4.0]
        ]
    );
    assert_eq!(down.uvs, UV_TL_BL_BR_TR);
    assert_eq!(down.normal, [0.0, -1.0, 0.0]);
}

#[test]
fn convention_2_mirroring_falls_out_of_the_corner_mapping() {
    // u1 > u2 flips horizontally, v1 > v2 vertically.
    let cube = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
    let result = cube_faces(
        &cube,
        &faces_with_uv([2.0, 0.0, 0.0, 3.0], FaceRotation::Deg0),
    );
    assert_eq!(
        face(&result, FaceName::North).uvs,
        [[2.0, 0.0], [2.0, 3.0], [0.0, 3.0], [0.0, 0.0]]
    );
    let result = cube_faces(
        &cube,
        &faces_with_uv([0.0, 3.0, 2.0, 0.0], FaceRotation::Deg0),
    );
    assert_eq!(
        face(&result, FaceName::North).uvs,
        [[0.0, 3.0], [0.0, 0.0], [2.0, 0.0], [2.0, 3.0]]
    );
}

#[test]
fn face_rotation_90_turns_image_clockwise() {
    // Turned clockwise, the image's bottom-left lands on the face's
    // top-left, its top-left on the face's top-right (Blockbench updateUV).
    let cube = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
    let result = cube_faces(
        &cube,
        &faces_with_uv([0.0, 0.0, 2.0, 3.0], FaceRotation::Deg90),
    );
    let north = face(&result, FaceName::North);
    assert_eq!(north.uvs, [[0.0, 3.0], [2.0, 3.0], [2.0, 0.0], [0.0, 0.0]]);
    // Corners do not move.
    assert_eq!(north.corners, face(&plain_2x3x4(), FaceName::North).corners);
}

#[test]
fn face_rotation_180_and_270_continue_clockwise() {
    let cube = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
    let uv = [0.0, 0.0, 2.0, 3.0];
    let r180 = cube_faces(&cube, &faces_with_uv(uv, FaceRotation::Deg180));
    assert_eq!(
        face(&r180, FaceName::Up).uvs,
        [[2.0, 3.0], [2.0, 0.0], [0.0, 0.0], [0.0, 3.0]]
    );
    let r270 = cube_faces(&cube, &faces_with_uv(uv, FaceRotation::Deg270));
    assert_eq!(
        face(&r270, FaceName::Up).uvs,
        [[2.0, 0.0], [0.0, 0.0], [0.0, 3.0], [2.0, 3.0]]
    );
}

#[test]
fn convention_1_plus_90_about_y_takes_plus_x_to_minus_z() {
    let mut cube = CubeInput::new([0.0; 3], [1.0; 3]);
    cube.rotation = [0.0, 90.0, 0.0];
    let east = face(&cube_faces(&cube, &ALL_FACES), FaceName::East);
    assert_eq!(east.normal, [0.0, 0.0, -1.0]);
    assert_eq!(
        east.corners,
        [
            [1.0, 1.0, -1.0],
            [1.0, 0.0, -1.0],
            [0.0, 0.0, -1.0],
            [0.0, 1.0, -1.0]
        ]
    );
}

#[test]
fn convention_1_applies_x_first() {
    // X first: +Y → +Z (90° about X) → +X (90° about Y). Y first would
    // give +Z.
    let mut cube = CubeInput::new([0.0; 3], [1.0; 3]);
    cube.rotation = [90.0, 90.0, 0.0];
    let up = face(&cube_faces(&cube, &ALL_FACES), FaceName::Up);
    assert_eq!(up.normal, [1.0, 0.0, 0.0]);
    // Then Z last: 90° about Z takes that +X to +Y.
    cube.rotation = [90.0, 90.0, 90.0];
    let up = face(&cube_faces(&cube, &ALL_FACES), FaceName::Up);
    assert_eq!(up.normal, [0.0, 1.0, 0.0]);
}

#[test]
fn rotation_about_origin_is_baked_in() {
    let mut cube = CubeInput::new([8.0, 0.0, 8.0], [9.0, 1.0, 9.0]);
    cube.origin = [8.0, 0.0, 8.0];
    cube.rotation = [0.0, 90.0, 0.0];
    let east = face(&cube_faces(&cube, &ALL_FACES), FaceName::East);
    assert_eq!(
        east.corners,
        [
            [9.0, 1.0, 7.0],
            [9.0, 0.0, 7.0],
            [8.0, 0.0, 7.0],
            [8.0, 1.0, 7.0]
        ]
    );
    // 45° about Z around (0, 0, 0): (1, 1, z) goes to (0, √2, z).
    let mut cube = CubeInput::new([0.0; 3], [1.0; 3]);
    cube.rotation = [0.0, 0.0, 45.0];
    let east = face(&cube_faces(&cube, &ALL_FACES), FaceName::East);
    let top_left = east.corners[0];
    assert!(top_left[0].abs() < 1e-6, "{top_left:?}");
    assert!((top_left[1] - core::f32::consts::SQRT_2).abs() < 1e-6);
    assert_eq!(top_left[2], 1.0);
    let h = core::f32::consts::FRAC_1_SQRT_2;
    assert!((east.normal[0] - h).abs() < 1e-6 && (east.normal[1] - h).abs() < 1e-6);
}

#[test]
fn multiples_of_90_degrees_are_exact() {
    for (deg, sin, cos) in [
        (0.0, 0.0, 1.0),
        (90.0, 1.0, 0.0),
        (180.0, 0.0, -1.0),
        (270.0, -1.0, 0.0),
        (-90.0, -1.0, 0.0),
        (450.0, 1.0, 0.0),
        (-360.0, 0.0, 1.0),
    ] {
        let (s, c) = sin_cos_degrees(deg);
        assert_eq!((s + 0.0, c + 0.0), (sin, cos), "{deg}");
    }
    let (s, c) = sin_cos_degrees(30.0);
    assert!((s - 0.5).abs() < 1e-15 && (c - libm::sqrt(3.0) / 2.0).abs() < 1e-15);
    let (s, _) = sin_cos_degrees(-1e-300);
    assert!(s.abs() < 1e-15);
}

#[test]
fn cube_box_is_signed_extent_about_the_centre() {
    // e = ((to − from) / 2 + inflate) · stretch about (from + to) / 2.
    let mut cube = CubeInput::new([0.0, 0.0, 0.0], [2.0, 4.0, 6.0]);
    cube.inflate = 1.0;
    cube.stretch = [2.0, 1.0, 0.5];
    let (lo, hi) = cube_box(&cube);
    assert_eq!(lo, [-3.0, -1.0, 1.0]);
    assert_eq!(hi, [5.0, 5.0, 5.0]);
}

#[test]
fn reversed_x_puts_east_face_on_minus_x() {
    let cube = CubeInput::new([2.0, 0.0, 0.0], [0.0, 1.0, 1.0]);
    let result = cube_faces(&cube, &ALL_FACES);
    assert_eq!(result.reversed, [true, false, false]);
    let east = face(&result, FaceName::East);
    // Mirrored about x = 1: on the −X side, UV kept.
    assert_eq!(
        east.corners,
        [
            [0.0, 1.0, 1.0],
            [0.0, 0.0, 1.0],
            [0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0]
        ]
    );
    // Its front (from the winding) faces +X, into the box.
    assert_eq!(east.normal, [1.0, 0.0, 0.0]);
    let west = face(&result, FaceName::West);
    assert!(west.corners.iter().all(|c| c[0] == 2.0));
    assert_eq!(west.normal, [-1.0, 0.0, 0.0]);
}

#[test]
fn normal_follows_winding_not_face_key() {
    // Reversed in x only: the north face (key normal −Z) is mirrored in x,
    // so its winding faces +Z, into the box.
    let cube = CubeInput::new([1.0, 0.0, 0.0], [0.0, 1.0, 1.0]);
    let north = face(&cube_faces(&cube, &ALL_FACES), FaceName::North);
    assert!(north.corners.iter().all(|c| c[2] == 0.0));
    assert_eq!(north.normal, [0.0, 0.0, 1.0]);
}

/// Every drawn face's front points away from (or, `inward`, towards) the
/// box centre, the mean of the face centres (all six faces drawn).
fn assert_all_fronts(result: &CubeFaces, inward: bool) {
    let mut centre = [0.0f32; 3];
    for f in result.iter() {
        for (s, c) in centre.iter_mut().zip(centre32(&f.corners)) {
            *s += c / 6.0;
        }
    }
    assert_eq!(result.iter().count(), 6);
    for f in result.iter() {
        let d = dot32(sub32(centre32(&f.corners), centre), f.normal);
        assert_eq!(d < 0.0, inward, "{} front", f.name.as_str());
        assert!(d != 0.0);
    }
}

#[test]
fn odd_reversed_axes_make_an_inverted_hull() {
    // One axis by negative stretch, three by from > to.
    let mut stretched = CubeInput::new([0.0; 3], [2.0, 2.0, 2.0]);
    stretched.stretch = [-1.0, 1.0, 1.0];
    let all_three = CubeInput::new([2.0, 3.0, 4.0], [0.0; 3]);
    for cube in [stretched, all_three] {
        let result = cube_faces(&cube, &ALL_FACES);
        assert!(result.inverted && result.outline_hull);
        assert_eq!(result.reversed_count() % 2, 1);
        assert_eq!(result.iter().count(), 6);
        assert_all_fronts(&result, true);
    }
}

#[test]
fn even_reversed_axes_leave_an_outward_box() {
    let cube = CubeInput::new([2.0, 3.0, 0.0], [0.0, 0.0, 4.0]);
    let result = cube_faces(&cube, &ALL_FACES);
    assert_eq!(result.reversed, [true, true, false]);
    assert!(!result.inverted && !result.outline_hull);
    assert_all_fronts(&result, false);
}

#[test]
fn even_reversed_axes_turn_each_texture_180_degrees() {
    // Reversed in x and y: the north face stays at −Z, but its (u1, v1)
    // corner is now at −X (the viewer's right from −Z) and −Y: the image
    // shows turned 180° on the same side.
    let cube = CubeInput::new([2.0, 3.0, 0.0], [0.0, 0.0, 4.0]);
    let result = cube_faces(
        &cube,
        &faces_with_uv([0.0, 0.0, 2.0, 3.0], FaceRotation::Deg0),
    );
    let north = face(&result, FaceName::North);
    assert_eq!(north.corners[0], [0.0, 0.0, 0.0]);
    assert_eq!(north.uvs[0], [0.0, 0.0]);
    assert_eq!(north.corners[2], [2.0, 3.0, 0.0]);
    assert_eq!(north.normal, [0.0, 0.0, -1.0]);
    // Reversed in x and z: the north face lies on +Z facing +Z, its image
    // as a south face's would be (the whole box turned 180° about Y).
    let cube = CubeInput::new([2.0, 0.0, 4.0], [0.0, 3.0, 0.0]);
    let north = face(&cube_faces(&cube, &ALL_FACES), FaceName::North);
    assert!(north.corners.iter().all(|c| c[2] == 4.0));
    assert_eq!(north.corners[0], [0.0, 3.0, 4.0]);
    assert_eq!(north.normal, [0.0, 0.0, 1.0]);
}

#[test]
fn negative_inflate_past_half_a_side_reverses() {
    // 2 × 4 × 6 with inflate −1.5: x (half 1) reverses, y and z shrink.
    let mut cube = CubeInput::new([0.0; 3], [2.0, 4.0, 6.0]);
    cube.inflate = -1.5;
    let result = cube_faces(&cube, &ALL_FACES);
    assert_eq!(result.reversed, [true, false, false]);
    assert_eq!(cube_box(&cube), ([1.5, 1.5, 1.5], [0.5, 2.5, 4.5]));
    assert!(result.inverted && result.outline_hull);
    let east = face(&result, FaceName::East);
    assert!(east.corners.iter().all(|c| c[0] == 0.5));
    assert_all_fronts(&result, true);
}

#[test]
fn negative_inflate_of_exactly_half_a_side_is_flat_not_reversed() {
    let mut cube = CubeInput::new([0.0; 3], [2.0, 4.0, 6.0]);
    cube.inflate = -1.0;
    let result = cube_faces(&cube, &ALL_FACES);
    assert_eq!(result.reversed, [false; 3]);
    assert_eq!(result.flat, [true, false, false]);
    let kept: [bool; 6] = FaceName::ALL.map(|n| result.face(n).is_some());
    assert_eq!(kept, [false, true, false, true, false, false]);
    assert!(face(&result, FaceName::East).coincides_with_opposite);
}

#[test]
fn positive_inflate_turns_a_reversed_axis_back() {
    let mut cube = CubeInput::new([2.0, 0.0, 0.0], [0.0, 2.0, 2.0]);
    // Shrinks the reversed axis: e = −1 + 0.5.
    cube.inflate = 0.5;
    let result = cube_faces(&cube, &ALL_FACES);
    assert_eq!(result.reversed, [true, false, false]);
    assert_eq!(cube_box(&cube).0[0], 1.5);
    // Past zero turns it back: e = −1 + 1.5.
    cube.inflate = 1.5;
    let result = cube_faces(&cube, &ALL_FACES);
    assert_eq!(result.reversed, [false; 3]);
    assert!(!result.inverted && !result.outline_hull);
    let east = face(&result, FaceName::East);
    assert!(east.corners.iter().all(|c| c[0] == 1.5));
    assert_all_fronts(&result, false);
    // At zero it is flat, not reversed.
    cube.inflate = 1.0;
    let result = cube_faces(&cube, &ALL_FACES);
    assert_eq!(
        (result.reversed, result.flat),
        ([false; 3], [true, false, false])
    );
}

#[test]
fn flat_cube_keeps_only_large_faces() {
    let cube = CubeInput::new([0.0; 3], [2.0, 0.0, 3.0]);
    let result = cube_faces(&cube, &ALL_FACES);
    let kept: [bool; 6] = FaceName::ALL.map(|n| result.face(n).is_some());
    assert_eq!(kept, [false, false, false, false, true, true]);
    assert_eq!(result.triangle_count(), 4);
    let up = face(&result, FaceName::Up);
    let down = face(&result, FaceName::Down);
    // No 0.001 padding: both lie at y = 0.
    assert!(up.corners.iter().chain(&down.corners).all(|c| c[1] == 0.0));
    assert_eq!(
        (up.normal, down.normal),
        ([0.0, 1.0, 0.0], [0.0, -1.0, 0.0])
    );
    // Both drawn: coincident, each single-sided.
    assert!(up.in_flat_plane && up.coincides_with_opposite);
    assert!(down.in_flat_plane && down.coincides_with_opposite);
    assert!(!result.outline_hull);
}

#[test]
fn lone_face_in_a_flat_plane_keeps_its_sidedness() {
    // A glass pane: the opposite face removed (texture: null) or absent.
    let cube = CubeInput::new([0.0; 3], [2.0, 3.0, 0.0]);
    let mut faces = ALL_FACES;
    faces[FaceName::South.index()] = None;
    let result = cube_faces(&cube, &faces);
    assert!(result.face(FaceName::South).is_none());
    let north = face(&result, FaceName::North);
    assert!(north.in_flat_plane && !north.coincides_with_opposite);
}

#[test]
fn cube_flat_on_two_axes_has_no_faces() {
    let cube = CubeInput::new([0.0; 3], [2.0, 0.0, 0.0]);
    let result = cube_faces(&cube, &ALL_FACES);
    assert_eq!(result.iter().count(), 0);
    assert_eq!(result.triangle_count(), 0);
}

#[test]
fn undrawn_faces_stay_none() {
    let cube = CubeInput::new([0.0; 3], [1.0; 3]);
    let mut faces = ALL_FACES;
    faces[FaceName::Up.index()] = None;
    let result = cube_faces(&cube, &faces);
    assert!(result.face(FaceName::Up).is_none());
    assert_eq!(result.triangle_count(), 10);
    // Up's opposite is not in a flat plane, so nothing coincides.
    assert!(!face(&result, FaceName::Down).coincides_with_opposite);
}

#[test]
fn pane_mirrored_in_its_plane_is_no_hull() {
    // Flat as authored (inflate gives it volume), reversed in x.
    let mut cube = CubeInput::new([0.0; 3], [2.0, 0.0, 2.0]);
    cube.inflate = 0.5;
    cube.stretch = [-1.0, 1.0, 1.0];
    let result = cube_faces(&cube, &ALL_FACES);
    assert!(result.inverted && !result.outline_hull);
    assert_eq!(result.flat, [false; 3]);
    // Flat as authored and mirrored in its plane.
    let cube = CubeInput::new([2.0, 0.0, 0.0], [0.0, 0.0, 2.0]);
    let result = cube_faces(&cube, &ALL_FACES);
    assert!(result.inverted && !result.outline_hull);
    // Flattened by inflate.
    let mut cube = CubeInput::new([2.0, 0.0, 0.0], [0.0, 2.0, 2.0]);
    cube.inflate = -1.0;
    let result = cube_faces(&cube, &ALL_FACES);
    assert_eq!(result.flat, [false, true, true]);
    assert!(!result.outline_hull);
}

#[test]
fn convention_5_box_uv_layout_of_a_2x3x4_cube() {
    let layout = box_uv_layout([2.0, 3.0, 4.0], [0.0, 0.0], false);
    assert_eq!(layout[FaceName::East.index()], [0.0, 4.0, 4.0, 7.0]);
    assert_eq!(layout[FaceName::North.index()], [4.0, 4.0, 6.0, 7.0]);
    assert_eq!(layout[FaceName::West.index()], [6.0, 4.0, 10.0, 7.0]);
    assert_eq!(layout[FaceName::South.index()], [10.0, 4.0, 12.0, 7.0]);
    // Up turned 180°: [d + w, d, d, 0].
    assert_eq!(layout[FaceName::Up.index()], [6.0, 4.0, 4.0, 0.0]);
    // Down mirrored horizontally: [d + 2w, 0, d + w, d].
    assert_eq!(layout[FaceName::Down.index()], [8.0, 0.0, 6.0, 4.0]);
}

#[test]
fn convention_5_box_uv_layout_is_shifted_by_uv_offset() {
    let layout = box_uv_layout([2.0, 3.0, 4.0], [16.0, 32.0], false);
    assert_eq!(layout[FaceName::North.index()], [20.0, 36.0, 22.0, 39.0]);
    assert_eq!(layout[FaceName::Up.index()], [22.0, 36.0, 20.0, 32.0]);
}

#[test]
fn mirror_uv_swaps_east_and_west() {
    let layout = box_uv_layout([2.0, 3.0, 4.0], [0.0, 0.0], true);
    // Every face flipped horizontally; east takes west's place and v.v.
    assert_eq!(layout[FaceName::East.index()], [10.0, 4.0, 6.0, 7.0]);
    assert_eq!(layout[FaceName::West.index()], [4.0, 4.0, 0.0, 7.0]);
    assert_eq!(layout[FaceName::North.index()], [6.0, 4.0, 4.0, 7.0]);
    assert_eq!(layout[FaceName::South.index()], [12.0, 4.0, 10.0, 7.0]);
    assert_eq!(layout[FaceName::Up.index()], [4.0, 4.0, 6.0, 0.0]);
    assert_eq!(layout[FaceName::Down.index()], [6.0, 0.0, 8.0, 4.0]);
}

#[test]
fn box_uv_cube_maps_the_layout_onto_its_faces() {
    let mut cube = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
    cube.box_uv = true;
    cube.uv_offset = [1.0, 2.0];
    let result = cube_faces(&cube, &ALL_FACES);
    let north = face(&result, FaceName::North);
    assert_eq!(north.uv, [5.0, 6.0, 7.0, 9.0]);
    assert_eq!(north.uvs, [[5.0, 6.0], [5.0, 9.0], [7.0, 9.0], [7.0, 6.0]]);
    // Up, stored turned 180°: its top-left (north-west) corner reads
    // (d + w, d) + offset.
    let up = face(&result, FaceName::Up);
    assert_eq!(up.uvs[0], [7.0, 6.0]);
}

#[test]
fn explicit_uv_wins_over_box_layout() {
    let mut cube = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
    cube.box_uv = true;
    let mut faces = ALL_FACES;
    faces[FaceName::North.index()] = Some(FaceInput {
        uv: Some([1.0, 1.0, 3.0, 4.0]),
        rotation: FaceRotation::Deg0,
    });
    let result = cube_faces(&cube, &faces);
    assert_eq!(face(&result, FaceName::North).uv, [1.0, 1.0, 3.0, 4.0]);
    assert_eq!(face(&result, FaceName::South).uv, [10.0, 4.0, 12.0, 7.0]);
}

#[test]
fn face_without_uv_outside_box_uv_gets_blockbench_default() {
    let cube = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
    let result = cube_faces(&cube, &ALL_FACES);
    assert!(result.iter().all(|f| f.uv == DEFAULT_FACE_UV));
}

#[test]
fn box_uv_size_floors_fractional_extent() {
    assert_eq!(
        box_uv_size([0.5, 0.0, 0.0], [3.2, 1.0, 1.0], false),
        [2.0, 1.0, 1.0]
    );
    // 4.35 − 1.35 = 2.9999999999999996: the 1e-7 makes it 3.
    assert_eq!(
        box_uv_size([1.35, 0.0, 0.0], [4.35, 0.0, 0.0], false)[0],
        3.0
    );
    // Signed: negative on a reversed axis, floored downwards.
    assert_eq!(
        box_uv_size([2.0, 2.5, 0.0], [0.0, 0.0, 0.0], false),
        [-2.0, -3.0, 0.0]
    );
}

#[test]
fn box_uv_float_size_keeps_fractions() {
    let size = box_uv_size([0.5, 0.0, 1.35], [3.25, 1.5, 4.35], true);
    assert_eq!(size, [2.75, 1.5, 4.35 - 1.35]);
    let mut cube = CubeInput::new([0.0; 3], [2.5, 1.0, 1.0]);
    cube.box_uv = true;
    cube.box_uv_float_size = true;
    let result = cube_faces(&cube, &ALL_FACES);
    assert_eq!(face(&result, FaceName::North).uv, [1.0, 1.0, 3.5, 2.0]);
    cube.box_uv_float_size = false;
    let result = cube_faces(&cube, &ALL_FACES);
    assert_eq!(face(&result, FaceName::North).uv, [1.0, 1.0, 3.0, 2.0]);
}

#[test]
fn box_uv_of_a_reversed_cube_uses_the_negative_size() {
    let mut cube = CubeInput::new([2.0, 0.0, 0.0], [0.0, 3.0, 4.0]);
    cube.box_uv = true;
    let result = cube_faces(&cube, &ALL_FACES);
    // w = −2: north at (d, d), −2 wide.
    assert_eq!(face(&result, FaceName::North).uv, [4.0, 4.0, 2.0, 7.0]);
}

#[test]
fn stretch_and_inflate_never_change_uvs() {
    let mut plain = CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]);
    plain.box_uv = true;
    let mut faces = ALL_FACES;
    faces[FaceName::North.index()] = Some(FaceInput {
        uv: Some([1.0, 1.0, 3.0, 4.0]),
        rotation: FaceRotation::Deg90,
    });
    let mut changed = plain;
    changed.inflate = 1.25;
    changed.stretch = [2.0, 0.5, 3.0];
    let (a, b) = (cube_faces(&plain, &faces), cube_faces(&changed, &faces));
    for name in FaceName::ALL {
        assert_eq!(face(&a, name).uvs, face(&b, name).uvs, "{}", name.as_str());
        assert_eq!(face(&a, name).uv, face(&b, name).uv);
        assert_ne!(face(&a, name).corners, face(&b, name).corners);
    }
}

#[test]
fn every_face_winds_counter_clockwise_about_its_normal() {
    let mut rotated = CubeInput::new([-1.0, 2.0, 3.0], [4.0, 5.0, 9.0]);
    rotated.origin = [1.0, 1.0, 1.0];
    rotated.rotation = [22.5, -45.0, 10.0];
    let mut stretched = rotated;
    stretched.stretch = [-1.0, 2.0, 1.0];
    stretched.inflate = 0.25;
    let cubes = [
        CubeInput::new([0.0; 3], [2.0, 3.0, 4.0]),
        CubeInput::new([2.0, 3.0, 4.0], [0.0; 3]),
        CubeInput::new([2.0, 0.0, 0.0], [0.0, 3.0, 4.0]),
        CubeInput::new([0.0; 3], [2.0, 0.0, 4.0]),
        rotated,
        stretched,
    ];
    for cube in cubes {
        let result = cube_faces(&cube, &ALL_FACES);
        assert!(result.iter().count() >= 2);
        for f in result.iter() {
            let n = f.normal;
            assert!((dot32(n, n) - 1.0).abs() < 1e-6, "unit normal");
            for [i, j, k] in FACE_TRIANGLES {
                let [p0, p1, p2] =
                    [i, j, k].map(|c| f.corners.get(c as usize).copied().unwrap_or([0.0; 3]));
                let t = cross32(sub32(p1, p0), sub32(p2, p0));
                let len = libm::sqrtf(dot32(t, t));
                assert!(len > 0.0);
                // Parallel to the normal, same direction.
                assert!(
                    (dot32(t, n) / len - 1.0).abs() < 1e-5,
                    "{}",
                    f.name.as_str()
                );
            }
        }
        if !result.inverted && result.flat == [false; 3] {
            assert_all_fronts(&result, false);
        }
    }
}

#[test]
fn hostile_numbers_never_panic() {
    let bad = [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MAX,
        -0.0,
        1e-300,
    ];
    for &v in &bad {
        let mut cube = CubeInput::new([v, 0.0, v], [1.0, v, 1.0]);
        cube.rotation = [v, v, v];
        cube.inflate = v;
        cube.stretch = [v, 1.0, v];
        cube.box_uv = true;
        cube.uv_offset = [v, v];
        cube.mirror_uv = true;
        let result = cube_faces(&cube, &ALL_FACES);
        let _ = result.triangle_count();
        let _ = result.reversed_count();
    }
}
