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
//! end a value are one mask, its lowest bit the value's length; the value's
//! groups are joined by three masked shifts (no multiplication, no table)
//! and checked against its length's range. A word of eight one-unit values
//! is widened at once. (Taking every value that ends in a word from one
//! read was slower on both distributions of the `varints` group: the loop
//! over the word's ends costs more than a read from cache.) Where a value is
//! longer than eight units, out of its length's range or cut by the input's
//! end, the decoder stops; [`decode_flagged`] then takes that one value with
//! the codec's own step (which reports any error exactly) and goes on. A
//! codec's one-value step ([`Flagged::step`]) reads a one-unit value from
//! its unit alone and a longer one from a word.
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

/// How many values [`Flagged::decode_prefix`] makes room for at a time.
pub const BLOCK: usize = 256;

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
    /// input's end cuts: the values and units read. Values are written into
    /// room for [`BLOCK`] at a time ([`Flagged::decode_slice`]): a slot
    /// written by index costs less than a push.
    pub fn decode_prefix<V: Value>(&self, input: &[u8], max: usize, out: &mut Vec<V>) -> Prefix {
        let mut read = Prefix::default();
        while read.values < max {
            let (start, room) = (out.len(), (max - read.values).min(BLOCK));
            out.resize(start + room, V::from_u64_lossy(0));
            let got = self.decode_slice(&input[read.units..], &mut out[start..]);
            out.truncate(start + got.values);
            read = Prefix { values: read.values + got.values, units: read.units + got.units };
            if got.values < room {
                break;
            }
        }
        read
    }

    /// [`Flagged::decode_prefix`] into the slots of `out`, one value each,
    /// until they are full.
    pub fn decode_slice<V: Value>(&self, input: &[u8], out: &mut [V]) -> Prefix {
        let widen = self.lo[0] == 0 && self.bias[0] == 0 && self.hi[0] == 0x7F;
        let (mut pos, mut values) = (0, 0);
        while values < out.len() {
            let rest = &input[pos..];
            let (word, room) = match rest.first_chunk::<8>() {
                Some(w) => (u64::from_le_bytes(*w), 8),
                None => (tail_word(rest), rest.len()),
            };
            let mut ends = self.ends(word);
            if room < 8 {
                ends &= (1u64 << (8 * room)) - 1;
            }
            if let (FLAGS, true, Some(slots)) = (ends, widen, out.get_mut(values..values + 8)) {
                for (slot, unit) in slots.iter_mut().zip(word.to_le_bytes()) {
                    *slot = V::from_u64_lossy(u64::from(unit & 0x7F));
                }
                (pos, values) = (pos + 8, values + 8);
                continue;
            }
            if ends == 0 {
                break;
            }
            let n = (ends.trailing_zeros() / 8 + 1) as usize;
            let Some(value) = self.value(word, n) else { break };
            out[values] = V::from_u64_lossy(value);
            (pos, values) = (pos + n, values + 1);
        }
        Prefix { values, units: pos }
    }

    /// The value at the start of `input` and its length, if this fact
    /// covers it and `input` holds it whole within eight units (else the
    /// codec's step reads it): a codec's one-value step. A one-unit value is
    /// read from its unit alone, a longer one from a word of eight.
    #[inline]
    pub fn step(&self, input: &[u8]) -> Option<(u64, usize)> {
        let &first = input.first()?;
        if (first & 0x80 != 0) != self.continues_when_set {
            let value = u64::from(first & 0x7F).wrapping_add(self.bias[0]);
            return (self.lo[0] <= value && value <= self.hi[0]).then_some((value, 1));
        }
        let word = u64::from_le_bytes(*input.first_chunk::<8>()?);
        let ends = self.ends(word);
        if ends == 0 {
            return None;
        }
        let n = (ends.trailing_zeros() / 8 + 1) as usize;
        self.value(word, n).map(|value| (value, n))
    }

    /// The flag bits of the units of `word` that end a value.
    #[inline]
    fn ends(&self, word: u64) -> u64 {
        let flags = word & FLAGS;
        if self.continues_when_set {
            flags ^ FLAGS
        } else {
            flags
        }
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

/// [`Decoder::decode_prefix`] by `flagged` and `steps`: values into the
/// slots of `out` until they are full or a unit starts no valid value.
pub fn decode_flagged_slice<D: Decoder + ?Sized>(
    flagged: &Flagged,
    steps: &D,
    input: &[u8],
    out: &mut [D::Value],
) -> Prefix {
    let mut read = Prefix::default();
    loop {
        let fast = flagged.decode_slice(&input[read.units..], &mut out[read.values..]);
        read = Prefix { values: read.values + fast.values, units: read.units + fast.units };
        if read.values == out.len() || read.units == input.len() {
            return read;
        }
        match steps.step(&input[read.units..]) {
            Step::Value { value, len } => {
                out[read.values] = value;
                read = Prefix { values: read.values + 1, units: read.units + len };
            }
            Step::Invalid { .. } | Step::Incomplete => return read,
        }
    }
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
