use super::*;
use std::format;

fn code(json: &str) -> ErrorCode {
    read_meta(json.as_bytes(), &BbmodelLimits::default())
        .unwrap_err()
        .code()
}

fn doc(json: &str) -> Document<'_> {
    Document::read(json.as_bytes(), &BbmodelLimits::default()).unwrap()
}

#[test]
fn reads_versions_3_to_5() {
    for (text, major, minor) in [("3.0", 3, 0), ("4.10", 4, 10), ("5.0", 5, 0), ("4.9", 4, 9)] {
        let json = format!(r#"{{"meta": {{"format_version": "{text}"}}}}"#);
        let v = read_meta(json.as_bytes(), &BbmodelLimits::default()).unwrap();
        assert_eq!((v.major, v.minor), (major, minor));
    }
}

#[test]
fn unsupported_version_outside_3_to_5() {
    assert_eq!(
        code(r#"{"meta": {"format_version": "2.9"}}"#),
        ErrorCode::UnsupportedVersion
    );
    assert_eq!(
        code(r#"{"meta": {"format_version": "6.0"}}"#),
        ErrorCode::UnsupportedVersion
    );
    assert_eq!(
        code(r#"{"meta": {"format_version": "abc"}}"#),
        ErrorCode::UnsupportedVersion
    );
}

#[test]
fn not_bbmodel_without_object_meta_or_version() {
    assert_eq!(code("[1, 2]"), ErrorCode::NotBbmodel);
    assert_eq!(code("{}"), ErrorCode::NotBbmodel);
    assert_eq!(code(r#"{"meta": {}}"#), ErrorCode::NotBbmodel);
    assert_eq!(code(r#"{"meta": 5}"#), ErrorCode::NotBbmodel);
}

#[test]
fn not_json_for_empty_invalid_utf8_and_syntax_errors() {
    assert_eq!(code(""), ErrorCode::NotJson);
    assert_eq!(
        read_meta(b"{\"meta\": \xFF}", &BbmodelLimits::default())
            .unwrap_err()
            .code(),
        ErrorCode::NotJson
    );
    assert_eq!(
        code(r#"{"meta": {"format_version": "4.0"},}"#),
        ErrorCode::NotJson
    );
    // A syntax error after a valid meta is still NOT_JSON.
    assert_eq!(
        code(r#"{"meta": {"format_version": "4.0"}, "x": [1,]}"#),
        ErrorCode::NotJson
    );
}

#[test]
fn nan_and_infinity_are_not_json_and_named() {
    let e = read_meta(
        br#"{"meta": {"format_version": "4.0"}, "x": NaN}"#,
        &BbmodelLimits::default(),
    )
    .unwrap_err();
    assert_eq!(e.code(), ErrorCode::NotJson);
    assert!(e.message().contains("NaN"), "{}", e.message());
    let e = read_meta(br#"{"a": -Infinity}"#, &BbmodelLimits::default()).unwrap_err();
    assert!(e.message().contains("Infinity"), "{}", e.message());
}

#[test]
fn file_too_large_at_limit_plus_one() {
    let json = br#"{"meta": {"format_version": "4.0"}}"#;
    let at = BbmodelLimits {
        max_file_bytes: json.len() as u64,
        ..BbmodelLimits::default()
    };
    assert!(read_meta(json, &at).is_ok());
    let under = BbmodelLimits {
        max_file_bytes: json.len() as u64 - 1,
        ..BbmodelLimits::default()
    };
    assert_eq!(
        read_meta(json, &under).unwrap_err().code(),
        ErrorCode::FileTooLarge
    );
}

#[test]
fn model_format_absent_empty_null_false_or_0_reads_as_java_block() {
    for value in [
        "",
        r#", "model_format": """#,
        r#", "model_format": null"#,
        r#", "model_format": false"#,
        r#", "model_format": 0"#,
    ] {
        let json = format!(r#"{{"meta": {{"format_version": "4.5"{value}}}}}"#);
        let d = doc(&json);
        assert_eq!(d.format, ModelFormat::JavaBlock, "{json}");
        assert_eq!(d.source_format, None, "{json}");
    }
}

#[test]
fn model_format_fallback_is_bedrock_old_with_a_truthy_bone_rig() {
    let d = doc(r#"{"meta": {"format_version": "4.5", "model_format": null, "bone_rig": 1}}"#);
    assert_eq!(d.format, ModelFormat::BedrockOld);
    assert_eq!(d.source_format, None);
    let d = doc(r#"{"meta": {"format_version": "4.5", "bone_rig": true, "model_format": "free"}}"#);
    assert_eq!(d.format, ModelFormat::Free);
    assert_eq!(d.source_format, Some("free"));
}

#[test]
fn model_format_of_another_type_is_invalid() {
    assert_eq!(
        code(r#"{"meta": {"format_version": "4.5", "model_format": true}}"#),
        ErrorCode::InvalidField
    );
}

#[test]
fn locates_top_level_parts_and_resolution() {
    let d = doc(
        r#"{"elements": [], "meta": {"format_version": "5.0", "box_uv": true}, "resolution": {"width": 64, "height": 32}, "textures": []}"#,
    );
    assert_eq!(d.elements, Some(13));
    assert!(d.textures.is_some() && d.outliner.is_none());
    assert!(d.box_uv);
    assert_eq!(d.resolution, [64.0, 32.0]);
    assert_eq!(
        code(r#"{"meta": {"format_version": "5.0"}, "resolution": {"width": 0}}"#),
        ErrorCode::InvalidField
    );
}

#[test]
fn step_over_array_minds_strings_escapes_and_nesting() {
    for (json, entries) in [
        ("[]", 0),
        ("[ \n ]", 0),
        ("[1]", 1),
        ("[1, [2, 3], {\"a\": [4, 5]}]", 3),
        (r#"["a,b", "c]d", "e\"],["]"#, 3),
        (r#"[{"k": "\\"}, 2]"#, 2),
    ] {
        let bytes = format!("{json} , tail");
        assert_eq!(
            step_over_array(bytes.as_bytes(), 0),
            Some((json.len(), entries)),
            "{json}"
        );
    }
    assert_eq!(step_over_array(b"[1, [2]", 0), None, "never closes");
    assert_eq!(step_over_array(b"[\"]\"", 0), None, "ends in a string");
}

/// The parts and counts `locate` finds are those `read` finds.
#[test]
fn locate_finds_what_read_finds() {
    let json = r#" {"meta": {"format_version": "4.10", "model_format": "free"},
        "elements": [{"name": "a,]"}, {"faces": {"north": {}}}],
        "outliner": ["u", {"children": ["v"]}], "groups": [],
        "textures": [{"name": "t"}], "animations": [{}, {}],
        "elements": [{}, {}, {}]} "#;
    let limits = BbmodelLimits::default();
    let (read, located) = (
        Document::read(json.as_bytes(), &limits).unwrap(),
        Document::locate(json.as_bytes(), &limits).unwrap(),
    );
    assert_eq!(located.entries, read.entries);
    assert_eq!(located.entries.elements, 3, "the last elements wins");
    assert_eq!(located.entries.textures, 1);
    assert_eq!(
        (located.elements, located.outliner, located.groups),
        (read.elements, read.outliner, read.groups)
    );
    assert_eq!(
        (located.textures, located.animations, located.version),
        (read.textures, read.animations, read.version)
    );
}

/// `locate` steps over arrays unchecked; what it cannot step over goes
/// to `read`, and a repeated key's earlier array is checked.
#[test]
fn locate_falls_back_to_read_and_checks_replaced_arrays() {
    let limits = BbmodelLimits::default();
    let locate = |json: &str| Document::locate(json.as_bytes(), &limits).map(|d| d.entries);
    // An earlier `elements` that a later one replaces is checked here.
    let replaced = r#"{"meta": {"format_version": "5.0"}, "elements": [1,,2], "elements": []}"#;
    assert_eq!(locate(replaced).unwrap_err().code(), ErrorCode::NotJson);
    // Junk between members, or after the object, goes to `read`.
    for bad in [
        r#"{"meta": {"format_version": "5.0"} "elements": []}"#,
        r#"{"meta": {"format_version": "5.0"}, "elements": []} x"#,
        r#"{"meta": {"format_version": "5.0"}, "elements": [}"#,
    ] {
        assert_eq!(locate(bad).unwrap_err().code(), ErrorCode::NotJson, "{bad}");
    }
    // A syntax error inside a stepped-over array is left to the reader
    // of that array (and `first_error` puts it first).
    let inside = r#"{"meta": {"format_version": "5.0"}, "elements": [{"a": 01}]}"#;
    assert!(locate(inside).is_ok());
    let e = Document::first_error(
        inside.as_bytes(),
        &limits,
        Error::nowhere(ErrorCode::InvalidField, format_args!("later")),
    );
    assert_eq!(e.code(), ErrorCode::NotJson);
}

#[test]
fn one_leading_byte_order_mark_is_skipped_as_auto_parse_json_does() {
    // Blockbench's autoParseJSON: "if (data.charCodeAt(0) === 0xFEFF) data =
    // data.substr(1)" before JSON.parse, so one BOM at byte 0 and no other.
    let limits = BbmodelLimits::default();
    let json = br#"{"meta": {"format_version": "4.10"}, "elements": [], "outliner": []}"#;
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(json);
    let plain = Document::read(json, &limits).unwrap().version;
    let read = Document::read(&bom, &limits).unwrap();
    assert_eq!(
        (read.version.major, read.version.minor),
        (plain.major, plain.minor)
    );
    let located = Document::locate(&bom, &limits).unwrap();
    assert_eq!(located.version.minor, 10);
    // Offsets stay those of the file, BOM included.
    let offset = |bytes: &[u8]| match *Document::read(bytes, &limits).unwrap_err().at() {
        Location::Binary { offset, .. } => offset,
        ref other => panic!("{other:?}"),
    };
    let broken = br#"{"meta": {"format_version": "4.10"}, "x": tru}"#;
    let mut broken_bom = b"\xEF\xBB\xBF".to_vec();
    broken_bom.extend_from_slice(broken);
    assert_eq!(offset(&broken_bom), offset(broken) + 3);

    let not_json = |bytes: &[u8]| {
        let read = Document::read(bytes, &limits).unwrap_err().code();
        let located = Document::locate(bytes, &limits).unwrap_err().code();
        (read, located)
    };
    let mut twice = b"\xEF\xBB\xBF".to_vec();
    twice.extend_from_slice(&bom);
    assert_eq!(not_json(&twice), (ErrorCode::NotJson, ErrorCode::NotJson));
    assert_eq!(
        not_json(b"\xEF\xBB\xBF"),
        (ErrorCode::NotJson, ErrorCode::NotJson)
    );
    let mut after_space = b" ".to_vec();
    after_space.extend_from_slice(&bom);
    assert_eq!(
        not_json(&after_space),
        (ErrorCode::NotJson, ErrorCode::NotJson)
    );
}

/// Escaped strings past any buffer size still hash, compare and count by
/// their decoded text (JavaScript compares decoded strings): `"\u0041"`
/// ×5000 is 5 000 characters, the text `A` ×5000.
#[test]
fn long_escaped_strings_hash_compare_and_count_decoded() {
    use crate::bbmodel::document::text_hash::text_hash;
    use crate::bbmodel::document::value::{check_string_length, same_text};
    let escaped = format!(
        r#"["{}", "{}", "{}B"]"#,
        r"\u0041".repeat(5000),
        "A".repeat(5000),
        r"\u0041".repeat(4999)
    );
    let mut t = crate::json::Tokenizer::new(escaped.as_bytes(), 4);
    let mut strings = std::vec::Vec::new();
    while let Some(token) = t.next_token().unwrap() {
        if let crate::json::TokenKind::String(s) = token.kind {
            strings.push(s);
        }
    }
    let [a, plain, other] = strings[..] else {
        panic!()
    };
    assert!(a.has_escapes() && other.has_escapes());
    assert_eq!(text_hash(&a), text_hash(&plain));
    assert_ne!(text_hash(&a), text_hash(&other));
    assert!(same_text(&a, &plain));
    assert!(!same_text(&a, &other));
    let path = crate::bbmodel::document::value::Path::key("name");
    assert!(check_string_length(&a, &path, 5000).is_ok());
    // One past: the 5 000 decoded characters are over a limit of 4 999
    // (before, a string over the 4 KiB buffer passed unchecked).
    assert_eq!(
        check_string_length(&a, &path, 4999).unwrap_err().code(),
        ErrorCode::InvalidField
    );
}
