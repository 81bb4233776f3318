//! A J3D material whose TEV stages did not fold, baked into one image: where
//! the stages compute `rasterised colour × f(T0, T1, constants)` over at most
//! two textures read through the same coordinates, `f` is evaluated per
//! texel (GX's TEV arithmetic, as noclip's GX material shader writes it in
//! `generateTevOp`) and the image is the material's base colour.
//! Read from MAT3 again here (std side): the scene keeps no TEV stages.

use std::string::String;
use std::vec::Vec;

use gltf_json as json;
use serde_json::{Map, Value};

use crate::j3d::J3dFile;
use crate::j3d::mat3::{Mat3, Material};
use crate::scene::{
    AlphaMode, Filter, Format, MaterialFlags, MaterialRecord, Scene, TextureRecord, Wrap,
};

use super::uv_transform::{self, UvTransform};

/// A TEV order's, texture slot's or channel's "none".
const NONE: u8 = 0xFF;
/// `GX_IDENTITY`: a texture coordinate generator without a matrix.
const IDENTITY: u8 = 60;

/// What a baked material reads: the TEX1 (scene) textures, larger first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sources {
    /// The texture the image takes its size, name and sampler from.
    pub first: usize,
    /// Every texture read, in slot order (one or two).
    pub from: [usize; 2],
    /// How many of `from` are used.
    pub count: usize,
}

/// One TEV stage, its inputs and operation, as GX reads them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stage {
    /// Colour inputs A, B, C, D (`GX_CC_*`).
    pub color_in: [u8; 4],
    /// Alpha inputs A, B, C, D (`GX_CA_*`).
    pub alpha_in: [u8; 4],
    /// Colour and alpha: operation, bias, scale, clamp, output register.
    pub color: [u8; 5],
    /// The same for alpha.
    pub alpha: [u8; 5],
    /// Which texture (0 or 1 of [`Sources::from`]) the stage reads, if any.
    pub texture: Option<usize>,
    /// Rasterised colour reaches the stage (channel 0); else it reads zero.
    pub raster: bool,
    /// Konst colour (RGB) and konst alpha the stage's selectors give.
    pub konst: [f32; 4],
}

/// A material's TEV program: registers PREV, C0..C2 at the start, stages.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// PREV (J3D's TEV colour slot 3), C0, C1, C2 (slots 0..2), 0..=1.
    pub registers: [[f32; 4]; 4],
    /// The stages, in order.
    pub stages: Vec<Stage>,
}

/// GX clamps an unclamped register to its signed 11-bit range.
const LOW: f32 = -1024.0 / 255.0;
const HIGH: f32 = 1023.0 / 255.0;

impl Program {
    /// The TEV output (RGBA) for texels `t` (RGBA, 0..=1) and rasterised
    /// colour `ras` (RGBA), none for operations that are no lerp (the
    /// comparisons) or a bias of 3. GX's stage:
    /// `out = (d ± ((1−c)·a + c·b) + bias) · scale`, clamped to 0..=1 when
    /// the stage says so; a, b and c are 8-bit inputs (0..=1).
    pub fn eval(&self, t: [[f32; 4]; 2], ras: [f32; 4]) -> Option<[f32; 4]> {
        let mut reg = self.registers;
        let mut last = reg[0];
        for s in &self.stages {
            let tex = s
                .texture
                .and_then(|i| t.get(i).copied())
                .unwrap_or([0.0; 4]);
            let ras = if s.raster { ras } else { [0.0; 4] };
            let mut out = [0.0f32; 4];
            for (ch, o) in out.iter_mut().enumerate() {
                let alpha = ch == 3;
                let (inputs, op) = if alpha {
                    (s.alpha_in, s.alpha)
                } else {
                    (s.color_in, s.color)
                };
                let pick = |sel: u8| -> Option<f32> {
                    if alpha {
                        alpha_input(sel, &reg, tex, ras, s.konst)
                    } else {
                        color_input(sel, ch, &reg, tex, ras, s.konst)
                    }
                };
                let [a, b, c, d] = [
                    pick(inputs[0])?.clamp(0.0, 1.0),
                    pick(inputs[1])?.clamp(0.0, 1.0),
                    pick(inputs[2])?.clamp(0.0, 1.0),
                    pick(inputs[3])?,
                ];
                *o = operate(op, a, b, c, d)?;
            }
            let (cr, ar) = (usize::from(s.color[4] & 3), usize::from(s.alpha[4] & 3));
            if let Some(r) = reg.get_mut(cr) {
                r[..3].copy_from_slice(&out[..3]);
            }
            if let Some(r) = reg.get_mut(ar) {
                r[3] = out[3];
            }
            last = out;
        }
        Some(last)
    }
}

/// One channel of a stage: operation, bias, scale, clamp (`GX_TEV_ADD` 0,
/// `GX_TEV_SUB` 1; bias 0, +½, −½; scale 1, 2, 4, ½).
fn operate(op: [u8; 5], a: f32, b: f32, c: f32, d: f32) -> Option<f32> {
    let lerp = (1.0 - c) * a + c * b;
    let value = match op[0] {
        0 => d + lerp,
        1 => d - lerp,
        _ => return None,
    };
    let bias = match op[1] {
        0 => 0.0,
        1 => 0.5,
        2 => -0.5,
        _ => return None,
    };
    let scale = match op[2] {
        0 => 1.0,
        1 => 2.0,
        2 => 4.0,
        _ => 0.5,
    };
    let v = (value + bias) * scale;
    Some(if op[3] != 0 {
        v.clamp(0.0, 1.0)
    } else {
        v.clamp(LOW, HIGH)
    })
}

