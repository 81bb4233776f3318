//! The archive rules, pinned on archives built by the test writer (one
//! field changed per hostile case, so each test shows its input).

#[path = "../../tests/support/rarc_writer.rs"]
mod writer;

use std::string::String;
use std::string::ToString;
use std::vec;
use std::vec::Vec;

use super::*;
use writer::{Built, dir, file, packed_file, root, write};

fn names(m: &Member<'_>) -> String {
    let parts: Vec<&str> = m.path().map(|p| core::str::from_utf8(p).unwrap()).collect();
    parts.join("/")
}

/// Root `arc` with a file, `bmd/` with two files and `bmd/sub/` with one.
fn sample() -> writer::Dir {
    root(
        "arc",
        vec![
            file("readme.txt", b"hello"),
            dir(
                "bmd",
                vec![
                    file("a.bmd", &[1; 40]),
                    dir("sub", vec![file("deep.bin", b"deep")]),
                    file("empty", b""),
                ],
            ),
        ],
    )
}

/// Runs `f` and prints how long it took (for docs/security.md; tests do
/// not assert times).
fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = std::time::Instant::now();
    let out = f();
    std::eprintln!("{what}: {:?}", start.elapsed());
    out
}

fn parse(built: &Built) -> Result<Archive<'_>, Error> {
    Archive::parse(&built.bytes, &RarcLimits::DEFAULT)
}

#[test]
fn walks_directories_before_their_contents_in_table_order() {
    for le in [false, true] {
        let built = write(&sample(), le);
        let archive = parse(&built).unwrap();
        assert_eq!(archive.header().endian == Endian::Little, le);
        let listed: Vec<String> = archive
            .walk()
            .map(|item| match item {
                Item::Directory(d) => {
                    let p: Vec<&str> = d
                        .path
                        .iter()
                        .map(|n| core::str::from_utf8(n).unwrap())
                        .collect();
                    std::format!(
                        "{}/ {}",
                        p.join("/"),
                        core::str::from_utf8(&d.node.kind).unwrap()
                    )
                }
                Item::File(m) => std::format!("{} {}", names(&m), m.size),
            })
            .collect();
        assert_eq!(
            listed,
            [
                "arc/ ROOT",
                "arc/readme.txt 5",
                "arc/bmd/ BMD ",
                "arc/bmd/a.bmd 40",
                "arc/bmd/sub/ SUB ",
                "arc/bmd/sub/deep.bin 4",
                "arc/bmd/empty 0",
            ]
        );
        assert_eq!(archive.member_count(), 4);
        assert_eq!(archive.directory_count(), 3);
        assert_eq!(archive.total_bytes(), 49);
    }
}

#[test]
fn plain_members_are_slices_of_the_archive() {
    let built = write(&sample(), false);
    let archive = parse(&built).unwrap();
    for m in archive.members() {
        let bytes = m.plain().unwrap();
        assert_eq!(bytes.len() as u64, m.size);
        let at = m.stored_at;
        assert_eq!(&built.bytes[at..at + bytes.len()], bytes);
        assert_eq!(at, built.data_at + m.entry.data_offset as usize);
    }
    let deep = archive.find("bmd/sub/deep.bin").unwrap().unwrap();
    assert_eq!(deep.plain(), Some(&b"deep"[..]));
    let mut out = [0u8; 4];
    deep.read_into(&mut out).unwrap();
    assert_eq!(&out, b"deep");
    assert_eq!(
        deep.read_into(&mut [0u8; 3]).unwrap_err().code(),
        ErrorCode::ArenaTooSmall
    );
}

#[test]
fn entries_keep_ids_flags_and_indices() {
    let mut tree = sample();
    if let writer::Child::File(f) = &mut tree.children[0] {
        f.id = Some(77);
        f.flags = 0x21;
    }
    let built = write(&tree, false);
    let archive = parse(&built).unwrap();
    let readme = archive.find("README.TXT").unwrap().unwrap();
    assert_eq!(readme.entry.id, 77);
    assert_eq!(readme.entry.flags, Flags(0x21));
    assert_eq!(readme.entry.index as usize, built.entry_named("readme.txt"));
    assert_eq!(readme.entry.name_hash, writer::hash("readme.txt"));
}

