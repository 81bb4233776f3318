//! Every limit the foundation enforces, at its value and one past it.

use scenedec::{ErrorCode, Options};

mod support;

#[test]
fn j3d_max_file_bytes_at_value_and_one_past() {
    let bytes = support::samples::pyramid_bmd();
    let mut options = Options::default();
    options.j3d.limits.max_file_bytes = bytes.len() as u64;
    assert!(scenedec::measure(&bytes, None, &options).is_ok());
    options.j3d.limits.max_file_bytes = bytes.len() as u64 - 1;
    let e = scenedec::measure(&bytes, None, &options).unwrap_err();
    assert_eq!(e.code(), ErrorCode::FileTooLarge);
}

#[test]
fn yaz0_decompressed_size_is_checked_before_decompressing() {
    let raw = support::samples::pyramid_bmd();
    let packed = support::samples::pyramid_bmd_szs();
    let mut options = Options::default();
    options.j3d.limits.max_file_bytes = raw.len() as u64;
    assert_eq!(
        scenedec::unwrapped_len(&packed, &options).unwrap(),
        raw.len()
    );
    options.j3d.limits.max_file_bytes = raw.len() as u64 - 1;
    let e = scenedec::unwrapped_len(&packed, &options).unwrap_err();
    assert_eq!(e.code(), ErrorCode::FileTooLarge);
    // The header alone decides: a 4 GiB claim fails without touching memory.
    let mut huge = packed.clone();
    huge[4..8].copy_from_slice(&u32::MAX.to_be_bytes());
    let e = scenedec::load(&huge, None, &Options::default()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::FileTooLarge);
}

#[test]
fn bbmodel_max_file_bytes_at_value_and_one_past() {
    let bytes = support::samples::cube_bbmodel();
    let mut options = Options::default();
    options.bbmodel.limits.max_file_bytes = bytes.len() as u64;
    assert!(scenedec::measure(&bytes, None, &options).is_ok());
    options.bbmodel.limits.max_file_bytes = bytes.len() as u64 - 1;
    assert_eq!(
        scenedec::measure(&bytes, None, &options)
            .unwrap_err()
            .code(),
        ErrorCode::FileTooLarge
    );
}

#[test]
fn yaz0_that_does_not_hold_j3d_is_an_unknown_format() {
    let packed = scenedec::yaz0::compress(b"{\"meta\": {}}");
    let e = scenedec::load(&packed, None, &Options::default()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::UnknownFormat);
}

#[test]
fn broken_lz_backup_is_refused_with_its_offset() {
    // LZ-String's base64 text (`N4Ig…`) is not lzutf8's StorageBinaryString:
    // no end marker U+8000/U+8001.
    let e = scenedec::load(b"<lz>N4IgLg", None, &Options::default()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::CompressedBbmodel);
    assert!(e.message().contains("end marker"), "{}", e.message());
}
