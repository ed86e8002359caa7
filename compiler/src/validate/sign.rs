//! Signed values: `value: i32 | i64` with `sign: extend | zigzag | low_bit`,
//! the signed `range`, and the raw values it becomes (the model's `min`,
//! `max` and `excluded`). A signed codec's forms read their payload in
//! `layout: shortest` or `padded`, and the fields that name raw values
//! (`exclude`, `premap`, `forbid`) or look ahead (`overlap`) are not given.

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};

use super::checker::Checker;
use super::fields::Fields;
use super::range::ValueRange;
use crate::model::{Layout, ValueType};
use crate::signed::Signed;
use crate::syntax::{FieldValue, RangeLit};
use placemat_codec::Sign;

/// The fields a signed codec does not take, and why.
const NOT_WITH_SIGN: [(&str, &str); 4] = [
    ("exclude", "the values a signed codec leaves out are those outside its `range`"),
    ("premap", "a signed codec's values map to raw values by its `sign`"),
    ("forbid", "rules across values read unsigned values"),
    ("overlap", "a signed codec's forms do not overlap"),
];

/// The sign scheme (`sign`): given exactly when the value type is signed.
/// `Some(None)` for an unsigned codec; `None` after an error.
pub(super) fn sign(c: &mut Checker, fields: &Fields, value: Option<ValueType>) -> Option<Option<Sign>> {
    let signed_type = super::fields::signed_type(fields);
    let Some(v) = fields.get("sign") else {
        if let Some(w) = signed_type {
            c.error(
                w.span(),
                format!(
                    "`value: {w}` needs `sign: extend`, `zigzag` or `low_bit`: how the forms spell negative values"
                ),
            );
            return None;
        }
        return Some(None);
    };
    let w = c.expect_word(v, "sign", &["extend", "zigzag", "low_bit"])?;
    if signed_type.is_none() && value != Some(ValueType::Unbounded) {
        if value.is_some() {
            c.error(
                w.span(),
                "`sign` needs a signed value type: `value: i32`, `i64`, or `unbounded` for signed values of any size",
            );
        }
        return None;
    }
    for (key, why) in NOT_WITH_SIGN {
        if let Some(given) = fields.get(key) {
            c.error(given.span(), format!("a signed codec has no `{key}`: {why}"));
        }
    }
    Some(Some(match w.to_string().as_str() {
        "extend" => Sign::TwosComplement,
        "zigzag" => Sign::ZigZag,
        _ => Sign::LowBit,
    }))
}

/// A signed codec's checked range: the signed one, and the raw values it
/// becomes (hull and gaps).
pub(super) struct SignedRange<'a> {
    /// The signed range and the sign.
    pub(super) signed: Signed,
    /// The least and the greatest raw value.
    pub(super) raw: ValueRange<'a>,
    /// The raw values inside `raw` that spell no value.
    pub(super) excluded: Vec<(BigUint, BigUint)>,
}

