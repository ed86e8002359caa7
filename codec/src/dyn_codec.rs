//! Codecs behind a trait object ([`DynCodec`]), with values widened to
//! `u64`: what the CLI, the transcoder and descriptions loaded at run time
//! use.
//!
//! The trait's methods that a generated codec's own traits also name carry a
//! `dyn_` prefix, so that importing [`DynCodec`] beside [`Decoder`] and
//! [`Encoder`] never makes a call ambiguous (`Utf8.validate(..)` stays the
//! [`Decoder`]'s); on a `dyn DynCodec` the same operations go by their plain
//! names (`codec.validate(..)`, `codec.info()`), inherent methods of the trait
//! object.
//!
//! ```
//! use placemat_codec::{DecodeError, Decoder, DynCodec, Step, Strategy};
//! # use placemat_codec::{dfa::Dfa, CodecInfo, EncodeError, Unit};
//! # struct Ascii;
//! # static INFO: CodecInfo = CodecInfo::new("ascii", "7-bit", Unit::Byte, 32, 0, 0x7F, &[], Some(1));
//! # impl DynCodec for Ascii {
//! #     fn dyn_info(&self) -> &CodecInfo { &INFO }
//! #     fn description(&self) -> &str { "" }
//! #     fn dyn_dfa(&self) -> Dfa<&[u32], &[u64]> { unimplemented!("not used here") }
//! #     fn dyn_encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
//! #         let unit = u8::try_from(value).ok().filter(|u| *u < 0x80).ok_or(EncodeError::Unencodable { value })?;
//! #         out.push(unit);
//! #         Ok(())
//! #     }
//! #     fn dyn_step(&self, _: Strategy, input: &[u8]) -> Step<u64> {
//! #         match input.first() {
//! #             None => Step::Incomplete,
//! #             Some(&b) if b < 0x80 => Step::Value { value: b.into(), len: 1 },
//! #             Some(_) => Step::Invalid { len: 1 },
//! #         }
//! #     }
//! #     fn dyn_validate(&self, input: &[u8]) -> Result<(), DecodeError> {
//! #         placemat_codec::validate_by_steps(self, Strategy::Table, 0, input, false).0
//! #     }
//! # }
//! let codec: &dyn DynCodec = &Ascii;
//! assert_eq!(codec.info().name, "ascii");
//! assert_eq!(codec.step(Strategy::Table, b"ok"), Step::Value { value: 0x6F, len: 1 });
//! assert_eq!(codec.validate(b"o\xFF"), Err(DecodeError::new(1, Some(1))));
//! let mut out = Vec::new();
//! codec.encode_push(0x6B, &mut out).unwrap();
//! assert_eq!(out, b"k");
//! ```

use alloc::vec::Vec;

use crate::codec::{ascii_runs_of, decode_to_cut, encode_by_words, encode_in_place};
#[cfg(feature = "big")]
use crate::codec::{widen_big, widen_bigint};
use crate::{dfa::Dfa, AsciiRuns, Codec, CodecInfo, DecodeError, Decoder, EncodeError, Encoder, Step};

/// Which decoder of a codec to run.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// The table walker over the codec's DFA.
    Table,
    /// The generated branching decoder (falls back to the table walker for codecs
    /// built at run time, which have no generated code).
    Branching,
}

