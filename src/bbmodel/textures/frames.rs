//! Frame-strip textures (Supported, "Frame-strip (animated) textures";
//! Blockbench conventions 14): how many frames an image holds, how long each
//! shows, and the order they play in.
//!
//! Everything here is computed from the texture entry and its PNG header,
//! without memory: a custom order is walked once to count its steps (the
//! plan) and once more to write them (the fill), through the same function.
#![allow(
    clippy::arithmetic_side_effects,
    reason = "frame-order lengths are bounded by MAX_FRAME_ORDER_LENGTH and by the token count of an order of at most maxStringChars; divisors are checked non-zero above"
)]

use crate::bbmodel::document::formats::ModelFormat;
use crate::json::JsonStr;
use crate::limits::{MAX_FRAME_ORDER_CHARS, MAX_FRAME_ORDER_LENGTH};
use crate::scene::FrameOrder;

/// A texture's frame fields as stored; each `None` when absent or of the
/// wrong type (`entries.rs` warns for those and the default is used).
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameFields<'a> {
    /// `frame_time`: ticks a frame shows, in the mcmeta formats.
    pub frame_time: Option<f64>,
    /// `fps`: frames a second, elsewhere.
    pub fps: Option<f64>,
    /// `frame_order_type`, when a known value.
    pub order_type: Option<FrameOrder>,
    /// `frame_order` as a string of at most MAX_FRAME_ORDER_CHARS.
    pub frame_order: Option<JsonStr<'a>>,
    /// `frame_interpolate`.
    pub interpolate: bool,
}

/// How a texture's image splits into frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameStrip {
    /// Frames stacked vertically (1 for a still image).
    pub count: u32,
    /// Seconds each frame shows.
    pub time: f32,
    /// How the frames play.
    pub order: FrameOrder,
    /// Steps of a custom order (0 unless `order` is custom).
    pub steps: u32,
    /// Frames blend into the next.
    pub interpolate: bool,
}

impl FrameStrip {
    /// A still image.
    pub const STILL: Self = Self {
        count: 1,
        time: 0.0,
        order: FrameOrder::Loop,
        steps: 0,
        interpolate: false,
    };
}

/// What reading a strip noticed that the spec warns about (Warnings:
/// "Textures in an animating format warn UNSUPPORTED_VALUE …").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StripNotes {
    /// More frames than image rows: drawn as one image.
    pub under_one_pixel: bool,
    /// Custom tokens that are negative or too large: frame 0 plays there.
    pub bad_tokens: bool,
    /// Tokens that are no number would repeat over more than
    /// MAX_FRAME_ORDER_LENGTH steps: they were dropped.
    pub too_long: bool,
}

/// Convention 14: the frame count of an image `png` [w, h] in texels whose
/// UV space is `uv` [w, h]: only where the format animates textures and the
/// image's ratio differs from the UV space's, `ceil(uvW / uvH / ratio − 0.05)`
/// when above 1. More frames than rows is drawn as one image
/// (`under_one_pixel`).
pub fn frame_count(format: ModelFormat, png: [u32; 2], uv: [f32; 2]) -> (u32, bool) {
    let [w, h] = png;
    if !format.animated_textures() || w == 0 || h == 0 {
        return (1, false);
    }
    let ratio = f64::from(w) / f64::from(h);
    let uv_ratio = f64::from(uv[0]) / f64::from(uv[1]);
    // Blockbench compares with `!==`: an exact comparison of the two ratios.
    #[allow(clippy::float_cmp)]
    if ratio == uv_ratio || !uv_ratio.is_finite() {
        return (1, false);
    }
    let frames = libm::ceil(uv_ratio / ratio - 0.05);
    if frames <= 1.0 || frames.is_nan() {
        return (1, false);
    }
    if frames > f64::from(h) {
        return (1, true);
    }
    // At most `h`, so it fits.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    (frames as u32, false)
}