/// `GX_CC_*` for channel `ch` (0..3 of RGB).
fn color_input(
    sel: u8,
    ch: usize,
    reg: &[[f32; 4]; 4],
    tex: [f32; 4],
    ras: [f32; 4],
    konst: [f32; 4],
) -> Option<f32> {
    let r = |n: usize, c: usize| reg.get(n).and_then(|r| r.get(c)).copied();
    match sel {
        0 => r(0, ch),
        1 => r(0, 3),
        2 => r(1, ch),
        3 => r(1, 3),
        4 => r(2, ch),
        5 => r(2, 3),
        6 => r(3, ch),
        7 => r(3, 3),
        8 => tex.get(ch).copied(),
        9 => Some(tex[3]),
        10 => ras.get(ch).copied(),
        11 => Some(ras[3]),
        12 => Some(1.0),
        13 => Some(0.5),
        14 => konst.get(ch).copied(),
        15 => Some(0.0),
        _ => None,
    }
}

/// `GX_CA_*`.
fn alpha_input(
    sel: u8,
    reg: &[[f32; 4]; 4],
    tex: [f32; 4],
    ras: [f32; 4],
    konst: [f32; 4],
) -> Option<f32> {
    match sel {
        0..=3 => reg.get(usize::from(sel)).map(|r| r[3]),
        4 => Some(tex[3]),
        5 => Some(ras[3]),
        6 => Some(konst[3]),
        7 => Some(0.0),
        _ => None,
    }
}

/// RGBA8 as 0..=1.
fn unit(c: [u8; 4]) -> [f32; 4] {
    c.map(|v| f32::from(v) / 255.0)
}

/// A konst selector (`GX_TEV_KCSEL_*` / `GX_TEV_KASEL_*`): a fraction
/// 8/8..1/8, a konst colour's RGB (colour only) or one of its components.
fn konst(m: &Material<'_>, selector: u8, alpha: bool) -> Option<[f32; 3]> {
    if let Some(eighths) = 8u8.checked_sub(selector).filter(|&e| e >= 1) {
        return Some([f32::from(eighths) / 8.0; 3]);
    }
    let (slot, component) = match selector {
        0x0C..=0x0F if !alpha => (selector.wrapping_sub(0x0C), None),
        0x10..=0x1F => {
            let k = selector.wrapping_sub(0x10);
            (k % 4, Some(k / 4))
        }
        _ => return None,
    };
    let [r, g, b, a] = unit(m.konst_color(usize::from(slot)).ok()??);
    Some(match component {
        None => [r, g, b],
        Some(i) => [[r, g, b, a].get(usize::from(i)).copied().unwrap_or(0.0); 3],
    })
}

/// The TEV program of scene material `material` of a J3D scene and the
/// textures it reads, when it reads slot 0's texture and at most one more
/// through the same texture coordinates (the same generator, or generators
/// of the same source and matrix) and no swap table reorders channels;
/// none otherwise.
pub fn program(scene: &Scene<'_>, material: usize) -> Option<(Program, Sources)> {
    match read_program(scene, material)? {
        (program, sources, true) => Some((program, sources)),
        _ => None,
    }
}

