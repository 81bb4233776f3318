//! Fuzz target: see `checks::j3d_anim` in fuzz/checks.rs for the property.

#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::j3d_anim(data));
