//! Texture metadata: what each entry of `textures` says, checked as the spec
//! says, before any pixel is decoded.
//!
//! Spec rules pinned here: maxStringChars for names, uuids and paths
//! (INVALID_FIELD); maxDataUriChars for a source (TEXTURE_TOO_LARGE); a data
//! URI that is not base64 PNG, bad base64, or bytes without an IHDR or of
//! zero size (BAD_TEXTURE); the PNG header's side and pixel limits
//! (TEXTURE_TOO_LARGE); a source that is not a data URI (SOURCE_NOT_FETCHED);
//! no embedded image and no matching picked file (MISSING_TEXTURE);
//! render_sides (a non-string is INVALID_FIELD, an unknown string
//! UNSUPPORTED_VALUE); render_mode and wrap_mode of any other value, and
//! visible / use_as_default that are no boolean (UNSUPPORTED_VALUE);
//! uv_width / uv_height in the per-texture-UV formats (a bad value fails a
//! `free` file, warns elsewhere; the resolution is used).
//!
//! No pass holds every texture's metadata: [`for_each_texture`] reads the
//! entries in turn, and faces look textures up through [`Textures`] (each
//! one's UV space and sides, and the uuids sorted by hash), which the fill
//! pass keeps in memory from the plan, so `maxTextures` alone bounds how
//! many are read.

use crate::arena::scratch_record;
use crate::bbmodel::document::Document;
use crate::bbmodel::document::text_hash::{string_at, text_hash};
use crate::bbmodel::document::value::{Cursor, Path, error_at, invalid, same_text, type_name};
use crate::bbmodel::layout::offset;
use crate::bbmodel::project::uuid_tables::{UuidEntry, body_offset, entry_uuid};
use crate::bbmodel::textures::frames::{FrameFields, FrameStrip, StripNotes, frame_count, strip};
use crate::bbmodel::textures::source::ImageSource;
use crate::data_url::DataUrl;
use crate::error::{Error, ErrorCode, Quote, Warning, WarningCode, Warnings};
use crate::json::{JsonStr, Token, TokenKind};
use crate::limits::BbmodelLimits;
use crate::png::Header;
use crate::scene::FrameOrder;

/// Texture uuids the counting passes hold on the stack (1.5 KiB: the
/// decode must fit a 16 KiB stack), so that a face naming its texture by
/// uuid is a binary search; past this many textures, the later ones are
/// looked up by reading the `textures` array again (the fill pass holds
/// every uuid, in memory from the plan).
pub const COUNTED_UUIDS: usize = 64;

/// How a texture's faces are sided (render_sides, convention 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderSides {
    /// The format decides: single-sided in java_block, else double.
    Auto,
    /// Front only.
    Front,
    /// Both sides.
    Double,
}

/// A texture's `render_mode` (MS-29; the material table in Conversion).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderMode {
    /// `default`, absent, or any value that is no known mode.
    Default,
    /// `emissive`: alpha is an inverted emission mask.
    Emissive,
    /// `additive`: blended additively.
    Additive,
    /// `layered`: composited in the single-texture formats.
    Layered,
}

/// What the loader keeps of one texture entry.
#[derive(Clone, Copy, Debug)]
pub struct TextureMeta<'a> {
    /// `name`.
    pub name: Option<JsonStr<'a>>,
    /// `uuid`.
    pub uuid: Option<JsonStr<'a>>,
    /// `render_sides`.
    pub render_sides: RenderSides,
    /// The texture's UV space in texels: uv_width × uv_height in the
    /// per-texture-UV formats, else the project resolution.
    pub uv_size: [f32; 2],
    /// `wrap_mode: "repeat"`.
    pub repeat: bool,
    /// No embedded image and no matching picked file.
    pub missing: bool,
    /// `render_mode`.
    pub render_mode: RenderMode,
    /// `visible` (default true).
    pub visible: bool,
    /// `use_as_default` (default false).
    pub use_as_default: bool,
    /// The frame fields as stored (read in the animating formats only).
    pub frame_fields: FrameFields<'a>,
    /// How the image splits into frames (convention 14).
    pub strip: FrameStrip,
    /// The PNG header of the embedded image or picked file.
    pub png: Option<Header>,
    /// The embedded `data:` source, when there is one.
    pub data_url: Option<DataUrl<'a>>,
    /// Index of the matching picked file, when the texture is not embedded.
    pub picked: Option<usize>,
}