/// [`program`], and whether its textures share coordinates; a program of
/// two textures read through one source but different matrices is kept
/// (false) for [`approximate`].
fn read_program(scene: &Scene<'_>, material: usize) -> Option<(Program, Sources, bool)> {
    if scene.format() != Format::J3d {
        return None;
    }
    let file = J3dFile::parse(scene.input()).ok()?;
    let m = Mat3::new(file.section(b"MAT3")?)
        .ok()?
        .material(material)
        .ok()?;
    let count = usize::from(m.tev_stage_count().ok()??).min(16);
    let register = |n: usize| {
        m.tev_color(n)
            .ok()
            .flatten()
            .map_or([0.0; 4], |c| c.map(|v| f32::from(v) / 255.0))
    };
    let registers = [register(3), register(0), register(1), register(2)];
    let mut slots: Vec<(u8, u8)> = Vec::new();
    let mut stages = Vec::with_capacity(count);
    for k in 0..count {
        let s = m.tev_stage(k).ok()??;
        let order = m.tev_order(k).ok()??;
        if let Some(swap) = m.swap_mode(k).ok().flatten() {
            for table in [swap.ras_table, swap.tex_table] {
                if let Some(t) = m.swap_table(usize::from(table)).ok().flatten()
                    && t.channels != [0, 1, 2, 3]
                {
                    return None;
                }
            }
        }
        let reads_texture = s.color_in.iter().any(|&c| c == 8 || c == 9) || s.alpha_in.contains(&4);
        let texture = if reads_texture {
            if order.tex_map == NONE || order.tex_coord == NONE {
                return None;
            }
            let at = match slots.iter().position(|&(map, _)| map == order.tex_map) {
                // One texture read through two coordinates is two images.
                Some(at) if slots.get(at).is_some_and(|s| s.1 != order.tex_coord) => {
                    return None;
                }
                Some(at) => at,
                None => {
                    slots.push((order.tex_map, order.tex_coord));
                    slots.len() - 1
                }
            };
            Some(at)
        } else {
            None
        };
        let raster = match order.channel {
            0 | 2 | 4 => true,
            6 | NONE => false,
            _ => return None,
        };
        let kc = konst(&m, m.konst_color_selector(k).unwrap_or(NONE), false);
        let ka = konst(&m, m.konst_alpha_selector(k).unwrap_or(NONE), true);
        let [r, g, b] = kc.unwrap_or([0.0; 3]);
        stages.push(Stage {
            color_in: s.color_in,
            alpha_in: s.alpha_in,
            color: [
                s.color_op,
                s.color_bias,
                s.color_scale,
                s.color_clamp,
                s.color_register,
            ],
            alpha: [
                s.alpha_op,
                s.alpha_bias,
                s.alpha_scale,
                s.alpha_clamp,
                s.alpha_register,
            ],
            texture,
            raster,
            konst: [r, g, b, ka.map_or(0.0, |k| k[0])],
        });
    }
    // Slot 0 must be read: the material's texCoord is the set slot 0's
    // generator reads (`materials::uv_set`).
    if slots.is_empty() || slots.len() > 2 || !slots.iter().any(|&(map, _)| map == 0) {
        return None;
    }
    // Same coordinates: one generator, or two of one source and matrix.
    let gens: Vec<_> = slots
        .iter()
        .map(|&(_, coord)| m.tex_gen(usize::from(coord)).ok().flatten())
        .collect();
    let mut shared = true;
    if let ([Some(a), Some(b)], [(_, ca), (_, cb)]) = (&gens[..], &slots[..])
        && ca != cb
        && (a.source != b.source || a.matrix != b.matrix)
    {
        if a.source != b.source || slots.first().is_none_or(|s| s.0 != 0) {
            return None;
        }
        shared = false;
    }
    if let [Some(a), None] | [None, Some(a)] = gens[..]
        && (a.source != 4 || a.matrix != IDENTITY)
    {
        return None;
    }
    let mut from = [0usize; 2];
    for (f, &(map, _)) in from.iter_mut().zip(&slots) {
        *f = usize::from(m.texture(usize::from(map)).ok()??);
    }
    let area = |t: usize| {
        crate::export::png::level_pixels(scene, t, 0)
            .map_or(0, |(mip, _)| u64::from(mip.width) * u64::from(mip.height))
    };
    let first = if slots.len() == 2 && area(from[1]) > area(from[0]) {
        from[1]
    } else {
        from[0]
    };
    Some((
        Program { registers, stages },
        Sources {
            first,
            from,
            count: slots.len(),
        },
        shared,
    ))
}

/// Level 0 of a scene texture as the bake samples it.
struct Texture<'a> {
    width: u32,
    height: u32,
    rgba: &'a [u8],
    record: &'a TextureRecord,
}

impl Texture<'_> {
    fn texel(&self, x: i64, y: i64) -> [f32; 4] {
        let x = wrap(x, self.width, self.record.wrap_u());
        let y = wrap(y, self.height, self.record.wrap_v());
        let at = (y as usize * self.width as usize + x as usize) * 4;
        match self.rgba.get(at..at + 4) {
            Some(&[r, g, b, a]) => unit([r, g, b, a]),
            _ => [0.0; 4],
        }
    }

    /// The texel under the centre of texel `(x, y)` of a `size` image over
    /// the same UVs: nearest, or bilinear when the texture magnifies
    /// linearly (GX's filter on the texture).
    fn sample(&self, (x, y): (u32, u32), size: (u32, u32)) -> [f32; 4] {
        // Texel space of this texture: `(x + ½)·w / size − ½`, as a whole
        // part and a fraction, in integers.
        let axis = |x: u32, w: u32, n: u32| {
            // i128: (2x + 1)·w of two u32 cannot overflow it.
            let num = (2 * i128::from(x) + 1) * i128::from(w) - i128::from(n.max(1));
            let den = 2 * i128::from(n.max(1));
            // The whole part is below w, the remainder below 2·n: both fit.
            let whole = i64::try_from(num.div_euclid(den)).unwrap_or(0);
            let rest = u64::try_from(num.rem_euclid(den)).unwrap_or(0);
            let den = u64::from(n.max(1)) * 2;
            (whole, half_ratio(rest, den))
        };
        let (x0, fx) = axis(x, self.width, size.0);
        let (y0, fy) = axis(y, self.height, size.1);
        if self.record.mag_filter != Filter::Linear as u8 {
            // The texel the centre falls in.
            return self.texel(x0 + i64::from(fx >= 0.5), y0 + i64::from(fy >= 0.5));
        }
        let [a, b, c, d] = [
            self.texel(x0, y0),
            self.texel(x0 + 1, y0),
            self.texel(x0, y0 + 1),
            self.texel(x0 + 1, y0 + 1),
        ];
        let mut out = [0.0; 4];
        for ((((o, a), b), c), d) in out.iter_mut().zip(a).zip(b).zip(c).zip(d) {
            let top = f64::from(a) + f64::from(b - a) * fx;
            let bottom = f64::from(c) + f64::from(d - c) * fx;
            *o = narrow(top + (bottom - top) * fy);
        }
        out
    }
}

/// `rest / den` (rest below den) as f64.
#[allow(clippy::cast_precision_loss)] // below 2^33: exact in f64
fn half_ratio(rest: u64, den: u64) -> f64 {
    rest as f64 / den.max(1) as f64
}

/// A value of 0..=1 as f32.
#[allow(clippy::cast_possible_truncation)] // 0..=1: nothing to truncate
fn narrow(v: f64) -> f32 {
    v.clamp(0.0, 1.0) as f32
}

/// 0..=1 as a byte, rounded.
#[allow(clippy::cast_possible_truncation)] // clamped to 0..=255 first
fn byte(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round().clamp(0.0, 255.0) as u8
}

