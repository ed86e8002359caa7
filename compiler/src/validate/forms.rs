//! The `forms` field: each form's pattern, range and bias, then the checks between
//! forms and against other fields — prefix-freeness (pointing at both forms),
//! payload widths against the value type, and what the layout lets a form write.

use super::checker::Checker;
use super::fields::Fields;
use super::patterns::{parse_pattern, ParsedForm};
use crate::limits::MAX_FORMS;
use crate::model::{ByteOrder, Form, GroupOrder, Layout, UnitPattern, ValueType};
use crate::syntax::{FieldValue, FormLit};

/// A form whose pattern parsed, with what was written for it.
pub(super) struct CheckedForm<'a> {
    /// The form as the model will hold it.
    pub(super) form: Form,
    /// The form as written.
    pub(super) lit: &'a FormLit,
    /// Its parsed pattern.
    pub(super) parsed: ParsedForm,
}

/// The forms whose patterns parsed, and whether every check on the forms passed.
pub(super) struct Forms<'a> {
    /// The forms, in order (a form whose pattern failed is left out).
    pub(super) list: Vec<CheckedForm<'a>>,
    /// Whether `forms` was given and no problem was found with any form.
    pub(super) ok: bool,
}

/// The forms for code units of `width` bits in a byte order (`None` if the unit
/// failed its check).
pub(super) fn forms<'a>(c: &mut Checker, fields: &Fields<'a>, width: Option<(u32, ByteOrder)>) -> Forms<'a> {
    let mut forms = Forms { list: Vec::new(), ok: true };
    match fields.get("forms") {
        None => forms.ok = false,
        Some(FieldValue::Forms(span, lits)) => {
            if lits.is_empty() {
                c.error(*span, "`forms` needs at least one form");
                forms.ok = false;
            }
            if let Some(extra) = lits.get(MAX_FORMS) {
                let message =
                    format!("this is form {} of {}; a description has at most {MAX_FORMS}", MAX_FORMS + 1, lits.len());
                c.error(extra.pattern.span(), message);
                forms.ok = false;
            }
            for lit in lits.iter().take(MAX_FORMS) {
                let Some(width) = width else {
                    forms.ok = false;
                    break;
                };
                add_form(c, &mut forms, lit, width);
            }
        }
        Some(other) => {
            c.error(other.span(), "`forms` takes `{ \"pattern\", … }` or `{ lo ..= hi => \"pattern\", … }`");
            forms.ok = false;
        }
    }
    forms
}

/// Checks one form's pattern, range and bias, and adds it if its pattern parsed.
fn add_form<'a>(c: &mut Checker, forms: &mut Forms<'a>, lit: &'a FormLit, (width, order): (u32, ByteOrder)) {
    let parsed = parse_pattern(c, &lit.pattern, width, order);
    let range = lit.range.as_ref().and_then(|r| c.closed_range(r));
    let bias = lit.bias.as_ref().and_then(|b| c.int(b));
    // A written range or bias that failed its check has been reported;
    // the form must not reach the model as if none had been written.
    if (lit.range.is_some() && range.is_none()) || (lit.bias.is_some() && bias.is_none()) {
        forms.ok = false;
    }
    match parsed {
        Some(p) => {
            let form = Form { units: p.units.clone(), repeat: p.repeat, range, bias };
            forms.list.push(CheckedForm { form, lit, parsed: p });
        }
        None => forms.ok = false,
    }
}

/// Fixes to zero the payload bits of a form (without a repeated unit) above the
/// value type's width: the most significant ones, which no value of the type can
/// set. Perl's 13-byte form carries 72 payload bits for 64-bit values; its first
/// continuation byte can only be `80`, and so the model says.
pub(super) fn narrow_payload_widths(
    forms: &mut Forms,
    value: Option<ValueType>,
    groups: GroupOrder,
    (unit_bytes, order): (u32, ByteOrder),
) {
    let Some(bits) = value.and_then(|v| v.bits()) else {
        return;
    };
    for f in &mut forms.list {
        if f.form.repeat.is_none() {
            let excess = f.form.units.iter().map(|u| u.payload_bits).sum::<u32>().saturating_sub(bits);
            let places = crate::model::places(&f.form.units, unit_bytes, order, groups);
            let mut by_place: Vec<(u32, &mut UnitPattern)> = places.into_iter().zip(f.form.units.iter_mut()).collect();
            by_place.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
            narrow(by_place.into_iter().map(|(_, u)| u), excess);
        }
    }
}

/// Turns the `excess` most significant payload bits of `units` (most
/// significant group first) into fixed zeros.
fn narrow<'a>(units: impl Iterator<Item = &'a mut UnitPattern>, mut excess: u32) {
    for u in units {
        if excess == 0 {
            return;
        }
        let take = excess.min(u.payload_bits);
        u.payload_bits -= take;
        u.fixed_mask |= (((1u32 << take) - 1) << u.payload_bits) as u8;
        excess -= take;
    }
}

/// Reports ranges, biases and repeated units that the layout does not allow.
pub(super) fn check_layout(c: &mut Checker, forms: &mut Forms, layout: Option<Layout>) {
    let Some(layout) = layout else {
        return;
    };
    for f in &forms.list {
        let ok = match layout {
            Layout::Explicit => check_explicit(c, f),
            Layout::Shortest | Layout::Biased | Layout::Padded => check_derived(c, f, layout),
        };
        forms.ok &= ok;
    }
}

/// With `layout: explicit`: the form gives its range (a form with a repeated
/// unit too: its lengths share the range and bias, see
/// [`Model::concrete_forms_upto`](crate::model::Model::concrete_forms_upto)).
fn check_explicit(c: &mut Checker, f: &CheckedForm) -> bool {
    if f.lit.range.is_none() {
        c.error(f.parsed.span, "with `layout: explicit` every form gives its range: `lo ..= hi => \"…\"`");
        return false;
    }
    true
}

/// With a layout that derives ranges: no bias under `shortest`, and no written range
/// for a form with a repeated unit.
fn check_derived(c: &mut Checker, f: &CheckedForm, layout: Layout) -> bool {
    let mut ok = true;
    if let Some(b) = &f.lit.bias {
        if layout != Layout::Biased {
            let name = if layout == Layout::Padded { "padded" } else { "shortest" };
            c.error(b.span, format!("`layout: {name}` has no biases; use `layout: explicit` to give one"));
            ok = false;
        }
    }
    if f.lit.range.is_some() && f.form.repeat.is_some() {
        c.error(f.parsed.span, "a form with a repeated unit has one range per length; they are derived, not written");
        ok = false;
    }
    ok
}
