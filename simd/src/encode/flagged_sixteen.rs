//! Sixteen short values of a flagged stream encoded at once (AVX-512 VBMI
//! and VBMI2), for [`encode_flagged`](super::encode_flagged)'s loop.
//!
//! Text written as LEB128 or VLQ is mostly values of one to three units. The
//! kernel's group of eight takes a 64-bit lane per value, eight bytes of
//! room for units it rarely has; here a value takes a 32-bit lane, four
//! units at most:
//!
//! 1. each value's length is one more than the number of lengths whose
//!    greatest value it exceeds (or, signed, whose range it is outside),
//!    checked against that length's range, as in the group of eight;
//! 2. one multishift (`vpmultishiftqb`) cuts each lane's payload into four
//!    groups of seven bits, a byte each, and a byte permutation puts them
//!    most significant first where the fact says so;
//! 3. the flags come from comparing each byte's place with its value's
//!    length, and the loop packs the sixteen values' units with one byte
//!    compress.
//!
//! The lengths taken here are those of at most four units whose values fit
//! 32-bit lanes ([`Sixteen::new`]); sixteen values of which one is longer,
//! or held by no length, go to the group of eight.

use core::arch::x86_64::*;

use crate::flagged::{Marks, Slot};

/// The constants of one stream's fact, by length less one.
pub(super) struct Sixteen {
    /// The longest value taken here, 1 to 4 units.
    most: usize,
    signed: bool,
    lsb_first: bool,
    continues_when_set: bool,
    /// The least and greatest value of each length (as `i32` for a signed
    /// fact), and its bias.
    lo: [u32; 16],
    hi: [u32; 16],
    bias: [u32; 16],
}

/// Byte `4 l + k` takes byte `4 l` (the low byte of lane `l`).
const LANE_BASE: [u8; 64] = {
    let mut index = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        index[i] = (i / 4 * 4) as u8;
        i += 1;
    }
    index
};

/// Each byte's place in its lane.
const PLACE: [u8; 64] = {
    let mut place = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        place[i] = (i % 4) as u8;
        i += 1;
    }
    place
};

impl Sixteen {
    /// The constants for `marks` (whose greatest values increase, and a
    /// signed fact's ranges nest: `encodes_flagged_on`), or `None` where no
    /// length is taken here: the lengths 1 to 4 (up to
    /// [`Marks::lengths`]) before the first whose range or bias leaves the
    /// 32-bit lanes.
    pub(super) fn new(marks: &Marks) -> Option<Sixteen> {
        let mut s = Sixteen {
            most: 0,
            signed: marks.signed,
            lsb_first: marks.lsb_first,
            continues_when_set: marks.continues_when_set,
            lo: [0; 16],
            hi: [0; 16],
            bias: [0; 16],
        };
        for k in 0..usize::from(marks.lengths.min(4)) {
            if marks.signed {
                let fits = |x: u64| i32::try_from(x as i64).is_ok();
                if !fits(marks.lo[k]) || !fits(marks.hi[k]) {
                    break;
                }
            } else if marks.lo[k] >= u64::from(u32::MAX)
                || marks.hi[k] > u64::from(u32::MAX)
                || marks.bias[k] > marks.lo[k]
            {
                break;
            }
            (s.lo[k], s.hi[k], s.bias[k]) = (marks.lo[k] as u32, marks.hi[k] as u32, marks.bias[k] as u32);
            s.most = k + 1;
        }
        (s.most > 0).then_some(s)
    }

