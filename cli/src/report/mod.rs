//! The generators of the papers, and the one chart writer they share:
//!
//! * [`papers`] — `placemat report`: `papers/comparison.md` and `papers/utf1.md`
//!   (`utf1.rs`), their figures and the automata's pictures, from the compiler's
//!   analyses of every built-in codec;
//! * [`benchmarks`] — the writer behind `bench-report` (`benches/src/bin/bench-report.rs`):
//!   `papers/benchmarks.md`, its figures and those of `papers/simd.md`, from
//!   criterion's saved results;
//! * [`pairs`] — the matrix of every pair of codecs in `papers/benchmarks.md`,
//!   measured by `pair-matrix` (`benches/src/bin/pair-matrix.rs`);
//! * [`chart`] — the SVG bar charts of both, with one palette and one escaping
//!   function.

pub mod benchmarks;
pub mod chart;
pub mod pairs;
pub mod papers;
mod utf1;

use std::ops::Range;

/// Where the text between the lines `begin` and `end` of `page` lies (from
/// the end of `begin` to the start of `end`), if the page has both: the
/// generated blocks of the hand-written papers.
pub fn between(page: &str, begin: &str, end: &str) -> Option<Range<usize>> {
    let start = page.find(begin)? + begin.len();
    Some(start..start + page[start..].find(end)?)
}

/// `page` with the text between the lines `begin` and `end` replaced by
/// `block`, or `None` if the page lacks them.
///
/// ```
/// use placemat_cli::report::{between, splice_between};
/// let page = splice_between("intro\n<b>\nold\n<e>\n", "<b>", "<e>", "new\n").unwrap();
/// assert_eq!(page, "intro\n<b>\nnew\n<e>\n");
/// assert_eq!(&page[between(&page, "<b>", "<e>").unwrap()], "\nnew\n");
/// ```
pub fn splice_between(page: &str, begin: &str, end: &str, block: &str) -> Option<String> {
    let r = between(page, begin, end)?;
    Some(format!("{}\n{block}{}", &page[..r.start], &page[r.end..]))
}
