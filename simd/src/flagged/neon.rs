//! The NEON kernel of [`super::decode_flagged`]: the shared loop
//! ([`super::blocks::blocks`]) with the 64 units' flags as a mask by four compares
//! summed lane by lane (NEON has no byte mask instruction), and each
//! value's groups packed by [`super::groups7`] (it has no `pext`).

use core::arch::aarch64::*;
use core::mem::MaybeUninit;

use super::blocks::blocks;
use super::{groups7, Marks, Slot};
use crate::validate::neon::{lane_bits, load, mask64};

/// The kernel, taking each value the marks do not cover by `other`.
///
/// # Safety
/// The machine has NEON.
#[target_feature(enable = "neon")]
pub(super) unsafe fn run<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    marks: &Marks,
    input: &[u8],
    out: &mut [MaybeUninit<T>],
    other: &mut F,
) -> (usize, usize) {
    let bits = lane_bits();
    let flags = |units: &[u8; 64]| {
        let lane = |k: usize| {
            // SAFETY: 16 readable bytes within the 64 at `units`.
            let x = unsafe { load(units.as_ptr().add(16 * k)) };
            // Bit 7 set: all ones, which keep the lane's bit.
            vandq_u8(vcltzq_s8(vreinterpretq_s8_u8(x)), bits)
        };
        mask64([lane(0), lane(1), lane(2), lane(3)])
    };
    let gather = |units: u64, mask: u64| groups7(units & mask);
    // (No sixteen values at once: that takes AVX-512's byte compress.)
    let sixteen = |_: &[u8; 64], _: u64, _: &mut [MaybeUninit<T>]| None;
    // Each loop is the same kernel with the group order and the sign as
    // constants.
    match (marks.lsb_first, marks.signed) {
        (true, false) => blocks::<T, F, true, false>(marks, input, out, other, flags, gather, sixteen),
        (true, true) => blocks::<T, F, true, true>(marks, input, out, other, flags, gather, sixteen),
        (false, false) => blocks::<T, F, false, false>(marks, input, out, other, flags, gather, sixteen),
        (false, true) => blocks::<T, F, false, true>(marks, input, out, other, flags, gather, sixteen),
    }
}
