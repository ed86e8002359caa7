//! [`Facts`]: what the walkers specialize on, each with one definition here,
//! a `const fn` over the [`Parts`]. [`super::Dfa::new`] (and
//! [`super::Dfa::from_static`], in a `const`) derives them when it builds a
//! table, and the compiler calls the same functions ([`Facts::of`]) to learn
//! them for its listings, analyses and generated code: no fact is computed
//! twice.
//!
//! ```
//! use placemat_codec::dfa::{Facts, Parts, Table};
//! use placemat_codec::AsciiRuns;
//! // 7-bit ASCII beside two-unit sequences `1xxxxxxx 0xxxxxxx`: classes
//! // 00–7F (0) and 80–FF (1); states dead, start (id 2), after a lead (id 4).
//! let classes = core::array::from_fn(|u| u8::from(u >= 0x80));
//! let digits = core::array::from_fn(|u| u as u8);
//! let transitions = [0, 0, 2 | 7 << 16, 4 | 7 << 16, 2 | 7 << 16, 0];
//! let facts = Facts::of(&Parts::new(Table::new(&classes, &digits, &transitions, &[0]))).unwrap();
//! assert_eq!(facts.ascii_runs, AsciiRuns::Bytes);
//! assert!(facts.is_end(0x41) && !facts.is_sync(0x41) && facts.is_sync(0x80));
//! assert_eq!(facts.continuation_bits, 7);
//! ```

use super::read::{has, next, same_transition};
use super::{lockstep, wide_sync_units, Parts, BIAS_SHIFT, BITS_SHIFT, DEAD, PLACE_SHIFT, STATE_MASK};
use crate::{AsciiRuns, WideRuns};

/// Facts about an automaton that the walkers specialize on, derived from its
/// [`Parts`] by [`Facts::of`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Facts {
    /// The ASCII code units that are whole sequences of themselves from the
    /// start state: runs of them are copied (or skipped) without walking.
    pub ascii_runs: AsciiRuns,
    /// The code units wider than a byte that are whole sequences of
    /// themselves from the start state ([`WideRuns`]), as the parts claim
    /// them ([`Parts::wide_runs`], checked): UTF-16's and UTF-32's
    /// runs of them are copied (or skipped) a unit at a time.
    pub wide_runs: WideRuns,
    /// Every unit's digit is the unit itself (byte units).
    pub byte_digits: bool,
    /// Some path loops other than through the start state: sequences have no
    /// length limit, and values can outgrow any integer ([`Parts::loops`]).
    pub cyclic: bool,
    /// Bytes per code unit (1, 2 or 4): an invalid sequence is reported as
    /// whole units (UTF-16's lone surrogate is one error of two bytes), and a
    /// partial unit at the end as a truncated sequence.
    pub unit_bytes: u8,
    /// The sync units: bit `u % 64` of word `u / 64` is set when every state but
    /// the start rejects unit `u`, so that a sequence starts at it in valid input.
    /// For code units wider than a byte, bytes at place [`Facts::sync_lane`] of a
    /// code unit: bit `b` is set when every state a walk can be in between code
    /// units, but the start, rejects every code unit whose byte there is `b`
    /// (UTF-16LE: every byte but `DC`–`DF` at place 1; [`wide_sync_units`]). None for such a codec
    /// with several contexts or more than [`MAX_UNIT_SYNC_STATES`] states.
    pub sync_units: [u64; 4],
    /// Which byte of a code unit the sync units are (0 for byte units): the
    /// place with the most sync bytes, the first of those.
    pub sync_lane: u8,
    /// The end units: bit `u % 64` of word `u / 64` is set when unit `u` leads
    /// every live state to the start state or the dead one, so that in valid
    /// input a sequence ends at it (and the next starts after it). LEB128's and
    /// the 6-bit printable encoding's final units are end units, though no
    /// unit of theirs is a sync unit.
    pub end_units: [u64; 4],
    /// Every transition out of a state other than the start carries this many
    /// payload bits, and none adds a bias or places its payload (0 if not so):
    /// valid input then decodes without the table (see [`super::Dfa::decode_into`]).
    pub continuation_bits: u8,
    /// The start states, one per context of the codec's rules across
    /// adjacent values: states 1 to `contexts` (1 without rules). Sync units
    /// then also act alike from every start state, and end units lead to the
    /// start of context 0.
    pub contexts: u8,
}