/// A codec behind a trait object, with values widened to `u64`.
pub trait DynCodec: Send + Sync {
    /// The codec's facts.
    fn dyn_info(&self) -> &CodecInfo;
    /// The text of the description the codec was built from (parse it with
    /// `placemat_compiler::Description::parse_str` to get the model).
    fn description(&self) -> &str;
    /// A borrowed view of the tables.
    fn dyn_dfa(&self) -> Dfa<&[u32], &[u64]>;
    /// Encodes `value`, appending to `out`.
    fn dyn_encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError>;
    /// One decoding step with the chosen strategy.
    fn dyn_step(&self, strategy: Strategy, input: &[u8]) -> Step<u64>;
    /// One decoding step in `context` ([`Decoder::step_in`]).
    fn dyn_step_in(&self, strategy: Strategy, context: usize, input: &[u8]) -> Step<u64> {
        let _ = context;
        self.dyn_step(strategy, input)
    }
    /// One decoding step in `context` where more input may follow
    /// ([`Decoder::step_open`]).
    fn dyn_step_open(&self, strategy: Strategy, context: usize, input: &[u8]) -> Step<u64> {
        self.dyn_step_in(strategy, context, input)
    }
    /// The context after `value` ([`Decoder::context_after`]).
    fn dyn_context_after(&self, value: u64) -> usize {
        let _ = value;
        0
    }
    /// Whether a rule forbids `value` right after `before` ([`Encoder::forbids`]).
    fn dyn_forbids(&self, before: u64, value: u64) -> bool {
        let _ = (before, value);
        false
    }
    /// Decodes in bulk, starting in context 0, the longest prefix of `input`
    /// that holds only whole valid sequences which no unit after `input` can
    /// change ([`decode_to_cut`]): its values are appended to `out` and its
    /// length returned. The values are those [`DynCodec::dyn_step_open`] gives
    /// one at a time, whatever follows `input`. The default decodes nothing (returns 0): the caller steps.
    /// Generated codecs and codecs loaded at run time decode with their
    /// fastest bulk decoder ([`decode_to_cut`]: an integer codec's fact, else
    /// [`Dfa::decode_into`]).
    fn decode_block(&self, input: &[u8], out: &mut Vec<u64>) -> usize {
        let _ = (input, out);
        0
    }
    /// Whether decoded values are mapped after the table's walk (`premap`,
    /// or a signed codec's `sign`): the table's values are then not the
    /// codec's ([`Codec::PREMAPPED`]).
    fn premapped(&self) -> bool {
        false
    }
    /// The ASCII code units that are whole sequences of their own value from
    /// the start state, in a codec without rules across values
    /// ([`crate::dfa::Facts::ascii_runs`]): a transcoder copies, widens or
    /// narrows runs of them from one codec to another without values. The
    /// default claims none.
    fn ascii_runs(&self) -> AsciiRuns {
        AsciiRuns::None
    }
    /// Encodes `values` in bulk, appending to `out`, the first of them right
    /// after `before` (the value written last, if any, for the codec's rules
    /// across values). On a value that cannot be encoded there (unencodable,
    /// or forbidden after the one before it) the encodings of the values
    /// before it have been appended, and its index is the error. The default
    /// calls [`DynCodec::dyn_forbids`] and [`DynCodec::dyn_encode_push`] per value;
    /// generated codecs run their encoder in one loop.
    fn encode_block(&self, before: Option<u64>, values: &[u64], out: &mut Vec<u8>) -> Result<(), usize> {
        encode_by_values(self, before, values, out)
    }
    /// Validates `input` with the codec's fastest validator.
    fn dyn_validate(&self, input: &[u8]) -> Result<(), DecodeError> {
        self.dyn_dfa().validate(input)
    }
    /// Validates `input` read in `context`; the verdict and the context at the
    /// end of the valid prefix ([`Dfa::validate_in`]). The default steps with
    /// [`DynCodec::dyn_step_in`] and [`DynCodec::dyn_context_after`].
    fn validate_in(&self, context: usize, input: &[u8]) -> (Result<(), DecodeError>, usize) {
        validate_by_steps(self, Strategy::Table, context, input, false)
    }
    /// [`DynCodec::validate_in`] where more input may follow (a chunk of a
    /// stream; [`Dfa::validate_open`]). The default steps with
    /// [`DynCodec::dyn_step_open`].
    fn validate_open(&self, context: usize, input: &[u8]) -> (Result<(), DecodeError>, usize) {
        validate_by_steps(self, Strategy::Table, context, input, true)
    }
    /// One decoding step to a value of any size (the only exact one for unbounded
    /// codecs, whose [`DynCodec::dyn_step`] reports values above `u64::MAX` as invalid).
    #[cfg(feature = "big")]
    fn dyn_step_big(&self, strategy: Strategy, input: &[u8]) -> Step<crate::big::BigUint> {
        widen_big(self.dyn_step(strategy, input))
    }
    /// Encodes a value of any size, appending to `out`.
    #[cfg(feature = "big")]
    fn dyn_encode_big(&self, value: &crate::big::BigUint, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        match u64::try_from(value) {
            Ok(v) => self.dyn_encode_push(v, out),
            Err(_) => Err(EncodeError::TooLarge { bits: value.bits() }),
        }
    }
    /// One decoding step to a signed value of any size (see
    /// [`Codec::step_bigint`]): a signed codec's value, or an unsigned
    /// codec's by [`DynCodec::dyn_step_big`].
    #[cfg(feature = "big")]
    fn dyn_step_bigint(&self, strategy: Strategy, input: &[u8]) -> Step<crate::big::BigInt> {
        match self.dyn_info().sign {
            Some(_) => self.dyn_step(strategy, input).map(|v| crate::big::BigInt::from(v as i64)),
            None => self.dyn_step_big(strategy, input).map(crate::big::BigInt::from),
        }
    }
    /// Encodes a signed value of any size (see [`Codec::encode_bigint`]).
    #[cfg(feature = "big")]
    fn dyn_encode_bigint(&self, value: &crate::big::BigInt, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        if self.dyn_info().sign.is_some() {
            return match i64::try_from(value) {
                Ok(v) => self.dyn_encode_push(v as u64, out),
                Err(_) => Err(EncodeError::TooLarge { bits: value.bits() }),
            };
        }
        match crate::big::BigUint::try_from(value) {
            Ok(magnitude) => self.dyn_encode_big(&magnitude, out),
            Err(_) => Err(EncodeError::Negative),
        }
    }
}

