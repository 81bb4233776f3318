//! Errors and warnings as C sees them: the library's codes as C enums, the
//! place and the message copied into caller-owned structs (no pointer in
//! them outlives the call).

use core::ffi::c_char;
use core::fmt::Write;

use decoder::error::Location;
use decoder::{Error, ErrorCode, Warning, WarningCode, Warnings};

use crate::{SCENEDEC_STATUS_ERROR, scenedec_status};

/// Bytes of `scenedec_error.message` and `scenedec_warning.message`, NUL included.
pub const SCENEDEC_MESSAGE_BYTES: usize = 164;
/// Bytes of `scenedec_location.text`, NUL included.
pub const SCENEDEC_LOCATION_BYTES: usize = 128;
/// Warning groups a `scenedec_warnings` keeps (later ones are only counted).
pub const SCENEDEC_MAX_WARNINGS: usize = 100;
/// Bytes of `scenedec_warning.subject`, NUL included.
pub const SCENEDEC_SUBJECT_BYTES: usize = 52;

/// Why a model could not be read: the library's `ErrorCode`, same names.
/// `scenedec_error_code_name` gives the name as `inspect --json` prints it.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum scenedec_error_code {
    /// No error (a `scenedec_error` before any failure).
    SCENEDEC_ERROR_NONE = 0,
    /// The file exceeds the file size limit.
    SCENEDEC_ERROR_FILE_TOO_LARGE = 1,
    /// Empty, not UTF-8, or not JSON.
    SCENEDEC_ERROR_NOT_JSON = 2,
    /// Not a .bbmodel document.
    SCENEDEC_ERROR_NOT_BBMODEL = 3,
    /// A .bbmodel format version outside 3.x–5.x.
    SCENEDEC_ERROR_UNSUPPORTED_VERSION = 4,
    /// A field of the wrong type or out of range.
    SCENEDEC_ERROR_INVALID_FIELD = 5,
    /// Elements, groups or outliner entries over their limit.
    SCENEDEC_ERROR_TOO_MANY_ELEMENTS = 6,
    /// Triangles over the limit.
    SCENEDEC_ERROR_TOO_MANY_TRIANGLES = 7,
    /// Vertices (or a face's vertices) over the limit.
    SCENEDEC_ERROR_TOO_MANY_VERTICES = 8,
    /// Textures over the limit.
    SCENEDEC_ERROR_TOO_MANY_TEXTURES = 9,
    /// Animations, animators or keyframes over their limit.
    SCENEDEC_ERROR_TOO_MANY_KEYFRAMES = 10,
    /// Groups nested deeper than the limit.
    SCENEDEC_ERROR_NESTING_TOO_DEEP = 11,
    /// The same uuid twice.
    SCENEDEC_ERROR_DUPLICATE_REFERENCE = 12,
    /// A texture over its size limits.
    SCENEDEC_ERROR_TEXTURE_TOO_LARGE = 13,
    /// A texture that is not a decodable PNG or GX image.
    SCENEDEC_ERROR_BAD_TEXTURE = 14,
    /// Bytes of no format scenedec reads.
    SCENEDEC_ERROR_UNKNOWN_FORMAT = 15,
    /// An `<lz>`-compressed .bbmodel (not supported yet).
    SCENEDEC_ERROR_COMPRESSED_BBMODEL = 16,
    /// A bad Yaz0 stream.
    SCENEDEC_ERROR_BAD_YAZ0 = 17,
    /// A bad Yay0 stream.
    SCENEDEC_ERROR_BAD_YAY0 = 18,
    /// A RARC archive where a model was expected.
    SCENEDEC_ERROR_ARCHIVE_NOT_MODEL = 19,
    /// The data ends before a record it declares.
    SCENEDEC_ERROR_TRUNCATED = 20,
    /// An offset or index outside its section or array.
    SCENEDEC_ERROR_BAD_OFFSET = 21,
    /// A value the format does not allow.
    SCENEDEC_ERROR_BAD_VALUE = 22,
    /// Joints over the limit.
    SCENEDEC_ERROR_TOO_MANY_JOINTS = 23,
    /// Shapes over the limit.
    SCENEDEC_ERROR_TOO_MANY_SHAPES = 24,
    /// Packets over the limit.
    SCENEDEC_ERROR_TOO_MANY_PACKETS = 25,
    /// Materials over the limit.
    SCENEDEC_ERROR_TOO_MANY_MATERIALS = 26,
    /// A display list over the limit.
    SCENEDEC_ERROR_DISPLAY_LIST_TOO_LARGE = 27,
    /// A hierarchy too deep, or a cycle.
    SCENEDEC_ERROR_HIERARCHY_TOO_DEEP = 28,
    /// Archive members over the limit.
    SCENEDEC_ERROR_TOO_MANY_MEMBERS = 29,
    /// Archive directories over the limit.
    SCENEDEC_ERROR_TOO_MANY_NODES = 30,
    /// A name over the limit.
    SCENEDEC_ERROR_NAME_TOO_LONG = 31,
    /// An archive over its size limits.
    SCENEDEC_ERROR_ARCHIVE_TOO_LARGE = 32,
    /// The caller's arena is smaller than the plan asked for.
    SCENEDEC_ERROR_ARENA_TOO_SMALL = 33,
    /// A limit override that is no positive integer, or an unknown limit name.
    SCENEDEC_ERROR_INVALID_LIMIT = 34,
    /// A code this header does not know yet (a newer library).
    SCENEDEC_ERROR_OTHER = 255,
}