#[test]
fn find_ignores_ascii_case_and_names_only_files() {
    let built = write(&sample(), false);
    let archive = parse(&built).unwrap();
    let found = |p: &str| archive.find(p).unwrap().map(|m| names(&m));
    assert_eq!(
        found("BMD/Sub/DEEP.bin").as_deref(),
        Some("arc/bmd/sub/deep.bin")
    );
    assert_eq!(found("/bmd//a.bmd").as_deref(), Some("arc/bmd/a.bmd"));
    assert_eq!(found("bmd"), None, "a directory is no member");
    assert_eq!(found("bmd/sub/../a.bmd"), None, "`..` matches nothing");
    assert_eq!(found("arc/readme.txt"), None, "paths start below the root");
    assert_eq!(found("nothing"), None);
}

#[test]
fn compressed_members_report_their_decompressed_size_and_decode() {
    let text: Vec<u8> = b"model model model model bytes ".repeat(20);
    let tree = root(
        "arc",
        vec![
            packed_file("a.szs", crate::yaz0::compress(&text), true),
            packed_file("b.szp", crate::yay0::compress(&text), false),
        ],
    );
    let built = write(&tree, false);
    let archive = parse(&built).unwrap();
    let mut seen = 0;
    for m in archive.members() {
        assert_ne!(m.compression(), Compression::None);
        assert_eq!(m.plain(), None);
        assert_eq!(m.size, text.len() as u64);
        let mut out = vec![0u8; m.size as usize];
        m.read_into(&mut out).unwrap();
        assert_eq!(out, text);
        seen += 1;
    }
    assert_eq!(seen, 2);
    assert_eq!(archive.total_bytes(), 2 * text.len() as u64);
}

#[test]
fn a_broken_compressed_member_names_its_offset_in_the_archive() {
    let mut packed = crate::yaz0::compress(&[9u8; 300]);
    packed.truncate(packed.len() - 1);
    let built = write(&root("arc", vec![packed_file("a", packed, true)]), false);
    let archive = parse(&built).unwrap();
    let m = archive.members().next().unwrap();
    let e = m.read_into(&mut [0u8; 300]).unwrap_err();
    assert_eq!(e.code(), ErrorCode::BadYaz0);
    let Location::Binary { offset, .. } = *e.at() else {
        panic!("{e}")
    };
    assert!(offset as usize > built.data_at, "{e}");
    assert!(e.message().starts_with("member 0: "), "{e}");
}

#[test]
fn a_member_flagged_compressed_without_a_stream_header_is_refused() {
    let built = write(
        &root("arc", vec![packed_file("a", b"plain".to_vec(), false)]),
        false,
    );
    let e = parse(&built).unwrap_err();
    assert_eq!(e.code(), ErrorCode::BadYay0);
    assert_eq!(e.at().to_string(), std::format!("{:#x}", built.data_at));
}

// --- hostile archives ---------------------------------------------------

#[test]
fn a_directory_naming_its_own_node_is_a_cycle() {
    let mut built = write(&sample(), false);
    let bmd = built.entry_named("bmd");
    // `bmd` is node 1; its subdirectory entry `sub` is made to name node 1.
    let sub = built.entry_named("sub");
    built.put_u32(built.entry(sub) + 8, 1);
    let e = timed("a directory naming itself", || parse(&built)).unwrap_err();
    assert_eq!(e.code(), ErrorCode::HierarchyTooDeep, "{e}");
    assert!(e.message().contains("a cycle"), "{e}");
    assert_eq!(
        e.at().to_string(),
        std::format!("{:#x}", built.entry(sub) + 8)
    );
    // And one naming the root from below it.
    let mut built = write(&sample(), false);
    built.put_u32(built.entry(sub) + 8, 0);
    assert_eq!(
        parse(&built).unwrap_err().code(),
        ErrorCode::HierarchyTooDeep
    );
    // The root naming itself.
    let mut built = write(&sample(), false);
    built.put_u32(built.entry(bmd) + 8, 0);
    assert_eq!(
        parse(&built).unwrap_err().code(),
        ErrorCode::HierarchyTooDeep
    );
}

