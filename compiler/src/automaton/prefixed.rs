//! The length-prefix fact ([`Prefixed`]): for an integer codec whose first
//! unit gives a value's length, how, so that the runtime decodes a stream of
//! its values one load per value (`placemat_codec::Prefixed`).
//!
//! Derived from the encoder's forms, never from a name. A codec qualifies
//! when every form has one to eight byte units; its first unit fixes the
//! same top bits in every form (one to four of them: the *tag*) and carries
//! payload in the rest; every later unit is eight payload bits; the groups
//! go most significant first; and no two forms share a tag. Each tag's
//! values are its form's range, from the codec's least value where shorter
//! values may be padded (`layout: padded`, as QUIC's lengths are). Codecs
//! with pre-mapped or signed values, excluded values, rules across values,
//! overlapping forms, digit or mapped units, or unbounded values do not
//! qualify; nor do codecs whose units mark the end instead (the flagged
//! fact, `super::flagged`).
//!
//! ```
//! use placemat_compiler::automaton::{Automaton, BuildOptions};
//! use placemat_compiler::Description;
//! let d = Description::parse_str(r#"
//!     pub Quic { name: "quic", value: u64, range: 0 ..= 0x3FFFFFFFFFFFFFFF, layout: padded, forms: {
//!         0 ..= 0x3F => "00xxxxxx",
//!         0 ..= 0x3FFF => "01xxxxxx xxxxxxxx",
//!         0 ..= 0x3FFFFFFF => "10xxxxxx xxxxxxxx xxxxxxxx xxxxxxxx",
//!         0 ..= 0x3FFFFFFFFFFFFFFF => "11xxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx",
//!     } }
//! "#).unwrap();
//! let p = Automaton::build(&d.model, BuildOptions::default()).unwrap().prefixed.unwrap();
//! assert_eq!((p.shift, &p.lengths[..4], p.hi[1]), (6, &[1, 2, 4, 8][..], 0x3FFF));
//! assert_eq!(p.step(&[0x7B, 0xBD]), Some((15_293, 2)));
//! ```

use num_traits::ToPrimitive;
use placemat_codec::Prefixed;

use super::{Automaton, EncodeForm};
use crate::model::{Layout, Model};

/// The longest sequence the runtime reads with one load.
const WORD: usize = 8;

/// The fact for `a`, or why it has none (one sentence for `tables`).
pub(super) fn derive(a: &Automaton, model: &Model) -> Result<Prefixed, String> {
    if a.unit_bytes != 1 || a.radix || model.symbols().is_some() || a.digit_units.is_some() {
        return Err("its units are not bytes with bit patterns".into());
    }
    if model.premap.is_some() || model.signed.is_some() || !model.excluded.is_empty() {
        return Err("it maps or signs or excludes values".into());
    }
    if a.contexts > 1 || a.has_pending() || !model.is_bounded() {
        return Err("it has rules across values or overlapping forms or unbounded values".into());
    }
    let Some(first) = a.encode_forms.first() else { return Err("it has no forms".into()) };
    let mask = first.units[0].fixed_mask;
    let shift = mask.trailing_zeros() as u8;
    if mask == 0 || mask.leading_ones() + u32::from(shift) != 8 || shift < 4 {
        return Err("its first unit does not begin with one to four fixed bits".into());
    }
    let mut p = Prefixed { shift, lengths: [0; 16], lo: [0; 16], hi: [0; 16], bias: [0; 16] };
    for form in &a.encode_forms {
        if !prefixed_units(form, mask) {
            let n = form.units.len();
            return Err(format!(
                "its form of {n} unit{} is not a tag and payload bits then whole payload units",
                if n == 1 { "" } else { "s" }
            ));
        }
        let tag = usize::from(form.units[0].fixed_bits >> shift);
        if p.lengths[tag] != 0 {
            return Err("two of its forms begin with the same tag".into());
        }
        p.lengths[tag] = form.units.len() as u8;
        p.bias[tag] = form.bias;
        p.hi[tag] = form.hi;
        p.lo[tag] = match model.layout {
            Layout::Padded => model.min.to_u64().ok_or("its least value does not fit 64 bits")?,
            _ => form.lo,
        };
    }
    Ok(p)
}

