//! Runs of wide code units that are values of themselves: what lets the table
//! walkers copy (or skip) UTF-16 and UTF-32 text a code unit at a time instead
//! of walking its bytes through the automaton.
//!
//! The automaton reads bytes, so a 16-bit code unit is two steps and a 32-bit
//! one four, each a dependent table read. Most UTF-16 and UTF-32 text is code
//! units that are whole sequences of their own value: every unit of
//! `0000`–`D7FF` and `E000`–`FFFF` in UTF-16, every scalar value in UTF-32.
//! [`WideRuns`] names at most two such ranges of code units, of one width and
//! byte order; the compiler derives them from the automaton and `Dfa::new`
//! checks every unit in them (see `dfa::check`). At the start state the
//! walkers take the run of such units with one comparison per range and unit,
//! thirty-two bytes at a time, and walk the automaton only from the first unit
//! outside the ranges (a surrogate, or a trailing odd byte). The bulk
//! decoder of such a codec ([`decode_wide`]) reads its blocks with the SIMD
//! kernel that rewrites wide units, pairs joined into their values.
//!
//! ```
//! use placemat_codec::{AsciiRuns, WideRuns};
//! let utf16le = WideRuns { units: AsciiRuns::U16Le, ranges: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
//! let text: Vec<u8> = "日本語 text".encode_utf16().flat_map(u16::to_le_bytes).collect();
//! assert_eq!(utf16le.prefix(&text), text.len());
//! let pair: Vec<u8> = "ab😀".encode_utf16().flat_map(u16::to_le_bytes).collect();
//! assert_eq!(utf16le.prefix(&pair), 4); // the run ends at the high surrogate
//! assert_eq!(utf16le.values(&pair[..4]).collect::<Vec<_>>(), [0x61, 0x62]);
//! assert_eq!(WideRuns::NONE.prefix(&text), 0);
//! ```

use alloc::vec::Vec;

use crate::dfa::Dfa;
use crate::{AsciiRuns, CodecInfo, Value, WideForms};

/// Code units of two or four bytes that are whole sequences of themselves from
/// the start state (of context 0), as at most two inclusive ranges.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct WideRuns {
    /// The code units' width and byte order: [`AsciiRuns::U16Le`],
    /// [`AsciiRuns::U16Be`], [`AsciiRuns::U32Le`] or [`AsciiRuns::U32Be`];
    /// [`AsciiRuns::None`] for no wide runs (the ranges are then not read).
    pub units: AsciiRuns,
    /// The ranges of code units, inclusive, low end first; a codec with one
    /// range repeats it.
    pub ranges: [(u32, u32); 2],
}

impl Default for WideRuns {
    fn default() -> Self {
        WideRuns::NONE
    }
}

/// How to read one code unit of a width and byte order.
trait Order {
    const BYTES: usize;
    fn read(bytes: &[u8]) -> u32;
}

macro_rules! order {
    ($name:ident, $int:ty, $from:ident) => {
        struct $name;
        impl Order for $name {
            const BYTES: usize = core::mem::size_of::<$int>();
            #[inline(always)]
            fn read(bytes: &[u8]) -> u32 {
                let mut unit = [0; core::mem::size_of::<$int>()];
                unit.copy_from_slice(&bytes[..Self::BYTES]);
                u32::from(<$int>::$from(unit))
            }
        }
    };
}

order!(U16Le, u16, from_le_bytes);
order!(U16Be, u16, from_be_bytes);
order!(U32Le, u32, from_le_bytes);
order!(U32Be, u32, from_be_bytes);

impl WideRuns {
    /// No wide runs.
    pub const NONE: WideRuns = WideRuns { units: AsciiRuns::None, ranges: [(1, 0); 2] };

    /// Whether there are wide runs at all.
    pub const fn is_some(self) -> bool {
        matches!(self.units, AsciiRuns::U16Le | AsciiRuns::U16Be | AsciiRuns::U32Le | AsciiRuns::U32Be)
    }

    /// Whether code unit `u` lies in one of the ranges.
    #[inline(always)]
    pub const fn includes(self, u: u32) -> bool {
        let [(a, b), (c, d)] = self.ranges;
        (u.wrapping_sub(a) <= b.wrapping_sub(a)) | (u.wrapping_sub(c) <= d.wrapping_sub(c))
    }

    /// The length in bytes of the run of whole code units in the ranges at the
    /// start of `bytes` (0 without wide runs).
    #[inline(always)]
    pub fn prefix(self, bytes: &[u8]) -> usize {
        // One loop per width and order, so that no branch on them is inside.
        match self.units {
            AsciiRuns::U16Le => self.run::<U16Le>(bytes),
            AsciiRuns::U16Be => self.run::<U16Be>(bytes),
            AsciiRuns::U32Le => self.run::<U32Le>(bytes),
            AsciiRuns::U32Be => self.run::<U32Be>(bytes),
            _ => 0,
        }
    }

