//! A small J3D writer: a header and sections, each padded to 32 bytes as
//! Nintendo's tools pad them. Sections take their body bytes as given.

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
    /// Appends a u16.
    fn u16(&mut self, v: u16) -> &mut Self;
    /// Appends a u32.
    fn u32(&mut self, v: u32) -> &mut Self;
}

impl PutBe for Vec<u8> {
    fn u16(&mut self, v: u16) -> &mut Self {
        self.extend_from_slice(&v.to_be_bytes());
        self
    }
    fn u32(&mut self, v: u32) -> &mut Self {
        self.extend_from_slice(&v.to_be_bytes());
        self
    }
}
