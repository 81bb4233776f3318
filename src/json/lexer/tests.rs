use super::*;

#[test]
fn skip_ws_matches_bytewise() {
    let alphabet = [
        b' ',
        b'\n',
        b'\r',
        b'\t',
        b'x',
        0x0B,
        0x0C,
        0x00,
        0xA0,
        0x20 | 0x80,
    ];
    let mut seed = 1u64;
    for len in 0..40usize {
        for _ in 0..200 {
            let v: std::vec::Vec<u8> = (0..len)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let r = (seed >> 33) as usize;
                    // Mostly whitespace, so runs get long.
                    if r.is_multiple_of(5) {
                        alphabet[r / 5 % alphabet.len()]
                    } else {
                        alphabet[r % 4]
                    }
                })
                .collect();
            for i in 0..=len {
                let want = (i..len).find(|&k| !is_ws(v[k])).unwrap_or(len);
                assert_eq!(skip_ws(&v, i), want, "{v:?} {i}");
            }
        }
    }
    for b in 0..=255u8 {
        for lane in 0..8 {
            let mut v = [b' '; 12];
            v[1 + lane] = b;
            let want = if is_ws(b) { 12 } else { 1 + lane };
            assert_eq!(skip_ws(&v, 0), want, "{b} {lane}");
        }
    }
}