/// Convention 14's frame time in seconds: with Format.texture_mcmeta a frame
/// lasts max(16.66, 50 · frame_time) ms, else 1 / max(1, fps) s (fps default
/// 7, frame_time default 1).
pub fn frame_time(format: ModelFormat, fields: &FrameFields<'_>) -> f32 {
    let seconds = if format.texture_mcmeta() {
        f64::max(16.66, 50.0 * fields.frame_time.unwrap_or(1.0)) / 1000.0
    } else {
        1.0 / f64::max(1.0, fields.fps.unwrap_or(7.0))
    };
    #[allow(clippy::cast_possible_truncation)]
    let s = seconds as f32;
    s
}

/// The whole strip of a texture of `count` frames: time, order and the
/// length of a custom order.
pub fn strip(
    format: ModelFormat,
    count: u32,
    fields: &FrameFields<'_>,
    notes: &mut StripNotes,
) -> FrameStrip {
    if count <= 1 {
        return FrameStrip::STILL;
    }
    let mut strip = FrameStrip {
        count,
        time: frame_time(format, fields),
        order: fields.order_type.unwrap_or(FrameOrder::Loop),
        steps: 0,
        interpolate: fields.interpolate,
    };
    if strip.order == FrameOrder::Custom {
        let steps = match fields.frame_order {
            Some(order) => custom_steps(&order, count, notes, |_, _| {}),
            None => 0,
        };
        if steps == 0 {
            strip.order = FrameOrder::Loop;
        }
        strip.steps = steps;
    }
    strip
}

/// Writes the steps of `order` (a custom frame_order on `count` frames)
/// into `out`, which holds [`FrameStrip::steps`] of them.
pub fn write_custom_steps(order: &JsonStr<'_>, count: u32, out: &mut [u32]) {
    let mut notes = StripNotes::default();
    custom_steps(order, count, &mut notes, |i, frame| {
        if let Some(slot) = out.get_mut(i) {
            *slot = frame;
        }
    });
}

/// One whitespace-separated token of a custom order, read as parseInt
/// reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Token {
    /// A frame number `k mod n`, or frame 0 for a negative or too large
    /// token (Blockbench's frame is negative or NaN there; its preview
    /// draws frame 0).
    Frame(u32, bool),
    /// No number (parseInt gives NaN): step `a` plays frame `a mod n`.
    Word,
}

/// Convention 14's custom order on `count` frames: the tokens mod n, or,
/// with tokens that are no number, the whole period of lcm(t, n) steps;
/// over MAX_FRAME_ORDER_LENGTH those tokens are dropped (`too_long`); a
/// list equal to plain looping is left out (returns 0). Calls `emit` with
/// each step's index and frame and returns the step count.
fn custom_steps(
    order: &JsonStr<'_>,
    count: u32,
    notes: &mut StripNotes,
    mut emit: impl FnMut(usize, u32),
) -> u32 {
    if order.decoded_len() as u64 > MAX_FRAME_ORDER_CHARS || count == 0 {
        return 0;
    }
    let n = u64::from(count);
    // First walk: how many tokens, how many are words.
    let (mut tokens, mut words) = (0u64, 0u64);
    let mut blank = true;
    for_each_token(order, n, |t| {
        tokens += 1;
        match t {
            Token::Word => words += 1,
            Token::Frame(_, bad) => {
                blank = false;
                notes.bad_tokens |= bad;
            }
        }
    });
    // A blank order, or only words, plays as plain looping.
    if blank {
        return 0;
    }
    let (length, keep_words) = if words == 0 {
        (tokens, false)
    } else {
        let period = lcm(tokens, n);
        if period > MAX_FRAME_ORDER_LENGTH {
            notes.too_long = true;
            (tokens - words, false)
        } else {
            (period, true)
        }
    };
    // Second walk: the list; is it plain looping?
    let frame_at = |step: u64, token: Token| -> u32 {
        match token {
            Token::Frame(k, _) => k,
            // step mod n < n ≤ u32::MAX.
            #[allow(clippy::cast_possible_truncation)]
            Token::Word => (step % n) as u32,
        }
    };
    let mut plain = length % n == 0;
    let mut written = 0u64;
    let repeats = if keep_words { length / tokens } else { 1 };
    for round in 0..repeats {
        let mut a = round * tokens;
        for_each_token(order, n, |t| {
            if t == Token::Word && !keep_words {
                return;
            }
            let frame = frame_at(a, t);
            plain &= u64::from(frame) == written % n;
            emit(usize::try_from(written).unwrap_or(usize::MAX), frame);
            written += 1;
            a += 1;
        });
    }
    if plain {
        return 0;
    }
    u32::try_from(written).unwrap_or(0)
}

