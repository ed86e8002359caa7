//! Signed values (`value: i32 | i64` with `sign: extend | zigzag | low_bit`):
//! the map between a codec's signed values and the unsigned *raw* values its
//! forms spell, in big integers (the oracle of the runtime's
//! [`placemat_codec::Sign`]), and the forms of `sign: extend`, where each form's
//! payload is sign-extended from its top bit.
//!
//! Everything after validation (the automaton, the tables, the encoders, the
//! reference interpreter) works on raw values; the map applies where values
//! leave a decoder or enter an encoder (the analyses' signed parts are in
//! `analysis/signed_values.rs`).
//!
//! ```
//! use num_bigint::BigInt;
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     pub S { name: "s", value: i64, sign: extend, range: -64 ..= 63,
//!             forms: { "0xxxxxxx" } }
//! "#).unwrap();
//! let signed = d.model.signed.as_ref().unwrap();
//! // -1 is the raw value 2^64 - 1, which the form spells with the payload 0x7F.
//! assert_eq!(signed.raw(&BigInt::from(-1)).unwrap(), (num_bigint::BigUint::from(1u8) << 64u32) - 1u32);
//! let forms = d.model.concrete_forms();
//! assert_eq!(forms.len(), 2); // the non-negative half, and the negative half
//! ```

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed as _, Zero};

use crate::model::{ConcreteForm, Layout, Model, UnitPattern};
use placemat_codec::Sign;

/// A signed codec's values: the scheme and the range, in signed numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signed {
    /// How values map to raw values.
    pub sign: Sign,
    /// Smallest value.
    pub min: BigInt,
    /// Largest value.
    pub max: BigInt,
    /// Width of the value type (32 or 64; 64, the fast path's `i64`, for a
    /// codec of any size).
    pub bits: u32,
    /// Values of any size (`value: unbounded`): every integer, of which
    /// `min ..= max` are those of the `i64` fast path.
    pub any_size: bool,
}

impl Signed {
    /// The values of a codec of any size with `sign` (`ZigZag` or `LowBit`):
    /// every integer, those of its raw values below 2^64 on the fast path.
    pub fn any_size(sign: Sign) -> Signed {
        let half = BigInt::one() << 63u32;
        let min = if sign == Sign::ZigZag { -half.clone() } else { -half.clone() + 1 };
        Signed { sign, min, max: half - 1, bits: 64, any_size: true }
    }

    /// The raw value spelling `v`, or `None` if `v` is outside the range.
    pub fn raw(&self, v: &BigInt) -> Option<BigUint> {
        if !self.any_size && (*v < self.min || *v > self.max) {
            return None;
        }
        let magnitude = v.magnitude().clone();
        let negative = v.is_negative();
        Some(match self.sign {
            Sign::TwosComplement if negative => (BigUint::one() << self.bits) - magnitude,
            Sign::TwosComplement => magnitude,
            Sign::ZigZag if negative => magnitude * 2u32 - 1u32,
            Sign::ZigZag | Sign::LowBit => magnitude * 2u32 + u32::from(negative),
        })
    }

    /// The value the raw value `raw` spells (whether or not it is in range).
    pub fn value(&self, raw: &BigUint) -> BigInt {
        let half: BigUint = raw >> 1u32;
        let odd = raw.bit(0);
        match self.sign {
            Sign::TwosComplement if raw.bit(u64::from(self.bits) - 1) => {
                BigInt::from(raw.clone()) - (BigInt::one() << self.bits)
            }
            Sign::TwosComplement => BigInt::from(raw.clone()),
            Sign::ZigZag if odd => -BigInt::from(half) - 1,
            Sign::LowBit if odd => -BigInt::from(half),
            Sign::ZigZag | Sign::LowBit => BigInt::from(half),
        }
    }

    /// The value's 64-bit view: its two's complement pattern, sign-extended.
    pub fn pattern(v: &BigInt) -> u64 {
        // `&` on a `BigInt` reads it as two's complement, sign-extended.
        (v & BigInt::from(u64::MAX)).magnitude().iter_u64_digits().next().unwrap_or(0)
    }

    /// The value whose 64-bit view is `pattern`.
    pub fn of_pattern(pattern: u64) -> BigInt {
        BigInt::from(pattern as i64)
    }

    /// A codec's facts about its raw values made facts about its values: the
    /// range as patterns, no exclusions, the sign.
    pub fn facts(&self, info: placemat_codec::CodecInfo) -> placemat_codec::CodecInfo {
        let info = placemat_codec::CodecInfo {
            min: Self::pattern(&self.min),
            max: Self::pattern(&self.max),
            excluded: std::borrow::Cow::Borrowed(&[]),
            ..info
        };
        info.with_sign(self.sign)
    }

