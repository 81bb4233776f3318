//! Errors and warnings: one typed `Error` for every failure, a bounded list of
//! `Warning`s for everything that loads with a default.
//!
//! Nothing here allocates. Messages are formatted into fixed-size buffers
//! ([`FixedText`]); a message that does not fit is cut at a character boundary
//! and ends in `…`. File content is quoted through [`Quote`], which shows at
//! most [`QUOTE_CHARS`] characters, and deep JSON paths are shortened by
//! [`JsonPath`] (spec: "A message quotes at most 32 characters of file content
//! and shortens deep paths").
#![allow(
    clippy::arithmetic_side_effects,
    reason = "lengths of text held in fixed buffers or spans of the input, each end checked against its buffer before use"
)]

use core::fmt::{self, Write};

/// Most characters of file content a message quotes.
pub const QUOTE_CHARS: usize = 32;
/// Bytes an error or warning message holds.
pub const MESSAGE_BYTES: usize = 160;
/// Bytes a rendered JSON path holds before it is shortened.
pub const PATH_BYTES: usize = 96;
/// Warning groups kept per load (spec: MAX_BBMODEL_WARNINGS); a warning
/// that would start a later group is counted in [`Warnings::dropped`], not kept.
pub const MAX_WARNINGS: usize = 100;
/// Bytes of a warning's subject (`bone "tail"`); longer subjects are cut.
pub const SUBJECT_BYTES: usize = 48;

/// What went wrong, as the loader specification names it.
///
/// `as_str` gives the spec's SCREAMING_CASE name, which `inspect --json` prints.
/// The .bbmodel codes are the seed's `BbmodelError` codes; the binary codes
/// (J3D, Yaz0) and the caller codes are scenedec's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    // --- .bbmodel (loader specification, "Errors") ---
    /// The file exceeds `max_file_bytes`.
    FileTooLarge,
    /// Empty, not UTF-8, or not JSON (NaN and Infinity included).
    NotJson,
    /// Not an object, or no `meta` / `meta.format_version`.
    NotBbmodel,
    /// A format version outside 3.x–5.x.
    UnsupportedVersion,
    /// A field of the wrong type or out of range.
    InvalidField,
    /// Elements, groups or outliner entries over their limit.
    TooManyElements,
    /// Triangles over `max_triangles`.
    TooManyTriangles,
    /// Vertices over `max_vertices`, or a mesh face over `max_face_vertices`.
    TooManyVertices,
    /// Textures over `max_textures`.
    TooManyTextures,
    /// Animations, animators or keyframes over their limit; for J3D
    /// animations, tracks, keys or frames over theirs.
    TooManyKeyframes,
    /// Groups nested deeper than `max_nesting`.
    NestingTooDeep,
    /// The same uuid twice.
    DuplicateReference,
    /// A texture whose source or declared size is over its limit.
    TextureTooLarge,
    /// A texture that is not a decodable PNG (or GX image).
    BadTexture,

    // --- containers and sniffing ---
    /// Bytes that are no format scenedec reads (e.g. a Minecraft .bmd, which is not J3D).
    UnknownFormat,
    /// A Blockbench `<lz>` backup whose LZ-UTF8 text or stream is broken
    /// (truncated, not its encoding, or a pointer before its start).
    CompressedBbmodel,
    /// A Yaz0 stream that is truncated, overlong, or refers before its start.
    BadYaz0,
    /// A Yay0 stream that is truncated, overlong, refers before its start,
    /// or whose tables lie outside it.
    BadYay0,
    /// An archive (RARC) given where a model was expected: its members are
    /// models, the archive is not one (list or extract it with `scenedec
    /// inspect` / `scenedec extract`, or read it with `rarc::Archive`).
    ArchiveNotModel,

    // --- binary formats (J3D) ---
    /// The data ends before a record it declares.
    Truncated,
    /// An offset or index that points outside its section or array.
    BadOffset,
    /// A section id, magic or enum value that is not what the format allows.
    BadValue,
    /// Joints over `max_joints`.
    TooManyJoints,
    /// Shapes over `max_shapes`.
    TooManyShapes,
    /// Packets (matrix groups) over `max_packets`.
    TooManyPackets,
    /// Materials over `max_materials`.
    TooManyMaterials,
    /// A display list over `max_display_list_bytes`.
    DisplayListTooLarge,
    /// A hierarchy deeper than `max_depth`, or a cycle in it (J3D joints,
    /// RARC directories).
    HierarchyTooDeep,

    // --- archives (RARC) ---
    /// File entries over `RarcLimits::max_members`.
    TooManyMembers,
    /// Directory nodes over `RarcLimits::max_nodes`, or a directory reached twice.
    TooManyNodes,
    /// A name longer than `RarcLimits::max_name_bytes`.
    NameTooLong,
    /// Members' bytes (decompressed) over `RarcLimits::max_total_bytes`, or
    /// the archive itself over `RarcLimits::max_archive_bytes`.
    ArchiveTooLarge,

    // --- caller errors ---
    /// The caller's arena is smaller than the plan asked for.
    ArenaTooSmall,
    /// A limit override that is no positive integer (the spec's RangeError).
    InvalidLimit,

    // --- J3D animations on a model ---
    /// An animation that does not fit the model it is attached to: another
    /// joint or shape count, or a material name the model lacks.
    AnimationMismatch,
}

