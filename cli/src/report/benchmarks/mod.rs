//! The report generator behind `bench-report` (`benches/src/bin/bench-report.rs`):
//! reads criterion's saved estimates, computes throughputs and ratios measured in
//! the same run, checks the speed targets, and writes `papers/benchmarks.md`
//! and SVG charts (with [`crate::report::chart`]).
//!
//! ```
//! use placemat_cli::report::benchmarks::{Measurement, Results};
//! let m = |imp: &str, ns: f64| Measurement {
//!     group: "validate".into(),
//!     implementation: imp.into(),
//!     corpus: "russian".into(),
//!     median_ns: ns,
//!     bytes: 2_000_000,
//! };
//! let results = Results::new(vec![m("std", 1_000_000.0), m("table", 400_000.0)]);
//! let table = results.get("validate", "table", "russian").unwrap();
//! assert_eq!(table.gbps(), 5.0);
//! // Ratios are speed ratios on the same text: 2.5 times std's speed.
//! assert_eq!(results.speedup("validate", "table", "std", "russian"), Some(2.5));
//! ```
//!
//! Criterion writes, for each benchmark, `<group>/<id>/new/benchmark.json` (the
//! group, function and value ids and the throughput) and `new/estimates.json` (the
//! statistics, in nanoseconds per iteration); the report uses the median.

mod markdown;
pub mod simd_figures;
mod targets;
mod why;

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

pub use markdown::{write_report, CorpusInfo, Machine, BENCH_COMMAND, COMMAND};
pub use targets::{check_targets, Target, TargetResult};
pub use why::variant_why;

/// One benchmark's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The criterion group: `validate`, `decode`, `decode_lossy` or `encode`.
    pub group: String,
    /// The implementation (`std`, `table`, `ken-draft:branching`, …).
    pub implementation: String,
    /// The corpus name.
    pub corpus: String,
    /// Median time per iteration, in nanoseconds.
    pub median_ns: f64,
    /// Bytes per iteration (the throughput criterion was given).
    pub bytes: u64,
}

impl Measurement {
    /// Throughput in GB/s (10⁹ bytes per second).
    pub fn gbps(&self) -> f64 {
        self.bytes as f64 / self.median_ns
    }
}

/// All measurements of one run, indexed by group, implementation and corpus.
#[derive(Clone, Debug, Default)]
pub struct Results {
    by_key: BTreeMap<(String, String, String), Measurement>,
}

impl Results {
    /// Indexes `measurements`.
    pub fn new(measurements: Vec<Measurement>) -> Self {
        let by_key = measurements
            .into_iter()
            .map(|m| ((m.group.clone(), m.implementation.clone(), m.corpus.clone()), m))
            .collect();
        Results { by_key }
    }

    /// Whether nothing was measured.
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }

    /// The measurement of `implementation` on `corpus` in `group`.
    pub fn get(&self, group: &str, implementation: &str, corpus: &str) -> Option<&Measurement> {
        self.by_key.get(&(group.to_string(), implementation.to_string(), corpus.to_string()))
    }

    /// How many times faster `a` ran than `b` on the same corpus (time of `b` over
    /// time of `a`): the same text, whatever its size in each encoding.
    pub fn speedup(&self, group: &str, a: &str, b: &str, corpus: &str) -> Option<f64> {
        Some(self.get(group, b, corpus)?.median_ns / self.get(group, a, corpus)?.median_ns)
    }

    /// The implementations measured in `group`, sorted.
    pub fn implementations(&self, group: &str) -> Vec<String> {
        let mut v: Vec<String> = self.by_key.keys().filter(|(g, _, _)| g == group).map(|(_, i, _)| i.clone()).collect();
        v.dedup();
        v
    }

    /// The corpora measured in `group`.
    pub fn corpora(&self, group: &str) -> Vec<String> {
        let mut v: Vec<String> = self.by_key.keys().filter(|(g, _, _)| g == group).map(|(_, _, c)| c.clone()).collect();
        v.sort();
        v.dedup();
        v
    }
}

