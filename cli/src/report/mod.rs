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
