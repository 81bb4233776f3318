//! Box UV: a cube's box-UV size (floored as Blockbench floors it) and the
//! layout of its six faces on the texture (convention 5).
#![allow(
    clippy::arithmetic_side_effects,
    reason = "counters of items the input spells out, each item at least one byte and adding at most 6 per item, so totals stay far below usize::MAX; each subtraction follows the comparison that bounds it"
)]

/// What Blockbench adds to a box-UV size before flooring it
/// (`Cube.size(axis, 'box_uv')`), so that `2.9999999999999996` counts as 3.
pub const BOX_UV_EPSILON: f64 = 1e-7;

/// The box-UV size `(w, h, d)` of a cube: `to − from` of the plain cube
/// (signed, so negative on a reversed axis; inflate and stretch ignored),
/// floored as `floor(to − from + 1e-7)` unless `float_size` (the format's
/// `box_uv_float_size`) keeps fractions (Blockbench `Cube.size(_, 'box_uv')`).
pub fn box_uv_size(from: [f64; 3], to: [f64; 3], float_size: bool) -> [f64; 3] {
    let size = |from: f64, to: f64| {
        if float_size {
            to - from
        } else {
            libm::floor(to - from + BOX_UV_EPSILON)
        }
    };
    [
        size(from[0], to[0]),
        size(from[1], to[1]),
        size(from[2], to[2]),
    ]
}

/// Blockbench's box-UV layout (convention 5), per [`FaceName::index`](super::FaceName::index), each
/// `[u1, v1, u2, v2]` in texels, for the box-UV `size` `(w, h, d)`:
///
/// | face | rectangle |
/// | --- | --- |
/// | east | `(0, d)`, d × h |
/// | north | `(d, d)`, w × h |
/// | west | `(d + w, d)`, d × h |
/// | south | `(2d + w, d)`, w × h |
/// | up | `[d + w, d, d, 0]` (turned 180°) |
/// | down | `[d + 2w, 0, d + w, d]` (mirrored horizontally) |
///
/// all shifted by `uv_offset`. `mirror` flips every face horizontally and
/// swaps east and west (Blockbench `updateUV`; computed in its order, so the
/// floats match).
pub fn box_uv_layout(size: [f64; 3], uv_offset: [f64; 2], mirror: bool) -> [[f64; 4]; 6] {
    let [w, h, d] = size;
    // Blockbench's (start, size) pairs.
    let mut north = ([d, d], [w, h]);
    let mut east = ([0.0, d], [d, h]);
    let mut south = ([d * 2.0 + w, d], [w, h]);
    let mut west = ([d + w, d], [d, h]);
    let mut up = ([d + w, d], [-w, -d]);
    let mut down = ([d + w * 2.0, 0.0], [-w, d]);
    if mirror {
        for (start, extent) in [
            &mut north, &mut east, &mut south, &mut west, &mut up, &mut down,
        ] {
            start[0] += extent[0];
            extent[0] = -extent[0];
        }
        core::mem::swap(&mut east, &mut west);
    }
    let rect = |(start, extent): ([f64; 2], [f64; 2])| {
        [
            start[0] + uv_offset[0],
            start[1] + uv_offset[1],
            start[0] + extent[0] + uv_offset[0],
            start[1] + extent[1] + uv_offset[1],
        ]
    };
    [
        rect(north),
        rect(east),
        rect(south),
        rect(west),
        rect(up),
        rect(down),
    ]
}
