//! Encoding integer streams whose units flag where a value ends (LEB128,
//! VLQ, SQLite's varints up to eight units), eight values at a time.
//!
//! The same fact as the decoder's ([`Marks`]) says what to write: a value
//! takes the first length `n` (1 to [`Marks::lengths`]) whose range holds
//! it, its payload (the value less that length's bias, or its low bits for
//! a signed codec) is cut into `n` groups of seven bits, least or most
//! significant first, and every unit but the last carries the continuing
//! flag in bit 7. For eight values at once:
//!
//! 1. each value's length is one more than the number of lengths whose
//!    greatest value it exceeds, or for a signed codec whose range it is
//!    outside (a compare and a masked add a length, eight lanes at once;
//!    the greatest values increase, a signed codec's ranges nest), checked
//!    against that length's range;
//! 2. one multishift (`vpmultishiftqb`) cuts each payload into eight groups
//!    of seven bits, a byte each; a byte permutation puts them most
//!    significant first where the fact says so;
//! 3. the flags are set by comparing each byte's place with its value's
//!    length, and one byte compress (`vpcompressb`) packs the eight values'
//!    units back to back, written by one masked store (the loop shared
//!    with the length-prefix encoder, `encode/mod.rs`).
//!
//! Sixteen values of up to four units each go at once, in 32-bit lanes
//! (`flagged_sixteen.rs`).
//!
//! The kernel writes the fact's first eight lengths; a value none of them
//! holds (nine or ten units, or out of every range) is written by the
//! caller's encoder, and the kernel goes on
//! after it; where that encoder refuses a value, or a group's units do not
//! fit the room left, the kernel stops there.
//!
//! ```
//! use placemat_simd::{encode_flagged, Isa, Marks};
//! // LEB128, one to ten units.
//! let hi = core::array::from_fn(|n| u64::MAX >> 64u32.saturating_sub(7 * (n as u32 + 1)));
//! let leb128 = Marks { continues_when_set: true, lsb_first: true, lengths: 10, lo: [0; 10], hi, bias: [0; 10], signed: false };
//! let values = [2u64, 127, 128, 624_485, 1 << 40, 3, 4, 5, 6];
//! let mut out = [0u8; 64];
//! if let Some(isa) = Isa::detect() {
//!     let (done, written) = encode_flagged(isa, &leb128, &values, &mut out, |_, _| None);
//!     // Where the machine has no kernel, nothing is written: the caller's
//!     // encoder writes every value.
//!     let want = [0x02, 0x7F, 0x80, 0x01, 0xE5, 0x8E, 0x26];
//!     assert_eq!(out[..written.min(7)], want[..written.min(7)]);
//!     assert!(done == 0 || done == values.len());
//! }
//! ```

use crate::flagged::{Marks, Slot};
use crate::shared::Isa;

/// Whether [`encode_flagged`] has a kernel for `isa` on this machine
/// (AVX-512: its multishift and byte compress) that writes `marks`: its
/// first lengths, up to eight, whose greatest values increase, and for a
/// signed codec whose least values decrease (nested ranges), so that a
/// value's length is one more than the number of lengths whose greatest
/// value it exceeds (or whose range it is outside).
pub fn encodes_flagged_on(isa: Isa, marks: &Marks) -> bool {
    let k = usize::from(marks.lengths.min(8));
    let ordered = if marks.signed {
        let as_signed = |a: &[u64; 10]| a.map(|x| x as i64);
        let (lo, hi) = (as_signed(&marks.lo), as_signed(&marks.hi));
        (1..k).all(|i| hi[i - 1] < hi[i] && lo[i - 1] > lo[i])
    } else {
        (1..k).all(|i| marks.hi[i - 1] < marks.hi[i])
    };
    cfg!(all(target_arch = "x86_64", target_feature = "sse2")) && isa == Isa::Avx512 && (1..=8).contains(&k) && ordered
}

