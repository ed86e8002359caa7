//! Bulk decoding of integer streams whose first unit gives a value's length
//! ([`Prefixed`]): QUIC's variable-length integers, and heads like CBOR's
//! built the same way. The compiler derives the fact from a description's
//! forms (`placemat_compiler::automaton::prefixed`): the first unit's top
//! bits are fixed and differ from form to form (the *tag*), its other bits
//! are the value's most significant payload, and every later unit is eight
//! payload bits, most significant first, up to eight units in all.
//!
//! One value is then one read: the tag gives the length `n` from a table of
//! sixteen, eight units read as a big-endian word give the payload after a
//! shift by `8 (8 − n)` and a mask of the tag's bits, and the payload plus
//! the length's bias is checked against the length's range. No walk, no
//! branch per unit. Where the fact does not decode a value (a tag no form
//! has, a value out of its length's range, a value cut by the input's end),
//! the codec's own step takes it and reports any error exactly.
//!
//! Read one after another, each value still waits on the one before: its
//! start is known only once the previous length is. The bulk calls
//! therefore run the SIMD kernel first where the machine has one
//! (`placemat_simd::decode_prefixed`: AVX-512, AVX2 or SSE4.1 with BMI2, or NEON),
//! which finds where the values of 64 units start before reading any of
//! them, and go on a value at a time for the last units and elsewhere.
//!
//! ```
//! use placemat_codec::{decode_prefixed, Prefixed};
//! # use placemat_codec::{Decoder, Step};
//! # struct Steps;
//! # impl Decoder for Steps {
//! #     type Value = u64;
//! #     fn step(&self, _: &[u8]) -> Step<u64> { Step::Incomplete }
//! # }
//! // QUIC: the top two bits give 1, 2, 4 or 8 bytes; any length holds any value it can.
//! let mut quic = Prefixed { shift: 6, lengths: [0; 16], lo: [0; 16], hi: [0; 16], bias: [0; 16] };
//! for (tag, n) in [1u8, 2, 4, 8].into_iter().enumerate() {
//!     quic.lengths[tag] = n;
//!     quic.hi[tag] = (1u64 << (8 * u32::from(n) - 2)) - 1;
//! }
//! assert_eq!(quic.step(&[0x7B, 0xBD]), Some((15_293, 2)));
//! assert_eq!(quic.step(&[0x40, 0x25]), Some((37, 2)), "a longer spelling than needed");
//! assert_eq!(quic.step(&[0x9D, 0x7F, 0x3E]), None, "cut by the end: the step reports it");
//! let mut out = Vec::new();
//! let err = decode_prefixed(&quic, &Steps, &[0x25, 0x7B, 0xBD, 0x80], &mut out).unwrap_err();
//! assert_eq!((out.as_slice(), err.valid_up_to()), (&[37u64, 15_293][..], 3));
//! ```

use alloc::vec::Vec;

use crate::flagged::{kernel_then, one_by_one_after, stepped};
use crate::{DecodeError, Decoder, EncodeIntoError, Encoder, Prefix, Value};

/// How a codec's first unit gives a value's length, and what the values of
/// each length are: the fact the compiler derives, as data.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Prefixed {
    /// The first unit's bits from this one up are its tag (4 to 7: two to
    /// sixteen tags); the bits below are payload.
    pub shift: u8,
    /// For each tag, the units of its sequences (1 to 8), or 0 where no
    /// sequence starts with it.
    pub lengths: [u8; 16],
    /// For each tag, the least value its sequences may take.
    pub lo: [u64; 16],
    /// For each tag, the greatest.
    pub hi: [u64; 16],
    /// For each tag, the value of payload 0.
    pub bias: [u64; 16],
}

