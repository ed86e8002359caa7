//! What each unit does in a codec, read off its model: which units lead a valid
//! sequence, which continue one, and the bit patterns of the continuing units
//! ([`UnitRoles`]); with the few operations on the model's 256-unit sets
//! ([`UnitSet`]) that reading them takes.
//!
//! ```
//! use placemat_compiler::analysis::units::{self, UnitRoles};
//! use placemat_compiler::Description;
//! // Strict UTF-8 cut down to two forms.
//! let d = Description::parse_str(r#"
//!     pub Two { name: "two", value: u32, range: 0 ..= 0x7FF, layout: shortest,
//!               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let roles = UnitRoles::of(&d.model).unwrap();
//! assert_eq!(units::ranges(&roles.lead), [(0x00, 0x7F), (0xC2, 0xDF)]);
//! assert_eq!(units::ranges(&roles.cont), [(0x80, 0xBF)]);
//! assert!(units::is_empty(&roles.shared()));
//! ```

use crate::model::{ConcreteForm, Model, UnitPattern, UnitSet};

/// Whether unit `u` is in `set`.
pub fn contains(set: &UnitSet, u: u8) -> bool {
    set[usize::from(u >> 6)] >> (u & 63) & 1 == 1
}

/// The units in both `a` and `b`.
pub fn intersection(a: &UnitSet, b: &UnitSet) -> UnitSet {
    std::array::from_fn(|i| a[i] & b[i])
}

/// The units not in `a`.
pub fn complement(a: &UnitSet) -> UnitSet {
    std::array::from_fn(|i| !a[i])
}

/// Whether `a` holds no unit.
pub fn is_empty(a: &UnitSet) -> bool {
    a.iter().all(|&w| w == 0)
}

/// The lowest unit of `a`, if any.
pub fn lowest(a: &UnitSet) -> Option<u8> {
    (0..=255u8).find(|&u| contains(a, u))
}

/// The runs of consecutive units in `a`, as `(first, last)`, lowest first.
pub fn ranges(a: &UnitSet) -> Vec<(u8, u8)> {
    let mut out: Vec<(u8, u8)> = Vec::new();
    for u in (0..=255u8).filter(|&u| contains(a, u)) {
        match out.last_mut() {
            Some(run) if u16::from(run.1) + 1 == u16::from(u) => run.1 = u,
            _ => out.push((u, u)),
        }
    }
    out
}

/// What the units of a codec do: which units start a valid sequence, which
/// continue one, and the patterns of the continuing units. Exact: the value
/// ranges of every form are split into products of digit ranges, so a unit
/// counts only if some valid sequence has it in that place.
///
/// The story of `papers/comparison.md` reads it (X/Open's continuation bytes
/// also lead sequences; the redesign's never do).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitRoles {
    /// Units that are the first unit of some valid sequence.
    pub lead: UnitSet,
    /// Units that are a later unit of some valid sequence.
    pub cont: UnitSet,
    /// The smallest unit found anywhere in a sequence of two or more units.
    pub multi_min: Option<u8>,
    /// The distinct bit patterns of later units, in form order.
    pub cont_patterns: Vec<UnitPattern>,
    /// Bits per unit pattern (a byte of a wider code unit).
    pub width: u32,
}

impl UnitRoles {
    /// The roles of `model`'s units, over its forms of values up to `u64::MAX`;
    /// `None` if a form's payloads do not fit 128 bits.
    pub fn of(model: &Model) -> Option<Self> {
        let mut roles = UnitRoles {
            lead: [0; 4],
            cont: [0; 4],
            multi_min: None,
            cont_patterns: Vec::new(),
            width: model.unit_width() / model.unit_bytes,
        };
        for form in model.forms_upto_u64() {
            roles.add_form(model, &form)?;
        }
        Some(roles)
    }

