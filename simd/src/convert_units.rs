//! Code units of one width and byte order rewritten in another, unit for
//! unit, without values: the conversion engine's runs between two codecs of
//! wide code units (UTF-16 and UTF-32, little- and big-endian), where a run
//! of the source's units that are each a sequence of their own value
//! (outside the surrogates) is, unit for unit, the target's writing of the
//! same values.
//!
//! [`convert_units`] takes 32 bytes of the source at a time while every code
//! unit in them lies in the ranges given: a byte shuffle into little-endian
//! order where the source is big-endian, two unsigned range tests, then the
//! units widened (16 to 32 bits), narrowed (32 to 16) or kept, and shuffled
//! into the target's byte order. It stops before the first group of 32 bytes
//! with a unit outside the ranges, which the caller converts. With AVX-512,
//! the input's last units, fewer than a step, go in a masked step of their
//! own, so that a chunk of a stream is taken to its end; and
//! 16-bit units go 64 bytes a step and may hold pairs (UTF-16's surrogate
//! pairs): three masks of lanes tell single units, first and second units,
//! a step is whole when every second unit follows a first (the step
//! before's last unit, for its first), and into 32-bit units each pair's
//! value is made in its second unit's lane, from the unit before it, and
//! the first units' lanes are compressed away. No step's load waits for the
//! step before: each takes 64 bytes.
//!
//! ```
//! use placemat_simd::{convert_units, Isa, Units};
//! let text = "Вот текст в UTF-16, без суррогатов. ".repeat(8);
//! let utf16le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
//! let from = Units { bytes: 2, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
//! let to = Units { bytes: 4, big_endian: true, single: [(0, 0xD7FF), (0xE000, 0x10_FFFF)] };
//! let mut out = Vec::new();
//! let taken = Isa::detect().map_or(0, |isa| convert_units(isa, &from, None, &to, &utf16le, &mut out));
//! // All of it on AVX-512, whole groups of 32 bytes with AVX2, none without.
//! assert!(taken == utf16le.len() || taken % 32 == 0);
//! let expected: Vec<u8> = utf16le[..taken]
//!     .chunks_exact(2)
//!     .flat_map(|u| u32::from(u16::from_le_bytes([u[0], u[1]])).to_be_bytes())
//!     .collect();
//! assert_eq!(out, expected);
//! ```

use alloc::vec::Vec;

use crate::{Isa, Pair, Units};

/// Bytes of the source a step reads (of the AVX2 kernel's; the AVX-512
/// kernel's are twice as many).
#[cfg_attr(not(all(target_arch = "x86_64", target_feature = "sse2")), allow(dead_code))]
const STEP: usize = 32;

/// Whether [`convert_units`] has a kernel for `isa` (AVX2, which AVX-512
/// machines run too); without one it takes nothing.
pub const fn converts_units_on(isa: Isa) -> bool {
    matches!(isa, Isa::Avx2 | Isa::Avx512) && cfg!(all(target_arch = "x86_64", target_feature = "sse2"))
}

/// Appends the longest run of whole groups of 32 bytes of `input`, read as
/// code units of `from`'s width and byte order, whose every unit lies in
/// `from.single` (cut at the largest unit of the narrower width), each unit
/// written as the code unit of the same value in `to`'s width and byte order
/// (`to.single` is not read: the caller gives in `from.single` the units
/// that are sequences of their own value in the source and that the target
/// writes as themselves). Returns the bytes of `input` taken: 0 without a
/// kernel for `isa`, or for a width other than 2 and 4; else whole groups of
/// 32 bytes, or, on [`Isa::Avx512`] from 2-byte units (and from 4-byte ones
/// with `pair`), steps of 64 bytes and at the input's end the whole units
/// of its last, shorter step (read with a masked load).
///
/// With `pair` (on [`Isa::Avx512`]), for 2-byte source units, a unit of the
/// pair's first units followed by one of its second units is taken too: as
/// the same two units in a 2-byte target (which must write the pair's values
/// with the same pair), or as the value the two make in a 4-byte one (which
/// must write the pair's values as single units). The run then stops before
/// a first unit without its second. A pair whose units' every combination
/// is not one of its values (its `bias` not its `lo`, or `hi` not its last
/// combination), whose units do not fit in 16 bits or are single units, is
/// not read. From 4-byte source units into 2-byte ones, a unit of one of the
/// pair's values is taken too (the caller vouches that the source reads it
/// as a sequence of its own value), written as the pair's two units; a pair
/// whose units do not fit in 16 bits or whose values are single units is
/// not read. A 4-byte step is then 64 bytes.
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn convert_units(
    isa: Isa,
    from: &Units,
    pair: Option<&Pair>,
    to: &Units,
    input: &[u8],
    out: &mut Vec<u8>,
) -> usize {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    if !matches!(from.bytes, 2 | 4) || !matches!(to.bytes, 2 | 4) {
        return 0;
    }
    let narrower = Units { bytes: from.bytes.min(to.bytes), ..*from };
    let Some(ranges) = narrower.normalised() else { return 0 };
    let pair = pair.filter(|p| match (from.bytes, to.bytes) {
        (2, _) => every_combination(p) && apart(&ranges, p),
        (_, 2) => p.fits_16_bits() && !ranges.single.iter().any(|&(a, b)| a <= p.hi && p.lo <= b),
        _ => false,
    });
    run(isa, &Units { bytes: from.bytes, ..ranges }, pair, to, input, out)
}

