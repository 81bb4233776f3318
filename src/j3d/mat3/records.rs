//! The GX state records MAT3's pools hold, typed over their bytes as they
//! lie (big-endian, `zerocopy`), and the few values decoded from them.

use zerocopy::big_endian::{F32, I16, U16};
use zerocopy::{FromBytes, Immutable, KnownLayout};

/// GX cull mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GxCullMode {
    /// GX_CULL_NONE: both sides drawn.
    None,
    /// GX_CULL_FRONT.
    Front,
    /// GX_CULL_BACK.
    Back,
    /// GX_CULL_ALL.
    All,
}

/// A colour channel control (8 bytes), as `GXSetChanCtrl` takes it.
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct ColorChannel {
    /// 1 when lighting is enabled.
    pub lighting: u8,
    /// Material colour source: 0 the material colour register, 1 vertex colour.
    pub material_source: u8,
    /// Lights used (bit n = light n).
    pub light_mask: u8,
    /// Diffuse function (GX_DF_NONE/SIGN/CLAMP).
    pub diffuse_function: u8,
    /// Attenuation function code.
    pub attenuation_function: u8,
    /// Ambient colour source: 0 register, 1 vertex colour.
    pub ambient_source: u8,
    /// Padding.
    pub pad: [u8; 2],
}

impl ColorChannel {
    /// GX_SRC_VTX: the channel takes its material colour from vertex colours.
    pub const SOURCE_VERTEX: u8 = 1;

    /// True when the material colour comes from the vertices.
    pub const fn uses_vertex_color(&self) -> bool {
        self.material_source == Self::SOURCE_VERTEX
    }
}

/// A light (0x34 bytes), laid out as JSystem's `J3DLightInfo`.
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct Light {
    /// Position, in view space.
    pub position: [F32; 3],
    /// Direction, in view space.
    pub direction: [F32; 3],
    /// Colour, RGBA8.
    pub color: [u8; 4],
    /// Angle attenuation coefficients A0..A2.
    pub cos_attenuation: [F32; 3],
    /// Distance attenuation coefficients K0..K2.
    pub distance_attenuation: [F32; 3],
}

/// A texture coordinate generator (4 bytes), as `GXSetTexCoordGen` takes it.
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct TexGen {
    /// Generation type (GX_TG_MTX3x4, GX_TG_MTX2x4, …).
    pub kind: u8,
    /// Source (GX_TG_POS, GX_TG_TEX0, …).
    pub source: u8,
    /// Matrix (GX_TEXMTX0 … or GX_IDENTITY = 60).
    pub matrix: u8,
    /// Padding (0xFF).
    pub pad: u8,
}

/// A texture matrix (0x64 bytes): SRT parameters and an effect matrix.
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct TexMatrix {
    /// Projection (0 ST, 1 STQ).
    pub projection: u8,
    /// Bits 0..5: mapping mode; bit 7: Maya-style SRT.
    pub info: u8,
    /// Padding (0xFFFF).
    pub pad: U16,
    /// Centre S, T, Q, in texture space.
    pub center: [F32; 3],
    /// Scale S, T.
    pub scale: [F32; 2],
    /// Rotation, s16 units of π / 0x7FFF radians.
    pub rotation: I16,
    /// Padding (0xFFFF).
    pub pad2: U16,
    /// Translation S, T, in texture space.
    pub translation: [F32; 2],
    /// Effect matrix, 4x4 row-major.
    pub effect: [F32; 16],
}

/// A TEV order (4 bytes): which coordinates, texture and colour channel a stage reads.
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct TevOrder {
    /// Texture coordinate (GX_TEXCOORD0…, 0xFF none).
    pub tex_coord: u8,
    /// Texture map (GX_TEXMAP0…, 0xFF none).
    pub tex_map: u8,
    /// Rasterised colour channel (GX_COLOR0A0…, 0xFF none).
    pub channel: u8,
    /// Padding (0xFF).
    pub pad: u8,
}

