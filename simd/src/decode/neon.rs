//! The decoding kernel of `decode/mod.rs` for aarch64 NEON; the driver is in
//! `decode/kernel.rs`, and `load` is the validator's (`validate/neon.rs`).

use core::arch::aarch64::*;

use crate::decode::steps::Step;
use crate::validate::neon::{lane_bits, load, mask64};

pub(crate) type V = uint8x16_t;
/// Four 32-bit lanes.
pub(crate) type V32 = uint32x4_t;

/// What the helpers need of the shape, as vectors.
pub(crate) struct Consts {
    /// The first continuation unit in every byte.
    first: V,
    /// The continuation units' span (`last - first`) in every byte.
    span: V,
    /// `K(1..=4)` as four 32-bit lanes, as bytes for the lookup.
    bias: V,
    /// `K(1)` in every 32-bit lane.
    ascii: uint32x4_t,
    /// Bit `k % 8` in byte `k`: a lane's place in the mask of its eight.
    bits: V,
}

#[target_feature(enable = "neon")]
#[inline]
fn consts(shape: &crate::shared::Shape) -> Consts {
    let (first, last) = shape.continuation;
    let k = shape.bias();
    Consts {
        first: vdupq_n_u8(first),
        span: vdupq_n_u8(last - first),
        // SAFETY: `k` is four readable words.
        bias: vreinterpretq_u8_u32(unsafe { vld1q_u32(k.as_ptr()) }),
        ascii: vdupq_n_u32(k[0]),
        bits: lane_bits(),
    }
}

/// A bit per unit of the 64 at `p`: set when it is no continuation unit.
/// Each lead lane keeps its bit of `Consts::bits`, and [`mask64`] sums
/// them into a mask.
///
/// # Safety
/// `p .. p + 64` must be readable.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn leads(c: &Consts, p: *const u8) -> u64 {
    let lead = |k: usize| {
        // SAFETY: within the 64 bytes the caller vouches for.
        let x = unsafe { load(p.add(16 * k)) };
        let continuation = vcleq_u8(vsubq_u8(x, c.first), c.span);
        vbicq_u8(c.bits, continuation)
    };
    mask64([lead(0), lead(1), lead(2), lead(3)])
}

/// Up to four values: gathered into lanes, weighed, less their `K`.
#[target_feature(enable = "neon")]
#[inline]
fn values4(c: &Consts, step: &Step, x: V) -> V32 {
    // SAFETY: `Step` is pairs of 16 readable bytes.
    let (gather, bias) = unsafe { (vld1q_u8(step.gather.as_ptr()), vld1q_u8(step.bias.as_ptr())) };
    // Indices past 15 (the step's 80s) give 0, as on x86.
    let units = vreinterpretq_u16_u8(vqtbl1q_u8(x, gather));
    let pairs = vmlaq_n_u16(vandq_u16(units, vdupq_n_u16(0xFF)), vshrq_n_u16::<8>(units), 64);
    let pairs = vreinterpretq_u32_u16(pairs);
    let raw = vmlaq_n_u32(vandq_u32(pairs, vdupq_n_u32(0xFFFF)), vshrq_n_u32::<16>(pairs), 4096);
    vsubq_u32(raw, vreinterpretq_u32_u8(vqtbl1q_u8(c.bias, bias)))
}

/// Sixteen single-unit values, each less `K(1)`.
///
/// # Safety
/// `out .. out + 16` must be writable.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn store16<W: crate::shared::Word>(c: &Consts, x: V, out: *mut W) {
    let (low, high) = (vmovl_u8(vget_low_u8(x)), vmovl_high_u8(x));
    let quarters =
        [vmovl_u16(vget_low_u16(low)), vmovl_high_u16(low), vmovl_u16(vget_low_u16(high)), vmovl_high_u16(high)];
    for (k, q) in quarters.into_iter().enumerate() {
        // SAFETY: within the caller's 16 words.
        unsafe { store::<W>(vsubq_u32(q, c.ascii), out.add(4 * k)) };
    }
}

/// Four 32-bit lanes as four words.
///
/// # Safety
/// `out .. out + 4` must be writable.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn store<W: crate::shared::Word>(v: uint32x4_t, out: *mut W) {
    // SAFETY (both arms): four words of `W` are 16 or 32 writable bytes; the
    // stores have no alignment requirement.
    if W::WIDE {
        let out = out.cast::<u64>();
        unsafe {
            vst1q_u64(out, vmovl_u32(vget_low_u32(v)));
            vst1q_u64(out.add(2), vmovl_high_u32(v));
        }
    } else {
        unsafe { vst1q_u32(out.cast(), v) };
    }
}

crate::decode::kernel::decode_kernel!("neon");
