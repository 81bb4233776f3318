//! Fuzz target: see `rarc_checks::rarc` in fuzz/rarc_checks.rs for the property.

#![no_main]

extern crate alloc;

#[path = "../rarc_checks.rs"]
mod rarc_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| rarc_checks::rarc(data));
