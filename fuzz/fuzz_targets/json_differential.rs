//! Fuzz target: see `checks::json_differential` in fuzz/checks.rs for the property.

#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::json_differential(data));
