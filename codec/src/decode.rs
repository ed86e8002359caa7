//! The decoding half of the runtime API: one primitive ([`Decoder::step`]) and
//! everything derived from it (strict decoding, validation, lossy decoding, an
//! iterator of items with their spans).
//!
//! ```
//! use placemat_codec::{Decoder, Step};
//!
//! /// A toy codec: every unit below 0x80 is a value, everything else is invalid.
//! struct Ascii;
//! impl Decoder for Ascii {
//!     type Value = u32;
//!     fn step(&self, input: &[u8]) -> Step<u32> {
//!         match input.first() {
//!             None => Step::Incomplete,
//!             Some(&b) if b < 0x80 => Step::Value { value: b.into(), len: 1 },
//!             Some(_) => Step::Invalid { len: 1 },
//!         }
//!     }
//! }
//!
//! assert_eq!(Ascii.decode(b"hi").unwrap(), [0x68, 0x69]);
//! let err = Ascii.validate(b"h\xFFi").unwrap_err();
//! assert_eq!((err.valid_up_to(), err.error_len()), (1, Some(1)));
//! assert_eq!(Ascii.decode_lossy(b"h\xFFi"), [0x68, 0xFFFD, 0x69]);
//! ```
//!
//! # Lineage
//! The error convention is `std::str::Utf8Error`'s; the lossy rule (one U+FFFD per
//! maximal subpart) is Unicode's "best practice for U+FFFD substitution" (Unicode
//! ch. 3, §3.9), as implemented by `String::from_utf8_lossy` and the WHATWG decoder.

use alloc::vec::Vec;
use core::ops::Range;

use crate::{DecodeError, Value};

/// What one decoding step found at the start of its input.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step<V> {
    /// A complete, valid sequence of `len` units encoding `value`.
    Value {
        /// The decoded value.
        value: V,
        /// Units consumed.
        len: usize,
    },
    /// The first `len` units (at least one) are a maximal subpart: a prefix of some
    /// valid sequence that the next unit cannot continue, or a single unit that
    /// starts no sequence. Decoding resumes after them.
    Invalid {
        /// Units in the maximal subpart.
        len: usize,
    },
    /// The whole input is a proper prefix of a valid sequence (or is empty).
    Incomplete,
}

impl<V> Step<V> {
    /// The same step with its value mapped by `f` (errors pass unchanged).
    ///
    /// ```
    /// use placemat_codec::Step;
    /// assert_eq!(Step::Value { value: 7u32, len: 1 }.map(u64::from), Step::Value { value: 7u64, len: 1 });
    /// assert_eq!(Step::<u32>::Invalid { len: 2 }.map(u64::from), Step::Invalid { len: 2 });
    /// ```
    #[inline(always)]
    pub fn map<W>(self, f: impl FnOnce(V) -> W) -> Step<W> {
        match self {
            Step::Value { value, len } => Step::Value { value: f(value), len },
            Step::Invalid { len } => Step::Invalid { len },
            Step::Incomplete => Step::Incomplete,
        }
    }
}

/// One decoded item and the units it came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Item<V> {
    /// Offsets of the units, relative to the start of the input (or stream).
    pub span: Range<usize>,
    /// The value, or why the units did not decode.
    pub value: Result<V, ItemError>,
}

/// Why an [`Item`] did not decode.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ItemError {
    /// A maximal subpart that no valid sequence continues.
    Invalid,
    /// The input ended inside a sequence.
    Incomplete,
}

impl<V: Value> Item<V> {
    /// The decoded value, or U+FFFD for an error (the lossy rule).
    pub fn lossy(&self) -> V {
        self.value.unwrap_or(V::REPLACEMENT)
    }
}

/// How much of its input [`Decoder::decode_prefix`] decoded.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Prefix {
    /// The values written.
    pub values: usize,
    /// The units they took, from the start of the input.
    pub units: usize,
}

impl Prefix {
    /// This prefix followed by `next`, read from where this one ends.
    pub fn then(self, next: Prefix) -> Prefix {
        Prefix { values: self.values + next.values, units: self.units + next.units }
    }
}

/// A decoding strategy. Implementors provide [`Decoder::step`]; every other method
/// is derived from it, and fast strategies override the bulk ones.
///
/// Invariant every implementation must keep (tested against the reference
/// interpreter): `step` looks at no unit beyond the sequence it reports, so the
/// result for a prefix of the input never depends on what follows it, except that
/// [`Step::Incomplete`] may turn into another answer when more input arrives.
pub trait Decoder {
    /// The value type.
    type Value: Value;

