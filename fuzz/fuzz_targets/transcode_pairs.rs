//! libFuzzer entry point for [`placemat_fuzz::transcode_pairs`] (see `fuzz/src/lib.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| placemat_fuzz::transcode_pairs(data));
