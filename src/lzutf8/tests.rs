//! Each rule quoted from lzutf8's `Decompressor.decompressBlock` and
//! `BinaryString.decode` / `StorageBinaryString.decode`, on hand-made streams.

use super::*;
use std::vec;
use std::vec::Vec;

const NO_LIMIT: u64 = u64::MAX;

fn unpack(file: &[u8]) -> Result<Vec<u8>, Error> {
    let len = decompressed_len(file, NO_LIMIT)?;
    let mut out = vec![0u8; len];
    decompress_into(file, &mut out)?;
    Ok(out)
}

#[test]
fn literals_are_copied_as_they_are() {
    // decompressBlock: "if (inputValue >>> 6 != 3) ... output the literal value".
    assert_eq!(unpack(&pack(b"{\"meta\":{}}")).unwrap(), b"{\"meta\":{}}");
}

#[test]
fn a_utf8_lead_before_a_continuation_is_a_literal() {
    // "If at the leading byte of a UTF-8 codepoint byte sequence
    // (input[readPosition + 1] >>> 7 === 1) output the literal value".
    let text = "é€ü𝄞".as_bytes();
    assert_eq!(unpack(&pack(text)).unwrap(), text);
}

#[test]
fn two_byte_pointer_takes_its_distance_from_the_second_byte() {
    // "sequenceLengthIdentifier == 6: 2 byte pointer type, distance was
    // smaller than 128"; matchLength = inputValue & 31.
    let stream = [b'a', b'b', b'c', b'd', 0xC0 | 4, 4];
    assert_eq!(unpack(&pack(&stream)).unwrap(), b"abcdabcd");
}

#[test]
fn three_byte_pointer_takes_a_big_endian_distance() {
    // "3 byte pointer type, distance was greater or equal to 128":
    // (input[readPosition + 1] << 8) | input[readPosition + 2].
    let mut stream: Vec<u8> = (0..300u32).map(|i| b'a' + (i % 26) as u8).collect();
    let expected_tail = stream[0..5].to_vec();
    stream.extend_from_slice(&[0xE0 | 5, 0x01, 0x2C]); // 300 back
    let out = unpack(&pack(&stream)).unwrap();
    assert_eq!(out.len(), 305);
    assert_eq!(&out[300..], &expected_tail[..]);
}

#[test]
fn an_overlapping_pointer_repeats_its_bytes() {
    // The copy is "this.outputByte(this.outputBuffer[matchPosition + offset])"
    // one byte at a time, so a distance below the length repeats.
    let stream = [b'x', b'y', 0xC0 | 7, 2];
    assert_eq!(unpack(&pack(&stream)).unwrap(), b"xyxyxyxyx");
}

#[test]
fn odd_lengths_take_the_padding_byte_back() {
    // BinaryString.decode: "if (value == (32768 | 1)) outputPosition--".
    for n in 1..40usize {
        let data: Vec<u8> = (0..n).map(|i| b'A' + (i % 20) as u8).collect();
        assert_eq!(unpack(&pack(&data)).unwrap(), data, "{n} bytes");
    }
}

#[test]
fn groups_of_sixteen_units_restart_the_bits() {
    // BinaryString.decode: a unit at state 0 only sets the remainder,
    // "if (state == 15) state = 0": 16 units carry 15 words. Lengths across
    // several groups, both parities.
    for n in [29usize, 30, 31, 32, 60, 61, 479, 480, 481] {
        let data: Vec<u8> = (0..n).map(|i| (i * 7 % 95) as u8 + 32).collect();
        assert_eq!(unpack(&pack(&data)).unwrap(), data, "{n} bytes");
    }
}

#[test]
fn u8002_and_a_raw_nul_both_stand_for_zero() {
    // StorageBinaryString.decode: input.replace(/\u8002/g, '\0').
    let packed = pack(&[0, 0, b'{', b'}']);
    assert!(packed.windows(3).any(|w| w == [0xE8, 0x80, 0x82]));
    let mut raw = Vec::new();
    let mut i = 0;
    while i < packed.len() {
        if packed[i..].starts_with(&[0xE8, 0x80, 0x82]) && i + 3 < packed.len() {
            raw.push(0);
            i += 3;
        } else {
            raw.push(packed[i]);
            i += 1;
        }
    }
    assert_eq!(unpack(&packed).unwrap(), [0, 0, b'{', b'}']);
    assert_eq!(unpack(&raw).unwrap(), [0, 0, b'{', b'}']);
}

#[test]
fn an_empty_stream_decodes_to_nothing() {
    assert_eq!(unpack(&pack(b"")).unwrap(), b"");
}

fn code_at(file: &[u8]) -> (ErrorCode, u64) {
    let e = unpack(file).unwrap_err();
    let offset = match e.at() {
        crate::error::Location::Binary { offset, .. } => *offset,
        other => panic!("binary location expected, got {other:?}"),
    };
    (e.code(), offset)
}

