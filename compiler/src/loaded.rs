//! A codec loaded from a description at run time: the automaton's tables in
//! owned storage, driven by the same walker as generated codecs, and an encoder
//! over the automaton's forms. This is what `placemat --spec FILE` runs.
//!
//! ```
//! use placemat_compiler::LoadedCodec;
//! use placemat_codec::{Decoder, Encoder};
//! let codec = LoadedCodec::from_text(r#"
//!     pub Two { name: "two", value: u32, range: 0 ..= 0x7FF,
//!               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let mut out = Vec::new();
//! codec.encode_push(0xE9, &mut out).unwrap();
//! assert_eq!(out, [0xC3, 0xA9]);
//! assert_eq!(codec.decode(&out).unwrap(), [0xE9]);
//! ```

use std::borrow::Cow;

use num_bigint::{BigInt, BigUint};
use num_traits::ToPrimitive;

use crate::automaton::{Automaton, BuildError, BuildOptions};
use crate::model::Model;
use crate::{Description, Diagnostic, Diagnostics};
use placemat_codec::big::RepeatForm;
use placemat_codec::dfa::Dfa;
use placemat_codec::{CodecInfo, DecodeError, Decoder, DynCodec, EncodeError, Encoder, Step, Strategy};

/// A description compiled at run time.
#[derive(Clone, Debug)]
pub struct LoadedCodec {
    source: String,
    model: Model,
    info: CodecInfo,
    automaton: Automaton,
    dfa: Dfa<Vec<u32>, Vec<u64>>,
    premap_inverse: Option<Vec<u32>>,
    contexts: crate::contexts::Contexts,
}

fn to_u64(v: &BigUint) -> Result<u64, BuildError> {
    v.to_u64().ok_or(BuildError::TooLarge)
}

/// The facts of a model as the runtime states them.
fn info(model: &Model) -> Result<CodecInfo, BuildError> {
    let excluded: Vec<(u64, u64)> =
        model.excluded.iter().map(|(a, b)| Ok((to_u64(a)?, to_u64(b)?))).collect::<Result<_, BuildError>>()?;
    let info = CodecInfo {
        name: Cow::Owned(model.name.clone()),
        summary: Cow::Owned(model.summary.clone()),
        unit: model.unit.clone(),
        value_bits: model.value.bits().unwrap_or(64),
        min: to_u64(&model.min)?,
        max: model.max.as_ref().map(to_u64).transpose()?.unwrap_or(u64::MAX),
        excluded: Cow::Owned(excluded),
        max_units: model.max_units(),
        unbounded: !model.is_bounded(),
        no_simd: Cow::Borrowed(""),
        wide_forms: placemat_codec::WideForms::NONE,
        byte_forms: None,
        bit_forms: None,
        pair_forms: None,
        pair_unit_tables: None,
        rule_values: Cow::Owned(model.rule_values()),
        flagged: None,
        prefixed: None,
        sign: None,
        canonical: false,
    };
    Ok(match &model.signed {
        Some(s) => s.facts(info),
        None => info,
    })
}

impl LoadedCodec {
    /// Builds the codec of a validated model.
    pub fn new(model: Model, options: BuildOptions) -> Result<Self, BuildError> {
        let automaton = Automaton::build(&model, options)?;
        let mut info = info(&model)?;
        info.wide_forms = automaton.wide_forms;
        info.byte_forms = automaton.byte_forms;
        info.bit_forms = automaton.bit_forms;
        info.pair_forms = automaton.pair_forms;
        info.pair_unit_tables = automaton.pair_unit_tables;
        info.flagged = automaton.flagged.clone().ok();
        info.canonical = automaton.canonical;
        info.prefixed = automaton.prefixed.clone().ok();
        if let Err(e) = &automaton.local {
            info.no_simd = Cow::Owned(e.reason.clone());
        }
        Ok(LoadedCodec {
            source: String::new(),
            info,
            dfa: automaton.dfa(),
            automaton,
            premap_inverse: model.premap_inverse(),
            contexts: model.contexts(),
            model,
        })
    }

