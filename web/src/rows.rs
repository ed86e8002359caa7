//! The comparison's rows: each value of the text encoded by one codec, every
//! unit with its fixed and payload bits as the form it matches declares them
//! ([`placemat_compiler::Model::form_of`]), and, for a value the codec
//! refuses, the reason the CLI's `encode` gives.
//!
//! ```
//! use placemat_web::rows::{row, Cell};
//! let utf8 = placemat_variants::registry::find("utf8").unwrap();
//! let model = placemat_web::wire::builtin_model(utf8).unwrap();
//! let r = row(utf8, &model, &[0xE9, 0xD800]);
//! let Cell::Encoded { units, form } = &r.cells[0] else { panic!() };
//! assert_eq!(form, "110xxxxx 10xxxxxx");
//! assert_eq!((units[0].byte, units[0].fixed, units[0].payload), (0xC3, 0xE0, 0x1F));
//! let Cell::Refused(why) = &r.cells[1] else { panic!() };
//! assert!(why.starts_with("U+D800 cannot be encoded by utf8"), "{why}");
//! assert_eq!(r.bytes, [0xC3, 0xA9]);
//! ```

use placemat_codec::big::BigUint;
use placemat_codec::DynCodec;
use placemat_codec::Unit as UnitKind;
use placemat_compiler::model::{DigitUnit, UnitPattern};
use placemat_compiler::Model;
use placemat_variants::registry;
use serde_json::{json, Value};

use crate::wire::{self, hex, Answer};

/// The most values one request encodes.
pub const MAX_VALUES: usize = 100_000;

/// One unit of an encoded value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The byte written.
    pub byte: u8,
    /// The digit the form reads from it: the byte itself, or its place in
    /// an alphabet, a unit map or a digit set.
    pub digit: u64,
    /// Bits in a digit (6 for a 64-symbol alphabet, else 8).
    pub width: u32,
    /// The digit's bits the form fixes.
    pub fixed: u8,
    /// The payload bits.
    pub payload: u8,
    /// A digit unit's radix (its whole byte is one digit), or `None` for
    /// a bit pattern.
    pub radix: Option<u64>,
}

/// One value in one codec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Its units, and the form they match, written as in a description.
    Encoded {
        /// The units.
        units: Vec<Unit>,
        /// The form's patterns (`110xxxxx 10xxxxxx`).
        form: String,
    },
    /// Why the codec cannot encode it.
    Refused(String),
}

/// One codec's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The codec's name.
    pub name: String,
    /// A value per cell.
    pub cells: Vec<Cell>,
    /// The units of every value it encodes, in order.
    pub bytes: Vec<u8>,
}

/// The row of `values` in `codec`, whose model is `model`.
pub fn row(codec: &dyn DynCodec, model: &Model, values: &[u64]) -> Row {
    let mut before = None;
    let encoded: Vec<Result<Vec<u8>, String>> = values
        .iter()
        .map(|&v| {
            let units = encode(codec, before, v)?;
            before = Some(v);
            Ok(units)
        })
        .collect();
    let longest = encoded.iter().flatten().map(Vec::len).max().unwrap_or(1);
    let forms = model.concrete_forms_upto(Some(longest));
    let mut bytes = Vec::new();
    let cells = values
        .iter()
        .zip(encoded)
        .map(|(&v, units)| match units {
            Err(why) => Cell::Refused(why),
            Ok(units) => {
                bytes.extend_from_slice(&units);
                let patterns = model.form_of(&forms, &units, raw(model, v).as_ref()).map(|f| f.units.as_slice());
                anatomy(model, &units, patterns.unwrap_or(&[]))
            }
        })
        .collect();
    Row { name: codec.info().name.to_string(), cells, bytes }
}

/// The units of `v` after `before`, or why there are none, in `encode`'s words.
fn encode(codec: &dyn DynCodec, before: Option<u64>, v: u64) -> Result<Vec<u8>, String> {
    let info = codec.info();
    let text = |v: u64| match info.sign {
        Some(_) => (v as i64).to_string(),
        None => format!("U+{v:04X}"),
    };
    if let Some(b) = before.filter(|&b| codec.forbids(b, v)) {
        return Err(format!("{} may not follow {} in {}", text(v), text(b), info.name));
    }
    let mut units = Vec::new();
    match codec.encode_push(v, &mut units) {
        Ok(()) => Ok(units),
        Err(_) => Err(format!("{} cannot be encoded by {} (its range is {})", text(v), info.name, info.range_text())),
    }
}

