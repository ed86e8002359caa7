//! Converting valid input of a codec with a [`Shape`] (the UTF-8 family)
//! straight into 16- or 32-bit code units (UTF-16, UTF-32), in one pass and
//! without values in memory: the conversion engine's fast path between the
//! two families.
//!
//! The kernel reads 64 units at a time with AVX-512. Where the units that are
//! no continuation start sequences, one compress of the positions `0..64`
//! lists where the sequences start, and one of the positions before each
//! next start where they end; start and end give each sequence's length (1
//! to 4: a longer one ends the kernel's run). Sixteen sequences at a time, a
//! byte permute gathers each one's units into a 32-bit lane (its last unit
//! lowest, the bytes past its length zeroed), and the multiply-adds of the
//! decoding kernel (`decode/mod.rs`) weigh them and take `K(n)` off. The
//! values are then written as the target's forms say ([`Units`] and
//! [`Pair`], which the compiler derives from the target's description): one
//! unit of itself for a value in a single-unit range, two units for a value
//! in the pair's range (UTF-16's surrogates, joined and then compressed
//! into place with the words of their neighbours), and the run stops before
//! the first value the target writes otherwise, which the caller converts.
//!
//! Sixty-four single-unit values in a row (ASCII) are widened without the
//! gather. Input that is not valid converts to unspecified units but never
//! reads or writes out of bounds: the kernel only moves forward, at least one
//! unit per value written, and writes at most four bytes per unit taken.
//!
//! The lineage: the decoding by compressed positions is the one of Clausecker
//! and Lemire, "Transcoding Unicode Characters with AVX-512 Instructions"
//! (2023), which wrote it by hand for UTF-8; here the widths, byte order,
//! shape and forms are data.
//!
//! ```
//! use placemat_simd::{decode_to_units, Isa, Pair, Shape, Units};
//! let utf8 = Shape { continuation: (0x80, 0xBF), lead_base: [0, 0, 0xC0, 0xE0, 0xF0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] };
//! let utf16le = Units { bytes: 2, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
//! let pair = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };
//! let text = "Ünïcödé, 漢字 and 🎉 ".repeat(20);
//! let mut out = Vec::new();
//! let taken = Isa::detect().map_or(0, |isa| decode_to_units(isa, &utf8, &utf16le, Some(&pair), text.as_bytes(), &mut out));
//! // A prefix at a sequence boundary (none without AVX-512), as UTF-16.
//! let expected: Vec<u8> = text[..taken].encode_utf16().flat_map(u16::to_le_bytes).collect();
//! assert_eq!(out, expected);
//! ```

use alloc::vec::Vec;

use crate::{Isa, Shape, Units};

/// How a target writes a value as two code units: `v − bias` split into its
/// high bits (added to `high`) and its low `low_bits` bits (added to `low`),
/// for values `lo..=hi`. UTF-16's surrogate pairs are
/// `Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 }`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pair {
    /// The least value written as a pair.
    pub lo: u32,
    /// The greatest value written as a pair.
    pub hi: u32,
    /// Taken off the value before it is split.
    pub bias: u32,
    /// Added to the high bits: the first unit.
    pub high: u32,
    /// Added to the low bits: the second unit.
    pub low: u32,
    /// How many bits the second unit carries.
    pub low_bits: u8,
}

impl Pair {
    /// The two units of `v` (which must be in `lo..=hi`).
    pub const fn units(&self, v: u32) -> (u32, u32) {
        let w = v - self.bias;
        (self.high + (w >> self.low_bits), self.low + (w & ((1 << self.low_bits) - 1)))
    }

    /// Whether both units of every value of the pair fit in 16 bits, which
    /// the kernel writes them in.
    pub(crate) const fn fits_16_bits(&self) -> bool {
        if self.lo > self.hi || self.lo < self.bias || self.low_bits > 16 {
            return false;
        }
        let (high, _) = self.units(self.hi);
        high <= 0xFFFF && self.low as u64 + (1u64 << self.low_bits) - 1 <= 0xFFFF && self.high <= 0xFFFF
    }
}

