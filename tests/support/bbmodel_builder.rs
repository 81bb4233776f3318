//! Writes Blockbench `.bbmodel` files from Rust values, so each test shows
//! its input. Objects keep their keys in insertion order (the loader reads
//! some fields in file order, e.g. a face's `texture` before its `uv`), and
//! values are any [`Json`]: a `serde_json::Value` (`json!`), another builder,
//! a list of them, or [`Raw`] text for what JSON values cannot hold (NaN,
//! repeated keys, truncations).

use serde_json::Value;

/// Something that renders as JSON text.
pub trait Json {
    /// The JSON text.
    fn json(&self) -> String;
}

impl Json for Value {
    fn json(&self) -> String {
        self.to_string()
    }
}

impl Json for &str {
    fn json(&self) -> String {
        Value::from(*self).to_string()
    }
}

impl Json for f64 {
    fn json(&self) -> String {
        Value::from(*self).to_string()
    }
}

impl Json for bool {
    fn json(&self) -> String {
        self.to_string()
    }
}

impl<const N: usize> Json for [f64; N] {
    fn json(&self) -> String {
        Value::from(self.to_vec()).to_string()
    }
}

impl<T: Json> Json for Vec<T> {
    fn json(&self) -> String {
        let items: Vec<String> = self.iter().map(Json::json).collect();
        format!("[{}]", items.join(", "))
    }
}

/// JSON text written as given.
#[derive(Clone, Debug)]
pub struct Raw(pub String);

impl Json for Raw {
    fn json(&self) -> String {
        self.0.clone()
    }
}

/// A JSON object whose keys keep their order.
#[derive(Clone, Debug, Default)]
pub struct Obj(Vec<(String, String)>);

impl Obj {
    /// An empty object.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `key`, in place when present, else appended.
    pub fn set(mut self, key: &str, value: impl Json) -> Self {
        self.put(key, value);
        self
    }

    /// Sets `key` in place (see [`Obj::set`]).
    pub fn put(&mut self, key: &str, value: impl Json) {
        let text = value.json();
        match self.0.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = text,
            None => self.0.push((key.to_owned(), text)),
        }
    }

    /// Appends `key` even when present (JSON allows repeated keys).
    pub fn push_repeated(mut self, key: &str, value: impl Json) -> Self {
        self.0.push((key.to_owned(), value.json()));
        self
    }

    /// Drops `key`.
    pub fn remove(mut self, key: &str) -> Self {
        self.0.retain(|(k, _)| k != key);
        self
    }

    /// The value text of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

impl Json for Obj {
    fn json(&self) -> String {
        let fields: Vec<String> = self
            .0
            .iter()
            .map(|(k, v)| format!("{}: {v}", Value::from(k.as_str())))
            .collect();
        format!("{{{}}}", fields.join(", "))
    }
}

macro_rules! obj_wrapper {
    ($name:ident) => {
        impl Json for $name {
            fn json(&self) -> String {
                self.0.json()
            }
        }

        impl $name {
            /// Sets any field (see [`Obj::set`]).
            pub fn set(mut self, key: &str, value: impl Json) -> Self {
                self.0.put(key, value);
                self
            }

            /// Drops a field.
            pub fn remove(self, key: &str) -> Self {
                Self(self.0.remove(key))
            }

            /// The underlying object.
            pub fn obj(&self) -> &Obj {
                &self.0
            }
        }
    };
}

/// A whole .bbmodel file.
#[derive(Clone, Debug)]
pub struct Model {
    root: Obj,
    meta: Obj,
    elements: Option<Vec<String>>,
    textures: Option<Vec<String>>,
}

impl Model {
    /// A file of `format_version` `version` with an empty elements array and
    /// no other part (model_format absent: java_block rules).
    pub fn new(version: &str) -> Self {
        Self {
            root: Obj::new(),
            meta: Obj::new().set("format_version", version),
            elements: Some(Vec::new()),
            textures: None,
        }
    }

    /// A format 4.10 file in `model_format`.
    pub fn format(model_format: &str) -> Self {
        Self::new("4.10").model_format(model_format)
    }

