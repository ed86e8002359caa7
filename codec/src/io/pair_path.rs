//! From the UTF-8 family into a codec of byte forms that writes some values
//! as the byte forms of a pair of 16-bit units ([`CodecInfo::pair_forms`]:
//! CESU-8 writes a supplementary character as the three-byte forms of its
//! UTF-16 surrogates), through 16-bit units, with the two one-pass kernels.
//!
//! A valid block of the source goes into 16-bit units by the kernel into
//! code units ([`decode_to_units`](crate::simd::decode_to_units)): the
//! values the target writes in one form as one unit of themselves, the
//! values of the target's pair as its two units. The kernel from code units
//! ([`UnitsEncoder`]) then writes each 16-bit unit, a pair's two as any
//! other, as its byte form. The first kernel writes only units the second
//! writes, so the second takes them all (the last few, which it may leave,
//! are written one at a time), and the source's position is the first
//! kernel's. Where the first kernel stops at a value the target writes in
//! another form (U+0000 into modified UTF-8, `C0 80`), the target's encoder
//! writes it and the kernels go on; before a value the target refuses, and
//! after one its rules look back at, the engine's other paths take over.
//!
//! The engine takes this path where the copy of runs read alike
//! ([`Fused::Shared`](super::fused::Fused)) declines: at the sequences the
//! two codecs read apart (UTF-8's four-unit ones, which CESU-8 writes as
//! six), for the cluster of them after a long copy, else for a block.
//!
//! [`CodecInfo::pair_forms`]: crate::CodecInfo::pair_forms

use std::vec::Vec;

use crate::simd::{ByteForms, Isa, Pair, Prepared, Shape, Tables, Units, UnitsDecoder, UnitsEncoder};
use crate::DynCodec;

/// The two kernels from a source into a target, and what they need.
pub(super) struct PairPath {
    isa: Isa,
    tables: Prepared,
    shape: Shape,
    /// The first kernel: the source's sequences as 16-bit units.
    decoder: UnitsDecoder,
    /// The second kernel.
    target: PairTarget,
}

/// The second kernel of a path into a target of pair forms, from 16-bit
/// units (here, and from wide code units in `wide_to_pairs.rs`), and what
/// the first kernel must write for it.
pub(super) struct PairTarget {
    /// Each 16-bit unit as its byte form.
    kernel: UnitsEncoder,
    /// The byte forms of every unit the first kernel writes (surrogates
    /// included), for the units the second leaves.
    forms: ByteForms,
    /// The target's pair, whose values the first kernel writes as its units.
    pub(super) pair: Pair,
    /// The units the first kernel writes as themselves: the values of
    /// 0–FFFF the target writes in one form, less the pair's units.
    pub(super) single: [(u32, u32); 2],
}

/// Little-endian 16-bit units, every one a single unit: how the second
/// kernel reads them here, and how the first writes them in
/// `pair_source.rs` (the input is valid there).
pub(super) const ANY_UNIT: Units = Units { bytes: 2, big_endian: false, single: [(0, 0xFFFF); 2] };

impl PairTarget {
    /// The second kernel into `to`, where `to` has byte forms and pair
    /// forms, every unit the pair writes has a byte form, and no rule of
    /// `to` looks back at a value the path writes
    /// ([`CodecInfo::rule_values`](crate::CodecInfo::rule_values): modified
    /// UTF-8's lone surrogates, which it writes as no pair).
    pub(super) fn of(isa: Isa, to: &dyn DynCodec) -> Option<PairTarget> {
        let (forms, pair) = (to.info().byte_forms?, to.info().pair_forms?);
        let top = forms.last[usize::from(forms.lengths) - 1];
        let (high, low) = (pair.high_units(), pair.low_units());
        // Every unit the pair writes has a byte form.
        if high.0 < forms.first || high.1 > top || low.0 < forms.first || low.1 > top {
            return None;
        }
        let single = singles(&forms, high, low)?;
        let written = [single[0], single[1], (pair.lo, pair.hi)];
        let looked_at = |&(lo, hi): &(u32, u32)| to.info().rules_look_after(u64::from(lo), u64::from(hi));
        if written.iter().any(looked_at) {
            return None;
        }
        let open = ByteForms { allowed: [(0, 0xFFFF); 2], ..forms };
        let kernel = UnitsEncoder::new(isa, &ANY_UNIT, None, &open)?;
        Some(PairTarget { kernel, forms: open, pair, single })
    }

