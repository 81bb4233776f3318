//! Telling formats apart from their first bytes.

use crate::error::{Error, ErrorCode, Hex, Quote};

/// What a byte string looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// J3D model, `J3D2bmd3` (.bmd).
    J3dBmd,
    /// J3D model, `J3D2bdl4` (.bdl).
    J3dBdl,
    /// Yaz0-compressed data; what is inside is sniffed after decompression
    /// (an archive inside is told at once: [`Kind::Yaz0Rarc`]).
    Yaz0,
    /// A RARC archive (`RARC`, or `CRAR` little-endian): a container of
    /// models and animations, not a model (src/rarc/).
    Rarc,
    /// A Yaz0 stream whose first bytes decompress to `RARC` or `CRAR`: how
    /// most archives ship (`.szs`, `.arc`).
    Yaz0Rarc,
    /// JSON text: a .bbmodel (the reader decides whether it really is one).
    Bbmodel,
    /// Blockbench's `<lz>` backup: a .bbmodel compressed with LZ-UTF8
    /// (src/lzutf8.rs), read after [`crate::unwrap_into`].
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
    if bytes.starts_with(b"RARC") || bytes.starts_with(b"CRAR") {
        return Kind::Rarc;
    }
    if bytes.starts_with(crate::yaz0::MAGIC) {
        // The magic is the stream's first four bytes, always literals:
        // decoding them costs one flag byte and four reads.
        let mut head = [0u8; 4];
        let n = crate::yaz0::peek(bytes, &mut head);
        if n == 4 && matches!(&head, b"RARC" | b"CRAR") {
            return Kind::Yaz0Rarc;
        }
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
/// the file starts with (as hex: file content may be anything) and what was
/// expected.
pub(crate) fn unknown_format(bytes: &[u8]) -> Error {
    let head = bytes.get(..8).unwrap_or(bytes);
    if bytes.starts_with(b"J3D") {
        let shown = core::str::from_utf8(head).unwrap_or("(binary)");
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
    if matches!(sniff(bytes), Kind::Rarc | Kind::Yaz0Rarc) {
        return archive_not_model(bytes);
    }
    Error::binary(
        ErrorCode::UnknownFormat,
        0,
        None,
        format_args!(
            "unknown format starting {}: a J3D model (J3D2bmd3, J3D2bdl4), Yaz0 or .bbmodel JSON expected",
            Hex(head, bytes.len() > head.len())
        ),
    )
}

/// The error for an archive given where a model was expected.
pub(crate) fn archive_not_model(bytes: &[u8]) -> Error {
    let wrapped = if sniff(bytes) == Kind::Yaz0Rarc {
        "Yaz0-compressed "
    } else {
        ""
    };
    Error::binary(
        ErrorCode::ArchiveNotModel,
        0,
        None,
        format_args!(
            "{wrapped}RARC archive, not a model: list it with `scenedec inspect`, extract its models with `scenedec extract`, or read it with scenedec::rarc"
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
        assert_eq!(sniff(b"RARC\0\0\x02\x60"), Kind::Rarc);
        assert_eq!(sniff(b"CRAR\x60\x02\0\0"), Kind::Rarc);
        let wrapped = crate::yaz0::compress(b"RARC\0\0\x02\x60 and the rest");
        assert_eq!(sniff(&wrapped), Kind::Yaz0Rarc);
        let model = crate::yaz0::compress(b"J3D2bdl4 and the rest");
        assert_eq!(sniff(&model), Kind::Yaz0);
    }

    #[test]
    fn unknown_bytes_show_as_hex_never_as_escapes() {
        let e = unknown_format(b"\x01\x00\x00\x00minecraft:geometry");
        assert!(
            e.message()
                .starts_with("unknown format starting 01 00 00 00 6d 69 6e 65 …: "),
            "{}",
            e.message()
        );
        assert!(!e.message().contains("\\u{"), "{}", e.message());
        let e = unknown_format(b"\xFF\xFE");
        assert!(e.message().contains("starting ff fe: "), "{}", e.message());
        let e = unknown_format(b"");
        assert!(e.message().contains("(no bytes)"), "{}", e.message());
    }

    #[test]
    fn an_archive_is_named_as_one_not_as_an_unknown_format() {
        for bytes in [
            b"RARC\0\0\x02\x60".to_vec(),
            crate::yaz0::compress(b"RARC\0\0\x02\x60 and the rest"),
        ] {
            let e = unknown_format(&bytes);
            assert_eq!(e.code(), ErrorCode::ArchiveNotModel);
            assert!(
                e.message().contains("RARC archive, not a model"),
                "{}",
                e.message()
            );
        }
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