    /// A format 4.10 `free` file (per-face textures, double-sided auto).
    pub fn free() -> Self {
        Self::format("free")
    }

    /// Sets `meta.model_format`.
    pub fn model_format(self, id: &str) -> Self {
        self.meta("model_format", id)
    }

    /// Sets any `meta` field.
    pub fn meta(mut self, key: &str, value: impl Json) -> Self {
        self.meta.put(key, value);
        self
    }

    /// Drops a `meta` field.
    pub fn meta_remove(mut self, key: &str) -> Self {
        self.meta = self.meta.remove(key);
        self
    }

    /// Sets `meta.box_uv`.
    pub fn box_uv(self, on: bool) -> Self {
        self.meta("box_uv", on)
    }

    /// Sets `meta.bone_rig`.
    pub fn bone_rig(self, value: impl Json) -> Self {
        self.meta("bone_rig", value)
    }

    /// Sets `resolution`.
    pub fn resolution(self, width: f64, height: f64) -> Self {
        self.set(
            "resolution",
            Obj::new().set("width", width).set("height", height),
        )
    }

    /// Appends an element (a [`Cube`], a [`Mesh`] or any JSON).
    pub fn element(mut self, element: impl Json) -> Self {
        self.elements
            .get_or_insert_with(Vec::new)
            .push(element.json());
        self
    }

    /// Leaves out the `elements` key.
    pub fn without_elements(mut self) -> Self {
        self.elements = None;
        self
    }

    /// Appends a texture (a [`Texture`] or any JSON).
    pub fn texture(mut self, texture: impl Json) -> Self {
        self.textures
            .get_or_insert_with(Vec::new)
            .push(texture.json());
        self
    }

    /// Sets `outliner`: a list of element uuids and groups ([`Group::inline`],
    /// [`Group::reference`]).
    pub fn outliner(self, entries: Vec<Outline>) -> Self {
        self.set("outliner", entries)
    }

    /// Sets the 5.x `groups` array ([`Group::data`]).
    pub fn groups(self, groups: Vec<Obj>) -> Self {
        self.set("groups", groups)
    }

    /// Sets any top-level field.
    pub fn set(mut self, key: &str, value: impl Json) -> Self {
        self.root.put(key, value);
        self
    }

    /// The file's text.
    pub fn text(&self) -> String {
        let mut root = Obj::new().set("meta", self.meta.clone());
        for (k, v) in &self.root.0 {
            root.put(k, Raw(v.clone()));
        }
        if let Some(elements) = &self.elements {
            root.put("elements", Raw(format!("[{}]", elements.join(", "))));
        }
        if let Some(textures) = &self.textures {
            root.put("textures", Raw(format!("[{}]", textures.join(", "))));
        }
        root.json()
    }

    /// The file's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        self.text().into_bytes()
    }
}

/// One outliner entry: an element uuid or a group object.
#[derive(Clone, Debug)]
pub enum Outline {
    /// An element's uuid.
    Element(String),
    /// A group object (inline, or `{uuid, children}`).
    Group(Obj),
}

impl Json for Outline {
    fn json(&self) -> String {
        match self {
            Outline::Element(uuid) => uuid.as_str().json(),
            Outline::Group(o) => o.json(),
        }
    }
}

/// An element uuid as an outliner entry.
pub fn el(uuid: &str) -> Outline {
    Outline::Element(uuid.to_owned())
}

/// A group / bone.
#[derive(Clone, Debug)]
pub struct Group {
    data: Obj,
    children: Vec<Outline>,
}

impl Group {
    /// A group named `name` with uuid `uuid`, origin 0, rotation 0, shown.
    pub fn new(name: &str, uuid: &str) -> Self {
        Self {
            data: Obj::new()
                .set("name", name)
                .set("uuid", uuid)
                .set("origin", [0.0, 0.0, 0.0])
                .set("rotation", [0.0, 0.0, 0.0]),
            children: Vec::new(),
        }
    }

    /// Sets `origin` (the pivot).
    pub fn origin(mut self, origin: [f64; 3]) -> Self {
        self.data.put("origin", origin);
        self
    }

