//! Packing the automaton into the runtime's table format
//! (`placemat_codec::dfa`): transition entries, the expanded decoding table,
//! and the [`Parts`] both generated codecs and loaded ones are made from.
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     pub Two { name: "two", value: u32, range: 0 ..= 0x7FF,
//!               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let a = Automaton::build(&d.model, BuildOptions::default()).unwrap();
//! let dfa = a.dfa();
//! assert_eq!((dfa.class_count(), dfa.state_count()), (4, 3));
//! assert_eq!(dfa.transitions(), &a.transitions[..]);
//! ```

use placemat_codec::dfa::{
    direct, expanded, Decoding, Dfa, Facts, Parts, Payload, Rows, ShiftRows, Table, BIAS_SHIFT, BITS_SHIFT, MAX_BIASES,
    PLACE_SHIFT, STATE_MASK,
};
use placemat_codec::{AsciiRuns, WideRuns};

use super::{Automaton, BuildError};

/// The packed transition entries, states × classes, ids premultiplied.
pub(super) fn transitions(a: &Automaton) -> Result<Vec<u32>, BuildError> {
    let stride = a.class_count();
    if a.state_count() * stride > STATE_MASK as usize + 1 {
        return Err(BuildError::TableFull { states: a.state_count(), classes: stride });
    }
    if a.biases.len() > MAX_BIASES {
        return Err(BuildError::TooLarge);
    }
    let mut out = Vec::with_capacity(a.state_count() * stride);
    for row in &a.edges {
        for e in row {
            let bias = a.biases.iter().position(|&b| b == e.bias).unwrap_or(0);
            out.push((e.next * stride) as u32 | e.payload_bits << BITS_SHIFT | (bias as u32) << BIAS_SHIFT);
        }
    }
    Ok(out)
}

/// A two-array decoding table in owned storage
/// (`placemat_codec::dfa::Rows`): the expanded table's placed payloads, or
/// the direct table's entries, with the next rows beside them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowTable {
    /// The next state's row, per `state × 256 + unit`.
    pub next: Vec<u32>,
    /// The table's value, per `state × 256 + unit`.
    pub values: Vec<u64>,
}

impl RowTable {
    /// The table as the runtime reads it.
    pub fn rows(&self) -> Rows<'_> {
        Rows { next: &self.next, values: &self.values }
    }
}

/// The expanded table, when every state knows the weight of its remaining
/// payload: each entry holds the next row and the unit's payload times the
/// weight after it, plus the bias where the unit completes a sequence, modulo
/// 2^64.
pub(super) fn expanded(a: &Automaton) -> Option<RowTable> {
    let rem = a.certificates.remaining.as_ref()?;
    if a.state_count() > expanded::MAX_STATES {
        return None;
    }
    let len = a.state_count() * expanded::ROW;
    let mut table = RowTable { next: vec![0; len], values: vec![0; len] };
    for s in 1..a.state_count() {
        for u in 0..=255u8 {
            let e = a.edge(s, u);
            if e.next == 0 {
                continue;
            }
            let payload = u64::from(a.digits[u as usize]) & ((1u64 << e.payload_bits) - 1);
            let bias = if e.next == 1 { e.bias } else { 0 };
            let i = s * expanded::ROW + u as usize;
            table.next[i] = (e.next * expanded::ROW) as u32;
            table.values[i] = payload.wrapping_mul(rem[e.next]).wrapping_add(bias);
        }
    }
    Some(table)
}

/// The direct table, for an automaton without an expanded table, radices or
/// loops, within the table's limits: each entry the transition's next row,
/// bias index, shift, place and masked payload.
pub(super) fn direct(a: &Automaton) -> Option<RowTable> {
    if a.expanded.is_some()
        || a.radix
        || a.facts.cyclic
        || a.state_count() > direct::MAX_STATES
        || a.biases.len() > direct::MAX_BIASES
    {
        return None;
    }
    let mut entries = Vec::with_capacity(a.state_count() * direct::ROW);
    for s in 0..a.state_count() {
        for u in 0..=255u8 {
            let e = a.edge(s, u);
            let payload = (u32::from(a.digits[u as usize]) & ((1 << e.payload_bits) - 1)) as u8;
            let (shift, place) = if a.placed { (e.place >> PLACE_SHIFT, e.place & 0xFF) } else { (e.payload_bits, 0) };
            let bias = a.biases.iter().position(|&b| b == e.bias).unwrap_or(0);
            entries.push(direct::entry(e.next, bias, shift, place, payload));
        }
    }
    let next = entries.iter().map(|&e| (e & direct::NEXT_MASK) as u32).collect();
    Some(RowTable { next, values: entries })
}

/// Every transition's place code, in the packed table's order, for an
/// automaton whose transitions place their payload.
pub(super) fn places(a: &Automaton) -> Option<Vec<u64>> {
    a.placed.then(|| a.edges.iter().flatten().map(|e| u64::from(e.place)).collect())
}

/// Every transition's multiplier, in the packed table's order, for an
/// automaton of digit units.
pub(super) fn radices(a: &Automaton) -> Option<Vec<u64>> {
    a.radix.then(|| a.edges.iter().flatten().map(|e| u64::from(e.place)).collect())
}

