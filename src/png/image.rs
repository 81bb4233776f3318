//! The image data: the zlib stream of the IDAT run inflated through a
//! window, cut into rows (pass by pass when Adam7), each row unfiltered and
//! expanded to RGBA8 as soon as its last byte arrives.
//!
//! A decode inflates into a window of up to 128 KiB (its image data's
//! length within 64 and 128 KiB) that it slides back when full, keeping 32 KiB
//! (inflate then writes into plain memory and may write ahead of a match);
//! a validation wraps its 32 KiB window. The inflater counts what it has
//! written, so a back-reference before the stream's start is an error
//! (zlib's "distance too far back") in both, not a read of stale bytes.
//!
//! Inflate never writes past the window and every byte it yields is counted
//! against the rows the header declares, so a stream holding more than the
//! image fails within one window's worth of output: an inflate bomb costs
//! nothing.

use crate::inflate::{Flow, InflateError, Inflater, Tables};

use super::error::PngErrorKind;
use super::expand::Expander;
use super::header::{ADAM7, Header, WINDOW_LEN};
use super::unfilter::{MAX_FILTER, unfilter, unfilter_into};

/// Where rows go: nowhere (validation), or RGBA8 pixels with row buffers.
pub enum Sink<'a> {
    /// Rows are checked (filter type, count) and dropped.
    Validate,
    /// Rows are unfiltered and expanded into `pixels`.
    Rgba8 {
        /// The image, `Header::rgba8_len` bytes.
        pixels: &'a mut [u8],
        /// Scratch after the ring: two sample rows, then one RGBA8 row when
        /// interlaced (see `Header::scratch_len`).
        rows: &'a mut [u8],
        /// Stored samples to RGBA8.
        expander: &'a Expander<'a>,
    },
}

/// The zlib stream's state and the position of the next byte in the rows.
pub struct ImageData<'m> {
    inflater: Inflater<'m>,
    ring_pos: usize,
    /// The zlib stream ended and its Adler-32 matched.
    done: bool,
    /// IDAT bytes after the zlib stream's end (its Adler-32), ignored as
    /// the references ignore them but counted, so a caller can say so: a
    /// valid image followed by junk is often a file cut and pasted wrong.
    trailing: u64,
    rows: RowCursor,
}

/// Which row of which pass the next byte belongs to.
#[derive(Clone, Copy, Debug, Default)]
struct RowCursor {
    pass: usize,
    width: u32,
    height: u32,
    /// Sample bytes of one row of this pass.
    row_bytes: u64,
    y: u32,
    /// Bytes of the current row received, its filter byte included.
    filled: u64,
    filter: u8,
    /// The current row lives in the second row buffer.
    flip: bool,
    /// Where in a slid window the current row's first sample byte is,
    /// while its samples are left there until the row is complete.
    kept: Option<usize>,
    /// Every row of every pass is in.
    complete: bool,
}

impl<'m> ImageData<'m> {
    /// State before the first IDAT byte, inflating with `tables`.
    pub fn new(tables: &'m mut Tables) -> Self {
        Self {
            inflater: Inflater::new(tables),
            ring_pos: 0,
            done: false,
            trailing: 0,
            rows: RowCursor::default(),
        }
    }

    /// Starts the rows of the image `header` declares.
    pub fn start(&mut self, header: &Header) {
        self.rows = RowCursor::default();
        self.rows.enter_pass(header, 0);
        self.inflater.expect_output(header.stored_len());
    }

    /// True once the zlib stream has ended with every row in.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// IDAT bytes seen after the zlib stream ended (see the field).
    pub fn trailing_bytes(&self) -> u64 {
        self.trailing
    }

