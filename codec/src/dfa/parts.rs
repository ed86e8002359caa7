//! What a [`super::Dfa`] is built from: the class-compressed [`Table`], and
//! one type per alternative the compiler chooses between — how payload joins
//! the value ([`Payload`]), whether sequences loop ([`Loops`]), which table
//! the decoder reads ([`Decoding`]), the validator's [`ShiftRows`], the
//! [`Simd`] tables — gathered by the [`Parts`] builder, whose defaults are
//! the plainest choice of each. A combination the walkers cannot run (an
//! expanded table beside a direct one, places beside radices, a decoding
//! shape without SIMD tables, a weight certificate without an expanded table)
//! cannot be written; what types cannot say (whether the table agrees with
//! them) [`super::Dfa::new`] checks.
//!
//! ```
//! use placemat_codec::dfa::{Dfa, Parts, Table};
//! // 7-bit ASCII: classes 00–7F and 80–FF; state 0 dead, state 1 the start
//! // (ids premultiplied by the 2 classes). Each ASCII unit is a 7-bit value.
//! let classes = core::array::from_fn(|u| u8::from(u >= 0x80));
//! let digits = core::array::from_fn(|u| u as u8);
//! let transitions = [0, 0, 2 | 7 << 16, 0];
//! let table = Table::new(&classes, &digits, &transitions, &[0]);
//! let dfa = Dfa::new(Parts::new(table).with_depth(&[0, 0])).unwrap();
//! assert!(dfa.validate(b"plain").is_ok() && !dfa.is_cyclic());
//! // The facts are derived from the table: every unit is a sync and an end unit.
//! assert_eq!(dfa.facts().sync_units, [u64::MAX; 4]);
//! ```

use crate::simd::{Shape, Tables};
use crate::WideRuns;

/// The class-compressed transducer in the format of the [`dfa`](super)
/// module docs, with the two numbers that say how to read it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Table<'a> {
    /// The class of every unit.
    pub classes: &'a [u8; 256],
    /// The digit of every unit.
    pub digits: &'a [u8; 256],
    /// The transition entries, `states × classes`, ids premultiplied.
    pub transitions: &'a [u32],
    /// The biases; entry 0 is 0.
    pub biases: &'a [u64],
    /// Bytes per code unit: 1, 2 or 4.
    pub unit_bytes: u8,
    /// The start states, one per context of the codec's rules across
    /// adjacent values: states 1 to `contexts` (1 without rules).
    pub contexts: u8,
}

impl<'a> Table<'a> {
    /// A table of byte units and one context.
    pub const fn new(classes: &'a [u8; 256], digits: &'a [u8; 256], transitions: &'a [u32], biases: &'a [u64]) -> Self {
        Table { classes, digits, transitions, biases, unit_bytes: 1, contexts: 1 }
    }

    /// The same table read in code units of `unit_bytes` bytes.
    pub const fn with_unit_bytes(mut self, unit_bytes: u8) -> Self {
        self.unit_bytes = unit_bytes;
        self
    }

    /// The same table with `contexts` start states.
    pub const fn with_contexts(mut self, contexts: u8) -> Self {
        self.contexts = contexts;
        self
    }
}

/// How a transition joins its payload to the value read so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Payload<'a> {
    /// Below the bits read before: `v = v << n | payload`.
    Shifted,
    /// Where each transition says: one entry per transition entry, `(s << 8) | q`
    /// for `v = (v << s) | (payload << q)` ([`PLACE_SHIFT`](super::PLACE_SHIFT)).
    /// Payload groups least significant first (LEB128) and little-endian
    /// units (UTF-16LE) need it.
    Placed(&'a [u64]),
    /// Times a radix, for digit units (UTF-1): one multiplier per transition
    /// entry, `v = v * radix + digit`, the digit whole when the entry takes 8
    /// payload bits.
    Radix(&'a [u64]),
}

/// Whether paths loop other than through the start states.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Loops<'a> {
    /// They may: sequences have no length limit and values can outgrow any
    /// integer. Claiming so needs no proof; the walkers only give up an
    /// assumption.
    Cyclic,
    /// They do not, as proved by `depth`: one number per state that strictly
    /// falls along every transition that neither ends nor kills a sequence
    /// (the units still to come, at most).
    Acyclic {
        /// The certificate.
        depth: &'a [u8],
    },
    /// Only a state looping on itself on units that carry no payload (the
    /// zero groups of padding without a limit): sequences have no length
    /// limit, but values stay within what the paths without those loops
    /// spell. `depth` is the certificate: it strictly falls along every other
    /// transition that neither ends nor kills a sequence.
    Padding {
        /// The certificate.
        depth: &'a [u8],
    },
}