impl TextureMeta<'_> {
    /// The texture's UV space with its frame division (convention 14).
    pub fn uv_space(&self) -> UvSpace {
        UvSpace {
            size: self.uv_size,
            frames: self.strip.count,
        }
    }
}

/// What face UVs are divided by: a texture's UV space, then its frame count
/// (Conversion, "Frame strips": v is divided by n after normalising, so
/// frame 0 spans v in [0, 1/n]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UvSpace {
    /// Width and height in UV units (texels of the UV space).
    pub size: [f32; 2],
    /// Frames of the strip (1 for a still image or an untextured face).
    pub frames: u32,
}

impl UvSpace {
    /// The project resolution, for untextured faces.
    pub fn resolution(resolution: [f32; 2]) -> Self {
        Self {
            size: resolution,
            frames: 1,
        }
    }

    /// A face UV in texels, normalised to 0..1 over the UV space (V down),
    /// then V divided by the frame count.
    pub fn normalise(&self, [u, v]: [f64; 2]) -> [f32; 2] {
        let frames = f64::from(self.frames.max(1));
        #[allow(clippy::cast_possible_truncation)]
        [
            (u / f64::from(self.size[0])) as f32,
            (v / f64::from(self.size[1]) / frames) as f32,
        ]
    }
}

/// Reads every texture entry's metadata in file order, raising the spec's
/// errors and (when `warnings` is given) its warnings; `visit` gets each
/// index and metadata in turn, so none is held longer than its visit.
#[inline(never)]
pub fn for_each_texture<'a>(
    doc: &Document<'a>,
    limits: &BbmodelLimits,
    picked: &[(&str, &[u8])],
    mut warnings: Option<&mut Warnings>,
    mut visit: impl FnMut(usize, TextureMeta<'a>) -> Result<(), Error>,
) -> Result<(), Error> {
    crate::bbmodel::project::structure::for_each_value(doc, doc.textures, |i, first, c| {
        let meta = read_texture(doc, limits, picked, i, &first, c, warnings.as_deref_mut())?;
        visit(i, meta)
    })
}

scratch_record! {
    /// What faces need of a texture, by index (plain data, in memory from the
    /// plan): its UV space and its render_sides.
    #[derive(PartialEq)]
    pub(crate) struct TextureFacts {
        uv_size: [f32; 2],
        frames: u32,
        /// 0 auto, 1 front, 2 double.
        sides: u32,
    }
}

impl TextureFacts {
    /// The facts of `meta`.
    pub fn of(meta: &TextureMeta<'_>) -> Self {
        Self {
            uv_size: meta.uv_size,
            frames: meta.strip.count,
            sides: match meta.render_sides {
                RenderSides::Auto => 0,
                RenderSides::Front => 1,
                RenderSides::Double => 2,
            },
        }
    }

    /// The texture's UV space with its frame division (convention 14).
    pub fn uv_space(&self) -> UvSpace {
        UvSpace {
            size: self.uv_size,
            frames: self.frames,
        }
    }

    /// Its `render_sides`.
    pub fn render_sides(&self) -> RenderSides {
        match self.sides {
            1 => RenderSides::Front,
            2 => RenderSides::Double,
            _ => RenderSides::Auto,
        }
    }
}

/// The textures as faces see them: how many, each one's `TextureFacts`
/// (none in the counting passes, which need only indices), and their uuids
/// sorted by hash for lookups by uuid.
#[derive(Clone, Copy, Debug)]
pub struct Textures<'t> {
    doc: Document<'t>,
    count: usize,
    facts: &'t [TextureFacts],
    /// (uuid hash, where the uuid string's body starts, texture index),
    /// sorted: every texture's, or the first [`COUNTED_UUIDS`]'.
    uuids: &'t [UuidEntry],
    /// `uuids` holds the uuid of every texture before this index.
    held_until: usize,
}