#[test]
fn a_directory_entry_past_the_nodes_is_a_bad_offset() {
    let mut built = write(&sample(), false);
    let sub = built.entry_named("sub");
    built.put_u32(built.entry(sub) + 8, 3);
    let e = parse(&built).unwrap_err();
    assert_eq!(
        (e.code(), e.at().to_string()),
        (
            ErrorCode::BadOffset,
            std::format!("{:#x}", built.entry(sub) + 8)
        )
    );
}

#[test]
fn a_member_past_the_end_is_a_bad_offset() {
    let mut built = write(&sample(), false);
    let a = built.entry_named("a.bmd");
    let end = (built.bytes.len() - built.data_at) as u32;
    built.put_u32(built.entry(a) + 8, end - 39);
    let e = timed("a member one byte past the end", || parse(&built)).unwrap_err();
    assert_eq!(
        (e.code(), e.at().to_string()),
        (
            ErrorCode::BadOffset,
            std::format!("{:#x}", built.entry(a) + 8)
        )
    );
    // Its last byte at the archive's last byte is fine.
    built.put_u32(built.entry(a) + 8, end - 40);
    assert!(parse(&built).is_ok());
    // An offset and size whose sum overflows 32 bits.
    built.put_u32(built.entry(a) + 8, u32::MAX);
    built.put_u32(built.entry(a) + 12, u32::MAX);
    assert_eq!(parse(&built).unwrap_err().code(), ErrorCode::BadOffset);
}

#[test]
fn a_node_whose_entries_run_past_the_table_is_a_bad_offset() {
    let mut built = write(&sample(), false);
    let at = built.node(1) + 0x0C;
    built.put_u32(at, u32::MAX - 1);
    let e = parse(&built).unwrap_err();
    assert_eq!(
        (e.code(), e.at().to_string()),
        (ErrorCode::BadOffset, std::format!("{at:#x}"))
    );
}

#[test]
fn a_compressed_member_declaring_2_gib_is_refused_before_anything_is_written() {
    let mut packed = crate::yaz0::compress(b"tiny");
    packed[4..8].copy_from_slice(&0x8000_0000u32.to_be_bytes());
    let built = write(&root("arc", vec![packed_file("huge", packed, true)]), false);
    let e = timed("a member declaring 2 GiB", || parse(&built)).unwrap_err();
    assert_eq!(e.code(), ErrorCode::ArchiveTooLarge, "{e}");
    assert!(e.message().contains("2147483648"), "{e}");
    // Allowed by a caller who raises the limit, it is still only a size:
    // the caller decides whether to find 2 GiB for it.
    let limits = RarcLimits {
        max_total_bytes: 1 << 31,
        ..RarcLimits::DEFAULT
    };
    let archive = Archive::parse(&built.bytes, &limits).unwrap();
    assert_eq!(archive.members().next().unwrap().size, 1 << 31);
}

#[test]
fn a_directory_reached_through_many_entries_cannot_multiply_the_work() {
    // Three root entries name node 1, which holds 1000 files: the second
    // visit would read more entries than the table holds.
    let files: Vec<_> = (0..1000)
        .map(|i| file(&std::format!("f{i}"), b""))
        .collect();
    let tree = root(
        "arc",
        vec![dir("a", files), dir("b", vec![]), dir("c", vec![])],
    );
    let mut built = write(&tree, false);
    for name in ["b", "c"] {
        let at = built.entry(built.entry_named(name)) + 8;
        built.put_u32(at, 1);
    }
    let e = timed("one directory of 1000 files reached three times", || {
        parse(&built)
    })
    .unwrap_err();
    assert_eq!(e.code(), ErrorCode::TooManyNodes, "{e}");
    assert!(e.message().contains("a second time"), "{e}");
}

