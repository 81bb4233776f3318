//! Face and smooth vertex normals as Blockbench computes them (convention
//! 11): Newell's normal per face, averaged over the faces that list a vertex.

use super::*;
use crate::bbmodel::elements::mesh::triangulate::quad_loop;

/// `MeshFace.getNormal(true)` (convention 11): the unit
/// (s1 − s0) × (s2 − s0) of the face's Blockbench vertex order `s` (the stored
/// order for a triangle, [`quad_order`] for a quad), or zero where that has
/// no length, as Blockbench's `dir / length || 0` gives.
///
/// `positions` are in stored order. Fewer than 3 vertices give zero, as in
/// Blockbench. For 5 or more vertices, faces Blockbench does not draw
/// (convention 8), it is the unit Newell normal of the stored loop, the normal
/// [`triangulate`] gives them.
#[must_use]
pub fn blockbench_face_normal(positions: &[[f32; 3]]) -> [f32; 3] {
    let corners = match positions {
        [a, b, c] => [*a, *b, *c],
        [a, b, c, d] => {
            let quad = [*a, *b, *c, *d];
            let [s0, s1, s2, _] =
                quad_loop(&quad).map(|i| quad.get(usize::from(i)).copied().unwrap_or_default());
            [s0, s1, s2]
        }
        _ if positions.len() < 3 => return [0.0; 3],
        _ => {
            let mut sum = [0.0f64; 3];
            let first = positions.first().copied().map(widen).unwrap_or_default();
            for (a, b) in positions.iter().zip(positions.iter().cycle().skip(1)) {
                sum = add(sum, cross(sub(widen(*a), first), sub(widen(*b), first)));
            }
            return narrow3(unit(sum).unwrap_or_default());
        }
    };
    let [s0, s1, s2] = corners.map(widen);
    narrow3(unit(cross(sub(s1, s0), sub(s2, s0))).unwrap_or_default())
}

/// Adds one face's unit normal ([`blockbench_face_normal`]) to the running
/// sum of every vertex key it lists (convention 11: "per vertex key, the
/// average of MeshFace.getNormal(true) over faces with more than 2 vertices
/// that list the key; no area or angle weighting").
///
/// `acc` is the caller's table, one entry per vertex key of the mesh, zeroed
/// before the first face; `keys` are the face's vertex key indices into it.
/// Call it for every face of 3 or more vertices, dropped ones included (their
/// zero normal adds nothing, as in Blockbench), then
/// [`finish_smooth_normals`]. Dividing by the face count is left out: the
/// average is normalised, so only its direction counts.
///
/// # Errors
///
/// [`MeshError::KeyOutOfRange`] when a key is past the end of `acc`; `acc` is
/// then unchanged.
pub fn accumulate_face_normal(
    acc: &mut [[f32; 3]],
    keys: &[u32],
    normal: [f32; 3],
) -> Result<(), MeshError> {
    let len = acc.len();
    if let Some(&key) = keys
        .iter()
        .find(|&&key| usize::try_from(key).map_or(true, |i| i >= len))
    {
        return Err(MeshError::KeyOutOfRange { key });
    }
    for &key in keys {
        if let Some(sum) = usize::try_from(key).ok().and_then(|i| acc.get_mut(i)) {
            for (s, n) in sum.iter_mut().zip(normal) {
                *s += n;
            }
        }
    }
    Ok(())
}

/// Turns the sums of [`accumulate_face_normal`] into smooth vertex normals in
/// place: each is normalised, "then turned with the mesh" (convention 11), so
/// it is a unit vector in the space [`MeshTransform::place`] puts positions
/// in.
///
/// An entry whose sum has no length (no face lists the key, or the faces that
/// do cancel out) becomes zero; the caller gives such a vertex its face's flat
/// normal, `transform.turn(triangulation.normal)`.
pub fn finish_smooth_normals(acc: &mut [[f32; 3]], transform: &MeshTransform) {
    for entry in acc.iter_mut() {
        *entry = match unit(widen(*entry)) {
            Some(n) => narrow3(transform.turn_wide(n)),
            None => [0.0; 3],
        };
    }
}