    /// Decodes the sequence at the start of `input`, as at the start of input
    /// (context 0).
    fn step(&self, input: &[u8]) -> Step<Self::Value>;

    /// Decodes the sequence at the start of `input` in `context`: what a codec
    /// with rules across adjacent values (WTF-8: no low surrogate right after
    /// a high one) remembers of the value before, as
    /// [`Decoder::context_after`] gives it. Codecs without such rules have
    /// only context 0, and the default is [`Decoder::step`].
    #[inline]
    fn step_in(&self, context: usize, input: &[u8]) -> Step<Self::Value> {
        let _ = context;
        self.step(input)
    }

    /// [`Decoder::step_in`] where more input may follow `input` (a chunk of a
    /// stream): for a codec whose forms overlap by design (`overlap:
    /// longest`, as Java's modified UTF-8 with lone surrogates), a whole
    /// sequence at the end that more input could make the start of a longer
    /// one is [`Step::Incomplete`]. [`Decoder::step_in`] reads the end of
    /// its input as the end, and takes the shorter sequence there. The
    /// default, for codecs whose sequences are never the start of others, is
    /// [`Decoder::step_in`].
    #[inline]
    fn step_open(&self, context: usize, input: &[u8]) -> Step<Self::Value> {
        self.step_in(context, input)
    }

    /// The context after `value` (0 for a codec without rules across values,
    /// and after any value no rule looks back at). After an invalid sequence
    /// decoding goes on in context 0.
    #[inline]
    fn context_after(&self, value: &Self::Value) -> usize {
        let _ = value;
        0
    }

    /// Checks that `input` is a concatenation of valid sequences.
    fn validate(&self, input: &[u8]) -> Result<(), DecodeError> {
        let (mut pos, mut context) = (0, 0);
        while pos < input.len() {
            match self.step_in(context, &input[pos..]) {
                Step::Value { len, value } => {
                    context = self.context_after(&value);
                    pos += len
                }
                Step::Invalid { len } => return Err(DecodeError::new(pos, Some(len))),
                Step::Incomplete => return Err(DecodeError::new(pos, None)),
            }
        }
        Ok(())
    }

    /// Appends the values of `input` to `out`. On error, the values before the error
    /// have been appended.
    fn decode_into(&self, input: &[u8], out: &mut Vec<Self::Value>) -> Result<(), DecodeError> {
        let (mut pos, mut context) = (0, 0);
        while pos < input.len() {
            match self.step_in(context, &input[pos..]) {
                Step::Value { value, len } => {
                    context = self.context_after(&value);
                    out.push(value);
                    pos += len;
                }
                Step::Invalid { len } => return Err(DecodeError::new(pos, Some(len))),
                Step::Incomplete => return Err(DecodeError::new(pos, None)),
            }
        }
        Ok(())
    }

    /// Decodes values from the start of `input` into `out`, one per slot,
    /// until `out` is full, the input ends, or what follows is no whole valid
    /// sequence: how many values were written and how many units they took.
    /// For a parser that reads a run of values followed by other fields (a
    /// count of varints, then bytes): the units after [`Prefix::units`] are
    /// untouched, and a step there tells why decoding stopped, if `out` has
    /// room left. Runs [`Decoder::step_in`], the codec's fastest one-value
    /// decoder, in the contexts its rules give.
    ///
    /// ```
    /// use placemat_codec::{Decoder, Prefix, Step};
    /// # struct Ascii;
    /// # impl Decoder for Ascii {
    /// #     type Value = u32;
    /// #     fn step(&self, input: &[u8]) -> Step<u32> {
    /// #         match input.first() {
    /// #             None => Step::Incomplete,
    /// #             Some(&b) if b < 0x80 => Step::Value { value: b.into(), len: 1 },
    /// #             Some(_) => Step::Invalid { len: 1 },
    /// #         }
    /// #     }
    /// # }
    /// let mut values = [0u32; 2];
    /// assert_eq!(Ascii.decode_prefix(b"abc", &mut values), Prefix { values: 2, units: 2 });
    /// assert_eq!(Ascii.decode_prefix(b"a\xFFb", &mut values), Prefix { values: 1, units: 1 });
    /// assert_eq!(values[0], 0x61);
    /// ```
    fn decode_prefix(&self, input: &[u8], out: &mut [Self::Value]) -> Prefix {
        let (mut units, mut context) = (0, 0);
        for (values, slot) in out.iter_mut().enumerate() {
            match self.step_in(context, &input[units..]) {
                Step::Value { value, len } => {
                    context = self.context_after(&value);
                    *slot = value;
                    units += len;
                }
                _ => return Prefix { values, units },
            }
        }
        Prefix { values: out.len(), units }
    }

