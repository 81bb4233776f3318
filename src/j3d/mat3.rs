//! MAT3: materials, read whole.
//!
//! The header holds u16 count @0x08 and 30 u32 offsets (from the section's
//! start) @0x0C..=0x80: the material entries, the remap table (u16 per
//! material: which entry it uses), the name table, the indirect-texturing
//! table, then one *pool* per kind of GX state ([`Pool`]). A material entry
//! ([`ENTRY_SIZE`] bytes) holds, per piece of state, an index into its pool;
//! `0xFF` (u8 indices) and `0xFFFF` (u16 indices) mean unused.
//!
//! Rules scenedec applies (docs/j3d.md, "MAT3"):
//!
//! - A pool runs from its offset to the next larger non-zero offset of the
//!   header, or to the section's end. A pool whose offset is 0 is absent:
//!   any index into it reads as unused. Nintendo files do this for the post
//!   texture matrices (they keep indices 0..n with no pool).
//! - An index whose record lies past the section's end is an error
//!   ([`ErrorCode::BadOffset`], at the index's byte); a pool that starts at
//!   or past the section's end is [`ErrorCode::Truncated`] (at its header
//!   field) as soon as an index needs it. One whose record lies
//!   past its pool's end but inside the section is read from the bytes that
//!   are there, as GX tools read it, and reported ([`Mat3::check`]):
//!   `riistudio_sms_testmap_map.bmd` names colour channels 1..3 of a pool
//!   the header cuts after one, its ambient colour offset pointing inside
//!   the channels.
//! - The entry a material uses must lie inside the entry pool, and a texture
//!   slot must name a TEX1 texture; both are errors otherwise.
//! - The material mode (entry byte 0) is kept as stored: 1 (opaque), 2
//!   (alpha-tested), 4 (translucent) and 0 (`smgo_capworldsky_matmode0.bmd`)
//!   all occur.
//! - The indirect table (0x138 bytes per material, by material index) is
//!   absent when its offset is 0 or equals the name table's.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "offsets are u32 fields plus u16-bounded indices times record sizes below 256 (below 2^41, no overflow with a 64-bit usize), each checked by the section reader before any byte is read"
)]

use zerocopy::big_endian::{F32, I16, U16};
use zerocopy::{FromBytes, Immutable, KnownLayout};

use super::read::{NameTable, SectionReader};
use crate::error::{Error, ErrorCode};

/// Bytes of one material entry.
pub const ENTRY_SIZE: usize = 0x14C;
/// Bytes of one material's indirect-texturing record.
pub const INDIRECT_SIZE: usize = 0x138;
/// Bytes of the MAT3 header, up to and including the last offset (0x80).
pub const HEADER_SIZE: usize = 0x84;

/// A u16 index that names nothing.
const NONE16: u16 = 0xFFFF;
/// A u8 index that names nothing.
const NONE8: u8 = 0xFF;

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

/// A kind of GX state kept in a MAT3 pool: which header offset locates it
/// and how many bytes one record takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Pool {
    /// Cull modes, u32 each (header 0x1C).
    CullModes,
    /// Material colours, RGBA8 (0x20).
    MaterialColors,
    /// Colour channel counts, u8 (0x24).
    ChannelCounts,
    /// Colour channel controls, [`ColorChannel`] (0x28).
    Channels,
    /// Ambient colours, RGBA8 (0x2C).
    AmbientColors,
    /// Lights, [`Light`] (0x30).
    Lights,
    /// Texture coordinate generator counts, u8 (0x34).
    TexGenCounts,
    /// Texture coordinate generators, [`TexGen`] (0x38).
    TexGens,
    /// Post-transform texture coordinate generators, [`TexGen`] (0x3C).
    PostTexGens,
    /// Texture matrices, [`TexMatrix`] (0x40).
    TexMatrices,
    /// Post-transform texture matrices, [`TexMatrix`] (0x44).
    PostTexMatrices,
    /// The texture table: u16 TEX1 indices (0x48).
    Textures,
    /// TEV orders, [`TevOrder`] (0x4C).
    TevOrders,
    /// TEV colour registers, four s16 each (0x50).
    TevColors,
    /// TEV konstant colours, RGBA8 (0x54).
    KonstColors,
    /// TEV stage counts, u8 (0x58).
    TevStageCounts,
    /// TEV stages, [`TevStage`] (0x5C).
    TevStages,
    /// TEV swap modes, [`SwapMode`] (0x60).
    SwapModes,
    /// TEV swap tables, [`SwapTable`] (0x64).
    SwapTables,
    /// Fog, [`Fog`] (0x68).
    Fog,
    /// Alpha compare, [`AlphaCompare`] (0x6C).
    AlphaCompare,
    /// Blend modes, [`BlendMode`] (0x70).
    Blend,
    /// Depth modes, [`ZMode`] (0x74).
    ZMode,
    /// Z compare location (before or after texturing), u8 (0x78).
    ZCompLoc,
    /// Dither enable, u8 (0x7C).
    Dither,
    /// NBT scales, [`NbtScale`] (0x80); no entry field indexes it.
    NbtScale,
}

