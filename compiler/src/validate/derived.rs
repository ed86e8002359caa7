//! Checks that need the assembled [`Model`]: what an open range demands of the
//! forms, each form's written range and bias against those the layout derives (or,
//! with `layout: explicit`, against its payload), explicit ranges that overlap or
//! leave `range`, and that every valid value has a form.

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::checker::Checker;
use super::forms::CheckedForm;
use super::hex;
use crate::automaton::ConflictKind;
use crate::model::{ConcreteForm, Layout, Model};
use crate::syntax::RangeLit;

/// With an open range (values of any size), the last form, and only it, repeats,
/// and lengths follow the shortest rule, so one automaton loop and one big-integer
/// writer cover them all. `range_lit` is where the range was written.
pub(super) fn check_open_range(c: &mut Checker, model: &Model, forms: &[CheckedForm], range_lit: &RangeLit) {
    if model.max.is_some() {
        return;
    }
    match forms.last() {
        Some(last) if last.form.repeat.is_some() => {
            if model.layout != Layout::Shortest {
                c.error_range(range_lit, "an open range needs `layout: shortest` (biases would grow with the length)");
            }
            for f in &forms[..forms.len() - 1] {
                if f.form.repeat.is_some() {
                    c.error(f.parsed.span, "with an open range only the last form may repeat");
                }
            }
        }
        _ => c.error_range(range_lit, "an open range needs a last form with a repeated unit to reach every value"),
    }
}

/// The model's concrete forms; for an open range, those up to a few repetitions
/// beyond the longest declared form.
pub(super) fn concrete_forms(model: &Model) -> Vec<ConcreteForm> {
    let limit =
        if model.is_bounded() { None } else { Some(model.forms.iter().map(|f| f.units.len()).max().unwrap_or(1) + 4) };
    model.concrete_forms_upto(limit)
}

/// Checks each form against its concrete forms: a form must hold some value of its
/// own (unless the layout is explicit), and a written range (and bias) must agree
/// with the derived one or, with `layout: explicit`, fit the form.
pub(super) fn check_form_ranges(c: &mut Checker, model: &Model, forms: &[CheckedForm], concrete: &[ConcreteForm]) {
    for (i, f) in forms.iter().enumerate() {
        let mine: Vec<&ConcreteForm> = concrete.iter().filter(|cf| cf.form == i).collect();
        if mine.is_empty() && model.layout != Layout::Explicit {
            c.error(f.parsed.span, "this form holds no value that an earlier form does not already hold");
            continue;
        }
        let (Some(given), Some(range_lit)) = (&f.form.range, &f.lit.range) else {
            continue;
        };
        match model.layout {
            Layout::Explicit => check_explicit_range(c, model, f, given, range_lit),
            _ => check_derived_range(c, f, given, range_lit, mine[0]),
        }
    }
}

/// With `layout: explicit`: the bias fits the value type and is not above the first
/// value, and the form's payload holds the range less the bias. Only the first of
/// these problems is reported.
fn check_explicit_range(
    c: &mut Checker,
    model: &Model,
    f: &CheckedForm,
    given: &(BigUint, BigUint),
    range_lit: &RangeLit,
) {
    let bias = f.form.bias.clone().unwrap_or_default();
    let bits: u32 = f.form.units.iter().map(|u| u.payload_bits).sum();
    let bias_at = f.lit.bias.as_ref().map_or(range_lit.span, |b| b.span);
    // An overflowing bias is the one problem reported for this form:
    // it is also above the first value, which would only repeat it.
    match model.value.bits() {
        Some(vbits) if bias.bits() > u64::from(vbits) => c.error(
            bias_at,
            format!(
                "the bias {} overflows the value type u{vbits}, whose largest value is {}",
                hex(&bias),
                hex(&((BigUint::one() << vbits) - 1u32))
            ),
        ),
        _ if given.0 < bias => {
            c.error(bias_at, format!("the bias {} is above the form's first value {}", hex(&bias), hex(&given.0)))
        }
        // A repeated unit repeats as often as the range needs.
        _ if f.form.repeat.is_none() && &given.1 - &bias >= model.capacity(&f.form.units) => {
            let less = if bias.is_zero() { String::new() } else { format!(" less the bias {}", hex(&bias)) };
            let need = if model.is_radix() {
                format!("need more than the {} payloads the form's digits spell", model.capacity(&f.form.units))
            } else {
                format!("need {} payload bits, but the form carries {bits}", (&given.1 - &bias).bits())
            };
            c.error_range(range_lit, format!("the values {}..={}{less} {need}", hex(&given.0), hex(&given.1)))
        }
        _ => {}
    }
}

