//! Pass 2: checks an [`Ast`] and builds the span-free [`Model`], reporting every
//! problem at once, each at the tokens it concerns (and, for conflicts, at both).
//!
//! ```
//! use placemat_compiler::Description;
//! let errors = Description::parse_str(r#"
//!     pub Bad { name: "bad", value: u32, range: 0 ..= 0xFF, colour: "red",
//!               forms: { "0xxxxxxx", "0xxxxxxx 10xxxxxx" } }
//! "#).unwrap_err();
//! let messages: Vec<_> = errors.iter().map(|d| d.message.as_str()).collect();
//! assert!(messages.iter().any(|m| m.contains("unknown key `colour`")));
//! assert!(messages.iter().any(|m| m.contains("is a whole sequence of form `0xxxxxxx` and the start of one")));
//! ```
//!
//! Follow-on errors are avoided: a field that failed to check is treated as absent
//! by later checks, and checks that need it are skipped.
//!
//! The checks run in a fixed order, which is the order of the diagnostics:
//! attributes and keys, `name`, `summary`, `unit`, `unit_map`, `value`, `layout`, `padding`, `sign`, `range`,
//! `groups`, `exclude`, `premap`, `forbid`, `overlap`, `digits` and `forms` (each form); then, once every field
//! has checked, the checks that need the model (derived ranges and biases,
//! explicit ranges) and, when those pass, coverage and determinism: forms may
//! share units only where the values they accept tell them apart, which the
//! automaton decides (a clash names the units that show it, at both forms).

mod checker;
mod derived;
mod digits;
mod fields;
mod forbid;
mod forms;
mod padding;
mod patterns;
mod premap;
mod range;
mod sign;
mod unit;
mod unit_map;

use num_bigint::BigUint;

use self::checker::Checker;
use self::range::ValueRange;
use crate::model::{ByteOrder, GroupOrder, Model};
use crate::syntax::Ast;
use crate::Diagnostics;

/// Checks `ast` and builds its model.
pub fn validate(ast: &Ast) -> Result<Model, Diagnostics> {
    let mut c = Checker::default();
    fields::check_attributes(&mut c, ast);
    let fields = fields::collect(&mut c, ast);
    // Unknown keys and attributes change nothing the value checks below read.
    let after_keys = c.error_count();
    let name = fields::name(&mut c, &fields);
    let summary = fields::summary(&mut c, &fields, &ast.docs);
    let unit = unit::unit(&mut c, &fields);
    let unit_map = unit_map::unit_map(&mut c, &fields, unit.as_ref());
    let value = fields::value_type(&mut c, &fields);
    let layout = fields::layout(&mut c, &fields);
    let padding = padding::padding(&mut c, &fields, layout);
    let groups = fields::group_order(&mut c, &fields, value);
    let sign = sign::sign(&mut c, &fields, value);
    let (range, signed, excluded) = match sign {
        Some(Some(sign)) => match sign::signed_range(&mut c, &fields, sign, value, layout) {
            Some(sign::SignedRange { signed, raw, excluded }) => (Some(raw), Some(signed), excluded),
            None => (None, None, Vec::new()),
        },
        // Whether values are signed is not known: the range is not read.
        None => (None, None, Vec::new()),
        Some(None) => {
            let range = range::value_range(&mut c, &fields, value);
            let excluded = range::excluded(&mut c, &fields, range.as_ref());
            (range, None, excluded)
        }
    };
    // A signed codec has none of these (`sign::sign` says so at each).
    let unsigned = !matches!(sign, Some(Some(_)));
    let premap = premap::premap(&mut c, &fields, range.as_ref(), &excluded).filter(|_| unsigned);
    let forbid = if unsigned { forbid::forbid(&mut c, &fields, range.as_ref()) } else { Vec::new() };
    let longest = fields::overlap(&mut c, &fields, value);
    let digit_set = digits::digit_set(&mut c, &fields);
    let mut forms = forms::forms(&mut c, &fields, unit.as_ref().map(|u| (unit::width(u), u.order)));
    let has_set = !matches!(digit_set, Ok(None));
    digits::check_digit_forms(&mut c, &fields, &mut forms, has_set, groups, value);
    let (unit_bytes, byte_order) = unit.as_ref().map_or((1, ByteOrder::Big), |u| (u.bytes, u.order));
    forms::narrow_payload_widths(&mut forms, value, groups.unwrap_or(GroupOrder::MsbFirst), (unit_bytes, byte_order));
    forms::check_layout(&mut c, &mut forms, layout);

    let (
        Some(name),
        Some(summary),
        Some(unit),
        Some(value),
        Some(layout),
        Some(groups),
        Some(range),
        true,
        Ok(digit_set),
        Some(longest),
        Ok(unit_map),
        Some(_),
        Some(padding),
    ) = (name, summary, unit, value, layout, groups, range, forms.ok, digit_set, longest, unit_map, sign, padding)
    else {
        return Err(c.into_diagnostics());
    };
    let ValueRange { lo: min, hi: max, lit: range_lit } = range;
    let radix = forms.list.iter().any(|f| f.form.units.iter().any(|u| u.digits.is_some()));
    unit_map::check_bit_patterns(&mut c, &fields, radix && unit_map.is_some());
    sign::check_extend_forms(&mut c, &fields, signed.as_ref().map(|s| s.sign), radix);
    let unit_map = unit_map.filter(|_| !radix);
    let model = Model {
        type_name: ast.ident.to_string(),
        name,
        summary,
        docs: ast.docs.clone(),
        unit: unit.unit,
        unit_map,
        unit_bytes,
        byte_order,
        digit_set,
        value,
        min,
        max,
        signed,
        excluded,
        forbid,
        longest,
        premap,
        layout,
        padding,
        groups,
        forms: forms.list.iter().map(|f| f.form.clone()).collect(),
    };

    derived::check_open_range(&mut c, &model, &forms.list, range_lit);
    sign::check_extend_widths(&mut c, &fields, &model);
    padding::check_unlimited(&mut c, &fields, &model);
    let concrete = derived::concrete_forms(&model);
    derived::check_form_ranges(&mut c, &model, &forms.list, &concrete);
    derived::check_explicit_ranges(&mut c, &model, &forms.list);
    // Coverage and determinism need every field and form right (else they would
    // report what an earlier error already explains).
    if c.error_count() == after_keys {
        derived::check_coverage(&mut c, &model, &concrete, range_lit);
    }
    if c.error_count() == after_keys {
        derived::check_determinism(&mut c, &model, &forms.list, &concrete);
    }
    c.finish(model)
}

/// Formats a value as `0x…`.
pub(crate) fn hex(v: &BigUint) -> String {
    format!("{v:#X}").replace("0X", "0x")
}
