//! The integer types a codec's values can have.
//!
//! ```
//! use placemat_codec::Value;
//! assert_eq!(<u32 as Value>::BITS, 32);
//! assert_eq!(u32::REPLACEMENT, 0xFFFD);
//! assert_eq!(u64::from_u64_lossy(1 << 40), 1 << 40);
//! // Signed values go through 64 bits as their sign-extended patterns.
//! assert_eq!((-2i32).to_u64(), -2i64 as u64);
//! assert_eq!(i32::from_u64(-2i64 as u64), Some(-2));
//! assert_eq!(i32::from_u64(1 << 31), None);
//! ```

use alloc::vec::Vec;
use core::fmt::{Debug, Display, LowerHex, UpperHex};
use core::hash::Hash;

use crate::dfa::{Stop, WalkTables};
use crate::simd::{Isa, Shape};

/// An integer a codec decodes to and encodes from.
///
/// Implemented for `u32` (strict UTF-8 and the 31/32-bit historical forms), `u64`
/// (UTF-8 extended to 36 or 42 bits, the varints), and `i32` and `i64` for signed
/// codecs (`value: i64` with a `sign`: SLEB128, protobuf's `sint64`, source
/// maps' VLQ). The generated decoders accumulate payload bits in the unsigned
/// type of the same width, so a narrow type is also a fast one.
///
/// The 64-bit view of a value (`to_u64`, `from_u64`, [`crate::DynCodec`]) is
/// the value itself for the unsigned types, and the two's complement pattern
/// sign-extended to 64 bits for the signed ones.
///
/// Every value type is a [`Slot`](crate::simd::Slot) of the integer
/// streams' SIMD kernels, which write and read it directly; whether it is
/// signed is [`Slot::SIGNED`](crate::simd::Slot::SIGNED).
pub trait Value:
    crate::simd::Slot + Copy + Eq + Ord + Hash + Debug + Display + LowerHex + UpperHex + Default + Send + Sync + 'static
{
    /// Width in bits.
    const BITS: u32;
    /// U+FFFD, emitted by lossy decoding once per maximal subpart.
    const REPLACEMENT: Self;
    /// Widens to `u64` (a signed value: its sign-extended pattern).
    fn to_u64(self) -> u64;
    /// Narrows from `u64`, keeping the low bits.
    fn from_u64_lossy(v: u64) -> Self;
    /// Narrows from `u64`, or `None` if the value does not fit (a signed
    /// type: if the pattern, read as an `i64`, does not fit).
    fn from_u64(v: u64) -> Option<Self>;
    /// Appends the values of a prefix of `input`, which the SIMD validator has
    /// passed, with the SIMD decoding kernel (`placemat_simd::decode_u32`);
    /// returns the units taken: 0 when the kernel writes no such words.
    fn decode_simd(isa: Isa, shape: &Shape, input: &[u8], out: &mut Vec<Self>) -> usize {
        let _ = (isa, shape, input, out);
        0
    }
    /// Appends the bytes below 80 at the start of `input`, whole groups of 64
    /// checked as they are widened, as values of themselves
    /// (`placemat_simd::widen_ascii_u32`): for a decoder whose bytes below 80
    /// are each a sequence of its own value; returns the bytes taken, 0 when
    /// no kernel writes such words.
    fn widen_ascii_simd(isa: Isa, input: &[u8], out: &mut Vec<Self>) -> usize {
        let _ = (isa, input, out);
        0
    }
    /// The table decoder's bulk walks over `input` (the runtime's own entry
    /// point, not an API: its types cannot be named outside the crate). The
    /// implementations for `u32` and `u64` are compiled once, in this crate,
    /// so a crate that decodes with a table does not compile the walks again.
    #[doc(hidden)]
    fn walk_table(tables: WalkTables<'_>, input: &[u8], out: &mut Vec<Self>) -> Result<(), Stop> {
        crate::dfa::walks(tables, input, out)
    }
}

macro_rules! impl_value {
    ($($t:ty => $decode:ident, $widen:ident),*) => {$(
        impl Value for $t {
            const BITS: u32 = <$t>::BITS;
            const REPLACEMENT: Self = 0xFFFD;
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn from_u64_lossy(v: u64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn from_u64(v: u64) -> Option<Self> {
                <$t>::try_from(v).ok()
            }
            fn decode_simd(isa: Isa, shape: &Shape, input: &[u8], out: &mut Vec<Self>) -> usize {
                crate::simd::$decode(isa, shape, input, out)
            }
            fn widen_ascii_simd(isa: Isa, input: &[u8], out: &mut Vec<Self>) -> usize {
                crate::simd::$widen(isa, input, out)
            }
            fn walk_table(tables: WalkTables<'_>, input: &[u8], out: &mut Vec<Self>) -> Result<(), Stop> {
                crate::dfa::walks(tables, input, out)
            }
        }
    )*};
}

impl_value!(u32 => decode_u32, widen_ascii_u32, u64 => decode_u64, widen_ascii_u64);

macro_rules! impl_signed_value {
    ($($t:ty),*) => {$(
        /// A signed codec's values: the table walkers and SIMD kernels fill
        /// them with raw values, which the codec's sign map turns into its values.
        impl Value for $t {
            const BITS: u32 = <$t>::BITS;
            const REPLACEMENT: Self = 0xFFFD;
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as i64 as u64
            }
            #[inline(always)]
            fn from_u64_lossy(v: u64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn from_u64(v: u64) -> Option<Self> {
                <$t>::try_from(v as i64).ok()
            }
        }
    )*};
}

impl_signed_value!(i32, i64);