    /// Writes `units` (little-endian 16-bit units, each with a byte form) as
    /// their byte forms: by the kernel, then the few it leaves one by one.
    pub(super) fn write(&self, units: &[u8], out: &mut Vec<u8>) {
        let written = self.kernel.encode(units, out);
        for unit in units[written..].chunks_exact(2) {
            let written = self.forms.push(u32::from(u16::from_le_bytes([unit[0], unit[1]])), out);
            debug_assert!(written, "the first kernel writes only units with a byte form");
        }
    }
}

impl PairPath {
    /// The path from `from` to `to`, where the machine has SIMD, `from` has
    /// SIMD tables and a decoding shape, `to` is a target of pair forms
    /// ([`PairTarget::of`]), and both are bounded and without `premap`,
    /// `from` without rules across values.
    pub(super) fn of(from: &dyn DynCodec, to: &dyn DynCodec) -> Option<PairPath> {
        let isa = Isa::detect()?;
        let plain = |c: &dyn DynCodec| !c.info().unbounded && !c.premapped();
        if !plain(from) || !plain(to) || from.dfa().contexts() > 1 || from.dfa().has_pending() {
            return None;
        }
        let (shape, tables) = (from.dfa().decoding_shape()?, *from.dfa().simd_prepared()?);
        let target = PairTarget::of(isa, to)?;
        let units = Units { single: target.single, ..ANY_UNIT };
        let decoder = UnitsDecoder::new(isa, &shape, &units, Some(&target.pair))?;
        Some(PairPath { isa, tables, shape, decoder, target })
    }

    /// Whether the path may write after `last` (the value written before):
    /// no rule of the target looks at what follows it.
    pub(super) fn may_follow(to: &dyn DynCodec, last: Option<u64>) -> bool {
        last.is_none_or(|v| !to.info().rules_look_after(v, v))
    }

    /// The source's SIMD tables (where its leads are).
    pub(super) fn tables(&self) -> &Tables {
        self.tables.tables()
    }

    /// Converts a valid prefix of `block` (which ends before a lead) into
    /// `to` (this path's target): `None` where it is not valid or nothing is
    /// taken, else the units taken and the value of the last sequence taken.
    /// A sequence the first kernel stops at (a value the target writes in
    /// another form: modified UTF-8's U+0000) is written by the target's
    /// encoder, and the kernels go on after it; the path ends before a value
    /// the target refuses, and after one a rule of the target looks back at.
    /// `units` is scratch memory for the 16-bit units.
    pub(super) fn convert(
        &self,
        to: &dyn DynCodec,
        block: &[u8],
        units: &mut Vec<u8>,
        out: &mut Vec<u8>,
    ) -> Option<(usize, u64)> {
        if block.is_empty() || self.tables.validate(self.isa, block).is_err() {
            return None;
        }
        let (mut at, mut last) = (0, None);
        while at < block.len() {
            let took = self.units(&block[at..], units, out);
            if took > 0 {
                at += took;
                let start = (0..at).rev().find(|&k| !self.tables().is_continuation(block[k])).unwrap_or(0);
                last = Some(self.shape.value(&block[start..at]));
            }
            // The sequence the kernel stopped at, by the target's encoder.
            let len = block[at..].iter().skip(1).take_while(|&&u| self.tables().is_continuation(u)).count() + 1;
            let Some(sequence) = block.get(at..at + len) else { break };
            let value = self.shape.value(sequence);
            if len > 4 || to.encode_push(value, out).is_err() {
                break;
            }
            (at, last) = (at + len, Some(value));
            if !Self::may_follow(to, last) {
                break;
            }
        }
        last.map(|last| (at, last))
    }

