//! From a codec of byte forms that writes some values as the byte forms of
//! a pair of 16-bit units ([`CodecInfo::pair_forms`]: CESU-8) through
//! 16-bit units, with two one-pass kernels: into the UTF-8 family (the way
//! back of `pair_path.rs`, where the copy of runs read alike declines), and
//! into the codecs of wide code units (UTF-16, UTF-32), whose units the
//! 16-bit units are, or become unit for unit.
//!
//! Each sequence of one to four units of the source, a pair's halves
//! included, is one 16-bit unit: the kernel into code units
//! ([`decode_to_units`](crate::simd::decode_to_units)) reads them with a
//! decoding shape of the source's byte forms (`ByteForms::shape`: continuation units
//! `continuation + 6 bits`, each length's lead base), every unit a single
//! unit. The block is valid where the SIMD checks of the language of the
//! source's units, each written alone, pass it
//! ([`CodecInfo::pair_unit_tables`], derived and proved by the compiler: a
//! source without them takes the engine's other paths); where they fail,
//! the source's own validator finds the valid prefix.
//! The kernel from code units ([`UnitsEncoder`]) then reads the units as the
//! pair says (a high unit and a low one join into a value; a lone half stops
//! it) and writes the target's byte forms; into wide code units, the kernel
//! that rewrites units ([`convert_units`](crate::simd::convert_units)) takes
//! the units the target writes alike (the same pair in 16-bit units, its
//! value in 32-bit ones). The source's position is then that of the unit's
//! sequence, and the engine's other paths take over.
//! Modified UTF-8 is a source too: its lone surrogates are values (the
//! kernel stops at them, as at CESU-8's errors, and the engine's per-value
//! path goes on in its rule's context), and its checks hold its `C0 80`
//! (U+0000).
//!
//! [`CodecInfo::pair_forms`]: crate::CodecInfo::pair_forms
//! [`CodecInfo::pair_unit_tables`]: crate::CodecInfo::pair_unit_tables

use std::vec::Vec;

use super::pair_path::ANY_UNIT;
use super::transcoder::Alike;
use crate::simd::{self, ByteForms, Isa, Pair, Prepared, Shape, Units, UnitsDecoder, UnitsEncoder};
use crate::{AsciiRuns, DynCodec, Step, Strategy, WideForms, WideRuns};

/// The two kernels from a source of pair forms into a target, and what
/// they need.
pub(super) struct PairSource {
    isa: Isa,
    /// The source's units as its byte forms read them.
    shape: Shape,
    pair: Pair,
    /// The 16-bit units that are values of themselves (all but the pair's).
    units: Units,
    /// The first kernel: the source's sequences as 16-bit units.
    decoder: UnitsDecoder,
    /// The second kernel, and the target's forms for what it leaves.
    into: Into,
    /// The SIMD checks of the language of the source's units, each written
    /// alone ([`CodecInfo::pair_unit_tables`](crate::CodecInfo::pair_unit_tables)).
    tables: Prepared,
    /// Whether the source's bytes below 80 are values of themselves
    /// ([`AsciiRuns::Bytes`]: CESU-8's, not modified UTF-8's, whose `00` is
    /// no value).
    ascii: bool,
}

/// The second kernel of a [`PairSource`], by the target's kind.
enum Into {
    /// Byte forms (the UTF-8 family), written by the kernel from code units.
    Bytes { kernel: Box<UnitsEncoder>, forms: ByteForms },
    /// Wide code units, rewritten unit for unit (`alike`: the 16-bit units
    /// the target writes as themselves, and the pair where it writes its
    /// values alike).
    Wide { alike: Alike, forms: WideForms },
}

impl PairSource {
    /// The path from `from` to `to`, where the machine has SIMD, `from` has
    /// byte forms (of at most four units), pair forms and the SIMD checks of
    /// its units, and reads pairs as the kernel does
    /// ([`reads_pairs_alike`]), `to` byte forms of several
    /// lengths that write the pair's values and no rules across values, both
    /// bounded and without `premap`.
    pub(super) fn of(from: &dyn DynCodec, to: &dyn DynCodec) -> Option<PairSource> {
        let forms = to.info().byte_forms.filter(|f| f.multi_unit())?;
        let (isa, pair) = (Isa::detect()?, from.info().pair_forms?);
        // The target writes the pair's values in its forms (else the second
        // kernel would stop at each pair: CESU-8 as the target).
        let writes = |v: u32| forms.push(v, &mut Vec::new());
        if !writes(pair.lo) || !writes(pair.hi) {
            return None;
        }
        let units = Units { single: values_of_themselves(&pair)?, ..ANY_UNIT };
        let kernel = UnitsEncoder::new(isa, &units, Some(&pair), &forms)?;
        PairSource::with(from, to, Into::Bytes { kernel: Box::new(kernel), forms })
    }