    /// Sets `rotation` (degrees).
    pub fn rotation(mut self, rotation: [f64; 3]) -> Self {
        self.data.put("rotation", rotation);
        self
    }

    /// Sets `visibility`.
    pub fn visibility(mut self, shown: bool) -> Self {
        self.data.put("visibility", shown);
        self
    }

    /// Sets any field of the group's data.
    pub fn set(mut self, key: &str, value: impl Json) -> Self {
        self.data.put(key, value);
        self
    }

    /// Appends a child.
    pub fn child(mut self, child: Outline) -> Self {
        self.children.push(child);
        self
    }

    /// The 4.x inline outliner object: data and children.
    pub fn inline(&self) -> Outline {
        Outline::Group(self.data.clone().set("children", self.children.clone()))
    }

    /// The 5.x `groups` entry: the data without children.
    pub fn data(&self) -> Obj {
        self.data.clone()
    }

    /// The 5.x outliner object `{uuid, children}` (children as given).
    pub fn reference(&self) -> Outline {
        let uuid = self.data.get("uuid").unwrap_or("null").to_owned();
        Outline::Group(
            Obj::new()
                .set("uuid", Raw(uuid))
                .set("children", self.children.clone()),
        )
    }
}

/// A group tree node for [`tree_4x`] / [`tree_5x`]: a group and its
/// children, which are element uuids or further nodes.
#[derive(Clone, Debug)]
pub enum Tree {
    /// An element uuid.
    Element(&'static str),
    /// A group and its children.
    Group(Group, Vec<Tree>),
}

/// The 4.x inline outliner of `tree`.
pub fn tree_4x(tree: &[Tree]) -> Vec<Outline> {
    tree.iter()
        .map(|t| match t {
            Tree::Element(u) => el(u),
            Tree::Group(g, children) => {
                Outline::Group(g.data.clone().set("children", tree_4x(children)))
            }
        })
        .collect()
}

/// The 5.x outliner and `groups` array of `tree` (groups in depth-first order).
pub fn tree_5x(tree: &[Tree]) -> (Vec<Outline>, Vec<Obj>) {
    fn walk(tree: &[Tree], groups: &mut Vec<Obj>) -> Vec<Outline> {
        tree.iter()
            .map(|t| match t {
                Tree::Element(u) => el(u),
                Tree::Group(g, children) => {
                    groups.push(g.data());
                    let uuid = g.data.get("uuid").unwrap_or("null").to_owned();
                    Outline::Group(
                        Obj::new()
                            .set("uuid", Raw(uuid))
                            .set("children", walk(children, groups)),
                    )
                }
            })
            .collect()
    }
    let mut groups = Vec::new();
    let outliner = walk(tree, &mut groups);
    (outliner, groups)
}

/// One cube face: its `uv`, `texture`, `rotation`, in the order set.
#[derive(Clone, Debug, Default)]
pub struct Face(Obj);
obj_wrapper!(Face);

impl Face {
    /// A face with `uv` and nothing else (blank: no texture key).
    pub fn uv(uv: [f64; 4]) -> Self {
        Self(Obj::new().set("uv", uv))
    }

    /// A face object with no field at all.
    pub fn empty() -> Self {
        Self(Obj::new())
    }

    /// Sets `texture` (an index, a uuid string, null or false).
    pub fn texture(self, texture: impl Json) -> Self {
        self.set("texture", texture)
    }

