//! The keys of a description — unknown, repeated and missing ones, and attributes
//! other than doc comments — and the fields that are one string or one word:
//! `name`, `summary`, `value` (the value type), `layout`, `groups` and
//! `overlap`.

use std::collections::BTreeMap;

use super::checker::Checker;
use crate::model::{GroupOrder, Layout, ValueType};
use crate::syntax::{Ast, FieldValue};

/// Every key a description may give.
const KEYS: &[&str] = &[
    "name", "summary", "unit", "unit_map", "value", "sign", "range", "exclude", "forbid", "overlap", "layout",
    "padding", "groups", "premap", "digits", "forms",
];

/// The keys every description must give.
const REQUIRED: [&str; 4] = ["name", "value", "range", "forms"];

/// The known fields of a description by key (the first of a repeated key).
pub(super) type Fields<'a> = BTreeMap<String, &'a FieldValue>;

/// Reports attributes other than `///` doc comments before the description.
pub(super) fn check_attributes(c: &mut Checker, ast: &Ast) {
    for span in &ast.other_attrs {
        c.error(*span, "only `///` doc comments may precede a description");
    }
}

/// Collects the fields by key, reporting unknown and repeated keys (in the order
/// written) and then missing required ones (at the type name).
pub(super) fn collect<'a>(c: &mut Checker, ast: &'a Ast) -> Fields<'a> {
    let mut fields: Fields<'a> = BTreeMap::new();
    let mut key_spans = BTreeMap::new();
    for f in &ast.fields {
        let key = f.key.to_string();
        if !KEYS.contains(&key.as_str()) {
            c.error(f.key.span(), format!("unknown key `{key}`; expected one of: {}", KEYS.join(", ")));
            continue;
        }
        if let Some(first) = key_spans.get(&key) {
            c.error2(f.key.span(), format!("`{key}` is given twice"), *first, "first given here");
            continue;
        }
        key_spans.insert(key.clone(), f.key.span());
        fields.insert(key, &f.value);
    }
    let whole = ast.ident.span();
    for required in REQUIRED {
        if !fields.contains_key(required) {
            c.error(whole, format!("missing `{required}: …`"));
        }
    }
    fields
}

/// The codec's name (`name`): lowercase letters, digits and `-`.
pub(super) fn name(c: &mut Checker, fields: &Fields) -> Option<String> {
    let s = c.expect_str(fields.get("name")?, "name")?;
    let n = s.value();
    if n.is_empty() || !n.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-') {
        c.error(s.span(), "a codec name is lowercase letters, digits and `-`");
        None
    } else {
        Some(n)
    }
}

/// The one-line summary (`summary`), by default the first doc comment line.
pub(super) fn summary(c: &mut Checker, fields: &Fields, docs: &[String]) -> Option<String> {
    match fields.get("summary") {
        Some(v) => c.expect_str(v, "summary").map(|s| s.value()),
        None => Some(docs.first().map(|d| d.trim().to_string()).unwrap_or_default()),
    }
}

/// The value type (`value`): `u32`, `u64` or `unbounded`, or `i32` and `i64`
/// for signed values (whose raw values, which the forms spell, are of the
/// unsigned type of the same width: see [`signed_type`]).
pub(super) fn value_type(c: &mut Checker, fields: &Fields) -> Option<ValueType> {
    let w = c.expect_word(fields.get("value")?, "value", &["u32", "u64", "unbounded", "i32", "i64"])?;
    Some(match w.to_string().as_str() {
        "u32" | "i32" => ValueType::U32,
        "u64" | "i64" => ValueType::U64,
        _ => ValueType::Unbounded,
    })
}

/// The `value` word if it names a signed type (`i32`, `i64`).
pub(super) fn signed_type<'a>(fields: &Fields<'a>) -> Option<&'a syn::Ident> {
    match fields.get("value") {
        Some(FieldValue::Word(w)) if w == "i32" || w == "i64" => Some(w),
        _ => None,
    }
}

/// The layout (`layout`): `shortest` (the default), `biased`, `explicit` or `padded`.
pub(super) fn layout(c: &mut Checker, fields: &Fields) -> Option<Layout> {
    let Some(v) = fields.get("layout") else {
        return Some(Layout::Shortest);
    };
    let w = c.expect_word(v, "layout", &["shortest", "biased", "explicit", "padded"])?;
    Some(match w.to_string().as_str() {
        "shortest" => Layout::Shortest,
        "biased" => Layout::Biased,
        "padded" => Layout::Padded,
        _ => Layout::Explicit,
    })
}

/// How forms may overlap (`overlap`): `none` (the default: no valid
/// sequence is a prefix of another) or `longest`, where a sequence that is
/// the start of a longer one means its own value only when the longer one
/// cannot go on (longest match). `longest` needs bounded values: the
/// decoder then looks ahead at most one longest sequence.
pub(super) fn overlap(c: &mut Checker, fields: &Fields, value: Option<ValueType>) -> Option<bool> {
    let Some(v) = fields.get("overlap") else {
        return Some(false);
    };
    let w = c.expect_word(v, "overlap", &["none", "longest"])?;
    if w != "longest" {
        return Some(false);
    }
    if value == Some(ValueType::Unbounded) {
        c.error(w.span(), "`overlap: longest` needs `value: u32` or `u64`: the look-ahead must be bounded");
        return None;
    }
    Some(true)
}

/// The order of payload groups (`groups`): `msb_first` (the default) or
/// `lsb_first`, which needs values of a bounded type.
pub(super) fn group_order(c: &mut Checker, fields: &Fields, value: Option<ValueType>) -> Option<GroupOrder> {
    let Some(v) = fields.get("groups") else {
        return Some(GroupOrder::MsbFirst);
    };
    let w = c.expect_word(v, "groups", &["msb_first", "lsb_first"])?;
    if w != "lsb_first" {
        return Some(GroupOrder::MsbFirst);
    }
    if value == Some(ValueType::Unbounded) {
        c.error(
            w.span(),
            "`groups: lsb_first` needs `value: u32` or `u64`: values of any size are read most significant group first",
        );
        return None;
    }
    Some(GroupOrder::LsbFirst)
}