/// The trait's operations by their plain names on a trait object: each calls
/// the `dyn_` method of the same name.
impl<'a> dyn DynCodec + 'a {
    /// The codec's facts ([`DynCodec::dyn_info`]).
    pub fn info(&self) -> &CodecInfo {
        self.dyn_info()
    }
    /// A borrowed view of the tables ([`DynCodec::dyn_dfa`]).
    pub fn dfa(&self) -> Dfa<&[u32], &[u64]> {
        self.dyn_dfa()
    }
    /// Encodes `value`, appending to `out` ([`DynCodec::dyn_encode_push`]).
    pub fn encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.dyn_encode_push(value, out)
    }
    /// One decoding step with `strategy` ([`DynCodec::dyn_step`]).
    pub fn step(&self, strategy: Strategy, input: &[u8]) -> Step<u64> {
        self.dyn_step(strategy, input)
    }
    /// One decoding step in `context` ([`DynCodec::dyn_step_in`]).
    pub fn step_in(&self, strategy: Strategy, context: usize, input: &[u8]) -> Step<u64> {
        self.dyn_step_in(strategy, context, input)
    }
    /// One decoding step where more input may follow ([`DynCodec::dyn_step_open`]).
    pub fn step_open(&self, strategy: Strategy, context: usize, input: &[u8]) -> Step<u64> {
        self.dyn_step_open(strategy, context, input)
    }
    /// The context after `value` ([`DynCodec::dyn_context_after`]).
    pub fn context_after(&self, value: u64) -> usize {
        self.dyn_context_after(value)
    }
    /// Whether a rule forbids `value` right after `before` ([`DynCodec::dyn_forbids`]).
    pub fn forbids(&self, before: u64, value: u64) -> bool {
        self.dyn_forbids(before, value)
    }
    /// Validates `input` ([`DynCodec::dyn_validate`]).
    pub fn validate(&self, input: &[u8]) -> Result<(), DecodeError> {
        self.dyn_validate(input)
    }
    /// One decoding step to a value of any size ([`DynCodec::dyn_step_big`]).
    #[cfg(feature = "big")]
    pub fn step_big(&self, strategy: Strategy, input: &[u8]) -> Step<crate::big::BigUint> {
        self.dyn_step_big(strategy, input)
    }
    /// Encodes a value of any size ([`DynCodec::dyn_encode_big`]).
    #[cfg(feature = "big")]
    pub fn encode_big(&self, value: &crate::big::BigUint, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.dyn_encode_big(value, out)
    }
    /// One decoding step to a signed value of any size ([`DynCodec::dyn_step_bigint`]).
    #[cfg(feature = "big")]
    pub fn step_bigint(&self, strategy: Strategy, input: &[u8]) -> Step<crate::big::BigInt> {
        self.dyn_step_bigint(strategy, input)
    }
    /// Encodes a signed value of any size ([`DynCodec::dyn_encode_bigint`]).
    #[cfg(feature = "big")]
    pub fn encode_bigint(&self, value: &crate::big::BigInt, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.dyn_encode_bigint(value, out)
    }
}

/// What [`DynCodec::encode_block`] does by default: [`DynCodec::dyn_forbids`] and
/// [`DynCodec::dyn_encode_push`] for each value.
pub fn encode_by_values<C: DynCodec + ?Sized>(
    codec: &C,
    mut before: Option<u64>,
    values: &[u64],
    out: &mut Vec<u8>,
) -> Result<(), usize> {
    for (i, &value) in values.iter().enumerate() {
        if before.is_some_and(|b| codec.dyn_forbids(b, value)) || codec.dyn_encode_push(value, out).is_err() {
            return Err(i);
        }
        before = Some(value);
    }
    Ok(())
}