    /// Sets `rotation` (degrees).
    pub fn rotation(self, degrees: f64) -> Self {
        self.set("rotation", degrees)
    }
}

/// Cube face keys in Blockbench's order.
pub const FACES: [&str; 6] = ["north", "east", "south", "west", "up", "down"];

/// A cube element.
#[derive(Clone, Debug)]
pub struct Cube {
    element: Obj,
    faces: Option<String>,
    face_list: Obj,
}

impl Json for Cube {
    fn json(&self) -> String {
        let mut element = self.element.clone();
        match &self.faces {
            Some(raw) => element.put("faces", Raw(raw.clone())),
            None => element.put("faces", self.face_list.clone()),
        }
        element.json()
    }
}

impl Cube {
    /// A cube from `from` to `to`, origin 0, rotation 0, no faces.
    pub fn new(from: [f64; 3], to: [f64; 3]) -> Self {
        Self {
            element: Obj::new()
                .set("name", "cube")
                .set("type", "cube")
                .set("from", from)
                .set("to", to)
                .set("origin", [0.0, 0.0, 0.0])
                .set("rotation", [0.0, 0.0, 0.0]),
            faces: None,
            face_list: Obj::new(),
        }
    }

    /// Sets any field other than `faces`.
    pub fn set(mut self, key: &str, value: impl Json) -> Self {
        self.element.put(key, value);
        self
    }

    /// Drops a field.
    pub fn remove(mut self, key: &str) -> Self {
        self.element = self.element.remove(key);
        self
    }

    /// Sets `name`.
    pub fn name(self, name: &str) -> Self {
        self.set("name", name)
    }

    /// Sets `uuid`.
    pub fn uuid(self, uuid: &str) -> Self {
        self.set("uuid", uuid)
    }

    /// Sets `origin` (the pivot of `rotation`).
    pub fn origin(self, origin: [f64; 3]) -> Self {
        self.set("origin", origin)
    }

    /// Sets `rotation` (degrees).
    pub fn rotation(self, rotation: [f64; 3]) -> Self {
        self.set("rotation", rotation)
    }

    /// Sets `inflate`.
    pub fn inflate(self, inflate: f64) -> Self {
        self.set("inflate", inflate)
    }

    /// Sets `stretch`.
    pub fn stretch(self, stretch: [f64; 3]) -> Self {
        self.set("stretch", stretch)
    }

    /// Sets the cube's own `box_uv`.
    pub fn box_uv(self, on: bool) -> Self {
        self.set("box_uv", on)
    }

    /// Sets `uv_offset`.
    pub fn uv_offset(self, offset: [f64; 2]) -> Self {
        self.set("uv_offset", offset)
    }

    /// Sets `mirror_uv`.
    pub fn mirror_uv(self, on: bool) -> Self {
        self.set("mirror_uv", on)
    }

    /// Sets `shade`.
    pub fn shade(self, on: bool) -> Self {
        self.set("shade", on)
    }

    /// Sets `render_order`.
    pub fn render_order(self, order: impl Json) -> Self {
        self.set("render_order", order)
    }

    /// Sets `visibility`.
    pub fn visibility(self, shown: bool) -> Self {
        self.set("visibility", shown)
    }

    /// Sets face `name` (`north`, …).
    pub fn face(mut self, name: &str, face: Face) -> Self {
        self.face_list.put(name, face);
        self
    }

    /// Sets all six faces to `face`.
    pub fn all_faces(mut self, face: Face) -> Self {
        for name in FACES {
            self.face_list.put(name, face.clone());
        }
        self
    }

    /// Writes `faces` as this JSON instead of the faces set.
    pub fn faces_raw(mut self, faces: impl Json) -> Self {
        self.faces = Some(faces.json());
        self
    }
}

/// One mesh face: its vertex keys, a uv per key, and its texture.
#[derive(Clone, Debug)]
pub struct MeshFace(Obj);
obj_wrapper!(MeshFace);

impl MeshFace {
    /// A face over `vertices` (key, uv), in order, without a texture key.
    pub fn new(vertices: &[(&str, [f64; 2])]) -> Self {
        let keys: Vec<&str> = vertices.iter().map(|(k, _)| *k).collect();
        let mut uv = Obj::new();
        for (k, v) in vertices {
            uv.put(k, *v);
        }
        Self(Obj::new().set("uv", uv).set("vertices", keys))
    }

