//! Bulk decoding of integer streams whose units flag where a value ends
//! (LEB128 up to ten units, VLQ, SQLite's varints up to eight: bit 7 of
//! every unit is the flag, the other seven bits a payload group), 64 units
//! at a time.
//!
//! [`Marks`] is the fact the compiler derives from a description (the
//! runtime's `placemat_codec::Flagged`, as data this crate reads). The
//! kernel takes the flags of 64 units at once as a bit mask (one
//! `vpmovb2m`), so the ends of the block's values are known before any value
//! is read: each value's start is the end before it plus one, a chain of one
//! `blsr` and one `tzcnt` per value, and its payload groups are gathered by
//! one `pext` from the eight units at its start (after a byte swap when the
//! groups go most significant first; a value of nine or ten units, least
//! significant group first, adds the groups of its last units from a second
//! read). Values then do not wait on each other,
//! where a loop that finds each end from the value before pays a load, a
//! mask and a count of trailing zeros per value in sequence. A block of 64
//! one-unit values is widened at once; on AVX-512, sixteen values of up to
//! four units are read at once by byte compress and permutations
//! (`sixteen.rs`), and the step per value takes the blocks that hold longer
//! or out-of-range values.
//!
//! One loop (`blocks.rs`) serves every instruction set, which supplies two
//! functions: the 64 flags as a mask, and the gathering of a word's groups.
//! On x86-64 (`x86.rs`) it runs with BMI2 beside the vectors, where `pext`
//! is one cycle of throughput (every AVX-512 machine, and Intel's since
//! Haswell): AVX-512 BW (the 64 flags by one `vpmovb2m`), AVX2 (two
//! `vpmovmskb`) and SSE4.1 (four `pmovmskb`). On aarch64 (`neon.rs`),
//! which has no byte mask and no `pext`, the flags are four compares
//! summed lane by lane into a mask, and the groups are packed by three
//! rounds of shifts and masks (`groups7`). On x86-64 without BMI2
//! ([`flagged_on`]), [`decode_flagged`] takes nothing and the runtime's word
//! decoder reads the stream.
//!
//! ```
//! use placemat_simd::{decode_flagged, Isa, Marks};
//! // LEB128, one to ten units.
//! let hi = core::array::from_fn(|n| u64::MAX >> 64u32.saturating_sub(7 * (n as u32 + 1)));
//! let leb128 = Marks { continues_when_set: true, lsb_first: true, lengths: 10, lo: [0; 10], hi, bias: [0; 10], signed: false };
//! let mut input = Vec::new();
//! for v in 0..100u64 {
//!     input.extend([0x80 | (v as u8 & 0x7F), (v >> 7) as u8 + 1]); // v + 128, two units
//! }
//! let mut out = [0u64; 100];
//! if let Some(isa) = Isa::detect() {
//!     let (values, units) = decode_flagged(isa, &leb128, &input, &mut out);
//!     assert_eq!(units, 2 * values);
//!     assert!(out[..values].iter().enumerate().all(|(v, &x)| x == v as u64 + 128));
//! }
//! ```

use alloc::vec::Vec;
use core::mem::MaybeUninit;

use crate::shared::Isa;

/// How a stream's units mark the ends of its values, and the values each
/// length may take (`placemat_codec::Flagged`'s fields).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    /// Whether bit 7 is set in a unit that continues its value.
    pub continues_when_set: bool,
    /// Whether the first unit carries the least significant group.
    pub lsb_first: bool,
    /// The longest value described: 1 to 8 units, or up to 10 where the
    /// first unit carries the least significant group (up to 9 for a
    /// [`Marks::signed`] fact). A payload of more than 64 bits (ten units)
    /// is a value only where the bits above 64 are zero.
    pub lengths: u8,
    /// For `n + 1` units, the least value.
    pub lo: [u64; 10],
    /// For `n + 1` units, the greatest.
    pub hi: [u64; 10],
    /// For `n + 1` units, the value of payload 0.
    pub bias: [u64; 10],
    /// Whether a value is its payload sign-extended from its top bit, `lo`
    /// and `hi` comparing as `i64` (and the biases 0).
    pub signed: bool,
}