/// [`DynCodec::encode_block`] for an unbounded codec: its 64-bit values
/// by its encoder in one loop ([`encode_in_place`]), without the facts'
/// kernels (made for bounded values), or where it has rules across values
/// one by one ([`encode_by_values`]). The error is the index of the first
/// value refused.
pub fn encode_unbounded<C: DynCodec + Encoder + ?Sized>(
    codec: &C,
    before: Option<u64>,
    values: &[u64],
    out: &mut Vec<u8>,
) -> Result<(), usize> {
    match codec.dyn_dfa().contexts() {
        1 => encode_in_place(codec, &crate::WideForms::NONE, values, out),
        _ => encode_by_values(codec, before, values, out),
    }
}

/// [`DynCodec::encode_block`] for a codec with rules across values, by
/// `plain`, its bulk encoder without them: a value outside the codec's
/// [`rule_values`](crate::CodecInfo::rule_values) makes no next value
/// forbidden, so `values` are written in runs that end after each value in
/// them, the first value of each run checked against the one before it
/// ([`DynCodec::dyn_forbids`]). A signed codec's rules are not facts of its
/// 64-bit views: its values are written one by one ([`encode_by_values`]).
/// The error is the index of the first value refused, as `plain` and
/// [`DynCodec::encode_block`] give it.
///
/// ```
/// use placemat_codec::{encode_around_rules, encode_by_values, DynCodec};
/// # use placemat_codec::{dfa::Dfa, CodecInfo, EncodeError, Step, Strategy, Unit};
/// # struct Pairs(CodecInfo);
/// # impl DynCodec for Pairs {
/// #     fn dyn_info(&self) -> &CodecInfo { &self.0 }
/// #     fn description(&self) -> &str { "" }
/// #     fn dyn_dfa(&self) -> Dfa<&[u32], &[u64]> { unimplemented!("not needed here") }
/// #     fn dyn_encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
/// #         out.push(u8::try_from(value).map_err(|_| EncodeError::Unencodable { value })?);
/// #         Ok(())
/// #     }
/// #     fn dyn_step(&self, _: Strategy, _: &[u8]) -> Step<u64> { Step::Incomplete }
/// #     // 0xFE is never right after 0xFF.
/// #     fn dyn_forbids(&self, before: u64, value: u64) -> bool { before == 0xFF && value == 0xFE }
/// # }
/// # let info = CodecInfo::new("bytes", "", Unit::Byte, 8, 0, 0xFF, &[], Some(1));
/// # let codec = Pairs(info.with_rule_values(&[(0xFF, 0xFF)]));
/// // `codec` writes each value below 256 as a byte, never 0xFE right after 0xFF.
/// let mut runs = Vec::new();
/// let plain = |values: &[u64], out: &mut Vec<u8>| {
///     runs.push(values.len());
///     encode_by_values(&codec, None, values, out)
/// };
/// let mut out = Vec::new();
/// assert_eq!(encode_around_rules(&codec, Some(1), &[1, 2, 0xFF, 3, 0xFF, 0xFE], &mut out, plain), Err(5));
/// assert_eq!(out, [1, 2, 0xFF, 3, 0xFF]);
/// assert_eq!(runs, [3, 2]);
/// ```
pub fn encode_around_rules<C: DynCodec + ?Sized>(
    codec: &C,
    mut before: Option<u64>,
    values: &[u64],
    out: &mut Vec<u8>,
    mut plain: impl FnMut(&[u64], &mut Vec<u8>) -> Result<(), usize>,
) -> Result<(), usize> {
    let info = codec.dyn_info();
    if info.sign.is_some() {
        return encode_by_values(codec, before, values, out);
    }
    let mut at = 0;
    while at < values.len() {
        if before.is_some_and(|b| codec.dyn_forbids(b, values[at])) {
            return Err(at);
        }
        let end = first_looked_at(&info.rule_values, &values[at..]).map_or(values.len(), |k| at + k + 1);
        plain(&values[at..end], out).map_err(|refused| at + refused)?;
        before = Some(values[end - 1]);
        at = end;
    }
    Ok(())
}

