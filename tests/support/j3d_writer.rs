//! A small J3D writer: a header and sections, each padded to 32 bytes as
//! Nintendo's tools pad them, plus [`ModelBuilder`], which lays out every
//! section scenedec reads from plain descriptions (joints, arrays, shapes,
//! packets, display lists) so a test shows its input.

/// Builds a J3D file section by section.
pub struct J3dWriter {
    magic: [u8; 8],
    sections: Vec<([u8; 4], Vec<u8>)>,
}

impl J3dWriter {
    /// A `.bmd` (`J3D2bmd3`).
    pub fn bmd() -> Self {
        Self {
            magic: *b"J3D2bmd3",
            sections: Vec::new(),
        }
    }

    /// A `.bdl` (`J3D2bdl4`).
    pub fn bdl() -> Self {
        Self {
            magic: *b"J3D2bdl4",
            sections: Vec::new(),
        }
    }

    /// Adds a section whose bytes after the 8-byte id and size are `body`.
    pub fn section(mut self, id: &[u8; 4], body: Vec<u8>) -> Self {
        self.sections.push((*id, body));
        self
    }

    /// The file's bytes.
    pub fn finish(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&self.magic);
        out.extend_from_slice(&[0; 4]); // size, patched below
        out.extend_from_slice(&(self.sections.len() as u32).to_be_bytes());
        out.extend_from_slice(b"SVR3");
        out.extend_from_slice(&[0xFF; 12]);
        for (id, body) in &self.sections {
            let size = (8 + body.len()).next_multiple_of(32);
            out.extend_from_slice(id);
            out.extend_from_slice(&(size as u32).to_be_bytes());
            out.extend_from_slice(body);
            out.resize(out.len() + size - 8 - body.len(), 0);
        }
        let total = out.len() as u32;
        out[8..12].copy_from_slice(&total.to_be_bytes());
        out
    }
}

/// Big-endian field helpers for section bodies.
pub trait PutBe {
    /// Appends a u8.
    fn u8(&mut self, v: u8) -> &mut Self;
    /// Appends a u16.
    fn u16(&mut self, v: u16) -> &mut Self;
    /// Appends an i16.
    fn i16(&mut self, v: i16) -> &mut Self;
    /// Appends a u32.
    fn u32(&mut self, v: u32) -> &mut Self;
    /// Appends an f32.
    fn f32(&mut self, v: f32) -> &mut Self;
    /// Pads with `byte` to a multiple of `align`.
    fn pad(&mut self, align: usize, byte: u8) -> &mut Self;
    /// Overwrites a u32 at `at`.
    fn set_u32(&mut self, at: usize, v: u32) -> &mut Self;
    /// Overwrites a u16 at `at`.
    fn set_u16(&mut self, at: usize, v: u16) -> &mut Self;
}

impl PutBe for Vec<u8> {
    fn u8(&mut self, v: u8) -> &mut Self {
        self.push(v);
        self
    }
    fn u16(&mut self, v: u16) -> &mut Self {
        self.extend_from_slice(&v.to_be_bytes());
        self
    }
    fn i16(&mut self, v: i16) -> &mut Self {
        self.extend_from_slice(&v.to_be_bytes());
        self
    }
    fn u32(&mut self, v: u32) -> &mut Self {
        self.extend_from_slice(&v.to_be_bytes());
        self
    }
    fn f32(&mut self, v: f32) -> &mut Self {
        self.extend_from_slice(&v.to_be_bytes());
        self
    }
    fn pad(&mut self, align: usize, byte: u8) -> &mut Self {
        while !self.len().is_multiple_of(align) {
            self.push(byte);
        }
        self
    }
    fn set_u32(&mut self, at: usize, v: u32) -> &mut Self {
        self[at..at + 4].copy_from_slice(&v.to_be_bytes());
        self
    }
    fn set_u16(&mut self, at: usize, v: u16) -> &mut Self {
        self[at..at + 2].copy_from_slice(&v.to_be_bytes());
        self
    }
}

/// GX attribute codes.
pub mod attr {
    pub const PNMTXIDX: u32 = 0x00;
    pub const TEX0MTXIDX: u32 = 0x01;
    pub const POS: u32 = 0x09;
    pub const NRM: u32 = 0x0A;
    pub const CLR0: u32 = 0x0B;
    pub const CLR1: u32 = 0x0C;
    pub const TEX0: u32 = 0x0D;
    pub const NBT: u32 = 0x19;
    /// `TEXn`.
    pub const fn tex(n: u32) -> u32 {
        TEX0 + n
    }
}

/// GX attribute input kinds.
pub mod input {
    pub const NONE: u32 = 0;
    pub const DIRECT: u32 = 1;
    pub const INDEX8: u32 = 2;
    pub const INDEX16: u32 = 3;
}

/// GX primitive opcodes.
pub mod prim {
    pub const QUADS: u8 = 0x80;
    pub const QUADS2: u8 = 0x88;
    pub const TRIANGLES: u8 = 0x90;
    pub const STRIP: u8 = 0x98;
    pub const FAN: u8 = 0xA0;
    pub const LINES: u8 = 0xA8;
    pub const LINE_STRIP: u8 = 0xB0;
    pub const POINTS: u8 = 0xB8;
}

/// A joint.
#[derive(Clone, Debug)]
pub struct JointDef {
    pub name: String,
    pub parent: Option<usize>,
    pub calc_flags: u8,
    pub scale: [f32; 3],
    /// s16 units of π / 0x7FFF.
    pub rotation: [i16; 3],
    pub translation: [f32; 3],
}

