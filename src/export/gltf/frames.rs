//! Frame strips (Blockbench animated textures) in glTF: the image is frame
//! 0 alone and the UVs are written undivided, so a viewer's own CLAMP or
//! REPEAT acts on frame 0.
//!
//! The scene keeps the whole strip and divides V by the frame count, so that
//! frame 0 spans V `0..1/n` of the strip (scene-format.md, Vertex data). Bound
//! as it is, the strip would let glTF's sampler clamp or repeat over all of
//! it, and a face whose UVs pass frame 0's edge would show frames 1, 2, …;
//! the loader specification says otherwise (Supported, "Texture wrap",
//! MS-52): "On a frame strip a face clamps or repeats within frame 0, never
//! into another frame." glTF has no sub-image wrap, so the exporter writes
//! frame 0 as the image and multiplies V back by `n`.
//!
//! **Which rows frame 0 is.** Blockbench's `Texture.frameCount` getter
//! (js/texturing/textures.js) may give a strip `H` rows tall `n` frames
//! that do not divide it (the spec's `ceil(… − 0.05)` rule), so a frame is
//! `H / n` rows, maybe fractional (`Texture.display_height`). Its cube and
//! mesh `updateUV` (js/outliner/types/cube.js, mesh.js) put frame 0 at V
//! `0..1/n` of the whole image, drawn nearest: frame 0 is the strip from
//! its top down to `H / n` texels, rows `0 ..= ceil(H/n) − 1`, the last one
//! only for its top `H/n − floor(H/n)` when that is not 0. The image
//! written keeps exactly that: with `g = gcd(H, n)`, it is `H / g` rows,
//! row `r` copying strip row `floor(r · g / n)`, so each strip row appears
//! `n / g` times and the partial one in proportion. A whole frame
//! (`g = n`) is a plain crop of `H / n` rows. Nearest sampling at any V of
//! the written image then reads the strip row Blockbench reads at `V / n`,
//! and glTF's repeat period (one image) is exactly one frame, fractional
//! or not. (Blockbench's `image` format GIF export cuts frames with
//! `getImageData` at whole rows instead, `floor(H/n)` of them; the faces
//! are what this export draws, so it follows `updateUV`.)

use std::string::{String, ToString};
use std::vec::Vec;

use serde_json::{Map, Value};

use crate::scene::{FrameOrder, Scene};

use super::pixels::Pixels;

/// The texture whose frame count divided the V of the faces that show
/// `pixels`: the texture itself, or for a layer composite its top layer
/// (the composite's faces are sized by Blockbench's default texture, which
/// in the formats that composite is the last visible texture, the top
/// layer; conventions 15).
pub fn divisor(pixels: Pixels) -> Option<usize> {
    match pixels {
        Pixels::Texture(t) => Some(t),
        Pixels::Layers(layers, count) => layers.get(count.checked_sub(1)?).copied(),
        // J3D textures are no strips.
        Pixels::Baked(..) => None,
    }
}

/// The frame count faces showing `pixels` had their V divided by: 1 for a
/// still image.
pub fn frames(scene: &Scene<'_>, pixels: Pixels) -> u32 {
    divisor(pixels)
        .and_then(|t| scene.textures().get(t))
        .map_or(1, |t| t.frame_count.max(1))
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Rows of frame 0's image for a strip `height` rows tall of `frames`
/// frames: `height / gcd(height, frames)`, which stands for exactly
/// `height / frames` strip rows (module docs). A still image keeps its
/// height.
pub fn frame_0_rows(height: u32, frames: u32) -> u32 {
    // gcd is 0 only for an empty image, which stays empty.
    height
        .checked_div(gcd(height, frames.max(1)))
        .unwrap_or(height)
}

/// The strip row that row `row` of frame 0's image copies:
/// `floor(row · g / frames)`, `g = gcd(height, frames)`.
pub fn frame_0_source_row(row: u32, height: u32, frames: u32) -> u32 {
    let frames = frames.max(1);
    let g = u64::from(gcd(height, frames));
    u32::try_from(u64::from(row) * g / u64::from(frames)).unwrap_or(u32::MAX)
}

/// Frame 0 of a `width` × `height` RGBA8 strip of `frames` frames: its
/// height in rows and its pixels (module docs: which rows, and why). A
/// still image (`frames` ≤ 1) comes back whole. None when `rgba` is
/// shorter than the size says.
pub fn frame_0(width: u32, height: u32, frames: u32, rgba: &[u8]) -> Option<(u32, Vec<u8>)> {
    let rows = frame_0_rows(height, frames);
    let row_bytes = (width as usize).checked_mul(4)?;
    let mut out = Vec::with_capacity(row_bytes.checked_mul(rows as usize)?);
    for r in 0..rows {
        let source = frame_0_source_row(r, height, frames) as usize;
        let start = source.checked_mul(row_bytes)?;
        out.extend_from_slice(rgba.get(start..start.checked_add(row_bytes)?)?);
    }
    Some((rows, out))
}

fn order_name(order: u8) -> &'static str {
    match order {
        o if o == FrameOrder::Backwards as u8 => "backwards",
        o if o == FrameOrder::BackAndForth as u8 => "back_and_forth",
        o if o == FrameOrder::Custom as u8 => "custom",
        _ => "loop",
    }
}