/// Number of [`Pool`]s.
pub const POOL_COUNT: usize = 26;

impl Pool {
    /// Every pool, in header order.
    pub const ALL: [Pool; POOL_COUNT] = [
        Pool::CullModes,
        Pool::MaterialColors,
        Pool::ChannelCounts,
        Pool::Channels,
        Pool::AmbientColors,
        Pool::Lights,
        Pool::TexGenCounts,
        Pool::TexGens,
        Pool::PostTexGens,
        Pool::TexMatrices,
        Pool::PostTexMatrices,
        Pool::Textures,
        Pool::TevOrders,
        Pool::TevColors,
        Pool::KonstColors,
        Pool::TevStageCounts,
        Pool::TevStages,
        Pool::SwapModes,
        Pool::SwapTables,
        Pool::Fog,
        Pool::AlphaCompare,
        Pool::Blend,
        Pool::ZMode,
        Pool::ZCompLoc,
        Pool::Dither,
        Pool::NbtScale,
    ];

    /// Offset of the pool's u32 offset field in the MAT3 header.
    pub const fn header_field(self) -> usize {
        0x1C + 4 * self as usize
    }

    /// Bytes of one record.
    pub const fn record_size(self) -> usize {
        match self {
            Self::CullModes | Self::MaterialColors | Self::AmbientColors | Self::KonstColors => 4,
            Self::ChannelCounts | Self::TexGenCounts | Self::TevStageCounts => 1,
            Self::ZCompLoc | Self::Dither => 1,
            Self::Channels | Self::TevColors => 8,
            Self::Lights => 0x34,
            Self::TexGens | Self::PostTexGens | Self::TevOrders => 4,
            Self::SwapModes | Self::SwapTables | Self::Blend | Self::ZMode => 4,
            Self::TexMatrices | Self::PostTexMatrices => 0x64,
            Self::Textures => 2,
            Self::TevStages => 0x14,
            Self::Fog => 0x2C,
            Self::AlphaCompare => 8,
            Self::NbtScale => 0x10,
        }
    }

    /// A short name for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Self::CullModes => "cull mode",
            Self::MaterialColors => "material colour",
            Self::ChannelCounts => "colour channel count",
            Self::Channels => "colour channel",
            Self::AmbientColors => "ambient colour",
            Self::Lights => "light",
            Self::TexGenCounts => "tex gen count",
            Self::TexGens => "tex gen",
            Self::PostTexGens => "post tex gen",
            Self::TexMatrices => "tex matrix",
            Self::PostTexMatrices => "post tex matrix",
            Self::Textures => "texture table",
            Self::TevOrders => "TEV order",
            Self::TevColors => "TEV colour",
            Self::KonstColors => "konst colour",
            Self::TevStageCounts => "TEV stage count",
            Self::TevStages => "TEV stage",
            Self::SwapModes => "swap mode",
            Self::SwapTables => "swap table",
            Self::Fog => "fog",
            Self::AlphaCompare => "alpha compare",
            Self::Blend => "blend mode",
            Self::ZMode => "z mode",
            Self::ZCompLoc => "z comp loc",
            Self::Dither => "dither",
            Self::NbtScale => "NBT scale",
        }
    }
}

/// An index field of a material entry: where it is, how many slots it has,
/// how wide each is, and which pool it indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// Offset of slot 0 in the entry.
    pub offset: usize,
    /// Slots (e.g. 8 texture slots).
    pub slots: usize,
    /// Bytes per index: 1 (u8, unused = 0xFF) or 2 (u16, unused = 0xFFFF).
    pub width: usize,
    /// The pool indexed.
    pub pool: Pool,
}

const fn field(offset: usize, slots: usize, width: usize, pool: Pool) -> Field {
    Field {
        offset,
        slots,
        width,
        pool,
    }
}

