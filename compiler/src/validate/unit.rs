//! The `unit` field: `byte` (the default) or `alphabet("…")`, whose symbols must be
//! distinct ASCII characters, a power of two of them (2 to 128).

use placemat_codec::Unit;

use super::checker::Checker;
use super::fields::Fields;
use crate::syntax::FieldValue;

/// The codec's units.
pub(super) fn unit(c: &mut Checker, fields: &Fields) -> Option<Unit> {
    match fields.get("unit") {
        None => Some(Unit::Byte),
        Some(FieldValue::Word(w)) if w == "byte" => Some(Unit::Byte),
        Some(FieldValue::Alphabet(w, text)) if w == "alphabet" => alphabet(c, text),
        Some(other) => {
            c.error(other.span(), "`unit` takes `byte` or `alphabet(\"…\")`");
            None
        }
    }
}

/// An alphabet's symbols, reporting every problem with them.
fn alphabet(c: &mut Checker, text: &syn::LitStr) -> Option<Unit> {
    let s = text.value();
    if !s.is_ascii() {
        // One error, not one per repeated byte of the multi-byte characters.
        c.error(
            text.span(),
            format!("alphabet symbols are ASCII characters, at most 128 of them; this alphabet has {} characters, not all ASCII", s.chars().count()),
        );
        return None;
    }
    let mut ok = true;
    let bytes = s.as_bytes();
    if !(bytes.len() >= 2 && bytes.len() <= 128 && bytes.len().is_power_of_two()) {
        c.error(text.span(), format!("an alphabet has 2, 4, 8, … or 128 symbols; this one has {}", bytes.len()));
        ok = false;
    }
    for (i, b) in bytes.iter().enumerate() {
        if let Some(j) = bytes[..i].iter().position(|x| x == b) {
            c.error(text.span(), format!("alphabet symbol {:?} appears twice (digits {j} and {i})", *b as char));
            ok = false;
        }
    }
    ok.then(|| Unit::Alphabet(bytes.to_vec().into()))
}

/// The bits in one unit: 8 for a byte, log2 of the size of an alphabet.
pub(super) fn width(unit: &Unit) -> u32 {
    match unit {
        Unit::Byte => 8,
        Unit::Alphabet(a) => a.len().trailing_zeros(),
    }
}