    /// The path from `from` (as for [`PairSource::of`]) into `to`, a codec of
    /// wide code units (its [`WideForms`], without rules across values or
    /// `premap`, bounded), where the machine has the kernel that rewrites
    /// units ([`simd::converts_units_on`]) and the target writes some of
    /// the 16-bit units as themselves.
    pub(super) fn into_units(from: &dyn DynCodec, to: &dyn DynCodec) -> Option<PairSource> {
        Isa::detect().filter(|&isa| simd::converts_units_on(isa))?;
        let (forms, pair) = (to.info().wide_forms, from.info().pair_forms?);
        let units = Units { single: values_of_themselves(&pair)?, ..ANY_UNIT };
        let runs = WideRuns { units: AsciiRuns::U16Le, ranges: units.single };
        let alike = Alike::between(units, Some(pair), runs, &forms)?;
        PairSource::with(from, to, Into::Wide { alike, forms })
    }

    /// The path from `from` through `into`, where `from` qualifies and `to`
    /// (which `into` writes) has no rules across values that look at
    /// `from`'s values.
    fn with(from: &dyn DynCodec, to: &dyn DynCodec, into: Into) -> Option<PairSource> {
        let isa = Isa::detect()?;
        let (source, pair) = (from.info().byte_forms?, from.info().pair_forms?);
        let tables = Prepared::new(from.info().pair_unit_tables?).ok()?;
        let plain = |c: &dyn DynCodec| !c.info().unbounded && !c.premapped();
        if !plain(from) || !plain(to) || !super::rules_unmet(from, to) || !reads_pairs_alike(from, &pair) {
            return None;
        }
        let shape = source.shape()?;
        let units = Units { single: values_of_themselves(&pair)?, ..ANY_UNIT };
        let decoder = UnitsDecoder::new(isa, &shape, &ANY_UNIT, None)?;
        let ascii = from.ascii_runs() == AsciiRuns::Bytes;
        Some(PairSource { isa, shape, pair, units, decoder, into, tables, ascii })
    }

    /// Into wide code units, the ASCII at the start of `data` widened in the
    /// pass that checks it ([`simd::widen_ascii`], whole groups of 64
    /// bytes), where the source's bytes below 80 are values of themselves:
    /// one pass where the two kernels would take two. The units taken and
    /// the last value; `None` where none are.
    pub(super) fn widen_ascii(&self, data: &[u8], out: &mut Vec<u8>) -> Option<(usize, u64)> {
        let Into::Wide { alike, .. } = &self.into else { return None };
        let n = if self.ascii { simd::widen_ascii(self.isa, &alike.to, data, out) } else { 0 };
        (n > 0).then(|| (n, u64::from(data[n - 1])))
    }

    /// Whether `unit` continues a sequence.
    fn is_continuation(&self, unit: u8) -> bool {
        unit.wrapping_sub(self.shape.continuation.0) < 64
    }

    /// Where a block of `data` that ends at most at `limit` ends: at `limit`
    /// where a sequence starts there; else before the last lead within 16
    /// units of `limit`, or after it where it is a whole sequence by itself
    /// ([`Tables::ends_alone`](crate::simd::Tables::ends_alone)), even where `data` ends there (a chunk's end
    /// may cut the sequence a lead starts, which would fail the block's check
    /// and send it to the source's validator: with modified UTF-8's, which
    /// steps, pushes of 4 KiB ran at a third of the speed of one push;
    /// measured). The engine's per-value path takes what is left of the
    /// input.
    pub(super) fn block_end(&self, data: &[u8], limit: usize) -> usize {
        let alone = |u| self.tables.tables().ends_alone(u);
        super::fused::sequence_end_by(data, limit, |u| self.is_continuation(u), alone).unwrap_or(0)
    }

