//! Typed, aligned slices carved out of one caller buffer: [`Arena`] carves
//! them, [`Footprint`] adds up the same carving without memory and
//! [`ArenaReader`] reads carved slices back. The module docs of `arena.rs`
//! (which re-exports all of these; `crate::arena::Arena` is the path to
//! use) say how they are used. Nothing here knows what a scene is: the
//! scene model carves its arrays with these types, and the plan of a decode
//! (`crate::arena::Plan`), built from the scene's counts, sits above both.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "sizes come from a Plan whose counts were checked against Limits and summed with checked arithmetic; padding is below MAX_ALIGN"
)]

use core::mem::{align_of, size_of};

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

use crate::error::{Error, ErrorCode};

/// Largest alignment of any type placed in an arena.
pub const MAX_ALIGN: usize = 8;

/// Mirrors [`Arena`]'s carving without memory: `measure` adds the same slices
/// in the same order and gets the same byte count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    bytes: usize,
}

impl Footprint {
    /// Nothing carved yet.
    pub const fn new() -> Self {
        Self { bytes: 0 }
    }

    /// Adds a slice of `len` values of `T`, aligned as [`Arena::slice`] aligns it.
    pub fn add<T>(&mut self, len: usize) -> Result<(), Error> {
        self.bytes = self
            .bytes
            .checked_next_multiple_of(align_of::<T>())
            .and_then(|start| start.checked_add(len.checked_mul(size_of::<T>())?))
            .ok_or_else(overflow)?;
        Ok(())
    }

    /// Bytes so far, from an aligned start.
    pub const fn bytes(&self) -> usize {
        self.bytes
    }
}

/// A bump allocator over a caller's buffer, handing out zeroed typed slices
/// that live as long as the buffer.
#[derive(Debug)]
pub struct Arena<'a> {
    rest: &'a mut [u8],
    capacity: usize,
    /// `rest` is known to hold only zeros (a fresh zeroed allocation), so
    /// slices need not be zeroed again.
    zeroed: bool,
}

impl<'a> Arena<'a> {
    /// An arena over all of `buffer`. Any alignment works; an 8-aligned buffer
    /// (e.g. from [`Arena::from_words`]) needs no padding at the start.
    pub fn new(buffer: &'a mut [u8]) -> Self {
        let capacity = buffer.len();
        Self {
            rest: buffer,
            capacity,
            zeroed: false,
        }
    }

    /// An arena over `words` that the caller has just allocated zeroed and
    /// not written since (`load`'s `vec![0u64; n]`): its slices are handed
    /// out without zeroing them a second time. Crate-private, because the
    /// promise cannot be checked without the very pass it saves; debug
    /// builds (the tests) do check it.
    #[cfg(feature = "alloc")]
    pub(crate) fn from_zeroed_words(words: &'a mut [u64]) -> Self {
        debug_assert!(words.iter().all(|&w| w == 0), "arena words not zeroed");
        Self {
            zeroed: true,
            ..Self::from_words(words)
        }
    }

    /// An arena over a `u64` buffer, which is always aligned to [`MAX_ALIGN`].
    pub fn from_words(words: &'a mut [u64]) -> Self {
        Self::new(words_as_bytes(words))
    }

    /// Bytes handed out so far, padding included.
    pub fn used(&self) -> usize {
        self.capacity - self.rest.len()
    }