pub use scenedec_error_code::*;

/// Every C code with its library code, in one table: the conversion, the
/// name lookup and the tests all read it.
pub(crate) const CODES: [(scenedec_error_code, ErrorCode, &core::ffi::CStr); 34] = [
    (
        SCENEDEC_ERROR_FILE_TOO_LARGE,
        ErrorCode::FileTooLarge,
        c"FILE_TOO_LARGE",
    ),
    (SCENEDEC_ERROR_NOT_JSON, ErrorCode::NotJson, c"NOT_JSON"),
    (
        SCENEDEC_ERROR_NOT_BBMODEL,
        ErrorCode::NotBbmodel,
        c"NOT_BBMODEL",
    ),
    (
        SCENEDEC_ERROR_UNSUPPORTED_VERSION,
        ErrorCode::UnsupportedVersion,
        c"UNSUPPORTED_VERSION",
    ),
    (
        SCENEDEC_ERROR_INVALID_FIELD,
        ErrorCode::InvalidField,
        c"INVALID_FIELD",
    ),
    (
        SCENEDEC_ERROR_TOO_MANY_ELEMENTS,
        ErrorCode::TooManyElements,
        c"TOO_MANY_ELEMENTS",
    ),
    (
        SCENEDEC_ERROR_TOO_MANY_TRIANGLES,
        ErrorCode::TooManyTriangles,
        c"TOO_MANY_TRIANGLES",
    ),
    (
        SCENEDEC_ERROR_TOO_MANY_VERTICES,
        ErrorCode::TooManyVertices,
        c"TOO_MANY_VERTICES",
    ),
    (
        SCENEDEC_ERROR_TOO_MANY_TEXTURES,
        ErrorCode::TooManyTextures,
        c"TOO_MANY_TEXTURES",
    ),
    (
        SCENEDEC_ERROR_TOO_MANY_KEYFRAMES,
        ErrorCode::TooManyKeyframes,
        c"TOO_MANY_KEYFRAMES",
    ),
    (
        SCENEDEC_ERROR_NESTING_TOO_DEEP,
        ErrorCode::NestingTooDeep,
        c"NESTING_TOO_DEEP",
    ),
    (
        SCENEDEC_ERROR_DUPLICATE_REFERENCE,
        ErrorCode::DuplicateReference,
        c"DUPLICATE_REFERENCE",
    ),
    (
        SCENEDEC_ERROR_TEXTURE_TOO_LARGE,
        ErrorCode::TextureTooLarge,
        c"TEXTURE_TOO_LARGE",
    ),
    (
        SCENEDEC_ERROR_BAD_TEXTURE,
        ErrorCode::BadTexture,
        c"BAD_TEXTURE",
    ),
    (
        SCENEDEC_ERROR_UNKNOWN_FORMAT,
        ErrorCode::UnknownFormat,
        c"UNKNOWN_FORMAT",
    ),
    (
        SCENEDEC_ERROR_COMPRESSED_BBMODEL,
        ErrorCode::CompressedBbmodel,
        c"COMPRESSED_BBMODEL",
    ),
    (SCENEDEC_ERROR_BAD_YAZ0, ErrorCode::BadYaz0, c"BAD_YAZ0"),
    (SCENEDEC_ERROR_BAD_YAY0, ErrorCode::BadYay0, c"BAD_YAY0"),
    (
        SCENEDEC_ERROR_ARCHIVE_NOT_MODEL,
        ErrorCode::ArchiveNotModel,
        c"ARCHIVE_NOT_MODEL",
    ),
    (SCENEDEC_ERROR_TRUNCATED, ErrorCode::Truncated, c"TRUNCATED"),
    (
        SCENEDEC_ERROR_BAD_OFFSET,
        ErrorCode::BadOffset,
        c"BAD_OFFSET",
    ),
    (SCENEDEC_ERROR_BAD_VALUE, ErrorCode::BadValue, c"BAD_VALUE"),
    (
        SCENEDEC_ERROR_TOO_MANY_JOINTS,
        ErrorCode::TooManyJoints,
        c"TOO_MANY_JOINTS",
    ),
    (
        SCENEDEC_ERROR_TOO_MANY_SHAPES,
        ErrorCode::TooManyShapes,
        c"TOO_MANY_SHAPES",
    ),
    (
        SCENEDEC_ERROR_TOO_MANY_PACKETS,
        ErrorCode::TooManyPackets,
        c"TOO_MANY_PACKETS",
    ),
    (
        SCENEDEC_ERROR_TOO_MANY_MATERIALS,
        ErrorCode::TooManyMaterials,
        c"TOO_MANY_MATERIALS",
    ),
    (
        SCENEDEC_ERROR_DISPLAY_LIST_TOO_LARGE,
        ErrorCode::DisplayListTooLarge,
        c"DISPLAY_LIST_TOO_LARGE",
    ),
    (
        SCENEDEC_ERROR_HIERARCHY_TOO_DEEP,
        ErrorCode::HierarchyTooDeep,
        c"HIERARCHY_TOO_DEEP",
    ),
    (
        SCENEDEC_ERROR_TOO_MANY_MEMBERS,
        ErrorCode::TooManyMembers,
        c"TOO_MANY_MEMBERS",
    ),
    (
        SCENEDEC_ERROR_TOO_MANY_NODES,
        ErrorCode::TooManyNodes,
        c"TOO_MANY_NODES",
    ),
    (
        SCENEDEC_ERROR_NAME_TOO_LONG,
        ErrorCode::NameTooLong,
        c"NAME_TOO_LONG",
    ),
    (
        SCENEDEC_ERROR_ARCHIVE_TOO_LARGE,
        ErrorCode::ArchiveTooLarge,
        c"ARCHIVE_TOO_LARGE",
    ),
    (
        SCENEDEC_ERROR_ARENA_TOO_SMALL,
        ErrorCode::ArenaTooSmall,
        c"ARENA_TOO_SMALL",
    ),
    (
        SCENEDEC_ERROR_INVALID_LIMIT,
        ErrorCode::InvalidLimit,
        c"INVALID_LIMIT",
    ),
];