    /// Converts the valid prefix of `block` (which ends where a sequence
    /// does) read by `from`: `None` where nothing is taken, else the units
    /// taken and the last value taken. `units` is scratch memory for the 16-bit units.
    pub(super) fn convert(
        &self,
        from: &dyn DynCodec,
        block: &[u8],
        units: &mut Vec<u8>,
        out: &mut Vec<u8>,
    ) -> Option<(usize, u64)> {
        let valid = match self.tables.validate(self.isa, block) {
            Ok(()) => block.len(),
            Err(_) => from.validate_open(0, block).0.map_or_else(|e| e.valid_up_to(), |()| block.len()),
        };
        units.clear();
        let read = self.decoder.decode(&block[..valid], units);
        let block = &block[..read];
        let done = self.finish(&units[..], self.kernel(units, out), out);
        // The value of the units written last: one, or a pair's two.
        let last = self.units.last_value(Some(&self.pair), &units[..2 * done]);
        // The source's position: after the sequence of the last unit taken.
        let took = self.sequence_start(block, units.len() / 2 - done);
        Some((took, u64::from(last?)))
    }

    /// The 16-bit units at the start of `units` that the second kernel
    /// writes, written.
    fn kernel(&self, units: &[u8], out: &mut Vec<u8>) -> usize {
        match &self.into {
            Into::Bytes { kernel, .. } => kernel.encode(units, out) / 2,
            Into::Wide { alike, .. } => {
                simd::convert_units(self.isa, &alike.from, alike.pair.as_ref(), &alike.to, units, out) / 2
            }
        }
    }

    /// Writes the 16-bit units from `at` that the kernel left, one value at
    /// a time, up to one the target refuses; returns the units done. Into
    /// wide units, the kernel goes on after each pair (which, without
    /// AVX-512, it leaves).
    fn finish(&self, units: &[u8], mut at: usize, out: &mut Vec<u8>) -> usize {
        let unit = |k: usize| units.get(2 * k..2 * k + 2).map(|u| self.units.read(u));
        while let Some(u) = unit(at) {
            let (value, len) = if self.units.is_single(u) {
                (u, 1)
            } else {
                let Some(value) = unit(at + 1).and_then(|l| self.pair.join(u, l)) else { break };
                (value, 2)
            };
            let written = match &self.into {
                Into::Bytes { forms, .. } => forms.push(value, out),
                Into::Wide { forms, .. } => forms.encode(&[u64::from(value)], out) == 1,
            };
            if !written {
                break;
            }
            at += len;
            if len == 2 && matches!(self.into, Into::Wide { .. }) {
                at += self.kernel(&units[2 * at..], out);
            }
        }
        at
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

/// The 16-bit units that are no unit of `pair` (values of themselves), as
/// two ranges.
fn values_of_themselves(pair: &Pair) -> Option<[(u32, u32); 2]> {
    super::pair_path::without_units((0, 0xFFFF), pair.high_units(), pair.low_units())
}

/// Whether `from`'s decoder reads its units as the kernel from code units
/// does: a high unit of the `pair` and a low one after it as
/// the pair's value, every other unit's form as that unit. So it does for
/// a source without rules across values or pending values (CESU-8); for
/// one with them (modified UTF-8, whose lone surrogates are values), where
/// its rules look back only at the pair's high units (which the kernel
/// never writes alone: it stops there, and the engine's per-value path goes
/// on in the rules' context) and it reads the pair's forms as one value
/// (the longest sequence; checked on the pair's first and last values),
/// not as two.
fn reads_pairs_alike(from: &dyn DynCodec, pair: &Pair) -> bool {
    if from.dfa().contexts() == 1 && !from.dfa().has_pending() {
        return true;
    }
    let (first, last) = pair.high_units();
    let looks_at_high = |&(lo, hi): &(u64, u64)| u64::from(first) <= lo && hi <= u64::from(last);
    let reads_pair = |v: u32| {
        let mut form = Vec::new();
        from.encode_push(u64::from(v), &mut form).is_ok()
            && from.step_open(Strategy::Table, 0, &form) == Step::Value { value: u64::from(v), len: form.len() }
    };
    from.info().rule_values.iter().all(looks_at_high) && reads_pair(pair.lo) && reads_pair(pair.hi)
}
