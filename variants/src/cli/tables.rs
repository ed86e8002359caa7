//! `placemat tables`: the unit classes and the transition table, or Graphviz.

use std::io::Write;

use placemat_codec::DynCodec;
use placemat_compiler::automaton_of;
use placemat_compiler::listing::{dot, listing};

use super::{CliError, CliResult};

/// `placemat tables [--dot]`.
pub fn run(codec: &dyn DynCodec, as_dot: bool, out: &mut dyn Write) -> CliResult {
    let name = &codec.info().name;
    let automaton = automaton_of(codec)
        .map_err(|e| CliError::Message(format!("the description of {name} does not compile: {e}")))?;
    let text = if as_dot {
        dot(name, &automaton)
    } else {
        listing(name, &automaton) + &placemat_compiler::automaton::local::text::listing(&automaton.local)
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}
