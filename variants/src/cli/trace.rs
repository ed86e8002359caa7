//! `placemat trace`: the table walker's steps, one line per unit — offset, unit,
//! class, state before → after, the value accumulated so far, and what was emitted.
//! An error shows the U+FFFD that lossy decoding emits; a unit that cut a sequence
//! short is then read again from the start state, as the lossy rule requires.

use std::io::Write;

use placemat_codec::big::BigUint;
use placemat_codec::dfa::DEAD;
use placemat_codec::{DynCodec, Step, Strategy, Value};

use super::input;
use super::CliResult;

/// `placemat trace`.
pub fn run(codec: &dyn DynCodec, file: Option<&str>, out: &mut dyn Write) -> CliResult {
    let mut input = input::open(file)?;
    let dfa = codec.dfa();
    let stride = dfa.class_count();
    let start = dfa.start();
    writeln!(out, "offset  unit  class  state      value       emitted")?;
    let mut state = start;
    // A big integer: the trace also follows unbounded codecs past 64 bits.
    let mut value = BigUint::ZERO;
    let mut seq_start = 0usize;
    let mut seq: Vec<u8> = Vec::new();
    let mut offset = 0usize;
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let n = input::fill(&mut input.reader, &mut chunk)?;
        for &u in &chunk[..n] {
            loop {
                let t = dfa.transition(state, u);
                let before = state / stride;
                let after = t.next / stride;
                if t.next == DEAD {
                    let len = (offset - seq_start).max(1);
                    writeln!(
                        out,
                        "{offset:<7} {u:02X}    c{:<4} {before} -> {after:<5} {:<11} U+{:04X} (invalid sequence of {len} unit{} at offset {seq_start})",
                        t.class,
                        "-",
                        u64::REPLACEMENT,
                        if len == 1 { "" } else { "s" }
                    )?;
                    let reread = state != start;
                    state = start;
                    value = BigUint::ZERO;
                    seq.clear();
                    if reread {
                        seq_start = offset;
                        continue;
                    }
                    seq_start = offset + 1;
                    break;
                }
                value = (value << t.payload_bits)
                    | BigUint::from(dfa.digits()[u as usize] & ((1u16 << t.payload_bits) - 1) as u8);
                seq.push(u);
                let emitted = if t.next == start {
                    // The codec's own step gives the value (with any pre-mapping undone).
                    let shown = match codec.step_big(Strategy::Table, &seq) {
                        Step::Value { value, .. } => format!("U+{value:04X}"),
                        other => format!("{other:?}"),
                    };
                    seq.clear();
                    seq_start = offset + 1;
                    shown
                } else {
                    "-".to_string()
                };
                writeln!(
                    out,
                    "{offset:<7} {u:02X}    c{:<4} {before} -> {after:<5} {:<11} {emitted}",
                    t.class,
                    format!("{value:#X}")
                )?;
                state = t.next;
                if state == start {
                    value = BigUint::ZERO;
                }
                break;
            }
            offset += 1;
        }
        if n < chunk.len() {
            break;
        }
    }
    if state != start {
        writeln!(
            out,
            "{offset:<7} end   -      {} -> 0     -           U+{:04X} (incomplete sequence at offset {seq_start})",
            state / stride,
            u64::REPLACEMENT
        )?;
    }
    Ok(())
}