/// Texel index `i` on an axis of `n` texels under GX wrap `w`.
fn wrap(i: i64, n: u32, w: Wrap) -> u32 {
    let n = i64::from(n.max(1));
    let v = match w {
        Wrap::Clamp => i.clamp(0, n - 1),
        Wrap::Repeat => i.rem_euclid(n),
        Wrap::Mirror => {
            let m = i.rem_euclid(2 * n);
            if m < n { m } else { 2 * n - 1 - m }
        }
    };
    u32::try_from(v).unwrap_or(0)
}

fn level0<'a>(scene: &Scene<'a>, t: usize) -> Option<Texture<'a>> {
    let record = scene.textures().get(t)?;
    if record.missing() {
        return None;
    }
    let (mip, rgba) = crate::export::png::level_pixels(scene, t, 0)?;
    Some(Texture {
        width: mip.width,
        height: mip.height,
        rgba,
        record,
    })
}

/// Tolerance of the check that the output is rasterised colour times `f`.
const LINEAR: f32 = 1.5 / 255.0;

/// The baked image (width, height, RGBA8) of `program` over `sources`:
/// `f(T0, T1)` with rasterised colour white, at the larger texture's size.
/// None when some texel's output is not rasterised colour × `f` (checked
/// per texel at rasterised colour 0, ½ and 1), or, when `alpha` is shown,
/// its alpha is not either.
pub fn bake(
    scene: &Scene<'_>,
    program: &Program,
    sources: Sources,
    alpha: bool,
) -> Option<(u32, u32, Vec<u8>)> {
    let first = level0(scene, sources.first)?;
    let mut textures = Vec::with_capacity(2);
    for &t in sources.from.get(..sources.count)? {
        textures.push(level0(scene, t)?);
    }
    bake_textures(program, &textures, (first.width, first.height), alpha)
}

