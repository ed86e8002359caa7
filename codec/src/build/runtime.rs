//! A codec built at run time from a description: the model's tables in owned
//! storage, driven by the same walker as generated codecs, plus a table-driven
//! encoder. This is what `placemat --spec FILE` runs.
//!
//! ```
//! use placemat_codec::build::RuntimeCodec;
//! use placemat_codec::{Decoder, Encoder};
//! let codec = RuntimeCodec::from_text(r#"
//!     pub Two { name: "two", value: u32, range: 0 ..= 0x7FF,
//!               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }
//! "#).unwrap();
//! let mut out = Vec::new();
//! codec.encode_push(0xE9, &mut out).unwrap();
//! assert_eq!(out, [0xC3, 0xA9]);
//! assert_eq!(codec.decode(&out).unwrap(), [0xE9]);
//! ```

use std::borrow::Cow;

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::automaton::{build_dfa, BuildError, BuildOptions};
use super::model::{Model, ValueType};
use super::{Description, Diagnostic, Diagnostics};
use crate::big::RepeatForm;
use crate::dfa::Dfa;
use crate::{CodecInfo, DecodeError, Decoder, DynCodec, EncodeError, Encoder, Step, Strategy};

/// One form, ready for encoding with `u64` arithmetic.
#[derive(Clone, Debug, PartialEq, Eq)]
struct EncodeForm {
    lo: u64,
    hi: u64,
    bias: u64,
    /// `(fixed digit bits, payload bits)` per unit.
    units: Vec<(u8, u32)>,
}

/// A description compiled at run time.
#[derive(Clone, Debug)]
pub struct RuntimeCodec {
    source: String,
    model: Model,
    info: CodecInfo,
    dfa: Dfa<Vec<u32>, Vec<u64>>,
    forms: Vec<EncodeForm>,
    premap: Option<Vec<u32>>,
    premap_inverse: Option<Vec<u32>>,
}

fn to_u64(v: &num_bigint::BigUint) -> Result<u64, BuildError> {
    v.to_u64().ok_or(BuildError::TooLarge)
}

impl RuntimeCodec {
    /// Builds the codec of a validated model.
    pub fn new(model: Model, options: BuildOptions) -> Result<Self, BuildError> {
        let built = build_dfa(&model, options)?;
        let mut forms = Vec::new();
        for f in model.forms_upto_u64() {
            forms.push(EncodeForm {
                lo: to_u64(&f.lo)?,
                hi: to_u64(&f.hi)?,
                bias: to_u64(&f.bias)?,
                units: f.units.iter().map(|u| (u.fixed_bits, u.payload_bits)).collect(),
            });
        }
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
        };
        debug_assert!(matches!(model.value, ValueType::U32 | ValueType::U64 | ValueType::Unbounded));
        Ok(RuntimeCodec {
            source: String::new(),
            premap: model.premap.clone(),
            premap_inverse: model.premap_inverse(),
            model,
            info,
            dfa: built.dfa,
            forms,
        })
    }

    /// Parses, validates and builds a description's text. Errors are rendered
    /// diagnostics (a table-building failure becomes one at the description's start).
    pub fn from_text(text: &str) -> Result<Self, Diagnostics> {
        let d = Description::parse_str(text)?;
        let mut codec = RuntimeCodec::new(d.model, BuildOptions::default())
            .map_err(|e| Diagnostics(vec![Diagnostic::new(proc_macro2::Span::call_site(), e.to_string())]))?;
        codec.source = text.to_string();
        Ok(codec)
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The tables.
    pub fn dfa(&self) -> Dfa<&[u32], &[u64]> {
        self.dfa.as_ref()
    }

    /// The tables in owned storage.
    pub fn owned_dfa(&self) -> &Dfa<Vec<u32>, Vec<u64>> {
        &self.dfa
    }

    fn unmap(&self, v: u64) -> u64 {
        match &self.premap_inverse {
            Some(inv) if (v as usize) < inv.len() => u64::from(inv[v as usize]),
            _ => v,
        }
    }
}

impl Decoder for RuntimeCodec {
    type Value = u64;
    fn step(&self, input: &[u8]) -> Step<u64> {
        let step = if self.dfa.is_cyclic() { self.dfa.step_checked(input) } else { self.dfa.step::<u64>(input) };
        match step {
            Step::Value { value, len } => Step::Value { value: self.unmap(value), len },
            other => other,
        }
    }
    fn validate(&self, input: &[u8]) -> Result<(), DecodeError> {
        self.dfa.validate(input)
    }
}

impl Encoder for RuntimeCodec {
    type Value = u64;
    fn max_units(&self) -> usize {
        self.forms.iter().map(|f| f.units.len()).max().unwrap_or(0)
    }
    fn encode(&self, value: u64, out: &mut [u8]) -> Result<usize, EncodeError> {
        if !self.info.contains(value) {
            return Err(EncodeError::Unencodable { value });
        }
        let raw = match &self.premap {
            Some(p) if (value as usize) < p.len() => u64::from(p[value as usize]),
            _ => value,
        };
        let form = self.forms.iter().find(|f| f.lo <= raw && raw <= f.hi).ok_or(EncodeError::Unencodable { value })?;
        let n = form.units.len();
        if out.len() < n {
            return Err(EncodeError::BufferTooSmall { needed: n });
        }
        let mut payload = raw - form.bias;
        for (&(fixed, bits), slot) in form.units.iter().zip(out.iter_mut()).rev() {
            let digit = fixed | (payload & ((1u64 << bits) - 1)) as u8;
            payload >>= bits;
            *slot = self.model.unit_byte(digit);
        }
        Ok(n)
    }
}

impl DynCodec for RuntimeCodec {
    fn info(&self) -> &CodecInfo {
        &self.info
    }
    /// The text given to [`RuntimeCodec::from_text`] (empty for [`RuntimeCodec::new`]).
    fn description(&self) -> &str {
        &self.source
    }
    fn dfa(&self) -> Dfa<&[u32], &[u64]> {
        self.dfa.as_ref()
    }
    fn encode_push(&self, value: u64, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        Encoder::encode_push(self, value, out)
    }
    fn step(&self, _strategy: Strategy, input: &[u8]) -> Step<u64> {
        Decoder::step(self, input)
    }
    fn validate(&self, input: &[u8]) -> Result<(), DecodeError> {
        Decoder::validate(self, input)
    }
    fn step_big(&self, _strategy: Strategy, input: &[u8]) -> Step<BigUint> {
        match self.dfa.step_big(input) {
            Step::Value { value, len } => {
                let value = match u64::try_from(&value) {
                    Ok(small) => BigUint::from(self.unmap(small)),
                    Err(_) => value,
                };
                Step::Value { value, len }
            }
            Step::Invalid { len } => Step::Invalid { len },
            Step::Incomplete => Step::Incomplete,
        }
    }
    fn encode_big(&self, value: &BigUint, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        if let Ok(small) = u64::try_from(value) {
            return Encoder::encode_push(self, small, out);
        }
        if !self.info.unbounded {
            return Err(EncodeError::TooLarge { bits: value.bits() });
        }
        let form = self.model.forms.last().expect("validated: an unbounded model has a last form");
        let units: Vec<(u8, u8)> = form.units.iter().map(|u| (u.fixed_bits, u.payload_bits as u8)).collect();
        let alphabet = match &self.model.unit {
            crate::Unit::Byte => None,
            crate::Unit::Alphabet(a) => Some(&a[..]),
        };
        let repeat = form.repeat.expect("validated: the last form of an unbounded model repeats");
        RepeatForm { units: &units, repeat, alphabet }.encode(value, out);
        Ok(())
    }
}