/// Whether `form` is at most eight byte units: the first with the fixed
/// bits `mask` and payload below them, the others eight payload bits each,
/// the groups most significant first.
fn prefixed_units(form: &EncodeForm, mask: u8) -> bool {
    let n = form.units.len();
    let payload = mask.trailing_zeros();
    let units_ok = form.units.iter().enumerate().all(|(i, u)| {
        u.digits.is_none()
            && if i == 0 {
                u.fixed_mask == mask && u.payload_bits == payload
            } else {
                u.fixed_mask == 0 && u.payload_bits == 8
            }
    });
    let msb_first = form.places.iter().enumerate().all(|(i, &place)| place == 8 * (n - 1 - i) as u32);
    (1..=WORD).contains(&n) && units_ok && msb_first
}

/// The fact in a few words, for `tables` and `compare` (no commas: a CSV
/// cell): `yes: the first unit's top 2 bits give 1/2/4/8 units`, or `no: `
/// and why.
pub fn verdict(prefixed: &Result<Prefixed, String>) -> String {
    match prefixed {
        Ok(p) => {
            let tags = 1usize << (8 - p.shift);
            let lengths: Vec<String> = p.lengths[..tags].iter().filter(|&&n| n > 0).map(|n| n.to_string()).collect();
            format!("yes: the first unit's top {} bits give {} units", 8 - p.shift, lengths.join("/"))
        }
        Err(why) => format!("no: {why}"),
    }
}

#[cfg(test)]
mod tests {
    use super::verdict;
    use crate::automaton::{Automaton, BuildOptions};
    use crate::Description;

    fn fact(hi: u32, forms: &str) -> Result<placemat_codec::Prefixed, String> {
        let text =
            format!("pub S {{ name: \"s\", value: u32, range: 0 ..= {hi}, layout: shortest, forms: {{ {forms} }} }}");
        let model = Description::parse_str(&text).unwrap().model;
        Automaton::build(&model, BuildOptions::default()).unwrap().prefixed
    }

    /// A tag of three bits with two lengths qualifies, each length's own
    /// range kept (`shortest`: one spelling per value); whole payload units
    /// after the first, and one tag per form, are required.
    #[test]
    fn the_fact_needs_a_tag_per_form_and_whole_payload_units() {
        let p = fact(0x1FFF, r#""000xxxxx", "001xxxxx xxxxxxxx""#).unwrap();
        assert_eq!((p.shift, p.lengths[0], p.lengths[1], p.lengths[2]), (5, 1, 2, 0));
        assert_eq!((p.lo[1], p.hi[1]), (0x20, 0x1FFF));
        assert_eq!(p.step(&[0x20, 0x20]), Some((0x20, 2)));
        assert_eq!(p.step(&[0x20, 0x1F]), None, "below the length's range: the step reports it");
        assert_eq!(verdict(&Ok(p)), "yes: the first unit's top 3 bits give 1/2 units");
        let five = fact(0x7FF, r#""00000xxx", "00001xxx xxxxxxxx""#).unwrap_err();
        assert_eq!(five, "its first unit does not begin with one to four fixed bits");
        let tags = fact(0x1FFF, r#""0xxxxxxx", "10xxxxxx xxxxxxxx""#).unwrap_err();
        assert_eq!(tags, "its form of 2 units is not a tag and payload bits then whole payload units");
        let partial = fact(0x1FFF, r#""00xxxxxx", "01xxxxxx 1xxxxxxx""#).unwrap_err();
        assert_eq!(partial, "its form of 2 units is not a tag and payload bits then whole payload units");
    }
}
