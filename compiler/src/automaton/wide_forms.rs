//! The wide-forms fact ([`WideForms`]): for a codec of 16- or 32-bit code
//! units, the values its encoder writes as one code unit equal to the value,
//! and the form that writes values as a pair of code units splitting the
//! value's bits (UTF-16's surrogates), if there is one.
//!
//! Each candidate form is proved, not assumed. The encoder writes each bit of
//! a unit either as a fixed bit or as one bit of the payload
//! ([`EncodeForm::write`]), so a unit is the fixed bits OR'd with payload bits
//! moved into place: what it writes for payload 0 and for each payload of a
//! single bit decides what it writes for every payload. The derivation
//! encodes those, reads the code units back in the codec's byte order and
//! keeps a form only if every one is the formula's. The values kept are
//! those the encoder accepts ([`Model`]'s range less its exclusions): a
//! value of a form that is excluded is left to the encoder, which refuses it.
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! use placemat_codec::{AsciiRuns, PairForm};
//! let d = Description::parse_str(r#"
//!     pub Utf16Be { name: "utf16be", unit: u16be, value: u32, range: 0 ..= 0x10FFFF,
//!         exclude: [0xD800 ..= 0xDFFF], layout: explicit,
//!         forms: { 0 ..= 0xFFFF => "xxxxxxxxxxxxxxxx",
//!                  0x10000 ..= 0x10FFFF bias 0x10000 => "110110yyyyyyyyyy 110111xxxxxxxxxx" } }
//! "#).unwrap();
//! let forms = Automaton::build(&d.model, BuildOptions::default()).unwrap().wide_forms;
//! assert_eq!(forms.units, AsciiRuns::U16Be);
//! assert_eq!(forms.single, [(0, 0xD7FF), (0xE000, 0xFFFF)]);
//! let pair = PairForm { lo: 0x10000, hi: 0x10FFFF, bias: 0x10000, high: 0xD800, low: 0xDC00, low_bits: 10 };
//! assert_eq!(forms.pair, Some(pair));
//! ```

use num_traits::ToPrimitive;
use placemat_codec::{AsciiRuns, PairForm, WideForms};

use super::{Automaton, EncodeForm};
use crate::model::Model;

/// The wide forms of `a`, built from `model`; [`WideForms::NONE`] for a
/// codec of byte units, or one that maps values first, has rules across
/// values, digit units or values of any size.
pub(super) fn derive(a: &Automaton, model: &Model) -> WideForms {
    let units = match (a.unit_bytes, model.byte_order == crate::model::ByteOrder::Big) {
        (2, false) => AsciiRuns::U16Le,
        (2, true) => AsciiRuns::U16Be,
        (4, false) => AsciiRuns::U32Le,
        (4, true) => AsciiRuns::U32Be,
        _ => return WideForms::NONE,
    };
    if model.maps_values() || a.contexts > 1 || a.radix || !model.is_bounded() {
        return WideForms::NONE;
    }
    let Some(allowed) = allowed(model) else { return WideForms::NONE };
    let reader = Reader { bytes: a.unit_bytes as usize, units };
    let mut single = Vec::new();
    let mut pair = None;
    for f in &a.encode_forms {
        if f.bias == 0 && reader.proves(f, model, 1, |p| [p, 0]) {
            single.extend(within(&allowed, f.lo, f.hi));
        } else if pair.is_none() {
            pair = pair_form(&reader, f, model).filter(|_| within(&allowed, f.lo, f.hi) == [(f.lo, f.hi)]);
        }
    }
    let Some(single) = two_longest(single) else {
        return WideForms { units, single: [(1, 0); 2], pair };
    };
    WideForms { units, single, pair }
}

/// The values the encoder accepts, as sorted disjoint ranges within `u32`
/// (`None` if the range does not fit 32 bits: no wide form holds such values).
fn allowed(model: &Model) -> Option<Vec<(u64, u64)>> {
    model.max.as_ref()?.to_u32()?;
    allowed_below(model, u64::from(u32::MAX))
}