    /// [`Decoder::decode_prefix`] appending at most `max` values to `out`.
    fn decode_prefix_into(&self, input: &[u8], max: usize, out: &mut Vec<Self::Value>) -> Prefix {
        let (mut units, mut context) = (0, 0);
        for values in 0..max {
            match self.step_in(context, &input[units..]) {
                Step::Value { value, len } => {
                    context = self.context_after(&value);
                    out.push(value);
                    units += len;
                }
                _ => return Prefix { values, units },
            }
        }
        Prefix { values: max, units }
    }

    /// Decodes all of `input`, or reports the first error.
    fn decode(&self, input: &[u8]) -> Result<Vec<Self::Value>, DecodeError> {
        let mut out = Vec::with_capacity(input.len());
        self.decode_into(input, &mut out)?;
        Ok(out)
    }

    /// Decodes `input`, replacing each maximal subpart (and a truncated tail) by one
    /// U+FFFD.
    fn decode_lossy_into(&self, input: &[u8], out: &mut Vec<Self::Value>) {
        let (mut pos, mut context) = (0, 0);
        while pos < input.len() {
            let Some(step) = lossy_step(self, context, &input[pos..], out) else { break };
            (pos, context) = (pos + step.len, step.context);
        }
    }

    /// [`Decoder::decode_lossy_into`] into a new vector.
    fn decode_lossy(&self, input: &[u8]) -> Vec<Self::Value> {
        let mut out = Vec::with_capacity(input.len());
        self.decode_lossy_into(input, &mut out);
        out
    }

    /// An iterator over the items of `input`, errors included, with their spans.
    fn items<'a>(&'a self, input: &'a [u8]) -> Items<'a, Self>
    where
        Self: Sized,
    {
        Items { decoder: self, input, pos: 0, context: 0 }
    }
}

/// Lossy decoding by restarts, for decoders whose strict bulk loop is faster
/// than stepping: runs `decode` (with the contract of
/// [`Decoder::decode_into`]) and at each error appends one U+FFFD and starts
/// again after the invalid sequence, or stops after a truncated one; the
/// result is [`Decoder::decode_lossy_into`]'s (rules across values start
/// again in context 0 after an invalid sequence, as `decode` starts).
///
/// ```
/// use placemat_codec::{decode_lossy_by_restarts, DecodeError};
/// // A strict "decoder" of ASCII bytes.
/// let ascii = |input: &[u8], out: &mut Vec<u32>| -> Result<(), DecodeError> {
///     for (i, &b) in input.iter().enumerate() {
///         if b >= 0x80 {
///             return Err(DecodeError::new(i, Some(1)));
///         }
///         out.push(u32::from(b));
///     }
///     Ok(())
/// };
/// let mut out = Vec::new();
/// decode_lossy_by_restarts(b"a\xFFb", &mut out, ascii);
/// assert_eq!(out, [0x61, 0xFFFD, 0x62]);
/// ```
pub fn decode_lossy_by_restarts<V: Value>(
    input: &[u8],
    out: &mut Vec<V>,
    mut decode: impl FnMut(&[u8], &mut Vec<V>) -> Result<(), DecodeError>,
) {
    let mut pos = 0;
    while pos < input.len() {
        let Err(e) = decode(&input[pos..], out) else { return };
        out.push(V::REPLACEMENT);
        match e.error_len() {
            Some(len) => pos += e.valid_up_to() + len,
            None => return,
        }
    }
}

/// Units stepped without an error, after one, before
/// [`decode_lossy_in_bulk`] hands the input back to the bulk decoder (at
/// least; the stretch doubles each time the bulk decoder meets an error soon).
const CALM: usize = 256;
/// The longest stretch stepped after an error.
const MAX_CALM: usize = 1 << 16;