/// With a layout that derives ranges: the written range and bias are the derived
/// ones (those of the form's first concrete form).
fn check_derived_range(
    c: &mut Checker,
    f: &CheckedForm,
    given: &(BigUint, BigUint),
    range_lit: &RangeLit,
    derived: &ConcreteForm,
) {
    if given.0 != derived.lo || given.1 != derived.hi {
        c.error_range(
            range_lit,
            format!(
                "this form's values are {}..={} (derived from the layout), not {}..={}",
                hex(&derived.lo),
                hex(&derived.hi),
                hex(&given.0),
                hex(&given.1)
            ),
        );
    }
    if let Some(b) = &f.form.bias {
        if *b != derived.bias {
            c.error(
                f.lit.bias.as_ref().map(|b| b.span).unwrap_or(f.parsed.span),
                format!("the derived bias is {}, not {}", hex(&derived.bias), hex(b)),
            );
        }
    }
}

/// With `layout: explicit`: reports written ranges that overlap, then those that
/// reach outside `range`.
pub(super) fn check_explicit_ranges(c: &mut Checker, model: &Model, forms: &[CheckedForm]) {
    if model.layout != Layout::Explicit {
        return;
    }
    let mut spans: Vec<_> = forms
        .iter()
        .filter_map(|f| {
            let lit = f.lit;
            let at = lit.range.as_ref().map_or((lit.pattern.span(), lit.pattern.span()), |r| (r.span, r.end));
            f.form.range.clone().map(|(lo, hi)| (lo, hi, at))
        })
        .collect();
    spans.sort_by(|a, b| a.0.cmp(&b.0));
    for w in spans.windows(2) {
        if w[1].0 <= w[0].1 {
            c.error2_range(w[1].2, "the value ranges of two forms overlap", w[0].2 .0, "overlaps this range");
        }
    }
    for (lo, hi, at) in &spans {
        if *lo < model.min || model.max.as_ref().is_some_and(|m| hi > m) {
            c.error_between(*at, "this form's range reaches outside `range`");
        }
    }
}

/// For a bounded range: reports the first run of valid values that no form holds,
/// then the values from its start (or from past the last held value) to the end of
/// `range`, if any. `range_lit` is where the range was written.
pub(super) fn check_coverage(c: &mut Checker, model: &Model, concrete: &[ConcreteForm], range_lit: &RangeLit) {
    let Some(max) = &model.max else {
        return;
    };
    let mut covered: Vec<(BigUint, BigUint)> = concrete.iter().map(|f| (f.lo.clone(), f.hi.clone())).collect();
    covered.extend(model.excluded.iter().cloned());
    covered.sort();
    let mut next = model.min.clone();
    for (lo, hi) in covered {
        if lo > next {
            c.error_range(range_lit, format!("values {}..={} have no form", hex(&next), hex(&(lo - 1u32))));
            break;
        }
        if hi >= next {
            next = hi + 1u32;
        }
    }
    if next <= *max {
        c.error_range(range_lit, format!("values {}..={} have no form", hex(&next), hex(max)));
    }
}

/// Forms may share units as long as the sequences they accept (after ranges,
/// exclusions and biases) are told apart: the check runs on the automaton, and a
/// clash is reported at both forms with the units that show it.
pub(super) fn check_determinism(c: &mut Checker, model: &Model, forms: &[CheckedForm], concrete: &[ConcreteForm]) {
    let Some(conflict) = crate::automaton::conflict(model) else {
        return;
    };
    // The values each declared form holds, as its lengths give them.
    let held = |k: usize| {
        let mine = concrete.iter().filter(|f| f.form == k);
        let lo = mine.clone().map(|f| &f.lo).min();
        let hi = mine.map(|f| &f.hi).max();
        match (lo, hi) {
            (Some(lo), Some(hi)) => format!(" (values {}..={})", hex(lo), hex(hi)),
            _ => String::new(),
        }
    };
    let [a, b] = conflict.forms.map(|k| &forms[k].parsed);
    // Hex bytes, or an alphabet's characters (`H/`).
    let units = crate::analysis::units_bare(model, &conflict.units);
    let message = match conflict.kind {
        ConflictKind::SameUnits => format!("forms `{}` and `{}` both accept `{units}`", a.text, b.text),
        ConflictKind::Prefix => format!(
            "`{units}` is a whole sequence of form `{}` and the start of one of form `{}`: the forms are not \
             prefix-free (with `overlap: longest` the shorter one is read where the longer cannot go on)",
            a.text, b.text
        ),
        ConflictKind::Payload => format!(
            "forms `{}`{} and `{}`{} both read `{units}` but place the payload of its last unit differently; \
             a unit both forms read carries its payload alike, so one form's range must leave these units out \
             (`layout: explicit` states each form's range)",
            a.text,
            held(conflict.forms[0]),
            b.text,
            held(conflict.forms[1]),
        ),
    };
    match conflict.kind {
        ConflictKind::Prefix => c.error2(a.span, message, b.span, "the longer form"),
        _ => c.error2(b.span, message, a.span, "the other form"),
    }
}