impl ErrorCode {
    /// The code's SCREAMING_CASE name (the seed's names for .bbmodel codes).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::FileTooLarge => "FILE_TOO_LARGE",
            Self::NotJson => "NOT_JSON",
            Self::NotBbmodel => "NOT_BBMODEL",
            Self::UnsupportedVersion => "UNSUPPORTED_VERSION",
            Self::InvalidField => "INVALID_FIELD",
            Self::TooManyElements => "TOO_MANY_ELEMENTS",
            Self::TooManyTriangles => "TOO_MANY_TRIANGLES",
            Self::TooManyVertices => "TOO_MANY_VERTICES",
            Self::TooManyTextures => "TOO_MANY_TEXTURES",
            Self::TooManyKeyframes => "TOO_MANY_KEYFRAMES",
            Self::NestingTooDeep => "NESTING_TOO_DEEP",
            Self::DuplicateReference => "DUPLICATE_REFERENCE",
            Self::TextureTooLarge => "TEXTURE_TOO_LARGE",
            Self::BadTexture => "BAD_TEXTURE",
            Self::UnknownFormat => "UNKNOWN_FORMAT",
            Self::CompressedBbmodel => "COMPRESSED_BBMODEL",
            Self::BadYaz0 => "BAD_YAZ0",
            Self::BadYay0 => "BAD_YAY0",
            Self::ArchiveNotModel => "ARCHIVE_NOT_MODEL",
            Self::Truncated => "TRUNCATED",
            Self::BadOffset => "BAD_OFFSET",
            Self::BadValue => "BAD_VALUE",
            Self::TooManyJoints => "TOO_MANY_JOINTS",
            Self::TooManyShapes => "TOO_MANY_SHAPES",
            Self::TooManyPackets => "TOO_MANY_PACKETS",
            Self::TooManyMaterials => "TOO_MANY_MATERIALS",
            Self::DisplayListTooLarge => "DISPLAY_LIST_TOO_LARGE",
            Self::HierarchyTooDeep => "HIERARCHY_TOO_DEEP",
            Self::TooManyMembers => "TOO_MANY_MEMBERS",
            Self::TooManyNodes => "TOO_MANY_NODES",
            Self::NameTooLong => "NAME_TOO_LONG",
            Self::ArchiveTooLarge => "ARCHIVE_TOO_LARGE",
            Self::ArenaTooSmall => "ARENA_TOO_SMALL",
            Self::InvalidLimit => "INVALID_LIMIT",
            Self::AnimationMismatch => "ANIMATION_MISMATCH",
        }
    }

    /// True for errors that are the caller's fault rather than the file's
    /// (the spec's RangeError for bad limit overrides; an arena too small).
    pub const fn is_caller_error(self) -> bool {
        matches!(self, Self::ArenaTooSmall | Self::InvalidLimit)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A fixed-capacity UTF-8 buffer that cuts, rather than fails, when full.
///
/// Used for every message and path so building an error never allocates and
/// never panics.
#[derive(Clone, PartialEq, Eq)]
pub struct FixedText<const N: usize> {
    bytes: [u8; N],
    len: usize,
    cut: bool,
}

impl<const N: usize> FixedText<N> {
    /// An empty text.
    pub const fn new() -> Self {
        Self {
            bytes: [0; N],
            len: 0,
            cut: false,
        }
    }

    /// The text, with a trailing `…` when something did not fit.
    pub fn as_str(&self) -> &str {
        let bytes = self.bytes.get(..self.len).unwrap_or_default();
        // Only whole `&str` pieces are ever copied in, cut at char boundaries.
        core::str::from_utf8(bytes).unwrap_or_default()
    }

    /// True when something written did not fit and was cut.
    pub const fn was_cut(&self) -> bool {
        self.cut
    }

    /// Room left, in bytes, keeping three for the `…` marker.
    fn room(&self) -> usize {
        N.saturating_sub(self.len).saturating_sub('…'.len_utf8())
    }

    fn push_raw(&mut self, s: &str) {
        let end = self.len + s.len();
        if let Some(dst) = self.bytes.get_mut(self.len..end) {
            dst.copy_from_slice(s.as_bytes());
            self.len = end;
        }
    }
}

impl<const N: usize> Default for FixedText<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Write for FixedText<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.cut {
            return Ok(());
        }
        let room = self.room();
        if s.len() <= room {
            self.push_raw(s);
        } else {
            let mut end = room;
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            self.push_raw(s.get(..end).unwrap_or_default());
            self.push_raw("…");
            self.cut = true;
        }
        Ok(())
    }
}

