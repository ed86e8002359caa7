//! The table format and the one table walker that runs it.
//!
//! A [`Dfa`] is a deterministic transducer over units. Generated codecs hold one in
//! `static` storage (`Dfa<&'static [u32], &'static [u64]>`); descriptions loaded at
//! run time hold one in owned storage (`Dfa<Vec<u32>, Vec<u64>>`). Both go through
//! the same walker, and both are made from the same [`Parts`], which the compiler
//! (`placemat-compiler`) derives from its automaton: this module derives nothing,
//! it checks what it is given.
//!
//! ```
//! use placemat_codec::dfa::{Dfa, Parts, Table, DEAD};
//! // "7-bit ASCII": 2 classes (00–7F, 80–FF), states DEAD (id 0) and START
//! // (id 1, premultiplied to 2).
//! let classes = core::array::from_fn(|u| u8::from(u >= 0x80));
//! let digits = core::array::from_fn(|u| u as u8);
//! // Row DEAD: both classes stay dead. Row START: ASCII is a 7-bit value, the rest dies.
//! let trans = [0, 0, 2 | (7 << 16), 0];
//! let dfa = Dfa::new(Parts::new(Table::new(&classes, &digits, &trans, &[0]))).unwrap();
//! assert_eq!((dfa.class_count(), dfa.state_count()), (2, 2));
//! assert!(dfa.validate(b"plain").is_ok());
//! assert_eq!(dfa.validate(b"ok\x80").unwrap_err().valid_up_to(), 2);
//! assert_eq!(dfa.transition(dfa.start(), b'A').next, dfa.start());
//! assert_eq!(dfa.transition(dfa.start(), 0x80).next, DEAD);
//! // With no live state but the start, every unit is a sync unit and an end unit.
//! assert_eq!(dfa.facts().end_units, [u64::MAX; 4]);
//! ```
//!
//! # The format
//!
//! * `classes[u]` — the unit class of unit `u` (a byte, or the byte spelling an
//!   alphabet symbol). Units in one class behave identically in every state.
//! * `digits[u]` — the digit value of unit `u`: the byte itself for byte units, the
//!   symbol's index for alphabet units. Payload bits are the low bits of the digit.
//! * `transitions[state + class]` — one `u32` per state and class, rows laid out
//!   state after state, state ids *premultiplied* by the class count (so a row
//!   starts at its id):
//!   - bits 0–15: the next state's id;
//!   - bits 16–19: how many low bits of the digit are payload (`v = v << n | digit & mask`;
//!     with [`Parts::radices`], `v = v * radix + digit & mask`);
//!   - bits 20–31: an index into `biases`, added to the value when the transition
//!     completes a sequence (index 0 holds 0).
//! * State [`DEAD`] (id 0) rejects: every transition from it returns to it. The
//!   start state (id = class count) is also the accepting state: a transition that
//!   lands on it completes a sequence and emits `v + bias`.
//! * A codec with rules across adjacent values (WTF-8: no low surrogate right
//!   after a high one) has one start state per *context* ([`Facts::contexts`]):
//!   states 1 to `contexts` (ids premultiplied) are all boundaries, where a
//!   sequence ends, and a sequence read in context `c` starts in state `1 + c`.
//!   Context 0 is the start of input.
//! * A codec whose forms overlap by design (`overlap: longest`: Java's
//!   modified UTF-8, where `ED A0 80` is a lone surrogate and the start of a
//!   pair) has a *pending value* in some states ([`Parts::pending`]): the
//!   units read so far are a whole sequence that a longer one may still
//!   replace. The transitions follow the longer sequences only; a step that
//!   meets the dead state (or the end of the input) after a pending value
//!   returns that value and goes on after it (longest match). The bulk
//!   walkers do not know about pending values: where they fail, the caller
//!   steps from the last boundary they saw, which finds the pending value,
//!   and runs them again further on.
//!
//! Besides the table, [`Parts`] carries what the compiler chose and found,
//! one type per alternative: how payload joins the value ([`Payload`]), the
//! proof that no path loops ([`Loops`]), the table the decoder reads
//! ([`Decoding`]: the transitions, the [`expanded`] table with the weight of
//! the payload still to come in each state, or the [`direct`] table), the
//! validator's [`ShiftRows`], the wide runs and the SIMD tables ([`Simd`]).
//! [`Dfa::new`] derives the [`Facts`] (one `const fn` each, which the
//! compiler calls too) and checks the rest in time linear in the table (the
//! `check` pass; generated codecs run it in a `const`): the certificates
//! (`depth`, `remaining`, the shift offsets) make each claim a local
//! property of every transition.
//!
//! # The walkers
//!
//! [`Dfa::step`] (and its checked and big-integer forms) decodes one sequence;
//! [`Dfa::validate_scalar`] runs the shift rows, [`Dfa::decode_table_into`] the
//! expanded, direct or class-compressed table, both through one driver that walks
//! two parts of the input side by side (the `lockstep` module). For codecs whose
//! validity is local, [`Dfa::validate`] runs the SIMD validator, and
//! [`Dfa::decode_into`] decodes behind it (the `unchecked` module).
//!
//! # Lineage
//! The layout (class map + premultiplied transition rows, dead state 0) follows
//! Björn Höhrmann's "Flexible and Economical UTF-8 Decoder" (2009–2010) and
//! regex-automata's dense DFAs; the payload/bias output per transition is what lets
//! one walker decode biased encodings such as X/Open FSS-UTF exactly.