/// The values the encoder accepts up to `cap`, as sorted disjoint ranges
/// (`None` for an unbounded model or a least value above `cap`).
pub(super) fn allowed_below(model: &Model, cap: u64) -> Option<Vec<(u64, u64)>> {
    let min = model.min.to_u64().filter(|&m| m <= cap)?;
    let max = model.max.as_ref()?.to_u64().unwrap_or(u64::MAX).min(cap);
    let mut out = Vec::new();
    let mut from = min;
    for (lo, hi) in &model.excluded {
        let (lo, hi) = (lo.to_u64().unwrap_or(u64::MAX), hi.to_u64().unwrap_or(u64::MAX));
        if lo > max {
            break;
        }
        if lo > from {
            out.push((from, lo - 1));
        }
        from = from.max(hi.saturating_add(1));
    }
    if from <= max {
        out.push((from, max));
    }
    Some(out)
}

/// The parts of `lo..=hi` that lie in `allowed`.
fn within(allowed: &[(u64, u64)], lo: u64, hi: u64) -> Vec<(u64, u64)> {
    allowed.iter().filter(|&&(a, b)| a <= hi && lo <= b).map(|&(a, b)| (a.max(lo), b.min(hi))).collect()
}

/// The two longest of `ranges` (merged where they touch), low first; one
/// repeated if there is one.
pub(super) fn two_longest(ranges: Vec<(u64, u64)>) -> Option<[(u32, u32); 2]> {
    let narrow = |(lo, hi): (u64, u64)| Some((u32::try_from(lo).ok()?, u32::try_from(hi).ok()?));
    let [first, second] = merged_two_longest(ranges)?;
    let mut two = [narrow(first)?, narrow(second)?];
    two.sort_unstable();
    Some(two)
}

