//! The reference interpreter: decodes and encodes by reading the model directly,
//! with big integers, one form at a time. It is slow and obviously correct, and it
//! is the oracle that every table and branching decoder is tested against.
//!
//! ```
//! use placemat_compiler::{reference::Reference, Description};
//! use placemat_codec::Step;
//! use num_bigint::BigUint;
//! let d = Description::parse_str(r#"
//!     pub Two { name: "two", value: u32, range: 0 ..= 0x7FF,
//!               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let r = Reference::new(&d.model);
//! assert_eq!(r.encode(&BigUint::from(0xE9u32)).unwrap(), [0xC3, 0xA9]);
//! assert_eq!(r.step(&[0xC3, 0xA9]), Step::Value { value: BigUint::from(0xE9u32), len: 2 });
//! // C1 A9 would be an overlong form of 0x69: C1 starts no valid sequence.
//! assert_eq!(r.step(&[0xC1, 0xA9]), Step::Invalid { len: 1 });
//! assert_eq!(r.step(&[0xC3]), Step::Incomplete);
//! ```
//!
//! Definitions used, straight from the model:
//! * a unit sequence is *complete* if it matches every unit pattern of a concrete
//!   form and its value (bias + payload, pre-mapping undone) is valid;
//! * a sequence is a *valid prefix* if some completion of it is complete;
//! * a step returns the shortest complete prefix, or else the longest valid prefix
//!   (the maximal subpart) as invalid, or `Incomplete` if the whole input is a valid
//!   prefix;
//! * with `overlap: longest`, a step returns the *longest* complete prefix
//!   that no longer valid prefix goes past (maximal munch): it reads on while
//!   the units read are a valid prefix, and takes the last complete one where
//!   they stop being one or the input ends ([`Reference::step_open`]: unless
//!   more input may follow and a longer sequence could still go on).

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use super::model::{ConcreteForm, Model};
use placemat_codec::Step;

/// `ranges` sorted and merged where they overlap or touch: disjoint, in order.
fn merge(mut ranges: Vec<(BigUint, BigUint)>) -> Vec<(BigUint, BigUint)> {
    ranges.sort();
    let mut merged: Vec<(BigUint, BigUint)> = Vec::with_capacity(ranges.len());
    for (lo, hi) in ranges {
        match merged.last_mut() {
            Some((_, last_hi)) if lo <= &*last_hi + 1u32 => *last_hi = hi.max(last_hi.clone()),
            _ => merged.push((lo, hi)),
        }
    }
    merged
}

/// The reference interpreter for one model.
#[derive(Clone, Debug)]
pub struct Reference<'m> {
    model: &'m Model,
    inverse: Option<Vec<u32>>,
    /// All concrete forms, for a bounded model.
    bounded: Option<Vec<ConcreteForm>>,
    /// The contexts of the model's rules across values.
    contexts: crate::contexts::Contexts,
    /// For every context, the values not valid in it: the excluded ones and
    /// those the context forbids, merged into disjoint ranges in order.
    holes: Vec<Vec<(BigUint, BigUint)>>,
}

impl<'m> Reference<'m> {
    /// An interpreter for `model`.
    pub fn new(model: &'m Model) -> Self {
        let contexts = model.contexts();
        let holes = (0..contexts.count())
            .map(|c| {
                let mut holes = model.excluded.clone();
                if let Some(forbidden) = contexts.forbidden.get(c) {
                    holes.extend(forbidden.iter().map(|&(lo, hi)| (BigUint::from(lo), BigUint::from(hi))));
                }
                merge(holes)
            })
            .collect();
        Reference {
            model,
            inverse: model.premap_inverse(),
            bounded: model.max_units().is_some().then(|| model.concrete_forms()),
            contexts,
            holes,
        }
    }

    /// The context after `value` (0 for a model without rules across values).
    pub fn context_after(&self, value: &BigUint) -> usize {
        value.to_u64().map_or(0, |v| self.contexts.after(v))
    }

    /// The values of `lo..=hi` valid in `context` (a context the model does
    /// not have is read as 0).
    fn valid_in(&self, context: usize, lo: &BigUint, hi: &BigUint) -> Vec<(BigUint, BigUint)> {
        let holes = self.holes.get(context).unwrap_or(&self.holes[0]);
        // Only the holes that meet `lo..=hi` (they are disjoint and in order):
        // a description with a thousand exclusions stays fast to interpret.
        let first = holes.partition_point(|(_, hole_hi)| hole_hi < lo);
        let end = holes.partition_point(|(hole_lo, _)| hole_lo <= hi).max(first);
        crate::sequences::subtract(lo, hi, &holes[first..end])
    }

