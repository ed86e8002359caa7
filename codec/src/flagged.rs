//! Bulk decoding of integer streams whose units say where a value ends
//! ([`Flagged`]): LEB128, MIDI's VLQ, git's offsets, SQLite's varints up to
//! eight bytes. The compiler derives the fact from a description's forms
//! (`placemat_compiler::automaton::flagged`): every unit of every form of
//! one to eight units is a flag bit (bit 7) and seven payload bits, the flag
//! has one value in the units that continue a sequence and the other in the
//! last, the groups go least or most significant first, and each length has
//! a bias and a range of values its sequences may take (or, for a signed
//! codec whose values are two's complement, its payload is sign-extended).
//!
//! Where the machine has AVX-512, the SIMD kernel
//! (`placemat_simd::decode_flagged`) takes the flags of 64 units at a time
//! and decodes the values that end among them; the word decoder below goes
//! on where it stops (a value it does not cover, the input's last units).
//!
//! The word decoder reads eight units as one word: the flags of the units that
//! end a value are one mask, its lowest bit the value's length; the value's
//! groups are joined by three masked shifts (no multiplication, no table)
//! and checked against its length's range. A word of eight one-unit values
//! is widened at once. (Taking every value that ends in a word from one
//! read was slower on both distributions of the `varints` group: the loop
//! over the word's ends costs more than a read from cache.) Where a value is
//! longer than eight units, out of its length's range or cut by the input's
//! end, the decoder stops; [`decode_flagged`] then takes that one value with
//! the codec's own step (which reports any error exactly) and goes on. A
//! codec's one-value step ([`Flagged::step`]) reads a one-unit value from
//! its unit alone and a longer one from a word.
//!
//! ```
//! use placemat_codec::{decode_flagged, Flagged, Prefix};
//! # use placemat_codec::{Decoder, Step};
//! # struct Steps;
//! # impl Decoder for Steps {
//! #     type Value = u64;
//! #     fn step(&self, _: &[u8]) -> Step<u64> { Step::Incomplete }
//! # }
//! // LEB128: bit 7 set continues, groups least significant first, one to ten units.
//! let hi = core::array::from_fn(|n| u64::MAX >> 64u32.saturating_sub(7 * (n as u32 + 1)));
//! let leb128 = Flagged { continues_when_set: true, lsb_first: true, lengths: 10, lo: [0; 10], hi, bias: [0; 10], signed: false };
//! let mut slots = [0u64; 2];
//! assert_eq!(leb128.decode_slice(&[0xE5, 0x8E, 0x26, 0x01, 0x7F], &mut slots), Prefix { values: 2, units: 4 });
//! assert_eq!(slots, [624_485, 1]);
//! let mut out = Vec::new();
//! // A value cut by the end is left to the step, which reports it.
//! let err = decode_flagged(&leb128, &Steps, &[0x01, 0x80], &mut out).unwrap_err();
//! assert_eq!((out.as_slice(), err.valid_up_to()), (&[1u64][..], 1));
//! ```

use alloc::vec::Vec;

use crate::{DecodeError, Decoder, EncodeIntoError, Encoder, Prefix, Step, Value};

/// The flag bit of every unit.
const FLAGS: u64 = 0x8080_8080_8080_8080;

/// How many values [`decode_flagged_prefix`] makes room for at a time.
const BLOCK: usize = 256;