    /// Bytes still free.
    pub fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// `len` zeroed values of `T`, aligned for `T` (zeroed here, or known
    /// zero already: see the module docs).
    ///
    /// Fails with [`ErrorCode::ArenaTooSmall`] (leaving the arena as it was)
    /// when the buffer cannot hold them.
    pub fn slice<T>(&mut self, len: usize) -> Result<&'a mut [T], Error>
    where
        T: FromBytes + IntoBytes + KnownLayout + Immutable,
    {
        const { assert!(align_of::<T>() <= MAX_ALIGN) };
        let buffer = core::mem::take(&mut self.rest);
        let pad = buffer.as_ptr().align_offset(align_of::<T>());
        let needed = len
            .checked_mul(size_of::<T>())
            .and_then(|bytes| bytes.checked_add(pad));
        match needed {
            Some(needed) if needed <= buffer.len() => {
                let (_, aligned) = buffer.split_at_mut(pad);
                let (mine, rest) = aligned.split_at_mut(needed - pad);
                self.rest = rest;
                if !self.zeroed {
                    mine.fill(0);
                }
                <[T]>::mut_from_bytes(mine).map_err(|_| self.too_small(needed))
            }
            _ => {
                let available = buffer.len();
                self.rest = buffer;
                Err(Error::nowhere(
                    ErrorCode::ArenaTooSmall,
                    format_args!(
                        "arena too small: {len} values of {} bytes need more than the {available} bytes left",
                        size_of::<T>()
                    ),
                ))
            }
        }
    }

    /// `len` values of `T` from the free bytes, lent until the borrow ends
    /// and not carved (the next slice starts where it started): scratch
    /// for a pass that runs before the carving it sizes. Not zeroed; the
    /// arena no longer counts on its free bytes being zero. `None` when
    /// they do not fit.
    pub(crate) fn lend<T>(&mut self, len: usize) -> Option<&mut [T]>
    where
        T: FromBytes + IntoBytes + KnownLayout + Immutable,
    {
        const { assert!(align_of::<T>() <= MAX_ALIGN) };
        let pad = self.rest.as_ptr().align_offset(align_of::<T>());
        let end = len.checked_mul(size_of::<T>())?.checked_add(pad)?;
        let bytes = self.rest.get_mut(pad..end)?;
        self.zeroed = false;
        <[T]>::mut_from_bytes(bytes).ok()
    }

    /// Copies `text` into the arena.
    pub fn str(&mut self, text: &str) -> Result<&'a str, Error> {
        let bytes = self.slice::<u8>(text.len())?;
        bytes.copy_from_slice(text.as_bytes());
        core::str::from_utf8(bytes).map_err(|_| self.too_small(0))
    }

    fn too_small(&self, needed: usize) -> Error {
        Error::nowhere(
            ErrorCode::ArenaTooSmall,
            format_args!(
                "arena too small: {needed} bytes needed, {} left",
                self.rest.len()
            ),
        )
    }
}

/// Views a `u64` buffer as bytes (8-aligned), e.g. to hand an arena a
/// byte slice of an aligned buffer.
pub fn words_as_bytes(words: &mut [u64]) -> &mut [u8] {
    bytemuck::cast_slice_mut(words)
}

fn overflow() -> Error {
    Error::nowhere(
        ErrorCode::ArenaTooSmall,
        format_args!("arena size overflows the address space"),
    )
}

/// Reads back, in carving order, slices that an [`Arena`] carved from an
/// 8-aligned buffer: how an owned, already decoded scene hands out views of
/// its memory again without copying.
#[derive(Debug)]
pub struct ArenaReader<'a> {
    rest: &'a [u8],
}