    /// The first kernel's prefix of `block` through 16-bit units into `out`:
    /// the units taken.
    fn units(&self, block: &[u8], units: &mut Vec<u8>, out: &mut Vec<u8>) -> usize {
        units.clear();
        let took = self.decoder.decode(block, units);
        self.target.write(units, out);
        took
    }
}

/// The values of 0–FFFF that the target writes in one form (its byte
/// forms' values), less the pair's units: at most two ranges, else `None`.
fn singles(forms: &ByteForms, high: (u32, u32), low: (u32, u32)) -> Option<[(u32, u32); 2]> {
    let top = forms.last[usize::from(forms.lengths) - 1].min(0xFFFF);
    let mut ranges: Vec<(u32, u32)> =
        forms.allowed.iter().map(|&(lo, hi)| (lo.max(forms.first), hi.min(top))).filter(|&(lo, hi)| lo <= hi).collect();
    ranges.dedup();
    less(ranges, high, low)
}

/// The units of `range` that are none of a pair's (`high`, `low`): at most
/// two ranges, else `None`.
pub(super) fn without_units(range: (u32, u32), high: (u32, u32), low: (u32, u32)) -> Option<[(u32, u32); 2]> {
    less(vec![range], high, low)
}

/// `ranges` less `high` and `low`, as two ranges (one repeated), if at most
/// two are left and one is.
fn less(mut ranges: Vec<(u32, u32)>, high: (u32, u32), low: (u32, u32)) -> Option<[(u32, u32); 2]> {
    for cut in [high, low] {
        ranges = ranges.into_iter().flat_map(|r| without(r, cut)).collect();
    }
    match ranges[..] {
        [r] => Some([r, r]),
        [a, b] => Some([a, b]),
        _ => None,
    }
}

/// `r` less `cut`: none, one or two ranges.
fn without((lo, hi): (u32, u32), (a, b): (u32, u32)) -> Vec<(u32, u32)> {
    if b < lo || hi < a {
        return vec![(lo, hi)];
    }
    let mut left = Vec::new();
    if lo < a {
        left.push((lo, a - 1));
    }
    if b < hi {
        left.push((b + 1, hi));
    }
    left
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_singles_are_the_forms_values_less_the_pairs_units() {
        // CESU-8's forms: 0-FFFF in one to three units, less the surrogates.
        let forms = ByteForms {
            lengths: 3,
            first: 0,
            last: [0x7F, 0x7FF, 0xFFFF, 0],
            lead: [0, 0xC0, 0xE0, 0],
            continuation: 0x80,
            allowed: [(0, 0xD7FF), (0xE000, 0x10_FFFF)],
        };
        let (high, low) = ((0xD800, 0xDBFF), (0xDC00, 0xDFFF));
        assert_eq!(singles(&forms, high, low), Some([(0, 0xD7FF), (0xE000, 0xFFFF)]));
        // Values that include the surrogates (modified UTF-8's lone ones) lose them.
        let lone = ByteForms { first: 1, allowed: [(0, 0x10_FFFF); 2], ..forms };
        assert_eq!(singles(&lone, high, low), Some([(1, 0xD7FF), (0xE000, 0xFFFF)]));
        // Three ranges left: none.
        let split = ByteForms { allowed: [(0, 0x10_FFFF); 2], ..forms };
        assert_eq!(singles(&split, (0x100, 0x1FF), (0x300, 0x3FF)), None);
        // The units a source of pairs reads as single units: all but the pair's.
        assert_eq!(without_units((0, 0xFFFF), high, low), Some([(0, 0xD7FF), (0xE000, 0xFFFF)]));
    }
}
