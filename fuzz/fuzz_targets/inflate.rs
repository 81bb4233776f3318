//! Fuzz target: see `checks::inflate` in fuzz/checks.rs for the property.

#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::inflate(data));