impl<'a> ArenaReader<'a> {
    /// A reader over the bytes an arena was built on.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { rest: bytes }
    }

    /// The next `len` values of `T`, aligned as [`Arena::slice`] aligned them.
    pub fn slice<T>(&mut self, len: usize) -> Result<&'a [T], Error>
    where
        T: FromBytes + KnownLayout + Immutable,
    {
        let pad = self.rest.as_ptr().align_offset(align_of::<T>());
        let end = len
            .checked_mul(size_of::<T>())
            .and_then(|bytes| bytes.checked_add(pad));
        let bytes = end.and_then(|end| self.rest.get(pad..end)).ok_or_else(|| {
            Error::nowhere(
                ErrorCode::ArenaTooSmall,
                format_args!("arena holds fewer values than its layout says"),
            )
        })?;
        self.rest = self.rest.get(end.unwrap_or(0)..).unwrap_or_default();
        <[T]>::ref_from_bytes(bytes)
            .map_err(|_| Error::nowhere(ErrorCode::ArenaTooSmall, format_args!("misaligned arena")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;

    #[test]
    fn slices_are_aligned_and_disjoint() {
        let mut words = [0xFFFF_FFFF_FFFF_FFFFu64; 8];
        let mut arena = Arena::from_words(&mut words);
        let a = arena.slice::<u8>(3).unwrap();
        let b = arena.slice::<u32>(2).unwrap();
        let c = arena.slice::<f64>(1).unwrap();
        assert_eq!(a, &[0, 0, 0]);
        assert_eq!(b, &[0, 0]);
        assert_eq!(c, &[0.0]);
        assert_eq!(b.as_ptr() as usize % 4, 0);
        assert_eq!(c.as_ptr() as usize % 8, 0);
        a[0] = 1;
        b[1] = 2;
        c[0] = 3.0;
        assert_eq!(arena.used(), 24);
    }

    #[test]
    fn a_zeroed_arena_hands_out_zeroed_disjoint_slices() {
        let mut words = vec![0u64; 4];
        let mut arena = Arena::from_zeroed_words(&mut words);
        let a = arena.slice::<u32>(3).unwrap();
        assert_eq!(a, &[0, 0, 0]);
        a.fill(7);
        let b = arena.slice::<u64>(2).unwrap();
        assert_eq!(b, &[0, 0]);
        assert_eq!(arena.used(), 32);
        assert_eq!(&words[..2], &[0x0000_0007_0000_0007, 0x0000_0000_0000_0007]);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "arena words not zeroed")]
    fn a_zeroed_arena_over_dirty_words_is_caught_in_debug_builds() {
        let mut words = [0u64, 1];
        let _ = Arena::from_zeroed_words(&mut words);
    }

    #[test]
    fn footprint_matches_arena_to_the_byte() {
        let mut f = Footprint::new();
        f.add::<[f32; 3]>(5).unwrap();
        f.add::<u8>(3).unwrap();
        f.add::<u64>(2).unwrap();
        f.add::<u16>(1).unwrap();
        let mut words = vec![0u64; f.bytes().div_ceil(8)];
        let mut arena = Arena::from_words(&mut words);
        arena.slice::<[f32; 3]>(5).unwrap();
        arena.slice::<u8>(3).unwrap();
        arena.slice::<u64>(2).unwrap();
        arena.slice::<u16>(1).unwrap();
        assert_eq!(arena.used(), f.bytes());
    }

    #[test]
    fn one_byte_short_is_an_error_not_a_panic() {
        let mut words = [0u64; 4];
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
        let mut arena = Arena::new(&mut bytes[..31]);
        let e = arena.slice::<u64>(4).unwrap_err();
        assert_eq!(e.code(), ErrorCode::ArenaTooSmall);
        // The failed request left the arena untouched.
        assert_eq!(arena.remaining(), 31);
        assert!(arena.slice::<u64>(3).is_ok());
    }

    #[test]
    fn unaligned_buffers_pad_at_most_max_align_minus_one() {
        let mut words = [0u64; 4];
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
        let mut arena = Arena::new(&mut bytes[1..]);
        assert!(arena.slice::<u64>(3).is_ok());
        assert_eq!(arena.used(), 31);
    }

    #[test]
    fn overflowing_sizes_fail_cleanly() {
        let mut f = Footprint::new();
        assert!(f.add::<u64>(usize::MAX / 2).is_err());
        let mut words = [0u64; 1];
        let mut arena = Arena::from_words(&mut words);
        assert!(arena.slice::<u64>(usize::MAX).is_err());
    }

    /// A lent slice is not carved: the next slice starts where it did and
    /// comes back zeroed; what does not fit is not lent.
    #[test]
    fn lent_bytes_are_carved_again_zeroed() {
        let mut words = [0u64; 2];
        let mut arena = Arena::from_words(&mut words);
        let _ = arena.slice::<u8>(1).unwrap();
        let lent = arena.lend::<u32>(3).unwrap();
        lent.fill(7);
        assert!(arena.lend::<u32>(4).is_none());
        assert_eq!(arena.used(), 1);
        assert_eq!(arena.slice::<u32>(3).unwrap(), &[0, 0, 0]);
    }
}
