use super::*;
use crate::bbmodel::elements::mesh::transform::sin_cos_deg;
use crate::bbmodel::elements::mesh::triangulate::orient;
use std::vec::Vec;

type P = [f32; 3];

fn w(p: P) -> V3 {
    widen(p)
}

/// Triangulates and returns the triangles as a vector.
fn run(positions: &[P]) -> (Triangulation, Vec<[u8; 3]>) {
    let mut out = [[0u8; 3]; MAX_FACE_TRIANGLES];
    let t = triangulate(positions, &mut out).expect("at most 16 vertices");
    (t, out.iter().take(t.count).copied().collect())
}

/// The triangle's vector area times two, from the positions as given.
fn tri_cross(positions: &[P], t: [u8; 3]) -> V3 {
    let [a, b, c] = t.map(|i| w(positions[usize::from(i)]));
    cross(sub(b, a), sub(c, a))
}

/// Newell's method over `loop_` (indices into `positions`), times two.
fn newell_of(positions: &[P], loop_: &[usize]) -> V3 {
    let mut n = [0.0; 3];
    let o = w(positions[loop_[0]]);
    for (i, &a) in loop_.iter().enumerate() {
        let b = loop_[(i + 1) % loop_.len()];
        n = add(n, cross(sub(w(positions[a]), o), sub(w(positions[b]), o)));
    }
    n
}

/// The loop `triangulate` works on: Blockbench's order for a quad.
fn loop_of(positions: &[P]) -> Vec<usize> {
    match <&[P; 4]>::try_from(positions) {
        Ok(quad) => quad_order(quad).to_vec(),
        Err(_) => (0..positions.len()).collect(),
    }
}

fn len(a: V3) -> f64 {
    libm::sqrt(dot(a, a))
}

fn close(a: [f32; 3], b: [f32; 3], eps: f32) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= eps)
}

/// Every triangle of the face winds counter-clockwise about the Newell
/// normal of its loop, which is the returned normal, or has no area at
/// all; returns the summed triangle areas (times two).
fn check_ccw(positions: &[P]) -> f64 {
    let (t, tris) = run(positions);
    let newell = newell_of(positions, &loop_of(positions));
    let n = scale(newell, 1.0 / len(newell));
    assert!(close(t.normal, narrow3(n), 1e-5), "{t:?} vs {n:?}");
    let mut area = 0.0;
    for &tri in &tris {
        let c = tri_cross(positions, tri);
        assert!(
            dot(c, n) > 0.0 || c == [0.0; 3],
            "{positions:?}: {tri:?} winds {c:?} against {n:?}"
        );
        area += len(c);
    }
    area
}

