//! `DataUrl` against the `base64` crate: random bodies written the ways a
//! data URL can be (padded or not, with whitespace, percent-encoded), random
//! strings under forgiving-base64's rules, and every data URI of the corpus.

mod support;

use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use scenedec::data_url::DataUrl;

/// Forgiving-base64's decoder: no padding required, unused bits ignored.
const FORGIVING: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(true),
);

use support::rng::Rng;

fn ours(url: &[u8]) -> Option<Vec<u8>> {
    let d = DataUrl::parse_png(url).ok()?;
    let mut out = Vec::new();
    d.for_each_piece(|p| {
        out.extend_from_slice(p);
        Ok::<(), ()>(())
    })
    .unwrap();
    assert_eq!(out.len(), d.decoded_len());
    let mut prefix = vec![0u8; out.len().min(33)];
    assert_eq!(d.decode_prefix(&mut prefix), prefix.len());
    assert_eq!(prefix, out[..prefix.len()]);
    Some(out)
}

/// The standard's steps, with the base64 crate decoding the symbols.
fn reference(body: &[u8]) -> Option<Vec<u8>> {
    let mut decoded = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let hex = |k: usize| body.get(k).and_then(|&h| (h as char).to_digit(16));
        match (body[i], hex(i + 1), hex(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                decoded.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                decoded.push(b);
                i += 1;
            }
        }
    }
    decoded.retain(|b| !matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' '));
    if decoded.len() % 4 == 0 {
        for _ in 0..2 {
            if decoded.last() == Some(&b'=') {
                decoded.pop();
            }
        }
    }
    FORGIVING.decode(&decoded).ok()
}

#[test]
fn random_bodies_in_every_spelling_decode_to_their_bytes() {
    let mut rng = Rng(0x5EED);
    for round in 0..3000 {
        let data: Vec<u8> = (0..rng.below(300)).map(|_| rng.next() as u8).collect();
        let text = if round % 2 == 0 {
            base64::engine::general_purpose::STANDARD.encode(&data)
        } else {
            base64::engine::general_purpose::STANDARD_NO_PAD.encode(&data)
        };
        let mut body = Vec::new();
        for &c in text.as_bytes() {
            match rng.below(if round % 3 == 0 { 20 } else { 1000 }) {
                0 => body.extend_from_slice(b"\r\n"),
                1 => body.push(b' '),
                2 => {
                    body.extend_from_slice(format!("%{c:02X}").as_bytes());
                    continue;
                }
                _ => {}
            }
            body.push(c);
        }
        let url = [&b"data:image/png;base64,"[..], &body].concat();
        assert_eq!(
            ours(&url).as_deref(),
            Some(&data[..]),
            "{}",
            String::from_utf8_lossy(&url)
        );
    }
}

#[test]
fn random_strings_follow_forgiving_base64_as_the_base64_crate_decodes_it() {
    let mut rng = Rng(0xDA7A);
    let pieces: [&[u8]; 12] = [
        b"A", b"z", b"0", b"+", b"/", b"=", b" ", b"\n", b"%41", b"%3D", b"-", b"%",
    ];
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..20000 {
        let mut body = Vec::new();
        for _ in 0..rng.below(14) {
            // Mostly symbols, so that many strings are valid.
            let k = if rng.below(3) == 0 {
                rng.below(pieces.len() as u64)
            } else {
                rng.below(3)
            };
            body.extend_from_slice(pieces[k as usize]);
        }
        let url = [&b"data:image/png;base64,"[..], &body].concat();
        let want = reference(&body);
        assert_eq!(ours(&url), want, "{:?}", String::from_utf8_lossy(&body));
        if want.is_some() {
            accepted += 1
        } else {
            refused += 1
        }
    }
    assert!(
        accepted > 1000 && refused > 1000,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn every_corpus_data_uri_decodes_as_the_base64_crate_decodes_it() {
    let files = support::corpus_files("bbmodel", &[".bbmodel"]);
    let mut n = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let mut at = 0;
        while let Some(start) = memchr::memmem::find(&bytes[at..], b"\"data:image/") {
            let start = at + start + 1;
            let len = memchr::memchr(b'"', &bytes[start..]).unwrap();
            let url = &bytes[start..start + len];
            at = start + len;
            let body = &url[url.iter().position(|&b| b == b',').unwrap() + 1..];
            let theirs = base64::engine::general_purpose::STANDARD.decode(body).ok();
            if url.starts_with(b"data:image/png;") {
                assert!(
                    theirs.is_some(),
                    "{}: corpus URI the base64 crate refuses",
                    path.display()
                );
                assert_eq!(ours(url), theirs, "{}", path.display());
                n += 1;
            } else {
                assert!(
                    DataUrl::parse_png(url).is_err(),
                    "{}: non-PNG accepted",
                    path.display()
                );
            }
        }
    }
    eprintln!("{n} corpus data URIs decoded");
    if support::corpus_dir().is_some() {
        assert!(n > 50);
    }
}
