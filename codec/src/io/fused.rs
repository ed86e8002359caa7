//! The one-pass paths of [`Transcoder`](super::Transcoder): between the UTF-8
//! family and the codecs of wide code units (UTF-16, UTF-32), in both
//! directions, and from a codec to itself, without values in memory.
//!
//! Every fact comes from the descriptions, so a pair qualifies without naming
//! codecs:
//!
//! - **Into itself**: a codec whose valid sequences are each the encoder's
//!   writing of its value ([`CodecInfo::canonical`](crate::CodecInfo::canonical),
//!   which the compiler proves), without rules across values: valid input
//!   is its own transcoding, so a block is validated by the codec's fastest
//!   validator (SIMD where it has one) and copied as it is.
//! - **Into wide units**: a source the SIMD decoding kernel reads (a
//!   [`Shape`], which the compiler derives from its automaton, without
//!   pending values) and a target
//!   with [`WideForms`](crate::WideForms) (derived from its encoder). A block
//!   is validated by the source's SIMD validator and, if it passes, converted
//!   by [`decode_to_units`](crate::simd::decode_to_units). ASCII at a
//!   block's start, where the source's bytes below 80 are sequences of
//!   their own value ([`AsciiRuns::Bytes`]), is widened without the validator
//!   ([`widen_ascii`](crate::simd::widen_ascii), which checks as it goes).
//! - **From wide units**: a source whose code units are values of themselves
//!   ([`WideRuns`](crate::WideRuns), from its automaton) or pairs of them (its
//!   encoder's pair form, for a source of at most two units a sequence), and
//!   a target with [`ByteForms`](crate::simd::ByteForms) (derived from its encoder). The kernel
//!   [`encode_from_units`](crate::simd::encode_from_units) reads and checks
//!   the source as it converts.
//!
//! - **Through 16-bit units**: a source of pair forms (CESU-8, modified
//!   UTF-8) into wide code units (`pair_source.rs`), and wide code units into
//!   a target of pair forms (`wide_to_pairs.rs`), by two kernels each.
//!
//! Each kernel stops before what it does not convert (an invalid sequence, a
//! value the target writes otherwise or refuses), and the engine's other paths
//! take it from there, so errors and replacements are the per-value path's.

use alloc::vec::Vec;

use super::pair_path::PairPath;
use super::pair_source::PairSource;
use super::wide_to_pairs::WideToPairs;
use crate::simd::{self, Isa, Pair, Prepared, Shape, Tables, Units, UnitsDecoder, UnitsEncoder};
use crate::{ApartLeads, AsciiRuns, CodecInfo, DynCodec};

/// The paths through 16-bit units: into a target of pair forms (from the
/// UTF-8 family) or from a source of them (into it).
pub(super) enum Through16 {
    Into(PairPath),
    From(PairSource),
}

/// What a one-pass path needs of a pair of codecs.
pub(super) enum Fused {
    /// A codec into itself: validated blocks copied; with the codec's SIMD
    /// tables, where it has them, to end each block before a lead.
    Copy { tables: Option<Tables> },
    /// Between two codecs of bytes that read most valid input alike: runs
    /// without a lead they may read apart copied, the rest value by value.
    /// The runs stop at `stops`: `leads`, and where the target validates
    /// them (`by_target`), also the leads the source may read apart from it.
    /// Where the copy declines (at sequences read apart), a target of
    /// pair forms is written, or a source of pair forms read, through
    /// 16-bit units (`pair`).
    Shared {
        leads: ApartLeads,
        stops: ApartLeads,
        by_target: bool,
        tables: Option<Tables>,
        pair: Option<Box<Through16>>,
    },
    /// The UTF-8 family into wide code units, by a kernel made once for the
    /// pair; with `ascii` where the source's bytes below 80 are values of
    /// themselves (then widened without the validator where a block starts
    /// with them).
    ToUnits { isa: Isa, tables: Prepared, shape: Shape, units: Units, kernel: UnitsDecoder, ascii: bool },
    /// Wide code units into the UTF-8 family, by a kernel made once for the
    /// pair (its constants kept across blocks and pushes).
    FromUnits { kernel: UnitsEncoder, units: Units, pair: Option<Pair> },
    /// A source of pair forms (CESU-8, modified UTF-8) into wide code units,
    /// through 16-bit units: the source's sequences as those units, then the
    /// units rewritten as the target's.
    PairsToUnits(Box<PairSource>),
    /// Wide code units into a target of pair forms (CESU-8, modified
    /// UTF-8), through 16-bit units: the source's rewritten as those units,
    /// then each written as its byte form.
    UnitsToPairs(Box<WideToPairs>),
}

