//! From a codec of byte forms that writes some values as the byte forms of
//! a pair of 16-bit units ([`CodecInfo::pair_forms`]: CESU-8) into the UTF-8
//! family, through 16-bit units, with the two one-pass kernels: the way back
//! of `pair_path.rs`, where the copy of runs read alike declines.
//!
//! Each sequence of one to four units of the source, a pair's halves
//! included, is one 16-bit unit: the kernel into code units
//! ([`decode_to_units`](crate::simd::decode_to_units)) reads them with a
//! decoding shape of the source's byte forms (`ByteForms::shape`: continuation units
//! `continuation + 6 bits`, each length's lead base), every unit a single
//! unit. The block is valid where those units, written again with the
//! source's forms, are the block itself (a run of forms of units it holds);
//! where they differ, the source's own validator finds the valid prefix.
//! The kernel from code units ([`UnitsEncoder`]) then reads the units as the
//! pair says (a high unit and a low one join into a value; a lone half stops
//! it) and writes the target's byte forms: the source's position is then
//! that of the unit's sequence, and the engine's other paths take over.
//! (Modified UTF-8, whose rule across values makes its validation step, is
//! no source here.)
//!
//! [`CodecInfo::pair_forms`]: crate::CodecInfo::pair_forms

use std::vec::Vec;

use crate::simd::{self, ByteForms, Isa, Pair, Shape, Units, UnitsEncoder};
use crate::DynCodec;

/// The two kernels from a source of pair forms into a target, and what
/// they need.
pub(super) struct PairSource {
    isa: Isa,
    /// The source's units as its byte forms read them.
    shape: Shape,
    pair: Pair,
    /// The 16-bit units the second kernel reads as single units.
    units: Units,
    /// The second kernel, and the target's forms for what it leaves.
    kernel: UnitsEncoder,
    forms: ByteForms,
    /// The source's forms of the units it may hold (its values in one form,
    /// and the pair's units), and the kernel that writes them: a block is
    /// valid where its units, written again, are the block (`checks`).
    source: ByteForms,
    check: Option<UnitsEncoder>,
}

/// The 16-bit units the first kernel writes: every one (the input is valid).
const ANY_UNIT: Units = Units { bytes: 2, big_endian: false, single: [(0, 0xFFFF); 2] };

impl PairSource {
    /// The path from `from` to `to`, where the machine has SIMD, `from` has
    /// byte forms (of at most four units) and pair forms, `to` byte forms of
    /// several lengths, both bounded and without `premap` or rules across
    /// values. (A source with rules, modified UTF-8, validates step by step,
    /// slower than the blocks of values it would replace: measured.)
    pub(super) fn of(from: &dyn DynCodec, to: &dyn DynCodec) -> Option<PairSource> {
        let isa = Isa::detect()?;
        let (source, pair) = (from.info().byte_forms?, from.info().pair_forms?);
        let forms = to.info().byte_forms.filter(|f| f.multi_unit())?;
        let plain = |c: &dyn DynCodec| !c.info().unbounded && !c.premapped();
        if !plain(from)
            || !plain(to)
            || to.dfa().contexts() > 1
            || from.dfa().contexts() > 1
            || from.dfa().has_pending()
        {
            return None;
        }
        let shape = source.shape()?;
        let (high, low) = ((pair.high, pair.units(pair.hi).0), (pair.low, pair.low + ((1 << pair.low_bits) - 1)));
        let single = super::pair_path::without_units((0, 0xFFFF), high, low)?;
        let units = Units { single, ..ANY_UNIT };
        let kernel = UnitsEncoder::new(isa, &units, Some(&pair), &forms)?;
        // The units the source holds: its values of one form, and the pair's.
        let held = super::pair_path::held_units(&source, high, low);
        let open = ByteForms { allowed: held.unwrap_or([(1, 0); 2]), ..source };
        let check = held.and_then(|single| UnitsEncoder::new(isa, &Units { single, ..ANY_UNIT }, None, &open));
        Some(PairSource { isa, shape, pair, units, kernel, forms, source: open, check })
    }

    /// Whether `unit` continues a sequence.
    fn is_continuation(&self, unit: u8) -> bool {
        unit.wrapping_sub(self.shape.continuation.0) < 64
    }

