//! The first step from a model to an automaton: every form's valid values,
//! split into *paths* — one unit set per position — by the range splitter of
//! [`crate::split_range`]. A path of an unbounded codec may let one position repeat.

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::BuildError;

mod radix;
use crate::model::{ConcreteForm, Model, UnitSet};

/// One path through the automaton: a unit set and payload width per position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Path {
    pub sets: Vec<UnitSet>,
    pub bits: Vec<u32>,
    pub bias: u64,
    /// The position that may repeat, if any.
    pub looped: Option<usize>,
    /// The concrete form (an index into [`Paths::forms`]) the path belongs to.
    pub form: usize,
    /// Where each position's payload lands in the value, for a model whose
    /// payload is not simply read most significant group first in byte units
    /// ([`Model::places`]); empty otherwise.
    pub places: Vec<u32>,
    /// For a model of digit units, the multiplier of each position: the value
    /// read so far becomes `v * radix + digit` (1 while `v` is still 0); empty
    /// otherwise.
    pub radix: Vec<u32>,
    /// The context the path starts in and the one it leaves
    /// ([`crate::contexts`]; both 0 without rules across values).
    pub from: usize,
    /// The context after the path's values.
    pub to: usize,
}

impl Path {
    /// The place code of position `i` (see `placemat_codec::dfa::Parts::places`):
    /// with `m` the lowest place of the payload read up to a position, the value
    /// read so far shifts by the drop in `m` and the payload goes to its place
    /// less `m`. 0 for a path without places or a position without payload.
    pub fn code(&self, i: usize) -> u32 {
        if !self.radix.is_empty() {
            return self.radix[i];
        }
        if self.places.is_empty() || self.bits[i] == 0 {
            return 0;
        }
        let lowest = |k: usize| (0..k).filter(|&j| self.bits[j] > 0).map(|j| self.places[j]).min();
        let before = lowest(i);
        let here = before.map_or(self.places[i], |m| m.min(self.places[i]));
        let shift = before.map_or(0, |m| m - here);
        (shift << placemat_codec::dfa::PLACE_SHIFT) | (self.places[i] - here)
    }

    /// The same path with position `at` written twice.
    fn with_copy_of(&self, at: usize) -> Path {
        let mut p = self.clone();
        p.sets.insert(at, p.sets[at]);
        p.bits.insert(at, p.bits[at]);
        if !p.radix.is_empty() {
            p.radix.insert(at, p.radix[at]);
        }
        if !p.places.is_empty() {
            p.places.insert(at, p.places[at]);
        }
        p
    }

    /// Whether every unit of position `i` carries payload 0.
    fn zeros_only(&self, model: &Model, i: usize) -> bool {
        (0..=255u8)
            .filter(|&u| self.sets[i][usize::from(u >> 6)] >> (u & 63) & 1 == 1)
            .all(|u| model.digit_of(u).is_some_and(|d| u64::from(d) & ((1u64 << self.bits[i]) - 1) == 0))
    }

    /// The path of a model whose payload is placed with no payload read (and
    /// place 0) at the positions whose units all carry payload 0: the zero
    /// groups of padding, whose places lie past the value's bits.
    fn without_zero_groups(mut self, model: &Model) -> Path {
        for i in 0..self.sets.len() {
            if self.zeros_only(model, i) {
                self.bits[i] = 0;
                self.places[i] = 0;
            }
        }
        self
    }
}

/// The paths of a model, with the concrete forms they come from.
pub(super) struct Paths {
    pub forms: Vec<ConcreteForm>,
    pub paths: Vec<Path>,
}

/// The paths of one concrete form (number `index`): its valid values, split
/// into digit ranges.
fn form_paths(model: &Model, form: &ConcreteForm, index: usize) -> Result<Vec<Path>, BuildError> {
    if model.is_radix() {
        return radix::form_paths(model, form, index);
    }
    let mut out = Vec::new();
    for (lo, hi) in model.valid_ranges(form) {
        out.extend(range_paths(model, form, index, (&lo, &hi), (0, 0))?);
    }
    Ok(out)
}

/// The paths of the values `lo..=hi` of a concrete form, going from context
/// `from` to context `to`.
fn range_paths(
    model: &Model,
    form: &ConcreteForm,
    index: usize,
    (lo, hi): (&BigUint, &BigUint),
    (from, to): (usize, usize),
) -> Result<Vec<Path>, BuildError> {
    let bias = form.bias.to_u64().ok_or(BuildError::TooLarge)?;
    let widths: Vec<u32> = form.units.iter().map(|u| u.payload_bits).collect();
    let lo = (lo - &form.bias).to_u128().ok_or(BuildError::TooLarge)?;
    let hi = (hi - &form.bias).to_u128().ok_or(BuildError::TooLarge)?;
    let places = if model.is_placed() { model.places(&form.units) } else { Vec::new() };
    let paths = model.split_payloads(&form.units, lo, hi).into_iter().map(|seq| {
        let sets = seq.iter().zip(&form.units).map(|(&(dlo, dhi), pat)| model.unit_set(pat, dlo, dhi)).collect();
        let places = places.clone();
        Path { sets, bits: widths.clone(), bias, looped: None, form: index, places, radix: Vec::new(), from, to }
    });
    Ok(paths.collect())
}