    /// Parses, validates and builds a description's text. Errors are rendered
    /// diagnostics (a table-building failure becomes one at the description's start).
    pub fn from_text(text: &str) -> Result<Self, Diagnostics> {
        let d = Description::parse_str(text)?;
        let mut codec = LoadedCodec::new(d.model, BuildOptions::default())
            .map_err(|e| Diagnostics(vec![Diagnostic::new(proc_macro2::Span::call_site(), e.to_string())]))?;
        codec.source = text.to_string();
        Ok(codec)
    }

    /// The codec's facts (the same as [`DynCodec::dyn_info`]).
    pub fn info(&self) -> &CodecInfo {
        &self.info
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The automaton, with every fact derived from it.
    pub fn automaton(&self) -> &Automaton {
        &self.automaton
    }

    /// The tables.
    pub fn dfa(&self) -> Dfa<&[u32], &[u64]> {
        self.dfa.as_ref()
    }

    /// The tables in owned storage.
    pub fn owned_dfa(&self) -> &Dfa<Vec<u32>, Vec<u64>> {
        &self.dfa
    }

    /// The flagged-stream fact, where bulk decoding reads words by it: its
    /// values are raw values, so not for a signed codec.
    fn word_decoder(&self) -> Option<&placemat_codec::Flagged> {
        self.info.flagged.as_ref().filter(|_| self.info.sign.is_none())
    }

    /// The value of a raw value the tables give: the pre-mapping undone, or
    /// the sign applied.
    fn unmap(&self, v: u64) -> u64 {
        match (self.info.sign, self.premap_inverse.as_deref()) {
            (Some(sign), _) => sign.value(v, self.info.value_bits),
            (None, Some(inv)) => premap_back(inv, v),
            (None, None) => v,
        }
    }

    /// [`LoadedCodec::unmap`] over a block of values, the choice of map
    /// made once.
    fn unmap_all(&self, values: &mut [u64]) {
        match (self.info.sign, self.premap_inverse.as_deref()) {
            (Some(sign), _) => values.iter_mut().for_each(|v| *v = sign.value(*v, self.info.value_bits)),
            (None, Some(inv)) => values.iter_mut().for_each(|v| *v = premap_back(inv, *v)),
            (None, None) => {}
        }
    }
}

/// `v` through the pre-mapping's inverse `inv` (values past it are their
/// own), without a branch: text mixes mapped values with others.
#[inline(always)]
fn premap_back(inv: &[u32], v: u64) -> u64 {
    let Some(last) = inv.len().checked_sub(1) else { return v };
    let last = last as u64;
    let mapped = u64::from(inv[v.min(last) as usize]);
    if v <= last {
        mapped
    } else {
        v
    }
}

impl Decoder for LoadedCodec {
    type Value = u64;
    fn step(&self, input: &[u8]) -> Step<u64> {
        let step = if self.dfa.is_cyclic() { self.dfa.step_checked(input) } else { self.dfa.step::<u64>(input) };
        step.map(|v| self.unmap(v))
    }
    fn step_in(&self, context: usize, input: &[u8]) -> Step<u64> {
        if context == 0 {
            return Decoder::step(self, input);
        }
        // Rules across values need bounded values without a premap: no
        // checked step or unmapping to do.
        self.dfa.step_in::<u64>(context, input)
    }
    fn step_open(&self, context: usize, input: &[u8]) -> Step<u64> {
        if !self.dfa.has_pending() {
            return Decoder::step_in(self, context, input);
        }
        // Pending values need bounded values: no checked step to do.
        self.dfa.step_open::<u64>(context, input).map(|v| self.unmap(v))
    }
    fn context_after(&self, value: &u64) -> usize {
        self.contexts.after(*value)
    }
    fn validate(&self, input: &[u8]) -> Result<(), DecodeError> {
        self.dfa.validate(input)
    }
    fn decode_into(&self, input: &[u8], out: &mut Vec<u64>) -> Result<(), DecodeError> {
        match (self.word_decoder(), &self.info.prefixed) {
            (Some(f), _) => placemat_codec::decode_flagged(f, self, input, out),
            (None, Some(p)) => placemat_codec::decode_prefixed(p, self, input, out),
            (None, None) => Steps(self).decode_into(input, out),
        }
    }
    fn decode_prefix_into(&self, input: &[u8], max: usize, out: &mut Vec<u64>) -> placemat_codec::Prefix {
        match (self.word_decoder(), &self.info.prefixed) {
            (Some(f), _) => placemat_codec::decode_flagged_prefix(f, self, input, max, out).0,
            (None, Some(p)) => placemat_codec::decode_prefixed_prefix(p, self, input, max, out).0,
            (None, None) => Steps(self).decode_prefix_into(input, max, out),
        }
    }
}

/// A loaded codec's steps alone, for the `Decoder` methods derived from them.
struct Steps<'a>(&'a LoadedCodec);

