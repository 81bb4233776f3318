//! Where a material entry keeps its indices: one [`Pool`] per kind of GX
//! state (which header offset locates it, how many bytes a record takes)
//! and one [`Field`] per index run of the entry.

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
    /// Colour channel controls, [`ColorChannel`](super::ColorChannel) (0x28).
    Channels,
    /// Ambient colours, RGBA8 (0x2C).
    AmbientColors,
    /// Lights, [`Light`](super::Light) (0x30).
    Lights,
    /// Texture coordinate generator counts, u8 (0x34).
    TexGenCounts,
    /// Texture coordinate generators, [`TexGen`](super::TexGen) (0x38).
    TexGens,
    /// Post-transform texture coordinate generators, [`TexGen`](super::TexGen) (0x3C).
    PostTexGens,
    /// Texture matrices, [`TexMatrix`](super::TexMatrix) (0x40).
    TexMatrices,
    /// Post-transform texture matrices, [`TexMatrix`](super::TexMatrix) (0x44).
    PostTexMatrices,
    /// The texture table: u16 TEX1 indices (0x48).
    Textures,
    /// TEV orders, [`TevOrder`](super::TevOrder) (0x4C).
    TevOrders,
    /// TEV colour registers, four s16 each (0x50).
    TevColors,
    /// TEV konstant colours, RGBA8 (0x54).
    KonstColors,
    /// TEV stage counts, u8 (0x58).
    TevStageCounts,
    /// TEV stages, [`TevStage`](super::TevStage) (0x5C).
    TevStages,
    /// TEV swap modes, [`SwapMode`](super::SwapMode) (0x60).
    SwapModes,
    /// TEV swap tables, [`SwapTable`](super::SwapTable) (0x64).
    SwapTables,
    /// Fog, [`Fog`](super::Fog) (0x68).
    Fog,
    /// Alpha compare, [`AlphaCompare`](super::AlphaCompare) (0x6C).
    AlphaCompare,
    /// Blend modes, [`BlendMode`](super::BlendMode) (0x70).
    Blend,
    /// Depth modes, [`ZMode`](super::ZMode) (0x74).
    ZMode,
    /// Z compare location (before or after texturing), u8 (0x78).
    ZCompLoc,
    /// Dither enable, u8 (0x7C).
    Dither,
    /// NBT scales, [`NbtScale`](super::NbtScale) (0x80); no entry field indexes it.
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
