//! The table format and the one table walker that runs it.
//!
//! A [`Dfa`] is a deterministic transducer over units. Generated codecs hold one in
//! `static` storage (`Dfa<&'static [u32], &'static [u64]>`); descriptions loaded at
//! run time build one in owned storage (`Dfa<Vec<u32>, Vec<u64>>`). Both go through
//! the same walker.
//!
//! ```
//! use placemat_codec::dfa::{Dfa, DEAD};
//! // A two-state automaton for "7-bit ASCII": 2 classes (00–7F, 80–FF), states
//! // DEAD (id 0) and START (id 1, premultiplied to 2).
//! let mut classes = [1u8; 256];
//! classes[..0x80].fill(0);
//! let digits = core::array::from_fn(|b| b as u8);
//! let start = 2u32;
//! // Row DEAD: both classes stay dead. Row START: ASCII is a 7-bit value, the rest dies.
//! let trans = vec![0, 0, start | (7 << 16), 0];
//! let dfa = Dfa::new(classes, digits, trans, vec![0u64]).unwrap();
//! assert_eq!(dfa.class_count(), 2);
//! assert_eq!(dfa.state_count(), 2);
//! assert!(dfa.validate(b"plain").is_ok());
//! assert_eq!(dfa.validate(b"ok\x80").unwrap_err().valid_up_to(), 2);
//! assert_eq!(dfa.transition(dfa.start(), b'A').next, dfa.start());
//! assert_eq!(dfa.transition(dfa.start(), 0x80).next, DEAD);
//! ```
//!
//! # The format
//!
//! * `classes[u]` — the unit class of unit `u` (a byte, or the byte spelling an
//!   alphabet symbol). Units in one class behave identically in every state.
//! * `digits[u]` — the digit value of unit `u`: the byte itself for byte units, the
//!   symbol's index for alphabet units. Payload bits are the low bits of the digit.
//! * `trans[state + class]` — one `u32` per state and class, rows laid out state after
//!   state, state ids *premultiplied* by the class count (so a row starts at its id):
//!   - bits 0–15: the next state's id;
//!   - bits 16–19: how many low bits of the digit are payload (`v = v << n | digit & mask`);
//!   - bits 20–31: an index into `biases`, added to the value when the transition
//!     completes a sequence (index 0 holds 0).
//! * State [`DEAD`] (id 0) rejects: every transition from it returns to it. The
//!   start state (id = class count) is also the accepting state: a transition that
//!   lands on it completes a sequence and emits `v + bias`.
//!
//! Invariants (checked by [`Dfa::new`] and, for generated tables, by a `const`
//! assertion next to them): the table has `states × classes` entries; every next
//! state is a multiple of the class count and below the table length; every bias
//! index is in range; payload counts are at most 8.
//!
//! # The decoder's bulk loop and the expanded table
//!
//! [`Dfa::decode_into`] runs two walks side by side over pairs of chunks cut at
//! sync units, writing values without a branch (the `walk` module). Where every
//! state knows how many payload bits are still to come, it reads the
//! [`expanded`] table instead: one row of 256 entries per state, each holding the
//! unit's payload already shifted into place. Generated codecs compute that table
//! at compile time ([`Dfa::with_expanded`]); run-time tables compute it when built
//! ([`Dfa::with_expanded_table`]).
//!
//! # The shift-DFA validator
//!
//! [`Dfa::validate`] does not walk the table above. At construction the states are
//! merged by acceptance alone (validation needs no outputs), and each unit gets one
//! integer row holding, for every state `k` at bit offset `k·w`, the offset of the
//! state it goes to: a step is `state = row[unit] >> state` (Per Vognsen's shift
//! DFA; `w` = 6 in a `u64` for up to 10 states, 7 in a `u128` for up to 18;
//! larger ones, such as all the built-in codecs, may fit a `u64` when fields
//! overlap, see [`Dfa::with_solved_shift`]). Two
//! such chains run on the two halves of the input, split at a unit that every
//! state but the start rejects. [`Dfa::validate_by_table`] is the plain walker, and
//! the tests hold the two to the same answers.
//!
//! # Lineage
//! The layout (class map + premultiplied transition rows, dead state 0) follows
//! Björn Höhrmann's "Flexible and Economical UTF-8 Decoder" (2009–2010) and
//! regex-automata's dense DFAs; the payload/bias output per transition is what lets
//! one walker decode biased encodings such as X/Open FSS-UTF exactly.