impl<'t> Textures<'t> {
    /// `count` textures of `doc`, with `facts` and sorted `uuids`, which
    /// hold the uuid of every texture before `held_until`.
    pub(crate) fn new(
        doc: &Document<'t>,
        count: usize,
        facts: &'t [TextureFacts],
        uuids: &'t [UuidEntry],
        held_until: usize,
    ) -> Self {
        Self {
            doc: *doc,
            count,
            facts,
            uuids,
            held_until,
        }
    }

    /// Entries of `textures`.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Texture `index`'s facts (`None` past the count, or in the counting
    /// passes).
    pub(crate) fn facts(&self, index: i32) -> Option<&TextureFacts> {
        self.facts.get(usize::try_from(index).ok()?)
    }

    /// Whether `index` is a texture's.
    pub fn contains(&self, index: i32) -> bool {
        usize::try_from(index).is_ok_and(|i| i < self.count)
    }

    /// The first texture whose uuid is `uuid` (JavaScript's `find`).
    pub fn by_uuid(&self, uuid: &JsonStr<'_>) -> Option<usize> {
        let hash = text_hash(uuid);
        let first = self.uuids.partition_point(|e| e.hash < hash);
        // Sorted by hash, then offset: the first match is the first texture.
        let found = self
            .uuids
            .get(first..)
            .unwrap_or_default()
            .iter()
            .take_while(|e| e.hash == hash)
            .find(|e| string_at(&self.doc, offset(e.at)).is_some_and(|s| same_text(&s, uuid)));
        if let Some(e) = found {
            return Some(offset(e.index));
        }
        if self.held_until >= self.count {
            return None;
        }
        // Past the uuids held: read the later entries' uuids again.
        let held = self.held_until;
        let mut later = None;
        let _ = crate::bbmodel::project::structure::for_each_entry(
            &self.doc,
            self.doc.textures,
            |i, at| {
                if later.is_none()
                    && i >= held
                    && entry_uuid(&self.doc, at)?.is_some_and(|u| same_text(&u, uuid))
                {
                    later = Some(i);
                }
                Ok(())
            },
        );
        later
    }
}

/// Texture `index`'s uuid entry for [`Textures`], if it has a uuid.
pub(crate) fn uuid_entry(
    doc: &Document<'_>,
    index: usize,
    meta: &TextureMeta<'_>,
) -> Option<UuidEntry> {
    let uuid = meta.uuid?;
    Some(UuidEntry {
        hash: text_hash(&uuid),
        at: body_offset(doc, &uuid),
        index: index as u64,
    })
}

fn warn(
    warnings: &mut Option<&mut Warnings>,
    code: WarningCode,
    path: &Path<'_>,
    args: core::fmt::Arguments<'_>,
) {
    if let Some(w) = warnings.as_deref_mut() {
        w.push(Warning::new(
            code,
            crate::error::Location::Json(path.render()),
            args,
        ));
    }
}

