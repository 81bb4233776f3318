//! Walking over JSON by its brackets alone: where a container closes, and how
//! many entries it holds, without reading its values.
//!
//! The reader walks this way over parts that another read checks (the
//! top-level arrays that [`Document::locate`](crate::bbmodel::document::Document)
//! steps over, a mesh's faces in the cube reader, its vertex keys in the fill
//! pass). The walk goes 64 bytes per step: the quotes, brackets and commas of
//! a block are classified at once ([`classify::structure`]), the bytes inside
//! strings masked out by a prefix XOR of the quotes, and only the brackets
//! left are visited, one bit each. A block holding a backslash, and the last
//! bytes of the input, go byte by byte ([`walk_bytes`]), which is also the
//! reference the block walk is tested against.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "positions and lengths index the input or a caller buffer (at most isize::MAX bytes) and advance by at most what was just read or checked, so they stay below usize::MAX"
)]

use crate::json::classify;

/// Where the container that `from` lies `depth` levels inside closes: the
/// index of its closing bracket, found by brackets alone (strings and
/// escapes minded, nothing checked); `commas` counts the commas right
/// inside it. `None` when it does not close. `from` must not lie inside a
/// string.
pub(crate) fn closing_bracket(
    bytes: &[u8],
    from: usize,
    depth: usize,
    commas: &mut usize,
) -> Option<usize> {
    let (found, counted) = walk::<true>(bytes, from, depth);
    *commas += counted;
    found
}

/// [`closing_bracket`] without counting commas, which spares the block walk
/// the mask of where depth 1 holds.
pub(crate) fn closing_bracket_uncounted(bytes: &[u8], from: usize, depth: usize) -> Option<usize> {
    walk::<false>(bytes, from, depth).0
}

/// Where the container that `from` lies right inside closes, found by
/// brackets as [`closing_bracket`] finds it, calling `visit` with the offset
/// of each string's opening quote right inside it (its keys, and its values
/// that are strings). `None` when it does not close, when `visit` returns
/// false, or when one of those strings holds a backslash (so that each one
/// visited reads as its raw bytes).
pub(crate) fn closing_bracket_visiting(
    bytes: &[u8],
    from: usize,
    mut visit: impl FnMut(usize) -> bool,
) -> Option<usize> {
    let mut walk = Walk {
        depth: 1,
        in_string: false,
        commas: 0,
    };
    let mut i = from;
    loop {
        let Some(block) = bytes.get(i..).and_then(<[u8]>::first_chunk::<64>) else {
            return match visit_bytes(bytes, &mut i, bytes.len(), &mut walk, &mut visit) {
                Visited::Closed(close) => Some(close),
                Visited::Stopped | Visited::Open => None,
            };
        };
        let s = classify::structure(block);
        if s.backslash != 0 {
            let end = i + 64;
            match visit_bytes(bytes, &mut i, end, &mut walk, &mut visit) {
                Visited::Closed(close) => return Some(close),
                Visited::Stopped => return None,
                Visited::Open => continue,
            }
        }
        let inside = prefix_xor(s.quote) ^ if walk.in_string { !0 } else { 0 };
        walk.in_string = inside >> 63 != 0;
        let open = s.open & !inside;
        let close = s.close & !inside;
        // Where depth 1 starts or stops, as for counted commas.
        let mut toggles = 0u64;
        let at_one = walk.depth == 1;
        let mut brackets = open | close;
        let mut closed = None;
        while brackets != 0 {
            let k = brackets.trailing_zeros();
            let before = walk.depth;
            walk.depth = (before + 2 * ((open >> k) & 1) as usize) - 1;
            if walk.depth == 0 {
                closed = Some(k);
                break;
            }
            toggles |= (u64::from(before == 1) << k) | ((u64::from(walk.depth == 1) << k) << 1);
            brackets &= brackets - 1;
        }
        let region = prefix_xor(toggles) ^ if at_one { !0 } else { 0 };
        // Opening quotes are the quotes inside a string (a closing one is not).
        let mut starts = s.quote & inside & region;
        if let Some(k) = closed {
            starts &= (1u64 << k) - 1;
        }
        while starts != 0 {
            if !visit(i + starts.trailing_zeros() as usize) {
                return None;
            }
            starts &= starts - 1;
        }
        if let Some(k) = closed {
            return Some(i + k as usize);
        }
        i += 64;
    }
}

