//! The decoding kernel of `decode/mod.rs` for x86-64 with SSSE3 and SSE4.1;
//! the driver is in `decode/kernel.rs`, and `load` is the validator's
//! (`validate/x86.rs`).

use core::arch::x86_64::*;

use crate::decode::steps::Step;

/// The helpers `kernel.rs` needs, and its instantiation, for `$features`.
macro_rules! helpers {
    ($features:literal) => {
        use super::*;

        pub(crate) type V = __m128i;
        /// Four 32-bit lanes (the same register type on x86).
        pub(crate) type V32 = __m128i;

        /// What the helpers need of the shape, as vectors.
        pub(crate) struct Consts {
            /// The first continuation unit in every byte.
            first: V,
            /// The continuation units' span (`last - first`) in every byte.
            span: V,
            /// `K(1..=4)` as four 32-bit lanes.
            bias: V,
            /// `K(1)` in every 32-bit lane.
            ascii: V,
        }

        #[target_feature(enable = $features)]
        #[inline]
        fn consts(shape: &crate::shared::Shape) -> Consts {
            let (first, last) = shape.continuation;
            let k = shape.bias();
            Consts {
                first: _mm_set1_epi8(first as i8),
                span: _mm_set1_epi8((last - first) as i8),
                // SAFETY: `k` is 16 readable bytes.
                bias: unsafe { _mm_loadu_si128(k.as_ptr().cast()) },
                ascii: _mm_set1_epi32(k[0] as i32),
            }
        }

        /// A bit per unit of the 64 at `p`: set when it is no continuation unit.
        ///
        /// # Safety
        /// `p .. p + 64` must be readable.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn leads(c: &Consts, p: *const u8) -> u64 {
            let mut marks = 0u64;
            for k in 0..4 {
                // SAFETY: within the 64 bytes the caller vouches for.
                let x = unsafe { load(p.add(16 * k)) };
                let d = _mm_sub_epi8(x, c.first);
                let cont = _mm_cmpeq_epi8(_mm_min_epu8(d, c.span), d);
                marks |= u64::from(!(_mm_movemask_epi8(cont) as u16)) << (16 * k);
            }
            marks
        }

        /// Up to four values: gathered into lanes, weighed, less their `K`.
        #[target_feature(enable = $features)]
        #[inline]
        fn values4(c: &Consts, step: &Step, x: V) -> V32 {
            // SAFETY: `Step` is 16-aligned pairs of 16 bytes.
            let (gather, bias) =
                unsafe { (_mm_load_si128(step.gather.as_ptr().cast()), _mm_load_si128(step.bias.as_ptr().cast())) };
            let units = _mm_shuffle_epi8(x, gather);
            let pairs = _mm_maddubs_epi16(units, _mm_set1_epi16(0x4001));
            let raw = _mm_madd_epi16(pairs, _mm_set1_epi32(0x1000_0001));
            _mm_sub_epi32(raw, _mm_shuffle_epi8(c.bias, bias))
        }

        /// Sixteen single-unit values, each less `K(1)`.
        ///
        /// # Safety
        /// `out .. out + 16` must be writable.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn store16<W: crate::shared::Word>(c: &Consts, x: V, out: *mut W) {
            let quarters = [x, _mm_srli_si128::<4>(x), _mm_srli_si128::<8>(x), _mm_srli_si128::<12>(x)];
            for (k, q) in quarters.into_iter().enumerate() {
                let v = _mm_sub_epi32(_mm_cvtepu8_epi32(q), c.ascii);
                // SAFETY: within the caller's 16 words.
                unsafe { store::<W>(v, out.add(4 * k)) };
            }
        }

        /// Four 32-bit lanes as four words.
        ///
        /// # Safety
        /// `out .. out + 4` must be writable.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn store<W: crate::shared::Word>(v: V, out: *mut W) {
            // SAFETY (both arms): four words of `W` are 16 or 32 writable bytes.
            if W::WIDE {
                unsafe {
                    _mm_storeu_si128(out.cast(), _mm_cvtepu32_epi64(v));
                    _mm_storeu_si128(out.cast::<V>().add(1), _mm_cvtepu32_epi64(_mm_srli_si128::<8>(v)));
                }
            } else {
                unsafe { _mm_storeu_si128(out.cast(), v) };
            }
        }

        crate::decode::kernel::decode_kernel!($features);
    };
}

/// The kernel with SSSE3 and SSE4.1.
pub(crate) mod sse41 {
    use crate::validate::x86::sse41::load;
    helpers!("ssse3,sse4.1");
}

/// The kernel with AVX2: the same 16-byte steps, in the three-operand
/// encoding (the machine's vector registers are wider, the steps are not).
pub(crate) mod avx2 {
    /// Sixteen units at `p`, unaligned.
    ///
    /// # Safety
    /// `p .. p + 16` must be readable.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn load(p: *const u8) -> core::arch::x86_64::__m128i {
        // SAFETY: the caller's guarantee; the load is unaligned.
        unsafe { core::arch::x86_64::_mm_loadu_si128(p.cast()) }
    }
    helpers!("avx2");
}
