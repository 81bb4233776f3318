//! MAT3 materials as the scene keeps them (docs/j3d.md, "Materials in the
//! scene").

use super::Model;
use super::names::Pool;
use crate::error::{Error, Location, SectionId, Warning, WarningCode, Warnings};
use crate::j3d::mat3::{AlphaTest, GxCullMode, Material};
use crate::scene::{AlphaMode, Blending, CullMode, MaterialFlags, MaterialRecord, TextRef};

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
/// scene"): slot 0's texture, cull mode, vertex colours when colour channel
/// 0 takes its material colour from the vertices, alpha from the alpha
/// compare and blend mode, and material colour 0 as the base colour. TEV
/// stages are not emulated.
fn material_record(m: &Material<'_>, name: TextRef) -> Result<MaterialRecord, Error> {
    let cull = match m.cull_mode()? {
        Some(GxCullMode::None) => CullMode::None,
        Some(GxCullMode::Front) => CullMode::Front,
        Some(GxCullMode::All) => CullMode::All,
        // GX's default when the material names none.
        Some(GxCullMode::Back) | None => CullMode::Back,
    };
    let channels_used = m.channel_count()?.is_none_or(|n| n > 0);
    let vertex_colors = channels_used && m.channel(0)?.is_some_and(|c| c.uses_vertex_color());
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
    Ok(MaterialRecord {
        name,
        texture: m.texture(0)?.map_or(-1, i32::from),
        flags: if vertex_colors {
            MaterialFlags::VERTEX_COLORS
        } else {
            0
        },
        alpha_mode: alpha_mode as u8,
        blending: if additive {
            Blending::Additive
        } else {
            Blending::Normal
        } as u8,
        cull: cull as u8,
        alpha_cutoff: cutoff.unwrap_or(0.0),
        base_color: m
            .material_color(0)?
            .map_or([1.0; 4], |c| c.map(|v| f32::from(v) / 255.0)),
        ..MaterialRecord::default()
    })
}
