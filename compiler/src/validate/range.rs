//! The value range (`range`: `lo ..= hi`, or `lo ..` for values of any size), which
//! the value type must hold, and the excluded ranges (`exclude`), which must lie
//! inside it and not overlap.

use num_bigint::BigUint;
use num_traits::One;

use super::checker::Checker;
use super::fields::Fields;
use super::hex;
use crate::limits::MAX_EXCLUSIONS;
use crate::model::ValueType;
use crate::syntax::{FieldValue, RangeLit};

/// The checked `range` field.
pub(super) struct ValueRange<'a> {
    /// The smallest value.
    pub(super) lo: BigUint,
    /// The largest value (`None` for an open range).
    pub(super) hi: Option<BigUint>,
    /// Where the range was written.
    pub(super) lit: &'a RangeLit,
}

/// The value range. A range the value type cannot hold is reported but still
/// returned: later checks may use its bounds.
pub(super) fn value_range<'a>(
    c: &mut Checker,
    fields: &Fields<'a>,
    value: Option<ValueType>,
) -> Option<ValueRange<'a>> {
    let range = match fields.get("range") {
        Some(FieldValue::Range(r)) => c.range(r).map(|(lo, hi)| ValueRange { lo, hi, lit: r }),
        Some(other) => {
            c.error(other.span(), "`range` takes `lo ..= hi` or `lo ..`");
            None
        }
        None => None,
    };
    if let (Some(range), Some(vt)) = (&range, value) {
        check_fits(c, range, vt);
    }
    range
}

/// Reports a range that reaches past the largest value of a sized value type.
fn check_fits(c: &mut Checker, range: &ValueRange, value: ValueType) {
    match (&range.hi, value.bits()) {
        (None, Some(bits)) => c.error_range(
            range.lit,
            format!(
                "an open range needs `value: unbounded`; u{bits} values end at {}",
                hex(&((BigUint::one() << bits) - 1u32))
            ),
        ),
        (Some(h), Some(bits)) if h.bits() > u64::from(bits) => {
            // At the bound that does not fit.
            let at = range.lit.hi.as_ref().map_or(range.lit.span, |h| h.span);
            c.error(at, format!("{} does not fit the value type u{bits}", hex(h)))
        }
        _ => {}
    }
}

/// The excluded ranges (closed, inside `range` when it is known, not overlapping),
/// sorted by their first value.
pub(super) fn excluded(c: &mut Checker, fields: &Fields, range: Option<&ValueRange>) -> Vec<(BigUint, BigUint)> {
    match fields.get("exclude") {
        None => Vec::new(),
        Some(FieldValue::Ranges(_, rs)) => excluded_ranges(c, rs, range),
        Some(other) => {
            c.error(other.span(), "`exclude` takes a list of ranges: `[lo ..= hi, …]`");
            Vec::new()
        }
    }
}

/// The checked ranges of an `exclude` list.
fn excluded_ranges(c: &mut Checker, rs: &[RangeLit], range: Option<&ValueRange>) -> Vec<(BigUint, BigUint)> {
    let mut excluded = Vec::new();
    if let Some(extra) = rs.get(MAX_EXCLUSIONS) {
        let message = format!(
            "this is excluded range {} of {}; a description has at most {MAX_EXCLUSIONS}",
            MAX_EXCLUSIONS + 1,
            rs.len()
        );
        c.error_range(extra, message);
    }
    for r in rs.iter().take(MAX_EXCLUSIONS) {
        let Some((lo, hi)) = c.closed_range(r) else {
            continue;
        };
        if hi > BigUint::from(u64::MAX) {
            c.error_range(
                r,
                "an excluded range must lie below 2^64: the codec's facts and its 64-bit view of values hold exclusions as 64-bit numbers",
            );
            continue;
        }
        if let Some(range) = range {
            if lo < range.lo || range.hi.as_ref().is_some_and(|m| hi > *m) {
                c.error_range(r, "an excluded range must lie inside `range`");
                continue;
            }
        }
        excluded.push((lo, hi, (r.span, r.end)));
    }
    excluded.sort_by(|a, b| a.0.cmp(&b.0));
    for w in excluded.windows(2) {
        if w[1].0 <= w[0].1 {
            c.error2_range(w[1].2, "excluded ranges overlap", w[0].2 .0, "overlaps this one");
        }
    }
    excluded.into_iter().map(|(lo, hi, _)| (lo, hi)).collect()
}
