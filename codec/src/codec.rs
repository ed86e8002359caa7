//! What every codec is: a name, a range, an encoder, decoders and tables, reachable
//! both statically (the [`Codec`] trait) and dynamically ([`DynCodec`], for the CLI
//! and for descriptions loaded at run time).
//!
//! ```
//! use placemat_codec::{CodecInfo, Unit};
//! let info = CodecInfo::new("toy", "a toy codec", Unit::Byte, 32, 0, 0x7F, &[], Some(1));
//! assert!(info.contains(0x41));
//! assert!(!info.contains(0x80));
//! assert_eq!(info.range_text(), "U+0000..=U+007F");
//! ```

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use crate::{dfa::Dfa, AsciiRuns, DecodeError, Decoder, EncodeError, Encoder, Step, WideForms};

/// What a codec's units are.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// 8-bit bytes.
    Byte,
    /// Symbols of an alphabet, each written as one byte (ASCII character); symbol `i`
    /// is the digit `i`.
    Alphabet(Cow<'static, [u8]>),
}

/// Static facts about a codec.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CodecInfo {
    /// The codec's name, as `placemat list` prints it.
    pub name: Cow<'static, str>,
    /// One line describing it.
    pub summary: Cow<'static, str>,
    /// Its units.
    pub unit: Unit,
    /// Width of its value type in bits.
    pub value_bits: u32,
    /// Smallest encodable value.
    pub min: u64,
    /// Largest encodable value.
    pub max: u64,
    /// Values inside `min..=max` that are not encodable (inclusive ranges,
    /// disjoint and in order: [`CodecInfo::contains`] searches them).
    pub excluded: Cow<'static, [(u64, u64)]>,
    /// The longest sequence, in units (`None`: unbounded).
    pub max_units: Option<usize>,
    /// Whether values of any size are encodable. `max` is then `u64::MAX`, the end of
    /// the 64-bit view; larger values go through `Codec::encode_big`/`step_big`.
    pub unbounded: bool,
    /// Why the codec has no SIMD validator, in one sentence: the compiler's
    /// verdict (`placemat_compiler::automaton::local`), carried with the
    /// codec so that a tool can say it without rebuilding the automaton.
    /// Empty for a codec whose tables have SIMD tables.
    pub no_simd: Cow<'static, str>,
    /// For a codec of 16- or 32-bit code units, the forms its encoder writes
    /// most values with, as data ([`WideForms`]): derived by the compiler
    /// from the description's forms, they are part of the encoder, and the
    /// bulk encoder ([`DynCodec::encode_block`]) writes with them.
    pub wide_forms: WideForms,
    /// For a codec of byte units whose encoder writes values as UTF-8 does,
    /// those forms as data ([`ByteForms`](crate::simd::ByteForms)): derived
    /// and proved by the compiler, they let the conversion engine write into
    /// the codec from UTF-16/32 in one SIMD pass.
    pub byte_forms: Option<crate::simd::ByteForms>,
}

impl CodecInfo {
    /// Builds the info of a codec (generated code calls this in a `const`).
    #[allow(clippy::too_many_arguments)]
    pub const fn new(
        name: &'static str,
        summary: &'static str,
        unit: Unit,
        value_bits: u32,
        min: u64,
        max: u64,
        excluded: &'static [(u64, u64)],
        max_units: Option<usize>,
    ) -> Self {
        CodecInfo {
            name: Cow::Borrowed(name),
            summary: Cow::Borrowed(summary),
            unit,
            value_bits,
            min,
            max,
            excluded: Cow::Borrowed(excluded),
            max_units,
            unbounded: false,
            no_simd: Cow::Borrowed(""),
            wide_forms: WideForms::NONE,
            byte_forms: None,
        }
    }

    /// The same facts for a codec whose encoder writes most values with `forms`.
    pub const fn with_wide_forms(mut self, forms: WideForms) -> Self {
        self.wide_forms = forms;
        self
    }

    /// The same facts for a codec whose encoder writes values of one to four
    /// bytes with `forms`.
    pub const fn with_byte_forms(mut self, forms: crate::simd::ByteForms) -> Self {
        self.byte_forms = Some(forms);
        self
    }

    /// The same facts for a codec that has no SIMD validator, for the reason `why`.
    pub const fn with_no_simd(mut self, why: &'static str) -> Self {
        // Replaced and forgotten, not assigned: a `const fn` cannot run the
        // old value's destructor. `new` leaves it borrowed, so nothing leaks.
        core::mem::forget(core::mem::replace(&mut self.no_simd, Cow::Borrowed(why)));
        self
    }