/// Where the first of `values` lies in one of the `rules` ranges
/// ([`CodecInfo::rules_look_after`](crate::CodecInfo::rules_look_after)). Without rules, no scan; with one
/// range, sixteen values a test without a branch per value (the scan by
/// `position` was a fifth of QUIC varints → UTF-8, which has no rules).
fn first_looked_at(rules: &[(u64, u64)], values: &[u64]) -> Option<usize> {
    match *rules {
        [] => None,
        [(lo, hi)] if lo <= hi => {
            let within = |v: u64| v.wrapping_sub(lo) <= hi - lo;
            let mut at = 0;
            for chunk in values.chunks(16) {
                if chunk.iter().fold(false, |any, &v| any | within(v)) {
                    return chunk.iter().position(|&v| within(v)).map(|k| at + k);
                }
                at += chunk.len();
            }
            None
        }
        _ => values.iter().position(|&v| rules.iter().any(|&(a, b)| a <= v && v <= b)),
    }
}

/// Validation one step at a time with `strategy`, from `context`, where more
/// input may follow if `open` ([`DynCodec::dyn_step_open`]; else
/// [`DynCodec::dyn_step_in`]): the verdict and the context at the end of the
/// valid prefix. What [`DynCodec::validate_in`] and
/// [`DynCodec::validate_open`] do by default, with the table strategy.
pub fn validate_by_steps<C: DynCodec + ?Sized>(
    codec: &C,
    strategy: Strategy,
    context: usize,
    input: &[u8],
    open: bool,
) -> (Result<(), DecodeError>, usize) {
    let (mut pos, mut context) = (0, context);
    while pos < input.len() {
        let step = if open {
            codec.dyn_step_open(strategy, context, &input[pos..])
        } else {
            codec.dyn_step_in(strategy, context, &input[pos..])
        };
        match step {
            Step::Value { len, value } => {
                context = codec.dyn_context_after(value);
                pos += len;
            }
            Step::Invalid { len } => return (Err(DecodeError::new(pos, Some(len))), context),
            Step::Incomplete => return (Err(DecodeError::new(pos, None)), context),
        }
    }
    (Ok(()), context)
}

impl<C: Codec + Default + Send + Sync> DynCodec for C {
    fn dyn_info(&self) -> &CodecInfo {
        C::info()
    }
    fn description(&self) -> &str {
        C::DESCRIPTION
    }
    fn dyn_dfa(&self) -> Dfa<&[u32], &[u64]> {
        C::dfa().as_ref()
    }
    fn dyn_encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        match crate::Value::from_u64(value) {
            Some(v) => Encoder::encode_push(self, v, out),
            None if <<C as Encoder>::Value as crate::simd::Slot>::SIGNED => {
                Err(EncodeError::SignedUnencodable { value: value as i64 })
            }
            None => Err(EncodeError::Unencodable { value }),
        }
    }
    fn dyn_step(&self, strategy: Strategy, input: &[u8]) -> Step<u64> {
        match strategy {
            Strategy::Table => C::Table::default().step(input),
            Strategy::Branching => C::Branching::default().step(input),
        }
        .map(crate::Value::to_u64)
    }
    fn dyn_step_in(&self, strategy: Strategy, context: usize, input: &[u8]) -> Step<u64> {
        match strategy {
            Strategy::Table => C::Table::default().step_in(context, input),
            Strategy::Branching => C::Branching::default().step_in(context, input),
        }
        .map(crate::Value::to_u64)
    }
    fn dyn_step_open(&self, strategy: Strategy, context: usize, input: &[u8]) -> Step<u64> {
        match strategy {
            Strategy::Table => C::Table::default().step_open(context, input),
            Strategy::Branching => C::Branching::default().step_open(context, input),
        }
        .map(crate::Value::to_u64)
    }
    fn dyn_context_after(&self, value: u64) -> usize {
        crate::Value::from_u64(value).map_or(0, |v| Decoder::context_after(self, &v))
    }
    fn dyn_forbids(&self, before: u64, value: u64) -> bool {
        match (crate::Value::from_u64(before), crate::Value::from_u64(value)) {
            (Some(b), Some(v)) => Encoder::forbids(self, b, v),
            _ => false,
        }
    }
    fn decode_block(&self, input: &[u8], out: &mut Vec<u64>) -> usize {
        let start = out.len();
        let took = decode_to_cut(C::info(), C::dfa(), input, out);
        if C::PREMAPPED {
            out[start..].iter_mut().for_each(|v| *v = C::map_raw(*v));
        }
        took
    }
    fn premapped(&self) -> bool {
        C::PREMAPPED
    }
    fn ascii_runs(&self) -> AsciiRuns {
        // The table's runs are of raw values, which a mapped codec's are not.
        if C::PREMAPPED {
            return AsciiRuns::None;
        }
        ascii_runs_of(C::dfa())
    }
    fn encode_block(&self, before: Option<u64>, values: &[u64], out: &mut Vec<u8>) -> Result<(), usize> {
        if C::info().unbounded {
            return encode_unbounded(self, before, values, out);
        }
        let plain =
            |values: &[u64], out: &mut Vec<u8>| match encode_by_words(self, C::info(), C::PREMAPPED, values, out) {
                Some(result) => result,
                None => encode_in_place(self, &C::info().wide_forms, values, out),
            };
        match C::dfa().contexts() {
            1 => plain(values, out),
            _ => encode_around_rules(self, before, values, out, plain),
        }
    }
    fn dyn_validate(&self, input: &[u8]) -> Result<(), DecodeError> {
        Decoder::validate(self, input)
    }
    fn validate_in(&self, context: usize, input: &[u8]) -> (Result<(), DecodeError>, usize) {
        C::dfa().validate_in(context, input)
    }
    fn validate_open(&self, context: usize, input: &[u8]) -> (Result<(), DecodeError>, usize) {
        C::dfa().validate_open(context, input)
    }
    #[cfg(feature = "big")]
    fn dyn_step_big(&self, strategy: Strategy, input: &[u8]) -> Step<crate::big::BigUint> {
        match strategy {
            // An unbounded codec's own `step_big` walks the table.
            Strategy::Table if C::info().unbounded => Codec::step_big(self, input),
            Strategy::Table => widen_big(C::Table::default().step(input)),
            Strategy::Branching => widen_big(C::Branching::default().step(input)),
        }
    }
    #[cfg(feature = "big")]
    fn dyn_encode_big(&self, value: &crate::big::BigUint, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        Codec::encode_big(self, value, out)
    }
    #[cfg(feature = "big")]
    fn dyn_step_bigint(&self, strategy: Strategy, input: &[u8]) -> Step<crate::big::BigInt> {
        match strategy {
            // An unbounded codec's own `step_bigint` walks the table.
            Strategy::Table if C::info().unbounded => Codec::step_bigint(self, input),
            Strategy::Table => widen_bigint(C::Table::default().step(input)),
            Strategy::Branching => widen_bigint(C::Branching::default().step(input)),
        }
    }
    #[cfg(feature = "big")]
    fn dyn_encode_bigint(&self, value: &crate::big::BigInt, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        Codec::encode_bigint(self, value, out)
    }
}