impl Field {
    /// 0x01: cull mode.
    pub const CULL: Field = field(0x01, 1, 1, Pool::CullModes);
    /// 0x02: colour channel count.
    pub const CHANNEL_COUNT: Field = field(0x02, 1, 1, Pool::ChannelCounts);
    /// 0x03: tex gen count.
    pub const TEX_GEN_COUNT: Field = field(0x03, 1, 1, Pool::TexGenCounts);
    /// 0x04: TEV stage count.
    pub const TEV_STAGE_COUNT: Field = field(0x04, 1, 1, Pool::TevStageCounts);
    /// 0x05: z comp loc.
    pub const Z_COMP_LOC: Field = field(0x05, 1, 1, Pool::ZCompLoc);
    /// 0x06: z mode.
    pub const Z_MODE: Field = field(0x06, 1, 1, Pool::ZMode);
    /// 0x07: dither.
    pub const DITHER: Field = field(0x07, 1, 1, Pool::Dither);
    /// 0x08: material colours ×2.
    pub const MATERIAL_COLORS: Field = field(0x08, 2, 2, Pool::MaterialColors);
    /// 0x0C: colour channels ×4 (colour 0, alpha 0, colour 1, alpha 1).
    pub const CHANNELS: Field = field(0x0C, 4, 2, Pool::Channels);
    /// 0x14: ambient colours ×2.
    pub const AMBIENT_COLORS: Field = field(0x14, 2, 2, Pool::AmbientColors);
    /// 0x18: lights ×8.
    pub const LIGHTS: Field = field(0x18, 8, 2, Pool::Lights);
    /// 0x28: tex gens ×8.
    pub const TEX_GENS: Field = field(0x28, 8, 2, Pool::TexGens);
    /// 0x38: post tex gens ×8.
    pub const POST_TEX_GENS: Field = field(0x38, 8, 2, Pool::PostTexGens);
    /// 0x48: tex matrices ×10.
    pub const TEX_MATRICES: Field = field(0x48, 10, 2, Pool::TexMatrices);
    /// 0x5C: post tex matrices ×20.
    pub const POST_TEX_MATRICES: Field = field(0x5C, 20, 2, Pool::PostTexMatrices);
    /// 0x84: texture slots ×8 (indices into the texture table).
    pub const TEXTURES: Field = field(0x84, 8, 2, Pool::Textures);
    /// 0x94: konst colours ×4.
    pub const KONST_COLORS: Field = field(0x94, 4, 2, Pool::KonstColors);
    /// 0xBC: TEV orders ×16.
    pub const TEV_ORDERS: Field = field(0xBC, 16, 2, Pool::TevOrders);
    /// 0xDC: TEV colours ×4.
    pub const TEV_COLORS: Field = field(0xDC, 4, 2, Pool::TevColors);
    /// 0xE4: TEV stages ×16.
    pub const TEV_STAGES: Field = field(0xE4, 16, 2, Pool::TevStages);
    /// 0x104: swap modes ×16.
    pub const SWAP_MODES: Field = field(0x104, 16, 2, Pool::SwapModes);
    /// 0x124: swap tables ×4.
    pub const SWAP_TABLES: Field = field(0x124, 4, 2, Pool::SwapTables);
    /// 0x144: fog.
    pub const FOG: Field = field(0x144, 1, 2, Pool::Fog);
    /// 0x146: alpha compare.
    pub const ALPHA_COMPARE: Field = field(0x146, 1, 2, Pool::AlphaCompare);
    /// 0x148: blend mode.
    pub const BLEND: Field = field(0x148, 1, 2, Pool::Blend);

    /// Every index field of an entry, in entry order.
    pub const ALL: [Field; 25] = [
        Self::CULL,
        Self::CHANNEL_COUNT,
        Self::TEX_GEN_COUNT,
        Self::TEV_STAGE_COUNT,
        Self::Z_COMP_LOC,
        Self::Z_MODE,
        Self::DITHER,
        Self::MATERIAL_COLORS,
        Self::CHANNELS,
        Self::AMBIENT_COLORS,
        Self::LIGHTS,
        Self::TEX_GENS,
        Self::POST_TEX_GENS,
        Self::TEX_MATRICES,
        Self::POST_TEX_MATRICES,
        Self::TEXTURES,
        Self::KONST_COLORS,
        Self::TEV_ORDERS,
        Self::TEV_COLORS,
        Self::TEV_STAGES,
        Self::SWAP_MODES,
        Self::SWAP_TABLES,
        Self::FOG,
        Self::ALPHA_COMPARE,
        Self::BLEND,
    ];
}

/// Entry offset of the 16 konst colour selectors (u8 each, one per TEV stage).
pub const KONST_COLOR_SELECTORS: usize = 0x9C;
/// Entry offset of the 16 konst alpha selectors (u8 each, one per TEV stage).
pub const KONST_ALPHA_SELECTORS: usize = 0xAC;

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