use alloc::vec::Vec;
use core::fmt;

use crate::{AsciiRuns, DecodeError, Step, Value};

mod accumulate;
mod apart;
mod check;
pub mod direct;
pub mod expanded;
mod facts;
mod lockstep;
mod parts;
mod read;
mod shift;
mod step;
use shift::Shift;
use step::Resume;
mod unchecked;
mod unit_sync;
mod walk;

pub use check::TableError;
pub use facts::{Facts, MAX_UNIT_SYNC_STATES};
pub(crate) use lockstep::Stop;
pub use parts::{Decoding, Loops, Parts, Payload, Rows, ShiftRows, Simd, Table};
pub use unit_sync::wide_sync_units;
pub(crate) use walk::{walks, Tables as WalkTables};

/// The rejecting state's id. Every transition from it leads back to it.
pub const DEAD: usize = 0;

/// Mask of the next-state field of a transition entry.
pub const STATE_MASK: u32 = 0xFFFF;
/// Shift of the payload-bit-count field of a transition entry.
pub const BITS_SHIFT: u32 = 16;
/// Shift of the bias-index field of a transition entry.
pub const BIAS_SHIFT: u32 = 20;
/// Largest number of biases a table can index.
pub const MAX_BIASES: usize = 1 << (32 - BIAS_SHIFT);

/// Shift of the bias-index field of a [`Parts::pending`] entry (the low
/// byte is the context the value leaves, plus one).
pub const PENDING_BIAS_SHIFT: u32 = 8;
/// Shift of the units-since field of a [`Parts::pending`] entry.
pub const PENDING_BACK_SHIFT: u32 = 24;

/// A [`Parts::pending`] entry: the value read so far leaves context `to`
/// with the bias at index `bias`, and completed `back` units ago.
pub const fn pending_entry(to: usize, bias: usize, back: usize) -> u32 {
    (to as u32 + 1) | ((bias as u32) << PENDING_BIAS_SHIFT) | ((back as u32) << PENDING_BACK_SHIFT)
}

/// The context, bias index and units-since of a non-zero [`Parts::pending`] entry.
pub const fn pending_fields(entry: u32) -> (usize, usize, usize) {
    (
        (entry & 0xFF) as usize - 1,
        ((entry >> PENDING_BIAS_SHIFT) & 0xFFF) as usize,
        (entry >> PENDING_BACK_SHIFT) as usize,
    )
}

/// The digit map of byte units: every unit is its own digit.
pub const BYTE_DIGITS: [u8; 256] = {
    let mut d = [0u8; 256];
    let mut u = 0;
    while u < 256 {
        d[u] = u as u8;
        u += 1;
    }
    d
};

/// One transition, unpacked (for tracing and printing; the walker reads entries).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transition {
    /// The unit's class.
    pub class: usize,
    /// The next state's (premultiplied) id.
    pub next: usize,
    /// How many low bits of the unit's digit are payload.
    pub payload_bits: u32,
    /// Where they go, for a table with [`Parts::places`]: `(shift << 8) | place`.
    pub place: Option<u64>,
    /// What the value read so far is multiplied by, for a table with
    /// [`Parts::radices`].
    pub radix: Option<u64>,
    /// The bias added when this transition completes a sequence.
    pub bias: u64,
}

