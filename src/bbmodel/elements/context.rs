//! What every reading of an element shares: which pass reads it, what the
//! read needs besides the element's bytes, and how a field's error waits
//! until the element's type says whether that field is read.

use core::cell::Cell;

use crate::bbmodel::document::Document;
use crate::bbmodel::document::value::Cursor;
use crate::bbmodel::textures::entries::Textures;
use crate::bbmodel::textures::shown::{Placement, TextureRules};
use crate::error::{Error, ErrorCode};
use crate::limits::BbmodelLimits;

/// Which pass reads an element. Both counting passes convert only the
/// numbers that decide how many triangles there are; they differ in what
/// they check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// `measure`: counts, and checks every value, so that a decode of the
    /// same bytes cannot fail on one.
    Measure,
    /// The counting pass of a decode (`load`, `decode_into`): counts, and
    /// passes over by their brackets the values the fill pass after it
    /// reads and checks anyway (UVs, origins, rotations, `uv_offset`), and
    /// counts mesh vertex keys and a face's vertex list by their commas.
    /// Its plan is `Measure`'s; its caller reports `Measure`'s error
    /// whenever either pass fails ([`crate::bbmodel::measured_error`]), so the
    /// values are checked once and the errors stay `measure`'s.
    Count,
    /// The fill pass of a decode: every value.
    Fill,
}

impl Pass {
    /// A counting pass: it checks the JSON no other pass reads (faces left
    /// unread by a type that turned out not to read them).
    pub(in crate::bbmodel) const fn counts(self) -> bool {
        !matches!(self, Self::Fill)
    }
}

/// What reading an element needs besides its bytes.
#[derive(Clone, Copy, Debug)]
pub struct ElementContext<'c, 'a> {
    /// The document.
    pub doc: &'c Document<'a>,
    /// The limits.
    pub limits: &'c BbmodelLimits,
    /// The textures as faces see them.
    pub textures: &'c Textures<'c>,
    /// Which texture each face shows (convention 15).
    pub rules: &'c TextureRules,
    /// The texture the element's place gives its faces, when the rules
    /// ask for one ([`TextureRules::by_placement`]).
    pub placed: Placement,
    /// The last mesh `vertices` object counted, shared by the passes over
    /// one document.
    pub counted: &'c VertexCounts,
}

/// Runs `read` on the cursor; a failure that is no syntax error is kept in
/// `slot` (the first one wins) and the cursor brought back to `depth`, so
/// the object around it can be read on.
#[inline(never)]
pub(in crate::bbmodel) fn deferred<'a, T>(
    c: &mut Cursor<'a>,
    depth: usize,
    slots: &mut [&mut Option<Error>],
    read: impl FnOnce(&mut Cursor<'a>) -> Result<T, Error>,
) -> Result<Option<T>, Error> {
    match read(c) {
        Ok(value) => Ok(Some(value)),
        Err(e) if e.code() == ErrorCode::NotJson => Err(e),
        Err(e) => {
            for slot in slots.iter_mut() {
                if slot.is_none() {
                    **slot = Some(e.clone());
                }
            }
            c.recover(depth)?;
            Ok(None)
        }
    }
}

/// A `vertices` object a decode's counting pass walked by its brackets:
/// where it opens and closes, and how many keys its commas give. When that
/// pass fails, `measure`'s checking pass runs over the same document to
/// find the error to report, and takes the count from here instead of
/// walking the object again (for a mesh refused by maxVertices, a walk
/// over most of the file). Both are functions of the bytes from `open` on,
/// so the count is the one the walk would give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CountedVertices {
    /// The offset of its `{`.
    pub(in crate::bbmodel) open: usize,
    /// The offset of its `}`.
    pub(in crate::bbmodel) close: usize,
    /// Its keys, by its commas.
    pub(in crate::bbmodel) keys: usize,
}

/// The last `vertices` object a pass counted, for a later pass over the
/// same document.
pub(crate) type VertexCounts = Cell<Option<CountedVertices>>;
