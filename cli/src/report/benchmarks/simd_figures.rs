//! The figures of `papers/simd.md`: `bench-report` writes them between the
//! page's two markers from the same criterion results as `benchmarks.md`, so
//! the hand-written explanation around them never carries a stale number.
//!
//! ```
//! use placemat_cli::report::benchmarks::simd_figures::{splice, BEGIN, END};
//! let page = format!("intro\n{BEGIN}\nold\n{END}\nafter\n");
//! assert_eq!(splice(&page, "new\n").unwrap(), format!("intro\n{BEGIN}\nnew\n{END}\nafter\n"));
//! assert!(splice("no markers", "new\n").is_none());
//! ```

use std::fmt::Write as _;

use super::Results;

/// The line before the generated block.
pub const BEGIN: &str = "<!-- bench-report: the figures below are generated; edits are overwritten -->";
/// The line after it.
pub const END: &str = "<!-- bench-report: end of generated figures -->";

/// utf8's validators, in the order of the first table, with what each is.
const VALIDATORS: [(&str, &str); 5] = [
    ("simdutf8-basic", "simdutf8's `basic` validator (the baseline)"),
    ("simd", "utf8's derived SIMD validator, AVX2"),
    ("simd-sse4.1", "the same kernel on SSE4.1"),
    ("std", "`std::str::from_utf8`"),
    ("table", "utf8's shift DFA"),
];

/// `page` with the text between [`BEGIN`] and [`END`] replaced by `block`,
/// or `None` if the page lacks the markers.
pub fn splice(page: &str, block: &str) -> Option<String> {
    crate::report::splice_between(page, BEGIN, END, block)
}

/// The generated block: utf8's validators against simdutf8, every other
/// SIMD validator against utf8's, and decoding behind SIMD validation against
/// the table decoder, each with the ranges the text cites.
pub fn render(results: &Results, order: &[String]) -> String {
    let corpora: Vec<String> = order.iter().filter(|c| results.corpora("validate").contains(c)).cloned().collect();
    let mut md = String::new();
    let _ = writeln!(
        md,
        "utf8's validators, GB/s, and in parentheses the speed relative to simdutf8's `basic` validator on the \
         same text:\n"
    );
    header(&mut md, "validator", &corpora);
    for (imp, what) in VALIDATORS {
        let cells = corpora.iter().map(|c| {
            let m = results.get("validate", imp, c)?;
            let r = results.speedup("validate", imp, "simdutf8-basic", c).filter(|_| imp != "simdutf8-basic");
            Some(cell(m.gbps(), r))
        });
        row(&mut md, what, cells);
    }
    let simd: Vec<String> = results.implementations("validate").into_iter().filter(|i| i.ends_with(":simd")).collect();
    let _ = writeln!(
        md,
        "\nThe other codecs' SIMD validators, as the time of utf8's divided by theirs on the same text (1.00 = as \
         fast; the target is 0.77, within 1.3x):\n"
    );
    header(&mut md, "codec", &corpora);
    let mut ratios = Vec::new();
    for imp in &simd {
        let cells = corpora.iter().map(|c| {
            let r = results.speedup("validate", imp, "simd", c)?;
            ratios.push(r);
            Some(format!("{r:.2}"))
        });
        let codec = imp.trim_end_matches(":simd");
        row(&mut md, &format!("`{codec}`"), cells.collect::<Vec<_>>().into_iter());
    }
    if let Some((lo, hi)) = range(&ratios) {
        let _ = writeln!(md, "\nThese ratios range from {lo:.2} to {hi:.2} in this run.");
    }
    unchecked(&mut md, results, order);
    md
}

/// Decoding SIMD-validated blocks without checks against `chars()` and the
/// table walker.
fn unchecked(md: &mut String, results: &Results, order: &[String]) {
    let speeds = |imp: &str| -> Vec<f64> {
        order.iter().filter_map(|c| results.get("decode", imp, c)).map(|m| m.gbps()).collect()
    };
    let ratios = |other: &str| -> Vec<f64> {
        order.iter().filter_map(|c| results.speedup("decode", "simd-unchecked", other, c)).collect()
    };
    let (fast, walker) = (speeds("simd-unchecked"), speeds("table"));
    let (Some((a, b)), Some((c, d))) = (range(&fast), range(&walker)) else { return };
    let versus = |other: &str, what: &str| match range(&ratios(other)) {
        Some((lo, hi)) => format!("{lo:.2}–{hi:.2}x {what}"),
        None => format!("{what} not measured"),
    };
    let _ = writeln!(
        md,
        "\nDecoding behind SIMD validation (`simd-unchecked` in `benchmarks.md`'s `decode` section) ran at \
         {a:.2}–{b:.2} GB/s for utf8, {} and {} in the same run ({c:.2}–{d:.2} GB/s).",
        versus("std-chars", "the speed of `chars()` into a `Vec<u32>`"),
        versus("table", "the table decoder's two walks")
    );
}

fn header(md: &mut String, first: &str, corpora: &[String]) {
    let _ = writeln!(md, "| {first} | {} |", corpora.join(" | "));
    let _ = writeln!(md, "|---|{}", "---:|".repeat(corpora.len()));
}

fn row(md: &mut String, name: &str, cells: impl Iterator<Item = Option<String>>) {
    let cells: Vec<String> = cells.map(|c| c.unwrap_or_else(|| "-".into())).collect();
    let _ = writeln!(md, "| {name} | {} |", cells.join(" | "));
}

fn cell(gbps: f64, ratio: Option<f64>) -> String {
    match ratio {
        Some(r) => format!("{gbps:.2} ({r:.2}x)"),
        None => format!("{gbps:.2}"),
    }
}

/// The smallest and largest of `xs`.
fn range(xs: &[f64]) -> Option<(f64, f64)> {
    let lo = xs.iter().copied().reduce(f64::min)?;
    let hi = xs.iter().copied().reduce(f64::max)?;
    Some((lo, hi))
}