impl<const N: usize> fmt::Debug for FixedText<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<const N: usize> fmt::Display for FixedText<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Shows file content in a message: quoted, at most [`QUOTE_CHARS`] characters,
/// control characters escaped.
pub struct Quote<'a>(pub &'a str);

impl fmt::Display for Quote<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for (i, c) in self.0.chars().enumerate() {
            if i == QUOTE_CHARS {
                return f.write_str("…\"");
            }
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                c if c.is_control() => write!(f, "\\u{{{:x}}}", c as u32)?,
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}

/// Bytes as `52 41 52 43`, then ` …` when more follow: file content shown
/// as it is, never as escapes.
pub(crate) struct Hex<'a>(pub(crate) &'a [u8], pub(crate) bool);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(no bytes)");
        }
        for (i, b) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{b:02x}")?;
        }
        if self.1 {
            f.write_str(" …")?;
        }
        Ok(())
    }
}

/// One step of a JSON path: an object key or an array index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathSegment<'a> {
    /// `.key` (or `["key"]` when the key is no plain identifier).
    Key(&'a str),
    /// `[index]`.
    Index(usize),
}

/// A rendered JSON path such as `$.elements[3].faces.north.uv[2]`.
///
/// Paths longer than [`PATH_BYTES`] keep their first two segments and as many
/// last segments as fit, with `…` between: the start says which part of the
/// file, the end says which field.
#[derive(Clone, PartialEq, Eq)]
pub struct JsonPath {
    text: FixedText<PATH_BYTES>,
}

impl JsonPath {
    /// `$`, the whole document.
    pub fn root() -> Self {
        Self::from_segments(&[])
    }

    /// Renders `segments` below the root, shortening as described above.
    pub fn from_segments(segments: &[PathSegment<'_>]) -> Self {
        let mut text = FixedText::new();
        let full = segments.iter().map(segment_len).sum::<usize>() + 1;
        let _ = text.write_char('$');
        if full <= PATH_BYTES - '…'.len_utf8() {
            for s in segments {
                let _ = write!(text, "{}", DisplaySegment(*s));
            }
        } else {
            let head = segments.len().min(2);
            let (first, rest) = segments.split_at(head);
            for s in first {
                let _ = write!(text, "{}", DisplaySegment(*s));
            }
            // Keep the longest tail that fits after the head and the marker.
            let budget = (PATH_BYTES - 2 * '…'.len_utf8()).saturating_sub(text.len);
            let mut tail_len = 0;
            let mut tail_start = rest.len();
            while tail_start > 0 {
                let next = rest.get(tail_start - 1).map(segment_len).unwrap_or(0);
                if tail_len + next > budget {
                    break;
                }
                tail_len += next;
                tail_start -= 1;
            }
            let _ = text.write_str("…");
            for s in rest.get(tail_start..).unwrap_or_default() {
                let _ = write!(text, "{}", DisplaySegment(*s));
            }
        }
        Self { text }
    }

    /// The path as text.
    pub fn as_str(&self) -> &str {
        self.text.as_str()
    }
}

impl fmt::Debug for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

fn segment_len(s: &PathSegment<'_>) -> usize {
    struct Counter(usize);
    impl Write for Counter {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0 += s.len();
            Ok(())
        }
    }
    let mut c = Counter(0);
    let _ = write!(c, "{}", DisplaySegment(*s));
    c.0
}