impl Prefixed {
    /// The value at the start of `input` and its length, if the fact decodes
    /// it: `None` for a tag no form has, a value outside its length's range,
    /// or a sequence longer than `input` (the codec's step then decides).
    #[inline]
    pub fn step(&self, input: &[u8]) -> Option<(u64, usize)> {
        let &first = input.first()?;
        let tag = usize::from(first >> self.shift) & 15;
        let n = usize::from(self.lengths[tag]);
        if n == 0 || n > input.len() {
            return None;
        }
        let word = match input.first_chunk::<8>() {
            Some(&eight) => u64::from_be_bytes(eight),
            None => {
                let mut eight = [0u8; 8];
                eight[..n].copy_from_slice(&input[..n]);
                u64::from_be_bytes(eight)
            }
        };
        // `n` is 1 to 8 where a tag has a form: the payload is the word's top
        // `n` units, less the tag's bits.
        let payload_bits = 8 * (n as u32 - 1) + u32::from(self.shift);
        let payload = (word >> (64 - 8 * n as u32)) & (u64::MAX >> (64 - payload_bits));
        let value = payload.checked_add(self.bias[tag])?;
        (self.lo[tag] <= value && value <= self.hi[tag]).then_some((value, n))
    }

    /// The fact as the SIMD kernel reads it.
    pub fn tags(&self) -> crate::simd::Tags {
        let Prefixed { shift, lengths, lo, hi, bias } = *self;
        crate::simd::Tags { shift, lengths, lo, hi, bias }
    }
}

/// Decodes all of `input` by `prefixed`, taking each value it leaves with
/// `steps`' [`Decoder::step`] (which has the codec's exact errors): the
/// contract of [`Decoder::decode_into`].
pub fn decode_prefixed<D: Decoder + ?Sized>(
    prefixed: &Prefixed,
    steps: &D,
    input: &[u8],
    out: &mut Vec<D::Value>,
) -> Result<(), DecodeError> {
    decode_prefixed_prefix(prefixed, steps, input, usize::MAX, out).1
}

/// [`Decoder::decode_prefix_into`] by `prefixed` and `steps`: up to `max`
/// values, stopping before the first unit that starts no valid value; what
/// was read, and the error there if decoding stopped before `max` values
/// and the input's end. The SIMD kernel, where the machine has one
/// (`placemat_simd::decode_prefixed`), writes into `out`'s spare room; the
/// rest is written into room for 256 at a time: a slot written by index
/// costs less than a push.
pub fn decode_prefixed_prefix<D: Decoder + ?Sized>(
    prefixed: &Prefixed,
    steps: &D,
    input: &[u8],
    max: usize,
    out: &mut Vec<D::Value>,
) -> (Prefix, Result<(), DecodeError>) {
    let step = |rest: &[u8]| stepped(steps, rest, 0).ok();
    let kernel = crate::kernels::decode_prefixed_into(&prefixed.tags(), input, max, out, step);
    let rest = |rest: &[u8], max: usize, out: &mut Vec<D::Value>| {
        crate::flagged::in_blocks(rest, max, out, |rest, slots| slice_and_stop(prefixed, steps, rest, slots))
    };
    kernel_then(kernel, crate::simd::PREFIXED_TAIL, steps, input, max, out, rest)
}

/// [`Decoder::decode_prefix`] by `prefixed` and `steps`: values into the
/// slots of `out` until they are full or a unit starts no valid value.
pub fn decode_prefixed_slice<D: Decoder + ?Sized>(
    prefixed: &Prefixed,
    steps: &D,
    input: &[u8],
    out: &mut [D::Value],
) -> Prefix {
    slice_and_stop(prefixed, steps, input, out).0
}