/// [`bake`] over level-0 textures at `size`.
fn bake_textures(
    program: &Program,
    textures: &[Texture<'_>],
    (width, height): (u32, u32),
    alpha: bool,
) -> Option<(u32, u32, Vec<u8>)> {
    let mut out = Vec::with_capacity(
        (width as usize)
            .checked_mul(height as usize)?
            .checked_mul(4)?,
    );
    for y in 0..height {
        for x in 0..width {
            let mut t = [[0.0f32; 4]; 2];
            for (slot, tex) in t.iter_mut().zip(textures) {
                *slot = tex.sample((x, y), (width, height));
            }
            out.extend_from_slice(&baked_texel(program, t, alpha)?);
        }
    }
    Some((width, height, out))
}

/// `f(t)` as RGBA8 (alpha 255 unless `alpha`), none when the output is not
/// rasterised colour × `f` (checked at rasterised colour 0, ½ and 1).
fn baked_texel(program: &Program, t: [[f32; 4]; 2], alpha: bool) -> Option<[u8; 4]> {
    let one = program.eval(t, [1.0; 4])?;
    let half = program.eval(t, [0.5; 4])?;
    let zero = program.eval(t, [0.0; 4])?;
    let channels = if alpha { 4 } else { 3 };
    let product = zero
        .iter()
        .zip(half)
        .zip(one)
        .take(channels)
        .all(|((z, h), o)| z.abs() <= LINEAR && (h - o / 2.0).abs() <= LINEAR);
    product.then(|| {
        [
            byte(one[0]),
            byte(one[1]),
            byte(one[2]),
            if alpha { byte(one[3]) } else { 255 },
        ]
    })
}

/// The mean RGBA of a texture's level-0 texels (0..=1).
#[allow(clippy::cast_precision_loss)] // sums below 2^53: exact
fn mean(t: &Texture<'_>) -> [f32; 4] {
    let mut sum = [0u64; 4];
    let mut n = 0u64;
    for px in t.rgba.chunks_exact(4) {
        for (s, &v) in sum.iter_mut().zip(px) {
            *s += u64::from(v);
        }
        n += 1;
    }
    sum.map(|s| narrow(s as f64 / (n.max(1) as f64 * 255.0)))
}

/// An approximation where no exact image exists: `f(mean(T0), T1)` over
/// `t1`'s own texels, for a program whose slot 0 and slot 1 textures are
/// read through different texture matrices. Slot 0's texture is replaced
/// by its mean colour and alpha, so its pattern is lost; slot 1's is kept
/// texel for texel. None when `f` is not rasterised colour × `f`.
fn bake_over_second(
    program: &Program,
    t0: &Texture<'_>,
    t1: &Texture<'_>,
    alpha: bool,
) -> Option<(u32, u32, Vec<u8>)> {
    let m0 = mean(t0);
    let size = (t1.width, t1.height);
    let mut out = Vec::with_capacity(
        (t1.width as usize)
            .checked_mul(t1.height as usize)?
            .checked_mul(4)?,
    );
    for y in 0..t1.height {
        for x in 0..t1.width {
            out.extend_from_slice(&baked_texel(program, [m0, t1.sample((x, y), size)], alpha)?);
        }
    }
    Some((t1.width, t1.height, out))
}

/// The approximate image of scene material `material` (`bake_over_second`)
/// and the TEX1 texture whose coordinates it is read through (slot 1's),
/// when its two textures share a source but not a texture matrix.
pub fn approximate(scene: &Scene<'_>, material: usize) -> Option<(u32, u32, Vec<u8>, usize)> {
    let record = scene.materials().get(material)?;
    let (program, sources, shared) = read_program(scene, material)?;
    if shared || sources.count != 2 {
        return None;
    }
    let alpha = record.alpha_mode() != AlphaMode::Opaque;
    let [a, b] = sources.from;
    let (w, h, rgba) = bake_over_second(&program, &level0(scene, a)?, &level0(scene, b)?, alpha)?;
    Some((w, h, rgba, b))
}

/// The baked image of scene material `material`, when its stages bake
/// ([`program`], [`bake`]); alpha is kept unless the material is opaque.
pub fn image(scene: &Scene<'_>, material: usize) -> Option<(u32, u32, Vec<u8>)> {
    let record = scene.materials().get(material)?;
    let (program, sources, shared) = read_program(scene, material)?;
    if !shared {
        return approximate(scene, material).map(|(w, h, rgba, _)| (w, h, rgba));
    }
    let alpha = record.alpha_mode() != AlphaMode::Opaque;
    bake(scene, &program, sources, alpha)
}

/// The pixels a material whose TEV stages did not fold shows when they
/// bake: [`Pixels::Baked`](super::pixels::Pixels::Baked), with the textures
/// read for `extras.baked_from`.
pub fn pixels(scene: &Scene<'_>, material: usize) -> Option<(super::pixels::Pixels, Vec<usize>)> {
    let record = scene.materials().get(material)?;
    if record.flags & MaterialFlags::TEV_UNFOLDED == 0 {
        return None;
    }
    let (_, sources, shared) = read_program(scene, material)?;
    if !shared {
        // Approximated over slot 1's texture, which its matrix places.
        second_transform(scene, material)?;
        return Some((
            super::pixels::Pixels::Baked(material, sources.from[1]),
            sources.from[..2].to_vec(),
        ));
    }
    let from = sources.from.get(..sources.count)?.to_vec();
    Some((super::pixels::Pixels::Baked(material, sources.first), from))
}

/// `GX_TEXMTX0`; `GX_TEXMTXn` is `30 + 3n`.
const TEXMTX0: u8 = 30;

/// The texture matrix slot 1's generator reads, as `KHR_texture_transform`
/// ([`uv_transform::nearest`]), for a material [`approximate`] takes, and whether it is
/// exact; none when it has no matrix.
fn second_transform(scene: &Scene<'_>, material: usize) -> Option<(UvTransform, bool)> {
    let file = J3dFile::parse(scene.input()).ok()?;
    let m = Mat3::new(file.section(b"MAT3")?)
        .ok()?
        .material(material)
        .ok()?;
    let count = usize::from(m.tev_stage_count().ok()??).min(16);
    let coord = (0..count)
        .filter_map(|k| m.tev_order(k).ok().flatten())
        .find(|o| o.tex_map == 1)?
        .tex_coord;
    let generator = m.tex_gen(usize::from(coord)).ok()??;
    let at = generator.matrix.checked_sub(TEXMTX0)?;
    if at % 3 != 0 {
        return None;
    }
    let t = m.tex_matrix(usize::from(at / 3)).ok()??;
    let radians = f32::from(t.rotation.get()) * core::f32::consts::PI / f32::from(0x7FFF_i16);
    let matrix = crate::scene::texture_matrix(
        t.info & 0x80 != 0,
        t.scale.map(|v| v.get()),
        radians,
        t.translation.map(|v| v.get()),
        [t.center[0].get(), t.center[1].get()],
    );
    uv_transform::nearest(&matrix)
}

/// Marks an approximated material ([`approximate`]): what stands in for
/// slot 0's texture in `extras.baked_approximation`, and slot 1's texture
/// matrix as the base colour texture's `KHR_texture_transform`.
pub fn mark_approximation(material: &mut json::Material, scene: &Scene<'_>, index: usize) {
    let Some((_, _, false)) = read_program(scene, index) else {
        return;
    };
    let Some((t, exact)) = second_transform(scene, index) else {
        return;
    };
    let mut fields = material
        .extras
        .as_deref()
        .and_then(|raw| serde_json::from_str::<Map<String, Value>>(raw.get()).ok())
        .unwrap_or_default();
    fields.insert(
        String::from("baked_approximation"),
        Value::from(if exact {
            "T0 by its mean"
        } else {
            "T0 by its mean; T1's matrix without its shear"
        }),
    );
    material.extras = super::extras::object(fields);
    if let Some(info) = material.pbr_metallic_roughness.base_color_texture.as_mut() {
        let ext = info.extensions.get_or_insert_with(Default::default);
        ext.others.insert(
            String::from("KHR_texture_transform"),
            serde_json::json!({
                "offset": t.offset,
                "rotation": t.rotation,
                "scale": t.scale,
            }),
        );
    }
}

/// Marks a material showing its baked image: `"baked_from": [textures]`
/// in `extras`, and the base colour factor set to what the bake took as
/// rasterised colour (colour channel 0, as the fold's `raster` reads it):
/// the vertex colours alone where the channel takes them (white factor),
/// material colour 0 otherwise (the factor the scene already holds).
pub fn mark(material: &mut json::Material, record: &MaterialRecord, from: &[usize]) {
    let mut fields = material
        .extras
        .as_deref()
        .and_then(|raw| serde_json::from_str::<Map<String, Value>>(raw.get()).ok())
        .unwrap_or_default();
    fields.insert(String::from("baked_from"), Value::from(from.to_vec()));
    material.extras = super::extras::object(fields);
    if record.flags & MaterialFlags::VERTEX_COLORS != 0 {
        let factor = &mut material.pbr_metallic_roughness.base_color_factor.0;
        factor[..3].fill(1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stage of GX defaults (ADD, no bias, scale 1, clamped, into PREV)
    /// with the given inputs.
    fn stage(color_in: [u8; 4], alpha_in: [u8; 4], texture: Option<usize>) -> Stage {
        Stage {
            color_in,
            alpha_in,
            color: [0, 0, 0, 1, 0],
            alpha: [0, 0, 0, 1, 0],
            texture,
            raster: true,
            konst: [1.0, 0.0, 0.5, 1.0],
        }
    }

    fn record(wrap: Wrap, filter: Filter) -> TextureRecord {
        TextureRecord {
            wrap_u: wrap as u8,
            wrap_v: wrap as u8,
            mag_filter: filter as u8,
            min_filter: filter as u8,
            ..TextureRecord::default()
        }
    }

    /// The lava's program shape with registers of its own: stage 0
    /// `2·lerp(K, C0, T0)` (colour inputs KONST, C0, TEXC, ZERO; scale 2),
    /// alpha `T0.a`; stage 1 `½·(lerp(T1, PREV, PREV.a) + C1)` (scale ½);
    /// stage 2 `PREV × RASC`. GX's stage, as noclip's `generateTevOp`
    /// writes it: `(d + lerp(a, b, c) + bias) · scale`, clamped.
    fn lava_like() -> Program {
        let mut s0 = stage([14, 2, 8, 15], [4, 7, 7, 7], Some(0));
        s0.color[2] = 1;
        let mut s1 = stage([8, 0, 1, 4], [7, 7, 7, 0], Some(1));
        s1.color[2] = 3;
        let s2 = stage([15, 0, 10, 15], [7, 7, 7, 0], None);
        Program {
            registers: [[0.0; 4], [0.2, 0.4, 0.0, 1.0], [0.0; 4], [0.0; 4]],
            stages: std::vec![s0, s1, s2],
        }
    }

    #[test]
    fn tev_arithmetic_on_hand_computed_texels() {
        let p = lava_like();
        // T0 = (0.5, 0, 1, a 0.25), T1 = (1, 0.5, 0, 1), white rasterised:
        // stage 0: 2·((1−t)·K + t·C0) = 2·(0.5·1 + 0.5·0.2, 0 + 0, 0 + 0.0)
        //        = (1.2 → 1, 0, 0); alpha 0.25.
        // stage 1: ½·(0.75·T1 + 0.25·PREV) = ½·(0.75 + 0.25, 0.375, 0)
        //        = (0.5, 0.1875, 0).
        let out = p
            .eval([[0.5, 0.0, 1.0, 0.25], [1.0, 0.5, 0.0, 1.0]], [1.0; 4])
            .unwrap();
        let want = [0.5, 0.1875, 0.0];
        for (o, w) in out.iter().zip(want) {
            assert!((o - w).abs() < 1e-6, "{out:?}");
        }
        // rasterised colour multiplies at the end
        let half = p
            .eval([[0.5, 0.0, 1.0, 0.25], [1.0, 0.5, 0.0, 1.0]], [0.5; 4])
            .unwrap();
        assert!((half[0] - 0.25).abs() < 1e-6);
        // A comparison (op 8) is no lerp: nothing to bake.
        let mut cmp = lava_like();
        cmp.stages[1].color[0] = 8;
        assert!(cmp.eval([[0.0; 4]; 2], [1.0; 4]).is_none());
    }

    #[test]
    fn bakes_two_tiny_textures_at_the_larger_size() {
        let mut p = lava_like();
        p.stages[0].konst = [0.5, 0.0, 0.5, 1.0];
        p.registers[2] = [0.4, 0.0, 0.0, 0.0]; // C1, stage 1's d
        let r = record(Wrap::Repeat, Filter::Nearest);
        // T0 2×1: grey t = 0.2, alpha 1 then 0. T1 4×1: red 100 twice,
        // blue 200 twice.
        let t0 = Texture {
            width: 2,
            height: 1,
            rgba: &[51, 51, 51, 255, 51, 51, 51, 0],
            record: &r,
        };
        let t1 = Texture {
            width: 4,
            height: 1,
            rgba: &[
                100, 0, 0, 255, 100, 0, 0, 255, 0, 0, 200, 255, 0, 0, 200, 255,
            ],
            record: &r,
        };
        let (w, h, rgba) = bake_textures(&p, &[t0, t1], (4, 1), false).unwrap();
        assert_eq!((w, h), (4, 1));
        // x 0, 1 read T0's first texel (alpha 1): stage 0 =
        // 2·(0.8·K + 0.2·C0) = (0.88, 0.16, 0.8); stage 1 = ½·(PREV + C1)
        // = (0.64, 0.08, 0.4) → (163, 20, 102).
        // x 2, 3 read its second (alpha 0): stage 1 = ½·(T1 + C1)
        // = (0.2, 0, 100/255) → (51, 0, 100).
        assert_eq!(
            rgba,
            [
                163, 20, 102, 255, 163, 20, 102, 255, 51, 0, 100, 255, 51, 0, 100, 255
            ]
        );
    }

    #[test]
    fn a_term_rasterised_colour_does_not_multiply_is_not_baked() {
        // `PREV + RASC`: output 1 at rasterised 0, not ras × f.
        let mut p = lava_like();
        p.stages[2].color_in = [0, 15, 15, 10];
        let r = record(Wrap::Clamp, Filter::Nearest);
        let t = Texture {
            width: 1,
            height: 1,
            rgba: &[255, 255, 255, 255],
            record: &r,
        };
        let t1 = Texture { ..t };
        assert!(bake_textures(&p, &[t, t1], (1, 1), false).is_none());
    }

    /// GX wrap modes: CLAMP holds the edge texel, REPEAT wraps, MIRROR
    /// reflects every other period.
    #[test]
    fn wrap_modes_follow_gx() {
        assert_eq!([-1, 0, 3, 4].map(|i| wrap(i, 4, Wrap::Clamp)), [0, 0, 3, 3]);
        assert_eq!([-1, 4, 5].map(|i| wrap(i, 4, Wrap::Repeat)), [3, 0, 1]);
        assert_eq!(
            [-1, 4, 7, 8].map(|i| wrap(i, 4, Wrap::Mirror)),
            [0, 3, 0, 0]
        );
    }

    #[test]
    fn bilinear_sampling_where_the_texture_filters_linearly() {
        let r = record(Wrap::Clamp, Filter::Linear);
        let t = Texture {
            width: 2,
            height: 1,
            rgba: &[0, 0, 0, 255, 255, 255, 255, 255],
            record: &r,
        };
        // halfway between the two texel centres
        // at 3 texels over the same UVs, texel 1's centre is halfway
        // between the two texel centres
        assert!((t.sample((1, 0), (3, 1))[0] - 0.5).abs() < 1e-6);
        let r = record(Wrap::Clamp, Filter::Nearest);
        let t = Texture { record: &r, ..t };
        assert_eq!(t.sample((1, 0), (3, 1))[0], 1.0);
        assert_eq!(t.sample((0, 0), (3, 1))[0], 0.0);
    }

    fn corpus(name: &str) -> Option<std::vec::Vec<u8>> {
        let dir = crate::test_corpus::dir("j3d")?;
        Some(std::fs::read(dir.join(name)).unwrap())
    }

    /// With T0 by its mean (grey 0.2, alpha ½), `f` over T1's texels:
    /// stage 0 `2·(0.8·K + 0.2·C0)` = (0.88, 0.16, 0.8), alpha ½; stage 1
    /// `½·(lerp(T1, PREV, ½) + C1)`: for red 100, ½·(50 + 112.2 + 102)/255
    /// → (132, 10, 51); for blue 200, (107, 10, 101).
    #[test]
    fn bakes_over_the_second_texture_with_the_first_by_its_mean() {
        let mut p = lava_like();
        p.stages[0].konst = [0.5, 0.0, 0.5, 1.0];
        p.registers[2] = [0.4, 0.0, 0.0, 0.0];
        let r = record(Wrap::Repeat, Filter::Linear);
        let t0 = Texture {
            width: 2,
            height: 1,
            rgba: &[51, 51, 51, 255, 51, 51, 51, 0],
            record: &r,
        };
        let t1 = Texture {
            width: 2,
            height: 1,
            rgba: &[100, 0, 0, 255, 0, 0, 200, 255],
            record: &r,
        };
        assert_eq!(mean(&t0), [0.2, 0.2, 0.2, 0.5]);
        let (w, h, rgba) = bake_over_second(&p, &t0, &t1, false).unwrap();
        assert_eq!((w, h), (2, 1));
        assert_eq!(rgba, [132, 10, 51, 255, 107, 10, 101, 255]);
        // PREV + RASC: rasterised colour does not multiply, no image.
        let mut add = p.clone();
        add.stages[2].color_in = [0, 15, 15, 10];
        assert!(bake_over_second(&add, &t0, &t1, false).is_none());
    }

    /// The lava's two textures are read through different texture
    /// matrices (generators 0 and 1: TEXMTX0, TEXMTX1, scaled and turned
    /// differently), so no one exact image in one UV set holds both: it is
    /// not baked, but approximated over T1 with T0 by its mean. `f` is
    /// affine in T1 once T0 is a constant and T1 is sampled at its own
    /// size (each texel once), so the image's mean colour is
    /// `f(mean T0, mean T1)` to within rounding (1/255 allowed).
    #[test]
    fn the_lava_is_approximated_over_its_second_texture() {
        let Some(bytes) = corpus("smgo_lavaworldlavaa.bdl") else {
            return;
        };
        let loaded = crate::load(&bytes, None, &crate::Options::default()).unwrap();
        let scene = loaded.scene();
        let file = J3dFile::parse(scene.input()).unwrap();
        let m = Mat3::new(file.section(b"MAT3").unwrap())
            .unwrap()
            .material(0)
            .unwrap();
        let (g0, g1) = (
            m.tex_gen(0).unwrap().unwrap(),
            m.tex_gen(1).unwrap().unwrap(),
        );
        assert_eq!((g0.source, g1.source), (4, 4));
        assert_ne!(g0.matrix, g1.matrix);
        assert!(program(&scene, 0).is_none());
        let (shown, read) = pixels(&scene, 0).unwrap();
        assert_eq!(read.len(), 2);
        // Slot 1's matrix (scale 0.45 × 0.6, then turned about 4°) is no
        // scale-then-turn KHR_texture_transform can hold: its nearest.
        let (t, exact) = second_transform(&scene, 0).unwrap();
        assert!(!exact);
        assert!((t.scale[0] - 0.45).abs() < 0.01 && (t.scale[1] - 0.6).abs() < 0.01);
        let (w, h, rgba, from) = approximate(&scene, 0).unwrap();
        assert_eq!(shown.first(), from);
        let (prog, sources, shared) = read_program(&scene, 0).unwrap();
        assert!(!shared);
        assert_eq!(from, sources.from[1]);
        let (t0, t1) = (
            level0(&scene, sources.from[0]).unwrap(),
            level0(&scene, sources.from[1]).unwrap(),
        );
        assert_eq!((w, h), (t1.width, t1.height));
        let want = prog.eval([mean(&t0), mean(&t1)], [1.0; 4]).unwrap();
        let got = mean(&Texture {
            width: w,
            height: h,
            rgba: &rgba,
            record: t1.record,
        });
        std::eprintln!(
            "T0 {}x{} mean {:?}; T1 {}x{} mean {:?}; baked mean {got:?}; f(means) {want:?}",
            t0.width,
            t0.height,
            mean(&t0),
            t1.width,
            t1.height,
            mean(&t1)
        );
        for (g, w) in got.iter().zip(want).take(3) {
            assert!((g - w).abs() <= 1.0 / 255.0, "{got:?} {want:?}");
        }
        // Not black: the brightest channel of the mean is well lit.
        assert!(
            got[..3].iter().copied().fold(0.0, f32::max) > 0.25,
            "{got:?}"
        );
    }

    /// On the corpus exactly the reverse-gravity planet's five wood
    /// materials bake: `ras · lerp(C0, K, T0)` (C0 dark olive, konst white);
    /// the lava is approximated (its own test).
    /// The mix is affine in the texture and sampled at the texture's own
    /// size, so the baked image's mean colour is `C0 + (K − C0)·mean(T0)`
    /// to within rounding (0.5/255 a texel, 1/255 allowed).
    #[test]
    fn the_planets_wood_bakes_to_the_mix_of_its_texture() {
        let Some(files) = crate::test_corpus::files("j3d", &["bmd", "bdl"]) else {
            return;
        };
        let mut baked = std::vec::Vec::new();
        for f in files {
            let bytes = std::fs::read(&f).unwrap();
            let loaded = crate::load(&bytes, None, &crate::Options::default()).unwrap();
            let scene = loaded.scene();
            for i in 0..scene.materials().len() {
                if pixels(&scene, i).is_some() && image(&scene, i).is_some() {
                    baked.push(std::format!(
                        "{} {}",
                        f.file_name().unwrap().to_string_lossy(),
                        scene.text(scene.materials()[i].name)
                    ));
                }
            }
        }
        let planet = "riistudio_smg_reversegravity2dliftplanet.bdl";
        let mut want: std::vec::Vec<_> = (0..5)
            .map(|k| std::format!("{planet} Wood0{k}_v"))
            .collect();
        want.push(std::string::String::from("smgo_lavaworldlavaa.bdl Lava_v"));
        assert_eq!(baked, want);

        let bytes = corpus(planet).unwrap();
        let loaded = crate::load(&bytes, None, &crate::Options::default()).unwrap();
        let scene = loaded.scene();
        let file = J3dFile::parse(scene.input()).unwrap();
        let mat3 = Mat3::new(file.section(b"MAT3").unwrap()).unwrap();
        for i in 19..24 {
            let m = mat3.material(i).unwrap();
            let c0 = m
                .tev_color(0)
                .unwrap()
                .unwrap()
                .map(|v| f64::from(v) / 255.0);
            let k = m
                .konst_color(0)
                .unwrap()
                .unwrap()
                .map(|v| f64::from(v) / 255.0);
            let (_, sources) = program(&scene, i).unwrap();
            let (_, src) = crate::export::png::level_pixels(&scene, sources.from[0], 0).unwrap();
            let (_, _, out) = image(&scene, i).unwrap();
            let mean = |p: &[u8], c: usize| {
                p.chunks_exact(4)
                    .map(|t| f64::from(t[c]) / 255.0)
                    .sum::<f64>()
                    / (p.len() / 4) as f64
            };
            for c in 0..3 {
                let want = c0[c] + (k[c] - c0[c]) * mean(src, c);
                let got = mean(&out, c);
                assert!((got - want).abs() < 1.0 / 255.0, "{i} {c}: {got} vs {want}");
                assert!(got > 0.1, "{i}: baked channel {c} is near black");
            }
        }
    }

    /// In the export, the wood materials bind their baked image under a
    /// white factor (channel 0 takes vertex colours) and say `baked_from`;
    /// every other material of the planet keeps material colour 0 and its
    /// own texture (the corpus converted before and after is byte-identical
    /// but for this file: docs/export.md, Materials).
    #[test]
    fn only_baked_materials_change_in_the_export() {
        let Some(bytes) = corpus("riistudio_smg_reversegravity2dliftplanet.bdl") else {
            return;
        };
        let loaded = crate::load(&bytes, None, &crate::Options::default()).unwrap();
        let scene = loaded.scene();
        let options = super::super::Options {
            container: super::super::Container::Gltf,
            ..super::super::Options::default()
        };
        let out = super::super::export(&scene, "planet", &options).unwrap();
        let doc: Value = serde_json::from_slice(&out.main).unwrap();
        let mut marked = 0;
        for m in doc["materials"].as_array().unwrap() {
            let name = m["name"].as_str().unwrap();
            let from = &m["extras"]["baked_from"];
            let factor = &m["pbrMetallicRoughness"]["baseColorFactor"];
            if name.starts_with("Wood") {
                assert!(from.is_array(), "{name}");
                assert_eq!(factor[0].as_f64(), Some(1.0), "{name}");
                marked += 1;
            } else {
                assert!(from.is_null(), "{name}");
            }
        }
        assert!(marked >= 5);
    }
}