#[test]
fn the_root_must_be_of_type_root() {
    let mut built = write(&sample(), false);
    let at = built.node(0);
    built.bytes[at..at + 4].copy_from_slice(b"ROOF");
    let e = parse(&built).unwrap_err();
    assert_eq!(
        (e.code(), e.at().to_string()),
        (ErrorCode::BadValue, std::format!("{at:#x}"))
    );
}

#[test]
fn a_node_name_outside_the_string_table_is_a_bad_offset() {
    let mut built = write(&sample(), false);
    let at = built.node(2) + 4;
    built.put_u32(at, 0x0100_0000);
    let e = parse(&built).unwrap_err();
    assert_eq!(
        (e.code(), e.at().to_string()),
        (ErrorCode::BadOffset, std::format!("{at:#x}"))
    );
}

#[test]
fn every_prefix_fails_and_every_byte_change_is_survived() {
    let built = write(&sample(), false);
    for cut in 0..built.bytes.len() {
        assert!(
            Archive::parse(&built.bytes[..cut], &RarcLimits::DEFAULT).is_err(),
            "{cut}"
        );
    }
    let mut bytes = built.bytes.clone();
    for at in 0..built.data_at {
        for v in [0x00, 0x01, 0x7F, 0xFF] {
            let old = bytes[at];
            bytes[at] = v;
            if let Ok(a) = Archive::parse(&bytes, &RarcLimits::DEFAULT) {
                // Whatever parsed walks to its end with what it counted.
                assert_eq!(a.members().count(), a.member_count());
                for m in a.members() {
                    let mut out = vec![0u8; m.size as usize];
                    let _ = m.read_into(&mut out);
                }
            }
            bytes[at] = old;
        }
    }
}

// --- limits, each at its value and one past -----------------------------

fn limited(built: &Built, limits: RarcLimits) -> Result<Archive<'_>, ErrorCode> {
    Archive::parse(&built.bytes, &limits).map_err(|e| e.code())
}

#[test]
fn max_depth_counts_directories_from_the_root() {
    let built = write(&sample(), false);
    let at = |d| RarcLimits {
        max_depth: d,
        ..RarcLimits::DEFAULT
    };
    assert!(limited(&built, at(3)).is_ok());
    assert_eq!(
        limited(&built, at(2)).unwrap_err(),
        ErrorCode::HierarchyTooDeep
    );
}

#[test]
fn depth_never_passes_the_walks_stack() {
    let mut tree = root("arc", vec![file("leaf", b"x")]);
    for i in 0..DEPTH_CAP {
        tree = root("arc", vec![dir(&std::format!("d{i}"), tree.children)]);
    }
    // DEPTH_CAP directories under the root: one too many for the stack.
    let built = write(&tree, false);
    let unlimited = RarcLimits {
        max_depth: u64::MAX,
        ..RarcLimits::DEFAULT
    };
    assert_eq!(
        limited(&built, unlimited).unwrap_err(),
        ErrorCode::HierarchyTooDeep
    );
    let mut shallower = root("arc", vec![file("leaf", b"x")]);
    for i in 0..DEPTH_CAP - 1 {
        shallower = root("arc", vec![dir(&std::format!("d{i}"), shallower.children)]);
    }
    let built = write(&shallower, false);
    let archive = limited(&built, unlimited).unwrap();
    let leaf = archive.members().next().unwrap();
    assert_eq!(leaf.dirs.len(), DEPTH_CAP);
}

#[test]
fn max_name_bytes_bounds_every_name() {
    let built = write(&sample(), false);
    let at = |n| RarcLimits {
        max_name_bytes: n,
        ..RarcLimits::DEFAULT
    };
    // The longest name is "readme.txt", 10 bytes.
    assert!(limited(&built, at(10)).is_ok());
    assert_eq!(limited(&built, at(9)).unwrap_err(), ErrorCode::NameTooLong);
}

