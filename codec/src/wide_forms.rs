//! How a codec of 16- or 32-bit code units writes most values: as one code
//! unit equal to the value, or as a pair of code units that split the value's
//! bits. The conversion engine's bulk encoder for UTF-16 and UTF-32 targets.
//!
//! A codec's encoder picks a form per value and writes each unit's share of
//! the payload. For the wide-unit codecs almost every value takes one of two
//! forms, and each is a few integer operations: UTF-16 writes U+0000–U+D7FF
//! and U+E000–U+FFFF as themselves, and U+10000–U+10FFFF, less 0x10000, as
//! `D800 | high ten bits` and `DC00 | low ten bits`. [`WideForms`] states those
//! two forms as data; the compiler derives them from the description's forms
//! (`placemat_compiler::automaton::wide_forms`, which proves each bit of every
//! unit written against the encoder's own formula), and
//! [`WideForms::encode`] writes a block of values with them in one tight loop
//! per width and byte order, stopping at the first value neither form takes
//! (the codec's encoder then takes it, or refuses it).
//!
//! ```
//! use placemat_codec::{AsciiRuns, PairForm, WideForms};
//! let utf16le = WideForms {
//!     units: AsciiRuns::U16Le,
//!     single: [(0, 0xD7FF), (0xE000, 0xFFFF)],
//!     pair: Some(PairForm { lo: 0x10000, hi: 0x10FFFF, bias: 0x10000, high: 0xD800, low: 0xDC00, low_bits: 10 }),
//! };
//! let mut out = Vec::new();
//! // 'a', 'é', '😀', then a lone surrogate, which neither form writes.
//! assert_eq!(utf16le.encode(&[0x61, 0xE9, 0x1F600, 0xD800, 0x62], &mut out), 3);
//! let expected: Vec<u8> = "aé😀".encode_utf16().flat_map(u16::to_le_bytes).collect();
//! assert_eq!(out, expected);
//! ```

use alloc::vec::Vec;

use crate::AsciiRuns;

/// Values written as a pair of code units: `value − bias` split at
/// `low_bits`, its high part added to `high` in the first unit and its low
/// part to `low` in the second (UTF-16's surrogate pairs).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PairForm {
    /// The first value written so.
    pub lo: u32,
    /// The last value written so.
    pub hi: u32,
    /// Taken off the value before it is split.
    pub bias: u32,
    /// The first unit's fixed bits (its payload bits zero).
    pub high: u32,
    /// The second unit's fixed bits (its payload bits zero).
    pub low: u32,
    /// Payload bits in the second unit: the low end of `value − bias`.
    pub low_bits: u8,
}

/// The forms of a codec of wide code units that [`WideForms::encode`] writes:
/// values in `single` as one code unit equal to the value, values of `pair`
/// as two.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct WideForms {
    /// The code units' width and byte order ([`AsciiRuns::U16Le`] …
    /// [`AsciiRuns::U32Be`]); [`AsciiRuns::None`] for a codec without such
    /// forms (nothing is written).
    pub units: AsciiRuns,
    /// Values written as one code unit of themselves, as two inclusive ranges
    /// (one range repeated when there is one; an empty range `(1, 0)` for none).
    pub single: [(u32, u32); 2],
    /// Values written as two code units, if the codec has such a form.
    pub pair: Option<PairForm>,
}

impl Default for WideForms {
    fn default() -> Self {
        WideForms::NONE
    }
}

/// Writes code units of a width and byte order.
trait Order {
    /// Most significant byte first.
    const BIG_ENDIAN: bool;
    /// One unit.
    fn push(unit: u32, out: &mut Vec<u8>);
    /// Eight units (values that fit the width), in one write.
    fn push8(units: &[u64], out: &mut Vec<u8>);
}

macro_rules! order {
    ($name:ident, $int:ty, $to:ident, $big:literal) => {
        struct $name;
        impl Order for $name {
            const BIG_ENDIAN: bool = $big;
            #[inline(always)]
            fn push(unit: u32, out: &mut Vec<u8>) {
                out.extend_from_slice(&(unit as $int).$to());
            }
            #[inline(always)]
            fn push8(units: &[u64], out: &mut Vec<u8>) {
                const N: usize = core::mem::size_of::<$int>();
                let mut block = [0u8; 8 * N];
                for (slot, &u) in block.chunks_exact_mut(N).zip(units) {
                    slot.copy_from_slice(&(u as $int).$to());
                }
                out.extend_from_slice(&block);
            }
        }
    };
}

