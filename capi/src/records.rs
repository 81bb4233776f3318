//! The scene's records as C sees them: field for field the library's
//! `#[repr(C)]` records, so a C pointer to an array of them is the
//! library's own slice, viewed in place (no copy, no conversion).
//!
//! `same_layout!` checks at compile time that each mirror has the size,
//! alignment and field offsets of its library record; a library change
//! that moved a field fails this crate's build rather than C programs.

use decoder::scene::{
    AnimationRecord, ChannelRecord, Influence, InfluenceSpan, KeyframeRecord, MaterialRecord,
    MeshGroupRecord, MeshRecord, MipRecord, NodeRecord, SkinRecord, TextRef, TextureRecord,
};

/// Compile-time proof that `$c` is laid out as `$rust`, field by field.
macro_rules! same_layout {
    ($c:ty = $rust:ty { $($field:ident),* $(,)? }) => {
        const _: () = {
            assert!(core::mem::size_of::<$c>() == core::mem::size_of::<$rust>());
            assert!(core::mem::align_of::<$c>() == core::mem::align_of::<$rust>());
            $( assert!(core::mem::offset_of!($c, $field) == core::mem::offset_of!($rust, $field)); )*
        };
    };
}
pub(crate) use same_layout;

/// Text in the scene: a span of the input or of the scene's text pool.
/// Resolve it with `scenedec_text`; the two fields are the library's
/// encoding (the top bit of `start` selects the pool) and may change.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct scenedec_text_ref {
    /// Start of the span (top bit: in the text pool).
    pub start: u32,
    /// Bytes of the span.
    pub len: u32,
}
const _: () = assert!(core::mem::size_of::<scenedec_text_ref>() == core::mem::size_of::<TextRef>());

/// A node of the hierarchy (Blockbench group, J3D joint). Local transform
/// of a point p: `translation + pivot + Rz·Ry·Rx · (scale ⊙ (p − pivot))`,
/// radians; a node's world matrix is its parent's times its local one.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_node {
    /// The node's name.
    pub name: scenedec_text_ref,
    /// Parent node index, or −1 for a root (a J3D parent may come later).
    pub parent: i32,
    /// Bit 1: visible; bit 2: J3D segment scale compensate; bit 4: the
    /// node carries its parent group's main cube alone, where the Hytale
    /// plugin's scale plays (such nodes come last, sorted by parent).
    pub flags: u32,
    /// Translation in the parent's space, model units.
    pub translation: [f32; 3],
    /// Euler angles, radians, X applied first, then Y, then Z.
    pub rotation: [f32; 3],
    /// Scale per axis.
    pub scale: [f32; 3],
    /// The point rotation and scale turn about, in the node's own space.
    pub pivot: [f32; 3],
}
same_layout!(
    scenedec_node = NodeRecord {
        name,
        parent,
        flags,
        translation,
        rotation,
        scale,
        pivot
    }
);

/// A mesh: ranges into the scene's shared vertex, index and group arrays.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_mesh {
    /// The mesh's name (J3D: empty).
    pub name: scenedec_text_ref,
    /// The node whose world matrix places the vertices, or −1.
    pub node: i32,
    /// Bit 1: visible; 2: has normals; 4: has UV rectangles.
    pub flags: u32,
    /// First vertex in `positions` (and `normals`).
    pub first_vertex: u32,
    /// Vertices of the mesh.
    pub vertex_count: u32,
    /// First index in `indices`; indices are relative to `first_vertex`.
    pub first_index: u32,
    /// Indices (3 per triangle, counter-clockwise front).
    pub index_count: u32,
    /// First group in `groups`.
    pub first_group: u32,
    /// Groups of the mesh.
    pub group_count: u32,
    /// UV sets per vertex: set s of vertex i is `uvs[first_uv + i*uv_sets + s]`.
    pub uv_sets: u32,
    /// First entry in `uvs`.
    pub first_uv: u32,
    /// Colour sets per vertex, interleaved like UV sets.
    pub color_sets: u32,
    /// First entry in `colors`.
    pub first_color: u32,
    /// The skin deforming the mesh, or −1.
    pub skin: i32,
    /// First entry in `influence_spans` (when skinned).
    pub first_influence_span: u32,
}
same_layout!(
    scenedec_mesh = MeshRecord {
        name,
        node,
        flags,
        first_vertex,
        vertex_count,
        first_index,
        index_count,
        first_group,
        group_count,
        uv_sets,
        first_uv,
        color_sets,
        first_color,
        skin,
        first_influence_span
    }
);

