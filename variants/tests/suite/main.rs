//! The integration tests of `placemat-variants`, one binary: each module was a
//! test binary of its own, and linking fourteen binaries against every codec
//! (each compiled with optimizations for the exhaustive tests) was most of the
//! test build. The tests that run the `placemat` binary are `placemat-cli`'s
//! (`cli/tests/suite/`). A module's tests run as `cargo test -p placemat-variants --test
//! suite <module>::`.
//!
//! The SIMD validators' tests are a binary of their own (`tests/simd.rs`), so
//! that CI can build them alone for aarch64 and run them under emulation.

mod common;
#[path = "../helpers/prefixed_descriptions.rs"]
mod prefixed_descriptions;
#[path = "../helpers/rng.rs"]
mod rng;

mod apart;
mod at_rest;
mod automata;
mod bit_forms;
mod chunk_ends;
mod compare;
mod corpus;
mod encode_into;
mod flagged;
mod fuzz_seeds;
mod historical;
mod hostile;
mod io;
mod large_descriptions;
mod mutf8;
mod one_import;
mod padding;
mod pair_forms;
mod panic_free;
mod prefixed;
mod printable6;
mod real_world;
mod rules_unmet;
mod shift_validate;
mod signed;
mod signed_big;
mod table_walk;
mod text;
mod transcode_bulk;
mod utf1;
mod utf16;
mod utf8;
mod utf_ebcdic;
mod wide_forms;
mod wtf8;