impl JointDef {
    /// A joint at the origin, unturned, unit scale.
    pub fn new(name: &str, parent: Option<usize>) -> Self {
        Self {
            name: name.to_owned(),
            parent,
            calc_flags: 0,
            scale: [1.0; 3],
            rotation: [0; 3],
            translation: [0.0; 3],
        }
    }
}

/// A VTX1 array: format fields and raw element bytes.
#[derive(Clone, Debug)]
pub struct ArrayDef {
    pub attr: u32,
    pub comp_count: u32,
    pub comp_type: u32,
    pub shift: u8,
    pub data: Vec<u8>,
}

impl ArrayDef {
    /// An array of `attr` with raw format fields and element bytes.
    pub fn new(attr: u32, comp_count: u32, comp_type: u32, shift: u8, data: Vec<u8>) -> Self {
        Self {
            attr,
            comp_count,
            comp_type,
            shift,
            data,
        }
    }

    /// F32 XYZ positions.
    pub fn positions_f32(points: &[[f32; 3]]) -> Self {
        let mut data = Vec::new();
        for p in points {
            for c in p {
                data.f32(*c);
            }
        }
        Self {
            attr: attr::POS,
            comp_count: 1,
            comp_type: 4,
            shift: 0,
            data,
        }
    }
}

/// One packet: matrix slots (DRW1 indices, 0xFFFF keeps) and a display list.
#[derive(Clone, Debug, Default)]
pub struct PacketDef {
    pub slots: Vec<u16>,
    pub display_list: Vec<u8>,
}

/// A shape: vertex descriptor, packets, and where INF1 hangs it.
#[derive(Clone, Debug)]
pub struct ShapeDef {
    pub display_flags: u8,
    pub attributes: Vec<(u32, u32)>,
    pub packets: Vec<PacketDef>,
    pub material: usize,
    pub joint: usize,
}

/// A material: name and GX cull mode.
#[derive(Clone, Debug)]
pub struct MaterialDef {
    pub name: String,
    pub cull: u32,
}

/// Everything a model holds, laid out by [`ModelBuilder::build`].
#[derive(Clone, Debug)]
pub struct ModelBuilder {
    pub bdl: bool,
    pub scaling_rule: u16,
    /// INF1's vertex count; `None` takes the position array's length.
    pub vertex_count: Option<u32>,
    pub joints: Vec<JointDef>,
    pub materials: Vec<MaterialDef>,
    pub arrays: Vec<ArrayDef>,
    pub envelopes: Vec<Vec<(u16, f32)>>,
    /// Row-major 3×4 inverse binds, one per joint index used by envelopes.
    pub inverse_binds: Vec<[f32; 12]>,
    /// (kind 0 joint / 1 envelope, index).
    pub draw_matrices: Vec<(u8, u16)>,
    pub shapes: Vec<ShapeDef>,
    /// Replaces the generated INF1 hierarchy (type, index) nodes.
    pub hierarchy: Option<Vec<(u16, u16)>>,
    /// TEX1 textures; empty writes an empty TEX1 (as before textures existed).
    pub textures: Vec<TextureDef>,
    /// GX state per material (parallel to `materials`); empty writes the
    /// minimal MAT3 (names and cull modes only, every other pool absent).
    pub material_states: Vec<MaterialState>,
}

/// A TEX1 texture: its BTI header fields and image data.
#[derive(Clone, Debug)]
pub struct TextureDef {
    pub name: String,
    /// GX format code (0 I4 … 0xE CMPR).
    pub format: u8,
    pub width: u16,
    pub height: u16,
    /// 0 clamp, 1 repeat, 2 mirror.
    pub wrap_s: u8,
    pub wrap_t: u8,
    /// Palette entry format (0 IA8, 1 RGB565, 2 RGB5A3).
    pub palette_format: u8,
    /// Palette entries, written when non-empty.
    pub palette: Vec<u16>,
    /// 0 near … 5 lin-mip-lin.
    pub min_filter: u8,
    pub mag_filter: u8,
    pub max_anisotropy: u8,
    /// Eighths of a level.
    pub min_lod: i8,
    pub max_lod: i8,
    /// Hundredths of a level.
    pub lod_bias: i16,
    /// As stored (0 is read as one level).
    pub mip_count: u8,
    /// Every level's encoded bytes, back to back.
    pub data: Vec<u8>,
    /// Point the header at an earlier texture's image data (and palette)
    /// instead of writing `data`.
    pub share_data_of: Option<usize>,
    /// Write a data offset of 0 (no image).
    pub no_data: bool,
}

impl TextureDef {
    /// A one-level texture with linear filters and clamped wrap.
    pub fn new(name: &str, format: u8, width: u16, height: u16, data: Vec<u8>) -> Self {
        Self {
            name: name.to_owned(),
            format,
            width,
            height,
            wrap_s: 0,
            wrap_t: 0,
            palette_format: 0,
            palette: Vec::new(),
            min_filter: 1,
            mag_filter: 1,
            max_anisotropy: 0,
            min_lod: 0,
            max_lod: 0,
            lod_bias: 0,
            mip_count: 1,
            data,
            share_data_of: None,
            no_data: false,
        }
    }
}

