//! The kernel for aarch64 NEON (16-byte vectors); the kernel is in
//! `validate/kernel.rs`.

use core::arch::aarch64::*;

type V = uint8x16_t;
const W: usize = 16;

/// # Safety
/// `p .. p + 16` must be readable.
#[target_feature(enable = "neon")]
#[inline]
pub(crate) unsafe fn load(p: *const u8) -> V {
    // SAFETY: the caller's guarantee; `vld1q_u8` has no alignment requirement.
    unsafe { vld1q_u8(p) }
}
/// Bit `k % 8` in byte `k`: a lane's place in the mask of its eight (for
/// [`mask64`]).
#[target_feature(enable = "neon")]
#[inline]
pub(crate) fn lane_bits() -> V {
    let bits: [u8; 16] = core::array::from_fn(|j| 1 << (j % 8));
    // SAFETY: `bits` is 16 readable bytes.
    unsafe { vld1q_u8(bits.as_ptr()) }
}

/// The 64 lanes of `lanes` as a mask, lane `k` of vector `v` at bit
/// `16 v + k`, each lane holding its bit of [`lane_bits`] or zero: three
/// rounds of pairwise additions sum each eight lanes into one byte (NEON
/// has no byte mask instruction). The kernels' shared `movemask`.
#[target_feature(enable = "neon")]
#[inline]
pub(crate) fn mask64(lanes: [V; 4]) -> u64 {
    let (a, b) = (vpaddq_u8(lanes[0], lanes[1]), vpaddq_u8(lanes[2], lanes[3]));
    let quads = vpaddq_u8(a, b);
    vgetq_lane_u64::<0>(vreinterpretq_u64_u8(vpaddq_u8(quads, quads)))
}

#[target_feature(enable = "neon")]
#[inline]
fn splat(b: u8) -> V {
    vdupq_n_u8(b)
}
#[target_feature(enable = "neon")]
#[inline]
fn table(t: &[u8; 16]) -> V {
    // SAFETY: `t` is 16 readable bytes.
    unsafe { vld1q_u8(t.as_ptr()) }
}
#[target_feature(enable = "neon")]
#[inline]
fn table_wide(t: &[u8; W]) -> V {
    table(t)
}
#[target_feature(enable = "neon")]
#[inline]
fn joined(_cur: V, before: V) -> V {
    before
}
#[target_feature(enable = "neon")]
#[inline]
fn back<const N: usize>(cur: V, joined: V) -> V {
    match N {
        1 => vextq_u8::<15>(joined, cur),
        2 => vextq_u8::<14>(joined, cur),
        3 => vextq_u8::<13>(joined, cur),
        4 => vextq_u8::<12>(joined, cur),
        5 => vextq_u8::<11>(joined, cur),
        6 => vextq_u8::<10>(joined, cur),
        7 => vextq_u8::<9>(joined, cur),
        8 => vextq_u8::<8>(joined, cur),
        9 => vextq_u8::<7>(joined, cur),
        10 => vextq_u8::<6>(joined, cur),
        11 => vextq_u8::<5>(joined, cur),
        12 => vextq_u8::<4>(joined, cur),
        13 => vextq_u8::<3>(joined, cur),
        14 => vextq_u8::<2>(joined, cur),
        _ => vextq_u8::<1>(joined, cur),
    }
}
#[target_feature(enable = "neon")]
#[inline]
fn lookup(t: V, i: V) -> V {
    vqtbl1q_u8(t, i)
}
#[target_feature(enable = "neon")]
#[inline]
fn high(v: V) -> V {
    vshrq_n_u8::<4>(v)
}
#[target_feature(enable = "neon")]
#[inline]
fn low(v: V) -> V {
    vandq_u8(v, vdupq_n_u8(0x0F))
}
#[target_feature(enable = "neon")]
#[inline]
fn and(a: V, b: V) -> V {
    vandq_u8(a, b)
}
#[target_feature(enable = "neon")]
#[inline]
fn or(a: V, b: V) -> V {
    vorrq_u8(a, b)
}
#[target_feature(enable = "neon")]
#[inline]
fn xor(a: V, b: V) -> V {
    veorq_u8(a, b)
}
#[target_feature(enable = "neon")]
#[inline]
fn max(a: V, b: V) -> V {
    vmaxq_u8(a, b)
}
#[target_feature(enable = "neon")]
#[inline]
fn less_signed(a: V, b: V) -> V {
    vcltq_s8(vreinterpretq_s8_u8(a), vreinterpretq_s8_u8(b))
}
#[target_feature(enable = "neon")]
#[inline]
fn equal(a: V, b: V) -> V {
    vceqq_u8(a, b)
}
#[target_feature(enable = "neon")]
#[inline]
fn subs(a: V, b: V) -> V {
    vqsubq_u8(a, b)
}
#[target_feature(enable = "neon")]
#[inline]
fn any(v: V) -> bool {
    vmaxvq_u8(v) != 0
}
#[target_feature(enable = "neon")]
#[inline]
fn any_high(v: V) -> bool {
    vmaxvq_u8(v) >= 0x80
}

crate::validate::kernel::kernel!("neon");