impl Decoder for Steps<'_> {
    type Value = u64;
    fn step(&self, input: &[u8]) -> Step<u64> {
        self.0.step(input)
    }
    fn step_in(&self, context: usize, input: &[u8]) -> Step<u64> {
        self.0.step_in(context, input)
    }
    fn context_after(&self, value: &u64) -> usize {
        self.0.context_after(value)
    }
}

impl Encoder for LoadedCodec {
    type Value = u64;
    fn max_units(&self) -> usize {
        self.automaton.encode_forms.iter().map(|f| f.units.len()).max().unwrap_or(0)
    }
    fn forbids(&self, before: u64, value: u64) -> bool {
        !self.contexts.allows(self.contexts.after(before), value)
    }
    fn encode(&self, value: u64, out: &mut [u8]) -> Result<usize, EncodeError> {
        let refused = match self.info.sign {
            Some(_) => EncodeError::SignedUnencodable { value: value as i64 },
            None => EncodeError::Unencodable { value },
        };
        if !self.info.contains(value) {
            return Err(refused);
        }
        let raw = match (&self.model.premap, self.info.sign) {
            (_, Some(sign)) => sign.raw(value, self.info.value_bits).ok_or(refused)?,
            (Some(p), None) if (value as usize) < p.len() => u64::from(p[value as usize]),
            _ => value,
        };
        let forms = &self.automaton.encode_forms;
        let form = forms.iter().find(|f| f.lo <= raw && raw <= f.hi).ok_or(refused)?;
        let n = form.units.len();
        if out.len() < n {
            return Err(EncodeError::BufferTooSmall { needed: n });
        }
        form.write(&self.model, self.automaton.radix, raw - form.bias, &mut out[..n]);
        Ok(n)
    }
}