    /// The same facts for a codec whose values have no upper bound.
    pub const fn with_unbounded_values(mut self) -> Self {
        self.unbounded = true;
        self.max = u64::MAX;
        self
    }

    /// Whether `value` is encodable (for values that fit `u64`).
    ///
    /// ```
    /// use placemat_codec::{CodecInfo, Unit};
    /// let holes = &[(0xD800, 0xDFFF), (0xFDD0, 0xFDEF)];
    /// let info = CodecInfo::new("bmp", "", Unit::Byte, 16, 0, 0xFFFF, holes, Some(3));
    /// let encodable: Vec<bool> = [0, 0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFDEF, 0xFDF0, 0x10000]
    ///     .map(|v| info.contains(v))
    ///     .into();
    /// assert_eq!(encodable, [true, true, false, false, true, false, true, false]);
    /// ```
    pub fn contains(&self, value: u64) -> bool {
        // The first excluded range that does not end below `value`.
        let next = self.excluded.partition_point(|&(_, hi)| hi < value);
        self.min <= value && value <= self.max && self.excluded.get(next).is_none_or(|&(lo, _)| value < lo)
    }

    /// The range as text, `U+0000..=U+10FFFF except U+D800..=U+DFFF`.
    pub fn range_text(&self) -> String {
        let mut s = String::new();
        if self.unbounded {
            let _ = write!(s, "U+{:04X} and up, of any size", self.min);
        } else {
            let _ = write!(s, "U+{:04X}..=U+{:04X}", self.min, self.max);
        }
        for (i, &(lo, hi)) in self.excluded.iter().enumerate() {
            let _ = write!(s, "{}U+{lo:04X}..=U+{hi:04X}", if i == 0 { " except " } else { ", " });
        }
        s
    }
}

/// A generated codec: an encoder and a default decoder (the table walker), a
/// branching decoder, and the tables.
pub trait Codec: Encoder + Decoder<Value = <Self as Encoder>::Value> {
    /// The branching decoder generated from the same description.
    type Branching: Decoder<Value = <Self as Encoder>::Value> + Default;
    /// The description the codec was generated from, as token text (it parses with
    /// `placemat_compiler::Description::parse_str`, giving the same model and tables).
    const DESCRIPTION: &'static str;
    /// The codec's facts.
    fn info() -> &'static CodecInfo;
    /// The codec's tables.
    fn dfa() -> &'static Dfa;
    /// Whether values are mapped after decoding (`premap`): the table's
    /// values are then not the codec's, and [`DynCodec::decode_block`]
    /// decodes nothing in bulk.
    const PREMAPPED: bool = false;

    /// Decodes the sequence at the start of `input` to a value of any size. For a
    /// bounded codec this widens [`Decoder::step`]; unbounded codecs override it.
    #[cfg(feature = "big")]
    fn step_big(&self, input: &[u8]) -> Step<crate::big::BigUint> {
        widen_big(Decoder::step(self, input))
    }

    /// Appends the encoding of a value of any size. For a bounded codec this is
    /// [`Encoder::encode_push`] for values that fit the value type.
    #[cfg(feature = "big")]
    fn encode_big(&self, value: &crate::big::BigUint, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        match u64::try_from(value).ok().and_then(crate::Value::from_u64) {
            Some(v) => Encoder::encode_push(self, v, out),
            None => Err(EncodeError::TooLarge { bits: value.bits() }),
        }
    }
}

