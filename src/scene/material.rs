//! Materials: how a group of triangles is shaded and blended.

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

use super::TextRef;

/// How texel alpha is used (glTF's alphaMode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum AlphaMode {
    /// Alpha ignored.
    Opaque = 0,
    /// Texels with alpha below `alpha_cutoff` are discarded, the rest drawn opaque.
    Mask = 1,
    /// Texels below `alpha_cutoff` discarded, the rest blended by alpha.
    Blend = 2,
}

/// How a drawn texel combines with what is behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Blending {
    /// `src · a + dst · (1 − a)`.
    Normal = 0,
    /// `src · a + dst` (Blockbench additive render mode; GX blend with ONE destination).
    Additive = 1,
}

/// Which faces are culled (J3D cull mode; Blockbench sidedness lives on groups).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum CullMode {
    /// Nothing culled: double-sided.
    None = 0,
    /// Back faces culled (the usual case).
    Back = 1,
    /// Front faces culled.
    Front = 2,
    /// Everything culled.
    All = 3,
}

/// A material, as stored in the arena.
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct MaterialRecord {
    /// The material's name.
    pub name: TextRef,
    /// Base colour texture (J3D slot 0), or −1.
    pub texture: i32,
    /// [`MaterialFlags`] bits.
    pub flags: u32,
    /// [`AlphaMode`] as its `u8` value.
    pub alpha_mode: u8,
    /// [`Blending`] as its `u8` value.
    pub blending: u8,
    /// [`CullMode`] as its `u8` value.
    pub cull: u8,
    /// Entries of `layers` in use (0..=3).
    pub layer_count: u8,
    /// Alpha below which texels are discarded (0..=1).
    pub alpha_cutoff: f32,
    /// Textures composited bottom first (Blockbench layered render mode).
    pub layers: [i32; 3],
    /// Base colour multiplier, linear 0..=1 RGBA (J3D: the constant colour
    /// MAT3's TEV stages and colour channel 0 fold to; white otherwise).
    pub base_color: [f32; 4],
    /// TEV stages of the source material (J3D; 0 for other formats), kept
    /// so a consumer can say what [`MaterialFlags::TEV_UNFOLDED`] dropped.
    pub tev_stages: u8,
    /// The UV set `texture` samples (J3D: the texture coordinate generator
    /// of slot 0's TEV order, source TEX0..TEX7; 0 otherwise).
    pub uv_set: u8,
    /// With [`MaterialFlags::GENERATED_UVS`]: the generator's GX source
    /// (`GX_TG_POS` 0, `GX_TG_NRM` 1, …, `GX_TG_COLOR0` 19), which no UV set holds.
    pub texgen_source: u8,
    /// Zero; keeps the record free of padding.
    pub reserved: u8,
}

/// Bits of [`MaterialRecord::flags`].
pub struct MaterialFlags;

impl MaterialFlags {
    /// Multiply by vertex colour set 0.
    pub const VERTEX_COLORS: u32 = 1;
    /// Texel alpha is an inverted emission mask (Blockbench emissive render mode).
    pub const ALPHA_EMISSION: u32 = 2;
    /// The shading does not sample `texture` (J3D TEV stages that read
    /// konst or rasterised colour alone), so it is not shown.
    pub const TEXTURE_UNUSED: u32 = 4;
    /// The J3D TEV stages are none of the patterns that fold into base
    /// colour × texture × vertex colours; those show material colour 0 ×
    /// slot 0's texture (× vertex colours where channel 0 says so).
    pub const TEV_UNFOLDED: u32 = 8;
    /// Slot 0's texture coordinates are generated from something other
    /// than a UV set (J3D positions, normals, colours; `texgen_source`).
    pub const GENERATED_UVS: u32 = 16;
    /// With `VERTEX_COLORS`: colour set 0 multiplies colour, not alpha (J3D
    /// colour channel 0 from the vertices, alpha channel 0 from the register).
    pub const VERTEX_ALPHA_UNUSED: u32 = 32;
    /// J3D TEV stages add environment-mapped textures (coordinates from
    /// normals) to the folded colour; those terms are left out, the rest
    /// folds (docs/j3d.md, "Folding TEV stages").
    pub const ENVIRONMENT_LEFT_OUT: u32 = 64;
}

impl MaterialRecord {
    /// The alpha mode; unknown stored values read as blend.
    pub fn alpha_mode(&self) -> AlphaMode {
        match self.alpha_mode {
            0 => AlphaMode::Opaque,
            1 => AlphaMode::Mask,
            _ => AlphaMode::Blend,
        }
    }

    /// The blending.
    pub fn blending(&self) -> Blending {
        match self.blending {
            1 => Blending::Additive,
            _ => Blending::Normal,
        }
    }

    /// The cull mode.
    pub fn cull(&self) -> CullMode {
        match self.cull {
            0 => CullMode::None,
            2 => CullMode::Front,
            3 => CullMode::All,
            _ => CullMode::Back,
        }
    }

    /// The layer textures in use, bottom first.
    pub fn layers(&self) -> &[i32] {
        self.layers
            .get(..usize::from(self.layer_count))
            .unwrap_or(&self.layers)
    }
}

/// An sRGB-encoded channel (0..=1) in linear light, the space of
/// [`MaterialRecord::base_color`] (and of glTF colours).
pub fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.040_45 {
        c / 12.92
    } else {
        libm::powf((c + 0.055) / 1.055, 2.4)
    }
}
