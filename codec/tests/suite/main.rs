//! The tests of `placemat-codec` on small hand-built tables, one binary (a
//! binary per file would link the runtime three times over): the table
//! checks (`checks`), the derived facts (`facts`) and the walkers against a
//! reference decoder (`walkers`), over the hand-built codecs of `common`.
//! A module's tests run as `cargo test -p placemat-codec --test suite <module>::`.

mod common;

mod checks;
mod facts;
mod walkers;
