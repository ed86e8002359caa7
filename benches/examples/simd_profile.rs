//! A loop around one codec's SIMD validator on one built-in corpus, to run
//! under `perf record` (the profile behind `benchmarks.md`'s account of the
//! SIMD targets):
//!
//! ```text
//! cargo build --release -p placemat-benches --example simd_profile
//! perf record ./target/release/examples/simd_profile fss-utf-plan9 emoji 20000
//! ```
//!
//! It prints the throughput in GB/s of the codec's bytes, for a quick A/B of
//! two builds; criterion and `placemat bench` are the measurements to report.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use placemat_codec::simd::Isa;
use placemat_variants::{corpus, registry};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [codec, text, reps] = &args[..] else {
        eprintln!("usage: simd_profile <codec> <corpus> <repetitions>");
        return ExitCode::FAILURE;
    };
    let (Some(codec), Some(text), Ok(reps)) = (registry::find(codec), corpus::by_name(text), reps.parse::<u32>())
    else {
        eprintln!("simd_profile: unknown codec or corpus, or a bad count");
        return ExitCode::FAILURE;
    };
    let mut bytes = Vec::new();
    for c in text.chars() {
        if codec.encode_push(u64::from(c), &mut bytes).is_err() {
            eprintln!("simd_profile: {} cannot encode U+{:04X}", codec.info().name, u32::from(c));
            return ExitCode::FAILURE;
        }
    }
    let (Some(isa), Some(_)) = (Isa::detect(), codec.dfa().simd()) else {
        eprintln!("simd_profile: no SIMD validator for {} on this machine", codec.info().name);
        return ExitCode::FAILURE;
    };
    let dfa = codec.dfa();
    let start = Instant::now();
    for _ in 0..reps {
        assert_eq!(dfa.validate_simd(isa, black_box(&bytes)), Some(Ok(())));
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{:.2} GB/s", bytes.len() as f64 * f64::from(reps) / secs / 1e9);
    ExitCode::SUCCESS
}
