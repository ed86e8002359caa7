//! The `digits` field and the forms made of digit units (`T`, `[lo-hi]`):
//! UTF-1's bytes of T(z), given as ranges in digit order, and the rules that
//! keep a codec of digit units to what the automaton and the runtime compute
//! (bytes, most significant digit first, bounded values, no bit patterns beside
//! them).

use super::checker::Checker;
use super::fields::Fields;
use super::forms::Forms;
use crate::model::{GroupOrder, ValueType};
use crate::syntax::FieldValue;

/// The digit set: the bytes of `digits: [lo ..= hi, …]` in the order written
/// (the `i`-th byte is digit `i`), at least two, each at most once. `Ok(None)`
/// without the field; `Err(())` when it was reported.
pub(super) fn digit_set(c: &mut Checker, fields: &Fields) -> Result<Option<Vec<u8>>, ()> {
    let Some(value) = fields.get("digits") else {
        return Ok(None);
    };
    let FieldValue::Ranges(span, ranges) = value else {
        c.error(value.span(), "`digits` takes byte ranges in digit order: `digits: [0x21 ..= 0x7E, 0xA0 ..= 0xFF]`");
        return Err(());
    };
    let mut set: Vec<u8> = Vec::new();
    let mut ok = true;
    for r in ranges {
        let Some((lo, hi)) = c.closed_range(r) else {
            ok = false;
            continue;
        };
        let (Ok(lo), Ok(hi)) = (u8::try_from(&lo), u8::try_from(&hi)) else {
            c.error_range(r, "a digit is a byte: its range lies within 0 ..= 0xFF");
            ok = false;
            continue;
        };
        if let Some(b) = (lo..=hi).find(|b| set.contains(b)) {
            c.error_range(r, format!("byte {b:#04X} is a digit twice"));
            ok = false;
        }
        set.extend(lo..=hi);
    }
    if ok && set.len() < 2 {
        c.error(*span, "a digit set has at least two bytes");
        ok = false;
    }
    if ok {
        Ok(Some(set))
    } else {
        Err(())
    }
}

/// What a codec of digit units may not mix in: bit patterns, `T` without
/// `digits`, units wider than a byte, least significant groups first, or
/// values of any size. Reported at each form concerned, or at the field.
pub(super) fn check_digit_forms(
    c: &mut Checker,
    fields: &Fields,
    forms: &mut Forms,
    has_set: bool,
    groups: Option<GroupOrder>,
    value: Option<ValueType>,
) {
    let digit_form = |f: &super::forms::CheckedForm| f.form.units.iter().any(|u| u.digits.is_some());
    if !forms.list.iter().any(digit_form) {
        if let (true, Some(v)) = (has_set, fields.get("digits")) {
            c.error(v.span(), "`digits` is for forms of digit units (`T`), and no form has one");
            forms.ok = false;
        }
        return;
    }
    for f in &forms.list {
        let span = f.parsed.span;
        let text = &f.parsed.text;
        if f.form.units.iter().any(|u| u.digits.is_none()) {
            c.error(span, format!("`{text}`: a codec of digit units writes every unit as `T` or `[lo-hi]`, not bits"));
            forms.ok = false;
        }
        let needs_set = f.form.units.iter().any(|u| u.digits == Some(crate::model::DigitUnit::Set));
        if needs_set && !has_set {
            c.error(span, format!("`{text}`: `T` stands for a digit of `digits: [lo ..= hi, …]`, which is missing"));
            forms.ok = false;
        }
    }
    if groups == Some(GroupOrder::LsbFirst) {
        if let Some(g) = fields.get("groups") {
            c.error(g.span(), "digit units are read most significant first; drop `groups: lsb_first`");
        }
        forms.ok = false;
    }
    if value == Some(ValueType::Unbounded) {
        if let Some(v) = fields.get("value") {
            c.error(v.span(), "a codec of digit units has forms of fixed lengths: use `value: u32` or `u64`");
        }
        forms.ok = false;
    }
}
