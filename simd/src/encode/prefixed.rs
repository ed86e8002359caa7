//! Encoding integer streams whose first unit gives a value's length
//! (QUIC's variable-length integers), eight values at a time.
//!
//! The decoder's fact ([`Tags`]) says what to write: a value takes the
//! shortest length whose tag's range holds it; its payload (the value less
//! the tag's bias) goes most significant unit first, with the tag in the
//! first unit's top bits. For eight values at once: each value's tag is the
//! first, by length, whose range holds it (two compares a tag); one
//! variable shift puts the payload's `n` units at the top of its lane, the
//! tag is added in, and one byte shuffle turns each lane big-endian; its
//! first `n` bytes are its units.
//!
//! ```
//! use placemat_simd::{encode_prefixed, Isa, Tags};
//! // QUIC: the top two bits give 1, 2, 4 or 8 units.
//! let mut quic = Tags { shift: 6, lengths: [0; 16], lo: [0; 16], hi: [0; 16], bias: [0; 16] };
//! for (tag, n) in [1u8, 2, 4, 8].into_iter().enumerate() {
//!     quic.lengths[tag] = n;
//!     quic.hi[tag] = (1u64 << (8 * u32::from(n) - 2)) - 1;
//! }
//! let values = [37u64, 15_293, 494_878_333, 151_288_809_941_952_652];
//! let mut out = [0u8; 15];
//! if let Some(isa) = Isa::detect() {
//!     let (done, written) = encode_prefixed(isa, &quic, &values, &mut out, |_, _| None);
//!     // Where the machine has no kernel, nothing is written.
//!     assert!(done == 0 || (done, written) == (4, 15));
//!     if done == 4 {
//!         assert_eq!(out, [0x25, 0x7B, 0xBD, 0x9D, 0x7F, 0x3E, 0x7D, 0xC2, 0x19, 0x7C, 0x5E, 0xFF, 0x14, 0xE8, 0x8C]);
//!     }
//! }
//! ```

use crate::flagged::Slot;
use crate::prefixed::Tags;
use crate::shared::Isa;

/// Whether [`encode_prefixed`] has a kernel for `isa` on this machine
/// (AVX-512) that writes `tags`: four to seven payload bits in the first
/// unit, lengths up to eight.
pub fn encodes_prefixed_on(isa: Isa, tags: &Tags) -> bool {
    cfg!(all(target_arch = "x86_64", target_feature = "sse2")) && isa == Isa::Avx512 && tags.is_read()
}

/// Encodes values from the start of `values` into `out` from its start,
/// those a tag's range holds eight at a time, and each other one by
/// `other` (the codec's own encoder: the units it wrote into the slice it
/// is given, or `None` to stop there), until the values end, `other`
/// stops, or a group of eight does not fit the room left: the values taken
/// and the units written (`(0, 0)` without a kernel for `isa` and `tags`,
/// [`encodes_prefixed_on`]). Nothing is written past those units.
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn encode_prefixed<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>>(
    isa: Isa,
    tags: &Tags,
    values: &[T],
    out: &mut [u8],
    mut other: F,
) -> (usize, usize) {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    if !encodes_prefixed_on(isa, tags) {
        return (0, 0);
    }
    run(tags, values, out, &mut other)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn run<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>>(
    tags: &Tags,
    values: &[T],
    out: &mut [u8],
    other: &mut F,
) -> (usize, usize) {
    // SAFETY: the caller checked that the machine has AVX-512 (`Isa::all`,
    // whose AVX-512 includes BW, VL, VBMI and VBMI2).
    unsafe { avx512::run(tags, values, out, other) }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn run<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>>(_: &Tags, _: &[T], _: &mut [u8], _: &mut F) -> (usize, usize) {
    (0, 0)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx512 {
    use core::arch::x86_64::*;

    use crate::encode::x86::{groups, lane_base, place};
    use crate::flagged::Slot;
    use crate::prefixed::Tags;

    /// Sixteen words, one a tag, as two vectors (a tag indexes them with
    /// one two-table permutation).
    fn per_tag(f: impl Fn(usize) -> u64) -> [__m512i; 2] {
        let words: [u64; 16] = core::array::from_fn(f);
        // SAFETY: 64 readable bytes each; the loads are unaligned.
        unsafe { [0, 8].map(|k| _mm512_loadu_si512(words[k..].as_ptr().cast())) }
    }

    /// The kernel.
    ///
    /// # Safety
    /// The machine has AVX-512 F, BW, VL, VBMI and VBMI2.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,popcnt")]
    pub(super) unsafe fn run<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>>(
        tags: &Tags,
        values: &[T],
        out: &mut [u8],
        other: &mut F,
    ) -> (usize, usize) {
        // The tags with values, shortest first: a value takes the first
        // whose range holds it.
        let mut order: [usize; 16] = core::array::from_fn(|t| t);
        let count = tags.count();
        order[..count].sort_by_key(|&t| tags.lengths[t]);
        let order: &[usize] = &order[..count];
        let first = order.iter().position(|&t| tags.lengths[t] != 0).unwrap_or(count);
        let order = &order[first..];
        let bounds: [(__m512i, __m512i, __m512i); 16] = core::array::from_fn(|k| {
            let t = order.get(k).copied().unwrap_or(0);
            let b = |x: u64| _mm512_set1_epi64(x as i64);
            (b(tags.lo[t]), b(tags.hi[t]), b(t as u64))
        });
        let length = |t: usize| u64::from(tags.lengths[t]);
        let bias = per_tag(|t| tags.bias[t]);
        // The payload's units to the top of the lane, and the tag above them.
        let left = per_tag(|t| 64 - 8 * length(t).max(1));
        let tag_bits = per_tag(|t| (t as u64) << (56 + u32::from(tags.shift)));
        let lengths = per_tag(length);
        // Within each 128-bit lane (the shuffle's reach): each word's bytes reversed.
        let big_endian = _mm512_set4_epi64(
            0x0809_0A0B_0C0D_0E0F,
            0x0001_0203_0405_0607,
            0x0809_0A0B_0C0D_0E0F,
            0x0001_0203_0405_0607,
        );
        let (place, lane_base) = (place(), lane_base());
        let group = |v: __m512i| {
            let mut tag = _mm512_setzero_si512();
            let mut held = 0u8;
            for (lo, hi, t) in &bounds[..order.len()] {
                let inside = _mm512_cmpge_epu64_mask(v, *lo) & _mm512_cmple_epu64_mask(v, *hi) & !held;
                tag = _mm512_mask_mov_epi64(tag, inside, *t);
                held |= inside;
            }
            let pick = |t: &[__m512i; 2]| _mm512_permutex2var_epi64(t[0], tag, t[1]);
            let payload = _mm512_sub_epi64(v, pick(&bias));
            let word = _mm512_or_si512(_mm512_sllv_epi64(payload, pick(&left)), pick(&tag_bits));
            // Byte `k` of each lane: unit `k`, the most significant first.
            let bytes = _mm512_shuffle_epi8(word, big_endian);
            let len = _mm512_permutexvar_epi8(lane_base, pick(&lengths));
            (bytes, _mm512_cmplt_epu8_mask(place, len), held)
        };
        groups(values, out, other, group, |_| None)
    }
}
