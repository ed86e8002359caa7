//! How [`super::Dfa`]'s one step function accumulates a value: wrapping `u64`
//! arithmetic for automata that are not cyclic (no value outgrows its sequence's
//! payload), checked `u64` arithmetic for the 64-bit view of unbounded codecs,
//! and a `u64` that moves to a big integer when it would overflow.

use core::marker::PhantomData;

use crate::Value;

/// `(1 << n) - 1` for every payload count the entry format can hold.
pub(crate) const MASKS: [u64; 16] = [0, 1, 3, 7, 15, 31, 63, 127, 255, 511, 1023, 2047, 4095, 8191, 16383, 32767];

/// A value being read, unit by unit.
pub(crate) trait Accumulator: Default {
    /// The finished value.
    type Out;
    /// Takes the low `bits` bits of `digit` as the next payload bits (at
    /// `place`, for accumulators that read [`super::Parts::places`], or with
    /// the multiplier `place` of [`super::Parts::radices`]).
    fn take(&mut self, bits: u32, digit: u8, place: u64);
    /// The value with `bias` added, or `None` if it does not fit `Out`.
    fn finish(self, bias: u64) -> Option<Self::Out>;
}

/// Wrapping `u64` arithmetic, converted to `V` at the end.
pub(crate) struct Wrapping<V>(u64, PhantomData<V>);

impl<V> Default for Wrapping<V> {
    fn default() -> Self {
        Wrapping(0, PhantomData)
    }
}

impl<V: Value> Accumulator for Wrapping<V> {
    type Out = V;
    #[inline(always)]
    fn take(&mut self, bits: u32, digit: u8, _place: u64) {
        self.0 = (self.0 << bits) | (u64::from(digit) & MASKS[bits as usize]);
    }
    #[inline(always)]
    fn finish(self, bias: u64) -> Option<V> {
        Some(V::from_u64_lossy(self.0.wrapping_add(bias)))
    }
}

/// Wrapping `u64` arithmetic for tables that place each unit's payload
/// ([`super::Parts::places`]): `v = (v << s) | (payload << q)`.
pub(crate) struct Placed<V>(u64, PhantomData<V>);

impl<V> Default for Placed<V> {
    fn default() -> Self {
        Placed(0, PhantomData)
    }
}

impl<V: Value> Accumulator for Placed<V> {
    type Out = V;
    #[inline(always)]
    fn take(&mut self, bits: u32, digit: u8, place: u64) {
        let (shift, at) = ((place >> super::PLACE_SHIFT) as u32 & 63, place as u32 & 63);
        self.0 = (self.0 << shift) | ((u64::from(digit) & MASKS[bits as usize]) << at);
    }
    #[inline(always)]
    fn finish(self, bias: u64) -> Option<V> {
        Some(V::from_u64_lossy(self.0.wrapping_add(bias)))
    }
}

/// Wrapping `u64` arithmetic for tables of digit units
/// ([`super::Parts::radices`]): `v = v * radix + payload`.
pub(crate) struct Radix<V>(u64, PhantomData<V>);

impl<V> Default for Radix<V> {
    fn default() -> Self {
        Radix(0, PhantomData)
    }
}

impl<V: Value> Accumulator for Radix<V> {
    type Out = V;
    #[inline(always)]
    fn take(&mut self, bits: u32, digit: u8, radix: u64) {
        self.0 = self.0.wrapping_mul(radix).wrapping_add(u64::from(digit) & MASKS[bits as usize]);
    }
    #[inline(always)]
    fn finish(self, bias: u64) -> Option<V> {
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
    fn take(&mut self, bits: u32, digit: u8, _place: u64) {
        self.overflow |= bits > 0 && self.value >> (64 - bits) != 0;
        self.value = (self.value << bits) | (u64::from(digit) & MASKS[bits as usize]);
    }
    #[inline(always)]
    fn finish(self, bias: u64) -> Option<u64> {
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
    fn take(&mut self, bits: u32, digit: u8, _place: u64) {
        let d = u64::from(digit) & MASKS[bits as usize];
        if !self.digits.is_empty() || (bits > 0 && self.small >> (64 - bits) != 0) {
            self.digits.push((bits as u8, d as u8));
        } else {
            self.small = (self.small << bits) | d;
        }
    }
    fn finish(self, bias: u64) -> Option<crate::big::BigUint> {
        let value = if self.digits.is_empty() {
            crate::big::BigUint::from(self.small)
        } else {
            crate::big::from_digits(self.small, &self.digits)
        };
        Some(value + bias)
    }
}