    /// Concrete forms that could hold a sequence of at least `len` units.
    fn forms_for(&self, len: usize) -> std::borrow::Cow<'_, [ConcreteForm]> {
        match &self.bounded {
            Some(all) => all.as_slice().into(),
            None => self.model.concrete_forms_upto(Some(len + 1)).into(),
        }
    }

    /// The value of a raw (pre-mapped) form value, undoing the pre-mapping.
    fn unmap(&self, raw: BigUint) -> BigUint {
        match (&self.inverse, raw.to_usize()) {
            (Some(inv), Some(i)) if i < inv.len() => BigUint::from(inv[i]),
            _ => raw,
        }
    }

    /// Matches `units` against the first `units.len()` patterns of `form`, returning
    /// the payload bits they carry (in their places) and which bits those are.
    fn payload(&self, form: &ConcreteForm, units: &[u8]) -> Option<(BigUint, BigUint)> {
        let digits = self.digits(form, units)?;
        let masks: Vec<u64> = form.units[..units.len()].iter().map(|u| (1u64 << u.payload_bits) - 1).collect();
        Some((self.model.payload(&form.units, &digits), self.model.payload(&form.units, &masks)))
    }

    /// The digits `units` carry in the first `units.len()` patterns of `form`,
    /// if they match.
    fn digits(&self, form: &ConcreteForm, units: &[u8]) -> Option<Vec<u64>> {
        if units.len() > form.units.len() {
            return None;
        }
        form.units.iter().zip(units).map(|(pat, &b)| self.model.form_digit(pat, b)).collect()
    }

    /// The payloads a form of digit units can still have after `units`: the
    /// number they spell, times the weight of the digits to come, and every
    /// way of going on.
    fn radix_interval(&self, form: &ConcreteForm, units: &[u8]) -> Option<(BigUint, BigUint)> {
        let digits = self.digits(form, units)?;
        let rest = self.model.capacity(&form.units[units.len()..]);
        let known = self.model.payload(&form.units[..units.len()], &digits) * &rest;
        let hi = &known + rest - 1u32;
        Some((known, hi))
    }

    /// Whether some value of `form` valid in `context` has payload in `lo..=hi`.
    fn any_valid(&self, context: usize, form: &ConcreteForm, lo: BigUint, hi: BigUint) -> bool {
        let lo = lo + &form.bias;
        let hi = hi + &form.bias;
        let lo = lo.max(form.lo.clone());
        let hi = hi.min(form.hi.clone());
        if lo > hi {
            return false;
        }
        // Pre-mapping permutes 0..N, which validation keeps inside the valid values,
        // so the valid set of raw values equals the valid set of values.
        !self.valid_in(context, &lo, &hi).is_empty()
    }

    /// Whether `units` is a prefix of some valid sequence.
    pub fn is_valid_prefix(&self, units: &[u8]) -> bool {
        self.is_valid_prefix_in(0, units)
    }

    /// Whether `units` is a prefix of some sequence valid in `context`.
    pub fn is_valid_prefix_in(&self, context: usize, units: &[u8]) -> bool {
        self.is_prefix_longer_than(context, units, 0)
    }

    /// Whether `units` is a prefix of some sequence valid in `context` of
    /// more than `len` units.
    fn is_prefix_longer_than(&self, context: usize, units: &[u8], len: usize) -> bool {
        self.forms_for(units.len()).iter().filter(|f| f.units.len() > len).any(|f| {
            if self.model.is_radix() {
                return self.radix_interval(f, units).is_some_and(|(lo, hi)| self.any_valid(context, f, lo, hi));
            }
            let Some((known, mask)) = self.payload(f, units) else {
                return false;
            };
            let total: u32 = f.units.iter().map(|u| u.payload_bits).sum();
            let rest: u32 = f.units[units.len()..].iter().map(|u| u.payload_bits).sum();
            if mask == ((BigUint::one() << total) - (BigUint::one() << rest)) {
                // The bits still to come are the low ones: one interval.
                let hi = &known + ((BigUint::one() << rest) - 1u32);
                return self.any_valid(context, f, known, hi);
            }
            self.any_valid_with(context, f, &known, &mask, total)
        })
    }

    /// Whether some valid value of `form` has a payload of `total` bits whose
    /// bits under `mask` are `known`. Filling the other bits in from a number
    /// `y` keeps the order of `y`, so the smallest such payload at or above each
    /// valid interval's start is found by bisection on `y`.
    fn any_valid_with(&self, context: usize, form: &ConcreteForm, known: &BigUint, mask: &BigUint, total: u32) -> bool {
        let free: Vec<u64> = (0..u64::from(total)).filter(|&b| !mask.bit(b)).collect();
        let fill = |y: &BigUint| {
            let mut x = known.clone();
            for (i, &b) in free.iter().enumerate() {
                if y.bit(i as u64) {
                    x.set_bit(b, true);
                }
            }
            x
        };
        let end = BigUint::one() << free.len();
        let valid = self.valid_in(context, &form.lo, &form.hi);
        valid.iter().any(|(a, b)| {
            if *b < form.bias {
                return false;
            }
            let (a, b) = (if *a > form.bias { a - &form.bias } else { BigUint::zero() }, b - &form.bias);
            // The smallest y whose filled-in payload is at least `a`.
            let (mut lo, mut hi) = (BigUint::zero(), end.clone());
            while lo < hi {
                let mid: BigUint = (&lo + &hi) >> 1u32;
                if fill(&mid) >= a {
                    hi = mid;
                } else {
                    lo = mid + 1u32;
                }
            }
            lo < end && fill(&lo) <= b
        })
    }

    /// The value of `units` if it is exactly one valid sequence.
    pub fn complete(&self, units: &[u8]) -> Option<BigUint> {
        self.complete_in(0, units)
    }

    /// The value of `units` if it is exactly one sequence valid in `context`.
    pub fn complete_in(&self, context: usize, units: &[u8]) -> Option<BigUint> {
        self.forms_for(units.len()).iter().filter(|f| f.units.len() == units.len()).find_map(|f| {
            let p = self.model.payload(&f.units, &self.digits(f, units)?);
            self.any_valid(context, f, p.clone(), p.clone()).then(|| self.unmap(p + &f.bias))
        })
    }

    /// One decoding step (see the module docs), as at the start of input.
    pub fn step(&self, input: &[u8]) -> Step<BigUint> {
        self.step_in(0, input)
    }

    /// One decoding step in `context`: after a value `v`, the context is
    /// [`Reference::context_after`]`(v)`; after an error, 0.
    pub fn step_in(&self, context: usize, input: &[u8]) -> Step<BigUint> {
        self.step_with_end(context, input, false)
    }

    /// [`Reference::step_in`] where more input may follow `input`: with
    /// `overlap: longest`, a complete sequence at the end that is also the
    /// start of a longer valid one is `Incomplete`.
    pub fn step_open(&self, context: usize, input: &[u8]) -> Step<BigUint> {
        self.step_with_end(context, input, true)
    }

    fn step_with_end(&self, context: usize, input: &[u8], open: bool) -> Step<BigUint> {
        let mut found = None;
        for k in 1..=input.len() {
            if let Some(value) = self.complete_in(context, &input[..k]) {
                if !self.model.longest || !self.is_prefix_longer_than(context, &input[..k], k) {
                    return Step::Value { value, len: k };
                }
                found = Some(Step::Value { value, len: k });
            } else if !self.is_valid_prefix_in(context, &input[..k]) {
                // The last complete sequence, or the maximal subpart in whole
                // code units.
                return found.unwrap_or_else(|| {
                    placemat_codec::dfa::dead_end(k - 1, self.model.unit_bytes as usize, input.len())
                });
            }
        }
        match found {
            Some(step) if !open => step,
            _ => Step::Incomplete,
        }
    }

    /// Encodes `value`, or `None` if it is not a valid value.
    pub fn encode(&self, value: &BigUint) -> Option<Vec<u8>> {
        if !self.model.contains(value) {
            return None;
        }
        let raw = match (&self.model.premap, value.to_usize()) {
            (Some(p), Some(i)) if i < p.len() => BigUint::from(p[i]),
            _ => value.clone(),
        };
        let bits = raw.bits() as usize;
        // Enough units for any form that can hold `raw`.
        let limit = if self.model.is_bounded() {
            None
        } else {
            Some(bits + 2 * self.model.forms.iter().map(|f| f.units.len()).sum::<usize>())
        };
        let form = self.model.concrete_forms_upto(limit).into_iter().find(|f| f.lo <= raw && raw <= f.hi)?;
        let payload = raw - &form.bias;
        let digits = self.model.payload_digits(&form.units, &payload);
        Some(form.units.iter().zip(digits).map(|(pat, d)| self.model.digit_unit(pat, d)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(r: &[(u32, u32)]) -> Vec<(BigUint, BigUint)> {
        r.iter().map(|&(lo, hi)| (lo.into(), hi.into())).collect()
    }

    #[test]
    fn holes_merge_where_they_overlap_or_touch() {
        let holes = merge(ranges(&[(20, 30), (1, 5), (4, 9), (10, 12), (25, 26), (40, 40)]));
        assert_eq!(holes, ranges(&[(1, 12), (20, 30), (40, 40)]));
        assert_eq!(merge(Vec::new()), Vec::new());
    }
}
