//! The integration tests of `placemat-compiler`, one binary: the runtime's
//! checks of the tables the compiler builds for real codecs
//! (`table_checks`), codecs loaded at run time (`io_loaded`, `utf8_loaded`),
//! longest match (`longest_match`), forms that share units
//! (`shared_units`) and the analysis of padding without a limit
//! (`padding_analysis`). A module's tests run as
//! `cargo test -p placemat-compiler --test suite <module>::`.

mod form_of;
mod io_loaded;
mod longest_match;
mod padding_analysis;
mod shared_units;
mod signed_loaded;
mod table_checks;
mod utf8_loaded;