#[test]
fn text_without_magic_or_end_marker_is_refused() {
    assert_eq!(code_at(b"{}").0, ErrorCode::CompressedBbmodel);
    assert_eq!(code_at(b"<lz>").0, ErrorCode::CompressedBbmodel);
    let mut cut = pack(b"{\"a\":1}");
    cut.truncate(cut.len() - 1);
    assert_eq!(code_at(&cut).0, ErrorCode::CompressedBbmodel);
    // U+8001 claims an odd length with no byte to take back.
    assert_eq!(
        code_at("<lz>\u{8001}".as_bytes()),
        (ErrorCode::CompressedBbmodel, 4)
    );
}

#[test]
fn units_at_or_above_u8000_inside_the_text_are_refused() {
    // lzutf8 restarts its state on any unit >= 32768 and reads on; only the
    // encoder's last unit is one, so anything else is a lying stream.
    let file = "<lz>\u{4000}\u{8000}\u{4000}\u{4000}\u{8000}".as_bytes();
    assert_eq!(code_at(file), (ErrorCode::CompressedBbmodel, 7));
    let file = "<lz>\u{4000}\u{FFFD}\u{8000}".as_bytes();
    assert_eq!(code_at(file), (ErrorCode::CompressedBbmodel, 7));
}

#[test]
fn text_that_is_not_utf8_of_a_unit_is_refused() {
    for bad in [
        &b"<lz>\x80\xE8\x80\x80"[..],             // a lone continuation
        &b"<lz>\xC1\x81\xE8\x80\x80"[..],         // overlong 2-byte
        &b"<lz>\xE0\x81\x81\xE8\x80\x80"[..],     // overlong 3-byte
        &b"<lz>\xF0\x9D\x84\x9E\xE8\x80\x80"[..], // 4-byte: a surrogate pair
        &b"<lz>\xC3\xE8\x80\x80"[..],             // cut before the marker
    ] {
        assert_eq!(code_at(bad), (ErrorCode::CompressedBbmodel, 4), "{bad:x?}");
    }
}

#[test]
fn truncated_pointers_are_refused() {
    // lzutf8 keeps a lead byte at the very end (or a 3-byte lead one before
    // it) "to be decoded with the next buffer", and a whole-file decompress
    // drops it: a stream cut short.
    let (code, _) = code_at(&pack(b"ab\xC1"));
    assert_eq!(code, ErrorCode::CompressedBbmodel);
    let (code, _) = code_at(&pack(b"ab\xE1\x01"));
    assert_eq!(code, ErrorCode::CompressedBbmodel);
}

#[test]
fn pointers_before_the_start_are_refused() {
    // lzutf8 would read `outputBuffer[outputPosition - matchDistance]`
    // before the data (zeros, or undefined); distance 0 reads unwritten bytes.
    for stream in [
        &[b'a', b'b', 0xC0 | 4, 3][..],
        &[b'a', 0xC0 | 4, 0][..],
        &[0xC0 | 4, 1][..],
        &[b'a', 0xE0 | 4, 0, 2][..],
    ] {
        assert_eq!(code_at(&pack(stream)).0, ErrorCode::CompressedBbmodel);
        // The walk alone finds it, before any output exists.
        assert!(decompressed_len(&pack(stream), NO_LIMIT).is_err());
    }
}

#[test]
fn the_size_limit_holds_at_its_value_and_fails_one_past() {
    let stream = [b'a', 0xC0 | 31, 1, 0xC0 | 31, 1];
    let file = pack(&stream);
    assert_eq!(decompressed_len(&file, 63).unwrap(), 63);
    let e = decompressed_len(&file, 62).unwrap_err();
    assert_eq!(e.code(), ErrorCode::FileTooLarge);
}

#[test]
fn a_bomb_is_refused_after_reading_no_more_than_the_limit_needs() {
    // 2 compressed bytes write 31: a 1 MiB stream would write 15.5 MiB.
    let mut stream = vec![b'a'];
    while stream.len() < 1 << 20 {
        stream.extend_from_slice(&[0xC0 | 31, 1]);
    }
    let file = pack(&stream);
    let limit = 1 << 16;
    let e = decompressed_len(&file, limit).unwrap_err();
    assert_eq!(e.code(), ErrorCode::FileTooLarge);
    // The whole walk (no limit) is bounded by the input: its count is exact.
    assert_eq!(
        decompressed_len(&file, NO_LIMIT).unwrap(),
        1 + (stream.len() - 1) / 2 * 31
    );
}

#[test]
fn the_output_must_be_exactly_the_measured_size() {
    let file = pack(b"abcdef");
    let mut small = [0u8; 5];
    assert_eq!(
        decompress_into(&file, &mut small).unwrap_err().code(),
        ErrorCode::ArenaTooSmall
    );
    let mut large = [0u8; 7];
    assert_eq!(
        decompress_into(&file, &mut large).unwrap_err().code(),
        ErrorCode::ArenaTooSmall
    );
    let file = pack(&[b'a', 0xC0 | 9, 1]);
    let mut short = [0u8; 6];
    assert_eq!(
        decompress_into(&file, &mut short).unwrap_err().code(),
        ErrorCode::ArenaTooSmall
    );
}