/// The paths of one concrete form in every context of a model with rules
/// across values: in context `c`, the form's valid values less those `c`
/// forbids, each run of them leading to the context it leaves.
fn context_paths(model: &Model, form: &ConcreteForm, index: usize) -> Result<Vec<Path>, BuildError> {
    let contexts = model.contexts();
    let mut out = Vec::new();
    for (from, forbidden) in contexts.forbidden.iter().enumerate() {
        let holes: Vec<(BigUint, BigUint)> = forbidden.iter().map(|&(a, b)| (a.into(), b.into())).collect();
        for (lo, hi) in model.valid_ranges(form) {
            for (lo, hi) in crate::sequences::subtract(&lo, &hi, &holes) {
                let (lo, hi) = (lo.to_u64().ok_or(BuildError::TooLarge)?, hi.to_u64().ok_or(BuildError::TooLarge)?);
                for (a, b, to) in contexts.split(lo, hi) {
                    out.extend(range_paths(model, form, index, (&a.into(), &b.into()), (from, to))?);
                }
            }
        }
    }
    Ok(out)
}

/// Every path of a model.
pub(super) fn paths(model: &Model) -> Result<Paths, BuildError> {
    if !model.is_bounded() {
        return unbounded_paths(model);
    }
    if model.pads_without_limit() {
        return padded_paths(model);
    }
    let forms = model.concrete_forms();
    let mut paths = Vec::new();
    for (i, form) in forms.iter().enumerate() {
        if model.forbid.is_empty() {
            paths.extend(form_paths(model, form, i)?);
        } else {
            paths.extend(context_paths(model, form, i)?);
        }
    }
    Ok(Paths { forms, paths })
}

/// Paths of a model with values of any size (validated: shortest layout, the last
/// form repeats). Short lengths are listed one by one; from the first length whose
/// values lie above every number the description mentions, each longer length only
/// adds one more unconstrained repeated unit, so one looping path per shape covers
/// them all. That step is checked, not assumed: lengths r, r+1 and r+2 must differ
/// exactly by copies of the looped unit.
fn unbounded_paths(model: &Model) -> Result<Paths, BuildError> {
    let last = model.forms.len() - 1;
    let repeat = model.forms[last].repeat.ok_or(BuildError::Unbounded)?;
    let ceiling = model
        .excluded
        .iter()
        .map(|(_, hi)| hi.clone())
        .chain([model.min.clone(), BigUint::from(model.premap.as_ref().map_or(0, Vec::len))])
        .max()
        .unwrap_or_default();
    let base_len = model.forms.iter().map(|f| f.units.len()).max().unwrap_or(1);
    // Grow the length limit until the repeated form's newest length starts above
    // the ceiling.
    let mut limit = base_len;
    let mut forms = loop {
        let forms = model.concrete_forms_upto(Some(limit));
        if forms.last().is_some_and(|f| f.form == last && f.lo > ceiling) {
            break forms;
        }
        limit += 1;
        if limit > base_len + 200 {
            return Err(BuildError::Unbounded);
        }
    };
    let mut paths = Vec::new();
    for (i, f) in forms.iter().enumerate() {
        paths.extend(form_paths(model, f, i)?);
    }
    let tail = model.concrete_forms_upto(Some(limit + 3));
    let looped_form = forms.len();
    let shape = |reps: usize| -> Result<(ConcreteForm, Vec<Path>), BuildError> {
        let f = tail.iter().find(|f| f.form == last && f.reps == reps).ok_or(BuildError::Unbounded)?;
        Ok((f.clone(), form_paths(model, f, looped_form)?))
    };
    let r = forms.last().map_or(0, |f| f.reps) + 1;
    let ((first, p1), (_, p2), (_, p3)) = (shape(r)?, shape(r + 1)?, shape(r + 2)?);
    // The looped position: the last copy of the repeated unit.
    let at = repeat + r - 1;
    let twice: Vec<Path> = p1.iter().map(|p| p.with_copy_of(at)).collect();
    let thrice: Vec<Path> = twice.iter().map(|p| p.with_copy_of(at)).collect();
    if twice != p2 || thrice != p3 {
        return Err(BuildError::Unbounded);
    }
    paths.extend(p1.into_iter().map(|p| Path { looped: Some(at), ..p }));
    forms.push(first);
    Ok(Paths { forms, paths })
}