/// Most states of an automaton of code units wider than a byte that has sync
/// units ([`Facts::sync_units`]): it bounds the cost of their check.
pub const MAX_UNIT_SYNC_STATES: usize = 256;

impl Facts {
    /// Whether `unit` is a sync unit.
    pub const fn is_sync(&self, unit: u8) -> bool {
        has(&self.sync_units, unit as usize)
    }

    /// Whether `unit` is an end unit.
    pub const fn is_end(&self, unit: u8) -> bool {
        has(&self.end_units, unit as usize)
    }

    /// Whether units 00–7F are single-unit values of themselves from the start
    /// state (byte ASCII runs).
    pub const fn is_ascii_transparent(&self) -> bool {
        matches!(self.ascii_runs, AsciiRuns::Bytes)
    }

    /// [`super::Dfa::last_cut`] by these facts alone.
    pub(crate) fn last_cut(&self, input: &[u8]) -> Option<usize> {
        lockstep::last_cut(&self.cuts(), input)
    }

    /// Where the table walkers may cut the input for a second walk.
    pub(crate) fn cuts(&self) -> lockstep::Cuts<'_> {
        lockstep::Cuts {
            before: &self.sync_units,
            after: &self.end_units,
            unit_bytes: usize::from(self.unit_bytes.max(1)),
            lane: usize::from(self.sync_lane),
        }
    }
}

/// Every fact of well-formed parts of `stride` classes.
pub(super) const fn derive(p: &Parts<'_>, stride: usize) -> Facts {
    let t = &p.table;
    let (sync_units, sync_lane) = sync_units(p, stride);
    Facts {
        ascii_runs: ascii_runs(p, stride),
        wide_runs: p.wide_runs,
        byte_digits: byte_digits(t.digits),
        cyclic: p.is_cyclic(),
        unit_bytes: t.unit_bytes,
        sync_units,
        sync_lane,
        end_units: end_units(p, stride),
        continuation_bits: continuation_bits(p, stride),
        contexts: t.contexts,
    }
}

/// Whether every unit's digit is the unit itself.
const fn byte_digits(digits: &[u8; 256]) -> bool {
    let mut u = 0;
    while u < 256 {
        if digits[u] as usize != u {
            return false;
        }
        u += 1;
    }
    true
}

/// The widest kind of ASCII run of the table's unit width whose units are
/// each one sequence of their own value ([`AsciiRuns::ALL`] lists all of
/// `00`–`7F` before `01`–`7F`).
const fn ascii_runs(p: &Parts<'_>, stride: usize) -> AsciiRuns {
    let mut k = 1;
    while k < AsciiRuns::ALL.len() {
        let runs = AsciiRuns::ALL[k];
        if runs.unit_bytes() == p.table.unit_bytes as usize && each_is_itself(p, stride, runs) {
            return runs;
        }
        k += 1;
    }
    AsciiRuns::None
}

/// Whether every code unit `runs` includes decodes to itself.
const fn each_is_itself(p: &Parts<'_>, stride: usize, runs: AsciiRuns) -> bool {
    let mut c = 0u8;
    while c < 0x80 {
        if runs.includes(c) && !decodes_to(p, stride, &runs.code_unit(c), runs.unit_bytes(), c as u64) {
            return false;
        }
        c += 1;
    }
    true
}