    /// Adds the units of `form`'s valid sequences and its later units' patterns.
    fn add_form(&mut self, model: &Model, form: &ConcreteForm) -> Option<()> {
        let multi = form.units.len() > 1;
        for (lo, hi) in model.valid_ranges(form) {
            let lo = u128::try_from(&(lo - &form.bias)).ok()?;
            let hi = u128::try_from(&(hi - &form.bias)).ok()?;
            for product in model.split_payloads(&form.units, lo, hi) {
                for (i, (&(dlo, dhi), pat)) in product.iter().zip(&form.units).enumerate() {
                    let set = model.unit_set(pat, dlo, dhi);
                    let roles = if i == 0 { &mut self.lead } else { &mut self.cont };
                    *roles = std::array::from_fn(|w| roles[w] | set[w]);
                    if let Some(low) = lowest(&set).filter(|_| multi) {
                        self.multi_min = Some(self.multi_min.map_or(low, |m| m.min(low)));
                    }
                }
            }
        }
        for pat in form.units.iter().skip(1) {
            if !self.cont_patterns.contains(pat) {
                self.cont_patterns.push(*pat);
            }
        }
        Some(())
    }

    /// The one pattern every later unit follows, if there is exactly one.
    pub fn cont_pattern(&self) -> Option<&UnitPattern> {
        match self.cont_patterns.as_slice() {
            [p] => Some(p),
            _ => None,
        }
    }

    /// The units that both lead a sequence and continue one: where a decoder
    /// dropped into a stream cannot tell that a sequence starts.
    pub fn shared(&self) -> UnitSet {
        intersection(&self.lead, &self.cont)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Description;

    fn model(text: &str) -> Model {
        Description::parse_str(text).expect("the description parses").model
    }

    #[test]
    fn utf8s_leads_and_continuations_do_not_meet() {
        let utf8 = model(
            r#"pub U { name: "u", value: u32, range: 0 ..= 0x10FFFF, exclude: [0xD800 ..= 0xDFFF], layout: shortest,
                forms: { "0xxxxxxx", "110xxxxx 10xxxxxx", "1110xxxx 10xxxxxx 10xxxxxx",
                         "11110xxx 10xxxxxx 10xxxxxx 10xxxxxx" } }"#,
        );
        let r = UnitRoles::of(&utf8).unwrap();
        assert_eq!(ranges(&r.lead), [(0x00, 0x7F), (0xC2, 0xF4)]);
        assert_eq!(ranges(&r.cont), [(0x80, 0xBF)]);
        assert_eq!(r.multi_min, Some(0x80));
        assert_eq!((r.width, r.cont_pattern().map(|p| p.payload_bits)), (8, Some(6)));
        assert!(is_empty(&r.shared()));
        assert_eq!(ranges(&complement(&r.cont)), [(0x00, 0x7F), (0xC0, 0xFF)]);
    }

    #[test]
    fn biased_continuations_may_also_lead() {
        // X/Open's first two forms: a continuation is any byte from 80, and
        // the two-byte form's leads are 80–BF, so those bytes do both.
        let two = model(
            r#"pub X { name: "x", value: u32, range: 0 ..= 0x207F, layout: biased,
                forms: { 0x00 ..= 0x7F => "0zzzzzzz", 0x80 ..= 0x207F bias 0x80 => "10zzzzzz 1zzzzzzz" } }"#,
        );
        let r = UnitRoles::of(&two).unwrap();
        assert_eq!(ranges(&r.lead), [(0x00, 0xBF)]);
        assert_eq!(ranges(&r.cont), [(0x80, 0xFF)]);
        assert_eq!(ranges(&r.shared()), [(0x80, 0xBF)]);
        assert!(contains(&r.lead, 0xBF) && !contains(&r.lead, 0xC0));
        assert_eq!((lowest(&r.cont), r.multi_min), (Some(0x80), Some(0x80)));
        assert_eq!(r.cont_pattern().map(|p| p.payload_bits), Some(7));
        assert!(is_empty(&intersection(&r.cont, &complement(&r.cont))));
    }
}
