//! `placemat trace`: the table walker's steps, one line per unit — offset, unit,
//! class, state before → after, the value accumulated so far, and what was emitted.
//! An error shows the U+FFFD that lossy decoding emits; a unit that cut a sequence
//! short is then read again from the start state, as the lossy rule requires.
//! For a codec whose forms overlap by design (`overlap: longest`), a dead end
//! after a whole shorter sequence emits that one (the longest match) and reads
//! the units after it again.

use std::collections::VecDeque;
use std::io::Write;

use placemat_codec::big::BigInt;
use placemat_codec::dfa::{pending_fields, whole_units, Transition, DEAD, PLACE_SHIFT};
use placemat_codec::{DynCodec, Step, Strategy, Value};

use super::decode::too_long;
use super::input::{self, Input};
use super::CliResult;

/// The longest value shown whole, in digits; a longer one shows its first
/// and last digits and its length.
const SHOWN_DIGITS: usize = 32;

/// `U+` and the hex digits of a value, abbreviated past [`SHOWN_DIGITS`].
fn abbreviated(hex: &str) -> String {
    shortened("U+", hex, "hex digits")
}

/// `digits` after `prefix`, with its middle left out past [`SHOWN_DIGITS`]
/// (saying how many `what` there are).
fn shortened(prefix: &str, digits: &str, what: &str) -> String {
    if digits.len() <= SHOWN_DIGITS {
        return format!("{prefix}{digits}");
    }
    let half = SHOWN_DIGITS / 2;
    format!("{prefix}{}…{} ({} {what})", &digits[..half], &digits[digits.len() - half..], digits.len())
}

/// The value read so far in a sequence: exact up to 64 bits, then its size.
#[derive(Default)]
struct Partial {
    value: u64,
    /// The payload bits read while `value` is past 64 bits.
    bits: u64,
}

impl Partial {
    /// Takes `n` payload bits of `digit`: below the bits so far, where the
    /// table's place code says (groups least significant first, wide units),
    /// or, for digit units, after multiplying by the transition's radix (the
    /// value before the sequence's bias, modulo 2^64).
    fn take(&mut self, n: u32, digit: u8, t: &Transition) {
        let payload = u64::from(digit) & ((1 << n) - 1);
        self.value = match (t.place, t.radix) {
            (Some(place), _) => {
                let (shift, at) = ((place >> PLACE_SHIFT) as u32, place as u32 & 0xFF);
                self.value.checked_shl(shift).unwrap_or(0) | payload.checked_shl(at).unwrap_or(0)
            }
            (None, Some(radix)) => self.value.wrapping_mul(radix).wrapping_add(payload),
            (None, None) => {
                // Zeros shifted out are no loss (leading zero groups).
                let kept = self.bits == 0 && self.value.leading_zeros() >= n;
                if !kept {
                    self.bits = self.bits.max(64 - u64::from(self.value.leading_zeros())) + u64::from(n);
                }
                self.value.checked_shl(n).unwrap_or(0) | payload
            }
        };
    }
}

impl std::fmt::Display for Partial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.bits == 0 {
            write!(f, "{:#X}", self.value)
        } else {
            write!(f, "({} bits)", self.bits)
        }
    }
}

/// The widths of the columns, wide enough for every line of one codec's trace
/// (offsets: for the input's size when it is known, else up to 10 digits).
struct Layout {
    offset: usize,
    class: usize,
    state: usize,
    state_digits: usize,
    value: usize,
}

impl Layout {
    fn new(codec: &dyn DynCodec, input_size: Option<u64>) -> Self {
        let digits = |n: u64| n.checked_ilog10().unwrap_or(0) as usize + 1;
        let dfa = codec.dfa();
        let state_digits = digits(dfa.state_count().saturating_sub(1) as u64);
        let info = codec.info();
        // `0x` and the digits of the value type; `(N bits)` past 64 bits.
        let value_digits = if info.unbounded { 16 } else { info.value_bits.div_ceil(4) as usize };
        Layout {
            offset: input_size.map_or(10, digits).max("offset".len()),
            class: (1 + digits(dfa.class_count().saturating_sub(1) as u64)).max("class".len()),
            state: (2 * state_digits + 4).max("state".len()),
            state_digits,
            value: (2 + value_digits).max("value".len()),
        }
    }

