//! The scene model (version 1): what every format decodes into.
//!
//! A [`Scene`] is a set of plain-data arrays in the caller's arena plus the
//! input bytes it borrows names from. Records reference each other by index
//! and range, so the whole scene is a few slices: cheap to walk, trivially
//! `Copy`, and free of pointers into itself. docs/scene-format.md is the
//! normative description: units, spaces, rotation order, winding.
//!
//! The list of arrays is written once, in the `scene_arrays!` macro: the counts that
//! `measure` computes, the footprint it reports, the slices `decode_into`
//! carves and the accessors all come from that one list, in one order, so
//! `measure` and `decode_into` cannot disagree about the arena's layout.

mod animation;
mod clips;
mod material;
mod mesh;
mod node;
mod sample;
mod text;
mod texture;
mod transform;

pub use crate::molang::{MolangNode, Placeholder as MolangPlaceholder, ProgramRecord};
pub use animation::{
    AnimationRecord, ChannelFlags, ChannelRecord, ChannelTarget, Easing, Interpolation,
    KeyframeRecord, KeyframeSource, LoopMode, SkinRecord,
};
pub use clips::{
    ClipKind, ClipRecord, ColorSlot, CurveKind, CurveRecord, FrameLoop, HermiteKey, TrackRecord,
    TrackTarget,
};
pub use material::{AlphaMode, Blending, CullMode, MaterialFlags, MaterialRecord, srgb_to_linear};
pub use mesh::{
    GroupFlags, Influence, InfluenceSpan, MAX_COLOR_SETS, MAX_UV_SETS, MeshFlags, MeshGroupRecord,
    MeshRecord,
};
pub use node::{NodeFlags, NodeRecord, shape_node};
pub use sample::{
    MAX_PLAYED_VARIABLES, MaterialSample, NodePose, TEX_MATRIX_SLOTS, TEXTURE_SLOTS,
    TexMatrixSample, clip_loop_mode, clip_time, texture_matrix, world_matrices,
};
pub use text::{TextRef, TextSource};
pub use texture::{Filter, FrameOrder, MipRecord, SourceFormat, TextureFlags, TextureRecord, Wrap};
pub use transform::{Aabb, Mat4, NormalMatrix, normalize};

use crate::carve::{Arena, ArenaReader, Footprint};
use crate::error::Error;

/// Which file format a scene came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// J3D `.bmd` / `.bdl` (GameCube / Wii).
    J3d,
    /// Blockbench `.bbmodel`.
    Bbmodel,
}

impl Format {
    /// `"j3d"` or `"bbmodel"`, as `inspect --json` writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::J3d => "j3d",
            Self::Bbmodel => "bbmodel",
        }
    }
}