/// Decodes with a [`DynCodec`] and a chosen strategy, as a [`Decoder`] over `u64`.
#[derive(Copy, Clone)]
pub struct DynDecoder<'a> {
    /// The codec.
    pub codec: &'a dyn DynCodec,
    /// The strategy.
    pub strategy: Strategy,
}

impl Decoder for DynDecoder<'_> {
    type Value = u64;
    fn step(&self, input: &[u8]) -> Step<u64> {
        self.codec.dyn_step(self.strategy, input)
    }
    fn step_in(&self, context: usize, input: &[u8]) -> Step<u64> {
        self.codec.dyn_step_in(self.strategy, context, input)
    }
    fn step_open(&self, context: usize, input: &[u8]) -> Step<u64> {
        self.codec.dyn_step_open(self.strategy, context, input)
    }
    fn context_after(&self, value: &u64) -> usize {
        self.codec.dyn_context_after(*value)
    }
}

#[cfg(test)]
mod tests {
    use super::first_looked_at;

    /// The scan against its definition: the first value in a rule's range,
    /// for no rule, one range (of one value, of many, reversed: none) and
    /// two, with the value at every place in and around the sixteen-value
    /// chunks.
    #[test]
    fn the_first_value_a_rule_looks_at() {
        let rules: [&[(u64, u64)]; 6] =
            [&[], &[(0xD800, 0xDBFF)], &[(5, 5)], &[(9, 3)], &[(0, u64::MAX)], &[(0x80, 0x9F), (0xD800, 0xDFFF)]];
        for rules in rules {
            let reference = |values: &[u64]| values.iter().position(|&v| rules.iter().any(|&(a, b)| a <= v && v <= b));
            for len in [0, 1, 15, 16, 17, 40] {
                for at in 0..=len {
                    for hit in [4, 5, 0x80, 0x9F, 0xA0, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, u64::MAX] {
                        let mut values = vec![0x41u64; len];
                        if let Some(v) = values.get_mut(at) {
                            *v = hit;
                        }
                        assert_eq!(first_looked_at(rules, &values), reference(&values), "{rules:X?} {values:X?}");
                    }
                }
            }
        }
    }
}