/// Converts a prefix of `input`, which must be valid for a codec of this
/// `shape` (else the units written are unspecified), into code units as
/// `units` and `pair` write them, appending their bytes to `out`; returns the
/// input units taken: at a sequence boundary, before the first value neither
/// writes (or a sequence of five units or more); `input` must end with a
/// whole sequence.
/// Takes nothing without AVX-512 ([`Isa::Avx512`]), for a width other than 2
/// and 4, and ignores a pair with 4-byte units or one whose units do not fit
/// in 16 bits.
///
/// Panics if `isa` is not one [`Isa::all`] lists or `shape` fails
/// [`Shape::check`].
pub fn decode_to_units(
    isa: Isa,
    shape: &Shape,
    units: &Units,
    pair: Option<&Pair>,
    input: &[u8],
    out: &mut Vec<u8>,
) -> usize {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    if let Err(e) = shape.check() {
        panic!("invalid decoding shape: {e}");
    }
    let Some(units) = units.normalised() else { return 0 };
    let pair = pair.filter(|p| units.bytes == 2 && p.fits_16_bits());
    run(isa, shape, &units, pair, input, out)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn run(isa: Isa, shape: &Shape, units: &Units, pair: Option<&Pair>, input: &[u8], out: &mut Vec<u8>) -> usize {
    if isa != Isa::Avx512 {
        return 0;
    }
    // At most four bytes per unit taken (the kernel's docs).
    out.reserve(4 * input.len());
    let start = out.len();
    // SAFETY: `decode_to_units` checked that the machine has AVX-512 (with
    // BMI2), and `out` has room for `4 * input.len()` more bytes.
    let (mut taken, mut written) = unsafe { avx512::convert(shape, units, pair, input, out.as_mut_ptr().add(start)) };
    // The last units, which the kernel's windows do not reach, once more from
    // a copy followed by a sequence too long for the kernel, which stops it.
    let rest = &input[taken..];
    if rest.len() < TAIL {
        let (first, last) = shape.continuation;
        let mut padded = [first; TAIL + 72];
        padded[..rest.len()].copy_from_slice(rest);
        padded[rest.len()] = if last < 0xFF { last + 1 } else { first - 1 };
        // SAFETY: as above; the copy's sequences are the input's, so the
        // kernel writes at most four bytes per unit of `rest` it takes.
        let (t, w) = unsafe { avx512::convert(shape, units, pair, &padded, out.as_mut_ptr().add(start + written)) };
        (taken, written) = (taken + t.min(rest.len()), written + w);
    }
    // SAFETY: the kernel initialised `written <= 4 * taken` bytes after
    // `start`, within the capacity reserved.
    unsafe { out.set_len(start + written) };
    taken
}

/// Input shorter than this after the kernel's run goes through it once more,
/// padded (its windows read 65 units).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
const TAIL: usize = 136;

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn run(_: Isa, _: &Shape, _: &Units, _: Option<&Pair>, _: &[u8], _: &mut Vec<u8>) -> usize {
    0
}

/// The kernel writing every value as a 32-bit little-endian word (values
/// for `decode_u32`): units taken and bytes written.
///
/// # Safety
/// The machine must have AVX-512 ([`Isa::Avx512`]), and `out` must be valid
/// for writes of `4 * input.len()` bytes.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub(crate) unsafe fn decode_words(shape: &Shape, input: &[u8], out: *mut u8) -> (usize, usize) {
    let words = Units { bytes: 4, big_endian: false, single: [(0, u32::MAX); 2] };
    // SAFETY: as the caller vouches; `words` is normalised, without a pair.
    unsafe { avx512::convert(shape, &words, None, input, out) }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx512 {
    use core::arch::x86_64::*;

    use super::Pair;
    use crate::{Shape, Units};

    /// What the kernel needs of the shape and the target, as vectors.
    struct Consts {
        /// The first continuation unit in every byte, and the units' span.
        first: __m512i,
        span: __m512i,
        /// The same, for the one unit after the window.
        first_unit: u8,
        span_unit: u8,
        /// `K(1..=4)` in lanes 0–3.
        bias: __m512i,
        /// The two single-unit ranges: low ends and widths.
        single: [(__m512i, __m512i); 2],
        /// The pair's range (low end, width), bias, units, low bits' mask and count.
        pair: Option<PairConsts>,
        /// Whether 64 single-unit values widen as they are (`K(1)` is 0 and
        /// every unit below 256 is a single unit of itself).
        ascii_direct: bool,
        /// Each 16-bit or 32-bit unit's bytes reversed, for big-endian units.
        swap: Option<__m512i>,
        bytes: usize,
    }

    struct PairConsts {
        lo: __m512i,
        width: __m512i,
        bias: __m512i,
        high: __m512i,
        low: __m512i,
        mask: __m512i,
        shift: __m128i,
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    fn consts(shape: &Shape, units: &Units, pair: Option<&Pair>) -> Consts {
        let (first, last) = shape.continuation;
        let k = shape.bias();
        let range =
            |(lo, hi): (u32, u32)| (_mm512_set1_epi32(lo as i32), _mm512_set1_epi32(hi.wrapping_sub(lo) as i32));
        let swap16: [u8; 16] = [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14];
        let swap32: [u8; 16] = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];
        let swap = if units.bytes == 2 { swap16 } else { swap32 };
        Consts {
            first: _mm512_set1_epi8(first as i8),
            span: _mm512_set1_epi8((last - first) as i8),
            first_unit: first,
            span_unit: last - first,
            bias: _mm512_setr_epi32(
                k[0] as i32,
                k[1] as i32,
                k[2] as i32,
                k[3] as i32,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
            ),
            single: units.single.map(range),
            pair: pair.map(|p| PairConsts {
                lo: _mm512_set1_epi32(p.lo as i32),
                width: _mm512_set1_epi32((p.hi - p.lo) as i32),
                bias: _mm512_set1_epi32(p.bias as i32),
                high: _mm512_set1_epi32(p.high as i32),
                low: _mm512_set1_epi32(p.low as i32),
                mask: _mm512_set1_epi32(((1u32 << p.low_bits) - 1) as i32),
                shift: _mm_cvtsi32_si128(i32::from(p.low_bits)),
            }),
            ascii_direct: k[0] == 0 && units.single.iter().any(|&(lo, hi)| lo == 0 && hi >= 0xFF),
            // SAFETY: 16 readable bytes.
            swap: units.big_endian.then(|| _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(swap.as_ptr().cast()) })),
            bytes: units.bytes,
        }
    }

    /// The kernel: units taken and bytes written.
    ///
    /// # Safety
    /// The machine must have AVX-512 F/BW/VL/VBMI/VBMI2 and BMI2, `units` be
    /// normalised with a width of 2 or 4, `pair` fit in 16 bits and come only
    /// with a width of 2, and `out` be valid for writes of `4 * input.len()`
    /// bytes.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    pub(super) unsafe fn convert(
        shape: &Shape,
        units: &Units,
        pair: Option<&Pair>,
        input: &[u8],
        out: *mut u8,
    ) -> (usize, usize) {
        let c = consts(shape, units, pair);
        let (mut i, mut w) = (0, 0);
        // Invariant: `w <= 4 * i`. Each window reads 65 units from `i` and
        // writes at most four bytes per unit it takes.
        while i + 65 <= input.len() {
            // SAFETY: `i + 64 <= input.len()`.
            let x = unsafe { _mm512_loadu_si512(input.as_ptr().add(i).cast()) };
            let cont = _mm512_cmple_epu8_mask(_mm512_sub_epi8(x, c.first), c.span);
            let leads = !cont;
            let next_is_lead = input[i + 64].wrapping_sub(c.first_unit) > c.span_unit;
            // Bit `j` set where unit `j` is the last of its sequence.
            let ends = leads >> 1 | u64::from(next_is_lead) << 63;
            if leads == u64::MAX && next_is_lead && c.ascii_direct {
                // SAFETY: 64 units taken, at most `4 * 64` bytes written.
                w += unsafe { widen64(&c, x, out.add(w)) };
                i += 64;
                continue;
            }
            // SAFETY: `w <= 4 * i`, and the window writes at most four bytes
            // per unit it takes.
            let (took, wrote, whole) = unsafe { window(&c, x, leads, ends, out.add(w)) };
            (i, w) = (i + took, w + wrote);
            if !whole || took == 0 {
                break;
            }
        }
        (i, w)
    }

    /// Sixty-four single-unit values, each its unit: the bytes written.
    ///
    /// # Safety
    /// `out` must be valid for writes of `64 * c.bytes` bytes.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    unsafe fn widen64(c: &Consts, x: __m512i, out: *mut u8) -> usize {
        let swap = |v: __m512i| c.swap.map_or(v, |s| _mm512_shuffle_epi8(v, s));
        if c.bytes == 2 {
            for h in 0..2 {
                let half = if h == 0 { _mm512_castsi512_si256(x) } else { _mm512_extracti64x4_epi64::<1>(x) };
                // SAFETY: 64 bytes at `64 * h`, within the caller's 128.
                unsafe { _mm512_storeu_si512(out.add(64 * h).cast(), swap(_mm512_cvtepu8_epi16(half))) };
            }
        } else {
            let quarters = [
                _mm512_extracti32x4_epi32::<0>(x),
                _mm512_extracti32x4_epi32::<1>(x),
                _mm512_extracti32x4_epi32::<2>(x),
                _mm512_extracti32x4_epi32::<3>(x),
            ];
            for (q, quarter) in quarters.into_iter().enumerate() {
                // SAFETY: 64 bytes at `64 * q`, within the caller's 256.
                unsafe { _mm512_storeu_si512(out.add(64 * q).cast(), swap(_mm512_cvtepu8_epi32(quarter))) };
            }
        }
        64 * c.bytes
    }

    /// Converts the sequences of the window `x` that end in it: units taken,
    /// bytes written, and whether every one was written (else the run stops
    /// before the first value the target does not write, or a sequence of
    /// five units or more).
    ///
    /// # Safety
    /// `out` must be valid for writes of four bytes per unit taken.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    unsafe fn window(c: &Consts, x: __m512i, leads: u64, ends: u64, out: *mut u8) -> (usize, usize, bool) {
        let iota = _mm512_set_epi8(
            63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37,
            36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10,
            9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
        );
        let mut starts = _mm512_maskz_compress_epi8(leads, iota);
        let mut lasts = _mm512_maskz_compress_epi8(ends, iota);
        // Sequences in the window: as many as ends, if each has a start (a
        // window of valid input starts with one), and of one to four units.
        let count = ends.count_ones().min(leads.count_ones()) as usize;
        let short = _mm512_cmple_epu8_mask(_mm512_sub_epi8(lasts, starts), _mm512_set1_epi8(3));
        let count = count.min(short.trailing_ones() as usize);
        let (mut positions, mut ends_at) = ([0u8; 64], [0u8; 64]);
        // SAFETY: 64 writable bytes each.
        unsafe {
            _mm512_storeu_si512(positions.as_mut_ptr().cast(), starts);
            _mm512_storeu_si512(ends_at.as_mut_ptr().cast(), lasts);
        }
        let (mut done, mut wrote) = (0, 0);
        while done < count {
            let lanes = (count - done).min(16);
            // SAFETY: `done` sequences took `positions[done] >= done` units and
            // wrote at most four bytes each.
            let (n, bytes) = unsafe { sixteen(c, x, starts, lasts, lanes, out.add(wrote)) };
            (done, wrote) = (done + n, wrote + bytes);
            if n < lanes {
                return (usize::from(positions[done]), wrote, false);
            }
            starts = _mm512_alignr_epi32::<4>(_mm512_setzero_si512(), starts);
            lasts = _mm512_alignr_epi32::<4>(_mm512_setzero_si512(), lasts);
        }
        let took = if count == 0 { 0 } else { usize::from(ends_at[count - 1]) + 1 };
        (took, wrote, count == ends.count_ones() as usize)
    }

    /// Up to sixteen sequences (the low `lanes` bytes of `starts` and
    /// `lasts`): the sequences written and the bytes written, stopping before
    /// the first value the target does not write.
    ///
    /// # Safety
    /// `out` must be valid for writes of four bytes per sequence written.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    unsafe fn sixteen(
        c: &Consts,
        x: __m512i,
        starts: __m512i,
        lasts: __m512i,
        lanes: usize,
        out: *mut u8,
    ) -> (usize, usize) {
        let first = _mm512_cvtepu8_epi32(_mm512_castsi512_si128(starts));
        let last = _mm512_cvtepu8_epi32(_mm512_castsi512_si128(lasts));
        // Each lane's byte 0 in all four of its bytes.
        let spread = _mm512_set4_epi32(0x0C0C_0C0C, 0x0808_0808, 0x0404_0404, 0);
        let replicate = |v: __m512i| _mm512_shuffle_epi8(v, spread);
        let minus1 = _mm512_sub_epi32(last, first);
        // Byte `b` of a lane gathers the unit `b` places before the last, if
        // the sequence has more than `b` units.
        let index = _mm512_sub_epi8(replicate(last), _mm512_set1_epi32(0x0302_0100));
        let inside = _mm512_cmple_epu8_mask(_mm512_set1_epi32(0x0302_0100), replicate(minus1));
        let units = _mm512_maskz_permutexvar_epi8(inside, index, x);
        let pairs = _mm512_maddubs_epi16(units, _mm512_set1_epi16(0x4001));
        let raw = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x1000_0001));
        let v = _mm512_sub_epi32(raw, _mm512_permutexvar_epi32(minus1, c.bias));
        let live: u16 = if lanes == 16 { u16::MAX } else { (1 << lanes) - 1 };
        let within = |lo: __m512i, width: __m512i| _mm512_cmple_epu32_mask(_mm512_sub_epi32(v, lo), width);
        let single = within(c.single[0].0, c.single[0].1) | within(c.single[1].0, c.single[1].1);
        let paired = c.pair.as_ref().map_or(0, |p| within(p.lo, p.width) & !single);
        let ok = (single | paired) & live;
        let n = ok.trailing_ones() as usize;
        let keep = if n == 16 { u16::MAX } else { (1u16 << n) - 1 };
        // SAFETY: `n` values, at most four bytes each.
        let bytes = unsafe { store(c, v, paired & keep, keep, out) };
        (n, bytes)
    }

    /// Writes the lanes `keep` of `v`, those in `paired` as two units: the
    /// bytes written.
    ///
    /// # Safety
    /// `out` must be valid for writes of four bytes per lane kept.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    #[inline]
    unsafe fn store(c: &Consts, v: __m512i, paired: u16, keep: u16, out: *mut u8) -> usize {
        let swap = |v: __m512i| c.swap.map_or(v, |s| _mm512_shuffle_epi8(v, s));
        let n = keep.count_ones() as usize;
        if c.bytes == 4 {
            // SAFETY: `n` lanes of four bytes.
            unsafe { _mm512_mask_storeu_epi32(out.cast(), keep, swap(v)) };
            return 4 * n;
        }
        if paired == 0 {
            let words = _mm512_castsi256_si512(_mm512_cvtepi32_epi16(v));
            // SAFETY: `n` words.
            unsafe { _mm512_mask_storeu_epi16(out.cast(), u32::from(keep), swap(words)) };
            return 2 * n;
        }
        let p = c.pair.as_ref().expect("values are paired only with a pair");
        let w = _mm512_sub_epi32(v, p.bias);
        let high = _mm512_add_epi32(p.high, _mm512_srl_epi32(w, p.shift));
        let low = _mm512_add_epi32(p.low, _mm512_and_si512(w, p.mask));
        let joined = _mm512_mask_mov_epi32(v, paired, _mm512_or_si512(high, _mm512_slli_epi32::<16>(low)));
        // Word `2k` of lane `k` always, word `2k + 1` for a pair.
        let words = _pdep_u32(u32::from(keep), 0x5555_5555) | _pdep_u32(u32::from(paired), 0xAAAA_AAAA);
        let packed = _mm512_maskz_compress_epi16(words, joined);
        let total = words.count_ones();
        let mask = if total == 32 { u32::MAX } else { (1 << total) - 1 };
        // SAFETY: `total <= 2 * n` words: at most four bytes per lane kept.
        unsafe { _mm512_mask_storeu_epi16(out.cast(), mask, swap(packed)) };
        2 * total as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text of sequences of the 1992 shape (leads of 1–7 units), the lengths
    /// drawn from `lengths`.
    fn text(seed: u64, lengths: &[usize], values: usize) -> Vec<u8> {
        crate::decode::tests::text(seed, lengths, values).1
    }

    /// The 1992 shape the text is written in.
    fn shape() -> Shape {
        crate::decode::tests::text(0, &[1], 0).0
    }

    /// The definition: each sequence's value written as `units` and `pair`
    /// say, up to the first one that neither writes or that is five units or
    /// longer; the units converted and the bytes.
    fn reference(shape: &Shape, units: &Units, pair: Option<&Pair>, input: &[u8]) -> (usize, Vec<u8>) {
        let put = |u: u32, out: &mut Vec<u8>| match (units.bytes, units.big_endian) {
            (2, false) => out.extend((u as u16).to_le_bytes()),
            (2, true) => out.extend((u as u16).to_be_bytes()),
            (_, false) => out.extend(u.to_le_bytes()),
            (_, true) => out.extend(u.to_be_bytes()),
        };
        let top = if units.bytes == 2 { 0xFFFF } else { u32::MAX };
        let (mut out, mut start) = (Vec::new(), 0);
        while start < input.len() {
            let len = 1 + input[start + 1..].iter().take_while(|&&u| (0x80..=0xBF).contains(&u)).count();
            let v = shape.value(&input[start..start + len]) as u32;
            if len > 4 {
                break;
            }
            if units.single.iter().any(|&(lo, hi)| lo <= v && v <= hi.min(top)) {
                put(v, &mut out);
            } else if let Some(p) = pair.filter(|p| p.lo <= v && v <= p.hi) {
                let (high, low) = p.units(v);
                put(high, &mut out);
                put(low, &mut out);
            } else {
                break;
            }
            start += len;
        }
        (start, out)
    }

    #[test]
    fn the_kernel_agrees_with_the_definition_for_every_width_order_and_form() {
        let Some(isa) = Isa::detect() else { return };
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if std::is_x86_feature_detected!("avx512vbmi2") && std::is_x86_feature_detected!("avx512vl") {
            assert_eq!(isa, Isa::Avx512, "the machine has AVX-512: the kernel must run");
        }
        let shape = shape();
        let utf16 = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };
        let odd = Pair { lo: 0x800, hi: 0xF_FFFF, bias: 0x800, high: 0x8000, low: 0xC000, low_bits: 12 };
        let targets = [
            (2, [(0, 0xD7FF), (0xE000, 0xFFFF)], Some(utf16)),
            (4, [(0, 0xD7FF), (0xE000, 0x10_FFFF)], None),
            (2, [(0, 0xD7FF), (0xE000, 0xFFFF)], None),
            (2, [(0x20, 0x7FF), (1, 0)], Some(odd)),
            (4, [(0, 0x1F_FFFF), (0, 0x1F_FFFF)], None),
        ];
        let mixes: [&[usize]; 6] = [&[1], &[2], &[3], &[4], &[1, 1, 1, 2, 3], &[1, 2, 3, 4, 1, 2, 3, 4, 5]];
        for (t, (bytes, single, pair)) in targets.into_iter().enumerate() {
            for big_endian in [false, true] {
                let units = Units { bytes, big_endian, single };
                for (seed, lengths) in mixes.iter().enumerate() {
                    let input = text(seed as u64 + 7, lengths, 1500);
                    for skip in [0, 1, 5, 33] {
                        let input = &input[skip..];
                        let input = &input[input.iter().position(|&u| !(0x80..=0xBF).contains(&u)).unwrap()..];
                        let mut out = vec![9];
                        let taken = decode_to_units(isa, &shape, &units, pair.as_ref(), input, &mut out);
                        // It stops exactly at the first sequence it cannot
                        // write, or at the end.
                        let (stop, _) = reference(&shape, &units, pair.as_ref(), input);
                        let prefix = reference(&shape, &units, pair.as_ref(), &input[..taken]);
                        let case = format!("target {t}, big {big_endian}, mix {seed}, skip {skip}");
                        crate::shared::check_run(isa, taken, &out, prefix, stop, &case);
                    }
                }
            }
        }
    }

    #[test]
    fn any_input_is_converted_within_bounds() {
        let Some(isa) = Isa::detect() else { return };
        let shape = shape();
        let utf16 = Units { bytes: 2, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
        let pair = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };
        let mut bytes = text(3, &[1, 2, 3, 4], 3000);
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..400 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let at = (x >> 33) as usize % bytes.len();
            bytes[at] = (x >> 20) as u8;
            if round % 50 == 0 {
                bytes[at..].iter_mut().take(100).for_each(|u| *u = 0x80 + (round % 64) as u8);
            }
            for units in [utf16, Units { bytes: 4, ..utf16 }] {
                let mut out = Vec::new();
                let taken = decode_to_units(isa, &shape, &units, Some(&pair), &bytes, &mut out);
                assert!(taken <= bytes.len() && out.len() <= 4 * taken, "round {round}");
            }
        }
    }
}
