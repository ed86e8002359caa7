//! Bulk encoding of integer streams, eight values at a time, on AVX-512,
//! from the same facts the decoders read: `flagged.rs`
//! ([`encode_flagged`]: the units flag where a value ends, as LEB128's do)
//! and `prefixed.rs` ([`encode_prefixed`]: the first unit gives the length,
//! as QUIC's does), and from the forms of an encoder whose units are fixed
//! bits and fields of the payload: `bit_forms.rs` ([`encode_bit_forms`]:
//! X/Open FSS-UTF's biased forms, SQLite's varints, UTF-EBCDIC's). Each kernel makes a group of eight values into units
//! in place, eight bytes a lane, with a mask of the units each value takes;
//! the loop here (`x86::groups`) packs them back to back with one byte
//! compress and one masked store, so nothing is written past the last unit
//! and the output is never filled beforehand. A value the fact does not
//! hold is written by the caller's encoder, inside the loop.

mod bit_forms;
mod flagged;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod flagged_sixteen;
mod prefixed;

pub use bit_forms::{encode_bit_forms, encodes_bit_forms_on, BitForms};
pub use flagged::{encode_flagged, encodes_flagged_on};
pub use prefixed::{encode_prefixed, encodes_prefixed_on};

/// What the AVX-512 encoders share: the loop over groups, the load of eight
/// values and the constants of a lane's bytes.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod x86 {
    use core::arch::x86_64::*;

    use crate::flagged::Slot;

    /// Each byte's place in its lane of eight: `0, 1, …, 7` in every lane.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub(super) fn place() -> __m512i {
        _mm512_set1_epi64(0x0706_0504_0302_0100)
    }

    /// Each byte's lane's first byte: `8 l` in every byte of lane `l`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub(super) fn lane_base() -> __m512i {
        _mm512_set_epi64(
            0x3838_3838_3838_3838,
            0x3030_3030_3030_3030,
            0x2828_2828_2828_2828,
            0x2020_2020_2020_2020,
            0x1818_1818_1818_1818,
            0x1010_1010_1010_1010,
            0x0808_0808_0808_0808,
            0,
        )
    }

    /// Encodes `values` into `out` by `group`, which makes eight values
    /// (64-bit lanes) into their units in place, the units each takes (a
    /// mask of its lane's bytes) and the values its fact holds, and by
    /// `sixteen` where it takes the next sixteen (their units in place and
    /// a mask of them; `None` in the kernels without such a step); each
    /// value `group` does not hold by `other`. Whole groups go first, without waiting
    /// on each other's tests; a group with a value not held is written up
    /// to it. Stops where `other` does or a group does not fit: the values
    /// taken and the units written.
    ///
    /// Inlined into each kernel, so that the kernel's target features and
    /// its `group` are compiled into one loop.
    #[inline(always)]
    pub(super) fn groups<T: Slot, F: FnMut(T, &mut [u8]) -> Option<usize>>(
        values: &[T],
        out: &mut [u8],
        other: &mut F,
        group: impl Fn(__m512i) -> (__m512i, u64, u8),
        sixteen: impl Fn(&[T; 16]) -> Option<(__m512i, u64)>,
    ) -> (usize, usize) {
        let (mut done, mut written) = (0usize, 0usize);
        loop {
            while let Some(eight) = values.get(done..done + 8) {
                // Sixteen short values at once, where the kernel has a step
                // for them (and they fit: else the group of eight says).
                let short = values.get(done..).and_then(|v| v.first_chunk::<16>()).and_then(&sixteen);
                // SAFETY: as below.
                if let Some(n) = short.and_then(|(bytes, units)| unsafe { put(out, written, bytes, units) }) {
                    (done, written) = (done + 16, written + n);
                    continue;
                }
                // SAFETY: eight values are readable.
                let (bytes, units, held) = group(unsafe { load::<T>(eight.as_ptr(), u8::MAX) });
                if held != u8::MAX {
                    break;
                }
                // SAFETY: the kernels that inline this loop have AVX-512.
                let Some(n) = (unsafe { put(out, written, bytes, units) }) else { return (done, written) };
                (done, written) = (done + 8, written + n);
            }
            // The last values, or a group with a value not held: up to it.
            let lanes = (values.len() - done).min(8);
            if lanes == 0 {
                break;
            }
            let valid = ((1u32 << lanes) - 1) as u8;
            // SAFETY: `lanes` values are readable at `done`; the load is masked.
            let (bytes, units, held) = group(unsafe { load::<T>(values.as_ptr().add(done), valid) });
            let count = ((held & valid).trailing_ones() as usize).min(lanes);
            // SAFETY: as above.
            let Some(n) = (unsafe { put(out, written, bytes, units & byte_lanes(count)) }) else {
                return (done, written);
            };
            (done, written) = (done + count, written + n);
            let Some(&value) = values.get(done) else { break };
            let Some(n) = other(value, &mut out[written..]) else { break };
            (done, written) = (done + 1, written + n);
        }
        (done, written)
    }

    /// Packs the units `keep` of `bytes` into `out` at `written`, if they
    /// fit: how many.
    ///
    /// # Safety
    /// The machine has AVX-512 F, BW, VL and VBMI2.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi2,popcnt")]
    #[inline]
    unsafe fn put(out: &mut [u8], written: usize, bytes: __m512i, keep: u64) -> Option<usize> {
        let units = keep.count_ones() as usize;
        if units > out.len() - written {
            return None;
        }
        let packed = _mm512_maskz_compress_epi8(keep, bytes);
        let store = if units == 64 { u64::MAX } else { (1u64 << units) - 1 };
        // SAFETY: `units <= out.len() − written` bytes are written.
        unsafe { _mm512_mask_storeu_epi8(out.as_mut_ptr().add(written).cast(), store, packed) };
        Some(units)
    }

    /// The bytes of the first `count` lanes of eight, as a mask.
    #[inline(always)]
    fn byte_lanes(count: usize) -> u64 {
        if count >= 8 {
            u64::MAX
        } else {
            (1u64 << (8 * count)) - 1
        }
    }

    /// Up to eight values at `p` (those of `valid`) as 64-bit lanes: a
    /// signed type's sign-extended, an unsigned type's zero-extended.
    ///
    /// # Safety
    /// The values of `valid` are readable at `p`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    #[inline]
    unsafe fn load<T: Slot>(p: *const T, valid: u8) -> __m512i {
        // SAFETY: the caller's; masked lanes are not read.
        unsafe {
            match (size_of::<T>(), T::SIGNED) {
                (8, _) => _mm512_maskz_loadu_epi64(valid, p.cast()),
                (_, false) => _mm512_cvtepu32_epi64(_mm256_maskz_loadu_epi32(valid, p.cast())),
                (_, true) => _mm512_cvtepi32_epi64(_mm256_maskz_loadu_epi32(valid, p.cast())),
            }
        }
    }
}
