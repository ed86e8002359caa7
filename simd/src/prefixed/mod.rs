//! Bulk decoding of integer streams whose first unit gives a value's length
//! (QUIC's variable-length integers: the top two bits give 1, 2, 4 or 8
//! units), 64 units at a time.
//!
//! [`Tags`] is the fact the compiler derives from a description (the
//! runtime's `placemat_codec::Prefixed`, as data this crate reads). Where a
//! value starts depends on every value before it, so a loop that reads one
//! value at a time waits, per value, on a load of its first unit and on its
//! length before it can read the next: about nine cycles. The kernels break
//! that chain in two:
//!
//! 1. **Where values start** ([`chain_starts`](chain::chain_starts), in
//!    `chain.rs` with the loop and the per-tag tables every kernel shares).
//!    Each unit's length if it were a first unit is looked up from its tag
//!    for all 64 units at once
//!    (a byte shuffle), and each pair of units' two lengths are joined into
//!    one number below 64. A table of 64 words, the same for every codec
//!    ([`CHAIN`]), gives for each pair and each count (0 to 7) of its units
//!    that belong to a value begun before it: which of the two units start
//!    values, and the count for the next pair, already multiplied by
//!    eight. The count is the shift that picks the next pair's byte from
//!    its word, so the chain from pair to pair is one `shrx` (one cycle; the
//!    shift takes the low six bits of the count's byte, and the starts sit
//!    in its top two, gathered by `pext`).
//! 2. **The values**, which no longer wait on each other. On AVX-512
//!    (`avx512.rs`) the starts are compressed into a vector of positions
//!    (`vpcompressb`); eight at a time, each position's eight units are laid
//!    out as a big-endian word by one two-table byte permutation
//!    (`vpermt2b`), and each word's tag picks its length's shift, mask, bias
//!    and range from sixteen-entry tables (`vpermt2q`). On AVX2 and SSE4.1
//!    (`x86.rs`) each value is one word load from its start
//!    ([`PerTag::values`](chain::PerTag::values)).
//!
//! On x86-64 every kernel needs BMI2 beside its vectors (`pext` gathers
//! the start bits), as the flagged kernels do; without it the stream is
//! read a value at a time (`placemat_codec::Prefixed::step`). On aarch64
//! (`neon.rs`) the lengths come from one `tbl` per 16 units loaded as
//! pairs, and [`top_bits`](chain::top_bits) packs the start bits (NEON has no `pext`); the
//! values are read as on AVX2.
//!
//! A value the fact does not decode (a tag no form has, a value out of its
//! length's range) goes to the caller's step, which reads it or stops there.
//!
//! The same chain reads the bit forms whose first unit names the form
//! (`lead_forms.rs`: [`decode_bit_forms_into`]), the form's length from a
//! 256-entry table instead of a tag's.
//!
//! ```
//! use placemat_simd::{decode_prefixed, Isa, Tags};
//! // QUIC: the top two bits give 1, 2, 4 or 8 units; any length holds any value it can.
//! let mut quic = Tags { shift: 6, lengths: [0; 16], lo: [0; 16], hi: [0; 16], bias: [0; 16] };
//! for (tag, n) in [1u8, 2, 4, 8].into_iter().enumerate() {
//!     quic.lengths[tag] = n;
//!     quic.hi[tag] = (1u64 << (8 * u32::from(n) - 2)) - 1;
//! }
//! let mut input = Vec::new();
//! for v in 0..100u64 {
//!     input.extend([0x40 | (v >> 8) as u8, v as u8]); // two units each
//! }
//! let mut out = [0u64; 100];
//! if let Some(isa) = Isa::detect() {
//!     let (values, units) = decode_prefixed(isa, &quic, &input, &mut out);
//!     assert_eq!(units, 2 * values);
//!     assert!(out[..values].iter().enumerate().all(|(v, &x)| x == v as u64));
//! }
//! ```

pub use lead_forms::{decode_bit_forms_into, decodes_bit_forms_on};

use alloc::vec::Vec;
use core::mem::MaybeUninit;

use crate::flagged::{as_slots, fill_spare, Slot};
use crate::shared::Isa;

/// How a stream's first unit gives a value's length, and the values each
/// length may take (`placemat_codec::Prefixed`'s fields).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Tags {
    /// The first unit's bits from this one up are its tag (4 to 7).
    pub shift: u8,
    /// For each tag, the units of its values (1 to 8), or 0 where none
    /// starts with it.
    pub lengths: [u8; 16],
    /// For each tag, the least value.
    pub lo: [u64; 16],
    /// For each tag, the greatest.
    pub hi: [u64; 16],
    /// For each tag, the value of payload 0.
    pub bias: [u64; 16],
}

impl Tags {
    /// Whether the kernel reads these tags: four to seven bits of payload in
    /// the first unit, lengths up to eight.
    pub(crate) fn is_read(&self) -> bool {
        (4..=7).contains(&self.shift) && self.lengths.iter().all(|&n| n <= 8)
    }
}

