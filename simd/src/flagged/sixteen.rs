//! Sixteen short values of a flagged stream at once (AVX-512 VBMI and
//! VBMI2), for the AVX-512 kernel's loop ([`super::blocks::blocks`]).
//!
//! Text stored as LEB128 or VLQ is mostly values of one to three units, where
//! the loop's step per value (a count of trailing zeros, a `pext`, a range
//! check and a store) is the cost. With the block's 64 flags as a mask of
//! value ends, sixteen values of at most four units each are read together:
//!
//! 1. one byte compress (`vpcompressb`) of the places 0 to 63 by the ends
//!    gives each value's last unit, in order;
//! 2. two byte permutations (`vpermb`) spread value `v`'s last unit, and the
//!    one before it (the end of the value before, `-1` for the first), to the
//!    four bytes of lane `v`: their difference is the value's length, their
//!    sum with each byte's place the index of its unit (counted down from the
//!    last where the most significant group comes first);
//! 3. a third permutation, masked to the bytes below the length, gathers
//!    the units, and two rounds of shifts join their seven-bit groups;
//! 4. each lane's length picks its bias and its range (`vpermd`), and any
//!    value out of its range sends the block back to the loop's step per
//!    value, which reports it or hands it to the codec's own step.
//!
//! The values are computed in 32-bit lanes, so the lengths read here are
//! those of at most four units whose values, with their bias, stay below
//! `u32::MAX` ([`Sixteen::new`]); a longer value also sends the block back.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::{Marks, Slot};

/// The constants of one stream's fact, by length (lane `n` for `n` units).
pub(super) struct Sixteen {
    /// The longest value read here, 1 to 4 units.
    most: u8,
    lsb_first: bool,
    signed: bool,
    /// The least value of each length (as `i32` for a signed fact).
    lo: [u32; 16],
    /// The greatest value of each length, clamped to the lanes' range.
    hi: [u32; 16],
    /// The value of payload 0 of each length.
    bias: [u32; 16],
    /// `32 - 7n`, which a signed fact's payload of `n` units is shifted up
    /// and back by, sign-extending it.
    shift: [u32; 16],
}

/// The bytes of lane `v` take `v`.
const LANE: [u8; 64] = {
    let mut index = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        index[i] = (i / 4) as u8;
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

/// The bytes 0 to 63.
const IOTA: [u8; 64] = {
    let mut iota = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        iota[i] = i as u8;
        i += 1;
    }
    iota
};

impl Sixteen {
    /// The constants for `marks`, or `None` where no length is read here:
    /// the lengths 1 to 4 (up to [`Marks::lengths`]) up to the first whose
    /// values leave the 32-bit lanes (a bias or a least value at or above
    /// `u32::MAX` less the payloads; a signed fact's bias other than 0).
    pub(super) fn new(marks: &Marks) -> Option<Sixteen> {
        // The lengths not read here (0, and those above `most`, which a
        // block with a value of 0 units or of 5 to 15 reaches) hold no value.
        let (empty_lo, empty_hi) = if marks.signed { (i32::MAX as u32, i32::MIN as u32) } else { (u32::MAX, 0) };
        let mut s = Sixteen {
            most: 0,
            lsb_first: marks.lsb_first,
            signed: marks.signed,
            lo: [empty_lo; 16],
            hi: [empty_hi; 16],
            bias: [0; 16],
            shift: [0; 16],
        };
        for n in 1..=usize::from(marks.lengths.min(4)) {
            let k = n - 1;
            let payloads = (1u64 << (7 * n)) - 1;
            if marks.signed {
                if marks.bias[k] != 0 {
                    break;
                }
                let clamp = |x: u64| (x as i64).clamp(i32::MIN.into(), i32::MAX.into()) as i32 as u32;
                (s.lo[n], s.hi[n]) = (clamp(marks.lo[k]), clamp(marks.hi[k]));
            } else {
                let top = u64::from(u32::MAX);
                if marks.bias[k] + payloads >= top || marks.lo[k] >= top {
                    break;
                }
                (s.lo[n], s.hi[n], s.bias[n]) = (marks.lo[k] as u32, marks.hi[k].min(top) as u32, marks.bias[k] as u32);
            }
            s.shift[n] = 32 - 7 * n as u32;
            s.most = n as u8;
        }
        (s.most > 0).then_some(s)
    }

