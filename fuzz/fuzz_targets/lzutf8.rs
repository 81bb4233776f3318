//! Fuzz target: see `checks::lzutf8` in fuzz/checks.rs for the property.

#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::lzutf8(data));