/// Every state's pending value in the runtime's format
/// (`placemat_codec::dfa::Parts::pending`), or nothing when no state has one.
pub(super) fn pending(a: &Automaton) -> Result<Vec<u32>, BuildError> {
    if a.pending.iter().all(Option::is_none) {
        return Ok(Vec::new());
    }
    a.pending
        .iter()
        .map(|p| {
            let Some(p) = p else { return Ok(0) };
            let bias = a.biases.iter().position(|&b| b == p.bias).ok_or(BuildError::TooLarge)?;
            let back = u8::try_from(p.back).map_err(|_| BuildError::TooLarge)?;
            Ok(placemat_codec::dfa::pending_entry(p.to, bias, usize::from(back)))
        })
        .collect()
}

/// The narrow (`u64`) rows of a 6-bit layout.
pub fn narrow_rows(a: &Automaton) -> Option<[u64; 256]> {
    (a.shift.width == 6).then(|| std::array::from_fn(|u| a.shift.rows[u] as u64))
}

/// The wide (`u128`) rows of a 7-bit layout.
pub fn wide_rows(a: &Automaton) -> Option<[u128; 256]> {
    (a.shift.width == 7).then(|| std::array::from_fn(|u| a.shift.rows[u]))
}

/// What [`Automaton::facts`] holds while the automaton is built, before the
/// tables are packed: nothing claimed.
pub(super) const UNSET_FACTS: Facts = Facts {
    ascii_runs: AsciiRuns::None,
    wide_runs: WideRuns::NONE,
    byte_digits: false,
    cyclic: true,
    unit_bytes: 1,
    sync_units: [0; 4],
    sync_lane: 0,
    end_units: [0; 4],
    continuation_bits: 0,
    contexts: 1,
};

/// The facts of the packed tables (transitions, places or radices, pending
/// values and the depth certificate must be set), by the runtime's own
/// derivation, with the wide runs `wide_runs`.
///
/// # Panics
/// If the runtime refuses the table's format, a bug in this crate.
pub(super) fn facts(a: &Automaton, wide_runs: WideRuns) -> Facts {
    let parts = a.parts_with(ShiftRows::None).with_wide_runs(wide_runs);
    Facts::of(&parts).unwrap_or_else(|e| panic!("placemat-compiler packed a table its runtime refuses ({e}): a bug"))
}

impl Automaton {
    /// The runtime's parts, borrowing from the automaton, with the shift rows
    /// `shift` ([`Automaton::with_parts`] gives the automaton's own).
    pub fn parts_with<'a>(&'a self, shift: ShiftRows<'a>) -> Parts<'a> {
        let table = Table::new(&self.classes, &self.digits, &self.transitions, &self.biases)
            .with_unit_bytes(self.unit_bytes as u8)
            .with_contexts(self.contexts as u8);
        let payload = match (&self.places, &self.radices) {
            (Some(places), _) => Payload::Placed(places),
            (_, Some(radices)) => Payload::Radix(radices),
            _ => Payload::Shifted,
        };
        let decoding = match (&self.expanded, &self.direct, &self.certificates.remaining) {
            (Some(t), _, Some(remaining)) => Decoding::Expanded { rows: t.rows(), remaining },
            (_, Some(t), _) => Decoding::Direct(t.rows()),
            _ => Decoding::Classes,
        };
        let mut parts = Parts::new(table)
            .with_payload(payload)
            .with_decoding(decoding)
            .with_shift(shift)
            .with_wide_runs(self.facts.wide_runs)
            .with_pending(&self.pending_entries);
        if let Some(depth) = &self.certificates.depth {
            parts = parts.with_depth(depth);
        } else if let Some(depth) = &self.certificates.padding_depth {
            parts = parts.with_padding_loops(depth);
        }
        match &self.local {
            Ok(local) => parts.with_simd(local.tables, local.decoding_shape),
            Err(_) => parts,
        }
    }

    /// Hands the runtime's [`Parts`] of this automaton to `f`: what
    /// [`Automaton::dfa`] builds from, and what tests corrupt to see the
    /// runtime's checks refuse them.
    pub fn with_parts<R>(&self, f: impl FnOnce(Parts<'_>) -> R) -> R {
        let narrow = narrow_rows(self);
        let wide = wide_rows(self);
        let shift = match (&narrow, &wide) {
            (Some(rows), _) => ShiftRows::Narrow { offsets: &self.shift.offsets, rows },
            (_, Some(rows)) => ShiftRows::Wide { offsets: &self.shift.offsets, rows },
            _ => ShiftRows::None,
        };
        f(self.parts_with(shift))
    }

    /// The tables in the runtime's owned storage, checked by `Dfa::new`.
    ///
    /// # Panics
    /// If the runtime refuses the tables, which would be a bug in this crate:
    /// every automaton it builds passes (the tests build every codec's).
    pub fn dfa(&self) -> Dfa<Vec<u32>, Vec<u64>> {
        match self.with_parts(Dfa::new) {
            Ok(dfa) => dfa,
            Err(e) => panic!("placemat-compiler built tables its runtime refuses ({e}): a bug"),
        }
    }
}
