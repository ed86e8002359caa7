//! Writing values as 16- or 32-bit code units equal to them: the conversion
//! engine's fast path into UTF-16 and UTF-32, eight values per step.
//!
//! [`narrow`] takes the values (`u64`, as the engine's blocks hold them) eight
//! at a time while all eight lie in two ranges of values that the target
//! writes as one code unit of themselves (the target's single-unit forms,
//! which the compiler derives), and writes them as code units in the
//! target's byte order. It stops before the first group of eight with a value
//! outside, which the caller writes one by one (a surrogate pair, a value the
//! target refuses). With AVX2 a step is two loads, two lane permutes, an
//! unsigned range check and a pack; with AVX-512 one load, two range checks
//! of 64-bit lanes and one narrowing move; elsewhere it takes nothing and
//! the caller does all the work.
//!
//! ```
//! use placemat_simd::{narrow, Isa, Units};
//! let values: Vec<u64> = "naïve café, 日本語 text!".chars().map(u64::from).collect();
//! let units = Units { bytes: 2, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
//! let mut out = Vec::new();
//! let taken = Isa::detect().map_or(0, |isa| narrow(isa, &units, &values, &mut out));
//! assert_eq!(taken % 8, 0);
//! let expected: Vec<u8> = values[..taken].iter().flat_map(|&v| (v as u16).to_le_bytes()).collect();
//! assert_eq!(out, expected);
//! ```

use alloc::vec::Vec;

use crate::{Isa, Pair};

/// The code units [`narrow`] writes: their width and byte order, and the
/// values written as one unit of themselves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Units {
    /// 2 or 4.
    pub bytes: usize,
    /// Most significant byte first.
    pub big_endian: bool,
    /// Two inclusive ranges of values (one repeated when there is one).
    pub single: [(u32, u32); 2],
}

impl Units {
    /// The code unit in `bytes` (its width, in the units' byte order).
    pub fn read(&self, bytes: &[u8]) -> u32 {
        let v = bytes.iter().fold(0u32, |v, &x| v << 8 | u32::from(x));
        if self.big_endian {
            v
        } else {
            v.swap_bytes() >> (32 - 8 * bytes.len())
        }
    }

    /// Whether `unit` is one of the values written as one unit of itself.
    pub fn is_single(&self, unit: u32) -> bool {
        self.single.iter().any(|&(lo, hi)| lo <= unit && unit <= hi)
    }

    /// The value of the last sequence of `taken`, whole single units and
    /// pairs of `pair` as these units write them (a single unit, else a
    /// pair's two); `None` for nothing taken.
    pub fn last_value(&self, pair: Option<&Pair>, taken: &[u8]) -> Option<u32> {
        let (b, n) = (self.bytes, taken.len());
        let unit = self.read(taken.get(n.checked_sub(b)?..)?);
        let joined = pair.filter(|_| !self.is_single(unit) && n >= 2 * b);
        Some(joined.and_then(|p| p.join(self.read(&taken[n - 2 * b..n - b]), unit)).unwrap_or(unit))
    }

    /// The same units with each range cut at the largest unit of the width
    /// (a 16-bit unit holds no value above FFFF) and an empty range (low end
    /// above high end) replaced by the other one; `None` when both are empty.
    pub(crate) fn normalised(&self) -> Option<Units> {
        let top = if self.bytes == 2 { 0xFFFF } else { u32::MAX };
        let [a, b] = self.single.map(|(lo, hi)| (lo, hi.min(top))).map(|(lo, hi)| (lo <= hi).then_some((lo, hi)));
        let single = match (a, b) {
            (Some(a), Some(b)) => [a, b],
            (Some(r), None) | (None, Some(r)) => [r, r],
            (None, None) => return None,
        };
        Some(Units { single, ..*self })
    }
}

/// Whether [`narrow`] has a kernel for `isa` (AVX2 or AVX-512); without
/// one it takes nothing.
pub const fn narrows_on(isa: Isa) -> bool {
    matches!(isa, Isa::Avx2 | Isa::Avx512) && cfg!(all(target_arch = "x86_64", target_feature = "sse2"))
}