/// The table the decoder walks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decoding<'a> {
    /// The class-compressed transitions themselves.
    Classes,
    /// The expanded table ([`expanded`](super::expanded)): each entry the
    /// unit's payload already multiplied by its weight.
    Expanded {
        /// The next rows and the placed payloads.
        rows: Rows<'a>,
        /// The certificate: the weight of the payload still to come in every
        /// state (1 for dead and start), 2 to the payload bits still to come
        /// or the product of the digit radices still to come.
        remaining: &'a [u64],
    },
    /// The direct table ([`direct`](super::direct)), for an automaton whose
    /// states do not know the weight of what is to come.
    Direct(Rows<'a>),
}

/// The SIMD validator's tables, for a codec whose validity is local
/// (`placemat_compiler::automaton::local` proves it and derives them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Simd {
    /// The validator's tables.
    pub tables: Tables,
    /// How the SIMD decoding kernel reads the codec's sequences, for a codec
    /// whose continuation units and leads have one (the compiler derives it,
    /// the checks hold every lead and the continuation units to it); `None`
    /// leaves decoding behind SIMD validation to the scalar loop.
    pub decoding: Option<Shape>,
}

/// The shift-DFA validator's rows (see the `shift` module): for every unit one
/// integer holding, at each state's bit offset, the offset of the state it goes
/// to. `offsets[s]` is the offset of table state `s` (not premultiplied).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ShiftRows<'a> {
    /// No rows: the automaton is too large; [`Dfa::validate`](super::Dfa::validate) walks the table.
    None,
    /// 6-bit fields in `u64` rows (fields may overlap where every row agrees).
    Narrow {
        /// The offset of every table state.
        offsets: &'a [u8],
        /// The row of every unit.
        rows: &'a [u64; 256],
    },
    /// 7-bit fields in `u128` rows.
    Wide {
        /// The offset of every table state.
        offsets: &'a [u8],
        /// The row of every unit.
        rows: &'a [u128; 256],
    },
}

/// Everything a [`Dfa`](super::Dfa) is made from. [`Parts::new`] starts from
/// the table alone (shifted payload, cyclic, the class-compressed table as
/// decoder, no shift rows, wide runs or SIMD tables, no pending values), and
/// each `with_` method chooses another alternative. The facts
/// ([`Facts`](super::Facts)) are not among the parts: the runtime derives
/// them from the table ([`Facts::of`](super::Facts::of)).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Parts<'a> {
    /// The class-compressed table.
    pub table: Table<'a>,
    /// How payload joins the value.
    pub payload: Payload<'a>,
    /// Whether paths loop, with the proof if not.
    pub loops: Loops<'a>,
    /// The table the decoder walks.
    pub decoding: Decoding<'a>,
    /// The validator's rows.
    pub shift: ShiftRows<'a>,
    /// The code units wider than a byte that are whole sequences of
    /// themselves from the start state, found by the compiler's search and
    /// checked unit by unit ([`WideRuns::NONE`] claims none, which always holds).
    pub wide_runs: WideRuns,
    /// The SIMD validator's tables, for a codec whose validity is local.
    pub simd: Option<Simd>,
    /// For a codec whose forms overlap by design (`overlap: longest`), one
    /// entry per state ([`pending_entry`](super::pending_entry)): 0, or the pending value of the
    /// state — the units read so far are a whole sequence (of value `v +
    /// bias`, in the state its last unit led to) that a longer one may still
    /// replace. Empty for other codecs.
    pub pending: &'a [u32],
}

impl<'a> Parts<'a> {
    /// The parts of `table` with every default of the type docs.
    pub const fn new(table: Table<'a>) -> Self {
        Parts {
            table,
            payload: Payload::Shifted,
            loops: Loops::Cyclic,
            decoding: Decoding::Classes,
            shift: ShiftRows::None,
            wide_runs: WideRuns::NONE,
            simd: None,
            pending: &[],
        }
    }

    /// With payload placed or multiplied as `payload` says.
    pub const fn with_payload(mut self, payload: Payload<'a>) -> Self {
        self.payload = payload;
        self
    }