    /// Inflates one piece of IDAT data through `window` into `sink`: a
    /// ring of [`WINDOW_LEN`] bytes, or a longer window slid back as it
    /// fills. Data after the end of the zlib stream is ignored (as libpng
    /// and the png crate do).
    pub fn inflate(
        &mut self,
        header: &Header,
        mut input: &[u8],
        window: &mut [u8],
        sink: &mut Sink<'_>,
    ) -> Result<(), PngErrorKind> {
        let ring = window.len() == WINDOW_LEN;
        while !self.done {
            if self.ring_pos == window.len() {
                self.ring_pos = if ring {
                    0
                } else {
                    let shift = window.len().saturating_sub(WINDOW_LEN);
                    window.copy_within(shift.., 0);
                    self.rows.kept = self.rows.kept.and_then(|k| k.checked_sub(shift));
                    WINDOW_LEN
                };
            }
            let step = self.inflater.inflate(input, window, self.ring_pos, ring);
            let end = self.ring_pos.saturating_add(step.written);
            self.rows
                .take(header, window, self.ring_pos..end, !ring, sink)?;
            self.ring_pos = end;
            input = input.get(step.used..).unwrap_or_default();
            match step.result {
                Ok(Flow::Done) => {
                    self.done = true;
                    self.trailing = self.inflater.buffered_bytes();
                    if !self.rows.complete {
                        return Err(PngErrorKind::TooLittleImageData);
                    }
                }
                Ok(Flow::NeedsInput) => return Ok(()),
                Ok(Flow::OutputFull) => {}
                Err(InflateError::Adler32) => return Err(PngErrorKind::Adler32),
                Err(_) => return Err(PngErrorKind::BadZlib),
            }
        }
        // Past the stream's end (this piece's rest, or a later IDAT's bytes).
        self.trailing = self.trailing.saturating_add(input.len() as u64);
        Ok(())
    }
}

impl RowCursor {
    /// Moves to `pass`, or past the last pass when every later one is empty.
    fn enter_pass(&mut self, header: &Header, first: usize) {
        for pass in first..ADAM7.len() {
            let (w, h) = header.pass_size(pass);
            if w > 0 && h > 0 {
                *self = RowCursor {
                    pass,
                    width: w,
                    height: h,
                    row_bytes: header.row_bytes(w),
                    ..RowCursor::default()
                };
                return;
            }
        }
        self.complete = true;
    }

    /// Takes freshly inflated bytes (`fresh` of `window`): filter bytes,
    /// then sample bytes; each finished row goes to the sink. A row that
    /// arrives in pieces is left in a slid window (`keep`) until its last
    /// byte is in, when it fits the 32 KiB the slide keeps (it then reads
    /// as one piece, unfiltered straight into place); a longer one, or one
    /// in a ring, is copied piece by piece into its row.
    fn take(
        &mut self,
        header: &Header,
        window: &[u8],
        fresh: core::ops::Range<usize>,
        keep: bool,
        sink: &mut Sink<'_>,
    ) -> Result<(), PngErrorKind> {
        let mut at = fresh.start;
        let mut src = window.get(fresh).unwrap_or_default();
        let keep = keep && self.row_bytes <= WINDOW_LEN as u64;
        while let Some((&first, rest)) = src.split_first() {
            if self.complete {
                return Err(PngErrorKind::TooMuchImageData);
            }
            if self.filled == 0 {
                if first > MAX_FILTER {
                    return Err(PngErrorKind::BadFilterType);
                }
                self.filter = first;
                self.filled = 1;
                src = rest;
                at = at.saturating_add(1);
                continue;
            }
            // `filled` counts the filter byte, and stays below `row_bytes + 1`.
            let have = self.filled.saturating_sub(1);
            let want = self.row_bytes.saturating_sub(have);
            let take = usize::try_from(want).map_or(src.len(), |w| w.min(src.len()));
            let (piece, rest) = src.split_at(take);
            if let Sink::Rgba8 {
                pixels,
                rows,
                expander,
            } = sink
                && (keep || have == 0 && take as u64 == self.row_bytes)
            {
                // The row is unfiltered from the window into its place
                // once whole, without a copy first.
                if have == 0 {
                    self.kept = Some(at);
                }
                self.filled = self.filled.saturating_add(take as u64);
                src = rest;
                at = at.saturating_add(take);
                if take as u64 == want {
                    let len = self.row_len().ok_or(PngErrorKind::ScratchTooShort)?;
                    let row = self
                        .kept
                        .and_then(|k| window.get(k..k.checked_add(len)?))
                        .ok_or(PngErrorKind::ScratchTooShort)?;
                    self.finish_row(header, pixels, rows, expander, Some(row))
                        .ok_or(PngErrorKind::ScratchTooShort)?;
                    self.next_row(header);
                }
                continue;
            }
            if let Sink::Rgba8 { pixels, rows, .. } = sink {
                let at = usize::try_from(have).map_err(|_| PngErrorKind::ScratchTooShort)?;
                let row = self
                    .row_mut(header, pixels, rows)
                    .ok_or(PngErrorKind::ScratchTooShort)?;
                row.get_mut(at..)
                    .and_then(|row| row.get_mut(..take))
                    .ok_or(PngErrorKind::ScratchTooShort)?
                    .copy_from_slice(piece);
            }
            self.filled = self.filled.saturating_add(take as u64);
            src = rest;
            at = at.saturating_add(take);
            if take as u64 == want {
                if let Sink::Rgba8 {
                    pixels,
                    rows,
                    expander,
                } = sink
                {
                    self.finish_row(header, pixels, rows, expander, None)
                        .ok_or(PngErrorKind::ScratchTooShort)?;
                }
                self.next_row(header);
            }
        }
        Ok(())
    }

