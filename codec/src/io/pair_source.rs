//! From a codec of byte forms that writes some values as the byte forms of
//! a pair of 16-bit units ([`CodecInfo::pair_forms`]: CESU-8) through
//! 16-bit units, with two one-pass kernels: into the UTF-8 family (the way
//! back of `pair_path.rs`, where the copy of runs read alike declines), and
//! into the codecs of wide code units (UTF-16, UTF-32), whose units the
//! 16-bit units are, or become unit for unit.
//!
//! The first kernel (`pair_units.rs`) reads each sequence of the source,
//! a pair's halves included, as one 16-bit unit, where the SIMD checks of
//! the language of the source's units pass the block.
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

use std::vec::Vec;

use super::pair_units::PairUnits;
use super::transcoder::Alike;
use crate::simd::{self, ByteForms, UnitsEncoder};
use crate::{AsciiRuns, DynCodec, WideForms, WideRuns};

/// The two kernels from a source of pair forms into a target, and what
/// they need.
pub(super) struct PairSource {
    /// The first kernel: the source's sequences as 16-bit units.
    first: PairUnits,
    /// The second kernel, and the target's forms for what it leaves.
    into: Into,
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
        let pair = from.info().pair_forms?;
        // The target writes the pair's values in its forms (else the second
        // kernel would stop at each pair: CESU-8 as the target).
        let writes = |v: u32| forms.push(v, &mut Vec::new());
        if !writes(pair.lo) || !writes(pair.hi) {
            return None;
        }
        let first = PairUnits::of(from)?;
        let kernel = UnitsEncoder::new(first.isa, &first.units, Some(&first.pair), &forms)?;
        PairSource::with(from, to, first, Into::Bytes { kernel: Box::new(kernel), forms })
    }

    /// The path from `from` (as for [`PairSource::of`]) into `to`, a codec of
    /// wide code units (its [`WideForms`], without rules across values or
    /// `premap`, bounded), where the machine has the kernel that rewrites
    /// units ([`simd::converts_units_on`]) and the target writes some of
    /// the 16-bit units as themselves.
    pub(super) fn into_units(from: &dyn DynCodec, to: &dyn DynCodec) -> Option<PairSource> {
        let first = PairUnits::for_values(from)?;
        let forms = to.info().wide_forms;
        let runs = WideRuns { units: AsciiRuns::U16Le, ranges: first.units.single };
        let alike = Alike::between(first.units, Some(first.pair), runs, &forms)?;
        PairSource::with(from, to, first, Into::Wide { alike, forms })
    }

    /// The path from `from` (whose `first` kernel this is) through `into`,
    /// where `to` (which `into` writes), bounded and without `premap`, has
    /// no rules across values that look at `from`'s values.
    fn with(from: &dyn DynCodec, to: &dyn DynCodec, first: PairUnits, into: Into) -> Option<PairSource> {
        if to.info().unbounded || to.premapped() || !super::rules_unmet(from, to) {
            return None;
        }
        Some(PairSource { first, into })
    }

    /// Into wide code units, the ASCII at the start of `data` widened in the
    /// pass that checks it ([`simd::widen_ascii`], whole groups of 64
    /// bytes), where the source's bytes below 80 are values of themselves:
    /// one pass where the two kernels would take two. The units taken and
    /// the last value; `None` where none are.
    pub(super) fn widen_ascii(&self, data: &[u8], out: &mut Vec<u8>) -> Option<(usize, u64)> {
        let Into::Wide { alike, .. } = &self.into else { return None };
        let n = if self.first.ascii { simd::widen_ascii(self.first.isa, &alike.to, data, out) } else { 0 };
        (n > 0).then(|| (n, u64::from(data[n - 1])))
    }

    /// Where a block of `data` that ends at most at `limit` ends
    /// ([`PairUnits::block_end`]).
    pub(super) fn block_end(&self, data: &[u8], limit: usize) -> usize {
        self.first.block_end(data, limit)
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
        units.clear();
        let read = self.first.read(from, block, units);
        let block = &block[..read];
        let done = self.finish(&units[..], self.kernel(units, out), out);
        // The value of the units written last: one, or a pair's two.
        let last = self.first.units.last_value(Some(&self.first.pair), &units[..2 * done]);
        // The source's position: after the sequence of the last unit taken.
        let took = self.first.sequence_start(block, units.len() / 2 - done);
        Some((took, u64::from(last?)))
    }

    /// The 16-bit units at the start of `units` that the second kernel
    /// writes, written.
    fn kernel(&self, units: &[u8], out: &mut Vec<u8>) -> usize {
        match &self.into {
            Into::Bytes { kernel, .. } => kernel.encode(units, out) / 2,
            Into::Wide { alike, .. } => {
                simd::convert_units(self.first.isa, &alike.from, alike.pair.as_ref(), &alike.to, units, out) / 2
            }
        }
    }

    /// Writes the 16-bit units from `at` that the kernel left, one value at
    /// a time, up to one the target refuses; returns the units done. Into
    /// wide units, the kernel goes on after each pair (which, without
    /// AVX-512, it leaves).
    fn finish(&self, units: &[u8], mut at: usize, out: &mut Vec<u8>) -> usize {
        let (single, pair) = (&self.first.units, &self.first.pair);
        let unit = |k: usize| units.get(2 * k..2 * k + 2).map(|u| single.read(u));
        while let Some(u) = unit(at) {
            let (value, len) = if single.is_single(u) {
                (u, 1)
            } else {
                let Some(value) = unit(at + 1).and_then(|l| pair.join(u, l)) else { break };
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
}