use alloc::vec::Vec;
use core::fmt;

use crate::{DecodeError, Step, Value};

pub mod expanded;
mod shift;
mod walk;

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

/// Packs a transition entry.
pub const fn entry(next: usize, payload_bits: u32, bias_index: usize) -> u32 {
    (next as u32) | (payload_bits << BITS_SHIFT) | ((bias_index as u32) << BIAS_SHIFT)
}

/// One transition, unpacked (for tracing and printing; the walker reads entries).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transition {
    /// The unit's class.
    pub class: usize,
    /// The next state's (premultiplied) id.
    pub next: usize,
    /// How many low bits of the unit's digit are payload.
    pub payload_bits: u32,
    /// The bias added when this transition completes a sequence.
    pub bias: u64,
}

/// Why a table was refused by [`Dfa::new`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// No classes, or a class id in `classes` beyond the table's width.
    BadClass,
    /// The table is empty, has fewer than two states, or is not a whole number of rows.
    BadShape,
    /// An entry names a state that does not exist or is not premultiplied.
    BadState,
    /// An entry names a bias that does not exist, or bias 0 is not 0.
    BadBias,
    /// An entry takes more than 8 payload bits.
    BadPayload,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TableError::BadClass => "a unit class is out of range",
            TableError::BadShape => "the transition table is not states x classes",
            TableError::BadState => "a transition names a missing state",
            TableError::BadBias => "a transition names a missing bias",
            TableError::BadPayload => "a transition takes more than 8 payload bits",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for TableError {}

/// A table-driven decoder: unit classes, digit values, transitions and biases.
///
/// `T` and `B` are the storage of the transition table and the bias table:
/// `&'static [u32]`/`&'static [u64]` for generated codecs, `Vec`s for run-time ones.
#[derive(Clone, PartialEq, Eq)]
pub struct Dfa<T = &'static [u32], B = &'static [u64]> {
    classes: [u8; 256],
    digits: [u8; 256],
    trans: T,
    biases: B,
    stride: usize,
    ascii: bool,
    bytes: bool,
    cyclic: bool,
    shift: shift::Shift,
    /// The expanded table ([`expanded`]), when attached.
    expanded: Option<B>,
}

/// Checks the table invariants; usable in `const` context.
///
/// Returns `Ok(stride)` (the class count) when the tables are well formed.
pub const fn check_tables(classes: &[u8; 256], trans: &[u32], biases: &[u64]) -> Result<usize, TableError> {
    let mut stride = 0usize;
    let mut i = 0;
    while i < 256 {
        if classes[i] as usize + 1 > stride {
            stride = classes[i] as usize + 1;
        }
        i += 1;
    }
    if trans.is_empty() || trans.len() % stride != 0 || trans.len() / stride < 2 {
        return Err(TableError::BadShape);
    }
    if biases.is_empty() || biases[0] != 0 {
        return Err(TableError::BadBias);
    }
    let mut i = 0;
    while i < trans.len() {
        let e = trans[i];
        let next = (e & STATE_MASK) as usize;
        if next % stride != 0 || next >= trans.len() {
            return Err(TableError::BadState);
        }
        if ((e >> BITS_SHIFT) & 0xF) > 8 {
            return Err(TableError::BadPayload);
        }
        if (e >> BIAS_SHIFT) as usize >= biases.len() {
            return Err(TableError::BadBias);
        }
        i += 1;
    }
    // The dead row must stay dead.
    let mut c = 0;
    while c < stride {
        if trans[c] & STATE_MASK != DEAD as u32 {
            return Err(TableError::BadState);
        }
        c += 1;
    }
    Ok(stride)
}

