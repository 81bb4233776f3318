//! One material's state, read on demand: each accessor resolves an index of
//! the entry through its pool and returns the record it names.

use super::records::*;
use super::{
    ENTRY_SIZE, Field, INDIRECT_SIZE, KONST_ALPHA_SELECTORS, KONST_COLOR_SELECTORS, Material,
    NONE8, NONE16,
};
use crate::error::{Error, ErrorCode};
use zerocopy::big_endian::I16;
use zerocopy::{FromBytes, Immutable, KnownLayout};

// The record accessors the material fold calls per TEV stage
// (`j3d/model/materials.rs`) are `#[inline(never)]`: each holds
// `Result<_, Error>` slots that, inlined, would sit in the fold's frames
// under the J3D fill, and whether LLVM inlines them moves with unrelated
// code (docs/c-api.md, "Stack").
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

    pub(super) fn field_at(&self, field: Field, slot: usize) -> usize {
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
    pub(super) fn resolve_in_bounds(
        &self,
        field: Field,
        slot: usize,
    ) -> Option<Option<(usize, bool)>> {
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
    #[inline(never)]
    pub fn material_color(&self, slot: usize) -> Result<Option<[u8; 4]>, Error> {
        self.color(Field::MATERIAL_COLORS, slot)
    }

    /// Ambient colour register `slot` (0..2), RGBA8.
    #[inline(never)]
    pub fn ambient_color(&self, slot: usize) -> Result<Option<[u8; 4]>, Error> {
        self.color(Field::AMBIENT_COLORS, slot)
    }

    /// Colour channels in use (0..=2).
    pub fn channel_count(&self) -> Result<Option<u8>, Error> {
        self.byte(Field::CHANNEL_COUNT, 0)
    }

    /// Colour channel control `slot`: 0 colour 0, 1 alpha 0, 2 colour 1, 3 alpha 1.
    #[inline(never)]
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
    #[inline(never)]
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
    #[inline(never)]
    pub fn texture(&self, slot: usize) -> Result<Option<u16>, Error> {
        match self.resolve(Field::TEXTURES, slot)? {
            Some((at, _)) => Ok(Some(self.mat3.reader.u16(at)?)),
            None => Ok(None),
        }
    }

    /// Konst colour `slot` (0..4), RGBA8.
    #[inline(never)]
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
    #[inline(never)]
    pub fn tev_order(&self, stage: usize) -> Result<Option<&'a TevOrder>, Error> {
        self.record(Field::TEV_ORDERS, stage)
    }

    /// TEV colour register `slot` (0..4): R, G, B, A as s16 (0..255 is the usual range).
    #[inline(never)]
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
    #[inline(never)]
    pub fn tev_stage(&self, stage: usize) -> Result<Option<&'a TevStage>, Error> {
        self.record(Field::TEV_STAGES, stage)
    }

    /// Swap mode of TEV stage `stage` (0..16).
    #[inline(never)]
    pub fn swap_mode(&self, stage: usize) -> Result<Option<&'a SwapMode>, Error> {
        self.record(Field::SWAP_MODES, stage)
    }

    /// Swap table `slot` (0..4).
    #[inline(never)]
    pub fn swap_table(&self, slot: usize) -> Result<Option<&'a SwapTable>, Error> {
        self.record(Field::SWAP_TABLES, slot)
    }

    /// Fog.
    pub fn fog(&self) -> Result<Option<&'a Fog>, Error> {
        self.record(Field::FOG, 0)
    }

    /// Alpha compare.
    #[inline(never)]
    pub fn alpha_compare(&self) -> Result<Option<&'a AlphaCompare>, Error> {
        self.record(Field::ALPHA_COMPARE, 0)
    }

    /// Blend mode.
    #[inline(never)]
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