/// How a codec's units mark the ends of its values, and what the values of
/// each length are: the fact the compiler derives, as data.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Flagged {
    /// Whether bit 7 is set in a unit that continues its sequence (LEB128:
    /// `1xxxxxxx* 0xxxxxxx`); the last unit has it the other way.
    pub continues_when_set: bool,
    /// Whether the first unit carries the least significant group (LEB128),
    /// or the most significant (VLQ, SQLite).
    pub lsb_first: bool,
    /// The longest sequence this fact describes: 1 to 8 units, or up to 10
    /// where the first unit carries the least significant group (LEB128's
    /// 64-bit values). The word decoder reads up to eight (a value of nine
    /// or ten units is the codec step's), the SIMD kernel all of them. A
    /// payload of more than 64 bits (ten units) is a value only where its
    /// bits above 64 are zero; a [`Flagged::signed`] fact has at most nine.
    pub lengths: u8,
    /// For `n + 1` units, the least value such a sequence may take.
    pub lo: [u64; 10],
    /// For `n + 1` units, the greatest.
    pub hi: [u64; 10],
    /// For `n + 1` units, the value of payload 0.
    pub bias: [u64; 10],
    /// Whether a value is its payload sign-extended from the payload's top
    /// bit (two's complement: SLEB128), as a 64-bit pattern; `lo` and `hi`
    /// then compare as `i64` and the biases are 0.
    pub signed: bool,
}

impl Flagged {
    /// Decodes values from the start of `input` into the slots of `out`, one
    /// each, until they are full or up to the first value this fact does not
    /// cover (longer than [`Flagged::lengths`], out of its length's range) or
    /// that the input's end cuts: the values and units read.
    pub fn decode_slice<V: Value>(&self, input: &[u8], out: &mut [V]) -> Prefix {
        let widen = self.lo[0] == 0 && self.bias[0] == 0 && self.hi[0] == 0x7F;
        // The SIMD kernel first, where the machine has one; then words.
        let (mut values, mut pos) = crate::kernels::decode_flagged(&self.marks(), input, out);
        while values < out.len() {
            let rest = &input[pos..];
            let (word, room) = match rest.first_chunk::<8>() {
                Some(w) => (u64::from_le_bytes(*w), 8),
                None => (tail_word(rest), rest.len()),
            };
            let mut ends = self.ends(word);
            if room < 8 {
                ends &= (1u64 << (8 * room)) - 1;
            }
            if let (FLAGS, true, Some(slots)) = (ends, widen, out.get_mut(values..values + 8)) {
                for (slot, unit) in slots.iter_mut().zip(word.to_le_bytes()) {
                    *slot = V::from_u64_lossy(u64::from(unit & 0x7F));
                }
                (pos, values) = (pos + 8, values + 8);
                continue;
            }
            if ends == 0 {
                break;
            }
            let n = (ends.trailing_zeros() / 8 + 1) as usize;
            let Some(value) = self.value(word, n) else { break };
            out[values] = V::from_u64_lossy(value);
            (pos, values) = (pos + n, values + 1);
        }
        Prefix { values, units: pos }
    }

    /// The value at the start of `input` and its length, if this fact
    /// covers it and `input` holds it whole within eight units (else the
    /// codec's step reads it): a codec's one-value step. A one-unit value is
    /// read from its unit alone, a longer one from a word of eight.
    #[inline]
    pub fn step(&self, input: &[u8]) -> Option<(u64, usize)> {
        let &first = input.first()?;
        if (first & 0x80 != 0) != self.continues_when_set {
            let value = self.extended(u64::from(first & 0x7F), 1).wrapping_add(self.bias[0]);
            return self.holds(value, 0).then_some((value, 1));
        }
        let word = u64::from_le_bytes(*input.first_chunk::<8>()?);
        let ends = self.ends(word);
        if ends == 0 {
            return None;
        }
        let n = (ends.trailing_zeros() / 8 + 1) as usize;
        self.value(word, n).map(|value| (value, n))
    }

    /// The fact as the SIMD kernel reads it.
    pub fn marks(&self) -> crate::simd::Marks {
        let Flagged { continues_when_set, lsb_first, lengths, lo, hi, bias, signed } = *self;
        crate::simd::Marks { continues_when_set, lsb_first, lengths, lo, hi, bias, signed }
    }

    /// The flag bits of the units of `word` that end a value.
    #[inline]
    fn ends(&self, word: u64) -> u64 {
        let flags = word & FLAGS;
        if self.continues_when_set {
            flags ^ FLAGS
        } else {
            flags
        }
    }