    /// Sixteen values from the start of `units`, whose value ends are the
    /// set bits of `ends`, into the first slots of `out`: the units they
    /// took, or `None` (nothing written) where fewer than sixteen values
    /// end in the 64 units, `out` has fewer than sixteen slots, or one of
    /// the values is longer than those read here or out of its range.
    ///
    /// # Safety
    /// The machine has AVX-512 F, BW, VBMI and VBMI2, and BMI2; the caller
    /// is compiled with them (this function is inlined into it).
    #[inline(always)]
    pub(super) unsafe fn decode<T: Slot>(
        &self,
        units: &[u8; 64],
        ends: u64,
        out: &mut [MaybeUninit<T>],
    ) -> Option<usize> {
        let wide = match size_of::<T>() {
            4 => false,
            8 => true,
            _ => return None,
        };
        if ends.count_ones() < 16 || out.len() < 16 {
            return None;
        }
        // SAFETY: the caller's machine has the instruction sets; every load
        // reads 64 bytes of a 64-byte array, and the stores write the
        // first 16 slots of `out`, which has 16 of 4 or 8 bytes (64 or
        // 128 bytes).
        unsafe {
            let load = |bytes: &[u8; 64]| _mm512_loadu_si512(bytes.as_ptr().cast());
            let last = _mm512_maskz_compress_epi8(ends, load(&IOTA));
            let end = _mm512_permutexvar_epi8(load(&LANE), last);
            // Lane 0's unit before is -1; lane `v`'s is lane `v - 1`'s last.
            let before_index = _mm512_sub_epi8(load(&LANE), _mm512_set1_epi8(1));
            let before = _mm512_mask_permutexvar_epi8(_mm512_set1_epi8(-1), !0xF, before_index, last);
            let length = _mm512_sub_epi8(end, before);
            if _mm512_cmpgt_epu8_mask(length, _mm512_set1_epi8(self.most as i8)) != 0 {
                return None;
            }
            let place = load(&PLACE);
            let index = if self.lsb_first {
                _mm512_add_epi8(_mm512_add_epi8(before, _mm512_set1_epi8(1)), place)
            } else {
                _mm512_sub_epi8(end, place)
            };
            let keep = _mm512_cmplt_epu8_mask(place, length);
            let groups = _mm512_maskz_permutexvar_epi8(keep, index, load(units));
            let groups = _mm512_and_si512(groups, _mm512_set1_epi8(0x7F));
            let pairs = _mm512_or_si512(
                _mm512_and_si512(groups, _mm512_set1_epi16(0x7F)),
                _mm512_and_si512(_mm512_srli_epi16::<1>(groups), _mm512_set1_epi16(0x3F80)),
            );
            let payload = _mm512_or_si512(
                _mm512_and_si512(pairs, _mm512_set1_epi32(0x3FFF)),
                _mm512_and_si512(_mm512_srli_epi32::<2>(pairs), _mm512_set1_epi32(0x0FFF_C000)),
            );
            let n = _mm512_and_si512(length, _mm512_set1_epi32(0xFF));
            let table = |t: &[u32; 16]| _mm512_permutexvar_epi32(n, _mm512_loadu_si512(t.as_ptr().cast()));
            let (lo, hi) = (table(&self.lo), table(&self.hi));
            let (value, outside) = if self.signed {
                let shift = table(&self.shift);
                let v = _mm512_srav_epi32(_mm512_sllv_epi32(payload, shift), shift);
                (v, _mm512_cmplt_epi32_mask(v, lo) | _mm512_cmpgt_epi32_mask(v, hi))
            } else {
                let v = _mm512_add_epi32(payload, table(&self.bias));
                (v, _mm512_cmplt_epu32_mask(v, lo) | _mm512_cmpgt_epu32_mask(v, hi))
            };
            if outside != 0 {
                return None;
            }
            let at = out.as_mut_ptr().cast::<__m512i>();
            if !wide {
                _mm512_storeu_si512(at, value);
            } else {
                let widen =
                    |half: __m256i| if self.signed { _mm512_cvtepi32_epi64(half) } else { _mm512_cvtepu32_epi64(half) };
                _mm512_storeu_si512(at, widen(_mm512_castsi512_si256(value)));
                _mm512_storeu_si512(at.add(1), widen(_mm512_extracti64x4_epi64::<1>(value)));
            }
            Some(_pdep_u64(1 << 15, ends).trailing_zeros() as usize + 1)
        }
    }
}