/// Whether some path from the start state visits a state twice before it returns
/// to the start: then sequences have no length limit (an unbounded codec). Tables
/// of more than 256 states are treated as cyclic.
const fn has_cycle(trans: &[u32], stride: usize) -> bool {
    let n = trans.len() / stride;
    if n > 256 {
        return true;
    }
    // States reachable in exactly k steps without passing the start state.
    let mut reach = [0u64; 4];
    reach[0] = 1 << 1;
    let mut k = 0;
    while k <= n {
        let mut next = [0u64; 4];
        let mut any = false;
        let mut s = 0;
        while s < n {
            if reach[s / 64] >> (s % 64) & 1 == 1 {
                let mut c = 0;
                while c < stride {
                    let t = (trans[s * stride + c] & STATE_MASK) as usize / stride;
                    if t != 0 && t != 1 {
                        next[t / 64] |= 1 << (t % 64);
                        any = true;
                    }
                    c += 1;
                }
            }
            s += 1;
        }
        if !any {
            return false;
        }
        reach = next;
        k += 1;
    }
    true
}

/// Whether units 00–7F are single-unit values of themselves from the start state.
const fn ascii_transparent(classes: &[u8; 256], digits: &[u8; 256], trans: &[u32], stride: usize) -> bool {
    let mut b = 0;
    while b < 0x80 {
        let e = trans[stride + classes[b] as usize];
        if (e & STATE_MASK) as usize != stride
            || (e >> BITS_SHIFT) & 0xF < 7
            || (e >> BIAS_SHIFT) != 0
            || digits[b] as usize != b
        {
            return false;
        }
        b += 1;
    }
    true
}

/// Whether every unit's digit is the unit itself (byte units).
const fn identity_digits(digits: &[u8; 256]) -> bool {
    let mut b = 0;
    while b < 256 {
        if digits[b] as usize != b {
            return false;
        }
        b += 1;
    }
    true
}

impl Dfa<&'static [u32], &'static [u64]> {
    /// Builds a table over `static` storage, as generated code does. Panics (at
    /// compile time, in a `const`) if the invariants of the module docs do not hold.
    pub const fn from_static(
        classes: [u8; 256],
        digits: [u8; 256],
        trans: &'static [u32],
        biases: &'static [u64],
    ) -> Self {
        let stride = match check_tables(&classes, trans, biases) {
            Ok(s) => s,
            Err(_) => panic!("malformed DFA tables"),
        };
        let ascii = ascii_transparent(&classes, &digits, trans, stride);
        let bytes = identity_digits(&digits);
        let cyclic = has_cycle(trans, stride);
        let shift = shift::build(&classes, trans, stride);
        Dfa { classes, digits, trans, biases, stride, ascii, bytes, cyclic, shift, expanded: None }
    }
}

impl Dfa<&'static [u32], &'static [u64]> {
    /// Uses u64 shift rows with the given state offsets, whose fields may overlap
    /// (found by [`Dfa::with_solved_shift`] for automata of more than 10 states
    /// merged by acceptance; generated codecs pass them from the macro, see
    /// [`Dfa::shift_offsets`]). Panics (at compile time, in a `const`) if the
    /// offsets are not distinct or some row cannot hold its fields.
    pub const fn with_shift_offsets(self, offsets: &[u8]) -> Self {
        match shift::build_solved(&self.classes, self.trans, self.stride, offsets) {
            Some(shift) => Dfa { shift, ..self },
            None => panic!("these shift offsets do not fit the automaton"),
        }
    }

    /// Attaches the expanded table (see [`expanded`]), which generated codecs
    /// compute at compile time with [`expanded::table`]; the table decoder then
    /// walks it instead of the class-compressed table. Panics (at compile time, in
    /// a `const`) if `table` is not the expanded form of these tables.
    pub const fn with_expanded(self, table: &'static [u64]) -> Self {
        assert!(self.biases.len() <= expanded::MAX_BIASES, "too many biases for an expanded table");
        assert!(
            expanded::matches(&self.classes, &self.digits, self.trans, table),
            "not the expanded form of these tables"
        );
        Dfa { expanded: Some(table), ..self }
    }
}

