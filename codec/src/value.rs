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
pub trait Value:
    Copy + Eq + Ord + Hash + Debug + Display + LowerHex + UpperHex + Default + Send + Sync + 'static
{
    /// Width in bits.
    const BITS: u32;
    /// U+FFFD, emitted by lossy decoding once per maximal subpart.
    const REPLACEMENT: Self;
    /// Whether the type is signed (its 64-bit view is a sign-extended pattern).
    const SIGNED: bool = false;
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
    /// Decodes a prefix of a stream whose units flag where values end with
    /// the SIMD kernel (`placemat_simd::decode_flagged`), into `out`: the
    /// values and units taken, `(0, 0)` where no kernel runs.
    fn decode_flagged_simd(marks: &crate::simd::Marks, input: &[u8], out: &mut [Self]) -> (usize, usize) {
        let _ = (marks, input, out);
        (0, 0)
    }
    /// [`Value::decode_flagged_simd`] appending up to `max` values to `out`,
    /// each value the fact does not cover read by `other`
    /// (`placemat_simd::decode_flagged_into`), or `None` where no kernel runs.
    fn decode_flagged_simd_into<F: FnMut(&[u8]) -> Option<(Self, usize)>>(
        marks: &crate::simd::Marks,
        input: &[u8],
        max: usize,
        out: &mut Vec<Self>,
        other: F,
    ) -> Option<(usize, usize)> {
        let _ = (marks, input, max, out, other);
        None
    }
    /// Decodes a prefix of a stream whose first units give the values'
    /// lengths with the SIMD kernel (`placemat_simd::decode_prefixed`), into
    /// `out`: the values and units taken, `(0, 0)` where no kernel runs.
    fn decode_prefixed_simd(tags: &crate::simd::Tags, input: &[u8], out: &mut [Self]) -> (usize, usize) {
        let _ = (tags, input, out);
        (0, 0)
    }
    /// [`Value::decode_prefixed_simd`] appending up to `max` values to
    /// `out`, each value the fact does not decode read by `other`
    /// (`placemat_simd::decode_prefixed_into`), or `None` where no kernel runs.
    fn decode_prefixed_simd_into<F: FnMut(&[u8]) -> Option<(Self, usize)>>(
        tags: &crate::simd::Tags,
        input: &[u8],
        max: usize,
        out: &mut Vec<Self>,
        other: F,
    ) -> Option<(usize, usize)> {
        let _ = (tags, input, max, out, other);
        None
    }
    /// Encodes a prefix of `values` into `out` by the flagged-stream fact
    /// with the SIMD kernel (`placemat_simd::encode_flagged`), each value
    /// the fact does not hold by `other`: the values and units taken, or
    /// `None` where no kernel runs.
    fn encode_flagged_simd<F: FnMut(Self, &mut [u8]) -> Option<usize>>(
        marks: &crate::simd::Marks,
        values: &[Self],
        out: &mut [u8],
        other: F,
    ) -> Option<(usize, usize)> {
        let _ = (marks, values, out, other);
        None
    }
    /// Encodes a prefix of `values` into `out` by the length-prefix fact
    /// with the SIMD kernel (`placemat_simd::encode_prefixed`), each value
    /// the fact does not hold by `other`: the values and units taken, or
    /// `None` where no kernel runs.
    fn encode_prefixed_simd<F: FnMut(Self, &mut [u8]) -> Option<usize>>(
        tags: &crate::simd::Tags,
        values: &[Self],
        out: &mut [u8],
        other: F,
    ) -> Option<(usize, usize)> {
        let _ = (tags, values, out, other);
        None
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

/// The integer-stream kernels' methods (flagged and length-prefixed), for
/// every type they write or read (`placemat_simd::Slot`).
macro_rules! kernel_methods {
    () => {
        fn decode_flagged_simd(marks: &crate::simd::Marks, input: &[u8], out: &mut [Self]) -> (usize, usize) {
            flagged_simd(marks, input, out)
        }
        fn decode_flagged_simd_into<F: FnMut(&[u8]) -> Option<(Self, usize)>>(
            marks: &crate::simd::Marks,
            input: &[u8],
            max: usize,
            out: &mut Vec<Self>,
            other: F,
        ) -> Option<(usize, usize)> {
            flagged_simd_into(marks, input, max, out, other)
        }
        fn encode_flagged_simd<F: FnMut(Self, &mut [u8]) -> Option<usize>>(
            marks: &crate::simd::Marks,
            values: &[Self],
            out: &mut [u8],
            other: F,
        ) -> Option<(usize, usize)> {
            let isa = Isa::detect().filter(|&isa| crate::simd::encodes_flagged_on(isa, marks))?;
            Some(crate::simd::encode_flagged(isa, marks, values, out, other))
        }
        fn encode_prefixed_simd<F: FnMut(Self, &mut [u8]) -> Option<usize>>(
            tags: &crate::simd::Tags,
            values: &[Self],
            out: &mut [u8],
            other: F,
        ) -> Option<(usize, usize)> {
            let isa = Isa::detect().filter(|&isa| crate::simd::encodes_prefixed_on(isa, tags))?;
            Some(crate::simd::encode_prefixed(isa, tags, values, out, other))
        }
        fn decode_prefixed_simd(tags: &crate::simd::Tags, input: &[u8], out: &mut [Self]) -> (usize, usize) {
            match Isa::detect() {
                Some(isa) => crate::simd::decode_prefixed(isa, tags, input, out),
                None => (0, 0),
            }
        }
        fn decode_prefixed_simd_into<F: FnMut(&[u8]) -> Option<(Self, usize)>>(
            tags: &crate::simd::Tags,
            input: &[u8],
            max: usize,
            out: &mut Vec<Self>,
            other: F,
        ) -> Option<(usize, usize)> {
            let isa = Isa::detect().filter(|&isa| crate::simd::prefixed_on(isa))?;
            Some(crate::simd::decode_prefixed_into(isa, tags, input, max, out, other))
        }
    };
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
            kernel_methods!();
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
            const SIGNED: bool = true;
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
            kernel_methods!();
        }
    )*};
}

impl_signed_value!(i32, i64);

/// [`Value::decode_flagged_simd_into`] on the machine's best instruction
/// set, where it has a kernel.
fn flagged_simd_into<T: crate::simd::Slot, F: FnMut(&[u8]) -> Option<(T, usize)>>(
    marks: &crate::simd::Marks,
    input: &[u8],
    max: usize,
    out: &mut Vec<T>,
    other: F,
) -> Option<(usize, usize)> {
    let isa = Isa::detect().filter(|&isa| crate::simd::flagged_on(isa))?;
    Some(crate::simd::decode_flagged_into(isa, marks, input, max, out, other))
}

/// [`Value::decode_flagged_simd`] on the machine's best instruction set.
fn flagged_simd<T: crate::simd::Slot>(marks: &crate::simd::Marks, input: &[u8], out: &mut [T]) -> (usize, usize) {
    match Isa::detect() {
        Some(isa) => crate::simd::decode_flagged(isa, marks, input, out),
        None => (0, 0),
    }
}