    /// Where a block of `data` that ends at most at `limit` ends: before the
    /// last lead within 16 units of `limit` (a chunk's end may cut the
    /// sequence it starts), or at `limit` where `data` ends there.
    pub(super) fn block_end(&self, data: &[u8], limit: usize) -> usize {
        if limit == data.len() {
            return limit;
        }
        (limit.saturating_sub(16)..limit).rev().find(|&k| !self.is_continuation(data[k])).unwrap_or(0)
    }

    /// Converts the valid prefix of `block` (which ends before a lead) read
    /// by `from`: `None` where nothing is taken, else the units taken and
    /// the last value taken. `units` is scratch memory for the 16-bit units.
    pub(super) fn convert(
        &self,
        from: &dyn DynCodec,
        block: &[u8],
        units: &mut Vec<u8>,
        out: &mut Vec<u8>,
    ) -> Option<(usize, u64)> {
        units.clear();
        let mut read = simd::decode_to_units(self.isa, &self.shape, &ANY_UNIT, None, block, units);
        let mut block = &block[..read];
        if !self.checks(block, units) {
            let valid = from.validate_open(0, block).0.map_or_else(|e| e.valid_up_to(), |()| block.len());
            block = &block[..valid];
            units.clear();
            read = simd::decode_to_units(self.isa, &self.shape, &ANY_UNIT, None, block, units);
        }
        let written = self.kernel.encode(units, out) / 2;
        let (done, last) = self.finish(&units[..], written, out);
        // The source's position: after the sequence of the last unit taken.
        let took = if done == units.len() / 2 { read } else { self.sequence_end(block, done) };
        Some((took, last?))
    }

    /// Whether `block` is valid, as its 16-bit `units` (the first kernel's,
    /// unspecified where it is not) written again by the source's forms: if
    /// they write `block` itself, it is a run of the forms of units the
    /// source holds (the second kernel then checks the pairs). `false` where
    /// the source has no such check.
    fn checks(&self, block: &[u8], units: &[u8]) -> bool {
        let Some(check) = &self.check else { return false };
        let mut again = Vec::with_capacity(block.len() + 16);
        let written = check.encode(units, &mut again);
        for unit in units[written..].chunks_exact(2) {
            if !self.source.push(u32::from(u16::from_le_bytes([unit[0], unit[1]])), &mut again) {
                return false;
            }
        }
        again == block
    }

    /// Writes the 16-bit units from `at` that the kernel left, one value at
    /// a time, up to one the target refuses: the units done and the last
    /// value written (`None` if none was).
    fn finish(&self, units: &[u8], mut at: usize, out: &mut Vec<u8>) -> (usize, Option<u64>) {
        let unit = |k: usize| units.get(2 * k..2 * k + 2).map(|u| u32::from(u16::from_le_bytes([u[0], u[1]])));
        let single = |u: u32| self.units.single.iter().any(|&(lo, hi)| lo <= u && u <= hi);
        let p = &self.pair;
        // (The value of the units the kernel wrote last: one, or a pair's two.)
        let mut last = (at > 0).then(|| super::fused::last_value(&self.units, Some(&self.pair), &units[..2 * at]));
        while let Some(u) = unit(at) {
            let (value, len) = if single(u) {
                (u, 1)
            } else {
                let Some(l) = unit(at + 1) else { break };
                let (h, l) = (u.wrapping_sub(p.high), l.wrapping_sub(p.low));
                let v = (h << p.low_bits | l).wrapping_add(p.bias);
                if l >> p.low_bits != 0 || !(p.lo..=p.hi).contains(&v) || h > (p.hi - p.bias) >> p.low_bits {
                    break;
                }
                (v, 2)
            };
            if !self.forms.push(value, out) {
                break;
            }
            (at, last) = (at + len, Some(u64::from(value)));
        }
        (at, last)
    }

    /// Where the `count`-th sequence of `block` starts (its end, for the
    /// sequences before it).
    fn sequence_end(&self, block: &[u8], count: usize) -> usize {
        let mut seen = 0;
        for (k, &u) in block.iter().enumerate() {
            if !self.is_continuation(u) {
                if seen == count {
                    return k;
                }
                seen += 1;
            }
        }
        block.len()
    }
}
