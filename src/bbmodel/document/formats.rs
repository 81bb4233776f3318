//! Blockbench project formats (`meta.model_format`) and the rules each sets.
//!
//! The table follows the loader specification's lists (Supported, Conversion,
//! conventions 9, 14, 15, 16), which mirror Blockbench's `Format` flags and
//! those of the plugin formats it names.

/// A project format. Ids the spec does not name read as [`ModelFormat::Other`]
/// (per-face textures, the project resolution, no strips).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ModelFormat {
    /// `free`: Generic Model.
    Free,
    /// `java_block`: Java Block/Item.
    JavaBlock,
    /// `bedrock`: Bedrock Entity.
    Bedrock,
    /// `bedrock_old`: Bedrock Entity (legacy).
    BedrockOld,
    /// `bedrock_block`: Bedrock Block.
    BedrockBlock,
    /// `modded_entity`: Modded Entity.
    ModdedEntity,
    /// `skin`: Minecraft skin.
    Skin,
    /// `image`: Image.
    Image,
    /// `optifine_entity`: OptiFine JEM.
    OptifineEntity,
    /// `optifine_part`: OptiFine JPM.
    OptifinePart,
    /// `figura` (plugin).
    Figura,
    /// `hytale_character` (plugin).
    HytaleCharacter,
    /// `hytale_prop` (plugin).
    HytaleProp,
    /// `geckolib_model` (GeckoLib plugin).
    GeckolibModel,
    /// `animated_entity_model` (Animation Utils, legacy GeckoLib).
    AnimatedEntityModel,
    /// `azure_model` (AzureLib plugin).
    AzureModel,
    /// `bamo_model` (BAMO plugin).
    BamoModel,
    /// `free_rotation` (Free Rotation plugin).
    FreeRotation,
    /// `java_block_sequence` (Java Block Sequencer plugin).
    JavaBlockSequence,
    /// `cosmic_reach_entity_model` (Cosmic Reach Model Editor plugin).
    CosmicReachEntityModel,
    /// `cosmic_reach_model` (Cosmic Reach Model Editor plugin).
    CosmicReachModel,
    /// `optifine_player_model` (OptiFine player models plugin).
    OptifinePlayerModel,
    /// `eme_entity` (Easy Model Entities plugin).
    EmeEntity,
    /// Any other id.
    Other,
}

impl ModelFormat {
    /// The format for a `meta.model_format` id.
    pub fn from_id(id: &str) -> Self {
        match id {
            "free" => Self::Free,
            "java_block" => Self::JavaBlock,
            "bedrock" => Self::Bedrock,
            "bedrock_old" => Self::BedrockOld,
            "bedrock_block" => Self::BedrockBlock,
            "modded_entity" => Self::ModdedEntity,
            "skin" => Self::Skin,
            "image" => Self::Image,
            "optifine_entity" => Self::OptifineEntity,
            "optifine_part" => Self::OptifinePart,
            "figura" => Self::Figura,
            "hytale_character" => Self::HytaleCharacter,
            "hytale_prop" => Self::HytaleProp,
            "geckolib_model" => Self::GeckolibModel,
            "animated_entity_model" => Self::AnimatedEntityModel,
            "azure_model" => Self::AzureModel,
            "bamo_model" => Self::BamoModel,
            "free_rotation" => Self::FreeRotation,
            "java_block_sequence" => Self::JavaBlockSequence,
            "cosmic_reach_entity_model" => Self::CosmicReachEntityModel,
            "cosmic_reach_model" => Self::CosmicReachModel,
            "optifine_player_model" => Self::OptifinePlayerModel,
            "eme_entity" => Self::EmeEntity,
            _ => Self::Other,
        }
    }

    /// Blockbench `Format.per_texture_uv_size`: a texture's uv_width and
    /// uv_height set its UV space (Supported, Textures).
    pub fn per_texture_uv_size(self) -> bool {
        matches!(
            self,
            Self::Free
                | Self::Image
                | Self::OptifineEntity
                | Self::OptifinePart
                | Self::Figura
                | Self::HytaleCharacter
                | Self::HytaleProp
        )
    }

    /// A bad uv_width/uv_height fails the file (INVALID_FIELD) only in `free`;
    /// elsewhere it warns and the resolution is used (Supported, Textures).
    pub fn bad_uv_size_is_an_error(self) -> bool {
        self == Self::Free
    }

    /// Blockbench `Format.box_uv_float_size`: fractional box-UV sizes are kept.
    pub fn box_uv_float_size(self) -> bool {
        matches!(
            self,
            Self::ModdedEntity | Self::HytaleCharacter | Self::HytaleProp
        )
    }