/// The criterion output directory: `$CARGO_TARGET_DIR/criterion`, else
/// `<workspace>/target/criterion`.
pub fn default_criterion_dir(workspace: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(t) if !t.is_empty() => {
            let t = PathBuf::from(t);
            if t.is_absolute() {
                t.join("criterion")
            } else {
                workspace.join(t).join("criterion")
            }
        }
        _ => workspace.join("target").join("criterion"),
    }
}

fn read_json(path: &Path) -> io::Result<serde_json::Value> {
    let text = std::fs::read_to_string(path)?;
    serde_json::from_str(&text)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {e}", path.display())))
}

/// Parses one benchmark's `new/` directory.
pub fn parse_benchmark(new_dir: &Path) -> io::Result<Measurement> {
    let bench = read_json(&new_dir.join("benchmark.json"))?;
    let est = read_json(&new_dir.join("estimates.json"))?;
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, format!("{}: no {what}", new_dir.display()));
    let text = |key: &str| bench.get(key).and_then(|v| v.as_str()).map(str::to_string);
    let group = text("group_id").ok_or_else(|| bad("group_id"))?;
    let implementation = text("function_id").ok_or_else(|| bad("function_id"))?;
    let corpus = text("value_str").ok_or_else(|| bad("value_str"))?;
    let bytes = bench
        .get("throughput")
        .and_then(|t| t.get("Bytes").or_else(|| t.get("BytesDecimal")))
        .and_then(|b| b.as_u64())
        .ok_or_else(|| bad("throughput in bytes"))?;
    let median_ns = est
        .get("median")
        .and_then(|m| m.get("point_estimate"))
        .and_then(|p| p.as_f64())
        .ok_or_else(|| bad("median"))?;
    Ok(Measurement { group, implementation, corpus, median_ns, bytes })
}

/// Reads every `*/new/` result under `criterion_dir`.
pub fn load(criterion_dir: &Path) -> io::Result<Results> {
    let mut found = Vec::new();
    let mut stack = vec![criterion_dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if !path.is_dir() {
                continue;
            }
            if path.file_name().is_some_and(|n| n == "new") {
                if path.join("benchmark.json").is_file() && path.join("estimates.json").is_file() {
                    found.push(parse_benchmark(&path)?);
                }
            } else if path.file_name().is_some_and(|n| n != "report" && n != "base" && n != "change") {
                stack.push(path);
            }
        }
    }
    Ok(Results::new(found))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, group: &str, function: &str, value: &str, bytes: u64, median: f64) {
        let new = dir.join(group).join(format!("{function}_{value}")).join("new");
        std::fs::create_dir_all(&new).unwrap();
        let bench = format!(
            r#"{{"group_id":"{group}","function_id":"{function}","value_str":"{value}","throughput":{{"Bytes":{bytes}}},"full_id":"x","directory_name":"x","title":"x"}}"#
        );
        std::fs::write(new.join("benchmark.json"), bench).unwrap();
        let est = format!(
            r#"{{"mean":{{"point_estimate":1.0}},"median":{{"confidence_interval":{{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0}},"point_estimate":{median},"standard_error":0.1}}}}"#
        );
        std::fs::write(new.join("estimates.json"), est).unwrap();
    }

    #[test]
    fn loads_saved_criterion_results() {
        let dir = std::env::temp_dir().join(format!("placemat-report-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        write(&dir, "validate", "std", "russian", 1000, 500.0);
        write(&dir, "validate", "ken-draft:table", "russian", 1200, 250.0);
        // A saved baseline next to `new` is ignored.
        std::fs::create_dir_all(dir.join("validate/std_russian/base")).unwrap();
        let r = load(&dir).unwrap();
        assert_eq!(r.get("validate", "std", "russian").unwrap().gbps(), 2.0);
        assert_eq!(r.speedup("validate", "ken-draft:table", "std", "russian"), Some(2.0));
        assert_eq!(r.implementations("validate"), ["ken-draft:table", "std"]);
        assert_eq!(r.corpora("validate"), ["russian"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn malformed_results_are_errors() {
        let dir = std::env::temp_dir().join(format!("placemat-report-bad-{}", std::process::id()));
        let new = dir.join("g/x/new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(new.join("benchmark.json"), "{}").unwrap();
        std::fs::write(new.join("estimates.json"), "{}").unwrap();
        assert!(load(&dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