order!(U16Le, u16, to_le_bytes, false);
order!(U16Be, u16, to_be_bytes, true);
order!(U32Le, u32, to_le_bytes, false);
order!(U32Be, u32, to_be_bytes, true);

impl WideForms {
    /// No forms: [`WideForms::encode`] writes nothing.
    pub const NONE: WideForms = WideForms { units: AsciiRuns::None, single: [(1, 0); 2], pair: None };

    /// Whether there are forms to write with.
    pub const fn is_some(&self) -> bool {
        matches!(self.units, AsciiRuns::U16Le | AsciiRuns::U16Be | AsciiRuns::U32Le | AsciiRuns::U32Be)
    }

    /// Appends the encodings of the longest prefix of `values` that the two
    /// forms write, and returns its length: the value at that index (if any)
    /// is one neither form takes.
    pub fn encode(&self, values: &[u64], out: &mut Vec<u8>) -> usize {
        // One loop per width and order, so that no branch on them is inside.
        match self.units {
            AsciiRuns::U16Le => self.encode_as::<U16Le>(values, out, 2),
            AsciiRuns::U16Be => self.encode_as::<U16Be>(values, out, 2),
            AsciiRuns::U32Le => self.encode_as::<U32Le>(values, out, 4),
            AsciiRuns::U32Be => self.encode_as::<U32Be>(values, out, 4),
            _ => 0,
        }
    }

    #[inline(always)]
    fn encode_as<O: Order>(&self, values: &[u64], out: &mut Vec<u8>, bytes: usize) -> usize {
        let ranges = self.single.map(|(lo, hi)| (u64::from(lo), u64::from(hi)));
        // (An empty range, low end above high end, holds nothing.)
        let single = |v: u64| (ranges[0].0 <= v && v <= ranges[0].1) | (ranges[1].0 <= v && v <= ranges[1].1);
        let pair = self.pair.filter(|p| p.lo <= p.hi);
        // The worst case, two units per value, reserved once.
        out.reserve(values.len() * 2 * bytes);
        let isa = crate::simd::Isa::detect();
        let units = crate::simd::Units { bytes, big_endian: O::BIG_ENDIAN, single: self.single };
        let mut i = 0;
        while i < values.len() {
            // Runs of single units by the SIMD kernel where there is one.
            if let Some(isa) = isa {
                i += crate::simd::narrow(isa, &units, &values[i..], out);
            }
            // Eight values at once where all eight are single units: no early
            // exit inside, so that the checks and the narrowing are vector code.
            if let Some(eight) = values.get(i..i + 8) {
                if eight.iter().fold(true, |all, &v| all & single(v)) {
                    O::push8(eight, out);
                    i += 8;
                    continue;
                }
            }
            // Else up to eight one by one.
            let end = values.len().min(i + 8);
            for (k, &v) in values[..end].iter().enumerate().skip(i) {
                match pair {
                    _ if single(v) => O::push(v as u32, out),
                    Some(p) if u64::from(p.lo) <= v && v <= u64::from(p.hi) => {
                        let u = v as u32 - p.bias;
                        O::push(p.high + (u >> p.low_bits), out);
                        O::push(p.low + (u & ((1 << p.low_bits) - 1)), out);
                    }
                    _ => return k,
                }
            }
            i = end;
        }
        values.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_ranges_and_no_pair_take_nothing() {
        let values: Vec<u64> = (0xD7FB..0xD7FB + 12).chain([0x10FFFF, 0x110000, 1 << 32, u64::MAX]).collect();
        let utf32 = WideForms { units: AsciiRuns::U32Le, single: [(0, 0xD7FF), (0xE000, 0x10FFFF)], pair: None };
        let mut out = Vec::new();
        // Up to the surrogate, whether the SIMD kernel or the loop takes them.
        assert_eq!(utf32.encode(&values, &mut out), 5);
        // U+10FFFF, then a value past the top.
        assert_eq!(utf32.encode(&values[12..], &mut out), 1);
        assert_eq!(out.len(), 6 * 4);
        // Forms of empty ranges (as `WideForms::NONE` has) write nothing.
        let empty = WideForms { units: AsciiRuns::U16Le, single: [(1, 0); 2], pair: None };
        assert_eq!(empty.encode(&[0, 1, 2, 3, 4, 5, 6, 7, 8], &mut out), 0);
        let empty_pair = PairForm { lo: 1, hi: 0, bias: 0, high: 0, low: 0, low_bits: 0 };
        let pair_only = WideForms { pair: Some(empty_pair), ..empty };
        assert_eq!(pair_only.encode(&[5], &mut out), 0);
        assert_eq!(out.len(), 6 * 4);
    }
}