/// Below this many units [`Dfa::validate`] runs the scalar validator: the SIMD
/// kernel's set-up (its tables in registers, a padded copy of the tail) costs
/// more than the shift DFA spends on so short an input.
pub const SIMD_MIN_INPUT: usize = 64;

/// In a [`Parts::places`] entry, the shift of the value read so far (`s`) sits
/// above bit 8; the place of the unit's payload (`q`) is the low byte.
pub const PLACE_SHIFT: u32 = 8;

/// What a step reports when the unit at byte `at` of a sequence cannot follow
/// the ones before it, for code units of `unit` bytes and `available` bytes of
/// input: the maximal subpart as an invalid sequence of whole units
/// ([`whole_units`]), unless the input ends inside that unit, which is then a
/// truncated sequence (a unit is judged whole: UTF-16BE's `D8 00 41` at the end
/// is one error, as in little-endian order, where the bad byte comes last).
pub fn dead_end<V>(at: usize, unit: usize, available: usize) -> Step<V> {
    if unit > 1 && (at / unit + 1) * unit > available {
        return Step::Incomplete;
    }
    Step::Invalid { len: whole_units(at.max(1), unit, available) }
}

/// The length of an invalid sequence of `len` bytes in whole units of `unit`
/// bytes: the units it covers completely, at least one, but no more than the
/// `available` bytes of the input (a bad unit cut short by the end).
pub const fn whole_units(len: usize, unit: usize, available: usize) -> usize {
    if unit <= 1 {
        return len;
    }
    let whole = len - len % unit;
    let whole = if whole < unit { unit } else { whole };
    if whole > available {
        available
    } else {
        whole
    }
}

/// A table-driven decoder: unit classes, digit values, transitions, biases, and
/// what was derived from them.
///
/// `T` and `B` are the storage of the `u32` tables (transitions, pending
/// values, the expanded table's next rows) and of the `u64` tables (biases,
/// the expanded table's placed payloads, the direct table): `&'static` slices for generated codecs, `Vec`s for
/// loaded ones.
#[derive(Clone, PartialEq, Eq)]
pub struct Dfa<T = &'static [u32], B = &'static [u64]> {
    classes: [u8; 256],
    digits: [u8; 256],
    trans: T,
    biases: B,
    /// The expanded table's next rows and placed payloads.
    expanded: Option<(T, B)>,
    /// The direct table's next rows and entries.
    direct: Option<(T, B)>,
    places: Option<B>,
    radices: Option<B>,
    /// The SIMD validator's tables, checked and prepared once.
    simd: Option<crate::simd::Prepared>,
    /// What decoding behind SIMD validation reads, derived when built.
    unchecked: Option<unchecked::Unchecked>,
    pending: T,
    stride: usize,
    facts: Facts,
    shift: Shift,
}

impl Dfa<&'static [u32], &'static [u64]> {
    /// Builds a table over `static` storage, as generated code does, in a
    /// `const`. Panics (a compile error) if the parts do not pass the checks of
    /// [`Dfa::new`].
    pub const fn from_static(parts: Parts<'static>) -> Self {
        let (stride, facts) = match check::check(&parts) {
            Ok(checked) => checked,
            Err(e) => panic!("{}", e.message()),
        };
        let t = parts.table;
        Dfa {
            classes: *t.classes,
            digits: *t.digits,
            trans: t.transitions,
            biases: t.biases,
            expanded: match parts.expanded() {
                Some(t) => Some((t.next, t.values)),
                None => None,
            },
            direct: match parts.direct() {
                Some(t) => Some((t.next, t.values)),
                None => None,
            },
            places: parts.places(),
            radices: parts.radices(),
            // (`check::check` checked the tables: `new` cannot fail here.)
            simd: match parts.simd {
                Some(simd) => match crate::simd::Prepared::new(simd.tables) {
                    Ok(p) => Some(p),
                    Err(e) => panic!("{}", e),
                },
                None => None,
            },
            unchecked: unchecked::Unchecked::of(&parts, &facts, stride),
            pending: parts.pending,
            stride,
            facts,
            shift: Shift::of(&parts.shift, t.contexts),
        }
    }
}