/// The raw value the forms spell for `v`.
fn raw(model: &Model, v: u64) -> Option<BigUint> {
    match &model.premap {
        Some(map) => Some(BigUint::from(map.get(v as usize).map_or(v, |&m| u64::from(m)))),
        None => model.raw_of(v),
    }
}

/// `units` read with `patterns` (none if no form matched).
fn anatomy(model: &Model, units: &[u8], patterns: &[UnitPattern]) -> Cell {
    let width = match model.unit {
        UnitKind::Alphabet(_) => model.unit_width(),
        UnitKind::Byte => 8,
    };
    let units = units
        .iter()
        .enumerate()
        .map(|(i, &byte)| match patterns.get(i) {
            Some(p) if p.digits.is_some() => {
                let digit = model.form_digit(p, byte).unwrap_or(0);
                Unit { byte, digit, width, fixed: 0, payload: 0, radix: Some(model.radix(p)) }
            }
            Some(p) => {
                let digit = u64::from(model.digit_of(byte).unwrap_or(byte));
                let payload = ((1u32 << p.payload_bits) - 1) as u8;
                Unit { byte, digit, width, fixed: p.fixed_mask, payload, radix: None }
            }
            None => Unit { byte, digit: u64::from(byte), width, fixed: 0, payload: 0, radix: None },
        })
        .collect();
    let form = patterns.iter().map(|p| pattern_text(p, width)).collect::<Vec<_>>().join(" ");
    Cell::Encoded { units, form }
}

/// A unit pattern as a description writes it.
fn pattern_text(p: &UnitPattern, width: u32) -> String {
    match p.digits {
        Some(DigitUnit::Range(lo, hi)) => format!("[{lo:02X}-{hi:02X}]"),
        Some(DigitUnit::Set) => "T".into(),
        None => (0..width)
            .rev()
            .map(|bit| match (p.fixed_mask >> bit & 1, p.fixed_bits >> bit & 1) {
                (1, 1) => '1',
                (1, _) => '0',
                _ if bit < p.payload_bits => 'x',
                _ => '.',
            })
            .collect(),
    }
}

impl Row {
    /// The row as the page reads it.
    pub fn json(&self, summary: &str, spec: bool) -> Value {
        let cells: Vec<Value> = self.cells.iter().map(cell_json).collect();
        json!({
            "name": self.name, "summary": summary, "spec": spec,
            "hex": hex(&self.bytes), "length": self.bytes.len(), "cells": cells,
        })
    }
}

fn cell_json(cell: &Cell) -> Value {
    match cell {
        Cell::Refused(why) => json!({ "refused": why }),
        Cell::Encoded { units, form } => {
            let bytes: Vec<u8> = units.iter().map(|u| u.byte).collect();
            let units: Vec<Value> = units
                .iter()
                .map(|u| {
                    json!({ "byte": u.byte, "digit": u.digit, "width": u.width,
                            "fixed": u.fixed, "payload": u.payload, "radix": u.radix })
                })
                .collect();
            json!({ "hex": hex(&bytes), "form": form, "units": units })
        }
    }
}

/// The `rows` request.
pub fn answer(request: &Value) -> Answer {
    let values: Vec<u64> = match request["values"].as_array() {
        Some(vs) if vs.len() <= MAX_VALUES => vs.iter().map(|v| v.as_u64()).collect::<Option<_>>(),
        _ => None,
    }
    .ok_or(format!("`values` must be a list of at most {MAX_VALUES} integers from 0 to 2^64 - 1"))?;
    let codecs = match request["codecs"].as_array() {
        None => registry::all().to_vec(),
        Some(names) => names
            .iter()
            .map(|n| {
                let name = n.as_str().unwrap_or("");
                registry::find(name).ok_or_else(|| format!("unknown codec `{name}`"))
            })
            .collect::<Result<_, String>>()?,
    };
    let mut rows = Vec::new();
    for codec in codecs {
        let model = wire::builtin_model(codec)?;
        rows.push(row(codec, &model, &values).json(&codec.info().summary, false));
    }
    if let Some(Ok(codec)) = request["spec"].as_str().map(wire::spec_codec) {
        rows.push(row(codec.as_ref(), codec.model(), &values).json(&codec.info().summary, true));
    }
    Ok(json!({ "rows": rows }))
}
