//! The integration tests of `placemat-cli`, one binary: each module runs the
//! `placemat` binary as a process (`cli.rs` holds the helpers that run it). A
//! module's tests run as `cargo test -p placemat-cli --test suite <module>::`.

mod cli;
mod cli_validate;
mod codecs;
mod compare;
mod errors;
mod spec_language;
mod ui_descriptions;