impl Marks {
    /// Whether the kernel reads these marks: 1 to 8 units, or up to 10
    /// with the least significant group first.
    fn is_read(&self) -> bool {
        (1..=8).contains(&self.lengths) || (self.lengths <= 10 && self.lsb_first)
    }
}

/// A value slot the kernels write (or read): the value narrowed to the
/// slot's type (a signed type takes the 64-bit pattern).
pub trait Slot: Copy {
    /// Whether the type is signed: a kernel that reads values widens them
    /// by their sign.
    const SIGNED: bool;
    /// `v` narrowed, keeping its low bits.
    fn narrow(v: u64) -> Self;
}

macro_rules! slots {
    ($($t:ty),*) => {$(
        impl Slot for $t {
            const SIGNED: bool = <$t>::MIN != 0;
            #[inline(always)]
            fn narrow(v: u64) -> Self {
                v as $t
            }
        }
    )*};
}

slots!(u32, u64, i32, i64);

/// Units the kernel leaves at the input's end: it reads 64 units and eight
/// past the last of them.
pub const FLAGGED_TAIL: usize = 72;

/// Whether [`decode_flagged`] has a kernel for `isa` on this machine: every
/// x86-64 instruction set, with BMI1 and BMI2 beside it (NEON on aarch64).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub fn flagged_on(isa: Isa) -> bool {
    match isa {
        Isa::Avx512 => true,
        Isa::Avx2 | Isa::Sse41 => crate::shared::has_bmi(),
        Isa::Neon => false,
    }
}

/// Whether [`decode_flagged`] has a kernel for `isa` on this machine: NEON.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
pub fn flagged_on(isa: Isa) -> bool {
    isa == Isa::Neon
}

/// Whether [`decode_flagged`] has a kernel for `isa` on this machine: not
/// on this target.
#[cfg(not(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
)))]
pub fn flagged_on(_: Isa) -> bool {
    false
}

/// [`decode_flagged`] appending to `out`, up to `max` values, written into
/// its spare capacity (reserved a block at a time, never zero-filled), and
/// reading each value the marks do not cover by `other` (the codec's own
/// one-value step: the value and its length, or `None` to stop there): the
/// values and units taken.
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn decode_flagged_into<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    isa: Isa,
    marks: &Marks,
    input: &[u8],
    max: usize,
    out: &mut Vec<T>,
    mut other: F,
) -> (usize, usize) {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    if !marks.is_read() {
        return (0, 0);
    }
    // SAFETY: `run` writes the first slots it counts.
    unsafe { fill_spare(input, max, out, |rest, slots| run(isa, marks, rest, slots, &mut other)) }
}

/// Appends up to `max` values of `input` to `out` by `run`, which writes
/// values into the first slots it is given from the start of the units it
/// is given and returns how many and the units they took; the slots are
/// `out`'s spare capacity, reserved a block at a time and never
/// zero-filled. The values and units taken.
///
/// # Safety
/// `run` initializes the first slots it counts.
pub(crate) unsafe fn fill_spare<T>(
    input: &[u8],
    max: usize,
    out: &mut Vec<T>,
    mut run: impl FnMut(&[u8], &mut [MaybeUninit<T>]) -> (usize, usize),
) -> (usize, usize) {
    /// Values reserved at a time.
    const BLOCK: usize = 4096;
    let (mut values, mut units) = (0, 0);
    while values < max {
        out.reserve(BLOCK.min(max - values));
        let len = out.len();
        let spare = out.spare_capacity_mut();
        let room = spare.len().min(max - values);
        let (v, u) = run(&input[units..], &mut spare[..room]);
        // SAFETY: the caller's `run` initialized the first `v` slots after
        // `len`, all within the capacity.
        unsafe { out.set_len(len + v) };
        (values, units) = (values + v, units + u);
        if v < room {
            break;
        }
    }
    (values, units)
}