/// [`decode_prefixed_slice`], and the error before which it stopped, if it
/// stopped before `out` was full and the input's end: the SIMD kernel
/// first, where the machine has one, then a value at a time.
fn slice_and_stop<D: Decoder + ?Sized>(
    prefixed: &Prefixed,
    steps: &D,
    input: &[u8],
    out: &mut [D::Value],
) -> (Prefix, Result<(), DecodeError>) {
    let (mut values, mut units) = crate::kernels::decode_prefixed(&prefixed.tags(), input, out);
    while values < out.len() && units < input.len() {
        match one(prefixed, steps, &input[units..], units) {
            Ok((value, len)) => {
                out[values] = value;
                (values, units) = (values + 1, units + len);
            }
            Err(e) => return (Prefix { values, units }, Err(e)),
        }
    }
    (Prefix { values, units }, Ok(()))
}

/// [`Encoder::encode_into`] by `prefixed` and `encoder`: the SIMD kernel,
/// where the machine has one (`placemat_simd::encode_prefixed`), writes the
/// values a tag's range holds eight at a time and hands `encoder` each
/// other one; where it stops (a value the encoder refuses, too little room
/// left for a group) the encoder goes on one value at a time and reports
/// any error, as it would alone.
///
/// ```
/// use placemat_codec::{encode_prefixed, EncodeError, Encoder, Prefixed};
/// # struct Quic;
/// # impl Encoder for Quic {
/// #     type Value = u64;
/// #     fn max_units(&self) -> usize { 8 }
/// #     fn encode(&self, v: u64, out: &mut [u8]) -> Result<usize, EncodeError> {
/// #         let (tag, n) = match v { 0..=0x3F => (0, 1), 0x40..=0x3FFF => (1, 2), 0x4000..=0x3FFF_FFFF => (2, 4), _ => (3, 8) };
/// #         if v > 0x3FFF_FFFF_FFFF_FFFF { return Err(EncodeError::Unencodable { value: v }) }
/// #         let units = out.get_mut(..n).ok_or(EncodeError::BufferTooSmall { needed: n })?;
/// #         units.copy_from_slice(&(v | tag << (8 * n - 2)).to_be_bytes()[8 - n..]);
/// #         Ok(n)
/// #     }
/// # }
/// let mut fact = Prefixed { shift: 6, lengths: [0; 16], lo: [0; 16], hi: [0; 16], bias: [0; 16] };
/// for (tag, n) in [1u8, 2, 4, 8].into_iter().enumerate() {
///     fact.lengths[tag] = n;
///     fact.hi[tag] = (1u64 << (8 * u32::from(n) - 2)) - 1;
/// }
/// let values: Vec<u64> = (0..100).map(|k| (k * k * k * 1_000_003) >> (k % 40)).chain([u64::MAX]).collect();
/// let mut out = vec![0u8; 8 * values.len()];
/// let err = encode_prefixed(&fact, &Quic, &values, &mut out).unwrap_err();
/// assert_eq!((err.index, err.error), (100, EncodeError::Unencodable { value: u64::MAX }));
/// let mut one_by_one = Vec::new();
/// for &v in &values[..100] {
///     Quic.encode_push(v, &mut one_by_one).unwrap();
/// }
/// assert_eq!(&out[..err.written], &one_by_one[..]);
/// ```
pub fn encode_prefixed<E: Encoder + ?Sized>(
    prefixed: &Prefixed,
    encoder: &E,
    values: &[E::Value],
    out: &mut [u8],
) -> Result<usize, EncodeIntoError> {
    let other = |value, out: &mut [u8]| encoder.encode(value, out).ok();
    let kernel = crate::kernels::encode_prefixed(&prefixed.tags(), values, out, other);
    one_by_one_after(kernel.unwrap_or((0, 0)), encoder, values, out)
}

/// The value at the start of `rest` (stream offset `at`) and its length: by
/// the fact, else by `steps`, whose error it returns.
#[inline]
fn one<D: Decoder + ?Sized>(
    prefixed: &Prefixed,
    steps: &D,
    rest: &[u8],
    at: usize,
) -> Result<(D::Value, usize), DecodeError> {
    match prefixed.step(rest) {
        Some((value, len)) => Ok((D::Value::from_u64_lossy(value), len)),
        None => stepped(steps, rest, at),
    }
}
