//! The integration tests of `placemat-compiler`, one binary: the runtime's
//! checks of the tables the compiler builds for real codecs
//! (`table_checks`), codecs loaded at run time (`io_loaded`, `utf8_loaded`),
//! longest match (`longest_match`) and forms that share units
//! (`shared_units`). A module's tests run as
//! `cargo test -p placemat-compiler --test suite <module>::`.

mod io_loaded;
mod longest_match;
mod shared_units;
mod signed_loaded;
mod table_checks;
mod utf8_loaded;
