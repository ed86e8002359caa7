//! The one-pass kernel into code units for aarch64 NEON: the decoding kernel
//! of `decode/kernel.rs` over a sink that writes each step's values as the
//! target's code units (`Lanes`), as `sse41.rs` does on x86-64: the same
//! checks, packs and table, in NEON's operations.

use core::arch::aarch64::*;

use super::lanes::{Target, PAIR_SHUFFLES};
use crate::decode::neon::{Consts, Sink, V, V32};

/// The sink: the target's constants as vectors, and where to write.
pub(super) struct Lanes {
    pub(super) out: *mut u8,
    pub(super) written: usize,
    /// Each single-unit range as its low end and its width.
    single: [(V32, V32); 2],
    /// The pair's values (low end, width), bias, first units, low bits' mask,
    /// and minus their count (a right shift).
    pair: Option<[V32; 7]>,
    wide: bool,
    big_endian: bool,
    /// `K(1)`, what a single-unit sequence's unit is worth more than its value.
    k1: u32,
    /// Whether every single-unit sequence's value (0–FF) is a single unit.
    bytes_single: bool,
    /// Bit `k` in lane `k`: a lane's place in a mask of four.
    bits: V32,
}

impl Lanes {
    /// The sink for `target`, writing nothing yet.
    #[target_feature(enable = "neon")]
    pub(super) fn new(target: &Target) -> Lanes {
        let u = vdupq_n_u32;
        let range = |(lo, hi): (u32, u32)| (u(lo), u(hi.wrapping_sub(lo)));
        let bits = [1u32, 2, 4, 8];
        Lanes {
            out: core::ptr::null_mut(),
            written: 0,
            single: target.single.map(range),
            pair: target.pair.map(|p| {
                let (lo, span) = range((p.lo, p.hi));
                let shift = vdupq_n_s32(-i32::from(p.low_bits));
                [lo, span, u(p.bias), u(p.high), u(p.low), u((1 << p.low_bits) - 1), vreinterpretq_u32_s32(shift)]
            }),
            wide: target.bytes == 4,
            big_endian: target.big_endian,
            k1: target.k1,
            bytes_single: target.bytes_single(),
            // SAFETY: four readable words.
            bits: unsafe { vld1q_u32(bits.as_ptr()) },
        }
    }

    /// The lanes of `v` in `lo..=lo + span`, as all-ones lanes.
    #[target_feature(enable = "neon")]
    #[inline]
    fn within(v: V32, (lo, span): (V32, V32)) -> V32 {
        vcleq_u32(vsubq_u32(v, lo), span)
    }

    /// A bit per lane of `mask`, lane `k` bit `k`.
    #[target_feature(enable = "neon")]
    #[inline]
    fn bits(&self, mask: V32) -> u32 {
        vaddvq_u32(vandq_u32(mask, self.bits))
    }

    /// `v`'s bytes with each unit's reversed for a big-endian target.
    #[target_feature(enable = "neon")]
    #[inline]
    fn swapped(&self, v: V) -> V {
        match (self.big_endian, self.wide) {
            (false, _) => v,
            (true, false) => vrev16q_u8(v),
            (true, true) => vrev32q_u8(v),
        }
    }

    /// Writes the first `count` lanes of `v`, all single units.
    ///
    /// # Safety
    /// `out + written` writable for 16 bytes.
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn singles(&mut self, v: V32, count: usize) {
        let at = self.out.wrapping_add(self.written);
        if self.wide {
            // SAFETY: the caller's 16 bytes.
            unsafe { vst1q_u8(at, self.swapped(vreinterpretq_u8_u32(v))) };
            self.written += 4 * count;
        } else {
            // (Single units of 16 bits are at most FFFF: the narrowing keeps them.)
            let units = vreinterpretq_u8_u16(vcombine_u16(vmovn_u32(v), vdup_n_u16(0)));
            // SAFETY: 8 of the caller's 16 bytes.
            unsafe { vst1_u8(at, vget_low_u8(self.swapped(units))) };
            self.written += 2 * count;
        }
    }
}

impl Sink for Lanes {
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn four(&mut self, _: &Consts, v: V32, count: usize) -> bool {
        let want = (1 << count) - 1;
        let single = vorrq_u32(Lanes::within(v, self.single[0]), Lanes::within(v, self.single[1]));
        let single_bits = self.bits(single) & want;
        if single_bits == want {
            // SAFETY: the kernel leaves 16 units for the step: 64 bytes.
            unsafe { self.singles(v, count) };
            return true;
        }
        let Some([lo, span, bias, high, low, mask, shift]) = self.pair else { return false };
        let pairs = vbicq_u32(Lanes::within(v, (lo, span)), single);
        let pair_bits = self.bits(pairs) & want;
        if single_bits | pair_bits != want {
            return false;
        }
        // Each pair lane as its high unit, and its low unit above it.
        let w = vsubq_u32(v, bias);
        let first = vaddq_u32(high, vshlq_u32(w, vreinterpretq_s32_u32(shift)));
        let second = vaddq_u32(low, vandq_u32(w, mask));
        let joined = vorrq_u32(first, vshlq_n_u32::<16>(second));
        let lanes = vreinterpretq_u8_u32(vbslq_u32(pairs, joined, v));
        // SAFETY: a 16-byte row of the table.
        let shuffle = unsafe { vld1q_u8(PAIR_SHUFFLES[pair_bits as usize].as_ptr()) };
        let packed = self.swapped(vqtbl1q_u8(lanes, shuffle));
        // SAFETY: the kernel leaves 16 units for the step: 64 bytes.
        unsafe { vst1q_u8(self.out.wrapping_add(self.written), packed) };
        self.written += 2 * (count + pair_bits.count_ones() as usize);
        true
    }

    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn sixteen(&mut self, _: &Consts, x: V) -> bool {
        let k1 = vdupq_n_u32(self.k1);
        let (low, high) = (vmovl_u8(vget_low_u8(x)), vmovl_high_u8(x));
        let quarters =
            [vmovl_u16(vget_low_u16(low)), vmovl_high_u16(low), vmovl_u16(vget_low_u16(high)), vmovl_high_u16(high)];
        let values = quarters.map(|q| vsubq_u32(q, k1));
        if !self.bytes_single {
            let all = values.iter().fold(vdupq_n_u32(u32::MAX), |all, &v| {
                let single = vorrq_u32(Lanes::within(v, self.single[0]), Lanes::within(v, self.single[1]));
                vandq_u32(all, single)
            });
            if vminvq_u32(all) == 0 {
                return false;
            }
        }
        for v in values {
            // SAFETY: the kernel leaves 16 units for the step: 64 bytes, of
            // which each quarter writes at most 16.
            unsafe { self.singles(v, 4) };
        }
        true
    }

    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn one(&mut self, _: u64) -> bool {
        // Sequences of five units or more end the run.
        false
    }
}
