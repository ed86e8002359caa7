//! Human-readable views of a codec's tables: the class and transition listing that
//! `placemat tables` prints, the Graphviz picture behind `placemat tables --dot`,
//! and the per-state unit ranges ([`arms`]) that the branching-decoder generator
//! turns into `match` arms.
//!
//! ```
//! use placemat_compiler::{listing, LoadedCodec};
//! let codec = LoadedCodec::from_text(r#"
//!     pub Two { name: "two", value: u32, range: 0 ..= 0x7FF,
//!               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let dfa = codec.automaton();
//! let start = listing::arms(dfa, 1);
//! assert_eq!((start[0].lo, start[0].hi, start[0].payload_bits), (0x00, 0x7F, 7));
//! assert!(listing::listing("two", &dfa).starts_with("two: 4 unit classes, 3 states"));
//! assert!(listing::dot("two", &dfa).starts_with("digraph"));
//! ```

use std::fmt::Write;

use crate::Automaton;

/// A run of units that take the same transition from one state.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Arm {
    /// First unit.
    pub lo: u8,
    /// Last unit.
    pub hi: u8,
    /// Next state (0 dead, 1 start).
    pub next: usize,
    /// Payload bits the unit contributes.
    pub payload_bits: u32,
    /// Where they go ([`crate::automaton::Edge::place`]).
    pub place: u32,
    /// Bias added if the transition completes a sequence.
    pub bias: u64,
}

/// The transitions out of `state` as maximal runs of units, dead runs included,
/// in unit order.
pub fn arms(dfa: &Automaton, state: usize) -> Vec<Arm> {
    runs(dfa, state, |u| u)
}

/// With a unit map ([`Automaton::digit_units`]): the transitions out of
/// `state` as maximal runs of *digits* (the units before the map), in digit
/// order, `lo` and `hi` being digits. A decoder that maps each byte to its
/// digit first matches these few runs instead of the map's scattered bytes.
pub fn digit_arms(dfa: &Automaton, state: usize) -> Option<Vec<Arm>> {
    let units = dfa.digit_units?;
    Some(runs(dfa, state, |d| units[usize::from(d)]))
}

/// The runs of keys `0..=255` whose units (`unit(key)`) take the same
/// transition out of `state`.
fn runs(dfa: &Automaton, state: usize, unit: impl Fn(u8) -> u8) -> Vec<Arm> {
    let mut out: Vec<Arm> = Vec::new();
    for u in 0..=255u8 {
        let t = dfa.edge(state, unit(u));
        match out.last_mut() {
            Some(a)
                if a.next == t.next
                    && a.payload_bits == t.payload_bits
                    && a.place == t.place
                    && a.bias == t.bias
                    && a.hi + 1 == u =>
            {
                a.hi = u
            }
            _ => {
                out.push(Arm { lo: u, hi: u, next: t.next, payload_bits: t.payload_bits, place: t.place, bias: t.bias })
            }
        }
    }
    out
}

pub(crate) fn ranges_text(units: &[u8]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < units.len() {
        let mut j = i;
        while j + 1 < units.len() && units[j + 1] == units[j] + 1 {
            j += 1;
        }
        parts.push(if i == j { format!("{:02X}", units[i]) } else { format!("{:02X}-{:02X}", units[i], units[j]) });
        i = j + 1;
    }
    parts.join(",")
}

/// The units of every class, as `00-7F,C0` text.
pub fn class_members(dfa: &Automaton) -> Vec<String> {
    (0..dfa.class_count())
        .map(|c| {
            let units: Vec<u8> = (0..=255u8).filter(|&u| dfa.classes[u as usize] as usize == c).collect();
            ranges_text(&units)
        })
        .collect()
}

/// One cell of the transition table: `next/bits`, `×radix` when the value
/// read so far is multiplied (digit units), `+bias` (or `-bias`, for a bias
/// that stands for a negative one modulo 2^64, beside digit units) when a
/// completing transition adds a bias, `.` when dead.
fn cell(a: &Automaton, t: &crate::automaton::Edge) -> String {
    if t.next == 0 {
        return ".".to_string();
    }
    let mut out = format!("{}/{}", t.next, t.payload_bits);
    if a.radix && t.place > 1 {
        out += &format!("×{}", t.place);
    }
    match t.bias as i64 {
        0 => {}
        b if a.radix && b < 0 => out += &format!("-{:X}", b.unsigned_abs()),
        _ => out += &format!("+{:X}", t.bias),
    }
    out
}