    /// The raw values of the range, as a hull and the runs inside it that
    /// spell no value: the model's `min`, `max` and `excluded`.
    pub fn raw_range(&self) -> (BigUint, BigUint, Vec<(BigUint, BigUint)>) {
        let modulus = BigUint::one() << self.bits;
        let wrap = |v: &BigInt| (v + BigInt::from(modulus.clone())).magnitude().clone();
        let zero = BigInt::zero();
        match self.sign {
            Sign::TwosComplement if self.min >= zero => {
                (self.min.magnitude().clone(), self.max.magnitude().clone(), Vec::new())
            }
            Sign::TwosComplement if self.max < zero => (wrap(&self.min), wrap(&self.max), Vec::new()),
            Sign::TwosComplement => {
                let (gap_lo, gap_hi) = (self.max.magnitude() + 1u32, wrap(&self.min) - 1u32);
                let gap = if gap_lo <= gap_hi { vec![(gap_lo, gap_hi)] } else { Vec::new() };
                (BigUint::zero(), &modulus - 1u32, gap)
            }
            // Validation keeps these ranges to those whose raw values are
            // one run from 0: -N ..= N, or (ZigZag) -(N + 1) ..= N.
            Sign::ZigZag => {
                let top = self.raw(&self.min).max(self.raw(&self.max)).unwrap_or_default();
                (BigUint::zero(), top, Vec::new())
            }
            Sign::LowBit => {
                let top = self.raw(&self.min).unwrap_or_default().max(self.raw(&self.max).unwrap_or_default());
                // (Of any size: minus zero is still no value.)
                let minus_zero =
                    if top >= BigUint::one() { vec![(BigUint::one(), BigUint::one())] } else { Vec::new() };
                (BigUint::zero(), top, minus_zero)
            }
        }
    }
}

/// The concrete forms of a model with `sign: extend`, in the order of their
/// lengths: each length holds the values whose two's complement its payload
/// spells (`layout: padded`), or those no shorter length holds (`layout:
/// shortest`), within the range; the non-negative ones with bias 0, the
/// negative ones (payload's top bit set) with the bias that takes the payload
/// to the raw value, 2^bits less 2^width. A payload wider than the value type
/// spells a negative value only with its bits from the value type's top bit up
/// all set: those bits become fixed bits of the form.
pub(crate) fn extend_forms(model: &Model, s: &Signed) -> Vec<ConcreteForm> {
    let mut out = Vec::new();
    // The values the lengths so far hold: -2^(w-1) ..= 2^(w-1) - 1 for the widest.
    let mut widest: Option<u32> = None;
    for (i, form) in model.forms.iter().enumerate() {
        for reps in 0.. {
            let units = form.expand(reps);
            let w: u32 = units.iter().map(|u| u.payload_bits).sum();
            let held = half_range(w);
            let before = widest.map(half_range);
            if widest.is_none_or(|old| w > old) {
                for (lo, hi) in new_values(model.layout, s, held.clone(), before) {
                    out.push(extend_form(model, s, i, reps, &units, w, (lo, hi)));
                }
                widest = Some(w);
            }
            // Every value is held, or the form does not repeat, or its
            // repeated unit adds no payload.
            let covers = -held.0.clone() <= s.min && held.1 >= s.max;
            let grows = form.repeat.is_some_and(|r| form.units[r].payload_bits > 0);
            if covers || !grows {
                break;
            }
        }
    }
    out
}

/// `(2^(w-1), 2^(w-1) - 1)`: the magnitude of the least and the greatest value
/// a `w`-bit two's complement payload spells.
/// A form without payload bits spells 0 alone.
fn half_range(w: u32) -> (BigInt, BigInt) {
    if w == 0 {
        return (BigInt::zero(), BigInt::zero());
    }
    let half = BigInt::one() << (w - 1);
    (half.clone(), half - 1)
}

/// The values a length whose payload spells `held` gives, split at 0 (the
/// negative run first), clipped to the range: all of them when padded, else
/// those outside what the lengths before hold.
fn new_values(
    layout: Layout,
    s: &Signed,
    held: (BigInt, BigInt),
    before: Option<(BigInt, BigInt)>,
) -> Vec<(BigInt, BigInt)> {
    let (lo, hi) = (-held.0, held.1);
    let (inner_lo, inner_hi) = match (layout, before) {
        (Layout::Shortest, Some((m, p))) => (-m, p),
        _ => (BigInt::one(), BigInt::zero() - 1),
    };
    let mut runs = Vec::new();
    let mut push = |a: BigInt, b: BigInt| {
        let (a, b) = (a.max(s.min.clone()), b.min(s.max.clone()));
        if a <= b {
            runs.push((a, b));
        }
    };
    let none_before = inner_lo > inner_hi;
    let neg_end = if none_before { BigInt::from(-1) } else { inner_lo - 1 };
    let pos_start = if none_before { BigInt::zero() } else { inner_hi + 1 };
    push(lo, neg_end.min(BigInt::from(-1)));
    push(pos_start.max(BigInt::zero()), hi);
    runs
}