/// Triangles of one mesh sharing a material and sidedness.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_group {
    /// Material index, or −1 for untextured.
    pub material: i32,
    /// Bit 1: double-sided; bit 2: camera only.
    pub flags: u32,
    /// −1 behind, 0 default, 1 in front.
    pub render_order: i32,
    /// First index in `indices`.
    pub first_index: u32,
    /// Indices of the group.
    pub index_count: u32,
}
same_layout!(
    scenedec_group = MeshGroupRecord {
        material,
        flags,
        render_order,
        first_index,
        index_count
    }
);

/// A material (docs/scene-format.md says what each field means).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_material {
    /// The material's name.
    pub name: scenedec_text_ref,
    /// Base colour texture, or −1.
    pub texture: i32,
    /// Material flag bits (1 vertex colours, 2 alpha emission, 4 texture
    /// unused, 8 TEV unfolded, 16 generated UVs, 32 vertex alpha unused).
    pub flags: u32,
    /// 0 opaque, 1 mask, 2 blend.
    pub alpha_mode: u8,
    /// 0 normal, 1 additive.
    pub blending: u8,
    /// 0 none, 1 back, 2 front, 3 all.
    pub cull: u8,
    /// Entries of `layers` in use.
    pub layer_count: u8,
    /// Alpha below which texels are discarded.
    pub alpha_cutoff: f32,
    /// Layer textures, bottom first.
    pub layers: [i32; 3],
    /// Base colour multiplier, linear RGBA.
    pub base_color: [f32; 4],
    /// J3D TEV stages of the source material.
    pub tev_stages: u8,
    /// The UV set `texture` samples.
    pub uv_set: u8,
    /// With generated UVs: the GX texgen source.
    pub texgen_source: u8,
    /// Zero.
    pub reserved: u8,
}
same_layout!(
    scenedec_material = MaterialRecord {
        name,
        texture,
        flags,
        alpha_mode,
        blending,
        cull,
        layer_count,
        alpha_cutoff,
        layers,
        base_color,
        tev_stages,
        uv_set,
        texgen_source,
        reserved
    }
);

/// A texture. Its RGBA8 pixels (straight alpha, rows top first) are the
/// mips `first_mip .. first_mip + mip_count` of the scene's `mips`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_texture {
    /// The texture's name.
    pub name: scenedec_text_ref,
    /// Width of level 0 in texels.
    pub width: u32,
    /// Height of level 0 in texels.
    pub height: u32,
    /// Bit 1: missing (no pixels); bit 2: texels left out (skip_texels).
    pub flags: u32,
    /// 0x100 PNG, or the GX format code.
    pub source_format: u32,
    /// First level in `mips`.
    pub first_mip: u32,
    /// Levels decoded (0 when missing or left out).
    pub mip_count: u32,
    /// Wrap on U: 0 clamp, 1 repeat, 2 mirror.
    pub wrap_u: u8,
    /// Wrap on V.
    pub wrap_v: u8,
    /// 0 nearest, 1 linear.
    pub min_filter: u8,
    /// 0 nearest, 1 linear.
    pub mag_filter: u8,
    /// Width of the UV space.
    pub uv_width: f32,
    /// Height of the UV space.
    pub uv_height: f32,
    /// Frames of a vertical strip (1 for a still image).
    pub frame_count: u32,
    /// Seconds per frame.
    pub frame_time: f32,
    /// 0 loop, 1 backwards, 2 back and forth, 3 custom.
    pub frame_order: u8,
    /// 1 when frames blend into the next.
    pub frame_interpolate: u8,
    /// Zero.
    pub reserved: [u8; 2],
    /// First step of a custom order in `frame_steps`.
    pub first_frame_step: u32,
    /// Steps of a custom order.
    pub frame_step_count: u32,
}
same_layout!(
    scenedec_texture = TextureRecord {
        name,
        width,
        height,
        flags,
        source_format,
        first_mip,
        mip_count,
        wrap_u,
        wrap_v,
        min_filter,
        mag_filter,
        uv_width,
        uv_height,
        frame_count,
        frame_time,
        frame_order,
        frame_interpolate,
        reserved,
        first_frame_step,
        frame_step_count
    }
);