/// A material's GX state, for the full MAT3 layout (one record per material
/// in every pool).
#[derive(Clone, Debug)]
pub struct MaterialState {
    /// Entry byte 0 (1 opaque, 2 alpha-tested, 4 translucent).
    pub mode: u8,
    /// TEX1 index per texture slot (up to 8), through the texture table.
    pub textures: Vec<Option<u16>>,
    /// Material colour 0, RGBA8.
    pub material_color: [u8; 4],
    /// Ambient colour 0.
    pub ambient_color: [u8; 4],
    /// Colour channels in use.
    pub channel_count: u8,
    /// Colour channel 0 takes its material colour from the vertices.
    pub vertex_colors: bool,
    /// compare0, ref0, op, compare1, ref1.
    pub alpha_compare: [u8; 5],
    /// mode, source, destination, logic op.
    pub blend: [u8; 4],
    /// test, function, write.
    pub z_mode: [u8; 3],
    /// Konst colour 0.
    pub konst_color: [u8; 4],
    /// TEV colour 0 (s16 RGBA).
    pub tev_color: [i16; 4],
    /// TEV stages; empty writes one stage of texture × rasterised colour
    /// (texture 0 when slot 0 has one).
    pub tev: Vec<TevDef>,
    /// Texture coordinate generator 0's source (GX_TG_TEX0 = 4).
    pub tex_gen_source: u8,
}

/// One TEV stage: its order, inputs and konst selectors (added, unbiased,
/// unscaled, clamped, into PREV).
#[derive(Clone, Debug)]
pub struct TevDef {
    /// Texture coordinate, texture map, colour channel.
    pub order: [u8; 3],
    /// Colour inputs A, B, C, D (GX_CC_*).
    pub color_in: [u8; 4],
    /// Alpha inputs A, B, C, D (GX_CA_*).
    pub alpha_in: [u8; 4],
    /// Konst colour and alpha selectors.
    pub konst: [u8; 2],
    /// Colour and alpha scale (GX_CS_SCALE_1 0, _2 1, _4 2, GX_CS_DIVIDE_2 3).
    pub scale: u8,
}

impl Default for MaterialState {
    fn default() -> Self {
        Self {
            mode: 1,
            textures: Vec::new(),
            material_color: [255; 4],
            ambient_color: [50, 50, 50, 50],
            channel_count: 1,
            vertex_colors: false,
            alpha_compare: [7, 0, 1, 7, 0],
            blend: [0, 1, 0, 3],
            z_mode: [1, 3, 1],
            konst_color: [255; 4],
            tev_color: [0, 0, 0, 255],
            tev: Vec::new(),
            tex_gen_source: 4,
        }
    }
}

/// Offsets of MAT3 header fields (from the section's start).
pub mod mat3_header {
    pub const ENTRIES: usize = 0x0C;
    pub const REMAP: usize = 0x10;
    pub const NAMES: usize = 0x14;
    pub const INDIRECT: usize = 0x18;
    pub const CULL: usize = 0x1C;
    pub const MATERIAL_COLORS: usize = 0x20;
    pub const CHANNEL_COUNTS: usize = 0x24;
    pub const CHANNELS: usize = 0x28;
    pub const AMBIENT_COLORS: usize = 0x2C;
    pub const LIGHTS: usize = 0x30;
    pub const TEX_GEN_COUNTS: usize = 0x34;
    pub const TEX_GENS: usize = 0x38;
    pub const POST_TEX_GENS: usize = 0x3C;
    pub const TEX_MATRICES: usize = 0x40;
    pub const POST_TEX_MATRICES: usize = 0x44;
    pub const TEXTURES: usize = 0x48;
    pub const TEV_ORDERS: usize = 0x4C;
    pub const TEV_COLORS: usize = 0x50;
    pub const KONST_COLORS: usize = 0x54;
    pub const TEV_STAGE_COUNTS: usize = 0x58;
    pub const TEV_STAGES: usize = 0x5C;
    pub const SWAP_MODES: usize = 0x60;
    pub const SWAP_TABLES: usize = 0x64;
    pub const FOG: usize = 0x68;
    pub const ALPHA_COMPARE: usize = 0x6C;
    pub const BLEND: usize = 0x70;
    pub const Z_MODE: usize = 0x74;
    pub const Z_COMP_LOC: usize = 0x78;
    pub const DITHER: usize = 0x7C;
    pub const NBT_SCALE: usize = 0x80;
}

/// A display list: `op`, the vertex count, then `vertices` (each already
/// encoded), then zero padding to 32 bytes.
pub fn draw(op: u8, vertices: &[Vec<u8>]) -> Vec<u8> {
    let mut dl = Vec::new();
    dl.u8(op).u16(vertices.len() as u16);
    for v in vertices {
        dl.extend_from_slice(v);
    }
    dl
}

/// Pads a display list with zeros to 32 bytes, as J3D files do.
pub fn padded(mut dl: Vec<u8>) -> Vec<u8> {
    dl.pad(32, 0);
    dl
}

/// Vertices that are one u16 index each (a POS-only INDEX16 descriptor).
pub fn indices16(indices: &[u16]) -> Vec<Vec<u8>> {
    indices.iter().map(|i| i.to_be_bytes().to_vec()).collect()
}

impl ModelBuilder {
    /// One joint, one material (double-sided), F32 positions, one shape of
    /// one packet whose display list is `display_list` (POS INDEX16 only).
    pub fn single_shape(positions: &[[f32; 3]], display_list: Vec<u8>) -> Self {
        Self {
            bdl: false,
            scaling_rule: 0,
            vertex_count: None,
            joints: vec![JointDef::new("root", None)],
            materials: vec![MaterialDef {
                name: "mat".to_owned(),
                cull: 0,
            }],
            arrays: vec![ArrayDef::positions_f32(positions)],
            envelopes: Vec::new(),
            inverse_binds: Vec::new(),
            draw_matrices: vec![(0, 0)],
            shapes: vec![ShapeDef {
                display_flags: 0,
                attributes: vec![(attr::POS, input::INDEX16)],
                packets: vec![PacketDef {
                    slots: vec![0],
                    display_list: padded(display_list),
                }],
                material: 0,
                joint: 0,
            }],
            hierarchy: None,
            textures: Vec::new(),
            material_states: Vec::new(),
        }
    }

