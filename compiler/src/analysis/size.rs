//! Size: how many units a text takes in a codec, and how big its automaton is.
//!
//! ```
//! use placemat_compiler::analysis::{AutomatonSize, Encoded};
//! use placemat_compiler::LoadedCodec;
//! let codec = LoadedCodec::from_text(r#"
//!     pub Two { name: "two", value: u32, range: 0 ..= 0x7FF, layout: shortest,
//!               forms: { "0xxxxxxx", "110xxxxx 10xxxxxx" } }
//! "#).unwrap();
//! // "añ" is 61 C3 B1; U+0800 does not fit and is counted apart.
//! let e = Encoded::new(&codec, &[0x61, 0xF1, 0x800]);
//! assert_eq!(e.units, [0x61, 0xC3, 0xB1]);
//! let size = e.size("tiny");
//! assert_eq!((size.values, size.units, size.unencodable), (2, 3, 1));
//! assert_eq!(size.units_per_value(), 1.5);
//! let a = AutomatonSize::of(codec.automaton());
//! assert_eq!((a.classes, a.states), (4, 3));
//! ```
//!
//! Units are what a codec writes: bytes, or for alphabet codecs one character per
//! 6-bit unit, so "units per character" is also bytes per character as stored.

use crate::Automaton;
use placemat_codec::DynCodec;

/// A corpus encoded by one codec, with the offset where each value starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoded {
    /// The encoded units.
    pub units: Vec<u8>,
    /// The values that were encoded, in order (unencodable ones left out).
    pub values: Vec<u64>,
    /// `starts[i]` is the offset of `values[i]`'s first unit.
    pub starts: Vec<usize>,
    /// How many corpus values the codec could not encode.
    pub unencodable: usize,
}

impl Encoded {
    /// Encodes `values` with `codec`, skipping (and counting) what it cannot encode.
    pub fn new(codec: &dyn DynCodec, values: &[u32]) -> Self {
        let mut e = Encoded {
            units: Vec::with_capacity(values.len() * 2),
            values: Vec::with_capacity(values.len()),
            starts: Vec::with_capacity(values.len()),
            unencodable: 0,
        };
        for &v in values {
            let at = e.units.len();
            if codec.encode_push(u64::from(v), &mut e.units).is_ok() {
                e.starts.push(at);
                e.values.push(u64::from(v));
            } else {
                e.units.truncate(at);
                e.unencodable += 1;
            }
        }
        e
    }

    /// Whether a sequence starts (or the text ends) at `offset`.
    pub fn is_boundary(&self, offset: usize) -> bool {
        offset == self.units.len() || self.starts.binary_search(&offset).is_ok()
    }

    /// The index of the value whose units include `offset` (`values.len()` at the end).
    pub fn value_at(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset).saturating_sub(1).min(self.values.len())
    }

    /// The size summary, under the corpus's name.
    pub fn size(&self, corpus: &str) -> CorpusSize {
        CorpusSize {
            corpus: corpus.to_string(),
            values: self.values.len(),
            units: self.units.len(),
            unencodable: self.unencodable,
        }
    }
}

/// A corpus's size in one codec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusSize {
    /// The corpus's name.
    pub corpus: String,
    /// Values encoded.
    pub values: usize,
    /// Units written.
    pub units: usize,
    /// Values the codec could not encode (left out of both counts).
    pub unencodable: usize,
}

impl CorpusSize {
    /// Units (bytes as stored) per character.
    pub fn units_per_value(&self) -> f64 {
        if self.values == 0 {
            0.0
        } else {
            self.units as f64 / self.values as f64
        }
    }
}

/// The size of a codec's tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutomatonSize {
    /// Unit classes.
    pub classes: usize,
    /// States, the dead state included.
    pub states: usize,
    /// Bytes of the class map, digit map, transitions and biases.
    pub table_bytes: usize,
    /// Whether validity is local, so that a SIMD validator is derived
    /// (`automaton::local::text::verdict`).
    pub simd: String,
    /// Whether the units mark where values end, so that integer streams are
    /// decoded a word at a time (`automaton::flagged::verdict`).
    pub flagged: String,
    /// Whether the first unit gives a value's length, so that integer
    /// streams are decoded one load per value (`automaton::prefixed::verdict`).
    pub prefixed: String,
}

impl AutomatonSize {
    /// Measures `dfa`.
    pub fn of(a: &Automaton) -> Self {
        AutomatonSize {
            classes: a.class_count(),
            states: a.state_count(),
            table_bytes: a.table_bytes(),
            simd: crate::automaton::local::text::verdict(&a.local),
            flagged: crate::automaton::flagged::verdict(&a.flagged),
            prefixed: crate::automaton::prefixed::verdict(&a.prefixed),
        }
    }
}
