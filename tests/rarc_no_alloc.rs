//! Reading an archive allocates nothing: unwrapping into caller memory,
//! `parse`, the walk, `find` and `read_into` (plain and compressed
//! members), proved with the counting allocator on every corpus archive
//! and on built ones with Yaz0 and Yay0 members.

mod support;

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

#[path = "support/rarc_writer.rs"]
mod rarc_writer;

use counting_alloc::allocations;
use scenedec::RarcLimits;
use scenedec::rarc::{self, Archive};

fn archives() -> Vec<(String, Vec<u8>)> {
    let text = b"model bytes model bytes model bytes ".repeat(8);
    let tree = rarc_writer::root(
        "arc",
        vec![
            rarc_writer::file("plain", b"plain"),
            rarc_writer::dir(
                "packed",
                vec![
                    rarc_writer::packed_file("a", scenedec::yaz0::compress(&text), true),
                    rarc_writer::packed_file("b", scenedec::yay0::compress(&text), false),
                ],
            ),
        ],
    );
    let built = rarc_writer::write(&tree, false).bytes;
    let mut all = vec![
        ("built".to_string(), built.clone()),
        ("built, Yaz0".to_string(), scenedec::yaz0::compress(&built)),
        (
            "built, CRAR".to_string(),
            rarc_writer::write(&tree, true).bytes,
        ),
    ];
    for path in support::corpus_files("rarc", &[".arc", ".szs"]) {
        all.push((path.display().to_string(), std::fs::read(&path).unwrap()));
    }
    all
}

#[test]
fn reading_an_archive_makes_no_heap_allocation() {
    let limits = RarcLimits::DEFAULT;
    let mut checked = 0;
    for (name, bytes) in archives() {
        // Caller memory, sized before the counted section as a caller would.
        let len = rarc::unwrapped_len(&bytes, &limits).unwrap();
        let mut unwrapped = vec![0u8; len];
        let mut member = vec![0u8; 1 << 20];
        let (members, sizes) = allocations(|| {
            let data = rarc::unwrap_into(&bytes, &limits, &mut unwrapped).unwrap();
            let archive = Archive::parse(data, &limits).unwrap();
            let mut n = 0;
            for m in archive.members() {
                let size = usize::try_from(m.size).unwrap();
                m.read_into(&mut member[..size]).unwrap();
                let below = m.path().skip(1).map(|p| std::str::from_utf8(p).unwrap());
                // A path of a few names, joined on the stack.
                let mut path = heapless::String::<512>::new();
                for (i, part) in below.enumerate() {
                    if i > 0 {
                        path.push('/').unwrap();
                    }
                    path.push_str(part).unwrap();
                }
                let found = archive.find(&path).unwrap().unwrap();
                assert_eq!(found.entry.index, m.entry.index);
                n += 1;
            }
            n
        });
        assert_eq!(sizes, Vec::<usize>::new(), "{name} allocated");
        assert!(members > 0, "{name}");
        checked += 1;
    }
    assert!(checked >= 3);
}

#[test]
fn the_counter_sees_allocations_in_this_binary() {
    let (v, sizes) = allocations(|| vec![7u8; 10]);
    assert_eq!(v.len(), 10);
    assert_eq!(sizes, [10]);
}
