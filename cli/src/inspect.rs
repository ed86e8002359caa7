//! What `trace` prints and what `decode` reports, for a buffer in memory: the
//! commands' own words for callers other than the command line (the page of
//! `placemat-web` shows them beside its rows).
//!
//! ```
//! use placemat_cli::inspect::{self, Item};
//! let utf8 = placemat_variants::registry::find("utf8").unwrap();
//! let items = inspect::decode(utf8, "row", b"a\xFFb").unwrap();
//! assert_eq!(items[0], Item::Value { offset: 0, len: 1, text: "U+0061".into() });
//! let Item::Error { offset, message, .. } = &items[1] else { panic!("{items:?}") };
//! assert_eq!(*offset, 1);
//! assert!(message.starts_with("row: invalid utf8 input at offset 1: found FF"));
//! assert!(inspect::trace(utf8, "row", b"a").unwrap().lines().count() == 2);
//! ```

use placemat_codec::DynCodec;

use super::decode::{self, Event};
use super::input;
use super::{compare, CliError, ValueFormat};

/// The longest sequence taken, in units (the CLI's default `--max-value-units`).
const MAX_UNITS: usize = 1 << 24;

/// One item `decode` reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// A value.
    Value {
        /// Offset of its first unit, in bytes.
        offset: usize,
        /// Its length, in bytes.
        len: usize,
        /// The value as `decode` writes it by default (`U+0041`, or decimal
        /// for a signed codec).
        text: String,
    },
    /// A maximal subpart, or the incomplete sequence at the end.
    Error {
        /// Offset of its first unit, in bytes.
        offset: usize,
        /// Its length, in bytes.
        len: usize,
        /// The message `decode --errors strict` prints for it (after `placemat: `).
        message: String,
    },
}

/// Every item of `bytes`, the input being called `name` in messages.
pub fn decode(codec: &dyn DynCodec, name: &str, bytes: &[u8]) -> Result<Vec<Item>, CliError> {
    let format = if codec.info().sign.is_some() { ValueFormat::Dec } else { ValueFormat::U };
    let mut input = input::in_memory(name, bytes.to_vec());
    let mut items = Vec::new();
    decode::for_each(codec, &mut input, MAX_UNITS, |event| {
        items.push(match event {
            Event::Value { value, offset, len } => Item::Value { offset, len, text: value.shown(format) },
            Event::Error { offset, found, len } => {
                let message = decode::decode_error(codec, name, offset, found, len).to_string();
                Item::Error { offset, len, message }
            }
        });
        Ok(())
    })?;
    Ok(items)
}

/// What `trace` prints for `bytes`.
pub fn trace(codec: &dyn DynCodec, name: &str, bytes: &[u8]) -> Result<String, CliError> {
    let mut out = Vec::new();
    super::trace::write(codec, input::in_memory(name, bytes.to_vec()), MAX_UNITS, &mut out)?;
    String::from_utf8(out).map_err(|e| CliError::msg(e.to_string()))
}

/// One row of `compare` for one codec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// Its key (the first column of `compare --format csv`).
    pub key: String,
    /// What it is.
    pub label: String,
    /// The codec's cell, as `compare --format csv` writes it.
    pub value: String,
}

/// What `compare` says of `codec`: every property, analysed on the built-in
/// corpora with `compare`'s options.
pub fn properties(codec: &dyn DynCodec) -> Result<Vec<Property>, CliError> {
    let analysis = compare::analyse_one(codec, &mut |_| {})?;
    let grid = compare::grid(std::slice::from_ref(&analysis));
    Ok(grid
        .rows
        .into_iter()
        .map(|row| Property { key: row.key, label: row.label, value: row.cells[0].text() })
        .collect())
}