    /// The value of the `n` units at the low end of `units`, if this fact
    /// covers it.
    #[inline]
    fn value(&self, units: u64, n: usize) -> Option<u64> {
        if n > usize::from(self.lengths) {
            return None;
        }
        let spelled = units & (u64::MAX >> (64 - 8 * n)) & !FLAGS;
        let ordered = if self.lsb_first { spelled } else { spelled.swap_bytes() >> (64 - 8 * n) };
        let value = self.extended(crate::simd::groups7(ordered), n).wrapping_add(self.bias[n - 1]);
        self.holds(value, n - 1).then_some(value)
    }

    /// The payload of `n` units as a value: itself, or sign-extended from
    /// its top bit ([`Flagged::signed`]).
    #[inline(always)]
    fn extended(&self, payload: u64, n: usize) -> u64 {
        if self.signed {
            crate::Sign::TwosComplement.value(payload, 7 * n as u32)
        } else {
            payload
        }
    }

    /// Whether `value` is in the range of sequences of `k + 1` units.
    #[inline(always)]
    fn holds(&self, value: u64, k: usize) -> bool {
        if self.signed {
            self.lo[k] as i64 <= value as i64 && value as i64 <= self.hi[k] as i64
        } else {
            self.lo[k] <= value && value <= self.hi[k]
        }
    }
}

/// The last units of an input, fewer than eight, as a word (zeros after).
fn tail_word(rest: &[u8]) -> u64 {
    let mut padded = [0u8; 8];
    padded[..rest.len()].copy_from_slice(rest);
    u64::from_le_bytes(padded)
}

/// Decodes all of `input` by `flagged`, taking each value it leaves with
/// `steps`' [`Decoder::step`] (which has the codec's exact errors): the
/// contract of [`Decoder::decode_into`].
pub fn decode_flagged<D: Decoder + ?Sized>(
    flagged: &Flagged,
    steps: &D,
    input: &[u8],
    out: &mut Vec<D::Value>,
) -> Result<(), DecodeError> {
    decode_flagged_prefix(flagged, steps, input, usize::MAX, out).1
}

/// [`Decoder::decode_prefix_into`] by `flagged` and `steps`: up to `max`
/// values, stopping before the first unit that starts no valid value; what
/// was read, and the error there if decoding stopped before `max` values
/// and the input's end. The SIMD kernel, where the machine has one, writes
/// into `out`'s spare room; the rest is written by [`decode_flagged_slice`]
/// into room for 256 at a time: a slot written by index costs less than a push.
pub fn decode_flagged_prefix<D: Decoder + ?Sized>(
    flagged: &Flagged,
    steps: &D,
    input: &[u8],
    max: usize,
    out: &mut Vec<D::Value>,
) -> (Prefix, Result<(), DecodeError>) {
    let step = |rest: &[u8]| stepped(steps, rest, 0).ok();
    let kernel = crate::kernels::decode_flagged_into(&flagged.marks(), input, max, out, step);
    let rest = |rest: &[u8], max: usize, out: &mut Vec<D::Value>| by_words(flagged, steps, rest, max, out);
    kernel_then(kernel, crate::simd::FLAGGED_TAIL, steps, input, max, out, rest)
}

/// A bulk decode that a SIMD kernel began (`kernel`: the values and units
/// it appended to `out`, reading each value its fact does not cover by
/// `steps`, up to `max` values, an error, or the input's last `tail`
/// units; `None` where no kernel ran) finished by `rest` (the same job
/// without the kernel): what was read, and the error there if decoding
/// stopped before `max` values and the input's end.
pub(crate) fn kernel_then<D: Decoder + ?Sized>(
    kernel: Option<(usize, usize)>,
    tail: usize,
    steps: &D,
    input: &[u8],
    max: usize,
    out: &mut Vec<D::Value>,
    rest: impl FnOnce(&[u8], usize, &mut Vec<D::Value>) -> (Prefix, Result<(), DecodeError>),
) -> (Prefix, Result<(), DecodeError>) {
    let read = kernel.map_or(Prefix::default(), |(values, units)| Prefix { values, units });
    if read.values == max {
        return (read, Ok(()));
    }
    if kernel.is_some() && input.len() - read.units >= tail {
        // The kernel stopped where the step does not take a value: its error.
        if let Err(e) = stepped(steps, &input[read.units..], read.units) {
            return (read, Err(e));
        }
    }
    let (more, stop) = rest(&input[read.units..], max - read.values, out);
    let stop = stop.map_err(|e| DecodeError::new(read.units + e.valid_up_to(), e.error_len()));
    (read.then(more), stop)
}