    /// The values of a run [`WideRuns::prefix`] found: its code units.
    pub fn values(self, run: &[u8]) -> impl Iterator<Item = u32> + '_ {
        let (bytes, big) = match self.units {
            AsciiRuns::U16Le => (2, false),
            AsciiRuns::U16Be => (2, true),
            AsciiRuns::U32Le => (4, false),
            AsciiRuns::U32Be => (4, true),
            _ => (1, false),
        };
        run.chunks_exact(bytes).map(move |c| match (bytes, big) {
            (2, false) => U16Le::read(c),
            (2, true) => U16Be::read(c),
            (4, false) => U32Le::read(c),
            (4, true) => U32Be::read(c),
            _ => 0,
        })
    }

    /// Appends the values of a run [`WideRuns::prefix`] found to `out`.
    #[inline(always)]
    pub(crate) fn extend<V: Value>(self, run: &[u8], out: &mut Vec<V>) {
        match self.units {
            AsciiRuns::U16Le => extend::<U16Le, V>(run, out),
            AsciiRuns::U16Be => extend::<U16Be, V>(run, out),
            AsciiRuns::U32Le => extend::<U32Le, V>(run, out),
            AsciiRuns::U32Be => extend::<U32Be, V>(run, out),
            _ => {}
        }
    }

    /// The runs as the SIMD kernels take them: their units' width, byte
    /// order and ranges (`None` without wide runs).
    pub(crate) fn simd_units(self) -> Option<crate::simd::Units> {
        let big_endian = match self.units {
            AsciiRuns::U16Le | AsciiRuns::U32Le => false,
            AsciiRuns::U16Be | AsciiRuns::U32Be => true,
            _ => return None,
        };
        Some(crate::simd::Units { bytes: self.units.unit_bytes(), big_endian, single: self.ranges })
    }

    /// How the SIMD kernels read a source of these runs whose encoder
    /// writes `forms` and whose longest sequence is `max_units` bytes: the
    /// runs as single units, and the pair form, for a source of at most two
    /// units a sequence whose pair's units are no single units (`None`
    /// without wide runs).
    pub(crate) fn source_units(
        self,
        forms: &WideForms,
        max_units: Option<usize>,
    ) -> Option<(crate::simd::Units, Option<crate::simd::Pair>)> {
        let units = self.simd_units()?;
        let (_, pair) = forms.simd_units();
        let pair = pair.filter(|p| {
            let overlaps = |(lo, hi): (u32, u32)| self.ranges.iter().any(|&(a, b)| a <= hi && lo <= b);
            forms.units == self.units
                // (Sequences are counted in bytes.)
                && max_units == Some(2 * units.bytes)
                && !overlaps(p.high_units())
                && !overlaps(p.low_units())
        });
        Some((units, pair))
    }

    /// The code units of these runs that `forms` writes as one code unit of
    /// the same value, as at most two inclusive ranges (the two widest where
    /// the two facts leave more): a run of them converts between the two
    /// codecs unit for unit, without values (widened, narrowed or its bytes
    /// swapped). `None` where there is no such unit, or either fact is none.
    ///
    /// ```
    /// use placemat_codec::{AsciiRuns, WideForms, WideRuns};
    /// let utf16le = WideRuns { units: AsciiRuns::U16Le, ranges: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
    /// let utf32be = WideForms { units: AsciiRuns::U32Be, single: [(0, 0xD7FF), (0xE000, 0x10FFFF)], pair: None };
    /// assert_eq!(utf16le.written_alike(&utf32be), Some([(0, 0xD7FF), (0xE000, 0xFFFF)]));
    /// assert_eq!(utf16le.written_alike(&WideForms::NONE), None);
    /// ```
    pub fn written_alike(self, forms: &WideForms) -> Option<[(u32, u32); 2]> {
        if !self.is_some() || !forms.is_some() {
            return None;
        }
        let mut both: Vec<(u32, u32)> = Vec::new();
        for &(a, b) in &self.ranges {
            for &(c, d) in &forms.single {
                let (lo, hi) = (a.max(c), b.min(d));
                if lo <= hi && !both.contains(&(lo, hi)) {
                    both.push((lo, hi));
                }
            }
        }
        // Ranges that overlap or touch made one, then the widest first.
        both.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::new();
        for (lo, hi) in both {
            match merged.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        merged.sort_unstable_by_key(|&(lo, hi)| core::cmp::Reverse(hi - lo));
        let first = *merged.first()?;
        let second = merged.get(1).copied().unwrap_or(first);
        Some(if second < first { [second, first] } else { [first, second] })
    }

    /// Whole 32-byte blocks of units in the ranges, then single units.
    #[inline(always)]
    fn run<O: Order>(self, bytes: &[u8]) -> usize {
        let mut n = 0;
        while let Some(block) = bytes[n..].first_chunk::<32>() {
            if !self.block::<O>(block) {
                break;
            }
            n += 32;
        }
        while let Some(unit) = bytes.get(n..n + O::BYTES) {
            if !self.includes(O::read(unit)) {
                break;
            }
            n += O::BYTES;
        }
        n
    }

    /// Whether every unit of a block lies in the ranges: no early exit and
    /// integer masks, so that the compiler turns it into vector compares.
    #[inline(always)]
    fn block<O: Order>(self, block: &[u8; 32]) -> bool {
        if O::BYTES == 2 {
            return self.block16::<O>(block);
        }
        let [(a, b), (c, d)] = self.ranges;
        let (wide_a, wide_c) = (b.wrapping_sub(a), d.wrapping_sub(c));
        let mut outside = 0u32;
        for unit in block.chunks_exact(O::BYTES) {
            let u = O::read(unit);
            outside |= u32::from(u.wrapping_sub(a) > wide_a) & u32::from(u.wrapping_sub(c) > wide_c);
        }
        outside == 0
    }

    /// [`WideRuns::block`] for 16-bit units, compared as 16-bit numbers: twice
    /// the units per vector compare (the ranges, which `Dfa::new` checks lie
    /// in `0..=FFFF` for 16-bit units, are clamped to it all the same).
    #[inline(always)]
    fn block16<O: Order>(self, block: &[u8; 32]) -> bool {
        let narrow = |(a, b): (u32, u32)| (a.min(0xFFFF) as u16, b.min(0xFFFF) as u16);
        let ((a, b), (c, d)) = (narrow(self.ranges[0]), narrow(self.ranges[1]));
        let (wide_a, wide_c) = (b.wrapping_sub(a), d.wrapping_sub(c));
        let mut outside = 0u16;
        for unit in block.chunks_exact(2) {
            let u = O::read(unit) as u16;
            outside |= u16::from(u.wrapping_sub(a) > wide_a) & u16::from(u.wrapping_sub(c) > wide_c);
        }
        outside == 0
    }
}

