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
//! [`WideForms::encode`] writes a block of values with them in one loop per
//! width and byte order (runs of single units by the SIMD kernel
//! `placemat_simd::narrow`, the rest without a branch on the form), stopping
//! at the first value neither form takes (the codec's encoder then takes it,
//! or refuses it).
//!
//! The same forms exist in byte codecs (UTF-8's ASCII and two-byte
//! sequences), but there the values they leave (three and four bytes) are
//! most of the text in many scripts, and switching between this loop and the
//! encoder's measured slower than the encoder alone: the compiler derives
//! them for wide units only.
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
/// part to `low` in the second (UTF-16's surrogate pairs). The SIMD kernels'
/// own type ([`crate::simd::Pair`]), so that the fact has one definition.
pub use crate::simd::Pair as PairForm;

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
    /// Writes `unit` into `buf` at `at`.
    fn put(unit: u32, buf: &mut [u8], at: usize);
}

macro_rules! order {
    ($name:ident, $int:ty, $to:ident, $big:literal) => {
        struct $name;
        impl Order for $name {
            const BIG_ENDIAN: bool = $big;
            #[inline(always)]
            fn put(unit: u32, buf: &mut [u8], at: usize) {
                buf[at..at + core::mem::size_of::<$int>()].copy_from_slice(&(unit as $int).$to());
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

    /// Appends the longest run of whole groups of eight values at the start
    /// of `values` that are all single units, by the SIMD kernel
    /// (`placemat_simd::narrow`); returns its length (0 without a kernel for
    /// this machine).
    pub fn encode_singles(&self, values: &[u64], out: &mut Vec<u8>) -> usize {
        let (Some(isa), true) = (crate::simd::Isa::detect(), self.is_some()) else { return 0 };
        crate::simd::narrow(isa, &self.simd_units().0, values, out)
    }

    /// The forms as the SIMD kernels take them: the units' width, byte order
    /// and single-unit ranges, and the pair form.
    pub(crate) fn simd_units(&self) -> (crate::simd::Units, Option<crate::simd::Pair>) {
        let big_endian = matches!(self.units, AsciiRuns::U16Be | AsciiRuns::U32Be);
        let units = crate::simd::Units { bytes: self.units.unit_bytes(), big_endian, single: self.single };
        (units, self.pair)
    }

    /// The single-unit ranges, each cut at the largest code unit of the width
    /// (a range that starts above it is empty: low end above high end).
    #[inline]
    fn singles(&self) -> [(u64, u64); 2] {
        let top = if self.units.unit_bytes() == 2 { 0xFFFF } else { u64::from(u32::MAX) };
        self.single.map(|(lo, hi)| (u64::from(lo), u64::from(hi).min(top)))
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
        let ranges = self.singles();
        // (An empty range, low end above high end, holds nothing.)
        let single = |v: u64| (ranges[0].0 <= v && v <= ranges[0].1) | (ranges[1].0 <= v && v <= ranges[1].1);
        let pair = self.pair.filter(|p| p.lo <= p.hi);
        let p = pair.unwrap_or(PairForm { lo: 0, hi: 0, bias: 0, high: 0, low: 0, low_bits: 0 });
        let (has_pair, p_lo, p_span) = (pair.is_some(), u64::from(p.lo), u64::from(p.hi - p.lo));
        let low_mask = 1u32.checked_shl(u32::from(p.low_bits)).map_or(u32::MAX, |b| b - 1);
        let isa = crate::simd::Isa::detect();
        let units = crate::simd::Units { bytes, big_endian: O::BIG_ENDIAN, single: self.single };
        // Where the SIMD kernel is tried next: after a group it did not take,
        // the next group goes value by value.
        // After each try of the kernel that takes nothing, the values one by
        // one go on twice as long before the next (up to 1024), so that text
        // where few groups of eight are all single units (emoji between
        // words) does not pay for a failed try every group.
        let (mut i, mut kernel_at, mut backoff) = (0, 0, GROUP);
        while i < values.len() {
            if let Some(isa) = isa.filter(|_| i >= kernel_at) {
                let taken = crate::simd::narrow(isa, &units, &values[i..], out);
                i += taken;
                if taken == 0 {
                    kernel_at = i + backoff;
                    backoff = (2 * backoff).min(1024);
                } else {
                    backoff = GROUP;
                }
                continue;
            }
            // A group one value at a time, written into a local buffer (no
            // capacity check per unit) and appended once.
            let end = values.len().min(i + GROUP);
            let mut buf = [0u8; GROUP * 2 * 4];
            let mut n = 0;
            for (k, &v) in values[..end].iter().enumerate().skip(i) {
                // Both units are written whatever the form, and the pair's
                // second kept only for a pair: no branch on which form, as
                // text that mixes them (emoji between words) would mispredict.
                let in_pair = has_pair & (v.wrapping_sub(p_lo) <= p_span);
                if !(in_pair | single(v)) {
                    out.extend_from_slice(&buf[..n]);
                    return k;
                }
                let u = (v as u32).wrapping_sub(p.bias);
                let high = p.high.wrapping_add(u.checked_shr(u32::from(p.low_bits)).unwrap_or(0));
                let first = if in_pair { high } else { v as u32 };
                O::put(first, &mut buf, n);
                O::put(p.low.wrapping_add(u & low_mask), &mut buf, n + bytes);
                n += bytes << usize::from(in_pair);
            }
            out.extend_from_slice(&buf[..n]);
            i = end;
        }
        values.len()
    }
}

/// Values [`WideForms::encode`] writes one at a time between tries of the
/// SIMD kernel.
const GROUP: usize = 32;

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