/// Reads the texture whose first token, `first`, the cursor just read.
#[allow(clippy::too_many_arguments)]
fn read_texture<'a>(
    doc: &Document<'a>,
    limits: &BbmodelLimits,
    picked: &[(&str, &[u8])],
    index: usize,
    first: &Token<'a>,
    c: &mut Cursor<'a>,
    mut warnings: Option<&mut Warnings>,
) -> Result<TextureMeta<'a>, Error> {
    let path = crate::bbmodel::document::value::TEXTURES.with_index(index);
    crate::bbmodel::document::value::expect_object(first, &path, "texture")?;
    let mut meta = TextureMeta {
        name: None,
        uuid: None,
        render_sides: RenderSides::Auto,
        uv_size: doc.resolution,
        repeat: false,
        missing: false,
        render_mode: RenderMode::Default,
        visible: true,
        use_as_default: false,
        frame_fields: FrameFields::default(),
        strip: FrameStrip::STILL,
        png: None,
        data_url: None,
        picked: None,
    };
    let animated = doc.format.animated_textures();
    let mut paths: [Option<JsonStr<'a>>; 2] = [None, None];
    let mut source: Option<JsonStr<'a>> = None;
    let mut uv = [None, None];
    let max_chars = limits.max_string_chars;
    while let Some(key) = c.next_key()? {
        let Some(k) = key.as_str() else {
            c.skip_value()?;
            continue;
        };
        let at = path.with_key(k);
        let v = c.next()?;
        match k {
            "name" => meta.name = Some(c.string_of(&v, &at, max_chars)?),
            "uuid" => meta.uuid = Some(c.string_of(&v, &at, max_chars)?),
            "relative_path" => paths[0] = Some(c.string_of(&v, &at, max_chars)?),
            "path" => paths[1] = Some(c.string_of(&v, &at, max_chars)?),
            "source" => {
                let TokenKind::String(s) = v.kind else {
                    return Err(invalid(
                        &at,
                        "wrong type",
                        format_args!("a string expected, got {}", type_name(&v)),
                    ));
                };
                if s.decoded_len() as u64 > limits.max_data_uri_chars {
                    return Err(error_at(
                        ErrorCode::TextureTooLarge,
                        &at,
                        "texture source too long",
                        format_args!(
                            "at most maxDataUriChars ({}) characters, got {}",
                            limits.max_data_uri_chars,
                            s.decoded_len()
                        ),
                    ));
                }
                source = Some(s);
            }
            "render_sides" => {
                let TokenKind::String(s) = v.kind else {
                    return Err(invalid(
                        &at,
                        "wrong type",
                        format_args!("a string expected, got {}", type_name(&v)),
                    ));
                };
                meta.render_sides = match s.as_str() {
                    Some("auto") => RenderSides::Auto,
                    Some("front") => RenderSides::Front,
                    Some("double") => RenderSides::Double,
                    _ => {
                        warn(
                            &mut warnings,
                            WarningCode::UnsupportedValue,
                            &at,
                            format_args!("unknown render_sides {}: auto used", Quote(s.raw_str())),
                        );
                        RenderSides::Auto
                    }
                };
            }
            "render_mode" => {
                let mode = match v.kind {
                    TokenKind::String(s) => s.as_str(),
                    _ => None,
                };
                meta.render_mode = match mode {
                    Some("default") => RenderMode::Default,
                    Some("emissive") => RenderMode::Emissive,
                    Some("additive") => RenderMode::Additive,
                    Some("layered") => RenderMode::Layered,
                    _ => {
                        warn(
                            &mut warnings,
                            WarningCode::UnsupportedValue,
                            &at,
                            format_args!("unknown render_mode {}: default used", Value(&v)),
                        );
                        RenderMode::Default
                    }
                };
            }
            "wrap_mode" => {
                let mode = match v.kind {
                    TokenKind::String(s) => s.as_str(),
                    _ => None,
                };
                match mode {
                    Some("repeat") => meta.repeat = true,
                    Some("limited" | "clamp") => {}
                    _ => warn(
                        &mut warnings,
                        WarningCode::UnsupportedValue,
                        &at,
                        format_args!("unknown wrap_mode {}: drawn clamped", Value(&v)),
                    ),
                }
            }
            "visible" | "use_as_default" => match v.kind {
                TokenKind::Bool(b) if k == "visible" => meta.visible = b,
                TokenKind::Bool(b) => meta.use_as_default = b,
                _ => warn(
                    &mut warnings,
                    WarningCode::UnsupportedValue,
                    &at,
                    format_args!("{k} is no boolean: ignored"),
                ),
            },
            // Frame fields (Warnings): in an animating format a wrong type or
            // range warns and the default is used; elsewhere they are ignored.
            "frame_time" | "fps" if animated => match positive_number(&v) {
                Some(x) if k == "fps" => meta.frame_fields.fps = Some(x),
                Some(x) => meta.frame_fields.frame_time = Some(x),
                None => warn(
                    &mut warnings,
                    WarningCode::UnsupportedValue,
                    &at,
                    format_args!("{k} is no positive number: the default is used"),
                ),
            },
            "frame_order_type" if animated => {
                let order = match v.kind {
                    TokenKind::String(s) => match s.as_str() {
                        Some("loop") => Some(FrameOrder::Loop),
                        Some("backwards") => Some(FrameOrder::Backwards),
                        Some("back_and_forth") => Some(FrameOrder::BackAndForth),
                        Some("custom") => Some(FrameOrder::Custom),
                        _ => None,
                    },
                    _ => None,
                };
                if order.is_none() {
                    warn(
                        &mut warnings,
                        WarningCode::UnsupportedValue,
                        &at,
                        format_args!("unknown frame_order_type {}: loop used", Value(&v)),
                    );
                }
                meta.frame_fields.order_type = order;
            }
            "frame_order" if animated => match v.kind {
                TokenKind::String(s)
                    if s.decoded_len() as u64 > crate::limits::MAX_FRAME_ORDER_CHARS =>
                {
                    warn(
                        &mut warnings,
                        WarningCode::UnsupportedValue,
                        &at,
                        format_args!(
                            "frame_order over {} characters: plain order used",
                            crate::limits::MAX_FRAME_ORDER_CHARS
                        ),
                    )
                }
                TokenKind::String(s) => meta.frame_fields.frame_order = Some(s),
                _ => warn(
                    &mut warnings,
                    WarningCode::UnsupportedValue,
                    &at,
                    format_args!("frame_order is no string: plain order used"),
                ),
            },
            "frame_interpolate" if animated => match v.kind {
                TokenKind::Bool(b) => meta.frame_fields.interpolate = b,
                _ => warn(
                    &mut warnings,
                    WarningCode::UnsupportedValue,
                    &at,
                    format_args!("frame_interpolate is no boolean: false used"),
                ),
            },
            "uv_width" => uv[0] = Some((v, at)),
            "uv_height" => uv[1] = Some((v, at)),
            _ => {}
        }
        c.skip_rest(&v)?;
    }
    if doc.format.per_texture_uv_size() {
        for (axis, entry) in uv.iter().enumerate() {
            let Some((v, at)) = entry else { continue };
            match positive(v) {
                Some(size) => {
                    if let Some(slot) = meta.uv_size.get_mut(axis) {
                        *slot = size;
                    }
                }
                None if doc.format.bad_uv_size_is_an_error() => {
                    return Err(invalid(
                        at,
                        "bad UV size",
                        format_args!("a positive number expected, got {}", type_name(v)),
                    ));
                }
                None => warn(
                    &mut warnings,
                    WarningCode::UnsupportedValue,
                    at,
                    format_args!("uv size is no positive number: the resolution is used"),
                ),
            }
        }
    }
    match source {
        Some(s) if s.raw_bytes().starts_with(b"data:") => {
            let at = path.with_key("source");
            // Blockbench writes data URLs unescaped; an escaped one is read
            // raw, so its backslashes make it bad base64.
            let url = DataUrl::parse_png(s.raw_bytes()).map_err(|e| {
                error_at(
                    ErrorCode::BadTexture,
                    &at,
                    "bad texture",
                    format_args!("a base64 PNG data URI expected ({e})"),
                )
            })?;
            let header = ImageSource::DataUrl(url).header(limits, &at)?;
            meta.png = Some(header);
            meta.data_url = Some(url);
        }
        other => {
            if other.is_some_and(|s| s.decoded_len() > 0) {
                warn(
                    &mut warnings,
                    WarningCode::SourceNotFetched,
                    &path.with_key("source"),
                    format_args!("texture source is not a data URI: never fetched"),
                );
            }
            let picked_file = [paths[0], paths[1], meta.name]
                .into_iter()
                .flatten()
                .find_map(|p| find_picked_decoded(picked, &p));
            match picked_file.and_then(|i| Some((i, picked.get(i)?.1))) {
                Some((i, bytes)) => {
                    meta.picked = Some(i);
                    let header = ImageSource::File(bytes).header(limits, &path)?;
                    meta.png = Some(header);
                }
                None => {
                    meta.missing = true;
                    // Issue 35: name what was looked for (the path, else the name).
                    let sought = [paths[0], paths[1], meta.name]
                        .into_iter()
                        .flatten()
                        .find(|s| s.decoded_len() > 0);
                    if let Some(w) = warnings.as_deref_mut() {
                        let warning = |args| {
                            let at = crate::error::Location::Json(path.render());
                            Warning::new(WarningCode::MissingTexture, at, args)
                        };
                        w.push(match sought.map(|s| Quote(s.raw_str())) {
                            Some(file) => {
                                warning(format_args!("no embedded image and no picked file {file}"))
                                    .on(format_args!("texture {file}"))
                            }
                            None => warning(format_args!("no embedded image, no path and no name"))
                                .on(format_args!("texture {index}")),
                        });
                    }
                }
            }
        }
    }
    if let Some(png) = meta.png.map(|h| [h.width, h.height]) {
        let mut notes = StripNotes::default();
        let (count, under_one_pixel) = frame_count(doc.format, png, meta.uv_size);
        notes.under_one_pixel = under_one_pixel;
        meta.strip = strip(doc.format, count, &meta.frame_fields, &mut notes);
        strip_warnings(&notes, &path, &mut warnings);
    }
    Ok(meta)
}