impl Dfa<Vec<u32>, Vec<u64>> {
    /// Builds a table in owned storage, checking the parts: the table invariants
    /// of the module docs, and that the shift rows, the decoding tables and
    /// the other claims agree with the table (in time linear in the table's
    /// size); the facts are derived ([`Facts::of`]).
    pub fn new(parts: Parts<'_>) -> Result<Self, TableError> {
        let (stride, facts) = check::check(&parts)?;
        let t = parts.table;
        Ok(Dfa {
            classes: *t.classes,
            digits: *t.digits,
            trans: t.transitions.to_vec(),
            biases: t.biases.to_vec(),
            expanded: parts.expanded().map(Rows::to_vecs),
            direct: parts.direct().map(Rows::to_vecs),
            places: parts.places().map(<[u64]>::to_vec),
            radices: parts.radices().map(<[u64]>::to_vec),
            // (`check::check` refused tables `Prepared::new` would.)
            simd: parts.simd.and_then(|s| crate::simd::Prepared::new(s.tables).ok()),
            unchecked: unchecked::Unchecked::of(&parts, &facts, stride),
            pending: parts.pending.to_vec(),
            stride,
            facts,
            shift: Shift::of(&parts.shift, t.contexts),
        })
    }
}

impl<T: AsRef<[u32]>, B: AsRef<[u64]>> Dfa<T, B> {
    /// A borrowed view of the same tables.
    pub fn as_ref(&self) -> Dfa<&[u32], &[u64]> {
        Dfa {
            classes: self.classes,
            digits: self.digits,
            trans: self.trans.as_ref(),
            biases: self.biases.as_ref(),
            expanded: self.expanded.as_ref().map(|(n, p)| (n.as_ref(), p.as_ref())),
            direct: self.direct.as_ref().map(|(n, e)| (n.as_ref(), e.as_ref())),
            places: self.places.as_ref().map(|x| x.as_ref()),
            radices: self.radices.as_ref().map(|x| x.as_ref()),
            simd: self.simd,
            unchecked: self.unchecked,
            pending: self.pending.as_ref(),
            stride: self.stride,
            facts: self.facts,
            shift: self.shift,
        }
    }