    /// Sets `texture`.
    pub fn texture(self, texture: impl Json) -> Self {
        self.set("texture", texture)
    }
}

/// A mesh element (`type: "mesh"`).
#[derive(Clone, Debug)]
pub struct Mesh {
    element: Obj,
    vertices: Obj,
    faces: Obj,
}

impl Json for Mesh {
    fn json(&self) -> String {
        self.element
            .clone()
            .set("vertices", self.vertices.clone())
            .set("faces", self.faces.clone())
            .json()
    }
}

impl Mesh {
    /// An empty mesh at the origin, unturned.
    pub fn new() -> Self {
        Self {
            element: Obj::new()
                .set("name", "mesh")
                .set("type", "mesh")
                .set("origin", [0.0, 0.0, 0.0])
                .set("rotation", [0.0, 0.0, 0.0]),
            vertices: Obj::new(),
            faces: Obj::new(),
        }
    }

    /// Sets any element field other than `vertices` and `faces`.
    pub fn set(mut self, key: &str, value: impl Json) -> Self {
        self.element.put(key, value);
        self
    }

    /// Sets `uuid`.
    pub fn uuid(self, uuid: &str) -> Self {
        self.set("uuid", uuid)
    }

    /// Sets `origin`.
    pub fn origin(self, origin: [f64; 3]) -> Self {
        self.set("origin", origin)
    }

    /// Sets `rotation` (degrees).
    pub fn rotation(self, rotation: [f64; 3]) -> Self {
        self.set("rotation", rotation)
    }

    /// Sets `shading`.
    pub fn shading(self, shading: impl Json) -> Self {
        self.set("shading", shading)
    }

    /// Adds vertex `key` at `position` (mesh-local).
    pub fn vertex(mut self, key: &str, position: [f64; 3]) -> Self {
        self.vertices.put(key, position);
        self
    }

    /// Adds face `key`.
    pub fn face(mut self, key: &str, face: MeshFace) -> Self {
        self.faces.put(key, face);
        self
    }
}

impl Default for Mesh {
    fn default() -> Self {
        Self::new()
    }
}

/// A texture entry.
#[derive(Clone, Debug)]
pub struct Texture(Obj);
obj_wrapper!(Texture);

impl Texture {
    /// A texture `name` embedding a `width` × `height` PNG as a data URI.
    pub fn png(name: &str, width: u32, height: u32) -> Self {
        Self(
            Obj::new()
                .set("name", name)
                .set("source", png_data_uri(width, height).as_str()),
        )
    }

    /// A texture `name` with no source at all.
    pub fn named(name: &str) -> Self {
        Self(Obj::new().set("name", name))
    }

    /// Sets `uuid`.
    pub fn uuid(self, uuid: &str) -> Self {
        self.set("uuid", uuid)
    }

    /// Sets `source`.
    pub fn source(self, source: &str) -> Self {
        self.set("source", source)
    }

    /// Sets `render_sides`.
    pub fn render_sides(self, sides: impl Json) -> Self {
        self.set("render_sides", sides)
    }

    /// Sets `uv_width` and `uv_height`.
    pub fn uv_size(self, width: f64, height: f64) -> Self {
        self.set("uv_width", width).set("uv_height", height)
    }
}

/// The CRC-32 (ISO-HDLC, as PNG uses) of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

pub fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// A valid PNG of `width` × `height` transparent black RGBA8 pixels:
/// signature, IHDR, one IDAT holding [`zlib_zeros`] of every row (filter
/// byte 0 and zero samples), IEND, each with its CRC. Its stream stays small
/// at any size, so a 4096² texture fits a data URI. Past 2²⁸ pixels (which
/// every default limit refuses from the header alone) the IDAT is empty.
pub fn png(width: u32, height: u32) -> Vec<u8> {
    let pixels = u64::from(width) * u64::from(height);
    if pixels > 1 << 28 {
        return png_with_idat(width, height, &[]);
    }
    let raw = u64::from(height) * (1 + 4 * u64::from(width));
    png_with_idat(width, height, &zlib_zeros(raw))
}

/// A PNG of `width` × `height` RGBA8 whose one IDAT chunk holds `idat`.
pub fn png_with_idat(width: u32, height: u32, idat: &[u8]) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    // Bit depth 8, colour type 6 (RGBA), deflate, adaptive filtering, no interlace.
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", idat);
    chunk(&mut out, b"IEND", &[]);
    out
}