    /// One line: the columns separated by two spaces.
    fn line(&self, out: &mut dyn Write, cells: [&str; 5], emitted: &str) -> CliResult {
        let [offset, unit, class, state, value] = cells;
        let line = format!(
            "{offset:<w0$}  {unit:<4}  {class:<w1$}  {state:<w2$}  {value:<w3$}  {emitted}",
            w0 = self.offset,
            w1 = self.class,
            w2 = self.state,
            w3 = self.value
        );
        writeln!(out, "{}", line.trim_end())?;
        Ok(())
    }

    /// `before -> after`, each number as wide as the largest state.
    fn states(&self, before: usize, after: usize) -> String {
        format!("{before:>w$} -> {after:<w$}", w = self.state_digits)
    }
}

/// The value of the sequence `seq` read in `context` as the trace shows it:
/// `U+hex`, of any size for a codec without rules across values (context
/// 0), abbreviated when long; a signed codec's in decimal.
fn shown_value(codec: &dyn DynCodec, context: usize, seq: &[u8]) -> Step<String> {
    if codec.info().sign.is_some() {
        // A signed codec's value, in decimal (no code point), of any size.
        return codec.step_bigint(Strategy::Table, seq).map(|value| {
            let digits = value.magnitude().to_string();
            shortened(if value < BigInt::ZERO { "-" } else { "" }, &digits, "digits")
        });
    }
    if context == 0 {
        codec.step_big(Strategy::Table, seq).map(|value| abbreviated(&format!("{value:04X}")))
    } else {
        codec.step_in(Strategy::Table, context, seq).map(|value| abbreviated(&format!("{value:04X}")))
    }
}

/// The walk between units: its state, the sequence being read, and the
/// units still to read (the input's, and units read again after an invalid
/// sequence or a longest match), with their offsets.
struct Walk<'c> {
    codec: &'c dyn DynCodec,
    layout: Layout,
    state: usize,
    /// The value so far: exact while it fits 64 bits, then only its size (the
    /// completed value is shown whole, or abbreviated when long).
    value: Partial,
    seq_start: usize,
    /// The context of the codec's rules across values the sequence began in.
    seq_context: usize,
    seq: Vec<u8>,
    /// For `overlap: longest`, the last whole sequence the walk passed while
    /// a longer one could go on: its length in `seq`, and the start state
    /// after it.
    noted: Option<(usize, usize)>,
    queue: VecDeque<(usize, u8)>,
}