/// [`Encoder::encode_into`] by `flagged` and `encoder`: the SIMD kernel,
/// where the machine has one (`placemat_simd::encode_flagged`), writes the
/// values the fact holds eight at a time and hands `encoder` each other
/// one (longer than the fact's lengths); where it stops (a value the
/// encoder refuses, too little room left for a group) the encoder goes on
/// one value at a time and reports any error, as it would alone.
///
/// ```
/// use placemat_codec::{encode_flagged, EncodeError, Encoder, Flagged};
/// # struct Leb128;
/// # impl Encoder for Leb128 {
/// #     type Value = u64;
/// #     fn max_units(&self) -> usize { 10 }
/// #     fn encode(&self, mut v: u64, out: &mut [u8]) -> Result<usize, EncodeError> {
/// #         let mut n = 0;
/// #         loop {
/// #             let slot = out.get_mut(n).ok_or(EncodeError::BufferTooSmall { needed: 1 })?;
/// #             *slot = (v & 0x7F) as u8 | if v >= 0x80 { 0x80 } else { 0 };
/// #             n += 1;
/// #             v >>= 7;
/// #             if v == 0 { return Ok(n) }
/// #         }
/// #     }
/// # }
/// // LEB128, one to ten units: the fact; the kernel writes up to eight, the encoder the longer values.
/// let hi = core::array::from_fn(|n| u64::MAX >> 64u32.saturating_sub(7 * (n as u32 + 1)));
/// let fact = Flagged { continues_when_set: true, lsb_first: true, lengths: 10, lo: [0; 10], hi, bias: [0; 10], signed: false };
/// let values: Vec<u64> = (0..100).map(|k| k * k * k * 1_000_003).chain([u64::MAX]).collect();
/// let mut out = vec![0u8; 10 * values.len()];
/// let written = encode_flagged(&fact, &Leb128, &values, &mut out).unwrap();
/// let mut one_by_one = Vec::new();
/// for &v in &values {
///     Leb128.encode_push(v, &mut one_by_one).unwrap();
/// }
/// assert_eq!(&out[..written], &one_by_one[..]);
/// ```
pub fn encode_flagged<E: Encoder + ?Sized>(
    flagged: &Flagged,
    encoder: &E,
    values: &[E::Value],
    out: &mut [u8],
) -> Result<usize, EncodeIntoError> {
    let other = |value, out: &mut [u8]| encoder.encode(value, out).ok();
    let kernel = crate::kernels::encode_flagged(&flagged.marks(), values, out, other);
    one_by_one_after(kernel.unwrap_or((0, 0)), encoder, values, out)
}