struct DisplaySegment<'a>(PathSegment<'a>);

impl fmt::Display for DisplaySegment<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            PathSegment::Index(i) => write!(f, "[{i}]"),
            PathSegment::Key(k) if is_identifier(k) && k.len() <= QUOTE_CHARS => write!(f, ".{k}"),
            PathSegment::Key(k) => write!(f, "[{}]", Quote(k)),
        }
    }
}

/// A four-character section id such as `SHP1`, or none.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SectionId(pub [u8; 4]);

impl SectionId {
    /// The id as text; ids that are not printable ASCII show as `????`.
    pub fn as_str(&self) -> &str {
        if self.0.iter().all(|b| b.is_ascii_graphic()) {
            core::str::from_utf8(&self.0).unwrap_or("????")
        } else {
            "????"
        }
    }
}

impl fmt::Debug for SectionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where an error or warning is: a JSON path, or a byte offset in a binary file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Location {
    /// Not tied to a place in the file (caller errors, file-level limits).
    Nowhere,
    /// A path into a JSON document.
    Json(JsonPath),
    /// A byte offset (into the decompressed file for Yaz0) and the section it is in.
    Binary {
        /// Byte offset from the start of the (decompressed) file.
        offset: u64,
        /// The section the offset lies in, when it lies in one.
        section: Option<SectionId>,
    },
}

impl fmt::Display for Location {
    /// `$.elements[3]`, or `0x1234 SHP1` as design.md's `--json` schema writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Nowhere => Ok(()),
            Self::Json(path) => f.write_str(path.as_str()),
            Self::Binary {
                offset,
                section: Some(s),
            } => write!(f, "{offset:#x} {}", s.as_str()),
            Self::Binary {
                offset,
                section: None,
            } => write!(f, "{offset:#x}"),
        }
    }
}

/// Why a load failed: a code, where, and a message `<what> at <where>: <expected>`.
///
/// Built without allocation; about 300 bytes, returned by value. Building one is
/// the cold path of every load, so size is traded for never allocating.
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    code: ErrorCode,
    at: Location,
    message: FixedText<MESSAGE_BYTES>,
}

impl Error {
    /// An error at `at` whose message is `args` (formatted into a fixed buffer).
    #[cold]
    #[inline(never)]
    pub fn new(code: ErrorCode, at: Location, args: fmt::Arguments<'_>) -> Self {
        let mut message = FixedText::new();
        let _ = message.write_fmt(args);
        Self { code, at, message }
    }

    /// An error at a JSON path; the message reads `<what> at <path>: <expected>`.
    #[cold]
    #[inline(never)]
    pub fn json(code: ErrorCode, path: JsonPath, what: &str, expected: fmt::Arguments<'_>) -> Self {
        let mut message = FixedText::new();
        let _ = write!(message, "{what} at {}: {expected}", path.as_str());
        Self {
            code,
            at: Location::Json(path),
            message,
        }
    }

    /// An error at a byte offset of a binary file, inside `section` when known.
    #[cold]
    #[inline(never)]
    pub fn binary(
        code: ErrorCode,
        offset: u64,
        section: Option<SectionId>,
        args: fmt::Arguments<'_>,
    ) -> Self {
        Self::new(code, Location::Binary { offset, section }, args)
    }