    /// The hierarchy the builder writes: each joint, then the shapes under
    /// it (each behind its material), then its children.
    pub fn default_hierarchy(&self) -> Vec<(u16, u16)> {
        fn joint(b: &ModelBuilder, j: usize, out: &mut Vec<(u16, u16)>) {
            out.push((0x10, j as u16));
            out.push((0x01, 0));
            for (s, shape) in b.shapes.iter().enumerate().filter(|(_, s)| s.joint == j) {
                out.push((0x11, shape.material as u16));
                out.push((0x01, 0));
                out.push((0x12, s as u16));
                out.push((0x02, 0));
            }
            for c in (0..b.joints.len()).filter(|&c| b.joints[c].parent == Some(j)) {
                joint(b, c, out);
            }
            out.push((0x02, 0));
        }
        let mut out = Vec::new();
        for r in (0..self.joints.len()).filter(|&r| self.joints[r].parent.is_none()) {
            joint(self, r, &mut out);
        }
        out.push((0x00, 0));
        out
    }

    fn inf1(&self) -> Vec<u8> {
        let positions = self
            .arrays
            .iter()
            .find(|a| a.attr == attr::POS)
            .map_or(0, |a| (a.data.len() / stride(a)) as u32);
        let packets: usize = self.shapes.iter().map(|s| s.packets.len()).sum();
        let mut b = Vec::new();
        b.u16(self.scaling_rule).u16(0xFFFF).u32(packets as u32);
        b.u32(self.vertex_count.unwrap_or(positions)).u32(0x18);
        for (t, i) in self
            .hierarchy
            .clone()
            .unwrap_or_else(|| self.default_hierarchy())
        {
            b.u16(t).u16(i);
        }
        b
    }

    fn vtx1(&self) -> Vec<u8> {
        // Header (8) + format offset (4) + 13 data offsets = 0x40, then formats.
        let mut b = vec![0u8; 0x40 - 8];
        b.set_u32(0, 0x40);
        for a in &self.arrays {
            b.u32(a.attr)
                .u32(a.comp_count)
                .u32(a.comp_type)
                .u8(a.shift)
                .u8(0xFF)
                .u16(0xFFFF);
        }
        b.u32(0xFF).u32(1).u32(0).u8(0).u8(0xFF).u16(0xFFFF);
        for slot in 0..13 {
            let attr = match slot {
                0 => attr::POS,
                1 => attr::NRM,
                2 => attr::NBT,
                3 => attr::CLR0,
                4 => attr::CLR1,
                t => attr::tex(t as u32 - 5),
            };
            if let Some(a) = self.arrays.iter().find(|a| a.attr == attr) {
                b.pad(32, 0);
                let at = b.len() + 8;
                b.set_u32(4 + 4 * slot, at as u32);
                b.extend_from_slice(&a.data);
            }
        }
        b
    }

    fn evp1(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.u16(self.envelopes.len() as u16).u16(0xFFFF);
        let table = b.len();
        b.extend_from_slice(&[0; 16]);
        let base = |b: &Vec<u8>| (b.len() + 8) as u32;
        let counts = base(&b);
        for e in &self.envelopes {
            b.u8(e.len() as u8);
        }
        b.pad(4, 0);
        let indices = base(&b);
        for (j, _) in self.envelopes.iter().flatten() {
            b.u16(*j);
        }
        b.pad(4, 0);
        let weights = base(&b);
        for (_, w) in self.envelopes.iter().flatten() {
            b.f32(*w);
        }
        let binds = base(&b);
        for m in &self.inverse_binds {
            for v in m {
                b.f32(*v);
            }
        }
        if !self.envelopes.is_empty() {
            b.set_u32(table, counts).set_u32(table + 4, indices);
            b.set_u32(table + 8, weights).set_u32(table + 12, binds);
        }
        b
    }

    fn drw1(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.u16(self.draw_matrices.len() as u16)
            .u16(0xFFFF)
            .u32(0x14)
            .u32(0);
        for (kind, _) in &self.draw_matrices {
            b.u8(*kind);
        }
        b.pad(2, 0);
        let data = (b.len() + 8) as u32;
        b.set_u32(8, data);
        for (_, index) in &self.draw_matrices {
            b.u16(*index);
        }
        b
    }

    fn jnt1(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.u16(self.joints.len() as u16)
            .u16(0xFFFF)
            .u32(0x18)
            .u32(0)
            .u32(0);
        for j in &self.joints {
            b.u16(0).u8(j.calc_flags).u8(0xFF);
            for s in j.scale {
                b.f32(s);
            }
            for r in j.rotation {
                b.i16(r);
            }
            b.u16(0xFFFF);
            for t in j.translation {
                b.f32(t);
            }
            b.f32(0.0);
            for _ in 0..6 {
                b.f32(0.0);
            }
        }
        let remap = (b.len() + 8) as u32;
        b.set_u32(8, remap);
        for i in 0..self.joints.len() {
            b.u16(i as u16);
        }
        b.pad(4, 0);
        let names = (b.len() + 8) as u32;
        b.set_u32(12, names);
        name_table(&mut b, self.joints.iter().map(|j| j.name.as_str()));
        b
    }