/// A parsed MAT3 header: where the entries, tables and pools lie.
#[derive(Clone, Copy, Debug)]
pub struct Mat3<'a> {
    reader: SectionReader<'a>,
    count: usize,
    entries: usize,
    entries_end: usize,
    remap: usize,
    names: NameTable<'a>,
    indirect: Option<(usize, usize)>,
    /// Start and end of each pool; start 0 = absent.
    pools: [(usize, usize); POOL_COUNT],
}

/// Where some indices reach past their pool's end (inside the section),
/// per pool: the absolute file offset of the first such index field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolOverruns {
    first: [Option<usize>; POOL_COUNT],
}

impl PoolOverruns {
    /// Each pool overrun, with the file offset of its first index field.
    pub fn iter(&self) -> impl Iterator<Item = (Pool, usize)> + '_ {
        Pool::ALL
            .iter()
            .zip(self.first.iter())
            .filter_map(|(&p, at)| Some((p, (*at)?)))
    }

    /// True when no index reaches past its pool.
    pub fn is_empty(&self) -> bool {
        self.first.iter().all(Option::is_none)
    }
}

/// One material: its entry, and typed accessors for every piece of state.
///
/// Each accessor returns `Ok(None)` for an unused index (0xFF / 0xFFFF), an
/// index into an absent pool, or a slot number past the field's slots; and
/// an error when the record lies past the section's end.
#[derive(Clone, Copy, Debug)]
pub struct Material<'a> {
    mat3: Mat3<'a>,
    index: usize,
    entry: usize,
}

impl<'a> Mat3<'a> {
    /// Reads a MAT3 section ([`J3dFile::section`](super::J3dFile::section)):
    /// its header, remap and name tables, and where each pool lies. Indices
    /// are checked on access and, all at once, by [`Mat3::check`].
    pub fn new(section: super::Section<'a>) -> Result<Self, Error> {
        Self::parse(SectionReader::new(section))
    }

    pub(crate) fn parse(reader: SectionReader<'a>) -> Result<Self, Error> {
        reader.slice(0, HEADER_SIZE)?;
        let count = usize::from(reader.u16(0x08)?);
        let mut offsets = [0usize; 30];
        for (i, o) in offsets.iter_mut().enumerate() {
            *o = reader.offset(0x0C + 4 * i)?;
        }
        let len = reader.bytes().len();
        // A pool ends at the next larger non-zero offset, or the section's end.
        let end_of = |start: usize| {
            offsets
                .iter()
                .copied()
                .filter(|&o| o > start)
                .min()
                .unwrap_or(len)
                .min(len)
        };
        let [entries, remap, names_at, indirect, ..] = offsets;
        reader.table(remap, count, 2)?;
        let names = NameTable::new(reader, names_at)?;
        if names.len() < count {
            return Err(reader.error(
                ErrorCode::BadValue,
                0x14,
                format_args!("{count} materials but {} names", names.len()),
            ));
        }
        let mut pools = [(0, 0); POOL_COUNT];
        for (pool, slot) in Pool::ALL.iter().zip(pools.iter_mut()) {
            let start = offsets
                .get((pool.header_field() - 0x0C) / 4)
                .copied()
                .unwrap_or(0);
            *slot = (start, if start == 0 { 0 } else { end_of(start) });
        }
        let indirect =
            (indirect != 0 && indirect != names_at).then(|| (indirect, end_of(indirect)));
        Ok(Self {
            reader,
            count,
            entries,
            entries_end: end_of(entries),
            remap,
            names,
            indirect,
            pools,
        })
    }

    /// Materials in the model.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The start (from the section's start) and end of a pool; `None` when
    /// the header leaves it out (offset 0).
    pub fn pool(&self, pool: Pool) -> Option<(usize, usize)> {
        let (start, end) = self.pools.get(pool as usize).copied()?;
        (start != 0).then_some((start, end))
    }