    /// An error not tied to a place in the file.
    #[cold]
    #[inline(never)]
    pub fn nowhere(code: ErrorCode, args: fmt::Arguments<'_>) -> Self {
        Self::new(code, Location::Nowhere, args)
    }

    /// The error's code.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// Where in the file it happened.
    pub fn at(&self) -> &Location {
        &self.at
    }

    /// The human-readable message (at most [`MESSAGE_BYTES`] bytes).
    pub fn message(&self) -> &str {
        self.message.as_str()
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// What loaded with a default, as the loader specification names it ("Warnings").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningCode {
    /// An element type other than cube or mesh; skipped.
    UnsupportedElement,
    /// An unknown or malformed optional value; the default is used.
    UnsupportedValue,
    /// A uuid or name that names nothing; skipped.
    UnknownReference,
    /// A texture source that is not a data URI; never fetched.
    SourceNotFetched,
    /// No embedded image and no matching picked file.
    MissingTexture,
    /// An animation part not played as authored.
    UnsupportedChannel,
    /// A GX primitive that is not drawn as triangles (lines, points); skipped.
    UnsupportedPrimitive,
    /// Bytes after a PNG's zlib stream (in its IDAT or a later one);
    /// ignored, as libpng and the png crate ignore them.
    TrailingImageData,
    /// A J3D animation file shorter than its header declares (trailing
    /// padding stripped); read, since every table it uses is present.
    ShortAnimationFile,
}

impl WarningCode {
    /// The code's SCREAMING_CASE name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::UnsupportedElement => "UNSUPPORTED_ELEMENT",
            Self::UnsupportedValue => "UNSUPPORTED_VALUE",
            Self::UnknownReference => "UNKNOWN_REFERENCE",
            Self::SourceNotFetched => "SOURCE_NOT_FETCHED",
            Self::MissingTexture => "MISSING_TEXTURE",
            Self::UnsupportedChannel => "UNSUPPORTED_CHANNEL",
            Self::UnsupportedPrimitive => "UNSUPPORTED_PRIMITIVE",
            Self::TrailingImageData => "TRAILING_IMAGE_DATA",
            Self::ShortAnimationFile => "SHORT_ANIMATION_FILE",
        }
    }
}

impl fmt::Display for WarningCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Something that loaded with a default: a code, what it is about, where it
/// first was, a message, and how many times it was raised.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Warning {
    code: WarningCode,
    at: Location,
    message: FixedText<MESSAGE_BYTES>,
    subject: FixedText<SUBJECT_BYTES>,
    count: u32,
}

impl Warning {
    /// A warning at `at` whose message is `args`, about nothing named.
    pub fn new(code: WarningCode, at: Location, args: fmt::Arguments<'_>) -> Self {
        let mut message = FixedText::new();
        let _ = message.write_fmt(args);
        Self {
            code,
            at,
            message,
            subject: FixedText::new(),
            count: 1,
        }
    }

    /// The same warning about `subject` (`bone "tail"`, `texture "skin.png"`):
    /// warnings of one code, subject and message are kept as one group.
    #[must_use]
    pub fn on(mut self, subject: fmt::Arguments<'_>) -> Self {
        self.subject = FixedText::new();
        let _ = self.subject.write_fmt(subject);
        self
    }

    /// The warning's code.
    pub fn code(&self) -> WarningCode {
        self.code
    }

    /// Where in the file its first occurrence is.
    pub fn at(&self) -> &Location {
        &self.at
    }

    /// The human-readable message.
    pub fn message(&self) -> &str {
        self.message.as_str()
    }

    /// What it is about (`bone "tail"`), empty when it names nothing.
    pub fn subject(&self) -> &str {
        self.subject.as_str()
    }

    /// How many times it was raised (at least 1; saturates at `u32::MAX`).
    pub fn count(&self) -> u32 {
        self.count
    }

    /// One code, subject and message; a warning naming no subject is about
    /// the top-level entry its JSON path starts in (`$.textures[1]`), so
    /// two textures' or elements' warnings stay apart.
    fn same_group(&self, other: &Self) -> bool {
        self.code == other.code
            && self.subject.as_str() == other.subject.as_str()
            && self.message.as_str() == other.message.as_str()
            && (!self.subject.as_str().is_empty() || self.entry() == other.entry())
    }

