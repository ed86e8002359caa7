//! The structure analysis of a signed codec, whose raw values are not its
//! values: a form's least and greatest value ([`Structure::values_of`]), and
//! the order of values, which raw values do not keep (`structure`'s
//! order-preservation verdict for signed codecs).

use num_bigint::{BigInt, BigUint};

use super::structure::{inversion, FormSummary, Structure, Verdict};
use crate::model::Model;
use crate::reference::Reference;
use crate::signed::Signed;

impl Structure {
    /// The least and the greatest value of a signed codec's form (its raw
    /// values' least and greatest: each scheme's values over a run of raw
    /// values are extreme at the run's two ends or next to them); `None`
    /// for an unsigned codec.
    pub fn values_of(&self, f: &FormSummary) -> Option<(BigInt, BigInt)> {
        let s = self.signed.as_ref()?;
        let next = |v: &BigUint| (v < &f.hi).then(|| v + 1u32);
        let before = |v: &BigUint| (v > &f.lo).then(|| v - 1u32);
        let ends = [Some(f.lo.clone()), next(&f.lo), before(&f.hi), Some(f.hi.clone())];
        let held = |r: &&BigUint| !self.excluded.iter().any(|(a, b)| a <= *r && *r <= b);
        let values: Vec<_> = ends.iter().flatten().filter(held).map(|r| s.value(r)).collect();
        Some((values.iter().min()?.clone(), values.iter().max()?.clone()))
    }
}

/// A signed codec's order, where the raw values' order is not the values':
/// refuted by -1 and 0 if their encodings sort the other way, else not
/// decided.
pub(crate) fn order(model: &Model, reference: &Reference<'_>, s: &Signed) -> Verdict {
    let raw = |v: i64| s.raw(&BigInt::from(v));
    let pair = raw(-1).zip(raw(0));
    if let Some((minus, zero)) = &pair {
        if let (Some(a), Some(b)) = (reference.encode(minus), reference.encode(zero)) {
            if a >= b {
                return inversion(model, (minus, &a), (zero, &b));
            }
        }
    }
    Verdict::Unknown("a signed codec's raw values are not in the order of its values; only -1 and 0 compared".into())
}
