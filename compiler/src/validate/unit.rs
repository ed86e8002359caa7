//! The `unit` field: `byte` (the default), a code unit of 16 or 32 bits in a
//! byte order (`u16be`, `u16le`, `u32be`, `u32le`), or `alphabet("…")`, whose
//! symbols must be distinct ASCII characters, a power of two of them (2 to 128).

use placemat_codec::Unit;

use crate::model::ByteOrder;

use super::checker::Checker;
use super::fields::Fields;
use crate::syntax::FieldValue;

/// A codec's code units: what the decoders read (bytes, or alphabet symbols),
/// and how many bytes make one code unit, in which order.
#[derive(Clone, Debug)]
pub(super) struct Units {
    pub(super) unit: Unit,
    pub(super) bytes: u32,
    pub(super) order: ByteOrder,
}

/// The codec's units.
pub(super) fn unit(c: &mut Checker, fields: &Fields) -> Option<Units> {
    let bytes = |bytes, order| Some(Units { unit: Unit::Byte, bytes, order });
    match fields.get("unit") {
        None => bytes(1, ByteOrder::Big),
        Some(FieldValue::Word(w)) => match w.to_string().as_str() {
            "byte" => bytes(1, ByteOrder::Big),
            "u16be" => bytes(2, ByteOrder::Big),
            "u16le" => bytes(2, ByteOrder::Little),
            "u32be" => bytes(4, ByteOrder::Big),
            "u32le" => bytes(4, ByteOrder::Little),
            _ => {
                c.error(w.span(), UNIT_WORDS);
                None
            }
        },
        Some(FieldValue::Alphabet(w, text)) if w == "alphabet" => {
            alphabet(c, text).map(|unit| Units { unit, bytes: 1, order: ByteOrder::Big })
        }
        Some(other) => {
            c.error(other.span(), UNIT_WORDS);
            None
        }
    }
}

const UNIT_WORDS: &str = "`unit` takes `byte`, `u16be`, `u16le`, `u32be`, `u32le` or `alphabet(\"…\")`";

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

/// The bits in one code unit: 8 for a byte, 16 or 32 for wider units, log2 of
/// the size of an alphabet.
pub(super) fn width(units: &Units) -> u32 {
    match &units.unit {
        Unit::Byte => 8 * units.bytes,
        Unit::Alphabet(a) => a.len().trailing_zeros(),
    }
}