/// A TEV stage (0x14 bytes): colour and alpha combiner inputs and operations.
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct TevStage {
    /// Not used by GX (stage id in some tools).
    pub unknown: u8,
    /// Colour inputs A, B, C, D (GX_CC_*).
    pub color_in: [u8; 4],
    /// Colour operation (GX_TEV_ADD, …).
    pub color_op: u8,
    /// Colour bias.
    pub color_bias: u8,
    /// Colour scale.
    pub color_scale: u8,
    /// 1 when the colour result is clamped.
    pub color_clamp: u8,
    /// Colour output register.
    pub color_register: u8,
    /// Alpha inputs A, B, C, D (GX_CA_*).
    pub alpha_in: [u8; 4],
    /// Alpha operation.
    pub alpha_op: u8,
    /// Alpha bias.
    pub alpha_bias: u8,
    /// Alpha scale.
    pub alpha_scale: u8,
    /// 1 when the alpha result is clamped.
    pub alpha_clamp: u8,
    /// Alpha output register.
    pub alpha_register: u8,
    /// Not used by GX.
    pub unknown2: u8,
}

/// A TEV swap mode (4 bytes): the swap tables for rasterised and texture colour.
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct SwapMode {
    /// Swap table slot (0..3) for rasterised colour.
    pub ras_table: u8,
    /// Swap table slot (0..3) for texture colour.
    pub tex_table: u8,
    /// Padding.
    pub pad: U16,
}

/// A TEV swap table (4 bytes): the source channel (0 R … 3 A) of R, G, B, A.
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct SwapTable {
    /// Source channel of R, G, B and A.
    pub channels: [u8; 4],
}

/// Fog (0x2C bytes), as `GXSetFog` and `GXSetFogRangeAdj` take it.
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct Fog {
    /// Fog type (GX_FOG_NONE = 0, …).
    pub kind: u8,
    /// 1 when range adjustment is on.
    pub adjust: u8,
    /// Range adjustment centre, in screen pixels.
    pub adjust_center: U16,
    /// Start depth, in view-space units.
    pub start_z: F32,
    /// End depth.
    pub end_z: F32,
    /// Near plane.
    pub near_z: F32,
    /// Far plane.
    pub far_z: F32,
    /// Fog colour, RGBA8.
    pub color: [u8; 4],
    /// Range adjustment table.
    pub adjust_table: [U16; 10],
}

/// Alpha compare (8 bytes): `(a cmp0 ref0) op (a cmp1 ref1)` decides whether a
/// pixel is kept, as `GXSetAlphaCompare` takes it.
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct AlphaCompare {
    /// First comparison (GX_NEVER 0 … GX_ALWAYS 7).
    pub compare0: u8,
    /// First reference alpha, 0..=255.
    pub reference0: u8,
    /// How the two combine: 0 AND, 1 OR, 2 XOR, 3 XNOR.
    pub op: u8,
    /// Second comparison.
    pub compare1: u8,
    /// Second reference alpha.
    pub reference1: u8,
    /// Padding.
    pub pad: [u8; 3],
}

/// Which 8-bit alpha values an [`AlphaCompare`] keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlphaTest {
    /// Every alpha passes: nothing is discarded.
    KeepsAll,
    /// Alphas `>= t` pass and the others are discarded (`t` in 1..=255).
    KeepsFrom(u8),
    /// Any other set (e.g. LESS, EQUAL, a band, or nothing at all).
    Other,
}

impl AlphaCompare {
    /// Whether a pixel of `alpha` passes, as GX evaluates it (comparison
    /// codes are 3 bits and the operation 2 bits in the hardware register).
    pub fn passes(&self, alpha: u8) -> bool {
        let compare = |code: u8, reference: u8| match code & 7 {
            0 => false,
            1 => alpha < reference,
            2 => alpha == reference,
            3 => alpha <= reference,
            4 => alpha > reference,
            5 => alpha != reference,
            6 => alpha >= reference,
            _ => true,
        };
        let (a, b) = (
            compare(self.compare0, self.reference0),
            compare(self.compare1, self.reference1),
        );
        match self.op & 3 {
            0 => a && b,
            1 => a || b,
            2 => a != b,
            _ => a == b,
        }
    }

    /// Classifies the alphas that pass, trying all 256.
    pub fn test(&self) -> AlphaTest {
        let Some(first) = (0..=255u8).find(|&a| self.passes(a)) else {
            return AlphaTest::Other;
        };
        let from_first = (0..=255u8).all(|a| self.passes(a) == (a >= first));
        match (first, from_first) {
            (0, true) => AlphaTest::KeepsAll,
            (t, true) => AlphaTest::KeepsFrom(t),
            _ => AlphaTest::Other,
        }
    }
}