/// The listing printed by `placemat tables`.
///
/// Line 1: `<name>: <C> unit classes, <S> states (dead state 0, start state 1), <B> table bytes`
/// (`start states 1-k, …` with rules across values).
/// Then one line per class with its units, and one row per state whose cells read
/// `next/bits` (`×radix` for digit units, `+bias` when a completing transition
/// adds a bias; `.` is dead). The
/// columns line up: every cell is right-aligned to the widest one (at least 8).
/// With `overlap: longest`, a last block lists the states with a pending value.
pub fn listing(name: &str, dfa: &Automaton) -> String {
    let stride = dfa.class_count();
    let mut s = String::new();
    let starts = match dfa.contexts {
        1 => "start state 1".to_string(),
        n => format!("start states 1-{n}, one per context of its rules across values"),
    };
    let _ = writeln!(
        s,
        "{name}: {} unit classes, {} states (dead state 0, {starts}), {} table bytes",
        stride,
        dfa.state_count(),
        dfa.table_bytes()
    );
    let _ = writeln!(s, "classes:");
    let class_width = (stride.saturating_sub(1)).to_string().len().max(3);
    for (c, members) in class_members(dfa).iter().enumerate() {
        let _ = writeln!(s, "  c{c:<class_width$} {members}");
    }
    let radix = if dfa.radix { ", ×radix" } else { "" };
    let _ = writeln!(s, "transitions (next state/payload bits{radix}, +bias on completion, . = dead):");
    let cells: Vec<Vec<String>> =
        dfa.edges.iter().map(|row| row[..stride].iter().map(|t| cell(dfa, t)).collect()).collect();
    let width = cells.iter().flatten().map(String::len).chain((0..stride).map(|c| c.to_string().len() + 1)).max();
    let width = width.unwrap_or(0).max(8);
    let state_width = dfa.state_count().saturating_sub(1).to_string().len().max(5);
    let mut header = format!("  {:>state_width$}", "state");
    for c in 0..stride {
        let _ = write!(header, " {:>width$}", format!("c{c}"));
    }
    let _ = writeln!(s, "{}", header.trim_end());
    for (st, row_cells) in cells.iter().enumerate().take(dfa.state_count()) {
        let mut row = format!("  {st:>state_width$}");
        for cell in row_cells {
            let _ = write!(row, " {cell:>width$}");
        }
        let _ = writeln!(s, "{}", row.trim_end());
    }
    pending_lines(&mut s, dfa);
    wide_runs_line(&mut s, dfa);
    decoding_table_line(&mut s, dfa);
    encoder_forms_line(&mut s, dfa);
    flagged_line(&mut s, dfa);
    s
}

/// The encoder's forms the one-pass conversion kernels write with, if any:
/// wide units ([`placemat_codec::WideForms`]) or UTF-8-like bytes
/// ([`placemat_codec::simd::ByteForms`]).
fn encoder_forms_line(s: &mut String, dfa: &Automaton) {
    let ranges = |r: [(u32, u32); 2]| {
        let [(a, b), (c, d)] = r;
        if (a, b) == (c, d) {
            format!("{a:X}-{b:X}")
        } else {
            format!("{a:X}-{b:X}, {c:X}-{d:X}")
        }
    };
    let w = &dfa.wide_forms;
    if w.is_some() {
        let pair = w.pair.map_or(String::new(), |p| {
            format!(
                "; {:X}-{:X} as a pair ({:X} + the high bits, {:X} + the low {} bits, of the value less {:X})",
                p.lo, p.hi, p.high, p.low, p.low_bits, p.bias
            )
        });
        let single = if w.single[0].0 > w.single[0].1 { "none".to_string() } else { ranges(w.single) };
        let _ = writeln!(s, "encoder forms (one-pass conversion): one unit of itself for {single}{pair}");
    }
    if let Some(f) = dfa.byte_forms {
        let mut lo = f.first;
        let lengths: Vec<String> = (0..usize::from(f.lengths))
            .map(|n| {
                let part = format!(
                    "{} unit{} {lo:X}-{:X} (lead {:02X})",
                    n + 1,
                    if n == 0 { "" } else { "s" },
                    f.last[n],
                    f.lead[n]
                );
                lo = f.last[n] + 1;
                part
            })
            .collect();
        let continuations =
            if f.lengths > 1 { format!("continuations {:02X} + 6 bits; ", f.continuation) } else { String::new() };
        let _ = writeln!(
            s,
            "encoder forms (one-pass conversion): {}; {continuations}values {}",
            lengths.join(", "),
            ranges(f.allowed)
        );
    }
    if let Some(p) = dfa.pair_forms {
        let _ = writeln!(
            s,
            "encoder pair forms (from UTF-8 through 16-bit units): {:X}-{:X} as the forms of two units \
             ({:X} + the high bits, {:X} + the low {} bits, of the value less {:X})",
            p.lo, p.hi, p.high, p.low, p.low_bits, p.bias
        );
        let back = match dfa.pair_unit_tables {
            Some(_) => "checked by SIMD checks of unit pairs and continuation counts",
            None => "none: the forms of the units alone are not local, so no SIMD checks",
        };
        let _ = writeln!(s, "  its text as 16-bit units (back to UTF-8): {back}");
    }
}

