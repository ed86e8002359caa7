//! `bench-report`: writes `papers/benchmarks.md` and `papers/figures/*.svg` from
//! criterion's saved results.
//!
//! ```text
//! cargo run --release -p placemat-benches --bin bench-report -- --run    # bench, then write
//! cargo run --release -p placemat-benches --bin bench-report             # write from saved results
//! ```
//!
//! Options: `--run` runs `cargo bench -p placemat-benches --features criterion --bench codecs` first
//! (with `--quick`, in the short mode of `PLACEMAT_BENCH_QUICK=1`);
//! `--criterion DIR` reads results from DIR (default: `$CARGO_TARGET_DIR/criterion`
//! or `target/criterion`); `--papers DIR` writes there (default: `papers/`).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use placemat_cli::report::benchmarks::{self as report, CorpusInfo, Machine};
use placemat_variants::corpus;

struct Options {
    run: bool,
    quick: bool,
    criterion: Option<PathBuf>,
    papers: Option<PathBuf>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut o = Options { run: false, quick: false, criterion: None, papers: None };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--run" => o.run = true,
            "--quick" => o.quick = true,
            "--criterion" => o.criterion = Some(args.next().ok_or("--criterion needs a directory")?.into()),
            "--papers" => o.papers = Some(args.next().ok_or("--papers needs a directory")?.into()),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(o)
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("bench-report: {e}");
            }
            eprintln!("usage: bench-report [--run [--quick]] [--criterion DIR] [--papers DIR]");
            return ExitCode::from(2);
        }
    };
    let workspace =
        Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("benches/ is inside the workspace").to_path_buf();
    if options.run {
        let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cmd.args(["bench", "-p", "placemat-benches", "--features", "criterion", "--bench", "codecs"])
            .current_dir(&workspace);
        if options.quick {
            cmd.env("PLACEMAT_BENCH_QUICK", "1");
        }
        eprintln!("bench-report: running `{}`", report::BENCH_COMMAND);
        match cmd.status() {
            Ok(s) if s.success() => {}
            Ok(s) => {
                eprintln!("bench-report: the benchmarks failed ({s})");
                return ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("bench-report: cannot run cargo: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let criterion = options.criterion.unwrap_or_else(|| report::default_criterion_dir(&workspace));
    let results = match report::load(&criterion) {
        Ok(r) if !r.is_empty() => r,
        Ok(_) => {
            eprintln!("bench-report: no results under {}; run with --run", criterion.display());
            return ExitCode::FAILURE;
        }
        Err(e) => {
            eprintln!("bench-report: cannot read {}: {e}", criterion.display());
            return ExitCode::FAILURE;
        }
    };
    let corpora: Vec<CorpusInfo> = corpus::all()
        .iter()
        .map(|c| CorpusInfo {
            name: c.name.to_string(),
            summary: c.summary.to_string(),
            utf8_bytes: c.utf8_len(),
            chars: c.text.len(),
        })
        .collect();
    let papers = options.papers.unwrap_or_else(|| workspace.join("papers"));
    match report::write_report(&results, &Machine::detect(&workspace), &corpora, &papers) {
        Ok(path) => {
            println!("wrote {}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("bench-report: cannot write under {}: {e}", papers.display());
            ExitCode::FAILURE
        }
    }
}
