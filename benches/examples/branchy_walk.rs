//! An experiment behind `benchmarks.md`'s account of the table decoder against
//! Hoehrmann's: a walk over utf8's own expanded table that decodes one value at
//! a time, branching where a sequence ends as Hoehrmann's C decoder does, so
//! that a predicted branch lets the processor start the next value before the
//! last one's chain of loads is done.
//!
//! ```text
//! cargo run --release -p placemat-benches --example branchy_walk [REPETITIONS]
//! ```
//!
//! It prints, per corpus, the time of Hoehrmann's decoder divided by the
//! branching walk's and by the table decoder's (two branch-free walks side by
//! side), each the fastest of the repetitions (30 unless given). A quick look,
//! not a measurement to report beside criterion's.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use placemat_benches::hoehrmann;
use placemat_codec::dfa::{expanded::ROW, Rows};
use placemat_variants::{corpus, registry};

/// Decodes valid `input` a value at a time; false on invalid or cut input.
#[inline(never)]
fn branchy(table: Rows<'_>, input: &[u8], out: &mut Vec<u32>) -> bool {
    out.clear();
    out.reserve(input.len());
    let mut i = 0;
    'values: while i < input.len() {
        // Every value starts at the start row: no chain from the last one.
        let (mut state, mut v) = table.step(ROW, input[i]);
        i += 1;
        while state != ROW {
            if state == 0 || i == input.len() {
                break 'values;
            }
            let (next, placed) = table.step(state, input[i]);
            i += 1;
            v = v.wrapping_add(placed);
            state = next;
        }
        out.push(v as u32);
    }
    i == input.len()
}

/// The fastest of `reps` runs of `f`.
fn fastest(reps: u32, mut f: impl FnMut()) -> Duration {
    (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() -> ExitCode {
    let reps = std::env::args().nth(1).map_or(Ok(30), |r| r.parse::<u32>());
    let (Ok(reps), Some(codec)) = (reps, registry::find("utf8")) else {
        eprintln!("usage: branchy_walk [REPETITIONS]");
        return ExitCode::FAILURE;
    };
    let dfa = codec.dfa();
    let Some(table) = dfa.expanded() else {
        eprintln!("branchy_walk: utf8 has no expanded table");
        return ExitCode::FAILURE;
    };
    println!("{:16} {:>22} {:>22}", "corpus", "hoehrmann / branching", "hoehrmann / table");
    for name in corpus::NAMES {
        let Some(text) = corpus::by_name(name) else { continue };
        let bytes: Vec<u8> = text.chars().collect::<String>().into_bytes();
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        let walk = fastest(reps, || assert!(branchy(table, black_box(&bytes), &mut a)));
        let baseline = fastest(reps, || assert!(hoehrmann::decode_into(black_box(&bytes), &mut b).is_ok()));
        let tables = fastest(reps, || {
            c.clear();
            assert!(dfa.decode_table_into::<u32>(black_box(&bytes), &mut c).is_ok());
        });
        assert!(a == b && b == c, "{name}: the decoders disagree");
        let ratio = |d: Duration| baseline.as_secs_f64() / d.as_secs_f64();
        println!("{name:16} {:>22.2} {:>22.2}", ratio(walk), ratio(tables));
    }
    ExitCode::SUCCESS
}
