//! The pre-mapping (`premap: [v0, v1, …]`): a bijection of `0..N` onto itself, applied
//! to values before encoding, whose values `0..N` must all be valid values.

use num_bigint::BigUint;
use num_traits::Zero;
use proc_macro2::Span;

use super::checker::Checker;
use super::fields::Fields;
use super::range::ValueRange;
use crate::syntax::{FieldValue, IntLit};

/// The pre-mapping, if one is given and it checks.
pub(super) fn premap(
    c: &mut Checker,
    fields: &Fields,
    range: Option<&ValueRange>,
    excluded: &[(BigUint, BigUint)],
) -> Option<Vec<u32>> {
    match fields.get("premap")? {
        FieldValue::Ints(span, items) => {
            let (images, seen) = images(c, items)?;
            check_onto(c, *span, &seen)?;
            check_valid(c, *span, items.len(), range, excluded)?;
            Some(images)
        }
        other => {
            c.error(other.span(), "`premap` takes a list of integers: `[v0, v1, …]`");
            None
        }
    }
}

/// The image of each value, and for each value of `0..N` the first value mapped to
/// it. Reports images outside `0..N` and images given twice; `None` if any was.
fn images(c: &mut Checker, items: &[IntLit]) -> Option<(Vec<u32>, Vec<Option<usize>>)> {
    let n = items.len();
    let mut seen = vec![None::<usize>; n];
    let mut out = Vec::with_capacity(n);
    let mut ok = true;
    for (i, item) in items.iter().enumerate() {
        match item.value() {
            Some(v) if (v as usize) < n && v < u128::from(u32::MAX) => {
                if let Some(j) = seen[v as usize] {
                    c.error2(
                        item.span,
                        format!("the pre-mapping is not a bijection: {v:#X} is the image of both {j:#X} and {i:#X}"),
                        items[j].span,
                        "first image here",
                    );
                    ok = false;
                }
                seen[v as usize] = Some(i);
                out.push(v as u32);
            }
            _ => {
                c.error(item.span, format!("a pre-mapping of {n} values maps onto 0..{n}; this value is outside"));
                ok = false;
            }
        }
    }
    ok.then_some((out, seen))
}

/// Reports values of `0..N` that nothing maps to.
fn check_onto(c: &mut Checker, span: Span, seen: &[Option<usize>]) -> Option<()> {
    let missing: Vec<String> =
        seen.iter().enumerate().filter(|(_, s)| s.is_none()).map(|(v, _)| format!("{v:#X}")).collect();
    if missing.is_empty() {
        return Some(());
    }
    c.error(span, format!("the pre-mapping is not a bijection: nothing maps to {}", missing.join(", ")));
    None
}

/// Reports a pre-mapping whose values `0..n` are not all valid values (when the
/// value range is known).
fn check_valid(
    c: &mut Checker,
    span: Span,
    n: usize,
    range: Option<&ValueRange>,
    excluded: &[(BigUint, BigUint)],
) -> Option<()> {
    let Some(range) = range else {
        return Some(());
    };
    let inside = range.lo.is_zero() && excluded.iter().all(|(elo, _)| *elo >= BigUint::from(n));
    if inside {
        return Some(());
    }
    c.error(span, "the pre-mapped values 0..N must all be valid values (in `range`, not excluded)");
    None
}
