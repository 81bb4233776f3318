//! Fuzz target: see `j3d_anim_checks::j3d_anim` in fuzz/j3d_anim_checks.rs for the property.

#![no_main]

#[path = "../j3d_anim_checks.rs"]
mod j3d_anim_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| j3d_anim_checks::j3d_anim(data));