    /// Blockbench `Format.render_sides` is `front` only in java_block (convention 9):
    /// auto-sided textures and untextured faces are single-sided there.
    pub fn auto_is_single_sided(self) -> bool {
        self == Self::JavaBlock
    }

    /// Blockbench `Format.animated_textures` (convention 14): images whose
    /// aspect differs from their UV space are frame strips.
    pub fn animated_textures(self) -> bool {
        matches!(
            self,
            Self::Free
                | Self::JavaBlock
                | Self::Bedrock
                | Self::BedrockBlock
                | Self::BedrockOld
                | Self::Image
                | Self::GeckolibModel
                | Self::AnimatedEntityModel
                | Self::AzureModel
                | Self::BamoModel
                | Self::FreeRotation
                | Self::JavaBlockSequence
                | Self::CosmicReachEntityModel
        )
    }

    /// Blockbench `Format.texture_mcmeta` (convention 14): a strip's frame
    /// time is `frame_time` ticks, not `fps`.
    pub fn texture_mcmeta(self) -> bool {
        matches!(
            self,
            Self::JavaBlock | Self::GeckolibModel | Self::FreeRotation | Self::JavaBlockSequence
        )
    }

    /// Blockbench `Format.single_texture` (convention 15): every face shows
    /// the default texture. The Hytale formats hold it only while the file
    /// has no non-empty `collections` array (`has_collections`).
    pub fn single_texture(self, has_collections: bool) -> bool {
        match self {
            Self::Bedrock
            | Self::BedrockOld
            | Self::ModdedEntity
            | Self::Skin
            | Self::Image
            | Self::GeckolibModel
            | Self::AnimatedEntityModel
            | Self::AzureModel
            | Self::CosmicReachEntityModel
            | Self::OptifinePlayerModel => true,
            Self::HytaleCharacter | Self::HytaleProp => !has_collections,
            _ => false,
        }
    }

    /// Blockbench `Format.single_texture_default` (convention 15): blank
    /// faces show the default texture, and `use_as_default` picks it.
    pub fn single_texture_default(self) -> bool {
        matches!(
            self,
            Self::BedrockBlock
                | Self::OptifineEntity
                | Self::OptifinePart
                | Self::HytaleCharacter
                | Self::HytaleProp
        )
    }

    /// Blockbench `Format.per_group_texture` (convention 15): a face shows
    /// its parent group's texture.
    pub fn per_group_texture(self) -> bool {
        matches!(self, Self::OptifineEntity | Self::OptifinePart)
    }

    /// The Hytale plugin formats, which read `collections` (convention 15).
    pub fn reads_collections(self) -> bool {
        matches!(self, Self::HytaleCharacter | Self::HytaleProp)
    }

    /// The layer composite's formats (Conversion, "Layer composite"): the
    /// single-texture ones, with or without collections.
    pub fn composites_layers(self) -> bool {
        self.single_texture(false) || self.single_texture_default()
    }

    /// Blockbench `Format.texture_wrap_default` (convention 16): clamp in the
    /// Hytale formats, limited (drawn clamped) elsewhere.
    pub fn wrap_default_is_clamp(self) -> bool {
        matches!(self, Self::HytaleCharacter | Self::HytaleProp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_texture_uv_size_formats_are_the_specs_list() {
        for id in [
            "free",
            "image",
            "optifine_entity",
            "optifine_part",
            "figura",
            "hytale_character",
            "hytale_prop",
        ] {
            assert!(ModelFormat::from_id(id).per_texture_uv_size(), "{id}");
        }
        for id in [
            "bedrock",
            "java_block",
            "modded_entity",
            "geckolib_model",
            "unknown_plugin",
        ] {
            assert!(!ModelFormat::from_id(id).per_texture_uv_size(), "{id}");
        }
    }

    #[test]
    fn box_uv_float_size_formats_are_modded_entity_and_hytale() {
        for id in ["modded_entity", "hytale_character", "hytale_prop"] {
            assert!(ModelFormat::from_id(id).box_uv_float_size(), "{id}");
        }
        assert!(!ModelFormat::from_id("bedrock").box_uv_float_size());
    }

    #[test]
    fn convention_9_only_java_block_sides_auto_as_front() {
        assert!(ModelFormat::JavaBlock.auto_is_single_sided());
        assert!(!ModelFormat::Free.auto_is_single_sided());
        assert!(!ModelFormat::Bedrock.auto_is_single_sided());
    }
}
