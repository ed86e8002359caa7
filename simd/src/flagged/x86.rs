//! The x86-64 kernels of [`super::decode_flagged`]: the shared loop
//! ([`super::blocks::blocks`]) with each instruction set's mask of the 64 units'
//! flags, and `pext` (BMI2) gathering each value's groups; on AVX-512,
//! sixteen short values at once ([`super::sixteen`]).

/// The kernel for one x86-64 instruction set: `$flags` gives the flag bits
/// (bit 7) of the 64 units at a pointer as a mask, with the `$features` the
/// kernel is compiled for; `$sixteen` says whether they include VBMI and
/// VBMI2, for [`super::sixteen`].
macro_rules! kernel {
    ($isa:ident, $features:literal, $sixteen:literal, $flags:expr) => {
        pub(super) mod $isa {
            use core::arch::x86_64::*;
            use core::mem::MaybeUninit;

            use super::super::blocks::blocks;
            use super::super::sixteen::Sixteen;
            use super::super::{Marks, Slot};

            /// The kernel of [`super::super::decode_flagged`], taking each
            /// value the marks do not cover by `other`.
            ///
            /// # Safety
            /// The machine has the instruction set of `$features`.
            #[target_feature(enable = $features)]
            pub(in super::super) unsafe fn run<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
                marks: &Marks,
                input: &[u8],
                out: &mut [MaybeUninit<T>],
                other: &mut F,
            ) -> (usize, usize) {
                // SAFETY: 64 readable bytes at `units`; the loads are unaligned.
                let flags = |units: &[u8; 64]| unsafe { ($flags)(units.as_ptr()) };
                let gather = |units: u64, mask: u64| _pext_u64(units, mask);
                let short = if $sixteen { Sixteen::new(marks) } else { None };
                let sixteen = |units: &[u8; 64], ends: u64, out: &mut [MaybeUninit<T>]| match &short {
                    // SAFETY: `$sixteen` is set only where `$features`
                    // include those `decode` needs.
                    Some(short) => unsafe { short.decode(units, ends, out) },
                    None => None,
                };
                // Each loop is the same kernel with the group order and the
                // sign as constants.
                match (marks.lsb_first, marks.signed) {
                    (true, false) => blocks::<T, F, true, false>(marks, input, out, other, flags, gather, sixteen),
                    (true, true) => blocks::<T, F, true, true>(marks, input, out, other, flags, gather, sixteen),
                    (false, false) => blocks::<T, F, false, false>(marks, input, out, other, flags, gather, sixteen),
                    (false, true) => blocks::<T, F, false, true>(marks, input, out, other, flags, gather, sixteen),
                }
            }
        }
    };
}

// SAFETY (of each `$flags`): the 64 bytes at `p` are readable; the loads are
// unaligned.
kernel!(avx512, "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi1,bmi2,popcnt", true, |p: *const u8| _mm512_movepi8_mask(
    _mm512_loadu_si512(p.cast())
));
kernel!(avx2, "avx2,bmi1,bmi2", false, |p: *const u8| {
    let lo = _mm256_movemask_epi8(_mm256_loadu_si256(p.cast())) as u32;
    let hi = _mm256_movemask_epi8(_mm256_loadu_si256(p.add(32).cast())) as u32;
    u64::from(lo) | u64::from(hi) << 32
});
kernel!(sse41, "sse4.1,bmi1,bmi2", false, |p: *const u8| {
    let mask = |k: usize| u64::from(_mm_movemask_epi8(_mm_loadu_si128(p.add(16 * k).cast())) as u16);
    mask(0) | mask(1) << 16 | mask(2) << 32 | mask(3) << 48
});