    /// The class of every unit.
    pub fn classes(&self) -> &[u8; 256] {
        &self.classes
    }
    /// The digit value of every unit.
    pub fn digits(&self) -> &[u8; 256] {
        &self.digits
    }
    /// The raw transition entries (see the module docs).
    pub fn transitions(&self) -> &[u32] {
        self.trans.as_ref()
    }
    /// The expanded table, if the automaton has one (see [`expanded`]).
    pub fn expanded(&self) -> Option<Rows<'_>> {
        self.expanded.as_ref().map(|(next, values)| Rows { next: next.as_ref(), values: values.as_ref() })
    }
    /// The direct table, if the automaton has one (see [`direct`]).
    pub fn direct(&self) -> Option<Rows<'_>> {
        self.direct.as_ref().map(|(next, values)| Rows { next: next.as_ref(), values: values.as_ref() })
    }
    /// The bias table; entry 0 is 0.
    pub fn biases(&self) -> &[u64] {
        self.biases.as_ref()
    }
    /// Every state's pending value ([`Parts::pending`]); empty for a codec
    /// whose forms do not overlap.
    pub fn pending(&self) -> &[u32] {
        self.pending.as_ref()
    }
    /// Whether the codec's forms overlap by design, so that a step may go
    /// back to a pending value ([`Parts::pending`]).
    #[inline(always)]
    pub fn has_pending(&self) -> bool {
        !self.pending.as_ref().is_empty()
    }
    /// The derived facts.
    pub fn facts(&self) -> &Facts {
        &self.facts
    }
    /// Number of unit classes (the row width).
    pub fn class_count(&self) -> usize {
        self.stride
    }
    /// Number of states, the dead state included.
    pub fn state_count(&self) -> usize {
        self.trans.as_ref().len() / self.stride
    }
    /// The start state's id (of context 0; an accepting state).
    pub fn start(&self) -> usize {
        self.stride
    }
    /// The number of contexts: start states, one per context of the codec's
    /// rules across adjacent values ([`Facts::contexts`]).
    pub fn contexts(&self) -> usize {
        usize::from(self.facts.contexts)
    }
    /// The start state of `context` (context 0 past the last one).
    pub fn start_of(&self, context: usize) -> usize {
        if context < self.contexts() {
            (1 + context) * self.stride
        } else {
            self.stride
        }
    }
    /// Whether `state` is a boundary: one of the start states, where a
    /// sequence ends and the next begins.
    #[inline(always)]
    pub fn is_boundary(&self, state: usize) -> bool {
        state.wrapping_sub(self.stride) < self.contexts() * self.stride
    }
    /// The context a boundary state stands for (0 for any other state).
    pub fn context_of(&self, state: usize) -> usize {
        if self.is_boundary(state) {
            state / self.stride - 1
        } else {
            0
        }
    }
    /// Whether units 00–7F decode to themselves from the start state.
    pub fn is_ascii_transparent(&self) -> bool {
        self.facts.ascii_runs == AsciiRuns::Bytes
    }
    /// Whether sequences have no length limit. Values of an unbounded codec can
    /// then outgrow any integer type: decode them with [`Dfa::step_checked`] or
    /// `Dfa::step_big` (feature `big`). (A codec padded without a limit loops
    /// only on zero groups, and its values stay bounded.)
    pub fn is_cyclic(&self) -> bool {
        self.facts.cyclic
    }
    /// Bits per state field of the shift-DFA validator: 6 (`u64` rows), 7
    /// (`u128`), or 0 when [`Dfa::validate`] walks the transition table.
    pub fn shift_width(&self) -> u32 {
        self.shift.width
    }

    /// Size of the tables in bytes (class and digit maps, transitions, biases).
    pub fn table_bytes(&self) -> usize {
        512 + 4 * self.trans.as_ref().len() + 8 * self.biases.as_ref().len()
    }

    /// The transition taken from `state` on `unit`.
    pub fn transition(&self, state: usize, unit: u8) -> Transition {
        let class = self.classes[unit as usize] as usize;
        let e = self.trans.as_ref()[state + class];
        Transition {
            class,
            next: (e & STATE_MASK) as usize,
            payload_bits: (e >> BITS_SHIFT) & 0xF,
            place: self.places().and_then(|p| p.get(state + class).copied()),
            radix: self.radices().and_then(|r| r.get(state + class).copied()),
            bias: self.biases.as_ref()[(e >> BIAS_SHIFT) as usize],
        }
    }

    /// Decodes the sequence at the start of `input` (see [`crate::Decoder::step`]),
    /// with wrapping `u64` arithmetic: exact unless a loop reads payload (an
    /// unbounded codec's).
    #[inline]
    pub fn step<V: Value>(&self, input: &[u8]) -> Step<V> {
        self.step_from(self.stride, input).0
    }

    /// [`Dfa::step`] in `context` (see [`crate::Decoder::step_in`]).
    #[inline]
    pub fn step_in<V: Value>(&self, context: usize, input: &[u8]) -> Step<V> {
        self.step_from(self.start_of(context), input).0
    }

    /// [`Dfa::step_in`] where more input may follow `input`: a value that
    /// more input could replace by a longer one (a pending value, see
    /// [`Parts::pending`]) is [`Step::Incomplete`] when the input ends after
    /// it. For a codec whose forms do not overlap this is [`Dfa::step_in`].
    #[inline]
    pub fn step_open<V: Value>(&self, context: usize, input: &[u8]) -> Step<V> {
        self.step_from_open(self.start_of(context), input, true).0
    }

    /// [`Dfa::step`] from start state `from`, with the state it ends in.
    #[inline]
    fn step_from<V: Value>(&self, from: usize, input: &[u8]) -> (Step<V>, usize) {
        self.step_from_open(from, input, false)
    }

    /// Like [`Dfa::step`] with `u64` values, for tables whose values can outgrow 64
    /// bits: a valid sequence whose value does not fit is reported as
    /// [`Step::Invalid`] over the whole sequence (it is outside the 64-bit view of the
    /// codec; `Dfa::step_big` (feature `big`) decodes it).
    pub fn step_checked(&self, input: &[u8]) -> Step<u64> {
        if self.places.is_some() || self.radices.is_some() {
            // Never looping on payload (a table invariant): no value outgrows
            // what its sequence's paths without loops spell.
            return self.step(input);
        }
        self.walk::<accumulate::Checked>(self.stride, input, false).0
    }

    /// Decodes the sequence at the start of `input` to a value of any size. The
    /// value is accumulated in a `u64` until it would overflow, then in a
    /// [`crate::big::BigUint`].
    #[cfg(feature = "big")]
    pub fn step_big(&self, input: &[u8]) -> Step<crate::big::BigUint> {
        if self.places.is_some() || self.radices.is_some() {
            return self.step::<u64>(input).map(crate::big::BigUint::from);
        }
        self.walk::<accumulate::Big>(self.stride, input, false).0
    }

    /// Where each transition puts its payload, for tables that say
    /// ([`Parts::places`]).
    pub fn places(&self) -> Option<&[u64]> {
        self.places.as_ref().map(|p| p.as_ref())
    }

    /// Each transition's multiplier, for a codec of digit units
    /// ([`Parts::radices`]).
    pub fn radices(&self) -> Option<&[u64]> {
        self.radices.as_ref().map(|p| p.as_ref())
    }

    /// Checks that `input` is a concatenation of valid sequences.
    ///
    /// Runs the SIMD validator when the codec has one, the machine can, and
    /// the input is at least [`SIMD_MIN_INPUT`] long ([`Dfa::validate_simd`]);
    /// else [`Dfa::validate_scalar`].
    pub fn validate(&self, input: &[u8]) -> Result<(), DecodeError> {
        let isa = crate::simd::Isa::detect().filter(|_| input.len() >= SIMD_MIN_INPUT);
        match isa.and_then(|isa| self.validate_simd(isa, input)) {
            Some(result) => result,
            None => self.validate_scalar(input),
        }
    }

    /// The SIMD validator's tables, for a codec whose validity is local.
    pub fn simd(&self) -> Option<&crate::simd::Tables> {
        self.simd.as_ref().map(crate::simd::Prepared::tables)
    }

    /// The same tables, checked, with the kernels' constants worked out: what
    /// a caller validating block after block holds.
    pub fn simd_prepared(&self) -> Option<&crate::simd::Prepared> {
        self.simd.as_ref()
    }

    /// Validates with the SIMD kernel for `isa`: `None` if the codec has no
    /// SIMD tables or the machine lacks `isa`. The kernel answers per 64-byte
    /// chunk; on failure [`Dfa::step`] recomputes the exact error from the
    /// last sequence boundary at least [`Tables::restart`] units before the
    /// failing chunk, which lies before the first invalid unit.
    ///
    /// [`Tables::restart`]: crate::simd::Tables::restart
    pub fn validate_simd(&self, isa: crate::simd::Isa, input: &[u8]) -> Option<Result<(), DecodeError>> {
        let p = self.simd.as_ref()?;
        if !crate::simd::Isa::all().contains(&Some(isa)) {
            return None;
        }
        let t = p.tables();
        Some(p.validate(isa, input).or_else(|chunk| {
            let mut from = chunk.saturating_sub(usize::from(t.restart));
            while from > 0 && input.get(from).is_none_or(|&u| t.is_continuation(u)) {
                from -= 1;
            }
            self.steps(self.stride, input, from, Resume::Never, None::<&mut Vec<u64>>).0.map(drop)
        }))
    }

    /// Validation without SIMD.
    ///
    /// Runs the shift-DFA validator when the automaton has shift rows, else
    /// [`Dfa::validate_by_table`]. On failure the exact position is recomputed by
    /// [`Dfa::step`] from the last sequence boundary the fast loop saw.
    pub fn validate_scalar(&self, input: &[u8]) -> Result<(), DecodeError> {
        let sync = &self.facts.cuts();
        let runs = lockstep::Runs::of(&self.facts);
        match self.shift.width {
            6 | 7 => {
                self.rescued(input, None::<&mut Vec<u64>>, |rest, _| shift::validate(&self.shift, runs, sync, rest))
            }
            _ => self.validate_by_table(input),
        }
    }

    /// [`Dfa::validate`] by the transition table alone: the plain walker, kept as
    /// the fallback for large automata and as the oracle the shift validator is
    /// tested against.
    pub fn validate_by_table(&self, input: &[u8]) -> Result<(), DecodeError> {
        let walker = shift::TableWalker {
            trans: self.trans.as_ref(),
            classes: &self.classes,
            start: self.stride,
            span: self.contexts() * self.stride,
            runs: lockstep::Runs::of(&self.facts),
        };
        self.rescued(input, None::<&mut Vec<u64>>, |rest, _| walker.validate(&self.facts.cuts(), rest))
    }

    /// Appends the values of `input` to `out` (on error, those before it):
    /// [`Dfa::decode_validated_into`] where [`Dfa::decoding_shape`] is `Some`
    /// and the machine runs the SIMD decoding kernel
    /// ([`decodes_on`](crate::simd::decodes_on)), else the table decoder
    /// ([`Dfa::decode_table_into`]).
    pub fn decode_into<V: Value>(&self, input: &[u8], out: &mut Vec<V>) -> Result<(), DecodeError> {
        let kernel = crate::simd::Isa::detect().is_some_and(crate::simd::decodes_on);
        if kernel && self.decoding_shape().is_some() {
            self.decode_validated_into(input, out)
        } else {
            walk::decode_into(self, input, out)
        }
    }

    /// The last *cut* in `input`, within 256 units of its end: a position
    /// where, in valid input, a sequence starts whatever units follow `input`
    /// (before a sync unit or after an end unit, [`Facts`]), so that the
    /// values of `input[..cut]` are those of any longer input's first `cut`
    /// units (a pending value of `overlap: longest` included). `None` when
    /// there is none there, and for a codec without sync or end units.
    ///
    /// ```
    /// # use placemat_codec::dfa::{Dfa, Parts, Table};
    /// # let classes = core::array::from_fn(|u| u8::from(u >= 0x80));
    /// # let digits = core::array::from_fn(|u| u as u8);
    /// # let dfa = Dfa::new(Parts::new(Table::new(&classes, &digits, &[0, 0, 2 | 7 << 16, 0], &[0]))).unwrap();
    /// // 7-bit ASCII: every unit ends a sequence, so the end is a cut.
    /// assert_eq!(dfa.last_cut(b"abc"), Some(3));
    /// assert_eq!(dfa.last_cut(b""), None);
    /// ```
    pub fn last_cut(&self, input: &[u8]) -> Option<usize> {
        self.facts.last_cut(input)
    }

    /// The table decoder: its bulk loop, two walks side by side over pairs of
    /// chunks, reading the expanded table when there is one (the `walk`
    /// module's docs have the details). On error, the values before it have
    /// been appended.
    pub fn decode_table_into<V: Value>(&self, input: &[u8], out: &mut Vec<V>) -> Result<(), DecodeError> {
        walk::decode_into(self, input, out)
    }

    /// [`Dfa::decode_table_into`] with SIMD validation in front: for a codec with
    /// SIMD tables whose continuation units all carry the same payload bits
    /// ([`Facts::continuation_bits`]), blocks of up to 16 KiB are validated by SIMD and
    /// decoded without checks (the `unchecked` module: by the SIMD decoding
    /// kernel where [`Dfa::decoding_shape`] is `Some`); from the first block
    /// that fails, and for other codecs, the table decoder.
    pub fn decode_validated_into<V: Value>(&self, input: &[u8], out: &mut Vec<V>) -> Result<(), DecodeError> {
        match unchecked::decode_into(self, input, out) {
            Ok(()) => Ok(()),
            Err(from) => walk::decode_into(self, &input[from..], out)
                .map_err(|e| DecodeError::new(from + e.valid_up_to(), e.error_len())),
        }
    }

    /// How the SIMD decoding kernel reads this codec's values
    /// ([`Shape`](crate::simd::Shape)): [`Parts::decoding_shape`], which the
    /// compiler gives a codec with SIMD tables whose continuation units are one
    /// run, each carrying 6 bits of itself, and whose leads of each length are
    /// worth themselves less one base.
    pub fn decoding_shape(&self) -> Option<crate::simd::Shape> {
        self.unchecked.and_then(|u| u.shape)
    }
}

impl<T: AsRef<[u32]>, B: AsRef<[u64]>> fmt::Debug for Dfa<T, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Dfa")
            .field("classes", &self.class_count())
            .field("states", &self.state_count())
            .field("facts", &self.facts)
            .field("shift_width", &self.shift.width)
            .field("expanded", &self.expanded.is_some())
            .field("direct", &self.direct.is_some())
            .finish()
    }
}