/// One concrete form of `sign: extend`: the values `lo..=hi` (all negative or
/// all non-negative) of the length of `units`, whose payload is `w` bits.
fn extend_form(
    model: &Model,
    s: &Signed,
    form: usize,
    reps: usize,
    units: &[UnitPattern],
    w: u32,
    (lo, hi): (BigInt, BigInt),
) -> ConcreteForm {
    let modulus = BigInt::one() << s.bits;
    let raw = |v: &BigInt| if v.is_negative() { (v + &modulus).magnitude().clone() } else { v.magnitude().clone() };
    let (rlo, rhi) = (raw(&lo), raw(&hi));
    if !lo.is_negative() {
        return ConcreteForm { form, reps, units: units.to_vec(), lo: rlo, hi: rhi, bias: BigUint::zero() };
    }
    if w <= s.bits {
        let bias = (BigUint::one() << s.bits) - (BigUint::one() << w);
        return ConcreteForm { form, reps, units: units.to_vec(), lo: rlo, hi: rhi, bias };
    }
    // The payload's bits from the value type's top bit up are all ones: fixed.
    let keep = s.bits - 1;
    let fixed = fix_high_bits(model, units, keep);
    ConcreteForm { form, reps, units: fixed, lo: rlo, hi: rhi, bias: BigUint::one() << keep }
}

/// `units` with every payload bit at or above bit `keep` of the form's payload
/// made a fixed one bit. A unit's payload is its low bits and lands in one run
/// of the payload's bits, so the bits above `keep` are each unit's high ones,
/// and the lower bits keep their places.
fn fix_high_bits(model: &Model, units: &[UnitPattern], keep: u32) -> Vec<UnitPattern> {
    let places = model.places(units);
    units
        .iter()
        .zip(places)
        .map(|(u, at)| {
            let kept = keep.saturating_sub(at).min(u.payload_bits);
            let high = (((1u32 << u.payload_bits) - 1) & !((1u32 << kept) - 1)) as u8;
            UnitPattern { fixed_mask: u.fixed_mask | high, fixed_bits: u.fixed_bits | high, payload_bits: kept, ..*u }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Description;

    fn signed(sign: &str, range: &str) -> Signed {
        let text = format!(
            "pub S {{ name: \"s\", value: i64, sign: {sign}, range: {range}, layout: padded, groups: lsb_first, \
             forms: {{ \"1xxxxxxx* 0xxxxxxx\" }} }}"
        );
        Description::parse_str(&text).unwrap().model.signed.unwrap()
    }

    /// Each scheme's raw value and back, and the runtime's bit tricks
    /// agreeing with the big-integer map.
    #[test]
    fn raw_and_value_agree_with_the_runtime() {
        let full = "-0x8000000000000000 ..= 0x7FFFFFFFFFFFFFFF";
        for (sign, range) in
            [("extend", full), ("zigzag", full), ("low_bit", "-0x7FFFFFFFFFFFFFFF ..= 0x7FFFFFFFFFFFFFFF")]
        {
            let s = signed(sign, range);
            for v in [0i64, 1, -1, 63, -64, 64, -65, i64::MAX, i64::MIN + 1, -0x1234_5678_9ABC] {
                let v = BigInt::from(v);
                let raw = s.raw(&v).unwrap();
                assert_eq!(s.value(&raw), v, "{sign} {v}");
                let bits = u64::try_from(&raw).unwrap();
                assert_eq!(s.sign.raw(Signed::pattern(&v), 64), Some(bits), "{sign} {v}");
                assert_eq!(Signed::of_pattern(s.sign.value(bits, 64)), v);
            }
        }
    }

    #[test]
    fn raw_ranges_of_each_scheme() {
        let s = signed("low_bit", "-5 ..= 5");
        assert_eq!(s.raw_range(), (0u32.into(), 11u32.into(), vec![(1u32.into(), 1u32.into())]));
        let s = signed("zigzag", "-6 ..= 5");
        assert_eq!(s.raw_range(), (0u32.into(), 11u32.into(), vec![]));
        let s = signed("extend", "-5 ..= 5");
        let top = (BigUint::one() << 64u32) - 1u32;
        assert_eq!(s.raw_range(), (0u32.into(), top.clone(), vec![(6u32.into(), &top - 5u32)]));
    }
}