/// Calls `f` with each whitespace-separated token of `order` (JavaScript's
/// `split(/\s+/)`: leading or trailing whitespace gives an empty token,
/// which is no number), read through parseInt, modulo `n`.
fn for_each_token(order: &JsonStr<'_>, n: u64, mut f: impl FnMut(Token)) {
    let mut token = IntReader::default();
    let mut in_gap = false;
    let mut any = false;
    order.for_each_decoded(|piece| {
        for ch in piece.chars() {
            any = true;
            if is_js_whitespace(ch) {
                if !in_gap {
                    f(token.finish(n));
                    token = IntReader::default();
                    in_gap = true;
                }
            } else {
                in_gap = false;
                token.push(ch);
            }
        }
        true
    });
    if any {
        f(token.finish(n));
    }
}

/// Where parseInt is in a token.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum IntState {
    /// Nothing read yet.
    #[default]
    Start,
    /// After a sign.
    Signed,
    /// After a first `0`, which an `x` turns into a hexadecimal prefix.
    LeadingZero,
    /// Reading digits.
    Digits,
    /// Past the last digit: the rest is ignored.
    Done,
}

/// parseInt of one token, a character at a time: an optional sign, `0x`
/// for hexadecimal, then digits up to the first that is none.
#[derive(Clone, Copy, Debug, Default)]
struct IntReader {
    state: IntState,
    negative: bool,
    hex: bool,
    digits: u32,
    value: f64,
}

/// Largest integer JavaScript holds exactly; a frame index past it is
/// "too large" (frame 0 plays, with a warning).
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

impl IntReader {
    fn push(&mut self, ch: char) {
        match self.state {
            IntState::Start if ch == '+' || ch == '-' => {
                self.negative = ch == '-';
                self.state = IntState::Signed;
            }
            IntState::Start | IntState::Signed if ch == '0' => {
                self.digits = 1;
                self.state = IntState::LeadingZero;
            }
            IntState::LeadingZero if ch == 'x' || ch == 'X' => {
                self.hex = true;
                self.digits = 0;
                self.state = IntState::Digits;
            }
            IntState::Start | IntState::Signed | IntState::LeadingZero | IntState::Digits => {
                let radix = if self.hex { 16 } else { 10 };
                match ch.to_digit(radix) {
                    Some(d) => {
                        self.value = self.value * f64::from(radix) + f64::from(d);
                        self.digits += 1;
                        self.state = IntState::Digits;
                    }
                    None => self.state = IntState::Done,
                }
            }
            IntState::Done => {}
        }
    }

    fn finish(self, n: u64) -> Token {
        if self.digits == 0 {
            return Token::Word;
        }
        if self.negative && self.value > 0.0 || self.value > MAX_SAFE_INTEGER {
            return Token::Frame(0, true);
        }
        // A safe integer fits u64 exactly.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let k = self.value as u64;
        let frame = k.checked_rem(n).unwrap_or(0);
        Token::Frame(u32::try_from(frame).unwrap_or(0), false)
    }
}

