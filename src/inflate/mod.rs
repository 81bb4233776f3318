//! A zlib (RFC 1950) / DEFLATE (RFC 1951) decoder into caller memory: no
//! heap, no `unsafe`, fed input in pieces of any size and writing into a
//! window the caller slides or wraps.
//!
//! [`Inflater::inflate`] writes from `at` into `out` and reads
//! back-references from the bytes before it: a plain window the caller
//! slides (keeping the last 32 KiB before `at`), or a ring the caller
//! wraps (`at` back to 0 when full) that validates without any other
//! memory. Every refusal is an [`InflateError`]; input that ends early is
//! [`Flow::NeedsInput`], never an error, so the caller decides whether
//! the stream was truncated.
//!
//! What is refused, as zlib and miniz_oxide refuse it: a bad zlib header
//! (method, window over 32 KiB, preset dictionary, check bits), block type
//! 3, a stored block whose LEN and NLEN disagree, table sizes over 286/30,
//! over-subscribed or incomplete codes (a code with a single symbol or none
//! is allowed, as both allow for distances and miniz_oxide for
//! literals/lengths too; the code-length code must be complete), a repeat
//! with nothing before it or past the table sizes, literal/length symbols
//! 286 and 287 and distance symbols 30 and 31, a distance before the
//! stream's start, and an Adler-32 that does not match.
//!
//! Speed comes from `fast.rs` (see there); the careful step here decodes
//! one symbol or header field at a time and suspends anywhere with its
//! bits kept, so a piece may end on any bit.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "bit counts stay below 64 and take at most 15 bits, header fields are at most 5 bits, lengths at most 258 and distances at most 32 768 (RFC 1951); `at <= out.len()` and `floor <= at` hold between steps, and the total of input lengths is a u64"
)]

mod error;
mod fast;
mod huffman;

pub use error::InflateError;

use fast::{Bits, BlockTables, Exit, Out};
use huffman::{
    Alphabet, CODELEN_BITS, DIST_BITS, KIND_BASE, KIND_END, KIND_LITERAL, KIND_PAIR, KIND_SUB,
    LITLEN_BITS, WORK_LEN, extra, kind, payload, width,
};

/// Deflate's largest distance: the history a window must keep.
pub const MAX_DISTANCE: usize = 32 * 1024;

/// What a call stopped at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// The stream ended and its Adler-32 matched.
    Done,
    /// Every input byte was taken; the stream goes on.
    NeedsInput,
    /// The window is full from `at` on: slide or wrap it and call again.
    OutputFull,
}

/// One call's result: how much it took and wrote, and why it stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Input bytes taken (bits of a byte not yet used are kept inside).
    pub used: usize,
    /// Bytes written from `at`, also when the result is an error.
    pub written: usize,
    /// Why it stopped.
    pub result: Result<Flow, InflateError>,
}

/// Where the decoder is in the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    ZlibHeader,
    BlockHeader,
    StoredHeader,
    Stored { left: u32 },
    TableSizes,
    CodeLengthCodes,
    CodeLengths,
    Data,
    Match { len: u32, dist: u32 },
    Trailer,
    Done,
    Failed(InflateError),
}

/// Order the code-length code's lengths are stored in.
const CODELEN_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// The large part of a stream's state, in memory the caller places (an
/// arena, a static, a caller's scratch) so that a decode needs little
/// stack: the block's decode tables, the code-length code's table, the
/// work area tables are built in and the code lengths being read
/// ([`Tables::LEN`] bytes, plain integers).
#[repr(C)]
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable)]
pub struct Tables {
    block: BlockTables,
    codelen: [u32; 1 << CODELEN_BITS],
    /// What a table build sorts symbols in, and literal pairing gathers
    /// codes in.
    work: [u32; WORK_LEN],
    /// Code lengths being read: literal/length then distance.
    lengths: [u8; 286 + 30],
    codelen_lengths: [u8; 19],
    /// Keeps the size a multiple of the alignment (no padding bytes).
    _pad: [u8; 1],
}

impl Tables {
    /// Bytes of one [`Tables`].
    pub const LEN: usize = core::mem::size_of::<Self>();

    /// Zeroed tables (a `const`, for statics).
    pub const fn new() -> Self {
        Self {
            block: BlockTables {
                litlen: [0; huffman::LITLEN_LEN],
                dist: [0; huffman::DIST_LEN],
            },
            codelen: [0; 1 << CODELEN_BITS],
            work: [0; WORK_LEN],
            lengths: [0; 286 + 30],
            codelen_lengths: [0; 19],
            _pad: [0; 1],
        }
    }
}

