//! `placemat tables`: the unit classes and the transition table, or Graphviz.

use std::io::Write;

use placemat_codec::build::tables::{dot, listing};
use placemat_codec::DynCodec;

use super::CliResult;

/// `placemat tables [--dot]`.
pub fn run(codec: &dyn DynCodec, as_dot: bool, out: &mut dyn Write) -> CliResult {
    let name = &codec.info().name;
    let dfa = codec.dfa();
    let text = if as_dot { dot(name, &dfa) } else { listing(name, &dfa) };
    out.write_all(text.as_bytes())?;
    Ok(())
}
