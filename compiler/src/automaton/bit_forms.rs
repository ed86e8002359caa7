//! The bit-forms fact ([`BitForms`]): for a codec of byte units whose
//! encoder writes each unit as fixed bits and one field of the payload (a
//! form's value less its bias), up to eight forms of up to eight units that
//! follow each other by value, for the SIMD encoder of
//! `placemat_simd::encode_bit_forms`: the encoders outside the UTF-8
//! family's kernels (X/Open FSS-UTF's biased forms, SQLite's varints,
//! UTF-EBCDIC's I8 forms through its byte map) write eight values at a time.
//!
//! Each form's fields are read from its unit patterns and proved, as the
//! byte forms are (`byte_forms.rs`): the encoder writes each bit of a unit
//! either as a fixed bit or as one payload bit ([`EncodeForm::write`]), so
//! what it writes for payload 0 and for each payload of one bit decides
//! what it writes for every payload; a form is kept only if the formula
//! ([`BitForms::write`]) writes the encoder's units for all of those. The
//! forms are taken in the encoder's order while each starts where the one
//! before ends (a padded codec's forms overlap: each writes from where the
//! shorter ones stop) and no earlier form covers its values.
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     pub X { name: "x", value: u32, range: 0 ..= 0x207F, layout: biased,
//!         forms: { 0 ..= 0x7F => "0xxxxxxx", 0x80 ..= 0x207F bias 0x80 => "10xxxxxx 1xxxxxxx" } }
//! "#).unwrap();
//! let forms = Automaton::build(&d.model, BuildOptions::default()).unwrap().bit_forms.unwrap();
//! assert_eq!((forms.count, &forms.first[..2], &forms.bias[..2]), (2, &[0, 0x80][..], &[0, 0x80][..]));
//! let mut units = [0u8; 8];
//! assert_eq!(forms.write(0x207F, &mut units), Some(2));
//! assert_eq!(units[..2], [0xBF, 0xFF]);
//! ```

use num_traits::ToPrimitive;
use placemat_codec::simd::BitForms;
use placemat_codec::Sign;

use super::wide_forms::{allowed_below, merged_two_longest};
use super::{Automaton, EncodeForm};
use crate::model::Model;

/// The most forms, and the most units a form, the kernel writes.
const MOST: usize = 8;

/// The bit forms of `a`, built from `model`; `None` for a codec of wider
/// units or digit units, one whose values map to raw values by two's
/// complement or by a premap past 128, or whose first form is not one. (A
/// codec with rules across values has its forms too: the kernels' callers
/// check the rules.) The forms of a signed or premapped codec write its raw
/// values, as its automaton does: the model's range is of raw values.
pub(super) fn derive(a: &Automaton, model: &Model) -> Option<BitForms> {
    if a.unit_bytes != 1 || a.radix || model.signed.as_ref().is_some_and(|s| s.sign == Sign::TwosComplement) {
        return None;
    }
    let (map, symbols) = unit_map(model)?;
    let value_map = value_map(model)?;
    let mut forms = BitForms { unit_map: map, value_map, ..BitForms::EMPTY };
    let mut next = a.encode_forms.first()?.lo;
    // (Each form the loop keeps ends before the next one's first value, so
    // no earlier form covers a later one's values.)
    for f in a.encode_forms.iter().take(MOST) {
        if f.units.len() > MOST || f.lo > next || f.hi < next {
            break;
        }
        let Some(next_forms) = with_form(forms, f, model, next, symbols) else { break };
        forms = next_forms;
        let Some(after) = f.hi.checked_add(1) else { break };
        next = after;
    }
    let end = next.checked_sub(1).unwrap_or(u64::MAX);
    let allowed = allowed_below(model, end)?.into_iter().filter(|&(_, hi)| hi >= forms.first[0]).collect();
    let [low, high] = merged_two_longest(allowed)?;
    forms.allowed = [low, high].map(|(lo, hi)| (lo.max(forms.first[0]), hi));
    // The decoder of the forms reads units as they are (after the inverse of
    // a full byte map) and gives the forms' values: not for an alphabet of
    // fewer units, nor for mapped values.
    if symbols == 256 && !model.maps_values() {
        forms.leads = leads(a, model, &forms);
    }
    (forms.count > 0 && forms.check().is_ok()).then_some(forms)
}

/// The premap of `model` as the forms' value map: `Some(None)` for none,
/// `None` where the forms cannot take it (longer than 128, or mapping
/// values the codec excludes, which would make the mapped values' allowed
/// ranges not the model's).
fn value_map(model: &Model) -> Option<Option<[u8; 128]>> {
    let Some(premap) = &model.premap else { return Some(None) };
    let n = premap.len();
    let excluded_below = model.excluded.iter().any(|(lo, _)| lo.to_u64().is_some_and(|lo| lo < n as u64));
    if n > 128 || excluded_below || model.min.to_u64() != Some(0) {
        return None;
    }
    let mut map: [u8; 128] = core::array::from_fn(|v| v as u8);
    for (to, &m) in map.iter_mut().zip(premap) {
        // A bijection of `0..n` (validated), so every entry is below 128.
        *to = u8::try_from(m).ok().filter(|&m| usize::from(m) < n)?;
    }
    Some(Some(map))
}

/// The form each unit leads, for the decoder of the forms: where every
/// valid sequence is the encoder's writing of its value (`canonical`),
/// without rules across values or pending values, and no unit leads two
/// forms. A sequence whose units the formula writes for a value in its
/// form's range is then that value's encoding, so valid, and every valid
/// one of the forms is such a sequence.
fn leads(a: &Automaton, model: &Model, forms: &BitForms) -> Option<[u8; 256]> {
    if !a.canonical || a.contexts > 1 || a.pending.iter().any(Option::is_some) || model.contexts().count() > 1 {
        return None;
    }
    let mut leads = [0xFFu8; 256];
    for (d, lead) in leads.iter_mut().enumerate() {
        let d = d as u8;
        let mut named = (0..usize::from(forms.count)).filter(|&k| {
            let (mask, fixed) = (forms.mask[k] as u8, forms.fixed[k] as u8);
            d & !mask == fixed
        });
        if let Some(k) = named.next() {
            if named.next().is_some() {
                return None;
            }
            *lead = k as u8;
        }
    }
    Some(leads)
}

/// The byte map of `model`'s units as 256 entries (`None` for none), and
/// how many units it spells: an alphabet of fewer than 256 symbols is
/// padded with its first (the forms are kept only if they write no unit
/// past its last).
fn unit_map(model: &Model) -> Option<(Option<[u8; 256]>, usize)> {
    match model.symbols() {
        None => Some((None, 256)),
        Some(s) => {
            let first = *s.first()?;
            Some((Some(core::array::from_fn(|d| s.get(d).copied().unwrap_or(first))), s.len().min(256)))
        }
    }
}

/// `forms` with `f` after them, writing from `first`: its fields read from
/// its patterns, if the formula then writes what the encoder does and no
/// unit past the `symbols` the codec spells.
fn with_form(mut forms: BitForms, f: &EncodeForm, model: &Model, first: u64, symbols: usize) -> Option<BitForms> {
    let k = usize::from(forms.count);
    let (mut shift, mut mask, mut fixed) = ([0u8; 8], [0u8; 8], [0u8; 8]);
    for (j, (u, &place)) in f.units.iter().zip(&f.places).enumerate() {
        // The field sits at the unit's low bits; the kernel's offsets wrap
        // at 64, so a field must end within the payload's 64 bits.
        if u.digits.is_some() || u.payload_bits > 8 || place + u.payload_bits > 64 {
            return None;
        }
        let largest = (u32::from(u.fixed_bits) | ((1u32 << u.payload_bits) - 1)) as usize;
        if largest >= symbols {
            return None;
        }
        shift[j] = place as u8;
        mask[j] = ((1u32 << u.payload_bits) - 1) as u8;
        fixed[j] = u.fixed_bits;
    }
    forms.count += 1;
    forms.first[k] = first;
    forms.bias[k] = f.bias;
    forms.units[k] = f.units.len() as u8;
    (forms.shift[k], forms.mask[k], forms.fixed[k]) =
        (u64::from_le_bytes(shift), u64::from_le_bytes(mask), u64::from_le_bytes(fixed));
    proves(&forms, k, f, model).then_some(forms)
}

/// Whether the formula writes `f`'s units (form `k` of `forms`), as its
/// encoder does, for payload 0 and every payload of one bit below its
/// largest (and so, bit by bit, for every payload).
fn proves(forms: &BitForms, k: usize, f: &EncodeForm, model: &Model) -> bool {
    let bits = 64 - (f.hi - f.bias).leading_zeros();
    std::iter::once(0).chain((0..bits).map(|t| 1u64 << t)).all(|p| {
        let mut want = vec![0u8; f.units.len()];
        f.write(model, false, p, &mut want);
        let mut got = [0u8; 8];
        forms.write_form(k, p, &mut got) == want.len() && got[..want.len()] == want[..]
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::BuildOptions;
    use crate::Description;

    fn forms(text: &str) -> Option<BitForms> {
        let d = Description::parse_str(text).unwrap();
        Automaton::build(&d.model, BuildOptions::default()).unwrap().bit_forms
    }

    #[test]
    fn padded_forms_each_write_from_where_the_shorter_stop() {
        let f = forms(
            r#"pub P { name: "p", value: u32, range: 0 ..= 0x1FFFFF, layout: padded,
                forms: { 0 ..= 0x7F => "0xxxxxxx", 0 ..= 0x3FFF => "1xxxxxxx 0xxxxxxx",
                         0 ..= 0x1FFFFF => "1xxxxxxx 1xxxxxxx 0xxxxxxx" } }"#,
        )
        .unwrap();
        assert_eq!((f.count, &f.first[..3]), (3, &[0, 0x80, 0x4000][..]));
        assert_eq!(f.allowed, [(0, 0x1F_FFFF); 2]);
        let mut u = [0u8; 8];
        assert_eq!(f.write(0x4000, &mut u), Some(3));
        assert_eq!(u[..3], [0x81, 0x80, 0x00]);
    }

    #[test]
    fn excluded_values_are_left_to_the_encoder() {
        let f = forms(
            r#"pub U { name: "u", value: u32, range: 0 ..= 0xFFFF, exclude: [0xD800 ..= 0xDFFF],
                forms: { "0xxxxxxx", "110xxxxx 10xxxxxx", "1110xxxx 10xxxxxx 10xxxxxx" } }"#,
        )
        .unwrap();
        assert_eq!(f.allowed, [(0, 0xD7FF), (0xE000, 0xFFFF)]);
        assert_eq!(f.form(0xD800), None);
    }

    #[test]
    fn wide_units_have_none() {
        let d = r#"pub W { name: "w", unit: u16le, value: u32, range: 0 ..= 0xFFFF, forms: { "xxxxxxxxxxxxxxxx" } }"#;
        assert_eq!(forms(d), None);
    }
}