/// Encodes values from the start of `values` into `out` from its start,
/// those a length of the fact holds (its range holds the value) eight at a
/// time, and each other one by `other` (the codec's own encoder: the units
/// it wrote into the slice it is given, or `None` to stop there), until
/// the values end, `other` stops, or a group of eight does not fit the
/// room left: the values taken and the units written (`(0, 0)` without a
/// kernel for `isa` and `marks`, [`encodes_flagged_on`]). Nothing is
/// written past those units. Where the kernel stopped before the end, the
/// value there is the caller's to write (or to refuse).
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn encode_flagged<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>>(
    isa: Isa,
    marks: &Marks,
    values: &[T],
    out: &mut [u8],
    mut other: F,
) -> (usize, usize) {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    if !encodes_flagged_on(isa, marks) {
        return (0, 0);
    }
    run(marks, values, out, &mut other)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn run<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>>(
    marks: &Marks,
    values: &[T],
    out: &mut [u8],
    other: &mut F,
) -> (usize, usize) {
    // SAFETY: the caller checked that the machine has AVX-512 (`Isa::all`,
    // whose AVX-512 includes BW, VL, VBMI and VBMI2).
    unsafe {
        match (marks.lsb_first, marks.signed) {
            (true, false) => avx512::run::<T, F, true, false>(marks, values, out, other),
            (true, true) => avx512::run::<T, F, true, true>(marks, values, out, other),
            (false, false) => avx512::run::<T, F, false, false>(marks, values, out, other),
            (false, true) => avx512::run::<T, F, false, true>(marks, values, out, other),
        }
    }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn run<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>>(
    _: &Marks,
    _: &[T],
    _: &mut [u8],
    _: &mut F,
) -> (usize, usize) {
    (0, 0)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx512 {
    use core::arch::x86_64::*;

    use crate::encode::flagged_sixteen::Sixteen;
    use crate::encode::x86::{groups, lane_base, place};
    use crate::flagged::{Marks, Slot};

    /// The kernel: `LSB` is [`Marks::lsb_first`], `SIGNED` [`Marks::signed`].
    ///
    /// # Safety
    /// The machine has AVX-512 F, BW, VL, VBMI and VBMI2.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,popcnt")]
    pub(super) unsafe fn run<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>, const LSB: bool, const SIGNED: bool>(
        marks: &Marks,
        values: &[T],
        out: &mut [u8],
        other: &mut F,
    ) -> (usize, usize) {
        // The first eight lengths (`encodes_flagged_on`): a value of more
        // units is `other`'s.
        let lengths = usize::from(marks.lengths.min(8));
        // (Each length's bounds broadcast where they are compared, from the
        // fact: an array of broadcasts made here was a tenth of a short call.)
        let all = |x: u64| _mm512_set1_epi64(x as i64);
        // SAFETY: 64 readable bytes each (the first eight of ten words).
        let [lo, hi_all, bias] =
            [&marks.lo, &marks.hi, &marks.bias].map(|a| unsafe { _mm512_loadu_si512(a.as_ptr().cast()) });
        let one = _mm512_set1_epi64(1);
        // Byte `8 l + k` of a lane: bits `7 k` to `7 k + 7` of its payload.
        let shifts = _mm512_set1_epi64(0x312A_231C_150E_0700);
        let (place, lane_base) = (place(), lane_base());
        let continues_when_set = marks.continues_when_set;
        // A group is its encoded units (in place in each lane), the units
        // of each value (a mask of its lane's bytes) and the values held.
        let group = |v: __m512i| {
            // Each value's length: one more than the lengths whose greatest
            // value it exceeds, or (signed) whose range it is outside; with
            // the greatest values increasing (and a signed codec's ranges
            // nested) the first that can hold it. It is then checked
            // against that length's range: a value it fails, no length holds.
            let mut less_one = _mm512_setzero_si512();
            for (&lo, &hi) in marks.lo[..lengths - 1].iter().zip(&marks.hi[..lengths - 1]) {
                let outside = if SIGNED {
                    _mm512_cmpgt_epi64_mask(v, all(hi)) | _mm512_cmplt_epi64_mask(v, all(lo))
                } else {
                    _mm512_cmpgt_epu64_mask(v, all(hi))
                };
                less_one = _mm512_mask_add_epi64(less_one, outside, less_one, one);
            }
            let (lo_n, hi_n) = (_mm512_permutexvar_epi64(less_one, lo), _mm512_permutexvar_epi64(less_one, hi_all));
            let held = if SIGNED {
                _mm512_cmpge_epi64_mask(v, lo_n) & _mm512_cmple_epi64_mask(v, hi_n)
            } else {
                _mm512_cmpge_epu64_mask(v, lo_n) & _mm512_cmple_epu64_mask(v, hi_n)
            };
            let payload = if SIGNED { v } else { _mm512_sub_epi64(v, _mm512_permutexvar_epi64(less_one, bias)) };
            let mut bytes = _mm512_and_si512(_mm512_multishift_epi64_epi8(shifts, payload), _mm512_set1_epi8(0x7F));
            // Each byte's value length (byte `8 l + k` ← byte `8 l`, the
            // low byte of lane `l`'s length); `place` is its place in its lane.
            let len = _mm512_permutexvar_epi8(lane_base, _mm512_add_epi64(less_one, one));
            if !LSB {
                // Most significant group first: unit `k` is group `n − 1 − k`.
                let from = _mm512_sub_epi8(_mm512_sub_epi8(len, _mm512_set1_epi8(1)), place);
                let from = _mm512_add_epi8(_mm512_and_si512(from, _mm512_set1_epi8(7)), lane_base);
                bytes = _mm512_permutexvar_epi8(from, bytes);
            }
            let last = _mm512_sub_epi8(len, _mm512_set1_epi8(1));
            let units = _mm512_cmplt_epu8_mask(place, len);
            let continues = _mm512_cmplt_epu8_mask(place, last);
            let flagged = if continues_when_set { continues } else { units & !continues };
            bytes = _mm512_mask_blend_epi8(flagged, bytes, _mm512_or_si512(bytes, _mm512_set1_epi8(0x80u8 as i8)));
            (bytes, units, held)
        };
        let short = Sixteen::new(marks);
        // SAFETY: this function has the features `encode` needs.
        let sixteen = |values: &[T; 16]| short.as_ref().and_then(|s| unsafe { s.encode(values) });
        groups(values, out, other, group, sixteen)
    }
}