/// [`encode_flagged`] for a ZigZag codec ([`Sign::ZigZag`](crate::Sign::ZigZag),
/// protobuf's `sint32`/`sint64`), whose fact spells raw values (`info` is
/// the codec's: its sign, width and range). Runs of values are mapped to
/// raw values first (a shift and an xor each), which the SIMD kernel
/// writes; each value it leaves is mapped back and written by `encoder`.
/// The same units and errors as the encoder one value at a time; a codec of
/// another sign is written one value at a time. (The other signs have no
/// flagged fact on raw values: two's complement has its own, read by
/// [`encode_flagged`], and the low-bit sign's raw value 1 is no value.)
///
/// ```
/// use placemat_codec::{encode_flagged_signed, CodecInfo, EncodeError, Encoder, Flagged, Sign, Unit};
/// // protobuf's sint64: ZigZag, then LEB128 (the fact: one to ten units).
/// struct Sint64;
/// impl Encoder for Sint64 {
///     type Value = i64;
///     fn max_units(&self) -> usize { 10 }
///     fn encode(&self, v: i64, out: &mut [u8]) -> Result<usize, EncodeError> {
///         let mut raw = Sign::ZigZag.raw(v as u64, 64).unwrap_or_default();
///         let mut n = 0;
///         loop {
///             let slot = out.get_mut(n).ok_or(EncodeError::BufferTooSmall { needed: n + 1 })?;
///             *slot = (raw & 0x7F) as u8 | if raw >= 0x80 { 0x80 } else { 0 };
///             (n, raw) = (n + 1, raw >> 7);
///             if raw == 0 { return Ok(n) }
///         }
///     }
/// }
/// let hi = core::array::from_fn(|n| u64::MAX >> 64u32.saturating_sub(7 * (n as u32 + 1)));
/// let fact = Flagged { continues_when_set: true, lsb_first: true, lengths: 10, lo: [0; 10], hi, bias: [0; 10], signed: false };
/// let info = CodecInfo::new("sint64", "ZigZag LEB128", Unit::Byte, 64, i64::MIN as u64, i64::MAX as u64, &[], Some(10))
///     .with_sign(Sign::ZigZag);
/// let values: Vec<i64> = (-100..100).map(|k: i64| k.pow(3) * 1_000_003).chain([i64::MIN, i64::MAX]).collect();
/// let mut out = vec![0u8; 10 * values.len()];
/// let written = encode_flagged_signed(&fact, &info, &Sint64, &values, &mut out).unwrap();
/// let mut one_by_one = Vec::new();
/// for &v in &values {
///     Sint64.encode_push(v, &mut one_by_one).unwrap();
/// }
/// assert_eq!(&out[..written], &one_by_one[..]);
/// ```
pub fn encode_flagged_signed<E: Encoder + ?Sized>(
    flagged: &Flagged,
    info: &crate::CodecInfo,
    encoder: &E,
    values: &[E::Value],
    out: &mut [u8],
) -> Result<usize, EncodeIntoError> {
    let other = |value: E::Value, out: &mut [u8]| encoder.encode(value, out).ok();
    let kernel = signed_kernel(flagged, info, values, out, other);
    one_by_one_after(kernel.unwrap_or((0, 0)), encoder, values, out)
}

/// The flagged SIMD kernel over the raw values of a signed codec's `values`
/// ([`encode_flagged_signed`]): the values written and their units, up to
/// where it stopped (a value the codec refuses, too little room), each value
/// it leaves written by `other`; `None` where no kernel writes the codec on
/// this machine.
pub(crate) fn signed_kernel<V: Value>(
    flagged: &Flagged,
    info: &crate::CodecInfo,
    values: &[V],
    out: &mut [u8],
    mut other: impl FnMut(V, &mut [u8]) -> Option<usize>,
) -> Option<(usize, usize)> {
    let (sign, bits) = (info.sign?, info.value_bits);
    if flagged.signed || sign != crate::Sign::ZigZag {
        return None;
    }
    let marks = flagged.marks();
    let mut leftover = |raw: u64, out: &mut [u8]| other(V::from_u64(sign.value(raw, bits))?, out);
    // Whether a kernel runs here at all.
    crate::kernels::encode_flagged(&marks, &[], &mut [], &mut leftover)?;
    // The codec's range, as the values compare (a signed codec excludes
    // none): a run is mapped up to its first value outside it.
    let (min, max) = (info.min as i64, info.max as i64);
    let mappable =
        |run: &[V]| run.iter().position(|v| !(min..=max).contains(&(v.to_u64() as i64))).unwrap_or(run.len());
    let kernel = |raws: &[u64], out: &mut [u8]| {
        crate::kernels::encode_flagged(&marks, raws, out, &mut leftover).unwrap_or((0, 0))
    };
    Some(crate::sign::raw_runs(sign, bits, values, out, mappable, kernel))
}