/// One decoded mip level: `width * height * 4` bytes at `pixels + offset`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_mip {
    /// Byte offset in the scene's `pixels`.
    pub offset: u32,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
}
same_layout!(
    scenedec_mip = MipRecord {
        offset,
        width,
        height
    }
);

/// An animation clip.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_animation {
    /// The clip's name.
    pub name: scenedec_text_ref,
    /// Length in seconds.
    pub length: f32,
    /// 0 once, 1 hold, 2 loop.
    pub loop_mode: u32,
    /// First channel in `channels`.
    pub first_channel: u32,
    /// Channels of the clip.
    pub channel_count: u32,
}
same_layout!(
    scenedec_animation = AnimationRecord {
        name,
        length,
        loop_mode,
        first_channel,
        channel_count
    }
);

/// One animated property of one node.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_channel {
    /// The node it moves.
    pub node: u32,
    /// 0 translation, 1 rotation, 2 scale.
    pub target: u32,
    /// First keyframe in `keyframes` (sorted by time).
    pub first_keyframe: u32,
    /// Keyframes of the channel.
    pub keyframe_count: u32,
    /// Bits: 1 rotation_global, 2 quaternion interpolation, 4 the Hytale
    /// plugin's rules (on rotation its rotation rules; on scale the scale
    /// plays on the group's main-cube node, bit 4 of `scenedec_node.flags`,
    /// not on `node`), 8 loop wrapping (docs/scene-format.md).
    pub flags: u32,
}
same_layout!(
    scenedec_channel = ChannelRecord {
        node,
        target,
        first_keyframe,
        keyframe_count,
        flags
    }
);

/// A keyframe.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_keyframe {
    /// Seconds from the clip's start.
    pub time: f32,
    /// Towards the next keyframe: 0 linear, 1 Catmull-Rom, 2 step, 3 bezier,
    /// 4 unknown (no value next to a keyframe that is not Catmull-Rom or
    /// bezier: the channel is at rest there, as in Blockbench).
    pub interpolation: u32,
    /// Value arriving at the keyframe.
    pub pre: [f32; 3],
    /// Value leaving it.
    pub post: [f32; 3],
    /// 1, or 2 when `post` is a data point of its own.
    pub data_points: u32,
    /// Bezier handle arriving: seconds before the keyframe, per axis.
    pub bezier_left_time: [f32; 3],
    /// Bezier handle arriving: value offset from `pre`.
    pub bezier_left_value: [f32; 3],
    /// Bezier handle leaving: seconds after the keyframe.
    pub bezier_right_time: [f32; 3],
    /// Bezier handle leaving: value offset from `post`.
    pub bezier_right_value: [f32; 3],
    /// Easing of the linear segment arriving here (plugin formats; 0 none).
    pub easing: u32,
    /// The easing's argument.
    pub easing_arg: f32,
}
same_layout!(
    scenedec_keyframe = KeyframeRecord {
        time,
        interpolation,
        pre,
        post,
        data_points,
        bezier_left_time,
        bezier_left_value,
        bezier_right_time,
        bezier_right_value,
        easing,
        easing_arg
    }
);

/// A skin: joints `first_joint ..` of `skin_joints` and `inverse_binds`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_skin {
    /// First joint.
    pub first_joint: u32,
    /// Joints of the skin.
    pub joint_count: u32,
}
same_layout!(
    scenedec_skin = SkinRecord {
        first_joint,
        joint_count
    }
);

/// A skinned vertex's influences: `count` of them at `first` in `influences`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_influence_span {
    /// First influence.
    pub first: u32,
    /// Influences.
    pub count: u32,
}
same_layout!(scenedec_influence_span = InfluenceSpan { first, count });

/// One joint's pull on a vertex.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct scenedec_influence {
    /// Index into the skin's joints.
    pub joint: u32,
    /// Weight; a vertex's weights sum to 1.
    pub weight: f32,
}
same_layout!(scenedec_influence = Influence { joint, weight });