    fn shp1(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.u16(self.shapes.len() as u16).u16(0xFFFF);
        let table = b.len();
        b.extend_from_slice(&[0; 0x2C - 8 - 4]);
        let at = |b: &Vec<u8>| (b.len() + 8) as u32;
        // Shape entries.
        let entries = at(&b);
        let mut descriptor_offsets = Vec::new();
        let mut descriptors = Vec::new();
        let (mut first_group, mut first_packet) = (0u16, 0u16);
        for s in &self.shapes {
            descriptor_offsets.push(descriptors.len());
            for (a, i) in &s.attributes {
                descriptors.u32(*a).u32(*i);
            }
            descriptors.u32(0xFF).u32(0);
            b.u8(s.display_flags).u8(0xFF).u16(s.packets.len() as u16);
            b.u16(*descriptor_offsets.last().unwrap() as u16)
                .u16(first_group)
                .u16(first_packet)
                .u16(0xFFFF);
            for _ in 0..7 {
                b.f32(0.0);
            }
            first_group += s.packets.len() as u16;
            first_packet += s.packets.len() as u16;
        }
        let remap = at(&b);
        for i in 0..self.shapes.len() {
            b.u16(i as u16);
        }
        b.pad(4, 0);
        let descriptor_table = at(&b);
        b.extend_from_slice(&descriptors);
        let matrix_table = at(&b);
        let mut firsts = Vec::new();
        let mut n = 0u32;
        for p in self.shapes.iter().flat_map(|s| &s.packets) {
            firsts.push(n);
            for v in &p.slots {
                b.u16(*v);
            }
            n += p.slots.len() as u32;
        }
        b.pad(32, 0);
        let display_lists = at(&b);
        let mut dl_offsets = Vec::new();
        for p in self.shapes.iter().flat_map(|s| &s.packets) {
            dl_offsets.push((at(&b) - display_lists, p.display_list.len() as u32));
            b.extend_from_slice(&p.display_list);
            b.pad(32, 0);
        }
        let matrix_groups = at(&b);
        for (p, first) in self.shapes.iter().flat_map(|s| &s.packets).zip(&firsts) {
            b.u16(p.slots.first().copied().unwrap_or(0))
                .u16(p.slots.len() as u16)
                .u32(*first);
        }
        let packets = at(&b);
        for (offset, size) in dl_offsets {
            b.u32(size).u32(offset);
        }
        for (i, v) in [
            entries,
            remap,
            0,
            descriptor_table,
            matrix_table,
            display_lists,
            matrix_groups,
            packets,
        ]
        .into_iter()
        .enumerate()
        {
            b.set_u32(table + 4 * i, v);
        }
        b
    }

    fn mat3(&self) -> Vec<u8> {
        if !self.material_states.is_empty() {
            return self.mat3_full();
        }
        let mut b = Vec::new();
        b.u16(self.materials.len() as u16).u16(0xFFFF);
        let table = b.len();
        b.extend_from_slice(&[0; 0x84 - 8 - 4]);
        let at = |b: &Vec<u8>| (b.len() + 8) as u32;
        let entries = at(&b);
        for (i, _) in self.materials.iter().enumerate() {
            let mut e = vec![0u8; 0x14C];
            e[0] = 1;
            e[1] = i as u8; // cull mode index
            b.extend_from_slice(&e);
        }
        let remap = at(&b);
        for i in 0..self.materials.len() {
            b.u16(i as u16);
        }
        b.pad(4, 0);
        let names = at(&b);
        name_table(&mut b, self.materials.iter().map(|m| m.name.as_str()));
        b.pad(4, 0);
        let culls = at(&b);
        for m in &self.materials {
            b.u32(m.cull);
        }
        b.set_u32(table, entries)
            .set_u32(table + 4, remap)
            .set_u32(table + 8, names);
        b.set_u32(table + 0x1C - 0x0C, culls);
        b
    }