/// A blend mode (4 bytes), as `GXSetBlendMode` takes it.
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct BlendMode {
    /// 0 none, 1 blend, 2 logic op, 3 subtract.
    pub mode: u8,
    /// Source factor (GX_BL_ZERO 0, ONE 1, …, SRCALPHA 4, INVSRCALPHA 5, …).
    pub source: u8,
    /// Destination factor.
    pub destination: u8,
    /// Logic operation (mode 2).
    pub logic_op: u8,
}

impl BlendMode {
    /// GX_BM_BLEND.
    pub const BLEND: u8 = 1;
    /// GX_BL_ONE.
    pub const ONE: u8 = 1;
    /// GX_BL_SRCALPHA.
    pub const SRC_ALPHA: u8 = 4;
    /// GX_BL_INVSRCALPHA.
    pub const INV_SRC_ALPHA: u8 = 5;

    /// `src · a + dst · (1 − a)`: ordinary alpha blending.
    pub const fn is_alpha_blend(&self) -> bool {
        self.mode == Self::BLEND
            && self.source == Self::SRC_ALPHA
            && self.destination == Self::INV_SRC_ALPHA
    }

    /// Blending that adds to what is behind (destination factor ONE).
    pub const fn is_additive(&self) -> bool {
        self.mode == Self::BLEND && self.destination == Self::ONE
    }
}

/// A depth mode (4 bytes), as `GXSetZMode` takes it.
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct ZMode {
    /// 1 when depth testing is on.
    pub test: u8,
    /// Comparison (GX_NEVER … GX_ALWAYS).
    pub function: u8,
    /// 1 when depth is written.
    pub write: u8,
    /// Padding.
    pub pad: u8,
}

/// An NBT scale (0x10 bytes).
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct NbtScale {
    /// 1 when enabled.
    pub enabled: u8,
    /// Padding.
    pub pad: [u8; 3],
    /// Scale per axis.
    pub scale: [F32; 3],
}

/// One indirect texture stage's coordinates and map.
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct IndirectOrder {
    /// Texture coordinate.
    pub tex_coord: u8,
    /// Texture map.
    pub tex_map: u8,
    /// Padding.
    pub pad: U16,
}

/// An indirect matrix: 2x3 values times 2^`scale_exponent`.
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct IndirectMatrix {
    /// Row-major 2x3.
    pub matrix: [F32; 6],
    /// Power-of-two scale.
    pub scale_exponent: i8,
    /// Padding.
    pub pad: [u8; 3],
}

/// An indirect stage's coordinate scale (GX_ITS_1 …).
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct IndirectScale {
    /// Scale on S.
    pub s: u8,
    /// Scale on T.
    pub t: u8,
    /// Padding.
    pub pad: U16,
}

/// A TEV stage's indirect settings (0x0C bytes), as `GXSetTevIndirect` takes them.
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct IndirectTevStage {
    /// Indirect stage.
    pub stage: u8,
    /// Offset format.
    pub format: u8,
    /// Bias selection.
    pub bias: u8,
    /// Matrix.
    pub matrix: u8,
    /// Wrap on S.
    pub wrap_s: u8,
    /// Wrap on T.
    pub wrap_t: u8,
    /// 1: add the previous stage's offset.
    pub add_previous: u8,
    /// 1: use the unmodified coordinates' LOD.
    pub use_original_lod: u8,
    /// Bump alpha selection.
    pub alpha: u8,
    /// Padding.
    pub pad: [u8; 3],
}

/// A material's indirect texturing (0x138 bytes).
#[derive(FromBytes, KnownLayout, Immutable, Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct Indirect {
    /// 1 when indirect texturing is on.
    pub enabled: u8,
    /// Indirect stages used (0..=4).
    pub stage_count: u8,
    /// Padding.
    pub pad: U16,
    /// Per indirect stage: coordinates and map.
    pub orders: [IndirectOrder; 4],
    /// Indirect matrices.
    pub matrices: [IndirectMatrix; 3],
    /// Per indirect stage: coordinate scale.
    pub scales: [IndirectScale; 4],
    /// Per TEV stage: indirect settings.
    pub tev_stages: [IndirectTevStage; 16],
}