impl Fused {
    /// The path from `from` to `to`: the copy of a codec into itself (on
    /// every machine); else the copy of runs read alike ([`Fused::Shared`],
    /// with a path through 16-bit units where the machine has SIMD), for
    /// two codecs of bytes that read some text alike and validate those
    /// runs without stepping (by the source's validator, or the target's
    /// where the source's steps or has no SIMD tables); else a kernel if the
    /// pair qualifies and the machine has SIMD (AVX-512, AVX2, SSE4.1 or
    /// NEON): both codecs bounded and without rules across values, the
    /// source without `premap`, and the facts above.
    pub(super) fn of(from: &dyn DynCodec, to: &dyn DynCodec) -> Option<Fused> {
        if Fused::copies(from, to) {
            return Some(Fused::Copy { tables: from.dfa().simd().copied() });
        }
        if let Some(leads) = Fused::shares(from, to).filter(|l| !ascii_alone(from, to, l)) {
            let tables = from.dfa().simd().copied();
            // A source without SIMD tables (CESU-8) into a target with them
            // (UTF-8), or one whose validation steps (modified UTF-8, WTF-8:
            // rules across values) into one whose does not: a run without
            // the leads either may read apart from the other is valid in
            // both or in neither, so the target's validator checks it.
            let simd = |c: &dyn DynCodec| c.dfa().simd().is_some() && validates_in_one_pass(c);
            let stepping = !validates_in_one_pass(from);
            let by_target = validates_in_one_pass(to) && (stepping || !simd(from) && simd(to));
            let back = by_target.then(|| super::leads_apart(to, from)).flatten();
            let (stops, by_target) = back.map_or((leads, false), |back| (leads.union(&back), true));
            // Else such a source would validate its runs step by step,
            // slower than the blocks of values.
            if stepping && !by_target {
                return Fused::kernels(from, to);
            }
            let pair = match PairPath::of(from, to) {
                Some(into) => Some(Through16::Into(into)),
                None => PairSource::of(from, to).map(Through16::From),
            };
            return Some(Fused::Shared { leads, stops, by_target, tables, pair: pair.map(Box::new) });
        }
        // (Into a target of pair forms through 16-bit units first: the kernel
        // from wide units into its byte forms stops at each pair.)
        let into_pairs = || WideToPairs::of(from, to).map(|p| Fused::UnitsToPairs(Box::new(p)));
        let from_pairs = || PairSource::into_units(from, to).map(|p| Fused::PairsToUnits(Box::new(p)));
        into_pairs().or_else(|| Fused::kernels(from, to)).or_else(from_pairs)
    }