/// Units the kernel leaves at the input's end: it reads 64 units and eight
/// past the last of them.
pub const PREFIXED_TAIL: usize = 72;

/// The chain table, the same for every codec: entry `(a − 1) + 8 (b − 1)`
/// for a pair of units that would start values of `a` and `b` units. Its
/// byte `e` is for a pair whose first `e` units (0 to 7) belong to a value
/// begun before it: bits 3–5 the same count for the next pair, bit 6 set
/// if the pair's first unit starts a value, bit 7 if its second does.
pub const CHAIN: [u64; 64] = chain();

/// [`CHAIN`], worked out.
const fn chain() -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let (a, b) = (i % 8 + 1, i / 8 + 1);
        let mut e = 0;
        while e < 8 {
            // (starts, units of the next pair already taken)
            let (starts, next) = match e {
                // A one-unit value, then one at the second unit.
                0 if a == 1 => (0b11, b - 1),
                0 => (0b01, a - 2),
                1 => (0b10, b - 1),
                _ => (0, e - 2),
            };
            table[i] |= ((starts << 6 | next << 3) as u64) << (8 * e);
            e += 1;
        }
        i += 1;
    }
    table
}

/// Whether [`decode_prefixed`] has a kernel for `isa` on this machine: where
/// the flagged streams have one ([`flagged_on`](crate::flagged_on): every
/// x86-64 instruction set with BMI1 and BMI2 beside it, NEON on aarch64),
/// whose machines the length-prefix kernels need too.
pub fn prefixed_on(isa: Isa) -> bool {
    crate::flagged::flagged_on(isa)
}

/// [`decode_prefixed`] appending to `out`, up to `max` values, written into
/// its spare capacity (reserved a block at a time, never zero-filled), and
/// reading each value the tags do not decode by `other` (the codec's own
/// one-value step: the value and its length, or `None` to stop there): the
/// values and units taken.
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn decode_prefixed_into<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    isa: Isa,
    tags: &Tags,
    input: &[u8],
    max: usize,
    out: &mut Vec<T>,
    mut other: F,
) -> (usize, usize) {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    if !tags.is_read() || !prefixed_on(isa) {
        return (0, 0);
    }
    // SAFETY: `run` writes the first slots it counts.
    unsafe { fill_spare(input, max, out, |rest, slots| run(isa, tags, rest, slots, &mut other)) }
}

/// Decodes values from the start of `input` into `out`, one per slot, while
/// each is one `tags` decodes (a tag with values, in its length's range)
/// and at least [`PREFIXED_TAIL`] units are left: the values written and
/// the units they took (`(0, 0)` without a kernel for `isa`). The caller
/// decodes on from there; where the kernel stopped at a value, that value
/// is its to read (or to report).
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn decode_prefixed<T: Slot>(isa: Isa, tags: &Tags, input: &[u8], out: &mut [T]) -> (usize, usize) {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    if !tags.is_read() || !prefixed_on(isa) {
        return (0, 0);
    }
    // SAFETY: the kernels write only values.
    run(isa, tags, input, unsafe { as_slots(out) }, &mut |_: &[u8]| None)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn run<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    isa: Isa,
    tags: &Tags,
    input: &[u8],
    out: &mut [MaybeUninit<T>],
    other: &mut F,
) -> (usize, usize) {
    // SAFETY: the callers checked that the machine has `isa` (`Isa::all`,
    // whose AVX-512 includes BW, VBMI, VBMI2, BMI1 and BMI2), and
    // `prefixed_on` that it has BMI1 and BMI2 beside AVX2 or SSE4.1. Each
    // kernel is the same with the range checks on or off.
    unsafe {
        match (isa, tags.whole()) {
            (Isa::Avx512, true) => avx512::run::<T, F, true>(tags, input, out, other),
            (Isa::Avx512, false) => avx512::run::<T, F, false>(tags, input, out, other),
            (Isa::Avx2, true) => x86::avx2::run::<T, F, true>(tags, input, out, other),
            (Isa::Avx2, false) => x86::avx2::run::<T, F, false>(tags, input, out, other),
            (_, true) => x86::sse41::run::<T, F, true>(tags, input, out, other),
            (_, false) => x86::sse41::run::<T, F, false>(tags, input, out, other),
        }
    }
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
fn run<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    _: Isa,
    tags: &Tags,
    input: &[u8],
    out: &mut [MaybeUninit<T>],
    other: &mut F,
) -> (usize, usize) {
    // SAFETY: the callers checked that the machine has NEON (`Isa::all`,
    // `prefixed_on`). The kernel is the same with the range checks on or
    // off.
    unsafe {
        if tags.whole() {
            neon::run::<T, F, true>(tags, input, out, other)
        } else {
            neon::run::<T, F, false>(tags, input, out, other)
        }
    }
}

#[cfg(not(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
)))]
fn run<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    _: Isa,
    _: &Tags,
    _: &[u8],
    _: &mut [MaybeUninit<T>],
    _: &mut F,
) -> (usize, usize) {
    (0, 0)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx512;
#[cfg(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
mod chain;
mod lead_forms;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod neon;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod x86;
