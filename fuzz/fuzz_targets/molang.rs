//! Fuzz target: see `molang_checks::molang` in fuzz/molang_checks.rs for the property.

#![no_main]

extern crate alloc;

#[path = "../molang_checks.rs"]
mod molang_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| molang_checks::molang(data));