#[cfg(feature = "big")]
fn widen_big<V: crate::Value>(s: Step<V>) -> Step<crate::big::BigUint> {
    s.map(|value| crate::big::BigUint::from(value.to_u64()))
}

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
    fn info(&self) -> &CodecInfo;
    /// The text of the description the codec was built from (parse it with
    /// `placemat_compiler::Description::parse_str` to get the model).
    fn description(&self) -> &str;
    /// A borrowed view of the tables.
    fn dfa(&self) -> Dfa<&[u32], &[u64]>;
    /// Encodes `value`, appending to `out`.
    fn encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError>;
    /// One decoding step with the chosen strategy.
    fn step(&self, strategy: Strategy, input: &[u8]) -> Step<u64>;
    /// One decoding step in `context` ([`Decoder::step_in`]).
    fn step_in(&self, strategy: Strategy, context: usize, input: &[u8]) -> Step<u64> {
        let _ = context;
        self.step(strategy, input)
    }
    /// One decoding step in `context` where more input may follow
    /// ([`Decoder::step_open`]).
    fn step_open(&self, strategy: Strategy, context: usize, input: &[u8]) -> Step<u64> {
        self.step_in(strategy, context, input)
    }
    /// The context after `value` ([`Decoder::context_after`]).
    fn context_after(&self, value: u64) -> usize {
        let _ = value;
        0
    }
    /// Whether a rule forbids `value` right after `before` ([`Encoder::forbids`]).
    fn forbids(&self, before: u64, value: u64) -> bool {
        let _ = (before, value);
        false
    }
    /// Decodes in bulk, starting in context 0, the longest prefix of `input`
    /// that holds only whole valid sequences which no unit after `input` can
    /// change ([`decode_to_cut`]): its values are appended to `out` and its
    /// length returned. The values are those [`DynCodec::step_open`] gives
    /// one at a time, whatever follows `input`. The default decodes nothing (returns 0): the caller steps.
    /// Generated codecs and codecs loaded at run time decode with their
    /// fastest bulk decoder ([`Dfa::decode_into`]).
    fn decode_block(&self, input: &[u8], out: &mut Vec<u64>) -> usize {
        let _ = (input, out);
        0
    }
    /// Whether decoded values are mapped after the table's walk (`premap`):
    /// the table's values are then not the codec's ([`Codec::PREMAPPED`]).
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
    /// calls [`DynCodec::forbids`] and [`DynCodec::encode_push`] per value;
    /// generated codecs run their encoder in one loop.
    fn encode_block(&self, before: Option<u64>, values: &[u64], out: &mut Vec<u8>) -> Result<(), usize> {
        encode_by_values(self, before, values, out)
    }
    /// Validates `input` with the codec's fastest validator.
    fn validate(&self, input: &[u8]) -> Result<(), DecodeError> {
        self.dfa().validate(input)
    }
    /// Validates `input` read in `context`; the verdict and the context at the
    /// end of the valid prefix ([`Dfa::validate_in`]). The default steps with
    /// [`DynCodec::step_in`] and [`DynCodec::context_after`].
    fn validate_in(&self, context: usize, input: &[u8]) -> (Result<(), DecodeError>, usize) {
        validate_by_steps(self, Strategy::Table, context, input, false)
    }
    /// [`DynCodec::validate_in`] where more input may follow (a chunk of a
    /// stream; [`Dfa::validate_open`]). The default steps with
    /// [`DynCodec::step_open`].
    fn validate_open(&self, context: usize, input: &[u8]) -> (Result<(), DecodeError>, usize) {
        validate_by_steps(self, Strategy::Table, context, input, true)
    }
    /// One decoding step to a value of any size (the only exact one for unbounded
    /// codecs, whose [`DynCodec::step`] reports values above `u64::MAX` as invalid).
    #[cfg(feature = "big")]
    fn step_big(&self, strategy: Strategy, input: &[u8]) -> Step<crate::big::BigUint> {
        widen_big(self.step(strategy, input))
    }
    /// Encodes a value of any size, appending to `out`.
    #[cfg(feature = "big")]
    fn encode_big(&self, value: &crate::big::BigUint, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        match u64::try_from(value) {
            Ok(v) => self.encode_push(v, out),
            Err(_) => Err(EncodeError::TooLarge { bits: value.bits() }),
        }
    }
}

/// [`DynCodec::decode_block`] by a table's bulk decoder: the values of
/// `input` up to its first error or a sequence its end cuts, appended to
/// `out`; the units they take. A whole sequence at the end of `input` is
/// final, but for a codec whose forms overlap by design (a pending value a
/// longer sequence may replace): its values are taken up to the last cut
/// ([`Dfa::last_cut`]).
///
/// Not generic over the table's storage (pass [`Dfa::as_ref`] of an owned
/// table): the bulk decoder behind it, SIMD kernels included, is compiled once,
/// in this crate, instead of again in every crate that converts text.
pub fn decode_to_cut(dfa: &Dfa<&[u32], &[u64]>, input: &[u8], out: &mut Vec<u64>) -> usize {
    let cut = if dfa.has_pending() {
        let Some(cut) = dfa.last_cut(input) else { return 0 };
        cut
    } else {
        input.len()
    };
    match dfa.decode_into::<u64>(&input[..cut], out) {
        Ok(()) => cut,
        Err(e) => e.valid_up_to(),
    }
}