/// [`two_longest`] in 64 bits: the two longest of `ranges` once merged
/// (the longest twice if it is alone), in order.
pub(super) fn merged_two_longest(mut ranges: Vec<(u64, u64)>) -> Option<[(u64, u64); 2]> {
    ranges.sort_unstable();
    let mut merged: Vec<(u64, u64)> = Vec::new();
    for (lo, hi) in ranges {
        match merged.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    merged.sort_by_key(|&(lo, hi)| (std::cmp::Reverse(hi - lo), lo));
    let first = *merged.first()?;
    let mut two = [first, merged.get(1).copied().unwrap_or(first)];
    two.sort_unstable();
    Some(two)
}

/// The pair form `f` writes, if it writes two code units of the shape
/// [`PairForm`] states: guessed from payload 0 and the first payload bit
/// that reaches the first unit, then proved.
fn pair_form(reader: &Reader, f: &EncodeForm, model: &Model) -> Option<PairForm> {
    if f.units.len() != 2 * reader.bytes {
        return None;
    }
    let [high, low] = reader.units(f, model, 0, 2)?;
    let bits = payload_bits(f);
    let low_bits = (0..bits).find(|&t| reader.units(f, model, 1 << t, 2).is_some_and(|[h, _]| h != high))?;
    let mask = (1u64 << low_bits) - 1;
    let formula = |p: u64| [u64::from(high) + (p >> low_bits), u64::from(low) + (p & mask)];
    let form = PairForm {
        lo: u32::try_from(f.lo).ok()?,
        hi: u32::try_from(f.hi).ok()?,
        bias: u32::try_from(f.bias).ok()?,
        high,
        low,
        low_bits: low_bits as u8,
    };
    reader.proves(f, model, 2, formula).then_some(form)
}

/// Bits of the largest payload of `f`.
fn payload_bits(f: &EncodeForm) -> u32 {
    64 - (f.hi - f.bias).leading_zeros()
}

/// Reads what a form writes as code units.
struct Reader {
    bytes: usize,
    units: AsciiRuns,
}

impl Reader {
    /// The `n` code units `f` writes for `payload` (`n` ≤ 2), if it writes
    /// that many.
    fn units(&self, f: &EncodeForm, model: &Model, payload: u64, n: usize) -> Option<[u32; 2]> {
        if f.units.len() != n * self.bytes {
            return None;
        }
        let mut out = vec![0u8; f.units.len()];
        f.write(model, false, payload, &mut out);
        let mut units = [0u32; 2];
        for (unit, bytes) in units.iter_mut().zip(out.chunks_exact(self.bytes)) {
            *unit = bytes.iter().fold(0, |u, &b| u << 8 | u32::from(b));
            if matches!(self.units, AsciiRuns::U16Le | AsciiRuns::U32Le) {
                *unit = unit.swap_bytes() >> (32 - 8 * self.bytes);
            }
        }
        Some(units)
    }

    /// Whether `f` writes `n` code units equal to `formula(payload)` for
    /// payload 0 and every payload of one bit (and so, bit by bit, for
    /// every payload it takes).
    fn proves(&self, f: &EncodeForm, model: &Model, n: usize, formula: impl Fn(u64) -> [u64; 2]) -> bool {
        let payloads = std::iter::once(0).chain((0..payload_bits(f)).map(|t| 1u64 << t));
        payloads.into_iter().all(|p| {
            let want = formula(p);
            self.units(f, model, p, n).is_some_and(|got| (0..n).all(|k| u64::from(got[k]) == want[k]))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::BuildOptions;
    use crate::Description;

    fn forms(text: &str) -> WideForms {
        let d = Description::parse_str(text).unwrap();
        Automaton::build(&d.model, BuildOptions::default()).unwrap().wide_forms
    }

    #[test]
    fn utf32_writes_every_scalar_value_as_itself() {
        let f = forms(
            r#"pub U { name: "u", unit: u32le, value: u32, range: 0 ..= 0x10FFFF,
                exclude: [0xD800 ..= 0xDFFF], forms: { "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" } }"#,
        );
        assert_eq!((f.units, f.single, f.pair), (AsciiRuns::U32Le, [(0, 0xD7FF), (0xE000, 0x10FFFF)], None));
    }

    #[test]
    fn a_form_with_fixed_bits_is_no_single_form() {
        // Values written with a marker bit set are not their own code units.
        let f = forms(
            r#"pub M { name: "m", unit: u16le, value: u32, range: 0 ..= 0x7FFF,
                forms: { "1xxxxxxxxxxxxxxx" } }"#,
        );
        assert_eq!((f.units, f.single, f.pair), (AsciiRuns::U16Le, [(1, 0); 2], None));
    }

    #[test]
    fn a_pair_whose_first_unit_takes_the_low_bits_is_no_pair_form() {
        // `groups: lsb_first`: the first unit carries the low half, which the
        // pair form (high part first) cannot say; most significant first, it is one.
        let text = |groups: &str| {
            format!(
                r#"pub P {{ name: "p", unit: u16le, value: u32, range: 0 ..= 0x3FFFFFF,
                    layout: explicit, groups: {groups},
                    forms: {{ 0 ..= 0x7FFF => "0xxxxxxxxxxxxxxx",
                             0x8000 ..= 0x3FFFFFF => "1000xxxxxxxxxxxx 11xxxxxxxxxxxxxx" }} }}"#
            )
        };
        assert_eq!(forms(&text("lsb_first")).pair, None);
        let pair = PairForm { lo: 0x8000, hi: 0x3FF_FFFF, bias: 0, high: 0x8000, low: 0xC000, low_bits: 14 };
        let msb = forms(&text("msb_first"));
        assert_eq!((msb.pair, msb.single), (Some(pair), [(0, 0x7FFF); 2]));
    }

    #[test]
    fn byte_codecs_have_none() {
        let f = forms(r#"pub A { name: "a", unit: byte, value: u32, range: 0 ..= 0x7F, forms: { "0xxxxxxx" } }"#);
        assert_eq!(f, WideForms::NONE);
    }
}