    /// Material `i` (through the remap table). Its entry must lie inside the
    /// entry pool.
    pub fn material(&self, i: usize) -> Result<Material<'a>, Error> {
        if i >= self.count {
            return Err(self.reader.error(
                ErrorCode::BadOffset,
                0x08,
                format_args!("material {i} asked of {}", self.count),
            ));
        }
        let remap_at = self.remap + 2 * i;
        let slot = usize::from(self.reader.u16(remap_at)?);
        let entry = self.entries.saturating_add(slot * ENTRY_SIZE);
        // A table that starts past the section is cut short; an entry past
        // the table's end (the next table) is a wrong remap index.
        if self.entries >= self.reader.bytes().len() {
            return Err(self.reader.error(
                ErrorCode::Truncated,
                0x0C,
                format_args!(
                    "the material entries at {:#x} start past the end of MAT3 ({:#x})",
                    self.entries,
                    self.reader.bytes().len()
                ),
            ));
        }
        if entry.saturating_add(ENTRY_SIZE) > self.entries_end {
            return Err(self.reader.error(
                ErrorCode::BadOffset,
                remap_at,
                format_args!(
                    "material {i} uses entry {slot}, past the entry table's {} entries",
                    self.entries_end.saturating_sub(self.entries) / ENTRY_SIZE
                ),
            ));
        }
        Ok(Material {
            mat3: *self,
            index: i,
            entry,
        })
    }

    /// Checks every index of every material: each record inside the
    /// section, each texture slot naming one of `textures` TEX1 textures,
    /// each cull mode a GX value, each indirect record inside its table.
    /// Returns where indices reach past their pool's end (allowed, reported).
    pub fn check(&self, textures: usize) -> Result<PoolOverruns, Error> {
        let mut overruns = PoolOverruns::default();
        for i in 0..self.count {
            let m = self.material(i)?;
            for field in Field::ALL {
                for slot in 0..field.slots {
                    let resolved = match m.resolve_in_bounds(field, slot) {
                        Some(resolved) => resolved,
                        None => m.resolve(field, slot)?,
                    };
                    if let Some((_, past)) = resolved
                        && past
                        && let Some(first) = overruns.first.get_mut(field.pool as usize)
                    {
                        first.get_or_insert(self.reader.file_offset(m.field_at(field, slot)));
                    }
                }
            }
            for slot in 0..Field::TEXTURES.slots {
                if let Some(t) = m.texture(slot)?
                    && usize::from(t) >= textures
                {
                    let at = m.resolve(Field::TEXTURES, slot)?.map_or(0, |(at, _)| at);
                    return Err(self.reader.error(
                        ErrorCode::BadOffset,
                        at,
                        format_args!(
                            "material {i} texture slot {slot} names texture {t}, but TEX1 has {textures}"
                        ),
                    ));
                }
            }
            m.cull_mode()?;
            m.indirect()?;
        }
        Ok(overruns)
    }
}

impl<'a> Material<'a> {
    /// Index in MAT3 (name order).
    pub fn index(&self) -> usize {
        self.index
    }

    /// Offset of the entry from the section's start.
    pub fn entry_offset(&self) -> usize {
        self.entry
    }

