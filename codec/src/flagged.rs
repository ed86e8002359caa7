//! Bulk decoding of integer streams whose units say where a value ends
//! ([`Flagged`]): LEB128, MIDI's VLQ, git's offsets, SQLite's varints up to
//! eight bytes. The compiler derives the fact from a description's forms
//! (`placemat_compiler::automaton::flagged`): every unit of every form of
//! one to eight units is a flag bit (bit 7) and seven payload bits, the flag
//! has one value in the units that continue a sequence and the other in the
//! last, the groups go least or most significant first, and each length has
//! a bias and a range of values its sequences may take.
//!
//! The decoder reads eight units as one word: the flags of the units that
//! end a value are one mask, and every value that ends in the word is taken
//! from it without reading again (its groups joined by three masked shifts,
//! no multiplication, no table), checked against its length's range, and
//! written. A word of eight one-unit values is widened at once. Where a
//! value is longer than eight units, out of its length's range or cut by
//! the input's end, the decoder stops; [`decode_flagged`] then takes that
//! one value with the codec's own step (which reports any error exactly)
//! and goes on.
//!
//! ```
//! use placemat_codec::{decode_flagged, Flagged, Prefix};
//! # use placemat_codec::{Decoder, Step};
//! # struct Steps;
//! # impl Decoder for Steps {
//! #     type Value = u64;
//! #     fn step(&self, _: &[u8]) -> Step<u64> { Step::Incomplete }
//! # }
//! // LEB128 up to eight units: bit 7 set continues, groups least significant first.
//! let hi = core::array::from_fn(|n| (1u64 << (7 * (n + 1))) - 1);
//! let leb128 = Flagged { continues_when_set: true, lsb_first: true, lengths: 8, lo: [0; 8], hi, bias: [0; 8] };
//! let mut out = Vec::new();
//! assert_eq!(leb128.decode_prefix(&[0xE5, 0x8E, 0x26, 0x01, 0x7F], 2, &mut out), Prefix { values: 2, units: 4 });
//! assert_eq!(out, [624_485u64, 1]);
//! out.clear();
//! // A value cut by the end is left to the step, which reports it.
//! let err = decode_flagged(&leb128, &Steps, &[0x01, 0x80], &mut out).unwrap_err();
//! assert_eq!((out.as_slice(), err.valid_up_to()), (&[1u64][..], 1));
//! ```

use alloc::vec::Vec;

use crate::{DecodeError, Decoder, Prefix, Step, Value};

/// The flag bit of every unit.
const FLAGS: u64 = 0x8080_8080_8080_8080;

/// How a codec's units mark the ends of its values, and what the values of
/// each length are: the fact the compiler derives, as data.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Flagged {
    /// Whether bit 7 is set in a unit that continues its sequence (LEB128:
    /// `1xxxxxxx* 0xxxxxxx`); the last unit has it the other way.
    pub continues_when_set: bool,
    /// Whether the first unit carries the least significant group (LEB128),
    /// or the most significant (VLQ, SQLite).
    pub lsb_first: bool,
    /// The longest sequence this fact describes, 1 to 8 units.
    pub lengths: u8,
    /// For `n + 1` units, the least value such a sequence may take.
    pub lo: [u64; 8],
    /// For `n + 1` units, the greatest.
    pub hi: [u64; 8],
    /// For `n + 1` units, the value of payload 0.
    pub bias: [u64; 8],
}

impl Flagged {
    /// Decodes at most `max` values from the start of `input`, appending
    /// them to `out`, up to the first value this fact does not cover (longer
    /// than [`Flagged::lengths`], out of its length's range) or that the
    /// input's end cuts: the values and units read.
    pub fn decode_prefix<V: Value>(&self, input: &[u8], max: usize, out: &mut Vec<V>) -> Prefix {
        let start = out.len();
        out.reserve(max.min(input.len()));
        let mut pos = 0;
        while out.len() - start < max {
            let rest = &input[pos..];
            let (word, room) = match rest.first_chunk::<8>() {
                Some(w) => (u64::from_le_bytes(*w), 8),
                None => (tail_word(rest), rest.len()),
            };
            let taken = self.word(word, room, max - (out.len() - start), out);
            if taken == 0 {
                break;
            }
            pos += taken;
        }
        Prefix { values: out.len() - start, units: pos }
    }

