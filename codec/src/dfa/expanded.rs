//! The expanded decoding table: two arrays of one row of 256 entries per
//! state, indexed by the unit itself. `next` holds the next state's row;
//! `placed` holds the unit's payload already multiplied by the weight of the
//! payload still to come after it (2 to the payload bits that follow, or for
//! digit units the radices of the digits that follow, `digit × radix^k`),
//! plus, where the unit completes a sequence, the sequence's bias. All of it
//! is computed modulo 2^64, which is all a value of at most 64 bits needs: a
//! bias may be negative (UTF-1's forms subtract what their leads add), and a
//! weight past 2^64 is 0 (Perl's 13-byte form, whose first continuation units
//! carry no payload below 2^63).
//!
//! The class-compressed table (the module docs of [`super`]) is small, but a step
//! through it reads the unit's class, then the entry, then shifts the value by the
//! entry's payload count and masks the unit. When every state knows how many
//! payload bits are still to come before its sequence ends (true of every codec
//! whose first unit fixes the length), or has read no payload yet (CESU-8's
//! state after the literal `ED` that begins both a three-unit sequence and a
//! surrogate pair: its `remaining` weight is 0), a unit's payload can be
//! placed in advance, and a step is two reads and one addition, and the walk's
//! chain from one unit to the next is one addition and one load:
//!
//! ```text
//! i = state + unit;   v += PLACED[i];   state = NEXT[i]
//! ```
//!
//! `next` entries are rows, `id × 256` (dead = 0, start = 256). The walk adds no
//! bias of its own.
//!
//! The two arrays are a [`super::Rows`], whose `values` are the placed
//! payloads.
//!
//! The table exists when the automaton has at most 256 states, one context, no
//! loop other than through the start state, no pending values, and the same
//! weight still to come (modulo 2^64) on every path out of each state that has
//! read payload. It costs 3 KiB per state (27 KiB for strict UTF-8). The
//! compiler computes it (generated codecs hold it in `static`s);
//! [`super::Dfa::new`] checks every entry against the class-compressed table.
//!
//! ```
//! use placemat_codec::dfa::{expanded::ROW, Rows};
//! // Two states: dead (0) and the start (1), where bytes below 80 are values
//! // of themselves and 80-FF are invalid.
//! let mut next = vec![0u32; 2 * ROW];
//! let mut placed = vec![0u64; 2 * ROW];
//! for u in 0..0x80 {
//!     next[ROW + u] = ROW as u32;
//!     placed[ROW + u] = u as u64;
//! }
//! let table = Rows { next: &next, values: &placed };
//! assert_eq!(table.step(ROW, b'A'), (ROW, 0x41));
//! assert_eq!(table.step(ROW, 0xC3), (0, 0));
//! ```

/// Width of a row: one entry per unit.
pub const ROW: usize = 256;
/// Most states an expanded table can hold.
pub const MAX_STATES: usize = 256;
