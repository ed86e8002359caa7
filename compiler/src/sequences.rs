//! Value ranges → payload ranges → sequences of per-unit digit ranges.
//!
//! A concrete form's range less the model's excluded values is a few
//! sub-ranges ([`Model::valid_ranges`], by [`subtract`]); each, less the
//! form's bias, is a range of payloads, which [`Model::split_payloads`] splits
//! into products of per-unit digit ranges, in unit order.
//!
//! A form with unit payload widths `w₁ … wₙ` reads its payload as a mixed-radix
//! number. Any range of payloads is a union of a few *products* of digit ranges:
//!
//! ```
//! use placemat_compiler::split_range;
//! // Payloads 0x80..=0x7FF of a two-unit form with 5 + 6 payload bits (UTF-8's
//! // second form) are lead digits 2..=31 followed by any continuation digit.
//! assert_eq!(split_range(0x80, 0x7FF, &[5, 6]), vec![vec![(2, 31), (0, 63)]]);
//! // 0x800..=0xFFFF with the surrogates cut out (UTF-8's third form) needs more.
//! let mut seqs = split_range(0x800, 0xD7FF, &[4, 6, 6]);
//! seqs.extend(split_range(0xE000, 0xFFFF, &[4, 6, 6]));
//! assert_eq!(seqs, vec![
//!     vec![(0, 0), (32, 63), (0, 63)],   // E0 A0..BF 80..BF
//!     vec![(1, 12), (0, 63), (0, 63)],   // E1..EC
//!     vec![(13, 13), (0, 31), (0, 63)],  // ED 80..9F
//!     vec![(14, 15), (0, 63), (0, 63)],  // EE..EF
//! ]);
//! ```
//!
//! # Lineage
//! The same split that regex-syntax's `Utf8Sequences` performs for scalar ranges,
//! generalised to any digit widths.

use num_bigint::BigUint;

use crate::model::{ConcreteForm, Model, UnitPattern};

impl Model {
    /// The valid values of a concrete form, as disjoint sorted inclusive ranges
    /// (its range less the excluded ranges).
    pub fn valid_ranges(&self, form: &ConcreteForm) -> Vec<(BigUint, BigUint)> {
        subtract(&form.lo, &form.hi, &self.excluded)
    }

    /// The payloads `lo..=hi` of a form with `units` as products of per-unit
    /// digit ranges ([`split_range`]), one range per unit in unit order.
    pub fn split_payloads(&self, units: &[UnitPattern], lo: u128, hi: u128) -> Vec<Vec<(u32, u32)>> {
        if self.is_radix() {
            let radices: Vec<u128> = units.iter().map(|u| u128::from(self.radix(u))).collect();
            return split_radix(lo, hi, &radices);
        }
        // The splitter reads groups most significant first: split in that order
        // and put each product back in unit order.
        let places = self.places(units);
        let mut order: Vec<usize> = (0..units.len()).collect();
        order.sort_by_key(|&k| std::cmp::Reverse((places[k], units[k].payload_bits)));
        let widths: Vec<u32> = order.iter().map(|&k| units[k].payload_bits).collect();
        let mut products = split_range(lo, hi, &widths);
        for p in &mut products {
            let mut back = vec![(0, 0); units.len()];
            for (i, &k) in order.iter().enumerate() {
                back[k] = p[i];
            }
            *p = back;
        }
        products
    }
}

/// `[lo, hi]` minus the sorted, disjoint `holes`.
pub(crate) fn subtract(lo: &BigUint, hi: &BigUint, holes: &[(BigUint, BigUint)]) -> Vec<(BigUint, BigUint)> {
    let mut out = Vec::new();
    let mut cur = lo.clone();
    for (hlo, hhi) in holes {
        if hhi < &cur || hlo > hi {
            continue;
        }
        if hlo > &cur {
            out.push((cur.clone(), hlo - 1u32));
        }
        cur = hhi + 1u32;
        if &cur > hi {
            return out;
        }
    }
    if &cur <= hi {
        out.push((cur, hi.clone()));
    }
    out
}

/// Splits payloads `lo..=hi` (which must fit the widths) into products of digit
/// ranges, in increasing order. Each inner vector has one `(lo, hi)` per unit.
pub fn split_range(lo: u128, hi: u128, widths: &[u32]) -> Vec<Vec<(u32, u32)>> {
    let radices: Vec<u128> = widths.iter().map(|&w| 1u128 << w).collect();
    split_radix(lo, hi, &radices)
}

/// [`split_range`] for digits of any radix: payloads `lo..=hi` of a mixed-radix
/// number whose first digit is the most significant (UTF-1's `F6–FB T T`
/// reads radices 6, 190 and 190).
///
/// ```
/// use placemat_compiler::split_radix;
/// // 190 × 6 + 5 ..= 190 × 7: the rest of lead digit 6, and lead digit 7's first.
/// assert_eq!(split_radix(1145, 1330, &[10, 190]), vec![vec![(6, 6), (5, 189)], vec![(7, 7), (0, 0)]]);
/// ```
pub fn split_radix(lo: u128, hi: u128, radices: &[u128]) -> Vec<Vec<(u32, u32)>> {
    let mut out = Vec::new();
    split(lo, hi, radices, &mut Vec::new(), &mut out);
    out
}

/// The product of `radices`, or `None` beyond `u128`.
fn weight(radices: &[u128]) -> Option<u128> {
    radices.iter().try_fold(1u128, |w, &r| w.checked_mul(r))
}

fn split(lo: u128, hi: u128, radices: &[u128], prefix: &mut Vec<(u32, u32)>, out: &mut Vec<Vec<(u32, u32)>>) {
    debug_assert!(lo <= hi && weight(radices).is_none_or(|w| hi < w));
    let Some((_, rest)) = radices.split_first() else {
        out.push(prefix.clone());
        return;
    };
    // Every payload of `rest` is below its weight; beyond u128, all of them.
    let (lh, ll, hh, hl, top) = match weight(rest) {
        Some(w) => (lo / w, lo % w, hi / w, hi % w, w - 1),
        None => (0, lo, 0, hi, u128::MAX),
    };
    let mut with = |d: (u128, u128), l: u128, h: u128, out: &mut Vec<Vec<(u32, u32)>>| {
        prefix.push((d.0 as u32, d.1 as u32));
        split(l, h, rest, prefix, out);
        prefix.pop();
    };
    if lh == hh {
        with((lh, lh), ll, hl, out);
        return;
    }
    let mut mid_lo = lh;
    let mut mid_hi = hh;
    if ll != 0 {
        with((lh, lh), ll, top, out);
        mid_lo += 1;
    }
    let tail = hl != top;
    if tail {
        mid_hi -= 1;
    }
    if mid_lo <= mid_hi {
        with((mid_lo, mid_hi), 0, top, out);
    }
    if tail {
        with((hh, hh), 0, hl, out);
    }
}
