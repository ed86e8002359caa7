//! The byte-forms fact ([`ByteForms`]): for a codec of byte units whose
//! encoder writes values as UTF-8 does, the values each length of one to four
//! units takes, each length's lead base and the continuation base, for the
//! SIMD encoder of `placemat_simd::encode_from_units` (UTF-16/32 → the UTF-8
//! family in one pass).
//!
//! Like the wide forms (`wide_forms.rs`), each form is proved, not matched
//! by name. The encoder writes each bit of a unit either as a fixed bit or as
//! one payload bit ([`EncodeForm::write`]), so what it writes for payload 0
//! and for each single-bit payload decides what it writes for every payload;
//! the derivation writes those and keeps a form only if every unit is the
//! formula's: the lead `lead + (v >> 6(n − 1))`, the `k`-th continuation
//! `continuation + (v >> 6(n − 1 − k) & 63)`. The forms must follow each
//! other by value, shortest first, without a bias, and be the ones the
//! encoder picks for their values (no earlier form covers them).
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     pub Utf8 { name: "utf8", value: u32, range: 0 ..= 0x10FFFF, exclude: [0xD800 ..= 0xDFFF],
//!         forms: { "0xxxxxxx", "110xxxxx 10xxxxxx", "1110xxxx 10xxxxxx 10xxxxxx",
//!                  "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let forms = Automaton::build(&d.model, BuildOptions::default()).unwrap().byte_forms.unwrap();
//! assert_eq!((forms.lengths, forms.first), (4, 0));
//! assert_eq!(forms.last, [0x7F, 0x7FF, 0xFFFF, 0x10FFFF]);
//! assert_eq!((forms.lead, forms.continuation), ([0, 0xC0, 0xE0, 0xF0], 0x80));
//! assert_eq!(forms.allowed, [(0, 0xD7FF), (0xE000, 0x10FFFF)]);
//! ```

use placemat_codec::simd::ByteForms;

use super::wide_forms::{allowed_below, two_longest};
use super::{Automaton, EncodeForm};
use crate::model::Model;

/// The byte forms of `a`, built from `model`; `None` for a codec of wider
/// units, one that maps values or units, has digit units or values of any
/// size, or whose encoder writes no such forms. (A codec with rules across
/// values has its forms too: the kernels' callers check the rules.)
pub(super) fn derive(a: &Automaton, model: &Model) -> Option<ByteForms> {
    if a.unit_bytes != 1 || model.maps_values() || a.radix || !model.is_bounded() {
        return None;
    }
    let allowed = two_longest(allowed_below(model, u64::from(u32::MAX))?)?;
    let chain = chain(&a.encode_forms)?;
    let mut forms = ByteForms {
        lengths: 0,
        first: u32::try_from(chain[0].lo).ok()?,
        last: [0; 4],
        lead: [0; 4],
        continuation: 0,
        allowed,
    };
    // The chain ends before the first form the formula does not write.
    for (n, f) in (1..).zip(&chain) {
        let zero = written(f, model, 0);
        let mut next = forms;
        next.lengths = n as u8;
        next.last[n - 1] = u32::try_from(f.hi).ok()?;
        next.lead[n - 1] = zero[0];
        if n == 2 {
            next.continuation = zero[1];
        }
        if (n > 1 && (zero[1] != next.continuation || next.continuation & 63 != 0)) || !proves(f, model, &next, n) {
            break;
        }
        forms = next;
    }
    (forms.lengths > 0).then_some(forms)
}

/// The forms of one to four units without a bias that follow each other by
/// value, shortest first, from the first form of one unit, each the first in
/// the encoder's list to cover its values.
fn chain(forms: &[EncodeForm]) -> Option<Vec<&EncodeForm>> {
    let mut chain: Vec<&EncodeForm> = Vec::new();
    for n in 1..=4 {
        let next = chain.last().map(|f| f.hi + 1);
        let found = forms.iter().enumerate().find(|(_, f)| {
            f.units.len() == n && f.bias == 0 && next.is_none_or(|lo| f.lo == lo) && f.hi <= u64::from(u32::MAX)
        });
        let Some((at, f)) = found else { break };
        // The encoder takes the first form that covers a value.
        if forms[..at].iter().any(|g| g.lo <= f.hi && f.lo <= g.hi) {
            break;
        }
        chain.push(f);
    }
    (!chain.is_empty()).then_some(chain)
}

/// The units `f` writes for `payload`.
fn written(f: &EncodeForm, model: &Model, payload: u64) -> Vec<u8> {
    let mut out = vec![0u8; f.units.len()];
    f.write(model, false, payload, &mut out);
    out
}

/// Whether `f` (of `n` units) writes the formula's units for payload 0 and
/// every payload of one bit (and so, bit by bit, for every payload).
fn proves(f: &EncodeForm, model: &Model, forms: &ByteForms, n: usize) -> bool {
    let bits = 64 - f.hi.leading_zeros();
    std::iter::once(0).chain((0..bits).map(|t| 1u64 << t)).all(|p| {
        let want = (0..n).map(|k| {
            let digits = p >> (6 * (n - 1 - k));
            if k == 0 {
                u64::from(forms.lead[n - 1]) + digits
            } else {
                u64::from(forms.continuation) + (digits & 63)
            }
        });
        written(f, model, p).iter().map(|&u| u64::from(u)).eq(want)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::BuildOptions;
    use crate::Description;

    fn forms(text: &str) -> Option<ByteForms> {
        let d = Description::parse_str(text).unwrap();
        Automaton::build(&d.model, BuildOptions::default()).unwrap().byte_forms
    }

    #[test]
    fn the_1992_forms_run_to_six_units_and_the_chain_keeps_four() {
        let f = forms(
            r#"pub F { name: "f", value: u32, range: 0 ..= 0x7FFFFFFF,
                forms: { "0xxxxxxx", "110xxxxx 10xxxxxx", "1110xxxx 10xxxxxx 10xxxxxx",
                         "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx",
                         "111110xx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx",
                         "1111110x 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx" } }"#,
        )
        .unwrap();
        assert_eq!((f.lengths, f.last), (4, [0x7F, 0x7FF, 0xFFFF, 0x1F_FFFF]));
        assert_eq!(f.allowed, [(0, 0x7FFF_FFFF); 2]);
    }

    #[test]
    fn a_form_with_a_bias_ends_the_chain() {
        // Ken's draft style: the two-unit form is biased, so only one unit is kept.
        let f = forms(
            r#"pub B { name: "b", value: u32, range: 0 ..= 0x407F, layout: biased,
                forms: { "0xxxxxxx", "10xxxxxx xxxxxxxx" } }"#,
        )
        .unwrap();
        assert_eq!((f.lengths, f.last[0]), (1, 0x7F));
    }

    #[test]
    fn a_continuation_of_five_payload_bits_is_no_form() {
        // The second unit carries five bits under `111`: no `continuation + 6 bits`.
        let f = forms(
            r#"pub C { name: "c", value: u32, range: 0 ..= 0x3FF, layout: explicit,
                forms: { 0 ..= 0x7F => "0xxxxxxx", 0x80 ..= 0x3FF => "110xxxxx 111xxxxx" } }"#,
        );
        assert_eq!(f.map(|f| f.lengths), Some(1));
    }

    #[test]
    fn wide_codecs_have_none() {
        let f = forms(
            r#"pub W { name: "w", unit: u16le, value: u32, range: 0 ..= 0xFFFF, forms: { "xxxxxxxxxxxxxxxx" } }"#,
        );
        assert_eq!(f, None);
    }
}