#[inline(always)]
fn extend<O: Order, V: Value>(run: &[u8], out: &mut Vec<V>) {
    out.extend(run.chunks_exact(O::BYTES).map(|c| V::from_u64_lossy(u64::from(O::read(c)))));
}

/// How [`decode_to_cut`](crate::decode_to_cut) reads a codec of wide code units by the SIMD
/// kernel on this machine: the instruction set, the units and the pair
/// form (`None` for a codec of other units, with rules across values or
/// pending values, or without a kernel).
pub(crate) fn wide_source(
    info: &CodecInfo,
    dfa: &Dfa<&[u32], &[u64]>,
) -> Option<(crate::simd::Isa, crate::simd::Units, Option<crate::simd::Pair>)> {
    let plain = dfa.contexts() == 1 && !dfa.has_pending();
    let (units, pair) = dfa.facts().wide_runs.source_units(&info.wide_forms, info.max_units).filter(|_| plain)?;
    let isa = crate::simd::Isa::detect().filter(|&isa| crate::simd::converts_units_on(isa))?;
    Some((isa, units, pair))
}

/// [`decode_to_cut`](crate::decode_to_cut) for a codec of wide code units (UTF-16, UTF-32): its
/// runs of single units and pairs rewritten as 32-bit units of their values
/// by the SIMD kernel (`placemat_simd::convert_units`), a piece at a time,
/// and a sequence the kernel does not take (a pair, on a machine whose
/// kernel takes none) by the table's step, up to the first unit that starts
/// no value or a sequence the input's end cuts; the units taken (0 without
/// a kernel).
pub(crate) fn decode_wide(info: &CodecInfo, dfa: &Dfa<&[u32], &[u64]>, input: &[u8], out: &mut Vec<u64>) -> usize {
    /// The most input rewritten at a time, so that the 32-bit units stay in
    /// cache.
    const PIECE: usize = 1 << 13;
    let Some((isa, units, pair)) = wide_source(info, dfa) else { return 0 };
    // Every value as one unit of itself: a pair is joined into its value.
    let values = crate::simd::Units { bytes: 4, big_endian: false, single: [(0, u32::MAX); 2] };
    let (mut scratch, mut taken) = (Vec::new(), 0);
    while taken < input.len() {
        let piece = &input[taken..input.len().min(taken + PIECE)];
        scratch.clear();
        let n = crate::simd::convert_units(isa, &units, pair.as_ref(), &values, piece, &mut scratch);
        out.extend(scratch.chunks_exact(4).map(|u| u64::from(u32::from_le_bytes([u[0], u[1], u[2], u[3]]))));
        taken += n;
        if n == 0 {
            match dfa.step(&input[taken..]) {
                crate::Step::Value { value, len } => {
                    out.push(value);
                    taken += len;
                }
                _ => break,
            }
        }
    }
    taken
}