fn c_code(code: ErrorCode) -> scenedec_error_code {
    CODES
        .iter()
        .find(|(_, rust, _)| *rust == code)
        .map_or(SCENEDEC_ERROR_OTHER, |(c, _, _)| *c)
}

/// The name of an error code (`"TOO_MANY_TRIANGLES"`, as the library and
/// `scenedec inspect --json` spell it): a static NUL-terminated string,
/// never NULL, never to be freed. `"NONE"` for 0, `"OTHER"` for a value
/// this library does not know.
#[unsafe(no_mangle)]
pub extern "C" fn scenedec_error_code_name(code: u32) -> *const c_char {
    let name = match code {
        0 => c"NONE",
        _ => CODES
            .iter()
            .find(|(c, _, _)| *c as u32 == code)
            .map_or(c"OTHER", |(_, _, name)| *name),
    };
    name.as_ptr()
}

/// Why a warning was raised: the library's `WarningCode`, same names.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum scenedec_warning_code {
    /// An element type other than cube or mesh; skipped.
    SCENEDEC_WARNING_UNSUPPORTED_ELEMENT = 1,
    /// An unknown or malformed optional value; the default is used.
    SCENEDEC_WARNING_UNSUPPORTED_VALUE = 2,
    /// A uuid or name that names nothing; skipped.
    SCENEDEC_WARNING_UNKNOWN_REFERENCE = 3,
    /// A texture source that is not a data URI; never fetched.
    SCENEDEC_WARNING_SOURCE_NOT_FETCHED = 4,
    /// No embedded image and no matching texture file.
    SCENEDEC_WARNING_MISSING_TEXTURE = 5,
    /// An animation part not played as authored.
    SCENEDEC_WARNING_UNSUPPORTED_CHANNEL = 6,
    /// A GX primitive that is not triangles; skipped.
    SCENEDEC_WARNING_UNSUPPORTED_PRIMITIVE = 7,
    /// A code this header does not know yet.
    SCENEDEC_WARNING_OTHER = 255,
}