/// Decodes values from the start of `input` into `out`, one per slot, while
/// each is one `marks` describes (no longer than [`Marks::lengths`], in its
/// length's range) and at least [`FLAGGED_TAIL`] units are left: the values written and
/// the units they took (`(0, 0)` without a kernel for `isa`, or for marks of
/// more than eight units). The caller decodes on from there; where the
/// kernel stopped at a value, that value is its to read (or to report).
///
/// Panics if `isa` is not one [`Isa::all`] lists.
pub fn decode_flagged<T: Slot>(isa: Isa, marks: &Marks, input: &[u8], out: &mut [T]) -> (usize, usize) {
    assert!(Isa::all().contains(&Some(isa)), "{isa:?} is not available on this machine");
    if !marks.is_read() {
        return (0, 0);
    }
    // SAFETY: the kernel writes only values.
    run(isa, marks, input, unsafe { as_slots(out) }, &mut |_: &[u8]| None)
}

/// `out` as slots a kernel writes: the same memory.
///
/// # Safety
/// Only initialized values (a `T` each) may be written through the result,
/// so that `out` stays initialized.
pub(crate) unsafe fn as_slots<T: Slot>(out: &mut [T]) -> &mut [MaybeUninit<T>] {
    // SAFETY: `MaybeUninit<T>` has `T`'s layout; the caller keeps it
    // initialized.
    unsafe { &mut *(out as *mut [T] as *mut [MaybeUninit<T>]) }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn run<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    isa: Isa,
    marks: &Marks,
    input: &[u8],
    out: &mut [MaybeUninit<T>],
    other: &mut F,
) -> (usize, usize) {
    if !flagged_on(isa) {
        return (0, 0);
    }
    // SAFETY: the caller checked that the machine has `isa` (`Isa::all`,
    // whose AVX-512 includes BW, BMI1 and BMI2), and `flagged_on` that it
    // has BMI1 and BMI2 beside AVX2 or SSE4.1.
    unsafe {
        match isa {
            Isa::Avx512 => x86::avx512::run(marks, input, out, other),
            Isa::Avx2 => x86::avx2::run(marks, input, out, other),
            _ => x86::sse41::run(marks, input, out, other),
        }
    }
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
fn run<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    isa: Isa,
    marks: &Marks,
    input: &[u8],
    out: &mut [MaybeUninit<T>],
    other: &mut F,
) -> (usize, usize) {
    if !flagged_on(isa) {
        return (0, 0);
    }
    // SAFETY: the caller checked that the machine has NEON (`Isa::all`).
    unsafe { neon::run(marks, input, out, other) }
}

#[cfg(not(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
)))]
fn run<T: Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    _: Isa,
    _: &Marks,
    _: &[u8],
    _: &mut [MaybeUninit<T>],
    _: &mut F,
) -> (usize, usize) {
    (0, 0)
}

/// The seven-bit groups of `units` (bit 7 of every unit clear) packed,
/// the first unit's lowest: what `pext` with the mask `0x7F7F…` gives, for
/// machines without it (the NEON kernel, and the runtime's word decoder).
/// Three rounds each join neighbouring fields of twice the units.
///
/// ```
/// // LEB128's 624 485: E5 8E 26, flags cleared.
/// assert_eq!(placemat_simd::groups7(0x26_0E_65), 624_485);
/// ```
#[inline(always)]
pub const fn groups7(units: u64) -> u64 {
    let x = (units & 0x007F_007F_007F_007F) | (units >> 1 & 0x3F80_3F80_3F80_3F80);
    let x = (x & 0x0000_3FFF_0000_3FFF) | (x >> 2 & 0x0FFF_C000_0FFF_C000);
    (x & 0x0FFF_FFFF) | (x >> 4 & 0x00FF_FFFF_F000_0000)
}

#[cfg(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
mod blocks;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod neon;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sixteen;
#[cfg(test)]
mod tests;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod x86;
