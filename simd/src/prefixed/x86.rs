//! The AVX2 and SSE4.1 kernels of [`super::decode_prefixed`]: each unit's
//! length by byte shuffles, the starts by the shared chain
//! ([`super::chain::chain_starts`]), and each value read from its start by one
//! word load ([`super::chain::PerTag::values`]), so that no read waits on the
//! value before. One macro, instantiated per instruction set with the way
//! it computes the 32 pairs' lengths.

/// The kernel for one x86-64 instruction set: `$index` gives the 32 pairs'
/// lengths `(a − 1) + 8 (b − 1)` of the 64 units at a pointer, from the
/// units' lengths less one by tag (a 16-byte table), the tag's shift and
/// the mask of its bits, with the `$features` the kernel is compiled for.
macro_rules! kernel {
    ($isa:ident, $features:literal, $index:expr) => {
        pub(super) mod $isa {
            use core::arch::x86_64::*;
            use core::mem::MaybeUninit;

            use super::super::chain::{blocks, chain_starts, PerTag};
            use super::super::{Slot, Tags};

            /// The kernel, taking each value the tags do not decode by
            /// `other`; `WHOLE` is [`Tags::whole`].
            ///
            /// # Safety
            /// The machine has the instruction set of `$features`.
            #[target_feature(enable = $features)]
            pub(in super::super) unsafe fn run<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>, const WHOLE: bool>(
                tags: &Tags,
                input: &[u8],
                out: &mut [MaybeUninit<T>],
                other: &mut F,
            ) -> (usize, usize) {
                let per_tag = PerTag::new(tags);
                let lengths: [u8; 16] = core::array::from_fn(|tag| tags.lengths[tag].saturating_sub(1));
                // SAFETY: 16 readable bytes.
                let lengths = unsafe { _mm_loadu_si128(lengths.as_ptr().cast()) };
                let shift = _mm_cvtsi32_si128(i32::from(tags.shift));
                let tag_bits = (0xFF >> tags.shift) as i8;
                blocks(input, out, other, |units, out| {
                    // SAFETY: the machine has the features this function
                    // enables; 64 readable bytes at `units`.
                    unsafe {
                        let index: [u8; 32] = ($index)(units.as_ptr(), lengths, shift, tag_bits);
                        let (starts, taken) = chain_starts(&index, |word| _pext_u64(word, 0xC0C0_C0C0_C0C0_C0C0));
                        let (wrote, stop) = per_tag.values::<T, WHOLE>(units, starts, out);
                        (wrote, stop, taken)
                    }
                })
            }
        }
    };
}

// SAFETY (of each `$index`): the 64 bytes at `p` are readable; the loads
// are unaligned.
kernel!(avx2, "avx2,bmi1,bmi2", |p: *const u8, lengths: __m128i, shift: __m128i, tag_bits: i8| {
    let table = _mm256_broadcastsi128_si256(lengths);
    let pairs = |k: usize| {
        let x = _mm256_loadu_si256(p.add(32 * k).cast());
        let tag = _mm256_and_si256(_mm256_srl_epi16(x, shift), _mm256_set1_epi8(tag_bits));
        _mm256_maddubs_epi16(_mm256_shuffle_epi8(table, tag), _mm256_set1_epi16(0x0801))
    };
    // The pack interleaves the halves' lanes; the permutation restores order.
    let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(pairs(0), pairs(1)));
    let mut index = [0u8; 32];
    _mm256_storeu_si256(index.as_mut_ptr().cast(), packed);
    index
});
kernel!(sse41, "sse4.1,bmi1,bmi2", |p: *const u8, lengths: __m128i, shift: __m128i, tag_bits: i8| {
    let pairs = |k: usize| {
        let x = _mm_loadu_si128(p.add(16 * k).cast());
        let tag = _mm_and_si128(_mm_srl_epi16(x, shift), _mm_set1_epi8(tag_bits));
        _mm_maddubs_epi16(_mm_shuffle_epi8(lengths, tag), _mm_set1_epi16(0x0801))
    };
    let mut index = [0u8; 32];
    _mm_storeu_si128(index.as_mut_ptr().cast(), _mm_packus_epi16(pairs(0), pairs(1)));
    _mm_storeu_si128(index.as_mut_ptr().add(16).cast(), _mm_packus_epi16(pairs(2), pairs(3)));
    index
});
