//! `placemat trace`: the table walker's steps, one line per unit — offset, unit,
//! class, state before → after, the value accumulated so far, and what was emitted.
//! An error shows the U+FFFD that lossy decoding emits; a unit that cut a sequence
//! short is then read again from the start state, as the lossy rule requires.

use std::io::Write;

use placemat_codec::dfa::DEAD;
use placemat_codec::{DynCodec, Step, Strategy, Value};

use super::input;
use super::{CliError, CliResult};

/// The longest value shown whole, in hex digits; a longer one shows its first
/// and last digits and its length.
const SHOWN_DIGITS: usize = 32;

/// `U+` and the hex digits of a value, abbreviated past [`SHOWN_DIGITS`].
fn abbreviated(hex: &str) -> String {
    if hex.len() <= SHOWN_DIGITS {
        return format!("U+{hex}");
    }
    let half = SHOWN_DIGITS / 2;
    format!("U+{}…{} ({} hex digits)", &hex[..half], &hex[hex.len() - half..], hex.len())
}

/// The value read so far in a sequence: exact up to 64 bits, then its size.
#[derive(Default)]
struct Partial {
    value: u64,
    bits: u64,
}

impl Partial {
    fn take(&mut self, n: u32, digit: u8) {
        self.bits += u64::from(n);
        self.value = self.value.checked_shl(n).unwrap_or(0) | (u64::from(digit) & ((1 << n) - 1));
    }
}

impl std::fmt::Display for Partial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.bits <= 64 {
            write!(f, "{:#X}", self.value)
        } else {
            write!(f, "({} bits)", self.bits)
        }
    }
}

/// `placemat trace`.
pub fn run(codec: &dyn DynCodec, file: Option<&str>, max_units: usize, out: &mut dyn Write) -> CliResult {
    let mut input = input::open(file)?;
    let dfa = codec.dfa();
    let stride = dfa.class_count();
    let start = dfa.start();
    writeln!(out, "offset  unit  class  state      value       emitted")?;
    let mut state = start;
    // The value so far: exact while it fits 64 bits, then only its size (the
    // completed value is shown whole, or abbreviated when long).
    let mut value = Partial::default();
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
                    value = Partial::default();
                    seq.clear();
                    if reread {
                        seq_start = offset;
                        continue;
                    }
                    seq_start = offset + 1;
                    break;
                }
                value.take(t.payload_bits, dfa.digits()[u as usize]);
                seq.push(u);
                if seq.len() > max_units {
                    return Err(CliError::msg(format!(
                        "{}: the {} sequence at offset {seq_start} is longer than {max_units} units, the limit on \
                         one value (raise it with --max-value-units)",
                        input.name,
                        codec.info().name
                    )));
                }
                let emitted = if t.next == start {
                    // The codec's own step gives the value (with any pre-mapping undone).
                    let shown = match codec.step_big(Strategy::Table, &seq) {
                        Step::Value { value, .. } => abbreviated(&format!("{value:04X}")),
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
                    value.to_string()
                )?;
                state = t.next;
                if state == start {
                    value = Partial::default();
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