/// How a byte walk for [`closing_bracket_visiting`] ended.
enum Visited {
    Closed(usize),
    Stopped,
    /// The container is still open where the walk stopped.
    Open,
}

/// [`walk_bytes`] for [`closing_bracket_visiting`]: visits the strings
/// that open at depth 1, and stops at a backslash in one.
fn visit_bytes(
    bytes: &[u8],
    i: &mut usize,
    end: usize,
    walk: &mut Walk,
    visit: &mut impl FnMut(usize) -> bool,
) -> Visited {
    while *i < end {
        let Some(&b) = bytes.get(*i) else {
            return Visited::Stopped;
        };
        match (walk.in_string, b) {
            (true, b'"') => walk.in_string = false,
            (true, b'\\') if walk.depth == 1 => return Visited::Stopped,
            (true, b'\\') => *i += 1,
            (true, _) => {}
            (false, b'"') => {
                walk.in_string = true;
                if walk.depth == 1 && !visit(*i) {
                    return Visited::Stopped;
                }
            }
            (false, b'[' | b'{') => walk.depth += 1,
            (false, b']' | b'}') => {
                walk.depth -= 1;
                if walk.depth == 0 {
                    return Visited::Closed(*i);
                }
            }
            (false, _) => {}
        }
        *i += 1;
    }
    Visited::Open
}

/// The walk behind both: the closing bracket, and (when `COUNT`) the commas
/// at depth 1 before it.
fn walk<const COUNT: bool>(bytes: &[u8], from: usize, depth: usize) -> (Option<usize>, usize) {
    let mut walk = Walk {
        depth,
        in_string: false,
        commas: 0,
    };
    let mut i = from;
    let found = loop {
        let Some(block) = bytes.get(i..).and_then(<[u8]>::first_chunk::<64>) else {
            break walk_bytes(bytes, &mut i, bytes.len(), &mut walk);
        };
        let s = classify::structure(block);
        if s.backslash != 0 {
            // Escapes: this block byte by byte (which may end one byte past it).
            let end = i + 64;
            match walk_bytes(bytes, &mut i, end, &mut walk) {
                Some(close) => break Some(close),
                None => continue,
            }
        }
        if let Some(k) = walk.block::<COUNT>(&s) {
            break Some(i + k);
        }
        i += 64;
    };
    (found, walk.commas)
}

/// The state of a walk between blocks.
struct Walk {
    /// Containers open, counting the one whose end is sought.
    depth: usize,
    in_string: bool,
    /// Commas seen at depth 1.
    commas: usize,
}

impl Walk {
    /// Walks one block without backslashes: the offset of the closing
    /// bracket if it lies in the block.
    #[inline(always)]
    fn block<const COUNT: bool>(&mut self, s: &classify::Structure) -> Option<usize> {
        // Bit k set when byte k lies inside a string (from its opening quote
        // up to, not including, its closing quote).
        let inside = prefix_xor(s.quote) ^ if self.in_string { !0 } else { 0 };
        self.in_string = inside >> 63 != 0;
        let open = s.open & !inside;
        let close = s.close & !inside;
        // Too few closing brackets to reach depth 0 here, or (counting)
        // depth 1, where the commas that count stand: only the depth moves.
        if (close.count_ones() as usize) + usize::from(COUNT) < self.depth {
            self.depth = self.depth + open.count_ones() as usize - close.count_ones() as usize;
            return None;
        }
        let comma = s.comma & !inside;
        // Where depth 1 starts or stops: the commas between count.
        let mut toggles = 0u64;
        let at_one = self.depth == 1;
        let mut brackets = open | close;
        while brackets != 0 {
            let k = brackets.trailing_zeros();
            let before = self.depth;
            // +1 for an opening bracket, -1 for a closing one.
            self.depth = (before + 2 * ((open >> k) & 1) as usize) - 1;
            if self.depth == 0 {
                if COUNT {
                    let upto = (1u64 << k) - 1;
                    self.count(comma & upto, toggles, at_one);
                }
                return Some(k as usize);
            }
            if COUNT {
                // Leaving depth 1 stops the region at k; entering it starts
                // the region after k.
                toggles |= (u64::from(before == 1) << k) | ((u64::from(self.depth == 1) << k) << 1);
            }
            brackets &= brackets - 1;
        }
        if COUNT {
            self.count(comma, toggles, at_one);
        }
        None
    }

