//! Cross-cutting tests: error kinds and offsets, UTF-8, numbers, depth, skipping, and
//! chunked == whole equivalence over hand-written, generated and corpus documents.

use super::*;
use std::format;
use std::string::{String, ToString};
use std::vec;
use std::vec::Vec;

/// An owned, comparable form of a token (decoded strings, number bits + raw text).
#[derive(Clone, Debug, PartialEq)]
enum Ot {
    BeginObject,
    EndObject,
    BeginArray,
    EndArray,
    Key(String, String),
    Str(String, String),
    Num(u64, String),
    Bool(bool),
    Null,
}

fn own_str(s: &JsonStr<'_>) -> (String, String) {
    let mut buf = vec![0u8; s.decoded_len()];
    let decoded = s.decode_into(&mut buf).expect("decode").to_string();
    assert_eq!(decoded.len(), s.decoded_len());
    assert!(s.raw_len() >= s.decoded_len());
    assert!(s.eq_str(&decoded));
    match s.as_str() {
        Some(plain) => {
            assert!(!s.has_escapes());
            assert_eq!(plain, decoded);
        }
        None => assert!(s.has_escapes()),
    }
    (decoded, s.raw_str().to_string())
}

fn own(t: &Token<'_>) -> (Ot, u64) {
    let o = match t.kind {
        TokenKind::BeginObject => Ot::BeginObject,
        TokenKind::EndObject => Ot::EndObject,
        TokenKind::BeginArray => Ot::BeginArray,
        TokenKind::EndArray => Ot::EndArray,
        TokenKind::Key(s) => {
            let (d, r) = own_str(&s);
            Ot::Key(d, r)
        }
        TokenKind::String(s) => {
            let (d, r) = own_str(&s);
            Ot::Str(d, r)
        }
        TokenKind::Number(n) => {
            let v = n.value();
            Ot::Num(v.to_bits(), n.raw().to_string())
        }
        TokenKind::Bool(b) => Ot::Bool(b),
        TokenKind::Null => Ot::Null,
    };
    (o, t.offset)
}

type Outcome = (Vec<(Ot, u64)>, Option<JsonError>);

fn whole_depth(doc: &[u8], max_depth: usize) -> Outcome {
    let mut t = Tokenizer::new(doc, max_depth);
    let mut v = Vec::new();
    loop {
        match t.next_token() {
            Ok(Some(tok)) => v.push(own(&tok)),
            Ok(None) => {
                assert_eq!(t.next_token(), Ok(None));
                return (v, None);
            }
            Err(e) => {
                // Sticky.
                assert_eq!(t.next_token(), Err(e));
                assert_eq!(t.skip_value(), Err(e));
                return (v, Some(e));
            }
        }
    }
}

fn whole(doc: &[u8]) -> Outcome {
    whole_depth(doc, 128)
}

fn chunked_depth(doc: &[u8], size: usize, max_depth: usize) -> Outcome {
    let mut scratch = vec![0u8; doc.len() + 2];
    let mut t = StreamTokenizer::new(&mut scratch, max_depth);
    let mut v = Vec::new();
    let mut chunks = doc.chunks(size.max(1));
    loop {
        let next = chunks.next();
        if next.is_none() {
            t.finish();
        }
        let mut c = next.unwrap_or(&[]);
        loop {
            match t.next(&mut c) {
                Ok(Step::Token(tok)) => v.push(own(&tok)),
                Ok(Step::NeedMoreInput) => {
                    assert!(c.is_empty());
                    assert!(next.is_some(), "NeedMoreInput after finish");
                    break;
                }
                Ok(Step::End) => {
                    assert_eq!(t.next(&mut c), Ok(Step::End));
                    assert_eq!(t.offset(), doc.len() as u64);
                    return (v, None);
                }
                Err(e) => {
                    assert_eq!(t.next(&mut c), Err(e));
                    return (v, Some(e));
                }
            }
        }
    }
}

fn chunked(doc: &[u8], size: usize) -> Outcome {
    chunked_depth(doc, size, 128)
}

const CHUNKS: [usize; 3] = [1, 7, 4096];

/// The first error of skipping the top-level value and then reading the end.
fn skip_outcome(doc: &[u8]) -> Option<JsonError> {
    let mut t = Tokenizer::new(doc, 128);
    match t.skip_value() {
        Err(e) => Some(e),
        Ok(skipped) => {
            assert!(skipped, "a document starts with a value");
            t.next_token().err()
        }
    }
}

/// Bytes of trailing whitespace that put every token of a document on the whole-input
/// fast path (it needs a window of about a hundred bytes ahead of the position), while
/// chunks of 1 and 7 bytes always take the general path: comparing the two checks the
/// fast path against the general one.
const FAST_PAD: usize = 160;

fn assert_same(doc: &[u8], what: &str) -> Outcome {
    let w = assert_same_unpadded(doc, what);
    let mut padded = doc.to_vec();
    padded.resize(doc.len() + FAST_PAD, b' ');
    let p = assert_same_unpadded(&padded, what);
    // Trailing whitespace changes nothing, except where the input ran out.
    let at_end = matches!(
        w.1.map(|e| e.kind()),
        Some(ErrorKind::UnexpectedEof | ErrorKind::EmptyInput)
    );
    if !at_end {
        assert_eq!(p, w, "{what}: padded input differs");
    }
    w
}

fn assert_same_unpadded(doc: &[u8], what: &str) -> Outcome {
    let w = whole(doc);
    assert_eq!(skip_outcome(doc), w.1, "{what}: skip_value error differs");
    for size in CHUNKS {
        let c = chunked(doc, size);
        if c != w {
            let n = w.0.iter().zip(&c.0).take_while(|(a, b)| a == b).count();
            panic!(
                "{what}: chunk size {size} differs (first differing token #{n}: {:?} vs {:?}; errors {:?} vs {:?})",
                w.0.get(n),
                c.0.get(n),
                w.1,
                c.1
            );
        }
    }
    w
}

fn err_of(doc: &[u8]) -> Option<JsonError> {
    assert_same(doc, &String::from_utf8_lossy(doc)).1
}

/// Whether serde_json accepts `doc` as JSON. serde_json refuses numbers past
/// the f64 range, which are valid JSON (scenedec reads them as ±infinity, as
/// Rust's parser and `JSON.parse` do): that refusal counts as acceptance.
fn serde_accepts(doc: &[u8]) -> bool {
    match serde_json::from_slice::<serde_json::Value>(doc) {
        Ok(_) => true,
        // serde stops at the number; whether the rest is JSON it cannot say.
        Err(e) if e.to_string().starts_with("number out of range") => err_of(doc).is_none(),
        Err(_) => false,
    }
}

// ---------------------------------------------------------------------------------------
// Error kinds and offsets.