    /// The entry's bytes ([`ENTRY_SIZE`]).
    pub fn entry(&self) -> &'a [u8] {
        self.mat3
            .reader
            .bytes()
            .get(self.entry..)
            .and_then(|b| b.get(..ENTRY_SIZE))
            .unwrap_or_default()
    }

    /// The name's bytes and absolute file offset.
    pub fn name(&self) -> Result<(&'a [u8], usize), Error> {
        self.mat3.names.get(self.index)
    }

    /// The material mode (entry byte 0) as stored: 1 opaque, 2 alpha-tested,
    /// 4 translucent (J3D draws modes with neither bit 0 nor bit 1 in its
    /// translucent pass).
    pub fn mode(&self) -> u8 {
        self.entry().first().copied().unwrap_or(0)
    }

    fn field_at(&self, field: Field, slot: usize) -> usize {
        self.entry + field.offset + slot * field.width
    }

    /// The record an index names: its offset from the section's start and
    /// whether it lies past its pool's end. `None` when unused, out of the
    /// field's slots, or into an absent pool.
    pub fn resolve(&self, field: Field, slot: usize) -> Result<Option<(usize, bool)>, Error> {
        match self.resolve_in_bounds(field, slot) {
            Some(resolved) => Ok(resolved),
            None => self.resolve_checked(field, slot),
        }
    }

    /// [`Material::resolve`] where it cannot fail, `None` where it may: a
    /// check reads every index of every material, and a `Result` holding
    /// the error's few hundred bytes was written and read back for each.
    #[inline(always)]
    fn resolve_in_bounds(&self, field: Field, slot: usize) -> Option<Option<(usize, bool)>> {
        if slot >= field.slots {
            return Some(None);
        }
        let bytes = self.mat3.reader.bytes();
        let at = self.field_at(field, slot);
        let index = match field.width {
            1 => match *bytes.get(at)? {
                NONE8 => return Some(None),
                v => usize::from(v),
            },
            _ => match u16::from_be_bytes(*bytes.get(at..)?.first_chunk()?) {
                NONE16 => return Some(None),
                v => usize::from(v),
            },
        };
        let Some((start, end)) = self.mat3.pool(field.pool) else {
            return Some(None);
        };
        let size = field.pool.record_size();
        let record = start.checked_add(index.checked_mul(size)?)?;
        let record_end = record.checked_add(size)?;
        (start < bytes.len() && record_end <= bytes.len())
            .then_some(Some((record, record_end > end)))
    }

    /// [`Material::resolve`], every failure an error.
    fn resolve_checked(&self, field: Field, slot: usize) -> Result<Option<(usize, bool)>, Error> {
        if slot >= field.slots {
            return Ok(None);
        }
        let at = self.field_at(field, slot);
        let index = if field.width == 1 {
            let v = self.mat3.reader.u8(at)?;
            if v == NONE8 {
                return Ok(None);
            }
            usize::from(v)
        } else {
            let v = self.mat3.reader.u16(at)?;
            if v == NONE16 {
                return Ok(None);
            }
            usize::from(v)
        };
        let Some((start, end)) = self.mat3.pool(field.pool) else {
            return Ok(None);
        };
        let len = self.mat3.reader.bytes().len();
        if start >= len {
            return Err(self.mat3.reader.error(
                ErrorCode::Truncated,
                field.pool.header_field(),
                format_args!(
                    "the {} table at {start:#x} starts past the end of MAT3 ({len:#x})",
                    field.pool.name()
                ),
            ));
        }
        let size = field.pool.record_size();
        let record = start.saturating_add(index * size);
        if record.saturating_add(size) > self.mat3.reader.bytes().len() {
            return Err(self.mat3.reader.error(
                ErrorCode::BadOffset,
                at,
                format_args!(
                    "material {} {} index {index} names a record at {record:#x}, past the end of MAT3 ({:#x})",
                    self.index,
                    field.pool.name(),
                    self.mat3.reader.bytes().len()
                ),
            ));
        }
        Ok(Some((record, record.saturating_add(size) > end)))
    }

    fn record<T>(&self, field: Field, slot: usize) -> Result<Option<&'a T>, Error>
    where
        T: FromBytes + KnownLayout + Immutable,
    {
        match self.resolve(field, slot)? {
            Some((at, _)) => Ok(Some(self.mat3.reader.record(at)?)),
            None => Ok(None),
        }
    }

    fn byte(&self, field: Field, slot: usize) -> Result<Option<u8>, Error> {
        match self.resolve(field, slot)? {
            Some((at, _)) => Ok(Some(self.mat3.reader.u8(at)?)),
            None => Ok(None),
        }
    }

    fn color(&self, field: Field, slot: usize) -> Result<Option<[u8; 4]>, Error> {
        Ok(self.record::<[u8; 4]>(field, slot)?.copied())
    }

    /// The cull mode.
    pub fn cull_mode(&self) -> Result<Option<GxCullMode>, Error> {
        let Some((at, _)) = self.resolve(Field::CULL, 0)? else {
            return Ok(None);
        };
        Ok(Some(match self.mat3.reader.u32(at)? {
            0 => GxCullMode::None,
            1 => GxCullMode::Front,
            2 => GxCullMode::Back,
            3 => GxCullMode::All,
            other => {
                return Err(self.mat3.reader.error(
                    ErrorCode::BadValue,
                    at,
                    format_args!("cull mode {other}: 0-3 expected"),
                ));
            }
        }))
    }

    /// Material colour register `slot` (0..2), RGBA8.
    pub fn material_color(&self, slot: usize) -> Result<Option<[u8; 4]>, Error> {
        self.color(Field::MATERIAL_COLORS, slot)
    }

    /// Ambient colour register `slot` (0..2), RGBA8.
    pub fn ambient_color(&self, slot: usize) -> Result<Option<[u8; 4]>, Error> {
        self.color(Field::AMBIENT_COLORS, slot)
    }

    /// Colour channels in use (0..=2).
    pub fn channel_count(&self) -> Result<Option<u8>, Error> {
        self.byte(Field::CHANNEL_COUNT, 0)
    }

    /// Colour channel control `slot`: 0 colour 0, 1 alpha 0, 2 colour 1, 3 alpha 1.
    pub fn channel(&self, slot: usize) -> Result<Option<&'a ColorChannel>, Error> {
        self.record(Field::CHANNELS, slot)
    }

    /// Light `slot` (0..8).
    pub fn light(&self, slot: usize) -> Result<Option<&'a Light>, Error> {
        self.record(Field::LIGHTS, slot)
    }

    /// Texture coordinate generators in use.
    pub fn tex_gen_count(&self) -> Result<Option<u8>, Error> {
        self.byte(Field::TEX_GEN_COUNT, 0)
    }

    /// Texture coordinate generator `slot` (0..8).
    pub fn tex_gen(&self, slot: usize) -> Result<Option<&'a TexGen>, Error> {
        self.record(Field::TEX_GENS, slot)
    }

    /// Post-transform texture coordinate generator `slot` (0..8).
    pub fn post_tex_gen(&self, slot: usize) -> Result<Option<&'a TexGen>, Error> {
        self.record(Field::POST_TEX_GENS, slot)
    }

    /// Texture matrix `slot` (0..10).
    pub fn tex_matrix(&self, slot: usize) -> Result<Option<&'a TexMatrix>, Error> {
        self.record(Field::TEX_MATRICES, slot)
    }

    /// Post-transform texture matrix `slot` (0..20).
    pub fn post_tex_matrix(&self, slot: usize) -> Result<Option<&'a TexMatrix>, Error> {
        self.record(Field::POST_TEX_MATRICES, slot)
    }

    /// The TEX1 index of texture slot `slot` (0..8), through the texture table.
    pub fn texture(&self, slot: usize) -> Result<Option<u16>, Error> {
        match self.resolve(Field::TEXTURES, slot)? {
            Some((at, _)) => Ok(Some(self.mat3.reader.u16(at)?)),
            None => Ok(None),
        }
    }

    /// Konst colour `slot` (0..4), RGBA8.
    pub fn konst_color(&self, slot: usize) -> Result<Option<[u8; 4]>, Error> {
        self.color(Field::KONST_COLORS, slot)
    }

    /// The konst colour selector of TEV stage `stage` (0..16; GX_TEV_KCSEL_*).
    pub fn konst_color_selector(&self, stage: usize) -> Option<u8> {
        self.entry()
            .get(KONST_COLOR_SELECTORS..KONST_ALPHA_SELECTORS)?
            .get(stage)
            .copied()
    }

    /// The konst alpha selector of TEV stage `stage` (0..16; GX_TEV_KASEL_*).
    pub fn konst_alpha_selector(&self, stage: usize) -> Option<u8> {
        self.entry()
            .get(KONST_ALPHA_SELECTORS..Field::TEV_ORDERS.offset)?
            .get(stage)
            .copied()
    }

    /// TEV order of stage `stage` (0..16).
    pub fn tev_order(&self, stage: usize) -> Result<Option<&'a TevOrder>, Error> {
        self.record(Field::TEV_ORDERS, stage)
    }

    /// TEV colour register `slot` (0..4): R, G, B, A as s16 (0..255 is the usual range).
    pub fn tev_color(&self, slot: usize) -> Result<Option<[i16; 4]>, Error> {
        Ok(self
            .record::<[I16; 4]>(Field::TEV_COLORS, slot)?
            .map(|c| c.map(|v| v.get())))
    }

    /// TEV stages in use (1..=16).
    pub fn tev_stage_count(&self) -> Result<Option<u8>, Error> {
        self.byte(Field::TEV_STAGE_COUNT, 0)
    }

    /// TEV stage `stage` (0..16).
    pub fn tev_stage(&self, stage: usize) -> Result<Option<&'a TevStage>, Error> {
        self.record(Field::TEV_STAGES, stage)
    }

    /// Swap mode of TEV stage `stage` (0..16).
    pub fn swap_mode(&self, stage: usize) -> Result<Option<&'a SwapMode>, Error> {
        self.record(Field::SWAP_MODES, stage)
    }

    /// Swap table `slot` (0..4).
    pub fn swap_table(&self, slot: usize) -> Result<Option<&'a SwapTable>, Error> {
        self.record(Field::SWAP_TABLES, slot)
    }

    /// Fog.
    pub fn fog(&self) -> Result<Option<&'a Fog>, Error> {
        self.record(Field::FOG, 0)
    }

    /// Alpha compare.
    pub fn alpha_compare(&self) -> Result<Option<&'a AlphaCompare>, Error> {
        self.record(Field::ALPHA_COMPARE, 0)
    }

    /// Blend mode.
    pub fn blend_mode(&self) -> Result<Option<&'a BlendMode>, Error> {
        self.record(Field::BLEND, 0)
    }

    /// Depth mode.
    pub fn z_mode(&self) -> Result<Option<&'a ZMode>, Error> {
        self.record(Field::Z_MODE, 0)
    }

    /// True when the depth test runs before texturing.
    pub fn z_comp_loc(&self) -> Result<Option<bool>, Error> {
        Ok(self.byte(Field::Z_COMP_LOC, 0)?.map(|v| v != 0))
    }

    /// True when dithering is on.
    pub fn dither(&self) -> Result<Option<bool>, Error> {
        Ok(self.byte(Field::DITHER, 0)?.map(|v| v != 0))
    }

    /// The indirect-texturing record (by material index), when the section
    /// has the table.
    pub fn indirect(&self) -> Result<Option<&'a Indirect>, Error> {
        let Some((start, end)) = self.mat3.indirect else {
            return Ok(None);
        };
        let at = start.saturating_add(self.index * INDIRECT_SIZE);
        if at.saturating_add(INDIRECT_SIZE) > end {
            return Err(self.mat3.reader.error(
                ErrorCode::BadOffset,
                0x18,
                format_args!(
                    "material {}'s indirect record at {at:#x} runs past its table's end ({end:#x})",
                    self.index
                ),
            ));
        }
        Ok(Some(self.mat3.reader.record(at)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_types_have_their_pool_sizes() {
        use core::mem::size_of;
        assert_eq!(size_of::<ColorChannel>(), Pool::Channels.record_size());
        assert_eq!(size_of::<Light>(), Pool::Lights.record_size());
        assert_eq!(size_of::<TexGen>(), Pool::TexGens.record_size());
        assert_eq!(size_of::<TexMatrix>(), Pool::TexMatrices.record_size());
        assert_eq!(size_of::<TevOrder>(), Pool::TevOrders.record_size());
        assert_eq!(size_of::<[I16; 4]>(), Pool::TevColors.record_size());
        assert_eq!(size_of::<TevStage>(), Pool::TevStages.record_size());
        assert_eq!(size_of::<SwapMode>(), Pool::SwapModes.record_size());
        assert_eq!(size_of::<SwapTable>(), Pool::SwapTables.record_size());
        assert_eq!(size_of::<Fog>(), Pool::Fog.record_size());
        assert_eq!(size_of::<AlphaCompare>(), Pool::AlphaCompare.record_size());
        assert_eq!(size_of::<BlendMode>(), Pool::Blend.record_size());
        assert_eq!(size_of::<ZMode>(), Pool::ZMode.record_size());
        assert_eq!(size_of::<NbtScale>(), Pool::NbtScale.record_size());
        assert_eq!(size_of::<Indirect>(), INDIRECT_SIZE);
    }

    #[test]
    fn pool_header_fields_run_from_0x1c_to_0x80() {
        assert_eq!(Pool::CullModes.header_field(), 0x1C);
        assert_eq!(Pool::Textures.header_field(), 0x48);
        assert_eq!(Pool::Blend.header_field(), 0x70);
        assert_eq!(Pool::NbtScale.header_field(), 0x80);
        for (i, p) in Pool::ALL.iter().enumerate() {
            assert_eq!(*p as usize, i);
        }
    }

    #[test]
    fn entry_fields_end_inside_the_entry() {
        for f in Field::ALL {
            assert!(f.offset + f.slots * f.width <= ENTRY_SIZE, "{f:?}");
        }
        assert_eq!(Field::BLEND.offset + 2, 0x14A);
    }

    fn compare(c0: u8, r0: u8, op: u8, c1: u8, r1: u8) -> AlphaCompare {
        AlphaCompare {
            compare0: c0,
            reference0: r0,
            op,
            compare1: c1,
            reference1: r1,
            pad: [0; 3],
        }
    }

    #[test]
    fn alpha_compare_always_or_always_keeps_everything() {
        assert_eq!(compare(7, 0, 1, 7, 0).test(), AlphaTest::KeepsAll);
        assert_eq!(compare(7, 0, 0, 7, 0).test(), AlphaTest::KeepsAll);
        // GEQUAL 0 keeps everything too.
        assert_eq!(compare(6, 0, 0, 7, 0).test(), AlphaTest::KeepsAll);
    }

    #[test]
    fn alpha_compare_greater_keeps_from_the_next_value() {
        // GREATER 127 AND ALWAYS: the corpus's most common cut-out.
        assert_eq!(compare(4, 127, 0, 7, 0).test(), AlphaTest::KeepsFrom(128));
        // GEQUAL 128 AND LEQUAL 255.
        assert_eq!(compare(6, 128, 0, 3, 255).test(), AlphaTest::KeepsFrom(128));
        // GREATER 10 OR NEVER.
        assert_eq!(compare(4, 10, 1, 0, 0).test(), AlphaTest::KeepsFrom(11));
    }

    #[test]
    fn alpha_compare_that_is_no_threshold_is_other() {
        assert_eq!(compare(1, 128, 0, 7, 0).test(), AlphaTest::Other); // LESS
        assert_eq!(compare(0, 0, 0, 7, 0).test(), AlphaTest::Other); // never
        assert_eq!(compare(6, 10, 0, 3, 200).test(), AlphaTest::Other); // band
    }
}
