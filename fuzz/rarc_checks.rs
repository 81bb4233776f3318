//! The `rarc` target's property, shared with `tests/fuzz_regressions.rs`
//! (beside `checks.rs`, which holds the other targets').

use alloc::vec;

use scenedec::RarcLimits;
use scenedec::rarc::{Archive, Compression, Item};

/// RARC: parsing never panics; an archive that parses walks to its end
/// with the counts `parse` reported, each directory before its contents;
/// every member's plain bytes are its size; every member reads into a
/// buffer of its size or fails with a typed error; `find` on a member's
/// own path finds a member of that name (any case). Sizes are capped by a
/// small `max_total_bytes` (the fuzzer's memory, not the library's bound).
pub fn rarc(data: &[u8]) {
    let limits = RarcLimits {
        max_total_bytes: 1 << 22,
        ..RarcLimits::DEFAULT
    };
    let Ok(archive) = Archive::parse(data, &limits) else {
        return;
    };
    let (mut members, mut dirs, mut total) = (0usize, 0usize, 0u64);
    let mut open_depth = 0usize;
    for item in archive.walk() {
        match item {
            Item::Directory(d) => {
                dirs += 1;
                assert!(
                    d.path.len() <= open_depth + 1,
                    "a directory opens below its parent"
                );
                open_depth = d.path.len();
            }
            Item::File(m) => {
                members += 1;
                total += m.size;
                assert!(
                    m.dirs.len() <= open_depth,
                    "a file sits in an open directory"
                );
            }
        }
    }
    assert_eq!(members, archive.member_count());
    assert_eq!(dirs, archive.directory_count());
    assert_eq!(total, archive.total_bytes());
    for m in archive.members() {
        if let Some(plain) = m.plain() {
            assert_eq!(m.compression(), Compression::None);
            assert_eq!(plain.len() as u64, m.size);
        }
        let mut out = vec![0u8; m.size as usize];
        if m.read_into(&mut out).is_ok() && m.compression() == Compression::None {
            assert_eq!(Some(&out[..]), m.plain());
        }
        let below: Option<alloc::vec::Vec<&str>> = m
            .path()
            .skip(1)
            .map(|p| core::str::from_utf8(p).ok())
            .collect();
        if let Some(parts) = below {
            let path = parts.join("/");
            let found = archive.find(&path).expect("find cannot fail after parse");
            if let Some(found) = found {
                let last = path.rsplit('/').next().unwrap_or("");
                assert!(found.name().eq_ignore_ascii_case(last.as_bytes()) || last.is_empty());
            }
        }
    }
}
