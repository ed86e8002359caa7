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
//! unit. The block is valid where the SIMD checks of the language of the
//! source's units, each written alone, pass it
//! ([`CodecInfo::pair_unit_tables`], derived and proved by the compiler), or,
//! for a source without them (or where they fail), where those units,
//! written again with the source's forms, are the block itself (a run of
//! forms of units it holds); where they differ, the source's own validator
//! finds the valid prefix.
//! The kernel from code units ([`UnitsEncoder`]) then reads the units as the
//! pair says (a high unit and a low one join into a value; a lone half stops
//! it) and writes the target's byte forms: the source's position is then
//! that of the unit's sequence, and the engine's other paths take over.
//! Modified UTF-8 is a source too: its lone surrogates are values (the
//! kernel stops at them, as at CESU-8's errors, and the engine's per-value
//! path goes on in its rule's context), and its `C0 80` (U+0000, no form of
//! its one-unit forms) is checked by its encoder.
//!
//! [`CodecInfo::pair_forms`]: crate::CodecInfo::pair_forms
//! [`CodecInfo::pair_unit_tables`]: crate::CodecInfo::pair_unit_tables

use std::vec::Vec;

use crate::simd::{self, ByteForms, Isa, Pair, Shape, Tables, Units, UnitsEncoder};
use crate::{DynCodec, Step, Strategy};

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
    /// The SIMD checks of the language of the source's units, each written
    /// alone ([`CodecInfo::pair_unit_tables`](crate::CodecInfo::pair_unit_tables)):
    /// a block they pass needs no checking write.
    tables: Option<Tables>,
}

/// The 16-bit units the first kernel writes: every one (the input is valid).
const ANY_UNIT: Units = Units { bytes: 2, big_endian: false, single: [(0, 0xFFFF); 2] };

impl PairSource {
    /// The path from `from` to `to`, where the machine has SIMD, `from` has
    /// byte forms (of at most four units) and pair forms and reads pairs as
    /// the kernel does ([`reads_pairs_alike`]), `to` byte forms of several
    /// lengths that write the pair's values and no rules across values, both
    /// bounded and without `premap`.
    pub(super) fn of(from: &dyn DynCodec, to: &dyn DynCodec) -> Option<PairSource> {
        let isa = Isa::detect()?;
        let (source, pair) = (from.info().byte_forms?, from.info().pair_forms?);
        let forms = to.info().byte_forms.filter(|f| f.multi_unit())?;
        let plain = |c: &dyn DynCodec| !c.info().unbounded && !c.premapped();
        if !plain(from) || !plain(to) || to.dfa().contexts() > 1 {
            return None;
        }
        let shape = source.shape()?;
        let (high, low) = ((pair.high, pair.units(pair.hi).0), (pair.low, pair.low + ((1 << pair.low_bits) - 1)));
        // The target writes the pair's values in its forms (else the second
        // kernel would stop at each pair: CESU-8 as the target).
        let writes = |v: u32| forms.push(v, &mut Vec::new());
        if !writes(pair.lo) || !writes(pair.hi) || !reads_pairs_alike(from, &pair, high.1) {
            return None;
        }
        let single = super::pair_path::without_units((0, 0xFFFF), high, low)?;
        let units = Units { single, ..ANY_UNIT };
        let kernel = UnitsEncoder::new(isa, &units, Some(&pair), &forms)?;
        // The units the source holds: its values of one form, and the pair's.
        let held = super::pair_path::held_units(&source, high, low);
        let open = ByteForms { allowed: held.unwrap_or([(1, 0); 2]), ..source };
        let check = held.and_then(|single| UnitsEncoder::new(isa, &Units { single, ..ANY_UNIT }, None, &open));
        let tables = from.info().pair_unit_tables.filter(|t| t.check().is_ok());
        Some(PairSource { isa, shape, pair, units, kernel, forms, source: open, check, tables })
    }

    /// Whether `unit` continues a sequence.
    fn is_continuation(&self, unit: u8) -> bool {
        unit.wrapping_sub(self.shape.continuation.0) < 64
    }