/// The `extras.frame_strip` object of a glTF texture whose image is frame 0
/// of scene texture `texture`: everything the scene records about the
/// strip, so a consumer that plays frames knows what it lost (the other
/// frames are not in the file). None for a still image.
pub fn strip_extras(scene: &Scene<'_>, texture: usize) -> Option<Value> {
    let t = scene.textures().get(texture)?;
    if t.frame_count <= 1 {
        return None;
    }
    let mut fields = Map::new();
    let mut put = |k: &str, v: Value| {
        fields.insert(String::from(k), v);
    };
    put("frame_count", Value::from(t.frame_count));
    // The f32's shortest decimal (1/7 s reads 0.14285715, not its f64 digits).
    let seconds = t
        .frame_time
        .to_string()
        .parse::<f64>()
        .unwrap_or(f64::from(t.frame_time));
    put("frame_time", Value::from(seconds));
    put("frame_order", Value::from(order_name(t.frame_order)));
    if t.frame_order == FrameOrder::Custom as u8 {
        let first = t.first_frame_step as usize;
        let steps = scene
            .frame_steps()
            .get(first..first.checked_add(t.frame_step_count as usize)?)
            .unwrap_or_default();
        put("frame_steps", Value::from(steps.to_vec()));
    }
    put("frame_interpolate", Value::Bool(t.frame_interpolate != 0));
    put("strip_height", Value::from(t.height));
    put(
        "frame_height",
        Value::from(f64::from(t.height) / f64::from(t.frame_count)),
    );
    Some(Value::Object(fields))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strip one texel wide whose row `y` holds the value `y` in red.
    fn numbered_rows(height: u32) -> Vec<u8> {
        (0..height)
            .flat_map(|y| [u8::try_from(y).unwrap(), 0, 0, 255])
            .collect()
    }

    fn reds(rgba: &[u8]) -> Vec<u8> {
        rgba.chunks_exact(4).map(|p| p[0]).collect()
    }

    /// Blockbench's cube `updateUV` puts frame 0 at V 0..1/n of the strip,
    /// drawn nearest: the strip row shown at a V of frame 0's image is
    /// `floor(V / n · H)`. Every row of the image, at its centre, must be
    /// that row.
    fn assert_rows_are_what_blockbench_draws(height: u32, frames: u32) {
        let (rows, rgba) = frame_0(1, height, frames, &numbered_rows(height)).unwrap();
        assert_eq!(rgba.len(), rows as usize * 4);
        for (r, red) in reds(&rgba).into_iter().enumerate() {
            let v = (r as f64 + 0.5) / f64::from(rows);
            let strip_row = (v / f64::from(frames) * f64::from(height)).floor();
            assert_eq!(f64::from(red), strip_row, "H {height}, n {frames}, row {r}");
        }
    }

    #[test]
    fn a_whole_frame_is_the_top_h_over_n_rows() {
        // "frame 0 spans v in [0, 1/n] of the whole image" (Conversion).
        let (rows, rgba) = frame_0(1, 64, 4, &numbered_rows(64)).unwrap();
        assert_eq!(rows, 16);
        assert_eq!(reds(&rgba), (0..16).collect::<Vec<u8>>());
        assert_rows_are_what_blockbench_draws(64, 4);
    }

    #[test]
    fn a_fractional_frame_keeps_its_partial_last_row_in_proportion() {
        // Texture.frameCount: 16 × 50 over a 16 × 16 UV space is
        // ceil(3.125 − 0.05) = 4 frames of 12.5 rows: rows 0..=12, row 12
        // for half a row. Written as 25 rows, each strip row twice, row 12
        // once.
        let (rows, rgba) = frame_0(1, 50, 4, &numbered_rows(50)).unwrap();
        assert_eq!(rows, 25);
        let mut expected: Vec<u8> = (0..12).flat_map(|y| [y, y]).collect();
        expected.push(12);
        assert_eq!(reds(&rgba), expected);
        for (h, n) in [(50, 4), (49, 4), (10, 3), (7, 7), (100, 7), (250, 4)] {
            assert_rows_are_what_blockbench_draws(h, n);
        }
    }

    #[test]
    fn a_still_image_is_written_whole() {
        let (rows, rgba) = frame_0(1, 5, 1, &numbered_rows(5)).unwrap();
        assert_eq!((rows, reds(&rgba)), (5, std::vec![0, 1, 2, 3, 4]));
        assert!(frame_0(2, 5, 1, &numbered_rows(5)).is_none());
    }

    #[test]
    fn a_layer_composite_is_divided_by_its_top_layer() {
        assert_eq!(divisor(Pixels::Layers([4, 2, 7], 2)), Some(2));
        assert_eq!(divisor(Pixels::Layers([4, 2, 7], 0)), None);
        assert_eq!(divisor(Pixels::Texture(3)), Some(3));
    }
}