    /// Decodes the values that end in `word` (whose first `room` units are
    /// input), at most `max`; the units they took.
    #[inline]
    fn word<V: Value>(&self, word: u64, room: usize, max: usize, out: &mut Vec<V>) -> usize {
        let flags = word & FLAGS;
        let mut ends = if self.continues_when_set { flags ^ FLAGS } else { flags };
        if room < 8 {
            ends &= (1u64 << (8 * room)) - 1;
        }
        if ends == FLAGS && max >= 8 && self.lo[0] == 0 && self.bias[0] == 0 && self.single_is_unit() {
            out.extend(word.to_le_bytes().map(|u| V::from_u64_lossy(u64::from(u & 0x7F))));
            return 8;
        }
        let (mut from, mut taken) = (0u32, 0);
        while ends != 0 && taken < max {
            let end = ends.trailing_zeros() / 8;
            let n = (end + 1 - from) as usize;
            let Some(value) = self.value(word >> (8 * from), n) else { break };
            out.push(V::from_u64_lossy(value));
            taken += 1;
            from = end + 1;
            ends &= ends - 1;
        }
        from as usize
    }

    /// Whether a one-unit value is the unit's seven low bits and every one
    /// of them is allowed: `hi[0]` is 127.
    #[inline]
    fn single_is_unit(&self) -> bool {
        self.hi[0] == 0x7F
    }

    /// The value of the `n` units at the low end of `units`, if this fact
    /// covers it.
    #[inline]
    fn value(&self, units: u64, n: usize) -> Option<u64> {
        if n > usize::from(self.lengths) {
            return None;
        }
        let spelled = units & (u64::MAX >> (64 - 8 * n)) & !FLAGS;
        let ordered = if self.lsb_first { spelled } else { spelled.swap_bytes() >> (64 - 8 * n) };
        let value = join_groups(ordered).wrapping_add(self.bias[n - 1]);
        (self.lo[n - 1] <= value && value <= self.hi[n - 1]).then_some(value)
    }
}

/// The seven-bit groups of `units` (first group in the low byte) joined into
/// one number: pairs, then fours, then all eight.
#[inline]
fn join_groups(units: u64) -> u64 {
    let pairs = (units & 0x00FF_00FF_00FF_00FF) | ((units & 0xFF00_FF00_FF00_FF00) >> 1);
    let fours = (pairs & 0x0000_FFFF_0000_FFFF) | ((pairs & 0xFFFF_0000_FFFF_0000) >> 2);
    (fours & 0x0000_0000_FFFF_FFFF) | ((fours & 0xFFFF_FFFF_0000_0000) >> 4)
}

/// The last units of an input, fewer than eight, as a word (zeros after).
fn tail_word(rest: &[u8]) -> u64 {
    let mut padded = [0u8; 8];
    padded[..rest.len()].copy_from_slice(rest);
    u64::from_le_bytes(padded)
}

/// Decodes all of `input` by `flagged`, taking each value it leaves with
/// `steps`' [`Decoder::step`] (which has the codec's exact errors): the
/// contract of [`Decoder::decode_into`].
pub fn decode_flagged<D: Decoder + ?Sized>(
    flagged: &Flagged,
    steps: &D,
    input: &[u8],
    out: &mut Vec<D::Value>,
) -> Result<(), DecodeError> {
    decode_flagged_prefix(flagged, steps, input, usize::MAX, out).1
}

/// [`Decoder::decode_prefix_into`] by `flagged` and `steps`: up to `max`
/// values, stopping before the first unit that starts no valid value; what
/// was read, and the error there if decoding stopped before `max` values
/// and the input's end.
pub fn decode_flagged_prefix<D: Decoder + ?Sized>(
    flagged: &Flagged,
    steps: &D,
    input: &[u8],
    max: usize,
    out: &mut Vec<D::Value>,
) -> (Prefix, Result<(), DecodeError>) {
    let mut read = Prefix::default();
    loop {
        let fast = flagged.decode_prefix(&input[read.units..], max - read.values, out);
        read = Prefix { values: read.values + fast.values, units: read.units + fast.units };
        if read.values == max || read.units == input.len() {
            return (read, Ok(()));
        }
        match steps.step(&input[read.units..]) {
            Step::Value { value, len } => {
                out.push(value);
                read = Prefix { values: read.values + 1, units: read.units + len };
            }
            Step::Invalid { len } => return (read, Err(DecodeError::new(read.units, Some(len)))),
            Step::Incomplete => return (read, Err(DecodeError::new(read.units, None))),
        }
    }
}