impl Default for Tables {
    fn default() -> Self {
        Self::new()
    }
}

/// A zlib stream's decoding state: a few words here, the tables in the
/// caller's [`Tables`].
pub struct Inflater<'t> {
    state: State,
    bits: Bits,
    last_block: bool,
    /// Bytes written since the stream started.
    total: u64,
    adler: simd_adler32::Adler32,
    tables: &'t mut Tables,
    hlit: usize,
    hdist: usize,
    hclen: usize,
    /// Lengths read so far of the table being read.
    index: usize,
    /// The tables hold the fixed code (a run of fixed blocks builds once).
    fixed_loaded: bool,
    /// The stream's decoded length, when the caller knows it.
    expected: u64,
}

/// Output still to come below which a dynamic block's literals are not
/// paired: pairing walks the 2 048 primary entries, about 20 000
/// instructions, and saves about eight per pair decoded, so it pays for
/// itself only over several KiB of literals (PngSuite's tiny images lost
/// a fifth of their decode to it).
const PAIRS_MIN: u64 = 8 * 1024;

impl<'t> Inflater<'t> {
    /// A decoder before the zlib header, working in `tables` (zeroed
    /// here, so that nothing of an earlier stream is read).
    pub fn new(tables: &'t mut Tables) -> Self {
        zerocopy::FromZeros::zero(&mut *tables);
        Self {
            state: State::ZlibHeader,
            bits: Bits::default(),
            last_block: false,
            total: 0,
            adler: simd_adler32::Adler32::new(),
            tables,
            hlit: 0,
            hdist: 0,
            hclen: 0,
            index: 0,
            fixed_loaded: false,
            expected: u64::MAX,
        }
    }

    /// Tells the decoder how many bytes the stream decodes to, when the
    /// caller knows (a PNG's image data): it then skips work that only a
    /// longer stream repays. Decoding is the same either way; a stream of
    /// another length is still decoded (or refused) in full.
    pub fn expect_output(&mut self, len: u64) {
        self.expected = len;
    }

    /// True once the stream has ended with a matching Adler-32.
    pub fn is_done(&self) -> bool {
        self.state == State::Done
    }

    /// Whole input bytes held in the bit buffer and not yet read: after
    /// the stream's end, bytes that followed its Adler-32 (the bit reader
    /// takes up to 7 bytes ahead), which a caller counting what follows
    /// the stream adds to the input [`Progress::used`] left over.
    pub fn buffered_bytes(&self) -> u64 {
        u64::from(self.bits.count / 8)
    }

    /// Inflates `input` into `out` from `at`. `out[..at]` must hold the
    /// stream's latest output (at least the last 32 KiB of it, or all of
    /// it while shorter); with `ring`, `out` is a ring of at least 32 KiB
    /// whose bytes after `at` are older history once it has been filled.
    /// After an error every later call returns it again.
    pub fn inflate(&mut self, input: &[u8], out: &mut [u8], at: usize, ring: bool) -> Progress {
        let mut ip = 0;
        let fits = at <= out.len() && (!ring || out.len() >= MAX_DISTANCE);
        let wraps = ring && self.total >= out.len() as u64;
        let floor = if wraps {
            0
        } else {
            at.saturating_sub(usize::try_from(self.total).unwrap_or(usize::MAX))
        };
        let mut o = Out {
            buf: out,
            at,
            counted: at,
            floor,
            wraps,
        };
        let result = if fits {
            self.run(input, &mut ip, &mut o)
        } else {
            Err(InflateError::BadWindow)
        };
        let written = o.at - at;
        if let Err(e) = result {
            self.state = State::Failed(e);
        }
        self.count(&mut o);
        Progress {
            used: ip,
            written,
            result,
        }
    }

    /// Adds the bytes written since the last count to the total and the
    /// checksum.
    fn count(&mut self, out: &mut Out<'_>) {
        let fresh = out.buf.get(out.counted..out.at).unwrap_or_default();
        self.total += fresh.len() as u64;
        self.adler.write(fresh);
        out.counted = out.at;
    }

