//! The one-pass path of [`Transcoder`](super::Transcoder) from a codec that
//! the SIMD decoding kernel reads (the UTF-8 family: a
//! [`Shape`](crate::simd::Shape)) to one that writes most values as one or
//! two wide code units (UTF-16 and UTF-32: [`WideForms`]).
//!
//! Both facts come from the descriptions: the compiler derives the source's
//! shape from its automaton and the target's forms from its encoder, so the
//! pair qualifies without naming codecs. A block is validated by the
//! source's SIMD validator and, if it passes, converted by
//! [`placemat_simd::decode_to_units`](crate::simd::decode_to_units) straight
//! into the target's code units, without values in memory; the kernel stops
//! before a value the target writes otherwise (or refuses), and the engine's
//! other paths take what it leaves.

use alloc::vec::Vec;

use crate::simd::{self, Isa, Pair, Shape, Tables, Units};
use crate::DynCodec;

/// What the one-pass path needs of a pair of codecs.
pub(super) struct Fused {
    isa: Isa,
    tables: Tables,
    shape: Shape,
    units: Units,
    pair: Option<Pair>,
}

impl Fused {
    /// The path from `from` to `to`, if the pair qualifies and the machine
    /// runs the kernel: the source has SIMD tables and a shape, reads values
    /// as its table does (no `premap`), bounded, without rules across values;
    /// the target has wide forms and no rules across values.
    pub(super) fn of(from: &dyn DynCodec, to: &dyn DynCodec) -> Option<Fused> {
        let isa = Isa::detect().filter(|&isa| isa == Isa::Avx512)?;
        let forms = &to.info().wide_forms;
        let plain = |c: &dyn DynCodec| !c.info().unbounded && c.dfa().contexts() == 1;
        if !forms.is_some() || from.premapped() || !plain(from) || !plain(to) {
            return None;
        }
        let dfa = from.dfa();
        let (units, pair) = forms.simd_units();
        Some(Fused { isa, tables: *dfa.simd()?, shape: dfa.decoding_shape()?, units, pair })
    }

    /// Converts a prefix of `block` (which ends before a lead or at the end of
    /// the input) if the block is valid: the units taken (0 when it is not,
    /// or when the kernel took nothing) and the value of the last sequence
    /// taken.
    pub(super) fn convert(&self, block: &[u8], out: &mut Vec<u8>) -> (usize, Option<u64>) {
        if simd::validate(self.isa, &self.tables, block).is_err() {
            return (0, None);
        }
        let took = simd::decode_to_units(self.isa, &self.shape, &self.units, self.pair.as_ref(), block, out);
        let last = (took > 0).then(|| {
            let start = (0..took).rev().find(|&k| !self.tables.is_continuation(block[k])).unwrap_or(0);
            self.shape.value(&block[start..took])
        });
        (took, last)
    }
}