impl<T: AsRef<[u32]>> Dfa<T, Vec<u64>> {
    /// Computes and attaches the expanded table (see [`expanded`]) when the tables
    /// have one; otherwise returns the tables unchanged.
    pub fn with_expanded_table(mut self) -> Self {
        if self.biases.len() <= expanded::MAX_BIASES {
            self.expanded = expanded::table_vec(&self.classes, &self.digits, self.trans.as_ref());
        }
        self
    }
}

impl<T: AsRef<[u32]>, B: AsRef<[u64]>> Dfa<T, B> {
    /// Builds a table over any storage, checking the invariants of the module docs.
    pub fn new(classes: [u8; 256], digits: [u8; 256], trans: T, biases: B) -> Result<Self, TableError> {
        let stride = check_tables(&classes, trans.as_ref(), biases.as_ref())?;
        let ascii = ascii_transparent(&classes, &digits, trans.as_ref(), stride);
        let bytes = identity_digits(&digits);
        let cyclic = has_cycle(trans.as_ref(), stride);
        let shift = shift::build(&classes, trans.as_ref(), stride);
        Ok(Dfa { classes, digits, trans, biases, stride, ascii, bytes, cyclic, shift, expanded: None })
    }

    /// Looks for shift rows that fit a `u64` although the automaton has more than
    /// 10 states merged by acceptance, by letting state fields overlap where every
    /// row agrees (a bounded search, a few milliseconds for the built-in codecs and
    /// at most about a tenth of a second, run by the `codec!` macro at compile
    /// time; see [`Dfa::shift_offsets`]). Keeps the `u128` rows when none is found.
    pub fn with_solved_shift(mut self) -> Self {
        if self.shift.width == 7 {
            let trans = self.trans.as_ref();
            if let Some(solved) = shift::solve(trans, self.stride)
                .and_then(|offsets| shift::build_solved(&self.classes, trans, self.stride, &offsets))
            {
                self.shift = solved;
            }
        }
        self
    }

