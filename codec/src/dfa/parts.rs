//! What a [`super::Dfa`] is built from: the tables, and the facts and
//! certificates the compiler derived from them, which [`super::Dfa::new`]
//! checks (the `check` module).

use super::Facts;

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

/// Everything a [`Dfa`](super::Dfa) is made from: the tables in the format of
/// the [`dfa`](super) module docs, and the facts and certificates derived from them by the compiler.
#[derive(Copy, Clone, Debug)]
pub struct Parts<'a> {
    /// The class of every unit.
    pub classes: &'a [u8; 256],
    /// The digit of every unit.
    pub digits: &'a [u8; 256],
    /// The transition entries, `states × classes`.
    pub transitions: &'a [u32],
    /// The biases; entry 0 is 0.
    pub biases: &'a [u64],
    /// The derived facts.
    pub facts: Facts,
    /// The validator's rows.
    pub shift: ShiftRows<'a>,
    /// The expanded decoding table ([`expanded`](super::expanded)), when the automaton has one.
    pub expanded: Option<Rows<'a>>,
    /// The direct decoding table ([`direct`](super::direct)), for an automaton without an
    /// expanded table, when it has one.
    pub direct: Option<Rows<'a>>,
    /// For an automaton that is not cyclic, one number per state that strictly
    /// falls along every transition that neither ends nor kills a sequence (the
    /// units still to come, at most); empty for a cyclic one.
    pub depth: &'a [u8],
    /// With an expanded table, the weight of the payload still to come in
    /// every state (1 for dead and start): 2 to the payload bits still to
    /// come, or the product of the digit radices still to come; empty without one.
    pub remaining: &'a [u64],
    /// Where each transition puts its payload, when not simply below the bits
    /// read before ([`PLACE_SHIFT`](super::PLACE_SHIFT)): one entry per transition entry, `(s << 8)
    /// | q` for `v = (v << s) | (payload << q)`. Payload groups least
    /// significant first (LEB128) and little-endian units (UTF-16LE) need it.
    pub places: Option<&'a [u64]>,
    /// For a codec of digit units (UTF-1), each transition's multiplier: one
    /// entry per transition entry, `v = v * radix + digit`, the digit whole
    /// when the entry takes 8 payload bits.
    pub radices: Option<&'a [u64]>,
    /// The SIMD validator's tables, for a codec whose validity is local
    /// (`placemat_compiler::automaton::local` proves it and derives them).
    pub simd: Option<crate::simd::Tables>,
    /// How the SIMD decoding kernel reads the codec's sequences, for a codec
    /// with SIMD tables whose continuation units and leads have one
    /// ([`crate::simd::Shape`]; the compiler derives it, the checks hold every
    /// lead and the continuation units to it); `None` leaves decoding behind
    /// SIMD validation to the scalar loop.
    pub decoding_shape: Option<crate::simd::Shape>,
    /// For a codec whose forms overlap by design (`overlap: longest`), one
    /// entry per state ([`pending_entry`](super::pending_entry)): 0, or the pending value of the
    /// state — the units read so far are a whole sequence (of value `v +
    /// bias`, in the state its last unit led to) that a longer one may still
    /// replace. Empty for other codecs.
    pub pending: &'a [u32],
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