/// The flagged-stream verdict ([`crate::automaton::flagged`]): how the
/// codec's units mark where values end, or why they do not.
fn flagged_line(s: &mut String, dfa: &Automaton) {
    let verdict = crate::automaton::flagged::verdict(&dfa.flagged);
    let _ = writeln!(s, "flagged stream (bulk decoding a word at a time): {verdict}");
    let verdict = crate::automaton::prefixed::verdict(&dfa.prefixed);
    let _ = writeln!(s, "length prefix (bulk decoding one load per value): {verdict}");
}

/// For wide code units, the ranges of units the walkers copy without
/// walking ([`placemat_codec::WideRuns`]).
fn wide_runs_line(s: &mut String, dfa: &Automaton) {
    let runs = dfa.facts.wide_runs;
    if runs.is_some() {
        let [(a, b), (c, d)] = runs.ranges;
        let second = if (a, b) == (c, d) { String::new() } else { format!(", {c:04X}-{d:04X}") };
        let _ = writeln!(s, "code units read as themselves, a unit at a time: {a:04X}-{b:04X}{second}");
    }
}

/// Which table the table decoder walks: the expanded one (payloads placed in
/// advance), the direct one (one entry per state and unit) or the
/// class-compressed one, and what the first two cost.
fn decoding_table_line(s: &mut String, dfa: &Automaton) {
    let kib = |t: &crate::automaton::pack::RowTable| (t.next.len() * 4 + t.values.len() * 8) / 1024;
    let what = match (&dfa.expanded, &dfa.direct) {
        (Some(t), _) => format!("the expanded table ({} KiB: each unit's payload placed in advance)", kib(t)),
        (None, Some(t)) => format!("the direct table ({} KiB: each unit's payload with its shift and place)", kib(t)),
        (None, None) => "the class-compressed table above".to_string(),
    };
    let _ = writeln!(s, "table decoder reads: {what}");
}

/// For `overlap: longest`, one line per state with a pending value: its bias,
/// the context it leaves, and how many units back it ended.
fn pending_lines(s: &mut String, dfa: &Automaton) {
    if !dfa.has_pending() {
        return;
    }
    let _ = writeln!(s, "pending values (longest match: taken where the longer sequences die or the input ends):");
    for (st, p) in dfa.pending.iter().enumerate() {
        if let Some(p) = p {
            let back = match p.back {
                0 => "ended by the unit that led here".to_string(),
                1 => "ended 1 unit back".to_string(),
                n => format!("ended {n} units back"),
            };
            let _ = writeln!(s, "  state {st}: value +{:X}, then context {}, {back}", p.bias, p.to);
        }
    }
}

/// A Graphviz `digraph` of the automaton: one node per live state (the start state
/// doubles as the accepting state), one edge per target with its unit ranges and
/// payload bits. The dead state and edges into it are left out; states with a
/// pending value (`overlap: longest`) are dashed and show its bias.
pub fn dot(name: &str, dfa: &Automaton) -> String {
    let stride = dfa.class_count();
    let mut s = String::new();
    let _ = writeln!(s, "digraph \"{name}\" {{");
    let _ = writeln!(s, "  rankdir=LR;");
    let _ = writeln!(s, "  label=\"{name}: {} classes, {} states\";", stride, dfa.state_count());
    let _ = writeln!(s, "  node [shape=circle, fontname=\"Helvetica\"];");
    let _ = writeln!(s, "  edge [fontname=\"Helvetica\", fontsize=10];");
    let _ = writeln!(s, "  s1 [shape=doublecircle, label=\"start\"];");
    for st in 2..dfa.state_count() {
        // A state that holds a pending value (`overlap: longest`) shows it.
        match dfa.pending[st] {
            Some(p) => {
                let _ = writeln!(s, "  s{st} [label=\"{st}\\npending +{:X}\", style=dashed];", p.bias);
            }
            None => {
                let _ = writeln!(s, "  s{st} [label=\"{st}\"];");
            }
        }
    }
    for st in 1..dfa.state_count() {
        let mut by_target: Vec<(usize, u32, u64, Vec<u8>)> = Vec::new();
        for a in arms(dfa, st) {
            if a.next == 0 {
                continue;
            }
            let key = (a.next, a.payload_bits, a.bias);
            match by_target.iter_mut().find(|(t, b, bi, _)| (*t, *b, *bi) == key) {
                Some(entry) => entry.3.extend(a.lo..=a.hi),
                None => by_target.push((key.0, key.1, key.2, (a.lo..=a.hi).collect())),
            }
        }
        for (t, bits, bias, units) in by_target {
            let bias = if bias != 0 { format!(" +{bias:X}") } else { String::new() };
            let _ = writeln!(s, "  s{st} -> s{t} [label=\"{} /{bits}{bias}\"];", ranges_text(&units));
        }
    }
    s.push_str("}\n");
    s
}