    /// A borrowed view of the same tables.
    pub fn as_ref(&self) -> Dfa<&[u32], &[u64]> {
        Dfa {
            classes: self.classes,
            digits: self.digits,
            trans: self.trans.as_ref(),
            biases: self.biases.as_ref(),
            stride: self.stride,
            ascii: self.ascii,
            bytes: self.bytes,
            cyclic: self.cyclic,
            shift: self.shift,
            expanded: self.expanded.as_ref().map(|x| x.as_ref()),
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
    /// The expanded table, if one is attached (see [`expanded`]).
    pub fn expanded(&self) -> Option<&[u64]> {
        self.expanded.as_ref().map(|x| x.as_ref())
    }
    /// The bias table; entry 0 is 0.
    pub fn biases(&self) -> &[u64] {
        self.biases.as_ref()
    }
    /// Number of unit classes (the row width).
    pub fn class_count(&self) -> usize {
        self.stride
    }
    /// Number of states, the dead state included.
    pub fn state_count(&self) -> usize {
        self.trans.as_ref().len() / self.stride
    }
    /// The start (and accepting) state's id.
    pub fn start(&self) -> usize {
        self.stride
    }
    /// Whether units 00–7F decode to themselves from the start state, which enables
    /// the ASCII fast path.
    pub fn is_ascii_transparent(&self) -> bool {
        self.ascii
    }
    /// Whether sequences have no length limit (the automaton loops somewhere other
    /// than through the start state). Values of such a codec can outgrow any integer
    /// type: decode them with [`Dfa::step_checked`] or [`Dfa::step_big`].
    pub fn is_cyclic(&self) -> bool {
        self.cyclic
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
            bias: self.biases.as_ref()[(e >> BIAS_SHIFT) as usize],
        }
    }

    /// Decodes the sequence at the start of `input` (see [`crate::Decoder::step`]).
    #[inline]
    pub fn step<V: Value>(&self, input: &[u8]) -> Step<V> {
        let trans = self.trans.as_ref();
        let start = self.stride;
        let mut state = start;
        let mut v: u64 = 0;
        for (i, &b) in input.iter().enumerate() {
            let e = trans[state + self.classes[b as usize] as usize];
            let n = (e >> BITS_SHIFT) & 0xF;
            v = (v << n) | (u64::from(self.digits[b as usize]) & ((1u64 << n) - 1));
            state = (e & STATE_MASK) as usize;
            if state == start {
                let bias = self.biases.as_ref()[(e >> BIAS_SHIFT) as usize];
                return Step::Value { value: V::from_u64_lossy(v.wrapping_add(bias)), len: i + 1 };
            }
            if state == DEAD {
                return Step::Invalid { len: i.max(1) };
            }
        }
        Step::Incomplete
    }

    /// Like [`Dfa::step`] with `u64` values, for tables whose values can outgrow 64
    /// bits: a valid sequence whose value does not fit is reported as
    /// [`Step::Invalid`] over the whole sequence (it is outside the 64-bit view of the
    /// codec; [`Dfa::step_big`] decodes it).
    pub fn step_checked(&self, input: &[u8]) -> Step<u64> {
        let trans = self.trans.as_ref();
        let start = self.stride;
        let mut state = start;
        let mut v: u64 = 0;
        let mut overflow = false;
        for (i, &b) in input.iter().enumerate() {
            let e = trans[state + self.classes[b as usize] as usize];
            let n = (e >> BITS_SHIFT) & 0xF;
            if n > 0 && v >> (64 - n) != 0 {
                overflow = true;
            }
            v = (v << n) | (u64::from(self.digits[b as usize]) & ((1u64 << n) - 1));
            state = (e & STATE_MASK) as usize;
            if state == start {
                let bias = self.biases.as_ref()[(e >> BIAS_SHIFT) as usize];
                return match v.checked_add(bias) {
                    Some(value) if !overflow => Step::Value { value, len: i + 1 },
                    _ => Step::Invalid { len: i + 1 },
                };
            }
            if state == DEAD {
                return Step::Invalid { len: i.max(1) };
            }
        }
        Step::Incomplete
    }

    /// Decodes the sequence at the start of `input` to a value of any size. The
    /// value is accumulated in a `u64` until it would overflow, then in a
    /// [`crate::big::BigUint`].
    #[cfg(feature = "big")]
    pub fn step_big(&self, input: &[u8]) -> Step<crate::big::BigUint> {
        use crate::big::BigUint;
        let trans = self.trans.as_ref();
        let start = self.stride;
        let mut state = start;
        let mut v: u64 = 0;
        let mut big: Option<BigUint> = None;
        for (i, &b) in input.iter().enumerate() {
            let e = trans[state + self.classes[b as usize] as usize];
            let n = (e >> BITS_SHIFT) & 0xF;
            let d = u64::from(self.digits[b as usize]) & ((1u64 << n) - 1);
            match &mut big {
                Some(x) => {
                    *x <<= n;
                    *x |= BigUint::from(d);
                }
                None if n > 0 && v >> (64 - n) != 0 => {
                    let mut x = BigUint::from(v);
                    x <<= n;
                    x |= BigUint::from(d);
                    big = Some(x);
                }
                None => v = (v << n) | d,
            }
            state = (e & STATE_MASK) as usize;
            if state == start {
                let bias = self.biases.as_ref()[(e >> BIAS_SHIFT) as usize];
                let value = big.unwrap_or_else(|| BigUint::from(v)) + bias;
                return Step::Value { value, len: i + 1 };
            }
            if state == DEAD {
                return Step::Invalid { len: i.max(1) };
            }
        }
        Step::Incomplete
    }

    /// Checks that `input` is a concatenation of valid sequences.
    ///
    /// Runs the shift-DFA validator (see the module docs) when
    /// the automaton, merged by acceptance, has at most 18 states, else
    /// [`Dfa::validate_by_table`]. On failure the exact position is recomputed by
    /// [`Dfa::step`] from the last unit boundary the fast loop saw.
    pub fn validate(&self, input: &[u8]) -> Result<(), DecodeError> {
        if self.shift.width == 0 {
            return self.validate_by_table(input);
        }
        match shift::validate(&self.shift, self.ascii, input) {
            Ok(()) => Ok(()),
            Err(boundary) => self.slow_validate(input, boundary),
        }
    }

    /// The solved state offsets of the shift-DFA validator (merged state `k` at
    /// bit `offsets[k]`, dead 0, start 1), when its fields overlap to fit a `u64`;
    /// `None` for the plain `k·width` layout.
    pub fn shift_offsets(&self) -> Option<&[u8]> {
        self.shift.solved.then(|| &self.shift.offsets[..self.shift.count])
    }

    /// Bits per state field of the shift-DFA validator: 6 (rows fit a `u64`, with
    /// fields side by side up to 10 states merged by acceptance, overlapping
    /// beyond, see [`Dfa::shift_offsets`]), 7 (`u128`), or 0 when the automaton
    /// is too large and [`Dfa::validate`] walks the transition table.
    pub fn shift_width(&self) -> u32 {
        self.shift.width
    }

    /// The shift-DFA row of `unit` (a `u64` row widened), for tests that read
    /// the layout back; 0 when [`Dfa::shift_width`] is 0.
    #[doc(hidden)]
    pub fn shift_row(&self, unit: u8) -> u128 {
        self.shift.rows[unit as usize]
    }

    /// [`Dfa::validate`] by the transition table alone: the plain walker, kept as
    /// the fallback for large automata and as the oracle the shift validator is
    /// tested against.
    ///
    /// The hot loop tracks only the state; ASCII runs are skipped eight units at a
    /// time for ASCII-transparent codecs.
    pub fn validate_by_table(&self, input: &[u8]) -> Result<(), DecodeError> {
        const BLOCK: usize = 64;
        let trans = self.trans.as_ref();
        let start = self.stride;
        let mut state = start;
        // A position known to start a sequence.
        let mut boundary = 0;
        let mut i = 0;
        while i < input.len() {
            if state == start {
                boundary = i;
                if self.ascii {
                    while let Some(chunk) = input.get(i..i + 8) {
                        let word = u64::from_le_bytes([
                            chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7],
                        ]);
                        if word & 0x8080_8080_8080_8080 != 0 {
                            break;
                        }
                        i += 8;
                    }
                    boundary = i;
                }
            }
            let end = input.len().min(i + BLOCK);
            for &b in &input[i..end] {
                state = (trans[state + self.classes[b as usize] as usize] & STATE_MASK) as usize;
            }
            i = end;
            if state == DEAD {
                break;
            }
        }
        if state == start {
            return Ok(());
        }
        self.slow_validate(input, boundary)
    }