/// The frame-strip warnings of the spec's Warnings section.
fn strip_warnings(notes: &StripNotes, path: &Path<'_>, warnings: &mut Option<&mut Warnings>) {
    if notes.under_one_pixel {
        warn(
            warnings,
            WarningCode::UnsupportedValue,
            path,
            format_args!("more frames than image rows: drawn as one image"),
        );
    }
    let order = path.with_key("frame_order");
    if notes.bad_tokens {
        warn(
            warnings,
            WarningCode::UnsupportedValue,
            &order,
            format_args!("frame_order tokens that are negative or too large: frame 0 plays there"),
        );
    }
    if notes.too_long {
        warn(
            warnings,
            WarningCode::UnsupportedValue,
            &order,
            format_args!(
                "frame_order words repeat over more than {} steps: they are dropped",
                crate::limits::MAX_FRAME_ORDER_LENGTH
            ),
        );
    }
}

fn positive_number(v: &Token<'_>) -> Option<f64> {
    match v.kind {
        TokenKind::Number(n) if n.value() > 0.0 && n.value().is_finite() => Some(n.value()),
        _ => None,
    }
}

fn positive(v: &Token<'_>) -> Option<f32> {
    match v.kind {
        TokenKind::Number(n)
            if n.value() > 0.0 && n.value() <= crate::limits::MAX_BBMODEL_NUMBER =>
        {
            #[allow(clippy::cast_possible_truncation)]
            Some(n.value() as f32)
        }
        _ => None,
    }
}