    /// The one-pass kernels between a codec of byte forms and one of wide
    /// units, either way, for a pair that takes neither copy.
    fn kernels(from: &dyn DynCodec, to: &dyn DynCodec) -> Option<Fused> {
        let isa = Isa::detect()?;
        let forms = (to.info().wide_forms, to.info().byte_forms.filter(|f| f.multi_unit()));
        if !forms.0.is_some() && forms.1.is_none() {
            return None;
        }
        let bounded = |c: &dyn DynCodec| !c.info().unbounded;
        if from.premapped()
            || !bounded(from)
            || from.dfa().contexts() > 1
            || !bounded(to)
            || !super::rules_unmet(from, to)
        {
            return None;
        }
        if let (true, Some(shape), Some(&tables)) =
            (forms.0.is_some(), from.dfa().decoding_shape(), from.dfa().simd_prepared())
        {
            let (mut units, pair) = forms.0.simd_units();
            // Where the target writes every value of the source as one unit
            // of itself, the kernel's checks of the values are left out: its
            // blocks are validated first.
            if writes_every_value(&units, pair.as_ref(), from.info()) {
                units.single = [(0, if units.bytes == 2 { 0xFFFF } else { u32::MAX }); 2];
            }
            let ascii = from.ascii_runs() == AsciiRuns::Bytes;
            let kernel = UnitsDecoder::new(isa, &shape, &units, pair.as_ref())?;
            return Some(Fused::ToUnits { isa, tables, shape, units, kernel, ascii });
        }
        let (units, pair) = source_units(from)?;
        let kernel = UnitsEncoder::new(isa, &units, pair.as_ref(), &forms.1?)?;
        Some(Fused::FromUnits { kernel, units, pair })
    }

    /// Whether `to` is `from` (the same description, the same facts) and valid
    /// input of it is its own transcoding: every valid sequence is the
    /// encoder's writing of its value, values are bounded (an unbounded codec's
    /// values past 64 bits take another path), and no rule across values holds.
    pub(super) fn copies(from: &dyn DynCodec, to: &dyn DynCodec) -> bool {
        let info = from.info();
        info.canonical
            && !info.unbounded
            && info == to.info()
            && !from.description().is_empty()
            && from.description() == to.description()
            && from.dfa().contexts() == 1
    }

    /// Where [`Fused::Shared`] took nothing at the start of `data` (a
    /// sequence read apart), converts through 16-bit units, into a target of
    /// pair forms: the cluster of such sequences there after a long copy
    /// (`cluster`), else a block, after `last` (the value written before);
    /// `None` for the other paths, or where it takes nothing. The units taken
    /// and the last value taken; `units` is scratch memory.
    pub(super) fn convert_apart(
        &self,
        (from, to): (&dyn DynCodec, &dyn DynCodec),
        (last, data, cluster): (Option<u64>, &[u8], bool),
        units: &mut Vec<u8>,
        out: &mut Vec<u8>,
    ) -> Option<(usize, u64)> {
        let Fused::Shared { stops, pair: Some(pair), .. } = self else { return None };
        let longest = from.info().max_units.unwrap_or(1);
        let whole = data.len().min(BLOCK);
        let limit = if cluster { super::shared::cluster_end(stops, data, longest).unwrap_or(whole) } else { whole };
        match &**pair {
            Through16::Into(into) => {
                if !PairPath::may_follow(to, last) {
                    return None;
                }
                let end = sequence_end(into.tables(), data, limit.min(whole)).unwrap_or(0);
                into.convert(to, &data[..end], units, out)
            }
            Through16::From(source) => source.convert(from, &data[..source.block_end(data, limit)], units, out),
        }
    }

    /// Whether the path goes through 16-bit units: [`Fused::Shared`] for
    /// what it does not copy, [`Fused::PairsToUnits`] and
    /// [`Fused::UnitsToPairs`] for all they convert.
    pub(super) fn pair_units(&self) -> bool {
        matches!(self, Fused::Shared { pair: Some(_), .. } | Fused::PairsToUnits(_) | Fused::UnitsToPairs(_))
    }

    /// The leads of [`Fused::Shared`] (`None` for the other paths).
    pub(super) fn shared_leads(&self) -> Option<ApartLeads> {
        match self {
            Fused::Shared { leads, .. } => Some(*leads),
            _ => None,
        }
    }

    /// Where the engine's block of values at the start of `data` should end
    /// after [`Fused::Shared`] took nothing there: after the cluster of
    /// sequences read apart that starts it ([`super::shared::cluster_end`]),
    /// so that the copy of runs resumes after it; `None` for the other paths
    /// and for a cluster that reaches far (text dense with them).
    pub(super) fn cluster_end(&self, data: &[u8], max_units: usize) -> Option<usize> {
        match self {
            Fused::Shared { stops, .. } => super::shared::cluster_end(stops, data, max_units),
            _ => None,
        }
    }

