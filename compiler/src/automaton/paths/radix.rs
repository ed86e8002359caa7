//! The paths of a form of digit units (UTF-1's `F6–FB T T`): its valid
//! payloads split into per-unit digit ranges by [`crate::split_radix`], each
//! position reading `v = v * radix + digit` from the table walkers' one digit
//! map ([`Model::digit_of`]).
//!
//! A form's digit and the walkers' digit of a unit differ by a constant on a
//! run of units (`[A1-F5]` reads `b − A1`, the map gives T(z)⁻¹ = `b − 42`), so
//! each position's range is cut where that difference changes, and the path's
//! bias takes the differences, each times its position's weight. The bias may
//! come out negative: it is kept modulo 2^64, as the walkers add it.

use num_traits::ToPrimitive;

use super::Path;
use crate::automaton::BuildError;
use crate::limits;
use crate::model::{ConcreteForm, Model, UnitSet};

/// The paths of one concrete form (number `index`) of a model of digit units.
pub(super) fn form_paths(model: &Model, form: &ConcreteForm, index: usize) -> Result<Vec<Path>, BuildError> {
    let radices: Vec<u64> = form.units.iter().map(|u| model.radix(u)).collect();
    let weights = weights(&radices).ok_or(BuildError::TooLarge)?;
    let bias = form.bias.to_i128().ok_or(BuildError::TooLarge)?;
    let mut out = Vec::new();
    for (lo, hi) in model.valid_ranges(form) {
        let lo = (&lo - &form.bias).to_u128().ok_or(BuildError::TooLarge)?;
        let hi = (&hi - &form.bias).to_u128().ok_or(BuildError::TooLarge)?;
        for seq in model.split_payloads(&form.units, lo, hi) {
            let runs: Vec<Vec<Run>> =
                seq.iter().zip(&form.units).map(|(&(dlo, dhi), pat)| runs(model, pat, dlo, dhi)).collect();
            // A digit set that alternates with other bytes cuts every position
            // into many runs: the paths multiply, so count them first.
            let count =
                runs.iter().try_fold(1usize, |n, r| n.checked_mul(r.len())).and_then(|n| n.checked_add(out.len()));
            if count.is_none_or(|n| n > limits::MAX_PATHS) {
                return Err(BuildError::Limit { what: "unit-range paths", limit: limits::MAX_PATHS as u64 });
            }
            for pick in products(&runs) {
                let offset: i128 = pick.iter().zip(&weights).map(|(r, &w)| r.offset * w).sum();
                out.push(Path {
                    sets: pick.iter().map(|r| r.set).collect(),
                    bits: radices.iter().map(|&r| if r > 1 { 8 } else { 0 }).collect(),
                    bias: (bias + offset).rem_euclid(1 << 64) as u64,
                    looped: None,
                    form: index,
                    places: Vec::new(),
                    radix: multipliers(&radices)?,
                    from: 0,
                    to: 0,
                });
            }
        }
    }
    Ok(out)
}

/// A run of units at one position whose form digit is the walkers' digit plus
/// `offset`.
#[derive(Copy, Clone, Debug)]
struct Run {
    set: UnitSet,
    offset: i128,
}

/// The runs of the units carrying digits `lo..=hi` of pattern `pat`.
fn runs(model: &Model, pat: &crate::model::UnitPattern, lo: u32, hi: u32) -> Vec<Run> {
    let reads = model.radix(pat) > 1;
    let mut out: Vec<Run> = Vec::new();
    for d in lo..=hi {
        let b = model.digit_unit(pat, u64::from(d));
        let walker = if reads { i128::from(model.digit_of(b).unwrap_or(0)) } else { 0 };
        let offset = i128::from(d) - walker;
        match out.last_mut() {
            Some(run) if run.offset == offset => run.set[usize::from(b >> 6)] |= 1 << (b & 63),
            _ => {
                let mut set = [0u64; 4];
                set[usize::from(b >> 6)] |= 1 << (b & 63);
                out.push(Run { set, offset });
            }
        }
    }
    out
}

/// Every choice of one run per position.
fn products(runs: &[Vec<Run>]) -> Vec<Vec<Run>> {
    runs.iter().fold(vec![Vec::new()], |acc, position| {
        acc.iter()
            .flat_map(|prefix| {
                position.iter().map(move |r| {
                    let mut p = prefix.clone();
                    p.push(*r);
                    p
                })
            })
            .collect()
    })
}

/// Each position's weight: the product of the radices after it.
fn weights(radices: &[u64]) -> Option<Vec<i128>> {
    let mut out = vec![1i128; radices.len()];
    for i in (0..radices.len().saturating_sub(1)).rev() {
        out[i] = out[i + 1].checked_mul(i128::from(radices[i + 1]))?;
    }
    Some(out)
}

/// Each position's multiplier: its radix, or 1 while every position before it
/// has a single digit (the value read so far is still 0).
fn multipliers(radices: &[u64]) -> Result<Vec<u32>, BuildError> {
    let mut read = false;
    radices
        .iter()
        .map(|&r| {
            let m = if read { u32::try_from(r).map_err(|_| BuildError::TooLarge)? } else { 1 };
            read |= r > 1;
            Ok(m)
        })
        .collect()
}