    /// Adds the commas of `comma` that lie at depth 1, given where depth 1
    /// starts and stops in the block.
    #[inline(always)]
    fn count(&mut self, comma: u64, toggles: u64, at_one: bool) {
        let region = prefix_xor(toggles) ^ if at_one { !0 } else { 0 };
        self.commas += (comma & region).count_ones() as usize;
    }
}

/// Bit k of the result is the XOR of bits 0 to k of `x`.
#[inline(always)]
const fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// Walks `bytes[*i..end]` byte by byte (an escape at its end takes the byte
/// after it too), leaving `*i` where it stopped: the closing bracket's
/// index if found there.
fn walk_bytes(bytes: &[u8], i: &mut usize, end: usize, walk: &mut Walk) -> Option<usize> {
    while *i < end {
        let b = *bytes.get(*i)?;
        match (walk.in_string, b) {
            (true, b'"') => walk.in_string = false,
            (true, b'\\') => *i += 1,
            (true, _) => {}
            (false, b'"') => walk.in_string = true,
            (false, b'[' | b'{') => walk.depth += 1,
            (false, b']' | b'}') => {
                walk.depth = walk.depth.checked_sub(1)?;
                if walk.depth == 0 {
                    return Some(*i);
                }
            }
            (false, b',') if walk.depth == 1 => walk.commas += 1,
            (false, _) => {}
        }
        *i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;
    use std::vec::Vec;

    /// The byte-by-byte walk over the whole input: the reference.
    fn reference(bytes: &[u8], from: usize, depth: usize) -> (Option<usize>, usize) {
        let mut walk = Walk {
            depth,
            in_string: false,
            commas: 0,
        };
        let mut i = from;
        let found = walk_bytes(bytes, &mut i, bytes.len(), &mut walk);
        (found, walk.commas)
    }

    fn block_walk(bytes: &[u8], from: usize, depth: usize) -> (Option<usize>, usize) {
        let mut commas = 0;
        let found = closing_bracket(bytes, from, depth, &mut commas);
        assert_eq!(closing_bracket_uncounted(bytes, from, depth), found);
        (found, commas)
    }

    #[test]
    fn finds_the_close_and_counts_top_level_commas() {
        let json = br#"1, [2, 3], {"a": [4, 5], "b,]": "\"]"}, "x" ] , 9]"#;
        let close = json.windows(3).position(|w| w == b"\" ]").unwrap() + 2;
        // Padded past one block so that the block path runs too.
        let mut long = json.to_vec();
        long.extend_from_slice(&[b' '; 200]);
        for bytes in [&json[..], &long[..]] {
            assert_eq!(block_walk(bytes, 0, 1), (Some(close), 3));
        }
    }

    /// Blocks deep inside entries (few closing brackets, many commas below
    /// depth 1) are passed over by their depth alone: the entries and the
    /// close are still those of the byte walk.
    #[test]
    fn blocks_below_depth_one_count_no_commas() {
        // Deep entries, and flat ones whose blocks hold one closing bracket
        // and the comma after it, at depth 1.
        let deep = r#"{"faces": {"north": {"uv": [0, 0, 16, 16], "texture": 0}, "up": {"uv": [1, 2, 3, 4]}}, "from": [1, 2, 3]}"#;
        let flat = r#"{"name": "one closing bracket a block"}"#;
        for (entry, entries) in [deep, flat]
            .into_iter()
            .flat_map(|e| [1, 2, 7, 40].map(|n| (e, n)))
        {
            let body = std::vec![entry; entries].join(",\n");
            for (depth, text) in [
                (1, std::format!("{body}] , 9]")),
                (3, std::format!("{body}]]] , 9]")),
            ] {
                let found = block_walk(text.as_bytes(), 0, depth);
                assert_eq!(
                    found,
                    reference(text.as_bytes(), 0, depth),
                    "{entries} at depth {depth}"
                );
                let commas = if depth == 1 { entries - 1 } else { 0 };
                assert_eq!(found.1, commas, "{entries} at depth {depth}");
            }
        }
    }

    /// The byte walk over the whole input, visiting: the reference.
    fn visiting_reference(bytes: &[u8], from: usize) -> (Option<usize>, Vec<usize>) {
        let mut walk = Walk {
            depth: 1,
            in_string: false,
            commas: 0,
        };
        let (mut i, mut seen) = (from, Vec::new());
        let found = match visit_bytes(bytes, &mut i, bytes.len(), &mut walk, &mut |k| {
            seen.push(k);
            true
        }) {
            Visited::Closed(close) => Some(close),
            _ => None,
        };
        (found, seen)
    }

    /// Up to 400 bytes of bracket soup (brackets, commas, quotes, colons and,
    /// on even rounds, backslashes, so that odd rounds take the block path),
    /// mostly plain bytes so that strings and nesting run long, and a start
    /// inside them.
    fn bracket_soup(rng: &mut crate::test_rng::XorShift, round: usize) -> (Vec<u8>, usize) {
        const ALPHABETS: [&[u8]; 2] = [b"[]{},,\"\"\\  a1:", b"[]{},,\"  a1:"];
        let alphabet = ALPHABETS[round % 2];
        let len = (rng.next() % 400) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                let r = rng.next();
                if r.is_multiple_of(4) {
                    alphabet[(r >> 8) as usize % alphabet.len()]
                } else {
                    b'a'
                }
            })
            .collect();
        let from = if len == 0 {
            0
        } else {
            (rng.next() as usize) % len
        };
        (bytes, from)
    }

    /// The visiting walk finds the close the counting walk finds, visits
    /// exactly the strings that open at depth 1 (keys and string values),
    /// and gives up on a backslash in one of them, as the byte walk does.
    #[test]
    fn visiting_walk_agrees_with_the_byte_walk() {
        let json = br#"{"a": "x,{", "b": [1, "in"], "c": {"d": "e"}, "f": 2} , "g"]"#;
        let mut long = json[1..].to_vec();
        long.extend_from_slice(&[b' '; 200]);
        let mut seen = Vec::new();
        let close = closing_bracket_visiting(&long, 0, |k| {
            seen.push(k);
            true
        });
        let strings: Vec<&[u8]> = seen.iter().map(|&k| &long[k..k + 3]).collect();
        assert_eq!(
            strings,
            [&b"\"a\""[..], b"\"x,", b"\"b\"", b"\"c\"", b"\"f\""]
        );
        assert_eq!(close, closing_bracket_uncounted(&long, 0, 1));
        assert_eq!(closing_bracket_visiting(&long, 0, |_| false), None);
        let escaped = br#""a\"b": 1}"#;
        assert_eq!(visiting_reference(escaped, 0).0, None);
        assert_eq!(closing_bracket_visiting(escaped, 0, |_| true), None);

        let mut rng = crate::test_rng::XorShift(0x2545_F491_4F6C_DD1D);
        for round in 0..40_000 {
            let (bytes, from) = bracket_soup(&mut rng, round);
            let mut seen = Vec::new();
            let found = closing_bracket_visiting(&bytes, from, |k| {
                seen.push(k);
                true
            });
            assert_eq!(
                (found, seen),
                visiting_reference(&bytes, from),
                "from {from} in {:?}",
                String::from_utf8_lossy(&bytes)
            );
        }
    }

    /// Random bracket soup, strings, escapes and commas, every start depth:
    /// the block walk agrees with the byte walk exactly.
    #[test]
    fn block_walk_agrees_with_the_byte_walk() {
        let mut rng = crate::test_rng::XorShift(0x9E37_79B9_7F4A_7C15);
        for round in 0..40_000 {
            let (bytes, from) = bracket_soup(&mut rng, round);
            let depth = 1 + (rng.next() % 3) as usize;
            assert_eq!(
                block_walk(&bytes, from, depth),
                reference(&bytes, from, depth),
                "from {from} depth {depth} in {:?}",
                String::from_utf8_lossy(&bytes)
            );
        }
    }
}
