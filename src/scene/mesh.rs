//! Meshes: vertex streams, triangles, and groups of triangles by material.

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

use super::TextRef;

/// Most UV sets a vertex carries (GX has TEX0–TEX7).
pub const MAX_UV_SETS: usize = 8;
/// Most colour sets a vertex carries (GX has CLR0 and CLR1).
pub const MAX_COLOR_SETS: usize = 2;

/// A mesh, as stored in the arena. Every range below indexes the scene's
/// shared arrays ([`Scene`](super::Scene) accessors resolve them).
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct MeshRecord {
    /// The mesh's name (cube or mesh element name; J3D: empty).
    pub name: TextRef,
    /// The node whose world matrix places the vertices, or −1 for model space.
    pub node: i32,
    /// [`MeshFlags`] bits.
    pub flags: u32,
    /// First vertex in the scene's vertex streams.
    pub first_vertex: u32,
    /// Vertices of this mesh.
    pub vertex_count: u32,
    /// First index in the scene's index array; indices are relative to `first_vertex`.
    pub first_index: u32,
    /// Indices of this mesh (3 per triangle).
    pub index_count: u32,
    /// First group in the scene's group array.
    pub first_group: u32,
    /// Groups of this mesh.
    pub group_count: u32,
    /// UV sets per vertex (0..=8); set `s` of vertex `i` is `uvs[first_uv + i · uv_sets + s]`.
    pub uv_sets: u32,
    /// First entry of this mesh in the scene's UV array.
    pub first_uv: u32,
    /// Colour sets per vertex (0..=2), interleaved like the UV sets.
    pub color_sets: u32,
    /// First entry of this mesh in the scene's colour array.
    pub first_color: u32,
    /// The skin deforming this mesh, or −1.
    pub skin: i32,
    /// First entry of this mesh in the scene's per-vertex influence spans (when skinned).
    pub first_influence_span: u32,
}

/// Bits of [`MeshRecord::flags`].
pub struct MeshFlags;

impl MeshFlags {
    /// Shown (Blockbench `visibility`); hidden meshes keep their triangles.
    pub const VISIBLE: u32 = 1;
    /// The mesh has per-vertex normals in the scene's normal array.
    pub const HAS_NORMALS: u32 = 2;
    /// Every triangle has a UV rectangle in the scene's `uv_rects` array.
    pub const HAS_UV_RECTS: u32 = 4;
}

/// Triangles of one mesh that share a material and sidedness.
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct MeshGroupRecord {
    /// Material index, or −1 for untextured.
    pub material: i32,
    /// [`GroupFlags`] bits.
    pub flags: u32,
    /// Draw order: −1 behind, 0 default, 1 in front (Blockbench render_order).
    pub render_order: i32,
    /// First index of the group, in the scene's index array.
    pub first_index: u32,
    /// Indices of the group (3 per triangle).
    pub index_count: u32,
}

/// Bits of [`MeshGroupRecord::flags`].
pub struct GroupFlags;

impl GroupFlags {
    /// Both sides are drawn; otherwise only the counter-clockwise front.
    pub const DOUBLE_SIDED: u32 = 1;
    /// Seen by the camera only: casts no shadow, occludes nothing in light
    /// transport (the spec's outline hull).
    pub const CAMERA_ONLY: u32 = 2;
}

/// How one vertex is skinned: `count` influences starting at `first` in the
/// scene's influence array.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable,
)]
#[repr(C)]
pub struct InfluenceSpan {
    /// First influence.
    pub first: u32,
    /// Number of influences (all of them; J3D envelopes are not capped).
    pub count: u32,
}

/// One joint's pull on a vertex.
#[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub struct Influence {
    /// Index into the skin's joint list.
    pub joint: u32,
    /// Weight; a vertex's weights sum to 1.
    pub weight: f32,
}
