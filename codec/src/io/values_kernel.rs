//! Blocks of values into a target of the UTF-8 family by the kernel that
//! converts wide code units ([`UnitsEncoder`]), and into a codec of 16-bit
//! code units (UTF-16) by the kernel that rewrites them
//! ([`convert_units`](crate::simd::convert_units)): the generic engine's
//! blocks (a source's bulk decoder, then the target's bulk encoder) write
//! their values with SIMD where the target's forms allow it.
//!
//! A block of values is a UTF-32 text in all but name: narrowed to 32-bit
//! units eight at a time ([`simd::narrow`]), it is what the kernel from
//! UTF-32 reads, and the target's [`ByteForms`](crate::simd::ByteForms)
//! (derived from its encoder) are what it writes; a target's
//! [`WideForms`](crate::WideForms) are what the kernel that rewrites units
//! writes (UTF-16's pairs too, with AVX-512). The kernel stops before
//! a value it does not write (past U+10FFFF, outside the target's values,
//! in a form of the target's other than the ones it has as data); the
//! target's own encoder writes that one, and the kernel goes on after it.
//! Where such values come close together (a CESU-8 target's supplementary
//! values in emoji text), the encoder writes ever longer stretches, so that
//! the kernel is not started for a few values at a time. (The codecs' own
//! bulk encoders double their stretches only where their fast path took
//! nothing at all; a call of this kernel, with its narrowing and its padded
//! last step, costs enough that a take of a few values counts as none.)

use std::vec::Vec;

use crate::simd::{self, Isa, Pair, Units, UnitsEncoder};
use crate::DynCodec;

/// Values narrowed and converted at a time (four kilobytes of 32-bit
/// units, their buffer kept).
const CHUNK: usize = 1024;
/// Where the kernel stops, the target's encoder writes at least this many
/// values; after each time the kernel took fewer than [`SHORT`], twice as
/// many as the time before (up to [`MAX_STRETCH`]), so that where stops
/// come close together the kernel is seldom started for a few values.
const STRETCH: usize = 8;
/// See [`STRETCH`].
const SHORT: usize = 32;
/// See [`STRETCH`].
const MAX_STRETCH: usize = 1024;

/// The values the kernel reads: any below U+110000, as 32-bit units.
const VALUES: Units = Units { bytes: 4, big_endian: false, single: [(0, 0x10_FFFF); 2] };

/// The kernel from values into one target, and its narrowed units.
pub(super) struct ValuesKernel {
    isa: Isa,
    kernel: Into,
    /// The narrowed values of the chunk in hand (kept to reuse its memory).
    wide: Vec<u8>,
}

/// The second kernel of a [`ValuesKernel`], by the target's kind.
enum Into {
    /// Byte forms (the UTF-8 family).
    Bytes(Box<UnitsEncoder>),
    /// 16-bit code units: the values the target writes as single units
    /// (`from.single`) and as its pair, in its byte order (`to`).
    Wide { from: Units, pair: Option<Pair>, to: Units },
}

impl ValuesKernel {
    /// The kernel into `to`, where the machine runs it (AVX2 or AVX-512),
    /// `to` has forms of several lengths that it writes
    /// ([`ByteForms::multi_unit`](crate::simd::ByteForms::multi_unit)) or
    /// wide forms of 16-bit units ([`WideForms`](crate::WideForms)), and no rule that needs
    /// more than its values: bounded and without `premap`. (It ignores
    /// rules across values: the caller writes the values a rule looks past
    /// apart, [`crate::encode_around_rules`].)
    pub(super) fn of(to: &dyn DynCodec) -> Option<ValuesKernel> {
        // (The values are narrowed to 32-bit units first, with AVX2.)
        let isa = Isa::detect().filter(|&isa| simd::narrows_on(isa))?;
        if to.info().unbounded || to.premapped() {
            return None;
        }
        let (bytes, wide) = (to.info().byte_forms.filter(|f| f.multi_unit()), to.info().wide_forms);
        let kernel = match bytes {
            Some(forms) => Into::Bytes(Box::new(UnitsEncoder::new(isa, &VALUES, None, &forms)?)),
            // (Into 32-bit units, the target's bulk encoder narrows its
            // values straight into them, one pass where this takes two:
            // LEB128 into UTF-32LE, mixed text, 1.42 GB/s against 1.25.)
            None if wide.units.unit_bytes() == 2 && simd::converts_units_on(isa) => {
                let (to, pair) = wide.simd_units();
                Into::Wide { from: Units { single: wide.single, ..VALUES }, pair, to }
            }
            None => return None,
        };
        Some(ValuesKernel { isa, kernel, wide: Vec::with_capacity(4 * CHUNK) })
    }

    /// The narrowed values at the start of `wide` that the kernel writes,
    /// written: their number.
    fn write(&self, wide: &[u8], out: &mut Vec<u8>) -> usize {
        let bytes = match &self.kernel {
            Into::Bytes(kernel) => kernel.encode(wide, out),
            Into::Wide { from, pair, to } => simd::convert_units(self.isa, from, pair.as_ref(), to, wide, out),
        };
        bytes / 4
    }

    /// Writes `values` with `to` (whose kernel this is), none of them right
    /// after a value a rule of `to` looks past but the first: `Err(k)` where
    /// `to` refuses value `k`, everything before it written, as
    /// [`DynCodec::encode_block`] does.
    pub(super) fn encode(&mut self, to: &dyn DynCodec, values: &[u64], out: &mut Vec<u8>) -> Result<(), usize> {
        // `self.wide` holds values `from..narrowed`, narrowed.
        let (mut at, mut from, mut narrowed) = (0, 0, 0);
        let mut stretch = STRETCH;
        while at < values.len() {
            if at >= narrowed {
                self.wide.clear();
                // (Where stops come close together, the kernel takes a few
                // values at a time: fewer are narrowed for it.)
                let end = values.len().min(at + if stretch > STRETCH { SHORT } else { CHUNK });
                (from, narrowed) = (at, at + simd::narrow(self.isa, &VALUES, &values[at..end], &mut self.wide));
            }
            let took = match at < narrowed {
                true => self.write(&self.wide[4 * (at - from)..4 * (narrowed - from)], out),
                false => 0,
            };
            at += took;
            if took >= SHORT {
                stretch = STRETCH;
            }
            if at == values.len() || (took > 0 && at == narrowed) {
                continue;
            }
            // The kernel stopped before a value, or narrowing before a group
            // of eight holding one past U+10FFFF (or the last few values):
            // the encoder writes them (no rule of the target looks at them).
            let end = values.len().min(at + stretch);
            to.encode_block(None, &values[at..end], out).map_err(|refused| at + refused)?;
            at = end;
            if took < SHORT {
                stretch = (2 * stretch).min(MAX_STRETCH);
            }
        }
        Ok(())
    }
}