#[test]
fn max_total_bytes_counts_every_member() {
    let built = write(&sample(), false);
    let at = |n| RarcLimits {
        max_total_bytes: n,
        ..RarcLimits::DEFAULT
    };
    assert!(limited(&built, at(49)).is_ok());
    assert_eq!(
        limited(&built, at(48)).unwrap_err(),
        ErrorCode::ArchiveTooLarge
    );
}

#[test]
fn max_members_and_max_nodes_bound_the_tables() {
    let built = write(&sample(), false);
    // Entries: 2 + 2 in the root, 3 + 2 in bmd, 1 + 2 in sub.
    let at = |members, nodes| RarcLimits {
        max_members: members,
        max_nodes: nodes,
        ..RarcLimits::DEFAULT
    };
    assert!(limited(&built, at(12, 3)).is_ok());
    assert_eq!(
        limited(&built, at(11, 3)).unwrap_err(),
        ErrorCode::TooManyMembers
    );
    assert_eq!(
        limited(&built, at(12, 2)).unwrap_err(),
        ErrorCode::TooManyNodes
    );
}

#[test]
fn a_hundred_thousand_empty_members_are_refused_by_the_header_or_read_fast() {
    // A node holds at most 65 535 entries (a u16 count): ten directories.
    let dirs: Vec<_> = (0..10)
        .map(|d| {
            let files = (0..10_000)
                .map(|i| file(&std::format!("{i}"), b""))
                .collect();
            dir(&std::format!("d{d}"), files)
        })
        .collect();
    let built = write(&root("arc", dirs), false);
    assert_eq!(
        limited(&built, RarcLimits::DEFAULT).unwrap_err(),
        ErrorCode::TooManyMembers
    );
    let raised = RarcLimits {
        max_members: 200_000,
        ..RarcLimits::DEFAULT
    };
    // Timed for docs/security.md, not asserted: tests do not time.
    let start = std::time::Instant::now();
    let refused = limited(&built, RarcLimits::DEFAULT).unwrap_err();
    let refused_in = start.elapsed();
    let archive = limited(&built, raised).unwrap();
    let parsed_in = start.elapsed() - refused_in;
    assert_eq!(refused, ErrorCode::TooManyMembers);
    assert_eq!(archive.member_count(), 100_000);
    assert_eq!(archive.members().filter(|m| m.size == 0).count(), 100_000);
    std::eprintln!(
        "100 000 empty members ({} bytes): refused in {refused_in:?}, parsed in {parsed_in:?}, walked in {:?}",
        built.bytes.len(),
        start.elapsed() - refused_in - parsed_in
    );
}

#[test]
fn yaz0_wrapped_archives_unwrap_within_max_archive_bytes() {
    let built = write(&sample(), false);
    let packed = crate::yaz0::compress(&built.bytes);
    let len = unwrapped_len(&packed, &RarcLimits::DEFAULT).unwrap();
    assert_eq!(len, built.bytes.len());
    let mut out = vec![0u8; len];
    let bytes = unwrap_into(&packed, &RarcLimits::DEFAULT, &mut out).unwrap();
    assert_eq!(parse_bytes(bytes).member_count(), 4);
    let tight = RarcLimits {
        max_archive_bytes: len as u64 - 1,
        ..RarcLimits::DEFAULT
    };
    assert_eq!(
        unwrapped_len(&packed, &tight).unwrap_err().code(),
        ErrorCode::ArchiveTooLarge
    );
    assert_eq!(
        unwrapped_len(&built.bytes, &RarcLimits::DEFAULT).unwrap(),
        0
    );
}

fn parse_bytes(bytes: &[u8]) -> Archive<'_> {
    Archive::parse(bytes, &RarcLimits::DEFAULT).unwrap()
}