impl Walk<'_> {
    /// Back to the start of the next sequence, `len` units on, in `state`;
    /// the units of `seq` after them are read again.
    fn restart(&mut self, len: usize, state: usize) {
        for (k, &b) in self.seq.iter().enumerate().skip(len).rev() {
            self.queue.push_front((self.seq_start + k, b));
        }
        let dfa = self.codec.dfa();
        (self.state, self.value, self.seq_start) = (state, Partial::default(), self.seq_start + len);
        self.seq_context = dfa.context_of(state);
        self.seq.clear();
        self.noted = None;
    }

    /// What a dead end (or the end of the input) emits: the longest match
    /// noted, read again from after it, or U+FFFD for the maximal subpart.
    fn dead_end(&mut self, at: usize) -> String {
        if let Some((len, next)) = self.noted {
            let shown = match shown_value(self.codec, self.seq_context, &self.seq[..len]) {
                Step::Value { value, .. } => value,
                other => format!("{other:?}"),
            };
            let emitted =
                format!("{shown} (longest match: {len} units at offset {}; read on after it)", self.seq_start);
            self.restart(len, next);
            return emitted;
        }
        let unit_bytes = usize::from(self.codec.dfa().facts().unit_bytes);
        let len = whole_units((at - self.seq_start).max(1), unit_bytes, usize::MAX);
        let emitted = format!(
            "U+{:04X} (invalid sequence of {len} unit{} at offset {})",
            u64::REPLACEMENT,
            if len == 1 { "" } else { "s" },
            self.seq_start
        );
        self.restart(len, self.codec.dfa().start());
        emitted
    }

    /// Reads the queued units, one line each.
    fn drain(&mut self, out: &mut dyn Write, max_units: usize, name: &str) -> CliResult {
        let dfa = self.codec.dfa();
        let stride = dfa.class_count();
        while let Some((at, u)) = self.queue.pop_front() {
            let t = dfa.transition(self.state, u);
            let (unit, class) = (format!("{u:02X}"), format!("c{}", t.class));
            let states = self.layout.states(self.state / stride, t.next / stride);
            if t.next == DEAD {
                self.seq.push(u);
                let emitted = self.dead_end(at);
                self.layout.line(out, [&at.to_string(), &unit, &class, &states, "-"], &emitted)?;
                continue;
            }
            self.value.take(t.payload_bits, dfa.digits()[u as usize], &t);
            self.seq.push(u);
            if self.seq.len() > max_units {
                return Err(too_long(self.codec, name, self.seq_start, max_units));
            }
            let emitted = if dfa.is_boundary(t.next) {
                // The codec's own step gives the value (with any pre-mapping
                // undone), in the context the sequence began in.
                let shown = match shown_value(self.codec, self.seq_context, &self.seq) {
                    Step::Value { value, .. } => value,
                    other => format!("{other:?}"),
                };
                self.seq_context = dfa.context_of(t.next);
                self.seq.clear();
                self.seq_start = at + 1;
                self.noted = None;
                shown
            } else {
                "-".to_string()
            };
            self.layout.line(out, [&at.to_string(), &unit, &class, &states, &self.value.to_string()], &emitted)?;
            self.state = t.next;
            if dfa.is_boundary(self.state) {
                self.value = Partial::default();
            }
            if let Some((to, _, 0)) =
                dfa.pending().get(self.state / stride).filter(|&&e| e != 0).map(|&e| pending_fields(e))
            {
                self.noted = Some((self.seq.len(), dfa.start_of(to)));
            }
        }
        Ok(())
    }
}

/// `placemat trace`.
pub fn run(codec: &dyn DynCodec, file: Option<&str>, max_units: usize, out: &mut dyn Write) -> CliResult {
    write(codec, input::open(file)?, max_units, out)
}

/// The trace of `input`'s units.
pub(super) fn write(codec: &dyn DynCodec, mut input: Input, max_units: usize, out: &mut dyn Write) -> CliResult {
    let layout = Layout::new(codec, input.size);
    let dfa = codec.dfa();
    layout.line(out, ["offset", "unit", "class", "state", "value"], "emitted")?;
    let mut walk = Walk {
        codec,
        layout,
        state: dfa.start(),
        value: Partial::default(),
        seq_start: 0,
        seq_context: 0,
        seq: Vec::new(),
        noted: None,
        queue: VecDeque::new(),
    };
    let mut offset = 0usize;
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let n = input::fill(&mut input.reader, &mut chunk)?;
        walk.queue.extend(chunk[..n].iter().enumerate().map(|(k, &u)| (offset + k, u)));
        offset += n;
        walk.drain(out, max_units, &input.name)?;
        if n < chunk.len() {
            break;
        }
    }
    // At the end, a longest match noted is taken and the units after it
    // read again, until none is left open.
    while !dfa.is_boundary(walk.state) {
        let states = walk.layout.states(walk.state / dfa.class_count(), 0);
        if walk.noted.is_none() {
            let emitted = format!("U+{:04X} (incomplete sequence at offset {})", u64::REPLACEMENT, walk.seq_start);
            walk.layout.line(out, [&offset.to_string(), "end", "-", &states, "-"], &emitted)?;
            break;
        }
        let emitted = walk.dead_end(offset);
        walk.layout.line(out, [&offset.to_string(), "end", "-", &states, "-"], &emitted)?;
        walk.drain(out, max_units, &input.name)?;
    }
    Ok(())
}
