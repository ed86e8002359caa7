//! The kernel for x86-64: SSSE3/SSE4.1 (16-byte vectors), AVX2 (32-byte)
//! and AVX-512 BW (64-byte: one vector per chunk).
//! Each helper is a single instruction or two; the kernel is in
//! `validate/kernel.rs`.

pub(crate) mod sse41 {
    use core::arch::x86_64::*;

    type V = __m128i;
    const W: usize = 16;

    /// # Safety
    /// `p .. p + 16` must be readable.
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    pub(crate) unsafe fn load(p: *const u8) -> V {
        // SAFETY: the caller's guarantee; the load is unaligned.
        unsafe { _mm_loadu_si128(p.cast()) }
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn splat(b: u8) -> V {
        _mm_set1_epi8(b as i8)
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn table(t: &[u8; 16]) -> V {
        // SAFETY: `t` is 16 readable bytes.
        unsafe { _mm_loadu_si128(t.as_ptr().cast()) }
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn table_wide(t: &[u8; W]) -> V {
        table(t)
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn joined(_cur: V, before: V) -> V {
        before
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn back<const N: usize>(cur: V, joined: V) -> V {
        match N {
            1 => _mm_alignr_epi8::<15>(cur, joined),
            2 => _mm_alignr_epi8::<14>(cur, joined),
            3 => _mm_alignr_epi8::<13>(cur, joined),
            4 => _mm_alignr_epi8::<12>(cur, joined),
            5 => _mm_alignr_epi8::<11>(cur, joined),
            6 => _mm_alignr_epi8::<10>(cur, joined),
            7 => _mm_alignr_epi8::<9>(cur, joined),
            8 => _mm_alignr_epi8::<8>(cur, joined),
            9 => _mm_alignr_epi8::<7>(cur, joined),
            10 => _mm_alignr_epi8::<6>(cur, joined),
            11 => _mm_alignr_epi8::<5>(cur, joined),
            12 => _mm_alignr_epi8::<4>(cur, joined),
            13 => _mm_alignr_epi8::<3>(cur, joined),
            14 => _mm_alignr_epi8::<2>(cur, joined),
            _ => _mm_alignr_epi8::<1>(cur, joined),
        }
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn lookup(t: V, i: V) -> V {
        _mm_shuffle_epi8(t, i)
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn high(v: V) -> V {
        _mm_and_si128(_mm_srli_epi16::<4>(v), _mm_set1_epi8(0x0F))
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn low(v: V) -> V {
        _mm_and_si128(v, _mm_set1_epi8(0x0F))
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn and(a: V, b: V) -> V {
        _mm_and_si128(a, b)
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn or(a: V, b: V) -> V {
        _mm_or_si128(a, b)
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn xor(a: V, b: V) -> V {
        _mm_xor_si128(a, b)
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn max(a: V, b: V) -> V {
        _mm_max_epu8(a, b)
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn less_signed(a: V, b: V) -> V {
        _mm_cmpgt_epi8(b, a)
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn equal(a: V, b: V) -> V {
        _mm_cmpeq_epi8(a, b)
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn subs(a: V, b: V) -> V {
        _mm_subs_epu8(a, b)
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn any(v: V) -> bool {
        _mm_testz_si128(v, v) == 0
    }
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn any_high(v: V) -> bool {
        _mm_movemask_epi8(v) != 0
    }

    crate::validate::kernel::kernel!("ssse3,sse4.1");
}

pub(crate) mod avx2 {
    use core::arch::x86_64::*;

    type V = __m256i;
    const W: usize = 32;

    /// # Safety
    /// `p .. p + 32` must be readable.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn load(p: *const u8) -> V {
        // SAFETY: the caller's guarantee; the load is unaligned.
        unsafe { _mm256_loadu_si256(p.cast()) }
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn splat(b: u8) -> V {
        _mm256_set1_epi8(b as i8)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn table(t: &[u8; 16]) -> V {
        // SAFETY: `t` is 16 readable bytes.
        _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(t.as_ptr().cast()) })
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn table_wide(t: &[u8; W]) -> V {
        // SAFETY: `t` is 32 readable bytes.
        unsafe { _mm256_loadu_si256(t.as_ptr().cast()) }
    }
    /// The high half of `before` and the low half of `cur`: per 128-bit lane,
    /// what comes before `cur`'s lane.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn joined(cur: V, before: V) -> V {
        _mm256_permute2x128_si256::<0x21>(before, cur)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn back<const N: usize>(cur: V, joined: V) -> V {
        match N {
            1 => _mm256_alignr_epi8::<15>(cur, joined),
            2 => _mm256_alignr_epi8::<14>(cur, joined),
            3 => _mm256_alignr_epi8::<13>(cur, joined),
            4 => _mm256_alignr_epi8::<12>(cur, joined),
            5 => _mm256_alignr_epi8::<11>(cur, joined),
            6 => _mm256_alignr_epi8::<10>(cur, joined),
            7 => _mm256_alignr_epi8::<9>(cur, joined),
            8 => _mm256_alignr_epi8::<8>(cur, joined),
            9 => _mm256_alignr_epi8::<7>(cur, joined),
            10 => _mm256_alignr_epi8::<6>(cur, joined),
            11 => _mm256_alignr_epi8::<5>(cur, joined),
            12 => _mm256_alignr_epi8::<4>(cur, joined),
            13 => _mm256_alignr_epi8::<3>(cur, joined),
            14 => _mm256_alignr_epi8::<2>(cur, joined),
            _ => _mm256_alignr_epi8::<1>(cur, joined),
        }
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn lookup(t: V, i: V) -> V {
        _mm256_shuffle_epi8(t, i)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn high(v: V) -> V {
        _mm256_and_si256(_mm256_srli_epi16::<4>(v), _mm256_set1_epi8(0x0F))
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn low(v: V) -> V {
        _mm256_and_si256(v, _mm256_set1_epi8(0x0F))
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn and(a: V, b: V) -> V {
        _mm256_and_si256(a, b)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn or(a: V, b: V) -> V {
        _mm256_or_si256(a, b)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn xor(a: V, b: V) -> V {
        _mm256_xor_si256(a, b)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn max(a: V, b: V) -> V {
        _mm256_max_epu8(a, b)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn less_signed(a: V, b: V) -> V {
        _mm256_cmpgt_epi8(b, a)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn equal(a: V, b: V) -> V {
        _mm256_cmpeq_epi8(a, b)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn subs(a: V, b: V) -> V {
        _mm256_subs_epu8(a, b)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn any(v: V) -> bool {
        _mm256_testz_si256(v, v) == 0
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn any_high(v: V) -> bool {
        _mm256_movemask_epi8(v) != 0
    }

    crate::validate::kernel::kernel!("avx2");
}

pub(crate) mod avx512 {
    use core::arch::x86_64::*;

    type V = __m512i;
    const W: usize = 64;

    /// # Safety
    /// `p .. p + 64` must be readable.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    unsafe fn load(p: *const u8) -> V {
        // SAFETY: the caller's guarantee; the load is unaligned.
        unsafe { _mm512_loadu_si512(p.cast()) }
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn splat(b: u8) -> V {
        _mm512_set1_epi8(b as i8)
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn table(t: &[u8; 16]) -> V {
        // SAFETY: `t` is 16 readable bytes.
        _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(t.as_ptr().cast()) })
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn table_wide(t: &[u8; W]) -> V {
        // SAFETY: `t` is 64 readable bytes.
        unsafe { _mm512_loadu_si512(t.as_ptr().cast()) }
    }
    /// The last 128-bit lane of `before` and the first three of `cur`: per
    /// lane, what comes before `cur`'s lane.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn joined(cur: V, before: V) -> V {
        _mm512_alignr_epi64::<6>(cur, before)
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn back<const N: usize>(cur: V, joined: V) -> V {
        match N {
            1 => _mm512_alignr_epi8::<15>(cur, joined),
            2 => _mm512_alignr_epi8::<14>(cur, joined),
            3 => _mm512_alignr_epi8::<13>(cur, joined),
            4 => _mm512_alignr_epi8::<12>(cur, joined),
            5 => _mm512_alignr_epi8::<11>(cur, joined),
            6 => _mm512_alignr_epi8::<10>(cur, joined),
            7 => _mm512_alignr_epi8::<9>(cur, joined),
            8 => _mm512_alignr_epi8::<8>(cur, joined),
            9 => _mm512_alignr_epi8::<7>(cur, joined),
            10 => _mm512_alignr_epi8::<6>(cur, joined),
            11 => _mm512_alignr_epi8::<5>(cur, joined),
            12 => _mm512_alignr_epi8::<4>(cur, joined),
            13 => _mm512_alignr_epi8::<3>(cur, joined),
            14 => _mm512_alignr_epi8::<2>(cur, joined),
            _ => _mm512_alignr_epi8::<1>(cur, joined),
        }
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn lookup(t: V, i: V) -> V {
        _mm512_shuffle_epi8(t, i)
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn high(v: V) -> V {
        _mm512_and_si512(_mm512_srli_epi16::<4>(v), _mm512_set1_epi8(0x0F))
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn low(v: V) -> V {
        _mm512_and_si512(v, _mm512_set1_epi8(0x0F))
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn and(a: V, b: V) -> V {
        _mm512_and_si512(a, b)
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn or(a: V, b: V) -> V {
        _mm512_or_si512(a, b)
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn xor(a: V, b: V) -> V {
        _mm512_xor_si512(a, b)
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn max(a: V, b: V) -> V {
        _mm512_max_epu8(a, b)
    }
    /// Comparisons give a mask register, widened back to bytes of all ones.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn less_signed(a: V, b: V) -> V {
        _mm512_movm_epi8(_mm512_cmplt_epi8_mask(a, b))
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn equal(a: V, b: V) -> V {
        _mm512_movm_epi8(_mm512_cmpeq_epi8_mask(a, b))
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn subs(a: V, b: V) -> V {
        _mm512_subs_epu8(a, b)
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn any(v: V) -> bool {
        _mm512_test_epi8_mask(v, v) != 0
    }
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn any_high(v: V) -> bool {
        _mm512_movepi8_mask(v) != 0
    }

    crate::validate::kernel::kernel!("avx512f,avx512bw");
}