    /// Acyclic, as `depth` proves ([`Loops::Acyclic`]).
    pub const fn with_depth(mut self, depth: &'a [u8]) -> Self {
        self.loops = Loops::Acyclic { depth };
        self
    }

    /// Looping only through payload-free loops of one state, as `depth`
    /// proves ([`Loops::Padding`]).
    pub const fn with_padding_loops(mut self, depth: &'a [u8]) -> Self {
        self.loops = Loops::Padding { depth };
        self
    }

    /// Decoded by `decoding`.
    pub const fn with_decoding(mut self, decoding: Decoding<'a>) -> Self {
        self.decoding = decoding;
        self
    }

    /// Validated by the shift rows `shift`.
    pub const fn with_shift(mut self, shift: ShiftRows<'a>) -> Self {
        self.shift = shift;
        self
    }

    /// With the wide runs `runs`.
    pub const fn with_wide_runs(mut self, runs: WideRuns) -> Self {
        self.wide_runs = runs;
        self
    }

    /// Validated by SIMD with `tables`, decoded behind it as `decoding` says.
    pub const fn with_simd(mut self, tables: Tables, decoding: Option<Shape>) -> Self {
        self.simd = Some(Simd { tables, decoding });
        self
    }

    /// With the pending values `pending`.
    pub const fn with_pending(mut self, pending: &'a [u32]) -> Self {
        self.pending = pending;
        self
    }

    /// The place codes, with [`Payload::Placed`].
    pub const fn places(&self) -> Option<&'a [u64]> {
        match self.payload {
            Payload::Placed(places) => Some(places),
            _ => None,
        }
    }

    /// The multipliers, with [`Payload::Radix`].
    pub const fn radices(&self) -> Option<&'a [u64]> {
        match self.payload {
            Payload::Radix(radices) => Some(radices),
            _ => None,
        }
    }

    /// One word per transition ([`Parts::places`] or [`Parts::radices`]).
    pub(crate) const fn words(&self) -> Option<&'a [u64]> {
        match self.payload {
            Payload::Placed(w) | Payload::Radix(w) => Some(w),
            Payload::Shifted => None,
        }
    }

    /// Whether paths may loop other than through the start states (sequences
    /// have no length limit).
    pub const fn is_cyclic(&self) -> bool {
        !matches!(self.loops, Loops::Acyclic { .. })
    }

    /// Whether a loop may carry payload, so that values can outgrow any
    /// integer ([`Loops::Cyclic`]).
    pub const fn values_outgrow(&self) -> bool {
        matches!(self.loops, Loops::Cyclic)
    }

    /// The expanded table, with [`Decoding::Expanded`].
    pub const fn expanded(&self) -> Option<Rows<'a>> {
        match self.decoding {
            Decoding::Expanded { rows, .. } => Some(rows),
            _ => None,
        }
    }

    /// The direct table, with [`Decoding::Direct`].
    pub const fn direct(&self) -> Option<Rows<'a>> {
        match self.decoding {
            Decoding::Direct(rows) => Some(rows),
            _ => None,
        }
    }

    /// The SIMD decoding kernel's shape, if any.
    pub const fn decoding_shape(&self) -> Option<Shape> {
        match self.simd {
            Some(Simd { decoding, .. }) => decoding,
            None => None,
        }
    }
}

/// A decoding table of two arrays with one row of
/// [`ROW`](super::expanded::ROW) entries per state: the next state's row
/// (`id × ROW`) and a `u64` per state and unit (the expanded table's placed
/// payloads, [`super::expanded`]; the direct table's entries,
/// [`super::direct`]). The next state has an array of its own so that a
/// walk's chain from one unit to the next is an addition and a load.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rows<'a> {
    /// The next state's row, per `state × ROW + unit`.
    pub next: &'a [u32],
    /// The table's value, per `state × ROW + unit`.
    pub values: &'a [u64],
}

impl Rows<'_> {
    /// The two arrays in owned storage.
    pub fn to_vecs(self) -> (alloc::vec::Vec<u32>, alloc::vec::Vec<u64>) {
        (self.next.to_vec(), self.values.to_vec())
    }

    /// From the state whose row is `state`, unit `unit`: the next state's row
    /// and the value.
    ///
    /// # Panics
    /// If `state` is not a row of the table.
    #[inline(always)]
    pub fn step(&self, state: usize, unit: u8) -> (usize, u64) {
        let i = state + usize::from(unit);
        (self.next[i] as usize, self.values[i])
    }
}
