//! The scene's textures and materials for a .bbmodel: one texture record
//! per entry of `textures` (with its frame strip), one material per
//! texture by its render mode, and the layer composite's material after
//! them (Conversion: the render-mode table and "Layer composite").
#![allow(
    clippy::arithmetic_side_effects,
    reason = "frame-order lengths are bounded by MAX_FRAME_ORDER_LENGTH and by the token count of an order of at most maxStringChars; divisors are checked non-zero above"
)]

use crate::bbmodel::textures::entries::{RenderMode, TextureMeta};
use crate::bbmodel::textures::frames::write_custom_steps;
use crate::bbmodel::textures::shown::TextureRules;
use crate::error::Error;
use crate::scene::{
    AlphaMode, Blending, FrameOrder, MaterialFlags, MaterialRecord, SourceFormat, TextRef,
    TextureFlags, TextureRecord, Wrap,
};

/// The composite material's name (Conversion: `name: "layered"`).
pub const COMPOSITE_NAME: &str = "layered";

/// A texture material's alpha cutoff (convention 10: Blockbench discards
/// texels with alpha below 0.01 in every mode).
const TEXEL_CUTOFF: f32 = 0.01;

/// The layer composite's cutoff (convention 15: composite alpha below 0.05
/// is discarded).
const COMPOSITE_CUTOFF: f32 = 0.05;

/// A texture's material by its render mode (Conversion's table):
/// default, layered and unknown modes blend at 0.01; emissive masks at 0.01
/// with alpha as emission; additive blends additively.
pub fn texture_material(name: TextRef, index: i32, mode: RenderMode) -> MaterialRecord {
    let mut material = MaterialRecord {
        name,
        texture: index,
        alpha_mode: AlphaMode::Blend as u8,
        alpha_cutoff: TEXEL_CUTOFF,
        layers: [-1; 3],
        base_color: [1.0; 4],
        ..MaterialRecord::default()
    };
    match mode {
        RenderMode::Default | RenderMode::Layered => {}
        RenderMode::Emissive => {
            material.alpha_mode = AlphaMode::Mask as u8;
            material.flags |= MaterialFlags::ALPHA_EMISSION;
        }
        RenderMode::Additive => material.blending = Blending::Additive as u8,
    }
    material
}

/// The layer composite's material: blend at 0.05, its layers bottom first,
/// the bottom layer as its texture.
pub fn composite_material(name: TextRef, layers: [i32; 3], count: u8) -> MaterialRecord {
    MaterialRecord {
        name,
        texture: layers[0],
        alpha_mode: AlphaMode::Blend as u8,
        alpha_cutoff: COMPOSITE_CUTOFF,
        layer_count: count,
        layers,
        base_color: [1.0; 4],
        ..MaterialRecord::default()
    }
}

/// The scene's record of texture `meta` (named `name`), its frame strip
/// starting at custom step `first_step`; pixels are added by the decoder.
pub fn texture_record(meta: &TextureMeta<'_>, name: TextRef, first_step: usize) -> TextureRecord {
    let [width, height] = meta.png.map_or([0, 0], |h| [h.width, h.height]);
    // Convention 16: only repeat repeats; limited and clamp draw clamped.
    let wrap = if meta.repeat {
        Wrap::Repeat
    } else {
        Wrap::Clamp
    } as u8;
    let strip = meta.strip;
    TextureRecord {
        name,
        width,
        height,
        flags: if meta.missing {
            TextureFlags::MISSING
        } else {
            0
        },
        source_format: SourceFormat::PNG,
        wrap_u: wrap,
        wrap_v: wrap,
        uv_width: meta.uv_size[0],
        uv_height: meta.uv_size[1],
        frame_count: strip.count,
        frame_time: strip.time,
        frame_order: strip.order as u8,
        frame_interpolate: u8::from(strip.interpolate && strip.count > 1),
        first_frame_step: if strip.order == FrameOrder::Custom {
            u32::try_from(first_step).unwrap_or(0)
        } else {
            0
        },
        frame_step_count: strip.steps,
        ..TextureRecord::default()
    }
}

/// Writes texture `index` (named `name`), its custom frame steps from
/// `*step` on (advanced past them) and its material.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub fn write_texture(
    index: usize,
    meta: &TextureMeta<'_>,
    name: TextRef,
    step: &mut usize,
    textures: &mut [TextureRecord],
    materials: &mut [MaterialRecord],
    frame_steps: &mut [u32],
    mismatch: fn() -> Error,
) -> Result<(), Error> {
    let material = i32::try_from(index).map_err(|_| mismatch())?;
    *textures.get_mut(index).ok_or_else(mismatch)? = texture_record(meta, name, *step);
    *materials.get_mut(index).ok_or_else(mismatch)? =
        texture_material(name, material, meta.render_mode);
    if meta.strip.order == FrameOrder::Custom
        && let Some(order) = meta.frame_fields.frame_order
    {
        let end = *step + meta.strip.steps as usize;
        let out = frame_steps.get_mut(*step..end).ok_or_else(mismatch)?;
        write_custom_steps(&order, meta.strip.count, out);
        *step = end;
    }
    Ok(())
}

/// Writes the composite's material (named `name`) after the `count`
/// texture materials, when the file has one.
pub fn write_composite(
    rules: &TextureRules,
    count: usize,
    materials: &mut [MaterialRecord],
    name: TextRef,
    mismatch: fn() -> Error,
) -> Result<(), Error> {
    if let Some((layers, layer_count)) = rules.composite() {
        *materials.get_mut(count).ok_or_else(mismatch)? =
            composite_material(name, layers, layer_count);
    }
    Ok(())
}