    /// The units of the sixteen `values` in place, four bytes a lane, and
    /// the bytes they take (a mask), or `None` where one of them is not
    /// taken here (outside the 32-bit lanes, longer than [`Sixteen::most`]
    /// units, or held by no length).
    ///
    /// # Safety
    /// The machine has AVX-512 F, BW, VL, VBMI and VBMI2; the caller is
    /// compiled with them (this function is inlined into it).
    #[inline(always)]
    pub(super) unsafe fn encode<T: Slot>(&self, values: &[T; 16]) -> Option<(__m512i, u64)> {
        // SAFETY: the caller's machine has the instruction sets; the loads
        // read the 16 values (64 or 128 bytes) and two 64-byte arrays.
        unsafe {
            let v = self.lanes(values)?;
            let table = |t: &[u32; 16], k: __m512i| _mm512_permutexvar_epi32(k, _mm512_loadu_si512(t.as_ptr().cast()));
            let all = |x: u32| _mm512_set1_epi32(x as i32);
            let mut less_one = _mm512_setzero_si512();
            for k in 0..self.most - 1 {
                let outside = if self.signed {
                    _mm512_cmpgt_epi32_mask(v, all(self.hi[k])) | _mm512_cmplt_epi32_mask(v, all(self.lo[k]))
                } else {
                    _mm512_cmpgt_epu32_mask(v, all(self.hi[k]))
                };
                less_one = _mm512_mask_add_epi32(less_one, outside, less_one, all(1));
            }
            let (lo, hi) = (table(&self.lo, less_one), table(&self.hi, less_one));
            let held = if self.signed {
                _mm512_cmpge_epi32_mask(v, lo) & _mm512_cmple_epi32_mask(v, hi)
            } else {
                _mm512_cmpge_epu32_mask(v, lo) & _mm512_cmple_epu32_mask(v, hi)
            };
            if held != u16::MAX {
                return None;
            }
            let payload = if self.signed { v } else { _mm512_sub_epi32(v, table(&self.bias, less_one)) };
            // Byte `k` of each 32-bit lane: bits `7 k` to `7 k + 6`.
            let shifts = _mm512_set1_epi64(0x352E_2720_150E_0700);
            let mut bytes = _mm512_and_si512(_mm512_multishift_epi64_epi8(shifts, payload), _mm512_set1_epi8(0x7F));
            let (base, place) =
                (_mm512_loadu_si512(LANE_BASE.as_ptr().cast()), _mm512_loadu_si512(PLACE.as_ptr().cast()));
            let len = _mm512_permutexvar_epi8(base, _mm512_add_epi32(less_one, all(1)));
            if !self.lsb_first {
                // Most significant group first: unit `k` is group `n − 1 − k`.
                let from = _mm512_sub_epi8(_mm512_sub_epi8(len, _mm512_set1_epi8(1)), place);
                bytes =
                    _mm512_permutexvar_epi8(_mm512_add_epi8(_mm512_and_si512(from, _mm512_set1_epi8(3)), base), bytes);
            }
            let units = _mm512_cmplt_epu8_mask(place, len);
            let continues = _mm512_cmplt_epu8_mask(place, _mm512_sub_epi8(len, _mm512_set1_epi8(1)));
            let flagged = if self.continues_when_set { continues } else { units & !continues };
            let bytes = _mm512_mask_blend_epi8(flagged, bytes, _mm512_or_si512(bytes, _mm512_set1_epi8(0x80u8 as i8)));
            Some((bytes, units))
        }
    }

    /// The sixteen values as 32-bit lanes, or `None` where one does not fit
    /// (as `u32`, or as `i32` for a signed fact).
    ///
    /// # Safety
    /// As [`Sixteen::encode`].
    #[inline(always)]
    unsafe fn lanes<T: Slot>(&self, values: &[T; 16]) -> Option<__m512i> {
        let p = values.as_ptr();
        // SAFETY: 16 values readable at `p`, of 4 or 8 bytes.
        unsafe {
            match size_of::<T>() {
                4 => {
                    let v = _mm512_loadu_si512(p.cast());
                    // A value of a signed type above `i32::MAX` as `u32`,
                    // or of an unsigned one below 0 as `i32`, does not fit.
                    let wrong =
                        if self.signed == T::SIGNED { 0 } else { _mm512_cmplt_epi32_mask(v, _mm512_setzero_si512()) };
                    (wrong == 0).then_some(v)
                }
                8 => {
                    let (a, b) = (_mm512_loadu_si512(p.cast()), _mm512_loadu_si512(p.cast::<__m512i>().add(1).cast()));
                    let fits = |x: __m512i| {
                        if self.signed {
                            let narrow = _mm512_cvtepi32_epi64(_mm512_cvtepi64_epi32(x));
                            _mm512_cmpeq_epi64_mask(narrow, x) == u8::MAX
                        } else {
                            _mm512_cmpgt_epu64_mask(x, _mm512_set1_epi64(i64::from(u32::MAX))) == 0
                        }
                    };
                    if !fits(a) || !fits(b) {
                        return None;
                    }
                    let (a, b) = (_mm512_cvtepi64_epi32(a), _mm512_cvtepi64_epi32(b));
                    Some(_mm512_inserti64x4::<1>(_mm512_castsi256_si512(a), b))
                }
                _ => None,
            }
        }
    }
}