/// A zlib stream of `n` zero bytes: one fixed-Huffman block of a literal 0
/// and copies of 258 bytes at distance 1, then literals, and its Adler-32.
pub fn zlib_zeros(n: u64) -> Vec<u8> {
    struct Bits {
        out: Vec<u8>,
        acc: u32,
        used: u32,
    }
    impl Bits {
        fn put(&mut self, value: u32, count: u32) {
            for i in 0..count {
                self.acc |= ((value >> i) & 1) << self.used;
                self.used += 1;
                if self.used == 8 {
                    self.out.push(self.acc as u8);
                    (self.acc, self.used) = (0, 0);
                }
            }
        }
        /// A Huffman code, most significant bit first.
        fn code(&mut self, code: u32, len: u32) {
            for i in (0..len).rev() {
                self.put((code >> i) & 1, 1);
            }
        }
    }
    let mut bits = Bits {
        out: vec![0x78, 0x01],
        acc: 0,
        used: 0,
    };
    bits.put(1, 1); // the final block
    bits.put(1, 2); // fixed Huffman codes
    let literal_zero = |b: &mut Bits| b.code(0x30, 8);
    let mut left = n;
    if left > 0 {
        literal_zero(&mut bits);
        left -= 1;
    }
    while left >= 258 {
        bits.code(0xC5, 8); // length 258 (symbol 285)
        bits.code(0, 5); // distance 1
        left -= 258;
    }
    for _ in 0..left {
        literal_zero(&mut bits);
    }
    bits.code(0, 7); // end of block
    if bits.used > 0 {
        bits.out.push(bits.acc as u8);
    }
    // Adler-32 of n zeros: a = 1, b = n · 1.
    let adler = (((n % 65_521) as u32) << 16) | 1;
    bits.out.extend_from_slice(&adler.to_be_bytes());
    bits.out
}

/// Standard base64 with `=` padding.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for group in bytes.chunks(3) {
        let b = [
            group[0],
            group.get(1).copied().unwrap_or(0),
            group.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= group.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `data:image/png;base64,…` of [`png`]`(width, height)`.
pub fn png_data_uri(width: u32, height: u32) -> String {
    format!("data:image/png;base64,{}", base64(&png(width, height)))
}

/// An animation: its own fields, then its animators under `animators` (or
/// the pre-3.7 `bones`), keys kept in order and repeatable.
#[derive(Clone, Debug)]
pub struct Animation {
    fields: Obj,
    animators: Obj,
    key: &'static str,
}

impl Animation {
    /// An animation named `name` without animators.
    pub fn new(name: &str) -> Self {
        Self {
            fields: Obj::new().set("name", name),
            animators: Obj::new(),
            key: "animators",
        }
    }

    /// Sets any field of the animation (`loop`, `length`, …).
    pub fn set(mut self, key: &str, value: impl Json) -> Self {
        self.fields.put(key, value);
        self
    }

    /// Appends an animator under `key` (a group uuid or name), even when
    /// the key is present already.
    pub fn animator(mut self, key: &str, animator: impl Json) -> Self {
        self.animators = self.animators.push_repeated(key, animator);
        self
    }

    /// Writes the animators under `bones` (files before 3.7).
    pub fn bones(mut self) -> Self {
        self.key = "bones";
        self
    }
}

impl Json for Animation {
    fn json(&self) -> String {
        self.fields
            .clone()
            .set(self.key, self.animators.clone())
            .json()
    }
}

/// A bone animator `{"type": "bone", "keyframes": […]}`.
pub fn bone(keyframes: Vec<Obj>) -> Obj {
    Obj::new().set("type", "bone").set("keyframes", keyframes)
}

/// A keyframe of `channel` at `time` (s) with these data points (objects of
/// `x`, `y`, `z`), linear.
pub fn keyframe(channel: &str, time: f64, points: Vec<Value>) -> Obj {
    Obj::new()
        .set("channel", channel)
        .set("time", time)
        .set("data_points", points)
        .set("interpolation", "linear")
}