    /// MAT3 with every pool: material `i` uses record `i` of each (one
    /// texture-table entry per used slot), Nintendo's 4-byte pool padding,
    /// lights and post tex gens/matrices absent, no indirect table.
    fn mat3_full(&self) -> Vec<u8> {
        use mat3_header as h;
        let n = self.materials.len();
        let state = |i: usize| self.material_states.get(i).cloned().unwrap_or_default();
        let mut b = Vec::new();
        b.u16(n as u16).u16(0xFFFF);
        b.extend_from_slice(&[0; 0x84 - 8 - 4]);
        let at = |b: &Vec<u8>| (b.len() + 8) as u32;
        // Offsets are set as the pools are written (section-relative).
        let mut header: Vec<(usize, u32)> = Vec::new();
        // The texture table: each used slot, in material and slot order.
        let mut table: Vec<u16> = Vec::new();
        let mut slot_index = vec![[0xFFFFu16; 8]; n];
        for (i, slots) in slot_index.iter_mut().enumerate() {
            for (k, t) in state(i).textures.iter().enumerate().take(8) {
                if let Some(t) = t {
                    slots[k] = table.len() as u16;
                    table.push(*t);
                }
            }
        }
        // Each material's TEV stages, written one after another.
        let tev_of = |i: usize| -> Vec<TevDef> {
            let s = state(i);
            if !s.tev.is_empty() {
                return s.tev;
            }
            let t = if s.textures.first().copied().flatten().is_some() {
                0
            } else {
                0xFF
            };
            vec![TevDef {
                order: [t, t, 4],
                color_in: [0xF, 8, 10, 0xF],
                alpha_in: [7, 4, 5, 7],
                konst: [0x0C, 0x1C],
                scale: 0,
            }]
        };
        let tev_base: Vec<u16> = (0..n)
            .scan(0u16, |base, i| {
                let b = *base;
                *base += tev_of(i).len() as u16;
                Some(b)
            })
            .collect();
        header.push((h::ENTRIES, at(&b)));
        for (i, slots) in slot_index.iter().enumerate() {
            let s = state(i);
            let idx = i as u16;
            let mut e = Vec::new();
            e.u8(s.mode);
            for _ in 0..7 {
                e.u8(i as u8); // cull, chan count, tex gen count, stage count, zcomp, zmode, dither
            }
            e.u16(idx).u16(0xFFFF); // material colours
            e.u16(idx).u16(0xFFFF).u16(0xFFFF).u16(0xFFFF); // channels
            e.u16(idx).u16(0xFFFF); // ambient colours
            for _ in 0..8 {
                e.u16(0xFFFF); // lights
            }
            let textured = s.textures.iter().any(Option::is_some);
            e.u16(if textured { idx } else { 0xFFFF }); // tex gens
            for _ in 1..8 {
                e.u16(0xFFFF);
            }
            for _ in 0..8 {
                e.u16(0xFFFF); // post tex gens
            }
            e.u16(if textured { idx } else { 0xFFFF }); // tex matrices
            for _ in 1..10 {
                e.u16(0xFFFF);
            }
            for _ in 0..20 {
                e.u16(0xFFFF); // post tex matrices
            }
            for slot in slots {
                e.u16(*slot);
            }
            e.u16(idx).u16(0xFFFF).u16(0xFFFF).u16(0xFFFF); // konst colours
            let tev = tev_of(i);
            for half in 0..2 {
                // konst colour, then alpha selectors
                for k in 0..16 {
                    e.u8(tev.get(k).map_or([0x0C, 0x1C][half], |t| t.konst[half]));
                }
            }
            let stage_indices = |e: &mut Vec<u8>| {
                for k in 0..16 {
                    e.u16(if k < tev.len() {
                        tev_base[i] + k as u16
                    } else {
                        0xFFFF
                    });
                }
            };
            stage_indices(&mut e); // tev orders
            e.u16(idx).u16(0xFFFF).u16(0xFFFF).u16(0xFFFF); // tev colours
            stage_indices(&mut e); // tev stages
            e.u16(idx); // swap modes
            for _ in 1..16 {
                e.u16(0xFFFF);
            }
            e.u16(idx).u16(0xFFFF).u16(0xFFFF).u16(0xFFFF); // swap tables
            for _ in 0..12 {
                e.u16(0xFFFF);
            }
            e.u16(idx).u16(idx).u16(idx).u16(0xFFFF); // fog, alpha compare, blend, -
            assert_eq!(e.len(), 0x14C);
            b.extend_from_slice(&e);
        }
        header.push((h::REMAP, at(&b)));
        for i in 0..n {
            b.u16(i as u16);
        }
        b.pad(4, 0);
        let names = at(&b);
        header.push((h::NAMES, names));
        header.push((h::INDIRECT, names));
        name_table(&mut b, self.materials.iter().map(|m| m.name.as_str()));
        b.pad(4, 0);
        let mut pool = |b: &mut Vec<u8>, field: usize, write: &dyn Fn(&mut Vec<u8>, usize)| {
            header.push((field, at(b)));
            for i in 0..n {
                write(b, i);
            }
            b.pad(4, 0);
        };
        pool(&mut b, h::CULL, &|b, i| {
            b.u32(self.materials[i].cull);
        });
        pool(&mut b, h::MATERIAL_COLORS, &|b, i| {
            b.extend_from_slice(&state(i).material_color);
        });
        pool(&mut b, h::CHANNEL_COUNTS, &|b, i| {
            b.u8(state(i).channel_count);
        });
        pool(&mut b, h::CHANNELS, &|b, i| {
            let source = u8::from(state(i).vertex_colors);
            b.u8(0).u8(source).u8(0).u8(1).u8(2).u8(0).u16(0xFFFF);
        });
        pool(&mut b, h::AMBIENT_COLORS, &|b, i| {
            b.extend_from_slice(&state(i).ambient_color);
        });
        pool(&mut b, h::LIGHTS, &|_, _| {});
        pool(&mut b, h::TEX_GEN_COUNTS, &|b, i| {
            b.u8(u8::from(state(i).textures.iter().any(Option::is_some)));
        });
        pool(&mut b, h::TEX_GENS, &|b, i| {
            b.u8(1).u8(state(i).tex_gen_source).u8(60).u8(0xFF);
        });
        pool(&mut b, h::TEX_MATRICES, &|b, _| {
            b.u8(0).u8(0).u16(0xFFFF);
            for v in [0.5f32, 0.5, 0.0, 1.0, 1.0] {
                b.f32(v);
            }
            b.i16(0).u16(0xFFFF).f32(0.0).f32(0.0);
            for r in 0..4 {
                for c in 0..4 {
                    b.f32(if r == c { 1.0 } else { 0.0 });
                }
            }
        });
        header.push((h::TEXTURES, at(&b)));
        for t in &table {
            b.u16(*t);
        }
        b.pad(4, 0);
        let mut pool = |b: &mut Vec<u8>, field: usize, write: &dyn Fn(&mut Vec<u8>, usize)| {
            header.push((field, at(b)));
            for i in 0..n {
                write(b, i);
            }
            b.pad(4, 0);
        };
        pool(&mut b, h::TEV_ORDERS, &|b, i| {
            for t in tev_of(i) {
                b.u8(t.order[0]).u8(t.order[1]).u8(t.order[2]).u8(0xFF);
            }
        });
        pool(&mut b, h::TEV_COLORS, &|b, i| {
            for c in state(i).tev_color {
                b.i16(c);
            }
        });
        pool(&mut b, h::KONST_COLORS, &|b, i| {
            b.extend_from_slice(&state(i).konst_color);
        });
        pool(&mut b, h::TEV_STAGE_COUNTS, &|b, i| {
            b.u8(tev_of(i).len() as u8);
        });
        pool(&mut b, h::TEV_STAGES, &|b, i| {
            for t in tev_of(i) {
                b.u8(0xFF);
                b.extend_from_slice(&t.color_in);
                b.u8(0).u8(0).u8(t.scale).u8(1).u8(0); // add, no bias, scale, clamp, PREV
                b.extend_from_slice(&t.alpha_in);
                b.u8(0).u8(0).u8(t.scale).u8(1).u8(0).u8(0xFF);
            }
        });
        pool(&mut b, h::SWAP_MODES, &|b, _| {
            b.u8(0).u8(0).u16(0xFFFF);
        });
        pool(&mut b, h::SWAP_TABLES, &|b, _| {
            b.u8(0).u8(1).u8(2).u8(3);
        });
        pool(&mut b, h::FOG, &|b, _| {
            b.u8(0).u8(0).u16(320);
            for _ in 0..4 {
                b.f32(0.0);
            }
            b.u32(0xFFFFFFFF);
            for _ in 0..10 {
                b.u16(0);
            }
        });
        pool(&mut b, h::ALPHA_COMPARE, &|b, i| {
            b.extend_from_slice(&state(i).alpha_compare);
            b.u8(0xFF).u16(0xFFFF);
        });
        pool(&mut b, h::BLEND, &|b, i| {
            b.extend_from_slice(&state(i).blend);
        });
        pool(&mut b, h::Z_MODE, &|b, i| {
            b.extend_from_slice(&state(i).z_mode);
            b.u8(0xFF);
        });
        pool(&mut b, h::Z_COMP_LOC, &|b, _| {
            b.u8(1);
        });
        pool(&mut b, h::DITHER, &|b, _| {
            b.u8(1);
        });
        pool(&mut b, h::NBT_SCALE, &|b, _| {
            b.u8(0).u8(0xFF).u16(0xFFFF).f32(1.0).f32(1.0).f32(1.0);
        });
        for (field, value) in header {
            b.set_u32(field - 8, value);
        }
        b
    }