    /// Where a block of `data` that ends at most at `limit` ends: before the
    /// last lead within 16 units of `limit`, even where `data` ends there (a
    /// chunk's end may cut the sequence it starts, which would fail the
    /// block's check and send it to the source's validator: with modified
    /// UTF-8's, which steps, pushes of 4 KiB ran at a third of the speed of
    /// one push; measured). The engine's per-value path takes the last
    /// sequence of the input.
    pub(super) fn block_end(&self, data: &[u8], limit: usize) -> usize {
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
        let checked = self.tables.as_ref().is_some_and(|t| simd::validate(self.isa, t, block).is_ok());
        units.clear();
        let read = simd::decode_to_units(self.isa, &self.shape, &ANY_UNIT, None, block, units);
        let mut block = &block[..read];
        if !checked && !self.checks(from, block, units) {
            let valid = from.validate_open(0, block).0.map_or_else(|e| e.valid_up_to(), |()| block.len());
            units.clear();
            let read = simd::decode_to_units(self.isa, &self.shape, &ANY_UNIT, None, &block[..valid], units);
            block = &block[..read];
        }
        let written = self.kernel.encode(units, out) / 2;
        let (done, last) = self.finish(&units[..], written, out);
        // The source's position: after the sequence of the last unit taken.
        let took = self.sequence_start(block, units.len() / 2 - done);
        Some((took, last?))
    }

    /// Whether `block` is valid, as its 16-bit `units` (the first kernel's,
    /// unspecified where it is not) written again by the source: if they
    /// write `block` itself, it is a run of the forms of units the source
    /// holds (the second kernel then checks the pairs). The checking kernel
    /// writes the units of the source's one-unit forms; one it leaves is
    /// written by the forms or, where they have none for it (modified
    /// UTF-8's U+0000, `C0 80`), by the source's encoder, and the kernel goes
    /// on after it. `false` where the source has no such check.
    fn checks(&self, from: &dyn DynCodec, block: &[u8], units: &[u8]) -> bool {
        let Some(check) = &self.check else { return false };
        let mut again = Vec::with_capacity(block.len() + 16);
        let (mut at, mut compared) = (0, 0);
        while at < units.len() {
            at += check.encode(&units[at..], &mut again);
            let Some(unit) = units.get(at..at + 2) else { break };
            let unit = u32::from(u16::from_le_bytes([unit[0], unit[1]]));
            if !self.source.push(unit, &mut again) && from.encode_push(u64::from(unit), &mut again).is_err() {
                return false;
            }
            // (What is written so far differs: no need to write the rest.)
            if block.get(compared..again.len()) != Some(&again[compared..]) {
                return false;
            }
            (at, compared) = (at + 2, again.len());
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

    /// Where the `left`-th sequence from the end of `block` starts (its
    /// end for 0): the units before it are those of the sequences taken.
    /// (Counted back from the end: the kernels take all but the last few.)
    fn sequence_start(&self, block: &[u8], left: usize) -> usize {
        let mut seen = 0;
        for k in (0..block.len()).rev() {
            if seen == left {
                return k + 1;
            }
            if !self.is_continuation(block[k]) {
                seen += 1;
            }
        }
        0
    }
}

/// Whether `from`'s decoder reads its units as the kernel from code units
/// does: a high unit of the `pair` (up to `high`) and a low one after it as
/// the pair's value, every other unit's form as that unit. So it does for
/// a source without rules across values or pending values (CESU-8); for
/// one with them (modified UTF-8, whose lone surrogates are values), where
/// its rules look back only at the pair's high units (which the kernel
/// never writes alone: it stops there, and the engine's per-value path goes
/// on in the rules' context) and it reads the pair's forms as one value
/// (the longest sequence; checked on the pair's first and last values),
/// not as two.
fn reads_pairs_alike(from: &dyn DynCodec, pair: &Pair, high: u32) -> bool {
    if from.dfa().contexts() == 1 && !from.dfa().has_pending() {
        return true;
    }
    let looks_at_high = |&(lo, hi): &(u64, u64)| u64::from(pair.high) <= lo && hi <= u64::from(high);
    let reads_pair = |v: u32| {
        let mut form = Vec::new();
        from.encode_push(u64::from(v), &mut form).is_ok()
            && from.step_open(Strategy::Table, 0, &form) == Step::Value { value: u64::from(v), len: form.len() }
    };
    from.info().rule_values.iter().all(looks_at_high) && reads_pair(pair.lo) && reads_pair(pair.hi)
}