impl DynCodec for LoadedCodec {
    fn dyn_info(&self) -> &CodecInfo {
        self.info()
    }
    /// The text given to [`LoadedCodec::from_text`] (empty for [`LoadedCodec::new`]).
    fn description(&self) -> &str {
        &self.source
    }
    fn dyn_dfa(&self) -> Dfa<&[u32], &[u64]> {
        self.dfa()
    }
    fn dyn_encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        Encoder::encode_push(self, value, out)
    }
    fn dyn_step(&self, _strategy: Strategy, input: &[u8]) -> Step<u64> {
        Decoder::step(self, input)
    }
    fn decode_block(&self, input: &[u8], out: &mut Vec<u64>) -> usize {
        let start = out.len();
        let took = placemat_codec::decode_to_cut(&self.info, &self.dfa.as_ref(), input, out);
        if self.premapped() {
            self.unmap_all(&mut out[start..]);
        }
        took
    }
    fn premapped(&self) -> bool {
        self.premap_inverse.is_some() || self.info.sign.is_some()
    }
    fn ascii_runs(&self) -> placemat_codec::AsciiRuns {
        // The table's runs are of raw values, which a mapped codec's are not.
        if self.premapped() {
            return placemat_codec::AsciiRuns::None;
        }
        placemat_codec::ascii_runs_of(&self.dfa)
    }
    fn encode_block(&self, before: Option<u64>, values: &[u64], out: &mut Vec<u8>) -> Result<(), usize> {
        if self.info.unbounded {
            return placemat_codec::encode_unbounded(self, before, values, out);
        }
        let plain = |values: &[u64], out: &mut Vec<u8>| match placemat_codec::encode_by_words(
            self,
            &self.info,
            self.premapped(),
            values,
            out,
        ) {
            Some(result) => result,
            None => placemat_codec::encode_by_forms(self, &self.info.wide_forms, values, out),
        };
        match self.dfa.contexts() {
            1 => plain(values, out),
            _ => placemat_codec::encode_around_rules(self, before, values, out, plain),
        }
    }
    fn dyn_step_in(&self, _strategy: Strategy, context: usize, input: &[u8]) -> Step<u64> {
        Decoder::step_in(self, context, input)
    }
    fn dyn_step_open(&self, _strategy: Strategy, context: usize, input: &[u8]) -> Step<u64> {
        Decoder::step_open(self, context, input)
    }
    fn dyn_context_after(&self, value: u64) -> usize {
        self.contexts.after(value)
    }
    fn dyn_forbids(&self, before: u64, value: u64) -> bool {
        Encoder::forbids(self, before, value)
    }
    fn dyn_validate(&self, input: &[u8]) -> Result<(), DecodeError> {
        Decoder::validate(self, input)
    }
    fn validate_in(&self, context: usize, input: &[u8]) -> (Result<(), DecodeError>, usize) {
        self.dfa.validate_in(context, input)
    }
    fn validate_open(&self, context: usize, input: &[u8]) -> (Result<(), DecodeError>, usize) {
        self.dfa.validate_open(context, input)
    }
    fn dyn_step_big(&self, _strategy: Strategy, input: &[u8]) -> Step<BigUint> {
        if self.info.sign.is_some() {
            // A signed codec's 64-bit view (its values of any size are `BigInt`s).
            return Decoder::step(self, input).map(BigUint::from);
        }
        self.dfa.step_big(input).map(|value| match u64::try_from(&value) {
            Ok(small) => BigUint::from(self.unmap(small)),
            Err(_) => value,
        })
    }
    fn dyn_encode_big(&self, value: &BigUint, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        if let Ok(small) = u64::try_from(value) {
            return Encoder::encode_push(self, small, out);
        }
        if !self.info.unbounded || self.info.sign.is_some() {
            return Err(EncodeError::TooLarge { bits: value.bits() });
        }
        self.encode_repeated(value, out);
        Ok(())
    }
    fn dyn_step_bigint(&self, strategy: Strategy, input: &[u8]) -> Step<BigInt> {
        match self.info.sign {
            Some(sign) if self.info.unbounded => {
                self.dfa.step_big(input).map(|raw| sign.value_big(&raw).unwrap_or_default())
            }
            Some(_) => Decoder::step(self, input).map(|v| BigInt::from(v as i64)),
            None => self.dyn_step_big(strategy, input).map(BigInt::from),
        }
    }
    fn dyn_encode_bigint(&self, value: &BigInt, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let Some(sign) = self.info.sign else {
            return match BigUint::try_from(value) {
                Ok(magnitude) => self.dyn_encode_big(&magnitude, out),
                Err(_) => Err(EncodeError::Negative),
            };
        };
        let raw = sign.raw_big(value).filter(|_| self.info.unbounded);
        // The fast path's `i64`, where the raw value fits 64 bits.
        let fast = raw.as_ref().is_none_or(|r| u64::try_from(r).is_ok());
        match (i64::try_from(value), raw) {
            (Ok(small), _) if fast => Encoder::encode_push(self, small as u64, out),
            (_, Some(raw)) => {
                self.encode_repeated(&raw, out);
                Ok(())
            }
            _ => Err(EncodeError::TooLarge { bits: value.bits() }),
        }
    }
}

impl LoadedCodec {
    /// Appends the encoding of the raw value `raw`, past 64 bits, by the
    /// unbounded model's repeated last form.
    fn encode_repeated(&self, raw: &BigUint, out: &mut Vec<u8>) {
        let form = self.model.forms.last().expect("validated: an unbounded model has a last form");
        let units: Vec<(u8, u8)> = form.units.iter().map(|u| (u.fixed_bits, u.payload_bits as u8)).collect();
        let alphabet = self.model.symbols();
        let repeat = form.repeat.expect("validated: the last form of an unbounded model repeats");
        RepeatForm { units: &units, repeat, alphabet }.encode(raw, out);
    }
}