/// Whether 2D point `p` lies inside polygon `poly` (even-odd rule).
fn inside(poly: &[[f64; 2]], p: [f64; 2]) -> bool {
    let mut inside = false;
    for (i, a) in poly.iter().enumerate() {
        let b = poly[(i + 1) % poly.len()];
        if (a[1] > p[1]) != (b[1] > p[1]) {
            let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if p[0] < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// Whether the closed 2D loop has two non-adjacent edges that cross.
fn loop_crosses(poly: &[[f64; 2]]) -> bool {
    let o = |a: [f64; 2], b: [f64; 2], c: [f64; 2]| orient(a, b, c);
    let m = poly.len();
    for i in 0..m {
        for j in i + 2..m {
            if i == 0 && j == m - 1 {
                continue;
            }
            let (a, b, c, d) = (poly[i], poly[(i + 1) % m], poly[j], poly[(j + 1) % m]);
            if o(a, b, c) * o(a, b, d) < 0.0 && o(c, d, a) * o(c, d, b) < 0.0 {
                return true;
            }
        }
    }
    false
}

fn xy(points: &[[f64; 2]]) -> Vec<P> {
    points
        .iter()
        .map(|p| [p[0] as f32, p[1] as f32, 0.0])
        .collect()
}

/// Blockbench's default mesh cube (`new Mesh({})`): its vertices and
/// faces as its constructor adds them.
fn default_cube() -> [[P; 4]; 6] {
    let v: [P; 8] = [
        [2., 4., 2.],
        [2., 4., -2.],
        [2., 0., 2.],
        [2., 0., -2.],
        [-2., 4., 2.],
        [-2., 4., -2.],
        [-2., 0., 2.],
        [-2., 0., -2.],
    ];
    [
        [v[0], v[2], v[1], v[3]], // east
        [v[4], v[5], v[6], v[7]], // west
        [v[0], v[1], v[4], v[5]], // up
        [v[2], v[6], v[3], v[7]], // down
        [v[0], v[4], v[2], v[6]], // south
        [v[1], v[3], v[5], v[7]], // north
    ]
}

/// `triangle_count` is what `triangulate` counts, on faces of every size
/// and shape: random, collinear, repeated and crossing points.
#[test]
fn triangle_count_is_what_triangulate_counts() {
    let mut rng = crate::test_rng::XorShift(0x5851_F42D_4C95_7F2Du64);
    let mut next = |m: u64| rng.below(m);
    let mut dropped = 0;
    for round in 0..20_000 {
        let k = (next(20)) as usize;
        let positions: Vec<P> = (0..k)
            .map(|_| match round % 4 {
                // On one line: no area.
                0 => {
                    let t = next(9) as f32;
                    [t, 2.0 * t, 0.0]
                }
                // A small grid: repeats and collinear runs.
                1 => [next(3) as f32, next(3) as f32, 0.0],
                _ => [next(100) as f32, next(100) as f32, next(3) as f32],
            })
            .collect();
        let count = triangle_count(&positions);
        let mut out = [[0u8; 3]; MAX_FACE_TRIANGLES];
        match triangulate(&positions, &mut out) {
            Ok(t) => {
                assert_eq!(count, Ok(t.count), "{positions:?}");
                dropped += usize::from(t.count == 0 && k >= 3);
            }
            Err(e) => assert_eq!(count, Err(e)),
        }
    }
    assert!(dropped > 100, "degenerate faces were tried ({dropped})");
    let many = [[0.0f32; 3]; MAX_FACE_VERTICES + 1];
    assert!(triangle_count(&many).is_err());
}

#[test]
fn convention_7_quad_stored_out_of_order_becomes_a_simple_loop() {
    // The default cube's east face is stored as a bow tie.
    let east = default_cube()[0];
    let order = quad_order(&east);
    assert_eq!(order, [2, 0, 1, 3]);
    let (t, tris) = run(&east);
    assert_eq!((t.count, t.split), (2, Split::Diagonal02));
    assert_eq!(tris, [[2, 0, 1], [2, 1, 3]]);
    assert_eq!(t.normal, [1.0, 0.0, 0.0]);
    assert_eq!(check_ccw(&east), 2.0 * 16.0);

    // Both bow ties of a square become the square; a simple loop stays.
    let [a, b, c, d]: [P; 4] = [[0., 0., 0.], [1., 0., 0.], [1., 1., 0.], [0., 1., 0.]];
    assert_eq!(quad_order(&[a, b, c, d]), [0, 1, 2, 3]);
    assert_eq!(quad_order(&[a, c, b, d]), [0, 2, 1, 3]);
    assert_eq!(quad_order(&[a, b, d, c]), [2, 0, 1, 3]);
    for quad in [[a, b, c, d], [a, c, b, d], [a, b, d, c]] {
        let order = quad_order(&quad);
        let flat: Vec<[f64; 2]> = order
            .iter()
            .map(|&i| [f64::from(quad[i][0]), f64::from(quad[i][1])])
            .collect();
        assert!(!loop_crosses(&flat), "{quad:?}");
        assert_eq!(check_ccw(&quad), 2.0);
        assert_eq!(run(&quad).0.normal, [0.0, 0.0, 1.0]);
    }
}

#[test]
fn convention_7_default_cube_faces_face_outward() {
    let outward: [P; 6] = [
        [1., 0., 0.],
        [-1., 0., 0.],
        [0., 1., 0.],
        [0., -1., 0.],
        [0., 0., 1.],
        [0., 0., -1.],
    ];
    for (face, normal) in default_cube().iter().zip(outward) {
        let (t, _) = run(face);
        assert_eq!(t.normal, normal, "{face:?}");
        assert_eq!(blockbench_face_normal(face), normal, "{face:?}");
        assert_eq!(check_ccw(face), 2.0 * 16.0);
    }
}

#[test]
fn convention_7_across_the_line_is_decided_in_3d() {
    // A quad bent out of its plane: vertex 3 is across the line 0–1 from
    // vertex 2 only within the plane through the line perpendicular to
    // the direction from vertex 2 to it, whatever its height.
    for lift in [0.0f32, 5.0, -5.0] {
        let quad: [P; 4] = [[0., 0., 0.], [1., 1., 0.], [1., 0., 0.], [0., 1., lift]];
        assert_eq!(quad_order(&quad), [0, 2, 1, 3], "lift {lift}");
    }
    // Degenerate lines are never crossed (NaN in Blockbench).
    let p: P = [1., 2., 3.];
    assert_eq!(quad_order(&[p, p, p, p]), [0, 1, 2, 3]);
    // Vertex 3 on the line counts as not across.
    let on_line: [P; 4] = [[0., 0., 0.], [1., 0., 0.], [1., 1., 0.], [1., 2., 0.]];
    assert_eq!(quad_order(&on_line), [0, 1, 2, 3]);
}

#[test]
fn convention_7_concave_quad_splits_along_1_3() {
    // A dart, concave at vertex 3; Blockbench keeps its stored order.
    let dart: [P; 4] = [[2., -2., 0.], [0., 2., 0.], [-2., -2., 0.], [0., 0., 0.]];
    assert_eq!(quad_order(&dart), [0, 1, 2, 3]);
    let (t, tris) = run(&dart);
    assert_eq!((t.count, t.split), (2, Split::Diagonal13));
    assert_eq!(tris, [[1, 2, 3], [1, 3, 0]]);
    assert_eq!(t.normal, [0.0, 0.0, 1.0]);
    assert_eq!(check_ccw(&dart), 2.0 * 4.0);
    // The 1–3 diagonal's midpoint is inside the dart, the 0–2 one's not.
    let flat = [[2., -2.], [0., 2.], [-2., -2.], [0., 0.]];
    assert!(inside(&flat, [0.0, 1.0]));
    assert!(!inside(&flat, [0.0, -2.0 + 1e-9]));
    // A convex quad keeps the 0–2 split.
    let square: [P; 4] = [[0., 0., 0.], [1., 0., 0.], [1., 1., 0.], [0., 1., 0.]];
    assert_eq!(run(&square).0.split, Split::Diagonal02);
}

#[test]
fn pentagon_is_ear_clipped_counter_clockwise() {
    // A regular pentagon counter-clockwise about +Y: +90° about Y takes
    // +X to −Z, so the angle runs from +X towards −Z.
    let pentagon: Vec<P> = (0..5)
        .map(|i| {
            let a = 2.0 * PI * f64::from(i) / 5.0;
            [libm::cos(a) as f32, 0.0, -libm::sin(a) as f32]
        })
        .collect();
    let (t, tris) = run(&pentagon);
    assert_eq!((t.count, t.split), (3, Split::EarClipped));
    assert!(close(t.normal, [0.0, 1.0, 0.0], 1e-6), "{t:?}");
    for &tri in &tris {
        assert!(tri_cross(&pentagon, tri)[1] > 0.0, "{tri:?}");
    }
    // A convex polygon comes out as the fan from vertex 0.
    assert_eq!(tris, [[0, 1, 2], [0, 2, 3], [0, 3, 4]]);
    let area = 2.5 * libm::sin(2.0 * PI / 5.0);
    assert!((check_ccw(&pentagon) / 2.0 - area).abs() < 1e-6);
}

#[test]
fn concave_hexagon_ear_clipping_stays_inside() {
    // Notched from above at vertex 4: a fan from vertex 0 would run
    // outside (its triangle (0, 3, 4) is clockwise).
    let hexagon = [[0., 1.], [2., 0.], [4., 1.], [4., 3.], [2., 1.5], [0., 3.]];
    assert!(orient(hexagon[0], hexagon[3], hexagon[4]) < 0.0);
    let shoelace = |poly: &[[f64; 2]]| {
        (0..poly.len())
            .map(|i| {
                let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
                a[0] * b[1] - a[1] * b[0]
            })
            .sum::<f64>()
    };
    let area = shoelace(&hexagon);
    for reverse in [false, true] {
        for rotation in 0..6 {
            let mut poly = hexagon.to_vec();
            poly.rotate_left(rotation);
            if reverse {
                poly.reverse();
            }
            let positions = xy(&poly);
            let (t, tris) = run(&positions);
            assert_eq!((t.count, t.split), (4, Split::EarClipped));
            let z = if reverse { -1.0 } else { 1.0 };
            assert_eq!(t.normal, [0.0, 0.0, z]);
            for tri in tris {
                let [a, b, c] = tri.map(|i| poly[usize::from(i)]);
                let centroid = [(a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0];
                assert!(inside(&poly, centroid), "{poly:?}: {tri:?} outside");
            }
            assert!((check_ccw(&positions) - area).abs() < 1e-9);
        }
    }
}

#[test]
fn self_crossing_polygon_falls_back_to_a_fan() {
    // A pentagram: every second vertex of a regular pentagon.
    let star: Vec<[f64; 2]> = (0..5)
        .map(|i| {
            let a = PI / 2.0 + 4.0 * PI * f64::from(i) / 5.0;
            [libm::cos(a), libm::sin(a)]
        })
        .collect();
    let positions = xy(&star);
    let (t, tris) = run(&positions);
    assert_eq!((t.count, t.split), (3, Split::Fan));
    assert!(tris.iter().all(|tri| tri[0] == 0));
    assert!(close(t.normal, [0.0, 0.0, 1.0], 1e-6));
    check_ccw(&positions);

    // A bow tie with unequal lobes and extra vertices: the clockwise
    // triangles of the fan are turned to the face normal.
    let bow = [[0., 0.], [3., 3.], [3., 1.5], [3., 0.], [0., 2.], [0., 1.]];
    let positions = xy(&bow);
    let (t, tris) = run(&positions);
    assert_eq!((t.count, t.split), (4, Split::Fan));
    assert_eq!(tris[0], [0, 1, 2]);
    check_ccw(&positions);
}

#[test]
fn faces_under_3_vertices_or_without_area_are_dropped() {
    let p: P = [1.0, 2.0, 3.0];
    let collinear: [P; 3] = [[0., 0., 0.], [1., 1., 1.], [3., 3., 3.]];
    let flat_quad: [P; 4] = [[0., 0., 0.], [1., 0., 0.], [2., 0., 0.], [3., 0., 0.]];
    let five_on_a_line: Vec<P> = (0..5).map(|i| [i as f32, 2.0 * i as f32, 0.5]).collect();
    let faces: [&[P]; 7] = [
        &[],
        &[p],
        &[p, p],
        &[p, p, p],
        &collinear,
        &flat_quad,
        &five_on_a_line,
    ];
    for face in faces {
        let mut out = [[9u8; 3]; MAX_FACE_TRIANGLES];
        let t = triangulate(face, &mut out).expect("small face");
        assert!(t.is_dropped(), "{face:?}");
        assert_eq!((t.count, t.normal), (0, [0.0; 3]));
        assert_eq!(out, [[9u8; 3]; MAX_FACE_TRIANGLES]);
    }
    // Blockbench's getNormal gives zero there too.
    assert_eq!(blockbench_face_normal(&[p, p]), [0.0; 3]);
    assert_eq!(blockbench_face_normal(&collinear), [0.0; 3]);
    // Non-finite positions are dropped, never a panic.
    let nan: [P; 5] = [
        [f32::NAN, 0., 0.],
        [1., 0., 0.],
        [1., 1., 0.],
        [0., 1., 0.],
        [0., 2., 0.],
    ];
    assert!(run(&nan).0.is_dropped());
    // More than MAX_FACE_VERTICES vertices is refused, and `out` left alone.
    let k = MAX_FACE_VERTICES + 1;
    let many: Vec<P> = (0..k).map(|i| [i as f32, (i * i) as f32, 0.0]).collect();
    let mut out = [[9u8; 3]; MAX_FACE_TRIANGLES];
    assert_eq!(
        triangulate(&many, &mut out),
        Err(MeshError::TooManyVertices { count: k })
    );
    assert_eq!(out, [[9u8; 3]; MAX_FACE_TRIANGLES]);
}

#[test]
fn convention_11_smooth_normal_is_unweighted_average() {
    // Key 0 is shared by a big face facing +Y and a tiny one facing +X.
    let keys: [P; 5] = [
        [0., 0., 0.],
        [0., 0., 100.],
        [100., 0., 0.],
        [0., 0.1, 0.],
        [0., 0., 0.1],
    ];
    let big = [0u32, 1, 2];
    let tiny = [0u32, 3, 4];
    let face = |k: &[u32]| -> Vec<P> { k.iter().map(|&i| keys[i as usize]).collect() };
    assert_eq!(blockbench_face_normal(&face(&big)), [0.0, 1.0, 0.0]);
    assert_eq!(blockbench_face_normal(&face(&tiny)), [1.0, 0.0, 0.0]);

    let mut acc = [[0.0f32; 3]; 6]; // key 5 is listed by no face
    for k in [&big[..], &tiny[..]] {
        accumulate_face_normal(&mut acc, k, blockbench_face_normal(&face(k))).unwrap();
    }
    let mut smooth = acc;
    finish_smooth_normals(&mut smooth, &mesh_transform([0.0; 3], [0.0; 3]));
    let h = core::f32::consts::FRAC_1_SQRT_2;
    assert!(close(smooth[0], [h, h, 0.0], 1e-7), "{:?}", smooth[0]);
    assert_eq!(smooth[1], [0.0, 1.0, 0.0]);
    assert_eq!(smooth[3], [1.0, 0.0, 0.0]);
    assert_eq!(smooth[5], [0.0; 3]);

    // Two faces facing +Y and one facing +X: (2Y + X) / |2Y + X|.
    let mut acc2 = acc;
    accumulate_face_normal(&mut acc2, &[0], [0.0, 1.0, 0.0]).unwrap();
    finish_smooth_normals(&mut acc2, &mesh_transform([0.0; 3], [0.0; 3]));
    let r5 = 5.0f32.sqrt();
    assert!(close(acc2[0], [1.0 / r5, 2.0 / r5, 0.0], 1e-7));

    // Normalised, then turned with the mesh: +90° about Y takes +X to −Z.
    let mut turned = acc;
    finish_smooth_normals(&mut turned, &mesh_transform([5.0; 3], [0.0, 90.0, 0.0]));
    assert!(close(turned[0], [0.0, h, -h], 1e-7), "{:?}", turned[0]);

    // A quad's normal is taken in Blockbench's order: the default cube's
    // east face, stored as a bow tie, gives +X.
    assert_eq!(blockbench_face_normal(&default_cube()[0]), [1.0, 0.0, 0.0]);

    // A key past the table is refused and nothing is added.
    let before = acc;
    assert_eq!(
        accumulate_face_normal(&mut acc, &[0, 6], [0.0, 1.0, 0.0]),
        Err(MeshError::KeyOutOfRange { key: 6 })
    );
    assert_eq!(acc, before);
}

#[test]
fn convention_6_vertex_lands_at_origin_plus_rotated_v() {
    let origin = [1.0, 2.0, 3.0];
    // +90° about Y takes +X to −Z, exactly.
    let t = mesh_transform(origin, [0.0, 90.0, 0.0]);
    assert_eq!(t.turn([1.0, 0.0, 0.0]), [0.0, 0.0, -1.0]);
    assert_eq!(t.place([1.0, 0.0, 0.0]), [1.0, 2.0, 2.0]);
    assert_eq!(
        t.rotation_rows(),
        [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]]
    );
    // +90° about Z takes +X to +Y; about X, +Y to +Z.
    assert_eq!(
        mesh_transform(origin, [0.0, 0.0, 90.0]).turn([1.0, 0.0, 0.0]),
        [0.0, 1.0, 0.0]
    );
    assert_eq!(
        mesh_transform(origin, [90.0, 0.0, 0.0]).turn([0.0, 1.0, 0.0]),
        [0.0, 0.0, 1.0]
    );
    // X is applied first: +Y → +Z (X), then +Z → +X (Y).
    let xy_turn = mesh_transform(origin, [90.0, 90.0, 0.0]);
    assert_eq!(xy_turn.place([0.0, 1.0, 0.0]), [2.0, 2.0, 3.0]);
    // Any angles: R = Rz · Ry · Rx, the three turns one after another.
    let (ax, ay, az) = (33.0, -71.5, 142.25);
    let v = [0.3, -1.7, 2.9];
    let stepwise = mesh_transform([0.0; 3], [0.0, 0.0, az]).turn(
        mesh_transform([0.0; 3], [0.0, ay, 0.0])
            .turn(mesh_transform([0.0; 3], [ax, 0.0, 0.0]).turn(v)),
    );
    let all = mesh_transform(origin, [ax, ay, az]);
    assert!(close(all.turn(v), stepwise, 1e-5));
    let placed = all.place(v);
    let expected = [
        origin[0] + stepwise[0],
        origin[1] + stepwise[1],
        origin[2] + stepwise[2],
    ];
    assert!(close(placed, expected, 1e-5));
    // Whole turns and their negatives are exact.
    for deg in [0.0f32, 360.0, -360.0, 720.0, -180.0, 180.0, 270.0, -90.0] {
        let (s, c) = sin_cos_deg(f64::from(deg));
        assert!(s == 0.0 || s.abs() == 1.0, "{deg}: {s}");
        assert!(c == 0.0 || c.abs() == 1.0, "{deg}: {c}");
    }
    let (s, c) = sin_cos_deg(30.0);
    assert!((s - 0.5).abs() < 1e-15 && (c - libm::sqrt(0.75)).abs() < 1e-15);
    assert_eq!(sin_cos_deg(-90.0), (-1.0, 0.0));
    assert_eq!(sin_cos_deg(180.0).1, -1.0);
}

#[test]
fn plane_primitive_faces_plus_y() {
    // Blockbench's plane primitive (diameter 16): vertices
    // a = (r, 0, r), b = (r, 0, −r), c = (−r, 0, r), d = (−r, 0, −r) and the
    // face [a, b, d, c].
    let r = 8.0;
    let (a, b, c, d): (P, P, P, P) = ([r, 0., r], [r, 0., -r], [-r, 0., r], [-r, 0., -r]);
    let plane = [a, b, d, c];
    assert_eq!(quad_order(&plane), [0, 1, 2, 3]);
    // The normal is (v1 − v0) × (v2 − v0).
    let n = cross(sub(w(b), w(a)), sub(w(d), w(a)));
    assert!(n[1] > 0.0 && n[0] == 0.0 && n[2] == 0.0);
    assert_eq!(blockbench_face_normal(&plane), [0.0, 1.0, 0.0]);
    let (t, tris) = run(&plane);
    assert_eq!(
        (t.count, t.split, t.normal),
        (2, Split::Diagonal02, [0.0, 1.0, 0.0])
    );
    assert_eq!(tris, [[0, 1, 2], [0, 2, 3]]);
    for tri in tris {
        assert!(tri_cross(&plane, tri)[1] > 0.0);
    }
}

#[test]
fn every_triangle_winds_ccw_about_the_newell_normal() {
    let faces: Vec<Vec<P>> = std::vec![
        std::vec![[0., 0., 0.], [0., 0., 1.], [1., 0., 0.]],
        std::vec![[0., 0., 0.], [1., 0., 0.], [1., 1., 0.], [0., 1., 0.]],
        std::vec![[0., 0., 0.], [1., 1., 0.], [1., 0., 0.], [0., 1., 0.]],
        // Non-planar quads.
        std::vec![[0., 0., 0.], [4., 0., 1.], [4., 4., 0.], [0., 4., 1.]],
        std::vec![[0., 0., 0.], [4., 0., 3.], [4., 4., -2.], [0., 4., 1.]],
        // Concave quads, in every rotation Blockbench may reorder.
        std::vec![[2., -2., 0.], [0., 2., 0.], [-2., -2., 0.], [0., 0., 0.]],
        std::vec![[0., 0., 0.], [2., -2., 0.], [0., 2., 0.], [-2., -2., 0.]],
        std::vec![[-2., -2., 0.], [0., 0., 0.], [2., -2., 0.], [0., 2., 0.]],
        std::vec![[0., 2., 0.], [-2., -2., 0.], [0., 0., 0.], [2., -2., 0.]],
        // A tilted hexagon and a tilted non-planar heptagon.
        std::vec![
            [0., 1., 0.],
            [2., 0., 1.],
            [4., 1., 2.],
            [4., 3., 2.],
            [2., 1.5, 1.],
            [0., 3., 0.]
        ],
        std::vec![
            [0., 0., 0.],
            [3., 0., 0.1],
            [3., 2., -0.1],
            [2., 2., 0.2],
            [2., 1., 0.],
            [1., 1., 0.1],
            [1., 2., 0.]
        ],
    ];
    for face in &faces {
        let (t, _) = run(face);
        assert_eq!(t.count, face.len() - 2, "{face:?}");
        check_ccw(face);
    }
    // The default cube, and the 16-vertex circle.
    for face in default_cube() {
        check_ccw(&face);
    }
    let circle: Vec<P> = (0..16)
        .map(|i| {
            let a = 2.0 * PI * f64::from(i) / 16.0;
            [libm::cos(a) as f32 * 8.0, 3.0, libm::sin(a) as f32 * 8.0]
        })
        .collect();
    assert_eq!(run(&circle).0.count, 14);
    check_ccw(&circle);
}

/// xorshift64*: a fixed-seed generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in [lo, hi).
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }
}

#[test]
fn random_planar_polygons_give_k_minus_2_ccw_triangles_covering_their_area() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut seen = [0usize; 6]; // by split
    for case in 0..20_000 {
        let k = 3 + (rng.next() % 14) as usize;
        // A star-shaped polygon around the origin: angles rising by steps
        // of at most twice the smallest, so every gap is under half a turn
        // and the loop is simple.
        let convex = rng.next().is_multiple_of(4);
        let steps: Vec<f64> = (0..k).map(|_| rng.range(0.5, 1.0)).collect();
        let total: f64 = steps.iter().sum();
        let mut angle = rng.range(0.0, 2.0 * PI);
        let mut flat: Vec<[f64; 2]> = Vec::new();
        for step in &steps {
            let radius = if convex { 1.0 } else { rng.range(0.15, 1.0) };
            flat.push([radius * libm::cos(angle), radius * libm::sin(angle)]);
            angle += 2.0 * PI * step / total;
        }
        if rng.next().is_multiple_of(2) {
            flat.reverse();
        }
        // Into a random plane: an orthonormal basis around a random
        // normal, a scale and an offset, as Blockbench sizes go.
        let normal = loop {
            let n = [
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            ];
            if let Some(n) = unit(n).filter(|_| len(n) > 0.1) {
                break n;
            }
        };
        let u = unit(cross(normal, [0.3, 0.5, 0.7])).unwrap();
        let v = cross(normal, u);
        let size = rng.range(1.0, 16.0);
        let offset = [
            rng.range(-8.0, 8.0),
            rng.range(-8.0, 8.0),
            rng.range(-8.0, 8.0),
        ];
        let positions: Vec<P> = flat
            .iter()
            .map(|q| {
                narrow3(add(
                    offset,
                    add(scale(u, size * q[0]), scale(v, size * q[1])),
                ))
            })
            .collect();

        let (t, tris) = run(&positions);
        assert_eq!(t.count, k - 2, "case {case}: {positions:?}");
        seen[match t.split {
            Split::Dropped => 0,
            Split::Triangle => 1,
            Split::Diagonal02 => 2,
            Split::Diagonal13 => 3,
            Split::EarClipped => 4,
            Split::Fan => 5,
        }] += 1;
        // Every vertex is used; no triangle repeats a vertex.
        let mut used = [false; MAX_FACE_VERTICES];
        for tri in &tris {
            assert!(tri[0] != tri[1] && tri[1] != tri[2] && tri[0] != tri[2]);
            for i in tri {
                used[usize::from(*i)] = true;
            }
        }
        assert!(used.iter().take(k).all(|&u| u), "case {case}: {tris:?}");

        // The loop triangulated: Blockbench's order for a quad.
        let loop_ = loop_of(&positions);
        let reordered: Vec<[f64; 2]> = loop_.iter().map(|&i| flat[i]).collect();
        let newell = newell_of(&positions, &loop_);
        let n = scale(newell, 1.0 / len(newell));
        assert!(close(t.normal, narrow3(n), 1e-5), "case {case}");
        let mut signed = 0.0;
        let mut unsigned = 0.0;
        for &tri in &tris {
            let c = tri_cross(&positions, tri);
            let along = dot(c, n);
            assert!(
                along > 0.0,
                "case {case}: {positions:?} {tri:?} against the normal"
            );
            signed += along;
            unsigned += len(c);
        }
        if !loop_crosses(&reordered) {
            // The triangles tile the polygon: their areas sum to its area.
            assert!(
                (unsigned - len(newell)).abs() <= 1e-9 * len(newell),
                "case {case}"
            );
            assert!(
                (signed - len(newell)).abs() <= 1e-9 * len(newell),
                "case {case}"
            );
            let shoelace: f64 = (0..k)
                .map(|i| {
                    let (a, b) = (reordered[i], reordered[(i + 1) % k]);
                    a[0] * b[1] - a[1] * b[0]
                })
                .sum();
            let area = shoelace.abs() * size * size;
            assert!(
                (unsigned - area).abs() <= 1e-4 * area,
                "case {case}: {unsigned} vs {area}"
            );
        } else {
            assert_eq!(t.split, Split::Fan, "case {case}");
        }
    }
    // Every path was taken.
    assert!(
        seen[1] > 0 && seen[2] > 0 && seen[3] > 0 && seen[4] > 0,
        "{seen:?}"
    );
    std::println!("splits: {seen:?}");
}

