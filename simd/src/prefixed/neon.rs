//! The NEON kernel of [`super::decode_prefixed`]: each unit's length by one
//! table lookup (`tbl`) on units loaded as pairs (`ld2`, which splits the
//! even units from the odd ones), each pair's two lengths joined by one
//! shift-and-insert (`sli`), the starts by the shared chain
//! ([`super::chain::chain_starts`], its start bits packed by [`super::chain::top_bits`]
//! as NEON has no `pext`), and each value read from its start by one word
//! load ([`super::chain::PerTag::values`]).

use core::arch::aarch64::*;
use core::mem::MaybeUninit;

use super::chain::{blocks, chain_starts, top_bits, PerTag};
use super::{Slot, Tags};

/// The kernel, taking each value the tags do not decode by `other`;
/// `WHOLE` is [`Tags::whole`].
///
/// # Safety
/// The machine has NEON.
#[target_feature(enable = "neon")]
pub(super) unsafe fn run<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>, const WHOLE: bool>(
    tags: &Tags,
    input: &[u8],
    out: &mut [MaybeUninit<T>],
    other: &mut F,
) -> (usize, usize) {
    let per_tag = PerTag::new(tags);
    let less_one: [u8; 16] = core::array::from_fn(|tag| tags.lengths[tag].saturating_sub(1));
    // SAFETY: 16 readable bytes.
    let lengths = unsafe { vld1q_u8(less_one.as_ptr()) };
    // A negative shift count shifts right.
    let down = vdupq_n_s8(-(tags.shift as i8));
    let tag_bits = vdupq_n_u8(0xFF >> tags.shift);
    let length = |x: uint8x16_t| vqtbl1q_u8(lengths, vandq_u8(vshlq_u8(x, down), tag_bits));
    blocks(input, out, other, |units, out| {
        let mut index = [0u8; 32];
        for (k, sixteen) in index.chunks_exact_mut(16).enumerate() {
            // SAFETY: 32 readable bytes at `units + 32 k` (of 72), and 16
            // writable ones at `sixteen`.
            unsafe {
                let pairs = vld2q_u8(units.as_ptr().add(32 * k));
                // `(a − 1) + 8 (b − 1)`: both are below 8.
                vst1q_u8(sixteen.as_mut_ptr(), vsliq_n_u8::<3>(length(pairs.0), length(pairs.1)));
            }
        }
        let (starts, taken) = chain_starts(&index, top_bits);
        let (wrote, stop) = per_tag.values::<T, WHOLE>(units, starts, out);
        (wrote, stop, taken)
    })
}