/// Longest decoded path matched against the picked files' names: a
/// longer one matches none.
const MAX_PATH_BYTES: usize = 4096;

/// [`find_picked`] for a path as the file spells it: escaped values (every
/// Windows path) are matched decoded, streamed through their decoded
/// pieces rather than decoded into a 4 KiB buffer, which was most of
/// `read_texture`'s frame (issue 40's stack budget).
fn find_picked_decoded(picked: &[(&str, &[u8])], path: &JsonStr<'_>) -> Option<usize> {
    if path.decoded_len() > MAX_PATH_BYTES {
        return None;
    }
    if let Some(text) = path.as_str() {
        return find_picked(picked, text);
    }
    // Decoded bytes in all, and where the base name starts among them.
    let (mut len, mut base) = (0usize, 0usize);
    let whole = path.for_each_decoded(|piece| {
        if let Some(i) = piece.rfind(['/', '\\']) {
            base = len.saturating_add(i).saturating_add(1);
        }
        len = len.saturating_add(piece.len());
        true
    });
    if !whole {
        return None;
    }
    picked.iter().position(|(name, _)| {
        let name_base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        let mut rest = name_base.as_bytes();
        if rest.len() != len.saturating_sub(base) {
            return false;
        }
        let mut start = 0usize;
        let equal = path.for_each_decoded(|piece| {
            let skip = base.saturating_sub(start).min(piece.len());
            start = start.saturating_add(piece.len());
            let tail = piece.as_bytes().get(skip..).unwrap_or_default();
            match rest.split_at_checked(tail.len()) {
                Some((head, after)) if head.eq_ignore_ascii_case(tail) => {
                    rest = after;
                    true
                }
                _ => false,
            }
        });
        equal && rest.is_empty()
    })
}

/// The index of the picked file whose name equals the base name of
/// `path`, ignoring case.
fn find_picked(picked: &[(&str, &[u8])], path: &str) -> Option<usize> {
    let base = path.rsplit(['/', '\\']).next().unwrap_or(path);
    picked.iter().position(|(name, _)| {
        let name_base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        name_base.eq_ignore_ascii_case(base)
    })
}

/// A value as a warning shows it: a string quoted, anything else by its type.
struct Value<'t, 'a>(&'t Token<'a>);