macro_rules! scene_arrays {
    ($( $(#[$doc:meta])* $name:ident : $ty:ty ),* $(,)?) => {
        /// How many values each of the scene's arrays holds: what `measure`
        /// computes before anything is decoded.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct SceneCounts {
            $( $(#[$doc])* pub $name: usize, )*
        }

        impl SceneCounts {
            /// Adds the arena bytes of every array, in carving order.
            pub fn add_to(&self, footprint: &mut Footprint) -> Result<(), Error> {
                $( footprint.add::<$ty>(self.$name)?; )*
                Ok(())
            }
        }

        /// The scene's arrays while a decoder fills them, carved from the arena.
        #[derive(Debug, Default)]
        pub struct SceneArrays<'a> {
            $( $(#[$doc])* pub $name: &'a mut [$ty], )*
        }

        impl<'a> SceneArrays<'a> {
            /// Carves every array from `arena`, in the order [`SceneCounts::add_to`] counts them
            /// (in a frame of its own: each carve's result holds an [`Error`]).
            #[inline(never)]
            pub fn carve(counts: &SceneCounts, arena: &mut Arena<'a>) -> Result<Self, Error> {
                Ok(Self { $( $name: arena.slice::<$ty>(counts.$name)?, )* })
            }

            /// [`SceneArrays::carve`] into `self` (the caller's, not copied
            /// out of a `Result`).
            #[inline(never)]
            pub fn carve_into(&mut self, counts: &SceneCounts, arena: &mut Arena<'a>) -> Result<(), Error> {
                $( self.$name = arena.slice::<$ty>(counts.$name)?; )*
                Ok(())
            }

            fn freeze(self) -> Arrays<'a> {
                Arrays { $( $name: self.$name, )* }
            }
        }

        impl<'a> Arrays<'a> {
            fn view(counts: &SceneCounts, reader: &mut ArenaReader<'a>) -> Result<Self, Error> {
                Ok(Self { $( $name: reader.slice::<$ty>(counts.$name)?, )* })
            }

            /// Keeps the first `used` values of each array.
            fn truncate(mut self, used: &SceneCounts) -> Self {
                $( self.$name = self.$name.get(..used.$name).unwrap_or(self.$name); )*
                self
            }

            fn counts(&self) -> SceneCounts {
                SceneCounts { $( $name: self.$name.len(), )* }
            }
        }

        impl<'a> SceneArrays<'a> {
            /// Keeps the first `used` values of each array: decoders whose
            /// plan is an upper bound (faces dropped for having no area) hand
            /// out only what they wrote.
            pub fn truncate(self, used: &SceneCounts) -> Self {
                Self { $( $name: {
                    let len = used.$name.min(self.$name.len());
                    self.$name.split_at_mut(len).0
                }, )* }
            }
        }

        #[derive(Clone, Copy, Debug, Default)]
        struct Arrays<'a> {
            $( $name: &'a [$ty], )*
        }

        impl<'a> Scene<'a> {
            $(
                $(#[$doc])*
                pub fn $name(&self) -> &'a [$ty] {
                    self.arrays.$name
                }
            )*
        }
    };
}

// The eight-byte-aligned array first, then four-byte-aligned arrays, byte
// arrays last: carving in this order needs no padding after an aligned
// start, so footprint = sum of sizes.
scene_arrays! {
    /// The Molang limits the decode read with (none or one), which the
    /// sampler plays Molang keyframes by: `maxMolangChars`,
    /// `maxMolangDepth`, `maxMolangStatements`, `maxMolangSteps`. First:
    /// the one eight-byte-aligned array, at the arena's aligned start.
    molang_bounds: [u64; 4],
    /// Nodes (groups, joints), see [`NodeRecord`].
    nodes: NodeRecord,
    /// Meshes, see [`MeshRecord`].
    meshes: MeshRecord,
    /// Triangle groups of all meshes, see [`MeshGroupRecord`].
    groups: MeshGroupRecord,
    /// Vertex positions of all meshes, in the mesh node's space, model units.
    positions: [f32; 3],
    /// Unit vertex normals, parallel to `positions` for meshes with [`MeshFlags::HAS_NORMALS`].
    normals: [f32; 3],
    /// UV sets of all meshes (U right, V down, 0..1 over the texture's UV space).
    uvs: [f32; 2],
    /// Colour sets of all meshes, RGBA8 as stored.
    colors: [u8; 4],
    /// Triangle indices, relative to the mesh's first vertex; counter-clockwise is the front.
    indices: u32,
    /// Per triangle, the UV bounding box `[u_min, v_min, u_max, v_max]` of its source face.
    uv_rects: [f32; 4],
    /// Materials, see [`MaterialRecord`].
    materials: MaterialRecord,
    /// Textures, see [`TextureRecord`].
    textures: TextureRecord,
    /// Mip levels of all textures, see [`MipRecord`].
    mips: MipRecord,
    /// Custom frame orders of all textures: frame indices.
    frame_steps: u32,
    /// Animation clips, see [`AnimationRecord`].
    animations: AnimationRecord,
    /// Channels of all clips, see [`ChannelRecord`].
    channels: ChannelRecord,
    /// Keyframes of all channels, see [`KeyframeRecord`].
    keyframes: KeyframeRecord,
    /// Per keyframe, its Molang values' programs, see [`KeyframeSource`].
    keyframe_sources: KeyframeSource,
    /// Compiled Molang: keyframe values, blend weights, see [`ProgramRecord`].
    molang_programs: ProgramRecord,
    /// The project's `animation_variable_placeholders` lines, compiled,
    /// which Molang keyframes read, see [`MolangPlaceholder`].
    molang_placeholders: MolangPlaceholder,
    /// Per clip (parallel to `animations`, .bbmodel), its `blend_weight`
    /// program in `molang_programs`; `u32::MAX` for none.
    clip_blend_weights: u32,
    /// The nodes of every Molang program, see [`MolangNode`].
    molang_nodes: MolangNode,
    /// Skins, see [`SkinRecord`].
    skins: SkinRecord,
    /// Joints of all skins, as node indices.
    skin_joints: u32,
    /// Inverse bind matrices, parallel to `skin_joints`, column-major, model space to joint space.
    inverse_binds: [f32; 16],
    /// Per skinned vertex, its influences, see [`InfluenceSpan`].
    influence_spans: InfluenceSpan,
    /// Joint influences of all skinned vertices, see [`Influence`].
    influences: Influence,
    /// J3D clips: what each attached animation file adds to its clip, see [`ClipRecord`].
    clips: ClipRecord,
    /// Tracks of all J3D clips, see [`TrackRecord`].
    tracks: TrackRecord,
    /// Curves of all tracks, one scalar each, see [`CurveRecord`].
    curves: CurveRecord,
    /// Keys of all Hermite curves, see [`HermiteKey`].
    hermite_keys: HermiteKey,
    /// Values of all table curves, one a frame.
    curve_values: f32,
    /// The normalized text (lowercased, whitespace removed) Molang
    /// programs' names and placeholder keys point into.
    molang_text: u8,
    /// RGBA8 pixels of every mip level of every texture.
    pixels: u8,
    /// Decoded text (JSON strings with escapes); valid UTF-8.
    text_pool: u8,
}

/// A decoded model: nodes, meshes, materials, textures, animations and skins
/// in caller memory, borrowing names from the input.
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    format: Format,
    input: &'a [u8],
    arrays: Arrays<'a>,
}

impl<'a> Scene<'a> {
    /// Freezes filled arrays into a scene over `input` (the bytes its input
    /// text spans point into).
    pub fn new(format: Format, input: &'a [u8], arrays: SceneArrays<'a>) -> Self {
        Self {
            format,
            input,
            arrays: arrays.freeze(),
        }
    }

    /// A view of a scene that `decode_into` built in `arena` (an 8-aligned
    /// buffer, carved from its start with `carved`, of which it used `used`):
    /// how an owner of the arena's memory hands the scene out again without
    /// decoding twice.
    pub fn view(
        format: Format,
        input: &'a [u8],
        carved: &SceneCounts,
        used: &SceneCounts,
        arena: &'a [u8],
    ) -> Result<Self, Error> {
        Ok(Self {
            format,
            input,
            arrays: Arrays::view(carved, &mut ArenaReader::new(arena))?.truncate(used),
        })
    }

    /// How many values each of the scene's arrays holds.
    pub fn counts(&self) -> SceneCounts {
        self.arrays.counts()
    }

    /// A scene with nothing in it.
    pub fn empty(format: Format, input: &'a [u8]) -> Self {
        Self {
            format,
            input,
            arrays: Arrays::default(),
        }
    }

    /// The bytes the scene was decoded from (after Yaz0 decompression), which
    /// input text spans point into.
    pub const fn input(&self) -> &'a [u8] {
        self.input
    }

    /// The Molang limits Molang keyframes play by: the decode's
    /// (`molang_bounds`), or the defaults for a scene without them.
    pub fn molang_limits(&self) -> crate::molang::MolangLimits {
        self.arrays
            .molang_bounds
            .first()
            .map_or_else(Default::default, |b| {
                crate::molang::MolangLimits::from_words(*b)
            })
    }

    /// The source format.
    pub const fn format(&self) -> Format {
        self.format
    }

    /// The text a span points to; empty when the span is out of range or not
    /// UTF-8 (decoders only write spans of validated UTF-8).
    pub fn text(&self, text: TextRef) -> &'a str {
        let buffer = match text.source() {
            TextSource::Input => self.input,
            TextSource::Pool => self.arrays.text_pool,
        };
        buffer
            .get(text.range())
            .and_then(|b| core::str::from_utf8(b).ok())
            .unwrap_or_default()
    }

    /// Triangles of all meshes.
    pub fn triangle_count(&self) -> usize {
        self.arrays.indices.len() / 3
    }

    /// Whether `mesh` is drawn: it is flagged visible and so is every node
    /// above it. Blockbench composes visibility through its three.js object
    /// tree (an element inside a hidden group is not drawn), and a J3D
    /// model flags everything visible. Walks at most `nodes().len()`
    /// parents, so a malformed parent chain cannot loop.
    pub fn mesh_drawn(&self, mesh: &MeshRecord) -> bool {
        if mesh.flags & MeshFlags::VISIBLE == 0 {
            return false;
        }
        let mut current = usize::try_from(mesh.node).ok();
        for _ in 0..self.arrays.nodes.len() {
            let Some(record) = current.and_then(|i| self.arrays.nodes.get(i)) else {
                break;
            };
            if !record.visible() {
                return false;
            }
            current = usize::try_from(record.parent).ok();
        }
        true
    }

    /// Triangles of the meshes [`Scene::mesh_drawn`] leaves out.
    pub fn hidden_triangle_count(&self) -> usize {
        self.arrays
            .meshes
            .iter()
            .filter(|m| !self.mesh_drawn(m))
            .map(|m| m.index_count as usize / 3)
            .sum()
    }

    /// The world matrix of `node` at rest: the product of local matrices from
    /// its root down. Walks at most `nodes().len()` parents, so a malformed
    /// parent chain cannot loop.
    pub fn world_matrix(&self, node: usize) -> Mat4 {
        let mut m = Mat4::IDENTITY;
        let mut current = Some(node);
        for _ in 0..self.arrays.nodes.len() {
            let Some(record) = current.and_then(|i| self.arrays.nodes.get(i)) else {
                break;
            };
            let parent = usize::try_from(record.parent).ok();
            let parent_record = parent.and_then(|p| self.arrays.nodes.get(p));
            m = Mat4::local_under(record, parent_record).mul(&m);
            current = parent;
        }
        m
    }

    /// Bounding box of every mesh vertex in model space at rest (node world
    /// matrices applied), or `None` for a scene without vertices.
    pub fn bbox(&self) -> Option<Aabb> {
        let mut bbox: Option<Aabb> = None;
        for mesh in self.arrays.meshes {
            let world = usize::try_from(mesh.node)
                .map(|n| self.world_matrix(n))
                .unwrap_or(Mat4::IDENTITY);
            let start = mesh.first_vertex as usize;
            let end = start.saturating_add(mesh.vertex_count as usize);
            for p in self.arrays.positions.get(start..end).unwrap_or_default() {
                let q = world.transform_point(*p);
                bbox = Some(bbox.map_or(Aabb::point(q), |b| b.with(q)));
            }
        }
        bbox
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;

    #[test]
    fn footprint_of_counts_equals_carved_bytes() {
        let counts = SceneCounts {
            nodes: 3,
            meshes: 2,
            positions: 7,
            indices: 9,
            pixels: 5,
            text_pool: 3,
            ..SceneCounts::default()
        };
        let mut f = Footprint::new();
        counts.add_to(&mut f).unwrap();
        let plan = crate::arena::Plan::new(counts, |_| Ok(())).unwrap();
        let mut words = vec![0u64; plan.arena_words()];
        let mut arena = Arena::from_words(&mut words);
        let arrays = SceneArrays::carve(&counts, &mut arena).unwrap();
        assert_eq!(arrays.nodes.len(), 3);
        assert_eq!(arrays.pixels.len(), 5);
        assert_eq!(arena.used(), f.bytes());
        assert_eq!(plan.arena_bytes(), f.bytes());
    }

    #[test]
    fn scene_bbox_applies_node_world_matrices() {
        let counts = SceneCounts {
            nodes: 1,
            meshes: 1,
            positions: 2,
            ..SceneCounts::default()
        };
        let mut words = vec![0u64; 256];
        let mut arena = Arena::from_words(&mut words);
        let a = SceneArrays::carve(&counts, &mut arena).unwrap();
        a.nodes[0] = NodeRecord {
            parent: -1,
            translation: [10.0, 0.0, 0.0],
            scale: [1.0; 3],
            ..NodeRecord::default()
        };
        a.meshes[0] = MeshRecord {
            node: 0,
            vertex_count: 2,
            ..MeshRecord::default()
        };
        a.positions[0] = [0.0, 0.0, 0.0];
        a.positions[1] = [1.0, 2.0, 3.0];
        let scene = Scene::new(Format::Bbmodel, &[], a);
        let b = scene.bbox().unwrap();
        assert_eq!(b.min, [10.0, 0.0, 0.0]);
        assert_eq!(b.max, [11.0, 2.0, 3.0]);
    }
}
