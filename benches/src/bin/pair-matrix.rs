//! `pair-matrix`: measures the transcoding engine against the per-value path
//! for every pair of built-in codecs and writes the matrix into
//! `papers/benchmarks.md`, between its markers (`placemat_cli::report::pairs`),
//! or as a new section before "Figures" if the page has none.
//!
//! ```text
//! cargo run --release -p placemat-benches --bin pair-matrix                  # 256 KiB of `mixed`
//! cargo run --release -p placemat-benches --bin pair-matrix -- --kib 64 --papers DIR
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use placemat_cli::report::pairs;
use placemat_variants::{corpus, registry};

/// The corpus the pairs convert.
const CORPUS: &str = "mixed";

fn main() -> ExitCode {
    let (mut kib, mut papers) = (256usize, PathBuf::from("papers"));
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next();
        match (a.as_str(), value.as_deref().map(|v| (v, v.parse::<usize>()))) {
            ("--kib", Some((_, Ok(k)))) if k > 0 => kib = k,
            ("--papers", Some((v, _))) => papers = v.into(),
            _ => {
                eprintln!("usage: pair-matrix [--kib N] [--papers DIR]");
                return ExitCode::FAILURE;
            }
        }
    }
    let Some(text) = corpus::by_name(CORPUS) else {
        eprintln!("pair-matrix: no corpus `{CORPUS}`");
        return ExitCode::FAILURE;
    };
    // The first values whose UTF-8 fills `kib` KiB.
    let mut bytes = 0;
    let values: Vec<u64> = text
        .chars()
        .take_while(|c| {
            bytes += c.len_utf8();
            bytes <= kib << 10
        })
        .map(u64::from)
        .collect();
    eprintln!("pair-matrix: {} pairs on {} values", registry::all().len().pow(2), values.len());
    let matrix = pairs::measure(registry::all(), &values, 20);
    let what = format!("the first {kib} KiB (in UTF-8) of the `{CORPUS}` corpus ({} values)", values.len());
    let block = pairs::render(&matrix, &what);
    let path = papers.join("benchmarks.md");
    let page = std::fs::read_to_string(&path).unwrap_or_default();
    let page = pairs::written_into(&page, &block);
    if let Err(e) = std::fs::write(&path, page) {
        eprintln!("pair-matrix: cannot write {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    println!("wrote {}", path.display());
    ExitCode::SUCCESS
}