#[test]
fn every_error_kind_with_offset() {
    use ErrorKind::*;
    let nf = NonFiniteNumber;
    let cases: &[(&[u8], ErrorKind, u64)] = &[
        (b"", EmptyInput, 0),
        (b"   ", EmptyInput, 3),
        (b" \r\n\t", EmptyInput, 4),
        (b"\xEF\xBB\xBF{}", ByteOrderMark, 0),
        (b"\xEF\xBB\xBF", ByteOrderMark, 0),
        (b"\xEF\xBB", ExpectedValue, 0),
        (b"\xEFx", ExpectedValue, 0),
        (b" \xEF\xBB\xBF1", ExpectedValue, 1),
        (b"[", UnexpectedEof, 1),
        (b"[1,", UnexpectedEof, 3),
        (b"{\"a\"", UnexpectedEof, 4),
        (b"{\"a\":", UnexpectedEof, 5),
        (b"{\"a\":1 ", UnexpectedEof, 7),
        (b"\"abc", UnexpectedEof, 4),
        (b"\"ab\\", UnexpectedEof, 4),
        (b"\"ab\\u12", UnexpectedEof, 7),
        (b"\"\\uD800", UnexpectedEof, 7),
        (b"\"\\uD800\\", UnexpectedEof, 8),
        (b"tru", UnexpectedEof, 3),
        (b"-", UnexpectedEof, 1),
        (b"1.", UnexpectedEof, 2),
        (b"1e", UnexpectedEof, 2),
        (b"1e+", UnexpectedEof, 3),
        (b"-Inf", UnexpectedEof, 4),
        (b"]", ExpectedValue, 0),
        (b"}", ExpectedValue, 0),
        (b",", ExpectedValue, 0),
        (b"+1", ExpectedValue, 0),
        (b".5", ExpectedValue, 0),
        (b"'a'", ExpectedValue, 0),
        (b"\x0c1", ExpectedValue, 0),
        (b"\xC3\xA9", ExpectedValue, 0),
        (b"// c\n1", ExpectedValue, 0),
        (b"{\"a\":}", ExpectedValue, 5),
        (b"{\"a\":]", ExpectedValue, 5),
        (b"[1,,2]", ExpectedValue, 3),
        (b"[,1]", ExpectedValueOrArrayEnd, 1),
        (b"[}", ExpectedValueOrArrayEnd, 1),
        (b"[1,]", TrailingComma, 3),
        (b"{\"a\":1,}", TrailingComma, 7),
        (b"{,}", ExpectedKeyOrObjectEnd, 1),
        (b"{'a':1}", ExpectedKeyOrObjectEnd, 1),
        (b"{a:1}", ExpectedKeyOrObjectEnd, 1),
        (b"{]", ExpectedKeyOrObjectEnd, 1),
        (b"{\"a\":1,2}", ExpectedKey, 7),
        (b"{\"a\" 1}", ExpectedColon, 5),
        (b"{\"a\",1}", ExpectedColon, 4),
        (b"{\"a\":1 \"b\"}", ExpectedCommaOrObjectEnd, 7),
        (b"{\"a\":1]", ExpectedCommaOrObjectEnd, 6),
        (b"{\"a\":1:", ExpectedCommaOrObjectEnd, 6),
        (b"[1 2]", ExpectedCommaOrArrayEnd, 3),
        (b"[1}", ExpectedCommaOrArrayEnd, 2),
        (b"[1.5.3]", ExpectedCommaOrArrayEnd, 4),
        (b"[truex]", ExpectedCommaOrArrayEnd, 5),
        (b"1 2", TrailingCharacters, 2),
        (b"{}x", TrailingCharacters, 2),
        (b"[]]", TrailingCharacters, 2),
        (b"nulll", TrailingCharacters, 4),
        (b"1.5.3", TrailingCharacters, 3),
        (b"1 /* c */", TrailingCharacters, 2),
        (b"1\x0c", TrailingCharacters, 1),
        (b"\"a\"\xC3\xA9", TrailingCharacters, 3),
        (b"1\x00", TrailingCharacters, 1),
        (b"trUe", InvalidLiteral, 2),
        (b"nan", InvalidLiteral, 1),
        (b"falsy", InvalidLiteral, 4),
        (b"Nan", InvalidLiteral, 2),
        (b"Inf", UnexpectedEof, 3),
        (b"Infinite", InvalidLiteral, 7),
        (b"-Infinitx", InvalidLiteral, 8),
        (b"NaN", nf(NonFinite::NaN), 0),
        (b"NaNa", nf(NonFinite::NaN), 0),
        (b"[1, NaN]", nf(NonFinite::NaN), 4),
        (b"Infinity", nf(NonFinite::Infinity), 0),
        (b"{\"x\":Infinity}", nf(NonFinite::Infinity), 5),
        (b"-Infinity", nf(NonFinite::NegInfinity), 0),
        (b"[1,-Infinity]", nf(NonFinite::NegInfinity), 3),
        (b"01", LeadingZero, 1),
        (b"-01", LeadingZero, 2),
        (b"00", LeadingZero, 1),
        (b"[-00.5]", LeadingZero, 3),
        (b"1.e5", InvalidNumber, 2),
        (b"1.]", InvalidNumber, 2),
        (b"1ex", InvalidNumber, 2),
        (b"1e+-1", InvalidNumber, 3),
        (b"-x", InvalidNumber, 1),
        (b"--1", InvalidNumber, 1),
        (b"-.5", InvalidNumber, 1),
        (b"\"a\x01b\"", ControlCharacter, 2),
        (b"\"\t\"", ControlCharacter, 1),
        (b"\"\n\"", ControlCharacter, 1),
        (b"\"\x00\"", ControlCharacter, 1),
        (b"\"\x1f\"", ControlCharacter, 1),
        (b"\"\\x\"", InvalidEscape, 2),
        (b"\"\\'\"", InvalidEscape, 2),
        (b"\"\\U0041\"", InvalidEscape, 2),
        (b"\"\\\xC3\xA9\"", InvalidEscape, 2),
        (b"\"\\u12g4\"", InvalidUnicodeEscape, 5),
        (b"\"\\u\"", InvalidUnicodeEscape, 3),
        (b"\"\\uD800\\u00G0\"", InvalidUnicodeEscape, 11),
        (b"\"\\uD800\"", LoneSurrogate, 1),
        (b"\"ab\\uDC00\"", LoneSurrogate, 3),
        (b"\"\\uDFFF\"", LoneSurrogate, 1),
        (b"\"\\uD800\\u0041\"", LoneSurrogate, 1),
        (b"\"\\uD800\\n\"", LoneSurrogate, 1),
        (b"\"\\uD800x\"", LoneSurrogate, 1),
        (b"\"\\uDBFF\\uDBFF\\uDC00\"", LoneSurrogate, 1),
        (b"\"\\uDC00\\uD800\"", LoneSurrogate, 1),
        (b"\"\xC0\x80\"", InvalidUtf8, 1),
        (b"\"\xC1\xBF\"", InvalidUtf8, 1),
        (b"\"\xE0\x80\x80\"", InvalidUtf8, 2),
        (b"\"\xE0\x9F\xBF\"", InvalidUtf8, 2),
        (b"\"\xF0\x80\x80\x80\"", InvalidUtf8, 2),
        (b"\"\xF0\x8F\xBF\xBF\"", InvalidUtf8, 2),
        (b"\"\xED\xA0\x80\"", InvalidUtf8, 2),
        (b"\"\xED\xBF\xBF\"", InvalidUtf8, 2),
        (b"\"\xF4\x90\x80\x80\"", InvalidUtf8, 2),
        (b"\"\xF5\x80\x80\x80\"", InvalidUtf8, 1),
        (b"\"\xFF\"", InvalidUtf8, 1),
        (b"\"\x80\"", InvalidUtf8, 1),
        (b"\"a\xBF\"", InvalidUtf8, 2),
        (b"\"\xE2\x82\"", InvalidUtf8, 3),
        (b"\"\xE2\x82x\"", InvalidUtf8, 3),
        (b"\"\xF0\x9F\x98\"", InvalidUtf8, 4),
        (b"\"\xC3\"", InvalidUtf8, 2),
        (b"\"\xE2\x82", UnexpectedEof, 3),
        (b"[[[[1]]]]", TooDeep, 3),
    ];
    for (doc, kind, offset) in cases {
        let want = JsonError::new(*kind, *offset);
        let mut t = Tokenizer::new(doc, 3);
        let got = loop {
            match t.next_token() {
                Ok(Some(_)) => {}
                Ok(None) => break None,
                Err(e) => break Some(e),
            }
        };
        assert_eq!(got, Some(want), "doc {:?}", String::from_utf8_lossy(doc));
        for size in CHUNKS {
            assert_eq!(
                chunked_depth(doc, size, 3).1,
                Some(want),
                "doc {:?} chunk {size}",
                String::from_utf8_lossy(doc)
            );
        }
        assert!(
            !serde_accepts(doc) || *kind == TooDeep,
            "serde accepts {doc:?}"
        );
    }
}