    /// The leads apart if `from` and `to` are two codecs of bytes, each
    /// bounded and without `premap`, that read some valid input of `from`
    /// alike ([`leads_apart`](super::leads_apart)), `to` writes each of
    /// its values as the one sequence it reads it from (canonical): then
    /// such input is its own transcoding. (Which validator checks the runs
    /// is [`Fused::of`]'s choice.)
    fn shares(from: &dyn DynCodec, to: &dyn DynCodec) -> Option<ApartLeads> {
        let plain = |c: &dyn DynCodec| !c.info().unbounded && !c.premapped();
        // Runs are validated before they are copied: by the SIMD or the
        // shift-DFA validator of the source, or by the target's (`Fused::of`).
        if !(plain(from) && plain(to) && to.info().canonical) {
            return None;
        }
        super::leads_apart(from, to)
    }

    /// Converts a prefix of `data`, read by `from` into `to` after `last` (the
    /// last value written to `to`): `None` when the path took nothing, else
    /// the units taken and the value of the last sequence taken (`None` from
    /// [`Fused::Copy`], whose codec has no rules across values for it to
    /// matter to, and after a run copied by [`Fused::Shared`], after which no
    /// rule looks back). `units` is scratch memory for the paths through
    /// 16-bit units.
    pub(super) fn convert(
        &self,
        (from, to): (&dyn DynCodec, &dyn DynCodec),
        (last, data): (Option<u64>, &[u8]),
        units: &mut Vec<u8>,
        out: &mut Vec<u8>,
    ) -> Option<(usize, Option<u64>)> {
        let (took, last) = match self {
            Fused::Shared { stops, by_target, tables, .. } => {
                let check = if *by_target { to } else { from };
                super::shared::convert((from, to, check), stops, last, copy_block(tables.as_ref(), data), out)
            }
            Fused::Copy { tables } => {
                // The block ends before the last lead within reach, where
                // the codec marks its leads, so that a chunk's end, which may
                // cut a sequence, does not fail the fast validation (whose
                // failure is found again by steps). A block cut inside a
                // sequence, or one with an error, is valid up to a sequence
                // boundary: that much is copied, and the engine's other
                // paths take the rest.
                let block = copy_block(tables.as_ref(), data);
                let took = from.validate_open(0, block).0.map_or_else(|e| e.valid_up_to(), |()| block.len());
                out.extend_from_slice(&block[..took]);
                (took, None)
            }
            Fused::ToUnits { isa, tables, shape, units, kernel, ascii } => {
                let limit = data.len().min(BLOCK);
                // ASCII at the block's start is valid as it is: widened in
                // the pass that checks it.
                let widened = if *ascii { simd::widen_ascii(*isa, units, &data[..limit], out) } else { 0 };
                if widened > 0 {
                    return Some((widened, Some(u64::from(data[widened - 1]))));
                }
                // The block ends where a sequence does, so that a chunk's
                // end, which may cut a sequence, is left to the engine.
                let block = &data[..sequence_end(tables.tables(), data, limit).unwrap_or(0)];
                if tables.validate(*isa, block).is_err() {
                    return None;
                }
                let took = kernel.decode(block, out);
                let last = (took > 0).then(|| {
                    let start = (0..took).rev().find(|&k| !tables.tables().is_continuation(block[k])).unwrap_or(0);
                    shape.value(&block[start..took])
                });
                (took, last)
            }
            Fused::FromUnits { kernel, units, pair } => {
                let block = &data[..data.len().min(BLOCK)];
                let took = kernel.encode(block, out);
                (took, units.last_value(pair.as_ref(), &block[..took]).map(u64::from))
            }
            Fused::UnitsToPairs(path) => {
                let block = &data[..data.len().min(BLOCK)];
                path.convert(to, (last, block), units, out).map_or((0, None), |(took, last)| (took, Some(last)))
            }
            Fused::PairsToUnits(source) => {
                if let Some(widened) = source.widen_ascii(&data[..data.len().min(BLOCK)], out) {
                    return Some((widened.0, Some(widened.1)));
                }
                let block = &data[..source.block_end(data, data.len().min(BLOCK))];
                source.convert(from, block, units, out).map_or((0, None), |(took, last)| (took, Some(last)))
            }
        };
        (took > 0).then_some((took, last))
    }
}

