//! Normals already turned by the current draw matrix. Under one draw
//! matrix a normal index gives one turned and normalised normal however
//! many vertices name it (neighbouring faces share normals), and turning one
//! costs a square root and three divisions in f64: a repeat is copied
//! instead, bit for bit what turning it again gives.

/// Slots of the normal table (a power of two; indices are taken modulo it).
const NORMAL_SLOTS: usize = 64;

/// Normals already turned by the current draw matrix, by normal key
/// ([`NormalTable::key`]), direct-mapped.
#[derive(Clone, Debug)]
pub(super) struct NormalTable {
    keys: [u32; NORMAL_SLOTS],
    /// The generation each slot was written in; only the current one counts.
    generations: [u32; NORMAL_SLOTS],
    values: [[f32; 3]; NORMAL_SLOTS],
    generation: u32,
}

impl Default for NormalTable {
    fn default() -> Self {
        Self {
            keys: [0; NORMAL_SLOTS],
            generations: [0; NORMAL_SLOTS],
            values: [[0.0; 3]; NORMAL_SLOTS],
            generation: 1,
        }
    }
}

impl NormalTable {
    /// The key of normal `index` (a display-list index, below 2^16) of the
    /// NBT array (`nbt`) or the NRM one.
    #[inline(always)]
    pub(super) fn key(index: u32, nbt: bool) -> u32 {
        (index & 0xFFFF) | (u32::from(nbt) << 16)
    }

    /// Forgets every entry: the draw matrix changed.
    pub(super) fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.generations = [0; NORMAL_SLOTS];
            self.generation = 1;
        }
    }

    /// The normal stored for `key`, or `turn()` stored and returned.
    #[inline(always)]
    pub(super) fn get_or(&mut self, key: u32, turn: impl FnOnce() -> [f32; 3]) -> [f32; 3] {
        let slot = key as usize & (NORMAL_SLOTS - 1);
        if let (Some(k), Some(g), Some(v)) = (
            self.keys.get_mut(slot),
            self.generations.get_mut(slot),
            self.values.get_mut(slot),
        ) {
            if *g == self.generation && *k == key {
                return *v;
            }
            let normal = turn();
            (*k, *g, *v) = (key, self.generation, normal);
            return normal;
        }
        turn()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normals_are_turned_once_per_key_until_cleared() {
        let mut table = NormalTable::default();
        let turns = core::cell::Cell::new(0);
        let get = |table: &mut NormalTable, key, value: f32| {
            table.get_or(key, || {
                turns.set(turns.get() + 1);
                [value; 3]
            })
        };
        assert_eq!(get(&mut table, 5, 1.0), [1.0; 3]);
        assert_eq!(get(&mut table, 5, 2.0), [1.0; 3]);
        // Same slot, other key (NBT, or 64 further): turned again.
        assert_eq!(get(&mut table, NormalTable::key(5, true), 3.0), [3.0; 3]);
        assert_eq!(get(&mut table, 5 + 64, 4.0), [4.0; 3]);
        table.clear();
        assert_eq!(get(&mut table, 5 + 64, 5.0), [5.0; 3]);
        assert_eq!(turns.get(), 4);
        // The generation wraps without reviving old entries.
        table.generation = u32::MAX;
        table.clear();
        assert_eq!(get(&mut table, 5 + 64, 6.0), [6.0; 3]);
        assert_eq!(turns.get(), 5);
    }
}