/// Appends the longest run of whole groups of eight `values` that all lie in
/// `units.single`, as code units; returns the values taken (a multiple of
/// eight; 0 without a kernel for `isa`, or for a width other than 2 and 4).
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn narrow(isa: Isa, units: &Units, values: &[u64], out: &mut Vec<u8>) -> usize {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    if !matches!(units.bytes, 2 | 4) {
        return 0;
    }
    let Some(units) = units.normalised() else { return 0 };
    run(isa, &units, values, out)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn run(isa: Isa, units: &Units, values: &[u64], out: &mut Vec<u8>) -> usize {
    if !narrows_on(isa) {
        return 0;
    }
    out.reserve(values.len() * units.bytes);
    let start = out.len();
    // SAFETY: `narrow` checked that the machine has AVX2 (AVX-512, where
    // `isa` says so); `out` has room for `values.len() * units.bytes` more
    // bytes, and the kernel writes `units.bytes` per value taken.
    let taken = unsafe {
        match isa {
            Isa::Avx512 => avx512::narrow(units, values, out.as_mut_ptr().add(start)),
            _ => avx2::narrow(units, values, out.as_mut_ptr().add(start)),
        }
    };
    // SAFETY: the kernel initialised `taken * units.bytes` bytes after `start`,
    // within the capacity reserved.
    unsafe { out.set_len(start + taken * units.bytes) };
    taken
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn run(_: Isa, _: &Units, _: &[u64], _: &mut Vec<u8>) -> usize {
    0
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx2 {
    use core::arch::x86_64::*;

    use super::Units;

    /// The kernel: values taken, `units.bytes` written per value.
    ///
    /// # Safety
    /// The machine must have AVX2, and `out` must be valid for writes of
    /// `values.len() * units.bytes` bytes.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn narrow(units: &Units, values: &[u64], out: *mut u8) -> usize {
        let [(a, b), (c, d)] = units.single;
        let (lo_a, wide_a) = (_mm256_set1_epi32(a as i32), _mm256_set1_epi32(b.wrapping_sub(a) as i32));
        let (lo_c, wide_c) = (_mm256_set1_epi32(c as i32), _mm256_set1_epi32(d.wrapping_sub(c) as i32));
        // Low halves of four u64 lanes to the low 128 bits, high halves above.
        let halves = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
        let swap = byte_swap(units);
        let mut i = 0;
        while let Some(eight) = values.get(i..i + 8) {
            // SAFETY: `eight` is 64 readable bytes.
            let (v0, v1) = unsafe {
                (_mm256_loadu_si256(eight.as_ptr().cast()), _mm256_loadu_si256(eight.as_ptr().add(4).cast()))
            };
            let (p0, p1) = (_mm256_permutevar8x32_epi32(v0, halves), _mm256_permutevar8x32_epi32(v1, halves));
            let low = _mm256_permute2x128_si256::<0x20>(p0, p1);
            let high = _mm256_permute2x128_si256::<0x31>(p0, p1);
            let in_range = |lo: __m256i, wide: __m256i| {
                let off = _mm256_sub_epi32(low, lo);
                _mm256_cmpeq_epi32(_mm256_min_epu32(off, wide), off)
            };
            let ok = _mm256_or_si256(in_range(lo_a, wide_a), in_range(lo_c, wide_c));
            if _mm256_testz_si256(high, high) == 0 || _mm256_movemask_epi8(ok) != -1 {
                break;
            }
            // SAFETY: value `i + 7` exists, so `(i + 8) * units.bytes` bytes
            // are within the caller's room.
            unsafe { store(units.bytes, swap, low, out.add(i * units.bytes)) };
            i += 8;
        }
        i
    }

    /// The shuffle that reverses each code unit's bytes, for big-endian units
    /// (`None` for little-endian ones, written as they are).
    #[target_feature(enable = "avx2")]
    fn byte_swap(units: &Units) -> Option<__m256i> {
        let swap16 = _mm256_setr_epi8(
            1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
        );
        let swap32 = _mm256_setr_epi8(
            3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
        );
        units.big_endian.then_some(if units.bytes == 2 { swap16 } else { swap32 })
    }

    /// Eight 32-bit lanes (each below 2^16 for 2-byte units) as code units.
    ///
    /// # Safety
    /// `out` must be valid for writes of `8 * bytes` bytes.
    #[target_feature(enable = "avx2")]
    unsafe fn store(bytes: usize, swap: Option<__m256i>, low: __m256i, out: *mut u8) {
        if bytes == 4 {
            let units = swap.map_or(low, |s| _mm256_shuffle_epi8(low, s));
            // SAFETY: 32 writable bytes, as the caller vouches.
            unsafe { _mm256_storeu_si256(out.cast(), units) };
            return;
        }
        // Per 128-bit half: four u16 twice; keep quads 0 and 2.
        let packed = _mm256_permute4x64_epi64::<0b1000>(_mm256_packus_epi32(low, low));
        let units = swap.map_or(packed, |s| _mm256_shuffle_epi8(packed, s));
        // SAFETY: 16 writable bytes, as the caller vouches.
        unsafe { _mm_storeu_si128(out.cast(), _mm256_castsi256_si128(units)) };
    }
}

/// The kernel with 512-bit vectors: a group of eight values is one load,
/// checked against both ranges as 64-bit lanes (a value past 2^32 fails
/// the check itself), and narrowed by one `vpmovqd` or `vpmovqw`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx512 {
    use core::arch::x86_64::*;

    use super::Units;

    /// The kernel: values taken, `units.bytes` written per value.
    ///
    /// # Safety
    /// The machine must have AVX-512 F, BW and VL, and `out` must be valid
    /// for writes of `values.len() * units.bytes` bytes.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    pub(super) unsafe fn narrow(units: &Units, values: &[u64], out: *mut u8) -> usize {
        let [(a, b), (c, d)] = units.single.map(|(lo, hi)| (u64::from(lo), u64::from(hi)));
        let (lo_a, wide_a) = (_mm512_set1_epi64(a as i64), _mm512_set1_epi64((b - a) as i64));
        let (lo_c, wide_c) = (_mm512_set1_epi64(c as i64), _mm512_set1_epi64((d - c) as i64));
        let (swap16, swap32) = (
            _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14),
            _mm256_setr_epi8(
                3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13,
                12,
            ),
        );
        let mut i = 0;
        while let Some(eight) = values.get(i..i + 8) {
            // SAFETY: `eight` is 64 readable bytes.
            let v = unsafe { _mm512_loadu_si512(eight.as_ptr().cast()) };
            let in_a = _mm512_cmple_epu64_mask(_mm512_sub_epi64(v, lo_a), wide_a);
            let in_c = _mm512_cmple_epu64_mask(_mm512_sub_epi64(v, lo_c), wide_c);
            if in_a | in_c != u8::MAX {
                break;
            }
            let at = i * units.bytes;
            if units.bytes == 4 {
                let narrow = _mm512_cvtepi64_epi32(v);
                let narrow = if units.big_endian { _mm256_shuffle_epi8(narrow, swap32) } else { narrow };
                // SAFETY: value `i + 7` exists, so `at + 32` bytes are within
                // the caller's room.
                unsafe { _mm256_storeu_si256(out.add(at).cast(), narrow) };
            } else {
                let narrow = _mm512_cvtepi64_epi16(v);
                let narrow = if units.big_endian { _mm_shuffle_epi8(narrow, swap16) } else { narrow };
                // SAFETY: as above, `at + 16` bytes.
                unsafe { _mm_storeu_si128(out.add(at).cast(), narrow) };
            }
            i += 8;
        }
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_value_is_the_last_unit_or_pair() {
        let pair = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };
        let text = "a\u{E9}\u{1F600}";
        for big_endian in [false, true] {
            let units = Units { bytes: 2, big_endian, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
            let bytes: Vec<u8> =
                text.encode_utf16().flat_map(|u| if big_endian { u.to_be_bytes() } else { u.to_le_bytes() }).collect();
            assert_eq!(units.read(&bytes[2..4]), 0xE9);
            assert!(units.is_single(0xE9) && !units.is_single(0xD83D));
            assert_eq!(units.last_value(Some(&pair), &bytes), Some(0x1F600));
            assert_eq!(units.last_value(Some(&pair), &bytes[..4]), Some(0xE9));
            // Without the pair, or with its first unit alone: the unit itself.
            assert_eq!(units.last_value(None, &bytes), Some(0xDE00));
            assert_eq!(units.last_value(Some(&pair), &bytes[..6]), Some(0xD83D));
            assert_eq!(units.last_value(Some(&pair), &[]), None);
        }
        let wide = Units { bytes: 4, big_endian: false, single: [(0, 0x10_FFFF); 2] };
        assert_eq!(wide.last_value(None, &0x1F600u32.to_le_bytes()), Some(0x1F600));
        // The pair's units read back, and nothing else.
        for v in [0x1_0000, 0x1_F600, 0x10_FFFF] {
            let (h, l) = pair.units(v);
            assert_eq!(pair.join(h, l), Some(v));
        }
        assert_eq!((pair.high_units(), pair.low_units()), ((0xD800, 0xDBFF), (0xDC00, 0xDFFF)));
        assert_eq!(pair.join(0xDC00, 0xDC00), None);
        assert_eq!(pair.join(0xD800, 0xE000), None);
    }

    fn expected(units: &Units, values: &[u64]) -> Vec<u8> {
        crate::testing::written(units, values.iter().copied())
    }

    fn taken_by_groups(units: &Units, values: &[u64]) -> usize {
        let inside = |v: u64| units.single.iter().any(|&(lo, hi)| u64::from(lo) <= v && v <= u64::from(hi));
        values.chunks_exact(8).take_while(|g| g.iter().all(|&v| inside(v))).count() * 8
    }

    #[test]
    fn every_width_and_order_against_the_definition() {
        let Some(isa) = Isa::detect() else { return };
        let mut next = crate::testing::xorshift(0x2545_F491_4F6C_DD1D);
        let cases = [
            (2, [(0, 0xD7FF), (0xE000, 0xFFFF)]),
            (4, [(0, 0xD7FF), (0xE000, 0x10FFFF)]),
            (2, [(1, 0), (0x20, 0xD7FF)]),
            (4, [(0x100, 0x10FFFF), (5, 4)]),
            (2, [(1, 0), (1, 0)]),
        ];
        for (bytes, single) in cases {
            let top = single.iter().filter(|r| r.0 <= r.1).map(|r| r.1).max().unwrap_or(0xFFFF);
            for big_endian in [false, true] {
                let units = Units { bytes, big_endian, single };
                for round in 0..400 {
                    // Mostly inside; now and then a surrogate, a value past the
                    // top, one past 2^32 that wraps into range, or 2^64 − 1.
                    let values: Vec<u64> = (0..40)
                        .map(|_| match next() % 64 {
                            0 => 0xD800 + next() % 0x800,
                            1 => 0x11_0000 + next() % 100,
                            2 => (1 << 32) + next() % 0x100,
                            3 => u64::MAX,
                            _ => next() % (u64::from(top) + 1),
                        })
                        .collect();
                    let mut out = vec![7];
                    let taken = narrow(isa, &units, &values, &mut out);
                    let want =
                        if matches!(isa, Isa::Avx2 | Isa::Avx512) { taken_by_groups(&units, &values) } else { 0 };
                    assert_eq!(taken, want, "round {round}, {bytes} bytes, big {big_endian}");
                    assert_eq!(out[1..], expected(&units, &values[..taken])[..], "round {round}");
                }
            }
        }
    }
}
