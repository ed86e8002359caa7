//! From a codec of wide code units (UTF-16, UTF-32) into a codec of byte
//! forms that writes some values as the byte forms of a pair of 16-bit
//! units ([`CodecInfo::pair_forms`]: CESU-8, modified UTF-8), through
//! 16-bit units, with two kernels.
//!
//! The first, the kernel that rewrites code units
//! ([`convert_units`](crate::simd::convert_units)), takes the source's run
//! of units that are sequences of their own value and that the target
//! writes in one form, and of the pairs whose values the target writes as
//! its pair (UTF-16's surrogate pairs copied, UTF-32's values above FFFF
//! split into the two units), as little-endian 16-bit units; it checks the
//! source as it goes, and stops before a lone surrogate, a unit past the
//! source's values, or a value the target writes in another form (U+0000
//! into modified UTF-8, `C0 80`). The second
//! ([`PairTarget`], the kernel from code units of `pair_path.rs`) writes
//! each 16-bit unit, a pair's two as any other, as its byte form. The
//! source's position is the first kernel's; where it stops, the engine's
//! other paths take over.
//!
//! Into a target whose rules across values never look at the source's
//! values (CESU-8, which has none; modified UTF-8 from UTF-16, whose
//! values are no lone surrogates), the kernel from the
//! source's units straight into the target's byte forms (the one pass of
//! `fused.rs`) goes first: it writes text without pairs in one pass (UTF-16
//! → CESU-8 on Chinese at 13 GB/s, against 9.6 through 16-bit units) and
//! stops before each pair, where the two kernels take a block.
//!
//! [`CodecInfo::pair_forms`]: crate::CodecInfo::pair_forms

use std::vec::Vec;

use super::pair_path::{PairPath, PairTarget};
use super::transcoder::Alike;
use crate::simd::{self, Isa, Pair, Units, UnitsEncoder};
use crate::{AsciiRuns, DynCodec, WideForms};

/// The two kernels from a source of wide code units into a target of pair
/// forms, and the one before them.
pub(super) struct WideToPairs {
    isa: Isa,
    /// The first kernel's units: the source's that it rewrites (and its pair,
    /// or the target's from 32-bit units), into little-endian 16-bit ones.
    alike: Alike,
    target: PairTarget,
    /// The kernel from the source's units (and its pair) into the target's
    /// byte forms, for a target whose rules never look at the source's values.
    direct: Option<(UnitsEncoder, Units, Option<Pair>)>,
}

impl WideToPairs {
    /// The path from `from` to `to`, where the machine has the kernel that
    /// rewrites code units ([`simd::converts_units_on`]), `from` has runs of
    /// wide code units and no rules across values, `to` is a target of pair
    /// forms ([`PairTarget::of`]) that writes some of them in one form, and
    /// both are bounded and without `premap`.
    pub(super) fn of(from: &dyn DynCodec, to: &dyn DynCodec) -> Option<WideToPairs> {
        let isa = Isa::detect().filter(|&isa| simd::converts_units_on(isa))?;
        let plain = |c: &dyn DynCodec| !c.info().unbounded && !c.premapped();
        if !plain(from) || !plain(to) || from.dfa().contexts() > 1 {
            return None;
        }
        let target = PairTarget::of(isa, to)?;
        let (units, pair) = super::fused::source_units(from)?;
        // The target's 16-bit units, as the forms of a codec of wide units.
        let forms = WideForms { units: AsciiRuns::U16Le, single: target.single, pair: Some(target.pair) };
        let alike = Alike::between(units, pair, from.dfa().facts().wide_runs, &forms)?;
        let direct = match (super::rules_unmet(from, to), to.info().byte_forms.filter(|f| f.multi_unit())) {
            (true, Some(forms)) => UnitsEncoder::new(isa, &units, pair.as_ref(), &forms).map(|k| (k, units, pair)),
            _ => None,
        };
        Some(WideToPairs { isa, alike, target, direct })
    }

    /// Converts the prefix of `block` that the first kernel takes into `to`
    /// (this path's target) after `last` (the value written before): `None`
    /// where it takes nothing or a rule of `to` looks back at `last`, else
    /// the units taken and the value of the last of them. `units` is scratch
    /// memory for the 16-bit units.
    pub(super) fn convert(
        &self,
        to: &dyn DynCodec,
        (last, block): (Option<u64>, &[u8]),
        units: &mut Vec<u8>,
        out: &mut Vec<u8>,
    ) -> Option<(usize, u64)> {
        if !PairPath::may_follow(to, last) {
            return None;
        }
        if let Some((kernel, units, pair)) = &self.direct {
            let took = kernel.encode(block, out);
            if let Some(last) = units.last_value(pair.as_ref(), &block[..took]) {
                return Some((took, u64::from(last)));
            }
        }
        let Alike { from, pair, to: sixteen } = &self.alike;
        units.clear();
        let mut took = 0;
        loop {
            took += simd::convert_units(self.isa, from, pair.as_ref(), sixteen, &block[took..], units);
            match self.left(&block[took..], units) {
                0 => break,
                n => took += n,
            }
        }
        self.target.write(units, out);
        let last = from.last_value(pair.as_ref(), &block[..took])?;
        Some((took, u64::from(last)))
    }

    /// The single unit or the pair at the start of `rest` that the first
    /// kernel left (without AVX-512 it takes no pairs, and single units only
    /// in groups of 32 bytes), appended to `units` as 16-bit units; returns
    /// the bytes it takes (0 where `rest` starts with neither).
    fn left(&self, rest: &[u8], units: &mut Vec<u8>) -> usize {
        let Alike { from, pair, .. } = &self.alike;
        let b = from.bytes;
        let unit = |k: usize| rest.get(k * b..(k + 1) * b).map(|u| from.read(u));
        let Some(first) = unit(0) else { return 0 };
        if from.is_single(first) {
            // (The single units are those of 16 bits the target writes.)
            units.extend_from_slice(&(first as u16).to_le_bytes());
            return b;
        }
        let Some(pair) = pair else { return 0 };
        let (value, len) = match b {
            2 => match unit(1).and_then(|low| pair.join(first, low)) {
                Some(value) => (value, 2 * b),
                None => return 0,
            },
            // (A 32-bit unit of the pair's values is a sequence of its own
            // value: `Alike::between` holds the pair to the source's runs.)
            _ if (pair.lo..=pair.hi).contains(&first) => (first, b),
            _ => return 0,
        };
        let (high, low) = pair.units(value);
        for u in [high, low] {
            units.extend_from_slice(&(u as u16).to_le_bytes());
        }
        len
    }
}