/// [`DynCodec::ascii_runs`] of a table: its facts' ASCII runs, none for a
/// codec with rules across values.
pub fn ascii_runs_of<T: AsRef<[u32]>, B: AsRef<[u64]>>(dfa: &Dfa<T, B>) -> AsciiRuns {
    if dfa.contexts() > 1 {
        AsciiRuns::None
    } else {
        dfa.facts().ascii_runs
    }
}

/// [`DynCodec::encode_block`] for a generated codec without rules across
/// values: runs of values its [`WideForms`] write as single units by the SIMD
/// kernel ([`WideForms::encode_singles`]), the rest by one loop over
/// `encoder` (whose generated code writes a pair of UTF-16 surrogates faster
/// than the forms' data-driven loop), writing in place into room for the
/// longest encodings, the rest cut off after. On a value the codec cannot
/// encode, the encodings before it have been appended, and its index is the
/// error.
pub fn encode_in_place<E: Encoder + ?Sized>(
    encoder: &E,
    forms: &WideForms,
    values: &[u64],
    out: &mut Vec<u8>,
) -> Result<(), usize> {
    if !forms.is_some() {
        return encode_each_in_place(encoder, values, out);
    }
    encode_with(encoder, values, out, |rest, out| forms.encode_singles(rest, out))
}

/// [`encode_in_place`] for an encoder interpreted at run time (a codec
/// loaded from a description): both wide forms by [`WideForms::encode`],
/// whose loop beats the interpreter, the rest by `encoder`.
pub fn encode_by_forms<E: Encoder + ?Sized>(
    encoder: &E,
    forms: &WideForms,
    values: &[u64],
    out: &mut Vec<u8>,
) -> Result<(), usize> {
    encode_with(encoder, values, out, |rest, out| forms.encode(rest, out))
}

/// Values by `fast` wherever it takes some, else by `encoder` in runs of 64
/// (doubling, up to 1024, while `fast` takes nothing at their ends: text its
/// forms seldom write does not pay a failed try every 64 values).
fn encode_with<E: Encoder + ?Sized>(
    encoder: &E,
    values: &[u64],
    out: &mut Vec<u8>,
    mut fast: impl FnMut(&[u64], &mut Vec<u8>) -> usize,
) -> Result<(), usize> {
    let (mut done, mut run) = (0, 64);
    while done < values.len() {
        let taken = fast(&values[done..], out);
        done += taken;
        run = if taken == 0 { (2 * run).min(1024) } else { 64 };
        let end = values.len().min(done + run);
        encode_each_in_place(encoder, &values[done..end], out).map_err(|i| done + i)?;
        done = end;
    }
    Ok(())
}

/// [`encode_in_place`] without forms: each value by `encoder`.
fn encode_each_in_place<E: Encoder + ?Sized>(encoder: &E, values: &[u64], out: &mut Vec<u8>) -> Result<(), usize> {
    let start = out.len();
    out.resize(start + values.len().saturating_mul(encoder.max_units()), 0);
    let mut pos = start;
    for (i, &value) in values.iter().enumerate() {
        let written = crate::Value::from_u64(value).and_then(|v| encoder.encode(v, &mut out[pos..]).ok());
        match written {
            Some(n) => pos += n,
            None => {
                out.truncate(pos);
                return Err(i);
            }
        }
    }
    out.truncate(pos);
    Ok(())
}

/// What [`DynCodec::encode_block`] does by default: [`DynCodec::forbids`] and
/// [`DynCodec::encode_push`] for each value.
pub fn encode_by_values<C: DynCodec + ?Sized>(
    codec: &C,
    mut before: Option<u64>,
    values: &[u64],
    out: &mut Vec<u8>,
) -> Result<(), usize> {
    for (i, &value) in values.iter().enumerate() {
        if before.is_some_and(|b| codec.forbids(b, value)) || codec.encode_push(value, out).is_err() {
            return Err(i);
        }
        before = Some(value);
    }
    Ok(())
}

