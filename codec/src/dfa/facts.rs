//! [`Facts`]: what the walkers specialize on, derived by the compiler and
//! checked by [`super::Dfa::new`] (`check.rs`).

use super::lockstep;
use crate::{AsciiRuns, WideRuns};

/// Facts about an automaton that the walkers specialize on, derived once by the
/// compiler and checked by [`super::Dfa::new`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Facts {
    /// The ASCII code units that are whole sequences of themselves from the
    /// start state: runs of them are copied (or skipped) without walking.
    pub ascii_runs: AsciiRuns,
    /// The code units wider than a byte that are whole sequences of
    /// themselves from the start state ([`WideRuns`]): UTF-16's and UTF-32's
    /// runs of them are copied (or skipped) a unit at a time.
    pub wide_runs: WideRuns,
    /// Every unit's digit is the unit itself (byte units).
    pub byte_digits: bool,
    /// Some path loops other than through the start state: sequences have no
    /// length limit, and values can outgrow any integer.
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
    /// (UTF-16LE: every byte but `DC`–`DF` at place 1). None for such a codec
    /// with several contexts or more than [`MAX_UNIT_SYNC_STATES`] states.
    pub sync_units: [u64; 4],
    /// Which byte of a code unit the sync units are (0 for byte units).
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