/// A signed codec's `range` in signed numbers, which must fit its type and
/// have a shape its scheme spells from raw value 0 on, and the layout, which
/// must be `shortest` or `padded`; with the raw values of the range as the
/// model's bounds and exclusions.
pub(super) fn signed_range<'a>(
    c: &mut Checker,
    fields: &Fields<'a>,
    sign: Sign,
    value: Option<ValueType>,
    layout: Option<Layout>,
) -> Option<SignedRange<'a>> {
    if let (Some(l @ (Layout::Biased | Layout::Explicit)), Some(v)) = (layout, fields.get("layout")) {
        let word = if l == Layout::Biased { "biased" } else { "explicit" };
        c.error(
            v.span(),
            format!("a signed codec derives its forms' values: `layout: shortest` or `padded`, not `{word}`"),
        );
    }
    let lit = match fields.get("range")? {
        FieldValue::Range(r) => r,
        other => {
            c.error(other.span(), "`range` takes `lo ..= hi`, or `..` for signed values of any size");
            return None;
        }
    };
    let Some(bits) = value?.bits() else {
        return any_size(c, fields, sign, lit);
    };
    let Some(lo_lit) = &lit.lo else {
        c.error_range(lit, format!("`..` (every integer) needs `value: unbounded`; i{bits} values need `lo ..= hi`"));
        return None;
    };
    let lo = c.signed_int(lo_lit)?;
    let Some(hi_lit) = &lit.hi else {
        c.error_range(lit, "a signed range needs an upper bound (`lo ..= hi`)");
        return None;
    };
    let hi = c.signed_int(hi_lit)?;
    let half = BigInt::one() << (bits - 1);
    let (least, greatest) = (-half.clone(), half - 1);
    for (v, at) in [(&lo, lo_lit.at()), (&hi, hi_lit.at())] {
        if *v < least || *v > greatest {
            c.error_between(at, format!("{v} does not fit the value type i{bits} ({least} ..= {greatest})"));
            return None;
        }
    }
    if lo > hi {
        c.error_range(lit, format!("empty range: {lo} is greater than {hi}"));
        return None;
    }
    let shape_ok = match sign {
        Sign::TwosComplement => true,
        Sign::ZigZag => hi >= BigInt::zero() && (lo == -hi.clone() || lo == -hi.clone() - 1),
        Sign::LowBit => hi >= BigInt::zero() && lo == -hi.clone(),
    };
    if !shape_ok {
        let shapes = if sign == Sign::ZigZag { "`-N ..= N` or `-(N + 1) ..= N`" } else { "`-N ..= N`" };
        c.error_range(
            lit,
            format!(
                "with `sign: {}` the range must be {shapes}: its raw values then run from 0 with no gap",
                sign.word()
            ),
        );
        return None;
    }
    let signed = Signed { sign, min: lo, max: hi, bits, any_size: false };
    let (min, max, excluded) = signed.raw_range();
    Some(SignedRange { signed, raw: ValueRange { lo: min, hi: Some(max), lit }, excluded })
}

/// A signed codec of any size (`value: unbounded`): its range is `..`, every
/// integer, and its sign a map of the value alone, so that its raw values
/// are every natural number (but minus zero, with `low_bit`).
fn any_size<'a>(c: &mut Checker, fields: &Fields<'a>, sign: Sign, lit: &'a RangeLit) -> Option<SignedRange<'a>> {
    if lit.lo.is_some() {
        c.error_range(lit, "a signed codec of any size holds every integer: its range is `..`");
        return None;
    }
    if sign == Sign::TwosComplement {
        let at = fields.get("sign").map_or(lit.span, |v| v.span());
        c.error(
            at,
            "`sign: extend` needs a bounded type (`value: i32` or `i64`): a negative value's raw value depends on \
             the width it is extended from; signed values of any size take `zigzag` or `low_bit`",
        );
        return None;
    }
    let signed = Signed::any_size(sign);
    let excluded = signed.raw_range().2;
    Some(SignedRange { signed, raw: ValueRange { lo: BigUint::zero(), hi: None, lit }, excluded })
}

/// `sign: extend` sign-extends a payload of bits: forms of digit units have
/// none.
pub(super) fn check_extend_forms(c: &mut Checker, fields: &Fields, sign: Option<Sign>, radix: bool) {
    if let (Some(Sign::TwosComplement), true, Some(v)) = (sign, radix, fields.get("sign")) {
        c.error(v.span(), "`sign: extend` sign-extends a payload of bits; these forms read digit units");
    }
}

/// `sign: extend` with groups most significant first and a repeated unit
/// whose longest length carries more payload bits than the value type: the
/// bits past the type would have to be the sign, but they come first, in a
/// unit that every length reads alike, before the length is known.
pub(super) fn check_extend_widths(c: &mut Checker, fields: &Fields, model: &crate::model::Model) {
    let Some(s) = model.extended() else { return };
    if model.groups == crate::model::GroupOrder::LsbFirst || model.is_radix() {
        return;
    }
    let wide = model.concrete_forms().iter().any(|f| model.forms[f.form].repeat.is_some() && f.payload_bits() > s.bits);
    if let (true, Some(v)) = (wide, fields.get("sign")) {
        c.error(
            v.span(),
            format!(
                "`sign: extend` over a repeated unit whose longest length carries more than {} payload bits needs \
                 `groups: lsb_first`: most significant first, the bits past the value type come first, before \
                 the length is known (or narrow the range)",
                s.bits
            ),
        );
    }
}
