//! A loop around the transcoder on one built-in corpus, to run under `perf
//! record` or to compare two builds (the A/B figures of
//! `papers/transcoding.md`: build each commit, copy the binary aside, run the
//! two alternately and take medians):
//!
//! ```text
//! cargo build --release -p placemat-benches --example transcode_profile
//! ./target/release/examples/transcode_profile utf16le utf8 russian 2000 [PUSH]
//! ```
//!
//! The corpus is encoded in the source codec, then converted `repetitions`
//! times into the target (strict), in one call (`transcode_into`) or, with
//! `PUSH`, by a `Transcoder` fed `PUSH` bytes at a time. It prints the
//! throughput in GB/s of the source's bytes; criterion and `placemat bench`
//! are the measurements to report.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use placemat_codec::io::{transcode_into, ErrorMode, TranscodeError, Transcoder};
use placemat_codec::DynCodec;
use placemat_variants::{corpus, registry};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (from, to, text, reps, push) = match &args[..] {
        [from, to, text, reps] => (from, to, text, reps, None),
        [from, to, text, reps, push] => (from, to, text, reps, Some(push)),
        _ => {
            eprintln!("usage: transcode_profile <from> <to> <corpus> <repetitions> [push bytes]");
            return ExitCode::FAILURE;
        }
    };
    let (Some(from), Some(to), Some(text)) = (registry::find(from), registry::find(to), corpus::by_name(text)) else {
        eprintln!("transcode_profile: unknown codec or corpus");
        return ExitCode::FAILURE;
    };
    let (Ok(reps), Ok(push)) = (reps.parse::<u32>(), push.map_or(Ok(0), |p| p.parse::<usize>())) else {
        eprintln!("transcode_profile: a bad count");
        return ExitCode::FAILURE;
    };
    let mut input = Vec::new();
    for c in text.chars() {
        if from.encode_push(u64::from(c), &mut input).is_err() {
            eprintln!("transcode_profile: {} cannot encode U+{:04X}", from.info().name, u32::from(c));
            return ExitCode::FAILURE;
        }
    }
    let mut out = Vec::with_capacity(4 * input.len());
    let start = Instant::now();
    for _ in 0..reps {
        out.clear();
        if let Err(e) = convert(from, to, black_box(&input), push, &mut out) {
            eprintln!("transcode_profile: {e}");
            return ExitCode::FAILURE;
        }
        black_box(&out);
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{:.2} GB/s", input.len() as f64 * f64::from(reps) / secs / 1e9);
    ExitCode::SUCCESS
}

/// `input` from `from` into `to`, in one call or in pushes of `push` bytes.
fn convert(from: &dyn DynCodec, to: &dyn DynCodec, input: &[u8], push: usize, out: &mut Vec<u8>) -> Result<(), String> {
    let shown = |e: TranscodeError| e.to_string();
    if push == 0 {
        return transcode_into(from, to, ErrorMode::Strict, input, out).map_err(shown);
    }
    let mut t = Transcoder::new(from, to, ErrorMode::Strict).map_err(|_| "no transcoder for the pair".to_string())?;
    input.chunks(push).try_for_each(|piece| t.push(piece, out)).map_err(shown)?;
    t.finish(out).map_err(shown)
}