    /// Moves whole input bytes into the bit buffer until it holds at
    /// least 56 bits (63 at most, so a shift by the count never overflows)
    /// or the input is used up; true if it holds `n`.
    fn fill(&mut self, input: &[u8], ip: &mut usize, n: u32) -> bool {
        while self.bits.count < 56 {
            let Some(&byte) = input.get(*ip) else { break };
            self.bits.buf |= u64::from(byte) << self.bits.count;
            self.bits.count += 8;
            *ip += 1;
        }
        self.bits.count >= n
    }

    /// Takes `n` bits (after `fill` said they are there).
    fn take(&mut self, n: u32) -> u32 {
        let v = self.bits.peek(n);
        self.bits.consume(n);
        u32::try_from(v).unwrap_or(0)
    }

    /// Drops the bits up to the next byte boundary.
    fn align(&mut self) {
        self.bits.consume(self.bits.count & 7);
    }

    fn run(
        &mut self,
        input: &[u8],
        ip: &mut usize,
        out: &mut Out<'_>,
    ) -> Result<Flow, InflateError> {
        loop {
            match self.state {
                State::Failed(e) => return Err(e),
                State::Done => return Ok(Flow::Done),
                State::ZlibHeader => {
                    if !self.fill(input, ip, 16) {
                        return Ok(Flow::NeedsInput);
                    }
                    let cmf = self.take(8);
                    let flg = self.take(8);
                    if cmf & 15 != 8
                        || cmf >> 4 > 7
                        || flg & 0x20 != 0
                        || !(cmf * 256 + flg).is_multiple_of(31)
                    {
                        return Err(InflateError::BadHeader);
                    }
                    self.state = State::BlockHeader;
                }
                State::BlockHeader => {
                    if !self.fill(input, ip, 3) {
                        return Ok(Flow::NeedsInput);
                    }
                    let header = self.take(3);
                    self.last_block = header & 1 == 1;
                    self.state = match header >> 1 {
                        0 => {
                            self.align();
                            State::StoredHeader
                        }
                        1 => {
                            self.fixed_tables()?;
                            State::Data
                        }
                        2 => State::TableSizes,
                        _ => return Err(InflateError::BadBlockType),
                    };
                }
                State::StoredHeader => {
                    if !self.fill(input, ip, 32) {
                        return Ok(Flow::NeedsInput);
                    }
                    let len = self.take(16);
                    let nlen = self.take(16);
                    if len != !nlen & 0xFFFF {
                        return Err(InflateError::StoredLength);
                    }
                    self.state = State::Stored { left: len };
                }
                State::Stored { left } => {
                    let left = self.stored(input, ip, out, left);
                    if left > 0 {
                        self.state = State::Stored { left };
                        return Ok(if out.at == out.buf.len() {
                            Flow::OutputFull
                        } else {
                            Flow::NeedsInput
                        });
                    }
                    self.end_block();
                }
                State::TableSizes => {
                    if !self.fill(input, ip, 14) {
                        return Ok(Flow::NeedsInput);
                    }
                    self.hlit = 257 + self.take(5) as usize;
                    self.hdist = 1 + self.take(5) as usize;
                    self.hclen = 4 + self.take(4) as usize;
                    if self.hlit > 286 || self.hdist > 30 {
                        return Err(InflateError::BadTableSizes);
                    }
                    self.tables.codelen_lengths = [0; 19];
                    self.index = 0;
                    self.state = State::CodeLengthCodes;
                }
                State::CodeLengthCodes => {
                    while self.index < self.hclen {
                        if !self.fill(input, ip, 3) {
                            return Ok(Flow::NeedsInput);
                        }
                        let len = self.take(3);
                        let slot = CODELEN_ORDER
                            .get(self.index)
                            .and_then(|&s| self.tables.codelen_lengths.get_mut(s));
                        if let Some(slot) = slot {
                            *slot = u8::try_from(len).unwrap_or(0);
                        }
                        self.index += 1;
                    }
                    huffman::build_in(
                        &mut self.tables.codelen,
                        &self.tables.codelen_lengths,
                        CODELEN_BITS,
                        Alphabet::CodeLength,
                        &mut self.tables.work,
                    )?;
                    self.index = 0;
                    self.state = State::CodeLengths;
                }
                State::CodeLengths => {
                    if !self.code_lengths(input, ip)? {
                        return Ok(Flow::NeedsInput);
                    }
                    self.dynamic_tables()?;
                    self.state = State::Data;
                }
                State::Data => {
                    // A ring whose bytes past `at` are history takes exact
                    // writes; anything else may be written ahead.
                    let exit = if out.wraps {
                        fast::run::<true>(&self.tables.block, &mut self.bits, input, ip, out)?
                    } else {
                        fast::run::<false>(&self.tables.block, &mut self.bits, input, ip, out)?
                    };
                    if let Exit::EndOfBlock = exit {
                        self.end_block();
                        continue;
                    }
                    if let Some(flow) = self.careful_step(input, ip, out)? {
                        return Ok(flow);
                    }
                }
                State::Match { len, dist } => {
                    let room = out.buf.len() - out.at;
                    let n = (len as usize).min(room);
                    fast::copy_exact(out, dist as usize, n).ok_or(InflateError::DistanceTooFar)?;
                    out.at += n;
                    let left = len - u32::try_from(n).unwrap_or(len);
                    if left > 0 {
                        self.state = State::Match { len: left, dist };
                        return Ok(Flow::OutputFull);
                    }
                    self.state = State::Data;
                }
                State::Trailer => {
                    self.align();
                    if !self.fill(input, ip, 32) {
                        return Ok(Flow::NeedsInput);
                    }
                    let expected = self.take(32).swap_bytes();
                    self.count(out);
                    if self.adler.finish() != expected {
                        return Err(InflateError::Adler32);
                    }
                    self.state = State::Done;
                }
            }
        }
    }

