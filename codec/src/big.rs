//! Values of any size, for unbounded codecs such as `printable6-big`.
//!
//! Unbounded codecs implement the ordinary [`crate::Decoder`]/[`crate::Encoder`]
//! traits over `u64` — the fast path, and the only one most text ever needs — and
//! the [`crate::Codec::step_big`]/[`crate::Codec::encode_big`] methods for values
//! of any size. The table walker accumulates in a `u64` and moves to a [`BigUint`]
//! only when a value outgrows it ([`crate::dfa::Dfa::step_big`]).
//!
//! A signed codec of any size (`value: unbounded` with `sign: zigzag` or
//! `low_bit`) reads `i64` on the fast path and [`BigInt`] through
//! [`crate::Codec::step_bigint`]/[`crate::Codec::encode_bigint`], which every
//! codec has: an unsigned codec's values are the non-negative ones.
//!
//! ```
//! use placemat_codec::big::{BigUint, RepeatForm};
//! // A continuation-bit code: `1xxxxx* 0xxxxx` over 6-bit units written as bytes.
//! let form = RepeatForm { units: &[(0b100000, 5), (0b000000, 5)], repeat: 0, alphabet: None };
//! let mut out = Vec::new();
//! form.encode(&(BigUint::from(1u32) << 100u32), &mut out);
//! assert_eq!(out.len(), 21); // 101 bits need 21 five-bit digits
//! assert_eq!((out[0], out[20]), (0b100001, 0));
//! ```

use alloc::vec::Vec;

pub use num_bigint::{BigInt, BigUint};

/// The number `high` followed by the payload `digits` (`(bit count, digit)`,
/// most significant first): `high << total | d₀ << … | dₙ`, built limb by limb
/// from the least significant end, in time linear in the number of digits.
///
/// ```
/// use placemat_codec::big::{from_digits, BigUint};
/// // 0b1 then 0b10 (2 bits) then 0b111 (3 bits): 0b1_10_111.
/// assert_eq!(from_digits(1, &[(2, 0b10), (3, 0b111)]), BigUint::from(0b110111u32));
/// ```
pub fn from_digits(high: u64, digits: &[(u8, u8)]) -> BigUint {
    let total: u64 = digits.iter().map(|&(n, _)| u64::from(n)).sum();
    let mut limbs: Vec<u64> = alloc::vec![0; (total / 64 + 2) as usize];
    let mut at = 0u64;
    let mut put = |value: u64, width: u64, at: u64| {
        if width == 0 || value == 0 {
            return;
        }
        let (limb, shift) = ((at / 64) as usize, at % 64);
        limbs[limb] |= value << shift;
        if shift + width > 64 && shift > 0 {
            limbs[limb + 1] |= value >> (64 - shift);
        }
    };
    for &(n, d) in digits.iter().rev() {
        put(u64::from(d), u64::from(n), at);
        at += u64::from(n);
    }
    put(high, 64, at);
    let words: Vec<u32> = limbs.iter().flat_map(|&l| [l as u32, (l >> 32) as u32]).collect();
    BigUint::new(words)
}

/// A form whose unit `repeat` may repeat, with no bias: how unbounded codecs write
/// values too large for `u64` (the shortest expansion that holds the value).
#[derive(Copy, Clone, Debug)]
pub struct RepeatForm<'a> {
    /// `(fixed bits, payload bit count)` of every unit of the pattern.
    pub units: &'a [(u8, u8)],
    /// Index of the repeated unit.
    pub repeat: usize,
    /// The byte spelling each digit (an alphabet's symbols, or a unit map),
    /// or `None` when the digits are the bytes.
    pub alphabet: Option<&'a [u8]>,
}

impl RepeatForm<'_> {
    /// How many times the repeated unit is written for a value of `bits` bits.
    pub fn repetitions(&self, bits: u64) -> u64 {
        let fixed: u64 =
            self.units.iter().enumerate().filter(|(i, _)| *i != self.repeat).map(|(_, u)| u64::from(u.1)).sum();
        let w = u64::from(self.units[self.repeat].1).max(1);
        bits.saturating_sub(fixed).div_ceil(w)
    }

    /// Appends the shortest encoding of `value`.
    pub fn encode(&self, value: &BigUint, out: &mut Vec<u8>) {
        let reps = self.repetitions(value.bits());
        let mut layout: Vec<(u8, u8)> = Vec::new();
        for (i, &u) in self.units.iter().enumerate() {
            if i == self.repeat {
                layout.extend(core::iter::repeat_n(u, reps as usize));
            } else {
                layout.push(u);
            }
        }
        let mut shift: u64 = layout.iter().map(|u| u64::from(u.1)).sum();
        for (fixed, width) in layout {
            shift -= u64::from(width);
            let mut digit = 0u8;
            for k in (0..u64::from(width)).rev() {
                digit = (digit << 1) | u8::from(value.bit(shift + k));
            }
            let d = fixed | digit;
            out.push(match self.alphabet {
                Some(a) => a[d as usize],
                None => d,
            });
        }
    }
}