#[test]
fn random_polygons_of_any_shape_wind_ccw_or_are_dropped() {
    // Random loops on a small integer grid (crossing, touching, repeating
    // and collinear vertices, as hand-made Blockbench meshes have) and in
    // a box, some lifted out of their plane: never a panic, k − 2
    // triangles or none, every one counter-clockwise about the face
    // normal or without area.
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut seen = [0usize; 6];
    for case in 0..20_000 {
        let k = 3 + (rng.next() % 14) as usize;
        let grid = rng.next().is_multiple_of(2);
        let lift = if rng.next().is_multiple_of(3) {
            0.3
        } else {
            0.0
        };
        let positions: Vec<P> = (0..k)
            .map(|_| {
                if grid {
                    let mut c = || (rng.next() % 4) as f32;
                    [c(), c(), 0.0]
                } else {
                    let x = rng.range(-4.0, 4.0);
                    let y = rng.range(-4.0, 4.0);
                    let z = rng.range(-lift, lift + 1e-300);
                    narrow3([x + 0.5 * y, z - y, 2.0 * x])
                }
            })
            .collect();
        let (t, tris) = run(&positions);
        seen[match t.split {
            Split::Dropped => 0,
            Split::Triangle => 1,
            Split::Diagonal02 => 2,
            Split::Diagonal13 => 3,
            Split::EarClipped => 4,
            Split::Fan => 5,
        }] += 1;
        if t.is_dropped() {
            assert_eq!(t.count, 0);
            continue;
        }
        assert_eq!(t.count, k - 2, "case {case}");
        let n = widen(t.normal);
        assert!((len(n) - 1.0).abs() < 1e-6);
        for &tri in &tris {
            let c = tri_cross(&positions, tri);
            assert!(
                dot(c, n) >= -1e-9,
                "case {case}: {positions:?} {t:?} {tri:?} against the normal"
            );
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    std::println!("splits: {seen:?}");
}