    /// A block's end-of-block code: the trailer after the last block.
    fn end_block(&mut self) {
        self.state = if self.last_block {
            State::Trailer
        } else {
            State::BlockHeader
        };
    }

    /// Copies stored bytes: first those already in the bit buffer, then
    /// straight from the input. Returns the bytes still to copy.
    fn stored(&mut self, input: &[u8], ip: &mut usize, out: &mut Out<'_>, mut left: u32) -> u32 {
        while left > 0 && self.bits.count >= 8 && out.at < out.buf.len() {
            let byte = self.take(8).to_le_bytes()[0];
            if let Some(d) = out.buf.get_mut(out.at) {
                *d = byte;
            }
            out.at += 1;
            left -= 1;
        }
        if self.bits.count == 0 {
            // The input is now read directly: bits held above the count
            // are bytes about to be copied, and must not be OR-ed in again.
            self.bits.buf = 0;
        } else {
            return left;
        }
        let rest = input.get(*ip..).unwrap_or_default();
        let room = out.buf.len() - out.at;
        let n = (left as usize).min(room).min(rest.len());
        if let (Some(dst), Some(src)) = (out.buf.get_mut(out.at..out.at + n), rest.get(..n)) {
            dst.copy_from_slice(src);
        }
        out.at += n;
        *ip += n;
        left - u32::try_from(n).unwrap_or(left)
    }

    /// Reads the literal/length and distance code lengths; false if the
    /// input ran out first (the progress is kept).
    fn code_lengths(&mut self, input: &[u8], ip: &mut usize) -> Result<bool, InflateError> {
        let total = self.hlit + self.hdist;
        while self.index < total {
            self.fill(input, ip, 0);
            let e = fast::lookup(&self.tables.codelen, self.bits.peek(CODELEN_BITS));
            let code = width(e);
            let symbol = payload(e);
            let (extra_bits, base) = match symbol {
                16 => (2, 3),
                17 => (3, 3),
                18 => (7, 11),
                _ => (0, 0),
            };
            // A repeat with nothing before it is refused as soon as its
            // code is read, before its extra bits arrive (as miniz_oxide
            // does; zlib waits for them): on a stream cut just there, the
            // verdict is the refusal, not a request for input.
            if symbol == 16 && self.index == 0 && code != 0 && code <= self.bits.count {
                return Err(InflateError::BadCodeLengths);
            }
            if code == 0 || code + extra_bits > self.bits.count {
                return Ok(false);
            }
            self.bits.consume(code);
            if symbol < 16 {
                if let Some(l) = self.tables.lengths.get_mut(self.index) {
                    *l = u8::try_from(symbol).unwrap_or(0);
                }
                self.index += 1;
                continue;
            }
            let repeat = base + self.take(extra_bits) as usize;
            let value = if symbol == 16 {
                match self
                    .index
                    .checked_sub(1)
                    .and_then(|i| self.tables.lengths.get(i))
                {
                    Some(&v) => v,
                    None => return Err(InflateError::BadCodeLengths),
                }
            } else {
                0
            };
            let end = self.index + repeat;
            if end > total {
                return Err(InflateError::BadCodeLengths);
            }
            if let Some(run) = self.tables.lengths.get_mut(self.index..end) {
                run.fill(value);
            }
            self.index = end;
        }
        Ok(true)
    }

