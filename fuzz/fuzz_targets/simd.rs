//! libFuzzer entry point for [`placemat_fuzz::simd`] (see `fuzz/src/lib.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| placemat_fuzz::simd(data));