    /// TEX1: the header table, names, then each palette and image (32-byte
    /// aligned); offsets in each header count from that header.
    fn tex1(&self) -> Vec<u8> {
        let mut b = Vec::new();
        if self.textures.is_empty() {
            b.u16(0).u16(0xFFFF).u32(0x20).u32(0x20);
            return b;
        }
        let n = self.textures.len();
        b.u16(n as u16).u16(0xFFFF).u32(0x20).u32(0);
        b.pad(0x18, 0);
        let headers = b.len() + 8;
        b.extend_from_slice(&vec![0; 0x20 * n]);
        let names = b.len() + 8;
        b.set_u32(8, names as u32);
        name_table(&mut b, self.textures.iter().map(|t| t.name.as_str()));
        // (palette, data) section offsets per texture.
        let mut places: Vec<(usize, usize)> = Vec::new();
        for t in &self.textures {
            if let Some(j) = t.share_data_of {
                places.push(places[j]);
                continue;
            }
            b.pad(32, 0);
            let palette = b.len() + 8;
            for e in &t.palette {
                b.u16(*e);
            }
            b.pad(32, 0);
            let data = b.len() + 8;
            b.extend_from_slice(&t.data);
            places.push((palette, data));
        }
        for (i, (t, (palette, data))) in self.textures.iter().zip(&places).enumerate() {
            let header = headers + 0x20 * i;
            let mut h = Vec::new();
            h.u8(t.format).u8(0).u16(t.width).u16(t.height);
            h.u8(t.wrap_s).u8(t.wrap_t);
            h.u8(u8::from(!t.palette.is_empty())).u8(t.palette_format);
            h.u16(t.palette.len() as u16);
            h.u32(if t.palette.is_empty() {
                0
            } else {
                (palette - header) as u32
            });
            h.u8(u8::from(t.mip_count > 1))
                .u8(0)
                .u8(0)
                .u8(t.max_anisotropy);
            h.u8(t.min_filter).u8(t.mag_filter);
            h.u8(t.min_lod as u8).u8(t.max_lod as u8);
            h.u8(t.mip_count).u8(0).i16(t.lod_bias);
            h.u32(if t.no_data { 0 } else { (data - header) as u32 });
            b[header - 8..header - 8 + 0x20].copy_from_slice(&h);
        }
        b
    }

    /// The file.
    pub fn build(&self) -> Vec<u8> {
        self.build_sections(&SECTION_ORDER)
    }

    /// The body (bytes after the id and size) of section `id`, one of
    /// [`SECTION_ORDER`].
    pub fn section_body(&self, id: &[u8; 4]) -> Vec<u8> {
        match id {
            b"INF1" => self.inf1(),
            b"VTX1" => self.vtx1(),
            b"EVP1" => self.evp1(),
            b"DRW1" => self.drw1(),
            b"JNT1" => self.jnt1(),
            b"SHP1" => self.shp1(),
            b"MAT3" => self.mat3(),
            b"TEX1" => self.tex1(),
            other => panic!("no such section {:?}", String::from_utf8_lossy(other)),
        }
    }

    /// The file with only `ids`, in that order (for missing sections and for
    /// putting a chosen section last).
    pub fn build_sections(&self, ids: &[&[u8; 4]]) -> Vec<u8> {
        let mut w = if self.bdl {
            J3dWriter::bdl()
        } else {
            J3dWriter::bmd()
        };
        for id in ids {
            w = w.section(id, self.section_body(id));
        }
        w.finish()
    }

    /// The file without the sections in `omit`.
    pub fn build_without(&self, omit: &[&[u8; 4]]) -> Vec<u8> {
        let ids: Vec<&[u8; 4]> = SECTION_ORDER
            .iter()
            .copied()
            .filter(|id| !omit.contains(id))
            .collect();
        self.build_sections(&ids)
    }
}

/// The sections [`ModelBuilder::build`] writes, in its order.
pub const SECTION_ORDER: [&[u8; 4]; 8] = [
    b"INF1", b"VTX1", b"EVP1", b"DRW1", b"JNT1", b"SHP1", b"MAT3", b"TEX1",
];