    fn dynamic_tables(&mut self) -> Result<(), InflateError> {
        self.fixed_loaded = false;
        let t = &mut *self.tables;
        let (lit, rest) = t.lengths.split_at(self.hlit);
        let dist = rest.get(..self.hdist).unwrap_or_default();
        huffman::build_in(
            &mut t.block.litlen,
            lit,
            LITLEN_BITS,
            Alphabet::LitLen,
            &mut t.work,
        )?;
        if self.expected.saturating_sub(self.total) >= PAIRS_MIN {
            huffman::pair_literals_in(&mut t.block.litlen, lit, LITLEN_BITS, &mut t.work);
        }
        huffman::build_in(
            &mut t.block.dist,
            dist,
            DIST_BITS,
            Alphabet::Distance,
            &mut t.work,
        )
    }

    fn fixed_tables(&mut self) -> Result<(), InflateError> {
        if self.fixed_loaded {
            return Ok(());
        }
        self.fixed_loaded = true;
        let t = &mut *self.tables;
        let lit = huffman::fixed_litlen_lengths();
        huffman::build_in(
            &mut t.block.litlen,
            &lit,
            LITLEN_BITS,
            Alphabet::LitLen,
            &mut t.work,
        )?;
        huffman::build_in(
            &mut t.block.dist,
            &[5; 32],
            DIST_BITS,
            Alphabet::Distance,
            &mut t.work,
        )
    }

    /// One symbol of a Huffman block with every end checked: returns the
    /// flow to stop with when input or room runs out before it.
    fn careful_step(
        &mut self,
        input: &[u8],
        ip: &mut usize,
        out: &mut Out<'_>,
    ) -> Result<Option<Flow>, InflateError> {
        self.fill(input, ip, 0);
        let have = self.bits.count;
        let buf = self.bits.buf;
        let mut e = fast::lookup(&self.tables.block.litlen, fast::low(buf, LITLEN_BITS));
        let mut used = 0;
        if kind(e) == KIND_SUB {
            used = LITLEN_BITS;
            e = fast::sub_lookup(&self.tables.block.litlen, e, buf >> LITLEN_BITS);
        }
        used += width(e);
        if used > have {
            return Ok(Some(Flow::NeedsInput));
        }
        let room = out.buf.len() - out.at;
        match kind(e) {
            KIND_LITERAL | KIND_PAIR => {
                let [first, second, ..] = payload(e).to_le_bytes();
                if room == 0 {
                    return Ok(Some(Flow::OutputFull));
                }
                if kind(e) == KIND_PAIR && room == 1 {
                    // One byte of room: the pair's first literal only.
                    used = extra(e);
                }
                let n = if kind(e) == KIND_PAIR && room >= 2 {
                    2
                } else {
                    1
                };
                if let Some(d) = out.buf.get_mut(out.at..out.at + n) {
                    for (d, s) in d.iter_mut().zip([first, second]) {
                        *d = s;
                    }
                }
                out.at += n;
                self.bits.consume(used);
            }
            KIND_END => {
                self.bits.consume(used);
                self.end_block();
            }
            KIND_BASE => {
                let len_extra = extra(e);
                let len =
                    payload(e) + u32::try_from(fast::low(buf >> used, len_extra)).unwrap_or(0);
                used += len_extra;
                let rest = buf >> used;
                let mut d = fast::lookup(&self.tables.block.dist, fast::low(rest, DIST_BITS));
                if kind(d) == KIND_SUB {
                    used += DIST_BITS;
                    d = fast::sub_lookup(&self.tables.block.dist, d, rest >> DIST_BITS);
                }
                used += width(d);
                if used > have {
                    return Ok(Some(Flow::NeedsInput));
                }
                if kind(d) != KIND_BASE {
                    return Err(InflateError::InvalidSymbol);
                }
                let dist_extra = extra(d);
                if used + dist_extra > have {
                    return Ok(Some(Flow::NeedsInput));
                }
                let dist =
                    payload(d) + u32::try_from(fast::low(buf >> used, dist_extra)).unwrap_or(0);
                used += dist_extra;
                self.bits.consume(used);
                self.state = State::Match { len, dist };
            }
            _ => return Err(InflateError::InvalidSymbol),
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests;
