//! MAT3 materials as the scene keeps them (docs/j3d.md, "Materials in the
//! scene").

use super::Model;
use super::names::Pool;
use crate::error::{Error, Location, SectionId, Warning, WarningCode, Warnings};
use crate::j3d::mat3::{AlphaTest, GxCullMode, Material, TevOrder, TevStage};
use crate::scene::{
    AlphaMode, Blending, ColorSlot, CullMode, MaterialFlags, MaterialRecord, TextRef,
    srgb_to_linear,
};

impl Model<'_> {
    /// Writes every material (MAT3 order) and warns of index tables that
    /// reach past their end.
    pub(super) fn fill_materials(
        &self,
        materials: &mut [MaterialRecord],
        pool: &mut Pool<'_>,
        warnings: &mut Warnings,
    ) -> Result<(), Error> {
        if let Some(mat3) = &self.mat3 {
            for (m, out) in materials.iter_mut().enumerate() {
                let material = mat3.material(m)?;
                *out = material_record(&material, pool.name(material.name()?)?)?;
            }
            let textures = self.tex1.map_or(0, |t| t.len());
            for (p, at) in mat3.check(textures)?.iter() {
                warnings.push(Warning::new(
                    WarningCode::UnsupportedValue,
                    Location::Binary {
                        offset: at as u64,
                        section: Some(SectionId(*b"MAT3")),
                    },
                    format_args!(
                        "{} indices reach past the end of their table (the next table's offset): read from the bytes there, as GX tools do",
                        p.name()
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// A J3D material as the scene keeps it (docs/j3d.md, "Materials in the
/// scene"): slot 0's texture and the UV set its generator reads, cull mode,
/// alpha from the alpha compare and blend mode, and the base colour, texture
/// use and vertex colours the TEV stages fold to ([`fold`]); stages that do
/// not fold keep material colour 0 × slot 0's texture (× vertex colours
/// where colour channel 0 takes them) and say so in the flags.
fn material_record(m: &Material<'_>, name: TextRef) -> Result<MaterialRecord, Error> {
    let cull = match m.cull_mode()? {
        Some(GxCullMode::None) => CullMode::None,
        Some(GxCullMode::Front) => CullMode::Front,
        Some(GxCullMode::All) => CullMode::All,
        // GX's default when the material names none.
        Some(GxCullMode::Back) | None => CullMode::Back,
    };
    let channels_used = m.channel_count()?.is_none_or(|n| n > 0);
    let channel_vertex = channels_used && m.channel(0)?.is_some_and(|c| c.uses_vertex_color());
    let (alpha_mode, cutoff, additive) = alpha_of(m)?;
    let texture = m.texture(0)?.map_or(-1, i32::from);
    let mut flags = 0;
    let base = match fold(m, alpha_mode == AlphaMode::Opaque)? {
        Some(folded) => {
            if folded.vertex {
                flags |= MaterialFlags::VERTEX_COLORS;
                if !folded.vertex_alpha {
                    flags |= MaterialFlags::VERTEX_ALPHA_UNUSED;
                }
            }
            if !folded.texture && texture >= 0 {
                flags |= MaterialFlags::TEXTURE_UNUSED;
            }
            if folded.environment {
                flags |= MaterialFlags::ENVIRONMENT_LEFT_OUT;
            }
            folded.factor
        }
        None => {
            flags |= MaterialFlags::TEV_UNFOLDED;
            if channel_vertex {
                flags |= MaterialFlags::VERTEX_COLORS;
            }
            m.material_color(0)?.map_or([1.0; 4], unit)
        }
    };
    let (uv_set, generated) = uv_source(m)?;
    if generated.is_some() {
        flags |= MaterialFlags::GENERATED_UVS;
    }
    Ok(MaterialRecord {
        name,
        texture,
        flags,
        alpha_mode: alpha_mode as u8,
        blending: if additive {
            Blending::Additive
        } else {
            Blending::Normal
        } as u8,
        cull: cull as u8,
        alpha_cutoff: cutoff.unwrap_or(0.0),
        // GX colours are sRGB-encoded, the scene's factor linear; a product
        // of encoded factors is close to the encoded product of linear ones,
        // so each factor is converted once.
        base_color: [
            srgb_to_linear(base[0]),
            srgb_to_linear(base[1]),
            srgb_to_linear(base[2]),
            base[3],
        ],
        tev_stages: m.tev_stage_count()?.unwrap_or(0),
        uv_set,
        texgen_source: generated.unwrap_or(0),
        ..MaterialRecord::default()
    })
}

/// The alpha mode, the alpha test's cutoff and whether blending adds.
fn alpha_of(m: &Material<'_>) -> Result<(AlphaMode, Option<f32>, bool), Error> {
    let cutoff = match m.alpha_compare()?.map(|a| a.test()) {
        Some(AlphaTest::KeepsFrom(t)) => Some(f32::from(t) / 255.0),
        _ => None,
    };
    let blend = m.blend_mode()?;
    let additive = blend.is_some_and(|b| b.is_additive());
    let blended = additive || blend.is_some_and(|b| b.is_alpha_blend());
    let alpha_mode = match (blended, cutoff) {
        (true, _) => AlphaMode::Blend,
        (false, Some(_)) => AlphaMode::Mask,
        (false, None) => AlphaMode::Opaque,
    };
    Ok((alpha_mode, cutoff, additive))
}

/// What a clip can animate of `m`'s glTF material: the colours its base
/// colour factor is ([`material_record`]'s fold; material colour 0 when
/// the stages do not fold) and the texture matrix slot 0's coordinates go
/// through.
pub(super) fn base_sources(m: &Material<'_>) -> Result<BaseSources, Error> {
    let (alpha_mode, _, _) = alpha_of(m)?;
    let mut sources = match fold(m, alpha_mode == AlphaMode::Opaque)? {
        Some(folded) => folded.sources,
        None => {
            // MATERIAL is slot 8.
            #[allow(clippy::cast_possible_truncation)]
            let own = Some(ColorSlot::MATERIAL as u8);
            BaseSources {
                rgb: own,
                alpha: own,
                tex_matrix: None,
            }
        }
    };
    let generator = m.tex_gen(base_coord(m)?)?;
    if let Some(g) = generator
        && (TG_TEX0..TG_TEX0.saturating_add(8)).contains(&g.source)
        && let Some(offset) = g.matrix.checked_sub(TEXMTX0)
        && offset % 3 == 0
        && offset / 3 < 10
    {
        let slot = offset / 3;
        // Mapping mode 0: the matrix is the SRT alone (no effect or projection matrix).
        if m.tex_matrix(usize::from(slot))?
            .is_some_and(|t| t.info & 0x3F == 0)
        {
            sources.tex_matrix = Some(slot);
        }
    }
    Ok(sources)
}

/// GX `GX_TEXMTX0`: texture matrix n is 30 + 3n (GX_IDENTITY is 60).
const TEXMTX0: u8 = 30;

/// RGBA8 as 0..=1.
fn unit(c: [u8; 4]) -> [f32; 4] {
    c.map(|v| f32::from(v) / 255.0)
}

/// GX `GX_TG_TEX0`: texture coordinate generator sources 4..=11 are UV sets 0..=7.
const TG_TEX0: u8 = 4;

/// The UV set slot 0's texture samples and, when its generator reads
/// something that is no UV set, the GX source: the generator named by the
/// first TEV order that maps texture 0 (generator 0 when none does).
fn uv_source(m: &Material<'_>) -> Result<(u8, Option<u8>), Error> {
    Ok(match m.tex_gen(base_coord(m)?)? {
        // Inside the guard's range the subtraction cannot wrap.
        Some(g) if (TG_TEX0..TG_TEX0.saturating_add(8)).contains(&g.source) => {
            (g.source.wrapping_sub(TG_TEX0), None)
        }
        Some(g) => (0, Some(g.source)),
        // No generator: GX's default, TEX0 through the identity.
        None => (0, None),
    })
}

/// The coordinate generator slot 0's texture reads: the one named by the
/// first TEV order that maps texture 0 (generator 0 when none does).
fn base_coord(m: &Material<'_>) -> Result<usize, Error> {
    let stages = usize::from(m.tev_stage_count()?.unwrap_or(1)).min(16);
    for k in 0..stages {
        if let Some(order) = m.tev_order(k)?
            && order.tex_map == 0
            && order.tex_coord != NONE
        {
            return Ok(usize::from(order.tex_coord));
        }
    }
    Ok(0)
}

/// A TEV order's or selector's "none".
const NONE: u8 = 0xFF;

/// What a recognised TEV chain computes: `factor × texture × vertex colour`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Folded {
    /// The constant factor, sRGB-encoded RGB and alpha, 0..=1.
    factor: [f32; 4],
    /// Slot 0's texture is sampled.
    texture: bool,
    /// Vertex colour set 0 multiplies.
    vertex: bool,
    /// Its alpha multiplies alpha too (or alpha is not shown).
    vertex_alpha: bool,
    /// Environment-mapped terms added to the colour were left out.
    environment: bool,
    /// The [`ColorSlot`] whose RGB the factor's RGB is, and whose alpha its alpha is.
    sources: BaseSources,
}

/// Which colours of a material a clip can animate its glTF base colour
/// through ([`base_sources`]), as [`ColorSlot`] numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct BaseSources {
    /// The colour whose RGB is the base colour's RGB.
    pub(super) rgb: Option<u8>,
    /// The colour whose alpha is the base colour's alpha.
    pub(super) alpha: Option<u8>,
    /// The texture-matrix slot (GX `TEXMTX0 + 3n`) of slot 0's coordinate
    /// generator, when it reads a UV set through an SRT-only matrix.
    pub(super) tex_matrix: Option<u8>,
}

/// One TEV value as a product: a constant times texture and vertex colour
/// to some power (a square cannot be a glTF material).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Product {
    constant: [f32; 3],
    texture: u8,
    vertex: u8,
    /// A factor is a texture read through coordinates generated from
    /// normals (an environment or sphere map, [`environment`]).
    env: bool,
    /// An environment term was added and left out ([`stage_value`]).
    dropped: bool,
    /// The [`ColorSlot`] whose value `constant` is exactly (its RGB in the
    /// colour half, its alpha in the alpha half), so a clip animating that
    /// colour animates this factor.
    source: Option<u8>,
}

impl Product {
    const fn constant(c: [f32; 3]) -> Self {
        Self {
            constant: c,
            texture: 0,
            vertex: 0,
            env: false,
            dropped: false,
            source: None,
        }
    }

    /// Colour `slot`'s value `c`.
    const fn colour(c: [f32; 3], slot: u32) -> Self {
        Self {
            // ColorSlot numbers are below 10.
            #[allow(clippy::cast_possible_truncation)]
            source: Some(slot as u8),
            ..Self::constant(c)
        }
    }

    const ZERO: Self = Self::constant([0.0; 3]);
    const ONE: Self = Self::constant([1.0; 3]);

    fn is_zero(&self) -> bool {
        self.constant == [0.0; 3]
    }

    /// Exactly 1: no texture, vertex colour or environment map in it (a
    /// colour source may be: 1 is 1 whichever colour holds it).
    fn is_one(&self) -> bool {
        self.constant == [1.0; 3] && self.texture == 0 && self.vertex == 0 && !self.env
    }

    fn times(self, other: Self) -> Self {
        Self {
            constant: [0, 1, 2].map(|i| {
                self.constant.get(i).copied().unwrap_or(0.0)
                    * other.constant.get(i).copied().unwrap_or(0.0)
            }),
            texture: self.texture.saturating_add(other.texture),
            vertex: self.vertex.saturating_add(other.vertex),
            env: self.env || other.env,
            dropped: self.dropped || other.dropped,
            // A colour times texture, vertex colour or 1 is still that
            // colour's factor; times anything else it is not.
            source: match (self.source, other.source) {
                (Some(s), None) if other.constant == [1.0; 3] => Some(s),
                (None, Some(s)) if self.constant == [1.0; 3] => Some(s),
                _ => None,
            },
        }
    }
}

/// GX TEV colour inputs (`GX_CC_*`) the fold reads: `GX_CC_C0` (2) to
/// `GX_CC_A2` (7) are the registers C0, A0, C1, A1, C2, A2 (read as
/// constants, [`register`]); the alpha of PREV as colour is not folded.
mod cc {
    pub const CPREV: u8 = 0;
    pub const C0: u8 = 2;
    pub const A2: u8 = 7;
    pub const TEXC: u8 = 8;
    pub const RASC: u8 = 10;
    pub const ONE: u8 = 12;
    pub const HALF: u8 = 13;
    pub const KONST: u8 = 14;
    pub const ZERO: u8 = 15;
}

/// GX TEV alpha inputs (`GX_CA_*`) the fold reads: `GX_CA_A0` (1) to
/// `GX_CA_A2` (3) are the registers' alphas.
mod ca {
    pub const APREV: u8 = 0;
    pub const A0: u8 = 1;
    pub const A2: u8 = 3;
    pub const TEXA: u8 = 4;
    pub const RASA: u8 = 5;
    pub const KONST: u8 = 6;
    pub const ZERO: u8 = 7;
}

/// Which colour or alpha half of a stage.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Half {
    Color,
    Alpha,
}

/// Folds the TEV chain of `m` into [`Folded`] when it is one or two stages
/// of products of texture 0, rasterised colour channel 0, konst colours and
/// the previous stage (texture × rasterised, texture × konst, konst alone,
/// rasterised alone, texture alone, and their two-stage chains), each stage
/// `(1 − c)·a + c·b + d` with one of its terms zero, added, unbiased,
/// unscaled, into PREV, swap tables the identity. `opaque`: alpha is not
/// shown, so colour and alpha may use texture and vertex colours apart.
/// `None`: the chain does not fold.
fn fold(m: &Material<'_>, opaque: bool) -> Result<Option<Folded>, Error> {
    let Some(count) = m.tev_stage_count()? else {
        return Ok(None);
    };
    if !(1..=2).contains(&count) {
        return Ok(None);
    }
    let (mut color, mut alpha) = (None, None);
    for k in 0..usize::from(count) {
        let (Some(order), Some(stage)) = (m.tev_order(k)?, m.tev_stage(k)?) else {
            return Ok(None);
        };
        if !identity_swaps(m, k)? {
            return Ok(None);
        }
        let c = stage_value(m, k, order, stage, Half::Color, color)?;
        let a = stage_value(m, k, order, stage, Half::Alpha, alpha)?;
        let (Some(c), Some(a)) = (c, a) else {
            return Ok(None);
        };
        color = Some(c);
        alpha = Some(a);
    }
    let (Some(c), Some(a)) = (color, alpha) else {
        return Ok(None);
    };
    // An environment map multiplied in cannot be left out; in alpha it
    // only matters where alpha shows.
    if c.env || (a.env && !opaque) {
        return Ok(None);
    }
    if c.texture > 1 || c.vertex > 1 || a.texture > 1 || a.vertex > 1 {
        return Ok(None);
    }
    // glTF multiplies the texture and COLOR_0 into colour and alpha alike;
    // COLOR_0's alpha can be written as 1 (vertex colour alpha unused), its
    // colour cannot be left out.
    if !opaque && (c.texture != a.texture || a.vertex > c.vertex) {
        return Ok(None);
    }
    let [r, g, b] = c.constant;
    Ok(Some(Folded {
        factor: [r, g, b, a.constant.first().copied().unwrap_or(1.0)],
        texture: c.texture == 1 || (!opaque && a.texture == 1),
        vertex: c.vertex == 1,
        vertex_alpha: a.vertex == 1 || opaque,
        environment: c.dropped || (a.dropped && !opaque),
        sources: BaseSources {
            rgb: c.source,
            alpha: a.source,
            tex_matrix: None,
        },
    }))
}

/// True when stage `k`'s swap tables (rasterised and texture) are the identity.
fn identity_swaps(m: &Material<'_>, k: usize) -> Result<bool, Error> {
    let Some(mode) = m.swap_mode(k)? else {
        return Ok(true);
    };
    for table in [mode.ras_table, mode.tex_table] {
        if let Some(t) = m.swap_table(usize::from(table))?
            && t.channels != [0, 1, 2, 3]
        {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The colour or alpha half of stage `k` as a product, given the previous
/// stage's (`None` before the first); `None` when it does not fold.
fn stage_value(
    m: &Material<'_>,
    k: usize,
    order: &TevOrder,
    stage: &TevStage,
    half: Half,
    previous: Option<Product>,
) -> Result<Option<Product>, Error> {
    let (inputs, op, bias, scale, register) = match half {
        Half::Color => (
            stage.color_in,
            stage.color_op,
            stage.color_bias,
            stage.color_scale,
            stage.color_register,
        ),
        Half::Alpha => (
            stage.alpha_in,
            stage.alpha_op,
            stage.alpha_bias,
            stage.alpha_scale,
            stage.alpha_register,
        ),
    };
    // GX_TEV_ADD, GX_TB_ZERO, GX_TEVPREV; the scale is applied below.
    if (op, bias, register) != (0, 0, 0) {
        return Ok(None);
    }
    let mut terms = [Product::ZERO; 4];
    for (term, &input) in terms.iter_mut().zip(&inputs) {
        match input_value(m, k, order, half, input, previous)? {
            Some(p) => *term = p,
            None => return Ok(None),
        }
    }
    let [a, b, c, d] = terms;
    // (1 − c)·a + c·b + d, when it is a product.
    let blend = if c.is_zero() {
        a
    } else if c.is_one() {
        b
    } else if a.is_zero() {
        b.times(c)
    } else {
        return Ok(None);
    };
    // A sum folds when one side is zero, or when one side is an
    // environment-mapped term (a reflection GX adds after lighting, which
    // a glTF material cannot hold): that side is left out and the other
    // kept, flagged.
    let value = if d.is_zero() {
        blend
    } else if blend.is_zero() {
        d
    } else if blend.env && !d.env {
        Product { dropped: true, ..d }
    } else if d.env && !blend.env {
        Product {
            dropped: true,
            ..blend
        }
    } else {
        return Ok(None);
    };
    Ok(scaled(value, scale))
}

/// `value` times the stage's scale (`GX_CS_SCALE_1`, `_2`, `_4`,
/// `GX_CS_DIVIDE_2`: ×1, ×2, ×4, ×½), when the result stays a product: its
/// constant at most 1 in every channel, so the stage's clamp to 1 never
/// acts (texture and rasterised colour are at most 1).
fn scaled(value: Product, scale: u8) -> Option<Product> {
    let factor = match scale {
        0 => return Some(value),
        1 => 2.0,
        2 => 4.0,
        3 => 0.5,
        _ => return None,
    };
    let constant = value.constant.map(|c| c * factor);
    // Scaled, the factor is no longer exactly one colour's value, so a
    // clip animating that colour cannot animate it.
    constant.iter().all(|&c| c <= 1.0).then_some(Product {
        constant,
        source: None,
        ..value
    })
}

/// One TEV input as a product; `None` for inputs the fold does not take.
fn input_value(
    m: &Material<'_>,
    k: usize,
    order: &TevOrder,
    half: Half,
    input: u8,
    previous: Option<Product>,
) -> Result<Option<Product>, Error> {
    let texture = Product {
        texture: 1,
        ..Product::ONE
    };
    let value = match (half, input) {
        (Half::Color, cc::CPREV) | (Half::Alpha, ca::APREV) => previous,
        (Half::Color, cc::TEXC) | (Half::Alpha, ca::TEXA) => {
            if environment(m, order)? {
                Some(Product {
                    env: true,
                    ..Product::ONE
                })
            } else {
                // Slot 0's texture only: the scene keeps no other.
                (order.tex_map == 0).then_some(texture)
            }
        }
        (Half::Color, cc::RASC) | (Half::Alpha, ca::RASA) => raster(m, order.channel, half)?,
        (Half::Color, cc::ONE) => Some(Product::ONE),
        (Half::Color, cc::HALF) => Some(Product::constant([0.5; 3])),
        (Half::Color, cc::KONST) => konst(m, m.konst_color_selector(k).unwrap_or(NONE), half)?,
        (Half::Alpha, ca::KONST) => konst(m, m.konst_alpha_selector(k).unwrap_or(NONE), half)?,
        (Half::Color, cc::ZERO) | (Half::Alpha, ca::ZERO) => Some(Product::ZERO),
        // C0, A0, C1, A1, C2, A2: register (input − 2) / 2, its colour on
        // even inputs, its alpha (as a grey) on odd ones.
        (Half::Color, cc::C0..=cc::A2) => register(
            m,
            usize::from(input.wrapping_sub(cc::C0) / 2),
            input % 2 == 1,
        )?,
        (Half::Alpha, ca::A0..=ca::A2) => {
            register(m, usize::from(input.wrapping_sub(ca::A0)), true)?
        }
        _ => None,
    };
    Ok(value)
}

/// True when the order's texture is read through coordinates generated from
/// normals, binormals or tangents (`GX_TG_NRM` 1, `GX_TG_BINRM` 2,
/// `GX_TG_TANGENT` 3): an environment (sphere) map, which follows the view
/// and which no UV set of a glTF material can hold.
fn environment(m: &Material<'_>, order: &TevOrder) -> Result<bool, Error> {
    if order.tex_map == NONE || order.tex_coord == NONE {
        return Ok(false);
    }
    Ok(m.tex_gen(usize::from(order.tex_coord))?
        .is_some_and(|g| (1..=3).contains(&g.source)))
}

/// TEV register `n` (C0, C1, C2) as the material sets it before drawing,
/// its colour or its alpha as a grey: J3D's TEV colour slots 0..2 are
/// C0..C2 (slot 3 is PREV's starting value), as noclip's J3D material
/// loads `colorRegisters[0..3]` into C0..C2. GX registers are signed
/// 11-bit values; one outside 0..=255 is no colour a glTF factor holds,
/// so it does not fold.
fn register(m: &Material<'_>, n: usize, alpha: bool) -> Result<Option<Product>, Error> {
    let Some(c) = m.tev_color(n)? else {
        return Ok(None);
    };
    if c.iter().any(|v| !(0..=255).contains(v)) {
        return Ok(None);
    }
    let [r, g, b, a] = c.map(|v| f32::from(v) / 255.0);
    Ok(Some(Product::constant(if alpha {
        [a; 3]
    } else {
        [r, g, b]
    })))
}

/// Rasterised colour of TEV order channel `channel` (colour channel 0:
/// `GX_COLOR0`, `GX_ALPHA0`, `GX_COLOR0A0`; `GX_COLOR_ZERO` is 0): the
/// vertex colour or material colour 0, as the channel's control selects.
/// Lighting and ambient colour are left to the viewer's lights.
fn raster(m: &Material<'_>, channel: u8, half: Half) -> Result<Option<Product>, Error> {
    match channel {
        0 | 2 | 4 => {}
        6 => return Ok(Some(Product::ZERO)),
        _ => return Ok(None),
    }
    if m.channel_count()? == Some(0) {
        return Ok(None);
    }
    // MAT3 keeps COLOR0, ALPHA0, COLOR1, ALPHA1 controls.
    let control = m.channel(if half == Half::Color { 0 } else { 1 })?;
    if control.is_some_and(|c| c.uses_vertex_color()) {
        return Ok(Some(Product {
            vertex: 1,
            ..Product::ONE
        }));
    }
    let [r, g, b, a] = m.material_color(0)?.map_or([1.0; 4], unit);
    let value = match half {
        Half::Color => [r, g, b],
        Half::Alpha => [a; 3],
    };
    Ok(Some(Product::colour(value, ColorSlot::MATERIAL)))
}

/// A konst selector's value (`GX_TEV_KCSEL_*` / `GX_TEV_KASEL_*`): a
/// fraction 8/8..1/8, a konst colour's RGB, or one of its components
/// (the konst colour's own value, [`Product::source`], when it is its RGB
/// in the colour half or its alpha in the alpha half).
fn konst(m: &Material<'_>, selector: u8, half: Half) -> Result<Option<Product>, Error> {
    if let Some(eighths) = 8u8.checked_sub(selector).filter(|&e| e >= 1) {
        return Ok(Some(Product::constant([f32::from(eighths) / 8.0; 3])));
    }
    // In the ranges matched, the subtractions cannot wrap.
    let (slot, component) = match selector {
        0x0C..=0x0F if half == Half::Color => (selector.wrapping_sub(0x0C), None),
        0x10..=0x1F => {
            let k = selector.wrapping_sub(0x10);
            (k % 4, Some(k / 4))
        }
        _ => return Ok(None),
    };
    let Some(c) = m.konst_color(usize::from(slot))? else {
        return Ok(None);
    };
    let [r, g, b, a] = unit(c);
    let own = ColorSlot::KONST + u32::from(slot);
    Ok(Some(match component {
        None => Product::colour([r, g, b], own),
        Some(3) if half == Half::Alpha => Product::colour([a; 3], own),
        Some(i) => Product::constant([[r, g, b, a].get(usize::from(i)).copied().unwrap_or(0.0); 3]),
    }))
}
