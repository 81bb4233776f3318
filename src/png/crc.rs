//! CRC-32 (ISO 3309, the PNG chunk checksum), through crc32fast: carry-less
//! multiplication where the CPU has it (detected at run time when std is
//! linked, as in any build with the png crate; else where the target
//! enables it), slicing by 16 elsewhere. Over incompressible image data the
//! CRC is as large a cost as inflate, so its speed matters.

/// The CRC of no bytes: where a running CRC starts.
pub const START: u32 = 0;

/// The CRC of the bytes behind `crc` followed by `data`.
pub fn update(crc: u32, data: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new_with_initial(crc);
    hasher.update(data);
    hasher.finalize()
}

/// The CRC value of a running CRC (the state is the value itself).
pub const fn finish(crc: u32) -> u32 {
    crc
}

/// CRC-32 of `data` in one call.
pub fn of(data: &[u8]) -> u32 {
    crc32fast::hash(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_matches_the_check_value_and_any_split() {
        assert_eq!(of(b"123456789"), 0xCBF4_3926);
        assert_eq!(of(b"IEND"), 0xAE42_6082);
        let data: std::vec::Vec<u8> = (0..1000u32).map(|i| (i * 7 + 3) as u8).collect();
        for split in [0, 1, 5, 8, 13, 999, 1000] {
            let (a, b) = data.split_at(split);
            assert_eq!(finish(update(update(START, a), b)), of(&data));
        }
    }
}