/// Whether the first `len` of `units`, walked from the start state, are one
/// sequence of value `value` (its bias included: UTF-1's `41` is digit 20 plus
/// 21).
const fn decodes_to(p: &Parts<'_>, stride: usize, units: &[u8; 4], len: usize, value: u64) -> bool {
    let t = &p.table;
    let (mut state, mut v, mut i) = (stride, 0u64, 0);
    while i < len {
        let b = units[i] as usize;
        let at = state + t.classes[b] as usize;
        let e = t.transitions[at];
        let n = (e >> BITS_SHIFT) & 0xF;
        let payload = (t.digits[b] as u64) & ((1u64 << n) - 1);
        v = match (p.places(), p.radices()) {
            (Some(places), _) if at < places.len() => {
                let q = places[at];
                (v << ((q >> PLACE_SHIFT) & 63)) | (payload << (q & 63))
            }
            (_, Some(radices)) if at < radices.len() => v.wrapping_mul(radices[at]).wrapping_add(payload),
            _ => (v << n) | payload,
        };
        state = (e & STATE_MASK) as usize;
        i += 1;
        // Only the last unit may end the sequence; its bias is part of the value.
        if (state == stride) != (i == len) || state == DEAD {
            return false;
        }
        if i == len {
            v = v.wrapping_add(t.biases[(e >> BIAS_SHIFT) as usize]);
        }
    }
    v == value
}

/// The end units: every live state goes to the start (of context 0) or dies.
const fn end_units(p: &Parts<'_>, stride: usize) -> [u64; 4] {
    let n = p.table.transitions.len() / stride;
    let mut end = [true; 256];
    let mut s = 1;
    while s < n {
        let mut c = 0;
        while c < stride {
            let t = next(p, stride, s, c);
            end[c] &= t == DEAD || t == 1;
            c += 1;
        }
        s += 1;
    }
    unit_set(p.table.classes, &end)
}

/// The sync units and their lane: for byte units, the units every live state
/// but the start states rejects and every start state takes alike; for wider
/// code units, [`wide_sync_units`] at the lane with the most.
const fn sync_units(p: &Parts<'_>, stride: usize) -> ([u64; 4], u8) {
    let t = &p.table;
    if t.unit_bytes > 1 {
        let (mut best, mut lane, mut most) = ([0; 4], 0, 0);
        let mut l = 0;
        while l < t.unit_bytes {
            let set = wide_sync_units(t.classes, t.transitions, t.unit_bytes, t.contexts, l);
            let count = set[0].count_ones() + set[1].count_ones() + set[2].count_ones() + set[3].count_ones();
            if count > most {
                (best, lane, most) = (set, l, count);
            }
            l += 1;
        }
        return (best, lane);
    }
    let n = t.transitions.len() / stride;
    let contexts = t.contexts as usize;
    let mut sync = [true; 256];
    let mut s = 1;
    while s < n {
        let mut c = 0;
        while c < stride {
            sync[c] &= if s <= contexts { same_transition(p, stride, s, c) } else { next(p, stride, s, c) == DEAD };
            c += 1;
        }
        s += 1;
    }
    (unit_set(t.classes, &sync), 0)
}

/// The units whose class is marked in `by_class`.
const fn unit_set(classes: &[u8; 256], by_class: &[bool; 256]) -> [u64; 4] {
    let mut set = [0u64; 4];
    let mut u = 0;
    while u < 256 {
        if by_class[classes[u] as usize] {
            set[u / 64] |= 1 << (u % 64);
        }
        u += 1;
    }
    set
}

/// The payload bits every live transition out of a state other than the
/// start carries, when they agree, no live transition adds a bias, payload
/// is shifted, and there is one context and no pending value; else 0.
const fn continuation_bits(p: &Parts<'_>, stride: usize) -> u8 {
    let t = &p.table;
    if p.words().is_some() || t.contexts != 1 || !p.pending.is_empty() {
        return 0;
    }
    // None seen yet: `u32::MAX`.
    let mut bits = u32::MAX;
    let mut i = 0;
    while i < t.transitions.len() {
        let e = t.transitions[i];
        if e & STATE_MASK != 0 {
            if e >> BIAS_SHIFT != 0 {
                return 0;
            }
            let n = (e >> BITS_SHIFT) & 0xF;
            if i / stride >= 2 {
                if bits != u32::MAX && n != bits {
                    return 0;
                }
                bits = n;
            }
        }
        i += 1;
    }
    if bits == u32::MAX {
        0
    } else {
        bits as u8
    }
}
