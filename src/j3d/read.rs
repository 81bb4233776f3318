//! Bounds-checked big-endian reads inside one section, with errors that name
//! the section and the absolute file offset.

use core::fmt;

use zerocopy::{FromBytes, Immutable, KnownLayout};

use super::Section;
use crate::error::{Error, ErrorCode, SectionId};

/// A section's bytes plus where they sit in the file, for reads and errors.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SectionReader<'a> {
    bytes: &'a [u8],
    base: usize,
    id: SectionId,
}

impl<'a> SectionReader<'a> {
    pub(crate) fn new(section: Section<'a>) -> Self {
        Self {
            bytes: section.bytes,
            base: section.offset,
            id: section.id,
        }
    }

    /// The section's id.
    pub(crate) fn id(&self) -> SectionId {
        self.id
    }

    /// The section's bytes (header included; offsets are relative to them).
    pub(crate) fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Absolute file offset of `offset` in this section.
    pub(crate) fn file_offset(&self, offset: usize) -> usize {
        self.base.saturating_add(offset)
    }

    /// An error at `offset` (relative to the section) in this section.
    pub(crate) fn error(&self, code: ErrorCode, offset: usize, args: fmt::Arguments<'_>) -> Error {
        Error::binary(code, self.file_offset(offset) as u64, Some(self.id), args)
    }

    fn truncated(&self, offset: usize, len: usize) -> Error {
        self.error(
            ErrorCode::Truncated,
            offset,
            format_args!(
                "{} bytes at {offset:#x} of {} run past its end ({} bytes)",
                len,
                self.id.as_str(),
                self.bytes.len()
            ),
        )
    }

    /// `len` bytes at `offset`.
    pub(crate) fn slice(&self, offset: usize, len: usize) -> Result<&'a [u8], Error> {
        offset
            .checked_add(len)
            .and_then(|end| self.bytes.get(offset..end))
            .ok_or_else(|| self.truncated(offset, len))
    }

    /// `count` records of `size` bytes at `offset`, checked as a whole.
    pub(crate) fn table(
        &self,
        offset: usize,
        count: usize,
        size: usize,
    ) -> Result<&'a [u8], Error> {
        let len = count
            .checked_mul(size)
            .ok_or_else(|| self.truncated(offset, usize::MAX))?;
        self.slice(offset, len)
    }

    fn array<const N: usize>(&self, offset: usize) -> Result<[u8; N], Error> {
        let b = self.slice(offset, N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    pub(crate) fn u8(&self, offset: usize) -> Result<u8, Error> {
        Ok(self.array::<1>(offset)?[0])
    }

    pub(crate) fn u16(&self, offset: usize) -> Result<u16, Error> {
        Ok(u16::from_be_bytes(self.array(offset)?))
    }

    pub(crate) fn u32(&self, offset: usize) -> Result<u32, Error> {
        Ok(u32::from_be_bytes(self.array(offset)?))
    }

    /// A u32 offset field, as a `usize`.
    pub(crate) fn offset(&self, offset: usize) -> Result<usize, Error> {
        Ok(self.u32(offset)? as usize)
    }

    pub(crate) fn f32(&self, offset: usize) -> Result<f32, Error> {
        Ok(f32::from_be_bytes(self.array(offset)?))
    }

    /// A fixed record read in place.
    pub(crate) fn record<T>(&self, offset: usize) -> Result<&'a T, Error>
    where
        T: FromBytes + KnownLayout + Immutable,
    {
        let bytes = self.slice(offset, core::mem::size_of::<T>())?;
        T::ref_from_bytes(bytes).map_err(|_| self.truncated(offset, core::mem::size_of::<T>()))
    }
}

/// A J3D name table (ResNTAB): u16 count, u16 padding, then per name a u16
/// hash and a u16 offset (from the table's start) of a NUL-terminated string.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NameTable<'a> {
    reader: SectionReader<'a>,
    start: usize,
    count: usize,
}

impl<'a> NameTable<'a> {
    pub(crate) fn new(reader: SectionReader<'a>, start: usize) -> Result<Self, Error> {
        let count = usize::from(reader.u16(start)?);
        reader.table(start.saturating_add(4), count, 4)?;
        Ok(Self {
            reader,
            start,
            count,
        })
    }

    /// A table with no names, for a section that names nothing (its
    /// table offset may then point anywhere, even past the section's end).
    pub(crate) fn empty(reader: SectionReader<'a>) -> Self {
        Self {
            reader,
            start: 0,
            count: 0,
        }
    }

    /// Entries in the table.
    pub(crate) fn len(&self) -> usize {
        self.count
    }

    /// The bytes of name `index` (without the NUL) and their absolute file offset.
    pub(crate) fn get(&self, index: usize) -> Result<(&'a [u8], usize), Error> {
        if index >= self.count {
            return Err(self.reader.error(
                ErrorCode::BadOffset,
                self.start,
                format_args!("name {index} asked of a table of {}", self.count),
            ));
        }
        // Saturating: an offset past usize::MAX is past the section too, and
        // the read refuses it. (index < count <= u16::MAX.)
        let entry = self
            .start
            .saturating_add(6)
            .saturating_add(index.saturating_mul(4));
        let at = self
            .start
            .saturating_add(usize::from(self.reader.u16(entry)?));
        let rest = self.reader.bytes().get(at..).unwrap_or_default();
        // Names are short; a missing terminator is a truncated table.
        let len = rest.iter().take(256).position(|&b| b == 0).ok_or_else(|| {
            self.reader.error(
                ErrorCode::Truncated,
                at,
                format_args!("name {index} has no terminating NUL within 256 bytes"),
            )
        })?;
        Ok((
            rest.get(..len).unwrap_or_default(),
            self.reader.file_offset(at),
        ))
    }
}