/// JavaScript's `\s`: Unicode White_Space and the BOM.
fn is_js_whitespace(ch: char) -> bool {
    matches!(
        ch,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn lcm(a: u64, b: u64) -> u64 {
    match gcd(a, b) {
        0 => 0,
        g => (a / g).saturating_mul(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    fn steps(order: &str, count: u32) -> (Vec<u32>, StripNotes) {
        let json = std::format!("{order:?}");
        let mut t = crate::json::Tokenizer::new(json.as_bytes(), 4);
        let Ok(Some(crate::json::Token {
            kind: crate::json::TokenKind::String(s),
            ..
        })) = t.next_token()
        else {
            panic!("a JSON string");
        };
        let mut notes = StripNotes::default();
        let fields = FrameFields {
            order_type: Some(FrameOrder::Custom),
            frame_order: Some(s),
            ..FrameFields::default()
        };
        let strip = strip(ModelFormat::Free, count, &fields, &mut notes);
        let mut out = std::vec![u32::MAX; strip.steps as usize];
        write_custom_steps(&s, count, &mut out);
        if strip.steps == 0 {
            assert_eq!(strip.order, FrameOrder::Loop, "{order}");
        } else {
            assert_eq!(strip.order, FrameOrder::Custom, "{order}");
        }
        (out, notes)
    }

    #[test]
    fn convention_14_frame_count_is_ceil_of_the_ratio_less_a_twentieth() {
        let res = [16.0, 16.0];
        assert_eq!(frame_count(ModelFormat::Free, [16, 64], res), (4, false));
        // A strip slightly taller than whole frames rounds down.
        assert_eq!(frame_count(ModelFormat::Free, [100, 402], res), (4, false));
        assert_eq!(frame_count(ModelFormat::Free, [100, 410], res), (5, false));
        // Same ratio as the UV space, or wider: one image.
        assert_eq!(frame_count(ModelFormat::Free, [32, 32], res), (1, false));
        assert_eq!(frame_count(ModelFormat::Free, [32, 16], res), (1, false));
        // The UV space, not the resolution, is what the ratio is taken of.
        assert_eq!(
            frame_count(ModelFormat::Free, [16, 64], [16.0, 32.0]),
            (2, false)
        );
        // Frames under one pixel tall: drawn as one image, with a note.
        assert_eq!(
            frame_count(ModelFormat::Free, [1, 2], [100.0, 1.0]),
            (1, true)
        );
    }

    #[test]
    fn convention_14_only_the_animating_formats_have_strips() {
        for format in [
            ModelFormat::Free,
            ModelFormat::JavaBlock,
            ModelFormat::Bedrock,
            ModelFormat::BedrockBlock,
            ModelFormat::BedrockOld,
            ModelFormat::Image,
            ModelFormat::GeckolibModel,
            ModelFormat::AnimatedEntityModel,
            ModelFormat::AzureModel,
            ModelFormat::BamoModel,
            ModelFormat::FreeRotation,
            ModelFormat::JavaBlockSequence,
            ModelFormat::CosmicReachEntityModel,
        ] {
            assert_eq!(
                frame_count(format, [16, 64], [16.0, 16.0]).0,
                4,
                "{format:?}"
            );
        }
        for format in [
            ModelFormat::ModdedEntity,
            ModelFormat::OptifineEntity,
            ModelFormat::OptifinePart,
            ModelFormat::Skin,
            ModelFormat::EmeEntity,
            ModelFormat::Figura,
            ModelFormat::HytaleCharacter,
            ModelFormat::HytaleProp,
            ModelFormat::CosmicReachModel,
            ModelFormat::Other,
        ] {
            assert_eq!(
                frame_count(format, [16, 64], [16.0, 16.0]).0,
                1,
                "{format:?}"
            );
        }
    }

    #[test]
    fn convention_14_frame_time_is_ticks_with_mcmeta_else_fps() {
        let ticks = |t| FrameFields {
            frame_time: Some(t),
            fps: Some(3.0),
            ..FrameFields::default()
        };
        // max(16.66, 50 · frame_time) ms with Format.texture_mcmeta.
        assert_eq!(frame_time(ModelFormat::JavaBlock, &ticks(2.0)), 0.1);
        assert_eq!(
            frame_time(ModelFormat::GeckolibModel, &ticks(0.1)),
            0.016_66
        );
        assert_eq!(
            frame_time(ModelFormat::JavaBlock, &FrameFields::default()),
            0.05
        );
        // 1 / max(1, fps) s elsewhere; fps defaults to 7.
        assert_eq!(frame_time(ModelFormat::Free, &ticks(2.0)), 1.0 / 3.0);
        assert_eq!(
            frame_time(ModelFormat::Bedrock, &FrameFields::default()),
            1.0 / 7.0
        );
        let slow = FrameFields {
            fps: Some(0.5),
            ..FrameFields::default()
        };
        assert_eq!(frame_time(ModelFormat::Free, &slow), 1.0);
    }

    #[test]
    fn convention_14_custom_order_takes_tokens_mod_n() {
        assert_eq!(steps("3 1 2", 4).0, [3, 1, 2]);
        assert_eq!(steps("5 6", 4).0, [1, 2]);
        // A timed index:time token plays its index, as parseInt reads it.
        assert_eq!(steps("1:5 2:5", 4).0, [1, 2]);
        assert_eq!(steps("0x1A 1", 30).0, [26, 1]);
        assert_eq!(steps("2\t\n1", 4).0, [2, 1]);
    }

    #[test]
    fn convention_14_words_play_their_step_over_the_lcm_period() {
        // The spec's example: "0 x" on 4 frames plays 0, 1, 0, 3.
        assert_eq!(steps("0 x", 4).0, [0, 1, 0, 3]);
        // Leading whitespace is an empty token, as split(/\s+/) gives it.
        assert_eq!(steps(" 1 2", 4).0, [0, 1, 2, 3, 1, 2, 2, 1, 2, 1, 1, 2]);
    }

    #[test]
    fn convention_14_a_list_equal_to_plain_looping_is_left_out() {
        assert_eq!(steps("0 1 2 3", 4).0, Vec::<u32>::new());
        assert_eq!(steps("0 1 2 3 4 5 6 7", 4).0, Vec::<u32>::new());
        assert_eq!(steps("x y z", 4).0, Vec::<u32>::new());
        assert_eq!(steps("   ", 4).0, Vec::<u32>::new());
        assert_eq!(steps("", 4).0, Vec::<u32>::new());
        // Not a whole number of loops: kept.
        assert_eq!(steps("0 1", 4).0, [0, 1]);
    }

    #[test]
    fn warnings_negative_or_too_large_tokens_play_frame_0() {
        let (list, notes) = steps("-1 2 99999999999999999999", 4);
        assert_eq!(list, [0, 2, 0]);
        assert!(notes.bad_tokens);
        // -0 is no negative number.
        let (list, notes) = steps("-0 3", 4);
        assert_eq!(list, [0, 3]);
        assert!(!notes.bad_tokens);
    }

    #[test]
    fn max_frame_order_length_drops_words_past_it() {
        // 5000 tokens on 3 frames: lcm 15 000 > MAX_FRAME_ORDER_LENGTH.
        let order: Vec<&str> = (0..5000)
            .map(|i| if i % 2 == 0 { "x" } else { "1" })
            .collect();
        let (list, notes) = steps(&order.join(" "), 3);
        assert!(notes.too_long);
        assert_eq!(list, std::vec![1; 2500]);
        // At the bound the words are kept: 8192 tokens on 2 frames, lcm 8192.
        let order: Vec<&str> = (0..8192)
            .map(|i| if i % 2 == 0 { "x" } else { "0" })
            .collect();
        let (list, notes) = steps(&order.join(" "), 2);
        assert!(!notes.too_long);
        assert_eq!(list.len(), 8192);
        assert_eq!(&list[..4], [0, 0, 0, 0]);
        // One past: 2731 tokens on 3 frames, lcm 8193.
        let order: Vec<&str> = (0..2731).map(|i| if i == 0 { "x" } else { "2" }).collect();
        let (list, notes) = steps(&order.join(" "), 3);
        assert!(notes.too_long);
        assert_eq!(list.len(), 2730);
    }

    #[test]
    fn max_frame_order_chars_plays_plain_order() {
        let long = "1 ".repeat(MAX_FRAME_ORDER_CHARS as usize / 2 + 1);
        assert_eq!(steps(&long, 4).0, Vec::<u32>::new());
    }
}