/// [`Decoder::decode_lossy_into`] for a decoder whose `decode_into` is a bulk
/// loop that costs something to start (the table decoder: SIMD validation of
/// a first block, two walks over chunks): `decode_into` while the input is
/// clean; after an error, step by step until a stretch of units has passed
/// without one (and at the start state of context 0), then in bulk again. The
/// stretch starts at 256 units and doubles whenever the bulk decoder stops
/// within four stretches, so text with an error every few units costs what
/// stepping costs, and clean text what the bulk loop costs. The result is the
/// step-by-step one.
pub fn decode_lossy_in_bulk<D: Decoder + ?Sized>(decoder: &D, input: &[u8], out: &mut Vec<D::Value>) {
    let (mut pos, mut calm) = (0, CALM);
    while pos < input.len() {
        let Err(e) = decoder.decode_into(&input[pos..], out) else { return };
        out.push(D::Value::REPLACEMENT);
        let Some(len) = e.error_len() else { return };
        calm = if e.valid_up_to() < 4 * calm { (2 * calm).min(MAX_CALM) } else { CALM };
        pos += e.valid_up_to() + len;
        let (mut context, mut calm_from) = (0, pos);
        while pos < input.len() && (pos - calm_from < calm || context != 0) {
            let Some(step) = lossy_step(decoder, context, &input[pos..], out) else { return };
            (pos, context) = (pos + step.len, step.context);
            if step.invalid {
                calm_from = pos;
            }
        }
    }
}

/// What one step of lossy decoding took.
struct LossyStep {
    /// Units taken.
    len: usize,
    /// The context after them (0 after an invalid sequence).
    context: usize,
    /// Whether they were an invalid sequence.
    invalid: bool,
}

/// One step of lossy decoding at the start of `input` (not empty) in
/// `context`: appends the value, or U+FFFD for an invalid sequence; `None`
/// after a truncated one (U+FFFD appended, nothing more to read).
fn lossy_step<D: Decoder + ?Sized>(
    decoder: &D,
    context: usize,
    input: &[u8],
    out: &mut Vec<D::Value>,
) -> Option<LossyStep> {
    match decoder.step_in(context, input) {
        Step::Value { value, len } => {
            out.push(value);
            Some(LossyStep { len, context: decoder.context_after(&value), invalid: false })
        }
        Step::Invalid { len } => {
            out.push(D::Value::REPLACEMENT);
            Some(LossyStep { len, context: 0, invalid: true })
        }
        Step::Incomplete => {
            out.push(D::Value::REPLACEMENT);
            None
        }
    }
}

impl<D: Decoder + ?Sized> Decoder for &D {
    type Value = D::Value;
    #[inline]
    fn step(&self, input: &[u8]) -> Step<Self::Value> {
        (**self).step(input)
    }
    #[inline]
    fn step_in(&self, context: usize, input: &[u8]) -> Step<Self::Value> {
        (**self).step_in(context, input)
    }
    #[inline]
    fn step_open(&self, context: usize, input: &[u8]) -> Step<Self::Value> {
        (**self).step_open(context, input)
    }
    #[inline]
    fn context_after(&self, value: &Self::Value) -> usize {
        (**self).context_after(value)
    }
    fn validate(&self, input: &[u8]) -> Result<(), DecodeError> {
        (**self).validate(input)
    }
    fn decode_into(&self, input: &[u8], out: &mut Vec<Self::Value>) -> Result<(), DecodeError> {
        (**self).decode_into(input, out)
    }
    fn decode_lossy_into(&self, input: &[u8], out: &mut Vec<Self::Value>) {
        (**self).decode_lossy_into(input, out)
    }
    fn decode_prefix(&self, input: &[u8], out: &mut [Self::Value]) -> Prefix {
        (**self).decode_prefix(input, out)
    }
    fn decode_prefix_into(&self, input: &[u8], max: usize, out: &mut Vec<Self::Value>) -> Prefix {
        (**self).decode_prefix_into(input, max, out)
    }
}

/// Iterator returned by [`Decoder::items`].
#[derive(Clone, Debug)]
pub struct Items<'a, D> {
    decoder: &'a D,
    input: &'a [u8],
    pos: usize,
    context: usize,
}

impl<D: Decoder> Iterator for Items<'_, D> {
    type Item = Item<D::Value>;

    fn next(&mut self) -> Option<Self::Item> {
        let start = self.pos;
        if start >= self.input.len() {
            return None;
        }
        let step = self.decoder.step_in(self.context, &self.input[start..]);
        self.context = match &step {
            Step::Value { value, .. } => self.decoder.context_after(value),
            _ => 0,
        };
        let (len, value) = match step {
            Step::Value { value, len } => (len, Ok(value)),
            Step::Invalid { len } => (len, Err(ItemError::Invalid)),
            Step::Incomplete => (self.input.len() - start, Err(ItemError::Incomplete)),
        };
        self.pos = start + len;
        Some(Item { span: start..self.pos, value })
    }
}

impl<D: Decoder> core::iter::FusedIterator for Items<'_, D> {}