#[test]
fn token_too_long_in_streaming_only() {
    let doc = b"[\"abcdefgh\", 123456789]";
    // Fits in one chunk: scratch is never used.
    let mut scratch = [0u8; 0];
    let mut t = StreamTokenizer::new(&mut scratch, 8);
    let mut c: &[u8] = doc;
    let mut n = 0;
    t.finish();
    while let Step::Token(_) = t.next(&mut c).unwrap() {
        n += 1;
    }
    assert_eq!(n, 4);
    // Spanning chunks with a 4-byte scratch.
    let mut scratch = [0u8; 4];
    let mut t = StreamTokenizer::new(&mut scratch, 8);
    let mut first: &[u8] = &doc[..3];
    assert!(matches!(t.next(&mut first), Ok(Step::Token(_))));
    assert_eq!(t.next(&mut first), Ok(Step::NeedMoreInput));
    let mut rest: &[u8] = &doc[3..];
    let e = JsonError::new(ErrorKind::TokenTooLong, 1);
    assert_eq!(t.next(&mut rest), Err(e));
    assert_eq!(t.next(&mut rest), Err(e));
    // Exactly fitting (quotes included) works.
    let doc = b"[\"ab\"]";
    let mut scratch = [0u8; 4];
    let mut t = StreamTokenizer::new(&mut scratch, 8);
    let mut out = Vec::new();
    for ch in doc.chunks(1) {
        let mut c = ch;
        while let Step::Token(tok) = t.next(&mut c).unwrap() {
            out.push(own(&tok));
        }
    }
    t.finish();
    assert_eq!(t.next(&mut &[][..]), Ok(Step::End));
    assert_eq!(out, whole(doc).0);
}