    /// Step-by-step validation from a known boundary, for exact error positions.
    fn slow_validate(&self, input: &[u8], mut pos: usize) -> Result<(), DecodeError> {
        while pos < input.len() {
            match self.step::<u64>(&input[pos..]) {
                Step::Value { len, .. } => pos += len,
                Step::Invalid { len } => return Err(DecodeError::new(pos, Some(len))),
                Step::Incomplete => return Err(DecodeError::new(pos, None)),
            }
        }
        Ok(())
    }

    /// Appends the values of `input` to `out`: the table decoder's bulk loop, two
    /// walks side by side over pairs of chunks, specialized for byte units, with
    /// ASCII runs copied eight units at a time for ASCII-transparent codecs (the
    /// `walk` module's docs have the details). On error, the values before it have
    /// been appended.
    pub fn decode_into<V: Value>(&self, input: &[u8], out: &mut Vec<V>) -> Result<(), DecodeError> {
        let biased = self.biases.as_ref().len() > 1;
        if let Some(table) = self.expanded() {
            return if biased {
                self.decode_expanded::<V, true>(table, input, out)
            } else {
                self.decode_expanded::<V, false>(table, input, out)
            };
        }
        match (self.bytes, biased) {
            (true, false) => self.decode_units::<V, true, false>(input, out),
            (true, true) => self.decode_units::<V, true, true>(input, out),
            (false, false) => self.decode_units::<V, false, false>(input, out),
            (false, true) => self.decode_units::<V, false, true>(input, out),
        }
    }
}

impl<T: AsRef<[u32]>, B: AsRef<[u64]>> fmt::Debug for Dfa<T, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Dfa")
            .field("classes", &self.class_count())
            .field("states", &self.state_count())
            .field("ascii_transparent", &self.ascii)
            .finish()
    }
}