/// [`Encoder::encode_into`] after a kernel took `(done, written)`: the rest
/// one value at a time, with the encoder's own errors.
pub(crate) fn one_by_one_after<E: Encoder + ?Sized>(
    (done, mut written): (usize, usize),
    encoder: &E,
    values: &[E::Value],
    out: &mut [u8],
) -> Result<usize, EncodeIntoError> {
    for (index, &value) in values.iter().enumerate().skip(done) {
        match encoder.encode(value, &mut out[written..]) {
            Ok(n) => written += n,
            Err(error) => return Err(EncodeIntoError { index, written, error }),
        }
    }
    Ok(written)
}

/// The value `steps` reads at the start of `rest` and its length, or its
/// error at stream offset `at`.
pub(crate) fn stepped<D: Decoder + ?Sized>(
    steps: &D,
    rest: &[u8],
    at: usize,
) -> Result<(D::Value, usize), DecodeError> {
    match steps.step(rest) {
        Step::Value { value, len } => Ok((value, len)),
        Step::Invalid { len } => Err(DecodeError::new(at, Some(len))),
        Step::Incomplete => Err(DecodeError::new(at, None)),
    }
}

/// [`decode_flagged_prefix`] by words (and the slice kernel).
fn by_words<D: Decoder + ?Sized>(
    flagged: &Flagged,
    steps: &D,
    input: &[u8],
    max: usize,
    out: &mut Vec<D::Value>,
) -> (Prefix, Result<(), DecodeError>) {
    in_blocks(input, max, out, |rest, slots| slice_and_stop(flagged, steps, rest, slots))
}

/// Up to `max` values of `input` appended to `out` by `slice` (which fills
/// slots and says why it stopped short), into room for [`BLOCK`] values at
/// a time: a slot written by index costs less than a push. What was read,
/// and the error there (at its stream offset) if decoding stopped before
/// `max` values and the input's end.
pub(crate) fn in_blocks<V: Value>(
    input: &[u8],
    max: usize,
    out: &mut Vec<V>,
    mut slice: impl FnMut(&[u8], &mut [V]) -> (Prefix, Result<(), DecodeError>),
) -> (Prefix, Result<(), DecodeError>) {
    let mut read = Prefix::default();
    while read.values < max {
        let (start, room) = (out.len(), (max - read.values).min(BLOCK));
        out.resize(start + room, V::from_u64_lossy(0));
        let (got, stop) = slice(&input[read.units..], &mut out[start..]);
        out.truncate(start + got.values);
        let at = read.units;
        read = read.then(got);
        if let Err(e) = stop {
            return (read, Err(DecodeError::new(at + e.valid_up_to(), e.error_len())));
        }
        if got.values < room {
            break;
        }
    }
    (read, Ok(()))
}

/// [`Decoder::decode_prefix`] by `flagged` and `steps`: values into the
/// slots of `out` until they are full or a unit starts no valid value.
pub fn decode_flagged_slice<D: Decoder + ?Sized>(
    flagged: &Flagged,
    steps: &D,
    input: &[u8],
    out: &mut [D::Value],
) -> Prefix {
    slice_and_stop(flagged, steps, input, out).0
}

/// [`decode_flagged_slice`], and the error before which it stopped, if it
/// stopped before `out` was full and the input's end.
fn slice_and_stop<D: Decoder + ?Sized>(
    flagged: &Flagged,
    steps: &D,
    input: &[u8],
    out: &mut [D::Value],
) -> (Prefix, Result<(), DecodeError>) {
    let mut read = Prefix::default();
    loop {
        read = read.then(flagged.decode_slice(&input[read.units..], &mut out[read.values..]));
        if read.values == out.len() || read.units == input.len() {
            return (read, Ok(()));
        }
        match stepped(steps, &input[read.units..], read.units) {
            Ok((value, len)) => {
                out[read.values] = value;
                read = read.then(Prefix { values: 1, units: len });
            }
            Err(e) => return (read, Err(e)),
        }
    }
}