/// Paths of a bounded model padded without a limit (validated: the last form
/// repeats, no digit units, one context). Lengths up to the encoder's longest
/// are the padded forms; past it every length holds every value, and where
/// payload is placed, its positions whose units all carry payload 0 read none
/// ([`Path::without_zero_groups`]; read most significant first, such groups
/// come first and shift only zeros). From the first length `r` where lengths
/// r, r+1 and r+2 differ exactly by copies of one such position, one looping
/// path per shape covers every longer length; the lengths before `r` are
/// listed.
fn padded_paths(model: &Model) -> Result<Paths, BuildError> {
    let last = model.forms.len() - 1;
    let longest = model.concrete_forms().iter().map(|f| f.units.len()).max().unwrap_or(1);
    let padding = |p: Path| if model.is_placed() { p.without_zero_groups(model) } else { p };
    let shape = |forms: &[ConcreteForm], len: usize, index: usize| -> Result<(ConcreteForm, Vec<Path>), BuildError> {
        let f = forms.iter().find(|f| f.form == last && f.units.len() == len).ok_or(BuildError::Unbounded)?;
        Ok((f.clone(), form_paths(model, f, index)?.into_iter().map(padding).collect()))
    };
    for r in longest + 1..=longest + 8 {
        let tail = model.concrete_forms_upto(Some(r + 2));
        let mut forms: Vec<ConcreteForm> = tail.iter().filter(|f| f.units.len() < r).cloned().collect();
        let looped_form = forms.len();
        let (first, p1) = shape(&tail, r, looped_form)?;
        let (_, p2) = shape(&tail, r + 1, looped_form)?;
        let (_, p3) = shape(&tail, r + 2, looped_form)?;
        let copies = |at: usize| -> bool {
            let twice: Vec<Path> = p1.iter().map(|p| p.with_copy_of(at)).collect();
            let thrice: Vec<Path> = twice.iter().map(|p| p.with_copy_of(at)).collect();
            p1.iter().all(|p| p.zeros_only(model, at)) && twice == p2 && thrice == p3
        };
        let Some(at) = (0..r).find(|&at| copies(at)) else { continue };
        let mut paths = Vec::new();
        for (i, f) in forms.iter().enumerate() {
            let listed = form_paths(model, f, i)?.into_iter();
            if f.units.len() > longest {
                paths.extend(listed.map(padding));
            } else {
                paths.extend(listed);
            }
        }
        paths.extend(p1.into_iter().map(|p| Path { looped: Some(at), ..p }));
        forms.push(first);
        return Ok(Paths { forms, paths });
    }
    Err(BuildError::Unbounded)
}

/// Takes the constant part of the payload of path `p` at position `i` out of
/// the transition and into the path's bias, when every unit of the position
/// carries the same high payload bits there (a unit the form fixes, such as
/// CESU-8's `ED`, or the `10` that starts every high surrogate's second
/// 6-bit group): the value is the same, and the unit now reads only the bits
/// that vary, like the other form that shares it. Not in a looping path; and
/// where payload is read most significant group first without places, only
/// the most significant group still read can go (or the groups above it would
/// slide down). Without `partial`, only a position whose whole payload is
/// constant. `false` if nothing at the position can be folded.
pub(super) fn fold_constant(model: &Model, paths: &mut [Path], (p, i): (u32, u32), partial: bool) -> bool {
    let path = &mut paths[p as usize];
    let i = i as usize;
    let bits = path.bits[i];
    if bits == 0
        || path.looped.is_some()
        || !path.radix.is_empty()
        || (path.places.is_empty() && path.bits[..i].iter().any(|&b| b > 0))
    {
        return false;
    }
    let mut digits = (0..=255u8)
        .filter(|&u| path.sets[i][usize::from(u >> 6)] >> (u & 63) & 1 == 1)
        .map(|u| u64::from(model.digit_of(u).unwrap_or(0)) & ((1u64 << bits) - 1));
    let Some(d) = digits.next() else { return false };
    // The low bits that vary from unit to unit stay payload.
    let keep = 64 - digits.fold(0, |varying, x| varying | (x ^ d)).leading_zeros();
    if keep >= bits || (keep > 0 && !partial) {
        return false;
    }
    let constant = d >> keep << keep;
    let at: u32 = if path.places.is_empty() { path.bits[i + 1..].iter().sum() } else { path.places[i] };
    let Some(bias) = constant.checked_shl(at).filter(|&c| c >> at == constant).and_then(|c| path.bias.checked_add(c))
    else {
        return false;
    };
    path.bits[i] = keep;
    path.bias = bias;
    true
}
