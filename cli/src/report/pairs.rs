//! The matrix of every pair of built-in codecs in `papers/benchmarks.md`:
//! for each source and target, the transcoding engine
//! ([`Transcoder`], as it runs on the machine) beside the per-value path
//! ([`Transcoder::one_value_at_a_time`], what every pair ran before the
//! engine had runs, blocks and one-pass kernels), on the same text in the
//! same run. `pair-matrix` (`benches/src/bin/pair-matrix.rs`) measures and
//! writes it between [`BEGIN`] and [`END`]; `bench-report`, which rewrites
//! the rest of the page, carries the block over ([`carried`]).
//!
//! ```
//! use placemat_cli::report::pairs::{measure, render, BEGIN, END};
//! let codecs = ["utf8", "utf16le"].map(|n| placemat_variants::registry::find(n).unwrap());
//! let values: Vec<u64> = "Grüße, 世界! 🎉".chars().map(u64::from).collect();
//! let matrix = measure(&codecs, &values, 1);
//! assert_eq!(matrix.cells.len(), 4);
//! assert!(matrix.cells.iter().all(|c| c.engine.is_some() && c.per_value.is_some()));
//! let block = render(&matrix, "a tiny text");
//! assert!(block.contains("| **utf8** |") && !block.contains(BEGIN) && !block.contains(END));
//! ```

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use placemat_codec::io::{ErrorMode, Transcoder};
use placemat_codec::DynCodec;

/// The line before the generated matrix.
pub const BEGIN: &str = "<!-- pair-matrix: the matrix below is generated; edits are overwritten -->";
/// The line after it.
pub const END: &str = "<!-- pair-matrix: end of the generated matrix -->";

/// The command that measures the matrix and writes it into the page.
pub const COMMAND: &str = "cargo run --release -p placemat-benches --bin pair-matrix";

/// The speed-up over the per-value path the issue asks of every pair.
const TARGET: f64 = 10.0;

/// One pair's figures: GB/s of the source's bytes, `None` where the pair
/// did not convert the text (a value the target refuses).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cell {
    /// The engine as it runs.
    pub engine: Option<f64>,
    /// The per-value path.
    pub per_value: Option<f64>,
}

impl Cell {
    /// The engine's speed over the per-value path.
    pub fn ratio(&self) -> Option<f64> {
        Some(self.engine? / self.per_value?)
    }
}

/// Every pair of a list of codecs, sources in rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    /// The codecs' names, in the rows' and columns' order.
    pub names: Vec<String>,
    /// Row by row: `cells[from * names.len() + to]`.
    pub cells: Vec<Cell>,
}

/// Measures every pair of `codecs` on `values`: each source's encoding of
/// the values both codecs of the pair take, converted whole, the best of at
/// least three runs and of `millis` milliseconds for each path.
pub fn measure(codecs: &[&dyn DynCodec], values: &[u64], millis: u64) -> Matrix {
    let mut cells = Vec::with_capacity(codecs.len() * codecs.len());
    for &from in codecs {
        for &to in codecs {
            let input = encoding(from, to, values);
            let time = |one_value: bool| {
                let mut out = Vec::new();
                best_gbps(input.len(), millis, || {
                    let Ok(engine) = Transcoder::new(from, to, ErrorMode::Strict) else { return false };
                    let mut engine = if one_value { engine.one_value_at_a_time() } else { engine };
                    out.clear();
                    engine.push(&input, &mut out).and_then(|()| engine.finish(&mut out)).is_ok()
                })
            };
            cells.push(Cell { engine: time(false), per_value: time(true) });
        }
    }
    Matrix { names: codecs.iter().map(|c| c.info().name.to_string()).collect(), cells }
}

/// `from`'s encoding of the values of `values` that both codecs take.
fn encoding(from: &dyn DynCodec, to: &dyn DynCodec, values: &[u64]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for &v in values.iter().filter(|&&v| from.info().contains(v) && to.info().contains(v)) {
        // A value `from` refuses where it stands (a rule across values) is left out.
        let _ = from.encode_push(v, &mut bytes);
    }
    bytes
}

