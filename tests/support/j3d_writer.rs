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

    /// The file.
    pub fn build(&self) -> Vec<u8> {
        let w = if self.bdl {
            J3dWriter::bdl()
        } else {
            J3dWriter::bmd()
        };
        w.section(b"INF1", self.inf1())
            .section(b"VTX1", self.vtx1())
            .section(b"EVP1", self.evp1())
            .section(b"DRW1", self.drw1())
            .section(b"JNT1", self.jnt1())
            .section(b"SHP1", self.shp1())
            .section(b"MAT3", self.mat3())
            .section(b"TEX1", {
                let mut t = Vec::new();
                t.u16(0).u16(0xFFFF).u32(0x20).u32(0x20);
                t
            })
            .finish()
    }
}

/// Bytes of one element of `a` (only the formats the fixtures use).
fn stride(a: &ArrayDef) -> usize {
    let comps = match (a.attr, a.comp_count) {
        (attr::POS, 0) => 2,
        (attr::POS, _) => 3,
        (attr::NRM, 0) => 3,
        (attr::NRM | attr::NBT, _) => 9,
        (attr::CLR0 | attr::CLR1, _) => return [2, 3, 4, 2, 3, 4][a.comp_type as usize],
        (_, 0) => 1,
        _ => 2,
    };
    comps * [1, 1, 2, 2, 4][a.comp_type as usize]
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