/// Whether the runs two codecs read alike are those of ASCII alone (every
/// unit from 80 up that starts a sequence of the source starts one they
/// read apart: UTF-1 against UTF-8), where both codecs' bytes below 80 are values of
/// themselves: the blocks of values then copy the same runs without values
/// ([`AsciiRuns`]), and the copy of runs read alike would only cut the
/// blocks between them shorter (UTF-1 into UTF-8 on the mixed corpus: 0.25
/// GB/s, against 0.39 by the blocks).
fn ascii_alone(from: &dyn DynCodec, to: &dyn DynCodec, leads: &ApartLeads) -> bool {
    let bytes = |c: &dyn DynCodec| c.ascii_runs() == AsciiRuns::Bytes;
    // (A unit that starts no sequence of the source is in no run.)
    let dfa = from.dfa();
    let starts_nothing = |u: u8| dfa.transition(dfa.start(), u).next == crate::dfa::DEAD;
    bytes(from) && bytes(to) && (0x80..=0xFF).all(|u| leads.contains(u) || starts_nothing(u))
}

/// Where a block of `data` that ends at most at `limit` ends without cutting
/// a sequence, by the source's SIMD `tables`: at `limit` where a sequence
/// starts there; else after the last unit before it, within 16 units, that
/// is no continuation unit, if that unit is a whole sequence by itself
/// ([`Tables::ends_alone`]), or before it (in valid input, the lead of the
/// last sequence that starts before `limit`). `None` where no such unit lies
/// within 16 units.
pub(super) fn sequence_end(tables: &Tables, data: &[u8], limit: usize) -> Option<usize> {
    sequence_end_by(data, limit, |u| tables.is_continuation(u), |u| tables.ends_alone(u))
}

/// [`sequence_end`] by what tells continuation units (`continues`) and the
/// units that are whole sequences by themselves (`alone`).
pub(super) fn sequence_end_by(
    data: &[u8],
    limit: usize,
    continues: impl Fn(u8) -> bool,
    alone: impl Fn(u8) -> bool,
) -> Option<usize> {
    if data.get(limit).is_some_and(|&u| !continues(u)) {
        return Some(limit);
    }
    let k = (limit.saturating_sub(16)..limit).rev().find(|&k| !continues(data[k]))?;
    Some(if alone(data[k]) { k + 1 } else { k })
}

/// Whether `codec` validates without stepping: by its SIMD or shift-DFA
/// validator, without rules across values or pending values.
fn validates_in_one_pass(codec: &dyn DynCodec) -> bool {
    codec.dfa().contexts() == 1 && !codec.dfa().has_pending()
}

/// The block at the start of `data` that a copy validates: at most
/// [`COPY_BLOCK`] units, ending before the last lead within reach where the
/// codec marks its leads.
fn copy_block<'d>(tables: Option<&Tables>, data: &'d [u8]) -> &'d [u8] {
    let limit = data.len().min(COPY_BLOCK);
    &data[..tables.map_or(limit, |t| sequence_end(t, data, limit).unwrap_or(limit))]
}

/// The most input one copy validates.
const COPY_BLOCK: usize = 1 << 18;

/// The most input one call converts.
const BLOCK: usize = 1 << 14;

/// How the kernel reads `from`'s code units: its wide runs as single units
/// and its encoder's pair form, for a source of at most two units a
/// sequence whose pair's units are no single units.
pub(super) fn source_units(from: &dyn DynCodec) -> Option<(Units, Option<Pair>)> {
    let info = from.info();
    from.dfa().facts().wide_runs.source_units(&info.wide_forms, info.max_units)
}