/// Validation one step at a time with `strategy`, from `context`, where more
/// input may follow if `open` ([`DynCodec::step_open`]; else
/// [`DynCodec::step_in`]): the verdict and the context at the end of the
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
            codec.step_open(strategy, context, &input[pos..])
        } else {
            codec.step_in(strategy, context, &input[pos..])
        };
        match step {
            Step::Value { len, value } => {
                context = codec.context_after(value);
                pos += len;
            }
            Step::Invalid { len } => return (Err(DecodeError::new(pos, Some(len))), context),
            Step::Incomplete => return (Err(DecodeError::new(pos, None)), context),
        }
    }
    (Ok(()), context)
}

impl<C: Codec + Default + Send + Sync> DynCodec for C {
    fn info(&self) -> &CodecInfo {
        C::info()
    }
    fn description(&self) -> &str {
        C::DESCRIPTION
    }
    fn dfa(&self) -> Dfa<&[u32], &[u64]> {
        C::dfa().as_ref()
    }
    fn encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        match crate::Value::from_u64(value) {
            Some(v) => Encoder::encode_push(self, v, out),
            None => Err(EncodeError::Unencodable { value }),
        }
    }
    fn step(&self, strategy: Strategy, input: &[u8]) -> Step<u64> {
        match strategy {
            Strategy::Table => Decoder::step(self, input),
            Strategy::Branching => C::Branching::default().step(input),
        }
        .map(crate::Value::to_u64)
    }
    fn step_in(&self, strategy: Strategy, context: usize, input: &[u8]) -> Step<u64> {
        match strategy {
            Strategy::Table => Decoder::step_in(self, context, input),
            Strategy::Branching => C::Branching::default().step_in(context, input),
        }
        .map(crate::Value::to_u64)
    }
    fn step_open(&self, strategy: Strategy, context: usize, input: &[u8]) -> Step<u64> {
        match strategy {
            Strategy::Table => Decoder::step_open(self, context, input),
            Strategy::Branching => C::Branching::default().step_open(context, input),
        }
        .map(crate::Value::to_u64)
    }
    fn context_after(&self, value: u64) -> usize {
        crate::Value::from_u64(value).map_or(0, |v| Decoder::context_after(self, &v))
    }
    fn forbids(&self, before: u64, value: u64) -> bool {
        match (crate::Value::from_u64(before), crate::Value::from_u64(value)) {
            (Some(b), Some(v)) => Encoder::forbids(self, b, v),
            _ => false,
        }
    }
    fn decode_block(&self, input: &[u8], out: &mut Vec<u64>) -> usize {
        let dfa = C::dfa();
        if C::PREMAPPED || C::info().unbounded {
            return 0;
        }
        decode_to_cut(dfa, input, out)
    }
    fn premapped(&self) -> bool {
        C::PREMAPPED
    }
    fn ascii_runs(&self) -> AsciiRuns {
        ascii_runs_of(C::dfa())
    }
    fn encode_block(&self, before: Option<u64>, values: &[u64], out: &mut Vec<u8>) -> Result<(), usize> {
        if C::dfa().contexts() > 1 || C::info().unbounded {
            return encode_by_values(self, before, values, out);
        }
        encode_in_place(self, &C::info().wide_forms, values, out)
    }
    fn validate(&self, input: &[u8]) -> Result<(), DecodeError> {
        Decoder::validate(self, input)
    }
    fn validate_in(&self, context: usize, input: &[u8]) -> (Result<(), DecodeError>, usize) {
        C::dfa().validate_in(context, input)
    }
    fn validate_open(&self, context: usize, input: &[u8]) -> (Result<(), DecodeError>, usize) {
        C::dfa().validate_open(context, input)
    }
    #[cfg(feature = "big")]
    fn step_big(&self, strategy: Strategy, input: &[u8]) -> Step<crate::big::BigUint> {
        match strategy {
            Strategy::Table => Codec::step_big(self, input),
            Strategy::Branching => widen_big(C::Branching::default().step(input)),
        }
    }
    #[cfg(feature = "big")]
    fn encode_big(&self, value: &crate::big::BigUint, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        Codec::encode_big(self, value, out)
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
        self.codec.step(self.strategy, input)
    }
    fn step_in(&self, context: usize, input: &[u8]) -> Step<u64> {
        self.codec.step_in(self.strategy, context, input)
    }
    fn step_open(&self, context: usize, input: &[u8]) -> Step<u64> {
        self.codec.step_open(self.strategy, context, input)
    }
    fn context_after(&self, value: &u64) -> usize {
        self.codec.context_after(*value)
    }
}
