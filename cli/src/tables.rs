//! `placemat tables`: the unit classes and the transition table, or Graphviz.

use std::io::Write;

use placemat_codec::DynCodec;
use placemat_compiler::listing::{dot, listing};
use placemat_compiler::{automaton_of, Automaton};

use super::{CliError, CliResult};

/// `placemat tables [--dot]`.
pub fn run(codec: &dyn DynCodec, as_dot: bool, out: &mut dyn Write) -> CliResult {
    let name = &codec.info().name;
    let automaton = automaton_of(codec)
        .map_err(|e| CliError::Message(format!("the description of {name} does not compile: {e}")))?;
    let text = if as_dot {
        dot(name, &automaton)
    } else {
        listing(name, &automaton)
            + &placemat_compiler::automaton::local::text::listing(&automaton.local)
            + &decoding_kernel(&automaton)
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// Whether decoding behind SIMD validation runs the SIMD decoding kernel, and
/// the shape it reads (the compiler's `local::shape`).
fn decoding_kernel(a: &Automaton) -> String {
    let Ok(local) = &a.local else { return String::new() };
    let Some(shape) = local.decoding_shape else {
        return "SIMD decoding kernel: no; it needs one run of continuation units of 6 bits, each \
                worth itself less the first, one base for the leads of each length, and no bias\n"
            .to_string();
    };
    let (first, last) = shape.continuation;
    // The lengths the thresholds give some unit.
    let t = &local.tables;
    let bases: Vec<String> = (1..16)
        .filter(|&n| (0..=255u8).any(|u| usize::from(t.level(u)) + 1 == n))
        .map(|n| format!("{n}: {:02X}", shape.lead_base[n]))
        .collect();
    format!(
        "SIMD decoding kernel: yes; continuation units {first:02X}-{last:02X}, each worth itself less {first:02X}; \
         leads worth themselves less, by sequence length: {}\n",
        bases.join(", ")
    )
}