pub use scenedec_warning_code::*;

fn c_warning_code(code: WarningCode) -> scenedec_warning_code {
    match code {
        WarningCode::UnsupportedElement => SCENEDEC_WARNING_UNSUPPORTED_ELEMENT,
        WarningCode::UnsupportedValue => SCENEDEC_WARNING_UNSUPPORTED_VALUE,
        WarningCode::UnknownReference => SCENEDEC_WARNING_UNKNOWN_REFERENCE,
        WarningCode::SourceNotFetched => SCENEDEC_WARNING_SOURCE_NOT_FETCHED,
        WarningCode::MissingTexture => SCENEDEC_WARNING_MISSING_TEXTURE,
        WarningCode::UnsupportedChannel => SCENEDEC_WARNING_UNSUPPORTED_CHANNEL,
        WarningCode::UnsupportedPrimitive => SCENEDEC_WARNING_UNSUPPORTED_PRIMITIVE,
        _ => SCENEDEC_WARNING_OTHER,
    }
}

/// What kind of place a `scenedec_location` is.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum scenedec_location_kind {
    /// Not tied to a place in the file.
    SCENEDEC_LOCATION_NOWHERE = 0,
    /// A JSON path (`text` holds it, e.g. `$.elements[3]`).
    SCENEDEC_LOCATION_JSON = 1,
    /// A byte offset (`offset`; `section` when it lies in one).
    SCENEDEC_LOCATION_BINARY = 2,
}

pub use scenedec_location_kind::*;

/// Where an error or warning is.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scenedec_location {
    /// Nowhere, a JSON path or a byte offset.
    pub kind: scenedec_location_kind,
    /// The J3D section id (e.g. "SHP1"), or four zero bytes; not NUL-terminated.
    pub section: [u8; 4],
    /// Byte offset (into the decompressed file for Yaz0), for BINARY.
    pub offset: u64,
    /// The place as text, NUL-terminated (`$.elements[3]`, `0x1234 SHP1`, or "").
    pub text: [c_char; SCENEDEC_LOCATION_BYTES],
}

/// An error: code, place and message, copied out of the library. Plain
/// data owned by the caller; nothing in it points anywhere.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scenedec_error {
    /// The code.
    pub code: scenedec_error_code,
    /// Where in the file.
    pub location: scenedec_location,
    /// `<what> at <where>: <expected>`, UTF-8, NUL-terminated.
    pub message: [c_char; SCENEDEC_MESSAGE_BYTES],
}

/// A group of warnings: one code, subject and message, raised `count` times.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scenedec_warning {
    /// The code.
    pub code: scenedec_warning_code,
    /// Where in the file its first occurrence is.
    pub location: scenedec_location,
    /// The message, UTF-8, NUL-terminated.
    pub message: [c_char; SCENEDEC_MESSAGE_BYTES],
    /// What it is about (`bone "tail"`), UTF-8, NUL-terminated; "" for nothing named.
    pub subject: [c_char; SCENEDEC_SUBJECT_BYTES],
    /// How many times it was raised (at least 1).
    pub count: u32,
}

/// The warnings of one decode, grouped: `count` groups kept in the order
/// each was first raised, `dropped` more warnings counted after the list
/// was full. About 37 KiB: keep it static or in the caller's own state on
/// a small stack.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scenedec_warnings {
    /// Entries of `items` in use.
    pub count: usize,
    /// Warnings raised after `items` was full.
    pub dropped: usize,
    /// The kept warnings.
    pub items: [scenedec_warning; SCENEDEC_MAX_WARNINGS],
}