    /// `$.textures[1]` of `$.textures[1].render_mode`: the path up to its
    /// first index; "" for a binary place (J3D warnings group by message).
    fn entry(&self) -> &str {
        match &self.at {
            Location::Json(path) => {
                let p = path.as_str();
                p.find(']').map_or(p, |end| &p[..=end])
            }
            _ => "",
        }
    }
}

impl fmt::Display for Warning {
    /// `UNSUPPORTED_CHANNEL ×46 on bone "tail" at $.animations[0]…: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code.as_str())?;
        if self.count > 1 {
            write!(f, " ×{}", self.count)?;
        }
        if !self.subject.as_str().is_empty() {
            write!(f, " on {}", self.subject)?;
        }
        if self.at != Location::Nowhere {
            let first = if self.count > 1 { "first " } else { "" };
            write!(f, " ({first}at {})", self.at)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// The warnings of one load, grouped: one entry per code, subject and
/// message with a count, in the order each group was first raised. At most
/// [`MAX_WARNINGS`] groups are kept; warnings of later groups are counted in
/// [`Warnings::dropped`].
///
/// Held by value (about 36 KiB): on a small stack keep it in a `static` or
/// inside the caller's own state.
#[derive(Clone, Debug, Default)]
pub struct Warnings {
    kept: heapless::Vec<Warning, MAX_WARNINGS>,
    dropped: usize,
}

impl Warnings {
    /// No warnings.
    pub const fn new() -> Self {
        Self {
            kept: heapless::Vec::new(),
            dropped: 0,
        }
    }

    /// Counts `warning` in its group, starts a group for it, or counts it as
    /// dropped when [`MAX_WARNINGS`] groups are kept.
    pub fn push(&mut self, warning: Warning) {
        if let Some(group) = self.kept.iter_mut().find(|g| g.same_group(&warning)) {
            group.count = group.count.saturating_add(warning.count);
        } else if self.kept.push(warning).is_err() {
            self.dropped += 1;
        }
    }

    /// The kept groups, in the order each was first raised.
    pub fn as_slice(&self) -> &[Warning] {
        &self.kept
    }

    /// Warnings raised in no kept group (after [`MAX_WARNINGS`] groups).
    pub const fn dropped(&self) -> usize {
        self.dropped
    }

    /// Every warning raised: the kept groups' counts and the dropped ones.
    pub fn total(&self) -> usize {
        self.kept
            .iter()
            .fold(self.dropped, |n, w| n.saturating_add(w.count as usize))
    }

    /// Forgets every warning.
    pub fn clear(&mut self) {
        self.kept.clear();
        self.dropped = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_path_renders_keys_and_indices() {
        let path = JsonPath::from_segments(&[
            PathSegment::Key("elements"),
            PathSegment::Index(3),
            PathSegment::Key("faces"),
            PathSegment::Key("north"),
            PathSegment::Key("uv"),
            PathSegment::Index(2),
        ]);
        assert_eq!(path.as_str(), "$.elements[3].faces.north.uv[2]");
        assert_eq!(
            JsonPath::from_segments(&[PathSegment::Key("a b")]).as_str(),
            "$[\"a b\"]"
        );
    }

    #[test]
    fn deep_paths_keep_head_and_tail() {
        let mut segs = heapless::Vec::<PathSegment<'_>, 200>::new();
        segs.push(PathSegment::Key("outliner")).unwrap();
        for i in 0..64 {
            segs.push(PathSegment::Index(i)).unwrap();
            segs.push(PathSegment::Key("children")).unwrap();
        }
        segs.push(PathSegment::Index(7)).unwrap();
        let path = JsonPath::from_segments(&segs);
        let s = path.as_str();
        assert!(s.len() <= PATH_BYTES, "{s}");
        assert!(s.starts_with("$.outliner[0]…"), "{s}");
        assert!(s.ends_with(".children[7]"), "{s}");
    }

    #[test]
    fn messages_quote_at_most_32_characters() {
        let long = "x".repeat(100);
        let e = Error::json(
            ErrorCode::InvalidField,
            JsonPath::from_segments(&[PathSegment::Key("name")]),
            "string too long",
            format_args!("{}", Quote(&long)),
        );
        let quoted = e.message().split('"').nth(1).unwrap();
        assert_eq!(quoted.chars().count(), 32 + 1, "{}", e.message());
        assert!(e.message().starts_with("string too long at $.name: \""));
    }

    #[test]
    fn fixed_text_cuts_on_char_boundary() {
        let mut t = FixedText::<8>::new();
        let _ = t.write_str("ééééé");
        assert!(t.was_cut());
        assert_eq!(t.as_str(), "éé…");
    }

    #[test]
    fn warnings_group_by_code_subject_and_message() {
        // Issue 35: one entry per code and subject with a count, so the
        // kept list holds distinct problems, not repeats.
        let mut w = Warnings::new();
        for i in 0..46 {
            let at = JsonPath::from_segments(&[PathSegment::Key("k"), PathSegment::Index(i)]);
            w.push(
                Warning::new(
                    WarningCode::UnsupportedChannel,
                    Location::Json(at),
                    format_args!("molang"),
                )
                .on(format_args!("bone {}", Quote("tail"))),
            );
        }
        let other = Warning::new(
            WarningCode::UnsupportedChannel,
            Location::Nowhere,
            format_args!("molang"),
        );
        w.push(other.clone().on(format_args!("bone {}", Quote("head"))));
        w.push(other);
        assert_eq!(w.as_slice().len(), 3);
        assert_eq!(w.total(), 48);
        let tail = &w.as_slice()[0];
        assert_eq!((tail.count(), tail.subject()), (46, "bone \"tail\""));
        let first = JsonPath::from_segments(&[PathSegment::Key("k"), PathSegment::Index(0)]);
        assert_eq!(tail.at(), &Location::Json(first));
        let mut t = FixedText::<96>::new();
        write!(t, "{tail}").unwrap();
        assert_eq!(
            t.as_str(),
            "UNSUPPORTED_CHANNEL ×46 on bone \"tail\" (first at $.k[0]): molang"
        );
    }

    #[test]
    fn warnings_naming_no_subject_group_per_top_level_entry() {
        // Two textures' identical warnings are two problems; one texture's
        // repeats are one.
        let at = |i: usize, key: &str| {
            Location::Json(JsonPath::from_segments(&[
                PathSegment::Key("textures"),
                PathSegment::Index(i),
                PathSegment::Key(key),
            ]))
        };
        let mut w = Warnings::new();
        for (i, key) in [(0, "a"), (0, "b"), (1, "a")] {
            w.push(Warning::new(
                WarningCode::UnsupportedValue,
                at(i, key),
                format_args!("m"),
            ));
        }
        let counts: heapless::Vec<u32, 4> = w.as_slice().iter().map(Warning::count).collect();
        assert_eq!(counts, [2, 1]);
    }

    #[test]
    fn warnings_keep_max_groups_and_count_the_rest() {
        // Spec: MAX_BBMODEL_WARNINGS, here a cap on groups: at the cap every
        // group is kept, one past it is counted, repeats of kept groups count.
        let mut w = Warnings::new();
        let push = |w: &mut Warnings, i: usize| {
            w.push(Warning::new(
                WarningCode::UnsupportedElement,
                Location::Nowhere,
                format_args!("x{i}"),
            ));
        };
        for i in 0..MAX_WARNINGS {
            push(&mut w, i);
        }
        assert_eq!((w.as_slice().len(), w.dropped()), (MAX_WARNINGS, 0));
        push(&mut w, MAX_WARNINGS);
        push(&mut w, 0);
        assert_eq!((w.as_slice().len(), w.dropped()), (MAX_WARNINGS, 1));
        assert_eq!(w.as_slice()[0].count(), 2);
        assert_eq!(w.total(), MAX_WARNINGS + 2);
    }

    #[test]
    fn binary_location_prints_offset_and_section() {
        let at = Location::Binary {
            offset: 0x1234,
            section: Some(SectionId(*b"SHP1")),
        };
        let mut t = FixedText::<32>::new();
        write!(t, "{at}").unwrap();
        assert_eq!(t.as_str(), "0x1234 SHP1");
    }
}