#[test]
fn stream_api_basics() {
    let mut scratch = [0u8; 16];
    let mut t = StreamTokenizer::new(&mut scratch, 8);
    let mut c: &[u8] = b"[1";
    assert!(matches!(
        t.next(&mut c),
        Ok(Step::Token(Token {
            kind: TokenKind::BeginArray,
            offset: 0
        }))
    ));
    assert_eq!(t.next(&mut c), Ok(Step::NeedMoreInput));
    let mut c: &[u8] = b"2";
    assert_eq!(t.next(&mut c), Ok(Step::NeedMoreInput));
    let mut c: &[u8] = b"]";
    match t.next(&mut c) {
        Ok(Step::Token(Token {
            kind: TokenKind::Number(n),
            offset: 1,
        })) => {
            assert_eq!(n.raw(), "12");
            assert_eq!(n.value(), 12.0);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(c, b"]");
    assert!(matches!(
        t.next(&mut c),
        Ok(Step::Token(Token {
            kind: TokenKind::EndArray,
            offset: 3
        }))
    ));
    assert_eq!(t.next(&mut c), Ok(Step::NeedMoreInput));
    t.finish();
    assert_eq!(t.next(&mut c), Ok(Step::End));
    // Bytes after the end are trailing characters.
    let mut c: &[u8] = b" x";
    assert_eq!(
        t.next(&mut c),
        Err(JsonError::new(ErrorKind::TrailingCharacters, 5))
    );

    // A top-level number is only complete at end of input.
    let mut scratch = [0u8; 16];
    let mut t = StreamTokenizer::new(&mut scratch, 8);
    let mut c: &[u8] = b"12";
    assert_eq!(t.next(&mut c), Ok(Step::NeedMoreInput));
    t.finish();
    match t.next(&mut c) {
        Ok(Step::Token(Token {
            kind: TokenKind::Number(n),
            ..
        })) => assert_eq!(n.raw(), "12"),
        other => panic!("{other:?}"),
    }
    assert_eq!(t.next(&mut c), Ok(Step::End));
}

// ---------------------------------------------------------------------------------------
// Strings and UTF-8.

#[test]
fn zero_copy_strings() {
    let doc = br#"{"name": "cube", "esc": "a\nb"}"#;
    let mut t = Tokenizer::new(doc, 8);
    let mut seen = 0;
    while let Some(tok) = t.next_token().unwrap() {
        if let TokenKind::Key(s) | TokenKind::String(s) = tok.kind {
            let body = &doc[tok.offset as usize + 1..];
            assert_eq!(s.raw_bytes().as_ptr(), body.as_ptr());
            if let Some(p) = s.as_str() {
                assert_eq!(p.as_ptr(), body.as_ptr());
            }
            seen += 1;
        }
    }
    assert_eq!(seen, 4);
}

#[test]
fn every_escape_via_tokenizer() {
    let doc = br#"["\"", "\\", "\/", "\b", "\f", "\n", "\r", "\t", "\u0041", "\u00e9", "\u20AC", "\ud83d\ude00", "\uDBFF\uDFFF", "\u0000", "x\u0022y"]"#;
    let want = [
        "\"",
        "\\",
        "/",
        "\u{8}",
        "\u{c}",
        "\n",
        "\r",
        "\t",
        "A",
        "\u{e9}",
        "\u{20ac}",
        "\u{1f600}",
        "\u{10ffff}",
        "\u{0}",
        "x\"y",
    ];
    let (toks, err) = assert_same(doc, "escapes");
    assert_eq!(err, None);
    let strs: Vec<String> = toks
        .into_iter()
        .filter_map(|(t, _)| match t {
            Ot::Str(d, _) => Some(d),
            _ => None,
        })
        .collect();
    assert_eq!(strs, want);
    assert!(serde_accepts(doc));
}

#[test]
fn utf8_valid_boundaries() {
    for s in [
        "\u{7f}",
        "\u{80}",
        "\u{7ff}",
        "\u{800}",
        "\u{fff}",
        "\u{1000}",
        "\u{d7ff}",
        "\u{e000}",
        "\u{fffd}",
        "\u{ffff}",
        "\u{10000}",
        "\u{3ffff}",
        "\u{40000}",
        "\u{fffff}",
        "\u{100000}",
        "\u{10ffff}",
        "a\u{e9}\u{4e2d}\u{1f600}z",
    ] {
        let doc = format!("\"{s}\"");
        let (toks, err) = assert_same(doc.as_bytes(), s);
        assert_eq!(err, None);
        assert_eq!(toks, vec![(Ot::Str(s.to_string(), s.to_string()), 0)]);
    }
}

/// Where our lexer must report an invalid UTF-8 body `b` (placed after an opening quote
/// at offset 0 and followed by a closing quote), derived from `core::str::from_utf8`:
/// the first byte that cannot continue a valid sequence.
fn expected_utf8_error(b: &[u8]) -> Option<u64> {
    let e = core::str::from_utf8(b).err()?;
    let start = e.valid_up_to();
    let lead_ok = matches!(b[start], 0xC2..=0xF4);
    let off = match e.error_len() {
        Some(n) if lead_ok => start + n,
        Some(_) => start,
        None => b.len(), // truncated: the closing quote is the offending byte
    };
    Some(off as u64 + 1)
}

fn check_utf8_body(body: &[u8]) {
    // Bodies must not contain quote, backslash or control bytes here.
    let mut doc = Vec::with_capacity(body.len() + 2);
    doc.push(b'"');
    doc.extend_from_slice(body);
    doc.push(b'"');
    let got = whole(&doc).1;
    let want = expected_utf8_error(body).map(|o| JsonError::new(ErrorKind::InvalidUtf8, o));
    assert_eq!(got, want, "body {body:x?}");
}

#[test]
fn utf8_exhaustive_short_sequences() {
    // Every lead byte with every second byte, then 3- and 4-byte forms.
    for a in 0x80..=0xFFu8 {
        for b in 0x20..=0xFFu8 {
            if b == b'"' || b == b'\\' {
                continue;
            }
            check_utf8_body(&[a, b]);
            check_utf8_body(&[b'x', a, b, b'y']);
        }
    }
    for a in 0xE0..=0xEFu8 {
        for b in 0x7F..=0xC0u8 {
            for c in 0x7F..=0xC0u8 {
                check_utf8_body(&[a, b, c]);
            }
        }
    }
    for a in 0xF0..=0xF7u8 {
        for b in 0x7F..=0xC0u8 {
            for c in [0x7F, 0x80, 0xBF, 0xC0] {
                for d in [0x41, 0x7F, 0x80, 0x9F, 0xBF, 0xC0] {
                    check_utf8_body(&[a, b, c, d]);
                }
            }
        }
    }
}

#[test]
fn utf8_random_bodies_match_std() {
    let mut r = Rng(7);
    for _ in 0..20_000 {
        let len = r.below(24) as usize;
        let body: Vec<u8> = (0..len)
            .map(|_| {
                loop {
                    let b = if r.below(3) == 0 {
                        b'a' + r.below(26) as u8
                    } else {
                        0x80 + r.below(128) as u8
                    };
                    if b != b'"' && b != b'\\' {
                        break b;
                    }
                }
            })
            .collect();
        check_utf8_body(&body);
        let mut doc = vec![b'['];
        doc.push(b'"');
        doc.extend_from_slice(&body);
        doc.extend_from_slice(b"\"]");
        let (_, e) = assert_same(&doc, "utf8");
        assert_eq!(e.is_none(), serde_accepts(&doc), "{doc:x?}");
    }
}

// ---------------------------------------------------------------------------------------
// Numbers.

fn number_texts() -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for i in 0..=1000i64 {
        v.push(i.to_string());
        v.push((-i).to_string());
    }
    for k in 0..70u32 {
        let p = 1u128 << k;
        for d in [p - 1, p, p + 1] {
            v.push(d.to_string());
            v.push(format!("-{d}"));
        }
    }
    for k in 0..=30u32 {
        v.push(format!("1{}", "0".repeat(k as usize)));
        v.push(format!("0.{}1", "0".repeat(k as usize)));
    }
    for k in -340..=320i32 {
        v.push(format!("1e{k}"));
        v.push(format!("1.5E{k}"));
        v.push(format!("-123456789e{k}"));
        v.push(format!("9.999999999999999e{k}"));
    }
    v.extend(
        [
            "-0",
            "-0.0",
            "0e0",
            "-0e-5",
            "0.0000",
            "0E+0",
            "4.9e-324",
            "5e-324",
            "2e-324",
            "3e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1e-310",
            "2.2250738585072011e-308",
            "2.2250738585072014e-308",
            "2.225073858507201e-308",
            "9007199254740993",
            "9007199254740995",
            "18446744073709551615",
            "18446744073709551616",
            "1e23",
            "8.98846567431158e307",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "0.1",
            "0.2",
            "0.30000000000000004",
            "123.456e-7",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
            "7.2057594037927933e16",
            "1e400",
            "-1e400",
            "1e-400",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    v.push("1".repeat(308));
    v.push("9".repeat(309));
    v.push(format!("{}.5", "1".repeat(320)));
    let mut r = Rng(42);
    for _ in 0..20_000 {
        // 17-digit mantissas at many scales.
        let m = 10_000_000_000_000_000u64 + r.below(90_000_000_000_000_000);
        let e = r.below(60) as i32 - 30;
        v.push(format!("{m}e{e}"));
        let s = m.to_string();
        v.push(format!("{}.{}", &s[..1], &s[1..]));
        v.push(format!("-0.{s}e{}", r.below(40) as i32 - 20));
        // Random doubles in shortest and exponent forms.
        let f = f64::from_bits(r.next());
        if f.is_finite() {
            v.push(format!("{f:e}"));
            v.push(format!("{f:?}").replace("inf", "1e999"));
            if f.abs() < 1e30 && f.abs() > 1e-30 {
                v.push(format!("{f}"));
            }
        }
        // Random short decimals like Blockbench writes.
        v.push(format!(
            "{}.{}",
            r.below(2000) as i64 - 1000,
            r.below(100_000)
        ));
    }
    v
}

#[test]
fn numbers_bit_exact_with_from_str() {
    let texts = number_texts();
    for text in &texts {
        let want: f64 = text.parse().expect(text);
        let doc = text.as_bytes();
        // Padded, so that the whole-input fast path reads it, at top level and in an
        // array; then (below) unpadded, on the general path.
        for doc in [
            format!("{text}{}", " ".repeat(FAST_PAD)),
            format!("[{text},{text}]{}", " ".repeat(FAST_PAD)),
        ] {
            let mut t = Tokenizer::new(doc.as_bytes(), 4);
            loop {
                match t.next_token() {
                    Ok(Some(Token {
                        kind: TokenKind::Number(n),
                        ..
                    })) => {
                        assert_eq!(n.value().to_bits(), want.to_bits(), "{text}");
                        assert_eq!(n.raw(), text);
                    }
                    Ok(Some(_)) => {}
                    Ok(None) => break,
                    Err(e) => panic!("{text}: {e}"),
                }
            }
        }
        let mut t = Tokenizer::new(doc, 4);
        let got = t.next_token();
        match got {
            Ok(Some(Token {
                kind: TokenKind::Number(n),
                offset: 0,
            })) => {
                assert_eq!(n.value().to_bits(), want.to_bits(), "{text}");
                assert_eq!(n.raw(), text);
            }
            other => panic!("{text}: {other:?}"),
        }
        assert_eq!(t.next_token(), Ok(None));
    }
    // Same in streaming mode, embedded in an array, for a sample.
    let mut doc = String::from("[");
    for (k, text) in texts.iter().enumerate() {
        let want: f64 = text.parse().unwrap();
        if want.is_finite() && k % 7 == 0 {
            if doc.len() > 1 {
                doc.push(',');
            }
            doc.push_str(text);
        }
    }
    doc.push(']');
    let (_, e) = assert_same(doc.as_bytes(), "numbers");
    assert_eq!(e, None);
    assert!(serde_accepts(doc.as_bytes()));
}

// ---------------------------------------------------------------------------------------
// Depth.

#[test]
fn depth_limits() {
    for max in [0usize, 1, 2, 5, 63, 64, 65, 128, 1023, 1024] {
        for (open, close) in [("[", "]"), ("{\"k\":", "}")] {
            let ok = format!("{}1{}", open.repeat(max), close.repeat(max));
            assert_eq!(whole_depth(ok.as_bytes(), max).1, None, "max {max}");
            assert_eq!(chunked_depth(ok.as_bytes(), 7, max).1, None);
            let deep = format!("{}1{}", open.repeat(max + 1), close.repeat(max + 1));
            let want = Some(JsonError::new(
                ErrorKind::TooDeep,
                (max * open.len()) as u64,
            ));
            assert_eq!(whole_depth(deep.as_bytes(), max).1, want, "max {max}");
            assert_eq!(chunked_depth(deep.as_bytes(), 1, max).1, want);
            // The same on the whole-input fast path.
            let pad = " ".repeat(FAST_PAD);
            let ok_padded = format!("{ok}{pad}");
            assert_eq!(
                whole_depth(ok_padded.as_bytes(), max),
                chunked_depth(ok_padded.as_bytes(), 7, max),
                "max {max}"
            );
            assert_eq!(whole_depth(ok_padded.as_bytes(), max).1, None);
            let deep_padded = format!("{deep}{pad}");
            assert_eq!(
                whole_depth(deep_padded.as_bytes(), max).1,
                want,
                "max {max}"
            );
        }
    }
    // The cap: any larger max_depth behaves like MAX_DEPTH.
    let deep = "[".repeat(MAX_DEPTH + 1);
    assert_eq!(
        whole_depth(deep.as_bytes(), usize::MAX).1,
        Some(JsonError::new(ErrorKind::TooDeep, MAX_DEPTH as u64))
    );
    // The bitset tracks object/array at every level up to the cap.
    let mut doc = String::new();
    for k in 0..MAX_DEPTH {
        doc.push_str(if k % 3 == 0 { "{\"a\":" } else { "[" });
    }
    doc.push_str("null");
    for k in (0..MAX_DEPTH).rev() {
        doc.push(if k % 3 == 0 { '}' } else { ']' });
    }
    let (toks, e) = whole_depth(doc.as_bytes(), MAX_DEPTH);
    assert_eq!(e, None);
    assert_eq!(toks.len(), MAX_DEPTH * 2 + 1 + MAX_DEPTH.div_ceil(3));
    // A wrong closing bracket deep inside is caught.
    let bad = doc.replacen("]}", "}}", 1);
    assert!(whole_depth(bad.as_bytes(), MAX_DEPTH).1.is_some());
}

// ---------------------------------------------------------------------------------------
// skip_value.

#[test]
fn skip_value_behaviour() {
    let doc = br#"{"a":[1,{"b":null,"c":"x\u00e9"}],"c":2,"d":{}}"#;
    let mut t = Tokenizer::new(doc, 16);
    assert!(matches!(
        t.next_token().unwrap().unwrap().kind,
        TokenKind::BeginObject
    ));
    assert!(matches!(t.next_token().unwrap().unwrap().kind, TokenKind::Key(k) if k.eq_str("a")));
    assert_eq!(t.skip_value(), Ok(true));
    assert!(matches!(t.next_token().unwrap().unwrap().kind, TokenKind::Key(k) if k.eq_str("c")));
    assert!(
        matches!(t.next_token().unwrap().unwrap().kind, TokenKind::Number(n) if n.value() == 2.0)
    );
    // At a key: skips the whole member.
    assert_eq!(t.skip_value(), Ok(true));
    // Before a closing bracket: nothing to skip, nothing consumed.
    assert_eq!(t.skip_value(), Ok(false));
    let end = t.next_token().unwrap().unwrap();
    assert_eq!(end.kind, TokenKind::EndObject);
    assert_eq!(end.offset, doc.len() as u64 - 1);
    assert_eq!(t.skip_value(), Ok(false));
    assert_eq!(t.next_token(), Ok(None));

    // Top level and arrays.
    let mut t = Tokenizer::new(b" [1, [2, 3], \"s\"] ", 16);
    assert_eq!(t.skip_value(), Ok(true));
    assert_eq!(t.next_token(), Ok(None));
    let mut t = Tokenizer::new(b"[1,[2],3]", 16);
    t.next_token().unwrap();
    assert_eq!(t.skip_value(), Ok(true));
    assert_eq!(t.skip_value(), Ok(true));
    assert_eq!(t.skip_value(), Ok(true));
    assert_eq!(t.skip_value(), Ok(false));
    assert_eq!(t.next_token().unwrap().unwrap().kind, TokenKind::EndArray);
    assert_eq!(t.depth(), 0);

    // Still fully validating.
    for (doc, kind, off) in [
        (&b"[1, [\"\\uD800\"]]"[..], ErrorKind::LoneSurrogate, 6u64),
        (b"[[1,]]", ErrorKind::TrailingComma, 4),
        (b"[[1]", ErrorKind::UnexpectedEof, 4),
        (b"[01]", ErrorKind::LeadingZero, 2),
    ] {
        let mut t = Tokenizer::new(doc, 16);
        assert_eq!(t.skip_value(), Err(JsonError::new(kind, off)));
    }
    let mut t = Tokenizer::new(b"[1, NaN]", 16);
    t.next_token().unwrap();
    assert_eq!(t.skip_value(), Ok(true));
    assert!(t.skip_value().is_err());

    // Skipping every value equals walking every token.
    for doc in hand_docs() {
        let mut t = Tokenizer::new(doc.as_bytes(), 128);
        let walked = whole(doc.as_bytes());
        assert_eq!(t.skip_value().is_ok(), walked.1.is_none(), "{doc}");
        if walked.1.is_none() {
            assert_eq!(t.position(), doc.trim_end().len(), "{doc}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Chunked == whole.

fn hand_docs() -> Vec<String> {
    [
        "0",
        "-0",
        "12",
        " 12 ",
        "\"\"",
        "\"x\"",
        "true",
        "false",
        "null",
        "[]",
        "{}",
        " [ ] ",
        "[[[]]]",
        "[1,2,3]",
        "[-1.5e-3, 0.25, 1E2, 1e+2, 12345678901234567890123]",
        r#"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#,
        "{\n\t\"name\": \"cube\",\n\t\"from\": [0, 0, 0],\n\t\"to\": [16, 16, 16]\n}\n",
        r#"{"k\"ey":"v\\al\/ue\b\f\n\r\t","u":"\u00e9\u4e2d\ud83d\ude00"}"#,
        "\"\u{e9}\u{4e2d}\u{1f600} mixed \u{7f} text\"",
        r#"["a very long string that definitely spans more than one 7-byte chunk and also exceeds thirty-two bytes", "x"]"#,
        r#"{"nested":{"deeper":{"deepest":[[[["end"]]]]}}}"#,
        "[0,1,-1,0.0,-0.0,1e-320,4.9e-324,1.7976931348623157e308]",
        "\r\n\t [\r\n\t1\r\n\t,\r\n\t{\r\n\t\"a\"\r\n\t:\r\n\t2\r\n\t}\r\n\t]\r\n\t",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn malformed_docs() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = [
        &b"[1,]"[..],
        b"{\"a\":1,}",
        b"[01]",
        b"[+1]",
        b"[.5]",
        b"[1.]",
        b"[1e]",
        b"['a']",
        b"[\"a\x01\"]",
        b"[\"\\q\"]",
        b"[\"\\uD800\"]",
        b"[\"\\uDC00\"]",
        b"[\"\xC0\xAF\"]",
        b"[\"\xED\xA0\x80\"]",
        b"[\"\xF4\x90\x80\x80\"]",
        b"[\"\xE2\x82\"]",
        b"\xEF\xBB\xBF[]",
        b"[NaN]",
        b"[Infinity]",
        b"[-Infinity]",
        b"// x\n[]",
        b"[] []",
        b"{\"a\" 1}",
        b"{\"a\":1 \"b\":2}",
        b"[1 2]",
        b"[tru]",
        b"[nul",
        b"{\"a\":",
        b"",
        b"   ",
        b"[\"\\u12",
    ]
    .iter()
    .map(|d| d.to_vec())
    .collect();
    let deep = "[".repeat(200);
    v.push(deep.into_bytes());
    v
}

#[test]
fn chunked_equals_whole_hand_docs() {
    for doc in hand_docs() {
        let (_, e) = assert_same(doc.as_bytes(), &doc);
        assert_eq!(e, None, "{doc}");
        assert!(serde_accepts(doc.as_bytes()), "{doc}");
    }
    for doc in malformed_docs() {
        assert!(
            err_of(&doc).is_some(),
            "{:?}",
            String::from_utf8_lossy(&doc)
        );
    }
}

#[test]
fn chunked_equals_whole_on_every_truncation() {
    let mut docs: Vec<Vec<u8>> = hand_docs().into_iter().map(String::into_bytes).collect();
    docs.extend(malformed_docs());
    let mut r = Rng(99);
    for _ in 0..20 {
        let mut d = Vec::new();
        gen_value(&mut r, &mut d, 0);
        docs.push(d);
    }
    for doc in &docs {
        for cut in 0..=doc.len() {
            let prefix = &doc[..cut];
            let (_, e) = assert_same(prefix, "truncation");
            assert_eq!(
                e.is_none(),
                serde_accepts(prefix),
                "{:?}",
                String::from_utf8_lossy(prefix)
            );
        }
    }
}

/// splitmix64: a tiny deterministic PRNG.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'x, T>(&mut self, s: &'x [T]) -> &'x T {
        &s[self.below(s.len() as u64) as usize]
    }
}

fn gen_ws(r: &mut Rng, out: &mut Vec<u8>) {
    if r.below(3) == 0 {
        for _ in 0..r.below(4) {
            out.push(*r.pick(b" \t\n\r"));
        }
    }
}

fn gen_string(r: &mut Rng, out: &mut Vec<u8>) {
    out.push(b'"');
    let pieces: &[&str] = &[
        "a",
        "b",
        "Z",
        "0",
        " ",
        "_",
        "-",
        "\\n",
        "\\\"",
        "\\\\",
        "\\/",
        "\\b",
        "\\f",
        "\\r",
        "\\t",
        "\\u00e9",
        "\\u0041",
        "\\u4E2D",
        "\\ud83d\\ude00",
        "\\uFFFF",
        "\\u0000",
        "\u{e9}",
        "\u{4e2d}",
        "\u{1f600}",
        "\u{7f}",
        "\u{80}",
        "\u{10ffff}",
    ];
    let n = r.below(10);
    for _ in 0..n {
        if r.below(20) == 0 {
            let long = r.below(200) as usize;
            for k in 0..long {
                out.push(b'a' + (k % 26) as u8);
            }
        } else {
            out.extend_from_slice(r.pick(pieces).as_bytes());
        }
    }
    out.push(b'"');
}

fn gen_number(r: &mut Rng, out: &mut Vec<u8>) {
    let s = match r.below(8) {
        0 => format!("{}", r.below(100)),
        1 => format!("-{}", r.below(100_000)),
        2 => format!("{}.{}", r.below(1000), r.below(1000)),
        3 => format!("-0.{:03}", r.below(1000)),
        4 => format!("{}e{}", r.below(100), r.below(600) as i64 - 300),
        5 => format!("{}.{}E+{}", r.below(10), r.below(100_000_000), r.below(30)),
        6 => format!("{:?}", f64::from_bits(r.next() & 0x3FFF_FFFF_FFFF_FFFF)),
        _ => ["0", "-0", "0.0", "1e-320", "12345678901234567890"][r.below(5) as usize].to_string(),
    };
    out.extend_from_slice(s.as_bytes());
}

fn gen_value(r: &mut Rng, out: &mut Vec<u8>, depth: usize) {
    gen_ws(r, out);
    let choice = r.below(if depth >= 6 { 4 } else { 7 });
    match choice {
        0 | 3 => gen_string(r, out),
        1 => gen_number(r, out),
        2 => {
            let lits: [&[u8]; 3] = [b"true", b"false", b"null"];
            out.extend_from_slice(lits[r.below(3) as usize]);
        }
        4 | 5 => {
            out.push(b'[');
            let n = r.below(5);
            for k in 0..n {
                if k > 0 {
                    gen_ws(r, out);
                    out.push(b',');
                }
                gen_value(r, out, depth + 1);
            }
            gen_ws(r, out);
            out.push(b']');
        }
        _ => {
            out.push(b'{');
            let n = r.below(5);
            for k in 0..n {
                if k > 0 {
                    gen_ws(r, out);
                    out.push(b',');
                }
                gen_ws(r, out);
                gen_string(r, out);
                gen_ws(r, out);
                out.push(b':');
                gen_value(r, out, depth + 1);
            }
            gen_ws(r, out);
            out.push(b'}');
        }
    }
    gen_ws(r, out);
}

fn mutate(r: &mut Rng, doc: &[u8]) -> Vec<u8> {
    let mut d = doc.to_vec();
    let interesting = b"{}[],:\"\\ \t\n0123456789-+.eEtfnNIu'/\x00\x1f\x7f\x80\xbf\xc0\xc3\xe2\xed\xef\xf0\xf4\xff";
    for _ in 0..=r.below(2) {
        let at = r.below(d.len() as u64 + 1) as usize;
        match r.below(4) {
            0 if at < d.len() => {
                d.remove(at);
            }
            1 if at < d.len() => d[at] = *r.pick(interesting),
            2 => d.insert(at, *r.pick(interesting)),
            _ => d.truncate(at),
        }
    }
    d
}

#[test]
fn chunked_equals_whole_random_docs_and_serde_agrees() {
    // JSON_STRESS=<n> runs more documents (and seeds by n) for a longer hunt.
    let rounds = std::env::var("JSON_STRESS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000u64);
    let mut r = Rng(2024 ^ rounds);
    let (mut valid, mut invalid) = (0, 0);
    for _ in 0..rounds {
        let mut doc = Vec::new();
        gen_value(&mut r, &mut doc, 0);
        let (_, e) = assert_same(&doc, "random");
        assert_eq!(e, None, "{:?}", String::from_utf8_lossy(&doc));
        assert!(serde_accepts(&doc), "{:?}", String::from_utf8_lossy(&doc));
        valid += 1;
        for _ in 0..3 {
            let bad = mutate(&mut r, &doc);
            let (_, e) = assert_same(&bad, "mutated");
            assert_eq!(
                e.is_none(),
                serde_accepts(&bad),
                "serde disagrees on {:?} (ours: {e:?})",
                String::from_utf8_lossy(&bad)
            );
            if e.is_some() {
                invalid += 1;
            }
        }
        // Short garbage over a JSON-ish alphabet.
        let alphabet = b"{}[],:\"\\ 0123456789-+.eEtrufalsnNIy\x00\x1f\x80\xc3\xa9\xef\xbb\xbf";
        let len = r.below(24) as usize;
        let junk: Vec<u8> = (0..len).map(|_| *r.pick(alphabet)).collect();
        let (_, e) = assert_same(&junk, "junk");
        assert_eq!(e.is_none(), serde_accepts(&junk), "{junk:?}");
    }
    assert!(valid == rounds && invalid > rounds, "{valid} {invalid}");
}

// ---------------------------------------------------------------------------------------
// Corpus.

#[test]
fn corpus_bbmodel_chunked_equals_whole() {
    let Some(files) = crate::test_corpus::files("bbmodel", &["bbmodel"]) else {
        return;
    };
    assert!(!files.is_empty());
    let mut empty = 0;
    for path in &files {
        let doc = std::fs::read(path).unwrap();
        let name = path.display().to_string();
        let (toks, e) = assert_same(&doc, &name);
        if doc.is_empty() {
            assert_eq!(e, Some(JsonError::new(ErrorKind::EmptyInput, 0)), "{name}");
            empty += 1;
        } else {
            assert_eq!(e, None, "{name}");
            assert!(toks.len() > 2);
            let mut t = Tokenizer::new(&doc, 128);
            assert_eq!(t.skip_value(), Ok(true));
            assert_eq!(t.next_token(), Ok(None));
        }
        assert_eq!(e.is_none(), serde_accepts(&doc), "{name}");
    }
    assert_eq!(empty, 1, "expected exactly one zero-byte corpus file");
    std::println!("corpus: {} .bbmodel files", files.len());
}

#[test]
fn token_offsets_and_position() {
    let doc = br#" {"a": [1, "x", true], "b" : -2.5e1 } "#;
    let (toks, e) = assert_same(doc, "offsets");
    assert_eq!(e, None);
    let s = |v: &str| (v.to_string(), v.to_string());
    let want = vec![
        (Ot::BeginObject, 1),
        (Ot::Key(s("a").0, s("a").1), 2),
        (Ot::BeginArray, 7),
        (Ot::Num(1f64.to_bits(), "1".to_string()), 8),
        (Ot::Str(s("x").0, s("x").1), 11),
        (Ot::Bool(true), 16),
        (Ot::EndArray, 20),
        (Ot::Key(s("b").0, s("b").1), 23),
        (Ot::Num((-25f64).to_bits(), "-2.5e1".to_string()), 29),
        (Ot::EndObject, 36),
    ];
    assert_eq!(toks, want);
    // position(): past the token and a directly following separator.
    let mut t = Tokenizer::new(doc, 8);
    t.next_token().unwrap();
    assert_eq!(t.position(), 2);
    t.next_token().unwrap(); // "a" and its ':'
    assert_eq!(t.position(), 6);
    t.next_token().unwrap(); // [
    t.next_token().unwrap(); // 1 and its ','
    assert_eq!(t.position(), 10);
    assert_eq!(t.depth(), 2);
    while t.next_token().unwrap().is_some() {}
    assert_eq!(t.position(), doc.len());
    assert_eq!(t.input(), doc);
    // Number tokens borrow their raw text from the input too.
    let input = b"[12.5]";
    let mut t = Tokenizer::new(input, 8);
    t.next_token().unwrap();
    match t.next_token().unwrap().unwrap().kind {
        TokenKind::Number(n) => {
            assert_eq!(n.raw_bytes().as_ptr(), input[1..].as_ptr());
            assert_eq!(n.value(), 12.5);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn stream_number_too_long_and_chunk_shrinking() {
    // A number spanning chunks must fit in scratch (without its delimiter).
    let doc = b"[123456,1]";
    let mut scratch = [0u8; 5];
    let mut t = StreamTokenizer::new(&mut scratch, 8);
    let mut c: &[u8] = &doc[..4];
    assert!(matches!(t.next(&mut c), Ok(Step::Token(_))));
    assert_eq!(t.next(&mut c), Ok(Step::NeedMoreInput));
    let mut c: &[u8] = &doc[4..];
    assert_eq!(
        t.next(&mut c),
        Err(JsonError::new(ErrorKind::TokenTooLong, 1))
    );
    let mut scratch = [0u8; 6];
    let mut t = StreamTokenizer::new(&mut scratch, 8);
    let mut c: &[u8] = &doc[..4];
    assert!(matches!(t.next(&mut c), Ok(Step::Token(_))));
    assert_eq!(t.next(&mut c), Ok(Step::NeedMoreInput));
    let mut c: &[u8] = &doc[4..];
    match t.next(&mut c) {
        Ok(Step::Token(Token {
            kind: TokenKind::Number(n),
            offset: 1,
        })) => {
            assert_eq!(n.raw(), "123456");
        }
        other => panic!("{other:?}"),
    }
    // The chunk shrank past the number and its comma.
    assert_eq!(c, b"1]");
    assert_eq!(t.offset(), 8);
    assert_eq!(t.depth(), 1);
}

/// The window fast path's number, literal and key-colon branches at their edges, in
/// every position a value can take: whole-input (padded, fast path) against chunked
/// (general path), tokens and first error alike.
#[test]
fn fast_path_edges_match_general_path() {
    let mut nums: Vec<String> = Vec::new();
    for digits in 1..=10usize {
        let int: String = (1..=digits)
            .map(|d| char::from(b'0' + (d % 10) as u8))
            .collect();
        for sign in ["", "-"] {
            nums.push(format!("{sign}{int}"));
            nums.push(format!("{sign}{int}.5"));
            nums.push(format!("{sign}{int}.{}", "7".repeat(digits * 3)));
            nums.push(format!("{sign}{int}e3"));
            nums.push(format!("{sign}{int}.25E-3"));
            nums.push(format!("{sign}0{int}"));
        }
    }
    for bad in [
        "-",
        "-x",
        "--1",
        "-.5",
        "0",
        "-0",
        "00",
        "-00",
        "0.",
        "-0.",
        "1.",
        "1.e5",
        "1e",
        "1e+",
        "0x10",
        "1.5.5",
        "-]",
        "-}",
        "-,",
        "tru",
        "truex",
        "fals",
        "falsy",
        "nul",
        "nulll",
        "NaN",
        "-Infinity",
        "Infinity",
        "t",
        "f",
        "n",
    ] {
        nums.push(bad.to_string());
    }
    for n in &nums {
        for doc in [
            format!("[{n},{n}]"),
            format!("[{n}]"),
            format!("[{n} ,{n}]"),
            format!("{{\"a\":{n},\"b\":{n}}}"),
            format!("{{\"a\": {n}}}"),
            format!("{{\"a\" :{n}}}"),
            format!("{{\"a\"\t: {n} }}"),
            format!("{{\"a\"x{n}}}"),
            format!("{{\"a\"{n}}}"),
            n.clone(),
        ] {
            assert_same(doc.as_bytes(), &doc);
        }
    }
    // String bodies whose first special byte (the closing quote, an escape, a
    // control or a non-ASCII byte) lies anywhere in or past the three blocks the
    // fast path scans, as values and as keys.
    for len in (0..=18).chain(30..=34).chain(46..=50) {
        let plain = "x".repeat(len);
        let mut bodies = vec![plain.clone()];
        for at in [0, len / 2, len.saturating_sub(1)] {
            let (head, tail) = plain.split_at(at.min(len));
            for special in ["\\\"", "\\n", "\u{1}", "\u{e9}", "\t"] {
                bodies.push(format!("{head}{special}{tail}"));
            }
        }
        for body in &bodies {
            for doc in [
                format!("[\"{body}\",\"{body}\"]"),
                format!("[\"{body}\"]"),
                format!("{{\"{body}\":\"{body}\"}}"),
                format!("{{\"{body}\" :1}}"),
                format!("{{\"{body}\"1}}"),
            ] {
                assert_same(doc.as_bytes(), &doc);
            }
        }
    }
    // Closing brackets in every context, with and without separators around them.
    for doc in [
        "[[],[[]],{},{\"a\":[]}]",
        "[ [ ] , { } ]",
        "{\"a\":{\"b\":{}},\"c\":[1,[2,[3]]]}",
        "[1}",
        "{\"a\":1]",
        "[1,]",
        "{\"a\":1,}",
        "[[1] 2]",
        "{\"a\":{} \"b\":1}",
    ] {
        assert_same(doc.as_bytes(), doc);
    }
}

/// `leave_container_at`: the tokens after the closing bracket the caller
/// names are those a full read gives, at every depth and in either context.
#[test]
fn leave_container_at_resumes_after_the_bracket() {
    let doc = br#"{"a": {"x": [1, 2], "y": 3}, "b": [[4], 5], "c": 6}"#;
    let kinds = |t: &mut Tokenizer<'_>| {
        let mut out = Vec::new();
        while let Some(token) = t.next_token().unwrap() {
            out.push((token.offset, format!("{:?}", token.kind)));
        }
        out
    };
    let full = kinds(&mut Tokenizer::new(doc, 8));
    // Leave the inner object right after its first key.
    let mut t = Tokenizer::new(doc, 8);
    for _ in 0..4 {
        t.next_token().unwrap();
    }
    let close = doc.iter().position(|&b| b == b'}').unwrap();
    t.leave_container_at(close);
    let rest = kinds(&mut t);
    let after = full.iter().position(|(o, _)| *o as usize == close).unwrap();
    assert_eq!(rest, full[after + 1..]);
    // Leave a nested array from inside it.
    let mut t = Tokenizer::new(doc, 8);
    while !t
        .next_token()
        .unwrap()
        .is_some_and(|k| matches!(k.kind, TokenKind::Number(n) if n.raw() == "4"))
    {}
    let close = doc.windows(2).position(|w| w == b"4]").unwrap() + 1;
    t.leave_container_at(close);
    let rest = kinds(&mut t);
    let after = full.iter().position(|(o, _)| *o as usize == close).unwrap();
    assert_eq!(rest, full[after + 1..]);
}

/// Reads `doc` token by token, except that right after the key `"a"` and
/// the `[` that follows it, it tries [`Tokenizer::plain_number_array`]: the
/// values that returned (if any) and every token read.
fn with_plain_array<const N: usize>(doc: &[u8], max_abs: f64) -> (Option<[f64; N]>, Outcome) {
    with_fast_array(doc, |t| t.plain_number_array::<N>(max_abs))
}

/// [`with_plain_array`] for [`Tokenizer::plain_number_array_within_1e7`]
/// (zeros when it took the array).
fn with_checked_array<const N: usize>(doc: &[u8]) -> (Option<[f64; N]>, Outcome) {
    with_fast_array(doc, |t| {
        t.plain_number_array_within_1e7::<N>().then_some([0.0; N])
    })
}

fn with_fast_array<const N: usize>(
    doc: &[u8],
    fast_path: impl Fn(&mut Tokenizer<'_>) -> Option<[f64; N]>,
) -> (Option<[f64; N]>, Outcome) {
    let mut t = Tokenizer::new(doc, 8);
    let mut tokens = Vec::new();
    let mut fast = None;
    let mut after_a = false;
    loop {
        match t.next_token() {
            Ok(Some(token)) => {
                tokens.push(own(&token));
                if after_a && token.kind == TokenKind::BeginArray {
                    let before = t.position();
                    fast = fast_path(&mut t);
                    if fast.is_none() {
                        assert_eq!(t.position(), before, "a miss consumes nothing");
                    }
                }
                after_a = matches!(token.kind, TokenKind::Key(k) if k.raw_bytes() == b"a");
            }
            Ok(None) => return (fast, (tokens, None)),
            Err(e) => return (fast, (tokens, Some(e))),
        }
    }
}

/// Checks [`with_plain_array`] on `doc` against the token path: the same
/// error, and either the same tokens (no fast path) or the three numbers'
/// exact values and the tokens after the array. The values, if taken.
fn plain_array_agrees(doc: &str, array: &str) -> Option<[f64; 3]> {
    let (reference, reference_error) = whole(doc.as_bytes());
    // The checking variant: when it takes the array, the token path reads
    // three numbers below 10^7 there, and the same tokens after it.
    let (checked, (tokens, error)) = with_checked_array::<3>(doc.as_bytes());
    assert_eq!(error, reference_error, "{array}");
    match checked {
        Some(_) => {
            assert_eq!(tokens[..3], reference[..3], "{array}");
            for (t, _) in &reference[3..6] {
                assert!(
                    matches!(t, Ot::Num(bits, _) if f64::from_bits(*bits).abs() < 1e7),
                    "{array}"
                );
            }
            assert_eq!(reference[6].0, Ot::EndArray, "{array}");
            assert_eq!(tokens[3..], reference[7..], "{array}");
        }
        None => assert_eq!(tokens, reference, "{array}"),
    }
    let (fast, (tokens, error)) = with_plain_array::<3>(doc.as_bytes(), 1e7);
    assert_eq!(error, reference_error, "{array}");
    match fast {
        Some(values) => {
            // `{`, `"a"`, `[`, then three numbers and `]` consumed at once.
            assert_eq!(tokens[..3], reference[..3], "{array}");
            for (v, (t, _)) in values.iter().zip(&reference[3..6]) {
                assert!(
                    matches!(t, Ot::Num(bits, _) if *bits == v.to_bits()),
                    "{array}"
                );
            }
            assert_eq!(reference[6].0, Ot::EndArray, "{array}");
            assert_eq!(tokens[3..], reference[7..], "{array}");
        }
        None => assert_eq!(tokens, reference, "{array}"),
    }
    fast
}

#[test]
fn plain_number_array_reads_what_the_tokens_say_or_nothing() {
    let arrays = [
        "[1,2,3]",
        "[ 1 , -2.5 ,\n\t3 ]",
        "[-0,0,0.125]",
        "[9007199254740992,0.1,-7]",
        "[9007199254740993,0,0]",
        "[0.1000000000000000055511151231257827,1,1]",
        "[1e2,2,3]",
        "[1E2,2,3]",
        "[01,2,3]",
        "[1.,2,3]",
        "[.5,2,3]",
        "[-,2,3]",
        "[1,2]",
        "[1,2,3,4]",
        "[]",
        "[1,2,3}",
        "[\"1\",2,3]",
        "[1,2,null]",
        "[[1],2,3]",
        "[10000000,-10000000,0]",
        "[10000000.5,0,0]",
        "[1,2,3",
        "[1 2 3]",
    ];
    for array in arrays {
        let doc = format!(r#"{{"a": {array}, "b": [4, {{"c": 5}}]}}"#);
        if let Some(values) = plain_array_agrees(&doc, array) {
            assert!(values.iter().all(|v| v.abs() <= 1e7), "{array}");
        }
    }
    // Every number text of the bit-exactness test, in each slot.
    let mut fast_hits = 0;
    for text in number_texts() {
        for array in [
            format!("[{text},1,2]"),
            format!("[0, {text} ,0]"),
            format!("[1,2,\n{text}]"),
        ] {
            let doc = format!(r#"{{"a": {array}, "b": "padding"}}"#);
            fast_hits += usize::from(plain_array_agrees(&doc, &array).is_some());
        }
    }
    assert!(fast_hits > 1000, "the fast path ran {fast_hits} times");
    // The plain shapes do take the fast path (its number scan wants eight
    // bytes past each number's start, so the arrays here are not last).
    for array in [
        "[1,2,3]",
        "[ 1 , -2.5 ,\n\t3 ]",
        "[-0,0,0.125]",
        "[10000000,-10000000,0]",
    ] {
        let doc = format!(r#"{{"a": {array}, "b": "padding"}}"#);
        assert!(
            with_plain_array::<3>(doc.as_bytes(), 1e7).0.is_some(),
            "{array}"
        );
    }
    // The checking variant takes the same shapes with at most seven integer
    // digits, and leaves ±10^7 itself to the token path.
    for (array, taken) in [
        ("[1,2,3]", true),
        ("[ 1 , -2.5 ,\n\t3 ]", true),
        ("[-0,0,0.125]", true),
        ("[9999999.999,0,0]", true),
        ("[10000000,-10000000,0]", false),
        ("[1e2,2,3]", false),
    ] {
        let doc = format!(r#"{{"a": {array}, "b": "padding"}}"#);
        assert_eq!(
            with_checked_array::<3>(doc.as_bytes()).0.is_some(),
            taken,
            "{array}"
        );
    }
    let (fast, _) = with_plain_array::<3>(br#"{"a": [-0, 1, 2], "b": "padding"}"#, 1e7);
    assert!(
        fast.is_some_and(|v| v[0].is_sign_negative()),
        "-0 keeps its sign"
    );
}

#[test]
fn after_byte_order_mark_steps_over_one_bom_and_keeps_file_offsets() {
    let mut t = Tokenizer::after_byte_order_mark(b"\xEF\xBB\xBF [1]", 4);
    let first = t.next_token().unwrap().unwrap();
    assert_eq!((first.kind, first.offset), (TokenKind::BeginArray, 4));
    // Without a BOM it is `new`; a second BOM is still refused.
    let mut plain = Tokenizer::after_byte_order_mark(b"[1]", 4);
    assert_eq!(plain.next_token().unwrap().unwrap().offset, 0);
    let mut twice = Tokenizer::after_byte_order_mark(b"\xEF\xBB\xBF\xEF\xBB\xBF[]", 4);
    assert_eq!(twice.next_token().unwrap_err().offset(), 3);
    let mut only = Tokenizer::after_byte_order_mark(b"\xEF\xBB\xBF", 4);
    assert!(only.next_token().is_err());
}