/// GB/s of `bytes` by the best run of `run` (at least three, and as many as
/// fit in `millis` milliseconds, at most 1000); `None` if a run fails.
fn best_gbps(bytes: usize, millis: u64, mut run: impl FnMut() -> bool) -> Option<f64> {
    let budget = Duration::from_millis(millis);
    let start = Instant::now();
    let mut best = f64::INFINITY;
    for reps in 0..1000 {
        if reps >= 3 && start.elapsed() >= budget {
            break;
        }
        let t = Instant::now();
        if !run() {
            return None;
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    Some(bytes as f64 / best.max(1e-9) / 1e9)
}

/// The block between the markers: what was measured, the speed-up matrix,
/// the GB/s matrix, and how many pairs reach the target.
pub fn render(m: &Matrix, text: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "Measured by `{COMMAND}` on {text}. Rows are sources, columns targets; every cell converts the \
         source's encoding of the text's values that both codecs take, whole, strict.\n"
    );
    md.push_str("Speed-up of the engine over the per-value path (the target is at least 10×):\n\n");
    table(&mut md, m, |c| c.ratio().map(|r| format!("{r:.0}")));
    md.push_str("\nGB/s of the source's bytes, the engine as it runs on this machine:\n\n");
    table(&mut md, m, |c| c.engine.map(|g| format!("{g:.2}")));
    let mut ratios: Vec<(f64, usize)> = m.cells.iter().enumerate().filter_map(|(i, c)| Some((c.ratio()?, i))).collect();
    ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
    let met = ratios.iter().filter(|(r, _)| *r >= TARGET).count();
    let _ = writeln!(md, "\n{met} of {} pairs are at least {TARGET:.0}× the per-value path.", ratios.len());
    if let (Some(&(r, i)), Some(&(median, _))) = (ratios.first(), ratios.get(ratios.len() / 2)) {
        let _ = writeln!(md, "The median speed-up is {median:.1}×; the smallest, {}.", pair(m, i, r));
    }
    md
}

/// `from → to (r×)` for cell `i`.
fn pair(m: &Matrix, i: usize, r: f64) -> String {
    let n = m.names.len();
    format!("`{}` → `{}` ({r:.1}×)", m.names[i / n], m.names[i % n])
}

/// A markdown table of `m`, each cell shown by `show` (`–` where it is `None`).
fn table(md: &mut String, m: &Matrix, show: impl Fn(&Cell) -> Option<String>) {
    let n = m.names.len();
    let _ = writeln!(md, "| from \\ to | {} |", m.names.join(" | "));
    let _ = writeln!(md, "|---|{}", "---:|".repeat(n));
    for (r, name) in m.names.iter().enumerate() {
        let row: Vec<String> = m.cells[r * n..(r + 1) * n].iter().map(|c| show(c).unwrap_or("–".into())).collect();
        let _ = writeln!(md, "| **{name}** | {} |", row.join(" | "));
    }
}

/// The matrix's section of the page, with `block` between the markers.
pub fn section(block: &str) -> String {
    format!("## Transcoding: every pair of codecs\n\n{BEGIN}\n{block}{END}\n")
}

/// The block between the markers of `page` (an earlier `benchmarks.md`), or
/// a line saying how to measure it when the page has none.
pub fn carried(page: Option<&str>) -> String {
    let kept = page.and_then(|p| Some(p[super::between(p, BEGIN, END)?].strip_prefix('\n')?.to_string()));
    kept.unwrap_or_else(|| format!("Not measured yet: run `{COMMAND}`.\n"))
}

/// `page` (`benchmarks.md`) with `block` between its markers, or, on a page
/// without them, in a new section before "Figures" (at the end without one).
pub fn written_into(page: &str, block: &str) -> String {
    super::splice_between(page, BEGIN, END, block).unwrap_or_else(|| match page.find("## Figures") {
        Some(at) => format!("{}{}\n{}", &page[..at], section(block), &page[at..]),
        None => format!("{page}\n{}", section(block)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-codec matrix with known figures.
    fn two() -> Matrix {
        let cell = |e: f64, p: f64| Cell { engine: Some(e), per_value: Some(p) };
        Matrix {
            names: vec!["a".into(), "b".into()],
            cells: vec![cell(2.0, 0.1), cell(1.0, 0.2), Cell::default(), cell(3.0, 0.1)],
        }
    }

    #[test]
    fn the_matrix_shows_each_ratio_and_names_the_pairs_short_of_the_target() {
        let md = render(&two(), "a text");
        assert!(md.contains("| **a** | 20 | 5 |"), "{md}");
        assert!(md.contains("| **b** | – | 30 |"), "{md}");
        assert!(md.contains("| **a** | 2.00 | 1.00 |"), "{md}");
        assert!(md.contains("2 of 3 pairs are at least 10× the per-value path."), "{md}");
        assert!(md.contains("The median speed-up is 20.0×; the smallest, `a` → `b` (5.0×)."), "{md}");
    }

    #[test]
    fn a_regenerated_page_keeps_the_measured_block() {
        let block = render(&two(), "a text");
        let page = format!("# old\n\n{}\n## next\n", section(&block));
        assert_eq!(carried(Some(&page)), block);
        assert!(carried(None).contains(COMMAND));
        assert!(carried(Some("no markers")).contains(COMMAND));
        // Written into a page without the markers, then measured again.
        let first = written_into("# page\n\n## Figures\n", "old\n");
        assert!(
            first.starts_with("# page\n\n## Transcoding: every pair") && first.ends_with("## Figures\n"),
            "{first}"
        );
        let again = written_into(&first, &block);
        assert_eq!(carried(Some(&again)), block);
        assert_eq!(again.matches(BEGIN).count(), 1);
    }

    #[test]
    fn only_the_values_both_codecs_take_are_converted() {
        // UTF-16 has no values past U+10FFFF: a value only utf8-ext36 takes
        // is left out of both directions, so the pair converts.
        let ext = placemat_variants::registry::find("utf8-ext36").unwrap();
        let utf16 = placemat_variants::registry::find("utf16le").unwrap();
        let values = [0x41, 0x7FFF_FFFF, 0x42];
        assert_eq!(encoding(ext, utf16, &values), [0x41, 0x42]);
        let m = measure(&[ext, utf16], &values, 0);
        assert!(m.cells.iter().all(|c| c.engine.is_some()), "{m:?}");
    }
}
