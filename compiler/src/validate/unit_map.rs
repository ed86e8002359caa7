//! The unit map (`unit_map: [b0, b1, …, b255]`): a permutation of the 256 byte
//! values applied to every unit after the forms have spelled it, so that unit
//! `u` of a form is written as byte `unit_map[u]` and a decoder reads byte `b`
//! as the unit the map sends to `b` (UTF-EBCDIC's I8-to-EBCDIC table).
//!
//! It needs byte units (`unit: byte`) and bit patterns: an alphabet already
//! chooses its bytes, and digit units (`[lo-hi]`, `T`) name theirs.

use super::checker::Checker;
use super::fields::Fields;
use super::unit::Units;
use crate::syntax::{FieldValue, IntLit};
use placemat_codec::Unit;

/// The unit map: `Ok(None)` without one, `Err(())` if it was reported.
pub(super) fn unit_map(c: &mut Checker, fields: &Fields, units: Option<&Units>) -> Result<Option<Vec<u8>>, ()> {
    let Some(value) = fields.get("unit_map") else {
        return Ok(None);
    };
    let FieldValue::Ints(span, items) = value else {
        c.error(value.span(), "`unit_map` takes a list of 256 bytes: `[b0, b1, …, b255]`");
        return Err(());
    };
    if let Some(units) = units.filter(|u| u.bytes != 1 || !matches!(u.unit, Unit::Byte)) {
        let what =
            if units.bytes > 1 { "code units wider than a byte" } else { "an alphabet, which chooses its own bytes" };
        c.error(*span, format!("`unit_map` maps byte units (`unit: byte`); this codec has {what}"));
        return Err(());
    }
    if items.len() != 256 {
        c.error(*span, format!("a unit map gives a byte for each of the 256 units; this one gives {}", items.len()));
        return Err(());
    }
    // 256 distinct bytes: a permutation.
    images(c, items).map(Some)
}

/// The byte of each unit, reporting bytes out of range and bytes given twice
/// (at both).
fn images(c: &mut Checker, items: &[IntLit]) -> Result<Vec<u8>, ()> {
    let mut first = [None::<usize>; 256];
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for (unit, item) in items.iter().enumerate() {
        let Some(byte) = item.value().and_then(|v| u8::try_from(v).ok()) else {
            c.error(item.span, "a unit map's entries are bytes, 0x00 ..= 0xFF");
            ok = false;
            continue;
        };
        if let Some(earlier) = first[usize::from(byte)] {
            c.error2(
                item.span,
                format!("the unit map is not a permutation: units {earlier:#04X} and {unit:#04X} are both written as {byte:#04X}"),
                items[earlier].span,
                "first written here",
            );
            ok = false;
        }
        first[usize::from(byte)] = Some(unit);
        out.push(byte);
    }
    if ok {
        Ok(out)
    } else {
        Err(())
    }
}

/// Reports a unit map beside digit units, whose bytes the forms name.
pub(super) fn check_bit_patterns(c: &mut Checker, fields: &Fields, radix: bool) {
    if let (true, Some(value)) = (radix, fields.get("unit_map")) {
        c.error(
            value.span(),
            "`unit_map` maps the units of bit patterns; digit units (`[lo-hi]`, `T`) name their bytes themselves",
        );
    }
}