impl core::fmt::Display for Value<'_, '_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.0.kind {
            TokenKind::String(s) => write!(f, "{}", Quote(s.raw_str())),
            _ => write!(f, "({})", type_name(self.0)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    fn warnings_of(json: &str) -> Vec<(WarningCode, std::string::String)> {
        let doc = Document::read(json.as_bytes(), &BbmodelLimits::default()).unwrap();
        let mut w = Warnings::new();
        for_each_texture(
            &doc,
            &BbmodelLimits::default(),
            &[],
            Some(&mut w),
            |_, _| Ok(()),
        )
        .unwrap();
        w.as_slice()
            .iter()
            .map(|w| (w.code(), std::string::ToString::to_string(w.at())))
            .collect()
    }

    #[test]
    fn frame_fields_of_the_wrong_type_warn_in_animating_formats_only() {
        let texture = r#"{"name": "t", "source": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAYAAACqaXHe",
            "frame_time": "2", "frame_order_type": "sideways", "frame_order": 5, "frame_interpolate": 1}"#;
        let free = std::format!(
            r#"{{"meta": {{"format_version": "4.10", "model_format": "free"}}, "textures": [{texture}]}}"#
        );
        let paths: Vec<_> = warnings_of(&free)
            .into_iter()
            .map(|(c, p)| {
                assert_eq!(c, WarningCode::UnsupportedValue);
                p
            })
            .collect();
        assert_eq!(
            paths,
            [
                "$.textures[0].frame_time",
                "$.textures[0].frame_order_type",
                "$.textures[0].frame_order",
                "$.textures[0].frame_interpolate"
            ]
        );
        // modded_entity does not animate textures: the fields are ignored.
        let modded = free.replace("\"free\"", "\"modded_entity\"");
        assert!(warnings_of(&modded).is_empty());
    }

    #[test]
    fn picked_files_match_by_case_insensitive_base_name() {
        let files: [(&str, &[u8]); 1] = [("Skin.PNG", b"x")];
        assert_eq!(find_picked(&files, "textures/entity/skin.png"), Some(0));
        assert!(find_picked(&files, "..\\tex\\SKIN.png").is_some());
        assert!(find_picked(&files, "other.png").is_none());
    }

    /// The JSON string `json` (quotes included) as the tokenizer reads it.
    fn json_str(json: &str, each: impl FnOnce(&JsonStr<'_>)) {
        let mut t = crate::json::Tokenizer::new(json.as_bytes(), 1);
        match t.next_token().unwrap().unwrap().kind {
            TokenKind::String(s) => each(&s),
            other => panic!("a string expected, got {other:?}"),
        }
    }

    /// Escaped paths match by their decoded base name, as when they were
    /// decoded into a 4 096-byte buffer: escapes anywhere (in the folders,
    /// the separators, the base name itself), and a path over 4 096
    /// decoded bytes matches nothing, one of exactly 4 096 still does.
    #[test]
    fn escaped_paths_match_by_their_decoded_base_name() {
        let files: [(&str, &[u8]); 2] = [("dir/Skin.PNG", b"x"), ("other.png", b"y")];
        let found = |json: &str| {
            let mut found = None;
            json_str(json, |s| found = find_picked_decoded(&files, s));
            found
        };
        assert_eq!(found(r#""C:\\Users\\me\\skin.png""#), Some(0));
        assert_eq!(found(r#""textures\/SK\u0049N.png""#), Some(0));
        assert_eq!(found(r#""a\\b\u002fother.PNG""#), Some(1));
        assert_eq!(found(r#""C:\\skin.png.bak""#), None);
        assert_eq!(found(r#""C:\\kin.png""#), None);
        assert_eq!(found(r#""skin.png\\""#), None);
        let long = |len: usize| {
            // `\\` decodes to one byte, so the path decodes to `len` bytes.
            let folders = "a".repeat(len - "\\skin.png".len());
            std::format!(r#""{folders}\\skin.png""#)
        };
        assert_eq!(found(&long(4096)), Some(0));
        assert_eq!(found(&long(4097)), None);
        // Unescaped paths take the plain path under the same bound.
        assert_eq!(
            found(&std::format!(r#""{}/skin.png""#, "a".repeat(4087))),
            Some(0)
        );
        assert_eq!(
            found(&std::format!(r#""{}/skin.png""#, "a".repeat(4088))),
            None
        );
    }
}