/// Whether every first unit of `pair` with every second unit makes one of
/// its values, so that a unit of each, in order, is a pair without a check
/// of the value they make.
fn every_combination(pair: &Pair) -> bool {
    let (high, low) = (pair.high_units(), pair.low_units());
    pair.fits_16_bits() && pair.bias == pair.lo && pair.units(pair.hi) == (high.1, low.1)
}

/// Whether none of `pair`'s units is one of the single units.
fn apart(units: &Units, pair: &Pair) -> bool {
    let overlaps = |(lo, hi): (u32, u32)| units.single.iter().any(|&(a, b)| a <= hi && lo <= b);
    !overlaps(pair.high_units()) && !overlaps(pair.low_units())
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn run(isa: Isa, from: &Units, pair: Option<&Pair>, to: &Units, input: &[u8], out: &mut Vec<u8>) -> usize {
    if !converts_units_on(isa) {
        return 0;
    }
    // At most twice the input (16-bit units widened), or as much (32-bit
    // values written as pairs); the AVX-512 kernels store whole vectors, 64
    // bytes past what they keep.
    // The AVX-512 kernels' short last step writes as much as a whole one.
    let groups = input.len().div_ceil(STEP);
    let written = STEP * 2;
    out.reserve(groups * written + 64);
    let start = out.len();
    let at = out.as_mut_ptr().wrapping_add(start);
    // SAFETY: `converts_units_on` says the machine has AVX2 (and `isa` that
    // it has AVX-512 where that is the kernel); both widths are 2 or 4
    // (checked by `convert_units`), a pair from 2-byte units only with every
    // combination a value of it and its units no single ones, into 2-byte
    // units only with both units in 16 bits and its values no single ones;
    // `out` has room for `written` bytes per group of `input` (the last one
    // counted whole) and 64 more, what every kernel writes at most.
    let (taken, kept) = unsafe {
        match (from.bytes, to.bytes, isa) {
            (2, 2, Isa::Avx512) => avx512::convert::<2>(from, pair, to, input, at),
            (2, _, Isa::Avx512) => avx512::convert::<4>(from, pair, to, input, at),
            (_, 2, Isa::Avx512) if pair.is_some() => avx512::into_pairs(from, pair, to, input, at),
            (2, 2, _) => avx2::convert::<2, 2>(from, to, input, at),
            (2, _, _) => avx2::convert::<2, 4>(from, to, input, at),
            (_, 2, _) => avx2::convert::<4, 2>(from, to, input, at),
            _ => avx2::convert::<4, 4>(from, to, input, at),
        }
    };
    // SAFETY: the kernel initialised the `kept` bytes it returns, within the
    // capacity reserved.
    unsafe { out.set_len(start + kept) };
    taken
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn run(_: Isa, _: &Units, _: Option<&Pair>, _: &Units, _: &[u8], _: &mut Vec<u8>) -> usize {
    0
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx2 {
    use core::arch::x86_64::*;

    use super::STEP;
    use crate::Units;

    /// The kernel from `FROM`-byte units to `TO`-byte ones: bytes taken and
    /// bytes written.
    ///
    /// # Safety
    /// The machine must have AVX2; `FROM` and `TO` be 2 or 4, `from.single`
    /// within `0..=FFFF` where either is 2, and `out` valid for writes of
    /// `STEP * TO / FROM` bytes per whole group of `STEP` bytes of `input`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn convert<const FROM: usize, const TO: usize>(
        from: &Units,
        to: &Units,
        input: &[u8],
        out: *mut u8,
    ) -> (usize, usize) {
        let [(a, b), (c, d)] = from.single;
        let (read, write) = (order::<FROM>(from.big_endian), order::<TO>(to.big_endian));
        let mut i = 0;
        while let Some(group) = input.get(i..i + STEP) {
            // SAFETY: `group` is 32 readable bytes.
            let x = _mm256_shuffle_epi8(unsafe { _mm256_loadu_si256(group.as_ptr().cast()) }, read);
            let ok = if FROM == 2 {
                _mm256_or_si256(in_range16(x, a, b), in_range16(x, c, d))
            } else {
                _mm256_or_si256(in_range32(x, a, b), in_range32(x, c, d))
            };
            if _mm256_movemask_epi8(ok) != -1 {
                break;
            }
            // SAFETY: the group is whole, so the caller's room holds its
            // `STEP * TO / FROM` bytes at `i * TO / FROM`.
            unsafe { store::<FROM, TO>(x, write, out.add(i * TO / FROM)) };
            i += STEP;
        }
        (i, i * TO / FROM)
    }

    /// The shuffle that puts `BYTES`-byte units into (or out of)
    /// little-endian order: the identity for little-endian units.
    #[target_feature(enable = "avx2")]
    pub(super) fn order<const BYTES: usize>(big_endian: bool) -> __m256i {
        let lane: [i8; 16] = core::array::from_fn(|k| {
            let k = k as i8;
            let unit = k - k % BYTES as i8;
            if big_endian {
                unit + (BYTES as i8 - 1 - k % BYTES as i8)
            } else {
                k
            }
        });
        // SAFETY: `lane` is 16 readable bytes.
        let lane = unsafe { _mm_loadu_si128(lane.as_ptr().cast()) };
        _mm256_broadcastsi128_si256(lane)
    }

    /// Lanes of 16-bit units in `lo..=hi` (all ones) or not (zero).
    #[target_feature(enable = "avx2")]
    fn in_range16(x: __m256i, lo: u32, hi: u32) -> __m256i {
        let off = _mm256_sub_epi16(x, _mm256_set1_epi16(lo as u16 as i16));
        let wide = _mm256_set1_epi16(hi.wrapping_sub(lo) as u16 as i16);
        _mm256_cmpeq_epi16(_mm256_min_epu16(off, wide), off)
    }

    /// Lanes of 32-bit units in `lo..=hi` (all ones) or not (zero).
    #[target_feature(enable = "avx2")]
    fn in_range32(x: __m256i, lo: u32, hi: u32) -> __m256i {
        let off = _mm256_sub_epi32(x, _mm256_set1_epi32(lo as i32));
        let wide = _mm256_set1_epi32(hi.wrapping_sub(lo) as i32);
        _mm256_cmpeq_epi32(_mm256_min_epu32(off, wide), off)
    }

    /// The units of `x` (little-endian, each of a value the target's width
    /// holds) written as `TO`-byte units, shuffled by `write`.
    ///
    /// # Safety
    /// `out` must be valid for writes of `STEP * TO / FROM` bytes.
    #[target_feature(enable = "avx2")]
    unsafe fn store<const FROM: usize, const TO: usize>(x: __m256i, write: __m256i, out: *mut u8) {
        match (FROM, TO) {
            (2, 4) => {
                let low = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(x));
                let high = _mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(x));
                // SAFETY: 64 writable bytes, as the caller vouches.
                unsafe {
                    _mm256_storeu_si256(out.cast(), _mm256_shuffle_epi8(low, write));
                    _mm256_storeu_si256(out.add(32).cast(), _mm256_shuffle_epi8(high, write));
                }
            }
            (4, 2) => {
                // Per 128-bit half: four u16 twice (the values are below
                // 2^16, so the signed saturation keeps them); keep quads 0 and 2.
                let packed = _mm256_permute4x64_epi64::<0b1000>(_mm256_packus_epi32(x, x));
                let units = _mm256_shuffle_epi8(packed, write);
                // SAFETY: 16 writable bytes, as the caller vouches.
                unsafe { _mm_storeu_si128(out.cast(), _mm256_castsi256_si128(units)) };
            }
            // SAFETY: 32 writable bytes, as the caller vouches.
            _ => unsafe { _mm256_storeu_si256(out.cast(), _mm256_shuffle_epi8(x, write)) },
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx512 {
    use core::arch::x86_64::*;

    use crate::{Pair, Units};

    /// The kernel from 2-byte units to `TO`-byte ones, 32 units a step:
    /// bytes taken and bytes written. A pair whose first unit ends a step
    /// is joined by the next (a pair's value is made in its second unit's
    /// lane, from the unit before it); where the run ends after such a first
    /// unit, it is given back.
    ///
    /// # Safety
    /// The machine must have AVX-512 F/BW and POPCNT; `TO` be 2 or 4, `from.single`
    /// within `0..=FFFF`, `pair` (if any) one whose every combination of
    /// units is a value and whose units are no single units, and `out`
    /// valid for writes of `TO / 2` bytes per byte of `input`, rounded up to
    /// a multiple of 64, and 64 more.
    #[target_feature(enable = "avx512f,avx512bw,avx2,popcnt")]
    pub(super) unsafe fn convert<const TO: usize>(
        from: &Units,
        pair: Option<&Pair>,
        to: &Units,
        input: &[u8],
        out: *mut u8,
    ) -> (usize, usize) {
        let [(a, b), (c, d)] = from.single;
        let (read, write) = shuffles::<2, TO>(from, to);
        // Lane `j` takes unit `j - 1` of the group, lane 0 the last unit of
        // the group before (indices 32 and up name the second operand).
        let before: [i16; 32] = core::array::from_fn(|j| if j == 0 { 31 } else { 32 + j as i16 - 1 });
        // SAFETY: `before` is 64 readable bytes.
        let before = unsafe { _mm512_loadu_si512(before.as_ptr().cast()) };
        // Without a pair, no unit is a first or second one (the masks keep
        // none) and no value is joined (the blend keeps none).
        let (paired, ((h0, h1), (l0, l1))) = match pair {
            Some(p) => (u32::MAX, (p.high_units(), p.low_units())),
            None => (0, ((0, 0), (0, 0))),
        };
        let join = Join::of(pair);
        // One step of `lanes` units (in little-endian order) at `out`, after
        // the step `last` (and whether its last unit is a first one): the
        // bytes written and whether its own last unit is a first one, or
        // `None` where the step is not whole. Past the input's end (in its last, short step),
        // lanes count as single units and are neither kept nor written.
        let step = |x: __m512i, lanes: usize, (last, open): (__m512i, u32), out: *mut u8| {
            let valid = if lanes == 32 { u32::MAX } else { (1 << lanes) - 1 };
            let single = in_range(x, a, b) | in_range(x, c, d) | !valid;
            let (firsts, seconds) = (in_range(x, h0, h1) & paired & valid, in_range(x, l0, l1) & paired & valid);
            // Every unit single or a pair's, and every second unit right
            // after a first one (the group before's last, for the first).
            if single | firsts | seconds != u32::MAX || (seconds ^ (firsts << 1 | open)) & valid != 0 {
                return None;
            }
            let wrote = if TO == 2 {
                // SAFETY: 64 writable bytes at `out` (at most the bytes taken
                // so far before it, and 64 more), as the caller vouches.
                unsafe { _mm512_storeu_si512(out.cast(), _mm512_shuffle_epi8(x, write)) };
                2 * lanes
            } else {
                let befores = _mm512_permutex2var_epi16(last, before, x);
                // SAFETY: `4 * lanes` bytes kept at `out`, 128 written:
                // within the caller's room for the step (the last one's, if
                // short, as much as a whole one's).
                unsafe { store_values(x, befores, &join, (seconds, !firsts & valid), write, out) }
            };
            Some((wrote, firsts >> (lanes - 1) & 1))
        };
        // The step before, and whether its last unit is a first one.
        let (mut last, mut open) = (_mm512_setzero_si512(), 0);
        let (mut i, mut o) = (0, 0);
        while let Some(group) = input.get(i..i + 64) {
            // SAFETY: `group` is 64 readable bytes.
            let x = _mm512_shuffle_epi8(unsafe { _mm512_loadu_si512(group.as_ptr().cast()) }, read);
            let Some((wrote, first)) = step(x, 32, (last, open), out.wrapping_add(o)) else { break };
            (last, open, i, o) = (x, first, i + 64, o + wrote);
        }
        // The input's last units, in a short step (a whole step broke the
        // loop where it stopped short of the end).
        if let Some((x, lanes)) = tail::<2>(input, i) {
            let x = _mm512_shuffle_epi8(x, read);
            if let Some((wrote, first)) = step(x, lanes, (last, open), out.wrapping_add(o)) {
                (open, i, o) = (first, i + 2 * lanes, o + wrote);
            }
        }
        // A first unit that ends the run is given back (into 32-bit units
        // nothing was written for it: its value is made with its second).
        let back = 2 * open as usize;
        (i - back, o - if TO == 2 { back } else { 0 })
    }

    /// The kernel from 4-byte units to 2-byte ones that writes the values of
    /// `pair` as its two units, 16 units a step: bytes taken and written.
    ///
    /// # Safety
    /// The machine must have AVX-512 F/BW/VBMI2, BMI2 and POPCNT; `from.single`
    /// within `0..=FFFF`, `pair` one whose units fit in 16 bits and whose
    /// values are no single units, and `out` valid for writes of as many
    /// bytes as `input` has, and 64 more.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,bmi2,avx2,popcnt")]
    pub(super) unsafe fn into_pairs(
        from: &Units,
        pair: Option<&Pair>,
        to: &Units,
        input: &[u8],
        out: *mut u8,
    ) -> (usize, usize) {
        let [(a, b), (c, d)] = from.single;
        let (read, write) = shuffles::<4, 2>(from, to);
        let Some(p) = pair else { return (0, 0) };
        let set = |v: u32| _mm512_set1_epi32(v as i32);
        let (bias, high, low) = (set(p.bias), set(p.high), set(p.low));
        let (shift, mask) = (set(u32::from(p.low_bits)), set((1 << p.low_bits) - 1));
        // One step of `lanes` values at `out`: the bytes written, or `None`
        // where a value is neither a single unit nor a pair's. Past the
        // input's end, lanes count as single units, not kept.
        let step = |x: __m512i, lanes: usize, out: *mut u8| {
            let x = _mm512_shuffle_epi8(x, read);
            let valid = if lanes == 16 { u16::MAX } else { (1 << lanes) - 1 };
            let single = in_range32(x, a, b) | in_range32(x, c, d) | !valid;
            let paired = in_range32(x, p.lo, p.hi) & valid;
            if single | paired != u16::MAX {
                return None;
            }
            // Each value's first unit in its low half, its second (where it
            // has one) in its high half.
            let w = _mm512_sub_epi32(x, bias);
            let first = _mm512_mask_blend_epi32(paired, x, _mm512_add_epi32(high, _mm512_srlv_epi32(w, shift)));
            let second = _mm512_add_epi32(low, _mm512_and_si512(w, mask));
            let both = _mm512_or_si512(first, _mm512_slli_epi32::<16>(second));
            // Every first unit kept, a second where the value is a pair's.
            let keep = _pdep_u32(u32::from(paired), 0xAAAA_AAAA) | _pdep_u32(u32::from(valid), 0x5555_5555);
            let units = _mm512_shuffle_epi8(_mm512_maskz_compress_epi16(keep, both), write);
            // SAFETY: at most 64 bytes at `out`, within the caller's room
            // for the step (as many bytes as its values, and 64 more).
            unsafe { _mm512_storeu_si512(out.cast(), units) };
            Some(2 * keep.count_ones() as usize)
        };
        let (mut i, mut o) = (0, 0);
        while let Some(group) = input.get(i..i + 64) {
            // SAFETY: `group` is 64 readable bytes.
            let x = unsafe { _mm512_loadu_si512(group.as_ptr().cast()) };
            let Some(wrote) = step(x, 16, out.wrapping_add(o)) else { break };
            (i, o) = (i + 64, o + wrote);
        }
        if let Some((x, lanes)) = tail::<4>(input, i) {
            if let Some(wrote) = step(x, lanes, out.wrapping_add(o)) {
                (i, o) = (i + 4 * lanes, o + wrote);
            }
        }
        (i, o)
    }

    /// The last step of `input`, from `i`: where fewer than 64 bytes are
    /// left, the whole `UNIT`-byte units left (the lanes past them zero),
    /// and how many; `None` where no whole unit or a whole step is left.
    #[target_feature(enable = "avx512f,avx512bw")]
    fn tail<const UNIT: usize>(input: &[u8], i: usize) -> Option<(__m512i, usize)> {
        let units = input.len().checked_sub(i)? / UNIT;
        let bytes = units * UNIT;
        // SAFETY: the mask keeps `bytes` bytes (fewer than 64), the whole
        // units of `input` from `i`; a masked load reads no other.
        (units > 0 && bytes < 64).then(|| {
            let keep = (1u64 << bytes) - 1;
            (unsafe { _mm512_maskz_loadu_epi8(keep, input.as_ptr().add(i).cast()) }, units)
        })
    }

    /// The shuffles that read `FROM`-byte units into little-endian order
    /// and write `TO`-byte ones out of it.
    #[target_feature(enable = "avx512f,avx2")]
    fn shuffles<const FROM: usize, const TO: usize>(from: &Units, to: &Units) -> (__m512i, __m512i) {
        let lanes = |order: __m256i| _mm512_broadcast_i32x4(_mm256_castsi256_si128(order));
        (lanes(super::avx2::order::<FROM>(from.big_endian)), lanes(super::avx2::order::<TO>(to.big_endian)))
    }

    /// The 32-bit lanes of `x` in `lo..=hi`, as a mask of lanes.
    #[target_feature(enable = "avx512f")]
    fn in_range32(x: __m512i, lo: u32, hi: u32) -> u16 {
        let off = _mm512_sub_epi32(x, _mm512_set1_epi32(lo as i32));
        _mm512_cmple_epu32_mask(off, _mm512_set1_epi32(hi.wrapping_sub(lo) as i32))
    }

    /// A pair's value from its units, as vectors: `(first − high) <<
    /// low_bits | (second − low)`, plus `bias`.
    struct Join {
        high: __m512i,
        shift: __m512i,
        low: __m512i,
        bias: __m512i,
    }

    impl Join {
        /// The vectors of `pair` (zeros without one: nothing is joined then).
        #[target_feature(enable = "avx512f")]
        fn of(pair: Option<&Pair>) -> Join {
            let (high, shift, low, bias) = pair.map_or((0, 0, 0, 0), |p| (p.high, p.low_bits.into(), p.low, p.bias));
            let set = |v: u32| _mm512_set1_epi32(v as i32);
            Join { high: set(high), shift: set(shift), low: set(low), bias: set(bias) }
        }
    }

    /// The 32 units of `x` (each lane's unit before in `befores`) as 4-byte
    /// values: single units as themselves, a pair's second unit as the value
    /// it makes with the one before (lanes `seconds`); the lanes of `keep`
    /// written, one after another, in `write`'s byte order. Returns the
    /// bytes kept.
    ///
    /// # Safety
    /// The machine must have AVX-512 F/BW and POPCNT, and `out` be valid for
    /// writes of 128 bytes.
    #[target_feature(enable = "avx512f,avx512bw,popcnt")]
    unsafe fn store_values(
        x: __m512i,
        befores: __m512i,
        join: &Join,
        (seconds, keep): (u32, u32),
        write: __m512i,
        out: *mut u8,
    ) -> usize {
        let halves = [
            (_mm512_castsi512_si256(x), _mm512_castsi512_si256(befores)),
            (_mm512_extracti64x4_epi64::<1>(x), _mm512_extracti64x4_epi64::<1>(befores)),
        ];
        let mut o = 0;
        for (half, (units, befores)) in halves.into_iter().enumerate() {
            let (units, befores) = (_mm512_cvtepu16_epi32(units), _mm512_cvtepu16_epi32(befores));
            let high = _mm512_sllv_epi32(_mm512_sub_epi32(befores, join.high), join.shift);
            let joined = _mm512_add_epi32(_mm512_or_si512(high, _mm512_sub_epi32(units, join.low)), join.bias);
            let values = _mm512_mask_blend_epi32((seconds >> (16 * half)) as u16, units, joined);
            let kept = (keep >> (16 * half)) as u16;
            let values = _mm512_shuffle_epi8(_mm512_maskz_compress_epi32(kept, values), write);
            // SAFETY: at most 64 bytes kept before, 64 written: within the
            // caller's 128.
            unsafe { _mm512_storeu_si512(out.add(o).cast(), values) };
            o += 4 * kept.count_ones() as usize;
        }
        o
    }

    /// The units of `x` in `lo..=hi`, as a mask of lanes.
    #[target_feature(enable = "avx512f,avx512bw")]
    fn in_range(x: __m512i, lo: u32, hi: u32) -> u32 {
        let off = _mm512_sub_epi16(x, _mm512_set1_epi16(lo as u16 as i16));
        _mm512_cmple_epu16_mask(off, _mm512_set1_epi16(hi.wrapping_sub(lo) as u16 as i16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The units of `bytes` in `units`' width and order.
    fn read(units: &Units, bytes: &[u8]) -> Vec<u32> {
        bytes.chunks_exact(units.bytes).map(|u| units.read(u)).collect()
    }

    fn write(units: &Units, values: &[u32]) -> Vec<u8> {
        crate::testing::written(units, values.iter().map(|&v| u64::from(v)))
    }

    #[test]
    fn every_pair_of_widths_and_orders_against_the_definition() {
        let Some(isa) = Isa::detect() else { return };
        let mut next = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15);
        let ranges = [
            [(0, 0xD7FF), (0xE000, 0xFFFF)],
            [(0, 0xD7FF), (0xE000, 0x10_FFFF)],
            [(0x20, 0x7E), (1, 0)],
            [(0x100, 0x1_0000), (0x100, 0x1_0000)],
        ];
        for single in ranges {
            for (fb, tb) in [(2, 2), (2, 4), (4, 2), (4, 4)] {
                for (fbig, tbig) in [(false, false), (false, true), (true, false), (true, true)] {
                    let from = Units { bytes: fb, big_endian: fbig, single };
                    let to = Units { bytes: tb, big_endian: tbig, single: [(0, 0); 2] };
                    let inside = |u: u32| {
                        let top = if fb.min(tb) == 2 { 0xFFFF } else { u32::MAX };
                        single.iter().any(|&(lo, hi)| lo <= u && u <= hi.min(top))
                    };
                    for round in 0..200 {
                        // Mostly units inside; now and then a surrogate, one
                        // past 16 bits, or any unit at all.
                        let units: Vec<u32> = (0..(next() % 120) as usize)
                            .map(|_| match next() % 48 {
                                0 => 0xD800 + (next() % 0x800) as u32,
                                1 => 0x1_0000 + (next() % 0x1000) as u32,
                                2 => next() as u32,
                                _ => 0x20 + (next() % 0x5F) as u32,
                            })
                            .map(|u| if fb == 2 { u & 0xFFFF } else { u })
                            .collect();
                        let bytes = write(&from, &units);
                        let mut out = vec![9];
                        let taken = convert_units(isa, &from, None, &to, &bytes, &mut out);
                        // (AVX-512 reads 2-byte units 64 bytes a step, and
                        // the last units in a short step.)
                        let wide = isa == Isa::Avx512 && fb == 2;
                        let steps = steps(bytes.len(), fb, if wide { 64 } else { STEP }, wide);
                        let fine = steps.take_while(|r| read(&from, &bytes[r.clone()]).into_iter().all(inside));
                        let want = if converts_units_on(isa) { fine.last().map_or(0, |r| r.end) } else { 0 };
                        let case = format!("round {round}, {single:X?}, {fb}{fbig} -> {tb}{tbig}");
                        assert_eq!(taken, want, "{case}");
                        assert_eq!(out[1..], write(&to, &read(&from, &bytes[..taken]))[..], "{case}");
                    }
                }
            }
        }
    }

    /// The byte ranges of the steps through `len` bytes of `unit`-byte
    /// units: whole steps of `step` bytes, then, with `tail`, the whole
    /// units left.
    fn steps(len: usize, unit: usize, step: usize, tail: bool) -> impl Iterator<Item = std::ops::Range<usize>> {
        let whole = len / step * step;
        let last = if tail { len / unit * unit } else { whole };
        (0..whole).step_by(step).map(move |k| k..k + step).chain((whole < last).then_some(whole..last))
    }

    /// What the AVX-512 kernel takes of `units` with `pair`: steps of 32
    /// units (the last one shorter) each single or half of a pair, less a
    /// first unit that ends them (its second not taken).
    fn taken_by_steps(from: &Units, pair: &Pair, units: &[u32]) -> usize {
        let (high, low) = (pair.high_units(), pair.low_units());
        let is = |(lo, hi): (u32, u32), k: usize| units.get(k).is_some_and(|&u| lo <= u && u <= hi);
        let fine = |k: usize| {
            from.single.iter().any(|&r| is(r, k))
                || is(high, k) && is(low, k + 1)
                || is(low, k) && k > 0 && is(high, k - 1)
        };
        // A first unit that ends the input is read (and given back).
        let last = units.len().checked_sub(1);
        let fine = |k: usize| fine(k) || Some(k) == last && is(high, k);
        let at = steps(units.len(), 1, 32, true).take_while(|r| r.clone().all(fine)).last().map_or(0, |r| r.end);
        at - usize::from(at > 0 && is(high, at - 1))
    }

    /// `units` as a 2-byte target with the same pair writes them, or as
    /// values in a 4-byte one.
    fn written_with_pair(pair: &Pair, to: &Units, units: &[u32]) -> Vec<u8> {
        if to.bytes == 2 {
            return write(to, units);
        }
        let mut values = Vec::new();
        let mut k = 0;
        while k < units.len() {
            match units.get(k + 1).and_then(|&next| pair.join(units[k], next)) {
                Some(v) => {
                    values.push(v);
                    k += 2;
                }
                None => {
                    values.push(units[k]);
                    k += 1;
                }
            }
        }
        write(to, &values)
    }

    #[test]
    fn pairs_are_read_whole_as_the_definition_reads_them() {
        let Some(isa) = Isa::detect() else { return };
        let utf16 = Pair { lo: 0x1_0000, hi: 0x10_FFFF, bias: 0x1_0000, high: 0xD800, low: 0xDC00, low_bits: 10 };
        let mut next = crate::testing::xorshift(0x2545_F491_4F6C_DD1D);
        for (tb, fbig, tbig) in
            [(2, false, true), (2, true, false), (4, false, false), (4, true, true), (4, false, true)]
        {
            let from = Units { bytes: 2, big_endian: fbig, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
            let to = Units { bytes: tb, big_endian: tbig, single: [(0, 0); 2] };
            for round in 0..300 {
                // Pairs often (some across a step's end), now and then a
                // lone first or second unit.
                let mut units = Vec::new();
                while units.len() < (next() % 200) as usize {
                    match next() % 40 {
                        0..=9 => {
                            let (h, l) = utf16.units(0x1_0000 + (next() % 0x10_0000) as u32);
                            units.extend([h, l]);
                        }
                        10 if round % 2 == 1 => units.push(0xD800 + (next() % 0x800) as u32),
                        _ => units.push((next() % 0xD800) as u32),
                    }
                }
                let bytes = write(&from, &units);
                let mut out = vec![3];
                let taken = convert_units(isa, &from, Some(&utf16), &to, &bytes, &mut out);
                let want = match isa {
                    Isa::Avx512 if converts_units_on(isa) => 2 * taken_by_steps(&from, &utf16, &units),
                    _ if converts_units_on(isa) => {
                        let single = |u: &u32| from.is_single(*u);
                        2 * units.chunks_exact(16).take_while(|g| g.iter().all(single)).count() * 16
                    }
                    _ => 0,
                };
                let case = format!("round {round}, {fbig} -> {tb} {tbig}");
                assert_eq!(taken, want, "{case}");
                assert_eq!(out[1..], written_with_pair(&utf16, &to, &units[..taken / 2])[..], "{case}");
            }
        }
        // From 32-bit units into 16-bit ones, the pair's values as its units.
        for (fbig, tbig) in [(false, false), (true, false), (false, true)] {
            let from = Units { bytes: 4, big_endian: fbig, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
            let to = Units { bytes: 2, big_endian: tbig, single: [(0, 0); 2] };
            for round in 0..300 {
                let values: Vec<u32> = (0..(next() % 120) as usize)
                    .map(|_| match next() % 40 {
                        0..=9 => 0x1_0000 + (next() % 0x10_0000) as u32,
                        10 if round % 2 == 1 => 0xD800 + (next() % 0x800) as u32,
                        11 if round % 3 == 1 => 0x11_0000 + (next() % 0x1000) as u32,
                        _ => (next() % 0xD800) as u32,
                    })
                    .collect();
                let bytes = write(&from, &values);
                let mut out = vec![5];
                let taken = convert_units(isa, &from, Some(&utf16), &to, &bytes, &mut out);
                let paired = |v: u32| (0x1_0000..=0x10_FFFF).contains(&v);
                let want = match isa {
                    Isa::Avx512 => {
                        let fine = |g: &[u32]| g.iter().all(|&v| from.is_single(v) || paired(v));
                        let steps = steps(values.len(), 1, 16, true);
                        4 * steps.take_while(|r| fine(&values[r.clone()])).last().map_or(0, |r| r.end)
                    }
                    _ if converts_units_on(isa) => {
                        32 * values.chunks_exact(8).take_while(|g| g.iter().all(|&v| from.is_single(v))).count()
                    }
                    _ => 0,
                };
                let units: Vec<u32> = values[..taken / 4]
                    .iter()
                    .flat_map(|&v| if paired(v) { <[u32; 2]>::from(utf16.units(v)).to_vec() } else { vec![v] })
                    .collect();
                let case = format!("round {round}, 4 {fbig} -> 2 {tbig}");
                assert_eq!(taken, want, "{case}");
                assert_eq!(out[1..], write(&to, &units)[..], "{case}");
            }
        }
        // A pair some combination of whose units is no value is not read.
        let short = Pair { hi: 0x10_FF00, ..utf16 };
        let from = Units { bytes: 2, big_endian: false, single: [(0, 0xD7FF), (0xE000, 0xFFFF)] };
        let bytes = write(&from, &[0xD83D, 0xDE00].repeat(40));
        assert_eq!(convert_units(isa, &from, Some(&short), &from, &bytes, &mut Vec::new()), 0);
    }
}