/// Whether the target writes every value `info` decodes to (`min..=max`
/// less what it excludes) as `units` and `pair` say without a check: as one
/// unit of itself up to the units' top (FFFF, FFFFFFFF), as the pair above
/// it. Then the kernel may take any value up to the top for a single unit.
fn writes_every_value(units: &Units, pair: Option<&Pair>, info: &CodecInfo) -> bool {
    let top = if units.bytes == 2 { 0xFFFF } else { u64::from(u32::MAX) };
    let single = units.single.map(|(lo, hi)| (u64::from(lo), u64::from(hi)));
    let paired = pair.filter(|_| units.bytes == 2).map(|p| [(u64::from(p.lo), u64::from(p.hi))]);
    info.value_ranges().into_iter().all(|(lo, hi)| {
        (lo > top || covered((lo, hi.min(top)), &single))
            && (hi <= top || paired.is_some_and(|p| covered((lo.max(top + 1), hi), &p)))
    })
}

/// Whether the ranges `by` hold every value of `lo..=hi`.
fn covered((mut at, end): (u64, u64), by: &[(u64, u64)]) -> bool {
    loop {
        match by.iter().filter(|&&(lo, hi)| lo <= at && at <= hi).map(|&(_, hi)| hi).max() {
            Some(hi) if hi >= end => return true,
            Some(hi) => at = hi + 1,
            None => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Unit;

    #[test]
    fn the_values_every_one_of_which_utf16_and_utf32_write() {
        let utf32 = Units { bytes: 4, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0x10_FFFF)] };
        let info =
            |max, excluded: &'static [(u64, u64)]| CodecInfo::new("x", "", Unit::Byte, 21, 0, max, excluded, Some(4));
        let utf8 = info(0x10_FFFF, &[(0xD800, 0xDFFF)]);
        assert!(writes_every_value(&utf32, None, &utf8));
        assert!(writes_every_value(&utf32, None, &info(0xFFFF, &[(0xD800, 0xDFFF)])));
        // Surrogates, values past U+10FFFF, a hole not excluded.
        assert!(!writes_every_value(&utf32, None, &info(0x10_FFFF, &[])));
        assert!(!writes_every_value(&utf32, None, &info(0x7FFF_FFFF, &[(0xD800, 0xDFFF)])));
        assert!(!writes_every_value(&utf32, None, &info(0x10_FFFF, &[(0xD800, 0xDBFF)])));
        // Ranges that meet, and one that holds every value.
        let met = Units { single: [(0, 0xD7FF), (0xD800, 0x10_FFFF)], ..utf32 };
        assert!(writes_every_value(&met, None, &info(0x10_FFFF, &[])));
        let all = Units { single: [(0, u32::MAX); 2], ..utf32 };
        assert!(writes_every_value(&all, None, &info(u64::from(u32::MAX), &[])));
        assert!(!writes_every_value(&all, None, &info(u64::from(u32::MAX) + 1, &[])));
        // Excluded values below the least one change nothing.
        let above =
            CodecInfo::new("y", "", Unit::Byte, 21, 0x80, 0x10_FFFF, &[(0x10, 0x20), (0xD800, 0xDFFF)], Some(4));
        assert!(writes_every_value(&utf32, None, &above));
        assert!(!writes_every_value(&Units { single: [(0x81, 0xD7FF), (0xE000, 0x10_FFFF)], ..utf32 }, None, &above));
        // UTF-16: single units up to FFFF, the pair above; without the pair,
        // or with one that starts lower (whose values below FFFF the
        // target writes as pairs), not every value.
        let utf16 = Units { bytes: 2, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
        let pair = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };
        assert!(writes_every_value(&utf16, Some(&pair), &utf8));
        assert!(!writes_every_value(&utf16, None, &utf8));
        assert!(!writes_every_value(&utf16, Some(&pair), &info(0x10_FFFF, &[])));
        let low = Units { single: [(0, 0x7FF), (0, 0x7FF)], ..utf16 };
        assert!(!writes_every_value(&low, Some(&Pair { lo: 0x800, ..pair }), &utf8));
        // A pair into 32-bit units is none.
        assert!(!writes_every_value(&Units { bytes: 4, ..utf16 }, Some(&pair), &utf8));
    }
}