/// Copies `text` into `out` (cut at a UTF-8 boundary) and NUL-terminates it.
fn copy_text(text: &str, out: &mut [c_char]) {
    let room = out.len().saturating_sub(1);
    let mut end = text.len().min(room);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    for (slot, b) in out.iter_mut().zip(text.as_bytes()[..end].iter()) {
        *slot = *b as c_char;
    }
    if let Some(nul) = out.get_mut(end) {
        *nul = 0;
    }
}

/// A fixed buffer that `write!` fills, cutting what does not fit.
struct Fixed<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> Write for Fixed<N> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let room = N - self.len;
        let mut take = s.len().min(room);
        while !s.is_char_boundary(take) {
            take -= 1;
        }
        self.buf[self.len..self.len + take].copy_from_slice(&s.as_bytes()[..take]);
        self.len += take;
        Ok(())
    }
}

fn location(at: &Location) -> scenedec_location {
    let mut out = scenedec_location {
        kind: SCENEDEC_LOCATION_NOWHERE,
        section: [0; 4],
        offset: 0,
        text: [0; SCENEDEC_LOCATION_BYTES],
    };
    match at {
        Location::Nowhere => {}
        Location::Json(_) => out.kind = SCENEDEC_LOCATION_JSON,
        Location::Binary { offset, section } => {
            out.kind = SCENEDEC_LOCATION_BINARY;
            out.offset = *offset;
            out.section = section.map_or([0; 4], |s| s.0);
        }
    }
    let mut text = Fixed::<{ SCENEDEC_LOCATION_BYTES - 1 }> {
        buf: [0; SCENEDEC_LOCATION_BYTES - 1],
        len: 0,
    };
    let _ = write!(text, "{at}");
    let s = core::str::from_utf8(&text.buf[..text.len]).unwrap_or_default();
    copy_text(s, &mut out.text);
    out
}

impl scenedec_error {
    pub(crate) fn from_error(e: &Error) -> Self {
        let mut out = Self {
            code: c_code(e.code()),
            location: location(e.at()),
            message: [0; SCENEDEC_MESSAGE_BYTES],
        };
        copy_text(e.message(), &mut out.message);
        out
    }
}

impl scenedec_warning {
    fn from_warning(w: &Warning) -> Self {
        let mut out = Self {
            code: c_warning_code(w.code()),
            location: location(w.at()),
            message: [0; SCENEDEC_MESSAGE_BYTES],
            subject: [0; SCENEDEC_SUBJECT_BYTES],
            count: w.count(),
        };
        copy_text(w.message(), &mut out.message);
        copy_text(w.subject(), &mut out.subject);
        out
    }
}

/// Writes `e` into `out` (when not NULL) and returns [`SCENEDEC_STATUS_ERROR`].
///
/// # Safety
/// `out` is NULL or points to a writable `scenedec_error`.
pub(crate) unsafe fn report(e: &Error, out: *mut scenedec_error) -> scenedec_status {
    if !out.is_null() {
        // SAFETY: writable (the contract); `write` drops nothing, so the
        // caller's possibly uninitialised struct is never read.
        unsafe { out.write(scenedec_error::from_error(e)) };
    }
    SCENEDEC_STATUS_ERROR
}

/// Copies `warnings` into `out` (when not NULL), entry by entry, so no
/// 30 KiB value is built on the stack first.
///
/// # Safety
/// `out` is NULL or points to a writable `scenedec_warnings`.
pub(crate) unsafe fn copy_warnings(warnings: &Warnings, out: *mut scenedec_warnings) {
    if out.is_null() {
        return;
    }
    let kept = warnings.as_slice();
    // SAFETY: `out` is writable (the contract); each field is written
    // through a raw pointer, never read, so uninitialised memory is fine.
    unsafe {
        let items = core::ptr::addr_of_mut!((*out).items).cast::<scenedec_warning>();
        for (i, w) in kept.iter().take(SCENEDEC_MAX_WARNINGS).enumerate() {
            items.add(i).write(scenedec_warning::from_warning(w));
        }
        core::ptr::addr_of_mut!((*out).count).write(kept.len().min(SCENEDEC_MAX_WARNINGS));
        core::ptr::addr_of_mut!((*out).dropped).write(
            warnings
                .dropped()
                .saturating_add(kept.len().saturating_sub(SCENEDEC_MAX_WARNINGS)),
        );
    }
}

// The subject fits with its NUL.
const _: () = assert!(SCENEDEC_SUBJECT_BYTES > decoder::error::SUBJECT_BYTES);
