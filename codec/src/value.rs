//! The integer types a codec's values can have.
//!
//! ```
//! use placemat_codec::Value;
//! assert_eq!(<u32 as Value>::BITS, 32);
//! assert_eq!(u32::REPLACEMENT, 0xFFFD);
//! assert_eq!(u64::from_u64_lossy(1 << 40), 1 << 40);
//! ```

use alloc::vec::Vec;
use core::fmt::{Debug, Display, LowerHex, UpperHex};
use core::hash::Hash;

use crate::dfa::{Stop, WalkTables};
use crate::simd::{Isa, Shape};

/// An unsigned integer a codec decodes to and encodes from.
///
/// Implemented for `u32` (strict UTF-8 and the 31/32-bit historical forms) and `u64`
/// (UTF-8 extended to 36 or 42 bits). The generated decoders accumulate payload bits
/// in this type directly, so a narrow type is also a fast one.
pub trait Value:
    Copy + Eq + Ord + Hash + Debug + Display + LowerHex + UpperHex + Default + Send + Sync + 'static
{
    /// Width in bits.
    const BITS: u32;
    /// U+FFFD, emitted by lossy decoding once per maximal subpart.
    const REPLACEMENT: Self;
    /// Widens to `u64`.
    fn to_u64(self) -> u64;
    /// Narrows from `u64`, keeping the low bits.
    fn from_u64_lossy(v: u64) -> Self;
    /// Narrows from `u64`, or `None` if the value does not fit.
    fn from_u64(v: u64) -> Option<Self>;
    /// Appends the values of a prefix of `input`, which the SIMD validator has
    /// passed, with the SIMD decoding kernel (`placemat_simd::decode_u32`);
    /// returns the units taken: 0 when the kernel writes no such words.
    fn decode_simd(isa: Isa, shape: &Shape, input: &[u8], out: &mut Vec<Self>) -> usize {
        let _ = (isa, shape, input, out);
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
    ($($t:ty => $decode:ident),*) => {$(
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
            fn walk_table(tables: WalkTables<'_>, input: &[u8], out: &mut Vec<Self>) -> Result<(), Stop> {
                crate::dfa::walks(tables, input, out)
            }
        }
    )*};
}

impl_value!(u32 => decode_u32, u64 => decode_u64);
