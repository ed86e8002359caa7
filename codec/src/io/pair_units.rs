//! The first kernel of a source of pair forms (CESU-8, modified UTF-8):
//! its sequences as 16-bit units, a pair's halves each one unit; and the
//! blocks of values made of those units, for the engine's generic blocks.
//!
//! Each sequence of one to four units of the source is one 16-bit unit:
//! the kernel into code units ([`decode_to_units`](crate::simd::decode_to_units))
//! reads them with a decoding shape of the source's byte forms
//! (`ByteForms::shape`: continuation units `continuation + 6 bits`, each
//! length's lead base), every unit a single unit. A block is valid where
//! the SIMD checks of the language of the source's units, each written
//! alone, pass it ([`CodecInfo::pair_unit_tables`], derived and proved by
//! the compiler: a source without them takes the engine's other paths);
//! where they fail, the source's own validator finds the valid prefix.
//!
//! `pair_source.rs` writes the units into a target's forms with a second
//! kernel. Into any other target, [`PairUnits::decode_values`] joins them
//! into values with the kernel that rewrites code units
//! ([`convert_units`](crate::simd::convert_units), a high unit and a low
//! one after it as the pair's value) and hands them to the target's bulk
//! encoder, as a table walk's block of values would be: CESU-8 into the
//! integer codecs, UTF-1 or UTF-EBCDIC without stepping.
//!
//! [`CodecInfo::pair_unit_tables`]: crate::CodecInfo::pair_unit_tables

use std::vec::Vec;

use super::pair_path::ANY_UNIT;
use crate::simd::{self, Isa, Pair, Prepared, Shape, Units, UnitsDecoder};
use crate::{AsciiRuns, DynCodec, Step, Strategy};

/// Every value as one 32-bit unit of itself: what a pair is joined into.
const VALUES: Units = Units { bytes: 4, big_endian: false, single: [(0, u32::MAX); 2] };
/// Fewer 16-bit units than this are joined one at a time: the kernel takes
/// whole groups (of 16 units, without AVX-512).
const SHORT: usize = 32;

/// The kernel from a source of pair forms into 16-bit units, and what it
/// needs.
pub(super) struct PairUnits {
    pub(super) isa: Isa,
    /// The source's units as its byte forms read them.
    shape: Shape,
    pub(super) pair: Pair,
    /// The 16-bit units that are values of themselves (all but the pair's).
    pub(super) units: Units,
    /// The kernel: the source's sequences as 16-bit units.
    decoder: UnitsDecoder,
    /// The SIMD checks of the language of the source's units, each written
    /// alone ([`CodecInfo::pair_unit_tables`](crate::CodecInfo::pair_unit_tables)).
    tables: Prepared,
    /// Whether the source's bytes below 80 are values of themselves
    /// ([`AsciiRuns::Bytes`]: CESU-8's, not modified UTF-8's, whose `00` is
    /// no value).
    pub(super) ascii: bool,
}

impl PairUnits {
    /// The kernel for `from`, where the machine has SIMD, `from` has byte
    /// forms (of at most four units), pair forms and the SIMD checks of its
    /// units, is bounded, has no `premap` and reads pairs as the kernel does
    /// ([`reads_pairs_alike`]).
    pub(super) fn of(from: &dyn DynCodec) -> Option<PairUnits> {
        let isa = Isa::detect()?;
        let (source, pair) = (from.info().byte_forms?, from.info().pair_forms?);
        let tables = Prepared::new(from.info().pair_unit_tables?).ok()?;
        if from.info().unbounded || from.premapped() || !reads_pairs_alike(from, &pair) {
            return None;
        }
        let shape = source.shape()?;
        let units = Units { single: values_of_themselves(&pair)?, ..ANY_UNIT };
        let decoder = UnitsDecoder::new(isa, &shape, &ANY_UNIT, None)?;
        let ascii = from.ascii_runs() == AsciiRuns::Bytes;
        Some(PairUnits { isa, shape, pair, units, decoder, tables, ascii })
    }

    /// The kernel for `from` where its units are rewritten or joined by the
    /// kernel that rewrites wide units (into UTF-16 and UTF-32, into blocks
    /// of values): as [`PairUnits::of`], on a machine that has that kernel
    /// ([`simd::converts_units_on`]).
    pub(super) fn for_values(from: &dyn DynCodec) -> Option<PairUnits> {
        Isa::detect().filter(|&isa| simd::converts_units_on(isa))?;
        PairUnits::of(from)
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

    /// The valid prefix of `block` (which ends where a sequence does, read
    /// by `from` in context 0) as 16-bit units, one a sequence, appended to
    /// `units`; returns the units of `block` read.
    pub(super) fn read(&self, from: &dyn DynCodec, block: &[u8], units: &mut Vec<u8>) -> usize {
        let valid = match self.tables.validate(self.isa, block) {
            Ok(()) => block.len(),
            Err(_) => from.validate_open(0, block).0.map_or_else(|e| e.valid_up_to(), |()| block.len()),
        };
        self.decoder.decode(&block[..valid], units)
    }

    /// Where the `left`-th sequence from the end of `block` starts (its
    /// end for 0): the units before it are those of the sequences taken.
    /// (Counted back from the end: the kernels take all but the last few.)
    pub(super) fn sequence_start(&self, block: &[u8], left: usize) -> usize {
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

    /// Decodes the valid prefix of `block` (which ends where a sequence
    /// does, read by `from` in context 0) into `values`, up to a half of a
    /// pair without its other half (a modified UTF-8 lone surrogate: the
    /// engine's per-value path reads it in its rule's context); returns the
    /// units of `block` taken (0 for none). `units` and `wide` are scratch
    /// memory for the 16-bit and the 32-bit units.
    pub(super) fn decode_values(
        &self,
        from: &dyn DynCodec,
        block: &[u8],
        (units, wide): (&mut Vec<u8>, &mut Vec<u8>),
        values: &mut Vec<u64>,
    ) -> usize {
        units.clear();
        let read = self.read(from, block, units);
        let count = units.len() / 2;
        let unit = |k: usize| units.get(2 * k..2 * k + 2).map(|u| self.units.read(u));
        let mut at = 0;
        while at < count {
            if count - at >= SHORT {
                wide.clear();
                at += simd::convert_units(self.isa, &self.units, Some(&self.pair), &VALUES, &units[2 * at..], wide) / 2;
                values.extend(wide.chunks_exact(4).map(|u| u64::from(u32::from_le_bytes([u[0], u[1], u[2], u[3]]))));
            }
            // Where the kernel stopped (a pair, without AVX-512; the last
            // few units): one unit, or a pair's two, joined here.
            let Some(u) = unit(at) else { break };
            let (value, len) = match self.units.is_single(u) {
                true => (u, 1),
                false => match unit(at + 1).and_then(|low| self.pair.join(u, low)) {
                    Some(value) => (value, 2),
                    None => break,
                },
            };
            values.push(u64::from(value));
            at += len;
        }
        self.sequence_start(&block[..read], count - at)
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
