//! Telling formats apart from their first bytes.

use crate::error::{Error, ErrorCode, Quote};

/// What a byte string looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// J3D model, `J3D2bmd3` (.bmd).
    J3dBmd,
    /// J3D model, `J3D2bdl4` (.bdl).
    J3dBdl,
    /// Yaz0-compressed data; what is inside is sniffed after decompression.
    Yaz0,
    /// JSON text: a .bbmodel (the reader decides whether it really is one).
    Bbmodel,
    /// Blockbench's `<lz>`-compressed .bbmodel (LZ-String): recognised, not read yet.
    CompressedBbmodel,
    /// Nothing scenedec reads.
    Unknown,
}

/// Looks at the first bytes of `bytes`.
///
/// JSON is recognised by its first non-whitespace byte (`{` or `[`), so a
/// .bbmodel that is not valid JSON still sniffs as [`Kind::Bbmodel`] and then
/// fails with the reader's NOT_JSON; an empty file sniffs as [`Kind::Unknown`]
/// (callers that know the file is a .bbmodel call the .bbmodel reader, which
/// reports NOT_JSON, as the loader specification asks).
pub fn sniff(bytes: &[u8]) -> Kind {
    match bytes.get(..8) {
        Some(b"J3D2bmd3") => return Kind::J3dBmd,
        Some(b"J3D2bdl4") => return Kind::J3dBdl,
        _ => {}
    }
    if bytes.starts_with(crate::yaz0::MAGIC) {
        return Kind::Yaz0;
    }
    if bytes.starts_with(b"<lz>") {
        return Kind::CompressedBbmodel;
    }
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match body
        .iter()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        Some(b'{' | b'[') => Kind::Bbmodel,
        _ => Kind::Unknown,
    }
}

/// The error for bytes of [`Kind::Unknown`] or an unexpected kind: says what
/// the file starts with and what was expected.
pub(crate) fn unknown_format(bytes: &[u8]) -> Error {
    let head = bytes.get(..8).unwrap_or(bytes);
    let shown = core::str::from_utf8(head).unwrap_or("(binary)");
    if bytes.starts_with(b"J3D") {
        return Error::binary(
            ErrorCode::UnknownFormat,
            0,
            None,
            format_args!(
                "J3D file of type {} is not a model: J3D2bmd3 or J3D2bdl4 expected",
                Quote(shown)
            ),
        );
    }
    Error::binary(
        ErrorCode::UnknownFormat,
        0,
        None,
        format_args!(
            "unknown format starting {}: a J3D model (J3D2bmd3, J3D2bdl4), Yaz0 or .bbmodel JSON expected",
            Quote(shown)
        ),
    )
}

/// The error for a compressed .bbmodel.
pub(crate) fn compressed_bbmodel() -> Error {
    Error::binary(
        ErrorCode::CompressedBbmodel,
        0,
        None,
        format_args!(
            "<lz>-compressed .bbmodel is not supported yet: save it uncompressed in Blockbench"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_each_kind() {
        assert_eq!(sniff(b"J3D2bmd3\0\0\0\0"), Kind::J3dBmd);
        assert_eq!(sniff(b"J3D2bdl4\0\0\0\0"), Kind::J3dBdl);
        assert_eq!(sniff(b"Yaz0\0\0\0\x10"), Kind::Yaz0);
        assert_eq!(sniff(b"  \n{\"meta\":{}}"), Kind::Bbmodel);
        assert_eq!(sniff(b"<lz>N4Ig"), Kind::CompressedBbmodel);
        assert_eq!(sniff(b""), Kind::Unknown);
        assert_eq!(sniff(b"J3D2bck1"), Kind::Unknown);
    }

    #[test]
    fn a_minecraft_bmd_is_unknown_with_a_clear_error() {
        // Minecraft: Bedrock ".bmd" files are not J3D.
        let bytes = b"\x01\x00\x00\x00minecraft:geometry";
        assert_eq!(sniff(bytes), Kind::Unknown);
        let e = unknown_format(bytes);
        assert_eq!(e.code(), ErrorCode::UnknownFormat);
        assert!(e.message().contains("J3D2bmd3"), "{}", e.message());
    }

    #[test]
    fn a_j3d_animation_names_its_type() {
        let e = unknown_format(b"J3D1bck1....");
        assert!(e.message().contains("\"J3D1bck1\""), "{}", e.message());
    }
}
