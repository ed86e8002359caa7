//! The fuzz targets' bodies (`fuzz/src/lib.rs`) on stable: each target runs over
//! its checked-in seeds in `fuzz/seeds/<target>/` and over a few hundred random
//! inputs, so the targets keep compiling and their checks keep holding without
//! nightly or libFuzzer. Crashes found by fuzzing are added to the seeds (named
//! `crash-…`), which makes each one a regression test here.

#[path = "../../../fuzz/src/lib.rs"]
pub(crate) mod targets;

use std::path::PathBuf;

use proptest::prelude::*;

fn seeds(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds").join(target);
    let mut out: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("seed directory {}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("readable directory entry").path();
            let data = std::fs::read(&path).expect("readable seed");
            (path, data)
        })
        .collect();
    out.sort();
    assert!(out.len() >= 3, "{}: too few seeds", dir.display());
    out
}

fn run_seeds(target: &str, f: fn(&[u8])) {
    for (path, data) in seeds(target) {
        let result = std::panic::catch_unwind(|| f(&data));
        assert!(result.is_ok(), "fuzz target `{target}` fails on seed {}", path.display());
    }
}

#[test]
fn decoders_seeds() {
    run_seeds("decoders", targets::decoders);
}

#[test]
fn utf8_std_seeds() {
    run_seeds("utf8_std", targets::utf8_std);
}

#[test]
fn simd_seeds() {
    run_seeds("simd", targets::simd);
}

#[test]
fn stream_seeds() {
    run_seeds("stream", targets::stream);
}

#[test]
fn transcode_pairs_seeds() {
    run_seeds("transcode_pairs", targets::transcode_pairs);
}

#[test]
fn round_trip_seeds() {
    run_seeds("round_trip", targets::round_trip);
}

#[test]
fn description_seeds() {
    run_seeds("description", targets::description);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn decoders_random(data in proptest::collection::vec(any::<u8>(), 0..48)) {
        targets::decoders(&data);
    }

    #[test]
    fn utf8_std_random(data in proptest::collection::vec(any::<u8>(), 0..64)) {
        targets::utf8_std(&data);
    }

    #[test]
    fn simd_random(data in proptest::collection::vec(any::<u8>(), 0..200)) {
        targets::simd(&data);
    }

    #[test]
    fn stream_random(data in proptest::collection::vec(any::<u8>(), 0..64)) {
        targets::stream(&data);
    }

    #[test]
    fn transcode_pairs_random(data in proptest::collection::vec(any::<u8>(), 0..300)) {
        targets::transcode_pairs(&data);
    }

    #[test]
    fn round_trip_random(data in proptest::collection::vec(any::<u8>(), 0..64)) {
        targets::round_trip(&data);
    }

    #[test]
    fn description_random(data in proptest::collection::vec(any::<u8>(), 0..256)) {
        targets::description(&data);
    }
}
