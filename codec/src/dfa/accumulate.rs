//! How [`super::Dfa`]'s one step function accumulates a value: wrapping `u64`
//! arithmetic for automata that are not cyclic (no value outgrows its sequence's
//! payload), checked `u64` arithmetic for the 64-bit view of unbounded codecs,
//! and a `u64` that moves to a big integer when it would overflow.

use core::marker::PhantomData;

use crate::Value;

/// `(1 << n) - 1` for every payload count the entry format can hold.
pub(crate) const MASKS: [u64; 16] = [0, 1, 3, 7, 15, 31, 63, 127, 255, 511, 1023, 2047, 4095, 8191, 16383, 32767];

/// How a unit's payload joins the value read so far: the table format's
/// three ways, shared by the step function's accumulator and the decoder's
/// class-compressed walk.
pub(crate) trait Join: Copy {
    /// Whether it reads a word per transition ([`super::Parts::places`] or
    /// [`super::Parts::radices`]).
    const READS_WORD: bool;
    /// The value after a unit whose entry takes `bits` payload bits, with the
    /// unit's (masked) `payload` and the transition's `word`.
    fn join(v: u64, bits: u32, payload: u64, word: u64) -> u64;
}

/// Below the bits read before: `v = (v << bits) | payload`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Shift;

impl Join for Shift {
    const READS_WORD: bool = false;
    #[inline(always)]
    fn join(v: u64, bits: u32, payload: u64, _word: u64) -> u64 {
        (v << bits) | payload
    }
}

/// At a place ([`super::Parts::places`], groups least significant first and
/// little-endian units): `v = (v << s) | (payload << q)`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Place;

impl Join for Place {
    const READS_WORD: bool = true;
    #[inline(always)]
    fn join(v: u64, _bits: u32, payload: u64, word: u64) -> u64 {
        (v << ((word >> super::PLACE_SHIFT) & 63)) | (payload << (word & 63))
    }
}

/// Times a radix ([`super::Parts::radices`], digit units): `v = v * radix +
/// payload`, wrapping (the bias that completes the value may wrap it back).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Multiply;

impl Join for Multiply {
    const READS_WORD: bool = true;
    #[inline(always)]
    fn join(v: u64, _bits: u32, payload: u64, word: u64) -> u64 {
        v.wrapping_mul(word).wrapping_add(payload)
    }
}

/// A value being read, unit by unit.
pub(crate) trait Accumulator: Default {
    /// The finished value.
    type Out;
    /// Whether [`Accumulator::take`] reads the transition's word.
    const READS_WORD: bool = false;
    /// Takes the low `bits` bits of `digit` as the next payload (joined with
    /// the transition's `word`, for accumulators that read one).
    fn take(&mut self, bits: u32, digit: u8, word: u64);
    /// The value with `bias` added, or `None` if it does not fit `Out`.
    fn finish(self, bias: u64) -> Option<Self::Out>;
    /// [`Accumulator::finish`] without giving the value up: what a pending
    /// value ([`super::Parts::pending`]) is, while a longer one is read on.
    fn peek(&self, bias: u64) -> Option<Self::Out>;
}

/// Wrapping `u64` arithmetic, the payload joined as `J` says, converted to
/// `V` at the end: exact for automata that are not cyclic.
pub(crate) struct Wrapping<V, J>(u64, PhantomData<(V, J)>);

impl<V, J> Default for Wrapping<V, J> {
    fn default() -> Self {
        Wrapping(0, PhantomData)
    }
}

impl<V: Value, J: Join> Accumulator for Wrapping<V, J> {
    type Out = V;
    const READS_WORD: bool = J::READS_WORD;
    #[inline(always)]
    fn take(&mut self, bits: u32, digit: u8, word: u64) {
        self.0 = J::join(self.0, bits, u64::from(digit) & MASKS[bits as usize], word);
    }
    #[inline(always)]
    fn finish(self, bias: u64) -> Option<V> {
        self.peek(bias)
    }
    #[inline(always)]
    fn peek(&self, bias: u64) -> Option<V> {
        Some(V::from_u64_lossy(self.0.wrapping_add(bias)))
    }
}

/// Checked `u64` arithmetic: a value that overflows is refused when it finishes.
#[derive(Default)]
pub(crate) struct Checked {
    value: u64,
    overflow: bool,
}

impl Accumulator for Checked {
    type Out = u64;
    #[inline(always)]
    fn take(&mut self, bits: u32, digit: u8, _word: u64) {
        self.overflow |= bits > 0 && self.value >> (64 - bits) != 0;
        self.value = (self.value << bits) | (u64::from(digit) & MASKS[bits as usize]);
    }
    #[inline(always)]
    fn finish(self, bias: u64) -> Option<u64> {
        self.peek(bias)
    }
    #[inline(always)]
    fn peek(&self, bias: u64) -> Option<u64> {
        if self.overflow {
            return None;
        }
        self.value.checked_add(bias)
    }
}

/// A `u64` until the value would overflow it, then the payload digits in a
/// buffer, turned into a big integer once at the end: linear in the value's
/// length (shifting a growing big integer at every unit would be quadratic).
#[cfg(feature = "big")]
#[derive(Default)]
pub(crate) struct Big {
    small: u64,
    /// Every payload digit after the first overflow, with its bit count.
    digits: alloc::vec::Vec<(u8, u8)>,
}

#[cfg(feature = "big")]
impl Accumulator for Big {
    type Out = crate::big::BigUint;
    #[inline]
    fn take(&mut self, bits: u32, digit: u8, _word: u64) {
        let d = u64::from(digit) & MASKS[bits as usize];
        if !self.digits.is_empty() || (bits > 0 && self.small >> (64 - bits) != 0) {
            self.digits.push((bits as u8, d as u8));
        } else {
            self.small = (self.small << bits) | d;
        }
    }
    fn finish(self, bias: u64) -> Option<crate::big::BigUint> {
        self.peek(bias)
    }
    fn peek(&self, bias: u64) -> Option<crate::big::BigUint> {
        let value = if self.digits.is_empty() {
            crate::big::BigUint::from(self.small)
        } else {
            crate::big::from_digits(self.small, &self.digits)
        };
        Some(value + bias)
    }
}