    fn next_row(&mut self, header: &Header) {
        self.filled = 0;
        self.flip = !self.flip;
        self.y = self.y.saturating_add(1);
        if self.y == self.height {
            self.enter_pass(header, self.pass.saturating_add(1));
        }
    }

    /// Bytes of the current row as stored (before expansion).
    fn row_len(&self) -> Option<usize> {
        usize::try_from(self.row_bytes).ok()
    }

    /// Where the current row's samples are assembled: its place in the
    /// output when rows unfilter in place, else a row buffer.
    fn row_mut<'b>(
        &self,
        header: &Header,
        pixels: &'b mut [u8],
        rows: &'b mut [u8],
    ) -> Option<&'b mut [u8]> {
        let len = self.row_len()?;
        if header.rows_in_place() {
            let start = usize::try_from(self.y).ok()?.checked_mul(len)?;
            pixels.get_mut(start..start.checked_add(len)?)
        } else {
            let full = usize::try_from(header.row_bytes(header.width)).ok()?;
            let start = if self.flip { full } else { 0 };
            rows.get_mut(start..start.checked_add(len)?)
        }
    }

    /// Unfilters the finished row and writes its pixels. The row's stored
    /// bytes are `raw` when given, else already in place (`row_mut`).
    fn finish_row(
        &self,
        header: &Header,
        pixels: &mut [u8],
        rows: &mut [u8],
        expander: &Expander<'_>,
        raw: Option<&[u8]>,
    ) -> Option<()> {
        let len = self.row_len()?;
        let bpp = header.filter_bpp();
        let unfilter = |cur: &mut [u8], prev: Option<&[u8]>| match raw {
            Some(raw) => unfilter_into(self.filter, bpp, raw, cur, prev),
            None => unfilter(self.filter, bpp, cur, prev),
        };
        let y = usize::try_from(self.y).ok()?;
        if header.rows_in_place() {
            let start = y.checked_mul(len)?;
            let (above, from_here) = pixels.split_at_mut_checked(start)?;
            let prev = match start.checked_sub(len) {
                Some(above_start) if y > 0 => above.get(above_start..),
                _ => None,
            };
            unfilter(from_here.get_mut(..len)?, prev);
            return Some(());
        }
        let full = usize::try_from(header.row_bytes(header.width)).ok()?;
        let (a, rest) = rows.split_at_mut_checked(full)?;
        let (b, spread) = rest.split_at_mut_checked(full)?;
        let (cur, prev) = if self.flip { (b, &*a) } else { (a, &*b) };
        let cur = cur.get_mut(..len)?;
        let prev = if y > 0 { Some(prev.get(..len)?) } else { None };
        unfilter(cur, prev);
        let stride = usize::try_from(header.width).ok()?.checked_mul(4)?;
        if !header.interlaced {
            let start = y.checked_mul(stride)?;
            expander.expand(cur, pixels.get_mut(start..start.checked_add(stride)?)?);
            return Some(());
        }
        // Adam7: expand the pass row, then spread its pixels over the image.
        let [x0, y0, dx, dy] = *ADAM7.get(self.pass)?;
        let pass_row = spread.get_mut(..usize::try_from(self.width).ok()?.checked_mul(4)?)?;
        expander.expand(cur, pass_row);
        let image_y = usize::try_from(self.y.checked_mul(dy)?.checked_add(y0)?).ok()?;
        let start = image_y.checked_mul(stride)?;
        let out = pixels.get_mut(start..start.checked_add(stride)?)?;
        let targets = out.as_chunks_mut::<4>().0.iter_mut();
        let step = usize::try_from(dx).ok()?;
        for (dst, src) in targets
            .skip(usize::try_from(x0).ok()?)
            .step_by(step)
            .zip(pass_row.as_chunks::<4>().0)
        {
            *dst = *src;
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_png::PngWriter;
    use super::super::unfilter::unfilter;
    use super::super::{DECODE_WINDOW_LEN, Decoder, Output};
    use std::vec;
    use std::vec::Vec;

    /// An RGBA8 image of random rows under random filters, as stored, and
    /// its pixels by `unfilter` row after row.
    fn noise_image(width: usize, height: usize, seed: u64) -> (Vec<u8>, Vec<u8>) {
        let mut rng = crate::test_rng::XorShift(seed);
        let stride = width * 4;
        let mut raw = Vec::new();
        let mut pixels: Vec<u8> = Vec::new();
        for y in 0..height {
            let filter = (rng.next() % 5) as u8;
            let row: Vec<u8> = (0..stride).map(|_| rng.next() as u8).collect();
            raw.push(filter);
            raw.extend_from_slice(&row);
            let mut cur = row;
            let prev = (y > 0).then(|| &pixels[(y - 1) * stride..]);
            unfilter(filter, 4, &mut cur, prev);
            pixels.extend_from_slice(&cur);
        }
        (raw, pixels)
    }

    #[test]
    fn rows_in_pieces_are_kept_in_the_window_up_to_32_kib_and_copied_past_it() {
        // Rows of 12 001 and 36 001 stored bytes: the first fit the 32 KiB
        // a slide keeps, the second do not. Random rows do not compress,
        // so every row crosses IDAT chunks of 5 000 bytes and slides.
        for (width, height) in [(3000, 40), (9000, 5)] {
            let (raw, expected) = noise_image(width, height, width as u64);
            let stream = super::super::test_png::zlib(&raw);
            let mut file = PngWriter::new(width as u32, height as u32, 8, 6);
            for piece in stream.chunks(5000) {
                file = file.chunk(b"IDAT", piece);
            }
            let file = file.end();
            for feed in [file.len(), 4096, 7] {
                let mut pixels = vec![0; expected.len()];
                let mut scratch = vec![0xAB; DECODE_WINDOW_LEN];
                assert!(raw.len() > DECODE_WINDOW_LEN, "the window slides");
                let mut memory = super::super::DecoderMemory::new();
                let mut decoder = Decoder::new(&mut memory);
                let mut out = Output::Rgba8 {
                    pixels: &mut pixels,
                    scratch: &mut scratch,
                };
                for p in file.chunks(feed) {
                    decoder.feed(p, &mut out).unwrap();
                }
                decoder.finish(&mut out).unwrap();
                assert!(pixels == expected, "width {width}, pieces of {feed}");
            }
        }
    }
}
