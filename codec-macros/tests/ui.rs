//! Bad descriptions fail at compile time with clear messages: one `tests/ui/*.rs`
//! file per message, its expected compiler output in the `.stderr` beside it.
//!
//! Regenerate the expected output after changing a message with
//! `TRYBUILD=overwrite cargo test -p placemat-macros --test ui`, then read every
//! changed `.stderr`: each must point at the offending tokens (and, for conflicts,
//! at both sides) and say what is wrong in words a description's author uses.
//! `cli/tests/suite/ui_descriptions.rs` feeds the same descriptions to
//! `placemat tables --spec` and checks that the CLI reports the same messages at
//! the same lines and columns.

#[test]
fn bad_descriptions_are_compile_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
