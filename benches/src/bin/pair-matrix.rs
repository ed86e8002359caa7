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

use placemat_cli::report::benchmarks::simd_figures::splice_between;
use placemat_cli::report::pairs::{self, BEGIN, END};
use placemat_variants::{corpus, registry};

/// The corpus the pairs convert.
const CORPUS: &str = "mixed";

fn main() -> ExitCode {
    let (mut kib, mut papers) = (256usize, PathBuf::from("papers"));
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next();
        match (a.as_str(), value) {
            ("--kib", Some(v)) if v.parse::<usize>().is_ok_and(|k| k > 0) => kib = v.parse().unwrap_or(kib),
            ("--papers", Some(v)) => papers = v.into(),
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
    let page = splice_between(&page, BEGIN, END, &block).unwrap_or_else(|| match page.find("## Figures") {
        Some(at) => format!("{}{}\n{}", &page[..at], pairs::section(&block), &page[at..]),
        None => format!("{page}\n{}", pairs::section(&block)),
    });
    if let Err(e) = std::fs::write(&path, page) {
        eprintln!("pair-matrix: cannot write {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    println!("wrote {}", path.display());
    ExitCode::SUCCESS
}