/// Reads a big-endian u32 of a built file.
pub fn be_u32(file: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(file[at..at + 4].try_into().unwrap())
}

/// Reads a big-endian u16 of a built file.
pub fn be_u16(file: &[u8], at: usize) -> u16 {
    u16::from_be_bytes(file[at..at + 2].try_into().unwrap())
}

/// The file offset and size of section `id` in a built (well-formed) file.
pub fn find_section(file: &[u8], id: &[u8; 4]) -> Option<(usize, usize)> {
    let count = be_u32(file, 12) as usize;
    let mut at = 0x20;
    for _ in 0..count {
        let size = be_u32(file, at + 4) as usize;
        if &file[at..at + 4] == id {
            return Some((at, size));
        }
        at += size;
    }
    None
}

/// The file offset of section `id` in a built file; panics when absent.
pub fn section_offset(file: &[u8], id: &[u8; 4]) -> usize {
    find_section(file, id)
        .unwrap_or_else(|| panic!("no {} section", String::from_utf8_lossy(id)))
        .0
}

/// The file offset of the display list of packet `packet` (counted over all
/// shapes, as the builder lays them out) in a built file.
pub fn display_list_offset(file: &[u8], packet: usize) -> usize {
    let shp1 = section_offset(file, b"SHP1");
    let lists = be_u32(file, shp1 + 0x20) as usize;
    let packets = be_u32(file, shp1 + 0x28) as usize;
    shp1 + lists + be_u32(file, shp1 + packets + 8 * packet + 4) as usize
}

/// The file offset of the first element of the VTX1 array in `slot` (0 POS,
/// 1 NRM, 2 NBT, 3–4 CLR0–1, 5–12 TEX0–7) of a built file.
pub fn vertex_array_offset(file: &[u8], slot: usize) -> usize {
    let vtx1 = section_offset(file, b"VTX1");
    vtx1 + be_u32(file, vtx1 + 0x0C + 4 * slot) as usize
}

/// Bytes of one element of `a` (only the formats the fixtures use; unknown
/// component types count as one byte, so hostile formats still build).
fn stride(a: &ArrayDef) -> usize {
    let comps = match (a.attr, a.comp_count) {
        (attr::POS, 0) => 2,
        (attr::POS, _) => 3,
        (attr::NRM, 0) => 3,
        (attr::NRM | attr::NBT, _) => 9,
        (attr::CLR0 | attr::CLR1, _) => {
            return [2, 3, 4, 2, 3, 4]
                .get(a.comp_type as usize)
                .copied()
                .unwrap_or(1);
        }
        (_, 0) => 1,
        _ => 2,
    };
    comps
        * [1, 1, 2, 2, 4]
            .get(a.comp_type as usize)
            .copied()
            .unwrap_or(1)
}

/// Appends a name table (count, then hash and offset per name, then the strings).
fn name_table<'n>(b: &mut Vec<u8>, names: impl Iterator<Item = &'n str> + Clone) {
    let count = names.clone().count();
    b.u16(count as u16).u16(0xFFFF);
    let mut offset = 4 + 4 * count;
    for n in names.clone() {
        b.u16(0).u16(offset as u16);
        offset += n.len() + 1;
    }
    for n in names {
        b.extend_from_slice(n.as_bytes());
        b.u8(0);
    }
}

/// Two joints with turns and scales, an envelope weighing them 0.25 / 0.75,
/// EVP1 inverse binds that are NOT the bind inverses (so the test sees which
/// matrices the reader uses), and a shape with one weighted and two rigid
/// vertices that carry normals.
pub fn enveloped() -> (ModelBuilder, Vec<JointDef>, [[f32; 12]; 2]) {
    let mut a = JointDef::new("a", None);
    a.translation = [1.0, 2.0, 3.0];
    a.rotation = [0, 0x2000, 0];
    let mut b = JointDef::new("b", Some(0));
    b.translation = [0.0, 10.0, 0.0];
    b.rotation = [0x1000, 0, -0x2000];
    b.scale = [1.0, 2.0, 1.0];
    let joints = vec![a, b];
    let binds = [
        [
            1.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0, -2.0, 0.0, 0.0, 1.0, -3.0,
        ],
        [0.5, 0.0, 0.0, 4.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 2.0, -1.0],
    ];
    let mut m = ModelBuilder::single_shape(&[[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]], Vec::new());
    m.joints = joints.clone();
    m.envelopes = vec![vec![(0, 0.25), (1, 0.75)]];
    m.inverse_binds = binds.to_vec();
    // Draw 0: joint 0; draw 1: joint 1; draw 2: envelope 0.
    m.draw_matrices = vec![(0, 0), (0, 1), (1, 0)];
    m.arrays.push(ArrayDef::new(
        attr::NRM,
        0,
        4,
        0,
        [0.0f32, 0.0, 1.0, 0.6, 0.8, 0.0]
            .iter()
            .flat_map(|v| v.to_be_bytes())
            .collect(),
    ));
    m.shapes[0].display_flags = 3;
    m.shapes[0].attributes = vec![
        (attr::PNMTXIDX, input::DIRECT),
        (attr::POS, input::INDEX16),
        (attr::NRM, input::INDEX8),
    ];
    let v = |slot: u8, p: u16, n: u8| [vec![3 * slot], p.to_be_bytes().to_vec(), vec![n]].concat();
    m.shapes[0].packets = vec![PacketDef {
        slots: vec![2, 0, 1],
        display_list: padded(draw(prim::TRIANGLES, &[v(0, 0, 1), v(1, 1, 0), v(2, 0, 1)])),
    }];
    (m, joints, binds)
}
